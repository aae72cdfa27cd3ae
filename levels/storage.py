"""Where and how the toolkit writes files: its cache folder, and atomic
writes that respect the umask (one home for both; every writer uses them:
level files, verdict files, the compiled solver kernel and C++ builds)."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path
from typing import Iterator

#: The application's folder name under the user's cache folder.
APPLICATION = "sokoban-tad"


def cache_dir(*parts: str) -> Path:
    """``$XDG_CACHE_HOME/sokoban-tad/PARTS`` (default ``~/.cache``); not created."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, APPLICATION, *parts)


def current_umask() -> int:
    """The process's umask (read without changing it where Linux allows)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: set and restore at once
    os.umask(mask)
    return mask


def new_file_mode(executable: bool = False) -> int:
    """The mode a new file gets from the umask (``0o666``, or ``0o777`` for a program)."""
    return (0o777 if executable else 0o666) & ~current_umask()


@contextlib.contextmanager
def atomic_path(path, *, mode: int | None = None, replace: bool = True,
                prefix: str = ".sokoban-") -> Iterator[str]:
    """Write ``path`` atomically: yields the name of a temporary file in
    ``path``'s folder to write; when the block ends without an exception the
    file gets ``mode`` (default: :func:`new_file_mode`, not ``mkstemp``'s
    ``0o600``) and takes ``path``'s place, so a reader never sees half a file.
    ``replace=False``: only if ``path`` does not exist (a hard link, which
    fails with :class:`FileExistsError` if it appeared meanwhile). Whatever
    fails, the temporary file is removed and ``path`` is left as it was."""
    target = os.fspath(path)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(target)), prefix=prefix,
                               suffix=".tmp")
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, new_file_mode() if mode is None else mode)
        if replace:
            os.replace(tmp, target)
            return
        try:
            os.link(tmp, target)
        except FileExistsError:
            raise
        except OSError:                     # no hard links here: check, then move
            if os.path.lexists(target):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), target) from None
            os.replace(tmp, target)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
