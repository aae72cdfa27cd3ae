"""Mistake: tirar_bomba never decrements the bomb count.

Breaks: ext.bomb-count
"""
from student_extendido import *  # noqa: F401,F403
from student_extendido import _actual, _con


def tirar_bomba(j):
    e = _actual(j)
    x, y = e["persona"]
    paredes = frozenset(p for p in e["paredes"] if p[0] != x and p[1] != y)
    return _con(j, dict(e, paredes=paredes))
