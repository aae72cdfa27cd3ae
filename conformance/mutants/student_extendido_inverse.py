"""A correct extended game (seed 001) whose undo stack holds *inverse
operations*, not copies: each entry says where the character was, which box
moved (from, to) and which walls a bomb destroyed. The juego is a dict that
every operation copies (shallowly, with new sets where it changes them)."""

PASO = {"ARRIBA": (0, -1), "ABAJO": (0, 1), "IZQUIERDA": (-1, 0), "DERECHA": (1, 0),
        "NORTE": (0, -1), "SUR": (0, 1), "OESTE": (-1, 0), "ESTE": (1, 0)}


def _cargar(niveles, i):
    n = niveles[i]
    return {"niveles": niveles, "i": i, "persona": min(n["personaje"]),
            "cajas": frozenset(n["cajas"]), "paredes": frozenset(n["paredes"]),
            "depositos": frozenset(n["depósitos"]), "bombas": n["bombas"], "deshacer": ()}


def nuevo_juego(niveles):
    return _cargar(tuple(niveles), 0)


def _suma(p, d, k=1):
    return (p[0] + k * d[0], p[1] + k * d[1])


def puede_mover(j, accion):
    d = PASO[accion.name]
    uno, dos = _suma(j["persona"], d), _suma(j["persona"], d, 2)
    if uno in j["paredes"]:
        return False
    if uno in j["cajas"]:
        return dos not in j["paredes"] and dos not in j["cajas"]
    return True


def mover(j, accion):
    d = PASO[accion.name]
    uno = _suma(j["persona"], d)
    caja = None
    cajas = j["cajas"]
    if uno in cajas:
        caja = (uno, _suma(uno, d))
        cajas = (cajas - {uno}) | {caja[1]}
    if cajas == j["depositos"] and j["i"] + 1 < len(j["niveles"]):
        return _cargar(j["niveles"], j["i"] + 1)
    nuevo = dict(j, persona=uno, cajas=cajas)
    nuevo["deshacer"] = j["deshacer"] + (("mover", j["persona"], caja),)
    return nuevo


def tirar_bomba(j):
    x, y = j["persona"]
    rotas = frozenset(p for p in j["paredes"] if p[0] == x or p[1] == y)
    nuevo = dict(j, paredes=j["paredes"] - rotas, bombas=j["bombas"] - 1)
    nuevo["deshacer"] = j["deshacer"] + (("bomba", rotas),)
    return nuevo


def deshacer(j):
    if not j["deshacer"]:
        return j
    ultimo = j["deshacer"][-1]
    nuevo = dict(j, deshacer=j["deshacer"][:-1])
    if ultimo[0] == "mover":
        nuevo["persona"] = ultimo[1]
        if ultimo[2] is not None:
            desde, hasta = ultimo[2]
            nuevo["cajas"] = (j["cajas"] - {hasta}) | {desde}
    else:
        nuevo["paredes"] = j["paredes"] | ultimo[1]
        nuevo["bombas"] = j["bombas"] + 1
    return nuevo


def indice_nivel(j):
    return j["i"]


def persona(j):
    return j["persona"]


def bombas(j):
    return j["bombas"]


def gano(j):
    return j["cajas"] == j["depositos"]


def hay_pared(j, p):
    return p in j["paredes"]


def hay_caja(j, p):
    return p in j["cajas"]


def hay_deposito(j, p):
    return p in j["depositos"]
