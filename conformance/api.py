"""The boundary between the conformance *runner* (loading a target, running it
isolated, CLI, reports on disk) and the conformance *engine* (Hypothesis
state machines that drive the spec and the target side by side).

The engine only ever talks to a :class:`Target`. A target's values that are not
plain data (its juego objects, its grids) stay wherever the target runs and
reach the engine as opaque :class:`Handle` s, which the engine passes back in
later calls. Plain data (``bool``, ``int``, ``str``, ``None``, ``Accion``,
tuples, lists, dicts, sets and frozensets of those) crosses by value.

A plain result that is mutable (it holds a list, dict or set: a student's
grid as a list of lists) reaches the engine as a copy, but the target keeps
the original: when the engine passes *that same copy* back as an argument,
the target gets its original object. So ``FINGERPRINT(g)`` after ``mover(g,
d)`` describes the target's own ``g`` and catches a ``mover`` that mutates
its argument. (Runner side: ``conformance.sandbox.box``.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

#: Special operations every Target answers besides the profile's own:
#: ``FINGERPRINT(h)`` -> str, a canonical deep description of the value behind
#: handle ``h`` (two calls give equal strings iff the value did not change);
#: ``EQUAL(h1, h2)`` -> bool, ``h1 == h2`` evaluated where the target runs
#: (either side may also be a plain value).
FINGERPRINT = "__fingerprint__"
EQUAL = "__equal__"
#: ``BATCH(calls)``: ``calls`` is a list of ``(op, args_tuple)``; answers a list
#: of the same length, each item the call's result or the :class:`TargetError`
#: it raised (returned, not raised), all in one round trip to the target. An
#: error that ends the target's process (timeout, crash, exit) is raised.
#: Use it to read many observers at once (every cell of a grid). An argument
#: of a call in the batch may be :class:`Earlier`: the result of an earlier
#: call of the same batch, the very object it returned (a call that takes
#: the result of a call that failed is not made: its answer is a
#: ``TargetError`` of kind ``"skipped"``). So a step (``mover`` and the
#: observers of the grid it returns) is one round trip. ``BATCH(calls, True)``
#: stops at the first call that fails: every later call is "skipped" (a run
#: of steps in one round trip, whose later steps the engine would not play).
#: A target may also ignore it (its answers are judged in order anyway).
BATCH = "__batch__"
#: ``RESET()``: forget every handle given out so far (call it between
#: examples so the target's object table does not grow without bound).
RESET = "__reset__"
#: ``OPAQUE(names)``: from now on the results of the operations ``names``
#: come back as handles, never by value (the engine only passes them back:
#: a juego of ``tad`` or ``extendido``, which may hold a long history).
#: An atom (``None``, a bool, a number) still comes back as it is.
OPAQUE = "__opaque__"
SPECIAL_OPERATIONS = (FINGERPRINT, EQUAL, BATCH, RESET, OPAQUE)
#: ``SPECTRA(command)``: a Python target's line spectra, asked only while a
#: check localises a departure it found (``"start"``, ``"take"`` -> the
#: lines of its own files that ran since the last take, ``"stop"``; see
#: ``conformance.sandbox.spectra``). Not among the operations every target
#: answers: one without spectra raises a TargetError.
SPECTRA = "__spectra__"
#: ``CELLS(juego, cells)``: extendido's per-cell observers
#: (:data:`CELL_OBSERVERS`) on each of ``cells`` (a list of positions), cell
#: by cell, in one call: a string of ``"1"`` and ``"0"``, one per call. When
#: one of them fails: a list, the answers before it, then its
#: :class:`TargetError` (the rest not asked). Only for a target whose ``has``
#: says so (the C++ target: one request line): the engine compares the
#: string with the spec's at once, and looks at each call only when they
#: differ. Not among the operations every target answers.
CELLS = "__cells__"
CELL_OBSERVERS = ("hay_pared", "hay_caja", "hay_deposito")


class Earlier:
    """In a :data:`BATCH`, an argument standing for the result of the call at
    ``index`` of the same batch (only as an argument itself, not inside one)."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __repr__(self) -> str:
        return f"Earlier({self.index})"
class _NotProvided:
    def __repr__(self) -> str:
        return "<not provided>"


#: What a missing observer answers in a partial check (a target lacking some of
#: a profile's operations but none of its essential ones).
NOT_PROVIDED = _NotProvided()

# A profile (``conformance.profiles``: its operations, groups, rule table,
# machine...) is declared in its own module; the engine's entry point,
# ``conformance.checking.engine.check(target, profile, ...)``, takes its name
# (or the profile itself).


@dataclass(frozen=True, repr=False)
class Handle:
    """An opaque reference to a value that lives with the target."""

    id: int
    type_name: str = ""

    def __repr__(self) -> str:
        # Reports show what the target returned, never our internal id.
        return f"<{self.type_name or 'object'} object>"


class TargetError(Exception):
    """The target did not answer a call normally.

    ``kind`` is one of ``"raised"`` (the target raised an exception; ``detail``
    has its type, message and traceback), ``"timeout"`` (a call exceeded its
    time limit), ``"crashed"`` (the process died: signal, segfault, out of
    memory), ``"exited"`` (the target called ``exit``), ``"output"`` (it printed
    more than allowed), ``"memory"`` (it exceeded the memory limit),
    ``"storage"`` (it stored more than its box's storage budget, or wrote a
    file larger than the limit of any one file),
    ``"missing"`` (the operation does not exist), ``"unpicklable"`` (it returned
    something that cannot cross the boundary), ``"died"`` (a compiled target's
    process died: a signal, an abort, a sanitizer report or exit; unlike
    ``"crashed"`` it is restarted for the next example, so the failure is
    shrunk like a departure), ``"skipped"`` (a call of a batch not made: it
    takes the :class:`Earlier` result of a call that failed, which is the
    one to report).
    """

    KINDS = ("raised", "timeout", "crashed", "exited", "output", "memory",
             "missing", "unpicklable", "died", "storage", "skipped")

    #: For an error that ended a whole batch: the index of the call of the
    #: batch it happened in (``op`` is that call's), when known.
    index: int | None = None

    def __init__(self, kind: str, message: str, detail: str = "", op: str = ""):
        super().__init__(f"{op + ': ' if op else ''}{message}")
        self.kind = kind
        self.message = message
        self.detail = detail
        self.op = op

    def __reduce__(self):
        # Crosses process boundaries (sandbox batches, grade pools) intact.
        return (TargetError, (self.kind, self.message, self.detail, self.op))


class Target(Protocol):
    """What the engine needs from a target, wherever it runs."""

    name: str

    def has(self, op: str) -> bool: ...

    def call(self, op: str, *args: Any) -> Any:
        """Call ``op`` with ``args`` (handles resolved); plain results come
        back by value, others as a Handle. Raises :class:`TargetError`."""

    def close(self) -> None: ...


@dataclass(frozen=True)
class SuspectLine:
    """A line (or a run of lines) of the target's own source, ranked by how
    strongly the plays that break a rule (and not those that keep it) ran
    it: a hint of where the fault is (``conformance.checking.localize``)."""

    file: str                       # as the student knows it: relative to their folder
    line: int
    function: str                   # the function (or class.method) it is in
    score: float                    # the ranking formula's suspiciousness, 0..1
    source: str                     # the line's text, stripped (one per line of a run)
    #: The last line of a run of lines no play told apart (a straight
    #: stretch of code, shown as one place); ``line`` itself when alone.
    last: int = 0


@dataclass
class Localization:
    """Where in the target's own files a departure most likely comes from:
    the most suspicious lines first, and what they were ranked on."""

    lines: list[SuspectLine]
    failing: int                    # plays that broke the rule
    passing: int                    # plays that kept every rule
    formula: str                    # the ranking (e.g. "dstar2")
    folder: str = ""                # the folder ``file`` is relative to (links in report.html)
    #: Every line ranked, ``(file, line, score)`` (a heat map of the files).
    heat: list[tuple[str, int, float]] = field(default_factory=list)
    #: What the tests compared were: ``"plays"`` (games played), or
    #: ``"calls"`` (a Prolog program's calls, its clauses ranked).
    tests: str = "plays"


@dataclass
class Counterexample:
    """The shrunk failure: what to show and how to replay it."""

    profile: str
    level_text: str                 # the level, drawn in XSB
    actions: list[str]              # the steps, e.g. ["mover DERECHA", "deshacer"]
    step: int                       # index in ``actions`` where it departed (-1: at start)
    operation: str                  # the observer or operation that disagreed
    expected: str                   # what the spec says (a board or a value)
    actual: str                     # what the target said
    message: str                    # one line: what went wrong
    replay: str = ""                # a command line that replays exactly this
    report: str = ""                # the full human report (boards with marks)
    #: The id of the seed's rule it breaks (``spec.rules``): the rule of the
    #: spec's case behind what ``operation`` should have shown; None only
    #: when the rule table has no rule for that case (a bug of the table).
    rule: str | None = None
    #: The fixed scenario it came from (``conformance.profiles.scenarios``), if any.
    scenario: str = ""
    #: It ended the target's process (timeout, crash, exit...): not shrunk.
    fatal: bool = False
    #: C++ targets: "" when the departure shows in a plain build (no
    #: sanitizer); else the g++ flags a build needs to show it (a memory
    #: error a plain build does not notice; ``conformance.profiles.aed2.findings``).
    sanitizer_flags: str = ""
    #: Where to look: the lines of the target's own source most likely at
    #: fault (None: not localised, e.g. ``--no-localize``, or not a Python target).
    where: Localization | None = None
    #: The verdict of the run that found it, whose report ``report`` is: the
    #: engine sets it, the check writes ``report`` from it once, at its end
    #: (``conformance.reports.report.write_reports``). Not part of the output.
    seen: "Verdict | None" = field(default=None, repr=False, compare=False)


@dataclass
class RuleOutcome:
    """What a check found about one rule of the seed (see
    :mod:`conformance.reports.points`): ``status`` is ``"kept"`` (exercised, no
    departure), ``"broken"`` (a departure blamed on it: its counterexample),
    ``"missing"`` (the target lacks an operation the rule needs),
    ``"unexercised"`` (the run never took one of its cases) or
    ``"unreached"`` (the check's time budget ran out before the run took
    one of its cases: it earns its point when ``credited``, unless the
    teacher asked ``--budget-is-failure``)."""

    rule: str
    status: str
    exercised: int = 0
    counterexample: "Counterexample | None" = None
    missing: list[str] = field(default_factory=list)
    report: str = ""                # the human report of its counterexample
    credited: bool = False          # "unreached": a point all the same (slow, not wrong)
    #: The verdict ``report`` is written from (see ``Counterexample.seen``).
    seen: "Verdict | None" = field(default=None, repr=False, compare=False)

    @property
    def passed(self) -> bool:
        return self.status == "kept" or (self.status == "unreached" and self.credited)


@dataclass
class Verdict:
    """The outcome of checking one target under one profile."""

    target: str
    profile: str
    conforms: bool
    counterexample: Counterexample | None = None
    error: str | None = None        # a bad target: missing operations, crash at import...
    missing: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)   # pushes, blocked, wins, bombs, undos, advances, steps, examples
    seed: int | None = None
    seconds: float = 0.0
    #: Answers accepted although their type is not the seed's (``None`` for
    #: False, ``[w, h]`` for ``(w, h)``): one line each; never change ``conforms``
    #: unless the check ran with ``strict_types`` (then they are departures).
    warnings: list[str] = field(default_factory=list)
    #: What the opt-in robustness checks (inputs beyond the seed's domain)
    #: found: one paragraph each, written at the end of the check from
    #: ``beyond``; never change ``conforms``.
    robustness: list[str] = field(default_factory=list)
    #: What they found, as the engine found it: counterexamples (or an error
    #: line). Not part of the output.
    beyond: list = field(default_factory=list, repr=False, compare=False)
    #: Per rule of the profile's table (``spec.rules``, in its order): how
    #: many times the run exercised it (took one of its cases). A rule at 0
    #: was never exercised: the report names it.
    coverage: dict[str, int] = field(default_factory=dict)
    #: A check by rules (``conformance.checking.engine.check_rules``): one outcome
    #: per rule; empty for a plain check.
    outcomes: list[RuleOutcome] = field(default_factory=list)
    #: Findings after ``counterexample``, reported second: for a C++ target,
    #: a memory error only a sanitizer build shows, when a plain build also
    #: departs (``conformance.profiles.aed2.findings``).
    more_findings: list[Counterexample] = field(default_factory=list)
    #: The check's time budget (``--budget``) ran out before it finished:
    #: without a departure found, the verdict is "not fully checked"
    #: (``conformance.reports.output.verdict_status``), neither conforms nor a crash.
    out_of_time: bool = False
    #: The budget, in seconds (None: the check had none).
    budget: float | None = None
    #: The median time of one call into the target, in seconds (None: unmeasured).
    median_call: float | None = None
