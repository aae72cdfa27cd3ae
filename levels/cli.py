"""``python -m levels``: check, show and convert level files.

Exit codes: 0 all good; 1 a level is invalid or a file cannot be parsed;
2 bad usage, a file that does not exist or cannot be read, or a refused write.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from .files import PROLOG_EXTENSIONS, SourceError, read_levels
from .model import LevelError
from .prolog import format_prolog
from .validate import RULES, validate
from .xsb import format_xsb

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
    return f"{lv.width}x{lv.height}"


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
        for lv in lvs:
            msgs = validate(lv, args.rules)
            title = f" {lv.title!r}" if lv.title else ""
            verdict = "valid" if not msgs else "INVALID: " + "; ".join(msgs)
            print(f"{name}: level {lv.number}{title}: {_size(lv)}, "
                  f"{len(lv.boxes)} boxes: {verdict}", file=out)
            bad += bool(msgs)
        print(f"{name}: {len(lvs)} levels, {len(lvs) - bad} valid, {bad} invalid",
              file=out)
        if bad:
            status = max(status, 1)
    return status


def _pick(lvs, number, name):
    if number is None:
        if len(lvs) == 1:
            return lvs[0]
        raise _Usage(f"{name} holds {len(lvs)} levels; choose one with --level N")
    if not 1 <= number <= len(lvs):
        raise _Usage(f"{name}: no level {number} (levels 1 to {len(lvs)})")
    return lvs[number - 1]


def cmd_show(args, out) -> int:
    lvs = _open_levels(args.file)
    if not lvs:
        raise _Usage(f"{args.file}: no levels found")
    lv = _pick(lvs, args.level, args.file)
    title = f" {lv.title!r}" if lv.title else ""
    print(f"level {lv.number}{title}: {_size(lv)}, {len(lv.boxes)} boxes, "
          f"{len(lv.goals)} goals" + (f", {lv.bombs} bombs" if lv.bombs else ""), file=out)
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


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def cmd_convert(args, out) -> int:
    fmt = _format_for(args.output)
    if os.path.exists(args.input) and _same_file(args.input, args.output):
        raise _Usage(f"{args.output}: refusing to overwrite the input file")
    lvs = _open_levels(args.input)
    if not lvs:
        raise _Usage(f"{args.input}: no levels found")
    if os.path.exists(args.output) and not args.force:
        raise _Usage(f"{args.output}: already exists; use --force to replace it")
    if args.level is not None:
        lvs = [_pick(lvs, args.level, args.input)]
    if fmt == "prolog":
        if len(lvs) > 1:
            raise _Usage(f"a Prolog file holds one level and {args.input} holds "
                         f"{len(lvs)}; choose one with --level N")
        text = format_prolog(lvs[0])
    else:
        text = format_xsb(lvs)
    directory = os.path.dirname(os.path.abspath(args.output))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".levels-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, args.output)
    except OSError as e:
        raise _Usage(f"{args.output}: cannot write: {e.strerror or e}") from None
    print(f"wrote {len(lvs)} level(s) to {args.output}", file=out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m levels",
                                description="Check, show and convert Sokoban level files "
                                            "(XSB/SOK and seed 003's Prolog facts).")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="validate every level of each file")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--rules", choices=RULES, default="tad",
                   help="tad: seed 000's nivelVálido (default); soko: seed 002's grid")
    s = sub.add_parser("show", help="draw one level")
    s.add_argument("file", metavar="FILE", help="a level file or a bundled collection name")
    s.add_argument("--level", "-l", type=int, metavar="N", help="1-based level number")
    v = sub.add_parser("convert", help="convert between formats (by the output's extension)")
    v.add_argument("input", metavar="IN")
    v.add_argument("output", metavar="OUT", help=".xsb/.sok/.txt or .pl/.pro")
    v.add_argument("--level", "-l", type=int, metavar="N", help="convert only level N")
    v.add_argument("--force", action="store_true", help="replace OUT if it exists")
    return p


def main(argv=None, out=None) -> int:
    out = out if out is not None else sys.stdout
    parser = build_parser()
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
