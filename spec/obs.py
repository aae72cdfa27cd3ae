"""Observational equality, as the seeds define it.

Seed 000::

    f1 =obs f2 ⇔ ((∀n : Nivel) (computarEstado(f1(n)) =obs computarEstado(f2(n))))
    j1 =obs j2 ⇔ ((∀n : Nivel) (estado(j1(n)) =obs estado(j2(n))))

``f1(n)`` applies a física to a level, which is ill-typed (erratum E15): a
física already carries its level. We read both as equality of the basic
observer. For the extended TADs (ours) every observer is compared, and so is
what ``deshacer`` will show, recursively: two sokos are observationally equal
iff no sequence of operations can tell them apart.
"""

from __future__ import annotations

from spec import extendido, fisica, juego, sokoban


def fisicas_iguales(f1: fisica.Fisica, f2: fisica.Fisica) -> bool:
    """``f1 =obs f2 ⇔ computarEstado(f1) = computarEstado(f2)``."""
    return fisica.computar_estado(f1) == fisica.computar_estado(f2)


def juegos_iguales(j1: juego.Juego, j2: juego.Juego) -> bool:
    """``j1 =obs j2 ⇔ estado(j1) = estado(j2)``."""
    return juego.estado(j1) == juego.estado(j2)


def _observar(s: sokoban.Soko) -> tuple:
    return (sokoban.persona(s), sokoban.cajas(s), sokoban.paredes(s),
            sokoban.depositos(s), sokoban.bombas(s))


def sokos_iguales(s1: sokoban.Soko, s2: sokoban.Soko) -> bool:
    """Same observers now, and after every number of ``deshacer``.

    ``mover`` and ``tirarBomba`` depend only on the observers, so the
    observers of the whole undo chain are all that can tell two sokos apart.
    The walk stops when neither has history left (each step shortens at least
    one chain).
    """
    while True:
        if _observar(s1) != _observar(s2):
            return False
        d1, d2 = sokoban.deshacer(s1), sokoban.deshacer(s2)
        if d1 is s1 and d2 is s2:
            return True
        s1, s2 = d1, d2


def juegos_extendidos_iguales(j1: extendido.JuegoExtendido, j2: extendido.JuegoExtendido) -> bool:
    """Same level index, same pending levels, observationally equal sokos."""
    return (
        extendido.indice_nivel(j1) == extendido.indice_nivel(j2)
        and extendido.niveles_pendientes(j1) == extendido.niveles_pendientes(j2)
        and sokos_iguales(extendido.nivel_actual(j1), extendido.nivel_actual(j2))
    )
