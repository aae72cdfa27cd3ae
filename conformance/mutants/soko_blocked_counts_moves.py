"""Mistake: the grid keeps a move counter that also counts blocked moves,
so a blocked move returns a grid that is not equal to the one given.

Breaks: soko.blocked-same
"""
import student_soko


def crear_grilla(desc):
    return {"celdas": student_soko.crear_grilla(desc), "movimientos": 0}


def dimensiones(grilla):
    return student_soko.dimensiones(grilla["celdas"])


def hay_pared(grilla, c, f):
    return student_soko.hay_pared(grilla["celdas"], c, f)


def hay_objetivo(grilla, c, f):
    return student_soko.hay_objetivo(grilla["celdas"], c, f)


def hay_caja(grilla, c, f):
    return student_soko.hay_caja(grilla["celdas"], c, f)


def hay_jugador(grilla, c, f):
    return student_soko.hay_jugador(grilla["celdas"], c, f)


def juego_ganado(grilla):
    return student_soko.juego_ganado(grilla["celdas"])


def mover(grilla, direccion):
    return {"celdas": student_soko.mover(grilla["celdas"], direccion),
            "movimientos": grilla["movimientos"] + 1}
