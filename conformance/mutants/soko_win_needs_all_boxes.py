"""Mistake: juego_ganado asks every box to be on a goal, which is wrong when
there are more boxes than goals (seed 002 allows it).

Breaks: soko.won
"""
from student_soko import *  # noqa: F401,F403


def juego_ganado(grilla):
    return not any(ch in ".+$" for fila in grilla for ch in fila)
