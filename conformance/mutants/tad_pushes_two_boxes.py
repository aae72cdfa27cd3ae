"""Mistake: pushing a box into another box pushes both (a train of boxes).

Breaks: tad.push-blocked
"""
from student_tad import *  # noqa: F401,F403
from student_tad import CAJAS, PAREDES, PERSONAJE, _jugador


def step(juego, accion):
    dx, dy = accion.value
    x, y = _jugador(juego)
    nuevo = {k: set(v) for k, v in juego.items()}
    frente = (x + dx, y + dy)
    if frente in juego[PAREDES]:
        return nuevo
    tren = []
    p = frente
    while p in juego[CAJAS]:
        tren.append(p)
        p = (p[0] + dx, p[1] + dy)
    if p in juego[PAREDES]:
        return nuevo
    for caja in tren:
        nuevo[CAJAS].remove(caja)
    for caja in tren:
        nuevo[CAJAS].add((caja[0] + dx, caja[1] + dy))
    nuevo[PERSONAJE] = {frente}
    return nuevo
