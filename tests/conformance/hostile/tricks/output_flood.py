"""Prints without end at its first push."""
from base import *  # noqa: F401,F403
import base


def mover(grilla, direccion):
    c, f = base._jugador(grilla)
    if hay_caja(grilla, c + direccion[0], f + direccion[1]):
        while True:
            print("spam " * 200)
    return base.mover(grilla, direccion)
