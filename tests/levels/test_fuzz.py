"""No exception but LevelError escapes the readers, on any text or bytes."""

import pytest
from hypothesis import example, given, settings, strategies as st

import levels
from levels import LevelError, lurd

# Lenient reads skip bad puzzles with a LevelWarning: expected by the thousand here.
pytestmark = pytest.mark.filterwarnings("ignore::levels.LevelWarning")

# Text biased towards the formats' own characters, so the fuzzing reaches deep.
_PIECES = st.sampled_from(list("#@+$*.pPbBW -_0123456789()|;:\r\n\t%x") + [
    "Title: ", "Bombs: ", "Solution: ", "Comment:", "Comment-End:", "::",
    "filas(", "columnas(", "pista(", ")", ", ", ".", " j", " c", " x", " o",
    ":- consult('sokoban.pro').", "/*", "*/", "\ufeff", "lurd", "LURD",
    # SOK: titles, snapshots (moves over lines, RLE, reverse mode, marks), notes, variants
    "\n\n", "Title\n", "Solution 12/3\n", "rrUU\n", "uu\nLL\n", "2(rU)\n", "[]", "[", "]",
    "{", "}", "*", "Game: Hexoban\n", "Game = Trioban\n", "Game: Sokoban\n",
    "Collection: c\n", "Author: a\n", "Solver: s\n", "Title = t\n", "notes\n", "#####\n"])
_TEXTS = st.one_of(st.text(), st.lists(_PIECES, max_size=60).map("".join))


def _only_level_errors(fn, *args):
    try:
        result = fn(*args)
    except LevelError as e:
        assert str(e)  # a message, always
        return None
    return result


@settings(max_examples=300)
@given(_TEXTS)
def test_xsb_reader_raises_only_level_error(text):
    out = _only_level_errors(levels.parse_xsb, text, "fuzz.xsb")
    if out is not None:
        for lv in out:
            levels.validate(lv, "tad")
            levels.validate(lv, "soko")


@settings(max_examples=300)
@given(_TEXTS)
@example("One\n#@$.#\n\nBest\nR\n\nx\n\nrr\n")
@example("a\n\n#@$.#\nGame: Hexoban\n\nb\n#@$.#\nR\n")
def test_whatever_the_sok_reader_reads_it_writes_back_whole(text):
    """Reading, writing and reading again keeps every field: the file notes
    and keys, and each level read (renumbered: skipped puzzles are not written)."""
    c = _only_level_errors(levels.parse_sok, text)
    if c is None:
        return
    if any(lv.undrawable() for lv in c.levels):
        return
    try:
        written = levels.format_xsb(c)
    except LevelError:
        return
    renumbered = levels.Collection(
        levels=[levels.Level(**{**lv.__dict__, "number": i}) for i, lv in enumerate(c.levels, 1)],
        metadata=c.metadata, notes=c.notes)
    assert levels.parse_sok(written) == renumbered


@settings(max_examples=300)
@given(_TEXTS)
def test_prolog_reader_raises_only_level_error(text):
    out = _only_level_errors(levels.parse_prolog, text, "fuzz.pro")
    if out is not None:
        levels.validate(out)


def _reads_back(parse, write, text):
    """What ``parse`` read, ``write`` writes so that ``parse`` reads it back
    equal, or refuses with LevelError (never changes it silently)."""
    out = _only_level_errors(parse, text)
    if out is None or out == []:
        return
    lvs = out if isinstance(out, list) else [out]
    if any(lv.undrawable() for lv in lvs) and parse is levels.parse_xsb:
        return
    if parse is levels.parse_xsb:  # numbered by their place: skipped puzzles are not written
        out = [levels.Level(**{**lv.__dict__, "number": i}) for i, lv in enumerate(lvs, 1)]
    try:
        written = write(out)
    except LevelError:
        return
    assert parse(written) == out


@settings(max_examples=300)
@given(_TEXTS)
@example("Comment-End:\r\r0\r0\r#")  # a comment line that looks like a block end
def test_whatever_the_xsb_reader_reads_it_writes_back(text):
    _reads_back(levels.parse_xsb, levels.format_xsb, text)


@settings(max_examples=300)
@given(_TEXTS)
def test_whatever_the_prolog_reader_reads_it_writes_back(text):
    _reads_back(levels.parse_prolog, levels.format_prolog, text)


@settings(max_examples=200)
@given(_TEXTS)
@example("\u00b2r")  # a Unicode digit is not a run-length count
def test_lurd_reader_raises_only_level_error(text):
    _only_level_errors(lurd.parse, text)


@settings(max_examples=200)
@given(st.binary() | _TEXTS.map(lambda t: t.encode("utf-8", "surrogatepass")),
       st.sampled_from(["level.sok", "level.pro", "level"]))
def test_read_file_on_arbitrary_bytes(tmp_path_factory, data, name):
    path = tmp_path_factory.mktemp("fuzz") / name
    path.write_bytes(data)
    _only_level_errors(levels.read_file, path)


@given(st.lists(st.text(), max_size=5))
def test_soko_desc_reader_raises_only_level_error(desc):
    _only_level_errors(levels.from_soko_desc, desc)


def test_unreadable_paths_are_level_errors(tmp_path):
    for path in (tmp_path / "missing.xsb", tmp_path):
        try:
            levels.read_file(path)
        except LevelError as e:
            assert str(path) in str(e)
        else:
            raise AssertionError("expected LevelError")
