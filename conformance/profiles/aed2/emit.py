"""Profile aed2's counterexample as a Google Test case in the style of the
course's test file (``TEST_F(JuegoTest, ...)``; the levels as ``aed2_Nivel``
values in seed 001's coordinates, the calls, an ``EXPECT_...`` for the
observation that departs)."""

from __future__ import annotations

import re

from conformance.api import Counterexample
from conformance.machines.emitting import replay_of, test_name
from conformance.machines.replays import ACTION_CODES
from conformance.profiles.extendido.stepper import STEPPER
from spec import extendido as spec_ext
from spec.tipos import Accion

#: Our actions -> the course's PuntoCardinal (north is north in both).
CARDINAL = {Accion.NORTE: "Norte", Accion.ESTE: "Este", Accion.SUR: "Sur", Accion.OESTE: "Oeste"}
_CELL_OPS = {"hay_pared": ("hayPared", spec_ext.hay_pared),
             "hay_caja": ("hayCaja", spec_ext.hay_caja),
             "hay_deposito": ("hayDeposito", spec_ext.hay_deposito)}
_CPP_CELL = {"hayPared": "hay_pared", "hayCaja": "hay_caja", "hayDeposito": "hay_deposito"}


def _coord(p) -> str:
    """Our position as a seed-001 Coordenada literal (y grows north)."""
    return f"{{{p[0]}, {-p[1]}}}"


def _set(cells) -> str:
    cells = sorted(((x, -y) for x, y in cells))
    return "{" + ", ".join(f"{{{x}, {y}}}" for x, y in cells) + "}"


def gtest(c: Counterexample) -> str:
    scenes, codes = replay_of(c)
    lines = [f"TEST_F(JuegoTest, {test_name(c)}) {{",
             f"    // {c.message}"]
    if c.sanitizer_flags:
        lines += ["    // Shows only in a build with sanitizers (a plain build misses it, or",
                  "    // shows it only in some runs):",
                  f"    // fails when built with g++ {c.sanitizer_flags}"]
    else:
        lines.append("    // Fails in a plain build (g++ -g, no sanitizer needed).")
    lines += ["    // Found by python -m conformance (profile aed2). The level(s), drawn with",
              "    // y growing downwards (the first row is the northmost):"]
    for i, s in enumerate(scenes, 1):
        lines += [f"    //   n{i}:"] + [f"    //     {row}" for row in s.rows()]
    for i, s in enumerate(scenes, 1):
        lines += [f"    aed2_Nivel n{i} = {{",
                  f"        {_set(s.walls)},  // paredes",
                  f"        {_set(s.goals)},  // depositos",
                  f"        {_set(s.boxes)},  // cajas",
                  f"        {_coord(s.player)},  // posicionInicial",
                  f"        {s.bombs}  // cantidadBombas",
                  "    };"]
    lines.append(f"    aed2_Juego j({{{', '.join(f'n{i}' for i in range(1, len(scenes) + 1))}}});")
    last = len(codes) - 1
    mover_result = c.operation == "mover"
    j = None
    for k, (code, before, j) in enumerate(STEPPER.play(scenes, codes)):
        if code == "b":
            lines.append("    j.tirarBomba();")
        elif code == "z":
            lines.append("    j.deshacer();")
        else:
            call = f"j.mover({CARDINAL[ACTION_CODES[code]]})"
            if k == last and mover_result:
                done = spec_ext.indice_nivel(j) != spec_ext.indice_nivel(before) or spec_ext.gano(j)
                lines.append(f"    EXPECT_{'TRUE' if done else 'FALSE'}({call});")
            else:
                lines.append(f"    {call};")
    if j is None:
        j = STEPPER.start(scenes)
    if not mover_result:
        lines += ["    " + e for e in _gtest_expectations(c, j)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _gtest_expectations(c: Counterexample, j) -> list[str]:
    op = c.operation
    m = re.match(r"(hay_pared|hay_caja|hay_deposito)\(j, \((-?\d+), (-?\d+)\)\)", op)
    if m:
        p = (int(m.group(2)), int(m.group(3)))
        method, f = _CELL_OPS[m.group(1)]
        return [f"EXPECT_{'TRUE' if f(j, p) else 'FALSE'}(j.{method}({_coord(p)}));"]
    m = re.match(r"(hayPared|hayCaja|hayDeposito)\(\{(-?\d+), (-?\d+)\}\)", op)    # a crash
    if m:
        p = (int(m.group(2)), -int(m.group(3)))
        method, f = _CELL_OPS[_CPP_CELL[m.group(1)]]
        return [f"EXPECT_{'TRUE' if f(j, p) else 'FALSE'}(j.{method}({_coord(p)}));"]
    m = re.match(r"puede_mover\(j, (\w+)\)|sePuedeMover\((\w+)\)", op)
    if m:
        a = Accion[m.group(1)] if m.group(1) else {v: k for k, v in CARDINAL.items()}[m.group(2)]
        ok = spec_ext.puede_mover(j, a)
        return [f"EXPECT_{'TRUE' if ok else 'FALSE'}(j.sePuedeMover({CARDINAL[a]}));"]
    x, y = spec_ext.persona(j)
    position = f"EXPECT_EQ(j.posicionActual(), Coordenada({x}, {-y}));"
    bombs = f"EXPECT_EQ(j.cantidadBombas(), {spec_ext.bombas(j)}u);"
    if op.startswith(("persona", "posicionActual")):
        return [position]
    if op.startswith(("bombas", "cantidadBombas")):
        return [bombs]
    return [position, bombs]
