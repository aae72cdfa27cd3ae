"""Line spectra: which lines of a target's own files ran. STANDARD LIBRARY ONLY.

Used only while a check localises a departure it has already found and
shrunk (``conformance.checking.localize``), never during the search: a
correct target is never traced. Like :mod:`conformance.sandbox.child`, this
file is both a module of ours (the in-process host imports it) and source
the sandbox child runs: the parent hands its text to the child beside the
child's own, and the child compiles it only on the first ``__spectra__``
request. Do not import ``conformance``, ``spec``, ``impl`` or ``levels``
here.

A :class:`Recorder` watches the files under one folder (the target's own:
its file's folder, or its package's parent) and answers, per ``take``, the
lines of those files that ran since the previous ``take`` as plain data,
``[[path relative to the folder, line, function's qualified name], ...]``.
Each line comes with the operations (``Recorder.op``, set by the host
before each call) it ran under: ``[path, line, function, [operations]]``.
On Python 3.12 and later it uses ``sys.monitoring`` (the lines of other
files disabled at their first event); on 3.11, ``sys.settrace`` with a
local tracer only in the target's own frames.
"""

import os
import sys

#: The ``sys.monitoring`` tool ids a recorder may take (3 and 4 are free for
#: tools other than debuggers, coverage, profilers and optimizers).
_TOOL_IDS = (3, 4)
_NAME = "sokoban-spectra"


class Recorder:
    """The lines of the files under ``root`` that run between two ``take``."""

    def __init__(self, root):
        self.root = os.path.realpath(root) + os.sep
        self.hits = {}                 # (relative path, line) -> [qualified name, {operations}]
        #: The operation being called (the host sets it before each call):
        #: each line is reported with the operations it ran under.
        self.op = ""
        self.own = {}                  # co_filename -> relative path, or None (not ours)
        self.on = False
        self.tool = None

    # -- which files are the target's own
    def relative(self, filename):
        found = self.own.get(filename, 0)
        if found != 0:
            return found
        real = os.path.realpath(filename) if filename and not filename.startswith("<") else ""
        found = real[len(self.root):] if real.startswith(self.root) else None
        self.own[filename] = found
        return found

    # -- the commands
    def start(self):
        """Record from now on (again, after ``stop``); idempotent."""
        if self.on:
            return
        if hasattr(sys, "monitoring"):
            self._start_monitoring()
        else:
            sys.settrace(self._global)
        self.on = True

    def stop(self):
        if not self.on:
            return
        if self.tool is not None:
            monitoring = sys.monitoring
            monitoring.set_events(self.tool, 0)
            monitoring.register_callback(self.tool, monitoring.events.LINE, None)
            monitoring.free_tool_id(self.tool)
            self.tool = None
        else:
            sys.settrace(None)
        self.on = False

    def take(self):
        """The lines that ran since the last ``take`` (or ``start``), sorted,
        and forget them."""
        hits, self.hits = self.hits, {}
        return [[path, line, name, sorted(ops)] for (path, line), (name, ops) in sorted(hits.items())]

    # -- Python 3.12+: sys.monitoring
    def _start_monitoring(self):
        monitoring = sys.monitoring
        for tool in _TOOL_IDS:
            if monitoring.get_tool(tool) is None:
                monitoring.use_tool_id(tool, _NAME)
                self.tool = tool
                break
        else:
            raise RuntimeError("no sys.monitoring tool id is free")
        disable, relative = monitoring.DISABLE, self.relative

        def line(code, number):
            path = relative(code.co_filename)
            if path is None:
                return disable              # not the target's: never reported again
            self._hit(path, number, code.co_qualname)
            return None

        monitoring.register_callback(self.tool, monitoring.events.LINE, line)
        monitoring.set_events(self.tool, monitoring.events.LINE)

    # -- Python 3.11: sys.settrace
    def _global(self, frame, event, arg):
        code = frame.f_code
        path = self.relative(code.co_filename)
        if path is None:
            return None
        name = code.co_qualname

        def local(frame, event, arg):
            if event == "line":
                self._hit(path, frame.f_lineno, name)
            return local
        return local

    def _hit(self, path, line, name):
        found = self.hits.get((path, line))
        if found is None:
            self.hits[(path, line)] = [name, {self.op}]
        else:
            found[1].add(self.op)


def answer(recorder, command):
    """What the ``__spectra__`` request ``command`` answers (plain data):
    ``"start"``, ``"stop"`` -> None; ``"take"`` -> the lines (see
    :meth:`Recorder.take`)."""
    if command == "start":
        recorder.start()
        return None
    if command == "stop":
        recorder.stop()
        return None
    if command == "take":
        return recorder.take()
    raise ValueError(f"unknown spectra command {command!r}")
