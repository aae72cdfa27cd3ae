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
on a recorded counterexample too (:func:`blame_counterexample`), so a
replay, a summary row or a report can be explained after the fact.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Sequence

from conformance.machines import levels as lv
from spec import extendido as spec_ext
from spec import grilla as spec_grilla
from spec import juego as spec_juego
from spec import rules
from spec.tipos import Accion
from levels.lurd import LETTERS

#: Replay letter -> action (``levels.lurd``'s letters).
_CODE = {letter: a for a, letter in LETTERS.items()}


def _observe(profile: str, state) -> None:
    """Evaluate the observers that have cases of their own (as a check
    compares them after every action)."""
    if profile == "tad":
        spec_juego.completado(state)
    elif profile == "soko":
        spec_grilla.juego_ganado(state)
    else:
        spec_ext.gano(state)
        for a in _CODE.values():
            spec_ext.puede_mover(state, a)


def play(profile: str, scenes: Sequence[lv.Scene], codes: str,
         trace: rules.Trace | None = None, observe: bool = False):
    """The spec's state after ``codes`` (moves ``udlr``, ``b`` a bomb, ``z``
    an undo) on ``scenes``, with every case it took recorded into
    ``trace``; returns ``(state, trace)``. As the engine does, ``extendido``
    skips a move ``puede_mover`` refuses and a bomb with none left.
    ``observe``: after the start and every action, also evaluate the
    observers that have cases of their own (``completado``, ``gano``,
    ``puede_mover``, ``juego_ganado``), as a check does. In ``aed2`` every
    move made also takes the case of mover's answer (the check compares it;
    the engine computes it, not the spec)."""
    trace = rules.Trace() if trace is None else trace
    with rules.tracing(trace):
        if profile == "tad":
            state = spec_juego.iniciar(scenes[0].nivel())
        elif profile == "soko":
            state = spec_grilla.crear_grilla(list(scenes[0].desc))
        else:
            state = spec_ext.nuevo_juego([s.nivel_extendido() for s in scenes])
        if observe:
            _observe(profile, state)
        for code in codes:
            if profile == "tad":
                state = spec_juego.step(state, _CODE[code])
            elif profile == "soko":
                state = spec_grilla.mover(state, lv.STEP[code])
            else:
                if code == "b":
                    if spec_ext.bombas(state) > 0:
                        state = spec_ext.tirar_bomba(state)
                elif code == "z":
                    state = spec_ext.deshacer(state)
                elif spec_ext.puede_mover(state, _CODE[code]):
                    state = spec_ext.mover(state, _CODE[code])
                    if profile == "aed2":   # its answer is compared too (the engine computes it)
                        trace.add(rules.MOVER_COMPLETA)
            if observe:
                _observe(profile, state)
    return state, trace


def _direction(operation: str) -> Accion | None:
    """The direction argument of ``puede_mover(j, ARRIBA)`` / ``sePuedeMover(Norte)``."""
    m = re.search(r"\b(ARRIBA|ABAJO|IZQUIERDA|DERECHA|NORTE|SUR|ESTE|OESTE)\b",
                  operation.upper())
    return Accion[m.group(1)] if m else None


def blame(profile: str, scenes: Sequence[lv.Scene], codes: str, operation: str,
          value: str | None = None, trace: rules.Trace | None = None) -> rules.Rule | None:
    """The rule ``operation``'s departure after ``codes`` breaks (``value``:
    the value it showed, when the operation's name does not say: a grid
    ``mover`` changed, ``mover``'s answer in aed2). ``trace``: the trace of
    exactly this play when the caller already has it. None when the table
    has no rule for the case (a bug of the table)."""
    table = rules.table_for(profile)
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
                {"tad": spec_juego.completado, "soko": spec_grilla.juego_ganado}.get(
                    profile, spec_ext.gano)(state)
            elif (a := _direction(operation)) is not None:
                spec_ext.puede_mover(state, a)
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


def blame_counterexample(c, value: str | None = None) -> rules.Rule | None:
    """:func:`blame` for a recorded :class:`~conformance.api.Counterexample`
    (its replay command holds the levels and the actions)."""
    parts = replay_parts(c.replay)
    if parts is None:
        return None
    profile, scenes, codes = parts
    return blame(profile, scenes, codes, c.operation, value)
