"""``sokoban monitor TEST_OR_SCRIPT [--impl soko.py]`` from a course folder:
a course-style test file runs exactly as it does bare on a correct soko.py,
and on a mutant reports the departing call and its rule (often before the
assertion that would fail, or where no assertion fails)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import mutants
from conformance.commands.monitor_run import style

HERE = Path(__file__).resolve().parent
UNITTEST_FILE = HERE / "fixtures" / "monitor_course" / "soko_test.py"     # unittest style
SCRIPT_FILE = HERE.parent / "impl" / "soko_test.py"                      # functions and main()
BIN = Path(sys.executable).parent


def course(folder: Path, implementation: str, test: Path = UNITTEST_FILE) -> Path:
    """A course folder: the student's soko.py (a mutant or student module of
    conformance/mutants, with the base it imports) and the test file."""
    mutants.copy_to(implementation, folder, "soko.py")
    shutil.copy(test, folder / test.name)
    return folder


def sokoban(folder: Path, *argv: str) -> subprocess.CompletedProcess:
    command = BIN / "sokoban"
    if not command.exists():
        pytest.skip("console script sokoban not installed (pip install -e .)")
    return subprocess.run([str(command), *argv], cwd=folder, capture_output=True, text=True,
                          timeout=300)


def bare(folder: Path, test: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, test], cwd=folder, capture_output=True, text=True,
                          timeout=300)


def timeless(text: str) -> str:
    return re.sub(r"Ran (\d+) tests? in [0-9.]+s", r"Ran \1 tests", text)


@pytest.mark.parametrize("test", [UNITTEST_FILE, SCRIPT_FILE], ids=["unittest", "script"])
@pytest.mark.parametrize("student", sorted(n for n, p in mutants.STUDENTS.items() if p == "soko"))
def test_a_correct_soko_passes_exactly_as_without_the_monitor(tmp_path, student, test):
    folder = course(tmp_path, student, test)
    under = sokoban(folder, "monitor", test.name)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["soko.py", test.name] + [f"{b}.py" for b in mutants.bases(student)])  # nothing left
    without = bare(folder, test.name)
    assert without.returncode == 0, without.stdout + without.stderr
    assert under.returncode == 0, under.stdout + under.stderr
    assert under.stdout == without.stdout
    said = under.stderr.splitlines()
    end = max(i for i, line in enumerate(said) if " calls checked against the spec" in line)
    assert timeless("\n".join(said[1:end])) == timeless(without.stderr.rstrip("\n"))
    assert said[0].startswith(f"sokoban monitor: {test.name} (as a script) with 'import soko' = ")
    assert re.fullmatch(r"sokoban monitor: \d+ calls checked against the spec; no departure",
                        said[end]), said[end]
    assert all(line.startswith("sokoban monitor: accepted: ") for line in said[end + 1:])


@pytest.mark.parametrize("name", ["soko_pushes_two_boxes", "soko_blocked_counts_moves",
                                  "soko_wrong_axes", "soko_mutates_grid"])
def test_a_mutant_reports_the_departing_call_and_its_rule(tmp_path, name):
    folder = course(tmp_path, name)
    under = sokoban(folder, "monitor", "soko_test.py")
    rule = mutants.RULES[name]
    assert under.returncode == 1, under.stdout + under.stderr
    out = under.stderr
    assert "DepartureError: File soko_test.py, line " in out
    assert re.search(r"\n(crear_grilla\(desc\)|mover\(grilla, \([-0-9, ]+\)\)) departs from "
                     r"the spec", out), out
    assert f"Rule broken: {rule}: " in out
    assert out.splitlines()[-1].endswith(f"departure (rules broken: {rule})") or \
        f"(rules broken: {rule}" in out.splitlines()[-1]


def test_the_monitor_finds_what_the_test_file_misses(tmp_path):
    """soko_blocked_counts_moves passes the test file bare: under the
    monitor the first blocked move that returns a different grid departs."""
    folder = course(tmp_path, "soko_blocked_counts_moves")
    assert bare(folder, "soko_test.py").returncode == 0
    under = sokoban(folder, "monitor", "soko_test.py")
    assert under.returncode == 1 and "Rule broken: soko.blocked-same" in under.stderr


PYTEST_STYLE = '''\
import soko

def test_push():
    g = soko.crear_grilla(["######", "#@$$.#", "######"])
    g = soko.mover(g, (1, 0))
    assert soko.hay_jugador(g, 1, 1)
'''

SCRIPT = '''\
import sys
import soko

g = soko.crear_grilla(["######", "#@$$.#", "#    #", "######"])
for d in [(1, 0), (0, 1), (1, 0)]:
    g = soko.mover(g, d)
print("moved", sys.argv[1:])
'''


def test_a_pytest_style_file_runs_under_pytest(tmp_path):
    mutants.copy_to("soko_pushes_two_boxes", tmp_path, "soko.py")
    (tmp_path / "check_soko.py").write_text(PYTEST_STYLE, encoding="utf-8")
    assert style(PYTEST_STYLE) == "pytest" and style(SCRIPT) == "script"
    under = sokoban(tmp_path, "monitor", "check_soko.py", "-q")
    assert under.returncode == 1, under.stdout + under.stderr
    assert "1 failed" in under.stdout and "Rule broken: soko.push-blocked" in under.stdout
    assert "(pytest) with 'import soko'" in under.stderr
    # pytest shows the test's lines, not the monitor's (__tracebackhide__)
    assert "monitor.py" not in under.stdout.split("DepartureError")[0]


def test_a_script_with_arguments_and_an_impl_elsewhere(tmp_path):
    student = mutants.copy_to("student_soko_strings", tmp_path / "mine", "soko.py")
    (tmp_path / "play.py").write_text(SCRIPT, encoding="utf-8")
    under = sokoban(tmp_path, "monitor", "play.py", "--impl", str(student), "a", "b")
    assert under.returncode == 0, under.stderr
    assert under.stdout == "moved ['a', 'b']\n"
    assert under.stderr.splitlines()[-1] == ("sokoban monitor: 4 calls checked against "
                                             "the spec; no departure")
    mutants.copy_to("soko_pushes_two_boxes", tmp_path / "bad", "soko.py")
    under = sokoban(tmp_path, "monitor", "play.py", "--impl", "bad/soko.py")
    assert under.returncode == 1
    assert "Rule broken: soko.push-blocked" in under.stderr
    trace = under.stderr.split("DepartureError")[0]
    assert 'File "play.py", line 6' in trace and "conformance/" not in trace
    assert "runpy" not in trace


@pytest.mark.parametrize("argv, files, message", [
    (["monitor", "nowhere.py"], {}, "nowhere.py: no such file"),
    (["monitor", "t.py"], {"t.py": "import soko\n"}, "no soko.py next to t.py"),
    (["monitor", "t.py", "--impl", "x.py"], {"t.py": ""}, "--impl x.py: no such file"),
    (["monitor", "t.py"], {"t.py": "", "soko.py": "def crear_grilla(:\n"},
     "syntax error at soko.py, line 1"),
    (["monitor", "t.py"], {"t.py": "", "soko.py": "raise RuntimeError('boom')\n"},
     "importing it raised RuntimeError: boom"),
    (["monitor"], {}, "usage: sokoban monitor"),
])
def test_bad_input_exits_2_without_a_traceback(tmp_path, argv, files, message):
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    r = sokoban(tmp_path, *argv)
    assert r.returncode == 2, r.stdout + r.stderr
    assert message in r.stderr and "Traceback" not in r.stderr
