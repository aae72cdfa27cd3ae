"""Messages in the students' language: Spanish or English (issue 40).

The bottom room of :mod:`conformance` (beside ``api`` and ``mutants``: it
imports nothing of ours), so that every room above may speak. A message is
written in English in the code, inside ``_("...")`` (or ``n_(one, many,
n)`` when it counts), with named ``{fields}`` filled by ``str.format``
after the translation; the Spanish text is in the gettext catalog
``es/LC_MESSAGES/conformance.po`` beside this file, compiled to
``conformance.mo`` with GNU ``msgfmt`` (stdlib :mod:`gettext` reads it).
Each rule of the seeds (``spec.rules``) has its Spanish title and text in
the catalog too (:func:`rule_text`, :func:`rule_title`), beside the seed's
own words, which stay as the seed wrote them. Identifiers, JSON keys and
rule ids are never translated.

The language is one per process: :func:`set_language` (``--lang es|en``;
None: from the locale, :func:`from_locale`), read by :func:`language`.
``tests/conformance/test_translations.py`` keeps the catalog complete (no
message without its translation, no stale one, the same fields) and the
compiled file up to date; docs/translations.md says how to add a message.
"""

from __future__ import annotations

import contextlib
import gettext
import os
from pathlib import Path
from typing import Iterator, Mapping

LANGUAGES = ("en", "es")
DEFAULT = "en"
DOMAIN = "conformance"
#: The environment variables the default language is read from, first found first.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
FOLDER = Path(__file__).resolve().parent

_language: str | None = None
_catalogs: dict[str, gettext.NullTranslations] = {}


def from_locale(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for (``LC_ALL``, else ``LC_MESSAGES``,
    else ``LANG``: ``es_AR.UTF-8`` is Spanish), English for any other."""
    environ = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "").strip()
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGUAGES else DEFAULT
    return DEFAULT


def set_language(lang: str | None) -> str:
    """Speak ``lang`` (``"es"``, ``"en"``; None: the locale's) from now on;
    returns it. An unknown language raises ``ValueError``."""
    global _language
    if lang is None:
        lang = from_locale()
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    _language = lang
    return lang


def language() -> str:
    """The language messages are in (the locale's until one is set)."""
    return _language if _language is not None else from_locale()


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Inside, messages are in ``lang`` (None: unchanged); then as before."""
    global _language
    before = _language
    try:
        yield set_language(lang) if lang is not None else language()
    finally:
        _language = before


def catalog(lang: str | None = None) -> gettext.NullTranslations:
    """The gettext catalog of ``lang`` (default: the current language);
    English is the messages as written."""
    lang = lang or language()
    if lang not in _catalogs:
        _catalogs[lang] = (gettext.NullTranslations() if lang == DEFAULT else
                           gettext.translation(DOMAIN, localedir=str(FOLDER), languages=[lang],
                                               fallback=True))
    return _catalogs[lang]


def _(message: str) -> str:
    """``message`` in the current language."""
    return catalog().gettext(message)


def n_(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n``, in the current language."""
    return catalog().ngettext(singular, plural, n)


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
    return f"{rule.id}: {rule_text(rule)} ({rule.source}: \u201c{rule.words}\u201d{errata})"


def N_(message: str) -> str:
    """Marks ``message`` for the catalog where it is written (a constant),
    translated where it is shown (with :func:`marked`)."""
    return message


def marked(message: str) -> str:
    """A message marked with :func:`N_` where it was written, in the current
    language (any other text comes back as it is)."""
    return _(message)
