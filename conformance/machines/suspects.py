"""Spectrum-based fault localisation, the ranking: which lines (or Prolog
clauses) of a target's own files the failing and the passing plays ran,
scored by a formula (:data:`FORMULAS`), runs of lines no play tells apart
made one place (:func:`blocks`), and the :class:`~conformance.api.Localization`
a verdict carries. What plays are run, and how their spectra are recorded,
is each kind of target's: ``conformance.checking.localize`` (Python, in the
sandbox child; C++, a coverage build, ``conformance.profiles.aed2.coverage``),
``conformance.profiles.prolog.localize`` (SWI-Prolog's coverage).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from conformance.api import Localization, SuspectLine

#: Places shown in a report.
SHOWN = 5
#: The time localising may take, as a share of the check's own time, and
#: its floor and ceiling in seconds (all departures of a check together;
#: within the check's budget besides): Python and Prolog targets alike.
SHARE = 0.5
MIN_SECONDS = 0.25
MAX_SECONDS = 4.0


def allowance(check_seconds: float) -> float:
    """Seconds localising may take after a check that took ``check_seconds``."""
    return min(MAX_SECONDS, max(MIN_SECONDS, SHARE * check_seconds))


def _ochiai(ef: int, ep: int, nf: int, np_: int) -> float:
    return ef / math.sqrt((ef + nf) * (ef + ep)) if ef else 0.0


def _dstar2(ef: int, ep: int, nf: int, np_: int) -> float:
    return ef * ef / (ep + nf) if ep + nf else math.inf if ef else 0.0


def _tarantula(ef: int, ep: int, nf: int, np_: int) -> float:
    if not ef:
        return 0.0
    failed = ef / (ef + nf)
    passed = ep / (ep + np_) if ep + np_ else 0.0
    return failed / (failed + passed)


def _op2(ef: int, ep: int, nf: int, np_: int) -> float:
    return ef - ep / (ep + np_ + 1)


#: The ranking formulas (suspiciousness of a line from ``ef, ep, nf, np``).
FORMULAS: dict[str, Callable[[int, int, int, int], float]] = {
    "ochiai": _ochiai, "dstar2": _dstar2, "tarantula": _tarantula, "op2": _op2,
}
#: The formula the reports use (chosen by ``benchmarks/localize.py``).
FORMULA = "op2"


@dataclass
class Spectra:
    """What the plays ran: per play, the lines each of its steps ran (its
    start first, then one per action) and whether it failed (at its last
    step); and each line's function."""

    plays: list[tuple[tuple[frozenset, ...], bool]]
    functions: dict[tuple[str, int], str]
    #: The lines that ran under the departing operation in a failing play
    #: of no action at all (a start, or a state of the counterexample as a
    #: fresh level): the fault then shows without acting, in that operation
    #: (an observer, or the start): these lines are ranked first.
    focus: frozenset = frozenset()
    #: Where ``focus`` came from: ``(index of the play, its lines)``.
    focus_at: list = field(default_factory=list)
    #: When the counterexample's last action played alone from the state
    #: before it as a fresh level did not depart (the fault needs the play's
    #: history; ``conformance.checking.localize.departing_step``), the lines
    #: the departing operation ran in the failing plays that some passing
    #: play ran too: it read a state left wrong, with lines that do right
    #: elsewhere. These are ranked after the others.
    cleared: frozenset = frozenset()
    #: Where ``cleared`` came from: ``(index of the play, its lines)``.
    cleared_at: list = field(default_factory=list)
    #: Lines the departure itself names, in order (a sanitizer's ``file:line``
    #: of a memory error in the target's own files): ranked before all
    #: others, each a place of its own, whatever the plays ran.
    pinned: tuple = ()
    #: Lines of one function run by exactly the same tests are one place
    #: wherever they lie in it (an ambiguity group: :func:`blocks`), not only
    #: when next to one another (a Prolog clause is shown whole: not there).
    groups: bool = False

    @property
    def failing(self) -> int:
        return sum(1 for _, failed in self.plays if failed)

    @property
    def passing(self) -> int:
        return len(self.plays) - self.failing

    def tests(self, granularity: str = "play") -> list[tuple[frozenset, bool]]:
        """The spectra to rank on: one per play (``"play"``: the lines of all
        its steps), one per step (``"step"``: only a failing play's last step
        fails), or both."""
        found = []
        if granularity in ("play", "both"):
            found += [(frozenset().union(*steps), failed) for steps, failed in self.plays]
        if granularity in ("step", "both"):
            for steps, failed in self.plays:
                found += [(lines, failed and i == len(steps) - 1) for i, lines in enumerate(steps)]
        return found


#: How plays become tests for the ranking (see :meth:`Spectra.tests`).
GRANULARITY = "play"


def _counts(tests: list[tuple[frozenset, bool]]) -> tuple[dict, dict, int, int]:
    """Per line, the failing and the passing tests that ran it; and the
    numbers of failing and passing tests."""
    ef: dict = {}
    ep: dict = {}
    for lines, failed in tests:
        counts = ef if failed else ep
        for key in lines:
            counts[key] = counts.get(key, 0) + 1
    failed_total = sum(1 for _, failed in tests if failed)
    return ef, ep, failed_total, len(tests) - failed_total


def rank(spectra: Spectra, formula: str = FORMULA, granularity: str = GRANULARITY
         ) -> list[tuple[tuple[str, int], float]]:
    """Every line that ran in a failing test, most suspicious first (the
    pinned lines before them, scored as the top one): ``[((file, line), score)]``."""
    score = FORMULAS[formula]
    ef, ep, failed_total, passed_total = _counts(spectra.tests(granularity))
    pinned = list(dict.fromkeys(spectra.pinned))
    scored = []
    for key, f in ef.items():
        p = ep.get(key, 0)
        if key not in pinned:
            scored.append((key, score(f, p, failed_total - f, passed_total - p), p))
    focus, cleared = spectra.focus, spectra.cleared
    scored.sort(key=lambda t: (t[0] not in focus, t[0] in cleared, -t[1], t[2], t[0]))
    top = max((s for _, s, _ in scored), default=1.0)
    return [(key, top) for key in pinned] + [(key, s) for key, s, _ in scored]


def blocks(spectra: Spectra, ranked: list[tuple[tuple[str, int], float]],
           granularity: str = GRANULARITY) -> list[tuple[list[tuple[str, int]], float]]:
    """``ranked`` with the lines no spectrum tells apart made one entry, in
    the order of its first ranked line, its lines in file order:
    ``[([(file, line), ...], score)]``. No test can say which line of such
    an entry is at fault; a report shows it as one place. Which lines: those
    of one function run by exactly the same tests, when next to one another
    among the lines that ran (a straight stretch of code); with
    ``Spectra.groups``, however far apart (an *ambiguity group*: also the
    code before and after a branch some of those tests skipped). Pinned
    lines stay places of their own.

    A key may also be ``(file, line, part)``: a part of a line a target
    tells apart (a C++ line's basic blocks, run or skipped by some call,
    ``conformance.profiles.aed2.coverage``;
    what a call did with a Prolog clause, exited or failed,
    ``conformance.profiles.prolog.localize``), ranked on its own; each
    place then lists the lines of its parts, a line once, at its best
    place (:func:`line_places`)."""
    tests = spectra.tests(granularity)
    ran: dict[str, set] = {}
    for lines, _ in tests:
        for key in lines:
            ran.setdefault(key[0], set()).add(key[1:])
    order = {file: {rest: i for i, rest in enumerate(sorted(rests))}
             for file, rests in ran.items()}
    who: dict = {}
    for i, (lines, _failed) in enumerate(tests):
        for key in lines:
            who.setdefault(key, []).append(i)
    found: list[tuple[list[tuple[str, int]], float]] = []
    group: dict = {}            # (file, function, tests, score, focus) -> index in found
    for key, score in ranked:
        if key not in spectra.pinned:
            same = (key[0], spectra.functions.get(key), tuple(who.get(key, ())), score,
                    key in spectra.focus, key in spectra.cleared)
            at = group.get(same)
            if at is not None and (spectra.groups or (
                    at == len(found) - 1
                    and order[key[0]][key[1:]] == order[key[0]][found[at][0][-1][1:]] + 1)):
                found[at][0].append(key)
                continue
            group[same] = len(found)
        found.append(([key], score))
    for keys, _score in found:
        keys.sort()
    return line_places(found)


def line_places(places: list[tuple[list, float]]) -> list[tuple[list[tuple[str, int]], float]]:
    """``places`` with parts of lines (``(file, line, part)``) made their
    lines, each line kept at its first place only (a place left with no
    line is dropped)."""
    if all(len(key) == 2 for keys, _ in places for key in keys):
        return places
    shown: set = set()
    found = []
    for keys, score in places:
        lines = sorted(k for k in dict.fromkeys((key[0], key[1]) for key in keys)
                       if k not in shown)
        if lines:
            shown.update(lines)
            found.append((lines, score))
    return found


def _source_line(folder: Path | None, file: str, line: int, cache: dict) -> str:
    if folder is None:
        return ""
    if file not in cache:
        try:
            cache[file] = (folder / file).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[file] = []
    lines = cache[file]
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def localization(spectra: Spectra, folder: Path | None, formula: str = FORMULA,
                 shown: int | None = SHOWN) -> Localization | None:
    """The ranked places of ``spectra`` as the verdict carries them (the
    first ``shown`` runs of lines, :func:`blocks`; None: all), scores
    relative to the top one's; None when no failing play ran a line of the
    target's (nothing to rank)."""
    ranked = rank(spectra, formula)
    if not ranked:
        return None
    top = ranked[0][1]
    cache: dict = {}

    def relative(score: float) -> float:
        if math.isinf(top):
            return 1.0 if math.isinf(score) else 0.0
        return max(0.0, round(score / top, 3)) if top > 0 else 0.0

    places = blocks(spectra, ranked)
    lines = [SuspectLine(file=keys[0][0], line=keys[0][1], last=keys[-1][1],
                         function=_function(spectra, keys[0]), score=relative(score),
                         source="\n".join(_source_line(folder, f, n, cache) for f, n in keys))
             for keys, score in (places[:shown] if shown is not None else places)]
    return Localization(lines=lines, failing=spectra.failing, passing=spectra.passing,
                        formula=formula, folder=str(folder) if folder is not None else "",
                        heat=_heat(ranked, relative))


def _function(spectra: Spectra, line: tuple[str, int]) -> str:
    """The function of a line (or of a part of it)."""
    found = spectra.functions.get(line)
    if found is None:
        found = next((f for key, f in spectra.functions.items()
                      if key[0] == line[0] and key[1] == line[1]), "")
    return found


def _heat(ranked: list, relative: Callable[[float], float]) -> list[tuple[str, int, float]]:
    """Every ranked line's relative score (a line's best part's), in rank order."""
    heat: dict[tuple[str, int], float] = {}
    for key, score in ranked:
        if relative(score) > 0:
            heat.setdefault((key[0], key[1]), relative(score))
    return [(file, line, s) for (file, line), s in heat.items()]
