"""A correct implementation of the extended game (seed 001) in a student's
style: a juego is a dict with the levels, the index and a stack of states.
The ``ext_*`` mutants import it and redo one function wrongly."""


def _estado(nivel):
    (p,) = nivel["personaje"]
    return {"persona": p, "cajas": frozenset(nivel["cajas"]),
            "paredes": frozenset(nivel["paredes"]),
            "depositos": frozenset(nivel["depósitos"]), "bombas": nivel["bombas"]}


def nuevo_juego(niveles):
    niveles = list(niveles)
    return {"niveles": niveles, "indice": 0, "pila": [_estado(niveles[0])]}


def _actual(j):
    return j["pila"][-1]


def _siguiente(p, a):
    return (p[0] + a.value[0], p[1] + a.value[1])


def _libre(e, p):
    return p not in e["paredes"] and p not in e["cajas"]


def puede_mover(j, a):
    e = _actual(j)
    frente = _siguiente(e["persona"], a)
    if _libre(e, frente):
        return True
    return frente in e["cajas"] and _libre(e, _siguiente(frente, a))


def _con(j, nuevo):
    return {"niveles": j["niveles"], "indice": j["indice"], "pila": j["pila"] + [nuevo]}


def mover(j, a):
    e = _actual(j)
    frente = _siguiente(e["persona"], a)
    cajas = e["cajas"]
    if frente in cajas:
        cajas = (cajas - {frente}) | {_siguiente(frente, a)}
    nuevo = dict(e, persona=frente, cajas=cajas)
    if cajas == e["depositos"] and j["indice"] + 1 < len(j["niveles"]):
        i = j["indice"] + 1
        return {"niveles": j["niveles"], "indice": i, "pila": [_estado(j["niveles"][i])]}
    return _con(j, nuevo)


def tirar_bomba(j):
    e = _actual(j)
    x, y = e["persona"]
    paredes = frozenset(p for p in e["paredes"] if p[0] != x and p[1] != y)
    return _con(j, dict(e, paredes=paredes, bombas=e["bombas"] - 1))


def deshacer(j):
    if len(j["pila"]) == 1:
        return j
    return {"niveles": j["niveles"], "indice": j["indice"], "pila": j["pila"][:-1]}


def indice_nivel(j):
    return j["indice"]


def persona(j):
    return _actual(j)["persona"]


def bombas(j):
    return _actual(j)["bombas"]


def gano(j):
    e = _actual(j)
    return e["cajas"] == e["depositos"]


def hay_pared(j, p):
    return p in _actual(j)["paredes"]


def hay_caja(j, p):
    return p in _actual(j)["cajas"]


def hay_deposito(j, p):
    return p in _actual(j)["depositos"]
