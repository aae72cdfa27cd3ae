"""Profile aed2: a folder of C++ sources built with our driver and checked
by the engine (needs g++; skipped without it)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.profiles.aed2 import build as aed2_build
from conformance.profiles.aed2 import mutants
from conformance.checking.checks import RunOptions, check_by_rules, check_target
from conformance.commands.cli import main
from conformance.reports.output import verdict_status
from conformance.checking.targets import own_spec, resolve
from conformance.api import BATCH
from spec import extendido as spec_ext
from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE, Accion

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private build cache (the reference is rebuilt: ~10 s with sanitizers)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _copy_reference(tmp_path: Path) -> Path:
    folder = tmp_path / "src"
    shutil.copytree(mutants.REFERENCE, folder)
    return folder


def test_reference_conforms_and_rebuild_is_cached(cache, tmp_path):
    folder = _copy_reference(tmp_path)
    first = aed2_build.build(folder)
    assert not first.cached and first.binary.is_file()
    assert str(first.directory).startswith(str(cache))
    assert not any(p.suffix == ".o" for p in folder.iterdir())      # nothing written there
    again = aed2_build.build(folder)
    assert again.cached and again.directory == first.directory
    verdict, report = check_target(own_spec("aed2", folder), None, RunOptions(max_examples=40, seed=3))[0]
    assert verdict.profile == "aed2"
    assert verdict.conforms, report


def test_folder_detection(tmp_path):
    folder = _copy_reference(tmp_path)
    assert resolve(str(folder)).kind == "cpp"
    assert resolve(str(tmp_path)).path == str(folder.resolve())     # a submission with src/


def test_no_compiler_is_one_clear_line(tmp_path, monkeypatch, capsys):
    folder = _copy_reference(tmp_path)
    monkeypatch.setattr(aed2_build.shutil, "which", lambda name: None)
    assert main([str(folder)], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "g++ was not found" in err and "apt-get install g++" in err


def test_compile_error_shows_file_and_line(cache, tmp_path, capsys):
    folder = _copy_reference(tmp_path)
    text = (folder / "Mapa.cpp").read_text().splitlines()
    text[5] = text[5] + " this is not C++"
    (folder / "Mapa.cpp").write_text("\n".join(text) + "\n")
    assert main([str(folder)], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "compile errors" in err and f"{folder}/Mapa.cpp:6:" in err


def test_missing_method_and_header_are_named(cache, tmp_path, capsys):
    folder = _copy_reference(tmp_path)
    header = folder / "aed2_Juego.h"
    header.write_text(header.read_text().replace("    void deshacer();\n", ""))
    assert main([str(folder)], out=io.StringIO()) == 2
    assert "lacks these methods of the course interface" in capsys.readouterr().err
    (folder / "Tipos.h").unlink()
    assert main([str(folder)], out=io.StringIO()) == 2
    assert "missing header(s): Tipos.h" in capsys.readouterr().err


def test_undefined_method_is_a_link_error(cache, tmp_path, capsys):
    folder = _copy_reference(tmp_path)
    source = folder / "aed2_Juego.cpp"
    source.write_text("\n".join(line for line in source.read_text().splitlines()
                                if "aed2_Juego::deshacer" not in line) + "\n")
    assert main([str(folder)], out=io.StringIO()) == 2
    assert "aed2_Juego::deshacer()" in capsys.readouterr().err


def test_files_with_main_or_gtest_are_left_out(cache, tmp_path):
    folder = _copy_reference(tmp_path)
    (folder / "main.cpp").write_text('#include "aed2_Juego.h"\nint main() { return 0; }\n')
    (folder / "tests.cpp").write_text('#include "gtest/gtest.h"\n')
    (folder / "old").mkdir()
    (folder / "old" / "Mapa.cpp").write_text("this does not compile\n")
    b = aed2_build.build(folder, sanitize=False)
    assert set(b.excluded) == {"main.cpp", "tests.cpp"}
    assert "Mapa.cpp" in b.sources and not b.sanitized


def test_every_mutant_substitution_matches_once():
    for m in mutants.MUTANTS:
        assert mutants.mutated_text(m) != (mutants.REFERENCE / m.file).read_text()


def _variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    folder = tmp_path / name / "src"
    shutil.copytree(mutants.REFERENCE, folder)
    source = folder / "aed2_Juego.cpp"
    text = source.read_text()
    assert text.count(old) == 1
    source.write_text("#include <iostream>\n#include <stdexcept>\n#include <cstdlib>\n"
                      + text.replace(old, new))
    return folder


def test_students_prints_do_not_disturb_the_protocol(cache, tmp_path):
    folder = _variant(tmp_path, "chatty", "{ return _juego.actual().hayPared(c); }",
                      '{ std::cout << "hayPared " << c.first << std::endl; '
                      "return _juego.actual().hayPared(c); }")
    verdict, report = check_target(own_spec("aed2", folder), None,
                                   RunOptions(max_examples=15, seed=1, sanitize=False))[0]
    assert verdict.conforms, report


@pytest.mark.parametrize("old,new,expected", [
    ("void aed2_Juego::deshacer() { _juego.deshacer(); }",
     'void aed2_Juego::deshacer() { std::cerr << "COMPLETAR" << std::endl; exit(1); }',
     ("deshacer() crashed", "exited with status 1")),
    ("void aed2_Juego::tirarBomba() { _juego.tirarBomba(); }",
     'void aed2_Juego::tirarBomba() { throw std::runtime_error("sin\\nbombas"); }',
     ("tirarBomba()", "threw sin bombas")),
    ("bool aed2_Juego::mover(PuntoCardinal pc) { return _juego.mover(pc); }",
     "bool aed2_Juego::mover(PuntoCardinal pc) { for (volatile int i = 0; ; i = i) {} }",
     ("mover(", "used more than 1 s of CPU time")),
    ("bool aed2_Juego::hayCaja(Coordenada c) const { return _juego.actual().hayCaja(c); }",
     "bool aed2_Juego::hayCaja(Coordenada c) const { volatile int* p = nullptr; return *p; }",
     ("hayCaja({", "killed by signal SIGSEGV")),
])
def test_exit_exception_and_endless_loop_are_verdicts(cache, tmp_path, old, new, expected):
    folder = _variant(tmp_path, "bad", old, new)
    verdict, report = check_target(own_spec("aed2", folder), None, RunOptions(
        max_examples=30, seed=0, sanitize=False, timeout=1.0))[0]
    assert not verdict.conforms and verdict.error is None, report
    for text in expected:
        assert text in verdict.counterexample.message, verdict.counterexample.message


def test_selftest_covers_the_reference_and_every_cpp_mutant():
    from conformance.commands.selftest import subjects
    rows = subjects("cpp_")
    assert ("cpp:reference", "aed2", True) in rows
    assert {r[0] for r in rows if not r[2]} == {f"cpp:{m.name}" for m in mutants.MUTANTS}


def test_a_crash_on_a_rule_already_broken_ends_its_example_in_a_check_by_rules(cache):
    """Graded by rules (``grade``, ``--gradescope``), a C++ target whose
    batch call dies on a rule already known broken (a memory error the
    sanitizer catches in every example) gets its rules' outcomes, not "bad
    target: internal error" and a zero (found grading this mutant and two
    public submissions: the example ended, but the batch's answer was then
    read as a list)."""
    folder = mutants.materialize(mutants.BY_NAME["binary_search_past_end"])
    [(verdict, _)] = check_by_rules(own_spec("aed2", folder), "aed2",
                                    RunOptions(max_examples=30, seed=7))
    assert verdict.error is None, verdict.error
    broken = {o.rule for o in verdict.outcomes if o.status == "broken"}
    assert "ext.can-move" in broken and "ext.walls" in broken
    assert verdict_status(verdict) == "does not conform"


@pytest.fixture(scope="module")
def reference_target():
    """Our C++ reference, built (or found in the cache) and started once."""
    from conformance.profiles.aed2.target import Aed2Target
    target = Aed2Target(aed2_build.build(mutants.REFERENCE, sanitize=False), name="reference")
    yield target
    target.close()


_cells = st.tuples(st.integers(-3, 3), st.integers(-3, 3))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(player=_cells, walls=st.frozensets(_cells, max_size=8), boxes=st.frozensets(_cells, max_size=3),
       look=st.lists(_cells, min_size=1, max_size=6),
       moves=st.lists(st.sampled_from([Accion.NORTE, Accion.ESTE, Accion.SUR, Accion.OESTE]),
                      max_size=4))
def test_the_cpp_target_takes_and_answers_positions_in_our_convention(
        reference_target, player, walls, boxes, look, moves):
    """The target reflects y itself (no adapter stands before it): the
    driver's lines carry seed 001's convention, what it takes and answers
    is ours, so the reference agrees with the spec played in ours, moves
    included (Norte is (0, 1) to the driver, (0, -1) to us)."""
    walls, boxes = walls - {player}, boxes - walls - {player}
    level = {PERSONAJE: frozenset([player]), PAREDES: walls, CAJAS: boxes,
             DEPOSITOS: frozenset(boxes), BOMBAS: 0}
    sent = []
    exchange = reference_target._exchange

    def recorded(lines, *rest):
        sent.extend(lines)
        return exchange(lines, *rest)

    reference_target._exchange = recorded
    try:
        j, model = reference_target.call("nuevo_juego", [level]), spec_ext.nuevo_juego([level])
        assert sent[1].startswith(f"L 0 {player[0]} {-player[1]} ")
        for a in moves:
            if spec_ext.puede_mover(model, a):
                reference_target.call("mover", j, a)
                model = spec_ext.mover(model, a)
        answers = reference_target.call(BATCH, [("persona", (j,))] + [
            (op, (j, p)) for p in look for op in ("hay_pared", "hay_caja", "hay_deposito")])
        assert answers == [spec_ext.persona(model)] + [
            f(model, p) for p in look for f in (spec_ext.hay_pared, spec_ext.hay_caja,
                                                spec_ext.hay_deposito)]
        x, y = look[-1]
        assert f"D {x} {-y}" in sent           # the course's convention on the line
    finally:
        reference_target._exchange = exchange


def test_the_cpp_target_names_a_call_in_the_course_convention():
    from conformance.profiles.aed2.target import _shown
    assert _shown("hay_pared", (None, (2, 3))) == "hayPared({2, -3})"
    assert _shown("mover", (None, Accion.NORTE)) == "mover(Norte)"


_HAY_CAJA = "bool aed2_Juego::hayCaja(Coordenada c) const { return _juego.actual().hayCaja(c); }"
#: Variants whose per-cell observers fail, each in its own way.
_FAILING_OBSERVERS = {
    "throws_west": "bool aed2_Juego::hayCaja(Coordenada c) const { if (c.first < 0) "
                   'throw std::out_of_range("fuera"); return _juego.actual().hayCaja(c); }',
    "throws_then_crashes": "bool aed2_Juego::hayCaja(Coordenada c) const { if (c.first < 0) "
                           'throw std::out_of_range("fuera"); if (c.second < -1) '
                           "{ volatile int* p = nullptr; return *p; } "
                           "return _juego.actual().hayCaja(c); }",
    "throws_anything": "bool aed2_Juego::hayCaja(Coordenada c) const { if (c.second < -2) "
                       "throw 7; return _juego.actual().hayCaja(c); }",
}


@pytest.mark.parametrize("name", ["reference", "undo_forgets_walls", "bomb_only_row", "chain_push",
                                  "crash_without_walls", *_FAILING_OBSERVERS])
def test_cells_asked_at_once_are_judged_as_one_call_each(name, tmp_path, monkeypatch):
    """A C++ target answers an observation's cells in one request (CELLS):
    compared at once, and call by call only where they differ. The check
    finds what it finds asking each cell's observers one call each: the
    same verdict, counterexample and counts, also when an observer throws
    (the first one that threw is reported), throws what is not a
    std::exception, or throws on some cells and crashes on others."""
    from conformance.api import CELLS
    from conformance.profiles.aed2.target import Aed2Target
    if name in _FAILING_OBSERVERS:
        folder = _variant(tmp_path, name, _HAY_CAJA, _FAILING_OBSERVERS[name])
    elif name == "reference":
        folder = mutants.REFERENCE
    else:
        folder = mutants.materialize(mutants.BY_NAME[name])
    has = Aed2Target.has
    verdicts, asked = [], []
    for at_once in (True, False):
        def has_it(self, op, at_once=at_once):
            return has(self, op) and (at_once or op != CELLS)
        monkeypatch.setattr(Aed2Target, "has", has_it)
        many = Aed2Target._many

        def counted(self, calls, many=many):
            asked.append((at_once, sum(op == CELLS for op, _ in calls)))
            return many(self, calls)

        monkeypatch.setattr(Aed2Target, "_many", counted)
        verdicts.append(check_target(own_spec("aed2", folder), None, RunOptions(
            max_examples=25, seed=3, sanitize=False, localize=False))[0][0])
    a, b = verdicts
    assert a.conforms == b.conforms and a.stats == b.stats
    assert a.conforms == (name == "reference")
    if not a.conforms:
        ca, cb = a.counterexample, b.counterexample
        assert (ca.operation, ca.actions, ca.message, ca.rule, ca.expected, ca.actual) == \
            (cb.operation, cb.actions, cb.message, cb.rule, cb.expected, cb.actual)
    assert any(n for at_once, n in asked if at_once)          # (it was asked so)
    assert not any(n for at_once, n in asked if not at_once)
    if name.startswith("throws"):
        assert "threw" in a.counterexample.message and "hayCaja({" in a.counterexample.message


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(walls=st.frozensets(_cells, max_size=8), boxes=st.frozensets(_cells, max_size=3),
       cells=st.lists(_cells, min_size=1, max_size=12))
def test_a_cells_request_answers_what_each_call_answers(reference_target, walls, boxes, cells):
    from conformance.api import CELL_OBSERVERS, CELLS
    player = (9, 9)
    level = {PERSONAJE: frozenset([player]), PAREDES: walls, CAJAS: boxes - walls,
             DEPOSITOS: frozenset(walls), BOMBAS: 0}
    j = reference_target.call("nuevo_juego", [level])
    at_once, each = reference_target.call(BATCH, [(CELLS, (j, cells)), ("persona", (j,))]), \
        reference_target.call(BATCH, [(op, (j, p)) for p in cells for op in CELL_OBSERVERS])
    assert at_once[0] == "".join("1" if v else "0" for v in each) and at_once[1] == player
