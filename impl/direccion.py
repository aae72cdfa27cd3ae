"""Módulo Dirección (seed 001): the four directions and ``⊕``.

A direction *is* a :class:`spec.tipos.Accion` member; seed 001's names are
its aliases (``NORTE is Accion.ARRIBA``). Seed 001 draws y growing north
(``Norte = <0, 1>``); the project draws it growing south, so our ``NORTE`` is
the step ``(0, -1)`` (erratum E8, the reflection ``y -> -y``).

=====================  ============  ======
operation              seed 001      ours
=====================  ============  ======
Norte/Este/Sur/Oeste   Θ(1)          Θ(1)
Ord(d)                 Θ(1)          Θ(1)
c ⊕ d (``suma``)       Θ(1)          Θ(1)
=====================  ============  ======
"""

from __future__ import annotations

from spec.tipos import Accion, Posicion

NORTE = Accion.NORTE
ESTE = Accion.ESTE
SUR = Accion.SUR
OESTE = Accion.OESTE

#: The four directions in seed 001's order (``ord`` 0..3).
DIRECCIONES = (NORTE, ESTE, SUR, OESTE)

_ORD = {d: i for i, d in enumerate(DIRECCIONES)}
_OPUESTA = {NORTE: SUR, SUR: NORTE, ESTE: OESTE, OESTE: ESTE}
_POR_VECTOR = {d.value: d for d in DIRECCIONES}


def norte() -> Accion:
    """``Norte() → dir``, ``ord = 0``."""
    return NORTE


def este() -> Accion:
    """``Este() → dir``, ``ord = 1``."""
    return ESTE


def sur() -> Accion:
    """``Sur() → dir``, ``ord = 2``."""
    return SUR


def oeste() -> Accion:
    """``Oeste() → dir``, ``ord = 3``."""
    return OESTE


def ord(d: Accion) -> int:  # noqa: A001 - the seed's name; use direccion.ord
    """``Ord(d) → nat``: 0 north, 1 east, 2 south, 3 west."""
    return _ORD[d]


def suma(c: Posicion, d: Accion) -> Posicion:
    """``c ⊕ d``: the position one step from ``c`` in direction ``d``."""
    dx, dy = d._value_
    return (c[0] + dx, c[1] + dy)


def resta(c: Posicion, d: Accion) -> Posicion:
    """``c ⊕ opuesta(d)``: the position one step back from ``c`` (used to undo)."""
    dx, dy = d._value_
    return (c[0] - dx, c[1] - dy)


def opuesta(d: Accion) -> Accion:
    """The opposite direction (seed 001's ``DeshacerMover`` moves back with it)."""
    return _OPUESTA[d]


def desde_vector(v: object) -> Accion:
    """The direction whose step is ``v`` (a tuple ``(dx, dy)`` as in seed 002,
    or already an :class:`Accion`). Raises ``ValueError`` naming ``v`` if it
    is not one of the four steps."""
    if isinstance(v, Accion):
        return v
    try:
        return _POR_VECTOR[tuple(v)]  # type: ignore[arg-type]
    except (TypeError, KeyError):
        raise ValueError(
            f"{v!r} is not a direction: expected one of (0, -1) north, (1, 0) east, "
            f"(0, 1) south, (-1, 0) west") from None
