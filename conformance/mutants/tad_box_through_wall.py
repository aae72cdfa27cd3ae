"""Mistake: a box is pushed without looking at what is behind it (into walls).

Breaks: tad.push-blocked
"""
from student_tad import *  # noqa: F401,F403
from student_tad import CAJAS, PAREDES, PERSONAJE, _jugador


def step(juego, accion):
    dx, dy = accion.value
    x, y = _jugador(juego)
    frente, detras = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
    nuevo = {k: set(v) for k, v in juego.items()}
    if frente in juego[PAREDES]:
        return nuevo
    if frente in juego[CAJAS]:
        if detras in juego[CAJAS]:
            return nuevo
        nuevo[CAJAS].remove(frente)
        nuevo[CAJAS].add(detras)
    nuevo[PERSONAJE] = {frente}
    return nuevo
