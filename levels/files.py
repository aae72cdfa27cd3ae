"""Reading level files (format by content) and the bundled collections."""

from __future__ import annotations

import functools
import os
from importlib import resources

from .model import Collection, Level, LevelError
from .prolog import looks_like_prolog, parse_prolog
from .storage import atomic_path, current_umask
from .xsb import VARIANT_SKIP, parse_sok, warn_skipped

__all__ = ["read_file", "read_levels", "read_collection", "SourceError", "parse_text",
           "parse_collection", "decode", "load", "COLLECTIONS",
           "PROLOG_EXTENSIONS", "write_text", "check_writable", "WriteRefused", "current_umask"]

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


def parse_collection(text: str, source: str = "<string>", *, strict: bool = False,
                     prolog: bool | None = None) -> Collection:
    """``text`` as a :class:`Collection`: Prolog facts (one level) or XSB/SOK
    (:func:`levels.parse_sok`), told apart by content unless ``prolog`` says."""
    if prolog or (prolog is None and looks_like_prolog(text)):
        return Collection(levels=[parse_prolog(text, source)], source=source)
    return parse_sok(text, source, strict=strict)


def parse_text(text: str, source: str = "<string>", *, strict: bool = False) -> list[Level]:
    """Levels in ``text``, Prolog facts or XSB/SOK, told apart by content;
    a puzzle skipped is a :class:`LevelWarning`."""
    collection = parse_collection(text, source, strict=strict)
    warn_skipped(collection, stacklevel=2)
    return list(collection.levels)


class SourceError(LevelError):
    """A :class:`LevelError` raised before any parsing: the file or collection
    could not be opened at all (missing, a directory, unreadable, unknown
    name). Commands exit 2 for it, 1 for a level that is wrong."""


def read_file(path, *, strict: bool = False) -> list[Level]:
    """Every level in the file at ``path``: Prolog facts for ``.pl``/``.pro``
    files or when the content starts with a fact, else XSB/SOK.  A puzzle
    skipped (another variant; a bad puzzle unless ``strict``) is a
    :class:`LevelWarning`.

    Raises :class:`LevelError` for a file that cannot be read or parsed.
    """
    collection = _read_file(path, strict)
    warn_skipped(collection, stacklevel=2)
    return list(collection.levels)


def _read_file(path, strict: bool) -> Collection:
    source = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise SourceError("no such file", source=source) from None
    except IsADirectoryError:
        raise SourceError("is a directory, not a level file", source=source) from None
    except OSError as e:
        raise SourceError(f"cannot read: {e.strerror or e}", source=source) from None
    text = decode(data)
    prolog = True if os.path.splitext(source)[1].lower() in PROLOG_EXTENSIONS else None
    return parse_collection(text, source, strict=strict, prolog=prolog)


@functools.lru_cache(maxsize=None)
def _load(name: str) -> tuple[Level, ...]:
    out: list[Level] = []
    data = resources.files("levels") / "data"
    for rel in COLLECTIONS[name]:
        item = data.joinpath(*rel.split("/"))
        for lv in parse_collection(decode(item.read_bytes()), f"{name}:{rel}", strict=True).levels:
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
        raise SourceError(f"no bundled collection {name!r}; there are "
                         + ", ".join(sorted(COLLECTIONS)))
    return list(_load(name))


def read_levels(name, *, strict: bool = False, on_skip=None) -> list[Level]:
    """The levels of a file, or of a bundled collection when ``name`` is not
    an existing path but is a collection's name (a file always wins, so a
    user's ``microban`` file is never shadowed). The one entry point for every
    command that takes ``FILE|COLLECTION``.

    A puzzle skipped (see :func:`read_collection`) goes to ``on_skip(error)``,
    by default a :class:`LevelWarning`; when no puzzle could be read and one
    was skipped for a problem (not for being another variant), that problem
    is raised.  Raises :class:`LevelError` saying what is wrong: no such file
    nor collection (listing the collections), a directory, unreadable, or a
    parse error with its line and column.
    """
    collection = read_collection(name, strict=strict)
    problems = [e for e in collection.skipped if not e.problem.endswith(VARIANT_SKIP)]
    if problems and not collection.levels:
        raise problems[0]
    if on_skip is None:
        warn_skipped(collection, stacklevel=2)
    else:
        for error in collection.skipped:
            on_skip(error)
    return list(collection.levels)


def read_collection(name, *, strict: bool = False) -> Collection:
    """A file, or a bundled collection, as a :class:`Collection`: its levels,
    its file notes and keys, and the puzzles skipped (``skipped``: another
    variant, always; a puzzle with a problem, unless ``strict``, which
    raises it).  Raises :class:`LevelError` as :func:`read_levels` does."""
    path = os.fspath(name)
    if not os.path.exists(path) and path in COLLECTIONS:
        return Collection(levels=load(path), source=path)
    if not os.path.exists(path):
        raise SourceError("no such file, nor a bundled collection (bundled: "
                         + ", ".join(sorted(COLLECTIONS)) + ")", source=path)
    if os.path.isdir(path):
        raise SourceError("is a directory, not a level file", source=path)
    if not os.access(path, os.R_OK):
        raise SourceError("cannot read (permission denied)", source=path)
    return _read_file(path, strict)


class WriteRefused(OSError):
    """:func:`write_text` would overwrite a file it must not, or cannot write;
    the message is one line naming the file."""


def check_writable(path, *, replace: bool = False, protect=()) -> None:
    """Raise :class:`WriteRefused` unless :func:`write_text` may write
    ``path``: not one of the ``protect`` files (whatever ``replace`` says),
    not a directory, not an existing file unless ``replace``, in an existing
    folder.  Commands call it before long work, so that a refusal comes first."""
    target = os.fspath(path)
    for other in protect:
        try:
            same = os.path.exists(target) and os.path.samefile(target, other)
        except OSError:
            same = os.path.realpath(target) == os.path.realpath(os.fspath(other))
        if same:
            raise WriteRefused(f"{target}: refusing to overwrite an input file")
    if os.path.isdir(target):
        raise WriteRefused(f"{target}: is a directory")
    if os.path.lexists(target) and not replace:
        raise WriteRefused(f"{target}: already exists; use --force to replace it")
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise WriteRefused(f"{target}: folder {folder} does not exist")


def write_text(path, text: str, *, replace: bool = False, protect=()) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` atomically: to a
    temporary file in the same folder, then moved in place, so a failure
    leaves ``path`` as it was.  The file gets the mode a new file would
    (``0o666`` minus the user's umask), not ``mkstemp``'s ``0o600``.

    Never overwrites a file in ``protect`` (the input files), and an
    existing ``path`` only when ``replace`` (:func:`check_writable`); without
    ``replace`` the final step is a hard link, which fails if ``path``
    appeared meanwhile.  Raises
    :class:`WriteRefused` with a one-line message.
    """
    target = os.fspath(path)
    check_writable(target, replace=replace, protect=protect)
    try:
        with atomic_path(target, replace=replace) as tmp:
            with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
    except FileExistsError:
        raise WriteRefused(f"{target}: already exists; use --force to replace it") from None
    except OSError as e:
        raise WriteRefused(f"{target}: cannot write: {e.strerror or e}") from None
