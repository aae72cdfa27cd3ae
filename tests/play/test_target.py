"""``sokoban play TARGET`` without a terminal: the game's logic on a target
played by the referee (conformance.live.referee: the target in the sandbox, the
spec beside it), the panel laid out, and bad targets refused."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import levels
from conformance import mutants
from conformance.profiles.aed2 import mutants as aed2_mutants
from conformance.live.referee import Referee
from conformance.checking.targets import BadTarget
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


def _cpp_broken(folder: Path) -> None:
    from conformance.profiles.aed2 import mutants as cpp
    shutil.copytree(cpp.REFERENCE, folder)
    with open(folder / "Mapa.cpp", "a") as f:
        f.write("int broken(\n")


@pytest.mark.parametrize("make, says", [
    (lambda d: (d / "soko.py").write_text("def crear_grilla(:\n"),
     "syntax error at soko.py, line 1"),
    (lambda d: (d / "soko.py").write_text("raise RuntimeError('boom')\n"),
     "importing it raised RuntimeError: boom (" ),
    (lambda d: [(d / n).write_text("") for n in ("a.py", "b.py")],
     "a folder must be a package (with __init__.py) or hold soko.py"),
    pytest.param(_cpp_broken, "compile errors: ", marks=pytest.mark.skipif(
        shutil.which("g++") is None, reason="g++ is not installed: nothing to compile with")),
    pytest.param(lambda d: (d / "sokoban.pro").write_text("sokoban(P) :- foo(.\n"),
                 "does not define action/2, perform/3, sokoban/1", marks=pytest.mark.skipif(
                     shutil.which("swipl") is None, reason="swipl (SWI-Prolog) is not installed")),
], ids=["syntax-error", "crashes-on-import", "two-files", "cpp-compile-error",
        "prolog-lacks-predicates"])
def test_sokoban_play_with_a_bad_target_exits_2_with_one_line(tmp_path, make, says):
    sokoban = Path(sys.executable).parent / "sokoban"
    if not sokoban.exists():
        pytest.skip("console script sokoban not installed (pip install -e .)")
    folder = tmp_path / "student"
    if make is not _cpp_broken:
        folder.mkdir()
    make(folder)
    r = subprocess.run([str(sokoban), "play", "student"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("sokoban play: ")
    assert says in r.stderr


@pytest.mark.parametrize("kind", ["soko", "cpp"])
def test_sokoban_play_says_a_bad_isolation_level_is_the_environments(tmp_path, kind):
    """A bad SOKOBAN_ISOLATION is said as what it is, before the target is
    opened (a C++ folder is not even built), not as a target that cannot be
    loaded or played."""
    sokoban = Path(sys.executable).parent / "sokoban"
    if not sokoban.exists():
        pytest.skip("console script sokoban not installed (pip install -e .)")
    target = (mutants.copy_to("student_soko", tmp_path / "student", "soko.py") if kind == "soko"
              else shutil.copytree(aed2_mutants.REFERENCE, tmp_path / "src"))
    env = {**os.environ, "SOKOBAN_ISOLATION": "sideways", "XDG_CACHE_HOME": str(tmp_path / "c")}
    r = subprocess.run([str(sokoban), "play", str(target)], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 2 and r.stderr.splitlines() == [
        "sokoban play: SOKOBAN_ISOLATION=sideways: not a level (bwrap, user, best-effort)"], \
        r.stderr
    assert not (tmp_path / "c").exists()            # nothing was built


# -- the other profiles: tad, extendido (seed 001's game), aed2, prolog

WALK_BOMB = ("; Walk\n#######\n#@ $ .#\n#     #\n#######\n\n"
             "; Bomb\n#######\n#@$ #.#\n#######\nBombs: 1\n")


def test_a_tad_module_stops_on_its_rule_and_a_correct_one_wins():
    s = session("tad_pushes_two_boxes")
    try:
        assert s.referee.profile == "tad" and s.referee.view().bombs is None
        s.do("right")
        assert s.panel[0].startswith(f"Departure at move 1: {mutants.RULES['tad_pushes_two_boxes']}:")
        s.do("undo")
        assert s.panel is None and s.moves == 0
    finally:
        s.referee.close()
    s = session("student_tad")
    try:
        s.do("bomb")
        assert s.message == ["No bombs in seed 000's game."]
        for command in ("down", "right", "right", "up", "left", "right", "up"):
            s.do(command)
        assert s.panel is None and s.moves == 5
    finally:
        s.referee.close()


def test_seed_001s_game_counts_undoes_throws_bombs_and_moves_on_to_the_next_level():
    referee = Referee(str(mutants.path("student_extendido")), in_process=True)
    s = TargetSession(levels.parse_xsb(WALK_BOMB), 0, referee)
    try:
        assert referee.profile == "extendido" and referee.sequence
        assert "Bombs 0" in s.status_forms()[0][0]
        s.do("undo")
        assert s.message == ["Nothing to undo on this level (the history does not cross levels)."]
        assert referee.codes == []                          # not asked
        s.do("right"), s.do("right")
        assert (s.moves, referee.pushes()) == (2, 1)
        s.do("undo")
        assert s.message == ["Undone."] and (s.moves, referee.pushes()) == (1, 0)
        assert referee.codes == ["r", "r", "z"]             # deshacer, played on both
        s.do("up")
        assert s.message[0].startswith("Blocked") and referee.codes == ["r", "r", "z"]
        s.do("right"), s.do("right")                        # won: on to level 2 in the same game
        assert s.message[0] == ("Solved Walk (level 1) in 3 moves, 2 pushes, every action "
                                "as the spec plays it! Now Bomb (level 2).")
        assert s.level.title == "Bomb" and s.moves == 0 and referee.view().index == 1
        assert any("b bomb" in form[0] for form in s.help_forms())
        s.do("bomb")
        assert s.message[0].startswith("Boom: the walls in column 1 and row 1 are gone")
        s.do("bomb")
        assert s.message == ["No bombs left on this level."]
        s.do("right"), s.do("right"), s.do("right")
        assert s.solved == 2 and "That was the last level" in s.message[1] and s.panel is None
    finally:
        referee.close()


def test_seed_001s_game_holds_a_few_levels_and_a_new_game_starts_after_them():
    from conformance.machines.base import GAME_LEVELS
    short = "".join(f"; L{i}\n#####\n#@$.#\n#####\n\n" for i in range(GAME_LEVELS + 1))
    referee = Referee(str(mutants.path("student_extendido")), in_process=True)
    s = TargetSession(levels.parse_xsb(short), 0, referee)
    try:
        assert len(referee.levels) == GAME_LEVELS      # (a departure's replay holds them all)
        for solved in range(1, GAME_LEVELS + 2):
            s.do("right")
            assert s.solved == solved and s.panel is None
            if solved <= GAME_LEVELS:
                assert s.level.title == f"L{solved}" and s.message[0].endswith(
                    f"Now L{solved} (level {solved + 1}).")
        assert "That was the last level" in s.message[1]
    finally:
        referee.close()


def test_an_undo_that_departs_stops_on_its_rule_and_the_panel_goes_back_a_step():
    referee = Referee(str(mutants.path("ext_undo_forgets_box")), in_process=True)
    s = TargetSession(levels.parse_xsb(WALK_BOMB), 0, referee)
    try:
        s.do("right"), s.do("right"), s.do("undo")
        assert s.panel[0].startswith("Departure at action 3 (an undo): ext.undo:")
        assert any(isinstance(p, list) and any("# @$ .#" in l for l in p) for p in s.panel)
        s.do("undo")                                       # the panel's u: replayed to before
        assert s.panel is None and referee.codes == ["r", "r"] and s.moves == 2
    finally:
        referee.close()


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed: a C++ aed2 "
                    "folder cannot be built")
def test_a_cpp_folder_plays_as_aed2_in_seed_001s_directions():
    from conformance.profiles.aed2 import mutants as cpp
    referee = Referee(str(cpp.REFERENCE))
    try:
        assert referee.profile == "aed2" and referee.sequence
        s = TargetSession(levels.parse_xsb(LEVELS), 0, referee)
        s.do("down")                                       # south is south: (1, 2)
        assert s.panel is None and s.board().player == (1, 2)
    finally:
        referee.close()
    referee = Referee(str(cpp.materialize(cpp.BY_NAME["chain_push"])))
    try:                    # puede_mover(DERECHA) into two boxes is true: at the start
        s = TargetSession(levels.parse_xsb(LEVELS), 0, referee)
        assert s.panel[0].startswith("Departure at the start: ext.can-move:")
        assert "--directions seed001" in s.panel[-1]
    finally:
        referee.close()


@pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl (SWI-Prolog) is not installed: "
                    "a Prolog program cannot run")
def test_a_prolog_program_plays_on_its_own_perform_results(tmp_path):
    from conformance.profiles.prolog import mutants as pro
    referee = Referee(str(pro.REFERENCE))
    try:
        assert referee.profile == "prolog" and referee.default_levels == "seed003"
        s = TargetSession(levels.parse_xsb(WALK_BOMB), 0, referee)
        s.do("up")
        assert s.message[0].startswith("Blocked") and referee.codes == []
        s.do("right"), s.do("right")
        assert s.panel is None and (s.moves, referee.pushes()) == (2, 1)
        answer = referee.game.machine.answer           # what the program said of this state
        assert answer.kind == "ok" and len(answer.value) == 3
        s.do("right")
        assert s.level.title == "Bomb" and s.solved == 1   # (no bombs in seed 003: one push)
    finally:
        referee.close()
    referee = Referee(str(pro.materialize("push_leaves_box", tmp_path)))
    try:
        s = TargetSession(levels.parse_xsb(WALK_BOMB), 0, referee)
        s.do("right")
        assert s.panel[0].startswith("Departure at move 1: prolog.effects:")
        assert "What went wrong: perform/3 on pushRight" in s.panel[2]
        assert s.panel[2].endswith("the boxes should be at [[1, 4]]")
        after = s.panel.index(next(p for p in s.panel if isinstance(p, str)
                                   and p.startswith("After pushRight")))
        drawn = s.panel[after + 1]          # the spec's state, the program's, the marks
        assert drawn[0].split() == ["the", "spec", "its", "state", "differ"]
        assert any("!" in line for line in drawn)   # its player on the box it left behind
    finally:
        referee.close()


def test_a_prolog_file_is_a_target_and_a_prolog_level_is_levels(tmp_path):
    from conformance.profiles.prolog import mutants as pro
    from sokoban_tad import _is_target
    level = tmp_path / "nivel0.pro"
    level.write_text("filas(1).\ncolumnas(3).\npista(1, 1, j).\npista(1, 2, c).\npista(1, 3, x).\n")
    assert _is_target(str(pro.REFERENCE / "sokoban.pro")) and _is_target(str(pro.REFERENCE))
    assert not _is_target(str(level)) and not _is_target("seed003")
    assert _is_target(str(tmp_path)) and _is_target("soko.py")


# -- which profile a target plays under: the one asked for, or as a check picks

def test_a_soko_py_lacking_an_observer_plays_as_a_check_checks_it(tmp_path):
    """A soko.py without ``dimensiones`` is checked on the rest (a partial
    check); it plays too, the missing observer left out of the comparison."""
    soko = mutants.copy_to("student_soko", tmp_path / "student", "soko.py")
    soko.write_text(soko.read_text().replace("def dimensiones(", "def _dimensiones("))
    referee = Referee(str(soko), in_process=True)
    s = TargetSession(levels.parse_xsb(LEVELS), 0, referee)
    try:
        assert referee.profile == "soko"
        for command in ("down", "right", "right", "up", "left", "right"):
            s.do(command)
            assert s.panel is None
        s.do("next"), s.do("right")
        assert s.solved == 1 and s.panel is None
    finally:
        referee.close()


def test_a_target_of_two_profiles_plays_the_richer_unless_asked(tmp_path):
    folder = tmp_path / "both"
    mutants.copy_to("student_tad", folder)
    mutants.copy_to("student_extendido", folder)
    (folder / "both.py").write_text("from student_tad import iniciar, step, estado, completado\n"
                                    "from student_extendido import *\n")
    for asked, plays in ((None, "extendido"), ("tad", "tad"), ("extendido", "extendido")):
        referee = Referee(str(folder / "both.py"), in_process=True, profile=asked)
        try:
            assert referee.profile == plays and referee.sequence == (plays == "extendido")
        finally:
            referee.close()
    with pytest.raises(BadTarget, match="does not provide the operations of profile soko:\n"
                                        "  soko: has 3 of 8; missing crear_grilla"):
        Referee(str(folder / "both.py"), in_process=True, profile="soko")
    with pytest.raises(BadTarget, match="profile aed2 is for a folder of C\\+\\+ sources"):
        Referee(str(folder / "both.py"), in_process=True, profile="aed2")


def test_sokoban_play_profile_is_checked_before_anything_is_opened(tmp_path):
    sokoban = Path(sys.executable).parent / "sokoban"
    if not sokoban.exists():
        pytest.skip("console script sokoban not installed (pip install -e .)")
    soko = mutants.copy_to("student_soko", tmp_path / "student", "soko.py")
    for args, says in ((["--profile", "bogus"], "--profile bogus: no such profile; known: "
                                                "soko, extendido, tad, aed2, prolog"),
                       (["--profile=tad"], "does not provide the operations of profile tad"),
                       (["--profile"], "argument --profile: expected one argument")):
        r = subprocess.run([str(sokoban), "play", str(soko), *args], capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 2 and "Traceback" not in r.stderr and says in r.stderr, r.stderr
    r = subprocess.run([str(sokoban), "play", "--profile", "tad"], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 2 and "--profile is for 'sokoban play TARGET'" in r.stderr
