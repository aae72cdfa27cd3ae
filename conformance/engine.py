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
* ``aed2`` (a C++ ``aed2_Juego``, :mod:`conformance.aed2`): as ``extendido``
  less ``indice_nivel`` and ``gano`` (the interface has neither), plus
  ``mover``'s answer (did the move complete the level?); it also undoes and
  redoes recent actions and stops walking a solution when a box lands on a
  goal (see :class:`conformance.machines.aed2.Aed2Machine`);
* ``soko``: ``dimensiones``, ``juego_ganado`` and ``hay_pared`` /
  ``hay_objetivo`` / ``hay_caja`` / ``hay_jugador`` on every cell; besides,
  ``mover`` must leave its argument unchanged (``__fingerprint__`` before and
  after) and a blocked move must return a grid equal to it (``__equal__``).

A disagreement (or a :class:`~conformance.api.TargetError`) raises inside the
machine; Hypothesis shrinks it to a small level and a short action list, and
the final, shrunk run is turned into a :class:`~conformance.api.Counterexample`
with a command line that replays exactly it (:func:`replay`; the format is
:mod:`conformance.replays`). Errors that end
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

from conformance.api import ALL_PROFILES, REQUIRED_OPERATIONS, Counterexample, Target, Verdict
from conformance.machines import machine
from conformance.machines.base import CheckSettings, Departure, Fatal, Run, StopShrinking
from conformance.replays import parse_replay
from conformance.report import format_counterexample, format_verdict
from levels import storage

#: Actions per example (Hypothesis' ``stateful_step_count``).
STEPS = 30
#: Wall-clock cap on shrinking a failure (the smallest one found by then is reported).
SHRINK_SECONDS = 20.0


def _run(target: Target, profile: str, config: CheckSettings, directions: str = "ours",
         strict_types: bool = False) -> Run:
    return Run(target, profile, config, directions, strict_types, SHRINK_SECONDS)


# ------------------------------------------------------------------ replay

def replay(target: Target, profile: str, text: str, *, directions: str = "ours",
           strict_types: bool = False) -> Verdict:
    """Play exactly one recorded counterexample (no search, no shrinking)
    and compare as :func:`check` does. ``conforms`` is False iff it still
    departs (the verdict then carries the counterexample again)."""
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
    run = _run(target, profile, CheckSettings.for_groups(profile), directions, strict_types)
    try:
        played = machine(profile).bind(run)()
        played.begin(scenes)
        played.replay_actions(codes)
    except (Departure, Fatal) as e:
        return _verdict(run, False, e.counterexample, None, start)
    except Exception as e:  # noqa: BLE001 - a level the spec refuses, an engine bug
        return Verdict(target.name, profile, False, error=f"replay failed: {type(e).__name__}: {e}")
    return _verdict(run, True, None, None, start)


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
                seconds=time.monotonic() - start, warnings=list(run.warnings.values()))
    if c is not None:
        c.report = format_verdict(v)
    return v


def _replayed(run: Run) -> Counterexample:
    """The last failure's trace played again with every observer compared
    (the shrinking runs compare only one): the counterexample to report."""
    scenes, codes = run.last_trace
    last, run.focus = run.last, None
    played = machine(run.profile).bind(run)()
    try:
        played.begin(scenes)
        played.replay_actions("".join(codes))
    except (Departure, Fatal) as e:
        return e.counterexample
    except Exception:   # noqa: BLE001 - keep what was recorded
        pass
    return last


def check(target: Target, profile: str, *, max_examples: int = 100, seed: int | None = None,
          directions: str = "ours", groups: Sequence[str] | None = None,
          shrink: bool = True, strict_types: bool = False,
          robustness: bool = False) -> Verdict:
    """Check ``target`` against the spec under ``profile``.

    ``seed`` makes the run reproducible (None: a fresh random seed, reported
    in the verdict); ``groups`` restricts the actions drawn (see
    :data:`conformance.api.GROUPS`). Never raises for a misbehaving target:
    every problem becomes a non-conforming verdict. ``shrink=False`` reports
    the first failure found as it is (faster; for quick checks and tests).

    Every level drawn lies inside the profile's domain
    (:data:`conformance.engine_levels.DOMAINS`). Answers of the right meaning
    but not the seed's type (``None`` for False, ``[w, h]``) are accepted and
    listed in ``Verdict.warnings``; ``strict_types`` makes them departures.
    ``robustness`` (soko) also plays grids beyond the domain afterwards, with
    a quarter of the budget; what that finds goes to ``Verdict.robustness``
    and never changes ``conforms``.
    """
    start = time.monotonic()
    problem = _precheck(target, profile)
    if problem is not None:
        return problem
    config = CheckSettings.for_groups(profile, groups)
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 32)
    verdict = _search(_run(target, profile, config, directions, strict_types), seed,
                      max_examples, shrink, start)
    if robustness:
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


def _search(run: Run, seed: int, max_examples: int, shrink: bool, start: float) -> Verdict:
    cls = hypothesis_seed(seed)(machine(run.profile).bind(run))
    config = settings(
        max_examples=max_examples, stateful_step_count=STEPS, deadline=None, database=None,
        derandomize=False, suppress_health_check=list(HealthCheck),
        phases=(Phase.generate, Phase.shrink) if shrink else (Phase.generate,), report_multiple_bugs=False,
        verbosity=Verbosity.quiet, print_blob=False,
    )
    try:
        with run.drawing(), hypothesis_home():
            run_state_machine_as_test(cls, settings=config)
    except (Departure, Fatal) as e:
        return _verdict(run, False, e.counterexample, seed, start)
    except StopShrinking:
        return _verdict(run, False, _replayed(run), seed, start)
    except Exception as e:  # noqa: BLE001 - Flaky and friends: report the last departure
        if run.last is not None:
            c = _replayed(run)
            if not run.stopped:
                c.message += (" (the failure was not reproducible every time: "
                              f"{type(e).__name__})")
            return _verdict(run, False, c, seed, start)
        v = _verdict(run, False, None, seed, start)
        v.error = ("internal error in the conformance engine: "
                   + "".join(traceback.format_exception_only(type(e), e)).strip())
        return v
    return _verdict(run, True, None, seed, start)
