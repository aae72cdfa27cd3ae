"""Blocks SIGALRM and SIGPROF (the sandbox's time limits; a handler of
ours is reinstalled at every call, so ignoring them is not enough) and
loops forever at its first push."""
import signal

from base import *  # noqa: F401,F403
import base

signal.signal(signal.SIGALRM, signal.SIG_IGN)
signal.signal(signal.SIGPROF, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGPROF})
signal.signal = lambda *args: None          # and keeps them so


def mover(grilla, direccion):
    c, f = base._jugador(grilla)
    if hay_caja(grilla, c + direccion[0], f + direccion[1]):
        while True:
            pass
    return base.mover(grilla, direccion)
