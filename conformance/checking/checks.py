"""The check library: check a target (or each of its operation groups)
under a profile with given :class:`RunOptions`, never raising for a bad
target. The commands (:mod:`conformance.commands.cli`, :mod:`conformance.commands.grade`,
:mod:`conformance.commands.selftest`), the pytest plugin and the tests call it; it
knows nothing of command lines.

Exit statuses of the commands that check: :data:`EXIT_CONFORMS` (every
verdict conforms), :data:`EXIT_DOES_NOT_CONFORM`, :data:`EXIT_BAD` (a bad
target or bad arguments), :data:`EXIT_NOT_FULLY_CHECKED` (the time budget
ran out before any departure was found); :func:`exit_status` picks one for
some verdicts.

Every check has a time budget (``RunOptions.budget``, :mod:`conformance.machines.budget`)
that bounds all of it, opening the target included.
"""

from __future__ import annotations

import ast
import contextlib
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, Sequence

from conformance import profiles
from conformance.api import BATCH, CELL_OBSERVERS, CELLS, NOT_PROVIDED, Counterexample, Earlier, Verdict
from conformance.checking import engine, localize
from conformance.checking.targets import (
    BadTarget, ReferenceImport, ResolvedTarget, detect_profiles, explain_missing,
    missing_operations, seen_in_ours,
)
from conformance.machines.budget import DEFAULT_BUDGET, Budget, OutOfBudget
from conformance.machines.profile import Profile
from conformance.reports import points
from conformance.reports.output import NOT_FULLY_CHECKED, verdict_status
from conformance.reports.report import format_verdict, write_reports
from conformance.sandbox.box import DEFAULT_MEMORY_MB, DEFAULT_STORAGE_MB, DEFAULT_TIMEOUT, open_target
from conformance.translations import _

EXIT_CONFORMS, EXIT_DOES_NOT_CONFORM, EXIT_BAD, EXIT_NOT_FULLY_CHECKED = 0, 1, 2, 3


@dataclass(frozen=True)
class RunOptions:
    """How to check a target (what the command-line options set)."""

    max_examples: int = 100
    seed: int | None = None
    directions: str = "ours"
    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB
    storage_mb: int = DEFAULT_STORAGE_MB    # sandbox: what a box may store (/tmp, its folder)
    in_process: bool | None = None          # None: in-process only for our own impl
    groups: tuple[str, ...] | None = None
    replay: str | None = None               # replay this recorded failure instead of searching
    std: str = "c++17"                      # C++ targets: the language standard
    sanitize: bool = True                   # C++ targets: ASan + UBSan when available
    strict_types: bool = False              # None for False, [w, h] for (w, h): departures
    robustness: bool = False                # also inputs beyond the seed's domain (warnings)
    copy_folder: bool = True                # sandbox: copy a file target's whole folder
    support: str | None = None              # the course's support files (--support DIR)
    lang: str | None = None                 # the reports' language (--lang; None: the locale's)
    by_rules: bool = False                  # a check by rules: every rule's outcome (points)
    shrink: bool = True                     # False: each departure as first found (benchmarks)
    budget: float | None = DEFAULT_BUDGET   # seconds for the whole check (None: no limit)
    budget_is_failure: bool = False         # out of time: a failure, unreached rules no point
    localize: bool = True                   # after a departure: where to look (--no-localize)
    since: float | None = None              # time.monotonic() the budget counts from (None: the
                                            # check's start; CLOCK_MONOTONIC: machine-wide)
    #: Called with (examples run, seconds elapsed, seconds left) now and then
    #: while the check runs (an interactive terminal's progress line).
    progress: Callable[[int, float, float], None] | None = field(default=None, repr=False,
                                                                 compare=False)

    def new_budget(self, call_limit: float | None = None) -> Budget | None:
        """The budget of a check starting now (None without one); its soft
        deadline leaves room for one call of ``call_limit`` seconds (default:
        the per-call timeout)."""
        if self.budget is None:
            return None
        budget = Budget(self.budget, self.since,
                        call_limit=self.timeout if call_limit is None else call_limit)
        budget.progress = self.progress
        return budget


def load_engine() -> tuple[Callable[..., Verdict], Callable[[Verdict], str]]:
    """The engine's ``check`` and the report's ``format_verdict`` (a seam: the
    runner's tests put a fake engine here)."""
    return engine.check, format_verdict


def load_rules_engine() -> Callable[..., Verdict]:
    """The engine's ``check_rules`` (a seam, as :func:`load_engine`)."""
    return engine.check_rules


def _bad(spec_name: str, profile: str | None, message: str, missing=()) -> tuple[Verdict, str]:
    verdict = Verdict(target=spec_name, profile=profile or "?", conforms=False,
                      error=message, missing=list(missing))
    return verdict, message


# ------------------------------------------------------ the target's language

def own_profile(spec: ResolvedTarget) -> str | None:
    """The profile of a kind of target that has one of its own (``aed2`` for
    a C++ folder, ``prolog`` for a Prolog program), else None: the one place
    a check decides a target's language."""
    own = profiles.of_kind(spec.kind)
    return own.name if own is not None else None


def _mismatch(spec: ResolvedTarget, profile: str | None) -> tuple[Verdict, str] | None:
    """The bad verdict when the profile asked for and the target's kind do
    not go together (a profile of its own kind of target asked for another
    kind of target, or the other way round)."""
    if profile is not None and profile not in profiles.names():
        return _bad(spec.name, profile, f"unknown profile {profile!r}; known: "
                                        + ", ".join(profiles.names()))
    asked = profiles.get(profile) if profile is not None else None
    own = profiles.of_kind(spec.kind)
    if asked is not None and not asked.python and asked is not own:
        return _bad(spec.name, profile, f"{spec.name}: profile {asked.name} is for {asked.what}")
    if own is not None and profile not in (None, own.name):
        return _bad(spec.name, profile, f"{spec.name} is {own.called}: only profile {own.name} "
                                        f"applies to it (got --profile {profile})")
    return None


def lacking(spec: ResolvedTarget, options: RunOptions) -> str | None:
    """For a target of its own profile: None when it provides every
    operation of the profile, else a message saying what it lacks (or why
    it cannot be built or loaded)."""
    own = profiles.of_kind(spec.kind)
    if own is None or own.lacking is None:
        raise ValueError(f"{spec.name}: not a target of a profile of its own")
    return own.lacking(spec, options)


def new_budget(spec: ResolvedTarget, options: RunOptions) -> Budget | None:
    """The one budget of a check of ``spec``: its soft deadline leaves room
    for the longest single request the target's profile makes (one call, or
    one table of a Prolog program)."""
    own = profiles.of_kind(spec.kind)
    if own is not None and own.call_limit is not None:
        return options.new_budget(call_limit=own.call_limit(options))
    return options.new_budget()


def _open(spec: ResolvedTarget, profile: str | None, options: RunOptions):
    """``(target, None)``, or ``(None, verdict)`` saying why it cannot be
    opened: a bad target, a build failure, or a submission that imports our
    implementation (a failure, not a bad target)."""
    own = profiles.of_kind(spec.kind)
    try:
        if own is not None and own.open is not None:
            return own.open(spec, options), None
        return open_target(spec, in_process=options.in_process, timeout=options.timeout,
                           memory_mb=options.memory_mb, directions=options.directions,
                           copy_folder=options.copy_folder,
                           storage_mb=options.storage_mb, support=options.support), None
    except ReferenceImport as e:
        return None, _refused(spec.name, profile, str(e))
    except BadTarget as e:
        message = (str(e) if str(e).startswith(spec.name)
                   else _("cannot load {target}: {why}").format(target=spec.name, why=e))
        return None, _bad(spec.name, profile, message)


def _profiles(name: str, target, profile: str | None) -> list[str | tuple[Verdict, str]]:
    """Per profile to check (``profile``, or those the target provides, or
    the closest it can be checked under): its name, or the bad verdict
    saying why it cannot be checked."""
    if profile is None:
        found = detect_profiles(target.has) or partial_profiles(target.has)[:1]
        if not found:
            return [_bad(name, None, explain_missing(name, target.has))]
    else:
        found = [profile]
    return [_bad(name, p, explain_missing(name, target.has, [p]), missing_operations(target.has, p))
            if missing_operations(target.has, p) and p not in partial_profiles(target.has) else p
            for p in found]


def _refused(spec_name: str, profile: str | None, message: str) -> tuple[Verdict, str]:
    """A target that imports our implementation: a failure, not a bad target."""
    cx = Counterexample(profile=profile or "?", level_text="", actions=[], step=-1,
                        operation="import", expected="a submission of its own",
                        actual=message, message="imports the reference implementation",
                        report=message)
    verdict = Verdict(target=spec_name, profile=profile or "?", conforms=False,
                      counterexample=cx)
    return verdict, f"{spec_name}: DOES NOT CONFORM: {message}"


def checked_options(spec: ResolvedTarget, options: RunOptions) -> RunOptions:
    """``options`` as a check of ``spec`` uses them: a target of a profile
    whose targets use another direction convention is played in it (a C++
    folder: seed 001's ``Norte = (0, 1)``)."""
    own = profiles.of_kind(spec.kind)
    if own is not None and own.directions != "ours":
        return replace(options, directions=own.directions)
    return options


def open_checked(spec: ResolvedTarget, options: RunOptions, profile: str | None = None,
                 prefer: Sequence[str] = ()):
    """``spec``'s target opened where and as a check opens it (a Python
    target in the sandbox, a C++ folder built and run in seed 001's
    directions), for ``sokoban play``: ``(target, profile, directions)``,
    the target seen in our directions. ``profile`` is the one asked for (it
    must suit the target) or, without one, of those a check would check the
    first in ``prefer`` (else the first); a target lacking some of its
    operations answers ``NOT_PROVIDED`` for them, as in a check. Raises :class:`BadTarget` with the check's message when it
    cannot be opened or played under a profile."""
    bad = _mismatch(spec, profile)
    if bad is not None:
        raise BadTarget(bad[1])
    options = checked_options(spec, options)
    own = own_profile(spec)
    target, bad = _open(spec, own, options)
    if target is None:
        raise BadTarget(bad[1])
    if own is None:
        choices = _profiles(spec.name, target, profile)
        good = [c for c in choices if isinstance(c, str)]
        if not good:
            target.close()
            raise BadTarget(choices[0][1])
        order = list(prefer)
        choice = min(good, key=lambda p: order.index(p) if p in order else len(order))
        if missing_operations(target.has, choice):
            target = PartialTarget(target, choice)
        own = choice
    return seen_in_ours(target, profiles.get(own), options.directions), own, options.directions


@contextlib.contextmanager
def _checking(spec: ResolvedTarget, profile: str | None, options: RunOptions,
              target=None) -> Iterator[tuple[object, list, RunOptions]]:
    """What checking ``spec`` needs, set up once for :func:`check_target` and
    :func:`check_groups`: ``(target, profiles, options)``, where each of
    ``profiles`` is a profile to check or the bad verdict saying why it
    cannot be, and ``target`` is None when the whole target cannot be
    checked (``profiles`` then holds that one bad verdict). A target of its
    own kind is checked under its own profile, in its directions.
    ``target``: an already open Target for ``spec`` (the caller then closes
    it); else it is opened here and closed at the end."""
    bad = _mismatch(spec, profile)
    if bad is not None:
        yield None, [bad], options
        return
    profile = own_profile(spec) or profile
    options = checked_options(spec, options)
    own = target is None
    if own:
        target, bad = _open(spec, profile, options)
        if target is None:
            yield None, [bad], options
            return
    try:
        yield target, _profiles(spec.name, target, profile), options
    finally:
        if own:
            target.close()


def _runner(spec: ResolvedTarget, profile: str | None) -> Profile | None:
    """The profile whose own runner checks ``spec`` (a Prolog program), when
    the profile asked for suits it; else None (the engine plays it)."""
    own = profiles.of_kind(spec.kind)
    if own is not None and own.run is not None and _mismatch(spec, profile) is None:
        return own
    return None


def check_target(spec: ResolvedTarget, profile: str | None, options: RunOptions,
                 target=None, budget: Budget | None = None) -> list[tuple[Verdict, str]]:
    """Check one target (under ``profile``, or every profile it provides):
    a ``(verdict, report)`` per profile. Never raises for a bad target: that
    is a verdict with ``error`` (and ``missing``) set. ``target``: an already
    open Target for ``spec`` (the caller then closes it). All of it within
    ``options.budget`` (see :func:`within_budget`): ``budget``, when the
    caller has already made and armed it, else one made and armed here."""
    runner = _runner(spec, profile)

    def work(budget):
        if runner is not None:
            return [runner.run(spec, options, budget)]
        with _checking(spec, profile, options, target) as (opened, found, checked):
            return [p if isinstance(p, tuple) else _check_profile(opened, p, checked, budget)
                    for p in found]
    return within_budget(budget, spec, profile, options, work)


def within_budget(budget: Budget | None, spec: ResolvedTarget, profile: str | None,
                  options: RunOptions, work: Callable[[Budget | None], list]) -> list:
    """``work(budget)`` within the check's one budget: ``budget`` when the
    caller made and armed it already (it then catches the end of it), else
    one made here (:func:`new_budget`) with its hard deadline armed
    (:meth:`Budget.armed`): when it runs out where the engine cannot stop
    cleanly (opening the box, importing the target, a call under way), a
    "not fully checked" verdict instead (:func:`out_of_time_verdict`)."""
    if budget is not None:
        return work(budget)
    budget = new_budget(spec, options)
    if budget is None:
        return work(None)
    try:
        with budget.armed():
            return work(budget)
    except OutOfBudget:
        budget.ran_out = True
        return [out_of_time_verdict(spec, profile, options, budget)]


def out_of_time_verdict(spec: ResolvedTarget, profile: str | None, options: RunOptions,
                        budget: Budget) -> tuple[Verdict, str]:
    """The verdict of a check whose budget ran out before the engine could
    say more (no example run, or none it can vouch for): not fully checked,
    and for a check by rules every rule ``unreached``."""
    profile = profile or own_profile(spec) or guess_profile(spec)
    verdict = Verdict(target=spec.name, profile=profile or "?", conforms=False,
                      out_of_time=True, budget=budget.seconds, median_call=budget.median_call,
                      seconds=budget.elapsed(), seed=options.seed)
    if options.by_rules and profile is not None:
        verdict.outcomes = points.outcomes(
            profile, {}, {}, unreached="unreached" if options.budget_is_failure else "credited")
    return verdict, format_verdict(verdict)


def guess_profile(spec: ResolvedTarget) -> str | None:
    """The profile of a Python file or package read without running it (the
    functions its source defines at top level), for a verdict when the
    budget ran out before it could be opened; None when it cannot tell."""
    if spec.path is None or spec.kind not in ("file", "package"):
        return None
    source = Path(spec.path)
    names = _defined_names(source / "__init__.py" if spec.kind == "package" else source)
    found = detect_profiles(names.__contains__) or partial_profiles(names.__contains__)[:1]
    return found[0] if found else None


def _defined_names(source, depth: int = 3) -> set[str]:
    """The functions and classes a Python file defines at top level, and
    those of the files beside it it imports with ``from NAME import *``."""
    try:
        tree = ast.parse(source.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif (isinstance(node, ast.ImportFrom) and depth and node.module and not node.level
              and any(a.name == "*" for a in node.names)):
            sibling = source.parent / f"{node.module}.py"
            if sibling.is_file():
                names |= _defined_names(sibling, depth - 1)
    return names


def check_by_rules(spec: ResolvedTarget, profile: str | None, options: RunOptions,
                   target=None, budget: Budget | None = None) -> list[tuple[Verdict, str]]:
    """Like :func:`check_target`, checked rule by rule of the seed
    (:func:`conformance.checking.engine.check_rules`): each verdict carries one
    outcome per rule (``Verdict.outcomes``), what points by rule are made of
    (Gradescope, the pytest plugin, ``grade``)."""
    return check_target(spec, profile, replace(options, by_rules=True), target=target,
                        budget=budget)


def check_groups(spec: ResolvedTarget, profile: str | None,
                 options: RunOptions) -> list[tuple[str | None, Verdict, str]]:
    """Like :func:`check_target`, one check per operation group of each
    profile: ``(group, verdict, report)``; ``group`` is ``None`` for a target
    that cannot be checked at all (for partial credit: Gradescope)."""
    runner = _runner(spec, profile)

    def work(budget):
        if runner is not None:
            results = []
            for group in runner.groups:
                verdict, report = runner.run(spec, replace(options, groups=(group,)), budget)
                if verdict.error:               # cannot be checked at all
                    return [(None, verdict, report)]
                results.append((group, verdict, report))
            return results
        with _checking(spec, profile, options) as (opened, found, checked):
            results = []
            for p in found:
                if isinstance(p, tuple):
                    results.append((None, *p))
                    continue
                for group in profiles.get(p).groups:
                    verdict, report = _check_profile(opened, p, replace(checked, groups=(group,)),
                                                     budget)
                    results.append((group, verdict, report))
            return results
    found = within_budget(None, spec, profile, options, work)
    return [(None, *r) if len(r) == 2 else r for r in found]


def partial_profiles(has: Callable[[str], bool]) -> list[str]:
    """The profiles the target lacks some operations of but can still be
    checked under (it has their essential ones), closest first."""
    found = [p for p in profiles.python()
             if all(has(op) for op in p.essential) and p.missing(has)]
    return [p.name for p in sorted(found, key=lambda p: len(p.missing(has)) / len(p.operations))]


class PartialTarget:
    """A target lacking some of a profile's operations, made checkable on the
    rest: it claims every operation, and a missing observer answers
    :data:`~conformance.api.NOT_PROVIDED` (which the engine does not compare)."""

    def __init__(self, target, profile: str):
        self.inner = target
        self.name = target.name
        self.missing = frozenset(missing_operations(target.has, profile))

    def has(self, op: str) -> bool:
        if op == CELLS:             # (not an operation: a way of asking some, when all are there)
            return self.inner.has(op) and not self.missing & set(CELL_OBSERVERS)
        return True

    def call(self, op: str, *args):
        if op != BATCH:
            return self.inner.call(op, *args)
        calls = list(args[0])
        where: dict[int, int] = {}      # index in calls -> index in present
        present = []
        for i, (o, a) in enumerate(calls):
            if o in self.missing or any(type(x) is Earlier and x.index not in where for x in a):
                continue                # (a call that takes a missing one's result: missing)
            where[i] = len(present)
            present.append((o, tuple(Earlier(where[x.index]) if type(x) is Earlier else x
                                     for x in a)))
        answers = self.inner.call(BATCH, present, *args[1:]) if present else []
        return [answers[where[i]] if i in where else NOT_PROVIDED for i in range(len(calls))]

    def __getattr__(self, name):
        return getattr(self.inner, name)


def checkable_groups(has: Callable[[str], bool], profile: str) -> tuple[str, ...]:
    """The profile's operation groups whose modifiers the target has."""
    p = profiles.get(profile)
    lost = {g for op in p.missing(has) for g in p.modifiers.get(op, ())}
    return tuple(g for g in p.groups if g not in lost)


def _judge(target, profile: str, options: RunOptions, missing: Sequence[str] = (),
           budget: Budget | None = None) -> Verdict:
    """The engine's verdict on ``target`` (searched, or ``options.replay``
    played), in the options' directions. ``missing``: the operations it
    lacks (a partial check: the engine leaves out what needs them).
    ``budget``: the check's time budget (a search stops there)."""
    check, _format = load_engine()
    judged = seen_in_ours(target, profiles.get(profile), options.directions)
    kwargs = dict(max_examples=options.max_examples, seed=options.seed,
                  directions=options.directions)
    if not options.shrink:
        kwargs["shrink"] = False
    if options.strict_types:
        kwargs["strict_types"] = True
    if options.robustness:
        kwargs["robustness"] = True
    if options.groups is not None:
        kwargs["groups"] = list(options.groups)
    if missing:
        kwargs["missing"] = list(missing)
    start = time.perf_counter()
    if options.replay is not None:
        verdict = engine.replay(judged, profile, options.replay, directions=options.directions,
                                strict_types=options.strict_types)
    elif options.by_rules:
        check_rules = load_rules_engine()
        kwargs.pop("groups", None)
        kwargs.pop("robustness", None)
        if budget is not None:
            kwargs.update(budget=budget, budget_is_failure=options.budget_is_failure)
        verdict = check_rules(judged, profile, **kwargs)
    else:
        if budget is not None:
            kwargs["budget"] = budget
        verdict = check(judged, profile, **kwargs)
    if not verdict.seconds:
        verdict = replace(verdict, seconds=time.perf_counter() - start)
    return verdict


def _check_profile(target, profile: str, options: RunOptions,
                   budget: Budget | None = None) -> tuple[Verdict, str]:
    missing = missing_operations(target.has, profile)
    if missing and options.groups is not None:
        groups = [g for g in options.groups if g in checkable_groups(target.has, profile)]
        if not groups:          # the one group asked for needs a missing modifier
            verdict = Verdict(target=target.name, profile=profile, conforms=False,
                              missing=missing)
            return verdict, report(verdict)
        options = replace(options, groups=tuple(groups))
    if missing:
        target = PartialTarget(target, profile)
    verdict = _judge(target, profile, options, missing, budget)
    classify = profiles.get(profile).classify
    if classify is not None and not verdict.out_of_time:   # e.g. a C++ target: plain departures first
        verdict = classify(target, verdict, lambda other, replay: _judge(
            other, profile, replace(options, replay=replay)), search=options.replay is None)
    if options.localize and not verdict.out_of_time and options.replay is None:
        judged = seen_in_ours(target, profiles.get(profile), options.directions)
        localize.localize_verdict(judged, profiles.get(profile), verdict,
                                  directions=options.directions,
                                  strict_types=options.strict_types, budget=budget)
    if missing and verdict.error is None:
        verdict = replace(verdict, conforms=False, missing=missing)
    replaced = getattr(target, "support_replaced", None)
    if replaced:
        verdict = replace(verdict, warnings=[*verdict.warnings, *(
            _("{file}: the course's file (--support) was used, not the submission's own"
              ).format(file=name)
            for name in replaced)])
    return verdict, report(verdict)


def report(verdict: Verdict) -> str:
    """The report of a check's verdict, built once, at its end: every
    counterexample's and rule's report written from the verdict it was
    found in (:func:`~conformance.reports.report.write_reports`), then the
    verdict's own, and what its profile adds after it (the failure as a test
    in the student's own format; for a C++ target, where it shows)."""
    _check, format_ = load_engine()
    text = write_reports(verdict, format_)
    profile = profiles.get(verdict.profile) if verdict.profile in profiles.names() else None
    if profile is None or verdict.counterexample is None:
        return text
    if profile.finish_report is not None and not verdict.out_of_time:
        return profile.finish_report(verdict, text)
    test = profiles.emit_for(verdict.counterexample)
    if test:
        text = (text.rstrip() + "\n\n" + _("The same failure as a test in your own format "
                                            "(paste it into your test file; it fails until "
                                            "the bug is fixed):") + "\n\n" + test)
    return text


def exit_status(verdicts: Sequence[Verdict], budget_is_failure: bool = False) -> int:
    """2 for a bad target, else 1 when one does not conform, else 3 when one
    is not fully checked (1 with ``budget_is_failure``), else 0."""
    statuses = {verdict_status(v) for v in verdicts}
    if "bad target" in statuses:
        return EXIT_BAD
    if "does not conform" in statuses:
        return EXIT_DOES_NOT_CONFORM
    if NOT_FULLY_CHECKED in statuses:
        return EXIT_DOES_NOT_CONFORM if budget_is_failure else EXIT_NOT_FULLY_CHECKED
    return EXIT_CONFORMS
