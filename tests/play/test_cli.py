"""``impl.play.main`` in process: argument and file errors (exit 2 before any
terminal is touched) and the one-line report of an unexpected error."""

from __future__ import annotations

import io

import pytest

import impl.play
from impl.play import cli, tui


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("argv, message", [
    (["/no/such/level.sok"], "/no/such/level.sok: no such file"),
    (["tutorial", "--level", "0"], "tutorial: no level 0 (there are 6 levels, numbered from 1)"),
    (["seed002", "--level", "2"], "seed002: no level 2 (there is 1 level, numbered from 1)"),
    (["seed003", "--level", "Nivel 9"], "seed003: no level titled 'Nivel 9' among the 6 levels"),
    (["tutorial", "--hint-time", "0"], "--hint-time must be positive"),
])
def test_bad_input_exits_2_with_one_line(argv, message, capsys):
    assert impl.play.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"python -m impl play: {message}") and err.count("\n") == 1


def test_a_level_file_with_a_bad_character(tmp_path, capsys):
    bad = tmp_path / "bad.xsb"
    bad.write_text("#####\n#@$.#\n##X##\n")
    assert impl.play.main([str(bad)]) == 2
    err = capsys.readouterr().err  # the file, line and column, and the character
    assert err.startswith(f"python -m impl play: {bad}:3:3: ") and "'X'" in err
    assert err.count("\n") == 1


def test_an_invalid_start_level(tmp_path, capsys):
    bad = tmp_path / "two.xsb"
    bad.write_text("; No goal\n####\n#@$#\n####\n")
    assert impl.play.main([str(bad)]) == 2
    err = capsys.readouterr().err  # the reason is levels.validate's sentence
    assert err.startswith(f"python -m impl play: {bad}: No goal (level 1) cannot be played: ")
    assert "goal" in err and err.count("\n") == 1


def test_bad_options_exit_2(capsys):
    assert impl.play.main(["--hint-time", "x"]) == 2
    assert "invalid float value" in capsys.readouterr().err


def test_start_level_by_the_seed_name():
    import levels
    from impl.play.cli import check_start
    seed003 = levels.load("seed003")
    assert check_start(seed003, "Nivel 3", "seed003") == check_start(seed003, "4", "seed003") == 3


def test_help_exits_0(capsys):
    assert impl.play.main(["--help"]) == 0
    assert "--fast" in capsys.readouterr().out


def test_no_terminal_exits_2(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO())
    assert impl.play.main(["tutorial"]) == 2
    assert "needs a terminal" in capsys.readouterr().err


def test_an_unexpected_error_is_reported_in_one_line(capsys, monkeypatch):
    def broken(session):
        raise RuntimeError("the screen fell off")

    monkeypatch.setattr("sys.stdin", FakeTTY())
    monkeypatch.setattr("sys.stdout", FakeTTY())
    monkeypatch.setenv("SOKOBAN_CONTRACTS", "1")  # main sets it; restored afterwards
    monkeypatch.setattr(tui, "run", broken)
    assert impl.play.main(["tutorial", "--level", "2"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("python -m impl play: internal error: RuntimeError: "
                          "the screen fell off (at ")
    assert "test_cli.py" in err and err.count("\n") == 1


def test_quitting_reports_the_levels_solved(monkeypatch):
    out = FakeTTY()

    def two_wins(session):
        for command in ["right"] * 3 + ["down", "right", "right", "up", "right", "down"]:
            session.do(command)

    monkeypatch.setattr("sys.stdin", FakeTTY())
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setenv("SOKOBAN_CONTRACTS", "1")
    monkeypatch.setattr(tui, "run", two_wins)
    assert impl.play.main(["tutorial"]) == 0
    assert out.getvalue() == "python -m impl play: solved 2 levels; bye.\n"
    assert cli.DEFAULT_COLLECTION == "tutorial"
