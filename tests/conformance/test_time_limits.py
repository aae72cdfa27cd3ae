"""A call's time limit counts the CPU time it uses, not the time it waits:
on a loaded grader (a class graded with --jobs, a shared runner) a correct
program may wait many times its limit for a core, and must not be told it
loops. Here a box is starved on purpose (SIGSTOP, then SIGCONT), which is
what a loaded machine does to it, for Python, C++ and Prolog targets; an
endless loop is still stopped at its limit, and a call that only waits
still ends, after WALL_FACTOR times its limit."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conformance.sandbox import child, isolation
from conformance.api import TargetError
from conformance.sandbox.box import SandboxTarget
from conformance.checking.targets import resolve
from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE

FIXTURES = Path(__file__).parent / "fixtures"


def _box(pid: int) -> set[int]:
    return {pid} | isolation._descendants(pid)


@contextlib.contextmanager
def starved(pid: int, after: float, seconds: float):
    """While the body runs: ``after`` seconds in, the box rooted at ``pid``
    gets no CPU at all for ``seconds`` (every process of it stopped)."""
    def starve():
        time.sleep(after)
        stopped = _box(pid)
        for p in stopped:
            os.kill(p, signal.SIGSTOP)
        time.sleep(seconds)
        for p in stopped | _box(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(p, signal.SIGCONT)
    thread = threading.Thread(target=starve)
    thread.start()
    try:
        yield
    finally:
        thread.join()


# ------------------------------------------------------------ the clock

def _process(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code])


def _until_over(clock: isolation.CallClock) -> tuple[str, float]:
    while True:
        why = clock.over()
        if why:
            return why, time.monotonic() - clock.start
        time.sleep(min(clock.wait(), 0.02))


def test_the_clock_counts_cpu_time_not_waiting():
    busy, idle = _process("while True: pass"), _process("import time; time.sleep(60)")
    try:
        why, took = _until_over(isolation.CallClock(busy.pid, 0.3, factor=20))
        assert why == "cpu" and took >= 0.3
        why, took = _until_over(isolation.CallClock(idle.pid, 0.3, factor=3))
        assert why == "wall" and took >= 0.9
        # A stopped loop (a starved one) gets no CPU: only the wall clock ends it.
        os.kill(busy.pid, signal.SIGSTOP)
        time.sleep(0.05)
        why, took = _until_over(isolation.CallClock(busy.pid, 0.3, factor=4))
        assert why == "wall" and took >= 1.2
    finally:
        for p in (busy, idle):
            p.kill()
            p.wait()


def test_the_clock_counts_the_whole_box():
    """A box's CPU time is its processes' together (bwrap, the program
    below it, what the program started)."""
    parent = _process("import subprocess, sys, time\n"
                      "subprocess.Popen([sys.executable, '-c', 'while True: pass'])\n"
                      "time.sleep(60)")
    try:
        why, took = _until_over(isolation.CallClock(parent.pid, 0.3, factor=20))
        assert why == "cpu"
    finally:
        for p in _box(parent.pid):
            os.kill(p, signal.SIGKILL)
        parent.wait()


# ------------------------------------------------------------ Python

@pytest.fixture
def slow_box():
    target = SandboxTarget(resolve(str(FIXTURES / "soko_misbehaving.py")), timeout=0.5)
    assert target.call("spin", 0.0) == 0.0                  # started
    yield target
    target.close()


def test_a_starved_python_call_is_not_a_timeout(slow_box):
    # 0.3 s of CPU time, within the limit of 0.5 s, but 1.5 s on the wall
    # clock: the box gets no CPU for 1.2 s in the middle.
    with starved(slow_box._proc.pid, after=0.1, seconds=1.2):
        assert slow_box.call("spin", 0.3) == 0.3
    assert slow_box.call("nap", 1.0) == 1.0                 # waiting is not computing
    with pytest.raises(TargetError, match=re.escape("used more than 0.5 s of CPU time")):
        slow_box.call("loop_forever")                       # a loop still ends at its limit
    assert slow_box.alive


def test_a_python_call_that_only_waits_still_ends(slow_box):
    start = time.monotonic()
    with pytest.raises(TargetError, match=re.escape(
            f"no answer within {0.5 * child.WALL_FACTOR:g} s (it waited")):
        slow_box.call("nap", 60)
    assert time.monotonic() - start < 30
    assert slow_box.call("spin", 0.0) == 0.0


def test_a_starved_import_is_not_a_timeout(tmp_path):
    """Opening a box on a loaded machine may take long; only the CPU time
    the import uses counts against its limit."""
    (tmp_path / "soko.py").write_text(
        "import time\n"
        "_start = time.process_time()\n"
        "while time.process_time() - _start < 0.3:\n"
        "    pass\n"
        "from soko_base import *  # noqa\n")
    shutil.copy(FIXTURES / "soko_base.py", tmp_path / "soko_base.py")
    spec = resolve(str(tmp_path / "soko.py"))
    target = SandboxTarget(spec, start_timeout=0.5)
    stopper = threading.Timer(0.0, lambda: None)
    try:
        # The box starts on the first call; starve it while it imports.
        box_started = threading.Event()

        def starve_when_started():
            deadline = time.monotonic() + 30
            while target._proc is None and time.monotonic() < deadline:
                time.sleep(0.01)
            box_started.set()
            if target._proc is not None:
                with starved(target._proc.pid, after=0.1, seconds=1.5):
                    pass
        stopper = threading.Thread(target=starve_when_started)
        stopper.start()
        assert target.call("crear_grilla", ["#####", "#@$.#", "#####"]) is not None
    finally:
        stopper.join()
        target.close()


# ------------------------------------------------------------ C++

@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_a_starved_cpp_call_is_not_a_timeout():
    from conformance.profiles.aed2 import mutants as cpp_mutants
    from conformance.profiles.aed2.build import build
    from conformance.profiles.aed2.target import Aed2Target
    target = Aed2Target(build(cpp_mutants.REFERENCE, std="c++17", sanitize=False), timeout=0.5,
                        name="reference")
    try:
        nivel = {PERSONAJE: frozenset({(1, 1)}), PAREDES: frozenset({(0, 0)}),
                 DEPOSITOS: frozenset({(3, 1)}), CAJAS: frozenset({(2, 1)}), BOMBAS: 0}
        juego = target.call("nuevo_juego", [nivel])
        with starved(target.proc.pid, after=0.0, seconds=1.5):
            time.sleep(0.1)                                 # stopped before the call
            assert target.call("persona", juego) == (1, 1)  # answered once it ran again
    finally:
        target.close()


# ------------------------------------------------------------ Prolog

SPINNER = """
pista(1, 1, j).
action(S, spin) :- member(spin, S), statistics(cputime, C0),
    repeat, statistics(cputime, C), C - C0 >= 0.3, !.
action(S, loop) :- member(loop, S), loop.
perform(S, A, [A|S]).
loop :- loop.
sokoban([]).
"""


def _driver_wall_factor() -> int:
    from conformance.profiles.prolog.target import DRIVER
    found = re.search(r"^wall_factor\((\d+)\)\.", Path(DRIVER).read_text(), re.M)
    assert found, "the Prolog driver states its wall_factor/1"
    return int(found.group(1))


def test_the_prolog_driver_waits_as_long_as_the_others():
    assert _driver_wall_factor() == child.WALL_FACTOR == isolation.WALL_FACTOR


@pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl (SWI-Prolog) is not installed")
def test_a_starved_prolog_call_is_not_a_timeout(tmp_path):
    from conformance.profiles.prolog import terms
    from conformance.profiles.prolog.source import find_program
    from conformance.profiles.prolog.target import PrologTarget
    (tmp_path / "sokoban.pro").write_text(SPINNER)
    target = PrologTarget(find_program(tmp_path), memory_mb=512)
    try:
        target.start()
        target.open_level(2, 2, [])
        # 0.3 s of CPU time within a limit of 0.5 s, starved for 1.2 s.
        with starved(target.proc.pid, after=0.1, seconds=1.2):
            answer = target.successors([terms.Atom("spin")], 0.5)
        assert answer.kind == "ok", answer.text
        # An endless loop still ends (its attempts are not starved).
        assert target.successors([terms.Atom("loop")], 0.3).kind == "timeout"
    finally:
        target.close()


# -- the limits inside a batch (child._Armed) ------------------------------------

def _spin(seconds: float) -> bool:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return True


def test_each_call_of_a_batch_gets_its_whole_limit():
    """A batch arms the limits again before a call only when more than
    REARM seconds passed since it last did: calls that each use most of
    the limit all finish (armed once for the batch, the second would be
    interrupted), and a call that loops is still interrupted."""
    import types
    host = child.Host(types.SimpleNamespace(spin=_spin), atoms=())
    host.limit_time(0.3)
    try:
        kind, answers = host.run(child.BATCH, ([("spin", (0.2,))] * 3 + [("spin", (5.0,))],))
    finally:
        signal.signal(signal.SIGPROF, signal.SIG_DFL)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
    assert kind == "ok" and answers[:3] == [True, True, True]
    assert isinstance(answers[3], child.Failure) and answers[3].kind == "timeout"
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)       # disarmed at the end
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@pytest.mark.parametrize("handler", [child._over_cpu, child._over_wall])
def test_a_limit_that_runs_out_between_two_calls_is_no_ones(handler, monkeypatch):
    """Between two calls of a batch, a limit running out interrupts
    nothing: the next call arms the limits again. Inside a call, it
    interrupts the call."""
    monkeypatch.setattr(child._Armed, "at", 12.0)
    monkeypatch.setattr(child._Armed, "between", True)
    assert handler(signal.SIGPROF, None) is None
    assert child._Armed.at == float("-inf")
    monkeypatch.setattr(child._Armed, "between", False)
    with pytest.raises(child.CallTimeout):
        handler(signal.SIGPROF, None)
