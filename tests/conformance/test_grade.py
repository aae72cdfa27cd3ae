"""``python -m conformance grade DIR`` end to end, with the real engine and
few examples (each submission is checked in a checker process of its own, so
a fake engine installed here would not reach it). The hostile class is in
tests/conformance/hostile."""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import pytest

from conformance.commands import cli, grade

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def submissions(tmp_path):
    """A class's submissions: a good folder, a looping one, a package-less
    folder of two files, a single incomplete file, a broken file."""
    folder = tmp_path / "tp1"
    folder.mkdir()
    (folder / "ana").mkdir()
    shutil.copy(FIXTURES / "soko_base.py", folder / "ana" / "soko.py")
    (folder / "bruno").mkdir()
    shutil.copy(FIXTURES / "soko_loops.py", folder / "bruno" / "soko.py")
    shutil.copy(FIXTURES / "soko_base.py", folder / "bruno" / "soko_base.py")
    (folder / "carla.py").write_text("def crear_grilla(desc):\n    return desc\n")
    (folder / "dario.py").write_text("def crear_grilla(desc)\n")
    (folder / "emma").mkdir()                      # nothing usable inside
    (folder / ".git").mkdir()                      # skipped
    (folder / "notes.txt").write_text("skipped")
    return folder


def _rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_grade_writes_a_summary_beside(submissions, capsys):
    old = os.umask(0o027)
    try:
        assert cli.main(["grade", str(submissions), "--jobs", "1", "--timeout", "0.3",
                         "--max-examples", "5"]) == 0
    finally:
        os.umask(old)
    out_dir = submissions.parent / "tp1-grades"
    rows = _rows(out_dir / "summary.csv")
    assert [r["name"] for r in rows] == ["ana", "bruno", "carla.py", "dario.py", "emma"]
    by_name = {r["name"]: r for r in rows}
    assert (by_name["ana"]["verdict"], by_name["ana"]["profile"]) == ("conforms", "soko")
    assert by_name["bruno"]["verdict"] == "does not conform"
    assert "used more than 0.3 s of CPU time" in by_name["bruno"]["message"]
    assert by_name["bruno"]["replay"].startswith("python -m conformance ")
    assert by_name["carla.py"]["verdict"] == "bad target"
    assert "missing" in by_name["carla.py"]["message"]
    assert "syntax error" in by_name["dario.py"]["message"]
    assert "found no .py file" in by_name["emma"]["message"]
    assert all(float(r["seconds"]) >= 0 for r in rows)
    data = json.loads((out_dir / "summary.json").read_text())
    assert [r["name"] for r in data["submissions"]] == [r["name"] for r in rows]
    assert data["submissions"][1]["verdict"] == "does not conform"
    assert data["options"]["timeout"] == 0.3 and data["options"]["max_examples"] == 5
    assert data["options"]["seed"] is not None                      # one seed for all
    assert f"--seed {data['options']['seed']}" in by_name["bruno"]["replay"] \
        or "--replay" in by_name["bruno"]["replay"]
    # Written with the umask's permissions (not 0600), the same rows in both.
    for name in ("summary.csv", "summary.json", "report.html"):
        assert (out_dir / name).stat().st_mode & 0o777 == 0o640
    assert [{k: str(r[k]) for k in grade.COLUMNS} for r in data["submissions"]] == rows
    out = capsys.readouterr().out
    assert "5 submissions: 3 bad targets, 1 conforms, 1 does not conform" in out
    # The student's folder is left as it was (no __pycache__ written into it).
    assert sorted(p.name for p in (submissions / "ana").iterdir()) == ["soko.py"]


def test_grade_never_overwrites_a_summary(tmp_path, capsys):
    submissions = tmp_path / "tp1"
    submissions.mkdir()
    (submissions / "ana.py").write_text("def crear_grilla(desc):\n    return desc\n")
    argv = ["grade", str(submissions), "--jobs", "1", "--profile", "soko", "--in-process"]
    assert cli.main(argv) == 0
    first = (submissions.parent / "tp1-grades" / "summary.csv").read_text()
    assert cli.main(argv) == 0                       # a second run goes to a new folder
    assert (submissions.parent / "tp1-grades-2" / "summary.csv").exists()
    assert (submissions.parent / "tp1-grades" / "summary.csv").read_text() == first
    out = str(submissions.parent / "tp1-grades")
    assert cli.main(argv + ["--out", out]) == 2
    assert "use --force" in capsys.readouterr().err
    assert cli.main(argv + ["--out", out, "--force"]) == 0


def test_grade_output_inside_dir_is_not_a_submission(submissions):
    out = submissions / "results"
    assert cli.main(["grade", str(submissions), "--jobs", "2", "--out", str(out),
                     "--timeout", "0.3", "--max-examples", "2"]) == 0
    names = [r["name"] for r in _rows(out / "summary.csv")]
    assert "results" not in names and len(names) == 5


@pytest.mark.parametrize("argv, words", [
    (["grade"], "usage:"),
    (["grade", "/no/such/folder"], "not a folder"),
    (["grade", ".", "--max-examples", "0"], "must be at least 1"),
])
def test_grade_argument_errors(argv, words, capsys):
    assert cli.main(argv) == 2
    assert words in capsys.readouterr().err


def test_grade_empty_folder(tmp_path, capsys):
    assert cli.main(["grade", str(tmp_path)]) == 2
    assert "no submissions" in capsys.readouterr().err


def test_find_submissions_order_and_skips(submissions):
    names = [p.name for p in grade.find_submissions(submissions)]
    assert names == ["ana", "bruno", "carla.py", "dario.py", "emma"]


def test_grade_in_parallel_with_the_real_engine(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(FIXTURES / "soko_base.py", folder / "good.py")
    (folder / "mutates").mkdir()
    shutil.copy(FIXTURES / "soko_mutates_grid.py", folder / "mutates" / "soko.py")
    shutil.copy(FIXTURES / "soko_base.py", folder / "mutates" / "soko_base.py")
    shutil.copy(FIXTURES / "soko_incomplete.py", folder / "half.py")
    assert cli.main(["grade", str(folder), "--jobs", "2", "--max-examples", "5",
                     "--seed", "1"]) == 0
    rows = {r["name"]: r for r in _rows(tmp_path / "class-grades" / "summary.csv")}
    assert rows["good.py"]["verdict"] == "conforms"
    assert rows["mutates"]["verdict"] == "does not conform"
    assert "changed the grid it was given" in rows["mutates"]["message"]
    assert "--replay" in rows["mutates"]["replay"]
    assert rows["half.py"]["verdict"] == "bad target"
    # Points by rule: the good one keeps every rule, the mutating one loses
    # the rule of a new grid.
    assert rows["good.py"]["score"] == rows["good.py"]["max_score"] == "11"
    assert "soko.new-grid" in rows["mutates"]["broken"].split()
    assert rows["half.py"]["score"] == "0"
    data = json.loads((tmp_path / "class-grades" / "summary.json").read_text())
    mutates = {r["name"]: r for r in data["submissions"]}["mutates"]
    assert mutates["rules"]["soko.new-grid"]["status"] == "broken"
    assert "--replay" in mutates["rules"]["soko.new-grid"]["replay"]
    assert (tmp_path / "class-grades" / "report.html").is_file()


ONE_OF_FIVE = [{"verdict": v} for v in
               ("conforms", "does not conform", "bad target", "bad target", "does not conform")]


@pytest.mark.parametrize("bar, status", [
    (None, 0), ("0.2", 0), ("0.25", 1), ("20%", 0), ("21%", 1), ("1", 1), ("0", 0),
    ("2", 1), ("1.5", 2), ("-0.1", 2), ("lots", 2), ("120%", 2)])
def test_grade_fail_under(submissions, capsys, bar, status):
    """1 of 5 submissions conforms (20%): --fail-under decides the exit status
    (a bad bar is refused before any submission is checked)."""
    if status == 2:
        argv = ["grade", str(submissions), "--fail-under", bar]
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert "--fail-under" in err and "Traceback" not in err
        assert not (submissions.parent / "tp1-grades").exists()
        return
    failing = bar is not None and grade.below(ONE_OF_FIVE, grade.threshold(bar))
    assert int(failing) == status


def test_grade_shows_what_an_incomplete_submission_does(submissions, capsys):
    """carla.py has only crear_grilla: a bad target with its missing list; a
    submission lacking one observer is checked on the other seven."""
    from conformance import mutants
    fabio = mutants.copy_to("student_soko", submissions, "fabio.py")
    fabio.write_text(fabio.read_text() + "\ndel juego_ganado\n")
    for name in ("ana", "bruno", "dario.py", "emma"):
        shutil.rmtree(submissions / name) if (submissions / name).is_dir() else (
            submissions / name).unlink()
    assert cli.main(["grade", str(submissions), "--jobs", "1", "--max-examples", "5",
                     "--fail-under", "1"]) == 1
    rows = {r["name"]: r for r in _rows(submissions.parent / "tp1-grades" / "summary.csv")}
    assert rows["fabio.py"]["verdict"] == "does not conform"
    assert rows["fabio.py"]["message"] == "missing operations: juego_ganado (the others conform)"
    assert rows["carla.py"]["verdict"] == "bad target"


def test_warnings_reach_the_summary(tmp_path, capsys):
    """A submission that answers ``None`` for ``False`` conforms (the course's
    test accepts it), and the summary says so in its ``warnings`` column."""
    folder = tmp_path / "tp2"
    (folder / "gina").mkdir(parents=True)
    (folder / "gina" / "soko.py").write_text(
        (FIXTURES / "soko_base.py").read_text()
        + "\n\n_hay_caja = hay_caja\n\n\ndef hay_caja(grilla, c, f):\n"
          "    return _hay_caja(grilla, c, f) or None\n")
    (folder / "hugo").mkdir()
    shutil.copy(FIXTURES / "soko_base.py", folder / "hugo" / "soko.py")
    assert cli.main(["grade", str(folder), "--jobs", "1", "--max-examples", "10",
                     "--seed", "1"]) == 0
    rows = {r["name"]: r for r in _rows(tmp_path / "tp2-grades" / "summary.csv")}
    assert rows["gina"]["verdict"] == "conforms"
    assert rows["gina"]["warnings"].startswith("hay_caja returned None")
    assert rows["hugo"]["verdict"] == "conforms" and rows["hugo"]["warnings"] == ""
    data = json.loads((tmp_path / "tp2-grades" / "summary.json").read_text())
    assert data["submissions"][0]["warnings"] == rows["gina"]["warnings"]
    assert "  warnings: hay_caja returned None" in capsys.readouterr().out
