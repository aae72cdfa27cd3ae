"""Isolation: whatever the target does, the caller gets a TargetError of the
right kind and the next call works; handles, fingerprints, identity."""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spec.grilla
import spec.tipos
from conformance.sandbox import isolation
from conformance.api import BATCH, EQUAL, FINGERPRINT, RESET, Earlier, Handle, TargetError
from conformance.sandbox import child
from conformance.sandbox.box import (
    InProcessTarget, SandboxTarget, _batch_item, _batch_items, fingerprint, open_target,
)
from conformance.checking.targets import BadTarget, ReferenceImport, resolve

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).resolve().parents[2]
GRID = ["#####", "#@$.#", "#####"]


def _spec(name):
    return resolve(str(FIXTURES / name))


@pytest.fixture(scope="module")
def sandbox():
    target = SandboxTarget(_spec("soko_misbehaving.py"), timeout=0.5, memory_mb=512,
                           output_limit=20_000)
    yield target
    target.close()


@pytest.mark.parametrize("where", ["/tmp", "."])
@pytest.mark.parametrize("level", isolation.LEVELS)
def test_storing_past_the_budget_across_calls_kills_the_box(level, where, tmp_path):
    """Files of 300 kB, each under the per-file limit, one per call: the
    fourth passes a 1 MB budget (the sandbox looks at most every 10 ms: the
    calls are 30 ms apart). The next call gets a fresh box, and nothing the
    old one stored is left (in /tmp at level user either)."""
    if level not in isolation.available_levels():
        pytest.skip(f"isolation level {level} is not available on this machine")
    if level == "best-effort" and where == "/tmp" and not isolation.storage_capped():
        pytest.skip("best-effort does not hold /tmp without a capped tmpfs (the box runs "
                    "as the grader's user)")
    target = SandboxTarget(_spec("soko_misbehaving.py"), level=level, storage_mb=1,
                           output_limit=500_000)
    try:
        def store():
            time.sleep(0.03)
            return target.call("store", where, 300_000)

        assert [store() for _ in range(3)] == [1, 2, 3]
        with pytest.raises(TargetError) as caught:
            store()
        assert caught.value.kind == "storage"
        assert "stored more than 1 MB (the box's storage limit)" in caught.value.message
        assert not target.alive
        assert target.call("store", where, 1) == 1          # a fresh box
        _still_works(target)
    finally:
        target.close()
    assert not [p for p in Path("/tmp").glob("stored-*") if p.stat().st_uid != os.getuid()]


_FILL = """
import ctypes, errno, json, os, sys
libc = ctypes.CDLL(None, use_errno=True)
umounted = libc.umount2(b"/tmp", 2) == 0          # MNT_DETACH: what caps it, gone?
stored, refused = 0, {}
for i, folder in enumerate(["/tmp", ".", "/dev/shm", "/var/tmp"] * 40):
    try:
        with open(os.path.join(folder, f"fill-{i}"), "wb") as f:
            for _ in range(64):
                f.write(b"x" * 16384)
                f.flush()
                stored += 16384
    except OSError as e:
        refused.setdefault(folder, set()).add(errno.errorcode[e.errno])
print(json.dumps([stored, {k: sorted(v) for k, v in refused.items()}, umounted]))
"""


@pytest.mark.parametrize("level", isolation.LEVELS)
def test_the_kernel_refuses_more_than_the_budget_in_all_places_together(level):
    """Capped (root, or a user namespace of our own): one tmpfs holds every
    place the box can write, so a box that writes as fast as it can, in all
    of them, stores at most its budget (1 MB here) plus a page, and cannot
    unmount what caps it, even left root (best-effort run as root). No
    watcher is involved: the program is not a sandbox child."""
    if level not in isolation.available_levels():
        pytest.skip(f"isolation level {level} is not available on this machine")
    if not isolation.storage_capped():
        pytest.skip("this machine cannot mount a box's tmpfs (not root, no user namespaces)")
    work = Path(tempfile.mkdtemp(prefix="sokoban-test-"))
    try:
        (work / "copied.txt").write_text("the working copy\n" * 1000)   # not counted
        proc = isolation.spawn([isolation.python_for_box(), "-I", "-S", "-c", _FILL],
                               workdir=str(work), level=level, storage_mb=1)
        out, err = proc.communicate(timeout=60)
        isolation.kill_group(proc)
        stored, refused, umounted = json.loads(out)
        assert 1024 * 1024 - 16384 < stored <= 1024 * 1024 + 4096 + 16384, err
        assert refused["/tmp"] == refused["."] == ["ENOSPC"] and not umounted
        # Under bwrap /dev is read-only and /var/tmp is not there.
        assert set(refused["/dev/shm"] + refused["/var/tmp"]) <= {"ENOSPC", "EROFS", "ENOENT"}
        assert sorted(p.name for p in work.iterdir()) == ["copied.txt"]   # the host's copy
        assert str(work) not in Path("/proc/self/mountinfo").read_text()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    assert not list(Path("/tmp").glob("fill-*")) and not list(Path("/var/tmp").glob("fill-*"))


def test_the_kernel_cap_also_holds_for_a_grader_without_root():
    """Not root, the launcher makes the box's tmpfs in a user namespace of
    its own (where the machine allows them, as bwrap does): the same cap.
    Run here as user nobody when the tests run as root."""
    if os.geteuid() != 0:
        pytest.skip("the tests run without root already: the test above covers it")
    python = isolation.python_for_box()
    import stat
    if not (isolation._reachable(str(ROOT / "conformance" / "sandbox"))
            and os.stat(ROOT / "conformance" / "sandbox" / "launcher.py").st_mode & stat.S_IROTH):
        pytest.skip("the project is not readable by other users here")
    script = (f"import sys, json, tempfile; sys.path.insert(0, {str(ROOT)!r})\n"
              "from conformance.sandbox import isolation\n"
              "print(json.dumps([isolation.available_levels(), isolation.storage_capped()]))\n"
              "for level in isolation.available_levels():\n"
              "    work = tempfile.mkdtemp()\n"
              f"    p = isolation.spawn([isolation.python_for_box(), '-I', '-S', '-c', {_FILL!r}],\n"
              "                        workdir=work, level=level, storage_mb=1)\n"
              "    print(p.communicate(timeout=60)[0].decode().strip())\n"
              "    isolation.kill_group(p)\n")
    home = tempfile.mkdtemp(prefix="sokoban-nobody-")
    os.chmod(home, 0o777)
    try:
        run = subprocess.run([python, "-I", "-c", script], capture_output=True, text=True,
                             timeout=120, user=65534, group=65534, extra_groups=[],
                             env={"PATH": "/usr/bin:/bin", "HOME": home, "TMPDIR": home})
    finally:
        shutil.rmtree(home, ignore_errors=True)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    levels, capped = json.loads(lines[0])
    if not capped:
        pytest.skip("no unprivileged user namespaces on this machine")
    assert len(lines) == 1 + len(levels)
    for line in lines[1:]:
        stored, refused, umounted = json.loads(line)
        assert stored <= 1024 * 1024 + 4096 + 16384 and refused["/tmp"] == ["ENOSPC"]
        assert refused["."] == ["ENOSPC"] and not umounted


def test_the_cpp_binary_runs_with_a_storage_budget():
    """conformance/profiles/aed2/process.py: the compiler runs without a budget (it
    needs room in /tmp), the student's binary with one (its run is ours)."""
    from conformance.profiles.aed2 import process
    work = Path(tempfile.mkdtemp(prefix="sokoban-test-"))
    try:
        proc = process.start(["/bin/sh", "-c", "head -c 3000000 /dev/zero > /tmp/x; echo $?"],
                             workdir=str(work), storage_mb=1, stdin=subprocess.DEVNULL)
        out, _ = proc.communicate(timeout=60)
        assert proc.storage is not None and proc.storage.limit == 2 ** 20
        process.kill(proc)
        if isolation.storage_capped():
            assert out.decode().strip() == "1"          # no space left on device
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _still_works(target):
    grid = target.call("crear_grilla", GRID)
    assert target.call("hay_jugador", grid, 1, 1) is True


@pytest.mark.parametrize("op, args, kind, words", [
    ("loop_forever", (), "timeout", "used more than 0.5 s of CPU time"),
    ("loop_stubbornly", (), "timeout", "could not be interrupted"),
    ("exit_hard", (3,), "exited", "status 3"),
    ("kill_self", (), "crashed", "SIGKILL"),
    ("segfault", (), "crashed", "SIGSEGV"),
    ("call_exit", (4,), "exited", "called exit(4)"),
    ("raise_error", ("broken",), "raised", "ValueError: broken"),
    ("flood", (), "output", "more than 20000 bytes"),
    ("chatty", (30_000,), "output", "20000 bytes"),
    ("write_big_file", (30_000,), "storage", "wrote a file larger than 20000 bytes"),
    ("hog_memory", (), "memory", "MemoryError"),
    ("no_such_op", (), "missing", "no such operation"),
])
def test_misbehaviour_is_reported_and_the_run_goes_on(sandbox, op, args, kind, words):
    with pytest.raises(TargetError) as info:
        sandbox.call(op, *args)
    error = info.value
    assert error.kind == kind and error.op == op
    assert words in error.message
    _still_works(sandbox)


def test_a_loop_inside_a_batch_costs_one_time_limit(sandbox):
    grid = sandbox.call("crear_grilla", GRID)
    restarts = sandbox.restarts
    answers = sandbox.call(BATCH, [("hay_caja", (grid, 2, 1))] + [("loop_forever", ())] * 2
                           + [("dimensiones", (grid,))])
    assert sandbox.restarts == restarts and sandbox.alive    # interrupted, not killed
    assert answers[0] is True and answers[3] == (5, 3)
    for error in answers[1:3]:
        assert error.kind == "timeout" and "used more than 0.5 s of CPU time" in error.message
        assert "in loop_forever" in error.detail       # where it was stuck
    assert sandbox.call(FINGERPRINT, grid)             # the same child goes on


def test_exceptions_carry_the_targets_traceback(sandbox):
    with pytest.raises(TargetError) as info:
        sandbox.call("raise_error", "broken")
    assert "soko_misbehaving.py" in info.value.detail
    assert 'raise ValueError(message)' in info.value.detail
    assert "conformance/sandbox.py" not in info.value.detail


def test_output_cap_is_per_call(sandbox):
    for _ in range(5):                       # 5 x 15 kB: over the cap in total, not per call
        assert sandbox.call("chatty", 15_000) == 15_000


def test_a_crash_shows_what_the_target_printed(sandbox):
    with pytest.raises(TargetError) as info:
        sandbox.call("segfault")
    assert "Fatal Python error: Segmentation fault" in info.value.detail


def test_handles_from_a_dead_process_are_refused(sandbox):
    obj = sandbox.call("make_object")
    with pytest.raises(TargetError):
        sandbox.call("exit_hard", 0)
    with pytest.raises(TargetError) as info:
        sandbox.call("bump", obj)
    assert info.value.kind == "crashed" and "has ended" in info.value.message
    assert sandbox.call("bump", sandbox.call("make_object")) == 4


def test_restart_counts(sandbox):
    before = sandbox.restarts
    with pytest.raises(TargetError):
        sandbox.call("kill_self")
    _still_works(sandbox)
    assert sandbox.restarts == before + 1 and sandbox.alive


@pytest.fixture(params=["sandbox", "in-process"])
def target(request):
    if request.param == "sandbox":
        t = SandboxTarget(_spec("soko_misbehaving.py"), timeout=2)
    else:
        t = InProcessTarget(_spec("soko_misbehaving.py"))
    yield t
    t.close()


def test_handle_round_trip(target):
    obj = target.call("make_object")
    assert isinstance(obj, Handle) and obj.type_name == "Opaque"
    other = target.call("make_object")
    assert obj != other
    before = target.call(FINGERPRINT, obj)
    assert target.call(FINGERPRINT, other) == before          # equal values, equal descriptions
    assert target.call(EQUAL, obj, other) is True
    assert target.call("bump", obj) == 4                       # the object lives on, mutated
    assert target.call(FINGERPRINT, obj) != before
    assert target.call(EQUAL, obj, other) is False
    assert target.call(FINGERPRINT, other) == before
    target.call(RESET)
    with pytest.raises(TargetError) as info:
        target.call("bump", obj)
    assert info.value.kind in ("missing", "crashed")


def test_mutating_a_plain_grid_is_seen_by_fingerprint(target):
    grid = target.call("crear_grilla", GRID)
    assert grid == [list(row) for row in GRID]               # plain: by value
    before = target.call(FINGERPRINT, grid)
    moved = target.call("mover", grid, (1, 0))               # the correct mover copies
    assert target.call(FINGERPRINT, grid) == before
    assert target.call("hay_caja", moved, 3, 1) is True
    target.call("mutate", grid)                              # reaches the original object
    assert target.call(FINGERPRINT, grid) != before
    assert target.call("hay_pared", grid, 0, 0) is False
    assert grid[0][0] == "#"                                 # the caller's copy is untouched


def test_arguments_are_copies(target):
    mine = [["#", "@"]]
    target.call("mutate", mine)
    assert mine == [["#", "@"]]


def test_batch_answers_results_and_errors_in_one_trip(target):
    grid = target.call("crear_grilla", GRID)
    answers = target.call(BATCH, [("hay_caja", (grid, 2, 1)), ("raise_error", ("x",)),
                                  ("dimensiones", (grid,)), ("crear_grilla", (["#"],))])
    assert answers[0] is True and answers[2] == (5, 3) and answers[3] == [["#"]]
    assert isinstance(answers[1], TargetError) and answers[1].kind == "raised"
    assert answers[1].op == "raise_error"


def test_a_batch_call_takes_an_earlier_result_itself(target):
    """An Earlier argument is the very object the earlier call returned (not
    a copy): what ``mutate`` does to it, the handle of that call's answer
    sees. A call that takes the result of a call that failed is skipped."""
    answers = target.call(BATCH, [("crear_grilla", (GRID,)), ("mutate", (Earlier(0),)),
                                  ("hay_pared", (Earlier(0), 0, 0)), (FINGERPRINT, (Earlier(0),)),
                                  ("raise_error", ("x",)), ("hay_caja", (Earlier(4), 2, 1))])
    grid = answers[0]
    assert grid == [list(row) for row in GRID]       # its copy, made when it answered
    assert answers[2] is False                       # mutate reached the original
    assert target.call(FINGERPRINT, grid) == answers[3]
    assert answers[4].kind == "raised" and answers[5].kind == "skipped"
    assert target.call("hay_pared", grid, 0, 0) is False


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])   # one target, many games
@given(moves=st.lists(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)]), max_size=8),
       cells=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2)), min_size=1, max_size=4))
def test_a_chained_batch_answers_as_the_calls_one_by_one(target, moves, cells):
    """A game in one batch (each ``mover`` takes the grid the one before it
    returned, and observers look at each) answers what the same calls made
    one at a time answer."""
    grid = target.call("crear_grilla", GRID)
    one_by_one, current = [], grid
    for d in moves:
        current = target.call("mover", current, d)
        one_by_one += [current] + [target.call("hay_caja", current, c, f) for c, f in cells]
    calls, last = [], None
    for d in moves:
        calls.append(("mover", (grid if last is None else Earlier(last), d)))
        last = len(calls) - 1
        calls += [("hay_caja", (Earlier(last), c, f)) for c, f in cells]
    assert target.call(BATCH, calls) == one_by_one


@pytest.mark.parametrize("level", isolation.LEVELS)
def test_a_batch_that_ends_the_process_is_told_by_the_call_it_was_in(level):
    """The process dies in the second call of a batch: the error names that
    call and its place (the child notes where it is in a shared page), so a
    step that dies in mover is blamed on mover, not on the batch."""
    if level not in isolation.available_levels():
        pytest.skip(f"isolation level {level} is not available on this machine")
    target = SandboxTarget(_spec("soko_misbehaving.py"), level=level, timeout=2)
    try:
        grid = target.call("crear_grilla", GRID)
        with pytest.raises(TargetError) as died:
            target.call(BATCH, [("hay_caja", (grid, 2, 1)), ("exit_hard", (3,)),
                                ("hay_caja", (Earlier(1), 2, 1))])
        assert died.value.kind == "exited"
        assert (died.value.op, died.value.index) == ("exit_hard", 1)
        assert target.call(BATCH, [("crear_grilla", (GRID,))])[0] == [list(r) for r in GRID]
    finally:
        target.close()


def test_the_child_reads_only_well_formed_references():
    def read(item):
        return child.batch_call(item, spec.tipos.Accion.__getitem__)

    op, args = read(["mover", [None, {"a": "ARRIBA"}], [[0, 3]]])
    assert op == "mover" and type(args[0]) is child.Earlier and args[0].index == 3
    for bad in ([[5, 0]], [[0]], [["0", 1]], [[0, 1.5]], "x", [[-1, 0]]):
        with pytest.raises((child.ProtocolError, TypeError)):
            read(["mover", [None, 1], bad])


def test_a_target_that_imports_the_reference_is_refused():
    """soko_tampers imports spec.grilla to patch it: the child refuses the
    import (the project is not on its path, and the guard names it)."""
    judge_won, judge_move = spec.grilla.juego_ganado, spec.grilla.mover
    with pytest.raises(ReferenceImport, match="imports the reference implementation"):
        SandboxTarget(_spec("soko_tampers.py"), timeout=2)
    assert spec.grilla.juego_ganado is judge_won and spec.grilla.mover is judge_move
    assert len(spec.tipos.ACCIONES) == 4


@pytest.mark.parametrize("name, start_timeout, words", [
    ("soko_import_fails.py", 30, "RuntimeError: configuration file not found"),
    ("soko_syntax_error.py", 30, "syntax error"),
    ("soko_import_loops.py", 2, "did not finish importing: used more than 2 s of CPU time (a loop at module level?)"),
])
def test_import_failures_are_bad_targets(name, start_timeout, words):
    with pytest.raises(BadTarget, match=re.escape(words)):
        SandboxTarget(_spec(name), start_timeout=start_timeout)


def test_open_target_chooses_isolation():
    assert isinstance(open_target(resolve("spec.juego"), in_process=True), InProcessTarget)
    sandboxed = open_target(_spec("soko_base.py"))
    try:
        assert isinstance(sandboxed, SandboxTarget)
        assert sandboxed.has("mover") and sandboxed.has(FINGERPRINT) and not sandboxed.has("x")
    finally:
        sandboxed.close()
    assert not sandboxed.alive


# ------------------------------------------------------------ fingerprints

cells = st.sampled_from("#$@.*+ ")
grids = st.lists(st.lists(cells, min_size=1, max_size=5), min_size=1, max_size=5)


@given(grids, st.data())
def test_fingerprint_sees_any_cell_change(grid, data):
    before = fingerprint(grid)
    assert fingerprint(copy.deepcopy(grid)) == before
    f = data.draw(st.integers(0, len(grid) - 1))
    c = data.draw(st.integers(0, len(grid[f]) - 1))
    new = data.draw(cells.filter(lambda ch: ch != grid[f][c]))
    grid[f][c] = new
    assert fingerprint(grid) != before


@given(st.lists(st.tuples(st.integers(-9, 9), st.integers(-9, 9)), max_size=12))
def test_fingerprint_ignores_set_and_dict_order(items):
    forward = {"cajas": set(items), "orden": dict.fromkeys(items, 1)}
    backward = {"orden": dict.fromkeys(reversed(items), 1), "cajas": set(reversed(items))}
    assert fingerprint(forward) == fingerprint(backward)


_ROWS = st.one_of(st.text("#@$. +*", max_size=6),
                  st.lists(st.sampled_from("#@$. x"), max_size=6),
                  st.lists(st.sampled_from("#@$. "), max_size=6).map(tuple),
                  st.lists(st.one_of(st.integers(0, 3), st.none()), max_size=3))


@given(rows=st.lists(_ROWS, max_size=6), as_tuple=st.booleans(), share=st.booleans())
def test_a_grids_quick_fingerprint_is_the_full_one(rows, as_tuple, share):
    """A grid (rows of strings or of one-letter strings) is described by a
    shortcut: the very text of the general walk, or no shortcut (a row
    shared twice, a cell that is not a string)."""
    if share and rows and type(rows[0]) is list:
        rows.append(rows[0])            # one row object twice: "<ref N>" in the full walk
    grid = tuple(rows) if as_tuple else rows
    quick = child._grid_fingerprint(grid)
    full = child._text(child._Describer().run(grid))
    assert quick in (None, full)
    assert fingerprint(grid) == full
    if share and rows and type(rows[0]) is list:
        assert quick is None
    elif all(type(r) is str or all(type(c) is str for c in r) for r in rows):
        assert quick is not None


class _Node:
    __slots__ = ("value", "next")

    def __init__(self, value, nxt=None):
        self.value = value
        self.next = nxt


def test_fingerprint_of_objects_slots_and_cycles():
    a = _Node(1)
    a.next = a                                     # a cycle terminates
    assert fingerprint(a) == fingerprint(a) == "_Node(next=<ref 0>, value=1)"
    b = _Node(1, _Node(2))
    before = fingerprint(b)
    b.next.value = 3                               # a change deep inside
    assert fingerprint(b) != before
    shared = [0]
    assert fingerprint([shared, shared]) == "list[list[0], <ref 1>]"


def _chain(n):
    long = None
    for i in range(n):
        long = _Node(i, long)
    return long


def _stack_depth():
    import sys
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


@pytest.mark.parametrize("headroom", [40, 1000])
def test_a_deep_fingerprint_does_not_depend_on_the_recursion_limit(headroom):
    """The walk is iterative: a chain 10,000 nodes deep (far deeper than any
    recursion limit) and a list nested 10,000 times are described in full,
    the same under a tiny limit as under the default, on every Python."""
    import sys
    long = _chain(10_000)
    nested = []
    for _ in range(10_000):
        nested = [nested]
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(_stack_depth() + headroom)
    try:
        deep, boxes = fingerprint(long), fingerprint(nested)
    finally:
        sys.setrecursionlimit(old)
    assert deep == fingerprint(long)
    assert deep.startswith("_Node(next=_Node(next=") and deep.count("_Node(") == 10_000
    assert deep.endswith("value=9998), value=9999)")
    assert boxes == "list[" * 10_001 + "]" * 10_001
    long.next.next.value = -1                      # a change near the top
    assert fingerprint(long) != deep
    tail = long
    while tail.next is not None:
        tail = tail.next
    tail.value = -2                                # and at the very bottom
    changed = fingerprint(long)
    assert changed != deep and "_Node(next=None, value=-2)" in changed


def test_a_deep_cycle_is_a_reference_to_its_first_visit():
    long = _chain(5_000)
    tail = long
    while tail.next is not None:
        tail = tail.next
    tail.next = long                               # the bottom points back to the top
    described = fingerprint(long)
    assert described.count("_Node(") == 5_000 and "next=<ref 0>" in described


def test_a_looping_child_dies_with_its_parent(tmp_path):
    """Killing the checker (even with SIGKILL) never leaves a target spinning."""
    import subprocess
    import sys
    import time
    script = tmp_path / "parent.py"
    script.write_text(
        "from conformance.checking.targets import resolve\n"
        "from conformance.sandbox.box import SandboxTarget\n"
        f"t = SandboxTarget(resolve({str(FIXTURES / 'soko_misbehaving.py')!r}), timeout=60)\n"
        "print(t._proc.pid, flush=True)\n"
        "t.call('loop_forever')\n")
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    # Dead means gone or a zombie: a zombie runs nothing (an ancestor that
    # adopts orphans, such as a test worker, may not have reaped it yet).
    from conformance.sandbox import isolation
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not isolation._alive(isolation._status(child)):
            return
        time.sleep(0.05)
    raise AssertionError(f"the sandbox child {child} outlived its parent")


# ------------------------------------------------------------ the channel

from conformance.sandbox import child  # noqa: E402
from conformance.sandbox.box import _answer  # noqa: E402
from spec.tipos import Accion  # noqa: E402

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                    st.text(max_size=5), st.binary(max_size=5), st.sampled_from(list(Accion)))
hashables = st.recursive(scalars, lambda inner: st.one_of(
    st.tuples(inner, inner), st.frozensets(inner, max_size=3)), max_leaves=6)
values = st.recursive(hashables, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner), st.sets(hashables, max_size=3),
    st.dictionaries(hashables, inner, max_size=3),
    st.builds(Handle, st.integers(0, 2 ** 50), st.text(max_size=8))), max_leaves=12)


def _same(a, b):
    """Equal and of the same types all the way down (1 == True == 1.0 is not enough)."""
    if type(a) is not type(b):
        return False
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if type(a) in (set, frozenset):
        # element by element (a repr's order inside a nested set is arbitrary)
        return a == b and all(any(_same(x, y) for y in b if y == x) for x in a)
    if type(a) is dict:
        return a == b and all(_same(k, next(k2 for k2 in b if k2 == k)) and _same(v, b[k])
                              for k, v in a.items())
    return a == b


@given(values)
def test_the_channel_keeps_every_type(value):
    """bool vs int, tuple vs list, set vs frozenset, tuple keys, handles and
    actions all survive the trip through JSON."""
    wire = child.frame({"ok": child.encode(value, Handle, lambda v: v.name
                                           if type(v) is Accion else None)})
    document = json.loads(wire[4:].decode("utf-8"))
    assert _same(_answer(document)[1], value)


near_ints = st.one_of(st.integers(), st.booleans(), st.integers(-3, 3).map(float))


@given(st.one_of(st.sets(st.tuples(st.integers(), st.integers()), max_size=6),
                 st.frozensets(st.tuples(st.integers(), st.integers()), max_size=6),
                 st.sets(st.tuples(near_ints, near_ints), max_size=4),
                 st.frozensets(st.tuples(near_ints, near_ints) | st.tuples(st.integers()),
                               max_size=4)))
def test_a_set_of_positions_keeps_its_types_on_the_flat_path(value):
    """A set of pairs of ints travels flat (``{"sp": [x1, y1, ...]}``); a
    pair with a bool or a float, or any other item, makes it travel item by
    item, so ``(True, 1)`` never comes back as ``(1, 1)``."""
    encoded = child.encode(value, Handle)
    flat = all(type(p) is tuple and len(p) == 2 and all(type(v) is int for v in p)
               for p in value)
    assert set(encoded) == ({"sp" if type(value) is set else "fp"} if flat
                            else {"s" if type(value) is set else "f"})
    wire = child.frame({"ok": encoded})
    assert _same(_answer(json.loads(wire[4:].decode("utf-8")))[1], value)


@given(st.dictionaries(st.text(max_size=3),
                       st.frozensets(st.tuples(near_ints, near_ints), max_size=4)
                       | st.sets(st.tuples(st.integers(), st.integers()), max_size=3),
                       max_size=4))
def test_a_dict_of_sets_of_positions_keeps_its_types(value):
    """An estado (a dict of sets of positions): each set decoded inline when
    it travels flat, item by item otherwise; the same types come back."""
    wire = child.frame({"ok": child.encode(value, Handle)})
    assert _same(_answer(json.loads(wire[4:].decode("utf-8")))[1], value)


@pytest.mark.parametrize("bad", [[1, True], [1], [1, 2.0], ["1", 2], [[1], 2]])
def test_a_malformed_flat_set_in_a_dict_is_refused(bad):
    with pytest.raises(child.ProtocolError):
        child.decode({"d": [["cajas", {"fp": bad}]]}, Handle, Accion.__getitem__)


positions = st.tuples(st.integers(-3, 3), st.integers(-3, 3))
position_sets = st.one_of(st.sets(positions, max_size=7), st.frozensets(positions, max_size=7),
                          st.frozensets(st.tuples(near_ints, near_ints), max_size=5))


@given(st.lists(st.lists(st.one_of(position_sets, st.dictionaries(
    st.sampled_from(["paredes", "cajas"]), position_sets, max_size=2)), max_size=4), max_size=8),
    st.sets(st.integers(0, 7)))
def test_remembered_sets_come_back_as_they_were_sent(answers, unsent):
    """A stream of answers encoded with one Memo (the child's) and decoded
    in order with one table (the parent's) gives back every value with its
    types, whether a set went whole, given a number, or named by one (the
    same sets again and again, as a game's walls after every step); an
    answer that was encoded but not sent (``unsent``: it failed to frame)
    makes the child forget, and nothing after names a set the parent never
    saw."""
    memo, seen = child.Memo(), [None] * child.Memo.SIZE
    for i, value in enumerate(answers * 3):
        encoded = child.encode(value, Handle, None, memo)
        if i in unsent:
            memo.forget()
            continue
        wire = child.frame({"ok": encoded})
        assert _same(_answer(json.loads(wire[4:].decode("utf-8")), seen)[1], value)


def test_a_set_sent_again_goes_as_its_number():
    walls = frozenset((x, 0) for x in range(6))
    memo = child.Memo()
    assert child.encode({"paredes": walls}, Handle, None, memo) == {
        "d": [["paredes", {"fp#": [0, child._flat_pairs(walls)]}]]}
    assert child.encode({"paredes": walls, "cajas": walls}, Handle, None, memo) == {
        "d": [["paredes", {"fp=": 0}], ["cajas", {"fp=": 0}]]}
    small = frozenset({(1, 1)})             # (fewer than MEMO_MIN ints: sent whole)
    assert child.encode(small, Handle, None, memo) == {"fp": [1, 1]}


@pytest.mark.parametrize("bad", [{"fp=": 0}, {"sp=": 64}, {"fp=": -1}, {"fp=": "0"},
                                 {"fp#": [64, [1, 2]]}, {"fp#": [0, [1, True]]},
                                 {"sp#": [0]}, {"fp#": "x"}])
def test_a_set_named_but_never_sent_is_refused(bad):
    seen = [None] * child.Memo.SIZE
    with pytest.raises(child.ProtocolError):
        child.decode(bad, Handle, Accion.__getitem__, None, None, 0, seen)
    with pytest.raises(child.ProtocolError):       # (and without a table: never accepted)
        child.decode({"fp=": 0}, Handle, Accion.__getitem__)


class _Grid:
    """A target whose results are its own mutable state: a later call of a
    batch changes what an earlier call returned."""

    def __init__(self):
        self.cells = {"cajas": {(1, 1)}, "paredes": {(x, 0) for x in range(5)}}
        self.rows = [["#", " "], [" ", "$"]]

    def estado(self):
        return self.cells

    def filas(self):
        return self.rows

    def empujar(self, x):
        self.cells["cajas"].add((x, x))
        self.rows[0].append(str(x))
        return None

    def raro(self):
        return [self, 1]         # (not plain: kept, a handle)


@given(st.lists(st.sampled_from(["estado", "filas", "empujar", "raro"]), max_size=12))
def test_a_result_encoded_when_it_returns_is_the_copy_it_replaces(ops):
    """The sandbox child encodes a result when its call returns
    (``Host.encoder``) instead of copying it: what the parent decodes is
    what the copy gave, though later calls of the batch change the target's
    objects, and a result that is not plain is kept as before."""
    def answers(encoder):
        grid = _Grid()
        namespace = type("T", (), {op: staticmethod(getattr(grid, op)) for op in
                                   ("estado", "filas", "empujar", "raro")})
        host = child.Host(namespace, handle_type=child.Ref)
        memo = child.Memo()
        if encoder:
            host.encoder = child.result_encoder(memo)
        calls = [(op, (7,) if op == "empujar" else ()) for op in ops]
        answer = host.run(BATCH, (calls,))
        wire = child.frame({"ok": child.encode(answer[1], child.Ref, None, memo)})
        return _answer(json.loads(wire[4:].decode("utf-8")), [None] * child.Memo.SIZE)[1]

    copied, encoded = answers(False), answers(True)
    assert len(copied) == len(encoded) == len(ops)
    for a, b in zip(copied, encoded):
        assert type(a) is type(b)
        if type(a) is child.Kept:
            assert (a.handle.id, a.handle.type_name) == (b.handle.id, b.handle.type_name)
            assert _same(a.value, b.value)
        elif type(a) is Handle:
            assert (a.id, a.type_name) == (b.id, b.type_name)
        else:
            assert _same(a, b)


def _seen(calls):
    """A batch's calls as the child decoded them, comparable (handles and
    earlier results by their fields)."""
    def plain(a):
        if type(a) is child.Ref:
            return ("ref", a.id, a.type_name)
        if type(a) is child.Earlier:
            return ("earlier", a.index)
        return (type(a).__name__, a)
    return [(op, [plain(a) for a in args]) for op, args in calls]


def _wire(items):
    return json.loads(json.dumps(items))


firsts = [Handle(3, "list"), Handle(4, "Juego"), Earlier(0), Earlier(1)]
batch_calls = st.lists(st.tuples(
    st.sampled_from(["hay_pared", "hay_caja", "mover", "dimensiones", ""]),
    st.tuples(st.sampled_from(firsts)).flatmap(lambda h: st.lists(
        st.integers(-3, 3) | st.booleans() | st.none() | st.text(max_size=2)
        | st.tuples(st.integers(), st.integers()), max_size=3).map(lambda rest: h + tuple(rest)))),
    max_size=12)


@given(batch_calls)
def test_a_run_of_calls_on_one_grid_reaches_the_child_as_the_calls_themselves(calls):
    """``_batch_items`` sends consecutive calls on one handle or earlier
    result, with scalar arguments, as one run; the child reads back exactly
    the calls each item alone would give, in order."""
    runs = [c for item in _wire(_batch_items(calls)) for c in child.batch_calls(item, Accion.__getitem__)]
    alone = [child.batch_call(item, Accion.__getitem__) for item in _wire([_batch_item(o, a) for o, a in calls])]
    assert _seen(runs) == _seen(alone)
    assert all(type(a) is not child.Earlier or i == 0                 # (an Earlier only first)
               for _, args in runs for i, a in enumerate(args))


def test_a_full_observation_goes_as_one_run():
    h = Handle(7, "list")
    calls = [("dimensiones", (h,))] + [(op, (h, x, y)) for x in range(3) for y in range(3)
                                       for op in ("hay_pared", "hay_caja")]
    (item,) = _batch_items(calls)
    assert item[:2] == [0, [{"h": [7, "list"]}]] and len(item[2]) == len(calls)


@pytest.mark.parametrize("item", [
    [0, [], [["hay_pared", 1, 2]]],                              # no first argument
    [0, [{"h": [1, "x"]}, 2], [["hay_pared", 1, 2]]],           # two first arguments
    [0, [{"h": [1, "x"]}], "hay_pared"],                        # the calls are not a list
    [0, [{"h": [1, "x"]}], [[1, 2]]],                           # a call with no name
    [0, [{"h": [1, "x"]}], [["hay_pared", [1, 2]]]],            # an argument not a scalar
    [0, [None], [["hay_pared", 1]], [[1, 0]]],                  # an earlier result not first
    [1, [{"h": [1, "x"]}], [["hay_pared", 1, 2]]],              # not a run's mark
    [0],
])
def test_the_child_refuses_a_malformed_run(item):
    with pytest.raises(child.ProtocolError):
        child.batch_calls(item, Accion.__getitem__)


def _containers(value):
    """Every list, set and dict inside a plain value (those a copy must not share)."""
    found = []
    if type(value) in (list, set, dict):
        found.append(value)
    if type(value) is dict:
        for k, v in value.items():
            found += _containers(k) + _containers(v)
    elif type(value) in (list, tuple, set, frozenset):
        for v in value:
            found += _containers(v)
    return found


@given(st.recursive(hashables, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner), st.sets(hashables, max_size=3),
    st.dictionaries(hashables, inner, max_size=3)), max_leaves=12))
def test_a_plain_copy_is_equal_and_shares_nothing_mutable(value):
    """The host's copy of a result (``Host.copy_plain``, with its shortcut
    for sets of positions) has the same types all the way down, and none
    of its lists, sets or dicts is one of the original's."""
    host = child.Host(object(), atoms=(Accion,))
    copied = host.copy_plain(value)
    assert _same(copied, value)
    originals = {id(c) for c in _containers(value)}
    assert not any(id(c) in originals for c in _containers(copied))


@pytest.mark.parametrize("document", [
    {"ok": {"t": [1], "s": [2]}},               # two tags
    {"ok": {"z": [1]}},                          # unknown tag
    {"ok": {"s": [[1, 2]]}},                     # an unhashable member
    {"ok": {"d": [[1]]}},                        # not a pair
    {"ok": {"h": ["1", "x"]}},                   # a handle id that is not an int
    {"ok": {"a": "SALTAR"}},                     # not an action
    {"ok": {"x": ["exploded", "m", "", "op"]}},  # not an error kind
    {"ok": {"b": "%%%"}},                        # not base64
    {"ok": {"sp": [1, 2, 3]}},                   # a flat set of an odd length
    {"ok": {"fp": [1, True]}},                   # a bool in a flat set
    {"ok": {"sp": [1.5, 2]}},                    # a float in a flat set
    {"ok": {"sp": {"t": [1, 2]}}},               # a flat set that is not a list
    {"error": ["raised", "m"]},                  # short
    {"surprise": 1},
])
def test_the_parent_refuses_anything_else(document):
    with pytest.raises(child.ProtocolError):
        _answer(document)


def test_an_unreadable_answer_kills_the_child(tmp_path):
    (tmp_path / "soko.py").write_text(
        "import os, struct\n"
        "def crear_grilla(d):\n"
        "    data = b'\\x80\\x04garbage-that-was-a-pickle'\n"
        "    os.write(3, struct.pack('>I', len(data)) + data)\n"
        "    return d\n")
    target = SandboxTarget(resolve(str(tmp_path)), timeout=2)
    try:
        with pytest.raises(TargetError) as info:
            target.call("crear_grilla", ["#"])
        assert info.value.kind in ("crashed", "raised")
    finally:
        target.close()


# ------------------------------------------------------------ actions

@pytest.mark.parametrize("name, profile, directions", [
    ("minimal_tad.py", "tad", "ours"),
    ("minimal_tad_own_enum.py", "tad", "ours"),
    ("minimal_extendido.py", "extendido", "ours"),
    ("minimal_extendido_seed001.py", "extendido", "seed001"),
])
def test_minimal_modules_that_import_nothing_of_ours_conform(name, profile, directions):
    from conformance.checking.checks import RunOptions, check_target
    options = RunOptions(max_examples=8, seed=2, directions=directions)
    ((verdict, report),) = check_target(_spec(name), profile, options)
    assert verdict.conforms, report


def test_the_stand_in_action_unpacks_and_has_the_seed_names():
    ours, north_up = child.stand_in_accion("ours"), child.stand_in_accion("seed001")
    dx, dy = ours.ARRIBA
    assert (dx, dy) == (0, -1) and ours.ARRIBA.name == "ARRIBA" and ours.NORTE is ours.ARRIBA
    assert tuple(north_up.ARRIBA) == (0, 1) and north_up.ARRIBA.value == (0, 1)


# ------------------------------------------------------------ isolation

def _in_folder(folder):
    """Processes whose working folder is ``folder``."""
    found = []
    for pid in isolation._proc_entries():
        try:
            if os.readlink(f"/proc/{pid}/cwd").startswith(str(folder)):
                found.append(pid)
        except OSError:
            pass
    return found


def _alive(pids):
    return [p for p in pids if isolation._alive(isolation._status(p))]


@pytest.mark.parametrize("level", isolation.LEVELS)
def test_kill_group_leaves_nothing(level, tmp_path):
    if level not in isolation.available_levels():
        pytest.skip(f"isolation level {level} is not available on this machine")
    work = Path(tempfile.mkdtemp(prefix="sokoban-test-"))
    try:
        script = ("import os, threading, time, signal\n"
                  "signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
                  "threading.Thread(target=time.sleep, args=(300,)).start()\n"
                  "for _ in range(3):\n"
                  "    if os.fork() == 0:\n"
                  "        os.setsid()\n"
                  "        if os.fork() == 0:\n"
                  "            time.sleep(300)\n"
                  "        os._exit(0)\n"
                  "print(os.getpid(), flush=True)\n"
                  "time.sleep(300)\n")
        proc = isolation.spawn([isolation.python_for_box(), "-I", "-S", "-c", script],
                               workdir=str(work), level=level, max_processes=32)
        assert proc.stdout.readline().strip()
        time.sleep(0.5)
        boxed = _in_folder(work)
        assert len(boxed) >= 4                     # the program and its sleepers
        isolation.kill_group(proc)
        assert proc.returncode is not None and _alive(boxed) == []
    finally:
        shutil.rmtree(work, ignore_errors=True)


@pytest.mark.parametrize("level", isolation.LEVELS)
def test_limits_apply_when_the_box_cannot_read_the_library(level, tmp_path):
    """The limits are set in a ``preexec_fn``, after the switch to the box's
    uid. It must import nothing: pytester's in-process runs forget modules
    imported during a run, and the box's uid cannot read a library under
    ``/root`` (an INTERNALERROR "Exception occurred in preexec_fn")."""
    if level not in isolation.available_levels():
        pytest.skip(f"isolation level {level} is not available on this machine")
    script = ("import sys, tempfile\n"
              "from conformance.sandbox import isolation\n"
              "for name in [n for n in sys.modules if n == 'resource']:\n"
              "    del sys.modules[name]\n"
              "work = tempfile.mkdtemp(prefix='sokoban-test-')\n"
              f"proc = isolation.spawn(['/bin/sh', '-c', 'ulimit -v'], workdir=work, level={level!r},\n"
              "                        memory_mb=300)\n"
              "print(proc.communicate(timeout=30)[0].decode().strip())\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[-1] == str(300 * 1024)


def test_a_bwrap_box_sees_only_the_system_and_its_folder():
    if "bwrap" not in isolation.available_levels():
        pytest.skip("bubblewrap is not available on this machine")
    work = Path(tempfile.mkdtemp(prefix="sokoban-test-"))
    try:
        probe = ("import os\n"
                 f"print(os.path.exists({str(Path(__file__))!r}), os.path.exists('/work'),\n"
                 "      os.access('/usr', os.W_OK), os.access('.', os.W_OK))\n")
        proc = isolation.spawn([isolation.python_for_box(), "-I", "-S", "-c", probe],
                               workdir=str(work), level="bwrap")
        out, _ = proc.communicate(timeout=30)
        isolation.kill_group(proc)
        assert out.decode().split() == ["False", "False", "False", "True"]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_a_bwrap_box_sees_no_system_debug_information():
    """The system libraries' detached debug information (libc6-dbg) is not
    in the box: empty and read-only there (a sanitizer report then names
    the C library's frames by symbol, in a tenth of the time)."""
    if "bwrap" not in isolation.available_levels():
        pytest.skip("bubblewrap is not available on this machine")
    if not os.path.isdir("/usr/lib/debug") or not os.listdir("/usr/lib/debug"):
        pytest.skip("this machine has no system debug information to hide")
    work = Path(tempfile.mkdtemp(prefix="sokoban-test-"))
    try:
        probe = ("import os\n"
                 "print(len(os.listdir('/usr/lib/debug')), os.access('/usr/lib/debug', os.W_OK))\n"
                 "try:\n    open('/usr/lib/debug/x', 'w')\nexcept OSError:\n    print('refused')\n")
        proc = isolation.spawn([isolation.python_for_box(), "-I", "-S", "-c", probe],
                               workdir=str(work), level="bwrap")
        out, _ = proc.communicate(timeout=30)
        isolation.kill_group(proc)
        assert out.decode().split() == ["0", "False", "refused"]
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------ the reference

def test_importing_the_reference_is_a_failing_verdict(capsys):
    from conformance.commands import cli
    assert cli.main([str(FIXTURES / "soko_tampers.py"), "--max-examples", "2"]) == 1
    assert "imports the reference implementation" in capsys.readouterr().out


def test_a_submissions_own_modules_named_like_ours_load(tmp_path):
    """Refused by where they come from, not by name: a student's own
    ``levels.py`` and ``spec/`` package, beside its soko.py, are its own."""
    shutil.copy(FIXTURES / "soko_base.py", tmp_path / "levels.py")
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "__init__.py").write_text("ANSWER = 42\n")
    (tmp_path / "soko.py").write_text("from levels import *\nimport spec\n"
                                      "def answer():\n    return spec.ANSWER\n")
    target = SandboxTarget(resolve(str(tmp_path)), timeout=2)
    try:
        assert target.call("answer") == 42
        assert target.call("hay_jugador", target.call("crear_grilla", GRID), 1, 1) is True
    finally:
        target.close()


@pytest.mark.parametrize("in_process", [True, False])
def test_opaque_results_stay_with_the_target(in_process):
    """After OPAQUE, a juego (a plain dict holding its whole history) comes
    back as a handle, not by value, and still works as the argument of the
    next call; an atom (a bool) still comes back as it is."""
    from conformance import mutants
    from conformance.api import OPAQUE
    from conformance.checking.targets import resolve
    from conformance.sandbox.box import open_target
    nivel = {"personaje": {(1, 1)}, "cajas": {(2, 1)}, "paredes": set(),
             "depósitos": {(3, 1)}, "bombas": 1}
    t = open_target(resolve(str(mutants.path("student_extendido"))), in_process=in_process)
    try:
        j = t.call("nuevo_juego", [nivel])
        assert type(j) is dict                     # by value, before OPAQUE
        t.call(OPAQUE, ["nuevo_juego", "mover"])
        j = t.call("nuevo_juego", [nivel])
        assert type(j) is Handle
        derecha = spec.tipos.Accion.DERECHA
        assert t.call("puede_mover", j, derecha) is True
        j = t.call("mover", j, derecha)
        assert type(j) is Handle
        assert t.call("gano", j) is True
        assert t.call("persona", j) == (2, 1)
    finally:
        t.close()


@pytest.fixture
def probes(monkeypatch):
    """The levels probed (each probe recorded; ``works``: the levels that
    start), with the probe caches and the inherited answers cleared, and
    put back after."""
    tried: list[str] = []
    works: set[str] = set()

    def probe(level):
        tried.append(level)
        return level in works

    for name in (isolation._PROBED, isolation._BEST, isolation.ENV_VAR):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(isolation, "_probe", probe)
    monkeypatch.setattr(isolation, "_root", lambda: True)
    monkeypatch.setattr(isolation.shutil, "which", lambda name: "/usr/bin/" + name)
    caches = (isolation.available_levels, isolation._works, isolation._best_level)
    for cache in caches:
        cache.cache_clear()
    yield tried, works
    for cache in caches:
        cache.cache_clear()


def test_the_best_level_is_found_without_probing_the_others(probes, monkeypatch):
    tried, works = probes
    works |= {"bwrap", "user"}
    assert isolation.isolation_level() == "bwrap"
    assert tried == ["bwrap"]                           # (user not tried)
    assert isolation.available_levels() == ("bwrap", "user", "best-effort")
    assert tried == ["bwrap", "user"]                   # (bwrap not tried again)
    monkeypatch.setenv(isolation.ENV_VAR, "user")
    assert isolation.isolation_level() == "user"


def test_without_bwrap_the_next_level_is_probed(probes):
    tried, works = probes
    works |= {"user"}
    assert isolation.isolation_level() == "user"
    assert tried == ["bwrap", "bwrap", "user"]          # (a failed probe is tried twice)


def test_a_checker_process_inherits_the_best_level(probes):
    tried, works = probes
    works |= {"bwrap"}
    assert isolation.isolation_level() == "bwrap"
    script = ("from conformance.sandbox import isolation\n"
              "isolation._probe = lambda level: print('probed', level) or False\n"
              "print(isolation.isolation_level())\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.stdout.split() == ["bwrap"]


def test_a_stderr_closed_under_its_reader_ends_its_reading(monkeypatch):
    """``keep_tail``'s thread reads a box's stderr; when the box is killed
    and its pipe closed while the thread reads, that is the stream's end,
    not an exception in the thread (pytest's "unhandled thread exception")."""
    import threading
    failures = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    r, w = os.pipe()
    os.write(w, b"report\n")
    os.close(w)
    stream = os.fdopen(r, "rb")
    stream.close()                      # closed before (or while) the thread reads
    buf, thread = isolation.keep_tail(stream, 1024)
    thread.join(timeout=5)
    assert not thread.is_alive() and failures == [] and buf == bytearray()
