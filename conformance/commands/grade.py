"""``python -m conformance grade DIR``: check every submission in a folder.

A submission is an entry of DIR: a folder holding ``soko.py`` (or a package,
or a single ``.py`` file, or C++ sources, or a Prolog program), a ``.py``
file, or a ``.pro``/``.pl`` file that defines ``sokoban/1``. Each is checked in its own
sandbox, several at a time (``--jobs``, one per core by default),
under the profile it provides (or ``--profile``), all with the same random seed
(``--seed``, or one drawn for the whole run and recorded), rule by rule of the
seed (:func:`conformance.checking.engine.check_rules`), each within the time budget
``--budget`` (its checker's start included). The summary, one row per
submission (name, profile, verdict, score: a point per rule kept, the broken
rules, first counterexample message, replay command, seconds, the median
time of a call into it and whether it is slow: its median call took
:data:`~conformance.machines.budget.SLOW_CALL` or more), goes to
``summary.csv`` and ``summary.json`` (which also holds every rule's outcome
and counterexample) in ``--out`` (default: a new folder ``DIR-grades``
beside DIR, or ``DIR-grades-2``... if that one already holds a summary),
with ``report.html``: the class at a glance, one self-contained page
(:mod:`conformance.reports.classreport`); an existing summary is never overwritten
without ``--force``.

Each submission is checked by a fresh checker process of its own (never a
pool worker reused across submissions) that the grader supervises from
outside: a submission that kills its checker gets the verdict "the submission
killed the checker" and no other submission is affected. The submission's
code runs in a box (:mod:`conformance.sandbox.isolation`); the level used is printed
and recorded in ``summary.json``. The summary is written only after every
process of every submission is dead, atomically, with the umask's permissions.

A class of N submissions graded ``--jobs J`` at a time ends within about
N x budget / J, plus the time to start each checker.

Exit status: 0 when the summary was written, whatever the verdicts (a class
with failing submissions is a normal outcome); with ``--fail-under T``, 1 when
fewer than T submissions conform (T: a fraction such as ``0.8``, a
percentage such as ``80%``, or a count such as ``12``); 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import ctypes
import dataclasses
import io
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Sequence, TextIO

from conformance import profiles
from conformance.sandbox import isolation
from conformance.commands.arguments import add_run_options, options_from, parse_or_status
from conformance.machines.budget import SLOW_CALL, process_start
from conformance.checking.checks import (
    EXIT_BAD, EXIT_CONFORMS, EXIT_DOES_NOT_CONFORM, RunOptions, check_by_rules,
)
from conformance.reports.output import (
    NOT_FULLY_CHECKED, atomic_write, status_count, verdict_message, verdict_status,
)
from conformance.checking.targets import BadTarget, resolve
from conformance.reports import points
from spec import rules
from conformance.reports import classreport
from conformance.checking.checks import guess_profile
from conformance.reports.classreport import status_label
from conformance.translations import _, language_from_argv, set_language, speak_argparse

#: How the command names itself when started as ``python -m conformance grade``.
PROG = "python -m conformance grade"

COLUMNS = ("name", "profile", "verdict", "score", "max_score", "broken", "message", "replay",
           "seconds", "median_call_ms", "slow", "warnings")
#: summary.json's rows also hold, per rule of the seed, its outcome (not in the CSV).
RULES_FIELD = "rules"
SUMMARY_FILES = ("summary.csv", "summary.json", "report.html")


def find_submissions(folder: Path, exclude: Path | None = None,
                     support: Path | None = None) -> list[Path]:
    """The submissions in ``folder``, sorted by name (hidden entries,
    ``__pycache__`` and ``exclude`` are skipped): its folders, its ``.py``
    files, and its ``.pro``/``.pl`` files that define ``sokoban/1`` (seed
    003's programs; a shared level file beside them is not one). The
    course's support folder (``support``, ``--support``) is not one either."""
    found = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith((".", "_")) or entry.name == "__pycache__":
            continue
        if exclude is not None and entry.resolve() == exclude.resolve():
            continue
        if support is not None and entry.resolve() == support.resolve():
            continue
        if entry.is_dir() or entry.suffix == ".py" or any(
                p.recognize(entry, strict=True) is not None for p in profiles.languages()):
            found.append(entry)
    return found


def grade_one(path: str, profile: str | None, options: RunOptions) -> dict[str, Any]:
    """Check one submission; its summary row (never raises for a bad one)."""
    start = time.perf_counter()
    name = Path(path).name
    try:
        spec = resolve(path)
    except BadTarget as e:
        return _row(name, profile or "", "bad target", str(e), "", start)
    if spec.kind == "file" and Path(path).is_file():
        # A lone .py in the class folder: its box gets that file only, not its classmates.
        options = dataclasses.replace(options, copy_folder=False)
    verdict, _report = check_by_rules(spec, profile, options)[0]
    replay = verdict.counterexample.replay if verdict.counterexample else ""
    return _row(name, verdict.profile if verdict.profile != "?" else "", verdict_status(verdict),
                verdict_message(verdict), replay, start, verdict.warnings, verdict.outcomes,
                median_call=verdict.median_call)


def _row(name, profile, verdict, message, replay, start, warnings=(), outcomes=(),
         median_call: float | None = None) -> dict[str, Any]:
    """A summary row; ``warnings`` (a conforming answer of a doubtful type,
    robustness findings) are joined with `` | `` in one column; ``outcomes``
    (one per rule of the seed) give the score (a point per rule kept), the
    broken rules (space-separated ids) and, in summary.json, each rule's
    outcome with its counterexample. ``median_call`` (seconds): the median
    time of a call into it (slow from :data:`~conformance.machines.budget.SLOW_CALL`)."""
    got, out_of = points.score(outcomes)
    if not outcomes and profile:        # not checked at all: no rule kept
        out_of = len(rules.table_for(profile).rules_for(profile))
    return {"name": name, "profile": profile, "verdict": verdict,
            "score": got, "max_score": out_of,
            "broken": " ".join(o.rule for o in outcomes if o.status == "broken"),
            "message": " ".join(message.split()), "replay": replay,
            "seconds": round(time.perf_counter() - start, 2),
            "median_call_ms": round(median_call * 1000, 3) if median_call is not None else -1,
            "slow": "yes" if (median_call or 0) >= SLOW_CALL else "",
            "warnings": " | ".join(" ".join(w.split()) for w in warnings),
            RULES_FIELD: {o.rule: points.to_data(o) for o in outcomes}}


def default_out(folder: Path) -> Path:
    """``DIR-grades`` beside DIR, or the first ``DIR-grades-N`` without a summary."""
    base = folder.parent / f"{folder.name}-grades"
    candidate, n = base, 1
    while any((candidate / f).exists() for f in SUMMARY_FILES):
        n += 1
        candidate = base.with_name(f"{base.name}-{n}")
    return candidate


def summary_csv(rows: Sequence[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n",
                            extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    speak_argparse()
    parser = argparse.ArgumentParser(
        prog=prog,
        description=_("Check every submission in DIR (folders with soko.py, packages or .py "
                      "files) and write summary.csv and summary.json."))
    parser.add_argument("folder", metavar="DIR", help=_("the folder of submissions"))
    parser.add_argument("--out", metavar="DIR2", help=_("where to write the summary "
                          "(default: a new folder DIR-grades beside DIR)"))
    parser.add_argument("--force", action="store_true",
                        help=_("overwrite an existing summary in --out"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                        help=_("submissions checked at once (default: the number of cores)"))
    parser.add_argument("--fail-under", type=threshold, default=None, metavar="T",
                        help=_("exit 1 when fewer than T submissions conform: a fraction "
                               "(0.8), a percentage (80%%) or a count (12); default: exit 0 "
                               "whenever the summary was written"))
    add_run_options(parser)
    return parser


def threshold(text: str) -> tuple[str, float, str]:
    """``--fail-under``: ``("fraction", 0.8, text)`` for ``0.8`` or ``80%``,
    ``("count", 12, text)`` for ``12`` (a whole number above 1)."""
    value = text.strip()
    try:
        if value.endswith("%"):
            number = float(value[:-1]) / 100
        else:
            number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a fraction, percentage or count: {value}").format(value=repr(text))) from None
    if not value.endswith("%") and number > 1:
        if number != int(number):
            raise argparse.ArgumentTypeError(
                _("a count must be a whole number: {value}").format(value=text))
        return ("count", number, value)
    if not 0 <= number <= 1:
        raise argparse.ArgumentTypeError(
            _("must lie between 0 and 1 (0% and 100%): {value}").format(value=text))
    return ("fraction", number, value)


def below(rows: Sequence[dict[str, Any]], bar: tuple[str, float, str]) -> bool:
    """Whether fewer submissions conform than ``bar`` (see :func:`threshold`)."""
    good = sum(1 for row in rows if row["verdict"] == "conforms")
    kind, number, _text = bar
    return good < number if kind == "count" else good < number * len(rows)


def main(argv: Sequence[str], out: TextIO | None = None, prog: str = PROG) -> int:
    out = out or sys.stdout
    language_from_argv(argv)            # before the parser: its --help speaks it too
    args = parse_or_status(build_parser(prog), argv)
    if isinstance(args, int):
        return args
    set_language(args.lang)
    folder = Path(args.folder).expanduser()
    if not folder.is_dir():
        print("error: " + _("{folder}: not a folder").format(folder=args.folder), file=sys.stderr)
        return EXIT_BAD
    if args.out:
        target = Path(args.out).expanduser()
        existing = [f for f in SUMMARY_FILES if (target / f).exists()]
        if existing and not args.force:
            print("error: " + _("{folder} already holds {files}; use --force to overwrite it, "
                                "or another --out").format(folder=target,
                                                           files=", ".join(existing)),
                  file=sys.stderr)
            return EXIT_BAD
    else:
        target = default_out(folder)
    if target.exists() and not target.is_dir():
        print("error: " + _("{folder}: not a folder").format(folder=target), file=sys.stderr)
        return EXIT_BAD
    submissions = find_submissions(folder, exclude=target,
                                   support=Path(args.support) if args.support else None)
    if not submissions:
        print("error: " + _("{folder}: no submissions (folders or .py files) in it").format(
            folder=args.folder), file=sys.stderr)
        return EXIT_BAD
    options = options_from(args)
    if options.seed is None:
        # One seed for the whole class: every submission meets the same examples.
        options = dataclasses.replace(options, seed=random.SystemRandom().randrange(2 ** 32))
    try:
        level = isolation.isolation_level()
    except isolation.IsolationError as e:
        print(_("error: {problem}").format(problem=e), file=sys.stderr)
        return EXIT_BAD
    budget = (_(", at most {seconds} s each").format(seconds=f"{options.budget:g}")
              if options.budget else "")
    print(_("grading {n} submissions of {folder} (random seed {seed}, {examples} examples"
            "{budget}, isolation: {level})").format(
                n=len(submissions), folder=folder, seed=options.seed,
                examples=options.max_examples, budget=budget, level=level), file=out)
    rows = grade_all(submissions, args.profile, options, max(1, args.jobs), out)
    target.mkdir(parents=True, exist_ok=True)
    summary = {"folder": str(folder.resolve()), "isolation": level,
               "options": dataclasses.asdict(options), "submissions": rows}
    atomic_write(target / "summary.csv", summary_csv(rows))
    atomic_write(target / "summary.json", json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    classreport.write(summary, target / "report.html")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    print(_("{n} submissions: ").format(n=len(rows))
          + ", ".join(status_count(n, v) for v, n in sorted(counts.items()))
          + "\n" + _("summary: {csv}, {json}").format(csv=target / "summary.csv",
                                                     json=target / "summary.json")
          + "\n" + _("the class at a glance: {page}").format(page=target / "report.html"),
          file=out)
    if args.fail_under is not None and below(rows, args.fail_under):
        good = sum(1 for row in rows if row["verdict"] == "conforms")
        print(_("{good} of {n} submissions conform: fewer than --fail-under {asked} asks"
                ).format(good=good, n=len(rows), asked=args.fail_under[2]), file=out)
        return EXIT_DOES_NOT_CONFORM
    return EXIT_CONFORMS


def grade_all(submissions: Sequence[Path], profile: str | None, options: RunOptions,
              jobs: int, out: TextIO) -> list[dict[str, Any]]:
    """Rows in the order of ``submissions``; progress lines as they finish.
    Each submission is checked by its own checker process (see
    :func:`supervise`), ``jobs`` at a time."""
    rows: dict[str, dict[str, Any]] = {}

    def report(row):
        print(f"{row['name']}: {status_label(row['verdict'])}"
              + (f" ({row['profile']})" if row["profile"] else "")
              + (f": {row['message']}" if row["message"] else "")
              + f" [{row['seconds']:.1f} s{', ' + _('slow') if row['slow'] else ''}]"
              + ("\n  " + _("warnings: {warnings}").format(warnings=row["warnings"])
                 if row["warnings"] else ""), file=out)
        out.flush()

    paths = [str(p) for p in submissions]
    with _adopting_orphans(), ThreadPoolExecutor(max_workers=min(jobs, len(paths))) as pool:
        futures = {pool.submit(supervise, path, profile, options): path for path in paths}
        for future in as_completed(futures):
            path = futures[future]
            rows[path] = future.result()
            report(rows[path])
    return [rows[p] for p in paths]


#: How long one submission's checker may take in all before it is killed,
#: without a budget; with one, the budget and :data:`CHECKER_GRACE`.
CHECKER_LIMIT = 3600.0
#: How long past its budget a checker may run (starting Python, writing its
#: row) before the grader kills it: the budget's own deadline should have
#: ended it long before.
CHECKER_GRACE = 30.0
_CHECKERS: set[int] = set()
#: Held while a checker is started and registered in ``_CHECKERS``, and while
#: :func:`_kill_strays` looks for strays and kills them: a checker is never
#: seen before it is registered (on a loaded machine another supervisor's
#: sweep took such a checker for a stray, and its submission was told it
#: had killed its checker).
_CHECKERS_LOCK = threading.Lock()


def supervise(path: str, profile: str | None, options: RunOptions) -> dict[str, Any]:
    """Check one submission in a fresh checker process and return its row.
    The checker runs in its own session; whatever happens to it (killed by
    the submission, crashed), the submission gets a row, and every process it
    left behind is killed before this returns."""
    start = time.perf_counter()
    name = Path(path).name
    request = json.dumps({"path": path, "profile": profile,
                          "options": dataclasses.asdict(options)})
    with _CHECKERS_LOCK:
        proc = subprocess.Popen([sys.executable, "-c", "from conformance.commands.grade import "
                                 "checker_main; checker_main()"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        _CHECKERS.add(proc.pid)
    try:
        limit = CHECKER_LIMIT if options.budget is None else options.budget + CHECKER_GRACE
        try:
            answer, _err = proc.communicate(request.encode(), timeout=limit)
        except subprocess.TimeoutExpired:
            answer, late = b"", True
        else:
            late = False
        tree = isolation._descendants(proc.pid)
        for pid in tree:
            isolation._kill(pid)
        isolation.kill_group(proc)
    finally:
        _CHECKERS.discard(proc.pid)
    _kill_strays(_CHECKERS)
    row = _checked_row(answer)
    if row is not None:
        return row
    if late:
        return _late_row(path, profile, options, start)
    code = proc.returncode
    if code is not None and code < 0:
        try:
            how = _("signal {signal}").format(signal=signal.Signals(-code).name)
        except ValueError:
            how = _("signal {signal}").format(signal=-code)
    else:
        how = _("status {code}").format(code=code)
    return _row(name, profile or "", "does not conform",
                _("the submission killed the checker ({how}, no verdict)").format(how=how), "",
                start)


def _late_row(path: str, profile: str | None, options: RunOptions, start: float
              ) -> dict[str, Any]:
    """The row of a submission whose checker outlived its budget and was
    killed: not fully checked (every rule unreached)."""
    name = Path(path).name
    try:
        profile = profile or guess_profile(resolve(path))
    except BadTarget:
        pass
    outcomes = (points.outcomes(profile, {}, {}, unreached="unreached" if options.budget_is_failure
                                else "credited") if profile else [])
    return _row(name, profile or "", NOT_FULLY_CHECKED,
                _("the check did not end within its budget of {budget} s and {grace} s more: "
                  "its checker was stopped").format(budget=f"{options.budget:g}",
                                                    grace=f"{CHECKER_GRACE:g}"), "", start,
                outcomes=outcomes)


def _checked_row(data: bytes) -> dict[str, Any] | None:
    """The checker's row, if it sent a well-formed one."""
    try:
        row = json.loads(data.decode("utf-8").strip().splitlines()[-1])
    except (ValueError, IndexError, UnicodeDecodeError):
        return None
    if type(row) is not dict or set(row) != set(COLUMNS) | {RULES_FIELD}:
        return None
    numbers = ("seconds", "score", "max_score", "median_call_ms")
    if not all(type(row[c]) is str for c in COLUMNS if c not in numbers) \
            or not all(type(row[c]) in (int, float) for c in numbers) \
            or type(row[RULES_FIELD]) is not dict:
        return None
    return row


def checker_main() -> None:
    """A checker process: one request (JSON) on stdin, one row (JSON) on stdout."""
    channel = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)    # nothing else reaches the row's pipe
    request = json.loads(sys.stdin.read())
    fields = request["options"]
    if fields.get("groups") is not None:
        fields["groups"] = tuple(fields["groups"])
    fields["since"] = process_start()       # the budget counts this process's start
    options = RunOptions(**fields)
    set_language(options.lang)              # the class's language, not this process's locale
    row = grade_one(request["path"], request["profile"], options)
    os.write(channel, (json.dumps(row) + "\n").encode())
    os._exit(0)


@contextlib.contextmanager
def _adopting_orphans():
    """Linux: while grading, processes a checker's submission leaves behind
    become our children (not init's), so :func:`_kill_strays` can find them.
    On the way out nothing of any submission outlives the grading, and this
    process stops adopting orphans as it did before (left on, a caller that
    grades in process, such as a test run, would collect the zombies of
    every orphan below it that nobody reaps)."""
    prctl = None
    before = ctypes.c_int(0)
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
        prctl(37, ctypes.byref(before), 0, 0, 0)               # PR_GET_CHILD_SUBREAPER
        prctl(36, 1, 0, 0, 0)                                  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        prctl = None
    try:
        yield
    finally:
        _kill_strays(set())
        if prctl is not None:
            prctl(36, before.value, 0, 0, 0)


def _kill_strays(keep: set[int]) -> None:
    """Kill what submissions left behind: every child of this process (they
    come to us as orphans, see :func:`_adopting_orphans`) that is neither a
    checker in ``keep`` nor a box some live target still owns, with all its
    descendants; reap them."""
    for _try in range(200):
        with _CHECKERS_LOCK:
            children = _children(os.getpid()) - keep - isolation.live_boxes()
            strays = set(children)
            for pid in children:
                strays |= isolation._descendants(pid)
            strays = {p for p in strays if isolation._alive(isolation._status(p))}
            for pid in strays:
                isolation._kill(pid)
        for pid in children:
            _reap(pid)
        if not strays:
            return
        time.sleep(0.01)


def _children(parent: int) -> set[int]:
    found = set()
    for pid in isolation._proc_entries():
        if isolation._status(pid).get("PPid") == str(parent):
            found.add(pid)
    return found


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass
