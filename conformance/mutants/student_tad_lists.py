"""A correct seed-000 implementation over lists: the juego is a dict of
lists of ``[x, y]`` lists, copied on every step; the action is turned into a
step with a table keyed by name (seed 000's names and seed 001's);
``estado`` builds the sets of tuples the seed asks for; ``completado``
answers ``None`` rather than False when a box is off its depot."""

PASOS = {"ARRIBA": (0, -1), "ABAJO": (0, 1), "IZQUIERDA": (-1, 0), "DERECHA": (1, 0),
         "NORTE": (0, -1), "SUR": (0, 1), "OESTE": (-1, 0), "ESTE": (1, 0)}
CLAVES = ["personaje", "cajas", "paredes", "depósitos"]


def iniciar(nivel):
    juego = {}
    for clave in CLAVES:
        juego[clave] = [[x, y] for (x, y) in nivel[clave]]
    return juego


def step(juego, accion):
    dx, dy = PASOS[accion.name]
    nuevo = {clave: [p[:] for p in juego[clave]] for clave in CLAVES}
    x, y = juego["personaje"][0]
    siguiente = [x + dx, y + dy]
    if siguiente in juego["paredes"]:
        return nuevo
    if siguiente in juego["cajas"]:
        otra = [x + 2 * dx, y + 2 * dy]
        if otra in juego["paredes"] or otra in juego["cajas"]:
            return nuevo
        nuevo["cajas"].remove(siguiente)
        nuevo["cajas"].append(otra)
    nuevo["personaje"] = [siguiente]
    return nuevo


def estado(juego):
    return {clave: {tuple(p) for p in juego[clave]} for clave in CLAVES}


def completado(juego):
    for caja in juego["cajas"]:
        if caja not in juego["depósitos"]:
            return None
    if len(juego["cajas"]) == len(juego["depósitos"]):
        return True
