"""TAD Juego Extendido (seed 001's module Juego; axioms in ``spec.extendido``'s
docstring): every operation, and the sequence of levels."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import PreconditionError, extendido, obs, sokoban
from spec.tipos import ACCIONES, BOMBAS, Accion
from tests.spec.strategies import (MITAD, POCOS, acciones, extendido_de, juegos, nivel,
                                   niveles_extendidos)

A, B, I, D = Accion.ARRIBA, Accion.ABAJO, Accion.IZQUIERDA, Accion.DERECHA
celdas = st.tuples(st.integers(-60, 60), st.integers(-60, 60))

# Three levels: the first is won by one push east; the second by one push
# north; the third is the corridor (two pushes east).
UNO = extendido_de(nivel((1, 0), cajas=[(2, 0)], depositos=[(3, 0)], paredes=[(0, 0)]), 1)
DOS = extendido_de(nivel((0, 0), cajas=[(0, -1)], depositos=[(0, -2)]), 2)
TRES = extendido_de(nivel((1, 0), cajas=[(2, 0)], depositos=[(4, 0)], paredes=[(0, 0)]))


def condicion_de_avance(j, a):
    """ganó?(mover(nivelActual(j), a)) ∧ ¬vacía?(nivelesPendientes(j))"""
    return sokoban.gano(sokoban.mover(extendido.nivel_actual(j), a)) and bool(
        extendido.niveles_pendientes(j))


# --------------------------------------------------------------------------
# nuevoJ


@POCOS
@given(st.lists(niveles_extendidos(max_cajas=1), min_size=1, max_size=3))
def test_observadores_de_nuevo_juego(ns):
    """nivelActual(nuevoJ(ns)) ≡ nuevoS(prim(ns))
    nivelesPendientes(nuevoJ(ns)) ≡ fin(ns)
    índiceNivel(nuevoJ(ns)) ≡ 0"""
    j = extendido.nuevo_juego(ns)
    assert obs.sokos_iguales(extendido.nivel_actual(j), sokoban.nuevo_soko(ns[0]))
    assert extendido.niveles_pendientes(j) == tuple(ns[1:])
    assert extendido.indice_nivel(j) == 0


def test_nuevo_juego_requiere_niveles_validos():
    """nuevoJ : secu(NivelExtendido) ns → juego   { ¬vacía?(ns) ∧ todos válidos }"""
    with pytest.raises(PreconditionError, match="empty"):
        extendido.nuevo_juego([])
    with pytest.raises(PreconditionError, match="level 0"):
        extendido.nuevo_juego([{**UNO, BOMBAS: -1}])
    with pytest.raises(PreconditionError, match="level 2"):
        extendido.nuevo_juego([UNO, DOS, {**TRES, "depósitos": frozenset()}])
    assert extendido.indice_nivel(extendido.nuevo_juego(iter([UNO, DOS]))) == 0


# --------------------------------------------------------------------------
# mover, moverTotal


@MITAD
@given(juegos(), acciones)
def test_observadores_de_mover(j, a):
    """nivelActual(mover(j, a)) ≡ if ganó?(mover(nivelActual(j), a)) ∧
    ¬vacía?(nivelesPendientes(j)) then nuevoS(prim(nivelesPendientes(j)))
    else mover(nivelActual(j), a) fi
    nivelesPendientes(mover(j, a)) ≡ if (same) then fin(nivelesPendientes(j))
    else nivelesPendientes(j) fi
    índiceNivel(mover(j, a)) ≡ índiceNivel(j) + β(same condition)"""
    if not extendido.puede_mover(j, a):
        return
    m = extendido.mover(j, a)
    pendientes = extendido.niveles_pendientes(j)
    if condicion_de_avance(j, a):
        assert obs.sokos_iguales(extendido.nivel_actual(m), sokoban.nuevo_soko(pendientes[0]))
        assert extendido.niveles_pendientes(m) == pendientes[1:]
        assert extendido.indice_nivel(m) == extendido.indice_nivel(j) + 1
    else:
        assert obs.sokos_iguales(extendido.nivel_actual(m),
                                 sokoban.mover(extendido.nivel_actual(j), a))
        assert extendido.niveles_pendientes(m) == pendientes
        assert extendido.indice_nivel(m) == extendido.indice_nivel(j)


@MITAD
@given(juegos(), acciones)
def test_mover_requiere_puede_mover(j, a):
    """mover : juego j × Acción a → juego   { puedeMover?(nivelActual(j), a) }"""
    assert extendido.puede_mover(j, a) is sokoban.puede_mover(extendido.nivel_actual(j), a)
    if not extendido.puede_mover(j, a):
        with pytest.raises(PreconditionError):
            extendido.mover(j, a)


@MITAD
@given(juegos(), acciones)
def test_mover_total(j, a):
    """moverTotal(j, a) ≡ if puedeMover?(j, a) then mover(j, a) else j fi"""
    t = extendido.mover_total(j, a)
    if extendido.puede_mover(j, a):
        assert obs.juegos_extendidos_iguales(t, extendido.mover(j, a))
    else:
        assert t is j


# --------------------------------------------------------------------------
# tirarBomba, deshacer


@MITAD
@given(juegos())
def test_tirar_bomba(j):
    """nivelActual(tirarBomba(j)) ≡ tirarBomba(nivelActual(j));
    nivelesPendientes and índiceNivel unchanged;  { bombas(nivelActual(j)) > 0 }"""
    if extendido.bombas(j) == 0:
        with pytest.raises(PreconditionError):
            extendido.tirar_bomba(j)
        return
    t = extendido.tirar_bomba(j)
    assert obs.sokos_iguales(extendido.nivel_actual(t),
                             sokoban.tirar_bomba(extendido.nivel_actual(j)))
    assert extendido.niveles_pendientes(t) == extendido.niveles_pendientes(j)
    assert extendido.indice_nivel(t) == extendido.indice_nivel(j)


@MITAD
@given(juegos())
def test_deshacer(j):
    """nivelActual(deshacer(j)) ≡ deshacer(nivelActual(j));
    nivelesPendientes and índiceNivel unchanged"""
    d = extendido.deshacer(j)
    assert obs.sokos_iguales(extendido.nivel_actual(d), sokoban.deshacer(extendido.nivel_actual(j)))
    assert extendido.niveles_pendientes(d) == extendido.niveles_pendientes(j)
    assert extendido.indice_nivel(d) == extendido.indice_nivel(j)


# --------------------------------------------------------------------------
# Observers of the current level, delegated


@MITAD
@given(juegos(), st.lists(celdas, max_size=3))
def test_observadores_delegados(j, otras):
    """persona, cajas, paredes, depósitos, bombas, ganó?, puedeMover?,
    hayPared?, hayDepósito?, hayCaja? of a juego are those of nivelActual(j)."""
    s = extendido.nivel_actual(j)
    assert extendido.persona(j) == sokoban.persona(s)
    assert extendido.cajas(j) == sokoban.cajas(s)
    assert extendido.paredes(j) == sokoban.paredes(s)
    assert extendido.depositos(j) == sokoban.depositos(s)
    assert extendido.bombas(j) == sokoban.bombas(s)
    assert extendido.gano(j) is sokoban.gano(s)
    for a in ACCIONES:
        assert extendido.puede_mover(j, a) is sokoban.puede_mover(s, a)
    for c in {sokoban.persona(s), *sokoban.cajas(s), *sokoban.paredes(s),
              *sokoban.depositos(s), *otras}:
        assert extendido.hay_pared(j, c) is sokoban.hay_pared(s, c)
        assert extendido.hay_deposito(j, c) is sokoban.hay_deposito(s, c)
        assert extendido.hay_caja(j, c) is sokoban.hay_caja(s, c)


# --------------------------------------------------------------------------
# The sequence of levels


def test_avanza_tras_un_movimiento_ganador():
    """A move that wins the current level starts the next one (fresh, with
    its own bombs); nivelesPendientes is the tail of the sequence."""
    j = extendido.nuevo_juego([UNO, DOS, TRES])
    assert extendido.niveles_pendientes(j) == (DOS, TRES)
    j = extendido.mover(j, D)
    assert extendido.indice_nivel(j) == 1
    assert extendido.niveles_pendientes(j) == (TRES,)
    assert extendido.persona(j) == (0, 0) and extendido.bombas(j) == 2
    assert not extendido.gano(j)
    j = extendido.mover_total(j, A)
    assert extendido.indice_nivel(j) == 2 and extendido.niveles_pendientes(j) == ()
    assert obs.sokos_iguales(extendido.nivel_actual(j), sokoban.nuevo_soko(TRES))


def test_el_ultimo_nivel_se_queda():
    """Winning the last level stays on it, won; play and undo go on there."""
    j = extendido.nuevo_juego([TRES])
    j = extendido.mover(extendido.mover(j, D), D)
    assert extendido.gano(j) and extendido.indice_nivel(j) == 0
    assert extendido.niveles_pendientes(j) == ()
    assert extendido.cajas(j) == frozenset({(4, 0)})
    d = extendido.deshacer(j)
    assert extendido.cajas(d) == frozenset({(3, 0)}) and not extendido.gano(d)


def test_deshacer_tras_avanzar_no_cambia_nada():
    """The history does not cross levels (erratum E11): deshacer right after
    an advance changes nothing."""
    j = extendido.mover(extendido.nuevo_juego([UNO, DOS]), D)
    assert extendido.indice_nivel(j) == 1
    d = extendido.deshacer(j)
    assert obs.juegos_extendidos_iguales(d, j)
    assert extendido.indice_nivel(d) == 1 and extendido.persona(d) == (0, 0)


def test_un_nivel_ganado_de_entrada_avanza_con_el_primer_movimiento():
    """A level with no boxes is won as it starts; the game does not advance
    until a move is made (the axiom looks at ganó?(mover(nivelActual(j), a)))."""
    vacio = extendido_de(nivel((0, 0)))
    j = extendido.nuevo_juego([vacio, UNO])
    assert extendido.gano(j) and extendido.indice_nivel(j) == 0
    j = extendido.tirar_bomba(extendido.nuevo_juego([{**vacio, BOMBAS: 1}, UNO]))
    assert extendido.indice_nivel(j) == 0
    j = extendido.mover(j, B)
    assert extendido.indice_nivel(j) == 1 and extendido.persona(j) == (1, 0)


def test_bomba_y_deshacer_en_el_segundo_nivel():
    """Bombs and undo act on the current level only."""
    j = extendido.mover(extendido.nuevo_juego([UNO, TRES]), D)
    assert extendido.bombas(j) == 0
    with pytest.raises(PreconditionError):
        extendido.tirar_bomba(j)
    j = extendido.mover(j, D)
    assert extendido.cajas(j) == frozenset({(3, 0)})
    assert extendido.cajas(extendido.deshacer(j)) == frozenset({(2, 0)})


def test_el_juego_no_comparte_los_niveles_del_llamador():
    """A juego is a value: changing the level dicts it was made from, after
    nuevoJ, changes neither its pending levels nor the next level played."""
    dos = dict(DOS)
    j = extendido.nuevo_juego([UNO, dos])
    dos[BOMBAS] = 7
    dos["cajas"] = frozenset({(9, 9)})
    assert extendido.niveles_pendientes(j) == (DOS,)
    k = extendido.mover(j, D)
    assert extendido.bombas(k) == 2
    assert extendido.cajas(k) == frozenset({(0, -1)})


@pytest.mark.parametrize("niveles", [None, 5, "abc", {"personaje": 1}])
def test_nuevo_juego_refuses_what_is_not_a_sequence(niveles):
    with pytest.raises(PreconditionError):
        extendido.nuevo_juego(niveles)
