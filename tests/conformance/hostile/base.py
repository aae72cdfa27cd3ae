"""A correct seed-002 soko.py: every hostile submission is this plus one trick
(the test copies it beside each trick as ``base.py``)."""


def crear_grilla(desc):
    return [list(fila) for fila in desc]


def dimensiones(grilla):
    return (max((len(fila) for fila in grilla), default=0), len(grilla))


def _celda(grilla, c, f):
    if 0 <= f < len(grilla) and 0 <= c < len(grilla[f]):
        return grilla[f][c]
    return " "


def hay_pared(grilla, c, f):
    return _celda(grilla, c, f) == "#"


def hay_objetivo(grilla, c, f):
    return _celda(grilla, c, f) in ".*+"


def hay_caja(grilla, c, f):
    return _celda(grilla, c, f) in "$*"


def hay_jugador(grilla, c, f):
    return _celda(grilla, c, f) in "@+"


def juego_ganado(grilla):
    return not any(ch in ".+" for fila in grilla for ch in fila)


def _jugador(grilla):
    for f, fila in enumerate(grilla):
        for c, ch in enumerate(fila):
            if ch in "@+":
                return c, f


def _poner(grilla, c, f, que):
    objetivo = hay_objetivo(grilla, c, f)
    while len(grilla[f]) <= c:
        grilla[f].append(" ")
    grilla[f][c] = {"caja": "*$", "jugador": "+@", "nada": ". "}[que][0 if objetivo else 1]


def mover(grilla, direccion):
    dx, dy = direccion
    nueva = [list(fila) for fila in grilla]
    c, f = _jugador(grilla)
    c1, f1, c2, f2 = c + dx, f + dy, c + 2 * dx, f + 2 * dy
    if hay_pared(grilla, c1, f1):
        return nueva
    if hay_caja(grilla, c1, f1):
        if hay_pared(grilla, c2, f2) or hay_caja(grilla, c2, f2):
            return nueva
        _poner(nueva, c2, f2, "caja")
    _poner(nueva, c1, f1, "jugador")
    _poner(nueva, c, f, "nada")
    return nueva
