"""``sokoban play TARGET`` without a terminal: the game's logic on a target
played by the referee (conformance.referee: the target in the sandbox, the
spec beside it), the panel laid out, and bad targets refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import levels
from conformance import mutants
from conformance.referee import Referee
from conformance.targets import BadTarget
from impl.play import view
from impl.play.target import TargetSession

LEVELS = "; Two boxes\n#######\n#@$$ .#\n#   . #\n#######\n\n; Short\n#####\n#@$.#\n#####\n"


def session(name: str, in_process: bool = True) -> TargetSession:
    referee = Referee(str(mutants.path(name)), in_process=in_process)
    return TargetSession(levels.parse_xsb(LEVELS), 0, referee)


def test_a_departure_stops_the_game_on_a_panel_and_undo_replays_to_the_step_before():
    s = session("soko_pushes_two_boxes", in_process=False)      # in the sandbox
    try:
        assert s.panel is None and s.board().player == (1, 1)
        assert s.do("right")
        assert s.panel[0].startswith("Departure at move 1: soko.push-blocked: ")
        assert any("En caso contrario" in p for p in s.panel if isinstance(p, str))
        frame = view.render(s, 80, 24, view.Viewport())
        assert "|#@$$ .#|          |# @$$.#|" in frame.text()
        assert frame.lines[-1].startswith("arrows scroll  u undo (back one step)  q quit")
        s.do("left"), s.do("next"), s.do("restart")               # stopped: nothing plays
        assert s.panel is not None and s.referee.codes == ["r"]   # (refused by the spec: no move)
        s.do("undo")
        assert s.panel is None and s.moves == 0 and s.board().player == (1, 1)
        assert s.message == ["Undone (the level replayed to the step before)."]
        s.do("down")                                              # a legal move goes on
        assert s.panel is None and s.moves == 1
    finally:
        s.referee.close()


def test_a_correct_student_plays_with_no_panel_and_wins():
    s = session("student_soko_dict_sets")
    for command in ("down", "right", "right", "up", "left", "right"):
        s.do(command)
        assert s.panel is None
    assert s.moves == 5                      # up was blocked: not a move (as impl's game counts)
    s.do("next")
    assert s.moves == 0 and s.level.title == "Short"
    s.do("right")
    assert s.solved == 1 and s.panel is None and "That was the last level" in s.message[1]
    assert s.message[0] == ("Solved Short (level 2) in 1 move, 1 push, every action as the "
                            "spec plays it!")


def test_a_panel_too_long_for_the_screen_keeps_its_rule_and_scrolls():
    panel = ["Departure at move 3: soko.push: a rule", "words", ["|###|", "|#@#|"], "Replay: x"]
    rows = view.panel_lines(panel, 40, 3)
    assert rows == ["Departure at move 3: soko.push: a rule", "words", "..."]
    assert view.panel_lines(panel, 40, 3, top=2) == [
        "Departure at move 3: soko.push: a rule", "...", "Replay: x"]


@pytest.mark.parametrize("files, target, says", [
    ({}, "nowhere.py", "nowhere.py: no such file"),
    ({"mine.py": "def hola():\n    return 1\n"}, "mine.py",
     "does not provide the operations of any profile"),
    ({"a.py": "", "b.py": ""}, ".", "a folder must be a package .* found a.py, b.py"),
])
def test_a_bad_target_is_refused(tmp_path, monkeypatch, files, target, says):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BadTarget, match=says):
        Referee(target)


def test_sokoban_play_with_a_bad_target_exits_2_without_a_traceback(tmp_path):
    sokoban = Path(sys.executable).parent / "sokoban"
    if not sokoban.exists():
        pytest.skip("console script sokoban not installed (pip install -e .)")
    (tmp_path / "soko.py").write_text("def crear_grilla(:\n", encoding="utf-8")
    r = subprocess.run([str(sokoban), "play", "soko.py"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "sokoban play: " in r.stderr and "syntax error at soko.py, line 1" in r.stderr
