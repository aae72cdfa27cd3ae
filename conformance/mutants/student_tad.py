"""A correct seed-000 implementation in a student's style (plain dicts and
sets). The ``tad_*`` mutants import it and redo one function wrongly."""

PERSONAJE, CAJAS, PAREDES, DEPOSITOS = "personaje", "cajas", "paredes", "depósitos"


def _paso(accion):
    return accion.value


def iniciar(nivel):
    return {k: set(nivel[k]) for k in (PERSONAJE, CAJAS, PAREDES, DEPOSITOS)}


def _jugador(juego):
    (p,) = juego[PERSONAJE]
    return p


def step(juego, accion):
    dx, dy = _paso(accion)
    x, y = _jugador(juego)
    frente, detras = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
    nuevo = {k: set(v) for k, v in juego.items()}
    if frente in juego[PAREDES]:
        return nuevo
    if frente in juego[CAJAS]:
        if detras in juego[PAREDES] or detras in juego[CAJAS]:
            return nuevo
        nuevo[CAJAS].remove(frente)
        nuevo[CAJAS].add(detras)
    nuevo[PERSONAJE] = {frente}
    return nuevo


def estado(juego):
    return {k: frozenset(v) for k, v in juego.items()}


def completado(juego):
    return juego[CAJAS] == juego[DEPOSITOS]
