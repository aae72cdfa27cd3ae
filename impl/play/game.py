"""The game's logic, without a terminal: a :class:`Session` takes commands
(see :mod:`impl.play.keys`) and exposes what to draw.

The game itself is an :class:`impl.juego.Juego` (seed 001's sequence of
levels) over the playable levels from the current one on: winning a level
moves on to the next inside the Juego. ``n``/``p`` (next/previous) and ``r``
(restart) start a new Juego at the chosen level.

Import this module only after choosing contracts on or off
(``SOKOBAN_CONTRACTS``): :mod:`impl.contracts` decides once, at import.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import icontract

from impl import direccion
from impl.contracts import ENABLED as CONTRACTS_ENABLED
from impl.juego import Juego
from impl.sokoban import Sokoban
from spec import PreconditionError
from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE, Posicion

from .hint import DEFAULT_HINT_TIME, Hint, find_hint, learn
from .keys import MOVES, help_forms
from impl.translations import _, n_

from .words import bombs_text, moves_text, pushes_text

# Message kinds (the terminal gives each its colour).
INFO, WIN, WARN, CONTRACT = "info", "win", "warn", "contract"


@dataclass(frozen=True)
class Board:
    """What is on the board now (the current level of the Juego)."""

    walls: frozenset[Posicion]
    boxes: frozenset[Posicion]
    goals: frozenset[Posicion]
    player: Posicion

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_x, min_y, max_x, max_y)`` of everything on the board."""
        xs = [p[0] for p in self.walls] + [p[0] for p in self.boxes] + \
             [p[0] for p in self.goals] + [self.player[0]]
        ys = [p[1] for p in self.walls] + [p[1] for p in self.boxes] + \
             [p[1] for p in self.goals] + [self.player[1]]
        return min(xs), min(ys), max(xs), max(ys)


def playable(all_levels: Sequence) -> tuple[list[int], dict[int, str]]:
    """The indexes (0-based) of the levels the game can play, and for each
    level it cannot (an :class:`impl.sokoban.Sokoban` refuses it) a sentence
    saying why, by index."""
    import levels

    ok: list[int] = []
    skipped: dict[int, str] = {}
    for i, lv in enumerate(all_levels):
        try:
            Sokoban(lv.to_nivel_extendido())
        except PreconditionError as exc:
            reasons = levels.validate(lv) or [str(exc)]
            skipped[i] = f"{level_name(lv, i)}: {'; '.join(reasons)}"
        else:
            ok.append(i)
    return ok, skipped


def level_name(lv, i: int) -> str:
    """``Nivel 3 (level 4)``: as every command names a level."""
    from levels.names import level_label

    return level_label(lv, i)


def no_level(index: int) -> str:
    """``no level 5``: a start (0-based ``index``) beyond the file."""
    return _("no level {number}").format(number=index + 1)


def counters(moves: int, pushes: int, bombs: int | None) -> list[str]:
    """The status line's counters (bombs only in a game that has them)."""
    counts = [_("Moves {n}").format(n=moves), _("Pushes {n}").format(n=pushes)]
    return counts + ([_("Bombs {n}").format(n=bombs)] if bombs is not None else [])


def blocked() -> str:
    return _("Blocked: a wall, or a box that cannot move that way.")


def now_playing(head: str, level: str) -> str:
    """A level won, the game gone on to the next."""
    return _("{solved} Now {level}.").format(solved=head, level=level)


def last_level() -> str:
    return _("That was the last level: p goes back, q quits.")


def nothing_to_undo() -> str:
    return _("Nothing to undo on this level (the history does not cross levels).")


def no_bombs_left() -> str:
    return _("No bombs left on this level.")


def boom(x: int, y: int, left: int) -> str:
    """A bomb thrown at ``(x, y)``, ``left`` bombs left."""
    return _("Boom: the walls in column {x} and row {y} are gone ({bombs} left; "
             "u undoes it).").format(x=x, y=y, bombs=bombs_text(left))


def restarted(level: str) -> str:
    return _("Restarted {level}.").format(level=level)


def contract_message(exc: BaseException) -> list[str]:
    """The lines of the message pane for a broken contract."""
    kind = type(exc).__name__
    first = (_("A precondition refused the call; nothing changed.") if
             isinstance(exc, PreconditionError) else
             _("The implementation broke its own contract (a bug in impl)."))
    return [_("Contract broken ({kind}): {why}").format(kind=kind, why=first)] + [
        line for line in str(exc).splitlines() if line.strip()]


class Shown:
    """What every game in the terminal shares: the levels of the file, the
    current one (``position`` among the ``playable`` indexes), the message."""

    all_levels: list
    playable: list[int]
    message: list[str]
    message_kind: str

    def say(self, lines: list[str], kind: str = INFO) -> None:
        self.message = list(lines)
        self.message_kind = kind

    @property
    def index(self) -> int:
        """0-based index of the current level in the file."""
        return self.playable[self.position]

    @property
    def level(self):
        """The current ``levels.Level`` (as read: the start position)."""
        return self.all_levels[self.index]

    def where(self) -> tuple[str, str]:
        """``("Level 3/6", ": Title")`` for the status line."""
        lv = self.level
        number = lv.number if lv.number is not None else self.index + 1
        return (_("Level {number}/{count}").format(number=number, count=len(self.all_levels)),
                f": {lv.title}" if lv.title else "")


class Session(Shown):
    """A game in play: the levels, the current Juego, the counters, the
    message and the hint on show.

    ``all_levels``: every level of the file (``levels.Level``); ``start``:
    0-based index of the first level to play (must be playable); ``hint``:
    ``find_hint``-like function (given for tests); ``contracts``: teaching
    mode, shown in the status line: a call whose precondition fails is made
    anyway so that the contract speaks (only when :mod:`impl`'s contracts
    are really on; otherwise the game checks first)."""

    def __init__(self, all_levels: Sequence, start: int = 0, *,
                 hint_time: float = DEFAULT_HINT_TIME,
                 hint: Callable[[dict, float], "Hint | str"] = find_hint,
                 contracts: bool = CONTRACTS_ENABLED):
        self.all_levels = list(all_levels)
        self.playable, self.skipped = playable(self.all_levels)
        if start not in self.playable:
            raise ValueError(self.skipped.get(start, no_level(start)))
        self.hint_time = hint_time
        self._find_hint = hint
        self.contracts = contracts and CONTRACTS_ENABLED
        self.solved = 0
        self.message: list[str] = []
        self.message_kind = INFO
        self.hint: Hint | None = None
        self._hint_cache: tuple | None = None
        self._learnt: set[int] = set()
        self._start(self.playable.index(start))
        if self.skipped:
            reasons = list(self.skipped.values())
            self.message = [n_("Skipped {n} level the game cannot play:",
                               "Skipped {n} levels the game cannot play:",
                               len(reasons)).format(n=len(reasons))] + reasons[:3] + (
                ["..."] if len(reasons) > 3 else []) + self.message
            self.message_kind = WARN

    # -- state ---------------------------------------------------------------

    def _start(self, k: int) -> None:
        """Start a new Juego at playable level ``k`` (and the ones after it)."""
        self._first = k
        self.juego = Juego([self.all_levels[i].to_nivel_extendido()
                            for i in self.playable[k:]])
        self._new_level()

    def _new_level(self) -> None:
        self._actions: list[str] = []  # "m" move, "p" push, "b" bomb: mirrors the history
        self.hint = None
        if self._find_hint is find_hint and self.index not in self._learnt:
            self._learnt.add(self.index)
            learn(self.level)  # the level's stored solutions answer hints at once
        comment = self.level.metadata.get("Comment") or getattr(self.level, "notes", "")
        self._comment = [comment] if comment else []
        self.say(self._comment, INFO)

    @property
    def position(self) -> int:
        """Place of the current level among the playable ones (0-based)."""
        return self._first + self.juego.indice_nivel()

    @property
    def moves(self) -> int:
        return sum(1 for a in self._actions if a != "b")

    @property
    def pushes(self) -> int:
        return self._actions.count("p")

    def finished(self) -> bool:
        """The last playable level is won."""
        return self.position == len(self.playable) - 1 and self.juego.gano()

    def board(self) -> Board:
        j = self.juego
        return Board(j.paredes(), j.cajas(), j.depositos(), j.persona())

    def nivel(self) -> dict:
        """The current position as a ``NivelExtendido`` (for the solver)."""
        j = self.juego
        return {PERSONAJE: frozenset({j.persona()}), CAJAS: j.cajas(),
                PAREDES: j.paredes(), DEPOSITOS: j.depositos(), BOMBAS: j.bombas()}

    def status_forms(self) -> list[tuple[list[str], str]]:
        """The status line's forms, longest first: ``(parts, separator)``
        (see :func:`impl.play.view.fit`)."""
        where, title = self.where()
        counts = counters(self.moves, self.pushes, self.juego.bombas())
        contracts = _("[contracts on]") if self.contracts else _("[contracts off]")
        short = _("[on]") if self.contracts else _("[off]")
        return [([where + title, *counts, contracts], "  "),
                ([where, *counts, contracts], "  "),
                ([where, *counts, short], " ")]

    def status_text(self) -> str:
        parts, sep = self.status_forms()[0]
        return sep.join(parts)

    def help_forms(self) -> list[tuple[list[str], str]]:
        return help_forms(self.level.bombs > 0 or self.juego.bombas() > 0)

    def help_text(self) -> str:
        parts, sep = self.help_forms()[0]
        return sep.join(parts)

    # -- commands --------------------------------------------------------------

    def do(self, command: str) -> bool:
        """Carry out ``command``; ``False`` means quit. A broken contract
        (``icontract.ViolationError``) is shown in the message pane."""
        if command == "quit":
            return False
        try:
            if command in MOVES:
                self._move(command)
            else:
                getattr(self, "_" + command)()
        except icontract.ViolationError as exc:
            self.hint = None
            self.say(contract_message(exc), CONTRACT)
        return True

    def _move(self, command: str) -> None:
        a = MOVES[command]
        j = self.juego
        before = j.indice_nivel()
        pushing = j.hay_caja(direccion.suma(j.persona(), a))
        if not j.mover_total(a):
            self.hint = None
            self.say([blocked()], INFO)
            return
        self._actions.append("p" if pushing else "m")
        self.hint = None
        if j.indice_nivel() != before:
            self._won(advanced=True)
        elif j.gano():
            self._won(advanced=False)
        else:
            self.say(self._comment, INFO)

    def _won(self, advanced: bool) -> None:
        done = self.all_levels[self.playable[self.position - advanced]]
        moves, pushes = self.moves, self.pushes
        self.solved += 1
        head = _("Solved {level} in {moves}, {pushes}!").format(
            level=level_name(done, self.playable[self.position - advanced]),
            moves=moves_text(moves), pushes=pushes_text(pushes))
        if advanced:
            self._new_level()
            self.say([now_playing(head, level_name(self.level, self.index))]
                     + self._comment, WIN)
        else:
            self.say([head, last_level()], WIN)

    def _undo(self) -> None:
        if self.juego.deshacer():
            if self._actions:
                self._actions.pop()
            self.hint = None
            self.say([_("Undone.")], INFO)
        else:
            self.say([nothing_to_undo()], INFO)

    def _bomb(self) -> None:
        j = self.juego
        if j.bombas() == 0 and not self.contracts:
            self.say([no_bombs_left()], INFO)
            return
        # With contracts on and no bomb left, the call goes through anyway:
        # the precondition bombas() > 0 refuses it and the pane shows it.
        x, y = j.persona()
        j.tirar_bomba()
        self._actions.append("b")
        self.hint = None
        self.say([boom(x, y, j.bombas())], INFO)

    def _restart(self) -> None:
        self._start(self.position)
        self.say([restarted(level_name(self.level, self.index))] + self._comment, INFO)

    def _next(self) -> None:
        if self.position + 1 >= len(self.playable):
            self.say([_("This is the last level.")], INFO)
            return
        self._start(self.position + 1)

    def _prev(self) -> None:
        if self.position == 0:
            self.say([_("This is the first level.")], INFO)
            return
        self._start(self.position - 1)

    def _hint(self) -> None:
        if self.juego.gano():
            self.say([_("This level is solved.")], INFO)
            return
        nivel = self.nivel()
        key = (nivel[PERSONAJE], nivel[CAJAS], nivel[PAREDES], nivel[BOMBAS])
        if self._hint_cache is not None and self._hint_cache[0] == key:
            found = self._hint_cache[1]
        else:
            found = self._find_hint(nivel, self.hint_time)
            self._hint_cache = (key, found)
        if isinstance(found, Hint):
            self.hint = found
            self.say([found.text], INFO)
        else:
            self.hint = None
            self.say([found], WARN)
