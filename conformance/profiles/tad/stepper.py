"""Profile tad's spec stepped by an action letter (seed 000's TAD Juego)."""

from __future__ import annotations

from conformance.machines.profile import Stepper
from conformance.machines.replays import ACTION_CODES
from spec import juego as spec_juego


def _step(j, code: str):
    a = ACTION_CODES.get(code)
    return None if a is None else spec_juego.step(j, a)


STEPPER = Stepper(
    start=lambda scenes: spec_juego.iniciar(scenes[0].nivel()),
    step=_step,
    observe=spec_juego.completado,
    won=spec_juego.completado,
)
