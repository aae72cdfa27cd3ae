"""TAD Juego Extendido: seed 001's module Juego (a sequence of levels) over
:mod:`spec.sokoban`. Written by us; the seed has no TAD for it (erratum E10).

::

    TAD JuegoExtendido
      géneros   juego
      observadores básicos
        nivelActual       : juego → soko
        nivelesPendientes : juego → secu(NivelExtendido)
        índiceNivel       : juego → nat
      generadores
        nuevoJ     : secu(NivelExtendido) ns → juego   { ¬vacía?(ns) ∧ todos válidos }
        mover      : juego j × Acción a → juego        { puedeMover?(nivelActual(j), a) }
        tirarBomba : juego j → juego                   { bombas(nivelActual(j)) > 0 }
        deshacer   : juego → juego
      axiomas
        nivelActual(nuevoJ(ns))       ≡ nuevoS(prim(ns))
        nivelesPendientes(nuevoJ(ns)) ≡ fin(ns)
        índiceNivel(nuevoJ(ns))       ≡ 0
        nivelActual(mover(j, a)) ≡
            if ganó?(mover(nivelActual(j), a)) ∧ ¬vacía?(nivelesPendientes(j))
            then nuevoS(prim(nivelesPendientes(j)))
            else mover(nivelActual(j), a) fi
        nivelesPendientes(mover(j, a)) ≡
            if ganó?(mover(nivelActual(j), a)) ∧ ¬vacía?(nivelesPendientes(j))
            then fin(nivelesPendientes(j)) else nivelesPendientes(j) fi
        índiceNivel(mover(j, a)) ≡ índiceNivel(j) + β(same condition)
        nivelActual(tirarBomba(j)) ≡ tirarBomba(nivelActual(j))
        nivelActual(deshacer(j))   ≡ deshacer(nivelActual(j))
        (nivelesPendientes and índiceNivel are unchanged by tirarBomba, deshacer)

The history does not cross a level change (seed 001 makes a fresh Sokoban for
the next level), so ``deshacer`` right after an advance changes nothing
(erratum E11).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from spec import PreconditionError, sokoban
from spec.rules import AVANCE, MISMO_NIVEL, NIVEL_INICIAL, note
from spec.tipos import Accion, NivelExtendido, Posicion


@dataclass(frozen=True)
class JuegoExtendido:
    """género ``juego`` (no behaviour): the whole sequence, the index of the
    level in play and its soko."""

    # Levels are dicts (unhashable): equality compares them, the hash does not.
    niveles: tuple[NivelExtendido, ...] = field(hash=False)
    indice: int
    soko: sokoban.Soko


def nuevo_juego(niveles: Sequence[NivelExtendido]) -> JuegoExtendido:
    """``nuevoJ : secu(NivelExtendido) ns → juego  { ¬vacía?(ns) }``.

    Every level must be valid (the seed checks only the first, when it is
    played; we refuse a sequence with an invalid level up front, E12).
    """
    if isinstance(niveles, (str, bytes, dict)) or not isinstance(niveles, Iterable):
        raise PreconditionError(f"nuevoJ: expected a sequence of levels, got {type(niveles).__name__}")
    niveles = tuple(_copia(n) for n in niveles)
    if not niveles:
        raise PreconditionError("nuevoJ: the sequence of levels is empty")
    for i, n in enumerate(niveles):
        if not sokoban.nivel_extendido_valido(n):
            raise PreconditionError(f"nuevoJ: level {i} is not valid")
    note(NIVEL_INICIAL)
    return JuegoExtendido(niveles=niveles, indice=0, soko=sokoban.nuevo_soko(niveles[0]))


def _copia(n):
    """A level of our own: the caller's dict and sets may change later."""
    if not isinstance(n, dict):
        return n
    return {k: frozenset(v) if isinstance(v, (set, frozenset)) else v for k, v in n.items()}


def nivel_actual(j: JuegoExtendido) -> sokoban.Soko:
    """``nivelActual : juego → soko``."""
    return j.soko


def niveles_pendientes(j: JuegoExtendido) -> tuple[NivelExtendido, ...]:
    """``nivelesPendientes : juego → secu(NivelExtendido)``: the levels after
    the current one (erratum E13), as copies the caller may change freely."""
    return tuple(_copia(n) for n in j.niveles[j.indice + 1:])


def indice_nivel(j: JuegoExtendido) -> int:
    """``índiceNivel : juego → nat``: 0-based place of the current level."""
    return j.indice


def mover(j: JuegoExtendido, a: Accion) -> JuegoExtendido:
    """``mover : juego j × Acción a → juego  { puedeMover?(nivelActual(j), a) }``;
    after a move that wins the level, the next level (if any) starts."""
    s = sokoban.mover(j.soko, a)
    if sokoban.gano(s) and niveles_pendientes(j):
        siguiente = j.indice + 1
        nuevo = sokoban.nuevo_soko(j.niveles[siguiente])
        note(AVANCE)
        return JuegoExtendido(j.niveles, siguiente, nuevo)
    note(MISMO_NIVEL)
    return JuegoExtendido(j.niveles, j.indice, s)


def mover_total(j: JuegoExtendido, a: Accion) -> JuegoExtendido:
    """``moverTotal(j, a) ≡ if puedeMover?(j, a) then mover(j, a) else j fi``."""
    return mover(j, a) if puede_mover(j, a) else j


def tirar_bomba(j: JuegoExtendido) -> JuegoExtendido:
    """``tirarBomba : juego j → juego  { bombas(nivelActual(j)) > 0 }``."""
    return JuegoExtendido(j.niveles, j.indice, sokoban.tirar_bomba(j.soko))


def deshacer(j: JuegoExtendido) -> JuegoExtendido:
    """``deshacer : juego → juego``: undoes the current level's last action."""
    return JuegoExtendido(j.niveles, j.indice, sokoban.deshacer(j.soko))


# Observers of the current level, delegated.

def puede_mover(j: JuegoExtendido, a: Accion) -> bool:
    """``puedeMover?(nivelActual(j), a)``."""
    return sokoban.puede_mover(j.soko, a)


def persona(j: JuegoExtendido) -> Posicion:
    """``persona(nivelActual(j))``."""
    return sokoban.persona(j.soko)


def cajas(j: JuegoExtendido) -> frozenset[Posicion]:
    """``cajas(nivelActual(j))``."""
    return sokoban.cajas(j.soko)


def paredes(j: JuegoExtendido) -> frozenset[Posicion]:
    """``paredes(nivelActual(j))``."""
    return sokoban.paredes(j.soko)


def depositos(j: JuegoExtendido) -> frozenset[Posicion]:
    """``depósitos(nivelActual(j))``."""
    return sokoban.depositos(j.soko)


def hay_pared(j: JuegoExtendido, c: Posicion) -> bool:
    """``hayPared?(nivelActual(j), c)``."""
    return sokoban.hay_pared(j.soko, c)


def hay_deposito(j: JuegoExtendido, c: Posicion) -> bool:
    """``hayDepósito?(nivelActual(j), c)``."""
    return sokoban.hay_deposito(j.soko, c)


def hay_caja(j: JuegoExtendido, c: Posicion) -> bool:
    """``hayCaja?(nivelActual(j), c)``."""
    return sokoban.hay_caja(j.soko, c)


def bombas(j: JuegoExtendido) -> int:
    """``#bombas(nivelActual(j))``."""
    return sokoban.bombas(j.soko)


def gano(j: JuegoExtendido) -> bool:
    """``ganó?(nivelActual(j))``."""
    return sokoban.gano(j.soko)
