"""What a profile is: one object that says everything the toolkit knows of
one interface of the seeds (:class:`Profile`), and the two kinds of data it
is made of that the engine plays: its fixed scenarios (:class:`Scenario`)
and its one way of stepping the spec by an action letter (:class:`Stepper`).

A profile is *declared* in its own module under :mod:`conformance.profiles`
and listed by the registry there; nothing outside those modules branches on
a profile's name. The engine, the reports and the commands ask the
profile's object instead (``profiles.get(name).groups``, ``.emit(c)``...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

from conformance.machines import levels as lv
from conformance.machines.replays import replay_string
from spec import rules as spec_rules

#: The kind of target a profile serves: a Python module, or a target of a
#: language of its own (a C++ folder, a Prolog program).
PYTHON = "python"


@dataclass(frozen=True)
class Stepper:
    """The spec stepped by replay letters (``u d l r`` moves, ``b`` a bomb,
    ``z`` an undo), the one way a profile does it: its machine steps its
    model with it, :mod:`conformance.machines.blame` replays a departure
    with it, and its emitter writes a test's expected values with it.

    ``start(scenes)``: the spec's state at the start of a game;
    ``step(state, code)``: the state after the action, or None when a check
    would not play it (a move ``puede_mover`` refuses, a bomb with none
    left); ``observe(state)``: evaluate the observers that have cases of
    their own in the rule table, as a check compares them after every
    action (so a trace records their cases)."""

    start: Callable[[Sequence[lv.Scene]], Any]
    step: Callable[[Any, str], Any]
    observe: Callable[[Any], None] = lambda state: None
    #: The observer whose answer says the game is won (``completado``...),
    #: evaluated by blame for a departure of the value ``GANADO``.
    won: Callable[[Any], bool] = lambda state: False
    #: ``puede_mover(state, accion)``, evaluated by blame for a departure of
    #: the value ``PUEDE_MOVER`` (profiles that have that observer).
    can_move: Callable[[Any, Any], bool] = lambda state, accion: True
    #: ``scene(state)``: a state as a fresh level (a game that starts
    #: there), or None when it cannot be one; localising a departure plays
    #: the states of the counterexample so (``conformance.checking.localize``).
    scene: Callable[[Any], "lv.Scene | None"] = lambda state: None
    #: ``level(state)``: the 0-based place, in its game's levels, of the
    #: level a state is playing (the levels after it are still to come):
    #: a state made a fresh level is followed by them.
    level: Callable[[Any], int] = lambda state: 0

    def play(self, scenes: Sequence[lv.Scene], codes: str) -> Iterator[tuple[str, Any, Any]]:
        """``(code, state before, state after)`` for each action played
        (those a check would not play are skipped)."""
        state = self.start(scenes)
        for code in codes:
            after = self.step(state, code)
            if after is not None:
                yield code, state, after
                state = after

    def final(self, scenes: Sequence[lv.Scene], codes: str) -> Any:
        """The state after ``codes``."""
        state = self.start(scenes)
        for code in codes:
            after = self.step(state, code)
            state = state if after is None else after
        return state


@dataclass(frozen=True)
class Scenario:
    """One fixed play: ``levels`` (each a tuple of XSB rows), ``actions``,
    the rule it is aimed at and what it tries, in a few words.

    A random search finds most bugs, but which ones it finds depends on the
    seed, and a course grades everyone under one fixed seed. A profile's
    fixed scenarios do not depend on it: at least one per rule of its table,
    aimed at the arrangements where students' code goes wrong (every
    combination of player, box and goal around a push, two boxes in a row,
    a box pushed into the cell a push left behind, walls in the last row
    and column, non-square and padded grids, far walks and bombs off the
    level, undo after every kind of action and after a level change). A
    check plays them before its random search, each as a replay is played
    (every observer compared after every action).

    The rows are XSB (``#`` wall, ``$`` box, ``.`` goal, ``*`` box on a
    goal, ``@`` player, ``+`` player on a goal, space or ``-`` floor); for a
    profile of seed 002's grids they are exactly the rows given to
    ``crear_grilla``. Actions: ``u d l r`` moves, ``b`` a bomb, ``z`` an
    undo. Every scenario lies inside its profile's domain and takes a case
    of its rule (tests check both).
    """

    rule: str
    what: str
    levels: tuple[tuple[str, ...], ...]
    actions: str = ""
    origin: tuple[int, int] = (0, 0)      # of every level (tad, extendido: the infinite grid)
    bombs: tuple[int, ...] = ()           # per level (extendido, aed2)

    def scenes(self, grid: bool) -> list[lv.Scene]:
        """Its levels as scenes; ``grid``: given to ``crear_grilla`` as rows
        (a profile whose levels are seed 002's grids)."""
        return [lv.from_rows(list(rows), self.origin, self.bombs[i] if i < len(self.bombs) else 0,
                             soko=grid, source=f"scenario {self.rule}: {self.what}")
                for i, rows in enumerate(self.levels)]


    def replay_text(self, profile: "Profile") -> str:
        """The scenario as the JSON ``--replay`` takes."""
        return replay_string(profile.name, self.scenes(profile.grid), self.actions)


# A room for pushes in all four directions: the player in the middle, a box
# on each side with floor behind it ("uddulrr" pushes each once).
CROSS = ("#########",
         "#       #",
         "#   $   #",
         "#  $@$  #",
         "#   $   #",
         "#       #",
         "#########")
# The same with every box on a goal and a goal behind it (and as many boxes
# as goals: four in the corners).
CROSS_GOALS = ("#########",
               "#$  .  $#",
               "#   *   #",
               "# .*@*. #",
               "#   *   #",
               "#$  .  $#",
               "#########")
FOUR_PUSHES = "uddulrr"
#: Where open levels of scenarios sit: anywhere, at negative coordinates too.
OPEN = (-3, -2)


def scenario(rule: str, what: str, rows: Sequence[str], actions: str = "", origin=(0, 0),
             bombs: int = 0) -> Scenario:
    """A scenario of one level."""
    return Scenario(rule, what, (tuple(rows),), actions, origin, (bombs,))


def game(rule: str, what: str, levels: Sequence[Sequence[str]], actions: str,
         bombs: Sequence[int] = ()) -> Scenario:
    """A scenario of a sequence of levels."""
    return Scenario(rule, what, tuple(tuple(r) for r in levels), actions, (0, 0), tuple(bombs))


@dataclass(frozen=True, eq=False)
class Profile:
    """One interface of the seeds, and everything the toolkit does with it.

    The fields every profile has: ``name`` (``soko``), ``seed`` (whose rules
    it judges, ``seed 002``), ``operations`` (what a target must provide),
    ``groups`` (its operation groups: a test each in the pytest plugin),
    ``rules`` (its rule table, :mod:`spec.rules`) and ``machine`` (its
    Hypothesis state machine, or, for a language with a runner of its own,
    the class that runner drives).

    A profile of Python targets (``kind`` ``python``) is also detected from
    a target's operations, checked on what it has when it lacks some
    (``essential``, ``modifiers``), and played by the engine on its
    ``domain`` (the seed's preconditions), its fixed ``scenarios`` first,
    the spec stepped by its ``stepper``; its counterexamples become tests
    in the student's format by ``emit``.

    A profile of another ``kind`` (``cpp``, ``prolog``) says how such a
    target is recognised (``recognize``, ``what``, ``called``), built or
    opened (``open``), found lacking (``lacking``), checked by a runner of
    its own (``run``, ``call_limit``), how a first finding is classified and
    reported (``classify``, ``finish_report``), and played by ``sokoban
    play`` (``game``).
    """

    name: str
    seed: str
    operations: tuple[str, ...]
    groups: tuple[str, ...]
    rules: spec_rules.Table
    machine: type
    kind: str = PYTHON
    #: Without these nothing can be checked; a target lacking only others is
    #: checked on what it has.
    essential: tuple[str, ...] = ()
    #: Operations whose results stay with the target (a juego: only passed back).
    opaque: tuple[str, ...] = ()
    #: Modifiers only some groups use: operation -> those groups.
    modifiers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    domain: lv.Domain | None = None
    scenarios: tuple[Scenario, ...] = ()
    stepper: Stepper | None = None
    #: A counterexample as a test in the student's format ("" when none can be made).
    emit: Callable[[Any], str] | None = None
    #: Its levels are seed 002's grids (rows given to ``crear_grilla``), not
    #: the infinite grid.
    grid: bool = False
    #: A game is a sequence of levels, with bombs and undo (seed 001).
    sequences: bool = False
    #: It has inputs beyond its domain that ``--robustness`` draws.
    robustness: bool = False
    #: Under ``--directions seed001``: ``positions`` (every (x, y) reflected)
    #: or ``direction`` (only ``mover``'s direction: its (c, f) are indices).
    flip: str = "positions"
    #: The direction convention its targets use (``aed2``: seed 001's).
    directions: str = "ours"
    #: The bundled collection ``sokoban play`` plays by default.
    default_levels: str = "tutorial"
    #: Where it comes among the profiles a Python target provides, when
    #: ``sokoban play`` picks one (lowest first).
    play_rank: int = 0
    #: ``sokoban play``: the spec's view of the model (``levels.View``).
    view: Callable[[Any], lv.View] | None = None
    #: ``sokoban play``: why a level cannot be played (None: it can).
    refuses: Callable[[Any, lv.Scene], "str | None"] | None = None

    # -- a target of a language of its own (kind != python) ---------------
    #: ``recognize(path, strict=False)``: the path of such a target ``path``
    #: is (a folder holding aed2_Juego.h, or its src/), or None; ``strict``:
    #: only when it surely is one (a Prolog file that defines the program,
    #: not a file of level facts).
    recognize: Callable[[Any], Any] | None = None
    #: ``explain(path)``: why a folder with no Python in it that looks like
    #: such a target is not one (None: it does not look like one).
    explain: Callable[[Any], "str | None"] | None = None
    #: How a file of this kind is named in "not a Python file" messages.
    file_hint: str = ""
    #: Its targets are folders (not files).
    folder: bool = False
    #: What such a target is, for messages ("a folder of C++ sources holding aed2_Juego.h").
    what: str = ""
    #: Its short name ("a C++ folder").
    called: str = ""
    #: ``open(spec, options)``: the target, built and started (raises
    #: ``BadTarget``, or the profile's own build error, with a message).
    open: Callable[..., Any] | None = None
    #: ``lacking(spec, options)``: None when it provides every operation,
    #: else what it lacks or why it cannot be built or loaded.
    lacking: Callable[..., "str | None"] | None = None
    #: ``run(spec, options, budget)``: its own runner's ``(verdict, report)``.
    run: Callable[..., Any] | None = None
    #: ``call_limit(options)``: the longest single request of a check (the
    #: budget keeps room for it).
    call_limit: Callable[[Any], float] | None = None
    #: ``classify(target, verdict, judge, search=...)``: the verdict with its
    #: findings ordered (aed2: which a plain build shows).
    classify: Callable[..., Any] | None = None
    #: ``finish_report(verdict, text)``: the report with what the profile
    #: adds after the verdict (aed2: where it shows, its tests); None: the
    #: counterexample's test (``emit``) is appended.
    finish_report: Callable[..., str] | None = None
    #: ``located(counterexample)``: the lines of the target's own files the
    #: departure itself names, innermost first, ``[(file, line, function)]``
    #: (aed2: a sanitizer's ``file:line``); localising ranks them first.
    located: Callable[[Any], list] | None = None
    #: ``game(spec, options)``: a game of ``sokoban play`` of its own (prolog).
    game: Callable[..., Any] | None = None
    #: The selftest's own targets of this kind: ``examples()`` lists
    #: ``(name, should_conform)`` (its reference, its students, its mutants),
    #: ``materialize(name)`` writes one and returns its path, and ``tool``
    #: is the program they need (without it the selftest leaves them out).
    examples: Callable[[], list] | None = None
    materialize: Callable[[str], Any] | None = None
    tool: str = ""

    def __repr__(self) -> str:
        return f"<profile {self.name}>"

    @property
    def python(self) -> bool:
        """A profile of Python targets (detected from their operations)."""
        return self.kind == PYTHON

    def missing(self, has: Callable[[str], bool]) -> list[str]:
        """The operations the target lacks, in the profile's order."""
        return [op for op in self.operations if not has(op)]

    def rule_first(self) -> list[Scenario]:
        """Its scenarios in the order a check under a time budget plays
        them: the first one aimed at each rule, then the others, so that a
        budget too short for all of them still exercises every rule once."""
        firsts: dict[str, Scenario] = {}
        for s in self.scenarios:
            firsts.setdefault(s.rule, s)
        chosen = set(map(id, firsts.values()))
        return list(firsts.values()) + [s for s in self.scenarios if id(s) not in chosen]
