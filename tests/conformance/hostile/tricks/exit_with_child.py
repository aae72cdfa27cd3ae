"""Exits at its first push, leaving a child that holds the reply pipe: the
checker must see the exit, not wait for a timeout."""
import os
import time

from base import *  # noqa: F401,F403
import base


def mover(grilla, direccion):
    c, f = base._jugador(grilla)
    if hay_caja(grilla, c + direccion[0], f + direccion[1]):
        if os.fork() == 0:
            time.sleep(300)
        os._exit(3)
    return base.mover(grilla, direccion)
