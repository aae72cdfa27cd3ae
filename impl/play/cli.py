"""``python -m impl play [FILE|COLLECTION] [--level N] [--fast]``.

Exit status: 0 the player quit; 1 an unexpected error (the terminal is
restored and the error printed in one line); 2 bad arguments, a bad file or
level number, or no terminal to play in; 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback

from impl.translations import _, n_
from speech import language_from_argv, speak_argparse


PROG = "python -m impl play"
DEFAULT_COLLECTION = "tutorial"


class UsageError(Exception):
    """Bad input from the user: one line on stderr, exit status 2."""


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    from .hint import DEFAULT_HINT_TIME

    speak_argparse()
    p = argparse.ArgumentParser(
        prog=prog,
        description=_("Play Sokoban in the terminal on impl (seed 001's game: "
                      "winning a level moves on to the next). Contracts are on "
                      "(teaching mode) unless --fast. 'sokoban play TARGET [FILE|COLLECTION]' "
                      "plays a student's implementation instead (a soko.py, a tad or extendido "
                      "module, a C++ aed2 folder, a Prolog program; where sokoban check runs "
                      "it), the spec beside it: at the first action where they differ, the "
                      "game stops on the rule broken."))
    p.add_argument("file", metavar="FILE|COLLECTION", nargs="?", default=None,
                   help=_("a level file (XSB/SOK or Prolog facts) or a bundled collection "
                          "(microban, seed003, seed002, tutorial; default {default}; "
                          "for a TARGET: microban for a soko.py, seed003 for a Prolog program, "
                          "else tutorial)").format(default=DEFAULT_COLLECTION))
    p.add_argument("--level", "-l", metavar="N|TITLE", default="1",
                   help=_("start at this level: its place in the file (from 1; default 1) "
                          "or its title (e.g. 'Nivel 3')"))
    p.add_argument("--fast", action="store_true",
                   help=_("contracts off (SOKOBAN_CONTRACTS=0); default: on"))
    p.add_argument("--profile", metavar="PROFILE", default=None,
                   help=_("with a TARGET: the interface to play it under (soko, extendido, "
                          "tad, aed2, prolog; default: of those sokoban check would check, "
                          "soko, then extendido, then tad)"))
    p.add_argument("--support", metavar="DIR", default=None,
                   help=_("with a TARGET: a folder of the course's own files (such as "
                          "gamelib.py), copied read-only beside it in its box"))
    p.add_argument("--lang", choices=("es", "en"), default=None,
                   help=_("the language of the game's screen and messages, and of a "
                          "TARGET's departure panel: es (Spanish) or en (English); default: "
                          "the locale's"))
    p.add_argument("--hint-time", type=float, metavar="S", default=DEFAULT_HINT_TIME,
                   help=_("seconds the solver may take for a hint (default {default})").format(
                       default=f"{DEFAULT_HINT_TIME:g}"))
    return p


def load(name: str) -> list:
    """The levels of a file or bundled collection (``UsageError`` if none)."""
    import levels

    try:
        found = levels.read_levels(
            name, on_skip=lambda e: print(_("warning: skipped {problem}").format(problem=e),
                                          file=sys.stderr))
    except levels.LevelError as exc:
        raise UsageError(str(exc)) from None
    if not found:
        raise UsageError(_("{name}: holds no levels").format(name=name))
    return found


def check_start(all_levels: list, choice, name: str) -> int:
    """The 0-based index of the level ``choice`` names (a number from 1 or a
    title); ``UsageError`` unless it exists and is playable."""
    import levels
    from levels.names import LevelChoiceError, find_level, level_label

    try:
        index = find_level(all_levels, choice)
    except LevelChoiceError as exc:
        raise UsageError(f"{name}: {exc.problem}") from None
    problems = levels.validate(all_levels[index])
    if problems:
        raise UsageError(_("{name}: {level} cannot be played: {problems}").format(
            name=name, level=level_label(all_levels[index], index), problems="; ".join(problems)))
    return index


def curses_error() -> type:
    """``curses.error`` (a class no code raises when curses is missing)."""
    try:
        import curses
    except ImportError:
        return type("NoCurses", (Exception,), {})
    return curses.error


def main(argv: list[str] | None = None, prog: str = PROG, referee=None) -> int:
    """The game; ``referee``: play a target instead of impl (``sokoban play
    TARGET`` gives one: see :mod:`impl.play.target`)."""
    language_from_argv(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser(prog).parse_args(argv)
    except SystemExit as exc:  # argparse printed its message
        return int(exc.code or 0)
    if args.file is None:
        args.file = DEFAULT_COLLECTION if referee is None else referee.default_levels
    try:
        if args.hint_time <= 0:
            raise UsageError(_("--hint-time must be positive"))
        if args.support is not None and referee is None:
            raise UsageError(_("--support is for 'sokoban play TARGET': impl's own game "
                               "imports no course files"))
        if args.profile is not None and referee is None:
            raise UsageError(_("--profile is for 'sokoban play TARGET': impl's own game has "
                               "no profile to choose"))
        all_levels = load(args.file)
        start = check_start(all_levels, args.level, args.file)
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise UsageError(_("needs a terminal (stdin and stdout must be a tty)"))
        # Before impl's modules are imported: impl.contracts decides once.
        os.environ["SOKOBAN_CONTRACTS"] = "0" if args.fast else "1"
        try:
            import curses  # noqa: F401
        except ImportError:
            raise UsageError(_("the terminal game needs Python's curses module, which this "
                               "Python does not have (on Windows: pip install windows-curses)")
                             ) from None
        from .game import Session
        from .tui import run
        from spec import PreconditionError

        try:
            if referee is not None:
                from .target import TargetSession
                session = TargetSession(all_levels, start, referee)
            else:
                session = Session(all_levels, start, hint_time=args.hint_time)
        except (ValueError, PreconditionError) as exc:
            raise UsageError(_("{name}: cannot be played: {problem}").format(
                name=args.file, problem=exc)) from None
        run(session)
    except UsageError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: " + _("interrupted"), file=sys.stderr)
        return 130
    except curses_error() as exc:
        print(f"{PROG}: " + _("the terminal cannot be used: {problem} (TERM={term})").format(
            problem=exc, term=repr(os.environ.get("TERM"))), file=sys.stderr)
        return 1
    except Exception as exc:  # the terminal is already restored by curses.wrapper
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        print(f"{PROG}: " + _("internal error: {error} (at {where}); please report it").format(
            error=f"{type(exc).__name__}: {exc}", where=f"{frame.filename}:{frame.lineno}"),
            file=sys.stderr)
        return 1
    print(f"{prog}: " + n_("solved {n} level; bye.", "solved {n} levels; bye.",
                           session.solved).format(n=session.solved))
    return 0
