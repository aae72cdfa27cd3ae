"""No false alarm under any seed: every correct implementation the selftest
knows scores full marks under each of seeds 1..N.

    python benchmarks/false_alarms.py                 # seeds 1-20, 2 at once
    python benchmarks/false_alarms.py --seeds 5 --only student_soko
    python benchmarks/false_alarms.py --jobs 1

A course grades everyone under one fixed seed, so a correct submission that
loses a point under some seed loses it for the whole class that drew it.
For every correct implementation of ``sokoban selftest``
(:func:`conformance.commands.selftest.subjects`: ``impl.tad``, ``impl.extendido``,
our ``soko``, every ``student_*`` file, the C++ reference when g++ is
installed, the Prolog reference and its slow variant when swipl is) and
every seed 1..N, runs ``sokoban check TARGET --seed N --gradescope FILE``
as a teacher would (a fresh process each; our own Python code in process)
and reads the score from the Gradescope file. A full score means the check
by rules conformed: it plays the same fixed scenarios and the same random
search as a plain ``sokoban check --seed N`` (``engine.check`` and
``engine.check_rules`` share them), so no separate plain run is needed.

Prints one row per implementation: full marks under how many seeds, the
seeds (and tests) where a point was lost, the median and worst seconds;
then the totals. Exits 1 if some correct implementation lost a point
under some seed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conformance.commands import selftest


def command_target(target: str) -> tuple[str, list[str]]:
    """What ``sokoban check`` is given for a selftest subject, and the
    options it runs with (our own Python code runs in process)."""
    own = selftest.materialize(target)       # C++, Prolog: written out
    return (str(own), []) if own is not None else (target, ["--in-process"])


def grade_once(target: str, profile: str, seed: int, folder: Path) -> dict:
    """One ``--gradescope --seed`` run: score, the most it could be, the
    tests that lost points, the exit status and the seconds it took."""
    path, options = command_target(target)
    out = folder / f"{selftest.target_name(target)}-{seed}.json"
    argv = [sys.executable, "-m", "conformance", path, "--profile", profile, "--seed", str(seed),
            "--gradescope", str(out), *options]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    try:
        doc = json.loads(out.read_text())
    except (OSError, ValueError):
        return {"seed": seed, "score": 0.0, "max": None, "lost": ["(no results file)"],
                "status": done.returncode, "seconds": seconds,
                "output": (done.stdout + done.stderr)[-2000:]}
    tests = doc.get("tests", [])
    most = sum(t.get("max_score", 0) or 0 for t in tests)
    lost = [t["name"] for t in tests if (t.get("score") or 0) < (t.get("max_score") or 0)]
    return {"seed": seed, "score": doc.get("score", 0.0), "max": most, "lost": lost,
            "status": done.returncode, "seconds": seconds,
            "output": "" if not lost and done.returncode == 0 else (done.stdout + done.stderr)[-2000:]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="random seeds 1..N (default 20)")
    parser.add_argument("--only", help="only the implementations whose name contains this")
    parser.add_argument("--jobs", type=int, default=2, help="runs at once (default 2)")
    parser.add_argument("--json", help="also write every run to this file")
    args = parser.parse_args(argv)
    subjects = [(t, p) for t, p, should in selftest.subjects(args.only) if should]
    seeds = range(1, args.seeds + 1)
    header = (f"{'implementation':32} {'profile':9} {'tests':>5} {'full marks':>10} "
              f"{'s med':>6} {'s max':>6}  points lost")
    print(header)
    print("-" * len(header))
    failures, every = [], {}
    with tempfile.TemporaryDirectory(prefix="false-alarms-") as tmp, \
            ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for target, profile in subjects:
            runs = list(pool.map(lambda s: grade_once(target, profile, s, Path(tmp)), seeds))
            name = selftest.target_name(target)
            every[name] = runs
            full = [r for r in runs if r["max"] and r["score"] == r["max"] and r["status"] == 0]
            bad = [r for r in runs if r not in full]
            failures += [(name, r) for r in bad]
            tests = {r["max"] for r in runs if r["max"]}
            seconds = [r["seconds"] for r in runs]
            lost = "; ".join(f"seed {r['seed']}: {', '.join(r['lost']) or 'exit ' + str(r['status'])}"
                             for r in bad)
            print(f"{name:32} {profile:9} {'/'.join(map(str, sorted(tests))) or '-':>5} "
                  f"{len(full):>5}/{len(runs):<4} {statistics.median(seconds):6.1f} "
                  f"{max(seconds):6.1f}  {lost or '-'}", flush=True)
    total = sum(len(r) for r in every.values())
    print("-" * len(header))
    print(f"{len(subjects)} correct implementations x {len(seeds)} seeds: "
          f"{total - len(failures)}/{total} runs with full marks")
    for name, r in failures:
        print(f"\n{name}, seed {r['seed']} (exit {r['status']}):\n{r['output']}")
    if args.json:
        Path(args.json).write_text(json.dumps(every, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
