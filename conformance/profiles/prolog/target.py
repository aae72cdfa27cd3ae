"""A Prolog program run by our driver (``driver.pl``) under ``swipl``, in
the project's sandbox (:mod:`conformance.sandbox.isolation`: its own session, time
and memory limits, nothing left running).

One driver process loads the program once; each level is served by a copy
of it (``fork/1``) with the level's facts asserted, so nothing the program
asserts while answering one level reaches the next. The copy answers the
requests of :class:`PrologTarget` (the successors of a state, a plan) on the
protocol's lines; the program's own printing goes to a null stream.

Answers (:class:`Answer`): ``kind`` is ``"ok"`` (``value``: the pairs or
the plan, as :mod:`.terms` values), ``"no"`` (``sokoban/1`` failed),
``"timeout"`` (the driver's own time limit: the copy lives on),
``"error"`` (the program raised: ``text``), ``"halted"`` (it called
``halt/0``), ``"died"`` (the copy ended: a signal, memory) or ``"killed"``
(no answer in time even from the driver: everything was killed and the
next level starts a fresh process).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.sandbox import isolation
from conformance.profiles.prolog import terms
from conformance.profiles.prolog.source import Program
from conformance.translations import _

DRIVER = Path(__file__).resolve().parent / "driver.pl"
MARK = b"@@ "
#: Seconds granted beyond a request's own limit before the process is killed.
GRACE = 5.0
#: Seconds to load the program (its directives run then).
LOAD_SECONDS = 20.0
#: Bytes of the program's stderr kept (the end of it).
STDERR_KEEP = 64 * 1024
#: Processes (and threads) a box may run: the driver, a copy, their threads.
MAX_PROCESSES = 32
#: Seconds between two looks at what the box stores (with a storage budget).
STORAGE_LOOK = 0.05


class _Ended(str):
    """What :meth:`PrologTarget._read` gives when the process ended: a
    sentence saying how (not an answer term: those are never this type)."""


class SwiplMissing(RuntimeError):
    """``swipl`` is not installed."""


class LoadFailed(RuntimeError):
    """The program could not be loaded (its text says why)."""


def swipl() -> str:
    """The path of ``swipl``, or :class:`SwiplMissing` saying what to install."""
    found = shutil.which("swipl")
    if found is None:
        raise SwiplMissing(_("swipl (SWI-Prolog) is not installed: Prolog targets need it "
                             "(Debian/Ubuntu: apt-get install swi-prolog-nox)"))
    return found


@dataclass(frozen=True)
class Answer:
    kind: str
    value: Any = None
    text: str = ""
    seconds: float = 0.0        # the driver's own measure (a plan)


class PrologTarget:
    """The program of ``program`` under ``swipl``: :meth:`open_level`, then
    :meth:`successors` and :meth:`plan` on it, :meth:`close_level`."""

    def __init__(self, program: Program, *, memory_mb: int = 1024, name: str | None = None,
                 storage_mb: int | None = isolation.DEFAULT_STORAGE_MB):
        self.program = program
        self.name = name or program.name
        self.memory_mb = memory_mb
        self.storage_mb = storage_mb        # what the box may store (None: no budget)
        self.proc: subprocess.Popen | None = None
        self.workdir: str | None = None
        self.missing: list[str] = []
        self.messages: list[str] = []
        self._buffer = b""
        self._stderr = bytearray()
        self._in_level = False
        self._closing = False       # a level's end asked for, its answers not read yet
        self.starts = 0
        self._late = ""          # why the last read had no answer in time
        self._sites: dict | None = None     # the call sites' lines (sites())

    # -------------------------------------------------------------- process

    def start(self) -> None:
        """Start the driver and load the program: :class:`LoadFailed` when
        it cannot be (the missing predicates are in ``missing``)."""
        self.close()
        self._sites = None                  # named by the box's folder: a new one
        binary = swipl()
        self.workdir = tempfile.mkdtemp(prefix="prolog-box-")
        for f in self.program.files:
            shutil.copyfile(f, os.path.join(self.workdir, f.name))
        shutil.copyfile(DRIVER, os.path.join(self.workdir, "sokoban_driver.pl"))
        stack = max(64, self.memory_mb // 2)
        argv = [binary, f"--stack-limit={stack}m", "-q", "-f", "none", "--no-packs", "--no-threads",
                "--no-tty", "sokoban_driver.pl", "--", self.program.main.name]
        self.proc = isolation.spawn(argv, workdir=self.workdir, memory_mb=self.memory_mb,
                                    max_processes=MAX_PROCESSES, storage_mb=self.storage_mb,
                                    env={"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
        self.starts += 1
        self._buffer = b""
        self._stderr = isolation.keep_tail(self.proc.stderr, STDERR_KEEP)[0]
        answer = self._read(LOAD_SECONDS)
        if answer is None:
            self.stop()
            raise LoadFailed(_("{target}: loading {file}: {why} (a directive that does not "
                               "end?)").format(target=self.name, file=self.program.main.name,
                                               why=self._late))
        if isinstance(answer, _Ended):
            self.stop()
            raise LoadFailed(_("{target}: {what} while {file} was loaded (a directive that "
                               "calls halt, or a crash)").format(
                                   target=self.name, what=answer, file=self.program.main.name)
                             + self._stderr_tail())
        if not (isinstance(answer, terms.Compound) and answer.name == "loaded"):
            self.stop()
            raise LoadFailed(_("{target}: the driver answered {answer} to the load").format(
                target=self.name, answer=terms.text(answer)))
        missing, messages = answer.args
        self.missing = [f"{m.args[0]}/{m.args[1]}" if isinstance(m, terms.Compound)
                        and len(m.args) == 2 else terms.text(m) for m in missing]
        # The box's folder is no place of the student's: file names alone.
        self.messages = [str(m).replace(self.workdir + os.sep, "") for m in messages]

    def _stderr_tail(self) -> str:
        text = bytes(self._stderr).decode("utf-8", "replace").strip()
        return ("\n" + "\n".join(text.splitlines()[-6:])) if text else ""

    def stop(self) -> None:
        if self.proc is not None:
            isolation.kill_group(self.proc)
            self.proc = None
        self._in_level = self._closing = False

    def close(self) -> None:
        self.stop()
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None

    def _send(self, text: str) -> bool:
        try:
            self.proc.stdin.write(text.encode() + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def _read(self, seconds: float):
        """The next answer as a term; None when the program has used
        ``seconds`` of CPU time without one (see :class:`isolation.CallClock`:
        on a loaded machine it may wait longer for its CPU); an
        :class:`_Ended` sentence when the process ended (its status)."""
        clock = isolation.CallClock(self.proc.pid, seconds)
        fd = self.proc.stdout.fileno()
        while True:
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                if line.startswith(MARK):
                    text = line[len(MARK):].decode("utf-8", "replace")
                    try:
                        return terms.parse(text)
                    except terms.TermError as e:
                        return terms.Compound("error", (terms.Str(
                            f"the driver's answer could not be read ({e}): {text[:200]}"),))
            why = clock.over()
            if why:
                self._late = clock.describe(why)
                return None
            left = clock.wait()
            storage = getattr(self.proc, "storage", None)
            if storage is not None:
                over = storage.over()
                if over:
                    self.stop()
                    return _Ended(_("{why}; the program was killed").format(why=over))
            ready = select.select([fd], [], [], min(left, STORAGE_LOOK))[0]
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    return self._ended()
                self._buffer += chunk

    def _ended(self) -> _Ended:
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        signal_number = isolation.exit_signal(self.proc)
        if signal_number:
            return _Ended(_("it was killed by signal {signal}").format(signal=signal_number))
        return _Ended(_("it exited with status {status}").format(status=self.proc.returncode))

    # ---------------------------------------------------------------- levels

    def open_level(self, filas: int, columnas: int, pistas: list) -> None:
        """A fresh copy of the loaded program with the level's facts."""
        if self._in_level:
            self.close_level()
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        request = terms.text(terms.Compound("level", (filas, columnas, list(pistas))))
        answer = self._send(request + ".") and self._read(LOAD_SECONDS)
        # The end of the previous level is read here, not waited for when
        # it was asked (one round trip less per level): its "bye" and
        # "ended(...)" come first.
        while self._closing and (answer == "bye" or isinstance(answer, terms.Compound)
                                 and answer.name in ("ended", "error")):
            if answer != "bye":
                self._closing = False
            answer = self._read(LOAD_SECONDS)
        self._closing = False
        if answer != "ready":
            self.stop()
            raise LoadFailed(f"{self.name}: the driver could not start a level: {answer!r}"
                             + self._stderr_tail())
        self._in_level = True

    def close_level(self) -> None:
        """End the level's copy (its answers are read with the next level's)."""
        if not self._in_level:
            return
        self._in_level = False
        if self.proc is None:
            return
        if not self._send("end."):
            self.stop()
            return
        self._closing = True

    def _request(self, request: str, seconds: float) -> Any:
        """Send one request; its answer term, or an :class:`Answer` for a
        copy that ended or a process that had to be killed."""
        if not self._in_level or self.proc is None:
            return Answer("died", text=_("the program is not running (it ended earlier)"))
        if not self._send(request + "."):
            return self._copy_ended()
        answer = self._read(seconds + GRACE)
        if answer is None:
            self.stop()
            return Answer("killed", text=_("no answer: {why}").format(why=self._late))
        if isinstance(answer, _Ended):
            self.stop()
            return Answer("died", text=str(answer))
        if answer == "halted":
            self._copy_ended()
            return Answer("halted", text=_("it called halt"))
        if isinstance(answer, terms.Compound) and answer.name == "ended":
            self._in_level = False
            return Answer("died", text=_status_text(answer.args[0]))
        return answer

    def _copy_ended(self) -> Answer:
        answer = self._read(GRACE) if self.proc is not None else None
        self._in_level = False
        if isinstance(answer, terms.Compound) and answer.name == "ended":
            return Answer("died", text=_status_text(answer.args[0]))
        self.stop()
        return Answer("died", text=_("the program ended"))

    def successors(self, state: list, seconds: float) -> Answer:
        """``findall(A-S2, (action(State, A), perform(State, A, S2)), L)``."""
        request = terms.text(terms.Compound("successors", (state, _millis(seconds))))
        answer = self._request(request, seconds)
        if isinstance(answer, Answer):
            return answer
        return self._successors_answer(answer, seconds)

    def covered_plan(self, seconds: float) -> tuple[Answer, list[Clause], list]:
        """:meth:`plan` with SWI-Prolog's clause coverage on (only while a
        departure is localised): the answer, the clauses entered
        (:data:`Clause`) and the call sites gone through (as
        :attr:`Call.sites`)."""
        request = terms.text(terms.Compound("covered", (terms.Compound(
            "plan", (_millis(seconds),)),)))
        answer = self._request(request, seconds)
        if isinstance(answer, Answer):
            return answer, [], []
        if not (isinstance(answer, terms.Compound) and answer.name == "covered"
                and len(answer.args) == 2 and isinstance(answer.args[1], list)):
            return Answer("error", text=f"the driver answered {terms.text(answer)}"), [], []
        sites = [(str(g.args[0]), *g.args[1:]) for g in answer.args[1]
                 if isinstance(g, terms.Compound) and g.name == "g" and len(g.args) == 5
                 and all(isinstance(n, int) for n in g.args[1:])]
        return (self._plan_answer(answer.args[0], seconds), _clauses(answer.args[1]), sites)

    def calls(self, state: list, actions: list, seconds: float, goals: bool = False
              ) -> tuple[list, list[Call]] | None:
        """The action model at ``state`` one call at a time, each with the
        clause coverage on (only while a departure is localised): the
        actions ``action/2`` lists there, and :class:`Call` records: one
        ``action(State, A)`` for each of them and of ``actions``, one
        ``findall(S2, perform(State, A, S2), L)`` for each of them (``seconds``
        for all of them: a call when none is left times out); ``goals``: the
        call sites each went through too (:attr:`Call.sites`). None when the
        program did not answer."""
        request = terms.text(terms.Compound("calls", (state, list(actions), _millis(seconds),
                                                      terms.Atom(str(goals).lower()))))
        answer = self._request(request, seconds)
        if not (isinstance(answer, terms.Compound) and answer.name == "calls"
                and len(answer.args) == 4 and all(isinstance(a, list) for a in answer.args)):
            return None
        listed, asked, records, table = answer.args
        table = [c[:3] for c in _clauses([terms.Compound("c", (*c.args, 0, 0)) for c in table
                                          if isinstance(c, terms.Compound) and len(c.args) == 3])]
        found = []
        for r in records:
            if not (isinstance(r, terms.Compound) and r.name == "r" and len(r.args) == 5
                    and isinstance(r.args[1], int) and 0 <= r.args[1] < len(asked)):
                continue
            kind, index, result, numbers, called = r.args
            nexts = None
            if kind == "perform" and isinstance(result, terms.Compound) and result.name == "-":
                result, nexts = result.args
            clauses = [(*table[i], entered, exited)
                       for i, entered, exited in _numbers(numbers, 3) if 0 <= i < len(table)]
            sites = [(*table[i][:2], pc, entered, exited)
                     for i, pc, entered, exited in _numbers(called, 4) if 0 <= i < len(table)]
            found.append(Call(str(kind), asked[index], _result(result), nexts, clauses, sites))
        return listed, found

    def sites(self) -> dict[tuple[str, int, int], int]:
        """Where each call site of the program's clauses is:
        ``(file, clause's first line, program counter) -> the goal's line``
        (:attr:`Call.sites` name them so), read once per program (in the
        open level's copy); empty when the driver cannot tell."""
        if self._sites is None:
            answer = self._request("sites", LOAD_SECONDS)
            found = {}
            if isinstance(answer, terms.Compound) and answer.name == "sites" \
                    and isinstance(answer.args[0], list):
                for s in answer.args[0]:
                    if isinstance(s, terms.Compound) and s.name == "s" and len(s.args) == 4 \
                            and all(isinstance(n, int) for n in s.args[1:]):
                        found[(str(s.args[0]), s.args[1], s.args[2])] = s.args[3]
            self._sites = found
        return self._sites

    @staticmethod
    def _successors_answer(answer: Any, seconds: float) -> Answer:
        if isinstance(answer, terms.Compound) and answer.name == "ok":
            return Answer("ok", answer.args[0])
        if answer == "timeout":
            return Answer("timeout", text=_("no answer in {seconds} s").format(seconds=f"{seconds:g}"))
        if isinstance(answer, terms.Compound) and answer.name == "error":
            return Answer("error", text=str(answer.args[0]))
        return Answer("error", text=_("the driver answered {answer}").format(
                answer=terms.text(answer)))

    def successors_all(self, states: list, seconds: float) -> list[Answer]:
        """:meth:`successors` of each state in one round trip: the answers
        in order, up to the first that is not ``ok`` (``seconds`` each)."""
        request = terms.text(terms.Compound("successors_all", (list(states), _millis(seconds))))
        answer = self._request(request, seconds * len(states))
        if isinstance(answer, Answer):
            return [answer]
        if not (isinstance(answer, terms.Compound) and answer.name == "all"
                and isinstance(answer.args[0], list)):
            return [Answer("error", text=_("the driver answered {answer}").format(
                answer=terms.text(answer)))]
        return [self._successors_answer(a, seconds) for a in answer.args[0]]

    def plan(self, seconds: float) -> Answer:
        """``sokoban(Plan)``, its first answer within ``seconds``."""
        answer = self._request(f"plan({_millis(seconds)})", seconds)
        if isinstance(answer, Answer):
            return answer
        return self._plan_answer(answer, seconds)

    @staticmethod
    def _plan_answer(answer: Any, seconds: float | None = None) -> Answer:
        name = answer.name if isinstance(answer, terms.Compound) else answer
        args = answer.args if isinstance(answer, terms.Compound) else ()
        if name == "plan":
            return Answer("ok", args[0], seconds=float(args[1]))
        if name == "no_plan":
            return Answer("no", seconds=float(args[0]))
        if name == "timeout":
            limit = float(args[0]) if seconds is None else seconds
            return Answer("timeout", text=_("no plan in {seconds} s").format(seconds=f"{limit:g}"),
                          seconds=float(args[0]))
        if name == "error":
            return Answer("error", text=str(args[0]), seconds=float(args[1]))
        return Answer("error", text=_("the driver answered {answer}").format(
                answer=terms.text(answer)))


#: A clause a covered call entered: ``(file, line, name/arity, times
#: entered, times exited)``, the file as the box has it.
Clause = tuple[str, int, str, int, int]


@dataclass(frozen=True)
class Call:
    """One call of the action model (:meth:`PrologTarget.calls`): ``kind``
    ``"action"`` or ``"perform"``, the action asked, ``result`` (``"true"``,
    ``"false"``, ``"timeout"`` or ``"error"``), for ``perform`` the next
    states found (a list, or None), and the clauses it entered."""

    kind: str
    action: Any
    result: str
    nexts: Any
    clauses: list
    #: The call sites it went through: ``(file, clause's first line,
    #: program counter, times entered, times exited)``.
    sites: list = field(default_factory=list)


def _numbers(text: Any, width: int) -> list[tuple[int, ...]]:
    """A string of integers read ``width`` at a time (none when it is not one)."""
    try:
        ints = [int(n) for n in str(text).split()]
    except ValueError:
        return []
    return list(zip(*[iter(ints)] * width))


def _result(term: Any) -> str:
    if term in ("true", "false", "timeout"):
        return str(term)
    return "error"


def _clauses(found: Any) -> list[Clause]:
    """The ``c(File, Line, Name/Arity, Entered, Exited)`` of a covered answer."""
    clauses = []
    for c in found if isinstance(found, list) else ():
        if isinstance(c, terms.Compound) and c.name == "c" and len(c.args) == 5 \
                and all(isinstance(n, int) for n in (c.args[1], c.args[3], c.args[4])):
            pi = c.args[2]
            name = (f"{pi.args[0]}/{pi.args[1]}" if isinstance(pi, terms.Compound)
                    and pi.name == "/" and len(pi.args) == 2 else terms.text(pi))
            clauses.append((str(c.args[0]), c.args[1], name, c.args[3], c.args[4]))
    return clauses


def _millis(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def _status_text(status: Any) -> str:
    if isinstance(status, terms.Compound) and status.args:
        code = status.args[0]
        if status.name == "exited":
            return _("the program exited with status {status}").format(status=code)
        if status.name == "signaled":
            return (_("the program was killed by signal {signal} (out of memory?)") if code == 9
                    else _("the program was killed by signal {signal}")).format(signal=code)
    return _("the program ended ({status})").format(status=terms.text(status))
