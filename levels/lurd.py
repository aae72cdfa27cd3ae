"""LURD notation for solutions: ``l u r d`` moves, ``L U R D`` pushes.

Run-length encoding is accepted (``3r2(uL)``); whitespace is ignored.
``parse`` drops the push flags (the spec decides whether a move pushes);
``parse_moves`` keeps them.  ``push_flags`` and ``replay`` play actions through
the reference :mod:`spec.fisica`, so ``format(actions, push_flags(level,
actions))`` writes a correct LURD string for any action sequence.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from spec.tipos import Accion

from .model import Level, LevelError
from .rle import RLEError, compress, expand

__all__ = ["parse", "parse_moves", "check", "format", "push_flags", "replay", "solves",
           "LETTERS"]

#: Lowercase letter of each action (the uppercase letter marks a push).
LETTERS = {Accion.IZQUIERDA: "l", Accion.ARRIBA: "u",
           Accion.DERECHA: "r", Accion.ABAJO: "d"}
_ACTION = {v: k for k, v in LETTERS.items()}
_NOT_LURD = re.compile("[^lurdLURD0-9()]")


def _column(text: str, index: int) -> int:
    """The 1-based column in ``text`` of character ``index`` of ``text``
    with its white space removed."""
    seen = -1
    for k, c in enumerate(text):
        if not c.isspace():
            seen += 1
            if seen == index:
                return k + 1
    return len(text) + 1


def parse_moves(text: str, source: str = "<lurd>") -> list[tuple[Accion, bool]]:
    """``[(action, pushes), ...]`` from a LURD string; raises LevelError
    whose ``column`` is the offending character's in ``text``."""
    return [(_ACTION[c.lower()], c.isupper()) for c in check(text, source)]


def check(text: str, source: str = "<lurd>") -> str:
    """The moves of a LURD string, expanded (``"2(rU)"`` -> ``"rUrU"``);
    raises LevelError as :func:`parse_moves` does.  What the readers call:
    it builds no list of actions."""
    compact = "".join(text.split())
    bad = _NOT_LURD.search(compact)
    if bad is not None:
        raise LevelError(f"{bad.group()!r} is not a LURD move (expected l u r d, "
                         "L U R D, counts and parentheses)", source=source,
                         column=_column(text, bad.start()))
    try:
        return expand(compact)
    except RLEError as e:
        raise LevelError(f"bad run-length encoding in a solution: {e}",
                         source=source, column=_column(text, e.index)) from None


def parse(text: str, source: str = "<lurd>") -> list[Accion]:
    """The actions of a LURD string (push flags dropped)."""
    return [a for a, _ in parse_moves(text, source)]


def format(actions: Sequence[Accion], pushes: Iterable[bool] | None = None,
           *, rle: bool = False) -> str:
    """The LURD string of ``actions``; ``pushes[i]`` says whether move ``i``
    pushes a box (uppercase).  ``pushes=None`` writes every move lowercase.
    ``rle=True`` compresses runs of three or more."""
    actions = list(actions)
    flags = [False] * len(actions) if pushes is None else list(pushes)
    if len(flags) != len(actions):
        raise ValueError(f"{len(actions)} actions but {len(flags)} push flags")
    text = "".join(LETTERS[Accion(a)].upper() if p else LETTERS[Accion(a)]
                   for a, p in zip(actions, flags))
    return compress(text) if rle else text


def replay(level: Level, actions: Iterable[Accion]):
    """Play ``actions`` from ``level`` through :func:`spec.fisica.simular_accion`;
    returns the list of :class:`spec.fisica.Fisica` values, first the start."""
    from spec import fisica

    f = fisica.crear_fisica(level.to_nivel())
    out = [f]
    for a in actions:
        f = fisica.simular_accion(f, a)
        out.append(f)
    return out


def push_flags(level: Level, actions: Sequence[Accion]) -> list[bool]:
    """For each action, whether it moves a box when played from ``level``."""
    from spec import fisica

    states = replay(level, actions)
    return [fisica.cajas(a) != fisica.cajas(b) for a, b in zip(states, states[1:])]


def solves(level: Level, solution: str | Sequence[Accion]) -> bool:
    """True when playing ``solution`` from ``level`` ends with every box on a
    goal (checked by the spec).  A LURD string's case is not trusted."""
    from spec import fisica

    actions = parse(solution) if isinstance(solution, str) else list(solution)
    last = replay(level, actions)[-1]
    return fisica.cajas(last) == fisica.depositos(last)
