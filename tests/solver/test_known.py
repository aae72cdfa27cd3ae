"""The table of known solutions behind the game's hints (``impl.solver.known``):
every stored Microban solution replays through the spec, and a position
reached by following one (with the player wandering before a push) is
answered with a solution from there; a position off every known solution is
not."""

from hypothesis import given, settings
from hypothesis import strategies as st

from impl.solver import known, solve
from impl.solver.known_microban import SOLUTIONS
from levels.files import load
from spec import juego
from spec.tipos import CAJAS, DEPOSITOS, PAREDES, PERSONAJE

from .test_search import ACTION, drawn, replays

MICROBAN = load("microban")


def nivel_of(level):
    return {PERSONAJE: frozenset({level.player}), CAJAS: level.boxes,
            PAREDES: level.walls, DEPOSITOS: level.goals}


def played(nivel, lurd):
    """The Nivel after playing ``lurd`` through spec.juego."""
    j = juego.iniciar(nivel)
    for letter in lurd:
        j = juego.step(j, ACTION[letter.lower()])
    e = juego.estado(j)
    return {**nivel, PERSONAJE: e[PERSONAJE], CAJAS: e[CAJAS]}


def test_the_table_covers_most_microban_levels_and_every_entry_replays():
    assert len(SOLUTIONS) >= 150
    assert len({n for n, _ in SOLUTIONS}) == len(SOLUTIONS)
    for number, lurd in SOLUTIONS:
        assert replays(nivel_of(MICROBAN[number - 1]), lurd), number


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_position_along_a_stored_solution_is_answered(data):
    number, lurd = data.draw(st.sampled_from(SOLUTIONS))
    k = data.draw(st.integers(0, len(lurd)))
    nivel = played(nivel_of(MICROBAN[number - 1]), lurd[:k])
    answer = known.lookup(nivel)
    assert answer is not None
    assert replays(nivel, answer)


LEVEL = drawn(
    "#######",
    "#     #",
    "# $ $ #",
    "#  @  #",
    "# . . #",
    "#######",
)


def test_remembered_solutions_answer_later_positions_and_only_those():
    assert known.lookup(LEVEL) is None
    result = solve(LEVEL, time_limit=30)
    known.remember(LEVEL, result.solution)
    assert known.lookup(LEVEL) is not None
    first_push = next(i for i, c in enumerate(result.solution) if c.isupper())
    after = played(LEVEL, result.solution[:first_push + 1])
    answer = known.lookup(after)
    assert answer is not None and replays(after, answer)
    # The player walks elsewhere without pushing (still before the next
    # push): answered, with a walk back.
    walks = [played(after, a) for a in "udlr"]
    walks = [w for w in walks
             if w[CAJAS] == after[CAJAS] and w[PERSONAJE] != after[PERSONAJE]]
    assert walks
    for w in walks:
        answer = known.lookup(w)
        assert answer is not None and replays(w, answer)
    # A box pushed where no known solution goes: not answered.
    off = drawn(
        "#######",
        "#$    #",
        "#   $ #",
        "#  @  #",
        "# . . #",
        "#######",
    )
    assert known.lookup(off) is None
