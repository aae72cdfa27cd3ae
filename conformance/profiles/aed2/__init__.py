"""Checking the course's C++ implementations of seed 001 (profile ``aed2``).

A folder holding ``aed2_Juego.h`` is a C++ target: :mod:`.build` compiles our
driver (``driver.cpp``) with the folder's ``.cpp`` files (cached, with
AddressSanitizer and UndefinedBehaviorSanitizer when available) and
:class:`.target.Aed2Target` plays the binary through the engine's ``aed2``
state machine. Every process started for the student's code (the compiler
and the binary) goes through :func:`.process.start`. See ``docs/aed2.md``.
"""

from __future__ import annotations

from pathlib import Path

from conformance.machines.profile import Profile
from conformance.profiles.aed2 import findings, mutants, sanitizer
from conformance.profiles.aed2.build import BuildError, build as build_folder
from conformance.profiles.aed2.emit import gtest as gtest_case
from conformance.profiles.aed2.interface import HEADER, OPERATIONS
from conformance.profiles.aed2.machine import Aed2Machine
from conformance.profiles.aed2.scenarios import SCENARIOS as OWN_SCENARIOS
from conformance.profiles.aed2.stepper import STEPPER
from conformance.profiles.aed2.target import Aed2Target
from conformance.profiles.extendido import DOMAIN, GROUPS, view
from conformance.profiles.extendido.scenarios import SCENARIOS
from conformance.sandbox.loading import BadTarget
from spec import rules


def recognize(path: Path, strict: bool = False) -> Path | None:
    """The folder of C++ sources ``path`` is (it, or its ``src/``, holds
    the course's header), or None (``strict`` changes nothing: a folder
    holding the header is always one)."""
    if path.is_dir():
        for folder in (path, path / "src"):
            if (folder / HEADER).is_file():
                return folder
    return None


def _open(spec, options) -> Aed2Target:
    """The folder built (cached) and its binary started."""
    try:
        built = build_folder(spec.path, std=options.std, sanitize=options.sanitize)
    except BuildError as e:
        raise BadTarget(str(e)) from None
    except OSError as e:
        raise BadTarget(f"{spec.name}: cannot read or build it: {e}") from None
    return Aed2Target(built, timeout=options.timeout, memory_mb=options.memory_mb,
                      name=spec.name, storage_mb=options.storage_mb)


def _lacking(spec, options) -> str | None:
    try:
        build_folder(spec.path, std=options.std, sanitize=options.sanitize)
    except (BuildError, OSError) as e:
        return str(e)
    return None


def examples() -> list[tuple[str, bool]]:
    """The selftest's C++ targets: our reference, and its mutants."""
    return [("reference", True)] + [(m.name, False) for m in mutants.MUTANTS]


def materialize(name: str) -> Path:
    """The folder of the selftest's C++ target ``name``."""
    if name == "reference":
        return mutants.REFERENCE
    return mutants.materialize(mutants.BY_NAME[name])


PROFILE = Profile(
    name="aed2", seed="seed 001", kind="cpp",
    operations=OPERATIONS, groups=GROUPS,
    rules=rules.EXTENDIDO, machine=Aed2Machine,
    domain=DOMAIN, scenarios=SCENARIOS + OWN_SCENARIOS, stepper=STEPPER, emit=gtest_case,
    sequences=True, directions="seed001", default_levels="tutorial", play_rank=3, view=view,
    recognize=recognize, folder=True,
    what=f"a folder of C++ sources holding {HEADER}", called="a C++ folder",
    open=_open, lacking=_lacking, classify=findings.classify, finish_report=findings.report, located=sanitizer.located,
    examples=examples, materialize=materialize, tool="g++",
)
