"""Public: finding and loading a target, as the conformance command does
(``load(resolve("soko.py"))``). The tests the check writes in a student's
own format import these two from here, so a pasted test keeps working
whatever the toolkit's inner layout (:mod:`conformance.checking.targets`)."""

from conformance.checking.targets import load, resolve

__all__ = ["load", "resolve"]
