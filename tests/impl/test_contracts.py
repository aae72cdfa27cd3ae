"""The contracts of impl in detail: the messages of the seed's preconditions,
silence when kept, and the on/off switch that removes them entirely.
(Every single contract firing alone: ``test_every_contract.py``.)"""

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
def test_deshacer_postcondition_fires(monkeypatch):
    monkeypatch.setattr(Nivel, "devolver_bomba", lambda self: None)
    s = Sokoban(nivel())
    s.tirar_bomba()
    with pytest.raises(PostconditionViolation) as e:
        s.deshacer()
    assert "undoing a bomb gives it back" in str(e.value)
    assert "OLD.bombas was 0" in str(e.value)


# -- invariants (private state corrupted on purpose) ----------------------------

@needs_on
def test_invariant_names_values():
    s = Sokoban(nivel())
    s._nivel._en_deposito = 5
    with pytest.raises(InvariantViolation) as e:
        s.gano()
    msg = str(e.value)
    assert "self._nivel._en_deposito was 5" in msg
    assert "len(self._nivel._mapa._depositos.intersection(self._nivel._cajas)) was 0" in msg

