"""Módulo Mapa (seed 001): walls, depots and the bombs thrown.

Representation (ours)::

    Mapa se representa con estr
    donde estr es tupla < paredes:       conj(coord)  -- hash set, never changes
                          depositos:     conj(coord)  -- hash set, never changes
                          explosiones:   pila(coord)  -- where each bomb went, last on top
                          columnas_voladas: dicc(int → nat)  -- x ↦ bombs thrown at that x
                          filas_voladas:    dicc(int → nat)  -- y ↦ bombs thrown at that y >

    Rep: columnas_voladas and filas_voladas hold only positive counts;
         columnas_voladas[x] = #{e ∈ explosiones | e.x = x} (same for filas).
    Abs: hayPared?(m, c) ≡ c ∈ paredes ∧ c.x ∉ claves(columnas_voladas)
                                       ∧ c.y ∉ claves(filas_voladas)

A bomb at ``e`` destroys every wall with ``x = e.x`` or ``y = e.y``, so a wall
at ``c`` stands iff it was a wall and no bomb was thrown in its column or its
row: two dictionary look-ups instead of seed 001's walk over the list of
explosions. Counting (not just marking) lets ``borrar_ultima_explosion`` undo
exactly one bomb when two were thrown in the same row or column.

Complexity (P walls, D depots, B bombs thrown; "O(1)" is expected time of a
hash look-up)::

    operation                    seed 001              ours
    hayPared?(m, c)              O(B + log P)          O(1)
    hayDepósito?(m, c)           O(log D)              O(1)
    tirarBomba(m, c)             O(1)                  O(1)
    borrarÚltimaExplosión(m)     O(1)                  O(1)
    depósitos(m)                 O(D)                  O(1) (returns the frozen set)
    paredes(m) (standing)        --                    O(1) with no bomb, else O(P)
    building the map             O(P² + D²)            O(1) from frozensets
                                 (P agParedOrd, D agDepósitoOrd)  (else O(P + D))

Seed 001's ``agParedOrd``, ``agDepósitoOrd``, ``buscarPosición`` and
``búsquedaBinaria`` are the machinery of its sorted vectors; with hash sets
there is nothing to keep sorted, and the map is built at once from the
level's sets (``Mapa(paredes, depositos)``), which never change afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable

from impl.contracts import ensure, invariant, require, snapshot
from spec.tipos import Posicion


def _contadores_consistentes(m: "Mapa") -> bool:
    """Rep invariant: the per-column and per-row counters are exactly the
    explosions grouped by x and by y (O(B))."""
    columnas: dict[int, int] = {}
    filas: dict[int, int] = {}
    for x, y in m._explosiones:
        columnas[x] = columnas.get(x, 0) + 1
        filas[y] = filas.get(y, 0) + 1
    return columnas == m._columnas_voladas and filas == m._filas_voladas


@invariant(lambda self: _contadores_consistentes(self),
           "the bombed-column and bombed-row counters match the explosions")
@invariant(lambda self: self._paredes.isdisjoint(self._depositos),
           "no wall shares a cell with a depot")
class Mapa:
    """Walls and depots of one level, and the bombs thrown on it (mutable)."""

    __slots__ = ("_paredes", "_depositos", "_explosiones",
                 "_columnas_voladas", "_filas_voladas")

    def __init__(self, paredes: Iterable[Posicion], depositos: Iterable[Posicion]):
        # frozenset(x) is x itself when x is already a frozenset: O(1).
        self._paredes = frozenset(paredes)
        self._depositos = frozenset(depositos)
        self._explosiones: list[Posicion] = []
        self._columnas_voladas: dict[int, int] = {}
        self._filas_voladas: dict[int, int] = {}

    def hay_pared(self, c: Posicion) -> bool:
        """``hayPared?(m, c)``: a wall stands at ``c`` (not destroyed). O(1)."""
        return (c in self._paredes and c[0] not in self._columnas_voladas
                and c[1] not in self._filas_voladas)

    def hay_deposito(self, c: Posicion) -> bool:
        """``hayDepósito?(m, c)``. O(1)."""
        return c in self._depositos

    @snapshot(lambda self: len(self._explosiones), name="explosiones")
    @ensure(lambda self, c, OLD: len(self._explosiones) == OLD.explosiones + 1
            and self._explosiones[-1:] == [c],
            "the bomb at c is the last explosion")
    @ensure(lambda self, c: not self.hay_pared(c),
            "no wall stands where the bomb went off")
    def tirar_bomba(self, c: Posicion) -> None:
        """``tirarBomba(m, c)``: destroys every wall with ``x = c.x`` or
        ``y = c.y``. O(1)."""
        x, y = c
        self._explosiones.append(c)
        columnas = self._columnas_voladas
        columnas[x] = columnas.get(x, 0) + 1
        filas = self._filas_voladas
        filas[y] = filas.get(y, 0) + 1

    @require(lambda self: self.cantidad_explosiones() > 0, "a bomb was thrown")
    @snapshot(lambda self: len(self._explosiones), name="explosiones")
    @ensure(lambda self, OLD: len(self._explosiones) == OLD.explosiones - 1,
            "exactly one explosion was removed")
    def borrar_ultima_explosion(self) -> Posicion:
        """``borrarÚltimaExplosión(m)``: forgets the last bomb (its walls stand
        again unless another bomb still covers them) and returns where it
        went off. O(1)."""
        c = self._explosiones.pop()
        x, y = c
        columnas = self._columnas_voladas
        if columnas[x] == 1:
            del columnas[x]
        else:
            columnas[x] -= 1
        filas = self._filas_voladas
        if filas[y] == 1:
            del filas[y]
        else:
            filas[y] -= 1
        return c

    def cantidad_explosiones(self) -> int:
        """How many bombs were thrown (and not undone). O(1)."""
        return len(self._explosiones)

    def depositos(self) -> frozenset[Posicion]:
        """``depósitos(m)``. O(1): the set is immutable, so it is shared."""
        return self._depositos

    def paredes(self) -> frozenset[Posicion]:
        """The walls still standing: O(1) if no bomb was thrown, else O(P)."""
        if not self._explosiones:
            return self._paredes
        columnas, filas = self._columnas_voladas, self._filas_voladas
        return frozenset(p for p in self._paredes
                         if p[0] not in columnas and p[1] not in filas)

    def paredes_originales(self) -> frozenset[Posicion]:
        """The level's walls, destroyed or not. O(1)."""
        return self._paredes

    def copia(self) -> "Mapa":
        """A new map with the same walls standing and the same depots, and no
        record of bombs (the destroyed walls are simply gone). O(1) when no
        bomb was thrown (the frozen sets are shared), O(P) otherwise."""
        return Mapa(self.paredes(), self._depositos)

    def __repr__(self) -> str:
        return (f"Mapa(paredes={len(self._paredes)}, depositos={len(self._depositos)}, "
                f"explosiones={self._explosiones!r})")
