"""The one place that starts processes for untrusted C++ code (the compiler
on a student's sources, the student's binary).

``conformance.isolation.spawn`` (the project's sandbox) is used when it is
importable; otherwise a plain child in its own session with resource limits
(a fallback until the sandbox lands). Under AddressSanitizer the address
space must not be limited (ASan reserves terabytes of it): pass
``memory_mb=None`` and limit memory with the sanitizer's own
``hard_rss_limit_mb`` instead (see :mod:`.build`)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
from typing import Sequence

PIPE = subprocess.PIPE
#: Largest file the child may write (object files, binaries).
FILE_SIZE = 256 * 1024 * 1024


def _isolation():
    try:
        from conformance import isolation      # the sandbox's module (when merged)
    except ImportError:
        return None
    return isolation


def _limits(memory_mb: int | None, cpu_seconds: int | None, file_size: int):
    def apply() -> None:       # runs in the child, before exec (imports nothing there)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
        if memory_mb is not None:
            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if cpu_seconds is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    return apply


def start(argv: Sequence[str], *, workdir: str, memory_mb: int | None = None,
          cpu_seconds: int | None = None, env: dict | None = None,
          stdin=PIPE, stdout=PIPE, stderr=PIPE) -> subprocess.Popen:
    """Start ``argv`` in ``workdir``, isolated as well as this machine allows."""
    isolation = _isolation()
    if isolation is not None:
        return isolation.spawn(list(argv), workdir=workdir, memory_mb=memory_mb,
                               cpu_seconds=cpu_seconds, file_size=FILE_SIZE, env=env,
                               stdin=stdin, stdout=stdout, stderr=stderr)
    return subprocess.Popen(list(argv), cwd=workdir, env=env, stdin=stdin, stdout=stdout,
                            stderr=stderr, start_new_session=True,
                            preexec_fn=_limits(memory_mb, cpu_seconds, FILE_SIZE))


def kill(proc: subprocess.Popen) -> None:
    """Kill ``proc`` and everything it started; reap it."""
    isolation = _isolation()
    if isolation is not None:
        isolation.kill_group(proc)
        return
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
