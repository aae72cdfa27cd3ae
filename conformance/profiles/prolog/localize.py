"""Where to look in a Prolog program: after a check has found a departure
(of the action model, ``action/2`` and ``perform/3``, or of the planner,
``sokoban/1``), the clauses of the student's own files most likely at
fault.

Each test is **one call**, judged by the spec on its own, with SWI-Prolog's
clause coverage on for that call alone (the driver's ``calls/4`` and
``covered/1`` requests, made only here; one round trip per state, its
calls sharing one time limit):

* ``action(State, A)`` with ``A`` bound, for each of the eight actions the
  state could have (:func:`candidates`) and each the program lists there:
  failing when it succeeds for an illegal action or fails for a legal one;
* ``findall(S2, perform(State, A, S2), L)`` for each legal action it lists:
  failing unless ``L`` is the spec's next state (boxes in any order);
* after a departure of the planner, ``sokoban(Plan)`` on a table: failing
  when the plan is illegal or does not end in a final state, or when there
  is none where the spec finds one; passing when it is a valid plan.

Only calls that depart from the counterexample's part fail (``perform``
for a rule of effects, ``action`` for the others, the planner for the
planner's); a call departing otherwise is left out. A clause called with
``A`` bound is entered only for the actions its head matches, so the clause
of one action stands apart from the others'.

What a call ran is finer than the clauses it entered: a clause that
*exited* (gave an answer) and one entered that *failed* (entered more
times than exited) are two things a call may do with it
(``(file, line, "exit")``, ``(file, line, "fail")``, :data:`SHOWN_UNITS`):
the clause that gives a wrong answer exited in a failing call, the one
that refuses a legal action failed there, so a failing call keeps only
that port (:func:`wrong_port`). The ranking
(:mod:`conformance.machines.suspects`) scores each as a part of its line
and shows a clause at its best place, whole (from its first line to the
one that ends it). The benchmark also ranks the goals of clause bodies
(``record(goals=True)``, :data:`UNITS`).

The states, in order: those along the counterexample (the last first),
along a shortest plan of its table, of random legal walks on it, then
along the shortest plans of the fixed tables (:mod:`.scenarios`). After a
departure of the planner the planner goes first: on the counterexample's
table, then on the fixed planner tables (:data:`scenarios.PLANS`) and the
fixed tables, then the states of its plan (each step asked with its action
bound).
"""

from __future__ import annotations

import random
import shlex
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from conformance.api import Counterexample, Localization
from conformance.machines.suspects import Spectra, localization
from conformance.profiles.prolog import model, scenarios
from conformance.profiles.prolog.model import State, Table
from conformance.profiles.prolog.report import parse_replay
from conformance.profiles.prolog.target import Call, LoadFailed, PrologTarget

#: States whose calls are judged at most per localised departure.
MAX_STATES = 60
#: Planner runs at most after a departure of the planner, and the time each
#: is given (seconds; a planner that searches forever is cut there).
MAX_PLANS = 6
PLAN_SECONDS = 0.25
#: The time the calls of one state may take together, in multiples of
#: the check's limit on one findall of the pairs (and never past the
#: localisation's own deadline).
CALLS_SHARE = 4
#: Random legal walks on the counterexample's table, and their length.
WALKS, WALK_LENGTH = 4, 8
#: What a test ran, for the ranking: ``"enter"`` the clauses it entered,
#: ``"ports"`` what it did with each (exited, failed), ``"both"``;
#: ``"goals"``, what it did with each goal of a clause body it called
#: (the goal's line: a call site of SWI-Prolog's coverage). The
#: reports rank ports (:data:`SHOWN_UNITS`): ``benchmarks/localize.py
#: --prolog`` puts more faulty clauses first with them (a clause entered
#: counts every failing call, whatever port went wrong there).
UNITS = ("enter", "ports", "both", "goals")
SHOWN_UNITS = "ports"
#: The rules whose departures are the planner's, and perform/3's.
PLANNER_RULES = ("prolog.plan-legal", "prolog.plan-goal", "prolog.plan-found")
EFFECTS_RULES = ("prolog.effects",)


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


def states_around(table: Table, names: list[str], seed: int = 0) -> Iterator[tuple[Table, State]]:
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


def planner_tables(table: Table, most: int = MAX_PLANS) -> list[Table]:
    """The tables the planner is asked on (``most`` at most): the
    counterexample's first, then the fixed planner tables and the fixed
    tables that have a plan, each once."""
    found = [table]
    seen = {(table.rows, table.columns, table.pistas)}
    for other in (*scenarios.PLANS, *scenarios.tables()):
        key = (other.rows, other.columns, other.pistas)
        if len(found) >= most:
            break
        if key not in seen and model.solve(other) is not None:
            seen.add(key)
            found.append(other)
    return found


# ------------------------------------------------------------------ judging

def candidates(state: State) -> list:
    """The eight actions a state could have, legal or not: each move and
    each push with the cells its direction gives (the program must refuse
    the illegal ones: a call that does so passes)."""
    found = []
    x, y = state.player
    for accion, word in model.DIRECTION.items():
        dx, dy = accion.value
        near, far = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
        found.append(model.Step("move" + word, state.player, near, None, state).term())
        found.append(model.Step("push" + word, state.player, far, near, state).term())
    return found


def judge_call(legal: dict, call: Call) -> tuple[str, bool | None]:
    """Which part a call is of (``"action"`` or ``"perform"``) and whether
    it departs from the spec (None: not judged, as ``perform`` of an action
    that is not legal); ``legal``: the state's legal steps by their terms
    (:func:`model.hashable`)."""
    step = legal.get(model.hashable(call.action))
    if call.result == "timeout":
        return call.kind, None          # its time may have been cut short here
    if call.result == "error":
        return call.kind, True
    if call.kind == "action":
        return "action", (call.result == "true") != (step is not None)
    if step is None:
        return "perform", None
    nexts = call.nexts if isinstance(call.nexts, list) else []
    read = [model.read_state(n) for n in nexts]
    right = bool(read) and all(isinstance(r, State) and r.key() == step.after.key()
                               for r in read)
    return "perform", not right


def judge_plan(table: Table, answer) -> bool | None:
    """Whether the planner's answer on ``table`` departs (None: not judged,
    as no plan within the time given where the spec finds none near)."""
    if answer.kind == "ok":
        if not isinstance(answer.value, list):
            return True
        replayed = model.replay(table, answer.value)
        return replayed.illegal is not None or not replayed.won
    if answer.kind in ("no", "timeout", "killed"):
        return True if model.solve(table) is not None else None
    return True


def wrong_port(call: Call) -> str | None:
    """How a departing call went wrong: ``"exit"`` it answered (an illegal
    action accepted, a wrong next state), ``"fail"`` it did not (a legal
    action refused, no next state), None (it ran out of time, or raised)."""
    if call.result == "false":
        return "fail"
    if call.result != "true":
        return None
    if call.kind == "perform" and not (isinstance(call.nexts, list) and call.nexts):
        return "fail"
    return "exit"


def counts_as(part: str, rule: str | None) -> bool:
    """Whether a call of ``part`` departing counts as failing for a
    departure from ``rule`` (else it is left out)."""
    if rule in PLANNER_RULES:
        return part == "plan"
    if rule in EFFECTS_RULES:
        return part == "perform"
    if rule == "prolog.model":
        return part in ("action", "perform")
    return part == "action"


# ------------------------------------------------------------------ recording

@dataclass
class Recorded:
    """The spectra of the calls around a departure; each clause's last line
    (``(file, first line) -> last line``); and, per test, how many
    questions (a state, or a planner run) had been asked by then (1-based),
    so that a benchmark can rank on the first few."""

    spectra: Spectra
    ends: dict
    asked: list


#: Which units each kind of :data:`UNITS` keeps (by their third part).
_KEEP = {"enter": (None,), "ports": ("exit", "fail"), "both": (None, "exit", "fail"),
         "goals": ("goal exit", "goal fail")}


def only(spectra: Spectra, units: str) -> Spectra:
    """``spectra`` as recorded (every unit) with only ``units`` (:data:`UNITS`)."""
    keep = _KEEP[units]
    return Spectra([(tuple(frozenset(k for k in s if (k[2] if len(k) > 2 else None) in keep)
                           for s in steps), failed) for steps, failed in spectra.plays],
                   spectra.functions)


class _Recorder:
    def __init__(self, target: PrologTarget):
        self.target = target
        self.folder = target.program.folder
        self.own = [(str(p.relative_to(self.folder)), str(p)) for p in target.program.files]
        self.found = Recorded(Spectra([], {}), {}, [])
        self.texts: dict = {}
        self.questions = 0

    def add(self, clauses: list, failed: bool, wrong: str | None = None,
            sites: list = ()) -> None:
        """One test: the clauses a call entered; ``wrong``, for a failing
        call, ``"exit"`` when it gave a wrong answer (only the clauses that
        exited can have given it) or ``"fail"`` when it refused a right one
        (only those that failed can have): its other port is left out."""
        units = set()
        for file, line, name, entered, exited in clauses:
            relative = _relative(self.own, file)
            if relative is None:
                continue
            key = (relative, line)
            self.found.spectra.functions.setdefault(key, name)
            if key not in self.found.ends:
                if relative not in self.texts:
                    self.texts[relative] = (self.folder / relative).read_text(
                        encoding="utf-8", errors="replace").splitlines()
                self.found.ends[key] = _clause_end(self.texts[relative], line)
            units.add(key)
            if exited > 0 and not (failed and wrong == "fail"):
                units.add((relative, line, "exit"))
            if entered > exited and not (failed and wrong == "exit"):
                units.add((relative, line, "fail"))
        where = self.target.sites() if sites else {}
        for file, line, pc, entered, exited in sites:
            relative, goal = _relative(self.own, file), where.get((file, line, pc))
            if relative is None or goal is None:
                continue
            name = self.found.spectra.functions.get((relative, line))
            if name is not None:        # a goal's line is in its clause's predicate
                self.found.spectra.functions.setdefault((relative, goal), name)
            if exited > 0 and not (failed and wrong == "fail"):
                units.add((relative, goal, "goal exit"))
            if entered > exited and not (failed and wrong == "exit"):
                units.add((relative, goal, "goal fail"))
        functions = self.found.spectra.functions
        for unit in units:          # a unit is in its clause's predicate (blocks() asks)
            if unit[:2] in functions:
                functions.setdefault(unit, functions[unit[:2]])
        self.found.spectra.plays.append(((frozenset(units),), failed))
        self.found.asked.append(self.questions)


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


def _departure(c: Counterexample) -> tuple[Table, list[str], bool] | None:
    words = shlex.split(c.replay) if c.replay else []
    if "--replay" not in words:
        return None
    try:
        return parse_replay(words[words.index("--replay") + 1])
    except (ValueError, IndexError):
        return None


def record(target: PrologTarget, c: Counterexample, *, timeout: float = 2.0,
           seconds: float = 4.0, max_states: int = MAX_STATES,
           goals: bool = False) -> Recorded | None:
    """The spectra of the calls around ``c`` (the module docstring's), with
    every unit (each clause entered, exited, failed; ``goals``: each goal
    too, :data:`UNITS`); None when ``c`` is not a departure that can be
    replayed."""
    departure = _departure(c)
    if departure is None:
        return None
    table, names, planner = departure
    if c.fatal and not planner:
        return None         # a call of the action model that ran out of time
    rule = getattr(c, "rule", None)
    rec = _Recorder(target)
    deadline = time.monotonic() + seconds
    opened: list = [None]

    def open_(t: Table) -> None:
        if opened[0] is not t:
            target.open_level(t.rows, t.columns, t.facts())
            opened[0] = t

    def ask(t: Table, state: State, extra: tuple = ()) -> None:
        open_(t)
        rec.questions += 1
        left = max(0.05, min(CALLS_SHARE * timeout, deadline - time.monotonic()))
        answer = target.calls(state.term(), candidates(state) + list(extra), left, goals)
        if answer is None:
            opened[0] = None
            return
        legal = {model.hashable(s.term()): s for s in model.legal(t, state)}
        for call in answer[1]:
            part, failed = judge_call(legal, call)
            if failed is None or (failed and not counts_as(part, rule)):
                continue
            rec.add(call.clauses, failed, wrong_port(call), call.sites)

    try:
        plans: list = []
        if planner:
            for t in planner_tables(table):
                if time.monotonic() > deadline:
                    break
                open_(t)
                rec.questions += 1
                answer, clauses, sites = target.covered_plan(
                    max(0.01, min(PLAN_SECONDS, timeout, deadline - time.monotonic())))
                failed = judge_plan(t, answer)
                if failed is not None and (not failed or counts_as("plan", rule)):
                    rec.add(clauses, failed, "exit" if answer.kind == "ok" else None,
                            sites if goals else ())
                if failed and answer.kind == "ok" and isinstance(answer.value, list):
                    plans.append((t, answer.value))
                opened[0] = None        # the planner may have asserted: a fresh copy
                target.close_level()
            for t, plan in plans[:1]:
                replayed = model.replay(t, plan)
                for state, action in zip(replayed.states, plan):
                    if time.monotonic() > deadline:
                        break
                    ask(t, state, (action,))
        for n, (t, state) in enumerate(states_around(table, names)):
            if n >= max_states or time.monotonic() > deadline:
                break
            ask(t, state)
    except (LoadFailed, OSError):
        pass
    finally:
        if opened[0] is not None:
            try:
                target.close_level()
            except Exception:  # noqa: BLE001 - the program is closed after anyway
                pass
    return rec.found


def localize(target: PrologTarget, c: Counterexample, *, timeout: float = 2.0,
             seconds: float = 4.0) -> Localization | None:
    """Where to look for the fault behind ``c`` in the program's own files
    (None: not localised)."""
    recorded = record(target, c, timeout=timeout, seconds=seconds)
    if recorded is None:
        return None
    where = localization(only(recorded.spectra, SHOWN_UNITS), Path(target.program.folder))
    if where is None:
        return None
    where.tests = "calls"
    folder = Path(target.program.folder)
    for i, s in enumerate(where.lines):       # each clause of the place shown whole
        last = max(recorded.ends.get((s.file, n), n) for n in (s.line, s.last or s.line))
        try:
            text = (folder / s.file).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            text = []
        source = "\n".join(t.strip() for t in text[s.line - 1:last]) or s.source
        where.lines[i] = type(s)(file=s.file, line=s.line, last=last, function=s.function,
                                 score=s.score, source=source)
    return where
