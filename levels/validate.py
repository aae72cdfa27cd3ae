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

from .model import Level

__all__ = ["validate", "RULES", "reachable"]

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


def reachable(level: Level, limit: int | None = None) -> set | None:
    """Cells the character can walk to, ignoring boxes (boxes can be pushed
    away) but not walls.  ``None`` when more than ``limit`` cells are reached
    (the character is not enclosed)."""
    if level.player is None:
        return set()
    seen = {level.player}
    todo = [level.player]
    walls = level.walls
    while todo:
        x, y = todo.pop()
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if q not in seen and q not in walls:
                seen.add(q)
                if limit is not None and len(seen) > limit:
                    return None
                todo.append(q)
    return seen


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
        msgs.append(f"{len(wb)} box(es) on a wall: {_list(level, wb)}")
    wg = level.walls & level.goals
    if wg:
        msgs.append(f"{len(wg)} goal(s) on a wall: {_list(level, wg)}")
    nb, ng = len(level.boxes), len(level.goals)
    if rules == "tad" and nb != ng:
        msgs.append(f"{nb} box(es) but {ng} goal(s): the numbers must be equal")
    if rules == "soko" and nb < ng:
        msgs.append(f"{nb} box(es) but {ng} goal(s): every goal needs a box")
    if not isinstance(level.bombs, int) or isinstance(level.bombs, bool) or level.bombs < 0:
        msgs.append(f"the bomb count must be a whole number >= 0, not {level.bombs!r}")
    if rules == "soko":
        neg = [q for q in level.positions() if q[0] < 0 or q[1] < 0]
        if neg:
            msgs.append(f"negative coordinates cannot be drawn on a grid: {_list(level, neg)}")
        elif p is not None and p not in level.walls:
            area = reachable(level, limit=(level.width + 2) * (level.height + 2))
            if area is None or any(not (0 <= x < level.width and 0 <= y < level.height)
                                   for x, y in area):
                msgs.append("the character is not enclosed by walls: it can walk "
                            "off the grid")
    return msgs
