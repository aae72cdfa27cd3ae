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
        levels.read_levels(str(f))
    assert not isinstance(info.value, levels.SourceError)
