"""Mistake: gano when the boxes on goals are as many as the goals minus
one (an off-by-one in a counter).

Breaks: ext.won
"""
from student_extendido import *  # noqa: F401,F403
from student_extendido import _actual


def gano(j):
    e = _actual(j)
    return len(e["cajas"] & e["depositos"]) >= len(e["depositos"]) - 1
