"""A target played action by action with the spec beside it: what ``sokoban
play TARGET`` stands on (the terminal is :mod:`impl.play`'s; the two meet in
the ``sokoban`` command, :mod:`sokoban_tad`, since neither package may
import the other).

Every profile plays: a student's ``soko.py`` (``soko``), a ``tad`` or
``extendido`` Python module, a C++ ``aed2`` folder and a Prolog program
(``prolog``). The target runs where ``sokoban check`` runs it: a Python
target in the sandbox (:func:`conformance.sandbox.box.open_target`), a C++
folder built and run as the check builds and runs it
(:func:`conformance.checking.checks.open_checked`, in seed 001's directions), a
Prolog program under ``swipl`` in its own box
(:class:`conformance.profiles.prolog.target.PrologTarget`). Each action is played by
the profile's machine (:mod:`conformance.machines`), exactly as a check
plays it: the spec and the target move together, and after every action
every observer is compared (a Prolog program: its ``action/2`` and
``perform/3`` successors of the state reached, the state being its own
``perform/3`` result for the action chosen). At the first departure,
:meth:`Referee.act` returns the machine's
:class:`~conformance.api.Counterexample` (its rule from the profile's rule
table, its boards, its replay command) and :meth:`Referee.panel` lays it
out for the screen. :meth:`Referee.back` replays the game's history to the
step before, through the target too.

The only code per profile here is :class:`_Observed` (the machines of the
targets that answer observers) and a profile's own game (a Prolog program's,
``conformance.profiles.prolog.game``),
each a few lines that start a game, play a letter and say what the spec's
board is: the comparing is the machines'.

Everything it hands out is plain data (rows, positions, strings), so the
front end needs nothing of this package.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

import levels

from conformance import profiles
from conformance.api import Counterexample
from conformance.checking.checks import RunOptions, open_checked
from conformance.machines import levels as lv
from conformance.machines.base import GAME_LEVELS, CheckSettings, Departure, Fatal, Run
from conformance.machines.profile import Profile
from conformance.live.monitor import desc_fault
from conformance.machines.replays import ACTION_CODES
from conformance.reports.report import format_comparison, rule_lines
from conformance.checking.targets import BadTarget, resolve
from conformance.translations import _, marked
from levels.lurd import LETTERS
from spec.tipos import Accion

#: The game's commands -> replay letters (``b`` tirar_bomba, ``z`` deshacer).
MOVES = {"up": LETTERS[Accion.ARRIBA], "down": LETTERS[Accion.ABAJO],
         "left": LETTERS[Accion.IZQUIERDA], "right": LETTERS[Accion.DERECHA]}
CODES = {**MOVES, "bomb": "b", "undo": "z"}
# ------------------------------------------------------------- per profile

class _Observed:
    """The profiles whose targets answer observers (soko, tad, extendido,
    aed2): the profile's machine, bound to a run as a check binds it."""

    def __init__(self, target: Any, profile: Profile, directions: str):
        self.target, self.definition, self.directions = target, profile, directions
        self.profile = profile.name
        self.machine = None

    def scene(self, level: Any) -> lv.Scene | None:
        scene = lv.from_level(level, getattr(level, "title", "") or "", soko=self.definition.grid)
        if scene is not None and self.definition.sequences:
            scene = lv.with_bombs(scene, level.bombs)
        return scene

    def refuses(self, level: Any) -> str | None:
        scene = self.scene(level)
        if scene is None:
            return _("no player, or cells at negative positions")
        if self.definition.grid:        # seed 002's preconditions on desc
            return desc_fault(list(scene.desc))
        return "; ".join(levels.validate(level, "tad")) or None

    def begin(self, played: Sequence[Any]) -> None:
        run = Run(self.target, self.definition, CheckSettings.for_groups(self.definition),
                  self.directions)
        self.machine = self.definition.machine.bind(run)()
        self.machine.nearby = False         # every observer after each action
        self.machine.begin([self.scene(level) for level in played])

    def act(self, code: str) -> bool:
        """Play ``code`` as the check plays it; False when the machine did
        not play it (a move ``puede_mover`` refuses, a bomb with none
        left; an undo with nothing to undo is not asked either)."""
        m = self.machine
        if not self.definition.sequences and code not in ACTION_CODES:
            return False
        if code == "z" and m.history_is_empty():
            return False
        done = len(m.codes)
        m.act(code)
        return len(m.codes) > done

    def view(self) -> lv.View:
        return self.definition.view(self.machine.model)

    def close(self) -> None:
        self.target.close()


def _open(target: str, in_process: bool, profile: str | None = None,
          support: str | None = None):
    """The game of ``target`` as typed (an ``_Observed``, or its profile's own game)
    and its name, under ``profile`` or, of those a check would check, the
    first by the profiles' ``play_rank``;
    :class:`BadTarget` saying why it cannot be played."""
    spec = resolve(target)
    if spec is None:
        raise BadTarget(_("no target given"))
    options = RunOptions(in_process=in_process, support=support)
    own = profiles.of_kind(spec.kind)
    if own is not None and own.game is not None and profile in (None, own.name):
        return own.game(spec, options), spec.name
    prefer = [p.name for p in sorted(profiles.python(), key=lambda p: p.play_rank)]
    opened, name, directions = open_checked(spec, options, profile, prefer=prefer)
    return _Observed(opened, profiles.get(name), directions), spec.name


# ----------------------------------------------------------------- referee

class Referee:
    """The spec beside ``target`` (as typed: a ``soko.py``, a folder holding
    one, a module, a C++ folder, a Prolog program), one game at a time.
    Raises :class:`~conformance.checking.targets.BadTarget` when the target cannot be
    found, built, loaded or played (one paragraph saying why). ``support``:
    the course's folder of support files (``--support DIR``)."""

    def __init__(self, target: str, *, in_process: bool = False, profile: str | None = None,
                 support: str | None = None):
        self.game, self.name = _open(target, in_process, profile, support)
        self.profile = self.game.profile
        definition = profiles.get(self.profile)
        self.seed = marked(definition.seed)       # shown on the game's screen
        self.default_levels = definition.default_levels
        #: A win moves on to the next level inside the game (seed 001).
        self.sequence = definition.sequences
        self.levels: list = []
        #: The actions played since the game started (replay letters).
        self.codes: list[str] = []
        #: This level's actions, as the game counts them: ``m`` move, ``p``
        #: push, ``b`` bomb (a deshacer takes the last back).
        self.history: list[str] = []
        self.departure: Counterexample | None = None
        #: ``(moves, pushes)`` of the level last won in a sequence.
        self.solved_counts = (0, 0)

    # -- levels -----------------------------------------------------------------

    def refuses(self, level: Any) -> str | None:
        """Why ``level`` (a :class:`levels.Level`) cannot be played under the
        profile (None: it can): the seed's preconditions on it."""
        return self.game.refuses(level)

    def start(self, levels: Sequence[Any]) -> Counterexample | None:
        """Start a game on ``levels`` (:class:`levels.Level` s, playable):
        the first one, or in seed 001's game the first :data:`GAME_LEVELS`
        of them in sequence. The departure at the start, or None."""
        self.levels = list(levels[:GAME_LEVELS if self.sequence else 1])
        for level in self.levels:
            why = self.refuses(level)
            if why is not None:
                raise ValueError(why)
        return self._replay([])

    def _replay(self, codes: Sequence[str]) -> Counterexample | None:
        self.codes, self.history, self.departure = [], [], None
        try:
            self.game.begin(self.levels)
            for code in codes:
                self._play(code)
        except (Departure, Fatal) as e:
            self.departure = e.counterexample
        return self.departure

    def _play(self, code: str) -> None:
        """Play ``code`` on the spec and the target (Departure, Fatal); one
        the game does not play (a move the seed refuses, an undo with
        nothing to undo, a bomb with none left) is not recorded."""
        before = self.view()
        self.codes.append(code)
        try:
            if not self.game.act(code):
                self.codes.pop()
                return
        except (Departure, Fatal):
            self._count(code, before)       # played: the spec's board is the one after it
            raise
        self._count(code, before)

    def _count(self, code: str, before: lv.View) -> None:
        """This level's history after ``code`` was played from ``before``."""
        after = self.view()
        if after.index != before.index:        # won, and on to the next level
            done = self.history + ["p"]
            self.solved_counts = (sum(a != "b" for a in done), done.count("p"))
            self.history = []                   # the history does not cross levels
        elif code == "z":
            self.history[-1:] = []
        elif code == "b":
            self.history.append("b")
        elif after.player != before.player:
            self.history.append("p" if after.boxes != before.boxes else "m")

    # -- actions -------------------------------------------------------------------

    def act(self, command: str) -> Counterexample | None:
        """Play a command (``up``, ``down``, ``left``, ``right``; ``bomb``
        and ``undo`` in seed 001's game): the departure it shows, or None."""
        try:
            self._play(CODES[command])
        except (Departure, Fatal) as e:
            self.departure = e.counterexample
        return self.departure

    def back(self) -> Counterexample | None:
        """Undo the last action: the game's history replayed to the step
        before, on the spec and on the target (a departure on the way, or
        None)."""
        if not self.codes:
            return self._replay([]) if self.departure is not None else None
        return self._replay(self.codes[:-1])

    # -- what the screen shows ---------------------------------------------------

    def view(self) -> lv.View:
        """The spec's game now, which the target's observers matched after
        the last action."""
        return self.game.view()

    def board(self) -> tuple[frozenset, frozenset, frozenset, tuple[int, int]]:
        """``(walls, boxes, goals, player)`` now."""
        v = self.view()
        return v.walls, v.boxes, v.goals, v.player

    def won(self) -> bool:
        return self.view().won

    def moves(self) -> int:
        """Moves on this level (pushes too; a deshacer takes one back)."""
        return sum(1 for a in self.history if a != "b")

    def pushes(self) -> int:
        return self.history.count("p")

    def panel(self) -> list[str | list[str]]:
        """The departure laid out for the screen: paragraphs (a string, to
        wrap) and blocks (a list of lines, kept as they are: boards). The
        rule broken comes first, in the seed's words; then what went wrong,
        the expected and actual boards (a Prolog program: the state reached,
        the query, the spec's successors and its own), the replay command."""
        c = self.departure
        if c is None:
            return []
        rule, *words = rule_lines(c.profile, c.rule)
        step = len(self.codes)
        last = self.codes[-1] if self.codes else ""
        where = (_("at the start") if not step
                 else _("at move {n}").format(n=step) if last in ACTION_CODES
                 else _("at action {n} (a bomb)").format(n=step) if last == "b"
                 else _("at action {n} (an undo)").format(n=step))
        out: list[str | list[str]] = [_("Departure {where}: {rule}").format(where=where,
                                                                           rule=rule)]
        out += [w.strip() for w in words]
        # (a Prolog program's message ends with the rule, shown above)
        message = getattr(c, "short_message", c.message)
        out.append(_("What went wrong: {message}").format(message=message))
        if getattr(c, "query", None):        # a Prolog program: the state and the query
            out.append(_("The state reached:"))
            out.append(list(c.state_drawing))
            out.append(_("Query: {query}").format(query=c.query))
        out.append(format_comparison(c.expected, c.actual))
        if getattr(c, "after_drawing", None):
            out.append(c.after_drawing[0])
            out.append(c.after_drawing[1:])
        out.append(_("Replay: {command}").format(command=c.replay))
        return out

    def close(self) -> None:
        self.game.close()
