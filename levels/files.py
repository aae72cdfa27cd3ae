"""Reading level files (format by content) and the bundled collections."""

from __future__ import annotations

import functools
import os
from importlib import resources

from .model import Level, LevelError
from .prolog import looks_like_prolog, parse_prolog
from .xsb import parse_xsb

__all__ = ["read_file", "parse_text", "decode", "load", "COLLECTIONS", "PROLOG_EXTENSIONS"]

#: Extensions written as Prolog facts by the CLI's ``convert``.
PROLOG_EXTENSIONS = (".pl", ".pro")

#: Bundled collections: name -> files under ``levels/data`` (read in order).
COLLECTIONS = {
    "microban": ("microban-1.txt",),
    "seed003": tuple(f"seed003/nivel{i}.pro" for i in range(6)),
    "seed002": ("seed002.xsb",),
    "tutorial": ("tutorial.sok",),
}


def decode(data: bytes) -> str:
    """Text of a level file: UTF-8 (with or without BOM), else Windows-1252,
    else Latin-1 (which never fails)."""
    for enc in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            pass
    return data.decode("latin-1")


def parse_text(text: str, source: str = "<string>") -> list[Level]:
    """Levels in ``text``, Prolog facts or XSB/SOK, told apart by content."""
    if looks_like_prolog(text):
        return [parse_prolog(text, source)]
    return parse_xsb(text, source)


def read_file(path) -> list[Level]:
    """Every level in the file at ``path``: Prolog facts for ``.pl``/``.pro``
    files or when the content starts with a fact, else XSB/SOK.

    Raises :class:`LevelError` for a file that cannot be read or parsed.
    """
    source = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise LevelError("no such file", source=source) from None
    except IsADirectoryError:
        raise LevelError("is a directory, not a level file", source=source) from None
    except OSError as e:
        raise LevelError(f"cannot read: {e.strerror or e}", source=source) from None
    text = decode(data)
    if os.path.splitext(source)[1].lower() in PROLOG_EXTENSIONS:
        return [parse_prolog(text, source)]
    return parse_text(text, source)


@functools.lru_cache(maxsize=None)
def _load(name: str) -> tuple[Level, ...]:
    out: list[Level] = []
    data = resources.files("levels") / "data"
    for rel in COLLECTIONS[name]:
        item = data.joinpath(*rel.split("/"))
        for lv in parse_text(decode(item.read_bytes()), f"{name}:{rel}"):
            out.append(lv)
    if len(COLLECTIONS[name]) > 1:  # number across the files
        from dataclasses import replace
        out = [replace(lv, number=i + 1, source=lv.source, line=lv.line)
               for i, lv in enumerate(out)]
    return tuple(out)


def load(name: str) -> list[Level]:
    """A bundled collection by name: ``"microban"``, ``"seed003"``,
    ``"seed002"``, ``"tutorial"``."""
    if name not in COLLECTIONS:
        raise LevelError(f"no bundled collection {name!r}; there are "
                         + ", ".join(sorted(COLLECTIONS)))
    return list(_load(name))
