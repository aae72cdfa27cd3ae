"""Replaying a solution through ``spec`` (never ``impl``) before it leaves the
solver.  A solution that does not replay is a solver bug: it raises
:class:`SolverBug` and is never returned."""

from __future__ import annotations

from spec import fisica, juego, sokoban
from spec.tipos import Accion

from .board import LETTERS, STEPS

_ACTION = {letter: Accion(step) for letter, step in zip(LETTERS, STEPS)}

#: The letter for ``tirar_bomba`` in the solver's LURD (extended game only).
BOMB = "B"


class SolverBug(AssertionError):
    """A solution failed its replay through ``spec``: an internal error."""


def replay_juego(nivel: dict, lurd: str) -> None:
    """Replay on seed 000's TAD Juego: every letter moves the player, an
    uppercase letter moves a box and a lowercase one does not, and the last
    state is ``completado``."""
    j = juego.iniciar(nivel)
    for i, letter in enumerate(lurd):
        action = _ACTION.get(letter.lower())
        if action is None:
            raise SolverBug(f"letter {letter!r} at {i} is not a move")
        before = juego.estado(j)
        j = juego.step(j, action)
        after = juego.estado(j)
        _check_step(i, letter, before["personaje"], after["personaje"],
                    before["cajas"], after["cajas"])
    if not juego.completado(j):
        raise SolverBug(f"the solution {lurd!r} does not complete the level")


def replay_sokoban(nivel_extendido: dict, lurd: str) -> None:
    """Replay on the extended game (``spec.sokoban``): moves must satisfy
    ``puede_mover``, ``B`` needs a bomb left, and the end state ``gano``."""
    s = sokoban.nuevo_soko(nivel_extendido)
    for i, letter in enumerate(lurd):
        if letter == BOMB:
            if sokoban.bombas(s) <= 0:
                raise SolverBug(f"bomb at {i} with no bombs left")
            s = sokoban.tirar_bomba(s)
            continue
        action = _ACTION.get(letter.lower())
        if action is None:
            raise SolverBug(f"letter {letter!r} at {i} is not a move or a bomb")
        if not sokoban.puede_mover(s, action):
            raise SolverBug(f"move {letter!r} at {i} is blocked")
        before_p, before_c = sokoban.persona(s), sokoban.cajas(s)
        s = sokoban.mover(s, action)
        _check_step(i, letter, {before_p}, {sokoban.persona(s)},
                    before_c, sokoban.cajas(s))
    if not sokoban.gano(s):
        raise SolverBug(f"the solution {lurd!r} does not win the level")


def _check_step(i, letter, p0, p1, c0, c1) -> None:
    if p0 == p1:
        raise SolverBug(f"move {letter!r} at {i} is blocked")
    if (c0 != c1) != letter.isupper():
        raise SolverBug(
            f"move {letter!r} at {i}: the case does not say whether it pushes")


def nivel_valido(nivel: dict) -> bool:
    return fisica.nivel_valido(nivel)
