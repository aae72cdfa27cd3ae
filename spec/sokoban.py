"""TAD Sokoban: one level of the extended game of seed 001 (bombs and undo).

Seed 001 is a *design* whose modules "se explican con" TADs the seeds never
give. This is that TAD for its module Sokoban, written by us in the style of
seed 000 (erratum E10). Movement is seed 000's physics: :mod:`spec.fisica`
decides where the character and the boxes go.

::

    TAD Sokoban
      géneros   soko
      usa       Nivel (extendido: + bombas: nat), Física, Acción
      observadores básicos
        persona   : soko → Posición
        cajas     : soko → conj(Posición)
        paredes   : soko → conj(Posición)      -- las que siguen en pie
        depósitos : soko → conj(Posición)
        bombas    : soko → nat
        deshacer  : soko → soko
      generadores
        nuevoS     : NivelExtendido n → soko     { nivelVálido?(n) }
        mover      : soko s × Acción a → soko    { puedeMover?(s, a) }
        tirarBomba : soko s → soko               { bombas(s) > 0 }
      otras operaciones
        puedeMover?, hayPared?, hayDepósito?, hayCaja?, ganó?, moverTotal

A ``Soko`` value keeps its current observers and the soko it came from
(``anterior``), which is exactly what ``deshacer`` observes::

    deshacer(nuevoS(n))       ≡ nuevoS(n)
    deshacer(mover(s, a))     ≡ s
    deshacer(tirarBomba(s))   ≡ s
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spec import PreconditionError, fisica
from spec.rules import (
    BOMBA_GASTADA, BOMBAS_AL_MOVER, BOMBAS_NUEVAS, CAJAS_NUEVAS, DEPOSITOS_NUEVOS,
    DESHACER_BOMBA, DESHACER_MOVER, DESHACER_NADA, GANO, NADA_SE_MUEVE_CON_BOMBA, NO_PUEDE,
    PAREDES_NUEVAS, PAREDES_VOLADAS, PERSONA_NUEVA, PUEDE_EMPUJAR, PUEDE_LIBRE, note,
)
from spec.tipos import (
    BOMBAS,
    CAJAS,
    CLAVES,
    DEPOSITOS,
    PAREDES,
    PERSONAJE,
    Accion,
    NivelExtendido,
    Posicion,
)


@dataclass(frozen=True)
class Soko:
    """género ``soko`` (no behaviour): the observers' values now, and the
    soko this one was made from by the last move or bomb (``None`` for a
    fresh level)."""

    persona: Posicion
    cajas: frozenset[Posicion]
    paredes: frozenset[Posicion]
    depositos: frozenset[Posicion]
    bombas: int
    # ``==`` and ``repr`` look at the observers now; the history is what
    # ``spec.obs.sokos_iguales`` compares (iteratively: a long history must not
    # recurse through the generated ``__eq__``/``__repr__``).
    anterior: "Soko | None" = field(default=None, compare=False, repr=False)


def nivel_extendido_valido(n: NivelExtendido) -> bool:
    """``nivelVálido?`` of seed 000 on the four seed keys, and ``bombas`` a nat."""
    if not isinstance(n, dict) or set(n.keys()) != set(CLAVES) | {BOMBAS}:
        return False
    b = n[BOMBAS]
    if not isinstance(b, int) or isinstance(b, bool) or b < 0:
        return False
    return fisica.nivel_valido({k: n[k] for k in CLAVES})


# --------------------------------------------------------------------------
# Generators


def nuevo_soko(n: NivelExtendido) -> Soko:
    """``nuevoS : NivelExtendido n → soko  { nivelVálido?(n) }``::

        persona(nuevoS(n))   ≡ dameUno(n["personaje"])
        cajas(nuevoS(n))     ≡ n["cajas"]
        paredes(nuevoS(n))   ≡ n["paredes"]
        depósitos(nuevoS(n)) ≡ n["depósitos"]
        bombas(nuevoS(n))    ≡ n["bombas"]
        deshacer(nuevoS(n))  ≡ nuevoS(n)
    """
    if not nivel_extendido_valido(n):
        raise PreconditionError(f"nuevoS: ¬nivelVálido?(n) for {n!r}")
    note(PERSONA_NUEVA, CAJAS_NUEVAS, PAREDES_NUEVAS, DEPOSITOS_NUEVOS, BOMBAS_NUEVAS)
    return Soko(
        persona=fisica.dame_uno(frozenset(n[PERSONAJE])),
        cajas=frozenset(n[CAJAS]),
        paredes=frozenset(n[PAREDES]),
        depositos=frozenset(n[DEPOSITOS]),
        bombas=n[BOMBAS],
    )


def mover(s: Soko, a: Accion) -> Soko:
    """``mover : soko s × Acción a → soko  { puedeMover?(s, a) }``::

        persona(mover(s, a))   ≡ personaje(simularAcción(f(s), a))
        cajas(mover(s, a))     ≡ cajas(simularAcción(f(s), a))
        paredes(mover(s, a))   ≡ paredes(s)
        depósitos(mover(s, a)) ≡ depósitos(s)
        bombas(mover(s, a))    ≡ bombas(s)
        deshacer(mover(s, a))  ≡ s

    where ``f(s)`` is the física with ``s``'s character, boxes, standing walls
    and depots: a move is seed 000's ``simularAcción``.
    """
    if not puede_mover(s, a):
        raise PreconditionError(f"mover: ¬puedeMover?(s, {a.name})")
    f = fisica.simular_accion(_fisica_de(s), a)
    note(BOMBAS_AL_MOVER)
    return Soko(
        persona=fisica.personaje(f),
        cajas=fisica.cajas(f),
        paredes=s.paredes,
        depositos=s.depositos,
        bombas=s.bombas,
        anterior=s,
    )


def tirar_bomba(s: Soko) -> Soko:
    """``tirarBomba : soko s → soko  { bombas(s) > 0 }``::

        paredes(tirarBomba(s)) ≡ { p ∈ paredes(s) | π1(p) ≠ π1(persona(s))
                                                   ∧ π2(p) ≠ π2(persona(s)) }
        bombas(tirarBomba(s))  ≡ bombas(s) - 1
        persona, cajas, depósitos: unchanged
        deshacer(tirarBomba(s)) ≡ s

    Seed 001: "destruye todas las paredes en la misma fila o columna que la
    coordenada de la persona", on the whole (infinite) grid.
    """
    if s.bombas <= 0:
        raise PreconditionError("tirarBomba: no bombs left")
    x, y = s.persona
    note(NADA_SE_MUEVE_CON_BOMBA, PAREDES_VOLADAS, BOMBA_GASTADA)
    return Soko(
        persona=s.persona,
        cajas=s.cajas,
        paredes=frozenset(p for p in s.paredes if p[0] != x and p[1] != y),
        depositos=s.depositos,
        bombas=s.bombas - 1,
        anterior=s,
    )


def deshacer(s: Soko) -> Soko:
    """``deshacer : soko → soko``: undoes the last move or bomb::

        deshacer(nuevoS(n))     ≡ nuevoS(n)
        deshacer(mover(s, a))   ≡ s
        deshacer(tirarBomba(s)) ≡ s

    (Which generator made ``s`` shows in its bombs: only ``tirarBomba``
    changes them.)
    """
    if s.anterior is None:
        note(DESHACER_NADA)
        return s
    note(DESHACER_BOMBA if s.bombas != s.anterior.bombas else DESHACER_MOVER)
    return s.anterior


# --------------------------------------------------------------------------
# Observers


def persona(s: Soko) -> Posicion:
    """``persona : soko → Posición``."""
    return s.persona


def cajas(s: Soko) -> frozenset[Posicion]:
    """``cajas : soko → conj(Posición)``."""
    return s.cajas


def paredes(s: Soko) -> frozenset[Posicion]:
    """``paredes : soko → conj(Posición)``: the walls still standing."""
    return s.paredes


def depositos(s: Soko) -> frozenset[Posicion]:
    """``depósitos : soko → conj(Posición)``."""
    return s.depositos


def bombas(s: Soko) -> int:
    """``#bombas : soko → nat``."""
    return s.bombas


def hay_pared(s: Soko, c: Posicion) -> bool:
    """``hayPared?(s, c) ≡ c ∈ paredes(s)`` (destroyed walls are gone)."""
    return c in s.paredes


def hay_deposito(s: Soko, c: Posicion) -> bool:
    """``hayDepósito?(s, c) ≡ c ∈ depósitos(s)``."""
    return c in s.depositos


def hay_caja(s: Soko, c: Posicion) -> bool:
    """``hayCaja?(s, c) ≡ c ∈ cajas(s)``."""
    return c in s.cajas


def gano(s: Soko) -> bool:
    """``ganó?(s) ≡ cajas(s) = depósitos(s)`` (seed 001: "todas las cajas
    coinciden con las coordenadas de todos los depósitos")."""
    note(GANO)
    return s.cajas == s.depositos


def no_hay_pared_ni_caja(s: Soko, c: Posicion) -> bool:
    """``noHayParedNiCaja?(s, c) ≡ ¬hayPared?(s, c) ∧ ¬hayCaja?(s, c)``."""
    return not hay_pared(s, c) and not hay_caja(s, c)


def puede_mover(s: Soko, a: Accion) -> bool:
    """``puedeMover?(s, d)`` (seed 001): true iff the next cell is free, or
    holds a box whose next cell is free::

        puedeMover?(s, d) ≡ noHayParedNiCaja?(s, persona(s) ⊕ d) ∨
                            (hayCaja?(s, persona(s) ⊕ d) ∧
                             noHayParedNiCaja?(s, persona(s) ⊕ d ⊕ d))
    """
    paso = fisica.paso_de(a)
    frente = fisica.sumar_2_tuplas(s.persona, paso)
    if no_hay_pared_ni_caja(s, frente):
        note(PUEDE_LIBRE)
        return True
    if hay_caja(s, frente) and no_hay_pared_ni_caja(s, fisica.sumar_2_tuplas(frente, paso)):
        note(PUEDE_EMPUJAR)
        return True
    note(NO_PUEDE)
    return False


def mover_total(s: Soko, a: Accion) -> Soko:
    """``moverTotal(s, a) ≡ if puedeMover?(s, a) then mover(s, a) else s fi``:
    a blocked move changes nothing and leaves no trace in the history."""
    return mover(s, a) if puede_mover(s, a) else s


def _fisica_de(s: Soko) -> fisica.Fisica:
    """The física whose observers are ``s``'s (its depots do not matter to
    the physics)."""
    return fisica.Fisica(
        personaje=s.persona, cajas=s.cajas, paredes=s.paredes, depositos=s.depositos
    )
