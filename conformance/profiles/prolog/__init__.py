"""Checking seed 003's SWI-Prolog programs (profile ``prolog``).

A ``.pro`` file, or a folder holding one, that defines ``sokoban/1`` is a
Prolog target (:mod:`.source`). Our driver (``driver.pl``) runs it under
``swipl`` in the project's sandbox (:mod:`.target`); :mod:`.check` compares
its ``action/2`` and ``perform/3`` with the spec at every state of random
plays, and its planner ``sokoban/1`` on small tables (:mod:`.model` says
what seed 003's words mean in the spec's terms). See ``docs/prolog.md``.
"""
