"""Seed 002's ``soko.py`` API as a reference: the grid game of the course.

Seed 002 describes behaviour in prose, not axioms; this module states it as
pure functions over an immutable :class:`Grilla`, with movement delegated to
seed 000's physics (:func:`spec.fisica.simular_accion`). Where seed 002 and
seed 000 differ, seed 002 wins here (it has its own rules):

* more boxes than goals are allowed ("al menos tantas cajas como objetivos"),
  and fewer boxes than goals are *accepted* too (erratum E25): the course's
  own ``soko_test.py`` builds such grids (a player on the only goal and no
  box; one box and two goals). The game is then playable but never won. The
  conformance engine still draws only grids with at least as many boxes as
  goals (each profile's ``domain`` (``conformance.profiles``));
* the seed's grid is rectangular ("una grilla rectangular de F filas y C
  columnas", erratum E24); ragged rows are accepted here as an extension
  (missing cells are empty, ``dimensiones`` counts the longest row) so that
  the engine's opt-in robustness checks have a reference, but no verdict
  depends on them;
* the game is won when every goal has a box (``juego_ganado``), not when the
  sets are equal;
* the grid is finite and the player must be enclosed by walls ("no debería
  ser posible que el jugador o las cajas lleguen ... a los límites"): we make
  that a precondition of :func:`crear_grilla` (erratum E14). Only the
  player's region matters: a box or goal it cannot reach never moves, so an
  unenclosed one cannot change any observer.

Cells are addressed ``(c, f)`` = (column, row), 0-based, as in the seed.
"""

from __future__ import annotations

from dataclasses import dataclass

from spec import PreconditionError, fisica
from spec.rules import (
    CAJAS_LEIDAS, GANADA, GRILLA_IGUAL, GRILLA_NUEVA, JUGADOR_LEIDO, OBJETIVOS_LEIDOS,
    PAREDES_LEIDAS, TAMANO, note,
)
from spec.tipos import Accion, Posicion

#: Seed 002's cell characters.
PARED, CAJA, JUGADOR, OBJETIVO, OBJETIVO_CAJA, OBJETIVO_JUGADOR, VACIO = "#$@.*+ "
CARACTERES = frozenset("#$@.*+ ")

#: Seed 002's four directions: (-1, 0) Oeste, (1, 0) Este, (0, -1) Norte, (0, 1) Sur.
DIRECCIONES = frozenset({(-1, 0), (1, 0), (0, -1), (0, 1)})


@dataclass(frozen=True)
class Grilla:
    """A grid (no behaviour). Two grids are equal when all fields are."""

    columnas: int
    filas: int
    paredes: frozenset[Posicion]
    objetivos: frozenset[Posicion]
    cajas: frozenset[Posicion]
    jugador: Posicion


def crear_grilla(desc: list[str]) -> Grilla:
    """``crear_grilla(desc)``: one string per row, one character per cell
    (``#`` pared, ``$`` caja, ``@`` jugador, ``.`` objetivo, ``*`` objetivo +
    caja, ``+`` objetivo + jugador, space: empty). Rows may be ragged
    (an extension, see the module's docstring).

    Preconditions (seed 002's rules): only those characters; exactly one
    player; the player enclosed by walls. Fewer boxes than goals is accepted
    (erratum E25).
    """
    if not isinstance(desc, (list, tuple)) or not all(isinstance(r, str) for r in desc):
        raise PreconditionError("crear_grilla: desc must be a list of strings")
    paredes, objetivos, cajas, jugadores = set(), set(), set(), []
    for f, fila in enumerate(desc):
        for c, ch in enumerate(fila):
            if ch not in CARACTERES:
                raise PreconditionError(
                    f"crear_grilla: row {f}, column {c}: {ch!r} is not one of '#$@.*+ '")
            if ch == PARED:
                paredes.add((c, f))
            if ch in (CAJA, OBJETIVO_CAJA):
                cajas.add((c, f))
            if ch in (OBJETIVO, OBJETIVO_CAJA, OBJETIVO_JUGADOR):
                objetivos.add((c, f))
            if ch in (JUGADOR, OBJETIVO_JUGADOR):
                jugadores.append((c, f))
    if len(jugadores) != 1:
        raise PreconditionError(f"crear_grilla: {len(jugadores)} players, expected exactly one")
    g = Grilla(
        columnas=max((len(r) for r in desc), default=0),
        filas=len(desc),
        paredes=frozenset(paredes),
        objetivos=frozenset(objetivos),
        cajas=frozenset(cajas),
        jugador=jugadores[0],
    )
    if not encerrado(g):
        raise PreconditionError("crear_grilla: the player can walk off the grid (not enclosed by walls)")
    note(JUGADOR_LEIDO, CAJAS_LEIDAS, PAREDES_LEIDAS, OBJETIVOS_LEIDOS, TAMANO)
    return g


def encerrado(g: Grilla) -> bool:
    """True iff every cell the player can walk to (ignoring boxes) lies
    inside the grid's ``columnas × filas`` rectangle."""
    vistos, pendientes = {g.jugador}, [g.jugador]
    while pendientes:
        c, f = pendientes.pop()
        if not (0 <= c < g.columnas and 0 <= f < g.filas):
            return False
        for dc, df in DIRECCIONES:
            v = (c + dc, f + df)
            if v not in vistos and v not in g.paredes:
                vistos.add(v)
                pendientes.append(v)
    return True


def dimensiones(g: Grilla) -> tuple[int, int]:
    """``dimensiones(grilla)``: (columns, rows); columns is the longest row."""
    return (g.columnas, g.filas)


def hay_pared(g: Grilla, c: int, f: int) -> bool:
    """``hay_pared(grilla, c, f)``."""
    return (c, f) in g.paredes


def hay_objetivo(g: Grilla, c: int, f: int) -> bool:
    """``hay_objetivo(grilla, c, f)``."""
    return (c, f) in g.objetivos


def hay_caja(g: Grilla, c: int, f: int) -> bool:
    """``hay_caja(grilla, c, f)``."""
    return (c, f) in g.cajas


def hay_jugador(g: Grilla, c: int, f: int) -> bool:
    """``hay_jugador(grilla, c, f)``."""
    return (c, f) == g.jugador


def juego_ganado(g: Grilla) -> bool:
    """``juego_ganado(grilla)``: "todas las celdas objetivo tienen una caja
    encima" (boxes may outnumber goals)."""
    note(GANADA)
    return g.objetivos <= g.cajas


def mover(g: Grilla, direccion: tuple[int, int]) -> Grilla:
    """``mover(grilla, direccion)``: the grid after trying to move; a blocked
    move gives a grid equal to ``g``; ``g`` itself never changes (values are
    immutable). The step is seed 000's ``simularAcción``; a move that is not
    allowed gives a grid equal to ``g`` ("el estado siguiente")."""
    if isinstance(direccion, Accion):
        direccion = direccion.value
    if not isinstance(direccion, (tuple, list)) or tuple(direccion) not in DIRECCIONES:
        raise PreconditionError(f"mover: {direccion!r} is not one of {sorted(DIRECCIONES)}")
    f = fisica.simular_accion(
        fisica.Fisica(personaje=g.jugador, cajas=g.cajas, paredes=g.paredes, depositos=g.objetivos),
        Accion(tuple(direccion)),
    )
    # The player stays exactly when the move is not allowed.
    note(GRILLA_IGUAL if fisica.personaje(f) == g.jugador else GRILLA_NUEVA)
    return Grilla(g.columnas, g.filas, g.paredes, g.objetivos, fisica.cajas(f), fisica.personaje(f))
