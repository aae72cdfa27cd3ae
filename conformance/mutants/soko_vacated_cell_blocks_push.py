"""Mistake: after a push, the cell the player leaves is written as ``-``
(the XSB floor character) instead of a space. Every observer reads ``-``
as floor, and the player may walk on it, but a later push into that cell
is refused (the push checks the next cell's character for ``' '`` or
``'.'``). Only a box pushed into a cell a push left behind shows it.

Breaks: soko.push
"""
from student_soko import *  # noqa: F401,F403
from student_soko import _jugador, _poner


def mover(grilla, direccion):
    dx, dy = direccion
    nueva = [list(fila) for fila in grilla]
    c, f = _jugador(grilla)
    c1, f1, c2, f2 = c + dx, f + dy, c + 2 * dx, f + 2 * dy
    if hay_pared(grilla, c1, f1):
        return nueva
    if hay_caja(grilla, c1, f1):
        if grilla[f2][c2] not in " .":
            return nueva
        _poner(nueva, c2, f2, "caja")
        _poner(nueva, c1, f1, "jugador")
        if grilla[f][c] == "@":
            nueva[f][c] = "-"
        else:
            _poner(nueva, c, f, "nada")
        return nueva
    _poner(nueva, c1, f1, "jugador")
    _poner(nueva, c, f, "nada")
    return nueva
