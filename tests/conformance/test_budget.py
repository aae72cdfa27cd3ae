"""A check that always ends (issue 24): the time budget of a check
(``--budget``), its verdict "not fully checked" (exit status 3) for a slow
correct target, its Gradescope score, ``grade``'s time column and slow flag,
the progress line on a terminal. The slow fixtures take 50 ms per call of
``hay_pared``; the bounds on time below are generous (a loaded machine)."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conformance.checking import checks

from conformance.commands import cli

from conformance.sandbox import isolation

from conformance.reports import points
from conformance.api import RuleOutcome, Verdict
from conformance.machines.budget import Budget, OutOfBudget, reserve
from conformance.reports.output import NOT_FULLY_CHECKED, verdict_status, verdicts_to_gradescope

FIXTURES = Path(__file__).parent / "fixtures"
SLOW = FIXTURES / "soko_slow.py"
SLOW_WRONG = FIXTURES / "soko_slow_wrong.py"
SLOW_IMPORT = FIXTURES / "soko_slow_import.py"
#: How long past its budget a check may end on a loaded machine (the
#: interpreter's start, a call under way, closing the box).
SLACK = 15.0
SOKO_RULES = 11


def _levels():
    return [pytest.param(level, id=level) for level in isolation.LEVELS]


def _at(level: str, monkeypatch) -> None:
    if level not in isolation.available_levels():
        pytest.skip(f"isolation level {level} is not available on this machine "
                    f"(available: {', '.join(isolation.available_levels())})")
    monkeypatch.setenv(isolation.ENV_VAR, level)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


# ------------------------------------------------------------- the budget itself

def test_the_median_call_weighs_each_call_of_a_batch():
    budget = Budget(100)
    assert budget.median_call is None and budget.chunk() > 0
    budget.record(1.0, 1)           # one slow call
    budget.record(0.2, 100)         # a batch of 100 fast calls
    assert budget.median_call == pytest.approx(0.002)
    assert budget.chunk() == 250    # CHUNK_SECONDS (0.5 s) at 2 ms a call


def test_the_soft_deadline_leaves_a_reserve_and_raises_out_of_budget():
    budget = Budget(8, since=time.monotonic() - 8)
    assert reserve(8, 2.0) == 2.0 and reserve(2, 2.0) == 0.5
    assert budget.expired()
    with pytest.raises(OutOfBudget):
        budget.check()
    assert budget.ran_out
    assert not Budget(300).expired()


def test_the_hard_deadline_interrupts_what_runs():
    budget = Budget(0.5)
    start = time.monotonic()
    with pytest.raises(OutOfBudget):
        with budget.armed():
            time.sleep(5)
    assert time.monotonic() - start < 3


# ------------------------------------------------------------- statuses and points

def test_not_fully_checked_is_neither_a_pass_nor_a_failure():
    late = Verdict("t", "soko", False, out_of_time=True, budget=5, median_call=0.05,
                   stats={"examples": 3})
    assert verdict_status(late) == NOT_FULLY_CHECKED
    assert checks.exit_status([late]) == checks.EXIT_NOT_FULLY_CHECKED == 3
    assert checks.exit_status([late], budget_is_failure=True) == 1
    assert checks.exit_status([late, Verdict("u", "soko", True)]) == 3
    assert checks.exit_status([late, Verdict("u", "soko", False)]) == 1
    assert checks.exit_status([Verdict("u", "soko", True)]) == 0


@pytest.mark.parametrize("failure", [False, True])
def test_rules_not_reached_keep_their_points_unless_the_budget_is_a_failure(failure):
    found = points.outcomes("soko", {"soko.read": 3}, {}, (),
                            unreached="unreached" if failure else "credited")
    statuses = {o.status for o in found}
    assert statuses == {"kept", "unreached"}
    assert points.score(found) == ((1, SOKO_RULES) if failure else (SOKO_RULES, SOKO_RULES))
    text = points.describe("soko", found[-1])
    assert "time budget ran out" in text
    assert ("no point" in text) == failure
    late = Verdict("t", "soko", False, out_of_time=True, budget=5, median_call=0.05,
                   stats={"examples": 3}, outcomes=found, seed=1)
    document = json.loads(verdicts_to_gradescope([(late, "")]))
    assert document["score"] == (1.0 if failure else float(SOKO_RULES))
    assert document["extra_data"]["out_of_time"] is True
    assert "Not fully checked" in document["output"]


def test_a_rule_not_reached_passes_only_when_credited():
    assert RuleOutcome("soko.push", "unreached", credited=True).passed
    assert not RuleOutcome("soko.push", "unreached").passed


# ------------------------------------------------------------- checks of slow targets

@pytest.mark.parametrize("level", _levels())
def test_a_slow_correct_target_ends_within_its_budget_at_every_level(level, monkeypatch,
                                                                     capsys):
    _at(level, monkeypatch)
    start = time.monotonic()
    status = cli.main([str(SLOW), "--budget", "5", "--seed", "1"])
    took = time.monotonic() - start
    out = capsys.readouterr().out
    assert status == 3, out
    assert "NOT FULLY CHECKED" in out and "ran out after" in out and "median call" in out
    assert "Rules exercised" in out          # its coverage, honestly
    assert took < 5 + SLACK, took


@pytest.mark.parametrize("level", _levels())
def test_gradescope_results_are_written_before_the_budget_ends(level, tmp_path, monkeypatch):
    """The real command, from its process's start: results.json is there
    before the budget ends, with every rule not refuted worth its point."""
    _at(level, monkeypatch)
    results = tmp_path / "results.json"
    budget = 10
    start = time.time()
    proc = subprocess.run([sys.executable, "-m", "conformance", str(SLOW), "--budget",
                           str(budget), "--seed", "1", "--gradescope", str(results)],
                          capture_output=True, text=True, timeout=budget + 120,
                          env={**os.environ, "PYTHONPATH": str(Path(checks.__file__).parents[1])})
    assert proc.returncode == 3, proc.stdout + proc.stderr
    written = results.stat().st_mtime - start
    assert written < budget + 1.0, written      # (the clocks' grain, the process's start)
    document = json.loads(results.read_text())
    assert document["score"] == SOKO_RULES and document["extra_data"]["out_of_time"]
    unreached = [t for t in document["tests"] if "Not reached" in t["output"]]
    assert all(t["status"] == "passed" for t in document["tests"])
    assert unreached, "5 s of a 50 ms hay_pared cannot reach every rule"


def test_with_budget_is_failure_the_rules_not_reached_score_nothing(tmp_path):
    results = tmp_path / "results.json"
    status = cli.main([str(SLOW), "--budget", "5", "--seed", "1", "--in-process",
                       "--gradescope", str(results), "--budget-is-failure"])
    assert status == 1
    document = json.loads(results.read_text())
    kept = sum(1 for rule in document["extra_data"]["rules"].values() if rule == "kept")
    assert document["score"] == kept < SOKO_RULES


def test_a_slow_wrong_target_does_not_conform(tmp_path, capsys):
    results = tmp_path / "results.json"
    status = cli.main([str(SLOW_WRONG), "--budget", "8", "--seed", "1",
                       "--gradescope", str(results)])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "DOES NOT CONFORM" in out and "soko.goals: BROKEN" in out
    document = json.loads(results.read_text())
    assert document["extra_data"]["rules"]["soko.goals"] == "broken"
    assert document["score"] == SOKO_RULES - 1


def test_the_budget_bounds_opening_the_target(tmp_path, capsys):
    """A box that takes longer to open (here: a 4 s import) than the budget:
    not fully checked, in time, its profile read from its source."""
    results = tmp_path / "results.json"
    start = time.monotonic()
    status = cli.main([str(SLOW_IMPORT), "--budget", "2", "--seed", "1",
                       "--gradescope", str(results)])
    took = time.monotonic() - start
    out = capsys.readouterr().out
    assert status == 3, out
    assert "before the target answered a call" in out
    assert took < 2 + SLACK, took
    document = json.loads(results.read_text())
    assert document["score"] == SOKO_RULES


def test_progress_only_on_a_terminal(capsys):
    terminal = _Terminal()
    assert cli.main([str(SLOW), "--budget", "3", "--seed", "1", "--in-process"],
                    out=terminal) == 3
    shown = terminal.getvalue()
    assert "examples run" in shown and "of the budget left" in shown and "\r" in shown
    plain = io.StringIO()
    assert cli.main([str(SLOW), "--budget", "3", "--seed", "1", "--in-process"], out=plain) == 3
    assert "budget left" not in plain.getvalue() and "\r" not in plain.getvalue()


def test_grade_holds_each_submission_to_its_budget(tmp_path, capsys):
    """A class of three (correct, slow, slow and wrong) graded two at a
    time: within (submissions x budget) / jobs plus the checkers' start;
    the slow ones flagged, their time and median call in the summary."""
    folder = tmp_path / "class"
    for name, source in (("good", FIXTURES / "soko_base.py"), ("slow", SLOW),
                         ("slow_wrong", SLOW_WRONG)):
        (folder / name).mkdir(parents=True)
        for helper in ("soko_base.py", "soko_slow.py"):
            shutil.copy(FIXTURES / helper, folder / name / helper)
        shutil.copy(source, folder / name / "soko.py")
    out = tmp_path / "grades"
    budget, jobs = 20, 2
    start = time.monotonic()
    assert cli.main(["grade", str(folder), "--out", str(out), "--budget", str(budget),
                     "--jobs", str(jobs), "--seed", "1", "--max-examples", "5"]) == 0
    took = time.monotonic() - start
    printed = capsys.readouterr().out
    assert took < 3 * budget / jobs + budget + 4 * SLACK, took
    with open(out / "summary.csv", newline="", encoding="utf-8") as f:
        rows = {row["name"]: row for row in csv.DictReader(f)}
    assert rows["good"]["verdict"] in ("conforms", NOT_FULLY_CHECKED)    # (a loaded machine)
    assert rows["slow"]["verdict"] == NOT_FULLY_CHECKED and rows["slow"]["slow"] == "yes"
    assert rows["slow_wrong"]["verdict"] == "does not conform"
    assert rows["slow_wrong"]["slow"] == "yes"
    assert float(rows["slow"]["median_call_ms"]) > 5 > float(rows["good"]["median_call_ms"])
    assert int(rows["slow"]["score"]) == SOKO_RULES
    assert "slow]" in printed
    page = (out / "report.html").read_text()
    assert 'data-slow="yes"' in page and "median call" in page


@pytest.mark.parametrize("failure", [False, True])
def test_the_plugin_skips_the_rules_not_reached(tmp_path, failure):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs",
                          f"--sokoban-impl={SLOW}", "--sokoban-budget=4", "--sokoban-seed=1",
                          *(["--sokoban-budget-is-failure"] if failure else [])],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    out = run.stdout + run.stderr
    if failure:
        assert run.returncode == 1 and " failed" in out and "skipped" not in out, out
        assert "not reached before the time budget ran out" in out
    else:
        assert run.returncode == 0 and "skipped" in out and "failed" not in out, out
        assert "not reached: the time budget of 4 s ran out" in out


def test_a_check_arms_one_budget_and_builds_one_report(monkeypatch, capsys):
    """One path through a check: ``sokoban check`` makes one budget and arms
    it once (the command, before it opens the target), the engine returns
    data only, and the report is built once, at the end, from the verdict."""
    from conformance import mutants
    from conformance.checking import engine
    from conformance.machines import budget as budget_module
    from conformance.reports import report as report_module

    made, armed, formatted, phase = [], [], [], ["engine"]
    real_init, real_armed = budget_module.Budget.__init__, budget_module.Budget.armed
    real_format, real_check = report_module.format_verdict, engine.check

    def init(self, *args, **kwargs):
        made.append(self)
        real_init(self, *args, **kwargs)

    def arm(self):
        armed.append(self)
        return real_armed(self)

    def check(*args, **kwargs):
        phase[0] = "engine"
        verdict = real_check(*args, **kwargs)
        phase[0] = "after"
        return verdict

    def format_verdict(verdict):
        formatted.append((phase[0], verdict))
        return real_format(verdict)

    monkeypatch.setattr(budget_module.Budget, "__init__", init)
    monkeypatch.setattr(budget_module.Budget, "armed", arm)
    monkeypatch.setattr(engine, "check", check)
    monkeypatch.setattr(checks, "format_verdict", format_verdict)
    monkeypatch.setattr(report_module, "format_verdict", format_verdict)
    status = cli.main([str(mutants.path("soko_pushes_two_boxes")), "--in-process",
                       "--seed", "1", "--max-examples", "30"])
    assert status == 1
    assert len(made) == 1 and armed == made
    # every report written after the engine returned; the verdict's once
    assert formatted and all(p == "after" for p, _ in formatted)
    final = [v for _, v in formatted if v.counterexample is not None and v.seed == 1]
    assert len({id(v) for v in final}) == len(final), "a verdict's report built twice"
    assert "Rule broken: soko.push-blocked" in capsys.readouterr().out
