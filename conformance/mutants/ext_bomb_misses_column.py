"""Mistake: the bomb destroys the walls of the character's row only.

Breaks: ext.bomb
"""
from student_extendido import *  # noqa: F401,F403
from student_extendido import _actual, _con


def tirar_bomba(j):
    e = _actual(j)
    y = e["persona"][1]
    paredes = frozenset(p for p in e["paredes"] if p[1] != y)
    return _con(j, dict(e, paredes=paredes, bombas=e["bombas"] - 1))
