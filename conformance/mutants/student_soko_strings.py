"""A correct seed-002 ``soko.py`` in the commonest student style: the grid is
the list of strings it was given, indexed ``grilla[f][c]`` with no bounds
checks, the player found by scanning the grid on every call, ``mover``
rebuilding the changed rows by slicing."""

PARED = "#"
CAJA = "$"
JUGADOR = "@"
OBJETIVO = "."
OBJETIVO_CAJA = "*"
OBJETIVO_JUGADOR = "+"
VACIO = " "


def crear_grilla(desc):
    '''Crea una grilla a partir de la descripción del estado inicial.'''
    return list(desc)


def dimensiones(grilla):
    '''Devuelve una tupla con la cantidad de columnas y filas de la grilla.'''
    return len(grilla[0]), len(grilla)


def hay_pared(grilla, c, f):
    return grilla[f][c] == PARED


def hay_objetivo(grilla, c, f):
    return grilla[f][c] == OBJETIVO or grilla[f][c] == OBJETIVO_CAJA or grilla[f][c] == OBJETIVO_JUGADOR


def hay_caja(grilla, c, f):
    return grilla[f][c] == CAJA or grilla[f][c] == OBJETIVO_CAJA


def hay_jugador(grilla, c, f):
    return grilla[f][c] == JUGADOR or grilla[f][c] == OBJETIVO_JUGADOR


def juego_ganado(grilla):
    for fila in grilla:
        if OBJETIVO in fila or OBJETIVO_JUGADOR in fila:
            return False
    return True


def encontrar_jugador(grilla):
    '''Devuelve (columna, fila) del jugador.'''
    for f in range(len(grilla)):
        for c in range(len(grilla[f])):
            if hay_jugador(grilla, c, f):
                return c, f


def poner(grilla, c, f, caracter):
    fila = grilla[f]
    grilla[f] = fila[:c] + caracter + fila[c + 1:]


def mover(grilla, direccion):
    dc, df = direccion
    c, f = encontrar_jugador(grilla)
    c1, f1 = c + dc, f + df
    c2, f2 = c1 + dc, f1 + df
    if hay_pared(grilla, c1, f1):
        return grilla
    nueva = grilla[:]       # the strings themselves are immutable
    if hay_caja(grilla, c1, f1):
        if hay_pared(grilla, c2, f2) or hay_caja(grilla, c2, f2):
            return grilla
        poner(nueva, c2, f2, OBJETIVO_CAJA if hay_objetivo(grilla, c2, f2) else CAJA)
    poner(nueva, c1, f1, OBJETIVO_JUGADOR if hay_objetivo(grilla, c1, f1) else JUGADOR)
    poner(nueva, c, f, OBJETIVO if hay_objetivo(grilla, c, f) else VACIO)
    return nueva
