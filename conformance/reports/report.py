"""The human report of a conformance check.

Boards (:mod:`conformance.machines.boards`) are drawn in XSB characters over a window of the (possibly infinite)
grid: ``#`` wall, ``$`` box, ``*`` box on a goal, ``.`` goal, ``@`` player,
``+`` player on a goal, a space for floor, and ``!`` for a cell no valid
state can hold (a wall with something on it, the player on a box), which
only a non-conforming target produces.

:func:`format_verdict` prints the verdict; when there is a counterexample it
draws the level, numbers the actions, shows the expected (spec) and actual
(target) boards side by side with every differing cell marked ``X`` in a
third board, and ends with the command line that replays the failure.
"""

from __future__ import annotations

from typing import Callable

from conformance.api import Counterexample, Localization, Verdict
from conformance.machines.boards import draw
from levels.words import plural
from spec import rules
from conformance.machines.budget import describe_call
from conformance.translations import _, marked, n_, rule_source, rule_text

#: The order the stats are printed in, with their labels.
STAT_LABELS = (      # (key, singular, plural)
    ("examples", "example", "examples"), ("steps", "step", "steps"),
    ("pushes", "push", "pushes"), ("blocked", "blocked move", "blocked moves"),
    ("wins", "win", "wins"), ("bombs", "bomb", "bombs"), ("undos", "undo", "undos"),
    ("advances", "level advance", "level advances"),
)


def count(n: int, key: str) -> str:
    """``n`` of a stat (``"3 pushes"``), in the current language."""
    return {
        "examples": n_("{n} example", "{n} examples", n),
        "steps": n_("{n} step", "{n} steps", n),
        "pushes": n_("{n} push", "{n} pushes", n),
        "blocked": n_("{n} blocked move", "{n} blocked moves", n),
        "wins": n_("{n} win", "{n} wins", n),
        "bombs": n_("{n} bomb", "{n} bombs", n),
        "undos": n_("{n} undo", "{n} undos", n),
        "advances": n_("{n} level advance", "{n} level advances", n),
    }[key].format(n=n)


def marks(expected: list[str], actual: list[str]) -> list[str]:
    """A board of ``X`` where the two drawings differ, ``-`` where they agree."""
    height = max(len(expected), len(actual))
    width = max((len(r) for r in expected + actual), default=0)
    out = []
    for i in range(height):
        e = expected[i] if i < len(expected) else ""
        a = actual[i] if i < len(actual) else ""
        out.append("".join("-" if e[j:j + 1] == a[j:j + 1] else "X" for j in range(width)))
    return out


def _split(block: str) -> tuple[list[str], list[str]]:
    """A rendered observation: board rows (prefixed ``|``), then value lines."""
    rows, values = [], []
    for line in block.splitlines():
        if line.startswith("|"):
            rows.append(line[1:])
        elif line.strip():
            values.append(line)
    return rows, values


def side_by_side(columns: list[tuple[str, list[str]]], gap: int = 4) -> list[str]:
    """Columns of text (title, lines) next to each other."""
    widths = [max([len(t)] + [len(l) for l in lines]) for t, lines in columns]
    height = max(len(lines) for _, lines in columns)
    out = [(" " * gap).join(t.ljust(w) for (t, _), w in zip(columns, widths)).rstrip()]
    for i in range(height):
        out.append((" " * gap).join(
            (lines[i] if i < len(lines) else "").ljust(w)
            for (_, lines), w in zip(columns, widths)).rstrip())
    return out


def format_comparison(expected: str, actual: str) -> list[str]:
    """Expected and actual observations with the differing cells and values marked."""
    if not any(l.startswith("|") for l in (expected + "\n" + actual).splitlines()):
        # Not an observation (a target error, an argument changed): as is.
        said, got = _("expected:"), _("actual:")
        width = max(len(said), len(got)) + 1
        return ([said.ljust(width) + l for l in expected.splitlines()[:1]]
                + [" " * width + l for l in expected.splitlines()[1:]]
                + [got.ljust(width) + l for l in actual.splitlines()[:1]]
                + [" " * width + l for l in actual.splitlines()[1:]])
    e_rows, e_vals = _split(expected)
    a_rows, a_vals = _split(actual)
    out: list[str] = []
    if e_rows or a_rows:
        # Boards are drawn framed by '|' so that floor at the edges shows.
        m = marks(e_rows, a_rows)
        out += side_by_side([
            (_("expected (spec)"), [f"|{r}|" for r in e_rows]),
            (_("actual (target)"), [f"|{r}|" for r in a_rows]),
            (_("differs (X)"), [f"|{r}|" for r in m]),
        ])
        diff = sum(r.count("X") for r in m)
        out.append(n_("{n} cell differs", "{n} cells differ", diff).format(n=diff)
                   if diff else _("the boards agree"))
    e_map = dict(v.split(": ", 1) if ": " in v else (v, "") for v in e_vals)
    a_map = dict(v.split(": ", 1) if ": " in v else (v, "") for v in a_vals)
    for name in list(dict.fromkeys(list(e_map) + list(a_map))):
        e, a = e_map.get(name, _("(none)")), a_map.get(name, _("(none)"))
        flag = _("   <-- differs") if e != a else ""
        out.append(_("{name}: expected {expected}, actual {actual}").format(
            name=name, expected=e, actual=a) + flag)
    return out


def format_counterexample(c: Counterexample) -> str:
    """The counterexample part of the report."""
    out = [_("What went wrong: {message}").format(message=c.message)]
    out += [_("Rule broken: {rule}").format(rule=line) if i == 0 else f"  {line}"
            for i, line in enumerate(rule_lines(c.profile, c.rule))]
    if c.scenario:
        out.append(_("Found by the fixed scenario: {scenario}").format(scenario=marked(c.scenario)))
    out.append("")
    out.append(_("Levels (XSB):") if "\n\n" in c.level_text.strip() else _("Level (XSB):"))
    out += ["    " + l if l else "" for l in c.level_text.rstrip("\n").splitlines()]
    out.append("")
    if c.actions:
        out.append(_("Actions:"))
        for i, a in enumerate(c.actions):
            here = _("   <-- departs here") if i == c.step else ""
            out.append(f"  {i + 1:3}. {a}{here}")
    else:
        out.append(_("Actions: none (it departs right at the start)"))
    out.append("")
    out.append(_("Observer {operation} at the start:").format(operation=repr(c.operation))
               if c.step < 0 else _("Observer {operation} after action {n}:").format(
                   operation=repr(c.operation), n=c.step + 1))
    out += ["  " + l for l in format_comparison(c.expected, c.actual)]
    if c.replay:
        out += ["", _("Replay exactly this failure with:"), "  " + c.replay]
    out += where_to_look(c.where)
    return "\n".join(out)


#: Lines of source shown per place (a run of lines shows its first ones).
SOURCE_LINES = 4


def place(file: str, line: int, last: int = 0) -> str:
    """``file:line``, or ``file:line-last`` for a run of lines."""
    return f"{file}:{line}" + (f"-{last}" if last and last != line else "")


def where_to_look(where: Localization | None) -> list[str]:
    """The "Where to look" section: the lines of the target's own files most
    likely at fault, each with its place, function, score and text, said to
    be a hint (nothing when the departure was not localised)."""
    if where is None or not where.lines:
        return []
    if where.tests == "calls":
        head = _("Where to look (a hint, not a proof): the clauses of your program that the "
                 "calls breaking this rule ran, and the calls keeping it did not, most "
                 "suspicious first ({failing} failing and {passing} passing calls compared):")
    else:
        head = _("Where to look (a hint, not a proof): the lines of your code that the plays "
                 "breaking this rule ran, and the plays keeping it did not, most suspicious "
                 "first ({failing} failing and {passing} passing plays compared):")
    out = ["", head.format(failing=where.failing, passing=where.passing)]
    width = max(len(place(s.file, s.line, s.last)) for s in where.lines)
    for s in where.lines:
        function = _(" in {function}").format(function=s.function) if s.function else ""
        out.append(f"  {place(s.file, s.line, s.last).ljust(width)}  {s.score:.2f}{function}")
        texts = s.source.split("\n") if s.source else []
        out += [f"      {text}" for text in texts[:SOURCE_LINES]]
        if len(texts) > SOURCE_LINES:
            out.append("      ...")
    return out


def rule_lines(profile: str, rule_id: str | None) -> list[str]:
    """The rule a departure breaks, in the seed's words (``spec.rules``)."""
    try:
        rule = rules.table_for(profile).rule(rule_id or "")
    except KeyError:
        return [_("{rule} (no rule of the {profile} table explains this departure: a bug "
                  "of the rule table, please report it)").format(rule=rule_id or "?",
                                                                 profile=profile)]
    lines = [f"{rule.id}: {rule_text(rule)}",
             f"{rule_source(rule)}: \u201c{rule.words}\u201d"]
    if rule.errata:
        lines[-1] += _(" (erratum {errata}, spec/ERRATA.md)").format(
            errata=", ".join(rule.errata))
    return lines


def format_coverage(verdict: Verdict) -> list[str]:
    """How often the run exercised each rule of the seed, and the rules it
    never exercised, named (and, for a check by rules, each rule's outcome)."""
    coverage = getattr(verdict, "coverage", None) or {}
    outcomes = getattr(verdict, "outcomes", None) or []
    if not coverage and not outcomes:
        return []
    out = [""]
    if outcomes:
        kept = sum(o.status == "kept" for o in outcomes)
        credited = sum(o.passed for o in outcomes) - kept
        out.append(_("Rules of the seed: {kept} of {total} kept").format(
            kept=kept, total=len(outcomes))
            + (_(", {credited} not reached before the time budget ran out (their points "
                 "kept)").format(credited=credited) if credited else ""))
        for o in outcomes:
            if o.status == "kept":
                why = _("kept (exercised {n} times)").format(n=o.exercised)
            elif o.status == "broken":
                why = _("BROKEN") + (f": {o.counterexample.message}" if o.counterexample
                                     else "")
            elif o.status == "missing":
                why = _("not checked: lacks {operations}").format(
                    operations=", ".join(o.missing))
            elif o.status == "unexercised":
                why = _("never exercised (no point)")
            else:
                why = (_("not reached before the time budget ran out (its point kept)")
                       if o.credited else
                       _("not reached before the time budget ran out (no point)"))
            out.append(f"  {o.rule}: {why}")
        return out
    out.append(_("Rules exercised (times a case of the rule was played): ")
               + ", ".join(f"{r} {n}" for r, n in coverage.items()))
    never = [r for r, n in coverage.items() if n == 0]
    if never:
        out.append((_("Never exercised before the failure: ") if verdict.counterexample
                    else _("Never exercised: ")) + ", ".join(never))
    return out


def format_stats(stats: dict[str, int]) -> str:
    """``12 examples, 340 steps, 51 pushes, ...``."""
    parts = [count(stats[k], k) for k, _one, _many in STAT_LABELS if k in stats]
    return ", ".join(parts) if parts else _("nothing")


def verdict_head(verdict: Verdict) -> str:
    """``soko.py (profile soko, random seed 7)``: what a report is about."""
    return (_("{target} (profile {profile}, random seed {seed})") if verdict.seed is not None
            else _("{target} (profile {profile})")).format(
        target=verdict.target, profile=verdict.profile, seed=verdict.seed)


def verdict_line(verdict: Verdict, head: str, unfinished: bool) -> str:
    """A report's first line: ``head: CONFORMS (1.2 s)``, ``NOT FULLY
    CHECKED`` when ``unfinished``, else ``DOES NOT CONFORM``."""
    if verdict.conforms:
        said = _("{head}: CONFORMS ({seconds} s)")
    elif unfinished:
        said = _("{head}: NOT FULLY CHECKED ({seconds} s)")
    else:
        said = _("{head}: DOES NOT CONFORM ({seconds} s)")
    return said.format(head=head, seconds=f"{verdict.seconds:.1f}")


def format_verdict(verdict: Verdict) -> str:
    """The human report of one verdict."""
    head = verdict_head(verdict)
    out = []
    if verdict.error:
        out.append(_("{head}: cannot be checked").format(head=head))
        out.append(verdict.error)
        if verdict.missing:
            out.append(_("missing operations: ") + ", ".join(verdict.missing))
        return "\n".join(out)
    unfinished = (getattr(verdict, "out_of_time", False) and verdict.counterexample is None
                  and not verdict.missing)
    out.append(verdict_line(verdict, head, unfinished))
    out += out_of_time_lines(verdict, "example (the fixed scenarios count as examples)")
    if verdict.missing:
        missing = ", ".join(verdict.missing)
        if verdict.counterexample is None and verdict.stats:
            said = _("Missing operations: {missing}. The others were checked and conform.")
        elif verdict.stats:
            said = _("Missing operations: {missing}. The others were checked.")
        else:
            said = _("Missing operations: {missing}. The others were checked: none could be "
                     "without them.")
        out.append(said.format(missing=missing))
    if verdict.counterexample is not None:
        out += ["", format_counterexample(verdict.counterexample), ""]
    label = (_("Exercised before the failure: {stats}") if verdict.counterexample is not None
             else _("Exercised: {stats}"))
    out.append(label.format(stats=format_stats(verdict.stats)))
    out += format_coverage(verdict)
    out += format_warnings(verdict)
    return "\n".join(out)


def out_of_time_lines(verdict: Verdict, unit: str) -> list[str]:
    """What a report says of its budget: nothing when it did not run out;
    why the check is not fully checked when it found no departure; else that
    it stopped early. ``unit``: what the profile calls an example, in the
    singular, with any remark after it (``"table"``)."""
    if not getattr(verdict, "out_of_time", False):
        return []
    budget = _(" of {seconds} s").format(seconds=f"{verdict.budget:g}") if verdict.budget else ""
    if verdict.counterexample is not None or verdict.conforms or verdict.missing:
        return [_("(The time budget{budget} ran out before the check finished.)").format(
            budget=budget)]
    return [format_out_of_time(verdict, unit)]


def format_out_of_time(verdict: Verdict,
                       unit: str = "example (the fixed scenarios count as examples)") -> str:
    """Why a check is not fully checked: its budget, what it ran, how slow
    the target's calls are."""
    examples = verdict.stats.get("examples", 0)
    budget = _(" of {seconds} s").format(seconds=f"{verdict.budget:g}") if verdict.budget else ""
    if verdict.median_call is None:
        return _("The time budget{budget} ran out before the target answered a call (while "
                 "its box started and it was loaded): give it a larger --budget.").format(
                     budget=budget)
    word, _space, remark = unit.partition(" ")
    ran = (count(examples, "examples") if word == "example"
           else n_("{n} table", "{n} tables", examples).format(n=examples) if word == "table"
           else plural(examples, word))
    return _("The time budget{budget} ran out after {ran}{remark}, with no departure found; "
             "the target's median call took {call}. Slow code is not wrong code, but it was "
             "not checked in full: give it a larger --budget, or make it faster.").format(
                 budget=budget, ran=ran, remark=" " + _remark(remark) if remark else "",
                 call=describe_call(verdict.median_call))


def _remark(remark: str) -> str:
    """A unit's remark (see :func:`out_of_time_lines`) in the current language."""
    if remark == "(the fixed scenarios count as examples)":
        return _("(the fixed scenarios count as examples)")
    return remark


def format_warnings(verdict: Verdict) -> list[str]:
    """The report's warning sections: answers accepted although their type is
    not the seed's, and what the opt-in robustness checks found. Neither
    changes the verdict (``--strict-types`` turns the first kind into
    departures instead)."""
    out: list[str] = []
    warnings = getattr(verdict, "warnings", None) or []
    if warnings:
        out += ["", _("Warnings ({n}; accepted, the verdict does not depend on them):").format(
            n=len(warnings))]
        out += [f"  - {w}" for w in warnings]
    robustness = getattr(verdict, "robustness", None) or []
    if robustness:
        out += ["", _("Robustness (--robustness: inputs beyond the seed's domain; warnings "
                      "only, the verdict does not depend on them):")]
        for finding in robustness:
            out += ["    " + l if l else "" for l in finding.splitlines()]
    return out


def write_reports(verdict: Verdict, format_: Callable[[Verdict], str] | None = None) -> str:
    """Write, once, at the end of a check, every report the verdict carries:
    what the robustness checks found (``robustness``, from ``beyond``), each
    counterexample's (``report``, from the verdict of the run that found it,
    ``seen``) and each rule outcome's; returns the verdict's own report. The
    engine records only data; this is where it becomes text, each verdict
    formatted once (by ``format_``, default :func:`format_verdict`)."""
    format_ = format_ or format_verdict
    if verdict.beyond:
        verdict.robustness = [b if isinstance(b, str) else format_counterexample(b)
                              for b in verdict.beyond]
        verdict.beyond = []
    written = {id(verdict): format_(verdict)}

    def text(seen: Verdict) -> str:
        if id(seen) not in written:
            written[id(seen)] = format_(seen)
        return written[id(seen)]

    for o in verdict.outcomes:
        if o.seen is not None:
            o.report, o.seen = text(o.seen), None
    for c in (verdict.counterexample, *verdict.more_findings,
              *(o.counterexample for o in verdict.outcomes)):
        if c is not None and c.seen is not None:
            c.report, c.seen = text(c.seen), None
    return written[id(verdict)]
