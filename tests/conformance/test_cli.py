"""``python -m conformance``: exit codes, messages, outputs (with a fake
engine, so these tests are about the runner, not about Hypothesis)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.checking import checks

from conformance.commands import cli
from conformance.api import Counterexample, Verdict
from conformance.reports.output import verdicts_to_junit
from conformance.checking.targets import DirectionAdapter, load, resolve

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fake(monkeypatch):
    return load(resolve(str(FIXTURES / "fake_engine.py"))).install(monkeypatch)


def fixture(name):
    return str(FIXTURES / name)


def test_a_conforming_target_exits_0(fake, capsys):
    assert cli.main([fixture("soko_base.py"), "--max-examples", "7", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "soko_base.py [soko]: conforms" in out and "exercised" in out
    call, = fake.CALLS
    assert (call["profile"], call["max_examples"], call["seed"], call["directions"]) == (
        "soko", 7, 3, "ours")
    assert type(call["target"]).__name__ == "SandboxTarget"     # untrusted: sandboxed


def test_a_looping_target_does_not_conform_and_the_report_says_why(fake, capsys):
    status = cli.main([fixture("soko_loops.py"), "--timeout", "0.3"])
    assert status == 1
    out = capsys.readouterr().out
    assert "DOES NOT CONFORM" in out and "mover: timeout" in out


@pytest.mark.parametrize("name, kind", [
    ("soko_crashes.py", "hay_caja: exited"),
    ("soko_exits.py", "juego_ganado: exited"),
    ("soko_floods.py", "mover: output"),
])
def test_misbehaving_targets_get_a_verdict(fake, capsys, name, kind):
    assert cli.main([fixture(name), "--timeout", "2"]) == 1
    assert kind in capsys.readouterr().out


def test_in_process_option(fake, capsys):
    assert cli.main([fixture("soko_base.py"), "--in-process"]) == 0
    assert type(fake.CALLS[0]["target"]).__name__ == "InProcessTarget"
    assert "soko_base.py in this process, without a sandbox" in capsys.readouterr().out


def test_the_check_says_how_the_target_is_isolated(fake, capsys, monkeypatch):
    from conformance.sandbox import isolation
    level = isolation.available_levels()[-1]         # best-effort: on every machine
    monkeypatch.setenv(isolation.ENV_VAR, level)
    assert cli.main([fixture("soko_base.py"), "--max-examples", "2"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith(f"soko_base.py in a sandbox, isolation level {level} "
                          "(docs/conformance-runner.md)")


@pytest.mark.parametrize("asked", ["bogus", "sideways"])
def test_a_bad_isolation_level_is_the_environments_fault_not_the_targets(
        fake, capsys, monkeypatch, asked):
    from conformance.sandbox import isolation
    monkeypatch.setenv(isolation.ENV_VAR, asked)
    assert cli.main([fixture("soko_base.py"), "--max-examples", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {isolation.ENV_VAR}={asked}: not a level (") and \
        "cannot load" not in err
    assert not fake.CALLS                               # nothing was checked
    # In this process, no sandbox is started: the variable does not matter.
    assert cli.main([fixture("soko_base.py"), "--max-examples", "2", "--in-process"]) == 0


def test_directions_wrap_the_target(fake):
    assert cli.main([fixture("soko_base.py"), "--directions", "seed001", "--in-process"]) == 0
    call, = fake.CALLS
    adapter = call["target"]
    assert isinstance(adapter, DirectionAdapter) and call["directions"] == "seed001"
    assert (adapter.profile, adapter.convention) == ("soko", "seed001")
    # Our north reaches the target as seed 001's Norte (0, 1): a y-down
    # student grid then moves the player south.
    grid = adapter.call("crear_grilla", ["###", "#@#", "# #", "###"])
    assert adapter.call("hay_jugador", adapter.call("mover", grid, (0, -1)), 1, 2) is True


def test_environment_variable_names_the_target(fake, monkeypatch, capsys):
    monkeypatch.setenv("SOKOBAN_IMPL", fixture("soko_base.py"))
    assert cli.main(["--in-process"]) == 0
    assert fake.CALLS[0]["target"].name.endswith("soko_base.py")


def test_no_target_checks_our_implementation(fake, monkeypatch, capsys):
    monkeypatch.delenv("SOKOBAN_IMPL", raising=False)
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert ("checking our own implementation: impl.extendido (extendido), impl.tad (tad), "
            "soko (soko)") in out
    assert "3 checked: 3 conform" in out
    assert [(c["target"].name, c["profile"]) for c in fake.CALLS] == [
        ("impl.extendido", "extendido"), ("impl.tad", "tad"), ("soko", "soko")]
    assert {type(c["target"]).__name__ for c in fake.CALLS} == {"InProcessTarget"}  # trusted
    fake.CALLS.clear()
    assert cli.main(["--profile", "tad", "--sandbox"]) == 0
    call, = fake.CALLS
    assert call["profile"] == "tad" and type(call["target"]).__name__ == "SandboxTarget"


def test_missing_operations_are_listed_and_the_others_checked(capsys):
    """Lacking observers (4 of 8) is "does not conform" (1), and the 4 it has
    are checked; lacking a profile's essential operations is a bad target (2)."""
    assert cli.main([fixture("soko_incomplete.py"), "--max-examples", "10", "--seed", "1"]) == 1
    out = capsys.readouterr().out
    assert ("Missing operations: hay_objetivo, hay_caja, hay_jugador, juego_ganado. "
            "The others were checked and conform.") in out
    assert re.search(r"Exercised: \d+ examples, \d+ steps", out)
    assert cli.main([fixture("soko_incomplete.py"), "--profile", "tad"]) == 2
    assert "missing iniciar, step, estado, completado" in capsys.readouterr().err


def test_a_missing_observer_does_not_hide_a_departure_of_the_others(tmp_path, capsys):
    """The mutant that swaps rows and columns, without juego_ganado: still
    caught, and the report lists what is missing."""
    from conformance import mutants
    soko = mutants.copy_to("soko_wrong_axes", tmp_path, "soko.py")
    soko.write_text(soko.read_text() + "\ndel juego_ganado\n")
    assert cli.main([str(tmp_path / "soko.py"), "--max-examples", "50", "--seed", "1",
                     "--in-process"]) == 1
    out = capsys.readouterr().out
    assert "Missing operations: juego_ganado. The others were checked." in out
    assert "What went wrong:" in out


def test_a_missing_modifier_leaves_out_its_group():
    assert checks.checkable_groups(lambda op: op != "tirar_bomba", "extendido") == (
        "movement", "pushes", "win", "levels")          # undo undoes bombs too
    assert checks.checkable_groups(lambda op: op != "deshacer", "extendido") == (
        "movement", "pushes", "win", "bombs", "levels")
    assert checks.partial_profiles(lambda op: op not in ("gano", "juego_ganado")) == [
        "extendido", "soko"]
    assert checks.partial_profiles(lambda op: op != "completado") == ["tad"]
    assert checks.partial_profiles(lambda op: op not in ("mover", "estado")) == []


@pytest.mark.parametrize("name, words", [
    ("soko_import_fails.py", "RuntimeError: configuration file not found"),
    ("soko_syntax_error.py", "syntax error"),
    ("no_such_file.py", "no such file"),
])
def test_bad_targets_exit_2(fake, capsys, name, words):
    assert cli.main([fixture(name)]) == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["--max-examples", "0"], ["--max-examples", "many"], ["--profile", "chess"],
    ["--directions", "sideways"], ["--timeout", "-1"], ["--bogus"], ["a", "b"],
    ["--in-process", "--sandbox"],
])
def test_argument_errors_exit_2_without_traceback(argv, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "usage:" in err and "Traceback" not in err


def test_help_exits_0(capsys):
    assert cli.main(["--help"]) == 0
    assert "TARGET" in capsys.readouterr().out


def test_json_and_junit_outputs(fake, tmp_path, capsys):
    js, xml = tmp_path / "out" / "v.json", tmp_path / "v.xml"
    assert cli.main([fixture("soko_loops.py"), "--timeout", "0.3", "--json", str(js),
                     "--junit", str(xml)]) == 1
    data = json.loads(js.read_text())
    assert data["conforms"] is False
    verdict, = data["verdicts"]
    assert verdict["status"] == "does not conform" and verdict["profile"] == "soko"
    assert verdict["counterexample"]["message"].startswith("mover: timeout")
    suite = ET.parse(xml).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("1", "1", "0")
    failure = suite.find("testcase/failure")
    assert failure.get("message").startswith("mover: timeout")
    assert "replay: python -m conformance" in failure.text


def test_junit_for_conforming_and_bad_targets():
    verdicts = [Verdict("a", "tad", True, stats={"steps": 4}, seed=1, seconds=0.5),
                Verdict("b", "soko", False, error="cannot load b", missing=["mover"]),
                Verdict("c", "soko", False, counterexample=Counterexample(
                    "soko", "#", [], -1, "mover", "x", "y", "wrong", replay="r"))]
    root = ET.fromstring(verdicts_to_junit(verdicts).split("\n", 1)[1])
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "1")
    cases = suite.findall("testcase")
    assert cases[0].find("failure") is None and cases[0].find("error") is None
    assert cases[0].find("properties/property[@name='steps']").get("value") == "4"
    assert cases[1].find("error").get("message") == "missing operations: mover"
    assert cases[2].find("failure").get("message") == "wrong"


def test_unwritable_output_exits_2(fake, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert cli.main([fixture("soko_base.py"), "--in-process", "--json",
                     str(blocker / "v.json")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_selftest_is_dispatched_lazily(monkeypatch):
    seen = []
    module = type(sys)("conformance.commands.selftest")
    module.main = lambda argv, prog: seen.append((argv, prog)) or 0
    monkeypatch.setitem(sys.modules, "conformance.commands.selftest", module)
    assert cli.main(["selftest", "--max-examples", "5"]) == 0
    assert seen == [(["--max-examples", "5"], "python -m conformance selftest")]


def test_command_line_without_traceback():
    """The real entry point, end to end, on errors that need no engine."""
    for argv, words in [(["--max-examples", "0"], "must be at least 1"),
                        ([fixture("soko_incomplete.py"), "--profile", "tad"], "missing iniciar"),
                        (["no_such_module_xyz"], "no module named")]:
        run = subprocess.run([sys.executable, "-m", "conformance", *argv],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 2, run.stderr
        assert words in run.stderr and "Traceback" not in run.stderr


# ------------------------------------------------- end to end, real engine

MUTANTS = Path(cli.__file__).parents[1] / "mutants"


def test_real_engine_on_our_implementation(capsys):
    assert cli.main(["impl-tad", "--max-examples", "5", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "impl.tad (profile tad, random seed 1): CONFORMS" in out and "Exercised:" in out


def test_real_engine_catches_a_sandboxed_mutant_and_its_replay_replays(tmp_path, capsys):
    import shlex
    mutant = str(MUTANTS / "soko_mutates_grid.py")
    js = tmp_path / "v.json"
    assert cli.main([mutant, "--max-examples", "30", "--seed", "1", "--json", str(js)]) == 1
    assert "changed the grid it was given" in capsys.readouterr().out
    replay = json.loads(js.read_text())["verdicts"][0]["counterexample"]["replay"]
    argv = shlex.split(replay)
    assert argv[:4] == ["python", "-m", "conformance", mutant]
    assert cli.main(argv[3:]) == 1                            # the same failure again
    assert "changed the grid it was given" in capsys.readouterr().out
    assert cli.main(["soko"] + argv[4:]) == 0                 # our soko passes that replay
    replay_file = tmp_path / "replay.json"
    replay_file.write_text(argv[argv.index("--replay") + 1])
    assert cli.main([mutant, "--replay", str(replay_file)]) == 1


def test_real_engine_directions_adapter(capsys):
    """A y-grows-north tad implementation fails as is and conforms through
    ``--directions seed001``."""
    north_up = str(MUTANTS / "tad_y_grows_north.py")
    assert cli.main([north_up, "--max-examples", "20", "--seed", "2", "--in-process"]) == 1
    capsys.readouterr()
    assert cli.main([north_up, "--max-examples", "20", "--seed", "2", "--in-process",
                     "--directions", "seed001"]) == 0


def test_a_folder_of_submissions_suggests_grade(tmp_path, capsys):
    (tmp_path / "ana").mkdir()
    (tmp_path / "ana" / "soko.py").write_text("def crear_grilla(d):\n    return d\n")
    assert cli.main([str(tmp_path)]) == 2
    assert f"check them all with: sokoban grade {tmp_path}" in capsys.readouterr().err
