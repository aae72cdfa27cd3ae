"""Seed 002's ``soko.py`` (the course's grid Sokoban), backed by :mod:`impl`.

The API is exactly the seed's::

    crear_grilla(desc)         desc: list of strings, one per row ('#$@.*+ ')
    dimensiones(grilla)        -> (columnas, filas)
    hay_pared(grilla, c, f)    hay_objetivo, hay_caja, hay_jugador: same shape
    juego_ganado(grilla)       every goal has a box (boxes may outnumber goals)
    mover(grilla, direccion)   direccion: (-1, 0) oeste, (1, 0) este,
                               (0, -1) norte, (0, 1) sur

``mover`` returns a new grid and never changes the one it is given; a blocked
move returns a grid equal to the one given (the same object). Grids compare
by value (``==``, ``hash``). Seed 002's grid is rectangular; ragged rows are
accepted too (``dimensiones`` counts the longest row). Fewer boxes than goals
is accepted, as the course's own test requires (the game is then never won;
erratum E25 in ``spec/ERRATA.md``). A description that breaks seed 002's
rules (a character not in ``#$@.*+`` or space, not exactly one player, a
player not enclosed by walls) raises :class:`spec.PreconditionError` (a
``ValueError``) saying what and where.

Using it from a course test file: the package installs ``soko`` as a
top-level module, so a test file that does ``import soko`` (``python3
soko_test.py``) uses this one, unless a ``soko.py`` sits next to the test
file (Python looks in the script's folder first). To run a test file against
this ``soko`` even then, use ``python -P -m soko soko_test.py`` (``-P``,
Python 3.11+, keeps the current folder out of ``sys.path``, so ``-m soko``
finds this module and not the local one).

Cost: queries O(1); ``mover`` O(1) when blocked, otherwise O(C) (C boxes):
the seed's value semantics (a new grid per move, the old one intact) make it
copy the set of boxes; ``crear_grilla`` O(size of desc).
"""

from __future__ import annotations

import sys

from impl.direccion import desde_vector
from impl.mapa import Mapa
from impl.nivel import Nivel
from impl.sokoban import Sokoban
from spec import PreconditionError

__all__ = ["crear_grilla", "dimensiones", "hay_pared", "hay_objetivo", "hay_caja",
           "hay_jugador", "juego_ganado", "mover", "Grilla"]

PARED, CAJA, JUGADOR, OBJETIVO, OBJETIVO_CAJA, OBJETIVO_JUGADOR, VACIO = "#$@.*+ "
_CARACTERES = frozenset("#$@.*+ ")


class Grilla:
    """A grid of seed 002 (an immutable value): a Sokoban of :mod:`impl`
    that nobody moves, plus the grid's size."""

    __slots__ = ("_soko", "_columnas", "_filas")

    def __init__(self, soko: Sokoban, columnas: int, filas: int):
        self._soko = soko
        self._columnas = columnas
        self._filas = filas

    def _clave(self) -> tuple:
        s = self._soko
        return (self._columnas, self._filas, s.persona(), s.cajas(),
                s.mapa().paredes_originales(), s.depositos())

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Grilla):
            return NotImplemented
        return self._clave() == other._clave()

    def __hash__(self) -> int:
        return hash(self._clave())

    def filas(self) -> list[str]:
        """The grid drawn as seed 002 describes it: one string per row."""
        s = self._soko
        out = []
        for f in range(self._filas):
            fila = []
            for c in range(self._columnas):
                p = (c, f)
                if s.hay_pared(p):
                    fila.append(PARED)
                elif s.hay_caja(p):
                    fila.append(OBJETIVO_CAJA if s.hay_deposito(p) else CAJA)
                elif s.persona() == p:
                    fila.append(OBJETIVO_JUGADOR if s.hay_deposito(p) else JUGADOR)
                else:
                    fila.append(OBJETIVO if s.hay_deposito(p) else VACIO)
            out.append("".join(fila))
        return out

    def __repr__(self) -> str:
        return f"Grilla({self.filas()!r})"

    def __str__(self) -> str:
        return "\n".join(self.filas())


def crear_grilla(desc: list[str]) -> Grilla:
    """Crea una grilla a partir de la descripción del estado inicial: one
    string per row, one character per cell (``#`` pared, ``$`` caja, ``@``
    jugador, ``.`` objetivo, ``*`` objetivo + caja, ``+`` objetivo + jugador,
    space: empty). Rows may have different lengths."""
    if isinstance(desc, str) or not all(isinstance(r, str) for r in desc):
        raise PreconditionError("crear_grilla: desc must be a list of strings, one per row")
    paredes, objetivos, cajas, jugadores = set(), set(), set(), []
    for f, fila in enumerate(desc):
        for c, ch in enumerate(fila):
            if ch == VACIO:
                continue
            if ch not in _CARACTERES:
                raise PreconditionError(
                    f"crear_grilla: row {f}, column {c}: {ch!r} is not one of '#$@.*+ ' or a space")
            p = (c, f)
            if ch == PARED:
                paredes.add(p)
                continue
            if ch in (OBJETIVO, OBJETIVO_CAJA, OBJETIVO_JUGADOR):
                objetivos.add(p)
            if ch in (CAJA, OBJETIVO_CAJA):
                cajas.add(p)
            elif ch in (JUGADOR, OBJETIVO_JUGADOR):
                jugadores.append(p)
    if len(jugadores) != 1:
        donde = ", ".join(f"row {f} column {c}" for c, f in jugadores)
        raise PreconditionError(
            f"crear_grilla: {len(jugadores)} players{' (' + donde + ')' if donde else ''}, "
            f"expected exactly one")
    columnas, filas = max((len(r) for r in desc), default=0), len(desc)
    fuera = _salida(jugadores[0], paredes, columnas, filas)
    if fuera is not None:
        raise PreconditionError(
            f"crear_grilla: the player at row {jugadores[0][1]} column {jugadores[0][0]} can "
            f"walk off the grid (through row {fuera[1]} column {fuera[0]}): "
            f"it must be enclosed by walls")
    nivel = Nivel(Mapa(frozenset(paredes), frozenset(objetivos)), jugadores[0], cajas, 0)
    return Grilla(Sokoban(nivel), columnas, filas)


def _salida(inicio: tuple[int, int], paredes: set, columnas: int, filas: int):
    """A cell outside the grid the player can walk to (ignoring boxes), or None."""
    vistos, pendientes = {inicio}, [inicio]
    while pendientes:
        c, f = pendientes.pop()
        if not (0 <= c < columnas and 0 <= f < filas):
            return (c, f)
        for v in ((c + 1, f), (c - 1, f), (c, f + 1), (c, f - 1)):
            if v not in vistos and v not in paredes:
                vistos.add(v)
                pendientes.append(v)
    return None


def dimensiones(grilla: Grilla) -> tuple[int, int]:
    """Devuelve una tupla con la cantidad de columnas y filas de la grilla."""
    return (grilla._columnas, grilla._filas)


def hay_pared(grilla: Grilla, c: int, f: int) -> bool:
    """Devuelve True si hay una pared en la columna y fila (c, f)."""
    return grilla._soko.hay_pared((c, f))


def hay_objetivo(grilla: Grilla, c: int, f: int) -> bool:
    """Devuelve True si hay un objetivo en la columna y fila (c, f)."""
    return grilla._soko.hay_deposito((c, f))


def hay_caja(grilla: Grilla, c: int, f: int) -> bool:
    """Devuelve True si hay una caja en la columna y fila (c, f)."""
    return grilla._soko.hay_caja((c, f))


def hay_jugador(grilla: Grilla, c: int, f: int) -> bool:
    """Devuelve True si el jugador está en la columna y fila (c, f)."""
    return grilla._soko.persona() == (c, f)


def juego_ganado(grilla: Grilla) -> bool:
    """Devuelve True si el juego está ganado: every goal has a box."""
    return grilla._soko.every_depot_has_box()


def mover(grilla: Grilla, direccion: tuple[int, int]) -> Grilla:
    """Mueve el jugador en la dirección indicada, a tuple (-1, 0), (1, 0),
    (0, -1) or (0, 1). Returns the next grid; ``grilla`` is not changed."""
    try:
        a = desde_vector(direccion)
    except ValueError as e:
        raise PreconditionError(f"mover: {e}") from None
    soko = grilla._soko
    if not soko.puede_mover(a):
        return grilla
    nuevo = soko.copia()
    nuevo.mover(a)
    return Grilla(nuevo, grilla._columnas, grilla._filas)


def main(argv: list[str] | None = None) -> int:
    """``python -P -m soko TEST_FILE [ARGS...]``: run a course test file with
    ``import soko`` bound to this module, whatever ``soko.py`` sits next to it."""
    import os
    import runpy

    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print("usage: python -P -m soko TEST_FILE [ARGS...]\n"
              "Runs a course test file (e.g. soko_test.py) with 'import soko' bound to\n"
              "this package's soko, even if a soko.py sits next to the test file.",
              file=sys.stderr if not args else sys.stdout)
        return 2 if not args else 0
    path = args[0]
    if not os.path.isfile(path):
        print(f"python -m soko: {path}: no such file", file=sys.stderr)
        return 2
    import sokoban_tad      # the test file's folder may hold spec/, levels/...: not ours
    sokoban_tad.use_our_packages(("spec", "levels", "impl", "conformance"))
    sys.modules["soko"] = sys.modules[__name__]
    sys.argv = [path, *args[1:]]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    runpy.run_path(path, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
