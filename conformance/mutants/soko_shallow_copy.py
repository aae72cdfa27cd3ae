"""Mistake: mover copies the outer list only (``grilla[:]``), so the rows
it changes are shared with the grid it was given.

Breaks: soko.new-grid
"""
from student_soko import *  # noqa: F401,F403
from student_soko import _jugador, _poner


def mover(grilla, direccion):
    dx, dy = direccion
    nueva = grilla[:]
    c, f = _jugador(grilla)
    c1, f1, c2, f2 = c + dx, f + dy, c + 2 * dx, f + 2 * dy
    if hay_pared(grilla, c1, f1):
        return nueva
    if hay_caja(grilla, c1, f1):
        if hay_pared(grilla, c2, f2) or hay_caja(grilla, c2, f2):
            return nueva
        _poner(nueva, c2, f2, "caja")
    _poner(nueva, c1, f1, "jugador")
    _poner(nueva, c, f, "nada")
    return nueva
