"""What checking a C++ implementation (profile aed2) costs, and whether the
Google Test cases it prints fail where a student runs them.

    python benchmarks/aed2.py              # cost: seeds 0-2
    python benchmarks/aed2.py --seeds 5
    python benchmarks/aed2.py --cases --course-tests PATH/juego-tests.cpp SRC...

Cost: builds our C++ reference (``conformance/cpp/reference``) in a fresh,
private build cache, with and without the sanitizers, then looks it up again
(the cached rebuild), then runs the default check (100 examples, shrinking
on, what ``python -m conformance path/to/src`` does) per seed. Prints one
table of seconds. The machine's load shows in every number: say how loaded
it was.

Cases (``--cases``): checks each C++ folder ``SRC`` (default seed 0) and
compiles every Google Test case the report prints inside the course's test
file ``--course-tests`` (its ``JuegoTest`` fixture; includes adapted by
``conformance.aed2.gtest.adapt``) with the real library and the folder's
sources, in a plain build (``g++ -g``, as students build the course's
tests) and in the build the case's comment names; prints whether each case
fails there. Needs libgtest-dev. Uses the normal build cache.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path


def cost(seeds: int) -> int:
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        from conformance.aed2.build import build
        from conformance.aed2.mutants import REFERENCE
        from conformance.checks import RunOptions, check_target
        from conformance.targets import cpp_spec

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
            verdict, _ = check_target(cpp_spec(REFERENCE), "aed2", RunOptions(seed=seed))[0]
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


def cases(folders: list[str], course_tests: str, seed: int) -> int:
    from conformance.aed2 import gtest
    from conformance.checks import RunOptions, check_target
    from conformance.emit import emit_for
    from conformance.targets import cpp_spec

    if gtest.library() is None:
        print(gtest.missing(), file=sys.stderr)
        return 2
    course = gtest.adapt(Path(course_tests).read_text(errors="replace"))
    total = plain_failing = named_failing = 0
    for folder in folders:
        verdict, _ = check_target(cpp_spec(folder), "aed2", RunOptions(seed=seed))[0]
        if verdict.error:
            print(f"{folder}: cannot be checked: {verdict.error.splitlines()[0]}")
            continue
        if verdict.conforms:
            print(f"{folder}: conforms (seed {seed})")
            continue
        for i, c in enumerate([verdict.counterexample, *verdict.more_findings], 1):
            case = emit_for(c)
            name = re.search(r"TEST_F\(JuegoTest, (\w+)\)", case).group(1)
            text = course + "\n\n" + case
            named = c.sanitizer_flags or "-g"
            results = {}
            for flags in dict.fromkeys(["-g", named]):
                binary = gtest.build_tests(text, folder, flags)
                results[flags] = not gtest.run_case(binary, name, sanitized=flags != "-g").passed
            total += 1
            plain_failing += results["-g"]
            named_failing += results[named]
            print(f"{folder}: finding {i}: {c.message[:100]}")
            print(f"    its comment names: g++ {named}; fails in a plain build: "
                  f"{'yes' if results['-g'] else 'no'}; in the named build: "
                  f"{'yes' if results[named] else 'no'}")
    print(f"{total} case(s): {plain_failing} fail in a plain build, {named_failing} in the "
          "build their comment names")
    return 0 if named_failing == total else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--cases", action="store_true",
                        help="check FOLDERs and run their printed cases in the course's file")
    parser.add_argument("--course-tests", help="the course's test file (with JuegoTest)")
    parser.add_argument("--seed", type=int, default=0, help="--cases: the check's seed")
    parser.add_argument("folders", nargs="*", help="--cases: C++ folders holding aed2_Juego.h")
    args = parser.parse_args()
    if args.cases:
        if not args.course_tests or not args.folders:
            parser.error("--cases needs --course-tests FILE and at least one folder")
        return cases(args.folders, args.course_tests, args.seed)
    return cost(args.seeds)


if __name__ == "__main__":
    sys.exit(main())
