"""The seeds' TADs as pure reference functions (the oracle of this project).

* :mod:`spec.fisica`, :mod:`spec.juego`: seed 000, TAD Física and TAD Juego.
* :mod:`spec.sokoban`, :mod:`spec.extendido`: the TAD behind seed 001's design
  (bombs, undo, a sequence of levels), written by us in the same style.
* :mod:`spec.grilla`: seed 002's ``soko.py`` semantics.
* :mod:`spec.obs`: observational equality as the seeds define it.
* :mod:`spec.rules`: the seeds' rules, one table per profile, and the cases
  the other modules note as they take them (which rule produced a value).

``spec`` imports nothing else of this project, and nothing here mutates.
"""


class PreconditionError(ValueError):
    """A spec operation was applied outside its precondition (the TAD leaves it
    undefined, so the reference refuses to answer)."""
