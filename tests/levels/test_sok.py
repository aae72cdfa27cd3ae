"""SOK files as the format and its programs write them: file notes, titles,
puzzle notes, snapshots (saved games and solutions), variants; the writer;
stored games replayed through the spec.

The fixtures in ``tests/levels/sok`` are this project's own, written in the
layout of the SOK files YASC, JSoko and sokoenginepy exchange.
"""

import io
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import levels
from levels import Collection, Level, LevelError, LevelWarning, Snapshot, format_xsb, lurd, parse_sok
from levels.cli import main
from levels.strategies import collections, drawable_levels, generated_levels, snapshots

HERE = Path(__file__).parent / "sok"
FIXTURES = sorted(HERE.glob("*.sok"))
BOARD = "#####\n#@$.#\n#####\n"


def read(name):
    return levels.read_collection(str(HERE / name))


def run(*argv):
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


# -- reading ------------------------------------------------------------------

def test_file_notes_and_collection_keys():
    c = read("multiple_snapshots.sok")
    assert c.title == "Snapshots and notes"
    assert c.metadata == {"Date Created": "2026-11-20  10:00:00",
                          "Date of Last Change": "2026-11-24  18:30:00",
                          "Collection": "Snapshots and notes", "Author": "sokoban-tad"}
    assert c.notes == ("Three small rooms. Each one keeps its games below it: solutions,\n"
                       "saved games that stop half way, and one game that walks into a wall.")
    assert [lv.title for lv in c.levels] == ["Room A", "Room B", "Room C"]


def test_puzzle_notes_stay_with_their_puzzle():
    a, b, c = read("multiple_snapshots.sok").levels
    assert (a.metadata, a.notes) == ({"Author": "sokoban-tad", "Difficulty": "1"}, "A room to warm up.")
    assert (b.metadata, b.notes) == ({}, "")
    assert c.notes == "A solution written with run-length encoding, a group across lines:"
    # The last puzzle's last snapshot keeps the notes at the end of the file.
    assert c.snapshots[-1].notes == "This note is the last snapshot's,\n\nand this one too, as no board follows."


def test_snapshots_with_titles_moves_notes_and_keys():
    a, b, c = read("multiple_snapshots.sok").levels
    assert [(s.title, s.moves, s.reverse) for s in a.snapshots] == [
        ("Solution 10/5 (by hand)", "rruLLLDrdL", False), ("Saved game", "rruLL", False),
        ("Broken game", "rrr", False), ("Reverse game", "[]uRR[ll]D", True)]
    best = a.snapshots[0]
    assert best.metadata == {"Solver": "the project's solver", "Time": "00:00:01"}
    assert best.solver == "the project's solver" and best.notes == "Found at the first try."
    assert best.line == 30
    assert a.snapshots[2].notes == "A game that runs into the wall at its third move."
    # Run-length encoding decoded, over three lines and a group across two of them.
    (rle,) = c.snapshots
    assert (rle.title, rle.moves, rle.metadata) == ("Solution 15/4", "rlrlulDrdLuLulD",
                                                    {"Optimizer": "none"})
    assert b.snapshots == (Snapshot("RuruulD", title="Solution"),)


def test_titles_by_the_blank_line_rule_or_a_title_key():
    c = read("titles.sok")
    assert [lv.title for lv in c.levels] == [
        None, "Second, after a blank line", "Third, from its key", None, "5 'Semicolon'",
        "Sixth, with an equals sign"]
    assert c.notes.endswith("sits right above the first board, so it is not a title.")
    one, two, three = c.levels[:3]
    assert one.notes == "A line of notes for the first puzzle."
    assert two.notes == "The last line of these notes\nis not a title either"
    assert three.notes == "Not a title, for a key line sits above it"
    assert [s.title for s in c.levels[5].snapshots] == [
        "Only text line of the sixth puzzle's notes, above the game:",
        "The title of the next game is this line."]


def test_variants_are_skipped_and_named_and_the_rest_is_read():
    c = read("mixed_variants.sok")
    assert [(lv.number, lv.title) for lv in c.levels] == [(1, "Sokoban one"), (4, "Sokoban two")]
    assert [(e.level_number, e.level_title, e.line) for e in c.skipped] == [
        (2, "Honeycomb", 15), (3, "Triangles with two pushers", 24),
        (5, "Two pushers, no variant said", 44)]
    assert "a Hexoban puzzle (Game: Hexoban)" in c.skipped[0].problem
    assert "a Trioban puzzle (Game: Trioban)" in c.skipped[1].problem
    assert "second player" in c.skipped[2].problem
    with pytest.warns(LevelWarning) as caught:
        found = levels.read_levels(str(HERE / "mixed_variants.sok"))
    assert [lv.title for lv in found] == ["Sokoban one", "Sokoban two"]
    assert [str(w.message) for w in caught][0] == (
        f"skipped {HERE / 'mixed_variants.sok'}:15: level 2 ('Honeycomb'): a Hexoban puzzle "
        "(Game: Hexoban): only Sokoban puzzles are read")


def test_in_strict_mode_another_variant_is_an_error():
    with pytest.raises(LevelError) as e:
        levels.read_levels(str(HERE / "mixed_variants.sok"), strict=True)
    assert (e.value.line, e.value.level_number, e.value.level_title) == (15, 2, "Honeycomb")
    assert "Hexoban" in str(e.value)


def test_the_file_notes_can_declare_the_variant_of_every_puzzle():
    c = read("all_trioban.sok")
    assert c.levels == () and c.metadata == {"Game": "Trioban"}
    assert [e.level_title for e in c.skipped] == ["First", "Second"]
    # A puzzle's own Game key wins over the file's.
    mine = parse_sok("Game: Hexoban\n\nOne\n\n" + BOARD + "\nGame: Sokoban\n")
    assert [lv.title for lv in mine.levels] == ["One"] and mine.skipped == ()
    assert mine.levels[0].metadata == {"Game": "Sokoban"}


def test_a_game_key_is_never_a_title_line():
    # By SOK's title rule alone this line would title the board and be lost
    # as the file's variant (sokoenginepy 1.0.3 then reads a Hexoban board).
    c = parse_sok("Game: Hexoban\n\n" + BOARD)
    assert c.levels == () and c.metadata == {"Game": "Hexoban"}
    assert c.skipped[0].level_title is None and "Hexoban" in c.skipped[0].problem


def test_snapshots_given_as_strings_are_their_moves():
    assert Level(snapshots=["rrU"]).snapshots == (Snapshot("rrU"),)


def test_a_solution_key_continued_on_moves_lines_is_not_a_snapshot():
    (lv,) = parse_sok(BOARD + "Solution: rR\nrr\n\nrR\n").levels
    assert lv.solutions == ("rRrr",)
    assert lv.snapshots == (Snapshot("rR"),)


def test_moves_before_the_first_board_are_text():
    c = parse_sok("Notes\nlurd\n\n" + BOARD)
    assert c.notes == "Notes\nlurd" and c.levels[0].title is None
    assert parse_sok("lurd\n\n" + BOARD).levels[0].title == "lurd"


def test_bad_moves_name_their_line_and_column():
    with pytest.raises(LevelError) as e:
        parse_sok(BOARD + "\nBest\nrr\nr 2(R\n", "m.sok", strict=True)
    assert (e.value.line, e.value.column, e.value.level_number) == (7, 4, 1)
    assert "'(' without a matching ')'" in str(e.value)


def test_run_length_encoding_has_a_budget_per_file(monkeypatch):
    monkeypatch.setattr(levels.xsb, "MAX_CELLS", 100)
    text = BOARD + "\n50r\n" * 10  # each adds 47 characters; the budget is 100 + 2 * 68
    with pytest.raises(LevelError, match="run-length encoding makes this file") as e:
        parse_sok(text)  # even a lenient read: the file, not a puzzle, is hostile
    assert e.value.line == 15  # the sixth
    assert len(parse_sok(BOARD + "\n50r\n").levels[0].snapshots[0].moves) == 50


# -- replaying stored games ---------------------------------------------------------

ROOM = levels.parse_xsb("#######\n#.  $ #\n# $@  #\n#.    #\n#######\n")[0]


@pytest.mark.parametrize("moves, kind, at", [
    ("rruLLLDrdL", "solution", None),
    ("rruLLLDrdL*", "solution", None),     # SOK's current-position mark
    ("rrulllDrdl", "solution", None),      # the case is only a hint
    ("rruLL", "partial", None),
    ("", "partial", None),
    ("rrr", "illegal", 3),                 # a wall
    ("rruLLLL", "illegal", 7),             # a box against a wall
    ("rr{u}", "illegal", 3),               # a pusher change
    ("[]rr", "reverse", None),
])
def test_verdicts(moves, kind, at):
    v = lurd.verdict(ROOM, moves)
    assert (v.kind, v.at) == (kind, at)


def test_verdict_counts_and_sentences():
    assert lurd.verdict(ROOM, "rruLLLDrdL").describe() == "solution: 10 moves, 5 pushes"
    assert lurd.verdict(ROOM, "rrulllDrdl").describe() == (
        "solution: 10 moves, 5 pushes; 4 letters in the wrong case")
    assert lurd.verdict(ROOM, "rruLL").describe() == "partial: 5 moves, 2 pushes, 0 of 2 boxes on goals"
    assert lurd.verdict(ROOM, "rrr").describe() == "illegal at move 3: 'r': a wall is in the way"
    assert lurd.verdict(Level(player=(0, 0), boxes={(1, 1)}), "r").kind == "unplayable"


@settings(max_examples=40, deadline=None)
@given(generated_levels(max_size=7, max_boxes=2), st.text("lurd", max_size=12))
def test_a_verdict_agrees_with_the_spec(level, walk):
    solution = level.solutions[0]
    assert lurd.verdict(level, solution).kind == "solution"
    v = lurd.verdict(level, walk)
    if v.kind != "illegal":  # every move changed the position: solves() plays the same game
        assert (v.kind == "solution") == lurd.solves(level, walk)
        assert v.moves == len(walk)


def test_check_reports_each_stored_game():
    code, out = run("check", str(HERE / "multiple_snapshots.sok"))
    assert code == 1  # one game has an illegal move
    name = str(HERE / "multiple_snapshots.sok")
    assert (f"{name}:   snapshot 1 'Solution 10/5 (by hand)' (line 30): solution: "
            "10 moves, 5 pushes") in out
    assert f"{name}:   snapshot 2 'Saved game' (line 37): partial: 5 moves, 2 pushes" in out
    assert (f"{name}:   snapshot 3 'Broken game' (line 40): ILLEGAL at move 3: 'r': "
            "a wall is in the way") in out
    assert f"{name}:   snapshot 4 'Reverse game' (line 45): reverse mode" in out
    assert out.rstrip().endswith("3 levels, 3 valid, 0 invalid; 6 stored games: 3 solutions, "
                                 "1 partial, 1 illegal, 1 reverse-mode")


def test_check_calls_a_solution_key_that_does_not_solve_wrong(tmp_path):
    f = tmp_path / "keys.sok"
    f.write_text(BOARD + "Solution: R\n\nSaved\nr\n")
    code, out = run("check", str(f))
    assert code == 0
    assert f"{f}:   Solution key 1: solution: 1 move, 1 push" in out
    assert f"{f}:   snapshot 1 'Saved' (line 7): solution: 1 move, 1 push; 1 letter in the wrong case" in out
    f.write_text(BOARD + "Solution: l\n")
    code, out = run("check", str(f))
    assert code == 1 and "Solution key 1: ILLEGAL at move 1" in out
    f.write_text("#######\n#@$  .#\n#######\nSolution: R\n")
    code, out = run("check", str(f))
    assert code == 1 and "Solution key 1: NOT A SOLUTION: 1 move, 1 push, 0 of 1 box on goals" in out


def test_check_names_skipped_puzzles_and_exits_0_for_variants_alone(tmp_path):
    code, out = run("check", str(HERE / "all_trioban.sok"))
    name = HERE / "all_trioban.sok"
    assert code == 0
    assert f"{name}: First (level 1): skipped (line 7): a Trioban puzzle (Game: Trioban)" in out
    assert f"{name}: 0 levels, 0 valid, 0 invalid; 2 skipped (2 of another variant)" in out
    code, out = run("check", "--strict", str(name))
    assert code == 1 and "unreadable" in out


# -- writing ---------------------------------------------------------------------

@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_read_write_read_keeps_every_field(path):
    c = levels.read_collection(str(path))
    again = parse_sok(format_xsb(c))
    renumbered = [Level(**{**lv.__dict__, "number": i}) for i, lv in enumerate(c.levels, 1)]
    assert again == Collection(levels=renumbered, metadata=c.metadata, notes=c.notes)


@given(collections())
def test_round_trip_of_collections(c):
    assert parse_sok(format_xsb(c)) == c


@given(st.lists(snapshots(), min_size=1, max_size=3), st.sampled_from(["", "One line", "Author: x"]))
def test_an_untitled_game_after_a_lone_line_stays_untitled(snaps, note):
    notes, metadata = ("", {"Author": "x"}) if ":" in note else (note, {})
    lv = Level(walls={(0, 0)}, player=(1, 0), number=1, notes=notes, metadata=metadata,
               snapshots=[Snapshot(s.moves, None, s.notes, s.metadata) for s in snaps])
    assert levels.parse_xsb(format_xsb(lv)) == [lv]


@pytest.mark.parametrize("level, problem", [
    (Level(notes="Author: x"), "note line 'Author: x'"),
    (Level(notes="####"), "note line '####'"),
    (Level(notes="lurd"), "note line 'lurd'"),
    (Level(snapshots=[Snapshot("3r")]), "cannot be written"),
    (Level(snapshots=[Snapshot("**")]), "cannot be written"),
    (Level(metadata={"Game": "Hexoban"}), "a Hexoban puzzle"),
    (Level(metadata={"Bad key!": "x"}), "key 'Bad key!'"),
])
def test_what_cannot_be_written_is_refused(level, problem):
    with pytest.raises(LevelError, match="cannot be written|" + problem) as e:
        format_xsb(level)
    assert problem in str(e.value)


def test_titles_that_cannot_stand_alone_become_title_keys():
    for title in ["####", "lurd", "; x", ":: x", "Title: x", "Solution: x", "Comment:",
                  "Game: Hexoban"]:
        lv = Level(walls={(0, 0)}, title=title, number=1, snapshots=[Snapshot("r", title=title)])
        text = format_xsb(lv)
        assert f"Title: {title}" in text
        assert levels.parse_xsb(text) == [lv]


@settings(max_examples=50)
@given(drawable_levels())
def test_what_is_written_reads_back_line_by_line_as_the_writer_meant(lv):
    """Every line the writer emits for notes reads as a note (no board, moves,
    key or comment hides among them) and every moves line as moves."""
    lv = Level(**{**lv.__dict__, "number": 1})
    text = format_xsb(lv)
    for note in lv.notes.split("\n"):
        assert not note or levels.xsb.line_kind(note) == "t"
    for s in lv.snapshots:
        for k in range(0, len(s.moves), levels.xsb.MOVES_WIDTH):
            assert s.moves[k:k + 1] in text
