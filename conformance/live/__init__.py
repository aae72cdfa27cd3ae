"""Live checking: the spec beside a student's own code while it runs. The
monitor (:mod:`.monitor`: a student's ``soko.py`` in this process, call by
call) and the referee (:mod:`.referee`: any profile's target played action
by action, for ``sokoban play TARGET``).

May import: :mod:`conformance.checking` and every room below it.
"""
