"""Time of every level reader on growing inputs of each hostile shape.

    python benchmarks/readers.py [--sizes 131072,262144,524288,1048576] [--repeat N] [--only WORD,...]
                                 [--baseline DIR]

For each shape of ``levels.hostile.SHAPES`` (hostile inputs, and the largest
honest ones: many XSB levels, a SOK collection with snapshots) and each
reader (``parse_xsb``, ``parse_prolog``, ``looks_like_prolog``, and
``validate`` with both rule sets on what ``parse_text`` read) it prints the
seconds per input size (best of ``--repeat`` runs) and the ratio of each
time to the previous size's: about 2 when the input doubles means linear
time.  An ``E`` marks sizes where the reader stopped with a ``LevelError`` (a
cap, or bad input), which is expected for most hostile shapes.  Times are
CPU seconds of the process (``time.process_time``), less noisy than
wall-clock on a shared machine; still, the ratios are what matter.

``--baseline DIR``: the same texts (made by this tree's shapes) are also
read by the ``levels`` package of another checkout ``DIR`` (such as
``/work/main`` before a change), each tree in its own process, the two
taking turns ``--repeat`` times so that the machine's load hits both alike;
two more columns give the baseline's time at the largest size and this
tree's time divided by it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
READERS = ("parse_xsb", "parse_prolog", "looks_like_prolog", "validate")


def _readers():
    """The readers of the ``levels`` package this process imported."""
    import levels
    from levels.prolog import looks_like_prolog

    def validate_all(text: str) -> float:
        try:
            found = levels.parse_text(text, "bench")
        except levels.LevelError:
            found = []
        start = time.process_time()
        for lv in found:
            levels.validate(lv, "tad")
            levels.validate(lv, "soko")
        return time.process_time() - start

    return levels.LevelError, {
        "parse_xsb": lambda text: levels.parse_xsb(text, "bench"),
        "parse_prolog": lambda text: levels.parse_prolog(text, "bench"),
        "looks_like_prolog": looks_like_prolog,
        "validate": validate_all,  # times itself, reading excluded
    }


def measure(error, readers, reader: str, text: str, repeat: int) -> tuple[float, bool]:
    best, failed = float("inf"), False
    for _ in range(repeat):
        if reader == "validate":
            best = min(best, readers[reader](text))
            continue
        start = time.process_time()
        try:
            readers[reader](text)
        except error:
            failed = True
        best = min(best, time.process_time() - start)
    return best, failed


def _worker(tree: str, folder: str) -> None:
    """Time the texts of ``folder`` (``index.json``) with the ``levels`` of
    ``tree``: the honest shapes, and the hostile shapes ``tree`` knows (a
    hostile shape added since may make an older reader run out of memory)."""
    sys.path.insert(0, tree)
    warnings.simplefilter("ignore")  # puzzles skipped by a lenient reader
    error, readers = _readers()
    from levels.hostile import SHAPES

    index = json.loads(Path(folder, "index.json").read_text())
    out = {}
    for key, file in index["texts"].items():
        if key.split("|")[0] not in SHAPES and key.split("|")[0] not in index["honest"]:
            continue
        text = Path(folder, file).read_text(encoding="utf-8")
        for reader in READERS:
            out[f"{key}|{reader}"] = measure(error, readers, reader, text, 1)
    json.dump(out, sys.stdout)


def _run_worker(tree: Path, folder: str) -> dict:
    done = subprocess.run([sys.executable, __file__, "--worker", str(tree), folder],
                          capture_output=True, text=True, check=False, cwd=folder)
    if done.returncode != 0:
        raise SystemExit(f"timing with {tree} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="131072,262144,524288,1048576",
                   help="input sizes in characters, comma-separated (default 128 KB to 1 MB)")
    p.add_argument("--repeat", type=int, default=1, help="runs per cell, best kept (default 1)")
    p.add_argument("--only", default="",
                   help="only shapes whose name contains this (or one of these, comma-separated)")
    p.add_argument("--baseline", metavar="DIR",
                   help="also time the levels package of the checkout DIR, taking turns")
    p.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        _worker(*args.worker)
        return 0
    sys.path.insert(0, str(HERE))
    from levels.hostile import HONEST, SHAPES

    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = {name: [make(s) for s in sizes] for name, make in SHAPES.items()
              if any(word in name for word in args.only.split(","))}
    times: dict = {}
    base: dict = {}
    if args.baseline:
        with tempfile.TemporaryDirectory() as folder:
            index = {}
            for name, texts in shapes.items():
                for k, text in enumerate(texts):
                    file = f"{len(index)}.txt"
                    Path(folder, file).write_text(text, encoding="utf-8")
                    index[f"{name}|{k}"] = file
            Path(folder, "index.json").write_text(json.dumps({"texts": index,
                                                               "honest": sorted(HONEST)}))
            for _ in range(args.repeat):
                for tree, into in ((Path(args.baseline).resolve(), base), (HERE, times)):
                    for key, (t, failed) in _run_worker(tree, folder).items():
                        old = into.get(key)
                        into[key] = (min(t, old[0]) if old else t, failed)
    else:
        warnings.simplefilter("ignore")
        error, readers = _readers()
        for name, texts in shapes.items():
            for k, text in enumerate(texts):
                for reader in READERS:
                    times[f"{name}|{k}|{reader}"] = measure(error, readers, reader, text,
                                                            args.repeat)
    head = f"{'shape':24} {'reader':17}" + "".join(f"{s // 1024:>8}K" for s in sizes) + "   ratios"
    if base:
        head += f"{'':{max(0, 5 * (len(sizes) - 1) - 6)}}  base {sizes[-1] // 1024}K  /base"
    print(head)
    print("-" * len(head))
    worst = (0.0, "")
    for name, texts in shapes.items():
        for reader in READERS:
            cells, row = [], []
            for k, text in enumerate(texts):
                t, failed = times[f"{name}|{k}|{reader}"]
                row.append(t)
                cells.append(f"{t:8.3f}{'E' if failed else ' '}")
                if t > worst[0] and len(text) <= 1 << 20:
                    worst = (t, f"{name} / {reader} at {len(text):,} characters")
            ratios = " ".join(f"{b / a:4.1f}" if a > 0.002 else "   -" for a, b in zip(row, row[1:]))
            line = f"{name:24} {reader:17}" + "".join(cells) + "  " + ratios
            if base and f"{name}|{len(texts) - 1}|{reader}" in base:
                b, failed = base[f"{name}|{len(texts) - 1}|{reader}"]
                line += (f"  {b:8.3f}{'E' if failed else ' '} "
                         + (f"{row[-1] / b:5.2f}" if b > 0.002 else "    -"))
            elif base:
                line += "  (a new hostile shape)"
            print(line)
    print(f"\nslowest cell: {worst[0]:.3f} s ({worst[1]})")
    print("ratio: time at this size / time at the previous size ('-' below 2 ms)")
    if base:
        print(f"base: the same texts read by {args.baseline}; /base: this tree's time at "
              f"{sizes[-1] // 1024}K divided by the baseline's ('-' when it is below 2 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
