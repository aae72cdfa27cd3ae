"""Input shapes that once made a reader crash, hang or eat memory, and the
shapes of the largest honest inputs: each ``SHAPES[name](n)`` is a text of
about ``n`` characters.

``tests/levels/test_fuzz.py`` feeds them (and mutations of them) to every
reader and checks that only :class:`LevelError` comes out, and
``benchmarks/readers.py`` times them at growing sizes to show linear time.
"""

from __future__ import annotations

import math

from .model import MAX_CELLS

__all__ = ["SHAPES", "HONEST"]


def _room(n: int) -> str:
    """An honest square room of about ``n`` characters (at most the largest
    board a reader accepts): walls around, a player, boxes on a diagonal with
    goals beside them."""
    side = max(5, min(int(math.isqrt(max(n, 25))) - 1, math.isqrt(MAX_CELLS)))
    rows = ["#" * side]
    for y in range(1, side - 1):
        row = [" "] * (side - 2)
        if y == 1:
            row[0] = "@"
        elif 2 <= y < side - 2 and y < side - 3:
            row[y - 1] = "$"
            row[y] = "."
        rows.append("#" + "".join(row) + "#")
    rows.append("#" * side)
    return "\n".join(rows) + "\n"


def _levels(n: int) -> str:
    one = "; title\n#####\n#@$.#\n#####\nAuthor: someone\n\n"
    return one * max(1, n // len(one))


def _snapshots(n: int) -> str:
    """An honest SOK collection: puzzles with notes and several saved games
    and solutions, their moves over several lines."""
    moves = "\n".join(["rrLLuuDDrrLL" * 5 + "rrLLuuDDrr"] * 3)
    one = (f"Puzzle\n\n{_BOARD}\nAuthor: someone\nA note.\n\n"
           f"Solution\n{moves}\n\nSolver: a program\n\nSaved game\n{moves}\n\n")
    return one * max(1, n // len(one))


def _repeat(head: str, unit: str, n: int, tail: str = "") -> str:
    return head + unit * max(1, (n - len(head) - len(tail)) // len(unit)) + tail


_BOARD = "#####\n#@$.#\n#####\n"
_PRO = "filas(3).\ncolumnas(3).\npista(1, 1, j).\n"

#: name -> function of the size in characters.
SHAPES = {
    # honest inputs at their largest
    "xsb room": _room,
    "xsb many levels": _levels,
    "sok snapshots": _snapshots,
    "prolog facts": lambda n: _repeat("filas(300).\ncolumnas(300).\npista(1, 1, j).\n",
                                      "pista(2, 2, o).\n", n),
    # run-length nesting (RecursionError once)
    "rle open groups": lambda n: "(" * max(1, n - 1) + "#",
    "rle nested groups": lambda n: _repeat("", "(" * 30 + "#" + ")" * 30 + "|", n),
    "rle long lines": lambda n: _repeat("", "999999#\n", n),
    "solution open groups": lambda n: _repeat(_BOARD + "Solution: ", "(", n, "r\n"),
    "prolog solution groups": lambda n: _repeat("% Solution: ", "(", n, "r\n" + _PRO),
    # regular expressions that backtracked (exponential once)
    "spaces then #": lambda n: " " * max(1, n - 1) + "#",
    "newlines then #": lambda n: "\n" * max(1, n - 1) + "#",
    "tabs then #": lambda n: "\t" * max(1, n - 1) + "#",
    "percents then #": lambda n: "%" * max(1, n - 1) + "#",
    "percent lines then #": lambda n: _repeat("", "%\n", n, "#"),
    "comments then #": lambda n: _repeat("", "/* */", n, "#"),
    "prolog key spaces": lambda n: _repeat("% Title:", " ", n, "x\n" + _PRO),
    "xsb key spaces": lambda n: _repeat(_BOARD + "Note", " ", n, "x\n"),
    # quadratic scans (one per key, or a growing string)
    "xsb open blocks": lambda n: _repeat(_BOARD, "Comment:\n", n),
    "xsb repeated keys": lambda n: _repeat(_BOARD, "Note: x\n", n),
    "xsb solution lines": lambda n: _repeat(_BOARD + "Solution: r\n", "lurd\n", n),
    # run-length encoding that expands far, again and again (each alone is allowed)
    "rle moves apart": lambda n: _repeat(_BOARD, "999999r\n\n", n),
    "rle solutions": lambda n: _repeat(_BOARD, "Solution: 999999r\n", n),
    "rle boards apart": lambda n: _repeat("", "499(500#|)\n\n", n),
    # boards too large to allocate
    "prolog huge board": lambda n: _repeat("filas(999999).\ncolumnas(999999).\n", "% x\n", n),
    "xsb wide row": lambda n: "#" * max(1, n - 2) + "@\n" + "#\n",
}

#: The shapes of honest files: any reader, old or new, may be timed on them.
HONEST = frozenset({"xsb room", "xsb many levels", "sok snapshots", "prolog facts"})
