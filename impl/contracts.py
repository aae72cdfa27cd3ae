"""Design-by-contract switch for :mod:`impl`: icontract when on, nothing when off.

Every contract in :mod:`impl` is declared through this module's
:func:`require`, :func:`ensure`, :func:`snapshot` and :func:`invariant`.

When contracts are **on** they are icontract's decorators, and a broken
contract raises a :class:`ContractViolation` whose message names the
condition, its description and the values of every name it mentions, e.g.::

    PreconditionViolation: File .../impl/sokoban.py, line 206 in Sokoban:
    puede_mover(a): the move is not blocked (seed 001's precondition of mover): self.puede_mover(a):
    a was <Accion.ARRIBA: (0, -1)>
    self was Sokoban(persona=(1, 1), cajas=1, en_deposito=0, bombas=0, acciones=0)
    self.puede_mover(a) was False

When contracts are **off** the decorators return the function or class
*unchanged*: nothing wraps it, so there is no overhead at all (not even a
flag test per call).

On or off is decided once, when this module is first imported:

* the environment variable ``SOKOBAN_CONTRACTS`` forces it: ``1`` (or ``on``,
  ``true``, ``yes``) turns them on, also under ``python -O``; ``0`` (or
  ``off``, ``false``, ``no``) turns them off;
* otherwise icontract's convention: on under plain ``python``, off under
  ``python -O`` (``__debug__`` is false).

An unrecognised value of ``SOKOBAN_CONTRACTS`` is ignored with a warning (the
default applies).

Class invariants are checked by icontract before and after every call of a
public method (not on nested calls on the same object). Some of ours are
O(C) (C = boxes): with contracts on, :mod:`impl` is a teaching tool that
checks its whole state at every step, not the fast implementation; turn
contracts off (``python -O`` or ``SOKOBAN_CONTRACTS=0``) to measure speed.
"""

from __future__ import annotations

import os
import traceback
import warnings
from typing import Any, Callable, TypeVar

import icontract

from spec import PreconditionError

__all__ = [
    "ENABLED", "ENV_VAR", "ContractViolation", "PreconditionViolation",
    "PostconditionViolation", "InvariantViolation", "require", "ensure",
    "snapshot", "invariant", "contracts_enabled",
]

ENV_VAR = "SOKOBAN_CONTRACTS"

_ON = frozenset({"1", "on", "true", "yes"})
_OFF = frozenset({"0", "off", "false", "no"})

T = TypeVar("T")


def contracts_enabled(environ: "dict[str, str] | None" = None, debug: bool = __debug__) -> bool:
    """Whether contracts are on for this environment and ``__debug__`` value."""
    env = os.environ if environ is None else environ
    raw = env.get(ENV_VAR)
    if raw is None or raw.strip() == "":
        return debug
    value = raw.strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    warnings.warn(
        f"{ENV_VAR}={raw!r} is not one of 0/1 (on/off, true/false, yes/no); "
        f"using the default: contracts {'on' if debug else 'off'}",
        RuntimeWarning, stacklevel=2)
    return debug


#: True when the contracts of :mod:`impl` are applied (decided at import).
ENABLED: bool = contracts_enabled()


class ContractViolation(icontract.ViolationError):
    """A contract of :mod:`impl` was broken (an ``AssertionError``, as in
    icontract)."""


class PreconditionViolation(ContractViolation, PreconditionError):
    """The caller broke a precondition. Also a :class:`spec.PreconditionError`,
    the error the reference raises for the same call."""


class PostconditionViolation(ContractViolation):
    """An operation did not do what its postcondition says (a bug in impl)."""


class InvariantViolation(ContractViolation):
    """An object's representation invariant does not hold (a bug in impl, or
    someone changed its private fields)."""


def _identity(x: T) -> T:
    return x


def _at_caller(decorator: Any, attribute: str = "_contract") -> Any:
    """Make the violation message point at the line that declared the contract
    (icontract would name this module, which called it)."""
    frame = traceback.extract_stack(limit=3)[0]
    target = getattr(decorator, attribute, None)
    if target is not None and hasattr(target, "location"):
        target.location = f"File {frame.filename}, line {frame.lineno} in {frame.name}"
    return decorator


def require(condition: Callable[..., Any], description: str | None = None) -> Callable[[T], T]:
    """A precondition (icontract.require), or nothing when contracts are off."""
    if not ENABLED:
        return _identity
    return _at_caller(icontract.require(condition, description, enabled=True,
                                         error=PreconditionViolation))


def ensure(condition: Callable[..., Any], description: str | None = None) -> Callable[[T], T]:
    """A postcondition (icontract.ensure; may use ``OLD`` and ``result``), or
    nothing when contracts are off."""
    if not ENABLED:
        return _identity
    return _at_caller(icontract.ensure(condition, description, enabled=True,
                                        error=PostconditionViolation))


def snapshot(capture: Callable[..., Any], name: str | None = None) -> Callable[[T], T]:
    """A snapshot of the old state for postconditions (``OLD.name``), or
    nothing when contracts are off. Place it above the ``ensure`` s."""
    if not ENABLED:
        return _identity
    return _at_caller(icontract.snapshot(capture, name=name, enabled=True), "_snapshot")


def invariant(condition: Callable[..., Any], description: str | None = None) -> Callable[[T], T]:
    """A class invariant (icontract.invariant), or nothing when contracts are
    off."""
    if not ENABLED:
        return _identity
    return _at_caller(icontract.invariant(condition, description, enabled=True,
                                           error=InvariantViolation), "_invariant")
