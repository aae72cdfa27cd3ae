"""A correct seed-000 implementation that defines its own ``Accion`` enum
(the seed's members, their step vectors as values) and keeps a juego as an
immutable tuple ``(personaje, cajas, paredes, depositos)`` of a position and
three frozensets. An action given to ``step`` is looked up by its name."""

from enum import Enum


class Accion(Enum):
    ARRIBA = (0, -1)
    ABAJO = (0, 1)
    IZQUIERDA = (-1, 0)
    DERECHA = (1, 0)


def iniciar(nivel):
    (personaje,) = nivel["personaje"]
    return (personaje, frozenset(nivel["cajas"]), frozenset(nivel["paredes"]),
            frozenset(nivel["depósitos"]))


def step(juego, accion):
    personaje, cajas, paredes, depositos = juego
    dx, dy = Accion[accion.name].value
    adelante = (personaje[0] + dx, personaje[1] + dy)
    if adelante in paredes:
        return juego
    if adelante in cajas:
        mas_alla = (adelante[0] + dx, adelante[1] + dy)
        if mas_alla in paredes or mas_alla in cajas:
            return juego
        cajas = (cajas - {adelante}) | {mas_alla}
    return (adelante, cajas, paredes, depositos)


def estado(juego):
    personaje, cajas, paredes, depositos = juego
    return {"personaje": {personaje}, "cajas": set(cajas), "paredes": set(paredes),
            "depósitos": set(depositos)}


def completado(juego):
    return juego[1] == juego[3]
