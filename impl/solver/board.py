"""The solver's internal board: a level flattened onto a padded window of cells.

Positions ``(x, y)`` (x the column, y the row growing down, as everywhere in the
project) map to cell indices ``(y - oy) * width + (x - ox)``.  The window is the
bounding box of every wall, box, goal and the player, grown by ``MARGIN`` cells
on each side; the outermost ring of the window is a *virtual* wall.  The grid of
the seeds is infinite, so when the player can reach that ring the level is
*open*: a search confined to the window is then not a proof of anything, and
the searches report an exhausted open window as ``gave_up`` (limit
``"window"``), never as ``unsolvable``.

Precomputed here, once per level:

* ``push_dist[g][c]``: the number of pushes a lone box needs from cell ``c`` to
  goal ``g`` (walls only, the player assumed able to get behind it), by a
  backwards "pull" search from each goal.
* ``dead[c]``: simple dead squares, cells from which no goal can be reached by
  pushes.  A box there can never be on a goal.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE

#: Floor cells added around the bounding box (the last one is the virtual wall).
MARGIN = 2

#: Direction order used everywhere in the solver, with its LURD letters.
LETTERS = "udlr"
STEPS = ((0, -1), (0, 1), (-1, 0), (1, 0))
INF = 1 << 30


class LevelProblem(ValueError):
    """The level cannot be searched at all (no player, overlapping pieces...)."""


@dataclass(frozen=True)
class Pieces:
    """A level as plain sets, whatever it came from."""

    walls: frozenset
    boxes: frozenset
    goals: frozenset
    player: tuple
    bombs: int = 0


def pieces_of(level) -> Pieces:
    """Read a ``levels.Level`` or a spec ``Nivel`` / ``NivelExtendido`` dict."""
    if isinstance(level, dict):
        try:
            personaje = frozenset(level[PERSONAJE])
            walls = frozenset(level[PAREDES])
            boxes = frozenset(level[CAJAS])
            goals = frozenset(level[DEPOSITOS])
        except KeyError as exc:
            raise LevelProblem(f"a Nivel needs the key {exc.args[0]!r}") from None
        bombs = level.get(BOMBAS, 0)
        if len(personaje) != 1:
            raise LevelProblem(
                f"a level needs exactly one player, this one has {len(personaje)}")
        (player,) = personaje
    else:
        try:
            walls, boxes, goals = (frozenset(level.walls), frozenset(level.boxes),
                                   frozenset(level.goals))
            player = level.player
            bombs = getattr(level, "bombs", 0) or 0
        except AttributeError as exc:
            raise LevelProblem(
                f"expected a levels.Level or a Nivel dict, got {type(level).__name__}"
            ) from exc
        if player is None:
            raise LevelProblem("the level has no player")
    player = tuple(player)
    if not isinstance(bombs, int) or isinstance(bombs, bool) or bombs < 0:
        raise LevelProblem(f"the bomb count must be a natural number, got {bombs!r}")
    clashes = []
    if player in walls:
        clashes.append(f"the player {player} is on a wall")
    if player in boxes:
        clashes.append(f"the player {player} is on a box")
    both = sorted(walls & boxes)
    if both:
        clashes.append(f"boxes on walls at {both}")
    if clashes:
        raise LevelProblem("; ".join(clashes))
    return Pieces(walls, boxes, goals, player, bombs)


class Board:
    """Static facts about a level on a finite window of cells."""

    def __init__(self, pieces: Pieces):
        self.pieces = pieces
        every = set(pieces.walls) | pieces.boxes | pieces.goals | {pieces.player}
        xs = [p[0] for p in every]
        ys = [p[1] for p in every]
        self.ox = min(xs) - MARGIN
        self.oy = min(ys) - MARGIN
        self.width = max(xs) - min(xs) + 1 + 2 * MARGIN
        self.height = max(ys) - min(ys) + 1 + 2 * MARGIN
        w, h = self.width, self.height
        self.size = n = w * h
        self.offsets = (-w, w, -1, 1)
        wall = bytearray(n)
        border = bytearray(n)
        for i in range(n):
            x, y = i % w, i // w
            if x == 0 or y == 0 or x == w - 1 or y == h - 1:
                wall[i] = 1
                border[i] = 1
        for p in pieces.walls:
            wall[self.index(p)] = 1
        self.wall = wall
        self.border = border
        self.goals = frozenset(self.index(g) for g in pieces.goals)
        self.is_goal = bytearray(n)
        for g in self.goals:
            self.is_goal[g] = 1
        self.boxes = tuple(sorted(self.index(b) for b in pieces.boxes))
        self.player = self.index(pieces.player)
        # Is the level open: can the player (ignoring boxes) get next to the
        # virtual wall?
        region = self.reach_ignoring_boxes(self.player)
        self.open = any(
            border[c + o] for c in region for o in self.offsets)
        self.floor = region
        #: 1 on the cells the player could reach if there were no boxes.
        self.inside = bytearray(n)
        for c in region:
            self.inside[c] = 1
        self._distances()

    # -- coordinates ------------------------------------------------------
    def index(self, p) -> int:
        return (p[1] - self.oy) * self.width + (p[0] - self.ox)

    def position(self, i: int) -> tuple:
        return (i % self.width + self.ox, i // self.width + self.oy)

    # -- static analysis --------------------------------------------------
    def reach(self, start: int, occupied) -> bytearray:
        """1 on the cells the player can walk to from ``start``, avoiding
        walls and the cells marked in the bytearray ``occupied``."""
        wall, offs = self.wall, self.offsets
        seen = bytearray(self.size)
        seen[start] = 1
        todo = [start]
        for c in todo:
            for o in offs:
                m = c + o
                if not seen[m] and not wall[m] and not occupied[m]:
                    seen[m] = 1
                    todo.append(m)
        return seen

    def reach_ignoring_boxes(self, start: int) -> list:
        seen = self.reach(start, bytearray(self.size))
        return [i for i in range(self.size) if seen[i]]

    def _distances(self) -> None:
        """Push distances from every cell to every goal, and dead squares."""
        wall, offs, n = self.wall, self.offsets, self.size
        self.goal_list = sorted(self.goals)
        self.push_dist = []
        for g in self.goal_list:
            dist = [INF] * n
            if not wall[g]:
                dist[g] = 0
                queue = deque([g])
                while queue:
                    c = queue.popleft()
                    for o in offs:
                        prev, player = c - o, c - 2 * o
                        # the box came from prev, pushed by a player at player
                        if (0 <= player < n and not wall[prev] and not wall[player]
                                and dist[prev] == INF):
                            dist[prev] = dist[c] + 1
                            queue.append(prev)
            self.push_dist.append(dist)
        self.dead = bytearray(n)
        self.nearest = [INF] * n
        for c in range(n):
            best = min((d[c] for d in self.push_dist), default=INF)
            self.nearest[c] = best
            if best >= INF and not wall[c]:
                self.dead[c] = 1

    # -- player paths -----------------------------------------------------
    def path(self, start: int, target: int, occupied) -> str | None:
        """Shortest LURD walk (lowercase) from start to target avoiding walls
        and the cells in ``occupied``; None when there is none."""
        if start == target:
            return ""
        wall, offs = self.wall, self.offsets
        came = {start: None}
        queue = deque([start])
        while queue:
            c = queue.popleft()
            for d, o in enumerate(offs):
                m = c + o
                if wall[m] or m in occupied or m in came:
                    continue
                came[m] = (c, d)
                if m == target:
                    letters = []
                    while came[m] is not None:
                        m, d2 = came[m]
                        letters.append(LETTERS[d2])
                    return "".join(reversed(letters))
                queue.append(m)
        return None
