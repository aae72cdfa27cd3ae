"""Mistake: puede_mover looks only for a wall behind the box, not for a
second box (mover itself is right).

Breaks: ext.can-move
"""
from student_extendido import *  # noqa: F401,F403
from student_extendido import _actual, _libre, _siguiente


def puede_mover(j, a):
    e = _actual(j)
    frente = _siguiente(e["persona"], a)
    if _libre(e, frente):
        return True
    return frente in e["cajas"] and _siguiente(frente, a) not in e["paredes"]
