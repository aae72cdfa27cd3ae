"""``benchmarks/false_alarms.py``: every kind of subject the selftest knows
(a Python module or file checked in process, a language's own target
written out first) is given to ``sokoban check`` as a teacher would give it,
and a correct one earns full marks."""

import importlib.util
import pathlib
import shutil

import pytest

from conformance import profiles
from conformance.commands import selftest

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("false_alarms", ROOT / "benchmarks" / "false_alarms.py")
false_alarms = importlib.util.module_from_spec(spec)
spec.loader.exec_module(false_alarms)


def test_every_subject_is_given_to_the_check_as_a_path_or_a_module():
    for target, _profile, _should in selftest.subjects():
        path, options = false_alarms.command_target(target)
        if profiles.of_kind(target.partition(":")[0]) is not None:    # cpp:..., prolog:...
            assert pathlib.Path(path).exists() and options == []    # written out
        else:
            assert path == target and options == ["--in-process"]


@pytest.mark.parametrize("only", ["student_tad_class"]
                         + (["cpp_reference"] if shutil.which("g++") else []))
def test_a_correct_implementation_earns_full_marks(only, capsys):
    assert false_alarms.main(["--seeds", "1", "--only", only, "--jobs", "1"]) == 0
    assert "1/1 runs with full marks" in capsys.readouterr().out
