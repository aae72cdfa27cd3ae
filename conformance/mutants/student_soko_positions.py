"""A correct seed-002 ``soko.py`` that keeps lists of positions, as some
students do: ``grilla = [paredes, cajas, jugador, objetivos, (ancho, alto)]``,
each a list of ``[c, f]`` lists, looked up by index (``grilla[1]`` the
boxes, ``grilla[3]`` the goals)."""

PAREDES, CAJAS, JUGADOR, OBJETIVOS, TAMANIO = 0, 1, 2, 3, 4


def crear_grilla(desc):
    grilla = [[], [], [], [], (len(desc[0]), len(desc))]
    for f in range(len(desc)):
        for c in range(len(desc[f])):
            caracter = desc[f][c]
            if caracter == '#':
                grilla[PAREDES].append([c, f])
            elif caracter == '$':
                grilla[CAJAS].append([c, f])
            elif caracter == '@':
                grilla[JUGADOR] = [c, f]
            elif caracter == '.':
                grilla[OBJETIVOS].append([c, f])
            elif caracter == '*':
                grilla[CAJAS].append([c, f])
                grilla[OBJETIVOS].append([c, f])
            elif caracter == '+':
                grilla[JUGADOR] = [c, f]
                grilla[OBJETIVOS].append([c, f])
    return grilla


def dimensiones(grilla):
    return grilla[TAMANIO]


def hay_pared(grilla, c, f):
    return [c, f] in grilla[PAREDES]


def hay_objetivo(grilla, c, f):
    return [c, f] in grilla[OBJETIVOS]


def hay_caja(grilla, c, f):
    return [c, f] in grilla[CAJAS]


def hay_jugador(grilla, c, f):
    return grilla[JUGADOR] == [c, f]


def juego_ganado(grilla):
    for objetivo in grilla[OBJETIVOS]:
        if objetivo not in grilla[CAJAS]:
            return False
    return True


def mover(grilla, direccion):
    cajas = [caja[:] for caja in grilla[CAJAS]]
    nueva = [grilla[PAREDES], cajas, grilla[JUGADOR][:], grilla[OBJETIVOS], grilla[TAMANIO]]
    c = grilla[JUGADOR][0] + direccion[0]
    f = grilla[JUGADOR][1] + direccion[1]
    if hay_pared(grilla, c, f):
        return nueva
    if hay_caja(grilla, c, f):
        c2, f2 = c + direccion[0], f + direccion[1]
        if hay_pared(grilla, c2, f2) or hay_caja(grilla, c2, f2):
            return nueva
        cajas[cajas.index([c, f])] = [c2, f2]
    nueva[JUGADOR] = [c, f]
    return nueva
