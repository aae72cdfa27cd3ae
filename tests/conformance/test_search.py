"""How a check runs Hypothesis (:mod:`conformance.machines.search`): the
garbage collector while it searches, and what it gives Hypothesis to make
its machines."""

from __future__ import annotations

import gc

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule

from conformance.machines import search


def _recording(played: list):
    class Recording(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            played.append([])

        @rule(n=st.integers(0, 1000), word=st.sampled_from("abcd"))
        def step(self, n, word):
            played[-1].append((n, word))

        @rule(values=st.lists(st.integers(), max_size=4))
        def other(self, values):
            played[-1].append(tuple(values))
    return Recording


@pytest.mark.parametrize("seed", [0, 7, 123])
def test_a_machine_made_by_a_function_plays_what_its_class_plays(seed, monkeypatch):
    # Hypothesis digests the source of what it is given only for an example
    # database's key; with the seed given, the plays are the class's.
    by_function, by_class = [], []
    search.search_machine(_recording(by_function), seed, max_examples=25, steps=10,
                          shrink=False)
    monkeypatch.setattr(search, "_factory", lambda cls: cls)
    search.search_machine(_recording(by_class), seed, max_examples=25, steps=10,
                          shrink=False)
    assert by_class == by_function
    assert sum(map(len, by_class)) > 50             # (steps were played)
    assert len({tuple(p) for p in by_class}) > 10


def test_the_collector_is_quiet_while_a_check_searches_and_as_it_was_after():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    assert frozen == 0
    made = [object() for _ in range(10)]        # (made before: frozen inside)
    with search.quiet_collector():
        assert gc.get_threshold() == (search.YOUNG_THRESHOLD, *before[1:])
        assert gc.get_freeze_count() > frozen
        cycle = []
        cycle.append(cycle)                     # (garbage that only a collection frees)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen
    assert made


def test_a_freeze_found_there_is_left_alone():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with search.quiet_collector():
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_the_collector_is_put_back_when_the_search_raises():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with pytest.raises(KeyError):
        with search.quiet_collector():
            raise KeyError("a departure")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen
