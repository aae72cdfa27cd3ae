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
