"""Mistake: the map is stored as a bounded grid, the level's bounding box
plus a margin of 8 cells, and everything beyond it counts as wall. On an
open level a character who walks more than 8 cells away from the level is
stopped by an invisible wall. Only a far walk shows it.

Breaks: ext.walls
"""
from student_extendido import *  # noqa: F401,F403
from student_extendido import _actual, _siguiente

MARGEN = 8


def _caja_del_nivel(j):
    n = j["niveles"][j["indice"]]
    cosas = set(n["paredes"]) | set(n["cajas"]) | set(n["depósitos"]) | set(n["personaje"])
    xs = [p[0] for p in cosas]
    ys = [p[1] for p in cosas]
    return min(xs) - MARGEN, min(ys) - MARGEN, max(xs) + MARGEN, max(ys) + MARGEN


def _pared(j, p):
    x0, y0, x1, y1 = _caja_del_nivel(j)
    if not (x0 <= p[0] <= x1 and y0 <= p[1] <= y1):
        return True
    return p in _actual(j)["paredes"]


def hay_pared(j, p):
    return _pared(j, p)


def puede_mover(j, a):
    e = _actual(j)
    frente = _siguiente(e["persona"], a)
    if _pared(j, frente):
        return False
    if frente not in e["cajas"]:
        return True
    detras = _siguiente(frente, a)
    return not _pared(j, detras) and detras not in e["cajas"]
