"""A correct seed-000 implementation as a class: ``Juego`` objects with one
attribute per part of the level; ``step`` returns a new object (the old one
stays as it was) and reads the action's step vector as ``accion.value``."""


class Juego:
    def __init__(self, personaje, cajas, paredes, depositos):
        self.personaje = personaje
        self.cajas = cajas
        self.paredes = paredes
        self.depositos = depositos

    def libre(self, posicion):
        return posicion not in self.paredes and posicion not in self.cajas

    def mover(self, dx, dy):
        x, y = self.personaje
        uno, dos = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
        if self.libre(uno):
            return Juego(uno, self.cajas, self.paredes, self.depositos)
        if uno in self.cajas and self.libre(dos):
            cajas = set(self.cajas)
            cajas.discard(uno)
            cajas.add(dos)
            return Juego(uno, cajas, self.paredes, self.depositos)
        return self


def iniciar(nivel):
    personaje = list(nivel["personaje"])[0]
    return Juego(personaje, set(nivel["cajas"]), set(nivel["paredes"]),
                 set(nivel["depósitos"]))


def step(juego, accion):
    dx, dy = accion.value
    return juego.mover(dx, dy)


def estado(juego):
    return {"personaje": {juego.personaje}, "cajas": set(juego.cajas),
            "paredes": set(juego.paredes), "depósitos": set(juego.depositos)}


def completado(juego):
    return juego.cajas == juego.depositos
