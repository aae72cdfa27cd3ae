"""The bundled collections."""

import hashlib
from importlib import resources

import pytest

import levels
from levels import LevelError, lurd, validate
from levels.prolog import ring

MICROBAN_SHA256 = "37644019f144005800b85502d61a36f38752d97914b85ca8f3994255c55bd7c1"


def test_microban_is_bundled_byte_for_byte():
    bundled = (resources.files("levels") / "data" / "microban-1.txt").read_bytes()
    # The digest of ../shared/levels/microban-1.txt, the file as published.
    assert hashlib.sha256(bundled).hexdigest() == MICROBAN_SHA256
    assert bundled.count(b"\r") > 1000 and b"\n" not in bundled  # old-Mac CRs kept
    readme = (resources.files("levels") / "data" / "README.md").read_text()
    assert "David W. Skinner" in readme and "properly credited" in readme


def test_all_155_microban_levels_load_and_validate():
    ms = levels.load("microban")
    assert len(ms) == 155
    assert [lv.number for lv in ms] == list(range(1, 156))
    assert all(validate(lv, "tad") == [] and validate(lv, "soko") == [] for lv in ms)
    assert ms[0].title == "1" and ms[43].title == "44 'Duh!'" and ms[154].title == "155 'The Dungeon'"
    # Microban 1 as published.
    assert ms[0].rows() == ["####", "# .#", "#  ###", "#*@  #", "#  $ #", "#  ###", "####"]
    assert ms[0].player == (2, 3) and ms[0].boxes == {(1, 3), (3, 4)}


# Seed 003's six levels, fact by fact, as read in docs/levels.md: (F, C, element).
SEED003 = {
    "Nivel 0": (2, 3, {(1, 2, "j"), (2, 3, "c"), (2, 3, "x")}),
    "Nivel 1": (2, 3, {(1, 2, "j"), (2, 2, "c"), (2, 1, "x")}),
    "Nivel 2": (3, 3, {(1, 1, "j"), (1, 3, "o"), (2, 2, "c"), (2, 3, "x"), (3, 2, "c"), (3, 3, "x")}),
    "Nivel 3": (4, 6, {(1, 1, "x"), (1, 2, "j"), (1, 5, "c"), (1, 6, "o"), (2, 1, "x"), (2, 3, "o"),
                      (2, 5, "c"), (3, 2, "c"), (3, 3, "o"), (4, 6, "x")}),
    "Nivel 4": (7, 3, {(1, 1, "c"), (1, 1, "x"), (1, 3, "x"), (2, 3, "c"), (4, 2, "j"), (4, 3, "c"),
                      (6, 2, "c"), (7, 1, "x"), (7, 3, "x")}),
    "Nivel 5": (7, 10, {(1, 1, "o"), (1, 7, "x"), (2, 1, "x"), (2, 3, "o"), (2, 8, "c"), (3, 5, "c"),
                       (3, 8, "o"), (4, 4, "c"), (4, 5, "j"), (4, 6, "c"), (4, 8, "o"), (5, 5, "c"),
                       (5, 8, "o"), (6, 2, "o"), (6, 5, "x"), (6, 7, "o"), (6, 8, "o"), (7, 1, "x"),
                       (7, 10, "x")}),
}
# The seed's own words for each level: (boxes, goals, obstacles).
COUNTS = {"Nivel 0": (1, 1, 0), "Nivel 1": (1, 1, 0), "Nivel 2": (2, 2, 1),
          "Nivel 3": (3, 3, 3), "Nivel 4": (4, 4, 0), "Nivel 5": (5, 5, 8)}


def test_seed003_levels_are_the_transcription():
    lvs = levels.load("seed003")
    assert [lv.title for lv in lvs] == list(SEED003)
    assert [lv.number for lv in lvs] == [1, 2, 3, 4, 5, 6]
    for lv in lvs:
        rows, cols, facts = SEED003[lv.title]
        pos = lambda el: {(c, f) for f, c, e in facts if e == el}
        assert lv.player == next(iter(pos("j")))
        assert lv.boxes == pos("c") and lv.goals == pos("x")
        assert lv.walls == pos("o") | ring(cols, rows)
        nb, ng, no = COUNTS[lv.title]
        assert (len(lv.boxes), len(lv.goals), len(pos("o"))) == (nb, ng, no)
        assert validate(lv) == [] and validate(lv, "soko") == []


def test_seed003_statements_in_the_text_hold():
    n0, n1 = levels.load("seed003")[:2]
    assert n0.boxes == n0.goals                       # "Resuelto ya de inicio"
    # I = [[j, [1, 2]], [c, [2, 2]]], M = [[c, [2, 1]]] (pista(F, C) is (C, F))
    assert n1.player == (2, 1) and n1.boxes == {(2, 2)} and n1.goals == {(1, 2)}


def test_seed003_short_levels_have_the_solutions_we_found():
    n = levels.load("seed003")
    nivel5 = "LuuurrrrrdLullddrUdlLLLLdlUrrDurrrDlllDurrDurDlllDurrrDullddLLrrrRRRR"
    for lv, sol in ((n[1], "rdL"), (n[2], "dRldR"), (n[4], "urUdDDDLulD"), (n[5], nivel5)):
        assert lurd.solves(lv, sol)
        assert lurd.format(lurd.parse(sol), lurd.push_flags(lv, lurd.parse(sol))) == sol


def test_seed003_nivel3_as_printed_cannot_be_solved():
    nivel3 = levels.load("seed003")[3]
    assert _solvable_without_bombs(nivel3, limit=200000) is False


def test_seed002_is_the_crear_grilla_example():
    (lv,) = levels.load("seed002")
    assert levels.to_soko_desc(lv) == ["#####", "#.$ #", "#@  #", "#####"]


def test_tutorial_teaches_with_bombs():
    tut = levels.load("tutorial")
    assert 5 <= len(tut) <= 8
    assert all(validate(lv) == [] for lv in tut)
    assert all(lv.title and lv.metadata.get("Comment") for lv in tut)
    with_solution = [lv for lv in tut if lv.solutions]
    assert len(with_solution) >= 4
    for lv in with_solution:
        assert all(lurd.solves(lv, s) for s in lv.solutions)
    assert [lv.bombs for lv in tut if lv.bombs] == [1, 1]


def _plays(lv, plan):
    """Play a plan of LURD letters and 'B' (a bomb) through spec.sokoban."""
    from spec import sokoban as S
    s = S.nuevo_soko(lv.to_nivel_extendido())
    for ch in plan:
        if ch == "B":
            s = S.tirar_bomba(s)
        else:
            (a,) = lurd.parse(ch)
            s = S.mover_total(s, a)
    return S.gano(s)


def _solvable_without_bombs(lv, limit=20000):
    """Tiny breadth-first search (the levels are a few cells big): True,
    False (no solution), or None when it gives up after ``limit`` states."""
    from collections import deque
    start = (lv.player, lv.boxes)
    seen, todo = {start}, deque([start])
    while todo:
        if len(seen) > limit:
            return None  # gave up
        p, bs = todo.popleft()
        if bs == lv.goals:
            return True
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            n = (p[0] + dx, p[1] + dy)
            if n in lv.walls:
                continue
            nbs = bs
            if n in bs:
                t = (n[0] + dx, n[1] + dy)
                if t in lv.walls or t in bs:
                    continue
                nbs = (bs - {n}) | {t}
            if (n, nbs) not in seen:
                seen.add((n, nbs))
                todo.append((n, nbs))
    return False


def test_tutorial_bomb_levels_need_their_bomb():
    tut = {lv.title: lv for lv in levels.load("tutorial")}
    bomb, where = tut["A bomb"], tut["Where to throw it"]
    assert _solvable_without_bombs(bomb) is False and _solvable_without_bombs(where) is False
    # Their solutions, with B for tirar_bomba, under Bomb-Solution (INTERFACES).
    assert (bomb.metadata["Bomb-Solution"], where.metadata["Bomb-Solution"]) == ("BRRR", "dBRRR")
    assert _plays(bomb, bomb.metadata["Bomb-Solution"])
    assert _plays(where, where.metadata["Bomb-Solution"])
    assert not _plays(where, "BdRRR")  # thrown from the wrong row
    assert all(_solvable_without_bombs(lv) is True for lv in tut.values() if not lv.bombs)


def test_unknown_collection_is_a_level_error():
    with pytest.raises(LevelError, match="no bundled collection 'nope'"):
        levels.load("nope")


def test_load_returns_fresh_lists():
    a = levels.load("seed002")
    a.clear()
    assert len(levels.load("seed002")) == 1
