"""The fixed scenarios (each profile's ``scenarios``): inside their profile's
domain, each aimed at a rule the spec really takes there, every rule of
every profile covered, and no correct implementation departs from any."""

from __future__ import annotations

import pytest

from conformance import mutants, profiles
from conformance.checking import engine
from conformance.machines import blame, levels as lv
from conformance.sandbox.box import open_target
from conformance.checking.targets import bundled_specs, resolve
from spec import rules

ALL = [(p.name, s) for p in profiles.python() + profiles.languages() for s in p.scenarios]
WITH_SCENARIOS = sorted({p for p, _ in ALL})


@pytest.mark.parametrize("profile, scenario", ALL,
                         ids=[f"{p}-{s.rule}-{s.what[:30]}" for p, s in ALL])
def test_each_scenario_is_in_the_domain_and_takes_a_case_of_its_rule(profile, scenario):
    definition = profiles.get(profile)
    scenes = scenario.scenes(definition.grid)
    for scene in scenes:
        assert lv.in_domain(definition.domain, scene), scenario.what
    table = rules.table_for(profile)
    rule = table.rule(scenario.rule)
    t = rules.Trace(keep_events=True)
    # (aed2: mover's answer is a case too, so its rule counts as exercised)
    blame.play(definition, scenes, scenario.actions, t, observe=True)
    assert set(rule.cases) & set(t.events), scenario.what
    assert set(scenario.actions) <= set("udlrbz")


@pytest.mark.parametrize("profile", WITH_SCENARIOS)
def test_every_rule_has_a_scenario(profile):
    aimed = {s.rule for s in profiles.get(profile).scenarios}
    wanted = {r.id for r in rules.table_for(profile).rules_for(profile)}
    assert wanted <= aimed, sorted(wanted - aimed)


def test_a_scenario_is_a_replay():
    soko = profiles.get("soko")
    s = soko.scenarios[0]
    text = s.replay_text(soko)
    assert blame.replay_parts(text)[0] == "soko"
    assert blame.replay_parts(text)[2] == s.actions


def _targets():
    found = [(s, p) for s, p in bundled_specs()]
    found += [(resolve(str(mutants.path(n))), p) for n, p in sorted(mutants.STUDENTS.items())]
    return found


@pytest.mark.parametrize("spec, profile", _targets(), ids=lambda x: getattr(x, "name", x))
def test_no_correct_implementation_departs_from_a_scenario(spec, profile):
    t = open_target(spec, in_process=True)
    try:
        found = engine.replay_scenarios(t, profile)
    finally:
        t.close()
    assert found == [], [(s.what, v.counterexample.message) for s, v in found]


@pytest.mark.skipif(__import__("shutil").which("g++") is None, reason="g++ is not installed")
def test_the_cpp_reference_departs_from_no_scenario():
    from conformance.profiles.aed2 import mutants as cpp_mutants
    from conformance.profiles.aed2.build import build
    from conformance.profiles.aed2.target import Aed2Target
    from conformance.sandbox.box import DEFAULT_MEMORY_MB
    from conformance.checking.targets import seen_in_ours
    target = Aed2Target(build(cpp_mutants.REFERENCE, std="c++17", sanitize=True), timeout=10,
                        memory_mb=DEFAULT_MEMORY_MB, name="reference")
    try:
        found = engine.replay_scenarios(seen_in_ours(target, profiles.get("aed2"), "seed001"),
                                        "aed2", directions="seed001")
    finally:
        target.close()
    assert found == [], [(s.what, v.counterexample.message) for s, v in found]
