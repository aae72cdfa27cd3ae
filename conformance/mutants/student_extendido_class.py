"""A correct extended game (seed 001) in the style of a C++ port: a
``Juego`` object that changes in place and returns itself, keeping a list of
snapshots of its current level for ``deshacer`` (the history starts afresh
on every level, as the seed makes a new Sokoban per level)."""

import copy


class Juego:
    def __init__(self, niveles):
        self.niveles = [copy.deepcopy(n) for n in niveles]
        self.indice = 0
        self.empezar()

    def empezar(self):
        nivel = self.niveles[self.indice]
        self.persona = list(nivel["personaje"])[0]
        self.cajas = set(nivel["cajas"])
        self.paredes = set(nivel["paredes"])
        self.depositos = set(nivel["depósitos"])
        self.bombas = nivel["bombas"]
        self.historia = []

    def foto(self):
        return (self.persona, set(self.cajas), set(self.paredes), self.bombas)

    def libre(self, p):
        return p not in self.paredes and p not in self.cajas


def nuevo_juego(niveles):
    return Juego(niveles)


def _delante(p, accion, veces=1):
    dx, dy = accion.value
    return (p[0] + veces * dx, p[1] + veces * dy)


def puede_mover(j, accion):
    uno = _delante(j.persona, accion)
    return j.libre(uno) or (uno in j.cajas and j.libre(_delante(j.persona, accion, 2)))


def mover(j, accion):
    j.historia.append(j.foto())
    uno = _delante(j.persona, accion)
    if uno in j.cajas:
        j.cajas.remove(uno)
        j.cajas.add(_delante(j.persona, accion, 2))
    j.persona = uno
    if j.cajas == j.depositos and j.indice + 1 < len(j.niveles):
        j.indice += 1
        j.empezar()
    return j


def tirar_bomba(j):
    j.historia.append(j.foto())
    x, y = j.persona
    for pared in list(j.paredes):
        if pared[0] == x or pared[1] == y:
            j.paredes.remove(pared)
    j.bombas -= 1
    return j


def deshacer(j):
    if j.historia:
        j.persona, j.cajas, j.paredes, j.bombas = j.historia.pop()
    return j


def indice_nivel(j):
    return j.indice


def persona(j):
    return j.persona


def bombas(j):
    return j.bombas


def gano(j):
    return j.cajas == j.depositos


def hay_pared(j, p):
    return p in j.paredes


def hay_caja(j, p):
    return p in j.cajas


def hay_deposito(j, p):
    return p in j.depositos
