"""Mistake: winning a level jumps two levels ahead (an index incremented
twice), when there are two more.

Breaks: ext.advance
"""
from student_extendido import *  # noqa: F401,F403
from student_extendido import _actual, _con, _estado, _siguiente


def mover(j, a):
    e = _actual(j)
    frente = _siguiente(e["persona"], a)
    cajas = e["cajas"]
    if frente in cajas:
        cajas = (cajas - {frente}) | {_siguiente(frente, a)}
    nuevo = dict(e, persona=frente, cajas=cajas)
    if cajas == e["depositos"] and j["indice"] + 1 < len(j["niveles"]):
        i = min(j["indice"] + 2, len(j["niveles"]) - 1)
        return {"niveles": j["niveles"], "indice": i, "pila": [_estado(j["niveles"][i])]}
    return _con(j, nuevo)
