"""``solve(level, ...)``: the solver's one entry point."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from math import comb

from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE

from . import native, verify
from .board import MARGIN, Board, LevelProblem, pieces_of
from .bombs import bomb_search
from .search import Budget, move_search, push_search

#: ``method="auto"`` uses the move-optimal search when the number of
#: (player, boxes) placements is at most this; the push search otherwise.
AUTO_MOVE_STATES = 200_000

METHODS = ("auto", "moves", "pushes")

#: Engines of the push search: "native" (the C++ kernel, ``native.py``),
#: "python" (``search.push_search``), "auto" (native when it builds).  The
#: default comes from the environment variable ``SOKOBAN_SOLVER``.
ENGINES = ("auto", "native", "python")
ENGINE_VARIABLE = "SOKOBAN_SOLVER"

#: Largest window (bounding box plus margin, in cells) the solver accepts; a
#: level spread wider gives up with limit "size" instead of exhausting memory.
MAX_CELLS = 1_000_000
DEFAULT_TIME_LIMIT = 60.0
#: Getting the native kernel taking this long means it was built (or another
#: process was building it): that time is left out of the search's limit.
BUILD_NOTICE_SECONDS = 0.5


@dataclass(frozen=True)
class Result:
    """What ``solve`` found.

    ``status`` is "solved" (``solution`` holds LURD, verified through
    ``spec``), "unsolvable" (the search space was exhausted on a closed board:
    a proof) or "gave_up" (``limit`` says which: "time", "nodes", or "window"
    when the level is open and only a finite window of the infinite grid was
    searched, or "size" when the level spans more than ``MAX_CELLS``
    cells).  ``optimal`` is "moves" when the solution is move-optimal
    (``bombs`` when optimal in actions, bombs included)."""

    status: str
    solution: str | None
    method: str
    nodes: int
    time: float
    limit: str | None = None
    optimal: str | None = None
    notes: tuple = field(default=())

    @property
    def moves(self) -> int | None:
        return None if self.solution is None else sum(
            1 for c in self.solution if c in "udlrUDLR")

    @property
    def pushes(self) -> int | None:
        return None if self.solution is None else sum(
            1 for c in self.solution if c in "UDLR")

    @property
    def bombs(self) -> int | None:
        return None if self.solution is None else self.solution.count(verify.BOMB)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0

    def summary(self) -> str:
        parts = [self.status]
        if self.limit:
            parts.append(f"limit={self.limit}")
        if self.solution is not None:
            parts.append(f"moves={self.moves} pushes={self.pushes}")
            if self.bombs:
                parts.append(f"bombs={self.bombs}")
        parts.append(f"method={self.method}")
        if self.optimal:
            parts.append(f"optimal={self.optimal}")
        elif self.solution is not None:
            parts.append("optimal=no")  # e.g. the push search's solutions
        parts.append(f"nodes={self.nodes} time={self.time:.3f}s "
                     f"nodes/s={self.nodes_per_second:.0f}")
        parts.extend(f"({note})" for note in self.notes)
        return " ".join(parts)


def board_cells(pieces) -> int:
    every = pieces.walls | pieces.boxes | pieces.goals | {pieces.player}
    xs = [p[0] for p in every]
    ys = [p[1] for p in every]
    return ((max(xs) - min(xs) + 1 + 2 * MARGIN)
            * (max(ys) - min(ys) + 1 + 2 * MARGIN))


def to_nivel(pieces, bombs: bool = False) -> dict:
    """The spec's Nivel (or NivelExtendido) for the pieces."""
    nivel = {PERSONAJE: frozenset({pieces.player}), CAJAS: pieces.boxes,
             PAREDES: pieces.walls, DEPOSITOS: pieces.goals}
    if bombs:
        nivel[BOMBAS] = pieces.bombs
    return nivel


def solve(level, *, time_limit: float | None = DEFAULT_TIME_LIMIT,
          node_limit: int | None = None, method: str = "auto",
          progress=None, engine: str | None = None) -> Result:
    """Solve one level: a ``levels.Level`` or a spec ``Nivel`` /
    ``NivelExtendido`` dict.

    ``method``: "moves" (A*, move-optimal), "pushes" (push-level best-first
    search with deadlock pruning) or "auto" (moves on small state spaces,
    pushes otherwise).  When the level has bombs and no bomb-free solution
    exists, a breadth-first search over moves and bombs follows.
    ``progress``, when given, is called about once a second with a dict of
    statistics.  ``engine`` ("auto", "native", "python"; default: the
    environment variable ``SOKOBAN_SOLVER``, else "auto") chooses who runs
    the push search of a level without bombs: the native kernel or the
    Python search (also used, with a note, when the kernel cannot be built
    or fails).  Raises ``LevelProblem`` (a ``ValueError``) for a level the
    spec does not accept."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if engine is None:
        engine = os.environ.get(ENGINE_VARIABLE, "").strip().lower() or "auto"
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    pieces = pieces_of(level)
    nivel = to_nivel(pieces)
    if not verify.nivel_valido(nivel):
        raise LevelProblem(_why_invalid(pieces))
    budget = Budget(time_limit, node_limit, progress)
    cells = board_cells(pieces)
    if cells > MAX_CELLS:
        return Result("gave_up", None, method, 0, budget.elapsed(), limit="size",
                      notes=(f"the level spans {cells} cells; the solver handles "
                             f"at most {MAX_CELLS}",))
    board = Board(pieces)
    if method == "auto":
        cells = len(board.floor)
        k = len(board.boxes)
        small = comb(cells, k) * max(cells - k, 1) <= AUTO_MOVE_STATES
        method = "moves" if small else "pushes"
    notes = ()
    used = method
    if method == "moves":
        outcome = move_search(board, budget)
        optimal = "moves"
    else:
        outcome = None
        optimal = None
        if engine != "python" and pieces.bombs == 0:
            outcome, notes = _native_push_search(pieces, budget, time_limit, node_limit)
            if outcome is not None:
                used = "pushes (native)"
        if outcome is None:
            outcome = push_search(board, budget)
    nodes = outcome.nodes
    if outcome.kind == "exhausted" and pieces.bombs > 0:
        outcome = bomb_search(board, pieces.bombs, budget)
        nodes += outcome.nodes
        used = f"{method}+bombs"
        optimal = "actions" if outcome.kind == "solved" else None
    elapsed = budget.elapsed()
    if outcome.kind == "solved":
        _verify(pieces, outcome.lurd)
        return Result("solved", outcome.lurd, used, nodes, elapsed,
                      optimal=optimal, notes=notes)
    if outcome.kind == "exhausted" and board.open:
        return Result("gave_up", None, used, nodes, elapsed, limit="window",
                      notes=notes)
    if outcome.kind == "exhausted":
        return Result("unsolvable", None, used, nodes, elapsed,
                      notes=notes + _why_unsolvable(board))
    return Result("gave_up", None, used, nodes, elapsed, limit=outcome.kind,
                  notes=notes)


def _native_push_search(pieces, budget, time_limit, node_limit) -> tuple:
    """``(outcome, notes)`` of the native kernel, or ``(None, notes)`` when
    the Python search must run instead (the notes say why)."""
    started = time.perf_counter()
    path, note = native.kernel()
    building = time.perf_counter() - started
    notes = (note,) if note else ()
    if building >= BUILD_NOTICE_SECONDS:      # a build (or a wait for one), not a cache hit
        budget.exclude(building)            # the time limit is the search's
        if path is not None:
            notes = (f"built the native kernel with g++ in {building:.1f} s, once "
                     f"(cached in {native.cache_dir()}); not counted in the time",)
    if path is None:
        return None, notes
    left = None if time_limit is None else max(time_limit - budget.elapsed(), 0.001)
    try:
        return native.run(path, pieces, left, node_limit,
                          progress=budget.report if budget.progress else None,
                          interval=budget.interval), notes
    except native.KernelFailure as exc:
        return None, notes + (f"{exc}; used the Python search",)


def _verify(pieces, lurd: str) -> None:
    if verify.BOMB not in lurd:
        verify.replay_juego(to_nivel(pieces), lurd)
    if pieces.bombs > 0:
        verify.replay_sokoban(to_nivel(pieces, bombs=True), lurd)


def _why_unsolvable(board) -> tuple:
    """An easy-to-check reason, when the start already shows one."""
    stuck = [board.position(b) for b in board.boxes if board.dead[b]]
    if stuck:
        where = ", ".join(str(p) for p in stuck)
        return (f"no goal can ever be reached by the box at {where}",)
    return ()


def _why_invalid(pieces) -> str:
    reasons = []
    if len(pieces.boxes) != len(pieces.goals):
        reasons.append(f"{len(pieces.boxes)} boxes but {len(pieces.goals)} goals")
    on_walls = sorted(pieces.walls & pieces.goals)
    if on_walls:
        reasons.append(f"goals on walls at {on_walls}")
    return "invalid level: " + ("; ".join(reasons) or "rejected by spec.fisica.nivel_valido")
