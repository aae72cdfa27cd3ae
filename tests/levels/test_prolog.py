"""Seed 003's Prolog facts."""

import pytest
from hypothesis import given, strategies as st

from levels import Level, LevelError, format_prolog, parse_prolog
from levels.prolog import has_board_edge, looks_like_prolog, ring
from levels.strategies import drawable_levels

NIVEL1 = """% Tamanho del tablero (no tiene porque ser cuadrada)
filas(2).
columnas(3).

% Pistas del nivel
pista(1, 2, j).
pista(2, 2, c).
pista(2, 1, x).

:- consult('sokoban.pro').
"""


def test_pista_f_c_is_x_c_y_f_and_the_edge_becomes_walls():
    lv = parse_prolog(NIVEL1)
    assert lv.player == (2, 1) and lv.boxes == {(2, 2)} and lv.goals == {(1, 2)}
    assert lv.walls == ring(3, 2)
    assert lv.walls == ({(x, y) for x in range(5) for y in (0, 3)}
                        | {(x, y) for x in (0, 4) for y in range(4)})
    assert (lv.width, lv.height) == (5, 4)
    assert lv.rows() == ["#####", "# @ #", "#.$ #", "#####"]


def test_several_facts_on_one_cell_and_comments_and_block_comments():
    lv = parse_prolog("filas(1). columnas(2). /* pista(1, 1, o). */\n"
                      "pista(1,1,c).pista( 1 , 1 , x ). % box on goal\n"
                      "pista(1, 2, j).\n")
    assert lv.boxes == lv.goals == {(1, 1)} and lv.player == (2, 1)
    assert lv.walls == ring(2, 1)


def test_crlf_and_cr_line_endings():
    for eol in ("\r\n", "\r"):
        assert parse_prolog(NIVEL1.replace("\n", eol)) == parse_prolog(NIVEL1)


@pytest.mark.parametrize("text, line, column, what", [
    ("filas(2).\ncolumnas(3).\npista(1, 4, c).\n", 3, 1, "off the board"),
    ("filas(2).\ncolumnas(3).\n  pista(1, 1, z).\n", 3, 15, "unknown element 'z'"),
    ("filas(2).\ncolumnas(3).\npista(1, 1, j).\npista(2, 2, j).\n", 4, 1, "second player"),
    ("filas(2).\ncolumnas(3).\nfoo(1).\n", 3, 1, "expected filas"),
    ("filas(2).\nfilas(3).\n", 2, 1, "given twice"),
    ("filas(2).\n", None, None, "missing columnas"),
    ("filas(0).\ncolumnas(3).\n", None, None, "at least one row"),
    ("filas(2).\ncolumnas(3).\n/* open", 3, 1, "unterminated"),
    ("filas(2).\r\ncolumnas(3).\r\npista(1, 1, c)\r\n", 3, 1, "expected filas"),
])
def test_errors_say_where(text, line, column, what):
    with pytest.raises(LevelError) as e:
        parse_prolog(text, source="n.pro")
    assert (e.value.line, e.value.column) == (line, column)
    assert what in str(e.value) and str(e.value).startswith("n.pro")


def test_looks_like_prolog():
    assert looks_like_prolog(NIVEL1)
    assert looks_like_prolog("/* x */ :- consult(a).")
    assert not looks_like_prolog("; 1\n####\n")


def test_writer_output_reads_back_with_metadata():
    lv = parse_prolog(NIVEL1)
    text = format_prolog(Level(**{**lv.__dict__, "title": "nivel1", "bombs": 2,
                                  "metadata": {"Author": "A. Vega"},
                                  "solutions": ("rdL",)}))
    assert "pista(1, 2, j)." in text and "filas(2)." in text and "columnas(3)." in text
    assert ":- consult('sokoban.pro')." in text
    back = parse_prolog(text)
    assert (back.title, back.bombs, back.metadata, back.solutions) == (
        "nivel1", 2, {"Author": "A. Vega"}, ("rdL",))
    assert back.walls == lv.walls


_FACTS = st.tuples(st.integers(1, 6), st.integers(1, 6),
                   st.sampled_from("jcxo"))


@st.composite
def prolog_texts(draw):
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    facts = draw(st.lists(_FACTS.filter(lambda f: f[0] <= rows and f[1] <= cols),
                          max_size=15))
    seen_j = [f for f in facts if f[2] == "j"][:1]
    facts = [f for f in facts if f[2] != "j"] + seen_j
    body = "".join(f"pista({f}, {c}, {e}).\n" for f, c, e in facts)
    return f"filas({rows}).\ncolumnas({cols}).\n{body}:- consult('sokoban.pro').\n"


@given(prolog_texts())
def test_round_trip_of_levels_read_from_prolog(text):
    lv = parse_prolog(text)
    assert parse_prolog(format_prolog(lv)) == lv


@given(drawable_levels())
def test_other_levels_come_back_moved_and_enclosed(lv):
    back = parse_prolog(format_prolog(lv))
    if has_board_edge(lv):
        assert back == Level(**{**lv.__dict__, "number": 1})
        return
    ps = lv.positions() or {(0, 0)}
    minx, miny = min(x for x, _ in ps), min(y for _, y in ps)
    maxx, maxy = max(x for x, _ in ps), max(y for _, y in ps)
    moved = lv.translated(1 - minx, 1 - miny)
    assert back.walls == moved.walls | ring(maxx - minx + 1, maxy - miny + 1)
    assert (back.boxes, back.goals, back.player) == (moved.boxes, moved.goals, moved.player)
    assert (back.title, back.metadata, back.bombs, back.solutions, back.number) == (
        lv.title, lv.metadata, lv.bombs, lv.solutions, 1)


def test_a_board_shaped_level_is_written_exactly():
    lv = parse_prolog(NIVEL1)
    assert has_board_edge(lv)
    assert not has_board_edge(lv.translated(1, 0))
    assert format_prolog(lv).count("pista(") == 3


def test_read_file_takes_pl_and_pro_files_as_prolog(tmp_path):
    import levels
    f = tmp_path / "odd.pl"
    f.write_text("foo(1).\n")
    with pytest.raises(LevelError, match="expected filas"):
        levels.read_file(f)
    g = tmp_path / "nivel1.txt"  # by content, whatever the name
    g.write_text(NIVEL1)
    assert levels.read_file(g) == [parse_prolog(NIVEL1)]


def test_errors_name_the_level_title_when_the_file_gives_one():
    with pytest.raises(LevelError) as e:
        parse_prolog("% Title: nivel9\nfilas(2).\ncolumnas(2).\npista(3, 1, c).\n", "n9.pro")
    assert str(e.value).startswith("n9.pro:4:1: level 1 ('nivel9'): pista(3, 1, c) is off the board")
