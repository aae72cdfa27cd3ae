"""Running a target: in a child process (untrusted code) or in-process (ours).

Both are :class:`conformance.api.Target` s with the same behaviour: plain
results (see :mod:`conformance.api`) come back by value, copied; anything else
stays with the target in an object table and comes back as a
:class:`~conformance.api.Handle`; handles in arguments are resolved there.
Arguments are copies too, so a target can never alter what the engine (and
the spec, which only ever runs in the engine's process) holds.

:class:`SandboxTarget` runs the target in a box (:mod:`conformance.sandbox.isolation`:
its own session, resource limits, at best bubblewrap namespaces or an
unprivileged uid) holding a private copy of the submission. The child is a
fresh ``python -I -S`` running :mod:`conformance.sandbox.child` (standard library
only: it cannot import this project, and refuses the target that tries) and
speaks a data-only protocol over its stdin and stdout: length-prefixed JSON
with type tags, size-capped, every value's shape checked here; nothing the
child sends is unpickled or evaluated. The target's own output goes to a
temporary file. Each call has a time limit (the child interrupts it with
``SIGALRM``; when that fails the whole box is killed); printed output is
capped per call with ``RLIMIT_FSIZE`` (so is any file it writes), and what
the box stores (its /tmp and working folder) by a storage budget
(:class:`conformance.sandbox.isolation.Storage`), looked at during and between
calls. Whatever goes wrong becomes a
:class:`~conformance.api.TargetError` of the matching kind; after a timeout or
a death the next call starts a new box, so the run goes on (handles from the
old one are then refused). Closing the target kills every process of the box.
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path
from typing import Any

from conformance.sandbox import child as _child
from conformance.sandbox import isolation
from conformance.sandbox import spectra as _spectra
from conformance.api import BATCH, RESET, SPECIAL_OPERATIONS, Earlier, Handle, TargetError
from conformance.translations import _
from conformance.sandbox.child import (  # noqa: F401 - fingerprint is part of this module's API
    Failure, Host, Kept, NotPlain, ProtocolError, decode, encode, fingerprint, order,
    time_limit_message,
)
from conformance.sandbox.loading import (
    BadTarget, ReferenceImport, ResolvedTarget, describe_load_error, load,
    missing_module_message, private_module_name,
)
from spec.tipos import Accion

DEFAULT_TIMEOUT = 2.0                 # seconds per call
DEFAULT_START_TIMEOUT = 10.0          # seconds to import the target
DEFAULT_MEMORY_MB = 1024              # address-space cap of the child
DEFAULT_OUTPUT_LIMIT = 1_000_000      # bytes printed per call
DEFAULT_CPU_SECONDS = 600             # CPU time of any one process of the box
DEFAULT_MAX_PROCESSES = 64            # processes and threads of the box (its uid)
DEFAULT_STORAGE_MB = isolation.DEFAULT_STORAGE_MB   # what the box may store (/tmp, its folder)
DEFAULT_MAX_FILES = isolation.DEFAULT_MAX_FILES     # files and folders it may create

_GRACE = 1.0                          # seconds the parent waits beyond the child's own limit
_LOOK = 0.01                          # seconds between two looks at what a box stores
_STARTUP = 5.0                        # seconds allowed for the interpreter to start
_BOOT = f"import sys; exec(compile(sys.argv[1], {_child.RUNNER_NAME!r}, 'exec'))"
_RUNNER = Path(_child.__file__).read_text(encoding="utf-8")
#: The line recorder's source, handed to the child beside its own (compiled
#: there only when a departure is localised: ``conformance.sandbox.spectra``).
_SPECTRA = Path(_spectra.__file__).read_text(encoding="utf-8")
#: Our own top-level modules; the child refuses them to a target.
PROJECT_NAMES = ("spec", "impl", "levels", "conformance", "speech", "soko")
_PROJECT_ROOT = Path(__file__).resolve().parents[2]
_SKIP = {"__pycache__", ".git", ".hg", ".svn", ".hypothesis", ".pytest_cache", "node_modules",
         ".venv", "venv"}
_MAX_COPY = 64 * 1024 * 1024          # bytes of a submission copied into its box


def project_roots() -> list[str]:
    """Where our own modules live (the child refuses anything from there)."""
    roots = []
    for name in PROJECT_NAMES:
        for candidate in (_PROJECT_ROOT / name, _PROJECT_ROOT / f"{name}.py"):
            if candidate.exists():
                roots.append(str(candidate))
    return roots


def _action(value: Any) -> str | None:
    return value.name if type(value) is Accion else None


#: The types of the copies :class:`_Identity` keeps (a mutable plain value's).
_KEPT_TYPES = frozenset((list, dict, set))


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
        if type(value) is Kept:
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
            last, last_handle = None, None      # (a batch's calls mostly take one grid)
            kept = _KEPT_TYPES.isdisjoint
            for call in args[0]:
                o, a_ = call
                if kept(map(type, a_)):         # (no argument could be a kept copy)
                    out.append(call)
                    continue
                new = None
                for i, a in enumerate(a_):
                    if a is last:
                        handle = last_handle
                    elif type(a) not in _KEPT_TYPES:     # (only a mutable plain copy is kept)
                        continue
                    else:
                        entry = table.get(id(a))
                        handle = entry[1] if entry is not None and entry[0] is a else None
                        last, last_handle = a, handle
                    if handle is not None:
                        if new is None:
                            new = list(a_)
                        new[i] = handle
                out.append((o, a_) if new is None else (o, tuple(new)))
            return (out, *args[1:])
        return tuple(self.substitute(a) for a in args)

    def incoming(self, op: str, value: Any) -> Any:
        if op == RESET:
            self.clear()
        if op == BATCH:
            if Kept not in set(map(type, value)):
                return value
            return [self.absorb(v) for v in value]
        return self.absorb(value)



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

    def __init__(self, spec: ResolvedTarget, namespace: Any | None = None,
                 support: str | None = None):
        self.spec = spec
        self.name = spec.name
        self.support_replaced: list[str] = []
        self._identity = _Identity()
        if namespace is None:
            try:
                namespace = load(spec, support=support)
            except BadTarget:
                raise
            except BaseException as e:  # noqa: BLE001 - the target's import failed
                raise BadTarget(describe_load_error(spec, e)) from None
        self._host = Host(namespace, atoms=(Accion,), handle_type=Handle, earlier_type=Earlier)
        root = _child.spectra_root(spec.path, namespace)
        if root is not None:
            self._host.spectra_factory = lambda: (_spectra.Recorder(root), _spectra.answer)
        self.operations = self._host.operations

    def _transport(self, op: str, args: tuple) -> tuple:
        answer = self._host.run(op, args)
        if op == BATCH and answer[0] == "ok":
            return ("ok", [TargetError(r.kind, r.message, r.detail, r.op) if type(r) is Failure
                           else r for r in answer[1]])
        return answer

    def close(self) -> None:
        self._host.objects.clear()
        self._identity.clear()
        if self._host.recorder is not None:     # never left tracing this process
            self._host.recorder[0].stop()


def _raise(answer: tuple, op: str) -> Any:
    if answer[0] == "ok":
        return answer[1]
    raise TargetError(answer[1], answer[2], answer[3], op)


# --------------------------------------------------------------- sandbox

def _copy_tree(source: Path, dest: Path, budget: list[int]) -> None:
    dest.mkdir(exist_ok=True)
    for entry in sorted(source.iterdir()):
        if entry.name in _SKIP or entry.is_symlink():
            continue
        if entry.is_dir():
            _copy_tree(entry, dest / entry.name, budget)
        elif entry.is_file():
            budget[0] -= entry.stat().st_size
            if budget[0] < 0:
                raise BadTarget(_("{path}: more than {n} MB to copy into the sandbox").format(
                    path=source, n=_MAX_COPY // 2 ** 20))
            shutil.copyfile(entry, dest / entry.name)


def support_files(folder: str | os.PathLike) -> list[str]:
    """The course's support files in ``folder`` (``--support DIR``), as
    paths relative to it (what a box gets beside the submission), sorted.
    Raises :class:`BadTarget` when ``folder`` is not a readable folder."""
    source = Path(folder)
    if not source.is_dir():
        raise BadTarget(_("--support {folder}: not a folder").format(folder=folder))
    found = []
    try:
        for path in sorted(source.rglob("*")):
            relative = path.relative_to(source)
            if any(part in _SKIP for part in relative.parts) or path.is_symlink():
                continue
            if path.is_file():
                found.append(relative.as_posix())
    except OSError as e:
        raise BadTarget(_("--support {folder}: cannot be read ({why})").format(
            folder=folder, why=e.strerror or e)) from None
    return found


def _copy_support(folder: str, work: Path, keep: str | None, budget: list[int]) -> list[str]:
    """Copy the course's support files into a box's working folder, beside
    the submission's own files, read-only (files 0444, their folders 0555).
    On a name clash the course's file wins (the submission's own file of
    that name is replaced), except the checked file itself (``keep``). The
    names replaced are returned."""
    replaced = []
    for relative in support_files(folder):
        if relative == keep:
            continue
        source = Path(folder) / relative
        dest = work / relative
        budget[0] -= source.stat().st_size
        if budget[0] < 0:
            raise BadTarget(_("{path}: more than {n} MB to copy into the sandbox").format(
                path=f"--support {folder}", n=_MAX_COPY // 2 ** 20))
        for parent in reversed(dest.relative_to(work).parents[:-1]):
            (work / parent).mkdir(exist_ok=True)
        if dest.is_dir() and not dest.is_symlink():
            shutil.rmtree(dest)
        if dest.exists() or dest.is_symlink():
            replaced.append(relative)
            dest.unlink()
        shutil.copyfile(source, dest)
        os.chmod(dest, 0o444)
    for relative in {Path(r).parent for r in support_files(folder)} - {Path(".")}:
        os.chmod(work / relative, 0o555)
    return replaced


class _Box:
    """A private temporary copy of the target: ``work`` is the box's only
    writable folder; ``init`` what the child needs to load the target.
    ``support``: the course's folder of support files, copied in beside
    the submission (:func:`_copy_support`); ``replaced`` the submission's
    own files they replaced."""

    def __init__(self, spec: ResolvedTarget, copy_folder: bool, support: str | None = None):
        self.root = tempfile.mkdtemp(prefix="sokoban-box-")
        work = Path(self.root) / "work"
        work.mkdir()
        self.work = str(work)
        self.tmp = str(Path(self.root) / "tmp")      # its TMPDIR where it has no /tmp of its own
        os.mkdir(self.tmp)
        self.replaced: list[str] = []
        try:
            self.init = self._fill(spec, work, copy_folder)
            if support is not None:
                keep = Path(spec.path).name if spec.kind == "file" else None
                try:
                    self.replaced = _copy_support(support, work, keep, [_MAX_COPY])
                except OSError as e:
                    raise BadTarget(_("--support {folder}: cannot be copied into the box "
                                      "({why})").format(folder=support, why=e.strerror or e)
                                    ) from None
        except BaseException:
            self.remove()
            raise

    def _fill(self, spec: ResolvedTarget, work: Path, copy_folder: bool) -> dict[str, Any]:
        budget = [_MAX_COPY]
        init: dict[str, Any] = {"name": spec.name, "kind": spec.kind, "module": spec.module,
                                "attr": spec.attr, "sys_path": [str(work)]}
        if spec.kind == "file":
            source = Path(spec.path)
            if copy_folder:
                _copy_tree(source.parent, work, budget)
            else:
                shutil.copyfile(source, work / source.name)
            init["path"] = str(work / source.name)
            init["module_name"] = private_module_name(spec.path)
        elif spec.kind == "package":
            source = Path(spec.path)
            _copy_tree(source, work / source.name, budget)
            init["path"] = str(work / source.name)
            init["module_name"] = private_module_name(spec.path)
        else:
            top = spec.module.split(".")[0]
            found = importlib.util.find_spec(top)
            if found is None or not (found.origin or found.submodule_search_locations):
                raise BadTarget(_("{target}: no module named {module}").format(
                    target=spec.name, module=repr(top)))
            if found.submodule_search_locations:
                for location in found.submodule_search_locations:
                    _copy_tree(Path(location), work / top, budget)
            elif found.origin and found.origin.endswith(".py"):
                shutil.copyfile(found.origin, work / f"{top}.py")
            else:
                raise BadTarget(_("{target}: {module} is not Python source; the sandbox "
                                  "cannot copy it").format(target=spec.name, module=top))
        return init

    def remove(self) -> None:
        for folder, dirs, _ in os.walk(self.root):      # support folders are read-only
            for name in dirs:
                try:
                    os.chmod(os.path.join(folder, name), 0o755)
                except OSError:
                    pass
        shutil.rmtree(self.root, ignore_errors=True)


class SandboxTarget(_TargetBase):
    """An untrusted target run in a box (see the module docstring).

    Raises :class:`BadTarget` at construction when the target cannot be
    imported (missing module, syntax error, exception, exit or loop at
    import), :class:`~conformance.checking.targets.ReferenceImport` when it imports
    our own implementation. ``directions``: the convention of the stand-in
    ``Accion`` the target gets when it defines none. ``level``: the isolation
    level (default: the best available, see :mod:`conformance.sandbox.isolation`).
    ``copy_folder``: copy the whole folder of a file target into the box
    (its helper modules), or only the file. ``storage_mb``, ``max_files``:
    what the box may store (None: no budget). ``support``: a folder of the
    course's own files (``--support DIR``) copied into every box, read-only,
    beside the submission's (the course's file wins a name clash, except
    the checked file itself; ``support_replaced`` names the files replaced).
    """

    def __init__(self, spec: ResolvedTarget, *, timeout: float = DEFAULT_TIMEOUT,
                 memory_mb: int = DEFAULT_MEMORY_MB,
                 output_limit: int = DEFAULT_OUTPUT_LIMIT,
                 start_timeout: float = DEFAULT_START_TIMEOUT,
                 directions: str = "ours", level: str | None = None,
                 copy_folder: bool = True, max_processes: int = DEFAULT_MAX_PROCESSES,
                 cpu_seconds: float = DEFAULT_CPU_SECONDS,
                 storage_mb: int | None = DEFAULT_STORAGE_MB,
                 max_files: int = DEFAULT_MAX_FILES, support: str | None = None):
        self.spec = spec
        self.support = support
        self.support_replaced: list[str] = []
        self.name = spec.name
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.output_limit = output_limit
        self.start_timeout = start_timeout
        self.directions = directions
        self.copy_folder = copy_folder
        self.max_processes = max_processes
        self.cpu_seconds = cpu_seconds
        self.storage_mb = storage_mb
        self.max_files = max_files
        self._next_look = {"during": 0.0, "after": 0.0}
        try:
            self.level = "best-effort" if spec.trusted else (level or isolation.isolation_level())
        except isolation.IsolationError as e:
            raise BadTarget(str(e)) from None
        self.generation = 0
        self.restarts = -1            # how many times a child had to be started again
        self._proc: subprocess.Popen | None = None
        self._finalizer = None
        self._identity = _Identity()
        self._buffer = b""
        self._unbox = None
        self._progress = None
        try:
            self._start()
        except TargetError as e:
            detail = f"\n{e.detail.rstrip()}" if e.detail.strip() else ""
            raise BadTarget(f"{e.message}{detail}") from None
        except BaseException:       # the check's budget ran out while it opened: no box left
            self._stop()
            raise
        self.operations = self._operations

    # -- process management
    def _start(self) -> None:
        self._identity.clear()
        self._seen = [None] * _child.Memo.SIZE     # (a fresh child has remembered nothing)
        self.generation += 1
        self.restarts += 1
        self._buffer = b""
        box = _Box(self.spec, self.copy_folder, self.support)
        self.support_replaced = box.replaced
        self._out = tempfile.TemporaryFile()
        # Where the child notes which call of a batch it is in (see
        # _child.Progress): a batch that ends the process is told by that call.
        # (Read after the box is gone: closed when the next box starts.)
        if self._progress is not None:
            self._progress.close()
        self._progress = _progress_file()
        init = dict(box.init, output_limit=self.output_limit, timeout=self.timeout,
                    start_timeout=self.start_timeout, directions=self.directions,
                    id_base=self.generation << _child.ID_BITS,
                    progress_fd=None if self._progress is None else self._progress.fileno())
        if self.spec.trusted:
            # Our own implementation, sandboxed on request: our interpreter and path.
            python, flags = sys.executable, ["-B"]
            init["sys_path"] = [os.path.abspath(p) if p else os.getcwd() for p in sys.path]
        else:
            python, flags = isolation.python_for_box(), ["-I", "-S", "-B"]
            init["guard"] = {"names": list(PROJECT_NAMES), "roots": project_roots()}
        try:
            self._proc = isolation.spawn(
                [python, *flags, "-c", _BOOT, _RUNNER, _SPECTRA], workdir=box.work,
                memory_mb=self.memory_mb, cpu_seconds=self.cpu_seconds,
                max_processes=self.max_processes, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=self._out, level=self.level,
                # Our own code, sandboxed on request, stores nothing: no budget,
                # so no private /tmp either (it would hide a checkout under /tmp).
                storage_mb=None if self.spec.trusted else self.storage_mb,
                max_files=self.max_files, tmpdir=box.tmp,
                env={"PYTHONHASHSEED": "0", "PYTHONFAULTHANDLER": "1",
                     "PYTHONDONTWRITEBYTECODE": "1"},
                pass_fds=() if self._progress is None else (self._progress.fileno(),))
        except BaseException:
            box.remove()
            self._out.close()
            raise
        self._finalizer = weakref.finalize(self, _cleanup, self._proc, self._out, box)
        # Tracebacks name the submission's own files, not the box's copies.
        self._unbox = (box.work, str(Path(self.spec.path).parent)) if self.spec.path else None
        self._send({"op": "init", **init}, "import")
        answer = self._receive("import", self.start_timeout + _STARTUP, importing=True)
        if "reference" in answer:
            self._stop()
            raise ReferenceImport(_("{target}: imports the reference implementation ({module})"
                                    ).format(target=self.spec.name, module=answer["reference"]))
        if "missing-module" in answer:
            self._stop()
            raise TargetError("raised", missing_module_message(
                self.spec.name, str(answer["missing-module"]), self.support))
        if "load-error" in answer:
            self._stop()
            raise TargetError("raised", self._from_box(str(answer["load-error"])))
        operations = answer.get("ok")
        if type(operations) is not list or not all(type(o) is str for o in operations):
            self._stop()
            raise TargetError("crashed", _("sent an unreadable answer to the import"))
        self._operations = frozenset(operations)

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
        self._proc = None

    def _send(self, document: dict, op: str) -> None:
        try:
            data = order(document)
        except (ValueError, TypeError) as e:
            raise TargetError("unpicklable", _("arguments cannot be sent: {problem}").format(
                problem=e), op=op) from None
        try:
            _child.write_all(self._proc.stdin.fileno(), data)
        except (BrokenPipeError, OSError, ValueError):
            raise self._death(op) from None

    def _frame(self) -> dict | None:
        """The next complete message in the buffer, if any (checked)."""
        if len(self._buffer) < 4:
            return None
        (size,) = struct.unpack(">I", self._buffer[:4])
        if size > _child.MAX_MESSAGE:
            raise ProtocolError(f"an answer of {size} bytes (the limit is "
                                f"{_child.MAX_MESSAGE})")
        if len(self._buffer) < 4 + size:
            return None
        data, self._buffer = self._buffer[4:4 + size], self._buffer[4 + size:]
        try:
            document = json.loads(data.decode("utf-8"))
        except (ValueError, RecursionError) as e:
            raise ProtocolError(f"not JSON: {e}") from None
        if type(document) is not dict or len(document) != 1:
            raise ProtocolError("not a message")
        return document

    def _receive(self, op: str, timeout: float, importing: bool = False,
                 per_call: float | None = None) -> dict:
        """The next message; the box is killed when it has no answer within
        ``timeout`` seconds of CPU time (see :class:`isolation.CallClock`:
        on a loaded machine it may wait longer for its CPU), or, ``per_call``
        (a batch), when one call of the batch uses that long: its clock
        starts again each time the child notes it is in another call
        (:class:`_child.Progress`), so a call that cannot be interrupted
        costs its own limit, not the whole batch's."""
        clock = isolation.CallClock(self._proc.pid, timeout)
        call_clock, at = None, None
        if per_call is not None:
            call_clock = isolation.CallClock(self._proc.pid, per_call)
        self._next_look["during"] = time.monotonic() + _LOOK
        fd = self._proc.stdout.fileno()
        try:
            while True:
                document = self._frame()
                if document is not None:
                    return document
                self._look(op, "during")
                why = clock.over()
                if why:
                    break
                if call_clock is not None:
                    now_at = self._progress_note()
                    if now_at != at:
                        at, call_clock = now_at, isolation.CallClock(self._proc.pid, per_call)
                    why = call_clock.over()
                    if why:
                        break
                wait = clock.wait() if call_clock is None else min(clock.wait(), call_clock.wait())
                ready = select.select([fd], [], [], min(wait, _LOOK))[0]
                if ready:
                    chunk = os.read(fd, 1 << 20)
                    if not chunk:
                        raise self._death(op)
                    self._buffer += chunk
                elif self._proc.poll() is not None:
                    # The child is gone but something it left holds the pipe.
                    raise self._death(op)
        except ProtocolError as e:
            self._stop()
            raise TargetError("crashed", _("sent an unreadable answer ({problem}); the process "
                                           "was killed").format(problem=e), op=op) from None
        tail = self._output_tail()
        self._stop()
        if importing:
            raise TargetError("timeout", (_("{target}: did not finish importing: {limit} (a loop "
                                            "at module level?)") if why == "cpu" else
                                          _("{target}: did not finish importing: {limit}")).format(
                target=self.spec.name, limit=time_limit_message(self.start_timeout, why == "wall")),
                tail, op)
        raise TargetError("timeout", _("{limit} and could not be interrupted (a loop outside "
                                       "Python?); the process was killed").format(
            limit=time_limit_message(self.timeout, why == "wall")), tail, op)

    def _look(self, op: str, when: str = "after", now: bool = False) -> None:
        """Kill the box and raise when it stores more than its budget. At
        most one look every ``_LOOK`` seconds ``"during"`` calls, and as
        many ``"after"`` them, unless ``now``."""
        storage = getattr(self._proc, "storage", None)
        if storage is None or (not now and time.monotonic() < self._next_look[when]):
            return
        self._next_look[when] = time.monotonic() + _LOOK
        over = storage.over()
        if over is not None:
            tail = self._output_tail()
            self._stop()
            raise TargetError("storage", _("{why}; the process was killed").format(why=over),
                              tail, op)

    def _death(self, op: str) -> TargetError:
        proc = self._proc
        try:
            proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            pass
        isolation.kill_group(proc)
        code = proc.returncode
        sig = isolation.exit_signal(proc)
        tail = self._output_tail()
        printed = self._output_size()
        self._stop()
        if code is None:
            return TargetError("crashed", _("the process stopped answering"), tail, op)
        if sig is not None:
            if sig == signal.SIGXFSZ:
                if printed < self.output_limit:
                    return TargetError("storage", _("wrote a file larger than {n} bytes (the "
                                                    "limit of any one file); the process was "
                                                    "killed").format(n=self.output_limit),
                                       tail[-500:], op)
                return TargetError("output", _("printed more than {n} bytes in one call; the "
                                               "process was killed").format(n=self.output_limit),
                                   tail[-500:], op)
            try:
                signame = signal.Signals(sig).name
            except ValueError:
                signame = str(sig)
            what = {"SIGSEGV": _(" (segmentation fault)"), "SIGABRT": _(" (abort)"),
                    "SIGXCPU": _(" (CPU time limit)"),
                    "SIGKILL": _(" (killed: out of memory, or it killed itself)")}.get(signame, "")
            return TargetError("crashed", _("the process died from signal {signal}{what}").format(
                signal=signame, what=what), tail, op)
        return TargetError("exited", _("the process ended with status {code} (the target "
                                       "called os._exit or exit)").format(code=code), tail, op)

    def _output_size(self) -> int:
        try:
            return os.fstat(self._out.fileno()).st_size
        except (OSError, ValueError):
            return 0

    def _output_tail(self, size: int = 4000) -> str:
        try:
            end = os.fstat(self._out.fileno()).st_size
            data = os.pread(self._out.fileno(), size, max(0, end - size))
        except (OSError, ValueError):
            return ""
        return data.decode("utf-8", "replace")

    # -- Target
    #: A RESET to send with the next message (see :meth:`_transport`).
    _reset_due = False

    def _transport(self, op: str, args: tuple) -> tuple:
        if op == RESET:
            # Said with the next message, whose calls the child makes once
            # it has forgotten its handles: one round trip fewer an example.
            self._reset_due = True
            return ("ok", None)
        if self._proc is None:
            self._start()
        try:
            if op == BATCH:
                message = {"op": "call", "name": op, "batch": _batch_items(args[0])}
                if len(args) > 1 and args[1] is True:
                    message["stop"] = True
            else:
                message = {"op": "call", "name": op, "args": encode(list(args), Handle, _action)}
        except (NotPlain, RecursionError) as e:
            raise TargetError("unpicklable", _("arguments cannot be sent: {problem}").format(
                problem=e), op=op) from None
        if self._reset_due:
            message["reset"] = True
            self._reset_due = False
        self._send(message, op)
        # The child interrupts a call at ``timeout`` itself (SIGALRM) and
        # answers; the parent waits a little longer and kills it only when
        # that fails (a loop in C code that never returns to Python).
        calls = len(args[0]) if op == BATCH else 1
        if op == BATCH:     # (the child clears its note after each batch)
            try:
                document = self._receive(op, self.timeout * calls + _GRACE,
                                         per_call=self.timeout + _GRACE)
            except TargetError as e:
                raise self._in_batch(e, args[0]) from None
        else:
            document = self._receive(op, self.timeout * calls + _GRACE)
        # A call that failed may have failed for want of room: say so (by
        # that call, in a batch).
        failed = _first_failure(document) if op == BATCH else None
        try:
            self._look(op, now="error" in document or failed is not None)
        except TargetError as e:
            if failed is None or failed >= calls:
                raise
            told = TargetError(e.kind, e.message, e.detail, args[0][failed][0])
            told.index = failed
            raise told from None
        try:
            answer = _answer(document, self._seen)
            if answer[0] == "error":
                return ("error", answer[1], self._from_box(answer[2]), self._from_box(answer[3]))
            if (op == BATCH and type(answer[1]) is list
                    and TargetError in set(map(type, answer[1]))):     # (a failure's text)
                return ("ok", [TargetError(r.kind, self._from_box(r.message),
                                           self._from_box(r.detail), r.op)
                               if isinstance(r, TargetError) else r for r in answer[1]])
            return answer
        except (ProtocolError, RecursionError) as e:
            self._stop()
            raise TargetError("crashed", f"sent an unreadable answer ({e}); the process "
                              "was killed", op=op) from None

    def _progress_note(self) -> int | None:
        """The call of the batch the child says it is in (None: none, or unreadable)."""
        try:
            return _child.Progress.read(os.pread(self._progress.fileno(), _child.Progress.SIZE, 0))
        except (OSError, ValueError, AttributeError):
            return None

    def _in_batch(self, e: TargetError, calls: list) -> TargetError:
        """``e``, an error that ended a batch (the process died, or was
        killed), told by the call of the batch it was in, as the child
        noted it: its ``op`` and ``index`` (unchanged when the note is not
        one of the batch's calls: a target may write anything there)."""
        index = self._progress_note()
        if index is None or not 0 <= index < len(calls):
            return e
        told = TargetError(e.kind, e.message, e.detail, calls[index][0])
        told.index = index
        return told

    def _from_box(self, text: str) -> str:
        if self._unbox is None:
            return text
        return text.replace(self._unbox[0] + os.sep, self._unbox[1] + os.sep)

    def restart(self) -> None:
        """Start a fresh child now (every handle becomes invalid)."""
        self._stop()
        self._start()

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def close(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            try:
                _child.write_all(self._proc.stdin.fileno(), order({"op": "close"}))
                self._proc.wait(timeout=0.5)
            except Exception:  # noqa: BLE001 - it is going away anyway
                pass
        self._stop()


def _first_failure(document: dict) -> int | None:
    """The index of the first call of a batch's answer that failed (None: none)."""
    items = document.get("ok")
    if type(items) is not list:
        return None
    if dict not in set(map(type, items)):
        return None
    for i, item in enumerate(items):
        if type(item) is dict and "x" in item:
            return i
    return None


def _progress_file():
    """The file the child notes its place in a batch in, or None when it
    cannot be made (a full disk, which a submission may have filled: then a
    batch that ends the process is told as a whole)."""
    try:
        f = tempfile.TemporaryFile()
    except OSError:
        return None
    try:
        f.write(_child.Progress.NONE)
        f.flush()
    except OSError:
        f.close()
        return None
    return f


def _batch_items(calls: list) -> list:
    """A batch's calls as the child reads them (:func:`conformance.sandbox.child.batch_calls`):
    consecutive calls whose first argument is the same handle or earlier
    result, and whose other arguments are scalars, go as one run item,
    ``[0, [first], [[op, scalar...], ...]]`` (a full observation: each
    observer on each cell of one grid); any other call as itself."""
    out = []
    append = out.append
    i, n = 0, len(calls)
    while i < n:
        op, args = calls[i]
        j = i + 1
        if args and (type(args[0]) is Handle or type(args[0]) is Earlier) and _scalars(args):
            first = args[0]
            run = [[op, *args[1:]]]
            while j < n:
                o, a = calls[j]
                if not a or a[0] is not first:
                    break
                if len(a) == 3 and type(a[1]) in _RUN_SCALARS and type(a[2]) in _RUN_SCALARS:
                    run.append([o, a[1], a[2]])     # (an observer of a cell: the usual call)
                elif _scalars(a):
                    run.append([o, *a[1:]])
                else:
                    break
                j += 1
            if j - i > 1:
                head = _batch_item("", (first,))
                append([0, head[1], run] + head[2:])
                i = j
                continue
        append(_batch_item(op, args))
        i = j
    return out


#: The arguments a run of calls sends as themselves.
_RUN_SCALARS = frozenset((int, str, bool, type(None)))


def _scalars(args: tuple) -> bool:
    """Whether every argument after the first is a scalar (sent as itself)."""
    for a in args[1:]:
        if type(a) not in _RUN_SCALARS:
            return False
    return True


def _batch_item(op: str, args: tuple) -> list:
    """A batch call as the child reads it (:func:`conformance.sandbox.child.batch_call`):
    an :class:`Earlier` argument goes as its position and index."""
    out, refs = [], None
    for i, a in enumerate(args):
        t = type(a)
        if t is Earlier:
            if refs is None:
                refs = []
            refs.append([i, a.index])
            out.append(None)
        elif t is int or t is str or t is bool:
            out.append(a)
        elif t is Handle:
            out.append({"h": [a.id, a.type_name]})      # (encode's own form, without the call)
        else:
            out.append(encode(a, Handle, _action))
    return [op, out] if refs is None else [op, out, refs]


def _failure(kind: str, message: str, detail: str, op: str) -> TargetError:
    if kind not in TargetError.KINDS:
        raise ProtocolError(f"unknown error kind {kind!r}")
    return TargetError(kind, message, detail, op)


def _answer(document: dict, seen: list | None = None) -> tuple:
    """An answer message as ``("ok", value)`` or ``("error", kind, message, detail)``
    (``seen``: the sets of positions the child's answers have remembered,
    :class:`~conformance.sandbox.child.Memo`)."""
    if "ok" in document:
        return ("ok", decode(document["ok"], Handle, Accion.__getitem__, Kept, _failure, 0, seen))
    error = document.get("error")
    if type(error) is list and len(error) == 3 and all(type(v) is str for v in error) \
            and error[0] in TargetError.KINDS:
        return ("error", *error)
    raise ProtocolError("not an answer")


def _cleanup(proc: subprocess.Popen, out, box: _Box) -> None:
    """Kill every process of the box, close its output file, remove its copy."""
    isolation.kill_group(proc)
    try:
        out.close()
    except OSError:
        pass
    box.remove()


# ----------------------------------------------------------------- opening

def open_target(spec: ResolvedTarget, *, in_process: bool | None = None,
                timeout: float = DEFAULT_TIMEOUT, memory_mb: int = DEFAULT_MEMORY_MB,
                output_limit: int = DEFAULT_OUTPUT_LIMIT, directions: str = "ours",
                level: str | None = None, copy_folder: bool = True,
                storage_mb: int | None = DEFAULT_STORAGE_MB, support: str | None = None):
    """The Target for ``spec``: in-process for our own implementation (or
    when asked), otherwise sandboxed (see :class:`SandboxTarget` for the
    other parameters). ``support``: the course's folder of support files
    (``--support DIR``): in a box, copied beside the submission; in-process,
    first on the import path while the target is imported. Raises
    :class:`BadTarget` (and its kind
    :class:`~conformance.checking.targets.ReferenceImport`)."""
    if support is not None:
        support_files(support)              # a missing folder is a bad argument, said once
    if in_process is None:
        in_process = spec.trusted
    if in_process:
        return InProcessTarget(spec, support=support)
    return SandboxTarget(spec, timeout=timeout, memory_mb=memory_mb, output_limit=output_limit,
                         directions=directions, level=level, copy_folder=copy_folder,
                         storage_mb=storage_mb, support=support)
