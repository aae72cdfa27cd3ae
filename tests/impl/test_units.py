"""Unit tests of impl's modules, and of running a course test file with soko."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from impl import direccion
from impl.juego import Juego
from impl.mapa import Mapa
from impl.nivel import Nivel, problemas
from impl.sokoban import BOMBA, Sokoban
from spec import PreconditionError
from spec.tipos import Accion

A = Accion


def nivel(persona, cajas=(), paredes=(), depositos=(), bombas=0):
    return {"personaje": frozenset({persona}), "cajas": frozenset(cajas),
            "paredes": frozenset(paredes), "depósitos": frozenset(depositos), "bombas": bombas}


# -- Dirección --------------------------------------------------------------------

def test_direcciones_of_seed_001():
    assert [direccion.ord(d) for d in (direccion.norte(), direccion.este(),
                                       direccion.sur(), direccion.oeste())] == [0, 1, 2, 3]
    assert direccion.NORTE is A.ARRIBA and direccion.OESTE is A.IZQUIERDA
    assert direccion.suma((3, 3), direccion.NORTE) == (3, 2)      # y grows south
    assert direccion.desde_vector((1, 0)) is A.DERECHA
    assert direccion.desde_vector(A.ABAJO) is A.ABAJO
    for malo in ((1, 1), (0, 0), "N", None, (0, -1, 0)):
        with pytest.raises(ValueError, match="is not a direction"):
            direccion.desde_vector(malo)


@given(st.tuples(st.integers(), st.integers()), st.sampled_from(direccion.DIRECCIONES))
def test_suma_resta_opuesta(c, d):
    assert direccion.resta(direccion.suma(c, d), d) == c
    assert direccion.suma(c, direccion.opuesta(d)) == direccion.resta(c, d)
    assert direccion.opuesta(direccion.opuesta(d)) is d


# -- Mapa: bombs counted per row and column -----------------------------------------

def test_two_bombs_on_one_column_need_two_undos():
    m = Mapa(frozenset({(0, 5), (7, 0)}), frozenset())
    m.tirar_bomba((0, 1))          # column 0: destroys (0, 5)
    m.tirar_bomba((0, 2))          # column 0 again
    assert not m.hay_pared((0, 5)) and m.hay_pared((7, 0))
    assert m.borrar_ultima_explosion() == (0, 2)
    assert not m.hay_pared((0, 5))   # the first bomb still covers it
    m.borrar_ultima_explosion()
    assert m.hay_pared((0, 5)) and m.paredes() == {(0, 5), (7, 0)}


def test_bomb_destroys_row_and_column_on_the_infinite_grid():
    s = Sokoban(nivel((0, 0), paredes={(0, -100), (100, 0), (1, 1), (-5, 0)}, bombas=1))
    s.tirar_bomba()
    assert s.paredes() == {(1, 1)}
    assert s.ultima_accion() == BOMBA
    s.deshacer()
    assert s.paredes() == {(0, -100), (100, 0), (1, 1), (-5, 0)} and s.bombas() == 1


# -- Nivel: validity ------------------------------------------------------------------

def test_problemas_names_each_problem():
    assert problemas(nivel((0, 0))) == []
    assert problemas("x") == ["a level is a dict, not str"]
    assert "missing keys: 'cajas'" in problemas({"personaje": frozenset({(0, 0)}),
                                                 "paredes": frozenset(), "depósitos": frozenset()})
    assert problemas(nivel((0, 0), cajas={(1, 0)})) == ["1 boxes but 0 depots"]
    assert problemas(nivel((0, 0), paredes={(0, 0)})) == ["the character (0, 0) is on a wall"]
    assert problemas(dict(nivel((0, 0)), bombas=True)) == [
        "'bombas' must be a natural number, not True"]
    assert problemas(dict(nivel((0, 0)), cajas={(0.5, 1)})) == [
        "'cajas' holds (0.5, 1), which is not a position (x, y) of ints"]


def test_seed_000_level_has_no_bombs():
    n = nivel((0, 0))
    del n["bombas"]
    assert Nivel.desde(n).bombas() == 0


# -- Sokoban ----------------------------------------------------------------------------

def test_gano_is_set_equality_and_updates_in_place():
    s = Sokoban(nivel((0, 0), cajas={(1, 0), (1, 1)}, depositos={(2, 0), (1, 1)}))
    assert not s.gano() and not s.every_depot_has_box()
    s.mover(A.DERECHA)
    assert s.gano() and s.cajas() == s.depositos()
    s.deshacer()
    assert not s.gano() and s.cajas() == {(1, 0), (1, 1)}


def test_hay_cajas_and_drawing():
    s = Sokoban(nivel((1, 1), cajas={(2, 1)}, paredes={(0, 1)}, depositos={(1, 1)}))
    assert s.hay_cajas([(2, 1)]) and not s.hay_cajas([(2, 1), (3, 1)]) and s.hay_cajas([])
    assert s.dibujo() == "#+$"


def test_copia_is_independent_and_keeps_destroyed_walls_gone():
    s = Sokoban(nivel((0, 0), cajas={(1, 0)}, paredes={(0, 3), (5, 5)}, depositos={(2, 0)},
                      bombas=1))
    s.tirar_bomba()
    c = s.copia()
    assert c.paredes() == {(5, 5)} and c.history_length() == 0 and c.bombas() == 0
    c.mover(A.DERECHA)
    assert s.persona() == (0, 0) and s.cajas() == {(1, 0)}
    assert c.persona() == (1, 0) and c.gano()
    assert not c.deshacer() or c.persona() == (0, 0)


# -- Juego ------------------------------------------------------------------------------

def test_juego_goes_on_after_a_win_and_history_does_not_cross():
    n0 = nivel((0, 0), cajas={(1, 0)}, depositos={(2, 0)})
    n1 = nivel((5, 5), bombas=2)
    j = Juego([n0, n1])
    assert j.indice_nivel() == 0 and j.niveles_pendientes() == (n1,) and j.hay_pendientes()
    j.mover(A.DERECHA)                        # wins level 0
    assert j.indice_nivel() == 1 and j.persona() == (5, 5) and j.bombas() == 2
    assert j.niveles_pendientes() == () and len(j.niveles_pendientes()) == 0
    assert not j.deshacer() and j.persona() == (5, 5)
    # The last level: winning it (it is won already, no boxes) stays there.
    assert j.gano()
    assert j.mover_total(A.ARRIBA) and j.indice_nivel() == 1


def test_juego_never_changes_the_levels_it_was_given():
    n0 = nivel((0, 0), cajas={(1, 0)}, depositos={(2, 0)})
    antes = dict(n0)
    j = Juego((n0,))
    j.mover(A.DERECHA)
    assert n0 == antes


def test_niveles_pendientes_view():
    ns = [nivel((i, 0)) for i in range(4)]
    v = Juego(ns).niveles_pendientes()
    assert len(v) == 3 and v[0] is ns[1] and v[-1] is ns[3] and v[1:] == (ns[2], ns[3])
    assert list(v) == ns[1:] and v == ns[1:] and v != ns
    with pytest.raises(IndexError):
        v[3]


def test_juego_refuses_bad_input_even_with_contracts_off():
    with pytest.raises(PreconditionError):
        Juego([])
    with pytest.raises(PreconditionError, match="level 0: not a valid level: 'personaje'"):
        Juego([nivel((0, 0)) | {"personaje": frozenset()}])


# -- soko: a course test file run the way students run it -----------------------------

TEST_FILE = Path(__file__).with_name("soko_test.py")


def _env():
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def test_course_test_file_passes_unchanged_as_a_script(tmp_path):
    shutil.copy(TEST_FILE, tmp_path / "soko_test.py")
    out = subprocess.run([sys.executable, "soko_test.py"], cwd=tmp_path, env=_env(),
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "Todo OK :)"


def test_python_m_soko_wins_over_a_local_soko_py(tmp_path):
    shutil.copy(TEST_FILE, tmp_path / "soko_test.py")
    (tmp_path / "soko.py").write_text("raise SystemExit('the student soko.py was imported')\n")
    plain = subprocess.run([sys.executable, "soko_test.py"], cwd=tmp_path, env=_env(),
                           capture_output=True, text=True)
    assert plain.returncode != 0 and "student soko.py" in plain.stderr
    ours = subprocess.run([sys.executable, "-P", "-m", "soko", "soko_test.py"], cwd=tmp_path,
                          env=_env(), capture_output=True, text=True)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout.strip() == "Todo OK :)"


def test_python_m_soko_usage_errors(tmp_path):
    none = subprocess.run([sys.executable, "-m", "soko"], cwd=tmp_path, env=_env(),
                          capture_output=True, text=True)
    assert none.returncode == 2 and "usage: python -P -m soko TEST_FILE" in none.stderr
    missing = subprocess.run([sys.executable, "-m", "soko", "nope.py"], cwd=tmp_path,
                             env=_env(), capture_output=True, text=True)
    assert missing.returncode == 2 and "nope.py: no such file" in missing.stderr
    assert "Traceback" not in missing.stderr


# -- contracts off: the very same behaviour, minus the checks ---------------------------

_OFF_PROBE = r"""
import random
import impl.contracts as c
assert not c.ENABLED
from impl.sokoban import Sokoban
from spec import sokoban as ss
from spec.tipos import ACCIONES
rng = random.Random(7)
for k in range(40):
    cells = rng.sample([(x, y) for x in range(-3, 4) for y in range(-3, 4)], 12)
    nb = rng.randint(0, 3)
    n = {"personaje": frozenset(cells[:1]), "cajas": frozenset(cells[1:1 + nb]),
         "paredes": frozenset(cells[1 + nb:8]), "depósitos": frozenset(cells[8:8 + nb]),
         "bombas": rng.randint(0, 2)}
    s, r = Sokoban(n), ss.nuevo_soko(n)
    for _ in range(60):
        op = rng.random()
        if op < 0.7:
            a = rng.choice(ACCIONES)
            s.mover_total(a); r = ss.mover_total(r, a)
        elif op < 0.8 and r.bombas > 0:
            s.tirar_bomba(); r = ss.tirar_bomba(r)
        else:
            s.deshacer(); r = ss.deshacer(r)
        assert (s.persona(), s.cajas(), s.paredes(), s.bombas(), s.gano()) == (
            r.persona, r.cajas, r.paredes, r.bombas, ss.gano(r)), k
print("ok")
"""


def test_contracts_off_behaves_the_same():
    env = dict(_env(), SOKOBAN_CONTRACTS="0")
    out = subprocess.run([sys.executable, "-c", _OFF_PROBE], env=env, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_grids_survive_deepcopy_and_pickle():
    import copy
    import pickle

    import soko
    g = soko.crear_grilla(["#####", "#@$.#", "#####"])
    for h in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert h == g and hash(h) == hash(g) and h is not g
        assert soko.juego_ganado(soko.mover(h, (1, 0)))
    assert not soko.juego_ganado(g)
