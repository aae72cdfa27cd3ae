"""Where to look (issue 39): line spectra of the target's own files, recorded
only after a departure, ranked, and shown in the terminal report, the JSON,
Gradescope's failing test, the pytest plugin's failure and report.html."""

from __future__ import annotations

import html
import json
import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance import mutants
from conformance.api import SPECTRA
from conformance.checking import localize as loc
from conformance.checking.checks import RunOptions, check_by_rules, check_target
from conformance.checking.targets import resolve
from conformance.reports.output import verdicts_to_gradescope, verdicts_to_json
from conformance.reports.report import place
from conformance.sandbox import spectra
from conformance.sandbox.box import open_target

pytest_plugins = ["pytester"]

WRONG = "soko_box_leaves_no_goal"      # a pushed box leaves a floor, not its goal, behind
CHECK = RunOptions(seed=1, max_examples=20)

BRANCHES = textwrap.dedent("""\
    def sign(x):
        if x > 0:
            return 1
        if x < 0:
            return -1
        return 0
    """)


# ---------------------------------------------------------------- recorder

@pytest.fixture(scope="module")
def branches(tmp_path_factory):
    import importlib.util
    folder = tmp_path_factory.mktemp("own")
    (folder / "branches.py").write_text(BRANCHES)
    found = importlib.util.spec_from_file_location("branches_under_test", folder / "branches.py")
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return folder, module


@given(st.integers())
def test_the_recorder_sees_the_lines_that_ran_and_only_those(branches, x):
    folder, module = branches
    recorder = spectra.Recorder(str(folder))
    recorder.start()
    try:
        recorder.op = "sign"
        module.sign(x)
        json.dumps([x])                 # the standard library's lines are not the target's
        lines = recorder.take()
        again = recorder.take()
    finally:
        recorder.stop()
    ran = {line for _, line, _, _ in lines}
    assert {f for f, _, _, _ in lines} == {"branches.py"}
    assert {name for _, _, name, _ in lines} == {"sign"}
    assert all(ops == ["sign"] for _, _, _, ops in lines)     # the operation they ran under
    assert 2 in ran                                      # the first test always runs
    assert (3 in ran) == (x > 0) and (5 in ran) == (x < 0) and (6 in ran) == (x == 0)
    assert again == []                                   # each take forgets what it gave
    module.sign(x)
    assert recorder.take() == []                         # stopped: nothing recorded


def test_a_target_records_only_when_asked():
    """A Host makes its recorder on the first SPECTRA request, never before."""
    spec = resolve(str(mutants.path("student_soko")))
    target = open_target(spec, in_process=True)
    try:
        [(verdict, _)] = check_target(spec, None, RunOptions(seed=1, max_examples=10),
                                      target=target)
        assert verdict.conforms
        assert target._host.recorder is None
        target.call(SPECTRA, "start")
        assert target._host.recorder is not None
    finally:
        target.close()


class _Spy:
    """A target that remembers the operations asked of it."""

    def __init__(self, inner):
        self.inner, self.name, self.asked = inner, inner.name, []

    def has(self, op):
        return self.inner.has(op)

    def call(self, op, *args):
        self.asked.append(op)
        return self.inner.call(op, *args)

    def close(self):
        self.inner.close()


def test_nothing_is_traced_when_there_is_no_departure():
    spec = resolve(str(mutants.path("student_soko")))
    spy = _Spy(open_target(spec, in_process=False))
    try:
        [(verdict, report)] = check_target(spec, None, RunOptions(seed=1, max_examples=10),
                                           target=spy)
    finally:
        spy.close()
    assert verdict.conforms and SPECTRA not in spy.asked
    assert "Where to look" not in report


# ----------------------------------------------------------------- ranking

def _spectra(plays):
    return loc.Spectra([((frozenset(lines),), failed) for lines, failed in plays], {})


PLAYS = st.lists(st.tuples(st.frozensets(st.tuples(st.just("f.py"), st.integers(1, 12)),
                                         max_size=8), st.booleans()), max_size=12)


@given(PLAYS, st.sampled_from(sorted(loc.FORMULAS)))
def test_a_line_every_failing_play_and_no_passing_play_ran_ranks_first(plays, formula):
    culprit = ("f.py", 99)
    plays = [((lines | {culprit}) if failed else lines, failed) for lines, failed in plays]
    ranked = loc.rank(_spectra(plays), formula)
    if not any(failed for _, failed in plays):
        assert ranked == []
        return
    top = ranked[0][1]
    assert dict(ranked)[culprit] == top                  # nothing scores above it
    assert ranked[0][0] == culprit or dict(ranked)[ranked[0][0]] == top


@given(PLAYS, st.sampled_from(sorted(loc.FORMULAS)))
def test_only_lines_a_failing_play_ran_are_ranked_most_suspicious_first(plays, formula):
    ranked = loc.rank(_spectra(plays), formula)
    failing = set().union(*[lines for lines, failed in plays if failed])
    assert {key for key, _ in ranked} == failing
    scores = [score for _, score in ranked]
    assert scores == sorted(scores, reverse=True)


PORTED = st.lists(st.tuples(st.frozensets(st.one_of(
    st.tuples(st.just("f.pl"), st.integers(1, 6)),
    st.tuples(st.just("f.pl"), st.integers(1, 6), st.sampled_from(("exit", "fail")))),
    max_size=8), st.booleans()), max_size=12)


@given(PORTED, st.sampled_from(sorted(loc.FORMULAS)))
def test_a_clause_whose_ports_are_told_apart_is_shown_once_at_its_best(plays, formula):
    """A Prolog clause's units (entered, ``(file, line, "exit")``,
    ``(file, line, "fail")``) are scored apart, as a C++ line's blocks are:
    a report shows each line once, coloured by its best unit."""
    spectra = _spectra(plays)
    where = loc.localization(spectra, None, formula, shown=None)
    failing = {key[:2] for lines, failed in plays if failed for key in lines}
    if where is None:
        assert not failing
        return
    firsts = [(s.file, s.line) for s in where.lines]
    assert len(set(firsts)) == len(firsts)
    ranked = loc.rank(spectra, formula)
    top = ranked[0][1]
    best: dict = {}
    for key, score in ranked:
        best.setdefault(key[:2], score)
    heat = {(f, n): h for f, n, h in where.heat}
    assert set(heat) <= failing
    for line, score in best.items():
        if 0 < score <= top < float("inf"):
            assert heat[line] == round(score / top, 3)


@given(PLAYS)
def test_a_localization_scores_relative_to_its_top_line(plays):
    where = loc.localization(_spectra(plays), None, shown=None)
    if where is None:
        assert not any(lines for lines, failed in plays if failed)
        return
    assert all(0 <= s.score <= 1 for s in where.lines)
    assert where.lines[0].score == 1                     # the default formula: positive when ef > 0


@given(PLAYS, st.booleans())
def test_the_lines_no_play_tells_apart_are_one_place(plays, groups):
    """Lines of one function that exactly the same plays ran are one place:
    wherever they lie in it (``groups``: an ambiguity group, across a branch
    between them that some of those plays skipped), or else when next to
    one another among the lines that ran; a place holds nothing else."""
    spectra = loc.Spectra([((frozenset(lines),), failed) for lines, failed in plays],
                          {("f.py", n): f"fn{n // 5}" for n in range(1, 13)}, groups=groups)
    places = loc.blocks(spectra, loc.rank(spectra))
    who = {}
    for i, (lines, _failed) in enumerate(plays):
        for key in lines:
            who.setdefault(key, set()).add(i)
    ran = sorted(who)
    place_of = {key: i for i, (keys, _score) in enumerate(places) for key in keys}
    failing = set().union(*[lines for lines, failed in plays if failed])
    assert set(place_of) == failing                             # each ranked line once
    assert sum(len(keys) for keys, _ in places) == len(failing)
    for a in failing:
        for b in failing:
            same = who[a] == who[b] and spectra.functions[a] == spectra.functions[b]
            between = {ran.index(k) for k in ran if a <= k <= b or b <= k <= a}
            next_to = all(place_of.get(ran[i]) == place_of[a] for i in between)
            assert (place_of[a] == place_of[b]) == (same and (groups or next_to))
    for keys, _score in places:
        assert keys == sorted(keys)


@pytest.mark.parametrize("name", ["extendido", "aed2", "tad"])
@given(data=st.data())
def test_a_turned_play_is_the_play_turned(name, data):
    """Sokoban's rules know no direction: the spec plays a turned copy
    (``loc.turned``) of a play as the play itself, turned."""
    from conformance import profiles
    profile = profiles.get(name)
    stepper = profile.stepper
    letters = "udlr" + ("bz" if name != "tad" else "")
    scenario = data.draw(st.sampled_from([s for s in profile.scenarios
                                          if len(s.levels) == 1]))
    scenes = scenario.scenes(profile.grid)
    codes = data.draw(st.text(alphabet=letters, max_size=8))
    quarters = data.draw(st.sampled_from(loc.TURNS))
    found = list(loc.turned(scenes, codes, (quarters,)))
    [(turned_scenes, turned_codes)] = found or [(scenes, codes)]   # none: the turn leaves it
    assert len(turned_codes) == len(codes)
    assert [c for c in turned_codes if c in "bz"] == [c for c in codes if c in "bz"]

    def cells(state, q=0):
        s = stepper.scene(state)
        found = [(what, loc._turn(c, q)) for what, group in
                 (("#", s.walls), ("$", s.boxes), (".", s.goals), ("@", {s.player}))
                 for c in group]
        x0 = min(x for _, (x, _y) in found)
        y0 = min(y for _, (_x, y) in found)
        return {(what, (x - x0, y - y0)) for what, (x, y) in found}

    before = list(stepper.play(scenes, codes))
    after = list(stepper.play(turned_scenes, turned_codes))
    assert len(before) == len(after)                   # the same actions are played
    assert cells(stepper.final(turned_scenes, turned_codes)) == \
        cells(stepper.final(scenes, codes), quarters)


def test_a_play_its_turn_leaves_as_it_was_is_not_played_again():
    from conformance.machines.levels import Scene
    alone = Scene(walls=frozenset({(0, 0), (2, 0), (0, 2), (2, 2)}), boxes=frozenset(),
                  goals=frozenset(), player=(1, 1))
    assert list(loc.turned([alone], "zb")) == []                  # symmetric, no move
    assert [codes for _s, codes in loc.turned([alone], "r")] == ["d", "l", "u"]


def test_a_level_of_exact_rows_is_not_turned():
    from conformance import profiles
    profile = profiles.get("soko")
    scenes = profile.scenarios[0].scenes(profile.grid)
    assert list(loc.turned(scenes, "udlr")) == []


# -------------------------------------------------------------- end to end

@pytest.fixture(scope="module")
def wrong(tmp_path_factory) -> Path:
    return mutants.copy_to(WRONG, tmp_path_factory.mktemp("alumno"), "soko.py")


@pytest.fixture(scope="module")
def checked(wrong):
    return check_target(resolve(str(wrong)), None, CHECK)[0]


def test_a_departure_is_localised_in_the_students_own_files(wrong, checked):
    verdict, report = checked
    where = verdict.counterexample.where
    assert where is not None and where.lines and where.failing >= 1 and where.passing >= 1
    for s in where.lines:
        text = (wrong.parent / s.file).read_text().splitlines()
        last = s.last or s.line
        assert s.line <= last
        shown = s.source.split("\n")
        assert shown[0] == text[s.line - 1].strip() and shown[-1] == text[last - 1].strip()
        assert set(shown) <= {t.strip() for t in text[s.line - 1:last]}
        assert 0 <= s.score <= 1 and s.function
    assert [s.score for s in where.lines] == sorted((s.score for s in where.lines), reverse=True)
    assert "Where to look (a hint, not a proof)" in report
    assert place(where.lines[0].file, where.lines[0].line, where.lines[0].last) in report


def test_no_localize_turns_it_off(wrong):
    verdict, report = check_target(resolve(str(wrong)), None,
                                   RunOptions(seed=1, max_examples=20, localize=False))[0]
    assert not verdict.conforms and verdict.counterexample.where is None
    assert "Where to look" not in report


def test_the_json_carries_it(checked):
    verdict, _ = checked
    data = json.loads(verdicts_to_json([verdict]))
    where = data["verdicts"][0]["counterexample"]["where"]
    assert where["lines"][0]["file"] == verdict.counterexample.where.lines[0].file
    assert set(where["lines"][0]) == {"file", "line", "last", "function", "score", "source"}


@pytest.fixture(scope="module")
def by_rules(wrong):
    return check_by_rules(resolve(str(wrong)), None, CHECK)


def test_each_broken_rule_is_localised_and_gradescope_shows_it(by_rules):
    verdict, _ = by_rules[0]
    broken = [o for o in verdict.outcomes if o.status == "broken"]
    assert broken and all(o.counterexample.where is not None for o in broken)
    tests = json.loads(verdicts_to_gradescope(by_rules))["tests"]
    failed = [t for t in tests if t["status"] == "failed" and "Broken:" in t["output"]]
    assert len(failed) == len(broken)
    assert all("Where to look (a hint, not a proof)" in t["output"] for t in failed)


def test_the_plugins_failure_shows_it(pytester, wrong):
    pytester.makeini("[pytest]\n")
    rule = mutants.RULES[WRONG]
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:benchmark",
                                          f"--sokoban-impl={wrong}", "--sokoban-max-examples=20",
                                          "--sokoban-seed=1", "-k", rule)
    out = "\n".join(result.outlines)
    assert "Where to look (a hint, not a proof)" in out
    off = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:benchmark",
                                       f"--sokoban-impl={wrong}", "--sokoban-max-examples=20",
                                       "--sokoban-seed=1", "-k", rule, "--sokoban-no-localize")
    assert "Where to look" not in "\n".join(off.outlines)


# ------------------------------------------------------------- report.html

CLASS = {"ana": "student_soko", "bruno": WRONG}


@pytest.fixture(scope="module")
def graded(graded_class):
    return graded_class(CLASS)


def test_report_html_links_each_broken_rule_to_a_heat_map_of_the_code(graded):
    out, summary = graded
    page = (out / "report.html").read_text()
    bruno = next(s for s in summary["submissions"] if s["name"] == "bruno")
    for rule, info in bruno["rules"].items():
        if info["status"] != "broken":
            continue
        where = info["where"]
        assert where["sources"]["soko.py"] == (out.parent / "tp1" / "bruno" / "soko.py").read_text()
        anchor = "where-bruno-" + re.sub(r"\W", "_", rule)
        assert f'href="#{anchor}"' in page and f'id="{anchor}"' in page
    assert "where-ana" not in page


def test_a_real_browser_colours_the_suspicious_lines(graded, headless_dom):
    out, summary = graded
    dom = headless_dom((out / "report.html").as_uri())
    bruno = next(s for s in summary["submissions"] if s["name"] == "bruno")
    rule, info = next((r, i) for r, i in bruno["rules"].items() if i["status"] == "broken")
    prefix = "src-bruno-" + re.sub(r"\W", "_", rule) + "-soko_py-"
    coloured = dict(re.findall(rf'<span class="ln" id="{prefix}(\d+)" style="background:'
                               r'rgba\([^)]*\)" data-score="([^"]+)"', dom))
    heat = {str(line): score for file, line, score in info["where"]["heat"] if file == "soko.py"}
    assert coloured and set(coloured) == set(heat)
    for s in info["where"]["lines"]:
        if s["file"] == "soko.py":
            assert f'href="#{prefix}{s["line"]}"' in dom
            assert html.escape(s["source"].split("\n")[0], quote=False) in dom


@given(PLAYS, st.frozensets(st.tuples(st.just("f.py"), st.integers(1, 12))),
       st.frozensets(st.tuples(st.just("f.py"), st.integers(1, 12))))
def test_the_focus_comes_first_and_the_cleared_lines_last(plays, focus, cleared):
    """Spectra.focus: ranked before all others; Spectra.cleared (what the
    departing operation ran where it did right): after all others; each
    group by score within."""
    spectra = _spectra(plays)
    spectra.focus, spectra.cleared = focus, cleared
    ranked = loc.rank(spectra)
    groups = [(key not in focus, key in cleared) for key, _ in ranked]
    assert groups == sorted(groups)
    plain = dict(loc.rank(_spectra(plays)))
    assert dict(ranked) == plain                    # the scores are the formula's
    for group in set(groups):
        scores = [score for (key, score), g in zip(ranked, groups) if g == group]
        assert scores == sorted(scores, reverse=True)


# ------------------------------------------------- states as fresh levels

@pytest.mark.parametrize("name", ["soko", "tad", "extendido"])
def test_a_state_as_a_fresh_level_starts_where_it_stands(name):
    """Stepper.scene: a game started on the scene of a state is that state,
    for every state of every fixed scenario's play."""
    from conformance import profiles
    profile = profiles.get(name)
    stepper = profile.stepper
    for s in profile.scenarios:
        scenes = s.scenes(profile.grid)
        for _code, _before, state in stepper.play(scenes, s.actions):
            again = stepper.start([stepper.scene(state)])
            if name == "extendido":        # one level, its history gone: the level as it stands
                assert again.soko == state.soko
            else:
                assert again == state


# ----------------------------------------------------------------- Prolog

needs_swipl = pytest.mark.skipif(__import__("shutil").which("swipl") is None,
                                 reason="swipl (SWI-Prolog) is not installed")


@needs_swipl
def test_a_prolog_departure_is_localised_at_clause_level():
    """A mutant of the action model: its clauses, each shown whole with its
    lines, and the same check without localising shows none."""
    from conformance.profiles.prolog import mutants as prolog_mutants
    folder = prolog_mutants.materialize("up_is_down")
    spec = resolve(str(folder))
    verdict, report = check_target(spec, None, RunOptions(seed=1, max_examples=20))[0]
    where = verdict.counterexample.where
    assert where is not None and where.lines and where.failing >= 1
    text = (folder / prolog_mutants.MAIN).read_text().splitlines()
    for s in where.lines:
        assert s.file == prolog_mutants.MAIN and "/" in s.function
        assert s.source.split("\n")[0] == text[s.line - 1].strip()
        assert s.source.split("\n")[-1].split("%")[0].rstrip().endswith(".")   # the clause, whole
    assert where.tests == "calls"
    assert "Where to look (a hint, not a proof): the clauses of your program" in report
    assert f"({where.failing} failing and {where.passing} passing calls compared)" in report
    off, report = check_target(spec, None, RunOptions(seed=1, max_examples=20,
                                                      localize=False))[0]
    assert off.counterexample.where is None and "Where to look" not in report


def test_a_call_is_judged_by_the_spec_on_its_own():
    """action(S, A) with A bound fails a test when it accepts an illegal
    action or refuses a legal one; perform's findall when its next states
    are not the spec's; perform of an illegal action is not judged. A
    failing call's wrong port: exit when it answered, fail when it did not."""
    from conformance.profiles.prolog import localize as pl
    from conformance.profiles.prolog import model
    from conformance.profiles.prolog.target import Call
    table = model.Table(1, 3, ((1, 1, "j"), (1, 2, "c"), (1, 3, "x")))
    state = table.initial()
    legal = {model.hashable(s.term()): s for s in model.legal(table, state)}
    [push] = legal.values()
    candidates = pl.candidates(state)
    assert len(candidates) == 8 and push.term() in candidates
    illegal = next(a for a in candidates if a.name == "moveLeft")   # off the table
    assert pl.judge_call(legal, Call("action", push.term(), "true", None, [])) == ("action", False)
    assert pl.judge_call(legal, Call("action", push.term(), "false", None, [])) == ("action", True)
    assert pl.judge_call(legal, Call("action", illegal, "true", None, [])) == ("action", True)
    assert pl.judge_call(legal, Call("action", illegal, "false", None, [])) == ("action", False)
    right, wrong_state = push.after.term(), state.term()
    assert pl.judge_call(legal, Call("perform", push.term(), "true", [right], [])) == (
        "perform", False)
    assert pl.judge_call(legal, Call("perform", push.term(), "true", [wrong_state], [])) == (
        "perform", True)
    assert pl.judge_call(legal, Call("perform", push.term(), "true", [], [])) == ("perform", True)
    assert pl.judge_call(legal, Call("perform", illegal, "true", [right], [])) == (
        "perform", None)
    assert pl.wrong_port(Call("action", illegal, "true", None, [])) == "exit"
    assert pl.wrong_port(Call("action", push.term(), "false", None, [])) == "fail"
    assert pl.wrong_port(Call("perform", push.term(), "true", [], [])) == "fail"
    assert pl.wrong_port(Call("action", push.term(), "timeout", None, [])) is None
    assert pl.judge_call(legal, Call("action", push.term(), "timeout", None, [])) == (
        "action", None)                 # its time may have been cut short: not judged
    assert pl.judge_call(legal, Call("action", push.term(), "error", None, [])) == (
        "action", True)


@needs_swipl
def test_the_calls_of_a_state_share_one_time_limit(tmp_path):
    """An action/2 that never ends when its action is bound: the first
    bound call takes all the time the state's calls have, the others are
    not made (timeout), and none of them is judged."""
    from conformance.profiles.prolog import localize as pl
    from conformance.profiles.prolog import model
    from conformance.profiles.prolog import mutants as prolog_mutants
    from conformance.profiles.prolog.source import find_program
    from conformance.profiles.prolog.target import PrologTarget
    text = (prolog_mutants.REFERENCE / prolog_mutants.MAIN).read_text()
    first = text.index("action(State, moveUp")
    (tmp_path / "sokoban.pro").write_text(
        text[:first] + "action(_, A) :- nonvar(A), !, spin.\n" + text[first:]
        + "\nspin :- spin.\n")
    table = model.Table(3, 3, ((2, 2, "j"), (1, 2, "c"), (3, 3, "x")))
    state = table.initial()
    target = PrologTarget(find_program(tmp_path))
    try:
        target.open_level(table.rows, table.columns, table.facts())
        listed, calls = target.calls(state.term(), pl.candidates(state), 0.5)
    finally:
        target.close()
    legal = {model.hashable(s.term()): s for s in model.legal(table, state)}
    assert sorted(model.hashable(a) for a in listed) == sorted(legal)
    assert [c.result for c in calls] == ["timeout"] * (8 + len(legal))
    assert all(pl.judge_call(legal, c)[1] is None for c in calls)


@needs_swipl
def test_a_call_with_its_action_bound_enters_that_actions_clause_only():
    """The driver's calls/4: one call per action, each with its own
    coverage: action(S, moveUp(...)) enters the moveUp clause of action/2
    and no other; a push refused fails in its clause (entered, not exited)."""
    from conformance.profiles.prolog import localize as pl
    from conformance.profiles.prolog import model
    from conformance.profiles.prolog import mutants as prolog_mutants
    from conformance.profiles.prolog.source import find_program
    from conformance.profiles.prolog.target import PrologTarget
    text = (prolog_mutants.REFERENCE / prolog_mutants.MAIN).read_text().splitlines()
    first = {n + 1: line.split("(State, ")[1].split("(")[0] for n, line in enumerate(text)
             if line.startswith("action(State, ")}
    table = model.Table(3, 3, ((2, 2, "j"), (1, 2, "c"), (3, 3, "x")))
    state = table.initial()
    target = PrologTarget(find_program(prolog_mutants.REFERENCE))
    try:
        target.open_level(table.rows, table.columns, table.facts())
        listed, calls = target.calls(state.term(), pl.candidates(state), 2.0, goals=True)
        sites = target.sites()
    finally:
        target.close()
    assert sorted(model.hashable(a) for a in listed) == sorted(
        model.hashable(s.term()) for s in model.legal(table, state))
    # Each goal of a call is placed on a line of its clause, and every call
    # site a call went through is one of the program's.
    assert sites and all(line <= goal <= pl._clause_end(text, line)
                         for (_f, line, _pc), goal in sites.items())
    assert any(c.sites for c in calls)
    assert all((f, line, pc) in sites for c in calls for f, line, pc, _e, _x in c.sites)
    on_table = next(n + 1 for n, t in enumerate(text) if t.startswith("onTable("))
    assert {goal for (_f, line, _pc), goal in sites.items() if line == on_table} >= {
        on_table + 1, on_table + 2, on_table + 3}       # filas/columnas, the rows, the columns
    asked = [c for c in calls if c.kind == "action"]
    assert len(asked) == 8
    for c in asked:
        mine = [(line, entered, exited) for _f, line, name, entered, exited in c.clauses
                if name == "action/2"]
        assert [first[line] for line, _, _ in mine] == [c.action.name]
        [(_, entered, exited)] = mine
        assert (exited > 0) == (c.result == "true")
        assert entered >= 1
    assert {c.action.name for c in calls if c.kind == "perform"} == {
        s.name for s in model.legal(table, state)}


@needs_swipl
@pytest.mark.parametrize("name", ["walk_through_obstacles", "edge_columns", "first_box_only"])
def test_the_faulty_clause_of_a_prolog_mutant_is_in_the_top_three(name):
    """Mutants whose faulty clause whole states could not single out: a
    free/2 that forgets the obstacles and an onTable/1 that lets column 0
    in (every call enters both), and a planner's goal test (a departure of
    sokoban/1): judged call by call, the faulty clause is among the first
    three places (as benchmarks/localize.py --prolog measures)."""
    from conformance.profiles.prolog import check as prolog_check
    from conformance.profiles.prolog import localize as pl
    from conformance.profiles.prolog import mutants as prolog_mutants
    from conformance.profiles.prolog.source import find_program
    from conformance.profiles.prolog.target import PrologTarget
    mutant = prolog_mutants.BY_NAME[name]
    folder = prolog_mutants.materialize(name)
    text = (folder / prolog_mutants.MAIN).read_text().splitlines()
    faulty = text.index(mutant.new.splitlines()[0] if mutant.new in text else next(
        line for line in text if mutant.new in line)) + 1
    target = PrologTarget(find_program(folder))
    try:
        verdict = prolog_check.check(target, seed=1, max_examples=30, keep_open=True)
        c = verdict.counterexample
        assert c is not None and c.rule == mutant.rule
        where = pl.localize(target, c, seconds=120)
    finally:
        target.close()
    assert where is not None and where.failing >= 1 and where.passing >= 1
    assert any(s.line <= faulty <= s.last for s in where.lines[:3]), [
        (s.line, s.last, s.function) for s in where.lines]


# ----------------------------------------- the departing action on its own

def test_the_last_action_alone_from_a_fresh_level_is_played_when_the_spec_ends_alike():
    """departing_step: the last action from the state before it as a fresh
    level, the levels after it kept; not for a play of one action (that is
    the play itself), nor when the spec ends the two apart (an undo the
    fresh level has no history for)."""
    from conformance import profiles
    from conformance.machines import levels as lv
    profile = profiles.get("aed2")
    stepper = profile.stepper
    first = lv.from_rows(["#####", "#@$.#", "#####"], (0, 0), 0)
    second = lv.from_rows(["#####", "#@ $.#", "######"], (0, 0), 0)
    scenes = [first, second]
    assert loc.departing_step(profile, scenes, "r") is None
    step = loc.departing_step(profile, scenes, "lr")     # the first move refused: not played
    assert step is not None and step[1] == "r"
    fresh, code = step
    assert fresh[0] == stepper.scene(stepper.start(scenes)) and fresh[1:] == [second]
    after = stepper.step(stepper.start(fresh), code)
    assert stepper.scene(after) == stepper.scene(stepper.final(scenes, "lr"))
    on_second = loc.departing_step(profile, scenes, "rr")   # the first level won: the second's
    assert on_second is not None and on_second[0][1:] == []
    assert on_second[0][0] == stepper.scene(stepper.final(scenes, "r"))
    assert loc.departing_step(profile, [second], "rz") is None      # an undo: apart
    assert loc.departing_step(profile, scenes, "rz") is not None    # on a fresh level: alike


def test_a_departing_action_that_does_right_alone_clears_what_its_operation_ran(monkeypatch):
    """record: when the departing action alone from a fresh level does not
    depart, the lines the departing operation ran in the failing plays are
    cleared (ranked last), those some passing play ran too; when it departs
    too, none are. Here only the counterexample and, as asked, that play
    depart; a play's lines are one per action letter and one for its start
    (and line 99 in a departing play), all run under ``mover``."""
    from conformance import profiles
    from conformance.api import Counterexample
    from conformance.machines import levels as lv
    profile = profiles.get("aed2")
    scene = lv.from_rows(["######", "#@$ .#", "######"], (0, 0), 0)
    scenes, codes = [scene], "rr"
    alone = loc.departing_step(profile, scenes, codes)
    assert alone is not None
    c = Counterexample("aed2", "", [], 1, "mover(j, ESTE)", "", "", "", rule="ext.rule")
    played: list = []

    class Target:
        def call(self, op, command):
            if command != "take":
                return None
            return [["f.cpp", n, "f", ["mover"]] for n in (played[-1] if played else ())]

    def fake_play(run, s, a, take, each_step=False):
        departs = (s is scenes and a == codes) or ((s, a) == alone and alone_departs)
        played.append({1} | {10 + "udlrbz".index(x) for x in a} | ({99} if departs else set()))
        return [take()], (c if departs else None)

    monkeypatch.setattr(loc, "replay_of", lambda _c: (scenes, codes))
    monkeypatch.setattr(loc, "_play", fake_play)
    for alone_departs in (False, True):
        played.clear()
        found = loc.record(Target(), profile, c, seconds=60)
        assert found is not None
        if alone_departs:
            assert found.failing == 2 and found.cleared == frozenset()
        else:
            assert found.failing == 1
            # what "rr" ran, but line 99, which no passing play ran
            assert found.cleared == {("f.cpp", 1), ("f.cpp", 13)}
            assert found.cleared_at[0][1] == found.cleared
