"""``python -m impl play`` driven end to end in a real terminal: tmux.

Each test starts its own tmux server (a private socket),
runs the game in an 80x24 (or smaller) window, types with ``send-keys`` and
reads the screen with ``capture-pane``, polling until the expected text shows
up (bounded by :data:`TIMEOUT`).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

TIMEOUT = 60.0  # seconds; a passing run takes a fraction of it (a loaded CI machine
#                 once took more than 15 s to draw the first screen)
ROOT = Path(__file__).resolve().parents[2]

GAME = """\
; Push twice
######
#@$ .#
######

; Bomb
#######
#@$ #.#
#######
Comment: Throw the bomb, then push.
Bombs: 1

; Último
#####
#@$.#
#####
"""


class Terminal:
    """A tmux window running one command."""

    def __init__(self, command: str, width: int = 80, height: int = 24):
        # A private server; its socket in a short directory of its own (a
        # socket path has a length limit that tmp_path may exceed).
        self.dir = tempfile.mkdtemp(prefix="play-tmux-")
        self.socket = os.path.join(self.dir, "s")
        env = os.environ.copy()
        env.pop("TMUX", None)
        env["TERM"] = "xterm-256color"
        # Keep the shell open after the game ends so its exit status can be read.
        script = f"cd {shlex.quote(str(ROOT))} && {command}; echo \"EXIT=$?\"; sleep 60"
        self._tmux("new-session", "-d", "-x", str(width), "-y", str(height),
                   "sh", "-c", script, env=env)

    def _tmux(self, *args, env=None) -> str:
        out = subprocess.run([TMUX, "-S", self.socket, "-f", os.devnull, *args],
                             capture_output=True, text=True, timeout=TIMEOUT, env=env)
        if out.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)}: {out.stderr.strip()}")
        return out.stdout

    def screen(self, escapes: bool = False) -> str:
        """The pane's text (with ``escapes``: with its SGR colour codes)."""
        return self._tmux("capture-pane", "-p", *(["-e"] if escapes else []))

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", *keys)

    def resize(self, width: int, height: int) -> None:
        self._tmux("resize-window", "-x", str(width), "-y", str(height))

    def wait_for(self, *texts: str, absent: str | None = None) -> str:
        """The screen once it shows every one of ``texts`` (and not
        ``absent``) and has stopped changing (two captures alike: a loaded
        machine can be caught halfway through a redraw); fails with the last
        screen after :data:`TIMEOUT`."""
        deadline = time.monotonic() + TIMEOUT
        before = None
        while True:
            screen = self.screen()
            if all(t in screen for t in texts) and (absent is None or absent not in screen):
                if screen == before:
                    return screen
                before = screen
                time.sleep(0.1)
                continue
            before = None
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {texts!r}; the screen:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run([TMUX, "-S", self.socket, "kill-server"], capture_output=True,
                       timeout=TIMEOUT)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def terminal():
    opened: list[Terminal] = []

    def open_(command: str, width: int = 80, height: int = 24) -> Terminal:
        t = Terminal(command, width, height)
        opened.append(t)
        return t

    yield open_
    for t in opened:
        t.close()


def play(*args: str) -> str:
    return " ".join([shlex.quote(sys.executable), "-m", "impl", "play",
                     *map(shlex.quote, args)])


def board(screen: str) -> list[str]:
    """The board's rows on the screen (walls start them), stripped."""
    return [line.strip() for line in screen.splitlines() if line.strip().startswith("#")]


def player_row(screen: str) -> str:
    """The screen row holding the character, stripped."""
    [row] = [line.strip() for line in screen.splitlines() if "@" in line]
    return row


def test_a_game_move_push_undo_win_bomb_contract_quit(terminal, tmp_path):
    game = tmp_path / "game.sok"
    game.write_text(GAME)
    t = terminal(play(str(game)))
    screen = t.wait_for("Level 1/3: Push twice  Moves 0  Pushes 0  Bombs 0  [contracts on]",
                        "q quit")
    assert board(screen) == ["######", "#@$ .#", "######"]
    assert "b bomb" not in screen  # level 1 has no bombs

    t.keys("Right")  # a push
    screen = t.wait_for("Moves 1  Pushes 1")
    assert board(screen)[1] == "# @$.#"
    t.keys("u")  # undo
    screen = t.wait_for("Moves 0  Pushes 0", "Undone.")
    assert board(screen)[1] == "#@$ .#"
    t.keys("Up")  # into a wall: nothing happens
    t.wait_for("Blocked")
    t.keys("d", "Right")  # WASD and an arrow: the box reaches the goal
    screen = t.wait_for("Solved Push twice (level 1) in 2 moves, 2 pushes! Now Bomb (level 2).",
                        "Level 2/3: Bomb  Moves 0  Pushes 0  Bombs 1", "b bomb")
    assert "Throw the bomb, then push." in screen
    assert board(screen) == ["#######", "#@$ #.#", "#######"]

    t.keys("b")  # the walls in row 1 and column 1 go
    screen = t.wait_for("Boom", "Bombs 0")
    # every wall in row 1 and in column 1 is gone
    assert board(screen) == ["# #####", "# #####"]
    assert player_row(screen) == "@$  ."
    t.keys("Right", "Right", "Right")
    screen = t.wait_for("Now Último (level 3).", "Level 3/3: Último")

    t.keys("b")  # no bomb left: the precondition refuses, shown in the game
    screen = t.wait_for("Contract broken (PreconditionViolation)", "bombas() > 0")
    assert "Level 3/3: Último  Moves 0" in screen
    t.keys("Right")
    screen = t.wait_for("That was the last level", absent="Contract broken")

    t.keys("q")
    screen = t.wait_for("EXIT=0")
    assert "solved 3 levels; bye." in screen


def test_the_games_screen_speaks_spanish_with_lang_es(terminal, tmp_path):
    game = tmp_path / "game.sok"
    game.write_text(GAME)
    t = terminal(play(str(game), "--lang", "es"))
    screen = t.wait_for("Nivel 1/3: Push twice  Movimientos 0  Empujes 0  Bombas 0  "
                        "[contratos activos]", "q salir")
    assert "flechas mover  u deshacer  r reiniciar  n/p nivel  h pista  q salir" in screen
    assert "b bomba" not in screen and "Level" not in screen and "q quit" not in screen
    t.keys("Right")
    t.wait_for("Movimientos 1  Empujes 1")
    t.keys("u")
    t.wait_for("Movimientos 0  Empujes 0", "Deshecho.")
    t.keys("Up")
    t.wait_for("Bloqueado: una pared, o una caja que no puede moverse hacia ahí.")
    t.keys("d", "Right")
    t.wait_for("¡Push twice (nivel 1) resuelto en 2 movimientos, 2 empujes! Ahora, Bomb",
               "Nivel 2/3: Bomb", "b bomba")
    t.keys("b")
    t.wait_for("¡Bum! Ya no están las paredes de la columna 1 y la fila 1", "Bombas 0")
    t.keys("q")
    screen = t.wait_for("EXIT=0")
    assert "1 nivel resuelto; ¡hasta luego!" in screen


def test_a_spanish_locale_speaks_spanish_and_bad_input_too(terminal, tmp_path):
    t = terminal("LANG=es_AR.UTF-8 " + play("tutorial", "--level", "99"))
    screen = t.wait_for("EXIT=2")
    assert "no hay nivel 99" in screen


def test_hint_and_fast_mode_on_a_bundled_collection(terminal):
    t = terminal(play("tutorial", "--level", "2", "--fast"))
    t.wait_for("Level 2/6: Around the corner", "[contracts off]")
    t.keys("h")
    screen = t.wait_for("Hint: walk 1 down, 1 right, then push the box right")
    assert "#::$ #" in board(screen)
    t.keys("n")
    t.wait_for("Level 3/6: Undo")
    coloured = t.screen(escapes=True)  # reverse status line, a cyan character, a yellow box
    assert "\x1b[7mLevel 3/6" in coloured
    assert "\x1b[36m@" in coloured and "\x1b[33m$" in coloured
    t.keys("p", "p")
    t.wait_for("Level 1/6: Walk and push")
    t.keys("q")
    t.wait_for("EXIT=0")


def test_a_level_larger_than_the_screen_scrolls(terminal, tmp_path):
    wide = tmp_path / "wide.xsb"
    wide.write_text("#" * 120 + "\n#@" + " " * 110 + "$.#\n" + "#" * 120 + "\n")
    t = terminal(play(str(wide)))
    screen = t.wait_for("Level 1/1", "#@")
    assert player_row(screen) == "#@" and "$" not in screen  # the box is off screen
    t.keys(*["Right"] * 100)
    screen = t.wait_for("Moves 100")
    assert player_row(screen) == "@" + " " * 10 + "$.#"  # scrolled to the right end


def test_a_terminal_too_small_says_so_and_recovers(terminal):
    t = terminal(play("tutorial"), width=24, height=8)
    t.wait_for("Terminal too small")
    t.keys("Right")  # ignored while too small
    t.resize(80, 24)
    screen = t.wait_for("Level 1/6: Walk and push  Moves 0")
    assert "#@  $.#" in board(screen)
    t.keys("q")
    t.wait_for("EXIT=0")


@pytest.mark.parametrize("args, message", [
    (("/no/such/file.sok",), "/no/such/file.sok: no such file"),
    (("tutorial", "--level", "7"), "tutorial: no level 7 (there are 6 levels"),
])
def test_bad_input_exits_2_without_entering_the_game(terminal, args, message):
    t = terminal(play(*args))
    screen = t.wait_for("EXIT=2")
    assert message in screen
    assert "Traceback" not in screen


def test_a_title_the_terminal_cannot_show_does_not_crash(terminal, tmp_path):
    level = tmp_path / "accents.xsb"
    level.write_text("; Último ñ\n#####\n#@$.#\n#####\n", encoding="utf-8")
    t = terminal("env LC_ALL=C LANG=C " + play(str(level)))  # an ASCII-only terminal
    t.wait_for("Level 1/1: ?ltimo ?  Moves 0")
    t.keys("q")
    t.wait_for("EXIT=0")


@pytest.mark.parametrize("width, height", [(60, 15), (40, 12), (32, 10)])
def test_a_narrow_terminal_shows_the_counts_contracts_and_every_key(terminal, width, height):
    """Below 80 columns the status and help lines wrap or abbreviate: the
    bomb count, the contracts state and the hint and quit keys stay visible."""
    t = terminal(play("tutorial", "--level", "5"), width=width, height=height)
    screen = t.wait_for("Bombs 1", "q quit", "h hint", "b bomb", "u undo")
    assert "on]" in screen and "Level 5/6" in screen
    assert all(len(line) <= width for line in screen.splitlines())
    t.keys("q")
    t.wait_for("EXIT=0")


# -- sokoban play TARGET: a student's soko.py with the spec beside it (issue 18)

TWO_BOXES = "; Two boxes\n#######\n#@$$ .#\n#   . #\n#######\n"
WALK = "; Walk\n#######\n#@ $ .#\n#     #\n#######\n\n; Second\n#####\n#@$.#\n#####\n"


def finish_the_second_level(t: Terminal, width: int) -> None:
    """The push that solves the second (last) level, then quit: the game
    says it was the last level, fits the width, and exits 0."""
    t.keys("Right")
    screen = t.wait_for("That was the last level", absent="Departure")
    assert all(len(line) <= width for line in screen.splitlines())
    t.keys("q")
    screen = t.wait_for("EXIT=0")
    assert "sokoban play: solved 2 levels; bye." in screen


def play_target(target: Path, levels_file: Path) -> str:
    sokoban = Path(sys.executable).parent / "sokoban"
    if not sokoban.exists():
        pytest.skip("console script sokoban not installed (pip install -e .)")
    return " ".join(shlex.quote(str(a)) for a in (sokoban, "play", target, levels_file))


@pytest.mark.parametrize("width, height", [(80, 24), (40, 12)])
def test_a_mutant_stops_on_the_panel_at_its_first_wrong_move(terminal, tmp_path, width, height):
    from conformance import mutants

    name = "soko_pushes_two_boxes"
    soko = mutants.copy_to(name, tmp_path / "student", "soko.py")
    level = tmp_path / "two.sok"
    level.write_text(TWO_BOXES)
    t = terminal(play_target(soko, level), width=width, height=height)
    screen = t.wait_for("Moves 0", "q quit")
    start = board(screen)
    assert start == ["#######", "#@$$ .#", "#   . #", "#######"]
    t.keys("Right")          # into two boxes: seed 002 refuses, the mutant pushes both
    screen = t.wait_for(f"Departure at move 1: {mutants.RULES[name]}:", "u undo", "q quit")
    assert all(len(line) <= width for line in screen.splitlines())
    if width == 80:          # all of it: the seed's words, both boards, the replay
        assert "En caso contrario, el movimiento no está" in screen
        assert "|#@$$ .#|          |# @$$.#|" in screen           # expected, actual
        assert "Replay: python -m conformance " in screen and "--replay" in screen
    else:                    # the rule stays on top; the arrows scroll the rest
        t.keys(*["Down"] * 6)
        screen = t.wait_for("|#@$$ .#|", f"Departure at move 1: {mutants.RULES[name]}:")
    t.keys("Left")           # stopped: only u and q do something
    t.keys("u")              # back to the step before (the level replayed)
    screen = t.wait_for("Moves 0", absent="Departure")
    assert board(screen) == start
    t.keys("q")
    screen = t.wait_for("EXIT=0")
    assert "sokoban play: solved 0 levels; bye." in screen


@pytest.mark.parametrize("width, height", [(80, 24), (40, 12)])
def test_a_correct_student_file_plays_through_a_level_with_no_panel(terminal, tmp_path,
                                                                      width, height):
    from conformance import mutants

    soko = mutants.copy_to("student_soko_strings", tmp_path / "student", "soko.py")
    level = tmp_path / "walk.sok"
    level.write_text(WALK)
    t = terminal(play_target(soko, level), width=width, height=height)
    t.wait_for("Level 1/2", "Moves 0", "q quit")
    for moves in (1, 2):
        t.keys("Right")
        t.wait_for(f"Moves {moves}", absent="Departure")
    t.keys("Right")          # the box reaches the goal
    screen = t.wait_for("Solved Walk (level 1) in 3 moves", "Level 2/2", absent="Departure")
    assert board(screen) == ["#####", "#@$.#", "#####"]
    finish_the_second_level(t, width)


# -- sokoban play TARGET in the other profiles: tad and extendido modules, a C++
# aed2 folder, a Prolog program (issue 18: every profile plays)

needs_gpp = pytest.mark.skipif(shutil.which("g++") is None,
                               reason="g++ is not installed: a C++ aed2 folder cannot be built")
needs_swipl = pytest.mark.skipif(shutil.which("swipl") is None,
                                 reason="swipl (SWI-Prolog) is not installed: a Prolog program "
                                        "cannot run")
ONE = "; Walk\n#######\n#@ $ .#\n#     #\n#######\n"


def python_target(name: str, tmp_path: Path) -> tuple[Path, str]:
    """A student-style module of conformance/mutants (and the bases it
    imports), copied as a submission holds it, with the rule it breaks."""
    from conformance import mutants

    return mutants.copy_to(name, tmp_path / "student"), mutants.RULES.get(name, "")


def cpp_target(name: str, tmp_path: Path) -> tuple[Path, str]:
    """Our C++ reference (``reference``) or one of its mutants, built first
    (as sokoban play builds it: the build is cached, so the game starts at once)."""
    from conformance.profiles.aed2 import mutants as cpp
    from conformance.profiles.aed2.build import build

    folder = cpp.REFERENCE if name == "reference" else cpp.materialize(cpp.BY_NAME[name])
    build(str(folder), std="c++17", sanitize=True)
    return folder, cpp.BY_NAME[name].rule if name in cpp.BY_NAME else ""


def prolog_target(name: str, tmp_path: Path) -> tuple[Path, str]:
    from conformance.profiles.prolog import mutants as pro

    folder = pro.materialize(name, tmp_path / "prolog")
    return folder, pro.BY_NAME[name].rule if name in pro.BY_NAME else ""


# profile: (how to get a target, its mutant, the keys to its first wrong
# action, the departure's heading, its correct reference)
PROFILE_CASES = {
    "tad": (python_target, "tad_pushes_two_boxes", TWO_BOXES, ["Right"], "at move 1",
            "student_tad"),
    "extendido": (python_target, "ext_undo_forgets_box", ONE, ["Right", "Right", "u"],
                  "at action 3 (an undo)", "student_extendido"),
    "aed2": (cpp_target, "undo_forgets_box", ONE, ["Right", "Right", "u"],
             "at action 3 (an undo)", "reference"),
    "prolog": (prolog_target, "push_leaves_box", ONE, ["Right"], "at move 1", "reference"),
}
NEEDS = {"aed2": needs_gpp, "prolog": needs_swipl}


def profile_params(*sizes):
    return [pytest.param(profile, *size, marks=[NEEDS[profile]] if profile in NEEDS else [],
                         id=f"{profile}-{size[0]}x{size[1]}")
            for profile in PROFILE_CASES for size in sizes]


@pytest.mark.parametrize("profile, width, height", profile_params((80, 24)) + [
    pytest.param("tad", 40, 12, id="tad-40x12")])
def test_each_profile_stops_on_the_panel_at_its_mutants_first_wrong_action(
        terminal, tmp_path, profile, width, height):
    opener, name, level_text, keys, where, _ = PROFILE_CASES[profile]
    target, rule = opener(name, tmp_path)
    assert rule
    level = tmp_path / "level.sok"
    level.write_text(level_text)
    t = terminal(play_target(target, level), width=width, height=height)
    screen = t.wait_for("Moves 0", "q quit")
    start = board(screen)
    for moves, key in enumerate(keys[:-1], start=1):       # correct actions: no panel
        t.keys(key)
        t.wait_for(f"Moves {moves}", absent="Departure")
    t.keys(keys[-1])
    screen = t.wait_for(f"Departure {where}: {rule}:", "arrows scroll", "q quit",
                        *(["What went wrong:"] if width == 80 else []))
    assert all(len(line) <= width for line in screen.splitlines())
    t.keys("u")                     # back to the step before (the history replayed)
    t.wait_for(f"Moves {len(keys) - 1}", *(start if len(keys) == 1 else ["#"]),
               absent="Departure")
    t.keys("q")
    screen = t.wait_for("EXIT=0")
    assert "sokoban play: solved 0 levels; bye." in screen


#: Seed 001's game: the second level needs its bomb.
WALK_BOMB = WALK.split("; Second")[0] + "; Second\n#######\n#@$ #.#\n#######\nBombs: 1\n"


@pytest.mark.parametrize("profile, width, height", profile_params((80, 24)))
def test_each_profiles_correct_reference_plays_a_whole_level_with_no_panel(
        terminal, tmp_path, profile, width, height):
    opener, *_, correct = PROFILE_CASES[profile]
    target, _ = opener(correct, tmp_path)
    sequence = profile in ("extendido", "aed2")       # seed 001's game: bombs, and deshacer
    level = tmp_path / "walk.sok"
    level.write_text(WALK_BOMB if sequence else WALK)
    t = terminal(play_target(target, level), width=width, height=height)
    t.wait_for("Level 1/2", "Moves 0", "q quit")
    if sequence:
        t.keys("Right")
        t.wait_for("Moves 1", absent="Departure")
        t.keys("u")
        t.wait_for("Undone.", "Moves 0", absent="Departure")
    for moves in (1, 2):
        t.keys("Right")
        t.wait_for(f"Moves {moves}", absent="Departure")
    t.keys("Right")                  # the box reaches the goal
    screen = t.wait_for("Solved Walk (level 1) in 3 moves", "Level 2/2", absent="Departure")
    if sequence:                     # on to the next level inside the same game
        assert board(screen) == ["#######", "#@$ #.#", "#######"]
        assert "Bombs 1" in screen and "b bomb" in screen
        t.keys("b")
        screen = t.wait_for("Boom:", "Bombs 0", absent="Departure")
        for moves in (1, 2):
            t.keys("Right")
            t.wait_for(f"Moves {moves}", absent="Departure")
    else:
        assert board(screen) == ["#####", "#@$.#", "#####"]
    finish_the_second_level(t, width)
