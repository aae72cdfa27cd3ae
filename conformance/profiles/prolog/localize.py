"""Where to look in a Prolog program: after a check has found a departure of
the action model (``action/2``, ``perform/3``), the clauses of the
student's own files most likely at fault.

Each test is one state: the program's successors of it are asked with
SWI-Prolog's clause coverage on (the driver's ``covered/1`` request, made
only here) and judged as the check judges them
(:func:`conformance.profiles.prolog.machine.successors_problem`): failing
when they depart, passing when they are the spec's. The states, in order:
those along the counterexample (the last first), along a shortest plan of
its table, of random legal walks on it, then along the shortest plans of
the fixed tables (:mod:`.scenarios`). The clauses are ranked as Python
lines are (:mod:`conformance.machines.suspects`), each shown as the lines
of the clause (from its first line to the one that ends it). A departure
of the planner (``sokoban/1``) is not localised.
"""

from __future__ import annotations

import random
import shlex
import time
from pathlib import Path
from typing import Iterator

from conformance.api import Counterexample, Localization
from conformance.machines.suspects import Spectra, localization
from conformance.profiles.prolog import model, scenarios
from conformance.profiles.prolog.machine import successors_problem
from conformance.profiles.prolog.model import Table
from conformance.profiles.prolog.report import parse_replay
from conformance.profiles.prolog.target import LoadFailed, PrologTarget

#: States judged at most per localised departure.
MAX_STATES = 60
#: Random legal walks on the counterexample's table, and their length.
WALKS, WALK_LENGTH = 4, 8


def _states_of(table: Table, names: list[str]) -> list:
    state = table.initial()
    found = [state]
    for name in names:
        step = next((s for s in model.legal(table, state) if s.name == name), None)
        if step is None:
            break
        state = step.after
        found.append(state)
    return found


def states_around(table: Table, names: list[str], seed: int = 0) -> Iterator[tuple[Table, object]]:
    """``(table, state)`` to judge, in the module docstring's order."""
    yield from ((table, s) for s in reversed(_states_of(table, names)))
    plan = model.solve(table) or []
    yield from ((table, s.after) for s in plan)
    rng = random.Random(seed)
    for _ in range(WALKS):
        state = table.initial()
        for _ in range(WALK_LENGTH):
            steps = model.legal(table, state)
            if not steps:
                break
            state = rng.choice(steps).after
            yield table, state
    for other in scenarios.tables():
        yield other, other.initial()
        yield from ((other, s.after) for s in (model.solve(other) or [])[:WALK_LENGTH])


def _relative(program_files: list[tuple[str, str]], file: str) -> str | None:
    """The program's own file (relative to its folder) a clause's file is
    the box's copy of; None for anything else (a library)."""
    for relative, name in program_files:
        if file == name or file.endswith("/" + relative):
            return relative
    return None


def _clause_end(lines: list[str], first: int) -> int:
    """The last line of the clause starting at line ``first`` (the first
    line from there that ends with a full stop, comments aside)."""
    for n in range(first, min(len(lines), first + 60) + 1):
        text = lines[n - 1].split("%")[0].rstrip()
        if text.endswith("."):
            return n
    return first


def record(target: PrologTarget, c: Counterexample, *, timeout: float = 2.0,
           seconds: float = 4.0, max_states: int = MAX_STATES) -> tuple[Spectra, dict] | None:
    """The clause spectra of the states around ``c``, and each clause's
    lines (``(file, first line) -> last line``); None when ``c`` is not a
    departure of the action model."""
    words = shlex.split(c.replay) if c.replay else []
    if "--replay" not in words or c.fatal:
        return None
    try:
        table, names, planner = parse_replay(words[words.index("--replay") + 1])
    except (ValueError, IndexError):
        return None
    if planner:
        return None
    folder = target.program.folder
    own = [(str(p.relative_to(folder)), str(p)) for p in target.program.files]
    found = Spectra([], {})
    ends: dict = {}
    texts: dict = {}
    deadline = time.monotonic() + seconds
    opened = None
    try:
        for n, (t, state) in enumerate(states_around(table, names)):
            if n >= max_states or time.monotonic() > deadline:
                break
            if t is not opened:
                target.open_level(t.rows, t.columns, t.facts())
                opened = t
            answer, clauses = target.covered_successors(state.term(), timeout)
            if answer.kind != "ok":
                continue
            problem = successors_problem(t, state, model.legal(t, state), answer.value)
            lines = set()
            for file, line, name in clauses:
                relative = _relative(own, file)
                if relative is None:
                    continue
                key = (relative, line)
                lines.add(key)
                found.functions.setdefault(key, name)
                if key not in ends:
                    if relative not in texts:
                        texts[relative] = (folder / relative).read_text(
                            encoding="utf-8", errors="replace").splitlines()
                    ends[key] = _clause_end(texts[relative], line)
            found.plays.append(((frozenset(lines),), problem is not None))
    except (LoadFailed, OSError):
        pass
    finally:
        if opened is not None:
            try:
                target.close_level()
            except Exception:  # noqa: BLE001 - the program is closed after anyway
                pass
    return found, ends


def localize(target: PrologTarget, c: Counterexample, *, timeout: float = 2.0,
             seconds: float = 4.0) -> Localization | None:
    """Where to look for the fault behind ``c`` in the program's own files
    (None: not localised)."""
    recorded = record(target, c, timeout=timeout, seconds=seconds)
    if recorded is None:
        return None
    spectra, ends = recorded
    where = localization(spectra, Path(target.program.folder))
    if where is None:
        return None
    folder = Path(target.program.folder)
    for i, s in enumerate(where.lines):       # each clause shown whole
        last = ends.get((s.file, s.line), s.line)
        try:
            text = (folder / s.file).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            text = []
        source = "\n".join(t.strip() for t in text[s.line - 1:last]) or s.source
        where.lines[i] = type(s)(file=s.file, line=s.line, last=last, function=s.function,
                                 score=s.score, source=source)
    return where
