"""A check's time budget: a check that always ends.

Each call into a target has its own time limit, but slow code (50 ms a
call, not a loop) makes thousands of slow calls; a check of it would go on
for hours. A :class:`Budget` bounds the whole check (``--budget SECONDS``,
default :data:`DEFAULT_BUDGET`), opening the target included:

* the engine looks at it between examples, between actions and between
  chunks of a batch of observers (:meth:`Budget.check`): past its *soft*
  deadline it raises :class:`OutOfBudget`, and the check ends cleanly with
  what it exercised (``Verdict.out_of_time``); a departure already found is
  reported as usual;
* the commands also arm its *hard* deadline (:meth:`Budget.armed`, the main
  thread only): a ``SIGALRM`` raises :class:`OutOfBudget` wherever the check
  then is (opening the box, importing the submission, a call that has not
  come back), so that a verdict and the files that carry it (Gradescope's
  ``results.json``) are written before the budget ends.

The soft deadline leaves a reserve (:func:`reserve`) for the call under way
to come back and for the verdict to be written. A budget also measures the
target's time per call (:meth:`Budget.record`, :attr:`median_call`), says
how large a chunk of calls fits in :data:`CHUNK_SECONDS`, and shows progress
(examples run, time elapsed, budget left) through a callback, which the
check command sets on an interactive terminal only (:func:`progress_line`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from typing import Callable, Iterator, TextIO

#: The default budget of one check, in seconds: a class of 30 on two cores
#: is graded within 75 minutes at worst, and a default check of a correct
#: submission takes 10 to 70 s (docs/conformance.md, "Measured").
DEFAULT_BUDGET = 300.0
#: The longest stretch of calls sent in one batch once the target's time per
#: call is known (the engine looks at the budget between two).
CHUNK_SECONDS = 0.5
#: Calls in a batch before any call was timed.
FIRST_CHUNK = 8
#: Seconds between two progress lines.
PROGRESS_EVERY = 0.5
#: A target whose median call takes this long or more is flagged slow (grade).
SLOW_CALL = 0.01


class OutOfBudget(BaseException):
    """The check's time budget ran out (a BaseException, like a Hypothesis
    stop: nothing retries or shrinks it)."""


#: The hard deadline's alarm went off (since the last :meth:`Budget.armed`):
#: a target run in this process may have caught it as its own exception.
_fired = False


def fired() -> bool:
    """Whether the hard deadline's alarm went off (see :data:`_fired`)."""
    return _fired


def reserve(seconds: float, call_limit: float) -> float:
    """How much of a budget of ``seconds`` the soft deadline leaves for the
    call under way (up to ``call_limit``, the time limit per call, and a
    second of grace) and for writing the verdict; never more than a quarter."""
    return min(call_limit + 1.5, seconds / 4)


def hard_reserve(seconds: float) -> float:
    """What the hard deadline leaves for writing the verdict's files."""
    return min(1.0, seconds / 10)


class Budget:
    """One check's time: ``seconds`` from ``since`` (``time.monotonic()``;
    None: now). ``call_limit``: the time limit per call (see :func:`reserve`)."""

    def __init__(self, seconds: float, since: float | None = None, call_limit: float = 2.0):
        self.seconds = seconds
        self.since = time.monotonic() if since is None else since
        self.deadline = self.since + seconds - reserve(seconds, call_limit)
        self.hard = self.since + seconds - hard_reserve(seconds)
        self.ran_out = False
        self.progress: Callable[[int, float, float], None] | None = None
        self._shown = 0.0
        self._calls: list[tuple[float, int]] = []     # (seconds per call, calls) per round trip
        self._per_call = 0.0

    # -- time
    def elapsed(self) -> float:
        return time.monotonic() - self.since

    def left(self) -> float:
        return self.since + self.seconds - time.monotonic()

    def expired(self) -> bool:
        return time.monotonic() >= self.deadline

    def check(self, examples: int = 0) -> None:
        """Raise :class:`OutOfBudget` past the soft deadline; show progress."""
        now = time.monotonic()
        if now >= self.deadline:
            self.ran_out = True
            raise OutOfBudget(f"the time budget of {self.seconds:g} s ran out")
        if self.progress is not None and now - self._shown >= PROGRESS_EVERY:
            self._shown = now
            self.progress(examples, now - self.since, self.since + self.seconds - now)

    # -- the target's speed
    def record(self, seconds: float, calls: int = 1) -> None:
        """One round trip of ``calls`` calls took ``seconds``."""
        if calls > 0:
            self._per_call = seconds / calls
            self._calls.append((self._per_call, calls))

    @property
    def median_call(self) -> float | None:
        """The median time of a call into the target (a batch's calls each
        counted at the batch's average), or None before any call."""
        if not self._calls:
            return None
        ordered = sorted(self._calls)
        half, seen = sum(n for _, n in ordered) / 2, 0
        for per_call, n in ordered:
            seen += n
            if seen >= half:
                return per_call
        return ordered[-1][0]

    def chunk(self) -> int:
        """How many calls to send in one batch (about :data:`CHUNK_SECONDS`
        at the last measured time per call)."""
        if not self._calls:
            return FIRST_CHUNK
        return max(1, int(CHUNK_SECONDS / max(self._per_call, 1e-6)))

    # -- the hard deadline
    @contextlib.contextmanager
    def armed(self) -> Iterator[None]:
        """Inside, ``SIGALRM`` raises :class:`OutOfBudget` at the hard
        deadline (main thread only; elsewhere, and where ``SIGALRM`` is
        already taken, only the soft deadline holds)."""
        if (threading.current_thread() is not threading.main_thread()
                or signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, signal.SIG_IGN, None)):
            yield
            return

        def expire(signum, frame):
            global _fired
            _fired = self.ran_out = True
            raise OutOfBudget(f"the time budget of {self.seconds:g} s ran out")

        global _fired
        _fired = False
        previous = signal.signal(signal.SIGALRM, expire)
        try:
            signal.setitimer(signal.ITIMER_REAL, max(self.hard - time.monotonic(), 0.001))
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            _fired = False

    @staticmethod
    def disarm() -> None:
        """The check has stopped of itself: no alarm while it writes its
        verdict (a no-op when none is armed)."""
        if threading.current_thread() is threading.main_thread():
            signal.setitimer(signal.ITIMER_REAL, 0)


def process_start() -> float:
    """When this process started, on ``time.monotonic()``'s clock (Linux:
    from ``/proc/self/stat``; elsewhere, or when it cannot be read: now), so
    that a command's budget counts the interpreter's start too."""
    now = time.monotonic()
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")    # field 22: starttime
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - started
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - age if 0 <= age < 3600 else now


def describe_call(seconds: float | None) -> str:
    """``52 ms``, ``0.3 ms``, ``1.2 s``."""
    if seconds is None:
        return "unknown"
    if seconds >= 1:
        return f"{seconds:.1f} s"
    if seconds >= 0.01:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds * 1000:.2g} ms"


def progress_line(out: TextIO) -> Callable[[int, float, float], None]:
    """A callback writing one progress line over itself on ``out`` (an
    interactive terminal): examples run, time elapsed, budget left."""
    def show(examples: int, elapsed: float, left: float) -> None:
        out.write(f"\r\033[K  {examples} example{'s' if examples != 1 else ''} run, "
                  f"{elapsed:.0f} s elapsed, {max(left, 0):.0f} s of the budget left")
        out.flush()
    return show


def clear_progress(out: TextIO) -> None:
    out.write("\r\033[K")
    out.flush()


def timed(v, budget: Budget | None):
    """``v`` with what ``budget`` knows: whether it ran out, the budget, the
    target's median call time."""
    if budget is not None:
        v.out_of_time = v.out_of_time or budget.ran_out
        v.budget = budget.seconds
        v.median_call = budget.median_call
    return v
