"""Where to look: after a check has found and shrunk a departure, rank the
lines of the target's own files by how much they look like its cause
(spectrum-based fault localisation).

A target that answers the ``SPECTRA`` requests is localised, and only
after a departure: a Python target's sandbox child records line spectra
(:mod:`conformance.sandbox.spectra`), a C++ target plays a coverage build
(``conformance.profiles.aed2.coverage``), while this module replays,
through the profile's own machine, plays around the departure, each
labelled by what the machine says of it:

* *failing*: it departs, blamed on the same rule;
* *passing*: it does not depart at all;
* anything else (another rule, a crash) is left out.

The plays, in order, until :data:`MAX_PLAYS` or the time allowed: the
shrunk counterexample, the same play turned (:func:`turned`), its
prefixes (they pass: they stop before the departing action), its states as
fresh levels, its last action alone from the state before it as a fresh
level (:func:`departing_step`), variations of it (one action changed or
dropped, one more), the rule's fixed scenarios and then the profile's
others, random plays on the counterexample's levels.

Each line that ran in a failing play is scored from ``ef``/``ep`` (failing
and passing plays that ran it) and ``nf`` (failing plays that did not) by
a formula of :data:`FORMULAS`; when a play of no action at all departs
(the fault shows without acting: an observer's, or the start's), the lines
that ran under the departing operation there come first
(``Spectra.focus``); when the last action alone does not depart, the
fault needs the play's history, and the lines the departing operation ran
in the failing plays, and some passing play ran too, come last
(``Spectra.cleared``); :data:`FORMULA` is the one
``benchmarks/localize.py`` measured best (see ``docs/conformance.md``,
"Where to look"). Ties are broken by fewer passing plays, then by the
line's order in its file; the lines of one function that the same plays
ran are one place (``Spectra.groups``, :func:`blocks`). Lines the
departure names itself (a sanitizer's ``file:line`` in the target's own
files: the profile's ``located``, of the counterexample and of the
verdict's further findings) come before all
(``Spectra.pinned``). It is a hint, and the reports say so.
"""

from __future__ import annotations

import dataclasses
import random
import time
from pathlib import Path
from typing import Callable, Iterator

from conformance.api import SPECTRA, Counterexample, Localization, Target, TargetError
from conformance.machines.base import CheckSettings, Departure, Fatal, Run
from conformance.machines.budget import Budget, OutOfBudget
from conformance.machines.emitting import replay_of
from conformance.machines import levels as lv
from conformance.machines.profile import Profile
from conformance.machines.suspects import (  # noqa: F401 - the ranking, for this module's users
    FORMULA, FORMULAS, GRANULARITY, MAX_SECONDS, MIN_SECONDS, SHARE, SHOWN, Spectra, allowance,
    blocks, localization, rank,
)

#: Plays at most per localised departure (``benchmarks/localize.py``, the
#: mutants and the labelled public files together: the most faulty lines
#: first and in the top 3; more plays tell more lines apart but, on a wrong
#: ``juego_ganado``, rank its ``return False`` above its test).
MAX_PLAYS = 20
#: Random plays at most, and their longest.
RANDOM_PLAYS = 40
RANDOM_LENGTH = 12


# ----------------------------------------------------------------- the plays

def _letters(settings: CheckSettings) -> str:
    return "udlr" + ("b" if settings.throws_bombs else "") + ("z" if settings.undo else "")


def plays_around(profile: Profile, settings: CheckSettings, scenes: list, codes: str,
                 rule: str | None, seed: int = 0) -> Iterator[tuple[list, str]]:
    """The plays :func:`localize` labels, in the module docstring's order."""
    letters = _letters(settings)
    seen: set = set()

    def fresh(s, c):
        key = (id(s), c)
        if key in seen:
            return False
        seen.add(key)
        return True

    for k in range(len(codes), -1, -1):         # the counterexample, then its prefixes
        if fresh(scenes, codes[:k]):
            yield scenes, codes[:k]
        if k == len(codes):                     # and its turned copies
            yield from turned(scenes, codes)
    for state in _states(profile, scenes, codes):   # each of its states as a fresh level
        yield [state], ""
    step = departing_step(profile, scenes, codes)   # its last action from a fresh level
    if step is not None and fresh(*step):
        yield step
    for i in range(len(codes)):                 # one action changed or dropped
        for other in letters:
            changed = codes[:i] + other + codes[i + 1:]
            if other != codes[i] and fresh(scenes, changed):
                yield scenes, changed
        dropped = codes[:i] + codes[i + 1:]
        if fresh(scenes, dropped):
            yield scenes, dropped
    for other in letters:
        if fresh(scenes, codes + other):
            yield scenes, codes + other
    ordered = sorted(profile.scenarios, key=lambda s: s.rule != rule)
    for s in ordered:                          # the rule's scenarios first, then the others
        if set(s.actions) <= set(letters):
            yield s.scenes(profile.grid), s.actions
    rng = random.Random(seed)
    for _ in range(RANDOM_PLAYS):
        length = rng.randint(1, max(RANDOM_LENGTH, 2 * len(codes)))
        yield scenes, "".join(rng.choice(letters) for _ in range(length))


#: The quarter turns a play is replayed under (:func:`turned`).
TURNS = (1, 2, 3)


def _turn(cell: tuple[int, int], quarters: int) -> tuple[int, int]:
    x, y = cell
    for _ in range(quarters):
        x, y = -y, x
    return x, y


def turned(scenes: list, codes: str, quarters: tuple[int, ...] = TURNS) -> Iterator[tuple[list, str]]:
    """The play ``codes`` on ``scenes`` turned by each of ``quarters``
    quarter turns: every level's cells turned (then moved back so its
    corner stays where it was) and every move turned with them, other
    actions kept. Sokoban's rules know no direction, so the turned play
    departs where the play does, unless the fault depends on the direction;
    either way it runs the same code under other directions, which tells
    a direction's incidental lines (a ``case`` of a switch) from the fault.
    A turned play equal to the play or to one before it is left out;
    nothing when a level is given as exact rows (``Scene.desc``: a grid of
    its own size) or has no cells."""
    letter_of = {step: letter for letter, step in lv.STEP.items()}
    found = [(list(scenes), codes)]
    for q in quarters:
        try:
            play = ([_turned_scene(scene, q) for scene in scenes],
                    "".join(letter_of[_turn(lv.STEP[c], q)] if c in lv.STEP else c
                            for c in codes))
        except (AttributeError, TypeError, ValueError):
            return
        if play not in found:               # a level its turn leaves as it was: once
            found.append(play)
            yield play


def _turned_scene(scene, quarters: int):
    if getattr(scene, "desc", None) is not None:
        raise ValueError("a level of exact rows")
    cells = [*scene.walls, *scene.boxes, *scene.goals, scene.player]
    turned_cells = [_turn(c, quarters) for c in cells]
    dx = min(x for x, _ in cells) - min(x for x, _ in turned_cells)
    dy = min(y for _, y in cells) - min(y for _, y in turned_cells)

    def move(group):
        return frozenset((x + dx, y + dy) for x, y in (_turn(c, quarters) for c in group))

    px, py = _turn(scene.player, quarters)
    return dataclasses.replace(scene, walls=move(scene.walls), boxes=move(scene.boxes),
                               goals=move(scene.goals), player=(px + dx, py + dy), solution="")


def departing_step(profile: Profile, scenes: list, codes: str) -> tuple[list, str] | None:
    """The last action of ``codes`` played alone from the state before it
    made a fresh level (``Stepper.scene``), with the levels still to come
    after it (``Stepper.level``), when the spec takes both to the same
    state (the play's history does not change what that action does); None
    when ``codes`` has fewer than two actions (that play is the
    counterexample's own), the profile cannot make a level of that state,
    or the spec ends them apart (an undo, which the fresh level has no
    history for). When the play departs, so does this one mostly; when it
    does not, the fault needs the play's history (a state the observers
    cannot see, left by an earlier action) and the departing operation only
    read it (``Spectra.cleared``)."""
    if len(codes) < 2:
        return None
    stepper = profile.stepper
    try:
        state = stepper.start(scenes)
        for code in codes[:-1]:
            after = stepper.step(state, code)
            state = state if after is None else after
        after = stepper.step(state, codes[-1])
        scene = stepper.scene(state)
        if after is None or scene is None:
            return None                 # not played by a check, or not a level
        play = ([scene, *scenes[stepper.level(state) + 1:]], codes[-1])
        alone = stepper.step(stepper.start(play[0]), codes[-1])
        same = (alone is not None and stepper.scene(alone) == stepper.scene(after)
                and stepper.level(alone) + stepper.level(state) == stepper.level(after))
    except Exception:  # noqa: BLE001 - a state the spec cannot draw: no such play
        return None
    return play if same else None


def _states(profile: Profile, scenes: list, codes: str) -> list:
    """The spec's states along ``codes`` as fresh levels (the last first),
    where the profile can make one of a state (``Stepper.scene``): a play
    that departs on one of them alone blames the observers and the start,
    one that keeps the rule clears them."""
    stepper = profile.stepper
    try:
        state = stepper.start(scenes)
        states = [state]
        for code in codes:
            after = stepper.step(state, code)
            state = state if after is None else after
            states.append(state)
        found = [stepper.scene(s) for s in reversed(states)]
    except Exception:  # noqa: BLE001 - a state the spec cannot draw: none of these plays
        return []
    unique = []
    for s in found:
        if s is not None and s not in unique:
            unique.append(s)
    return unique


# --------------------------------------------------------------- localising

def innermost(target: Target) -> Target:
    """The target under any adapters (directions, a partial check): the one
    that answers SPECTRA."""
    while hasattr(target, "inner"):
        target = target.inner
    return target


def own_folder(target: Target) -> Path | None:
    """The folder the target's files are relative to in its spectra (that
    of its file, or of its package; a target of folders says it, as
    ``source_folder``), when it has one."""
    folder = getattr(innermost(target), "source_folder", None)
    if folder is not None:
        return Path(folder).resolve()
    spec = getattr(innermost(target), "spec", None)
    path = getattr(spec, "path", None)
    return Path(path).resolve().parent if path else None


def _play(run: Run, scenes: list, codes: str, take: Callable[[], frozenset],
          each_step: bool = False) -> tuple[list, Counterexample | None]:
    """Play one game through ``run``'s machine as :func:`conformance.checking.engine.play`
    does, taking its spectrum at its end (``each_step``: of its start and of
    each action apart, one round trip more per action): ``(the spectra,
    the departure or None)``."""
    played = run.definition.machine.bind(run)()
    steps = []
    try:
        played.begin(scenes)
        if each_step:
            steps.append(take())
        for code in codes:
            played.act(code)
            if each_step:
                steps.append(take())
    except (Departure, Fatal) as e:
        if not e.counterexample.fatal:
            steps.append(take())
        return steps, e.counterexample
    if not each_step:
        steps.append(take())
    return steps, None


def record(target: Target, profile: Profile, c: Counterexample, *, directions: str = "ours",
           strict_types: bool = False, budget: Budget | None = None,
           seconds: float = MAX_SECONDS, max_plays: int = MAX_PLAYS,
           each_step: bool = False) -> Spectra | None:
    """Play the plays around ``c`` with line spectra on: what they ran, or
    None when the target offers no spectra. ``each_step``: a spectrum per
    action (for :meth:`Spectra.tests`' ``"step"``; the reports rank plays)."""
    try:
        scenes, codes = replay_of(c)
    except ValueError:                  # not a play of ours (a test's fake engine)
        return None
    spectra_target = innermost(target)
    try:
        spectra_target.call(SPECTRA, "start")
    except TargetError:
        return None
    settings = CheckSettings.for_groups(profile)
    run = Run(target, profile, settings, directions, strict_types)
    run.frozen = True                  # the check's counts stay the check's
    run.budget = budget
    found = Spectra([], {}, groups=True)

    under: dict[str, set] = {}          # operation -> lines, in the play under way

    def take() -> frozenset:
        keys = set()
        for f, line, function, ops, *part in spectra_target.call(SPECTRA, "take"):
            key = (str(f), int(line), *(int(p) for p in part[:1]))   # a part: see blocks()
            keys.add(key)
            found.functions.setdefault(key, str(function))
            for op in ops:
                under.setdefault(str(op), set()).add(key)
        return frozenset(keys)

    focus: set = set()
    read: set = set()           # lines the departing operation ran in failing plays
    passed: set = set()         # lines passing plays ran
    step = departing_step(profile, scenes, codes)
    alone: int | None = None    # the index of that play when it did not depart

    deadline = time.monotonic() + seconds
    try:
        take()                                      # nothing before the first play counts
        for n, (s, a) in enumerate(plays_around(profile, settings, scenes, codes, c.rule)):
            if n >= max_plays or time.monotonic() > deadline:
                break
            under.clear()
            try:
                spectra_target.call(SPECTRA, "start")   # again: a fresh child after a crash
                steps, departed = _play(run, s, a, take, each_step)
            except TargetError:
                continue
            if departed is not None and (departed.fatal or departed.rule != c.rule):
                continue                                # another fault: neither label
            found.plays.append((tuple(steps), departed is not None))
            if departed is not None:
                lines = frozenset(under.get(departed.operation.split("(")[0].strip(), ()))
                if not a:
                    found.focus_at.append((len(found.plays) - 1, lines))
                    focus.update(lines)
                read.update(lines)
            else:
                passed.update(*steps)
                if (s, a) == step:
                    alone = len(found.plays) - 1
    except OutOfBudget:
        pass
    finally:
        found.focus = frozenset(focus)
        if alone is not None:
            found.cleared = frozenset((read & passed) - focus)
            found.cleared_at.append((alone, found.cleared))
        try:
            spectra_target.call(SPECTRA, "stop")
        except (TargetError, OutOfBudget):
            pass
    return found


def spectra_for(target: Target, profile: Profile, c: Counterexample, *, directions: str = "ours",
                strict_types: bool = False, budget: Budget | None = None,
                seconds: float = MAX_SECONDS, max_plays: int = MAX_PLAYS,
                pinned: list | None = None, each_step: bool = False) -> Spectra | None:
    """What :func:`localize` ranks: the spectra of the plays around ``c``
    (:func:`record`), with the lines ``pinned`` (``[(file, line,
    function)]``) first; when no play failed again (or ``c`` cannot be
    replayed), the pinned lines alone, as run by ``c``'s one play. None:
    nothing to rank."""
    pinned = list(pinned or ())
    spectra = None
    # A finding only a sanitizer build shows (``c.sanitizer_flags``) does not
    # fail again where spectra are taken (a plain build): its own lines only.
    if not c.fatal and c.replay and not (pinned and c.sanitizer_flags):
        spectra = record(target, profile, c, directions=directions, strict_types=strict_types,
                         budget=budget, seconds=seconds, max_plays=max_plays,
                         each_step=each_step)
    if pinned:
        if spectra is None or not spectra.failing:
            spectra = Spectra([((frozenset((f, n) for f, n, _ in pinned),), True)], {},
                              groups=True)
        spectra.pinned = tuple((f, n) for f, n, _ in pinned)
        for f, n, function in pinned:
            spectra.functions.setdefault((f, n), function)
    return spectra


def localize(target: Target, profile: Profile, c: Counterexample, *, directions: str = "ours",
             strict_types: bool = False, budget: Budget | None = None,
             seconds: float = MAX_SECONDS, pinned: list | None = None) -> Localization | None:
    """Where to look for the fault behind ``c`` in ``target``'s own files
    (None: not a target with spectra, or no play failed again, and nothing
    ``pinned``). ``pinned``: ``[(file, line, function)]`` ranked first."""
    spectra = spectra_for(target, profile, c, directions=directions, strict_types=strict_types,
                          budget=budget, seconds=seconds, pinned=pinned)
    if spectra is None:
        return None
    return localization(spectra, own_folder(target))


def localize_verdict(target: Target, profile: Profile, verdict, *, directions: str = "ours",
                     strict_types: bool = False, budget: Budget | None = None,
                     seconds: float | None = None) -> None:
    """Localise each departure of ``verdict`` (its counterexample; for a
    check by rules, each broken rule's), setting ``Counterexample.where``;
    all of it within ``seconds`` (default: :func:`allowance` of the
    verdict's own time)."""
    found: list[Counterexample] = []
    for outcome in verdict.outcomes:
        if outcome.status == "broken" and outcome.counterexample is not None:
            found.append(outcome.counterexample)
    if verdict.counterexample is not None and all(verdict.counterexample is not f for f in found):
        found.insert(0, verdict.counterexample)
    more = list(getattr(verdict, "more_findings", ()) or ())
    found += [m for m in more if all(m is not f for f in found)]
    pinned = pinned_lines(profile, verdict, more)
    if seconds is None:
        seconds = allowance(verdict.seconds)
    done: dict[int, Localization | None] = {}
    each = seconds / max(1, len({id(c) for c in found}))
    for c in found:
        if budget is not None and budget.expired():
            break
        if id(c) not in done:
            try:
                done[id(c)] = localize(target, profile, c, directions=directions,
                                       strict_types=strict_types, budget=budget, seconds=each,
                                       pinned=pinned.get(id(c)))
            except OutOfBudget:
                raise
            except Exception:  # noqa: BLE001 - a hint: it never costs the verdict
                done[id(c)] = None
        c.where = done[id(c)]


def pinned_lines(profile: Profile, verdict, more: list | None = None) -> dict[int, list]:
    """Per counterexample (by id), the lines ranked first: those it names
    itself (the profile's ``located``), and for the verdict's first
    departure also those its further findings name (a memory error found
    beside a wrong answer is its likeliest cause)."""
    located = getattr(profile, "located", None)
    if located is None:
        return {}
    if more is None:
        more = list(getattr(verdict, "more_findings", ()) or ())
    found: dict[int, list] = {}
    for c in [verdict.counterexample, *more, *(o.counterexample for o in verdict.outcomes)]:
        if c is not None and id(c) not in found:
            found[id(c)] = list(located(c))
    first = verdict.counterexample
    if first is not None:
        for m in more:
            found[id(first)] += [x for x in found.get(id(m), []) if x not in found[id(first)]]
    return found
