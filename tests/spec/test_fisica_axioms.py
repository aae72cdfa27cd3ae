"""TAD Física (seed 000): one test per axiom or tight group of axioms.

Each docstring quotes the axiom in the seed's notation. Where the spec encodes
a recursive axiom as membership or disjointness, the seed's recursion is
written out here literally (with ``dameUno``/``sinUno``) and a property checks
that both agree.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import PreconditionError, fisica
from spec.fisica import dame_uno, sin_uno
from spec.tipos import ACCIONES, BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE, Accion
from tests.spec.strategies import MITAD, POCOS, acciones, fisicas, nivel, niveles

A, B, I, D = Accion.ARRIBA, Accion.ABAJO, Accion.IZQUIERDA, Accion.DERECHA

pequenas = st.tuples(st.integers(-3, 3), st.integers(-3, 3))
conjuntos = st.frozensets(pequenas, max_size=6)
vectores = st.tuples(st.integers(-10**6, 10**6), st.integers(-10**6, 10**6))

# The cross of the branches: character at (0, 0), stepping DERECHA (1, 0).
#   (1, 0) free                          -> moves
#   (1, 0) wall                          -> stays
#   (1, 0) box, (2, 0) free              -> moves, pushes
#   (1, 0) box, (2, 0) wall or box       -> stays
LIBRE = fisica.crear_fisica(nivel((0, 0), depositos=[], paredes=[(-1, 0)]))
PARED = fisica.crear_fisica(nivel((0, 0), paredes=[(1, 0)]))
CAJA_LIBRE = fisica.crear_fisica(nivel((0, 0), cajas=[(1, 0)], depositos=[(5, 5)]))
CAJA_CONTRA_PARED = fisica.crear_fisica(
    nivel((0, 0), cajas=[(1, 0)], depositos=[(5, 5)], paredes=[(2, 0)]))
CAJA_CONTRA_CAJA = fisica.crear_fisica(
    nivel((0, 0), cajas=[(1, 0), (2, 0)], depositos=[(5, 5), (6, 6)]))
ESTE = (1, 0)


# --------------------------------------------------------------------------
# The seed's recursions, literally.


def es_pared_literal(c, p):
    """esPared?(c, p) ≡ if ∅?(c) then false else if dameUno(c) = p then true
    else esPared?(sinUno(c), p) fi fi

    esCaja?(c, a) is the same recursion, word for word: :data:`es_caja_literal`."""
    if not c:
        return False
    if dame_uno(c) == p:
        return True
    return es_pared_literal(sin_uno(c), p)


es_caja_literal = es_pared_literal


def ninguno_de_x_en_y_literal(x, y):
    """ningunoDeXenY(X, Y) ≡ if ∅?(X) ∨ ∅?(Y) then true else if dameUno(X) ∈ Y
    then false else ningunoDeXenY(sinUno(X), Y) fi fi"""
    if not x or not y:
        return True
    if dame_uno(x) in y:
        return False
    return ninguno_de_x_en_y_literal(sin_uno(x), y)


def mover_caja_literal(pos, cajas, paso):
    """moverCaja(pos, cajas, paso) ≡ if dameUno(cajas) = pos then
    Ag(sumar2Tuplas(pos, paso), sinUno(cajas)) else Ag(dameUno(cajas),
    moverCaja(pos, sinUno(cajas), paso)) fi"""
    if dame_uno(cajas) == pos:
        return sin_uno(cajas) | {fisica.sumar_2_tuplas(pos, paso)}
    return frozenset({dame_uno(cajas)}) | mover_caja_literal(pos, sin_uno(cajas), paso)


# --------------------------------------------------------------------------
# Basic observer


@POCOS
@given(niveles())
def test_computar_estado_de_crear_fisica(n):
    """computarEstado(crearFísica(n)) ≡ n"""
    assert fisica.computar_estado(fisica.crear_fisica(n)) == n


@MITAD
@given(fisicas(), acciones)
def test_computar_estado_de_simular_accion(f, a):
    """computarEstado(simularAcción(f, a)) ≡
    Dict("personaje", personaje(simularAcción(f, a)), Dict("cajas",
    cajas(simularAcción(f, a)), Dict("paredes", paredes(simularAcción(f, a)),
    Dict("depósitos", depósitos(simularAcción(f, a)), vacío))))

    (``"personaje"`` is the one-element set of the character, erratum E9.)"""
    g = fisica.simular_accion(f, a)
    assert fisica.computar_estado(g) == {
        PERSONAJE: frozenset({fisica.personaje(g)}),
        CAJAS: fisica.cajas(g),
        PAREDES: fisica.paredes(g),
        DEPOSITOS: fisica.depositos(g),
    }


# --------------------------------------------------------------------------
# Observers on crearFísica


@POCOS
@given(niveles())
def test_observadores_de_crear_fisica(n):
    """personaje(crearFisica(n)) ≡ dameUno(n["personaje"])  -- es único
    cajas(crearFísica(n)) ≡ n["cajas"]
    depósitos(crearFísica(n)) ≡ n["depósitos"]
    paredes(crearFísica(n)) ≡ n["paredes"]"""
    f = fisica.crear_fisica(n)
    assert fisica.personaje(f) == dame_uno(n[PERSONAJE])
    assert n[PERSONAJE] == {fisica.personaje(f)}
    assert fisica.cajas(f) == n[CAJAS]
    assert fisica.depositos(f) == n[DEPOSITOS]
    assert fisica.paredes(f) == n[PAREDES]


def test_crear_fisica_requiere_nivel_valido():
    """crearFísica : Nivel n → física  { nivelVálido?(n) }"""
    with pytest.raises(PreconditionError):
        fisica.crear_fisica(nivel((0, 0), cajas=[(0, 0)], depositos=[(1, 1)]))
    with pytest.raises(PreconditionError):
        fisica.crear_fisica({PERSONAJE: frozenset({(0, 0)})})


# --------------------------------------------------------------------------
# Observers on simularAcción


@MITAD
@given(fisicas(), acciones)
def test_paredes_y_depositos_nunca_se_mueven(f, a):
    """-- Estos objetos nunca se mueven
    paredes(simularAcción(f, a)) ≡ paredes(f)
    depósitos(simularAcción(f, a)) ≡ depósitos(f)"""
    g = fisica.simular_accion(f, a)
    assert fisica.paredes(g) == fisica.paredes(f)
    assert fisica.depositos(g) == fisica.depositos(f)


def _cascada(a):
    """The seed's ``if a = Arriba then ⟨0,-1⟩ else if a = Abajo then ⟨0,1⟩ else
    if a = Izquierda then ⟨-1,0⟩ else if a = Derecha then ⟨1,0⟩``, written out
    here so that the test does not read the vectors from the spec."""
    if a is Accion.ARRIBA:
        return (0, -1)
    if a is Accion.ABAJO:
        return (0, 1)
    if a is Accion.IZQUIERDA:
        return (-1, 0)
    if a is Accion.DERECHA:
        return (1, 0)
    raise AssertionError(a)


@MITAD
@given(fisicas(), acciones)
def test_personaje_de_simular_accion(f, a):
    """personaje(simularAcción(f, a)) ≡ if a = Arriba then
    accionarPersonaje(f, ⟨0,-1⟩) else if a = Abajo then accionarPersonaje(f,
    ⟨0,1⟩) else if a = Izquierda then accionarPersonaje(f, ⟨-1,0⟩) else if a =
    Derecha then accionarPersonaje(f, ⟨1,0⟩) else fi fi fi fi"""
    g = fisica.simular_accion(f, a)
    assert fisica.personaje(g) == fisica.accionar_personaje(f, _cascada(a))


@MITAD
@given(fisicas(), acciones)
def test_cajas_de_simular_accion(f, a):
    """cajas(simularAcción(f, a)) ≡ if a = Arriba then accionarCaja(f, ⟨0,-1⟩)
    else if a = Abajo then accionarCaja(f, ⟨0,1⟩) else if a = Izquierda then
    accionarCaja(f, ⟨-1,0⟩) else if a = Derecha then accionarCaja(f, ⟨1,0⟩)
    else fi fi fi fi"""
    g = fisica.simular_accion(f, a)
    assert fisica.cajas(g) == fisica.accionar_caja(f, _cascada(a))


def test_simular_accion_fuera_de_accion_no_tiene_valor():
    """``else fi fi fi fi``: no value for anything that is not an Acción."""
    with pytest.raises(PreconditionError):
        fisica.simular_accion(LIBRE, (1, 0))


def test_simular_accion_con_las_cuatro_acciones():
    """The cascade's four vectors, on a character in the open."""
    movidos = {a: fisica.personaje(fisica.simular_accion(LIBRE, a)) for a in (A, B, D)}
    assert movidos == {A: (0, -1), B: (0, 1), D: (1, 0)}
    assert fisica.personaje(fisica.simular_accion(LIBRE, I)) == (0, 0)  # wall at (-1, 0)


# --------------------------------------------------------------------------
# accionarPersonaje, branch by branch


def test_accionar_personaje_libre_me_muevo():
    """if estáLibre?(computarEstado(f), sumar2Tuplas(personaje(f), paso)) then
    sumar2Tuplas(personaje(f), paso)   -- me muevo"""
    assert fisica.accionar_personaje(LIBRE, ESTE) == (1, 0)


def test_accionar_personaje_pared_no_se_mueve():
    """else if esPared?(paredes(f), sumar2Tuplas(personaje(f), paso)) then
    personaje(f)   -- no se mueve, yo tampoco"""
    assert fisica.accionar_personaje(PARED, ESTE) == (0, 0)


def test_accionar_personaje_caja_que_se_mueve():
    """else -- esCaja! if estáLibre?(computarEstado(f),
    sumar3Tuplas(personaje(f), paso, paso)) then sumar2Tuplas(personaje(f), paso)"""
    assert fisica.accionar_personaje(CAJA_LIBRE, ESTE) == (1, 0)


def test_accionar_personaje_caja_que_no_se_mueve():
    """else personaje(f)   -- la caja no se mueve, yo tampoco
    (beyond the box: a wall, or another box)"""
    assert fisica.accionar_personaje(CAJA_CONTRA_PARED, ESTE) == (0, 0)
    assert fisica.accionar_personaje(CAJA_CONTRA_CAJA, ESTE) == (0, 0)


# --------------------------------------------------------------------------
# accionarCaja, branch by branch


def test_accionar_caja_empuja():
    """if esCaja?(sumar2Tuplas(personaje(f), paso)) then if
    estáLibre?(computarEstado(f), sumar3Tuplas(personaje(f), paso, paso)) then
    moverCaja(sumar2Tuplas(personaje(f), paso))"""
    assert fisica.accionar_caja(CAJA_LIBRE, ESTE) == frozenset({(2, 0)})
    f = fisica.crear_fisica(nivel((0, 0), cajas=[(1, 0), (1, 1)], depositos=[(5, 5), (6, 6)]))
    assert fisica.accionar_caja(f, ESTE) == frozenset({(2, 0), (1, 1)})


def test_accionar_caja_bloqueada():
    """... else cajas(f) fi   (the box in front cannot move)"""
    assert fisica.accionar_caja(CAJA_CONTRA_PARED, ESTE) == fisica.cajas(CAJA_CONTRA_PARED)
    assert fisica.accionar_caja(CAJA_CONTRA_CAJA, ESTE) == fisica.cajas(CAJA_CONTRA_CAJA)


def test_accionar_caja_sin_caja():
    """else -- No me interesan las no-cajas en esta función   fi
    (no value in the seed; we keep cajas(f), erratum E3): free cell or wall."""
    f = fisica.crear_fisica(nivel((0, 0), cajas=[(0, 3)], depositos=[(5, 5)], paredes=[(-1, 0)]))
    assert fisica.accionar_caja(f, ESTE) == frozenset({(0, 3)})
    assert fisica.accionar_caja(f, (-1, 0)) == frozenset({(0, 3)})


# --------------------------------------------------------------------------
# moverCaja


def test_mover_caja_ejemplos():
    """moverCaja(pos, cajas, paso): ``pos`` is replaced by ``pos + paso``; the
    other boxes stay, whichever ``dameUno`` picks first."""
    cajas = frozenset({(0, 0), (1, 0), (-5, 2)})
    assert fisica.mover_caja((-5, 2), cajas, (0, 1)) == frozenset({(0, 0), (1, 0), (-5, 3)})
    assert fisica.mover_caja((1, 0), cajas, (1, 0)) == frozenset({(0, 0), (2, 0), (-5, 2)})


@POCOS
@given(st.data(), st.frozensets(pequenas, min_size=1, max_size=6), vectores)
def test_mover_caja_es_la_recursion_del_seed(data, cajas, paso):
    """moverCaja(pos, cajas, paso) ≡ if dameUno(cajas) = pos then
    Ag(sumar2Tuplas(pos, paso), sinUno(cajas)) else Ag(dameUno(cajas),
    moverCaja(pos, sinUno(cajas), paso)) fi"""
    pos = data.draw(st.sampled_from(sorted(cajas)))
    assert fisica.mover_caja(pos, cajas, paso) == mover_caja_literal(pos, cajas, paso)


@POCOS
@given(conjuntos, pequenas)
def test_mover_caja_fuera_de_cajas_no_tiene_valor(cajas, pos):
    """The recursion reaches ``dameUno(∅)`` when ``pos ∉ cajas``: undefined."""
    if pos in cajas:
        return
    with pytest.raises(PreconditionError):
        mover_caja_literal(pos, cajas, (1, 0))
    with pytest.raises(PreconditionError):
        fisica.mover_caja(pos, cajas, (1, 0))


# --------------------------------------------------------------------------
# esPared?, esCaja?, estáLibre?


@POCOS
@given(conjuntos, pequenas)
def test_es_pared_es_la_recursion_del_seed(c, p):
    """esPared?(c, p) ≡ if ∅?(c) then false else if dameUno(c) = p then true
    else esPared?(sinUno(c), p) fi fi"""
    assert fisica.es_pared(c, p) is es_pared_literal(c, p)


@POCOS
@given(conjuntos, pequenas)
def test_es_caja_es_la_recursion_del_seed(c, a):
    """esCaja?(c, a) ≡ if ∅?(c) then false else if dameUno(c) = a then true
    else esCaja?(sinUno(c), a) fi fi"""
    assert fisica.es_caja(c, a) is es_caja_literal(c, a)


def test_es_pared_y_es_caja_ejemplos():
    """esPared?(∅, p) ≡ false; found at any depth of the recursion."""
    c = frozenset({(0, 0), (4, -2), (-1, 7)})
    assert not fisica.es_pared(frozenset(), (0, 0)) and not fisica.es_caja(frozenset(), (0, 0))
    assert all(fisica.es_pared(c, p) and fisica.es_caja(c, p) for p in c)
    assert not fisica.es_pared(c, (0, 1)) and not fisica.es_caja(c, (7, -1))


@MITAD
@given(fisicas(), pequenas)
def test_esta_libre(f, p):
    """estáLibre?(e, p) ≡ ¬esPared?(e["paredes"], p) ∧ ¬esCaja?(e["cajas"], p)"""
    e = fisica.computar_estado(f)
    for q in [p, fisica.personaje(f), *fisica.cajas(f), *fisica.paredes(f)]:
        assert fisica.esta_libre(e, q) is (
            not es_pared_literal(e[PAREDES], q) and not es_caja_literal(e[CAJAS], q))


def test_esta_libre_ejemplos():
    """A depot or the character's own cell is free; a wall or a box is not."""
    e = fisica.computar_estado(fisica.crear_fisica(
        nivel((0, 0), cajas=[(1, 0)], depositos=[(2, 0)], paredes=[(3, 0)])))
    assert [fisica.esta_libre(e, (x, 0)) for x in range(4)] == [True, False, True, False]


# --------------------------------------------------------------------------
# nivelVálido?, seSolapan?, ningunoDeXenY


@POCOS
@given(niveles())
def test_nivel_valido_acepta_los_niveles_validos(n):
    """nivelVálido?(n) holds for every level the strategy builds (k boxes, k
    depots, the character on neither a wall nor a box, walls apart)."""
    assert fisica.nivel_valido(n)


VALIDO = nivel((0, 0), cajas=[(1, 0)], depositos=[(2, 0)], paredes=[(-1, 0)])


@pytest.mark.parametrize("n, conjunto", [
    ({k: v for k, v in VALIDO.items() if k != PERSONAJE}, 'def?("personaje", n)'),
    ({k: v for k, v in VALIDO.items() if k != CAJAS}, 'def?("cajas", n)'),
    ({k: v for k, v in VALIDO.items() if k != PAREDES}, 'def?("paredes", n)'),
    ({k: v for k, v in VALIDO.items() if k != DEPOSITOS}, 'def?("depósitos", n)'),
    ({**VALIDO, BOMBAS: frozenset()}, "#(claves(n)) = 4"),
    ({**VALIDO, PERSONAJE: frozenset()}, '#(n["personaje"]) = 1 (none)'),
    ({**VALIDO, PERSONAJE: frozenset({(0, 0), (0, 1)})}, '#(n["personaje"]) = 1 (two)'),
    ({**VALIDO, PERSONAJE: frozenset({(1, 0)})}, '¬ dameUno(n["personaje"]) ∈ n["cajas"]'),
    ({**VALIDO, PERSONAJE: frozenset({(-1, 0)})}, '¬ dameUno(n["personaje"]) ∈ n["paredes"]'),
    ({**VALIDO, DEPOSITOS: frozenset({(2, 0), (3, 0)})}, '#cajas = #depósitos (E1)'),
    ({**VALIDO, PAREDES: frozenset({(1, 0)})}, '¬ seSolapan?(n["paredes"], n["cajas"])'),
    ({**VALIDO, PAREDES: frozenset({(2, 0)})}, '¬ seSolapan?(n["paredes"], n["depósitos"])'),
    ({**VALIDO, CAJAS: frozenset({(1, 0.5)})}, "positions are pairs of ints (E4)"),
    ({**VALIDO, CAJAS: [(1, 0)]}, "values are sets"),
    ([VALIDO], "a Nivel is a dict"),
])
def test_nivel_valido_cada_conjuncion(n, conjunto):
    """nivelVálido?(n) ≡ def?("personaje", n) ∧ def?("cajas", n) ∧
    def?("paredes", n) ∧ def?("depósitos", n) ∧ #(claves(n)) = 4 ∧
    #(n["personaje"]) = 1 ∧ ¬ dameUno(n["personaje"]) ∈ n["cajas"] ∧
    ¬ dameUno(n["personaje"]) ∈ n["paredes"] ∧ n["cajas"] = n["depósitos"] ∧
    ¬ seSolapan?(n["paredes"], n["cajas"]) ∧ ¬ seSolapan?(n["paredes"],
    n["depósitos"])   -- corrected, errata E1, E2: each conjunct alone fails it"""
    assert fisica.nivel_valido(VALIDO)
    assert fisica.nivel_valido(n) is False, conjunto
    with pytest.raises(PreconditionError):
        fisica.crear_fisica(n)


@POCOS
@given(conjuntos, conjuntos)
def test_ninguno_de_x_en_y_es_la_recursion_del_seed(x, y):
    """ningunoDeXenY(X, Y) ≡ if ∅?(X) ∨ ∅?(Y) then true else if dameUno(X) ∈ Y
    then false else ningunoDeXenY(sinUno(X), Y) fi fi"""
    assert fisica.ninguno_de_x_en_y(x, y) is ninguno_de_x_en_y_literal(x, y)


@POCOS
@given(conjuntos, conjuntos)
def test_se_solapan(a, b):
    """seSolapan?(a, b) ≡ ningunoDeXenY(a, b) ∧ ningunoDeXenY(b, a), with the
    meaning its name gives (erratum E2): ``¬ningunoDeXenY``, symmetric."""
    assert fisica.se_solapan(a, b) is not ninguno_de_x_en_y_literal(a, b)
    assert fisica.se_solapan(a, b) is fisica.se_solapan(b, a)
    assert fisica.se_solapan(a, b) is (
        not (ninguno_de_x_en_y_literal(a, b) and ninguno_de_x_en_y_literal(b, a)))


# --------------------------------------------------------------------------
# sumar2Tuplas, sumar3Tuplas, dameUno, sinUno


@POCOS
@given(vectores, vectores)
def test_sumar_2_tuplas(a, b):
    """sumar2Tuplas(a, b) ≡ ⟨π1(a) + π1(b), π2(a) + π2(b)⟩"""
    assert fisica.sumar_2_tuplas(a, b) == (a[0] + b[0], a[1] + b[1])


@POCOS
@given(vectores, vectores, vectores)
def test_sumar_3_tuplas(a, b, c):
    """sumar3Tuplas(a, b, c) ≡ ⟨π1(a) + π1(b) + π1(c), π2(a) + π2(b) + π2(c)⟩"""
    assert fisica.sumar_3_tuplas(a, b, c) == (a[0] + b[0] + c[0], a[1] + b[1] + c[1])
    assert fisica.sumar_3_tuplas(a, b, c) == fisica.sumar_2_tuplas(fisica.sumar_2_tuplas(a, b), c)


def test_sumar_tuplas_ejemplos():
    """Negative results are allowed (erratum E4: positions are ints)."""
    assert fisica.sumar_2_tuplas((0, 0), (0, -1)) == (0, -1)
    assert fisica.sumar_3_tuplas((1, 2), (-1, 0), (-1, 0)) == (-1, 2)


@POCOS
@given(st.frozensets(pequenas, min_size=1, max_size=6))
def test_dame_uno_y_sin_uno(c):
    """dameUno(c) ∈ c  (c ≠ ∅);  sinUno(c) ≡ c - {dameUno(c)}"""
    assert fisica.dame_uno(c) in c
    assert fisica.sin_uno(c) == c - {fisica.dame_uno(c)}
    assert len(fisica.sin_uno(c)) == len(c) - 1


@MITAD
@given(fisicas())
def test_simular_accion_no_modifica_su_argumento(f):
    """Values are immutable: simulating leaves ``f``'s observers as they were."""
    antes = fisica.computar_estado(f)
    for a in ACCIONES:
        fisica.simular_accion(f, a)
    assert fisica.computar_estado(f) == antes


def test_crear_fisica_no_comparte_conjuntos_mutables():
    """A física built from a level with plain ``set`` values does not change
    when the caller later changes those sets."""
    n = {PERSONAJE: {(0, 0)}, CAJAS: {(1, 0)}, PAREDES: {(-1, 0)}, DEPOSITOS: {(2, 0)}}
    f = fisica.crear_fisica(n)
    n[CAJAS].add((5, 5))
    n[PAREDES].add((0, 1))
    assert fisica.cajas(f) == frozenset({(1, 0)})
    assert fisica.paredes(f) == frozenset({(-1, 0)})
