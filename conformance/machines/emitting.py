"""What every profile's emitter shares: a shrunk counterexample as a test in
the student's own format. Each profile writes its own format (its ``emit``:
a Google Test case for ``aed2``, a course-style pytest function for
``soko``, pytest functions calling the target's operations for ``tad`` and
``extendido``); every expectation is computed from the spec, stepped by the
profile's stepper over the counterexample's recorded actions (its
``--replay`` JSON), never copied from what the target said.
"""

from __future__ import annotations

import re
import shlex

from conformance.api import Counterexample
from conformance.machines import levels as lv
from conformance.machines.directions import flip
from conformance.machines.replays import parse_replay


def replay_of(c: Counterexample) -> tuple[list[lv.Scene], str]:
    """The scenes and action codes recorded in ``c.replay``."""
    words = shlex.split(c.replay)
    if "--replay" not in words:
        raise ValueError("the counterexample has no replay command")
    _, scenes, codes = parse_replay(words[words.index("--replay") + 1])
    return scenes, codes


def test_name(c: Counterexample) -> str:
    op = re.sub(r"\W+", "_", c.operation.split("(")[0]).strip("_").lower() or "step"
    # a memory error reported beside a plain departure: distinct names, so
    # both tests can be pasted into one file
    kind = "_memory_error" if c.sanitizer_flags else ""
    return f"conformance_{op}{kind}_after_{len(replay_of(c)[1])}_actions"


def python_head(c: Counterexample) -> tuple[list[str], object]:
    """The first lines of a pytest function calling the target's own
    operations (loaded by the name the conformance command was given), and
    how its values are written: reflected when the target was checked with
    ``--directions seed001`` (y growing north)."""
    target = shlex.split(c.replay)[3]
    reflect = flip if "seed001" in shlex.split(c.replay) else (lambda v: v)
    lines = ["from conformance.targets import load, resolve", "from spec.tipos import Accion",
             "", f"target = load(resolve({target!r}))", "", "",
             f"def test_{test_name(c)}():", f"    # {c.message}"]
    return lines, reflect


def nivel_literal(n: dict) -> str:
    parts = []
    for key, value in n.items():
        if isinstance(value, frozenset):
            inner = ", ".join(repr(p) for p in sorted(value))
            parts.append(f"{key!r}: frozenset({{{inner}}})" if value else f"{key!r}: frozenset()")
        else:
            parts.append(f"{key!r}: {value!r}")
    return "{" + ", ".join(parts) + "}"
