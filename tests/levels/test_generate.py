"""The generator of solvable levels."""

import pytest
from hypothesis import given, settings, strategies as st

import levels
from levels import lurd, validate
from levels.strategies import generated_levels


@settings(max_examples=40)
@given(st.integers(4, 10), st.integers(4, 10), st.integers(0, 4), st.integers(0, 10**9))
def test_generated_solution_replays_to_a_win_through_the_spec(w, h, boxes, seed):
    boxes = min(boxes, (w - 2) * (h - 2) - 1)
    lv, solution = levels.generate(w, h, boxes, seed)
    assert validate(lv, "tad") == [] and validate(lv, "soko") == []
    assert (lv.width, lv.height) == (w, h)
    assert len(lv.boxes) == len(lv.goals) == boxes
    assert lv.solutions == (solution,)
    actions = lurd.parse(solution)
    assert lurd.solves(lv, actions)
    # The case of the letters is right: uppercase exactly where the spec pushes.
    assert lurd.format(actions, lurd.push_flags(lv, actions)) == solution


@settings(max_examples=20)
@given(st.integers(5, 9), st.integers(5, 9), st.integers(1, 3), st.integers(0, 10**6))
def test_same_seed_same_level(w, h, boxes, seed):
    assert levels.generate(w, h, boxes, seed) == levels.generate(w, h, boxes, seed)


def test_different_seeds_give_different_levels_and_boxes_move_off_goals():
    made = [levels.generate(10, 10, 4, s) for s in range(20)]
    assert len({lv for lv, _ in made}) == 20
    assert all(lv.boxes != lv.goals for lv, _ in made)
    assert all(any(c.isupper() for c in sol) for _, sol in made)


@pytest.mark.parametrize("args", [(2, 5, 0), (5, 2, 0), (4, 4, 4), (5, 5, -1)])
def test_bad_sizes_are_refused(args):
    with pytest.raises(ValueError):
        levels.generate(*args, seed=1)


@settings(max_examples=15)
@given(generated_levels(max_size=8, max_boxes=3))
def test_the_strategy_gives_solvable_levels(lv):
    assert validate(lv) == [] and lurd.solves(lv, lv.solutions[0])


def test_solutions_never_step_back_and_forth():
    for seed in range(10):
        _, sol = levels.generate(8, 8, 3, seed)
        assert not any(a + b in sol for a, b in ("lr", "rl", "ud", "du"))


def test_the_title_says_size_width_first_and_random_seed():
    lv, _ = levels.generate(9, 7, 1, seed=5)
    assert lv.title == "generated 9 x 7, 1 box, random seed 5"
    assert (lv.width, lv.height) == (9, 7)
