"""Target resolution (every kind), loading, profile detection, the direction adapter."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.machines.directions import flip
from conformance import profiles
from conformance.api import BATCH, Handle
from conformance.sandbox.box import InProcessTarget
from conformance.checking.targets import (
    BadTarget, DirectionAdapter, bundled_specs, seen_in_ours, detect_profiles, explain_missing,
    load, missing_operations, private_module_name, resolve,
)
from spec import juego as spec_tad
from spec.tipos import ACCIONES, Accion

FIXTURES = Path(__file__).parent / "fixtures"


# ------------------------------------------------------------- resolution

def test_file_target_loads_under_a_private_name():
    spec = resolve(str(FIXTURES / "soko_base.py"))
    assert spec.kind == "file" and spec.path == str((FIXTURES / "soko_base.py").resolve())
    module = load(spec)
    assert module.__name__ == private_module_name(spec.path)
    assert module.__name__.startswith("_sokoban_target_")
    assert set(profiles.get("soko").operations) <= set(dir(module))


def test_folder_with_soko_py_does_not_clash_with_our_soko():
    import soko as ours
    before = list(sys.path)
    spec = resolve(str(FIXTURES / "soko_folder"))
    assert spec.kind == "file" and spec.path.endswith("soko_folder/soko.py")
    student = load(spec)
    assert student.STUDENT is True                 # the student's file, not ours
    assert student.hay_pared([["#"]], 0, 0) is True   # its sibling helper imported
    assert sys.modules["soko"] is ours and not hasattr(ours, "STUDENT")
    assert sys.path == before                      # the folder does not linger on the path


def test_folder_that_is_a_package():
    spec = resolve(str(FIXTURES / "tad_package"))
    assert spec.kind == "package"
    assert load(spec).iniciar is spec_tad.iniciar


def test_module_object_target(monkeypatch):
    monkeypatch.syspath_prepend(str(FIXTURES))
    spec = resolve("soko_base:namespace")
    assert (spec.kind, spec.module, spec.attr) == ("object", "soko_base", "namespace")
    target = InProcessTarget(spec)
    assert detect_profiles(target.has) == ["soko"]
    grid = target.call("crear_grilla", ["#@."])
    assert target.call("hay_jugador", grid, 1, 0) is True


def test_module_target():
    spec = resolve("spec.juego")
    assert (spec.kind, spec.module, spec.attr) == ("module", "spec.juego", None)
    assert detect_profiles(InProcessTarget(spec).has) == ["tad"]


@pytest.mark.parametrize("name, module", [
    ("impl", "impl.extendido"), ("impl-tad", "impl.tad"), ("impl-soko", "soko")])
def test_entry_point_targets(name, module):
    spec = resolve(name)
    assert spec.module == module and spec.via == f"entry point {name}"
    assert spec.trusted


def test_environment_variable():
    path = str(FIXTURES / "soko_base.py")
    spec = resolve(None, environ={"SOKOBAN_IMPL": path})
    assert spec.kind == "file" and spec.via.startswith("SOKOBAN_IMPL")
    assert resolve(None, environ={}) is None
    assert resolve(None, environ={"SOKOBAN_IMPL": "  "}) is None
    # The command line wins over the variable.
    assert resolve("spec.juego", environ={"SOKOBAN_IMPL": path}).module == "spec.juego"
    with pytest.raises(BadTarget, match="SOKOBAN_IMPL=nowhere/x.py: .*no such file"):
        resolve(None, environ={"SOKOBAN_IMPL": "nowhere/x.py"})


def test_untrusted_targets_are_not_trusted():
    assert not resolve(str(FIXTURES / "soko_base.py")).trusted
    assert not resolve("spec.juego").trusted
    assert [(s.module, p) for s, p in bundled_specs()] == [
        ("impl.extendido", "extendido"), ("impl.tad", "tad"), ("soko", "soko")]


@pytest.mark.parametrize("text, message", [
    ("no/such/file.py", "no such file or folder"),
    ("no_such_module_xyz", "no module named 'no_such_module_xyz'"),
    ("no_such_module_xyz:thing", "no module named"),
    ("not a name", "not a module name"),
    ("", "empty target"),
])
def test_bad_targets_say_what(text, message):
    with pytest.raises(BadTarget, match=message):
        resolve(text)


def test_bad_folder_and_bad_file(tmp_path):
    (tmp_path / "a.py").write_text("")
    (tmp_path / "b.py").write_text("")
    with pytest.raises(BadTarget, match="found a.py, b.py"):
        resolve(str(tmp_path))
    (tmp_path / "notes.txt").write_text("")
    with pytest.raises(BadTarget, match="not a Python file"):
        resolve(str(tmp_path / "notes.txt"))
    single = tmp_path / "single"
    single.mkdir()
    (single / "tp1.py").write_text("def crear_grilla(d): return d\n")
    assert resolve(str(single)).path.endswith("tp1.py")


def test_missing_attribute_of_module_object(monkeypatch):
    monkeypatch.syspath_prepend(str(FIXTURES))
    with pytest.raises(BadTarget, match="has no attribute 'nothing'"):
        load(resolve("soko_base:nothing"))


def test_import_errors_become_bad_target_in_process():
    with pytest.raises(BadTarget, match=r"RuntimeError: configuration file not found \(.*line 4\)"):
        InProcessTarget(resolve(str(FIXTURES / "soko_import_fails.py")))
    with pytest.raises(BadTarget, match="syntax error at .*soko_syntax_error.py, line 1"):
        InProcessTarget(resolve(str(FIXTURES / "soko_syntax_error.py")))


# --------------------------------------------------------------- profiles

def test_missing_operations_are_listed():
    target = InProcessTarget(resolve(str(FIXTURES / "soko_incomplete.py")))
    assert detect_profiles(target.has) == []
    assert missing_operations(target.has, "soko") == [
        "hay_objetivo", "hay_caja", "hay_jugador", "juego_ganado"]
    text = explain_missing(target.name, target.has)
    lines = text.splitlines()
    assert "does not provide the operations of any profile" in lines[0]
    # The closest profile comes first, with exactly what it lacks.
    assert lines[1] == "  soko: has 4 of 8; missing hay_objetivo, hay_caja, hay_jugador, juego_ganado"
    assert len(lines) == 4
    one = explain_missing(target.name, target.has, ["tad"])
    assert "profile tad" in one and "missing iniciar, step, estado, completado" in one


def test_detect_profiles_of_each_kind():
    assert detect_profiles(InProcessTarget(resolve(str(FIXTURES / "soko_base.py"))).has) == ["soko"]
    assert detect_profiles(InProcessTarget(resolve(str(FIXTURES / "tad_package"))).has) == ["tad"]


# ------------------------------------------------------------- directions

positions = st.tuples(st.integers(-50, 50), st.integers(-50, 50))
nested = st.recursive(
    positions | st.booleans() | st.integers() | st.sampled_from(ACCIONES),
    lambda inner: st.lists(inner, max_size=3) | st.frozensets(positions, max_size=3)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3) | st.tuples(inner, inner, inner),
    max_leaves=12)


@given(nested)
def test_flip_is_an_involution(value):
    assert flip(flip(value)) == value


@given(positions)
def test_flip_reflects_positions(p):
    assert flip(p) == (p[0], -p[1])
    assert flip(Accion.NORTE) is Accion.NORTE


def _open_level(player, boxes, goals):
    return {"personaje": frozenset([player]), "cajas": frozenset(boxes),
            "paredes": frozenset([(3, 0), (0, 3)]), "depósitos": frozenset(goals)}


@given(st.lists(st.sampled_from(ACCIONES), max_size=8))
def test_seed001_target_conforms_only_through_the_adapter(actions):
    level = _open_level((0, 0), [(1, 0), (0, 1)], [(2, 0), (0, 2)])
    raw = InProcessTarget(resolve(str(FIXTURES / "seed001_tad")))
    adapted = DirectionAdapter(raw, profiles.get("tad"), "seed001")
    j, expected = adapted.call("iniciar", level), spec_tad.iniciar(level)
    for a in actions:
        j, expected = adapted.call("step", j, a), spec_tad.step(expected, a)
        assert adapted.call("estado", j) == spec_tad.estado(expected)
        assert adapted.call("completado", j) == spec_tad.completado(expected)
    # Without the adapter, moving north goes the wrong way.
    j = raw.call("step", raw.call("iniciar", level), Accion.ARRIBA)
    assert raw.call("estado", j)["personaje"] == frozenset([(0, 1)])


class _Recorder:
    name = "recorder"

    def __init__(self):
        self.calls = []

    def has(self, op):
        return True

    def call(self, op, *args):
        self.calls.append((op, args))
        if op == BATCH:
            return [(1, 2) for _ in args[0]]
        return (4, 5)

    def close(self):
        pass


def test_soko_adapter_flips_only_the_direction_of_mover():
    inner = _Recorder()
    adapter = DirectionAdapter(inner, profiles.get("soko"), "seed001")
    grid = Handle(1)
    assert adapter.call("mover", grid, (0, -1)) == (4, 5)
    assert adapter.call("hay_pared", grid, 2, 3) == (4, 5)
    assert adapter.call("dimensiones", grid) == (4, 5)
    assert inner.calls == [("mover", (grid, (0, 1))), ("hay_pared", (grid, 2, 3)),
                           ("dimensiones", (grid,))]


def test_tad_adapter_flips_arguments_results_and_batches():
    inner = _Recorder()
    adapter = DirectionAdapter(inner, profiles.get("extendido"), "seed001")
    assert adapter.call("hay_caja", Handle(1), (2, 3)) == (4, -5)
    assert adapter.call(BATCH, [("persona", (Handle(1),))]) == [(1, -2)]
    assert inner.calls[0] == ("hay_caja", (Handle(1), (2, -3)))
    assert inner.calls[1] == (BATCH, ([("persona", (Handle(1),))],))
    ours = DirectionAdapter(inner, profiles.get("tad"), "ours")
    assert ours.call("persona", (2, 3)) == (4, 5)
    with pytest.raises(ValueError):
        DirectionAdapter(inner, profiles.get("tad"), "sideways")


class _Reflecting(_Recorder):
    """A target that takes and answers positions in our convention, its
    program using seed 001's (as the C++ target does)."""
    reflects = "seed001"


@pytest.mark.parametrize("profile", ["tad", "extendido", "aed2"])
def test_a_target_that_reflects_itself_is_never_reflected_again(profile):
    own = _Reflecting()
    assert seen_in_ours(own, profiles.get(profile), "seed001") is own
    # Wrapped by hand all the same, the adapter passes everything through.
    adapter = DirectionAdapter(own, profiles.get(profile), "seed001")
    assert adapter.call("hay_caja", Handle(1), (2, 3)) == (4, 5)
    assert adapter.call(BATCH, [("persona", (Handle(1),))]) == [(1, 2)]
    assert own.calls == [("hay_caja", (Handle(1), (2, 3))),
                         (BATCH, ([("persona", (Handle(1),))],))]
    # One that does not is reflected, and one in our convention is itself.
    plain = _Recorder()
    assert isinstance(seen_in_ours(plain, profiles.get(profile), "seed001"), DirectionAdapter)
    assert seen_in_ours(plain, profiles.get(profile), "ours") is plain


class _Echo(_Recorder):
    """Answers each call with its last argument (a batch: each call's)."""

    def call(self, op, *args):
        self.calls.append((op, args))
        if op == BATCH:
            return [a[-1] if a else None for _, a in args[0]]
        return args[-1] if args else None


arguments = st.one_of(nested, st.builds(Handle, st.integers(1, 9)), st.none(), st.text(max_size=3))


@given(st.lists(st.tuples(st.sampled_from(["hay_caja", "persona", "mover", "estado"]),
                          st.lists(arguments, max_size=3).map(tuple)
                          | st.tuples(st.builds(Handle, st.integers(1, 9)), positions)),
                min_size=1, max_size=6))
def test_the_adapter_reflects_every_argument_and_result_of_a_batch_as_flip_does(calls):
    # Its fast paths (a handle and a position, a bool...) must agree with
    # the plain reflection of each value, all the way down.
    inner = _Echo()
    adapter = DirectionAdapter(inner, profiles.get("extendido"), "seed001")
    answers = adapter.call(BATCH, calls)
    assert inner.calls == [(BATCH, ([(op, tuple(flip(a) for a in args)) for op, args in calls],))]
    assert answers == [args[-1] if args else None for _, args in calls]     # flipped twice
    assert all(type(x) is type(y) for x, y in zip(answers, (a[-1] if a else None for _, a in calls)))


def test_a_folder_with_soko_py_and_init_means_its_soko_py(tmp_path):
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "soko.py").write_text("def crear_grilla(desc):\n    return desc\n")
    spec = resolve(str(tmp_path))
    assert spec.kind == "file" and spec.path.endswith("soko.py")
