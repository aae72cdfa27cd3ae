"""A correct extended game (seed 001) with its own ``Accion`` enum named as
seed 001 names the directions (``NORTE``, ``SUR``, ``ESTE``, ``OESTE``; y
grows south here, as in seed 000), a ``persona`` answered as a list
``[x, y]``, and levels kept as a list of per-level stacks of tuples."""

from enum import Enum


class Accion(Enum):
    NORTE = (0, -1)
    SUR = (0, 1)
    ESTE = (1, 0)
    OESTE = (-1, 0)


SINONIMOS = {"ARRIBA": "NORTE", "ABAJO": "SUR", "DERECHA": "ESTE", "IZQUIERDA": "OESTE"}


def _direccion(accion):
    nombre = SINONIMOS.get(accion.name, accion.name)
    return Accion[nombre].value


def nuevo_juego(niveles):
    niveles = list(niveles)
    n = niveles[0]
    inicial = (list(n["personaje"])[0], frozenset(n["cajas"]), frozenset(n["paredes"]),
               n["bombas"])
    return (tuple(niveles), 0, (inicial,))


def _tope(j):
    return j[2][-1]


def puede_mover(j, accion):
    (x, y), cajas, paredes, _ = _tope(j)
    dx, dy = _direccion(accion)
    a, b = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
    if a in paredes:
        return False
    return a not in cajas or (b not in paredes and b not in cajas)


def mover(j, accion):
    niveles, i, pila = j
    (x, y), cajas, paredes, bombas_ = pila[-1]
    dx, dy = _direccion(accion)
    a = (x + dx, y + dy)
    if a in cajas:
        cajas = cajas - {a} | {(x + 2 * dx, y + 2 * dy)}
    depositos = frozenset(niveles[i]["depósitos"])
    if cajas == depositos and i + 1 < len(niveles):
        n = niveles[i + 1]
        inicial = (list(n["personaje"])[0], frozenset(n["cajas"]), frozenset(n["paredes"]),
                   n["bombas"])
        return (niveles, i + 1, (inicial,))
    return (niveles, i, pila + ((a, cajas, paredes, bombas_),))


def tirar_bomba(j):
    niveles, i, pila = j
    (x, y), cajas, paredes, bombas_ = pila[-1]
    quedan = frozenset(p for p in paredes if p[0] != x and p[1] != y)
    return (niveles, i, pila + (((x, y), cajas, quedan, bombas_ - 1),))


def deshacer(j):
    niveles, i, pila = j
    if len(pila) > 1:
        return (niveles, i, pila[:-1])
    return j


def indice_nivel(j):
    return j[1]


def persona(j):
    return list(_tope(j)[0])


def bombas(j):
    return _tope(j)[3]


def gano(j):
    return _tope(j)[1] == frozenset(j[0][j[1]]["depósitos"])


def hay_pared(j, p):
    return p in _tope(j)[2]


def hay_caja(j, p):
    return p in _tope(j)[1]


def hay_deposito(j, p):
    return p in j[0][j[1]]["depósitos"]
