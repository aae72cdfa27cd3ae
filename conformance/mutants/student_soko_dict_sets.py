"""A correct seed-002 ``soko.py`` with the grid as a dict of sets of
``(c, f)`` positions, and ``dimensiones`` answering a list ``[columnas,
filas]`` (the course's test unpacks it: ``w, h = soko.dimensiones(g)``)."""


def crear_grilla(desc):
    grilla = {"paredes": set(), "cajas": set(), "objetivos": set(), "jugador": None,
              "tam": [len(desc[0]), len(desc)]}
    for f, fila in enumerate(desc):
        for c, caracter in enumerate(fila):
            if caracter == "#":
                grilla["paredes"].add((c, f))
            if caracter in "$*":
                grilla["cajas"].add((c, f))
            if caracter in ".*+":
                grilla["objetivos"].add((c, f))
            if caracter in "@+":
                grilla["jugador"] = (c, f)
    return grilla


def dimensiones(grilla):
    return grilla["tam"]


def hay_pared(grilla, c, f):
    return (c, f) in grilla["paredes"]


def hay_objetivo(grilla, c, f):
    return (c, f) in grilla["objetivos"]


def hay_caja(grilla, c, f):
    return (c, f) in grilla["cajas"]


def hay_jugador(grilla, c, f):
    return grilla["jugador"] == (c, f)


def juego_ganado(grilla):
    return grilla["objetivos"].issubset(grilla["cajas"])


def mover(grilla, direccion):
    nueva = {"paredes": grilla["paredes"], "cajas": set(grilla["cajas"]),
             "objetivos": grilla["objetivos"], "jugador": grilla["jugador"],
             "tam": grilla["tam"]}
    c, f = grilla["jugador"]
    siguiente = (c + direccion[0], f + direccion[1])
    despues = (siguiente[0] + direccion[0], siguiente[1] + direccion[1])
    if siguiente in grilla["paredes"]:
        return nueva
    if siguiente in grilla["cajas"]:
        if despues in grilla["paredes"] or despues in grilla["cajas"]:
            return nueva
        nueva["cajas"].remove(siguiente)
        nueva["cajas"].add(despues)
    nueva["jugador"] = siguiente
    return nueva
