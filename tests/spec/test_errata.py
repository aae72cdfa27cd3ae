"""One test per entry of ``spec/ERRATA.md``: each pins the choice we made where
a seed is wrong, ill-typed or silent, and where possible shows the seed's
literal reading failing."""

import inspect

import pytest

from spec import PreconditionError, extendido, fisica, grilla, juego, literal, obs, sokoban
from spec.tipos import BOMBAS, CAJAS, DEPOSITOS, PAREDES, PERSONAJE, Accion

D, I, A, B = Accion.DERECHA, Accion.IZQUIERDA, Accion.ARRIBA, Accion.ABAJO


from tests.spec.strategies import extendido_de, nivel


# A corridor: wall, character, box, floor, depot, wall.
PASILLO = nivel((1, 0), cajas=[(2, 0)], depositos=[(4, 0)], paredes=[(0, 0), (5, 0)])


def test_e1_unsolved_levels_are_valid():
    assert literal.nivel_valido(PASILLO) is False, "the seed's text rejects any unsolved level"
    assert fisica.nivel_valido(PASILLO) is True
    # ... while the box count must still match the depot count.
    assert fisica.nivel_valido(nivel((1, 0), cajas=[(2, 0)], depositos=[(4, 0), (3, 1)])) is False


def test_e2_se_solapan_means_overlap():
    a, b = frozenset({(0, 0)}), frozenset({(1, 1)})
    assert literal.se_solapan(a, b) is True, "the seed's seSolapan? is true on disjoint sets"
    assert fisica.se_solapan(a, b) is False
    assert fisica.se_solapan(a, a | b) is True
    # With the literal seSolapan?, walls must overlap the boxes for a level to be valid:
    solved = nivel((1, 0), cajas=[(2, 0)], depositos=[(2, 0)], paredes=[(0, 0)])
    assert literal.nivel_valido(solved) is False
    assert fisica.nivel_valido(solved) is True
    # and a box on a wall is rejected by ours.
    assert fisica.nivel_valido(nivel((1, 0), cajas=[(0, 0)], depositos=[(3, 0)], paredes=[(0, 0)])) is False


def test_e3_accionar_caja_without_a_box_keeps_the_boxes():
    f = fisica.crear_fisica(PASILLO)
    assert fisica.accionar_caja(f, (0, 1)) == fisica.cajas(f)        # nothing in front
    assert fisica.accionar_caja(f, (-1, 0)) == fisica.cajas(f)       # a wall in front


def test_e4_positions_are_ints_and_can_be_negative():
    f = fisica.crear_fisica(nivel((0, 0), cajas=[(0, -1)], depositos=[(5, 5)]))
    f = fisica.simular_accion(f, A)
    assert fisica.personaje(f) == (0, -1)
    assert fisica.cajas(f) == frozenset({(0, -2)})


def test_e5_and_e6_pushing_moves_exactly_the_box_in_front():
    n = nivel((1, 0), cajas=[(2, 0), (2, 1)], depositos=[(4, 0), (4, 1)], paredes=[(0, 0)])
    f = fisica.simular_accion(fisica.crear_fisica(n), D)
    assert fisica.cajas(f) == frozenset({(3, 0), (2, 1)})
    assert fisica.personaje(f) == (2, 0)
    assert fisica.mover_caja((2, 0), frozenset({(2, 0), (2, 1)}), (1, 0)) == frozenset({(3, 0), (2, 1)})


def test_e6_mover_caja_is_defined_only_on_a_box():
    with pytest.raises(PreconditionError):
        fisica.mover_caja((9, 9), frozenset({(2, 0)}), (1, 0))


def test_e7_step_simulates_on_the_games_own_fisica():
    j = juego.iniciar(PASILLO)
    assert juego.estado(juego.step(j, D)) == fisica.computar_estado(
        fisica.simular_accion(fisica.crear_fisica(PASILLO), D))


def test_e8_seed_001_directions_map_by_reflection():
    seed_001 = {"NORTE": (0, 1), "SUR": (0, -1), "ESTE": (1, 0), "OESTE": (-1, 0)}
    for name, (x, y) in seed_001.items():
        assert Accion[name].value == (x, -y)
    assert Accion.NORTE is Accion.ARRIBA


def test_e9_estado_keeps_the_character_as_a_singleton_set():
    f = fisica.crear_fisica(PASILLO)
    assert fisica.computar_estado(f) == PASILLO
    e = fisica.computar_estado(fisica.simular_accion(f, D))
    assert e[PERSONAJE] == frozenset({(2, 0)})
    assert fisica.nivel_valido(e)


def test_e10_extended_tads_exist_with_their_axioms():
    for op in ("nuevo_soko", "mover", "tirar_bomba", "deshacer"):
        assert "≡" in inspect.getdoc(getattr(sokoban, op)), op
    assert "axiomas" in inspect.getdoc(extendido)


def test_e11_undo_after_a_level_advance_changes_nothing():
    uno = extendido_de(nivel((1, 0), cajas=[(2, 0)], depositos=[(3, 0)], paredes=[(0, 0)]))
    dos = extendido_de(PASILLO)
    j = extendido.mover(extendido.nuevo_juego([uno, dos]), D)
    assert extendido.indice_nivel(j) == 1
    assert obs.juegos_extendidos_iguales(extendido.deshacer(j), j)


def test_e12_every_level_of_the_sequence_must_be_valid():
    malo = extendido_de(nivel((1, 0), cajas=[(2, 0)], depositos=[]))
    with pytest.raises(PreconditionError, match="level 1"):
        extendido.nuevo_juego([extendido_de(PASILLO), malo])
    with pytest.raises(PreconditionError, match="empty"):
        extendido.nuevo_juego([])


def test_e13_pending_levels_are_those_after_the_current_one():
    a, b, c = (extendido_de(PASILLO, k) for k in range(3))
    j = extendido.nuevo_juego([a, b, c])
    assert extendido.niveles_pendientes(j) == (b, c)


def test_e14_grid_must_enclose_the_player():
    with pytest.raises(PreconditionError, match="enclosed"):
        grilla.crear_grilla(["#####", "#@$. ", "#####"])
    # A ragged grid that is enclosed is fine.
    g = grilla.crear_grilla(["####", "#@$.#", "#####"])
    assert grilla.dimensiones(g) == (5, 3)


def test_e15_observational_equality_compares_the_basic_observer():
    f = fisica.crear_fisica(PASILLO)
    atras = fisica.simular_accion(f, I)  # blocked by the wall: same state
    assert obs.fisicas_iguales(f, atras)
    assert not obs.fisicas_iguales(f, fisica.simular_accion(f, D))
    j = juego.iniciar(PASILLO)
    assert obs.juegos_iguales(j, juego.step(j, I))


def test_e16_a_bomb_costs_one_and_undo_returns_it():
    n = extendido_de(nivel((1, 1), cajas=[(3, 3)], depositos=[(4, 4)],
                           paredes=[(1, 50), (-7, 1), (2, 2), (0, 0)]), bombas=2)
    s = sokoban.tirar_bomba(sokoban.nuevo_soko(n))
    assert sokoban.bombas(s) == 1
    assert sokoban.paredes(s) == frozenset({(2, 2), (0, 0)})
    back = sokoban.deshacer(s)
    assert sokoban.bombas(back) == 2 and sokoban.paredes(back) == n[PAREDES]


def test_e17_moving_into_a_box_pushes_it():
    s = sokoban.mover(sokoban.nuevo_soko(extendido_de(PASILLO)), D)
    assert sokoban.cajas(s) == frozenset({(3, 0)}) and sokoban.persona(s) == (2, 0)
    assert sokoban.cajas(sokoban.deshacer(s)) == frozenset({(2, 0)})


def test_e18_winning_differs_between_seed_000_and_seed_002():
    g = grilla.crear_grilla(["######", "#@*$ #", "######"])
    assert grilla.juego_ganado(g), "seed 002: every goal has a box, boxes may outnumber goals"
    with pytest.raises(PreconditionError):
        fisica.crear_fisica(nivel((1, 1), cajas=[(2, 1), (3, 1)], depositos=[(2, 1)]))
    s = sokoban.nuevo_soko(extendido_de(nivel((1, 1), cajas=[(2, 1)], depositos=[(2, 1)])))
    assert sokoban.gano(s)


def test_e19_mover_has_a_precondition_mover_total_does_not():
    s = sokoban.nuevo_soko(extendido_de(PASILLO))
    with pytest.raises(PreconditionError):
        sokoban.mover(s, I)
    assert sokoban.mover_total(s, I) is s
    assert sokoban.deshacer(sokoban.mover_total(s, I)) is s


def test_e20_winning_the_last_level_stays_on_it():
    uno = extendido_de(nivel((1, 0), cajas=[(2, 0)], depositos=[(3, 0)], paredes=[(0, 0)]))
    j = extendido.mover(extendido.nuevo_juego([uno]), D)
    assert extendido.indice_nivel(j) == 0 and extendido.gano(j)
    assert extendido.niveles_pendientes(j) == ()


def test_e21_dame_uno_is_deterministic():
    c = frozenset({(3, 1), (0, 5), (2, 2)})
    assert fisica.dame_uno(c) == (0, 5)
    assert fisica.sin_uno(c) == frozenset({(3, 1), (2, 2)})
    with pytest.raises(PreconditionError):
        fisica.dame_uno(frozenset())


# ------------------------------------------------ seed 002 vs the course (E24-E27)

def _soko_namespace(**overrides):
    """Seed 002's API over spec.grilla (a correct target), with some
    operations replaced."""
    import types
    ops = {name: getattr(grilla, name) for name in (
        "crear_grilla", "dimensiones", "hay_pared", "hay_objetivo", "hay_caja",
        "hay_jugador", "juego_ganado", "mover")}
    ops.update(overrides)
    return types.SimpleNamespace(**ops)


def _check_soko(namespace, **kwargs):
    from conformance.checking import engine
    from conformance.sandbox.box import InProcessTarget
    from conformance.checking.targets import ResolvedTarget
    target = InProcessTarget(ResolvedTarget(name="errata-target", kind="module", module="x"),
                             namespace=namespace)
    from conformance.reports.report import write_reports
    verdict = engine.check(target, "soko", max_examples=15, seed=3, shrink=False, **kwargs)
    write_reports(verdict)      # its findings as text, as a check writes them at its end
    return verdict


def test_e24_the_default_check_draws_only_rectangular_grids():
    from hypothesis import HealthCheck, given, settings
    from conformance import profiles
    from conformance.machines import levels as lv

    assert not lv.in_domain(profiles.get("soko").domain, lv.from_rows(["####", "#@$.#", "#####"], soko=True))
    assert lv.in_domain(profiles.get("soko").domain, lv.from_rows(["#####", "#@$.#", "#####"], soko=True))

    @settings(max_examples=60, database=None, suppress_health_check=list(HealthCheck))
    @given(lv.scenes(profiles.get("soko").domain))
    def rectangular(scene):
        assert len({len(r) for r in scene.desc}) == 1, scene.desc

    rectangular()
    # A student whose code only works on rectangular grids (as grilla[f][c]
    # with no bounds check does) conforms; --robustness reports it, as a
    # warning only.
    def crear_grilla(desc):
        if len({len(fila) for fila in desc}) != 1:
            raise IndexError("string index out of range")
        return grilla.crear_grilla(desc)
    verdict = _check_soko(_soko_namespace(crear_grilla=crear_grilla), robustness=True)
    assert verdict.conforms
    assert len(verdict.robustness) == 1 and "IndexError" in verdict.robustness[0]


def test_e25_fewer_boxes_than_goals_is_accepted_but_not_drawn():
    # The course's test: the player on the only goal and no box; one box, two goals.
    g = grilla.crear_grilla(["#####", "# + #", "#   #", "#####"])
    assert not grilla.juego_ganado(g)
    g = grilla.mover(g, (0, 1))
    assert grilla.hay_objetivo(g, 2, 1) and grilla.hay_jugador(g, 2, 2)
    g = grilla.crear_grilla(["#######", "# @*. #", "#######"])
    g = grilla.mover(g, (1, 0))
    assert grilla.hay_caja(g, 4, 1) and not grilla.juego_ganado(g)
    # ... while the default check only draws at least as many boxes as goals.
    from conformance import profiles
    from conformance.machines import levels as lv
    assert not lv.in_domain(profiles.get("soko").domain, lv.from_rows(["#####", "#@..#", "#$  #", "#####"], soko=True))
    assert lv.in_domain(profiles.get("soko").domain, lv.from_rows(["#####", "#@..#", "#$  #", "#####"], soko=True),
                        robustness=True)


def test_e26_boolean_observers_are_compared_by_truth_value():
    def juego_ganado(g):
        return True if grilla.juego_ganado(g) else None      # None for False
    verdict = _check_soko(_soko_namespace(juego_ganado=juego_ganado))
    assert verdict.conforms
    assert any(w.startswith("juego_ganado returned None where seed 002 says True/False")
               for w in verdict.warnings)
    strict = _check_soko(_soko_namespace(juego_ganado=juego_ganado), strict_types=True)
    assert not strict.conforms and strict.counterexample.operation.startswith("juego_ganado")
    # A truth value that is wrong is a departure either way.
    def hay_caja(g, c, f):
        return 0
    assert not _check_soko(_soko_namespace(hay_caja=hay_caja)).conforms


def test_e27_a_grid_without_a_goal_is_won_but_not_judged():
    no_goal = ["#####", "#@$ #", "#####"]
    assert grilla.juego_ganado(grilla.crear_grilla(no_goal))          # the letter: won
    # A student who asks for "some goal, and every goal covered" differs from
    # the letter only on goal-less grids: it conforms.
    def some_goal_and_all_covered(g):
        w, h = grilla.dimensiones(g)
        goals = [(c, f) for f in range(h) for c in range(w) if grilla.hay_objetivo(g, c, f)]
        return bool(goals) and all(grilla.hay_caja(g, c, f) for c, f in goals)
    assert _check_soko(_soko_namespace(juego_ganado=some_goal_and_all_covered)).conforms
    # "No box off a goal" is still wrong with more boxes than goals, and
    # still caught (on a grid that has a goal).
    def no_box_off_a_goal(g):
        w, h = grilla.dimensiones(g)
        return not any(grilla.hay_caja(g, c, f) and not grilla.hay_objetivo(g, c, f)
                       for f in range(h) for c in range(w))
    verdict = _check_soko(_soko_namespace(juego_ganado=no_box_off_a_goal))
    assert not verdict.conforms
    assert verdict.counterexample.operation.startswith("juego_ganado")
    assert "." in verdict.counterexample.level_text or "*" in verdict.counterexample.level_text \
        or "+" in verdict.counterexample.level_text


# ------------------------------------------------ seed 003's text vs its program (E28)

def test_e28_a_final_state_has_every_box_on_a_destination_in_any_order():
    """Seed 003's program unifies its state with the destinations in the
    order of the facts; the document's final state (and ours) has every box
    on a destination, whichever."""
    from conformance.profiles.prolog import model
    crossed = model.Table(1, 3, ((1, 1, "j"), (1, 2, "c"), (1, 3, "c"),
                                 (1, 3, "x"), (1, 2, "x")))
    assert crossed.solved(crossed.initial())
    assert model.shortest(crossed) == 0 and model.solve(crossed) == []
    # Seed 003's level 4, its facts in the published order: 11 moves; yet no
    # state it can reach has box i (in the order of the facts, which every
    # push keeps) on destination i: its program can never find a plan.
    level4 = model.Table(7, 3, ((4, 2, "j"), (1, 1, "c"), (2, 3, "c"), (4, 3, "c"), (6, 2, "c"),
                                (1, 1, "x"), (1, 3, "x"), (7, 1, "x"), (7, 3, "x")))
    plan = model.solve(level4)
    assert len(plan) == 11 and level4.solved(plan[-1].after)
    in_order = tuple((c, f) for f, c, e in level4.pistas if e == "x")
    seen, todo = {level4.initial()}, [level4.initial()]
    while todo:
        for step in model.legal(level4, todo.pop()):
            if step.after not in seen:
                seen.add(step.after)
                todo.append(step.after)
    assert all(state.boxes != in_order for state in seen)
