"""The grading-platform examples in docs/examples do what docs/grading-platforms.md
says: the GitHub Classroom workflow's commands and the Gradescope
run_autograder script, run on a student's repository."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import mutants

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
BIN = Path(sys.executable).parent


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SOKOBAN_IMPL")}
    e["PATH"] = f"{BIN}{os.pathsep}{e.get('PATH', '')}"
    return e


def student_repo(tmp_path: Path, module: str) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    mutants.copy_to(module, repo, "soko.py")
    (repo / "README.md").write_text("my Sokoban\n")
    return repo


def workflow() -> str:
    return (EXAMPLES / "classroom.yml").read_text()


STEPS = ["grid", "moves", "pushes", "win", "immutability"]


def test_the_workflow_grades_every_rule_in_a_family_and_reports_each():
    text = workflow()
    ids = re.findall(r"^\s+id: (\S+)$", text, re.M)
    assert ids == STEPS
    [runners] = re.findall(r"^\s+runners: (\S+)$", text, re.M)
    assert runners.split(",") == ids
    for step in ids:
        assert f'{step.upper()}_RESULTS: "${{{{ steps.{step}.outputs.result }}}}"' in text
    assert "education/autograding-command-grader@v1" in text
    # Every rule of the soko table is in exactly one step's -k expression.
    from spec import rules
    picked = [re.findall(r"soko\.[a-z-]+", k) for k in re.findall(r'-k "([^"]+)"', text)]
    assert sorted(sum(picked, [])) == sorted(
        r for r in rules.SOKO.ids if r != "soko.push-blocked")      # "-k soko.push": both
    assert "education/autograding-grading-reporter@v1" in text


def run_step(command: str, repo: Path, examples: int) -> subprocess.CompletedProcess:
    run = subprocess.run(f"{command} --sokoban-max-examples {examples}", shell=True, cwd=repo,
                         env=env(), capture_output=True, text=True, timeout=300)
    assert " passed" in run.stdout or " failed" in run.stdout, run.stdout + run.stderr
    return run


@pytest.mark.slow
def test_the_workflow_commands_pass_a_correct_student(tmp_path):
    repo = student_repo(tmp_path, "student_soko")
    commands = re.findall(r"^\s+command: (.+)$", workflow(), re.M)
    assert len(commands) == len(STEPS)
    for command in commands:
        run = run_step(command, repo, 5)
        assert run.returncode == 0 and "failed" not in run.stdout, run.stdout


def test_the_workflow_fails_the_family_a_mistake_belongs_to(tmp_path):
    repo = student_repo(tmp_path, "soko_pushes_two_boxes")
    commands = re.findall(r"^\s+command: (.+)$", workflow(), re.M)
    [pushes] = [c for c in commands if c.endswith('-k "soko.push"')]
    run = run_step(pushes, repo, 20)
    assert run.returncode == 1 and "FAILED sokoban::soko.push-blocked[soko]" in run.stdout
    assert "1 failed, 1 passed" in run.stdout
    [win] = [c for c in commands if c.endswith('-k "soko.won"')]
    assert run_step(win, repo, 20).returncode == 0


@pytest.mark.slow
def test_gradescope_run_autograder(tmp_path):
    root = tmp_path / "autograder"
    (root / "results").mkdir(parents=True)
    shutil.copytree(student_repo(tmp_path, "soko_wrong_axes"), root / "submission")
    script = EXAMPLES / "gradescope" / "run_autograder"
    run = subprocess.run([str(script)], env={**env(), "AUTOGRADER": str(root),
                                             "MAX_EXAMPLES": "10"},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    doc = json.loads((root / "results" / "results.json").read_text())
    names = [t["name"] for t in doc["tests"]]
    assert names[0] == "soko.read: the description" and len(names) == 11
    by_name = {t["name"]: t for t in doc["tests"]}
    assert by_name["soko.read: the description"]["status"] == "failed"
    assert "--replay" in by_name["soko.read: the description"]["output"]
    assert by_name["soko.won: the win"]["status"] == "passed"
    assert doc["extra_data"]["random_seed"] == 2026


def test_gradescope_tells_a_student_whose_file_is_misnamed(tmp_path):
    root = tmp_path / "autograder"
    (root / "results").mkdir(parents=True)
    (root / "submission").mkdir()
    (root / "submission" / "Soko.py").write_text("def crear_grilla(d):\n    return d\n")
    run = subprocess.run([str(EXAMPLES / "gradescope" / "run_autograder")],
                         env={**env(), "AUTOGRADER": str(root)},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    doc = json.loads((root / "results" / "results.json").read_text())
    [test] = doc["tests"]
    assert doc["score"] == 0 and test["status"] == "failed"
    assert "soko.py" in test["output"] and "no such file" in test["output"]


def test_gradescope_gives_every_submission_the_course_files(tmp_path):
    """The autograder zip's support folder (Gradescope's source/support)
    reaches the box: a soko.py that imports the course's gamelib is checked;
    without the folder, its one failed test names the option."""
    root = tmp_path / "autograder"
    (root / "results").mkdir(parents=True)
    (root / "submission").mkdir()
    fixtures = Path(__file__).parent / "conformance" / "fixtures"
    (root / "submission" / "soko.py").write_text(
        "import gamelib\n" + (fixtures / "soko_base.py").read_text())
    script = str(EXAMPLES / "gradescope" / "run_autograder")
    run = subprocess.run([script], env={**env(), "AUTOGRADER": str(root)},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    [test] = json.loads((root / "results" / "results.json").read_text())["tests"]
    assert "'gamelib'" in test["output"] and "--support" in test["output"]
    shutil.copytree(fixtures / "course_support", root / "source" / "support")
    run = subprocess.run([script], env={**env(), "AUTOGRADER": str(root), "MAX_EXAMPLES": "5"},
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    doc = json.loads((root / "results" / "results.json").read_text())
    assert len(doc["tests"]) == 11 and doc["score"] == 11, doc
