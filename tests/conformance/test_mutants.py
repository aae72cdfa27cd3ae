"""Every mutant is caught; the correct student bases are not; a mutant
works as a target by file path in the sandbox."""

from __future__ import annotations

import pytest

from conformance.checking import engine

from conformance import mutants
from conformance.sandbox.box import open_target
from conformance.checking.targets import resolve


def test_there_are_at_least_twenty_mutants_over_the_three_profiles():
    assert len(mutants.MUTANTS) >= 20
    assert set(mutants.MUTANTS.values()) == {"tad", "extendido", "soko"}
    for name in mutants.MUTANTS:
        text = mutants.path(name).read_text()
        assert text.startswith('"""Mistake:'), name


@pytest.mark.parametrize("name", sorted(mutants.MUTANTS))
def test_each_mutant_is_caught(name):
    profile = mutants.MUTANTS[name]
    t = open_target(resolve(str(mutants.path(name))), in_process=True)
    # The default budget, unshrunk (selftest does the full run with shrinking).
    v = engine.check(t, profile, max_examples=100, seed=0, shrink=False)
    assert v.error is None
    assert not v.conforms, f"{name} was not caught"
    assert v.counterexample.message and v.counterexample.replay


def test_there_are_enough_student_styles_per_profile():
    counts = {p: sum(1 for v in mutants.STUDENTS.values() if v == p)
              for p in ("tad", "extendido", "soko")}
    assert counts["soko"] >= 8 and counts["tad"] >= 4 and counts["extendido"] >= 4, counts


@pytest.mark.parametrize("name", sorted(mutants.STUDENTS))
def test_each_student_style_conforms(name):
    t = open_target(resolve(str(mutants.path(name))), in_process=True)
    v = engine.check(t, mutants.STUDENTS[name], max_examples=15, seed=2)
    assert v.error is None and v.conforms, v.counterexample and v.counterexample.report


@pytest.mark.parametrize("name", sorted(mutants.STUDENTS) + sorted(mutants.MUTANTS))
def test_every_file_imports_nothing_of_the_project(name):
    import ast
    tree = ast.parse(mutants.path(name).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""]
        else:
            continue
        for m in modules:
            top = m.split(".")[0]
            assert top not in ("spec", "impl", "levels", "conformance", "soko"), (name, m)


def _in_sandbox(name: str, max_examples: int):
    t = open_target(resolve(str(mutants.path(name))), in_process=False)
    try:
        return engine.check(t, "soko", max_examples=max_examples, seed=0)
    finally:
        t.close()


def test_a_student_style_runs_in_the_sandbox_by_file_path():
    v = _in_sandbox("student_soko_strings", 5)
    assert v.error is None and v.conforms, v.counterexample and v.counterexample.report


def test_a_mutant_is_caught_in_the_sandbox_by_file_path():
    v = _in_sandbox("soko_mutates_grid", 20)
    assert not v.conforms
    assert "changed the grid it was given" in v.counterexample.message


def test_selftest_only_matches_the_target_name_not_its_folder(monkeypatch, tmp_path):
    """The clone's folder is ``sokoban-tad``: ``--only tad`` must not pick every mutant."""
    from pathlib import Path

    from conformance.commands import selftest

    clone = tmp_path / "sokoban-tad" / "conformance" / "mutants"
    monkeypatch.setattr(selftest.mutants, "path", lambda name: clone / f"{name}.py")
    names = [selftest.target_name(t) for t, _, _ in selftest.subjects("tad")]
    assert names and all("tad" in n for n in names)
    assert "student_soko" not in names and "impl.extendido" not in names
    assert {Path(t).parent for t, _, _ in selftest.subjects("tad") if "/" in t} == {clone}


def test_every_mutant_declares_one_rule_of_its_profiles_table():
    from conformance.profiles.aed2 import mutants as cpp_mutants
    from spec import rules
    assert set(mutants.RULES) == set(mutants.MUTANTS)
    for name, rule in mutants.RULES.items():
        table = rules.table_for(mutants.MUTANTS[name])
        assert rule in {r.id for r in table.rules_for(mutants.MUTANTS[name])}, (name, rule)
    aed2 = {r.id for r in rules.table_for("aed2").rules_for("aed2")}
    for m in cpp_mutants.MUTANTS:
        assert m.rule in aed2, (m.name, m.rule)
    # Between them, the mutants break most rules of every table.
    for profile in ("tad", "extendido", "soko"):
        broken = {r for n, r in mutants.RULES.items() if mutants.MUTANTS[n] == profile}
        assert len(broken) >= len(rules.table_for(profile).rules_for(profile)) // 2, profile
