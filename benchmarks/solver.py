"""Solver benchmark on any level file, optionally side by side with a peer.

    python benchmarks/solver.py                          # seed003 and microban, 60 s per level
    python benchmarks/solver.py LEVELS.xsb --time-limit 20 --levels 1-30
    python benchmarks/solver.py LEVELS.xsb -t 10 --peer 'yass {level}'

``FILE`` is an XSB/SOK (or Prolog) level file, or the name of a bundled
collection (``microban``, ``seed003``).  Prints one row per level (status,
moves, pushes, nodes, time, nodes/s) and a summary: solved count, total and
median time, median nodes/s.  Every solution counted as solved has been
replayed through ``spec``.

``--cpu-limit`` makes ``--time-limit`` the kernel's CPU time
(``RLIMIT_CPU``) rather than the wall clock: the kernel's searches are
scheduled by nodes and time only makes it give up, so a loaded machine then
solves the same levels a quiet one does (slower). Run with
``PYTHONPATH=OTHER_TREE`` this script measures another checkout's kernel the
same way, e.g. a baseline side by side.

``--hints`` times instead the game's hint (``impl.play.hint.find_hint``,
with ``--time-limit`` as its limit, e.g. ``-t 2``) from each level's start:
one row per level and how many levels got a hint.

``--peer CMD`` runs another solver on the same levels, one process at a time
and after ours, and prints both side by side with time ratios.  ``CMD`` is
split like a shell command line; ``{level}`` is replaced by the path of a
file holding that one level (XSB with a title), ``{limit}`` by the per-level
limit in seconds.  The peer counts as having solved a level when it exits
with status 0 within the limit and, with ``--peer-solved REGEX``, its output
matches REGEX.  A line of its output that is a LURD solution of the level is
checked (``levels.lurd.solves``) and reported as verified.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import levels
from impl.solver import solve
from impl.solver.cli import default_jobs, solve_many

#: ``--cpu-limit``: the kernel's limit is its CPU time (``RLIMIT_CPU``), not
#: the wall clock, so that a loaded machine gives the same answer as a quiet
#: one: the kernel's searches are scheduled by nodes, and time only makes it
#: give up. Read from the environment so that the worker processes (which
#: import this script) set it too.
CPU_LIMIT = "SOKOBAN_BENCHMARK_CPU_LIMIT"
#: Under ``--cpu-limit``, the wall-clock limit is this many times the CPU limit.
WALL_FACTOR = 20


def limit_cpu_time() -> None:
    """Under ``--cpu-limit``: start every kernel with ``RLIMIT_CPU`` at the
    limit, and read its death by ``SIGXCPU`` as "gave up (time)"."""
    seconds = os.environ.get(CPU_LIMIT)
    if not seconds:
        return
    import resource
    import types
    from impl.solver import native

    limit = max(1, round(float(seconds)))

    class Limited(subprocess.Popen):
        def __init__(self, *args, **kwargs):
            outer = kwargs.get("preexec_fn")

            def hook():
                if outer is not None:
                    outer()
                resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))
            kwargs["preexec_fn"] = hook
            super().__init__(*args, **kwargs)

    native.subprocess = types.SimpleNamespace(**{**vars(subprocess), "Popen": Limited})
    parse = native.parse

    def parse_limited(out, returncode, err=""):
        if returncode == -signal.SIGXCPU:
            return native.Outcome("time", None, 0)
        return parse(out, returncode, err)
    native.parse = parse_limited


limit_cpu_time()

DEFAULT_FILES = ("seed003", "microban")
# The kernel's experiment switches (SOKOBAN_KERNEL_*) given to this script are
# passed on to the kernel (docs/solver.md).
os.environ.setdefault("SOKOBAN_KERNEL_EXPERIMENTS", "1")
LURD_LINE = re.compile(r"^[udlrUDLR]+$")


def parse_range(text: str, count: int) -> list[int]:
    numbers: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        a = int(lo)
        b = int(hi) if hi else a
        numbers.extend(n for n in range(a, b + 1) if 1 <= n <= count)
    return numbers


def run_ours(all_levels, numbers, time_limit: float, method: str, jobs: int,
             engine: str = "auto", node_limit: int | None = None) -> dict:
    """Our solver on the levels; returns {number: Result or exception}."""
    chosen = [(n - 1, all_levels[n - 1]) for n in numbers]
    options = {"time_limit": time_limit, "method": method, "engine": engine,
               "node_limit": node_limit}
    out = {}
    tty = sys.stderr.isatty()
    for i, result in solve_many(chosen, options, jobs, tty):
        out[numbers[i]] = result
        if not tty:  # a log a long run can be followed by (the table comes at the end)
            print(f"level {numbers[i]}: {getattr(result, 'status', result)} "
                  f"{getattr(result, 'nodes', '')} nodes "
                  f"{getattr(result, 'time', 0.0):.1f} s", file=sys.stderr, flush=True)
    return out


def run_peer(command: str, level, number: int, time_limit: float, solved_re,
             workdir: str) -> dict:
    """One run of the peer command on one level: status, time, verified."""
    path = os.path.join(workdir, f"level-{number}.sok")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(levels.format_xsb([level]))
    argv = [part.replace("{level}", path).replace("{limit}", f"{time_limit:g}")
            for part in shlex.split(command)]
    started = time.perf_counter()
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, text=True, cwd=workdir,
                                errors="replace", start_new_session=True)
    except OSError as exc:
        return {"status": "error", "time": 0.0, "verified": False, "note": str(exc)}
    try:
        output, _ = proc.communicate(timeout=time_limit + 1.0)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"status": "gave_up", "time": time.perf_counter() - started,
                "verified": False, "note": "time"}
    elapsed = time.perf_counter() - started
    solved = proc.returncode == 0 and elapsed <= time_limit and (
        solved_re is None or solved_re.search(output) is not None)
    verified = any(levels.lurd.solves(level, line.strip())
                   for line in output.splitlines() if LURD_LINE.match(line.strip()))
    return {"status": "solved" if solved else "failed", "time": elapsed,
            "verified": verified, "note": f"exit {proc.returncode}"}


def summarise(rows) -> dict:
    solved = [r for r in rows if r.status == "solved"]
    rates = [r.nodes_per_second for r in rows if r.nodes >= 100]
    return {
        "levels": len(rows),
        "solved": len(solved),
        "unsolvable": sum(r.status == "unsolvable" for r in rows),
        "gave_up": sum(r.status == "gave_up" for r in rows),
        "total_time": sum(r.time for r in rows),
        "median_time": statistics.median(r.time for r in rows) if rows else 0.0,
        "median_time_solved": statistics.median(r.time for r in solved) if solved else 0.0,
        "max_time_solved": max((r.time for r in solved), default=0.0),
        "median_nodes_per_s": statistics.median(rates) if rates else 0.0,
    }


def benchmark(name: str, args, engine: str = "auto") -> dict:
    try:
        all_levels = levels.read_levels(name)
    except levels.LevelError as exc:
        raise SystemExit(f"benchmarks/solver.py: {exc}") from None
    numbers = (list(range(1, len(all_levels) + 1)) if args.levels is None
               else parse_range(args.levels, len(all_levels)))
    limit = args.time_limit
    print(f"\n## {name}: {len(numbers)} levels, {limit:g} s per level"
          f"{' of CPU time (the wall clock only at ' + str(WALL_FACTOR) + 'x)' if args.cpu_limit else ''}, "
          f"method={args.method}, engine={engine}, "
          f"{args.jobs} job{'s' if args.jobs != 1 else ''}\n")
    ours = run_ours(all_levels, numbers, limit * (WALL_FACTOR if args.cpu_limit else 1),
                    args.method, args.jobs, engine, args.node_limit)
    rows = []
    print(f"{'level':>6} {'status':<10} {'moves':>6} {'pushes':>6} {'opt':>5} "
          f"{'nodes':>9} {'time s':>8} {'nodes/s':>9}")
    for n in numbers:
        r = ours[n]
        if isinstance(r, Exception):
            print(f"{n:>6} invalid: {r}")
            continue
        rows.append(r)
        print(f"{n:>6} {r.status:<10} {'' if r.moves is None else r.moves:>6} "
              f"{'' if r.pushes is None else r.pushes:>6} {r.optimal or 'no':>5} "
              f"{r.nodes:>9} {r.time:>8.3f} {r.nodes_per_second:>9.0f}")
    label = name if engine == "auto" else f"{os.path.basename(name)} ({engine})"
    summary = {"collection": label, **summarise(rows)}
    if args.peer:
        summary["peer"] = compare_with_peer(all_levels, numbers, ours, args)
    return summary


def hint_benchmark(name: str, args) -> None:
    """The game's hint from each level's start, within ``--time-limit``."""
    from impl.play.hint import Hint, find_hint, learn
    from impl.solver.api import to_nivel
    from impl.solver.board import pieces_of
    all_levels = levels.read_levels(name)
    numbers = (list(range(1, len(all_levels) + 1)) if args.levels is None
               else parse_range(args.levels, len(all_levels)))
    print(f"\n## hints on {name}: {len(numbers)} levels, {args.time_limit:g} s limit\n")
    print(f"{'level':>6} {'hint':<5} {'time s':>8}")
    times = []
    got = 0
    for n in numbers:
        nivel = to_nivel(pieces_of(all_levels[n - 1]))
        learn(all_levels[n - 1])  # its stored solutions, as the game does
        start = time.perf_counter()
        h = find_hint(nivel, args.time_limit)
        t = time.perf_counter() - start
        times.append(t)
        ok = isinstance(h, Hint)
        got += ok
        print(f"{n:>6} {'yes' if ok else 'no':<5} {t:>8.3f}")
    print(f"\nhints: {got}/{len(numbers)} levels, median {statistics.median(times):.3f} s, "
          f"slowest {max(times):.3f} s")


def compare_with_peer(all_levels, numbers, ours, args) -> dict:
    solved_re = re.compile(args.peer_solved) if args.peer_solved else None
    limit = args.time_limit
    print(f"\n### side by side with the peer: {args.peer}\n")
    print(f"{'level':>6} {'ours':<10} {'time s':>8} {'peer':<10} {'time s':>8} "
          f"{'verified':>8} {'ours/peer':>9}")
    both, peer_rows = [], []
    with tempfile.TemporaryDirectory(prefix="solver-peer-") as workdir:
        for n in numbers:
            r = ours[n]
            if isinstance(r, Exception):
                continue
            p = run_peer(args.peer, all_levels[n - 1], n, limit, solved_re, workdir)
            peer_rows.append(p)
            ratio = ""
            if r.status == "solved" and p["status"] == "solved":
                both.append((r.time, p["time"]))
                ratio = f"{r.time / p['time']:.2f}" if p["time"] > 0 else "inf"
            print(f"{n:>6} {r.status:<10} {r.time:>8.3f} {p['status']:<10} "
                  f"{p['time']:>8.3f} {'yes' if p['verified'] else '':>8} {ratio:>9}",
                  flush=True)
    peer_solved = [p for p in peer_rows if p["status"] == "solved"]
    return {
        "solved": len(peer_solved),
        "levels": len(peer_rows),
        "total_time": sum(p["time"] for p in peer_rows),
        "median_time_solved": statistics.median(p["time"] for p in peer_solved)
        if peer_solved else 0.0,
        "both": len(both),
        "time_ratio_both": (sum(a for a, _ in both) / sum(b for _, b in both))
        if both and sum(b for _, b in both) > 0 else None,
    }


def compare_methods(time_limit: float) -> None:
    """Seed 003: move-optimal A* and the push search side by side."""
    print("\n## seed003: move-optimal search vs push search\n")
    print(f"{'level':>6} {'moves(A*)':>9} {'moves(push)':>11} {'len ratio':>9} "
          f"{'time A* s':>9} {'time push s':>11} {'time ratio':>10}")
    for n, level in enumerate(levels.load("seed003"), start=1):
        a = solve(level, time_limit=time_limit, method="moves")
        b = solve(level, time_limit=time_limit, method="pushes")
        if a.status != "solved" or b.status != "solved":
            print(f"{n:>6} {a.status:>9} {b.status:>11}")
            continue
        len_ratio = b.moves / a.moves if a.moves else 1.0
        time_ratio = a.time / b.time if b.time else float("nan")
        print(f"{n:>6} {a.moves:>9} {b.moves:>11} {len_ratio:>9.2f} "
              f"{a.time:>9.4f} {b.time:>11.4f} {time_ratio:>10.2f}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="level files or bundled collections (default: seed003 microban)")
    p.add_argument("--time-limit", "-t", type=float, default=60.0,
                   help="seconds per level (default 60)")
    p.add_argument("--cpu-limit", action="store_true",
                   help="--time-limit is the kernel's CPU time (RLIMIT_CPU; the wall clock "
                        f"gets {WALL_FACTOR}x as long): the same answers on a loaded machine "
                        "as on a quiet one (native kernel only)")
    p.add_argument("--node-limit", type=int, default=None,
                   help="nodes per level as well (the native kernel counts its turns in "
                        "nodes, so a node limit gives the same answers under any load)")
    p.add_argument("--levels", help="level numbers, e.g. 1-20,40 (default: all)")
    p.add_argument("--method", default="auto", choices=("auto", "moves", "pushes"))
    p.add_argument("--engine", default="auto", choices=("auto", "python", "native", "both"),
                   help="who runs the push search (default auto: native when g++ "
                        "builds it); both: each collection twice, side by side")
    p.add_argument("--jobs", "-j", type=int, default=1,
                   help=f"levels our solver runs at once (default 1; {default_jobs()} cores here)")
    p.add_argument("--peer", metavar="CMD",
                   help="a peer solver's command; {level} = one-level file, {limit} = seconds")
    p.add_argument("--peer-solved", metavar="REGEX",
                   help="the peer solved a level only when its output matches REGEX")
    p.add_argument("--hints", action="store_true",
                   help="time the game's hint from each level's start instead")
    args = p.parse_args(argv)
    if args.cpu_limit:
        os.environ[CPU_LIMIT] = str(args.time_limit)
        limit_cpu_time()
    if args.time_limit <= 0 or args.jobs <= 0 or (args.node_limit is not None
                                                  and args.node_limit <= 0):
        p.error("--time-limit, --node-limit and --jobs must be positive")
    started = time.perf_counter()
    files = args.files or list(DEFAULT_FILES)
    if args.hints:
        for f in files:
            hint_benchmark(f, args)
        return 0
    engines = ("python", "native") if args.engine == "both" else (args.engine,)
    summaries = [benchmark(f, args, e) for f in files for e in engines]
    if "seed003" in files and not args.peer:
        compare_methods(args.time_limit)
    print("\n## Summary (times in seconds; median over every level, "
          "and over solved ones)\n")
    print(f"{'collection':<22} {'solved':>9} {'unsolv.':>7} {'gave up':>7} "
          f"{'total':>8} {'median':>7} {'med.solved':>10} {'max solved':>10} {'nodes/s':>8}")
    for s in summaries:
        print(f"{os.path.basename(s['collection'])[:22]:<22} {s['solved']:>4}/{s['levels']:<4} "
              f"{s['unsolvable']:>7} {s['gave_up']:>7} {s['total_time']:>8.1f} "
              f"{s['median_time']:>7.3f} {s['median_time_solved']:>10.3f} "
              f"{s['max_time_solved']:>10.2f} {s['median_nodes_per_s']:>8.0f}")
        peer = s.get("peer")
        if peer:
            ratio = ("" if peer["time_ratio_both"] is None
                     else f"; on the {peer['both']} levels both solved, our time / "
                          f"peer time = {peer['time_ratio_both']:.2f}")
            print(f"{'  peer':<22} {peer['solved']:>4}/{peer['levels']:<4} "
                  f"{'':>7} {'':>7} {peer['total_time']:>8.1f} {'':>7} "
                  f"{peer['median_time_solved']:>10.3f}{ratio}")
    print(f"\nwall clock {time.perf_counter() - started:.1f} s "
          f"(time limit {args.time_limit:g} s per level"
          + ("" if args.node_limit is None else f", node limit {args.node_limit}") + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
