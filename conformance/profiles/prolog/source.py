"""What a Prolog target is made of: its program file and its levels.

A target is a ``.pro`` (or ``.pl``) file, or a folder holding one, that
defines ``sokoban/1``. In a folder (seed 003's layout: ``sokoban.pro`` and
``nivel0.pro`` ... each level consulting the program), the program is the
one file that defines ``sokoban/1`` (``sokoban.pro`` when several do), the
levels are the files that are seed 003's facts, and every ``.pro``/``.pl``
file of the folder (not of its subfolders) is copied into the box, so the
program may consult its own helpers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from levels.model import LevelError
from levels.prolog import looks_like_prolog
from levels.prolog import parse_prolog

from conformance.translations import _

SUFFIXES = (".pro", ".pl")
#: The main program's conventional name (seed 003's).
MAIN = "sokoban.pro"
#: Largest file read or copied (bytes) and most files copied.
MAX_FILE = 2 * 1024 * 1024
MAX_FILES = 200

# A clause of sokoban/1 starts a line: ``sokoban(Plan) :- ...``.
_DEFINES = re.compile(r"^sokoban\s*\(\s*[^,()]*\)\s*(?::-|\.)", re.M)


class NotAProgram(ValueError):
    """The path holds no Prolog program of seed 003's interface."""


@dataclass(frozen=True)
class Program:
    """A Prolog target: ``main`` (the file that defines ``sokoban/1``),
    ``files`` (every Prolog file to copy into the box) and ``levels`` (the
    folder's level files, in name order)."""

    folder: Path
    main: Path
    files: tuple[Path, ...]
    levels: tuple[Path, ...] = field(default=())

    @property
    def name(self) -> str:
        return str(self.folder if self.main.name == MAIN or len(self.files) > 1 else self.main)


def _text(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_FILE:
            return ""
        return path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return ""


def defines_sokoban(text: str) -> bool:
    return bool(_DEFINES.search(text))


def is_level(text: str) -> bool:
    """A file of seed 003's level facts (and nothing else)."""
    if not looks_like_prolog(text) or defines_sokoban(text):
        return False
    try:
        parse_prolog(text)
    except LevelError:
        return False
    return True


def looks_like_program(path: str | Path, defining: bool = False) -> bool:
    """Whether ``path`` is a Prolog target: a ``.pro``/``.pl`` file (with
    ``defining``: one that defines ``sokoban/1``) or a folder holding a
    file that defines it; reads only the folder's own files."""
    path = Path(path)
    if path.is_file():
        return path.suffix in SUFFIXES and (not defining or defines_sokoban(_text(path)))
    if not path.is_dir():
        return False
    try:
        return any(p.suffix in SUFFIXES and p.is_file() and defines_sokoban(_text(p))
                   for p in sorted(path.iterdir())[:MAX_FILES])
    except OSError:
        return False


def find_program(path: str | Path) -> Program:
    """The program at ``path`` (a file or a folder), or :class:`NotAProgram`
    saying what was found instead."""
    path = Path(path).expanduser()
    if path.is_file():
        if path.suffix not in SUFFIXES:
            raise NotAProgram(_("{path}: not a Prolog file (expected .pro or .pl)").format(
                path=path))
        if is_level(_text(path)):
            raise NotAProgram(_("{path}: a level of seed 003 (filas, columnas and pista facts), "
                                "not a program; check the program, or the folder that holds "
                                "both").format(path=path))
        path = path.resolve()
        return Program(path.parent, path, (path,))
    if not path.is_dir():
        raise NotAProgram(_("{path}: no such file or folder").format(path=path))
    path = path.resolve()
    try:
        files = tuple(p for p in sorted(path.iterdir()) if p.suffix in SUFFIXES and p.is_file())
    except OSError as e:
        raise NotAProgram(_("{path}: cannot read the folder ({why})").format(
            path=path, why=e.strerror)) from None
    if len(files) > MAX_FILES:
        raise NotAProgram(_("{path}: more than {n} Prolog files").format(path=path, n=MAX_FILES))
    texts = {p: _text(p) for p in files}
    mains = [p for p in files if defines_sokoban(texts[p])]
    if not mains:
        found = ", ".join(p.name for p in files) or _("no .pro or .pl file")
        raise NotAProgram(_("{path}: no Prolog file here defines sokoban/1 (found {found})").format(
            path=path, found=found))
    if len(mains) > 1:
        named = [p for p in mains if p.name == MAIN]
        if not named:
            raise NotAProgram(_("{path}: several files define sokoban/1 ({files}); check one "
                                "of them by its path").format(
                                    path=path, files=", ".join(p.name for p in mains)))
        mains = named
    levels = tuple(p for p in files if p not in mains and is_level(texts[p]))
    return Program(path, mains[0], files, levels)
