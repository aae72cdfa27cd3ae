"""The boards a check draws: what a state shows, cell by cell, in XSB
characters over a window of the (possibly infinite) grid: ``#`` wall, ``$``
box, ``*`` box on a goal, ``.`` goal, ``@`` player, ``+`` player on a goal,
a space for floor, and ``!`` for a cell no valid state can hold (a wall with
something on it, the player on a box), which only a non-conforming target
produces. A machine renders each observation it compares
(:func:`render_observation`); the report lays two of them side by side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from levels import drawing
from levels.drawing import bounds


@dataclass(frozen=True)
class Board:
    """What a state shows, cell by cell (``players`` is a set so that a
    target with no player, or two, can be drawn too)."""

    walls: frozenset = frozenset()
    boxes: frozenset = frozenset()
    goals: frozenset = frozenset()
    players: frozenset = frozenset()

    def cells(self) -> frozenset:
        return self.walls | self.boxes | self.goals | self.players


#: What the report draws on a cell whose pieces no XSB character shows together.
CLASH = "!"


def cell_char(board: Board, p: tuple[int, int]) -> str:
    """The XSB character of cell ``p`` (:data:`CLASH` for an impossible cell)."""
    return drawing.cell_char(p in board.walls, p in board.boxes, p in board.goals,
                             p in board.players, clash=CLASH)


def draw(board: Board, window: tuple[int, int, int, int] | None = None,
         *, trim: bool = False) -> list[str]:
    """The rows of ``board`` over ``window`` (default: its own bounds), in
    XSB (:mod:`levels.drawing`; :data:`CLASH` on an impossible cell).
    ``trim`` drops trailing floor (XSB style); otherwise every row has the
    window's width, so two boards over one window line up cell by cell."""
    rows = drawing.draw_rows(board.walls, board.boxes, board.goals, board.players,
                     window if window is not None else bounds(board.cells()), clash=CLASH)
    return [r.rstrip(" ") for r in rows] if trim else rows


def render_observation(board: Board | None, window, values: Iterable[tuple[str, object]]) -> str:
    """The text form of one observation (stored in Counterexample.expected /
    .actual): board rows prefixed ``|`` (so spaces survive JSON and trimming)
    then ``name: value`` lines."""
    lines = []
    if board is not None:
        lines += ["|" + r for r in draw(board, window)]
    lines += [f"{name}: {value!r}" for name, value in values]
    return "\n".join(lines)


