"""The game on someone else's implementation: ``sokoban play TARGET``.

A :class:`TargetSession` is what :mod:`impl.play.view` draws and
:mod:`impl.play.tui` drives, like :class:`impl.play.game.Session`, but the
moves are played by a *referee*: the target (a student's ``soko.py``) with
the spec beside it, compared after every move. This package never imports
the referee's (``conformance.referee.Referee``, given by the ``sokoban``
command): it only calls it. The referee's methods used: ``refuses(level)``
(why a level cannot be played, or None), ``start(level)``, ``act(command)``
and ``back()`` (each: the departure found, or None), ``board()``
(``(walls, boxes, goals, player)``), ``won()``, ``pushes()``, ``codes``,
``panel()`` (the departure laid out: paragraphs and blocks of lines),
``name``.

At the first departure the game stops on a **panel** (:attr:`TargetSession.panel`):
the rule broken in the seed's words, the expected and actual boards, the
replay command. From there ``u`` undoes (the history replayed to the step
before) and ``q`` quits; nothing else plays.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from .game import CONTRACT, INFO, WARN, WIN, Board, Shown, level_name
from .keys import MOVES
from .words import plural


class TargetSession(Shown):
    """A game of ``all_levels`` (``levels.Level``) from ``start`` (0-based,
    must be playable) played through ``referee``."""

    hint = None             # no hints: the solver knows our game, not the target's
    hint_time = 0.0

    def __init__(self, all_levels: Sequence, start: int, referee: Any):
        self.all_levels = list(all_levels)
        self.referee = referee
        self.skipped = {i: f"{level_name(lv, i)}: {why}" for i, lv in enumerate(self.all_levels)
                        if (why := referee.refuses(lv)) is not None}
        self.playable = [i for i in range(len(self.all_levels)) if i not in self.skipped]
        if start not in self.playable:
            raise ValueError(self.skipped.get(start, f"no level {start + 1}"))
        self.solved = 0
        self.message: list[str] = []
        self.message_kind = INFO
        #: The departure on show (paragraphs and blocks), or None: the game plays.
        self.panel: list | None = None
        #: The panel's first line shown below its heading (the arrows scroll it).
        self.panel_top = 0
        self._start(self.playable.index(start))

    # -- state ---------------------------------------------------------------

    def _start(self, k: int) -> None:
        self.position = k
        self._won = False
        self._show(self.referee.start(self.level), [])

    def _show(self, departure, otherwise: list[str], kind: str = INFO) -> None:
        if departure is not None:
            self.panel = self.referee.panel()
            self.panel_top = 0
            self.say([], CONTRACT)
        else:
            self.panel = None
            self.say(otherwise, kind)

    @property
    def moves(self) -> int:
        return len(self.referee.codes)

    def board(self) -> Board:
        walls, boxes, goals, player = self.referee.board()
        return Board(walls, boxes, goals, player)

    def status_forms(self) -> list[tuple[list[str], str]]:
        where, title = self.where()
        counts = [f"Moves {self.moves}", f"Pushes {self.referee.pushes()}"]
        name = os.path.basename(self.referee.name.rstrip(os.sep)) or self.referee.name
        return [([where + title, *counts, f"[{name} + spec]"], "  "),
                ([where, *counts, f"[{name} + spec]"], "  "),
                ([where, *counts, "[+spec]"], " ")]

    def help_forms(self) -> list[tuple[list[str], str]]:
        if self.panel is not None:
            return [(["arrows scroll", "u undo (back one step)", "q quit"], "  "),
                    (["arrows scroll", "u undo", "q quit"], " ")]
        return [(["arrows/WASD move", "u undo", "r restart", "n/p next/prev level", "q quit"],
                 "  "),
                (["arrows move", "u undo", "r restart", "n/p level", "q quit"], "  "),
                (["u undo", "r restart", "n/p level", "q quit"], " ")]

    # -- commands ----------------------------------------------------------------

    def do(self, command: str) -> bool:
        """Carry out ``command``; ``False`` means quit."""
        if command == "quit":
            return False
        if self.panel is not None and command != "undo":
            if command in ("up", "down"):       # stopped on a departure: the arrows scroll
                self.panel_top = max(0, self.panel_top + (1 if command == "down" else -1))
            return True
        if command in MOVES:
            self._move(command)
        elif command == "undo":
            self._undo()
        elif command == "restart":
            self._start(self.position)
            self.say([f"Restarted {level_name(self.level, self.index)}."])
        elif command in ("next", "prev"):
            k = self.position + (1 if command == "next" else -1)
            if 0 <= k < len(self.playable):
                self._start(k)
            else:
                self.say([f"This is the {'last' if command == 'next' else 'first'} level."])
        else:
            self.say([f"No {command} here: seed 002's game has no bombs, and hints know "
                      "only our own implementation."], WARN)
        return True

    def _move(self, command: str) -> None:
        if self._won:
            self.say(["This level is solved: n goes on, r plays it again."])
            return
        departure = self.referee.act(command)
        if departure is None and self.referee.won():
            self._won = True
            self.solved += 1
            head = (f"Solved {level_name(self.level, self.index)} in "
                    f"{plural(self.moves, 'move')}, {plural(self.referee.pushes(), 'push')}, "
                    "every move as the spec plays it!")
            if self.position + 1 < len(self.playable):
                self._start(self.position + 1)
                self.say([f"{head} Now {level_name(self.level, self.index)}."], WIN)
            else:
                self.say([head, "That was the last level: p goes back, q quits."], WIN)
            return
        self._show(departure, [])

    def _undo(self) -> None:
        if not self.referee.codes and self.panel is None:
            self.say(["Nothing to undo on this level."])
            return
        self._won = False
        self._show(self.referee.back(), ["Undone (the level replayed to the step before)."])
