"""The conformance engine: the spec and a target played side by side.

:func:`check` runs a Hypothesis :class:`~hypothesis.stateful.RuleBasedStateMachine`
per profile. Each example draws a level (or, for ``extendido``, a sequence of
one to three) inside the profile's domain (``engine_levels.DOMAINS``: the
seed's preconditions, nothing beyond unless ``robustness``), starts the spec
and the target on it, then draws actions (moves, a walk along the level's
known solution, bombs, undos, and long runs of them: far walks, long
histories); after every action it compares *every* observer of the target
with the spec's, observationally (booleans by truth value, see
``Machine.agrees``; what is accepted loosely becomes a warning). Each
profile's machine is a module of :mod:`conformance.machines`, its rules on
its class:

* ``tad``: ``estado`` (all four sets) and ``completado``;
* ``extendido``: ``indice_nivel``, ``persona``, ``bombas``, ``gano``,
  ``puede_mover`` in the four directions, and ``hay_pared`` / ``hay_caja`` /
  ``hay_deposito`` on every cell of the bounding box of the level and the
  current state, one cell beyond (bombs clear whole rows and columns of it),
  and on the 5x5 cells around the character (on an open level it may walk
  far from the rest: the empty plain in between is not scanned);
* ``aed2`` (a C++ ``aed2_Juego``, :mod:`conformance.profiles.aed2`): as ``extendido``
  less ``indice_nivel`` and ``gano`` (the interface has neither), plus
  ``mover``'s answer (did the move complete the level?); it also undoes and
  redoes recent actions and stops walking a solution when a box lands on a
  goal (see :class:`conformance.profiles.aed2.machine.Aed2Machine`);
* ``soko``: ``dimensiones``, ``juego_ganado`` and ``hay_pared`` /
  ``hay_objetivo`` / ``hay_caja`` / ``hay_jugador`` on every cell; besides,
  ``mover`` must leave its argument unchanged (``__fingerprint__`` before and
  after) and a blocked move must return a grid equal to it (``__equal__``).

A disagreement (or a :class:`~conformance.api.TargetError`) raises inside the
machine; Hypothesis shrinks it to a small level and a short action list, and
the final, shrunk run is turned into a :class:`~conformance.api.Counterexample`
with a command line that replays exactly it (:func:`replay`; the format is
:mod:`conformance.machines.replays`). Errors that end
the target's process (timeout, crash, exit, memory, output flood) are
reported as they happen, without shrinking (each retry would cost a restart).
"""

from __future__ import annotations

import contextlib
import os
import random
import time
import traceback
from dataclasses import replace
from typing import Sequence

from hypothesis import HealthCheck, Phase, Verbosity, seed as hypothesis_seed, settings
from hypothesis import configuration
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.stateful import run_state_machine_as_test

from conformance.api import (
    ALL_PROFILES, REQUIRED_OPERATIONS, Counterexample, RuleOutcome, Target, Verdict,
)
from conformance.machines.budget import Budget, OutOfBudget, fired
from conformance.machines import machine
from conformance.machines.base import CheckSettings, Departure, Fatal, Run, StopShrinking
from conformance.machines.replays import parse_replay
from conformance.reports.report import format_counterexample, format_verdict
from levels import storage

#: Actions per example (Hypothesis' ``stateful_step_count``).
STEPS = 30
#: Wall-clock cap on shrinking a failure (the smallest one found by then is reported).
SHRINK_SECONDS = 20.0


def _run(target: Target, profile: str, config: CheckSettings, directions: str = "ours",
         strict_types: bool = False, counts: dict | None = None,
         budget: Budget | None = None) -> Run:
    run = Run(target, profile, config, directions, strict_types, SHRINK_SECONDS)
    if counts is not None:
        run.case_counts = counts        # one check's coverage, over its scenarios and searches
    run.budget = budget
    return run


def _ran_out(budget: Budget | None) -> None:
    """The check stopped at its budget: no alarm while it writes its verdict."""
    if budget is not None:
        budget.ran_out = True
        budget.disarm()


def coverage(profile: str, counts: dict) -> dict[str, int]:
    """Per rule of ``profile`` (``spec.rules``), how often ``counts`` took
    one of its cases."""
    from spec import rules
    return rules.table_for(profile).exercised(counts, profile)


# ------------------------------------------------------------------ replay

def replay(target: Target, profile: str, text: str, *, directions: str = "ours",
           strict_types: bool = False) -> Verdict:
    """Play exactly one recorded counterexample (no search, no shrinking)
    and compare as :func:`check` does. ``conforms`` is False iff it still
    departs (the verdict then carries the counterexample again). A finding
    of ``--robustness`` (:func:`conformance.machines.replays.is_robustness`) is
    played as such and, when it departs again, is a warning in
    ``Verdict.robustness``: the verdict conforms, as the check's did."""
    own = getattr(machine(profile), "replay", None) if profile in ALL_PROFILES else None
    if own is not None:         # a profile with its own kind of target (prolog)
        return own(target, text)
    start = time.monotonic()
    problem = _precheck(target, profile)
    if problem is not None:
        return problem
    try:
        recorded, scenes, codes = parse_replay(text)
    except ValueError as e:
        return Verdict(target.name, profile, False, error=f"bad replay: {e}")
    if recorded is not None and recorded != profile:
        return Verdict(target.name, profile, False,
                       error=f"bad replay: it was recorded for profile {recorded}, not {profile}")
    from conformance.machines.replays import is_robustness
    robustness = is_robustness(text, profile)
    config = CheckSettings.for_groups(profile)
    run = _run(target, profile, replace(config, robustness=True) if robustness else config,
               directions, strict_types)
    try:
        c = play(run, scenes, codes)
    except Exception as e:  # noqa: BLE001 - a level the spec refuses, an engine bug
        return Verdict(target.name, profile, False, error=f"replay failed: {type(e).__name__}: {e}")
    if robustness:      # a finding of --robustness: a warning again, never the verdict
        verdict = _verdict(run, True, None, None, start)
        verdict.robustness = [format_counterexample(c)] if c is not None else []
        return verdict
    return _verdict(run, c is None, c, None, start)


def play(run: Run, scenes, codes: str) -> Counterexample | None:
    """Play one fixed game (levels and actions) through ``run``'s machine,
    every observer compared after every action, its cases counted: the
    departure, or None. (Replays and the fixed scenarios.)"""
    played = machine(run.profile).bind(run)()
    try:
        played.begin(scenes)
        played.replay_actions(codes)
    except (Departure, Fatal) as e:
        return e.counterexample
    played.played()
    return None


def play_scenarios(target: Target, profile: str, *, directions: str = "ours",
                   strict_types: bool = False, stop_at_first: bool = False,
                   rules: Sequence[str] | None = None, counts: dict | None = None,
                   without: str = "", budget: Budget | None = None
                   ) -> tuple[list[tuple[object, Counterexample]], Run]:
    """The fixed scenarios of ``profile`` (:mod:`conformance.profiles.scenarios`),
    each played as :func:`play` plays a replay (or only those aimed at
    ``rules``): ``([(scenario, counterexample)] for each that departs,
    the run)``. Stops at the first departure with ``stop_at_first``, and
    after one that ended the target's process. ``without``: action letters
    the target cannot do (``b``, ``z``: it lacks the modifier); the
    scenarios that use them are left out. ``budget``: when it runs out, the
    scenarios stop there (``budget.ran_out``; the one under way is not
    counted)."""
    from conformance.profiles import scenarios
    run = _run(target, profile, CheckSettings.for_groups(profile), directions, strict_types,
               counts, budget)
    found = []
    for s in scenarios.SCENARIOS[profile] if budget is None else scenarios.rule_first(profile):
        if (rules is not None and s.rule not in rules) or set(without) & set(s.actions):
            continue
        run.frozen, run.focus = False, None     # each scenario stands alone
        try:
            c = play(run, s.scenes(profile), s.actions)
        except OutOfBudget:
            _ran_out(budget)
            break
        if c is not None:
            c.scenario = s.what
            c.report = format_verdict(_verdict(run, False, c, None, time.monotonic()))
            found.append((s, c))
            if stop_at_first or c.fatal:
                break
    run.frozen = bool(found)
    return found, run


# ------------------------------------------------------------------- check

def _precheck(target: Target, profile: str) -> Verdict | None:
    if profile not in ALL_PROFILES:
        raise ValueError(f"unknown profile {profile!r}; known: {', '.join(ALL_PROFILES)}")
    missing = [op for op in REQUIRED_OPERATIONS[profile] if not target.has(op)]
    if missing:
        return Verdict(target.name, profile, False, missing=missing,
                       error=f"{target.name} lacks operations of profile {profile}: "
                             + ", ".join(missing))
    return None


def _verdict(run: Run, conforms: bool, c: Counterexample | None, seed, start: float) -> Verdict:
    v = Verdict(target=run.target.name, profile=run.profile, conforms=conforms,
                counterexample=c, stats=dict(run.stats), seed=seed,
                seconds=time.monotonic() - start, warnings=list(run.warnings.values()),
                coverage=coverage(run.profile, run.case_counts))
    timed(v, run.budget)
    if c is not None:
        c.report = format_verdict(v)
    return v


def timed(v: Verdict, budget: Budget | None) -> Verdict:
    """``v`` with what ``budget`` knows: whether it ran out, the budget, the
    target's median call time."""
    if budget is not None:
        v.out_of_time = v.out_of_time or budget.ran_out
        v.budget = budget.seconds
        v.median_call = budget.median_call
    return v


def _replayed(run: Run) -> tuple[Counterexample, bool]:
    """The counterexample to report, and whether it was seen again: the last
    failure's trace (the smallest) played again with every observer compared
    (the shrinking runs compare only one); when that does not depart (a
    shrunk variant, compared on one observer only, may have gone on past a
    departure of another: one of a rule already known broken ends the
    example unreported, ``Run.masked``), the first failure's trace, found
    with every observer compared; when neither departs, the last failure as
    recorded (not seen again: really not reproducible). When the budget has
    run out: the last failure as recorded, not played again."""
    run.focus = None
    for trace in (run.last_trace, run.first_trace):
        if trace is None:
            continue
        if run.budget is not None and run.budget.expired():
            return run.last, True
        scenes, codes = trace
        try:
            played = machine(run.profile).bind(run)()
            played.begin(scenes)
            played.replay_actions("".join(codes))
        except (Departure, Fatal) as e:
            return e.counterexample, True
        except OutOfBudget:
            _ran_out(run.budget)
            return run.last, True
        except Exception:   # noqa: BLE001 - keep what was recorded
            pass
    return run.last, False


def check(target: Target, profile: str, *, max_examples: int = 100, seed: int | None = None,
          directions: str = "ours", groups: Sequence[str] | None = None,
          shrink: bool = True, strict_types: bool = False,
          robustness: bool = False, missing: Sequence[str] = (),
          budget: Budget | None = None) -> Verdict:
    """Check ``target`` against the spec under ``profile``.

    ``seed`` makes the run reproducible (None: a fresh random seed, reported
    in the verdict); ``groups`` restricts the actions drawn (see
    :data:`conformance.api.GROUPS`). Never raises for a misbehaving target:
    every problem becomes a non-conforming verdict. ``shrink=False`` reports
    the first failure found as it is (faster; for quick checks and tests).

    Every level drawn lies inside the profile's domain
    (:data:`conformance.machines.levels.DOMAINS`). Answers of the right meaning
    but not the seed's type (``None`` for False, ``[w, h]``) are accepted and
    listed in ``Verdict.warnings``; ``strict_types`` makes them departures.
    ``robustness`` (soko) also plays grids beyond the domain afterwards, with
    a quarter of the budget; what that finds goes to ``Verdict.robustness``
    and never changes ``conforms``. ``missing``: modifiers the target lacks
    (a partial check): no scenario or action uses them.

    Without ``groups``, the fixed scenarios (:mod:`conformance.profiles.scenarios`)
    are played first, then the random search; ``Verdict.coverage`` says how
    often each rule of the seed was exercised.

    ``budget`` (:class:`conformance.machines.budget.Budget`): when it runs out, the
    check stops there; without a departure found by then, the verdict has
    ``out_of_time`` (not fully checked) and ``conforms`` False.
    """
    own = getattr(machine(profile), "check", None) if profile in ALL_PROFILES else None
    if own is not None:         # a profile with its own kind of target (prolog)
        return own(target, max_examples=max_examples, seed=seed, groups=groups, shrink=shrink)
    start = time.monotonic()
    problem = _precheck(target, profile)
    if problem is not None:
        return problem
    config, without = _without(CheckSettings.for_groups(profile, groups), missing)
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
    counts: dict = {}
    stats = None
    if groups is None:          # the fixed scenarios first (conformance/scenarios.py)
        found, played = play_scenarios(target, profile, directions=directions,
                                       strict_types=strict_types, stop_at_first=True,
                                       counts=counts, without=without, budget=budget)
        if found:
            verdict = _verdict(played, False, found[0][1], seed, start)
            return _with_robustness(verdict, robustness, target, profile, config, seed,
                                    max_examples, shrink, directions, strict_types, start)
        if budget is not None and budget.ran_out:
            return _verdict(played, False, None, seed, start)
        stats = played.stats
    run = _run(target, profile, config, directions, strict_types, counts, budget)
    if stats is not None:
        run.stats = dict(stats)
    verdict = _search(run, seed, max_examples, shrink, start)
    return _with_robustness(verdict, robustness, target, profile, config, seed, max_examples,
                            shrink, directions, strict_types, start)


def _without(config: CheckSettings, missing: Sequence[str]) -> tuple[CheckSettings, str]:
    """The settings without the modifiers a partial target lacks, and the
    action letters no scenario may then use."""
    without = ""
    if "tirar_bomba" in missing:
        config, without = replace(config, throws_bombs=False), without + "b"
    if "deshacer" in missing:
        config, without = replace(config, undo=False), without + "z"
    return config, without


def _with_robustness(verdict: Verdict, robustness: bool, target, profile, config, seed,
                     max_examples, shrink, directions, strict_types, start) -> Verdict:
    if robustness and not verdict.out_of_time:
        verdict.robustness = _robustness(target, profile, config, seed, max_examples, shrink,
                                         directions, strict_types)
        verdict.seconds = time.monotonic() - start
        if verdict.counterexample is not None:
            verdict.counterexample.report = format_verdict(verdict)
    return verdict


def _robustness(target, profile, config: CheckSettings, seed, max_examples, shrink,
                directions, strict_types) -> list[str]:
    """What a search on inputs beyond the profile's domain finds (soko only:
    ragged or unevenly padded rows, fewer boxes than goals)."""
    if profile != "soko":
        return []
    beyond = _run(target, profile, replace(config, robustness=True), directions, strict_types)
    found = _search(beyond, seed, max(10, max_examples // 4), shrink, time.monotonic())
    if found.counterexample is not None:
        return [format_counterexample(found.counterexample)]
    if found.error:
        return [found.error]
    return []


def check_rules(target: Target, profile: str, *, max_examples: int = 100,
                seed: int | None = None, directions: str = "ours", shrink: bool = True,
                strict_types: bool = False, missing: Sequence[str] = (),
                max_rounds: int | None = None, budget: Budget | None = None,
                budget_is_failure: bool = False) -> Verdict:
    """Check ``target`` rule by rule of the seed (``spec.rules``): every
    fixed scenario (each departure blamed on its rule), then the random
    search, again and again, each time with the rules already found broken
    masked (a departure blamed on one of them ends its example unreported),
    until a search finds no new broken rule. The verdict carries one
    :class:`~conformance.api.RuleOutcome` per rule (``Verdict.outcomes``,
    see :mod:`conformance.reports.points`); its counterexample is the first
    departure found. ``missing``: operations the target lacks (a partial
    check): the rules that need them are lost, and no scenario or search
    action uses a modifier it lacks (``tirar_bomba``, ``deshacer``). A
    search departing with an error that ends the target's process stops the
    rounds.

    ``budget``: when it runs out, the check stops there (``out_of_time``);
    the rules it had not exercised by then are ``unreached``, and earn their
    point (a slow but correct target loses nothing) unless
    ``budget_is_failure``."""
    from conformance.reports import points
    start = time.monotonic()
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
    counts: dict = {}
    config, without = _without(CheckSettings.for_groups(profile), missing)
    found, played = play_scenarios(target, profile, directions=directions,
                                   strict_types=strict_types, counts=counts, without=without,
                                   budget=budget)
    broken: dict[str, Counterexample] = {}
    for _, c in found:
        broken.setdefault(c.rule or "?", c)
    stats = dict(played.stats)
    warnings = dict(played.warnings)
    error = None
    fatal = any(c.fatal for _, c in found)
    rules_left = len(coverage(profile, {}))
    rounds = 0
    out_of_time = budget is not None and budget.ran_out
    while (not fatal and not out_of_time and len(broken) < rules_left
           and (max_rounds is None or rounds < max_rounds)):
        rounds += 1
        run = _run(target, profile, config, directions, strict_types, counts, budget)
        run.masked = frozenset(broken)
        run.stats = dict(stats)
        v = _search(run, seed, max_examples, shrink, start)
        stats = v.stats
        warnings.update(run.warnings)
        out_of_time = v.out_of_time
        if v.error:
            error = v.error
            break
        c = v.counterexample
        if c is None or (c.rule or "?") in broken:
            break
        broken[c.rule or "?"] = c
        fatal = c.fatal
    first = next(iter(broken.values()), None)
    v = Verdict(target=target.name, profile=profile,
                conforms=not broken and error is None and not out_of_time,
                counterexample=first, error=error, stats=stats, seed=seed,
                seconds=time.monotonic() - start, warnings=list(warnings.values()),
                coverage=coverage(profile, counts), out_of_time=out_of_time)
    timed(v, budget)
    v.outcomes = points.outcomes(profile, v.coverage,
                                 {r: (c, c.report) for r, c in broken.items()}, missing,
                                 unreached="credited" if out_of_time and not budget_is_failure
                                 else "unreached" if out_of_time else "")
    if first is not None:
        first.report = format_verdict(v)
    return v


@contextlib.contextmanager
def hypothesis_home():
    """Hypothesis' storage (its cache of constants) in our cache folder
    while one check runs, not ``.hypothesis/`` in the user's folder (unless
    ``HYPOTHESIS_STORAGE_DIRECTORY`` says where); the setting found before is
    restored after, so a test session around the pytest plugin keeps its own."""
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    found = vars(configuration).get("__hypothesis_home_directory")
    set_hypothesis_home_dir(storage.cache_dir("hypothesis"))
    try:
        yield
    finally:
        set_hypothesis_home_dir(found)


@contextlib.contextmanager
def fixed_draws():
    """Draws that depend on the seed alone. Hypothesis (from 6.131) mixes
    into about one draw in twenty the literals of every "local" module
    loaded in the process: which modules those are depends on how the
    toolkit was installed, on a student's module imported into this process
    (``--in-process``), and on the students a class run checked before. One
    seed would then draw other examples for another student, or for the same
    student checked in the sandbox. While a check searches, Hypothesis gets
    no local constants (its own global ones stay); with a Hypothesis that has
    none, this does nothing."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:         # pragma: no cover - another Hypothesis layout
        yield
        return
    found = getattr(providers, "_get_local_constants", None)
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    constants = getattr(providers, "Constants", None)
    if found is None or cache is None or constants is None:
        yield
        return
    none = constants()
    providers._get_local_constants = lambda: none
    cache.clear()               # (it holds the local constants allowed per kind of draw)
    try:
        yield
    finally:
        providers._get_local_constants = found
        cache.clear()


def search_machine(cls, seed: int, *, max_examples: int, steps: int, shrink: bool) -> None:
    """Run the state machine ``cls`` as a check does, for every language:
    the given seed, at most ``max_examples`` runs of ``steps`` steps, no
    deadline, no example database, quiet, Hypothesis's files in the
    toolkit's cache and :func:`fixed_draws`. A departure propagates as the
    exception the machine raised."""
    config = settings(
        max_examples=max_examples, stateful_step_count=steps, deadline=None, database=None,
        derandomize=False, suppress_health_check=list(HealthCheck),
        phases=(Phase.generate, Phase.shrink) if shrink else (Phase.generate,), report_multiple_bugs=False,
        verbosity=Verbosity.quiet, print_blob=False,
    )
    with hypothesis_home(), fixed_draws():
        run_state_machine_as_test(hypothesis_seed(seed)(cls), settings=config)


def _search(run: Run, seed: int, max_examples: int, shrink: bool, start: float) -> Verdict:
    try:
        with run.drawing():
            search_machine(machine(run.profile).bind(run), seed, max_examples=max_examples,
                           steps=STEPS, shrink=shrink)
    except (Departure, Fatal) as e:
        return _verdict(run, False, e.counterexample, seed, start)
    except StopShrinking:
        return _verdict(run, False, _replayed(run)[0], seed, start)
    except OutOfBudget:         # a departure found before is reported as usual
        _ran_out(run.budget)
        return _verdict(run, False, run.last, seed, start)
    except Exception as e:  # noqa: BLE001 - Flaky and friends: report the last departure
        if run.budget is not None and (run.budget.ran_out or fired()):
            # Stopped in the middle of an example: Hypothesis, recording it
            # on its way out, may call that Flaky (the OutOfBudget replaced).
            _ran_out(run.budget)
            return _verdict(run, False, run.last, seed, start)
        if run.last is not None:
            c, again = _replayed(run)
            if not again and not run.stopped:
                c.message += (" (the failure was not reproducible every time: "
                              f"{type(e).__name__})")
            return _verdict(run, False, c, seed, start)
        v = _verdict(run, False, None, seed, start)
        v.error = ("internal error in the conformance engine: "
                   + "".join(traceback.format_exception_only(type(e), e)).strip())
        return v
    return _verdict(run, True, None, seed, start)
