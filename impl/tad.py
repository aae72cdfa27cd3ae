"""Seed 000's TAD Juego shape (``iniciar``, ``step``, ``estado``,
``completado``), backed by :class:`impl.sokoban.Sokoban`.

A total interface for the conformance suite: ``step`` with a blocked move
is a no-op (seed 000's ``simularAcción`` leaves the física as it is), and
``step`` **changes its argument in place and returns it**: callers use only
the returned value.

Cost: ``iniciar`` O(size of the level); ``step`` and ``completado`` O(1);
``estado`` O(P + C + D), as it builds seed 000's ``Estado`` (a dict of four
frozensets; walls and depots are shared, not copied).
"""

from __future__ import annotations

from impl.sokoban import Sokoban
from spec.tipos import CAJAS, DEPOSITOS, PAREDES, PERSONAJE, Accion, Estado, Nivel

__all__ = ["iniciar", "step", "estado", "completado"]


def iniciar(n: Nivel) -> Sokoban:
    """``iniciar(n)`` (pre: ``nivelVálido?(n)``; raises
    :class:`spec.PreconditionError` naming what is wrong)."""
    return Sokoban(n)


def step(j: Sokoban, a: Accion) -> Sokoban:
    """``step(j, a)``: the move if possible, else nothing; returns ``j``."""
    j.mover_total(a)
    return j


def estado(j: Sokoban) -> Estado:
    """``estado(j)``: ``{"personaje", "cajas", "paredes", "depósitos"}`` ↦ frozensets."""
    return {
        PERSONAJE: frozenset((j.persona(),)),
        CAJAS: j.cajas(),
        PAREDES: j.paredes(),
        DEPOSITOS: j.depositos(),
    }


def completado(j: Sokoban) -> bool:
    """``completado?(j) ≡ todoEnOrden(estado(j)) ≡ cajas = depósitos``. O(1)."""
    return j.gano()
