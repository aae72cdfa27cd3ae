"""Random levels, solvable by construction (reverse play).

The method: build a room (a ring of walls and a few random inner walls that
keep the floor connected), put the boxes on goals and the character on a free
cell, then play *backwards*: the character walks to a box and pulls it, again
and again.  Every pull undone is a push, so reading the reverse game from its
end gives a solution of the level it ends on.  The same seed always gives the
same level and solution.
"""

from __future__ import annotations

import random
from collections import deque

from .lurd import LETTERS
from .model import Level
from .prolog import ring

__all__ = ["generate"]

_DIRS = ((0, -1), (0, 1), (-1, 0), (1, 0))
_LETTER = {(a.value[0], a.value[1]): l for a, l in LETTERS.items()}


def _path(start, goal, blocked, inside):
    """Shortest walk (list of steps) from start to goal avoiding blocked."""
    if start == goal:
        return []
    prev = {start: None}
    q = deque([start])
    while q:
        p = q.popleft()
        for d in _DIRS:
            n = (p[0] + d[0], p[1] + d[1])
            if n in prev or n in blocked or n not in inside:
                continue
            prev[n] = (p, d)
            if n == goal:
                steps = []
                while prev[n] is not None:
                    n, d = prev[n]
                    steps.append(d)
                return steps[::-1]
            q.append(n)
    return None


def _region(start, blocked, inside):
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        for d in _DIRS:
            n = (p[0] + d[0], p[1] + d[1])
            if n not in seen and n not in blocked and n in inside:
                seen.add(n)
                stack.append(n)
    return seen


def _room(rng, width, height, boxes):
    interior = [(x, y) for y in range(1, height - 1) for x in range(1, width - 1)]
    walls = set()
    target = int(len(interior) * rng.uniform(0.05, 0.2))
    target = min(target, max(0, len(interior) - 2 * boxes - 3))
    floor = set(interior)
    for p in rng.sample(interior, len(interior)):
        if len(walls) >= target:
            break
        rest = floor - {p}
        if rest and len(_region(next(iter(rest)), set(), rest)) == len(rest):
            walls.add(p)
            floor = rest
    return walls, floor


def generate(width: int, height: int, boxes: int, seed=0, *,
             pulls: int | None = None) -> tuple[Level, str]:
    """A random ``width`` x ``height`` level (outer walls included) with
    ``boxes`` boxes, and a LURD solution of it.

    Reproducible: the same arguments give the same level and solution.
    ``pulls`` is how many reverse pulls to try (default: about ``8 * boxes``).
    """
    if width < 3 or height < 3:
        raise ValueError("width and height must be at least 3 (the outer walls)")
    if boxes < 0 or boxes + 1 > (width - 2) * (height - 2):
        raise ValueError(f"{boxes} boxes do not fit in a {width}x{height} room")
    rng = random.Random(f"{width}x{height}x{boxes}:{seed!r}")
    best = None
    for _attempt in range(8):
        walls, floor = _room(rng, width, height, boxes)
        cells = rng.sample(sorted(floor), boxes + 1)
        goals = frozenset(cells[:boxes])
        player = cells[boxes]
        result = _reverse_play(rng, floor, goals, player, pulls or 8 * boxes + 4)
        level_boxes, start, solution, moved = result
        if best is None or moved > best[0]:
            best = (moved, walls, goals, level_boxes, start, solution)
        if moved >= boxes:
            break
    _, walls, goals, level_boxes, start, solution = best
    level = Level(walls=frozenset(walls) | ring(width - 2, height - 2),
                  boxes=frozenset(level_boxes), goals=goals, player=start,
                  title=f"generated {width}x{height}, {boxes} boxes, seed {seed!r}",
                  metadata={"Generator": "levels.generate"}, solutions=(solution,))
    return level, solution


def _reverse_play(rng, floor, goals, player, pulls):
    """Pull boxes away from the goals; returns (boxes, start, solution,
    number of boxes off their goal)."""
    boxes = set(goals)
    forward: list[str] = []  # the solution, built backwards (reversed at the end)
    for _ in range(pulls):
        reach = _region(player, boxes, floor)
        options = []
        for b in boxes:
            for d in _DIRS:
                stand = (b[0] + d[0], b[1] + d[1])
                to = (stand[0] + d[0], stand[1] + d[1])
                if stand in reach and to in floor and to not in boxes:
                    options.append((b, d, stand, to))
        if not options:
            break
        options.sort()
        b, d, stand, to = rng.choice(options)
        walk = _path(player, stand, boxes, floor)
        # Backwards: walk to `stand`, then pull: character to `to`, box to `stand`.
        # Forwards (read from the end): push from `to` towards `b`, then walk the
        # reverse of `walk` back to where the reverse play was.
        boxes.remove(b)
        boxes.add(stand)
        push = _LETTER[(-d[0], -d[1])].upper()
        back = "".join(_LETTER[(-s[0], -s[1])] for s in reversed(walk))
        forward.append(push + back)
        player = to
    # A final random walk so the character does not always start next to a box.
    reach = sorted(_region(player, boxes, floor))
    start = rng.choice(reach)
    walk = _path(start, player, boxes, floor)
    forward.append("".join(_LETTER[s] for s in walk))
    solution = "".join(reversed(forward))
    moved = len(boxes - goals)
    return frozenset(boxes), start, solution, moved
