"""Profile extendido's fixed scenarios (seed 001: bombs, undo, sequences of
levels); profile aed2 plays them too."""

from __future__ import annotations

from conformance.machines.profile import CROSS, CROSS_GOALS, FOUR_PUSHES, OPEN, game, scenario

SCENARIOS = (
    scenario("ext.start", "every kind of cell, bombs, off the origin", [
        "#  $ ",
        " @ *.",
        "  #  "], origin=OPEN, bombs=2),
    scenario("ext.walls", "a far walk off the level and back", [
        "#$.",
        "@  "], "l" * 14 + "r" * 14),
    scenario("ext.walls", "walk along walls", [
        "#####",
        "#@  #",
        "# # #",
        "#$. #",
        "#####"], "rrddlu"),
    scenario("ext.depots", "the character and a box on depots and off them", [
        "+.$ ",
        "   $"], "rrrdll"),
    scenario("ext.step", "a step each way, with bombs left", ["@ $."], "urdlld", origin=OPEN, bombs=1),
    scenario("ext.push", "a push each way from depot to depot", CROSS_GOALS, FOUR_PUSHES),
    scenario("ext.push", "a box pushed into the cell a push left behind", [
        "      ",
        "@$    ",
        "      ",
        ".     "], "rurrdllll"),
    scenario("ext.can-move", "next to boxes against boxes and against walls", [
        "@$$ ",
        "$#  ",
        "*   ",
        ".. ."], "rdu"),
    scenario("ext.won", "won by the last push, one box already on a depot", [
        "@$. ",
        " *  "], "r"),
    game("ext.advance", "three levels won in turn, an undo after each advance", [
        ["@$."],
        ["@ $.", "#   "],
        ["@$.#"]], "rzrrzr", bombs=(1, 0, 1)),
    scenario("ext.bomb", "a bomb clears the character's row and column", [
        "  #  ",
        "# @ #",
        " $#. ",
        "  #  "], "b", bombs=1),
    scenario("ext.bomb", "a bomb inside a ring of walls", [
        "###",
        "#@#",
        "#$#",
        "#.#",
        "###"], "b", bombs=2),
    scenario("ext.bomb", "bombs just left of the walls, far left, and above them", [
        " ###",
        "@#$.",
        " ###"], "blllllubrrrrrrdb", bombs=3),
    scenario("ext.bomb-count", "bombs one after the other", [
        "#@#",
        "#$#",
        "#.#"], "bb", bombs=3),
    scenario("ext.undo", "undo a push, a bomb, a step", [
        "# # ",
        "@$ .",
        "  # "], "rzbzdrzz", bombs=1),
    scenario("ext.undo", "a long history undone past its start", [
        "@ $.",
        "    "], "rrrrlllldddduuuu" + "z" * 17),
    scenario("ext.undo", "two bombs on one cell, each undone", [
        "#@#",
        "#$#",
        "#.#"], "bbzz", bombs=2),
    scenario("ext.undo", "undo a push off a depot and a bomb in a row", [
        "@*  ",
        " #  ",
        "    "], "rbrzzz", bombs=1),
    scenario("ext.undo-empty", "undo with nothing to undo", ["@$."], "zzrz"),
)
