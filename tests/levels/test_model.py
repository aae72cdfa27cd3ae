"""Level, the spec's Nivel and validation."""

import pytest
from hypothesis import given, strategies as st

from levels import Level, LevelError, validate
from levels.strategies import drawable_levels, open_levels
from spec import fisica
from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE


def test_to_nivel_has_exactly_the_seed_keys():
    lv = Level(walls={(0, 0)}, boxes={(1, 1)}, goals={(2, 2)}, player=(3, 3), bombs=2)
    n = lv.to_nivel()
    assert set(n) == {PERSONAJE, CAJAS, PAREDES, DEPOSITOS}
    assert n[PERSONAJE] == frozenset({(3, 3)}) and all(isinstance(v, frozenset) for v in n.values())
    assert lv.to_nivel_extendido()[BOMBAS] == 2


@given(open_levels() | drawable_levels())
def test_from_nivel_inverts_to_nivel(lv):
    assert Level.from_nivel(lv.to_nivel_extendido()) == Level(
        walls=lv.walls, boxes=lv.boxes, goals=lv.goals, player=lv.player, bombs=lv.bombs)


def test_from_nivel_refuses_two_characters():
    with pytest.raises(LevelError, match="2 characters"):
        Level.from_nivel({PERSONAJE: {(0, 0), (1, 0)}, CAJAS: set(), PAREDES: set(),
                          DEPOSITOS: set()})
    with pytest.raises(LevelError, match="not a Nivel"):
        Level.from_nivel({})


@given(open_levels() | drawable_levels(with_text=False))
def test_tad_rules_agree_with_the_spec_nivel_valido(lv):
    assert (validate(lv, "tad") == []) == fisica.nivel_valido(lv.to_nivel())


@given(open_levels())
def test_open_levels_are_valid(lv):
    assert validate(lv, "tad") == []


def test_open_levels_reach_negative_coordinates():
    from hypothesis import find, settings
    quick = settings(database=None, derandomize=True)
    lv = find(open_levels(), lambda l: any(x < 0 and y < 0 for x, y in l.positions()),
              settings=quick)
    assert validate(lv, "tad") == []


def test_validation_messages():
    ok = Level(walls={(0, 0)}, boxes={(1, 0)}, goals={(2, 0)}, player=(3, 0))
    assert validate(ok) == []
    assert validate(Level()) == ["no character (player): a level needs exactly one"]
    bad = Level(walls={(0, 0), (1, 0), (2, 0)}, boxes={(1, 0), (5, 5)}, goals={(2, 0)},
                player=(0, 0))
    msgs = validate(bad)
    assert "the character is on a wall at (0, 0)" in msgs
    assert "1 box on a wall: (1, 0)" in msgs
    assert "1 goal on a wall: (2, 0)" in msgs
    assert "2 boxes but 1 goal: the numbers must be equal" in msgs
    on_box = Level(boxes={(1, 1)}, goals={(2, 2)}, player=(1, 1))
    assert validate(on_box) == ["the character is on a box at (1, 1)"]
    with pytest.raises(ValueError):
        validate(ok, "chess")


def test_soko_rules_allow_more_boxes_and_need_an_enclosure():
    from levels import parse_xsb
    (more,) = parse_xsb("######\n#@$$.#\n######\n")
    assert validate(more, "soko") == []
    assert validate(more, "tad") == ["2 boxes but 1 goal: the numbers must be equal"]
    (fewer,) = parse_xsb("######\n#@$..#\n######\n")
    assert "1 box but 2 goals: every goal needs a box" in validate(fewer, "soko")
    (leaky,) = parse_xsb("#####\n#@$.\n#####\n")
    assert validate(leaky, "tad") == []
    assert validate(leaky, "soko") == ["the character is not enclosed by walls: it can walk off the grid"]
    neg = Level(player=(-1, 0))
    assert any("negative" in m for m in validate(neg, "soko"))


def test_messages_give_file_lines_for_boards_read_from_text():
    from levels import parse_xsb
    (lv,) = parse_xsb("; t\n#####\n#@$ #\n#####\n")
    assert validate(lv) == ["1 box but 0 goals: the numbers must be equal"]
    (lv,) = parse_xsb("; t\n\n#####\n#@  #\n#####\n", "f.xsb")
    assert lv.line == 3 and lv.source == "f.xsb"
    lv2 = Level(**{**lv.__dict__, "boxes": frozenset({(0, 1)}), "goals": frozenset({(3, 1)})})
    assert validate(lv2) == ["1 box on a wall: (0, 1) [line 4, column 1]"]
    (rle,) = parse_xsb("5#|#@$ #|5#")  # run-length rows: no reliable column
    assert rle.line is None
    assert validate(rle) == ["1 box but 0 goals: the numbers must be equal"]


def test_rows_and_size_keep_positions():
    lv = Level(walls={(2, 1)}, player=(4, 3))
    assert (lv.width, lv.height) == (5, 4)
    assert lv.rows() == ["", "  #", "", "    @"]
    with pytest.raises(LevelError, match="negative"):
        Level(player=(-1, 0)).rows()
    with pytest.raises(LevelError, match="negative"):
        Level(player=(-1, 0)).rows(strict=False)
    assert Level(player=(-1, 0)).translated(1, 0).rows() == ["@"]


def test_level_is_hashable_and_immutable():
    lv = Level(walls=[(0, 0)], metadata={"a": "b"})
    assert isinstance(lv.walls, frozenset)
    hash(lv)
    with pytest.raises(AttributeError):
        lv.player = (1, 1)


def test_nothing_is_silently_dropped_when_drawing():
    clash = Level(walls={(0, 0), (1, 0)}, boxes={(1, 0)}, goals={(2, 0)}, player=(2, 0))
    with pytest.raises(LevelError, match=r"first at \(1, 0\)"):
        clash.rows()
    assert clash.rows(strict=False) == ["#$+"]
    on_box = Level(boxes={(0, 0)}, goals={(0, 0)}, player=(0, 0))
    assert on_box.undrawable() and on_box.rows(strict=False) == ["+"]
    assert Level(boxes={(0, 0)}, goals={(0, 0)}, player=(1, 0)).undrawable() == []
