"""conformance: any implementation and the spec, driven side by side.

Its rooms, each importing only those below it (import-linter's ``rooms``
contract in pyproject.toml; docs/INTERFACES.md):

* the entry points and the public modules: ``__main__`` (``python -m
  conformance``), ``pytest_plugin`` (``pytest --sokoban-impl``),
  ``targets`` (``load``, ``resolve``: what a test written by the check
  imports) and ``monitor`` (``monitored``);
* :mod:`.commands`: check, grade, selftest, monitor;
* :mod:`.live`: the monitor and the referee of ``sokoban play``;
* :mod:`.checking`: running a check (targets, the engine, the one budget,
  the report at the end);
* :mod:`.profiles`: every profile, one object each, and their registry;
* :mod:`.reports`: verdicts as text and files, points by rule;
* :mod:`.machines` (what a profile is built from) beside :mod:`.sandbox`
  (where untrusted code runs);
* :mod:`.api` (the boundary's data types), :mod:`.mutants` (data) and
  :mod:`.translations` (messages in the students' language, ``--lang``).
"""
