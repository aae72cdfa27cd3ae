"""Messages of :mod:`conformance` in the students' language: Spanish or
English (issue 40).

The bottom room of :mod:`conformance` (beside ``api`` and ``mutants``), so
that every room above may speak. The mechanism (the one language of the
process, catalogs, argparse's words) is the leaf package :mod:`speech`,
which ``impl`` speaks through too; this module binds conformance's own
catalog, ``es/LC_MESSAGES/conformance.po`` beside this file (compiled to
``conformance.mo`` with GNU ``msgfmt``), and adds the seeds' rules: each
rule (``spec.rules``) has its Spanish title and text in the catalog
(:func:`rule_text`, :func:`rule_title`), beside the seed's own words, which
stay as the seed wrote them. Identifiers, JSON keys and rule ids are never
translated.

``tests/conformance/test_translations.py`` keeps the catalogs complete (no
message without its translation, no stale one, the same fields) and the
compiled files up to date; docs/translations.md says how to add a message.
"""

from __future__ import annotations

from pathlib import Path

from speech import (  # noqa: F401  (the one mechanism, re-exported for conformance's rooms)
    DEFAULT, LANGUAGES, LOCALE_VARIABLES, N_, Messages, from_locale, language,
    language_from_argv, set_language, speak_argparse, speaking,
)

DOMAIN = "conformance"
FOLDER = Path(__file__).resolve().parent

MESSAGES = Messages(DOMAIN, FOLDER)
#: ``message`` in the current language.
_ = MESSAGES.gettext
#: The form of a counted message for ``n``, in the current language.
n_ = MESSAGES.ngettext
catalog = MESSAGES.catalog


def rule_title(rule) -> str:
    """A rule's short title (``spec.rules.Rule.title``) in the current language."""
    return _(rule.title)


def rule_text(rule) -> str:
    """A rule's text in plain words (``spec.rules.Rule.text``) in the
    current language; the seed's own ``words`` are quoted as they are."""
    return _(rule.text)


def cite(rule) -> str:
    """``spec.rules.Rule.cite`` in the current language: the rule's text
    translated, the seed's words as they are."""
    errata = _("; erratum {errata}").format(errata=", ".join(rule.errata)) if rule.errata else ""
    return (f"{rule.id}: {rule_text(rule)} ({rule_source(rule)}: \u201c{rule.words}\u201d"
            f"{errata})")


#: A message marked with :func:`N_` where it was written, in the current
#: language (any other text comes back as it is).
marked = MESSAGES.gettext


def rule_source(rule) -> str:
    """Where a rule is in its seed (``spec.rules.Rule.source``: ``seed 002,
    Movimiento, 4th sentence``) in the current language; the seed's own
    names (Movimiento, ``mover``) stay."""
    return _(rule.source)
