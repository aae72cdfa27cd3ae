"""The target's side of the sandbox boundary. STANDARD LIBRARY ONLY.

This file is both a module of ours (the in-process target and the parent use
its host, its fingerprint and its codec) and the program the sandbox child
runs: the parent hands its *source* to a fresh ``python -I -S`` in the box,
so the child never imports anything of this project (it could not: the
project is not on its path, and :class:`ImportGuard` refuses it anyway).
Do not import ``conformance``, ``spec``, ``impl`` or ``levels`` here.

The channel is data only: each message is a 4-byte big-endian length and a
document, the checker's in :mod:`marshal`'s format (:func:`order`: the child
trusts its checker), the child's answers in UTF-8 JSON (:func:`frame`: the
checker trusts nothing the child sends). Values are encoded with type tags so
that every type the engine compares survives exactly::

    None, bool, int, float, str   as JSON            list       as a JSON array
    tuple      {"t": [...]}        set  {"s": [...]}   frozenset  {"f": [...]}
    a set or frozenset of pairs of ints (positions), flat:
               set {"sp": [x1, y1, x2, y2, ...]}   frozenset  {"fp": [...]}
    (answers only) such a set of MEMO_MIN ints or more, remembered by number
    (:class:`Memo`): {"sp#": [n, [x1, y1, ...]]}, then {"sp=": n} for the
    same flat list again ("fp#", "fp=" for a frozenset)
    dict       {"d": [[k, v], ...]}                    bytes      {"b": base64}
    handle     {"h": [id, type]}   action {"a": "ARRIBA"}
    kept copy  {"k": [id, type, value]}   (a mutable result and its handle)
    failure    {"x": [kind, message, detail, op]}   (inside batch answers)

:func:`decode` accepts nothing else: the parent never unpickles or evaluates
what the child sends.
"""

import base64
import enum
import importlib.machinery
import importlib.util
import json
import marshal
import os
import resource   # here, not in set_limit: a preexec hook runs after setuid and may not read the library
import _signal
import signal
import struct
import time
import sys
import traceback
from itertools import chain as _chain  # (_chain.from_iterable: a flat list of positions)

MAX_MESSAGE = 64 * 1024 * 1024        # bytes in one message, either way
MAX_DEPTH = 400                        # nesting of a decoded value
ID_BITS = 40                           # handle id = generation << ID_BITS | serial

#: The seed's action names, and the other spellings a target's own enum may use.
ACTIONS = ("ARRIBA", "ABAJO", "IZQUIERDA", "DERECHA")
ACTION_ALIASES = {"NORTE": "ARRIBA", "SUR": "ABAJO", "OESTE": "IZQUIERDA", "ESTE": "DERECHA"}
#: The step vector of each action under each direction convention.
VECTORS = {
    "ours": {"ARRIBA": (0, -1), "ABAJO": (0, 1), "IZQUIERDA": (-1, 0), "DERECHA": (1, 0)},
    "seed001": {"ARRIBA": (0, 1), "ABAJO": (0, -1), "IZQUIERDA": (-1, 0), "DERECHA": (1, 0)},
}

RUNNER_NAME = "<sokoban-runner>"       # the filename of this code in the child's tracebacks


class HostError(Exception):
    """A call the host itself refuses (unknown operation, stale handle)."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        self.message = message


class ProtocolError(Exception):
    """A message that is not a well-formed value of the protocol."""


class Ref:
    """The child's handle: an id into the host's object table."""

    __slots__ = ("id", "type_name")

    def __init__(self, id, type_name=""):
        self.id = id
        self.type_name = type_name


class Kept:
    """A mutable plain result: its value (copied) and a handle to the original."""

    __slots__ = ("handle", "value")

    def __init__(self, handle, value):
        self.handle = handle
        self.value = value


class Encoded:
    """A result already encoded (:func:`encode`) when its call returned: the
    sandbox child's snapshot of it, instead of a copy (see
    :attr:`Host.encoder`). :func:`encode` passes it as it is."""

    __slots__ = ("data",)

    def __init__(self, data):
        self.data = data


class Earlier:
    """An argument of a call inside a batch that is the result of an earlier
    call of the same batch (``index``): the very object that call returned,
    not a copy (so ``mover`` and the observers of the grid it returns go in
    one round trip). It crosses the channel as a position, not a value: a
    batch item ``[op, args, [[position, index], ...]]``."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index

    def __repr__(self):
        return f"Earlier({self.index})"


class Failure:
    """One failed call inside a batch (the in-process target raises it as a
    TargetError; the child sends it as ``{"x": ...}``)."""

    __slots__ = ("kind", "message", "detail", "op")

    def __init__(self, kind, message, detail, op):
        self.kind, self.message, self.detail, self.op = kind, message, detail, op


class StandInAccion(tuple, enum.Enum):
    """The action a target gets when it defines no ``Accion`` of its own: it
    has the seed's names (``.name``), its step vector as ``.value``, and it
    *is* that vector (``dx, dy = accion`` works). Built per convention by
    :func:`stand_in_accion`."""


def stand_in_accion(convention):
    vectors = VECTORS[convention]
    members = [(name, vectors[name]) for name in ACTIONS]
    members += [(alias, vectors[name]) for alias, name in ACTION_ALIASES.items()]
    return enum.Enum("Accion", members, type=tuple)


def target_accion(namespace, convention):
    """``{seed name: member}``: the target's own ``Accion`` enum when it has
    one with all four actions (matched by name, any case, seed 001's
    ``NORTE``/``SUR``/``ESTE``/``OESTE`` too), else the stand-in's."""
    own = getattr(namespace, "Accion", None)
    if isinstance(own, type) and issubclass(own, enum.Enum):
        found = {}
        for member in own:
            name = member.name.upper()
            name = ACTION_ALIASES.get(name, name)
            if name in ACTIONS and name not in found:
                found[name] = member
        if len(found) == len(ACTIONS):
            return found
    stand_in = stand_in_accion(convention)
    return {name: stand_in[name] for name in ACTIONS}


# ------------------------------------------------------------------ codec

class NotPlain(Exception):
    pass


_SCALARS = frozenset((str, int, float, bool, type(None)))


def encode(value, handle_type, action_name=None, memo=None):
    """The JSON-ready form of a plain value (see the module docstring);
    raises NotPlain for anything else. ``action_name(v)`` gives the seed
    name of an action member (or None). ``memo``: the :class:`Memo` of the
    channel the value is sent on (an answer's), or None."""
    t = type(value)
    if t in _SCALARS:
        return value
    if t is list:
        return _encode_items(value, handle_type, action_name, memo)
    if t is tuple:
        return {"t": _encode_items(value, handle_type, action_name, memo)}
    if t is set or t is frozenset:
        flat = _flat_pairs(value)
        if flat is not None:
            if memo is not None and len(flat) >= MEMO_MIN:
                return memo.encode("sp" if t is set else "fp", flat)
            return {"sp": flat} if t is set else {"fp": flat}
        return {"s" if t is set else "f": _encode_items(value, handle_type, action_name, memo)}
    if t is dict:
        return {"d": [[encode(k, handle_type, action_name, memo),
                       encode(v, handle_type, action_name, memo)] for k, v in value.items()]}
    if t is bytes:
        return {"b": base64.b64encode(value).decode("ascii")}
    if t is handle_type:
        return {"h": [value.id, value.type_name]}
    if t is Kept:
        return {"k": [value.handle.id, value.handle.type_name,
                      encode(value.value, handle_type, action_name, memo)]}
    if t is Encoded:
        return value.data
    if t is Failure:
        return {"x": [value.kind, value.message, value.detail, value.op]}
    if action_name is not None:
        name = action_name(value)
        if name is not None:
            return {"a": name}
    raise NotPlain(t.__name__)


class _Unhandled:
    """The handle type of a target's own result (:attr:`Host.encoder`): none
    (a handle inside it is not plain, as :meth:`Host.copy_plain` finds)."""


def result_encoder(memo, action_name=None):
    """:attr:`Host.encoder` for a channel whose answers use ``memo``: a
    target's result as :func:`encode` sends it, without handles inside (as
    :meth:`Host.copy_plain` finds them not plain); a result it refuses makes
    the memo forget (it may have numbered sets that will not be sent)."""
    def encoder(value):
        try:
            return encode(value, _Unhandled, action_name, memo)
        except BaseException:
            memo.forget()
            raise
    return encoder


def _encode_items(items, handle_type, action_name, memo=None):
    """:func:`encode` of each item; a tuple of scalars (a position) without
    a call (the usual items: this is the hot path of a set of positions)."""
    out = []
    for v in items:
        t = type(v)
        if t in _SCALARS:
            out.append(v)
            continue
        if t is tuple:
            for x in v:
                if type(x) not in _SCALARS:
                    break
            else:
                out.append({"t": list(v)})
                continue
        out.append(encode(v, handle_type, action_name, memo))
    return out


_TUPLE, _INT, _TWO = frozenset((tuple,)), frozenset((int,)), frozenset((2,))


def _flat_pairs(items):
    """``[x1, y1, x2, y2, ...]`` when every item is a tuple of two ints (not
    bools: a position), else None (the hot path of a set of positions; its
    loops are the built-ins', over types and lengths)."""
    if not items:
        return []
    if set(map(type, items)) != _TUPLE or set(map(len, items)) != _TWO:
        return None
    out = list(_chain.from_iterable(items))
    if set(map(type, out)) != _INT:
        return None
    return out


#: The least number of ints (x, y, x, y...) of a flat set of positions that
#: an answer remembers by number (:class:`Memo`): a smaller one is sent as
#: it is.
MEMO_MIN = 8


class Memo:
    """The sets of positions a channel's answers have sent, by number, so
    that one sent again (the walls of a game, after every step) goes as its
    number: the child's side. The parent's side is a list of ``Memo.SIZE``
    frozensets (``seen``) that :func:`decode` fills and reads.

    A set is remembered by its flat list, exactly: the same list again is
    the same set. Numbers are given in turn and reused after ``SIZE``
    (forgetting that number's set), and the parent decodes an answer in the
    order it was encoded, so a number always names the set it was last
    given to. :meth:`forget` after an answer that was not sent: the child
    then names no set the parent has not seen."""

    SIZE = 64

    def __init__(self):
        self.numbers = {}
        self.keys = [None] * self.SIZE
        self.next = 0

    def encode(self, tag, flat):
        key = tuple(flat)
        n = self.numbers.get(key)
        if n is not None:
            return {tag + "=": n}
        n = self.next
        self.next = (n + 1) % self.SIZE
        old = self.keys[n]
        if old is not None:
            del self.numbers[old]
        self.numbers[key] = n
        self.keys[n] = key
        return {tag + "#": [n, flat]}

    def forget(self):
        self.numbers.clear()
        self.keys = [None] * self.SIZE
        self.next = 0


def decode(data, make_handle, make_action, make_kept=None, make_failure=None, depth=0,
           seen=None):
    """The value a JSON-decoded ``data`` stands for, checking its shape at
    every level; raises ProtocolError on anything not made by :func:`encode`.
    ``seen``: the parent's side of the answers' :class:`Memo` (None: a
    remembered set is refused)."""
    t = type(data)
    if t in _SCALARS:
        return data
    if depth > MAX_DEPTH:
        raise ProtocolError("nested too deeply")
    args = (make_handle, make_action, make_kept, make_failure, depth + 1, seen)
    if t is list:
        return _decode_items(data, args)
    if t is not dict or len(data) != 1:
        raise ProtocolError(f"unexpected {t.__name__}")
    ((tag, body),) = data.items()
    try:
        if tag == "h" and _is_ref(body, 2):
            return make_handle(body[0], body[1])
        if tag in _FLAT_SETS:
            return _flat_set(tag, body, seen)
        if tag in ("t", "s", "f") and type(body) is list:
            items = _decode_items(body, args)
            return tuple(items) if tag == "t" else set(items) if tag == "s" else frozenset(items)
        if tag == "d" and type(body) is list:
            out = {}
            for pair in body:
                if type(pair) is not list or len(pair) != 2:
                    raise ProtocolError("a dict item is not a pair")
                k, v = pair
                kind = type(v)
                if kind is dict and len(v) == 1:    # (a set of positions: decoded inline)
                    ((inner, flat),) = v.items()
                    v = _flat_set(inner, flat, seen) if inner in _FLAT_SETS else decode(v, *args)
                elif kind not in _SCALARS:
                    v = decode(v, *args)
                out[k if type(k) in _SCALARS else decode(k, *args)] = v
            return out
        if tag == "b" and type(body) is str:
            return base64.b64decode(body.encode("ascii"), validate=True)
        if tag == "a" and type(body) is str and body in ACTIONS:
            return make_action(body)
        if tag == "k" and make_kept is not None and _is_ref(body, 3):
            return make_kept(make_handle(body[0], body[1]), decode(body[2], *args))
        if tag == "x" and make_failure is not None and type(body) is list and len(body) == 4 \
                and all(type(v) is str for v in body):
            return make_failure(*body)
    except TypeError as e:              # an unhashable member of a set or key of a dict
        raise ProtocolError(str(e)) from None
    except ValueError as e:             # bad base64
        raise ProtocolError(str(e)) from None
    raise ProtocolError(f"unknown tag {tag!r}")


_FLAT_SETS = frozenset(("sp", "fp", "sp#", "fp#", "sp=", "fp="))


def _flat_set(tag, body, seen):
    """A set of positions sent flat (``sp``, ``fp``: a set, a frozenset), or
    remembered (:class:`Memo`): given a number (``#``), or named by it
    (``=``); ``seen``: the parent's side of the memo (None: refused)."""
    if len(tag) == 2:
        pairs = _pairs(body)
        if pairs is None:
            raise ProtocolError("a position of a flat set is not two ints")
        return set(pairs) if tag == "sp" else frozenset(pairs)
    if seen is None:
        raise ProtocolError(f"unknown tag {tag!r}")
    if tag[2] == "#":
        if type(body) is not list or len(body) != 2 or type(body[0]) is not int \
                or not 0 <= body[0] < Memo.SIZE:
            raise ProtocolError("not a remembered set")
        pairs = _pairs(body[1])
        if pairs is None:
            raise ProtocolError("a position of a flat set is not two ints")
        value = seen[body[0]] = frozenset(pairs)
    else:
        if type(body) is not int or not 0 <= body < Memo.SIZE or seen[body] is None:
            raise ProtocolError("names a set not sent")
        value = seen[body]
    return value if tag[0] == "f" else set(value)


def _pairs(flat):
    """The positions ``(x, y)`` of ``flat`` (``[x1, y1, x2, y2, ...]``, two
    ints each: :func:`_flat_pairs`'s), as an iterator; None when it is not
    such a list."""
    if type(flat) is not list or len(flat) % 2 or (flat and set(map(type, flat)) != _INT):
        return None
    pairs = iter(flat)
    return zip(pairs, pairs)


def _decode_items(body, args):
    """:func:`decode` of each item; ``{"t": [scalars...]}`` (a position)
    and ``{"h": ...}`` (a handle) without a call (the hot paths: a set of
    positions, a batch of observers of one handle)."""
    out = []
    for v in body:
        t = type(v)
        if t in _SCALARS:
            out.append(v)
            continue
        if t is dict and len(v) == 1:
            items = v.get("t")
            if type(items) is list:
                for x in items:
                    if type(x) not in _SCALARS:
                        break
                else:
                    out.append(tuple(items))
                    continue
            else:
                ref = v.get("h")
                if ref is not None and _is_ref(ref, 2):
                    out.append(args[0](ref[0], ref[1]))     # (make_handle: a batch call's first argument)
                    continue
        out.append(decode(v, *args))
    return out


def _is_ref(body, length):
    return (type(body) is list and len(body) == length and type(body[0]) is int
            and type(body[1]) is str and len(body[1]) <= 200)


_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def order(document):
    """One message from the checker to the child: a length and the document
    in :mod:`marshal`'s format (lists, dicts, str, int, float, bool and
    None only, as :func:`frame` sends them; tens of times faster to make
    and read than JSON). Only the child reads it: its answers, which the
    checker must not trust, are JSON (:func:`frame`)."""
    data = marshal.dumps(document)
    if len(data) > MAX_MESSAGE:
        raise ValueError(f"message of {len(data)} bytes (limit {MAX_MESSAGE})")
    return struct.pack(">I", len(data)) + data


def frame(document):
    """One answer: a length and compact UTF-8 JSON."""
    data = _JSON(document).encode("utf-8")
    if len(data) > MAX_MESSAGE:
        raise ValueError(f"message of {len(data)} bytes (limit {MAX_MESSAGE})")
    return struct.pack(">I", len(data)) + data


def write_all(fd, data):
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def read_exact(fd, n):
    chunks = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


# ------------------------------------------------------------ fingerprint

def fingerprint(obj):
    """A canonical, deterministic deep description of ``obj``'s value.

    Sets and dicts are sorted by the description of their members, objects
    are described by their class and ``__dict__``/``__slots__`` (or what
    ``__reduce_ex__`` exposes), shared and cyclic references by their order of
    first visit. Any in-place change anywhere in the object graph (a cell of a
    grid, a list inside a dict, an attribute) changes the description.

    The walk is iterative (see :class:`_Describer`): a linked list a million
    nodes long is described like a short one, in time proportional to its
    size, on every Python version and whatever the recursion limit; only
    memory bounds the depth.
    """
    quick = _grid_fingerprint(obj)
    return quick if quick is not None else _text(_Describer().run(obj))


def _grid_fingerprint(obj):
    """:func:`fingerprint` of a list or tuple of strings, or of lists or
    tuples of strings, none shared (a grid, the usual argument of
    ``mover``): the same text, at a fraction of the cost; None for
    anything else."""
    t = type(obj)
    if t is not list and t is not tuple:
        return None
    parts, rows = [], set()
    for row in obj:
        r = type(row)
        if r is str:
            parts.append(repr(row))
            continue
        if r is not list and r is not tuple:
            return None
        if r is list:
            if id(row) in rows:
                return None
            rows.add(id(row))
        for cell in row:
            if type(cell) is not str:
                return None
        parts.append(f"{r.__qualname__}[{', '.join(map(repr, row))}]")
    return f"{t.__qualname__}[{', '.join(parts)}]"


def _text(rope):
    """The string a description stands for: a str, or a list of parts that
    are themselves descriptions (joined here without recursion, so that a
    deep chain costs its length, not its length squared)."""
    if type(rope) is str:
        return rope
    out, stack = [], [iter(rope)]
    while stack:
        for part in stack[-1]:
            if type(part) is str:
                out.append(part)
            else:
                stack.append(iter(part))
                break
        else:
            stack.pop()
    return "".join(out)


class _Describer:
    """The fingerprint's walk. Each container is described by a generator
    that yields the members it needs described, in order, and receives
    their descriptions; :meth:`run` drives these generators on an explicit
    stack (its length is the current depth), so no Python recursion is
    involved. A mutable object already on the way (a cycle) or already
    described (sharing) is written ``<ref N>``, N its order of first visit.
    Descriptions are ropes (see :func:`_text`); members of sets and dicts are
    turned into text to be sorted."""

    def __init__(self):
        self.seen = {}
        self.keep = []       # keeps transient objects alive (stable ids)

    def run(self, obj):
        first = self._visit(obj)
        if type(first) is str:
            return first
        stack, value = [first], None
        while stack:
            try:
                member = stack[-1].send(value)
            except StopIteration as done:
                stack.pop()
                value = done.value
                continue
            step = self._visit(member)
            if type(step) is str:
                value = step
            else:
                stack.append(step)
                value = None
        return value

    def _visit(self, obj):
        """A leaf's description (a str), or the generator describing a container."""
        t = type(obj)
        if obj is None or t in (bool, int, float, complex, str, bytes):
            return repr(obj)
        if isinstance(obj, type):
            return f"<class {obj.__module__}.{obj.__qualname__}>"
        if callable(obj) and hasattr(obj, "__qualname__") and not hasattr(obj, "__dict__"):
            return f"<callable {getattr(obj, '__module__', '?')}.{obj.__qualname__}>"
        if t.__name__ in ("function", "module", "builtin_function_or_method", "method"):
            return f"<{t.__name__} {getattr(obj, '__qualname__', getattr(obj, '__name__', '?'))}>"
        if isinstance(obj, enum.Enum):
            return f"{t.__qualname__}.{obj.name}"
        if t in (tuple, frozenset) or isinstance(obj, (tuple, frozenset)):
            return self._container(obj, t)
        key = id(obj)
        if key in self.seen:
            return f"<ref {self.seen[key]}>"
        self.seen[key] = len(self.seen)
        self.keep.append(obj)
        return self._container(obj, t)

    def _container(self, obj, t):
        name = t.__qualname__
        if isinstance(obj, (tuple, list)) and not hasattr(obj, "_fields"):
            parts = []
            for v in list(obj):
                parts.append((yield v))
            return [f"{name}[", *_joined(parts), "]"]
        if isinstance(obj, (set, frozenset)):
            parts = []
            for v in list(obj):
                parts.append(_text((yield v)))
            return [f"{name}{{", *_joined(sorted(parts)), "}"]
        if isinstance(obj, dict):
            items = []
            for k, v in list(obj.items()):
                described = yield k
                items.append(_text([described, ": ", (yield v)]))
            extra = (yield from self._attributes(obj)) if type(obj) is not dict else ""
            return [f"{name}{{", *_joined(sorted(items)), "}", extra]
        if isinstance(obj, bytearray):
            return f"{name}({bytes(obj)!r})"
        attrs = yield from self._attributes(obj)
        if attrs:
            return [name, attrs]
        try:
            reduced = obj.__reduce_ex__(4)
        except Exception:
            reduced = None
        if isinstance(reduced, tuple) and len(reduced) >= 2:
            parts = [(yield reduced[1])]
            if len(reduced) > 2 and reduced[2] is not None:
                parts.append((yield reduced[2]))
            if len(reduced) > 3 and reduced[3] is not None:
                parts.append((yield list(reduced[3])))
            if len(reduced) > 4 and reduced[4] is not None:
                parts.append((yield dict(reduced[4])))
            return [f"{name}<", *_joined(parts, "; "), ">"]
        return f"{name}<{obj!r}>"

    def _attributes(self, obj):
        state = {}
        for cls in type(obj).__mro__:
            slots = cls.__dict__.get("__slots__", ())
            for slot in ([slots] if isinstance(slots, str) else slots):
                if slot not in ("__dict__", "__weakref__") and hasattr(obj, slot):
                    state[slot] = getattr(obj, slot)
        if hasattr(obj, "__dict__") and isinstance(obj.__dict__, dict):
            state.update(obj.__dict__)
        if not state:
            return ""
        if isinstance(obj, (tuple, list)):        # namedtuple-like
            state = {**state, "_items": list(obj)}
        items = []
        for k, v in sorted(state.items()):
            items.append([f"{k}=", (yield v)])
        return ["(", *_joined(items), ")"]


def _joined(parts, separator=", "):
    """``parts`` with ``separator`` between them (a rope's pieces)."""
    out = []
    for i, part in enumerate(parts):
        if i:
            out.append(separator)
        out.append(part)
    return out


# ------------------------------------------------------------------ host

FINGERPRINT, EQUAL, BATCH, RESET, OPAQUE = ("__fingerprint__", "__equal__", "__batch__",
                                             "__reset__", "__opaque__")
#: ``SPECTRA(command)``: line spectra of the target's own files, asked only
#: while a departure is localised (``conformance.sandbox.spectra.answer``).
SPECTRA = "__spectra__"


class CallTimeout(BaseException):
    """Raised inside the target's code when its call exceeds the time limit:
    its CPU time (SIGPROF), or, ``waited``, its wall-clock time (SIGALRM)."""

    def __init__(self, waited: bool = False):
        super().__init__()
        self.waited = waited


#: A call is limited in the CPU time it uses, not in the time it waits: on a
#: loaded grader a correct program may wait many times its limit for a core.
#: It still ends: it gets at most this many times its limit in wall time.
WALL_FACTOR = 10


def time_limit_message(limit: float, waited: bool) -> str:
    """What a report says of a call (or an import) stopped at its limit."""
    if not waited:
        return f"used more than {limit:g} s of CPU time"
    return (f"no answer within {limit * WALL_FACTOR:g} s (it waited, or the machine was too "
            f"loaded to give it {limit:g} s of CPU time)")


# The C functions, not signal.py's wrappers: the same calls without the
# enum conversions, about ten times cheaper, and they run at every call.
_install, _setitimer = _signal.signal, _signal.setitimer
_monotonic = time.monotonic
_SIGPROF, _SIGALRM = int(signal.SIGPROF), int(signal.SIGALRM)
_ITIMER_PROF, _ITIMER_REAL = signal.ITIMER_PROF, signal.ITIMER_REAL


def _time_limits(seconds: float) -> None:
    """Arm (``seconds`` > 0) or disarm (0) the limits of one call: SIGPROF
    after ``seconds`` of this process's CPU time, SIGALRM after
    ``WALL_FACTOR`` times as long on the wall clock. Main thread only."""
    if seconds:
        # Our own references, taken before any target ran: a target that
        # replaces signal.signal or signal.setitimer changes nothing here.
        # Installed at every call (every batch, Host.run): a target that
        # installed its own handler with the real function loses it (the
        # parent's clock is the last resort for one that blocks the signals).
        _install(_SIGPROF, _over_cpu)
        _install(_SIGALRM, _over_wall)
    _setitimer(_ITIMER_PROF, seconds)
    _setitimer(_ITIMER_REAL, seconds * WALL_FACTOR)


class _Armed:
    """The limits inside a batch (:meth:`Host.run`). Arming them costs two
    system calls, and disarming two more: about 2 µs, more than a small
    call itself. So a batch arms them before a call only when more than
    :data:`REARM` seconds have passed on the wall clock since it last did,
    and disarms them once, at its end. A call then gets its whole limit
    less at most ``REARM`` (times the process's threads, for CPU time):
    2 s less 5 ms at the default. Between two calls the limits may run out
    (the previous call used nearly all of them): the handler then does
    nothing but ask the next call to arm them again (``between``)."""

    between = False     # in a batch, outside its calls: a limit running out is no one's
    at = float("-inf")  # time.monotonic() when the batch last armed the limits


#: See :class:`_Armed`.
REARM = 0.005


def _over_cpu(signum, frame):
    if _Armed.between:
        _Armed.at = float("-inf")
        return
    _time_limits(0)
    raise CallTimeout(waited=False)


def _over_wall(signum, frame):
    if _Armed.between:
        _Armed.at = float("-inf")
        return
    _time_limits(0)
    raise CallTimeout(waited=True)


def operations(obj):
    """The public callables an object (usually a module) provides."""
    names = set()
    for name in dir(obj):
        if name.startswith("_"):
            continue
        try:
            value = getattr(obj, name)
        except Exception:
            continue
        if callable(value):
            names.add(name)
    return frozenset(names)


def _flat(items, atoms):
    """Whether every item is an atom or a tuple of atoms: a collection whose
    items need no copy (a set of positions)."""
    for v in items:
        t = type(v)
        if t in atoms:
            continue
        if t is not tuple:
            return False
        for x in v:
            if type(x) not in atoms:
                return False
    return True


def _mutable(value):
    """Whether a plain value contains a list, dict or set anywhere."""
    t = type(value)
    if t in (list, dict, set):
        return True
    if t in (tuple, frozenset):
        return any(_mutable(v) for v in value)
    return False


class Progress:
    """Which call of a batch the child is in: a shared page (a file the
    parent made, mapped here) holding the call's index, written before each
    call (a store to memory, no system call). When a batch ends the process
    (it died, or was killed for time), the parent reads it to say which
    call did it. ``None`` (all bits set): between batches."""

    SIZE = 8
    NONE = b"\xff" * 8

    def __init__(self, fd):
        import mmap
        self.page = mmap.mmap(fd, self.SIZE) if fd is not None else None

    def note(self, index):
        if self.page is not None:
            self.page[:8] = index.to_bytes(8, "little")

    def clear(self):
        if self.page is not None:
            self.page[:8] = self.NONE

    @classmethod
    def read(cls, data):
        if len(data) != cls.SIZE or data == cls.NONE:
            return None
        return int.from_bytes(data, "little")


#: The operations the host answers itself (BATCH is :meth:`Host.run`'s).
_HOST_OPERATIONS = frozenset((FINGERPRINT, EQUAL, RESET, OPAQUE, SPECTRA))

#: The result of a call that failed (what a later Earlier to it finds).
_FAILED = object()


class Host:
    """The target's operations and its object table.

    ``atoms``: the types passed by value as they are (the action enum among
    them); ``handle_type(id, type_name)`` makes the handles given out;
    ``earlier_type``: the class of a batch argument that is an earlier
    call's result (``.index``).
    """

    def __init__(self, namespace, id_base=0, atoms=(), handle_type=Ref, earlier_type=Earlier):
        self.namespace = namespace
        self.operations = operations(namespace)
        self.objects = {}
        self.next_id = id_base
        self.generation = id_base >> ID_BITS
        self.functions = {}
        self.atoms = frozenset((bool, int, float, str, bytes, type(None)) + tuple(atoms))
        self.handle_type = handle_type
        self.earlier_type = earlier_type
        self.opaque = frozenset()     # operations whose results stay here (OPAQUE)
        self.time_limit = 0.0       # CPU seconds per call (the sandbox child, _time_limits)
        self._earlier = None        # inside a batch: the results so far (Earlier's targets)
        self.progress = Progress(None)      # which call of a batch runs (the sandbox child's)
        self._result = _FAILED      # the last call's result, as it returned it
        #: ``() -> (recorder, answer)`` for SPECTRA (see :meth:`spectra`); None: not offered.
        self.spectra_factory = None
        self.recorder = None

    def limit_time(self, seconds):
        """Interrupt any call (each call of a batch too) that uses more than
        ``seconds`` of CPU time, or waits too long (:func:`_time_limits`); the
        process lives on. Main thread of a child only."""
        self.time_limit = seconds

    def copy_plain(self, value, resolve=None):
        """A copy of a plain value; raises NotPlain when it is not plain.
        With ``resolve``, handles inside are replaced by ``resolve(handle)``."""
        t = type(value)
        if t in self.atoms:
            return value
        if t is self.handle_type or t is self.earlier_type:
            if resolve is None:
                raise NotPlain
            return resolve(value)
        if t is tuple:
            if _flat(value, self.atoms):
                return value        # immutable all through: itself
            return tuple(self.copy_plain(v, resolve) for v in value)
        if t is list:
            return [self.copy_plain(v, resolve) for v in value]
        if t is frozenset:
            if _flat(value, self.atoms):
                return value
            return frozenset(self.copy_plain(v, resolve) for v in value)
        if t is set:
            if _flat(value, self.atoms):
                return set(value)   # (a set of positions: the usual answer, copied at C speed)
            return {self.copy_plain(v, resolve) for v in value}
        if t is dict:
            return {self.copy_plain(k, resolve): self.copy_plain(v, resolve)
                    for k, v in value.items()}
        raise NotPlain

    def resolve(self, handle):
        if type(handle) is self.earlier_type:
            return self._earlier_result(handle)
        try:
            return self.objects[handle.id]
        except KeyError:
            if handle.id >> ID_BITS != self.generation:
                raise HostError("crashed", "handle from a target process that has ended "
                                "(it timed out or died earlier)") from None
            raise HostError("missing", f"unknown handle (forgotten by {RESET}?)") from None

    def _earlier_result(self, ref):
        done = self._earlier
        if done is None or not 0 <= ref.index < len(done):
            raise HostError("missing", f"no call {ref.index} earlier in this batch")
        value = done[ref.index]
        if value is _FAILED:
            raise HostError("skipped", "not called: it takes the result of a call that failed")
        return value

    def _keep(self, value):
        self.next_id += 1
        self.objects[self.next_id] = value
        return self.handle_type(self.next_id, type(value).__qualname__)

    def _arg(self, value):
        t = type(value)
        if t in self.atoms:
            return value
        if t is self.earlier_type:
            return self._earlier_result(value)
        if t is self.handle_type:
            return self.resolve(value)
        if t is tuple:
            for v in value:
                if type(v) not in _SCALARS:
                    break
            else:
                return value        # (a position: immutable all through, nothing to copy)
        return self.copy_plain(value, self.resolve)

    #: ``value -> data`` (:func:`encode` into the channel's answers) or None:
    #: when set, a plain result is encoded when its call returns, which
    #: takes the snapshot a copy would (a later call of the batch may
    #: change it), and is not copied. A result it refuses (NotPlain,
    #: ValueError, RecursionError) is copied, or kept, as without it.
    encoder = None

    def _export(self, value):
        if type(value) in self.atoms:
            return value
        encoder = self.encoder
        if encoder is not None:
            try:
                data = encoder(value)
            except (NotPlain, ValueError, RecursionError):
                pass
            else:
                if _mutable(value):
                    return Kept(self._keep(value), Encoded(data))
                return Encoded(data)
        try:
            copy = self.copy_plain(value)
        except NotPlain:
            return self._keep(value)
        if _mutable(copy):
            # The caller gets a copy; the original stays here so that passing
            # the copy back reaches the original.
            return Kept(self._keep(value), copy)
        return copy

    def invoke(self, op, args):
        """Run one call; the target's own exceptions propagate."""
        function = self.functions.get(op)
        if function is None:
            if op in _HOST_OPERATIONS:
                return self._host_operation(op, args)
            if op not in self.operations:
                raise HostError("missing", "the target has no such operation")
            function = self.functions[op] = getattr(self.namespace, op)
        arg, atoms = self._arg, self.atoms
        # (an atom, the usual argument after the first, as _arg gives it: itself)
        result = self._result = function(*[a if type(a) in atoms else arg(a) for a in args])
        if type(result) in atoms:
            return result
        if op in self.opaque:
            return self._keep(result)
        return self._export(result)

    def _host_operation(self, op, args):
        """One of :data:`_HOST_OPERATIONS` (never a target's: their names
        start with an underscore, which :func:`operations` leaves out)."""
        if op == FINGERPRINT:
            self._result = fingerprint(self._arg(args[0]))
            return self._result
        if op == EQUAL:
            a, b = (self.copy_plain(x, self.resolve) for x in args)
            self._result = bool(a == b)
            return self._result
        if op == RESET:
            self.objects.clear()
            return None
        if op == OPAQUE:
            self.opaque = frozenset(str(name) for name in args[0])
            return None
        return self.spectra(args[0])      # SPECTRA

    def spectra(self, command):
        """A SPECTRA request: the recorder is made on the first one
        (``spectra_factory``), never before (a check that finds no departure
        traces nothing)."""
        if self.spectra_factory is None:
            raise HostError("missing", "this target offers no line spectra")
        if self.recorder is None:
            self.recorder = self.spectra_factory()
        recorder, answer = self.recorder
        return answer(recorder, str(command))

    def run(self, op, args):
        """Run one call (or a batch); answer ``("ok", value)`` or
        ``("error", kind, message, detail)``."""
        if op == BATCH:
            return self._run_batch(args)
        if self.recorder is not None:
            self.recorder[0].op = op        # the lines it runs are this operation's
        limit = self.time_limit
        try:
            if limit:
                _time_limits(limit)     # (a batch's calls: see _run_batch and _Armed)
            try:
                return ("ok", self.invoke(op, args))
            finally:
                if limit:
                    _setitimer(_ITIMER_PROF, 0)
                    _setitimer(_ITIMER_REAL, 0)
        except BaseException as e:   # noqa: BLE001 - anything the target raises is reported
            return self._error(e)

    def _error(self, e):
        """The answer to a call that raised ``e``."""
        if isinstance(e, HostError):
            return ("error", e.kind, e.message, "")
        if isinstance(e, CallTimeout):
            return ("error", "timeout", time_limit_message(self.time_limit, e.waited)
                    + ("" if e.waited else " (an endless loop?)"), _frames(e))
        if isinstance(e, SystemExit):
            return ("error", "exited", f"called exit({e.code!r})", format_exception(e))
        if isinstance(e, MemoryError):
            return ("error", "memory", "ran out of memory (MemoryError)", format_exception(e))
        return ("error", "raised", f"raised {type(e).__name__}: {e}", format_exception(e))

    def _run_batch(self, args):
        """A batch's calls, each as :meth:`run` runs one (inline: this is the
        hot path of a check); ``("ok", [result or Failure, ...])``."""
        results, done = [], []
        self._earlier = done
        limit = self.time_limit
        if limit:
            # The handlers once for the batch's calls, not at each (see
            # _time_limits): a call that installs its own keeps it for
            # the rest of the batch, and the parent's clock, which is
            # told which call runs (Progress), is then the last resort.
            _install(_SIGPROF, _over_cpu)
            _install(_SIGALRM, _over_wall)
            _Armed.at = float("-inf")
        stop = len(args) > 1 and args[1] is True
        note, invoke, recorder = self.progress.note, self.invoke, self.recorder
        append, finished = results.append, done.append
        try:
            for sub_op, sub_args in args[0]:
                if stop and results and type(results[-1]) is Failure:
                    # (asked to stop at the first failed call: a pipelined
                    # run of steps, whose later steps the engine would not play)
                    append(Failure("skipped", "not called: an earlier call of "
                                   "the batch failed", "", sub_op))
                    finished(_FAILED)
                    continue
                note(len(done))
                self._result = _FAILED
                if recorder is not None:
                    recorder[0].op = sub_op
                try:
                    if limit:
                        now = _monotonic()
                        if now - _Armed.at > REARM:
                            _setitimer(_ITIMER_PROF, limit)
                            _setitimer(_ITIMER_REAL, limit * WALL_FACTOR)
                            _Armed.at = now
                        _Armed.between = False
                    try:
                        value = invoke(sub_op, sub_args)
                    finally:
                        if limit:
                            _Armed.between = True
                except BaseException as e:   # noqa: BLE001 - reported as run() does
                    answer = self._error(e)
                    append(Failure(answer[1], answer[2], answer[3], sub_op))
                    finished(_FAILED)
                    continue
                append(value)
                finished(self._result)
        finally:
            if limit:
                _setitimer(_ITIMER_PROF, 0)
                _setitimer(_ITIMER_REAL, 0)
                _Armed.between = False
            self._earlier = None
            self._result = _FAILED
            self.progress.clear()
        return ("ok", results)


def _ours(line):
    return RUNNER_NAME in line or "conformance/child.py" in line or "conformance/sandbox.py" in line


def format_exception(exc):
    """The target's traceback without our own frames."""
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    return "".join(line for line in lines if not _ours(line))


def _frames(exc):
    """Where the target was when its time ran out (no exception line: the
    interruption is ours, not the target's)."""
    lines = traceback.format_tb(exc.__traceback__)
    return "".join(line for line in lines if not _ours(line)) + "(interrupted: time limit)\n"


# ----------------------------------------------------------- import guard

class ImportGuard:
    """Refuses the project's own modules to the target, by where they come
    from: a top-level module named like one of ours (``names``) loads only
    from the submission's own folders (``allowed``); any module whose file
    lies under one of ``roots`` (our source folders) is refused whatever its
    name. Every refusal is recorded in ``attempts``.

    A finder of ``sys.meta_path`` needs only ``find_spec``: this one does not
    derive from ``importlib.abc.MetaPathFinder``, whose module imports
    ``importlib.resources``, ``typing`` and ``pathlib`` (24 ms of CPU time at
    every start of a child, as much as all its other imports)."""

    def __init__(self, names, roots, allowed):
        self.names = frozenset(names)
        self.roots = tuple(os.path.join(os.path.realpath(r), "") for r in roots)
        self.files = frozenset(os.path.realpath(r) for r in roots)
        self.allowed = list(allowed)
        self.attempts = []

    def _refuse(self, fullname):
        self.attempts.append(fullname)
        raise ImportError(f"{fullname} is the reference implementation: a submission may not "
                          "import it", name=fullname)

    def _ours(self, origin):
        if not origin:
            return False
        real = os.path.realpath(origin)
        return real in self.files or real.startswith(self.roots)

    def find_spec(self, fullname, path=None, target=None):
        if path is None and fullname in self.names:
            own = importlib.machinery.PathFinder.find_spec(fullname, self.allowed)
            if own is None or self._ours(own.origin):
                self._refuse(fullname)
            return own
        found = importlib.machinery.PathFinder.find_spec(fullname, path)
        if found is not None and (self._ours(found.origin) or any(
                self._ours(p) for p in (found.submodule_search_locations or ()))):
            self._refuse(fullname)
        return None


# ------------------------------------------------------------- the child

def load(init):
    """Import the target described by ``init`` (in the child)."""
    kind, path = init["kind"], init.get("path")
    if kind in ("module", "object"):
        obj = importlib.import_module(init["module"])
        for part in (init["attr"].split(".") if init.get("attr") else ()):
            obj = getattr(obj, part)
        return obj
    name = init["module_name"]
    if kind == "package":
        ispec = importlib.util.spec_from_file_location(
            name, os.path.join(path, "__init__.py"), submodule_search_locations=[path])
    else:
        ispec = importlib.util.spec_from_file_location(name, path)
    if ispec is None or ispec.loader is None:
        raise ImportError(f"{path}: cannot be loaded as Python")
    module = importlib.util.module_from_spec(ispec)
    sys.modules[name] = module
    ispec.loader.exec_module(module)
    return module


def describe_load_error(name, exc):
    """One paragraph saying why importing the target failed (no frames of ours)."""
    if isinstance(exc, SyntaxError):
        where = f"{os.path.basename(exc.filename)}, line {exc.lineno}" if exc.filename else name
        return f"{name}: syntax error at {where}: {exc.msg}"
    if isinstance(exc, SystemExit):
        return f"{name}: called exit({exc.code!r}) while being imported"
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if "importlib" not in f.filename and not _ours(f.filename)
              and not f.filename.endswith("targets.py")]
    where = f" ({frames[-1].filename}, line {frames[-1].lineno})" if frames else ""
    return f"{name}: importing it raised {type(exc).__name__}: {exc}{where}"


class _Channel:
    def __init__(self, fd_in, fd_out):
        self.fd_in, self.fd_out = fd_in, fd_out

    def receive(self):
        (size,) = struct.unpack(">I", read_exact(self.fd_in, 4))
        if size > MAX_MESSAGE:
            raise EOFError
        return marshal.loads(read_exact(self.fd_in, size))      # (the checker's: order())

    def send(self, document):
        write_all(self.fd_out, frame(document))


def set_limit(which, value):
    """Lower a resource limit (never above the hard limit in force; a
    platform that refuses it keeps its own). Imports nothing: it runs in a
    ``preexec_fn`` after the switch to a box's uid, which may not be able
    to read Python's library folder."""
    try:
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))
    except (ValueError, OSError):
        pass


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - the target may have replaced or closed it
            pass


def _rewind_output():
    try:
        os.ftruncate(1, 0)
        os.lseek(1, 0, os.SEEK_SET)
    except OSError:
        pass


def batch_call(item, make_action):
    """One call of a batch message: ``[op, args]``, or ``[op, args, refs]``
    where each ``[position, index]`` of ``refs`` puts ``Earlier(index)`` at
    that position of the arguments (checked: an earlier call)."""
    op, encoded = item[0], item[1]
    if type(op) is not str or type(encoded) is not list:
        raise ProtocolError("not a call")
    args = _decode_items(encoded, (Ref, make_action, None, None, 1, None))     # decode(encoded)
    if len(item) > 2:
        for ref in item[2]:
            if (type(ref) is not list or len(ref) != 2 or type(ref[0]) is not int
                    or type(ref[1]) is not int or not 0 <= ref[0] < len(args)):
                raise ProtocolError("not a reference to an earlier call")
            args[ref[0]] = Earlier(ref[1])
    return (op, tuple(args))


def batch_calls(item, make_action):
    """The calls of one item of a batch message: a call (:func:`batch_call`),
    or a run of calls on one first argument, ``[0, [first], [[op, scalar...],
    ...]]`` (``first`` as a call's argument, ``[[0, index]]`` after it when it
    is an earlier call's result), each ``(op, (first, scalar...))``: the
    observers of one grid, cell by cell, without repeating the grid."""
    if type(item) is not list or len(item) < 2:
        raise ProtocolError("not a call")
    if type(item[0]) is not int:
        return [batch_call(item, make_action)]
    if item[0] != 0 or len(item) not in (3, 4) or type(item[1]) is not list \
            or len(item[1]) != 1 or type(item[2]) is not list:
        raise ProtocolError("not a run of calls")
    first = batch_call([""] + item[1:2] + item[3:], make_action)[1]
    (head,) = first
    out = []
    append = out.append
    for sub in item[2]:
        if type(sub) is not list or not sub or type(sub[0]) is not str:
            raise ProtocolError("not a call")
        if len(sub) == 3:           # (an observer of a cell: the usual call, inline)
            x, y = sub[1], sub[2]
            if type(x) in _SCALARS and type(y) in _SCALARS:
                append((sub[0], (head, x, y)))
                continue
        for x in sub[1:]:
            if type(x) not in _SCALARS:
                raise ProtocolError("a run's argument is not a scalar")
        append((sub[0], first + tuple(sub[1:])))
    return out


def spectra_root(path, namespace):
    """The folder whose files are the target's own (their lines are its
    spectra): the folder of its file, or of its package; else its module's."""
    if path:
        return os.path.dirname(os.path.abspath(path))
    found = getattr(namespace, "__file__", None)
    return os.path.dirname(os.path.abspath(found)) if found else None


def _spectra_factory(source, path, namespace):
    """What makes the child's line recorder on the first SPECTRA request:
    ``source`` is ``conformance/sandbox/spectra.py``'s text, handed over by
    the parent beside this file's, compiled only then."""
    root = spectra_root(path, namespace)
    if not source or root is None:
        return None

    def make():
        scope = {"__name__": "sokoban_spectra"}
        exec(compile(source, "<sokoban-spectra>", "exec"), scope)
        return scope["Recorder"](root), scope["answer"]
    return make


def child_main():
    """The sandbox child: stdin/stdout carry the protocol; the target's own
    stdin is /dev/null and its output goes to the file on fd 2."""
    channel = _Channel(os.dup(0), os.dup(1))        # os.dup: not inherited by exec
    spectra_source = sys.argv[2] if len(sys.argv) > 2 else None     # see _spectra_factory
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    try:
        init = channel.receive()
    except (EOFError, ValueError):
        os._exit(0)
    import faulthandler
    limit = init["output_limit"]
    if limit:
        set_limit(resource.RLIMIT_FSIZE, limit)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)   # Python ignores it by default
    faulthandler.enable()
    sys.argv = [init.get("path") or init["name"]]
    sys.path[:0] = init["sys_path"]
    guard = None
    if init.get("guard"):
        guard = ImportGuard(init["guard"]["names"], init["guard"]["roots"], init["sys_path"])
        sys.meta_path.insert(0, guard)
    start_limit = init["start_timeout"]
    try:
        _time_limits(start_limit)
        try:
            namespace = load(init)
        finally:
            _time_limits(0)
    except BaseException as e:  # noqa: BLE001 - report why the import failed
        _flush()
        if guard is not None and guard.attempts:
            channel.send({"reference": guard.attempts[0]})
        elif isinstance(e, ModuleNotFoundError) and e.name:
            channel.send({"missing-module": e.name.split(".")[0]})
        elif isinstance(e, CallTimeout):
            channel.send({"load-error": f"{init['name']}: did not finish importing: "
                          f"{time_limit_message(start_limit, e.waited)}"
                          + ("" if e.waited else " (a loop at module level?)")})
        else:
            channel.send({"load-error": describe_load_error(init["name"], e)})
        os._exit(0)
    _flush()
    if guard is not None and guard.attempts:
        channel.send({"reference": guard.attempts[0]})
        os._exit(0)
    _rewind_output()
    actions = target_accion(namespace, init.get("directions", "ours"))
    names = {member: name for name, member in actions.items()}
    action_types = tuple({type(m) for m in actions.values()})

    def action_name(value):
        try:
            return names.get(value) if type(value) in action_types else None
        except TypeError:
            return None

    host = Host(namespace, init["id_base"], atoms=action_types, handle_type=Ref)
    try:
        host.progress = Progress(init.get("progress_fd"))
    except (OSError, ValueError, TypeError):
        pass                # (no note: a batch that dies is told as a whole)
    host.spectra_factory = _spectra_factory(spectra_source, init.get("path"), namespace)
    if init.get("timeout"):
        host.limit_time(init["timeout"])
    channel.send({"ok": sorted(host.operations)})
    reported = 0
    memo = Memo()
    host.encoder = result_encoder(memo, action_name)
    while True:
        try:
            message = channel.receive()
        except (EOFError, ValueError, OSError):
            os._exit(0)
        if type(message) is not dict or message.get("op") != "call":
            os._exit(0)
        op = message["name"]
        if message.get("reset") is True:    # a RESET said with this call: first
            host.invoke(RESET, ())
        try:
            if op == BATCH:     # [[op, [args...], [[position, index]...]?] or a run, ...]
                make_action = actions.__getitem__
                args = ([call for sub in message["batch"]
                         for call in batch_calls(sub, make_action)],)
                if message.get("stop") is True:     # (stop at the first failed call)
                    args += (True,)
            else:
                args = decode(message["args"], Ref, actions.__getitem__)
        except (ProtocolError, TypeError, IndexError, KeyError) as e:
            channel.send({"error": ["unpicklable", f"arguments cannot be read: {e}", ""]})
            continue
        answer = host.run(op, tuple(args))
        _flush()
        if guard is not None and len(guard.attempts) > reported:
            reported = len(guard.attempts)
            answer = ("error", "raised", "imports the reference implementation "
                      f"({guard.attempts[-1]})", "")
        printed = os.fstat(1).st_size
        if limit and printed >= limit:
            answer = ("error", "output", f"printed {limit} bytes or more in one call", "")
        elif answer[0] == "ok" and printed:
            _rewind_output()        # the cap is per call; keep a failing call's output
        if answer[0] == "ok":
            try:
                document = {"ok": encode(answer[1], Ref, action_name, memo)}
                data = frame(document)
            except (NotPlain, ValueError, RecursionError) as e:
                memo.forget()       # (it may name sets this answer was to send)
                data = frame({"error": ["unpicklable", f"the answer cannot be sent back: {e}",
                                        ""]})
        else:
            data = frame({"error": [str(answer[1]), str(answer[2]), str(answer[3])]})
        try:
            write_all(channel.fd_out, data)
        except OSError:
            os._exit(0)


if __name__ == "__main__":
    child_main()
