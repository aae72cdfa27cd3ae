"""The curses front end: reads keys, draws :func:`impl.play.view.render`'s
frames. Everything it shows is decided in :mod:`impl.play.view` and
:mod:`impl.play.game`; this module only talks to the terminal."""

from __future__ import annotations

import curses
import locale
import os
import sys

from impl.translations import _

from .keys import command_for_key
from .view import Frame, Viewport, render, too_small

# style -> (foreground colour, extra attribute)
_COLOURS = {
    "wall": (curses.COLOR_BLUE, curses.A_BOLD),
    "box": (curses.COLOR_YELLOW, curses.A_BOLD),
    "box_on_goal": (curses.COLOR_GREEN, curses.A_BOLD),
    "goal": (curses.COLOR_RED, curses.A_BOLD),
    "player": (curses.COLOR_CYAN, curses.A_BOLD),
    "hint_path": (curses.COLOR_MAGENTA, curses.A_BOLD),
    "hint": (curses.COLOR_MAGENTA, curses.A_REVERSE | curses.A_BOLD),
    "win": (curses.COLOR_GREEN, curses.A_BOLD),
    "warn": (curses.COLOR_YELLOW, 0),
    "contract": (curses.COLOR_RED, curses.A_BOLD),
    "info": (-1, 0),
}
_PLAIN = {"status": curses.A_REVERSE, "help": curses.A_DIM, "hint": curses.A_REVERSE}


def _attributes() -> dict[str, int]:
    attrs = dict(_PLAIN)
    try:
        if not curses.has_colors():
            return attrs
        curses.start_color()
        curses.use_default_colors()
    except curses.error:
        return attrs
    for i, (style, (fg, extra)) in enumerate(_COLOURS.items(), start=1):
        try:
            curses.init_pair(i, fg, -1)
        except curses.error:
            continue
        attrs[style] = curses.color_pair(i) | extra
    return attrs


def printable(line: str, encoding: str) -> str:
    """``line`` with every character the terminal's encoding cannot show
    replaced by ``?`` (a level title in a C locale must not crash the game)."""
    try:
        line.encode(encoding)
        return line
    except UnicodeEncodeError:
        return "".join(c if _encodable(c, encoding) else "?" for c in line)
    except LookupError:
        return line.encode("ascii", "replace").decode("ascii")


def _encodable(c: str, encoding: str) -> bool:
    try:
        c.encode(encoding)
        return True
    except UnicodeEncodeError:
        return False


def draw(screen, frame: Frame, attrs: dict[str, int]) -> None:
    encoding = getattr(screen, "encoding", None) or "ascii"
    screen.erase()
    for row, line in enumerate(frame.lines):
        try:
            screen.addstr(row, 0, printable(line, encoding))
        except curses.error:
            pass  # writing the bottom-right cell moves the cursor off screen
    for row, col, length, style in frame.marks:
        attr = attrs.get(style)
        if attr:
            try:
                screen.chgat(row, col, length, attr)
            except curses.error:
                pass
    screen.refresh()


#: Milliseconds between checks of the terminal's size while no key comes.
POLL_MS = 300


def _sync_size(screen) -> None:
    """Adopt the terminal's real size if curses missed a resize (a SIGWINCH
    that arrived before curses was listening)."""
    try:
        cols, rows = os.get_terminal_size(sys.__stdout__.fileno())
    except (OSError, ValueError, AttributeError):
        return
    if (rows, cols) != screen.getmaxyx():
        try:
            curses.resizeterm(rows, cols)
        except curses.error:
            pass


def _loop(screen, session) -> None:
    try:
        curses.curs_set(0)
    except curses.error:
        pass
    screen.keypad(True)
    screen.timeout(POLL_MS)
    attrs = _attributes()
    viewport = Viewport()
    drawn_size = None
    while True:
        height, width = screen.getmaxyx()
        if drawn_size != (height, width):
            draw(screen, render(session, width, height, viewport), attrs)
            drawn_size = (height, width)
        key = screen.getch()
        if key == -1:  # no key within POLL_MS: nothing changed but maybe the size
            _sync_size(screen)
            continue
        drawn_size = None
        if key == curses.KEY_RESIZE:
            continue
        command = command_for_key(key)
        if command is None:
            continue
        if too_small(width, height) and command != "quit":
            continue
        if command == "hint":
            session.say([_("Thinking (at most {seconds} s)...").format(
            seconds=f"{session.hint_time:g}")])
            draw(screen, render(session, width, height, viewport), attrs)
        if not session.do(command):
            return


def run(session) -> None:
    """Play ``session`` in the terminal until the player quits. The terminal
    is restored however this ends (``curses.wrapper``)."""
    os.environ.setdefault("ESCDELAY", "25")
    try:
        locale.setlocale(locale.LC_ALL, "")  # so curses writes UTF-8 when the terminal does
    except locale.Error:
        pass  # an unknown locale in the environment: stay with "C" (see printable)
    curses.wrapper(_loop, session)
