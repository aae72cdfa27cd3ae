"""Módulo Nivel (seed 001): the map, the character, the boxes and the bombs left.

Representation (ours)::

    Nivel se representa con estr
    donde estr es tupla < mapa:          Mapa
                          persona:       coord
                          cajas:         conj(coord)   -- hash set (seed 001: lista)
                          bombas:        nat
                          cantidad_cajas: nat          -- #cajas at creation
                          en_deposito:   nat >         -- #(cajas ∩ depósitos(mapa))

    Rep (checked when contracts are on):
      ¬hayPared?(mapa, persona) ∧ persona ∉ cajas      -- O(1): Nivel's invariants
      #cajas = cantidad_cajas                          -- boxes are never lost
      bombas ≥ 0
      (∀ c ∈ cajas) ¬hayPared?(mapa, c)                 -- O(C): checked by the
      en_deposito = #{c ∈ cajas | hayDepósito?(mapa, c)}   Sokoban that owns it

The two O(C) parts are class invariants of :class:`~impl.sokoban.Sokoban`,
the only one who changes a Nivel: icontract checks a class's invariants
around *every* public call, and a Sokoban operation makes dozens of calls to
its Nivel, but only one (outermost) call to itself.

Seed 001 keeps the boxes in a linked list and finds one by walking it; the
Sokoban then remembers an iterator to the box it pushed so that undo is O(1).
A hash set makes every box question O(1) and a box is named by its position,
so no iterator has to be kept. ``en_deposito`` is kept up to date by
``modificar_caja`` and makes ``ganó?`` O(1) (seed 001: O(C²)).

Complexity (C boxes, D depots)::

    operation                      seed 001      ours
    mapaN, personaN, #bombasN      O(1)          O(1)
    cajasN                         O(C)          O(C) (a frozen copy)
    hayCaja? (Sokoban's, here)     O(C)          O(1)
    modificarCaja                  O(1) (given an iterator)  O(1) (given the position)
    modificarPersona               O(1)          O(1)
    nuevoN                         O(1) (aliases its arguments)  O(C) (copies the boxes)

"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from impl.contracts import ensure, invariant, require, snapshot
from impl.mapa import Mapa
from spec.tipos import BOMBAS, CAJAS, CLAVES, DEPOSITOS, PAREDES, PERSONAJE, Posicion


def problemas(n: object) -> list[str]:
    """Why ``n`` is not a valid level (seed 000's ``nivelVálido?`` with the
    errata, plus ``"bombas"``, a nat, optional and 0 when missing); ``[]`` when
    it is valid. O(P + C + D)."""
    if not isinstance(n, Mapping):
        return [f"a level is a dict, not {type(n).__name__}"]
    claves = set(n.keys())
    faltan = [k for k in CLAVES if k not in claves]
    sobran = sorted(map(repr, claves - set(CLAVES) - {BOMBAS}))
    out = []
    if faltan:
        out.append(f"missing keys: {', '.join(map(repr, faltan))}")
    if sobran:
        out.append(f"unexpected keys: {', '.join(sobran)}")
    if out:
        return out
    for k in CLAVES:
        v = n[k]
        if not isinstance(v, (set, frozenset)):
            out.append(f"{k!r} must be a set of positions, not {type(v).__name__}")
            continue
        malas = [p for p in v if not (isinstance(p, tuple) and len(p) == 2 and all(
            isinstance(i, int) and not isinstance(i, bool) for i in p))]
        if malas:
            out.append(f"{k!r} holds {malas[0]!r}, which is not a position (x, y) of ints")
    if out:
        return out
    b = n.get(BOMBAS, 0)
    if not isinstance(b, int) or isinstance(b, bool) or b < 0:
        out.append(f"'bombas' must be a natural number, not {b!r}")
    personaje, cajas, paredes, depositos = (n[k] for k in CLAVES)
    if len(personaje) != 1:
        out.append(f"'personaje' must hold exactly one position, it holds {len(personaje)}")
    else:
        (p,) = personaje
        if p in cajas:
            out.append(f"the character {p} is on a box")
        if p in paredes:
            out.append(f"the character {p} is on a wall")
    if len(cajas) != len(depositos):
        out.append(f"{len(cajas)} boxes but {len(depositos)} depots")
    for nombre, conjunto in (("box", cajas), ("depot", depositos)):
        comunes = paredes & conjunto
        if comunes:
            out.append(f"a {nombre} is on a wall at {min(comunes)}")
    return out


def pared_en_pie(m: Mapa, c: Posicion) -> bool:
    """The Mapa's own test, without going through its public (contracted)
    method: for the invariants."""
    return (c in m._paredes and c[0] not in m._columnas_voladas
            and c[1] not in m._filas_voladas)


@invariant(lambda self: not pared_en_pie(self._mapa, self._persona),
           "the character is not on a standing wall")
@invariant(lambda self: self._persona not in self._cajas, "the character is not on a box")
@invariant(lambda self: len(self._cajas) == self._cantidad_cajas,
           "the number of boxes never changes")
@invariant(lambda self: self._bombas >= 0, "the bombs left are a natural number")
class Nivel:
    """One level being played: mutable, changed only through its operations."""

    __slots__ = ("_mapa", "_persona", "_cajas", "_bombas", "_cantidad_cajas", "_en_deposito")

    def __init__(self, mapa: Mapa, persona: Posicion, cajas: Iterable[Posicion], bombas: int = 0):
        """``nuevoN(m, p, cs, b)``. O(C): the boxes are copied into a set."""
        self._mapa = mapa
        self._persona = persona
        self._cajas = set(cajas)
        self._bombas = bombas
        self._cantidad_cajas = len(self._cajas)
        self._en_deposito = len(mapa.depositos().intersection(self._cajas))

    @classmethod
    def desde(cls, n: Mapping) -> "Nivel":
        """The Nivel of a level dict (a ``NivelExtendido``, or seed 000's
        ``Nivel`` with no ``"bombas"``: 0 bombs). O(P + C + D): the level is
        validated; frozen walls and depots are then shared, not copied.
        Raises :class:`spec.PreconditionError` naming the problems if ``n``
        is not a valid level."""
        errores = problemas(n)
        if errores:
            from spec import PreconditionError
            raise PreconditionError("not a valid level: " + "; ".join(errores))
        (persona,) = n[PERSONAJE]
        return cls(Mapa(n[PAREDES], n[DEPOSITOS]), persona, n[CAJAS], n.get(BOMBAS, 0))

    # -- observers ---------------------------------------------------------

    def mapa(self) -> Mapa:
        """``mapaN(n)``: the map, by reference. O(1)."""
        return self._mapa

    def persona(self) -> Posicion:
        """``personaN(n)``. O(1)."""
        return self._persona

    def cajas(self) -> frozenset[Posicion]:
        """``cajasN(n)``: a frozen copy. O(C)."""
        return frozenset(self._cajas)

    def hay_caja(self, c: Posicion) -> bool:
        """Whether a box is at ``c``. O(1)."""
        return c in self._cajas

    def bombas(self) -> int:
        """``#bombasN(n)``. O(1)."""
        return self._bombas

    def cantidad_cajas(self) -> int:
        """How many boxes the level has. O(1)."""
        return self._cantidad_cajas

    def cajas_en_deposito(self) -> int:
        """How many boxes are on a depot. O(1)."""
        return self._en_deposito

    # -- modifiers (no history: the Sokoban keeps it) -----------------------

    @require(lambda self, vieja: self.hay_caja(vieja), "there is a box at vieja")
    @require(lambda self, nueva: not self.hay_caja(nueva), "there is no box at nueva")
    @require(lambda self, nueva: nueva != self.persona(), "the character is not at nueva")
    @require(lambda self, nueva: not self._mapa.hay_pared(nueva), "no wall stands at nueva")
    @snapshot(lambda self: self.persona(), name="persona")
    @ensure(lambda self, vieja, nueva: self.hay_caja(nueva) and not self.hay_caja(vieja),
            "the box moved from vieja to nueva")
    @ensure(lambda self, OLD: self.persona() == OLD.persona, "the character did not move")
    def modificar_caja(self, vieja: Posicion, nueva: Posicion) -> None:
        """``modificarCaja(n, itCaja, nueva_c)``: the box at ``vieja`` is now at
        ``nueva``. O(1)."""
        cajas = self._cajas
        cajas.remove(vieja)
        cajas.add(nueva)
        depositos = self._mapa._depositos
        self._en_deposito += (nueva in depositos) - (vieja in depositos)

    @require(lambda self, nueva: not self.hay_caja(nueva), "there is no box at nueva")
    @require(lambda self, nueva: not self._mapa.hay_pared(nueva), "no wall stands at nueva")
    @ensure(lambda self, nueva: self.persona() == nueva, "the character is at nueva")
    def modificar_persona(self, nueva: Posicion) -> None:
        """``modificarPersona(n, nueva_c)``. O(1)."""
        self._persona = nueva

    @require(lambda self: self.bombas() > 0, "a bomb is left")
    @snapshot(lambda self: self.bombas(), name="bombas")
    @ensure(lambda self, OLD: self.bombas() == OLD.bombas - 1, "one bomb fewer")
    def usar_bomba(self) -> None:
        """One bomb fewer. O(1)."""
        self._bombas -= 1

    @snapshot(lambda self: self.bombas(), name="bombas")
    @ensure(lambda self, OLD: self.bombas() == OLD.bombas + 1, "one bomb more")
    def devolver_bomba(self) -> None:
        """One bomb more (undoing a bomb). O(1)."""
        self._bombas += 1

    def copia(self) -> "Nivel":
        """An independent copy (its own map, see :meth:`Mapa.copia`, and its own
        boxes). O(C) when no bomb was thrown, else O(C + P)."""
        n = Nivel.__new__(Nivel)
        n._mapa = self._mapa.copia()
        n._persona = self._persona
        n._cajas = set(self._cajas)
        n._bombas = self._bombas
        n._cantidad_cajas = self._cantidad_cajas
        n._en_deposito = self._en_deposito
        return n

    def __repr__(self) -> str:
        return (f"Nivel(persona={self._persona}, cajas={len(self._cajas)}, "
                f"en_deposito={self._en_deposito}, bombas={self._bombas})")
