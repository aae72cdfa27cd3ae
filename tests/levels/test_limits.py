"""Readers and validators in linear time and bounded memory, and their caps.

No wall-clock assertions: complexity is checked structurally (a work counter,
a memory peak) or by inputs so large that the old exponential or quadratic
behaviour could never finish in CI time.
"""

import dataclasses
import gc
import tracemalloc

import pytest
from hypothesis import example, given, settings, strategies as st

import levels
from levels import Level, LevelError, lurd, rle

# Lenient reads skip bad puzzles with a LevelWarning: expected by the thousand here.
pytestmark = pytest.mark.filterwarnings("ignore::levels.LevelWarning")
from levels.hostile import SHAPES
from levels.model import MAX_CELLS
from levels.prolog import looks_like_prolog

BOARD = "#####\n#@$.#\n#####\n"
PRO = "filas(1).\ncolumnas(3).\npista(1, 1, j).\npista(1, 2, c).\npista(1, 3, x).\n"


# -- run-length nesting: was a RecursionError ------------------------------

def test_rle_nesting_is_capped_without_recursion():
    with pytest.raises(rle.RLEError) as e:
        rle.expand("(" * 100_000 + "#")
    assert e.value.index == rle.MAX_NESTING and "nested" in str(e.value)
    deepest = "(" * rle.MAX_NESTING + "#" + ")" * rle.MAX_NESTING
    assert rle.expand(deepest) == "#"


@pytest.mark.parametrize("text, line, column", [
    ("(" * 990 + "#", 1, 33),
    ("; t\n" + BOARD + "Solution: rr" + "(" * 990 + "r\n", 5, 45),
    ("% Solution: 2" + "(" * 990 + "r\n" + PRO, 1, 46),
])
def test_deep_nesting_is_a_level_error_naming_line_and_column(text, line, column):
    with pytest.raises(LevelError) as e:
        levels.parse_text(text, "deep.txt", strict=True)
    err = e.value
    assert (err.source, err.line, err.column) == ("deep.txt", line, column)
    assert "nested more than 32 deep" in str(err)
    assert str(err).startswith(f"deep.txt:{line}:{column}: ")


def test_lurd_nesting_is_a_level_error():
    with pytest.raises(LevelError, match="nested"):
        lurd.parse("r" + "(" * 5000 + "u" + ")" * 5000)


# -- looks_like_prolog: was exponential in the leading layout ----------------

@pytest.mark.parametrize("layout", [" ", "\n", "\t", "%", "\r\n", "%\n", "/**/"])
def test_looks_like_prolog_is_linear_on_leading_layout(layout):
    # 28 characters took 9.5 s and each one more doubled it: 100,000 would
    # never finish.
    assert not looks_like_prolog(layout * 100_000 + "#")
    assert looks_like_prolog(layout * 100_000 + ("\n" if layout == "%" else "") + "filas(1).")


def test_comment_text_is_not_a_fact():
    # The old backtracking regex let '%' end early and took 'filas' for a fact.
    assert not looks_like_prolog("%filas(1).")
    assert looks_like_prolog("%filas\nfilas(1).")


# -- validate: was O(cells x pieces) in time, O(grid) in memory --------------

def _room(n):
    walls = ({(x, y) for x in range(n) for y in (0, n - 1)}
             | {(x, y) for y in range(n) for x in (0, n - 1)})
    return Level(walls=walls, player=(1, 1))


def test_soko_validation_does_constant_work_per_cell(monkeypatch):
    """A work counter: ``Level.positions`` (a pass over every piece) must be
    called a fixed number of times, not once per cell of the room."""
    calls = []
    original = Level.positions
    monkeypatch.setattr(Level, "positions", lambda self: calls.append(1) or original(self))
    counts = []
    for n in (20, 40):
        calls.clear()
        assert levels.validate(_room(n), "soko") == []
        counts.append(len(calls))
    assert counts[0] == counts[1] <= 8


def test_soko_validation_memory_is_bounded_on_a_huge_grid():
    far = Level(walls={(0, 0), (2999, 2999)}, player=(5, 5))
    tracemalloc.start()
    try:
        msgs = levels.validate(far, "soko")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000  # the old flood fill went past 1 GB
    assert any("too large" in m and "3000 x 3000" in m for m in msgs)


def test_soko_validation_of_the_largest_room():
    side = int(MAX_CELLS ** 0.5)
    assert levels.validate(_room(side), "soko") == []
    leaky = _room(side)
    leaky = Level(walls=leaky.walls - {(side // 2, side - 1)}, player=(1, 1))
    assert any("not enclosed" in m for m in levels.validate(leaky, "soko"))


# -- board-size caps ----------------------------------------------------------

def test_prolog_board_size_is_capped_at_its_fact():
    text = "% Title: big\nfilas(999999).\n  columnas(999999).\npista(1, 1, j).\n"
    with pytest.raises(LevelError) as e:
        levels.parse_prolog(text, "big.pl")
    err = e.value
    assert (err.source, err.line, err.column) == ("big.pl", 3, 3)
    assert "too large" in err.problem and "1000001 x 1000001" in err.problem
    # The largest board that fits is read.
    side = int(MAX_CELLS ** 0.5) - 2
    ok = levels.parse_prolog(f"filas({side}).\ncolumnas({side}).\npista(1, 1, j).\n")
    assert ok.width == side + 2


@pytest.mark.parametrize("text, line, column", [
    ("#" * (MAX_CELLS + 1) + "\n", 1, MAX_CELLS + 1),
    ("#@$.#\n" + "#\n" * MAX_CELLS + "#" * 3 + "\n", MAX_CELLS // 5 + 1, 1),
    ("1(999999#)\n", 1, 1),
])
def test_xsb_board_size_is_capped(text, line, column):
    with pytest.raises(LevelError) as e:
        levels.parse_xsb(text, "big.xsb", strict=True)
    assert (e.value.line, e.value.column) == (line, column)
    assert "too large" in str(e.value) and str(e.value).startswith(f"big.xsb:{line}:{column}")


def test_soko_description_size_is_capped():
    with pytest.raises(LevelError, match="too large"):
        levels.from_soko_desc(["#" * 1000] * 1000)


# -- every hostile shape, large, through every reader --------------------------

def _read_everything(text, tmp_path=None):
    """Every reader on ``text``; only LevelError may come out, and what is
    read validates under both rule sets."""
    for read in (levels.parse_text, levels.parse_xsb, levels.parse_prolog):
        try:
            out = read(text, "shape")
        except LevelError as e:
            assert str(e).startswith("shape")
            continue
        for lv in out if isinstance(out, list) else [out]:
            levels.validate(lv, "tad")
            levels.validate(lv, "soko")
    looks_like_prolog(text)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_hostile_shapes_at_256_kb(name, tmp_path):
    """256 KB of each shape: the old quadratic scans (10^10 steps) and
    exponential regexes would never finish; the old recursion crashed."""
    text = SHAPES[name](1 << 18)
    assert len(text) > 200_000 or name == "xsb room"
    _read_everything(text)
    path = tmp_path / "shape.sok"
    path.write_text(text, encoding="utf-8")
    try:
        levels.read_file(path)
    except LevelError:
        pass


_SHAPE_TEXTS = st.builds(lambda name, n, cut, junk: (SHAPES[name](n)[:cut] + junk),
                         st.sampled_from(sorted(SHAPES)), st.integers(1, 3000),
                         st.integers(0, 3000), st.text(max_size=20))


@settings(max_examples=300)
@given(st.one_of(_SHAPE_TEXTS, st.tuples(_SHAPE_TEXTS, _SHAPE_TEXTS).map("".join)))
@example("(" * 990 + "#")
@example(" " * 28 + "#")
@example("filas(999999). columnas(999999).")
def test_hostile_shapes_fuzzed_give_only_level_errors(text):
    _read_everything(text)


# -- the reader's speed tricks change nothing you can see ----------------------

@pytest.mark.parametrize("enabled", [True, False])
@pytest.mark.parametrize("text", [SHAPES["xsb many levels"](4096), "#@$.#\n#X\n"])
def test_the_cycle_collector_is_restored_after_reading(text, enabled):
    """``parse_xsb`` pauses the cyclic collector (30% of its time on 1 MB of
    tiny levels); it leaves it as it found it, after an error too."""
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        try:
            levels.parse_xsb(text, "t.xsb")
        except LevelError:
            pass
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


@settings(max_examples=50)
@given(st.sampled_from(levels.load("microban")))
def test_a_read_level_is_what_the_constructor_makes(level):
    """The reader builds levels without ``Level.__init__`` (a quarter of its
    time); each one equals, field by field and type by type, the level the
    constructor makes of the same fields."""
    made = Level(**{f.name: getattr(level, f.name) for f in dataclasses.fields(Level)})
    assert made == level and hash(made) == hash(level)
    for f in dataclasses.fields(Level):
        assert type(getattr(made, f.name)) is type(getattr(level, f.name)), f.name
