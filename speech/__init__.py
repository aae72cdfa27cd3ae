"""Messages in the students' language, Spanish or English: the one
mechanism every package of ours speaks through (issue 40).

A leaf package: it imports nothing of ours, and ``impl``, ``conformance``
and ``levels`` may all import it (the ``layers`` contract in pyproject.toml
puts it beside ``spec``, at the bottom). It holds what is shared: the one
language of the process (:func:`set_language`, ``--lang es|en``; None:
the locale's, :func:`from_locale`; :func:`language`, :func:`speaking`), the
early reading of ``--lang`` a command needs before it builds its parser
(:func:`language_from_argv`), :class:`Messages` (a package's gettext
catalog: ``_``, ``n_``), and Spanish for argparse's own words
(:func:`speak_argparse`: ``usage:``, ``options``, its errors).

Each package keeps its own catalog beside its code and binds it once:
``conformance.translations`` (domain ``conformance``), ``impl.translations``
(domain ``impl``); argparse's words are in this package's catalog (domain
``argparse``). A message is written in English in the code, inside
``_("...")`` (``n_(one, many, n)`` when it counts, ``N_`` for a constant
translated where it is shown), with named ``{fields}`` filled by
``str.format`` after the translation. See docs/translations.md.
"""

from __future__ import annotations

import contextlib
import gettext
import os
from pathlib import Path
from typing import Iterator, Mapping, Sequence

LANGUAGES = ("en", "es")
DEFAULT = "en"
#: The environment variables the default language is read from, first found first.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
#: Where this package's own catalog (argparse's words) lies.
FOLDER = Path(__file__).resolve().parent / "translations"

_language: str | None = None


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


def language_from_argv(argv: Sequence[str], option: str = "--lang") -> str:
    """Speak what ``--lang X`` (or ``--lang=X``) in ``argv`` asks for, else
    the locale's language; returns it. For a command, before it builds its
    parser, so that its ``--help`` is in that language too; a value that is
    no language is left for the parser to refuse (in the locale's)."""
    wanted = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg.startswith(option + "="):
            wanted = arg.split("=", 1)[1]
        elif arg == option and i + 1 < len(argv):
            wanted = argv[i + 1]
    return set_language(wanted if wanted in LANGUAGES else None)


class Messages:
    """The messages of one package: its gettext catalog ``domain`` under
    ``folder`` (``folder/es/LC_MESSAGES/domain.mo``), in the current
    language; English is the messages as written."""

    def __init__(self, domain: str, folder: Path) -> None:
        self.domain, self.folder = domain, Path(folder)
        self._catalogs: dict[str, gettext.NullTranslations] = {}

    def catalog(self, lang: str | None = None) -> gettext.NullTranslations:
        """The catalog of ``lang`` (default: the current language)."""
        lang = lang or language()
        if lang not in self._catalogs:
            self._catalogs[lang] = (
                gettext.NullTranslations() if lang == DEFAULT else
                gettext.translation(self.domain, localedir=str(self.folder), languages=[lang],
                                    fallback=True))
        return self._catalogs[lang]

    def gettext(self, message: str) -> str:
        """``message`` in the current language."""
        return self.catalog().gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a counted message for ``n``, in the current language."""
        return self.catalog().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for its package's catalog where it is written (a
    constant); it is translated where it is shown."""
    return message


#: argparse's own words (``usage:``, ``options``, ``show this help message
#: and exit``, its error messages) in the current language.
ARGPARSE = Messages("argparse", FOLDER)


def speak_argparse() -> None:
    """Make argparse say its own words in the current language. argparse
    looks them up through ``gettext.gettext`` (the global domain) under the
    names ``_`` and ``ngettext`` of its module; those two names now ask
    :data:`ARGPARSE` first and, in English (or for a word it does not
    hold), fall back to what argparse said before. Idempotent; a parser
    built afterwards titles its groups in the language current then."""
    import argparse

    if getattr(argparse._, "__module__", None) == __name__:
        return
    before, before_n = argparse._, argparse.ngettext

    def _(message: str) -> str:
        said = ARGPARSE.gettext(message) if language() != DEFAULT else message
        return said if said != message else before(message)

    def ngettext(singular: str, plural: str, n: int) -> str:
        if language() != DEFAULT:
            said = ARGPARSE.ngettext(singular, plural, n)
            if said not in (singular, plural):
                return said
        return before_n(singular, plural, n)

    argparse._, argparse.ngettext = _, ngettext
