"""Profile tad's counterexample as a pytest function calling the target's
own operations (loaded by its name, as the conformance command did)."""

from __future__ import annotations

from conformance.api import Counterexample
from conformance.machines.emitting import nivel_literal, python_head, replay_of
from conformance.machines.replays import ACTION_CODES
from conformance.profiles.tad.stepper import STEPPER
from spec import juego as spec_juego


def pytest_tad(c: Counterexample) -> str:
    """A pytest function calling a ``tad`` target's own operations."""
    scenes, codes = replay_of(c)
    lines, reflect = python_head(c)
    lines.append(f"    nivel = {nivel_literal(reflect(scenes[0].nivel()))}")
    lines.append("    j = target.iniciar(nivel)")
    j = STEPPER.start(scenes)
    for code, _, j in STEPPER.play(scenes, codes):
        lines.append(f"    j = target.step(j, Accion.{ACTION_CODES[code].name})")
    e = spec_juego.estado(j)
    lines.append(f"    assert target.estado(j) == {nivel_literal(reflect(e))}")
    lines.append(f"    assert target.completado(j) is {spec_juego.completado(j)}")
    return "\n".join(lines) + "\n"
