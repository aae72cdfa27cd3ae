"""The native push-search kernel (``impl/solver/native.py``): it agrees with
the brute force and the Python search on tiny levels, solves generated
levels (its backward pull search too, alone), its answers are replayed through spec, and a missing compiler or a
kernel that crashes or prints garbage falls back to the Python search with a
note (never a traceback)."""

import dataclasses
import os
import shutil
import signal
import stat
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import levels
from impl.solver import SolverBug, native, solve
from impl.solver.board import Board, pieces_of
from levels.strategies import generated_levels

from .test_search import CORRIDOR, brute_force_moves, replays, tiny_levels

pytestmark = pytest.mark.skipif(shutil.which("g++") is None,
                                reason="g++ is not installed: no native kernel")


@pytest.fixture(scope="module")
def built():
    path, note = native.kernel()
    if path is None:
        pytest.skip(note)
    return path


def kernel_solve(level, switches: dict[str, str] | None = None, **limits):
    """The push search on the kernel, with the experiment switches
    ``SOKOBAN_KERNEL_<name>=<value>`` given as ``{name: value}``."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(native.EXPERIMENTS, "1")
        for name, value in (switches or {}).items():
            mp.setenv("SOKOBAN_KERNEL_" + name, value)
        return solve(level, method="pushes", engine="native", **limits)


@settings(max_examples=60, deadline=None)
@given(tiny_levels(max_w=5, max_h=4, max_boxes=3))
def test_native_agrees_with_brute_force_and_python(built, nivel):
    best = brute_force_moves(nivel)
    r = solve(nivel, method="pushes", engine="native")
    p = solve(nivel, method="pushes", engine="python")
    assert r.method == "pushes (native)", r.summary()
    assert r.status == p.status == ("unsolvable" if best is None else "solved")
    if best is not None:
        assert replays(nivel, r.solution)


@settings(max_examples=40, deadline=None)
@given(generated_levels(min_size=4, max_size=9, max_boxes=5))
def test_native_solves_every_generated_level(built, level):
    r = solve(level, method="pushes", engine="native", time_limit=20)
    assert r.status == "solved" and r.method == "pushes (native)", r.summary()
    assert levels.lurd.solves(level, r.solution)


@settings(max_examples=50, deadline=None)
@given(tiny_levels(max_w=5, max_h=4, max_boxes=3))
def test_backward_search_alone_finds_solutions_only_for_solvable_levels(built, nivel):
    """SOKOBAN_KERNEL_B=2: the pull search alone.  It solves exactly the
    solvable tiny levels (its answer, pulls reversed into pushes, replays),
    and it never claims "unsolvable": an exhausted pull search gives up."""
    best = brute_force_moves(nivel)
    r = kernel_solve(nivel, {"B": "2"})
    both = kernel_solve(nivel, {"B": "1", "D": "0"})  # the portfolio from the first node
    assert r.method == both.method == "pushes (native)", r.summary()
    if best is None:
        assert r.status == "gave_up" and r.limit == "nodes", r.summary()
        assert both.status == "unsolvable", both.summary()
    else:
        assert r.status == both.status == "solved", (r.summary(), both.summary())
        assert replays(nivel, r.solution) and replays(nivel, both.solution)


@pytest.mark.parametrize("alone", [{"B": "2"}, {"PO": "2"}, {"FS": "2"}],
                         ids=["backward", "packing", "feature-space"])
@settings(max_examples=25, deadline=None)
@given(level=generated_levels(min_size=4, max_size=9, max_boxes=5))
def test_one_search_alone_solves_generated_levels(built, alone, level):
    """The backward search alone (B=2), the packing-order search alone
    (PO=2) and the feature-space search alone (FS=2): each solves every
    generated level, and the answer replays."""
    r = kernel_solve(level, alone, time_limit=20)
    assert r.status == "solved" and r.method == "pushes (native)", r.summary()
    assert levels.lurd.solves(level, r.solution)


@settings(max_examples=60, deadline=None)
@given(tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_deadlock_rules_never_cut_a_solution(built, nivel):
    """The forward search alone (no backward search to make up for a wrong
    cut), with the corral-deadlock test on every corral of any size and a
    large sub-search: "unsolvable" exactly when the brute force finds no
    solution."""
    best = brute_force_moves(nivel)
    r = kernel_solve(nivel, {"B": "0", "CD": "5000", "CDB": "64"})
    assert r.method == "pushes (native)", r.summary()
    assert r.status == ("unsolvable" if best is None else "solved"), r.summary()


def assert_agrees_with_brute_force(nivel, r):
    """The kernel's answer ``r`` is the brute force's: solved (and its
    solution replays through spec) exactly when the level has a solution."""
    best = brute_force_moves(nivel)
    assert r.status == ("unsolvable" if best is None else "solved"), r.summary()
    if best is not None:
        assert replays(nivel, r.solution)


@st.composite
def pushed_positions(draw, numbers=range(1, 41)):
    """A position k random legal pushes away from the start of a small
    Microban level: many are dead, in the ways real searches meet."""
    level = levels.load("microban")[draw(st.sampled_from(list(numbers))) - 1]
    board = Board(pieces_of(level))
    boxes, player = set(board.boxes), board.player
    for _ in range(draw(st.integers(1, 25))):
        occupied = bytearray(board.size)
        for b in boxes:
            occupied[b] = 1
        seen = board.reach(player, occupied)
        pushes = [(b, o) for b in sorted(boxes) for o in board.offsets
                  if seen[b - o] and not board.wall[b + o] and b + o not in boxes]
        if not pushes:
            break
        b, o = draw(st.sampled_from(pushes))
        boxes = boxes - {b} | {b + o}
        player = b
    return dataclasses.replace(level, boxes=frozenset(board.position(b) for b in boxes),
                               player=board.position(player))


# The dead-end patterns (SOKOBAN_KERNEL_DE: a position whose every push is
# cut, its cutting boxes proved dead alone) with a large sub-search.
DEAD_ENDS = {"DE": "2000"}


@pytest.mark.parametrize("rules", [
    {"CD": "5000", "CDB": "64"},   # every corral tested, with a large sub-search
    {},                            # the defaults
    DEAD_ENDS,                     # dead ends with a large sub-search
])
@settings(max_examples=60, deadline=None)
@given(level=pushed_positions())
def test_deadlock_rules_agree_with_the_search_without_them(built, rules, level):
    """On positions pushed at random from Microban's start positions, the
    forward search with the corral-deadlock test, the deadlock patterns it
    learns and the dead-end patterns reaches the same verdict as without the
    corral and dead-end tests, whenever the search without them decides
    within 200 000 nodes.  (The rules only cut dead positions; the search
    without them agrees with the brute force above.)"""
    limits = {"node_limit": 200_000, "time_limit": None}
    without = kernel_solve(level, {"B": "0", "CD": "0", "DE": "0"}, **limits)
    if without.status == "gave_up":
        return
    ruled = kernel_solve(level, {"B": "0", **rules}, **limits)
    assert ruled.status == without.status, (ruled.summary(), without.summary())
    if ruled.status == "solved":
        assert levels.lurd.solves(level, ruled.solution)


# A dead position met while searching Microban 153 (Microban, David W.
# Skinner, bundled): the boxes at the bottom of the left chamber shut the
# player out of the cells it needs to push them onto the goals; no box is
# frozen and none is on a dead square.
DEAD_153_BOXES = {(1, 8), (3, 7), (4, 7), (3, 5), (4, 5), (4, 3), (6, 4), (9, 4), (9, 6), (10, 3)}


def test_a_corral_deadlock_is_proved_at_once(built):
    """The corral-deadlock test proves DEAD_153_BOXES unsolvable within 50
    nodes (the search without it needs far more: not asserted)."""
    level = dataclasses.replace(levels.load("microban")[152], boxes=frozenset(DEAD_153_BOXES),
                                player=(3, 1))
    r = kernel_solve(level, node_limit=50)
    assert r.status == "unsolvable", r.summary()


@settings(max_examples=60, deadline=None)
@given(tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_learned_patterns_never_cut_a_solution(built, nivel):
    """The forward search alone with the default corral test and learned
    patterns: "unsolvable" exactly when the brute force finds no solution."""
    best = brute_force_moves(nivel)
    r = kernel_solve(nivel, {"B": "0"})
    assert r.status == ("unsolvable" if best is None else "solved"), r.summary()


@pytest.mark.parametrize("switches", [{"B": "0", **DEAD_ENDS}, {"D": "0", **DEAD_ENDS}],
                         ids=["forward", "portfolio"])
@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_dead_end_rule_never_cuts_a_solution(built, switches, nivel):
    """With the dead-end rule's large sub-search, the forward search alone
    and the whole portfolio from the first node answer as the brute force."""
    assert_agrees_with_brute_force(nivel, kernel_solve(nivel, switches))


@pytest.mark.parametrize("switches", [{"FS": "2"}, {"PO": "2"}, {"PO": "2", "POK": "0", "POL": "0"}],
                         ids=["feature-space", "packing", "packing-no-parking-no-opening"])
@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_a_new_search_alone_agrees_with_brute_force(built, switches, nivel):
    """The feature-space search alone (SOKOBAN_KERNEL_FS=2: one queue per
    cell of features, visited in turn) and the packing-order search alone
    (PO=2, also without its parking and opening search) change the order,
    not what is searched: "unsolvable" exactly when the brute force finds
    no solution (the packing search's macros prove nothing: it is rerun
    without them first), and every answer replays through spec."""
    r = kernel_solve(nivel, switches)
    assert r.method == "pushes (native)", r.summary()
    assert_agrees_with_brute_force(nivel, r)


@pytest.mark.parametrize("extra", [{}, {"SWA": "4"}], ids=["plain", "second-with-box-paths"])
@settings(max_examples=40, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_feature_space_search_in_the_portfolio_agrees_with_brute_force(built, extra, nivel):
    """SOKOBAN_KERNEL_FS=1 with every member from the first node (D, FSD = 0):
    the portfolio with the feature-space search and its meetings with the
    backward search still answers exactly as the brute force; also with the
    second feature-space search that takes the packing search's box-path
    macros as children (SWA)."""
    assert_agrees_with_brute_force(nivel, kernel_solve(nivel, {"FS": "1", "D": "0", "FSD": "0", **extra}))


def test_microban_levels_and_the_engine_variable(built, monkeypatch):
    microban = levels.load("microban")
    for number in (1, 60, 100, 155):
        r = solve(microban[number - 1], method="pushes", time_limit=30)
        assert r.status == "solved" and r.method == "pushes (native)", r.summary()
    monkeypatch.setenv("SOKOBAN_SOLVER", "python")
    assert solve(microban[0], method="pushes").method == "pushes"
    with pytest.raises(ValueError):
        solve(microban[0], engine="fortran")


def test_no_compiler_falls_back_to_python_with_a_note(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    r = solve(CORRIDOR, method="pushes", engine="native")
    assert r.status == "solved" and r.method == "pushes"
    assert any("g++ not found" in n for n in r.notes), r.notes
    assert "\n" not in r.summary()


def _fake_kernel(tmp_path, monkeypatch, script):
    fake = tmp_path / "kernel"
    fake.write_text("#!/bin/sh\ncat > /dev/null\n" + script + "\n")
    fake.chmod(0o755)
    monkeypatch.setattr(native, "kernel", lambda: (fake, None))


@pytest.mark.parametrize("script, why", [
    ("echo garbage here", "garbage"),
    ("kill -SEGV $$", "signal 11"),
    ("echo 'error level too large for the kernel'; exit 2", "too large"),
])
def test_crash_or_garbage_falls_back_with_a_note(tmp_path, monkeypatch, script, why):
    _fake_kernel(tmp_path, monkeypatch, script)
    r = solve(CORRIDOR, method="pushes")
    assert r.status == "solved" and r.method == "pushes"
    assert any("native kernel failed" in n and why in n for n in r.notes), r.notes


@pytest.mark.parametrize("prlimit", [True, False] if native.PRLIMIT else [False])
def test_the_kernel_runs_under_its_address_space_limit(tmp_path, monkeypatch, prlimit):
    """The kernel's process has the memory cap plus the headroom as its
    address-space limit, set on the started process (``prlimit``) or in the
    child before it starts (the hook)."""
    monkeypatch.setattr(native, "PRLIMIT", prlimit)
    monkeypatch.delenv(native.SANITIZE, raising=False)  # (the sanitizers' build runs unlimited)
    _fake_kernel(tmp_path, monkeypatch, 'echo "error limit $(ulimit -v) KB"; exit 2')
    r = solve(CORRIDOR, method="pushes")
    kb = (native.MEMORY_MB + native.HEADROOM_MB) * 1024
    assert any(f"native kernel failed (limit {kb} KB)" in n for n in r.notes), r.notes


def test_a_wrong_answer_is_never_returned(tmp_path, monkeypatch):
    _fake_kernel(tmp_path, monkeypatch, "echo solved 3 LLL")
    with pytest.raises(SolverBug):
        solve(CORRIDOR, method="pushes")


def test_concurrent_first_builds_share_one_kernel_with_the_umask(built, tmp_path):
    """Two processes building at once into an empty cache: both get the same
    executable, its mode follows the umask, no temporary file is left."""
    code = ("import os; os.umask(0o027); from impl.solver import native; "
            "p, note = native.kernel(); print(p, note)")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, text=True,
                              stdout=subprocess.PIPE) for _ in range(2)]
    outs = [p.communicate(timeout=300)[0].split() for p in procs]
    assert outs[0] == outs[1] and outs[0][1] == "None", outs
    path = outs[0][0]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o750
    where = tmp_path / "sokoban-tad" / "solver"
    assert sorted(p.name for p in where.iterdir() if not p.name.endswith(".lock")) == [
        os.path.basename(path)]


def test_building_the_kernel_is_not_counted_in_the_time_limit(built, monkeypatch):
    """The first solve builds the kernel (seconds of g++): that time is not
    the search's, and the result says it was spent."""
    import time

    def slow_build():
        time.sleep(1.0)
        return built, None
    monkeypatch.setattr(native, "kernel", slow_build)
    r = solve(levels.load("microban")[99], method="pushes", time_limit=0.8)
    assert r.status == "solved" and r.method == "pushes (native)", r.summary()
    assert r.time < 0.8
    assert any(n.startswith("built the native kernel with g++ in 1.") for n in r.notes), r.notes


def test_a_native_search_reports_its_progress_while_it_runs(built, monkeypatch):
    """The kernel writes a progress line (nodes, depth, elapsed, frontier)
    once an interval (here 0: after each turn of 512 nodes); ``solve`` gives
    each to the progress callback as it arrives, before the answer."""
    import impl.solver.search as search
    monkeypatch.setattr(search, "PROGRESS_INTERVAL", 0.0)
    reports = []
    r = solve(levels.load("microban")[152], method="pushes", engine="native",
              node_limit=20_000, time_limit=None, progress=reports.append)
    assert r.method == "pushes (native)", r.summary()
    assert reports and len(reports) >= r.nodes // 512 - 1, (r.summary(), reports[:3])
    nodes = [x["nodes"] for x in reports]
    assert nodes == sorted(set(nodes)) and 0 < nodes[-1] <= r.nodes
    assert all(x["elapsed"] >= 0 and x["frontier"] > 0 for x in reports), reports[:3]
    depths = [x["depth"] for x in reports]
    assert depths == sorted(depths) and depths[-1] > 10


def test_without_a_callback_the_kernel_is_not_asked_for_progress(tmp_path, monkeypatch):
    """No callback: the kernel gets no progress argument.  Its stray stderr
    still makes the failure note, progress lines left out of it."""
    _fake_kernel(tmp_path, monkeypatch,
                 f'echo "$#" > {tmp_path / "args"}; '
                 'echo "progress 512 3 0.1 7" >&2; echo "oops" >&2; exit 1')
    r = solve(CORRIDOR, method="pushes")
    assert (tmp_path / "args").read_text().split() == ["3"]
    assert r.status == "solved" and r.method == "pushes", r.summary()
    assert any("native kernel failed" in n and "oops" in n for n in r.notes), r.notes
    assert not any("progress" in n for n in r.notes), r.notes


def test_progress_lines_reach_the_callback_and_malformed_ones_do_not(tmp_path, monkeypatch):
    _fake_kernel(tmp_path, monkeypatch,
                 f'echo "$#" > {tmp_path / "args"}; '
                 'echo "progress 512 3 0.1 7" >&2; echo "progress x 1 2 3" >&2; '
                 'printf "progress 1024 5 0.2 9" >&2; echo solved 3 RRR')
    reports = []
    r = solve(CORRIDOR, method="pushes", progress=reports.append)
    assert (tmp_path / "args").read_text().split() == ["4"]
    assert r.status == "solved" and r.method == "pushes (native)", r.summary()
    assert [(x["nodes"], x["depth"], x["frontier"]) for x in reports] == [(512, 3, 7)]


def test_a_progress_callback_that_raises_stops_the_kernel(built, monkeypatch):
    """An exception from the callback (say, an interrupt) leaves no kernel
    running on: it is killed before the exception goes on."""
    import impl.solver.search as search
    monkeypatch.setattr(search, "PROGRESS_INTERVAL", 0.0)
    started = []

    def watch(popen):
        def spy(*args, **kwargs):
            started.append(popen(*args, **kwargs))
            return started[-1]
        return spy
    monkeypatch.setattr(native.subprocess, "Popen", watch(subprocess.Popen))

    def stop(info):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        solve(levels.load("microban")[152], method="pushes", engine="native",
              time_limit=None, progress=stop)
    assert len(started) == 1 and started[0].returncode == -signal.SIGKILL


def test_the_experiment_switches_reach_the_kernel_only_when_asked():
    """A stray SOKOBAN_KERNEL_* in a user's environment never reaches the
    kernel; SOKOBAN_KERNEL_EXPERIMENTS=1 (benchmarks, tests) lets them through."""
    user = {"PATH": "/bin", "SOKOBAN_KERNEL_B": "2", "SOKOBAN_KERNEL_STAT": "1"}
    assert native.kernel_environment(user) == {"PATH": "/bin"}
    asked = {**user, native.EXPERIMENTS: "1"}
    assert native.kernel_environment(asked) == asked


# The packing-order search (SOKOBAN_KERNEL_PO): box-path macros to the next
# goal of the packing order, ordinary pushes only when no box has a path.
# Alone (PO=2) it runs on any level (with a packing order of every goal);
# macros prove nothing, so an exhausted packing search is run again without
# macros before "unsolvable".

def test_packing_search_fills_microban_153s_goal_room(built):
    """Microban 153 has a goal room: the packing search alone solves it
    within 60 000 nodes (44 645); in the portfolio (PO=1) it is solved too,
    and every answer replays."""
    level = levels.load("microban")[152]
    limits = {"node_limit": 60_000, "time_limit": None}
    r = kernel_solve(level, {"PO": "2"}, **limits)
    assert r.status == "solved" and levels.lurd.solves(level, r.solution), r.summary()
    r = kernel_solve(level, {"PO": "1"}, node_limit=400_000, time_limit=None)
    assert r.status == "solved" and levels.lurd.solves(level, r.solution), r.summary()


def test_packing_search_without_a_goal_room_leaves_the_portfolio_alone(built):
    """PO=1 adds the packing search only on levels with a goal room (a block
    of at least 6 goals): elsewhere the search and its node count are the
    default's."""
    level = levels.load("microban")[59]
    a = kernel_solve(level, {"PO": "1"}, time_limit=None, node_limit=100_000)
    b = kernel_solve(level, {"PO": "0"}, time_limit=None, node_limit=100_000)
    assert a.status == b.status == "solved" and (a.nodes, a.solution) == (b.nodes, b.solution)



def microban_statistics(built, switches):
    """The kernel with ``switches`` (and SOKOBAN_KERNEL_STAT=1) on each of
    Microban's first 40 levels: each is solved and its answer replays; the
    statistics (stderr) of each run, in order."""
    env = {**os.environ, **{"SOKOBAN_KERNEL_" + k: v for k, v in switches.items()}, "SOKOBAN_KERNEL_STAT": "1"}
    stats = []
    for level in levels.load("microban")[:40]:
        run = subprocess.run([str(built), "0", "20000", "500"], input=native.xsb(pieces_of(level.to_nivel())),
                             capture_output=True, text=True, env=env, check=True)
        words = run.stdout.split()
        assert words[0] == "solved", (level, run.stdout)
        assert levels.lurd.solves(level, words[2] if len(words) > 2 else ""), level
        stats.append(run.stderr)
    return stats


def test_packing_search_parks_blockers_on_microban(built):
    """When no box has a path to the target, the boxes that block one are
    parked by a macro where they open its path.  The packing search alone
    solves each of Microban's first 40 levels (every answer replays), and it
    parks on at least 10 of them."""
    stats = microban_statistics(built, {"PO": "2"})
    parked = sum(int(err.split("parked ")[1].split()[0]) > 0 for err in stats)
    assert parked >= 10, parked


def packing_expansions(built, level, switches, nodes):
    """The kernel's answer (stdout words) and its packing searches'
    expansions (SOKOBAN_KERNEL_STAT=1) on ``level`` with ``switches``."""
    env = {**os.environ, **{"SOKOBAN_KERNEL_" + k: v for k, v in switches.items()}, "SOKOBAN_KERNEL_STAT": "1"}
    run = subprocess.run([str(built), "0", str(nodes), "1000"], input=native.xsb(pieces_of(level.to_nivel())),
                         capture_output=True, text=True, env=env, check=True)
    expanded = [int(line.split("packing search expanded ")[1].split(",")[0])
                for line in run.stderr.splitlines() if "packing search expanded " in line]
    return run.stdout.split(), sum(expanded)


def test_second_packing_search_takes_turns_beside_the_first(built):
    """SOKOBAN_KERNEL_YSP=n adds a second packing-order search to the
    portfolio, ranked with YASS's moved-box term at weight n, beside
    the first: on Microban 153 (a goal room, stuck packing positions) the
    packing searches expand about twice as many positions in the same
    nodes, and both ways the answer is solved and replays (SWA=0: the
    second feature-space search's box paths are counted there too)."""
    level = levels.load("microban")[152]
    one, alone = packing_expansions(built, level, {"YSP": "0", "SWA": "0"}, 400_000)
    two, both = packing_expansions(built, level, {"YSP": "96", "SWA": "0"}, 400_000)
    for words in (one, two):
        assert words[0] == "solved" and levels.lurd.solves(level, words[2]), words[:2]
    assert both > 1.5 * alone > 0, (alone, both)


# The packing search learning from its deep failures: when its highest count
# of goals filled in order runs dry, the positions it expanded last there are
# taken apart (SOKOBAN_KERNEL_DL: groups of their boxes not packed through the
# corral test's push search, each group proved dead learned as a pattern).
# Small groups, so that they fire on tiny levels.
DEEP_FAILURES = {"PO": "2", "DL": "300", "DLB": "3"}


@pytest.mark.parametrize("switches", [DEEP_FAILURES, {**DEEP_FAILURES, "PO": "1", "D": "0"}],
                         ids=["alone", "portfolio"])
@settings(max_examples=60, deadline=None)
@given(nivel=tiny_levels(max_w=6, max_h=4, max_boxes=3))
def test_deep_failures_agree_with_brute_force(built, switches, nivel):
    """The packing search learning from its deep failures, alone and in the
    portfolio from the first node: "unsolvable" exactly when the brute force
    finds no solution, and every answer replays through spec."""
    r = kernel_solve(nivel, switches)
    assert r.method == "pushes (native)", r.summary()
    assert_agrees_with_brute_force(nivel, r)
