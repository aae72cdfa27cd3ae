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

from conformance.api import Counterexample, Verdict
from conformance.machines.boards import draw
from levels.words import plural
from spec import rules
from conformance.machines.budget import describe_call

#: The order the stats are printed in, with their labels.
STAT_LABELS = (      # (key, singular, plural)
    ("examples", "example", "examples"), ("steps", "step", "steps"),
    ("pushes", "push", "pushes"), ("blocked", "blocked move", "blocked moves"),
    ("wins", "win", "wins"), ("bombs", "bomb", "bombs"), ("undos", "undo", "undos"),
    ("advances", "level advance", "level advances"),
)


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
        return (["expected: " + l for l in expected.splitlines()[:1]]
                + ["          " + l for l in expected.splitlines()[1:]]
                + ["actual:   " + l for l in actual.splitlines()[:1]]
                + ["          " + l for l in actual.splitlines()[1:]])
    e_rows, e_vals = _split(expected)
    a_rows, a_vals = _split(actual)
    out: list[str] = []
    if e_rows or a_rows:
        # Boards are drawn framed by '|' so that floor at the edges shows.
        m = marks(e_rows, a_rows)
        out += side_by_side([
            ("expected (spec)", [f"|{r}|" for r in e_rows]),
            ("actual (target)", [f"|{r}|" for r in a_rows]),
            ("differs (X)", [f"|{r}|" for r in m]),
        ])
        diff = sum(r.count("X") for r in m)
        out.append(("1 cell differs" if diff == 1 else f"{diff} cells differ")
                   if diff else "the boards agree")
    e_map = dict(v.split(": ", 1) if ": " in v else (v, "") for v in e_vals)
    a_map = dict(v.split(": ", 1) if ": " in v else (v, "") for v in a_vals)
    for name in list(dict.fromkeys(list(e_map) + list(a_map))):
        e, a = e_map.get(name, "(none)"), a_map.get(name, "(none)")
        flag = "   <-- differs" if e != a else ""
        out.append(f"{name}: expected {e}, actual {a}{flag}")
    return out


def format_counterexample(c: Counterexample) -> str:
    """The counterexample part of the report."""
    out = [f"What went wrong: {c.message}"]
    out += [f"Rule broken: {line}" if i == 0 else f"  {line}"
            for i, line in enumerate(rule_lines(c.profile, c.rule))]
    if c.scenario:
        out.append(f"Found by the fixed scenario: {c.scenario}")
    out.append("")
    out.append("Level" + ("s" if "\n\n" in c.level_text.strip() else "") + " (XSB):")
    out += ["    " + l if l else "" for l in c.level_text.rstrip("\n").splitlines()]
    out.append("")
    if c.actions:
        out.append("Actions:")
        for i, a in enumerate(c.actions):
            here = "   <-- departs here" if i == c.step else ""
            out.append(f"  {i + 1:3}. {a}{here}")
    else:
        out.append("Actions: none (it departs right at the start)")
    out.append("")
    where = "at the start" if c.step < 0 else f"after action {c.step + 1}"
    out.append(f"Observer {c.operation!r} {where}:")
    out += ["  " + l for l in format_comparison(c.expected, c.actual)]
    if c.replay:
        out += ["", "Replay exactly this failure with:", "  " + c.replay]
    return "\n".join(out)


def rule_lines(profile: str, rule_id: str | None) -> list[str]:
    """The rule a departure breaks, in the seed's words (``spec.rules``)."""
    try:
        rule = rules.table_for(profile).rule(rule_id or "")
    except KeyError:
        return [f"{rule_id or '?'} (no rule of the {profile} table explains this departure: "
                "a bug of the rule table, please report it)"]
    lines = [f"{rule.id}: {rule.text}",
             f"{rule.source}: \u201c{rule.words}\u201d"]
    if rule.errata:
        lines[-1] += f" (erratum {', '.join(rule.errata)}, spec/ERRATA.md)"
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
        out.append(f"Rules of the seed: {kept} of {len(outcomes)} kept"
                   + (f", {credited} not reached before the time budget ran out (their "
                      "points kept)" if credited else ""))
        for o in outcomes:
            why = {"kept": f"kept (exercised {o.exercised} times)",
                   "broken": "BROKEN" + (f": {o.counterexample.message}" if o.counterexample
                                         else ""),
                   "missing": f"not checked: lacks {', '.join(o.missing)}",
                   "unexercised": "never exercised (no point)",
                   "unreached": "not reached before the time budget ran out"
                                + (" (its point kept)" if o.credited else " (no point)"),
                   }[o.status]
            out.append(f"  {o.rule}: {why}")
        return out
    out.append("Rules exercised (times a case of the rule was played): "
               + ", ".join(f"{r} {n}" for r, n in coverage.items()))
    never = [r for r, n in coverage.items() if n == 0]
    if never:
        out.append("Never exercised" + (" before the failure" if verdict.counterexample
                                         else "") + ": " + ", ".join(never))
    return out


def format_stats(stats: dict[str, int]) -> str:
    """``12 examples, 340 steps, 51 pushes, ...``."""
    parts = [plural(stats[k], one, many) for k, one, many in STAT_LABELS if k in stats]
    return ", ".join(parts) if parts else "nothing"


def format_verdict(verdict: Verdict) -> str:
    """The human report of one verdict."""
    seed = f", random seed {verdict.seed}" if verdict.seed is not None else ""
    head = f"{verdict.target} (profile {verdict.profile}{seed})"
    out = []
    if verdict.error:
        out.append(f"{head}: cannot be checked")
        out.append(verdict.error)
        if verdict.missing:
            out.append("missing operations: " + ", ".join(verdict.missing))
        return "\n".join(out)
    unfinished = (getattr(verdict, "out_of_time", False) and verdict.counterexample is None
                  and not verdict.missing)
    if verdict.conforms:
        out.append(f"{head}: CONFORMS ({verdict.seconds:.1f} s)")
    elif unfinished:
        out.append(f"{head}: NOT FULLY CHECKED ({verdict.seconds:.1f} s)")
    else:
        out.append(f"{head}: DOES NOT CONFORM ({verdict.seconds:.1f} s)")
    out += out_of_time_lines(verdict, "example (the fixed scenarios count as examples)")
    if verdict.missing:
        out.append(f"Missing operations: {', '.join(verdict.missing)}. The others were checked"
                   + (" and conform." if verdict.counterexample is None and verdict.stats
                      else "." if verdict.stats else ": none could be without them."))
    if verdict.counterexample is not None:
        out += ["", format_counterexample(verdict.counterexample), ""]
    label = "Exercised before the failure" if verdict.counterexample is not None else "Exercised"
    out.append(f"{label}: {format_stats(verdict.stats)}")
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
    budget = f" of {verdict.budget:g} s" if verdict.budget else ""
    if verdict.counterexample is not None or verdict.conforms or verdict.missing:
        return [f"(The time budget{budget} ran out before the check finished.)"]
    return [format_out_of_time(verdict, unit)]


def format_out_of_time(verdict: Verdict,
                       unit: str = "example (the fixed scenarios count as examples)") -> str:
    """Why a check is not fully checked: its budget, what it ran, how slow
    the target's calls are."""
    examples = verdict.stats.get("examples", 0)
    budget = f" of {verdict.budget:g} s" if verdict.budget else ""
    if verdict.median_call is None:
        return (f"The time budget{budget} ran out before the target answered a call (while "
                "its box started and it was loaded): give it a larger --budget.")
    word, _, remark = unit.partition(" ")
    return (f"The time budget{budget} ran out after {plural(examples, word)}"
            f"{' ' + remark if remark else ''}, with no departure found; the "
            f"target's median call took {describe_call(verdict.median_call)}. Slow code is "
            "not wrong code, but it was not checked in full: give it a larger --budget, or "
            "make it faster.")


def format_warnings(verdict: Verdict) -> list[str]:
    """The report's warning sections: answers accepted although their type is
    not the seed's, and what the opt-in robustness checks found. Neither
    changes the verdict (``--strict-types`` turns the first kind into
    departures instead)."""
    out: list[str] = []
    warnings = getattr(verdict, "warnings", None) or []
    if warnings:
        out += ["", f"Warnings ({len(warnings)}; accepted, the verdict does not depend on them):"]
        out += [f"  - {w}" for w in warnings]
    robustness = getattr(verdict, "robustness", None) or []
    if robustness:
        out += ["", "Robustness (--robustness: inputs beyond the seed's domain; warnings only, "
                "the verdict does not depend on them):"]
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
