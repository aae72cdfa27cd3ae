"""Deliberately wrong implementations ("mutants"), each one classic mistake.

``student_tad``, ``student_extendido`` and ``student_soko`` are correct
implementations written the way a student would; every other module imports
one of them and redoes one function with a single mistake (its docstring says
which). Each module is a plain file that also works as a target by path
(``python -m conformance conformance/mutants/soko_mutates_grid.py``).
``MUTANTS`` lists them with their profile; ``STUDENTS`` the correct ones.
"""

from __future__ import annotations

import pkgutil
from pathlib import Path

FOLDER = Path(__file__).resolve().parent

#: The correct student implementations, with their profile.
STUDENTS = {"student_tad": "tad", "student_extendido": "extendido", "student_soko": "soko"}

_PREFIX = {"tad": "tad", "ext": "extendido", "soko": "soko"}


def _mutants() -> dict[str, str]:
    found = {}
    for info in sorted(pkgutil.iter_modules([str(FOLDER)]), key=lambda m: m.name):
        prefix = info.name.split("_", 1)[0]
        if info.name not in STUDENTS and prefix in _PREFIX:
            found[info.name] = _PREFIX[prefix]
    return found


#: Mutant module name -> profile.
MUTANTS: dict[str, str] = _mutants()


def path(name: str) -> Path:
    """The file of a mutant or student module."""
    return FOLDER / f"{name}.py"
