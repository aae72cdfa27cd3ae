"""Where to look in a C++ target (profile aed2): the coverage build's line
spectra of the student's own files, recorded only after a departure,
ranked by the shared ranking (``conformance.machines.suspects``), a
sanitizer's ``file:line`` first; shown in the terminal report, the JSON,
Gradescope, the pytest plugin and report.html. The tests that build need
g++ and objdump (skipped without them)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.api import Counterexample
from conformance.checking import localize as loc
from conformance.checking.checks import RunOptions, check_by_rules, check_target
from conformance.checking.targets import own_spec, seen_in_ours
from conformance.profiles.aed2 import coverage, mutants, sanitizer
from conformance.reports.output import verdicts_to_gradescope, verdicts_to_json
from conformance.reports.report import place

pytest_plugins = ["pytester"]

needs_gpp = pytest.mark.skipif(shutil.which("g++") is None or shutil.which("objdump") is None,
                               reason="g++ or objdump (GNU binutils) is not installed")

#: A mutant whose changed line is localised in the top 3 (seed 1, 20 plays).
FOUND = "push_into_wall"
CHECK = RunOptions(seed=1)


def _changed_line(m: mutants.Mutant) -> tuple[str, int]:
    text = mutants.mutated_text(m)
    return m.file, text[:text.index(m.new)].count("\n") + 1


def _shows(where, file: str, line: int, top: int = 3) -> bool:
    return any(s.file == file and s.line <= line <= (s.last or s.line)
               for s in where.lines[:top])


# ------------------------------------------------------ the map of blocks

DISASSEMBLY = """\
0000000000401000 <Mapa::hayPared(std::pair<int, int>) const>:
Mapa::hayPared(std::pair<int, int>) const():
/tmp/aed2-build-x/src/Mapa.cpp:25
  401000:\tpush   %rbp
  401001:\tcall   400500 <__sanitizer_cov_trace_pc>
/tmp/aed2-build-x/src/Mapa.cpp:26
  401006:\tmov    %rdi,%rax
/usr/include/c++/12/bits/stl_vector.h:1000
  40100a:\tcall   400600 <std::vector<int>::empty() const>
/tmp/aed2-build-x/src/Mapa.cpp:26 (discriminator 1)
  40100f:\tcall   400500 <__sanitizer_cov_trace_pc>
  401014:\tmov    $0x0,%eax
/tmp/aed2-build-x/src/Mapa.cpp:27
  401019:\tret
0000000000402000 <main>:
/tmp/aed2-build-x/aed2_driver.cpp:10
  402000:\tcall   400500 <__sanitizer_cov_trace_pc>
  402005:\tret
"""


def test_each_block_holds_the_students_lines_from_its_call_to_the_next():
    blocks = coverage.block_map(DISASSEMBLY, {"Mapa.cpp", "Mapa.h"})[0]
    assert blocks == {
        0x401006: [("Mapa.cpp", 25, "Mapa::hayPared"), ("Mapa.cpp", 26, "Mapa::hayPared")],
        0x401014: [("Mapa.cpp", 26, "Mapa::hayPared"), ("Mapa.cpp", 27, "Mapa::hayPared")],
    }                           # the prologue joins the first block; the driver, the library: none


def test_each_block_knows_its_functions_entry():
    _, entries = coverage.block_map(DISASSEMBLY, {"Mapa.cpp", "Mapa.h"})
    assert entries == {0x401006: 0x401006, 0x401014: 0x401006}


@given(st.dictionaries(st.integers(1, 2**40), st.lists(
    st.tuples(st.sampled_from(["a.cpp", "b.h"]), st.integers(1, 50), st.text("fg:", max_size=4)),
    min_size=1, max_size=3), max_size=6), st.data())
def test_the_map_is_read_as_written(tmp_path_factory, blocks, data):
    entries = {a: data.draw(st.sampled_from(sorted(blocks))) for a in blocks}
    path = tmp_path_factory.mktemp("map") / coverage.MAP
    coverage.write_map(path, blocks, entries)
    assert coverage.read_map(path) == (blocks, entries)


@given(st.lists(st.integers(1, 4), min_size=1, max_size=4, unique=True), st.data())
def test_a_block_a_call_of_its_function_skipped_is_a_part_of_its_own(functions, data):
    """With counts and entries, a block run fewer times under a request
    than its function's entry (or not at all) is a unit ``-address``,
    of its lines and the last line of the block laid out before it;
    the blocks that ran are their addresses as before."""
    blocks, entries = {}, {}
    for f in functions:                 # function f: blocks 100f, 100f+1, ...
        size = data.draw(st.integers(1, 4))
        for k in range(size):
            a = 100 * f + k
            blocks[a] = [("a.cpp", 10 * f + k, f"f{f}")]
            entries[a] = 100 * f
    counts = data.draw(st.dictionaries(st.tuples(st.sampled_from(sorted(blocks)),
                                                 st.sampled_from("MP")),
                                       st.integers(1, 5), max_size=10))
    answer = [f"{a:x} {ord(letter):x} {n:x}" for (a, letter), n in counts.items()]
    names = {"M": ("mover",), "P": ("hay_pared",)}
    found = coverage.spectrum(answer, blocks, names, entries)
    ran = {(f, n, p) for f, n, _fn, _ops, p in found if p > 0}
    assert ran == {(f, n, a) for a, _ in counts for f, n, _ in blocks[a]}
    skipped = {(-p, tuple(ops)) for _f, _n, _fn, ops, p in found if p < 0}
    expected = {}
    for (a, letter), n in counts.items():
        if entries[a] == a:
            for b in blocks:
                if entries[b] == a and b != a and counts.get((b, letter), 0) < n:
                    expected.setdefault(b, set()).update(names[letter])
    assert {b for b, _ in skipped} == set(expected)
    for b, ops in skipped:
        assert set(ops) == expected[b]
        lines = {n for _f, n, _fn, _ops, p in found if p == -b}
        assert lines == {blocks[b][0][1], blocks[b - 1][0][1]}    # its line, the one before


BLOCKS = st.dictionaries(st.integers(1, 2**40), st.lists(
    st.tuples(st.sampled_from(["a.cpp", "b.h"]), st.integers(1, 50), st.just("f")),
    min_size=1, max_size=4, unique_by=lambda x: x[:2]), max_size=8)


@given(BLOCKS, st.data())
def test_a_spectrum_is_the_lines_of_the_blocks_that_ran_with_their_operations(blocks, data):
    ran = data.draw(st.lists(st.tuples(st.sampled_from(sorted(blocks) or [7]),
                                       st.sampled_from("NMSP")), max_size=12))
    answer = [f"{a:x} {ord(letter):x}" for a, letter in ran] + ["junk", "zz 4d"]
    names = {"M": ("mover",), "S": ("puede_mover", "sePuedeMover")}
    found = coverage.spectrum(answer, blocks, names)
    expected = {(f, n, a) for a, _ in ran for f, n, _fn in blocks.get(a, ())}
    assert {(f, n, a) for f, n, _fn, _ops, a in found} == expected
    for f, n, _fn, ops, a in found:
        assert set(ops) == {op for b, letter in ran if b == a for op in names.get(letter, ())}
    keys = [(f, n, a) for f, n, _fn, _ops, a in found]
    assert keys == sorted(keys)


def test_a_symbol_is_shown_as_its_functions_name():
    assert coverage.function_name("Mapa::hayPared(std::pair<int, int>) const") == "Mapa::hayPared"
    assert coverage.function_name("bool buscar<std::pair<int, int> >(std::vector<int>, int)") \
        == "buscar<std::pair<int, int> >"
    assert coverage.function_name("Foo::operator()(int)") == "Foo::operator()"
    assert coverage.function_name("Foo::operator bool() const") == "Foo::operator bool"


# ----------------------------------------------- the sanitizer's own line

def _c(message: str) -> Counterexample:
    return Counterexample("aed2", "", [], 0, "op", "", "", message)


def test_a_sanitizer_finding_names_its_line_in_the_students_files():
    asan = _c("sePuedeMover(Este) crashed: AddressSanitizer: heap-buffer-overflow (READ of 4 "
              "bytes) at Mapa.cpp:16 (busquedaBinaria)")
    ubsan = _c("x crashed: UndefinedBehaviorSanitizer: signed integer overflow at Mapa.cpp:22:7")
    assert sanitizer.located(asan) == [("Mapa.cpp", 16, "busquedaBinaria")]
    assert sanitizer.located(ubsan) == [("Mapa.cpp", 22, "")]
    assert sanitizer.located(_c("hay_pared(j, (0, 0)) is True, expected False")) == []
    assert sanitizer.located(_c("killed by signal SIGSEGV (a plain build names no file")) == []


PLAYS = st.lists(st.tuples(st.frozensets(st.tuples(st.just("f.cpp"), st.integers(1, 9),
                                                   st.integers(0, 2)), max_size=8),
                           st.booleans()), max_size=10)


@given(PLAYS, st.lists(st.tuples(st.just("f.cpp"), st.integers(1, 12)), max_size=2, unique=True))
def test_pinned_lines_come_first_and_each_line_is_shown_once(plays, pinned):
    """Parts of lines (``(file, line, part)``) are ranked apart and shown as
    their lines, each once; the pinned lines come first, in their order,
    each a place of its own, whether a play ran them or not."""
    spectra = loc.Spectra([((frozenset(lines),), failed) for lines, failed in plays], {},
                          pinned=tuple(pinned))
    where = loc.localization(spectra, None, shown=None)
    failing = {(f, n) for lines, failed in plays if failed for f, n, _ in lines}
    if where is None:
        assert not pinned and not failing
        return
    firsts = [(s.file, s.line) for s in where.lines]
    assert len(set(firsts)) == len(firsts)                      # a line once
    assert firsts[:len(pinned)] == pinned                       # the pinned lines first
    assert all(s.last in (0, s.line) for s in where.lines[:len(pinned)])
    for s in where.lines:
        assert s.line <= (s.last or s.line)
        assert {(s.file, s.line), (s.file, s.last or s.line)} <= failing | set(pinned)
    assert {(f, n) for f, n, _ in where.heat} == failing | set(pinned)


# ------------------------------------------------------------ end to end

@needs_gpp
def test_the_coverage_build_maps_only_the_students_lines():
    built = mutants.materialize(mutants.BY_NAME[FOUND])
    from conformance.profiles.aed2.build import build
    b = build(built, coverage=True)
    assert b.coverage and not b.sanitized
    blocks, _ = coverage.read_map(b.blocks)
    names = {p.name for p in built.iterdir()}
    lines = {(f, n) for found in blocks.values() for f, n, _ in found}
    assert lines and {f for f, _ in lines} <= names
    for f, n in lines:
        assert (built / f).read_text().splitlines()[n - 1].strip()     # a line of code
    assert build(built, coverage=True).cached


@needs_gpp
def test_a_bomb_thrown_again_on_its_cell_shows_the_push_it_skipped():
    """End to end, the driver's counts: the mutant that records a second bomb
    on the same cell no more (its ``push_back`` behind an ``if``) skips
    that block in the second call: a skipped part of the changed line is
    in the spectrum, under ``tirarBomba``, that one bomb does not show."""
    from conformance.profiles.aed2.build import build
    from conformance.profiles.aed2.target import Aed2Target
    from conformance.api import SPECTRA
    from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE
    m = mutants.BY_NAME["bomb_once_per_cell"]
    file, line = _changed_line(m)
    target = Aed2Target(build(mutants.materialize(m)))
    level = {PAREDES: {(0, 0), (2, 0), (1, 1)}, DEPOSITOS: {(3, 3)}, CAJAS: {(3, 2)},
             PERSONAJE: {(1, 0)}, BOMBAS: 2}
    try:
        target.call(SPECTRA, "start")
        found = {}
        for bombs in (1, 2):
            target.call(SPECTRA, "take")
            juego = target.call("nuevo_juego", [level])
            for _ in range(bombs):
                target.call("tirar_bomba", juego)
            found[bombs] = target.call(SPECTRA, "take")
        target.call(SPECTRA, "stop")
    finally:
        target.close()
    skips = {bombs: {p for f, n, _fn, ops, p in spectrum
                     if (f, n) == (file, line) and p < 0 and "tirarBomba" in ops}
             for bombs, spectrum in found.items()}
    assert skips[2] - skips[1]          # a part of that line only the second call skipped
    for spectrum in found.values():
        assert any((f, n) == (file, line) and p > 0 for f, n, _fn, _ops, p in spectrum)


@pytest.fixture(scope="module")
def found():
    """The mutant checked, then localised with all its plays whatever the
    machine's speed (a check allows a share of its own time), and reported."""
    from conformance import profiles
    from conformance.checking import checks
    m = mutants.BY_NAME[FOUND]
    folder = mutants.materialize(m)
    spec = own_spec("aed2", folder)
    profile = profiles.get("aed2")
    options = checks.checked_options(spec, RunOptions(seed=1, localize=False))
    target = profile.open(spec, options)
    try:
        verdict, _ = check_target(spec, None, options, target=target)[0]
        loc.localize_verdict(seen_in_ours(target, profile, options.directions),
                             profile, verdict, directions=options.directions, seconds=1e9)
    finally:
        target.close()
    return m, folder, verdict, checks.report(verdict)


@needs_gpp
def test_a_cpp_mutants_report_names_its_changed_line_in_the_top_3(found):
    m, folder, verdict, report = found
    where = verdict.counterexample.where
    assert where is not None and where.failing >= 1 and where.passing >= 1
    assert where.failing + where.passing == loc.MAX_PLAYS
    file, line = _changed_line(m)
    assert _shows(where, file, line), where.lines
    for s in where.lines:
        text = (folder / s.file).read_text().splitlines()
        assert s.source.split("\n")[0] == text[s.line - 1].strip() and s.function
    assert "Where to look (a hint, not a proof)" in report
    top = where.lines[0]
    assert f"{place(top.file, top.line, top.last)}  1.00 in {top.function}" in report


@needs_gpp
def test_the_json_carries_a_cpp_localisation(found):
    _m, _folder, verdict, _report = found
    data = json.loads(verdicts_to_json([verdict]))
    where = data["verdicts"][0]["counterexample"]["where"]
    assert where["lines"][0]["file"] == verdict.counterexample.where.lines[0].file


@needs_gpp
def test_a_correct_cpp_target_is_never_traced_nor_built_for_coverage(tmp_path, monkeypatch):
    from conformance.profiles.aed2.target import Aed2Target
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    asked = []
    answer = Aed2Target._spectra
    monkeypatch.setattr(Aed2Target, "_spectra",
                        lambda self, command: asked.append(command) or answer(self, command))
    [(verdict, report)] = check_target(own_spec("aed2", mutants.REFERENCE), None,
                                       RunOptions(seed=1, max_examples=20))
    assert verdict.conforms and asked == []
    assert not list((tmp_path / "cache").rglob(coverage.MAP))     # no coverage build made
    assert "Where to look" not in report


@needs_gpp
def test_no_localize_leaves_a_cpp_departure_unlocalised():
    folder = mutants.materialize(mutants.BY_NAME[FOUND])
    verdict, report = check_target(own_spec("aed2", folder), None,
                                   RunOptions(seed=1, localize=False))[0]
    assert not verdict.conforms and verdict.counterexample.where is None
    assert "Where to look" not in report


@needs_gpp
def test_the_sanitizers_line_is_ranked_first():
    """A memory error (AddressSanitizer's file:line, Mapa.cpp:16, the
    mutant's changed line) comes first: in its own finding and in the
    plain departure found beside it."""
    m = mutants.BY_NAME["binary_search_past_end"]
    folder = mutants.materialize(m)
    verdict, report = check_target(own_spec("aed2", folder), None, CHECK)[0]
    file, line = _changed_line(m)
    findings = [verdict.counterexample, *verdict.more_findings]
    assert any("AddressSanitizer" in c.message for c in findings)
    for c in findings:
        assert c.where is not None
        first = c.where.lines[0]
        assert (first.file, first.line, first.last) == (file, line, line), c.where.lines
        assert first.function == "busquedaBinaria" and first.score == 1
    assert report.count(f"{file}:{line} ") >= 2


@needs_gpp
def test_a_crash_is_localised_from_what_the_dying_process_ran():
    """The coverage build dies too (a null reference in the constructor):
    its blocks reach us on its stderr, so the crash's plays count."""
    m = mutants.BY_NAME["crash_without_walls"]
    folder = mutants.materialize(m)
    verdict, _report = check_target(own_spec("aed2", folder), None, CHECK)[0]
    where = verdict.counterexample.where
    file, line = _changed_line(m)
    assert (where.lines[0].file, where.lines[0].line) == (file, line)
    assert where.failing >= 2 and len(where.lines) >= 2       # plays, not only the pinned line
    assert "@@aed2-block" not in verdict.counterexample.actual


@needs_gpp
def test_gradescope_shows_a_cpp_rules_localisation():
    folder = mutants.materialize(mutants.BY_NAME[FOUND])
    results = check_by_rules(own_spec("aed2", folder), "aed2", RunOptions(seed=1, max_examples=30))
    verdict, _ = results[0]
    broken = [o for o in verdict.outcomes if o.status == "broken"]
    assert broken and all(o.counterexample.where is not None for o in broken)
    tests = json.loads(verdicts_to_gradescope(results))["tests"]
    failed = [t for t in tests if t["status"] == "failed" and "Broken:" in t["output"]]
    assert failed and all("Where to look (a hint, not a proof)" in t["output"] for t in failed)


@needs_gpp
def test_the_plugins_failure_shows_a_cpp_localisation(pytester):
    folder = mutants.materialize(mutants.BY_NAME[FOUND])
    pytester.makeini("[pytest]\n")
    args = ("-p", "no:cacheprovider", "-p", "no:benchmark", f"--sokoban-impl={folder}",
            "--sokoban-seed=1")
    out = "\n".join(pytester.runpytest_inprocess(*args).outlines)
    assert "Where to look (a hint, not a proof)" in out
    off = "\n".join(pytester.runpytest_inprocess(*args, "--sokoban-no-localize").outlines)
    assert "Where to look" not in off and "failed" in off


@needs_gpp
def test_report_html_shows_a_cpp_heat_map(tmp_path):
    from conformance.commands import cli
    course = tmp_path / "tp2"
    shutil.copytree(mutants.materialize(mutants.BY_NAME[FOUND]), course / "bruno")
    with open(os.devnull, "w") as quiet:
        assert cli.main(["grade", str(course), "--seed", "1", "--max-examples", "30"],
                        out=quiet) == 0
    out = tmp_path / "tp2-grades"
    summary = json.loads((out / "summary.json").read_text())
    bruno = next(s for s in summary["submissions"] if s["name"] == "bruno")
    broken = {rule: info for rule, info in bruno["rules"].items() if info["status"] == "broken"}
    assert broken
    page = (out / "report.html").read_text()
    for rule, info in broken.items():
        where = info["where"]
        assert where["lines"] and where["heat"]
        file = where["lines"][0]["file"]
        assert where["sources"][file] == (course / "bruno" / file).read_text()
        anchor = "where-bruno-" + re.sub(r"\W", "_", rule)
        assert f'href="#{anchor}"' in page and f'id="{anchor}"' in page

