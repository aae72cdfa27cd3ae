"""Keys to commands (pure: no terminal needed).

A command is one of the strings in :data:`COMMANDS`; the four moves are
``"up"``, ``"down"``, ``"left"`` and ``"right"`` (see :data:`MOVES` for their
:class:`spec.tipos.Accion`).
"""

from __future__ import annotations

import curses  # only for the key-code constants; nothing is initialised

from impl.translations import _
from spec.tipos import Accion

#: The action of each move command.
MOVES = {
    "up": Accion.ARRIBA,
    "down": Accion.ABAJO,
    "left": Accion.IZQUIERDA,
    "right": Accion.DERECHA,
}

COMMANDS = tuple(MOVES) + ("undo", "bomb", "restart", "next", "prev", "hint", "quit")

_KEYS: dict[int, str] = {
    curses.KEY_UP: "up", curses.KEY_DOWN: "down",
    curses.KEY_LEFT: "left", curses.KEY_RIGHT: "right",
}
for _chars, _command in (("wW", "up"), ("sS", "down"), ("aA", "left"), ("dD", "right"),
                         ("uU", "undo"), ("bB", "bomb"), ("rR", "restart"),
                         ("nN", "next"), ("pP", "prev"), ("hH", "hint"),
                         ("qQ", "quit")):
    for _c in _chars:
        _KEYS[ord(_c)] = _command
del _chars, _command, _c


def command_for_key(key: int | str) -> str | None:
    """The command of a key (a curses key code, or a one-character string),
    or ``None`` for a key that does nothing."""
    if isinstance(key, str):
        if len(key) != 1:
            return None
        key = ord(key)
    return _KEYS.get(key)


def help_forms(bombs: bool, hints: bool = True) -> list[tuple[list[str], str]]:
    """The help line's forms, longest first: ``(parts, separator)``; ``bombs``
    says whether to list the bomb key, ``hints`` the hint key (a target's
    game has none). A narrow screen uses a shorter form (see
    :func:`impl.play.view.fit`); every form names every key."""
    bomb = [_("b bomb")] if bombs else []
    hint = [_("h hint")] if hints else []
    undo, restart, level, quit_ = _("u undo"), _("r restart"), _("n/p level"), _("q quit")
    return [
        ([_("arrows/WASD move"), undo, *bomb, restart, _("n/p next/prev level"), *hint,
          quit_], "  "),
        ([_("arrows move"), undo, *bomb, restart, level, *hint, quit_], "  "),
        ([undo, *bomb, restart, level, *hint, quit_], " "),
    ]


def help_text(bombs: bool) -> str:
    """The help line at full length."""
    parts, sep = help_forms(bombs)[0]
    return sep.join(parts)
