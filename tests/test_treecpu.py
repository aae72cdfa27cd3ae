"""``benchmarks/treecpu.py``: a command's CPU time counts the processes below
it that are killed rather than waited for (a sandboxed check's child is one),
whichever way it is measured."""

import importlib.util
import pathlib
import resource
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("treecpu", ROOT / "benchmarks" / "treecpu.py")
treecpu = importlib.util.module_from_spec(spec)
spec.loader.exec_module(treecpu)

# The command forks a grandchild that burns 0.4 s of CPU, then kills it with
# SIGKILL and exits without waiting for it: its CPU never reaches this
# process's RUSAGE_CHILDREN.
BURN = r"""
import os, signal, time
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    while time.process_time() < 0.4:
        pass
    os.write(w, b"x")
    time.sleep(60)
os.read(r, 1)
os.kill(pid, signal.SIGKILL)
"""


def _children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


@pytest.mark.parametrize("way", ["as available", "sampled"])
def test_a_killed_grandchild_s_cpu_time_is_counted(way, monkeypatch):
    if way == "sampled":
        monkeypatch.setattr(treecpu._Cgroup, "make", classmethod(lambda cls: None))
    before = _children()
    done, wall, cpu, how = treecpu.run([sys.executable, "-c", BURN], capture_output=True,
                                       timeout=60)
    assert done.returncode == 0, done.stderr
    assert how in ("cgroup", "sampled") and (way == "as available" or how == "sampled")
    waited = _children() - before
    assert cpu >= 0.3           # the grandchild's 0.4 s, less at most a sampling period
    assert cpu > waited + 0.2   # which waiting alone does not see
    assert wall >= 0.3


@pytest.mark.parametrize("argv, status, says", [
    (["--help"], 0, "python benchmarks/treecpu.py COMMAND"),
    (["no-such-command-here"], 1, "treecpu: cannot run no-such-command-here:"),
])
def test_the_command_line_says_what_is_wrong_without_a_traceback(argv, status, says):
    import subprocess
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "treecpu.py"), *argv],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == status
    assert says in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
