"""``python -m levels``: check, show and convert level files.

Exit codes: 0 all good; 1 a level is invalid or a file cannot be parsed;
2 bad usage, a file that does not exist or cannot be read, or a refused write.
"""

from __future__ import annotations

import argparse
import os
import sys

from .files import (PROLOG_EXTENSIONS, SourceError, WriteRefused, check_writable, read_levels,
                    write_text)
from .model import LevelError
from .names import LevelChoiceError, find_level, level_label, plural, size_text
from .prolog import format_prolog
from .validate import RULES, validate
from .xsb import format_xsb

#: How the command names itself when started as ``python -m levels``.
PROG = "python -m levels"

XSB_EXTENSIONS = (".xsb", ".sok", ".txt")


class _Usage(Exception):
    """A problem the user must fix; exit code 2."""


def _open_levels(name: str):
    """Levels of a file, or of a bundled collection (:func:`read_levels`);
    a file that cannot be opened at all is a usage problem (exit 2)."""
    try:
        return read_levels(name)
    except SourceError as e:
        raise _Usage(str(e)) from None


def _size(lv) -> str:
    return size_text(lv.width, lv.height)


def cmd_check(args, out) -> int:
    status = 0
    for name in args.files:
        try:
            lvs = _open_levels(name)
        except _Usage as e:
            print(f"error: {e}", file=out)
            status = 2
            continue
        except LevelError as e:
            print(f"{name}: unreadable: {e}", file=out)
            status = max(status, 1)
            continue
        if not lvs:
            print(f"{name}: no levels found", file=out)
            status = max(status, 1)
            continue
        bad = 0
        for i, lv in enumerate(lvs):
            msgs = validate(lv, args.rules)
            verdict = "valid" if not msgs else "INVALID: " + "; ".join(msgs)
            print(f"{name}: {level_label(lv, i)}: {_size(lv)}, "
                  f"{plural(len(lv.boxes), 'box')}: {verdict}", file=out)
            bad += bool(msgs)
        print(f"{name}: {plural(len(lvs), 'level')}, {len(lvs) - bad} valid, {bad} invalid",
              file=out)
        if bad:
            status = max(status, 1)
    return status


def _pick(lvs, choice, name) -> int:
    """The index of the level ``--level`` names (a number or a title)."""
    if choice is None:
        if len(lvs) == 1:
            return 0
        raise _Usage(f"{name} holds {plural(len(lvs), 'level')}; choose one with "
                     "--level N or --level TITLE")
    try:
        return find_level(lvs, choice)
    except LevelChoiceError as e:
        raise _Usage(f"{name}: {e.problem}") from None


def cmd_show(args, out) -> int:
    lvs = _open_levels(args.file)
    if not lvs:
        raise _Usage(f"{args.file}: no levels found")
    i = _pick(lvs, args.level, args.file)
    lv = lvs[i]
    print(f"{level_label(lv, i)}: {_size(lv)}, {plural(len(lv.boxes), 'box')}, "
          f"{plural(len(lv.goals), 'goal')}"
          + (f", {plural(lv.bombs, 'bomb')}" if lv.bombs else ""), file=out)
    for key, value in lv.metadata.items():
        print(f"{key}: {value}", file=out)
    try:
        rows = lv.rows(strict=False)
    except LevelError as e:
        raise _Usage(str(e)) from None
    for row in rows:
        print(row, file=out)
    for problem in lv.undrawable() + validate(lv):
        print(f"note: {problem}", file=out)
    return 0


def _format_for(path: str):
    ext = os.path.splitext(path)[1].lower()
    if ext in XSB_EXTENSIONS:
        return "xsb"
    if ext in PROLOG_EXTENSIONS:
        return "prolog"
    raise _Usage(f"{path}: unknown output format {ext or '(no extension)'!r}; use "
                 + ", ".join(XSB_EXTENSIONS + PROLOG_EXTENSIONS))


def _numbered(path: str, number: int) -> str:
    """``mylevels.pl`` -> ``mylevels-3.pl``: one file per level."""
    stem, ext = os.path.splitext(path)
    return f"{stem}-{number}{ext}"


def cmd_convert(args, out) -> int:
    fmt = _format_for(args.output)
    lvs = _open_levels(args.input)
    if not lvs:
        raise _Usage(f"{args.input}: no levels found")
    if args.level is not None:
        i = _pick(lvs, args.level, args.input)
        lvs, numbers = [lvs[i]], [i + 1]
    else:
        numbers = list(range(1, len(lvs) + 1))
    if fmt == "prolog" and len(lvs) > 1:
        # A Prolog file holds one level: one file per level, numbered.
        jobs = [(_numbered(args.output, n), format_prolog(lv)) for n, lv in zip(numbers, lvs)]
    else:
        jobs = [(args.output, format_prolog(lvs[0]) if fmt == "prolog" else format_xsb(lvs))]
    inputs = [args.input] if os.path.exists(args.input) else []
    try:
        for path, _ in jobs:  # every target checked before any is written
            check_writable(path, replace=args.force, protect=inputs)
        for path, text in jobs:
            write_text(path, text, replace=args.force, protect=inputs)
    except WriteRefused as e:
        raise _Usage(str(e)) from None
    where = jobs[0][0] if len(jobs) == 1 else f"{jobs[0][0]} ... {jobs[-1][0]}"
    print(f"wrote {plural(len(lvs), 'level')} to {where}", file=out)
    return 0


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog,
                                description="Check, show and convert Sokoban level files "
                                            "(XSB/SOK and seed 003's Prolog facts).")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="validate every level of each file")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--rules", choices=RULES, default="tad",
                   help="tad: seed 000's nivelVálido (default); soko: seed 002's grid")
    s = sub.add_parser("show", help="draw one level")
    s.add_argument("file", metavar="FILE", help="a level file or a bundled collection name")
    s.add_argument("--level", "-l", metavar="N|TITLE",
                   help="the level's place in the file (from 1) or its title (e.g. 'Nivel 3')")
    v = sub.add_parser("convert", help="convert between formats (by the output's extension)")
    v.add_argument("input", metavar="IN")
    v.add_argument("output", metavar="OUT", help=".xsb/.sok/.txt or .pl/.pro (one level a "
                   "file: several levels go to OUT-1.pl, OUT-2.pl, ...)")
    v.add_argument("--level", "-l", metavar="N|TITLE", help="convert only this level")
    v.add_argument("--force", action="store_true", help="replace OUT if it exists")
    return p


def main(argv=None, out=None, prog: str = PROG) -> int:
    out = out if out is not None else sys.stdout
    parser = build_parser(prog)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse has printed the usage
        return int(e.code or 0)
    try:
        return {"check": cmd_check, "show": cmd_show, "convert": cmd_convert}[args.command](args, out)
    except _Usage as e:
        print(f"error: {e}", file=out)
        return 2
    except LevelError as e:
        print(f"error: {e}", file=out)
        return 1
