"""The spec as the independent oracle (issue 2): it imports nothing of ours
but itself, its values are immutable, and every operation says in its
docstring which axiom it encodes."""

import ast
import dataclasses
import inspect
import pathlib
import sys

import pytest

import spec
from spec import extendido, fisica, grilla, juego, literal, obs, sokoban, tipos
from tests.spec.strategies import extendido_de, nivel

MODULOS = [tipos, fisica, juego, sokoban, extendido, grilla, obs, literal]
RAIZ = pathlib.Path(spec.__file__).parent


def _importados(ruta):
    arbol = ast.parse(ruta.read_text(encoding="utf-8"))
    for nodo in ast.walk(arbol):
        if isinstance(nodo, ast.Import):
            yield from (a.name for a in nodo.names)
        elif isinstance(nodo, ast.ImportFrom):
            assert nodo.level == 0, f"{ruta.name}: relative import"
            yield nodo.module


@pytest.mark.parametrize("ruta", sorted(RAIZ.glob("*.py")), ids=lambda p: p.name)
def test_spec_solo_importa_spec_y_la_biblioteca_estandar(ruta):
    """``spec`` imports nothing of ours: only ``spec`` itself and the
    standard library (no impl, levels, conformance, nor third-party code)."""
    for nombre in _importados(ruta):
        raiz = nombre.split(".")[0]
        assert raiz == "spec" or raiz in sys.stdlib_module_names, f"{ruta.name} imports {nombre}"


def _valores():
    n = nivel((1, 0), cajas=[(2, 0)], depositos=[(4, 0)], paredes=[(0, 0)])
    s = sokoban.nuevo_soko(extendido_de(n, 1))
    return [
        fisica.crear_fisica(n),
        juego.iniciar(n),
        s,
        sokoban.mover(s, tipos.Accion.DERECHA),
        extendido.nuevo_juego([extendido_de(n)]),
        grilla.crear_grilla(["#####", "#@$.#", "#####"]),
    ]


@pytest.mark.parametrize("valor", _valores(), ids=lambda v: type(v).__name__)
def test_los_valores_son_inmutables(valor):
    """Every spec value is a frozen record of frozensets, ints and tuples: no
    field can be reassigned and no field holds a mutable container."""
    campo = dataclasses.fields(valor)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(valor, campo, None)
    for f in dataclasses.fields(valor):
        assert not isinstance(getattr(valor, f.name), (set, list, dict)), f.name


@pytest.mark.parametrize("modulo", MODULOS, ids=lambda m: m.__name__)
def test_cada_operacion_esta_documentada(modulo):
    """Each public function has a docstring (the axiom it encodes, in the
    seed's notation, or what it is for)."""
    for nombre, f in inspect.getmembers(modulo, inspect.isfunction):
        if f.__module__ == modulo.__name__ and not nombre.startswith("_"):
            assert inspect.getdoc(f), f"{modulo.__name__}.{nombre}"


@pytest.mark.parametrize("nombre, funcion", [
    ("crearFísica", fisica.crear_fisica), ("simularAcción", fisica.simular_accion),
    ("computarEstado", fisica.computar_estado), ("accionarPersonaje", fisica.accionar_personaje),
    ("accionarCaja", fisica.accionar_caja), ("moverCaja", fisica.mover_caja),
    ("nivelVálido?", fisica.nivel_valido), ("esPared?", fisica.es_pared),
    ("esCaja?", fisica.es_caja), ("estáLibre?", fisica.esta_libre),
    ("seSolapan?", fisica.se_solapan), ("ningunoDeXenY", fisica.ninguno_de_x_en_y),
    ("sumar2Tuplas", fisica.sumar_2_tuplas), ("sumar3Tuplas", fisica.sumar_3_tuplas),
    ("iniciar", juego.iniciar), ("step", juego.step), ("completado?", juego.completado),
    ("todoEnOrden", juego.todo_en_orden),
])
def test_cada_funcion_cita_su_axioma(nombre, funcion):
    """A teacher can lay the file beside the seed: each function of seed 000
    quotes the seed's operation by its seed name."""
    assert nombre in inspect.getdoc(funcion)


@pytest.mark.parametrize("valor", [
    v for v in _valores()
], ids=lambda v: type(v).__name__)
def test_los_valores_son_hashables(valor):
    """Immutable values can be dict keys and set members (a visited set of
    states, a memo of positions): equal values hash equal."""
    copia = dataclasses.replace(valor)
    assert copia == valor
    assert hash(copia) == hash(valor)
    assert len({valor, copia}) == 1
