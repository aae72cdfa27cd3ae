"""The report of profile ``prolog``: a counterexample as the student can
run it (the level as a ``.pro`` file, the query to type, the boards) and the
replay format (a recorded failure as JSON)."""

from __future__ import annotations

import json
import shlex
from typing import Any, Sequence

from conformance.reports.report import where_to_look
from conformance.api import Counterexample, Verdict
from conformance.profiles.prolog import model, terms
from conformance.profiles.prolog.model import State, Step, Table
from conformance.profiles.prolog.rules import rule_line
from conformance.machines.boards import CLASH, Board, draw
from conformance.reports.report import (
    marks, out_of_time_lines, side_by_side, verdict_head, verdict_line,
)
from conformance.translations import _, n_

PROFILE = "prolog"
#: How a message printed while the program was loaded starts, in a verdict's warnings.
LOADING = "loading it printed: "

def expected_text(expected: Sequence[Step]) -> str:
    return "\n".join(f"{terms.text(s.term())}-{terms.text(s.after.term())}"
                     for s in expected) or _("[] (no legal action)")


def plan_text(states) -> str:
    if states is None:
        return _("a plan")
    return _("a plan; a shortest one is {plan}").format(
        plan=terms.text([s.term() for s in states]))


def plan_lines(plan: list, replayed: model.Replay) -> list[str]:
    out = []
    for i, action in enumerate(plan):
        mark = ""
        if replayed.illegal == i:
            mark = "   <-- " + _("illegal: {why}").format(why=replayed.reason)
        out.append(f"{i + 1:3}. {terms.text(action)}{mark}")
        if replayed.illegal == i:
            if len(plan) > i + 1:
                out.append("     ... " + _("{n} more").format(n=len(plan) - i - 1))
            break
    return out or [_("[] (the empty plan)")]


def board_of(table: Table, state: State) -> Board:
    return Board(walls=table.walls(), boxes=frozenset(state.boxes), goals=table.goals,
                 players=frozenset({state.player}))


def drawing(table: Table, state: State) -> list[str]:
    return draw(board_of(table, state), (0, 0, table.columns + 1, table.rows + 1))


def query(table: Table, state: State | None, planner: bool) -> str:
    if planner:
        return "?- sokoban(Plan)."
    s = terms.text(state.term())
    return f"?- findall(A-S2, (action({s}, A), perform({s}, A, S2)), L)."


def counterexample(table: Table, played: Sequence[Step], operation: str, message: str,
                   expected: str, actual: str, rule: str, consult: str, *,
                   planner: bool, board: State | None = None,
                   wrong: tuple[Step, State] | None = None,
                   target_name: str = "PROGRAM") -> Counterexample:
    """The departure found after ``played`` on ``table``: what went wrong
    (with its rule's line), the level as the ``.pro`` file that consults
    ``consult``, the query that shows it, the command that replays it."""
    state = table.initial()
    for s in played:
        state = s.after
    level_text = "\n".join(drawing(table, table.initial())) + "\n"
    replay = replay_command(target_name, table, [s.name for s in played], planner)
    c = Counterexample(profile=PROFILE, level_text=level_text,
                       actions=[terms.text(s.term()) for s in played],
                       step=len(played) - 1, operation=operation, expected=expected,
                       actual=actual, message=f"{message} [{rule_line(rule)}]",
                       replay=replay)
    c.rule = rule
    c.short_message = message           # without its rule's line (shown apart, as in sokoban play)
    c.facts = table.text(consult)
    c.query = query(table, state, planner)
    c.state_drawing = drawing(table, board if board is not None else state)
    c.state_term = terms.text(state.term())
    c.after_drawing = after_drawing(table, *wrong) if wrong is not None else []
    return c


def after_drawing(table: Table, step: Step, theirs: State) -> list[str]:
    """The state after ``step`` as the spec has it and as the program's
    perform/3 gave it (``theirs``), side by side, with the cells that differ
    marked (``!`` where two pieces share a cell): a title line, then the
    block's lines."""
    window = (0, 0, table.columns + 1, table.rows + 1)
    spec = draw(board_of(table, step.after), window)
    own = draw(board_of(table, theirs), window)
    off = [p for p in (theirs.player, *theirs.boxes) if not table.on_table(p)]
    clash = any(CLASH in row for row in own)
    lines = [(_("After {action} (X: the cells that differ; {clash}: two pieces on one cell):")
              if clash else _("After {action} (X: the cells that differ):")).format(
                  action=terms.text(step.term()), clash=CLASH)]
    lines += side_by_side([(_("the spec"), spec), (_("its state"), own),
                           (_("differ"), marks(spec, own))])
    if off:
        lines.append(_("(its state puts pieces off the table: {cells})").format(
            cells=", ".join(terms.text(model.cell(p)) for p in off)))
    return lines


def format_counterexample(c: Counterexample) -> str:
    out = [_("What went wrong: {message}").format(message=c.message), ""]
    out.append(_("The level, as a file (save it beside your program, then run swipl on it):"))
    out += ["    " + line if line else "" for line in c.facts.rstrip("\n").splitlines()]
    out.append("")
    out.append(_("Drawn (# the table's edge and obstacles, @ player, $ box, . destination):"))
    out += ["    " + line for line in c.level_text.rstrip("\n").splitlines()]
    out.append("")
    if c.operation == "sokoban/1":
        out.append(_("Query:"))
        out.append("    " + c.query)
        out.append("")
        out.append(_("Expected: {expected}").format(expected=c.expected))
        out.append(_("Its answer:"))
        out += ["    " + line for line in c.actual.splitlines()]
        if getattr(c, "state_drawing", None) and getattr(c, "rule", None) == "prolog.plan-goal":
            out.append(_("Where its plan ends:"))
            out += ["    " + line for line in c.state_drawing]
    else:
        if c.actions:
            out.append(_("Played from the initial state (legal actions), to this state:"))
            out += [f"  {i + 1:3}. {a}" for i, a in enumerate(c.actions)]
            out += ["    " + line for line in c.state_drawing]
            out.append("")
        out.append(_("Query:"))
        out.append("    " + c.query)
        out.append("")
        out.append(_("Expected (the spec; any order, boxes in any order):"))
        out += ["    " + line for line in c.expected.splitlines()]
        out.append(_("Its answer:"))
        out += ["    " + line for line in c.actual.splitlines()]
        drawn = getattr(c, "after_drawing", [])
        out += drawn[:1] + ["    " + line for line in drawn[1:]]
    if c.replay:
        out += ["", _("Replay exactly this failure with:"), "  " + c.replay]
    out += where_to_look(c.where)
    return "\n".join(out)


def format_verdict(verdict: Verdict) -> str:
    head = verdict_head(verdict)
    if verdict.error:
        return _("{head}: cannot be checked").format(head=head) + f"\n{verdict.error}" + (
            "\n" + _("missing predicates: {names}").format(names=", ".join(verdict.missing))
            if verdict.missing else "")
    unfinished = verdict.out_of_time and verdict.counterexample is None
    out = [verdict_line(verdict, head, unfinished)]
    out += out_of_time_lines(verdict, "table")
    errors = [w[len(LOADING):] for w in verdict.warnings if w.startswith(LOADING + "ERROR")]
    notes = [w for w in verdict.warnings if not w.startswith(LOADING + "ERROR")]
    if errors:
        out += ["", _("Loading the program printed errors (swipl leaves out what it cannot "
                      "read or run: fix these first):")] + [f"    {e}" for e in errors]
    if verdict.counterexample is not None:
        out += ["", format_counterexample(verdict.counterexample), ""]
    s = verdict.stats
    label = (_("Exercised before the failure: {stats}") if verdict.counterexample is not None
             else _("Exercised: {stats}"))
    e, st, sp, pu, pl, un = (s.get(key, 0) for key in ("examples", "states", "steps", "pushes",
                                                        "plans", "unsolvable"))
    stats = _("{tables}, {states}, {steps} {pushes}, {plans} {unsolvable}").format(
        tables=n_("{n} table", "{n} tables", e).format(n=e),
        states=n_("{n} state compared", "{n} states compared", st).format(n=st),
        steps=n_("{n} action played", "{n} actions played", sp).format(n=sp),
        pushes=n_("({n} push)", "({n} pushes)", pu).format(n=pu),
        plans=n_("{n} plan asked for", "{n} plans asked for", pl).format(n=pl),
        unsolvable=n_("({n} on tables without one)", "({n} on tables without one)",
                      un).format(n=un))
    out.append(label.format(stats=stats))
    if notes:
        out += ["", _("Notes ({n}; the verdict does not depend on them):").format(n=len(notes))]
        out += [f"  - {w}" for w in notes]
    return "\n".join(out)


# ------------------------------------------------------------------ replay

def replay_data(table: Table, actions: Sequence[str], planner: bool) -> dict:
    return {"profile": PROFILE, "filas": table.rows, "columnas": table.columns,
            "pistas": [list(p) for p in table.pistas], "actions": list(actions),
            "plan": planner}


def replay_string(table: Table, actions: Sequence[str], planner: bool) -> str:
    return json.dumps(replay_data(table, actions, planner), separators=(",", ":"))


def replay_command(target_name: str, table: Table, actions: Sequence[str], planner: bool) -> str:
    """The command line that replays exactly this failure."""
    parts = ["python", "-m", "conformance", target_name, "--profile", PROFILE,
             "--replay", replay_string(table, actions, planner)]
    return " ".join(shlex.quote(p) for p in parts)


def parse_replay(text: str) -> tuple[Table, list[str], bool]:
    """The table, the actions (seed 003's names) and whether the planner
    is asked, from a replay string; ValueError saying what is wrong."""
    try:
        data = json.loads(text)
        table = Table(int(data["filas"]), int(data["columnas"]),
                      tuple((int(f), int(c), str(e)) for f, c, e in data["pistas"]))
        actions = [str(a) for a in data.get("actions", [])]
        planner = bool(data.get("plan", False))
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(_("not a replay of profile prolog: {problem}").format(problem=e)) from None
    bad = [a for a in actions if a not in model.MOVES + model.PUSHES]
    if bad:
        raise ValueError(_("not an action of seed 003: {action}").format(action=repr(bad[0])))
    return table, actions, planner
