"""A target played move by move with the spec beside it: what ``sokoban
play TARGET`` stands on (the terminal is :mod:`impl.play`'s; the two meet in
the ``sokoban`` command, :mod:`sokoban_tad`, since neither package may
import the other).

The target runs where ``sokoban check`` runs it, in the sandbox
(:func:`conformance.sandbox.open_target`). Each action is played by the
profile's machine, exactly as a check plays it: the spec and the target move
together, and after every move every observer is compared. At the first
departure, :meth:`Referee.act` returns the engine's
:class:`~conformance.api.Counterexample` (its rule from
:mod:`conformance.blame`, its boards, its replay command) and
:meth:`Referee.panel` lays it out for the screen. :meth:`Referee.back`
undoes a move by replaying the level's history to the step before, through
the target too.

Everything it hands out is plain data (rows, positions, strings), so the
front end needs nothing of this package.
"""

from __future__ import annotations

from typing import Any

from conformance import engine_levels as lv
from conformance.api import Counterexample
from conformance.machines import machine
from conformance.machines.base import CheckSettings, Departure, Fatal, Run
from conformance.monitor import desc_fault
from conformance.report import format_comparison, rule_lines
from conformance.sandbox import open_target
from conformance.targets import BadTarget, detect_profiles, explain_missing, resolve
from levels.lurd import LETTERS
from spec.tipos import Accion

#: The profiles a referee can play (the others are checked, not played, for now).
PROFILES = ("soko",)
#: The move commands of the terminal game -> replay letters.
MOVES = {"up": LETTERS[Accion.ARRIBA], "down": LETTERS[Accion.ABAJO],
         "left": LETTERS[Accion.IZQUIERDA], "right": LETTERS[Accion.DERECHA]}


class Referee:
    """The spec beside ``target`` (as typed: a ``soko.py``, a folder holding
    one), one level at a time. Raises
    :class:`~conformance.targets.BadTarget` when the target cannot be found,
    loaded or played (one paragraph saying why)."""

    def __init__(self, target: str, *, in_process: bool = False):
        spec = resolve(target)
        if spec is None or spec.kind not in ("file", "package", "module", "object"):
            raise BadTarget(f"{target}: sokoban play plays a Python soko.py (seed 002) for now; "
                            "check the others with sokoban check")
        self.target = open_target(spec, in_process=in_process)
        try:
            profiles = detect_profiles(self.target.has)
            if "soko" not in profiles:
                raise BadTarget(explain_missing(spec.name, self.target.has, ["soko"]))
        except BaseException:
            self.target.close()
            raise
        self.name = spec.name
        self.profile = "soko"
        self.scene: lv.Scene | None = None
        self.codes: list[str] = []
        self.departure: Counterexample | None = None
        self._machine = None

    # -- levels -----------------------------------------------------------------

    @staticmethod
    def refuses(level: Any) -> str | None:
        """Why ``level`` (a :class:`levels.Level`) cannot be played under the
        profile (None: it can): seed 002's preconditions on the grid."""
        scene = lv._from_level(level, "", soko=True)
        if scene is None:
            return "no player, or cells at negative positions"
        return desc_fault(list(scene.desc))

    def start(self, level: Any) -> Counterexample | None:
        """Start ``level`` (a :class:`levels.Level`) on the spec and the
        target: the departure at the start, or None."""
        why = self.refuses(level)
        if why is not None:
            raise ValueError(why)
        self.scene = lv._from_level(level, getattr(level, "title", "") or "", soko=True)
        return self._replay([])

    def _replay(self, codes: list[str]) -> Counterexample | None:
        run = Run(self.target, self.profile, CheckSettings.for_groups(self.profile))
        self._machine = machine(self.profile).bind(run)()
        self.codes, self.departure = [], None
        try:
            self._machine.begin([self.scene])
            for code in codes:
                self.codes.append(code)
                self._machine.act(code)
        except (Departure, Fatal) as e:
            self.departure = e.counterexample
        return self.departure

    # -- actions -------------------------------------------------------------------

    def act(self, command: str) -> Counterexample | None:
        """Play a move (``up``, ``down``, ``left``, ``right``): the
        departure it shows, or None."""
        code = MOVES[command]
        self.codes.append(code)
        try:
            self._machine.act(code)
        except (Departure, Fatal) as e:
            self.departure = e.counterexample
        return self.departure

    def back(self) -> Counterexample | None:
        """Undo the last move: the level's history replayed to the step
        before, on the spec and on the target (a departure on the way, or
        None). False when there is nothing to undo."""
        if not self.codes:
            return self._replay([]) if self.departure is not None else None
        return self._replay(self.codes[:-1])

    # -- what the screen shows ---------------------------------------------------

    def board(self) -> tuple[frozenset, frozenset, frozenset, tuple[int, int]]:
        """``(walls, boxes, goals, player)`` now: the spec's, which the
        target's observers matched after the last move."""
        g = self._machine.model
        return g.paredes, g.cajas, g.objetivos, g.jugador

    def won(self) -> bool:
        g = self._machine.model
        return bool(g.objetivos) and g.objetivos <= g.cajas

    def pushes(self) -> int:
        return self._machine.run.stats["pushes"]

    def panel(self) -> list[str | list[str]]:
        """The departure laid out for the screen: paragraphs (a string, to
        wrap) and blocks (a list of lines, kept as they are: boards). The
        rule broken comes first, in the seed's words; then what went wrong,
        the expected and actual boards, the replay command."""
        c = self.departure
        if c is None:
            return []
        rule, *words = rule_lines(c.profile, c.rule)
        step = len(self.codes)
        where = "at the start" if not step else f"at move {step}"
        out: list[str | list[str]] = [f"Departure {where}: {rule}"]
        out += [w.strip() for w in words]
        out.append(f"What went wrong: {c.message}")
        out.append(format_comparison(c.expected, c.actual))
        out.append(f"Replay: {c.replay}")
        return out

    def close(self) -> None:
        self.target.close()
