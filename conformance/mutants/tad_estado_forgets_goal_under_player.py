"""Mistake: estado draws the level as a grid of characters and reads it back,
so the goal under the character is lost.

Breaks: tad.depots
"""
from student_tad import *  # noqa: F401,F403
from student_tad import DEPOSITOS, PERSONAJE


def estado(juego):
    e = {k: frozenset(v) for k, v in juego.items()}
    e[DEPOSITOS] = e[DEPOSITOS] - e[PERSONAJE]
    return e
