"""The game's logic without a terminal: keys, hints, scrolling, the frame,
and a Session played through its commands."""

from __future__ import annotations

import curses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import levels
from impl import contracts
from impl.play import game, hint, keys, view
from impl.play.words import bombs_text, moves_text, pushes_text
from speech import speaking
from spec.tipos import Accion

TWO_LEVELS = """\
; Push twice
######
#@$ .#
######

; Second
#####
#@$.#
#####
"""

BOMB_LEVEL = """\
; Bomb
#######
#@$ #.#
#######
Bombs: 1
"""


def parse(text):
    return levels.parse_xsb(text)


def no_solver(nivel, time_limit):
    raise AssertionError("the solver should not be called")


# -- keys ---------------------------------------------------------------------

@pytest.mark.parametrize("key, command", [
    (curses.KEY_UP, "up"), (curses.KEY_DOWN, "down"), (curses.KEY_LEFT, "left"),
    (curses.KEY_RIGHT, "right"), ("w", "up"), ("S", "down"), ("a", "left"),
    ("d", "right"), ("u", "undo"), ("b", "bomb"), ("r", "restart"), ("n", "next"),
    ("p", "prev"), ("h", "hint"), ("q", "quit"), (ord("Q"), "quit"),
])
def test_keys(key, command):
    assert keys.command_for_key(key) == command


@given(st.characters())
def test_other_keys_do_nothing(ch):
    if ch.lower() not in "wasdubrnphq":
        assert keys.command_for_key(ch) is None


def test_every_command_has_a_key_and_the_help_line_fits_80_columns():
    bound = {keys.command_for_key(k) for k in range(512)} - {None}
    assert bound == set(keys.COMMANDS)
    assert "b bomb" in keys.help_text(True) and "b bomb" not in keys.help_text(False)
    assert len(keys.help_text(True)) <= 80


def test_counts_in_words_in_each_language():
    with speaking("en"):
        assert [pushes_text(1), pushes_text(2), moves_text(0), bombs_text(1)] == [
            "1 push", "2 pushes", "0 moves", "1 bomb"]
    with speaking("es"):
        assert [pushes_text(1), pushes_text(2), moves_text(0), bombs_text(1)] == [
            "1 empuje", "2 empujes", "0 movimientos", "1 bomba"]


# -- hints ----------------------------------------------------------------------

lurd_text = st.text(alphabet="udlrUDLRB", max_size=30)


@given(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), lurd_text)
def test_hint_follows_the_solution_up_to_its_first_push_or_bomb(start, solution):
    h = hint.make_hint(start, solution)
    stop = next((i for i, c in enumerate(solution) if c.isupper()), len(solution))
    walked = solution[:stop]
    assert len(h.path) == len(walked)
    pos = start
    for letter, cell in zip(walked, h.path):
        dx, dy = {"u": (0, -1), "d": (0, 1), "l": (-1, 0), "r": (1, 0)}[letter]
        pos = (pos[0] + dx, pos[1] + dy)
        assert cell == pos
    nxt = solution[stop] if stop < len(solution) else None
    assert h.bomb == (nxt == "B")
    if nxt is not None and nxt != "B":
        d = {"U": Accion.ARRIBA, "D": Accion.ABAJO, "L": Accion.IZQUIERDA,
             "R": Accion.DERECHA}[nxt]
        assert h.direction is d
        assert h.box == (pos[0] + d.value[0], pos[1] + d.value[1])
    else:
        assert h.box is None and h.direction is None
    assert h.moves == sum(c in "udlrUDLR" for c in solution)
    assert h.pushes == sum(c in "UDLR" for c in solution)


def test_hint_text():
    h = hint.make_hint((1, 1), "rrdLu")
    assert h.text == ("Hint: walk 2 right, 1 down, then push the box left "
                      "(a solution from here: 5 moves, 1 push).")
    assert hint.make_hint((0, 0), "B" + "RR").text == (
        "Hint: throw a bomb (a solution from here: 2 moves, 2 pushes, 1 bomb).")
    with pytest.raises(ValueError):
        hint.make_hint((0, 0), "x")


def test_find_hint_from_the_solver():
    lv = parse(TWO_LEVELS)[0]
    found = hint.find_hint(lv.to_nivel_extendido(), 2.0)
    assert isinstance(found, hint.Hint)
    assert found.box == (2, 1) and found.direction is Accion.DERECHA


def test_find_hint_on_a_dead_end():
    stuck = parse("#####\n#@ .#\n#   #\n#  $#\n#####\n")[0]  # box in a corner
    assert "No solution from here" in hint.find_hint(stuck.to_nivel_extendido(), 2.0)


# -- scrolling -------------------------------------------------------------------

@given(offset=st.integers(-50, 50), size=st.integers(1, 40), lo=st.integers(-20, 20),
       extent=st.integers(1, 120), data=st.data())
def test_scroll_keeps_the_character_in_view(offset, size, lo, extent, data):
    hi = lo + extent - 1
    pos = data.draw(st.integers(lo, hi))
    new = view.scroll(offset, size, lo, hi, pos)
    assert new <= pos <= new + size - 1
    if extent <= size:  # it fits: all of it shown, centred
        assert new <= lo and hi <= new + size - 1
        assert abs((lo - new) - (new + size - 1 - hi)) <= 1
    else:  # never past the level's edges; the margin kept when the edge allows
        assert lo <= new <= hi - size + 1
        margin = view.margin_for(size)
        assert pos - new >= margin or new == lo
        assert new + size - 1 - pos >= margin or new == hi - size + 1


def test_the_margin_is_a_quarter_of_the_area_and_at_least_three_cells():
    assert [view.margin_for(n) for n in (1, 2, 3, 7, 8, 16, 80)] == [0, 0, 1, 3, 3, 4, 20]


@given(size=st.integers(8, 40), extent=st.integers(41, 100), data=st.data())
def test_scroll_does_not_move_while_the_character_is_inside_the_margins(size, extent, data):
    offset = data.draw(st.integers(0, extent - size))
    margin = view.margin_for(size)
    pos = data.draw(st.integers(offset + margin, offset + size - 1 - margin))
    assert view.scroll(offset, size, 0, extent - 1, pos) == offset


# -- frames ------------------------------------------------------------------------

def _player_cells(frame):
    return [(r, c) for r in frame.board_rows
            for c, ch in enumerate(frame.lines[r]) if ch in "@+"]


def room(width: int, height: int):
    """An empty walled room with the character in a corner and one box."""
    rows = ["#" * width] + ["#" + " " * (width - 2) + "#"] * (height - 2) + ["#" * width]
    rows[1] = "#@$." + " " * (width - 5) + "#"
    return parse("\n".join(rows) + "\n")[0]


@settings(max_examples=15)
@given(width=st.integers(view.MIN_WIDTH, 90), height=st.integers(view.MIN_HEIGHT, 30),
       size=st.tuples(st.integers(5, 120), st.integers(5, 50)),
       runs=st.lists(st.tuples(st.sampled_from(list(keys.MOVES)), st.integers(1, 60)),
                     max_size=6))
def test_the_character_is_always_on_screen(width, height, size, runs):
    s = game.Session([room(*size)], hint=no_solver)
    vp = view.Viewport()
    for command, n in runs:
        for _ in range(n):
            s.do(command)
            frame = view.render(s, width, height, vp)
            assert len(frame.lines) == height
            assert all(len(line) == width for line in frame.lines)
            [(r, c)] = _player_cells(frame)
            x, y = s.board().player
            assert (c, r) == (x - vp.x, y - vp.y + frame.board_rows[0])
            assert frame.lines[0].startswith("Level 1/1")
            assert frame.lines[-1].rstrip().endswith("q quit")


def test_frame_draws_the_board_in_xsb_characters_and_the_hint_path():
    corner = levels.load("tutorial")[1]
    s = game.Session([corner], hint=lambda n, t: hint.make_hint((1, 1), "drRurD"))
    frame = view.render(s, 80, 24, view.Viewport())
    board = [line.strip() for line in frame.lines if line.strip().startswith(("#", "##"))]
    assert board == ["######", "#@   #", "#  $ #", "##  .#", "#####"]
    s.do("hint")
    assert s.message == [s.hint.text]
    frame = view.render(s, 80, 24, view.Viewport())
    board = [line.strip() for line in frame.lines if line.strip().startswith(("#", "##"))]
    assert board == ["######", "#@   #", "#::$ #", "##  .#", "#####"]
    row = next(i for i, line in enumerate(frame.lines) if "#::$ #" in line)
    assert (row, frame.lines[row].index("$"), 1, "hint") in frame.marks
    s.do("down")
    assert s.hint is None


@pytest.mark.parametrize("width, height", [(20, 6), (view.MIN_WIDTH - 1, 24),
                                           (80, view.MIN_HEIGHT - 1), (1, 1)])
def test_too_small(width, height):
    s = game.Session(parse(TWO_LEVELS), hint=no_solver)
    frame = view.render(s, width, height, view.Viewport())
    assert len(frame.lines) == height and all(len(line) == width for line in frame.lines)
    if height >= 2 and width >= 19:
        assert "Terminal too small" in frame.text()


@given(st.lists(st.text(max_size=200), max_size=30))
def test_a_long_message_fits_in_its_pane(message):
    s = game.Session(parse(TWO_LEVELS), hint=no_solver)
    s.say(message, game.CONTRACT)
    frame = view.render(s, 80, 24, view.Viewport())
    assert len(frame.lines) == 24 and all(len(line) == 80 for line in frame.lines)
    assert len(_player_cells(frame)) == 1


# -- the session --------------------------------------------------------------------

def test_moves_pushes_undo_and_a_win_that_moves_on():
    s = game.Session(parse(TWO_LEVELS), hint=no_solver)
    assert s.status_text().startswith("Level 1/2: Push twice  Moves 0  Pushes 0  Bombs 0")
    s.do("right")
    assert (s.moves, s.pushes) == (1, 1)
    s.do("undo")
    assert (s.moves, s.pushes) == (0, 0) and s.message == ["Undone."]
    s.do("up")
    assert s.message[0].startswith("Blocked") and s.moves == 0
    s.do("right")
    s.do("right")
    assert s.level.title == "Second" and s.message_kind == game.WIN
    assert s.message[0] == ("Solved Push twice (level 1) in 2 moves, 2 pushes! "
                            "Now Second (level 2).")
    assert (s.moves, s.pushes) == (0, 0)
    s.do("undo")  # the history does not cross levels
    assert s.level.title == "Second" and s.message[0].startswith("Nothing to undo")
    s.do("right")
    assert s.finished() and s.solved == 2 and "last level" in s.message[1]


def test_next_prev_restart():
    s = game.Session(parse(TWO_LEVELS), 1, hint=no_solver)
    assert s.level.title == "Second"
    s.do("next")
    assert s.level.title == "Second" and s.message == ["This is the last level."]
    s.do("prev")
    assert s.level.title == "Push twice"
    s.do("prev")
    assert s.message == ["This is the first level."]
    s.do("right")
    s.do("restart")
    assert s.moves == 0 and s.board().player == (1, 1) and s.board().boxes == {(2, 1)}


def test_bomb_and_its_undo():
    s = game.Session(parse(BOMB_LEVEL), hint=no_solver)
    assert "b bomb" in s.help_text()
    s.do("bomb")
    assert s.juego.bombas() == 0 and (4, 1) not in s.board().walls
    assert s.message[0].startswith("Boom")
    s.do("undo")
    assert s.juego.bombas() == 1 and (4, 1) in s.board().walls


def test_no_bomb_with_contracts_off_is_a_plain_message():
    s = game.Session(parse(TWO_LEVELS), hint=no_solver, contracts=False)
    s.do("bomb")
    assert s.message == ["No bombs left on this level."]
    assert "[contracts off]" in s.status_text()


@pytest.mark.skipif(not contracts.ENABLED, reason="impl's contracts are off in this run")
def test_a_broken_contract_shows_in_the_message_pane():
    s = game.Session(parse(TWO_LEVELS), hint=no_solver, contracts=True)
    s.do("bomb")
    assert s.message_kind == game.CONTRACT
    assert s.message[0].startswith("Contract broken (PreconditionViolation)")
    assert any("bombas() > 0" in line for line in s.message)
    assert s.juego.bombas() == 0 and s.moves == 0  # nothing changed
    s.do("right")  # and the game goes on
    assert s.moves == 1 and s.message_kind == game.INFO


commands = st.sampled_from(["up", "down", "left", "right", "undo", "bomb", "restart"])


@settings(max_examples=40)
@given(seed=st.integers(0, 1000), bombs=st.integers(0, 2), cmds=st.lists(commands, max_size=40))
def test_counters_follow_what_happens_on_the_board(seed, bombs, cmds):
    import dataclasses

    level, _ = levels.generate(7, 7, 2, seed)
    level = dataclasses.replace(level, bombs=bombs)
    s = game.Session([level], hint=no_solver, contracts=False)
    pushed: list[bool | None] = []  # None: a bomb
    for c in cmds:
        before = s.board()
        s.do(c)
        after = s.board()
        if c == "restart":
            pushed = []
        elif c == "undo":
            if pushed:
                pushed.pop()
        elif c == "bomb":
            if after.walls != before.walls or s.juego.bombas() < bombs - pushed.count(None):
                pushed.append(None)
        elif after.player != before.player:
            pushed.append(after.boxes != before.boxes)
        assert s.moves == sum(p is not None for p in pushed)
        assert s.pushes == sum(p is True for p in pushed)
        assert s.juego.nivel_actual().history_length() == len(pushed)
        assert s.juego.bombas() == bombs - pushed.count(None)


def test_the_level_comment_is_shown_and_invalid_levels_are_skipped():
    text = ("; Bad\n####\n#@$#\n####\n\n" + TWO_LEVELS.replace(
        "#@$.#\n#####\n", "#@$.#\n#####\nComment: Read me.\n"))  # SOK: keys follow the board
    all_levels = parse(text)
    s = game.Session(all_levels, 1, hint=no_solver)
    assert s.message_kind == game.WARN and "Skipped 1 level" in s.message[0]
    assert any("Bad (level 1)" in line for line in s.message)
    s.do("next")
    assert s.message == ["Read me."] and s.status_text().startswith("Level 3/3: Second")
    with pytest.raises(ValueError, match=r"^Bad \(level 1\): .*goal"):
        game.Session(all_levels, 0, hint=no_solver)


def test_hints_are_asked_once_per_position():
    calls = []

    def fake(nivel, time_limit):
        calls.append(time_limit)
        return "No hint: nothing found."

    s = game.Session(parse(TWO_LEVELS), hint=fake, hint_time=0.5)
    s.do("hint")
    s.do("hint")
    assert calls == [0.5] and s.message == ["No hint: nothing found."]
    s.do("right")
    s.do("hint")
    assert calls == [0.5, 0.5]


@given(st.text(max_size=40), st.sampled_from(["ascii", "latin-1", "utf-8", "no-such-codec"]))
def test_printable_keeps_the_length_and_only_what_the_encoding_shows(line, encoding):
    from impl.play.tui import printable

    shown = printable(line, encoding)
    assert len(shown) == len(line)
    shown.encode("ascii" if encoding == "no-such-codec" else encoding, errors="strict")
    assert all(a == b or b == "?" for a, b in zip(line, shown))


def test_a_failing_solver_gives_a_message_not_a_crash(monkeypatch):
    import impl.solver

    def broken(nivel, time_limit):
        raise RuntimeError("out of cheese")

    monkeypatch.setattr(impl.solver, "solve", broken)
    lv = parse(TWO_LEVELS)[0]
    assert hint.find_hint(lv.to_nivel_extendido(), 1.0) == (
        "Hints: the solver failed (RuntimeError: out of cheese).")


def test_without_the_solver_hints_say_so(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "impl.solver", None)  # import fails
    lv = parse(TWO_LEVELS)[0]
    assert hint.find_hint(lv.to_nivel_extendido(), 1.0) == (
        "Hints: the solver is not available in this installation.")


@settings(max_examples=40)
@given(width=st.integers(view.MIN_WIDTH, 100), height=st.integers(view.MIN_HEIGHT, 30),
       contracts=st.booleans())
def test_a_narrow_screen_still_shows_the_counts_the_contracts_and_every_key(width, height,
                                                                             contracts):
    """Below 80 columns the status and help lines wrap or abbreviate; none
    of what they say is cut off (docs/play.md promises 32x10)."""
    bomb_level = levels.load("tutorial")[4]
    assert bomb_level.bombs > 0
    s = game.Session([bomb_level], hint=no_solver, contracts=contracts)
    frame = view.render(s, width, height, view.Viewport())
    assert len(frame.lines) == height and all(len(line) == width for line in frame.lines)
    top = " ".join(frame.lines[:frame.board_rows.start])
    bottom = " ".join(frame.lines[frame.board_rows.stop:])
    for word in ("Level 5/1", "Moves 0", "Pushes 0", f"Bombs {bomb_level.bombs}",
                 "on]" if contracts else "off]"):
        assert word in top, (word, frame.text())
    for key in ("u undo", "b bomb", "r restart", "n/p", "h hint", "q quit"):
        assert key in bottom, (key, frame.text())


# -- hints from the solutions a file stores --------------------------------------

STORED = """\
Stored

########
#      #
# $$@  #
#..  ###
######

Solution
ulDrdLuLulD
"""


def test_a_stored_solution_answers_hints_without_a_search(monkeypatch):
    (lv,) = levels.parse_xsb(STORED)
    import impl.solver

    def no_search(*args, **kwargs):
        raise AssertionError("the search should not run")

    monkeypatch.setattr(impl.solver, "solve", no_search)
    assert hint.learn(lv) == 1
    found = hint.find_hint(lv.to_nivel_extendido(), 2.0)
    assert isinstance(found, hint.Hint) and (found.moves, found.pushes) == (11, 4)
    # Along the solution, too: after its first two moves (a walk, then a push).
    after = levels.lurd.replay(lv, levels.lurd.parse("ulD"))[-1]
    nivel = {**lv.to_nivel_extendido(), "personaje": {after.personaje}, "cajas": after.cajas}
    assert hint.find_hint(nivel, 2.0).moves == 8


def test_the_game_learns_each_level_s_stored_solutions(monkeypatch):
    learnt = []
    monkeypatch.setattr(game, "learn", lambda level: learnt.append(level.title) or 0)
    session = game.Session(parse(STORED + "\n" + TWO_LEVELS))
    assert learnt == ["Stored"]
    session.do("next")
    assert learnt == ["Stored", "Push twice"]
