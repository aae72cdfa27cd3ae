"""Mistake: completado as soon as one box is on a goal.

Breaks: tad.won
"""
from student_tad import *  # noqa: F401,F403
from student_tad import CAJAS, DEPOSITOS


def completado(juego):
    return not juego[DEPOSITOS] or bool(juego[CAJAS] & juego[DEPOSITOS])
