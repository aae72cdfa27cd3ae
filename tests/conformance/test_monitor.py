"""The live monitor (conformance.live.monitor, issue 18): a student's soko.py
wrapped so that every call is also computed by the spec. A correct student
module behaves exactly as it does bare; each soko mutant raises, at the
first call that departs, an icontract-style error naming the rule it
declares; preconditions the caller breaks are the caller's fault and go
through unchecked."""

from __future__ import annotations

import functools
import sys
import warnings

import icontract
import pytest
from hypothesis import given, settings, strategies as st

from conformance import profiles
from conformance.machines import levels as lv
from conformance import mutants
from conformance.live.monitor import CallersFault, DepartureError, _room, monitored, spec_grid
from conformance.checking.targets import BadTarget, load, resolve
from spec import PreconditionError, rules
from spec import grilla as spec_grilla

SOKO_MUTANTS = sorted(n for n, p in mutants.MUTANTS.items() if p == "soko")
SOKO_STUDENTS = sorted(n for n, p in mutants.STUDENTS.items() if p == "soko")
OBSERVERS = ("hay_pared", "hay_objetivo", "hay_caja", "hay_jugador")


def bare(name):
    return load(resolve(str(mutants.path(name))))


def everything(soko, grid):
    """What every observer says of ``grid``."""
    cols, rows = soko.dimensiones(grid)
    return ((cols, rows), bool(soko.juego_ganado(grid)),
            [[tuple(bool(getattr(soko, op)(grid, c, f)) for op in OBSERVERS)
              for c in range(cols)] for f in range(rows)])


@pytest.mark.parametrize("every_cell", [True, False], ids=["every cell", "fast"])
@pytest.mark.parametrize("name", SOKO_STUDENTS)
@settings(max_examples=25)
@given(scene=lv.scenes(profiles.get("soko").domain, min_boxes=1, max_boxes=2), codes=st.text("udlr", max_size=12))
def test_a_correct_student_module_answers_as_it_does_bare(name, every_cell, scene, codes):
    plain, soko = bare(name), monitored(mutants.path(name), every_cell=every_cell)
    g, h = plain.crear_grilla(list(scene.desc)), soko.crear_grilla(list(scene.desc))
    assert everything(plain, g) == everything(soko, h)
    for code in codes:
        g, h = plain.mover(g, lv.STEP[code]), soko.mover(h, lv.STEP[code])
        assert everything(plain, g) == everything(soko, h)
    stats = soko.__monitor__.stats
    assert stats["departures"] == stats["unchecked"] == stats["callers_faults"] == 0
    assert stats["checked"] > len(codes)


def script(soko, desc, codes):
    """A course-style script: build the grid, move, and read every observer
    after each call. The DepartureError it stops on (None: none)."""
    try:
        g = soko.crear_grilla(list(desc))
        everything(soko, g)
        for code in codes:
            g = soko.mover(g, lv.STEP[code])
            everything(soko, g)
    except DepartureError as e:
        return e
    return None


@functools.cache
def student_module(name):
    return bare(name)


@pytest.mark.parametrize("name", SOKO_MUTANTS + SOKO_STUDENTS)
@settings(max_examples=15)
@given(scene=lv.scenes(profiles.get("soko").domain, min_boxes=1, max_boxes=2), codes=st.text("udlr", max_size=10))
def test_the_fast_mode_stops_on_the_call_and_rule_the_every_cell_mode_stops_on(name, scene, codes):
    """Whatever a course-style script that reads each grid does, the fast
    mode reports what the every-cell mode reports: the same call (its line),
    the same rule, the same report, only later (where the grid is read) and
    with one more line saying where. A correct student module never stops.
    (Which rule a mutant breaks first depends on the game: soko_wrong_axes
    shows first after a push on a level symmetric at the start.)"""
    module = student_module(name)
    every = script(monitored(module, every_cell=True), scene.desc, codes)
    fast = script(monitored(module), scene.desc, codes)
    if every is None:
        assert fast is None, str(fast)
        return
    assert name in SOKO_MUTANTS, str(every)
    assert fast is not None, str(every)
    assert (fast.call, fast.rule) == (every.call, every.rule)
    assert str(fast).split("\nSeen at ")[0] == str(every)


@st.composite
def rooms(draw):
    """Descs near a walled room: half of them a walled room with one player
    inside; the others rectangles of seed 002's characters, their edge
    walled or not, with one player or not, sometimes a stray character or a
    short row."""
    usual = draw(st.booleans())
    cols, rows = draw(st.integers(3 if usual else 1, 9)), draw(st.integers(3 if usual else 1, 8))
    cells = [[draw(st.sampled_from(" #$.*@+")) for _ in range(cols)] for _ in range(rows)]
    if usual or draw(st.booleans()):
        for f in range(rows):
            for c in range(cols):
                if f in (0, rows - 1) or c in (0, cols - 1):
                    cells[f][c] = "#"
    if usual or draw(st.booleans()):
        for row in cells:
            row[:] = [{"@": " ", "+": "."}.get(ch, ch) for ch in row]
        inside = rows > 2 and cols > 2 and (usual or draw(st.booleans()))
        f = draw(st.integers(1, rows - 2) if inside else st.integers(0, rows - 1))
        c = draw(st.integers(1, cols - 2) if inside else st.integers(0, cols - 1))
        cells[f][c] = draw(st.sampled_from("@+"))
    desc = ["".join(row) for row in cells]
    spoil = "" if usual else draw(st.sampled_from(["", "stray", "short"]))
    if spoil == "stray":
        desc[-1] = desc[-1][:-1] + "x"
    elif spoil == "short":
        desc[-1] = desc[-1][:-1]
    return draw(st.sampled_from([list, tuple]))(desc)


@given(desc=rooms())
def test_the_monitor_makes_the_specs_own_grid_of_a_desc(desc):
    """The monitor makes the spec's grid of a walled room its own faster
    way: the same grid as spec_grilla.crear_grilla, and the same
    precondition broken as the spec says (or E24's)."""
    try:
        want = spec_grilla.crear_grilla(desc)
    except PreconditionError as e:
        want, why = None, str(e).removeprefix("crear_grilla: ")
    else:
        why = None if len(set(map(len, desc))) == 1 else "E24"
    model, fault = spec_grid(desc)
    if why is None:
        assert (model, fault) == (want, None)
    else:
        assert model is None and why in fault
    walled = len(desc) >= 3 and len(desc[0]) >= 3 and desc[0] == desc[-1] == \
        "#" * len(desc[0]) and all(row[:1] == row[-1:] == "#" for row in desc)
    if why is None and walled:
        assert _room(desc) == want      # the fast way, for the usual desc


def first_departure(soko):
    """Play seed 002's fixed scenarios through ``soko`` until a call raises."""
    for s in profiles.get("soko").scenarios:
        g = soko.crear_grilla(list(s.scenes("soko")[0].desc))
        for code in s.actions:
            g = soko.mover(g, lv.STEP[code])
        everything(soko, g)
    return None


def test_fast_mode_compares_near_the_move_and_names_the_move_when_the_cell_is_read(tmp_path):
    """A mover that also drops a box far away: the fast mode lets the move
    through and stops where the caller reads that cell, naming the move (its
    line) and showing every cell; the every-cell mode stops at the move."""
    soko = monitored(variant(tmp_path, "import student_soko\n"
                             "def mover(grilla, direccion):\n"
                             "    nueva = student_soko.mover(grilla, direccion)\n"
                             "    nueva[3][5] = '$'\n"
                             "    return nueva\n"), every_cell=False)
    start = soko.crear_grilla(["#######", "#@$ . #", "#     #", "#     #", "#######"])
    g = soko.mover(start, (0, 1)); moved_at = line()     # noqa: E702 - the line of the call
    assert soko.hay_caja(g, 1, 2) is False
    read_at = line() + 2
    with pytest.raises(DepartureError) as raised:
        soko.hay_caja(g, 5, 3)
    fast = raised.value
    assert fast.rule == "soko.step" and fast.call == "mover(grilla, (0, 1))"
    assert str(fast).startswith(f"File {__file__}, line {moved_at} in ")
    assert "hay_caja(grilla, 5, 3) is True, expected False after action 1" in str(fast)
    assert f"Seen at File {__file__}, line {read_at} in " in str(fast)
    assert "|#     #|          |#    $#|" in str(fast)
    full = monitored(tmp_path / "soko.py", every_cell=True)
    with pytest.raises(DepartureError) as raised:
        full.mover(full.crear_grilla(["#######", "#@$ . #", "#     #", "#     #", "#######"]),
                   (0, 1))
    assert raised.value.call == fast.call and raised.value.rule == fast.rule
    assert "|#     #|          |#    $#|" in str(raised.value)
    assert str(fast).split("\n")[1:-1] == str(raised.value).split("\n")[1:]


def line() -> int:
    """The caller's line."""
    return sys._getframe(1).f_lineno


@pytest.mark.parametrize("every_cell", [True, False], ids=["every cell", "fast"])
@pytest.mark.parametrize("name", SOKO_MUTANTS)
def test_each_mutant_raises_at_its_first_departing_call_naming_its_rule(name, every_cell):
    """(Fast, a departure away from the move is caught where the caller
    reads it: the scenarios read every cell after their last move.)"""
    soko = monitored(mutants.path(name), every_cell=every_cell)
    with pytest.raises(DepartureError) as raised:
        first_departure(soko)
    e = raised.value
    assert isinstance(e, icontract.ViolationError)          # icontract's kind of error
    assert e.rule == mutants.RULES[name], str(e)
    rule = rules.table_for("soko").rule(e.rule)
    text = str(e)
    assert text.startswith(f"File {__file__}, line ")        # where the call was made
    assert e.call.split("(")[0] in ("crear_grilla", "mover")
    assert f"{e.call} departs from the spec" in text
    assert f"Rule broken: {rule.id}: {rule.text}" in text
    assert f"\u201c{rule.words}\u201d" in text                # the seed's own words
    assert "What the spec expected, and what soko" in text
    assert ("expected (spec)" in text and "actual (target)" in text) or (
        "expected: " in text and "actual: " in text)
    assert "--replay" in text and name in text
    assert soko.__monitor__.broken == [e.rule]


def variant(folder, source):
    """A soko.py in ``folder`` that redoes some functions of student_soko."""
    mutants.copy_to("student_soko", folder)
    path = folder / "soko.py"
    path.write_text("from student_soko import *\n" + source, encoding="utf-8")
    return path


def test_an_observer_outside_the_grid_is_not_judged_and_one_inside_is(tmp_path):
    soko = monitored(variant(tmp_path, "def hay_objetivo(grilla, c, f):\n"
                             "    return (c, f) == (9, 1) or grilla[f][c] in '.*+'\n"))
    g = soko.crear_grilla(["#####", "#@$.#", "#####"])
    with pytest.warns(CallersFault, match=r"hay_objetivo\(grilla, 9, 1\): the caller breaks"):
        assert soko.hay_objetivo(g, 9, 1) is True
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert soko.hay_objetivo(g, 3, 1) is True
    assert soko.__monitor__.stats == {"checked": 2, "unchecked": 1, "callers_faults": 1,
                                      "departures": 0}


def test_an_observer_that_departs_at_the_callers_own_call(tmp_path):
    """juego_ganado answers right the first time, wrong after: in the
    every-cell mode crear_grilla asks first and the caller's call departs;
    in the fast mode the caller asks first and its second call departs."""
    source = ("_veces = []\n"
              "def juego_ganado(grilla):\n"
              "    _veces.append(1)\n"
              "    return len(_veces) > 1\n")
    soko = monitored(variant(tmp_path, source), every_cell=True)
    g = soko.crear_grilla(["#####", "#@$.#", "#####"])
    with pytest.raises(DepartureError) as raised:
        soko.juego_ganado(g)
    assert raised.value.call == "juego_ganado(grilla)" and raised.value.rule == "soko.won"
    assert "juego_ganado(grilla) is True, expected False at the start" in str(raised.value)
    soko = monitored(variant(tmp_path / "fast", source))
    g = soko.crear_grilla(["#####", "#@$.#", "#####"])
    assert soko.juego_ganado(g) is False
    with pytest.raises(DepartureError) as raised:
        soko.juego_ganado(g)
    assert raised.value.rule == "soko.won"
    assert "juego_ganado(grilla) is True, expected False at the start" in str(raised.value)


@pytest.mark.parametrize("every_cell", [True, False], ids=["every cell", "fast"])
def test_an_exception_of_the_students_code_is_a_departure_caused_by_it(tmp_path, every_cell):
    """crear_grilla's grid cannot be read by juego_ganado: the every-cell
    mode stops at crear_grilla, the fast mode where juego_ganado is called,
    both naming crear_grilla."""
    soko = monitored(variant(tmp_path, "def juego_ganado(grilla):\n"
                             "    return grilla['ganado']\n"), every_cell=every_cell)
    with pytest.raises(DepartureError) as raised:
        soko.juego_ganado(soko.crear_grilla(["#####", "#@$.#", "#####"]))
    assert raised.value.call == "crear_grilla(desc)"
    assert "juego_ganado(grilla) raised TypeError" in str(raised.value)
    assert isinstance(raised.value.__cause__, TypeError)
    assert raised.value.rule == "soko.won"
    assert ("Seen at " in str(raised.value)) is not every_cell


def test_a_ragged_desc_is_the_callers_fault_and_goes_through_unchecked():
    plain, soko = bare("soko_pushes_two_boxes"), monitored(mutants.path("soko_pushes_two_boxes"))
    desc = ["######", "#@$$.#", "######", "###"]
    with pytest.warns(CallersFault) as said:
        g = soko.crear_grilla(desc)
    message = str(said[0].message)
    assert "crear_grilla(desc): the caller breaks a precondition of seed 002" in message
    assert "una grilla rectangular de F filas y C columnas" in message and "E24" in message
    assert "caller's fault, not soko_pushes_two_boxes.py's" in message
    assert said[0].filename == __file__                      # the caller's line
    # The mutant's wrong push on that grid is not judged: no reference for it.
    h = soko.mover(g, (1, 0))
    assert everything(soko, h) == everything(plain, plain.mover(plain.crear_grilla(desc), (1, 0)))
    stats = soko.__monitor__.stats
    assert stats["callers_faults"] == 1 and stats["departures"] == 0 and stats["unchecked"] > 1


@pytest.mark.parametrize("call, says", [
    (lambda soko, g: soko.mover(g, (1, 1)), "direccion must be one of"),
    (lambda soko, g: soko.hay_pared(g, 7, 1), "(c, f) must be a cell of the grid"),
    (lambda soko, g: soko.hay_caja(g, -1, 0), "(c, f) must be a cell of the grid"),
    (lambda soko, g: soko.crear_grilla(["###", "#@ ", "###"]), "not enclosed by walls"),
    (lambda soko, g: soko.crear_grilla(["#####", "#@x@#", "#####"]), "'x' is not one of"),
])
def test_other_preconditions_broken_by_the_caller(call, says):
    soko = monitored(mutants.path("student_soko"))
    g = soko.crear_grilla(["#####", "#@$.#", "#####"])
    with pytest.warns(CallersFault, match="the caller breaks a precondition") as said:
        try:
            call(soko, g)
        except Exception:       # noqa: BLE001 - the student's code may refuse it: its business
            pass
    assert says in str(said[0].message)
    assert soko.__monitor__.stats["departures"] == 0


def test_the_rest_of_the_module_passes_through_and_a_module_object_is_accepted():
    plain = bare("student_soko")
    soko = monitored(plain)
    assert soko.__name__ == "soko" and soko._celda is plain._celda
    assert soko.mover.__name__ == "mover" and soko.mover is not plain.mover


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="profile soko only"):
        monitored(mutants.path("student_soko"), profile="tad")
    with pytest.raises(BadTarget, match="no such file"):
        monitored(tmp_path / "nowhere.py")
    broken = tmp_path / "soko.py"
    broken.write_text("def crear_grilla(desc:\n", encoding="utf-8")
    with pytest.raises(BadTarget, match="syntax error at soko.py, line 1"):
        monitored(broken)


@pytest.mark.parametrize("every_cell", [True, False], ids=["every cell", "fast"])
def test_a_grid_built_after_moves_departs_at_its_start(every_cell):
    """The departure of a crear_grilla made after moves on another grid is
    at the start of its own level, not after those moves."""
    soko = monitored(mutants.path("soko_wrong_axes"), every_cell=every_cell)
    soko.mover(soko.crear_grilla(["#####", "#@  #", "#####"]), (1, 0))
    with pytest.raises(DepartureError) as raised:
        everything(soko, soko.crear_grilla(["#####", "#@$.#", "#   #", "#####"]))
    assert raised.value.call == "crear_grilla(desc)"
    assert "hay_caja(grilla, 2, 1) is False, expected True at the start" in str(raised.value)
    assert raised.value.counterexample.replay.endswith('"actions":""}\'')


def test_a_mover_that_changes_its_argument_far_from_the_move_is_named_where_the_argument_is_read(
        tmp_path):
    """The argument's cells far from the move are not compared at the move
    in the fast mode: reading one later names the move and soko.new-grid,
    as the every-cell mode does at the move."""
    path = variant(tmp_path, "import student_soko\n"
                   "def mover(grilla, direccion):\n"
                   "    nueva = student_soko.mover(grilla, direccion)\n"
                   "    grilla[3][5] = '$'\n"
                   "    return nueva\n")
    desc = ["#######", "#@$ . #", "#     #", "#     #", "#######"]
    every = monitored(path, every_cell=True)
    with pytest.raises(DepartureError) as raised:
        every.mover(every.crear_grilla(desc), (0, 1))
    soko = monitored(path)
    start = soko.crear_grilla(desc)
    soko.mover(start, (0, 1))
    with pytest.raises(DepartureError) as seen:
        soko.hay_caja(start, 5, 3)
    assert (seen.value.call, seen.value.rule) == ("mover(grilla, (0, 1))", "soko.new-grid")
    assert str(seen.value).split("\nSeen at ")[0].split("\n")[1:] == \
        str(raised.value).split("\n")[1:]
