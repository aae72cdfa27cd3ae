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
import random
import sys
import time
from dataclasses import dataclass, replace
from typing import Callable, Sequence, TextIO

from conformance.api import (
    ALL_PROFILES,
    BATCH, ESSENTIAL_OPERATIONS, GROUPS, GROUPS_OF_OPERATION, NOT_PROVIDED, PROFILES,
    REQUIRED_OPERATIONS, Counterexample, Verdict,
)
from conformance.output import (
    GRADESCOPE_VISIBILITY, JSON_MARKER, JUNIT_MARKER, check_overwritable, status_count,
    verdict_status,
    write_gradescope, write_json, write_junit,
)
from conformance.sandbox import (
    DEFAULT_MEMORY_MB, DEFAULT_STORAGE_MB, DEFAULT_TIMEOUT, open_target,
)
from conformance.targets import (
    DIRECTIONS, ENV_VAR, BadTarget, DirectionAdapter, ReferenceImport, TargetSpec,
    bundled_specs, cpp_spec,
    detect_profiles, explain_missing, missing_operations, resolve,
)
from sokoban_tad import program_name

EXIT_CONFORMS, EXIT_DOES_NOT_CONFORM, EXIT_BAD = 0, 1, 2


@dataclass(frozen=True)
class RunOptions:
    """How to check a target (what the command-line options set)."""

    max_examples: int = 100
    seed: int | None = None
    directions: str = "ours"
    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB
    storage_mb: int = DEFAULT_STORAGE_MB    # sandbox: what a box may store (/tmp, its folder)
    in_process: bool | None = None          # None: in-process only for our own impl
    groups: tuple[str, ...] | None = None
    replay: str | None = None               # replay this recorded failure instead of searching
    std: str = "c++17"                      # C++ targets: the language standard
    sanitize: bool = True                   # C++ targets: ASan + UBSan when available
    strict_types: bool = False              # None for False, [w, h] for (w, h): departures
    robustness: bool = False                # also inputs beyond the seed's domain (warnings)
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


def _cpp_rules(spec: TargetSpec, profile: str | None) -> tuple[Verdict, str] | None:
    """The bad verdict when profile aed2 and a C++ folder do not go together."""
    if profile == "aed2" and spec.kind != "cpp":
        return _bad(spec.name, profile, f"{spec.name}: profile aed2 is for a folder of C++ "
                                        "sources holding aed2_Juego.h")
    if spec.kind == "cpp" and profile not in (None, "aed2"):
        return _bad(spec.name, profile, f"{spec.name} is a C++ folder: only profile aed2 "
                                        f"applies to it (got --profile {profile})")
    return None


def _open(spec: TargetSpec, profile: str | None, options: RunOptions):
    """``(target, None)``, or ``(None, verdict)`` saying why it cannot be
    opened: a bad target, a C++ build failure, or a submission that imports
    our implementation (a failure, not a bad target)."""
    if spec.kind == "cpp":
        from conformance.aed2.build import BuildError, build
        from conformance.aed2.target import Aed2Target
        try:
            built = build(spec.path, std=options.std, sanitize=options.sanitize)
        except BuildError as e:
            return None, _bad(spec.name, profile, str(e))
        except OSError as e:
            return None, _bad(spec.name, profile, f"{spec.name}: cannot read or build it: {e}")
        return Aed2Target(built, timeout=options.timeout, memory_mb=options.memory_mb,
                          name=spec.name), None
    try:
        return open_target(spec, in_process=options.in_process, timeout=options.timeout,
                           memory_mb=options.memory_mb, directions=options.directions,
                           copy_folder=options.copy_folder,
                           storage_mb=options.storage_mb), None
    except ReferenceImport as e:
        return None, _refused(spec.name, profile, str(e))
    except BadTarget as e:
        message = str(e) if str(e).startswith(spec.name) else f"cannot load {spec.name}: {e}"
        return None, _bad(spec.name, profile, message)


def _profiles(name: str, target, profile: str | None) -> list[str | tuple[Verdict, str]]:
    """Per profile to check (``profile``, or those the target provides, or
    the closest it can be checked under): its name, or the bad verdict
    saying why it cannot be checked."""
    if profile is None:
        profiles = detect_profiles(target.has) or partial_profiles(target.has)[:1]
        if not profiles:
            return [_bad(name, None, explain_missing(name, target.has))]
    else:
        profiles = [profile]
    return [_bad(name, p, explain_missing(name, target.has, [p]), missing_operations(target.has, p))
            if missing_operations(target.has, p) and p not in partial_profiles(target.has) else p
            for p in profiles]


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
    bad = _cpp_rules(spec, profile)
    if bad is not None:
        return [bad]
    if spec.kind == "cpp":
        profile = "aed2"
        options = replace(options, directions="seed001")    # the course's Norte = (0, 1)
    if own:
        target, bad = _open(spec, profile, options)
        if target is None:
            return [bad]
    try:
        return [p if isinstance(p, tuple) else _check_profile(target, p, options)
                for p in _profiles(spec.name, target, profile)]
    finally:
        if own:
            target.close()


def check_groups(spec: TargetSpec, profile: str | None,
                 options: RunOptions) -> list[tuple[str | None, Verdict, str]]:
    """Like :func:`check_target`, one check per operation group of each
    profile: ``(group, verdict, report)``; ``group`` is ``None`` for a target
    that cannot be checked at all (for partial credit: Gradescope)."""
    bad = _cpp_rules(spec, profile)
    if bad is not None:
        return [(None, *bad)]
    if spec.kind == "cpp":
        profile = "aed2"
        options = replace(options, directions="seed001")
    target, bad = _open(spec, profile, options)
    if target is None:
        return [(None, *bad)]
    try:
        results = []
        for p in _profiles(spec.name, target, profile):
            if isinstance(p, tuple):
                results.append((None, *p))
                continue
            for group in GROUPS[p]:
                verdict, report = _check_profile(target, p, replace(options, groups=(group,)))
                results.append((group, verdict, report))
        return results
    finally:
        target.close()


def partial_profiles(has: Callable[[str], bool]) -> list[str]:
    """The profiles the target lacks some operations of but can still be
    checked under (it has their essential ones), closest first."""
    found = [p for p in PROFILES
             if all(has(op) for op in ESSENTIAL_OPERATIONS[p]) and missing_operations(has, p)]
    return sorted(found, key=lambda p: len(missing_operations(has, p)) / len(REQUIRED_OPERATIONS[p]))


class PartialTarget:
    """A target lacking some of a profile's operations, made checkable on the
    rest: it claims every operation, and a missing observer answers
    :data:`~conformance.api.NOT_PROVIDED` (which the engine does not compare)."""

    def __init__(self, target, profile: str):
        self.inner = target
        self.name = target.name
        self.missing = frozenset(missing_operations(target.has, profile))

    def has(self, op: str) -> bool:
        return True

    def call(self, op: str, *args):
        if op != BATCH:
            return self.inner.call(op, *args)
        calls = list(args[0])
        present = [c for c in calls if c[0] not in self.missing]
        answers = iter(self.inner.call(BATCH, present) if present else [])
        return [NOT_PROVIDED if o in self.missing else next(answers) for o, _ in calls]

    def __getattr__(self, name):
        return getattr(self.inner, name)


def checkable_groups(has: Callable[[str], bool], profile: str) -> tuple[str, ...]:
    """The profile's operation groups whose modifiers the target has."""
    lacking = {g for op in missing_operations(has, profile) for g in GROUPS_OF_OPERATION.get(op, ())}
    return tuple(g for g in GROUPS[profile] if g not in lacking)


def _judge(target, profile: str, options: RunOptions) -> Verdict:
    """The engine's verdict on ``target`` (searched, or ``options.replay``
    played), in the options' directions."""
    check, _ = engine()
    judged = target
    if options.directions != "ours":
        judged = DirectionAdapter(target, profile, options.directions)
    kwargs = dict(max_examples=options.max_examples, seed=options.seed,
                  directions=options.directions)
    if options.strict_types:
        kwargs["strict_types"] = True
    if options.robustness:
        kwargs["robustness"] = True
    if options.groups is not None:
        kwargs["groups"] = list(options.groups)
    start = time.perf_counter()
    if options.replay is not None:
        from conformance.engine import replay
        verdict = replay(judged, profile, options.replay, directions=options.directions,
                         strict_types=options.strict_types)
    else:
        verdict = check(judged, profile, **kwargs)
    if not verdict.seconds:
        verdict = replace(verdict, seconds=time.perf_counter() - start)
    return verdict


def _check_profile(target, profile: str, options: RunOptions) -> tuple[Verdict, str]:
    _, format_verdict = engine()
    missing = missing_operations(target.has, profile)
    if missing:
        groups = [g for g in options.groups or GROUPS[profile]
                  if g in checkable_groups(target.has, profile)]
        if not groups:          # the one group asked for needs a missing modifier
            verdict = Verdict(target=target.name, profile=profile, conforms=False,
                              missing=missing)
            return verdict, format_verdict(verdict)
        options = replace(options, groups=tuple(groups))
        target = PartialTarget(target, profile)
    verdict = _judge(target, profile, options)
    if profile == "aed2":       # a C++ target: plain departures first (docs/aed2.md)
        from conformance.aed2 import findings
        verdict = findings.classify(target, verdict, lambda other, replay: _judge(
            other, profile, replace(options, replay=replay)), search=options.replay is None)
    if missing and verdict.error is None:
        verdict = replace(verdict, conforms=False, missing=missing)
    report = format_verdict(verdict)
    if profile == "aed2":
        report = findings.report(verdict, report)
    elif verdict.counterexample is not None:
        from conformance.emit import emit_for
        test = emit_for(verdict.counterexample)
        if test:
            report = (report.rstrip() + "\n\nThe same failure as a test in your own format "
                      "(paste it into your test file; it fails until the bug is fixed):\n\n"
                      + test)
    return verdict, report


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
    parser.add_argument("--profile", choices=ALL_PROFILES,
                        help="the interface to check (default: detected from the operations "
                             "the target provides; aed2 for a folder holding aed2_Juego.h)")
    parser.add_argument("--max-examples", type=positive_int, default=100, metavar="N",
                        help="random examples per profile (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="random seed for the examples (default: a fresh one, printed "
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
    parser.add_argument("--storage", type=positive_int, default=DEFAULT_STORAGE_MB, metavar="MB",
                        help="what a sandboxed target may store, in its /tmp and working "
                             "folder together (default: %(default)s)")
    parser.add_argument("--std", default="c++17", metavar="STD",
                        help="C++ targets: the language standard given to g++ "
                             "(default: %(default)s)")
    parser.add_argument("--no-sanitize", dest="sanitize", action="store_false",
                        help="C++ targets: build without AddressSanitizer and "
                             "UndefinedBehaviorSanitizer")
    parser.add_argument("--strict-types", action="store_true",
                        help="an answer of the right meaning but not the seed's type (None or "
                             "0 for False, a list for dimensiones' tuple) is a departure, not a "
                             "warning")
    parser.add_argument("--robustness", action="store_true",
                        help="also play inputs beyond the seed's stated domain (soko: ragged "
                             "or unevenly padded rows, fewer boxes than goals); findings are "
                             "warnings in their own report section, never a departure")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--in-process", dest="in_process", action="store_const", const=True,
                       default=None, help="run the target in this process (trusted code only: "
                       "no time, memory or output limits)")
    where.add_argument("--sandbox", dest="in_process", action="store_const", const=False,
                       help="run even our own implementation in a child process")


def _where_it_runs(options: RunOptions) -> str | None:
    """Where a target given by the user runs, for the line before its check
    (``None`` when the sandbox cannot start: the check says why)."""
    if options.in_process:
        return "in this process, without a sandbox (--in-process)"
    from conformance import isolation
    try:
        level = isolation.isolation_level()
    except isolation.IsolationError:
        return None
    return f"in a sandbox, isolation level {level} (docs/conformance-runner.md)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=program_name("python -m conformance"),
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
    parser.add_argument("--gradescope", metavar="FILE",
                        help="check each operation group apart and write Gradescope's "
                             "autograder results.json (a test per group, 1 point each)")
    parser.add_argument("--gradescope-visibility", choices=GRADESCOPE_VISIBILITY,
                        default="visible", help="when students see the tests "
                        "(default: %(default)s)")
    return parser


def options_from(args: argparse.Namespace) -> RunOptions:
    return RunOptions(max_examples=args.max_examples, seed=args.seed,
                      directions=args.directions, timeout=args.timeout,
                      memory_mb=args.memory, storage_mb=args.storage,
                      in_process=args.in_process, std=args.std,
                      sanitize=args.sanitize, strict_types=args.strict_types,
                      robustness=args.robustness)


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
    return profile if profile in ALL_PROFILES else None


def run(args: argparse.Namespace, out: TextIO) -> int:
    try:
        if args.profile == "aed2" and args.target is not None and os.path.isdir(args.target):
            spec = cpp_spec(args.target)
        else:
            spec = resolve(args.target)
    except BadTarget as e:
        print(f"error: {e}", file=sys.stderr)
        if args.target and os.path.isdir(args.target) and any(
                os.path.isfile(os.path.join(args.target, entry, "soko.py"))
                for entry in os.listdir(args.target)):
            print(f"(a folder of submissions? check them all with: sokoban grade "
                  f"{args.target})", file=sys.stderr)
        if args.gradescope:     # the student sees why (a misnamed file...)
            verdict = Verdict(target=args.target or "?", profile="?", conforms=False, error=str(e))
            try:
                write_gradescope([(None, verdict, f"error: {e}")], args.gradescope,
                                 visibility=args.gradescope_visibility)
            except OSError as err:
                print(f"error: cannot write {err.filename}: {err.strerror}", file=sys.stderr)
        return EXIT_BAD
    options = options_from(args)
    try:                                    # before a long check, not after it
        for path, marker in ((args.json, JSON_MARKER), (args.junit, JUNIT_MARKER),
                             (args.gradescope, JSON_MARKER)):
            if path:
                check_overwritable(path, marker)
    except OSError as e:
        print(f"error: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return EXIT_BAD
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
        where = _where_it_runs(options)
        if where:
            print(f"checking {spec.name} {where}", file=out)
    if args.gradescope and options.seed is None:     # one random seed for every group
        options = replace(options, seed=random.SystemRandom().randrange(2 ** 32))
    results: list[tuple[Verdict, str]] = []
    by_group: list[tuple[str | None, Verdict, str]] = []
    start = time.perf_counter()
    for s, p in jobs:
        if args.gradescope:
            by_group += check_groups(s, p, options)
            checked = [(v, r) for _, v, r in by_group[len(results):]]
        else:
            checked = check_target(s, p, options)
        for verdict, report in checked:
            results.append((verdict, report))
            stream = sys.stderr if verdict_status(verdict) == "bad target" else out
            prefix = "error: " if stream is sys.stderr else ""
            print(f"{prefix}{report.rstrip()}", file=stream)
            out.flush()
    verdicts = [v for v, _ in results]
    if len(verdicts) > 1:
        counts = {s: sum(1 for v in verdicts if verdict_status(v) == s)
                  for s in ("conforms", "does not conform", "bad target")}
        print(f"\n{len(verdicts)} checked: "
              + ", ".join(status_count(n, s) for s, n in counts.items() if n),
              file=out)
    try:
        if args.json:
            write_json(verdicts, args.json)
        if args.junit:
            write_junit(verdicts, args.junit, [r for _, r in results])
        if args.gradescope:
            write_gradescope(by_group, args.gradescope, visibility=args.gradescope_visibility,
                             seconds=time.perf_counter() - start)
    except OSError as e:
        print(f"error: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return EXIT_BAD
    return exit_status(verdicts)


def exit_status(verdicts: Sequence[Verdict]) -> int:
    if any(verdict_status(v) == "bad target" for v in verdicts):
        return EXIT_BAD
    return EXIT_CONFORMS if all(v.conforms for v in verdicts) else EXIT_DOES_NOT_CONFORM
