"""What checking a C++ implementation (profile aed2) costs, and whether the
Google Test cases it prints fail where a student runs them.

    python benchmarks/aed2.py              # cost: seeds 0-2
    python benchmarks/aed2.py --seeds 5
    python benchmarks/aed2.py --cases SRC...
    python benchmarks/aed2.py --cases --tree ../before SRC...   # with another commit's code

Cost: builds our C++ reference (``conformance/profiles/aed2/reference``) in a fresh,
private build cache, with and without the sanitizers, then looks it up again
(the cached rebuild), then runs the default check (100 examples, shrinking
on, what ``python -m conformance path/to/src`` does) per seed. Prints one
table of seconds. The machine's load shows in every number: say how loaded
it was.

Cases (``--cases``): do the Google Test cases the check prints fail where a
student runs them? For each C++ folder ``SRC`` (holding ``aed2_Juego.h``) it
runs ``python -m conformance SRC --seed S`` as a student would (this tree's
code, or with ``--tree`` the code of another tree: a worktree of an older
commit, to compare before and after a change), takes every ``TEST_F`` case
the report prints, appends it to a course-style test file (ours by default,
``tests/conformance/fixtures/aed2_course/juego-tests.cpp``; ``--course-tests``
the course's own, its includes adapted by ``conformance.profiles.aed2.gtest.adapt``),
builds it with the real Google Test and the folder's sources, as the course
builds its tests (``g++ -std=gnu++11 -g``, no optimisation), at ``-O2``, and
with the sanitizers (the flags a memory-only case names, else
``-fsanitize=address,undefined -fno-sanitize-recover=all -g``), and runs it.
Prints a Markdown table, one row per implementation and finding: verdict,
rule blamed, the case's kind (plain, memory-only, or unmarked before the two
builds), whether it fails in each build, run ``--runs`` times (default 5:
what a bad read does in a plain build changes from run to run, so "3 of 5"
says a case fails only in some runs); then the counts. Exit status 1 when a
case does not fail every time in the build its comment names (it is useless
to the student).
Needs libgtest-dev; uses the normal build cache (``XDG_CACHE_HOME``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path


def cost(seeds: int) -> int:
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        from conformance.profiles.aed2.build import build
        from conformance.profiles.aed2.mutants import REFERENCE
        from conformance.checking.checks import RunOptions, check_target
        from conformance.checking.targets import own_spec

        rows = []
        for sanitize in (True, False):
            b = build(REFERENCE, sanitize=sanitize)
            label = "sanitized" if b.sanitized else "plain"
            rows.append((f"build, fresh cache ({label})", b.seconds))
            again = build(REFERENCE, sanitize=sanitize)
            assert again.cached
            rows.append((f"build, cached ({label})", again.seconds))
        times = []
        for seed in range(seeds):
            start = time.monotonic()
            verdict, _ = check_target(own_spec("aed2", REFERENCE), "aed2", RunOptions(seed=seed))[0]
            times.append(time.monotonic() - start)
            if not verdict.conforms:
                print(f"the reference does not conform under seed {seed}", file=sys.stderr)
                return 1
        rows.append((f"default check, cached build (median of {seeds} seeds)",
                     statistics.median(times)))
        rows.append((f"default check, cached build (worst of {seeds} seeds)", max(times)))
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    width = max(len(r[0]) for r in rows)
    print(f"{'what':{width}}  seconds")
    for what, seconds in rows:
        print(f"{what:{width}}  {seconds:7.2f}")
    return 0


#: The builds each printed case is run in: the course's (``g++ -g``, its
#: CMakeLists sets no optimisation: -O0), the same at -O2, and with the
#: sanitizers (the flags a memory-only case names, else these).
PLAIN_BUILDS = (("-O0", "-g -O0"), ("-O2", "-g -O2"))
#: Our course-style test file (its ``JuegoTest`` fixture), the default --course-tests.
COURSE_STYLE = Path(__file__).resolve().parent.parent / "tests/conformance/fixtures/aed2_course/juego-tests.cpp"
_CASE = re.compile(r"^TEST_F\(JuegoTest, (\w+)\) \{\n.*?^\}", re.M | re.S)


@dataclass
class Row:
    name: str                   # the implementation (its folder)
    verdict: str
    finding: int = 0            # 1, 2...: which finding; 0: none
    rule: str = ""
    kind: str = ""              # plain / memory-only / unmarked (a tree before the two builds)
    fails: dict = field(default_factory=dict)       # build label -> "yes" / "no" / why not run


def _label(folder: str) -> str:
    path = Path(folder).resolve()
    return path.parent.name if path.name == "src" else path.name


def _check(folder: str, seed: int, tree: Path | None) -> tuple[dict, str]:
    """Run ``python -m conformance FOLDER`` (this tree's, or ``tree``'s code:
    a worktree of another commit) as a student would; its JSON verdict and
    its printed report."""
    with tempfile.TemporaryDirectory(prefix="aed2-cases-") as tmp:
        env = dict(os.environ)
        cwd = str(tree) if tree else tmp    # python -m puts the working folder first on the path
        if tree:
            env["PYTHONPATH"] = str(tree)
        out = Path(tmp, "verdict.json")
        proc = subprocess.run([sys.executable, "-m", "conformance", str(Path(folder).resolve()),
                               "--profile", "aed2", "--seed", str(seed), "--json", str(out)],
                              cwd=cwd, env=env, capture_output=True, text=True)
        if not out.exists():        # it could not start: say why, as a verdict's error
            why = (proc.stderr.strip() or proc.stdout.strip() or f"exit status {proc.returncode}")
            return {"error": why.splitlines()[-1]}, proc.stdout
        return json.loads(out.read_text())["verdicts"][0], proc.stdout


def _kind(case: str) -> str:
    if "Shows only in a build with sanitizers" in case:
        return "memory-only"
    if "Fails in a plain build" in case:
        return "plain"
    return "unmarked"


def _fails(text: str, folder: str, name: str, flags: str, std: str, runs: int) -> str:
    """"yes" when the case fails in each of ``runs`` runs, "no" when it
    passes in each, else "K of N" (what a bad read or write does in a plain
    build changes from run to run: the address space is laid out at random)."""
    from conformance.profiles.aed2 import gtest
    from conformance.profiles.aed2.build import BuildError
    try:
        binary = gtest.build_tests(text, folder, flags, std=std)
    except BuildError as e:
        return "does not compile: " + str(e).splitlines()[-1][:80]
    failed = sum(not gtest.run_case(binary, name, sanitized="-fsanitize" in flags).passed
                 for _ in range(runs))
    return "yes" if failed == runs else "no" if failed == 0 else f"{failed} of {runs}"


def cases(folders: list[str], course_tests: str | None, seed: int, tree: str | None,
          std: str, runs: int) -> int:
    """The table of the module's docstring; exit status 1 when a case
    passes in the build its comment names (useless to the student)."""
    from conformance.profiles.aed2 import gtest, sanitizer

    if gtest.library() is None:
        print(gtest.missing(), file=sys.stderr)
        return 2
    course_file = Path(course_tests) if course_tests else COURSE_STYLE
    course = gtest.adapt(course_file.read_text(errors="replace"))
    rows: list[Row] = []
    for folder in folders:
        verdict, printed = _check(folder, seed, Path(tree).resolve() if tree else None)
        name = _label(folder)
        if verdict.get("error"):
            rows.append(Row(name, "cannot be checked: " + verdict["error"].splitlines()[0][:60]))
            continue
        if verdict["conforms"]:
            rows.append(Row(name, "conforms"))
            continue
        found = [verdict["counterexample"], *verdict.get("more_findings", [])]
        printed_cases = [m.group(0) for m in _CASE.finditer(printed)]
        for i, (c, case) in enumerate(zip(found, printed_cases), 1):
            row = Row(name, "does not conform", i, c.get("rule") or "(none)", _kind(case))
            case_name = re.match(r"TEST_F\(JuegoTest, (\w+)\)", case).group(1)
            text = course + "\n\n" + case
            for label, flags in PLAIN_BUILDS:
                row.fails[label] = _fails(text, folder, case_name, flags, std, runs)
            asan = c.get("sanitizer_flags") or sanitizer.SANITIZER_FLAGS
            row.fails["ASan"] = _fails(text, folder, case_name, asan, std, runs)
            rows.append(row)
    print(f"Seed {seed}; checked with {'the tree at ' + tree if tree else 'this tree'}; each case "
          f"built with g++ -std={std} inside {course_file.name} and the real Google Test, run "
          f"{runs} times per build (yes: fails every time).")
    print()
    print("| implementation | verdict | finding | rule blamed | case | fails -O0 plain "
          "| fails -O2 plain | fails under ASan |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r.name} | {r.verdict} | {r.finding or ''} | {r.rule} | {r.kind} | "
              f"{r.fails.get('-O0', '')} | {r.fails.get('-O2', '')} | {r.fails.get('ASan', '')} |")
    emitted = [r for r in rows if r.finding]
    count = {label: sum(r.fails[label] == "yes" for r in emitted) for label in ("-O0", "-O2", "ASan")}
    useless = [r for r in emitted
               if (r.kind == "plain" and r.fails["-O0"] != "yes")
               or (r.kind == "memory-only" and r.fails["ASan"] != "yes")]
    print()
    print(f"{len(emitted)} case(s) from {len(folders)} implementation(s): {count['-O0']} fail "
          f"every time at -O0 plain, {count['-O2']} at -O2 plain, {count['ASan']} under ASan; "
          f"{len(useless)} do not fail every time in the build their comment names")
    return 1 if useless else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--cases", action="store_true",
                        help="check FOLDERs and run their printed cases in the course's file")
    parser.add_argument("--course-tests", help="--cases: a test file with the JuegoTest fixture "
                        "(default: our course-style one, tests/conformance/fixtures/aed2_course)")
    parser.add_argument("--seed", type=int, default=0, help="--cases: the check's seed")
    parser.add_argument("--tree", help="--cases: check with the code of this tree (a worktree "
                        "of another commit, e.g. before a change) instead of this one")
    parser.add_argument("--std", default="gnu++11",
                        help="--cases: the standard the cases are built with (default: the "
                        "course's CMakeLists, gnu++11)")
    parser.add_argument("--runs", type=int, default=5,
                        help="--cases: runs of each case per build (default: 5)")
    parser.add_argument("folders", nargs="*", help="--cases: C++ folders holding aed2_Juego.h")
    args = parser.parse_args()
    if args.cases:
        if not args.folders:
            parser.error("--cases needs at least one folder")
        return cases(args.folders, args.course_tests, args.seed, args.tree, args.std, args.runs)
    return cost(args.seeds)


if __name__ == "__main__":
    sys.exit(main())
