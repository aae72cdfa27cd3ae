"""``python -m conformance``: check an implementation against the spec.

::

    python -m conformance [TARGET] [--profile P] [--max-examples N] [--seed S]
                          [--json FILE] [--junit FILE] [--directions C]
                          [--timeout SECONDS] [--memory MB] [--in-process | --sandbox]
    python -m conformance grade DIR [--out DIR2] [--force] [--jobs N] ...
    python -m conformance selftest ...
    python -m conformance monitor TEST_OR_SCRIPT [--impl soko.py]   (conformance.commands.monitor_run)

Exit status: 0 every verdict conforms, 1 some target does not conform, 2 a bad
target (not found, cannot be imported, lacks operations) or bad arguments, 3
not fully checked: the time budget (``--budget``) ran out before the check
found any departure (1 with ``--budget-is-failure``).
With no TARGET (and no ``SOKOBAN_IMPL``) it checks our own implementation:
``impl.extendido`` (profile extendido), ``impl.tad`` (tad) and ``soko`` (soko).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import time
from dataclasses import replace
from typing import Sequence, TextIO

from conformance import profiles
from conformance.api import Verdict
from conformance.commands.arguments import add_run_options, options_from, parse_or_status
from conformance.machines.budget import OutOfBudget, clear_progress, process_start, progress_line
from conformance.checking.checks import (
    EXIT_BAD, RunOptions, check_by_rules, check_target, exit_status, new_budget,
    out_of_time_verdict,
)
from conformance.reports.output import (
    GRADESCOPE_VISIBILITY, JSON_MARKER, JUNIT_MARKER, check_overwritable, status_count,
    verdict_status, write_gradescope, write_json, write_junit,
)
from conformance.machines.replays import recorded_profile
from conformance.checking.targets import (
    ENV_VAR, BadTarget, bundled_specs, own_spec, resolve,
)
from conformance.sandbox import isolation
from conformance.commands.monitor_run import main as monitor_main
from conformance.commands.grade import main as grade_entry
from conformance.translations import _, language_from_argv, set_language, speak_argparse

#: How the check command names itself when started as ``python -m conformance``.
PROG = "python -m conformance"


def _where_it_runs(options: RunOptions) -> str | None:
    """Where a target given by the user runs, for the line before its check
    (``None`` when the sandbox cannot start: the check says why)."""
    if options.in_process:
        return _("in this process, without a sandbox (--in-process)")
    try:
        level = isolation.isolation_level()
    except isolation.IsolationError:
        return None
    return _("in a sandbox, isolation level {level} (docs/conformance-runner.md)").format(
        level=level)


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    speak_argparse()
    parser = argparse.ArgumentParser(
        prog=prog,
        description=_("Check a Sokoban implementation against the executable specification. "
                      "Subcommands: 'grade DIR' (every submission in DIR), 'selftest' (the "
                      "suite against its mutants)."),
        epilog=_("TARGET: a .py file, a folder (package, or holding soko.py), module:object, "
                 "a module, or an entry point of group sokoban.implementations; default: "
                 "${variable}, else our own implementation. Exit status: 0 conforms, "
                 "1 does not conform, 2 bad target or arguments, 3 not fully checked "
                 "(the time budget ran out first, no departure found).").format(
                     variable=ENV_VAR))
    parser.add_argument("target", nargs="?", metavar="TARGET", help=_("what to check"))
    add_run_options(parser)
    parser.add_argument("--replay", metavar="JSON", help=_("replay exactly one recorded failure "
                          "(the JSON a report's replay command gives, or a file holding it)"))
    parser.add_argument("--json", metavar="FILE", help=_("also write the verdicts as JSON"))
    parser.add_argument("--junit", metavar="FILE", help=_("also write the verdicts as JUnit XML"))
    parser.add_argument("--gradescope", metavar="FILE",
                        help=_("check rule by rule of the seed and write Gradescope's "
                               "autograder results.json (a test per rule, 1 point each)"))
    parser.add_argument("--gradescope-visibility", choices=GRADESCOPE_VISIBILITY,
                        default="visible", help=_("when students see the tests "
                          "(default: %(default)s)"))
    return parser


# -------------------------------------------------------------------- main

def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         prog: str = PROG) -> int:
    """``python -m conformance [grade|selftest] ...``: parse and dispatch.
    ``prog``: how the command names itself in usage lines and messages (the
    ``sokoban`` command passes ``sokoban check``, and calls
    :func:`grade_main` and :func:`selftest_main` itself)."""
    # From the command line (the arguments are the end of sys.argv), a single
    # target's budget counts from the process's start (Gradescope's own
    # timeout does too); called as a function, from now.
    command = argv is None or (len(argv) > 0 and list(argv) == sys.argv[-len(argv):])
    argv = list(sys.argv[1:] if argv is None else argv)
    out = out or sys.stdout
    if argv[:1] == ["grade"]:
        return grade_main(argv[1:], out=out, prog=f"{prog} grade")
    if argv[:1] == ["selftest"]:
        return selftest_main(argv[1:], prog=f"{prog} selftest")
    if argv[:1] == ["monitor"]:
        return monitor_main(argv[1:], prog=f"{prog} monitor")
    language_from_argv(argv)            # before the parser: its --help speaks it too
    args = parse_or_status(build_parser(prog), argv)
    if isinstance(args, int):
        return args
    return run(args, out, since=process_start() if command else None)


def _replay_text(value: str) -> str:
    """The replay JSON: the value itself, or the text of the file it names."""
    if not value.lstrip().startswith("{") and os.path.isfile(value):
        with open(value, encoding="utf-8") as f:
            return f.read()
    return value


def grade_main(argv: Sequence[str], out: TextIO, prog: str) -> int:
    return grade_entry(argv, out=out, prog=prog)


def selftest_main(argv: Sequence[str], prog: str) -> int:
    # (imported here: an installation without the mutants' data says so
    # instead of failing every command)
    try:
        from conformance.commands.selftest import main as selftest_entry
    except ImportError as e:
        print(_("error: {problem}").format(
            problem=_("the selftest is not available ({why})").format(why=e)), file=sys.stderr)
        return EXIT_BAD
    return selftest_entry(argv, prog=prog)




def run(args: argparse.Namespace, out: TextIO, since: float | None = None) -> int:
    """The check command; a single target's budget counts from ``since``
    (``time.monotonic()``; None: now)."""
    since = time.monotonic() if since is None else since
    set_language(args.lang)             # every message from here on: errors too
    try:
        forced = profiles.get(args.profile) if args.profile is not None else None
        if (forced is not None and not forced.python and args.target is not None
                and (os.path.isdir if forced.folder else os.path.exists)(args.target)):
            spec = own_spec(forced, args.target)     # --profile aed2 on any folder...
        else:
            spec = resolve(args.target)
    except BadTarget as e:
        print(_("error: {problem}").format(problem=e), file=sys.stderr)
        if args.target and os.path.isdir(args.target) and any(
                os.path.isfile(os.path.join(args.target, entry, "soko.py"))
                for entry in os.listdir(args.target)):
            print(_("(a folder of submissions? check them all with: sokoban grade {folder})"
                    ).format(folder=args.target), file=sys.stderr)
        if args.gradescope:     # the student sees why (a misnamed file...)
            verdict = Verdict(target=args.target or "?", profile="?", conforms=False, error=str(e))
            try:
                write_gradescope([(verdict, _("error: {problem}").format(problem=e))],
                                 args.gradescope,
                                 visibility=args.gradescope_visibility)
            except OSError as err:
                print(cannot_write(err), file=sys.stderr)
        return EXIT_BAD
    options = options_from(args)
    problem = None if options.in_process else isolation.asked_problem()
    if problem is not None:         # (the environment's fault, not the target's)
        print(_("error: {problem}").format(problem=problem), file=sys.stderr)
        return EXIT_BAD
    tty = out.isatty() if hasattr(out, "isatty") else False
    if tty:                         # progress on an interactive terminal only
        options = replace(options, progress=progress_line(out))
    try:                                    # before a long check, not after it
        for path, marker in ((args.json, JSON_MARKER), (args.junit, JUNIT_MARKER),
                             (args.gradescope, JSON_MARKER)):
            if path:
                check_overwritable(path, marker)
    except OSError as e:
        print(cannot_write(e), file=sys.stderr)
        return EXIT_BAD
    if args.replay is not None:
        try:
            text = _replay_text(args.replay)
        except OSError as e:
            print(_("error: {problem}").format(problem=_("cannot read {file}: {why}").format(
                file=args.replay, why=e.strerror)), file=sys.stderr)
            return EXIT_BAD
        options = replace(options, replay=text)
        if args.profile is None:
            args.profile = recorded_profile(text, profiles.names())
    if spec is None:
        jobs = [(s, p) for s, p in bundled_specs() if args.profile in (None, p)]
        print(_("checking our own implementation: ")
              + ", ".join(f"{s.name} ({p})" for s, p in jobs), file=out)
    else:
        jobs = [(spec, args.profile)]
        options = replace(options, since=since)
    if args.gradescope and options.seed is None:     # one random seed, recorded
        options = replace(options, seed=random.SystemRandom().randrange(2 ** 32))
    results: list[tuple[Verdict, str]] = []
    start = time.perf_counter()
    for s, p in jobs:
        checked = _check_one(s, p, replace(options, by_rules=bool(args.gradescope)),
                             out, announce=spec is not None)
        if tty:
            clear_progress(out)
        for verdict, report in checked:
            results.append((verdict, report))
            stream = sys.stderr if verdict_status(verdict) == "bad target" else out
            text = report.rstrip()
            print(_("error: {problem}").format(problem=text) if stream is sys.stderr else text,
                  file=stream)
            out.flush()
    verdicts = [v for v, _ in results]
    if len(verdicts) > 1:
        counts = {s: sum(1 for v in verdicts if verdict_status(v) == s)
                  for s in ("conforms", "does not conform", "bad target")}
        print("\n" + _("{n} checked: ").format(n=len(verdicts))
              + ", ".join(status_count(n, s) for s, n in counts.items() if n),
              file=out)
    try:
        if args.json:
            write_json(verdicts, args.json)
        if args.junit:
            write_junit(verdicts, args.junit, [r for _, r in results])
        if args.gradescope:
            write_gradescope(results, args.gradescope, visibility=args.gradescope_visibility,
                             seconds=time.perf_counter() - start)
    except OSError as e:
        print(cannot_write(e), file=sys.stderr)
        return EXIT_BAD
    return exit_status(verdicts, options.budget_is_failure)


def cannot_write(e: OSError) -> str:
    """The error line for a file the command cannot write."""
    return _("error: {problem}").format(problem=_("cannot write {file}: {why}").format(
        file=e.filename, why=e.strerror))


def _check_one(spec, profile: str | None, options: RunOptions, out: TextIO,
               announce: bool) -> list[tuple[Verdict, str]]:
    """Check one target (by rules when ``options.by_rules``), its budget's
    hard deadline armed from ``options.since`` on: what comes before the
    check (``announce``: the line saying where it runs, which may probe the
    machine's isolation) counts too."""
    budget = new_budget(spec, options)      # the check's one budget, armed once, here
    try:
        with budget.armed() if budget is not None else contextlib.nullcontext():
            if announce:
                where = _where_it_runs(options)
                if where:
                    print(_("checking {target} {where}").format(target=spec.name, where=where),
                          file=out)
                    out.flush()
            return (check_by_rules(spec, profile, options, budget=budget) if options.by_rules
                    else check_target(spec, profile, options, budget=budget))
    except OutOfBudget:
        return [out_of_time_verdict(spec, profile, options, budget)]
