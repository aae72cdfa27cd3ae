"""The conformance engine: the spec and a target played side by side.

:func:`check` runs a Hypothesis :class:`~hypothesis.stateful.RuleBasedStateMachine`
per profile. Each example draws a level (or, for ``extendido``, a sequence of
one to three) inside the profile's domain (``Profile.domain``: the
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

import random
import time
import traceback
from dataclasses import replace
from typing import Sequence

from conformance import profiles
from conformance.api import Counterexample, Target, Verdict
from conformance.machines.base import CheckSettings, Deferred, Departure, Fatal, Run, StopShrinking
from conformance.machines.budget import Budget, OutOfBudget, fired, timed
from conformance.machines.profile import Profile
from conformance.machines.replays import is_robustness, parse_replay
from conformance.machines.search import search_machine
from conformance.reports import points

#: Actions per example (Hypothesis' ``stateful_step_count``).
STEPS = 30
#: Wall-clock cap on shrinking a failure (the smallest one found by then is reported).
SHRINK_SECONDS = 20.0
#: Whether a search is first played with each example's steps deferred
#: (``Run.defer``, see :func:`_search`); False: one round trip a step (tests
#: compare the two).
DEFER = True


def _profile(profile: str | Profile) -> Profile:
    return profile if isinstance(profile, Profile) else profiles.get(profile)


def _run(target: Target, profile: Profile, config: CheckSettings, directions: str = "ours",
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


def coverage(profile: Profile, counts: dict) -> dict[str, int]:
    """Per rule of ``profile``'s table, how often ``counts`` took one of its
    cases."""
    return profile.rules.exercised(counts, profile.name)


# ------------------------------------------------------------------ replay

def replay(target: Target, profile: str, text: str, *, directions: str = "ours",
           strict_types: bool = False) -> Verdict:
    """Play exactly one recorded counterexample (no search, no shrinking)
    and compare as :func:`check` does. ``conforms`` is False iff it still
    departs (the verdict then carries the counterexample again). A finding
    of ``--robustness`` (:func:`conformance.machines.replays.is_robustness`) is
    played as such and, when it departs again, is a warning in
    ``Verdict.robustness``: the verdict conforms, as the check's did."""
    profile = _profile(profile)
    start = time.monotonic()
    problem = _precheck(target, profile)
    if problem is not None:
        return problem
    try:
        recorded, scenes, codes = parse_replay(text, profiles.names())
    except ValueError as e:
        return Verdict(target.name, profile.name, False, error=f"bad replay: {e}")
    if recorded is not None and recorded != profile.name:
        return Verdict(target.name, profile.name, False,
                       error=f"bad replay: it was recorded for profile {recorded}, "
                             f"not {profile.name}")
    robustness = is_robustness(text, profile.domain if profile.robustness else None)
    config = CheckSettings.for_groups(profile)
    run = _run(target, profile, replace(config, robustness=True) if robustness else config,
               directions, strict_types)
    try:
        c = play(run, scenes, codes)
    except Exception as e:  # noqa: BLE001 - a level the spec refuses, an engine bug
        return Verdict(target.name, profile.name, False,
                       error=f"replay failed: {type(e).__name__}: {e}")
    if robustness:      # a finding of --robustness: a warning again, never the verdict
        verdict = _verdict(run, True, None, None, start)
        verdict.beyond = [c] if c is not None else []
        return verdict
    return _verdict(run, c is None, c, None, start)


def play(run: Run, scenes, codes: str) -> Counterexample | None:
    """Play one fixed game (levels and actions) through ``run``'s machine,
    every observer compared after every action, its cases counted: the
    departure, or None. (Replays and the fixed scenarios.)"""
    played = run.definition.machine.bind(run)()
    try:
        played.begin(scenes)
        with played.pipelined():    # (each action judged as if played alone)
            played.replay_actions(codes)
        played.finish()
    except (Departure, Fatal) as e:
        return e.counterexample
    played.played()
    return None


def play_scenarios(target: Target, profile: str | Profile, *, directions: str = "ours",
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
    profile = _profile(profile)
    run = _run(target, profile, CheckSettings.for_groups(profile), directions, strict_types,
               counts, budget)
    found = []
    for s in profile.scenarios if budget is None else profile.rule_first():
        if (rules is not None and s.rule not in rules) or set(without) & set(s.actions):
            continue
        run.frozen, run.focus = False, None     # each scenario stands alone
        try:
            c = play(run, s.scenes(profile.grid), s.actions)
        except OutOfBudget:
            _ran_out(budget)
            break
        if c is not None:
            c.scenario = s.what
            _verdict(run, False, c, None, time.monotonic())    # its report's verdict (c.seen)
            found.append((s, c))
            if stop_at_first or c.fatal:
                break
    run.frozen = bool(found)
    return found, run


def replay_scenarios(target: Target, profile: str | Profile, *, directions: str = "ours",
                     strict_types: bool = False, stop_at_first: bool = False,
                     rules: Sequence[str] | None = None) -> list[tuple[object, Verdict]]:
    """Play every fixed scenario of ``profile`` (or those aimed at
    ``rules``) against ``target``, each through its ``--replay`` text as
    :func:`replay` plays it: ``[(scenario, verdict)]`` for each that departs
    (its verdict carries the counterexample), in order. ``stop_at_first``:
    stop at the first departure."""
    profile = _profile(profile)
    found = []
    for s in profile.scenarios:
        if rules is not None and s.rule not in rules:
            continue
        verdict = replay(target, profile, s.replay_text(profile), directions=directions,
                         strict_types=strict_types)
        if not verdict.conforms:
            found.append((s, verdict))
            if stop_at_first:
                break
    return found


# ------------------------------------------------------------------- check

def _precheck(target: Target, profile: Profile) -> Verdict | None:
    missing = profile.missing(target.has)
    if missing:
        return Verdict(target.name, profile.name, False, missing=missing,
                       error=f"{target.name} lacks operations of profile {profile.name}: "
                             + ", ".join(missing))
    return None


def _verdict(run: Run, conforms: bool, c: Counterexample | None, seed, start: float) -> Verdict:
    v = Verdict(target=run.target.name, profile=run.profile, conforms=conforms,
                counterexample=c, stats=dict(run.stats), seed=seed,
                seconds=time.monotonic() - start, warnings=list(run.warnings.values()),
                coverage=coverage(run.definition, run.case_counts))
    timed(v, run.budget)
    if c is not None:
        c.seen = v      # its report is this verdict's (written at the end of the check)
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
            played = run.definition.machine.bind(run)()
            played.begin(scenes)
            played.replay_actions("".join(codes))
            played.finish()
        except (Departure, Fatal) as e:
            return e.counterexample, True
        except OutOfBudget:
            _ran_out(run.budget)
            return run.last, True
        except Exception:   # noqa: BLE001 - keep what was recorded
            pass
    return run.last, False


def check(target: Target, profile: str | Profile, *, max_examples: int = 100, seed: int | None = None,
          directions: str = "ours", groups: Sequence[str] | None = None,
          shrink: bool = True, strict_types: bool = False,
          robustness: bool = False, missing: Sequence[str] = (),
          budget: Budget | None = None) -> Verdict:
    """Check ``target`` against the spec under ``profile``.

    ``seed`` makes the run reproducible (None: a fresh random seed, reported
    in the verdict); ``groups`` restricts the actions drawn (see
    its profile's ``groups``). Never raises for a misbehaving target:
    every problem becomes a non-conforming verdict. ``shrink=False`` reports
    the first failure found as it is (faster; for quick checks and tests).

    Every level drawn lies inside the profile's domain
    (its ``Profile.domain``). Answers of the right meaning
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
    profile = _profile(profile)
    start = time.monotonic()
    problem = _precheck(target, profile)
    if problem is not None:
        return problem
    config, without = _without(CheckSettings.for_groups(profile, groups), missing)
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
    counts: dict = {}
    stats = None
    if groups is None:          # the profile's fixed scenarios first
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
        verdict.beyond = _robustness(target, profile, config, seed, max_examples, shrink,
                                     directions, strict_types)
        verdict.seconds = time.monotonic() - start
    return verdict


def _robustness(target, profile: Profile, config: CheckSettings, seed, max_examples, shrink,
                directions, strict_types) -> list:
    """What a search on inputs beyond the profile's domain finds (a profile
    that has such inputs: seed 002's grids with ragged or unevenly padded
    rows, fewer boxes than goals): its counterexample, or an error line."""
    if not profile.robustness:
        return []
    beyond = _run(target, profile, replace(config, robustness=True), directions, strict_types)
    found = _search(beyond, seed, max(10, max_examples // 4), shrink, time.monotonic())
    if found.counterexample is not None:
        return [found.counterexample]
    if found.error:
        return [found.error]
    return []


def check_rules(target: Target, profile: str | Profile, *, max_examples: int = 100,
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
    profile = _profile(profile)
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
    v = Verdict(target=target.name, profile=profile.name,
                conforms=not broken and error is None and not out_of_time,
                counterexample=first, error=error, stats=stats, seed=seed,
                seconds=time.monotonic() - start, warnings=list(warnings.values()),
                coverage=coverage(profile, counts), out_of_time=out_of_time)
    timed(v, budget)
    v.outcomes = points.outcomes(profile.name, v.coverage,
                                 {r: (c, c.seen) for r, c in broken.items()}, missing,
                                 unreached="credited" if out_of_time and not budget_is_failure
                                 else "unreached" if out_of_time else "")
    if first is not None:
        first.seen = v
    return v


def _search(run: Run, seed: int, max_examples: int, shrink: bool, start: float) -> Verdict:
    """The random search: first with each example's steps deferred
    (``Run.defer``: far fewer round trips); when that finds a departure, the
    search is played again from the start as before, one round trip a step
    (the same examples, the departure raised where Hypothesis sees it, so
    the same shrinking and the same counterexample as without deferring).
    The second play starts from the coverage and counts the first found;
    when it does not depart (a target whose answers depend on what it was
    asked before) or runs out of time first, the first play's departure
    stands."""
    machine = run.definition.machine
    if not (DEFER and machine.PIPELINE and machine.DEFERS):
        return _search_once(run, seed, max_examples, shrink, start)
    counts, stats = dict(run.case_counts), dict(run.stats)
    run.defer = True
    try:
        first = _search_once(run, seed, max_examples, False, start)
    except Deferred:
        first = _verdict(run, False, run.last, seed, start)
    if run.last is None:
        return first
    run.restart(stats)
    run.case_counts.clear()
    run.case_counts.update(counts)
    again = _search_once(run, seed, max_examples, shrink, start)
    return again if again.counterexample is not None or again.error else first


def _search_once(run: Run, seed: int, max_examples: int, shrink: bool, start: float) -> Verdict:
    try:
        with run.drawing():
            search_machine(run.definition.machine.bind(run), seed, max_examples=max_examples,
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
