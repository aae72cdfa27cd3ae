"""Profile ``soko`` (seed 002's ``soko.py``: a grid as the student's own
value, ``crear_grilla``, ``mover`` and the observers). After every move:
``dimensiones``, ``juego_ganado`` and ``hay_pared`` / ``hay_objetivo`` /
``hay_caja`` / ``hay_jugador`` on the cells it can change (:meth:`SokoMachine.step_cells`;
every cell at the start, after a win and at the end); besides, ``mover`` must leave
its argument unchanged (``__fingerprint__`` before and after) and a blocked
move must return a grid equal to it (``__equal__``). Soko's grids are
enclosed: no far walks (no long runs)."""

from __future__ import annotations

from typing import Any, Sequence

from conformance.machines import levels as lv
from conformance.api import EQUAL, FINGERPRINT, Earlier
from conformance.machines.base import COURSE_ACCEPTS, GIVEN, Machine, cells_board, short
from conformance.machines.boards import render_observation
from spec import grilla as spec_grilla
from spec.rules import GRILLA
from conformance.translations import N_, _


#: The per-cell observers and the board field each marks.
CELL_FIELDS = {"hay_pared": "walls", "hay_caja": "boxes", "hay_objetivo": "goals",
               "hay_jugador": "players"}
CELL_OPS = ("hay_pared", "hay_objetivo", "hay_caja", "hay_jugador")
SPEC_OPS = {"hay_pared": spec_grilla.hay_pared, "hay_objetivo": spec_grilla.hay_objetivo,
            "hay_caja": spec_grilla.hay_caja, "hay_jugador": spec_grilla.hay_jugador}
#: The spec's cell observers, in CELL_OPS's order.
CELL_SPEC_FUNCTIONS = tuple(SPEC_OPS[op] for op in CELL_OPS)


class SokoMachine(Machine):
    PROFILE = "soko"
    SEED = "seed 002"
    HANDLE_NAME = "grilla"
    ACCEPTED_BECAUSE = COURSE_ACCEPTS
    RETURNS = {"mover": GRILLA}

    #: The cells :meth:`compare` reads: None, every cell of the grid (a
    #: check); a set of cells, only those (the live monitor's fast mode,
    #: :mod:`conformance.live.monitor`: the cells a move can change). With a set,
    #: ``mover``'s argument is compared on those cells instead of by its
    #: fingerprint.
    cells: frozenset | None = None

    # Rules: the shared start, move and walk_solution.

    def begin(self, scenes: Sequence[lv.Scene]) -> None:
        scene = scenes[0]
        self.begin_level(scene, spec_grilla.crear_grilla(list(scene.desc)), "crear_grilla",
                         list(scene.desc), N_("a grid"))

    def first_look(self) -> tuple[list, Any]:
        """The observers of the grid ``crear_grilla`` returns (in its round trip)."""
        look = self.observation(self.model, Earlier(0), self.cells)
        return look[0], lambda answers: self.judge_observation(self.model, look, answers)

    def describe(self, code: str) -> str:
        return f"mover {lv.STEP[code]}"

    #: A walk of the solution goes in one round trip (and, in a check, the
    #: moves of an example: :meth:`Machine.pipelined`).
    PIPELINE = True

    @property
    def STEP_RESULT(self) -> int:     # noqa: N802 - the base's class constant, per check here
        """The call of a planned step that returns the next grid: ``mover``,
        after the argument's fingerprint when there is one (:meth:`plan_step`)."""
        return int(self.settings.immutability and self.cells is None)

    def plan_step(self, code: str) -> tuple[list, Any]:
        """One ``mover``: the spec's, and what to ask the target in its round
        trip (or part of one): the argument's fingerprint before and after,
        ``mover``, ``==`` for a blocked move, and the observers of the grid
        it returned (:meth:`step_cells`)."""
        d = lv.STEP[code]
        old = self.model
        self.model = self.spec_step(old, code)
        self.codes.append(code)
        won_before = spec_grilla.juego_ganado(old)
        won = spec_grilla.juego_ganado(self.model)
        immutability = self.settings.immutability
        whole = self.cells is None
        fingerprints = immutability and whole
        calls: list = [(FINGERPRINT, (GIVEN,))] if fingerprints else []
        m = len(calls)
        calls.append(("mover", (GIVEN, d)))
        if fingerprints:
            calls.append((FINGERPRINT, (GIVEN,)))
        cells = self.cells if not whole else self.step_cells(old, d, full=won != won_before)
        look = self.observation(self.model, Earlier(m), cells)
        observed = len(calls)
        calls += look[0]
        blocked = self.model == old
        equal = None
        if immutability and blocked:
            equal = len(calls)
            calls.append((EQUAL, (GIVEN, Earlier(m))))
        return calls, (d, old, blocked, won and not won_before, m, observed, look, equal)

    def judge_step(self, calls: list, answers: list, state: Any) -> None:
        d, old, blocked, wins, m, observed, look, equal = state
        run = self.run
        run.count("steps")
        if blocked:
            run.count("blocked")
        elif self.model.cajas != old.cajas:
            run.count("pushes")
        if wins:
            run.count("wins")
        given = self.handle
        self.failed_calls(calls, answers, 0, m + 1)
        self.handle = answers[m]
        self.expect_value("mover", f"mover(grilla, {d})", self.handle, N_("a grid"))
        self.failed_calls(calls, answers, m + 1, observed)
        if self.settings.immutability:
            if self.cells is not None:
                self.live()         # (the argument as this move left it)
                self.compare(old, given, changed=self.changed(d))
            elif answers[m + 1] != answers[0]:
                self.live()
                self.compare(old, given, changed=self.changed(d))
                self._fail("mover", self.changed(d), _("the argument unchanged"),
                           _("the argument was modified (its observers did not show it)"),
                           value=GRILLA)
        self.failed_calls(calls, answers, observed)
        self.judge_observation(self.model, look, answers[observed:observed + len(look[0])])
        if equal is not None and not answers[equal]:
            self._fail("mover", _("{call} is blocked {where}, but the grid it returned is "
                                  "not equal (==) to the one it was given").format(
                                      call=f"mover(grilla, {d})", where=self.where()),
                       _("a grid equal to the argument"), _("a different grid"), value=GRILLA)

    def step_cells(self, old, d, full: bool) -> frozenset | None:
        """The cells observed after a move: every cell (None) when it changed
        whether the game is won (and at the start and the end of each
        example: :meth:`finish`); else the cells it can change, a push's
        too (:func:`~conformance.machines.levels.move_cells`)."""
        return None if full or not self.nearby else lv.move_cells(old.jugador, d)

    def finish(self) -> None:
        """The end of an example: every cell of the last grid."""
        if self.cells is None and self.nearby and self.codes:
            self.compare()

    def changed(self, d) -> str:
        """What a ``mover`` that changed its argument did, in a report."""
        return _("{call} changed the grid it was given {where} (it must return a new grid "
                 "and leave its argument alone)").format(call=f"mover(grilla, {d})",
                                                         where=self.where())

    def compare(self, g=None, handle=None, changed: str = "") -> None:
        """Compare every observer of the target's grid ``handle`` (default:
        the current one) with the spec's ``g``, on every cell, or on
        :attr:`cells`. ``changed``: the grid is the argument of the last
        mover, which must still look like ``g``."""
        if g is None:
            g, handle = self.model, self.handle
        look = self.observation(g, handle, self.cells)
        self.judge_observation(g, look, None, changed)

    def observation(self, g, handle, cells: frozenset | None) -> tuple:
        """What to ask the target's grid ``handle`` (an :class:`Earlier` in a
        step) to compare it with the spec's ``g`` on ``cells`` (None: every
        cell): ``(calls, expected, order, per_cell, judge_win)``."""
        cols, rows = spec_grilla.dimensiones(g)
        grid = ([(c, f) for f in range(rows) for c in range(cols)] if cells is None
                else sorted((c, f) for c, f in cells if 0 <= c < cols and 0 <= f < rows))
        h = (handle,)
        scalars = [("dimensiones", h), ("juego_ganado", h)]
        expected = [(cols, rows), spec_grilla.juego_ganado(g)]
        # (a cell's observers share their arguments)
        per_cell = [(op, args) for args in [h + p for p in grid] for op in CELL_OPS]
        expected += [spec_op(g, c, f) for c, f in grid for spec_op in CELL_SPEC_FUNCTIONS]
        # A grid with no goal is won only vacuously (seed 002's letter); no
        # course test has one, so juego_ganado is not judged there (E27),
        # but in a robustness run, whose findings only warn.
        judge_win = bool(g.objetivos) or self.settings.robustness
        order = [0] + list(range(2, len(expected))) + [1] * judge_win   # dimensiones, cells, juego_ganado
        return scalars + per_cell, expected, order, per_cell, judge_win

    def judge_observation(self, g, look: tuple, answers: list | None,
                          changed: str = "") -> None:
        """Fail when the target's ``answers`` to :meth:`observation`'s
        ``look`` (None: ask them now) depart from the spec's grid ``g``."""
        calls, expected, order, per_cell, judge_win = look
        if self.focus() == "juego_ganado" and not judge_win:
            return
        observed = (self.observe(calls, expected, order) if answers is None
                    else self.judge(calls, expected, answers, order))
        if observed is None or observed[1] is None:
            return
        answers, i = observed
        (op, args), want, got = calls[i], expected[i], answers[i]
        shown = ", ".join(["grilla"] + [repr(a) for a in args[1:]])
        n = 2
        cols, rows = expected[0]

        def board(values):
            return cells_board(per_cell, values[n:], CELL_FIELDS, cell=lambda args_: args_[1:])

        window = (0, 0, cols - 1, rows - 1)
        names = ["dimensiones", "juego_ganado"]
        message = _("{call} is {got}, expected {want}").format(
            call=f"{op}({shown})", got=short(got), want=repr(want)) + self.strict_note(got, want)
        if op == "juego_ganado" and not g.objetivos:
            message += _(" (a grid without a goal: won by seed 002's letter, erratum E27)")
        message = (_("{changed}: on the argument, {message}").format(changed=changed,
                                                                     message=message)
                   if changed else f"{message} {self.where()}")
        self._fail(f"{op}({shown})" if not changed else "mover", message,
                   render_observation(board(expected), window, zip(names, expected[:n])),
                   render_observation(board(answers), window, zip(names, answers[:n])),
                   value=GRILLA if changed else None)
