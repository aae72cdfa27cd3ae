"""Search for the extended game (seed 001): moves plus bombs.

``tirar_bomba`` destroys every wall in the player's row and column, so walls
change and dead squares mean nothing: this is a plain breadth-first search over
(player, boxes, destroyed columns, destroyed rows, bombs left), optimal in the
number of actions (a bomb counts as one action, written ``B``).  It is meant
for small levels; real levels without bombs go through the push search.

A bomb that destroys no wall is never thrown (it leaves the same state with
one bomb fewer).  The board is a finite window of the infinite grid; when the
window's virtual wall ever blocked a move, an exhausted search is reported as
"window", not as a proof.
"""

from __future__ import annotations

from collections import deque

from .board import LETTERS, Board
from .search import Budget, Outcome, path_letters
from .verify import BOMB


def bomb_search(board: Board, bombs: int, budget: Budget) -> Outcome:
    w = board.width
    base_wall, border, offs = board.wall, board.border, board.offsets
    goals = board.goals
    real_walls = [c for c in range(board.size) if base_wall[c] and not border[c]]
    walls_cache = {}

    def walls_for(cols, rows):
        key = (cols, rows)
        grid = walls_cache.get(key)
        if grid is None:
            grid = bytearray(board.size)
            for c in range(board.size):
                if border[c]:
                    grid[c] = 1
            for c in real_walls:
                if c % w not in cols and c // w not in rows:
                    grid[c] = 1
            walls_cache[key] = grid
        return grid

    start = (board.player, board.boxes, frozenset(), frozenset(), bombs)
    parent = {start: None}
    queue = deque([start])
    nodes = 0
    window_hit = False
    upper = LETTERS.upper()
    while queue:
        state = queue.popleft()
        player, boxes, cols, rows, left = state
        if set(boxes) == goals:
            return Outcome("solved", path_letters(parent, state), nodes)
        nodes += 1
        if nodes >= budget.due:
            reason = budget.check(nodes, frontier=len(queue))
            if reason:
                return Outcome(reason, None, nodes)
        wall = walls_for(cols, rows)
        occupied = set(boxes)
        children = []
        for d, o in enumerate(offs):
            m = player + o
            if wall[m]:
                window_hit = window_hit or bool(border[m])
                continue
            if m in occupied:
                t = m + o
                if wall[t] or t in occupied:
                    window_hit = window_hit or bool(border[t])
                    continue
                moved = tuple(sorted(t if c == m else c for c in boxes))
                children.append(((m, moved, cols, rows, left), upper[d]))
            else:
                children.append(((m, boxes, cols, rows, left), LETTERS[d]))
        if left > 0:
            px, py = player % w, player // w
            if any(c % w == px or c // w == py for c in real_walls
                   if wall[c]):
                children.append(((player, boxes, cols | {px}, rows | {py},
                                  left - 1), BOMB))
        for child, letter in children:
            if child not in parent:
                parent[child] = (state, letter)
                queue.append(child)
    return Outcome("window" if window_hit else "exhausted", None, nodes)

