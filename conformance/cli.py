"""``python -m conformance``: check an implementation against the spec.

::

    python -m conformance [TARGET] [--profile P] [--max-examples N] [--seed S]
                          [--json FILE] [--junit FILE] [--directions C]
                          [--timeout SECONDS] [--memory MB] [--in-process | --sandbox]
    python -m conformance grade DIR [--out DIR2] [--force] [--jobs N] ...
    python -m conformance selftest ...

Exit status: 0 every verdict conforms, 1 some target does not conform, 2 a bad
target (not found, cannot be imported, lacks operations) or bad arguments.
With no TARGET (and no ``SOKOBAN_IMPL``) it checks our own implementation:
``impl.extendido`` (profile extendido), ``impl.tad`` (tad) and ``soko`` (soko).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, replace
from typing import Callable, Sequence, TextIO

from conformance.api import PROFILES, Counterexample, Verdict
from conformance.output import verdict_status, write_json, write_junit
from conformance.sandbox import (
    DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, open_target,
)
from conformance.targets import (
    DIRECTIONS, ENV_VAR, BadTarget, DirectionAdapter, ReferenceImport, TargetSpec, bundled_specs,
    detect_profiles, explain_missing, missing_operations, resolve,
)

EXIT_CONFORMS, EXIT_DOES_NOT_CONFORM, EXIT_BAD = 0, 1, 2


@dataclass(frozen=True)
class RunOptions:
    """How to check a target (what the command-line options set)."""

    max_examples: int = 100
    seed: int | None = None
    directions: str = "ours"
    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB
    in_process: bool | None = None          # None: in-process only for our own impl
    groups: tuple[str, ...] | None = None
    replay: str | None = None               # replay this recorded failure instead of searching
    copy_folder: bool = True                # sandbox: copy a file target's whole folder


def engine() -> tuple[Callable[..., Verdict], Callable[[Verdict], str]]:
    """The engine's ``check`` and ``format_verdict`` (imported on first use)."""
    from conformance.engine import check
    from conformance.report import format_verdict
    return check, format_verdict


def _bad(spec_name: str, profile: str | None, message: str, missing=()) -> tuple[Verdict, str]:
    verdict = Verdict(target=spec_name, profile=profile or "?", conforms=False,
                      error=message, missing=list(missing))
    return verdict, message


def _refused(spec_name: str, profile: str | None, message: str) -> tuple[Verdict, str]:
    """A target that imports our implementation: a failure, not a bad target."""
    cx = Counterexample(profile=profile or "?", level_text="", actions=[], step=-1,
                        operation="import", expected="a submission of its own",
                        actual=message, message="imports the reference implementation",
                        report=message)
    verdict = Verdict(target=spec_name, profile=profile or "?", conforms=False,
                      counterexample=cx)
    return verdict, f"{spec_name}: DOES NOT CONFORM: {message}"


def check_target(spec: TargetSpec, profile: str | None, options: RunOptions,
                 target=None) -> list[tuple[Verdict, str]]:
    """Check one target (under ``profile``, or every profile it provides):
    a ``(verdict, report)`` per profile. Never raises for a bad target: that
    is a verdict with ``error`` (and ``missing``) set. ``target``: an already
    open Target for ``spec`` (the caller then closes it)."""
    own = target is None
    if own:
        try:
            target = open_target(spec, in_process=options.in_process, timeout=options.timeout,
                                 memory_mb=options.memory_mb, directions=options.directions,
                                 copy_folder=options.copy_folder)
        except ReferenceImport as e:
            return [_refused(spec.name, profile, str(e))]
        except BadTarget as e:
            message = str(e) if str(e).startswith(spec.name) else f"cannot load {spec.name}: {e}"
            return [_bad(spec.name, profile, message)]
    try:
        if profile is None:
            profiles = detect_profiles(target.has)
            if not profiles:
                return [_bad(spec.name, None, explain_missing(spec.name, target.has))]
        else:
            profiles = [profile]
        results = []
        for p in profiles:
            missing = missing_operations(target.has, p)
            if missing:
                results.append(_bad(spec.name, p, explain_missing(spec.name, target.has, [p]),
                                    missing))
                continue
            results.append(_check_profile(target, p, options))
        return results
    finally:
        if own:
            target.close()


def _check_profile(target, profile: str, options: RunOptions) -> tuple[Verdict, str]:
    check, format_verdict = engine()
    judged = target
    if options.directions != "ours":
        judged = DirectionAdapter(target, profile, options.directions)
    kwargs = dict(max_examples=options.max_examples, seed=options.seed,
                  directions=options.directions)
    if options.groups is not None:
        kwargs["groups"] = list(options.groups)
    start = time.perf_counter()
    if options.replay is not None:
        from conformance.engine import replay
        verdict = replay(judged, profile, options.replay, directions=options.directions)
    else:
        verdict = check(judged, profile, **kwargs)
    if not verdict.seconds:
        verdict = replace(verdict, seconds=time.perf_counter() - start)
    return verdict, format_verdict(verdict)


# ------------------------------------------------------------------ parsing

def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text}")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0: {text}")
    return value


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options shared by the check command and ``grade``."""
    parser.add_argument("--profile", choices=PROFILES,
                        help="the interface to check (default: detected from the operations "
                             "the target provides)")
    parser.add_argument("--max-examples", type=positive_int, default=100, metavar="N",
                        help="random examples per profile (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed for the random examples (default: a fresh one, printed "
                             "with the verdict)")
    parser.add_argument("--directions", choices=DIRECTIONS, default="ours",
                        help="the target's direction convention: 'ours' (y grows south, "
                             "north = (0, -1)) or 'seed001' (y grows north, Norte = (0, 1)); "
                             "see docs/conformance-runner.md")
    parser.add_argument("--timeout", type=positive_float, default=DEFAULT_TIMEOUT,
                        metavar="SECONDS", help="time limit per call into the target "
                        "(default: %(default)s)")
    parser.add_argument("--memory", type=positive_int, default=DEFAULT_MEMORY_MB, metavar="MB",
                        help="memory limit of the target's process (default: %(default)s)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--in-process", dest="in_process", action="store_const", const=True,
                       default=None, help="run the target in this process (trusted code only: "
                       "no time, memory or output limits)")
    where.add_argument("--sandbox", dest="in_process", action="store_const", const=False,
                       help="run even our own implementation in a child process")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m conformance",
        description="Check a Sokoban implementation against the executable specification. "
                    "Subcommands: 'grade DIR' (every submission in DIR), 'selftest' (the "
                    "suite against its mutants).",
        epilog=f"TARGET: a .py file, a folder (package, or holding soko.py), module:object, "
               f"a module, or an entry point of group sokoban.implementations; default: "
               f"${ENV_VAR}, else our own implementation. Exit status: 0 conforms, "
               f"1 does not conform, 2 bad target or arguments.")
    parser.add_argument("target", nargs="?", metavar="TARGET", help="what to check")
    add_run_options(parser)
    parser.add_argument("--replay", metavar="JSON", help="replay exactly one recorded failure "
                        "(the JSON a report's replay command gives, or a file holding it)")
    parser.add_argument("--json", metavar="FILE", help="also write the verdicts as JSON")
    parser.add_argument("--junit", metavar="FILE", help="also write the verdicts as JUnit XML")
    return parser


def options_from(args: argparse.Namespace) -> RunOptions:
    return RunOptions(max_examples=args.max_examples, seed=args.seed,
                      directions=args.directions, timeout=args.timeout,
                      memory_mb=args.memory, in_process=args.in_process)


def parse_or_status(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace | int:
    try:
        return parser.parse_args(list(argv))
    except SystemExit as e:                 # --help (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else EXIT_BAD


# -------------------------------------------------------------------- main

def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out = out or sys.stdout
    if argv[:1] == ["grade"]:
        from conformance.grade import main as grade_main
        return grade_main(argv[1:], out=out)
    if argv[:1] == ["selftest"]:
        try:
            from conformance.selftest import main as selftest_main
        except ImportError as e:
            print(f"error: the selftest is not available ({e})", file=sys.stderr)
            return EXIT_BAD
        return selftest_main(argv[1:])
    args = parse_or_status(build_parser(), argv)
    if isinstance(args, int):
        return args
    return run(args, out)


def _replay_text(value: str) -> str:
    """The replay JSON: the value itself, or the text of the file it names."""
    if not value.lstrip().startswith("{") and os.path.isfile(value):
        with open(value, encoding="utf-8") as f:
            return f.read()
    return value


def _replay_profile(text: str) -> str | None:
    try:
        profile = json.loads(text).get("profile")
    except (ValueError, AttributeError):
        return None                 # the engine explains what is wrong with it
    return profile if profile in PROFILES else None


def run(args: argparse.Namespace, out: TextIO) -> int:
    try:
        spec = resolve(args.target)
    except BadTarget as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_BAD
    options = options_from(args)
    if args.replay is not None:
        try:
            text = _replay_text(args.replay)
        except OSError as e:
            print(f"error: cannot read {args.replay}: {e.strerror}", file=sys.stderr)
            return EXIT_BAD
        options = replace(options, replay=text)
        if args.profile is None:
            args.profile = _replay_profile(text)
    if spec is None:
        jobs = [(s, p) for s, p in bundled_specs() if args.profile in (None, p)]
        print("checking our own implementation: "
              + ", ".join(f"{s.name} ({p})" for s, p in jobs), file=out)
    else:
        jobs = [(spec, args.profile)]
    results: list[tuple[Verdict, str]] = []
    for s, p in jobs:
        for verdict, report in check_target(s, p, options):
            results.append((verdict, report))
            stream = sys.stderr if verdict_status(verdict) == "bad target" else out
            prefix = "error: " if stream is sys.stderr else ""
            print(f"{prefix}{report.rstrip()}", file=stream)
            out.flush()
    verdicts = [v for v, _ in results]
    if len(verdicts) > 1:
        counts = {s: sum(1 for v in verdicts if verdict_status(v) == s)
                  for s in ("conforms", "does not conform", "bad target")}
        print(f"\n{len(verdicts)} checked: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n),
              file=out)
    try:
        if args.json:
            write_json(verdicts, args.json)
        if args.junit:
            write_junit(verdicts, args.junit, [r for _, r in results])
    except OSError as e:
        print(f"error: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return EXIT_BAD
    return exit_status(verdicts)


def exit_status(verdicts: Sequence[Verdict]) -> int:
    if any(verdict_status(v) == "bad target" for v in verdicts):
        return EXIT_BAD
    return EXIT_CONFORMS if all(v.conforms for v in verdicts) else EXIT_DOES_NOT_CONFORM
