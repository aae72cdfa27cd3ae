"""The built driver as an engine :class:`~conformance.api.Target`.

The engine speaks the ``aed2`` profile's operations (``nuevo_juego``,
``mover``, ``hay_pared``...; see ``conformance.profiles.aed2.interface.OPERATIONS``);
this class turns each into a request of the driver's line protocol
(``driver.cpp``) and reads the answer. Positions come and go in our
convention (y grows south), and the lines carry them in seed 001's (y grows
north, ``Norte = (0, 1)``): the target reflects y as it writes and reads
them, so no :class:`~conformance.machines.directions.DirectionAdapter`
stands in front of it (``reflects``). ``Accion`` members become the
course's ``PuntoCardinal`` (``NORTE`` is ``Norte``...).

When the binary dies (a signal, an abort, a sanitizer report, ``exit``) the
call raises :class:`~conformance.api.TargetError` of kind ``"died"`` with the
sanitizer's summary and the first frame in the student's code, and the next
``nuevo_juego`` starts a fresh process, so the engine shrinks the failure
like any other departure.

Line spectra (the ``SPECTRA`` requests, asked only to localise a departure
already found, ``conformance.checking.localize``): ``start`` makes (or
finds in the cache) the folder's coverage build (:mod:`.coverage`) and
plays on it from the next game on; ``take`` answers the lines of the
student's files that ran since the last one; ``stop`` goes back to the
checked build.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import tempfile
import threading
from typing import Any

from conformance.profiles.aed2 import coverage, sanitizer
from conformance.profiles.aed2.build import Build, BuildError, build as build_folder, student_path
from conformance.sandbox import isolation
from conformance.profiles.aed2.process import kill, start
from conformance.api import BATCH, CELL_OBSERVERS, CELLS, RESET, SPECTRA, Handle, TargetError
from conformance.profiles.aed2.interface import OPERATIONS
from conformance.translations import _
from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE, Accion
import signal as _signal

#: PuntoCardinal's values (the course's enum order).
CARDINAL = {Accion.NORTE: 0, Accion.ESTE: 1, Accion.SUR: 2, Accion.OESTE: 3}
CARDINAL_NAMES = ("Norte", "Este", "Sur", "Oeste")
#: Engine operation -> (driver request letter, C++ method).
REQUESTS = {
    "hay_pared": ("P", "hayPared"), "hay_deposito": ("D", "hayDeposito"),
    "hay_caja": ("C", "hayCaja"), "persona": ("A", "posicionActual"),
    "bombas": ("B", "cantidadBombas"), "puede_mover": ("S", "sePuedeMover"),
    "mover": ("M", "mover"), "tirar_bomba": ("T", "tirarBomba"),
    "deshacer": ("U", "deshacer"),
}
METHOD_OF_LETTER = {letter: method for letter, method in REQUESTS.values()}
#: A driver request letter -> the names its operation goes by (the engine's,
#: the C++ method's): a line is reported with those it ran under.
NAMES_OF_LETTER = {letter: (op, method) for op, (letter, method) in REQUESTS.items()}
NAMES_OF_LETTER["N"] = ("nuevo_juego", "aed2_Juego")
DIED_MARK = "@@aed2-died-in: "
#: The operations whose answer is a bool ("1" or "0").
_BOOLEAN = frozenset(REQUESTS) - {"persona", "bombas", "tirar_bomba", "deshacer"}
#: An operation's request letter, and how its answer line is read (0 a
#: boolean, 1 a position, 2 a number, 3 nothing).
_LETTER = {op: letter for op, (letter, _method) in REQUESTS.items()}
_KIND = {op: 0 if op in _BOOLEAN else 1 if op == "persona" else 2 if op == "bombas" else 3
         for op in REQUESTS}
_KIND[CELLS] = 4          # a line of digits (one request ``W``: many calls)


def _course(x: Any, y: Any) -> tuple[Any, Any]:
    """A position of ours in seed 001's convention: y reflected (when both
    are ints: anything else reaches the driver as it is, to be refused)."""
    if type(x) is int and type(y) is int:       # (not a bool: True == 1)
        return x, -y
    return x, y


def _missing(op: str) -> TargetError:
    return TargetError("missing", _("{operation} is not an operation of "
                                    "aed2_Juego").format(operation=op), op=op)


def _shown(op: str, args: tuple) -> str:
    """A call as the course's method with its argument, in the course's
    convention (``mover(Norte)``, ``hayPared({2, 3})``), as a report names it."""
    if op == CELLS:             # (its first call)
        return _shown(CELL_OBSERVERS[0], (args[0], args[1][0]))
    method = REQUESTS[op][1]
    if len(args) < 2:
        return f"{method}()"
    a = args[1]
    if isinstance(a, Accion):
        return f"{method}({CARDINAL_NAMES[CARDINAL[a]]})"
    x, y = _course(*a)
    return f"{method}({{{x}, {y}}})"


#: Bytes of the binary's stderr kept (the sanitizer report is at its end).
STDERR_KEEP = 256 * 1024
#: Requests per round trip (a whole compare; keeps both pipes far from full;
#: a CELLS call counts as the requests it stands for).
CHUNK = 1500


def sanitizer_env(memory_mb: int) -> dict:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C",
        "ASAN_OPTIONS": f"detect_leaks=0:halt_on_error=1:abort_on_error=0:symbolize=1:"
                        f"hard_rss_limit_mb={memory_mb}:allocator_may_return_null=0:"
                        "detect_stack_use_after_return=0",
        "UBSAN_OPTIONS": "halt_on_error=1:abort_on_error=1:print_stacktrace=1:symbolize=1",
    }


class Aed2Target:
    """A C++ implementation of the course interface, built by :mod:`.build`."""

    #: The convention its program takes positions in, reflected here to and
    #: from ours (:func:`~conformance.machines.directions.seen_in_ours`).
    reflects = "seed001"

    def __init__(self, build: Build, *, timeout: float = 10.0, memory_mb: int = 1024,
                 name: str | None = None,
                 storage_mb: int | None = isolation.DEFAULT_STORAGE_MB):
        self.build = build
        self.name = name or str(build.folder)
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.storage_mb = storage_mb        # what the running binary may store
        self.proc: subprocess.Popen | None = None
        self._buffer = b""
        self._lines: dict[tuple, str] = {}  # (operation, position) -> its request line
        self._stderr = bytearray()
        self._stderr_thread: threading.Thread | None = None
        self._game = 0
        self._workdir: str | None = None     # the binary's private working folder
        self._checked: Build | None = None   # while spectra are on: the build checked
        self._blocks: tuple | None = None    # the coverage build's map of blocks, entries

    # -- the Target protocol -------------------------------------------------

    def has(self, op: str) -> bool:
        return op in OPERATIONS or op in (BATCH, RESET, CELLS)

    def call(self, op: str, *args: Any) -> Any:
        if op == RESET:
            return None
        if op == BATCH:
            calls = list(args[0])
            results: list[Any] = []
            start = weight = 0
            for i, (each, a) in enumerate(calls):
                weight += 3 * len(a[1]) if each == CELLS else 1
                if weight >= CHUNK:
                    results += self._many(calls[start:i + 1])
                    start, weight = i + 1, 0
            if start < len(calls):
                results += self._many(calls[start:])
            return results
        if op == "nuevo_juego":
            return self._new_game(args[0])
        if op == SPECTRA:
            return self._spectra(args[0])
        result = self._many([(op, args)])[0]
        if isinstance(result, TargetError):
            raise result
        return result

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.stdin.write(b"Q\n")
                self.proc.stdin.flush()
            except (OSError, ValueError):
                pass
            kill(self.proc)
            self.proc = None
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None

    @property
    def source_folder(self):
        """The student's folder: the files of its spectra are relative to it."""
        return (self._checked or self.build).folder

    # -- line spectra (only to localise a departure) -------------------------

    def _spectra(self, command: str) -> Any:
        if command == "start":
            if self._checked is None:
                try:
                    built = build_folder(self.build.folder, std=self.build.std, coverage=True)
                    blocks = coverage.read_map(built.blocks)
                except (BuildError, OSError, ValueError, KeyError) as e:  # KeyError: an old map
                    raise TargetError("missing", str(e), op=SPECTRA) from None
                self.close()                 # the next game starts the coverage build
                self._checked, self.build, self._blocks = self.build, built, blocks
            return None
        if command == "stop":
            if self._checked is not None:
                self.close()
                self.build, self._checked, self._blocks = self._checked, None, None
            return None
        if command == "take":
            blocks, entries = self._blocks or ({}, {})
            return coverage.spectrum(self._taken(), blocks, NAMES_OF_LETTER, entries)
        raise TargetError("missing", f"unknown spectra command {command!r}", op=SPECTRA)

    def _taken(self) -> list[str]:
        """The driver's blocks run since the last take (``address op count``
        lines): asked of a running coverage build, read from the stderr a
        dead one left."""
        if self._checked is None:
            return []
        if self.proc is not None and self.proc.poll() is None:
            return self._exchange(["G"], 1 << 30, "spectra")
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=2)
        text = bytes(self._stderr).decode("ascii", "replace")
        self._stderr = bytearray()          # taken once
        return [line[len(coverage.ON_DEATH):] for line in text.splitlines()
                if line.startswith(coverage.ON_DEATH)]

    # -- the process ------------------------------------------------------------

    def _start(self) -> None:
        self.close()
        env = sanitizer_env(self.memory_mb) if self.build.sanitized else {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C"}
        # A fresh empty working folder: whatever the program writes there
        # never lands in the build cache (shared with other submissions).
        self._workdir = tempfile.mkdtemp(prefix="aed2-run-")
        # The binary runs from its own copy in that folder: the box sees
        # nothing of the cache (nor of the home folder it lies in).
        binary = os.path.join(self._workdir, self.build.binary.name)
        shutil.copy2(self.build.binary, binary)
        self.proc = start([binary], workdir=self._workdir,
                          memory_mb=None if self.build.sanitized else self.memory_mb,
                          env=env, storage_mb=self.storage_mb)
        self._buffer = b""
        self._stderr, self._stderr_thread = isolation.keep_tail(self.proc.stderr, STDERR_KEEP)

    def _new_game(self, niveles) -> Handle:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        lines = [f"N {len(niveles)}"]
        for n in niveles:
            (px, py), = (_course(*p) for p in n[PERSONAJE])
            parts = [f"L {int(n.get(BOMBAS, 0))} {px} {py}"]
            for key in (PAREDES, DEPOSITOS, CAJAS):
                cells = sorted(_course(*c) for c in n[key])     # (in the course's order)
                parts.append(f"{len(cells)} " + " ".join(f"{x} {y}" for x, y in cells))
            lines.append(" ".join(parts))
        answer = self._exchange(lines, 1, "aed2_Juego(niveles)")[0]
        if answer != "ok":
            raise TargetError("raised", answer.removeprefix("!raised ").strip(),
                              op="aed2_Juego")
        self._game += 1
        return Handle(self._game, "aed2_Juego")

    def _many(self, calls) -> list[Any]:
        lines = []
        append = lines.append
        made = self._lines
        if len(made) > 100_000:
            made.clear()
        special = []                    # where the answers that are not a boolean come
        for op, args in calls:
            if len(args) == 2:
                a = args[1]
                if type(a) is tuple:    # a position (the observers: most lines)
                    line = made.get((op, a))
                    if line is None:
                        line = self._position_line(op, a)
                    append(line)
                    continue
            letter = _LETTER.get(op)
            if letter is None:
                if op != CELLS:
                    raise _missing(op)
                special.append(len(lines))
                # (the observation's cells: ints, reflected as _course does)
                append(f"W {len(args[1])} " + " ".join(f"{x} {-y}" for x, y in args[1]))
                continue
            if len(args) < 2:           # args[0]: the juego's handle
                if _KIND[op]:
                    special.append(len(lines))
                append(letter)
            elif isinstance(args[1], Accion):
                append(f"{letter} {CARDINAL[args[1]]}")
            else:                       # (not a position: for the driver to refuse)
                x, y = args[1]
                append(f"{letter} {x} {y}")
        if self.proc is None or self.proc.poll() is not None:
            raise TargetError("died", _("the program is not running (it died earlier)"),
                              op=_shown(*calls[0]))
        answers = self._exchange(lines, len(lines), None, calls)
        if "!" in "".join(answers):     # a call failed: each answer read by its call
            return [self._answer(op, args, answer) for (op, args), answer in zip(calls, answers)]
        out = [answer == "1" for answer in answers]     # (most answers: "1" or "0")
        for i in special:
            if i < len(out):
                out[i] = self._answer(*calls[i], answers[i])
        return out

    def _position_line(self, op: str, a: tuple) -> str:
        """The request line of ``op`` on position ``a`` (kept, when it is one)."""
        letter = _LETTER.get(op)
        if letter is None:
            raise _missing(op)
        x, y = _course(*a)
        line = f"{letter} {x} {y}"
        if type(x) is int and type(y) is int:   # (kept: a position, not what the driver refuses)
            self._lines[(op, a)] = line
        return line

    def _answer(self, op: str, args: tuple, answer: str) -> Any:
        """What the answer line ``answer`` to ``op(*args)`` says."""
        kind = _KIND[op]
        if kind == 4:       # CELLS: digits 1 | 0 | x (it threw), then the first throw's "!raised"
            digits, failed, failure = answer.partition("!")
            if not failed:
                return answer
            k = digits.find("x")
            if k < 0:                   # (no call threw: the line failed, e.g. no juego)
                k = len(digits)
            cells = args[1]
            return [d == "1" for d in digits[:k]] + [self._failure(
                CELL_OBSERVERS[k % 3], failed + failure, (args[0], cells[min(k // 3, len(cells) - 1)]))]
        if answer[:1] == "!":
            return self._failure(op, answer, args)
        if kind == 0:
            return answer == "1"
        if kind == 1:
            x, y = answer.split()
            return (int(x), -int(y))
        if kind == 2:
            return int(answer)
        return None

    @staticmethod
    def _failure(op: str, answer: str, args: tuple) -> TargetError:
        """The :class:`TargetError` of an answer line ``!...`` to ``op(*args)``
        (told by the call, shown as the course's method)."""
        if answer.startswith("!raised"):
            return TargetError("raised", _("threw {what}").format(
                                   what=answer.removeprefix("!raised").strip()),
                               op=_shown(op, args))
        return TargetError("raised", _("the driver answered {answer}").format(
            answer=repr(answer)), op=_shown(op, args))

    def _exchange(self, lines: list[str], expect: int, what: str | None,
                  calls: list | None = None) -> list[str]:
        """Send ``lines`` and a flush; return the ``expect`` answers
        (``calls``: the calls the lines are, to tell which one died or timed out)."""
        proc = self.proc
        try:
            proc.stdin.write(("\n".join(lines) + "\nF\n").encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass                # it died: reported below
        clock = isolation.CallClock(proc.pid, self.timeout)
        fd = proc.stdout.fileno()
        searched = 0
        while True:
            # The answers end at the first line that is a lone ".": split
            # them once it has come (one decode and one split for them all).
            buffer = self._buffer
            if buffer[:2] == b".\n":
                self._buffer = buffer[2:]
                return []
            end = buffer.find(b"\n.\n", searched)
            if end >= 0:
                self._buffer = buffer[end + 3:]
                return buffer[:end].decode("utf-8", "replace").split("\n")[:expect]
            searched = max(0, len(buffer) - 2)
            why = clock.over()
            if why:
                self._stop()
                raise TargetError("timeout", clock.describe(why)
                                  + (_(" (an endless loop?)") if why == "cpu" else ""),
                                  op=what or self._which(calls, self._lines_so_far()))
            ready = select.select([fd], [], [], clock.wait())[0]
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise self._death(what or self._which(calls, self._lines_so_far()))
                self._buffer += chunk

    def _lines_so_far(self) -> list[str]:
        """The whole answer lines received so far (none ends with the ".")."""
        return self._buffer.split(b"\n")[:-1]

    @staticmethod
    def _which(calls, answers) -> str:
        if calls:
            return _shown(*calls[min(len(answers), len(calls) - 1)])
        return "?"

    def _stop(self) -> None:
        if self.proc is not None:
            kill(self.proc)
            self.proc = None

    def _death(self, fallback: str) -> TargetError:
        proc = self.proc
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            kill(proc)
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=2)
        # bubblewrap reports a program killed by signal N as status 128 + N
        signal_number = isolation.exit_signal(proc)
        status = -signal_number if signal_number else proc.returncode
        self.proc = None
        text = student_path(bytes(self._stderr).decode("utf-8", "replace"),
                            self.build.directory, self.build.folder)
        return describe_death(text, status, fallback, str(self.build.folder))


def _request_text(request: str) -> str:
    """The driver request being served, as the C++ call (``P 1 2`` ->
    ``hayPared({1, 2})``)."""
    parts = request.split()
    if not parts:
        return "?"
    letter, rest = parts[0], parts[1:]
    if letter == "N" or request.startswith("aed2_Juego"):
        return "aed2_Juego(niveles)"
    method = METHOD_OF_LETTER.get(letter, letter)
    if letter in "SM" and rest:
        return f"{method}({CARDINAL_NAMES[int(rest[0]) % 4]})"
    if len(rest) == 2:
        return f"{method}({{{rest[0]}, {rest[1]}}})"
    return f"{method}()"


def describe_death(text: str, status: int | None, fallback: str, folder: str) -> TargetError:
    """A TargetError ("died") from the binary's stderr and exit status: the
    sanitizer's verdict, the first frame of the bad access in the student's
    folder, the call being served; the detail lists the student's frames of
    each of the report's stacks under its own heading (see
    :mod:`conformance.profiles.aed2.sanitizer`)."""
    call = fallback
    text = "\n".join(line for line in text.splitlines()
                     if not line.startswith(coverage.ON_DEATH))   # a coverage build's
    marks = [line for line in text.splitlines() if line.startswith(DIED_MARK)]
    report = sanitizer.parse(text)
    if marks:
        call = _request_text(marks[-1][len(DIED_MARK):])
    elif report is not None:    # no mark: the method the driver called, from the access's stack
        frames = report.access_stack.frames
        for inner, outer in zip(frames, frames[1:]):
            if outer.file.endswith("aed2_driver.cpp") and "aed2_Juego::" in inner.function:
                call = inner.function.split("aed2_Juego::")[1].split("(")[0] + "(...)"
                break
    if report is not None:
        what, detail = sanitizer.describe(report, folder)
    elif status is not None and status < 0:
        try:
            name = _signal.Signals(-status).name
        except ValueError:
            name = str(-status)
        what = _("killed by signal {signal} (a plain build names no file and line; the "
                 "sanitizer build does)").format(signal=name)
        detail = []
    else:
        what = _("the program exited with status {status}").format(status=status)
        detail = []
    if not detail:
        detail = [ln for ln in text.splitlines()
                  if ln.strip() and not ln.startswith(DIED_MARK)][-6:]
    return TargetError("died", what, detail="\n".join(detail), op=call)
