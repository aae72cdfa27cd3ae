"""Profile ``aed2``: the course's ``aed2_Juego`` (seed 001 in C++,
:mod:`conformance.profiles.aed2`). One mutable juego; ``mover`` returns whether the
move completed the current level; there is no ``indice_nivel`` or ``gano``
to observe. Compared as ``extendido`` less those two, plus ``mover``'s
answer; it also undoes and redoes recent actions and stops walking a
solution when a box lands on a goal (undo's favourite trap).

Left open by the interface, so not judged (the domain, docs/aed2.md):
``mover`` on a level that is already complete (complete at the start, or the
last level once won), and any call after the last level is completed."""

from __future__ import annotations

from typing import Any, Sequence

from hypothesis import strategies as st
from hypothesis.stateful import initialize, precondition, rule

from conformance.machines import levels as lv
from conformance.machines.base import (
    LEADS, arg_text, game_levels, per_check, short, values_equal,
)
from conformance.profiles.extendido.machine import ExtendidoMachine
from conformance.machines.replays import ACTION_CODES
from conformance.translations import _
from spec.rules import RESPUESTA
from spec import extendido as spec_ext


class Aed2Machine(ExtendidoMachine):
    PROFILE = "aed2"
    SEED = "seed 001"
    #: The juego is one object, modified in place: every step takes it.
    STEP_RESULT = None
    #: The search's steps are not deferred across rules: a C++ program that
    #: dies inside a batch is started again (about 45 ms a start, in a box,
    #: under the sanitizer) and its example played again one step a round
    #: trip, and a search that departs is played twice; for a correct
    #: program deferring saved about 4% of a check's CPU time (vib97, seed 7).
    DEFERS = False

    skipped = ("indice_nivel", "gano")

    # -- rules (besides extendido's) ---------------------------------------------

    @initialize(scenes=per_check(game_levels), lead=LEADS, landing=st.booleans())
    def start(self, scenes, lead, landing):
        """As every profile's start; with the solutions walked, half the
        time the walk stops at the first box on a goal (undo's favourite trap)."""
        self.begin(scenes)
        self.defer_steps()
        if not self.settings.follow:
            return
        if landing:
            self.walk_until_landing()
        else:
            self.follow(lead)

    @precondition(lambda self: self.settings.undo and bool(self.redoable()))
    @rule(k=st.integers(1, 6), landing=st.booleans(), times=st.integers(1, 3))
    def rewind(self, k, landing, times):
        self.rewind_and_redo(k, landing, times)

    @precondition(lambda self: self.settings.undo and self.can_follow())
    @rule()
    def walk_to_landing(self):
        self.walk_until_landing()

    # -- playing -------------------------------------------------------------------

    def begin(self, scenes: Sequence[lv.Scene]) -> None:
        self.finished = False
        self.level_start = 0        # where the current level's actions begin in self.codes
        self.landings: list[int] = []   # indices in self.codes of moves that put a box on a goal
        super().begin(scenes)

    def first_look(self) -> None:
        """None: the driver makes a juego alone (its batches hold the
        juego's observers and modifiers only)."""
        return None

    def act(self, code: str, following: bool = False) -> None:
        if self.finished or (code in ACTION_CODES and spec_ext.gano(self.model)):
            if not following:
                self.path = None
            return
        before = spec_ext.indice_nivel(self.model)
        on_goals = len(spec_ext.cajas(self.model) & spec_ext.depositos(self.model))
        done = len(self.codes)
        super().act(code, following)
        if (len(self.codes) > done and spec_ext.indice_nivel(self.model) == before
                and len(spec_ext.cajas(self.model) & spec_ext.depositos(self.model)) > on_goals):
            self.landings.append(done)      # a box landed on a goal
        if spec_ext.indice_nivel(self.model) != before:
            self.level_start = len(self.codes)
        elif (spec_ext.gano(self.model) and not spec_ext.niveles_pendientes(self.model)
                and code in ACTION_CODES):
            self.finished = True

    def walk_until_landing(self) -> None:
        """Walk the level's solution until a box lands on a goal (the
        moment an undo is most likely to get a counter wrong)."""
        landed = len(self.landings)
        # (In one round trip: what to play next is the spec's to say.)
        with self.pipelined():
            while self.can_follow() and len(self.landings) == landed and not self.finished:
                self.follow(1)
            if len(self.landings) > landed and not self.finished and self.redoable():
                # The level goes on (another box is off its goal): land, undo,
                # land again. An undo that forgets the boxes-on-goals counter
                # shows here, in what mover answers.
                self.rewind_and_redo(1, landing=True)

    def redoable(self) -> str:
        """The current level's last actions after its last deshacer."""
        return "".join(self.codes[self.level_start:]).rsplit("z", 1)[-1]

    def rewind_and_redo(self, k: int, landing: bool = False, times: int = 1) -> None:
        """Undo the last ``k`` actions (``landing``: back to before the last
        move that put a box on a goal, when there is one), then do them
        again, ``times`` times: the state, and what mover answers, must be as
        before (catches an undo that leaves a counter or a record behind)."""
        tail = self.redoable()[-k:]
        start = len(self.codes) - len(self.redoable())
        landed = [i for i in self.landings if i >= start]
        if landing and landed:
            tail = "".join(self.codes[landed[-1]:])
        with self.pipelined():
            for _ in range(times):
                for _ in tail:
                    self.act("z")
                for code in tail:
                    self.act(code)

    def stepped(self) -> Any:
        """The one mutable juego: the observers of a step look at it after
        the modifier (in the same round trip)."""
        return self.handle

    def _apply(self, op: str, *args: Any, completed: bool | None = None,
               result: Any = None) -> None:
        if op == "mover" and not values_equal(result, completed):
            self._fail("mover", _("mover(j, {action}) returned {answer}, expected {expected} "
                                  "(true iff this move completes the current level) "
                                  "{where}").format(action=arg_text(args[0]),
                                                    answer=short(result),
                                                    expected=repr(completed), where=self.where()),
                       repr(completed), repr(result), value=RESPUESTA)
