"""Dies of a segmentation fault at its first push."""
import ctypes

from base import *  # noqa: F401,F403
import base


def mover(grilla, direccion):
    c, f = base._jugador(grilla)
    if hay_caja(grilla, c + direccion[0], f + direccion[1]):
        ctypes.string_at(0)
    return base.mover(grilla, direccion)
