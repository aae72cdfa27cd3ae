"""The spec beside a student's own code, call by call: a live monitor.

:func:`monitored` returns a student's ``soko.py`` (seed 002's API) wrapped so
that every call of theirs is also computed by the spec (:mod:`spec.grilla`)
and compared with what their code returned, *at that call*. At the first
call that departs it raises :class:`DepartureError`, in the style of
icontract's ``ViolationError`` (it is one): where the call was made, the
function and its arguments, the rule of the seed it breaks in the seed's
words (:mod:`spec.rules`, via :mod:`conformance.blame`), what the spec
expected and what the student's code returned.

The comparison is the conformance engine's own: each call is played by the
profile's machine (:class:`conformance.machines.soko.SokoMachine`), exactly
as ``sokoban check`` plays its generated games. ``crear_grilla`` and
``mover`` compare every observer on every cell of the grid they return (and
``mover`` must leave its argument unchanged, and return an equal grid when
the move is not allowed); an observer called by the student is compared
with the spec's answer for the same cell.

A call that breaks one of the seed's *preconditions* is the caller's fault,
not the implementation's: a ragged ``desc`` (E24), a character that is not
one of ``#$@.*+`` or space, not exactly one player, a player not enclosed by
walls, a direction that is not one of the four, a cell outside the grid.
The monitor says so with a :class:`CallersFault` warning and lets the call
through to the student's code unchecked (and every later call on the grid it
returns, which the spec has no reference for).

The student's code runs **in this process**, with no sandbox: this is for a
student's own code on their own machine (``sokoban monitor``, the API
below). To judge code you do not trust, use ``sokoban check``, which runs it
in the sandbox. See ``docs/monitor.md``.
"""

from __future__ import annotations

import functools
import os
import sys
import types
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

import icontract

from conformance import engine_levels as lv
from conformance.api import (
    BATCH, EQUAL, FINGERPRINT, NOT_PROVIDED, REQUIRED_OPERATIONS, SPECIAL_OPERATIONS,
    Counterexample, TargetError,
)
from conformance.child import fingerprint, format_exception
from conformance.machines import machine
from conformance.machines.base import CheckSettings, Departure, Fatal, Run, short
from conformance.report import Board, draw, format_comparison, rule_lines
from conformance.targets import BadTarget, describe_load_error, load, resolve
from spec import PreconditionError
from spec import grilla as spec_grilla

#: The profiles the monitor knows.
PROFILES = ("soko",)
#: Direction (seed 002's tuple) -> replay letter.
LETTERS = {step: letter for letter, step in lv.STEP.items()}
#: The observers of a cell, with the spec's answer.
CELL_OBSERVERS: dict[str, Callable] = {
    "hay_pared": spec_grilla.hay_pared, "hay_objetivo": spec_grilla.hay_objetivo,
    "hay_caja": spec_grilla.hay_caja, "hay_jugador": spec_grilla.hay_jugador,
}
#: The observers of the whole grid.
GRID_OBSERVERS: dict[str, Callable] = {
    "dimensiones": spec_grilla.dimensiones, "juego_ganado": spec_grilla.juego_ganado,
}
#: How many grids the monitor remembers (the most recently used): a call on
#: a grid it has forgotten goes through unchecked.
MEMORY = 4096
#: Seed 002's own words for its grid's shape (the precondition of E24).
RECTANGULAR = "una grilla rectangular de F filas y C columnas"


class DepartureError(icontract.ViolationError):
    """The student's code departed from the spec at this call.

    ``counterexample``: the engine's :class:`~conformance.api.Counterexample`
    (its ``rule``, ``expected``, ``actual``, ``replay``); ``call``: the call
    as the message shows it (``mover(grilla, (1, 0))``)."""

    def __init__(self, message: str, counterexample: Counterexample, call: str):
        super().__init__(message)
        self.counterexample = counterexample
        self.call = call

    @property
    def rule(self) -> str | None:
        """The id of the seed's rule broken (``soko.push-blocked``)."""
        return self.counterexample.rule


class CallersFault(UserWarning):
    """A call that breaks a precondition of the seed: the caller's fault, not
    the implementation's. The call went to the student's code unchecked."""


class _Direct:
    """A :class:`~conformance.api.Target` over a module in this process whose
    values go back and forth as they are: the student's grids are the very
    objects their test holds (the sandbox's targets copy them instead)."""

    def __init__(self, module: Any, name: str, profile: str):
        self.module = module
        self.name = name
        self.operations = frozenset(op for op in REQUIRED_OPERATIONS[profile]
                                    if callable(getattr(module, op, None)))
        #: The last exception the module raised (the cause of a departure).
        self.raised: BaseException | None = None

    def has(self, op: str) -> bool:
        return op in self.operations or op in SPECIAL_OPERATIONS

    def call(self, op: str, *args: Any) -> Any:
        if op == BATCH:
            answers = []
            for sub_op, sub_args in args[0]:
                try:
                    answers.append(self.call(sub_op, *sub_args))
                except TargetError as e:
                    answers.append(e)
            return answers
        if op in SPECIAL_OPERATIONS and op not in (FINGERPRINT, EQUAL):
            return None                 # RESET, OPAQUE: nothing is kept here
        if op not in SPECIAL_OPERATIONS and op not in self.operations:
            return NOT_PROVIDED
        try:
            if op == FINGERPRINT:
                return fingerprint(args[0])
            if op == EQUAL:
                return bool(args[0] == args[1])
            return getattr(self.module, op)(*args)
        except Exception as e:          # noqa: BLE001 - the student's code raised: a departure
            self.raised = e
            raise TargetError("raised", f"raised {type(e).__name__}: {e}",
                              format_exception(e), op) from e

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class _Known:
    """What the spec knows of one of the student's grids: its model, the
    level it started from and the moves since (for the rule and the replay)."""

    model: spec_grilla.Grilla
    scene: lv.Scene
    codes: tuple[str, ...]


class Monitor:
    """The spec beside one student module: each call of :meth:`call` goes to
    the student's code through the profile's machine, compared as
    ``sokoban check`` compares. ``stats``: calls ``checked``, calls that went
    through ``unchecked`` (a grid the monitor does not know), the
    ``callers_faults`` and the ``departures``."""

    def __init__(self, module: Any, name: str, profile: str = "soko", every_cell: bool = True):
        if profile not in PROFILES:
            raise ValueError(f"the monitor knows profile {' '.join(PROFILES)} only, "
                             f"not {profile!r}")
        self.module = module
        self.name = name
        self.profile = profile
        self.target = _Direct(module, name, profile)
        self.run = Run(self.target, profile, CheckSettings.for_groups(profile))
        self.machine = machine(profile).bind(self.run)()
        #: After ``mover``, compare every cell of the grid (True), or only
        #: the cells the move can change (False: the fast mode; an observer
        #: the caller asks is still checked, wherever its cell).
        self.every_cell = every_cell
        self._grids: OrderedDict[int, tuple[Any, _Known]] = OrderedDict()
        self.stats = dict.fromkeys(("checked", "unchecked", "callers_faults", "departures"), 0)
        #: The rules broken so far, one per departure, in order.
        self.broken: list[str | None] = []

    @property
    def loose(self) -> list[str]:
        """Answers of the right meaning but not the seed's type (``1`` for
        ``True``, ``[w, h]`` for ``(w, h)``), one line per observer and type:
        accepted, as ``sokoban check`` accepts them."""
        return list(self.run.warnings.values())

    # -- what the spec knows of the student's grids ---------------------------

    def _known(self, grid: Any) -> _Known | None:
        entry = self._grids.get(id(grid))
        if entry is None or entry[0] is not grid:
            return None
        self._grids.move_to_end(id(grid))
        return entry[1]

    def _remember(self, grid: Any, known: _Known) -> None:
        self._grids[id(grid)] = (grid, known)
        self._grids.move_to_end(id(grid))
        while len(self._grids) > MEMORY:
            self._grids.popitem(last=False)

    def _at(self, known: _Known | None, grid: Any = None):
        """The machine, set on ``known`` (the spec's side) and ``grid`` (the
        student's)."""
        m, run = self.machine, self.run
        self.target.raised = None
        run.frozen, run.last, run.focus = False, None, None
        m.ended = False
        m.path = None
        if known is not None:
            m.scenes, m.codes = [known.scene], list(known.codes)
            m.model, m.handle = known.model, grid
        return m

    # -- calls -------------------------------------------------------------------

    def call(self, op: str, *args: Any) -> Any:
        """``op(*args)`` on the student's module, checked by the spec."""
        __tracebackhide__ = True    # pytest shows the student's frames, not ours
        if op == "crear_grilla":
            return self._crear_grilla(*args)
        if op == "mover":
            return self._mover(*args)
        return self._observe(op, *args)

    def _through(self, op: str, args: tuple) -> Any:
        self.stats["unchecked"] += 1
        return getattr(self.module, op)(*args)

    def _callers_fault(self, call: str, why: str, op: str, args: tuple) -> Any:
        self.stats["callers_faults"] += 1
        after = (" (and so does every call on the grid it returns)"
                 if op in ("crear_grilla", "mover") else "")
        warnings.warn(f"{call}: the caller breaks a precondition of seed 002: {why}. This is "
                      f"the caller's fault, not {_file(self.name)}'s: the call goes to "
                      f"{_file(self.name)} unchecked{after}", CallersFault,
                      stacklevel=_outside())
        return self._through(op, args)

    def _crear_grilla(self, *args: Any) -> Any:
        if len(args) != 1:
            return self._through("crear_grilla", args)
        desc = args[0]
        why = desc_fault(desc)
        if why is not None:
            return self._callers_fault("crear_grilla(desc)", why, "crear_grilla", args)
        scene = lv.from_rows(list(desc), soko=True, source="crear_grilla")
        m = self._at(None)
        try:
            m.begin([scene])
        except (Departure, Fatal) as e:
            raise self._departure(e, "crear_grilla(desc)", [("desc", _shown_desc(desc))])
        self.stats["checked"] += 1
        self._remember(m.handle, _Known(m.model, scene, ()))
        return m.handle

    def _mover(self, *args: Any) -> Any:
        known = self._known(args[0]) if len(args) == 2 else None
        if known is None:
            return self._through("mover", args)
        grid, direccion = args
        try:
            code = LETTERS.get(tuple(direccion))
        except TypeError:
            code = None
        if code is None:
            return self._callers_fault(
                f"mover(grilla, {direccion!r})",
                f"direccion must be one of {', '.join(map(str, lv.STEP.values()))}",
                "mover", args)
        m = self._at(known, grid)
        if not self.every_cell:
            (c, f), (dc, df) = known.model.jugador, lv.STEP[code]
            m.cells = frozenset({(c, f), (c + dc, f + df), (c + 2 * dc, f + 2 * df)})
        try:
            m.act(code)
        except (Departure, Fatal) as e:
            raise self._departure(self._in_full(e, m, known, grid, code),
                                  f"mover(grilla, {direccion!r})",
                                  [("grilla", _drawn(known.model)), ("direccion", [repr(direccion)])])
        finally:
            m.cells = None
        self.stats["checked"] += 1
        self._remember(m.handle, _Known(m.model, known.scene, known.codes + (code,)))
        return m.handle

    def _observe(self, op: str, *args: Any) -> Any:
        spec_op = CELL_OBSERVERS.get(op) or GRID_OBSERVERS.get(op)
        known = self._known(args[0]) if args and spec_op is not None else None
        if known is None or len(args) != (3 if op in CELL_OBSERVERS else 1):
            return self._through(op, args)
        model, cell = known.model, args[1:]
        shown = f"{op}({', '.join(['grilla'] + [repr(a) for a in cell])})"
        if cell:
            cols, rows = spec_grilla.dimensiones(model)
            if not (all(type(a) is int for a in cell)
                    and 0 <= cell[0] < cols and 0 <= cell[1] < rows):
                return self._callers_fault(
                    shown, f"(c, f) must be a cell of the grid: 0 <= c < {cols}, "
                    f"0 <= f < {rows}", op, args)
        if op == "juego_ganado" and not model.objetivos:
            # A grid with no goal is won only vacuously: not judged (erratum E27).
            return self._through(op, args)
        want = spec_op(model, *cell)
        m = self._at(known, args[0])
        try:
            got = m._call(op, *args)
            if not m.agrees(op, got, want):
                m._fail(shown, f"{shown} is {short(got)}, expected {want!r}{m.strict_note(got, want)}"
                        f" {m.where()}", repr(want), repr(got))
        except (Departure, Fatal) as e:
            raise self._departure(e, shown, [("grilla", _drawn(model))])
        self.stats["checked"] += 1
        return got

    # -- reports -----------------------------------------------------------------

    def _in_full(self, e: Departure | Fatal, m, known: _Known, grid: Any,
                 code: str) -> Departure | Fatal:
        """A departure found on the cells near a move (the fast mode), with
        every cell compared again for the report (the boards whole); the
        student's ``mover`` is not called again."""
        if m.cells is None or isinstance(e, Fatal):
            return e
        m.cells = None
        c = e.counterexample
        try:
            if c.operation == "mover" and "changed the grid it was given" in c.message:
                m.compare(known.model, grid, changed=m.changed(lv.STEP[code]))
            elif c.operation.split("(")[0] in CELL_OBSERVERS or \
                    c.operation.split("(")[0] in GRID_OBSERVERS:
                m.compare()
        except (Departure, Fatal) as full:
            return full
        return e

    def _departure(self, e: Departure | Fatal, call: str,
                   arguments: list[tuple[str, list[str]]]) -> DepartureError:
        self.stats["departures"] += 1
        c = e.counterexample
        self.broken.append(c.rule)
        error = DepartureError(departure_message(c, call, arguments, self.name), c, call)
        error.__cause__ = self.target.raised
        error.__suppress_context__ = True
        return error


def departure_message(c: Counterexample, call: str, arguments: list[tuple[str, list[str]]],
                      name: str) -> str:
    """The message of a :class:`DepartureError`, in icontract's style: where,
    the call, the rule broken (the seed's words), the arguments, expected
    and returned, the replay."""
    out = []
    where = _caller()
    if where:
        out.append(where)
    out.append(f"{call} departs from the spec ({c.message})")
    out += [f"Rule broken: {line}" if i == 0 else f"  {line}"
            for i, line in enumerate(rule_lines(c.profile, c.rule))]
    for label, lines in arguments:
        if len(lines) == 1:
            out.append(f"{label} was {lines[0]}")
        else:
            out.append(f"{label} was:")
            out += ["  " + line for line in lines]
    out.append(f"What the spec expected, and what {_file(name)} returned:")
    out += ["  " + line for line in format_comparison(c.expected, c.actual)]
    if c.replay:
        out += ["Replay it (as sokoban check plays it) with:", "  " + c.replay]
    return "\n".join(out)


def desc_fault(desc: Any) -> str | None:
    """Which precondition of seed 002 ``crear_grilla(desc)`` breaks (None:
    none): the characters, one player, the player enclosed (the spec's own
    preconditions), and the grid rectangular (E24: the spec accepts ragged
    rows as an extension; the seed does not)."""
    try:
        spec_grilla.crear_grilla(desc)
    except PreconditionError as e:
        return str(e).removeprefix("crear_grilla: ")
    lengths = [len(row) for row in desc]
    if len(set(lengths)) > 1:
        return (f"\u201c{RECTANGULAR}\u201d (every row of desc the same length, erratum E24): "
                f"the rows' lengths are {', '.join(map(str, lengths))}")
    return None


def _drawn(model: spec_grilla.Grilla) -> list[str]:
    """A grid as the spec sees it, framed (spaces at the edges show)."""
    cols, rows = spec_grilla.dimensiones(model)
    board = Board(model.paredes, model.cajas, model.objetivos, frozenset({model.jugador}))
    return [f"|{row}|" for row in draw(board, (0, 0, cols - 1, rows - 1))]


def _shown_desc(desc: Any) -> list[str]:
    return [repr(list(desc))] if sum(len(r) for r in desc) <= 60 else (
        ["["] + [f"  {row!r}," for row in desc] + ["]"])


def _file(name: str) -> str:
    return os.path.basename(name) if name.endswith(".py") else name


_HERE = os.path.dirname(os.path.abspath(__file__))


def _ours(filename: str) -> bool:
    return os.path.abspath(filename).startswith(_HERE + os.sep)


def _outside() -> int:
    """The ``stacklevel`` of the first frame outside this package (the
    student's call), for warnings."""
    frame, level = sys._getframe(1), 1
    while frame is not None and _ours(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    return level


def _caller() -> str:
    """``File soko_test.py, line 12 in test_push:`` (icontract's first line):
    the first frame outside this package."""
    frame = sys._getframe(1)
    while frame is not None and _ours(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return ""
    return f"File {frame.f_code.co_filename}, line {frame.f_lineno} in {frame.f_code.co_name}:"


# ------------------------------------------------------------ the module


def load_module(module_or_path: Any) -> tuple[Any, str]:
    """The student's module and its name (its file): a module object, or a
    path to a ``.py`` file (or a folder holding ``soko.py``), imported here.
    Raises :class:`~conformance.targets.BadTarget` (one paragraph: what
    went wrong, with the student's file and line)."""
    if isinstance(module_or_path, types.ModuleType):
        return module_or_path, getattr(module_or_path, "__file__", None) or module_or_path.__name__
    spec = resolve(os.fspath(module_or_path))
    if spec is None or spec.kind not in ("file", "package", "module"):
        raise BadTarget(f"{module_or_path}: the monitor runs a Python module (a soko.py) in "
                        "this process; for other targets use sokoban check or sokoban play")
    try:
        return load(spec), spec.path or spec.name
    except BadTarget:
        raise
    except BaseException as e:  # noqa: BLE001 - the student's import failed
        raise BadTarget(describe_load_error(spec, e)) from None


def monitored(module_or_path: Any, profile: str = "soko", *,
              every_cell: bool = True) -> types.ModuleType:
    """The student's module (or the ``.py`` file at ``module_or_path``)
    wrapped so that every call of the profile's operations is also computed
    by the spec; at the first call that departs, :class:`DepartureError`.
    Everything else of the module passes through as it is. Runs the
    student's code in this process (no sandbox). ``wrapped.__monitor__`` is
    the :class:`Monitor` (its ``stats``).

    ``every_cell=False`` (fast): after ``mover``, compare only the cells the
    move can change (the player's, the next one, the one after), and the
    argument on those cells instead of by its fingerprint; a monitored call
    then costs about the same whatever the grid's size. A wrong change
    elsewhere is caught at the first observer call that reads it."""
    if profile not in PROFILES:
        raise ValueError(f"the monitor knows profile {' '.join(PROFILES)} only, not {profile!r}")
    module, name = load_module(module_or_path)
    monitor = Monitor(module, name, profile, every_cell)
    wrapped = types.ModuleType("soko", getattr(module, "__doc__", None))
    wrapped.__dict__.update({k: v for k, v in vars(module).items()
                             if k not in ("__name__", "__spec__", "__loader__", "__doc__")})
    for op in sorted(monitor.target.operations):
        setattr(wrapped, op, _checked(monitor, op, getattr(module, op)))
    wrapped.__monitor__ = monitor
    return wrapped


def _checked(monitor: Monitor, op: str, function: Callable) -> Callable:
    @functools.wraps(function)
    def checked(*args, **kwargs):
        __tracebackhide__ = True
        if kwargs:      # the seed's API takes positional arguments only
            monitor.stats["unchecked"] += 1
            return function(*args, **kwargs)
        return monitor.call(op, *args)
    return checked
