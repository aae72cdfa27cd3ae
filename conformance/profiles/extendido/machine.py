"""Profile ``extendido`` (seed 001's game over a sequence of levels, in
Python: ``nuevo_juego``, ``mover``, ``tirar_bomba``, ``deshacer`` and the
observers). After every action: ``indice_nivel``, ``persona``, ``bombas``,
``gano``, ``puede_mover`` in the four directions, and ``hay_pared`` /
``hay_caja`` / ``hay_deposito`` on every cell of the bounding box of the
level and the current state, one cell beyond (bombs clear whole rows and
columns of it), and on the 5x5 cells around the character (on an open level
it may walk far from the rest: the empty plain in between is not scanned)."""

from __future__ import annotations

import functools
from typing import Any, Sequence

from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from conformance.api import CELL_OBSERVERS, CELLS, NOT_PROVIDED, Earlier, TargetError
from conformance.machines import levels as lv
from conformance.machines.base import (
    GIVEN, LONG, PATTERNS, Machine, arg_text, cells_board, short,
)
from conformance.machines.replays import ACTION_CODES
from conformance.machines.boards import render_observation
from levels.drawing import bounds
from spec import extendido as spec_ext
from conformance.translations import N_, _

#: The long runs (``Machine.play_long_run``); one the settings do not enable is a ``repeat``.
LONG_KINDS = ("repeat", "walk_then_bomb", "undo_many")


#: Observers the seed defines from the others (compared after them).
DERIVED = ("puede_mover", "gano")

#: A cell's three observers (hay_pared, hay_caja, hay_deposito) as CELLS answers them.
_DIGITS = ("000", "001", "010", "011", "100", "101", "110", "111")

#: The per-cell observers and the board field each marks.
CELL_FIELDS = {"hay_pared": "walls", "hay_caja": "boxes", "hay_deposito": "goals"}


class ExtendidoMachine(Machine):
    PROFILE = "extendido"
    SEED = "seed 001"

    #: Observers the target's interface lacks (not compared).
    skipped: tuple[str, ...] = ()
    #: An action of a long rule's light part went by without its cells
    #: looked at (:meth:`Machine.light`): the next action that is looked at
    #: looks at every cell, not only those it can change itself.
    unseen = False
    #: The cells whose wall or box an action of the current level's history
    #: changed (undone ones too): where two of the level's states can differ.
    touched: frozenset = frozenset()

    # -- rules (besides the shared start, move and walk_solution) ----------------

    @precondition(lambda self: self.settings.throws_bombs and spec_ext.bombas(self.model) > 0)
    @rule()
    def bomb(self):
        self.act("b")

    @precondition(lambda self: self.settings.undo)
    @rule()
    def undo(self):
        self.act("z")

    @rule(kind=st.sampled_from(LONG_KINDS), pattern=st.sampled_from(PATTERNS),
          k=st.integers(2, LONG))
    def long_run(self, kind, pattern, k):
        enabled = {"repeat": True, "walk_then_bomb": self.settings.throws_bombs,
                   "undo_many": self.settings.undo}
        self.play_long_run(kind if enabled[kind] else "repeat", pattern, k)

    # -- playing -------------------------------------------------------------------

    def begin(self, scenes: Sequence[lv.Scene]) -> None:
        # A target that answers the cells' observers in one call (CELLS).
        self.at_once = self.run.target.has(CELLS)
        self.scenes = list(scenes)
        self.unseen, self.touched = False, frozenset()
        niveles = [s.nivel_extendido() for s in self.scenes]
        self.model = spec_ext.nuevo_juego(niveles)
        self.create("nuevo_juego", niveles, "nuevo_juego(<the levels>)", N_("a juego"))

    def first_look(self) -> tuple[list, Any]:
        """Every observer of the juego ``nuevo_juego`` returns (in its round trip)."""
        look = self.observation(Earlier(0))
        return look[0], lambda answers: self.compare(look, answers)

    def solution(self) -> str:
        return self.scenes[spec_ext.indice_nivel(self.model)].solution

    def can_bomb(self) -> bool:
        return spec_ext.bombas(self.model) > 0

    def history_is_empty(self) -> bool:
        return self.model.soko.anterior is None

    def describe(self, code: str) -> str:
        if code == "b":
            return "tirar_bomba"
        if code == "z":
            return "deshacer"
        return f"mover {ACTION_CODES[code].name}"

    #: A long run's actions, or a walk of the solution, go in one round trip.
    PIPELINE = True

    def plan_step(self, code: str) -> tuple[list, Any]:
        """One action: the spec's, and what to ask the target: the modifier
        and the observers of what it leaves (one round trip, or part of
        one). An action the spec does not play (no bomb left, a move
        ``puede_mover`` refuses) asks nothing."""
        j = self.model
        new = self.spec_step(j, code)
        if new is None:             # not played: no bomb left, or mover's precondition fails
            return [], (code, None)
        self.model = new
        self.codes.append(code)
        if code == "b":
            op, args, completed = "tirar_bomba", (), None
        elif code == "z":
            op, args, completed = "deshacer", (), None
        else:
            # "this move completed the level": it won it (and play advanced,
            # or it was the last level)
            op, args = "mover", (ACTION_CODES[code],)
            completed = (spec_ext.indice_nivel(new) != spec_ext.indice_nivel(j)
                         or spec_ext.gano(new))
            if spec_ext.indice_nivel(new) != spec_ext.indice_nivel(j):
                self.path = 0
        look = self.observation(self.stepped(), self.look_at(j, new, code))
        return [(op, (GIVEN,) + args)] + look[0], (code, (op, args, completed, look, j, new))

    def judge_step(self, calls: list, answers: list, state: Any) -> None:
        code, played = state
        run = self.run
        if played is None:
            if code not in "bz":
                run.count("blocked")
            return
        op, args, completed, look, j, new = played
        if code == "b":
            run.count("bombs")
        elif code == "z":
            run.count("undos")
        elif spec_ext.indice_nivel(new) != spec_ext.indice_nivel(j):
            run.count("advances")
            run.count("wins")
        else:
            if spec_ext.cajas(new) != spec_ext.cajas(j):
                run.count("pushes")
            if spec_ext.gano(new) and not spec_ext.gano(j):
                run.count("wins")
        self._apply(op, *args, completed=completed, result=answers[0])
        look, observed = self._each_cell(look, answers[1:])
        self.failed_calls(look[0], observed)
        run.count("steps")
        self.compare(look, observed)

    def look_at(self, before, after, code: str) -> frozenset | None:
        """The cells to observe after the action ``code`` took the spec's
        juego from ``before`` to ``after`` (None: every cell), in the order
        the actions are played: :meth:`step_cells`, or every cell after a
        long rule's light part; noting what it changed (:attr:`touched`)."""
        self.touched = (frozenset() if spec_ext.indice_nivel(after) != spec_ext.indice_nivel(before)
                        else self.touched | _changed(before, after))
        cells = None if self.unseen else self.step_cells(before, after, code)
        self.unseen = self.lightness
        return cells

    def step_cells(self, before, after, code: str) -> frozenset | None:
        """The cells observed after an action: after a move (a push too),
        the three it can change (``move_cells``: the box leaves the next
        cell for the one beyond); after an undo, every cell whose wall or
        box an action of the level's history changed (:attr:`touched`,
        this undo included, as :meth:`look_at` keeps it: the undo must
        bring back one of the level's states, which differ from each other
        only there) and the character's cell before and after.
        After a bomb (it may miss a wall anywhere on its row and column, or
        destroy one elsewhere), a win, a change of level (and with
        ``nearby`` off): every cell (None), as at the start and the end of
        each example (:meth:`finish`) and after a long rule's light part
        (:attr:`unseen`). A departure is so seen right after the action
        that made it, and blamed on that action's rule."""
        if (not self.nearby or code == "b"
                or spec_ext.indice_nivel(after) != spec_ext.indice_nivel(before)
                or spec_ext.gano(after) != spec_ext.gano(before)):
            return None
        if code == "z":
            return self.touched | {spec_ext.persona(before), spec_ext.persona(after)}
        return lv.move_cells(spec_ext.persona(before), ACTION_CODES[code].value)

    def finish(self) -> None:
        """The end of an example: every cell :meth:`observation` looks at."""
        if self.nearby and self.codes:
            self.compare()

    def stepped(self) -> Any:
        """What the observers of a step look at: the juego the modifier
        returns (the first call of the step's batch)."""
        return Earlier(0)

    def _apply(self, op: str, *args: Any, completed: bool | None = None,
               result: Any = None) -> None:
        """The modifier ``op`` answered ``result`` (functional: it returns
        the new juego; a modifier that returns nothing is blamed itself)."""
        self.handle = result
        shown = f"{op}(j{''.join(', ' + a.name for a in args)})"
        self.expect_value(op, shown, self.handle, N_("a juego"))

    # -- comparing -----------------------------------------------------------------

    def observation(self, handle: Any, cells: frozenset | None = None) -> tuple:
        """What to ask the target's juego ``handle`` to compare it with the
        spec's, on ``cells`` (None: every cell of the level's bounding box,
        one beyond, and the 5x5 around the character): ``(calls, expected,
        order, scalars, per_cell, window)``."""
        j = self.model
        walls, boxes, goals = spec_ext.paredes(j), spec_ext.cajas(j), spec_ext.depositos(j)
        scene = self.scenes[spec_ext.indice_nivel(j)]
        things = _scene_cells(scene) | walls | boxes | goals
        x, y = spec_ext.persona(j)
        x0, y0, x1, y1 = bounds(things | {(x, y)}, 1)
        window = (x0, y0, x1, y1)
        if self.lightness:
            grid = []
        elif cells is not None:
            grid = sorted(cells, key=lambda p: (p[1], p[0]))
        else:
            # Every cell of the level's bounding box (one beyond) and the 5x5
            # around the character (on an open level it may walk far away:
            # the empty plain in between is not scanned).
            ax0, ay0, ax1, ay1 = bounds(things, 1) if things else (x, y, x, y)
            grid = [(cx, cy) for cy in range(y0, y1 + 1) for cx in range(x0, x1 + 1)
                    if (ax0 <= cx <= ax1 and ay0 <= cy <= ay1)
                    or (abs(cx - x) <= 2 and abs(cy - y) <= 2)]
        h = (handle,)
        scalars = [("indice_nivel", h), ("persona", h), ("bombas", h), ("gano", h)]
        scalars += [("puede_mover", h + (a,)) for a in ACTION_CODES.values()]
        expected = [spec_ext.indice_nivel(j), spec_ext.persona(j), spec_ext.bombas(j),
                    spec_ext.gano(j)] + [spec_ext.puede_mover(j, a) for a in ACTION_CODES.values()]
        if self.skipped:
            kept = [i for i, (op, _) in enumerate(scalars) if op not in self.skipped]
            scalars, expected = [scalars[i] for i in kept], [expected[i] for i in kept]
        per_cell = []
        # hayPared?(s, c) = c in paredes(s), and so hayCaja? and hayDeposito?
        # (their axioms): asked of the sets above, not cell by cell.
        pared, caja, deposito = walls.__contains__, boxes.__contains__, goals.__contains__
        if grid and self.at_once and self.focus() is None:
            # In one call, compared at once (a departure among them is
            # judged and reported call by call: _each_cell).
            per_cell.append((CELLS, (handle, grid)))
            expected.append("".join([_DIGITS[pared(p) * 4 + caja(p) * 2 + deposito(p)]
                                     for p in grid]))
        else:
            for p in grid:              # (a cell's observers share their arguments)
                args = (handle, p)
                per_cell += (("hay_pared", args), ("hay_caja", args), ("hay_deposito", args))
                expected += (pared(p), caja(p), deposito(p))
        order = _order(scalars, len(per_cell))
        return scalars + per_cell, expected, order, scalars, per_cell, window

    def _each_cell(self, look: tuple, answers: list, always: bool = False) -> tuple[tuple, list]:
        """``look`` and its ``answers`` as if each cell's observers had been
        asked one call each, when it asked them at once (CELLS) and what
        came back is not what the spec says (a value differs, or a call
        failed), or ``always`` (to draw the boards of a departure): judged
        and reported as they would be then. Else as they are."""
        if not _at_once(look) or (answers[-1] == look[1][-1] and not always):
            return look, answers
        calls, expected, order, scalars, per_cell, window = look
        handle, grid = per_cell[0][1]
        n = len(scalars)
        per_cell = [(op, args) for args in [(handle, p) for p in grid] for op in CELL_OBSERVERS]
        got = answers[-1]
        if type(got) is str:
            got = [d == "1" for d in got]
        elif type(got) is not list:     # (NOT_PROVIDED, an error of the whole call...)
            got = [got] * len(per_cell)
        got = got[:len(per_cell)]       # (a failed call ends the list: the rest are not asked)
        got += [NOT_PROVIDED if got and isinstance(got[-1], TargetError) else None] * (
            len(per_cell) - len(got))
        expected = expected[:n] + [d == "1" for d in expected[n]]
        return (scalars + per_cell, expected, _order(scalars, len(per_cell)), scalars, per_cell,
                window), answers[:n] + got

    def compare(self, look: tuple | None = None, answers: list | None = None) -> None:
        """Compare the target's juego with the spec's: :meth:`observation`'s
        ``look`` and the target's ``answers`` to it (None: ask them now)."""
        if look is None:
            look = self.observation(self.handle)
            if _at_once(look):          # (never while shrinking on one observer)
                answers = self._batch(look[0])
                look, answers = self._each_cell(look, answers)
                self.failed_calls(look[0], answers, len(look[3]))
        elif answers is not None:
            look, answers = self._each_cell(look, answers)
        calls, expected, order, scalars, per_cell, window = look
        observed = (self.observe(calls, expected, order) if answers is None
                    else self.judge(calls, expected, answers, order))
        if observed is None or observed[1] is None:
            return
        answers, i = observed
        if _at_once(look):          # (a departure of another observer: drawn cell by cell)
            look, answers = self._each_cell(look, answers, always=True)
            calls, expected, order, scalars, per_cell, window = look
        (op, args), want, got = calls[i], expected[i], answers[i]
        if self.lightness:          # compare everything again, to draw the boards
            self.live()             # (the juego as it is now: this step's)
            self.lightness = False
            self.compare()
        shown = ", ".join(["j"] + [arg_text(a) for a in args[1:]])
        why = self.strict_note(got, want)
        if self.codes and self.codes[-1] == "z":
            why = _(" (deshacer must restore the state before the action it undoes)")
        self._report(f"{op}({shown})", _("{call} is {got}, expected {want} {where}").format(
            call=f"{op}({shown})", got=short(got), want=repr(want), where=self.where()) + why,
            window, per_cell, scalars, expected, answers)

    def _report(self, operation, message, window, per_cell, scalars, expected, answers):
        """Fail with both observations drawn as boards over ``window``."""
        n = len(scalars)
        at = [op for op, _ in scalars].index("persona")

        def board(values, persona):
            players = (frozenset({tuple(persona)}) if isinstance(persona, (tuple, list))
                       and len(persona) == 2 else frozenset())
            return cells_board(per_cell, values[n:], CELL_FIELDS, players=players)

        names = [op if op != "puede_mover" else f"puede_mover({arg_text(args[1])})"
                 for op, args in scalars]
        self._fail(operation, message,
                   render_observation(board(expected, expected[at]), window,
                                      zip(names, expected[:n])),
                   render_observation(board(answers, answers[at]), window,
                                      zip(names, answers[:n])))


def _at_once(look: tuple) -> bool:
    """Whether :meth:`ExtendidoMachine.observation`'s ``look`` asks its
    cells in one call (CELLS)."""
    per_cell = look[4]
    return bool(per_cell) and per_cell[0][0] == CELLS


def _order(scalars: list, cells: int) -> list[int]:
    """The order in which an observation's answers are judged: its
    ``scalars`` first, then its ``cells`` per-cell calls, then the scalars
    the seed defines from the others (puedeMover? from the cells, ganó? from
    the boxes and depots): a departure is reported where it starts, and
    blamed on its rule."""
    n = len(scalars)
    derived = [i for i, (op, _) in enumerate(scalars) if op in DERIVED]
    return [i for i in range(n) if i not in derived] + list(range(n, n + cells)) + derived


def _changed(before, after) -> frozenset:
    """The cells whose wall or box differ between the juegos ``before`` and
    ``after`` (a set the step kept as it was is not walked)."""
    out = frozenset()
    for field in (spec_ext.paredes, spec_ext.cajas):
        a, b = field(before), field(after)
        if a is not b:
            out |= a ^ b
    return out


@functools.lru_cache(maxsize=1024)
def _scene_cells(scene: lv.Scene) -> frozenset:
    """Every cell a level has something on, as it starts."""
    return scene.board().cells()
