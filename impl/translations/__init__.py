"""Messages of :mod:`impl` (the terminal game's screen and its command
line) in the players' language: Spanish or English (issue 40).

The mechanism is the leaf package :mod:`speech` (one language per process,
shared with :mod:`conformance`, which impl may not import); this module
binds impl's own catalog, ``es/LC_MESSAGES/impl.po`` beside this file
(compiled to ``impl.mo`` with GNU ``msgfmt``). See docs/translations.md.
"""

from __future__ import annotations

from pathlib import Path

from speech import Messages, N_  # noqa: F401  (N_ marks a constant for this catalog)

DOMAIN = "impl"
FOLDER = Path(__file__).resolve().parent

MESSAGES = Messages(DOMAIN, FOLDER)
#: ``message`` in the current language.
_ = MESSAGES.gettext
#: The form of a counted message for ``n``, in the current language.
n_ = MESSAGES.ngettext
#: A message marked with ``N_`` where it was written, translated where shown.
marked = MESSAGES.gettext
