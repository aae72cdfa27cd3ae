"""The pytest plugin, end to end: ``pytest --sokoban-impl TARGET`` in a fresh
folder with the fake engine (in-process through pytester, and once in a real
subprocess under xdist)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.checking.targets import load, resolve
from spec import rules

SOKO_RULES = [r.id for r in rules.SOKO.rules_for("soko")]

pytest_plugins = ["pytester"]

FIXTURES = Path(__file__).parent / "fixtures"

CONFTEST = f'''
import conformance.checking.checks as checks
from conformance.checking.targets import load, resolve
from spec import rules

SOKO_RULES = [r.id for r in rules.SOKO.rules_for("soko")]
_fake = load(resolve({str(FIXTURES / "fake_engine.py")!r}))
checks.load_engine = lambda: (_fake.check, _fake.format_verdict)
checks.load_rules_engine = lambda: _fake.check_rules
'''


@pytest.fixture
def course(pytester, monkeypatch):
    """A course repository with no tests of its own, using the fake engine."""
    load(resolve(str(FIXTURES / "fake_engine.py"))).install(monkeypatch)
    pytester.makeini("[pytest]\n")
    return pytester


def pytest_run(pytester, *args):
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:benchmark", *args)
    return result.ret, "\n".join(result.outlines), "\n".join(result.errlines)


def test_one_test_per_rule(course):
    ret, out, err = pytest_run(course, f"--sokoban-impl={FIXTURES / 'soko_base.py'}", "--co", "-q")
    assert ret == 0, out + err
    ids = [line for line in out.splitlines() if line.startswith("sokoban::")]
    assert ids == [f"sokoban::{rule}[soko]" for rule in SOKO_RULES]


def test_a_conforming_target_passes_and_says_what_it_exercised(course):
    """``-k soko.push`` is a family: the push and the blocked push."""
    ret, out, err = pytest_run(course, f"--sokoban-impl={FIXTURES / 'soko_base.py'}", "-rP",
                               "--sokoban-max-examples=5", "-k", "soko.push or soko.won")
    assert ret == 0, out + err
    assert f"3 passed, {len(SOKO_RULES) - 3} deselected" in out
    assert "soko.push: Into a box whose next cell (C2) is empty" in out
    assert "Kept: exercised 1 times, no departure." in out


@pytest.mark.parametrize("on_ci", [False, True])
def test_a_failing_target_fails_with_the_report_under_xdist(tmp_path, on_ci):
    """Also as on CI (``CI`` set, as GitHub Classroom does), where pytest
    prints a failure's whole message in the short summary: ours is one line,
    the report appears once."""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "BUILD_NUMBER")}
    if on_ci:
        env["CI"] = "true"
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          f"--sokoban-impl={FIXTURES / 'soko_loops.py'}",
                          "--sokoban-timeout=0.3", "-n", "2"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"1 failed, {len(SOKO_RULES) - 1} passed" in run.stdout
    assert "mover: timeout" in run.stdout and "replay: python -m conformance" in run.stdout
    # The short summary says what went wrong, not the target's path.
    assert "FAILED sokoban::soko.push[soko] - broken: mover: timeout" in run.stdout
    # One random seed for the session, in the header, used by the check on the workers.
    seed = re.search(r"^sokoban: checking .*soko_loops.py, random seed (\d+)", run.stdout,
                     re.M).group(1)
    assert re.findall(r"max_examples 100 random seed (\d+)", run.stdout) == [seed]
    assert run.stdout.count("DOES NOT CONFORM") == 1
    assert "collected 0 items" not in run.stdout


def test_space_form_from_a_sibling_folder_keeps_the_rootdir(tmp_path):
    """``pytest --sokoban-impl ../x/soko.py`` as the README writes it, from a
    course folder with its own tests and testpaths: the rootdir stays, only
    the conformance tests are collected, and they are counted."""
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "soko.py").write_text((FIXTURES / "soko_base.py").read_text())
    course = tmp_path / "course"
    (course / "tests").mkdir(parents=True)
    (course / "pytest.ini").write_text("[pytest]\ntestpaths = tests\n")
    (course / "tests" / "test_own.py").write_text("def test_own():\n    assert False\n")
    (course / "conftest.py").write_text(CONFTEST)
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          "--sokoban-impl", "../x/soko.py"],
                         cwd=course, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"rootdir: {course}" in run.stdout and "configfile: pytest.ini" in run.stdout
    n = len(SOKO_RULES)
    assert f"collected {n} items" in run.stdout and f"{n} passed" in run.stdout
    # Named test paths still run beside the conformance tests.
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          "--sokoban-impl", "../x/soko.py", "tests"],
                         cwd=course, capture_output=True, text=True, timeout=120)
    assert f"1 failed, {n} passed" in run.stdout, run.stdout + run.stderr


def test_missing_operations_fail_the_rules_that_need_them(course):
    """Lacking 4 observers: the rules that need one of them fail with the
    list, the others are checked on the rest (the fake engine calls a
    missing observer directly: a departure, blamed on the push); lacking the
    essential ones: every test fails explaining."""
    ret, out, _ = pytest_run(course, f"--sokoban-impl={FIXTURES / 'soko_incomplete.py'}",
                             "--sokoban-profile=soko")
    assert ret == 1 and "7 failed, 4 passed" in out
    assert "FAILED sokoban::soko.goals[soko] - missing operations: hay_objetivo" in out
    assert "FAILED sokoban::soko.won[soko] - missing operations: juego_ganado" in out
    assert "FAILED sokoban::soko.push[soko] - broken: hay_caja" in out
    for kept in ("soko.size", "soko.walls", "soko.new-grid", "soko.blocked-same"):
        assert f"FAILED sokoban::{kept}[soko]" not in out
    ret, out, _ = pytest_run(course, f"--sokoban-impl={FIXTURES / 'soko_incomplete.py'}",
                             "--sokoban-profile=tad")
    assert ret == 1 and "8 failed" in out and "missing iniciar, step, estado" in out
    course.makepyfile(only_one="def crear_grilla(desc):\n    return desc\n")
    ret, out, _ = pytest_run(course, f"--sokoban-impl={course.path / 'only_one.py'}")
    assert ret == 1 and "1 failed" in out and "any profile" in out


def test_bad_target_is_a_usage_error(course):
    ret, out, err = pytest_run(course, "--sokoban-impl=nowhere/soko.py")
    assert ret == pytest.ExitCode.USAGE_ERROR
    assert "--sokoban-impl: nowhere/soko.py: no such file or folder" in err
    assert "Traceback" not in err + out
    ret, out, _ = pytest_run(course, f"--sokoban-impl={FIXTURES / 'soko_syntax_error.py'}")
    assert ret == 1 and "syntax error" in out


def test_without_the_option_nothing_is_added(course):
    course.makepyfile(test_mine="def test_mine():\n    pass\n")
    ret, out, _ = pytest_run(course, "-q")
    assert ret == 0 and "1 passed" in out


def test_real_engine_in_the_plugin(pytester):
    pytester.makeini("[pytest]\n")
    ok = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:benchmark",
                                      "--sokoban-impl=impl-soko", "--sokoban-max-examples=2",
                                      "--sokoban-seed=1")
    ok.assert_outcomes(passed=len(SOKO_RULES))
    mutant = Path(__file__).parents[2] / "conformance" / "mutants" / "soko_mutates_grid.py"
    bad = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:benchmark",
                                       f"--sokoban-impl={mutant}", "--sokoban-max-examples=5",
                                       "--sokoban-seed=1", "-k", "soko.new-grid")
    bad.assert_outcomes(failed=1, deselected=len(SOKO_RULES) - 1)
    assert "changed the grid it was given" in "\n".join(bad.outlines)


def test_rules_of_an_incomplete_target_pass_on_what_is_there(pytester):
    """The real engine: a correct soko.py without juego_ganado passes every
    rule but the win (partial credit per rule)."""
    pytester.makeini("[pytest]\n")
    pytester.makepyfile(soko="from conformance.mutants.student_soko import *\n"
                             "del juego_ganado\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--sokoban-impl=soko.py",
                                          "--sokoban-max-examples=3", "--sokoban-seed=1",
                                          "--sokoban-in-process")
    result.assert_outcomes(passed=len(SOKO_RULES) - 1, failed=1)
    assert ("FAILED sokoban::soko.won[soko] - missing operations: juego_ganado"
            in "\n".join(result.outlines))


def _hypothesis_globals():
    """What a check could change in Hypothesis for the whole process: its
    storage folder, its default settings and the loaded profile."""
    from hypothesis import configuration, settings
    return (vars(configuration).get("__hypothesis_home_directory"), settings.default,
            settings.get_current_profile_name())


def test_the_plugin_leaves_hypothesis_settings_as_it_found_them(pytester, tmp_path):
    """The user's own session keeps its Hypothesis storage folder and
    settings after the plugin's checks (the real engine, in this process)."""
    from hypothesis.configuration import set_hypothesis_home_dir

    users = tmp_path / "the-users-hypothesis"
    found = vars(__import__("hypothesis.configuration").configuration).get(
        "__hypothesis_home_directory")
    set_hypothesis_home_dir(users)
    try:
        before = _hypothesis_globals()
        pytester.makeini("[pytest]\n")
        result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:benchmark",
                                              "--sokoban-impl=impl-soko",
                                              "--sokoban-max-examples=2", "--sokoban-seed=1",
                                              "--sokoban-in-process")
        result.assert_outcomes(passed=len(SOKO_RULES))
        assert _hypothesis_globals() == before
        assert before[0] == users
    finally:
        set_hypothesis_home_dir(found)


def test_the_budget_covers_opening_the_target(course):
    """A target that takes 4 s to import, a budget of 2 s: the opening is
    stopped within the budget (not 4 s, then the check's own 2 s)."""
    import time
    start = time.monotonic()
    ret, out, err = pytest_run(course, f"--sokoban-impl={FIXTURES / 'soko_slow_import.py'}",
                               "--sokoban-budget=2", "--sokoban-max-examples=5")
    assert ret == 1, out + err
    assert "not opened within the time budget of 2 s (--sokoban-budget)" in out
    assert time.monotonic() - start < 3.9


def test_a_bad_isolation_level_is_a_usage_error_not_a_failed_test(course, monkeypatch):
    monkeypatch.setenv("SOKOBAN_ISOLATION", "sideways")
    ret, out, err = pytest_run(course, f"--sokoban-impl={FIXTURES / 'soko_base.py'}")
    assert ret == pytest.ExitCode.USAGE_ERROR
    assert "SOKOBAN_ISOLATION=sideways: not a level" in err and "cannot load" not in out + err
    # In this process no box is started: the variable does not matter.
    ret, out, err = pytest_run(course, f"--sokoban-impl={FIXTURES / 'soko_base.py'}",
                               "--sokoban-in-process", "--co", "-q")
    assert ret == 0, out + err


def test_support_in_the_plugin(course, tmp_path):
    """--sokoban-support: a soko.py that imports the course's gamelib is
    checked; without it, the one failure names the option."""
    folder = tmp_path / "alumno"
    folder.mkdir()
    (folder / "soko.py").write_text("import gamelib\n" + (FIXTURES / "soko_base.py").read_text())
    ret, out, err = pytest_run(course, f"--sokoban-impl={folder / 'soko.py'}")
    assert ret == 1 and "--sokoban-support" in out and "'gamelib'" in out, out + err
    ret, out, err = pytest_run(course, f"--sokoban-impl={folder / 'soko.py'}",
                               f"--sokoban-support={FIXTURES / 'course_support'}",
                               "--sokoban-max-examples=5")
    assert ret == 0, out + err
    assert f"{len(SOKO_RULES)} passed" in out
    ret, out, err = pytest_run(course, f"--sokoban-impl={folder / 'soko.py'}",
                               f"--sokoban-support={tmp_path / 'nowhere'}")
    assert ret == pytest.ExitCode.USAGE_ERROR and "not a folder" in err
