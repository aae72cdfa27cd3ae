"""The solver against the spec: hand-made levels, proofs of unsolvability, the
extended game, and move-optimality checked against a brute-force breadth-first
search that steps ``spec.juego`` itself."""

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from impl.solver import BOMB, LevelProblem, solve
from spec import juego, sokoban
from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE, Accion

ACTION = {"u": Accion.ARRIBA, "d": Accion.ABAJO, "l": Accion.IZQUIERDA,
          "r": Accion.DERECHA}


def drawn(*rows, bombs=None):
    """A Nivel from XSB-style rows (test fixtures only)."""
    walls, boxes, goals, player = set(), set(), set(), set()
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                walls.add((x, y))
            if ch in "$*":
                boxes.add((x, y))
            if ch in ".*+":
                goals.add((x, y))
            if ch in "@+":
                player.add((x, y))
    n = {PERSONAJE: frozenset(player), CAJAS: frozenset(boxes),
         PAREDES: frozenset(walls), DEPOSITOS: frozenset(goals)}
    if bombs is not None:
        n[BOMBAS] = bombs
    return n


def replays(nivel, lurd):
    """Independent replay through spec.juego: does the LURD complete the level,
    with uppercase exactly on pushes?"""
    j = juego.iniciar(nivel)
    for letter in lurd:
        before = juego.estado(j)
        j = juego.step(j, ACTION[letter.lower()])
        after = juego.estado(j)
        if before[PERSONAJE] == after[PERSONAJE]:
            return False
        if (before[CAJAS] != after[CAJAS]) != letter.isupper():
            return False
    return juego.completado(j)


def reachable_games(nivel, cap=200_000):
    """Every spec.juego state reachable from the level's start, each once, with
    its distance in moves, in breadth-first order."""
    j0 = juego.iniciar(nivel)
    start = juego.estado(j0)
    seen = {(start[PERSONAJE], start[CAJAS])}
    queue = deque([(j0, 0)])
    while queue:
        j, depth = queue.popleft()
        yield j, depth
        for a in ACTION.values():
            k = juego.step(j, a)
            e = juego.estado(k)
            key = (e[PERSONAJE], e[CAJAS])
            if key in seen:
                continue
            seen.add(key)
            assert len(seen) < cap, "brute force too large: shrink the strategy"
            queue.append((k, depth + 1))


def brute_force_moves(nivel, cap=200_000):
    """Fewest moves to complete the level by BFS over spec.juego states (None
    when no solution exists)."""
    return next((depth for j, depth in reachable_games(nivel, cap) if juego.completado(j)), None)


CORRIDOR = drawn("#######",
                 "#@$  .#",
                 "#######")


@pytest.mark.parametrize("method", ["auto", "moves", "pushes"])
def test_corridor_solved_and_verified(method):
    r = solve(CORRIDOR, method=method)
    assert r.status == "solved"
    assert r.solution == "RRR"
    assert (r.moves, r.pushes) == (3, 3)
    assert replays(CORRIDOR, r.solution)


def test_already_solved_level_has_empty_solution():
    n = drawn("#####",
              "#@* #",
              "#####")
    r = solve(n)
    assert r.status == "solved" and r.solution == ""


def test_push_search_walks_around():
    # The player must walk round the box to push it left, then up.
    n = drawn("#######",
              "#.    #",
              "#  $  #",
              "#   @ #",
              "#######")
    for method in ("moves", "pushes"):
        r = solve(n, method=method)
        assert r.status == "solved" and replays(n, r.solution)
    assert solve(n, method="moves").moves == brute_force_moves(n)


UNSOLVABLE = {
    "box in a corner": drawn("#####",
                             "#$  #",
                             "#  .#",
                             "# @ #",
                             "#####"),
    "box behind the player's back in a corridor": drawn("#######",
                                                        "#.@ $ #",
                                                        "#######"),
    "two boxes side by side against a wall": drawn("######",
                                                   "# $$ #",
                                                   "#    #",
                                                   "# .. #",
                                                   "#@   #",
                                                   "######"),
}


@pytest.mark.parametrize("name", sorted(UNSOLVABLE))
@pytest.mark.parametrize("method", ["moves", "pushes"])
def test_small_unsolvable_levels_are_proved(name, method):
    n = UNSOLVABLE[name]
    assert brute_force_moves(n) is None  # the oracle agrees it is unsolvable
    r = solve(n, method=method)
    assert r.status == "unsolvable" and r.solution is None and r.limit is None


def test_open_level_is_never_claimed_unsolvable():
    # No walls at all: the grid is infinite, so exhausting a window proves
    # nothing.  (This level is solvable: it must be solved.)
    n = drawn("@$ .")
    r = solve(n)
    assert r.status == "solved" and replays(n, r.solution)
    # A box on an open plane with its goal beside it along the other axis.
    m = {PERSONAJE: frozenset({(0, 0)}), CAJAS: frozenset({(1, 1)}),
         PAREDES: frozenset(), DEPOSITOS: frozenset({(3, 3)})}
    r = solve(m, method="pushes")
    assert r.status == "solved" and replays(m, r.solution)


THREE_BOXES = drawn("########",
                    "#      #",
                    "# $$$  #",
                    "#  @   #",
                    "# ...  #",
                    "########")


def test_node_limit_gives_up_and_says_so():
    """The limit, not a tuning: no search solves three boxes in five nodes
    (each node is one move, and the shortest solution is longer)."""
    n = THREE_BOXES
    r = solve(n, node_limit=5, method="moves")
    assert r.nodes == 5
    assert r.status == "gave_up" and r.limit == "nodes" and r.solution is None


def test_progress_is_reported():
    n = THREE_BOXES
    seen = []
    solve(n, node_limit=5000, method="moves", progress=seen.append)
    # the callback is rate-limited to one call a second: it may not fire on a
    # fast machine, but when it does it carries the statistics
    for info in seen:
        assert {"nodes", "elapsed", "nodes_per_second"} <= set(info)


@pytest.mark.parametrize("bad, message", [
    ({PERSONAJE: frozenset(), CAJAS: frozenset(), PAREDES: frozenset(),
      DEPOSITOS: frozenset()}, "exactly one player"),
    (drawn("#@$ #"), "1 boxes but 0 goals"),
    ({**drawn("#@ #"), DEPOSITOS: frozenset({(0, 0)}), CAJAS: frozenset({(2, 0)})},
     "goals on walls"),
    ({CAJAS: frozenset()}, "needs the key"),
])
def test_invalid_levels_raise_a_clear_error(bad, message):
    with pytest.raises(LevelProblem, match=message):
        solve(bad)


def test_unknown_method_is_refused():
    with pytest.raises(ValueError, match="method"):
        solve(CORRIDOR, method="fastest")


# -- the extended game -----------------------------------------------------------

def test_bombs_open_the_way_when_nothing_else_does():
    # The goal is walled off; one bomb in the player's row clears the way.
    n = drawn("#######",
              "#@$#. #",
              "#######", bombs=1)
    r = solve(n)
    assert r.status == "solved" and BOMB in r.solution and r.bombs == 1
    s = sokoban.nuevo_soko(n)
    for letter in r.solution:
        s = sokoban.tirar_bomba(s) if letter == BOMB else sokoban.mover(
            s, ACTION[letter.lower()])
    assert sokoban.gano(s)


def test_bomb_free_solution_preferred():
    n = {**CORRIDOR, BOMBAS: 2}
    r = solve(n)
    assert r.status == "solved" and BOMB not in r.solution


def test_without_bombs_the_walled_goal_is_unsolvable():
    n = drawn("#######",
              "#@$#. #",
              "#######", bombs=0)
    assert solve(n).status == "unsolvable"


# -- properties --------------------------------------------------------------------

@st.composite
def tiny_levels(draw, max_w=4, max_h=3, max_boxes=2):
    """Closed levels: an interior of at most max_w x max_h cells with random
    inner walls, a player, k boxes and k goals."""
    w = draw(st.integers(2, max_w))
    h = draw(st.integers(1, max_h))
    cells = [(x, y) for x in range(1, w + 1) for y in range(1, h + 1)]
    inner = draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 3))
    free = [c for c in cells if c not in inner]
    k = draw(st.integers(0, min(max_boxes, len(free) - 1)))
    chosen = draw(st.permutations(free))
    player, boxes = chosen[0], chosen[1:1 + k]
    goals = draw(st.lists(st.sampled_from(free), min_size=k, max_size=k, unique=True))
    border = ({(x, 0) for x in range(w + 2)} | {(x, h + 1) for x in range(w + 2)}
              | {(0, y) for y in range(h + 2)} | {(w + 1, y) for y in range(h + 2)})
    return {PERSONAJE: frozenset({player}), CAJAS: frozenset(boxes),
            PAREDES: frozenset(border | inner), DEPOSITOS: frozenset(goals)}


@settings(max_examples=60)
@given(tiny_levels())
def test_move_search_is_optimal_and_complete(nivel):
    best = brute_force_moves(nivel)
    r = solve(nivel, method="moves")
    if best is None:
        assert r.status == "unsolvable"
    else:
        assert r.status == "solved" and r.moves == best
        assert replays(nivel, r.solution)


@settings(max_examples=60)
@given(tiny_levels(max_w=5, max_h=4, max_boxes=3))
def test_push_search_never_prunes_a_solvable_level(nivel):
    """Dead squares, freeze deadlocks and the matching bound only cut
    positions that cannot be solved: the push search solves exactly the
    levels the brute force solves."""
    best = brute_force_moves(nivel)
    r = solve(nivel, method="pushes")
    assert r.status == ("unsolvable" if best is None else "solved")
    if best is not None:
        assert replays(nivel, r.solution)


def test_a_level_spread_too_wide_gives_up_instead_of_exhausting_memory():
    n = {**CORRIDOR, PAREDES: CORRIDOR[PAREDES] | {(100_000, 100_000)}}
    r = solve(n)
    assert r.status == "gave_up" and r.limit == "size" and r.notes


def replays_extended(nivel_extendido, lurd):
    s = sokoban.nuevo_soko(nivel_extendido)
    for letter in lurd:
        if letter == BOMB:
            if sokoban.bombas(s) == 0:
                return False
            s = sokoban.tirar_bomba(s)
        else:
            a = ACTION[letter.lower()]
            if not sokoban.puede_mover(s, a):
                return False
            s = sokoban.mover(s, a)
    return sokoban.gano(s)


@settings(max_examples=40)
@given(tiny_levels(max_w=4, max_h=3, max_boxes=2), st.integers(0, 2))
def test_bombs_are_used_only_when_needed(nivel, bombs):
    """With bombs, a level solvable without them is solved without them (and
    move-optimally); otherwise any solution found replays on spec.sokoban,
    and a search stopped by the window is never called a proof."""
    best = brute_force_moves(nivel)
    n = {**nivel, BOMBAS: bombs}
    r = solve(n, method="moves", node_limit=20_000)
    if best is not None:
        assert r.status == "solved" and BOMB not in r.solution and r.moves == best
    elif r.status == "solved":
        assert BOMB in r.solution and r.bombs <= bombs
        assert replays_extended(n, r.solution)
    elif bombs == 0:
        assert r.status == "unsolvable"
    else:
        assert r.status == "gave_up" or r.status == "unsolvable"
