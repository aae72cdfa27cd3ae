"""``python -m impl solve FILE [options]``: solve the levels of a file or of a
bundled collection, print the solutions and statistics, optionally write the
solutions into a SOK file.

Exit status: 0 every selected level was solved; 1 some level was proved
unsolvable or the solver gave up; 2 bad arguments, a bad file or level number,
an invalid level, or an output file that would be overwritten.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import multiprocessing
import os
import sys
import time

from levels.files import WriteRefused, check_writable, write_text
from levels.names import LevelChoiceError, find_level, level_label, plural

from .api import DEFAULT_TIME_LIMIT, ENGINES, METHODS, solve
from .board import LevelProblem
from .verify import BOMB

#: SOK metadata key for a solution of the extended game (it contains ``B``).
BOMB_KEY = "Bomb-Solution"


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


#: How the command names itself when started as ``python -m impl solve``.
PROG = "python -m impl solve"


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Solve Sokoban levels; every solution is verified by "
                    "replaying it through the spec.")
    p.add_argument("file", metavar="FILE",
                   help="a level file (XSB/SOK or Prolog facts) or the name of a "
                        "bundled collection (e.g. microban, seed003)")
    p.add_argument("--level", "-l", metavar="N|TITLE",
                   help="solve only this level: its place in the file (from 1) or its "
                        "title (e.g. 'Nivel 3'); default: every level")
    p.add_argument("--time-limit", "-t", type=float, default=DEFAULT_TIME_LIMIT,
                   metavar="S", help=f"seconds per level (default {DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--node-limit", type=int, metavar="N",
                   help="expanded nodes per level (default: no limit)")
    p.add_argument("--method", choices=METHODS, default="auto",
                   help="moves: move-optimal A*; pushes: push-level search; "
                        "auto (default): moves on small levels, pushes otherwise")
    p.add_argument("--engine", choices=ENGINES, default=None,
                   help="who runs the push search: native (C++ kernel, built with g++ "
                        "on first use), python, or auto (native when it builds; the "
                        "default, or $SOKOBAN_SOLVER)")
    p.add_argument("--write-solutions", metavar="OUT",
                   help="write the levels with their solutions to the SOK file OUT")
    p.add_argument("--force", action="store_true",
                   help="allow --write-solutions to replace an existing OUT "
                        "(never the input file)")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="levels solved at once, one process each (default: "
                        "every core, %d here)" % default_jobs())
    p.add_argument("--progress", action="store_true",
                   help="report search progress on stderr even when it is not a terminal")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="print only the one-line status of each level")
    return p


def load_levels(name: str) -> tuple[list, str | None]:
    """The levels of a file or bundled collection (``levels.read_levels``),
    and the file's real path (``None`` for a collection)."""
    import levels

    try:
        found = levels.read_levels(
            name, on_skip=lambda e: print(f"warning: skipped {e}", file=sys.stderr))
    except levels.LevelError as exc:
        raise UsageError(str(exc)) from None
    path = os.path.realpath(name) if os.path.exists(name) else None
    return list(found), path


def _progress_printer(label: str):
    def report(info: dict) -> None:
        extra = "".join(f" {k}={v}" for k, v in info.items()
                        if k not in ("nodes", "elapsed", "nodes_per_second"))
        sys.stderr.write(f"\r{label}: {info['elapsed']:.0f}s nodes={info['nodes']} "
                         f"nodes/s={info['nodes_per_second']:.0f}{extra}   ")
        sys.stderr.flush()
    return report


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _solve_one(level, options: dict, progress=None):
    """Solve one level; ``LevelProblem`` comes back as its message."""
    try:
        return solve(level, progress=progress, **options)
    except LevelProblem as exc:
        return exc


def solve_many(chosen, options: dict, jobs: int, show_progress: bool = False):
    """Solve ``chosen`` (a list of ``(index from 0, level)``) with ``solve(level,
    **options)``; yields ``(index in chosen, Result or LevelProblem)`` as the
    levels finish: in order in this process when ``jobs`` is 1, from ``jobs``
    worker processes otherwise.  ``show_progress``: a progress line on
    stderr."""
    if min(jobs, len(chosen)) > 1:
        return _results_in_pool(chosen, options, jobs, show_progress)
    return _results_in_process(chosen, options, show_progress)


def _results_in_process(chosen, options: dict, show_progress: bool):
    """``(index, result)`` for each chosen level, one after the other, with
    the search's own progress line on stderr."""
    for i, (index, level) in enumerate(chosen):
        progress = _progress_printer(level_label(level, index)) if show_progress else None
        result = _solve_one(level, options, progress)
        if show_progress:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
        yield i, result


def pool_context():
    """The start method of our worker processes: ``forkserver`` (``spawn``
    where there is none), never ``fork``, which copies a process whose other
    threads may hold locks (Python 3.12 warns about it, 3.14 no longer uses it
    by default on Linux)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _results_in_pool(chosen, options: dict, jobs: int, show_progress: bool):
    """``(index, result)`` as the worker processes finish them; the progress
    line on stderr counts finished levels."""
    started = time.perf_counter()
    tally = {"solved": 0, "other": 0}
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs,
                                                mp_context=pool_context()) as pool:
        futures = {pool.submit(_solve_one, level, options): i
                   for i, (_, level) in enumerate(chosen)}
        try:
            pending = set(futures)
            while pending:
                done, pending = concurrent.futures.wait(
                    pending, timeout=1.0,
                    return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    result = future.result()
                    solved = getattr(result, "status", None) == "solved"
                    tally["solved" if solved else "other"] += 1
                    if show_progress:
                        sys.stderr.write("\r\033[K")
                    yield futures[future], result
                if show_progress:
                    finished = tally["solved"] + tally["other"]
                    sys.stderr.write(
                        f"\r[{finished}/{len(chosen)} done, {tally['solved']} solved, "
                        f"{min(jobs, len(pending))} running, "
                        f"{time.perf_counter() - started:.0f}s]   ")
                    sys.stderr.flush()
        except BaseException:  # Ctrl-C: drop the queued levels, don't wait
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            if show_progress:
                sys.stderr.write("\r\033[K")
                sys.stderr.flush()



def _with_solution(level, solution: str):
    """The level with ``solution`` added (once).  A solution with bombs uses
    the letter ``B``, which SOK's ``Solution:`` lines cannot hold (``B`` is a
    box on a goal there), so it goes under the ``Bomb-Solution`` key."""
    if not dataclasses.is_dataclass(level):
        return level
    if BOMB in solution:
        metadata = dict(level.metadata)
        metadata[BOMB_KEY] = solution
        return dataclasses.replace(level, metadata=metadata)
    if solution in level.solutions:
        return level
    return dataclasses.replace(level, solutions=tuple(level.solutions) + (solution,))




def run(args) -> int:
    all_levels, source = load_levels(args.file)
    if not all_levels:
        raise UsageError(f"{args.file}: holds no levels")
    if args.level is not None:
        try:
            index = find_level(all_levels, args.level)
        except LevelChoiceError as exc:
            raise UsageError(f"{args.file}: {exc.problem}") from None
        chosen = [(index, all_levels[index])]
    else:
        chosen = list(enumerate(all_levels))
    if args.time_limit is not None and args.time_limit <= 0:
        raise UsageError("--time-limit must be positive")
    if args.node_limit is not None and args.node_limit <= 0:
        raise UsageError("--node-limit must be positive")
    protect = [source] if source is not None else []
    if args.write_solutions:
        try:
            check_writable(args.write_solutions, replace=args.force, protect=protect)
        except WriteRefused as exc:
            raise UsageError(str(exc)) from None
    if args.jobs is not None and args.jobs <= 0:
        raise UsageError("--jobs must be positive")
    show_progress = args.progress or sys.stderr.isatty()
    jobs = min(args.jobs or default_jobs(), len(chosen))
    options = {"time_limit": args.time_limit, "node_limit": args.node_limit,
               "method": args.method, "engine": args.engine}
    started = time.perf_counter()
    results = solve_many(chosen, options, jobs, show_progress)
    worst = 0
    counts = {"solved": 0, "unsolvable": 0, "gave_up": 0, "invalid": 0}
    written = [level for _, level in chosen]
    solver_time = 0.0
    # Lines come out in level order: a finished level waits for the ones
    # before it.
    finished = {}
    next_out = 0
    for i, result in results:
        finished[i] = result
        while next_out in finished:
            result = finished.pop(next_out)
            index, level = chosen[next_out]
            label = level_label(level, index)
            next_out += 1
            if isinstance(result, LevelProblem):
                print(f"{label}: invalid: {result}", flush=True)
                counts["invalid"] += 1
                worst = 2
                continue
            counts[result.status] += 1
            solver_time += result.time
            print(f"{label}: {result.summary()}", flush=True)
            if result.status == "solved":
                if not args.quiet:
                    print(result.solution if result.solution
                          else "(already solved: empty solution)", flush=True)
                written[next_out - 1] = _with_solution(level, result.solution)
            else:
                worst = max(worst, 1)
    if len(chosen) > 1:
        wall = time.perf_counter() - started
        n = len(chosen)
        print("total: " + ", ".join(f"{v} {k.replace('_', ' ')}"
                                    for k, v in counts.items() if v)
              + f" of {plural(n, 'level')}; solved {counts['solved']}/{n} in "
              f"{wall:.1f} s wall clock ({solver_time:.1f} s of solver time, "
              f"{jobs} job{'s' if jobs != 1 else ''})")
    if args.write_solutions:
        import levels
        out = written
        if args.level is None and source is not None:  # the file's notes and keys too
            out = dataclasses.replace(levels.read_collection(source), levels=written)
        try:
            write_text(args.write_solutions, levels.format_xsb(out),
                       replace=args.force, protect=protect)
        except WriteRefused as exc:
            raise UsageError(str(exc)) from None
        print(f"solutions written to {args.write_solutions}")
    return worst


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    parser = build_parser(prog)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed its message
        return int(exc.code or 0)
    try:
        return run(args)
    except UsageError as exc:
        print(f"python -m impl solve: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
