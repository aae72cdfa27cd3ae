"""Points by rule: what a check found, rule by rule of the seed.

A grade is "which rules of the TAD does this code break". A check by rules
(:func:`conformance.checking.engine.check_rules`) ends with one :class:`RuleOutcome`
per rule of the profile's table (``spec.rules``):

* ``kept``: the run exercised the rule (took one of its cases) and nothing
  departed from it;
* ``broken``: a departure was blamed on it (its counterexample and report);
* ``missing``: the target lacks an operation the rule needs;
* ``unexercised``: the run never took one of its cases (it departed
  elsewhere first every time): no evidence either way, and no point;
* ``unreached``: the check's time budget (``--budget``) ran out before the
  run took one of its cases: no evidence either way; it earns its point
  (``credited``: slow code is not wrong code) unless the teacher asked
  ``--budget-is-failure``.

A rule earns its point when ``kept``, or ``unreached`` and credited. Gradescope's tests, the pytest
plugin's tests, ``grade``'s summary and ``report.html`` are all made from
these outcomes, one test per rule, named after it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Iterable

from conformance.api import Counterexample, Localization, RuleOutcome
from conformance.translations import _, cite
from spec import rules as spec_rules

STATUSES = ("kept", "broken", "missing", "unexercised", "unreached")


def outcomes(profile: str, exercised: dict[str, int],
             broken: dict[str, tuple[Counterexample, str]],
             missing_operations: Iterable[str] = (), unreached: str = "") -> list[RuleOutcome]:
    """One outcome per rule of ``profile``'s table, in the table's order:
    ``exercised`` (rule -> cases taken), ``broken`` (rule -> its first
    counterexample and its report, or the verdict it was found in, whose
    report it gets at the end of the check), the operations the target lacks.
    ``unreached``: the check ran out of time, so a rule not exercised is
    ``unreached`` (``"unreached"``: no point; ``"credited"``: its point all
    the same), not ``unexercised`` (``""``)."""
    table = spec_rules.table_for(profile)
    lacking = set(missing_operations)
    found = []
    for r in table.rules_for(profile):
        gone = sorted(lacking & set(r.needs))
        if r.id in broken:
            c, found_in = broken[r.id]
            o = RuleOutcome(r.id, "broken", exercised.get(r.id, 0), c, gone)
            if isinstance(found_in, str):
                o.report = found_in
            else:               # the verdict its report is written from, at the check's end
                o.seen = found_in
            found.append(o)
        elif gone:
            found.append(RuleOutcome(r.id, "missing", exercised.get(r.id, 0), missing=gone))
        elif exercised.get(r.id, 0):
            found.append(RuleOutcome(r.id, "kept", exercised[r.id]))
        elif unreached:
            found.append(RuleOutcome(r.id, "unreached", credited=unreached == "credited"))
        else:
            found.append(RuleOutcome(r.id, "unexercised"))
    return found


def describe(profile: str, o: RuleOutcome) -> str:
    """What a rule's test says: the rule in the seed's words, then why it
    passed or failed (the counterexample's report when broken)."""
    rule = spec_rules.table_for(profile).rule(o.rule)
    head = cite(rule)
    if o.status == "kept":
        return f"{head}\n\n" + _("Kept: exercised {n} times, no departure.").format(
            n=o.exercised)
    if o.status == "missing":
        return f"{head}\n\n" + _("Not checked: the submission lacks {operations}, which this "
                                  "rule needs.").format(operations=", ".join(o.missing))
    if o.status == "unreached":
        return f"{head}\n\n" + (
            _("Not reached: the check's time budget ran out before it exercised this rule "
              "(the code is slow), and nothing departed from it; it keeps its point.")
            if o.credited else
            _("Not reached: the check's time budget ran out before it exercised this rule "
              "(the code is slow), and nothing departed from it; no point "
              "(--budget-is-failure)."))
    if o.status == "unexercised":
        return f"{head}\n\n" + _("Never exercised: every play departed elsewhere before "
                                  "reaching this rule (see the broken rules), so it earns no "
                                  "point.")
    text = o.report or (o.counterexample.message if o.counterexample else "")
    extra = ("\n" + _("(It also lacks {operations}.)").format(operations=", ".join(o.missing))
             if o.missing else "")
    return f"{head}\n\n" + _("Broken:") + f"\n\n{text.rstrip()}{extra}"


def score(found: Iterable[RuleOutcome]) -> tuple[int, int]:
    """(points, out of): one point per rule kept."""
    found = list(found)
    return sum(o.passed for o in found), len(found)


def to_data(o: RuleOutcome) -> dict[str, Any]:
    """A summary row's entry for one rule (grade's summary.json, report.html)."""
    c = o.counterexample
    data = {"status": o.status, "exercised": o.exercised, "missing": list(o.missing),
            "message": c.message if c else "", "replay": c.replay if c else "",
            "report": o.report}
    if c is not None and c.where is not None:
        data["where"] = where_data(c.where)
    return data


def where_data(where: Localization) -> dict[str, Any]:
    """A localisation as summary.json keeps it for report.html's heat map:
    its lines, every ranked line's score, and the text of the files they
    are in (read now: the page holds everything it shows)."""
    files = sorted({file for file, _line, _score in where.heat})
    sources = {}
    for file in files if where.folder else ():
        try:
            sources[file] = (Path(where.folder) / file).read_text(encoding="utf-8",
                                                                  errors="replace")
        except OSError:
            pass
    return {"formula": where.formula, "failing": where.failing, "passing": where.passing,
            "tests": where.tests,
            "lines": [dataclasses.asdict(s) for s in where.lines],
            "heat": [list(h) for h in where.heat], "sources": sources}
