"""Mistake: when the box cannot move, the character still steps onto it.

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
    if frente in juego[CAJAS] and not (detras in juego[PAREDES] or detras in juego[CAJAS]):
        nuevo[CAJAS].remove(frente)
        nuevo[CAJAS].add(detras)
    nuevo[PERSONAJE] = {frente}
    return nuevo
