"""Goal-room macros for the push search.

Levels such as the classic XSokoban ones gather their goals in a room the
boxes enter one at a time.  A best-first search then drowns in the many ways
of parking boxes inside the room.  Here:

* :func:`packing_order`: an order in which the goals can be filled, found
  backwards: from the solved position, repeatedly take out the box whose
  goal is nearest to a cell that is not a goal (pulling it, with the other
  goals' boxes as walls); the reverse of the order of removal is a packing
  order (the back of the room first).
* :func:`box_path`: the shortest sequence of legal pushes taking one box to
  a given goal, the player walking between pushes, the other boxes fixed.

On levels with a block of at least ``ROOM_GOALS`` goals, the search adds a
*goal macro* child: when a box is pushed close to the goals, a child where that box goes straight to the first empty goal of the
packing order.  It is an extra child (the ordinary pushes stay), so it
changes which states are tried first, never which exist.
"""

from __future__ import annotations

import heapq

from .board import INF, Board

#: A box pushed to a cell at most this many pushes from a goal triggers the
#: goal macro.
MACRO_RADIUS = 3

#: Goal macros are used when at least this many goals touch each other (all
#: 90 XSokoban levels; 9 of Microban's 155).
ROOM_GOALS = 6

#: At most this many (box cell, player region) states per box path search.
PATH_STATES = 60


def clustered(board: Board) -> bool:
    """Do at least ``ROOM_GOALS`` goals form one block (side by side)?"""
    goals, offs = board.goals, board.offsets
    seen = set()
    for g in goals:
        if g in seen:
            continue
        seen.add(g)
        block = [g]
        for c in block:
            for o in offs:
                m = c + o
                if m in goals and m not in seen:
                    seen.add(m)
                    block.append(m)
        if len(block) >= ROOM_GOALS:
            return True
    return False


def packing_order(board: Board) -> list:
    """Goals in an order they can be filled (see the module's docstring);
    goals that cannot be taken out backwards come first, in cell order."""
    wall, offs, goal = board.wall, board.offsets, board.is_goal
    filled = set(board.goal_list)
    removed = []
    while filled:
        best = None
        for g in sorted(filled):
            others = filled - {g}
            d = _pulls_out(wall, offs, goal, g, others)
            if d is not None and (best is None or d < best[0]):
                best = (d, g)
        if best is None:
            break
        removed.append(best[1])
        filled.discard(best[1])
    return sorted(filled) + list(reversed(removed))


def _pulls_out(wall, offs, goal, g, others):
    """Fewest pulls taking a box from ``g`` to a cell that is not a goal,
    ``others`` acting as walls; None when impossible."""
    dist = {g: 0}
    todo = [g]
    for c in todo:
        for o in offs:
            m, behind = c + o, c + 2 * o
            if (m in dist or wall[m] or wall[behind] or m in others
                    or behind in others):
                continue
            dist[m] = dist[c] + 1
            if not goal[m]:
                return dist[m]
            todo.append(m)
    return None


def box_path(board: Board, occ, seen, box: int, target: int, allowed):
    """Pushes ``[(cell, direction), ...]`` taking the box on ``box`` to
    ``target``: each push legal (``allowed(occ, from, to)``), the player
    starting in the region marked by ``seen``; None if none is found within
    ``PATH_STATES`` states.  ``occ`` marks every box and is left unchanged."""
    wall, offs = board.wall, board.offsets
    if board.push_dist[board.goal_list.index(target)][box] >= INF:
        return None
    occ[box] = 0
    to_target = board.push_dist[board.goal_list.index(target)]
    try:
        start = (box, seen.find(1))
        came = {start: (None, None, 0)}
        # A* over (box cell, player region), by pushes made plus the lone
        # box's push distance to the target (a lower bound).
        frontier = [(to_target[box], 0, box, seen, start)]
        counter = 1
        while frontier and len(came) < PATH_STATES:
            _, _, c, region, key = heapq.heappop(frontier)
            depth = came[key][2] + 1
            for d, o in enumerate(offs):
                t = c + o
                if not region[c - o] or wall[t] or occ[t] or to_target[t] >= INF:
                    continue
                occ[c] = 1
                ok = allowed(occ, c, t)
                occ[c] = 0
                if not ok:
                    continue
                if t == target:
                    pushes = [(c, d)]
                    while came[key][0] is not None:
                        key, step, _ = came[key]
                        pushes.append(step)
                    pushes.reverse()
                    return pushes
                occ[t] = 1
                reach = board.reach(c, occ)
                occ[t] = 0
                nkey = (t, reach.find(1))
                if nkey in came:
                    continue
                came[nkey] = (key, (c, d), depth)
                heapq.heappush(frontier, (depth + to_target[t], counter, t, reach, nkey))
                counter += 1
        return None
    finally:
        occ[box] = 1
