"""A class of submissions under many seeds: is each wrong one caught under
every seed, and which rules does each break?

    python benchmarks/students.py DIR                    # seeds 1-20, in the sandbox
    python benchmarks/students.py DIR --seeds 20 --also 2026 --jobs 2
    python benchmarks/students.py DIR --in-process       # trusted (read) code only: faster

A course grades everyone under one fixed seed, so a submission whose bug is
found under some seeds and not others keeps full marks in some courses.
For every submission of DIR (as ``sokoban grade`` finds them) and every seed
1..N (and ``--also`` seeds), checks it by rules as ``grade`` does
(:func:`conformance.commands.grade.grade_one`: the fixed scenarios, then the masked
search rounds), without shrinking (a departure as first found: the same
rules are broken, the counterexamples are just not the smallest). Each
submission is checked in a process of its own, killed after ``--timeout``
seconds for all its seeds. With ``--in-process`` the submission's code runs
in that process, outside the sandbox (no time limit per call; several times
faster): only for code you have read. ``--first`` makes each a plain check
(the first departure and the rule it is blamed on, as ``sokoban check``
without shrinking): whether a seed catches a submission, at a fraction of
the cost for a wrong one; the rules columns then hold the first rule only.

Prints three tables:

* per submission: under how many seeds it was caught, the rules it broke
  under every seed and those it broke under some seeds only, its score
  (rules kept) per seed as min..max;
* per rule: how many submissions broke it under some seed and under every
  seed (how the class's scores spread by rule);
* the wrong submissions not caught under some seed, with those seeds.

Then the number of distinct score vectors (which rules kept) under each
``--also`` seed. ``--json FILE`` keeps every row. Exits 1 if a submission
caught under some seed escaped under another.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def _first(path: str, options) -> dict:
    """A plain check's row (the first departure only): verdict, its rule."""
    import time
    from conformance.checking.checks import check_target
    from conformance.reports.output import verdict_status
    from conformance.checking.targets import BadTarget, resolve
    start = time.perf_counter()
    try:
        verdict, _ = check_target(resolve(path), None, options)[0]
    except BadTarget as e:
        return {"verdict": "bad target", "score": 0, "max_score": 0, "broken": "",
                "rules": {}, "message": str(e), "seconds": 0}
    c = verdict.counterexample
    rule = (c.rule or "?") if c is not None else ""
    return {"verdict": verdict_status(verdict), "score": 0, "max_score": 0, "broken": rule,
            "rules": {rule: {"status": "broken"}} if rule else {},
            "message": c.message if c is not None else (verdict.error or ""),
            "seconds": round(time.perf_counter() - start, 2)}


def worker(path: str, seeds: list[int], in_process: bool, first: bool) -> None:
    """Check one submission under each seed; one JSON row per seed on stdout
    (what the submission prints goes to stderr)."""
    rows = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    from conformance.checking.checks import RunOptions
    from conformance.commands.grade import grade_one
    for seed in seeds:
        options = RunOptions(seed=seed, shrink=False, in_process=in_process)
        row = _first(path, options) if first else grade_one(path, None, options)
        rules = {r: o.get("status") for r, o in row.get("rules", {}).items()}
        print(json.dumps({"seed": seed, "verdict": row["verdict"], "score": row["score"],
                          "max_score": row["max_score"], "broken": row["broken"].split(),
                          "rules": rules, "message": row["message"][:300],
                          "seconds": row["seconds"]}), file=rows, flush=True)


def check_submission(path: Path, seeds: list[int], in_process: bool, timeout: float,
                     first: bool = False) -> list[dict]:
    argv = [sys.executable, __file__, "--worker", str(path),
            "--seed-list", ",".join(map(str, seeds))] + (["--in-process"] if in_process else [])
    argv += ["--first"] if first else []
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        out, note = done.stdout, (done.stderr.strip().splitlines() or [""])[-1]
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        note = f"killed after {timeout:.0f} s"
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    seen = {r["seed"] for r in rows}
    rows += [{"seed": s, "verdict": "not checked", "score": 0, "max_score": 0, "broken": [],
              "rules": {}, "message": note, "seconds": 0} for s in seeds if s not in seen]
    return sorted(rows, key=lambda r: seeds.index(r["seed"]))


def _wrong(row: dict) -> bool:
    return row["verdict"] == "does not conform"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", help="the folder of submissions")
    parser.add_argument("--seeds", type=int, default=20, help="random seeds 1..N (default 20)")
    parser.add_argument("--also", default="", help="more seeds, comma-separated (e.g. 2026)")
    parser.add_argument("--jobs", type=int, default=2, help="submissions at once (default 2)")
    parser.add_argument("--timeout", type=float, default=3600,
                        help="seconds for one submission under all its seeds (default 3600)")
    parser.add_argument("--in-process", action="store_true",
                        help="run the submissions' code in the worker, outside the sandbox")
    parser.add_argument("--first", action="store_true",
                        help="a plain check (the first departure and its rule), not by rules: "
                             "faster; says whether each seed catches a submission")
    parser.add_argument("--json", help="also write every row to this file")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--seed-list", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, [int(s) for s in args.seed_list.split(",")], args.in_process,
               args.first)
        return 0
    if not args.folder:
        parser.error("the folder of submissions is required")
    from conformance.commands.grade import find_submissions
    also = [int(s) for s in args.also.split(",") if s.strip()]
    seeds = list(range(1, args.seeds + 1)) + [s for s in also if s > args.seeds]
    submissions = find_submissions(Path(args.folder))
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = dict(zip((p.name for p in submissions), pool.map(
            lambda p: check_submission(p, seeds, args.in_process, args.timeout, args.first),
            submissions)))

    print(f"{'submission':44} {'caught':>7} {'score':>7}  broken under every seed | some seeds only")
    escaped = {}
    every_rule, some_rule = Counter(), Counter()
    for name, rows in results.items():
        caught = [r for r in rows if _wrong(r)]
        other = {r["verdict"] for r in rows if not _wrong(r)}
        sets = [set(r["broken"]) for r in rows]
        always = set.intersection(*sets) if sets else set()
        sometimes = set.union(*sets) - always if sets else set()
        every_rule.update(always)
        some_rule.update(always | sometimes)
        if caught and len(caught) < len(rows):
            escaped[name] = [r["seed"] for r in rows if not _wrong(r)]
        scores = [r["score"] for r in rows if r["max_score"]]
        score = (f"{min(scores)}..{max(scores)}/{rows[0]['max_score']}"
                 if scores and min(scores) != max(scores)
                 else f"{scores[0]}/{rows[0]['max_score']}" if scores else "-")
        shown = (f"{len(caught)}/{len(rows)}" if caught or other == {"conforms"}
                 else ",".join(sorted(other)))
        print(f"{name[:44]:44} {shown:>7} {score:>7}  {' '.join(sorted(always)) or '-'}"
              f" | {' '.join(sorted(sometimes)) or '-'}"
              + (f"  ({rows[0]['message'][:90]})" if not caught and other != {"conforms"} else ""))

    print(f"\n{'rule':22} {'students breaking it, under some seed':>38} {'under every seed':>17}")
    for rule in sorted(some_rule, key=lambda r: (-some_rule[r], r)):
        print(f"{rule:22} {some_rule[rule]:>38} {every_rule[rule]:>17}")
    wrong = [n for n, rows in results.items() if any(_wrong(r) for r in rows)]
    print(f"\n{len(results)} submissions; {len(wrong)} caught under some seed; "
          f"{len(wrong) - len(escaped)} of them caught under every one of the {len(seeds)} seeds")
    for name, missed in escaped.items():
        print(f"  NOT caught under every seed: {name}: seeds {missed}")
    for seed in also or seeds[:1]:
        wrong_rows = [r for rows in results.values() for r in rows
                      if r["seed"] == seed and _wrong(r)]
        vectors = Counter(tuple(sorted(r["broken"])) for r in wrong_rows)
        scores = Counter(r["score"] for r in wrong_rows)
        print(f"seed {seed}: {len(wrong_rows)} wrong submissions, {len(vectors)} distinct sets "
              f"of broken rules; scores: "
              + ", ".join(f"{n} x {s}" for s, n in sorted(scores.items())))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 1 if escaped else 0


if __name__ == "__main__":
    sys.exit(main())
