"""The steps of a long run (or of a walk of the solution) in one round trip
(``Machine.pipelined``): the same plays, judged in order, give what one
step a round trip gives, the same counterexample and the same counts, with
fewer round trips; a process that dies inside such a batch is played again
one step a trip. And the random search's first play, each example's steps
deferred across its rules (``engine._search``, ``Run.defer``): a correct
target plays the same examples in far fewer round trips; a search that
departs is played again one step a trip, so that what is reported (the
counterexample, shrunk, its rule, the counts, the coverage) is what a
check without deferring reports."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conformance import mutants
from conformance.api import BATCH
from conformance.checking import engine
from conformance.checking.checks import RunOptions, check_target
from conformance.checking.targets import own_spec, resolve
from conformance.profiles.aed2 import mutants as aed2_mutants
from conformance.profiles.aed2.machine import Aed2Machine
from conformance.machines.base import Machine
from conformance.profiles.extendido.machine import ExtendidoMachine
from conformance.profiles.soko.machine import SokoMachine
from conformance.profiles.tad.machine import TadMachine
from conformance.sandbox import child
from conformance.sandbox.box import open_target

FIXTURES = Path(__file__).parent / "fixtures"
TAD_MUTANTS = sorted(p.stem for p in mutants.FOLDER.glob("tad_*.py"))
EXT_MUTANTS = sorted(p.stem for p in mutants.FOLDER.glob("ext_*.py"))
MACHINES = {"tad": TadMachine, "extendido": ExtendidoMachine, "soko": SokoMachine}


class _Counting:
    """A target that counts its round trips."""

    def __init__(self, inner):
        self.inner, self.trips = inner, 0

    def call(self, op, *args):
        self.trips += 1
        return self.inner.call(op, *args)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def _check(name_or_path: str, pipelined: bool, monkeypatch, in_process: bool = True,
           profile: str = "tad", defer: bool = True, **kw):
    monkeypatch.setattr(MACHINES[profile], "PIPELINE", pipelined)
    monkeypatch.setattr(engine, "DEFER", defer)
    target = _Counting(open_target(resolve(name_or_path), in_process=in_process))
    try:
        verdict = engine.check(target, profile, shrink=False, **kw)
    finally:
        target.close()
    return verdict, target.trips


@pytest.fixture
def replays(monkeypatch) -> list[int]:
    """The batches played again one action a round trip (each one's length)."""
    found: list[int] = []
    original = Machine._one_by_one

    def counted(self, queue, *rest):
        found.append(len(queue))
        return original(self, queue, *rest)

    monkeypatch.setattr(Machine, "_one_by_one", counted)
    return found


def _same(a, b) -> None:
    assert (a.conforms, a.stats, a.coverage) == (b.conforms, b.stats, b.coverage)
    if not a.conforms:
        ca, cb = a.counterexample, b.counterexample
        assert (ca.operation, ca.actions, ca.message, ca.rule, ca.expected, ca.actual,
                ca.level_text) == (cb.operation, cb.actions, cb.message, cb.rule,
                                   cb.expected, cb.actual, cb.level_text)


@pytest.mark.parametrize("profile, name", [("tad", n) for n in ["student_tad"] + TAD_MUTANTS]
                         + [("extendido", n) for n in ["student_extendido"] + EXT_MUTANTS])
def test_a_pipelined_check_finds_what_one_step_a_trip_finds(profile, name, monkeypatch):
    path = str(mutants.path(name))
    a, trips = _check(path, True, monkeypatch, profile=profile, max_examples=25, seed=3)
    b, one_by_one = _check(path, False, monkeypatch, profile=profile, max_examples=25, seed=3)
    _same(a, b)
    if name.startswith("student_"):
        assert a.conforms and trips < one_by_one / 2


@pytest.mark.parametrize("name", ["student_extendido", "ext_undo_keeps_last_n",
                                  "ext_bomb_not_counted", "ext_advance_skips_level"])
def test_a_step_judged_again_on_the_target_is_played_again(name, monkeypatch, replays):
    """A step whose judging looks at the juego again (a departure inside a
    light long run of extendido draws both boards from a fresh look), when
    later steps of its batch went on: the example is played again one
    action a round trip. Here every step asks for it: the verdict, the
    counterexample and the counts are still those of a check without
    batches of steps."""
    judged = ExtendidoMachine.judge_step

    def looking(self, calls, answers, state):
        self.live()
        return judged(self, calls, answers, state)

    monkeypatch.setattr(ExtendidoMachine, "judge_step", looking)
    path = str(mutants.path(name))
    a, _ = _check(path, True, monkeypatch, profile="extendido", max_examples=25, seed=3)
    assert replays or name != "student_extendido"  # (a mutant may fail before any batch)
    b, _ = _check(path, False, monkeypatch, profile="extendido", max_examples=25, seed=3)
    _same(a, b)


def test_a_death_inside_a_pipelined_batch_is_told_as_one_step_a_trip_tells_it(monkeypatch,
                                                                            replays):
    """The process dies at a later step of a batch: the example is played
    again one step a round trip, and the counterexample is the one a check
    without batches of steps reports."""
    path = str(FIXTURES / "tad_dies.py")
    a, _ = _check(path, True, monkeypatch, in_process=False, max_examples=40, seed=1)
    assert replays, "the death never happened inside a batch of steps"
    b, _ = _check(path, False, monkeypatch, in_process=False, max_examples=40, seed=1)
    _same(a, b)
    assert a.counterexample.operation == "step" and a.counterexample.fatal


def test_a_batch_asked_to_stop_stops_at_the_first_failure():
    """``BATCH(calls, True)``: after the first call that fails, no call is
    made (each is told skipped); without it, every call is made."""
    made = []

    def note(x):
        made.append(x)
        if x == 2:
            raise ValueError("two")
        return x

    import types
    host = child.Host(types.SimpleNamespace(note=note), atoms=())
    calls = [("note", (i,)) for i in range(5)]
    kind, answers = host.run(BATCH, (calls, True))
    assert kind == "ok" and made == [0, 1, 2] and answers[:2] == [0, 1]
    assert [a.kind for a in answers[2:]] == ["raised", "skipped", "skipped"]
    made.clear()
    kind, answers = host.run(BATCH, (calls,))
    assert made == [0, 1, 2, 3, 4] and answers[3:] == [3, 4]


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
@pytest.mark.parametrize("name", ["reference", "undo_forgets_counter", "bomb_once_per_cell",
                                  "crash_without_walls"])
def test_a_pipelined_cpp_check_finds_what_one_step_a_trip_finds(name, monkeypatch):
    """aed2 (one juego modified in place, a C++ driver that does not stop
    at a failed call and may die anywhere): the same verdicts."""
    folder = aed2_mutants.REFERENCE if name == "reference" else \
        aed2_mutants.materialize(aed2_mutants.BY_NAME[name])
    verdicts = []
    for pipelined in (True, False):
        monkeypatch.setattr(Aed2Machine, "PIPELINE", pipelined)
        verdicts.append(check_target(own_spec("aed2", folder), None, RunOptions(
            max_examples=30, seed=3, sanitize=False, localize=False))[0][0])
    _same(*verdicts)
    assert verdicts[0].conforms == (name == "reference")


def test_a_target_that_prints_much_is_not_told_it_printed_too_much(monkeypatch, replays):
    """The output cap is per message: thirty steps of a target that prints
    40 kB a step overflow it where one step does not. The batch is played
    again one step a round trip (and so is the rest of the check): no
    false "output" departure, the same counts."""
    path = str(FIXTURES / "tad_chatty.py")
    a, _ = _check(path, True, monkeypatch, in_process=False, max_examples=15, seed=1)
    assert len(replays) == 1
    b, _ = _check(path, False, monkeypatch, in_process=False, max_examples=15, seed=1)
    _same(a, b)
    assert a.conforms


# -- the search's first play, each example's steps deferred (Run.defer) ----------

ALL_MUTANTS = sorted(p.stem for p in mutants.FOLDER.glob("*.py") if p.stem != "__init__")


def _profile_of(name: str) -> str:
    kind = name.removeprefix("student_").split("_")[0]
    return {"ext": "extendido"}.get(kind, kind)


@pytest.mark.parametrize("name", ALL_MUTANTS)
def test_a_deferred_search_reports_what_one_step_a_trip_reports(name, monkeypatch):
    """The random search played first with each example's steps deferred
    across its rules (``engine._search``): on every mutant and every
    student-style implementation of the Python profiles, shrinking as a
    check does, the same verdict, counterexample, counts and coverage as
    without; a correct one in under half the round trips."""
    path, profile = str(mutants.path(name)), _profile_of(name)
    a, deferred = _check(path, True, monkeypatch, profile=profile, max_examples=25, seed=3)
    b, one_by_one = _check(path, True, monkeypatch, profile=profile, defer=False,
                           max_examples=25, seed=3)
    _same(a, b)
    if name.startswith("student_"):
        assert a.conforms and deferred < one_by_one / 2


@pytest.fixture
def searches(monkeypatch) -> list[bool]:
    """The random searches played (each one's ``Run.defer``)."""
    found: list[bool] = []
    search = engine._search_once

    def noted(run, *rest):
        found.append(run.defer)
        return search(run, *rest)

    monkeypatch.setattr(engine, "_search_once", noted)
    return found


def test_a_departure_not_seen_again_stands(monkeypatch, searches):
    """A target that departs once in its life: the deferred play finds it;
    the search played again does not see it again (the target now answers
    right); the departure found stands: a wrong target is not passed."""
    path = str(FIXTURES / "soko_departs_once.py")
    v, _ = _check(path, True, monkeypatch, profile="soko", max_examples=60, seed=1)
    assert searches == [True, False]
    assert not v.conforms and v.counterexample.operation.startswith("juego_ganado")


def test_a_death_in_a_deferred_batch_is_told_as_one_step_a_trip_tells_it(monkeypatch):
    """The process dies (``os._exit``) at a later step of a deferred batch,
    in the sandbox, shrinking: the same fatal counterexample as without."""
    path = str(FIXTURES / "tad_dies.py")
    a, _ = _check(path, True, monkeypatch, in_process=False, max_examples=40, seed=1)
    b, _ = _check(path, True, monkeypatch, in_process=False, defer=False, max_examples=40,
                  seed=1)
    _same(a, b)
    assert a.counterexample.operation == "step" and a.counterexample.fatal


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
@pytest.mark.parametrize("name", ["reference", "undo_forgets_counter", "bomb_once_per_cell",
                                  "crash_without_walls"])
def test_a_deferred_cpp_check_reports_what_one_step_a_trip_reports(name, monkeypatch,
                                                                  searches):
    """aed2 does not defer its search's steps (``Aed2Machine.DEFERS``: a
    program that dies in a batch is started again), so its search is
    played once; made to defer them, shrinking: the same verdicts."""
    folder = aed2_mutants.REFERENCE if name == "reference" else \
        aed2_mutants.materialize(aed2_mutants.BY_NAME[name])
    options = RunOptions(max_examples=30, seed=3, sanitize=False, localize=False)
    check_target(own_spec("aed2", folder), None, options)
    assert searches in ([False], [])        # (a departure in a fixed scenario: no search)
    monkeypatch.setattr(Aed2Machine, "DEFERS", True)
    verdicts = []
    for defer in (True, False):
        monkeypatch.setattr(engine, "DEFER", defer)
        verdicts.append(check_target(own_spec("aed2", folder), None, options)[0][0])
    _same(*verdicts)
    assert verdicts[0].conforms == (name == "reference")


def test_a_departure_in_an_example_cut_short_stops_the_deferred_play():
    """Hypothesis may cut an example short (``StopTest``: out of choices)
    and then takes whatever the example raises for the cut. The steps it
    deferred are judged then all the same, as they were one by one; a
    departure among them is recorded (``Run.last``), and the deferred play
    stops at the next example (``Deferred``), to be played again."""
    from hypothesis.errors import StopTest

    from conformance.machines import levels as lv
    from conformance.machines.base import Deferred, Departure
    from conformance.profiles import get

    profile = get("soko")
    target = open_target(resolve(str(mutants.path("soko_pushes_two_boxes"))), in_process=True)
    run = engine._run(target, profile, engine.CheckSettings.for_groups(profile))
    run.defer = True
    machine = profile.machine.bind(run)
    m = machine()
    # a box with another behind it: the mutant pushes both
    m.begin([lv.from_rows(["#######", "#@$$ .#", "#   . #", "#######"], soko=True)])
    m._queue = []
    m.act("r")
    assert m._queue and run.last is None        # deferred: not asked yet
    with pytest.raises(Departure):
        try:
            raise StopTest(0)
        except StopTest:
            m.teardown()
    assert run.last is not None and run.last.rule == "soko.push-blocked"
    with pytest.raises(Deferred):
        machine()
    target.close()
