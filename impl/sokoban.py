"""Módulo Sokoban (seed 001): one level in play, with the history for ``deshacer``.

Representation (ours)::

    Sokoban se representa con estr
    donde estr es tupla < nivel:            Nivel
                          historial:        pila(acción)   -- a Python list used as a stack
                          bombas_iniciales: nat >

    acción ∈ { ⟨d, false⟩ (moved in direction d),
               ⟨d, true⟩  (moved in direction d pushing a box),
               bomba }

    Rep: bombas_iniciales - #bombas(nivel) = #explosiones(mapa(nivel))
         = #{e ∈ historial | e = bomba}   (checked as the first equality)
         and the two O(C) parts of Nivel's Rep (no box on a standing wall; the
         counter of boxes on depots), checked here, once per operation.

Seed 001 keeps three parallel lists (``acciónFue``, ``acciónMovióCaja``,
``cajaMovida``: an iterator to the pushed box); a box is named by its
position here, so one stack of small immutable records is enough: the box
pushed by ``⟨d, true⟩`` is the one now at ``persona ⊕ d``.

Complexity (P walls, C boxes, D depots, B bombs thrown, H actions in the
history; "O(1)" is expected time of a hash look-up; the list append behind
``mover``/``tirar_bomba`` is amortized O(1))::

    operation              seed 001                 ours
    nuevoS(n)              O(1) (aliases the level)  O(1) from a Nivel; from a dict
                                                    O(P + C + D) (validates it)
    persona, #bombas       O(1)                     O(1)
    hayCaja?(s, c)         O(C)                     O(1)
    hayPared?(s, c)        O(B + log P)             O(1)
    hayDepósito?(s, c)     O(log D)                 O(1)
    noHayParedNiCaja?      O(B + log P + C)         O(1)
    puedeMover?(s, d)      O(B + log P + C)         O(1)
    mover(s, d)            O(C) (+ its pre)         O(1) amortized
    moverTotal(s, d)       --                       O(1) amortized
    tirarBomba(s)          O(1)                     O(1) amortized
    deshacer(s)            O(1)                     O(1)
    ganó?(s)               O(C²)                    O(1)
    hayCajas?(s, cs)       O(C²)                    O(#cs)
    cajas, paredes, depósitos (whole sets)  --      O(C), O(P) after a bomb else O(1), O(1)

None of ours depends on P, C, D, B or H. With contracts on (the default
under plain ``python``), every public call also checks this class's
invariants (O(C), before and after) and the postconditions below (some
snapshot the boxes: O(C); ``tirar_bomba``'s is O(P)): teaching mode.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from impl import direccion
from impl.contracts import ensure, invariant, require, snapshot
from impl.mapa import Mapa
from impl.nivel import Nivel, pared_en_pie
from levels.drawing import bounds, draw_rows
from spec.tipos import Accion, Posicion

#: The record of a bomb in the history (and what :meth:`Sokoban.ultima_accion`
#: returns after one).
BOMBA = "bomba"

# Pre-built history records: ⟨d, false⟩ and ⟨d, true⟩ for each direction.
_MOVIDA = {a: (a, False) for a in Accion}
_EMPUJE = {a: (a, True) for a in Accion}


def _caja_movida(antes: frozenset, desde: Posicion, hasta: Posicion) -> frozenset:
    """The set of boxes ``antes`` with the box at ``desde`` moved to ``hasta``."""
    return (antes - {desde}) | {hasta}


def _sin_fila_ni_columna(paredes: frozenset, c: Posicion) -> frozenset:
    """The walls of ``paredes`` outside ``c``'s column and row (O(P))."""
    return frozenset(w for w in paredes if w[0] != c[0] and w[1] != c[1])


def _cajas_tras_deshacer(cajas: frozenset, persona: Posicion, registro) -> frozenset:
    """The boxes after undoing ``registro`` from a position with ``cajas`` and
    the character at ``persona``: a push's box comes back to ``persona``."""
    if registro is None or registro is BOMBA or not registro[1]:
        return cajas
    return _caja_movida(cajas, direccion.suma(persona, registro[0]), persona)


@invariant(lambda self: not any(pared_en_pie(self._nivel._mapa, c) for c in self._nivel._cajas),
           "no box is on a standing wall")
@invariant(lambda self: self._nivel._en_deposito
           == len(self._nivel._mapa._depositos.intersection(self._nivel._cajas)),
           "the counter of boxes on depots is the number of boxes on depots")
@invariant(lambda self: self._bombas_iniciales - self._nivel._bombas
           == len(self._nivel._mapa._explosiones),
           "every bomb used is one explosion on the map")
@invariant(lambda self: len(self._historial) >= len(self._nivel._mapa._explosiones),
           "every explosion is in the history")
class Sokoban:
    """One level of the extended game, played in place (mutable)."""

    __slots__ = ("_nivel", "_historial", "_bombas_iniciales")

    def __init__(self, nivel: "Mapping | Nivel"):
        """``nuevoS(n)``: ``nivel`` is a level dict (``NivelExtendido``, or seed
        000's ``Nivel``: 0 bombs) or an :class:`~impl.nivel.Nivel`, which the
        Sokoban then owns and changes (as seed 001's aliasing does). Raises
        :class:`spec.PreconditionError` naming the problems if a dict is not a
        valid level."""
        self._nivel = nivel if isinstance(nivel, Nivel) else Nivel.desde(nivel)
        self._historial: list = []
        self._bombas_iniciales = self._nivel.bombas()

    # -- observers ---------------------------------------------------------

    def nivel(self) -> Nivel:
        """The level being played, by reference. O(1)."""
        return self._nivel

    def mapa(self) -> Mapa:
        """``mapa(s)``, by reference. O(1)."""
        return self._nivel.mapa()

    def persona(self) -> Posicion:
        """``persona(s)``. O(1)."""
        return self._nivel.persona()

    def cajas(self) -> frozenset[Posicion]:
        """``cajas(s)``: a frozen copy. O(C)."""
        return self._nivel.cajas()

    def paredes(self) -> frozenset[Posicion]:
        """The walls still standing. O(1) before any bomb, O(P) after."""
        return self._nivel.mapa().paredes()

    def depositos(self) -> frozenset[Posicion]:
        """``depósitos(s)``. O(1)."""
        return self._nivel.mapa().depositos()

    def hay_pared(self, c: Posicion) -> bool:
        """``hayPared?(s, c)``: a wall stands at ``c``. O(1)."""
        return self._nivel.mapa().hay_pared(c)

    def hay_deposito(self, c: Posicion) -> bool:
        """``hayDepósito?(s, c)``. O(1)."""
        return self._nivel.mapa().hay_deposito(c)

    def hay_caja(self, c: Posicion) -> bool:
        """``hayCaja?(s, c)``. O(1) (seed 001: O(C))."""
        return self._nivel.hay_caja(c)

    def hay_cajas(self, cs: Iterable[Posicion]) -> bool:
        """``hayCajas?(s, cs)``: a box at every position of ``cs``. O(#cs)."""
        hay = self._nivel.hay_caja
        return all(hay(c) for c in cs)

    def bombas(self) -> int:
        """``#bombas(s)``. O(1)."""
        return self._nivel.bombas()

    def gano(self) -> bool:
        """``ganó?(s) ≡ cajas(s) = depósitos(s)``. O(1) (seed 001: O(C²)):
        the sets are equal iff they have the same size and every box is on a
        depot."""
        n = self._nivel
        d = len(n.mapa().depositos())
        return n.cajas_en_deposito() == d and n.cantidad_cajas() == d

    def every_depot_has_box(self) -> bool:
        """Every depot has a box on it (seed 002's ``juego_ganado``; boxes may
        outnumber depots). O(1)."""
        n = self._nivel
        return n.cajas_en_deposito() == len(n.mapa().depositos())

    def no_hay_pared_ni_caja(self, c: Posicion) -> bool:
        """``noHayParedNiCaja?(s, c)``. O(1)."""
        return not self._nivel.hay_caja(c) and not self._nivel.mapa().hay_pared(c)

    def puede_mover(self, a: Accion) -> bool:
        """``puedeMover?(s, d)``: the next cell is free, or holds a box whose
        next cell is free. O(1)."""
        nivel = self._nivel
        dx, dy = a._value_
        x, y = nivel.persona()
        frente = (x + dx, y + dy)
        mapa = nivel.mapa()
        if not nivel.hay_caja(frente):
            return not mapa.hay_pared(frente)
        detras = (x + 2 * dx, y + 2 * dy)
        return not nivel.hay_caja(detras) and not mapa.hay_pared(detras)

    def history_length(self) -> int:
        """How many actions (moves and bombs) ``deshacer`` can undo. O(1)."""
        return len(self._historial)

    def ultima_accion(self) -> "Accion | str | None":
        """What ``deshacer`` would undo: the direction of the last move,
        :data:`BOMBA`, or ``None`` with no history. O(1)."""
        if not self._historial:
            return None
        e = self._historial[-1]
        return BOMBA if e is BOMBA else e[0]

    # -- generators (in place) ----------------------------------------------

    @require(lambda self, a: self.puede_mover(a),
             "puede_mover(a): the move is not blocked (seed 001's precondition of mover)")
    @snapshot(lambda self: self.persona(), name="persona")
    @snapshot(lambda self: self.cajas(), name="cajas")
    @snapshot(lambda self: self.bombas(), name="bombas")
    @snapshot(lambda self: self.history_length(), name="acciones")
    @ensure(lambda self, a, OLD: self.persona() == direccion.suma(OLD.persona, a),
            "the character moved one step in direction a")
    @ensure(lambda self, a, OLD: self.cajas() == (
        _caja_movida(OLD.cajas, self.persona(), direccion.suma(self.persona(), a))
        if self.persona() in OLD.cajas else OLD.cajas),
            "the box in the way (if any) moved one step in direction a; no other box moved")
    @ensure(lambda self, OLD: self.bombas() == OLD.bombas, "the bombs left did not change")
    @ensure(lambda self, OLD: self.history_length() == OLD.acciones + 1,
            "the move was recorded for deshacer")
    def mover(self, a: Accion) -> None:
        """``mover(s, d)`` (pre: ``puede_mover(d)``): one step, pushing the box
        in the way if there is one. O(1) amortized (seed 001: O(C))."""
        nivel = self._nivel
        dx, dy = a._value_
        x, y = nivel.persona()
        frente = (x + dx, y + dy)
        if nivel.hay_caja(frente):
            nivel.modificar_caja(frente, (x + 2 * dx, y + 2 * dy))
            self._historial.append(_EMPUJE[a])
        else:
            self._historial.append(_MOVIDA[a])
        nivel.modificar_persona(frente)

    @snapshot(lambda self, a: self.puede_mover(a), name="podia")
    @snapshot(lambda self: self.persona(), name="persona")
    @snapshot(lambda self: self.history_length(), name="acciones")
    @ensure(lambda result, OLD: result == OLD.podia, "result tells whether the move was possible")
    @ensure(lambda self, result, OLD: result or (
        self.persona() == OLD.persona and self.history_length() == OLD.acciones),
            "a blocked move changes nothing and records nothing")
    @ensure(lambda self, result, OLD: not result or (
        self.persona() != OLD.persona and self.history_length() == OLD.acciones + 1),
            "a possible move moves the character and is recorded")
    def mover_total(self, a: Accion) -> bool:
        """``moverTotal(s, d)``: ``mover`` if possible, else nothing (and
        nothing recorded). Returns whether it moved. O(1) amortized."""
        if self.puede_mover(a):
            self.mover(a)
            return True
        return False

    @require(lambda self: self.bombas() > 0,
             "bombas() > 0: a bomb is left (seed 001's precondition of tirarBomba)")
    @snapshot(lambda self: self.persona(), name="persona")
    @snapshot(lambda self: self.cajas(), name="cajas")
    @snapshot(lambda self: self.paredes(), name="paredes")
    @snapshot(lambda self: self.bombas(), name="bombas")
    @snapshot(lambda self: self.history_length(), name="acciones")
    @ensure(lambda self, OLD: self.bombas() == OLD.bombas - 1, "one bomb fewer")
    @ensure(lambda self, OLD: self.persona() == OLD.persona and self.cajas() == OLD.cajas,
            "the character and the boxes did not move")
    @ensure(lambda self, OLD: self.paredes() == _sin_fila_ni_columna(OLD.paredes, OLD.persona),
            "the walls in the character's row and column are gone, and only those")
    @ensure(lambda self, OLD: self.history_length() == OLD.acciones + 1,
            "the bomb was recorded for deshacer")
    def tirar_bomba(self) -> None:
        """``tirarBomba(s)`` (pre: a bomb left): destroys every wall in the
        character's row and column. O(1) amortized."""
        nivel = self._nivel
        nivel.usar_bomba()
        nivel.mapa().tirar_bomba(nivel.persona())
        self._historial.append(BOMBA)

    @snapshot(lambda self: self.ultima_accion(), name="ultima")
    @snapshot(lambda self: self._historial[-1] if self._historial else None, name="registro")
    @snapshot(lambda self: self.cajas(), name="cajas")
    @snapshot(lambda self: self.persona(), name="persona")
    @snapshot(lambda self: self.bombas(), name="bombas")
    @snapshot(lambda self: self.history_length(), name="acciones")
    @ensure(lambda self, result, OLD: result == (OLD.acciones > 0),
            "result tells whether there was something to undo")
    @ensure(lambda self, OLD: self.history_length() == max(OLD.acciones - 1, 0),
            "the last action left the history")
    @ensure(lambda self, OLD: self.bombas() == OLD.bombas + (OLD.ultima == BOMBA),
            "undoing a bomb gives it back; nothing else changes the bombs")
    @ensure(lambda self, OLD: self.persona() == (
        direccion.resta(OLD.persona, OLD.ultima) if isinstance(OLD.ultima, Accion)
        else OLD.persona),
            "undoing a move takes the character one step back; nothing else moves it")
    @ensure(lambda self, OLD: self.cajas() == _cajas_tras_deshacer(OLD.cajas, OLD.persona,
                                                                  OLD.registro),
            "undoing a push brings its box back; no other box moves")
    def deshacer(self) -> bool:
        """``deshacer(s)``: undoes the last move or bomb; with no history,
        nothing. Returns whether something was undone. O(1)."""
        if not self._historial:
            return False
        e = self._historial.pop()
        nivel = self._nivel
        if e is BOMBA:
            nivel.mapa().borrar_ultima_explosion()
            nivel.devolver_bomba()
            return True
        a, empujo = e
        dx, dy = a._value_
        x, y = nivel.persona()
        nivel.modificar_persona((x - dx, y - dy))
        if empujo:
            nivel.modificar_caja((x + dx, y + dy), (x, y))
        return True

    # -- other ---------------------------------------------------------------

    def copia(self) -> "Sokoban":
        """An independent Sokoban in the same position, starting afresh: an
        empty history, the walls destroyed so far simply gone (see
        :meth:`Nivel.copia`). O(C) when no bomb was thrown, else O(C + P)."""
        s = Sokoban.__new__(Sokoban)
        s._nivel = self._nivel.copia()
        s._historial = []
        s._bombas_iniciales = s._nivel.bombas()
        return s

    def dibujo(self) -> str:
        """The level drawn in XSB characters (``#$@.*+`` and space) over the
        bounding box of everything in it. O(area)."""
        n = self._nivel
        m = n.mapa()
        paredes, depositos, cajas = m.paredes(), m.depositos(), n._cajas
        persona = (n.persona(),)
        window = bounds([*paredes, *depositos, *cajas, *persona])
        return "\n".join(fila.rstrip() for fila in
                         draw_rows(paredes, cajas, depositos, persona, window))

    def __str__(self) -> str:
        return self.dibujo()

    def __repr__(self) -> str:
        n = self._nivel
        return (f"Sokoban(persona={n._persona}, cajas={len(n._cajas)}, "
                f"en_deposito={n._en_deposito}, bombas={n._bombas}, "
                f"acciones={len(self._historial)})")
