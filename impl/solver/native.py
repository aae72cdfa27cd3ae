"""The native push-search kernel (``impl/solver/native/``: ``kernel.h`` and
the ``.cpp`` files beside it).

The kernel is a standalone C++ program (no Python headers): it reads one level
as XSB on stdin and prints one line (``solved <nodes> <LURD>``,
``unsolvable <nodes>``, ``gave_up <time|nodes|memory|window> <nodes>`` or
``error <message>``).  Its files are built into one program with ``g++ -O2
-std=c++17 -Wall -Wextra`` on first use and cached under
``$XDG_CACHE_HOME/sokoban-tad/solver/`` (default ``~/.cache/...``), named by
a hash of the sources, the flags and the compiler's version.
``SOKOBAN_SOLVER_SANITIZE=1`` builds it with AddressSanitizer and
UndefinedBehaviorSanitizer instead (CI runs the solver's tests so once): any
error they find stops the kernel, and the caller sees a failure.  The build is written to a temporary file and renamed
into place under a lock, so concurrent first uses (``solve --jobs 2``) do not
race; the executable's mode follows the umask.

The kernel runs as a subprocess with the time limit (killed on overrun) and
an address-space limit, so a crash never takes Python down: the caller gets
a :class:`KernelFailure` and falls back to the Python search.  When g++ is
missing or the build fails, :func:`kernel` returns ``None`` with a one-line
note saying why.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import resource
import shutil
import selectors
import subprocess
import time
from pathlib import Path

from levels.drawing import bounds, draw_rows
from levels import storage

from .search import Outcome

SOURCE_DIR = Path(__file__).with_name("native")
FLAGS = ("-O2", "-std=c++17", "-Wall", "-Wextra")
#: ``SOKOBAN_SOLVER_SANITIZE=1``: the kernel built with these flags instead,
#: run without the address-space limit (the sanitizers reserve terabytes of
#: it) and with ``SANITIZER_ENV`` in its environment.
SANITIZE = "SOKOBAN_SOLVER_SANITIZE"
SANITIZE_FLAGS = ("-O1", "-g", "-std=c++17", "-Wall", "-Wextra", "-fsanitize=address,undefined",
                  "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer")
SANITIZER_ENV = {"ASAN_OPTIONS": "detect_leaks=1:exitcode=86",
                 "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:exitcode=86"}


def sanitized() -> bool:
    """Is the kernel to be built and run with the sanitizers?"""
    return os.environ.get(SANITIZE) == "1"


def flags() -> tuple:
    return SANITIZE_FLAGS if sanitized() else FLAGS


def sources() -> list[Path]:
    """The kernel's files: every ``.h`` and ``.cpp`` of ``native/``, sorted."""
    return sorted(p for p in SOURCE_DIR.iterdir() if p.suffix in (".h", ".cpp"))
COMPILER = "g++"

#: The kernel's own memory cap (MB), and the address-space limit set on its
#: process: the cap plus this headroom.
MEMORY_MB = 3000
HEADROOM_MB = 1024

#: Seconds the kernel may overrun its time limit before it is killed.
GRACE = 2.0

_built: dict = {}

#: ``SOKOBAN_KERNEL_EXPERIMENTS=1`` lets the kernel read its experiment
#: switches (``SOKOBAN_KERNEL_*``, docs/solver.md); without it they are not
#: passed to the kernel, so a stray variable in a user's environment never
#: changes what the solver does. benchmarks/solver.py sets it.
EXPERIMENTS = "SOKOBAN_KERNEL_EXPERIMENTS"


def kernel_environment(environ=None) -> dict[str, str]:
    """The kernel's environment: ours, less the experiment switches unless
    :data:`EXPERIMENTS` is ``1``."""
    env = dict(os.environ if environ is None else environ)
    if env.get(EXPERIMENTS) != "1":
        env = {k: v for k, v in env.items() if not k.startswith("SOKOBAN_KERNEL_")}
    if env.get(SANITIZE) == "1":
        env.update(SANITIZER_ENV)
    return env


class _BuildFailed(Exception):
    """g++ failed on the kernel (the message is the note to give)."""


class KernelFailure(RuntimeError):
    """The kernel crashed, was killed, or printed something unexpected."""


def cache_dir() -> Path:
    return storage.cache_dir("solver")


def kernel() -> tuple:
    """``(path of the built kernel, None)`` or ``(None, note)`` saying why
    there is none (no g++, or the build failed).  Built at most once per
    process and once per (source, flags, compiler) in the cache."""
    compiler = shutil.which(COMPILER)
    if compiler is None:
        return None, f"native kernel unavailable: {COMPILER} not found; used the Python search"
    built = (compiler, flags())
    if built in _built:
        return _built[built]
    _built[built] = result = _build(compiler)
    return result


def _build(compiler: str) -> tuple:
    try:
        version = subprocess.run([compiler, "--version"], capture_output=True,
                                 text=True, timeout=30).stdout
        files = sources()
        source = b"".join(p.name.encode() + b"\0" + p.read_bytes() for p in files)
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"native kernel unavailable: {exc}; used the Python search"
    key = hashlib.sha256(source + "\0".join(flags()).encode() + version.encode()).hexdigest()[:16]
    where = cache_dir()
    target = where / f"kernel-{key}"
    if os.access(target, os.X_OK):
        return target, None
    try:
        where.mkdir(parents=True, exist_ok=True)
        with open(where / f"kernel-{key}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if os.access(target, os.X_OK):  # built meanwhile by another process
                return target, None
            with storage.atomic_path(target, mode=storage.new_file_mode(executable=True),
                                     prefix=f".kernel-{key}-") as tmp:
                done = subprocess.run([compiler, *flags(), "-o", tmp,
                                       *(str(p) for p in files if p.suffix == ".cpp")],
                                      capture_output=True, text=True, timeout=300)
                if done.returncode != 0:
                    first = (done.stderr.strip().splitlines() or ["no message"])[0]
                    raise _BuildFailed(f"native kernel unavailable: {COMPILER} failed "
                                       f"({first}); used the Python search")
    except _BuildFailed as failed:
        return None, str(failed)
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"native kernel unavailable: {exc}; used the Python search"
    return target, None


def xsb(pieces) -> str:
    """The pieces as XSB rows over their bounding box (the kernel adds the
    same margin as ``Board``, so both search the same window)."""
    player = (pieces.player,)
    window = bounds(pieces.walls | pieces.boxes | pieces.goals | set(player))
    rows = draw_rows(pieces.walls, pieces.boxes, pieces.goals, player, window, floor="-")
    return "\n".join(rows) + "\n"


def _limit_memory(limit: int):
    def hook():  # runs in the child: nothing imported here
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return hook


#: Where ``resource.prlimit`` exists (Linux), the kernel's address-space
#: limit is set on the started process, before it is given its level (until
#: it has read it, it has allocated nothing of size): without a
#: ``preexec_fn`` hook, ``subprocess`` starts it without copying the Python
#: process (``vfork``), 2-3 ms less per level.  Elsewhere the hook sets it.
PRLIMIT = hasattr(resource, "prlimit")


def run(path, pieces, time_limit, node_limit, memory_mb: int = MEMORY_MB,
        progress=None, interval: float = 1.0) -> Outcome:
    """Run the kernel on the pieces.  Returns an :class:`Outcome` (``kind``
    "solved", "exhausted", "time", "nodes" or "memory"; "exhausted" also for
    an exhausted open window, which the caller reports as such); raises
    :class:`KernelFailure` when the kernel crashes, is killed or answers
    something unexpected.

    ``progress``, when given, is called as ``progress(nodes, depth=...,
    frontier=...)`` for each progress line the kernel writes while it runs
    (about every ``interval`` seconds; 0: after each of its turns)."""
    args = [str(path), f"{time_limit or 0:.3f}", str(node_limit or 0), str(memory_mb)]
    if progress is not None:
        args.append(f"{max(interval, 0.0):g}")
    limit = (memory_mb + HEADROOM_MB) << 20
    limited = not sanitized()  # the sanitizers' shadow memory needs the address space
    try:
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=kernel_environment(),
                                preexec_fn=None if PRLIMIT or not limited else _limit_memory(limit))
    except OSError as exc:
        raise KernelFailure(f"native kernel could not start: {exc}") from None
    if PRLIMIT and limited:
        try:
            resource.prlimit(proc.pid, resource.RLIMIT_AS, (limit, limit))
        except ProcessLookupError:  # it is gone already: its exit status says why
            pass
        except OSError as exc:
            proc.kill()
            proc.wait()
            raise KernelFailure(f"native kernel could not be limited: {exc}") from None
    timeout = None if time_limit is None else time_limit + GRACE
    answer = None
    with proc:
        try:
            answer = _exchange(proc, xsb(pieces).encode(), timeout, progress)
        finally:
            if answer is None:  # the time is up, or the progress callback raised
                proc.kill()
            proc.wait()
    if answer is None:
        return Outcome("time", None, 0)
    out, err = answer
    return parse(out, proc.returncode, err)


def _exchange(proc, text: bytes, timeout, progress):
    """Write the level, then read the kernel's stdout and stderr until both
    close: ``(stdout, stderr)`` as text, the progress lines taken out of
    stderr and given to ``progress``; ``None`` when ``timeout`` seconds pass
    first."""
    try:
        proc.stdin.write(text)
        proc.stdin.close()
    except BrokenPipeError:  # it answered (an error) before reading it all
        pass
    deadline = None if timeout is None else time.monotonic() + timeout
    chunks = {proc.stdout: [], proc.stderr: []}
    pending = b""  # an unfinished stderr line
    with selectors.DefaultSelector() as sel:
        for stream in chunks:
            sel.register(stream, selectors.EVENT_READ)
        while sel.get_map():
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return None
            for key, _ in sel.select(wait):
                data = os.read(key.fd, 65536)
                if not data:
                    sel.unregister(key.fileobj)
                elif key.fileobj is proc.stdout:
                    chunks[proc.stdout].append(data)
                else:
                    lines = (pending + data).split(b"\n")
                    pending = lines.pop()
                    for line in lines:
                        if not _progress_line(line, progress):
                            chunks[proc.stderr].append(line + b"\n")
    chunks[proc.stderr].append(pending)
    return tuple(b"".join(chunks[s]).decode(errors="replace") for s in (proc.stdout, proc.stderr))


def _progress_line(line: bytes, progress) -> bool:
    """Is ``line`` one of the kernel's progress lines (``progress <nodes>
    <depth> <elapsed> <frontier>``)?  When it is, ``progress`` gets it."""
    words = line.split()
    if len(words) != 5 or words[0] != b"progress":
        return False
    try:
        nodes, depth, _, frontier = int(words[1]), int(words[2]), float(words[3]), int(words[4])
    except ValueError:
        return False
    if progress is not None:
        progress(nodes, depth=depth, frontier=frontier)
    return True


def parse(out: str, returncode: int, err: str = "") -> Outcome:
    """The kernel's answer as an :class:`Outcome` (see :func:`run`)."""
    words = out.split()
    try:
        if returncode == 0 and words:
            if words[0] == "solved" and len(words) in (2, 3):
                lurd = words[2] if len(words) == 3 else ""
                if lurd.strip("udlrUDLR") == "":
                    return Outcome("solved", lurd, int(words[1]))
            if words[0] == "unsolvable" and len(words) == 2:
                return Outcome("exhausted", None, int(words[1]))
            if (words[0] == "gave_up" and len(words) == 3
                    and words[1] in ("time", "nodes", "memory", "window")):
                kind = "exhausted" if words[1] == "window" else words[1]
                return Outcome(kind, None, int(words[2]))
    except ValueError:
        pass
    if returncode < 0:
        why = f"killed by signal {-returncode}"
    elif words[:1] == ["error"]:
        why = " ".join(words[1:])
    else:
        shown = (out.strip() or err.strip() or "no output")[:60]
        why = f"exit status {returncode}, output {shown!r}"
    raise KernelFailure(f"native kernel failed ({why})")
