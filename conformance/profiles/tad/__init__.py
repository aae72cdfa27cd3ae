"""Profile ``tad``: seed 000's TAD Juego (``iniciar``, ``step``, ``estado``,
``completado``) on the infinite grid. After every action, ``estado`` (all
four sets) and ``completado`` are compared with the spec's."""

from __future__ import annotations

from conformance.machines import levels as lv
from conformance.machines.profile import Profile
from conformance.profiles.tad.emit import pytest_tad
from conformance.profiles.tad.machine import TadMachine
from conformance.profiles.tad.scenarios import SCENARIOS
from conformance.profiles.tad.stepper import STEPPER
from spec import juego as spec_juego
from spec import rules
from spec.tipos import CAJAS, DEPOSITOS, PAREDES, PERSONAJE

DOMAIN = lv.Domain("tad", "seed 000 (nivelVálido?, errata E1, E2)", (
    "exactly one character, not on a box nor on a wall",
    "as many boxes as depots (#cajas = #depósitos, E1)",
    "no wall shares a cell with a box or a depot (E2)",
    "any ints, negative too, on the infinite grid (E4); not necessarily enclosed",
))


def view(j) -> lv.View:
    e = spec_juego.estado(j)
    return lv.View(e[PAREDES], e[CAJAS], e[DEPOSITOS], next(iter(e[PERSONAJE])),
                   won=spec_juego.completado(j))


PROFILE = Profile(
    name="tad", seed="seed 000",
    operations=("iniciar", "step", "estado", "completado"),
    groups=("movement", "pushes", "win"),
    rules=rules.TAD, machine=TadMachine,
    essential=("iniciar", "step", "estado"),
    opaque=("iniciar", "step"),
    domain=DOMAIN, scenarios=SCENARIOS, stepper=STEPPER, emit=pytest_tad,
    default_levels="tutorial", play_rank=2, view=view,
)
