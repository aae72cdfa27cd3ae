"""Seed 001's direction convention (y grows north, ``Norte = (0, 1)``) and
ours (y grows south): the reflection between them, and a target adapter
that lets the engine see a seed-001 target in ours.
"""

from __future__ import annotations

from typing import Any

from conformance.api import (BATCH, EQUAL, FINGERPRINT, OPAQUE, RESET, Earlier, Handle, Target,
                             TargetError)

#: The direction conventions a target may use.
DIRECTIONS = ("ours", "seed001")


def flip(value: Any) -> Any:
    """Reflect y -> -y in every position and direction tuple inside ``value``
    (the reflection is its own inverse). ``Accion`` members name a direction
    (north is north in both conventions), so they pass unchanged."""
    t = type(value)
    if t is tuple:
        if len(value) == 2 and all(type(v) is int for v in value):
            return (value[0], -value[1])
        return tuple(flip(v) for v in value)
    if t is list:
        return [flip(v) for v in value]
    if t is frozenset:
        return frozenset(flip(v) for v in value)
    if t is set:
        return {flip(v) for v in value}
    if t is dict:
        return {flip(k): flip(v) for k, v in value.items()}
    return value


def seen_in_ours(target: Target, profile, convention: str) -> Target:
    """``target``, whose code uses ``convention``, as the engine sees it: in
    our convention. Itself when it speaks ours already: ``convention`` is
    ours, or the target reflects its positions itself (its ``reflects`` is
    ``convention``: a C++ driver writes and reads every position as a line
    anyway, so it reflects y there at no cost). Else behind a
    :class:`DirectionAdapter`."""
    return target if _in_ours(target, convention) else DirectionAdapter(target, profile, convention)


def _in_ours(target: Target, convention: str) -> bool:
    """Whether ``target``, whose code uses ``convention``, already takes and
    answers positions in ours (nothing to reflect)."""
    return convention == "ours" or getattr(target, "reflects", None) == convention


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

    ``profile``: the profile whose operations the target answers (its
    ``flip`` says which of the two).
    """

    def __init__(self, target: Target, profile, convention: str = "seed001"):
        if convention not in DIRECTIONS:
            raise ValueError(f"unknown direction convention {convention!r}")
        self.inner = target
        self.profile = profile.name
        self.only_direction = profile.flip == "direction"
        self.convention = convention
        # Nothing to reflect: the target is in ours already, or reflects its
        # positions itself (never twice: see seen_in_ours).
        self.passes = _in_ours(target, convention)
        self.name = target.name
        # A reflected result passed back as an argument reaches the target as
        # the very object it returned (so the sandbox sends a handle, not a copy).
        self._originals: dict[int, tuple[Any, Any]] = {}

    def has(self, op: str) -> bool:
        return self.inner.has(op)

    def _args(self, op: str, args: tuple) -> tuple:
        if self.passes:
            return args
        if self.only_direction:
            if op == "mover" and len(args) >= 2:
                return (args[0], flip(args[1])) + tuple(args[2:])
            return args
        # The common arguments first (a handle, a position, a number): none
        # of them can be a reflected result kept in _originals (only lists,
        # dicts and sets are), and flip's answer for them is known.
        if len(args) == 2:              # (a juego, a position): the observers
            h, p = args
            if ((type(h) is Handle or type(h) is Earlier) and type(p) is tuple and len(p) == 2
                    and type(p[0]) is int and type(p[1]) is int):
                return (h, (p[0], -p[1]))
        out = []
        for a in args:
            t = type(a)
            if t is Handle or t is int or t is bool or t is str or t is Earlier:
                out.append(a)
            elif t is tuple and len(a) == 2 and type(a[0]) is int and type(a[1]) is int:
                out.append((a[0], -a[1]))
            else:
                out.append(self._original(a))
        return tuple(out)

    def _original(self, value: Any) -> Any:
        entry = self._originals.get(id(value))
        if entry is not None and entry[0] is value:
            return entry[1]
        return flip(value)

    def _result(self, value: Any) -> Any:
        t = type(value)
        if (t is bool or t is int or value is None or self.passes
                or self.only_direction or isinstance(value, Handle)):
            return value
        flipped = flip(value)
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
            reflect = self._args
            if self.passes or self.only_direction:    # (mover's alone: by op)
                calls = [(o, reflect(o, tuple(a))) for o, a in args[0]]
            else:
                calls = []
                done: dict = {}     # id of a call's arguments -> reflected (calls share them)
                for o, a in args[0]:
                    r = done.get(id(a))
                    if r is None:
                        r = done[id(a)] = reflect(o, tuple(a))
                    calls.append((o, r))
            result = self._result
            return [r if (type(r) is bool or type(r) is int or r is None
                          or isinstance(r, TargetError)) else result(r)
                    for r in self.inner.call(BATCH, calls, *args[1:])]
        return self._result(self.inner.call(op, *self._args(op, args)))

    def close(self) -> None:
        self.inner.close()
