"""Mistake: the character cannot step onto a goal (goals treated like walls
when walking; boxes still go onto them).

Breaks: tad.step
"""
from student_tad import *  # noqa: F401,F403
from student_tad import CAJAS, DEPOSITOS, PAREDES, PERSONAJE, _jugador


def step(juego, accion):
    dx, dy = accion.value
    x, y = _jugador(juego)
    frente, detras = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
    nuevo = {k: set(v) for k, v in juego.items()}
    if frente in juego[PAREDES]:
        return nuevo
    if frente in juego[CAJAS]:
        if detras in juego[PAREDES] or detras in juego[CAJAS]:
            return nuevo
        nuevo[CAJAS].remove(frente)
        nuevo[CAJAS].add(detras)
    elif frente in juego[DEPOSITOS]:
        return nuevo
    nuevo[PERSONAJE] = {frente}
    return nuevo
