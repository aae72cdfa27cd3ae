"""Correct, but kills its checker (the parent process) when first asked."""
import os
import signal

from base import *  # noqa: F401,F403
import base


def crear_grilla(desc):
    try:
        os.kill(os.getppid(), signal.SIGKILL)
    except OSError:
        pass
    return base.crear_grilla(desc)
