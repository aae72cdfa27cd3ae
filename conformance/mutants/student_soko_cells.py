"""A correct seed-002 ``soko.py`` with a dict from ``(c, f)`` to the cell's
character (spaces included), the size stored under the key ``"tam"``;
``mover`` copies the dict and rewrites at most three cells."""

OBJETIVOS = ('.', '*', '+')


def crear_grilla(desc):
    grilla = {"tam": (len(desc[0]), len(desc))}
    for f, fila in enumerate(desc):
        for c, caracter in enumerate(fila):
            grilla[(c, f)] = caracter
    return grilla


def dimensiones(grilla):
    return grilla["tam"]


def hay_pared(grilla, c, f):
    return grilla[(c, f)] == '#'


def hay_objetivo(grilla, c, f):
    return grilla[(c, f)] in OBJETIVOS


def hay_caja(grilla, c, f):
    return grilla[(c, f)] in ('$', '*')


def hay_jugador(grilla, c, f):
    return grilla[(c, f)] in ('@', '+')


def juego_ganado(grilla):
    return '.' not in grilla.values() and '+' not in grilla.values()


def _jugador(grilla):
    for posicion, caracter in grilla.items():
        if caracter in ('@', '+'):
            return posicion


def mover(grilla, direccion):
    (c, f), (dc, df) = _jugador(grilla), direccion
    uno, dos = (c + dc, f + df), (c + 2 * dc, f + 2 * df)
    nueva = dict(grilla)
    if grilla[uno] == '#':
        return nueva
    if grilla[uno] in ('$', '*'):
        if grilla[dos] in ('#', '$', '*'):
            return nueva
        nueva[dos] = '*' if grilla[dos] in OBJETIVOS else '$'
    nueva[uno] = '+' if grilla[uno] in OBJETIVOS else '@'
    nueva[(c, f)] = '.' if grilla[(c, f)] in OBJETIVOS else ' '
    return nueva
