"""Correct, but stores files in its working folder across its calls: eight
files of 0.9 MB (each under the per-file limit) at every crear_grilla."""
import os

from base import *  # noqa: F401,F403
import base

_calls = [0]


def crear_grilla(desc):
    _calls[0] += 1
    os.makedirs("cache", exist_ok=True)
    for i in range(8):
        with open(os.path.join("cache", f"fill-{_calls[0]}-{i}"), "wb") as f:
            f.write(b"x" * 900_000)
    return base.crear_grilla(desc)
