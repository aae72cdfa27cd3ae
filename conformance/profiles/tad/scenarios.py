"""Profile tad's fixed scenarios (seed 000: levels anywhere on the infinite grid)."""

from __future__ import annotations

from conformance.machines.profile import CROSS, CROSS_GOALS, FOUR_PUSHES, OPEN, scenario

SCENARIOS = (
    scenario("tad.start", "every kind of cell, off the origin", [
        "#  $ ",
        " @ *.",
        "  #  "], origin=OPEN),
    scenario("tad.start", "the character on a depot", [
        "+$  ",
        "  # "], origin=(2, 5)),
    scenario("tad.walls", "walk along walls", [
        "#####",
        "#@  #",
        "# # #",
        "#   #",
        "#####"], "rrddllluu"),
    scenario("tad.depots", "the character steps onto depots and off them", [
        "+.$ ",
        "   $"], "rrdlll", origin=OPEN),
    scenario("tad.depots", "a box pushed onto a depot and off it", [
        "@$.  ",
        "   $.",
        "     "], "rr"),
    scenario("tad.step", "a step each way on the open plane", ["@ $."], "urdllldr", origin=OPEN),
    scenario("tad.step", "far from everything, then back", ["@$."], "llllllllrrrrrrrr"),
    scenario("tad.wall-stops", "walls on every side", [
        " # ",
        "#@#",
        " # ",
        "$. "], "udlr"),
    scenario("tad.push", "a push each way from depot to depot", CROSS_GOALS, FOUR_PUSHES,
       origin=OPEN),
    scenario("tad.push", "from a depot, onto a depot, then off it", [
        "+$. ",
        "  $ "], "rrr"),
    scenario("tad.push", "a box pushed into the cell a push left behind", [
        "      ",
        "@$    ",
        "      ",
        ".     "], "rurrdllll"),
    scenario("tad.push-blocked", "a box against a wall, each way", [
        "  #  ",
        "  $  ",
        "#$@$#",
        "  $  ",
        "  #  ",
        "...."], "udlr"),
    scenario("tad.push-blocked", "against two boxes, some on depots", [
        "@$* ",
        " *$ ",
        "..  "], "rdr"),
    scenario("tad.push-blocked", "a box against a box, each way", [
        "  $  ",
        "  $  ",
        "$$@$$",
        "  $  ",
        "  $  ",
        ".....",
        "...  "], "udlr", origin=OPEN),
    scenario("tad.won", "completed by the last push, then not", [
        "@$. ",
        " *  "], "rr"),
)
