"""Mistake: deshacer after tirar_bomba rebuilds the walls but keeps the
bomb spent.

Breaks: ext.undo
"""
from student_extendido import *  # noqa: F401,F403


def deshacer(j):
    if len(j["pila"]) == 1:
        return j
    pila = j["pila"][:-1]
    pila[-1] = dict(pila[-1], bombas=j["pila"][-1]["bombas"])
    return {"niveles": j["niveles"], "indice": j["indice"], "pila": pila}
