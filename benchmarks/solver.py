"""Solver benchmark: seed 003's six levels and Microban (155 levels).

    python benchmarks/solver.py                      # both, 60 s per level
    python benchmarks/solver.py --time-limit 10      # a quicker pass
    python benchmarks/solver.py --collection seed003
    python benchmarks/solver.py --collection microban --levels 1-50

Prints one row per level (status, moves, pushes, nodes, time, nodes/s) and a
summary per collection: solved count, total and median time, median nodes/s.
Every solution printed as solved has been replayed through ``spec``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import levels
from impl.solver import solve

COLLECTIONS = ("seed003", "microban")


def parse_range(text: str, count: int) -> list[int]:
    numbers: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        a = int(lo)
        b = int(hi) if hi else a
        numbers.extend(n for n in range(a, b + 1) if 1 <= n <= count)
    return numbers


def run(collection: str, numbers, time_limit: float, method: str) -> dict:
    all_levels = levels.load(collection)
    if numbers is None:
        numbers = list(range(1, len(all_levels) + 1))
    else:
        numbers = parse_range(numbers, len(all_levels))
    print(f"\n## {collection}: {len(numbers)} levels, {time_limit:g} s per level, "
          f"method={method}\n")
    print(f"{'level':>6} {'status':<10} {'limit':<6} {'moves':>6} {'pushes':>6} "
          f"{'nodes':>9} {'time s':>8} {'nodes/s':>9}")
    rows = []
    for n in numbers:
        result = solve(all_levels[n - 1], time_limit=time_limit, method=method)
        rows.append(result)
        print(f"{n:>6} {result.status:<10} {result.limit or '':<6} "
              f"{'' if result.moves is None else result.moves:>6} "
              f"{'' if result.pushes is None else result.pushes:>6} "
              f"{result.nodes:>9} {result.time:>8.3f} {result.nodes_per_second:>9.0f}",
              flush=True)
    solved = [r for r in rows if r.status == "solved"]
    rates = [r.nodes_per_second for r in rows if r.nodes >= 100]
    summary = {
        "collection": collection,
        "levels": len(rows),
        "solved": len(solved),
        "unsolvable": sum(r.status == "unsolvable" for r in rows),
        "gave_up": sum(r.status == "gave_up" for r in rows),
        "total_time": sum(r.time for r in rows),
        "median_time_solved": statistics.median(r.time for r in solved) if solved else 0.0,
        "max_time_solved": max((r.time for r in solved), default=0.0),
        "median_nodes_per_s": statistics.median(rates) if rates else 0.0,
    }
    return summary


def compare_methods(collection: str, time_limit: float) -> None:
    """Move-optimal A* and the push search side by side on a small collection:
    solution lengths and times, with their ratios."""
    print(f"\n## {collection}: move-optimal search vs push search\n")
    print(f"{'level':>6} {'moves(A*)':>9} {'moves(push)':>11} {'len ratio':>9} "
          f"{'time A* s':>9} {'time push s':>11} {'time ratio':>10}")
    for n, level in enumerate(levels.load(collection), start=1):
        a = solve(level, time_limit=time_limit, method="moves")
        b = solve(level, time_limit=time_limit, method="pushes")
        if a.status != "solved" or b.status != "solved":
            print(f"{n:>6} {a.status:>9} {b.status:>11}")
            continue
        len_ratio = b.moves / a.moves if a.moves else 1.0
        time_ratio = a.time / b.time if b.time else float("nan")
        print(f"{n:>6} {a.moves:>9} {b.moves:>11} {len_ratio:>9.2f} "
              f"{a.time:>9.4f} {b.time:>11.4f} {time_ratio:>10.2f}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--time-limit", type=float, default=60.0,
                   help="seconds per level (default 60)")
    p.add_argument("--collection", choices=COLLECTIONS, action="append",
                   help="collection(s) to run (default: all)")
    p.add_argument("--levels", help="level numbers, e.g. 1-20,40 (default: all)")
    p.add_argument("--method", default="auto", choices=("auto", "moves", "pushes"))
    args = p.parse_args(argv)
    started = time.perf_counter()
    chosen = args.collection or COLLECTIONS
    summaries = [run(c, args.levels, args.time_limit, args.method) for c in chosen]
    if "seed003" in chosen:
        compare_methods("seed003", args.time_limit)
    print("\n## Summary\n")
    print(f"{'collection':<10} {'solved':>9} {'unsolv.':>7} {'gave up':>7} "
          f"{'total s':>8} {'median s':>9} {'max s':>7} {'nodes/s':>9}")
    for s in summaries:
        print(f"{s['collection']:<10} {s['solved']:>4}/{s['levels']:<4} "
              f"{s['unsolvable']:>7} {s['gave_up']:>7} {s['total_time']:>8.1f} "
              f"{s['median_time_solved']:>9.3f} {s['max_time_solved']:>7.2f} "
              f"{s['median_nodes_per_s']:>9.0f}")
    print(f"\nwall clock {time.perf_counter() - started:.1f} s "
          f"(time limit {args.time_limit:g} s per level)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
