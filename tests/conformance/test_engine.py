"""The engine: correct implementations conform, departures are reported
with a replayable counterexample, target errors are verdicts, not crashes."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.reports.report import write_reports
from conformance import profiles
from conformance.checking import engine

from conformance import mutants

from conformance.machines import replays
from conformance.machines import levels as lv
from conformance.api import BATCH, Earlier, TargetError
from conformance.sandbox.box import open_target
from conformance.checking.targets import resolve
from spec import fisica, grilla, juego


def target(name: str):
    return open_target(resolve(name), in_process=True)


def student(profile: str):
    return target(str(mutants.path(f"student_{profile}")))


def replay_json(command: str) -> str:
    words = shlex.split(command)
    return words[words.index("--replay") + 1]


@pytest.mark.parametrize("profile", ["tad", "extendido", "soko"])
def test_correct_student_implementations_conform(profile):
    v = engine.check(student(profile), profile, max_examples=12, seed=1)
    assert v.error is None and v.conforms, v.counterexample and v.counterexample.report
    assert v.stats["examples"] >= 12 and v.stats["steps"] > 100
    assert v.stats["pushes"] > 0 and v.stats["blocked"] > 0 and v.stats["wins"] > 0
    if profile == "extendido":
        for key in ("bombs", "undos", "advances"):
            assert v.stats[key] > 0, key


@pytest.mark.parametrize("name, profile", [("impl.tad", "tad"), ("impl.extendido", "extendido"),
                                           ("soko", "soko")])
def test_our_implementation_conforms(name, profile):
    v = engine.check(target(name), profile, max_examples=2, seed=5)
    assert v.error is None and v.conforms, v.counterexample and v.counterexample.report


def test_a_departure_is_shrunk_and_replays_exactly():
    t = target(str(mutants.path("ext_bomb_not_counted")))
    v = engine.check(t, "extendido", max_examples=100, seed=0)
    c = v.counterexample
    assert not v.conforms and c is not None
    assert c.operation == "bombas(j)"
    assert c.actions[-1] == "tirar_bomba" and c.step == len(c.actions) - 1
    assert len(c.actions) == 1            # shrunk: the first bomb shows it
    again = engine.replay(t, "extendido", replay_json(c.replay))
    assert not again.conforms
    assert (again.counterexample.operation, again.counterexample.actions) == (c.operation, c.actions)
    # The same recorded failure passes on a correct implementation.
    assert engine.replay(student("extendido"), "extendido", replay_json(c.replay)).conforms


def test_the_same_seed_gives_the_same_counterexample():
    name = str(mutants.path("soko_pushes_two_boxes"))
    a = engine.check(target(name), "soko", max_examples=100, seed=7, shrink=False)
    b = engine.check(target(name), "soko", max_examples=100, seed=7, shrink=False)
    assert not a.conforms and a.counterexample.replay == b.counterexample.replay


def test_replay_rejects_bad_input_with_a_message():
    t = student("tad")
    assert "not valid JSON" in engine.replay(t, "tad", "{nope").error
    assert "profile soko" in engine.replay(
        t, "tad", '{"profile":"soko","levels":[{"rows":["#@#"]}],"actions":""}').error
    assert "letters" in engine.replay(t, "tad", '{"levels":[{"rows":["#@#"]}],"actions":"x"}').error


class _Broken:
    """A target whose chosen operation fails with a TargetError of ``kind``."""

    def __init__(self, inner, op, kind):
        self.inner, self.op, self.kind, self.name = inner, op, kind, f"broken-{kind}"

    def has(self, op):
        return self.inner.has(op)

    def call(self, op, *args):
        if op == self.op:
            raise TargetError(self.kind, f"simulated {self.kind}", "Traceback: here", op=op)
        if op == BATCH and any(o == self.op for o, _ in args[0]):
            # As the sandbox answers: an error that ends the process ends the
            # batch; one raised is that call's answer, and a later call that
            # takes its result is skipped.
            if self.kind != "raised":
                raise TargetError(self.kind, f"simulated {self.kind}", "Traceback: here",
                                  op=self.op)
            return [TargetError(self.kind, f"simulated {self.kind}", "Traceback: here", op=o)
                    if o == self.op else
                    TargetError("skipped", "skipped", op=o) if any(type(a) is Earlier for a in a_)
                    else self.inner.call(o, *a_) for o, a_ in args[0]]
        return self.inner.call(op, *args)

    def close(self):
        self.inner.close()


@pytest.mark.parametrize("kind", ["timeout", "crashed", "exited", "raised", "output"])
def test_a_target_error_is_a_clear_non_conformance(kind):
    v = engine.check(_Broken(student("tad"), "step", kind), "tad", max_examples=20, seed=0)
    assert not v.conforms and v.error is None
    c = v.counterexample
    assert c.operation == "step" and f"simulated {kind}" in c.message
    assert kind in c.actual and "--replay" in c.replay


def test_missing_operations_are_listed():
    class Partial(_Broken):
        def has(self, op):
            return op not in ("completado", "estado")

    v = engine.check(Partial(student("tad"), "", "raised"), "tad")
    assert not v.conforms and v.missing == ["estado", "completado"]
    assert "estado" in v.error


def test_groups_restrict_the_actions():
    v = engine.check(student("extendido"), "extendido", max_examples=5, seed=2,
                     groups=["movement"])
    assert v.conforms and v.stats["pushes"] == 0 and v.stats["bombs"] == 0
    assert v.stats["undos"] == 0 and v.stats["advances"] == 0
    v = engine.check(student("extendido"), "extendido", max_examples=4, seed=2, groups=["bombs"])
    assert v.conforms and v.stats["bombs"] > 0 and v.stats["undos"] == 0
    with pytest.raises(ValueError, match="unknown operation group"):
        engine.check(student("tad"), "tad", groups=["bombs"])


@pytest.mark.parametrize("profile", ["tad", "soko"])
def test_every_group_runs(profile):
    for group in profiles.get(profile).groups:
        v = engine.check(student(profile), profile, max_examples=3, seed=1, groups=[group])
        assert v.conforms, (group, v.counterexample and v.counterexample.report)


# ----------------------------------------------------------------- levels

def _play(scene, codes):
    j = juego.iniciar(scene.nivel())
    for code in codes:
        j = juego.step(j, replays.ACTION_CODES[code.lower()])
    return j


@settings(max_examples=60)
@given(lv.scenes(profiles.get("tad").domain))
def test_tad_scenes_are_valid_and_their_solutions_solve_them(scene):
    assert fisica.nivel_valido(scene.nivel())
    if scene.solution:
        assert juego.completado(_play(scene, scene.solution))


@settings(max_examples=60)
@given(lv.scenes(profiles.get("soko").domain))
def test_soko_scenes_are_valid_grids_and_their_solutions_win(scene):
    g = grilla.crear_grilla(list(scene.desc))      # enclosed, boxes >= goals
    for code in scene.solution:
        g = grilla.mover(g, lv.STEP[code.lower()])
    assert not scene.solution or grilla.juego_ganado(g)


def _scenes_drawn(profile: str, fresh: bool, monkeypatch) -> list:
    """The scenes a derandomized search draws for ``profile``, in order; with
    ``fresh``, every strategy a draw builds is built anew (none kept)."""
    if fresh:
        monkeypatch.setattr(lv, "_kept", lambda key, make: make())
    lv._KEPT.clear()
    drawn = []

    @settings(max_examples=120, derandomize=True, database=None)
    @given(st.lists(lv.scenes(profiles.get(profile).domain), min_size=1, max_size=3))
    def search(scenes):
        drawn.append(scenes)

    search()
    monkeypatch.undo()
    return drawn


@pytest.mark.parametrize("profile", ["tad", "soko"])
def test_kept_scene_strategies_draw_what_new_ones_draw(profile, monkeypatch):
    # A kept strategy is one Hypothesis validated already; it must draw
    # exactly as a new one (the same values, and the same labels: the
    # search's mutations go by labels, so a different label would soon
    # change what is drawn).
    kept = _scenes_drawn(profile, False, monkeypatch)
    assert len(lv._KEPT) > 0
    assert kept == _scenes_drawn(profile, True, monkeypatch)
    assert len({repr(s) for s in kept}) > 60       # (a search, not one scene again)


@settings(max_examples=40)
@given(lv.scenes(profiles.get("extendido").domain, bombs=(0, 3)), st.text("udlrbz", max_size=8))
def test_a_scene_survives_the_replay_format(scene, codes):
    text = replays.replay_string("extendido", [scene], codes)
    profile, scenes, again = replays.parse_replay(text)
    assert (profile, again) == ("extendido", codes)
    assert scenes[0].nivel_extendido() == scene.nivel_extendido()


def test_an_invalid_replayed_level_is_an_error_not_a_crash():
    v = engine.replay(student("tad"), "tad", '{"levels":[{"rows":["#@$#"]}],"actions":"r"}')
    assert v.error and "replay failed" in v.error


def test_a_capped_shrink_still_reports_every_observer(monkeypatch):
    # Shrinking compares only the first failing observer; when the time cap
    # stops it, the trace is played again with everything compared.
    monkeypatch.setattr(engine, "SHRINK_SECONDS", 0.0)
    t = target(str(mutants.path("ext_undo_forgets_box")))
    v = written(engine.check(t, "extendido", max_examples=100, seed=0))
    c = v.counterexample
    assert not v.conforms and "|" in c.expected and "|" in c.actual
    again = engine.replay(t, "extendido", replay_json(c.replay))
    assert again.counterexample.message == c.message


def test_the_replay_command_names_the_direction_convention():
    scene = lv.from_rows(["#@$.#"])
    command = replays.replay_command("student.py", "tad", [scene], "r", "seed001")
    words = shlex.split(command)
    assert words[:6] == ["python", "-m", "conformance", "student.py", "--profile", "tad"]
    assert words[words.index("--directions") + 1] == "seed001"
    assert replays.parse_replay(replay_json(command))[2] == "r"
    assert "--directions" not in replays.replay_command("s.py", "tad", [scene], "r")


# ------------------------------------------- domain, equality, warnings (issue 10)

def _soko_target(**overrides):
    import types
    from conformance.sandbox.box import InProcessTarget
    from conformance.checking.targets import ResolvedTarget
    ops = {name: getattr(grilla, name) for name in (
        "crear_grilla", "dimensiones", "hay_pared", "hay_objetivo", "hay_caja",
        "hay_jugador", "juego_ganado", "mover")}
    ops.update(overrides)
    return InProcessTarget(ResolvedTarget(name="t", kind="module", module="t"),
                           namespace=types.SimpleNamespace(**ops))


def test_mover_returning_none_is_blamed_on_mover():
    v = written(engine.check(_soko_target(mover=lambda g, d: None), "soko", max_examples=5, seed=0))
    assert not v.conforms
    assert v.counterexample.operation == "mover"
    assert "returned None, expected a grid" in v.counterexample.message


def test_search_goes_on_past_a_warning_to_the_real_departure():
    def dimensiones(g):
        return list(grilla.dimensiones(g))
    def hay_caja(g, c, f):
        return grilla.hay_caja(g, c, f) or None                # None for False: a warning
    def juego_ganado(g):
        return len(g.cajas) >= 1                               # wrong: a departure
    v = written(engine.check(_soko_target(dimensiones=dimensiones, hay_caja=hay_caja,
                                          juego_ganado=juego_ganado), "soko",
                             max_examples=50, seed=0))
    assert not v.conforms and v.counterexample.operation.startswith("juego_ganado")
    assert any(w.startswith("dimensiones returned a list") for w in v.warnings)
    assert any(w.startswith("hay_caja returned None") for w in v.warnings)
    report = v.counterexample.report
    assert "Warnings (" in report and "course test accepts it" in report


def written(verdict):
    """``verdict`` with its reports written, as a check does at its end (the
    engine records what it found; text is made once, at the end)."""
    write_reports(verdict)
    return verdict


def test_robustness_findings_never_change_the_verdict():
    def crear_grilla(desc):
        if any(len(r) != len(desc[0]) for r in desc):
            raise IndexError("string index out of range")
        return grilla.crear_grilla(desc)
    t = _soko_target(crear_grilla=crear_grilla)
    plain = written(engine.check(t, "soko", max_examples=10, seed=4))
    assert plain.conforms and plain.robustness == []
    robust = written(engine.check(t, "soko", max_examples=10, seed=4, robustness=True))
    assert robust.conforms and robust.robustness
    from conformance.reports.report import format_verdict
    assert "Robustness (--robustness" in format_verdict(robust)


def _won_needs_a_goal(g):
    """juego_ganado written as "some goal, and every goal covered": differs
    from seed 002's letter only on a grid without a goal (E27)."""
    return bool(g.objetivos) and grilla.juego_ganado(g)


def test_e27_robustness_warns_where_the_verdict_does_not_judge():
    t = _soko_target(juego_ganado=_won_needs_a_goal)
    assert engine.check(t, "soko", max_examples=20, seed=1).conforms
    robust = written(engine.check(t, "soko", max_examples=20, seed=1, robustness=True))
    assert robust.conforms and len(robust.robustness) == 1
    finding = robust.robustness[0]
    assert "juego_ganado(grilla) is False, expected True (a grid without a goal" in finding
    assert "erratum E27" in finding and "Rule broken: soko.won" in finding


def test_a_robustness_finding_replays_as_a_warning():
    t = _soko_target(juego_ganado=_won_needs_a_goal)
    finding = written(engine.check(t, "soko", max_examples=20, seed=1,
                                   robustness=True)).robustness[0]
    text = replay_json(finding[finding.index("python -m conformance"):].splitlines()[0])
    assert '"robustness":true' in text
    again = written(engine.replay(t, "soko", text))
    assert again.conforms and again.counterexample is None and len(again.robustness) == 1
    # One recorded before replays said so: a ragged grid lies beyond the domain.
    ragged = _soko_target(crear_grilla=lambda desc: 1 / (len({len(r) for r in desc}) == 1))
    old = '{"profile":"soko","levels":[{"rows":["####","#@.#","#$#","####"],"soko":true}]}'
    again = written(engine.replay(ragged, "soko", old))
    assert again.conforms and "ZeroDivisionError" in again.robustness[0]
    # A replay inside the domain is judged as before: a departure is one.
    inside = written(engine.replay(ragged, "soko", old.replace('"#$#"', '"#$-#"')))
    assert not inside.conforms and inside.robustness == []


@settings(max_examples=40, deadline=None)
@given(lv.scenes(profiles.get("soko").domain))
def test_soko_levels_lie_in_the_domain(scene):
    assert lv.in_domain(profiles.get("soko").domain, scene)
    assert len({len(r) for r in scene.desc}) == 1
    assert len(scene.boxes) >= len(scene.goals)


@settings(max_examples=40, deadline=None)
@given(lv.scenes(profiles.get("extendido").domain, bombs=(1, 3)))
def test_extendido_levels_lie_in_the_domain(scene):
    assert fisica.nivel_valido(scene.nivel()) and scene.bombs >= 1


def test_the_failure_reported_departs_again_with_every_observer_compared():
    """A shrinking run compares one observer only, so its smallest failure
    may, played with every observer compared, first leave a rule already
    known broken (which ends the example unreported): the first failure the
    search found, compared in full, is reported instead, and it is not
    called irreproducible. (A public student file lost soko.wall-stops, a
    rule it keeps, this way, labelled "not reproducible: FlakyFailure".)"""
    from conformance.machines.base import CheckSettings
    path = "tests/conformance/fixtures/soko_vertical_same_row.py"
    t = open_target(resolve(path), in_process=True)
    try:
        scenes = [lv.from_rows(["######", "#-@--#", "#----#", "#$.--#", "######"], soko=True)]
        soko = profiles.get("soko")
        run = engine._run(t, soko, CheckSettings.for_groups(soko))
        run.masked = frozenset({"soko.step"})
        run.last_trace = (scenes, list("d"))        # departs from soko.step: masked
        run.first_trace = (scenes, list("rd"))      # ... so does this one
        run.last = "recorded"
        assert engine._replayed(run) == ("recorded", False)
        run.first_trace = (scenes, list("ld"))
        run.masked = frozenset()
        c, again = engine._replayed(run)
        assert again and c.rule == "soko.step" and c.operation.startswith("hay_jugador")
    finally:
        t.close()


def test_the_same_seed_draws_the_same_examples_whatever_modules_are_loaded(tmp_path,
                                                                          monkeypatch):
    """Hypothesis mixes the literals of the local modules loaded into its
    draws; a check must not: a class graded with one seed gets the same
    examples for every student, whatever was imported before (a student's
    module in this process, the students checked earlier)."""
    def drawn():
        v = engine.check(student("soko"), "soko", max_examples=15, seed=7)
        assert v.conforms
        return {k: v.stats[k] for k in ("examples", "steps", "pushes", "blocked", "wins")}

    before = drawn()
    (tmp_path / "literals_galore.py").write_text(
        "NUMBERS = [" + ", ".join(str(n) for n in range(101, 10_001, 37)) + "]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib
    importlib.import_module("literals_galore")
    assert drawn() == before
