"""Profile extendido's spec stepped by an action letter (seed 001's game
over a sequence of levels, :mod:`spec.extendido`), as a check plays it: a
move ``puede_mover`` refuses and a bomb with none left are not played."""

from __future__ import annotations

from conformance.machines import levels as lv
from conformance.machines.profile import Stepper
from conformance.machines.replays import ACTION_CODES
from spec import extendido as spec_ext


def step(j, code: str):
    """The game after ``code``; None when a check would not play it."""
    if code == "b":
        return spec_ext.tirar_bomba(j) if spec_ext.bombas(j) > 0 else None
    if code == "z":
        return spec_ext.deshacer(j)
    a = ACTION_CODES[code]
    return spec_ext.mover(j, a) if spec_ext.puede_mover(j, a) else None


def observe(j) -> None:
    """The observers with cases of their own: gano, puede_mover each way."""
    spec_ext.gano(j)
    for a in ACTION_CODES.values():
        spec_ext.puede_mover(j, a)


def start(scenes):
    return spec_ext.nuevo_juego([s.nivel_extendido() for s in scenes])


def scene(j) -> lv.Scene:
    """The level ``j`` is playing, as it stands, as a fresh one-level game."""
    s = j.soko
    return lv.Scene(s.paredes, s.cajas, s.depositos, s.persona, bombs=s.bombas,
                    source="a state of a play")


STEPPER = Stepper(start=start, step=step, observe=observe, won=spec_ext.gano,
                  can_move=spec_ext.puede_mover, scene=scene,
                  level=spec_ext.indice_nivel)
