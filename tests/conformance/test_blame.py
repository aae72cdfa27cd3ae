"""Every departure names the rule of the seed it breaks (spec.rules): each
mutant is blamed on exactly the rule it declares, under several seeds; a
departure no rule explains fails here; with --gradescope a one-rule mutant
loses only its rule's point."""

from __future__ import annotations

import json
import shutil

import pytest

from conformance import profiles
from conformance.machines import blame

from conformance.commands import cli

from conformance.checking import engine

from conformance import mutants
from conformance.reports.report import write_reports
from conformance.sandbox.box import open_target
from conformance.checking.targets import resolve
from spec import rules


def _open(name):
    return open_target(resolve(str(mutants.path(name))), in_process=True)


@pytest.mark.parametrize("name", sorted(mutants.MUTANTS))
def test_each_mutant_is_blamed_on_the_rule_it_declares_under_several_seeds(name):
    profile = mutants.MUTANTS[name]
    t = _open(name)
    try:
        for seed in (1, 2, 3):
            v = engine.check(t, profile, seed=seed, shrink=False)
            write_reports(v)        # as a check writes them, at its end
            c = v.counterexample
            assert c is not None, (name, seed)
            assert c.rule == mutants.RULES[name], (name, seed, c.rule, c.message)
            # The report says it in the seed's words; a recorded counterexample
            # is blamed the same way after the fact.
            rule = rules.table_for(profile).rule(c.rule)
            assert f"Rule broken: {rule.id}: {rule.text}" in c.report
            assert f"\u201c{rule.words}\u201d" in c.report
            assert profiles.blame_counterexample(c, rules.GRILLA if c.operation == "mover"
                                              and "grid" in c.message else None).id == c.rule
    finally:
        t.close()


@pytest.mark.parametrize("name", sorted(mutants.MUTANTS))
def test_a_departure_of_the_random_search_has_a_rule_too(name):
    """Without the fixed scenarios (every group asked for: the search
    alone), the departure found is still explained by a rule of the table
    (a departure no rule explains is a bug of the table)."""
    profile = mutants.MUTANTS[name]
    t = _open(name)
    found = []
    try:
        # The search alone may miss a rare bug under one seed (the fixed
        # scenarios are there for that): seeds in turn, until one finds it
        # (soko_goal_push_blanks_cell: about one seed in two, at 60 examples).
        for seed in range(12):
            v = engine.check(t, profile, seed=seed, shrink=False,
                             groups=list(profiles.get(profile).groups), max_examples=60)
            if v.counterexample is not None:
                found.append(v.counterexample)
                break
    finally:
        t.close()
    assert found, name
    assert found[0].rule in rules.table_for(profile).ids, found[0].message


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_each_cpp_mutant_is_blamed_on_the_rule_it_declares():
    from conformance.profiles.aed2 import mutants as cpp_mutants
    from conformance.checking.checks import RunOptions, check_target
    from conformance.checking.targets import own_spec
    for m in cpp_mutants.MUTANTS:
        for seed in (1, 2):
            [(v, report)] = check_target(own_spec("aed2", cpp_mutants.materialize(m)), "aed2",
                                         RunOptions(seed=seed, max_examples=30))
            assert v.counterexample is not None, m.name
            assert v.counterexample.rule == m.rule, (m.name, seed, v.counterexample.message)
            assert f"Rule broken: {m.rule}:" in report


#: One-rule mutants of five different rules, each losing only its rule's point.
ONE_RULE = ("soko_win_needs_all_boxes", "soko_pushes_two_boxes", "soko_mutates_grid",
            "soko_forgets_goal_under_player", "soko_blocked_counts_moves", "tad_completado_any_box")


@pytest.mark.parametrize("name", ONE_RULE)
def test_gradescope_takes_only_the_broken_rules_point(tmp_path, name):
    path = tmp_path / "results.json"
    status = cli.main([str(mutants.path(name)), "--seed", "2026", "--max-examples", "30",
                       "--in-process", "--gradescope", str(path)])
    doc = json.loads(path.read_text())
    assert status == 1
    failed = [t["name"].split(":")[0] for t in doc["tests"] if t["status"] == "failed"]
    assert failed == [mutants.RULES[name]], failed
    assert doc["score"] == len(doc["tests"]) - 1
    assert len({mutants.RULES[n] for n in ONE_RULE}) == len(ONE_RULE) >= 5
