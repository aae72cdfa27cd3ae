"""Each profile's ``emit``: a counterexample as a test in the student's format;
each emitted test fails on the implementation that produced it and passes
on a correct one. (The Google Test cases of profile aed2: test_aed2_cases.py,
with the real library.)"""

from __future__ import annotations

import sys

import pytest

from conformance.checking import engine
from conformance import mutants as py_mutants
from conformance import profiles
from conformance.sandbox.box import open_target
from conformance.checking.targets import resolve


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
    code = profiles.get("soko").emit(c)
    assert code.startswith("import soko") and "desc = [" in code
    from conformance.checking.targets import load
    bad = load(resolve(str(py_mutants.path(mutant))))
    with pytest.raises(AssertionError):
        _exec(code, {"soko": bad})
    import soko as ours
    _exec(code, {"soko": ours})


@pytest.mark.parametrize("mutant,profile", [("ext_bomb_misses_column", "extendido"),
                                            ("tad_pushes_two_boxes", "tad")])
def test_python_case_fails_on_its_mutant(mutant, profile):
    c = _counterexample(mutant, profile)
    code = profiles.get(profile).emit(c)
    assert "def test_" in code
    with pytest.raises(AssertionError):
        _exec(code, {})
    ours = "impl.extendido" if profile == "extendido" else "impl.tad"
    _exec(code.replace(repr(c.replay.split()[3]), repr(ours), 1), {})
