"""Profile soko's spec stepped by an action letter (seed 002's grid)."""

from __future__ import annotations

from conformance.machines import levels as lv
from conformance.machines.boards import Board, draw
from conformance.machines.profile import Stepper
from spec import grilla as spec_grilla


def _step(g, code: str):
    d = lv.STEP.get(code)
    return None if d is None else spec_grilla.mover(g, d)


def scene(g: spec_grilla.Grilla) -> lv.Scene:
    """The grid ``g`` as the rows of a fresh ``crear_grilla``."""
    board = Board(g.paredes, g.cajas, g.objetivos, frozenset({g.jugador}))
    return lv.from_rows(draw(board, (0, 0, g.columnas - 1, g.filas - 1)), soko=True,
                        source="a state of a play")


STEPPER = Stepper(
    start=lambda scenes: spec_grilla.crear_grilla(list(scenes[0].desc)),
    step=_step,
    observe=spec_grilla.juego_ganado,
    won=spec_grilla.juego_ganado,
    scene=scene,
)
