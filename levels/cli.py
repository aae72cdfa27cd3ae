"""``python -m levels``: check, show and convert level files.

Exit codes: 0 all good; 1 a level is invalid, a puzzle could not be read, a
stored game has an illegal move or a ``Solution`` key does not solve its
level, or a file cannot be parsed; 2 bad usage, a file that does not exist
or cannot be read, or a refused write.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

from .files import (PROLOG_EXTENSIONS, SourceError, WriteRefused, check_writable, read_collection,
                    write_text)
from .lurd import verdict
from .model import LevelError
from .names import LevelChoiceError, find_level, level_label, plural, size_text
from .prolog import format_prolog
from .validate import RULES, validate
from .xsb import VARIANT_SKIP, format_xsb

#: How the command names itself when started as ``python -m levels``.
PROG = "python -m levels"

XSB_EXTENSIONS = (".xsb", ".sok", ".txt")


class _Usage(Exception):
    """A problem the user must fix; exit code 2."""


def _open(name: str, strict: bool = False, out=None):
    """A file, or a bundled collection, as a :class:`Collection`
    (:func:`read_collection`); a file that cannot be opened at all is a
    usage problem (exit 2).  With ``out``, each puzzle skipped is said
    there as a warning."""
    try:
        collection = read_collection(name, strict=strict)
    except SourceError as e:
        raise _Usage(str(e)) from None
    if out is not None:
        problems = [e for e in collection.skipped if not e.problem.endswith(VARIANT_SKIP)]
        if problems and not collection.levels:
            raise problems[0]  # nothing read: the file's problem is the answer
        for e in collection.skipped:
            print(f"warning: {name}: {_skip_text(e)}", file=out)
    return collection


def _skip_text(e: LevelError) -> str:
    """``Trioban test (level 8): skipped (line 274): a Trioban puzzle ...``."""
    where = "" if e.line is None else f" (line {e.line}" + (
        f", column {e.column})" if e.column is not None else ")")
    label = level_label(_Named(e.level_title, e.level_number), (e.level_number or 1) - 1)
    return f"{label}: skipped{where}: {e.problem}"


class _Named:
    """What :func:`level_label` needs of a level: a title and a number."""

    def __init__(self, title, number):
        self.title, self.number = title, number


def _stored(lv):
    """``(label, moves, claims a solution)`` of each game stored with ``lv``:
    its ``Solution`` keys, then its snapshots."""
    for k, s in enumerate(lv.solutions, 1):
        yield f"Solution key {k}", s, True
    for k, s in enumerate(lv.snapshots, 1):
        label = f"snapshot {k}" + (f" {s.title!r}" if s.title else "") + (
            f" (line {s.line})" if s.line is not None else "")
        yield label, s.moves, False


def _size(lv) -> str:
    return size_text(lv.width, lv.height)


#: How ``check`` counts stored games of each verdict.
_GAME_WORDS = {"solution": ("solution",), "partial": ("partial", "partial"),
               "illegal": ("illegal", "illegal"), "reverse": ("reverse-mode", "reverse-mode"),
               "not a solution": ("Solution key that does not solve",
                                  "Solution keys that do not solve"),
               "unplayable": ("not replayed", "not replayed")}


def cmd_check(args, out) -> int:
    status = 0
    for name in args.files:
        try:
            collection = _open(name, strict=args.strict)
        except _Usage as e:
            print(f"error: {e}", file=out)
            status = 2
            continue
        except LevelError as e:
            print(f"{name}: unreadable: {e}", file=out)
            status = max(status, 1)
            continue
        lvs, skipped = collection.levels, collection.skipped
        if not lvs and not skipped:
            print(f"{name}: no levels found", file=out)
            status = max(status, 1)
            continue
        bad, games = 0, {}
        rows = sorted([(lv.number or i + 1, 0, lv, i) for i, lv in enumerate(lvs)]
                      + [(e.level_number or 0, 1, e, None) for e in skipped],
                      key=lambda r: (r[0], r[1]))
        for _, _, item, i in rows:
            if i is None:  # a puzzle not read
                print(f"{name}: {_skip_text(item)}", file=out)
                continue
            lv = item
            msgs = validate(lv, args.rules)
            verdict_text = "valid" if not msgs else "INVALID: " + "; ".join(msgs)
            print(f"{name}: {level_label(lv, i)}: {_size(lv)}, "
                  f"{plural(len(lv.boxes), 'box')}: {verdict_text}", file=out)
            bad += bool(msgs)
            for label, moves, claimed in _stored(lv):
                v = verdict(lv, moves)
                kind = "not a solution" if claimed and v.kind == "partial" else v.kind
                games[kind] = games.get(kind, 0) + 1
                text = v.describe()
                if claimed and v.kind == "partial":
                    text = "NOT A SOLUTION: " + text[len("partial: "):]
                elif v.kind == "illegal":
                    text = "ILLEGAL" + text[len("illegal"):]
                print(f"{name}:   {label}: {text}", file=out)
        variants = sum(1 for e in skipped if e.problem.endswith(VARIANT_SKIP))
        summary = f"{name}: {plural(len(lvs), 'level')}, {len(lvs) - bad} valid, {bad} invalid"
        if skipped:
            summary += (f"; {len(skipped)} skipped" + (f" ({variants} of another variant)"
                                                       if variants else ""))
        if games:
            summary += f"; {plural(sum(games.values()), 'stored game')}: " + ", ".join(
                plural(games.get(k, 0), *words) for k, words in _GAME_WORDS.items()
                if games.get(k) or k in ("solution", "partial", "illegal"))
        print(summary, file=out)
        if (bad or len(skipped) > variants or games.get("illegal")
                or games.get("not a solution")):
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
    lvs = _open(args.file, out=out).levels
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
    if lv.notes:
        print(lv.notes, file=out)
    problems = lv.undrawable() + validate(lv)
    for label, moves, _ in _stored(lv):
        print(f"{label}: " + (verdict(lv, moves).describe() if not problems
                              else f"{len(moves)} characters of moves"), file=out)
    for problem in problems:
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
    collection = _open(args.input, out=out)
    lvs = list(collection.levels)
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
    elif fmt == "prolog":
        jobs = [(args.output, format_prolog(lvs[0]))]
    else:
        whole = args.level is None
        jobs = [(args.output, format_xsb(
            replace(collection, levels=lvs) if whole else lvs))]
    if fmt == "prolog":
        lost = sum(len(lv.snapshots) for lv in lvs)
        notes = sum(1 for lv in lvs if lv.notes)
        if lost or notes or collection.notes or collection.metadata:
            print("note: Prolog facts hold a board, its title, keys and Solution keys; "
                  f"not written: {plural(lost, 'snapshot')}, the notes of "
                  f"{plural(notes, 'level')}" + (", the file notes" if collection.notes
                                                   or collection.metadata else ""), file=out)
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
    c.add_argument("--strict", action="store_true",
                   help="a puzzle that cannot be read, or of another variant, makes the "
                        "whole file unreadable (default: it is skipped and reported)")
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
