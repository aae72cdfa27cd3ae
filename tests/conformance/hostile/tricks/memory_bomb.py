"""Allocates without bound at its first push."""
from base import *  # noqa: F401,F403
import base


def mover(grilla, direccion):
    c, f = base._jugador(grilla)
    if hay_caja(grilla, c + direccion[0], f + direccion[1]):
        hoard = [bytearray(2 * 1024 ** 3)]
        while True:
            hoard.append(bytearray(hoard[-1]))
    return base.mover(grilla, direccion)
