"""Control: a wrong implementation (a box is never pushed), no trick."""
from base import *  # noqa: F401,F403
import base


def mover(grilla, direccion):
    c, f = base._jugador(grilla)
    if hay_caja(grilla, c + direccion[0], f + direccion[1]):
        return [list(fila) for fila in grilla]
    return base.mover(grilla, direccion)
