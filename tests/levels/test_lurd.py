"""LURD solutions."""

import pytest
from hypothesis import given, strategies as st

from levels import LevelError, lurd, parse_xsb
from levels.strategies import lurd_strings
from spec import fisica
from spec.tipos import ACCIONES, Accion

A, B, I, D = Accion.ARRIBA, Accion.ABAJO, Accion.IZQUIERDA, Accion.DERECHA


def test_letters_are_the_project_directions():
    assert lurd.parse("lurd") == [I, A, D, B]
    assert lurd.parse("LURD") == [I, A, D, B]
    assert lurd.parse_moves("lU") == [(I, False), (A, True)]


def test_run_length_and_whitespace():
    assert lurd.parse("3r 2(uL)\n") == [D, D, D, A, I, A, I]
    assert lurd.format([D, D, D, A], [False, False, False, True], rle=True) == "3rU"


@pytest.mark.parametrize("bad", ["x", "3", "2(r", "r)"])
def test_bad_lurd_is_a_level_error(bad):
    with pytest.raises(LevelError):
        lurd.parse(bad)


@given(lurd_strings(40))
def test_format_inverts_parse_moves(text):
    moves = lurd.parse_moves(text)
    assert lurd.format([a for a, _ in moves], [p for _, p in moves]) == text
    assert lurd.parse_moves(lurd.format([a for a, _ in moves], [p for _, p in moves],
                                        rle=True)) == moves


@given(st.lists(st.sampled_from(ACCIONES), max_size=30))
def test_push_flags_come_from_the_spec(actions):
    (lv,) = parse_xsb("#######\n#     #\n# $@$ #\n#  .. #\n#######\n")
    flags = lurd.push_flags(lv, actions)
    states = lurd.replay(lv, actions)
    assert len(flags) == len(actions) == len(states) - 1
    for flag, a, before, after in zip(flags, actions, states, states[1:]):
        px, py = fisica.personaje(before)
        ahead = (px + a.dx, py + a.dy)
        assert flag == (ahead in fisica.cajas(before) and fisica.personaje(after) == ahead)
    assert lurd.parse_moves(lurd.format(actions, flags)) == list(zip(actions, flags))


def test_format_checks_lengths():
    with pytest.raises(ValueError):
        lurd.format([A], [])
