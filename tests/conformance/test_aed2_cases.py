"""The Google Test cases the check prints for every C++ selftest mutant,
compiled where a student runs them: appended to a test file in the course's
style (``fixtures/aed2_course/juego-tests.cpp``, with its ``JuegoTest``
fixture), built with the real Google Test library and the mutant's sources,
in the build each case's comment names (plain ``g++ -g``, or the sanitizer
flags of a memory-only case). Each must fail on its mutant and pass on the
reference. Where libgtest is missing, the project's small stand-in
(``fixtures/gtest_shim``) replaces it and the test says so.

The check of each mutant is the selftest's (seed 0, 100 examples): these
tests are also the proof that every mutant is caught."""

from __future__ import annotations

import re
import shutil
import warnings
from pathlib import Path

import pytest

from conformance.profiles.aed2 import gtest as aed2_gtest
from conformance.profiles.aed2 import mutants, sanitizer
from conformance.checking.checks import RunOptions, check_target
from conformance.profiles import emit_for
from conformance.checking.targets import own_spec

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")

FIXTURES = Path(__file__).parent / "fixtures"
COURSE = FIXTURES / "aed2_course" / "juego-tests.cpp"
SHIM = FIXTURES / "gtest_shim"
PLAIN = "-g"
_NAMED = re.compile(r"// fails when built with g\+\+ (?P<flags>[^\n]+)")
_CASE = re.compile(r"TEST_F\(JuegoTest, (?P<name>\w+)\)")
#: Runs of each case on its mutant: it must fail in each (the address space
#: is laid out anew each run, and with it what an out-of-bounds read finds).
RUNS = 3


def flags_named(case: str) -> str:
    """The build a case's comment names: plain, or the flags it gives."""
    if "// Fails in a plain build (g++ -g, no sanitizer needed)." in case:
        return PLAIN
    named = _NAMED.search(case)
    assert named, f"the case names no build:\n{case}"
    return named.group("flags")


def library(flags: str) -> aed2_gtest.Library:
    found = aed2_gtest.library(flags)
    if found is not None:
        return found
    warnings.warn(f"libgtest is missing: the emitted cases run with the project's stand-in "
                  f"({SHIM}) instead of Google Test ({aed2_gtest.missing()})")
    return aed2_gtest.Library(("-I" + str(SHIM),), (str(SHIM / "gtest_main.cpp"),), "stand-in")


def test_the_course_style_file_passes_on_the_reference():
    binary = aed2_gtest.build_tests(COURSE.read_text(), mutants.REFERENCE, PLAIN,
                                    lib=library(PLAIN))
    for name in _CASE.findall(COURSE.read_text()):
        assert aed2_gtest.run_case(binary, name, sanitized=False).passed, name


def test_the_stand_in_runs_the_course_style_file():
    """The stand-in used where libgtest is missing still compiles and runs
    a course-style file (and tells a failing case from a passing one)."""
    shim = aed2_gtest.Library(("-I" + str(SHIM),), (str(SHIM / "gtest_main.cpp"),), "stand-in")
    failing = "TEST_F(JuegoTest, falla) {\n    aed2_Juego j({n1});\n    EXPECT_TRUE(j.hayCaja(inicio));\n}\n"
    binary = aed2_gtest.build_tests(COURSE.read_text() + "\n" + failing, mutants.REFERENCE, PLAIN,
                                    lib=shim)
    assert aed2_gtest.run_case(binary, "deshacer_una_bomba", sanitized=False).passed
    assert not aed2_gtest.run_case(binary, "falla", sanitized=False).passed


@pytest.mark.parametrize("name", [m.name for m in mutants.MUTANTS])
def test_emitted_cases_fail_on_their_mutant_and_pass_on_the_reference(name):
    folder = mutants.materialize(mutants.BY_NAME[name])
    verdict, report = check_target(own_spec("aed2", folder), "aed2",
                                   RunOptions(max_examples=100, seed=0))[0]
    assert not verdict.conforms and verdict.error is None, report
    found = [verdict.counterexample, *verdict.more_findings]
    cases = [emit_for(c) for c in found]
    by_flags: dict[str, list[str]] = {}
    for c, case in zip(found, cases):
        assert case and case in report, report
        assert flags_named(case) == (c.sanitizer_flags or PLAIN)
        by_flags.setdefault(flags_named(case), []).append(case)
    assert not found[0].sanitizer_flags or len(found) == 1, "a plain departure comes first"
    if name == "crash_without_walls":       # a crash in both builds: one finding, ASan's words
        assert found[0].operation == "aed2_Juego(niveles)" and len(found) == 1
        assert "Sanitizer" in found[0].message and "Mapa.cpp:" in found[0].message
    assert len({_CASE.search(case).group("name") for case in cases}) == len(cases)
    for flags, group in by_flags.items():
        text = COURSE.read_text() + "\n\n" + "\n".join(group)
        lib = library(flags)
        on_mutant = aed2_gtest.build_tests(text, folder, flags, lib=lib)
        on_reference = aed2_gtest.build_tests(text, mutants.REFERENCE, flags, lib=lib)
        for case in group:
            case_name = _CASE.search(case).group("name")
            for _ in range(RUNS):       # every run: what a bad read does changes from run to run
                bad = aed2_gtest.run_case(on_mutant, case_name, sanitized=flags != PLAIN)
                assert not bad.passed, f"passes on {name} built with {flags}:\n{case}\n{bad.output}"
            good = aed2_gtest.run_case(on_reference, case_name, sanitized=flags != PLAIN)
            assert good.passed, f"fails on the reference built with {flags}:\n{case}\n{good.output}"


#: Variants of the reference whose only bug is a read one past the end of a
#: sorted vector, which a plain build does not notice (the read value is
#: never used): in a vector of exact capacity (AddressSanitizer's
#: heap-buffer-overflow) and inside spare capacity (container-overflow, seen
#: only with libstdc++'s vector annotations).
MEMORY_ONLY = {
    "heap": ("    return lo < v.size() && v[lo] == c;",
             "    if (v.empty()) return false;\n"
             "    return lo <= v.size() && v.data()[lo] == c && lo < v.size();", ""),
    "container": ("    return lo < v.size() && v[lo] == c;",
                  "    return lo <= v.size() && v.data()[lo] == c && lo < v.size();",
                  "    _paredes.reserve(_paredes.size() + 8);\n"
                  "    _depositos.reserve(_depositos.size() + 8);\n"),
}


@pytest.mark.parametrize("variant", sorted(MEMORY_ONLY))
def test_a_memory_only_case_fails_only_in_the_build_it_names(tmp_path, variant):
    old, new, reserve = MEMORY_ONLY[variant]
    folder = tmp_path / "src"
    shutil.copytree(mutants.REFERENCE, folder)
    mapa = folder / "Mapa.cpp"
    text = mapa.read_text().replace(old, new)
    text = text.replace("      _depositos(depositos.begin(), depositos.end()) {\n",
                        "      _depositos(depositos.begin(), depositos.end()) {\n" + reserve)
    mapa.write_text(text)
    # The bad read happens on most levels: a few examples find it (and the
    # plain build's search, which finds nothing, stays short).
    verdict, report = check_target(own_spec("aed2", folder), "aed2",
                                   RunOptions(max_examples=20, seed=0))[0]
    assert verdict.counterexample is not None and not verdict.more_findings, report
    c = verdict.counterexample
    assert c.sanitizer_flags == sanitizer.flags_for(variant == "container"), report
    assert "Only a build with sanitizers shows it" in report
    case = emit_for(c)
    flags = flags_named(case)
    text = COURSE.read_text() + "\n\n" + case
    name = _CASE.search(case).group("name")
    lib = library(flags)
    assert not aed2_gtest.run_case(aed2_gtest.build_tests(text, folder, flags, lib=lib), name,
                                   sanitized=True).passed
    assert aed2_gtest.run_case(aed2_gtest.build_tests(text, mutants.REFERENCE, flags, lib=lib),
                               name, sanitized=True).passed
    assert aed2_gtest.run_case(aed2_gtest.build_tests(text, folder, PLAIN, lib=library(PLAIN)),
                               name, sanitized=False).passed        # memory-only indeed
