"""TAD Sokoban (one level of the extended game; axioms in ``spec.sokoban``'s
docstrings): every operation, one test per axiom or tight group."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spec import PreconditionError, fisica, obs, sokoban
from spec.tipos import ACCIONES, BOMBAS, PERSONAJE, Accion
from tests.spec.strategies import (MITAD, POCOS, acciones, extendido_de, nivel,
                                   niveles_extendidos, observar, sokos)

A, B, I, D = Accion.ARRIBA, Accion.ABAJO, Accion.IZQUIERDA, Accion.DERECHA
celdas = st.tuples(st.integers(-60, 60), st.integers(-60, 60))

# A corridor: wall, character, box, floor, depot.
PASILLO = extendido_de(nivel((1, 0), cajas=[(2, 0)], depositos=[(4, 0)], paredes=[(0, 0)]), 1)


def fisica_de(s):
    """``f(s)``: the física with ``s``'s character, boxes, standing walls and
    depots, built through the public generator."""
    return fisica.crear_fisica(
        nivel(sokoban.persona(s), sokoban.cajas(s), sokoban.depositos(s), sokoban.paredes(s)))


def frente(s, a, veces=1):
    x, y = sokoban.persona(s)
    return (x + veces * a.value[0], y + veces * a.value[1])


# --------------------------------------------------------------------------
# nuevoS


@POCOS
@given(niveles_extendidos())
def test_observadores_de_nuevo_soko(n):
    """persona(nuevoS(n)) ≡ dameUno(n["personaje"])
    cajas(nuevoS(n)) ≡ n["cajas"];  paredes(nuevoS(n)) ≡ n["paredes"]
    depósitos(nuevoS(n)) ≡ n["depósitos"];  bombas(nuevoS(n)) ≡ n["bombas"]"""
    s = sokoban.nuevo_soko(n)
    assert sokoban.persona(s) == fisica.dame_uno(n[PERSONAJE])
    assert sokoban.cajas(s) == n["cajas"]
    assert sokoban.paredes(s) == n["paredes"]
    assert sokoban.depositos(s) == n["depósitos"]
    assert sokoban.bombas(s) == n[BOMBAS]


@POCOS
@given(niveles_extendidos())
def test_deshacer_de_nuevo_soko(n):
    """deshacer(nuevoS(n)) ≡ nuevoS(n)"""
    s = sokoban.nuevo_soko(n)
    assert sokoban.deshacer(s) is s
    assert obs.sokos_iguales(sokoban.deshacer(s), sokoban.nuevo_soko(n))


@pytest.mark.parametrize("n, motivo", [
    ({k: v for k, v in PASILLO.items() if k != BOMBAS}, "no bombas"),
    ({**PASILLO, BOMBAS: -1}, "bombas is not a nat"),
    ({**PASILLO, BOMBAS: True}, "bombas is a bool"),
    ({**PASILLO, BOMBAS: "1"}, "bombas is a string"),
    ({**PASILLO, "vidas": 3}, "an extra key"),
    ({**PASILLO, "depósitos": frozenset()}, "seed 000's nivelVálido? fails"),
])
def test_nuevo_soko_requiere_nivel_valido(n, motivo):
    """nuevoS : NivelExtendido n → soko   { nivelVálido?(n) }"""
    assert sokoban.nuevo_soko(PASILLO)
    with pytest.raises(PreconditionError):
        sokoban.nuevo_soko(n)


# --------------------------------------------------------------------------
# mover, puedeMover?, moverTotal


@MITAD
@given(sokos(), acciones)
def test_observadores_de_mover(s, a):
    """persona(mover(s, a)) ≡ personaje(simularAcción(f(s), a))
    cajas(mover(s, a)) ≡ cajas(simularAcción(f(s), a))
    paredes(mover(s, a)) ≡ paredes(s);  depósitos(mover(s, a)) ≡ depósitos(s)
    bombas(mover(s, a)) ≡ bombas(s)"""
    if not sokoban.puede_mover(s, a):
        return
    m = sokoban.mover(s, a)
    f = fisica.simular_accion(fisica_de(s), a)
    assert sokoban.persona(m) == fisica.personaje(f)
    assert sokoban.cajas(m) == fisica.cajas(f)
    assert sokoban.paredes(m) == sokoban.paredes(s)
    assert sokoban.depositos(m) == sokoban.depositos(s)
    assert sokoban.bombas(m) == sokoban.bombas(s)


@MITAD
@given(sokos(), acciones)
def test_deshacer_de_mover(s, a):
    """deshacer(mover(s, a)) ≡ s"""
    if not sokoban.puede_mover(s, a):
        return
    assert sokoban.deshacer(sokoban.mover(s, a)) is s


@MITAD
@given(sokos(), acciones)
def test_mover_requiere_puede_mover(s, a):
    """mover : soko s × Acción a → soko   { puedeMover?(s, a) }"""
    if sokoban.puede_mover(s, a):
        assert sokoban.persona(sokoban.mover(s, a)) == frente(s, a)
    else:
        with pytest.raises(PreconditionError):
            sokoban.mover(s, a)


def test_mover_requiere_puede_mover_ejemplos():
    """Into a wall, or pushing a box into a wall or another box: refused."""
    s = sokoban.nuevo_soko(PASILLO)
    with pytest.raises(PreconditionError):
        sokoban.mover(s, I)
    dos_cajas = sokoban.nuevo_soko(extendido_de(
        nivel((0, 0), cajas=[(1, 0), (2, 0)], depositos=[(5, 5), (6, 6)])))
    with pytest.raises(PreconditionError):
        sokoban.mover(dos_cajas, D)
    contra_pared = sokoban.nuevo_soko(extendido_de(
        nivel((0, 0), cajas=[(0, 1)], depositos=[(5, 5)], paredes=[(0, 2)])))
    with pytest.raises(PreconditionError):
        sokoban.mover(contra_pared, B)


@MITAD
@given(sokos(), acciones)
def test_puede_mover(s, a):
    """puedeMover?(s, d) ≡ noHayParedNiCaja?(s, persona(s) ⊕ d) ∨
    (hayCaja?(s, persona(s) ⊕ d) ∧ noHayParedNiCaja?(s, persona(s) ⊕ d ⊕ d))
    where noHayParedNiCaja?(s, c) ≡ ¬hayPared?(s, c) ∧ ¬hayCaja?(s, c)"""
    def libre(c):
        return not sokoban.hay_pared(s, c) and not sokoban.hay_caja(s, c)
    esperado = libre(frente(s, a)) or (sokoban.hay_caja(s, frente(s, a)) and libre(frente(s, a, 2)))
    assert sokoban.puede_mover(s, a) is esperado


@MITAD
@given(sokos(), acciones)
def test_puede_mover_es_que_simular_accion_mueve(s, a):
    """puedeMover?(s, a) ⇔ personaje(simularAcción(f(s), a)) ≠ persona(s): the
    extended game moves exactly when seed 000's physics does."""
    se_mueve = fisica.personaje(fisica.simular_accion(fisica_de(s), a)) != sokoban.persona(s)
    assert sokoban.puede_mover(s, a) is se_mueve


@MITAD
@given(sokos(), acciones)
def test_mover_total(s, a):
    """moverTotal(s, a) ≡ if puedeMover?(s, a) then mover(s, a) else s fi
    (a blocked move leaves no trace in the history)"""
    t = sokoban.mover_total(s, a)
    if sokoban.puede_mover(s, a):
        assert obs.sokos_iguales(t, sokoban.mover(s, a))
        assert sokoban.deshacer(t) is s
    else:
        assert t is s
        assert sokoban.deshacer(t) is sokoban.deshacer(s)


# --------------------------------------------------------------------------
# tirarBomba


@MITAD
@given(sokos(max_bombas=3))
def test_observadores_de_tirar_bomba(s):
    """paredes(tirarBomba(s)) ≡ { p ∈ paredes(s) | π1(p) ≠ π1(persona(s)) ∧
    π2(p) ≠ π2(persona(s)) };  bombas(tirarBomba(s)) ≡ bombas(s) - 1;
    persona, cajas, depósitos: unchanged"""
    if sokoban.bombas(s) == 0:
        return
    t = sokoban.tirar_bomba(s)
    x, y = sokoban.persona(s)
    assert sokoban.paredes(t) == {p for p in sokoban.paredes(s) if p[0] != x and p[1] != y}
    assert sokoban.bombas(t) == sokoban.bombas(s) - 1
    assert sokoban.persona(t) == sokoban.persona(s)
    assert sokoban.cajas(t) == sokoban.cajas(s)
    assert sokoban.depositos(t) == sokoban.depositos(s)


def test_tirar_bomba_en_toda_la_grilla_infinita():
    """"destruye todas las paredes en la misma fila o columna que la
    coordenada de la persona", however far: walls at x = 10**6 and
    y = -10**6 in the character's row and column go, the others stay."""
    lejos = [(10**6, 3), (-10**6, 3), (-2, 10**6), (-2, -10**6)]
    quedan = [(10**6, 4), (-1, -10**6), (0, 0), (-3, 2)]
    s = sokoban.nuevo_soko(extendido_de(
        nivel((-2, 3), cajas=[(5, 5)], depositos=[(6, 6)], paredes=lejos + quedan), 1))
    t = sokoban.tirar_bomba(s)
    assert sokoban.paredes(t) == frozenset(quedan)
    assert not any(sokoban.hay_pared(t, p) for p in lejos)
    assert all(sokoban.hay_pared(t, p) for p in quedan)


def test_tirar_bomba_abre_paso():
    """A destroyed wall no longer blocks: the character walks through it."""
    s = sokoban.nuevo_soko(PASILLO)
    assert not sokoban.puede_mover(s, I)
    t = sokoban.tirar_bomba(s)
    assert sokoban.puede_mover(t, I)
    assert sokoban.persona(sokoban.mover(t, I)) == (0, 0)


@MITAD
@given(sokos(max_bombas=0))
def test_tirar_bomba_requiere_bombas(s):
    """tirarBomba : soko s → soko   { bombas(s) > 0 }"""
    assert sokoban.bombas(s) == 0
    with pytest.raises(PreconditionError):
        sokoban.tirar_bomba(s)


@MITAD
@given(sokos(max_bombas=3))
def test_deshacer_de_tirar_bomba(s):
    """deshacer(tirarBomba(s)) ≡ s   (walls and bomb count come back)"""
    if sokoban.bombas(s) == 0:
        return
    t = sokoban.tirar_bomba(s)
    assert sokoban.deshacer(t) is s
    assert observar(sokoban.deshacer(t)) == observar(s)


# --------------------------------------------------------------------------
# deshacer over a whole history


def test_deshacer_paso_a_paso():
    """Each deshacer undoes the last move or bomb, in reverse order, until the
    fresh level, where it stops (deshacer(nuevoS(n)) ≡ nuevoS(n))."""
    s0 = sokoban.nuevo_soko(PASILLO)
    s1 = sokoban.mover(s0, D)          # push
    s2 = sokoban.tirar_bomba(s1)       # the wall at (0, 0) is in the row
    s3 = sokoban.mover(s2, I)
    s4 = sokoban.mover(s3, I)          # onto the destroyed wall's cell
    assert sokoban.persona(s4) == (0, 0) and sokoban.bombas(s4) == 0
    visto = [observar(s) for s in (s4, s3, s2, s1, s0, s0)]
    s, deshechos = s4, []
    for _ in range(6):
        deshechos.append(observar(s))
        s = sokoban.deshacer(s)
    assert deshechos == visto


# --------------------------------------------------------------------------
# Observers


@MITAD
@given(sokos(), st.lists(celdas, max_size=4))
def test_hay_pared_hay_deposito_hay_caja(s, otras):
    """hayPared?(s, c) ≡ c ∈ paredes(s);  hayDepósito?(s, c) ≡ c ∈ depósitos(s);
    hayCaja?(s, c) ≡ c ∈ cajas(s)"""
    probar = {sokoban.persona(s), *sokoban.cajas(s), *sokoban.paredes(s),
              *sokoban.depositos(s), *otras}
    for c in probar:
        assert sokoban.hay_pared(s, c) is (c in sokoban.paredes(s))
        assert sokoban.hay_deposito(s, c) is (c in sokoban.depositos(s))
        assert sokoban.hay_caja(s, c) is (c in sokoban.cajas(s))


@MITAD
@given(sokos())
def test_gano(s):
    """ganó?(s) ≡ cajas(s) = depósitos(s)"""
    assert sokoban.gano(s) is (sokoban.cajas(s) == sokoban.depositos(s))


def test_gano_ejemplos():
    """Pushing the corridor's box onto its depot wins; one push more does not."""
    s = sokoban.nuevo_soko(PASILLO)
    assert not sokoban.gano(s)
    s = sokoban.mover(sokoban.mover(s, D), D)
    assert sokoban.gano(s)
    assert not sokoban.gano(sokoban.mover(s, D))
    assert sokoban.gano(sokoban.nuevo_soko(extendido_de(nivel((0, 0)))))


@MITAD
@given(sokos(max_bombas=2))
def test_las_operaciones_no_modifican_su_argumento(s):
    """Values are immutable: every operation returns a new soko."""
    antes = observar(s)
    for a in ACCIONES:
        sokoban.mover_total(s, a)
    if sokoban.bombas(s):
        sokoban.tirar_bomba(s)
    sokoban.deshacer(s)
    assert observar(s) == antes


def test_un_soko_con_historia_larga_se_compara_y_se_imprime():
    """A solution of a real level is hundreds or thousands of moves long: the
    resulting soko can still be compared, hashed and printed."""
    s = t = sokoban.nuevo_soko(extendido_de(nivel((0, 0))))
    for i in range(2000):
        s = sokoban.mover(s, D if i % 2 == 0 else I)
        t = sokoban.mover(t, D if i % 2 == 0 else I)
    assert obs.sokos_iguales(s, t)
    assert s == t
    assert isinstance(hash(s), int)
    assert "Soko(" in repr(s)
