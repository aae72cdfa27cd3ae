"""Profile soko's fixed scenarios (seed 002's grids): the rows are exactly
those given to ``crear_grilla``."""

from __future__ import annotations

from conformance.machines.profile import CROSS, CROSS_GOALS, FOUR_PUSHES, scenario

SCENARIOS = (
    scenario("soko.read", "every character, the player on floor", [
        "########",
        "#@ $*. #",
        "# #  $ #",
        "########"]),
    scenario("soko.read", "the player on a goal, a box on a goal", [
        "#######",
        "#+$   #",
        "# *   #",
        "#######"]),
    scenario("soko.size", "a grid wider than tall, padded with spaces", [
        "#####   ",
        "#@$.#   ",
        "#####   "]),
    scenario("soko.size", "a grid taller than wide", [
        "###",
        "#@#",
        "# #",
        "#$#",
        "#.#",
        "# #",
        "###"], "dd"),
    scenario("soko.walls", "walk along inner walls", [
        "#######",
        "#@  # #",
        "# # # #",
        "#   $.#",
        "#######"], "rrdddllluu"),
    scenario("soko.goals", "the player steps onto goals and off them", [
        "#######",
        "#+.  .#",
        "# $$$ #",
        "#######"], "rrrrrllll"),
    scenario("soko.goals", "a box pushed from goal to goal, off goals and onto one", [
        "########",
        "#@*.  .#",
        "# $ $  #",
        "########"], "rrrr"),
    scenario("soko.step", "a step each way on floor", [
        "######",
        "#    #",
        "# @  #",
        "#    #",
        "#$. ##",
        "######"], "urdlldru"),
    scenario("soko.step", "steps onto goals and off them, each way", [
        "#######",
        "#  .  #",
        "# .@. #",
        "#  .  #",
        "#$$$$ #",
        "#######"], "udduudlrrlrl"),
    scenario("soko.wall-stops", "walls on every side (the last row and column too)", [
        "###",
        "#@#",
        "###"], "udlr"),
    scenario("soko.wall-stops", "walls each way from a goal", [
        "#####",
        "#+$ #",
        "#####"], "udlr"),
    scenario("soko.push", "a push each way, floor to floor", CROSS, FOUR_PUSHES),
    scenario("soko.push", "a push each way from goal to goal", CROSS_GOALS, FOUR_PUSHES),
    scenario("soko.push", "from a goal, a box onto a goal, then off it", [
        "########",
        "#+$.  $#",
        "# *.  $#",
        "########"], "rrr"),
    scenario("soko.push", "a box pushed into the cell a push left behind", [
        "########",
        "#      #",
        "#@$    #",
        "#      #",
        "#.     #",
        "########"], "rurrdllll"),
    scenario("soko.push", "a box pushed into the cell a push onto a goal left behind", [
        "#######",
        "#@$.  #",
        "#$    #",
        "#     #",
        "#######"], "rddlu"),
    scenario("soko.push", "a box pushed onto the goal a push from it left behind", [
        "#######",
        "#+$.  #",
        "#$    #",
        "#     #",
        "#######"], "rddlu"),
    scenario("soko.push", "push, step back, push again", [
        "#######",
        "#@$   #",
        "# $ ..#",
        "#######"], "rlrldrr"),
    scenario("soko.push-blocked", "a box against a wall, each way", [
        "#####",
        "##$##",
        "#$@$#",
        "##$##",
        "#####"], "udlr"),
    scenario("soko.push-blocked", "a box against a box, each way", [
        "#######",
        "#  $  #",
        "#  $  #",
        "#$$@$$#",
        "#  $  #",
        "#  $  #",
        "#.....#",
        "#######"], "udlr"),
    scenario("soko.push-blocked", "against two boxes, some on goals, from a goal", [
        "########",
        "#+$*  $#",
        "# $$   #",
        "#  *$ .#",
        "########"], "rdrdrr"),
    scenario("soko.push-blocked", "a box against a box on a goal, and the other way", [
        "########",
        "#@$*   #",
        "#  *$  #",
        "#   .  #",
        "########"], "rdrr"),
    scenario("soko.push-blocked", "a box on a goal against a box on a goal", [
        "#######",
        "#@** $#",
        "#   $ #",
        "#######"], "r"),
    scenario("soko.won", "won with more boxes than goals, then not", [
        "#######",
        "#@$.  #",
        "#  $  #",
        "#######"], "rr"),
    scenario("soko.won", "the player on the only goal is no win", [
        "######",
        "#+ $ #",
        "#    #",
        "######"], "rl"),
    scenario("soko.new-grid", "every kind of move returns a new grid", [
        "#######",
        "#@$ . #",
        "#   $.#",
        "#######"], "rdrurr"),
    scenario("soko.blocked-same", "refused moves: into a wall, into a blocked box", [
        "######",
        "#@$$ #",
        "#.. ##",
        "######"], "urld"),
)
