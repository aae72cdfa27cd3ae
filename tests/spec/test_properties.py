"""Hypothesis properties of the spec: the invariants the seeds' rules imply,
checked on random levels and random play."""

from hypothesis import given
from hypothesis import strategies as st

import pytest

from spec import PreconditionError, extendido, fisica, grilla, juego, obs, sokoban
from spec.tipos import ACCIONES, BOMBAS, CAJAS, CLAVES, PAREDES, PERSONAJE, Accion
from tests.spec.strategies import (MITAD, acciones, aplicar, extendido_de, juegos, nivel, niveles,
                                   niveles_extendidos, observar, operaciones, planes, sokos)

OPUESTA = {Accion.ARRIBA: Accion.ABAJO, Accion.ABAJO: Accion.ARRIBA,
           Accion.IZQUIERDA: Accion.DERECHA, Accion.DERECHA: Accion.IZQUIERDA}


def recorrido(n, plan):
    """Every física met while playing ``plan`` from ``n``, the first included."""
    f = fisica.crear_fisica(n)
    fs = [f]
    for a in plan:
        f = fisica.simular_accion(f, a)
        fs.append(f)
    return fs


# --------------------------------------------------------------------------
# Seed 000's physics


@MITAD
@given(niveles(), planes)
def test_paredes_y_depositos_no_cambian(n, plan):
    """Walls and depots never change under simular_accion."""
    for f in recorrido(n, plan):
        assert fisica.paredes(f) == n[PAREDES]
        assert fisica.depositos(f) == n["depósitos"]


@MITAD
@given(niveles(), planes)
def test_la_cantidad_de_cajas_es_constante(n, plan):
    """The number of boxes is constant (a push never merges or loses a box)."""
    for f in recorrido(n, plan):
        assert len(fisica.cajas(f)) == len(n[CAJAS])


@MITAD
@given(niveles(), planes)
def test_el_personaje_no_pisa_paredes_ni_cajas(n, plan):
    """The character never stands on a wall or a box; no box is on a wall."""
    for f in recorrido(n, plan):
        assert fisica.personaje(f) not in fisica.paredes(f)
        assert fisica.personaje(f) not in fisica.cajas(f)
        assert fisica.cajas(f).isdisjoint(fisica.paredes(f))


@MITAD
@given(niveles(), planes)
def test_un_nivel_valido_sigue_valido(n, plan):
    """A valid level stays valid: computarEstado of any reachable física
    satisfies nivelVálido?, so crearFísica accepts it again."""
    for f in recorrido(n, plan):
        e = fisica.computar_estado(f)
        assert fisica.nivel_valido(e)
        assert obs.fisicas_iguales(fisica.crear_fisica(e), f)


@MITAD
@given(niveles(), planes, acciones)
def test_un_paso_mueve_a_lo_sumo_una_celda(n, plan, a):
    """The character moves by exactly the action's vector or not at all, and
    at most one box moves, by the same vector, from the cell moved into."""
    f = recorrido(n, plan)[-1]
    g = fisica.simular_accion(f, a)
    (x, y), (dx, dy) = fisica.personaje(f), a.value
    assert fisica.personaje(g) in {(x, y), (x + dx, y + dy)}
    salieron, entraron = fisica.cajas(f) - fisica.cajas(g), fisica.cajas(g) - fisica.cajas(f)
    assert salieron <= {(x + dx, y + dy)}
    assert entraron == {(x + 2 * dx, y + 2 * dy)} if salieron else not entraron
    if salieron:
        assert fisica.personaje(g) == (x + dx, y + dy)


# --------------------------------------------------------------------------
# The extended game: undo and bombs


def _acciones_que_cambian(j, tad):
    """Every operation applicable to ``j`` that changes the state: moves that
    can be made (by mover and by moverTotal) and a bomb if one is left."""
    ops = []
    for a in ACCIONES:
        if tad.puede_mover(j, a):
            ops.append(lambda x, a=a: tad.mover(x, a))
            ops.append(lambda x, a=a: tad.mover_total(x, a))
    if tad.bombas(j) > 0:
        ops.append(tad.tirar_bomba)
    return ops


@MITAD
@given(sokos(max_bombas=2))
def test_deshacer_restaura_el_soko(s):
    """deshacer after any move or bomb restores an observationally equal soko."""
    for op in _acciones_que_cambian(s, sokoban):
        assert obs.sokos_iguales(sokoban.deshacer(op(s)), s)


@MITAD
@given(juegos())
def test_deshacer_restaura_el_juego(j):
    """In the extended game, deshacer after any action restores an
    observationally equal game, unless the action won a level and play moved
    on to the next one: then deshacer changes nothing (erratum E11)."""
    for op in _acciones_que_cambian(j, extendido):
        k = op(j)
        if extendido.indice_nivel(k) == extendido.indice_nivel(j):
            assert obs.juegos_extendidos_iguales(extendido.deshacer(k), j)
        else:
            assert extendido.indice_nivel(k) == extendido.indice_nivel(j) + 1
            assert obs.juegos_extendidos_iguales(extendido.deshacer(k), k)


@MITAD
@given(sokos(max_bombas=3))
def test_un_soko_alcanzable_es_un_nivel_valido(s):
    """Moves, bombs and undos keep the extended level valid: its observers
    make a NivelExtendido that nuevoS accepts, with the same observers."""
    n = extendido_de(nivel(sokoban.persona(s), sokoban.cajas(s), sokoban.depositos(s),
                           sokoban.paredes(s)), sokoban.bombas(s))
    assert sokoban.nivel_extendido_valido(n)
    assert observar(sokoban.nuevo_soko(n)) == observar(s)


@st.composite
def sokos_con_paredes_lejanas(draw):
    """A soko with one bomb or more, walls added far away on the character's
    row and column (and some far away off them), after some play."""
    n = draw(niveles_extendidos(max_bombas=3))
    (x, y), = n[PERSONAJE]
    lejos = st.integers(10**5, 10**9) | st.integers(-10**9, -10**5)
    extra = set()
    for _ in range(draw(st.integers(0, 4))):
        d, e = draw(lejos), draw(lejos)
        extra.add(draw(st.sampled_from([(x + d, y), (x, y + d), (x + d, y + e)])))
    n = {**n, PAREDES: n[PAREDES] | extra, "bombas": n["bombas"] + 1}
    return aplicar(sokoban.nuevo_soko(n), draw(operaciones))


@MITAD
@given(sokos_con_paredes_lejanas())
def test_una_bomba_quita_exactamente_su_fila_y_su_columna(s):
    """A bomb removes exactly the walls of the character's row and column,
    anywhere on the infinite grid, and nothing else."""
    if sokoban.bombas(s) == 0:
        return
    t = sokoban.tirar_bomba(s)
    x, y = sokoban.persona(s)
    quitadas = sokoban.paredes(s) - sokoban.paredes(t)
    assert sokoban.paredes(t) <= sokoban.paredes(s)
    assert quitadas == {p for p in sokoban.paredes(s) if p[0] == x or p[1] == y}
    assert all(p[0] != x and p[1] != y for p in sokoban.paredes(t))


# --------------------------------------------------------------------------
# Observational equality


@MITAD
@given(niveles_extendidos(max_bombas=1), operaciones, operaciones, operaciones)
def test_igualdad_observacional_es_de_equivalencia(n, o1, o2, o3):
    """sokos_iguales and juegos_extendidos_iguales are reflexive, symmetric
    and transitive (three sokos of one level, after three random plays)."""
    s0 = sokoban.nuevo_soko(n)
    s1, s2, s3 = aplicar(s0, o1), aplicar(s0, o2), aplicar(s0, o3)
    for a in (s1, s2, s3):
        assert obs.sokos_iguales(a, a)
    for a, b in [(s1, s2), (s2, s3), (s1, s3)]:
        assert obs.sokos_iguales(a, b) is obs.sokos_iguales(b, a)
    for a, b, c in [(s1, s2, s3), (s2, s3, s1), (s3, s1, s2)]:
        if obs.sokos_iguales(a, b) and obs.sokos_iguales(b, c):
            assert obs.sokos_iguales(a, c)
    j0 = extendido.nuevo_juego([n, n])
    j1, j2 = aplicar(j0, o1, tad=extendido), aplicar(j0, o2, tad=extendido)
    assert obs.juegos_extendidos_iguales(j1, j1)
    assert obs.juegos_extendidos_iguales(j1, j2) is obs.juegos_extendidos_iguales(j2, j1)


@MITAD
@given(niveles_extendidos(max_bombas=1), operaciones, operaciones, operaciones)
def test_igualdad_observacional_es_una_congruencia(n, o1, o2, despues):
    """Observationally equal sokos cannot be told apart by any further
    operations: the same play gives the same observers (and they stay equal)."""
    s0 = sokoban.nuevo_soko(n)
    s1, s2 = aplicar(s0, o1), aplicar(s0, o2)
    if not obs.sokos_iguales(s1, s2):
        return
    for i in range(len(despues) + 1):
        t1, t2 = aplicar(s1, despues[:i]), aplicar(s2, despues[:i])
        assert observar(t1) == observar(t2)
        assert obs.sokos_iguales(t1, t2)


@MITAD
@given(niveles(), planes, planes)
def test_fisicas_iguales_es_una_congruencia(n, p1, despues):
    """f1 =obs f2 ⇔ computarEstado(f1) = computarEstado(f2); equal físicas
    stay equal under the same actions (a física is its state)."""
    f1 = recorrido(n, p1)[-1]
    f2 = fisica.crear_fisica(fisica.computar_estado(f1))
    assert obs.fisicas_iguales(f1, f2) and obs.fisicas_iguales(f2, f1)
    for a in despues:
        f1, f2 = fisica.simular_accion(f1, a), fisica.simular_accion(f2, a)
        assert obs.fisicas_iguales(f1, f2)


@MITAD
@given(sokos(), acciones)
def test_igualdad_observacional_distingue_historias(s, a):
    """Going there and back gives the same observers now but a different
    history, which deshacer shows: the sokos are not observationally equal."""
    if not sokoban.puede_mover(s, a):
        return
    ida = sokoban.mover(s, a)
    if not sokoban.puede_mover(ida, OPUESTA[a]):
        return
    vuelta = sokoban.mover(ida, OPUESTA[a])
    if observar(vuelta) != observar(s):
        return  # the way back pushed a box
    assert not obs.sokos_iguales(vuelta, s)
    assert obs.sokos_iguales(sokoban.deshacer(sokoban.deshacer(vuelta)), s)


def test_igualdad_observacional_distingue_historias_ejemplos():
    """Same observers, different histories: a move and its way back; a fresh
    level and one reached by an undone bomb is the same (undo erases it)."""
    s = sokoban.nuevo_soko(extendido_de(nivel((0, 0), paredes=[(3, 0)]), 1))
    vuelta = sokoban.mover(sokoban.mover(s, Accion.DERECHA), Accion.IZQUIERDA)
    assert observar(vuelta) == observar(s)
    assert not obs.sokos_iguales(vuelta, s)
    assert obs.sokos_iguales(sokoban.deshacer(sokoban.tirar_bomba(s)), s)
    # The same soko in a longer sequence of levels is a different game.
    n = extendido_de(nivel((0, 0)))
    assert not obs.juegos_extendidos_iguales(extendido.nuevo_juego([n]),
                                             extendido.nuevo_juego([n, n]))
    # Same current soko, but one game is on its second level.
    uno = extendido_de(nivel((0, 0), cajas=[(1, 0)], depositos=[(2, 0)]))
    dos = extendido_de(nivel((0, 0)))
    avanzado = extendido.mover(extendido.nuevo_juego([uno, dos]), Accion.DERECHA)
    assert extendido.indice_nivel(avanzado) == 1
    assert obs.sokos_iguales(extendido.nivel_actual(avanzado), sokoban.nuevo_soko(dos))
    assert not obs.juegos_extendidos_iguales(avanzado, extendido.nuevo_juego([dos]))


# --------------------------------------------------------------------------
# Bad input


_pos = st.tuples(st.integers(-3, 3), st.integers(-3, 3))
_basura = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3) | _pos,
    lambda hijos: (st.lists(hijos, max_size=3)
                   | st.frozensets(st.integers(-2, 2) | _pos, max_size=3)
                   | st.dictionaries(st.sampled_from([*CLAVES, BOMBAS, "x"]), hijos, max_size=5)),
    max_leaves=8)
#: Level-shaped junk: the right keys, each holding a set of positions or junk.
_casi_niveles = st.fixed_dictionaries(
    {k: st.frozensets(_pos, max_size=3) | _basura for k in CLAVES},
    optional={BOMBAS: st.integers(-2, 3) | _basura})


@MITAD
@given(_casi_niveles | _basura)
def test_un_nivel_invalido_se_rechaza_con_precondition_error(n):
    """Whatever a caller passes as a level, nivelVálido? answers a bool and
    the generators either accept it (exactly when it is valid) or refuse it
    with PreconditionError: never another exception."""
    valido = fisica.nivel_valido(n)
    assert isinstance(valido, bool)
    for generador in (fisica.crear_fisica, juego.iniciar):
        if valido:
            generador(n)
        else:
            with pytest.raises(PreconditionError):
                generador(n)
    extendido_valido = sokoban.nivel_extendido_valido(n)
    for generador in (sokoban.nuevo_soko, lambda x: extendido.nuevo_juego([x])):
        if extendido_valido:
            generador(n)
        else:
            with pytest.raises(PreconditionError):
                generador(n)


@MITAD
@given(st.lists(st.text(alphabet="#$@.*+ x\t", max_size=6), max_size=5))
def test_una_descripcion_invalida_se_rechaza_con_precondition_error(desc):
    """crear_grilla on any list of strings either builds a grid or refuses
    with PreconditionError."""
    try:
        g = grilla.crear_grilla(desc)
    except PreconditionError:
        return
    assert grilla.dimensiones(g) == (max(map(len, desc)), len(desc))
