"""Mistake: tirar_bomba changes the current state without recording it, so
deshacer after a bomb undoes the move before it (and keeps the walls down).

Breaks: ext.undo
"""
from student_extendido import *  # noqa: F401,F403
from student_extendido import _actual


def tirar_bomba(j):
    e = _actual(j)
    x, y = e["persona"]
    paredes = frozenset(p for p in e["paredes"] if p[0] != x and p[1] != y)
    pila = j["pila"][:-1] + [dict(e, paredes=paredes, bombas=e["bombas"] - 1)]
    return {"niveles": j["niveles"], "indice": j["indice"], "pila": pila}
