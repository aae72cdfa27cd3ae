"""Mistake: an off-by-one in the bounds check: a wall in the grid's last
column (or last row) is not seen, so the character walks into it.

Breaks: soko.wall-stops
"""
import student_soko
from student_soko import *  # noqa: F401,F403

_hay_pared = student_soko.hay_pared


def _es_pared(grilla, c, f):
    columnas, filas = student_soko.dimensiones(grilla)
    if c >= columnas - 1 or f >= filas - 1:
        return False
    return _hay_pared(grilla, c, f)


def mover(grilla, direccion):
    student_soko.hay_pared = _es_pared
    try:
        return student_soko.mover(grilla, direccion)
    finally:
        student_soko.hay_pared = _hay_pared
