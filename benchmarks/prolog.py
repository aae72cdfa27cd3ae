"""Profile prolog: the planner's calibration, the check's cost, the kill table.

    python benchmarks/prolog.py calibrate            # nodes vs our planners' seconds
    python benchmarks/prolog.py kills --seeds 20     # every mutant under seeds 1..20
    python benchmarks/prolog.py time PATH [PATH...] --seeds 20   # verdict and seconds per seed

``calibrate`` draws tables as the check does and, on each one solvable in
a few moves, puts side by side the number of states a seed-style iterative
deepening visits exploring every bound up to the shortest plan
(``model.search_nodes``: what the check bounds with ``machine.FEW_NODES``) and
the seconds our reference planner and its slow variant (every state
printed, obstacles gathered again at every step) take, through the driver:
the evidence that a table under ``FEW_NODES`` takes our planner under 0.1 s.

``kills`` runs the default check (100 examples, shrinking on) on every
mutant of :mod:`conformance.profiles.prolog.mutants` and on the correct programs (the
reference, its slow variant and the student-style ones) under each seed, and prints per program how many seeds caught it,
the rule blamed, and the median and worst seconds. Exit status 1 when a
mutant escaped a seed, a mutant was blamed on a rule other than its own, or
a correct program was flagged.

Needs swipl. Speed varies with the machine's load: run it when it is quiet,
and compare ratios within one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from hypothesis import HealthCheck, given, seed, settings

from conformance.profiles.prolog import machine
from conformance.profiles.prolog import check, model, mutants
from conformance.profiles.prolog.source import find_program
from conformance.profiles.prolog.target import PrologTarget

BANDS = (0, 100, 300, 1000, 2000, 3000, 10000, 30000, 100000)


def calibrate(examples: int, random_seed: int) -> int:
    programs = {name: PrologTarget(find_program(mutants.materialize(name)))
                for name in ("reference", "slow")}
    for t in programs.values():
        t.start()
    rows = []

    @seed(random_seed)
    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(machine.tables(max_side=6))
    def measure(table):
        k = model.shortest(table, 50000)
        if type(k) is not int or k == 0:
            return
        nodes = model.search_nodes(table, k, cap=100001)
        if nodes > 100000:
            return
        row = [nodes]
        for t in programs.values():
            t.open_level(table.rows, table.columns, table.facts())
            a = t.plan(10.0)
            t.close_level()
            row.append(a.seconds if a.kind == "ok" else float("inf"))
        rows.append(row)

    try:
        measure()
    finally:
        for t in programs.values():
            t.close()
    print(f"{'search nodes':>16} {'tables':>6} {'reference max':>14} {'median':>8} "
          f"{'slow max':>9} {'median':>8}")
    for lo, hi in zip(BANDS, BANDS[1:]):
        band = [r for r in rows if lo < r[0] <= hi]
        if band:
            ref, slow = [r[1] for r in band], [r[2] for r in band]
            print(f"{lo:>7}-{hi:<8} {len(band):6} {max(ref):14.3f} {statistics.median(ref):8.3f} "
                  f"{max(slow):9.3f} {statistics.median(slow):8.3f}")
    few = [r[1] for r in rows if r[0] <= machine.FEW_NODES]
    if few:
        print(f"\ntables with at most FEW_NODES={machine.FEW_NODES} nodes: {len(few)}; our "
              f"reference's slowest {max(few):.3f} s (the check asks for a plan within "
              f"{machine.PLAN_SECONDS:g} s there)")
    return 0


def kills(seeds: list[int], only: str | None) -> int:
    names = (["reference", "slow"] + [f"student_{s}" for s in mutants.STUDENTS]
             + [m.name for m in mutants.MUTANTS])
    names = [n for n in names if only is None or only in n]
    bad = 0
    print(f"{'program':28} {'rule':20} {'caught':>8} {'blamed':30} {'med s':>6} {'max s':>6}")
    for name in names:
        caught, blamed, seconds = 0, Counter(), []
        for s in seeds:
            start = time.perf_counter()
            v = check.check(PrologTarget(find_program(mutants.materialize(name))), seed=s)
            seconds.append(time.perf_counter() - start)
            if v.error:
                blamed[f"error: {v.error[:40]}"] += 1
            elif not v.conforms:
                caught += 1
                blamed[v.counterexample.rule] += 1
        rule = mutants.BY_NAME[name].rule if name in mutants.BY_NAME else "(correct)"
        should = name not in mutants.BY_NAME
        ok = (caught == 0) if should else (caught == len(seeds) and set(blamed) == {rule})
        bad += not ok
        shown = ", ".join(f"{r} x{n}" for r, n in blamed.most_common()) or "-"
        print(f"{name:28} {rule:20} {caught:4}/{len(seeds):<3} {shown:30} "
              f"{statistics.median(seconds):6.1f} {max(seconds):6.1f}"
              + ("" if ok else "   <-- WRONG"), flush=True)
    return 1 if bad else 0


def timing(paths: list[str], seeds: list[int], groups: list[str] | None) -> int:
    """A default check of each program (its folder's own levels first, as
    ``sokoban check`` does) under each seed: verdict, rule, seconds."""
    from conformance.profiles.prolog.run import check_program
    for path in paths:
        times = []
        for s in seeds:
            start = time.perf_counter()
            v, _ = check_program(path, seed=s, groups=groups)
            times.append(time.perf_counter() - start)
            c = v.counterexample
            said = (f"does not conform: {c.rule}: {c.message.split(' [rule')[0]}" if c else
                    v.error.splitlines()[0] if v.error else "conforms")
            print(f"{path} seed {s}: {times[-1]:.1f} s, {v.stats.get('states', 0)} states: "
                  f"{said}", flush=True)
        print(f"{path}: median {statistics.median(times):.1f} s, worst {max(times):.1f} s")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("calibrate")
    c.add_argument("--examples", type=int, default=300)
    c.add_argument("--seed", type=int, default=1)
    k = sub.add_parser("kills")
    k.add_argument("--seeds", type=int, default=20, help="seeds 1..N (default 20)")
    k.add_argument("--only", help="only the programs whose name contains this")
    t = sub.add_parser("time")
    t.add_argument("paths", nargs="+")
    t.add_argument("--seeds", type=int, default=3, help="seeds 1..N (default 3)")
    t.add_argument("--groups", nargs="+", choices=machine.GROUPS,
                   help="only these parts of the check (default: both)")
    args = parser.parse_args(argv)
    if args.command == "calibrate":
        return calibrate(args.examples, args.seed)
    if args.command == "kills":
        return kills(list(range(1, args.seeds + 1)), args.only)
    return timing(args.paths, list(range(1, args.seeds + 1)), args.groups)


if __name__ == "__main__":
    sys.exit(main())
