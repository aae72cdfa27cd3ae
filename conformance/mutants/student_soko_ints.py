"""A correct seed-002 ``soko.py`` in a C-like style: observers answering
``1`` / ``0`` instead of ``True`` / ``False``, the directions compared with
named constants, ``mover`` rebuilding the whole grid (a list of lists)."""

OESTE, ESTE, NORTE, SUR = (-1, 0), (1, 0), (0, -1), (0, 1)


def crear_grilla(desc):
    return [list(fila) for fila in desc]


def dimensiones(grilla):
    return (len(grilla[0]), len(grilla))


def hay_pared(grilla, c, f):
    if grilla[f][c] == '#':
        return 1
    return 0


def hay_objetivo(grilla, c, f):
    if grilla[f][c] == '.' or grilla[f][c] == '*' or grilla[f][c] == '+':
        return 1
    return 0


def hay_caja(grilla, c, f):
    if grilla[f][c] == '$' or grilla[f][c] == '*':
        return 1
    return 0


def hay_jugador(grilla, c, f):
    if grilla[f][c] == '@' or grilla[f][c] == '+':
        return 1
    return 0


def juego_ganado(grilla):
    libres = 0
    for fila in grilla:
        libres = libres + fila.count('.') + fila.count('+')
    if libres == 0:
        return 1
    return 0


def _celda_nueva(grilla, c, f, que):
    objetivo = hay_objetivo(grilla, c, f)
    if que == 'caja':
        return '*' if objetivo else '$'
    if que == 'jugador':
        return '+' if objetivo else '@'
    return '.' if objetivo else ' '


def mover(grilla, direccion):
    if direccion == OESTE:
        dc, df = -1, 0
    elif direccion == ESTE:
        dc, df = 1, 0
    elif direccion == NORTE:
        dc, df = 0, -1
    else:
        dc, df = 0, 1
    for f in range(len(grilla)):
        for c in range(len(grilla[f])):
            if hay_jugador(grilla, c, f):
                jc, jf = c, f
    cambios = {}
    if hay_pared(grilla, jc + dc, jf + df):
        return [fila[:] for fila in grilla]
    if hay_caja(grilla, jc + dc, jf + df):
        if hay_pared(grilla, jc + 2 * dc, jf + 2 * df) or hay_caja(grilla, jc + 2 * dc, jf + 2 * df):
            return [fila[:] for fila in grilla]
        cambios[(jc + 2 * dc, jf + 2 * df)] = _celda_nueva(grilla, jc + 2 * dc, jf + 2 * df, 'caja')
    cambios[(jc + dc, jf + df)] = _celda_nueva(grilla, jc + dc, jf + df, 'jugador')
    cambios[(jc, jf)] = _celda_nueva(grilla, jc, jf, 'nada')
    return [[cambios.get((c, f), x) for c, x in enumerate(fila)]
            for f, fila in enumerate(grilla)]
