"""How fast levels.generate makes solvable levels, several sizes side by side.

    python benchmarks/generate_levels.py [--seconds S] [--verify]

For each size it generates levels with consecutive seeds for about S seconds
(default 1.5) and prints levels per second, the ratio to the 10x10 4-box row
(the headline figure), and the mean solution length (moves, pushes).
``--verify`` also replays every solution through the spec (not timed).
"""

from __future__ import annotations

import argparse
import time

from levels import generate, lurd

SIZES = [(6, 6, 2), (8, 8, 3), (10, 10, 4), (12, 12, 6), (15, 15, 8), (20, 20, 10)]
HEADLINE = (10, 10, 4)


def measure(w, h, boxes, seconds):
    made, moves, pushes = 0, 0, 0
    sols = []
    start = time.perf_counter()
    while True:
        _, sol = generate(w, h, boxes, made)
        made += 1
        moves += len(sol)
        pushes += sum(c.isupper() for c in sol)
        sols.append(sol)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and made >= 5:
            return made / elapsed, moves / made, pushes / made, made


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--verify", action="store_true",
                    help="replay each size's first 20 solutions through spec.fisica")
    args = ap.parse_args(argv)
    rows = {}
    for w, h, b in SIZES:
        rows[(w, h, b)] = measure(w, h, b, args.seconds)
    base = rows[HEADLINE][0]
    print(f"{'size':>7} {'boxes':>5} {'levels/s':>10} {'vs 10x10/4':>10} "
          f"{'moves':>7} {'pushes':>7} {'levels':>7}")
    for (w, h, b), (rate, mv, pu, n) in rows.items():
        mark = "  <- headline" if (w, h, b) == HEADLINE else ""
        print(f"{w:>3}x{h:<3} {b:>5} {rate:>10.1f} {rate / base:>10.2f} "
              f"{mv:>7.1f} {pu:>7.1f} {n:>7}{mark}")
    if args.verify:
        for w, h, b in SIZES:
            for seed in range(20):
                lv, sol = generate(w, h, b, seed)
                assert lurd.solves(lv, sol), (w, h, b, seed)
        print("verified: every checked solution replays to a win through spec.fisica")


if __name__ == "__main__":
    main()
