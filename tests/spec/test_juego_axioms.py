"""TAD Juego (seed 000): one test per axiom, each quoting it."""

import pytest
from hypothesis import given

from spec import PreconditionError, fisica, juego, obs
from spec.tipos import CAJAS, DEPOSITOS, Accion
from tests.spec.strategies import MITAD, POCOS, acciones, nivel, niveles, planes

D, I = Accion.DERECHA, Accion.IZQUIERDA

# A corridor: wall, character, box, floor, depot.
PASILLO = nivel((1, 0), cajas=[(2, 0)], depositos=[(4, 0)], paredes=[(0, 0)])


def _jugar(n, plan):
    """The juego and, in lockstep, the física the seed's axioms speak of."""
    j, f = juego.iniciar(n), fisica.crear_fisica(n)
    for a in plan:
        j, f = juego.step(j, a), fisica.simular_accion(f, a)
    return j, f


@POCOS
@given(niveles())
def test_estado_de_iniciar(n):
    """estado(iniciar(n)) ≡ computarEstado(crearFísica(n))   -- uso de Física"""
    assert juego.estado(juego.iniciar(n)) == fisica.computar_estado(fisica.crear_fisica(n))
    assert juego.estado(juego.iniciar(n)) == n


@MITAD
@given(niveles(), planes, acciones)
def test_estado_de_step(n, plan, a):
    """estado(step(j, a)) ≡ computarEstado(simularAcción(a))   -- uso de Física
    (the física is the juego's own, erratum E7)"""
    j, f = _jugar(n, plan)
    assert juego.estado(juego.step(j, a)) == fisica.computar_estado(fisica.simular_accion(f, a))


def test_iniciar_requiere_nivel_valido():
    """iniciar : Nivel n → juego   { nivelVálido?(n) }"""
    with pytest.raises(PreconditionError):
        juego.iniciar(nivel((0, 0), cajas=[(1, 0)], depositos=[]))


@POCOS
@given(niveles())
def test_completado_de_iniciar(n):
    """completado?(iniciar(n)) ≡ todoEnOrden(n)"""
    assert juego.completado(juego.iniciar(n)) is juego.todo_en_orden(n)


@MITAD
@given(niveles(), planes, acciones)
def test_completado_de_step(n, plan, a):
    """completado?(step(j, a)) ≡ todoEnOrden(estado(step(j, a)))"""
    j, _ = _jugar(n, plan)
    k = juego.step(j, a)
    assert juego.completado(k) is juego.todo_en_orden(juego.estado(k))


@POCOS
@given(niveles())
def test_todo_en_orden(n):
    """todoEnOrden(e) ≡ e["cajas"] = e["depósitos"]"""
    assert juego.todo_en_orden(n) is (n[CAJAS] == n[DEPOSITOS])


def test_todo_en_orden_ejemplos():
    """Solved when the sets are equal, not when the counts are."""
    assert not juego.todo_en_orden(PASILLO)
    assert juego.todo_en_orden(nivel((1, 0), cajas=[(4, 0)], depositos=[(4, 0)]))
    assert juego.todo_en_orden(nivel((1, 0)))  # no boxes, no depots


def test_una_partida_del_pasillo():
    """Pushing the box onto the depot completes the game; the move into the
    wall changes nothing."""
    j = juego.iniciar(PASILLO)
    assert not juego.completado(j)
    assert obs.juegos_iguales(juego.step(j, I), j)
    j = juego.step(juego.step(j, D), D)
    assert juego.estado(j)[CAJAS] == frozenset({(4, 0)})
    assert juego.completado(j)
    # One more push takes the box off the depot (the level is open to the east).
    assert not juego.completado(juego.step(j, D))


@MITAD
@given(niveles(), planes)
def test_igualdad_observacional_de_juegos(n, plan):
    """j1 =obs j2 ⇔ ((∀n : Nivel)(estado(j1(n)) =obs estado(j2(n)))), read
    as equality of the basic observer (erratum E15)."""
    j, _ = _jugar(n, plan)
    k = juego.iniciar(n)
    assert obs.juegos_iguales(j, j)
    assert obs.juegos_iguales(j, k) is (juego.estado(j) == juego.estado(k))
