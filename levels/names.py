"""How levels are named, chosen and measured in messages: one helper for
every command line (``levels``, ``impl solve``, ``impl play``).

A level is chosen by its place in the file (``--level 4``) or by its title
(``--level nivel3``, ``--level "Nivel 3"``: case, spaces and punctuation are
ignored), and printed as its title followed by its place: ``Nivel 3 (level 4)``;
a level whose title is only its number (Microban's ``; 12``) is ``level 12``.
Sizes are printed ``width x height`` (``8 x 6``).
"""

from __future__ import annotations

import unicodedata

from .model import LevelError
from .translations import _, n_
from .words import plural

__all__ = ["plural", "size_text", "level_label", "find_level", "LevelChoiceError"]


class LevelChoiceError(LevelError):
    """``--level`` names no level of the file, or several."""


def size_text(width: int, height: int) -> str:
    """A board size, width first: ``8 x 6``."""
    return f"{width} x {height}"


def _key(text: str) -> str:
    """Case, accents, spaces and punctuation do not matter: ``Nivel 3``,
    ``nivel3`` and ``NIVEL-3`` are the same name."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text.casefold() if c.isalnum() and c.isascii())


def _number(level, index: int) -> int:
    number = getattr(level, "number", None)
    return number if number is not None else index + 1


def level_label(level, index: int) -> str:
    """``Nivel 3 (level 4)``: the level's title and its place in its file
    (``index`` is 0-based, used when the level has no number); ``level 4``
    when it has no title or the title is just that number."""
    number = _number(level, index)
    title = (getattr(level, "title", None) or "").strip()
    if not title or title == str(number):
        return _("level {number}").format(number=number)
    return _("{title} (level {number})").format(title=title, number=number)


def find_level(levels, choice) -> int:
    """The 0-based index of the level that ``choice`` names: a place in the
    file (``4`` or ``"4"``, counted from 1) or a title (``"nivel3"``,
    ``"Nivel 3"``).  Raises :class:`LevelChoiceError` saying which levels
    there are."""
    levels = list(levels)
    n = len(levels)
    count = n_("{n} level", "{n} levels", n).format(n=n)
    text = str(choice).strip()
    if text.isascii() and text.isdigit():
        number = int(text)
        for i, lv in enumerate(levels):
            if _number(lv, i) == number:
                return i
        raise LevelChoiceError(n_("no level {number} (there is {count}, numbered from 1)",
                                  "no level {number} (there are {count}, numbered from 1)",
                                  n).format(number=number, count=count))
    wanted = _key(text)
    hits = [i for i, lv in enumerate(levels)
            if wanted and _key(getattr(lv, "title", None) or "") == wanted]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise LevelChoiceError(_("{n} levels are titled {title}: {levels}; choose one by its "
                                 "number").format(n=len(hits), title=repr(text), levels=", ".join(
                                     level_label(levels[i], i) for i in hits[:5])))
    titled = [level_label(lv, i) for i, lv in enumerate(levels) if getattr(lv, "title", None)]
    hint = (": " + ", ".join(titled[:6]) + (", ..." if len(titled) > 6 else "")) if titled else ""
    raise LevelChoiceError(_("no level titled {title} among the {count}{hint}; give a title or "
                             "a number from 1").format(title=repr(text), count=count, hint=hint))
