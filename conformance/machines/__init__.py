"""The profiles' state machines, one module per profile on a shared base
(:mod:`conformance.machines.base`).

Adding a profile: write its module here (a :class:`~.base.Machine` subclass
with its rules), add a line to :data:`MACHINES`, and its rows to the tables
of :mod:`conformance.api` (``PROFILES`` or ``CPP_PROFILES``,
``REQUIRED_OPERATIONS``, ``GROUPS``, and ``ESSENTIAL_OPERATIONS`` /
``OPAQUE_RESULTS`` where they apply).
"""

from __future__ import annotations

import importlib

from conformance.machines.base import Machine

#: Each profile's machine, as ``"module:Class"`` (imported when first used).
MACHINES: dict[str, str] = {
    "tad": "conformance.machines.tad:TadMachine",
    "extendido": "conformance.machines.extendido:ExtendidoMachine",
    "aed2": "conformance.machines.aed2:Aed2Machine",
    "soko": "conformance.machines.soko:SokoMachine",
}


def machine(profile: str) -> type[Machine]:
    """The machine class of ``profile`` (a key of :data:`MACHINES`)."""
    module, _, name = MACHINES[profile].partition(":")
    return getattr(importlib.import_module(module), name)
