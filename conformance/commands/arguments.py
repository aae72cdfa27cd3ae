"""Command-line arguments shared by the commands that check (``python -m
conformance`` and ``grade``): the run options and their parsing into a
:class:`~conformance.checking.checks.RunOptions`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

from conformance import profiles
from conformance.machines.budget import DEFAULT_BUDGET
from conformance.checking.checks import EXIT_BAD, RunOptions
from conformance.sandbox.box import DEFAULT_MEMORY_MB, DEFAULT_STORAGE_MB, DEFAULT_TIMEOUT
from conformance.checking.targets import DIRECTIONS
from conformance.translations import LANGUAGES, _, set_language


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a whole number: {value}").format(value=repr(text))) from None
    if value < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1: {value}").format(value=text))
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a number: {value}").format(value=repr(text))) from None
    if not value > 0:
        raise argparse.ArgumentTypeError(_("must be greater than 0: {value}").format(value=text))
    return value


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options shared by the check command and ``grade``."""
    parser.add_argument("--profile", choices=profiles.names(),
                        help=_("the interface to check (default: detected from the operations "
                               "the target provides; aed2 for a folder holding aed2_Juego.h; "
                               "prolog for a .pro file or a folder holding one that defines "
                               "sokoban/1)"))
    parser.add_argument("--max-examples", type=positive_int, default=100, metavar="N",
                        help=_("random examples per profile (default: %(default)s)"))
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help=_("random seed for the examples (default: a fresh one, printed "
                               "with the verdict)"))
    parser.add_argument("--directions", choices=DIRECTIONS, default="ours",
                        help=_("the target's direction convention: 'ours' (y grows south, "
                               "north = (0, -1)) or 'seed001' (y grows north, Norte = (0, 1)); "
                               "see docs/conformance-runner.md"))
    parser.add_argument("--timeout", type=positive_float, default=DEFAULT_TIMEOUT,
                        metavar="SECONDS", help=_("time limit per call into the target, in "
                          "CPU time (waiting for a core on a loaded machine does not count; a "
                          "call still ends after 10 times as long): default %(default)s"))
    parser.add_argument("--budget", type=positive_float, default=DEFAULT_BUDGET,
                        metavar="SECONDS", help=_("time for the whole check of a target, opening "
                          "it included; when it runs out the check stops and a target that "
                          "did not depart by then is 'not fully checked' (exit status 3; its "
                          "rules not refuted keep their points) (default: %(default)g)"))
    parser.add_argument("--budget-is-failure", action="store_true",
                        help=_("a check that runs out of its --budget fails (exit status 1; "
                               "the rules it did not reach earn no point)"))
    parser.add_argument("--memory", type=positive_int, default=DEFAULT_MEMORY_MB, metavar="MB",
                        help=_("memory limit of the target's process (default: %(default)s)"))
    parser.add_argument("--storage", type=positive_int, default=DEFAULT_STORAGE_MB, metavar="MB",
                        help=_("what a sandboxed target may store, in its /tmp and working "
                               "folder together (default: %(default)s)"))
    parser.add_argument("--std", default="c++17", metavar="STD",
                        help=_("C++ targets: the language standard given to g++ "
                               "(default: %(default)s)"))
    parser.add_argument("--no-sanitize", dest="sanitize", action="store_false",
                        help=_("C++ targets: build without AddressSanitizer and "
                               "UndefinedBehaviorSanitizer"))
    parser.add_argument("--strict-types", action="store_true",
                        help=_("an answer of the right meaning but not the seed's type (None or "
                               "0 for False, a list for dimensiones' tuple) is a departure, not a "
                               "warning"))
    parser.add_argument("--robustness", action="store_true",
                        help=_("also play inputs beyond the seed's stated domain (soko: ragged "
                               "or unevenly padded rows, fewer boxes than goals); findings are "
                               "warnings in their own report section, never a departure"))
    parser.add_argument("--no-localize", dest="localize", action="store_false",
                        help=_("after a departure, do not look for the lines of the target's "
                               "own files most likely at fault (\"Where to look\"; Python "
                               "targets and Prolog programs)"))
    add_support_option(parser)
    add_lang_option(parser)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--in-process", dest="in_process", action="store_const", const=True,
                       default=None, help=_("run the target in this process (trusted code only: "
                         "no time, memory or output limits)"))
    where.add_argument("--sandbox", dest="in_process", action="store_const", const=False,
                       help=_("run even our own implementation in a child process"))


def support_folder(text: str) -> str:
    """``--support DIR``'s value: an existing folder, made absolute."""
    folder = Path(text).expanduser()
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(_("not a folder: {value}").format(value=repr(text)))
    return str(folder.resolve())


def add_support_option(parser: argparse.ArgumentParser) -> None:
    """``--support DIR``: every command that opens a target takes it."""
    parser.add_argument("--support", metavar="DIR", default=None, type=support_folder,
                        help=_("a folder of the course's own files (a library handed out with "
                               "the assignment, such as gamelib.py), copied read-only into "
                               "every submission's box beside its files; on a name clash the "
                               "course's file wins, except the checked file itself"))


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    """``--lang es|en``: every command that reports takes it."""
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help=_("the language of the reports, warnings and errors: es (Spanish) "
                               "or en (English); default: the locale's (LC_ALL, LC_MESSAGES, "
                               "LANG), English unless it is Spanish"))


def options_from(args: argparse.Namespace) -> RunOptions:
    return RunOptions(max_examples=args.max_examples, seed=args.seed,
                      directions=args.directions, timeout=args.timeout,
                      memory_mb=args.memory, storage_mb=args.storage,
                      in_process=args.in_process, std=args.std,
                      sanitize=args.sanitize, strict_types=args.strict_types,
                      robustness=args.robustness, budget=args.budget,
                      budget_is_failure=args.budget_is_failure, support=args.support,
                      localize=getattr(args, "localize", True), lang=set_language(args.lang))


def parse_or_status(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace | int:
    try:
        return parser.parse_args(list(argv))
    except SystemExit as e:                 # --help (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else EXIT_BAD
