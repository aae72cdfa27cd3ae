"""A game's first call and the first look at what it returns in one round
trip (``Machine.create``, a profile's ``first_look``), and a ``__reset__``
said with the next message (``SandboxTarget``): the same plays and the same
verdicts as one call a round trip, with fewer round trips."""

from __future__ import annotations

import pytest

from conformance import mutants
from conformance.api import OPAQUE, RESET, TargetError
from conformance.checking import engine
from conformance.checking.targets import resolve
from conformance.machines import levels as lv
from conformance.profiles.extendido.machine import ExtendidoMachine
from conformance.profiles.soko.machine import SokoMachine
from conformance.profiles.tad.machine import TadMachine
from conformance.sandbox.box import open_target

MACHINES = {"tad": TadMachine, "extendido": ExtendidoMachine, "soko": SokoMachine}


def _check(name: str, profile: str, first_look: bool, monkeypatch, **kw):
    if not first_look:
        monkeypatch.setattr(MACHINES[profile], "first_look", lambda self: None)
    target = open_target(resolve(str(mutants.path(name))), in_process=True)
    trips: list[str] = []           # (one an operation asked of the target)
    call = target.call
    target.call = lambda op, *args: (trips.append(op), call(op, *args))[1]
    try:
        verdict = engine.check(target, profile, shrink=False, max_examples=25, seed=5, **kw)
    finally:
        target.close()
        monkeypatch.undo()
    return verdict, len(trips)


def _names(prefix: str) -> list[str]:
    return sorted(p.stem for p in mutants.FOLDER.glob(prefix + "*.py"))


@pytest.mark.parametrize("profile, name",
                         [("tad", n) for n in ["student_tad"] + _names("tad_")]
                         + [("extendido", n) for n in ["student_extendido"] + _names("ext_")]
                         + [("soko", n) for n in ["student_soko"] + _names("soko_")])
def test_the_first_look_in_the_first_round_trip_finds_what_two_trips_find(profile, name,
                                                                          monkeypatch):
    a, fused = _check(name, profile, True, monkeypatch)
    b, apart = _check(name, profile, False, monkeypatch)
    assert a.conforms == b.conforms and a.stats == b.stats
    if not a.conforms:
        ca, cb = a.counterexample, b.counterexample
        assert (ca.operation, ca.actions, ca.message, ca.rule, ca.expected, ca.actual) == \
            (cb.operation, cb.actions, cb.message, cb.rule, cb.expected, cb.actual)
    else:   # one round trip fewer a game
        assert fused <= apart - a.stats["examples"] // 2


def test_a_reset_travels_with_the_next_message():
    """``__reset__`` sends nothing; the next message carries it, and the
    child forgets its handles before that message's calls."""
    target = open_target(resolve(str(mutants.path("student_tad"))), in_process=False)
    sent: list[dict] = []
    send = target._send

    def recording(document, op):
        sent.append(document)
        return send(document, op)

    target._send = recording
    try:
        nivel = lv.from_rows(["#####", "#@$.#", "#####"]).nivel()
        target.call(OPAQUE, ["iniciar"])    # (a juego stays in the child: a handle here)
        j = target.call("iniciar", nivel)
        assert target.call("completado", j) is False
        before = len(sent)
        assert target.call(RESET) is None
        assert len(sent) == before          # nothing sent for it
        with pytest.raises(TargetError, match="unknown handle"):
            target.call("completado", j)    # forgotten by the child
        assert sent[-1].get("reset") is True
        k = target.call("iniciar", nivel)   # and the message after goes alone
        assert "reset" not in sent[-1]
        assert target.call("completado", k) is False
    finally:
        target.close()
