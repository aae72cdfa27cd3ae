"""``--support DIR``: a course's own files (a small library handed out with
the assignment, here a stand-in ``gamelib``) copied into every submission's
box, read-only, beside its files. Without it, a submission that imports
such a module is a bad target whose message names the option."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.checking.checks import RunOptions, check_target
from conformance.checking.targets import BadTarget, resolve
from conformance.commands.cli import main as check_main
from conformance.reports.output import verdict_status
from conformance.sandbox import isolation
from conformance.sandbox.box import open_target

FIXTURES = Path(__file__).parent / "fixtures"
SUPPORT = FIXTURES / "course_support"
SOKO_BASE = (FIXTURES / "soko_base.py").read_text(encoding="utf-8")

#: A public-style soko.py: it begins with ``import gamelib`` and draws with it.
USES_GAMELIB = "import gamelib\n\n" + SOKO_BASE + '''

def dibujar(grilla):
    """As the course's soko.py draws a grid (never called by the check)."""
    for f, fila in enumerate(grilla):
        for c, celda in enumerate(fila):
            gamelib.draw_image("img/ground.gif", 64 * c, 64 * f)


def gamelib_value():
    return gamelib.VALUE
'''


def submission(folder: Path, text: str = USES_GAMELIB, **files: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "soko.py").write_text(text, encoding="utf-8")
    for name, content in files.items():
        (folder / f"{name}.py").write_text(content, encoding="utf-8")
    return folder / "soko.py"


def levels() -> list[str]:
    return list(isolation.available_levels())


def test_without_support_it_is_a_bad_target_naming_the_option(tmp_path):
    path = submission(tmp_path / "alumno")
    verdict, report = check_target(resolve(str(path)), None, RunOptions(max_examples=5, seed=1))[0]
    assert verdict_status(verdict) == "bad target"
    assert "'gamelib'" in verdict.error and "--support" in verdict.error


def test_with_support_it_gets_a_verdict(tmp_path):
    path = submission(tmp_path / "alumno")
    options = RunOptions(max_examples=5, seed=1, support=str(SUPPORT))
    verdict, report = check_target(resolve(str(path)), None, options)[0]
    assert verdict.error is None, report
    assert verdict_status(verdict) == "conforms", report
    assert verdict.profile == "soko"


@pytest.mark.parametrize("level", levels())
def test_at_every_isolation_level_the_box_has_the_course_file(tmp_path, level):
    target = open_target(resolve(str(submission(tmp_path / "alumno"))), level=level,
                         support=str(SUPPORT))
    try:
        assert target.call("gamelib_value") == "the course's gamelib"
    finally:
        target.close()


def test_the_course_file_wins_a_clash_and_the_report_says_so(tmp_path):
    own = "raise RuntimeError('the student copy of gamelib')\n"
    path = submission(tmp_path / "alumno", gamelib=own)
    bad, _ = check_target(resolve(str(path)), None, RunOptions(max_examples=5, seed=1))[0]
    assert verdict_status(bad) == "bad target" and "student copy" in bad.error
    options = RunOptions(max_examples=5, seed=1, support=str(SUPPORT))
    verdict, report = check_target(resolve(str(path)), None, options)[0]
    assert verdict_status(verdict) == "conforms", report
    assert any("gamelib.py" in w and "--support" in w for w in verdict.warnings)
    assert "gamelib.py" in report
    assert (tmp_path / "alumno" / "gamelib.py").read_text() == own     # the submission untouched


def test_the_checked_file_itself_is_never_replaced(tmp_path):
    support = tmp_path / "support"
    shutil.copytree(SUPPORT, support)
    (support / "soko.py").write_text("raise SystemExit('the course soko.py')\n")
    path = submission(tmp_path / "alumno")
    verdict, report = check_target(resolve(str(path)), None,
                                   RunOptions(max_examples=5, seed=1, support=str(support)))[0]
    assert verdict_status(verdict) == "conforms", report


TAMPERS = USES_GAMELIB + '''

def tamper():
    """Tries to change its box's copy of the course's file, and says what
    it reads there afterwards."""
    import os
    for path in ("gamelib.py", os.path.abspath("gamelib.py")):
        try:
            os.chmod(path, 0o666)
        except OSError:
            pass
        try:
            with open(path, "w") as f:
                f.write("VALUE = 'changed by a submission'\\n")
        except OSError:
            pass
    with open("gamelib.py") as f:
        return f.read()
'''


@pytest.mark.parametrize("level", levels())
def test_a_submission_cannot_change_what_another_one_sees(tmp_path, level):
    support = tmp_path / "support"
    shutil.copytree(SUPPORT, support)
    before = {p.name: p.read_bytes() for p in support.iterdir()}
    bad = open_target(resolve(str(submission(tmp_path / "a", TAMPERS))), level=level,
                      support=str(support))
    try:
        bad.call("tamper")          # whatever it managed in its own box...
    finally:
        bad.close()
    good = open_target(resolve(str(submission(tmp_path / "b"))), level=level,
                       support=str(support))
    try:
        assert good.call("gamelib_value") == "the course's gamelib"   # ...the next box is clean
    finally:
        good.close()
    assert {p.name: p.read_bytes() for p in support.iterdir()} == before
    assert not (tmp_path / "a" / "gamelib.py").exists()


@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid") or __import__("os").geteuid() == 0,
                    reason="root writes a read-only file")
def test_the_box_copy_is_read_only(tmp_path):
    bad = open_target(resolve(str(submission(tmp_path / "a", TAMPERS))), level="best-effort",
                      support=str(SUPPORT))
    try:
        text = bad.call("tamper")
    finally:
        bad.close()
    assert "changed by a submission" not in text


def test_in_process_support_is_on_the_path(tmp_path):
    path = submission(tmp_path / "alumno")
    target = open_target(resolve(str(path)), in_process=True, support=str(SUPPORT))
    try:
        assert target.call("gamelib_value") == "the course's gamelib"
    finally:
        target.close()
    lacking = submission(tmp_path / "otro", "import modulo_del_curso\n" + SOKO_BASE)
    with pytest.raises(BadTarget, match="'modulo_del_curso'.*--support"):
        open_target(resolve(str(lacking)), in_process=True)


def test_check_command_takes_support_and_refuses_a_missing_folder(tmp_path, capsys):
    path = submission(tmp_path / "alumno")
    assert check_main([str(path), "--max-examples", "5", "--seed", "1", "--budget", "60"]) == 2
    assert "--support" in capsys.readouterr().err
    assert check_main([str(path), "--max-examples", "5", "--seed", "1", "--budget", "60",
                       "--support", str(SUPPORT)]) == 0
    assert check_main([str(path), "--support", str(tmp_path / "nowhere")]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_gradescope_json_names_the_option(tmp_path):
    path = submission(tmp_path / "alumno")
    out = tmp_path / "results.json"
    assert check_main([str(path), "--max-examples", "5", "--seed", "1", "--budget", "60",
                       "--gradescope", str(out)]) == 2
    document = json.loads(out.read_text())
    assert "--support" in json.dumps(document)


def test_grade_takes_support_and_skips_the_support_folder(tmp_path):
    from conformance.commands.grade import main as grade_main
    classroom = tmp_path / "clase"
    submission(classroom / "ana")
    submission(classroom / "beto", SOKO_BASE)
    shutil.copytree(SUPPORT, classroom / "gamelib_del_curso")
    out = tmp_path / "notas"
    status = grade_main([str(classroom), "--out", str(out), "--max-examples", "5", "--seed", "1",
                         "--jobs", "1", "--support", str(classroom / "gamelib_del_curso")],
                        out=open("/dev/null", "w"))
    rows = {r["name"]: r for r in json.loads((out / "summary.json").read_text())["submissions"]}
    assert set(rows) == {"ana", "beto"}, rows
    assert rows["ana"]["verdict"] == "conforms", rows["ana"]
    assert status == 0


def test_monitor_takes_support(tmp_path):
    path = submission(tmp_path / "alumno")
    script = tmp_path / "alumno" / "prueba.py"
    script.write_text("import soko, gamelib\nprint(gamelib.VALUE, "
                      "soko.dimensiones(soko.crear_grilla(['#@#'])))\n")
    run = [sys.executable, "-m", "conformance", "monitor", str(script), "--impl", str(path)]
    without = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert without.returncode == 2 and "--support" in without.stderr, without.stderr
    done = subprocess.run([*run, "--support", str(SUPPORT)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "the course's gamelib (3, 1)" in done.stdout


def test_a_missing_standard_module_is_told_apart():
    """A student's own gamelib imports tkinter, which a box's Python may
    lack: the message says it is the standard library's, and the option."""
    from conformance.sandbox.loading import missing_module_message
    said = missing_module_message("soko.py", "tkinter")
    assert "'tkinter'" in said and "standard library" in said and "--support DIR" in said
    assert "standard library" not in missing_module_message("soko.py", "gamelib")
