"""Mistake: a box pushed into another box pushes both.

Breaks: soko.push-blocked
"""
from student_soko import *  # noqa: F401,F403
from student_soko import _jugador, _poner


def mover(grilla, direccion):
    dx, dy = direccion
    nueva = [list(fila) for fila in grilla]
    c, f = _jugador(grilla)
    c1, f1 = c + dx, f + dy
    if hay_pared(grilla, c1, f1):
        return nueva
    tren = []
    cc, ff = c1, f1
    while hay_caja(grilla, cc, ff):
        tren.append((cc, ff))
        cc, ff = cc + dx, ff + dy
    if hay_pared(grilla, cc, ff):
        return nueva
    for bc, bf in reversed(tren):
        _poner(nueva, bc + dx, bf + dy, "caja")
        _poner(nueva, bc, bf, "nada")
    _poner(nueva, c1, f1, "jugador")
    _poner(nueva, c, f, "nada")
    return nueva
