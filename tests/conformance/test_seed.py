"""One seed, one run: the same plays, counts and verdict in-process, in the
sandbox at every isolation level this machine offers, and through ``grade``
(issue 40: the same seed was said to draw different plays in-process and in
the sandbox; not reproduced, held here either way). Every check has the
budget ``grade`` gives by default, far more than ten examples take: a run
that a budget stops depends on the machine's speed, not on the seed. (With a
budget, the fixed scenarios are played first-per-rule first, so a check with
no budget at all may find another first departure: the same options must be
compared.)"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conformance.machines.budget import DEFAULT_BUDGET
from hypothesis import HealthCheck, given, settings, strategies as st

from conformance import mutants
from conformance.checking.checks import RunOptions, check_by_rules, check_target
from conformance.checking.targets import resolve
from conformance.commands.grade import main as grade_main
from conformance.reports.output import verdict_status
from conformance.sandbox import isolation

#: A conforming submission, one that breaks one rule, one that breaks another.
SUBMISSIONS = ("student_soko", "soko_win_needs_all_boxes", "soko_pushes_two_boxes")
LEVELS = isolation.available_levels()


def by_rules(verdict) -> tuple:
    """What a check by rules decided and played: its status, and per rule
    its outcome, how many times it was exercised, and the failure found."""
    return (verdict_status(verdict), verdict.profile, tuple(
        (o.rule, o.status, o.exercised, replayed(o.counterexample.replay if o.counterexample
                                                  else ""))
        for o in verdict.outcomes))


def replayed(command: str) -> str:
    """A replay command's recorded failure (the target's spelling aside:
    grade names a submission's folder, a check here its soko.py)."""
    return command[command.find("--replay"):]


def plain(verdict) -> tuple:
    """What a plain check played: its counts, its rules' coverage, and the
    counterexample (level and actions) it found."""
    c = verdict.counterexample
    return (verdict_status(verdict), dict(verdict.stats), dict(verdict.coverage),
            (c.level_text, tuple(str(a) for a in c.actions), c.step, c.message) if c else None)


def check_at(path: Path, seed: int, where: str | None, rules: bool, monkeypatch) -> tuple:
    """The check of ``path`` with ``seed``: in this process (``where`` None)
    or in a box at isolation level ``where``."""
    options = RunOptions(max_examples=10, seed=seed, budget=DEFAULT_BUDGET,
                         in_process=where is None)
    if where is not None:
        monkeypatch.setenv(isolation.ENV_VAR, where)
    try:
        check = check_by_rules if rules else check_target
        [(verdict, _)] = check(resolve(str(path)), "soko", options)
    finally:
        monkeypatch.delenv(isolation.ENV_VAR, raising=False)
    assert verdict.error is None, verdict.error
    return by_rules(verdict) if rules else plain(verdict)


@pytest.fixture(scope="module")
def submissions(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("clase")
    return {name: mutants.copy_to(name, folder / name, "soko.py") for name in SUBMISSIONS}


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2 ** 32 - 1), name=st.sampled_from(SUBMISSIONS),
       rules=st.booleans())
def test_one_seed_plays_the_same_in_process_and_in_every_box(submissions, monkeypatch, seed,
                                                             name, rules):
    here = check_at(submissions[name], seed, None, rules, monkeypatch)
    for level in LEVELS:
        assert check_at(submissions[name], seed, level, rules, monkeypatch) == here, level


def test_one_seed_grades_as_it_checks(submissions, tmp_path, monkeypatch):
    """``grade`` (a checker process per submission, each in its box) gives
    each submission what a check by rules with the same seed gives."""
    seed = 2026
    out = tmp_path / "notas"
    with open(os.devnull, "w") as quiet:
        assert grade_main([str(next(iter(submissions.values())).parents[1]), "--out", str(out),
                           "--seed", str(seed), "--max-examples", "10", "--jobs", "1"],
                          out=quiet) in (0, 1)
    rows = {r["name"]: r for r in json.loads((out / "summary.json").read_text())["submissions"]}
    assert set(rows) == set(SUBMISSIONS)
    for name, path in submissions.items():
        status, profile, outcomes = check_at(path, seed, None, True, monkeypatch)
        row = rows[name]
        assert (row["verdict"], row["profile"]) == (status, profile), name
        graded = tuple((rule, o["status"], o["exercised"], replayed(o["replay"]))
                       for rule, o in row["rules"].items())
        assert graded == outcomes, name
