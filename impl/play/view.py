"""What the screen shows, as text (pure: no terminal needed).

:func:`render` lays a :class:`~impl.play.game.Session` out on a screen of a
given size and returns a :class:`Frame`: one string per screen row plus
*marks* (row, column, length, style) for the terminal to colour. The board
is drawn in XSB characters (``#`` wall, ``$`` box, ``*`` box on a goal,
``.`` goal, ``@`` the character, ``+`` the character on a goal); the cells of
a hint's path are ``:`` and its box is marked ``"hint"``.

Layout, top to bottom: the status line (two on a narrow screen, in a
shorter form: :func:`fit`); the board (scrolled by a
:class:`Viewport` to keep the character in view when the level is larger);
the message pane (only as tall as its message, below a rule); the help line
(two on a narrow screen).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

from impl.translations import _

#: The smallest screen the game draws on.
MIN_WIDTH, MIN_HEIGHT = 32, 10

#: The message pane takes at most this share of the rows left for board and pane.
MAX_PANE_SHARE = 0.5

#: Cells kept between the character and the edge of the board area when
#: scrolling: at least this many, and a quarter of the area.
SCROLL_MARGIN = 3

PATH_CHAR = ":"


@dataclass
class Frame:
    """A screen's worth of text: ``lines`` (exactly ``height`` strings, none
    longer than ``width``) and ``marks``: ``(row, column, length, style)``."""

    lines: list[str]
    marks: list[tuple[int, int, int, str]] = field(default_factory=list)
    board_rows: range = range(0)  # the screen rows showing the board

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines)


def margin_for(size: int) -> int:
    """The scrolling margin for an area ``size`` cells long."""
    return max(0, min(max(SCROLL_MARGIN, size // 4), (size - 1) // 2))


def scroll(offset: int, size: int, lo: int, hi: int, pos: int) -> int:
    """The new first coordinate shown along one axis.

    ``size`` cells are visible from ``offset`` on; the level spans
    ``lo..hi`` and the character is at ``pos``. A level that fits is
    centred; a larger one scrolls only as needed to keep ``pos`` at least
    :func:`margin_for` cells from either edge (so the player sees what lies
    ahead), and never further than the level's edges allow."""
    extent = hi - lo + 1
    if extent <= size:
        return lo - (size - extent) // 2
    margin = margin_for(size)
    if pos < offset + margin:
        offset = pos - margin
    elif pos > offset + size - 1 - margin:
        offset = pos - (size - 1 - margin)
    return max(lo, min(offset, hi - size + 1))


class Viewport:
    """The board's scroll position, kept from one frame to the next."""

    def __init__(self) -> None:
        self.x = self.y = 0

    def follow(self, bounds: tuple[int, int, int, int], player, width: int,
               height: int) -> tuple[int, int]:
        """Scroll to keep ``player`` in a ``width`` x ``height`` area showing
        a level within ``bounds``; returns the world position of the area's
        top-left cell."""
        x0, y0, x1, y1 = bounds
        self.x = scroll(self.x, width, x0, x1, player[0])
        self.y = scroll(self.y, height, y0, y1, player[1])
        return self.x, self.y


def wrap(lines: list[str], width: int) -> list[str]:
    """The message lines wrapped to ``width`` (long words broken)."""
    out: list[str] = []
    for line in lines:
        out.extend(textwrap.wrap(line, width, break_long_words=True,
                                 replace_whitespace=False) or [""])
    return out


def pack(parts: list[str], sep: str, width: int) -> list[str]:
    """``parts`` joined by ``sep`` into lines of at most ``width`` characters,
    a part never split across lines (one longer than ``width`` is cut)."""
    lines: list[str] = []
    for part in parts:
        part = part[:width]
        if lines and len(lines[-1]) + len(sep) + len(part) <= width:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines or [""]


def fit(forms: list[tuple[list[str], str]], width: int) -> list[str]:
    """The lines of the form (``(parts, separator)``, longest first) that
    needs the fewest lines at ``width``; of those, the longest form."""
    packed = [pack(parts, sep, width) for parts, sep in forms]
    return min(packed, key=len)


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


def too_small_frame(width: int, height: int) -> Frame:
    """What a screen smaller than the minimum shows."""
    text = [_("Terminal too small: {width}x{height}.").format(width=width, height=height),
            _("The game needs at least {width}x{height}.").format(width=MIN_WIDTH,
                                                                  height=MIN_HEIGHT),
            _("Enlarge it (or q quits).")]
    lines = wrap(text, max(width, 1))[:max(height, 0)]
    lines = [line[:width].ljust(width) for line in lines]
    lines += [" " * width] * (height - len(lines))
    return Frame(lines, [(r, 0, width, "warn") for r in range(min(len(text), height))])


def board_rows(board, path, ox: int, oy: int, width: int, height: int) -> list[str]:
    """The ``height`` rows of ``width`` characters showing the board from
    world position ``(ox, oy)`` on, the hint's ``path`` drawn as ``:``.
    O(width x height + pieces)."""
    grid = [[" "] * width for _ in range(height)]

    def put(cells, char):
        for x, y in cells:
            c, r = x - ox, y - oy
            if 0 <= c < width and 0 <= r < height:
                grid[r][c] = char

    put(path, PATH_CHAR)
    put(board.goals, ".")
    put(board.goals & {board.player}, "+")
    put({board.player} - board.goals, "@")
    put(board.boxes - board.goals, "$")
    put(board.boxes & board.goals, "*")
    put(board.walls, "#")
    return ["".join(row) for row in grid]


_RUNS = re.compile(r"#+|\$+|\*+|\.+|[@+]|:+")

_STYLE = {"#": "wall", "$": "box", "*": "box_on_goal", ".": "goal", "@": "player",
          "+": "player", PATH_CHAR: "hint_path"}


def render(session, width: int, height: int, viewport: Viewport) -> Frame:
    """The frame for ``session`` on a ``width`` x ``height`` screen."""
    if too_small(width, height):
        return too_small_frame(width, height)
    status = fit(session.status_forms(), width)
    helps = fit(session.help_forms(), width)
    marks = [(r, 0, width, "status") for r in range(len(status))]
    marks += [(height - len(helps) + r, 0, width, "help") for r in range(len(helps))]
    rows_left = height - len(status) - len(helps)
    panel = getattr(session, "panel", None)
    if panel is not None:
        return _panel_frame(panel, status, helps, marks, width, rows_left,
                            getattr(session, "panel_top", 0))
    pane = wrap(session.message, width) if session.message else []
    max_pane = max(1, int(rows_left * MAX_PANE_SHARE) - 1)
    if len(pane) > max_pane:
        pane = pane[:max_pane - 1] + ["..."]
    pane_rows = len(pane) + 1 if pane else 0  # a rule above the message
    map_rows = rows_left - pane_rows

    board = session.board()
    hint = session.hint
    path = frozenset(hint.path) if hint is not None else frozenset()
    ox, oy = viewport.follow(board.bounds(), board.player, width, map_rows)
    lines = [line.ljust(width) for line in status]
    for r, row in enumerate(board_rows(board, path, ox, oy, width, map_rows), start=len(status)):
        lines.append(row)
        for m in _RUNS.finditer(row):
            marks.append((r, m.start(), m.end() - m.start(), _STYLE[m.group()[0]]))
    if hint is not None and hint.box is not None:
        bx, by = hint.box[0] - ox, hint.box[1] - oy
        if 0 <= bx < width and 0 <= by < map_rows:
            marks.append((by + len(status), bx, 1, "hint"))
    if pane:
        lines.append("-" * width)
        kind = session.message_kind
        for line in pane:
            marks.append((len(lines), 0, width, kind))
            lines.append(line.ljust(width))
    lines += [line.ljust(width) for line in helps]
    return Frame(lines, marks, range(len(status), len(status) + map_rows))


def panel_lines(panel: list, width: int, rows: int, top: int = 0) -> list[str]:
    """A panel's lines on ``rows`` rows of ``width``: each paragraph (a
    string) wrapped, each block (a list of lines: boards) cut at the width.
    The first paragraph (the rule broken) stays; the rest is shown from its
    line ``top`` on (scrolled), ``...`` marking lines cut above or below."""
    head, *rest = panel or [""]
    first = wrap([head], width)
    lines: list[str] = []
    for part in rest:
        lines += wrap([part], width) if isinstance(part, str) else [l[:width] for l in part]
    room = max(rows - len(first), 0)
    top = max(0, min(top, len(lines) - room + (len(lines) > room)))
    shown = lines[top:top + room]
    if top > 0 and shown:
        shown[0] = "..."
    if top + room < len(lines) and shown:
        shown[-1] = "..."
    return (first + shown)[:rows]


def _panel_frame(panel: list, status: list[str], helps: list[str], marks: list,
                 width: int, rows: int, top: int) -> Frame:
    """The screen of a game stopped on a panel (a departure of the target
    from the spec, :mod:`impl.play.target`): the panel where the board was."""
    body = panel_lines(panel, width, rows, top)
    lines = [line.ljust(width) for line in status]
    heading = len(wrap([panel[0]], width)) if panel else 0
    marks += [(len(lines) + r, 0, width, "contract") for r in range(min(heading, rows))]
    lines += [line.ljust(width) for line in body]
    lines += [" " * width] * (rows - len(body))
    lines += [line.ljust(width) for line in helps]
    return Frame(lines, marks, range(len(status), len(status) + rows))
