"""Verdicts on disk: JSON and JUnit XML (for CI systems), written atomically."""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterable, Sequence

from conformance.api import Verdict

FORMAT_VERSION = 1


def atomic_write(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename, so a
    reader never sees half a file and a failure leaves the old one intact.
    The file gets the permissions the user's umask gives a new file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        umask = os.umask(0o022)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def verdict_status(v: Verdict) -> str:
    """``"conforms"``, ``"does not conform"`` or ``"bad target"``."""
    if v.error or v.missing:
        return "bad target"
    return "conforms" if v.conforms else "does not conform"


def verdict_message(v: Verdict) -> str:
    """One line: why it does not conform (empty when it conforms)."""
    if v.missing:
        return f"missing operations: {', '.join(v.missing)}"
    if v.error:
        lines = [line.strip() for line in v.error.strip().splitlines()]
        return " ".join(lines[:2]) or "bad target"      # the closest profile's lack
    if v.counterexample is not None:
        return v.counterexample.message
    return ""


def verdict_to_dict(v: Verdict) -> dict[str, Any]:
    data = dataclasses.asdict(v)
    data["status"] = verdict_status(v)
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
    atomic_write(path, verdicts_to_json(verdicts))


def verdicts_to_junit(verdicts: Sequence[Verdict], reports: Iterable[str] | None = None) -> str:
    """JUnit XML: one ``testsuite``, one ``testcase`` per verdict (classname
    ``sokoban.PROFILE``, name the target); a non-conforming target is a
    ``failure`` with the counterexample's report, a bad target an ``error``.
    ``reports`` (same order as ``verdicts``) are the human reports to attach."""
    reports = list(reports) if reports is not None else [""] * len(verdicts)
    failures = sum(1 for v in verdicts if verdict_status(v) == "does not conform")
    errors = sum(1 for v in verdicts if verdict_status(v) == "bad target")
    suites = ET.Element("testsuites", name="sokoban-conformance", tests=str(len(verdicts)),
                        failures=str(failures), errors=str(errors))
    suite = ET.SubElement(suites, "testsuite", name="sokoban-conformance",
                          tests=str(len(verdicts)), failures=str(failures), errors=str(errors),
                          skipped="0", time=f"{sum(v.seconds for v in verdicts):.3f}")
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
        props = ET.SubElement(case, "properties")
        if v.seed is not None:
            ET.SubElement(props, "property", name="seed", value=str(v.seed))
        for key, value in sorted(v.stats.items()):
            ET.SubElement(props, "property", name=key, value=str(value))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def write_junit(verdicts: Sequence[Verdict], path: str | os.PathLike,
                reports: Iterable[str] | None = None) -> None:
    atomic_write(path, verdicts_to_junit(verdicts, reports))
