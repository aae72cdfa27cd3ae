"""The CPU time of a command and of every process below it, however they end.

``RUSAGE_CHILDREN`` holds only the processes that were waited for, all the
way down. A sandboxed check's child is not: it runs under bwrap as the
child of the namespace's first process, and is killed with the namespace
when the box closes, so its CPU time never reaches the command's parent.
(Measured: a soko check whose sandbox child used 1.8 s of CPU showed
0.1 s in ``RUSAGE_CHILDREN`` beyond the checker's own.)

:func:`run` therefore measures a command in one of two ways:

* **a cgroup** (``cpuacct`` of cgroup v1, or cgroup v2's ``cpu.stat``) made
  for the command, when this process may make one (as root): the command is
  moved into it before it starts, every process below it inherits it, and
  the kernel counts their CPU exactly, dead or alive;
* otherwise **sampling** ``/proc`` every 20 ms, from a thread of *this*
  process, over the command's descendants (never this process itself): each
  process counts with the last CPU time seen for it, so a process loses at
  most its last 20 ms.

``python benchmarks/treecpu.py COMMAND...`` prints the command's wall and CPU
time and which way they were measured.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

_V1 = Path("/sys/fs/cgroup/cpuacct")
_V2 = Path("/sys/fs/cgroup")
_TICK = os.sysconf("SC_CLK_TCK")


class _Cgroup:
    """A fresh cgroup that counts CPU time, or None from :meth:`make`."""

    def __init__(self, path: Path, v2: bool):
        self.path, self.v2 = path, v2

    @classmethod
    def make(cls) -> "_Cgroup | None":
        name = f"treecpu-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        for base, v2 in ((_V1, False), (_V2, True)):
            probe = base / ("cpu.stat" if v2 else "cpuacct.usage")
            if not probe.is_file():
                continue
            try:
                (base / name).mkdir()
            except OSError:
                continue
            return cls(base / name, v2)
        return None

    def enter(self) -> None:
        """Move the calling process in (run in the child before exec)."""
        with open(self.path / "cgroup.procs", "w") as f:
            f.write(str(os.getpid()))

    def seconds(self) -> float:
        if self.v2:
            for line in (self.path / "cpu.stat").read_text().splitlines():
                if line.startswith("usage_usec "):
                    return int(line.split()[1]) / 1e6
            return 0.0
        return int((self.path / "cpuacct.usage").read_text()) / 1e9

    def remove(self) -> None:
        for _ in range(50):             # its last processes may still be leaving
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.02)


class _Sampler(threading.Thread):
    """The last CPU time seen of each process below ``root``."""

    def __init__(self, root: int):
        super().__init__(daemon=True)
        self.root, self.seen, self.done = root, {}, threading.Event()

    def scan(self) -> None:
        parent, cpu = {}, {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid = int(entry)
            parent[pid] = int(fields[1])
            cpu[pid] = (int(fields[11]) + int(fields[12])) / _TICK
        below, grew = {self.root}, True
        while grew:
            grew = False
            for pid, pp in parent.items():
                if pp in below and pid not in below:
                    below.add(pid)
                    grew = True
        for pid in below:
            if pid in cpu:
                # (pid, its start) would be safer against reuse; a run is short
                self.seen[pid] = max(self.seen.get(pid, 0.0), cpu[pid])

    def run(self) -> None:
        while not self.done.is_set():
            self.scan()
            self.done.wait(0.02)


def run(argv, **kwargs) -> tuple[subprocess.CompletedProcess, float, float, str]:
    """``subprocess.run(argv, **kwargs)``, and its wall time, its CPU time
    (the command's and every process's below it) and the way the CPU time
    was measured (``cgroup`` or ``sampled``)."""
    group = _Cgroup.make()
    start = time.monotonic()
    if group is not None:
        try:
            p = subprocess.run(argv, preexec_fn=group.enter, **kwargs)
            wall = time.monotonic() - start
            time.sleep(0.05)            # the box's last processes are killed, not waited
            return p, wall, group.seconds(), "cgroup"
        finally:
            group.remove()
    with subprocess.Popen(argv, **{k: v for k, v in kwargs.items()
                                   if k not in ("input", "timeout", "capture_output")},
                          **({"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
                             if kwargs.get("capture_output") else {})) as proc:
        sampler = _Sampler(proc.pid)
        sampler.start()
        try:
            out, err = proc.communicate(kwargs.get("input"), timeout=kwargs.get("timeout"))
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
        finally:
            sampler.done.set()
            sampler.join()
        wall = time.monotonic() - start
    return (subprocess.CompletedProcess(argv, proc.returncode, out, err), wall,
            sum(sampler.seen.values()), "sampled")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0)
    try:
        done, wall, cpu, how = run(sys.argv[1:])
    except OSError as e:            # (a command that is not there, or not runnable)
        sys.exit(f"treecpu: cannot run {sys.argv[1]}: {e.strerror or e}")
    print(f"wall {wall:.2f} s, CPU {cpu:.2f} s ({how}), exit {done.returncode}", file=sys.stderr)
    sys.exit(done.returncode)
