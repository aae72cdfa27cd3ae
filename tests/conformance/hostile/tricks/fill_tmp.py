"""Correct, but stores files in /tmp across its calls: eight files of
0.9 MB (each under the per-file limit) at every crear_grilla, never removed."""
import os

from base import *  # noqa: F401,F403
import base

_calls = [0]


def crear_grilla(desc):
    _calls[0] += 1
    for i in range(8):
        with open(f"/tmp/fill-{os.getpid()}-{_calls[0]}-{i}", "wb") as f:
            f.write(b"x" * 900_000)
    return base.crear_grilla(desc)
