"""The XSB/SOK reader and writer."""

import pytest
from hypothesis import given, strategies as st

import levels
from levels import Level, LevelError, format_xsb, parse_xsb
from levels.strategies import drawable_levels

SIMPLE = "#####\n#@$.#\n#####\n"


def only(text):
    (lv,) = parse_xsb(text, strict=True)
    return lv


def test_positions_are_column_row_as_read():
    lv = only("  ###\n  #@$.#\n  ###\n")
    assert lv.player == (3, 1)
    assert lv.boxes == {(4, 1)}
    assert lv.goals == {(5, 1)}
    assert (2, 0) in lv.walls and (0, 0) not in lv.walls
    assert lv.width == 7 and lv.height == 3


def test_alternative_letters_mean_the_same_pieces():
    std = only("#####\n#@$.#\n# * #\n#####")
    alt = only("WWWWW\nWpb.W\nW-B_W\nWWWWW")
    assert alt == std
    on_goal = only("####\n#P #\n####")
    assert on_goal.player == (1, 1) and on_goal.goals == {(1, 1)}
    with pytest.raises(LevelError, match="second player"):
        only("#@ +#")


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_line_endings(eol):
    text = eol.join(["; one", "#####", "#@$.#", "#####", "", "; two", "####", "#+*#", "####", ""])
    a, b = parse_xsb(text)
    assert (a.title, a.number, b.title, b.number) == ("one", 1, "two", 2)
    assert a.boxes == {(2, 1)} and b.boxes == {(2, 1)} and b.goals == {(1, 1), (2, 1)}


def test_ragged_rows_and_missing_trailing_newline():
    lv = only("####\n#@$.#\n#####")
    assert lv.rows() == ["####", "#@$.#", "#####"]


def test_run_length_encoding():
    plain = only("#####\n#@$.#\n#   #\n#####")
    assert only("5#\n#@$.#\n#3-#\n5#") == plain
    assert only("5#|#@$.#|#3 #|5#") == plain
    assert only("5#|#@$.#\n#3_#|5#") == plain
    nested = only("2(3(#-)#)")
    assert nested.rows() == ["#-#-#-##-#-#-#".replace("-", " ")]
    lv = only("3#4-p.#")
    assert lv.player == (7, 0) and lv.goals == {(8, 0)} and lv.walls == {(0, 0), (1, 0), (2, 0), (9, 0)}


@pytest.mark.parametrize("bad, problem", [
    ("2(#", "'(' without a matching ')'"),
    ("#)#", "')' without"),
    ("#3", "must be followed"),
    ("99999999#", "too large"),
    ("999999(999999(#))", "too large"),
])
def test_bad_run_length_encoding(bad, problem):
    with pytest.raises(LevelError, match="run-length") as e:
        parse_xsb(f"; t\n{bad}\n#@#\n", source="f.xsb", strict=True)
    assert problem in str(e.value)
    assert e.value.source == "f.xsb" and e.value.line == 2 and e.value.level_number == 1


def test_titles_comments_and_sok_metadata():
    text = """:: a SOK file
:: with :: comments that are ignored
Intro line of the collection

; a comment
Level One
#####
#@$.#
#####
Author: Someone
Difficulty: easy
Comment:
first line
second line
Comment-End:
Solution: rR
Bombs: 2
A note on level one.

Title: Two
#####
#@$.#
#####
"""
    coll = levels.parse_sok(text)
    a, b = coll.levels
    # 'Level One' ends a paragraph of two lines: SOK's rule makes it no title.
    assert a.title is None and a.number == 1
    assert coll.notes == "Intro line of the collection\n\n; a comment\nLevel One"
    assert a.metadata == {"Author": "Someone", "Difficulty": "easy",
                          "Comment": "first line\nsecond line"}
    assert a.notes == "A note on level one."
    assert a.solutions == ("rR",) and a.bombs == 2
    # A title line in the form of a Title key gives its value.
    assert b.title == "Two" and b.number == 2 and b.bombs == 0 and b.solutions == ()
    assert b.notes == "" and b.metadata == {}


def test_title_key_after_board_wins_and_solutions_continue_on_lines():
    lv = only("; old\n#####\n#@$.#\n#####\nTitle: new\nSolution:\nr\n3(R)\n")
    assert lv.title == "new" and lv.notes == ""
    assert lv.solutions == ("r3(R)",) and lv.snapshots == ()
    # The title line the key replaces stays where it was: the file notes.
    assert levels.parse_sok("; old\n#####\n#@$.#\n#####\nTitle: new\n").notes == "; old"


@pytest.mark.parametrize("before, title", [
    ("First\n", "First"),                  # the only text line
    ("Notes\n\nFirst\n", "First"),          # a blank line before it
    ("Notes\nFirst\n", None),               # the end of a paragraph
    ("Notes\nFirst\n\n\n", None),           # blank lines after it change nothing
    ("; 7\n\n", "7"),                       # an XSB comment line, without its ';'
    (":: x\nFirst\n", "First"),             # '::' lines are not there
    ("Collection: C\n\nTitle: T\n", "T"),   # a Title key as the title line
])
def test_a_title_is_the_last_line_after_a_blank_line_or_the_only_one(before, title):
    coll = levels.parse_sok(before + SIMPLE)
    assert coll.levels[0].title == title


def test_notes_snapshots_and_titles_between_puzzles():
    text = ("Collection: Mine\nAuthor: Me\nDate Created: today\n\nFirst\n\n" + SIMPLE
            + "\nAuthor: Someone\nThe first note.\n\nBest\nr\nR\n\nSolver: a program\n"
              "Time: 1 s\nA note on the solution.\n\n2R\n\nSecond\n" + SIMPLE
            + "Last notes\nof the last puzzle.\n")
    coll = levels.parse_sok(text)
    assert coll.metadata == {"Collection": "Mine", "Author": "Me", "Date Created": "today"}
    assert coll.title == "Mine" and coll.notes == ""
    a, b = coll.levels
    assert (a.title, a.metadata, a.notes) == ("First", {"Author": "Someone"}, "The first note.")
    best, plain = a.snapshots
    assert (best.title, best.moves, best.line) == ("Best", "rR", 15)
    assert best.metadata == {"Solver": "a program", "Time": "1 s"} and best.solver == "a program"
    assert best.notes == "A note on the solution."
    assert (plain.title, plain.moves, plain.notes, plain.reverse) == (None, "RR", "", False)
    assert (b.title, b.notes) == ("Second", "Last notes\nof the last puzzle.")


def test_microban_style_titles_with_blank_lines():
    text = "\r; 1\r\r####\r#@$.#\r####\r\r; 2 'Duh!'\r\r###\r#+#\r###\r"
    a, b = parse_xsb(text)
    assert (a.title, a.number, b.title, b.number) == ("1", 1, "2 'Duh!'", 2)


@pytest.mark.parametrize("text, line, column, what", [
    ("; t\n#####\n#@$x#\n#####\n", 3, 4, "'x'"),
    ("#####\n#@$.#\n#\t  #\n", 3, 2, "'\\t'"),
    ("#x###\n#@$.#\n#####\n", 1, 2, "'x'"),
    ("#####\n#@@.#\n#####\n", 2, 3, "second player"),
    ("#####\n#@$.#\n#####\nBombs: many\n", 4, 8, "Bombs"),
    ("#####\n#@$.#\n#####\nSolution: rXr\n", 4, 12, "bad solution"),
    ("#####\n#@$.#\n#####\nSolution: r r 2(" + "(" * 40 + "\n", 4, 48, "nested more than 32"),
])
def test_errors_name_file_level_line_and_column(text, line, column, what):
    with pytest.raises(LevelError) as e:
        parse_xsb(text, source="x.sok", strict=True)
    err = e.value
    assert err.source == "x.sok" and err.line == line and err.column == column
    assert what in str(err)
    assert str(err).startswith(f"x.sok:{line}")
    assert err.level_number == 1 and "level 1" in str(err)


def test_no_levels_is_an_empty_list():
    assert parse_xsb("; just a comment\n\nhello\n") == []
    assert parse_xsb("") == []


def test_format_writes_sok():
    lv = Level(walls={(0, 0), (1, 0), (2, 0)}, boxes={(1, 2)}, goals={(1, 2)},
               player=(0, 2), title="T", metadata={"Author": "me"}, bombs=1,
               solutions=("rL",), notes="Some notes.",
               snapshots=[levels.Snapshot("r" * 71 + "L", title="Best", metadata={"Solver": "X"})])
    assert format_xsb([lv]) == ("T\n###\n-\n@*\n\nSome notes.\nAuthor: me\nBombs: 1\nSolution: rL\n"
                                "\nBest\n" + "r" * 70 + "\nrL\n\nSolver: X\n")
    assert parse_xsb(format_xsb([lv])) == [Level(**{**lv.__dict__, "number": 1})]


@given(st.lists(drawable_levels(), max_size=4))
def test_round_trip_format_then_parse(lvs):
    lvs = [Level(**{**lv.__dict__, "number": i + 1}) for i, lv in enumerate(lvs)]
    assert parse_xsb(format_xsb(lvs)) == lvs


@given(drawable_levels(with_text=False), st.sampled_from(["\r\n", "\r"]))
def test_round_trip_with_other_line_endings(lv, eol):
    lv = Level(**{**lv.__dict__, "number": 1})
    assert parse_xsb(format_xsb([lv]).replace("\n", eol)) == [lv]


def test_soko_desc_round_trip():
    desc = ["#####", "#.$ #", "#@  #", "#####"]
    lv = levels.from_soko_desc(desc)
    assert lv.player == (1, 2) and lv.boxes == {(2, 1)} and lv.goals == {(1, 1)}
    assert levels.to_soko_desc(lv) == desc
    with pytest.raises(LevelError, match="<desc>:2:3: unexpected character"):
        levels.from_soko_desc(["###", "#@?"])


@given(drawable_levels(with_text=False))
def test_soko_desc_round_trip_property(lv):
    back = levels.from_soko_desc(levels.to_soko_desc(lv))
    assert back == lv
    assert len(set(map(len, levels.to_soko_desc(lv)))) <= 1  # rectangular


def test_a_sok_file_header_does_not_become_the_first_title():
    text = (":: Created with some program\nTitle: My Collection\nAuthor: Someone\n\n"
            "Level 1\n#####\n#@$.#\n#####\n\nLevel 2\n#####\n#@$.#\n#####\n")
    coll = levels.parse_sok(text)
    a, b = coll.levels
    assert (a.title, b.title) == ("Level 1", "Level 2")
    assert coll.metadata == {"Title": "My Collection", "Author": "Someone"}
    assert coll.title == "My Collection"
    assert a.metadata == b.metadata == {} and a.notes == b.notes == ""


def test_solution_keys_with_notes_in_parentheses():
    lv = only("#####\n#@$.#\n#####\nSolution (moves 2, pushes 1): rR\nSolution/2: x\n")
    assert lv.solutions == ("rR",)
    assert lv.metadata == {}  # 'Solution/2: x' is not a key: it ends the keys
