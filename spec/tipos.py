"""Sorts of seed 000 (and the extended game of seed 001) as Python types.

Seed 000::

    TAD Posición es tupla(nat, nat)
    TAD Personaje, Caja, Depósito, Pared es Posición
    TAD Nivel es Diccionario(String, conj(Posición))
    TAD Estado es Diccionario(String, conj(Posición))
    TAD Acción es Enum { Arriba, Abajo, Izquierda, Derecha }

Convention (see ``docs/INTERFACES.md``): a position is ``(x, y)``, x the column
growing east, y the row growing south; positions are ints, not nats (erratum
E4 in ``spec/ERRATA.md``).
"""

from __future__ import annotations

from enum import Enum

Posicion = tuple[int, int]
Personaje = Posicion
Caja = Posicion
Deposito = Posicion
Pared = Posicion

#: ``TAD Nivel es Diccionario(String, conj(Posición))``: exactly these keys.
Nivel = dict
#: ``TAD Estado es Diccionario(String, conj(Posición))``: same keys as Nivel.
Estado = dict
#: The extended game's level (seed 001's ``Nivel``): a Nivel plus ``"bombas"``.
NivelExtendido = dict

PERSONAJE = "personaje"
CAJAS = "cajas"
PAREDES = "paredes"
DEPOSITOS = "depósitos"
BOMBAS = "bombas"

#: The four keys of seed 000's Nivel and Estado, in the seed's order.
CLAVES = (PERSONAJE, CAJAS, PAREDES, DEPOSITOS)


class Accion(Enum):
    """``TAD Acción es Enum { Arriba, Abajo, Izquierda, Derecha }``.

    Each member's value is the step vector the seed pairs with it in the axiom
    of ``personaje(simularAcción(f, a))``: ``Arriba`` is ``<0,-1>``, ``Abajo``
    ``<0,1>``, ``Izquierda`` ``<-1,0>``, ``Derecha`` ``<1,0>``.

    Seed 001's ``Dirección`` names are aliases of the same members (``NORTE is
    ARRIBA``): seed 001 draws y growing north, we draw it growing south, so its
    ``Norte = <0,1>`` is our ``(0, -1)`` (erratum E8).
    """

    ARRIBA = (0, -1)
    ABAJO = (0, 1)
    IZQUIERDA = (-1, 0)
    DERECHA = (1, 0)
    # Seed 001's names (aliases: same value, same member).
    NORTE = (0, -1)
    SUR = (0, 1)
    OESTE = (-1, 0)
    ESTE = (1, 0)

    @property
    def dx(self) -> int:
        return self.value[0]

    @property
    def dy(self) -> int:
        return self.value[1]


#: The four actions, in the seed's order (aliases are not iterated).
ACCIONES = tuple(Accion)
