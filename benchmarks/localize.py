"""How well "Where to look" finds the faulty line (``conformance.checking.localize``).

    python benchmarks/localize.py                      # the Python mutants, seed 1, every formula
    python benchmarks/localize.py --seeds 3 --only soko_
    python benchmarks/localize.py --labels /work/students/labels.tsv   # labelled public files too
    python benchmarks/localize.py --plays 20,40,80,160   # accuracy against the plays allowed
    python benchmarks/localize.py --timing --labels L  # a failing check's time, with and without
    python benchmarks/localize.py --prolog --no-mutants --plays 5,10,20,60   # Prolog, by states
    python benchmarks/localize.py --timing --prolog --no-mutants   # Prolog's time, and as reported
    python benchmarks/localize.py --cpp --no-mutants   # the C++ (aed2) mutants (needs g++)
    python benchmarks/localize.py --timing --cpp --no-mutants   # their time, with and without

For each labelled target: check it (``shrink``, the default budget, no
localisation), record the line spectra of the plays around its departure
(:func:`conformance.checking.localize.record`), rank the lines with each
formula of :data:`~conformance.checking.localize.FORMULAS` and say where the
first faulty line comes, in the order a report shows: top 1, 3, 5, and
the EXAM score (its rank over the number of lines ranked; 1.0 when it is
not ranked at all, as when the fault is a missing line that never runs).

The faulty lines of a mutant are derived, not kept by hand: each function a
mutant file defines is diffed (``difflib``, line by line, whitespace
stripped) against the function of the same name in the correct base it
imports (``conformance.mutants.bases``); its lines that differ are the
faulty ones (a deletion counts the line after it). A public student's file
is labelled in a TSV kept OUTSIDE the repository (their code is not ours):
``folder<TAB>file<TAB>sha256<TAB>lines`` (``lines``: the fixed lines,
comma-separated; ``folder`` relative to the TSV's own folder, the file's
hash checked so a label never meets another version of the file). Python
targets, and with ``--prolog`` the Prolog mutants (their faulty lines:
where the mutant's file differs from the reference's; a clause, ranked by
its first line, holds a faulty line when the line lies in it; ``--plays``
counts the states asked, a run of the planner counting as one; the tests
column says what a call counted, the clauses it ``enter``-ed, their
``ports`` (exited, failed: what the reports rank), ``both``, or the
``goals`` of the clause bodies, each on its line: then a place must be the
faulty line itself), and with
``--cpp`` the C++ mutants of ``conformance/profiles/aed2/mutants.py`` (the
faulty line: the one each substitutes; when it holds no code, as a line
emptied to ``;``, the next line that does, as a Python deletion; checked
as ``sokoban check`` checks them, with the sanitizer and the plain build,
the lines a sanitizer names pinned first as in the reports).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import statistics
import sys
import time
from pathlib import Path

from conformance import mutants, profiles
from conformance.checking import engine
from conformance.checking import localize as loc
from conformance.checking.checks import DirectionAdapter, RunOptions, check_target, checked_options
from conformance.checking.targets import resolve
from conformance.sandbox.box import open_target
from conformance.profiles.prolog import mutants as prolog_mutants


# ------------------------------------------------------------ faulty lines

def _functions(path: Path) -> dict[str, tuple[int, list[str]]]:
    """Top-level functions and methods of ``path``: name -> (first line, lines)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = {}
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.setdefault(node.name, (node.lineno, lines[node.lineno - 1:node.end_lineno]))
    return found


def changed_lines(name: str) -> set[int]:
    """The lines of mutant ``name`` that differ from its correct base."""
    own = _functions(mutants.path(name))
    base: dict[str, tuple[int, list[str]]] = {}
    for b in mutants.bases(name):
        for k, v in _functions(mutants.path(b)).items():
            base.setdefault(k, v)
    changed: set[int] = set()
    for fname, (first, lines) in own.items():
        if fname not in base:
            changed.update(range(first, first + len(lines)))
            continue
        theirs = [s.strip() for s in base[fname][1]]
        ours = [s.strip() for s in lines]
        for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(None, ours, theirs,
                                                             autojunk=False).get_opcodes():
            if tag in ("replace", "delete"):
                changed.update(first + i for i in range(i1, i2))
            elif tag == "insert":
                changed.add(first + min(i1, len(ours) - 1))
    return changed


# ------------------------------------------------------------------- ranks

#: How plays become tests (``conformance.checking.localize.Spectra.tests``).
GRANULARITIES = ("play", "step", "both")
#: What a place is: one line, or a run of lines no spectrum tells apart
#: (``conformance.checking.localize.blocks``, what the reports show).
UNITS = ("line", "run")

def position(ranked: list, faulty: set[tuple[str, int]]) -> int | None:
    """1-based place of the first faulty line in ``ranked`` (None: absent;
    the parts of a line, ``(file, line, part)``, count as the line, once)."""
    lines = dict.fromkeys((key[0], key[1]) for key, _score in ranked)
    for i, key in enumerate(lines, 1):
        if key in faulty:
            return i
    return None


def _lines(ranked: list) -> int:
    """How many lines ``ranked`` ranks (a line's parts once)."""
    return len({(key[0], key[1]) for key, _score in ranked})


def block_position(places: list, faulty: set[tuple[str, int]]) -> tuple[int | None, int]:
    """1-based place of the first run of lines holding a faulty line
    (:func:`conformance.checking.localize.blocks`, as a report shows them),
    and how many lines a reader reads up to the end of that run."""
    read = 0
    for i, (keys, _score) in enumerate(places, 1):
        read += len(keys)
        if faulty & set(keys):
            return i, read
    return None, read


# ---------------------------------------------------------------- targets

def mutant_cases(only: str, seeds: int):
    for name, profile in mutants.MUTANTS.items():
        if only and not name.startswith(only):
            continue
        faulty = {(mutants.path(name).name, line) for line in changed_lines(name)}
        for seed in range(1, seeds + 1):
            yield f"{name} (seed {seed})", str(mutants.path(name)), profile, faulty, seed


def labelled_cases(labels: Path, seeds: int):
    for row in labels.read_text(encoding="utf-8").splitlines():
        if not row.strip() or row.startswith("#"):
            continue
        folder, file, digest, lines = (row.split("\t") + ["", "", "", ""])[:4]
        path = labels.parent / folder / file
        if hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            print(f"  {folder}/{file}: its hash changed; label skipped", file=sys.stderr)
            continue
        faulty = {(file, int(x)) for x in lines.split(",") if x.strip()}
        for seed in range(1, seeds + 1):
            yield f"{folder} (seed {seed})", str(path), None, faulty, seed


def spectra_of(path: str, profile: str | None, seed: int, in_process: bool, plays: int):
    """The counterexample of a check of ``path`` and the spectra around it."""
    spec = resolve(path)
    target = open_target(spec, in_process=in_process)
    try:
        if profile is None:
            [(verdict, _)] = check_target(spec, None, RunOptions(seed=seed, localize=False),
                                          target=target)
        else:
            verdict = engine.check(target, profile, seed=seed)
        c = verdict.counterexample
        if c is None or c.fatal:
            return verdict, None
        spectra = loc.record(target, profiles.get(verdict.profile), c, seconds=1e9,
                             max_plays=plays, each_step=True)
        return verdict, spectra
    finally:
        target.close()


def unranked(results: dict, granularities, budgets: list[int]) -> None:
    """A target not localised: not found, by every formula, granularity,
    budget and unit."""
    for formula in loc.FORMULAS:
        for granularity in granularities:
            for b in budgets:
                for unit in UNITS:
                    results.setdefault((formula, granularity, b, unit), []).append((None, 0, 0))


def evaluate(cases, in_process: bool, budgets: list[int], out) -> dict:
    """Per formula, tests, plays allowed and unit (a line, or a run of
    lines as a report shows it): ``(place, lines read, lines ranked)`` of
    each target's first faulty line."""
    results: dict = {}
    failures = []
    for label, path, profile, faulty, seed in cases:
        verdict, spectra = spectra_of(path, profile, seed, in_process, max(budgets))
        if spectra is None:
            failures.append((label, "no departure to localise" if verdict.conforms
                             else "fatal or no counterexample"))
            unranked(results, GRANULARITIES, budgets)
            continue
        score_budgets(results, spectra, faulty, budgets)
        where = judge(failures, label, spectra, faulty)
        print(f"  {label}: {loc.FORMULA} run {where}", file=out, flush=True)
    return {"results": results, "failures": failures}


def score_budgets(results: dict, spectra, faulty: set, budgets: list[int]) -> None:
    """:func:`score` of the first ``b`` plays of ``spectra``, for each ``b``
    of ``budgets`` and each granularity."""
    for b in budgets:
        part = loc.Spectra(spectra.plays[:b], spectra.functions, frozenset().union(
            *(lines for i, lines in spectra.focus_at if i < b)), pinned=spectra.pinned,
            groups=spectra.groups, cleared=frozenset().union(
                *(lines for i, lines in spectra.cleared_at if i < b)))
        for granularity in GRANULARITIES:
            score(results, part, faulty, granularity, b)


def score(results: dict, part, faulty: set, granularity: str, b: int) -> None:
    """Where the first faulty place of ``part`` ranks, by each formula, as
    a line and as a run of lines: appended to ``results``."""
    for formula in loc.FORMULAS:
        plain = granularity if granularity in GRANULARITIES else "play"
        ranked = loc.rank(part, formula, plain)
        at = position(ranked, faulty)
        results.setdefault((formula, granularity, b, "line"), []).append(
            (at, at or _lines(ranked), _lines(ranked)))
        run, read = block_position(loc.blocks(part, ranked, plain), faulty)
        results.setdefault((formula, granularity, b, "run"), []).append((run, read, _lines(ranked)))


def judge(failures: list, label: str, spectra, faulty: set) -> int | None:
    """The run the first faulty place is in, as a report shows them; a
    line in ``failures`` saying why when it is not in the top 3."""
    places = loc.blocks(spectra, loc.rank(spectra, loc.FORMULA))
    where, _read = block_position(places, faulty)
    if where is None or where > 3:
        top = ", ".join(_place(keys) for keys, _ in places[:3])
        failures.append((label, f"faulty place in run {where or 'unranked'} with "
                                f"{loc.FORMULA}; top 3: {top}; faulty lines: "
                                f"{sorted(line for _, line in faulty)}; "
                                f"{spectra.failing} failing, {spectra.passing} passing"))
    return where


def _place(keys) -> str:
    return f"{keys[0][0]}:{keys[0][1]}" + (f"-{keys[-1][1]}" if len(keys) > 1 else "")


def summary(rows: list[tuple[int | None, int, int]]) -> dict:
    n = len(rows)
    exam = [(read / total if at is not None and total else 1.0) for at, read, total in rows]
    return {k: sum(1 for at, _, _ in rows if at is not None and at <= k) / n if n else 0.0
            for k in (1, 3, 5)} | {"exam": statistics.mean(exam) if exam else 1.0, "n": n}


def table(title: str, found: dict, budgets: list[int]) -> None:
    print(f"\n{title}")
    print(f"{'formula':<10} {'tests':<5} {'plays':>5} {'unit':<4} {'n':>4} {'top-1':>6} "
          f"{'top-3':>6} {'top-5':>6} {'EXAM':>6}")
    for (formula, granularity, b, unit), rows in sorted(found["results"].items()):
        s = summary(rows)
        mark = (" <- reports" if formula == loc.FORMULA and unit == "run"
                and granularity in (loc.GRANULARITY, found.get("shown")) else "")
        print(f"{formula:<10} {granularity:<5} {b:>5} {unit:<4} {s['n']:>4} {s[1]:>6.0%} "
              f"{s[3]:>6.0%} {s[5]:>6.0%} {s['exam']:>6.3f}{mark}")
    if found["failures"]:
        print(f"not in the top 3 with {loc.FORMULA} ({max(budgets)} plays, runs of lines):")
        for label, why in found["failures"]:
            print(f"  {label}: {why}")


def prolog_cases(only: str):
    """The Prolog mutants (``conformance.profiles.prolog.mutants``): each
    one's faulty lines are those where its file differs from the reference's."""
    reference = (prolog_mutants.REFERENCE / prolog_mutants.MAIN).read_text().splitlines()
    for m in prolog_mutants.MUTANTS:
        if only and not m.name.startswith(only):
            continue
        folder = prolog_mutants.materialize(m.name)
        text = (folder / prolog_mutants.MAIN).read_text().splitlines()
        faulty = set()
        for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(
                None, [t.strip() for t in text], [t.strip() for t in reference],
                autojunk=False).get_opcodes():
            if tag != "equal":
                faulty.update(range(i1 + 1, max(i2, i1 + 1) + 1))
        yield m.name, folder, m.rule, {(prolog_mutants.MAIN, n) for n in faulty}


def evaluate_prolog(only: str, states: list[int], out) -> dict:
    """As :func:`evaluate`, for the Prolog mutants: a ranked clause holds
    a faulty line when the line lies in it (from its first line to its end).
    Tests are calls (``conformance.profiles.prolog.localize``), ranked on
    those of the first ``states`` questions (a state, or a planner run),
    as they are (``ports``: a clause exited and a clause failed told
    apart) and with only the clauses entered (``enter``)."""
    from conformance.profiles.prolog import check as prolog_check
    from conformance.profiles.prolog import localize as prolog_localize
    from conformance.profiles.prolog.source import find_program
    from conformance.profiles.prolog.target import PrologTarget
    results: dict = {}
    failures = []
    for name, folder, rule, faulty in prolog_cases(only):
        target = PrologTarget(find_program(folder))
        try:
            verdict = prolog_check.check(target, seed=1, max_examples=30)
            c = verdict.counterexample
            recorded = (prolog_localize.record(target, c, seconds=1e9, max_states=max(states),
                                               goals=True)
                        if c is not None else None)
        finally:
            target.close()
        if recorded is None or not recorded.spectra.failing:
            failures.append((name, "not localised: " + (
                "no departure" if c is None else "no failing call" if recorded is not None
                else "no spectra")))
            unranked(results, prolog_localize.UNITS, states)
            continue
        spectra, ends = recorded.spectra, recorded.ends
        hit = {key for key in ends if any(f == key[0] and key[1] <= n <= ends[key]
                                          for f, n in faulty)}
        exact = set(faulty)          # a goal's line: the faulty line itself
        shown = prolog_localize.SHOWN_UNITS
        for b in states:
            part = loc.Spectra([p for p, asked in zip(spectra.plays, recorded.asked)
                                if asked <= b], spectra.functions)
            for tests in prolog_localize.UNITS:
                score(results, prolog_localize.only(part, tests),
                      exact if tests == "goals" else hit, tests, b)
        where = judge(failures, name, prolog_localize.only(spectra, shown), hit)
        print(f"  {name}: {loc.FORMULA} run {where} with {shown} ({spectra.failing} failing, "
              f"{spectra.passing} passing calls)", file=out, flush=True)
    return {"results": results, "failures": failures, "shown": prolog_localize.SHOWN_UNITS}


def cpp_cases(only: str, seeds: int):
    """The C++ mutants: ``(label, folder, faulty line)``, the line each
    substitutes (:mod:`conformance.profiles.aed2.mutants`)."""
    from conformance.profiles.aed2 import mutants as cpp_mutants
    for m in cpp_mutants.MUTANTS:
        if only and not m.name.startswith(only):
            continue
        folder = cpp_mutants.materialize(m)
        text = (folder / m.file).read_text()
        line = text[:text.index(m.new)].count("\n") + 1
        for seed in range(1, seeds + 1):
            yield f"{m.name} (seed {seed})", folder, (m.file, line), seed


def _with_code(spectra, key: tuple[str, int]) -> set[tuple[str, int]]:
    """``key``, or when no play ran it (no code: a line emptied to ``;``),
    also the next line of its file some play ran."""
    ran = {(k[0], k[1]) for lines, _ in spectra.tests("play") for k in lines} | set(spectra.pinned)
    if key in ran:
        return {key}
    after = sorted(n for f, n in ran if f == key[0] and n > key[1])
    return {key} | ({(key[0], after[0])} if after else set())


def evaluate_cpp(only: str, seeds: int, budgets: list[int], out) -> dict:
    """As :func:`evaluate`, for the C++ mutants (``sokoban check``'s
    check: sanitizer build, then the plain build's findings first)."""
    from conformance.profiles.aed2.build import BuildError
    results: dict = {}
    failures = []
    profile = profiles.get("aed2")
    for label, folder, faulty_line, seed in cpp_cases(only, seeds):
        spec = resolve(str(folder))
        options = checked_options(spec, RunOptions(seed=seed, localize=False))
        try:
            target = profile.open(spec, options)
        except Exception as e:  # noqa: BLE001 - a build that fails is a row of the table
            failures.append((label, f"not built: {e}"))
            continue
        c = spectra = None
        try:
            [(verdict, _)] = check_target(spec, None, options, target=target)
            c = verdict.counterexample
            judged = (target if options.directions == "ours"
                      else DirectionAdapter(target, profile, options.directions))
            if c is not None:
                try:
                    spectra = loc.spectra_for(judged, profile, c, directions=options.directions,
                                              seconds=1e9, max_plays=max(budgets),
                                              each_step=True,
                                              pinned=loc.pinned_lines(profile, verdict)[id(c)])
                except BuildError as e:
                    failures.append((label, f"no coverage build: {e}"))
        finally:
            target.close()
        if spectra is None:
            failures.append((label, "no departure" if c is None else "no spectra"))
            unranked(results, GRANULARITIES, budgets)
            continue
        faulty = _with_code(spectra, faulty_line)
        score_budgets(results, spectra, faulty, budgets)
        where = judge(failures, label, spectra, faulty)
        pinned = f", pinned {_place(spectra.pinned)}" if spectra.pinned else ""
        print(f"  {label}: {loc.FORMULA} run {where} (faulty {faulty_line[0]}:{faulty_line[1]}"
              f"{pinned})", file=out, flush=True)
    return {"results": results, "failures": failures}


def timing(labels: Path | None, only: str, mutants_too: bool = True, cpp: bool = False,
           prolog: bool = False) -> None:
    """A failing check's wall time with localisation and with --no-localize
    (``check_target`` as ``sokoban check`` runs it: sandboxed, seed 1);
    ``cpp``: the C++ mutants too; ``prolog``: the Prolog mutants too, each
    with where its faulty clause came in the report (the places it shows,
    within the time allowed)."""
    cases = [(str(mutants.path(n)), None) for n in mutants.MUTANTS
             if mutants_too and (not only or n.startswith(only))]
    if labels is not None:
        cases += [(c[1], None) for c in labelled_cases(labels, 1)]
    if cpp:
        cases += [(str(folder), None) for _label, folder, _line, _seed in cpp_cases(only, 1)]
    if prolog:
        cases += [(str(folder), faulty) for _name, folder, _rule, faulty in prolog_cases(only)]
    totals = {True: 0.0, False: 0.0}
    ratios = []
    shown = []
    for path, faulty in cases:
        row = []
        for localize in (False, True):
            start = time.monotonic()
            [(verdict, _)] = check_target(resolve(path), None,
                                          RunOptions(seed=1, localize=localize))
            spent = time.monotonic() - start
            totals[localize] += spent
            row.append(spent)
        ratios.append(row[1] / row[0])
        where = ""
        if faulty is not None:
            c = verdict.counterexample
            lines = c.where.lines if c is not None and c.where is not None else []
            at = next((i for i, s in enumerate(lines, 1)
                       if any(f == s.file and s.line <= n <= s.last for f, n in faulty)), None)
            shown.append(at)
            where = f"; faulty clause shown {at or 'not'}"
        print(f"  {Path(path).parent.name}/{Path(path).name}: {row[0]:.2f} s, localised "
              f"{row[1]:.2f} s ({row[1] / row[0]:.2f}x){where}", flush=True)
    print(f"total: {totals[False]:.1f} s without, {totals[True]:.1f} s with: "
          f"{totals[True] / totals[False]:.2f}x; median ratio {statistics.median(ratios):.2f}x, "
          f"worst {max(ratios):.2f}x")
    if shown:
        print("Prolog, as reported: " + ", ".join(
            f"top-{k} {sum(1 for a in shown if a is not None and a <= k) / len(shown):.0%}"
            for k in (1, 3, 5)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--only", default="", help="mutants whose name starts with this")
    parser.add_argument("--labels", type=Path, help="a TSV of labelled public files (see above)")
    parser.add_argument("--plays", default=str(loc.MAX_PLAYS),
                        help="comma-separated numbers of plays to rank on")
    parser.add_argument("--no-mutants", action="store_true")
    parser.add_argument("--timing", action="store_true")
    parser.add_argument("--prolog", action="store_true",
                        help="the Prolog mutants too (needs swipl; states, not plays)")
    parser.add_argument("--cpp", action="store_true",
                        help="the C++ (aed2) mutants too (needs g++ and objdump)")
    args = parser.parse_args(argv)
    if args.timing:
        timing(args.labels, args.only, not args.no_mutants, args.cpp, args.prolog)
        return 0
    budgets = [int(x) for x in args.plays.split(",")]
    if not args.no_mutants:
        found = evaluate(mutant_cases(args.only, args.seeds), True, budgets, sys.stderr)
        table("Python mutants (conformance/mutants), in-process", found, budgets)
    if args.labels is not None:
        found = evaluate(labelled_cases(args.labels, args.seeds), False, budgets, sys.stderr)
        table(f"Labelled public files ({args.labels}), sandboxed", found, budgets)
    if args.prolog:
        found = evaluate_prolog(args.only, budgets, sys.stderr)
        table("Prolog mutants (conformance/profiles/prolog/mutants.py), clause coverage",
              found, budgets)
    if args.cpp:
        found = evaluate_cpp(args.only, args.seeds, budgets, sys.stderr)
        table("C++ mutants (conformance/profiles/aed2/mutants.py), coverage build", found,
              budgets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
