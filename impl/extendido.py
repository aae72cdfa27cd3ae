"""The functional interface of :mod:`spec.extendido`, backed by :class:`impl.juego.Juego`.

Same names and signatures as :mod:`spec.extendido`. The operations that
change a game (``mover``, ``mover_total``, ``tirar_bomba``, ``deshacer``)
**change their argument in place and return it**: callers use only the
returned value (docs/INTERFACES.md). Each costs what the method of
:class:`~impl.juego.Juego` costs: O(1), except ``nuevo_juego`` (O(size of
the levels)), ``cajas`` (O(C)), ``paredes`` (O(P) after a bomb) and
``niveles_pendientes`` (O(L): a tuple, as the spec returns).

The preconditions are those of the spec and are always checked here (O(1)),
contracts on or off, raising :class:`spec.PreconditionError` like the spec.
"""

from __future__ import annotations

from collections.abc import Sequence

from impl.juego import Juego
from impl.sokoban import Sokoban
from spec import PreconditionError
from spec.tipos import Accion, NivelExtendido, Posicion

__all__ = [
    "nuevo_juego", "nivel_actual", "niveles_pendientes", "indice_nivel",
    "puede_mover", "mover", "mover_total", "tirar_bomba", "deshacer",
    "persona", "cajas", "paredes", "depositos", "hay_pared", "hay_deposito",
    "hay_caja", "bombas", "gano",
]


def nuevo_juego(niveles: Sequence[NivelExtendido]) -> Juego:
    """``nuevoJ(ns)`` (pre: non-empty, every level valid)."""
    return Juego(niveles)


def nivel_actual(j: Juego) -> Sokoban:
    """``nivelActual(j)``: the :class:`~impl.sokoban.Sokoban` in play."""
    return j.nivel_actual()


def niveles_pendientes(j: Juego) -> tuple[NivelExtendido, ...]:
    """``nivelesPendientes(j)``: the levels after the current one."""
    return tuple(j.niveles_pendientes())


def indice_nivel(j: Juego) -> int:
    """0-based place of the current level."""
    return j.indice_nivel()


def puede_mover(j: Juego, a: Accion) -> bool:
    return j.puede_mover(a)


def mover(j: Juego, a: Accion) -> Juego:
    """``mover(j, a)`` (pre: ``puede_mover(j, a)``); returns ``j``, changed."""
    if not j.puede_mover(a):
        raise PreconditionError(f"mover: ¬puedeMover?(j, {a.name})")
    j.mover(a)
    return j


def mover_total(j: Juego, a: Accion) -> Juego:
    """``moverTotal(j, a)``: a blocked move changes nothing."""
    j.mover_total(a)
    return j


def tirar_bomba(j: Juego) -> Juego:
    """``tirarBomba(j)`` (pre: a bomb left); returns ``j``, changed."""
    if j.bombas() <= 0:
        raise PreconditionError("tirarBomba: no bombs left")
    j.tirar_bomba()
    return j


def deshacer(j: Juego) -> Juego:
    """``deshacer(j)``; returns ``j``, changed (or not, with no history)."""
    j.deshacer()
    return j


def persona(j: Juego) -> Posicion:
    return j.persona()


def cajas(j: Juego) -> frozenset[Posicion]:
    return j.cajas()


def paredes(j: Juego) -> frozenset[Posicion]:
    return j.paredes()


def depositos(j: Juego) -> frozenset[Posicion]:
    return j.depositos()


def hay_pared(j: Juego, c: Posicion) -> bool:
    return j.hay_pared(c)


def hay_deposito(j: Juego, c: Posicion) -> bool:
    return j.hay_deposito(c)


def hay_caja(j: Juego, c: Posicion) -> bool:
    return j.hay_caja(c)


def bombas(j: Juego) -> int:
    return j.bombas()


def gano(j: Juego) -> bool:
    return j.gano()
