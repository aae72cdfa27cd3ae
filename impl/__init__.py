"""impl: seed 001's design (modules Dirección, Mapa, Nivel, Sokoban, Juego),
with every operation O(1), and icontract contracts (see docs/impl.md).

* :mod:`impl.direccion`, :mod:`impl.mapa`, :mod:`impl.nivel`,
  :mod:`impl.sokoban`, :mod:`impl.juego`: the modules, as mutable classes.
* :mod:`impl.extendido`: :mod:`spec.extendido`'s functions over them.
* :mod:`impl.tad`: seed 000's ``iniciar``/``step``/``estado``/``completado``.
* :mod:`impl.contracts`: the on/off switch (``SOKOBAN_CONTRACTS``, ``-O``).
* ``soko`` (top-level module): seed 002's ``soko.py`` API.
"""
