"""Profile tad's spec stepped by an action letter (seed 000's TAD Juego)."""

from __future__ import annotations

from conformance.machines import levels as lv
from conformance.machines.profile import Stepper
from conformance.machines.replays import ACTION_CODES
from spec import juego as spec_juego
from spec.tipos import CAJAS, DEPOSITOS, PAREDES, PERSONAJE


def _step(j, code: str):
    a = ACTION_CODES.get(code)
    return None if a is None else spec_juego.step(j, a)


def scene(j: spec_juego.Juego) -> lv.Scene:
    """The game ``j`` as a fresh level (its own position on the grid)."""
    e = spec_juego.estado(j)
    (player,) = e[PERSONAJE]
    return lv.Scene(e[PAREDES], e[CAJAS], e[DEPOSITOS], player, source="a state of a play")


STEPPER = Stepper(
    start=lambda scenes: spec_juego.iniciar(scenes[0].nivel()),
    step=_step,
    observe=spec_juego.completado,
    won=spec_juego.completado,
    scene=scene,
)
