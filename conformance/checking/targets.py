"""Finding, loading and describing a conformance target.

A TARGET, as typed on the command line (or in ``SOKOBAN_IMPL``), is one of:

* a path to a ``.py`` file (a student's ``soko.py``): loaded from its path
  under a private module name, so it never clashes with our installed ``soko``;
* a path to a folder: a C++ implementation of seed 001's course when it (or
  its ``src/``) holds ``aed2_Juego.h`` (kind ``cpp``, profile ``aed2``, see
  :mod:`conformance.profiles.aed2`), a Prolog program of seed 003 when a ``.pro`` or
  ``.pl`` file in it defines ``sokoban/1`` (kind ``prolog``, profile
  ``prolog``, see :mod:`conformance.profiles.prolog`), else the ``soko.py`` it holds,
  else the folder as a package (it has ``__init__.py``), else its only
  ``.py`` file; a path to a ``.pro`` or ``.pl`` file: a Prolog program;
* a name registered in the entry-point group ``sokoban.implementations``
  (ours: ``impl``, ``impl-tad``, ``impl-soko``);
* ``module:object`` (the object's attributes are the operations);
* an importable module name.

:func:`resolve` only decides *what* the target is (it runs none of its code);
:func:`load` imports it (the sandbox does that in its child process).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
import traceback
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from conformance.profiles.aed2 import HEADER as CPP_HEADER
from conformance.sandbox.child import operations  # noqa: F401 - one definition, shared with the child
from conformance.api import (
    BATCH, EQUAL, FINGERPRINT, OPAQUE, PROFILES, REQUIRED_OPERATIONS, RESET, Handle,
    Target, TargetError,
)

ENV_VAR = "SOKOBAN_IMPL"
ENTRY_POINT_GROUP = "sokoban.implementations"
DIRECTIONS = ("ours", "seed001")

#: What ``python -m conformance`` checks when given no target: our own
#: implementation under each of its profiles (trusted: run in-process).
BUNDLED: tuple[tuple[str, str], ...] = (
    ("impl.extendido", "extendido"),
    ("impl.tad", "tad"),
    ("soko", "soko"),
)
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


# --------------------------------------------------------------- resolution

def _entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _looks_like_path(text: str) -> bool:
    return (os.sep in text or "/" in text or text.endswith(".py")
            or text.startswith((".", "~")))


def _resolve_path(text: str) -> ResolvedTarget:
    path = Path(text).expanduser()
    if not path.exists():
        raise BadTarget(f"{text}: no such file or folder")
    path = path.resolve()
    # (imported here: this module must not import spec, see pytest_plugin)
    from conformance.profiles.prolog.source import SUFFIXES as PROLOG_SUFFIXES, looks_like_program
    if path.is_file():
        if path.suffix in PROLOG_SUFFIXES:
            return prolog_spec(path, text)
        if path.suffix != ".py":
            raise BadTarget(f"{text}: not a Python file (expected a .py file or a folder; "
                            "a .pro or .pl file for a Prolog program)")
        return ResolvedTarget(name=str(path), kind="file", path=str(path), via="path")
    for folder in (path, path / "src"):         # a C++ submission (profile aed2)
        if (folder / CPP_HEADER).is_file():
            return cpp_spec(folder, text)
    if looks_like_program(path):                # seed 003's program (profile prolog)
        return prolog_spec(path, text)
    if (path / "soko.py").is_file():            # a submission: its soko.py
        return ResolvedTarget(name=str(path), kind="file", path=str(path / "soko.py"), via="path")
    if (path / "__init__.py").is_file():
        return ResolvedTarget(name=str(path), kind="package", path=str(path), via="path")
    sources = sorted(p for p in path.glob("*.py") if not p.name.startswith(("test_", "_")))
    if len(sources) == 1:
        return ResolvedTarget(name=str(path), kind="file", path=str(sources[0]), via="path")
    found = ", ".join(p.name for p in sources) or "no .py file"
    prolog = sorted(p.name for p in path.iterdir() if p.suffix in PROLOG_SUFFIXES)[:5]
    if prolog and not sources:
        raise BadTarget(f"{text}: found {', '.join(prolog)}, but no clause sokoban(...) at the "
                        "start of a line: a Prolog program of seed 003 defines sokoban/1 "
                        "(name the file itself to check it anyway)")
    raise BadTarget(f"{text}: a folder must be a package (with __init__.py) or hold "
                    f"soko.py (or a single .py file); found {found}")




def cpp_spec(folder: str | os.PathLike, text: str | None = None) -> ResolvedTarget:
    """A folder of C++ sources as a target (its ``aed2_Juego.h`` is checked
    when it is built: ``--profile aed2`` may force any folder)."""
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise BadTarget(f"{text or folder}: no such folder")
    path = path.resolve()
    return ResolvedTarget(name=str(path), kind="cpp", path=str(path), via="path")


def prolog_spec(path: str | os.PathLike, text: str | None = None) -> ResolvedTarget:
    """A Prolog program (a ``.pro``/``.pl`` file, or a folder holding one that
    defines ``sokoban/1``) as a target: what it holds is read when it is
    checked (``--profile prolog`` may force any folder)."""
    p = Path(path).expanduser()
    if not p.exists():
        raise BadTarget(f"{text or path}: no such file or folder")
    p = p.resolve()
    return ResolvedTarget(name=str(p), kind="prolog", path=str(p), via="path")


_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_DOTTED = re.compile(rf"{_IDENT}(\.{_IDENT})*")


def _module_spec(module: str, attr: str | None, text: str, via: str) -> ResolvedTarget:
    if not _DOTTED.fullmatch(module) or (attr is not None and not _DOTTED.fullmatch(attr)):
        raise BadTarget(f"{text}: not a module name, module:object, path or entry point name")
    top = module.split(".")[0]
    # Only the top-level name is looked up here: finding a submodule would
    # import (run) its parent package, and untrusted code runs in the sandbox.
    if top not in sys.modules and importlib.util.find_spec(top) is None:
        names = ", ".join(sorted(_entry_points())) or "none"
        raise BadTarget(f"{text}: no module named {top!r}, no such file or folder, "
                        f"and no entry point of that name (registered: {names})")
    if attr is None:
        return ResolvedTarget(name=module, kind="module", module=module, via=via)
    return ResolvedTarget(name=f"{module}:{attr}", kind="object", module=module, attr=attr, via=via)


def resolve(text: str | None, environ: Mapping[str, str] | None = None) -> ResolvedTarget | None:
    """Resolve a TARGET as typed; ``None`` (no target) falls back to the
    ``SOKOBAN_IMPL`` environment variable, and to ``None`` (meaning: the
    bundled implementation) when that is unset or empty.

    Raises :class:`BadTarget` with a message naming what was not found.
    """
    via_env = False
    if text is None:
        environ = os.environ if environ is None else environ
        text = environ.get(ENV_VAR, "").strip()
        if not text:
            return None
        via_env = True
    text = text.strip()
    if not text:
        raise BadTarget("empty target")
    try:
        spec = _resolve_text(text)
    except BadTarget as e:
        if via_env:
            raise BadTarget(f"{ENV_VAR}={text}: {e}") from None
        raise
    if via_env:
        spec = ResolvedTarget(**{**spec.__dict__, "via": f"{ENV_VAR} ({spec.via})"})
    return spec


def _resolve_text(text: str) -> ResolvedTarget:
    if _looks_like_path(text):
        return _resolve_path(text)
    eps = _entry_points()
    if text in eps:             # before folders: ``impl`` is our entry point
        ep = eps[text]
        return _module_spec(ep.module, ep.attr, text, via=f"entry point {text}")
    if os.path.exists(text):    # a bare folder name in the current directory
        return _resolve_path(text)
    if ":" in text:
        module, _, attr = text.partition(":")
        return _module_spec(module, attr, text, via="module:object")
    return _module_spec(text, None, text, via="module")


def bundled_specs() -> list[tuple[ResolvedTarget, str]]:
    """Our implementation's targets with the profile each is checked under."""
    return [(_module_spec(m, None, m, via="bundled"), p) for m, p in BUNDLED]


# ------------------------------------------------------------------ loading

def private_module_name(path: str) -> str:
    """The name a file target is imported under: unique per path, private
    (never ``soko``), so a student's ``soko.py`` and ours coexist."""
    stem = re.sub(r"\W", "_", Path(path).stem)
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
    return f"_sokoban_target_{digest}_{stem}"


def load(spec: ResolvedTarget, *, keep_path: bool = False) -> Any:
    """Import the target and return the object whose attributes are its
    operations. Runs the target's code: call it in the sandbox for untrusted
    targets. Errors in the target's code propagate (the caller reports them);
    a module that cannot be found raises :class:`BadTarget`.

    ``keep_path``: leave the target's folder on ``sys.path`` (so it can import
    its own helper modules later); off in-process, where it would shadow ours.
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
    sys.dont_write_bytecode = True       # never write __pycache__ into a submission
    sys.modules[name] = module
    try:
        ispec.loader.exec_module(module)
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
              if "importlib" not in f.filename and not f.filename.endswith("targets.py")]
    where = f" ({frames[-1].filename}, line {frames[-1].lineno})" if frames else ""
    return f"{spec.name}: importing it raised {type(exc).__name__}: {exc}{where}"


# ----------------------------------------------------------------- profiles

def missing_operations(has: Callable[[str], bool], profile: str) -> list[str]:
    """The operations of ``profile`` the target lacks, in the profile's order."""
    return [op for op in REQUIRED_OPERATIONS[profile] if not has(op)]


def detect_profiles(has: Callable[[str], bool]) -> list[str]:
    """Every profile whose operations the target provides, in PROFILES order."""
    return [p for p in PROFILES if not missing_operations(has, p)]


def explain_missing(name: str, has: Callable[[str], bool],
                    profiles: Iterable[str] | None = None) -> str:
    """A message listing, per profile (closest first), what the target lacks."""
    profiles = list(profiles) if profiles is not None else list(PROFILES)
    rows = sorted(((missing_operations(has, p), p) for p in profiles),
                  key=lambda mp: len(mp[0]) / len(REQUIRED_OPERATIONS[mp[1]]))
    lines = [f"{name} does not provide the operations of "
             + ("profile " + profiles[0] if len(profiles) == 1 else "any profile") + ":"]
    for missing, p in rows:
        have = len(REQUIRED_OPERATIONS[p]) - len(missing)
        lines.append(f"  {p}: has {have} of {len(REQUIRED_OPERATIONS[p])}; "
                     f"missing {', '.join(missing)}")
    return "\n".join(lines)


# --------------------------------------------------------------- directions

def _flip(value: Any) -> Any:
    """Reflect y -> -y in every position and direction tuple inside ``value``
    (the reflection is its own inverse). ``Accion`` members name a direction
    (north is north in both conventions), so they pass unchanged."""
    t = type(value)
    if t is tuple:
        if len(value) == 2 and all(type(v) is int for v in value):
            return (value[0], -value[1])
        return tuple(_flip(v) for v in value)
    if t is list:
        return [_flip(v) for v in value]
    if t is frozenset:
        return frozenset(_flip(v) for v in value)
    if t is set:
        return {_flip(v) for v in value}
    if t is dict:
        return {_flip(k): _flip(v) for k, v in value.items()}
    return value


class DirectionAdapter:
    """Wraps a target that uses seed 001's convention (y grows north,
    ``Norte = (0, 1)``) so the engine sees ours (y grows south).

    * profiles ``tad`` and ``extendido``: every argument and every result is
      reflected ``(x, y) -> (x, -y)``: each tuple of two ints (a position or
      a step vector), also inside levels, sets, dicts, tuples and lists.
      ``Accion`` members pass unchanged: they name a direction (``NORTE`` is
      north in both conventions; the target reads it as ``(0, 1)``, we as
      ``(0, -1)``). Handles, bools and lone ints pass unchanged.
    * profile ``soko``: only the direction tuple given to ``mover`` is
      reflected (our north ``(0, -1)`` reaches the target as its Norte
      ``(0, 1)``); ``(c, f)`` are column and row *indices* into the level's
      rows and ``dimensiones`` is a size, so they are left alone.
    """

    def __init__(self, target: Target, profile: str, convention: str = "seed001"):
        if convention not in DIRECTIONS:
            raise ValueError(f"unknown direction convention {convention!r}")
        self.inner = target
        self.profile = profile
        self.convention = convention
        self.name = target.name
        # A reflected result passed back as an argument reaches the target as
        # the very object it returned (so the sandbox sends a handle, not a copy).
        self._originals: dict[int, tuple[Any, Any]] = {}

    def has(self, op: str) -> bool:
        return self.inner.has(op)

    def _args(self, op: str, args: tuple) -> tuple:
        if self.convention == "ours":
            return args
        if self.profile == "soko":
            if op == "mover" and len(args) >= 2:
                return (args[0], _flip(args[1])) + tuple(args[2:])
            return args
        return tuple(self._original(a) for a in args)

    def _original(self, value: Any) -> Any:
        entry = self._originals.get(id(value))
        if entry is not None and entry[0] is value:
            return entry[1]
        return _flip(value)

    def _result(self, value: Any) -> Any:
        if self.convention == "ours" or self.profile == "soko" or isinstance(value, Handle):
            return value
        flipped = _flip(value)
        if type(value) in (list, dict, set):
            self._originals[id(flipped)] = (flipped, value)
        return flipped

    def call(self, op: str, *args: Any) -> Any:
        if op == RESET:
            self._originals.clear()
        if op == OPAQUE:
            return self.inner.call(op, *args)
        if op in (FINGERPRINT, EQUAL, RESET):
            return self.inner.call(op, *[self._originals.get(id(a), (None, a))[1]
                                         if self._originals.get(id(a), (None,))[0] is a else a
                                         for a in args])
        if op == BATCH:
            calls = [(o, self._args(o, tuple(a))) for o, a in args[0]]
            return [r if isinstance(r, TargetError) else self._result(r)
                    for r in self.inner.call(BATCH, calls)]
        return self._result(self.inner.call(op, *self._args(op, args)))

    def close(self) -> None:
        self.inner.close()
