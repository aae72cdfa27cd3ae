"""A correct seed-002 ``soko.py`` with a small class: a ``Grilla`` object
holding the rows as lists, with ``__eq__`` (so a blocked move compares equal)
and no ``__hash__`` (defining ``__eq__`` removes it, as students find out)."""


class Grilla:
    def __init__(self, filas, jugador):
        self.filas = filas
        self.jugador = jugador

    def __eq__(self, otra):
        return isinstance(otra, Grilla) and self.filas == otra.filas

    def __repr__(self):
        return "\n".join("".join(fila) for fila in self.filas)

    def celda(self, c, f):
        return self.filas[f][c]

    def copiar(self):
        return Grilla([fila[:] for fila in self.filas], self.jugador)


def crear_grilla(desc):
    filas = [list(linea) for linea in desc]
    jugador = None
    for f, fila in enumerate(filas):
        for c, x in enumerate(fila):
            if x in "@+":
                jugador = (c, f)
    return Grilla(filas, jugador)


def dimensiones(grilla):
    return len(grilla.filas[0]), len(grilla.filas)


def hay_pared(grilla, c, f):
    return grilla.celda(c, f) == "#"


def hay_objetivo(grilla, c, f):
    return grilla.celda(c, f) in ".*+"


def hay_caja(grilla, c, f):
    return grilla.celda(c, f) in "$*"


def hay_jugador(grilla, c, f):
    return (c, f) == grilla.jugador


def juego_ganado(grilla):
    return not any("." in fila or "+" in fila for fila in grilla.filas)


def _dejar(grilla, c, f, con_objetivo, sin_objetivo):
    grilla.filas[f][c] = con_objetivo if hay_objetivo(grilla, c, f) else sin_objetivo


def mover(grilla, direccion):
    c, f = grilla.jugador
    dc, df = direccion
    if hay_pared(grilla, c + dc, f + df):
        return grilla
    nueva = grilla.copiar()
    if hay_caja(grilla, c + dc, f + df):
        if hay_pared(grilla, c + 2 * dc, f + 2 * df) or hay_caja(grilla, c + 2 * dc, f + 2 * df):
            return grilla
        _dejar(nueva, c + 2 * dc, f + 2 * df, "*", "$")
    _dejar(nueva, c + dc, f + df, "+", "@")
    _dejar(nueva, c, f, ".", " ")
    nueva.jugador = (c + dc, f + df)
    return nueva
