"""Profile ``tad`` (seed 000's TAD Juego: ``iniciar``, ``step``, ``estado``,
``completado``): after every action, ``estado`` (all four sets) and
``completado`` are compared with the spec's."""

from __future__ import annotations

from typing import Any, Sequence

from hypothesis import strategies as st
from hypothesis.stateful import rule

from conformance.api import Earlier
from conformance.machines import levels as lv
from conformance.machines.base import (
    GIVEN, LONG, PATTERNS, Machine, short,
)
from conformance.machines.replays import ACTION_CODES
from conformance.machines.boards import Board, render_observation
from levels.drawing import bounds
from spec import juego as spec_juego
from spec.tipos import CAJAS, CLAVES, DEPOSITOS, PAREDES, PERSONAJE
from conformance.translations import N_, _


class TadMachine(Machine):
    PROFILE = "tad"
    SEED = "seed 000"

    # -- rules (besides the shared start, move and walk_solution) ----------------

    @rule(kind=st.sampled_from(("repeat",)), pattern=st.sampled_from(PATTERNS),
          k=st.integers(2, LONG))
    def long_run(self, kind, pattern, k):
        self.play_long_run(kind, pattern, k)

    # -- playing -------------------------------------------------------------------

    def begin(self, scenes: Sequence[lv.Scene]) -> None:
        scene = scenes[0]
        self.begin_level(scene, spec_juego.iniciar(scene.nivel()), "iniciar", scene.nivel(),
                         N_("a juego"))

    def describe(self, code: str) -> str:
        return f"step {ACTION_CODES[code].name}"

    #: A long run's steps, or a walk of the solution, go in one round trip.
    PIPELINE = True
    #: id of a spec juego -> (it, its estado, its completado): the last
    #: ones worked out (a long run's are planned, then judged).
    _expected: dict | None = None

    def plan_step(self, code: str) -> tuple[list, Any]:
        """One ``step``: the spec's, and the target's with the observers
        of the juego it returns (one round trip, or part of one)."""
        a = ACTION_CODES[code]
        before, won = self.expected()
        self.model = self.spec_step(self.model, code)
        self.codes.append(code)
        stepped = (Earlier(0),)
        calls = [("step", (GIVEN, a)), ("estado", stepped), ("completado", stepped)]
        return calls, (a, before, won)

    def judge_step(self, calls: list, answers: list, state: Any) -> None:
        a, before, won = state
        self.handle = answers[0]
        self.expect_value("step", f"step(j, {a.name})", self.handle, N_("a juego"))
        self.failed_calls(calls, answers, 1)
        after, done = self.expected()
        run = self.run
        run.count("steps")
        if after == before:
            run.count("blocked")
        elif after[CAJAS] != before[CAJAS]:
            run.count("pushes")
        if done and not won:
            run.count("wins")
        self.compare(answers[1:])

    def expected(self) -> tuple[dict, bool]:
        """The spec's ``estado`` and ``completado`` of the current juego
        (worked out once a juego: a spec juego never changes)."""
        model = self.model
        known = self._expected
        if known is None or len(known) > 256:
            known = self._expected = {}
        seen = known.get(id(model))
        if seen is None or seen[0] is not model:
            seen = known[id(model)] = (model, spec_juego.estado(model),
                                       spec_juego.completado(model))
        return seen[1], seen[2]

    def first_look(self) -> tuple[list, Any]:
        """``estado`` and ``completado`` of the juego ``iniciar`` returns (in its round trip)."""
        return [("estado", (Earlier(0),)), ("completado", (Earlier(0),))], self.compare

    # -- comparing -----------------------------------------------------------------

    def compare(self, answers: list | None = None) -> None:
        """Compare ``estado`` and ``completado`` of the target's juego
        (``answers``: theirs, already asked) with the spec's."""
        expected, expected_done = self.expected()
        actual, done = answers or self._batch([("estado", (self.handle,)),
                                               ("completado", (self.handle,))])
        bad = None
        if not isinstance(actual, dict) or set(actual) != set(CLAVES):
            keys = sorted(map(repr, actual)) if isinstance(actual, dict) else type(actual).__name__
            bad = ("estado", f"estado returned {short(actual)} (keys {keys}), "
                   f"expected a dict with the keys {', '.join(map(repr, CLAVES))}")
        else:
            for key in CLAVES:
                if not _same_set(actual[key], expected[key]):
                    bad = (f"estado[{key!r}]", _("{call} is {got}, expected {want}").format(
                        call=f"estado(j)[{key!r}]", got=short(actual[key]),
                        want=short(set(expected[key]))))
                    break
        if bad is None and not self.agrees("completado", done, expected_done):
            bad = ("completado", _("{call} is {got}, expected {want}").format(
                call="completado", got=repr(done), want=repr(expected_done))
                   + self.strict_note(done, expected_done))
        if bad is not None:
            e_board = _estado_board(expected)
            a_board = _estado_board(actual) if isinstance(actual, dict) else None
            window = bounds(e_board.cells() | (a_board.cells() if a_board else frozenset()), 1)
            self._fail(bad[0], f"{bad[1]} {self.where()}",
                       render_observation(e_board, window, [("completado", expected_done)]),
                       render_observation(a_board, window, [("completado", done)])
                       if a_board else f"estado: {short(actual)}\ncompletado: {done!r}")


def _same_set(actual: Any, expected: frozenset) -> bool:
    if not isinstance(actual, (set, frozenset)):
        return False
    try:
        return actual == expected
    except Exception:   # noqa: BLE001
        return False


def _positions(value: Any) -> frozenset:
    try:
        return frozenset(p for p in value if isinstance(p, tuple) and len(p) == 2)
    except Exception:   # noqa: BLE001 - not iterable: draw nothing
        return frozenset()


def _estado_board(e: dict) -> Board:
    return Board(walls=_positions(e.get(PAREDES, ())), boxes=_positions(e.get(CAJAS, ())),
                 goals=_positions(e.get(DEPOSITOS, ())), players=_positions(e.get(PERSONAJE, ())))
