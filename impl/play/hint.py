"""Hints: the next push of a solution found by :mod:`impl.solver`.

:func:`make_hint` (pure) turns a LURD solution from the current position into
a :class:`Hint`: the cells to walk, the box to push and where, in words.
:func:`find_hint` asks the solver, within a short time limit, and says so
plainly when it cannot help (no solution from here, gave up in time, solver
not installed).
"""

from __future__ import annotations

from dataclasses import dataclass

from impl import direccion
from levels.lurd import LETTERS
from spec.tipos import Accion, Posicion

from impl.translations import N_, _, marked

from .words import bombs_text, moves_text, pushes_text

#: The letter of a bomb in the solver's solutions.
BOMB_LETTER = "B"

#: The hint's time limit (seconds) unless the caller gives one.
DEFAULT_HINT_TIME = 2.0

_ACTION = {letter: a for a, letter in LETTERS.items()}

_WORDS = {Accion.ARRIBA: N_("up"), Accion.ABAJO: N_("down"),
          Accion.IZQUIERDA: N_("left"), Accion.DERECHA: N_("right")}


@dataclass(frozen=True)
class Hint:
    """What to do next.

    ``path``: the cells the character walks through before the push (the
    start excluded), in order; ``box``: the box to push (``None`` when the
    next step is a bomb, or when nothing is left to push); ``direction``: the
    push's direction; ``bomb``: the next thing is a bomb thrown at the end of
    ``path``; ``text``: all that in one sentence; ``moves`` and ``pushes``:
    the length of the whole solution from here."""

    path: tuple[Posicion, ...]
    box: Posicion | None
    direction: Accion | None
    bomb: bool
    text: str
    moves: int
    pushes: int


def _walk_words(steps: list[Accion]) -> str:
    """``3 right, 1 down`` (runs of the same direction counted)."""
    runs: list[list] = []
    for a in steps:
        if runs and runs[-1][0] is a:
            runs[-1][1] += 1
        else:
            runs.append([a, 1])
    return ", ".join(f"{n} {marked(_WORDS[a])}" for a, n in runs)


def make_hint(start: Posicion, solution: str) -> Hint:
    """The hint for ``solution`` (LURD, ``B`` for a bomb) played from the
    character's position ``start``. Raises ``ValueError`` on a letter that is
    not LURD or ``B``."""
    path: list[Posicion] = []
    steps: list[Accion] = []
    pos = start
    box = direction = None
    bomb = False
    for letter in solution:
        if letter == BOMB_LETTER:
            bomb = True
            break
        a = _ACTION.get(letter.lower())
        if a is None:
            raise ValueError(f"{letter!r} is not a LURD letter or {BOMB_LETTER!r}")
        if letter.isupper():
            box, direction = direccion.suma(pos, a), a
            break
        pos = direccion.suma(pos, a)
        path.append(pos)
        steps.append(a)
    moves = sum(1 for c in solution if c.lower() in _ACTION)
    pushes = sum(1 for c in solution if c.isupper() and c.lower() in _ACTION)
    walk = _walk_words(steps)
    if bomb:
        text = (_("Hint: walk {steps}, then throw a bomb").format(steps=walk) if steps else
                _("Hint: throw a bomb"))
    elif box is not None:
        way = marked(_WORDS[direction])
        text = (_("Hint: walk {steps}, then push the box {direction}").format(
                    steps=walk, direction=way) if steps else
                _("Hint: push the box {direction}").format(direction=way))
    elif steps:
        text = _("Hint: walk {steps}").format(steps=walk)
    else:
        text = _("Hint: the level is already solved")
    if solution:
        bombs = solution.count(BOMB_LETTER)
        counts = [moves_text(moves), pushes_text(pushes)] + ([bombs_text(bombs)] if bombs else [])
        text += _(" (a solution from here: {counts}).").format(counts=", ".join(counts))
    else:
        text += "."
    return Hint(tuple(path), box, direction, bomb, text, moves, pushes)


def learn(level) -> int:
    """Let hints answer from the solutions ``level`` stores (a SOK file's
    snapshots and ``Solution`` keys that solve it through the spec):
    a position along one of them gets its hint at once, without a search.
    Returns how many were learnt (0 without the solver)."""
    try:
        from impl.solver import known
    except ImportError:
        return 0
    return known.remember_stored(level)


def find_hint(nivel: dict, time_limit: float = DEFAULT_HINT_TIME) -> Hint | str:
    """Ask the solver for the next push from ``nivel`` (a ``NivelExtendido``:
    the current position). Returns the :class:`Hint`, or a sentence saying
    why there is none."""
    try:
        from impl.solver import known, solve
    except ImportError:
        return _("Hints: the solver is not available in this installation.")
    try:
        # A position on a stored solution (the bundled Microban levels', and
        # those of the levels :func:`learn` was given) is answered without searching.
        lurd = known.lookup(nivel)
        if lurd is not None:
            return make_hint(next(iter(nivel["personaje"])), lurd)
        result = solve(nivel, time_limit=time_limit)
    except ValueError as exc:  # LevelProblem: the solver rejects the position
        return _("Hints: the solver cannot read this position ({problem}).").format(problem=exc)
    except Exception as exc:  # a bug in the solver must not end the game
        return _("Hints: the solver failed ({problem}).").format(
            problem=f"{type(exc).__name__}: {exc}")
    if result.status == "solved":
        start = next(iter(nivel["personaje"]))
        return make_hint(start, result.solution)
    if result.status == "unsolvable":
        return _("No solution from here: a box is stuck. Undo (u) or restart (r).")
    if result.limit == "window":
        return _("No hint: the walls are open (after a bomb) and the solver only "
                 "searched near the level.")
    return _("No hint: the solver found no solution within {seconds} s.").format(
        seconds=f"{time_limit:g}")
