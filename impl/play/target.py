"""The game on someone else's implementation: ``sokoban play TARGET``.

A :class:`TargetSession` is what :mod:`impl.play.view` draws and
:mod:`impl.play.tui` drives, like :class:`impl.play.game.Session`, but the
actions are played by a *referee*: the target (a student's ``soko.py``, a
``tad`` or ``extendido`` module, a C++ ``aed2`` folder, a Prolog program)
with the spec beside it, compared after every action. This package never
imports the referee's (``conformance.live.referee.Referee``, given by the
``sokoban`` command): it only calls it. The referee's parts used:
``refuses(level)`` (why a level cannot be played, or None),
``start(levels)`` (the first of them, or the first few in sequence when
``sequence``), ``act(command)`` and ``back()`` (each: the departure found,
or None), ``view()`` (the spec's game now: ``walls``, ``boxes``, ``goals``,
``player``, ``bombs`` (None: no bombs), ``index`` (the level in the
sequence), ``won``), ``moves()``, ``pushes()``, ``solved_counts``,
``codes``, ``panel()`` (the departure laid out: paragraphs and blocks of
lines), ``name``, ``seed``.

At the first departure the game stops on a **panel** (:attr:`TargetSession.panel`):
the rule broken in the seed's words, the expected and actual boards, the
replay command. From there ``u`` undoes (the history replayed to the step
before) and ``q`` quits; nothing else plays. While playing, ``u`` is the
seed's own undo where it has one (seed 001's ``deshacer``), else the same
replay to the step before.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from impl.translations import _, n_

from .game import (
    CONTRACT, INFO, WARN, WIN, Board, Shown, blocked, boom, counters, last_level, level_name,
    no_bombs_left, no_level, nothing_to_undo, now_playing, restarted,
)
from .words import moves_text, pushes_text
from .keys import MOVES, help_forms


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
            raise ValueError(self.skipped.get(start, no_level(start)))
        self.solved = 0
        self.message: list[str] = []
        self.message_kind = INFO
        #: The departure on show (paragraphs and blocks), or None: the game plays.
        self.panel: list | None = None
        #: The panel's first line shown below its heading (the arrows scroll it).
        self.panel_top = 0
        self._start(self.playable.index(start))
        if self.skipped and self.panel is None:
            reasons = list(self.skipped.values())
            self.say([n_("Skipped {n} level {seed}'s game cannot play:",
                          "Skipped {n} levels {seed}'s game cannot play:",
                          len(reasons)).format(n=len(reasons), seed=referee.seed)] + reasons[:2] + (["..."] if len(reasons) > 2 else [])
                     + self.message, WARN)

    # -- state ---------------------------------------------------------------

    def _start(self, k: int) -> None:
        """A new game from playable level ``k`` (and, in seed 001's game,
        the ones after it)."""
        self._first = k
        self._won = False
        self._show(self.referee.start([self.all_levels[i] for i in self.playable[k:]]),
                   self._comment())

    @property
    def position(self) -> int:
        """Place of the current level among the playable ones (0-based)."""
        return self._first + self.referee.view().index

    def _comment(self) -> list[str]:
        comment = self.level.metadata.get("Comment") or getattr(self.level, "notes", "")
        return [comment] if comment else []

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
        return self.referee.moves()

    def board(self) -> Board:
        v = self.referee.view()
        return Board(v.walls, v.boxes, v.goals, v.player)

    def status_forms(self) -> list[tuple[list[str], str]]:
        where, title = self.where()
        counts = counters(self.moves, self.referee.pushes(), self.referee.view().bombs)
        name = os.path.basename(self.referee.name.rstrip(os.sep)) or self.referee.name
        return [([where + title, *counts, f"[{name} + spec]"], "  "),
                ([where, *counts, f"[{name} + spec]"], "  "),
                ([where, *counts, "[+spec]"], " ")]

    def help_forms(self) -> list[tuple[list[str], str]]:
        if self.panel is not None:
            return [([_("arrows scroll"), _("u undo (back one step)"), _("q quit")], "  "),
                    ([_("arrows scroll"), _("u undo"), _("q quit")], " ")]
        bombs = self.referee.view().bombs
        return help_forms(bombs is not None and (bombs > 0 or self.level.bombs > 0), hints=False)

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
        elif command == "bomb":
            self._bomb()
        elif command == "restart":
            self._start(self.position)
            if self.panel is None:
                self.say([restarted(level_name(self.level, self.index))] + self._comment())
        elif command in ("next", "prev"):
            k = self.position + (1 if command == "next" else -1)
            if 0 <= k < len(self.playable):
                self._start(k)
            else:
                self.say([_("This is the last level.") if command == "next" else
                          _("This is the first level.")])
        else:
            self.say([_("No hint here: hints know only our own implementation.")], WARN)
        return True

    def _move(self, command: str) -> None:
        if self._won:
            self.say([solved_already()])
            return
        referee = self.referee
        before, done = referee.view(), self.position
        departure = referee.act(command)
        if departure is not None:
            self._show(departure, [])
            return
        after = referee.view()
        if after.index != before.index or (after.won and not before.won):
            self._solved(done, after.index != before.index)
        elif (after.player, after.boxes) == (before.player, before.boxes):
            self.say([blocked()])
        else:
            self.say(self._comment())

    def _solved(self, done: int, advanced: bool) -> None:
        """Level ``done`` (a playable position) is won: in seed 001's game
        the game has moved on by itself (``advanced``); else a new game
        starts at the next level, if any."""
        referee = self.referee
        moves, pushes = referee.solved_counts if advanced else (self.moves, referee.pushes())
        index = self.playable[done]
        self.solved += 1
        head = _("Solved {level} in {moves}, {pushes}, every action as the spec "
                 "plays it!").format(level=level_name(self.all_levels[index], index),
                                     moves=moves_text(moves), pushes=pushes_text(pushes))
        if not advanced and self.position + 1 < len(self.playable):    # a new game
            self._start(self.position + 1)
            advanced = self.panel is None
        if advanced:
            self.say([now_playing(head, level_name(self.level, self.index))] + self._comment(),
                     WIN)
        elif self.panel is None:
            self._won = True
            self.say([head, last_level()], WIN)

    def _undo(self) -> None:
        referee = self.referee
        if referee.sequence and self.panel is None:     # seed 001's deshacer
            played = len(referee.codes)
            departure = referee.act("undo")
            if departure is None and len(referee.codes) == played:
                self.say([nothing_to_undo()])
                return
            self._won = False
            self._show(departure, [_("Undone.")])
            return
        if not referee.codes and self.panel is None:
            self.say([_("Nothing to undo on this level.")])
            return
        self._won = False
        self._show(referee.back(), [_("Undone (the level replayed to the step before).")])

    def _bomb(self) -> None:
        referee = self.referee
        if referee.view().bombs is None:
            self.say([_("No bombs in {seed}'s game.").format(seed=referee.seed)], WARN)
            return
        if self._won:
            self.say([solved_already()])
            return
        played = len(referee.codes)
        departure = referee.act("bomb")
        if departure is None and len(referee.codes) == played:
            self.say([no_bombs_left()])
            return
        x, y = referee.view().player
        self._show(departure, [boom(x, y, referee.view().bombs)])


def solved_already() -> str:
    return _("This level is solved: n goes on, r plays it again.")
