"""The rule tables (spec/rules.py) and the spec's notes of which case it
took: every case the spec takes belongs to one rule of its profile's table,
every case is reached, tracing never changes a value, and the same observer
is blamed on different rules after different moves."""

from __future__ import annotations

import pathlib
import re

import pytest
from hypothesis import given, strategies as st

from spec import extendido, fisica, grilla, juego, rules, sokoban
from spec.tipos import ACCIONES, Accion
from tests.spec.strategies import (
    MITAD, descripciones, extendido_de, nivel, niveles, niveles_extendidos, operaciones,
)

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "conformance.md"

#: The cases each table's profiles can take (the spec modules they run on).
SPEC_CASES = {
    "tad": [c for c in rules.cases() if c.where.startswith(("spec.fisica", "spec.juego"))],
    # (mover's precondition puedeMover? keeps the physics' blocked cases out, E19)
    "extendido": [c for c in rules.cases() if c.where.startswith(
        ("spec.fisica.simular", "spec.fisica.accionar", "spec.sokoban", "spec.extendido"))
        and c not in (rules.CONTRA_PARED, rules.CAJA_TRABADA, rules.CAJA_QUIETA)]
    + [rules.MOVER_COMPLETA],
    "soko": [c for c in rules.cases() if c.where.startswith(
        ("spec.grilla", "spec.fisica.simular", "spec.fisica.accionar"))],
}


@pytest.mark.parametrize("name", sorted(SPEC_CASES))
def test_every_case_of_a_profiles_spec_is_in_exactly_one_rule(name):
    table = rules.tables()[name]
    for case in SPEC_CASES[name]:
        owners = [r.id for r in table.rules if case in r.cases]
        assert len(owners) == 1, (case.id, owners)
    for r in table.rules:
        for case in r.cases:
            assert case in SPEC_CASES[name], (r.id, case.id)


#: The tables of the spec's own seeds (others, such as seed 003's Prolog
#: table, are registered by the checks that judge them).
SPEC_TABLES = [t for t in rules.tables().values() if t.name in ("tad", "extendido", "soko")]


@pytest.mark.parametrize("table", SPEC_TABLES, ids=lambda t: t.name)
def test_every_rule_is_cited(table):
    for r in table.rules:
        assert r.id.split(".")[0] in ("tad", "ext", "aed2", "soko"), r.id
        assert r.cases and r.text.endswith(".") and r.words and r.needs, r.id
        assert re.match(r"(seed 00\d|the course's)", r.source), r.source
        assert r.cite().startswith(f"{r.id}: {r.text} ({r.source}: \u201c{r.words}\u201d")
        for e in r.errata:
            assert re.fullmatch(r"E\d+", e)


def test_every_erratum_a_rule_names_exists():
    text = (pathlib.Path(rules.__file__).parent / "ERRATA.md").read_text(encoding="utf-8")
    named = {e for t in rules.tables().values() for r in t.rules for e in r.errata}
    for e in named:
        assert f"| {e} |" in text, e


def test_each_profile_has_its_table():
    assert rules.table_for("tad").name == "tad"
    assert rules.table_for("extendido") is rules.table_for("aed2")
    assert rules.table_for("soko").name == "soko"
    with pytest.raises(KeyError):
        rules.table_for("no-such-profile")
    aed2 = {r.id for r in rules.EXTENDIDO.rules_for("aed2")}
    ext = {r.id for r in rules.EXTENDIDO.rules_for("extendido")}
    assert "aed2.completes" in aed2 - ext and "ext.won" in ext - aed2


def test_a_new_table_registers_and_may_not_take_a_profile_twice():
    case = rules.Case("test: a case", rules.PERSONAJE, "tests")
    table = rules.Table("test-only", "seed 003", ("test-only-profile",), (
        rules.Rule("test.one", "one", "One.", "seed 003, rule 1", "words", (case,),
                   needs=("x",)),))
    try:
        rules.register(table)
        assert rules.table_for("test-only-profile") is table
        with pytest.raises(ValueError):
            rules.register(rules.Table("test-other", "x", ("test-only-profile",), ()))
    finally:
        rules._TABLES.pop("test-only", None)
    with pytest.raises(ValueError):
        rules.Table("bad", "x", ("p",), (rules.Rule("a", "", "", "", "", (case,)),
                                         rules.Rule("b", "", "", "", "", (case,))))


def test_a_missing_operation_costs_the_rules_that_need_it():
    lost = {r.id for r in rules.SOKO.needing(["juego_ganado"])}
    assert lost == {"soko.won"}
    lost = {r.id for r in rules.SOKO.needing(["hay_objetivo", "dimensiones"])}
    assert lost == {"soko.goals", "soko.size"}


# ------------------------------------------------------------------ tracing

def test_off_a_note_records_nothing_and_tracing_nests():
    rules.note(rules.ME_MUEVO)      # no trace on: nothing to record into, no error
    with rules.tracing() as outer:
        rules.note(rules.ME_MUEVO)
        with rules.tracing() as inner:
            rules.note(rules.CONTRA_PARED)
        rules.note(rules.EMPUJO)
    assert outer.case_of(rules.PERSONAJE) is rules.EMPUJO
    assert inner.case_of(rules.PERSONAJE) is rules.CONTRA_PARED


def test_a_case_for_every_value_is_overridden_only_by_later_ones():
    t = rules.Trace(keep_events=True)
    t.add(rules.ME_MUEVO)
    t.add(rules.DESHACER_MOVER)
    assert t.case_of(rules.PERSONAJE) is rules.DESHACER_MOVER
    assert t.case_of(rules.BOMBAS) is rules.DESHACER_MOVER
    t.add(rules.BOMBAS_AL_MOVER)
    assert t.case_of(rules.BOMBAS) is rules.BOMBAS_AL_MOVER
    assert t.case_of(rules.PERSONAJE) is rules.DESHACER_MOVER
    assert t.events == [rules.ME_MUEVO, rules.DESHACER_MOVER, rules.BOMBAS_AL_MOVER]
    assert rules.Trace().case_of(rules.PERSONAJE) is None
    going_on = rules.Trace(t)
    assert going_on.case_of(rules.BOMBAS) is rules.BOMBAS_AL_MOVER and going_on.events is None
    counts = {}
    for trace in (rules.Trace(counts=counts), rules.Trace(counts=counts)):
        trace.add(rules.ME_MUEVO)
        trace.add(rules.EMPUJO)
    trace.add(rules.ME_MUEVO)
    assert counts == {rules.ME_MUEVO: 3, rules.EMPUJO: 2}
    by_rule = rules.SOKO.exercised(counts, "soko")
    assert by_rule["soko.step"] == 3 and by_rule["soko.push"] == 2 and by_rule["soko.won"] == 0
    assert list(by_rule) == list(rules.SOKO.ids)


def _play_tad(n, plan):
    j = juego.iniciar(n)
    states = [(juego.estado(j), juego.completado(j))]
    for a in plan:
        j = juego.step(j, a)
        states.append((juego.estado(j), juego.completado(j)))
    return states


@MITAD
@given(niveles(), st.lists(st.sampled_from(ACCIONES), max_size=10))
def test_tracing_changes_no_value_of_the_spec(n, plan):
    plain = _play_tad(n, plan)
    with rules.tracing():
        traced = _play_tad(n, plan)
    assert plain == traced


def _seen(run) -> set[rules.Case]:
    t = rules.Trace(keep_events=True)
    with rules.tracing(t):
        run()
    return set(t.events)


def _tad_run(n, plan):
    return lambda: _play_tad(n, plan)


def _ext_run(ns, ops):
    def run():
        j = extendido.nuevo_juego(ns)
        for op in ops:
            if op[0] == "mover":
                j = extendido.mover_total(j, op[1])
            elif op[0] == "bomba" and extendido.bombas(j) > 0:
                j = extendido.tirar_bomba(j)
            elif op[0] == "deshacer":
                j = extendido.deshacer(j)
            extendido.gano(j)
            for a in ACCIONES:
                extendido.puede_mover(j, a)
    return run


def _soko_run(desc, plan):
    def run():
        g = grilla.crear_grilla(desc)
        for a in plan:
            g = grilla.mover(g, a.value)
            grilla.juego_ganado(g)
    return run


# Hand-made plays that reach every case (the random ones below may miss some).
_RING = [(x, y) for x in range(-1, 6) for y in (-1, 3)] + [(x, y) for x in (-1, 5) for y in range(3)]
_EXAMPLES = {
    "tad": [_tad_run(nivel((0, 1), [(1, 1), (3, 1)], [(2, 1), (4, 0)], _RING),
                     [Accion.DERECHA, Accion.DERECHA, Accion.ARRIBA, Accion.ARRIBA,
                      Accion.ABAJO, Accion.DERECHA])],
    "extendido": [_ext_run([extendido_de(nivel((0, 0), [(1, 0)], [(2, 0)], [(0, 1), (3, 0)]), 1),
                            extendido_de(nivel((0, 0), [(1, 0), (2, 0)], [(1, 1), (2, 1)]), 1)],
                           [("mover", Accion.ARRIBA), ("deshacer",), ("bomba",), ("deshacer",),
                            ("deshacer",), ("mover", Accion.DERECHA), ("deshacer",),
                            ("mover", Accion.DERECHA), ("bomba",)])],
    "soko": [_soko_run(["######", "#@$ .#", "#$$*.#", "######"],
                       [Accion.ARRIBA, Accion.ABAJO, Accion.DERECHA, Accion.DERECHA,
                        Accion.IZQUIERDA, Accion.ABAJO])],
}


@pytest.mark.parametrize("name", sorted(_EXAMPLES))
def test_every_case_is_reached_by_the_spec(name):
    seen = set()
    for run in _EXAMPLES[name]:
        seen |= _seen(run)
    expected = set(SPEC_CASES[name]) - {rules.MOVER_COMPLETA}     # noted by the engine
    assert expected - seen == set(), sorted(c.id for c in expected - seen)


@MITAD
@given(niveles(), st.lists(st.sampled_from(ACCIONES), max_size=10),
       st.lists(niveles_extendidos(max_cajas=1), min_size=1, max_size=3), operaciones,
       descripciones(), st.lists(st.sampled_from(ACCIONES), max_size=10))
def test_every_case_taken_on_random_play_has_a_rule(n, plan, ns, ops, desc, moves):
    for name, run in (("tad", _tad_run(n, plan)), ("extendido", _ext_run(ns, ops)),
                      ("soko", _soko_run(desc, moves))):
        table = rules.tables()[name]
        for case in _seen(run):
            assert table.rule_for(case) is not None, (name, case.id)


# ------------------------------------------------------------------ blame

def _soko_blame(desc, plan, operation):
    t = rules.Trace()
    with rules.tracing(t):
        g = grilla.crear_grilla(desc)
        for a in plan:
            g = grilla.mover(g, a)
    return rules.SOKO.blame(operation, t).id


def test_the_same_observer_is_blamed_on_the_rule_of_the_last_case():
    room = ["#######", "#@$ $$#", "#  .  #", "#######"]
    assert _soko_blame(room, [], "hay_caja(grilla, 2, 1)") == "soko.read"
    assert _soko_blame(room, [(1, 0)], "hay_caja(grilla, 3, 1)") == "soko.push"
    assert _soko_blame(room, [(1, 0), (1, 0)], "hay_caja(grilla, 3, 1)") == "soko.push-blocked"
    assert _soko_blame(room, [(0, 1)], "hay_caja(grilla, 2, 1)") == "soko.step"
    assert _soko_blame(room, [(-1, 0)], "hay_jugador(grilla, 1, 1)") == "soko.wall-stops"
    assert _soko_blame(room, [(0, 1)], "hay_objetivo(grilla, 3, 2)") == "soko.goals"
    assert _soko_blame(room, [], "hay_objetivo(grilla, 3, 2)") == "soko.goals"
    assert _soko_blame(room, [(0, 1)], "dimensiones(grilla)") == "soko.size"
    assert _soko_blame(room, [(0, 1)], "hay_pared(grilla, 0, 0)") == "soko.walls"
    assert _soko_blame(room, [(-1, 0)], "__equal__") == "soko.blocked-same"
    assert _soko_blame(room, [(1, 0)], "__fingerprint__") == "soko.new-grid"


def test_extended_blame_follows_undo_bombs_and_advances():
    n1 = extendido_de(nivel((0, 0), [(1, 0)], [(2, 0)], [(0, 2), (5, 5)]), 1)
    n2 = extendido_de(nivel((0, 0), [(1, 0)], [(1, 1)]), 0)
    t = rules.Trace()
    table = rules.EXTENDIDO
    with rules.tracing(t):
        j = extendido.nuevo_juego([n1, n2])
        assert table.blame("indice_nivel", t).id == "ext.start"
        j = extendido.tirar_bomba(j)
        assert table.blame("hay_pared", t).id == "ext.bomb"
        assert table.blame("bombas", t).id == "ext.bomb-count"
        assert table.blame("hay_caja", t).id == "ext.bomb"
        j = extendido.deshacer(j)
        assert table.blame("hay_pared", t).id == "ext.undo"
        j = extendido.deshacer(j)
        assert table.blame("persona", t).id == "ext.undo-empty"
        j = extendido.mover(j, Accion.DERECHA)       # wins level 1: level 2 starts
        assert extendido.indice_nivel(j) == 1
        assert table.blame("persona", t).id == "ext.advance"
        assert table.blame("hay_caja", t).id == "ext.advance"
        extendido.puede_mover(j, Accion.IZQUIERDA)
        assert table.blame("puede_mover", t).id == "ext.can-move"
    t2 = rules.Trace()
    with rules.tracing(t2):
        s = sokoban.nuevo_soko(n1)
        assert table.blame("hay_deposito", t2).id == "ext.depots"
        sokoban.mover(s, Accion.ABAJO)
        assert table.blame("persona", t2).id == "ext.step"
        assert table.blame("hay_pared", t2).id == "ext.walls"
        assert table.blame("bombas", t2).id == "ext.step"


def test_tad_blame():
    t = rules.Trace()
    with rules.tracing(t):
        j = juego.iniciar(nivel((0, 0), [(1, 0)], [(2, 0)], [(-1, 0)]))
        assert rules.TAD.blame("estado['cajas']", t).id == "tad.start"
        j = juego.step(j, Accion.IZQUIERDA)
        assert rules.TAD.blame("estado['personaje']", t).id == "tad.wall-stops"
        assert rules.TAD.blame("estado['depósitos']", t).id == "tad.depots"
        j = juego.step(j, Accion.DERECHA)
        assert rules.TAD.blame("estado['cajas']", t).id == "tad.push"
        juego.completado(j)
        assert rules.TAD.blame("completado", t).id == "tad.won"
    f = fisica.crear_fisica(nivel((0, 0), [(1, 0), (2, 0)], [(5, 5), (6, 6)]))
    with rules.tracing() as t:
        fisica.simular_accion(f, Accion.DERECHA)
    assert rules.TAD.rule_for(t.case_of(rules.CAJAS)).id == "tad.push-blocked"


# --------------------------------------------------------------------- docs

@pytest.mark.parametrize("table", rules.tables().values(), ids=lambda t: t.name)
def test_docs_show_every_table(table):
    assert table.markdown() in DOCS.read_text(encoding="utf-8"), (
        f"docs/conformance.md lacks the {table.name} table as rules.{table.name.upper()}"
        ".markdown() prints it")
