"""What a class's fillers make the grading machine store, per isolation level.

    python benchmarks/storage.py [--storage MB] [--levels bwrap,user,best-effort]

Builds a class of six correct submissions (``tests/conformance/fixtures/
soko_base.py``): two honest ones, and four that store files of 0.9 MB (each
under the per-file limit) on each of their first ten ``crear_grilla`` calls,
330 a call in ``/tmp`` or in their working folder, or 8 a call in each (the
tricks of issue 23). Grades it with ``grade --jobs 2 --max-examples 10`` at
each level, sampling every 20 ms:

* ``one box``: the most any one box stored at once (its folder, its own
  ``/tmp`` under bwrap, or its files in the shared ``/tmp``);
* ``boxes disk``: the boxes' folders (working copies, private ``TMPDIR``) and
  the fillers' files in ``/tmp``, at most, summed over the boxes alive;
* ``boxes memory``: the boxes' own tmpfs (one per box when capped, which
  holds its ``/tmp`` and working folder; bwrap's ``/tmp`` otherwise), likewise;
* ``Shmem``, ``disk used``: the machine's shared memory (``/proc/meminfo``)
  and the disk holding ``/tmp``: their largest growth over the start. These
  count whatever else the machine does (other users' jobs): an upper bound.

and prints one row per level, with each submission's verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "tests" / "conformance" / "fixtures" / "soko_base.py"

FILLER = '''"""Correct, but stores {count} files of 0.9 MB in {where} on each of its
first ten crear_grilla calls."""
import os

from base import *  # noqa: F401,F403
import base

_calls = [0]


def crear_grilla(desc):
    _calls[0] += 1
    if _calls[0] <= 10:
        for i in range({count}):
            with open(os.path.join({where!r},
                                   f"bench-fill-{{os.getpid()}}-{{_calls[0]}}-{{i}}"),
                      "wb") as f:
                f.write(b"x" * 900_000)
    return base.crear_grilla(desc)
'''
CLASS = {"honest_a": None, "tmp_330": ("/tmp", 330), "work_330": (".", 330),
         "tmp_8": ("/tmp", 8), "work_8": (".", 8), "honest_b": None}


def box_processes(under: Path) -> list[int]:
    """Processes whose working folder lies under ``under`` (the boxes)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{name}/cwd").startswith(str(under)):
                found.append(int(name))
        except OSError:
            continue
    return found


def _tree_blocks(path: Path) -> int:
    size = 0
    for folder, dirs, files in os.walk(path):
        for name in dirs + files:
            try:
                size += os.lstat(os.path.join(folder, name)).st_blocks * 512
            except OSError:
                pass
    return size


class StorageSampler:
    """Samples, every 20 ms, what the boxes under ``root`` store on disk
    (their folders, and the fillers' files in /tmp, named like ``pattern``
    with the filler's pid third from the end) and in memory
    (their /tmp when it is a tmpfs of their own), and the machine's Shmem and
    used disk; keeps the largest of each (the machine's as growth)."""

    def __init__(self, root: Path, pattern: str = "bench-fill-*"):
        self.root, self.pattern, self.disk, self.memory = root, pattern, 0, 0
        self.one = 0            # the most any one box stored (disk and memory)
        self.shmem = self.disk_used = 0
        self._start = (_shmem(), _disk_used())
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _run(self):
        while not self._stop.wait(0.02):
            each: dict[str, int] = {}       # box folder, or filler pid in /tmp -> bytes
            for box in self.root.iterdir():
                each[box.name] = _tree_blocks(box)
            for path in Path("/tmp").glob(self.pattern):
                try:
                    pid = path.name.split("-")[-3]
                    each[pid] = each.get(pid, 0) + path.lstat().st_blocks * 512
                except (OSError, IndexError):
                    pass
            disk = sum(each.values())
            memory, seen = 0, set()
            for pid in box_processes(self.root):
                try:
                    tmp = os.statvfs(f"/proc/{pid}/root/tmp")
                    device = os.stat(f"/proc/{pid}/root/tmp").st_dev     # one per tmpfs
                except OSError:
                    continue
                if device not in seen and tmp.f_blocks * tmp.f_frsize <= 2 ** 30:  # a box's
                    seen.add(device)
                    used = (tmp.f_blocks - tmp.f_bfree) * tmp.f_frsize
                    memory += used
                    each[f"tmpfs {device}"] = used
            self.disk, self.memory = max(self.disk, disk), max(self.memory, memory)
            self.one = max(self.one, max(each.values(), default=0))
            self.shmem = max(self.shmem, _shmem() - self._start[0])
            self.disk_used = max(self.disk_used, _disk_used() - self._start[1])


def _shmem() -> int:
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("Shmem:"):
                return int(line.split()[1]) * 1024
    return 0


def _disk_used() -> int:
    st = os.statvfs("/tmp")
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def build_class(folder: Path) -> None:
    for name, trick in CLASS.items():
        sub = folder / name
        sub.mkdir(parents=True)
        shutil.copy(BASE, sub / "base.py")
        if trick is None:
            shutil.copy(BASE, sub / "soko.py")
        else:
            where, count = trick
            (sub / "soko.py").write_text(FILLER.format(where=where, count=count))


def measure(level: str, storage_mb: int) -> dict:
    root = Path(tempfile.mkdtemp(prefix="sokoban-storage-"))
    os.chmod(root, 0o711)
    try:
        boxes = root / "boxes"
        boxes.mkdir()
        os.chmod(boxes, 0o711)
        build_class(root / "class")
        env = {**os.environ, "SOKOBAN_ISOLATION": level, "TMPDIR": str(boxes)}
        argv = [sys.executable, "-m", "conformance", "grade", str(root / "class"), "--out",
                str(root / "out"), "--jobs", "2", "--max-examples", "10", "--seed", "3",
                "--storage", str(storage_mb)]
        start = time.perf_counter()
        with StorageSampler(boxes) as sampled:
            done = subprocess.run(argv, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"grade failed at {level}: {done.stderr.strip()}")
        rows = json.loads((root / "out" / "summary.json").read_text())["submissions"]
        left = sum(p.stat().st_size for p in Path("/tmp").glob("bench-fill-*"))
        return {"level": level, "seconds": seconds, "disk": sampled.disk, "one": sampled.one,
                "memory": sampled.memory, "shmem": sampled.shmem,
                "disk_used": sampled.disk_used, "left": left,
                "verdicts": {r["name"]: (r["verdict"], r["message"]) for r in rows}}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--storage", type=int, default=64, metavar="MB")
    parser.add_argument("--levels", default="bwrap,user,best-effort")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from conformance.sandbox import isolation
    mb = 2 ** 20
    print(f"storage budget {args.storage} MB, grade --jobs 2; one capped tmpfs per box: "
          f"{'yes' if isolation.storage_capped() else 'no (watched)'}; load "
          f"{open('/proc/loadavg').read().split()[:3]}")
    print("| level | one box (max) | boxes disk (max) | boxes memory (max) | Shmem growth "
          "| disk growth | left in /tmp | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for level in args.levels.split(","):
        if level not in isolation.available_levels():
            print(f"| {level} | not available on this machine |||||||")
            continue
        if level == "best-effort" and not isolation.storage_capped():
            # Not held at best-effort without a capped tmpfs: the /tmp fillers
            # would fill this machine's /tmp.
            saved = dict(CLASS)
            for name in [n for n, t in CLASS.items() if t and t[0] == "/tmp"]:
                del CLASS[name]
            try:
                r = measure(level, args.storage)
            finally:
                CLASS.clear()
                CLASS.update(saved)
        else:
            r = measure(level, args.storage)
        print(f"| {level} | {r['one'] / mb:.1f} MB | {r['disk'] / mb:.1f} MB | "
              f"{r['memory'] / mb:.1f} MB | "
              f"{r['shmem'] / mb:.1f} MB | {r['disk_used'] / mb:.1f} MB | "
              f"{r['left'] / mb:.1f} MB | {r['seconds']:.0f} |")
        for name, (verdict, message) in r["verdicts"].items():
            print(f"|   {name}: {verdict}: {message[:100]} |||||||")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
