"""Public: the spec beside a student's own ``soko.py`` in this process, call
by call (``monitored("soko.py")``; :mod:`conformance.live.monitor`)."""

from conformance.live.monitor import CallersFault, DepartureError, monitored

__all__ = ["CallersFault", "DepartureError", "monitored"]
