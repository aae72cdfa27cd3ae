"""Profile ``prolog``: seed 003's programs (SWI-Prolog), its machine.

Unlike the other profiles' machines (:mod:`conformance.machines.base`), this
one drives a :class:`conformance.profiles.prolog.target.PrologTarget`: a Prolog
program answers whole lists of successors and plans, not observers. Each
example draws a table (:func:`tables`) and opens it in the program (a fresh
copy of it); then:

* **the planner** first, once: on a table solvable in a few moves (our own
  iterative deepening in the seed's style visits at most :data:`FEW_NODES`
  states on it, well under 0.1 s) ``sokoban(Plan)`` must give, within
  :data:`PLAN_SECONDS`, a plan that the spec replays to a final state; on
  any other table (the spec proves it unsolvable, or its plans are longer)
  it is given :data:`NO_PLAN_SECONDS`: a plan it gives by then must replay
  to a final state, and giving none is not judged. Before it is asked, the
  action model is compared along a shortest plan (a planner that fails
  because ``perform/3`` is wrong is blamed on ``perform``'s rule);
* **the action model**: at the initial state and after every action of a
  random play (the spec's legal actions; pushes; walks to pushes, chains and
  blocked pushes), ``findall(A-S2, (action(S, A), perform(S, A, S2)), L)``
  must be exactly the spec's legal moves and pushes with their next states
  (:mod:`conformance.profiles.prolog.model`), the order of boxes in a state ignored.
  The states are sent in one round trip (:meth:`PrologMachine.flush`).

A departure names its rule (:mod:`conformance.profiles.prolog.rules`) and is shrunk
keeping that rule, unless the program had to be waited for (a planner or a
call that ran out of time): that is reported as found. The search itself
(fixed tables first, Hypothesis' settings, replay) is
:mod:`conformance.profiles.prolog.check`.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Sequence

from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from conformance.machines import levels as engine_levels
from conformance.api import Counterexample
from conformance.machines.base import Departure, Fatal, StopShrinking, _shrinking
from conformance.profiles.prolog import model, terms
from conformance.profiles.prolog.model import State, Step, Table
from conformance.profiles.prolog.report import (
    PROFILE, counterexample, expected_text, plan_lines, plan_text,
)
from conformance.profiles.prolog.target import Answer, LoadFailed, PrologTarget
from levels.prolog import ring
from conformance.translations import _, n_, speaking

#: Most actions played per example.
STEPS = 40
#: A table is "solvable in a few moves" when iterative deepening in the
#: seed's style, exploring every bound up to the shortest plan's length in
#: full, visits at most this many states (our reference planner takes well
#: under 0.1 s there; docs/prolog.md, benchmarks/prolog.py).
FEW_NODES = 2000
#: The planner's limit on such a table: 100 times our planner's 0.1 s, and
#: never under 10 s.
PLAN_SECONDS = 10.0
#: How long a table without a plan is given (a planner in the seed's style
#: searches forever there: waiting longer only costs time).
NO_PLAN_SECONDS = 0.25
#: States the breadth-first search of the spec may visit to classify a table.
SEARCH_STATES = 20000
#: Wall-clock cap on shrinking (the smallest failure found by then is reported).
SHRINK_SECONDS = 20.0
STAT_KEYS = ("examples", "states", "steps", "pushes", "plans", "unsolvable")
#: The check's two parts (``groups``): the action model, the planner.
GROUPS = ("actions", "planner")




# ------------------------------------------------------------------ tables

@st.composite
def tables(draw_, max_side: int = 5, max_boxes: int = 3) -> Table:
    """A seed 003 table: ``filas`` x ``columnas`` cells (1 to ``max_side``
    each), some obstacles, a player, boxes and as many destinations. Most
    are made by reverse play from the solved position (solvable); the
    rest have boxes and destinations placed anywhere (often unsolvable)."""
    rows = draw_(st.integers(1, max_side))
    columns = draw_(st.integers(2 if rows == 1 else 1, max_side))
    cells = [(x, y) for y in range(1, rows + 1) for x in range(1, columns + 1)]
    obstacles = draw_(st.frozensets(st.sampled_from(cells), max_size=len(cells) // 5))
    free = [c for c in cells if c not in obstacles]
    if len(free) < 2:
        free, obstacles = cells, frozenset()
    limit = min(max_boxes, (len(free) - 1) // 2)
    # At least one box, but for one table in eight (a table without boxes
    # is already solved: seed 003's nivel0 is one).
    n = 0 if limit == 0 or draw_(st.integers(0, 7)) == 7 else draw_(st.integers(1, limit))
    kind = draw_(st.integers(0, 7))
    line = _line(draw_, free, n) if kind == 7 and n >= 2 else None
    if line is not None:                # boxes in a row, the player facing them
        boxes, player = line
        goals = draw_(st.lists(st.sampled_from(free), min_size=n, max_size=n, unique=True))
    elif kind < 5:                      # reverse play from the solved position
        goals, player = engine_levels._goals_and_player(draw_, free, n, n)
        boxes, player, _ = engine_levels.reverse_play(
            ring(columns, rows) | obstacles, goals, player,
            draw_(st.lists(st.integers(0, 15), max_size=10)), inside=set(free))
    else:                               # anywhere (often unsolvable)
        order = draw_(st.permutations(free))
        boxes, player = order[:n], order[n]
        goals = draw_(st.lists(st.sampled_from(free), min_size=n, max_size=n, unique=True))
    # The facts of boxes and of destinations in a drawn order: seed 003's
    # program builds its states in the order of the facts.
    boxes = draw_(st.permutations(sorted(boxes, key=lambda p: (p[1], p[0]))))
    goals = draw_(st.permutations(sorted(goals, key=lambda p: (p[1], p[0]))))
    pistas = ([(player[1], player[0], "j")] + [(y, x, "c") for x, y in boxes]
              + [(y, x, "x") for x, y in goals]
              + [(y, x, "o") for x, y in sorted(obstacles, key=lambda p: (p[1], p[0]))])
    return Table(rows, columns, tuple(pistas))


def _line(draw_, free: list, n: int):
    """``n`` boxes in a row on free cells and the player at one end, facing
    them (where a chain push would happen), or None when they do not fit."""
    start = draw_(st.sampled_from(free))
    dx, dy = draw_(st.sampled_from(engine_levels.DIRS))
    cells = [(start[0] + k * dx, start[1] + k * dy) for k in range(-1, n)]
    if all(c in free for c in cells):
        return cells[1:], cells[0]
    return None


@dataclass(frozen=True)
class Kind:
    """What the planner must do on a table: ``shortest`` moves (None:
    unsolvable, False: not searched to the end) and the states an
    iterative deepening visits (``nodes``)."""

    shortest: int | None | bool
    nodes: int = 0

    @property
    def few(self) -> bool:
        return type(self.shortest) is int and self.nodes <= FEW_NODES

    @property
    def unsolvable(self) -> bool:
        return self.shortest is None


def classify(table: Table) -> Kind:
    k = model.shortest(table, SEARCH_STATES)
    if type(k) is int:
        return Kind(k, model.search_nodes(table, k, cap=FEW_NODES + 1))
    return Kind(k)


# ------------------------------------------------------------------ the run

@dataclass
class PrologRun:
    """What one check shares between its examples."""

    target: PrologTarget
    consult: str
    fixed: tuple[Table, ...] = ()
    timeout: float = 2.0
    plan_seconds: float = PLAN_SECONDS
    groups: tuple[str, ...] = GROUPS
    stats: dict = field(default_factory=lambda: dict.fromkeys(STAT_KEYS, 0))
    frozen: bool = False
    last: Counterexample | None = None
    first_failure: float | None = None
    stopped: bool = False
    #: The rule of the first departure: while shrinking only that one counts.
    focus: str | None = None
    notes: list[str] = field(default_factory=list)
    #: Rules already found broken (a check by rules, round after round):
    #: their departures are passed over, so that the others are judged.
    mask: frozenset = frozenset()
    #: How many times each rule was exercised (a state or a plan that could
    #: have shown a departure from it), before the first departure.
    exercised: Counter = field(default_factory=Counter)
    #: The check's time budget (``conformance.machines.budget.Budget``), or None: it
    #: is looked at before each table, and while shrinking.
    budget: Any = None

    def count(self, key: str, n: int = 1) -> None:
        if not self.frozen:
            self.stats[key] += n

    def exercise(self, rules: Iterable[str]) -> None:
        if not self.frozen:
            self.exercised.update(rules)


class Masked(Exception):
    """A departure from a rule already found broken (:attr:`PrologRun.mask`)."""


class PrologMachine(RuleBasedStateMachine):
    """One table: its planner, and its action model along a random play."""

    PROFILE: ClassVar[str] = PROFILE
    run: ClassVar[PrologRun]

    @classmethod
    def bind(cls, run: PrologRun) -> type[PrologMachine]:
        """This machine class for one check (Hypothesis instantiates it with no arguments)."""
        return type(cls.__name__, (cls,), {"run": run})

    def __init__(self):
        super().__init__()
        self.table: Table | None = None
        self.state: State | None = None
        self.played: list[Step] = []
        self.planned = False
        self.kind: Kind | None = None
        self.open = False
        self.failed = False
        #: A departure from a rule already found broken was passed over on
        #: this table: its planner is not judged (it plans with that rule).
        self.tainted = False
        #: States to compare, with the actions that reach them: sent in one
        #: round trip (:meth:`flush`), before the planner and at the end.
        self.pending: list[tuple[list[Step], State]] = []
        #: The program's answer for the last state compared (``sokoban play``
        #: takes its next state from it).
        self.answer: Answer | None = None

    # -- the target -----------------------------------------------------------

    def start(self, table: Table, plan_far: bool = True) -> None:
        """Open ``table`` and compare its initial state; its planner first
        (``plan_far`` False: only on a table solvable in a few moves)."""
        run = self.run
        if run.last is not None and run.first_failure is not None and (
                time.monotonic() - run.first_failure > SHRINK_SECONDS
                or (run.budget is not None and run.budget.expired())):
            run.stopped = True
            raise StopShrinking()
        if run.budget is not None:
            run.budget.check(run.stats["examples"])     # OutOfBudget between two tables
        self.table = table
        self.state = table.initial()
        self.kind = classify(table)
        run.count("examples")
        try:
            run.target.open_level(table.rows, table.columns, table.facts())
        except LoadFailed as e:
            self.fail("start", str(e), _("the program answers"), _("it could not be started"),
                      fatal=True, rule="prolog.plan-found", maskable=False)
        self.open = True
        self.compare()
        if "planner" in run.groups and (plan_far or self.kind.few):
            if self.kind.few:
                self.along_a_shortest_plan()
            self.flush()
            self.plan()

    def along_a_shortest_plan(self) -> None:
        """The action model at every state of a shortest plan before the
        planner is asked (a planner that finds no plan because its action
        model is wrong is blamed on the action model's rule), then back to
        the initial state."""
        if not self.actions:
            return
        for step in model.solve(self.table) or []:
            self.played.append(step)
            self.state = step.after
            self.compare()
        self.played, self.state = [], self.table.initial()

    @property
    def actions(self) -> bool:
        return "actions" in self.run.groups

    def teardown(self):
        try:
            if self.open and not self.failed:
                self.flush()
        finally:
            if self.open:
                self.run.target.close_level()
                self.open = False

    # -- the rules ------------------------------------------------------------

    @initialize(table=tables())
    def begin(self, table):
        """A table: the planner on it first (in the fresh copy), then the
        action model at its initial state."""
        self.start(table)

    def plan(self):
        self.planned = True
        try:
            self.check_plan()
        except Masked:
            pass

    @rule(choice=st.integers(0, 3))
    def act(self, choice):
        """Any legal action."""
        self.take(model.legal(self.table, self.state), choice)

    @precondition(lambda self: self.actions)
    @rule(choice=st.integers(0, 3))
    def push(self, choice):
        """A legal push, or a step towards one (pushes are where the
        mistakes are, and a random walk makes few)."""
        steps = model.legal(self.table, self.state)
        pushes = [s for s in steps if s.box is not None]
        if pushes:
            self.take(pushes, choice)
        else:
            self.toward("push")

    @precondition(lambda self: self.actions)
    @rule(aim=st.sampled_from(model.TOWARD[1:]))
    def blocked(self, aim):
        """A step towards a push that a box (a chain) or an obstacle or the
        edge blocks: the push must not be listed there."""
        self.toward(aim)

    def toward(self, aim: str) -> None:
        """Walk all the way (compared at every step)."""
        for _ in range(self.table.rows * self.table.columns):
            step = model.toward_push(self.table, self.state, aim)
            if step is None or len(self.played) >= STEPS:
                return
            self.take([step], 0)

    def take(self, steps: list, choice: int) -> None:
        if not steps or len(self.played) >= STEPS:
            return
        s = steps[choice % len(steps)]
        self.played.append(s)
        self.state = s.after
        if self.actions:
            self.run.count("steps")
            self.run.count("pushes", s.box is not None)
        self.compare()

    # -- the action model -----------------------------------------------------

    def compare(self) -> None:
        """Queue the current state for :meth:`flush`."""
        if self.actions:
            self.pending.append((list(self.played), self.state))

    def flush(self) -> None:
        """Compare the queued states, in the order they were reached."""
        pending, self.pending = self.pending, []
        if not pending:
            return
        begun = time.monotonic()
        answers = self.run.target.successors_all([s.term() for _, s in pending],
                                                 self.run.timeout)
        if self.run.budget is not None:
            self.run.budget.record(time.monotonic() - begun, len(pending))
        played, state = self.played, self.state
        for (self.played, self.state), answer in zip(pending, answers):
            self.judge(answer)
        self.played, self.state = played, state
        self.answer = answers[-1] if answers else None

    def judge(self, answer: Answer) -> None:
        """The program's successors of ``self.state`` against the spec's."""
        self.run.count("states")
        self.run.exercise(exercised_by(self.table, self.state))
        try:
            if answer.kind != "ok":
                self.target_failed(answer, "action/2 and perform/3")
                return
            expected = model.legal(self.table, self.state)
            problem = successors_problem(self.table, self.state, expected, answer.value)
            if problem is not None and self.run.mask:
                self.tainted = True
                problem = successors_problem(self.table, self.state, expected, answer.value,
                                             self.run.mask)
            if problem is not None:
                rule = problem.rule
                if problem.missing is not None and rule == "missing":
                    rule = self.probe(problem.missing)
                self.fail("action/2, perform/3", problem.message, expected_text(expected),
                          "\n".join(problem.lines), rule=rule, wrong=problem.wrong)
        except Masked:
            self.tainted = True

    def probe(self, missing: Step) -> str:
        """Why a legal action is missing: asked again on the table grown by
        a cell on every side, it is there (the program's edges are wrong:
        rule edges), or there with another destination (directions); on an
        empty 7 x 7 table, the move in its direction goes elsewhere
        (directions); else the move's or the push's precondition."""
        big, state = self.table.grown(), self.state.shifted()
        kind = "prolog.push" if missing.box is not None else "prolog.move"
        want = next((s for s in model.legal(big, state) if s.name == missing.name), None)
        for action in self._actions(self.successors_on(big, state)):
            if want is not None and action == want.term():
                return "prolog.edges"
            if action.name == missing.name and \
                    "is not the cell" in _reason(big, state, action):
                return "prolog.directions"
        empty = Table(7, 7, ((4, 4, "j"),))
        alone = empty.initial()
        move = "move" + missing.name[4:]
        for action in self._actions(self.successors_on(empty, alone)):
            if action.name == move and \
                    "is not the cell" in _reason(empty, alone, action):
                return "prolog.directions"
        return kind

    @staticmethod
    def _actions(answer: Answer | None) -> list:
        """The actions of a successors answer (none when it is not a list of pairs)."""
        if answer is None or answer.kind != "ok" or not isinstance(answer.value, list):
            return []
        return [pair.args[0] for pair in answer.value
                if isinstance(pair, terms.Compound) and pair.name == "-" and len(pair.args) == 2
                and isinstance(pair.args[0], terms.Compound)]

    def successors_on(self, table: Table, state: State) -> Answer | None:
        """The program's successors of ``state`` on another ``table`` (None
        when it cannot be opened), then this example's table opened again
        (a fresh copy: the planner has been asked already)."""
        run = self.run
        run.target.close_level()
        self.open = False
        try:
            run.target.open_level(table.rows, table.columns, table.facts())
            self.open = True
            return run.target.successors(state.term(), run.timeout)
        except LoadFailed:
            return None
        finally:
            if self.open:
                run.target.close_level()
                self.open = False
            try:
                run.target.open_level(self.table.rows, self.table.columns, self.table.facts())
                self.open = True
            except LoadFailed:
                pass

    # -- the planner ----------------------------------------------------------

    def check_plan(self) -> None:
        run, table, kind = self.run, self.table, self.kind
        if self.tainted:
            return
        run.count("plans")
        if kind.unsolvable:
            run.count("unsolvable")
        # (Once plan-found is broken, a few moves are waited for no longer.)
        few = kind.few and "prolog.plan-found" not in run.mask
        seconds = run.plan_seconds if few else NO_PLAN_SECONDS
        if few:
            run.exercise(["prolog.plan-found"])
        answer = run.target.plan(seconds)
        if answer.kind in ("timeout", "killed", "no") and not few:
            return              # no plan where there is none, or not within reach
        if answer.kind == "ok":
            run.exercise(["prolog.plan-legal", "prolog.plan-goal"])
        if answer.kind == "timeout" or answer.kind == "killed":
            self.fail("sokoban/1", n_("no plan in {seconds} s where the shortest has {n} move",
                                      "no plan in {seconds} s where the shortest has {n} moves",
                                      kind.shortest).format(seconds=f"{seconds:g}",
                                                            n=kind.shortest),
                      plan_text(model.solve(table)),
                      _("no answer in {seconds} s").format(seconds=f"{seconds:g}"), fatal=True,
                      rule="prolog.plan-found")
        if answer.kind == "no":
            self.fail("sokoban/1", n_("sokoban(Plan) fails where the shortest plan has {n} move",
                                      "sokoban(Plan) fails where the shortest plan has {n} moves",
                                      kind.shortest).format(n=kind.shortest),
                      plan_text(model.solve(table)), "false", rule="prolog.plan-found")
        if answer.kind != "ok":
            self.target_failed(answer, "sokoban/1")
            return
        plan = answer.value
        if not isinstance(plan, list):
            self.fail("sokoban/1", _("the plan is not a list"), _("a list of actions"),
                      terms.text(plan), rule="prolog.plan-legal")
        replayed = model.replay(table, plan)
        shown = "\n".join(plan_lines(plan, replayed))
        none = (_("it returned a plan on a level that has none (the spec searched every "
                  "state); ") if kind.unsolvable else "")
        if replayed.illegal is not None:
            # An action the program's own action/2 would list is the action
            # model's fault (its rule); anything else is the planner's.
            action = plan[replayed.illegal]
            rule = _rule_of_illegal(table, replayed.states[-1], action)
            self.fail("sokoban/1", none + _("the plan it returned is illegal at step {step}: "
                                            "{action} ({why})").format(
                          step=replayed.illegal + 1, action=terms.text(action),
                          why=replayed.reason),
                      _("every action legal in the state it is taken in"), shown,
                      rule="prolog.plan-legal" if rule == "prolog.model" else rule)
        if not replayed.won:
            self.fail("sokoban/1", none + n_(
                          "the plan it returned ({n} action) ends without every box on a "
                          "destination", "the plan it returned ({n} actions) ends without "
                          "every box on a destination", len(plan)).format(n=len(plan)),
                      _("a plan that ends in a final state"), shown, rule="prolog.plan-goal",
                      board=replayed.states[-1])

    # -- failures -------------------------------------------------------------

    def target_failed(self, answer: Answer, where: str) -> None:
        kinds = {"timeout": _("{where} ran out of time: {what}"),
                 "error": _("{where} raised an error: {what}"),
                 "halted": _("{where} called halt: {what}"), "died": _("{where} ended: {what}"),
                 "killed": _("{where} stopped answering: {what}")}
        message = kinds.get(answer.kind, "{where} " + answer.kind + ": {what}").format(
            where=where, what=answer.text)
        rule = "prolog.plan-found" if where == "sokoban/1" else "prolog.model"
        self.fail(where, message, _("an answer"), answer.text, rule=rule,
                  fatal=answer.kind in ("timeout", "killed"))

    def fail(self, operation: str, message: str, expected: str, actual: str, *,
             rule: str, fatal: bool = False, board: State | None = None,
             maskable: bool = True, wrong: tuple[Step, State] | None = None) -> None:
        run = self.run
        if maskable and rule in run.mask:
            raise Masked(rule)
        self.failed = True
        if run.focus is not None and rule != run.focus:
            reject()            # while shrinking, only the first departure's rule counts
        c = counterexample(self.table, self.played, operation, message, expected, actual,
                           rule, run.consult, planner=operation == "sokoban/1",
                           board=board, wrong=wrong, target_name=run.target.name)
        if run.first_failure is None:
            run.first_failure = time.monotonic()
            run.focus = rule
        run.frozen = True
        run.last = c
        if fatal:
            raise Fatal(c)
        raise Departure(c)


# ------------------------------------------------------------------ comparing

@dataclass(frozen=True)
class Problem:
    """How a program's successors depart from the spec's (see
    :func:`successors_problem`)."""

    rule: str                   # the rule broken ("missing": a legal action left out)
    message: str                # one sentence
    lines: list                 # the program's pairs, one per line, marked
    missing: Step | None        # the first legal action it left out
    #: The first wrong next state: the spec's step and the program's state
    #: (drawn beside each other in the report).
    wrong: tuple[Step, State] | None = None


def successors_problem(table: Table, state: State, expected: Sequence[Step], actual: Any,
                       mask: frozenset = frozenset()) -> Problem | None:
    """``None`` when the program's pairs are the spec's; else what breaks
    which rule. The rule is ``"missing"`` when the only trouble is legal
    actions left out (:meth:`PrologMachine.probe` tells which rule).
    Departures from the rules of ``mask`` are passed over."""
    if not isinstance(actual, list):
        return Problem("prolog.model", _("findall/3 did not give a list"), [terms.text(actual)],
                       None)
    want = {model.hashable(s.term()): s for s in expected}
    got: dict[Any, list] = {}
    lines, bad = [], []
    wrong = None
    for pair in actual:
        if not (isinstance(pair, terms.Compound) and pair.name == "-" and len(pair.args) == 2):
            lines.append(f"{terms.text(pair)}   <-- " + _("not an Action-State pair"))
            bad.append(("prolog.model", _("an element of the list is not an Action-State pair")))
            continue
        action, after = pair.args
        got.setdefault(model.hashable(action), []).append(after)
        step = want.get(model.hashable(action))
        read = model.read_state(after)
        if step is None:
            reason = model.why_illegal(table, state, action)
            lines.append(f"{terms.text(action)}-{terms.text(after)}   <-- "
                         + _("not legal: {why}").format(why=reason))
            bad.append((_rule_of_illegal(table, state, action),
                        _("action/2 gives {action}, which is not legal here: {why}").format(
                            action=terms.text(action), why=reason)))
        elif isinstance(read, str) or read.key() != step.after.key():
            why = read if isinstance(read, str) else _effect_difference(step, read)
            lines.append(f"{terms.text(action)}-{terms.text(after)}   <-- "
                         + _("wrong next state: {why}").format(why=why))
            bad.append(("prolog.effects", _("perform/3 on {action} gives {state}: {why}").format(
                action=terms.text(action), state=terms.text(after), why=why)))
            if wrong is None and not isinstance(read, str) and "prolog.effects" not in mask:
                wrong = (step, read)
        else:
            lines.append(f"{terms.text(action)}-{terms.text(after)}")
    missing = [step for key, step in want.items() if key not in got]
    for step in missing:
        lines.append(_("(missing) {action}").format(action=terms.text(step.term())))
        bad.append(("missing", _("action/2 does not give {action}, which is legal here").format(
            action=terms.text(step.term()))))
    bad = [(rule, message) for rule, message in bad if rule not in mask]
    if not bad:
        return None
    rule, message = bad[0]
    return Problem(rule, message, lines, missing[0] if missing else None,
                   wrong if rule == "prolog.effects" else None)


def exercised_by(table: Table, state: State) -> set[str]:
    """The rules of the action model a comparison at ``state`` exercises:
    what lies next to the player in each direction (a free cell: move; an
    obstacle: free; the edge: edges; a box: push, and what lies behind it)."""
    found = {"prolog.model"}
    if model.legal(table, state):
        found |= {"prolog.effects", "prolog.directions"}
    obstacles, boxes = table.obstacles, set(state.boxes)
    x, y = state.player
    for dx, dy in engine_levels.DIRS:
        for k, cell in enumerate(((x + dx, y + dy), (x + 2 * dx, y + 2 * dy))):
            if not table.on_table(cell):
                found.add("prolog.edges")
            elif cell in obstacles:
                found.add("prolog.free")
            elif cell in boxes:
                found.add("prolog.push")
                continue                # what lies behind the box
            elif k == 0:
                found.add("prolog.move")
            break
    return found


def _effect_difference(step: Step, got: State) -> str:
    want = step.after
    parts = []
    if got.player != want.player:
        parts.append(_("the player should be at {cell}, not at {other}").format(
            cell=model.cell(want.player), other=model.cell(got.player)))
    if frozenset(got.boxes) != frozenset(want.boxes):
        parts.append(_("the boxes should be at {cells}").format(
            cells=[model.cell(b) for b in sorted(want.boxes, key=lambda p: (p[1], p[0]))]))
    return "; ".join(parts) or _("different")


def _reason(table: Table, state: State, action: Any) -> str:
    """Why ``action`` is illegal, in English whatever the language spoken:
    the rule it breaks is told by the reason's words."""
    with speaking("en"):
        return model.why_illegal(table, state, action)


def _rule_of_illegal(table: Table, state: State, action: Any) -> str:
    """The rule an illegal action listed breaks."""
    reason = _reason(table, state, action)
    if "the player is at" in reason or "there is no box at" in reason \
            or "must be [Fila, Columna]" in reason or " takes (" in reason:
        return "prolog.model"              # not an action of this state at all
    if "off the table" in reason:
        return "prolog.edges"
    if "is not the cell" in reason or " of the player" in reason:
        return "prolog.directions"
    if "holds an obstacle" in reason:
        return "prolog.free"
    if isinstance(action, terms.Compound) and action.name in model.PUSHES:
        return "prolog.push"
    if isinstance(action, terms.Compound) and action.name in model.MOVES:
        return "prolog.move"
    return "prolog.model"
