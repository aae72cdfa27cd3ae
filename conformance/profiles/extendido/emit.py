"""Profile extendido's counterexample as a pytest function calling the
target's own operations (loaded by its name, as the conformance command did)."""

from __future__ import annotations

import re

from conformance.api import Counterexample
from conformance.machines.emitting import nivel_literal, python_head, replay_of
from conformance.machines.replays import ACTION_CODES
from conformance.profiles.extendido.stepper import STEPPER
from spec import extendido as spec_ext

_CELL_OPS = {"hay_pared": spec_ext.hay_pared, "hay_caja": spec_ext.hay_caja,
             "hay_deposito": spec_ext.hay_deposito}


def pytest_extendido(c: Counterexample) -> str:
    """A pytest function calling an ``extendido`` target's own operations."""
    scenes, codes = replay_of(c)
    lines, reflect = python_head(c)
    niveles = ", ".join(nivel_literal(reflect(s.nivel_extendido())) for s in scenes)
    lines.append(f"    j = target.nuevo_juego([{niveles}])")
    j = STEPPER.start(scenes)
    for code, _, j in STEPPER.play(scenes, codes):
        if code == "b":
            lines.append("    j = target.tirar_bomba(j)")
        elif code == "z":
            lines.append("    j = target.deshacer(j)")
        else:
            lines.append(f"    j = target.mover(j, Accion.{ACTION_CODES[code].name})")
    m = re.match(r"(hay_pared|hay_caja|hay_deposito)\(j, \((-?\d+), (-?\d+)\)\)", c.operation)
    if m:
        p = (int(m.group(2)), int(m.group(3)))
        lines.append(f"    assert target.{m.group(1)}(j, {reflect(p)!r}) is "
                     f"{_CELL_OPS[m.group(1)](j, p)}")
    else:
        for op in ("indice_nivel", "persona", "bombas", "gano"):
            lines.append(f"    assert target.{op}(j) == {reflect(getattr(spec_ext, op)(j))!r}")
        for a in ACTION_CODES.values():
            lines.append(f"    assert target.puede_mover(j, Accion.{a.name}) is "
                         f"{spec_ext.puede_mover(j, a)}")
    return "\n".join(lines) + "\n"


