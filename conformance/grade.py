"""``python -m conformance grade DIR``: check every submission in a folder.

A submission is an entry of DIR: a folder holding ``soko.py`` (or a package,
or a single ``.py`` file), or a ``.py`` file. Each is checked in its own
sandbox, several at a time (a process pool, one worker per core by default),
under the profile it provides (or ``--profile``), all with the same random seed
(``--seed``, or one drawn for the whole run and recorded). The summary, one row per
submission (name, profile, verdict, first counterexample message, replay
command, seconds), goes to ``summary.csv`` and ``summary.json`` in ``--out``
(default: a new folder ``DIR-grades`` beside DIR, or ``DIR-grades-2``... if
that one already holds a summary); an existing summary is never overwritten
without ``--force``.

Exit status: 0 when the summary was written, whatever the verdicts (a class
with failing submissions is a normal outcome); with ``--fail-under T``, 1 when
fewer than T submissions conform (T: a fraction such as ``0.8``, a
percentage such as ``80%``, or a count such as ``12``); 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import json
import multiprocessing
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Sequence, TextIO

from conformance.cli import (
    EXIT_BAD, EXIT_CONFORMS, EXIT_DOES_NOT_CONFORM, RunOptions, add_run_options, check_target,
    options_from, parse_or_status,
)
from conformance.output import atomic_write, status_count, verdict_message, verdict_status
from conformance.targets import BadTarget, resolve

COLUMNS = ("name", "profile", "verdict", "message", "replay", "seconds")
SUMMARY_FILES = ("summary.csv", "summary.json")


def find_submissions(folder: Path, exclude: Path | None = None) -> list[Path]:
    """The submissions in ``folder``, sorted by name (hidden entries,
    ``__pycache__`` and ``exclude`` are skipped)."""
    found = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith((".", "_")) or entry.name == "__pycache__":
            continue
        if exclude is not None and entry.resolve() == exclude.resolve():
            continue
        if entry.is_dir() or entry.suffix == ".py":
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
    verdict, _ = check_target(spec, profile, options)[0]
    replay = verdict.counterexample.replay if verdict.counterexample else ""
    return _row(name, verdict.profile if verdict.profile != "?" else "", verdict_status(verdict),
                verdict_message(verdict), replay, start)


def _row(name, profile, verdict, message, replay, start) -> dict[str, Any]:
    return {"name": name, "profile": profile, "verdict": verdict,
            "message": " ".join(message.split()), "replay": replay,
            "seconds": round(time.perf_counter() - start, 2)}


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
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m conformance grade",
        description="Check every submission in DIR (folders with soko.py, packages or .py "
                    "files) and write summary.csv and summary.json.")
    parser.add_argument("folder", metavar="DIR", help="the folder of submissions")
    parser.add_argument("--out", metavar="DIR2", help="where to write the summary "
                        "(default: a new folder DIR-grades beside DIR)")
    parser.add_argument("--force", action="store_true",
                        help="overwrite an existing summary in --out")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="submissions checked at once (default: the number of cores)")
    parser.add_argument("--fail-under", type=threshold, default=None, metavar="T",
                        help="exit 1 when fewer than T submissions conform: a fraction "
                             "(0.8), a percentage (80%%) or a count (12); default: exit 0 "
                             "whenever the summary was written")
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
            f"not a fraction, percentage or count: {text!r}") from None
    if not value.endswith("%") and number > 1:
        if number != int(number):
            raise argparse.ArgumentTypeError(f"a count must be a whole number: {text}")
        return ("count", number, value)
    if not 0 <= number <= 1:
        raise argparse.ArgumentTypeError(f"must lie between 0 and 1 (0%% and 100%%): {text}")
    return ("fraction", number, value)


def below(rows: Sequence[dict[str, Any]], bar: tuple[str, float, str]) -> bool:
    """Whether fewer submissions conform than ``bar`` (see :func:`threshold`)."""
    good = sum(1 for row in rows if row["verdict"] == "conforms")
    kind, number, _ = bar
    return good < number if kind == "count" else good < number * len(rows)


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = parse_or_status(build_parser(), argv)
    if isinstance(args, int):
        return args
    folder = Path(args.folder).expanduser()
    if not folder.is_dir():
        print(f"error: {args.folder}: not a folder", file=sys.stderr)
        return EXIT_BAD
    if args.out:
        target = Path(args.out).expanduser()
        existing = [f for f in SUMMARY_FILES if (target / f).exists()]
        if existing and not args.force:
            print(f"error: {target} already holds {', '.join(existing)}; "
                  "use --force to overwrite it, or another --out", file=sys.stderr)
            return EXIT_BAD
    else:
        target = default_out(folder)
    if target.exists() and not target.is_dir():
        print(f"error: {target}: not a folder", file=sys.stderr)
        return EXIT_BAD
    submissions = find_submissions(folder, exclude=target)
    if not submissions:
        print(f"error: {args.folder}: no submissions (folders or .py files) in it",
              file=sys.stderr)
        return EXIT_BAD
    options = options_from(args)
    if options.seed is None:
        # One seed for the whole class: every submission meets the same examples.
        options = dataclasses.replace(options, seed=random.SystemRandom().randrange(2 ** 32))
    print(f"grading {len(submissions)} submissions of {folder} (random seed {options.seed}, "
          f"{options.max_examples} examples each)", file=out)
    rows = grade_all(submissions, args.profile, options, max(1, args.jobs), out)
    target.mkdir(parents=True, exist_ok=True)
    atomic_write(target / "summary.csv", summary_csv(rows))
    atomic_write(target / "summary.json",
                 json.dumps({"folder": str(folder.resolve()),
                             "options": dataclasses.asdict(options), "submissions": rows},
                            indent=2, ensure_ascii=False) + "\n")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    print(f"{len(rows)} submissions: "
          + ", ".join(status_count(n, v) for v, n in sorted(counts.items()))
          + f"\nsummary: {target / 'summary.csv'}, {target / 'summary.json'}", file=out)
    if args.fail_under is not None and below(rows, args.fail_under):
        good = sum(1 for row in rows if row["verdict"] == "conforms")
        print(f"{good} of {len(rows)} submissions conform: fewer than --fail-under "
              f"{args.fail_under[2]} asks", file=out)
        return EXIT_DOES_NOT_CONFORM
    return EXIT_CONFORMS


def grade_all(submissions: Sequence[Path], profile: str | None, options: RunOptions,
              jobs: int, out: TextIO) -> list[dict[str, Any]]:
    """Rows in the order of ``submissions``; progress lines as they finish."""
    rows: dict[str, dict[str, Any]] = {}

    def report(row):
        print(f"{row['name']}: {row['verdict']}"
              + (f" ({row['profile']})" if row["profile"] else "")
              + (f": {row['message']}" if row["message"] else "")
              + f" [{row['seconds']:.1f} s]", file=out)
        out.flush()

    paths = [str(p) for p in submissions]
    if jobs == 1 or len(paths) == 1:
        for path in paths:
            rows[path] = grade_one(path, profile, options)
            report(rows[path])
    else:
        context = multiprocessing.get_context("forkserver")
        with ProcessPoolExecutor(max_workers=min(jobs, len(paths)), mp_context=context) as pool:
            futures = {pool.submit(grade_one, path, profile, options): path for path in paths}
            for future in as_completed(futures):
                path = futures[future]
                try:
                    rows[path] = future.result()
                except Exception as e:  # noqa: BLE001 - a worker died: report, go on
                    rows[path] = _row(Path(path).name, profile or "", "bad target",
                                      f"the checker failed: {type(e).__name__}: {e}", "",
                                      time.perf_counter())
                    rows[path]["seconds"] = 0.0
                report(rows[path])
    return [rows[p] for p in paths]
