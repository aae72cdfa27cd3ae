"""The rules of seed 003 a Prolog program is judged by (profile ``prolog``):
each with where the seed states it and one plain line. Every departure the
check reports names one of them."""

from __future__ import annotations

from conformance.translations import _, marked
from spec import rules as spec_rules

SEED = "seed 003 (Vega and Martínez, Sokoban in SWI-Prolog)"

#: id -> (where in seed 003, the rule in one line)
RULES: dict[str, tuple[str, str]] = {
    "prolog.move": ("Acciones posibles: moveUp/moveDown/moveLeft/moveRight, precondition",
             "the player moves to the next cell in the direction when that cell is on the "
             "table and free; a destination is free"),
    "prolog.push": ("Acciones posibles: pushUp/pushDown/pushLeft/pushRight, precondition",
             "the player pushes the box next to it one cell on in the same direction when "
             "that cell is free: never two boxes at once"),
    "prolog.free": ("Vocabulario: free([F, C])",
             "a cell is free when no player, box or obstacle is on it; a move or a push "
             "never enters an obstacle"),
    "prolog.edges": ("Vocabulario: onTable([F, C])",
              "the table's cells are rows 1..filas and columns 1..columnas; its edges are "
              "its limits"),
    "prolog.directions": ("Vocabulario: up, down, left, right",
                   "up is row - 1, down row + 1, left column - 1, right column + 1"),
    "prolog.effects": ("Acciones posibles: effects of move and push",
                "a move puts the player on the new cell; a push puts the box on the next "
                "cell and the player where the box was; nothing else changes"),
    "prolog.model": ("Definición de estados; action/2 and perform/3",
              "action(S, A) lists each legal action once, and perform(S, A, S2) gives its "
              "state, a list of [j, [F, C]] and [c, [F, C]]"),
    "prolog.plan-legal": ("Predicado sokoban(L)",
                   "every action of the plan is legal in the state it is taken in"),
    "prolog.plan-goal": ("Meta; Estado final",
                  "a plan ends in a final state: every box on a destination"),
    "prolog.plan-found": ("Predicado sokoban(L): iterative deepening",
                   "sokoban(L) finds a plan for a level solvable in a few moves"),
}


def rule_line(rule: str) -> str:
    """``rule prolog.move (seed 003, Acciones posibles: ...): the player moves ...``."""
    where, line = RULES[rule]
    return _("rule {rule} ({seed}, {where}): {line}").format(
        rule=rule, seed=_("seed 003"), where=where, line=marked(line))


#: The same rules as a table of :mod:`spec.rules` (profile ``prolog``), so
#: that points by rule (``--gradescope``, ``grade``'s summary and report)
#: and docs/conformance.md treat them as every other profile's. The check
#: blames them itself (:mod:`conformance.profiles.prolog.machine`): no spec case.
TABLE = spec_rules.register(spec_rules.Table(
    "prolog", SEED, ("prolog",),
    tuple(spec_rules.Rule(rule, rule.removeprefix("prolog.").replace("-", " "), line,
                          "seed 003", where)
          for rule, (where, line) in RULES.items())))
