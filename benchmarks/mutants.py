"""How surely, and how fast, the conformance suite catches each mutant, and
which rule it blames.

    python benchmarks/mutants.py                  # every Python mutant, seeds 1-20
    python benchmarks/mutants.py --seeds 5 --only ext_
    python benchmarks/mutants.py --cpp            # the C++ mutants too (needs g++)
    python benchmarks/mutants.py --shrink         # also time a shrinking run (seed 1)

A C++ mutant's findings are ordered as ``sokoban check`` reports them (a
departure a plain build shows first, a memory error only a sanitizer sees
after it: :mod:`conformance.profiles.aed2.findings`), so the rule blamed is the one a
teacher reads. A course grades everyone under one fixed seed, so a mutant
caught under most seeds but not all is still missed by some course. For
every mutant of :mod:`conformance.mutants` (and with ``--cpp`` of
:mod:`conformance.profiles.aed2.mutants`) and every random seed 1..N, runs
``conformance.checking.engine.check`` with the default budget (100 examples) without
shrinking (the first departure found: how surely and how fast the suite
*finds* the mistake). Prints one table: per mutant the rule it declares it
breaks, the kill rate over the seeds, the rules its departures were blamed
on (``!`` marks a blame that is not the declared rule), the median and worst
number of examples and seconds until caught, and the median CPU time of this
process (the target runs in process; on a loaded machine the wall-clock time
grows with the load, the CPU time much less). ``--shrink`` adds the full
time with shrinking (seed 1). Exits 1 if some mutant escaped under some
seed, or was blamed on another rule than the one it declares.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from conformance.machines import blame

from conformance.checking import engine

from conformance import mutants, profiles
from conformance.sandbox.box import open_target
from conformance.checking.targets import DirectionAdapter, resolve


def _python_target(name: str):
    return open_target(resolve(str(mutants.path(name))), in_process=True)


def _cpp_target(name: str):
    from conformance.profiles.aed2 import mutants as cpp_mutants
    from conformance.profiles.aed2.build import build
    from conformance.profiles.aed2.target import Aed2Target
    from conformance.sandbox.box import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT
    built = build(cpp_mutants.materialize(cpp_mutants.BY_NAME[name]), std="c++17", sanitize=True)
    inner = Aed2Target(built, timeout=DEFAULT_TIMEOUT, memory_mb=DEFAULT_MEMORY_MB, name=name)
    return DirectionAdapter(inner, profiles.get("aed2"), "seed001")


def _cpp_findings(target, verdict, seed: int, shrink: bool):
    """``verdict`` of a C++ mutant ordered as ``sokoban check`` reports it
    (:func:`conformance.profiles.aed2.findings.classify`): a departure that shows in a
    plain build (the course's) first, a memory error only a sanitizer sees
    after it. The blame a teacher reads is the first finding's."""
    from conformance.profiles.aed2 import findings

    def judge(other, replay_text):
        adapted = DirectionAdapter(other, profiles.get("aed2"), "seed001")
        if replay_text is not None:
            return engine.replay(adapted, "aed2", replay_text, directions="seed001")
        return engine.check(adapted, "aed2", seed=seed, shrink=shrink,
                            directions="seed001")
    return findings.classify(target.inner, verdict, judge)


def catch(opener, name: str, profile: str, seed: int, shrink: bool):
    """(caught, examples until caught, seconds, CPU seconds, blamed rule id)."""
    target = opener(name)
    start, cpu = time.perf_counter(), time.process_time()
    try:
        verdict = engine.check(target, profile, seed=seed, shrink=shrink,
                               directions="seed001" if profile == "aed2" else "ours")
        if profile == "aed2":
            verdict = _cpp_findings(target, verdict, seed, shrink)
    finally:
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        target.close()
    c = verdict.counterexample
    rule = getattr(c, "rule", None) if c is not None else None
    if c is not None and rule is None:
        found = profiles.blame_counterexample(c)
        rule = found.id if found else "?"
    return (not verdict.conforms and verdict.error is None,
            verdict.stats.get("examples", 0), seconds, cpu, rule)


def subjects(only: str | None, cpp: bool):
    """``(name, profile, declared rule, opener)`` of every mutant asked for."""
    found = [(n, p, mutants.RULES.get(n, "?"), _python_target)
             for n, p in sorted(mutants.MUTANTS.items())]
    if cpp:
        from conformance.profiles.aed2 import mutants as cpp_mutants
        found += [(m.name, "aed2", m.rule, _cpp_target) for m in cpp_mutants.MUTANTS]
    return [s for s in found if only is None or only in s[0]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="random seeds 1..N (default 20)")
    parser.add_argument("--only", help="only the mutants whose name contains this")
    parser.add_argument("--cpp", action="store_true", help="the C++ mutants too (needs g++)")
    parser.add_argument("--shrink", action="store_true", help="also time a shrinking run (seed 1)")
    args = parser.parse_args(argv)
    seeds = range(1, args.seeds + 1)
    header = (f"{'mutant':38} {'profile':9} {'declared rule':18} {'caught':>7} {'blamed':24} "
              f"{'ex med':>6} {'ex max':>6} {'s med':>6} {'s max':>6} {'cpu med':>7}"
              + (f" {'shrunk s':>8}" if args.shrink else ""))
    print(header)
    print("-" * len(header))
    all_examples, all_seconds, all_cpu, escaped, misblamed = [], [], [], [], []
    total = caught_total = 0
    for name, profile, rule, opener in subjects(args.only, args.cpp):
        runs = [catch(opener, name, profile, seed, shrink=False) for seed in seeds]
        caught = sum(r[0] for r in runs)
        examples = [r[1] for r in runs if r[0]]
        seconds = [r[2] for r in runs]
        cpu = [r[3] for r in runs]
        blamed = sorted({r[4] for r in runs if r[0]})
        shown = ",".join(b if b == rule else f"!{b}" for b in blamed) or "-"
        all_examples += examples
        all_seconds += seconds
        all_cpu += cpu
        total += len(runs)
        caught_total += caught
        if caught < len(runs):
            escaped.append(name)
        if any(b != rule for b in blamed):
            misblamed.append(name)
        line = (f"{name:38} {profile:9} {rule:18} {caught:>3}/{len(runs):<3} {shown:24} "
                f"{statistics.median(examples) if examples else '-':>6} "
                f"{max(examples) if examples else '-':>6} "
                f"{statistics.median(seconds):6.2f} {max(seconds):6.2f} "
                f"{statistics.median(cpu):7.2f}")
        if args.shrink:
            line += f" {catch(opener, name, profile, 1, shrink=True)[2]:8.2f}"
        print(line, flush=True)
    print("-" * len(header))
    if all_seconds:
        print(f"{'all mutants':38} {'':9} {'':18} {caught_total:>3}/{total:<3} {'':24} "
              f"{statistics.median(all_examples) if all_examples else '-':>6} "
              f"{max(all_examples) if all_examples else '-':>6} "
              f"{statistics.median(all_seconds):6.2f} {max(all_seconds):6.2f} "
              f"{statistics.median(all_cpu):7.2f}")
    if escaped:
        print("escaped under some seed: " + ", ".join(escaped))
    if misblamed:
        print("blamed on another rule than the one declared under some seed: "
              + ", ".join(misblamed))
    return 1 if escaped or misblamed else 0


if __name__ == "__main__":
    sys.exit(main())
