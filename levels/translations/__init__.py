"""Messages of :mod:`levels` in the reader's language: Spanish or English
(issue 40). Only how a level is named and chosen in every command's messages
(:mod:`levels.names`) speaks Spanish so far; the mechanism is
the leaf package :mod:`speech`; the catalog is ``es/LC_MESSAGES/levels.po``
beside this file (compiled to ``levels.mo``). See docs/translations.md.
"""

from __future__ import annotations

from pathlib import Path

from speech import Messages

#: levels' catalog (domain ``levels``, beside this file): ``_`` translates,
#: ``n_`` counts.
MESSAGES = Messages("levels", Path(__file__).resolve().parent)
_, n_ = MESSAGES.gettext, MESSAGES.ngettext
