"""Two builds: which departures a student sees where they run their tests.

The check runs on the build with sanitizers (it sees memory errors). A
departure found there is then replayed on a plain build (``g++ -g``, as the
course's CMakeLists builds its tests; :mod:`.build`, cached like the other):

* it departs there too, every time: a **plain** departure, the test the
  student can run. "Every time": the replay is played
  :data:`STEADY_REPLAYS` times, each in a fresh process. What a plain build
  does after a memory error depends on what lies past the block, which moves
  from run to run (the address space is laid out at random): a bad read
  crashes one run and returns a harmless value in the next, and a test of it
  fails on one student's machine and passes on another's. Such a departure
  is not plain;
  When the sanitizer build had died of a memory error and the plain build
  departs otherwise (a wrong answer), the plain departure is reported first
  and the memory error follows as a second finding;
* it does not (or not every time): the departure is **memory-only** (only a
  sanitizer sees it every time). The plain build is then searched with the
  same seed (again, up to :data:`PLAIN_SEARCHES` times, while what it finds
  shows only in some runs): a departure found there that shows every time
  is reported first, the memory error second. Otherwise the memory
  error is the only finding, and its report and test say which flags make it
  show (:data:`conformance.profiles.aed2.sanitizer.SANITIZER_FLAGS`).

A counterexample's ``sanitizer_flags`` is "" for a plain departure, else
those flags (:mod:`conformance.profiles.aed2.emit` writes them into the test's comment).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Callable

from conformance.api import Counterexample, Verdict
from conformance.machines.emitting import replay_of
from conformance.machines.replays import replay_string
from conformance.profiles.aed2 import sanitizer
from conformance.profiles.aed2.build import BuildError, build
from conformance.profiles.aed2.emit import gtest
from conformance.profiles.aed2.target import Aed2Target
from conformance.reports.report import format_counterexample
from conformance.translations import _

#: ``judge(target, replay)``: the engine's verdict on another target with the
#: same options; ``replay`` is a ``--replay`` text to play, or None to search.
Judge = Callable[[object, "str | None"], Verdict]


def needed_flags(c: Counterexample) -> str:
    """The flags that show ``c`` when it was found in the sanitizer build."""
    text = c.message + "\n" + c.actual
    return sanitizer.flags_for("container-overflow" in text
                               or "annotate_contiguous_container" in text)


def _same(a: Counterexample, b: Counterexample) -> bool:
    if a.step != b.step or a.operation != b.operation:
        return False
    died = a.actual.startswith("died") and b.actual.startswith("died")
    return died or a.message == b.message


#: Replays on the plain build, each in a fresh process, that must all show a
#: departure before it counts as plain (see the module's docstring). A
#: public implementation's bad read crashed the plain build in 12 runs of 20:
#: five replays all crashed in 1 check of 12 (its test then marked plain),
#: ten all crash about one time in 160. A replay takes a fraction of a second.
STEADY_REPLAYS = 10


def _steady(plain, c: Counterexample, judge: Judge, runs: int) -> bool:
    """Whether ``runs`` replays of ``c`` on ``plain``, each in a fresh
    process, all depart as ``c`` did."""
    text = replay_text(c)
    for _ in range(runs):
        plain.close()           # the next game starts a fresh process
        again = judge(plain, text)
        if again.error or again.counterexample is None or not _same(again.counterexample, c):
            return False
    return True


#: Searches of the plain build (the same seed each time) while what they find
#: shows only in some runs: the same bad read may end the search early in one
#: run and let it go on to a departure that shows every time in the next. On
#: the public implementation above, with three searches 2 checks of 7 found
#: no plain departure; with eight (and ten replays), 16 checks of 16 did. No
#: new search starts after :data:`PLAIN_SEARCH_SECONDS` (a search that ends
#: late costs a whole search).
PLAIN_SEARCHES = 8
PLAIN_SEARCH_SECONDS = 60.0


def _steady_search(plain, judge: Judge) -> Counterexample | None:
    """The plain build's departure that shows in every run, or None."""
    start = time.monotonic()
    for _ in range(PLAIN_SEARCHES):
        if time.monotonic() - start > PLAIN_SEARCH_SECONDS:
            return None
        plain.close()
        found = judge(plain, None).counterexample
        if found is None:
            return None
        if _steady(plain, found, judge, STEADY_REPLAYS):
            return found
    return None


def replay_text(c: Counterexample) -> str:
    scenes, codes = replay_of(c)
    return replay_string(c.profile, scenes, codes)


def plain_target(target):
    """An :class:`~conformance.profiles.aed2.target.Aed2Target` on the plain build of
    ``target``'s folder (built or found in the cache)."""
    plain = build(target.build.folder, std=target.build.std, sanitize=False)
    return Aed2Target(plain, timeout=target.timeout, memory_mb=target.memory_mb, name=target.name)


def classify(target, verdict: Verdict, judge: Judge, *, search: bool = True) -> Verdict:
    """``verdict`` (found on ``target``) with its findings classified and
    ordered as the module says. A verdict found on a plain build is plain.
    ``search=False`` (a replay was asked for): the plain build only replays."""
    c = verdict.counterexample
    build = getattr(target, "build", None)
    if c is None or verdict.error or build is None or not build.sanitized:
        return verdict
    start = time.monotonic()
    c = dataclasses.replace(c, sanitizer_flags=needed_flags(c))
    verdict = dataclasses.replace(verdict, counterexample=c)
    try:
        plain = plain_target(target)
    except (BuildError, OSError):
        return verdict          # seen in the sanitizer build: said so with its flags
    try:
        again = judge(plain, replay_text(c))
        if again.error:         # cannot tell: said with the sanitizer build's flags
            return verdict
        first = again.counterexample
        if first is not None and not _steady(plain, first, judge, STEADY_REPLAYS - 1):
            first = None        # shows now and then: not a test the student can rely on
        if first is None and search:    # memory-only: what does the plain build show?
            first = _steady_search(plain, judge)
    finally:
        plain.close()
    spent = time.monotonic() - start
    if first is None:
        return dataclasses.replace(verdict, seconds=verdict.seconds + spent)
    first = dataclasses.replace(first, sanitizer_flags="")
    if _same(first, c):         # the same departure (a crash in both): keep the sanitizer's words
        return dataclasses.replace(verdict, counterexample=dataclasses.replace(c, sanitizer_flags=""),
                                   seconds=verdict.seconds + spent)
    more = [c]              # the memory error (or what only the sanitizer build showed)
    return dataclasses.replace(verdict, counterexample=first, more_findings=more,
                               seconds=verdict.seconds + spent)


def build_note(c: Counterexample) -> str:
    """One paragraph: in which build ``c`` shows."""
    if not c.sanitizer_flags:
        return _("It shows in a plain build (g++ -g, no sanitizer): the test below fails where "
                 "you run the course's tests.")
    note = _("Only a build with sanitizers shows it every time: a plain build (the course's) "
             "runs these calls without noticing, or fails in some runs and passes in others "
             "(what it reads or writes out of bounds changes from run to run). Build the test "
             "below with\n  g++ {flags}\nto see it fail (add the flags to CMAKE_CXX_FLAGS in "
             "the course's CMakeLists.txt).").format(flags=c.sanitizer_flags)
    if sanitizer.VECTOR_FLAG in c.sanitizer_flags:
        note += "\n" + _("{flag} marks the unused capacity of every std::vector: the test "
                         "library must be compiled with the same flags (the course's "
                         "CMakeLists.txt compiles gtest-all.cc with CMAKE_CXX_FLAGS, so it "
                         "is).").format(flag=sanitizer.VECTOR_FLAG)
    return note


def finding(i: int, total: int) -> str:
    """``Finding 2 of 3.``"""
    return _("Finding {i} of {total}.").format(i=i, total=total)


def report(verdict: Verdict, text: str) -> str:
    """The report ``text`` of ``verdict`` (its first finding) followed by
    where it shows, its Google Test case, then each further finding with
    its own."""
    c = verdict.counterexample
    if c is None:
        return text
    total = 1 + len(verdict.more_findings)
    out = [text.rstrip(), ""]
    if total > 1:
        went = _("What went wrong: {message}").partition("{message}")[0].rstrip()
        out[0] = out[0].replace("\n\n" + went, "\n\n" + finding(1, total) + " " + went, 1)
    out += [build_note(c), "",
            _("Note: the report draws y growing south (the toolkit's convention); in your "
              "code's coordinates (Norte = (0, 1)) the position (x, y) above is "
              "Coordenada(x, -y), as in the test below."), "",
            _("The same failure as a test in your own format (paste it into your test file; it "
              "fails until the bug is fixed):"), "", gtest(c).rstrip()]
    for i, more in enumerate(verdict.more_findings, 2):
        out += ["", "", finding(i, total) + " " + format_counterexample(more), "",
                build_note(more), "", _("Its test:"), "", gtest(more).rstrip()]
    return "\n".join(out) + "\n"
