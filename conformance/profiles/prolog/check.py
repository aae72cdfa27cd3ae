"""The check of profile ``prolog``: the search that drives
:class:`conformance.profiles.prolog.machine.PrologMachine` (the folder's own levels
first, then Hypothesis), and the replay of one recorded failure. See the
machine's module for what is compared and docs/prolog.md for why."""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Iterable, Sequence


from conformance.api import Counterexample, Verdict
from conformance.machines.budget import Budget, OutOfBudget
from conformance.machines.budget import timed
from conformance.machines.search import search_machine
from conformance.machines.base import Departure, Fatal, StopShrinking
from conformance.profiles.prolog.machine import GROUPS, PLAN_SECONDS, STEPS, PrologMachine, PrologRun
from conformance.profiles.prolog import model, scenarios
from conformance.profiles.prolog.model import Table
from conformance.profiles.prolog.report import LOADING, PROFILE, format_verdict, parse_replay
from conformance.profiles.prolog.rules import RULES
from conformance.profiles.prolog.target import LoadFailed, PrologTarget
from conformance.translations import _

def open_program(target: PrologTarget) -> Verdict | None:
    """Start the program; a verdict when it cannot be checked."""
    try:
        target.start()
    except LoadFailed as e:
        return Verdict(target.name, PROFILE, False, error=str(e))
    if target.missing:
        return Verdict(target.name, PROFILE, False, missing=list(target.missing),
                       error=_("{target} does not define {names} (seed 003's interface: "
                               "action/2, perform/3, sokoban/1)").format(
                                   target=target.name, names=", ".join(target.missing)))
    return None


def check(target: PrologTarget, *, max_examples: int = 100, seed: int | None = None,
          timeout: float = 2.0, fixed: Sequence[Table] = (), shrink: bool = True,
          consult: str | None = None, plan_seconds: float = PLAN_SECONDS,
          groups: Sequence[str] | None = None, mask: Iterable[str] = (),
          exercised: Counter | None = None, budget: Budget | None = None,
          keep_open: bool = False) -> Verdict:
    """Check the program against the spec (the module docstring says how).

    ``fixed``: tables played first, in full (the folder's own levels).
    ``timeout``: seconds per ``findall`` of the action model;
    ``plan_seconds``: the planner's limit on a table of a few moves (tests
    lower it; a grade keeps :data:`PLAN_SECONDS`); ``groups``: the parts
    checked (:data:`GROUPS`, default both); ``mask``: rules whose
    departures are passed over (see :func:`check_rules`); ``exercised``: a
    counter that gets how often each rule was exercised; ``budget``: the
    check's time budget, looked at before each table: when it runs out the
    check stops there, and without a departure found by then the verdict is
    not fully checked (``out_of_time``). ``keep_open``: the program is
    left running for what comes next (localising a departure, without
    loading it again); the caller closes it."""
    groups = tuple(GROUPS if groups is None else groups)
    if not groups or set(groups) - set(GROUPS):
        raise ValueError(f"unknown group(s) {sorted(set(groups) - set(GROUPS))} for profile "
                         f"prolog; known: {', '.join(GROUPS)}")
    start = time.monotonic()
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
    problem = open_program(target)
    if problem is not None:
        return problem
    run = PrologRun(target, consult or target.program.main.name, tuple(fixed), timeout,
                    plan_seconds, groups, mask=frozenset(mask))
    if exercised is not None:
        run.exercised = exercised
    run.budget = budget
    warnings = [LOADING + m for m in target.messages[:5]]
    try:
        for table in fixed:
            c = _play_fixed(run, table)
            if c is not None:
                return _verdict(run, c, seed, start, warnings)
        for table in scenarios.tables():
            c = _play_fixed(run, table, plan_far=False)
            if c is not None:
                return _verdict(run, c, seed, start, warnings)
        c = _search(run, seed, max_examples, shrink)
    except OutOfBudget:         # between two of the folder's own levels
        _ran_out(budget)
        c = None
    finally:
        if not keep_open:
            target.close()
    return _verdict(run, c, seed, start, warnings + run.notes)


def _ran_out(budget: Budget | None) -> None:
    """The check stopped at its budget: no alarm while it writes its verdict."""
    if budget is not None:
        budget.ran_out = True
        budget.disarm()


def check_rules(target: PrologTarget, *, rounds: int | None = None, **options
                ) -> tuple[Verdict, dict[str, Verdict], Counter]:
    """A check by rules: :func:`check`, then again with each rule found
    broken passed over, until a round departs from no new rule (at most
    ``rounds``, default one per rule). ``(first verdict, rule -> the
    verdict that broke it, how often each rule was exercised)``: a rule
    exercised and not broken is kept."""
    if options.get("seed") is None:        # one seed for every round
        options["seed"] = random.SystemRandom().randrange(2 ** 32)
    broken: dict[str, Verdict] = {}
    exercised: Counter = Counter()
    first = None
    for _ in range(rounds or len(RULES)):
        v = check(target, mask=tuple(broken), exercised=exercised, **options)
        first = first or v
        c = v.counterexample
        if v.error is not None or c is None or c.rule in broken or v.out_of_time:
            break
        broken[c.rule] = v
    return first, broken, exercised


def _verdict(run: PrologRun, c: Counterexample | None, seed, start, warnings) -> Verdict:
    v = Verdict(target=run.target.name, profile=PROFILE, conforms=c is None, counterexample=c,
                stats=dict(run.stats), seed=seed, seconds=time.monotonic() - start,
                warnings=list(warnings))
    timed(v, run.budget)
    v.conforms = v.conforms and not v.out_of_time
    if c is not None:
        c.report = format_verdict(v)
    return v


def _play_fixed(run: PrologRun, table: Table, plan_far: bool = True) -> Counterexample | None:
    """A table played first (a level of the folder, or one of
    :mod:`.scenarios`): its action model along every action of a shortest
    plan, and its planner (``plan_far`` False: only if it is few moves)."""
    machine = PrologMachine.bind(run)()
    try:
        machine.start(table, plan_far)
        for step in (model.solve(table) or [])[:STEPS] if machine.actions else ():
            words = [s.name for s in model.legal(machine.table, machine.state)]
            machine.act(words.index(step.name))
        machine.flush()
    except (Departure, Fatal) as e:
        return e.counterexample
    finally:
        machine.teardown()
    return None


def _search(run: PrologRun, seed: int, max_examples: int, shrink: bool) -> Counterexample | None:
    try:
        search_machine(PrologMachine.bind(run), seed, max_examples=max_examples, steps=25,
                       shrink=shrink)
    except (Departure, Fatal) as e:
        return e.counterexample
    except StopShrinking:
        return run.last
    except OutOfBudget:         # a departure found before is reported as usual
        _ran_out(run.budget)
        return run.last
    except Exception as e:  # noqa: BLE001 - Flaky and friends: the last departure
        if run.budget is not None and run.budget.ran_out:
            _ran_out(run.budget)    # stopped inside an example: Hypothesis may call it Flaky
            return run.last
        if run.last is not None:
            return run.last
        raise RuntimeError(f"internal error in the prolog check: {type(e).__name__}: {e}") from e
    return None


def replay(target: PrologTarget, text: str, *, timeout: float = 2.0) -> Verdict:
    """Play exactly one recorded example (see :func:`replay_string`)."""
    start = time.monotonic()
    try:
        table, actions, planner = parse_replay(text)
    except ValueError as e:
        return Verdict(target.name, PROFILE, False,
                       error=_("bad --replay: {problem}").format(problem=e))
    problem = open_program(target)
    if problem is not None:
        return problem
    run = PrologRun(target, target.program.main.name, timeout=timeout,
               groups=("planner",) if planner else ("actions",))
    machine = PrologMachine.bind(run)()
    c = None
    try:
        machine.start(table)
        for name in actions:
            words = [s.name for s in model.legal(machine.table, machine.state)]
            if name not in words:
                return Verdict(target.name, PROFILE, False,
                               error=_("bad --replay: {problem}").format(
                                   problem=_("{action} is not legal after {n} actions").format(
                                       action=name, n=len(machine.played))))
            machine.act(words.index(name))
        machine.flush()
    except (Departure, Fatal) as e:
        c = e.counterexample
    finally:
        machine.teardown()
        target.close()
    return _verdict(run, c, None, start, [])
