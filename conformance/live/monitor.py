"""The spec beside a student's own code, call by call: a live monitor.

:func:`monitored` returns a student's ``soko.py`` (seed 002's API) wrapped so
that every call of theirs is also computed by the spec (:mod:`spec.grilla`)
and compared with what their code returned. A call that departs raises
:class:`DepartureError`, in the style of icontract's ``ViolationError`` (it
is one): where the call was made, the function and its arguments, the rule
of the seed it breaks in the seed's words (:mod:`spec.rules`, via
:mod:`conformance.machines.blame`), what the spec expected and what the student's
code returned.

By default (the fast mode) a call costs a small constant over the bare call
whatever the grid's size: ``crear_grilla`` compares nothing yet, ``mover``
the cells the move can change (and ``==`` for a refused move), an observer
its own answer. When something disagrees, the chain of calls that made the
grid is played again by the profile's machine
(:class:`conformance.profiles.soko.machine.SokoMachine`, exactly as ``sokoban
check`` plays its games) with every cell compared, and the error names the
first call that departs. With ``every_cell=True`` each ``crear_grilla`` and
``mover`` is played by that machine at the call, every observer on every
cell compared (and ``mover``'s argument by its fingerprint). See
:class:`Monitor`.

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
from itertools import chain, repeat
from typing import Any, Callable

import icontract

from conformance import profiles
from conformance.machines import levels as lv
from conformance.api import (
    BATCH, EQUAL, FINGERPRINT, NOT_PROVIDED, SPECIAL_OPERATIONS,
    Counterexample, Earlier, TargetError,
)
from conformance.sandbox.child import fingerprint, format_exception
from conformance.machines.base import CheckSettings, Departure, Fatal, Run, short
from conformance.machines.boards import Board, draw
from conformance.reports.report import format_comparison, rule_lines
from conformance.checking.targets import BadTarget, describe_load_error, load, resolve
from conformance.translations import _
from spec import PreconditionError
from spec import grilla as spec_grilla

def monitorable() -> list[str]:
    """The profiles the monitor knows: those of seed 002's grids (it follows
    the student's grids call by call)."""
    return [p.name for p in profiles.python() if p.grid]


def _known(profile: str) -> None:
    known = monitorable()
    if profile not in known:
        raise ValueError(_("the monitor knows profile {known} only, not {profile}").format(
            known=" ".join(known), profile=repr(profile)))
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
#: How many descs the monitor keeps the spec's grid of (the most recent).
DESCS = 256
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
        self.operations = frozenset(op for op in profiles.get(profile).operations
                                    if callable(getattr(module, op, None)))
        #: The last exception the module raised (the cause of a departure).
        self.raised: BaseException | None = None
        #: ``(op, answer)``: the answer the student's code already gave to
        #: the next call of ``op`` (a value, or what it raised), given again
        #: instead of calling it twice.
        self.canned: tuple[str, Any] | None = None

    def has(self, op: str) -> bool:
        return op in self.operations or op in SPECIAL_OPERATIONS

    def call(self, op: str, *args: Any) -> Any:
        if op == BATCH:
            answers = []
            for sub_op, sub_args in args[0]:
                if any(type(a) is Earlier for a in sub_args):     # an earlier call's answer itself
                    taken = [answers[a.index] if type(a) is Earlier else a for a in sub_args]
                    if any(isinstance(t, TargetError) for t, a in zip(taken, sub_args)
                           if type(a) is Earlier):
                        answers.append(TargetError("skipped", "its earlier call failed", op=sub_op))
                        continue
                    sub_args = tuple(taken)
                try:
                    if sub_op in self.operations and self.canned is None:
                        answers.append(getattr(self.module, sub_op)(*sub_args))
                    else:
                        answers.append(self.call(sub_op, *sub_args))
                except TargetError as e:
                    answers.append(e)
                except Exception as e:      # noqa: BLE001 - the student's code raised: a departure
                    answers.append(self._raised(e, sub_op))
            return answers
        if op in SPECIAL_OPERATIONS and op not in (FINGERPRINT, EQUAL):
            return None                 # RESET, OPAQUE: nothing is kept here
        if op not in SPECIAL_OPERATIONS and op not in self.operations:
            return NOT_PROVIDED
        if self.canned is not None and self.canned[0] == op:
            answer, self.canned = self.canned[1], None
            if isinstance(answer, _Raised):
                raise self._raised(answer.error, op)
            return answer
        try:
            if op == FINGERPRINT:
                return fingerprint(args[0])
            if op == EQUAL:
                return bool(args[0] == args[1])
            return getattr(self.module, op)(*args)
        except Exception as e:          # noqa: BLE001 - the student's code raised: a departure
            raise self._raised(e, op) from e

    def _raised(self, e: BaseException, op: str) -> TargetError:
        self.raised = e
        error = TargetError("raised", f"raised {type(e).__name__}: {e}", format_exception(e), op)
        error.__cause__ = e
        return error

    def close(self) -> None:
        pass


class _Node:
    """What the spec knows of one of the student's grids: the spec's grid
    (``model``), and the call that returned it, for the rule, the replay and
    the report: ``crear_grilla(desc)`` (no ``parent``), or ``mover(grilla,
    direccion)`` on the grid of ``parent`` (``code``: the move's replay
    letter); ``site``: where the caller made the call (file, line,
    function). Each grid keeps the chain of calls that made it."""

    __slots__ = ("model", "parent", "code", "direccion", "desc", "site", "_scene")

    def __init__(self, model: spec_grilla.Grilla, parent: _Node | None, code: str,
                 direccion: Any, desc: tuple | None, site: tuple | None):
        self.model, self.parent, self.code = model, parent, code
        self.direccion, self.desc, self.site = direccion, desc, site
        self._scene: lv.Scene | None = None

    def chain(self) -> list[_Node]:
        """The calls that made this grid, in order (``crear_grilla`` first)."""
        nodes, node = [], self
        while node is not None:
            nodes.append(node)
            node = node.parent
        nodes.reverse()
        return nodes

    def codes(self) -> list[str]:
        """The moves since the level, as replay letters."""
        return [node.code for node in self.chain()[1:]]

    def scene(self) -> lv.Scene:
        """The level the chain started from (made once, when first asked)."""
        root = self.chain()[0]
        if root._scene is None:
            root._scene = lv.from_rows(list(root.desc), soko=True, source="crear_grilla")
        return root._scene

    def call(self) -> str:
        """The call as a report shows it."""
        return "crear_grilla(desc)" if self.parent is None else f"mover(grilla, {self.direccion!r})"

    def arguments(self) -> list[tuple[str, list[str]]]:
        """The call's arguments as a report shows them."""
        if self.parent is None:
            return [("desc", _shown_desc(self.desc))]
        return [("grilla", _drawn(self.parent.model)), ("direccion", [repr(self.direccion)])]


class _Raised:
    """What a call of the student's code raised (an answer kept for the report)."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException):
        self.error = error


#: What the seed's ``crear_grilla`` and ``mover`` never return (a grid is due).
SCALARS = (bool, int, float)


class Monitor:
    """The spec beside one student module. :meth:`call` (and the wrapped
    module's functions, :attr:`checking`) calls the student's code and
    compares it with the spec. ``stats``: calls ``checked``, calls that went
    through ``unchecked`` (a grid the monitor does not know), the
    ``callers_faults`` and the ``departures``.

    Two modes (``every_cell``):

    * fast (False, the default): ``crear_grilla`` is compared when its grid
      is read; ``mover`` compares the cells the move can change, on the grid
      it returns and on its argument, and a refused move must return an
      equal grid; an observer compares its answer. A call costs a small
      constant over the bare call, whatever the grid's size. When a call
      disagrees, the chain of calls that made the grid is played again by
      the profile's machine with every cell compared, and the error names
      the first call that departs, as the every-cell mode would have.
    * every cell (True): each ``crear_grilla`` and ``mover`` is played by the
      profile's machine at once, every observer on every cell compared
      (and ``mover``'s argument by its fingerprint): the departing call
      itself stops. Its cost grows with the grid.
    """

    def __init__(self, module: Any, name: str, profile: str = "soko", every_cell: bool = False):
        _known(profile)
        self.module = module
        self.name = name
        self.profile = profile
        self.target = _Direct(module, name, profile)
        definition = profiles.get(profile)
        self.run = Run(self.target, definition, CheckSettings.for_groups(definition))
        self.machine = definition.machine.bind(self.run)()
        self.machine.nearby = False         # every cell after each move (or the fast mode's cells)
        self.every_cell = every_cell
        self._grids: OrderedDict[int, tuple[Any, _Node]] = OrderedDict()
        #: The spec's grid (or the precondition broken) per desc already seen.
        self._parsed: dict[tuple, tuple[spec_grilla.Grilla | None, str | None]] = {}
        self.stats = dict.fromkeys(("checked", "unchecked", "callers_faults", "departures"), 0)
        #: The rules broken so far, one per departure, in order.
        self.broken: list[str | None] = []
        #: Per operation of the student's module, the function that calls it checked.
        self.checking: dict[str, Callable] = {
            op: self._checking(op, getattr(module, op)) for op in sorted(self.target.operations)}

    @property
    def loose(self) -> list[str]:
        """Answers of the right meaning but not the seed's type (``1`` for
        ``True``, ``[w, h]`` for ``(w, h)``), one line per observer and type:
        accepted, as ``sokoban check`` accepts them."""
        return list(self.run.warnings.values())

    def call(self, op: str, *args: Any) -> Any:
        """``op(*args)`` on the student's module, checked by the spec."""
        __tracebackhide__ = True    # pytest shows the student's frames, not ours
        if op not in self.checking:
            return self._through(op, args)
        return self.checking[op](*args)

    # -- what the spec knows of the student's grids ---------------------------

    def _known(self, grid: Any) -> _Node | None:
        entry = self._grids.get(id(grid))
        if entry is None or entry[0] is not grid:
            return None
        self._grids.move_to_end(id(grid))
        return entry[1]

    def _remember(self, grid: Any, node: _Node) -> None:
        grids, key = self._grids, id(grid)
        if key in grids:
            grids.move_to_end(key)
        grids[key] = (grid, node)
        if len(grids) > MEMORY:
            grids.popitem(last=False)

    def _spec_grid(self, desc: Any) -> tuple[spec_grilla.Grilla | None, str | None, tuple | None]:
        """:func:`spec_grid` of ``desc``, kept per desc (the spec is a
        function of it), and ``desc`` as a tuple (None when it is not a list
        or tuple of rows)."""
        key = None
        if type(desc) is list or type(desc) is tuple:
            key = tuple(desc)
            try:
                found = self._parsed.get(key)
            except TypeError:       # an unhashable row: not a desc the spec takes
                key = found = None
            if found is not None:
                return found[0], found[1], key
        found = spec_grid(desc)
        if key is not None:
            if len(self._parsed) >= DESCS:
                del self._parsed[next(iter(self._parsed))]      # the oldest
            self._parsed[key] = found
        return found[0], found[1], key

    # -- the checked functions ---------------------------------------------------

    def _checking(self, op: str, function: Callable) -> Callable:
        """``function`` (the student's ``op``), called checked. (A call with
        keyword arguments goes through unchecked: the seed's API takes
        positional ones only.)"""
        if op in ("crear_grilla", "mover"):
            checking = getattr(self, f"_{op}")(function)
        else:
            checking = self._observer(op, function)
        return functools.wraps(function)(checking)

    def _crear_grilla(self, function: Callable) -> Callable:
        stats, op = self.stats, "crear_grilla"

        def crear_grilla(*args, **kwargs):
            __tracebackhide__ = True
            if kwargs or len(args) != 1:
                return self._through(op, args, kwargs)
            desc = args[0]
            model, why, key = self._spec_grid(desc)
            if model is None:
                return self._callers_fault("crear_grilla(desc)", why, op, args)
            node = _Node(model, None, "", None, key, _site())
            if self.every_cell:
                grid = self._judged_crear(node)
            else:
                try:
                    grid = function(desc)
                except Exception as e:      # noqa: BLE001 - the student's code raised: a departure
                    grid = self._departed(node, op, args, _Raised(e))
                else:
                    if grid is None or type(grid) in SCALARS:
                        grid = self._departed(node, op, args, grid)
            stats["checked"] += 1
            self._remember(grid, node)
            return grid
        return crear_grilla

    def _mover(self, function: Callable) -> Callable:
        stats, grids, agrees, op = self.stats, self._grids, self.machine.agrees, "mover"
        near = [(name, getattr(self.module, name), spec_op)
                for name, spec_op in CELL_OBSERVERS.items() if name in self.target.operations]
        #: On the grid returned, the observers of what a move changes (a
        #: wall a move broke shows as the player in it, or when it is read).
        moving = [(name, student, spec_op) for name, student, spec_op in near
                  if name != "hay_pared"]

        def agree_near(node: _Node, given: Any, moved: Any) -> bool:
            """The cells the move can change agree on the grid returned (but
            for their walls); the cells it changes are still as they were on
            the argument; a refused move returned an equal grid."""
            old, new = node.parent.model, node.model
            (c, f), (dc, df) = old.jugador, lv.STEP[node.code]
            cells = [(c + k * dc, f + k * df) for k in range(3)
                     if 0 <= c + k * dc < old.columnas and 0 <= f + k * df < old.filas]
            refused = new.jugador == old.jugador
            changed = () if refused else cells if cells[1] in old.cajas else cells[:2]
            try:
                for name, student, spec_op in moving:
                    for cc, ff in cells:
                        got, want = student(moved, cc, ff), spec_op(new, cc, ff)
                        if got is not want and not agrees(name, got, want):
                            return False
                for name, student, spec_op in near:
                    for cc, ff in changed:
                        got, want = student(given, cc, ff), spec_op(old, cc, ff)
                        if got is not want and not agrees(name, got, want):
                            return False
                return not refused or bool(given == moved)
            except Exception:       # noqa: BLE001 - the student's code raised: played again below
                return False

        def mover(*args, **kwargs):
            __tracebackhide__ = True
            if kwargs or len(args) != 2:
                return self._through(op, args, kwargs)
            grid, direccion = args
            entry = grids.get(id(grid))
            if entry is None or entry[0] is not grid:
                return self._through(op, args)
            try:
                code = LETTERS.get(tuple(direccion))
            except TypeError:
                code = None
            if code is None:
                return self._callers_fault(
                    f"mover(grilla, {direccion!r})",
                    _("direccion must be one of {directions}").format(
                        directions=", ".join(map(str, lv.STEP.values()))),
                    op, args)
            grids.move_to_end(id(grid))
            parent = entry[1]
            node = _Node(spec_grilla.mover(parent.model, lv.STEP[code]), parent, code, direccion,
                         None, _site())
            if self.every_cell:
                moved = self._judged_mover(node, grid)
            else:
                try:
                    moved = function(grid, direccion)
                except Exception as e:      # noqa: BLE001 - the student's code raised: a departure
                    moved = self._departed(node, op, args, _Raised(e))
                else:
                    if moved is None or type(moved) in SCALARS or not agree_near(node, grid, moved):
                        moved = self._departed(node, op, args, moved)
            stats["checked"] += 1
            self._remember(moved, node)
            return moved
        return mover

    def _observer(self, op: str, function: Callable) -> Callable:
        stats, grids, agrees = self.stats, self._grids, self.machine.agrees
        of_cell = op in CELL_OBSERVERS          # hay_*(grilla, c, f); else op(grilla)
        spec_op, arity = (CELL_OBSERVERS[op], 3) if of_cell else (GRID_OBSERVERS[op], 1)

        def observer(*args, **kwargs):
            __tracebackhide__ = True
            if kwargs or len(args) != arity:
                return self._through(op, args, kwargs)
            grid = args[0]
            entry = grids.get(id(grid))
            if entry is None or entry[0] is not grid:
                return self._through(op, args)
            node = entry[1]
            model = node.model
            if of_cell:
                c, f = args[1], args[2]
                if not (type(c) is int and type(f) is int
                        and 0 <= c < model.columnas and 0 <= f < model.filas):
                    return self._callers_fault(
                        f"{op}(grilla, {c!r}, {f!r})", f"(c, f) must be a cell of the grid: "
                        f"0 <= c < {model.columnas}, 0 <= f < {model.filas}", op, args)
            elif op == "juego_ganado" and not model.objetivos:
                # A grid with no goal is won only vacuously: not judged (erratum E27).
                return self._through(op, args)
            grids.move_to_end(id(grid))
            try:
                got = function(*args)
            except Exception as e:          # noqa: BLE001 - the student's code raised: a departure
                return self._departed(node, op, args, _Raised(e))
            want = spec_op(model, c, f) if of_cell else spec_op(model)
            if got is not want and not (type(got) is type(want) and got == want) \
                    and not agrees(op, got, want):
                return self._departed(node, op, args, got)
            stats["checked"] += 1
            return got
        return observer

    def _through(self, op: str, args: tuple, kwargs: dict | None = None) -> Any:
        self.stats["unchecked"] += 1
        return getattr(self.module, op)(*args, **(kwargs or {}))

    def _callers_fault(self, call: str, why: str, op: str, args: tuple) -> Any:
        self.stats["callers_faults"] += 1
        after = (_(" (and so does every call on the grid it returns)")
                 if op in ("crear_grilla", "mover") else "")
        warnings.warn(_("{call}: the caller breaks a precondition of seed 002: {why}. This is "
                        "the caller's fault, not {file}'s: the call goes to {file} "
                        "unchecked{after}").format(call=call, why=why, file=_file(self.name),
                                                   after=after), CallersFault,
                      stacklevel=_outside())
        return self._through(op, args)

    # -- judged by the profile's machine -----------------------------------------

    def _at(self, node: _Node | None, grid: Any = None):
        """The machine, set on ``node`` (the spec's side) and ``grid`` (the
        student's); on nothing yet for None."""
        m, run = self.machine, self.run
        self.target.raised = None
        run.frozen, run.last, run.focus = False, None, None
        m.ended = False
        m.path = None
        m.cells = None
        if node is None:
            m.scenes, m.codes = [], []
        else:
            m.scenes, m.codes = [node.scene()], node.codes()
            m.model, m.handle = node.model, grid
        return m

    def _departed(self, node: _Node, op: str, args: tuple, answer: Any) -> Any:
        """The student's answer to ``op(*args)`` (``answer``: a value, or
        :class:`_Raised`) disagreed with the spec; ``node``: the grid it
        returned (``crear_grilla``, ``mover``) or read (an observer). Raises
        the :class:`DepartureError` of the call that departed.

        In the fast mode, the chain of calls that made the grid is played
        again first (the student's code called again, every cell compared):
        the first call that departs is the one the every-cell mode would
        have stopped at. If none does (the student's code answers otherwise
        the second time), or in the every-cell mode, the call is judged where
        it stands, on the answer it gave; it returns that answer when the
        machine finds it agrees after all."""
        __tracebackhide__ = True
        if not self.every_cell:
            error = self._replayed(node, op, args)
            if error is not None:
                raise error
        self.target.canned = (op, answer)
        try:
            if op == "crear_grilla":
                return self._judged_crear(node)
            if op == "mover":
                return self._judged_mover(node, args[0])
            return self._judged_observer(node, op, args)
        finally:
            self.target.canned = None

    def _replayed(self, node: _Node, op: str, args: tuple) -> DepartureError | None:
        """The chain of calls that made ``node``'s grid, played again by the
        profile's machine with every cell compared: the error of the first
        call that departs (None: none does). If none does and ``op`` read the
        grid (an observer), the grid was right when it was made and has
        changed since: the moves made on it (the latest first) are played
        again the same way, for a ``mover`` that changed its argument."""
        error = self._replay(node, op, args)
        if error is None and op not in ("crear_grilla", "mover"):
            for _key, later in reversed(list(self._grids.values())):
                if later.parent is node:
                    error = self._replay(later, op, args)
                    if error is not None:
                        break
        return error

    def _replay(self, node: _Node, op: str, args: tuple) -> DepartureError | None:
        """:meth:`_replayed`, on the chain of ``node`` only."""
        chain = node.chain()
        m = self._at(None)
        culprit = chain[0]
        try:
            m.begin([culprit.scene()])
            for culprit in chain[1:]:
                m.act(culprit.code)
        except (Departure, Fatal) as e:
            seen = None
            if culprit is not node or op not in ("crear_grilla", "mover"):
                shown = ", ".join(["grilla"] + [repr(a) for a in args[1:]])
                here = f"{op}(desc)" if op == "crear_grilla" else f"{op}({shown})"
                seen = _("Seen at {where} {call} (the fast mode compares a grid where it is "
                         "read; the every-cell mode, at the call)").format(
                             where=_where(_site()), call=here)
            return self._departure(e, culprit.call(), culprit.arguments(), _where(culprit.site),
                                   seen)
        return None

    def _judged_crear(self, node: _Node) -> Any:
        """``crear_grilla`` played by the machine, every cell compared: the
        student's grid."""
        __tracebackhide__ = True
        m = self._at(None)
        try:
            m.begin([node.scene()])
        except (Departure, Fatal) as e:
            raise self._departure(e, node.call(), node.arguments(), _where(node.site))
        return m.handle

    def _judged_mover(self, node: _Node, grid: Any) -> Any:
        """``mover`` played by the machine from ``grid`` (every cell compared,
        or in the fast mode the cells the move can change): the student's
        grid."""
        __tracebackhide__ = True
        parent = node.parent
        m = self._at(parent, grid)
        if not self.every_cell:
            m.cells = lv.move_cells(parent.model.jugador, lv.STEP[node.code])
        try:
            m.act(node.code)
        except (Departure, Fatal) as e:
            raise self._departure(self._in_full(e, m, parent, grid, node.code), node.call(),
                                  node.arguments(), _where(node.site))
        finally:
            m.cells = None
        return m.handle

    def _judged_observer(self, node: _Node, op: str, args: tuple) -> Any:
        """An observer's answer judged against the spec's for its cell."""
        __tracebackhide__ = True
        model, cell = node.model, args[1:]
        shown = f"{op}({', '.join(['grilla'] + [repr(a) for a in cell])})"
        want = (CELL_OBSERVERS.get(op) or GRID_OBSERVERS[op])(model, *cell)
        m = self._at(node, args[0])
        try:
            got = m._call(op, *args)
            if not m.agrees(op, got, want):
                m._fail(shown, f"{shown} is {short(got)}, expected {want!r}{m.strict_note(got, want)}"
                        f" {m.where()}", repr(want), repr(got))
        except (Departure, Fatal) as e:
            raise self._departure(e, shown, [("grilla", _drawn(model))], _where(_site()))
        self.stats["checked"] += 1
        return got

    # -- reports -----------------------------------------------------------------

    def _in_full(self, e: Departure | Fatal, m, parent: _Node, grid: Any,
                 code: str) -> Departure | Fatal:
        """A departure found on the cells near a move (the fast mode), with
        every cell compared again for the report (the boards whole); the
        student's ``mover`` is not called again."""
        if m.cells is None or isinstance(e, Fatal):
            return e
        m.cells = None
        c = e.counterexample
        try:
            changed = _("{call} changed the grid it was given {where} (it must return a new "
                        "grid and leave its argument alone)")
            marker = changed.partition("{call}")[2].partition("{where}")[0]     # any language
            if c.operation == "mover" and marker in c.message:
                m.compare(parent.model, grid, changed=m.changed(lv.STEP[code]))
            elif c.operation.split("(")[0] in CELL_OBSERVERS or \
                    c.operation.split("(")[0] in GRID_OBSERVERS:
                m.compare()
        except (Departure, Fatal) as full:
            return full
        return e

    def _departure(self, e: Departure | Fatal, call: str, arguments: list[tuple[str, list[str]]],
                   where: str, seen: str | None = None) -> DepartureError:
        self.stats["departures"] += 1
        c = e.counterexample
        self.broken.append(c.rule)
        message = departure_message(c, call, arguments, self.name, where)
        if seen:
            message += "\n" + seen
        error = DepartureError(message, c, call)
        error.__cause__ = self.target.raised
        error.__suppress_context__ = True
        return error


def departure_message(c: Counterexample, call: str, arguments: list[tuple[str, list[str]]],
                      name: str, where: str | None = None) -> str:
    """The message of a :class:`DepartureError`, in icontract's style: where
    (default: the caller of the monitored function now), the call, the rule
    broken (the seed's words), the arguments, expected and returned, the
    replay."""
    out = []
    if where is None:
        where = _where(_site())
    if where:
        out.append(where)
    out.append(_("{call} departs from the spec ({message})").format(call=call,
                                                                     message=c.message))
    out += [_("Rule broken: {rule}").format(rule=line) if i == 0 else f"  {line}"
            for i, line in enumerate(rule_lines(c.profile, c.rule))]
    for label, lines in arguments:
        if len(lines) == 1:
            out.append(_("{label} was {value}").format(label=label, value=lines[0]))
        else:
            out.append(_("{label} was:").format(label=label))
            out += ["  " + line for line in lines]
    out.append(_("What the spec expected, and what {file} returned:").format(file=_file(name)))
    out += ["  " + line for line in format_comparison(c.expected, c.actual)]
    if c.replay:
        out += [_("Replay it (as sokoban check plays it) with:"), "  " + c.replay]
    return "\n".join(out)


def desc_fault(desc: Any) -> str | None:
    """Which precondition of seed 002 ``crear_grilla(desc)`` breaks (None:
    none): the characters, one player, the player enclosed (the spec's own
    preconditions), and the grid rectangular (E24: the spec accepts ragged
    rows as an extension; the seed does not)."""
    return spec_grid(desc)[1]


def spec_grid(desc: Any) -> tuple[spec_grilla.Grilla | None, str | None]:
    """``(spec_grilla.crear_grilla(desc), None)``, or ``(None, why)`` when
    ``desc`` breaks a precondition of seed 002 (see :func:`desc_fault`)."""
    room = _room(desc)
    if room is not None:
        return room, None
    try:
        model = spec_grilla.crear_grilla(desc)
    except PreconditionError as e:
        return None, str(e).removeprefix("crear_grilla: ")
    lengths = [len(row) for row in desc]
    if len(set(lengths)) > 1:
        return None, _("\u201c{words}\u201d (every row of desc the same length, erratum E24): "
                       "the rows' lengths are {lengths}").format(
                           words=RECTANGULAR, lengths=", ".join(map(str, lengths)))
    return model, None


#: Deletes seed 002's characters from a string (what is left is not a cell).
_NOT_CELLS = str.maketrans("", "", "#$@.*+ ")


def _room(desc: Any) -> spec_grilla.Grilla | None:
    """``spec_grilla.crear_grilla(desc)``, made faster for the usual desc: a
    rectangle of seed 002's characters with one player and a wall on every
    cell of its edge (so the player is enclosed). None for any other desc:
    the spec's own ``crear_grilla`` decides those (a test checks that both
    give the same grid)."""
    if (type(desc) is not list and type(desc) is not tuple) or len(desc) < 3:
        return None
    try:
        joined = "".join(desc)
    except TypeError:
        return None
    cols, rows = len(desc[0]), len(desc)
    if cols < 3 or len(set(map(len, desc))) != 1 or joined.translate(_NOT_CELLS) \
            or joined.count("@") + joined.count("+") != 1 \
            or desc[0] != "#" * cols or desc[-1] != "#" * cols \
            or joined[::cols] != "#" * rows or joined[cols - 1::cols] != "#" * rows:
        return None
    walls, end = [], cols - 1          # the walls inside the edge
    for f in range(1, rows - 1):
        row = desc[f]
        c = row.find("#", 1, end)
        while c >= 0:
            walls.append((c, f))
            c = row.find("#", c + 1, end)
    found: dict[str, list] = {}
    for ch in "$.*":
        cells = found[ch] = []
        i = joined.find(ch)
        while i >= 0:
            cells.append((i % cols, i // cols))
            i = joined.find(ch, i + 1)
    i = joined.find("@")
    on_goal = i < 0
    if on_goal:
        i = joined.find("+")
    player = (i % cols, i // cols)
    return spec_grilla.Grilla(
        columnas=cols, filas=rows, paredes=_edge(cols, rows).union(walls),
        objetivos=frozenset(found["."] + found["*"] + [player] * on_goal),
        cajas=frozenset(found["$"] + found["*"]), jugador=player)


@functools.lru_cache(maxsize=64)
def _edge(cols: int, rows: int) -> frozenset:
    """The cells on the edge of a ``cols`` x ``rows`` rectangle."""
    return frozenset(chain(zip(range(cols), repeat(0)), zip(range(cols), repeat(rows - 1)),
                           zip(repeat(0), range(rows)), zip(repeat(cols - 1), range(rows))))


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


_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the conformance package


_OURS: dict[str, bool] = {}


def _ours(filename: str) -> bool:
    """Whether the code of ``filename`` is this package's (kept per file)."""
    ours = _OURS.get(filename)
    if ours is None:
        ours = _OURS[filename] = os.path.abspath(filename).startswith(_HERE + os.sep)
    return ours


def _outside() -> int:
    """The ``stacklevel`` of the first frame outside this package (the
    student's call), for warnings."""
    frame, level = sys._getframe(1), 1
    while frame is not None and _ours(frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    return level


def _site() -> tuple[str, int, str] | None:
    """Where the caller's code called us: the file, line and function of the
    first frame outside this package (None: none)."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        ours = _OURS.get(code.co_filename)
        if not (ours if ours is not None else _ours(code.co_filename)):
            return code.co_filename, frame.f_lineno, code.co_name
        frame = frame.f_back
    return None


def _where(site: tuple[str, int, str] | None) -> str:
    """``File soko_test.py, line 12 in test_push:`` (icontract's first line)."""
    return "" if site is None else f"File {site[0]}, line {site[1]} in {site[2]}:"


# ------------------------------------------------------------ the module


def load_module(module_or_path: Any, support: str | None = None) -> tuple[Any, str]:
    """The student's module and its name (its file): a module object, or a
    path to a ``.py`` file (or a folder holding ``soko.py``), imported here.
    Raises :class:`~conformance.checking.targets.BadTarget` (one paragraph: what
    went wrong, with the student's file and line). ``support``: the course's
    folder of support files, first on the import path while it is imported."""
    if isinstance(module_or_path, types.ModuleType):
        return module_or_path, getattr(module_or_path, "__file__", None) or module_or_path.__name__
    spec = resolve(os.fspath(module_or_path))
    if spec is None or spec.kind not in ("file", "package", "module"):
        raise BadTarget(_("{target}: the monitor runs a Python module (a soko.py) in this "
                          "process; for other targets use sokoban check or sokoban play").format(
                              target=module_or_path))
    try:
        return load(spec, support=support), spec.path or spec.name
    except BadTarget:
        raise
    except BaseException as e:  # noqa: BLE001 - the student's import failed
        raise BadTarget(describe_load_error(spec, e)) from None


def monitored(module_or_path: Any, profile: str = "soko", *,
              every_cell: bool = False, support: str | None = None) -> types.ModuleType:
    """The student's module (or the ``.py`` file at ``module_or_path``)
    wrapped so that every call of the profile's operations is also computed
    by the spec; a call that departs raises :class:`DepartureError`.
    Everything else of the module passes through as it is. Runs the
    student's code in this process (no sandbox). ``wrapped.__monitor__`` is
    the :class:`Monitor` (its ``stats``).

    ``every_cell=False`` (fast, the default): a grid is compared where it
    is read, and after ``mover`` on the cells the move can change; a call
    costs about the same whatever the grid's size, and a departure is named
    (the call, its line) when it shows. ``every_cell=True``: every cell of
    every grid ``crear_grilla`` and ``mover`` return, at the call.
    ``support``: the course's folder of support files (``--support DIR``)."""
    _known(profile)
    module, name = load_module(module_or_path, support)
    monitor = Monitor(module, name, profile, every_cell)
    wrapped = types.ModuleType("soko", getattr(module, "__doc__", None))
    wrapped.__dict__.update({k: v for k, v in vars(module).items()
                             if k not in ("__name__", "__spec__", "__loader__", "__doc__")})
    for op, checked in monitor.checking.items():
        setattr(wrapped, op, checked)
    wrapped.__monitor__ = monitor
    return wrapped
