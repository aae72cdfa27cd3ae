"""How a check runs Hypothesis (:mod:`conformance.machines.search`): the
garbage collector while it searches."""

from __future__ import annotations

import gc

import pytest

from conformance.machines import search


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
