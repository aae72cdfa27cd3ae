"""Profile aed2 without a compiler: a sanitizer's report parsed apart into
its stacks (conformance.profiles.aed2.sanitizer), and the two builds' findings
classified and ordered (conformance.profiles.aed2.findings)."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from conformance.profiles.aed2 import findings, sanitizer
from conformance.profiles.aed2.target import describe_death
from conformance.api import Counterexample, Verdict

FOLDER = "/home/student/tp/src"
NAMES = st.sampled_from(["Mapa", "Sokoban", "Juego", "aed2_Juego", "Nivel"])


@st.composite
def frames(draw, mine: bool):
    """``(line of the report, Frame)``: a frame in the student's folder or
    in the library or the driver."""
    name = draw(NAMES)
    line = draw(st.integers(1, 400))
    function = f"{name}::{draw(st.sampled_from(['hayPared', 'mover', 'deshacer', 'f']))}(int) const"
    if mine:
        path = f"{FOLDER}/{name}.cpp"
    else:
        path = draw(st.sampled_from(["/usr/include/c++/12/bits/stl_vector.h",
                                     "/tmp/aed2-build-x/aed2_driver.cpp"]))
    return function, path, line


def _stack_lines(stack):
    return [f"    #{i} 0x55d1{i:08x} in {f} {p}:{n}" for i, (f, p, n) in enumerate(stack)]


def _mixed(mine):
    return st.lists(st.one_of(frames(True), frames(False)) if mine else frames(False),
                    min_size=1, max_size=8)


@given(access=_mixed(True), region=st.booleans(),
       others=st.lists(st.tuples(st.sampled_from(["freed by", "previously allocated by",
                                                   "allocated by"]), _mixed(True)),
                       max_size=3))
def test_each_stack_keeps_its_own_frames(access, region, others):
    lines = ["=================================================================",
             "==7==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020 at pc 0x55 bp 0x7f sp 0x7e",
             "READ of size 4 at 0x602000000014 thread T0"] + _stack_lines(access) + [""]
    if region:
        lines.append("0x602000000014 is located 4 bytes inside of 12-byte region [0x6020,0x6021)")
    for heading, stack in others:
        lines += [f"{heading} thread T0 here:"] + _stack_lines(stack) + [""]
    lines += ["SUMMARY: AddressSanitizer: heap-use-after-free /x.cpp:8 in main",
              "Shadow bytes around the buggy address:", "  0x0c04: fa fa"]
    report = sanitizer.parse("\n".join(lines))
    assert report.kind == "heap-use-after-free" and report.access == "READ of 4 bytes"
    assert [(f.function, f.file, f.line) for f in report.stacks[0].frames] == access
    assert [(s.heading, [(f.function, f.file, f.line) for f in s.frames])
            for s in report.stacks[1:]] == [(h, s) for h, s in others]
    what, detail = sanitizer.describe(report, FOLDER)
    mine = [(f, p, n) for f, p, n in access if p.startswith(FOLDER + "/")]
    chain = []
    if mine:
        assert detail[0].startswith("the bad access")
        for line in detail[1:]:
            if not line.startswith("  "):
                break
            chain.append(line.strip())
        assert chain == [f"{p[len(FOLDER) + 1:]}:{n} ({f.split('(')[0]})"
                         for f, p, n in mine][:sanitizer.ACCESS_FRAMES]
        assert what.endswith(" at " + chain[0])
    headings = [line for line in detail if line.startswith("that block was")]
    assert headings == [f"that block was {h} (your code, innermost call first):"
                        for h, s in others if any(p.startswith(FOLDER + "/") for _, p, _ in s)]


def test_an_allocation_stack_is_never_part_of_the_access_chain():
    text = "\n".join([
        "==2==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x606 at pc 0x55 bp 0x7f sp 0x7f",
        "READ of size 8 at 0x606000000130 thread T0",
        "    #0 0x55 in std::vector<int>::size() const /usr/include/c++/12/bits/stl_vector.h:988",
        f"    #1 0x55 in Mapa::buscar(int) const {FOLDER}/Mapa.cpp:42",
        f"    #2 0x55 in aed2_Juego::sePuedeMover(PuntoCardinal) const {FOLDER}/aed2_Juego.cpp:31",
        "    #3 0x55 in aed2_serve /tmp/aed2-build-1/aed2_driver.cpp:130",
        "",
        "0x606000000130 is located 16 bytes to the left of 64-byte region [0x606000000140,0x606000000180)",
        "allocated by thread T0 here:",
        "    #0 0x7f in operator new(unsigned long) ../../../../src/libsanitizer/asan/asan_new_delete.cpp:95",
        f"    #1 0x55 in Sokoban::Sokoban(Nivel const&) {FOLDER}/Sokoban.cpp:5",
        f"    #2 0x55 in aed2_Juego::aed2_Juego(std::vector<aed2_Nivel>) {FOLDER}/aed2_Juego.cpp:3",
        "",
        "SUMMARY: AddressSanitizer: heap-buffer-overflow /usr/include/c++/12/bits/stl_vector.h:988",
        "", "@@aed2-died-in: S 0"])
    e = describe_death(text, -6, "?", FOLDER)
    assert e.op == "sePuedeMover(Norte)"
    assert e.message == ("AddressSanitizer: heap-buffer-overflow (READ of 8 bytes) at "
                         "Mapa.cpp:42 (Mapa::buscar)")
    assert e.detail.splitlines() == [
        "the bad access, in your code (innermost call first):",
        "  Mapa.cpp:42 (Mapa::buscar)",
        "  aed2_Juego.cpp:31 (aed2_Juego::sePuedeMover)",
        "the address is 16 bytes to the left of a 64-byte block",
        "that block was allocated by (your code, innermost call first):",
        "  Sokoban.cpp:5 (Sokoban::Sokoban)",
        "  aed2_Juego.cpp:3 (aed2_Juego::aed2_Juego)"]


def test_undefined_behaviour_segv_and_container_reports():
    ub = sanitizer.parse(
        f"{FOLDER}/Mapa.cpp:7:61: runtime error: index 2 out of bounds for type 'int [2]'\n"
        f"    #0 0x55 in Mapa::f() {FOLDER}/Mapa.cpp:7\n"
        "    #1 0x55 in main /tmp/aed2-build-1/aed2_driver.cpp:159\n")
    assert ub.tool == "UndefinedBehaviorSanitizer" and ub.kind.startswith("index 2 out of bounds")
    assert sanitizer.describe(ub, FOLDER)[0].endswith("at Mapa.cpp:7 (Mapa::f)")
    segv = sanitizer.parse(
        "==3==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x55 bp 0x7f sp 0x7f T0)\n"
        "==3==The signal is caused by a READ memory access.\n"
        f"    #0 0x55 in Mapa::Mapa(std::set<int>) {FOLDER}/Mapa.cpp:22\n")
    assert segv.kind == "SEGV" and not segv.needs_vector_annotations
    assert segv.flags() == sanitizer.SANITIZER_FLAGS
    for head in ("container-overflow on address 0x602000000018 at pc 0x55 bp 0x7f sp 0x7f",
                 "bad parameters to __sanitizer_annotate_contiguous_container:"):
        found = sanitizer.parse(f"==4==ERROR: AddressSanitizer: {head}\n"
                                f"    #0 0x55 in f() {FOLDER}/Mapa.cpp:3\n")
        assert found.needs_vector_annotations
        assert found.flags() == sanitizer.SANITIZER_FLAGS + " " + sanitizer.VECTOR_FLAG
    assert sanitizer.parse("killed\n") is None
    double = sanitizer.parse("==5==ERROR: AddressSanitizer: attempting double-free on 0x6020 in thread T0:\n")
    assert double.kind == "attempting double-free"


# ------------------------------------------------------------- two builds

def _cx(step, operation, message, actual="False", actions="r") -> Counterexample:
    replay = ("python -m conformance src --profile aed2 --directions seed001 --replay "
              "'{\"profile\":\"aed2\",\"levels\":[{\"rows\":[\"#@$.#\"],\"origin\":[0,0],"
              f"\"bombs\":0}}],\"actions\":\"{actions}\"}}'")
    return Counterexample("aed2", "", [], step, operation, "True", actual, message, replay)


MEMORY = _cx(0, "hayDeposito({4, 0})", "hayDeposito({4, 0}) crashed: AddressSanitizer: "
             "heap-buffer-overflow (READ of 8 bytes) at Mapa.cpp:16 (busquedaBinaria)",
             actual="died: AddressSanitizer: heap-buffer-overflow")
WRONG = _cx(0, "hay_caja(j, (2, 0))", "hay_caja(j, (2, 0)) is False, expected True", actions="rl")
CRASH = _cx(0, "hayDeposito({4, 0})", "hayDeposito({4, 0}) crashed: killed by signal SIGSEGV",
            actual="died: killed by signal SIGSEGV")


def _classify(monkeypatch, found, replayed, searched, sanitized=True, search=True, shows=None):
    """classify() with the plain build's answers given: ``replayed`` (the
    counterexample replayed there) and ``searched`` (its own search); a
    departure the plain build showed shows again when replayed, unless
    ``shows(text, n)`` says what the n-th replay of ``text`` shows."""
    calls = []
    again = {findings.replay_text(found): replayed}
    for c in (replayed, searched):
        if c is not None:
            again.setdefault(findings.replay_text(c), c)

    def judge(target, replay):
        calls.append(replay)
        if replay is None:
            c = searched
        elif shows is not None:
            c = shows(replay, calls.count(replay))
        else:
            c = again.get(replay)
        return Verdict("t", "aed2", c is None, counterexample=c)

    monkeypatch.setattr(findings, "plain_target", lambda target: SimpleNamespace(close=lambda: None))
    target = SimpleNamespace(build=SimpleNamespace(sanitized=sanitized))
    verdict = findings.classify(target, Verdict("t", "aed2", False, counterexample=found), judge,
                                search=search)
    return verdict, calls


def test_a_plain_departure_comes_first_and_the_memory_error_second(monkeypatch):
    verdict, calls = _classify(monkeypatch, MEMORY, WRONG, None)
    assert verdict.counterexample.message == WRONG.message
    assert verdict.counterexample.sanitizer_flags == ""
    assert [c.message for c in verdict.more_findings] == [MEMORY.message]
    assert verdict.more_findings[0].sanitizer_flags == sanitizer.SANITIZER_FLAGS
    # No search: the replay departed, and did so again in each fresh process.
    assert calls == [findings.replay_text(MEMORY)] + [findings.replay_text(WRONG)] * (
        findings.STEADY_REPLAYS - 1)


def test_a_departure_the_plain_build_shows_only_in_some_runs_is_not_plain(monkeypatch):
    """A bad read crashes some runs of the plain build and not others (what
    lies past the block moves): its test would pass for some students. It
    is memory-only; the plain build's search is kept only if what it finds
    shows in every run too."""
    def now_and_then(text, n):
        return CRASH if text == findings.replay_text(MEMORY) and n % 2 else None

    verdict, calls = _classify(monkeypatch, MEMORY, CRASH, None, shows=now_and_then)
    assert calls[:2] == [findings.replay_text(MEMORY)] * 2 and None in calls
    assert verdict.counterexample.message == MEMORY.message and not verdict.more_findings
    assert verdict.counterexample.sanitizer_flags == sanitizer.SANITIZER_FLAGS
    assert "// Shows only in a build with sanitizers" in findings.report(verdict, "head\n")
    # The plain search found it again (it crashed those runs): still not plain,
    # and searched again a few times.
    verdict, calls = _classify(monkeypatch, MEMORY, None, CRASH, shows=now_and_then)
    assert verdict.counterexample.sanitizer_flags == sanitizer.SANITIZER_FLAGS
    assert not verdict.more_findings and calls.count(None) == findings.PLAIN_SEARCHES
    # A wrong answer the plain search finds, and every replay shows, comes first.
    steady = lambda text, n: WRONG if text == findings.replay_text(WRONG) else None  # noqa: E731
    verdict, _ = _classify(monkeypatch, MEMORY, None, WRONG, shows=steady)
    assert verdict.counterexample.message == WRONG.message and verdict.more_findings


def test_a_memory_only_error_makes_the_plain_build_searched(monkeypatch):
    verdict, calls = _classify(monkeypatch, MEMORY, None, WRONG)
    assert calls[1] is None and verdict.counterexample.message == WRONG.message
    assert verdict.more_findings[0].sanitizer_flags == sanitizer.SANITIZER_FLAGS
    alone, _ = _classify(monkeypatch, MEMORY, None, None)
    assert alone.counterexample.message == MEMORY.message and not alone.more_findings
    assert alone.counterexample.sanitizer_flags == sanitizer.SANITIZER_FLAGS
    text = findings.report(alone, "head\n\nWhat went wrong: x\n")
    assert "Only a build with sanitizers shows it" in text
    assert f"// fails when built with g++ {sanitizer.SANITIZER_FLAGS}" in text


def test_a_crash_in_both_builds_is_one_plain_finding_in_the_sanitizers_words(monkeypatch):
    verdict, _ = _classify(monkeypatch, MEMORY, CRASH, None)
    assert verdict.counterexample.message == MEMORY.message and not verdict.more_findings
    assert verdict.counterexample.sanitizer_flags == ""
    same, _ = _classify(monkeypatch, WRONG, dataclasses.replace(WRONG), None)
    assert same.counterexample.sanitizer_flags == "" and not same.more_findings


def test_a_plain_build_needs_no_classification(monkeypatch):
    verdict, calls = _classify(monkeypatch, WRONG, None, None, sanitized=False)
    assert calls == [] and verdict.counterexample is WRONG


def test_two_findings_report_both_with_distinct_test_names(monkeypatch):
    verdict, _ = _classify(monkeypatch, MEMORY, WRONG, None)
    text = findings.report(verdict, "head\n\nWhat went wrong: x\n")
    assert "Finding 1 of 2. What went wrong" in text and "Finding 2 of 2. What went wrong" in text
    assert text.index("Fails in a plain build") < text.index("Shows only in a build with")
    names = [line for line in text.splitlines() if line.startswith("TEST_F(")]
    assert len(names) == 2 and len(set(names)) == 2


def test_a_replay_asked_for_is_only_replayed_on_the_plain_build(monkeypatch):
    verdict, calls = _classify(monkeypatch, MEMORY, None, WRONG, search=False)
    assert len(calls) == 1 and verdict.counterexample.message == MEMORY.message
    assert verdict.counterexample.sanitizer_flags == sanitizer.SANITIZER_FLAGS
