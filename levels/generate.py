"""Random levels, solvable by construction (reverse play).

The method: build a room (a ring of walls and a few random inner walls that
keep the floor connected), put the boxes on goals and the character on a free
cell, then play *backwards*: the character walks to a box and pulls it, again
and again.  Every pull undone is a push, so reading the reverse game from its
end gives a solution of the level it ends on.  The same random seed always gives the
same level and solution.
"""

from __future__ import annotations

import random

from spec.tipos import ACCIONES

from .lurd import LETTERS
from .model import Level
from .names import plural, size_text
from .prolog import ring

__all__ = ["generate"]

_DIRS = tuple(a.value for a in ACCIONES)
_LETTER = {(a.value[0], a.value[1]): l for a, l in LETTERS.items()}


class _Grid:
    """The cells of ``floor`` (any ints) as ints ``y * width + x`` after a
    shift that makes every coordinate positive, with the floor's neighbour
    lists precomputed (the reverse play's hot loop)."""

    def __init__(self, floor):
        self.ox = min(x for x, _ in floor) - 1
        self.oy = min(y for _, y in floor) - 1
        self.width = max(x for x, _ in floor) - self.ox + 2
        self.floor = frozenset(self.cell(p) for p in floor)
        self.steps = [(dy * self.width + dx, _LETTER[(dx, dy)]) for dx, dy in _DIRS]
        self.vector = {dy * self.width + dx: (dx, dy) for dx, dy in _DIRS}
        self.nbrs = {i: [(i + o, o) for o, _ in self.steps if i + o in self.floor]
                     for i in self.floor}
        self.letter = {o: l for o, l in self.steps}

    def cell(self, p):
        return (p[1] - self.oy) * self.width + (p[0] - self.ox)

    def pos(self, i):
        return (i % self.width + self.ox, i // self.width + self.oy)

    def search(self, start, blocked):
        """Breadth-first search from ``start`` avoiding ``blocked``: returns
        ``{cell: (previous cell, step)}`` for every reachable cell."""
        prev = {start: None}
        frontier = [start]
        nbrs = self.nbrs
        while frontier:
            nxt = []
            for i in frontier:
                for j, o in nbrs[i]:
                    if j not in prev and j not in blocked:
                        prev[j] = (i, o)
                        nxt.append(j)
            frontier = nxt
        return prev

    @staticmethod
    def walk(prev, goal):
        """Steps (offsets) from the search's start to ``goal``."""
        steps = []
        while prev[goal] is not None:
            goal, o = prev[goal]
            steps.append(o)
        return steps[::-1]


def _connected(cells):
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        x, y = stack.pop()
        for dx, dy in _DIRS:
            n = (x + dx, y + dy)
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cells)


_RING = ((-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def _locally_removable(floor, p):
    """True when the floor around ``p`` stays connected without ``p`` through
    its 8 neighbours alone (then the whole floor does too): the floor cells of
    the ring around ``p`` that touch ``p`` all lie in one run of the ring."""
    x, y = p
    on = [(x + dx, y + dy) in floor for dx, dy in _RING]
    if all(on):
        return True
    k = on.index(False)
    runs, in_run = 0, False  # count runs of floor, starting after a gap
    touching_runs = set()
    for step in range(1, 9):
        i = (k + step) % 8
        if on[i]:
            if not in_run:
                runs += 1
                in_run = True
            if i % 2 == 1:  # odd ring indices are the 4 neighbours
                touching_runs.add(runs)
        else:
            in_run = False
    return len(touching_runs) <= 1


def _room(rng, width, height, boxes):
    interior = [(x, y) for y in range(1, height - 1) for x in range(1, width - 1)]
    walls = set()
    target = int(len(interior) * rng.uniform(0.05, 0.2))
    target = min(target, max(0, len(interior) - 2 * boxes - 3))
    floor = set(interior)
    for p in rng.sample(interior, len(interior)):
        if len(walls) >= target:
            break
        if _locally_removable(floor, p) or _connected(floor - {p}):
            walls.add(p)
            floor.discard(p)
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
                  title=f"generated {size_text(width, height)}, {plural(boxes, 'box')}, "
                        f"random seed {seed!r}",
                  metadata={"Generator": "levels.generate"}, solutions=(solution,))
    return level, solution


_INVERSE = {"l": "r", "r": "l", "u": "d", "d": "u"}


def _cancel_back_and_forth(solution: str) -> str:
    """Drop every walk step immediately undone by the next one (``lr``,
    ``ud``...): neither pushes, so the state after both is the state before."""
    out: list[str] = []
    for c in solution:
        if out and c in _INVERSE and out[-1] == _INVERSE[c]:
            out.pop()
        else:
            out.append(c)
    return "".join(out)


def reverse_play(floor, boxes, player, choose):
    """Play backwards from ``boxes`` (usually: boxes on their goals), pulling.

    ``floor``: the cells the character and the boxes may use (any ints,
    negative too). At each turn the possible pulls are listed as
    ``(box, (dx, dy))``, in a fixed order: the character walks (around the
    boxes) to ``box + (dx, dy)`` and pulls the box there, ending at
    ``box + 2·(dx, dy)``; ``choose(options)`` picks one, or returns ``None``
    to stop (play also stops when no pull is possible).

    Returns ``(boxes, player, solution)``: where the boxes and the character
    end, and the forward LURD solution that, played from there, puts every
    box back where it started. The one reverse play of the project:
    :func:`generate` chooses with its random generator; the conformance
    engine chooses from Hypothesis draws, so that its levels shrink.
    """
    g = _Grid(floor)
    boxes = {g.cell(b) for b in boxes}
    here = g.cell(player)
    letter = g.letter
    forward: list[str] = []  # the solution, built backwards (reversed at the end)
    while True:
        prev = g.search(here, boxes)
        options = [(b, o) for b in sorted(boxes) for o, _l in g.steps
                   if b + o in prev and b + 2 * o in g.floor and b + 2 * o not in boxes]
        picked = choose([(g.pos(b), g.vector[o]) for b, o in options]) if options else None
        if picked is None:
            break
        (bx, by), (dx, dy) = picked
        b, o = g.cell((bx, by)), dy * g.width + dx
        stand, to = b + o, b + 2 * o
        walk = g.walk(prev, stand)
        # Backwards: walk to `stand`, then pull: character to `to`, box to
        # `stand`.  Forwards (read from the end): push from `to` towards `b`,
        # then walk the reverse of `walk` back to where the reverse play was.
        boxes.remove(b)
        boxes.add(stand)
        forward.append(letter[-o].upper() + "".join(letter[-s] for s in reversed(walk)))
        here = to
    return frozenset(g.pos(b) for b in boxes), g.pos(here), "".join(reversed(forward))


def _reverse_play(rng, floor, goals, player, pulls):
    """Pull boxes away from the goals (``pulls`` pulls at most), then start
    the character anywhere it can reach; returns (boxes, start, solution,
    number of boxes off their goal)."""
    budget = iter(range(pulls))
    boxes, here, solution = reverse_play(
        floor, goals, player,
        lambda options: rng.choice(options) if next(budget, None) is not None else None)
    g = _Grid(floor)
    blocked = {g.cell(b) for b in boxes}
    prev = g.search(g.cell(here), blocked)
    start = rng.choice(sorted(prev))
    back = g.search(start, blocked)
    walk = "".join(g.letter[s] for s in g.walk(back, g.cell(here)))
    solution = _cancel_back_and_forth(walk + solution)
    return boxes, g.pos(start), solution, len(boxes - goals)
