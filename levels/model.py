"""The :class:`Level` value and the one exception of every reader.

A :class:`Level` is what every reader returns and every writer takes.  Its
positions are the project's ``(x, y)`` (x the column growing east, y the row
growing south, see ``docs/INTERFACES.md``) and are kept exactly as read: a
level drawn as text has the character at row ``r``, column ``c`` (0-based) at
``(c, r)``; nothing is shifted or normalised.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import Mapping

from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE, Posicion

from .drawing import draw_rows
from .words import plural

__all__ = ["Level", "Snapshot", "Collection", "LevelError", "LevelWarning", "MAX_CELLS",
           "check_board_size"]

#: The largest board a reader accepts, in cells of its bounding box from
#: ``(0, 0)`` (width x height), such as 500 x 500.  Real levels are under 100 x 100; the cap keeps
#: every reader, ``validate`` and ``rows()`` within linear time and memory.
MAX_CELLS = 250_000


class LevelError(ValueError):
    """Raised by every reader (and writer) of :mod:`levels` on bad input.

    The message names, when known, the file, the level (number and title), the
    line and column, and what is wrong; the parts are also attributes:
    ``source``, ``level_number``, ``level_title``, ``line``, ``column``,
    ``problem``.
    """

    def __init__(self, problem: str, *, source: str | None = None,
                 line: int | None = None, column: int | None = None,
                 level_number: int | None = None, level_title: str | None = None):
        self.problem = problem
        self.source = source
        self.line = line
        self.column = column
        self.level_number = level_number
        self.level_title = level_title
        super().__init__(self._message())

    def _message(self) -> str:
        where = []
        if self.source is not None:
            place = str(self.source)
            if self.line is not None:
                place += f":{self.line}"
                if self.column is not None:
                    place += f":{self.column}"
            where.append(place)
        elif self.line is not None:
            where.append(f"line {self.line}" + (f", column {self.column}"
                                                 if self.column is not None else ""))
        if self.level_number is not None or self.level_title is not None:
            lvl = "level"
            if self.level_number is not None:
                lvl += f" {self.level_number}"
            if self.level_title:
                lvl += f" ({self.level_title!r})"
            where.append(lvl)
        return (": ".join(where) + ": " if where else "") + self.problem


class LevelWarning(UserWarning):
    """A puzzle of a file was skipped and the rest read: a puzzle of another
    variant (``Game: Hexoban``), or one with a problem when the read is not
    strict.  ``error`` is the :class:`LevelError` that names it (its file,
    line, number, title) and says why."""

    def __init__(self, error):
        # (a plain message too: the warnings machinery may rebuild one from its text)
        super().__init__(f"skipped {error}" if isinstance(error, LevelError) else error)
        self.error = error


@contextlib.contextmanager
def cycle_collector_paused():
    """Pause Python's cyclic garbage collector for a reader's run. A reader
    makes hundreds of thousands of small tuples and sets, none in a cycle,
    and every 700 of them would start a collection that walks the levels
    read so far: 30% of the time on 1 MB of tiny levels. Reference counting
    still frees everything; the collector's state is restored after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def check_board_size(width: int, height: int, **where) -> None:
    """Raise :class:`LevelError` (with ``where``: ``source``, ``line``,
    ``column``...) when a ``width`` x ``height`` board exceeds :data:`MAX_CELLS`."""
    if width * height > MAX_CELLS:
        raise LevelError(f"the board is too large: {width} x {height} is "
                         f"{width * height:,} cells, more than the {MAX_CELLS:,} "
                         "a level may have", **where)


def _frozen(ps) -> frozenset:
    return ps if isinstance(ps, frozenset) else frozenset(ps)


@dataclass(frozen=True)
class Snapshot:
    """A saved game or solution of a SOK puzzle, as the file gives it.

    ``moves``: the moves with run-length encoding expanded and the file's
    line breaks and spaces removed: ``l u r d`` (``L U R D`` a push, or a
    pull in reverse mode) and SOK's marks ``[ ]`` (a jump), ``{ }`` (a pusher
    change) and ``*`` (the current position).  ``title``: its title line (or
    ``Title:`` key), ``None`` when it has none.  ``notes``: its free text
    lines, joined with ``\n``.  ``metadata``: its ``Key: value`` lines
    (``Solver``, ``Optimizer``, ``Time``...).  ``line``: the file line of its
    first moves line (informative, not compared).
    """

    moves: str = ""
    title: str | None = None
    notes: str = ""
    metadata: Mapping[str, str] = field(default_factory=dict, hash=False)
    line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "metadata", dict(self.metadata))

    @property
    def reverse(self) -> bool:
        """A reverse-mode game (pulls from the solved position): SOK has it
        begin with a jump, ``[]`` at least."""
        return self.moves[:1] == "["

    @property
    def solver(self) -> str | None:
        """Who found it: its ``Solver`` key, else its ``Author`` key."""
        return self.metadata.get("Solver") or self.metadata.get("Author")


@dataclass(frozen=True)
class Level:
    """One Sokoban level, on the infinite grid of the TAD.

    Besides the board: ``title``; ``number`` (its place in its file);
    ``metadata`` (its ``Key: value`` lines); ``solutions`` (LURD strings of
    its ``Solution:`` keys); ``notes`` (its other text lines, SOK's puzzle
    notes, joined with ``\n``); ``snapshots`` (SOK's saved games and
    solutions, :class:`Snapshot`; a string given is the moves of one).

    ``source`` and ``line`` (where it was read from: file name and the 1-based
    line of the board's first row) are informative only and take no part in
    equality.
    """

    walls: frozenset[Posicion] = frozenset()
    boxes: frozenset[Posicion] = frozenset()
    goals: frozenset[Posicion] = frozenset()
    player: Posicion | None = None
    bombs: int = 0
    title: str | None = None
    number: int | None = None
    metadata: Mapping[str, str] = field(default_factory=dict, hash=False)
    solutions: tuple[str, ...] = ()
    notes: str = ""
    snapshots: tuple[Snapshot, ...] = ()
    source: str | None = field(default=None, compare=False, repr=False)
    line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "walls", _frozen(self.walls))
        object.__setattr__(self, "boxes", _frozen(self.boxes))
        object.__setattr__(self, "goals", _frozen(self.goals))
        object.__setattr__(self, "solutions", tuple(self.solutions))
        object.__setattr__(self, "metadata", dict(self.metadata))
        object.__setattr__(self, "snapshots", tuple(
            Snapshot(s) if isinstance(s, str) else s for s in self.snapshots))

    @classmethod
    def _trusted(cls, **fields) -> "Level":
        """A Level from fields that already have their final types
        (frozensets of positions, a tuple of solutions, a dict of metadata
        nobody else holds), without ``__init__``'s checks and copies: the
        readers make one per level of a file (24,385 in 1 MB of tiny levels),
        where ``__init__`` was a quarter of the time. Fields not given take
        their defaults."""
        level = object.__new__(cls)
        values = level.__dict__
        values.update(_DEFAULTS)
        values["metadata"] = {}
        values.update(fields)
        return level

    # -- the spec's shapes -------------------------------------------------

    def to_nivel(self) -> dict:
        """Seed 000's ``Nivel``: the dict with exactly the four keys."""
        return {
            PERSONAJE: frozenset() if self.player is None else frozenset({self.player}),
            CAJAS: self.boxes,
            PAREDES: self.walls,
            DEPOSITOS: self.goals,
        }

    def to_nivel_extendido(self) -> dict:
        """Seed 001's level: the ``Nivel`` plus ``"bombas"``."""
        n = self.to_nivel()
        n[BOMBAS] = self.bombs
        return n

    @classmethod
    def from_nivel(cls, n: Mapping, **extra) -> "Level":
        """A Level from a ``Nivel`` or ``NivelExtendido`` (``"bombas"`` optional).

        ``n["personaje"]`` must hold at most one position (a Level has one
        player or none); raises :class:`LevelError` otherwise.
        """
        try:
            personaje = frozenset(n[PERSONAJE])
            walls, boxes, goals = (frozenset(n[k]) for k in (PAREDES, CAJAS, DEPOSITOS))
            bombs = int(n.get(BOMBAS, 0))
        except (KeyError, TypeError, ValueError) as e:
            raise LevelError(f"not a Nivel: {e!r}") from None
        if len(personaje) > 1:
            raise LevelError(f"a Nivel with {len(personaje)} characters cannot be a Level")
        player = next(iter(personaje)) if personaje else None
        return cls(walls=walls, boxes=boxes, goals=goals, player=player,
                   bombs=bombs, **extra)

    # -- geometry ------------------------------------------------------------

    def positions(self) -> frozenset[Posicion]:
        """Every position that holds something."""
        ps = self.walls | self.boxes | self.goals
        return ps | {self.player} if self.player is not None else ps

    @property
    def width(self) -> int:
        """Columns from column 0 to the rightmost occupied one (0 if empty)."""
        ps = self.positions()
        return max(ps)[0] + 1 if ps else 0  # tuples compare x first

    @property
    def height(self) -> int:
        """Rows from row 0 to the lowest occupied one (0 if empty)."""
        ps = self.positions()
        return max(ps, key=itemgetter(1))[1] + 1 if ps else 0

    def translated(self, dx: int, dy: int) -> "Level":
        """The same level moved by ``(dx, dy)`` (solutions are unaffected)."""
        def mv(ps):
            return frozenset((x + dx, y + dy) for x, y in ps)
        player = None if self.player is None else (self.player[0] + dx, self.player[1] + dy)
        return replace(self, walls=mv(self.walls), boxes=mv(self.boxes),
                       goals=mv(self.goals), player=player)

    def undrawable(self) -> list[str]:
        """Why XSB cannot draw this level exactly (``[]`` when it can): two
        pieces on a cell that no XSB character holds, or a negative position."""
        why = []
        if any(x < 0 or y < 0 for x, y in self.positions()):
            why.append("negative coordinates (move the level with Level.translated)")
        clash = self.walls & (self.boxes | self.goals)
        if self.player is not None and (self.player in self.walls or self.player in self.boxes):
            clash |= {self.player}
        if clash:
            x, y = min(clash, key=lambda p: (p[1], p[0]))
            cells = plural(len(clash), "cell") + (" holds" if len(clash) == 1 else " hold")
            why.append(f"{cells} pieces no character can show "
                       f"together (a wall with a box, goal or player, or the player "
                       f"on a box), first at ({x}, {y})")
        return why

    def rows(self, strict: bool = True) -> list[str]:
        """The XSB drawing: row ``y`` is line ``y``, column ``x`` is character
        ``x``; floor is a space, trailing floor is dropped (rows are ragged).

        Raises :class:`LevelError` if a position is negative (it cannot be
        drawn without moving the level: see :meth:`translated`) and, when
        ``strict``, if two pieces share a cell that no character can show
        (nothing is silently dropped); with ``strict=False`` they are drawn
        by :mod:`levels.drawing`'s rule (the player wins over a box, a box
        over a wall, a wall over a goal).
        """
        why = self.undrawable()
        if why and (strict or any(w.startswith("negative") for w in why)):
            raise LevelError("cannot draw the level as XSB text: " + "; ".join(why),
                             level_number=self.number, level_title=self.title)
        players = () if self.player is None else (self.player,)
        rows = draw_rows(self.walls, self.boxes, self.goals, players,
                         (0, 0, self.width - 1, self.height - 1))
        return [r.rstrip(" ") for r in rows]

    def describe(self) -> str:
        """``level N ('title')`` for messages."""
        s = "level" + (f" {self.number}" if self.number is not None else "")
        return s + (f" ({self.title!r})" if self.title else "")


@dataclass(frozen=True)
class Collection:
    """A level file as a whole: its levels and what SOK calls the file notes.

    ``metadata``: the ``Key: value`` lines before the first puzzle
    (``Collection``, ``Author``, ``Date Created``...); ``notes``: the file's
    other text lines (``::`` comments are not kept).  ``skipped``: the
    puzzles that were not read (another variant, or a problem in a lenient
    read), one :class:`LevelError` each, naming the puzzle, its line and why
    (not compared).  ``source``: where it was read from (not compared).
    """

    levels: tuple[Level, ...] = ()
    metadata: Mapping[str, str] = field(default_factory=dict, hash=False)
    notes: str = ""
    skipped: tuple[LevelError, ...] = field(default=(), compare=False, repr=False)
    source: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "levels", tuple(self.levels))
        object.__setattr__(self, "metadata", dict(self.metadata))
        object.__setattr__(self, "skipped", tuple(self.skipped))

    @property
    def title(self) -> str | None:
        """The collection's name: its ``Collection`` key, else its ``Title`` key."""
        return self.metadata.get("Collection") or self.metadata.get("Title") or None


#: The defaults of :class:`Level`'s fields that have a plain default.
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Level)
             if f.default is not dataclasses.MISSING}
