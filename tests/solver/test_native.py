"""The native push-search kernel (``impl/solver/native.py``): it agrees with
the brute force and the Python search on tiny levels, solves generated
levels (its backward pull search too, alone), its answers are replayed through spec, and a missing compiler or a
kernel that crashes or prints garbage falls back to the Python search with a
note (never a traceback)."""

import dataclasses
import os
import shutil
import signal
import stat
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import levels
from impl.solver import SolverBug, native, solve
from impl.solver.board import Board, pieces_of
from levels.strategies import generated_levels

from spec import juego
from spec.tipos import CAJAS, DEPOSITOS, PAREDES, PERSONAJE

from .test_search import CORRIDOR, brute_force_moves, drawn, reachable_games, replays, tiny_levels

pytestmark = pytest.mark.skipif(shutil.which("g++") is None,
                                reason="g++ is not installed: no native kernel")


@pytest.fixture(scope="module")
def built():
    path, note = native.kernel()
    if path is None:
        pytest.skip(note)
    return path


def kernel_solve(level, switches: dict[str, str] | None = None, **limits):
    """The push search on the kernel, with the experiment switches
    ``SOKOBAN_KERNEL_<name>=<value>`` given as ``{name: value}``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(native.EXPERIMENTS, "1")
        for name, value in (switches or {}).items():
            mp.setenv("SOKOBAN_KERNEL_" + name, value)
        return solve(level, method="pushes", engine="native", **limits)


@settings(max_examples=60, deadline=None)
@given(tiny_levels(max_w=5, max_h=4, max_boxes=3))
def test_native_agrees_with_brute_force_and_python(built, nivel):
    best = brute_force_moves(nivel)
    r = solve(nivel, method="pushes", engine="native")
    p = solve(nivel, method="pushes", engine="python")
    assert r.method == "pushes (native)", r.summary()
    assert r.status == p.status == ("unsolvable" if best is None else "solved")
    if best is not None:
        assert replays(nivel, r.solution)


@settings(max_examples=40, deadline=None)
@given(generated_levels(min_size=4, max_size=9, max_boxes=5))
def test_native_solves_every_generated_level(built, level):
    r = solve(level, method="pushes", engine="native", time_limit=20)
    assert r.status == "solved" and r.method == "pushes (native)", r.summary()
    assert levels.lurd.solves(level, r.solution)


@settings(max_examples=50, deadline=None)
@given(tiny_levels(max_w=5, max_h=4, max_boxes=3))
def test_backward_search_alone_finds_solutions_only_for_solvable_levels(built, nivel):
    """SOKOBAN_KERNEL_B=2: the pull search alone.  It solves exactly the
    solvable tiny levels (its answer, pulls reversed into pushes, replays),
    and it never claims "unsolvable": an exhausted pull search gives up."""
    best = brute_force_moves(nivel)
    r = kernel_solve(nivel, {"B": "2"})
    both = kernel_solve(nivel, {"B": "1", "D": "0"})  # the portfolio from the first node
    assert r.method == both.method == "pushes (native)", r.summary()
    if best is None:
        assert r.status == "gave_up" and r.limit == "nodes", r.summary()
        assert both.status == "unsolvable", both.summary()
    else:
        assert r.status == both.status == "solved", (r.summary(), both.summary())
        assert replays(nivel, r.solution) and replays(nivel, both.solution)


# The packing search with every switch of "Issue 19: the opening of the
# packing search" (docs/solver.md) on: the opening search (POL), boxes that
# start on a goal pulled like the others (POF=0), YASS's distance term (POY)
# and cost (POG); parking (POK) off, so that the opening search runs.
PACKING_OPENING = {"PO": "2", "POL": "50", "POLP": "8", "POK": "0", "POF": "0", "POY": "2", "POG": "1"}
# The packing search with the push-by-push opening (PS, docs/solver.md "Issue
# 19: the opening at scale") as its only way out of a stuck position: parking
# and the short opening search off, no budget ratio.
PACKING_PUSHES = {"PO": "2", "PS": "300", "PSR": "1000000", "POK": "0", "POL": "0"}
# The packing search with YASS's score (docs/solver.md "Issue 19: the opening
# scored as YASS scores it"): the moved box's distance to the targets in the
# rank of its ordinary pushes (YSQ), and the push-by-push opening ranked the
# same way (YS), with phases (POO=2: several targets).
PACKING_YASS = {"PO": "2", "YSQ": "96", "YS": "1", "PS": "300", "PSR": "1000000", "POO": "2"}


@pytest.mark.parametrize("alone", [{"B": "2"}, {"PO": "2"}, {"PO": "2", "POO": "2"},
                                   {"PO": "2", "POO": "1", "POE": "2"},
                                   {"PO": "2", "POX": "1", "POA": "1", "POQ": "200", "POK": "1"},
                                   {"PO": "2", "POK": "1"}, {"FS": "2"}, PACKING_OPENING, PACKING_PUSHES, PACKING_YASS],
                         ids=["backward", "packing", "packing-phases", "packing-escape", "packing-cuts",
                              "packing-parking", "feature-space", "packing-opening", "packing-push-by-push",
                              "packing-yass-score"])
@settings(max_examples=25, deadline=None)
@given(level=generated_levels(min_size=4, max_size=9, max_boxes=5))
def test_one_search_alone_solves_generated_levels(built, alone, level):
    """The backward search alone (B=2), the packing-order search alone
    (PO=2; POO=2: its order from the start, in phases; POE: with the
    escape; POX, POA, POQ: with its dead-box cut, the ordinary pushes beside
    its macros and its clusters tested when stuck; POK: with its parking;
    PACKING_OPENING: with the opening search and YASS's score;
    PACKING_PUSHES: with the push-by-push opening; PACKING_YASS: with
    YASS's score) and the feature-space search alone (FS=2): each solves every
    generated level, and the answer replays."""
    r = kernel_solve(level, alone, time_limit=20)
    assert r.status == "solved" and r.method == "pushes (native)", r.summary()
    assert levels.lurd.solves(level, r.solution)


@settings(max_examples=60, deadline=None)
@given(tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_deadlock_rules_never_cut_a_solution(built, nivel):
    """The forward search alone (no backward search to make up for a wrong
    cut), with the corral-deadlock test on every corral of any size and a
    large sub-search: "unsolvable" exactly when the brute force finds no
    solution."""
    best = brute_force_moves(nivel)
    r = kernel_solve(nivel, {"B": "0", "CD": "5000", "CDB": "64", "LP": "1"})
    assert r.method == "pushes (native)", r.summary()
    assert r.status == ("unsolvable" if best is None else "solved"), r.summary()


def assert_agrees_with_brute_force(nivel, r):
    """The kernel's answer ``r`` is the brute force's: solved (and its
    solution replays through spec) exactly when the level has a solution."""
    best = brute_force_moves(nivel)
    assert r.status == ("unsolvable" if best is None else "solved"), r.summary()
    if best is not None:
        assert replays(nivel, r.solution)


@st.composite
def pushed_positions(draw, numbers=range(1, 41)):
    """A position k random legal pushes away from the start of a small
    Microban level: many are dead, in the ways real searches meet."""
    level = levels.load("microban")[draw(st.sampled_from(list(numbers))) - 1]
    board = Board(pieces_of(level))
    boxes, player = set(board.boxes), board.player
    for _ in range(draw(st.integers(1, 25))):
        occupied = bytearray(board.size)
        for b in boxes:
            occupied[b] = 1
        seen = board.reach(player, occupied)
        pushes = [(b, o) for b in sorted(boxes) for o in board.offsets
                  if seen[b - o] and not board.wall[b + o] and b + o not in boxes]
        if not pushes:
            break
        b, o = draw(st.sampled_from(pushes))
        boxes = boxes - {b} | {b + o}
        player = b
    return dataclasses.replace(level, boxes=frozenset(board.position(b) for b in boxes),
                               player=board.position(player))


# The dead-end patterns (SOKOBAN_KERNEL_DE: a position whose every push is
# cut, its cutting boxes proved dead alone; DEU: its ancestors then tried
# too; DEF: with the boxes around the player's region), matched against
# every expanded position too (DEN), and the capacity test (CAP: a room with
# more boxes that cannot get out than goals), the boxes outside a room kept
# up to 3 steps away (CAPR).
NEW_RULES = {"DE": "2000", "DEN": "1", "DEU": "4", "DEF": "1", "CAP": "2000", "CAPR": "3"}


@pytest.mark.parametrize("rules", [
    {"CD": "5000", "CDB": "64"},   # every corral tested, with a large sub-search
    {"LP": "1"},                   # the defaults: learned patterns
    {"DS": "4"},                   # deadlock sets of up to 4 boxes computed ahead
    NEW_RULES,                     # dead ends and rooms with boxes shut in
])
@settings(max_examples=60, deadline=None)
@given(level=pushed_positions())
def test_deadlock_rules_agree_with_the_search_without_them(built, rules, level):
    """On positions pushed at random from Microban's start positions, the
    forward search with the corral-deadlock test, the deadlock patterns it
    learns and the frozen-goals rule reaches the same verdict as without
    them, whenever the search without them decides within 200 000 nodes.
    (The rules only cut dead positions; the search without them agrees with
    the brute force above.)"""
    limits = {"node_limit": 200_000, "time_limit": None}
    without = kernel_solve(level, {"B": "0", "CD": "0", "FG": "0", "LP": "0"}, **limits)
    if without.status == "gave_up":
        return
    ruled = kernel_solve(level, {"B": "0", **rules}, **limits)
    assert ruled.status == without.status, (ruled.summary(), without.summary())
    if ruled.status == "solved":
        assert levels.lurd.solves(level, ruled.solution)


# A dead position met while searching Microban 153 (Microban, David W.
# Skinner, bundled): the boxes at the bottom of the left chamber shut the
# player out of the cells it needs to push them onto the goals; no box is
# frozen and none is on a dead square.
DEAD_153_BOXES = {(1, 8), (3, 7), (4, 7), (3, 5), (4, 5), (4, 3), (6, 4), (9, 4), (9, 6), (10, 3)}


def test_a_corral_deadlock_is_proved_at_once(built):
    level = dataclasses.replace(levels.load("microban")[152], boxes=frozenset(DEAD_153_BOXES),
                                player=(3, 1))
    r = kernel_solve(level, node_limit=50)
    assert r.status == "unsolvable", r.summary()
    r = kernel_solve(level, {"CD": "0"}, node_limit=50)
    assert r.status == "gave_up" and r.limit == "nodes", r.summary()


def test_microban_153_needs_both_deadlock_rules(built):
    """Microban 153 (the last Microban level the kernel could not solve):
    solved within 500 000 nodes with the corral-deadlock test and the
    frozen-goals rule; without either, the search is still lost in dead
    positions at that many nodes (the dead-end patterns, which build on
    the corral test's search, off both times)."""
    level = levels.load("microban")[152]
    limits = {"node_limit": 500_000, "time_limit": None}
    r = kernel_solve(level, {"DE": "0", "DEN": "0"}, **limits)
    assert r.status == "solved" and levels.lurd.solves(level, r.solution), r.summary()
    for switch in ("CD", "FG"):
        r = kernel_solve(level, {switch: "0", "DE": "0", "DEN": "0"}, **limits)
        assert r.status == "gave_up" and r.limit == "nodes", (switch, r.summary())


def test_learned_deadlock_patterns_cut_microban_153(built):
    """The barriers the corral test proves dead, kept as patterns and
    matched against every child: Microban 153 is solved within 180 000
    nodes with them (161 681), not without them (222 271), by the portfolio
    without the feature-space search (which takes turns from it: 209 735
    nodes with the patterns) and without the dead-end patterns, with one
    packing search (YSP=0: the second takes turns from the others)."""
    level = levels.load("microban")[152]
    limits = {"node_limit": 180_000, "time_limit": None}
    r = kernel_solve(level, {"LP": "1", "FS": "0", "DE": "0", "DEN": "0", "YSP": "0"}, **limits)
    assert r.status == "solved" and levels.lurd.solves(level, r.solution), r.summary()
    r = kernel_solve(level, {"LP": "0", "FS": "0", "DE": "0", "DEN": "0", "YSP": "0"}, **limits)
    assert r.status == "gave_up" and r.limit == "nodes", r.summary()


def test_dead_end_patterns_cut_microban_153(built):
    """The dead-end patterns, matched on expansion too (the defaults):
    Microban 153 is solved within 265 000 nodes with them (253 706), not
    without them (279 776), with one packing search and one feature-space
    search (YSP=0, SWA=0: the second of each takes turns there)."""
    level = levels.load("microban")[152]
    limits = {"node_limit": 265_000, "time_limit": None}
    one = {"YSP": "0", "SWA": "0"}
    r = kernel_solve(level, one, **limits)
    assert r.status == "solved" and levels.lurd.solves(level, r.solution), r.summary()
    r = kernel_solve(level, {"DE": "0", "DEN": "0", **one}, **limits)
    assert r.status == "gave_up" and r.limit == "nodes", r.summary()


@settings(max_examples=60, deadline=None)
@given(tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_learned_patterns_never_cut_a_solution(built, nivel):
    """The forward search alone with the default corral test and learned
    patterns: "unsolvable" exactly when the brute force finds no solution."""
    best = brute_force_moves(nivel)
    r = kernel_solve(nivel, {"B": "0", "LP": "1"})
    assert r.status == ("unsolvable" if best is None else "solved"), r.summary()


def deadlock_sets(built, nivel, boxes="3", kind="deadset", switches=None, nodes="1"):
    """The patterns the kernel computes ahead for the level (SOKOBAN_KERNEL_DS,
    printed by DSDUMP; kind "pullset": the backward search's, DSP=1), or
    (kind "learned", LPDUMP) learns while it searches `nodes` nodes with the
    experiment `switches`: for each, its boxes and a cell of the player's
    region."""
    env = {**os.environ, "SOKOBAN_KERNEL_DS": boxes, "SOKOBAN_KERNEL_DSDUMP": "1",
           "SOKOBAN_KERNEL_DSP": "1", "SOKOBAN_KERNEL_LPDUMP": "1",
           **{"SOKOBAN_KERNEL_" + name: value for name, value in (switches or {}).items()}}
    run = subprocess.run([str(built), "10", nodes, "200"], input=native.xsb(pieces_of(nivel)),
                         capture_output=True, text=True, env=env, check=True)
    sets = []
    for line in run.stderr.splitlines():
        words = line.split()
        if words and words[0] == kind:
            cells = [tuple(int(v) for v in w.split(",")) for w in words[1:] if w != "player"]
            sets.append((frozenset(cells[:-1]), cells[-1]))
    return sets


@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3), data=st.data())
def test_deadlock_sets_computed_ahead_are_dead(built, nivel, data):
    """Every pattern computed ahead is a proof: the level's walls and goals
    with the pattern's boxes, any other boxes wherever they fit, and the
    player in the pattern's region cannot be solved (brute force through
    spec)."""
    assert_patterns_dead(nivel, deadlock_sets(built, nivel)[:4], data)


def assert_patterns_dead(nivel, sets, data):
    """Each pattern (boxes, a cell of the player's region), with any other
    boxes drawn wherever they fit, is unsolvable by the brute force."""
    right, bottom = max(x for x, _ in nivel[PAREDES]), max(y for _, y in nivel[PAREDES])
    free = [(x, y) for x in range(1, right) for y in range(1, bottom)
            if (x, y) not in nivel[PAREDES]]
    goals = nivel[DEPOSITOS]
    for boxes, player in sets:
        if len(boxes) > len(goals):
            continue
        room = [c for c in free if c not in boxes and c != player]
        extra = data.draw(st.lists(st.sampled_from(room), min_size=len(goals) - len(boxes),
                                   max_size=len(goals) - len(boxes), unique=True))
        dead = {**nivel, PERSONAJE: frozenset({player}), CAJAS: frozenset(boxes | set(extra))}
        assert brute_force_moves(dead) is None, (sorted(boxes), player, extra)


@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3), data=st.data())
def test_dead_end_and_capacity_patterns_are_dead(built, nivel, data):
    """Every pattern the forward search alone learns with the dead-end and
    capacity rules on (its corral barriers, dead ends and rooms with boxes
    shut in) is a proof: with any other boxes and the player in its region,
    the brute force finds no solution."""
    sets = deadlock_sets(built, nivel, boxes="0", kind="learned", switches={"B": "0", **NEW_RULES},
                         nodes="5000")
    assert_patterns_dead(nivel, sets[:4], data)


@pytest.mark.parametrize("number", [98, 108, 117, 143])
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_dead_end_and_capacity_patterns_hold_on_microban(built, number, data):
    """Microban levels where the dead-end and capacity rules fire (98: 16
    rooms with boxes shut in, 14 dead ends proved, in 50 000 nodes): each
    pattern learned, with the other boxes drawn on squares that are not
    dead and the player in its region, is not solved by the forward search
    without any deadlock rule, whenever that search decides within
    100 000 nodes."""
    level = levels.load("microban")[number - 1]
    pieces = pieces_of(level)
    left = min(x for x, _ in pieces.walls | pieces.boxes | pieces.goals | {pieces.player})
    top = min(y for _, y in pieces.walls | pieces.boxes | pieces.goals | {pieces.player})
    board = Board(pieces)
    live = [board.position(c) for c in board.floor if not board.dead[c]]
    sets = deadlock_sets(built, level, boxes="0", kind="learned", switches=NEW_RULES, nodes="50000")
    assert sets, "no pattern learned"
    for cells, player in data.draw(st.lists(st.sampled_from(sets), min_size=1, max_size=3, unique=True)):
        boxes = {(x + left, y + top) for x, y in cells}
        player = (player[0] + left, player[1] + top)
        room = [c for c in live if c not in boxes and c != player]
        extra = data.draw(st.lists(st.sampled_from(room), min_size=len(pieces.goals) - len(boxes),
                                   max_size=len(pieces.goals) - len(boxes), unique=True))
        dead = dataclasses.replace(level, boxes=frozenset(boxes | set(extra)), player=player)
        r = kernel_solve(dead, {"B": "0", "CD": "0", "FG": "0", "LP": "0", "PO": "0", "FS": "0"},
                         node_limit=100_000, time_limit=None)
        assert r.status != "solved", (sorted(boxes), player, extra, r.summary())


@pytest.mark.parametrize("switches", [{"B": "0", **NEW_RULES}, {"D": "0", **NEW_RULES}],
                         ids=["forward", "portfolio"])
@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_dead_end_and_capacity_rules_never_cut_a_solution(built, switches, nivel):
    """With the dead-end and capacity rules, the forward search alone and the
    whole portfolio from the first node answer as the brute force."""
    assert_agrees_with_brute_force(nivel, kernel_solve(nivel, switches))


@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_pull_sets_computed_ahead_are_never_reached(built, nivel):
    """Every pull set (SOKOBAN_KERNEL_DSP=1: boxes that can never be pulled
    back onto the start boxes) is a proof: no position reachable from the
    start by moves through spec holds its boxes with the player in its
    region."""
    sets = []
    for boxes, player in deadlock_sets(built, nivel, kind="pullset"):
        region, todo = {player}, [player]
        while todo:
            x, y = todo.pop()
            for step in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if step not in region and step not in nivel[PAREDES] and step not in boxes:
                    region.add(step)
                    todo.append(step)
        sets.append((boxes, region))
    for j, _ in reachable_games(nivel) if sets else ():
        e = juego.estado(j)
        for boxes, region in sets:
            assert not (boxes <= e[CAJAS] and e[PERSONAJE] <= region), (sorted(boxes), e)


@pytest.mark.parametrize("switches", [{"B": "0", "DS": "4"}, {"DS": "4", "DSP": "1", "D": "0"},
                                      {"B": "2", "DS": "4", "DSP": "1"}],
                         ids=["forward", "portfolio", "backward"])
@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_deadlock_sets_never_cut_a_solution(built, switches, nivel):
    """With the deadlock sets of up to 4 boxes computed ahead, the forward
    search alone, the whole portfolio with the pull sets too, and the
    backward search alone with them answer as the brute force (the backward
    search alone never claims "unsolvable": it gives up)."""
    best = brute_force_moves(nivel)
    r = kernel_solve(nivel, switches)
    dead = "gave_up" if switches.get("B") == "2" else "unsolvable"
    assert r.status == (dead if best is None else "solved"), r.summary()
    if best is not None:
        assert replays(nivel, r.solution)


FESS_FEATURES = {"FS": "2", "FSR": "1", "FSO": "1", "FSV": "-4", "FSQ": "1", "FSM": "1"}
# The packing search alone with its dead-box cut, the ordinary pushes beside
# its macros, its clusters put through the corral test when it is stuck,
# its parking and the target's area in its rank.
PACKING_CUTS = {"PO": "2", "POX": "1", "POA": "1", "POQ": "200", "POK": "1", "POU": "2"}


@pytest.mark.parametrize("switches", [{"FS": "2"}, FESS_FEATURES, {"PO": "2"}, {"PO": "2", "POO": "1"},
                                      {"PO": "2", "POO": "2"}, {"PO": "2", "POO": "1", "POE": "2"},
                                      PACKING_CUTS, PACKING_OPENING, {**PACKING_OPENING, "POG": "0", "POY": "0"},
                                      PACKING_PUSHES, PACKING_YASS],
                         ids=["feature-space", "feature-space-all-features", "packing",
                              "packing-start-order", "packing-phases", "packing-escape", "packing-cuts",
                              "packing-opening", "packing-opening-only", "packing-push-by-push",
                              "packing-yass-score"])
@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_a_new_search_alone_agrees_with_brute_force(built, switches, nivel):
    """The feature-space search alone (SOKOBAN_KERNEL_FS=2: one queue per
    cell of features, visited in turn; also with its room-connectivity and
    out-of-plan features, cells weighted by packing and regions, the cheap
    region count and the packing search's box-path macros as children) and
    the packing-order search alone (PO=2, below; with the order from the
    start, POO=1, in phases, POO=2, with the escape to lower counts, POE,
    with its cuts, parking and target area, POX, POA, POQ, POK, POU, and
    with the opening search, its start-on-goal order and YASS's score terms,
    PACKING_OPENING, with the push-by-push opening, PACKING_PUSHES, and
    with YASS's score, PACKING_YASS) change the
    order, not what is searched: "unsolvable"
    exactly when the brute force finds no solution (the packing search's
    macros prove nothing: it is rerun without them first), and every answer
    replays through spec."""
    r = kernel_solve(nivel, switches)
    assert r.method == "pushes (native)", r.summary()
    assert_agrees_with_brute_force(nivel, r)


@pytest.mark.parametrize("extra", [{}, {"SWA": "4", "FSO": "1"}], ids=["plain", "second-with-box-paths"])
@settings(max_examples=40, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_feature_space_search_in_the_portfolio_agrees_with_brute_force(built, extra, nivel):
    """SOKOBAN_KERNEL_FS=1 with every member from the first node (D, FSD = 0):
    the portfolio with the feature-space search and its meetings with the
    backward search still answers exactly as the brute force; also with the
    second feature-space search that takes the packing search's box-path
    macros as children (SWA; FSO=1 gives the tiny levels, which have no
    goal room, the packing order it needs)."""
    assert_agrees_with_brute_force(nivel, kernel_solve(nivel, {"FS": "1", "D": "0", "FSD": "0", **extra}))


@settings(max_examples=25, deadline=None)
@given(level=generated_levels(min_size=4, max_size=9, max_boxes=5))
def test_cheap_region_count_gives_the_same_search(built, level):
    """SOKOBAN_KERNEL_FSQ: the feature-space search counts a child's player
    regions from its parent's (1) or floods them (0): the same counts, so
    the same cells, nodes and answer, with or without the other features."""
    for features in ({}, {"FSR": "1", "FSO": "1", "FSV": "-4"}):
        flood, quick = (kernel_solve(level, {"FS": "2", "FSQ": q, **features}, node_limit=20_000,
                                     time_limit=None) for q in ("0", "1"))
        assert flood.status == "solved", flood.summary()
        assert (quick.status, quick.nodes, quick.solution) == (flood.status, flood.nodes, flood.solution)


def test_microban_levels_and_the_engine_variable(built, monkeypatch):
    microban = levels.load("microban")
    for number in (1, 60, 100, 155):
        r = solve(microban[number - 1], method="pushes", time_limit=30)
        assert r.status == "solved" and r.method == "pushes (native)", r.summary()
    monkeypatch.setenv("SOKOBAN_SOLVER", "python")
    assert solve(microban[0], method="pushes").method == "pushes"
    with pytest.raises(ValueError):
        solve(microban[0], engine="fortran")


def test_no_compiler_falls_back_to_python_with_a_note(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    r = solve(CORRIDOR, method="pushes", engine="native")
    assert r.status == "solved" and r.method == "pushes"
    assert any("g++ not found" in n for n in r.notes), r.notes
    assert "\n" not in r.summary()


def _fake_kernel(tmp_path, monkeypatch, script):
    fake = tmp_path / "kernel"
    fake.write_text("#!/bin/sh\ncat > /dev/null\n" + script + "\n")
    fake.chmod(0o755)
    monkeypatch.setattr(native, "kernel", lambda: (fake, None))


@pytest.mark.parametrize("script, why", [
    ("echo garbage here", "garbage"),
    ("kill -SEGV $$", "signal 11"),
    ("echo 'error level too large for the kernel'; exit 2", "too large"),
])
def test_crash_or_garbage_falls_back_with_a_note(tmp_path, monkeypatch, script, why):
    _fake_kernel(tmp_path, monkeypatch, script)
    r = solve(CORRIDOR, method="pushes")
    assert r.status == "solved" and r.method == "pushes"
    assert any("native kernel failed" in n and why in n for n in r.notes), r.notes


@pytest.mark.parametrize("prlimit", [True, False] if native.PRLIMIT else [False])
def test_the_kernel_runs_under_its_address_space_limit(tmp_path, monkeypatch, prlimit):
    """The kernel's process has the memory cap plus the headroom as its
    address-space limit, set on the started process (``prlimit``) or in the
    child before it starts (the hook)."""
    monkeypatch.setattr(native, "PRLIMIT", prlimit)
    _fake_kernel(tmp_path, monkeypatch, 'echo "error limit $(ulimit -v) KB"; exit 2')
    r = solve(CORRIDOR, method="pushes")
    kb = (native.MEMORY_MB + native.HEADROOM_MB) * 1024
    assert any(f"native kernel failed (limit {kb} KB)" in n for n in r.notes), r.notes


def test_a_wrong_answer_is_never_returned(tmp_path, monkeypatch):
    _fake_kernel(tmp_path, monkeypatch, "echo solved 3 LLL")
    with pytest.raises(SolverBug):
        solve(CORRIDOR, method="pushes")


def test_concurrent_first_builds_share_one_kernel_with_the_umask(built, tmp_path):
    """Two processes building at once into an empty cache: both get the same
    executable, its mode follows the umask, no temporary file is left."""
    code = ("import os; os.umask(0o027); from impl.solver import native; "
            "p, note = native.kernel(); print(p, note)")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, text=True,
                              stdout=subprocess.PIPE) for _ in range(2)]
    outs = [p.communicate(timeout=300)[0].split() for p in procs]
    assert outs[0] == outs[1] and outs[0][1] == "None", outs
    path = outs[0][0]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o750
    where = tmp_path / "sokoban-tad" / "solver"
    assert sorted(p.name for p in where.iterdir() if not p.name.endswith(".lock")) == [
        os.path.basename(path)]


def test_building_the_kernel_is_not_counted_in_the_time_limit(built, monkeypatch):
    """The first solve builds the kernel (seconds of g++): that time is not
    the search's, and the result says it was spent."""
    import time

    def slow_build():
        time.sleep(1.0)
        return built, None
    monkeypatch.setattr(native, "kernel", slow_build)
    r = solve(levels.load("microban")[99], method="pushes", time_limit=0.8)
    assert r.status == "solved" and r.method == "pushes (native)", r.summary()
    assert r.time < 0.8
    assert any(n.startswith("built the native kernel with g++ in 1.") for n in r.notes), r.notes


def test_a_native_search_reports_its_progress_while_it_runs(built, monkeypatch):
    """The kernel writes a progress line (nodes, depth, elapsed, frontier)
    once an interval (here 0: after each turn of 512 nodes); ``solve`` gives
    each to the progress callback as it arrives, before the answer."""
    import impl.solver.search as search
    monkeypatch.setattr(search, "PROGRESS_INTERVAL", 0.0)
    reports = []
    r = solve(levels.load("microban")[152], method="pushes", engine="native",
              node_limit=20_000, time_limit=None, progress=reports.append)
    assert r.method == "pushes (native)" and r.status == "gave_up", r.summary()
    assert len(reports) >= 20_000 // 512 - 1, reports[:3]
    nodes = [x["nodes"] for x in reports]
    assert nodes == sorted(set(nodes)) and 0 < nodes[-1] <= r.nodes
    assert all(x["elapsed"] >= 0 and x["frontier"] > 0 for x in reports), reports[:3]
    depths = [x["depth"] for x in reports]
    assert depths == sorted(depths) and depths[-1] > 10


def test_without_a_callback_the_kernel_is_not_asked_for_progress(tmp_path, monkeypatch):
    """No callback: the kernel gets no progress argument.  Its stray stderr
    still makes the failure note, progress lines left out of it."""
    _fake_kernel(tmp_path, monkeypatch,
                 f'echo "$#" > {tmp_path / "args"}; '
                 'echo "progress 512 3 0.1 7" >&2; echo "oops" >&2; exit 1')
    r = solve(CORRIDOR, method="pushes")
    assert (tmp_path / "args").read_text().split() == ["3"]
    assert r.status == "solved" and r.method == "pushes", r.summary()
    assert any("native kernel failed" in n and "oops" in n for n in r.notes), r.notes
    assert not any("progress" in n for n in r.notes), r.notes


def test_progress_lines_reach_the_callback_and_malformed_ones_do_not(tmp_path, monkeypatch):
    _fake_kernel(tmp_path, monkeypatch,
                 f'echo "$#" > {tmp_path / "args"}; '
                 'echo "progress 512 3 0.1 7" >&2; echo "progress x 1 2 3" >&2; '
                 'printf "progress 1024 5 0.2 9" >&2; echo solved 3 RRR')
    reports = []
    r = solve(CORRIDOR, method="pushes", progress=reports.append)
    assert (tmp_path / "args").read_text().split() == ["4"]
    assert r.status == "solved" and r.method == "pushes (native)", r.summary()
    assert [(x["nodes"], x["depth"], x["frontier"]) for x in reports] == [(512, 3, 7)]


def test_a_progress_callback_that_raises_stops_the_kernel(built, monkeypatch):
    """An exception from the callback (say, an interrupt) leaves no kernel
    running on: it is killed before the exception goes on."""
    import impl.solver.search as search
    monkeypatch.setattr(search, "PROGRESS_INTERVAL", 0.0)
    started = []

    def watch(popen):
        def spy(*args, **kwargs):
            started.append(popen(*args, **kwargs))
            return started[-1]
        return spy
    monkeypatch.setattr(native.subprocess, "Popen", watch(subprocess.Popen))

    def stop(info):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        solve(levels.load("microban")[152], method="pushes", engine="native",
              time_limit=None, progress=stop)
    assert len(started) == 1 and started[0].returncode == -signal.SIGKILL


def test_the_experiment_switches_reach_the_kernel_only_when_asked():
    """A stray SOKOBAN_KERNEL_* in a user's environment never reaches the
    kernel; SOKOBAN_KERNEL_EXPERIMENTS=1 (benchmarks, tests) lets them through."""
    user = {"PATH": "/bin", "SOKOBAN_KERNEL_B": "2", "SOKOBAN_KERNEL_STAT": "1"}
    assert native.kernel_environment(user) == {"PATH": "/bin"}
    asked = {**user, native.EXPERIMENTS: "1"}
    assert native.kernel_environment(asked) == asked


# The packing-order search (SOKOBAN_KERNEL_PO): box-path macros to the next
# goal of the packing order, ordinary pushes only when no box has a path.
# Alone (PO=2) it runs on any level (with a packing order of every goal);
# macros prove nothing, so an exhausted packing search is run again without
# macros before "unsolvable".

def test_packing_search_fills_microban_153s_goal_room(built):
    """Microban 153 has a goal room: the packing search alone solves it
    within 60 000 nodes (44 645), the default search does not (161 681);
    in the portfolio (PO=1) it is solved too, and every answer replays."""
    level = levels.load("microban")[152]
    limits = {"node_limit": 60_000, "time_limit": None}
    r = kernel_solve(level, {"PO": "2"}, **limits)
    assert r.status == "solved" and levels.lurd.solves(level, r.solution), r.summary()
    r = kernel_solve(level, {"PO": "0"}, **limits)
    assert r.status == "gave_up" and r.limit == "nodes", r.summary()
    r = kernel_solve(level, {"PO": "1"}, node_limit=400_000, time_limit=None)
    assert r.status == "solved" and levels.lurd.solves(level, r.solution), r.summary()


def test_packing_search_without_a_goal_room_leaves_the_portfolio_alone(built):
    """PO=1 adds the packing search only on levels with a goal room (a block
    of at least 6 goals): elsewhere the search and its node count are the
    default's."""
    level = levels.load("microban")[59]
    a = kernel_solve(level, {"PO": "1"}, time_limit=None, node_limit=100_000)
    b = kernel_solve(level, {"PO": "0"}, time_limit=None, node_limit=100_000)
    assert a.status == b.status == "solved" and (a.nodes, a.solution) == (b.nodes, b.solution)



def packing_cuts(built, nivel, switches=(), nodes="2000"):
    """The positions the packing search alone drops with its dead-box cut
    (SOKOBAN_KERNEL_POX=1, printed by POXDUMP; more switches as (name,
    value) pairs): for each, its boxes not packed, its packed boxes (the
    filled start of the packing order) and the player's cell."""
    env = {**os.environ, "SOKOBAN_KERNEL_PO": "2", "SOKOBAN_KERNEL_POX": "1", "SOKOBAN_KERNEL_POXDUMP": "1",
           **{"SOKOBAN_KERNEL_" + k: v for k, v in switches}}
    run = subprocess.run([str(built), "10", nodes, "200"], input=native.xsb(pieces_of(nivel)),
                         capture_output=True, text=True, env=env, check=True)
    cuts = []
    for line in run.stderr.splitlines():
        words = line.split()
        if words and words[0] == "podead":
            i, j = words.index("packed"), words.index("player")
            cell = lambda w: tuple(int(v) for v in w.split(","))  # noqa: E731
            cuts.append((frozenset(map(cell, words[1:i])), frozenset(map(cell, words[i + 1:j])),
                         cell(words[j + 1])))
    return cuts


# XSokoban 19's first box in small: from the player's pocket the box can
# only be pushed down; pushed right, the player can never get above it again.
POCKET = drawn("#########",
               "###  @###",
               "#### $  #",
               "#   #   #",
               "#    .  #",
               "#########")


@pytest.mark.parametrize("switches", [(), (("POA", "1"),)], ids=["stuck-pushes", "all-pushes"])
@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_packing_dead_box_cut_drops_only_dead_positions(built, switches, nivel):
    """Every position the packing search's dead-box cut drops (POX=1; with
    the ordinary pushes only when no box has a path, or always, POA=1) is
    one no line of the packing search can finish: with its packed boxes
    turned into walls (the packing search never moves them again) and their
    goals gone, the other boxes cannot be pushed onto the other goals (brute
    force through spec)."""
    for boxes, packed, player in packing_cuts(built, nivel, switches)[:4]:
        rest = {**nivel, PAREDES: nivel[PAREDES] | packed, DEPOSITOS: nivel[DEPOSITOS] - packed,
                CAJAS: boxes, PERSONAJE: frozenset({player})}
        assert brute_force_moves(rest) is None, (sorted(boxes), sorted(packed), player)


def test_packing_dead_box_cut_drops_the_pocket_push(built):
    """On the pocket level the push to the right leaves the box where the
    player can no longer get above it: with the ordinary pushes beside the
    macros (POA=1) the cut drops that child, which no other deadlock rule of
    the kernel sees (a lone box there can still be pushed onto the goal, by a
    player on the other side), and the level is still solved, with the cut
    and with both switches."""
    assert (frozenset({(6, 2)}), frozenset(), (5, 2)) in packing_cuts(built, POCKET, (("POA", "1"),))
    for switches in ({"PO": "2", "POX": "1"}, {"PO": "2", "POX": "1", "POA": "1"}, {"POX": "1", "POA": "1"}):
        r = kernel_solve(POCKET, switches)
        assert r.status == "solved" and replays(POCKET, r.solution), r.summary()


@pytest.mark.parametrize("switches", [(), (("POA", "1"),)], ids=["stuck-pushes", "all-pushes"])
def test_packing_dead_box_cut_on_microban_drops_only_dead_positions(built, switches):
    """The same on Microban's first 30 levels, where the cut fires (tiny
    random levels rarely reach it): the cuts that leave at most 2 boxes not
    packed (up to 3 a level; at least 20 in all) are unsolvable with the
    packed boxes as walls (brute force through spec)."""
    checked = 0
    for level in levels.load("microban")[:30]:
        nivel = level.to_nivel()
        cuts = [c for c in packing_cuts(built, nivel, switches) if len(c[0]) <= 2][:3]
        for boxes, packed, player in cuts:
            rest = {**nivel, PAREDES: nivel[PAREDES] | packed, DEPOSITOS: nivel[DEPOSITOS] - packed,
                    CAJAS: boxes, PERSONAJE: frozenset({player})}
            assert brute_force_moves(rest) is None, (level, sorted(boxes), sorted(packed), player)
            checked += 1
    assert checked >= 20, checked


def microban_statistics(built, switches):
    """The kernel with ``switches`` (and SOKOBAN_KERNEL_STAT=1) on each of
    Microban's first 40 levels: each is solved and its answer replays; the
    statistics (stderr) of each run, in order."""
    env = {**os.environ, **{"SOKOBAN_KERNEL_" + k: v for k, v in switches.items()}, "SOKOBAN_KERNEL_STAT": "1"}
    stats = []
    for level in levels.load("microban")[:40]:
        run = subprocess.run([str(built), "20", "20000", "500"], input=native.xsb(pieces_of(level.to_nivel())),
                             capture_output=True, text=True, env=env, check=True)
        words = run.stdout.split()
        assert words[0] == "solved", (level, run.stdout)
        assert levels.lurd.solves(level, words[2] if len(words) > 2 else ""), level
        stats.append(run.stderr)
    return stats


def test_packing_search_parks_blockers_on_microban(built):
    """SOKOBAN_KERNEL_POK=1: when no box has a path to the target, the
    boxes that block one are parked by a macro where they open its path.
    The packing search alone with it solves each of Microban's first 40
    levels (every answer replays), and it parks on at least 10 of them."""
    stats = microban_statistics(built, {"PO": "2", "POK": "1"})
    parked = sum(int(err.split("parked ")[1].split()[0]) > 0 for err in stats)
    assert parked >= 10, parked


def test_packing_search_follows_push_by_push_plans_on_microban(built):
    """SOKOBAN_KERNEL_PS: when no box has a path to the target and neither
    parking nor the short opening search is on, a push-by-push search finds
    a line of pushes after which a box has one, and the packing search
    follows it.  Alone with it (PACKING_PUSHES) the packing search solves
    each of Microban's first 40 levels (every answer replays), and finds
    such a line on at least 10 of them."""
    stats = microban_statistics(built, PACKING_PUSHES)
    planned = sum(int(err.split("push-by-push openings searched ")[1].split()[2].rstrip(",")) > 0 for err in stats)
    assert planned >= 10, planned


def test_packing_search_with_yass_score_solves_microban(built):
    """SOKOBAN_KERNEL_YSQ: the packing search ranks the ordinary pushes of
    a stuck position by the moved box's distance to its targets (the packed
    boxes walls), as YASS does.  Alone with it, and with the push-by-push
    opening ranked the same way (YS), the packing search solves each of
    Microban's first 40 levels (every answer replays) and the opening finds
    a line on at least 5 of them."""
    stats = microban_statistics(built, {**PACKING_YASS, "POK": "0", "POL": "0"})
    planned = sum(int(err.split("push-by-push openings searched ")[1].split()[2].rstrip(",")) > 0 for err in stats)
    assert planned >= 5, planned
    assert all("YASS's score (YS): distance tables" in err for err in stats)


def packing_expansions(built, level, switches, nodes):
    """The kernel's answer (stdout words) and its packing searches'
    expansions (SOKOBAN_KERNEL_STAT=1) on ``level`` with ``switches``."""
    env = {**os.environ, **{"SOKOBAN_KERNEL_" + k: v for k, v in switches.items()}, "SOKOBAN_KERNEL_STAT": "1"}
    run = subprocess.run([str(built), "60", str(nodes), "1000"], input=native.xsb(pieces_of(level.to_nivel())),
                         capture_output=True, text=True, env=env, check=True)
    expanded = [int(line.split("packing search expanded ")[1].split(",")[0])
                for line in run.stderr.splitlines() if "packing search expanded " in line]
    return run.stdout.split(), sum(expanded)


def test_second_packing_search_takes_turns_beside_the_first(built):
    """SOKOBAN_KERNEL_YSP=n adds a second packing-order search to the
    portfolio, ranked with YASS's moved-box term at weight n (YSQ's), beside
    the first: on Microban 153 (a goal room, stuck packing positions) the
    packing searches expand about twice as many positions in the same
    nodes, and both ways the answer is solved and replays (SWA=0: the
    second feature-space search's box paths are counted there too).  On tiny levels
    the weight's ranking is checked against the brute force above
    (PACKING_YASS: YSQ=96)."""
    level = levels.load("microban")[152]
    one, alone = packing_expansions(built, level, {"YSQ": "0", "YSP": "0", "SWA": "0"}, 400_000)
    two, both = packing_expansions(built, level, {"YSQ": "0", "YSP": "96", "SWA": "0"}, 400_000)
    for words in (one, two):
        assert words[0] == "solved" and levels.lurd.solves(level, words[2]), words[:2]
    assert both > 1.5 * alone > 0, (alone, both)


# The packing search's filter before each box path (a pull search from the
# target must reach the box) answered box after box from one pull area per
# target (PullFilter, SOKOBAN_KERNEL_CHF=1, the default) instead of one
# pullArea per box (CHF=0); CHF=2 computes both and stops the kernel with an
# error line when they differ (solve then notes a kernel failure).

@settings(max_examples=40, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_pull_filter_answers_as_pull_area_box_by_box_on_tiny_levels(built, nivel):
    """The packing search alone with the opening search (the filter's
    heaviest user), checked against pullArea at every call: the kernel
    answers (no disagreement) and agrees with the brute force."""
    r = kernel_solve(nivel, {**PACKING_OPENING, "CHF": "2"})
    assert r.method == "pushes (native)", r.summary()
    assert_agrees_with_brute_force(nivel, r)


@settings(max_examples=15, deadline=None)
@given(level=generated_levels(min_size=5, max_size=9, max_boxes=5))
def test_pull_filter_gives_the_same_search_on_generated_levels(built, level):
    """The same nodes and the same solution with the filter (CHF=1), with
    pullArea box by box (CHF=0) and with both checked against each other."""
    runs = [kernel_solve(level, {"PO": "2", "POL": "50", "CHF": chf}, node_limit=20_000, time_limit=None)
            for chf in ("0", "1", "2")]
    assert all(r.method == "pushes (native)" for r in runs), [r.summary() for r in runs]
    assert len({(r.status, r.nodes, r.solution) for r in runs}) == 1, [r.summary() for r in runs]


def test_pull_filter_gives_the_same_search_on_microban_153(built):
    """Microban 153's packing search is stuck for thousands of expansions
    (every one an opening search): 60 000 nodes of the portfolio give the
    same answer and nodes with the filter, without it and checked."""
    level = levels.load("microban")[152]
    runs = [kernel_solve(level, {"CHF": chf}, node_limit=60_000, time_limit=None) for chf in ("0", "1", "2")]
    assert all(r.method == "pushes (native)" for r in runs), [r.summary() for r in runs]
    assert len({(r.status, r.limit, r.nodes) for r in runs}) == 1, [r.summary() for r in runs]


# The packing search with its proofs (SOKOBAN_KERNEL_RMP): every position it
# expands goes to a plain search of up to 300 nodes (RMPE=1), and the
# ancestors of a position proved dead are tried too.
PACKING_PROOFS = {"RMP": "300", "RMPE": "1", "RMPU": "8"}


def proved_dead(built, nivel, switches=(), nodes="3000"):
    """The positions the packing search alone calls dead with its proofs
    (PACKING_PROOFS, printed by RMPDUMP; more switches as (name, value)
    pairs), each as a level (the player on a cell of its region)."""
    env = {**os.environ, "SOKOBAN_KERNEL_PO": "2", "SOKOBAN_KERNEL_RMPDUMP": "1",
           **{"SOKOBAN_KERNEL_" + k: v for k, v in PACKING_PROOFS.items()},
           **{"SOKOBAN_KERNEL_" + k: v for k, v in switches}}
    run = subprocess.run([str(built), "20", nodes, "500"], input=native.xsb(pieces_of(nivel)),
                         capture_output=True, text=True, env=env, check=True)
    return [drawn(*[row for row in block.splitlines()[1:] if row])
            for block in run.stderr.split("; dump ")[1:]]


@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_packing_proofs_call_only_dead_positions_dead(built, nivel):
    """Every position the packing search's proofs call dead (a plain search
    from it, without macros, exhausted) is unsolvable by the brute force
    through spec."""
    for dead in proved_dead(built, nivel)[:4]:
        assert brute_force_moves(dead) is None, dead


@pytest.mark.parametrize("switches", [{"PO": "2", "RMO": "1", **PACKING_PROOFS}, {"D": "0", **PACKING_PROOFS}],
                         ids=["alone", "portfolio"])
@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_packing_proofs_agree_with_brute_force(built, switches, nivel):
    """The packing search with its proofs, alone (with the feasible first
    phase, RMO=1) and in the portfolio from the first node: the positions below a node proved dead are dropped, and
    a proof that solves its position finishes the packing search's line:
    "unsolvable" exactly when the brute force finds no solution, and every
    answer (the line and the proof's pushes) replays through spec."""
    r = kernel_solve(nivel, switches)
    assert r.method == "pushes (native)", r.summary()
    assert_agrees_with_brute_force(nivel, r)


def test_packing_proofs_on_microban_are_proofs(built):
    """On Microban (155 levels, 4 000 nodes of the packing search alone each)
    the proofs fire on larger positions than the brute force can check: each
    position they call dead (up to 2 a level; at least 20 in all, from 18
    levels) is unsolvable for the kernel's default search too, without the
    packing search."""
    checked = 0
    for level in levels.load("microban"):
        for dead in proved_dead(built, level.to_nivel(), nodes="4000")[:2]:
            r = kernel_solve(dead, {"PO": "0"}, node_limit=200000)
            assert r.status == "unsolvable", (level, r.summary())
            checked += 1
    assert checked >= 20, checked


# A box starts on the goal in front of the other: packed first, it walls
# that goal off.
WALLED = drawn("########",
               "#.*  $@#",
               "#      #",
               "########")


def test_a_first_phase_that_walls_goals_off_is_not_first(built):
    """SOKOBAN_KERNEL_RMO=1: the box that starts on a goal is the first
    phase of the order from the start only when the other goals can still be
    filled with it packed. On WALLED it cannot (the goal behind it), so the
    order begins with the goal behind it, as with POF=0; without RMO it
    begins with the box's own goal; the packing search alone solves the
    level both ways."""
    def order(switches):
        env = {**os.environ, "SOKOBAN_KERNEL_PO": "2", "SOKOBAN_KERNEL_STAT": "1",
               **{"SOKOBAN_KERNEL_" + k: v for k, v in switches.items()}}
        run = subprocess.run([str(built), "10", "2000", "200"], input=native.xsb(pieces_of(WALLED)),
                             capture_output=True, text=True, env=env, check=True)
        assert run.stdout.startswith("solved"), run.stdout
        line = next(x for x in run.stderr.splitlines() if "packing order from the start" in x)
        return line.split(": ")[-1].split()
    behind, own = order({"POF": "0"})
    assert order({}) == [own, behind]
    assert order({"RMO": "1"}) == [behind, own]


# The packing search learning from its deep failures: when its highest count
# of goals filled in order runs dry, the positions it expanded last there are
# taken apart (SOKOBAN_KERNEL_DL: groups of their boxes not packed through the
# corral test's push search, each group proved dead learned as a pattern) and
# their lines proved dead as far up as a plain search can (DLP: the highest
# position proved marked, the positions queued below it dropped).  Small
# budgets, and the proofs never held back (DLPR), so they fire on tiny levels.
DEEP_FAILURES = {"PO": "2", "DL": "300", "DLB": "3", "DLP": "300", "DLPR": "100"}


@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3), data=st.data())
def test_deep_failure_groups_are_dead(built, nivel, data):
    """Every group of boxes the packing search proves dead where a count ran
    dry (printed by DLDUMP, with the player's cell) is a proof: with any other
    boxes and the player there, the brute force finds no solution."""
    sets = deadlock_sets(built, nivel, boxes="0", kind="dldead", switches={**DEEP_FAILURES, "DLDUMP": "1"},
                         nodes="3000")
    assert_patterns_dead(nivel, sets[:4], data)


@settings(max_examples=60, deadline=None)
@given(tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_deep_failure_proofs_call_only_dead_positions_dead(built, nivel):
    """Every position the proofs up a dry line call dead (DLP alone, without
    the packing search's other proofs) is unsolvable by the brute force."""
    switches = [("RMP", "0"), *DEEP_FAILURES.items()]
    for dead in proved_dead(built, nivel, switches)[:4]:
        assert brute_force_moves(dead) is None, dead


@pytest.mark.parametrize("switches", [DEEP_FAILURES, {**DEEP_FAILURES, "PO": "1", "D": "0"}],
                         ids=["alone", "portfolio"])
@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_deep_failures_agree_with_brute_force(built, switches, nivel):
    """The packing search learning from its deep failures, alone and in the
    portfolio from the first node: the positions below a line proved dead are
    dropped and a proof that solves its position finishes the line, so
    "unsolvable" exactly when the brute force finds no solution, and every
    answer replays through spec."""
    r = kernel_solve(nivel, switches)
    assert r.method == "pushes (native)", r.summary()
    assert_agrees_with_brute_force(nivel, r)


def test_deep_failures_on_microban_are_proofs(built):
    """On Microban (155 levels, 4 000 nodes of the packing search alone each)
    the counts run dry on larger positions than the brute force can check:
    each position the proofs call dead (up to 2 a level; at least 20 in all)
    is unsolvable for the kernel's default search, without the packing
    search; groups of boxes are proved dead there too (at least 5 in all;
    each such group is checked against the brute force on tiny levels,
    above)."""
    positions = groups = 0
    for level in levels.load("microban"):
        nivel = level.to_nivel()
        for dead in proved_dead(built, nivel, [("RMP", "0"), *DEEP_FAILURES.items()], nodes="4000")[:2]:
            r = kernel_solve(dead, {"PO": "0"}, node_limit=200000)
            assert r.status == "unsolvable", (level, r.summary())
            positions += 1
        # (ranked without YASS's moved-box term, YSQ=0, as when this count
        # was measured: with it the packing search meets 4 groups there)
        groups += len(deadlock_sets(built, nivel, boxes="0", kind="dldead",
                                    switches={**DEEP_FAILURES, "DLDUMP": "1", "YSQ": "0"}, nodes="4000"))
    assert positions >= 20 and groups >= 5, (positions, groups)
