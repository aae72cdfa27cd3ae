"""The push search's speed-ups: the incremental matching bound agrees with
the bound computed from scratch, and the tunnel macro and the portfolio keep
solutions correct (replayed through spec) and proofs sound."""

from hypothesis import given, settings
from hypothesis import strategies as st

import levels
from impl.solver import solve
from impl.solver.board import Board, pieces_of
from impl.solver.search import Budget, Matching, _push_search, push_search

from .test_search import drawn, replays

MICROBAN = levels.load("microban")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(range(len(MICROBAN))), st.randoms(use_true_random=False),
       st.integers(1, 6))
def test_incremental_matching_equals_matching_from_scratch(index, rnd, pushes):
    board = Board(pieces_of(MICROBAN[index]))
    cells = [c for c in board.floor if not board.dead[c]]
    k = len(board.boxes)
    if len(cells) <= k:
        return
    m = Matching(board, tuple(sorted(rnd.sample(cells, k))))
    for _ in range(pushes):
        box = rnd.choice(m.boxes)
        target = rnd.choice([c for c in cells if c not in m.boxes])
        m = m.moved(box, target)
        assert m.total == Matching(board, tuple(sorted(m.boxes))).total


CORRIDOR = drawn("##########",
                 "#@$     .#",
                 "##########")


def _nodes(nivel, tunnels):
    search = _push_search(Board(pieces_of(nivel)), 6, True, tunnels)
    for out in search:
        if not isinstance(out, int):
            return out


def test_tunnel_macro_pushes_through_a_corridor_in_one_step():
    with_macro = _nodes(CORRIDOR, True)
    without = _nodes(CORRIDOR, False)
    assert with_macro.kind == without.kind == "solved"
    assert with_macro.lurd == without.lurd == "R" * 6
    assert with_macro.nodes < without.nodes


def test_a_search_with_macros_is_rerun_without_them_before_a_proof():
    # Unsolvable, and not by a dead square: the player cannot get past the
    # two boxes in the corridor.
    nivel = drawn("########",
                  "#.@$$ .#",
                  "########")
    outcome = push_search(Board(pieces_of(nivel)), Budget(None, None, None), weight=6)
    assert outcome.kind == "exhausted"
    assert outcome.nodes == 2  # the start, once with macros and once without
    assert solve(nivel, method="pushes").status == "unsolvable"


def test_portfolio_counts_nodes_and_solves():
    board = Board(pieces_of(MICROBAN[0]))
    out = push_search(board, Budget(None, None, None))
    assert out.kind == "solved" and out.nodes > 0
    assert levels.lurd.solves(MICROBAN[0], out.lurd)


GOAL_ROOM = drawn("##########",
                  "#......  #",
                  "######   #",
                  "#     $$ #",
                  "# $$$  $ #",
                  "#       @#",
                  "##########")


def test_packing_order_fills_a_dead_end_from_the_back():
    from impl.solver.goals import clustered, packing_order
    board = Board(pieces_of(GOAL_ROOM))
    assert clustered(board)
    order = [board.position(g) for g in packing_order(board)]
    assert order == [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]


def test_box_path_is_a_legal_push_sequence_to_the_goal():
    from impl.solver.goals import box_path
    from impl.solver.search import _pushes_to_lurd, push_allowed
    board = Board(pieces_of(GOAL_ROOM))
    occ = bytearray(board.size)
    for b in board.boxes:
        occ[b] = 1
    seen = bytearray(board.size)  # the player's region, boxes in place
    todo = [board.player]
    seen[board.player] = 1
    for c in todo:
        for o in board.offsets:
            m = c + o
            if not seen[m] and not board.wall[m] and not occ[m]:
                seen[m] = 1
                todo.append(m)
    box = board.index((6, 3))
    target = board.index((1, 1))
    pushes = box_path(board, occ, seen, box, target,
                      lambda o, b, t: push_allowed(board, o, b, t))
    assert pushes is not None and pushes[0][0] == box
    lurd = _pushes_to_lurd(board, pushes)
    # replaying the pushes moves that box onto the deepest goal
    from impl.solver.verify import _ACTION
    from spec import juego
    j = juego.iniciar(GOAL_ROOM)
    for letter in lurd:
        j = juego.step(j, _ACTION[letter.lower()])
    assert (1, 1) in juego.estado(j)["cajas"]
    assert sum(c.isupper() for c in lurd) == len(pushes)


def test_goal_room_level_is_solved_and_replayed():
    r = solve(GOAL_ROOM, method="pushes")
    assert r.status == "solved" and replays(GOAL_ROOM, r.solution)
