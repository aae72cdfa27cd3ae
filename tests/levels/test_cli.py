"""python -m levels check|show|convert."""

import io
import os
import stat
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
    assert lines[0] == f"{micro}: level 1: 6 x 7, 2 boxes: valid"
    assert f"{micro}: 44 'Duh!' (level 44): 5 x 3, 1 box: valid" in lines
    assert f"{micro}: 155 levels, 155 valid, 0 invalid" in lines
    assert f"{pro}: Nivel 3 (level 1): 8 x 6, 3 boxes: valid" in lines


def test_check_reports_invalid_levels_and_exits_1(tmp_path):
    f = tmp_path / "bad.sok"
    f.write_text("; good\n#####\n#@$.#\n#####\n\n; bad\n#####\n#@$ #\n#####\n")
    code, out = run("check", str(f))
    assert code == 1
    assert f"{f}: bad (level 2): 5 x 3, 1 box: INVALID: 1 box but 0 goals" in out
    assert f"{f}: 2 levels, 1 valid, 1 invalid" in out
    code, out = run("check", "--rules", "soko", str(f))
    assert code == 0


def test_check_unparsable_file_says_where(tmp_path):
    f = tmp_path / "broken.xsb"
    f.write_text("#####\n#@$x#\n#####\n")
    code, out = run("check", str(f))
    assert code == 1
    assert f"{f}: level 1: skipped (line 2, column 4): unexpected character 'x'" in out
    assert f"{f}: 0 levels, 0 valid, 0 invalid; 1 skipped" in out
    code, out = run("check", "--strict", str(f))
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
    assert out.splitlines() == ["level 1: 6 x 7, 2 boxes, 2 goals",
                                "####", "# .#", "#  ###", "#*@  #", "#  $ #", "#  ###", "####"]
    code, out = run("show", "tutorial", "--level", "5")
    assert code == 0 and ", 1 bomb\n" in out and "Comment: A bomb" in out


def test_show_errors():
    assert run("show", "microban")[0] == 2  # which level?
    code, out = run("show", "microban", "--level", "156")
    assert code == 2 and "no level 156 (there are 155 levels, numbered from 1)" in out
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
    assert code == 2 and "refusing to overwrite an input file" in out
    assert src.read_bytes() == before
    dst = tmp_path / "b.sok"
    dst.write_text("precious")
    code, out = run("convert", str(src), str(dst))
    assert code == 2 and "already exists; use --force" in out
    assert dst.read_text() == "precious"
    assert run("convert", str(src), str(dst), "--force")[0] == 0
    assert levels.read_file(dst) == levels.read_file(src)


def test_seed003_levels_are_chosen_and_printed_by_the_seed_names():
    by_number = run("show", "seed003", "--level", "4")
    assert by_number[0] == 0
    assert by_number[1].startswith("Nivel 3 (level 4): 8 x 6, 3 boxes, 3 goals\n")
    for name in ("Nivel 3", "nivel3", "NIVEL-3"):
        assert run("show", "seed003", "--level", name) == by_number
    code, out = run("check", "seed003")
    assert "seed003: Nivel 0 (level 1): 5 x 4, 1 box: valid" in out
    code, out = run("show", "seed003", "--level", "Nivel 9")
    assert code == 2 and "no level titled 'Nivel 9' among the 6 levels: Nivel 0 (level 1)" in out


def test_convert_many_levels_to_prolog_writes_one_file_each(tmp_path):
    out_file = tmp_path / "mylevels.pl"
    code, out = run("convert", "seed003", str(out_file))
    assert code == 0, out
    assert not out_file.exists()
    assert out == f"wrote 6 levels to {tmp_path / 'mylevels-1.pl'} ... {tmp_path / 'mylevels-6.pl'}\n"
    for i, lv in enumerate(levels.load("seed003"), start=1):
        (back,) = levels.read_file(tmp_path / f"mylevels-{i}.pl")
        assert back == lv.__class__(**{**lv.__dict__, "number": 1})
    # One existing target: nothing is written, nothing is overwritten.
    for i in range(1, 7):
        (tmp_path / f"mylevels-{i}.pl").unlink()
    (tmp_path / "mylevels-4.pl").write_text("precious")
    code, out = run("convert", "seed003", str(out_file))
    assert code == 2 and "mylevels-4.pl: already exists; use --force" in out
    assert not (tmp_path / "mylevels-1.pl").exists()
    assert (tmp_path / "mylevels-4.pl").read_text() == "precious"


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_convert_respects_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        assert run("convert", "microban", str(tmp_path / "all.sok"))[0] == 0
        assert run("convert", "seed003", str(tmp_path / "s.pl"), "--level", "2")[0] == 0
    finally:
        os.umask(old)
    for name in ("all.sok", "s.pl"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.sok", "s.pl"]  # no temporary left


def test_convert_usage_errors(tmp_path):
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
    assert code == 0 and "#@$#" in out and "note: 1 box on a wall: (2, 1)" in out
