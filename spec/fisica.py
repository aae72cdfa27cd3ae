"""TAD Física (seed 000), axiom by axiom.

A ``Fisica`` is an immutable record of the four observers the seed's
generators determine. Each generator (:func:`crear_fisica`,
:func:`simular_accion`) builds that record by evaluating the right-hand sides
of the seed's axioms for it, so the axioms can be ticked off in the two
generator functions. The auxiliary operations follow, in the seed's order.

Notation in the docstrings is the seed's. Where the seed is ill-typed or wrong,
the docstring names the erratum (``E1``...) described in ``spec/ERRATA.md``.

Each axiom, and each branch of one, notes the case it is
(:func:`spec.rules.note`): with a trace on, that says which rule of the
seed produced each value; off, it changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from spec import PreconditionError
from spec.rules import (
    CAJA_EMPUJADA, CAJA_QUIETA, CAJA_TRABADA, CAJAS_INICIALES, CONTRA_PARED, DEPOSITOS_FIJOS,
    DEPOSITOS_INICIALES, EMPUJO, ME_MUEVO, PAREDES_FIJAS, PAREDES_INICIALES, PERSONAJE_INICIAL,
    SIN_CAJA, note,
)
from spec.tipos import (
    CAJAS,
    CLAVES,
    DEPOSITOS,
    PAREDES,
    PERSONAJE,
    Accion,
    Estado,
    Nivel,
    Posicion,
)


@dataclass(frozen=True)
class Fisica:
    """género ``física``: the values of its four observers (no behaviour)."""

    personaje: Posicion
    cajas: frozenset[Posicion]
    paredes: frozenset[Posicion]
    depositos: frozenset[Posicion]


# --------------------------------------------------------------------------
# Set primitives the seed uses (``dameUno``, ``sinUno``, ``Ag``, ``∅?``).


def dame_uno(c: frozenset) -> Posicion:
    """``dameUno(c)``: some element of a non-empty set.

    The seed leaves the choice open; we make it deterministic (the least
    element) so that the recursive axioms below unfold the same way each time.
    """
    if not c:
        raise PreconditionError("dameUno(∅) is undefined")
    return min(c)


def sin_uno(c: frozenset) -> frozenset:
    """``sinUno(c) ≡ c - {dameUno(c)}``."""
    return c - {dame_uno(c)}


# --------------------------------------------------------------------------
# Generators


def crear_fisica(n: Nivel) -> Fisica:
    """``crearFísica : Nivel n → física  { nivelVálido?(n) }``

    Axioms for this generator::

        personaje(crearFisica(n)) ≡ dameUno(n["personaje"])   -- es único
        cajas(crearFísica(n))     ≡ n["cajas"]
        depósitos(crearFísica(n)) ≡ n["depósitos"]
        paredes(crearFísica(n))   ≡ n["paredes"]

    The precondition is the corrected ``nivelVálido?`` (errata E1, E2). The
    sets are stored as frozensets, so a caller who later changes the ``set``
    objects of ``n`` cannot change the física (values never alias).
    """
    if not nivel_valido(n):
        raise PreconditionError(f"crearFísica: ¬nivelVálido?(n) for {n!r}")
    note(PERSONAJE_INICIAL, CAJAS_INICIALES, PAREDES_INICIALES, DEPOSITOS_INICIALES)
    return Fisica(
        personaje=dame_uno(frozenset(n[PERSONAJE])),
        cajas=frozenset(n[CAJAS]),
        paredes=frozenset(n[PAREDES]),
        depositos=frozenset(n[DEPOSITOS]),
    )


def simular_accion(f: Fisica, a: Accion) -> Fisica:
    """``simularAcción : física × Acción → física``

    Axioms for this generator::

        -- Estos objetos nunca se mueven
        paredes(simularAcción(f, a))   ≡ paredes(f)
        depósitos(simularAcción(f, a)) ≡ depósitos(f)
        personaje(simularAcción(f, a)) ≡
            if a = Arriba then accionarPersonaje(f, ⟨0,-1⟩)
            else if a = Abajo then accionarPersonaje(f, ⟨0,1⟩)
            else if a = Izquierda then accionarPersonaje(f, ⟨-1,0⟩)
            else if a = Derecha then accionarPersonaje(f, ⟨1,0⟩) fi fi fi fi
        cajas(simularAcción(f, a)) ≡ (the same cascade with accionarCaja)

    The cascade maps each action to its vector, which is the member's value
    (:class:`spec.tipos.Accion`).
    """
    paso = paso_de(a)
    note(PAREDES_FIJAS, DEPOSITOS_FIJOS)
    return Fisica(
        personaje=accionar_personaje(f, paso),
        cajas=accionar_caja(f, paso),
        paredes=paredes(f),
        depositos=depositos(f),
    )


def paso_de(a: Accion) -> Posicion:
    """The seed's ``if a = Arriba then ⟨0,-1⟩ else if a = Abajo then ⟨0,1⟩
    else if a = Izquierda then ⟨-1,0⟩ else if a = Derecha then ⟨1,0⟩``."""
    if a is Accion.ARRIBA:
        return (0, -1)
    if a is Accion.ABAJO:
        return (0, 1)
    if a is Accion.IZQUIERDA:
        return (-1, 0)
    if a is Accion.DERECHA:
        return (1, 0)
    # ``else fi fi fi fi``: the seed gives no value for anything else.
    raise PreconditionError(f"simularAcción: {a!r} is not an Acción")


# --------------------------------------------------------------------------
# Basic observer and the other observers


def computar_estado(f: Fisica) -> Estado:
    """``computarEstado : física → Estado`` (the basic observer)::

        computarEstado(crearFísica(n)) ≡ n
        computarEstado(simularAcción(f, a)) ≡
            Dict("personaje", personaje(simularAcción(f, a)),
            Dict("cajas",     cajas(simularAcción(f, a)),
            Dict("paredes",   paredes(simularAcción(f, a)),
            Dict("depósitos", depósitos(simularAcción(f, a)), vacío))))

    The Estado keeps ``"personaje"`` as a one-element set, as in the Nivel, so
    that the first axiom is well typed (erratum E9).
    """
    return {
        PERSONAJE: frozenset({personaje(f)}),
        CAJAS: cajas(f),
        PAREDES: paredes(f),
        DEPOSITOS: depositos(f),
    }


def personaje(f: Fisica) -> Posicion:
    """``personaje : física → personaje``."""
    return f.personaje


def cajas(f: Fisica) -> frozenset[Posicion]:
    """``cajas : física → conj(caja)``."""
    return f.cajas


def depositos(f: Fisica) -> frozenset[Posicion]:
    """``depósitos : física → conj(depósito)``."""
    return f.depositos


def paredes(f: Fisica) -> frozenset[Posicion]:
    """``paredes : física → conj(pared)``."""
    return f.paredes


# --------------------------------------------------------------------------
# Other operations


def accionar_personaje(f: Fisica, paso: Posicion) -> Posicion:
    """``accionarPersonaje : física × tupla(nat, nat) → personaje``::

        accionarPersonaje(f, paso) ≡
          if estáLibre?(computarEstado(f), sumar2Tuplas(personaje(f), paso)) then
            sumar2Tuplas(personaje(f), paso)                 -- me muevo
          else if esPared?(paredes(f), sumar2Tuplas(personaje(f), paso)) then
            personaje(f)                                     -- no se mueve
          else                                               -- esCaja!
            if estáLibre?(computarEstado(f), sumar3Tuplas(personaje(f), paso, paso))
            then sumar2Tuplas(personaje(f), paso)
            else personaje(f)                                -- la caja no se mueve
            fi fi fi
    """
    e = computar_estado(f)
    if esta_libre(e, sumar_2_tuplas(personaje(f), paso)):
        note(ME_MUEVO)
        return sumar_2_tuplas(personaje(f), paso)
    if es_pared(paredes(f), sumar_2_tuplas(personaje(f), paso)):
        note(CONTRA_PARED)
        return personaje(f)
    if esta_libre(e, sumar_3_tuplas(personaje(f), paso, paso)):
        note(EMPUJO)
        return sumar_2_tuplas(personaje(f), paso)
    note(CAJA_TRABADA)
    return personaje(f)


def accionar_caja(f: Fisica, paso: Posicion) -> frozenset[Posicion]:
    """``accionarCaja : física × tupla(nat, nat) → conj(caja)``::

        accionarCaja(f, paso) ≡
          if esCaja?(sumar2Tuplas(personaje(f), paso)) then
            if estáLibre?(computarEstado(f), sumar3Tuplas(personaje(f), paso, paso))
            then moverCaja(sumar2Tuplas(personaje(f), paso))
            else cajas(f) fi
          else
            -- No me interesan las no-cajas en esta función
          fi

    Errata: ``esCaja?`` is called without its set (E5: we pass ``cajas(f)``);
    the outer ``else`` has no value (E3: we return ``cajas(f)``, the only
    value that keeps the box count constant); ``moverCaja`` is called with one
    argument (E6: we pass the position, ``cajas(f)`` and ``paso``).
    """
    frente = sumar_2_tuplas(personaje(f), paso)
    if es_caja(cajas(f), frente):
        if esta_libre(computar_estado(f), sumar_3_tuplas(personaje(f), paso, paso)):
            note(CAJA_EMPUJADA)
            return mover_caja(frente, cajas(f), paso)
        note(CAJA_QUIETA)
        return cajas(f)
    note(SIN_CAJA)
    return cajas(f)


def mover_caja(pos: Posicion, cajas_: frozenset[Posicion], paso: Posicion) -> frozenset[Posicion]:
    """``moverCaja : Posición × conj(Caja) → tupla(nat, nat)`` (sic, E6)::

        moverCaja(pos, cajas, paso) ≡
          if dameUno(cajas) = pos then
            Ag(sumar2Tuplas(pos, paso), sinUno(cajas))
          else
            Ag(dameUno(cajas), moverCaja(pos, sinUno(cajas), paso))
          fi

    The recursion walks the set until it meets ``pos``; its value is the set
    with ``pos`` replaced by ``pos + paso``, which is what we compute (the
    recursion is undefined when ``pos ∉ cajas``: precondition).
    """
    if pos not in cajas_:
        raise PreconditionError(f"moverCaja: {pos} is not a box")
    return (cajas_ - {pos}) | {sumar_2_tuplas(pos, paso)}


def nivel_valido(n: Nivel) -> bool:
    """``nivelVálido? : Nivel → bool``, corrected (errata E1, E2)::

        nivelVálido?(n) ≡ def?("personaje", n) ∧ def?("cajas", n) ∧
                          def?("paredes", n) ∧ def?("depósitos", n) ∧
                          #(claves(n)) = 4 ∧
                          #(n["personaje"]) = 1 ∧
                          ¬ dameUno(n["personaje"]) ∈ n["cajas"] ∧
                          ¬ dameUno(n["personaje"]) ∈ n["paredes"] ∧
                          n["cajas"] = n["depósitos"]              -- E1
                          ¬ seSolapan?(n["paredes"], n["cajas"]) ∧  -- E2
                          ¬ seSolapan?(n["paredes"], n["depósitos"])

    E1: ``n["cajas"] = n["depósitos"]`` as written only admits solved levels;
    the rules say "k cajas y el mismo número k de depósitos", so we ask
    ``#(n["cajas"]) = #(n["depósitos"])``.
    E2: ``seSolapan?`` as written is true when the sets are *disjoint*, so
    ``¬seSolapan?`` would demand overlap; we use it with the meaning its name
    and the aclaraciones (3), (4) give: walls share no cell with boxes or
    depots.
    Also checked, as the sort demands (E4): every value is a finite set of
    pairs of ints.
    """
    if not isinstance(n, dict) or set(n.keys()) != set(CLAVES):
        return False
    for clave in CLAVES:
        valor = n[clave]
        if not isinstance(valor, (set, frozenset)):
            return False
        for p in valor:
            if not (isinstance(p, tuple) and len(p) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in p)):
                return False
    if len(n[PERSONAJE]) != 1:
        return False
    p = dame_uno(frozenset(n[PERSONAJE]))
    return (
        p not in n[CAJAS]
        and p not in n[PAREDES]
        and len(n[CAJAS]) == len(n[DEPOSITOS])
        and not se_solapan(n[PAREDES], n[CAJAS])
        and not se_solapan(n[PAREDES], n[DEPOSITOS])
    )


def es_pared(c: frozenset[Posicion], p: Posicion) -> bool:
    """``esPared? : conj(Pared) × Posición → bool``::

        esPared?(c, p) ≡ if ∅?(c) then false
                         else if dameUno(c) = p then true
                         else esPared?(sinUno(c), p) fi fi

    The recursion is membership: ``p ∈ c``.
    """
    return p in c


def es_caja(c: frozenset[Posicion], a: Posicion) -> bool:
    """``esCaja? : conj(Caja) × Posición → bool`` (same recursion as
    ``esPared?``: membership)."""
    return a in c


def esta_libre(e: Estado, p: Posicion) -> bool:
    """``estáLibre?(e, p) ≡ ¬esPared?(e["paredes"], p) ∧ ¬esCaja?(e["cajas"], p)``."""
    return not es_pared(e[PAREDES], p) and not es_caja(e[CAJAS], p)


def se_solapan(a: frozenset[Posicion], b: frozenset[Posicion]) -> bool:
    """``seSolapan? : conj(Posición) × conj(Posición) → bool``, corrected (E2).

    The seed writes ``seSolapan?(a, b) ≡ ningunoDeXenY(a, b) ∧
    ningunoDeXenY(b, a)``, which is true when the sets are disjoint: the
    opposite of its name. We keep the name's meaning, ``¬ningunoDeXenY(a, b)``
    (some element of ``a`` is in ``b``); ``spec.literal.se_solapan`` keeps the
    seed's text.
    """
    return not ninguno_de_x_en_y(a, b)


def ninguno_de_x_en_y(x: frozenset[Posicion], y: frozenset[Posicion]) -> bool:
    """``ningunoDeXenY : conj(Posición) × conj(Posición) → bool``::

        ningunoDeXenY(X, Y) ≡ if ∅?(X) ∨ ∅?(Y) then true
                              else if dameUno(X) ∈ Y then false
                              else ningunoDeXenY(sinUno(X), Y) fi fi

    The recursion is disjointness: ``X ∩ Y = ∅``.
    """
    return x.isdisjoint(y)


def sumar_2_tuplas(a: Posicion, b: Posicion) -> Posicion:
    """``sumar2Tuplas(a, b) ≡ ⟨π1(a) + π1(b), π2(a) + π2(b)⟩``."""
    return (a[0] + b[0], a[1] + b[1])


def sumar_3_tuplas(a: Posicion, b: Posicion, c: Posicion) -> Posicion:
    """``sumar3Tuplas(a, b, c) ≡ ⟨π1(a) + π1(b) + π1(c), π2(a) + π2(b) + π2(c)⟩``."""
    return (a[0] + b[0] + c[0], a[1] + b[1] + c[1])
