"""The solver on real level files: seed 003's six levels and a few Microban
levels, each solution checked by an independent spec replay
(``levels.lurd.solves``)."""

import pytest

import levels
from impl.solver import solve

SEED003 = levels.load("seed003")


@pytest.mark.parametrize("number", [1, 2, 3, 5, 6])
def test_seed003_levels_are_solved(number):
    level = SEED003[number - 1]
    r = solve(level, time_limit=30)
    assert r.status == "solved"
    assert levels.lurd.solves(level, r.solution)


def test_seed003_nivel3_is_proved_unsolvable():
    """Seed 003's Nivel 3 (file nivel3.pro, 4 x 6) as published puts a box
    in a corner: row 1, column 5 has the board's top edge above it and the
    obstacle pista(1, 6, o) to its right, and it starts off every goal.  The
    seed's iterative deepening "never finishes" on it because there is
    nothing to find; we prove it."""
    level = SEED003[3]
    assert level.title == "Nivel 3"
    corner_box = (5, 1)  # (x, y) of pista(1, 5, c) inside the board's ring
    assert corner_box in level.boxes and corner_box not in level.goals
    assert (6, 1) in level.walls and (5, 0) in level.walls
    for method in ("moves", "pushes"):
        r = solve(level, method=method)
        assert r.status == "unsolvable" and r.solution is None
        # (the first solve on a fresh machine also notes the kernel's build)
        reasons = tuple(n for n in r.notes if not n.startswith("built the native kernel"))
        assert reasons == ("no goal can ever be reached by the box at (5, 1)",)


def test_seed003_small_levels_are_move_optimal():
    # Nivel 1 needs one push from the start: left, down-left... three moves.
    r = solve(SEED003[1], method="moves")
    assert r.optimal == "moves" and r.moves == 3


@pytest.mark.parametrize("number", [1, 2, 3, 86])
def test_some_microban_levels(number):
    # 86 guards the PI-corral rule: an earlier version wrongly proved it
    # unsolvable.
    level = levels.load("microban")[number - 1]
    r = solve(level, time_limit=None, node_limit=20_000, method="pushes")
    assert r.status == "solved"
    assert levels.lurd.solves(level, r.solution)


def test_microban_109_is_not_wrongly_proved_unsolvable():
    # An earlier PI-corral rule proved Microban 109 unsolvable: the first
    # 3 000 nodes must not exhaust it (solved or given up, never "unsolvable").
    level = levels.load("microban")[108]
    r = solve(level, time_limit=None, node_limit=3_000, method="pushes")
    assert r.status in ("solved", "gave_up"), r.summary()


# -- generated levels (solvable by construction) --------------------------------

from hypothesis import given, settings  # noqa: E402

from levels.strategies import generated_levels  # noqa: E402


@settings(max_examples=100)
@given(generated_levels(min_size=4, max_size=8, max_boxes=4))
def test_push_search_solves_every_generated_level(level):
    """levels.generate builds levels by reverse play, so each is solvable:
    the pruning rules (dead squares, freeze deadlocks, matching, PI-corrals)
    must never make the push search give up on one as unsolvable."""
    r = solve(level, method="pushes", time_limit=None, node_limit=200_000)
    assert r.status == "solved", r.summary()
    assert levels.lurd.solves(level, r.solution)


@settings(max_examples=30)
@given(generated_levels(min_size=4, max_size=6, max_boxes=2))
def test_move_search_is_no_longer_than_the_generator(level):
    r = solve(level, method="moves", time_limit=None, node_limit=200_000)
    assert r.status == "solved", r.summary()
    generated = levels.lurd.parse(level.solutions[0])
    assert r.moves <= len(generated)
