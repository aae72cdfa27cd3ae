"""``python -m impl solve``: output, exit statuses, solution files."""

import os
import re
import shutil
import subprocess
import sys

import pytest

import levels
from impl.commands import main as impl_main
from impl.solver.cli import main

LEVELS = """; first
#######
#@$  .#
#######

; second
#####
#$  #
#  .#
# @ #
#####
"""


@pytest.fixture
def level_file(tmp_path):
    path = tmp_path / "two.sok"
    path.write_text(LEVELS)
    return path


def test_solves_every_level_and_reports_each(level_file, capsys):
    status = main([str(level_file), "--time-limit", "10"])
    out = capsys.readouterr().out
    assert status == 1  # the second level is unsolvable
    assert "first (level 1): solved moves=3 pushes=3" in out
    assert "\nRRR\n" in out
    assert "second (level 2): unsolvable" in out
    assert "total: 1 solved, 1 unsolvable of 2 levels" in out


def test_one_level_exit_zero(level_file, capsys):
    assert main([str(level_file), "--level", "1"]) == 0
    assert "solved" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--level", "3"], "no level 3 (there are 2 levels"),
    (["--level", "third"], "no level titled 'third' among the 2 levels: first (level 1)"),
    (["--level", "0"], "no level 0"),
    (["--time-limit", "0"], "--time-limit must be positive"),
])
def test_bad_level_numbers_and_limits(level_file, capsys, args, message):
    assert main([str(level_file), *args]) == 2
    assert message in capsys.readouterr().err


def test_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main([str(tmp_path / "nope.sok")]) == 2
    err = capsys.readouterr().err
    assert "nope.sok" in err and "Traceback" not in err


def test_broken_file_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.sok"
    bad.write_text("#####\n#@$.#\n#x###\n")
    assert main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.sok" in err and "Traceback" not in err


def test_bundled_collection_name(capsys):
    assert main(["seed003", "--level", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Nivel 2 (level 3): solved")


@pytest.mark.parametrize("choice", ["4", "Nivel 3", "nivel3"])
def test_seed003_levels_by_the_seed_names(capsys, choice):
    assert main(["seed003", "--level", choice, "--quiet"]) == 1
    assert capsys.readouterr().out.startswith("Nivel 3 (level 4): unsolvable")


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600)])
def test_write_solutions_respects_the_umask(level_file, tmp_path, capsys, umask, mode):
    out = tmp_path / "solved.sok"
    old = os.umask(umask)
    try:
        assert main([str(level_file), "--level", "1", "--write-solutions", str(out)]) == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["solved.sok", "two.sok"]


def test_invalid_level_is_reported(tmp_path, capsys):
    f = tmp_path / "nogoal.sok"
    f.write_text("#####\n#@$ #\n#####\n")
    assert main([str(f)]) == 2
    assert "invalid" in capsys.readouterr().out


def test_write_solutions_round_trips(level_file, tmp_path, capsys):
    out = tmp_path / "solved.sok"
    assert main([str(level_file), "--write-solutions", str(out)]) == 1
    written = levels.read_file(out)
    assert [lv.solutions for lv in written] == [("RRR",), ()]
    assert levels.lurd.solves(written[0], written[0].solutions[0])
    # never over an existing file without --force, never over the input
    before = out.read_text()
    assert main([str(level_file), "--write-solutions", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert out.read_text() == before
    assert main([str(level_file), "--level", "1", "--write-solutions", str(out),
                 "--force"]) == 0
    assert len(levels.read_file(out)) == 1
    original = level_file.read_text()
    assert main([str(level_file), "--write-solutions", str(level_file), "--force"]) == 2
    assert "input file" in capsys.readouterr().err
    assert level_file.read_text() == original


def test_write_solutions_keeps_the_file_notes_and_snapshots(tmp_path):
    f = tmp_path / "mine.sok"
    f.write_text("Collection: Mine\nSome notes.\n\nOne\n\n######\n#@$ .#\n######\n\n"
                 "Saved game\nR\n\nSolver: me\n")
    out = tmp_path / "solved.sok"
    assert main([str(f), "--write-solutions", str(out), "--quiet"]) == 0
    written = levels.read_collection(str(out))
    assert (written.metadata, written.notes) == ({"Collection": "Mine"}, "Some notes.")
    (lv,) = written.levels
    assert lv.snapshots == (levels.Snapshot("R", "Saved game", metadata={"Solver": "me"}),)
    assert lv.title == "One" and levels.lurd.solves(lv, lv.solutions[0])


def test_bomb_solutions_are_kept_under_their_own_key(tmp_path):
    f = tmp_path / "bomb.sok"
    f.write_text("#######\n#@$#. #\n#######\nBombs: 1\n")
    out = tmp_path / "out.sok"
    assert main([str(f), "--write-solutions", str(out), "--quiet"]) == 0
    (written,) = levels.read_file(out)
    assert written.solutions == ()
    assert "B" in written.metadata["Bomb-Solution"]


def test_progress_goes_to_stderr(capsys, monkeypatch):
    import impl.solver.search as search
    monkeypatch.setattr(search, "PROGRESS_INTERVAL", 0.0)
    assert main(["microban", "--level", "16", "--method", "moves", "--progress",
                 "--quiet", "--node-limit", "600"]) in (0, 1)
    captured = capsys.readouterr()
    assert "level 16" in captured.out and "nodes=" not in captured.out.split("\n", 1)[1]
    assert "level 16: " in captured.err and "nodes/s=" in captured.err


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed: no native kernel")
def test_progress_of_a_native_search_goes_to_stderr(capsys, monkeypatch):
    import impl.solver.search as search
    monkeypatch.setattr(search, "PROGRESS_INTERVAL", 0.0)
    assert main(["microban", "--level", "153", "--method", "pushes", "--engine", "native",
                 "--progress", "--quiet", "--node-limit", "3000"]) == 1
    captured = capsys.readouterr()
    assert "method=pushes (native)" in captured.out
    assert "level 153: " in captured.err and " depth=" in captured.err
    counts = [int(n) for n in re.findall(r"nodes=(\d+) ", captured.err)]
    assert " frontier=" in captured.err and len(set(counts)) >= 2, captured.err
    assert counts == sorted(counts) and 0 < counts[-1] <= 3000, counts


def test_no_progress_when_not_asked_and_not_a_terminal(capsys, monkeypatch):
    import impl.solver.search as search
    monkeypatch.setattr(search, "PROGRESS_INTERVAL", 0.0)
    main(["microban", "--level", "16", "--method", "moves", "--quiet",
          "--node-limit", "600"])
    assert capsys.readouterr().err == ""


def test_dispatcher(capsys, monkeypatch):
    assert impl_main([]) == 2
    assert impl_main(["--help"]) == 0
    assert "solve" in capsys.readouterr().out
    assert impl_main(["frobnicate"]) == 2
    assert "unknown subcommand" in capsys.readouterr().err
    # ``play`` belongs to another module; when it is missing we say so
    monkeypatch.setitem(sys.modules, "impl.play", None)
    assert impl_main(["play"]) == 2
    assert "not available" in capsys.readouterr().err


def test_python_dash_m(level_file):
    proc = subprocess.run([sys.executable, "-m", "impl", "solve", str(level_file),
                           "--level", "1"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "RRR" in proc.stdout


def test_jobs_solve_in_parallel_and_print_in_level_order(level_file, capsys):
    status = main([str(level_file), "--jobs", "2", "--time-limit", "10", "--quiet"])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[0].startswith("first (level 1): solved moves=3 pushes=3")
    assert out[1].startswith("second (level 2): unsolvable")
    assert out[2].startswith("total: 1 solved, 1 unsolvable of 2 levels; solved 1/2 in ")
    assert out[2].endswith("2 jobs)")


def test_jobs_never_fork_a_threaded_process(level_file, capsys):
    """The workers start from a fork server (or spawn), not by copying this
    process while another thread runs: no "multi-threaded, use of fork()"
    warning (Python 3.12 and later), an error here."""
    import threading
    import warnings

    from impl.solver.cli import pool_context

    assert pool_context().get_start_method() in ("forkserver", "spawn")
    stop = threading.Event()
    busy = threading.Thread(target=stop.wait)
    busy.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            status = main([str(level_file), "--jobs", "2", "--time-limit", "10", "--quiet"])
    finally:
        stop.set()
        busy.join()
    assert status == 1 and "second (level 2): unsolvable" in capsys.readouterr().out


def test_jobs_must_be_positive(level_file, capsys):
    assert main([str(level_file), "--jobs", "0"]) == 2
    assert "--jobs must be positive" in capsys.readouterr().err


def test_parallel_progress_counts_levels_on_stderr(level_file, capsys):
    main([str(level_file), "--jobs", "2", "--progress", "--quiet"])
    err = capsys.readouterr().err
    assert "/2 done" in err and "Traceback" not in err


def test_summary_says_when_a_solution_is_not_optimal(capsys):
    assert main(["microban", "--level", "1", "--method", "pushes", "--quiet"]) == 0
    assert " optimal=no " in capsys.readouterr().out
    assert main(["microban", "--level", "1", "--method", "moves", "--quiet"]) == 0
    assert " optimal=moves " in capsys.readouterr().out
