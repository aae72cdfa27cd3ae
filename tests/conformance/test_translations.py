"""The Spanish catalogs are complete and up to date (issue 40): every
message the code marks (``_``, ``n_``, ``N_``) in conformance, impl and
levels, every rule's title, text and place in its seed (``spec.rules``) and
every fixed scenario's name has its Spanish translation in its package's
catalog, with the same ``{fields}``; no entry is stale; each compiled
``.mo`` says what its ``.po`` says. And the language is chosen by
``--lang``, else by the locale."""

from __future__ import annotations

import ast
import gettext
import re
import string
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import speech

import conformance
import impl.translations
import levels.translations
from conformance import profiles, translations
from spec import rules

PACKAGE = Path(conformance.__file__).resolve().parent
PO = translations.FOLDER / "es" / "LC_MESSAGES" / "conformance.po"
MO = PO.with_suffix(".mo")
#: Each package that speaks, and its catalog.
CATALOGS = {name: m.folder / "es" / "LC_MESSAGES" / f"{m.domain}.po"
            for name, m in (("conformance", translations.MESSAGES),
                            ("impl", impl.translations.MESSAGES),
                            ("levels", levels.translations.MESSAGES))}


def marked(package: str = "conformance") -> dict[tuple[str, str | None], str]:
    """Every message ``package``'s code marks, ``(msgid, msgid_plural)`` ->
    where (for conformance, with the ``sokoban`` command's, the seeds' rules
    and the fixed scenarios)."""
    found = {}
    files = sorted((PACKAGE.parent / package).rglob("*.py"))
    if package == "conformance":                # the sokoban command speaks through it
        files.append(PACKAGE.parent / "sokoban_tad.py")
    for path in files:
        if "mutants" in path.parts:
            continue
        own = "translations" in path.parts         # its _(message) translates a variable
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                    for a in node.args]
            where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
            if own and None in args:
                continue
            if node.func.id in ("_", "N_") and len(args) == 1:
                assert args[0] is not None, f"{where}: _() of a value, not a literal"
                found[(args[0], None)] = where
            elif node.func.id == "n_" and len(args) == 3:
                assert None not in args[:2], f"{where}: n_() of a value, not literals"
                found[(args[0], args[1])] = where
    if package != "conformance":
        return found
    for (rule_id, title, text), where in seed_rules().items():
        found.setdefault((title, None), f"{where} {rule_id} (title)")
        found.setdefault((text, None), f"{where} {rule_id} (text)")
    for table in our_tables():
        found.setdefault((table.seed, None), f"{table.name}'s seed")
        for rule in table.rules:
            for part in ("title", "text", "source"):
                found.setdefault((getattr(rule, part), None), f"{table.name} {rule.id} ({part})")
    for name in profiles.names():
        for scenario in profiles.get(name).scenarios:
            found.setdefault((scenario.what, None), f"profile {name}'s scenario")
    return found


#: The rule tables our code registers (a test may register made-up ones).
OUR_TABLES = ("tad", "extendido", "soko", "prolog")


def our_tables() -> list[rules.Table]:
    profiles.names()                            # every table registered
    return [rules.tables()[name] for name in OUR_TABLES]


def seed_rules() -> dict[tuple[str, str, str], str]:
    """Every rule our code declares (``Rule(id, title, text, ...)`` in spec
    and conformance: a test's made-up table is not ours) -> where."""
    found = {}
    for path in sorted([*PACKAGE.rglob("*.py"), *(PACKAGE.parent / "spec").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "Rule"):
                found[tuple(a.value for a in node.args[:3])] = str(
                    path.relative_to(PACKAGE.parent))
    return found


def _unquote(lines: list[str]) -> str:
    return "".join(ast.literal_eval(line) for line in lines)


def read_po(path: Path) -> dict[tuple[str, str | None], list[str]]:
    """A .po file's entries: ``(msgid, msgid_plural)`` -> its msgstr forms."""
    entries, key, current, parts = {}, {}, None, {}
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = line.strip()
        if not line or line.startswith("#"):
            if "msgid" in parts:
                msgid = _unquote(parts["msgid"])
                plural = _unquote(parts["msgid_plural"]) if "msgid_plural" in parts else None
                forms = [_unquote(v) for k, v in sorted(parts.items()) if k.startswith("msgstr")]
                if msgid:
                    assert (msgid, plural) not in entries, f"twice in the catalog: {msgid!r}"
                    entries[(msgid, plural)] = forms
            parts, current = {}, None
            continue
        m = re.match(r"^(msgid_plural|msgid|msgstr(?:\[\d\])?)\s+(\".*\")$", line)
        if m:
            current = m.group(1)
            parts[current] = [m.group(2)]
        else:
            assert line.startswith('"') and current, f"{path}: cannot read {line!r}"
            parts[current].append(line)
    return entries


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("package", sorted(CATALOGS))
def test_every_message_has_its_translation_and_none_is_stale(package):
    code, catalog = marked(package), read_po(CATALOGS[package])
    missing = [f"{where}: {key[0]!r}" for key, where in code.items() if key not in catalog]
    stale = [repr(key[0]) for key in catalog if key not in code]
    assert not missing, "messages without a Spanish translation:\n" + "\n".join(missing)
    assert not stale, "stale entries in the catalog:\n" + "\n".join(stale)
    for (msgid, plural), forms in catalog.items():
        assert forms and all(forms), f"untranslated: {msgid!r}"
        for form in forms:
            assert fields(form) == fields(msgid), f"other fields: {msgid!r} / {form!r}"


@pytest.mark.parametrize("po", [*CATALOGS.values(), speech.FOLDER / "es" / "LC_MESSAGES"
                                / "argparse.po"], ids=lambda p: p.name)
def test_the_compiled_catalog_is_the_po(po):
    with open(po.with_suffix(".mo"), "rb") as f:
        compiled = gettext.GNUTranslations(f)
    for (msgid, plural), forms in read_po(po).items():
        if plural is None:
            assert compiled.gettext(msgid) == forms[0], msgid
        else:
            assert compiled.ngettext(msgid, plural, 1) == forms[0], msgid
            assert compiled.ngettext(msgid, plural, 2) == forms[1], msgid


def test_argparses_words_are_argparses_own_and_say_it_in_spanish():
    """Each entry of speech's argparse catalog is a message this Python's
    argparse looks up (an entry of another Python's argparse would be
    stale here), and a parser built in Spanish speaks it."""
    import argparse

    said = {}
    for node in ast.walk(ast.parse(Path(argparse.__file__).read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "ngettext")):
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if args:                        # (argparse also translates a variable)
                said[(args[0], args[1] if node.func.id == "ngettext" else None)] = node.lineno
    catalog = read_po(speech.FOLDER / "es" / "LC_MESSAGES" / "argparse.po")
    assert [key for key in catalog if key not in said] == []
    for (msgid, _plural), forms in catalog.items():
        for form in forms:
            assert re.findall(r"%\(\w+\)[sr]|%[sr]", form) == re.findall(
                r"%\(\w+\)[sr]|%[sr]", msgid), msgid
    with translations.speaking("es"):
        speech.speak_argparse()
        parser = argparse.ArgumentParser(prog="p", exit_on_error=False)
        parser.add_argument("n", type=int)
        text = parser.format_help()
        with pytest.raises(argparse.ArgumentError, match="valor int no válido: 'x'"):
            parser.parse_args(["x"])
    assert text.startswith("uso: p [-h] n") and "opciones:" in text
    assert "muestra esta ayuda y termina" in text
    with translations.speaking("en"):
        assert argparse.ArgumentParser(prog="p").format_help().startswith("usage: p [-h]")


def test_each_rule_has_its_spanish_text_beside_the_seeds_words():
    with translations.speaking("es"):
        for table in our_tables():
            for rule in table.rules:
                assert translations.rule_text(rule) != rule.text or rule.text == rule.words
                cited = translations.cite(rule)
                assert translations.rule_text(rule) in cited and rule.words in cited


LOCALES = st.sampled_from(["es_AR.UTF-8", "es_ES", "es", "es_MX.utf8@euro", "en_US.UTF-8",
                           "C", "C.UTF-8", "POSIX", "fr_FR.UTF-8", "pt_BR", ""])


@given(lc_all=LOCALES, lc_messages=LOCALES, lang=LOCALES)
def test_the_default_language_follows_the_locale(lc_all, lc_messages, lang):
    environ = {"LC_ALL": lc_all, "LC_MESSAGES": lc_messages, "LANG": lang}
    first = next((v for v in (lc_all, lc_messages, lang) if v), "")
    assert translations.from_locale(environ) == ("es" if first.startswith("es") else "en")


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        translations.set_language("fr")


def test_no_function_that_speaks_binds_the_name_of_its_translator():
    """A function that calls ``_()`` (or ``n_()``) and also binds ``_``
    (``ready, _, _ = select.select(...)``) makes ``_`` its own local name:
    the message then fails at the moment it should be shown. Comprehensions
    have their own scope and may use ``_``."""
    found = []
    for package in ("conformance", "impl", "levels", "speech"):
        for path in sorted((PACKAGE.parent / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for fn in ast.walk(tree):
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                inside = {id(n) for c in ast.walk(fn) if isinstance(c, (
                    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))
                    for n in ast.walk(c)}
                names = [n for n in ast.walk(fn) if id(n) not in inside]
                binds = any(isinstance(n, ast.Name) and n.id in ("_", "n_")
                            and isinstance(n.ctx, ast.Store) for n in names)
                speaks = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                             and n.func.id in ("_", "n_") for n in names)
                if binds and speaks:
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{fn.lineno} {fn.name}")
    assert found == []
