"""The sorts of seed 000 and the direction convention."""

from spec.tipos import ACCIONES, Accion


def test_accion_vectors_are_the_seed_000_vectors():
    """``Arriba -> <0,-1>``, ``Abajo -> <0,1>``, ``Izquierda -> <-1,0>``, ``Derecha -> <1,0>``."""
    assert [a.value for a in ACCIONES] == [(0, -1), (0, 1), (-1, 0), (1, 0)]


def test_seed_001_names_are_aliases_of_our_members():
    """Seed 001's Norte/Sur/Este/Oeste map onto ours by the reflection y -> -y."""
    assert Accion.NORTE is Accion.ARRIBA and Accion.SUR is Accion.ABAJO
    assert Accion.ESTE is Accion.DERECHA and Accion.OESTE is Accion.IZQUIERDA
    assert len(ACCIONES) == 4
