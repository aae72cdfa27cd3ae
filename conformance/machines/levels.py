"""The levels the engine plays on ("scenes"), as Hypothesis strategies.

A :class:`Scene` is one level plus what the engine needs around it: a
solution when one is known (so that wins and level advances are reached, not
just hoped for), the bombs (extended game) and, for the ``soko`` profile, the
exact rows given to ``crear_grilla`` (rectangular; ragged only for the
robustness checks).

Sources:

* **open** levels on the infinite grid (tad, extendido): a few walls and
  goals anywhere (negative coordinates included), boxes placed by *reverse
  play* from the solved position, so a solution is known and every part of
  the level shrinks (fewer walls, fewer boxes, fewer pulls).
* **enclosed** grids (every profile): a random room (its outline ragged)
  surrounded by walls, with inner walls, reverse play inside; for ``soko``
  extra boxes beyond the goals (seed 002 allows more boxes than goals), and
  the rows given to ``crear_grilla`` rectangular (all of one length).
* **generated** solvable levels from :func:`levels.generate`.
* **bundled** collections from :func:`levels.load` (small levels only, to
  keep the per-cell comparisons cheap).

Every level drawn lies inside its profile's **domain** (:class:`Domain`,
declared by each profile): exactly the preconditions its seed states,
written down once there (and in ``docs/conformance.md``); :func:`in_domain`
checks a scene against it and guards every source. Only ``robustness=True`` (``--robustness``) draws
``soko`` grids beyond it (ragged rows, rows padded unevenly, fewer boxes than
goals); what those find is only ever a warning.

The reverse play is :func:`levels.generate.reverse_play`; here every pull is
chosen by a Hypothesis draw (that is what makes a failing level shrink),
where :func:`levels.generate` chooses with its own random generator.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from hypothesis import strategies as st

from conformance.machines.boards import Board, draw
from levels.drawing import bounds
from levels.generate import reverse_play as pull_back
from levels.lurd import LETTERS
from spec.tipos import ACCIONES, BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE
from spec import PreconditionError, fisica, grilla
from conformance.translations import _
from levels import LevelError
from levels.xsb import level_from_cells

DIRS = tuple(a.value for a in ACCIONES)
#: LURD letter -> step vector (``levels.lurd``'s letters).
STEP = {letter: a.value for a, letter in LETTERS.items()}


def move_cells(at: tuple[int, int], d: tuple[int, int]) -> frozenset:
    """The cells a move ``d`` of the player at ``at`` can change: its own,
    the next, and the one beyond (where a pushed box lands)."""
    (c, f), (dc, df) = at, d
    return frozenset({(c, f), (c + dc, f + df), (c + 2 * dc, f + 2 * df)})

#: Bundled collections tried (missing ones are skipped).
BUNDLED = ("microban", "tutorial", "seed002", "seed003")
#: Largest bundled level used (width * height).
BUNDLED_MAX_AREA = 64


@dataclass(frozen=True)
class Domain:
    """A profile's input domain: its seed's preconditions on a level, as
    text (for reports and docs; each profile declares its own) and as code
    (:func:`in_domain`). ``grid``: seed 002's grids (rows given to
    ``crear_grilla``, enclosed, rectangular); otherwise seed 000's levels on
    the infinite grid, with a natural number of bombs when ``bombs``."""

    profile: str
    seed: str
    rules: tuple[str, ...]
    grid: bool = False
    bombs: bool = False


def in_domain(domain: Domain, scene: "Scene", robustness: bool = False) -> bool:
    """Whether ``scene`` lies inside ``domain`` (with ``robustness``: the
    seed-002 grid rules that only shape the input, rectangular rows and the
    box count, are waived)."""
    if not domain.grid:
        ok = fisica.nivel_valido(scene.nivel())
        return ok and (not domain.bombs or scene.bombs >= 0)
    rows = scene.desc
    if not rows:
        return False
    if not robustness and (len({len(r) for r in rows}) != 1 or len(scene.boxes) < len(scene.goals)):
        return False
    try:
        g = grilla.crear_grilla(list(rows))
    except PreconditionError:
        return False
    # Boxes and goals enclosed too: every one lies where the player's
    # (enclosed) region could reach, or is walled in on its own.
    return all(_enclosed(p, g) for p in g.cajas | g.objetivos)


def _enclosed(start, g) -> bool:
    seen, todo = {start}, [start]
    while todo:
        c, f = todo.pop()
        if not (0 <= c < g.columnas and 0 <= f < g.filas):
            return False
        for v in ((c + 1, f), (c - 1, f), (c, f + 1), (c, f - 1)):
            if v not in seen and v not in g.paredes:
                seen.add(v)
                todo.append(v)
    return True


@dataclass(frozen=True)
class Position:
    """Where everything is: the walls, boxes, goals (sets of (x, y) squares)
    and the player's square."""

    walls: frozenset
    boxes: frozenset
    goals: frozenset
    player: tuple[int, int]


@dataclass(frozen=True)
class View(Position):
    """The spec's game at one moment, as ``sokoban play`` shows it."""

    bombs: int | None = None        # None: the profile has no bombs
    index: int = 0                  # the level played, in the game's sequence
    won: bool = False               # this level (the last one, in a sequence) is won


@dataclass(frozen=True)
class Scene(Position):
    """One level as the engine plays it."""

    bombs: int = 0
    solution: str = ""                # LURD, lower or upper case
    desc: tuple[str, ...] | None = None   # exact crear_grilla rows (soko)
    source: str = ""

    def nivel(self) -> dict:
        """Seed 000's Nivel."""
        return {PERSONAJE: frozenset({self.player}), CAJAS: self.boxes,
                PAREDES: self.walls, DEPOSITOS: self.goals}

    def nivel_extendido(self) -> dict:
        """Seed 001's level (a Nivel plus bombas)."""
        return {**self.nivel(), BOMBAS: self.bombs}

    def board(self) -> Board:
        return Board(self.walls, self.boxes, self.goals, frozenset({self.player}))

    def rows(self) -> list[str]:
        """The level drawn in XSB (its own bounds; the origin is given by
        :meth:`origin`)."""
        if self.desc is not None:
            return list(self.desc)
        return draw(self.board(), trim=True)

    def origin(self) -> tuple[int, int]:
        """The position of the first character of :meth:`rows`."""
        if self.desc is not None:
            return (0, 0)
        cells = self.board().cells()
        return (min(x for x, _ in cells), min(y for _, y in cells))

    def xsb(self) -> str:
        """The level as XSB text with its origin and bombs when they matter."""
        head = []
        ox, oy = self.origin()
        if (ox, oy) != (0, 0):
            head.append("; " + _("origin ({x}, {y}): the first character is at that "
                                 "position").format(x=ox, y=oy))
        if self.bombs:
            head.append("; " + _("bombs: {n}").format(n=self.bombs))
        body = [r.replace(" ", "-") if self.desc is not None else r for r in self.rows()]
        if self.desc is not None and any(" " in r for r in self.desc):
            head.append("; " + _("'-' is a space of the rows given to crear_grilla"))
        return "\n".join(head + body)

    def to_data(self) -> dict:
        """Plain data that rebuilds this scene exactly (see :func:`from_data`)."""
        data = {"rows": [r.replace(" ", "-") for r in self.rows()],
                "origin": list(self.origin())}
        if self.bombs:
            data["bombs"] = self.bombs
        if self.desc is not None:
            data["soko"] = True
        return data


def from_rows(rows, origin=(0, 0), bombs=0, soko=False, source="replay") -> Scene:
    """A scene from XSB rows (``-`` and ``_`` are floor) placed at ``origin``;
    decoded by :func:`levels.xsb.level_from_cells` (``ValueError`` for a stray
    character or not exactly one player)."""

    rows = [r.replace("-", " ").replace("_", " ") for r in rows]
    ox, oy = origin
    cells = (((x + ox, y + oy), ch) for y, row in enumerate(rows) for x, ch in enumerate(row))
    try:
        lv = level_from_cells(cells)
    except LevelError as e:
        raise ValueError(str(e)) from None
    if lv.player is None:
        raise ValueError("the level has no player, expected one")
    return Scene(lv.walls, lv.boxes, lv.goals, lv.player,
                 bombs=bombs, desc=tuple(rows) if soko else None, source=source)


def from_data(data: dict) -> Scene:
    """The inverse of :meth:`Scene.to_data`."""
    return from_rows(data["rows"], tuple(data.get("origin", (0, 0))),
                     int(data.get("bombs", 0)), bool(data.get("soko", False)))


# ---------------------------------------------------------------- reverse play

def reverse_play(walls, goals, player, picks, inside=None, extra=()):
    """Start solved (boxes on the goals, plus ``extra`` boxes) and play
    backwards with :func:`levels.generate.reverse_play`; each of ``picks``
    (drawn by Hypothesis, so the level shrinks with them) chooses one pull
    among the possible ones (``options[k % len(options)]``). Returns the
    boxes, the player's start and a forward LURD solution that brings every
    box back (so the goals end covered). ``inside``: the cells the player may
    use (default: the bounding box of everything, two cells beyond)."""
    boxes = set(goals) | set(extra)
    if inside is None:
        x0, y0, x1, y1 = _box(set(walls) | boxes | {player}, 2)
        inside = {(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}
    picks = iter(picks)

    def choose(options):
        k = next(picks, None)
        return None if k is None else options[k % len(options)]

    return pull_back(set(inside) - set(walls), boxes, player, choose)


def _box(cells, margin):
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    return (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)


_PULLS = st.lists(st.integers(0, 15), max_size=12)

#: The strategies a draw of a level builds from its cells, kept by what they
#: were built from. Hypothesis validates a strategy object the first time it
#: draws from it (about a tenth of a millisecond), and the same cells come
#: back often (a room's outline, the cells of an open level). A strategy
#: built again from equal arguments is equal to the kept one: the same class
#: and label, and the same draws from the same choices.
_KEPT: dict = {}
_KEPT_MAX = 4096


def _kept(key: tuple, make):
    strategy = _KEPT.get(key)
    if strategy is None:
        if len(_KEPT) >= _KEPT_MAX:
            _KEPT.clear()
        strategy = _KEPT[key] = make()
    return strategy


def _sampled(cells: list):
    """``st.sampled_from(cells)``, kept."""
    return _kept(("sampled", tuple(cells)), lambda: st.sampled_from(cells))


def _some_of(cells: list, max_size: int):
    """``st.frozensets(st.sampled_from(cells), max_size=max_size)``, kept."""
    return _kept(("frozensets", tuple(cells), max_size),
                 lambda: st.frozensets(_sampled(cells), max_size=max_size))


def _goals_and_player(draw_, free: list, min_boxes: int, max_boxes: int):
    """Goals and the player among ``free`` cells: scattered, or (half the
    time, with two or more boxes) in a row with the player at its end, facing
    it, so that pushing a box into another box happens early."""
    if max_boxes >= 2 and draw_(st.booleans()):
        start = draw_(_sampled(free))
        dx, dy = draw_(_sampled(DIRS))
        n = draw_(st.integers(max(2, min_boxes), max_boxes))
        line = [(start[0] + k * dx, start[1] + k * dy) for k in range(n)]
        player = (start[0] - dx, start[1] - dy)
        if all(c in free for c in line) and player in free:
            return line, player
    goals = draw_(_kept(("goals", tuple(free), min_boxes, max_boxes),
                        lambda: st.lists(_sampled(free), min_size=min_boxes,
                                         max_size=max_boxes, unique=True)))
    player = draw_(_sampled([c for c in free if c not in goals]))
    return goals, player


@st.composite
def open_scenes(draw_, min_boxes=0, max_boxes=3):
    """Levels on the infinite grid, not enclosed, possibly off the origin."""
    ox = draw_(st.integers(-4, 3))
    oy = draw_(st.integers(-4, 3))
    cells = [(ox + x, oy + y) for y in range(6) for x in range(6)]
    walls = draw_(_some_of(cells, 10))
    free = [c for c in cells if c not in walls]
    goals, player = _goals_and_player(draw_, free, min_boxes, max_boxes)
    boxes, start, solution = reverse_play(walls, goals, player, draw_(_PULLS))
    return Scene(walls, boxes, frozenset(goals), start, solution=solution, source="open")


@st.composite
def enclosed_scenes(draw_, min_boxes=0, max_boxes=3, extra_boxes=0, soko=False,
                    robustness=False):
    """A room surrounded by walls; ``extra_boxes`` boxes beyond the goals
    (soko). With ``soko``, ``desc`` holds the rows: rectangular (sometimes
    with extra columns of spaces on the right); with ``robustness``, beyond
    seed 002's domain instead: ragged (trailing spaces dropped), padded
    unevenly, or with a goal more than there are boxes; or, in the domain but
    never judged by a plain check (E27), without a goal."""
    height = draw_(st.integers(2, 5))
    width = draw_(st.integers(3, 7))
    interior = set()
    prev = None
    for y in range(height):       # each row: a run of floor, ragged at both ends
        a = draw_(st.integers(0, 2))
        b = draw_(st.integers(min(width - 1, max(a + 1, width - 3)), width - 1))
        if prev is not None and (b < prev[0] or a > prev[1]):   # keep it connected
            a, b = min(a, prev[1]), max(b, prev[0])
        prev = (a, b)
        interior |= {(x + 1, y + 1) for x in range(a, b + 1)}
    border = {(x + dx, y + dy) for x, y in interior for dx in (-1, 0, 1)
              for dy in (-1, 0, 1)} - interior
    cells = sorted(interior)
    inner = draw_(_some_of(cells, len(cells) // 6))
    floor = [c for c in cells if c not in inner]
    goals, player = _goals_and_player(draw_, floor, 0, min(max_boxes, len(floor) - 1))
    if len(goals) < min_boxes and len(floor) - 1 >= min_boxes:
        goals = [c for c in floor if c != player][:min_boxes]
    rest = [c for c in floor if c not in goals]
    extra = []
    if extra_boxes:
        extra = draw_(st.lists(st.sampled_from([c for c in rest if c != player] or [player]),
                               max_size=extra_boxes, unique=True))
        extra = [c for c in extra if c != player]
    walls = frozenset(border) | inner
    boxes, start, solution = reverse_play(walls, goals, player, draw_(_PULLS),
                                          inside=set(floor), extra=extra)
    scene = Scene(walls, boxes, frozenset(goals), start, solution=solution, source="enclosed")
    if soko:
        rows = draw(scene.board(), (0, 0, max(x for x, _ in walls), max(y for _, y in walls)))
        goals = frozenset(goals)
        if not robustness:
            if draw_(st.booleans()):
                rows = [r + "  " for r in rows]             # still rectangular
        else:
            shape = draw_(st.sampled_from(["ragged", "uneven", "goal without box", "no goal"]))
            if shape == "ragged":
                rows = [r.rstrip(" ") for r in rows]
            elif shape == "uneven":
                rows = [r + " " * draw_(st.integers(0, 2)) for r in rows]
            elif shape == "no goal":        # won by the letter (E27): judged only here
                goals, solution = frozenset(), ""
                rows = draw(Scene(walls, boxes, goals, start, source="enclosed").board(),
                            (0, 0, max(x for x, _ in walls), max(y for _, y in walls)))
            else:
                free = [c for c in floor if c not in boxes and c not in goals and c != start]
                if free:
                    goals = goals | {draw_(st.sampled_from(free))}
                    scene = Scene(walls, boxes, goals, start, source="enclosed")
                    rows = draw(scene.board(), (0, 0, max(x for x, _ in walls),
                                                max(y for _, y in walls)))
        scene = Scene(walls, boxes, goals, start, solution=solution,
                      desc=tuple(rows), source="enclosed")
    return scene


# ---------------------------------------------------------- levels' sources

def _levels_module():
    try:
        import levels
    except Exception:       # noqa: BLE001 - a broken levels package: use our sources only
        return None
    return levels


def from_level(level, source: str, soko: bool) -> Scene | None:
    """A scene of a level of :mod:`levels` (None: no player, or cells at negative
    positions); ``soko``: its rows padded for ``crear_grilla``."""
    if level.player is None:
        return None
    solution = level.solutions[0] if getattr(level, "solutions", ()) else ""
    scene = Scene(frozenset(level.walls), frozenset(level.boxes), frozenset(level.goals),
                  tuple(level.player), solution=solution, source=source)
    if any(x < 0 or y < 0 for x, y in scene.board().cells()):
        return None
    if soko:
        scene = Scene(scene.walls, scene.boxes, scene.goals, scene.player,
                      solution=solution, desc=tuple(_soko_rows(scene)), source=source)
    return scene


def _soko_rows(scene: Scene) -> list[str]:
    """The rows of a bundled or generated level for ``crear_grilla``: padded
    with spaces to one width (seed 002's grid is rectangular)."""
    cells = scene.board().cells()
    return draw(scene.board(), (0, 0, max(x for x, _ in cells), max(y for _, y in cells)))


@functools.lru_cache(maxsize=None)
def bundled_scenes_list(soko: bool) -> tuple[Scene, ...]:
    """The small valid levels of the bundled collections (may be empty)."""
    levels = _levels_module()
    load = getattr(levels, "load", None) if levels else None
    if load is None:
        return ()
    out = []
    for name in BUNDLED:
        try:
            found = load(name)
        except Exception:   # noqa: BLE001 - a collection that is not there yet
            continue
        for level in found:
            scene = from_level(level, f"{name} {getattr(level, 'number', '')}".strip(), soko)
            if scene is None:
                continue
            x0, y0, x1, y1 = bounds(scene.board().cells())
            if (x1 - x0 + 1) * (y1 - y0 + 1) > BUNDLED_MAX_AREA:
                continue
            try:
                if soko:
                    grilla.crear_grilla(list(scene.desc))
                elif not fisica.nivel_valido(scene.nivel()):
                    continue
            except PreconditionError:
                continue
            out.append(scene)
    return tuple(out)


@functools.lru_cache(maxsize=512)
def _generated(width: int, height: int, boxes: int, seed: int, soko: bool) -> Scene | None:
    levels = _levels_module()
    generate = getattr(levels, "generate", None) if levels else None
    if generate is None:
        return None
    try:
        level, solution = generate(width, height, boxes, seed)
    except Exception:   # noqa: BLE001 - a generator bug is not the target's fault
        return None
    scene = from_level(level, f"generated {width}x{height} {boxes} boxes seed {seed}", soko)
    if scene is None:
        return None
    return Scene(scene.walls, scene.boxes, scene.goals, scene.player,
                 solution=solution, desc=scene.desc, source=scene.source)


def generated_available() -> bool:
    levels = _levels_module()
    return levels is not None and getattr(levels, "generate", None) is not None


def generated_scenes(min_boxes=1, max_boxes=3, soko=False):
    """Solvable levels from :func:`levels.generate` (none if it is missing)."""
    return st.builds(_generated, st.integers(5, 7), st.integers(5, 7),
                     st.integers(min_boxes, max_boxes), st.integers(0, 10_000),
                     st.just(soko)).filter(lambda s: s is not None)


def scenes(domain: Domain, *, min_boxes: int = 0, max_boxes: int = 3,
           bombs: tuple[int, int] = (0, 0), robustness: bool = False):
    """Every source of levels for a profile of ``domain``, smallest (open)
    first, each level inside it. ``robustness`` (seed 002's grids): only
    grids beyond the domain (see :func:`enclosed_scenes`)."""
    soko = domain.grid
    if robustness and soko:
        return enclosed_scenes(min_boxes, max_boxes, extra_boxes=2, soko=True,
                               robustness=True).filter(
            lambda s: in_domain(domain, s, robustness=True))
    sources = []
    if not soko:
        sources.append(open_scenes(min_boxes, max_boxes))
    sources.append(enclosed_scenes(min_boxes, max_boxes, extra_boxes=2 if soko else 0, soko=soko))
    if max_boxes >= 1 and generated_available():
        sources.append(generated_scenes(max(1, min_boxes), max_boxes, soko))
    bundled = [s for s in bundled_scenes_list(soko)
               if min_boxes <= len(s.goals) and (max_boxes > 0 or not s.boxes)]
    if bundled and max_boxes >= 1:
        sources.append(st.sampled_from(bundled))
    strategy = st.one_of(*sources).filter(lambda s: in_domain(domain, s))
    if bombs != (0, 0):
        strategy = st.builds(with_bombs, strategy, st.integers(*bombs))
    return strategy


def with_bombs(scene: Scene, bombs: int) -> Scene:
    """``scene`` with ``bombs`` bombs."""
    return Scene(scene.walls, scene.boxes, scene.goals, scene.player, bombs=bombs,
                 solution=scene.solution, desc=scene.desc, source=scene.source)
