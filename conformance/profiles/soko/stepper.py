"""Profile soko's spec stepped by an action letter (seed 002's grid)."""

from __future__ import annotations

from conformance.machines import levels as lv
from conformance.machines.profile import Stepper
from spec import grilla as spec_grilla


def _step(g, code: str):
    d = lv.STEP.get(code)
    return None if d is None else spec_grilla.mover(g, d)


STEPPER = Stepper(
    start=lambda scenes: spec_grilla.crear_grilla(list(scenes[0].desc)),
    step=_step,
    observe=spec_grilla.juego_ganado,
    won=spec_grilla.juego_ganado,
)
