"""--json and --junit files: the umask's mode, atomic, and a user's unrelated
file is never overwritten."""

from __future__ import annotations

import os
import stat

from hypothesis import given, settings, strategies as st

from conformance.commands import cli
from conformance.api import Verdict
from conformance.reports.output import write_json, write_junit

VERDICTS = [Verdict(target="t", profile="soko", conforms=True)]


@settings(max_examples=30, deadline=None)
@given(mask=st.integers(0, 0o777), writer=st.sampled_from([write_json, write_junit]))
def test_new_files_get_the_umask_mode(tmp_path_factory, mask, writer):
    path = tmp_path_factory.mktemp("out") / "verdicts.out"
    old = os.umask(mask)
    try:
        writer(VERDICTS, path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    assert [p.name for p in path.parent.iterdir()] == ["verdicts.out"]     # no temporary left


def test_a_report_of_ours_is_replaced_and_keeps_its_mode(tmp_path):
    path = tmp_path / "v.json"
    write_json(VERDICTS, path)
    path.chmod(0o640)
    write_json([Verdict(target="u", profile="tad", conforms=False)], path)
    assert '"target": "u"' in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_users_file_is_not_overwritten(tmp_path, capsys):
    for option, name in (("--json", "notes.json"), ("--junit", "report.xml")):
        path = tmp_path / name
        path.write_text("my own notes\n")
        status = cli.main(["impl.tad", "--max-examples", "2", option, str(path)])
        assert status == 2
        assert path.read_text() == "my own notes\n"
        out, err = capsys.readouterr()
        assert out == ""                        # refused before checking, not after
        assert f"cannot write {path}: the file exists and was not written by this tool" in err


def test_a_folder_or_an_unwritable_place_is_named_before_checking(tmp_path, capsys):
    (tmp_path / "out").mkdir()
    assert cli.main(["impl.tad", "--max-examples", "2", "--json", str(tmp_path / "out")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"cannot write {tmp_path / 'out'}: it is a folder" in err
    blocked = tmp_path / "file"
    blocked.write_text("x")
    target = blocked / "v.json"             # its "folder" is a file
    assert cli.main(["impl.tad", "--max-examples", "2", "--json", str(target)]) == 2
    assert f"cannot write {target}: " in capsys.readouterr().err
