"""Profile ``soko``: seed 002's course API (``crear_grilla``, ``dimensiones``,
``hay_pared``, ``hay_objetivo``, ``hay_caja``, ``hay_jugador``,
``juego_ganado``, ``mover``) on the course's grids. After every move,
``dimensiones``, ``juego_ganado`` and the four cell observers are compared
with the spec's; ``mover`` must leave its argument unchanged, and a blocked
move return a grid equal to it."""

from __future__ import annotations

from conformance.machines import levels as lv
from conformance.machines.profile import Profile
from conformance.profiles.soko.emit import pytest_soko
from conformance.profiles.soko.machine import SokoMachine
from conformance.profiles.soko.scenarios import SCENARIOS
from conformance.profiles.soko.stepper import STEPPER
from spec import grilla as spec_grilla
from spec import rules

DOMAIN = lv.Domain("soko", "seed 002 (the grid rules)", (
    "rectangular: every row of desc has the same length (E24)",
    "only the characters # $ @ . * + and space",
    "exactly one player",
    "the player, the boxes and the goals enclosed by walls",
    "at least as many boxes as goals (crear_grilla must accept fewer, E25, "
    "but the default check does not draw them)",
), grid=True)


def view(g) -> lv.View:
    return lv.View(g.paredes, g.cajas, g.objetivos, g.jugador,
                   won=bool(g.objetivos) and spec_grilla.juego_ganado(g))


PROFILE = Profile(
    name="soko", seed="seed 002",
    operations=("crear_grilla", "dimensiones", "hay_pared", "hay_objetivo", "hay_caja",
                "hay_jugador", "juego_ganado", "mover"),
    groups=("movement", "pushes", "win", "immutability"),
    rules=rules.SOKO,
    machine=SokoMachine,
    essential=("crear_grilla", "mover"),
    domain=DOMAIN, scenarios=SCENARIOS, stepper=STEPPER, emit=pytest_soko,
    grid=True, robustness=True, flip="direction",
    default_levels="microban", play_rank=0, view=view,
)
