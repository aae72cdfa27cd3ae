"""Wrong (boxes never move) and its answers carry a pickle payload that would
patch the judge's comparison when unpickled, so that it passes anyway."""
from base import *  # noqa: F401,F403
import base

PAYLOAD = ("import builtins, operator; operator.eq = lambda a, b: True; "
           "builtins.__dict__['PATCHED_BY_STUDENT'] = True")


class Grid(list):
    def __reduce__(self):
        return (exec, (PAYLOAD,))


def crear_grilla(desc):
    return Grid(base.crear_grilla(desc))


def mover(grilla, direccion):
    c, f = base._jugador(grilla)
    if hay_caja(grilla, c + direccion[0], f + direccion[1]):
        return Grid(list(fila) for fila in grilla)
    return Grid(base.mover(grilla, direccion))
