"""The conformance engine: the spec and a target played side by side.

:func:`check` runs a Hypothesis :class:`~hypothesis.stateful.RuleBasedStateMachine`
per profile. Each example draws a level (or, for ``extendido``, a sequence of
one to three), starts the spec and the target on it, then draws actions
(moves, a walk along the level's known solution, bombs, undos); after every
action it compares *every* observer of the target with the spec's:

* ``tad``: ``estado`` (all four sets) and ``completado``;
* ``extendido``: ``indice_nivel``, ``persona``, ``bombas``, ``gano``,
  ``puede_mover`` in the four directions, and ``hay_pared`` / ``hay_caja`` /
  ``hay_deposito`` on every cell of the bounding box of the level and the
  current state, one cell beyond (bombs clear whole rows and columns of it),
  and on the 5x5 cells around the character (on an open level it may walk
  far from the rest: the empty plain in between is not scanned);
* ``soko``: ``dimensiones``, ``juego_ganado`` and ``hay_pared`` /
  ``hay_objetivo`` / ``hay_caja`` / ``hay_jugador`` on every cell; besides,
  ``mover`` must leave its argument unchanged (``__fingerprint__`` before and
  after) and a blocked move must return a grid equal to it (``__equal__``).

A disagreement (or a :class:`~conformance.api.TargetError`) raises inside the
machine; Hypothesis shrinks it to a small level and a short action list, and
the final, shrunk run is turned into a :class:`~conformance.api.Counterexample`
with a command line that replays exactly it (:func:`replay`). Errors that end
the target's process (timeout, crash, exit, memory, output flood) are
reported as they happen, without shrinking (each retry would cost a restart).
"""

from __future__ import annotations

import json
import os
import random
import shlex
import time
import traceback
from typing import Any, Sequence

from hypothesis import HealthCheck, Phase, Verbosity, seed as hypothesis_seed, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.control import current_build_context
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, precondition, rule, run_state_machine_as_test,
)

from conformance import engine_levels as lv
from conformance.api import (
    BATCH, EQUAL, FINGERPRINT, GROUPS, NOT_PROVIDED, PROFILES, REQUIRED_OPERATIONS, RESET,
    Counterexample, Target, TargetError, Verdict,
)
from conformance.report import Board, bounds, format_verdict, render_observation
from spec import extendido as spec_ext
from spec import grilla as spec_grilla
from spec import juego as spec_juego
from levels.lurd import LETTERS
from spec.tipos import ACCIONES, CAJAS, CLAVES, DEPOSITOS, PAREDES, PERSONAJE, Accion

#: Actions per example (Hypothesis' ``stateful_step_count``).
STEPS = 30
#: Kinds of TargetError that end the target's process: reported unshrunk.
FATAL_KINDS = ("timeout", "crashed", "exited", "output", "memory")
#: The one-letter action codes (replay strings): moves, bomb, undo.
ACTION_CODES = {letter: a for a, letter in sorted(LETTERS.items(), key=lambda kv: ACCIONES.index(kv[0]))}
#: Wall-clock cap on shrinking a failure (the smallest one found by then is reported).
SHRINK_SECONDS = 20.0
STAT_KEYS = ("examples", "steps", "pushes", "blocked", "wins", "bombs", "undos", "advances")


class Departure(AssertionError):
    """The target departed from the spec (carries the counterexample)."""

    def __init__(self, counterexample: Counterexample):
        super().__init__(counterexample.message)
        self.counterexample = counterexample


class _Fatal(BaseException):
    """A target error that ends its process: stops the run at once (a
    BaseException, so Hypothesis does not retry and shrink it)."""

    def __init__(self, counterexample: Counterexample):
        super().__init__(counterexample.message)
        self.counterexample = counterexample


class _StopShrinking(BaseException):
    """Shrinking has run for :data:`SHRINK_SECONDS`: keep the smallest
    failure found so far (``_Run.last``)."""


class _Run:
    """What one check shares between its examples."""

    def __init__(self, target: Target, profile: str, groups: frozenset[str],
                 directions: str = "ours"):
        self.target = target
        self.profile = profile
        self.groups = groups
        self.directions = directions
        self.stats = dict.fromkeys(STAT_KEYS, 0)
        self.frozen = False          # stop counting at the first failure (shrinking reruns)
        self.last: Counterexample | None = None
        self.last_trace: tuple[list, list[str]] | None = None   # its scenes and actions
        self.first_failure: float | None = None
        # While shrinking, only this observer (the first failure's) is
        # compared: much cheaper, and the final run compares everything.
        self.focus: str | None = None
        self.stopped = False         # _StopShrinking was raised (Hypothesis may call it Flaky)

    def count(self, key: str, n: int = 1) -> None:
        if not self.frozen:
            self.stats[key] += n


# ----------------------------------------------------------------- machines

class _Machine(RuleBasedStateMachine):
    """What every profile's machine shares: calling the target, the trace,
    failing with a counterexample. ``run`` is set on the per-check subclass."""

    run: _Run

    def __init__(self):
        super().__init__()
        self.scenes: list[lv.Scene] = []
        self.codes: list[str] = []         # the actions done, as replay letters
        self.path: int | None = None        # steps of the current level's solution walked
        run = self.run
        if (run.first_failure is not None and _shrinking()
                and time.monotonic() - run.first_failure > SHRINK_SECONDS):
            run.stopped = True
            raise _StopShrinking
        run.count("examples")
        self._call(RESET)

    # -- the target --------------------------------------------------------

    def _call(self, op: str, *args: Any) -> Any:
        try:
            return self.run.target.call(op, *args)
        except TargetError as e:
            self._target_failed(e, op, args)

    def _batch(self, calls: list[tuple[str, tuple]]) -> list[Any]:
        results = self._call(BATCH, calls)
        if not isinstance(results, list) or len(results) != len(calls):
            self._fail("__batch__", "the target's batch answer is malformed",
                       actual=repr(results)[:200])
        for (op, args), r in zip(calls, results):
            if isinstance(r, TargetError):
                self._target_failed(r, op, args)
        return results

    def _target_failed(self, e: TargetError, op: str, args: tuple) -> None:
        if op in ("iniciar", "nuevo_juego", "crear_grilla"):
            shown = "<the level>"
        else:
            first = "grilla" if self.run.profile == "soko" else "j"
            shown = ", ".join([first] + [_arg(a) for a in args[1:]]) if args else ""
        what = {
            "raised": "raised an exception", "timeout": "did not answer in time (timeout)",
            "crashed": "crashed (its process died)", "exited": "exited (called exit)",
            "output": "printed more output than allowed", "memory": "ran out of memory",
            "missing": "is missing", "unpicklable": "returned a value that cannot be read back",
        }.get(e.kind, e.kind)
        said = e.message if e.message.startswith(e.kind) else f"{what}: {e.message}"  # "raised X: ..."
        message = f"{e.op or op}({shown}) {said}"
        detail = e.detail.strip().splitlines()
        actual = (e.message if e.message.startswith(e.kind) else f"{e.kind}: {e.message}") + (
            ("\n" + "\n".join(detail[-6:])) if detail else "")
        self._fail(e.op or op, message, expected="a normal answer", actual=actual,
                   fatal=e.kind in FATAL_KINDS)

    # -- failing -------------------------------------------------------------

    def _fail(self, operation: str, message: str, expected: str = "", actual: str = "",
              fatal: bool = False) -> None:
        run = self.run
        c = Counterexample(
            profile=run.profile,
            level_text=("\n\n".join(f"; level {i + 1} of {len(self.scenes)}\n{s.xsb()}"
                                    for i, s in enumerate(self.scenes))
                        if len(self.scenes) > 1 else "\n\n".join(s.xsb() for s in self.scenes)),
            actions=[self.describe(code) for code in self.codes],
            step=len(self.codes) - 1,
            operation=operation,
            expected=expected,
            actual=actual,
            message=message,
        )
        c.replay = replay_command(run.target.name, run.profile, self.scenes, self.codes,
                                  run.directions)
        run.last = c
        run.last_trace = (list(self.scenes), list(self.codes))
        if run.focus is None:
            run.focus = operation.split("(")[0]
        run.frozen = True
        if run.first_failure is None:
            run.first_failure = time.monotonic()
        raise (_Fatal if fatal else Departure)(c)

    def focus(self) -> str | None:
        """The one observer to compare while shrinking (None: all)."""
        return self.run.focus if _shrinking() else None

    def where(self) -> str:
        if not self.codes:
            return "at the start"
        return f"after action {len(self.codes)} ({self.describe(self.codes[-1])})"

    def _compare_focused(self, calls_expected: tuple[list, list]) -> None:
        """While shrinking: compare only the focused observer's calls."""
        calls, expected = calls_expected
        if not calls:
            return
        for (op, args), want, got in zip(calls, expected, self._batch(calls)):
            if not _values_equal(got, want):
                self._fail(op, f"{op} is {_short(got)}, expected {want!r} {self.where()}",
                           repr(want), repr(got))

    # -- solution walking --------------------------------------------------------

    def solution(self) -> str:
        return ""

    def can_follow(self) -> bool:
        return self.path is not None and self.path < len(self.solution())

    def follow(self, k: int) -> None:
        """Walk up to ``k`` steps of the current level's known solution."""
        for _ in range(k):
            if not self.can_follow():
                return
            code = self.solution()[self.path].lower()
            self.path += 1
            self.act(code, following=True)

    def replay_actions(self, codes: str) -> None:
        for code in codes:
            self.act(code)

    # Profile machines define: begin(scenes), act(code, following=False),
    # describe(code), and the rules.
    def describe(self, code: str) -> str:
        raise NotImplementedError

    def act(self, code: str, following: bool = False) -> None:
        raise NotImplementedError


def _shrinking() -> bool:
    """Inside a Hypothesis run that is not the final (reported) one."""
    try:
        return not current_build_context().is_final
    except Exception:   # noqa: BLE001 - no Hypothesis context: a replay
        return False


def _focused(calls: list, expected: list, focus: str | None) -> tuple[list, list]:
    if focus is None:
        return calls, expected
    keep = [i for i, (op, _) in enumerate(calls) if op == focus]
    return [calls[i] for i in keep], [expected[i] for i in keep]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _values_equal(actual: Any, expected: Any) -> bool:
    if actual is NOT_PROVIDED:      # an observer the target lacks: not compared
        return True
    try:
        return bool(actual == expected)
    except Exception:   # noqa: BLE001 - a target value with a broken __eq__
        return False


# ------------------------------------------------------------------- tad

class _TadMachine(_Machine):

    def begin(self, scenes: Sequence[lv.Scene]) -> None:
        scene = scenes[0]
        self.scenes = [scene]
        self.spec = spec_juego.iniciar(scene.nivel())
        self.handle = self._call("iniciar", scene.nivel())
        self.path = 0
        self.compare()

    def solution(self) -> str:
        return self.scenes[0].solution

    def describe(self, code: str) -> str:
        return f"step {ACTION_CODES[code].name}"

    def act(self, code: str, following: bool = False) -> None:
        if not following:
            self.path = None
        a = ACTION_CODES[code]
        before = spec_juego.estado(self.spec)
        won = spec_juego.completado(self.spec)
        self.spec = spec_juego.step(self.spec, a)
        self.codes.append(code)
        self.handle = self._call("step", self.handle, a)
        after = spec_juego.estado(self.spec)
        run = self.run
        run.count("steps")
        if after == before:
            run.count("blocked")
        elif after[CAJAS] != before[CAJAS]:
            run.count("pushes")
        if spec_juego.completado(self.spec) and not won:
            run.count("wins")
        self.compare()

    def compare(self) -> None:
        expected = spec_juego.estado(self.spec)
        expected_done = spec_juego.completado(self.spec)
        actual, done = self._batch([("estado", (self.handle,)), ("completado", (self.handle,))])
        bad = None
        if not isinstance(actual, dict) or set(actual) != set(CLAVES):
            keys = sorted(map(repr, actual)) if isinstance(actual, dict) else type(actual).__name__
            bad = ("estado", f"estado returned {_short(actual)} (keys {keys}), "
                   f"expected a dict with the keys {', '.join(map(repr, CLAVES))}")
        else:
            for key in CLAVES:
                if not _same_set(actual[key], expected[key]):
                    bad = (f"estado[{key!r}]", f"estado(j)[{key!r}] is {_short(actual[key])}, "
                           f"expected {_short(set(expected[key]))}")
                    break
        if bad is None and not _values_equal(done, expected_done):
            bad = ("completado", f"completado is {done!r}, expected {expected_done!r}")
        if bad is not None:
            e_board = _estado_board(expected)
            a_board = _estado_board(actual) if isinstance(actual, dict) else None
            window = bounds(e_board.cells() | (a_board.cells() if a_board else frozenset()), 1)
            self._fail(bad[0], f"{bad[1]} {self.where()}",
                       render_observation(e_board, window, [("completado", expected_done)]),
                       render_observation(a_board, window, [("completado", done)])
                       if a_board else f"estado: {_short(actual)}\ncompletado: {done!r}")


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


# ------------------------------------------------------------- extendido

class _ExtendidoMachine(_Machine):

    def begin(self, scenes: Sequence[lv.Scene]) -> None:
        self.scenes = list(scenes)
        niveles = [s.nivel_extendido() for s in self.scenes]
        self.spec = spec_ext.nuevo_juego(niveles)
        self.handle = self._call("nuevo_juego", niveles)
        self.path = 0
        self.compare()

    def solution(self) -> str:
        return self.scenes[spec_ext.indice_nivel(self.spec)].solution

    def describe(self, code: str) -> str:
        if code == "b":
            return "tirar_bomba"
        if code == "z":
            return "deshacer"
        return f"mover {ACTION_CODES[code].name}"

    def act(self, code: str, following: bool = False) -> None:
        if not following:
            self.path = None
        run, j = self.run, self.spec
        if code == "b":
            if spec_ext.bombas(j) <= 0:
                return
            self.spec = spec_ext.tirar_bomba(j)
            self.codes.append(code)
            self.handle = self._call("tirar_bomba", self.handle)
            run.count("bombs")
        elif code == "z":
            self.spec = spec_ext.deshacer(j)
            self.codes.append(code)
            self.handle = self._call("deshacer", self.handle)
            run.count("undos")
        else:
            a = ACTION_CODES[code]
            if not spec_ext.puede_mover(j, a):
                run.count("blocked")      # mover's precondition fails: not called
                return
            self.spec = spec_ext.mover(j, a)
            self.codes.append(code)
            self.handle = self._call("mover", self.handle, a)
            new = self.spec
            if spec_ext.indice_nivel(new) != spec_ext.indice_nivel(j):
                run.count("advances")
                run.count("wins")
                self.path = 0
            else:
                if spec_ext.cajas(new) != spec_ext.cajas(j):
                    run.count("pushes")
                if spec_ext.gano(new) and not spec_ext.gano(j):
                    run.count("wins")
        run.count("steps")
        self.compare()

    def compare(self) -> None:
        j = self.spec
        scene = self.scenes[spec_ext.indice_nivel(j)]
        things = (scene.board().cells() | spec_ext.paredes(j) | spec_ext.cajas(j)
                  | spec_ext.depositos(j))
        x, y = spec_ext.persona(j)
        # Every cell of the level's bounding box (one beyond) and the 5x5
        # around the character (on an open level it may walk far away: the
        # empty plain in between is not scanned).
        x0, y0, x1, y1 = bounds(things | {(x, y)}, 1)
        area = bounds(things, 1) if things else (x, y, x, y)
        grid = [(cx, cy) for cy in range(y0, y1 + 1) for cx in range(x0, x1 + 1)
                if (area[0] <= cx <= area[2] and area[1] <= cy <= area[3])
                or (abs(cx - x) <= 2 and abs(cy - y) <= 2)]
        window = (x0, y0, x1, y1)
        h = (self.handle,)
        scalars = [("indice_nivel", h), ("persona", h), ("bombas", h), ("gano", h)]
        scalars += [("puede_mover", h + (a,)) for a in ACTION_CODES.values()]
        per_cell = [(op, h + (p,)) for p in grid for op in ("hay_pared", "hay_caja", "hay_deposito")]
        expected = [spec_ext.indice_nivel(j), spec_ext.persona(j), spec_ext.bombas(j),
                    spec_ext.gano(j)] + [spec_ext.puede_mover(j, a) for a in ACTION_CODES.values()]
        spec_ops = {"hay_pared": spec_ext.hay_pared, "hay_caja": spec_ext.hay_caja,
                    "hay_deposito": spec_ext.hay_deposito}
        expected += [spec_ops[op](j, args[1]) for op, args in per_cell]
        focus = self.focus()
        if focus is not None:
            self._compare_focused(_focused(scalars + per_cell, expected, focus))
            return
        answers = self._batch(scalars + per_cell)
        for (op, args), want, got in zip(scalars + per_cell, expected, answers):
            if not _values_equal(got, want):
                shown = ", ".join(["j"] + [_arg(a) for a in args[1:]])
                why = ""
                if self.codes and self.codes[-1] == "z":
                    why = " (deshacer must restore the state before the action it undoes)"
                self._report(f"{op}({shown})", f"{op}({shown}) is {_short(got)}, expected "
                             f"{want!r} {self.where()}{why}", window, grid, scalars, expected,
                             answers)

    def _report(self, operation, message, window, grid, scalars, expected, answers):
        """Fail with both observations drawn as boards over ``window``."""
        n = len(scalars)

        def board(values, persona):
            found = {"hay_pared": set(), "hay_caja": set(), "hay_deposito": set()}
            for i, p in enumerate(grid):
                for k, op in enumerate(("hay_pared", "hay_caja", "hay_deposito")):
                    if values[n + 3 * i + k] is True:
                        found[op].add(p)
            players = frozenset({persona}) if isinstance(persona, tuple) else frozenset()
            return Board(frozenset(found["hay_pared"]), frozenset(found["hay_caja"]),
                         frozenset(found["hay_deposito"]), players)

        names = [op if op != "puede_mover" else f"puede_mover({_arg(args[1])})"
                 for op, args in scalars]
        self._fail(operation, message,
                   render_observation(board(expected, expected[1]), window,
                                      zip(names, expected[:n])),
                   render_observation(board(answers, answers[1]), window,
                                      zip(names, answers[:n])))


def _arg(a: Any) -> str:
    return a.name if isinstance(a, Accion) else repr(a)


# ------------------------------------------------------------------ soko

class _SokoMachine(_Machine):
    immutability = True

    def begin(self, scenes: Sequence[lv.Scene]) -> None:
        scene = scenes[0]
        self.scenes = [scene]
        self.spec = spec_grilla.crear_grilla(list(scene.desc))
        self.handle = self._call("crear_grilla", list(scene.desc))
        self.path = 0
        self.compare()

    def solution(self) -> str:
        return self.scenes[0].solution

    def describe(self, code: str) -> str:
        return f"mover {lv.STEP[code]}"

    def act(self, code: str, following: bool = False) -> None:
        if not following:
            self.path = None
        d = lv.STEP[code]
        old = self.spec
        self.spec = spec_grilla.mover(old, d)
        blocked = self.spec == old
        self.codes.append(code)
        run = self.run
        run.count("steps")
        if blocked:
            run.count("blocked")
        elif self.spec.cajas != old.cajas:
            run.count("pushes")
        if spec_grilla.juego_ganado(self.spec) and not spec_grilla.juego_ganado(old):
            run.count("wins")
        given = self.handle
        if self.immutability:
            before = self._call(FINGERPRINT, given)
        self.handle = self._call("mover", given, d)
        if self.immutability:
            if self._call(FINGERPRINT, given) != before:
                self.compare(old, given, changed=(
                    f"mover(grilla, {d}) changed the grid it was given {self.where()} "
                    "(it must return a new grid and leave its argument alone)"))
                self._fail("mover", f"mover(grilla, {d}) changed the grid it was given "
                           f"{self.where()} (it must return a new grid and leave its argument "
                           "alone)", "the argument unchanged", "the argument was modified "
                           "(its observers did not show it)")
        self.compare()
        if self.immutability and blocked:
            if self._call(EQUAL, given, self.handle) is not True:
                self._fail("mover", f"mover(grilla, {d}) is blocked {self.where()}, but the grid "
                           "it returned is not equal (==) to the one it was given",
                           "a grid equal to the argument", "a different grid")

    def compare(self, g=None, handle=None, changed: str = "") -> None:
        """Compare every observer of the target's grid ``handle`` (default:
        the current one) with the spec's ``g``. ``changed``: the grid is the
        argument of the last mover, which must still look like ``g``."""
        if g is None:
            g, handle = self.spec, self.handle
        cols, rows = spec_grilla.dimensiones(g)
        grid = [(c, f) for f in range(rows) for c in range(cols)]
        ops = ("hay_pared", "hay_objetivo", "hay_caja", "hay_jugador")
        h = (handle,)
        scalars = [("dimensiones", h), ("juego_ganado", h)]
        per_cell = [(op, h + p) for p in grid for op in ops]
        spec_ops = {"hay_pared": spec_grilla.hay_pared, "hay_objetivo": spec_grilla.hay_objetivo,
                    "hay_caja": spec_grilla.hay_caja, "hay_jugador": spec_grilla.hay_jugador}
        expected = [(cols, rows), spec_grilla.juego_ganado(g)]
        expected += [spec_ops[op](g, *args[1:]) for op, args in per_cell]
        focus = self.focus()
        if focus is not None:
            self._compare_focused(_focused(scalars + per_cell, expected, focus))
            return
        answers = self._batch(scalars + per_cell)
        order = [0] + list(range(2, len(expected))) + [1]     # dimensiones, cells, juego_ganado
        for i in order:
            (op, args), want, got = (scalars + per_cell)[i], expected[i], answers[i]
            if not _values_equal(got, want):
                shown = ", ".join(["grilla"] + [repr(a) for a in args[1:]])
                n = len(scalars)

                def board(values):
                    found = {op_: set() for op_ in ops}
                    for k, (op_, args_) in enumerate(per_cell):
                        if values[n + k] is True:
                            found[op_].add(args_[1:])
                    return Board(*(frozenset(found[o]) for o in
                                   ("hay_pared", "hay_caja", "hay_objetivo", "hay_jugador")))

                window = (0, 0, cols - 1, rows - 1)
                names = ["dimensiones", "juego_ganado"]
                message = f"{op}({shown}) is {_short(got)}, expected {want!r}"
                message = (f"{changed}: on the argument, {message}" if changed
                           else f"{message} {self.where()}")
                self._fail(f"{op}({shown})" if not changed else "mover", message,
                           render_observation(board(expected), window, zip(names, expected[:n])),
                           render_observation(board(answers), window, zip(names, answers[:n])))


# ------------------------------------------------------- building a machine

_MACHINES = {"tad": _TadMachine, "extendido": _ExtendidoMachine, "soko": _SokoMachine}


def _options(profile: str, groups: Sequence[str] | None) -> dict:
    """What the chosen operation groups enable (see docs/conformance.md)."""
    chosen = frozenset(GROUPS[profile] if groups is None else groups)
    unknown = chosen - set(GROUPS[profile])
    if unknown or not chosen:
        raise ValueError(f"unknown operation group(s) {sorted(unknown)} for profile {profile}; "
                         f"known: {', '.join(GROUPS[profile])}")
    boxes_needed = chosen - {"movement"}
    return {
        "groups": chosen,
        "min_boxes": 1 if "movement" not in chosen else 0,
        "max_boxes": 3 if boxes_needed else 0,
        "follow": bool(chosen & {"win", "levels", "undo", "bombs"}),
        "undo": "undo" in chosen,
        "bomb": bool(chosen & {"bombs", "undo"}),
        "bombs": (1, 3) if chosen & {"bombs", "undo"} else (0, 0),
        "levels": ((2 if chosen == {"levels"} else 1), 3) if "levels" in chosen else (1, 1),
        "immutability": "immutability" in chosen,
    }


def _scene_lists(profile: str, options: dict):
    one = lv.scenes(profile, min_boxes=options["min_boxes"], max_boxes=options["max_boxes"],
                    bombs=options["bombs"])
    lo, hi = options["levels"]
    return st.lists(one, min_size=lo, max_size=hi)


def machine_class(run: _Run, options: dict) -> type:
    """A fresh RuleBasedStateMachine subclass for one check (its rules are
    the enabled groups' actions)."""
    base = _MACHINES[run.profile]
    namespace: dict[str, Any] = {"run": run}
    if run.profile == "soko":
        namespace["immutability"] = options["immutability"]

    def start(self, scenes, lead):
        self.begin(scenes)
        self.follow(lead)       # walk part of the solution first: reach wins often
    lead = st.integers(0, 80) if options["follow"] else st.just(0)
    namespace["start"] = initialize(scenes=_scene_lists(run.profile, options), lead=lead)(start)

    def move(self, code):
        self.act(code)
    namespace["move"] = rule(code=st.sampled_from("udlr"))(move)

    if options["follow"]:
        def walk_solution(self, k):
            self.follow(k)
        namespace["walk_solution"] = precondition(lambda self: self.can_follow())(
            rule(k=st.integers(1, 60))(walk_solution))
    if options["bomb"] and run.profile == "extendido":
        def bomb(self):
            self.act("b")
        namespace["bomb"] = precondition(lambda self: spec_ext.bombas(self.spec) > 0)(rule()(bomb))
    if options["undo"] and run.profile == "extendido":
        def undo(self):
            self.act("z")
        namespace["undo"] = rule()(undo)
    return type(f"{run.profile.capitalize()}Conformance", (base,), namespace)


# ------------------------------------------------------------------ replay

def replay_data(profile: str, scenes: Sequence[lv.Scene], codes: Sequence[str]) -> dict:
    return {"profile": profile, "levels": [s.to_data() for s in scenes],
            "actions": "".join(codes)}


def replay_string(profile: str, scenes: Sequence[lv.Scene], codes: Sequence[str]) -> str:
    """The ``--replay`` argument: compact JSON (see :func:`parse_replay`)."""
    return json.dumps(replay_data(profile, scenes, codes), separators=(",", ":"),
                      ensure_ascii=False)


def replay_command(target_name: str, profile: str, scenes, codes, directions: str = "ours") -> str:
    parts = ["python", "-m", "conformance", target_name, "--profile", profile]
    if directions != "ours":
        parts += ["--directions", directions]
    parts += ["--replay", replay_string(profile, scenes, codes)]
    return " ".join(shlex.quote(p) for p in parts)


def parse_replay(text: str) -> tuple[str | None, list[lv.Scene], str]:
    """``(profile or None, scenes, action codes)`` from a replay string (or
    the text of a file holding one). Raises ValueError with a clear message.

    The format is JSON: ``{"profile": P, "levels": [{"rows": [...],
    "origin": [x, y], "bombs": n, "soko": true}], "actions": "udlrbz"}``;
    in ``rows``, ``-`` is floor (so trailing spaces survive); ``actions``
    letters are the moves ``u d l r``, ``b`` tirar_bomba and ``z`` deshacer.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"the replay is not valid JSON: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("levels"), list) or not data["levels"]:
        raise ValueError("the replay must be a JSON object with a non-empty 'levels' list")
    try:
        scenes = [lv.from_data(d) for d in data["levels"]]
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"a level of the replay is malformed: {e}") from None
    actions = data.get("actions", "")
    if not isinstance(actions, str) or set(actions) - set("udlrbz"):
        raise ValueError("the replay's actions must be a string of the letters u d l r b z")
    profile = data.get("profile")
    if profile is not None and profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r} in the replay")
    return profile, scenes, actions


def replay(target: Target, profile: str, text: str, *, directions: str = "ours") -> Verdict:
    """Play exactly one recorded counterexample (no search, no shrinking)
    and compare as :func:`check` does. ``conforms`` is False iff it still
    departs (the verdict then carries the counterexample again)."""
    start = time.monotonic()
    problem = _precheck(target, profile)
    if problem is not None:
        return problem
    try:
        recorded, scenes, codes = parse_replay(text)
    except ValueError as e:
        return Verdict(target.name, profile, False, error=f"bad replay: {e}")
    if recorded is not None and recorded != profile:
        return Verdict(target.name, profile, False,
                       error=f"bad replay: it was recorded for profile {recorded}, not {profile}")
    run = _Run(target, profile, frozenset(GROUPS[profile]), directions)
    cls = machine_class(run, _options(profile, None))
    try:
        machine = cls()
        machine.begin(scenes if profile == "extendido" else scenes[:1])
        machine.replay_actions(codes)
    except (Departure, _Fatal) as e:
        return _verdict(run, False, e.counterexample, None, start)
    except Exception as e:  # noqa: BLE001 - a level the spec refuses, an engine bug
        return Verdict(target.name, profile, False, error=f"replay failed: {type(e).__name__}: {e}")
    return _verdict(run, True, None, None, start)


# ------------------------------------------------------------------- check

def _precheck(target: Target, profile: str) -> Verdict | None:
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; known: {', '.join(PROFILES)}")
    missing = [op for op in REQUIRED_OPERATIONS[profile] if not target.has(op)]
    if missing:
        return Verdict(target.name, profile, False, missing=missing,
                       error=f"{target.name} lacks operations of profile {profile}: "
                             + ", ".join(missing))
    return None


def _verdict(run: _Run, conforms: bool, c: Counterexample | None, seed, start: float) -> Verdict:
    v = Verdict(target=run.target.name, profile=run.profile, conforms=conforms,
                counterexample=c, stats=dict(run.stats), seed=seed,
                seconds=time.monotonic() - start)
    if c is not None:
        c.report = format_verdict(v)
    return v


def _replayed(run: _Run) -> Counterexample:
    """The last failure's trace played again with every observer compared
    (the shrinking runs compare only one): the counterexample to report."""
    scenes, codes = run.last_trace
    last, run.focus = run.last, None
    machine = machine_class(run, _options(run.profile, None))()
    try:
        machine.begin(scenes)
        machine.replay_actions("".join(codes))
    except (Departure, _Fatal) as e:
        return e.counterexample
    except Exception:   # noqa: BLE001 - keep what was recorded
        pass
    return last


def check(target: Target, profile: str, *, max_examples: int = 100, seed: int | None = None,
          directions: str = "ours", groups: Sequence[str] | None = None,
          shrink: bool = True) -> Verdict:
    """Check ``target`` against the spec under ``profile``.

    ``seed`` makes the run reproducible (None: a fresh random seed, reported
    in the verdict); ``groups`` restricts the actions drawn (see
    :data:`conformance.api.GROUPS`). Never raises for a misbehaving target:
    every problem becomes a non-conforming verdict. ``shrink=False`` reports
    the first failure found as it is (faster; for quick checks and tests).
    """
    start = time.monotonic()
    problem = _precheck(target, profile)
    if problem is not None:
        return problem
    options = _options(profile, groups)
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):     # no .hypothesis/ in the user's cwd
        set_hypothesis_home_dir(os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser(
            os.path.join("~", ".cache")), "sokoban-tad", "hypothesis"))
    run = _Run(target, profile, options["groups"], directions)
    cls = hypothesis_seed(seed)(machine_class(run, options))
    config = settings(
        max_examples=max_examples, stateful_step_count=STEPS, deadline=None, database=None,
        derandomize=False, suppress_health_check=list(HealthCheck),
        phases=(Phase.generate, Phase.shrink) if shrink else (Phase.generate,), report_multiple_bugs=False,
        verbosity=Verbosity.quiet, print_blob=False,
    )
    try:
        run_state_machine_as_test(cls, settings=config)
    except (Departure, _Fatal) as e:
        return _verdict(run, False, e.counterexample, seed, start)
    except _StopShrinking:
        return _verdict(run, False, _replayed(run), seed, start)
    except Exception as e:  # noqa: BLE001 - Flaky and friends: report the last departure
        if run.last is not None:
            c = _replayed(run)
            if not run.stopped:
                c.message += (" (the failure was not reproducible every time: "
                              f"{type(e).__name__})")
            return _verdict(run, False, c, seed, start)
        v = _verdict(run, False, None, seed, start)
        v.error = ("internal error in the conformance engine: "
                   + "".join(traceback.format_exception_only(type(e), e)).strip())
        return v
    return _verdict(run, True, None, seed, start)
