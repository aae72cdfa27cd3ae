"""Mistake: the grid is indexed ``grilla[c][f]`` in the observers but built
row by row, so columns and rows are swapped (hidden on square grids).

Breaks: soko.read
"""
import student_soko
from student_soko import *  # noqa: F401,F403


def hay_caja(grilla, c, f):
    return student_soko.hay_caja(grilla, f, c)
