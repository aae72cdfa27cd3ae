"""Checking seed 003's SWI-Prolog programs (profile ``prolog``).

A ``.pro`` file, or a folder holding one, that defines ``sokoban/1`` is a
Prolog target (:mod:`.source`). Our driver (``driver.pl``) runs it under
``swipl`` in the project's sandbox (:mod:`.target`); :mod:`.check` compares
its ``action/2`` and ``perform/3`` with the spec at every state of random
plays, and its planner ``sokoban/1`` on small tables (:mod:`.model` says
what seed 003's words mean in the spec's terms). See ``docs/prolog.md``.
"""

from __future__ import annotations

from pathlib import Path

from conformance.machines.profile import Profile
from conformance.profiles.prolog import mutants, run
from conformance.profiles.prolog.game import PrologGame
from conformance.profiles.prolog.machine import GROUPS, PLAN_SECONDS, PrologMachine
from conformance.profiles.prolog.rules import TABLE
from conformance.profiles.prolog.source import SUFFIXES, looks_like_program
from conformance.profiles.prolog.target import GRACE

OPERATIONS = ("action/2", "perform/3", "sokoban/1")


def recognize(path: Path, strict: bool = False) -> Path | None:
    """``path`` when it is a Prolog program: a ``.pro``/``.pl`` file (with
    ``strict``: one that defines ``sokoban/1``, not a file of level facts),
    or a folder holding one that defines it."""
    if path.is_file():
        return path if looks_like_program(path, defining=strict) else None
    return path if looks_like_program(path) else None


def explain(path: Path) -> str | None:
    """Why a folder of Prolog files is not a program of seed 003."""
    found = sorted(p.name for p in path.iterdir() if p.suffix in SUFFIXES)[:5]
    if not found:
        return None
    return (f"found {', '.join(found)}, but no clause sokoban(...) at the start of a line: a "
            "Prolog program of seed 003 defines sokoban/1 (name the file itself to check it "
            "anyway)")


def _run(spec, options, budget):
    """The program checked by its own runner: ``(verdict, report)``."""
    return run.check_program(spec.path, max_examples=options.max_examples, seed=options.seed,
                             timeout=options.timeout, memory_mb=options.memory_mb,
                             storage_mb=options.storage_mb, replay=options.replay,
                             groups=options.groups, by_rules=options.by_rules, budget=budget,
                             budget_is_failure=options.budget_is_failure,
                             localize=options.localize)


def examples() -> list[tuple[str, bool]]:
    """The selftest's Prolog targets: our reference, its slow variant, the
    students written in seed 003's style, and the mutants."""
    correct = ("reference", "slow", *(f"student_{s}" for s in mutants.STUDENTS))
    return [(name, True) for name in correct] + [(m.name, False) for m in mutants.MUTANTS]


PROFILE = Profile(
    name="prolog", seed="seed 003", kind="prolog",
    operations=OPERATIONS, groups=GROUPS, rules=TABLE, machine=PrologMachine,
    default_levels="seed003", play_rank=4,
    recognize=recognize, explain=explain, file_hint="a .pro or .pl file for a Prolog program",
    what="a .pro or .pl file, or a folder holding one that defines sokoban/1",
    called="a Prolog program",
    lacking=lambda spec, options: run.lacking(spec.path, memory_mb=options.memory_mb),
    run=_run,
    # the budget keeps room for the longest request of one table: the
    # planner's limit and the driver's grace
    call_limit=lambda options: max(options.timeout, PLAN_SECONDS + GRACE),
    game=lambda spec, options: PrologGame(spec.path, options.memory_mb),
    examples=examples, materialize=mutants.materialize, tool="swipl",
)
