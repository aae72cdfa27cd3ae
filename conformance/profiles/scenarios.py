"""Fixed scenarios: the same small plays for every target, at least one per
rule of the profile's table (``spec.rules``), played before the random
search.

A random search finds most bugs, but which ones it finds depends on the
seed, and a course grades everyone under one fixed seed. These scenarios do
not depend on it: each is a level (or, for ``extendido``/``aed2``, a
sequence of levels) and a string of actions, written as data below, aimed
at one rule (:attr:`Scenario.rule`) and at the arrangements where students'
code goes wrong: every combination of player, box and goal around a push,
a push against two boxes some of them on goals, a box pushed into the cell
a push left behind (history-dependent states), walls in the last row and
column, non-square and padded grids, more boxes than goals, far walks and
bombs off the level, undo after every kind of action and after a level
change.

Entry point: :func:`run` plays every scenario of a profile against a
target, each as :func:`conformance.checking.engine.replay` plays a recorded
counterexample (every observer compared after every action), and returns
the departures. It is a step of its own, before the random search, so a
time budget can run it first.

The rows are XSB (``#`` wall, ``$`` box, ``.`` goal/depot, ``*`` box on a
goal, ``@`` player, ``+`` player on a goal, space or ``-`` floor); for
``soko`` they are exactly the rows given to ``crear_grilla``. Actions: ``u
d l r`` moves (north, south, west, east), ``b`` a bomb, ``z`` an undo.
Every scenario lies inside its profile's domain
(``conformance.machines.levels.DOMAINS``; a test checks it), and a test
checks that playing it through the spec takes a case of its rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from conformance.machines import levels as lv


@dataclass(frozen=True)
class Scenario:
    """One fixed play: ``levels`` (each a tuple of rows), ``actions``, the
    rule it is aimed at and what it tries, in a few words."""

    rule: str
    what: str
    levels: tuple[tuple[str, ...], ...]
    actions: str = ""
    origin: tuple[int, int] = (0, 0)      # of every level (tad, extendido: the infinite grid)
    bombs: tuple[int, ...] = ()           # per level (extendido, aed2)

    def scenes(self, profile: str) -> list[lv.Scene]:
        soko = profile == "soko"
        return [lv.from_rows(list(rows), self.origin, self.bombs[i] if i < len(self.bombs) else 0,
                             soko=soko, source=f"scenario {self.rule}: {self.what}")
                for i, rows in enumerate(self.levels)]


def _s(rule: str, what: str, rows: Sequence[str], actions: str = "", origin=(0, 0),
       bombs: int = 0) -> Scenario:
    return Scenario(rule, what, (tuple(rows),), actions, origin, (bombs,))


def _m(rule: str, what: str, levels: Sequence[Sequence[str]], actions: str,
       bombs: Sequence[int] = ()) -> Scenario:
    return Scenario(rule, what, tuple(tuple(r) for r in levels), actions, (0, 0), tuple(bombs))


# A room for pushes in all four directions: the player in the middle, a box
# on each side with floor behind it ("uddulrr" pushes each once).
_CROSS = ("#########",
          "#       #",
          "#   $   #",
          "#  $@$  #",
          "#   $   #",
          "#       #",
          "#########")
# The same with every box on a goal and a goal behind it (and as many boxes
# as goals: four in the corners).
_CROSS_GOALS = ("#########",
                "#$  .  $#",
                "#   *   #",
                "# .*@*. #",
                "#   *   #",
                "#$  .  $#",
                "#########")
_FOUR_PUSHES = "uddulrr"

# ------------------------------------------------------------------- soko

SOKO = (
    _s("soko.read", "every character, the player on floor", [
        "########",
        "#@ $*. #",
        "# #  $ #",
        "########"]),
    _s("soko.read", "the player on a goal, a box on a goal", [
        "#######",
        "#+$   #",
        "# *   #",
        "#######"]),
    _s("soko.size", "a grid wider than tall, padded with spaces", [
        "#####   ",
        "#@$.#   ",
        "#####   "]),
    _s("soko.size", "a grid taller than wide", [
        "###",
        "#@#",
        "# #",
        "#$#",
        "#.#",
        "# #",
        "###"], "dd"),
    _s("soko.walls", "walk along inner walls", [
        "#######",
        "#@  # #",
        "# # # #",
        "#   $.#",
        "#######"], "rrdddllluu"),
    _s("soko.goals", "the player steps onto goals and off them", [
        "#######",
        "#+.  .#",
        "# $$$ #",
        "#######"], "rrrrrllll"),
    _s("soko.goals", "a box pushed from goal to goal, off goals and onto one", [
        "########",
        "#@*.  .#",
        "# $ $  #",
        "########"], "rrrr"),
    _s("soko.step", "a step each way on floor", [
        "######",
        "#    #",
        "# @  #",
        "#    #",
        "#$. ##",
        "######"], "urdlldru"),
    _s("soko.step", "steps onto goals and off them, each way", [
        "#######",
        "#  .  #",
        "# .@. #",
        "#  .  #",
        "#$$$$ #",
        "#######"], "udduudlrrlrl"),
    _s("soko.wall-stops", "walls on every side (the last row and column too)", [
        "###",
        "#@#",
        "###"], "udlr"),
    _s("soko.wall-stops", "walls each way from a goal", [
        "#####",
        "#+$ #",
        "#####"], "udlr"),
    _s("soko.push", "a push each way, floor to floor", _CROSS, _FOUR_PUSHES),
    _s("soko.push", "a push each way from goal to goal", _CROSS_GOALS, _FOUR_PUSHES),
    _s("soko.push", "from a goal, a box onto a goal, then off it", [
        "########",
        "#+$.  $#",
        "# *.  $#",
        "########"], "rrr"),
    _s("soko.push", "a box pushed into the cell a push left behind", [
        "########",
        "#      #",
        "#@$    #",
        "#      #",
        "#.     #",
        "########"], "rurrdllll"),
    _s("soko.push", "a box pushed into the cell a push onto a goal left behind", [
        "#######",
        "#@$.  #",
        "#$    #",
        "#     #",
        "#######"], "rddlu"),
    _s("soko.push", "a box pushed onto the goal a push from it left behind", [
        "#######",
        "#+$.  #",
        "#$    #",
        "#     #",
        "#######"], "rddlu"),
    _s("soko.push", "push, step back, push again", [
        "#######",
        "#@$   #",
        "# $ ..#",
        "#######"], "rlrldrr"),
    _s("soko.push-blocked", "a box against a wall, each way", [
        "#####",
        "##$##",
        "#$@$#",
        "##$##",
        "#####"], "udlr"),
    _s("soko.push-blocked", "a box against a box, each way", [
        "#######",
        "#  $  #",
        "#  $  #",
        "#$$@$$#",
        "#  $  #",
        "#  $  #",
        "#.....#",
        "#######"], "udlr"),
    _s("soko.push-blocked", "against two boxes, some on goals, from a goal", [
        "########",
        "#+$*  $#",
        "# $$   #",
        "#  *$ .#",
        "########"], "rdrdrr"),
    _s("soko.push-blocked", "a box against a box on a goal, and the other way", [
        "########",
        "#@$*   #",
        "#  *$  #",
        "#   .  #",
        "########"], "rdrr"),
    _s("soko.push-blocked", "a box on a goal against a box on a goal", [
        "#######",
        "#@** $#",
        "#   $ #",
        "#######"], "r"),
    _s("soko.won", "won with more boxes than goals, then not", [
        "#######",
        "#@$.  #",
        "#  $  #",
        "#######"], "rr"),
    _s("soko.won", "the player on the only goal is no win", [
        "######",
        "#+ $ #",
        "#    #",
        "######"], "rl"),
    _s("soko.new-grid", "every kind of move returns a new grid", [
        "#######",
        "#@$ . #",
        "#   $.#",
        "#######"], "rdrurr"),
    _s("soko.blocked-same", "refused moves: into a wall, into a blocked box", [
        "######",
        "#@$$ #",
        "#.. ##",
        "######"], "urld"),
)


# -------------------------------------------------------------------- tad

_OPEN = (-3, -2)      # tad and extendido levels may sit anywhere, at negative coordinates too

TAD = (
    _s("tad.start", "every kind of cell, off the origin", [
        "#  $ ",
        " @ *.",
        "  #  "], origin=_OPEN),
    _s("tad.start", "the character on a depot", [
        "+$  ",
        "  # "], origin=(2, 5)),
    _s("tad.walls", "walk along walls", [
        "#####",
        "#@  #",
        "# # #",
        "#   #",
        "#####"], "rrddllluu"),
    _s("tad.depots", "the character steps onto depots and off them", [
        "+.$ ",
        "   $"], "rrdlll", origin=_OPEN),
    _s("tad.depots", "a box pushed onto a depot and off it", [
        "@$.  ",
        "   $.",
        "     "], "rr"),
    _s("tad.step", "a step each way on the open plane", ["@ $."], "urdllldr", origin=_OPEN),
    _s("tad.step", "far from everything, then back", ["@$."], "llllllllrrrrrrrr"),
    _s("tad.wall-stops", "walls on every side", [
        " # ",
        "#@#",
        " # ",
        "$. "], "udlr"),
    _s("tad.push", "a push each way from depot to depot", _CROSS_GOALS, _FOUR_PUSHES,
       origin=_OPEN),
    _s("tad.push", "from a depot, onto a depot, then off it", [
        "+$. ",
        "  $ "], "rrr"),
    _s("tad.push", "a box pushed into the cell a push left behind", [
        "      ",
        "@$    ",
        "      ",
        ".     "], "rurrdllll"),
    _s("tad.push-blocked", "a box against a wall, each way", [
        "  #  ",
        "  $  ",
        "#$@$#",
        "  $  ",
        "  #  ",
        "...."], "udlr"),
    _s("tad.push-blocked", "against two boxes, some on depots", [
        "@$* ",
        " *$ ",
        "..  "], "rdr"),
    _s("tad.push-blocked", "a box against a box, each way", [
        "  $  ",
        "  $  ",
        "$$@$$",
        "  $  ",
        "  $  ",
        ".....",
        "...  "], "udlr", origin=_OPEN),
    _s("tad.won", "completed by the last push, then not", [
        "@$. ",
        " *  "], "rr"),
)

# --------------------------------------------------------- extendido, aed2

EXTENDIDO = (
    _s("ext.start", "every kind of cell, bombs, off the origin", [
        "#  $ ",
        " @ *.",
        "  #  "], origin=_OPEN, bombs=2),
    _s("ext.walls", "a far walk off the level and back", [
        "#$.",
        "@  "], "l" * 14 + "r" * 14),
    _s("ext.walls", "walk along walls", [
        "#####",
        "#@  #",
        "# # #",
        "#$. #",
        "#####"], "rrddlu"),
    _s("ext.depots", "the character and a box on depots and off them", [
        "+.$ ",
        "   $"], "rrrdll"),
    _s("ext.step", "a step each way, with bombs left", ["@ $."], "urdlld", origin=_OPEN, bombs=1),
    _s("ext.push", "a push each way from depot to depot", _CROSS_GOALS, _FOUR_PUSHES),
    _s("ext.push", "a box pushed into the cell a push left behind", [
        "      ",
        "@$    ",
        "      ",
        ".     "], "rurrdllll"),
    _s("ext.can-move", "next to boxes against boxes and against walls", [
        "@$$ ",
        "$#  ",
        "*   ",
        ".. ."], "rdu"),
    _s("ext.won", "won by the last push, one box already on a depot", [
        "@$. ",
        " *  "], "r"),
    _m("ext.advance", "three levels won in turn, an undo after each advance", [
        ["@$."],
        ["@ $.", "#   "],
        ["@$.#"]], "rzrrzr", bombs=(1, 0, 1)),
    _s("ext.bomb", "a bomb clears the character's row and column", [
        "  #  ",
        "# @ #",
        " $#. ",
        "  #  "], "b", bombs=1),
    _s("ext.bomb", "a bomb inside a ring of walls", [
        "###",
        "#@#",
        "#$#",
        "#.#",
        "###"], "b", bombs=2),
    _s("ext.bomb", "bombs just left of the walls, far left, and above them", [
        " ###",
        "@#$.",
        " ###"], "blllllubrrrrrrdb", bombs=3),
    _s("ext.bomb-count", "bombs one after the other", [
        "#@#",
        "#$#",
        "#.#"], "bb", bombs=3),
    _s("ext.undo", "undo a push, a bomb, a step", [
        "# # ",
        "@$ .",
        "  # "], "rzbzdrzz", bombs=1),
    _s("ext.undo", "a long history undone past its start", [
        "@ $.",
        "    "], "rrrrlllldddduuuu" + "z" * 17),
    _s("ext.undo", "two bombs on one cell, each undone", [
        "#@#",
        "#$#",
        "#.#"], "bbzz", bombs=2),
    _s("ext.undo", "undo a push off a depot and a bomb in a row", [
        "@*  ",
        " #  ",
        "    "], "rbrzzz", bombs=1),
    _s("ext.undo-empty", "undo with nothing to undo", ["@$."], "zzrz"),
)

#: aed2 (the course's C++ interface): what mover answers.
AED2 = (
    _s("aed2.completes", "a box lands, is undone, lands again; the level completes", [
        "@$. ",
        "  $."], "rzrdr"),
    _m("aed2.completes", "the move that completes a level, then the next one's", [
        ["@$."],
        ["@$.", " $."]], "rrldr"),
)

#: Per profile, its fixed scenarios, in the order they are played.
SCENARIOS: dict[str, tuple[Scenario, ...]] = {
    "tad": TAD, "extendido": EXTENDIDO, "aed2": EXTENDIDO + AED2, "soko": SOKO,
}


def rule_first(profile: str) -> list[Scenario]:
    """The scenarios of ``profile`` in the order a check under a time budget
    plays them: the first one aimed at each rule, then the others (each in
    the table's order), so that a budget too short for all of them still
    exercises every rule once, soonest."""
    firsts: dict[str, Scenario] = {}
    for s in SCENARIOS[profile]:
        firsts.setdefault(s.rule, s)
    chosen = set(map(id, firsts.values()))
    return list(firsts.values()) + [s for s in SCENARIOS[profile] if id(s) not in chosen]


def replay_text(profile: str, scenario: Scenario) -> str:
    """The scenario as the JSON ``--replay`` takes."""
    from conformance.machines.replays import replay_string
    return replay_string(profile, scenario.scenes(profile), scenario.actions)


def run(target, profile: str, *, directions: str = "ours", strict_types: bool = False,
        stop_at_first: bool = False, rules: Sequence[str] | None = None):
    """Play every fixed scenario of ``profile`` (or those aimed at ``rules``)
    against ``target``; returns ``[(scenario, verdict)]`` for each that
    departs (its verdict carries the counterexample), in order.
    ``stop_at_first``: stop at the first departure."""
    from conformance.checking.engine import replay
    found = []
    for s in SCENARIOS[profile]:
        if rules is not None and s.rule not in rules:
            continue
        verdict = replay(target, profile, replay_text(profile, s), directions=directions,
                         strict_types=strict_types)
        if not verdict.conforms:
            found.append((s, verdict))
            if stop_at_first:
                break
    return found
