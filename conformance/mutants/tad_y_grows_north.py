"""Mistake: seed 001's drawing (y grows north) used in seed 000's game, so
ARRIBA moves down and ABAJO up.

Breaks: tad.step
"""
import student_tad
from student_tad import *  # noqa: F401,F403


class _Volteada:
    def __init__(self, accion):
        self.value = (accion.value[0], -accion.value[1])


def step(juego, accion):
    return student_tad.step(juego, _Volteada(accion))
