"""The two searches over a :class:`~impl.solver.board.Board`.

* :func:`move_search`: A* over (player, boxes), one step per move, with a
  transposition table and a consistent heuristic (the minimum-cost matching
  of boxes to goals under push distances: one move lowers it by at most one,
  because a legal push from c to t has dist(c) <= 1 + dist(t)).  The first
  goal state popped is move-optimal.  This is what seed 003's iterative
  deepening attempts, done right: each state is expanded once.
* :func:`push_search`: best-first search over pushes.  A state is the box set
  plus the *normalised* player position (the smallest cell of the region the
  player can reach), so every walk between pushes collapses into one state.
  Pruning: dead squares, freeze deadlocks, boxes that cannot be matched to
  distinct goals, and PI-corrals.  Ordering: ``g + weight * h`` with ``h`` the
  minimum-cost perfect matching of boxes to goals under push distances
  (Hungarian algorithm, updated incrementally from the parent's), a
  portfolio of weights, tunnel macros and goal macros (``goals.py``).
  Solutions are not push-optimal.

Both return a :class:`Outcome`; an exhausted search is a proof of
unsolvability only on a closed board (see ``Board.open``).

Every pruning rule is sound only when boxes and goals are equally many; the
caller (``impl.solver.api``) settles the other cases before searching.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass

from . import goals as goal_rooms
from .board import INF, LETTERS, Board

#: Weight of the lower bound in the push search's ordering ``g + w * h``.
PUSH_WEIGHT = 6

#: The weights of the push search's portfolio (see ``push_search``): the
#: first runs alone for ``PORTFOLIO_DELAY`` expanded nodes (most levels are
#: solved by then), then all of them in turns, each taking
#: ``PORTFOLIO_SHARES`` turns per round (the first weight solves most of the
#: hard levels too, so it keeps half of the nodes).
PUSH_WEIGHTS = (PUSH_WEIGHT, 2, 15)
PORTFOLIO_SHARES = (2, 1, 1)
PORTFOLIO_DELAY = 16384

#: Matchings kept for configurations generated but not yet expanded.
MATCHING_CACHE = 200_000

#: Seconds between two calls of the progress callback.
PROGRESS_INTERVAL = 1.0

#: How often (in expanded nodes) the limits and the progress callback are polled.
POLL = 512


@dataclass
class Outcome:
    """What a search found: ``kind`` is "solved", "exhausted", "time" or "nodes"."""

    kind: str
    lurd: str | None
    nodes: int


class Budget:
    """Time and node limits, plus the optional progress callback."""

    def __init__(self, time_limit, node_limit, progress, interval=None):
        if interval is None:
            interval = PROGRESS_INTERVAL
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.node_limit = node_limit
        self.progress = progress
        self.interval = interval
        self._next_report = self.start + interval
        #: The node count at which the searches must call ``check`` next.
        self.due = POLL if node_limit is None else min(POLL, node_limit)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def exclude(self, seconds: float) -> None:
        """Leave ``seconds`` just spent out of the time used (a one-off cost
        that is not search, such as building the native kernel)."""
        self.start += seconds
        if self.deadline is not None:
            self.deadline += seconds

    def check(self, nodes: int, **info) -> str | None:
        """The limit reached ("time" or "nodes"), or None; reports progress."""
        self.due = nodes + POLL
        if self.node_limit is not None:
            self.due = min(self.due, self.node_limit)
        if self.node_limit is not None and nodes >= self.node_limit:
            return "nodes"
        now = time.perf_counter()
        if self.deadline is not None and now >= self.deadline:
            return "time"
        if self.progress is not None and now >= self._next_report:
            self._next_report = now + self.interval
            self.report(nodes, **info)
        return None

    def report(self, nodes: int, **info) -> None:
        """Give the progress callback the statistics now (``check`` calls it
        once an interval; the native kernel's own progress lines, which it
        writes once an interval, come through here as they arrive)."""
        if self.progress is None:
            return
        elapsed = time.perf_counter() - self.start
        self.progress({"nodes": nodes, "elapsed": elapsed,
                       "nodes_per_second": nodes / elapsed if elapsed else 0.0,
                       **info})


# -- deadlocks ---------------------------------------------------------------

def _frozen(board: Board, occ, c: int, tmp: frozenset) -> bool:
    """Can the box on ``c`` never move again?  Cells in ``tmp`` count as walls
    (boxes already assumed frozen further up the recursion)."""
    wall, dead = board.wall, board.dead
    for o in (1, board.width):
        a, b = c - o, c + o
        if wall[a] or wall[b] or a in tmp or b in tmp:
            continue  # blocked on this axis
        if dead[a] and dead[b]:
            continue  # moving along this axis lands on a dead square
        inner = tmp | {c}
        if occ[a] and _frozen(board, occ, a, inner):
            continue
        if occ[b] and _frozen(board, occ, b, inner):
            continue
        return False
    return True


def freeze_deadlock(board: Board, occ, c: int) -> bool:
    """After a push onto ``c`` (``occ`` marks every box, ``c`` included): is
    some box not on a goal now frozen (the pushed box or a neighbour)?"""
    goal = board.is_goal
    empty = frozenset()
    if not goal[c]:
        return _frozen(board, occ, c, empty)
    if not _frozen(board, occ, c, empty):
        return False
    for o in board.offsets:
        m = c + o
        if occ[m] and not goal[m] and _frozen(board, occ, m, empty):
            return True
    return False


def push_allowed(board: Board, occ, b: int, t: int) -> bool:
    """May the box on ``b`` be pushed onto the neighbouring ``t``?  Not into a
    wall, a box or a dead square, nor into a freeze deadlock."""
    if board.wall[t] or occ[t] or board.dead[t]:
        return False
    occ[b] = 0
    occ[t] = 1
    blocked = freeze_deadlock(board, occ, t)
    occ[t] = 0
    occ[b] = 1
    return not blocked


# -- lower bound ---------------------------------------------------------------

def matching_bound(board: Board, boxes) -> int:
    """Minimum total push distance over perfect matchings of boxes to goals
    (Hungarian algorithm, O(k^3)); ``INF`` when no perfect matching exists."""
    return Matching(board, boxes).total


class Matching:
    """The minimum-cost perfect matching of ``boxes`` (rows) to the goals
    (columns) under push distances, with its dual potentials, so that the
    bound of a configuration one push away is found in O(k^2) by
    :meth:`moved` instead of O(k^3) from scratch."""

    __slots__ = ("board", "boxes", "u", "v", "p", "total")

    def __init__(self, board: Board, boxes):
        self.board = board
        self.boxes = boxes
        n = len(boxes)
        self.u = [0] * (n + 1)
        self.v = [0] * (n + 1)
        self.p = [0] * (n + 1)  # p[j]: the row (1-based) matched to column j
        self.total = 0
        if n == 0:
            return
        dists = board.push_dist
        cost = [[d[b] for d in dists] for b in boxes]
        for row in cost:  # cheap exit: a box that reaches no goal
            if min(row) >= INF:
                self.total = INF
                return
        for i in range(1, n + 1):
            _augment(cost, self.u, self.v, self.p, i)
        total = sum(cost[self.p[j] - 1][j - 1] for j in range(1, n + 1))
        self.total = INF if total >= INF else total

    def moved(self, b: int, t: int) -> "Matching":
        """The matching after the box on ``b`` moves to ``t`` (its rows keep
        this matching's order, ``t`` in the place of ``b``)."""
        boxes = self.boxes
        i = boxes.index(b)
        child_boxes = boxes[:i] + (t,) + boxes[i + 1:]
        if self.total >= INF or self.u is None:
            return Matching(self.board, child_boxes)
        dists = self.board.push_dist
        new_row = [d[t] for d in dists]
        child = Matching.__new__(Matching)
        child.board = self.board
        child.boxes = child_boxes
        if min(new_row) >= INF:
            child.u = child.v = child.p = None
            child.total = INF
            return child
        u, v, p = self.u[:], self.v[:], self.p[:]
        r = i + 1
        n = len(v) - 1
        for j in range(1, n + 1):
            if p[j] == r:
                p[j] = 0
                break
        u[r] = min(new_row[j - 1] - v[j] for j in range(1, n + 1))
        _augment(_LazyCost(dists, child_boxes, r, new_row), u, v, p, r)
        total = 0
        for j in range(1, n + 1):
            total += dists[j - 1][child_boxes[p[j] - 1]]
        child.u, child.v, child.p = u, v, p
        child.total = INF if total >= INF else total
        return child


class _LazyCost:
    """Rows of the cost matrix, built when the augmentation asks for them."""

    __slots__ = ("dists", "boxes", "r", "new_row", "rows")

    def __init__(self, dists, boxes, r, new_row):
        self.dists, self.boxes, self.r, self.new_row = dists, boxes, r, new_row
        self.rows = {}

    def __getitem__(self, i):
        if i == self.r - 1:
            return self.new_row
        row = self.rows.get(i)
        if row is None:
            b = self.boxes[i]
            row = self.rows[i] = [d[b] for d in self.dists]
        return row


def _replace(boxes, i, t):
    return tuple(sorted(boxes[:i] + boxes[i + 1:] + (t,)))


def _augment(cost, u, v, p, i) -> None:
    """One phase of the Hungarian algorithm (shortest augmenting path with
    potentials): matches the free row ``i``, keeping ``u``/``v`` feasible."""
    n = len(v) - 1
    big = INF * 4
    way = [0] * (n + 1)
    minv = [big] * (n + 1)
    used = [False] * (n + 1)
    rng = range(1, n + 1)
    p[0] = i
    j0 = 0
    while True:
        used[j0] = True
        i0 = p[j0]
        row = cost[i0 - 1]
        ui0 = u[i0]
        delta = big
        j1 = 0
        for j in rng:
            if not used[j]:
                cur = row[j - 1] - ui0 - v[j]
                if cur < minv[j]:
                    minv[j] = cur
                    way[j] = j0
                if minv[j] < delta:
                    delta = minv[j]
                    j1 = j
        for j in range(n + 1):
            if used[j]:
                u[p[j]] += delta
                v[j] -= delta
            else:
                minv[j] -= delta
        j0 = j1
        if p[j0] == 0:
            break
    while j0:
        j1 = way[j0]
        p[j0] = p[j1]
        j0 = j1


# -- PI-corrals ------------------------------------------------------------------

def pi_corral_pushes(board: Board, occ, seen, boxes):
    """The pushes to generate when some PI-corral exists, else None.

    A corral is a connected area of free cells the player cannot reach; its
    barrier is the boxes next to it.  It is an *I-corral* when every push of a
    barrier box the player can make now goes into the area, and a *PI-corral*
    when, besides, every push of a barrier box into the area can be made now
    (the player reaches the cell behind it).  While a PI-corral is unfinished
    (a goal inside it, or a barrier box off a goal) some push into it is
    needed before anything else matters, so only those pushes are generated
    (of the PI-corral with fewest of them).  Pushes onto dead squares count
    as impossible.  Conservative choices: an area is judged on its own (no
    merging), and any barrier push made from neither the player's region nor
    the area itself (from another area, or from a cell holding a box), or
    from the player's region into anything but the area, disqualifies it.
    """
    dead, goal, offs = board.dead, board.is_goal, board.offsets
    inside = board.inside
    area_of = {}
    areas = 0
    best = None
    index = {b: i for i, b in enumerate(boxes)}
    for b in boxes:
        for o in offs:
            start = b + o
            if not inside[start] or occ[start] or seen[start] or start in area_of:
                continue
            areas += 1
            aid = areas
            cells = [start]
            area_of[start] = aid
            barrier = set()
            for c in cells:
                for o2 in offs:
                    m = c + o2
                    if not inside[m] or m in area_of:
                        continue
                    if occ[m]:
                        barrier.add(m)
                    elif not seen[m]:
                        area_of[m] = aid
                        cells.append(m)
            if best is not None and len(best) == 0:
                continue
            unfinished = any(goal[c] for c in cells) or any(
                not goal[x] for x in barrier)
            if not unfinished:
                continue
            pushes = []
            ok = True
            for x in barrier:
                for d, o2 in enumerate(offs):
                    t, pc = x + o2, x - o2
                    if not inside[t] or occ[t] or dead[t] or not inside[pc]:
                        continue  # impossible push
                    if seen[pc]:
                        if area_of.get(t) != aid:
                            ok = False  # I fails: a push that stays outside
                            break
                        pushes.append((index[x], x, d))
                    elif area_of.get(pc) != aid:
                        # Made from neither the player's region nor the inside
                        # of this area (another area, or behind a box): it
                        # may become possible without entering this corral.
                        ok = False
                        break
                    # else: a push from inside the area, which needs a push
                    # into it first.
                if not ok:
                    break
            if ok and (best is None or len(pushes) < len(best)):
                best = pushes
    return best


# -- push-level search ---------------------------------------------------------

def push_search(board: Board, budget: Budget, weight: int | None = None,
                corrals: bool = True, tunnels: bool = True) -> Outcome:
    """Best-first search over pushes; returns the solution as LURD.

    Without ``weight``, a portfolio: one search per weight in
    ``PUSH_WEIGHTS`` (the first alone for ``PORTFOLIO_DELAY`` nodes), run in
    turns of ``POLL`` expanded nodes, until one of them finds a solution
    (different weights solve different levels).

    With ``tunnels``, a push that leaves the box and the player in a
    corridor (walls on both sides of both, across the push) goes on until
    the box leaves it (a tunnel macro).  That cuts the search a lot but is
    not a proof of anything: a search with macros that is exhausted is run
    again without them, and only an exhausted search without them is
    reported as "exhausted"."""
    weights = PUSH_WEIGHTS if weight is None else (weight,)
    shares = PORTFOLIO_SHARES if weight is None else (1,)
    runs = [[w, tunnels, _push_search(board, w, corrals, tunnels), 0]
            for w in weights[:1]]
    waiting = list(weights[1:])
    total = 0
    while True:
        if waiting and total >= PORTFOLIO_DELAY:
            runs.extend([w, tunnels, _push_search(board, w, corrals, tunnels), 0]
                        for w in waiting)
            waiting = []
        for run in (r for r, k in zip(runs, shares) for _ in range(k)):
            out = next(run[2])
            if isinstance(out, Outcome):
                total += out.nodes - run[3]
                if out.kind == "solved":
                    return Outcome("solved", out.lurd, total)
                if not run[1]:
                    return Outcome("exhausted", None, total)
                run[1] = False  # exhausted with macros: no proof, again without
                run[2] = _push_search(board, run[0], corrals, False)
                run[3] = 0
            else:
                total += out - run[3]
                run[3] = out
            if total >= budget.due:
                reason = budget.check(total)
                if reason:
                    return Outcome(reason, None, total)


def corridors(board: Board) -> list:
    """``corridors(board)[d][c]``: walls on both sides of ``c`` across
    direction ``d``."""
    wall, offs = board.wall, board.offsets
    out = []
    for d in range(4):
        across = offs[2:] if d < 2 else offs[:2]
        row = bytearray(board.size)
        for c in range(board.size):
            if not wall[c] and all(wall[c + a] for a in across):
                row[c] = 1
        out.append(row)
    return out


def _push_search(board: Board, weight: int, corrals: bool, tunnels: bool):
    """One best-first search, as a generator: yields its count of expanded
    nodes every ``POLL`` nodes, and its :class:`Outcome` last."""
    goals = board.goals
    goal = board.is_goal
    start_boxes = board.boxes
    if set(start_boxes) == goals:
        yield Outcome("solved", "", 0)
        return
    offs, n = board.offsets, board.size
    h0 = matching_bound(board, start_boxes)
    if h0 >= INF:
        yield Outcome("exhausted", None, 0)
        return
    corridor = corridors(board) if tunnels else None
    hcache = {start_boxes: h0}
    # Matchings of generated configurations, to derive their children's
    # bounds incrementally when they are expanded (oldest dropped first).
    mcache = {}
    # closed: (boxes, normalised player) -> (parent key, pushes made from the
    # parent: ((box cell, direction), ...))
    closed = {}
    # (priority, -pushes, tie-break, pushes, boxes, player, parent key,
    #  pushes made from the parent)
    heap = [(weight * h0, 0, 0, 0, start_boxes, board.player, None, ())]
    order = (goal_rooms.packing_order(board)
             if tunnels and goal_rooms.clustered(board) else None)
    nearest = board.nearest
    radius = goal_rooms.MACRO_RADIUS

    def allowed(occ, b, t):
        return push_allowed(board, occ, b, t)
    # boxes -> the player regions already expanded with those boxes: an
    # entry whose player cell lies in one of them is a closed state, skipped
    # without computing its region again.
    regions = {}
    counter = 1
    nodes = 0
    occ = bytearray(n)
    while heap:
        _, _, _, g, boxes, player, parent, made = heapq.heappop(heap)
        done = regions.get(boxes)
        if done is not None and any(r[player] for r in done):
            continue
        for b in boxes:
            occ[b] = 1
        seen = board.reach(player, occ)  # the player's region
        key = (boxes, seen.find(1))
        closed[key] = (parent, made)
        if done is None:
            regions[boxes] = [seen]
        else:
            done.append(seen)
        nodes += 1
        if nodes % POLL == 0:
            yield nodes
        matching = mcache.pop(boxes, None)
        candidates = pi_corral_pushes(board, occ, seen, boxes) if corrals else None
        if candidates is None:
            candidates = [(i, b, d) for i, b in enumerate(boxes)
                          for d, o in enumerate(offs) if seen[b - o]]
        else:
            candidates = list(candidates)
        if order is not None and made:
            # A goal macro for the box just pushed, once it is near the goals.
            c, d = made[-1]
            b = c + offs[d]
            target = next((x for x in order if not occ[x]), None)
            if target is not None and not goal[b] and nearest[b] <= radius:
                path = goal_rooms.box_path(board, occ, seen, b, target, allowed)
                if path is not None:
                    candidates.append((boxes.index(b), b, tuple(path)))
        for i, b, d in candidates:
            if d.__class__ is tuple:  # a goal macro
                made = d
                t = target
                last = made[-1][0]
                steps = len(made)
                d = made[-1][1]
            else:
                made = None
                o = offs[d]
                t = b + o
                if not push_allowed(board, occ, b, t):
                    continue
                steps = 1
                last = b  # the player's cell after the pushes
            if tunnels and made is None:
                corr = corridor[d]
                if corr[t] and corr[b] and not goal[t]:
                    occ[b] = 0
                    occ[t] = 1
                    while corr[t] and corr[last] and not goal[t]:
                        nt = t + o
                        if not push_allowed(board, occ, t, nt):
                            break
                        occ[t] = 0
                        occ[nt] = 1
                        last, t = t, nt
                        steps += 1
                    occ[t] = 0
                    occ[b] = 1
            if made is None:
                made = tuple((b + k * o, d) for k in range(steps))
            child = boxes[:i] + boxes[i + 1:]
            child = tuple(sorted(child + (t,)))
            h = hcache.get(child)
            if h is None:
                if matching is None:
                    matching = Matching(board, boxes)
                m = matching.moved(b, t)
                h = hcache[child] = m.total
                if h < INF:
                    if len(mcache) >= MATCHING_CACHE:
                        del mcache[next(iter(mcache))]
                    mcache[child] = m
            if h >= INF:
                continue
            g1 = g + steps
            if h == 0 and set(child) == goals:
                for c in boxes:
                    occ[c] = 0
                pushes = _pushes_to(closed, key) + list(made)
                yield Outcome("solved", _pushes_to_lurd(board, pushes), nodes)
                return
            heapq.heappush(heap, (g1 + weight * h, -g1, counter, g1,
                                  child, last, key, made))
            counter += 1
        for b in boxes:
            occ[b] = 0
    yield Outcome("exhausted", None, nodes)


def _pushes_to(closed, key) -> list:
    pushes = []
    while True:
        parent, made = closed[key]
        if parent is None:
            break
        pushes.extend(reversed(made))
        key = parent
    pushes.reverse()
    return pushes


def _pushes_to_lurd(board: Board, pushes) -> str:
    """Full LURD for a list of (box cell, direction) pushes, by shortest
    player walks between them."""
    boxes = set(board.boxes)
    player = board.player
    out = []
    for b, d in pushes:
        o = board.offsets[d]
        walk = board.path(player, b - o, boxes)
        if walk is None:  # pragma: no cover - the search guarantees a walk
            raise AssertionError("internal error: no walk to a push")
        out.append(walk)
        out.append(LETTERS[d].upper())
        boxes.remove(b)
        boxes.add(b + o)
        player = b
    return "".join(out)


# -- move-optimal search ---------------------------------------------------------

def move_search(board: Board, budget: Budget) -> Outcome:
    """A* over single moves; the solution found is move-optimal."""
    goals = board.goals
    wall, offs, n = board.wall, board.offsets, board.size
    start = (board.player, board.boxes)
    hcache = {}

    def bound(boxes):
        h = hcache.get(boxes)
        if h is None:
            h = hcache[boxes] = matching_bound(board, boxes)
        return h

    h0 = bound(board.boxes)
    if h0 >= INF:
        return Outcome("exhausted", None, 0)
    best_g = {start: 0}
    parent = {start: None}
    heap = [(h0, 0, 0, start)]  # (f, -g, tie-break, state): deeper first on ties
    counter = 1
    nodes = 0
    occ = bytearray(n)
    upper = LETTERS.upper()
    while heap:
        f, neg_g, _, state = heapq.heappop(heap)
        g = -neg_g
        if best_g.get(state, -1) != g:
            continue  # a stale entry: a shorter way here was found
        player, boxes = state
        if set(boxes) == goals:
            return Outcome("solved", path_letters(parent, state), nodes)
        nodes += 1
        if nodes >= budget.due:
            reason = budget.check(nodes, frontier=len(heap), moves=g)
            if reason:
                return Outcome(reason, None, nodes)
        for b in boxes:
            occ[b] = 1
        g1 = g + 1
        hbase = f - g
        for d, o in enumerate(offs):
            m = player + o
            if wall[m]:
                continue
            if occ[m]:
                t = m + o
                if not push_allowed(board, occ, m, t):
                    continue
                child_boxes = tuple(sorted([t if c == m else c for c in boxes]))
                h = bound(child_boxes)
                if h >= INF:
                    continue
                letter = upper[d]
            else:
                child_boxes = boxes
                h = hbase
                letter = LETTERS[d]
            child = (m, child_boxes)
            if best_g.get(child, INF) <= g1:
                continue
            best_g[child] = g1
            parent[child] = (state, letter)
            heapq.heappush(heap, (g1 + h, -g1, counter, child))
            counter += 1
        for b in boxes:
            occ[b] = 0
    return Outcome("exhausted", None, nodes)


def path_letters(parent, state) -> str:
    """The letters from the start to ``state`` in a table of
    ``state -> (previous state, letter)`` (the start maps to None)."""
    letters = []
    while parent[state] is not None:
        state, letter = parent[state]
        letters.append(letter)
    return "".join(reversed(letters))
