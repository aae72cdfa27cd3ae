"""How fast the conformance suite catches each mutant.

    python benchmarks/mutants.py                 # every mutant, seeds 0-4
    python benchmarks/mutants.py --seeds 10 --only ext_
    python benchmarks/mutants.py --shrink        # also time the shrinking

For every mutant of :mod:`conformance.mutants` and every seed, runs
``conformance.engine.check`` with the default budget (100 examples) in
process, first without shrinking (the time and the number of examples until
the first departure: how fast the suite *finds* the mistake), and with
``--shrink`` once more with shrinking on (what ``python -m conformance``
costs, report included). Prints one table: per mutant the median and worst
examples and seconds to catch it over the seeds, then the same over all
mutants. ``cpu med`` is the median CPU time of this process (the target
runs in process): on a shared, loaded machine the wall-clock seconds grow
with the other processes' load, the CPU time much less. Exits 1 if some
mutant escaped the default budget under some seed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from conformance import engine, mutants
from conformance.sandbox import open_target
from conformance.targets import resolve


def catch(name: str, profile: str, seed: int, shrink: bool) -> tuple[bool, int, float, float]:
    """(caught, examples until caught, seconds, CPU seconds)."""
    target = open_target(resolve(str(mutants.path(name))), in_process=True)
    start, cpu = time.perf_counter(), time.process_time()
    verdict = engine.check(target, profile, seed=seed, shrink=shrink)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    target.close()
    return (not verdict.conforms and verdict.error is None,
            verdict.stats.get("examples", 0), seconds, cpu)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5, help="seeds 0..N-1 (default 5)")
    parser.add_argument("--only", help="only the mutants whose name contains this")
    parser.add_argument("--shrink", action="store_true", help="also time a shrinking run (seed 0)")
    args = parser.parse_args(argv)
    names = [m for m in mutants.MUTANTS if args.only is None or args.only in m]
    header = (f"{'mutant':36} {'profile':9} {'caught':>7} {'ex med':>6} {'ex max':>6} "
              f"{'s med':>6} {'s max':>6} {'cpu med':>7}"
              + (f" {'shrunk s':>8}" if args.shrink else ""))
    print(header)
    print("-" * len(header))
    all_examples, all_seconds, all_cpu, escaped = [], [], [], []
    for name in names:
        profile = mutants.MUTANTS[name]
        runs = [catch(name, profile, seed, shrink=False) for seed in range(args.seeds)]
        caught = sum(r[0] for r in runs)
        examples = [r[1] for r in runs if r[0]]
        seconds = [r[2] for r in runs]
        cpu = [r[3] for r in runs]
        all_examples += examples
        all_seconds += seconds
        all_cpu += cpu
        if caught < len(runs):
            escaped.append(name)
        line = (f"{name:36} {profile:9} {caught:>3}/{len(runs):<3} "
                f"{statistics.median(examples) if examples else '-':>6} "
                f"{max(examples) if examples else '-':>6} "
                f"{statistics.median(seconds):6.2f} {max(seconds):6.2f} "
                f"{statistics.median(cpu):7.2f}")
        if args.shrink:
            line += f" {catch(name, profile, 0, shrink=True)[2]:8.2f}"
        print(line, flush=True)
    print("-" * len(header))
    if all_seconds:
        print(f"{'all mutants':36} {'':9} {len(all_examples):>3}/{len(all_seconds):<3} "
              f"{statistics.median(all_examples) if all_examples else '-':>6} "
              f"{max(all_examples) if all_examples else '-':>6} "
              f"{statistics.median(all_seconds):6.2f} {max(all_seconds):6.2f} "
              f"{statistics.median(all_cpu):7.2f}")
    if escaped:
        print("escaped the default budget under some seed: " + ", ".join(escaped))
    return 1 if escaped else 0


if __name__ == "__main__":
    sys.exit(main())
