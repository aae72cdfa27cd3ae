"""``sokoban monitor TEST_OR_SCRIPT [--impl soko.py] [ARGS...]``: a course
test file, or any script, run with ``import soko`` bound to the student's
``soko.py`` under the live monitor (:func:`conformance.live.monitor.monitored`).

* a file with an ``if __name__ == "__main__":`` block (a course's
  ``soko_test.py`` calling ``unittest.main()`` or its own runner, a game
  script) runs as ``python FILE ARGS...`` would run it;
* otherwise a file of ``test_*`` functions or ``unittest.TestCase`` classes
  runs under pytest (``ARGS`` go to pytest).

The student's code runs in this process, as the file would run it without
the monitor. Exit status: the file's own (pytest's, or the script's exit
code; 1 when it stops on an uncaught exception); 2 for bad arguments (no such
file, no ``soko.py``, a ``soko.py`` that cannot be imported).
"""

from __future__ import annotations

import argparse
import ast
import os
import runpy
import sys
import traceback
from pathlib import Path
from typing import Sequence
from conformance.live.monitor import monitored
from conformance.checking.targets import BadTarget
from conformance.translations import (
    LANGUAGES, _, language_from_argv, n_, set_language, speak_argparse,
)

PROG = "python -m conformance monitor"



def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    speak_argparse()
    p = argparse.ArgumentParser(
        prog=prog,
        description=_("Run a test file or a script with 'import soko' bound to the student's "
                      "soko.py, every call checked by the spec (seed 002) as it happens: the "
                      "first call that departs raises an error naming the rule broken. Runs the "
                      "student's code in this process (no sandbox): for your own code."))
    p.add_argument("file", metavar="TEST_OR_SCRIPT",
                   help=_("a test file (unittest or pytest style, e.g. soko_test.py) or a script "
                          "that does 'import soko'"))
    p.add_argument("--impl", metavar="SOKO_PY",
                   help=_("the soko.py to monitor (default: the soko.py next to the file, else "
                          "the one in the current folder)"))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--fast", dest="every_cell", action="store_false",
                      help=_("the default: a grid is compared where the file reads it, and each "
                             "mover on the cells the move can change; a call that departs is "
                             "named when its grid is read (docs/monitor.md, Cost)"))
    mode.add_argument("--every-cell", dest="every_cell", action="store_true",
                      help=_("compare every cell of the grid each crear_grilla and mover returns, "
                             "at the call (slower: the cost grows with the grid)"))
    p.add_argument("--support", metavar="DIR", default=None,
                   help=_("a folder of the course's own files (such as gamelib.py): first on "
                          "the import path of the student's soko.py and of the file (the "
                          "course's file wins a name clash)"))
    p.add_argument("--lang", choices=LANGUAGES, default=None,
                   help=_("the language of the monitor's errors and lines: es or en (default: "
                          "the locale's)"))
    p.set_defaults(every_cell=False)
    p.epilog = _("Any other arguments go to the script (or to pytest), in their order; "
                 "after '--', all of them.")
    return p


def find_impl(test: Path, impl: str | None) -> Path:
    """The ``soko.py`` to monitor; ``ValueError`` (one line) when none."""
    if impl is not None:
        path = Path(impl).expanduser()
        if not path.exists():
            raise ValueError(f"--impl {impl}: no such file or folder")
        return path
    for folder in (test.resolve().parent, Path.cwd()):
        if (folder / "soko.py").is_file():
            return folder / "soko.py"
    raise ValueError(_("no soko.py next to {file} nor in the current folder: name it with "
                       "--impl PATH").format(file=test))


def style(source: str) -> str:
    """``"script"`` (it has a ``__main__`` block, or no tests) or ``"pytest"``
    (``test_*`` functions or test classes, and no ``__main__`` block)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "script"         # python reports it, as it would without the monitor
    tests = False
    for node in tree.body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            return "script"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            tests = True
        if isinstance(node, ast.ClassDef) and (node.name.startswith("Test") or any(
                "TestCase" in ast.unparse(b) for b in node.bases)):
            tests = True
    return "pytest" if tests else "script"


def _run_script(path: Path, args: list[str]) -> int:
    sys.argv = [str(path), *args]
    sys.path.insert(0, str(path.resolve().parent))
    try:
        runpy.run_path(str(path), run_name="__main__")
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1
    except Exception as e:      # noqa: BLE001 - as python prints it, without our frames
        print(_students_traceback(e), end="", file=sys.stderr)
        return 1
    return 0


def _students_traceback(e: BaseException) -> str:
    ours = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))),  # the conformance package os.path.abspath(runpy.__file__),
            "<frozen runpy>")
    lines = []
    for line in traceback.format_exception(type(e), e, e.__traceback__):
        if line.startswith('  File "') and line[8:].startswith(ours):
            continue
        lines.append(line)
    return "".join(lines)


def _run_pytest(path: Path, args: list[str]) -> int:
    import pytest       # only for a pytest file (its import: 0.14 s, python -X importtime)
    return int(pytest.main([str(path), "-p", "no:cacheprovider", *args]))


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ours, theirs = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv \
        else (argv, [])
    language_from_argv(ours)            # before the parser: its --help speaks it too
    try:
        args, rest = build_parser(prog).parse_known_args(ours)
    except SystemExit as e:     # argparse printed its message
        return int(e.code or 0)
    args.args = rest + theirs

    set_language(args.lang)
    test = Path(args.file)
    try:
        if not test.is_file():
            raise ValueError(_("{file}: no such file").format(file=args.file))
        source = test.read_text(encoding="utf-8", errors="replace")
        impl = find_impl(test, args.impl)
        support = None
        if args.support is not None:
            if not Path(args.support).expanduser().is_dir():
                raise ValueError(_("--support {folder}: not a folder").format(
                    folder=args.support))
            support = str(Path(args.support).expanduser().resolve())
        soko = monitored(impl, every_cell=args.every_cell, support=support)
    except (ValueError, BadTarget) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    monitor = soko.__monitor__
    sys.modules["soko"] = soko
    if support is not None:         # the course's test imports them too
        sys.path.insert(0, support)
    kind = style(source)
    print(f"{prog}: " + (_("{file} (pytest) with 'import soko' = {impl}, every call checked by "
                           "the spec of seed 002, in this process (docs/monitor.md)")
                         if kind == "pytest" else
                         _("{file} (as a script) with 'import soko' = {impl}, every call "
                           "checked by the spec of seed 002, in this process "
                           "(docs/monitor.md)")).format(file=test, impl=impl), file=sys.stderr)
    status = _run_pytest(test, args.args) if kind == "pytest" else _run_script(test, args.args)
    print(f"{prog}: {summary(monitor.stats, monitor.broken)}", file=sys.stderr)
    for line in monitor.loose:
        print(f"{prog}: " + _("accepted: {line}").format(line=line), file=sys.stderr)
    return status


def summary(stats: dict[str, int], broken: Sequence[str | None] = ()) -> str:
    """One line: calls checked, departures (and the rules they broke), the
    callers' faults, unchecked calls."""
    rules = ", ".join(dict.fromkeys(r or "?" for r in broken))
    n = stats["checked"]
    parts = [n_("{n} call checked against the spec", "{n} calls checked against the spec",
                n).format(n=n),
             _("no departure") if not stats["departures"]
             else n_("{n} departure (rules broken: {rules})", "{n} departures (rules broken: "
                     "{rules})", stats["departures"]).format(n=stats["departures"], rules=rules)]
    if stats["callers_faults"]:
        parts.append(n_("{n} call broke a precondition (the caller's fault; passed unchecked)",
                        "{n} calls broke a precondition (the caller's fault; passed unchecked)",
                        stats["callers_faults"]).format(n=stats["callers_faults"]))
    if stats["unchecked"]:
        parts.append(n_("{n} call on grids the spec has no reference for (passed unchecked)",
                        "{n} calls on grids the spec has no reference for (passed unchecked)",
                        stats["unchecked"]).format(n=stats["unchecked"]))
    return "; ".join(parts)
