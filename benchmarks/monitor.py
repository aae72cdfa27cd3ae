"""Calls per second of a student's soko.py, bare and under the monitor
(``conformance.monitor.monitored``), side by side.

    python benchmarks/monitor.py [--student student_soko] [--sizes 5,10,20] [--calls N]

The student module is one of ``conformance/mutants/student_soko*`` (a
correct one; default ``student_soko``: a list of lists of characters). On
square rooms of side 5, 10 and 20 (walls around, a few boxes and goals),
each operation is called the same way bare and monitored, in one run:

* ``crear_grilla``: the room's rows;
* ``mover``: a seeded random walk (blocked moves and pushes included), each
  move on the grid the last one returned;
* ``hay_caja``: every cell of the grid, in turn.

Prints one table: calls per second bare, monitored (every cell, the
default) and monitored ``--fast`` (``every_cell=False``), each with its
ratio (bare / monitored: how many times slower a monitored call is). A
monitored ``crear_grilla`` compares every observer on every cell of the grid
it returns, and so does ``mover`` by default, so their cost grows with the
grid; ``--fast``, ``mover`` compares the cells the move can change only. An
observer costs one spec answer more. Speed is measured here, never in a
test.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance import mutants  # noqa: E402
from conformance.monitor import monitored  # noqa: E402
from conformance.targets import load, resolve  # noqa: E402

DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def room(side: int, seed: int = 0) -> list[str]:
    """A ``side`` x ``side`` room inside walls: one box and one goal per 8
    floor cells (at least one), the player somewhere free."""
    rng = random.Random(seed)
    floor = [(c, f) for f in range(1, side + 1) for c in range(1, side + 1)]
    k = max(1, len(floor) // 8)
    cells = rng.sample(floor, 2 * k + 1)
    boxes, goals, player = set(cells[:k]), set(cells[k:2 * k]), cells[-1]
    rows = []
    for f in range(side + 2):
        row = ""
        for c in range(side + 2):
            p = (c, f)
            if p not in floor:
                row += "#"
            elif p == player:
                row += "@"
            elif p in boxes:
                row += "$"
            elif p in goals:
                row += "."
            else:
                row += " "
        rows.append(row)
    return rows


def rate(calls) -> float:
    """Calls per second of ``calls`` (a function returning how many it made)."""
    start = time.perf_counter()
    n = calls()
    return n / (time.perf_counter() - start)


def workloads(soko, desc: list[str], n: int) -> dict:
    """Per operation, a function making about ``n`` calls (what they need
    made first, outside the timing)."""
    walk = [random.Random(i).choice(DIRECTIONS) for i in range(n)]
    start = soko.crear_grilla(desc)
    cells = [(c, f) for f in range(len(desc)) for c in range(len(desc[0]))]
    cells = (cells * (n // len(cells) + 1))[:n]

    def crear():
        for _ in range(n):
            soko.crear_grilla(desc)
        return n

    def mover():
        g = start
        for d in walk:
            g = soko.mover(g, d)
        return n

    def hay_caja():
        for c, f in cells:
            soko.hay_caja(start, c, f)
        return n

    return {"crear_grilla": crear, "mover": mover, "hay_caja": hay_caja}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--student", default="student_soko",
                   help="a correct student module of conformance/mutants (default student_soko)")
    p.add_argument("--sizes", default="5,10,20", help="sides of the rooms (default 5,10,20)")
    p.add_argument("--calls", type=int, default=0,
                   help="calls per measure (default: 20000 bare, 400 monitored)")
    args = p.parse_args(argv)
    if args.student not in mutants.STUDENTS or mutants.STUDENTS[args.student] != "soko":
        p.error(f"--student: one of {', '.join(n for n, k in mutants.STUDENTS.items() if k == 'soko')}")
    path = str(mutants.path(args.student))
    bare = load(resolve(path))
    watched = monitored(path)
    fast_watched = monitored(path, every_cell=False)
    print(f"{args.student}: calls per second, bare and monitored (one run; "
          f"python {sys.version.split()[0]})")
    head = (f"{'operation':13} {'grid':>7} {'bare':>11} {'monitored':>10} {'ratio':>7}"
            f" {'--fast':>10} {'ratio':>7}")
    print(head)
    print("-" * len(head))
    warnings.simplefilter("ignore")
    for side in (int(s) for s in args.sizes.split(",")):
        desc = room(side)
        grid = f"{side + 2}x{side + 2}"
        plain = workloads(bare, desc, args.calls or 20000)
        every = workloads(watched, desc, args.calls or 400)
        fast = workloads(fast_watched, desc, args.calls or 2000)
        for op in plain:
            b, m, f = rate(plain[op]), rate(every[op]), rate(fast[op])
            print(f"{op:13} {grid:>7} {b:11,.0f} {m:10,.0f} {b / m:6.0f}x {f:10,.0f} {b / f:6.0f}x")
    departures = watched.__monitor__.stats["departures"] + \
        fast_watched.__monitor__.stats["departures"]
    return 0 if departures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
