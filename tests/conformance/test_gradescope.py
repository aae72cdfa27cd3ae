"""``--gradescope FILE``: Gradescope's autograder results.json, checked
against the fields its published specification lists
(gradescope-autograders.readthedocs.io, "Autograder Specifications")."""

from __future__ import annotations

import json
import shutil

import pytest

from conformance.commands import cli

from conformance import mutants
from spec import rules
from conformance.reports.output import GRADESCOPE_VISIBILITY

#: The specification's top-level fields and test-case fields, with their types.
TOP = {"score": (int, float), "execution_time": (int, float), "output": str,
       "output_format": str, "test_output_format": str, "test_name_format": str,
       "visibility": str, "stdout_visibility": str, "extra_data": dict, "tests": list,
       "leaderboard": list}
TEST = {"score": (int, float), "max_score": (int, float), "status": str, "name": str,
        "name_format": str, "number": str, "output": str, "output_format": str,
        "tags": list, "visibility": str, "extra_data": dict}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}


def conforms_to_the_spec(doc: dict) -> None:
    assert set(doc) <= set(TOP), set(doc) - set(TOP)
    for key, value in doc.items():
        assert isinstance(value, TOP[key]), key
    assert "score" in doc or all("score" in t for t in doc["tests"])
    for key in ("visibility", "stdout_visibility"):
        assert doc.get(key, "visible") in GRADESCOPE_VISIBILITY
    assert doc.get("output_format", "text") in FORMATS
    for test in doc["tests"]:
        assert set(test) <= set(TEST), set(test) - set(TEST)
        for key, value in test.items():
            assert isinstance(value, TEST[key]), key
        assert test["status"] in ("passed", "failed")
        assert test.get("visibility", "visible") in GRADESCOPE_VISIBILITY
        assert test.get("output_format", "text") in FORMATS
        assert all(isinstance(tag, str) for tag in test.get("tags", []))
        assert 0 <= test["score"] <= test["max_score"]
        assert (test["status"] == "passed") == (test["score"] == test["max_score"])
    assert doc["score"] == sum(t["score"] for t in doc["tests"])


def run(tmp_path, *argv) -> tuple[int, dict]:
    path = tmp_path / "results.json"
    status = cli.main([*argv, "--gradescope", str(path), "--in-process"])
    return status, json.loads(path.read_text())


SOKO_TESTS = [f"{r.id}: {r.title}" for r in rules.SOKO.rules_for("soko")]


def test_a_test_per_rule_with_its_counterexample(tmp_path):
    status, doc = run(tmp_path, str(mutants.path("soko_wrong_axes")),
                      "--max-examples", "30", "--seed", "1", "--gradescope-visibility",
                      "after_published")
    conforms_to_the_spec(doc)
    assert status == 1
    assert [t["name"] for t in doc["tests"]] == SOKO_TESTS
    by_name = {t["name"]: t for t in doc["tests"]}
    read = by_name["soko.read: the description"]
    assert read["status"] == "failed"
    assert read["output"].startswith("soko.read: crear_grilla puts the player")
    assert "What went wrong:" in read["output"] and "--replay" in read["output"]
    assert "Rule broken: soko.read" in read["output"]
    assert by_name["soko.won: the win"]["status"] == "passed"
    assert "Kept: exercised" in by_name["soko.won: the win"]["output"]
    for t in doc["tests"]:
        assert t["visibility"] == "after_published" and t["tags"] == ["soko"]
    assert doc["extra_data"]["random_seed"] == 1
    assert doc["extra_data"]["rules"]["soko.read"] == "broken"
    assert doc["output"].startswith(f"{int(doc['score'])} of 11 rules kept; not kept: ")


def test_a_conforming_target_gets_every_point(tmp_path):
    status, doc = run(tmp_path, "impl.tad", "--max-examples", "5")
    conforms_to_the_spec(doc)
    assert [t["name"] for t in doc["tests"]] == [
        f"{r.id}: {r.title}" for r in rules.TAD.rules_for("tad")]
    assert status == 0 and doc["score"] == 8.0 == len(doc["tests"])


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_the_cpp_reference_gets_every_point(tmp_path):
    """Every rule of aed2 is exercised, mover's answer too (it is the
    engine's, not a case the spec takes), so a correct C++ implementation
    keeps every point."""
    from conformance.profiles.aed2 import mutants as cpp_mutants
    status, doc = run(tmp_path, str(cpp_mutants.REFERENCE), "--max-examples", "5", "--seed", "1")
    conforms_to_the_spec(doc)
    assert [t["name"].split(":")[0] for t in doc["tests"]] == [
        r.id for r in rules.EXTENDIDO.rules_for("aed2")]
    assert status == 0 and doc["score"] == len(doc["tests"]) == 12, doc["output"]


def test_a_missing_function_costs_the_rules_that_need_it(tmp_path):
    (tmp_path / "juego.py").write_text("from impl.extendido import *\ndel tirar_bomba\n")
    status, doc = run(tmp_path, str(tmp_path / "juego.py"), "--max-examples", "5")
    conforms_to_the_spec(doc)
    by_name = {t["name"].split(":")[0]: t for t in doc["tests"]}
    assert set(by_name) == {r.id for r in rules.EXTENDIDO.rules_for("extendido")}
    for rule in ("ext.bomb", "ext.bomb-count"):
        assert by_name[rule]["status"] == "failed", rule
        assert "lacks tirar_bomba" in by_name[rule]["output"]
    assert [r for r, t in by_name.items() if t["status"] == "failed"] == ["ext.bomb",
                                                                         "ext.bomb-count"]
    assert status == 1 and doc["score"] == len(doc["tests"]) - 2


def test_a_target_that_cannot_be_checked_is_one_failed_test(tmp_path):
    (tmp_path / "soko.py").write_text("def crear_grilla(desc):\n    return desc\n")
    status, doc = run(tmp_path, str(tmp_path / "soko.py"))
    conforms_to_the_spec(doc)
    assert status == 2 and doc["score"] == 0.0
    [test] = doc["tests"]
    assert test["status"] == "failed" and "missing" in test["output"]
