"""Where a check's observers look after an action (``look_at`` and
``step_cells``, see docs/conformance.md, "Where the observers look"):
never fewer cells than the spec says the action changed, and after an undo
every cell where another state of the level differs; so a departure is
seen right after the action that made it, and blamed on that action's
rule."""

from __future__ import annotations

from hypothesis import given, strategies as st

from conformance import profiles
from conformance.machines import levels as lv
from conformance.profiles.extendido.machine import ExtendidoMachine
from conformance.profiles.soko.machine import SokoMachine
from spec import extendido as spec_ext
from spec import grilla as spec_grilla

EXTENDIDO = profiles.get("extendido")
SOKO = profiles.get("soko")


def _machine(cls, scenes):
    """A machine of ``cls`` playing ``scenes``, as far as ``step_cells`` needs."""
    m = cls.__new__(cls)
    m.scenes = list(scenes)
    return m


def _board(j) -> dict:
    """Each cell of ``j`` with something on it: (wall, box, depot)."""
    walls, boxes, goals = spec_ext.paredes(j), spec_ext.cajas(j), spec_ext.depositos(j)
    return {c: (c in walls, c in boxes, c in goals) for c in walls | boxes | goals}


def _changed(before, after) -> set:
    a, b = _board(before), _board(after)
    return {c for c in a.keys() | b.keys() if a.get(c) != b.get(c)}


def _machine_playing(scenes):
    m = _machine(ExtendidoMachine, scenes)
    m.unseen, m.touched, m.lightness = False, frozenset(), False
    return m


@given(scenes=st.lists(lv.scenes(EXTENDIDO.domain, bombs=(0, 3)), min_size=1, max_size=2),
       codes=st.text("udlrbz", max_size=30), light=st.lists(st.booleans(), max_size=30))
def test_extendido_sees_every_departure_right_after_the_action(scenes, codes, light):
    """After a move, every cell it changed; after an undo, every cell where
    the state it must bring back differs from any other state of the
    level (an undo that restores the wrong one is seen at once); after a
    bomb, a win, a change of level, or a light part of a long rule
    (nothing looked at), every cell."""
    m = _machine_playing(scenes)
    j = EXTENDIDO.stepper.start(scenes)
    level = [j]             # the states of the current level so far
    unseen = False
    for i, code in enumerate(codes):
        after = EXTENDIDO.stepper.step(j, code)
        if after is None:           # (not played)
            continue
        m.lightness = i < len(light) and light[i]
        cells = m.look_at(j, after, code)
        new_level = spec_ext.indice_nivel(after) != spec_ext.indice_nivel(j)
        if unseen or code == "b" or new_level or spec_ext.gano(after) != spec_ext.gano(j):
            assert cells is None
        else:
            assert cells is not None and _changed(j, after) <= cells
            assert spec_ext.persona(j) in cells
            if code == "z":
                for other in level:
                    assert _changed(other, after) <= cells
        unseen = m.lightness
        level = [after] if new_level else level + [after]
        j = after


def test_extendido_sees_a_bombs_walls_come_back_when_another_bomb_is_undone():
    """The undo of a bomb that destroyed nothing new (its row and column
    already clear) changes no cell; an undo that undoes the earlier bomb
    instead brings its walls back: they are looked at."""
    scene = lv.Scene(frozenset({(0, 3), (4, 1)}), frozenset(), frozenset(), (0, 1), bombs=2)
    m = _machine_playing([scene])
    j = EXTENDIDO.stepper.start([scene])
    for code in "bb":
        after = EXTENDIDO.stepper.step(j, code)
        m.look_at(j, after, code)
        j = after
    undone = EXTENDIDO.stepper.step(j, "z")
    assert spec_ext.paredes(undone) == spec_ext.paredes(j) == frozenset()
    assert {(0, 3), (4, 1)} <= m.look_at(j, undone, "z")


@given(scene=lv.scenes(SOKO.domain, min_boxes=1, max_boxes=3), codes=st.text("udlr", max_size=25))
def test_soko_looks_at_every_cell_a_move_changes(scene, codes):
    m = _machine(SokoMachine, [scene])
    g = spec_grilla.crear_grilla(list(scene.desc))
    for code in codes:
        d = lv.STEP[code]
        after = SOKO.stepper.step(g, code)
        won = spec_grilla.juego_ganado(after) != spec_grilla.juego_ganado(g)
        cells = m.step_cells(g, d, full=won)
        if cells is None:
            assert won
        else:
            cols, rows = spec_grilla.dimensiones(g)
            changed = {(c, f) for c in range(cols) for f in range(rows)
                       if any(op(g, c, f) != op(after, c, f)
                              for op in (spec_grilla.hay_pared, spec_grilla.hay_caja,
                                         spec_grilla.hay_objetivo, spec_grilla.hay_jugador))}
            assert changed <= cells
        g = after
