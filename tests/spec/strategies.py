"""Small Hypothesis strategies for the spec's own tests.

They build seed-000 levels directly as dicts, so the spec's tests depend on
nothing but :mod:`spec` (``levels.strategies`` serves everybody else).

* :func:`niveles`: valid ``Nivel`` dicts on the infinite grid: coordinates in
  a small window, shifted by an offset (so negative and large coordinates
  occur), ``k`` boxes and ``k`` depots, walls disjoint from boxes, depots and
  the character. Levels are open (not enclosed) and dense, so pushes, blocked
  moves and boxes against walls all happen often.
* :func:`niveles_extendidos`: the same plus ``"bombas"``.
* :data:`acciones`, :data:`planes`: one action, a short list of actions.
* :func:`fisicas`: a física reachable from a valid level by some actions.
* :func:`sokos`: a soko reached from a valid level by moves, bombs and undos.
* :func:`juegos`: an extended game over 1-3 levels after some operations.
* :func:`descripciones`: seed 002 grid descriptions, walled all round.
* :func:`nivel`, :func:`extendido_de`: hand-written levels in examples.
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st

from spec import extendido, fisica, sokoban
from spec.tipos import ACCIONES, BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE

def menos_ejemplos(divisor: int) -> settings:
    """The active profile's settings with ``max_examples`` divided by
    ``divisor`` (at least 10): the spec's functions are small, and the whole
    spec suite must stay fast under ``ci`` while ``thorough`` still scales."""
    return settings(max_examples=max(10, settings.default.max_examples // divisor))


#: For properties of small pure helpers (sums, set recursions).
POCOS = menos_ejemplos(4)
#: For the axioms and properties over random levels and play.
MITAD = menos_ejemplos(2)

#: Levels are drawn in ``-RADIO..RADIO`` (before the offset).
RADIO = 3

acciones = st.sampled_from(ACCIONES)
planes = st.lists(acciones, max_size=12)


def nivel(personaje, cajas=(), depositos=(), paredes=()):
    """A ``Nivel`` dict from positions (for hand-written examples)."""
    return {
        PERSONAJE: frozenset({personaje}),
        CAJAS: frozenset(cajas),
        PAREDES: frozenset(paredes),
        DEPOSITOS: frozenset(depositos),
    }


def extendido_de(n, bombas=0):
    """The ``NivelExtendido`` of a ``Nivel`` with ``bombas`` bombs."""
    return {**n, BOMBAS: bombas}


@st.composite
def niveles(draw, max_cajas: int = 3, max_paredes: int = 12, desplazar: bool = True):
    """A valid ``Nivel`` (``fisica.nivel_valido`` holds by construction)."""
    dx, dy = draw(st.tuples(st.integers(-50, 50), st.integers(-50, 50))) if desplazar else (0, 0)
    pos = st.tuples(st.integers(-RADIO + dx, RADIO + dx), st.integers(-RADIO + dy, RADIO + dy))
    k = draw(st.integers(0, max_cajas))
    celdas = draw(st.lists(pos, unique=True, min_size=1 + k, max_size=1 + k + max_paredes))
    personaje, cajas, paredes = celdas[0], celdas[1:1 + k], frozenset(celdas[1 + k:])
    # Depots: any k cells that are not walls (on a box or the character is fine).
    libres = celdas[:1 + k] + draw(st.lists(pos, max_size=k))
    libres = [p for p in dict.fromkeys(libres) if p not in paredes]
    depositos = draw(st.permutations(libres))[:k]
    return nivel(personaje, cajas, depositos, paredes)


@st.composite
def niveles_extendidos(draw, max_bombas: int = 2, **kwargs):
    """A valid ``NivelExtendido``."""
    return extendido_de(draw(niveles(**kwargs)), draw(st.integers(0, max_bombas)))


@st.composite
def fisicas(draw):
    """A física reachable from a valid level by a few actions."""
    f = fisica.crear_fisica(draw(niveles()))
    for a in draw(planes):
        f = fisica.simular_accion(f, a)
    return f


#: Operations on a soko: a move (total), a bomb (when one is left), an undo.
operaciones = st.lists(st.one_of(
    acciones.map(lambda a: ("mover", a)),
    st.just(("bomba",)),
    st.just(("deshacer",)),
), max_size=12)


def observar(s):
    """Every observer of a soko now: (persona, cajas, paredes, depósitos, bombas)."""
    return (sokoban.persona(s), sokoban.cajas(s), sokoban.paredes(s),
            sokoban.depositos(s), sokoban.bombas(s))


def aplicar(s, ops, tad=sokoban):
    """``s`` after ``ops`` (a bomb with none left is skipped); ``tad`` is
    :mod:`spec.sokoban` or :mod:`spec.extendido`, which share these names."""
    for op in ops:
        if op[0] == "mover":
            s = tad.mover_total(s, op[1])
        elif op[0] == "bomba":
            if tad.bombas(s) > 0:
                s = tad.tirar_bomba(s)
        else:
            s = tad.deshacer(s)
    return s


@st.composite
def sokos(draw, **kwargs):
    """A soko reachable from a valid level (so it may carry a history)."""
    return aplicar(sokoban.nuevo_soko(draw(niveles_extendidos(**kwargs))), draw(operaciones))


@st.composite
def juegos(draw, max_niveles: int = 3):
    """An extended game over 1..max_niveles levels, after some operations.
    Levels with few boxes are often won by a move or two, so the sequence
    does advance."""
    ns = draw(st.lists(niveles_extendidos(max_cajas=1), min_size=1, max_size=max_niveles))
    return aplicar(extendido.nuevo_juego(ns), draw(operaciones), tad=extendido)


@st.composite
def descripciones(draw, max_ancho: int = 7, max_alto: int = 6):
    """A seed-002 description ``crear_grilla`` accepts: a full ring of walls
    around random cells (walls, boxes, goals, at least as many boxes as
    goals) with the player on one of them that is not a wall or a box."""
    ancho, alto = draw(st.integers(3, max_ancho)), draw(st.integers(3, max_alto))
    celdas = draw(st.lists(st.sampled_from(" #$."), min_size=(ancho - 2) * (alto - 2),
                           max_size=(ancho - 2) * (alto - 2)))
    donde = draw(st.integers(0, len(celdas) - 1))
    celdas[donde] = "+" if celdas[donde] == "." else "@"
    sobran = celdas.count(".") + celdas.count("+") - celdas.count("$")
    for i, ch in enumerate(celdas):
        if sobran > 0 and ch in ".+":
            celdas[i], sobran = (" " if ch == "." else "@"), sobran - 1
    filas = ["".join(celdas[f * (ancho - 2):(f + 1) * (ancho - 2)]) for f in range(alto - 2)]
    return ["#" * ancho, *("#" + fila + "#" for fila in filas), "#" * ancho]
