"""Time of every level reader on growing inputs of each hostile shape.

    python benchmarks/readers.py [--sizes 131072,262144,524288,1048576] [--repeat N] [--only WORD]

For each shape of ``levels.hostile.SHAPES`` and each reader (``parse_xsb``,
``parse_prolog``, ``looks_like_prolog``, and ``validate`` with both rule sets
on what ``parse_text`` read) it prints the seconds per input size (best of
``--repeat`` runs) and the ratio of each time to the previous size's: about 2
when the input doubles means linear time.  An ``E`` marks sizes where the
reader stopped with a ``LevelError`` (a cap, or bad input), which is
expected for most hostile shapes.  Times are CPU seconds of this process
(``time.process_time``), less noisy than wall-clock on a shared machine;
still, the ratios are what matter.
"""

from __future__ import annotations

import argparse
import time

import levels
from levels.hostile import SHAPES
from levels.prolog import looks_like_prolog


def _validate_all(text: str):
    try:
        found = levels.parse_text(text, "bench")
    except levels.LevelError:
        found = []
    start = time.process_time()
    for lv in found:
        levels.validate(lv, "tad")
        levels.validate(lv, "soko")
    return time.process_time() - start


READERS = {
    "parse_xsb": lambda text: levels.parse_xsb(text, "bench"),
    "parse_prolog": lambda text: levels.parse_prolog(text, "bench"),
    "looks_like_prolog": looks_like_prolog,
    "validate": None,  # timed inside _validate_all, reading excluded
}


def measure(reader: str, text: str, repeat: int) -> tuple[float, bool]:
    best, failed = float("inf"), False
    for _ in range(repeat):
        if reader == "validate":
            best = min(best, _validate_all(text))
            continue
        start = time.process_time()
        try:
            READERS[reader](text)
        except levels.LevelError:
            failed = True
        best = min(best, time.process_time() - start)
    return best, failed


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="131072,262144,524288,1048576",
                   help="input sizes in characters, comma-separated (default 128 KB to 1 MB)")
    p.add_argument("--repeat", type=int, default=1, help="runs per cell, best kept (default 1)")
    p.add_argument("--only", default="", help="only shapes whose name contains this")
    args = p.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    head = f"{'shape':24} {'reader':17}" + "".join(f"{s // 1024:>8}K" for s in sizes) + "   ratios"
    print(head)
    print("-" * len(head))
    worst = (0.0, "")
    for name, make in SHAPES.items():
        if args.only not in name:
            continue
        texts = [make(s) for s in sizes]
        for reader in READERS:
            cells, times = [], []
            for text in texts:
                t, failed = measure(reader, text, args.repeat)
                times.append(t)
                cells.append(f"{t:8.3f}{'E' if failed else ' '}")
                if t > worst[0] and len(text) <= 1 << 20:
                    worst = (t, f"{name} / {reader} at {len(text):,} characters")
            ratios = " ".join(f"{b / a:4.1f}" if a > 0.002 else "   -" for a, b in zip(times, times[1:]))
            print(f"{name:24} {reader:17}" + "".join(cells) + "  " + ratios)
    print(f"\nslowest cell: {worst[0]:.3f} s ({worst[1]})")
    print("ratio: time at this size / time at the previous size ('-' below 2 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
