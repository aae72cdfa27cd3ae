"""Correct, but kills its whole process group when first asked."""
import os
import signal

from base import *  # noqa: F401,F403
import base


def crear_grilla(desc):
    try:
        os.killpg(0, signal.SIGKILL)
    except OSError:
        pass
    return base.crear_grilla(desc)
