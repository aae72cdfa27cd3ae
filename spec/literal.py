"""The seed's text where it is wrong, kept executable so the errata can be
shown rather than told (``spec/ERRATA.md``). Nothing else uses these."""

from __future__ import annotations

from spec import fisica
from spec.tipos import CAJAS, CLAVES, DEPOSITOS, PAREDES, PERSONAJE, Nivel


def se_solapan(a: frozenset, b: frozenset) -> bool:
    """Seed 000, verbatim: ``seSolapan?(a, b) ≡ ningunoDeXenY(a, b) ∧ ningunoDeXenY(b, a)``."""
    return fisica.ninguno_de_x_en_y(a, b) and fisica.ninguno_de_x_en_y(b, a)


def nivel_valido(n: Nivel) -> bool:
    """Seed 000's ``nivelVálido?`` verbatim: set equality of boxes and depots
    (E1) and the inverted ``seSolapan?`` (E2)."""
    if not isinstance(n, dict) or set(n) != set(CLAVES) or len(n[PERSONAJE]) != 1:
        return False
    p = fisica.dame_uno(frozenset(n[PERSONAJE]))
    return (
        p not in n[CAJAS]
        and p not in n[PAREDES]
        and n[CAJAS] == n[DEPOSITOS]
        and not se_solapan(n[PAREDES], n[CAJAS])
        and not se_solapan(n[PAREDES], n[DEPOSITOS])
    )
