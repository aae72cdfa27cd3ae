"""Level validation: the seed's corrected ``nivelVálido?`` and practical checks.

``rules="tad"`` (seed 000, the infinite grid; also seed 001's levels):

* exactly one character;
* the character is not on a wall or on a box;
* walls share no cell with boxes nor with goals;
* as many boxes as goals (in number, not as sets: erratum E1);
* a bomb count that is a whole number >= 0.

``rules="soko"`` (seed 002's grid of strings) keeps the checks on the
character and the walls, but allows more boxes than goals (seed 002's
``juego_ganado`` only asks that every goal holds a box), and adds what a grid
of strings needs: no negative coordinates, and the character enclosed by walls
(it cannot walk off the grid).

Every message is a plain sentence; a position is given as ``(x, y)`` and, when
the level was read from an XSB board without run-length encoding, as the file
line and column too.
"""

from __future__ import annotations

from operator import itemgetter

from .model import MAX_CELLS, Level
from .names import plural, size_text

__all__ = ["validate", "RULES", "encloses"]

RULES = ("tad", "soko")


def _at(level: Level, p) -> str:
    x, y = p
    s = f"({x}, {y})"
    if level.line is not None:
        s += f" [line {level.line + y}, column {x + 1}]"
    return s


def _list(level: Level, ps, limit: int = 4) -> str:
    ps = sorted(ps, key=lambda p: (p[1], p[0]))
    s = ", ".join(_at(level, p) for p in ps[:limit])
    return s + (f" and {len(ps) - limit} more" if len(ps) > limit else "")


def encloses(level: Level, width: int, height: int) -> bool:
    """True when the character cannot walk (ignoring boxes, which can be
    pushed away, but not walls) out of the ``width`` x ``height`` box from
    ``(0, 0)``.  Time and memory linear in ``width * height`` (one byte a
    cell; each cell is visited at most once)."""
    p = level.player
    if p is None:
        return True
    stride = width + 2  # a ring of cells around the box: reaching it is escaping
    rows = height + 2
    grid = bytearray(stride * rows)  # 0 free, 1 wall or seen, 2 the ring
    grid[:stride] = grid[-stride:] = b"\x02" * stride
    grid[::stride] = grid[stride - 1::stride] = b"\x02" * rows
    for x, y in level.walls:
        if 0 <= x < width and 0 <= y < height:
            grid[(y + 1) * stride + x + 1] = 1
    start = (p[1] + 1) * stride + p[0] + 1
    if grid[start] == 2:
        return False
    grid[start] = 1
    todo = [start]
    while todo:
        i = todo.pop()
        for j in (i - 1, i + 1, i - stride, i + stride):
            v = grid[j]
            if not v:
                grid[j] = 1
                todo.append(j)
            elif v == 2:
                return False
    return True


def validate(level: Level, rules: str = "tad") -> list[str]:
    """Human messages, one per problem; ``[]`` when ``level`` is valid under
    ``rules`` (``"tad"`` or ``"soko"``)."""
    if rules not in RULES:
        raise ValueError(f"rules must be one of {RULES}, not {rules!r}")
    msgs: list[str] = []
    p = level.player
    if p is None:
        msgs.append("no character (player): a level needs exactly one")
    else:
        if p in level.walls:
            msgs.append(f"the character is on a wall at {_at(level, p)}")
        if p in level.boxes:
            msgs.append(f"the character is on a box at {_at(level, p)}")
    wb = level.walls & level.boxes
    if wb:
        msgs.append(f"{plural(len(wb), 'box')} on a wall: {_list(level, wb)}")
    wg = level.walls & level.goals
    if wg:
        msgs.append(f"{plural(len(wg), 'goal')} on a wall: {_list(level, wg)}")
    nb, ng = len(level.boxes), len(level.goals)
    if rules == "tad" and nb != ng:
        msgs.append(f"{plural(nb, 'box')} but {plural(ng, 'goal')}: the numbers must be equal")
    if rules == "soko" and nb < ng:
        msgs.append(f"{plural(nb, 'box')} but {plural(ng, 'goal')}: every goal needs a box")
    if not isinstance(level.bombs, int) or isinstance(level.bombs, bool) or level.bombs < 0:
        msgs.append(f"the bomb count must be a whole number >= 0, not {level.bombs!r}")
    if rules == "soko":
        ps = level.positions()
        neg = [q for q in ps if q[0] < 0 or q[1] < 0] if ps and (
            min(ps)[0] < 0 or min(ps, key=itemgetter(1))[1] < 0) else []
        if neg:
            msgs.append(f"negative coordinates cannot be drawn on a grid: {_list(level, neg)}")
        elif p is not None and p not in level.walls:
            width, height = level.width, level.height
            if width * height > MAX_CELLS:
                msgs.append(f"a {size_text(width, height)} grid is too large to be drawn "
                            f"({width * height:,} cells; at most {MAX_CELLS:,})")
            elif not encloses(level, width, height):
                msgs.append("the character is not enclosed by walls: it can walk "
                            "off the grid")
    return msgs
