"""levels.names: choosing and naming levels, sizes and plurals, shared by
every command line."""

import pytest
from hypothesis import given, strategies as st

import levels
from levels import Level
from levels.names import LevelChoiceError, _key, find_level, level_label, plural, size_text


def test_plurals():
    assert [plural(1, "box"), plural(2, "box"), plural(0, "goal"), plural(1, "cell"),
            plural(3, "cell"), plural(1, "example"), plural(2, "push"), plural(2, "match")] == [
        "1 box", "2 boxes", "0 goals", "1 cell", "3 cells", "1 example", "2 pushes", "2 matches"]
    assert plural(2, "child", "children") == "2 children"


def test_sizes_are_width_first():
    assert size_text(8, 6) == "8 x 6"


def test_seed003_names():
    seed003 = levels.load("seed003")
    assert [level_label(lv, i) for i, lv in enumerate(seed003)][3] == "Nivel 3 (level 4)"
    for choice in (4, "4", " 4 ", "Nivel 3", "nivel3", "NIVEL 3", "nivel-3"):
        assert find_level(seed003, choice) == 3


def test_microban_titles_that_are_their_numbers_are_not_repeated():
    micro = levels.load("microban")
    assert level_label(micro[0], 0) == "level 1"
    assert level_label(micro[43], 43) == "44 'Duh!' (level 44)"
    assert find_level(micro, "44 'Duh!'") == 43


def test_errors_say_what_there_is():
    two = [Level(title="A"), Level(title="a")]
    with pytest.raises(LevelChoiceError, match=r"2 levels are titled 'A': A \(level 1\), a \(level 2\)"):
        find_level(two, "A")
    with pytest.raises(LevelChoiceError, match=r"no level 3 \(there are 2 levels, numbered from 1\)"):
        find_level(two, 3)
    with pytest.raises(LevelChoiceError, match=r"no level 1 \(there are 0 levels"):
        find_level([], "1")


@given(st.lists(st.text(max_size=8), min_size=1, max_size=6), st.data())
def test_every_level_is_found_by_its_number_and_by_a_unique_title(titles, data):
    lvs = [Level(title=t or None, number=i + 1) for i, t in enumerate(titles)]
    i = data.draw(st.integers(0, len(lvs) - 1))
    assert find_level(lvs, i + 1) == i
    label = level_label(lvs[i], i)
    assert f"level {i + 1}" in label
    t = titles[i]
    same = [j for j, u in enumerate(titles) if _key(u) == _key(t)]
    if not _key(t) or t.strip().isdigit() or len(same) > 1:
        return  # not a usable name: empty, a number, or shared with another level
    assert find_level(lvs, t) == i
