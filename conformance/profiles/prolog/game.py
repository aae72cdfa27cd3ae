"""A Prolog program played action by action in ``sokoban play`` (its own
game: the referee's for a program of seed 003)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

import levels
from conformance.machines import levels as lv
from conformance.machines.replays import ACTION_CODES
from conformance.profiles.prolog import model
from conformance.profiles.prolog.check import open_program
from conformance.profiles.prolog.machine import PrologMachine, PrologRun
from conformance.profiles.prolog.model import Table
from conformance.profiles.prolog.source import NotAProgram, find_program
from conformance.profiles.prolog.target import PrologTarget, SwiplMissing, swipl
from conformance.sandbox.loading import BadTarget
from levels.prolog import format_prolog

from conformance.translations import _


class PrologGame:
    """A Prolog program of seed 003 (profile prolog): its machine
    (:class:`conformance.profiles.prolog.machine.PrologMachine`) compares the
    program's successors of every state reached; the state after an action
    is the program's own ``perform/3`` result for it."""

    profile = "prolog"

    def __init__(self, path: str, memory_mb: int):
        try:
            program = find_program(path)
            swipl()
        except (NotAProgram, SwiplMissing) as e:
            raise BadTarget(str(e)) from None
        self.target = PrologTarget(program, memory_mb=memory_mb)
        problem = open_program(self.target)
        if problem is not None:
            self.target.close()
            raise BadTarget(problem.error)
        self.machine = None

    @staticmethod
    def table(level: Any):
        return Table.from_text(format_prolog(level))

    def refuses(self, level: Any) -> str | None:
        try:
            table = self.table(level)
        except (levels.LevelError, ValueError, IndexError) as e:
            return _("not a table of seed 003: {problem}").format(problem=e)
        return "; ".join(levels.validate(table.level(), "tad")) or None

    def begin(self, levels: Sequence[Any]) -> None:
        self._end()
        run = PrologRun(self.target, self.target.program.main.name, groups=("actions",))
        self.machine = PrologMachine.bind(run)()
        self.machine.start(self.table(levels[0]))
        self.machine.flush()

    def act(self, code: str) -> bool:
        """The legal action of seed 003 in the direction of ``code`` (a
        move, or a push), if any: its state is the program's perform/3
        result (the machine found it equal to the spec's, boxes in any
        order), and the successors of that state are compared."""
        m = self.machine
        if code not in ACTION_CODES:
            return False
        word = model.DIRECTION[ACTION_CODES[code]]
        step = next((s for s in model.legal(m.table, m.state)
                     if s.name in ("move" + word, "push" + word)), None)
        if step is None:
            return False            # blocked: the program did not list it either
        pairs = m.answer.value if m.answer is not None and m.answer.kind == "ok" else []
        for pair in pairs:
            if model.hashable(pair.args[0]) == model.hashable(step.term()):
                theirs = model.read_state(pair.args[1])
                if isinstance(theirs, model.State):
                    step = replace(step, after=theirs)
        m.played.append(step)
        m.state = step.after
        m.compare()
        m.flush()
        return True

    def view(self) -> lv.View:
        m = self.machine
        return lv.View(m.table.walls(), frozenset(m.state.boxes), m.table.goals, m.state.player,
                    won=m.table.solved(m.state))

    def _end(self) -> None:
        if self.machine is not None:
            self.machine.failed = True      # nothing left to compare: close its level
            self.machine.teardown()
            self.machine = None

    def close(self) -> None:
        self._end()
        self.target.close()
