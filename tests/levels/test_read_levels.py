"""``levels.read_levels``: the one reader behind every FILE|COLLECTION argument."""

import pytest

import levels


def test_a_collection_name_loads_the_bundled_collection():
    assert levels.read_levels("seed003") == levels.load("seed003")
    assert len(levels.read_levels("microban")) == 155


def test_a_file_wins_over_a_collection_of_the_same_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "microban").write_text("#####\n#@$.#\n#####\n")
    (only,) = levels.read_levels("microban")
    assert only.boxes == frozenset({(2, 1)})


@pytest.mark.parametrize("make, says", [
    (lambda d: str(d / "missing.xsb"), "no such file, nor a bundled collection (bundled: microban"),
    (lambda d: str(d), "is a directory"),
])
def test_what_cannot_be_opened_is_a_source_error_saying_what(tmp_path, make, says):
    with pytest.raises(levels.SourceError, match=r"\(bundled" if "bundled" in says else says) as info:
        levels.read_levels(make(tmp_path))
    assert says in str(info.value)
    assert isinstance(info.value, levels.LevelError)


def test_a_broken_file_is_a_level_error_not_a_source_error(tmp_path):
    f = tmp_path / "bad.xsb"
    f.write_text("#####\n#@$.X#\n#####\n")
    with pytest.raises(levels.LevelError) as info:
        levels.read_levels(str(f), strict=True)
    assert not isinstance(info.value, levels.SourceError)


def test_a_broken_puzzle_is_skipped_with_a_warning_and_the_rest_is_read(tmp_path):
    f = tmp_path / "bad.xsb"
    f.write_text("one\n#####\n#@$.X#\n#####\n\ntwo\n#####\n#@$.#\n#####\n")
    with pytest.warns(levels.LevelWarning, match=r"bad.xsb:3:5: level 1 \('one'\): unexpected") as w:
        (two,) = levels.read_levels(str(f))
    assert (two.title, two.number) == ("two", 2)
    assert w[0].message.error.level_number == 1
    coll = levels.read_collection(str(f))
    assert [e.level_title for e in coll.skipped] == ["one"]
