"""XSB drawing, cell by cell: the one rule for which character shows a cell.

Every drawing of a board in the toolkit goes through :func:`cell_char` and
:func:`draw_rows` (``Level.rows``, the conformance report's boards, ``impl``'s
``Sokoban.dibujo``, the solver's native kernel input).

XSB has a character for a goal under a box (``*``) or the player (``+``),
and none for the other pairs. When pieces that no character shows together
share a cell (a wall with anything else, the player on a box): ``clash`` when
it is given (the report's ``!``), else **the player wins over a box, a box
over a wall, and a wall over a goal**.
"""

from __future__ import annotations

from typing import Collection, Iterable

Cell = tuple[int, int]

#: XSB's characters.
WALL, BOX, BOX_ON_GOAL, PLAYER, PLAYER_ON_GOAL, GOAL, FLOOR = "#", "$", "*", "@", "+", ".", " "


def cell_char(wall: bool, box: bool, goal: bool, player: bool, *, floor: str = FLOOR,
              clash: str | None = None) -> str:
    """The XSB character of a cell holding these pieces (see the module's rule)."""
    if clash is not None and ((wall and (box or goal or player)) or (box and player)):
        return clash
    if player:
        return PLAYER_ON_GOAL if goal else PLAYER
    if box:
        return BOX_ON_GOAL if goal else BOX
    if wall:
        return WALL
    return GOAL if goal else floor


def draw_rows(walls: Collection[Cell], boxes: Collection[Cell], goals: Collection[Cell],
              players: Collection[Cell], window: tuple[int, int, int, int], *,
              floor: str = FLOOR, clash: str | None = None) -> list[str]:
    """The rows over ``window`` = ``(x0, y0, x1, y1)`` (inclusive), every row
    the window's width (strip trailing floor for XSB files)."""
    x0, y0, x1, y1 = window
    return ["".join(cell_char((x, y) in walls, (x, y) in boxes, (x, y) in goals,
                              (x, y) in players, floor=floor, clash=clash)
                    for x in range(x0, x1 + 1))
            for y in range(y0, y1 + 1)]


def bounds(cells: Iterable[Cell], margin: int = 0) -> tuple[int, int, int, int]:
    """``(x0, y0, x1, y1)`` (inclusive) around ``cells``, grown by ``margin``
    (``(0, 0, 0, 0)`` for no cells)."""
    cells = list(cells)
    if not cells:
        return (0, 0, 0, 0)
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    return (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)
