"""Running a target: in a child process (untrusted code) or in-process (ours).

Both are :class:`conformance.api.Target` s with the same behaviour: plain
results (see :mod:`conformance.api`) come back by value, copied; anything else
stays with the target in an object table and comes back as a
:class:`~conformance.api.Handle`; handles in arguments are resolved there.
Arguments are copies too, so a target can never alter what the engine (and
the spec, which only ever runs in the engine's process) holds.

:class:`SandboxTarget` runs the target in a fresh ``python`` child speaking
pickle over two pipes. The child's stdout and stderr go to a temporary file.
Each call has a time limit (the child is killed when it is exceeded); the
child's address space is capped with ``RLIMIT_AS``; printed output is capped
per call with ``RLIMIT_FSIZE`` (a write past the cap kills the child with
``SIGXFSZ``) and checked after every call. Whatever goes wrong becomes a
:class:`~conformance.api.TargetError` of the matching kind; after a timeout
or a death the next call starts a new child, so the run goes on (handles from
the old child are then refused).
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import traceback
import weakref
from multiprocessing.connection import Connection
from typing import Any

from conformance.api import (
    BATCH, EQUAL, FINGERPRINT, RESET, SPECIAL_OPERATIONS, Handle, TargetError,
)
from conformance.targets import BadTarget, TargetSpec, describe_load_error, load, operations
from spec.tipos import Accion

DEFAULT_TIMEOUT = 2.0                 # seconds per call
DEFAULT_START_TIMEOUT = 30.0          # seconds to start the child and import the target
DEFAULT_MEMORY_MB = 1024              # address-space cap of the child
DEFAULT_OUTPUT_LIMIT = 1_000_000      # bytes printed per call

_GRACE = 1.0                           # seconds the parent waits beyond the child's own limit
_ID_BITS = 40                          # handle id = generation << _ID_BITS | serial
_ATOMS = (bool, int, float, str, bytes, type(None), Accion)


# ------------------------------------------------------------- plain values

class _NotPlain(Exception):
    pass


def _copy_plain(value: Any, resolve=None) -> Any:
    """A copy of a plain value; raises _NotPlain when it is not plain.
    With ``resolve``, handles inside are replaced by ``resolve(handle)``."""
    t = type(value)
    if t in _ATOMS:
        return value
    if t is Handle:
        if resolve is None:
            raise _NotPlain
        return resolve(value)
    if t is tuple:
        return tuple(_copy_plain(v, resolve) for v in value)
    if t is list:
        return [_copy_plain(v, resolve) for v in value]
    if t is frozenset:
        return frozenset(_copy_plain(v, resolve) for v in value)
    if t is set:
        return {_copy_plain(v, resolve) for v in value}
    if t is dict:
        return {_copy_plain(k, resolve): _copy_plain(v, resolve) for k, v in value.items()}
    raise _NotPlain


def _mutable(value: Any) -> bool:
    """Whether a plain value contains a list, dict or set anywhere."""
    t = type(value)
    if t in (list, dict, set):
        return True
    if t in (tuple, frozenset):
        return any(_mutable(v) for v in value)
    return False


class _Kept:
    """A mutable plain result: its value (copied) and a handle to the original."""

    __slots__ = ("handle", "value")

    def __init__(self, handle: Handle, value: Any):
        self.handle = handle
        self.value = value

    def __reduce__(self):
        return (_Kept, (self.handle, self.value))


class _Identity:
    """Keeps object identity across the boundary for mutable plain values.

    A mutable plain result (a grid as a list of lists, a juego as a dict)
    reaches the engine as a copy, by value, as the contract says; this table
    remembers which target object each such copy stands for, so that when
    the engine passes that very copy back as an argument, the target gets its
    original object (and an implementation that mutates its argument is
    caught by ``FINGERPRINT``, which then describes the original).
    """

    def __init__(self):
        self.table: dict[int, tuple[Any, Handle]] = {}

    def clear(self) -> None:
        self.table.clear()

    def absorb(self, value: Any) -> Any:
        if type(value) is _Kept:
            self.table[id(value.value)] = (value.value, value.handle)
            return value.value
        return value

    def substitute(self, value: Any) -> Any:
        entry = self.table.get(id(value))
        if entry is not None and entry[0] is value:
            return entry[1]
        return value

    def outgoing(self, op: str, args: tuple) -> tuple:
        if not self.table:
            return args
        if op == BATCH:
            table = self.table
            out = []
            for o, a_ in args[0]:
                new = None
                for i, a in enumerate(a_):
                    entry = table.get(id(a))
                    if entry is not None and entry[0] is a:
                        if new is None:
                            new = list(a_)
                        new[i] = entry[1]
                out.append((o, a_) if new is None else (o, tuple(new)))
            return (out,)
        return tuple(self.substitute(a) for a in args)

    def incoming(self, op: str, value: Any) -> Any:
        if op == RESET:
            self.clear()
        if op == BATCH:
            return [self.absorb(v) for v in value]
        return self.absorb(value)


# -------------------------------------------------------------- fingerprint

def fingerprint(obj: Any) -> str:
    """A canonical, deterministic deep description of ``obj``'s value.

    Sets and dicts are sorted by the description of their members, objects
    are described by their class and ``__dict__``/``__slots__`` (or what
    ``__reduce_ex__`` exposes), shared and cyclic references by their order of
    first visit. Any in-place change anywhere in the object graph (a cell of a
    grid, a list inside a dict, an attribute) changes the description.
    """
    try:
        return _Describer().describe(obj)
    except RecursionError:          # a very deep structure (a long linked list)
        return _deep_fingerprint(obj)


def _deep_fingerprint(obj: Any) -> str:
    """Describe a very deep object graph on a thread with a big stack."""
    import threading
    result: list[str] = []

    def work():
        try:
            result.append(_Describer().describe(obj))
        except RecursionError:
            result.append(f"too deep to describe: {type(obj).__qualname__}")

    old_limit, old_size = sys.getrecursionlimit(), threading.stack_size()
    try:
        sys.setrecursionlimit(50_000)
        threading.stack_size(128 * 1024 * 1024)
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
    except RuntimeError:            # no thread (memory cap): give up describing
        pass
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
    return result[0] if result else f"too deep to describe: {type(obj).__qualname__}"


class _Describer:
    def __init__(self):
        self.seen: dict[int, int] = {}
        self.keep: list[Any] = []       # keeps transient objects alive (stable ids)

    def describe(self, obj: Any) -> str:
        t = type(obj)
        if obj is None or t in (bool, int, float, complex, str, bytes):
            return repr(obj)
        if isinstance(obj, type):
            return f"<class {obj.__module__}.{obj.__qualname__}>"
        if callable(obj) and hasattr(obj, "__qualname__") and not hasattr(obj, "__dict__"):
            return f"<callable {getattr(obj, '__module__', '?')}.{obj.__qualname__}>"
        if t.__name__ in ("function", "module", "builtin_function_or_method", "method"):
            return f"<{t.__name__} {getattr(obj, '__qualname__', getattr(obj, '__name__', '?'))}>"
        import enum
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

    def _container(self, obj: Any, t: type) -> str:
        name = t.__qualname__
        if isinstance(obj, (tuple, list)) and not hasattr(obj, "_fields"):
            return f"{name}[{', '.join(self.describe(v) for v in obj)}]"
        if isinstance(obj, (set, frozenset)):
            return f"{name}{{{', '.join(sorted(self.describe(v) for v in obj))}}}"
        if isinstance(obj, dict):
            items = sorted(f"{self.describe(k)}: {self.describe(v)}" for k, v in obj.items())
            extra = self._attributes(obj) if type(obj) is not dict else ""
            return f"{name}{{{', '.join(items)}}}{extra}"
        if isinstance(obj, bytearray):
            return f"{name}({bytes(obj)!r})"
        attrs = self._attributes(obj)
        if attrs:
            return f"{name}{attrs}"
        try:
            reduced = obj.__reduce_ex__(4)
        except Exception:
            reduced = None
        if isinstance(reduced, tuple) and len(reduced) >= 2:
            parts = [self.describe(reduced[1])]
            if len(reduced) > 2 and reduced[2] is not None:
                parts.append(self.describe(reduced[2]))
            if len(reduced) > 3 and reduced[3] is not None:
                parts.append(self.describe(list(reduced[3])))
            if len(reduced) > 4 and reduced[4] is not None:
                parts.append(self.describe(dict(reduced[4])))
            return f"{name}<{'; '.join(parts)}>"
        return f"{name}<{obj!r}>"

    def _attributes(self, obj: Any) -> str:
        state: dict[str, Any] = {}
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
        items = ", ".join(f"{k}={self.describe(v)}" for k, v in sorted(state.items()))
        return f"({items})"


# --------------------------------------------------------------- the host

class _CallTimeout(BaseException):
    """Raised inside the target's code when its call exceeds the time limit."""


class _Host:
    """The target's side of the boundary: its operations, its object table."""

    def __init__(self, namespace: Any, id_base: int = 0):
        self.namespace = namespace
        self.operations = operations(namespace)
        self.objects: dict[int, Any] = {}
        self.next_id = id_base
        self.generation = id_base >> _ID_BITS
        self.functions: dict[str, Any] = {}
        self.time_limit = 0.0       # seconds per call, enforced with SIGALRM (the sandbox child)

    def limit_time(self, seconds: float) -> None:
        """Interrupt any call (each call of a batch too) that runs longer than
        ``seconds``; the process lives on. Main thread of a child only."""
        def expired(signum, frame):
            raise _CallTimeout()
        signal.signal(signal.SIGALRM, expired)
        self.time_limit = seconds

    def _resolve(self, handle: Handle) -> Any:
        try:
            return self.objects[handle.id]
        except KeyError:
            if handle.id >> _ID_BITS != self.generation:
                raise TargetError("crashed", "handle from a target process that has ended "
                                  "(it timed out or died earlier)") from None
            raise TargetError("missing", f"unknown handle {handle.id} (forgotten by "
                              f"{RESET}?)") from None

    def _keep(self, value: Any) -> Handle:
        self.next_id += 1
        self.objects[self.next_id] = value
        return Handle(self.next_id, type(value).__qualname__)

    def _arg(self, value: Any) -> Any:
        t = type(value)
        if t is Handle:
            return self._resolve(value)
        if t in _ATOMS:
            return value
        return _copy_plain(value, self._resolve)

    def _export(self, value: Any) -> Any:
        if type(value) in _ATOMS:
            return value
        try:
            copy = _copy_plain(value)
        except _NotPlain:
            return self._keep(value)
        if _mutable(copy):
            # The caller gets a copy; the original stays here so that passing
            # the copy back reaches the original (see _Identity).
            return _Kept(self._keep(value), copy)
        return copy

    def invoke(self, op: str, args: tuple) -> Any:
        """Run one call; the target's own exceptions propagate."""
        if op == FINGERPRINT:
            return fingerprint(self._resolve(args[0]) if isinstance(args[0], Handle) else args[0])
        if op == EQUAL:
            a, b = (_copy_plain(x, self._resolve) for x in args)
            return bool(a == b)
        if op == RESET:
            self.objects.clear()
            return None
        function = self.functions.get(op)
        if function is None:
            if op not in self.operations:
                raise TargetError("missing", "the target has no such operation", op=op)
            function = self.functions[op] = getattr(self.namespace, op)
        return self._export(function(*[self._arg(a) for a in args]))

    def run(self, op: str, args: tuple) -> tuple:
        """Run one call (or a batch); answer ``("ok", value)`` or
        ``("error", kind, message, detail)``."""
        if op == BATCH:
            results = []
            for sub_op, sub_args in args[0]:
                answer = self.run(sub_op, tuple(sub_args))
                results.append(answer[1] if answer[0] == "ok"
                               else TargetError(answer[1], answer[2], answer[3], sub_op))
            return ("ok", results)
        try:
            if self.time_limit:
                signal.setitimer(signal.ITIMER_REAL, self.time_limit)
            try:
                return ("ok", self.invoke(op, args))
            finally:
                if self.time_limit:
                    signal.setitimer(signal.ITIMER_REAL, 0)
        except TargetError as e:
            return ("error", e.kind, e.message, e.detail)
        except _CallTimeout as e:
            return ("error", "timeout", f"no answer within {self.time_limit:g} s "
                    "(an infinite loop?)", _traceback(e))
        except SystemExit as e:
            return ("error", "exited", f"called exit({e.code!r})", _traceback(e))
        except MemoryError as e:
            return ("error", "memory", "ran out of memory (MemoryError)", _traceback(e))
        except BaseException as e:   # noqa: BLE001 - anything the target raises is reported
            return ("error", "raised", f"raised {type(e).__name__}: {e}", _traceback(e))


def _traceback(exc: BaseException) -> str:
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    # Drop our own frames (the host) from the top of the traceback.
    return "".join(line for line in lines if "conformance/sandbox.py" not in line)


def _raise(answer: tuple, op: str) -> Any:
    if answer[0] == "ok":
        return answer[1]
    raise TargetError(answer[1], answer[2], answer[3], op)


class _TargetBase:
    """``has``/``call`` over a transport that answers ``("ok", v)`` tuples."""

    operations: frozenset[str] = frozenset()

    def has(self, op: str) -> bool:
        return op in self.operations or op in SPECIAL_OPERATIONS

    def _transport(self, op: str, args: tuple) -> tuple:
        raise NotImplementedError

    def call(self, op: str, *args: Any) -> Any:
        args = self._identity.outgoing(op, args)
        return self._identity.incoming(op, _raise(self._transport(op, args), op))


# ------------------------------------------------------------ in-process

class InProcessTarget(_TargetBase):
    """A trusted target run in this process: same interface, no isolation
    (no time, memory or output limits), much faster."""

    def __init__(self, spec: TargetSpec, namespace: Any | None = None):
        self.spec = spec
        self.name = spec.name
        self._identity = _Identity()
        if namespace is None:
            try:
                namespace = load(spec)
            except BadTarget:
                raise
            except BaseException as e:  # noqa: BLE001 - the target's import failed
                raise BadTarget(describe_load_error(spec, e)) from None
        self._host = _Host(namespace)
        self.operations = self._host.operations

    def _transport(self, op: str, args: tuple) -> tuple:
        return self._host.run(op, args)

    def close(self) -> None:
        self._host.objects.clear()
        self._identity.clear()


# --------------------------------------------------------------- sandbox

class SandboxTarget(_TargetBase):
    """An untrusted target run in a child process (see the module docstring).

    Raises :class:`BadTarget` at construction when the target cannot be
    imported (missing module, syntax error, exception, exit or loop at import).
    """

    def __init__(self, spec: TargetSpec, *, timeout: float = DEFAULT_TIMEOUT,
                 memory_mb: int = DEFAULT_MEMORY_MB,
                 output_limit: int = DEFAULT_OUTPUT_LIMIT,
                 start_timeout: float = DEFAULT_START_TIMEOUT):
        self.spec = spec
        self.name = spec.name
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.output_limit = output_limit
        self.start_timeout = start_timeout
        self.generation = 0
        self.restarts = -1            # how many times a child had to be started again
        self._proc: subprocess.Popen | None = None
        self._finalizer = None
        self._identity = _Identity()
        try:
            self._start()
        except TargetError as e:
            detail = f"\n{e.detail.rstrip()}" if e.detail.strip() else ""
            raise BadTarget(f"{e.message}{detail}") from None
        self.operations = self._operations

    # -- process management
    def _start(self) -> None:
        self._identity.clear()
        self.generation += 1
        self.restarts += 1
        self._out = tempfile.TemporaryFile()
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0",
                   PYTHONFAULTHANDLER="1", PYTHONUNBUFFERED="0")
        # -P: the cwd off the path; only what the child itself imports is pinned to
        # ours, so a submission may still import its own sibling soko.py or impl/.
        code = ("import sokoban_tad; sokoban_tad.use_our_packages(('spec', 'conformance')); "
                "from conformance.sandbox import _child_main; _child_main()")
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-P", "-c", code, str(down_r), str(up_w)],
                stdin=subprocess.DEVNULL, stdout=self._out, stderr=self._out,
                pass_fds=(down_r, up_w), close_fds=True, env=env)
        finally:
            os.close(down_r)
            os.close(up_w)
        self._down = Connection(down_w, readable=False)
        self._up = Connection(up_r, writable=False)
        self._finalizer = weakref.finalize(self, _kill, self._proc, self._down, self._up,
                                           self._out)
        self._send(("init", {
            "sys_path": [os.path.abspath(p) if p else os.getcwd() for p in sys.path],
            "spec": self.spec,
            "memory": self.memory_mb * 1024 * 1024 if self.memory_mb else None,
            "output_limit": self.output_limit,
            "id_base": self.generation << _ID_BITS,
            "timeout": self.timeout,
        }), "import")
        answer = self._receive("import", self.start_timeout)
        if answer[0] == "load-error":
            self._stop()
            raise TargetError("raised", answer[1])
        self._operations = frozenset(_raise(answer, "import"))

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
        self._proc = None

    def _send(self, message: tuple, op: str) -> None:
        try:
            self._down.send(message)
        except (BrokenPipeError, OSError):
            raise self._death(op) from None
        except (pickle.PicklingError, TypeError, AttributeError) as e:
            raise TargetError("unpicklable", f"arguments cannot be sent: {e}", op=op) from None

    def _receive(self, op: str, timeout: float) -> tuple:
        try:
            ready = self._up.poll(timeout)
        except (EOFError, OSError):
            ready = True
        if not ready:
            tail = self._output_tail()
            self._stop()
            raise TargetError("timeout", f"no answer within {timeout:g} s and it could not be "
                              "interrupted (a loop outside Python?); the process was killed",
                              tail, op)
        try:
            return self._up.recv()
        except (EOFError, OSError):
            raise self._death(op) from None
        except Exception as e:  # noqa: BLE001 - garbage on the pipe
            self._stop()
            raise TargetError("crashed", f"sent an unreadable answer: {e}", op=op) from None

    def _death(self, op: str) -> TargetError:
        proc = self._proc
        try:
            code = proc.wait(timeout=5) if proc is not None else None
        except subprocess.TimeoutExpired:
            code = None
        tail = self._output_tail()
        self._stop()
        if code is None:
            return TargetError("crashed", "the process stopped answering", tail, op)
        if code < 0:
            sig = -code
            if sig == signal.SIGXFSZ:
                return TargetError("output", f"printed more than {self.output_limit} bytes "
                                   "in one call; the process was killed", tail[-500:], op)
            try:
                signame = signal.Signals(sig).name
            except ValueError:
                signame = str(sig)
            what = {"SIGSEGV": " (segmentation fault)", "SIGABRT": " (abort)",
                    "SIGKILL": " (killed: out of memory, or it killed itself)"}.get(signame, "")
            return TargetError("crashed", f"the process died from signal {signame}{what}", tail, op)
        return TargetError("exited", f"the process ended with status {code} "
                           "(the target called os._exit or exit)", tail, op)

    def _output_tail(self, size: int = 4000) -> str:
        try:
            end = os.fstat(self._out.fileno()).st_size
            data = os.pread(self._out.fileno(), size, max(0, end - size))
        except (OSError, ValueError):
            return ""
        return data.decode("utf-8", "replace")

    # -- Target
    def _transport(self, op: str, args: tuple) -> tuple:
        if self._proc is None:
            self._start()
        self._send(("call", op, args), op)
        # The child interrupts a call at ``timeout`` itself (SIGALRM) and
        # answers; the parent waits a little longer and kills it only when
        # that fails (a loop in C code that never returns to Python).
        calls = len(args[0]) if op == BATCH else 1
        return self._receive(op, self.timeout * calls + _GRACE)

    def restart(self) -> None:
        """Start a fresh child now (every handle becomes invalid)."""
        self._stop()
        self._start()

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def close(self) -> None:
        if self._proc is not None:
            try:
                self._down.send(("close",))
                self._proc.wait(timeout=1)
            except Exception:  # noqa: BLE001 - it is going away anyway
                pass
        self._stop()


def _kill(proc: subprocess.Popen, *files) -> None:
    """Kill the child (if alive), reap it, close its pipes and output file."""
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    for c in files:
        try:
            c.close()
        except OSError:
            pass


# ------------------------------------------------------------- the child

def _child_main() -> None:
    """Entry point of the sandbox child (``python -c`` with two pipe fds)."""
    down = Connection(int(sys.argv[1]), writable=False)
    up = Connection(int(sys.argv[2]), readable=False)
    init = down.recv()[1]
    sys.path[:] = init["sys_path"]
    sys.argv = [init["spec"].path or init["spec"].name]
    import resource
    limit = init["output_limit"]
    if limit:
        _set_limit(resource.RLIMIT_FSIZE, limit)
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)   # Python ignores it by default
    if init["memory"]:
        _set_limit(resource.RLIMIT_AS, init["memory"])
    faulthandler.enable()
    _die_with_parent()
    spec: TargetSpec = init["spec"]
    try:
        namespace = load(spec, keep_path=True)
    except BaseException as e:  # noqa: BLE001 - report why the import failed
        _flush()
        up.send(("load-error", describe_load_error(spec, e)))
        os._exit(0)
    _flush()
    _rewind_output()
    host = _Host(namespace, init["id_base"])
    if init.get("timeout"):
        host.limit_time(init["timeout"])
    up.send(("ok", sorted(host.operations)))
    while True:
        try:
            message = down.recv()
        except (EOFError, OSError):
            os._exit(0)
        if message[0] != "call":
            os._exit(0)
        _, op, args = message
        answer = host.run(op, args)
        _flush()
        if limit and os.fstat(1).st_size >= limit:
            answer = ("error", "output", f"printed {limit} bytes or more in one call", "")
        elif answer[0] == "ok":
            _rewind_output()        # the cap is per call; keep a failing call's output
        try:
            up.send(answer)
        except Exception as e:  # noqa: BLE001 - e.g. an exception that cannot be pickled
            up.send(("error", "unpicklable", f"the answer cannot be sent back: {e}", ""))


def _set_limit(which: int, value: int) -> None:
    """Lower a resource limit (never above the hard limit already in force;
    a platform that refuses it, as macOS may for RLIMIT_AS, keeps its own)."""
    import resource
    try:
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))
    except (ValueError, OSError):
        pass


def _die_with_parent() -> None:
    """Linux: get SIGKILL when the parent dies, so a target stuck in a loop
    is never left running after the checker is killed (best effort)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)          # PR_SET_PDEATHSIG
        if os.getppid() == 1:                           # the parent is already gone
            os._exit(0)
    except (OSError, AttributeError):
        pass


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - the target may have replaced or closed it
            pass


def _rewind_output() -> None:
    try:
        os.ftruncate(1, 0)
        os.lseek(1, 0, os.SEEK_SET)
    except OSError:
        pass


# ----------------------------------------------------------------- opening

def open_target(spec: TargetSpec, *, in_process: bool | None = None,
                timeout: float = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB,
                output_limit: int = DEFAULT_OUTPUT_LIMIT):
    """The Target for ``spec``: in-process for our own implementation (or
    when asked), otherwise sandboxed. Raises :class:`BadTarget`."""
    if in_process is None:
        in_process = spec.trusted
    if in_process:
        return InProcessTarget(spec)
    return SandboxTarget(spec, timeout=timeout, memory_mb=memory_mb, output_limit=output_limit)
