"""Level files in and out: XSB/SOK, seed 002's descriptions, seed 003's Prolog
facts and the spec's ``Nivel``; validation, bundled collections and a
generator of solvable levels.  See ``docs/levels.md`` and ``docs/INTERFACES.md``.
"""

from . import lurd
from .files import (COLLECTIONS, SourceError, WriteRefused, load, parse_text, read_collection,
                    read_file, read_levels, write_text)
from .generate import generate
from .model import Collection, Level, LevelError, LevelWarning, Snapshot
from .names import find_level, level_label, plural, size_text
from .prolog import format_prolog, parse_prolog
from .validate import validate
from .xsb import format_xsb, from_soko_desc, parse_sok, parse_xsb, to_soko_desc

__all__ = [
    "Level", "Snapshot", "Collection", "LevelError", "LevelWarning", "SourceError", "read_file",
    "read_levels", "read_collection", "parse_text", "parse_sok", "parse_xsb", "format_xsb",
    "parse_prolog", "format_prolog", "from_soko_desc", "to_soko_desc", "load",
    "COLLECTIONS", "validate", "lurd", "generate", "strategies",
    "write_text", "WriteRefused", "find_level", "level_label", "plural", "size_text",
]


def __getattr__(name):
    # ``levels.strategies`` imports Hypothesis: load it only when asked for.
    if name == "strategies":
        from . import strategies
        return strategies
    raise AttributeError(f"module 'levels' has no attribute {name!r}")
