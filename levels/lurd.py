"""LURD notation for solutions: ``l u r d`` moves, ``L U R D`` pushes.

Run-length encoding is accepted (``3r2(uL)``); whitespace is ignored.
``parse`` drops the push flags (the spec decides whether a move pushes);
``parse_moves`` keeps them.  ``push_flags`` and ``replay`` play actions through
the reference :mod:`spec.fisica`, so ``format(actions, push_flags(level,
actions))`` writes a correct LURD string for any action sequence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from spec.tipos import Accion

from .model import Level, LevelError
from .rle import RLEError, compress, expand

__all__ = ["parse", "parse_moves", "check", "format", "push_flags", "replay", "solves",
           "verdict", "Verdict", "stored_solutions", "LETTERS"]

#: Lowercase letter of each action (the uppercase letter marks a push).
LETTERS = {Accion.IZQUIERDA: "l", Accion.ARRIBA: "u",
           Accion.DERECHA: "r", Accion.ABAJO: "d"}
_ACTION = {v: k for k, v in LETTERS.items()}
_NOT_LURD = re.compile("[^lurdLURD0-9()]")


def column_of(text: str, index: int) -> int:
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
                         column=column_of(text, bad.start()))
    try:
        return expand(compact)
    except RLEError as e:
        raise LevelError(f"bad run-length encoding in a solution: {e}",
                         source=source, column=column_of(text, e.index)) from None


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


@dataclass(frozen=True)
class Verdict:
    """What stored moves do when played from their level through
    :mod:`spec.fisica` (:func:`verdict`).

    ``kind``: ``"solution"`` (every move can be made and every box ends on
    a goal), ``"partial"`` (every move can be made; a saved game),
    ``"illegal"`` (move ``at``, 1-based, cannot be made: ``why``) or
    ``"reverse"`` (a reverse-mode game: pulls from the solved position,
    which the spec does not play; not replayed) or ``"unplayable"`` (the
    level itself is not valid: nothing is played).  ``moves`` and ``pushes``
    count what was played; ``on_goals`` the boxes on goals at the end;
    ``miscased`` the moves whose letter case says push when the move does
    not push, or the other way round (players ignore the case on reading).
    """

    kind: str
    moves: int = 0
    pushes: int = 0
    on_goals: int = 0
    boxes: int = 0
    at: int | None = None
    why: str = ""
    miscased: int = 0

    def describe(self) -> str:
        """``solution: 230 moves, 97 pushes``; ``illegal at move 57 (r): a
        wall is in the way``; ``partial: ... 5 of 6 boxes on goals``."""
        counts = f"{self.moves} move{'s' * (self.moves != 1)}, " \
                 f"{self.pushes} push{'es' * (self.pushes != 1)}"
        case = (f"; {self.miscased} letter{'s' * (self.miscased != 1)} in the wrong case"
                if self.miscased else "")
        if self.kind == "solution":
            return f"solution: {counts}{case}"
        if self.kind == "partial":
            return (f"partial: {counts}, {self.on_goals} of {self.boxes} "
                    f"box{'es' * (self.boxes != 1)} on goals{case}")
        if self.kind == "reverse":
            return "reverse mode (pulls from the solved position): not replayed"
        if self.kind == "unplayable":
            return f"not replayed: {self.why}"
        return f"illegal at move {self.at}: {self.why}"


_MARKS = {"[": "a jump ('[') belongs to reverse mode",
          "]": "a jump (']') belongs to reverse mode",
          "{": "a pusher change ('{') needs a puzzle with several pushers",
          "}": "a pusher change ('}') needs a puzzle with several pushers"}


def verdict(level: Level, moves: str) -> Verdict:
    """Play ``moves`` (a snapshot's or a ``Solution`` key's: LURD, run-length
    encoding allowed, SOK's ``*`` current-position mark ignored) from
    ``level`` through :func:`spec.fisica.simular_accion`; a move after which
    the character has not moved (a wall, or a box that cannot move, in the
    way: the TAD leaves the state as it was) is illegal.  Reverse-mode
    moves (starting with ``[``) are not played."""
    from spec import fisica

    if moves[:1] == "[":
        return Verdict("reverse")
    plain = "".join(moves.replace("*", "").split())
    try:
        letters = check(plain)
    except LevelError as e:
        index = (e.column or 1) - 1
        mark = plain[index] if 0 <= index < len(plain) else ""
        before = sum(1 for c in plain[:index] if c in "lurdLURD")
        return Verdict("illegal", at=before + 1, why=_MARKS.get(mark, e.problem))
    nivel = level.to_nivel()
    if not fisica.nivel_valido(nivel):
        return Verdict("unplayable", why="the level is not valid (nivelVálido?)")
    f = fisica.crear_fisica(nivel)
    pushes = miscased = 0
    for n, letter in enumerate(letters, 1):
        after = fisica.simular_accion(f, _ACTION[letter.lower()])
        if fisica.personaje(after) == fisica.personaje(f):
            box = fisica.cajas(f) != fisica.cajas(after) or _blocked_box(f, letter)
            return Verdict("illegal", n - 1, pushes, len(fisica.cajas(f) & fisica.depositos(f)),
                           len(fisica.cajas(f)), at=n,
                           why=f"{letter!r}: " + ("the box cannot move (a wall or a box "
                                                  "behind it)" if box else "a wall is in the way"))
        pushed = fisica.cajas(after) != fisica.cajas(f)
        pushes += pushed
        miscased += pushed != letter.isupper()
        f = after
    boxes, goals = fisica.cajas(f), fisica.depositos(f)
    kind = "solution" if boxes == goals else "partial"
    return Verdict(kind, len(letters), pushes, len(boxes & goals), len(boxes), miscased=miscased)


def _blocked_box(f, letter: str) -> bool:
    """Whether the cell the character walks into holds a box."""
    from spec import fisica

    dx, dy = fisica.paso_de(_ACTION[letter.lower()])
    x, y = fisica.personaje(f)
    return (x + dx, y + dy) in fisica.cajas(f)


def stored_solutions(level: Level) -> list[str]:
    """The solutions ``level`` stores that solve it when replayed through
    the spec (:func:`verdict`): its ``Solution`` keys, then its forward
    snapshots, each as LURD with the case of every letter made right
    (uppercase exactly for pushes), without the ``*`` mark, duplicates
    dropped."""
    out: list[str] = []
    for moves in list(level.solutions) + [s.moves for s in level.snapshots if not s.reverse]:
        if verdict(level, moves).kind != "solution":
            continue
        actions = parse(moves.replace("*", ""))
        text = format(actions, push_flags(level, actions))
        if text not in out:
            out.append(text)
    return out
