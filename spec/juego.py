"""TAD Juego (seed 000), axiom by axiom, over :mod:`spec.fisica`."""

from __future__ import annotations

from dataclasses import dataclass

from spec import fisica
from spec.rules import COMPLETADO, note
from spec.tipos import CAJAS, DEPOSITOS, Accion, Estado, Nivel


@dataclass(frozen=True)
class Juego:
    """género ``juego``: the física it plays on (no behaviour)."""

    fisica: fisica.Fisica


def iniciar(n: Nivel) -> Juego:
    """``iniciar : Nivel n → juego  { nivelVálido?(n) }``::

        estado(iniciar(n)) ≡ computarEstado(crearFísica(n))   -- uso de Física
    """
    return Juego(fisica.crear_fisica(n))


def step(j: Juego, a: Accion) -> Juego:
    """``step : juego × Acción → juego``::

        estado(step(j, a)) ≡ computarEstado(simularAcción(a))   -- uso de Física

    The seed drops the física argument of ``simularAcción`` (erratum E7); the
    only física a juego has is its own, so we simulate on it.
    """
    return Juego(fisica.simular_accion(j.fisica, a))


def estado(j: Juego) -> Estado:
    """``estado : juego → Estado`` (the basic observer)."""
    return fisica.computar_estado(j.fisica)


def completado(j: Juego) -> bool:
    """``completado? : juego → bool``::

        completado?(iniciar(n))   ≡ todoEnOrden(n)
        completado?(step(j, a))   ≡ todoEnOrden(estado(step(j, a)))

    Both axioms say ``todoEnOrden(estado(j))``, since
    ``estado(iniciar(n)) ≡ n``.
    """
    note(COMPLETADO)
    return todo_en_orden(estado(j))


def todo_en_orden(e: Estado) -> bool:
    """``todoEnOrden(e) ≡ e["cajas"] = e["depósitos"]``."""
    return e[CAJAS] == e[DEPOSITOS]
