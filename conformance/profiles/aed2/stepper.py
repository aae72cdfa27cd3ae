"""Profile aed2's spec stepped by an action letter: extendido's, and every
move made also takes the case of ``mover``'s answer (the check compares it;
the engine computes it from the spec, see ``spec.rules.MOVER_COMPLETA``)."""

from __future__ import annotations

from dataclasses import replace

from conformance.profiles.extendido import stepper as extendido
from spec import rules


def _step(j, code: str):
    after = extendido.step(j, code)
    if after is not None and code not in "bz":
        rules.note(rules.MOVER_COMPLETA)
    return after


STEPPER = replace(extendido.STEPPER, step=_step)
