"""Profile prolog (seed 003's SWI-Prolog programs): the term syntax, the
seed's vocabulary over the spec, the driver's protocol under hostile
programs, and the check on our reference and its mutants (the tests that run
a program need swipl; they are skipped, saying so, without it)."""

from __future__ import annotations

import io
import json
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conformance.sandbox import isolation
from conformance.profiles.prolog import machine
from conformance.profiles.prolog import check, model, mutants, rules, terms
from conformance.profiles.prolog.model import State, Table
from conformance.profiles.prolog.source import NotAProgram, find_program
from conformance.profiles.prolog.target import DRIVER, PrologTarget
from spec.tipos import ACCIONES

needs_swipl = pytest.mark.skipif(shutil.which("swipl") is None,
                                 reason="swipl (SWI-Prolog, Debian's swi-prolog-nox) is not "
                                        "installed: the Prolog programs cannot run")

NIVEL1 = """% Tamanho del tablero
filas(2).
columnas(3).
pista(1, 2, j).
pista(2, 2, c).
pista(2, 1, x).
:- consult('sokoban.pro').
"""

# ---------------------------------------------------------------- terms

_atoms = st.one_of(st.from_regex(r"[a-z][a-zA-Z0-9_]{0,6}", fullmatch=True),
                   st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)),
                           max_size=6)).map(terms.Atom)
_leaves = st.one_of(st.integers(-10**6, 10**6), _atoms,
                    st.text(max_size=6).map(terms.Str))
_terms = st.recursive(_leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.builds(lambda n, a: terms.Compound(n, tuple(a)),
              st.from_regex(r"[a-z][a-zA-Z]{0,5}", fullmatch=True),
              st.lists(inner, min_size=1, max_size=3))), max_leaves=12)


@given(_terms)
def test_text_and_parse_round_trip(t):
    assert terms.parse(terms.text(t)) == t


@needs_swipl
@settings(max_examples=20)
@given(st.lists(_terms, min_size=1, max_size=20))
@example([terms.Atom("\xad")])        # swipl writes the soft hyphen alone unquoted
def test_swipl_reads_our_text_and_we_read_its_answer(ts):
    """What we write, swipl reads as the same term; what it writes back the
    way the driver does, we read as that term."""
    echo = ("repeat, read(T), (T == end_of_file -> halt ; "
            "write_term(T, [quoted(true), ignore_ops(true), dotlists(false)]), nl, fail)")
    text = "".join(terms.text(t) + " .\n" for t in ts)
    out = subprocess.run(["swipl", "-q", "-f", "none", "-g", echo, "-t", "halt"],
                         input=text.encode(), capture_output=True, timeout=60)
    lines = out.stdout.decode().splitlines()
    assert [terms.parse(line) for line in lines] == ts, out.stderr.decode()


def test_parse_refuses_what_is_not_a_term():
    for bad in ("f(", "[a|", "a b", "'open", ")"):
        with pytest.raises(terms.TermError):
            terms.parse(bad)


def test_parse_reads_the_driver_forms():
    assert terms.parse("-(moveUp(j,[2,1],[1,1]),[[j,[1,1]]])") == terms.Compound(
        "-", (terms.Compound("moveUp", ("j", [2, 1], [1, 1])), [["j", [1, 1]]]))
    assert terms.parse("[a|_123]") == terms.Compound("[|]", ("a", terms.Var("_123")))
    assert terms.parse("f('A b',\"s\\n\",-3,2.5)") == terms.Compound(
        "f", ("A b", terms.Str("s\n"), -3, 2.5))


# ---------------------------------------------------------------- the model

@st.composite
def played(draw):
    """A table and a state reached on it by random legal actions."""
    table = draw(machine.tables())
    state = table.initial()
    for k in draw(st.lists(st.integers(0, 3), max_size=12)):
        steps = model.legal(table, state)
        if not steps:
            break
        state = steps[k % len(steps)].after
    return table, state


@given(played())
def test_the_fast_successors_are_the_spec(tp):
    table, state = tp
    fast = {(p, b) for p, b in model._fast_steps(table.walls(), table.rows, table.columns,
                                                  state.player, frozenset(state.boxes))}
    assert fast == {s.after.key() for s in model.legal(table, state)}


@given(played())
def test_each_legal_step_names_its_direction(tp):
    """moveUp is row - 1 (seed 003), and so on; a push moves the player onto
    the box's cell."""
    table, state = tp
    for s in model.legal(table, state):
        word = s.name[4:]
        d = model.BY_WORD[word].value
        mover = s.box if s.box is not None else s.player
        assert (s.to[0] - mover[0], s.to[1] - mover[1]) == d
        assert model.why_illegal(table, state, s.term()) == "it is legal"
        if s.box is not None:
            assert s.after.player == s.box
    assert {model.DIRECTION[a] for a in ACCIONES} == {"Up", "Down", "Left", "Right"}


@given(machine.tables())
def test_a_shortest_plan_replays_to_a_final_state(table):
    k = model.shortest(table)
    plan = model.solve(table)
    if k is None:
        assert plan is None
    elif k is not False:
        assert plan is not None and len(plan) == k
        replayed = model.replay(table, [s.term() for s in plan])
        assert replayed.illegal is None and replayed.won


@given(machine.tables())
def test_a_table_written_reads_back_in_its_order(table):
    again = Table.from_text(table.text("sokoban.pro"))
    assert (again.rows, again.columns, again.pistas) == (table.rows, table.columns,
                                                        table.pistas)


def test_the_seed_coordinates():
    table = Table.from_text(NIVEL1)
    assert (table.rows, table.columns) == (2, 3)
    assert table.initial().term() == [["j", [1, 2]], ["c", [2, 2]]]
    names = {s.name: s for s in model.legal(table, table.initial())}
    assert set(names) == {"moveLeft", "moveRight"}      # down is the box against the edge
    assert names["moveLeft"].term() == terms.Compound("moveLeft", ("j", [1, 2], [1, 1]))
    assert model.shortest(table) == 3


def test_why_an_action_is_illegal():
    table = Table.from_text(NIVEL1)
    s = table.initial()
    C = terms.Compound
    assert "off the table" in model.why_illegal(table, s, C("moveUp", ("j", [1, 2], [0, 2])))
    assert "holds a box" in model.why_illegal(table, s, C("moveDown", ("j", [1, 2], [2, 2])))
    assert "not the cell up" in model.why_illegal(table, s, C("moveUp", ("j", [1, 2], [2, 2])))
    assert "the player is at" in model.why_illegal(table, s, C("moveLeft", ("j", [2, 3], [2, 2])))
    assert "off the table" in model.why_illegal(table, s, C("pushDown", ("c", [2, 2], [3, 2], [1, 2])))
    assert "not one of the seed's actions" in model.why_illegal(table, s, "jump")


def test_search_nodes_counts_every_bound():
    """One row, the player and two free cells: bound 0 visits 1 state,
    bound 1 visits 2, bound 2 visits 3."""
    table = Table(1, 3, ((1, 1, "j"),))
    assert model.search_nodes(table, 2) == 1 + 2 + 3


def test_read_state_names_what_is_wrong():
    read = model.read_state
    assert read(terms.parse("[[j,[1,1]],[c,[1,2]]]")) == State((1, 1), ((2, 1),))
    assert read(terms.parse("[[c,[1,2]]]")) == "it has no player"
    assert "twice" in read(terms.parse("[[j,[1,1]],[c,[1,2]],[c,[1,2]]]"))
    assert "not a list" in read(terms.parse("s"))
    assert "is not [j, [F, C]]" in read(terms.parse('[[j,[1,1]],["c",[1,2]]]'))


# ---------------------------------------------------------------- the folder

def test_find_program_in_a_seed_style_folder(tmp_path):
    (tmp_path / "sokoban.pro").write_text("sokoban(Plan) :- Plan = [].\n")
    (tmp_path / "nivel1.pro").write_text(NIVEL1)
    (tmp_path / "helpers.pl").write_text("helper.\n")
    p = find_program(tmp_path)
    assert p.main.name == "sokoban.pro"
    assert [f.name for f in p.levels] == ["nivel1.pro"]
    assert {f.name for f in p.files} == {"sokoban.pro", "nivel1.pro", "helpers.pl"}
    assert find_program(tmp_path / "sokoban.pro").main.name == "sokoban.pro"


def test_find_program_says_what_is_wrong(tmp_path):
    (tmp_path / "nivel1.pro").write_text(NIVEL1)
    with pytest.raises(NotAProgram, match="defines sokoban/1"):
        find_program(tmp_path)
    (tmp_path / "a.pro").write_text("sokoban(P) :- P = [].\n")
    (tmp_path / "b.pro").write_text("sokoban(P) :- P = [].\n")
    with pytest.raises(NotAProgram, match="several files"):
        find_program(tmp_path)
    (tmp_path / "x.txt").write_text("sokoban(P).\n")
    with pytest.raises(NotAProgram, match="not a Prolog file"):
        find_program(tmp_path / "x.txt")
    with pytest.raises(NotAProgram, match="no such"):
        find_program(tmp_path / "missing")


# ---------------------------------------------------------------- the protocol

HOSTILE = r"""
action(S, print) :- member(print, S), writeln(hello), format(user_output, "@@ ok(forged)~n", []),
    print_message(error, format("noise", [])).
action(S, read) :- member(read, S), read(X), X \== end_of_file.
action(S, error) :- member(error, S), X is foo + 1, write(X).
action(S, loop) :- member(loop, S), loop.
action(S, deep) :- member(deep, S), deep(0).
action(S, halt) :- member(halt, S), halt.
action(S, assert) :- member(assert, S), \+ seen, assertz(seen).
action(S, cyclic) :- member(cyclic, S), X = f(X).
action(S, fill) :- member(fill, S), open('big', write, St),
    forall(between(1, 1000000, _), write(St, 'xxxxxxxxxxxxxxxxxxxx')), close(St).
action(S, level) :- member(level, S), filas(F), columnas(C), findall(p(A,B,E), pista(A,B,E), Ps),
    writeln(Ps), S = [_|_], nb_setval(level, F-C-Ps).
perform(S, A, [A|S]) :- A \== cyclic.
perform(S, cyclic, X) :- X = [X|S].
loop :- loop.
deep(N) :- N1 is N + 1, deep(N1), true.
:- dynamic seen/0.
pista(9, 9, o).
sokoban(P) :- filas(F), F > 1, P = [moveUp(j, [2,1], [1,1])].
sokoban(P) :- loop, P = [].
"""


@pytest.fixture
def hostile(tmp_path):
    (tmp_path / "sokoban.pro").write_text(HOSTILE)
    target = PrologTarget(find_program(tmp_path), memory_mb=512)
    target.start()
    yield target
    target.close()


def _answer(target, what, seconds=5.0):
    return target.successors([terms.Atom(what)], seconds)


@needs_swipl
def test_the_programs_printing_and_reading_do_not_touch_the_protocol(hostile):
    hostile.open_level(2, 2, [terms.Compound("pista", (1, 1, terms.Atom("j")))])
    a = _answer(hostile, "print")
    assert a.kind == "ok" and terms.text(a.value) == "[print-[print, print]]"
    a = _answer(hostile, "read")
    assert a.kind == "ok" and a.value == []         # its standard input is empty
    a = _answer(hostile, "print")                   # and the protocol goes on
    assert a.kind == "ok" and len(a.value) == 1


@needs_swipl
def test_errors_time_and_stack_are_answers_not_crashes(hostile):
    hostile.open_level(2, 2, [])
    a = _answer(hostile, "error")
    assert a.kind == "error" and "foo" in a.text
    a = _answer(hostile, "loop", 0.3)
    assert a.kind == "timeout"
    a = _answer(hostile, "deep")
    assert a.kind == "error" and "Stack limit" in a.text
    a = _answer(hostile, "cyclic")
    assert a.kind == "error" and "cyclic" in a.text
    assert _answer(hostile, "print").kind == "ok"   # still serving the same level


@needs_swipl
def test_halt_ends_only_the_levels_copy(hostile):
    hostile.open_level(2, 2, [])
    a = _answer(hostile, "halt")
    assert a.kind == "halted"
    hostile.open_level(2, 2, [])                    # the next level: a fresh copy
    assert _answer(hostile, "print").kind == "ok"
    assert hostile.starts == 1                      # without a new process


@needs_swipl
def test_each_level_starts_from_the_loaded_program(hostile):
    """What the program asserts while answering one level is gone at the
    next (each level is a fresh copy of the loaded program), and the level's
    facts replace the program's own."""
    for _ in range(2):
        hostile.open_level(3, 4, [terms.Compound("pista", (1, 2, terms.Atom("j")))])
        assert _answer(hostile, "assert").value == [terms.parse("-(assert,[assert,assert])")]
        hostile.close_level()
    hostile.open_level(3, 4, [terms.Compound("pista", (1, 2, terms.Atom("j")))])
    assert _answer(hostile, "level").kind == "ok"
    a = hostile.plan(5)
    assert a.kind == "ok" and terms.text(a.value) == "[moveUp(j, [2, 1], [1, 1])]"


@needs_swipl
def test_a_program_that_fills_the_disk_is_stopped(tmp_path):
    (tmp_path / "sokoban.pro").write_text(HOSTILE)
    target = PrologTarget(find_program(tmp_path), storage_mb=2)
    try:
        target.start()
        target.open_level(2, 2, [])
        a = _answer(target, "fill", 20.0)
        # Where the box's storage is a capped tmpfs, the kernel refuses the
        # write (an error the program sees); elsewhere the box is killed.
        assert (a.kind == "died" and "killed" in a.text
                or a.kind == "error" and "space" in a.text.lower()), (a.kind, a.text)
        assert not (tmp_path / "big").exists()
    finally:
        target.close()


@needs_swipl
def test_a_planner_that_does_not_end_is_stopped(hostile):
    hostile.open_level(1, 2, [])
    a = hostile.plan(0.5)
    assert a.kind == "timeout"
    hostile.close_level()


@needs_swipl
def test_nothing_is_left_running(hostile):
    hostile.open_level(2, 2, [])
    _answer(hostile, "loop", 0.2)
    proc = hostile.proc
    hostile.close()
    assert proc.poll() is not None and proc.pid not in isolation.live_boxes()
    out = subprocess.run(["pgrep", "-f", "sokoban_driver.pl -- sokoban.pro"],
                         capture_output=True, text=True).stdout.split()
    assert str(proc.pid) not in out


@needs_swipl
def test_missing_predicates_are_named(tmp_path):
    (tmp_path / "sokoban.pro").write_text("sokoban(P) :- P = [].\naction(_, _) :- fail.\n")
    target = PrologTarget(find_program(tmp_path))
    verdict = check.open_program(target)
    target.close()
    assert verdict is not None and verdict.missing == ["perform/3"]
    assert "perform/3" in verdict.error


# ---------------------------------------------------------------- the check

@needs_swipl
@pytest.mark.parametrize("name", ["reference", "slow",
                                  *(f"student_{s}" for s in mutants.STUDENTS)])
def test_our_correct_programs_conform(name):
    target = PrologTarget(find_program(mutants.materialize(name)))
    verdict = check.check(target, max_examples=25, seed=3)
    assert verdict.conforms, verdict.counterexample and verdict.counterexample.report


@needs_swipl
@pytest.mark.parametrize("mutant", mutants.MUTANTS, ids=lambda m: m.name)
def test_each_mutant_is_caught_and_blamed_on_its_rule(mutant):
    target = PrologTarget(find_program(mutants.materialize(mutant.name)))
    verdict = check.check(target, seed=0, shrink=False, plan_seconds=3.0)
    assert not verdict.conforms and verdict.error is None
    c = verdict.counterexample
    assert c.rule == mutant.rule, c.report
    assert f"rule {mutant.rule} " in c.message
    # The student can run it: the level as a file, and the query.
    assert "filas(" in c.report and ":- consult('sokoban.pro')." in c.report
    assert "?- " in c.report
    # A wrong next state is drawn beside the spec's; no other departure is.
    assert ("the spec    its state" in c.report) == (mutant.rule == "prolog.effects"), c.report


def test_a_wrong_next_state_is_drawn_beside_the_spec():
    from conformance.profiles.prolog.report import after_drawing
    table = Table(3, 1, ((3, 1, "j"), (2, 1, "c"), (1, 1, "x")))
    push = next(s for s in model.legal(table, table.initial()) if s.name == "pushUp")
    box_left = model.State(push.after.player, ((1, 2),))      # the box stayed where it was
    lines = after_drawing(table, push, box_left)
    assert lines[0] == ("After pushUp(c, [2, 1], [1, 1], [3, 1]) (X: the cells that differ; "
                        "!: two pieces on one cell):")
    assert [line.split() for line in lines[1:]] == [
        ["the", "spec", "its", "state", "differ"],
        ["###", "###", "---"], ["#*#", "#.#", "-X-"], ["#@#", "#!#", "-X-"],
        ["#", "#", "#", "#", "---"], ["###", "###", "---"]]
    off = model.State((1, 4), ((1, 1),))                       # the player off the table
    lines = after_drawing(table, push, off)
    assert lines[0].startswith("After pushUp(c, [2, 1], [1, 1], [3, 1]) (X: ")
    assert lines[-1].strip() == "(its state puts pieces off the table: [4, 1])"


@needs_swipl
@pytest.mark.parametrize("name", ["reference", "right_two", "move_leaves_player"])
def test_a_check_by_rules_breaks_only_the_rule_a_mutant_breaks(name):
    """Round after round, each rule found broken is passed over: a mistake
    in the action model is not blamed again on the rules it drags along (a
    missing move on edges or move, a planner that plans with it on
    plan-found), and a correct program exercises every rule."""
    target = PrologTarget(find_program(mutants.materialize(name)))
    first, broken, exercised = check.check_rules(target, seed=1, max_examples=40)
    want = {mutants.BY_NAME[name].rule} if name in mutants.BY_NAME else set()
    assert set(broken) == want, {r: v.counterexample.message for r, v in broken.items()}
    assert first.conforms == (not want)
    model_rules = {r for r in rules.RULES if not r.startswith("prolog.plan")}
    # (A planner that plans with a broken action model is not judged: no
    # evidence either way about its own rules.)
    assert model_rules <= set(exercised) <= set(rules.RULES)
    if not want:
        assert set(exercised) == set(rules.RULES)


ACTION_RULES = {"prolog.edges", "prolog.directions", "prolog.free", "prolog.move",
                "prolog.push", "prolog.effects"}


def test_the_fixed_tables_lie_in_seed_003s_domain():
    from conformance.profiles.prolog import scenarios
    from levels.validate import validate
    found = scenarios.tables()
    assert len(found) == len(scenarios.LINES) * 4 + len(scenarios.PLANS)
    for table in found:
        assert validate(table.level(), "tad") == [], table.title
        assert len(table.boxes) == len(table.goals) and min(table.rows, table.columns) == 1
    for table in scenarios.PLANS:           # the planner is asked there: a few moves
        assert machine.classify(table).few, table.title


@needs_swipl
@pytest.mark.parametrize("mutant", mutants.MUTANTS, ids=lambda m: m.name)
def test_the_fixed_tables_alone_catch_every_mutant(mutant):
    """Whatever the seed: the tables every check plays first catch each
    mutant, blamed on its rule (a random play reached two boxes in a row
    pushed left in only 17 of seeds 1..20, and a goal test looking at the
    first box only was caught in 19)."""
    from conformance.profiles.prolog.machine import PrologRun
    from conformance.profiles.prolog import scenarios
    target = PrologTarget(find_program(mutants.materialize(mutant.name)))
    assert check.open_program(target) is None
    run = PrologRun(target, target.program.main.name, plan_seconds=2.0)
    try:
        found = next(c for c in (check._play_fixed(run, t, plan_far=False)
                                 for t in scenarios.tables()) if c is not None)
    except StopIteration:
        found = None
    finally:
        target.close()
    assert found is not None and found.rule == mutant.rule, found and found.report


def test_every_mutant_changes_one_place_of_the_reference():
    for m in mutants.MUTANTS:
        assert mutants.source(((m.old, m.new),)) != mutants.source(())
    assert mutants.source(mutants.SLOW) != mutants.source(())


def test_a_level_file_is_not_taken_for_a_program(tmp_path):
    (tmp_path / "nivel1.pro").write_text(NIVEL1)
    with pytest.raises(NotAProgram, match="a level of seed 003"):
        find_program(tmp_path / "nivel1.pro")


# ---------------------------------------------------------------- the commands

def _class(tmp_path):
    """A class folder: a correct program, a mutant, a lone .pro program and a
    shared level file (not a submission)."""
    root = tmp_path / "class"
    root.mkdir()
    shutil.copytree(mutants.materialize("reference"), root / "ana")
    shutil.copytree(mutants.materialize("push_leaves_box"), root / "beto")
    shutil.copy(mutants.materialize("reference") / "sokoban.pro", root / "carla.pro")
    (root / "nivel1.pro").write_text(NIVEL1)
    return root


@needs_swipl
def test_check_verdicts_and_exit_statuses(tmp_path, capsys):
    from conformance.commands import cli
    root = _class(tmp_path)
    assert cli.main([str(root / "ana"), "--seed", "1", "--max-examples", "8"]) == 0
    out = capsys.readouterr().out
    assert "(profile prolog, random seed 1): CONFORMS" in out
    assert "played first: the folder's own levels" not in out      # it has none
    assert cli.main([str(root / "beto"), "--seed", "1", "--max-examples", "30"]) == 1
    out = capsys.readouterr().out
    assert "rule prolog.effects" in out and "?- findall(A-S2" in out
    replay = next(line.strip() for line in out.splitlines() if "--replay" in line)
    args = shlex.split(replay)[3:]        # after python -m conformance
    assert cli.main(args) == 1                          # the replay departs again
    assert "rule prolog.effects" in capsys.readouterr().out


@needs_swipl
def test_check_says_what_is_wrong_with_exit_2(tmp_path, capsys, monkeypatch):
    from conformance.commands import cli
    from conformance.profiles.prolog import target as prolog_target
    root = _class(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli.main([str(empty), "--profile", "prolog"]) == 2
    assert "no Prolog file here defines sokoban/1" in capsys.readouterr().err
    assert cli.main([str(root / "ana"), "--profile", "soko"]) == 2
    assert "only profile prolog applies" in capsys.readouterr().err
    assert cli.main([str(root / "nivel1.pro")]) == 2
    assert "a level of seed 003" in capsys.readouterr().err
    monkeypatch.setattr(prolog_target.shutil, "which", lambda name: None)
    assert cli.main([str(root / "ana")]) == 2
    err = capsys.readouterr().err
    assert "swipl (SWI-Prolog) is not installed" in err and "swi-prolog-nox" in err


@needs_swipl
def test_a_newcomers_mistakes_get_a_verdict_that_says_what(tmp_path, capsys):
    """A syntax error is named (file, line) at the top of the report, a
    directive that halts while the program loads is a clear exit 2, and a folder of .pro files none of which defines sokoban/1 says so."""
    from conformance.commands import cli
    reference = (mutants.materialize("reference") / "sokoban.pro").read_text()
    line = "up([F, C], [F1, C]) :- F1 is F - 1."
    assert reference.count(line) == 1
    cases = {"syntax": reference.replace(line, line[:-1] + " ,,."),
             "halts": ":- halt.\n" + reference,
             "plain": "% no program here\n"}
    for name, text in cases.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "sokoban.pro").write_text(text)
    number = reference[:reference.index(line)].count("\n") + 1
    assert cli.main([str(tmp_path / "syntax"), "--seed", "1", "--max-examples", "5"]) == 1
    out = capsys.readouterr().out
    top = out.split("What went wrong")[0]
    assert f"ERROR: sokoban.pro:{number}:" in top and "Syntax error" in top
    assert "prolog-box-" not in out                 # the box's folder is not the student's
    assert cli.main([str(tmp_path / "halts")]) == 2
    assert "a directive that calls halt" in capsys.readouterr().err
    assert cli.main([str(tmp_path / "plain")]) == 2
    assert "no clause sokoban(...)" in capsys.readouterr().err


@needs_swipl
def test_the_driver_loads_without_a_message():
    run = subprocess.run(["swipl", "-q", "-f", "none", "-g",
                          f"load_files('{DRIVER}', [if(true)]), halt"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout + run.stderr == ""


@needs_swipl
def test_grade_and_gradescope_take_prolog_programs(tmp_path):
    from conformance.commands import cli
    root = _class(tmp_path)
    out = tmp_path / "out"
    assert cli.main(["grade", str(root), "--seed", "1", "--max-examples", "30",
                     "--out", str(out)], out=io.StringIO()) == 0
    rows = {r["name"]: r for r in json.loads((out / "summary.json").read_text())["submissions"]}
    assert set(rows) == {"ana", "beto", "carla.pro"}        # not the level file
    assert rows["ana"]["verdict"] == rows["carla.pro"]["verdict"] == "conforms"
    assert rows["beto"]["verdict"] == "does not conform"
    assert all(r["profile"] == "prolog" for r in rows.values())
    results = tmp_path / "results.json"
    assert cli.main([str(root / "ana"), "--seed", "1", "--max-examples", "30",
                     "--gradescope", str(results)], out=io.StringIO()) == 0
    tests = json.loads(results.read_text())["tests"]        # one per rule of seed 003
    assert [t["name"].split(":")[0] for t in tests] == list(rules.RULES)
    assert all(t["score"] == t["max_score"] for t in tests), [
        t["name"] for t in tests if t["score"] != t["max_score"]]


@needs_swipl
@pytest.mark.parametrize("failure", [False, True])
def test_a_prolog_check_stops_cleanly_at_its_budget(tmp_path, capsys, failure):
    """A correct program given more tables than its budget allows: the check
    stops between two tables, in time, not fully checked (exit status 3, or
    1 with --budget-is-failure), saying how many tables it ran and how long
    a call took; the Gradescope file is written, every rule it kept earns
    its point, and the rules not reached keep theirs unless the budget is a
    failure."""
    from conformance.commands import cli
    root = _class(tmp_path)
    results = tmp_path / "results.json"
    start = time.monotonic()
    status = cli.main([str(root / "ana"), "--seed", "1", "--max-examples", "100000",
                       "--budget", "12", "--gradescope", str(results)]
                      + (["--budget-is-failure"] if failure else []))
    took = time.monotonic() - start
    out = capsys.readouterr().out
    assert status == (1 if failure else 3), out
    assert "NOT FULLY CHECKED" in out and "median call took" in out, out
    assert re.search(r"ran out after [1-9][0-9]* tables?", out), out
    assert took < 12 + 15, took
    document = json.loads(results.read_text())
    assert document["extra_data"]["out_of_time"] is True
    statuses = document["extra_data"]["rules"]
    assert set(statuses.values()) <= {"kept", "unreached"} and "kept" in statuses.values()
    kept = sum(1 for s in statuses.values() if s == "kept")
    assert document["score"] == (kept if failure else len(rules.RULES))


@needs_swipl
def test_the_pytest_plugin_takes_a_prolog_program(tmp_path):
    root = _class(tmp_path)
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                          f"--sokoban-impl={root / 'beto'}", "--sokoban-seed", "1",
                          "--sokoban-max-examples", "30"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert "passed" in run.stdout and "failed" in run.stdout, run.stdout + run.stderr
    assert "FAILED sokoban::actions[prolog]" in run.stdout
    assert "sokoban::operations[prolog]" not in run.stdout.split("short test summary")[-1]


def test_the_prolog_rules_are_a_table_of_spec_rules_shown_in_the_docs():
    from spec import rules as spec_rules
    table = spec_rules.table_for("prolog")
    assert table is rules.TABLE and [r.id for r in table.rules] == list(rules.RULES)
    docs = (Path(__file__).resolve().parents[2] / "docs" / "conformance.md").read_text()
    assert table.markdown() in docs
