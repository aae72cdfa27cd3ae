"""conformance.emit: a counterexample as a test in the student's format;
each emitted test fails on the implementation that produced it and passes
on a correct one."""

from __future__ import annotations

import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from conformance import engine
from conformance import mutants as py_mutants
from conformance.aed2 import mutants
from conformance.checks import RunOptions, check_target
from conformance.emit import gtest, pytest_python, pytest_soko
from conformance.sandbox import open_target
from conformance.targets import cpp_spec, resolve

SHIM = Path(__file__).parent / "fixtures" / "gtest_shim"


def _run_gtest(case: str, folder: Path, tmp_path: Path) -> int:
    """Compile the emitted case with the gtest shim and ``folder``'s sources; run it."""
    work = tmp_path / f"run_{folder.name}"
    work.mkdir()
    (work / "case.inc").write_text(case)
    sources = [str(p) for p in folder.glob("*.cpp")]
    subprocess.run(["g++", "-std=c++17", "-I", str(SHIM), "-I", str(folder), "-I", str(work),
                    str(SHIM / "main.cpp"), *sources, "-o", str(work / "t")],
                   check=True, capture_output=True)
    return subprocess.run([str(work / "t")], capture_output=True, timeout=60).returncode


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
@pytest.mark.parametrize("name", ["bomb_only_row", "wrong_mover_result", "push_into_wall",
                                  "crash_without_walls"])
def test_gtest_case_fails_on_its_mutant_and_passes_on_the_reference(name, tmp_path):
    folder = mutants.materialize(mutants.BY_NAME[name])
    verdict, _ = check_target(cpp_spec(folder), "aed2", RunOptions(max_examples=100, seed=0))[0]
    case = gtest(verdict.counterexample)
    assert case.startswith("TEST_F(JuegoTest, ") and "aed2_Juego j(" in case
    assert _run_gtest(case, folder, tmp_path) != 0
    assert _run_gtest(case, mutants.REFERENCE, tmp_path) == 0


def _exec(code: str, modules: dict) -> None:
    saved = {k: sys.modules.get(k) for k in modules}
    sys.modules.update(modules)
    try:
        namespace: dict = {}
        exec(compile(code, "<emitted>", "exec"), namespace)
        for name, f in namespace.items():
            if name.startswith("test_"):
                f()
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def _counterexample(mutant: str, profile: str):
    target = open_target(resolve(str(py_mutants.path(mutant))), in_process=True)
    try:
        verdict = engine.check(target, profile, max_examples=100, seed=0)
    finally:
        target.close()
    assert not verdict.conforms
    return verdict.counterexample


@pytest.mark.parametrize("mutant", ["soko_pushes_two_boxes", "soko_wrong_axes"])
def test_soko_case_fails_on_its_mutant_and_passes_on_ours(mutant):
    c = _counterexample(mutant, "soko")
    code = pytest_soko(c)
    assert code.startswith("import soko") and "desc = [" in code
    from conformance.targets import load
    bad = load(resolve(str(py_mutants.path(mutant))))
    with pytest.raises(AssertionError):
        _exec(code, {"soko": bad})
    import soko as ours
    _exec(code, {"soko": ours})


@pytest.mark.parametrize("mutant,profile", [("ext_bomb_misses_column", "extendido"),
                                            ("tad_pushes_two_boxes", "tad")])
def test_python_case_fails_on_its_mutant(mutant, profile):
    c = _counterexample(mutant, profile)
    code = pytest_python(c)
    assert "def test_" in code
    with pytest.raises(AssertionError):
        _exec(code, {})
    ours = "impl.extendido" if profile == "extendido" else "impl.tad"
    _exec(code.replace(repr(c.replay.split()[3]), repr(ours), 1), {})
