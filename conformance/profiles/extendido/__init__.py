"""Profile ``extendido``: seed 001's game over a sequence of levels
(``nuevo_juego``, ``mover``, ``puede_mover``, ``tirar_bomba``, ``deshacer``
and the observers of the current level). After every action,
``indice_nivel``, ``persona``, ``bombas``, ``gano``, ``puede_mover`` in the
four directions, and ``hay_pared`` / ``hay_caja`` / ``hay_deposito`` on the
cells that matter are compared with the spec's."""

from __future__ import annotations

from conformance.machines import levels as lv
from conformance.machines.profile import Profile
from conformance.profiles.extendido.emit import pytest_extendido
from conformance.profiles.extendido.machine import ExtendidoMachine
from conformance.profiles.extendido.scenarios import SCENARIOS
from conformance.profiles.extendido.stepper import STEPPER
from spec import extendido as spec_ext
from spec import rules

DOMAIN = lv.Domain("extendido", "seed 001 (its levels are seed 000's, plus bombs)", (
    "every level of the sequence valid as for tad (E12), one to three levels",
    "a natural number of bombs per level",
    "any ints, negative too, on the infinite grid (E4); not necessarily enclosed",
), bombs=True)

OPERATIONS = (
    "nuevo_juego", "mover", "puede_mover", "tirar_bomba", "deshacer",
    "persona", "hay_pared", "hay_deposito", "hay_caja", "bombas", "gano",
    "indice_nivel",
)
GROUPS = ("movement", "pushes", "win", "undo", "bombs", "levels")


def view(j) -> lv.View:
    return lv.View(spec_ext.paredes(j), spec_ext.cajas(j), spec_ext.depositos(j),
                   spec_ext.persona(j), spec_ext.bombas(j), spec_ext.indice_nivel(j),
                   spec_ext.gano(j))


PROFILE = Profile(
    name="extendido", seed="seed 001",
    operations=OPERATIONS, groups=GROUPS,
    rules=rules.EXTENDIDO, machine=ExtendidoMachine,
    essential=("nuevo_juego", "mover"),
    opaque=("nuevo_juego", "mover", "tirar_bomba", "deshacer"),
    # the undo group undoes bombs too
    modifiers={"tirar_bomba": ("bombs", "undo"), "deshacer": ("undo",)},
    domain=DOMAIN, scenarios=SCENARIOS, stepper=STEPPER, emit=pytest_extendido,
    sequences=True, default_levels="tutorial", play_rank=1, view=view,
)
