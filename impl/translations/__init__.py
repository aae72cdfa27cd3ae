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

#: impl's catalog (domain ``impl``, beside this file): ``_`` translates,
#: ``n_`` counts, ``marked`` translates a constant marked with ``N_``.
MESSAGES = Messages("impl", Path(__file__).resolve().parent)
_, n_, marked = MESSAGES.gettext, MESSAGES.ngettext, MESSAGES.gettext
