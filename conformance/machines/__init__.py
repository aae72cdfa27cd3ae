"""The profiles' state machines, one module per profile on a shared base
(:mod:`conformance.machines.base`).

Adding a profile: write its module here (a :class:`~.base.Machine` subclass
with its rules), add a line to :data:`MACHINES`, and its rows to the tables
of :mod:`conformance.api` (``PROFILES`` or ``CPP_PROFILES``,
``REQUIRED_OPERATIONS``, ``GROUPS``, and ``ESSENTIAL_OPERATIONS`` /
``OPAQUE_RESULTS`` where they apply). A profile whose targets are not
:class:`~conformance.api.Target` s (``prolog``: a Prolog program answers
successor lists and plans, not observers) has a machine of its own kind,
whose class methods ``check`` and ``replay`` the engine calls instead of its
own search.
"""

from __future__ import annotations

import importlib

from conformance.machines.base import Machine

#: Each profile's machine, as ``"module:Class"`` (imported when first used).
MACHINES: dict[str, str] = {
    "tad": "conformance.profiles.tad.machine:TadMachine",
    "extendido": "conformance.profiles.extendido.machine:ExtendidoMachine",
    "aed2": "conformance.profiles.aed2.machine:Aed2Machine",
    "soko": "conformance.profiles.soko.machine:SokoMachine",
    "prolog": "conformance.profiles.prolog.machine:PrologMachine",
}


def machine(profile: str) -> type:
    """The machine class of ``profile`` (a key of :data:`MACHINES`): a
    :class:`Machine`, or a machine of its own kind with its own ``check``."""
    module, _, name = MACHINES[profile].partition(":")
    return getattr(importlib.import_module(module), name)
