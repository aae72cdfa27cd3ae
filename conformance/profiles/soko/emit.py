"""Profile soko's counterexample as a test in the style of seed 002's course
tests (``desc = [...]``, ``import soko``)."""

from __future__ import annotations

import re

from conformance.api import Counterexample
from conformance.machines import levels as lv
from conformance.machines.emitting import replay_of, test_name
from conformance.profiles.soko.stepper import STEPPER
from spec import grilla as spec_grilla


def pytest_soko(c: Counterexample) -> str:
    """A course-style test of seed 002's soko module."""
    scenes, codes = replay_of(c)
    desc = list(scenes[0].desc or scenes[0].rows())
    lines = ["import soko", "", "", f"def test_{test_name(c)}():",
             f"    # {c.message}", f"    desc = {desc!r}", "    grilla = soko.crear_grilla(desc)"]
    g = STEPPER.start(scenes)
    for code, _, g in STEPPER.play(scenes, codes):
        lines.append(f"    grilla = soko.mover(grilla, {lv.STEP[code]!r})")
    m = re.match(r"(hay_pared|hay_objetivo|hay_caja|hay_jugador)\(grilla, (\d+), (\d+)\)",
                 c.operation)
    if m:
        op, col, row = m.group(1), int(m.group(2)), int(m.group(3))
        want = getattr(spec_grilla, op)(g, col, row)
        lines.append(f"    assert {'' if want else 'not '}soko.{op}(grilla, {col}, {row})")
    elif c.operation.startswith("dimensiones"):
        lines.append(f"    assert soko.dimensiones(grilla) == {spec_grilla.dimensiones(g)!r}")
    else:
        won = spec_grilla.juego_ganado(g)
        lines.append(f"    assert {'' if won else 'not '}soko.juego_ganado(grilla)")
        cols, rows = spec_grilla.dimensiones(g)
        for row in range(rows):
            for col in range(cols):
                if spec_grilla.hay_caja(g, col, row):
                    lines.append(f"    assert soko.hay_caja(grilla, {col}, {row})")
    return "\n".join(lines) + "\n"
