"""The commands: ``python -m conformance`` / ``sokoban check`` (:mod:`.cli`,
its options :mod:`.arguments`), ``grade`` (:mod:`.grade`), ``selftest``
(:mod:`.selftest`) and ``monitor`` (:mod:`.monitor_run`). They parse, print
and write files; the work is the rooms' below.

May import: every room of ``conformance`` but the entry points.
"""
