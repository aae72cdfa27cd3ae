"""``python -m conformance selftest``: prove the suite's power.

Runs the conformance check on every mutant of :mod:`conformance.mutants`
(each must be caught) and on the correct implementations (``impl.tad``,
``impl.extendido``, our ``soko``, and every ``student_*`` file, written in
the styles real students use: none may be flagged), with the default budget,
and prints the kill rate and the false alarms. Students and mutants run as
PATH targets (their file; its folder goes on ``sys.path`` so a mutant finds
its base). Profile ``aed2``: our C++ implementation
(``conformance/profiles/aed2/reference``) and its mutants (:mod:`conformance.profiles.aed2.mutants`),
built with g++ (skipped, and said so, when g++ is missing). Profile
``prolog``: our Prolog program in seed 003's style, the same written the
seed's slower way (both must conform) and its mutants
(:mod:`conformance.profiles.prolog.mutants`), run by swipl (skipped, and said so,
without it). Exit status 0 iff every mutant is caught and no correct
implementation is flagged.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from dataclasses import dataclass

from conformance import mutants, profiles
from conformance.api import Verdict
from conformance.checking import engine
from conformance.checking.checks import RunOptions, check_target
from conformance.checking.targets import BadTarget, own_spec, resolve
from conformance.reports.report import write_reports
from conformance.sandbox.box import open_target

#: The correct implementations (target, profile) that must conform.
CORRECT = (("impl.tad", "tad"), ("impl.extendido", "extendido"), ("soko", "soko"))
DEFAULT_SEED = 0


@dataclass
class Outcome:
    name: str
    profile: str
    should_conform: bool
    verdict: Verdict | None
    error: str = ""

    @property
    def ok(self) -> bool:
        if self.verdict is None or self.verdict.error:
            return False
        return self.verdict.conforms == self.should_conform


def _own(target: str):
    """``(profile, name)`` of a target of a language of its own
    (``cpp:<name>``, ``prolog:<name>``: the profile's kind, then its
    example's name), else None."""
    kind, sep, name = target.partition(":")
    profile = profiles.of_kind(kind) if sep else None
    return (profile, name) if profile is not None and profile.examples is not None else None


def target_name(target: str) -> str:
    """What a target is called in the table: a module's name, a file's stem
    (``cpp:<name>`` is listed as ``cpp_<name>``)."""
    own = _own(target)
    if own is not None:
        return f"{own[0].kind}_{own[1]}"
    return target.rsplit("/", 1)[-1].removesuffix(".py")


def subjects(only: str | None = None) -> list[tuple[str, str, bool]]:
    """``(target, profile, should_conform)`` for every correct implementation
    and every mutant (``only``: those whose name contains it; not the folder);
    a language's own (C++, Prolog) when its tool is installed."""
    rows = [(t, p, True) for t, p in CORRECT]
    rows += [(str(mutants.path(m)), p, True) for m, p in mutants.STUDENTS.items()]
    rows += [(str(mutants.path(m)), p, False) for m, p in mutants.MUTANTS.items()]
    for language in profiles.languages():
        if language.examples is not None and shutil.which(language.tool) is not None:
            rows += [(f"{language.kind}:{name}", language.name, should)
                     for name, should in language.examples()]
    return [r for r in rows if only is None or only in target_name(r[0])]


def materialize(target: str):
    """The folder (or file) of one of a language's own targets, written
    (``cpp:<name>``, ``prolog:<name>``); None for a Python target, which is
    its own path or module. Raises OSError, ValueError or KeyError."""
    own = _own(target)
    return None if own is None else own[0].materialize(own[1])


def run_own(target: str, should_conform: bool, *, max_examples: int, seed: int) -> Outcome:
    """Write and check one of a language's own targets (our C++ reference or
    a mutant of it, our Prolog program, its variants or its mutants)."""
    profile = _own(target)[0]
    try:
        folder = materialize(target)
    except (OSError, ValueError, KeyError) as e:
        return Outcome(target_name(target), profile.name, should_conform, None, str(e))
    verdict, _ = check_target(own_spec(profile, folder), profile.name,
                              RunOptions(max_examples=max_examples, seed=seed))[0]
    return Outcome(target_name(target), profile.name, should_conform, verdict)


def run_one(target: str, profile: str, should_conform: bool, *, max_examples: int,
            seed: int, sandbox: bool = False) -> Outcome:
    if _own(target) is not None:
        return run_own(target, should_conform, max_examples=max_examples, seed=seed)
    name = target_name(target)
    try:
        t = open_target(resolve(target), in_process=not sandbox)
    except BadTarget as e:
        return Outcome(name, profile, should_conform, None, str(e))
    try:
        verdict = engine.check(t, profile, max_examples=max_examples, seed=seed)
    finally:
        t.close()
    write_reports(verdict)      # its report, as a check writes it at its end
    return Outcome(name, profile, should_conform, verdict)


#: How the command names itself when started as ``python -m conformance selftest``.
PROG = "python -m conformance selftest"


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    parser = argparse.ArgumentParser(prog=prog,
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-examples", type=int, default=100,
                        help="the budget per target (default: check's default, 100)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help="random seed (default: %(default)s)")
    parser.add_argument("--sandbox", action="store_true",
                        help="run the mutants in the sandbox (by file path), as a submission would")
    parser.add_argument("--only", help="only the targets whose name contains this")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print the full report of every caught mutant")
    args = parser.parse_args(argv)
    for language in profiles.languages():
        if language.examples is not None and shutil.which(language.tool) is None:
            print(f"note: {language.tool} was not found: the targets of profile "
                  f"{language.name} ({language.what}) are not checked (install "
                  f"{language.tool} to include them)")
    outcomes = []
    print(f"{'target':40} {'profile':10} {'expected':9} {'result':12} {'examples':>8} "
          f"{'seconds':>7}  departs at")
    for target, profile, should in subjects(args.only):
        start = time.monotonic()
        o = run_one(target, profile, should, max_examples=args.max_examples, seed=args.seed,
                    sandbox=args.sandbox and not should)
        outcomes.append(o)
        v = o.verdict
        result = ("ERROR" if v is None or v.error else "conforms" if v.conforms else "caught")
        where = ""
        if v is not None and v.counterexample is not None:
            where = v.counterexample.operation
        if v is not None and v.error:
            where = v.error.splitlines()[0]
        if o.error:
            where = o.error
        mark = "" if o.ok else "  <-- WRONG"
        examples = v.stats.get("examples", 0) if v else 0
        print(f"{o.name:40} {profile:10} {'conform' if should else 'caught':9} {result:12} "
              f"{examples:8} {time.monotonic() - start:7.1f}  {where}{mark}", flush=True)
        if args.verbose and v is not None and v.counterexample is not None:
            print(v.counterexample.report + "\n")
    bad_mutants = [o for o in outcomes if not o.should_conform and not o.ok]
    false_alarms = [o for o in outcomes if o.should_conform and not o.ok]
    n = sum(1 for o in outcomes if not o.should_conform)
    print()
    if n:
        print(f"kill rate: {n - len(bad_mutants)}/{n} mutants caught "
              f"({100 * (n - len(bad_mutants)) / n:.0f}%), budget {args.max_examples} "
              f"examples, random seed {args.seed}")
    print(f"correct implementations: {sum(1 for o in outcomes if o.should_conform) - len(false_alarms)}"
          f"/{sum(1 for o in outcomes if o.should_conform)} conform"
          + (f"; FALSE ALARMS: {', '.join(o.name for o in false_alarms)}" if false_alarms else ""))
    return 0 if not bad_mutants and not false_alarms else 1


if __name__ == "__main__":
    sys.exit(main())
