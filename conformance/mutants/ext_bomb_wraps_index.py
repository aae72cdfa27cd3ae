"""Mistake: a bomb finds the column and row to clear by indexing an array
of the level's columns (``columnas[x - x0]``) and rows. Thrown while the
character stands left of or above the level's walls, the negative index
wraps around (Python lists, like an unchecked C++ index) and clears a
column or row on the far side instead. Only a far walk and a bomb show it.

Breaks: ext.bomb
"""
from student_extendido import *  # noqa: F401,F403
from student_extendido import _actual, _con


def _indice(valores, v):
    if not valores:
        return None
    lista = list(range(min(valores), max(valores) + 1))
    try:
        return lista[v - lista[0]]
    except IndexError:
        return None


def tirar_bomba(j):
    e = _actual(j)
    x, y = e["persona"]
    n = j["niveles"][j["indice"]]
    columna = _indice({p[0] for p in n["paredes"]}, x)
    fila = _indice({p[1] for p in n["paredes"]}, y)
    paredes = frozenset(p for p in e["paredes"] if p[0] != columna and p[1] != fila)
    return _con(j, dict(e, paredes=paredes, bombas=e["bombas"] - 1))
