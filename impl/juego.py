"""Módulo Juego (seed 001): a sequence of levels, played one after another.

Representation (ours)::

    Juego se representa con estr
    donde estr es tupla < niveles:    secu(NivelExtendido)   -- the caller's levels, a tuple
                          por_jugar:  arreglo(Nivel)         -- built up front, one per level
                          indice:     nat                    -- the level in play
                          soko:       Sokoban >              -- playing niveles[indice]

    Rep: 0 ≤ indice < #niveles; por_jugar[i] is niveles[i] made a Nivel for
         i > indice (None for the levels already handed to a Sokoban).

Seed 001 keeps a linked list of levels, an iterator to the current one and a
Sokoban made from it, with ``nuevoS`` in O(1) by aliasing the level. We build
every level's :class:`~impl.nivel.Nivel` once, in the constructor (reading
the input, O(total size)), so that the move that wins a level starts the next
one in O(1) as well: no move ever pays for the size of a level.

Complexity (L levels, N the total size of all levels)::

    operation              seed 001                       ours
    nuevoJ(ns)             O(1) (aliases ns)              O(N) (validates and builds every level)
    nivelActual(j)         O(1)                           O(1)
    nivelesPendientes(j)   O(1) (an iterator)             O(1) (a read-only view)
    índiceNivel(j)         --                             O(1)
    mover(j, d)            O(C²): it asks ganó? (O(C²))    O(1) amortized, also when it wins
                           after each move (it states
                           O(B + C + log P + log D))
    tirarBomba(j)          O(1)                           O(1) amortized
    deshacer(j)            O(1)                           O(1)
    observers of the current level: as in :mod:`impl.sokoban` (O(1) each)

The history does not cross levels: after a move that wins and advances, the
new level has no history, so ``deshacer`` changes nothing (seed 001, erratum
E11).
"""

from __future__ import annotations

from collections.abc import Sequence

from impl.contracts import ensure, invariant, require, snapshot
from impl.nivel import Nivel
from impl.sokoban import Sokoban
from spec import PreconditionError
from spec.tipos import Accion, NivelExtendido, Posicion


class NivelesPendientes(Sequence):
    """A read-only view of the levels after the current one (O(1) to make;
    equal to any sequence with the same levels in the same order)."""

    __slots__ = ("_niveles", "_desde")

    def __init__(self, niveles: tuple, desde: int):
        self._niveles = niveles
        self._desde = desde

    def __len__(self) -> int:
        return len(self._niveles) - self._desde

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return tuple(self)[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("pending level index out of range")
        return self._niveles[self._desde + i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]  # levels are dicts: not hashable

    def __repr__(self) -> str:
        return f"NivelesPendientes({len(self)} levels)"


@invariant(lambda self: 0 <= self._indice < len(self._niveles),
           "the current level is one of the sequence")
@invariant(lambda self: not 0 <= self._indice < len(self._por_jugar)
           or self._por_jugar[self._indice] is None,
           "the current level was handed to the Sokoban")
class Juego:
    """seed 001's Juego: mutable, played in place."""

    __slots__ = ("_niveles", "_por_jugar", "_indice", "_soko")

    @require(lambda niveles: len(niveles) > 0,
             "¬vacía?(ns): the sequence of levels is not empty (seed 001's precondition of nuevoJ)")
    def __init__(self, niveles: Sequence[NivelExtendido]):
        """``nuevoJ(ns)``. Raises :class:`spec.PreconditionError` (naming the
        level and what is wrong with it) if ``ns`` is empty or a level is not
        valid, also with contracts off: construction reads the input anyway."""
        niveles = tuple(niveles)
        if not niveles:
            raise PreconditionError("nuevo_juego: the sequence of levels is empty")
        por_jugar: list = []
        for i, n in enumerate(niveles):
            try:
                por_jugar.append(Nivel.desde(n))
            except PreconditionError as e:
                raise PreconditionError(f"nuevo_juego: level {i}: {e}") from None
        self._niveles = niveles
        self._por_jugar = por_jugar
        self._indice = 0
        self._soko = self._tomar(0)

    def _tomar(self, i: int) -> Sokoban:
        nivel = self._por_jugar[i]
        self._por_jugar[i] = None
        return Sokoban(nivel)

    # -- observers ---------------------------------------------------------

    def nivel_actual(self) -> Sokoban:
        """``nivelActual(j)``: the Sokoban in play, by reference. O(1)."""
        return self._soko

    def niveles_pendientes(self) -> NivelesPendientes:
        """``nivelesPendientes(j)``: the levels after the current one, as a
        read-only view. O(1)."""
        return NivelesPendientes(self._niveles, self._indice + 1)

    def indice_nivel(self) -> int:
        """0-based place of the current level. O(1)."""
        return self._indice

    def hay_pendientes(self) -> bool:
        """Whether a level comes after the current one. O(1)."""
        return self._indice + 1 < len(self._niveles)

    def puede_mover(self, a: Accion) -> bool:
        """``puedeMover?(nivelActual(j), a)``. O(1)."""
        return self._soko.puede_mover(a)

    def persona(self) -> Posicion:
        return self._soko.persona()

    def cajas(self) -> frozenset[Posicion]:
        return self._soko.cajas()

    def paredes(self) -> frozenset[Posicion]:
        return self._soko.paredes()

    def depositos(self) -> frozenset[Posicion]:
        return self._soko.depositos()

    def hay_pared(self, c: Posicion) -> bool:
        return self._soko.hay_pared(c)

    def hay_deposito(self, c: Posicion) -> bool:
        return self._soko.hay_deposito(c)

    def hay_caja(self, c: Posicion) -> bool:
        return self._soko.hay_caja(c)

    def bombas(self) -> int:
        return self._soko.bombas()

    def gano(self) -> bool:
        """``ganó?(nivelActual(j))``. O(1)."""
        return self._soko.gano()

    # -- generators (in place) ----------------------------------------------

    @require(lambda self, a: self.puede_mover(a),
             "puede_mover(a): the move is not blocked (seed 001's precondition of mover)")
    @snapshot(lambda self: self.indice_nivel(), name="indice")
    @ensure(lambda self, OLD: self.indice_nivel() in (OLD.indice, OLD.indice + 1),
            "the game stays on its level or goes on to the next one")
    @ensure(lambda self, OLD: self.indice_nivel() == OLD.indice
            or self.nivel_actual().history_length() == 0,
            "after advancing, the next level starts afresh (no history)")
    @ensure(lambda self, OLD: self.indice_nivel() != OLD.indice
            or not (self.gano() and self.hay_pendientes()),
            "a move that wins goes on to the next level when there is one")
    def mover(self, a: Accion) -> None:
        """``mover(j, d)`` (pre: ``puede_mover(d)``); if the move wins the
        level and another follows, play goes on with that one. O(1) amortized."""
        soko = self._soko
        soko.mover(a)
        if soko.gano() and self._indice + 1 < len(self._niveles):
            self._indice += 1
            self._soko = self._tomar(self._indice)

    def mover_total(self, a: Accion) -> bool:
        """``moverTotal(j, d)``: ``mover`` if possible, else nothing. Returns
        whether it moved. O(1) amortized."""
        if self._soko.puede_mover(a):
            self.mover(a)
            return True
        return False

    @require(lambda self: self.bombas() > 0,
             "bombas() > 0: a bomb is left (seed 001's precondition of tirarBomba)")
    def tirar_bomba(self) -> None:
        """``tirarBomba(j)``: on the current level. O(1) amortized."""
        self._soko.tirar_bomba()

    def deshacer(self) -> bool:
        """``deshacer(j)``: undoes the current level's last action (none right
        after advancing). Returns whether something was undone. O(1)."""
        return self._soko.deshacer()

    def __repr__(self) -> str:
        return (f"Juego(indice={self._indice}, niveles={len(self._niveles)}, "
                f"soko={self._soko!r})")
