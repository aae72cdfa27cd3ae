"""Verdicts on disk: JSON and JUnit XML (for CI systems), written atomically."""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterable, Sequence

from conformance.api import Verdict
from levels.storage import atomic_path
from conformance.machines.budget import describe_call
from conformance.reports import points
from conformance.translations import _, n_, rule_title
from spec import rules as spec_rules

FORMAT_VERSION = 1


JSON_MARKER = '"tool": "sokoban-conformance"'
JUNIT_MARKER = 'name="sokoban-conformance"'


def check_overwritable(path: str | os.PathLike, marker: str | None) -> None:
    """Raise :class:`FileExistsError` if ``path`` is an existing file without
    ``marker`` in its first 4 KB (a file of the user's, not one of ours)."""
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, _("it is a folder (give a file name)"), str(path))
    if marker is None or not os.path.isfile(path):
        return
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(4096)
    except OSError:
        return                  # writing it will say what is wrong
    if marker not in head:
        raise FileExistsError(errno.EEXIST, _("the file exists and was not written by this "
                                              "tool; not overwritten (remove it or choose "
                                              "another name)"), str(path))


def atomic_write(path: str | os.PathLike, text: str, *, marker: str | None = None) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename, so a
    reader never sees half a file and a failure leaves the old one intact.
    A new file gets the mode the umask gives (``0o666 & ~umask``), an
    existing one keeps its mode. ``marker``: a string that every file this
    tool writes there holds in its first 4 KB; an existing file without it is
    the user's, and is not overwritten (:class:`FileExistsError`)."""
    path = Path(path)
    check_overwritable(path, marker)
    try:
        old_mode = path.stat().st_mode & 0o7777 if path.is_file() else None
    except OSError:
        old_mode = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path, mode=old_mode, prefix=f".{path.name}.") as tmp:
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                f.write(text)
    except OSError as e:        # name the file asked for, not a temporary one
        raise type(e)(e.errno, e.strerror, str(path)) from None


#: A check whose time budget ran out before it found any departure.
NOT_FULLY_CHECKED = "not fully checked"


def verdict_status(v: Verdict) -> str:
    """``"conforms"``, ``"does not conform"``, ``"bad target"`` or
    ``"not fully checked"`` (the time budget ran out first, nothing departed)."""
    if v.error:                 # (a target lacking some operations but checked on the rest
        return "bad target"     # has ``missing`` and no ``error``: it does not conform)
    if v.conforms:
        return "conforms"
    if v.out_of_time and v.counterexample is None and not v.missing:
        return NOT_FULLY_CHECKED
    return "does not conform"


_PLURAL_STATUS = {"conforms": "conform", "does not conform": "do not conform",
                  "bad target": "bad targets", NOT_FULLY_CHECKED: "not fully checked"}


def status_count(n: int, status: str) -> str:
    """``1 conforms``, ``3 conform``, ``2 do not conform``, ``2 bad targets``."""
    said = {"conforms": n_("{n} conforms", "{n} conform", n),
            "does not conform": n_("{n} does not conform", "{n} do not conform", n),
            "bad target": n_("{n} bad target", "{n} bad targets", n),
            NOT_FULLY_CHECKED: n_("{n} not fully checked", "{n} not fully checked", n)}.get(status)
    if said is None:
        return f"{n} {status if n == 1 else _PLURAL_STATUS.get(status, status)}"
    return said.format(n=n)


def group_passed(v: Verdict) -> bool:
    """For a check of one operation group: it was checked (on the operations
    present) and nothing departed. A missing operation is not held against
    the group: the "operations" test of the Gradescope results and of the
    pytest plugin counts it once."""
    return v.error is None and v.counterexample is None and bool(v.stats)


def verdict_message(v: Verdict) -> str:
    """One line: why it does not conform (empty when it conforms)."""
    missing = (_("missing operations: {operations}").format(operations=", ".join(v.missing))
               if v.missing else "")
    if v.error:
        if missing:
            return missing
        lines = [line.strip() for line in v.error.strip().splitlines()]
        return " ".join(lines[:2]) or _("bad target")      # the closest profile's lack
    if v.counterexample is not None:
        return f"{missing}; {v.counterexample.message}" if missing else v.counterexample.message
    if verdict_status(v) == NOT_FULLY_CHECKED:
        return out_of_time_message(v)
    return _("{missing} (the others conform)").format(missing=missing) if missing and v.stats \
        else missing


def out_of_time_message(v: Verdict) -> str:
    """One line: a check whose time budget ran out before it found a departure."""
    examples = v.stats.get("examples", 0)
    budget = _(" of {seconds} s").format(seconds=f"{v.budget:g}") if v.budget else ""
    if v.median_call is None:
        return _("the time budget{budget} ran out before the target answered a call (while it "
                 "was opened)").format(budget=budget)
    return n_("the time budget{budget} ran out after {n} example, no departure found (median "
              "call {call})",
              "the time budget{budget} ran out after {n} examples, no departure found (median "
              "call {call})", examples).format(budget=budget, n=examples,
                                               call=describe_call(v.median_call))


def verdict_to_dict(v: Verdict) -> dict[str, Any]:
    data = _plain(dataclasses.asdict(v))
    data["status"] = verdict_status(v)
    return data


#: Fields that hold what a report is written from, not what it says.
_WORKING = ("seen", "beyond")


def _plain(data):
    """``data`` without the working fields (:data:`_WORKING`), at any depth."""
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items() if k not in _WORKING}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


def verdicts_to_json(verdicts: Sequence[Verdict]) -> str:
    document = {
        "format": FORMAT_VERSION,
        "tool": "sokoban-conformance",
        "conforms": all(v.conforms for v in verdicts),
        "verdicts": [verdict_to_dict(v) for v in verdicts],
    }
    return json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n"


def write_json(verdicts: Sequence[Verdict], path: str | os.PathLike) -> None:
    atomic_write(path, verdicts_to_json(verdicts), marker=JSON_MARKER)


def verdicts_to_junit(verdicts: Sequence[Verdict], reports: Iterable[str] | None = None) -> str:
    """JUnit XML: one ``testsuite``, one ``testcase`` per verdict (classname
    ``sokoban.PROFILE``, name the target); a non-conforming target is a
    ``failure`` with the counterexample's report, a bad target an ``error``.
    ``reports`` (same order as ``verdicts``) are the human reports to attach."""
    reports = list(reports) if reports is not None else [""] * len(verdicts)
    failures = sum(1 for v in verdicts if verdict_status(v) == "does not conform")
    errors = sum(1 for v in verdicts if verdict_status(v) == "bad target")
    skipped = sum(1 for v in verdicts if verdict_status(v) == NOT_FULLY_CHECKED)
    suites = ET.Element("testsuites", name="sokoban-conformance", tests=str(len(verdicts)),
                        failures=str(failures), errors=str(errors))
    suite = ET.SubElement(suites, "testsuite", name="sokoban-conformance",
                          tests=str(len(verdicts)), failures=str(failures), errors=str(errors),
                          skipped=str(skipped), time=f"{sum(v.seconds for v in verdicts):.3f}")
    for v, report in zip(verdicts, reports):
        case = ET.SubElement(suite, "testcase", classname=f"sokoban.{v.profile}",
                             name=v.target, time=f"{v.seconds:.3f}")
        status = verdict_status(v)
        if status == "does not conform":
            cx = v.counterexample
            text = report or (cx.report if cx else "") or verdict_message(v)
            if cx is not None and cx.replay:
                text = f"{text.rstrip()}\n\nreplay: {cx.replay}\n"
            failure = ET.SubElement(case, "failure", message=verdict_message(v),
                                    type="NonConformance")
            failure.text = text
        elif status == "bad target":
            error = ET.SubElement(case, "error", message=verdict_message(v), type="BadTarget")
            error.text = v.error or verdict_message(v)
        elif status == NOT_FULLY_CHECKED:       # neither passed nor failed
            ET.SubElement(case, "skipped", message=verdict_message(v))
        props = ET.SubElement(case, "properties")
        if v.seed is not None:
            ET.SubElement(props, "property", name="seed", value=str(v.seed))
        for key, value in sorted(v.stats.items()):
            ET.SubElement(props, "property", name=key, value=str(value))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def write_junit(verdicts: Sequence[Verdict], path: str | os.PathLike,
                reports: Iterable[str] | None = None) -> None:
    atomic_write(path, verdicts_to_junit(verdicts, reports), marker=JUNIT_MARKER)


# ------------------------------------------------------------------ Gradescope

#: Gradescope's visibility settings (its autograder specification).
GRADESCOPE_VISIBILITY = ("visible", "hidden", "after_due_date", "after_published")


def verdicts_to_gradescope(results: Sequence[tuple[Verdict, str]], *,
                           visibility: str = "visible", seconds: float = 0.0) -> str:
    """Gradescope's autograder ``results.json`` from checks by rules
    (:func:`conformance.checking.checks.check_by_rules`: ``(verdict, report)``).
    Per profile checked, one test per rule of the seed (``spec.rules``),
    named after it and worth 1 point, passed when the rule was exercised and
    nothing departed from it; its output quotes the rule in the seed's words
    and, when broken, the report of its smallest counterexample (with the
    command that replays it). A missing function costs the rules that need
    it. A target that cannot be checked at all is one failed test saying
    why. A check whose time budget ran out (``--budget``) keeps the points
    of the rules it did not refute (``unreached`` and credited), unless it
    ran with ``--budget-is-failure``. The top-level score is the sum;
    ``extra_data`` records the random seed, per rule its outcome, and
    whether the budget ran out."""
    tests: list[dict[str, Any]] = []

    def test(name: str, passed: bool, output: str, profile: str) -> None:
        tests.append({
            "name": name, "score": 1.0 if passed else 0.0, "max_score": 1.0,
            "status": "passed" if passed else "failed", "output": output.rstrip() + "\n",
            "output_format": "text", "tags": [profile] if profile != "?" else [],
            "visibility": visibility,
        })

    outcomes: dict[str, str] = {}
    for v, report in results:
        if not v.outcomes:
            test(_("{target}: cannot be checked").format(target=v.target), False, report,
                 v.profile)
            continue
        table = spec_rules.table_for(v.profile)
        for o in v.outcomes:
            rule = table.rule(o.rule)
            test(f"{rule.id}: {rule_title(rule)}", o.passed, points.describe(v.profile, o),
                 v.profile)
            outcomes[o.rule] = o.status
    seeds = sorted({v.seed for v, _ in results if v.seed is not None})
    passed = sum(1 for t in tests if t["status"] == "passed")
    failed = [t["name"] for t in tests if t["status"] != "passed"]
    late = [v for v, _ in results if v.out_of_time]
    document = {
        "score": float(passed),
        "execution_time": round(seconds),
        "output": ((_("{passed} of {total} rules kept") if not late
                    else _("{passed} of {total} rules earn their point")).format(
                        passed=passed, total=len(tests))
                   + (_("; not kept: {tests}").format(tests=", ".join(failed)) if failed else "")
                   + "".join("\n" + _("Not fully checked: {why}.").format(
                       why=out_of_time_message(v)) for v in late
                             if verdict_status(v) == NOT_FULLY_CHECKED)),
        "output_format": "text",
        "visibility": visibility,
        "stdout_visibility": "hidden",
        "extra_data": {"tool": "sokoban-conformance", "random_seed": seeds[0] if seeds else None,
                       "rules": outcomes, "out_of_time": bool(late)},
        "tests": tests,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_gradescope(results: Sequence[tuple[Verdict, str]],
                     path: str | os.PathLike, **kwargs: Any) -> None:
    atomic_write(path, verdicts_to_gradescope(results, **kwargs), marker=JSON_MARKER)
