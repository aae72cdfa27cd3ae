"""What every profile's machine shares: the check's settings, the state of one
run, and the :class:`Machine` base (calling the target, comparing answers,
walking known solutions, failing with a counterexample).

A profile's machine (one module per profile beside this one) is a Hypothesis
:class:`~hypothesis.stateful.RuleBasedStateMachine` whose rules are declared
on its class with ``@initialize``, ``@rule`` and ``@precondition``. The
actions an operation group does not enable are switched off by a
precondition on :class:`CheckSettings`; an argument whose strategy depends
on the settings (the levels drawn) is declared with :func:`per_check`.
Hypothesis instantiates a machine without arguments, so the engine binds one
check's :class:`Run` to the class first (:meth:`Machine.bind`) and draws
inside :meth:`Run.drawing`.
"""

from __future__ import annotations

import contextlib
import sys
import time
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Sequence

from hypothesis import strategies as st
from hypothesis.errors import StopTest
from hypothesis.control import current_build_context
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from conformance.api import (
    BATCH, NOT_PROVIDED, OPAQUE, RESET, Counterexample, Earlier, Handle, Target, TargetError,
)
from conformance.machines import blame, levels as lv
from conformance.machines.boards import Board
from conformance.machines.budget import OutOfBudget, fired
from conformance.translations import N_, _, marked
from conformance.machines.replays import replay_command
from spec import rules
from spec.tipos import Accion

if TYPE_CHECKING:       # (a profile's module imports this one)
    from conformance.machines.profile import Profile

#: Kinds of TargetError that end the target's process: reported unshrunk.
FATAL_KINDS = ("timeout", "crashed", "exited", "output", "memory", "storage")
#: Longest run of one repeated pattern (``repeat``, ``undo_many``,
#: ``walk_then_bomb``): far walks and long histories.
LONG = 60
#: Cap on the actions of one example (the long rules could make it huge).
MAX_ACTIONS = 100
#: The patterns a long run repeats: one move, or there and back.
PATTERNS = ("u", "d", "l", "r", "lr", "ud")
COURSE_ACCEPTS = N_("the course test accepts it")
STAT_KEYS = ("examples", "steps", "pushes", "blocked", "wins", "bombs", "undos", "advances")
#: Most levels in one game of seed 001 (the longest game a check plays).
GAME_LEVELS = 3


@dataclass(frozen=True)
class CheckSettings:
    """What the chosen operation groups enable (see docs/conformance.md);
    :meth:`for_groups` derives it from a profile's groups."""

    groups: frozenset[str]
    min_boxes: int = 0                      # boxes (and goals) per level
    max_boxes: int = 3
    follow: bool = True                     # walk the levels' known solutions
    undo: bool = True                       # deshacer, and long runs of it
    throws_bombs: bool = True               # tirar_bomba, and far walks ending in one
    bombs_per_level: tuple[int, int] = (0, 0)
    levels_per_game: tuple[int, int] = (1, 1)
    immutability: bool = True               # soko: mover must leave its argument alone
    robustness: bool = False                # soko: only grids beyond the seed's domain

    @classmethod
    def for_groups(cls, profile: Profile, groups: Sequence[str] | None = None) -> CheckSettings:
        """The settings of a check of ``profile`` restricted to ``groups``
        (None: all of its groups). Raises ValueError for an unknown or empty
        choice."""
        chosen = frozenset(profile.groups if groups is None else groups)
        unknown = chosen - set(profile.groups)
        if unknown or not chosen:
            raise ValueError(f"unknown operation group(s) {sorted(unknown)} for profile "
                             f"{profile.name}; known: {', '.join(profile.groups)}")
        with_bombs = bool(chosen & {"bombs", "undo"})
        return cls(
            groups=chosen,
            min_boxes=1 if "movement" not in chosen else 0,
            max_boxes=3 if chosen - {"movement"} else 0,
            follow=bool(chosen & {"win", "levels", "undo", "bombs"}),
            undo="undo" in chosen,
            throws_bombs=with_bombs,
            bombs_per_level=(1, 3) if with_bombs else (0, 0),
            levels_per_game=(((2 if chosen == {"levels"} else 1), GAME_LEVELS) if "levels" in chosen
                             else (1, 1)),
            immutability="immutability" in chosen,
        )


class Departure(AssertionError):
    """The target departed from the spec (carries the counterexample)."""

    def __init__(self, counterexample: Counterexample):
        super().__init__(counterexample.message)
        self.counterexample = counterexample


class Fatal(BaseException):
    """A target error that ends its process: stops the run at once (a
    BaseException, so Hypothesis does not retry and shrink it)."""

    def __init__(self, counterexample: Counterexample):
        super().__init__(counterexample.message)
        self.counterexample = counterexample


class Deferred(BaseException):
    """A deferred play (``Run.defer``) found a departure that Hypothesis did
    not see as one (raised while it cut an example short): stop it; the
    search is played again without deferring."""


class StopShrinking(BaseException):
    """Shrinking has run for ``Run.shrink_seconds``: keep the smallest
    failure found so far (``Run.last``)."""


class Run:
    """What one check shares between its examples."""

    def __init__(self, target: Target, profile: Profile, settings: CheckSettings,
                 directions: str = "ours", strict_types: bool = False,
                 shrink_seconds: float = 20.0):
        self.target = target
        #: The profile's name (what counterexamples and replays record).
        self.profile = profile.name
        #: The profile itself (its groups, domain, stepper, rule table...).
        self.definition = profile
        self.settings = settings
        self.directions = directions
        self.strict_types = strict_types
        self.shrink_seconds = shrink_seconds
        # Answers accepted by truth value or as a list (see Machine.agrees):
        # one line per (observer, type), in the order first seen.
        self.warnings: dict[tuple[str, str], str] = {}
        self.stats = dict.fromkeys(STAT_KEYS, 0)
        self.frozen = False          # stop counting at the first failure (shrinking reruns)
        self.last: Counterexample | None = None
        self.last_trace: tuple[list, list[str]] | None = None   # its scenes and actions
        #: The first failure's scenes and actions: found with every observer
        #: compared (before any shrinking), so played again it departs the same way.
        self.first_trace: tuple[list, list[str]] | None = None
        self.first_failure: float | None = None
        # While shrinking, only this observer (the first failure's) is
        # compared: much cheaper, and the final run compares everything.
        self.focus: str | None = None
        self.opaque_sent = False     # OPAQUE told to the target (once per check)
        self.stopped = False         # StopShrinking was raised (Hypothesis may call it Flaky)
        #: A pipelined batch had to be played again one action a round trip
        #: (Machine._one_by_one): the rest of the check plays that way.
        self.one_by_one = False
        #: A search's first pass (``conformance.checking.engine._search``): a
        #: PIPELINE profile defers each example's steps, sent in batches of
        #: up to PIPELINE_STEPS and judged in order when the batch comes back
        #: (or the example ends), not one round trip a step. The same draws
        #: and the same judging; only a departure is raised later in its
        #: example than Hypothesis would see it played step by step, so a
        #: search that departs is played again without (see ``_search``).
        self.defer = False
        self._strategies: dict[Callable, st.SearchStrategy] = {}
        #: How many times the run took each case of the spec (spec.rules):
        #: the coverage per rule. Counted on every play until the first
        #: failure (shrinking reruns are not counted).
        self.case_counts: dict = {}
        #: Rules already known broken (a check by rules): a departure blamed
        #: on one of them ends its example, unreported (see Machine.ended).
        self.masked: frozenset[str] = frozenset()
        #: The check's time budget (``conformance.machines.budget.Budget``), or None:
        #: looked at before every call into the target, which it times.
        self.budget = None

    def restart(self, stats: dict) -> None:
        """This run as it was made, to play its search again: its target,
        profile, settings, masked rules, budget, coverage (``case_counts``:
        the caller restores it) and strategies kept; ``stats`` as given."""
        kept = (self.case_counts, self.masked, self.budget, self._strategies)
        self.__init__(self.target, self.definition, self.settings, self.directions,
                      self.strict_types, self.shrink_seconds)
        self.case_counts, self.masked, self.budget, self._strategies = kept
        self.stats = dict(stats)

    @property
    def groups(self) -> frozenset[str]:
        return self.settings.groups

    def count(self, key: str, n: int = 1) -> None:
        if not self.frozen:
            self.stats[key] += n

    @contextlib.contextmanager
    def drawing(self):
        """Hypothesis draws for this run's machine inside (see :func:`per_check`)."""
        token = _DRAWING.set(self)
        try:
            yield
        finally:
            _DRAWING.reset(token)

    def strategy(self, build: Callable[[Run], st.SearchStrategy]) -> st.SearchStrategy:
        """``build(self)``, built once per check."""
        if build not in self._strategies:
            self._strategies[build] = build(self)
        return self._strategies[build]


#: The run whose machine Hypothesis is drawing for (:meth:`Run.drawing`).
_DRAWING: ContextVar[Run] = ContextVar("conformance_run")


def per_check(build: Callable[[Run], st.SearchStrategy]) -> st.SearchStrategy:
    """A rule argument whose strategy depends on the check (its settings,
    its profile): ``build(run)``, built once per check and drawn from when
    Hypothesis draws the argument."""
    return _per_check(build)


@st.composite
def _per_check(draw, build):
    return draw(_DRAWING.get().strategy(build))


def game_levels(run: Run) -> st.SearchStrategy:
    """One game's levels (one level, or a sequence for extendido), as the settings allow."""
    s = run.settings
    one = lv.scenes(run.definition.domain, min_boxes=s.min_boxes, max_boxes=s.max_boxes,
                    bombs=s.bombs_per_level, robustness=s.robustness)
    return st.lists(one, min_size=s.levels_per_game[0], max_size=s.levels_per_game[1])


#: How far to walk the level's solution first (when the settings walk solutions).
LEADS = st.integers(0, 80)


class Machine(RuleBasedStateMachine):
    """What every profile's machine shares: calling the target, the trace,
    failing with a counterexample, and the rules every profile has (start,
    move, walk the solution). A profile's class defines ``begin(scenes)``,
    ``act(code, following=False)``, ``describe(code)``, ``compare()`` and
    its own rules."""

    #: The profile's name (``conformance.profiles``).
    PROFILE: ClassVar[str] = ""
    #: The seed whose answers the profile judges (warning lines).
    SEED: ClassVar[str] = ""
    #: How reports name the value the target's operations take first.
    HANDLE_NAME: ClassVar[str] = "j"
    #: Why a loosely typed answer was accepted (warning lines); None: by its kind.
    ACCEPTED_BECAUSE: ClassVar[str | None] = None
    #: Per operation, the value (``spec.rules``) whose case explains it
    #: returning no value where one is due (absent: the operation's own).
    RETURNS: ClassVar[dict[str, str]] = {}

    run: ClassVar[Run]

    @classmethod
    def bind(cls, run: Run) -> type[Machine]:
        """This machine class for one check (Hypothesis instantiates it with no arguments)."""
        return type(cls.__name__, (cls,), {"run": run})

    def __init__(self):
        super().__init__()
        self.scenes: list[lv.Scene] = []
        self.codes: list[str] = []         # the actions done, as replay letters
        #: Per action of ``codes`` (same index): the spec's cases it took
        #: (:meth:`spec_step`), counted by :meth:`played`.
        self.step_cases: list[list] = []
        self.path: int | None = None        # steps of the current level's solution walked
        run = self.run
        if (run.first_failure is not None and _shrinking()
                and (time.monotonic() - run.first_failure > run.shrink_seconds
                     or (run.budget is not None and run.budget.expired()))):
            run.stopped = True
            raise StopShrinking
        if run.defer and run.last is not None:
            raise Deferred          # a departure found while deferring: play again
        if run.budget is not None:
            run.budget.check(run.stats["examples"])     # OutOfBudget between two examples
        run.count("examples")
        self._call(RESET)
        if run.definition.opaque and not run.opaque_sent:
            # The juego only ever goes back to the target: keep it there (no
            # copy of a long undo history crosses over on every call).
            run.opaque_sent = True
            self._call(OPAQUE, list(run.definition.opaque))

    @property
    def settings(self) -> CheckSettings:
        return self.run.settings

    # -- the rules every profile has ------------------------------------------

    @initialize(scenes=per_check(game_levels), lead=LEADS)
    def start(self, scenes, lead):
        """Start the spec and the target on a game's levels, and walk part
        of the solution first (so wins are reached often), when the
        settings walk solutions."""
        self.begin(scenes)
        self.defer_steps()
        self.follow(lead if self.settings.follow else 0)

    @rule(code=st.sampled_from("udlr"))
    def move(self, code):
        self.act(code)

    @precondition(lambda self: self.settings.follow and self.can_follow())
    @rule(k=st.integers(1, 60))
    def walk_solution(self, k):
        self.follow(k)

    # -- the target --------------------------------------------------------

    def _call(self, op: str, *args: Any) -> Any:
        if self._queue:             # the steps deferred (Run.defer) go first
            self._send_queue()
        if self.ended:
            return None
        try:
            return self._request(op, *args)
        except TargetError as e:
            if op == BATCH and e.index is not None:     # told by the call it happened in
                op, args = args[0][e.index]
            self._target_failed(e, op, args)
            return None

    def _request(self, op: str, *args: Any) -> Any:
        """The target's answer, the budget looked at before and after; the
        target's error propagates (as OutOfBudget when the budget's alarm
        caused it)."""
        budget = self.run.budget
        if budget is not None:
            budget.check(self.run.stats["examples"])    # OutOfBudget between two calls
            start = time.monotonic()
        try:
            answer = self.run.target.call(op, *args)
        except TargetError as e:
            if budget is not None and fired():      # the alarm, caught as the target's own
                raise OutOfBudget(str(e)) from None
            raise
        if budget is not None:
            if fired():
                raise OutOfBudget("the time budget ran out")
            budget.record(time.monotonic() - start, len(args[0]) if op == BATCH else 1)
        return answer

    def _batch(self, calls: list[tuple[str, tuple]], whole: bool = False,
               until: int | None = None) -> list[Any]:
        """Every call's answer, in one round trip or a few (in chunks, the
        budget looked at between two); ``whole``: in one, always (a step,
        whose calls take :class:`Earlier` results). The first call that
        failed fails the example; ``until``: only among ``calls[:until]``
        (the caller looks at the rest with :meth:`failed_calls` after its
        own checks: a ``mover`` that returns no grid is blamed before the
        observers that then raise)."""
        if self.ended:
            return [NOT_PROVIDED] * len(calls)
        budget = self.run.budget
        if budget is None or whole:
            results = self._call(BATCH, calls)
        else:       # in chunks of about CHUNK_SECONDS, the budget looked at between two
            results, i = [], 0
            while i < len(calls):
                n = budget.chunk()
                part = self._call(BATCH, calls[i:i + n])
                if not isinstance(part, list):
                    results = part
                    break
                results += part
                i += n
        if not self._well_formed(calls, results):
            return [NOT_PROVIDED] * len(calls)
        self.failed_calls(calls, results, 0, until)
        return results

    def _well_formed(self, calls: list, results: Any) -> bool:
        """Whether ``results`` is a batch's answer to ``calls``; else fail
        (and, when the example ended on a rule already known broken, a crash
        of the batch call included, say False: nothing more to compare)."""
        if not isinstance(results, list) or len(results) != len(calls):
            self._fail("__batch__", _("the target's batch answer is malformed"),
                       actual=repr(results)[:200])
            return False
        return True

    def failed_calls(self, calls: list, results: list, start: int = 0,
                     stop: int | None = None) -> None:
        """Fail the example at the first of ``calls[start:stop]`` whose
        result is a target error (not one skipped: its earlier call failed)."""
        part = results[start:stop]
        if TargetError not in set(map(type, part)):     # (the usual case, at C speed)
            return
        for k, r in enumerate(part, start):
            if isinstance(r, TargetError) and r.kind != "skipped":
                op, args = calls[k]
                self._target_failed(r, op, args)

    def _target_failed(self, e: TargetError, op: str, args: tuple) -> None:
        if op in ("iniciar", "nuevo_juego", "crear_grilla"):
            shown = _("<the level>")
        else:
            shown = ", ".join([self.HANDLE_NAME] + [arg_text(a) for a in args[1:]]) if args else ""
        what = {
            "raised": _("raised an exception"), "timeout": _("did not answer in time (timeout)"),
            "crashed": _("crashed (its process died)"), "exited": _("exited (called exit)"),
            "output": _("printed more output than allowed"), "memory": _("ran out of memory"),
            "storage": _("ran out of storage"),
            "missing": _("is missing"), "unpicklable": _("returned a value that cannot be read back"),
            "died": _("crashed"),
        }.get(e.kind, e.kind)
        said = e.message if e.message.startswith(e.kind) else f"{what}: {e.message}"  # "raised X: ..."
        if e.kind == "died":      # a compiled target: e.op is the call as its language writes it
            message = f"{e.op or op} {said}"
        else:
            message = f"{e.op or op}({shown}) {said}"
        detail = e.detail.strip().splitlines()
        if e.kind != "died":        # a compiled target's detail is already its stacks, bounded
            detail = detail[-6:]
        actual = (e.message if e.message.startswith(e.kind) else f"{e.kind}: {e.message}") + (
            ("\n" + "\n".join(detail)) if detail else "")
        self._fail(e.op or op, message, expected=_("a normal answer"), actual=actual,
                   fatal=e.kind in FATAL_KINDS, focusable=e.kind != "died")

    # -- comparing -------------------------------------------------------------

    #: A check's way: after an action, the observers look where it can have
    #: changed something (a profile's machine says where), and everywhere at
    #: the start and the end of each example (:meth:`finish`). False: every
    #: observer everywhere after every action (the live monitor and the
    #: referee, which judge each call as it comes).
    nearby: bool = True

    #: Inside a long rule (``repeat``, ``undo_many``, ``walk_then_bomb``):
    #: compare only the cheap observers after each action (extendido: all but
    #: the per-cell ones); the rule's last action is compared in full.
    lightness = False

    @contextlib.contextmanager
    def light(self):
        self.lightness = True
        try:
            yield
        finally:
            self.lightness = False

    def agrees(self, op: str, got: Any, want: Any) -> bool:
        """Whether the target's answer ``got`` of observer ``op`` agrees with
        the spec's ``want``, observationally, as the seed asks: a boolean
        observer by its truth value (a ``None``, ``0`` or ``1`` that means the
        right thing is accepted, with a warning), a pair such as
        ``dimensiones`` also as a list (``w, h = dimensiones(g)`` works the
        same). With ``strict_types`` those are departures instead."""
        if got is NOT_PROVIDED:         # an observer the target lacks: not compared
            return True
        said = loose_type(got, want)
        if said is None:
            return values_equal(got, want)
        if said == "True/False":
            try:
                same = bool(got) == want
            except Exception:   # noqa: BLE001 - a target value with a broken __bool__
                return False
        else:
            same = values_equal(tuple(got), want)
        if not same or self.run.strict_types:
            return False
        run = self.run
        key = (op, type(got).__name__)
        if key not in run.warnings:
            shown = repr(got) if not isinstance(got, list) else "a list"
            why = (marked(self.ACCEPTED_BECAUSE) if self.ACCEPTED_BECAUSE is not None
                   else _("compared by its truth value") if said == "True/False"
                   else _("compared by its items"))
            run.warnings[key] = _("{op} returned {value} where {seed} says {said}; {why} "
                                  "(--strict-types makes this a departure)").format(
                op=op, value=shown if shown != "a list" else _("a list"), seed=self.SEED,
                said=said, why=why)
        return True

    def strict_note(self, got: Any, want: Any) -> str:
        """Why a right-meaning answer is a departure under ``strict_types``."""
        said = loose_type(got, want)
        if self.run.strict_types and said is not None:
            return _(" (--strict-types: {seed} says {said})").format(seed=self.SEED, said=said)
        return ""

    def expect_value(self, op: str, shown: str, value: Any, what: str) -> None:
        """Blame ``op`` itself when it returns no value where the seed says it
        returns one (a grid, a juego): not the next observer."""
        if value is None or type(value) in (bool, int, float):
            self._fail(op, _("{call} returned {value}, expected {what} {where}").format(
                call=shown, value=repr(value), what=marked(what), where=self.where()),
                       what, repr(value), value=self.RETURNS.get(op))

    # -- failing -------------------------------------------------------------

    def played(self) -> None:
        """Count the cases of the spec this play took (coverage per rule), as
        long as no failure was found yet: those of the game's start and of
        its observers there, then each action's (:meth:`spec_step`); as a
        replay of the actions through the profile's stepper, observing
        after each, counts them (``blame.play``), which is what it does when
        an action was stepped some other way."""
        run = self.run
        if run.frozen or not self.scenes:
            return
        codes = self.codes
        if len(self.step_cases) < len(codes):
            blame.play(run.definition, self.scenes, "".join(codes),
                       rules.Trace(counts=run.case_counts), observe=True)
            return
        counts = run.case_counts
        blame.play(run.definition, self.scenes, "", rules.Trace(counts=counts), observe=True)
        for taken in self.step_cases[:len(codes)]:
            for case in taken:
                counts[case] = counts.get(case, 0) + 1

    def spec_step(self, state: Any, code: str) -> Any:
        """The profile's stepper on ``state`` and ``code``: the state after
        it, or None when a check does not play it. When it plays, the cases
        it took, and those of the stepper's observers on the state it left,
        are kept with the action (:attr:`step_cases`, for :meth:`played`):
        the caller records ``code`` in :attr:`codes` exactly then."""
        stepper = self.run.definition.stepper
        trace = rules.Trace(keep_events=True)
        with rules.tracing(trace):
            after = stepper.step(state, code)
            if after is not None:
                stepper.observe(after)
        if after is not None:
            self.step_cases.append(trace.events)
        return after

    #: The example departed from a rule already known broken (``Run.masked``):
    #: it is over, unreported; the steps Hypothesis still draws for it do
    #: nothing (no call reaches the target, every comparison agrees).
    ended = False

    def teardown(self) -> None:
        if self._queue and not self.ended and sys.exc_info()[0] in (None, StopTest):
            # The steps deferred (Run.defer), judged now; also when Hypothesis
            # cut the example short (StopTest: out of choices), as they were
            # judged one by one before it. (A departure raised then is taken
            # by Hypothesis for the cut, but it is recorded: Run.last.)
            self._send_queue()
        if not self.ended:
            if sys.exc_info()[0] is None:   # (not while a failure, or Hypothesis, stops it)
                self.finish()
            self.played()

    def finish(self) -> None:
        """The end of an example that did not fail: a last, fuller look at
        the target (a profile that observes only what a step can change
        looks at everything here)."""

    def blame(self, operation: str, value: str | None = None) -> str | None:
        """The id of the rule the departure of ``operation`` now breaks."""
        found = blame.blame(self.run.definition, self.scenes, "".join(self.codes), operation, value)
        return found.id if found is not None else None

    def _fail(self, operation: str, message: str, expected: str = "", actual: str = "",
              fatal: bool = False, focusable: bool = True, value: str | None = None) -> None:
        """Fail the example with a counterexample; ``value``: what the
        operation showed, when its name does not say (``spec.rules``: a grid
        ``mover`` changed, aed2's ``mover`` answer)."""
        run = self.run
        if self.ended:
            return
        rule = self.blame(operation, value) if self.scenes else None
        if rule is not None and rule in run.masked and not fatal:
            self.played()           # a rule already known broken: end the example unreported
            self.ended = True
            return
        self.played()
        c = Counterexample(
            profile=run.profile,
            level_text=("\n\n".join("; " + _("level {i} of {n}").format(i=i + 1, n=len(self.scenes))
                                    + f"\n{s.xsb()}" for i, s in enumerate(self.scenes))
                        if len(self.scenes) > 1 else "\n\n".join(s.xsb() for s in self.scenes)),
            actions=[self.describe(code) for code in self.codes],
            step=len(self.codes) - 1,
            operation=operation,
            expected=expected,
            actual=actual,
            message=message,
            rule=rule,
            fatal=fatal,
        )
        c.replay = replay_command(run.target.name, run.profile, self.scenes, self.codes,
                                  run.directions, robustness=run.settings.robustness)
        run.last = c
        run.last_trace = (list(self.scenes), list(self.codes))
        if run.first_trace is None:
            run.first_trace = run.last_trace
        if run.focus is None and focusable:     # (a crash may come from any call)
            run.focus = operation.split("(")[0]
        run.frozen = True
        if run.first_failure is None:
            run.first_failure = time.monotonic()
        raise (Fatal if fatal else Departure)(c)

    def focus(self) -> str | None:
        """The one observer to compare while shrinking (None: all)."""
        return self.run.focus if _shrinking() else None

    def where(self) -> str:
        if not self.codes:
            return _("at the start")
        return _("after action {n} ({action})").format(n=len(self.codes),
                                                       action=self.describe(self.codes[-1]))

    def observe(self, calls: list, expected: list, order: Sequence[int] | None = None
                ) -> tuple[list, int | None] | None:
        """Ask the target every call in one batch and compare each answer with
        the spec's ``expected`` (in ``order``, default all, as :meth:`agrees`
        does): ``(answers, index of the first that disagrees or None)``. While
        shrinking only the focused observer is compared (a departure fails at
        once) and the answer is None."""
        focus = self.focus()
        if focus is not None:
            self._compare_focused(focused(calls, expected, focus))
            return None
        return self.judge(calls, expected, self._batch(calls), order)

    def judge(self, calls: list, expected: list, answers: list,
              order: Sequence[int] | None = None) -> tuple[list, int | None] | None:
        """:meth:`observe` on ``answers`` already asked (with the step that
        made them, in one round trip)."""
        if self.focus() is not None:
            self._compare_focused(focused(calls, expected, self.focus()),
                                  focused(calls, answers, self.focus())[1])
            return None
        for i in range(len(calls)) if order is None else order:
            got, want = answers[i], expected[i]
            if type(got) is type(want) and type(want) in (bool, int, tuple, str) and got == want:
                continue            # the usual answer, agreeing: as agrees() says, sooner
            if not self.agrees(calls[i][0], got, want):
                return answers, i
        return answers, None

    def _compare_focused(self, calls_expected: tuple[list, list],
                         answers: list | None = None) -> None:
        """While shrinking: compare only the focused observer's calls (their
        ``answers``, when already asked)."""
        calls, expected = calls_expected
        if not calls:
            return
        if answers is None:
            answers = self._batch(calls)
        for (op, args), want, got in zip(calls, expected, answers):
            if not self.agrees(op, got, want):
                self._fail(op, _("{call} is {got}, expected {want} {where}").format(
                    call=op, got=short(got), want=repr(want), where=self.where())
                    + self.strict_note(got, want), repr(want), repr(got))

    # -- solution walking --------------------------------------------------------

    def solution(self) -> str:
        """The current level's known solution (LURD; ``""`` when none is known)."""
        return self.scenes[0].solution

    def begin_level(self, scene: lv.Scene, model: Any, op: str, arg: Any, what: str) -> None:
        """Start a one-level profile: the spec's ``model`` and the target's
        ``op(arg)`` (which must return ``what``), then compare them."""
        self.scenes = [scene]
        self.model = model
        self.create(op, arg, f"{op}(<the level>)", what)

    def create(self, op: str, arg: Any, shown: str, what: str) -> None:
        """The target's game: ``op(arg)``, which must return ``what``, then
        the first comparison; in one round trip when the profile says what
        that comparison asks (:meth:`first_look`), except while shrinking
        on one observer (which asks only that observer)."""
        look = self.first_look() if self.focus() is None else None
        if look is None:
            self.handle = self._call(op, arg)
        else:
            calls = [(op, (arg,))] + look[0]
            answers = self._batch(calls, whole=True, until=1)
            self.handle = answers[0]
        self.expect_value(op, shown, self.handle, what)
        self.path = 0
        if look is None:
            self.compare()
        else:
            self.failed_calls(calls, answers, 1)
            look[1](answers[1:])

    def first_look(self) -> tuple[list, Callable[[list], None]] | None:
        """The calls of a game's first comparison, on ``Earlier(0)`` (what
        the game's first call returns), and how to judge their answers as
        :meth:`compare` does; None (the default): :meth:`compare` asks."""
        return None

    def can_follow(self) -> bool:
        return self.path is not None and self.path < len(self.solution())

    def follow(self, k: int) -> None:
        """Walk up to ``k`` steps of the current level's known solution (in
        one round trip, :meth:`pipelined`)."""
        with self.pipelined():
            for _step in range(k):
                if not self.can_follow():
                    return
                code = self.solution()[self.path].lower()
                self.path += 1
                self.act(code, following=True)

    def replay_actions(self, codes: str) -> None:
        for code in codes:
            self.act(code)

    def play_long_run(self, kind: str, pattern: str, k: int) -> None:
        """The long rules (far walks, long histories), ``k`` up to :data:`LONG`:

        * ``repeat``: ``pattern`` (one move, or there and back) ``k`` times;
        * ``walk_then_bomb`` (extendido): ``k`` steps one way, then a bomb
          (out of the level's bounding box on an open level);
        * ``undo_many`` (extendido): ``k`` undos in a row, stopping one past
          the start of the level's history.

        Inside, only the cheap observers are compared after each action; the
        last action is compared in full (see :meth:`light`). A profile's
        ``long_run`` rule calls it (one rule for the kinds, so they take a
        fair share of the steps, not a share each: each is long).
        """
        if kind == "walk_then_bomb" and not self.can_bomb():
            kind = "repeat"
        with self.light(), self.pipelined():
            for i in range(k):
                if kind == "undo_many":
                    last = i == k - 1 or self.history_is_empty()
                    self.lightness = not last
                    self.act("z")
                    if last:
                        return
                    continue
                if len(self.codes) >= MAX_ACTIONS:
                    break
                if kind == "repeat" and i == k - 1:
                    self.lightness = False
                self.act(pattern[i % len(pattern)] if kind == "repeat" else pattern[0])
        if kind == "walk_then_bomb":
            self.act("b")

    def can_bomb(self) -> bool:
        return False

    def history_is_empty(self) -> bool:
        return True

    def describe(self, code: str) -> str:
        raise NotImplementedError

    def begin(self, scenes: Sequence[lv.Scene]) -> None:
        raise NotImplementedError

    # -- a step planned apart from its judging (PIPELINE) ---------------------

    #: Whether the profile's steps are planned apart from judged (it defines
    #: :meth:`plan_step` and :meth:`judge_step`, and no ``act`` of its own): the steps
    #: of a long rule or a walk of the solution then go in one round trip
    #: (:meth:`pipelined`), and are judged in order, each as if played alone.
    PIPELINE: ClassVar[bool] = False
    #: The call of a planned step whose result the next step takes (its
    #: first argument): the juego the modifier returns. None: the juego is
    #: one object, modified in place (the next step takes the same handle).
    STEP_RESULT: ClassVar[int | None] = 0
    #: At most this many steps in one round trip.
    PIPELINE_STEPS: ClassVar[int] = 30

    _queue: list | None = None      # inside pipelined(): the steps planned, not yet sent
    #: Whether the search's first play defers the steps of each example
    #: (``Run.defer``; a PIPELINE profile).
    DEFERS: ClassVar[bool] = True

    def defer_steps(self) -> None:
        """From here to the end of the example, the steps go in batches
        (queued until PIPELINE_STEPS, another call, or the example's end),
        when the search's first play defers them (``Run.defer``)."""
        if self.run.defer and self.PIPELINE and self.DEFERS and not self.run.one_by_one:
            self._queue = []

    def plan_step(self, code: str) -> tuple[list, Any]:
        """Step the spec by ``code`` and say what to ask the target:
        ``(calls, state)``, where :data:`GIVEN` stands for the juego the
        step takes and ``Earlier(i)`` for the result of the step's own
        ``i``-th call (none: the spec does not play it); ``state``: what
        :meth:`judge_step` needs."""
        raise NotImplementedError

    def judge_step(self, calls: list, answers: list, state: Any) -> None:
        """Judge a planned step: its ``calls`` (placed) and their ``answers``
        (the first call's failure already looked at)."""
        raise NotImplementedError

    def act(self, code: str, following: bool = False) -> None:
        """One action: planned, then asked and judged (or queued, inside
        :meth:`pipelined`). A profile without PIPELINE defines its own."""
        if not following:
            self.path = None
        path_in, codes_in = self.path, len(self.codes)
        calls, state = self.plan_step(code)
        if self._queue is not None:
            self._queue.append(_Planned(code, following, self.lightness, path_in, self.path,
                                        self.model, codes_in, len(self.codes), calls, state))
            if len(self._queue) >= self.PIPELINE_STEPS:
                self._send_queue()
            return
        placed = _placed(calls, self.handle, 0)
        self.judge_step(placed, self._batch(placed, whole=True, until=1) if placed else [], state)

    #: While a pipelined step is judged: whether the target's juego has gone
    #: on since (a later step of the batch changed it).
    _stale = False

    def live(self) -> None:
        """Say that judging the current step asks the target more, about
        the juego as this step left it: a step judged from a pipelined batch
        whose later steps went on cannot, and the example is played again
        one action a round trip (:class:`_Stale`)."""
        if self._stale:
            raise _Stale

    @contextlib.contextmanager
    def pipelined(self):
        """Inside, a PIPELINE profile's actions are planned and queued; when
        the block ends (or PIPELINE_STEPS are queued) they go to the target
        in one batch, each step taking the juego the one before returned,
        which stops at the first call that fails (later steps are not
        played), and are judged in order, each as :meth:`act` judges one
        played alone: the same counterexample, counted the same. When the
        batch fails as a whole (the target's process ends inside it: the
        answers before are lost), the example is played again from its
        start, one action a round trip (:meth:`_one_by_one`), and so is the
        rest of the check."""
        if not self.PIPELINE or self._queue is not None or self.run.one_by_one:
            yield
            return
        self._queue = []
        try:
            yield
            self._send_queue()
        finally:
            self._queue = None

    def _send_queue(self) -> None:
        queue, self._queue = self._queue, []
        if not queue:
            return
        full, lightness, stats = list(self.codes), self.lightness, dict(self.run.stats)
        model, path = self.model, self.path     # (as the last action planned left them)
        before = full[:queue[0].codes_in]
        calls: list = []
        bases: list[int] = []
        given = self.handle
        for p in queue:
            bases.append(len(calls))
            if p.calls:
                calls += _placed(p.calls, given, bases[-1])
                if self.STEP_RESULT is not None:
                    given = Earlier(bases[-1] + self.STEP_RESULT)
        if self.ended or not calls:
            answers = [NOT_PROVIDED] * len(calls)
        else:
            try:
                answers = self._request(BATCH, calls, True)
            except TargetError:         # (its answers before are lost with it)
                self._one_by_one(queue, before, stats)
                return
            if not self._well_formed(calls, answers):
                return
        last = max((i for i, p in enumerate(queue) if p.calls), default=-1)
        try:
            for i, (p, base) in enumerate(zip(queue, bases)):
                placed = calls[base:base + len(p.calls)]
                part = (answers[base:base + len(p.calls)] if not self.ended
                        else [NOT_PROVIDED] * len(p.calls))
                self.codes[:] = full[:p.codes]
                self.model, self.path, self.lightness = p.model, p.path, p.lightness
                self._stale = i < last
                if placed:
                    self.failed_calls(placed, part, 0, 1)
                self.judge_step(placed, part, p.state)
        except _Stale:
            self._stale = False
            self.codes[:] = full
            self._one_by_one(queue, before, stats)
            return
        finally:
            self._stale = False
            self.lightness = lightness
        self.codes[:] = full
        self.model, self.path = model, path

    def _one_by_one(self, queue: list, before: list[str], stats: dict) -> None:
        """A pipelined batch cannot be judged as it came back: the target's
        process ended inside it (the answers before are lost), or a step's
        judging needs the juego as that step left it (:meth:`live`). Play
        the example again from its start, its actions ``before`` the batch
        (already judged and counted), then the batch's actions one a round
        trip, as :meth:`act` plays them; the counts are those of ``stats``,
        taken before the batch, and of the batch's actions played again.
        The rest of the check plays one action a round trip too: whatever
        made this batch fail as a whole (a process that ends, a target that
        prints more in a batch of steps than the cap of one message, a
        departure inside a light run) would likely do it again."""
        self._queue = None
        self.run.one_by_one = True
        del self.codes[:]
        del self.step_cases[:]
        self.begin(self.scenes)
        for code in before:
            self.act(code, following=True)
        self.run.stats.clear()
        self.run.stats.update(stats)
        for p in queue:
            self.path, self.lightness = p.path_in, p.lightness
            self.act(p.code, p.following)


#: In a planned step's calls (:meth:`Machine.plan_step`): the juego the step takes.
GIVEN = object()


class _Stale(Exception):
    """A pipelined step's judging needs the juego as that step left it
    (:meth:`Machine.live`)."""


@dataclass
class _Planned:
    """One action queued by :meth:`Machine.pipelined`, with what judging it
    restores: the machine's flags, solution walk, spec model and actions
    as they were right after it."""
    code: str
    following: bool
    lightness: bool
    path_in: int | None         # the solution walked when it was planned
    path: int | None            # ... and after
    model: Any
    codes_in: int               # len(codes) before it
    codes: int                  # ... and after
    calls: list
    state: Any


def _placed(calls: list, given: Any, base: int) -> list:
    """A planned step's calls as sent: :data:`GIVEN` is ``given``, and
    ``Earlier(i)`` the ``base + i``-th call of the batch."""
    out = []
    append = out.append
    done: dict = {}                 # id of a step's arguments -> as placed (calls share them)
    for call in calls:
        args = call[1]
        # (C-speed tests: GIVEN and Earlier compare by identity)
        if GIVEN not in args and (not base or Earlier not in map(type, args)):
            append(call)
            continue
        placed = done.get(id(args))
        if placed is None:
            placed = done[id(args)] = tuple(
                given if a is GIVEN else Earlier(a.index + base) if type(a) is Earlier else a
                for a in args)
        append((call[0], placed))
    return out


def _shrinking() -> bool:
    """Inside a Hypothesis run that is not the final (reported) one."""
    try:
        return not current_build_context().is_final
    except Exception:   # noqa: BLE001 - no Hypothesis context: a replay
        return False


def cells_board(per_cell: list, values: Sequence[Any], fields: dict[str, str],
                cell=lambda args: args[1], players: frozenset = frozenset()) -> Board:
    """The board an observation shows: per-cell observer calls ``per_cell``
    (``(op, args)``) and their answers ``values``; ``fields`` maps each
    observer to the board's field it marks (``hay_caja`` -> ``boxes``...);
    ``players``: where the player is, when no per-cell observer says it."""
    found: dict[str, set] = {field: set() for field in ("walls", "boxes", "goals", "players")}
    for (op, args), value in zip(per_cell, values):
        if truthy(value):
            found[fields[op]].add(cell(args))
    return Board(frozenset(found["walls"]), frozenset(found["boxes"]),
                 frozenset(found["goals"]), frozenset(found["players"]) | players)


def focused(calls: list, expected: list, focus: str | None) -> tuple[list, list]:
    """The calls (and their expected answers) of observer ``focus`` (None: all)."""
    if focus is None:
        return calls, expected
    keep = [i for i, (op, _) in enumerate(calls) if op == focus]
    return [calls[i] for i in keep], [expected[i] for i in keep]


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def loose_type(got: Any, want: Any) -> str | None:
    """What the seed says ``got`` should have been, when it is an answer of
    another type that may still mean ``want`` (compared loosely, with a
    warning): ``"True/False"`` for a non-bool where a bool is due,
    ``"a tuple"`` for a list where a tuple is due; else None."""
    if type(want) is bool and type(got) is not bool and not isinstance(got, Handle):
        return "True/False"
    if type(want) is tuple and type(got) is list:
        return "a tuple"
    return None


def truthy(value: Any) -> bool:
    """A target's answer as a truth value, for drawing (never raises)."""
    if isinstance(value, (Handle, TargetError)):
        return False
    try:
        return bool(value)
    except Exception:   # noqa: BLE001
        return False


def values_equal(actual: Any, expected: Any) -> bool:
    if actual is NOT_PROVIDED:      # an observer the target lacks: not compared
        return True
    try:
        return bool(actual == expected)
    except Exception:   # noqa: BLE001 - a target value with a broken __eq__
        return False


def arg_text(a: Any) -> str:
    """An argument as a report shows it (a direction by its name)."""
    return a.name if isinstance(a, Accion) else repr(a)
