"""Seed 002's ``soko.py`` semantics (``spec.grilla``): the seed's example, the
preconditions of ``crear_grilla``, the observers and ``mover``."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import PreconditionError, grilla
from spec.tipos import Accion
from tests.spec.strategies import MITAD, descripciones

NORTE, SUR, ESTE, OESTE = (0, -1), (0, 1), (1, 0), (-1, 0)
direcciones = st.sampled_from([NORTE, SUR, ESTE, OESTE])

# Seed 002's example, verbatim.
EJEMPLO = [
    '#####',
    '#.$ #',
    '#@  #',
    '#####',
]


def celdas(g):
    columnas, filas = grilla.dimensiones(g)
    return [(c, f) for f in range(filas) for c in range(columnas)]


def dibujar(g):
    """The grid back as seed 002's characters (for comparing whole grids)."""
    columnas, filas = grilla.dimensiones(g)
    filas_ = []
    for f in range(filas):
        fila = ""
        for c in range(columnas):
            pared, obj = grilla.hay_pared(g, c, f), grilla.hay_objetivo(g, c, f)
            caja, jug = grilla.hay_caja(g, c, f), grilla.hay_jugador(g, c, f)
            fila += ("#" if pared else "*" if caja and obj else "$" if caja
                     else "+" if jug and obj else "@" if jug else "." if obj else " ")
        filas_.append(fila)
    return filas_


def test_el_ejemplo_del_seed():
    """crear_grilla(['#####', '#.$ #', '#@  #', '#####']): 5 columns, 4 rows,
    a goal at (1, 1), a box at (2, 1), the player at (1, 2)."""
    g = grilla.crear_grilla(EJEMPLO)
    assert grilla.dimensiones(g) == (5, 4)
    assert [p for p in celdas(g) if grilla.hay_objetivo(g, *p)] == [(1, 1)]
    assert [p for p in celdas(g) if grilla.hay_caja(g, *p)] == [(2, 1)]
    assert [p for p in celdas(g) if grilla.hay_jugador(g, *p)] == [(1, 2)]
    paredes = [p for p in celdas(g) if grilla.hay_pared(g, *p)]
    assert len(paredes) == 14 and (0, 0) in paredes and (4, 3) in paredes
    assert dibujar(g) == EJEMPLO
    assert not grilla.juego_ganado(g)


def test_el_ejemplo_del_seed_se_gana():
    """East, east, north, west pushes the box onto the goal: won ("todas las
    celdas objetivo tienen una caja encima")."""
    g = grilla.crear_grilla(EJEMPLO)
    for d in (ESTE, ESTE, NORTE, OESTE):
        g = grilla.mover(g, d)
    assert dibujar(g) == ['#####', '#*@ #', '#   #', '#####']
    assert grilla.juego_ganado(g)


def test_todos_los_caracteres():
    """``#`` pared, ``$`` caja, ``@`` jugador, ``.`` objetivo, ``*`` objetivo +
    caja, ``+`` objetivo + jugador, space empty."""
    desc = ['########', '#+$*.$ #', '########']
    g = grilla.crear_grilla(desc)
    assert dibujar(g) == desc
    assert grilla.hay_jugador(g, 1, 1) and grilla.hay_objetivo(g, 1, 1)
    assert grilla.hay_caja(g, 3, 1) and grilla.hay_objetivo(g, 3, 1)
    assert grilla.hay_caja(g, 2, 1) and not grilla.hay_objetivo(g, 2, 1)


@pytest.mark.parametrize("desc, mensaje", [
    (['#####', '#@$x#', '#####'], r"row 1, column 3: 'x'"),
    (['#####', '#@$.#', '#-###'], r"row 2, column 1: '-'"),
    (['#####', '#@$.#', '####\t'], r"row 2, column 4"),
    (['#####', '# $.#', '#####'], r"0 players"),
    (['######', '#@$.@#', '######'], r"2 players"),
    (['######', '#+$.@#', '######'], r"2 players"),
    (['#####', '#@$. ', '#####'], r"not enclosed"),
    (['#####', '#@$.#', '# ###'], r"not enclosed"),
    (['@$.'], r"not enclosed"),
])
def test_precondiciones_de_crear_grilla(desc, mensaje):
    """Seed 002's rules as preconditions, each refused with a message naming
    the problem: a stray character (with its row and column), no player, two
    players, a player not enclosed by walls. (Fewer boxes than goals is
    accepted: erratum E25.)"""
    with pytest.raises(PreconditionError, match=mensaje):
        grilla.crear_grilla(desc)


def test_crear_grilla_pide_una_lista_de_cadenas():
    """``desc`` is a list of strings, not one string."""
    with pytest.raises(PreconditionError, match="list of strings"):
        grilla.crear_grilla('#####\n#@$.#\n#####')
    with pytest.raises(PreconditionError, match="list of strings"):
        grilla.crear_grilla(['#####', 5])


def test_mas_cajas_que_objetivos():
    """"La grilla contiene al menos tantas cajas como objetivos"; the game is
    won when every goal has a box, spare boxes or not."""
    g = grilla.crear_grilla(['#######', '#@*$ $#', '#######'])
    assert grilla.juego_ganado(g)
    assert not grilla.juego_ganado(grilla.crear_grilla(['#######', '#@$.$ #', '#######']))
    assert grilla.juego_ganado(grilla.crear_grilla(['####', '#@$#', '####']))  # no goals


def test_filas_irregulares():
    """Rows may be ragged: dimensiones counts the longest row; cells past the
    end of a short row are empty."""
    g = grilla.crear_grilla(['####', '#@$.#', '#  #', '#####'])
    assert grilla.dimensiones(g) == (5, 4)
    assert not grilla.hay_pared(g, 4, 2) and not grilla.hay_pared(g, 4, 0)
    assert grilla.hay_pared(g, 4, 1) and grilla.hay_pared(g, 4, 3)


def test_dimensiones():
    """dimensiones(grilla): (columnas, filas)."""
    assert grilla.dimensiones(grilla.crear_grilla(['###', '#@#', '# #', '###'])) == (3, 4)
    assert grilla.dimensiones(grilla.crear_grilla(['#######', '#@    #', '#######'])) == (7, 3)


# --------------------------------------------------------------------------
# mover

SALA = [
    '########',
    '#  .   #',
    '# $$ * #',
    '#  @ $.#',
    '#.     #',
    '########',
]


@MITAD
@given(descripciones() | st.just(SALA), st.lists(direcciones, max_size=20))
def test_mover_no_modifica_su_argumento(desc, plan):
    """"La grilla recibida NO se modifica": after any sequence of moves, every
    grid met on the way still draws as it did."""
    g = grilla.crear_grilla(desc)
    vistos = []
    for d in plan:
        vistos.append((g, dibujar(g)))
        g = grilla.mover(g, d)
    assert all(dibujar(h) == dib for h, dib in vistos)


@MITAD
@given(descripciones() | st.just(SALA), st.lists(direcciones, max_size=20), direcciones)
def test_mover(desc, plan, d):
    """Seed 002's movement rules: into an empty cell, the player moves; into
    a wall, nothing changes; into a box, the box moves on when the cell beyond
    is empty (no wall, no box), and otherwise nothing changes. A blocked move
    returns a grid equal to the argument."""
    g = grilla.crear_grilla(desc)
    for paso in plan:
        g = grilla.mover(g, paso)
    (c, f), = [p for p in celdas(g) if grilla.hay_jugador(g, *p)]
    c1, c2 = (c + d[0], f + d[1]), (c + 2 * d[0], f + 2 * d[1])

    def vacia(p):
        return not grilla.hay_pared(g, *p) and not grilla.hay_caja(g, *p)

    def cajas(x):
        return {p for p in celdas(x) if grilla.hay_caja(x, *p)}

    h = grilla.mover(g, d)
    for p in celdas(g):
        assert grilla.hay_pared(h, *p) is grilla.hay_pared(g, *p)
        assert grilla.hay_objetivo(h, *p) is grilla.hay_objetivo(g, *p)
    if vacia(c1):
        assert grilla.hay_jugador(h, *c1)
        assert cajas(h) == cajas(g)
    elif grilla.hay_caja(g, *c1) and vacia(c2):
        assert grilla.hay_jugador(h, *c1)
        assert cajas(h) == cajas(g) - {c1} | {c2}
    else:
        assert h == g
        assert dibujar(h) == dibujar(g)


def test_mover_acepta_acciones_y_rechaza_otras_direcciones():
    """``direccion`` is one of (-1, 0), (1, 0), (0, -1), (0, 1) (an Accion
    carrying one is accepted); anything else is refused."""
    g = grilla.crear_grilla(EJEMPLO)
    assert grilla.mover(g, Accion.ESTE) == grilla.mover(g, ESTE)
    assert grilla.mover(g, [1, 0]) == grilla.mover(g, ESTE)
    for mala in [(1, 1), (0, 0), (2, 0)]:
        with pytest.raises(PreconditionError):
            grilla.mover(g, mala)


def test_movimiento_bloqueado_devuelve_una_grilla_igual():
    """"Si la celda vecina es una pared, el movimiento no está permitido y el
    jugador se queda en su lugar"; likewise a box against a wall or a box."""
    g = grilla.crear_grilla(['######', '#@$$ #', '#$   #', '#.. .#', '######'])
    assert grilla.mover(g, OESTE) == g      # wall
    assert grilla.mover(g, NORTE) == g      # wall
    assert grilla.mover(g, ESTE) == g       # box against a box
    h = grilla.mover(g, SUR)                # box pushed onto a goal
    assert dibujar(h) == ['######', '# $$ #', '#@   #', '#*. .#', '######']
    assert grilla.mover(h, SUR) == h        # box against a wall


@MITAD
@given(descripciones())
def test_las_descripciones_validas_se_aceptan(desc):
    """A description that follows every rule of seed 002 is accepted and
    draws back as itself."""
    assert dibujar(grilla.crear_grilla(desc)) == desc


@MITAD
@given(descripciones(), st.lists(direcciones, max_size=25))
def test_invariantes_de_la_grilla(desc, plan):
    """Under any moves: walls, goals and the number of boxes stay; the player
    is never on a wall or a box, and never leaves the grid."""
    g0 = g = grilla.crear_grilla(desc)
    columnas, filas = grilla.dimensiones(g0)
    for d in plan:
        g = grilla.mover(g, d)
        assert grilla.dimensiones(g) == (columnas, filas)
        jugador = [p for p in celdas(g) if grilla.hay_jugador(g, *p)]
        assert len(jugador) == 1
        assert not grilla.hay_pared(g, *jugador[0]) and not grilla.hay_caja(g, *jugador[0])
        for p in celdas(g):
            assert grilla.hay_pared(g, *p) is grilla.hay_pared(g0, *p)
            assert grilla.hay_objetivo(g, *p) is grilla.hay_objetivo(g0, *p)
        assert sum(grilla.hay_caja(g, *p) for p in celdas(g)) == \
            sum(grilla.hay_caja(g0, *p) for p in celdas(g0))


@pytest.mark.parametrize("desc", [None, 5, "#@#", [1, 2], {"a": 1}])
def test_crear_grilla_refuses_wrong_types_with_a_precondition_error(desc):
    """A description of the wrong type is outside the precondition, said as such
    (never a TypeError from deep inside)."""
    with pytest.raises(PreconditionError):
        grilla.crear_grilla(desc)


@pytest.mark.parametrize("direccion", [None, 5, "N", (1, 1), [0, 2]])
def test_mover_refuses_what_is_not_a_direction(direccion):
    g = grilla.crear_grilla(["####", "#@ #", "####"])
    with pytest.raises(PreconditionError):
        grilla.mover(g, direccion)
