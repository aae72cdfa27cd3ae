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

import importlib.util
import os
import re
import sys
from importlib import metadata
from pathlib import Path
from typing import Callable, Iterable, Mapping

from conformance import profiles
from conformance.translations import _
from conformance.machines.directions import (  # noqa: F401 - re-exported
    DIRECTIONS, DirectionAdapter, seen_in_ours)
from conformance.machines.profile import Profile
# (re-exported: a target is found here and loaded there)
from conformance.sandbox.loading import (  # noqa: F401
    BadTarget, ReferenceImport, ResolvedTarget, describe_load_error, load, private_module_name,
)

ENV_VAR = "SOKOBAN_IMPL"
ENTRY_POINT_GROUP = "sokoban.implementations"

#: What ``python -m conformance`` checks when given no target: our own
#: implementation under each of its profiles (trusted: run in-process).
BUNDLED: tuple[tuple[str, str], ...] = (
    ("impl.extendido", "extendido"),
    ("impl.tad", "tad"),
    ("soko", "soko"),
)
# --------------------------------------------------------------- resolution

def _entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _looks_like_path(text: str) -> bool:
    return (os.sep in text or "/" in text or text.endswith(".py")
            or text.startswith((".", "~")))


def _resolve_path(text: str) -> ResolvedTarget:
    path = Path(text).expanduser()
    if not path.exists():
        raise BadTarget(_("{target}: no such file or folder").format(target=text))
    path = path.resolve()
    languages = profiles.languages()
    for profile in languages:       # a C++ folder (or its src/), a Prolog program...
        found = profile.recognize(path)
        if found is not None:
            return own_spec(profile, found, text)
    if path.is_file():
        if path.suffix != ".py":
            hints = "".join(f"; {p.file_hint}" for p in languages if p.file_hint)
            raise BadTarget(_("{target}: not a Python file (expected a .py file or a "
                              "folder{hints})").format(target=text, hints=hints))
        return ResolvedTarget(name=str(path), kind="file", path=str(path), via="path")
    if (path / "soko.py").is_file():            # a submission: its soko.py
        return ResolvedTarget(name=str(path), kind="file", path=str(path / "soko.py"), via="path")
    if (path / "__init__.py").is_file():
        return ResolvedTarget(name=str(path), kind="package", path=str(path), via="path")
    sources = sorted(p for p in path.glob("*.py") if not p.name.startswith(("test_", "_")))
    if len(sources) == 1:
        return ResolvedTarget(name=str(path), kind="file", path=str(sources[0]), via="path")
    found = ", ".join(p.name for p in sources) or "no .py file"
    for profile in languages if not sources else ():
        why = profile.explain(path) if profile.explain is not None else None
        if why:
            raise BadTarget(f"{text}: {why}")
    raise BadTarget(_("{target}: a folder must be a package (with __init__.py) or hold "
                      "soko.py (or a single .py file); found {found}").format(
                          target=text, found=found if sources else _("no .py file")))




def own_spec(profile: Profile | str, path: str | os.PathLike,
             text: str | None = None) -> ResolvedTarget:
    """``path`` as a target of ``profile``'s own kind (a C++ folder, a Prolog
    program), whatever it holds: what it holds is read when it is checked
    (``--profile aed2`` or ``--profile prolog`` may force any folder)."""
    if isinstance(profile, str):
        profile = profiles.get(profile)
    p = Path(path).expanduser()
    if not (p.is_dir() if profile.folder else p.exists()):
        raise BadTarget(f"{text or path}: no such {'folder' if profile.folder else 'file or folder'}")
    p = p.resolve()
    return ResolvedTarget(name=str(p), kind=profile.kind, path=str(p), via="path")


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
        module, _colon, attr = text.partition(":")
        return _module_spec(module, attr, text, via="module:object")
    return _module_spec(text, None, text, via="module")


def bundled_specs() -> list[tuple[ResolvedTarget, str]]:
    """Our implementation's targets with the profile each is checked under."""
    return [(_module_spec(m, None, m, via="bundled"), p) for m, p in BUNDLED]


# ----------------------------------------------------------------- profiles

def missing_operations(has: Callable[[str], bool], profile: str) -> list[str]:
    """The operations of ``profile`` the target lacks, in the profile's order."""
    return profiles.get(profile).missing(has)


def detect_profiles(has: Callable[[str], bool]) -> list[str]:
    """Every profile of Python targets whose operations the target provides,
    in the registry's order."""
    return [p.name for p in profiles.python() if not p.missing(has)]


def explain_missing(name: str, has: Callable[[str], bool],
                    among: Iterable[str] | None = None) -> str:
    """A message listing, per profile (closest first), what the target lacks."""
    among = list(among) if among is not None else [p.name for p in profiles.python()]
    rows = sorted(((missing_operations(has, p), p) for p in among),
                  key=lambda mp: len(mp[0]) / len(profiles.get(mp[1]).operations))
    lines = [(_("{target} does not provide the operations of profile {profile}:")
              if len(among) == 1 else
              _("{target} does not provide the operations of any profile:")).format(
                  target=name, profile=among[0])]
    for missing, p in rows:
        total = len(profiles.get(p).operations)
        lines.append("  " + _("{profile}: has {has} of {total}; missing {missing}").format(
            profile=p, has=total - len(missing), total=total, missing=", ".join(missing)))
    return "\n".join(lines)
