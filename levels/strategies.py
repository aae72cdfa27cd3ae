"""Hypothesis strategies over levels, for the conformance suite and tests.

* :func:`generated_levels`: enclosed levels made by :func:`levels.generate`,
  each with its known solution in ``level.solutions[0]``.
* :func:`open_levels`: cheap random levels on the infinite grid, not enclosed
  (coordinates may be negative), valid under the TAD's ``nivelVálido?``.
* :func:`drawable_levels`: arbitrary levels that XSB can draw (no overlaps,
  non-negative coordinates), with title, metadata, bombs, solutions, notes
  and snapshots: the round-trip properties use it.
* :func:`collections`: a :class:`Collection` of drawable levels with file
  notes and keys.
"""

from __future__ import annotations

from hypothesis import strategies as st

from .generate import generate
from .model import Collection, Level, Snapshot
from .xsb import level_from_cells, note_line_ok

__all__ = ["generated_levels", "open_levels", "drawable_levels", "lurd_strings",
           "snapshots", "collections"]


def generated_levels(min_size: int = 4, max_size: int = 10, min_boxes: int = 0,
                     max_boxes: int = 4) -> st.SearchStrategy[Level]:
    """Levels from :func:`levels.generate` (solvable; solution attached)."""

    @st.composite
    def build(draw):
        w = draw(st.integers(min_size, max_size))
        h = draw(st.integers(min_size, max_size))
        cap = max(0, (w - 2) * (h - 2) - 1)
        b = draw(st.integers(min(min_boxes, cap), min(max_boxes, cap)))
        seed = draw(st.integers(0, 2**32 - 1))
        return generate(w, h, b, seed)[0]

    return build()


def _positions(lo: int, hi: int):
    return st.tuples(st.integers(lo, hi), st.integers(lo, hi))


def open_levels(max_coord: int = 4, max_boxes: int = 3, max_walls: int = 8,
                max_bombs: int = 2) -> st.SearchStrategy[Level]:
    """Random levels on the infinite grid (not enclosed), coordinates in
    ``-max_coord..max_coord``; valid under ``validate(level, "tad")``."""

    @st.composite
    def build(draw):
        pos = _positions(-max_coord, max_coord)
        cells = draw(st.lists(pos, unique=True, min_size=1,
                              max_size=1 + 2 * max_boxes + max_walls))
        player, rest = cells[0], cells[1:]
        nb = draw(st.integers(0, min(max_boxes, len(rest) // 2)))
        boxes = frozenset(rest[:nb])
        walls = frozenset(rest[nb:nb + draw(st.integers(0, max_walls))])
        free_for_goals = [p for p in rest[nb:] if p not in walls] + list(boxes) + [player]
        goals = frozenset(draw(st.permutations(free_for_goals))[:nb])
        bombs = draw(st.integers(0, max_bombs))
        return Level(walls=walls, boxes=boxes, goals=goals, player=player, bombs=bombs)

    return build()


def lurd_strings(max_size: int = 20) -> st.SearchStrategy[str]:
    return st.text(alphabet="lurdLURD", min_size=1, max_size=max_size)


_LINE = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                min_size=1, max_size=12).map(str.strip).filter(bool)
_KEYS = st.sampled_from(["Author", "Comment", "Difficulty", "Set", "Date", "Note",
                         "Collection", "Url", "Email", "Moves", "Pushes"])
_SNAPSHOT_KEYS = st.sampled_from(["Solver", "Optimizer", "Time", "Date", "Author", "Optimality"])
_FILE_KEYS = st.sampled_from(["Collection", "Author", "Date Created", "Date of Last Change",
                              "Url", "Copyright"])
_NOTE_LINE = _LINE.filter(note_line_ok)
#: Notes: lines that read back as notes, perhaps a blank line between two.
_NOTES = st.lists(st.lists(_NOTE_LINE, min_size=1, max_size=2).map("\n".join),
                  max_size=2).map("\n\n".join)


def snapshots() -> st.SearchStrategy[Snapshot]:
    """Saved games and solutions as SOK holds them: LURD moves (a
    reverse-mode one starts with ``[]``; one may hold the ``*`` mark), a
    title or none, notes, keys."""
    moves = st.tuples(st.sampled_from(["", "", "[]"]), st.text("lurdLURD", min_size=1, max_size=150),
                      st.sampled_from(["", "", "*"])).map("".join)
    return st.builds(Snapshot, moves=moves, title=st.none() | _LINE, notes=_NOTES,
                     metadata=st.dictionaries(_SNAPSHOT_KEYS, _LINE, max_size=2))


def drawable_levels(max_coord: int = 7, with_text: bool = True) -> st.SearchStrategy[Level]:
    """Arbitrary levels with no two pieces on a cell that cannot share it
    (so XSB can draw them), coordinates ``0..max_coord``."""

    @st.composite
    def build(draw):
        cells = draw(st.lists(st.tuples(_positions(0, max_coord), st.sampled_from("#$.*@+")),
                              unique_by=lambda c: c[0], max_size=24))
        # One character per cell; a second player becomes a goal.
        players = [i for i, (_, k) in enumerate(cells) if k in "@+"]
        cells = [(p, "." if k in "@+" and i in players[1:] else k)
                 for i, (p, k) in enumerate(cells)]
        extra = {}
        if with_text:
            extra = dict(
                title=draw(st.none() | _LINE),
                metadata=draw(st.dictionaries(_KEYS, _LINE, max_size=3)),
                bombs=draw(st.integers(0, 5)),
                solutions=tuple(draw(st.lists(lurd_strings(), max_size=2))),
                notes=draw(_NOTES),
                snapshots=tuple(draw(st.lists(snapshots(), max_size=3))),
            )
        return level_from_cells(cells, **extra)

    return build()


def collections(max_levels: int = 4) -> st.SearchStrategy[Collection]:
    """A collection of :func:`drawable_levels` numbered 1..n, with file notes and keys."""

    @st.composite
    def build(draw):
        lvs = draw(st.lists(drawable_levels(), max_size=max_levels))
        return Collection(levels=[Level(**{**lv.__dict__, "number": i})
                                  for i, lv in enumerate(lvs, 1)],
                          metadata=draw(st.dictionaries(_FILE_KEYS, _LINE, max_size=3)),
                          notes=draw(_NOTES))

    return build()
