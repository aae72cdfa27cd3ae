"""``benchmarks/solver.py``: its table and summary on a small file, and the
side-by-side comparison with a peer command (a stand-in script here)."""

import importlib.util
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("bench_solver", ROOT / "benchmarks" / "solver.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

LEVELS = """; one
#######
#@$  .#
#######

; two
#####
#.$@#
#####
"""

# A stand-in peer: prints "RRR" (which solves level one only: level two needs
# a push left) and exits 0.
PEER = "import sys; print(open(sys.argv[1]).read().count('.') and 'RRR')"


def test_table_summary_and_peer_side_by_side(tmp_path, capsys):
    f = tmp_path / "two.sok"
    f.write_text(LEVELS)
    peer = tmp_path / "peer.py"
    peer.write_text(PEER)
    assert bench.main([str(f), "-t", "5", "--peer", f"{sys.executable} {peer} {{level}}"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines()]
    header = rows.index(["level", "status", "moves", "pushes", "opt", "nodes",
                         "time", "s", "nodes/s"])
    assert rows[header + 1][:5] == ["1", "solved", "3", "3", "moves"]
    side = [r for r in rows if len(r) >= 5 and r[0] in ("1", "2")
            and r[1] == "solved" and r[3] == "solved"]
    assert len(side) == 2
    assert side[0][5] == "yes"        # level one: the peer's RRR replays through spec
    assert side[1][5] != "yes"        # level two: RRR is not its solution
    assert any(line.startswith("two.sok") and "2/2" in line for line in out.splitlines())
    assert "peer time" in out


def test_peer_that_fails_or_hangs_is_counted_as_not_solved(tmp_path, capsys):
    f = tmp_path / "one.sok"
    f.write_text(LEVELS.split("\n\n")[0] + "\n")
    hang = tmp_path / "hang.py"
    hang.write_text("import time; time.sleep(30)")
    assert bench.main([str(f), "-t", "0.5", "--peer", f"{sys.executable} {hang}"]) == 0
    out = capsys.readouterr().out
    assert "gave_up" in out and "  peer" in out


def test_hints_mode_times_the_games_hint_per_level(tmp_path, capsys):
    f = tmp_path / "three.sok"
    # Level three: the box is in a corner off the goal, so no hint exists.
    f.write_text(LEVELS + "\n; three\n#####\n#$ .#\n# @ #\n#####\n")
    assert bench.main([str(f), "-t", "5", "--hints"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert [r[:2] for r in rows if r and r[0] in ("1", "2", "3")] == [
        ["1", "yes"], ["2", "yes"], ["3", "no"]]
    assert ["hints:", "2/3", "levels,"] in [r[:3] for r in rows]


def test_node_limit_reaches_the_solver(tmp_path, capsys):
    """--node-limit N stops each search at N nodes (the same answer under
    any load): level one needs more than one node of the move-optimal search."""
    f = tmp_path / "one.sok"
    f.write_text(LEVELS.split("\n\n")[0] + "\n")
    assert bench.main([str(f), "-t", "5", "--method", "moves", "--node-limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "gave_up" in out and "node limit 1)" in out
    assert bench.main([str(f), "-t", "5", "--method", "moves", "--node-limit", "1000"]) == 0
    assert "solved" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench.main([str(f), "--node-limit", "0"])
