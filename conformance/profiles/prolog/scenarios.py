"""Fixed tables every Prolog check plays first, under every seed: the
preconditions and effects of seed 003's actions, in each of the four
directions, on the smallest tables that show them, and the planner's goal
test.

A random play reaches "the player facing two boxes in a row, pushing left"
only sometimes: the mutant that lets that push through (``chain_push_left``)
escaped 3 of seeds 1..20 before these tables. A course grades everyone with
one seed, so each rule of an action gets one table per direction here, and
the random search does the rest.

Each table is one line of cells along a direction (a 1 x n table for left
and right, n x 1 for up and down), numbered along that direction: ``j`` the
player, ``c`` a box, ``x`` a destination, ``o`` an obstacle, ``cx`` a box
on a destination, ``""`` an empty cell; as many boxes as destinations.
"""

from __future__ import annotations

from conformance.profiles.prolog.model import Table

#: The lines, along the direction of the action they show.
LINES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("a push into another box (two boxes in a row)", ("j", "c", "c", "x", "x")),
    ("a push into an obstacle", ("j", "c", "o", "x")),
    ("a push off the table's edge", ("x", "j", "c")),
    ("a push onto a destination", ("j", "c", "x")),
    ("a push off a destination", ("j", "cx", "")),
    ("a move onto a destination", ("j", "x", "c", "")),
    ("a move off the table's edge", ("c", "x", "j")),
)

#: Seed 003's directions: the action's suffix and where cell k of a line of
#: n cells lies, ``(fila, columna)``; the table's rows and columns.
DIRECTIONS = {
    "Up": (lambda k, n: (n - k, 1), lambda n: (n, 1)),
    "Down": (lambda k, n: (k + 1, 1), lambda n: (n, 1)),
    "Left": (lambda k, n: (1, n - k), lambda n: (1, n)),
    "Right": (lambda k, n: (1, k + 1), lambda n: (1, n)),
}


def line_table(direction: str, cells: tuple[str, ...], title: str = "") -> Table:
    """The table of one line of ``cells`` along ``direction``: the player's
    fact first, then boxes, destinations and obstacles in line order."""
    place, size = DIRECTIONS[direction]
    n = len(cells)
    rows, columns = size(n)
    order = "jcxo"
    pistas = tuple((*place(k, n), e) for e in order for k, cell in enumerate(cells) if e in cell)
    return Table(rows, columns, pistas, title)


#: Tables for the planner's goal test, solvable in a few moves: a planner
#: that looks at the first box of the state only (``first_box_only``
#: escaped 1 of seeds 1..20 before this table), and one that wants box i on
#: destination i, in the facts' order (seed 003's own program: erratum E28).
PLANS: tuple[Table, ...] = (
    Table(1, 4, ((1, 2, "j"), (1, 1, "c"), (1, 3, "c"), (1, 1, "x"), (1, 4, "x")),
          "the first box already on a destination, the second one push away"),
    Table(1, 3, ((1, 1, "j"), (1, 2, "c"), (1, 3, "c"), (1, 3, "x"), (1, 2, "x")),
          "every box already on a destination, not in the facts' order"),
)


def tables() -> list[Table]:
    """Every line in every direction, the lines innermost (so that a
    budget too short for all of them still sees each rule once), then the
    planner's tables."""
    return [line_table(d, cells, f"{what}, {d.lower()}")
            for d in DIRECTIONS for what, cells in LINES] + list(PLANS)
