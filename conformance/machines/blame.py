"""Which rule of the seed a departure breaks, read off the spec.

A departure is an operation whose answer (or effect) differs from the
spec's after some actions. :func:`blame` plays those actions through the
spec with a trace on (:func:`spec.rules.tracing`), then asks the profile's
rule table which case produced what the operation should have shown:
``hay_caja`` after a push is ``soko.push``, after a refused push
``soko.push-blocked``. Observers computed by a case of their own
(``puede_mover``, ``gano``, ``juego_ganado``, ``completado``) are evaluated
once more, under the trace, for the very call that departed.

The engine calls it for every departure (``Counterexample.rule``); it works
on a recorded counterexample too (:func:`replay_parts` reads its levels and
actions back; ``conformance.profiles.blame_counterexample``), so a replay, a
summary row or a report can be explained after the fact.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import TYPE_CHECKING, Sequence

from conformance.machines import levels as lv
from spec import rules
from spec.tipos import Accion

if TYPE_CHECKING:       # (the profile's module imports this one)
    from conformance.machines.profile import Profile


def play(profile: Profile, scenes: Sequence[lv.Scene], codes: str,
         trace: rules.Trace | None = None, observe: bool = False):
    """The spec's state after ``codes`` (moves ``udlr``, ``b`` a bomb, ``z``
    an undo) on ``scenes``, stepped by the profile's stepper (which skips
    what a check would not play: a move ``puede_mover`` refuses, a bomb
    with none left), with every case it took recorded into ``trace``;
    returns ``(state, trace)``. ``observe``: after the start and every
    action, also evaluate the observers that have cases of their own
    (``completado``, ``gano``, ``puede_mover``, ``juego_ganado``), as a
    check does."""
    stepper = profile.stepper
    trace = rules.Trace() if trace is None else trace
    with rules.tracing(trace):
        state = stepper.start(scenes)
        if observe:
            stepper.observe(state)
        for code in codes:
            after = stepper.step(state, code)
            state = state if after is None else after
            if observe:
                stepper.observe(state)
    return state, trace


def _direction(operation: str) -> Accion | None:
    """The direction argument of ``puede_mover(j, ARRIBA)`` / ``sePuedeMover(Norte)``."""
    m = re.search(r"\b(ARRIBA|ABAJO|IZQUIERDA|DERECHA|NORTE|SUR|ESTE|OESTE)\b",
                  operation.upper())
    return Accion[m.group(1)] if m else None


def blame(profile: Profile, scenes: Sequence[lv.Scene], codes: str, operation: str,
          value: str | None = None, trace: rules.Trace | None = None) -> rules.Rule | None:
    """The rule ``operation``'s departure after ``codes`` breaks (``value``:
    the value it showed, when the operation's name does not say: a grid
    ``mover`` changed, ``mover``'s answer in aed2). ``trace``: the trace of
    exactly this play when the caller already has it. None when the table
    has no rule for the case (a bug of the table)."""
    table = profile.rules
    if trace is None:
        state, trace = play(profile, scenes, codes)
    else:
        state = None
    value = value or table.value_of(operation)
    if value == rules.RESPUESTA:        # aed2's mover answer: the engine computes it
        trace = rules.Trace(trace)
        trace.add(rules.MOVER_COMPLETA)
    if value in (rules.GANADO, rules.PUEDE_MOVER):
        if state is None:
            state, _ = play(profile, scenes, codes)
        trace = rules.Trace(trace)
        with rules.tracing(trace):
            if value == rules.GANADO:
                profile.stepper.won(state)
            elif (a := _direction(operation)) is not None:
                profile.stepper.can_move(state, a)
    return table.blame(operation, trace, value)


def replay_parts(replay: str) -> tuple[str, list[lv.Scene], str] | None:
    """``(profile, scenes, codes)`` from a replay command line or its JSON."""
    text = replay.strip()
    if not text.startswith("{"):
        try:
            words = shlex.split(text)
            text = words[words.index("--replay") + 1]
        except (ValueError, IndexError):
            return None
    try:
        data = json.loads(text)
        return data["profile"], [lv.from_data(d) for d in data["levels"]], data.get("actions", "")
    except (ValueError, KeyError, TypeError):
        return None
