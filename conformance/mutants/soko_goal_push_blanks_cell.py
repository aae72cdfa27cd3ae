"""Mistake: when a push puts a box on a goal, the cell the player leaves
(floor) is written as ``_`` instead of a space (a public student wrote
``''``, which this base's ``in`` tests would read as everything). Every
observer reads it as floor, the player may walk on it, but a later push
into it is refused (the push checks the next cell for ``' '`` or ``'.'``).
Only a push onto a goal followed by a box pushed into the cell it left
shows it: a random search draws that rarely (a public student file had this
mistake and was caught under some seeds only, before a fixed scenario).

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
        if grilla[f2][c2] not in (" ", "."):
            return nueva
        _poner(nueva, c2, f2, "caja")
        _poner(nueva, c1, f1, "jugador")
        if grilla[f][c] == "@" and grilla[f2][c2] == ".":
            nueva[f][c] = "_"
        else:
            _poner(nueva, c, f, "nada")
        return nueva
    _poner(nueva, c1, f1, "jugador")
    _poner(nueva, c, f, "nada")
    return nueva
