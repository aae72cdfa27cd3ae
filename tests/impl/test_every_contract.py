"""Every contract of impl fires when broken, and only it.

The contracts are listed from the classes themselves (icontract keeps them
on the wrappers), so a new contract without a case here fails
``test_every_contract_has_a_case``. Each case breaks exactly one contract:
by giving a call arguments that break a precondition, by corrupting private
state (an invariant), or by swapping the *body* of the method for a broken
one while its contracts stay in place (a postcondition). The violation must
be of the right kind and name the contract's description and the values.
"""

from __future__ import annotations

import inspect
import types

import icontract._checkers as checkers
import pytest

import impl.contracts as contracts
import impl.juego
import impl.mapa
import impl.nivel
import impl.sokoban
from impl.contracts import InvariantViolation, PostconditionViolation, PreconditionViolation
from impl.juego import Juego
from impl.mapa import Mapa
from impl.nivel import Nivel
from impl.sokoban import Sokoban
from spec.tipos import Accion

pytestmark = pytest.mark.skipif(not contracts.ENABLED, reason="contracts are off in this interpreter")

A = Accion
CLASSES = (Mapa, Nivel, Sokoban, Juego)


def all_contracts() -> list[tuple[str, str, str]]:
    """(kind, where, description) of every contract of impl's classes."""
    out = []
    for cls in CLASSES:
        for inv in getattr(cls, "__invariants__", []):
            out.append(("invariant", cls.__name__, inv.description))
        for name, f in vars(cls).items():
            checker = checkers.find_checker(f) if callable(f) else None
            if checker is None:
                continue
            for group in getattr(checker, "__preconditions__", []):
                for c in group:
                    out.append(("pre", f"{cls.__name__}.{name}", c.description))
            for c in getattr(checker, "__postconditions__", []):
                out.append(("post", f"{cls.__name__}.{name}", c.description))
    return out


def nivel(persona=(1, 1), cajas=((2, 1),), paredes=((0, 1), (4, 1), (1, 0), (1, 3)),
          depositos=((3, 1),), bombas=1):
    return {"personaje": frozenset({persona}), "cajas": frozenset(cajas),
            "paredes": frozenset(paredes), "depósitos": frozenset(depositos), "bombas": bombas}


N = nivel()                                                   # #@$.#  (pushing right wins)
N2 = nivel(cajas=((2, 1), (2, 2)), depositos=((3, 1), (3, 2)))
N0 = nivel(bombas=0)


def sabotage(monkeypatch, cls, name, body):
    """Run ``body`` instead of the method's own code; its contracts stay. In
    ``body``, the global ``_REAL`` is the method's real code."""
    inner = inspect.unwrap(getattr(cls, name))
    real = types.FunctionType(inner.__code__, inner.__globals__, inner.__name__,
                              inner.__defaults__, inner.__closure__)
    monkeypatch.setitem(inner.__globals__, "_REAL", real)
    monkeypatch.setattr(inner, "__code__", body.__code__)


# Each case: description -> (violation class, a function of monkeypatch that breaks it).
CASES = {}


def case(description, kind):
    def register(f):
        CASES[description] = (kind, f)
        return f
    return register


# -- Mapa ---------------------------------------------------------------------

@case("no wall shares a cell with a depot", InvariantViolation)
def _(mp):
    Mapa(frozenset({(0, 0)}), frozenset({(0, 0)}))


@case("the bombed-column and bombed-row counters match the explosions", InvariantViolation)
def _(mp):
    m = Mapa(frozenset(), frozenset())
    m._columnas_voladas[9] = 1
    m.hay_pared((0, 0))


@case("no wall stands where the bomb went off", PostconditionViolation)
def _(mp):
    def body(self, c):
        self._explosiones.append(c)
    sabotage(mp, Mapa, "tirar_bomba", body)
    Mapa(frozenset({(0, 0)}), frozenset()).tirar_bomba((0, 0))


@case("the bomb at c is the last explosion", PostconditionViolation)
def _(mp):
    def body(self, c):
        pass
    sabotage(mp, Mapa, "tirar_bomba", body)
    Mapa(frozenset(), frozenset()).tirar_bomba((5, 5))


@case("a bomb was thrown", PreconditionViolation)
def _(mp):
    Mapa(frozenset(), frozenset()).borrar_ultima_explosion()


@case("exactly one explosion was removed", PostconditionViolation)
def _(mp):
    def body(self):
        return self._explosiones[-1]
    sabotage(mp, Mapa, "borrar_ultima_explosion", body)
    m = Mapa(frozenset(), frozenset())
    m.tirar_bomba((5, 5))
    m.borrar_ultima_explosion()


# -- Nivel --------------------------------------------------------------------

def _corrupt_nivel(**fields):
    def trigger(mp):
        n = Nivel.desde(N)
        for k, v in fields.items():
            setattr(n, k, v)
        n.persona()
    return trigger


case("the bombs left are a natural number", InvariantViolation)(_corrupt_nivel(_bombas=-1))
case("the number of boxes never changes", InvariantViolation)(
    _corrupt_nivel(_cajas={(2, 1), (7, 7)}))
case("the character is not on a box", InvariantViolation)(_corrupt_nivel(_persona=(2, 1)))
case("the character is not on a standing wall", InvariantViolation)(
    _corrupt_nivel(_persona=(0, 1)))


@case("there is a box at vieja", PreconditionViolation)
def _(mp):
    Nivel.desde(N).modificar_caja((5, 5), (6, 6))


@case("the character is not at nueva", PreconditionViolation)
def _(mp):
    Nivel.desde(N).modificar_caja((2, 1), (1, 1))


@case("no wall stands at nueva", PreconditionViolation)
def _(mp):
    Nivel.desde(N).modificar_caja((2, 1), (0, 1))
    # (modificar_persona's precondition of the same name: see below)


@case("there is no box at nueva", PreconditionViolation)
def _(mp):
    Nivel.desde(N2).modificar_caja((2, 1), (2, 2))


@case("the box moved from vieja to nueva", PostconditionViolation)
def _(mp):
    def body(self, vieja, nueva):
        pass
    sabotage(mp, Nivel, "modificar_caja", body)
    Nivel.desde(N).modificar_caja((2, 1), (2, 2))


@case("the character did not move", PostconditionViolation)
def _(mp):
    def body(self, vieja, nueva):
        self._cajas.remove(vieja)
        self._cajas.add(nueva)
        self._persona = (5, 5)
    sabotage(mp, Nivel, "modificar_caja", body)
    Nivel.desde(N).modificar_caja((2, 1), (2, 2))


@case("the character is at nueva", PostconditionViolation)
def _(mp):
    def body(self, nueva):
        pass
    sabotage(mp, Nivel, "modificar_persona", body)
    Nivel.desde(N).modificar_persona((1, 2))


@case("a bomb is left", PreconditionViolation)
def _(mp):
    Nivel.desde(N0).usar_bomba()


def _nivel_one_bomb_fewer(mp):
    def body(self):
        pass
    sabotage(mp, Nivel, "usar_bomba", body)
    Nivel.desde(N).usar_bomba()


@case("one bomb more", PostconditionViolation)
def _(mp):
    def body(self):
        pass
    sabotage(mp, Nivel, "devolver_bomba", body)
    Nivel.desde(N).devolver_bomba()


# -- Sokoban ------------------------------------------------------------------

@case("every explosion is in the history", InvariantViolation)
def _(mp):
    s = Sokoban(N)
    s.tirar_bomba()
    s._historial.clear()
    s.persona()


@case("every bomb used is one explosion on the map", InvariantViolation)
def _(mp):
    s = Sokoban(N)
    s._nivel._bombas = 0
    s.persona()


@case("the counter of boxes on depots is the number of boxes on depots", InvariantViolation)
def _(mp):
    s = Sokoban(N)
    s._nivel._en_deposito = 5
    s.persona()


@case("no box is on a standing wall", InvariantViolation)
def _(mp):
    s = Sokoban(N)
    s._nivel._cajas.remove((2, 1))
    s._nivel._cajas.add((0, 1))
    s.persona()


@case("puede_mover(a): the move is not blocked (seed 001's precondition of mover)",
      PreconditionViolation)
def _(mp):
    Sokoban(N).mover(A.IZQUIERDA)
    # (Juego.mover's precondition of the same words: test_juego_preconditions)


@case("the move was recorded for deshacer", PostconditionViolation)
def _(mp):
    def body(self, a):
        _REAL(self, a)  # noqa: F821 - set by sabotage
        self._historial.pop()
    sabotage(mp, Sokoban, "mover", body)
    Sokoban(N).mover(A.ABAJO)


@case("the bombs left did not change", PostconditionViolation)
def _(mp):
    def body(self, a):
        _REAL(self, a)  # noqa: F821
        self._nivel._bombas += 1
    sabotage(mp, Sokoban, "mover", body)
    Sokoban(N).mover(A.ABAJO)


@case("the box in the way (if any) moved one step in direction a; no other box moved",
      PostconditionViolation)
def _(mp):
    def body(self, a):
        _REAL(self, a)  # noqa: F821
        self._nivel._cajas.remove((2, 2))
        self._nivel._cajas.add((2, 3))
    sabotage(mp, Sokoban, "mover", body)
    Sokoban(N2).mover(A.ABAJO)


@case("the character moved one step in direction a", PostconditionViolation)
def _(mp):
    def body(self, a):
        _REAL(self, a)  # noqa: F821
        x, y = self._nivel._persona
        self._nivel._persona = (x + 5, y)
    sabotage(mp, Sokoban, "mover", body)
    Sokoban(N).mover(A.ABAJO)


@case("a possible move moves the character and is recorded", PostconditionViolation)
def _(mp):
    def body(self, a):
        return self.puede_mover(a)
    sabotage(mp, Sokoban, "mover_total", body)
    Sokoban(N).mover_total(A.ABAJO)


@case("result tells whether the move was possible", PostconditionViolation)
def _(mp):
    def body(self, a):
        return False
    sabotage(mp, Sokoban, "mover_total", body)
    Sokoban(N).mover_total(A.ABAJO)


@case("a blocked move changes nothing and records nothing", PostconditionViolation)
def _(mp):
    def body(self, a):
        self._historial.append(BOMBA)  # noqa: F821 - impl.sokoban's global
        return False
    sabotage(mp, Sokoban, "mover_total", body)
    Sokoban(N).mover_total(A.IZQUIERDA)


@case("bombas() > 0: a bomb is left (seed 001's precondition of tirarBomba)",
      PreconditionViolation)
def _(mp):
    Sokoban(N0).tirar_bomba()


@case("the bomb was recorded for deshacer", PostconditionViolation)
def _(mp):
    def body(self):
        _REAL(self)  # noqa: F821
        self._historial.pop()
    sabotage(mp, Sokoban, "tirar_bomba", body)
    Sokoban(N).tirar_bomba()


@case("the walls in the character's row and column are gone, and only those",
      PostconditionViolation)
def _(mp):
    def body(self):
        _REAL(self)  # noqa: F821
        x, y = self._nivel._persona
        self._nivel._mapa.tirar_bomba((x + 1, y + 1))
    sabotage(mp, Sokoban, "tirar_bomba", body)
    Sokoban(nivel(paredes=((0, 1), (2, 5)))).tirar_bomba()


@case("the character and the boxes did not move", PostconditionViolation)
def _(mp):
    def body(self):
        _REAL(self)  # noqa: F821
        self._nivel._persona = (1, 2)
    sabotage(mp, Sokoban, "tirar_bomba", body)
    Sokoban(N).tirar_bomba()


@case("one bomb fewer", PostconditionViolation)  # Sokoban's (Nivel's has the same words)
def _sokoban_one_bomb_fewer(mp):
    def body(self):
        _REAL(self)  # noqa: F821
        self._nivel._bombas += 1
    sabotage(mp, Sokoban, "tirar_bomba", body)
    Sokoban(N).tirar_bomba()


def _undo_after_push(body):
    def trigger(mp):
        s = Sokoban(N)
        s.mover(A.DERECHA)                # pushes the box onto the depot
        sabotage(mp, Sokoban, "deshacer", body)
        s.deshacer()
    return trigger


def _box_elsewhere(self):
    _REAL(self)  # noqa: F821
    self._nivel._cajas.remove((2, 1))
    self._nivel._cajas.add((2, 2))


def _character_elsewhere(self):
    _REAL(self)  # noqa: F821
    self._nivel._persona = (1, 2)


def _bomb_from_nowhere(self):
    _REAL(self)  # noqa: F821
    self._nivel._bombas += 1


def _history_kept(self):
    r = _REAL(self)  # noqa: F821
    self._historial.append(BOMBA)  # noqa: F821
    return r


def _says_nothing_undone(self):
    _REAL(self)  # noqa: F821
    return False


case("undoing a push brings its box back; no other box moves", PostconditionViolation)(
    _undo_after_push(_box_elsewhere))
case("undoing a move takes the character one step back; nothing else moves it",
     PostconditionViolation)(_undo_after_push(_character_elsewhere))
case("undoing a bomb gives it back; nothing else changes the bombs", PostconditionViolation)(
    _undo_after_push(_bomb_from_nowhere))
case("the last action left the history", PostconditionViolation)(
    _undo_after_push(_history_kept))
case("result tells whether there was something to undo", PostconditionViolation)(
    _undo_after_push(_says_nothing_undone))


# -- Juego ----------------------------------------------------------------------

@case("the current level was handed to the Sokoban", InvariantViolation)
def _(mp):
    j = Juego([N, N2])
    j._por_jugar[0] = "a level"
    j.persona()


@case("the current level is one of the sequence", InvariantViolation)
def _(mp):
    j = Juego([N, N2])
    j._indice = 3
    j.persona()


@case("¬vacía?(ns): the sequence of levels is not empty (seed 001's precondition of nuevoJ)",
      PreconditionViolation)
def _(mp):
    Juego([])


@case("a move that wins goes on to the next level when there is one", PostconditionViolation)
def _(mp):
    def body(self, a):
        self._soko.mover(a)
    sabotage(mp, Juego, "mover", body)
    Juego([N, N2]).mover(A.DERECHA)


@case("after advancing, the next level starts afresh (no history)", PostconditionViolation)
def _(mp):
    def body(self, a):
        _REAL(self, a)  # noqa: F821
        self._soko._historial.append(self._soko._historial[-1] if self._soko._historial
                                     else (a, False))
    sabotage(mp, Juego, "mover", body)
    Juego([N, N2]).mover(A.DERECHA)


@case("the game stays on its level or goes on to the next one", PostconditionViolation)
def _(mp):
    def body(self, a):
        _REAL(self, a)  # noqa: F821
        self._indice = len(self._niveles) - 1
    sabotage(mp, Juego, "mover", body)
    Juego([N, N2, N2]).mover(A.DERECHA)


# Contracts that share their words with one above get their own trigger too.
EXTRA = [
    ("pre", "Nivel.modificar_persona", "no wall stands at nueva", PreconditionViolation,
     lambda mp: Nivel.desde(N).modificar_persona((0, 1))),
    ("pre", "Nivel.modificar_persona", "there is no box at nueva", PreconditionViolation,
     lambda mp: Nivel.desde(N).modificar_persona((2, 1))),
    ("pre", "Juego.mover", "puede_mover(a): the move is not blocked", PreconditionViolation,
     lambda mp: Juego([N]).mover(A.IZQUIERDA)),
    ("pre", "Juego.tirar_bomba", "bombas() > 0: a bomb is left", PreconditionViolation,
     lambda mp: Juego([N0]).tirar_bomba()),
    ("post", "Nivel.usar_bomba", "one bomb fewer", PostconditionViolation,
     _nivel_one_bomb_fewer),
]


def test_every_contract_has_a_case():
    found = {d for _, _, d in all_contracts()}
    assert found == set(CASES), (sorted(found - set(CASES)), sorted(set(CASES) - found))
    assert len(all_contracts()) >= 50


@pytest.mark.parametrize("description", sorted(CASES))
def test_contract_fires_with_its_words_and_values(monkeypatch, description):
    kind, trigger = CASES[description]
    with pytest.raises(kind) as e:
        trigger(monkeypatch)
    msg = str(e.value)
    assert description in msg
    assert " was " in msg                   # the values of the names in the condition
    assert "File " in msg and "impl" in msg  # where the contract is declared


@pytest.mark.parametrize("kind, where, description, error, trigger", EXTRA,
                         ids=[f"{w}: {d}" for _, w, d, _, _ in EXTRA])
def test_contracts_sharing_words_fire_too(monkeypatch, kind, where, description, error, trigger):
    with pytest.raises(error) as e:
        trigger(monkeypatch)
    assert description in str(e.value) and " was " in str(e.value)
    # The message points at the module that declares the contract.
    module = {"Nivel": "nivel.py", "Juego": "juego.py"}[where.split(".")[0]]
    assert module in str(e.value)


def test_sabotage_is_undone(monkeypatch):
    # The bodies swapped by one test never leak into the next.
    s = Sokoban(N)
    s.mover(A.DERECHA)
    assert s.gano() and s.deshacer() and s.persona() == (1, 1)
