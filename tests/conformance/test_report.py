"""The human report: boards drawn over a window, differing cells marked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from conformance import profiles
from conformance.checking import engine

from conformance import mutants

from conformance.api import Counterexample, Verdict
from conformance.machines.boards import Board, cell_char, draw, render_observation
from conformance.reports.report import (
    STAT_LABELS, format_comparison, format_stats, format_verdict, marks, write_reports,
)
from conformance.sandbox.box import open_target
from conformance.checking.targets import resolve

cells = st.tuples(st.integers(-3, 3), st.integers(-3, 3))
boards = st.builds(Board, st.frozensets(cells, max_size=6), st.frozensets(cells, max_size=4),
                   st.frozensets(cells, max_size=4), st.frozensets(cells, max_size=1))


def test_cell_characters_are_xsb_and_impossible_cells_are_flagged():
    b = Board(walls=frozenset({(0, 0), (1, 0)}), boxes=frozenset({(1, 0), (2, 0), (3, 0)}),
              goals=frozenset({(3, 0), (4, 0), (5, 0)}), players=frozenset({(5, 0)}))
    assert "".join(cell_char(b, (x, 0)) for x in range(7)) == "#!$*.+ "
    assert draw(Board(walls=frozenset({(-2, -1)}), players=frozenset({(0, 0)}))) == ["#  ", "  @"]


@given(boards, boards)
def test_marks_flag_exactly_the_differing_cells(a, b):
    window = (-3, -3, 3, 3)
    ra, rb = draw(a, window), draw(b, window)
    m = marks(ra, rb)
    differing = {(x, y) for x in range(-3, 4) for y in range(-3, 4)
                 if cell_char(a, (x, y)) != cell_char(b, (x, y))}
    assert {(x - 3, y - 3) for y, row in enumerate(m) for x, ch in enumerate(row)
            if ch == "X"} == differing


def test_comparison_marks_cells_and_values():
    window = (0, 0, 3, 0)
    expected = render_observation(Board(walls=frozenset({(0, 0)}), players=frozenset({(1, 0)})),
                                  window, [("gano", False), ("bombas", 1)])
    actual = render_observation(Board(walls=frozenset({(0, 0)}), players=frozenset({(2, 0)})),
                                window, [("gano", False), ("bombas", 0)])
    text = "\n".join(format_comparison(expected, actual))
    assert "|#@  |" in text and "|# @ |" in text and "|-XX-|" in text
    assert "2 cells differ" in text
    assert "bombas: expected 1, actual 0   <-- differs" in text
    assert "gano: expected False, actual False\n" in text + "\n"


def test_a_real_report_draws_the_level_lists_actions_and_marks_the_boards():
    t = open_target(resolve(str(mutants.path("tad_goal_is_obstacle"))), in_process=True)
    v = engine.check(t, "tad", max_examples=100, seed=0)
    write_reports(v)            # as a check does, once, at its end
    text = format_verdict(v)
    assert v.counterexample.report == text
    assert "DOES NOT CONFORM" in text and "Level (XSB):" in text and "Actions:" in text
    assert "<-- departs here" in text and "expected (spec)" in text and "differs (X)" in text
    assert "X" in text.split("differs (X)")[1]
    assert "python -m conformance" in text and "--replay" in text
    assert "Exercised before the failure:" in text


def test_conforming_and_error_verdicts():
    ok = Verdict("t", "tad", True, stats={"examples": 3, "steps": 9, "pushes": 1}, seed=4)
    assert format_verdict(ok).splitlines() == [
        "t (profile tad, random seed 4): CONFORMS (0.0 s)",
        "Exercised: 3 examples, 9 steps, 1 push"]
    bad = Verdict("t", "tad", False, error="t lacks operations", missing=["step"])
    assert "cannot be checked" in format_verdict(bad) and "step" in format_verdict(bad)


def test_a_target_error_is_shown_as_is():
    c = Counterexample("soko", "#@#", ["mover (1, 0)"], 0, "mover", "a normal answer",
                       "timeout: no answer in 2 s", "mover(grilla, (1, 0)) timed out")
    text = format_verdict(Verdict("t", "soko", False, counterexample=c))
    assert "expected: a normal answer" in text and "actual:   timeout: no answer in 2 s" in text


@given(st.dictionaries(st.sampled_from([k for k, _, _ in STAT_LABELS]), st.integers(0, 3),
                       min_size=1))
def test_counts_agree_with_their_nouns(stats):
    for part in format_stats(stats).split(", "):
        n, noun = part.split(" ", 1)
        singular = next(one for _, one, many in STAT_LABELS if noun in (one, many))
        assert (noun == singular) == (n == "1"), part


def test_a_raised_exception_is_said_once(tmp_path):
    """Not "raised an exception: raised TypeError"."""
    from conformance.checking import checks
    from conformance.checking.targets import resolve

    (tmp_path / "soko.py").write_text(
        "from conformance.mutants.student_soko import *\n"
        "def mover(grilla, direccion):\n    dx, dy = direccion.value\n")
    [(v, report)] = checks.check_target(resolve(str(tmp_path / "soko.py")), "soko",
                                        checks.RunOptions(max_examples=5, seed=0, in_process=True))
    assert "raised AttributeError: 'tuple' object has no attribute 'value'" in report
    assert "raised an exception" not in report and "raised: raised" not in report
    # The fixed scenarios come first, one per rule first (Profile.rule_first):
    # the first with a move departs.
    n, first = next((i, s) for i, s in enumerate(profiles.get("soko").rule_first(), 1)
                    if s.actions)
    assert n > 1 and f"{n} examples," in report and "1 examples" not in report
    assert f"Found by the fixed scenario: {first.what}" in report


def test_one_cell_differs():
    board = Board(walls=frozenset({(0, 0)}))
    text = "\n".join(format_comparison(render_observation(board, (0, 0, 1, 0), []),
                                       render_observation(Board(), (0, 0, 1, 0), [])))
    assert "1 cell differs" in text and "1 cell differ\n" not in text + "\n"


def test_status_counts_agree_with_their_verbs():
    from conformance.reports.output import status_count

    assert [status_count(n, "conforms") for n in (1, 3)] == ["1 conforms", "3 conform"]
    assert status_count(2, "does not conform") == "2 do not conform"
    assert status_count(2, "bad target") == "2 bad targets"
