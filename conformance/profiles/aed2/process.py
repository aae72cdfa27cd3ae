"""The one place that starts processes for untrusted C++ code (the compiler
on a student's sources, the student's binary): boxes of
:mod:`conformance.sandbox.isolation`, like every other submission.

Under AddressSanitizer the address space must not be limited (ASan reserves
terabytes of it): pass ``memory_mb=None`` and limit memory with the
sanitizer's own ``hard_rss_limit_mb`` instead (see :mod:`.build`). The
compiler needs more processes than a submission (``cc1plus``, ``as``,
``collect2``, ``ld``)."""

from __future__ import annotations

import subprocess
from typing import Sequence

from conformance.sandbox import isolation

PIPE = subprocess.PIPE
#: Largest file the child may write (object files, binaries).
FILE_SIZE = 256 * 1024 * 1024
#: Processes a box may run at once (the compiler's driver and its tools).
MAX_PROCESSES = 16


def start(argv: Sequence[str], *, workdir: str, memory_mb: int | None = None,
          cpu_seconds: int | None = None, env: dict | None = None,
          stdin=PIPE, stdout=PIPE, stderr=PIPE,
          storage_mb: int | None = None) -> subprocess.Popen:
    """Start ``argv`` in a box whose only writable place is ``workdir``.
    ``storage_mb``: what it may store there and in /tmp (see
    :class:`conformance.sandbox.isolation.Storage`; None for the compiler, which
    needs room): the student's binary runs with one, the compiler without."""
    return isolation.spawn(list(argv), workdir=workdir, memory_mb=memory_mb,
                           cpu_seconds=cpu_seconds, max_processes=MAX_PROCESSES,
                           file_size=FILE_SIZE, env=env, stdin=stdin, stdout=stdout,
                           stderr=stderr, storage_mb=storage_mb)


def kill(proc: subprocess.Popen) -> None:
    """Kill ``proc`` and everything it started; reap it."""
    isolation.kill_group(proc)
