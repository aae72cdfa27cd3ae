"""The contracts of impl: each fires when broken, naming the condition and the
values, and stays silent when kept; the on/off switch removes them entirely."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import impl.contracts as contracts
from impl.contracts import (InvariantViolation, PostconditionViolation,
                            PreconditionViolation, contracts_enabled)
from impl.juego import Juego
from impl.mapa import Mapa
from impl.nivel import Nivel
from impl.sokoban import Sokoban
from spec import PreconditionError
from spec.tipos import Accion

#: The tests that break contracts in this process need them on (the switch
#: tests below run their own interpreters and always run).
needs_on = pytest.mark.skipif(not contracts.ENABLED,
                              reason="contracts are off in this interpreter (-O or SOKOBAN_CONTRACTS=0)")

A = Accion


def nivel(persona=(1, 1), cajas=((2, 1),), paredes=((0, 1), (4, 1), (1, 0), (1, 3)),
          depositos=((3, 1),), bombas=1):
    return {"personaje": frozenset({persona}), "cajas": frozenset(cajas),
            "paredes": frozenset(paredes), "depósitos": frozenset(depositos), "bombas": bombas}


# -- the switch ---------------------------------------------------------------

def test_switch_follows_env_var_then_debug():
    assert contracts_enabled({}, debug=True) is True
    assert contracts_enabled({}, debug=False) is False
    for on in ("1", "on", "TRUE", " yes "):
        assert contracts_enabled({"SOKOBAN_CONTRACTS": on}, debug=False) is True
    for off in ("0", "off", "False", "no"):
        assert contracts_enabled({"SOKOBAN_CONTRACTS": off}, debug=True) is False
    assert contracts_enabled({"SOKOBAN_CONTRACTS": ""}, debug=False) is False


def test_switch_warns_on_unknown_value_and_uses_default():
    with pytest.warns(RuntimeWarning, match="SOKOBAN_CONTRACTS='maybe'"):
        assert contracts_enabled({"SOKOBAN_CONTRACTS": "maybe"}, debug=True) is True


_PROBE = r"""
import json, inspect
import impl.contracts as c
from impl.sokoban import Sokoban
from impl.juego import Juego
from impl.nivel import Nivel
from impl.mapa import Mapa
wrapped = [getattr(getattr(cls, m), "__wrapped__", None) is not None
           for cls, m in [(Sokoban, "mover"), (Sokoban, "persona"), (Juego, "mover"),
                          (Nivel, "modificar_caja"), (Mapa, "hay_pared")]]
n = {"personaje": frozenset({(0, 0)}), "cajas": frozenset(), "paredes": frozenset({(1, 0)}),
     "depósitos": frozenset(), "bombas": 0}
s = Sokoban(n)
try:
    s.tirar_bomba()
    raised = None
except Exception as e:
    raised = type(e).__name__
print(json.dumps({"enabled": c.ENABLED, "wrapped": wrapped, "raised": raised,
                  "invariants": hasattr(Sokoban, "__invariants__")}))
"""


@pytest.mark.parametrize("flags, env, on", [
    ([], None, True),
    (["-O"], None, False),
    ([], "0", False),
    (["-O"], "1", True),
])
def test_off_means_not_applied_at_all(flags, env, on):
    environ = {k: v for k, v in os.environ.items() if k != "SOKOBAN_CONTRACTS"}
    if env is not None:
        environ["SOKOBAN_CONTRACTS"] = env
    out = subprocess.run([sys.executable, *flags, "-c", _PROBE], env=environ,
                         capture_output=True, text=True, check=True).stdout
    got = json.loads(out)
    assert got["enabled"] is on
    assert got["invariants"] is on
    # Off: the methods are the plain functions, no wrapper at all.
    assert got["wrapped"] == [on] * 5
    # On: the broken precondition is reported; off: nothing checks it.
    assert (got["raised"] == "PreconditionViolation") is on


# -- preconditions --------------------------------------------------------------

@needs_on
def test_mover_precondition_names_condition_and_values():
    s = Sokoban(nivel())
    with pytest.raises(PreconditionViolation) as e:
        s.mover(A.IZQUIERDA)          # a wall at (0, 1)
    msg = str(e.value)
    assert "puede_mover(a): the move is not blocked" in msg
    assert "self.puede_mover(a) was False" in msg
    assert "a was <Accion.IZQUIERDA: (-1, 0)>" in msg
    assert "persona=(1, 1)" in msg
    assert "impl/sokoban.py" in msg.replace(os.sep, "/")
    # It is also the spec's error, so callers can catch either.
    assert isinstance(e.value, PreconditionError)
    assert s.persona() == (1, 1) and s.history_length() == 0


@needs_on
def test_mover_precondition_box_against_box():
    s = Sokoban(nivel(cajas=((2, 1), (3, 1)), depositos=((2, 2), (3, 2))))
    with pytest.raises(PreconditionViolation, match="self.puede_mover"):
        s.mover(A.DERECHA)


@needs_on
def test_tirar_bomba_precondition():
    s = Sokoban(nivel(bombas=0))
    with pytest.raises(PreconditionViolation) as e:
        s.tirar_bomba()
    assert "bombas() > 0: a bomb is left" in str(e.value)
    assert "self.bombas() was 0" in str(e.value)


@needs_on
def test_juego_preconditions():
    with pytest.raises(PreconditionViolation) as e:
        Juego([])
    assert "¬vacía?(ns)" in str(e.value) and "len(niveles) was 0" in str(e.value)
    j = Juego([nivel(bombas=0)])
    with pytest.raises(PreconditionViolation, match="self.puede_mover"):
        j.mover(A.IZQUIERDA)
    with pytest.raises(PreconditionViolation, match="self.bombas\\(\\) was 0"):
        j.tirar_bomba()


@needs_on
def test_nivel_preconditions_of_seed_001():
    n = Nivel.desde(nivel())
    with pytest.raises(PreconditionViolation, match="there is a box at vieja"):
        n.modificar_caja((5, 5), (6, 6))
    with pytest.raises(PreconditionViolation, match="the character is not at nueva"):
        n.modificar_caja((2, 1), (1, 1))
    with pytest.raises(PreconditionViolation, match="no wall stands at nueva"):
        n.modificar_persona((0, 1))
    with pytest.raises(PreconditionViolation, match="there is no box at nueva"):
        n.modificar_persona((2, 1))
    with pytest.raises(PreconditionViolation, match="a bomb was thrown"):
        Mapa(frozenset(), frozenset()).borrar_ultima_explosion()


@needs_on
def test_kept_preconditions_are_silent():
    s = Sokoban(nivel())
    s.mover(A.DERECHA)            # push onto the depot
    assert s.gano()
    s.tirar_bomba()
    s.mover(A.ARRIBA)             # the wall at (2, 0)? none: free cell
    assert s.deshacer() and s.deshacer() and s.deshacer()
    assert not s.deshacer()
    assert s.persona() == (1, 1) and s.cajas() == {(2, 1)} and s.bombas() == 1


# -- postconditions (an impl broken on purpose) ---------------------------------

@needs_on
def test_mover_postcondition_fires(monkeypatch):
    monkeypatch.setattr(Nivel, "modificar_persona", lambda self, nueva: None)
    s = Sokoban(nivel())
    with pytest.raises(PostconditionViolation) as e:
        s.mover(A.ABAJO)
    msg = str(e.value)
    assert "the character moved one step in direction a" in msg
    assert "OLD.persona was (1, 1)" in msg and "self.persona() was (1, 1)" in msg


@needs_on
def test_mover_postcondition_on_boxes_fires(monkeypatch):
    def mueve_mal(self, vieja, nueva):
        self._cajas.remove(vieja)
        self._cajas.add((nueva[0], nueva[1] + 1))   # lands one row too low
    monkeypatch.setattr(Nivel, "modificar_caja", mueve_mal)
    s = Sokoban(nivel(paredes=()))
    with pytest.raises(PostconditionViolation, match="no other box moved"):
        s.mover(A.DERECHA)


@needs_on
def test_tirar_bomba_postcondition_fires(monkeypatch):
    monkeypatch.setattr(Mapa, "tirar_bomba", lambda self, c: None)
    s = Sokoban(nivel())
    with pytest.raises(PostconditionViolation, match="the walls in the character's row and column"):
        s.tirar_bomba()


@needs_on
def test_tirar_bomba_postcondition_catches_too_much(monkeypatch):
    original = Mapa.tirar_bomba

    def de_mas(self, c):                     # a second blast one cell off the diagonal
        original(self, c)
        original(self, (c[0] + 1, c[1] + 1))
    monkeypatch.setattr(Mapa, "tirar_bomba", de_mas)
    s = Sokoban(nivel(paredes=((0, 1), (2, 5))))
    with pytest.raises(PostconditionViolation) as e:
        s.tirar_bomba()
    assert "the walls in the character's row and column are gone, and only those" in str(e.value)
    assert "OLD.paredes was frozenset({" in str(e.value)


@needs_on
def test_deshacer_postcondition_on_boxes_fires(monkeypatch):
    s = Sokoban(nivel())
    s.mover(A.DERECHA)                        # pushes the box onto the depot
    monkeypatch.setattr(Nivel, "modificar_caja", lambda self, vieja, nueva: None)
    with pytest.raises(PostconditionViolation) as e:
        s.deshacer()
    assert "undoing a push brings its box back; no other box moves" in str(e.value)
    assert "OLD.registro was (<Accion.DERECHA: (1, 0)>, True)" in str(e.value)


@needs_on
def test_deshacer_postcondition_fires(monkeypatch):
    monkeypatch.setattr(Nivel, "devolver_bomba", lambda self: None)
    s = Sokoban(nivel())
    s.tirar_bomba()
    with pytest.raises(PostconditionViolation) as e:
        s.deshacer()
    assert "undoing a bomb gives it back" in str(e.value)
    assert "OLD.bombas was 0" in str(e.value)


@needs_on
def test_mover_total_postcondition_fires(monkeypatch):
    monkeypatch.setattr(Sokoban, "mover", lambda self, a: None)   # forgets to move
    s = Sokoban(nivel())
    with pytest.raises(PostconditionViolation) as e:
        s.mover_total(A.ABAJO)
    assert "a possible move moves the character and is recorded" in str(e.value)
    assert "result was True" in str(e.value)


@needs_on
def test_juego_postcondition_fires(monkeypatch):
    # A Juego that forgets to go on after a win.
    monkeypatch.setattr(Juego, "hay_pendientes", lambda self: True)
    monkeypatch.setattr(Sokoban, "gano", lambda self: True)
    j = Juego([nivel()])
    with pytest.raises(PostconditionViolation, match="a move that wins goes on"):
        j.mover(A.ABAJO)


# -- invariants (private state corrupted on purpose) ----------------------------

@pytest.mark.parametrize("corrupt, words", [
    (lambda s: (s._nivel._cajas.remove((2, 1)), s._nivel._cajas.add((0, 1))),
     "no box is on a standing wall"),
    (lambda s: setattr(s._nivel, "_persona", (2, 1)), "the character is not on a box"),
    (lambda s: setattr(s._nivel, "_persona", (0, 1)), "the character is not on a standing wall"),
    (lambda s: s._nivel._cajas.add((7, 7)), "the number of boxes never changes"),
    (lambda s: setattr(s._nivel, "_en_deposito", 5), "the counter of boxes on depots"),
    (lambda s: setattr(s._nivel, "_bombas", 0), "every bomb used is one explosion"),
    (lambda s: s._nivel._mapa._columnas_voladas.update({9: 1}), "counters match the explosions"),
])
@needs_on
def test_invariants_fire_with_values(corrupt, words):
    s = Sokoban(nivel())
    corrupt(s)
    with pytest.raises(InvariantViolation) as e:
        s.persona()
        s.hay_pared((0, 1))
        s.mover_total(A.ABAJO)
    assert words in str(e.value)
    assert " was " in str(e.value)


@needs_on
def test_invariant_names_values():
    s = Sokoban(nivel())
    s._nivel._en_deposito = 5
    with pytest.raises(InvariantViolation) as e:
        s.gano()
    msg = str(e.value)
    assert "self._nivel._en_deposito was 5" in msg
    assert "len(self._nivel._mapa._depositos.intersection(self._nivel._cajas)) was 0" in msg


@needs_on
def test_juego_invariant_fires():
    j = Juego([nivel()])
    j._indice = 3
    with pytest.raises(InvariantViolation, match="the current level is one of the sequence"):
        j.persona()
