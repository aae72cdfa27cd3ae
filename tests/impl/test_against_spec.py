"""impl against the reference: random levels, random sequences of operations,
every observer compared with :mod:`spec` after every step."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import impl.contracts as contracts
import impl.extendido as ie
import impl.tad as itad
import soko
from impl.sokoban import Sokoban
from spec import PreconditionError
from spec import extendido as se
from spec import grilla as sg
from spec import juego as sj
from spec import sokoban as ss
from spec.tipos import ACCIONES, BOMBAS, CLAVES, Accion

R = 2  # levels live in -R..R (the grid is infinite: they are not enclosed)
PROBES = [(x, y) for x in range(-R - 1, R + 2) for y in range(-R - 1, R + 2)]


@st.composite
def niveles(draw, max_cajas=2, max_paredes=7, max_bombas=2):
    """Valid NivelExtendido dicts on the infinite grid, coordinates in -R..R."""
    pos = st.tuples(st.integers(-R, R), st.integers(-R, R))
    celdas = draw(st.lists(pos, unique=True, min_size=1, max_size=1 + max_cajas + max_paredes))
    persona, resto = celdas[0], celdas[1:]
    k = draw(st.integers(0, min(max_cajas, len(resto))))
    cajas, paredes = frozenset(resto[:k]), frozenset(resto[k:])
    libres = sorted(p for p in PROBES if max(map(abs, p)) <= R and p not in paredes)
    depositos = frozenset(draw(st.lists(st.sampled_from(libres), unique=True,
                                        min_size=k, max_size=k)))
    return {"personaje": frozenset({persona}), "cajas": cajas, "paredes": paredes,
            "depósitos": depositos, "bombas": draw(st.integers(0, max_bombas))}


operaciones = st.lists(st.one_of(
    st.tuples(st.just("mover_total"), st.sampled_from(ACCIONES)),
    st.tuples(st.just("mover"), st.sampled_from(ACCIONES)),
    st.tuples(st.just("tirar_bomba")),
    st.tuples(st.just("deshacer")),
), max_size=40)


def assert_same_soko(s: Sokoban, r: ss.Soko) -> None:
    assert s.persona() == ss.persona(r)
    assert s.cajas() == ss.cajas(r)
    assert s.paredes() == ss.paredes(r)
    assert s.depositos() == ss.depositos(r)
    assert s.bombas() == ss.bombas(r)
    assert s.gano() == ss.gano(r)
    for a in ACCIONES:
        assert s.puede_mover(a) == ss.puede_mover(r, a), a
    for p in PROBES:
        assert s.hay_pared(p) == ss.hay_pared(r, p), p
        assert s.hay_caja(p) == ss.hay_caja(r, p), p
        assert s.hay_deposito(p) == ss.hay_deposito(r, p), p
        assert s.no_hay_pared_ni_caja(p) == ss.no_hay_pared_ni_caja(r, p), p


@settings(max_examples=120)
@given(niveles(), operaciones)
def test_sokoban_behaves_as_spec(n, ops):
    s, r = Sokoban(n), ss.nuevo_soko(n)
    assert_same_soko(s, r)
    for op in ops:
        if op[0] == "mover_total":
            assert s.mover_total(op[1]) == ss.puede_mover(r, op[1])
            r = ss.mover_total(r, op[1])
        elif op[0] == "mover":
            if ss.puede_mover(r, op[1]):
                s.mover(op[1])
                r = ss.mover(r, op[1])
            elif contracts.ENABLED:
                with pytest.raises(PreconditionError):
                    s.mover(op[1])
        elif op[0] == "tirar_bomba":
            if ss.bombas(r) > 0:
                s.tirar_bomba()
                r = ss.tirar_bomba(r)
            elif contracts.ENABLED:
                with pytest.raises(PreconditionError):
                    s.tirar_bomba()
        else:
            assert s.deshacer() == (ss.deshacer(r) is not r)
            r = ss.deshacer(r)
        assert_same_soko(s, r)


@settings(max_examples=100)
@given(niveles(), operaciones)
def test_undo_everything_restores_the_start(n, ops):
    s = Sokoban(n)
    for op in ops:
        if op[0] in ("mover_total", "mover"):
            s.mover_total(op[1])
        elif op[0] == "tirar_bomba" and s.bombas() > 0:
            s.tirar_bomba()
    while s.deshacer():
        pass
    assert_same_soko(s, ss.nuevo_soko(n))
    assert s.history_length() == 0


def assert_same_juego(j, r) -> None:
    assert ie.indice_nivel(j) == se.indice_nivel(r)
    assert ie.niveles_pendientes(j) == se.niveles_pendientes(r)
    assert j.niveles_pendientes() == se.niveles_pendientes(r)
    assert len(j.niveles_pendientes()) == len(se.niveles_pendientes(r))
    actual = ie.nivel_actual(j)
    assert isinstance(actual, Sokoban) and actual.persona() == ss.persona(se.nivel_actual(r))
    for a in ACCIONES:
        assert ie.puede_mover(j, a) == se.puede_mover(r, a), a
    for f in ("persona", "cajas", "paredes", "depositos", "bombas", "gano"):
        assert getattr(ie, f)(j) == getattr(se, f)(r), f
    for p in PROBES[::2]:
        for f in ("hay_pared", "hay_caja", "hay_deposito"):
            assert getattr(ie, f)(j, p) == getattr(se, f)(r, p), (f, p)


@settings(max_examples=120)
@given(st.lists(niveles(max_cajas=1, max_paredes=4), min_size=1, max_size=3), operaciones)
def test_extendido_behaves_as_spec(ns, ops):
    j, r = ie.nuevo_juego(ns), se.nuevo_juego(ns)
    assert_same_juego(j, r)
    for op in ops:
        if op[0] == "mover_total":
            j, r = ie.mover_total(j, op[1]), se.mover_total(r, op[1])
        elif op[0] == "mover":
            if se.puede_mover(r, op[1]):
                j, r = ie.mover(j, op[1]), se.mover(r, op[1])
            else:
                assert not ie.puede_mover(j, op[1])
                with pytest.raises(PreconditionError):
                    ie.mover(j, op[1])
        elif op[0] == "tirar_bomba":
            if se.bombas(r) > 0:
                j, r = ie.tirar_bomba(j), se.tirar_bomba(r)
            else:
                with pytest.raises(PreconditionError):
                    ie.tirar_bomba(j)
        else:
            j, r = ie.deshacer(j), se.deshacer(r)
        assert_same_juego(j, r)


@settings(max_examples=100)
@given(niveles(), st.lists(st.sampled_from(ACCIONES), max_size=40))
def test_tad_behaves_as_spec(n, acciones):
    n = {k: n[k] for k in CLAVES}          # seed 000's Nivel: no bombs
    j, r = itad.iniciar(n), sj.iniciar(n)
    assert itad.estado(j) == sj.estado(r) and itad.completado(j) == sj.completado(r)
    for a in acciones:
        j, r = itad.step(j, a), sj.step(r, a)
        assert itad.estado(j) == sj.estado(r)
        assert itad.completado(j) == sj.completado(r)


def test_invalid_levels_are_refused_like_the_spec():
    bueno = {"personaje": frozenset({(0, 0)}), "cajas": frozenset({(1, 0)}),
             "paredes": frozenset({(3, 0)}), "depósitos": frozenset({(2, 0)}), BOMBAS: 0}
    malos = [
        dict(bueno, personaje=frozenset()),
        dict(bueno, personaje=frozenset({(1, 0)})),
        dict(bueno, cajas=frozenset({(3, 0)}), **{"depósitos": frozenset({(2, 0)})}),
        dict(bueno, **{"depósitos": frozenset()}),
        dict(bueno, bombas=-1),
        dict(bueno, paredes=[(3, 0)]),
        {k: v for k, v in bueno.items() if k != "cajas"},
    ]
    for m in malos:
        with pytest.raises(PreconditionError):
            ss.nuevo_soko(m)
        with pytest.raises(PreconditionError):
            Sokoban(m)
    with pytest.raises(PreconditionError, match="level 1"):
        ie.nuevo_juego([bueno, malos[0]])
    with pytest.raises(PreconditionError, match="empty"):
        ie.nuevo_juego([])


# -- soko.py against spec.grilla -----------------------------------------------

@st.composite
def descripciones(draw):
    """Seed 002 grids: enclosed by walls, one player, boxes ≥ goals, rows
    possibly ragged (trailing spaces outside the walls)."""
    w, h = draw(st.integers(3, 8)), draw(st.integers(3, 6))
    interior = draw(st.lists(st.sampled_from("    #$.*"), min_size=(w - 2) * (h - 2),
                             max_size=(w - 2) * (h - 2)))
    i = draw(st.integers(0, len(interior) - 1))
    interior[i] = "+" if interior[i] in ".*" else "@"
    metas = [k for k, ch in enumerate(interior) if ch == "."]
    sobran = interior.count(".") + interior.count("+") - interior.count("$")
    for k in metas[:max(0, sobran)]:
        interior[k] = " "
    if sobran > len(metas):
        interior[i] = "@"
    filas = ["#" * w]
    for f in range(h - 2):
        filas.append("#" + "".join(interior[f * (w - 2):(f + 1) * (w - 2)]) + "#")
    filas.append("#" * w)
    return [fila + " " * draw(st.integers(0, 2)) for fila in filas]


def assert_same_grilla(g, r, margen: int = 0) -> None:
    assert soko.dimensiones(g) == sg.dimensiones(r)
    assert soko.juego_ganado(g) == sg.juego_ganado(r)
    columnas, filas = sg.dimensiones(r)
    for c in range(-margen, columnas + margen):
        for f in range(-margen, filas + margen):
            for nombre in ("hay_pared", "hay_objetivo", "hay_caja", "hay_jugador"):
                assert getattr(soko, nombre)(g, c, f) == getattr(sg, nombre)(r, c, f), (nombre, c, f)


@settings(max_examples=120)
@given(descripciones(), st.lists(st.sampled_from([(0, -1), (0, 1), (-1, 0), (1, 0)]), max_size=30))
def test_soko_behaves_as_spec_grilla(desc, direcciones):
    g, r = soko.crear_grilla(desc), sg.crear_grilla(desc)
    assert g == soko.crear_grilla(list(desc)) and hash(g) == hash(soko.crear_grilla(desc))
    assert_same_grilla(g, r, margen=1)
    for d in direcciones:
        antes = repr(g)
        g2, r2 = soko.mover(g, d), sg.mover(r, d)
        assert repr(g) == antes                       # the argument never changes
        assert (g2 == g) == (r2 == r)                 # blocked iff equal
        assert (hash(g2) == hash(g)) or g2 != g
        assert_same_grilla(g2, r2)
        g, r = g2, r2


@settings(max_examples=200)
@given(st.lists(st.text(alphabet="#$@.*+ -x", max_size=6), max_size=5))
def test_soko_refuses_what_spec_grilla_refuses(desc):
    try:
        sg.crear_grilla(desc)
        refused = False
    except PreconditionError:
        refused = True
    if refused:
        with pytest.raises(PreconditionError):
            soko.crear_grilla(desc)
    else:
        assert_same_grilla(soko.crear_grilla(desc), sg.crear_grilla(desc), margen=1)


def test_soko_error_messages_say_what_and_where():
    with pytest.raises(PreconditionError, match=r"row 1, column 2: 'x'"):
        soko.crear_grilla(["###", "#@x#", "###"])
    with pytest.raises(PreconditionError, match="2 players"):
        soko.crear_grilla(["####", "#@@#", "####"])
    with pytest.raises(PreconditionError, match="0 players"):
        soko.crear_grilla(["###", "# #", "###"])
    assert not soko.juego_ganado(soko.crear_grilla(["#####", "#@..#", "#####"]))   # E25
    with pytest.raises(PreconditionError, match="walk off the grid"):
        soko.crear_grilla(["####", "#@  ", "####"])
    g = soko.crear_grilla(["###", "#@#", "###"])
    with pytest.raises(PreconditionError, match=r"\(1, 1\) is not a direction"):
        soko.mover(g, (1, 1))
    assert soko.mover(g, Accion.ARRIBA) is g
