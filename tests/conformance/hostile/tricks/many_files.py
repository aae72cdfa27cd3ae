"""Correct, but creates empty files in its working folder across its calls,
a hundred at each move (inodes: the other way to fill a disk)."""
import os

from base import *  # noqa: F401,F403
import base

_calls = [0]


def mover(grilla, direccion):
    _calls[0] += 1
    os.makedirs("notes", exist_ok=True)
    for i in range(100):
        open(os.path.join("notes", f"{_calls[0]}-{i}"), "w").close()
    return base.mover(grilla, direccion)
