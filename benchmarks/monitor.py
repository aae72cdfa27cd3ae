"""Calls per second of a student's soko.py, bare and under the monitor
(``conformance.live.monitor.monitored``), side by side.

    python benchmarks/monitor.py [--student student_soko] [--sizes 5,10,20] [--calls N]

The student module is one of ``conformance/mutants/student_soko*`` (a
correct one; default ``student_soko``: a list of lists of characters). On
square rooms of side 5, 10 and 20 (walls around, a few boxes and goals),
each operation is called the same way bare and monitored, in one run:

* ``crear_grilla``: the room's rows, again and again (the spec's grid for a
  desc is kept, as a course test builds the same few grids often);
* ``crear_grilla*``: a different room each call (the same size; the player
  and the boxes elsewhere): the spec's grid is made every time;
* ``mover``: a seeded random walk (blocked moves and pushes included), each
  move on the grid the last one returned;
* ``dimensiones``, ``juego_ganado``: on the room's grid;
* ``hay_caja``: every cell of the grid, in turn.

Prints one table: calls per second bare, monitored in the fast mode (the
default) and in the every-cell mode (``every_cell=True``, ``sokoban monitor
--every-cell``), each with its ratio (bare / monitored: how many times slower
a monitored call is). Each rate is the best of three measures, taken in
turn, in the process's CPU time (the machine may be shared); each measure
starts on a new grid, and the run fails (exit 1) unless every monitored call
was checked. In the every-cell mode a monitored ``crear_grilla`` or
``mover`` compares every observer on every cell of the grid it returns, so
its cost grows with the grid; in the fast mode it does not. Speed is
measured here, never in a test.
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
from conformance.live.monitor import monitored  # noqa: E402
from conformance.checking.targets import load, resolve  # noqa: E402

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


def rates(*workload, repeat: int = 3) -> list[float]:
    """Calls per second of each ``(prepare, calls)`` of ``workload``:
    ``calls(prepare())`` makes calls and returns how many (``prepare`` is
    not timed). In this process's CPU time (not the wall clock: the machine
    may be shared); the best of ``repeat`` measures, taken in turn."""
    best = [0.0] * len(workload)
    for _ in range(repeat):
        for i, (prepare, calls) in enumerate(workload):
            ready = prepare()
            start = time.process_time()
            n = calls(ready)
            best[i] = max(best[i], n / max(time.process_time() - start, 1e-9))
    return best


def workloads(soko, side: int, n: int) -> dict:
    """Per operation, ``(prepare, calls)``: ``calls(prepare())`` makes about
    ``n`` calls (``prepare`` makes what they need first: a new grid, so that
    the monitor knows it)."""
    desc = room(side)
    others = [room(side, seed) for seed in range(1, n + 1)]
    walk = [random.Random(i).choice(DIRECTIONS) for i in range(n)]
    cells = [(c, f) for f in range(len(desc)) for c in range(len(desc[0]))]
    cells = (cells * (n // len(cells) + 1))[:n]

    def grid():
        return soko.crear_grilla(desc)

    def nothing():
        return None

    def crear(_):
        for _ in range(n):
            soko.crear_grilla(desc)
        return n

    def crear_new(_):
        for other in others:
            soko.crear_grilla(other)
        return n

    def mover(g):
        for d in walk:
            g = soko.mover(g, d)
        return n

    def observing(observe):
        def calls(g):
            for _ in range(n):
                observe(g)
            return n
        return calls

    def hay_caja(g):
        for c, f in cells:
            soko.hay_caja(g, c, f)
        return n

    return {"crear_grilla": (nothing, crear), "crear_grilla*": (nothing, crear_new),
            "mover": (grid, mover), "dimensiones": (grid, observing(soko.dimensiones)),
            "juego_ganado": (grid, observing(soko.juego_ganado)), "hay_caja": (grid, hay_caja)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--student", default="student_soko",
                   help="a correct student module of conformance/mutants (default student_soko)")
    p.add_argument("--sizes", default="5,10,20", help="sides of the rooms (default 5,10,20)")
    p.add_argument("--calls", type=int, default=0,
                   help="calls per measure (default: 20000 bare, 5000 fast, 200 every cell)")
    args = p.parse_args(argv)
    if args.student not in mutants.STUDENTS or mutants.STUDENTS[args.student] != "soko":
        p.error(f"--student: one of {', '.join(n for n, k in mutants.STUDENTS.items() if k == 'soko')}")
    path = str(mutants.path(args.student))
    bare = load(resolve(path))
    fast = monitored(path)
    every = monitored(path, every_cell=True)
    print(f"{args.student}: calls per second, bare and monitored (one run, best of 3, CPU time; "
          f"python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.1f})")
    head = (f"{'operation':14} {'grid':>6} {'bare':>11} {'fast':>10} {'ratio':>6}"
            f" {'every cell':>10} {'ratio':>6}")
    print(head)
    print("-" * len(head))
    warnings.simplefilter("ignore")
    for side in (int(s) for s in args.sizes.split(",")):
        grid = f"{side + 2}x{side + 2}"
        plain = workloads(bare, side, args.calls or 20000)
        quick = workloads(fast, side, args.calls or 5000)
        whole = workloads(every, side, args.calls or 200)
        for op in plain:
            b, f, w = rates(plain[op], quick[op], whole[op])
            print(f"{op:14} {grid:>6} {b:11,.0f} {f:10,.0f} {b / f:5.1f}x {w:10,.0f} {b / w:5.0f}x")
    for mode, watched in (("fast", fast), ("every cell", every)):
        stats = watched.__monitor__.stats
        if stats["checked"] == 0 or any(stats[k] for k in ("unchecked", "callers_faults",
                                                            "departures")):
            print(f"monitored ({mode}): not every call was checked: {stats}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
