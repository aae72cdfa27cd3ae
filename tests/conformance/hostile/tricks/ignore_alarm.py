"""Ignores SIGALRM and loops forever at its first push."""
import signal

from base import *  # noqa: F401,F403
import base

signal.signal(signal.SIGALRM, signal.SIG_IGN)
_real_signal = signal.signal
signal.signal = lambda *args: None          # and keeps it ignored


def mover(grilla, direccion):
    c, f = base._jugador(grilla)
    if hay_caja(grilla, c + direccion[0], f + direccion[1]):
        while True:
            pass
    return base.mover(grilla, direccion)
