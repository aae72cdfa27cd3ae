"""One Prolog target checked as the command line asks: the verdict and its
report, or a verdict saying why it cannot be checked (no ``swipl``, no
program, a program that does not load or lacks a predicate)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from conformance.api import Verdict
from conformance.machines.budget import Budget
from conformance.machines.suspects import allowance
from conformance.profiles.prolog import check
from conformance.profiles.prolog import localize as prolog_localize
from conformance.profiles.prolog.model import Table
from conformance.profiles.prolog.source import NotAProgram, Program, find_program
from conformance.sandbox import isolation
from conformance.profiles.prolog.target import PrologTarget, SwiplMissing, swipl
from levels.model import LevelError
from levels.validate import validate
from conformance.reports import points
from conformance.profiles.prolog.rules import TABLE
from conformance.translations import _

PROFILE = check.PROFILE


def bad(name: str, message: str) -> tuple[Verdict, str]:
    verdict = Verdict(target=name, profile=PROFILE, conforms=False, error=message)
    return verdict, check.format_verdict(verdict)


def own_levels(program: Program) -> tuple[list[Table], list[str]]:
    """The folder's level files that lie in seed 003's domain (one player,
    as many boxes as destinations, nothing on an obstacle), as tables in
    their facts' order; and notes: which were played, which left out and
    why."""
    tables, played, notes = [], [], []
    for path in program.levels:
        try:
            table = Table.from_text(path.read_text(encoding="utf-8", errors="replace"),
                                    str(path))
        except (OSError, LevelError) as e:
            notes.append(_("{file}: not checked ({why})").format(file=path.name, why=e))
            continue
        problems = validate(table.level(), "tad")
        if problems:
            notes.append(_("{file}: not checked, outside seed 003's domain ({why})").format(
                file=path.name, why=problems[0]))
            continue
        tables.append(table)
        played.append(path.name)
    if played:
        notes.insert(0, _("played first: the folder's own levels ({files})").format(
            files=", ".join(played)))
    return tables, notes


def lacking(path: str | Path, *, memory_mb: int = 1024) -> str | None:
    """None when the program at ``path`` loads and defines ``action/2``,
    ``perform/3`` and ``sokoban/1``; else why not."""
    try:
        program = find_program(path)
        swipl()
    except (NotAProgram, SwiplMissing) as e:
        return str(e)
    target = PrologTarget(program, memory_mb=memory_mb)
    try:
        verdict = check.open_program(target)
    finally:
        target.close()
    return verdict.error if verdict is not None else None


def _localize(target: PrologTarget, verdicts: Sequence[Verdict], timeout: float,
              budget: Budget | None) -> None:
    """Where to look, for each departure of ``verdicts`` (its
    ``Counterexample.where``), each within the share of its check's time
    Python targets get too (``suspects.allowance``); the program is
    closed after."""
    try:
        for v in verdicts:
            c = v.counterexample
            if c is None or c.where is not None or (budget is not None and budget.expired()):
                continue
            try:
                c.where = prolog_localize.localize(target, c, timeout=timeout,
                                                   seconds=allowance(v.seconds))
            except Exception:  # noqa: BLE001 - a hint: it never costs the verdict
                c.where = None
    finally:
        target.close()


def _check_rules(target: PrologTarget, budget_is_failure: bool = False, localize: bool = True,
                 **options) -> Verdict:
    """:func:`check.check_rules` as a verdict with one outcome per rule.
    When its budget ran out, the rules not exercised by then are
    ``unreached``: they keep their point unless ``budget_is_failure``.
    ``localize``: each broken rule's departure gets its "Where to look"."""
    first, broken, exercised = check.check_rules(target, keep_open=localize, **options)
    if localize:
        _localize(target, [first, *broken.values()], options.get("timeout", 2.0),
                  options.get("budget"))
    budget = options.get("budget")
    out_of_time = budget is not None and budget.ran_out
    first.out_of_time = first.out_of_time or out_of_time
    first.outcomes = points.outcomes(
        "prolog", {r.id: exercised.get(r.id, 0) for r in TABLE.rules},
        {r: (v.counterexample, v.counterexample.report or check.format_verdict(v))
         for r, v in broken.items() if v.counterexample is not None},
        unreached="" if not out_of_time else "unreached" if budget_is_failure else "credited")
    first.coverage = {r.id: exercised.get(r.id, 0) for r in TABLE.rules}
    return first


def check_program(path: str | Path, *, max_examples: int = 100, seed: int | None = None,
                  timeout: float = 2.0, memory_mb: int = 1024,
                  storage_mb: int | None = isolation.DEFAULT_STORAGE_MB,
                  replay: str | None = None,
                  groups: Sequence[str] | None = None,
                  by_rules: bool = False, budget: Budget | None = None,
                  budget_is_failure: bool = False, localize: bool = True
                  ) -> tuple[Verdict, str]:
    """Check the Prolog target at ``path``; ``(verdict, report)``.
    ``by_rules``: rule by rule (:func:`check.check_rules`), the verdict
    carrying one outcome per rule (``Verdict.outcomes``, for points).
    ``budget``: the check's time budget (it stops between two tables);
    ``budget_is_failure``: out of time, the rules not reached score nothing.
    ``localize``: a departure of the action model gets its "Where to look"
    (:mod:`.localize`; ``--no-localize``)."""
    try:
        program = find_program(path)
    except NotAProgram as e:
        return bad(str(path), str(e))
    try:
        swipl()
    except SwiplMissing as e:
        return bad(program.name, str(e))
    target = PrologTarget(program, memory_mb=memory_mb, storage_mb=storage_mb)
    try:
        if replay is not None:
            verdict = check.replay(target, replay, timeout=timeout)
        else:
            fixed, notes = own_levels(program)
            if by_rules:
                verdict = _check_rules(target, budget_is_failure, localize,
                                       max_examples=max_examples, seed=seed, timeout=timeout,
                                       fixed=fixed, budget=budget)
            else:
                verdict = check.check(target, max_examples=max_examples, seed=seed,
                                      timeout=timeout, fixed=fixed, groups=groups,
                                      budget=budget, keep_open=localize)
                if localize:
                    _localize(target, [verdict], timeout, budget)
            if verdict.error is None:
                verdict.warnings[:0] = notes
    finally:
        target.close()          # left open for localising (check's keep_open)
    report = check.format_verdict(verdict)
    if verdict.counterexample is not None:
        verdict.counterexample.report = report
    return verdict, report
