"""A profile is one object, declared in one module: this file declares a
made-up one, ``mini`` (a four-function game over seed 000: ``empezar``,
``jugar``, ``donde``, ``cajas``), registers it, and checks, replays, emits a
test and writes Gradescope's results for it through the toolkit's own
commands, with no other file of the project changed. And the registry
holds every profile the toolkit ships, each answering what a check asks."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from conformance import profiles
from conformance.checking import engine
from conformance.checking.checks import RunOptions, check_target
from conformance.checking.targets import resolve
from conformance.commands import cli
from conformance.machines.base import Machine
from conformance.machines.emitting import nivel_literal, python_head, replay_of
from conformance.machines.profile import Profile, scenario
from conformance.machines.replays import ACTION_CODES
from conformance.profiles.tad import DOMAIN
from conformance.profiles.tad.stepper import STEPPER
from spec import juego as spec_juego
from spec import rules
from spec.tipos import CAJAS, PERSONAJE

# -- the made-up profile, declared here and nowhere else -------------------------

TABLE = rules.Table(
    name="mini", seed="seed 000", profiles=("mini",),
    rules=tuple(dataclasses.replace(r, id=r.id.replace("tad.", "mini."), needs=())
                for r in rules.TAD.rules
                if r.id in ("tad.start", "tad.step", "tad.wall-stops", "tad.push",
                            "tad.push-blocked")),
    reads={"donde": PERSONAJE, "cajas": CAJAS},
    acts={"empezar": PERSONAJE, "jugar": PERSONAJE})


class MiniMachine(Machine):
    PROFILE = "mini"
    SEED = "seed 000"

    def begin(self, scenes):
        self.begin_level(scenes[0], STEPPER.start(scenes), "empezar", scenes[0].nivel(),
                         "a juego")

    def describe(self, code):
        return f"jugar {ACTION_CODES[code].name}"

    def act(self, code, following=False):
        if not following:
            self.path = None
        self.model = STEPPER.step(self.model, code)
        self.codes.append(code)
        self.run.count("steps")
        self.handle = self._call("jugar", self.handle, ACTION_CODES[code])
        self.compare()

    def compare(self):
        e = spec_juego.estado(self.model)
        player, boxes = next(iter(e[PERSONAJE])), set(e[CAJAS])
        donde, cajas = self._batch([("donde", (self.handle,)), ("cajas", (self.handle,))])
        if self.ended:          # (a departure from a rule already known broken)
            return
        if donde != player:
            self._fail("donde", f"donde(j) is {donde!r}, expected {player!r} {self.where()}",
                       repr(player), repr(donde))
        if not self.ended and set(cajas) != boxes:
            self._fail("cajas", f"cajas(j) is {sorted(cajas)}, expected {sorted(boxes)} "
                       f"{self.where()}", repr(sorted(boxes)), repr(sorted(cajas)))


def emit(c) -> str:
    """The counterexample as a pytest function calling the target's own
    operations."""
    scenes, codes = replay_of(c)
    lines, reflect = python_head(c)
    lines.append(f"    j = target.empezar({nivel_literal(reflect(scenes[0].nivel()))})")
    j = STEPPER.start(scenes)
    for code, _, j in STEPPER.play(scenes, codes):
        lines.append(f"    j = target.jugar(j, Accion.{ACTION_CODES[code].name})")
    e = spec_juego.estado(j)
    lines.append(f"    assert target.donde(j) == {next(iter(e[PERSONAJE]))!r}")
    lines.append(f"    assert set(target.cajas(j)) == {set(e[CAJAS])!r}")
    return "\n".join(lines) + "\n"


MINI = Profile(
    name="mini", seed="seed 000", operations=("empezar", "jugar", "donde", "cajas"),
    groups=("movement", "pushes"), rules=TABLE, machine=MiniMachine,
    essential=("empezar", "jugar"), opaque=("empezar", "jugar"), domain=DOMAIN,
    scenarios=(scenario("mini.push-blocked", "a box pushed into another", ["@$$.."], "r"),
               scenario("mini.push", "a box pushed onto a depot", ["#@$.#"], "r"),
               scenario("mini.wall-stops", "a wall", ["@#"], "r")),
    stepper=STEPPER, emit=emit)

# -- two implementations of it, as a student writes them -------------------------

CORRECT = '''
def empezar(nivel):
    return (next(iter(nivel["personaje"])), frozenset(nivel["cajas"]),
            frozenset(nivel["paredes"]))

def jugar(j, accion):
    (x, y), cajas, paredes = j
    dx, dy = accion.value
    n = (x + dx, y + dy)
    if n in paredes:
        return j
    if n in cajas:
        b = (n[0] + dx, n[1] + dy)
        if b in paredes or b in cajas:
            return j
        cajas = (cajas - {n}) | {b}
    return (n, cajas, paredes)

def donde(j):
    return j[0]

def cajas(j):
    return j[1]
'''
# pushes a box into another one (forgets to look behind for a box)
WRONG = CORRECT.replace("if b in paredes or b in cajas:", "if b in paredes:")


@pytest.fixture
def mini(tmp_path):
    profiles.register(MINI)
    (tmp_path / "mini_ok.py").write_text(CORRECT, encoding="utf-8")
    (tmp_path / "mini_wrong.py").write_text(WRONG, encoding="utf-8")
    try:
        yield tmp_path
    finally:
        profiles.unregister("mini")
    assert "mini" not in profiles.names()
    with pytest.raises(KeyError):
        rules.table_for("mini")


OPTIONS = RunOptions(max_examples=30, seed=1, in_process=True)


def test_a_made_up_profile_is_checked_from_its_own_file(mini):
    [(ok, _)] = check_target(resolve(str(mini / "mini_ok.py")), "mini", OPTIONS)
    assert ok.conforms and ok.profile == "mini", ok.error
    assert set(ok.coverage) == set(TABLE.ids) and all(ok.coverage.values())
    [(bad, report)] = check_target(resolve(str(mini / "mini_wrong.py")), "mini", OPTIONS)
    c = bad.counterexample
    assert not bad.conforms and c.rule == "mini.push-blocked"
    assert "Rule broken: mini.push-blocked" in report
    assert "def test_conformance_" in report and "target.jugar(j, Accion.DERECHA)" in report
    # its operations make it detected, as every profile of Python targets
    [(found, _)] = check_target(resolve(str(mini / "mini_ok.py")), None, OPTIONS)
    assert found.profile == "mini" and found.conforms


def test_its_replay_replays_and_its_emitted_test_fails_until_fixed(mini):
    wrong, ok = str(mini / "mini_wrong.py"), str(mini / "mini_ok.py")
    [(bad, _)] = check_target(resolve(wrong), "mini", OPTIONS)
    c = bad.counterexample
    text = c.replay[c.replay.index("--replay") + len("--replay "):].strip().strip("'")
    again = engine.replay(profiles_target(wrong), "mini", text)
    assert not again.conforms and again.counterexample.rule == "mini.push-blocked"
    assert engine.replay(profiles_target(ok), "mini", text).conforms
    [(replayed, _)] = check_target(resolve(wrong), "mini", dataclasses.replace(
        OPTIONS, replay=text))
    assert not replayed.conforms
    code = profiles.emit_for(c)
    assert code == emit(c) and f"load(resolve({wrong!r}))" in code
    with pytest.raises(AssertionError):
        _run_tests(code)
    _run_tests(code.replace(repr(wrong), repr(ok)))


def test_its_gradescope_output_has_a_test_per_rule(mini, capsys):
    out = mini / "results.json"
    status = cli.main([str(mini / "mini_wrong.py"), "--profile", "mini", "--in-process",
                       "--seed", "1", "--max-examples", "30", "--gradescope", str(out)])
    assert status == 1
    tests = {t["name"].split(":")[0]: t for t in json.loads(out.read_text())["tests"]}
    assert set(tests) == set(TABLE.ids)
    assert tests["mini.push-blocked"]["score"] == 0
    assert all(t["score"] == t["max_score"] for n, t in tests.items() if n != "mini.push-blocked")


def profiles_target(path: str):
    from conformance.sandbox.box import open_target
    return open_target(resolve(path), in_process=True)


def _run_tests(code: str) -> None:
    namespace: dict = {}
    exec(compile(code, "<emitted>", "exec"), namespace)
    for name, f in namespace.items():
        if name.startswith("test_"):
            f()


# -- the profiles the toolkit ships ------------------------------------------------

@pytest.mark.parametrize("name", profiles.names())
def test_every_shipped_profile_answers_what_a_check_asks(name):
    p = profiles.get(name)
    assert p.name == name and p.seed.startswith("seed 00") and p.operations and p.groups
    assert rules.table_for(name) is p.rules
    assert p.rules.rules_for(name), "a profile is judged by at least one rule"
    if p.python:
        assert p.stepper is not None and p.domain is not None and p.scenarios
        assert set(p.essential) <= set(p.operations)
        assert {s.rule for s in p.scenarios} >= set(p.rules.rules_for(name) and
                                                     (r.id for r in p.rules.rules_for(name)))
    else:       # a language of its own: recognised, checked, its groups tested apart
        assert p.recognize is not None and p.what and p.called
        assert p.open is not None or p.run is not None
    assert profiles.of_kind(p.kind) is (None if p.python else p)


def test_an_unknown_profile_is_named_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown profile 'nope'; known: tad, extendido"):
        profiles.get("nope")
    assert sys.modules["conformance.profiles"].names()[:3] == ("tad", "extendido", "soko")
    assert Path(profiles.__file__).parent.name == "profiles"
