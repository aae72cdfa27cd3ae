"""The sandbox child (``conformance/sandbox/child.py``, standard library only) keeps
its own copies of the special operations' names, the action names and their
vectors: they must equal the originals in ``conformance.api``,
``spec.tipos`` and ``conformance.checking.targets``."""

from __future__ import annotations

from conformance import api

from conformance.sandbox import child

from conformance.checking import targets
from spec.tipos import ACCIONES, Accion


def test_the_special_operations_are_the_apis():
    assert (child.FINGERPRINT, child.EQUAL, child.BATCH, child.RESET, child.OPAQUE) == (
        api.FINGERPRINT, api.EQUAL, api.BATCH, api.RESET, api.OPAQUE)
    assert set(api.SPECIAL_OPERATIONS) == {child.FINGERPRINT, child.EQUAL, child.BATCH,
                                           child.RESET, child.OPAQUE}


def test_the_actions_and_their_aliases_are_spec_tipos():
    assert set(child.ACTIONS) == {a.name for a in ACCIONES}
    for alias, name in child.ACTION_ALIASES.items():
        assert Accion[alias] is Accion[name]
    assert {alias for alias in Accion.__members__ if alias not in child.ACTIONS} == set(
        child.ACTION_ALIASES)


def test_the_vectors_are_the_actions_values_in_each_convention():
    assert tuple(child.VECTORS) == targets.DIRECTIONS
    assert child.VECTORS["ours"] == {a.name: a.value for a in ACCIONES}
    # seed 001 draws y growing north: the reflection y -> -y (docs/INTERFACES.md)
    assert child.VECTORS["seed001"] == {a.name: (a.value[0], -a.value[1]) for a in ACCIONES}
