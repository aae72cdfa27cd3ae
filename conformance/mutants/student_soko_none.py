"""A correct seed-002 ``soko.py`` that answers ``None`` for False: the
observers say ``if ...: return True`` and fall off the end otherwise (the
course's test only asks ``assert`` / ``assert not``). A list of lists of
characters, copied with ``copy.deepcopy`` on every move."""

import copy


def crear_grilla(desc):
    grilla = []
    for linea in desc:
        fila = []
        for caracter in linea:
            fila.append(caracter)
        grilla.append(fila)
    return grilla


def dimensiones(grilla):
    return (len(grilla[0]), len(grilla))


def hay_pared(grilla, c, f):
    if grilla[f][c] == '#':
        return True


def hay_objetivo(grilla, c, f):
    if grilla[f][c] in ('.', '*', '+'):
        return True


def hay_caja(grilla, c, f):
    if grilla[f][c] in ('$', '*'):
        return True


def hay_jugador(grilla, c, f):
    if grilla[f][c] in ('@', '+'):
        return True


def juego_ganado(grilla):
    for fila in grilla:
        for celda in fila:
            if celda == '.' or celda == '+':
                return
    return True


def posicion_jugador(grilla):
    for f in range(len(grilla)):
        for c in range(len(grilla[f])):
            if hay_jugador(grilla, c, f):
                return c, f


def mover(grilla, direccion):
    nueva = copy.deepcopy(grilla)
    c, f = posicion_jugador(grilla)
    x, y = c + direccion[0], f + direccion[1]
    if hay_pared(grilla, x, y):
        return nueva
    if hay_caja(grilla, x, y):
        x2, y2 = x + direccion[0], y + direccion[1]
        if hay_pared(grilla, x2, y2) or hay_caja(grilla, x2, y2):
            return nueva
        if hay_objetivo(grilla, x2, y2):
            nueva[y2][x2] = '*'
        else:
            nueva[y2][x2] = '$'
    if hay_objetivo(grilla, x, y):
        nueva[y][x] = '+'
    else:
        nueva[y][x] = '@'
    if hay_objetivo(grilla, c, f):
        nueva[f][c] = '.'
    else:
        nueva[f][c] = ' '
    return nueva
