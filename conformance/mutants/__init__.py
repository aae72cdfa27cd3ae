"""Deliberately wrong implementations ("mutants"), each one classic mistake.

The ``student_*`` modules are correct implementations written the way real
students write them (``student_soko_strings``: a list of strings indexed
``grilla[f][c]``; ``student_soko_dict_sets``: a dict of sets; ...; each
docstring says which style). ``student_tad``, ``student_extendido`` and
``student_soko`` are also the bases of the mutants: every other module
imports one of them *by plain module name* (``from student_soko import *``)
and redoes one function with a single mistake (its docstring says which,
and, on a line ``Breaks: RULE``, the rule of ``spec.rules`` it breaks).

Every file is standalone: it imports nothing of this project (untrusted
targets cannot), only its sibling base, so it runs as a target by path with
its folder on ``sys.path``
(``python -m conformance conformance/mutants/soko_mutates_grid.py``). The
``tad``/``extendido`` files take the action either as their own ``Accion``
enum (members ``ARRIBA``... or ``NORTE``...) or through ``accion.value`` /
``accion.name``, never ``spec.tipos``.
``MUTANTS`` lists the mutants with their profile, ``RULES`` the rule each
breaks; ``STUDENTS`` the correct ones.
"""

from __future__ import annotations

import pkgutil
from pathlib import Path

FOLDER = Path(__file__).resolve().parent

_PREFIX = {"tad": "tad", "ext": "extendido", "extendido": "extendido", "soko": "soko"}


def _modules(students: bool) -> dict[str, str]:
    """``student_<profile>[_style]`` modules (students) or ``<profile>_<mistake>``
    modules (mutants), each with its profile."""
    found = {}
    for info in sorted(pkgutil.iter_modules([str(FOLDER)]), key=lambda m: m.name):
        parts = info.name.split("_")
        is_student = parts[0] == "student"
        if is_student != students or len(parts) < 2:
            continue
        prefix = parts[1] if is_student else parts[0]
        if prefix in _PREFIX:
            found[info.name] = _PREFIX[prefix]
    return found


#: The correct student implementations (module name -> profile).
STUDENTS: dict[str, str] = _modules(students=True)
#: Mutant module name -> profile.
MUTANTS: dict[str, str] = _modules(students=False)


def _rules() -> dict[str, str]:
    import re
    found = {}
    for name in MUTANTS:
        m = re.search(r"^Breaks: ([a-z0-9.-]+)$", path(name).read_text(encoding="utf-8"), re.M)
        if m:
            found[name] = m.group(1)
    return found


def path(name: str) -> Path:
    """The file of a mutant or student module."""
    return FOLDER / f"{name}.py"


def bases(name: str) -> list[str]:
    """The sibling ``student_*`` modules a mutant file imports (by plain name)."""
    import re
    text = path(name).read_text(encoding="utf-8")
    return sorted(set(re.findall(r"^\s*(?:from|import)\s+(student_\w+)", text, re.M)))


def copy_to(name: str, folder: Path, filename: str | None = None) -> Path:
    """Copy a mutant (or student) file into ``folder`` as ``filename`` (its own
    name by default), with the sibling bases it imports, as a submission
    would hold them; returns the copied file."""
    import shutil
    folder.mkdir(parents=True, exist_ok=True)
    for base in bases(name):
        shutil.copy(path(base), folder / f"{base}.py")
    target = folder / (filename or f"{name}.py")
    shutil.copy(path(name), target)
    return target


#: Mutant module name -> the id of the rule (``spec.rules``) its mistake breaks.
RULES: dict[str, str] = _rules()
