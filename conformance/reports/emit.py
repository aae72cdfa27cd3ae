"""A shrunk counterexample as a test in the student's own format.

* ``aed2``: a Google Test case in the style of the course's test file
  (``TEST_F(JuegoTest, ...)``; the levels as ``aed2_Nivel`` values in seed
  001's coordinates, the calls, an ``EXPECT_...`` for the observation that
  departs);
* ``soko``: a pytest function in the style of seed 002's course tests
  (``desc = [...]``, ``import soko``);
* ``tad`` and ``extendido``: pytest functions calling the target's own
  operations (loaded by its name, as the conformance command did).

Every expectation is computed here from the spec by replaying the
counterexample's recorded actions (its ``--replay`` JSON), never copied from
what the target said. :func:`emit_for` picks the format by profile.
"""

from __future__ import annotations

import re
import shlex

from conformance.machines import levels as lv
from conformance.api import Counterexample
from conformance.machines.replays import ACTION_CODES, parse_replay
from conformance.checking.targets import _flip
from spec import extendido as spec_ext
from spec import grilla as spec_grilla
from spec import juego as spec_juego
from spec.tipos import Accion

#: Our actions -> the course's PuntoCardinal (north is north in both).
CARDINAL = {Accion.NORTE: "Norte", Accion.ESTE: "Este", Accion.SUR: "Sur", Accion.OESTE: "Oeste"}
_CELL_OPS = {"hay_pared": ("hayPared", spec_ext.hay_pared),
             "hay_caja": ("hayCaja", spec_ext.hay_caja),
             "hay_deposito": ("hayDeposito", spec_ext.hay_deposito)}
_CPP_CELL = {"hayPared": "hay_pared", "hayCaja": "hay_caja", "hayDeposito": "hay_deposito"}


def replay_of(c: Counterexample) -> tuple[list[lv.Scene], str]:
    """The scenes and action codes recorded in ``c.replay``."""
    words = shlex.split(c.replay)
    if "--replay" not in words:
        raise ValueError("the counterexample has no replay command")
    _, scenes, codes = parse_replay(words[words.index("--replay") + 1])
    return scenes, codes


def emit_for(c: Counterexample) -> str:
    """The test for ``c`` in its profile's format ("" when none can be made)."""
    try:
        if c.profile == "aed2":
            return gtest(c)
        if c.profile == "soko":
            return pytest_soko(c)
        if c.profile in ("tad", "extendido"):
            return pytest_python(c)
    except ValueError:
        return ""
    return ""


def _played(scenes, codes):
    """``(code, juego before, juego after)`` for each recorded action of the
    extended game, played by the spec."""
    j = spec_ext.nuevo_juego([s.nivel_extendido() for s in scenes])
    for code in codes:
        before = j
        if code == "b":
            j = spec_ext.tirar_bomba(j)
        elif code == "z":
            j = spec_ext.deshacer(j)
        else:
            j = spec_ext.mover(j, ACTION_CODES[code])
        yield code, before, j


def _name(c: Counterexample) -> str:
    op = re.sub(r"\W+", "_", c.operation.split("(")[0]).strip("_").lower() or "step"
    # a memory error reported beside a plain departure: distinct names, so
    # both tests can be pasted into one file
    kind = "_memory_error" if c.sanitizer_flags else ""
    return f"conformance_{op}{kind}_after_{len(replay_of(c)[1])}_actions"


# --------------------------------------------------------------- Google Test

def _coord(p) -> str:
    """Our position as a seed-001 Coordenada literal (y grows north)."""
    return f"{{{p[0]}, {-p[1]}}}"


def _set(cells) -> str:
    cells = sorted(((x, -y) for x, y in cells))
    return "{" + ", ".join(f"{{{x}, {y}}}" for x, y in cells) + "}"


def gtest(c: Counterexample) -> str:
    scenes, codes = replay_of(c)
    lines = [f"TEST_F(JuegoTest, {_name(c)}) {{",
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
    for k, (code, before, j) in enumerate(_played(scenes, codes)):
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
        j = spec_ext.nuevo_juego([s.nivel_extendido() for s in scenes])
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


# -------------------------------------------------------------------- pytest

def pytest_soko(c: Counterexample) -> str:
    """A course-style test of seed 002's soko module."""
    scenes, codes = replay_of(c)
    desc = list(scenes[0].desc or scenes[0].rows())
    lines = ["import soko", "", "", f"def test_{_name(c)}():",
             f"    # {c.message}", f"    desc = {desc!r}", "    grilla = soko.crear_grilla(desc)"]
    g = spec_grilla.crear_grilla(desc)
    for code in codes:
        d = lv.STEP[code]
        lines.append(f"    grilla = soko.mover(grilla, {d!r})")
        g = spec_grilla.mover(g, d)
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


def pytest_python(c: Counterexample) -> str:
    """A pytest function for the ``tad`` or ``extendido`` profile, calling
    the target loaded by the name the conformance command was given."""
    scenes, codes = replay_of(c)
    target = shlex.split(c.replay)[3]
    # A target checked with --directions seed001 reads positions with y growing north.
    flip = _flip if "seed001" in shlex.split(c.replay) else (lambda v: v)
    lines = ["from conformance.checking.targets import load, resolve", "from spec.tipos import Accion",
             "", f"target = load(resolve({target!r}))", "", "",
             f"def test_{_name(c)}():", f"    # {c.message}"]
    if c.profile == "tad":
        lines.append(f"    nivel = {_nivel_literal(flip(scenes[0].nivel()))}")
        lines.append("    j = target.iniciar(nivel)")
        j = spec_juego.iniciar(scenes[0].nivel())
        for code in codes:
            a = ACTION_CODES[code]
            lines.append(f"    j = target.step(j, Accion.{a.name})")
            j = spec_juego.step(j, a)
        e = spec_juego.estado(j)
        lines.append(f"    assert target.estado(j) == {_nivel_literal(flip(e))}")
        lines.append(f"    assert target.completado(j) is {spec_juego.completado(j)}")
        return "\n".join(lines) + "\n"
    niveles = ", ".join(_nivel_literal(flip(s.nivel_extendido())) for s in scenes)
    lines.append(f"    j = target.nuevo_juego([{niveles}])")
    j = spec_ext.nuevo_juego([s.nivel_extendido() for s in scenes])
    for code, _, j in _played(scenes, codes):
        if code == "b":
            lines.append("    j = target.tirar_bomba(j)")
        elif code == "z":
            lines.append("    j = target.deshacer(j)")
        else:
            lines.append(f"    j = target.mover(j, Accion.{ACTION_CODES[code].name})")
    m = re.match(r"(hay_pared|hay_caja|hay_deposito)\(j, \((-?\d+), (-?\d+)\)\)", c.operation)
    if m:
        p = (int(m.group(2)), int(m.group(3)))
        lines.append(f"    assert target.{m.group(1)}(j, {flip(p)!r}) is "
                     f"{_CELL_OPS[m.group(1)][1](j, p)}")
    else:
        for op in ("indice_nivel", "persona", "bombas", "gano"):
            lines.append(f"    assert target.{op}(j) == {flip(getattr(spec_ext, op)(j))!r}")
        for a in ACTION_CODES.values():
            lines.append(f"    assert target.puede_mover(j, Accion.{a.name}) is "
                         f"{spec_ext.puede_mover(j, a)}")
    return "\n".join(lines) + "\n"


def _nivel_literal(n: dict) -> str:
    parts = []
    for key, value in n.items():
        if isinstance(value, frozenset):
            inner = ", ".join(repr(p) for p in sorted(value))
            parts.append(f"{key!r}: frozenset({{{inner}}})" if value else f"{key!r}: frozenset()")
        else:
            parts.append(f"{key!r}: {value!r}")
    return "{" + ", ".join(parts) + "}"
