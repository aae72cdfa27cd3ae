"""python -m levels check|show|convert."""

import io
import subprocess
import sys

import pytest

import levels
from levels.cli import main


def run(*argv):
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.fixture
def bundled(tmp_path):
    from importlib import resources
    data = resources.files("levels") / "data"
    micro = tmp_path / "microban-1.txt"
    micro.write_bytes((data / "microban-1.txt").read_bytes())
    pro = tmp_path / "nivel3.pro"
    pro.write_bytes((data / "seed003" / "nivel3.pro").read_bytes())
    return micro, pro


def test_check_microban_and_a_seed_level(bundled):
    micro, pro = bundled
    code, out = run("check", str(micro), str(pro))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{micro}: level 1 '1': 6x7, 2 boxes: valid"
    assert f"{micro}: level 44 \"44 'Duh!'\": 5x3, 1 boxes: valid" in lines
    assert f"{micro}: 155 levels, 155 valid, 0 invalid" in lines
    assert f"{pro}: level 1 'nivel3': 8x6, 3 boxes: valid" in lines


def test_check_reports_invalid_levels_and_exits_1(tmp_path):
    f = tmp_path / "bad.sok"
    f.write_text("; good\n#####\n#@$.#\n#####\n\n; bad\n#####\n#@$ #\n#####\n")
    code, out = run("check", str(f))
    assert code == 1
    assert f"{f}: level 2 'bad': 5x3, 1 boxes: INVALID: 1 box(es) but 0 goal(s)" in out
    assert f"{f}: 2 levels, 1 valid, 1 invalid" in out
    code, out = run("check", "--rules", "soko", str(f))
    assert code == 0


def test_check_unparsable_file_says_where(tmp_path):
    f = tmp_path / "broken.xsb"
    f.write_text("#####\n#@$x#\n#####\n")
    code, out = run("check", str(f))
    assert code == 1
    assert f"{f}: unreadable: {f}:2:4: level 1: unexpected character 'x'" in out


def test_check_missing_file_exits_2(tmp_path):
    code, out = run("check", str(tmp_path / "nope.xsb"))
    assert code == 2 and "no such file" in out
    code, out = run("check", str(tmp_path))
    assert code == 2 and "is a directory" in out


def test_check_empty_file(tmp_path):
    f = tmp_path / "empty.txt"
    f.write_text("; nothing here\n")
    assert run("check", str(f)) == (1, f"{f}: no levels found\n")


def test_show_a_bundled_collection_by_name():
    code, out = run("show", "microban", "--level", "1")
    assert code == 0
    assert out.splitlines() == ["level 1 '1': 6x7, 2 boxes, 2 goals",
                                "####", "# .#", "#  ###", "#*@  #", "#  $ #", "#  ###", "####"]
    code, out = run("show", "tutorial", "--level", "5")
    assert code == 0 and "1 bombs" in out and "Comment: A bomb" in out


def test_show_errors():
    assert run("show", "microban")[0] == 2  # which level?
    code, out = run("show", "microban", "--level", "156")
    assert code == 2 and "no level 156 (levels 1 to 155)" in out
    code, out = run("show", "seed002")
    assert code == 0 and "#@  #" in out


def test_convert_xsb_to_prolog_and_back(tmp_path):
    pro = tmp_path / "m1.pro"
    code, out = run("convert", "microban", str(pro), "--level", "1")
    assert code == 0, out
    (back,) = levels.read_file(pro)
    m1 = levels.load("microban")[0]
    assert back.boxes == m1.translated(1, 1).boxes and back.player == (3, 4)
    xsb = tmp_path / "m1.xsb"
    assert run("convert", str(pro), str(xsb))[0] == 0
    assert levels.read_file(xsb) == [back]


def test_convert_whole_collection_to_sok(tmp_path):
    out_file = tmp_path / "all.sok"
    assert run("convert", "microban", str(out_file))[0] == 0
    assert levels.read_file(out_file) == levels.load("microban")


def test_convert_never_overwrites_input_or_existing_output(tmp_path):
    src = tmp_path / "a.xsb"
    src.write_text("#####\n#@$.#\n#####\n")
    before = src.read_bytes()
    code, out = run("convert", str(src), str(src), "--force")
    assert code == 2 and "refusing to overwrite the input" in out
    assert src.read_bytes() == before
    dst = tmp_path / "b.sok"
    dst.write_text("precious")
    code, out = run("convert", str(src), str(dst))
    assert code == 2 and "already exists; use --force" in out
    assert dst.read_text() == "precious"
    assert run("convert", str(src), str(dst), "--force")[0] == 0
    assert levels.read_file(dst) == levels.read_file(src)


def test_convert_usage_errors(tmp_path):
    code, out = run("convert", "microban", str(tmp_path / "x.pro"))
    assert code == 2 and "a Prolog file holds one level and microban holds 155; choose one with --level N" in out
    code, out = run("convert", "microban", str(tmp_path / "x.png"))
    assert code == 2 and "unknown output format '.png'" in out
    code, out = run("convert", str(tmp_path / "missing.xsb"), str(tmp_path / "x.xsb"))
    assert code == 2 and "no such file" in out
    assert not (tmp_path / "x.xsb").exists()


def test_module_entry_point_and_bad_arguments():
    r = subprocess.run([sys.executable, "-m", "levels", "check", "seed003"],
                       capture_output=True, text=True)
    assert r.returncode == 0
    assert r.stdout.count(": valid") == 6
    r = subprocess.run([sys.executable, "-m", "levels", "frobnicate"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_convert_refuses_what_xsb_cannot_hold_and_show_notes_it(tmp_path):
    src = tmp_path / "clash.pro"
    src.write_text("filas(1).\ncolumnas(2).\npista(1, 1, j).\npista(1, 2, o).\npista(1, 2, c).\n")
    code, out = run("convert", str(src), str(tmp_path / "clash.xsb"))
    assert code == 1 and "cannot draw the level as XSB text" in out
    assert not (tmp_path / "clash.xsb").exists()
    code, out = run("show", str(src))
    assert code == 0 and "#@$#" in out and "note: 1 box(es) on a wall: (2, 1)" in out
