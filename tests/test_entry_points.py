"""The README's commands, run from a course folder that holds a student's
``soko.py`` and ``spec/``, ``levels/``, ``impl/`` folders, check what they say
they check (our code, never the student's), and leave no ``.hypothesis/``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
STUDENT_SOKO = textwrap.dedent("""\
    # a student's soko.py: wrong on purpose, and it says so when imported
    print("STUDENT SOKO IMPORTED")

    def crear_grilla(desc):
        return desc
    """)


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """A course folder: a student's soko.py, a spec/ package that would break
    ours, a levels/ folder with an __init__.py, an impl/ folder of notes."""
    (tmp_path / "soko.py").write_text(STUDENT_SOKO)
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "__init__.py").write_text("raise ImportError('the student spec')\n")
    (tmp_path / "levels").mkdir()
    (tmp_path / "levels" / "__init__.py").write_text("LEVELS = []\n")
    (tmp_path / "impl").mkdir()
    (tmp_path / "impl" / "notes.txt").write_text("my notes\n")
    (tmp_path / "soko_test.py").write_text(textwrap.dedent("""\
        import soko
        g = soko.crear_grilla(["#####", "#@$.#", "#####"])
        assert soko.dimensiones(g) == (5, 3)
        assert soko.juego_ganado(soko.mover(g, (1, 0)))
        print("OUR SOKO PASSED")
        """))
    return tmp_path


def run(cwd: Path, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "SOKOBAN_IMPL", "HYPOTHESIS_STORAGE_DIRECTORY")}
    env["XDG_CACHE_HOME"] = str(cwd / ".." / "cache")
    return subprocess.run(list(argv), cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=env)


def script(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"console script {name} not installed (pip install -e .)")
    return str(path)


def test_main_job_checks_our_soko_not_the_students(course):
    r = run(course, sys.executable, "-m", "conformance", "--max-examples", "5")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "3 checked: 3 conform" in r.stdout
    assert "STUDENT SOKO" not in r.stdout + r.stderr
    assert not (course / ".hypothesis").exists()


def test_console_script_checks_the_students_file_when_asked(course):
    r = run(course, script("sokoban"), "check", "soko.py", "--max-examples", "5")
    assert r.returncode == 2, r.stdout + r.stderr              # lacks 7 of 8 operations
    assert "missing" in r.stderr and "dimensiones" in r.stderr
    assert not (course / ".hypothesis").exists()


@pytest.mark.parametrize("argv", [
    ("-m", "impl", "solve", "seed003", "--level", "1"),
    ("-m", "levels", "check", "seed003"),
])
def test_python_m_forms_ignore_the_course_folders(course, argv):
    r = run(course, sys.executable, *argv, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("argv", [
    ("solve", "seed003", "--level", "1"),
    ("levels", "check", "seed003"),
    ("levels", "show", "seed002"),
])
def test_sokoban_command(course, argv):
    r = run(course, script("sokoban"), *argv, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr


def test_sokoban_command_usage(course):
    r = run(course, script("sokoban"), "nonsense")
    assert r.returncode == 2 and "unknown command 'nonsense'" in r.stderr
    assert "check" in run(course, script("sokoban"), "--help").stdout


@pytest.mark.parametrize("command, python_form", [
    ("check", "python -m conformance"), ("grade", "python -m conformance grade"),
    ("selftest", "python -m conformance selftest"), ("levels", "python -m levels"),
    ("solve", "python -m impl solve"), ("play", "python -m impl play"),
    ("monitor", "python -m conformance monitor"),
])
def test_usage_lines_name_the_command_as_typed(course, command, python_form):
    """``sokoban grade --help`` says ``usage: sokoban grade``, and the
    ``python -m`` form keeps its own name."""
    r = run(course, script("sokoban"), command, "--help", timeout=120)
    assert r.returncode == 0 and r.stdout.startswith(f"usage: sokoban {command} "), r.stdout
    m = python_form.split()[2:]
    r = run(course, sys.executable, "-m", *m, "--help", timeout=120)
    assert r.returncode == 0 and r.stdout.startswith(f"usage: {python_form} "), r.stdout


def test_soko_script_runs_a_course_test_against_ours(course):
    for argv in ((script("soko"), "soko_test.py"),
                 (sys.executable, "-P", "-m", "soko", "soko_test.py")):
        r = run(course, *argv)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "OUR SOKO PASSED" in r.stdout and "STUDENT" not in r.stdout


def test_a_shadowing_package_already_imported_is_forgotten(tmp_path):
    (tmp_path / "impl").mkdir()
    (tmp_path / "impl" / "__init__.py").write_text("print('STUDENT IMPL')\n")
    r = run(tmp_path, sys.executable, "-c", "import impl, sokoban_tad; "
            "sokoban_tad.use_our_packages(); import impl; import impl.direccion; "
            "print(sokoban_tad.shadowing(), impl.__file__ == sokoban_tad.ROOT + '/impl/__init__.py')")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["STUDENT IMPL", "[] True"]


def test_the_pytest_plugin_in_a_course_folder(course):
    """``python -m pytest --sokoban-impl soko.py`` with the course's spec/
    folder first on sys.path: our spec is used, the student's soko.py is
    checked (and lacks 7 of 8 operations: one failure saying so)."""
    r = run(course, sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
            "--sokoban-impl", "soko.py", "-q")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "1 failed" in r.stdout and "does not provide the operations" in r.stdout
    assert "the student spec" not in r.stdout + r.stderr


def test_pytest_in_a_folder_with_its_own_spec_package(course):
    """The plugin is loaded by every pytest session: a project whose own
    spec/ package raises on import still runs its tests."""
    (course / "test_mine.py").write_text("def test_mine():\n    pass\n")
    (course / "spec" / "__init__.py").write_text("VALUE = 1\n")
    (course / "test_spec.py").write_text("import spec\n\ndef test_theirs():\n"
                                         "    assert spec.VALUE == 1\n")
    r = run(course, sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
            "test_mine.py", "test_spec.py")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 passed" in r.stdout


README = Path(__file__).resolve().parents[1] / "README.md"


def readme_commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(), re.S)
    return [line for block in blocks for line in block.splitlines()]


def test_readme_front_door_commands():
    """The two front-door commands: the main job on the console script, and
    exactly the test command .ci/run runs."""
    lines = readme_commands()
    assert lines[0] == "python -m pip install -e . && sokoban check"
    ci = (README.parent / ".ci" / "run").read_text().splitlines()
    assert lines[1] in ci and lines[1].startswith("python -m pip install -e '.[test]' && ")


def test_readme_main_job_from_a_course_folder(course):
    main_job = readme_commands()[0].split(" && ")[1].split()
    assert main_job[0] == "sokoban"
    r = run(course, script("sokoban"), *main_job[1:], "--max-examples", "5")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "3 checked: 3 conform" in r.stdout and "STUDENT" not in r.stdout + r.stderr
    assert sorted(p.name for p in course.iterdir()) == [
        "impl", "levels", "soko.py", "soko_test.py", "spec"]     # nothing left behind


def test_a_closed_pipe_is_not_a_traceback(course):
    r = subprocess.run(f"{script('sokoban')} levels check microban | head -1", shell=True,
                       cwd=course, capture_output=True, text=True, timeout=120)
    assert r.stdout.count("\n") == 1 and r.stderr == ""


def test_a_submission_importing_its_own_sibling_soko_gets_it(tmp_path):
    """The guard in the sandbox child pins only what the child needs: a
    submission whose juego.py re-exports its own soko.py is checked on that
    soko.py (a wrong one here), not on ours."""
    from conformance.checking import checks
    from conformance import mutants
    from conformance.checking.targets import resolve

    sub = tmp_path / "sub"
    sub.mkdir()
    mutants.copy_to("soko_wrong_axes", sub, "soko.py")
    (sub / "juego.py").write_text("from soko import *  # noqa: F401,F403\n")
    [(verdict, _)] = checks.check_target(resolve(str(sub / "juego.py")), None,
                                         checks.RunOptions(max_examples=50, seed=1))
    assert verdict.profile == "soko" and verdict.counterexample is not None
