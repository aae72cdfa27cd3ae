"""Loading a conformance target: what a resolved target is
(:class:`ResolvedTarget`, picklable, so the sandbox child can load it too),
importing it (:func:`load`, run in the box for untrusted code) and saying
why that failed (:func:`describe_load_error`). Finding one from what the
user typed is :mod:`conformance.checking.targets`.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.translations import _

#: Modules of this project that are trusted to run in-process by default.
TRUSTED_MODULES = ("impl", "soko")


class BadTarget(Exception):
    """The target cannot be found or loaded; ``str(e)`` says what and where."""


class ReferenceImport(BadTarget):
    """The target imports our own implementation (``spec``, ``impl``,
    ``levels``, ``conformance`` or our ``soko``): its verdict is "imports the
    reference implementation", a failure, never a pass."""


@dataclass(frozen=True)
class ResolvedTarget:
    """A resolved target: picklable, so the sandbox child can load it too.

    ``kind`` is ``"file"``, ``"package"``, ``"module"``, ``"object"``,
    ``"cpp"`` (a folder of C++ sources, ``path``) or ``"prolog"`` (a Prolog
    program, its file or folder ``path``);
    ``module`` the module to import (kinds module/object), ``attr`` the
    dotted attribute inside it (kind object), ``path`` the file or package
    folder (kinds file/package). ``name`` is a spelling that resolves again
    to the same target (used in replay commands).
    """

    name: str
    kind: str
    module: str | None = None
    attr: str | None = None
    path: str | None = None
    via: str = ""            # how it was found: "path", "entry point impl", "SOKOBAN_IMPL"...

    @property
    def trusted(self) -> bool:
        """Our own implementation: safe (and much faster) to run in-process."""
        if self.module is None:
            return False
        top = self.module.split(".")[0]
        return top in TRUSTED_MODULES


def private_module_name(path: str) -> str:
    """The name a file target is imported under: unique per path, private
    (never ``soko``), so a student's ``soko.py`` and ours coexist."""
    stem = re.sub(r"\W", "_", Path(path).stem)
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
    return f"_sokoban_target_{digest}_{stem}"


def missing_module_message(name: str, module: str, support: str | None = None) -> str:
    """What a report says of a target that imports a module its box lacks
    (a course's own library, ``gamelib``...): the module, and the option
    that gives the box the course's files."""
    if module in getattr(sys, "stdlib_module_names", ()):
        return _("{target}: imports the module {module}, of Python's standard library, which "
                 "the Python its box runs does not have (a graphics library, such as tkinter, "
                 "often is missing). If the course hands out a file that stands in for it, "
                 "give their folder with --support DIR.").format(target=name,
                                                                 module=repr(module))
    if support is None:
        return _("{target}: imports the module {module}, which is not among its files. If it "
                 "is one of the course's own files (a library handed out with the assignment), "
                 "give their folder with --support DIR.").format(target=name,
                                                                 module=repr(module))
    return _("{target}: imports the module {module}, which is neither among its files nor in "
             "the course's support folder {support} (--support).").format(
                 target=name, module=repr(module), support=support)


def load(spec: ResolvedTarget, *, keep_path: bool = False, support: str | None = None) -> Any:
    """Import the target and return the object whose attributes are its
    operations. Runs the target's code: call it in the sandbox for untrusted
    targets. Errors in the target's code propagate (the caller reports them);
    a module that cannot be found raises :class:`BadTarget`.

    ``keep_path``: leave the target's folder on ``sys.path`` (so it can import
    its own helper modules later); off in-process, where it would shadow ours.
    ``support``: the course's folder of support files, first on the path
    while the target is imported (the course's file wins a name clash).
    """
    if spec.kind in ("module", "object"):
        try:
            obj = importlib.import_module(spec.module)
        except ModuleNotFoundError as e:
            if e.name and spec.module.startswith(e.name):
                raise BadTarget(f"{spec.name}: no module named {e.name!r}") from None
            raise
        for part in (spec.attr.split(".") if spec.attr else ()):
            try:
                obj = getattr(obj, part)
            except AttributeError:
                raise BadTarget(f"{spec.name}: {spec.module} has no attribute {spec.attr!r}") from None
        return obj
    path = Path(spec.path)
    name = private_module_name(spec.path)
    if name in sys.modules:
        return sys.modules[name]
    if spec.kind == "package":
        folder = path.parent
        ispec = importlib.util.spec_from_file_location(
            name, path / "__init__.py", submodule_search_locations=[str(path)])
    else:
        folder = path.parent
        ispec = importlib.util.spec_from_file_location(name, path)
    if ispec is None or ispec.loader is None:
        raise BadTarget(f"{spec.path}: cannot be loaded as Python")
    module = importlib.util.module_from_spec(ispec)
    saved_path = list(sys.path)
    saved_bytecode = sys.dont_write_bytecode
    sys.path.insert(0, str(folder))
    if support is not None:
        sys.path.insert(0, str(Path(support).resolve()))
    sys.dont_write_bytecode = True       # never write __pycache__ into a submission
    sys.modules[name] = module
    try:
        ispec.loader.exec_module(module)
    except ModuleNotFoundError as e:
        del sys.modules[name]
        if e.name and importlib.util.find_spec(e.name.split(".")[0]) is None:
            raise BadTarget(missing_module_message(spec.name, e.name.split(".")[0],
                                                   support)) from None
        raise
    except BaseException:
        del sys.modules[name]
        raise
    finally:
        sys.dont_write_bytecode = saved_bytecode
        if not keep_path:
            sys.path[:] = saved_path
    return module


def describe_load_error(spec: ResolvedTarget, exc: BaseException) -> str:
    """One paragraph saying why importing the target failed (no traceback of ours)."""
    if isinstance(exc, BadTarget):
        return str(exc)
    if isinstance(exc, SyntaxError):
        where = f"{Path(exc.filename).name}, line {exc.lineno}" if exc.filename else spec.name
        return f"{spec.name}: syntax error at {where}: {exc.msg}"
    if isinstance(exc, SystemExit):
        return f"{spec.name}: called exit({exc.code!r}) while being imported"
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if "importlib" not in f.filename and not f.filename.endswith("loading.py")]
    where = f" ({frames[-1].filename}, line {frames[-1].lineno})" if frames else ""
    return f"{spec.name}: importing it raised {type(exc).__name__}: {exc}{where}"


