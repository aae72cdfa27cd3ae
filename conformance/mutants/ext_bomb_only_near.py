"""Mistake: the bomb destroys only the walls next to the character (its row
and column within two cells), not the whole row and column.

Breaks: ext.bomb
"""
from student_extendido import *  # noqa: F401,F403
from student_extendido import _actual, _con


def tirar_bomba(j):
    e = _actual(j)
    x, y = e["persona"]
    paredes = frozenset(p for p in e["paredes"]
                        if not ((p[0] == x and abs(p[1] - y) <= 2) or (p[1] == y and abs(p[0] - x) <= 2)))
    return _con(j, dict(e, paredes=paredes, bombas=e["bombas"] - 1))
