"""Mistake: mover changes the grid it was given and returns it (seed 002:
"La grilla recibida NO se modifica").

Breaks: soko.new-grid
"""
from student_soko import *  # noqa: F401,F403
from student_soko import _jugador, _poner


def mover(grilla, direccion):
    dx, dy = direccion
    c, f = _jugador(grilla)
    c1, f1, c2, f2 = c + dx, f + dy, c + 2 * dx, f + 2 * dy
    if hay_pared(grilla, c1, f1):
        return grilla
    if hay_caja(grilla, c1, f1):
        if hay_pared(grilla, c2, f2) or hay_caja(grilla, c2, f2):
            return grilla
        _poner(grilla, c2, f2, "caja")
    _poner(grilla, c1, f1, "jugador")
    _poner(grilla, c, f, "nada")
    return grilla
