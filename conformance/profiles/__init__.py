"""The profiles: every interface of the seeds the toolkit checks, one
:class:`~conformance.machines.profile.Profile` each, declared in its own
module (``tad``, ``extendido``, ``soko``: Python targets; ``aed2``: the
course's C++ folders; ``prolog``: seed 003's programs), and this registry.

Nothing outside a profile's module and this registry branches on a
profile's name: the engine, the reports and the commands ask the profile's
object. Adding a profile is declaring one (its machine, rule table,
domain, scenarios, stepper and emitter) and :func:`register` ing it; a test
does it from its own file.

May import: :mod:`conformance.reports`, :mod:`conformance.machines`,
:mod:`conformance.sandbox`, :mod:`conformance.api`, and the packages below
``conformance`` (levels, spec).
"""

from __future__ import annotations

from conformance.machines import blame
from conformance.machines.profile import Profile
from conformance.profiles import aed2, extendido, prolog, soko, tad
from spec import rules as spec_rules

_REGISTRY: dict[str, Profile] = {}
#: The rule tables :func:`register` handed to the spec (its own were there).
_TABLES_ADDED: dict[str, str] = {}


def register(profile: Profile) -> Profile:
    """Add ``profile`` (its rule table too, if the spec does not know it
    yet: reports find a profile's rules there); a profile of the same name
    is replaced."""
    try:
        spec_rules.table_for(profile.name)
    except KeyError:
        spec_rules.register(profile.rules)
        _TABLES_ADDED[profile.name] = profile.rules.name
    _REGISTRY[profile.name] = profile
    return profile


def unregister(name: str) -> None:
    """Forget the profile ``name`` (a test's made-up one), and its rule
    table if :func:`register` added it."""
    _REGISTRY.pop(name, None)
    if name in _TABLES_ADDED:
        spec_rules.unregister(_TABLES_ADDED.pop(name))


def get(name: str) -> Profile:
    """The profile called ``name``; ValueError naming the known ones."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; known: {', '.join(_REGISTRY)}") from None


def names() -> tuple[str, ...]:
    """Every profile's name, in the registry's order."""
    return tuple(_REGISTRY)


def python() -> list[Profile]:
    """The profiles of Python targets, in the order a target providing
    several is checked under them."""
    return [p for p in _REGISTRY.values() if p.python]


def languages() -> list[Profile]:
    """The profiles of targets of a language of their own (C++, Prolog)."""
    return [p for p in _REGISTRY.values() if not p.python]


def of_kind(kind: str) -> Profile | None:
    """The profile that serves targets of ``kind`` (``cpp``, ``prolog``);
    None for Python targets (they may provide several)."""
    return next((p for p in languages() if p.kind == kind), None)


def emit_for(c) -> str:
    """The test for counterexample ``c`` in its profile's format ("" when
    none can be made)."""
    profile = _REGISTRY.get(c.profile)
    if profile is None or profile.emit is None:
        return ""
    try:
        return profile.emit(c)
    except ValueError:
        return ""


for _module in (tad, extendido, soko, aed2, prolog):
    register(_module.PROFILE)


def blame_counterexample(c, value: str | None = None):
    """The rule a recorded counterexample breaks (its replay command holds
    the levels and the actions; ``value``: as :func:`~conformance.machines.blame.blame`
    takes it); None when its replay cannot be read or the table cannot say."""
    parts = blame.replay_parts(c.replay)
    if parts is None:
        return None
    name, scenes, codes = parts
    return blame.blame(get(name), scenes, codes, c.operation, value)
