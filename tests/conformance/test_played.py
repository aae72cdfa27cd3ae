"""A check's coverage per rule (``Machine.played``: how often the play took
each of the spec's cases) is counted from each action's cases, noted as the
action is stepped (``Machine.spec_step``), not from a replay of the whole
example through the profile's stepper at its end: the same counts as that
replay gives, for a check that conforms and for one that departs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conformance import mutants, profiles
from conformance.checking import engine
from conformance.checking.targets import resolve
from conformance.machines import blame
from conformance.machines.base import Machine
from conformance.sandbox.box import open_target

TARGETS = [("tad", "student_tad"), ("tad", "tad_box_through_wall"),
           ("soko", "student_soko"), ("soko", "soko_pushes_two_boxes"),
           ("extendido", "student_extendido"), ("extendido", "ext_undo_forgets_box")]


def _check(profile: str, name: str, seed: int):
    target = open_target(resolve(str(mutants.path(name))), in_process=True)
    try:
        return engine.check(target, profile, max_examples=8, seed=seed)
    finally:
        target.close()


def _stepped_only(self, state, code):
    """``spec_step`` as it was: the stepper alone, no cases kept."""
    return self.run.definition.stepper.step(state, code)


@pytest.mark.parametrize("profile, name", TARGETS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2 ** 16))
def test_the_cases_noted_while_playing_count_as_a_replay_counts_them(profile, name, seed):
    noted = _check(profile, name, seed)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Machine, "spec_step", _stepped_only)
        replayed = _check(profile, name, seed)
    assert noted.coverage == replayed.coverage and noted.stats == replayed.stats
    assert noted.conforms == replayed.conforms
    assert sum(noted.coverage.values()) > 0


@pytest.mark.parametrize("profile, name", TARGETS)
def test_no_example_is_replayed_to_count_its_cases(profile, name, monkeypatch):
    """Counting goes through the stepper again only for a game's start (its
    cases and those of its observers there): every action's cases were
    noted as it was played. (Blaming a departure still replays its
    actions, without counting.)"""
    counted = []
    play = blame.play

    def recorded(profile_, scenes, codes, trace=None, observe=False):
        if trace is not None and trace.counts is not None:
            counted.append(codes)
        return play(profile_, scenes, codes, trace, observe)

    monkeypatch.setattr(blame, "play", recorded)
    verdict = _check(profile, name, seed=3)
    assert verdict.stats["steps"] > 0 and counted
    assert set(counted) == {""}


SCENARIO_TARGETS = [("tad", "student_tad"), ("tad", "tad_completado_any_box"),
                    ("tad", "tad_y_grows_north"), ("extendido", "student_extendido"),
                    ("extendido", "ext_gano_with_one_box"), ("extendido", "ext_bounded_grid")]


def _scenarios(profile: str, name: str):
    """The scenarios' departures, counts and cases, and the round trips taken."""
    target = open_target(resolve(str(mutants.path(name))), in_process=True)
    trips = []
    request = Machine._request

    def counted(self, *args):
        trips.append(args[0])
        return request(self, *args)

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Machine, "_request", counted)
            found, run = engine.play_scenarios(target, profile)
    finally:
        target.close()
    return ([(s.what, c.operation, c.message, c.rule, c.expected, c.actual)
             for s, c in found], run.stats, run.case_counts), len(trips)


@pytest.mark.parametrize("profile, name", SCENARIO_TARGETS)
def test_a_scenario_played_in_one_round_trip_is_judged_as_one_action_a_trip(profile, name):
    """The fixed scenarios go to the target in one batch (``Machine.pipelined``):
    the same departures, counts and cases as when each action is its own
    round trip."""
    batched, fewer = _scenarios(profile, name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(profiles.get(profile).machine, "PIPELINE", False)
        alone, trips = _scenarios(profile, name)
    assert batched == alone
    assert batched[1].get("steps", 0) > 0
    assert fewer < trips
