"""Running untrusted programs in a box: one session, limits, nothing left behind.

Three levels, the best the machine offers is used (see
docs/conformance-runner.md for what each guarantees and what it does not):

``"bwrap"``
    bubblewrap: new PID, network, IPC, UTS and mount namespaces; the system
    (``/usr`` and the few ``/etc`` files programs need) read-only; ``/tmp`` a
    private empty tmpfs; ``workdir`` the only other writable place. Run as
    root, the box also runs under a fresh unprivileged uid.
``"user"``
    root without bubblewrap: the program runs under a fresh unprivileged uid
    and gid (no groups), so it cannot write what it does not own (the
    grader's output, other submissions) nor signal the grader.
``"best-effort"``
    neither: own session and process group, resource limits, a private
    working copy. The program runs as the grader's user.

At every level :func:`spawn` puts the program in its own session with
``RLIMIT_AS``, ``RLIMIT_CPU``, ``RLIMIT_FSIZE``, ``RLIMIT_NPROC`` and no core
dumps, and :func:`kill_group` kills every process it started and waits until
none is left (by uid when the box has its own, by PID namespace under
bubblewrap, by process group and descendants otherwise). With a storage
budget, every place the box can write is one tmpfs of the budget's size
whenever the machine lets us mount one (root, or user namespaces: see
:mod:`conformance.sandbox.launcher` and :func:`storage_capped`), at every level;
:class:`Storage` says what the box stores (and otherwise watches it).

``SOKOBAN_ISOLATION`` (an environment variable) asks for a lower level than
the best available, e.g. to test; a level the machine lacks is refused.
"""

from __future__ import annotations

import marshal
import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from functools import lru_cache

# Standard library only, shared with the child.
from conformance.sandbox.child import WALL_FACTOR, set_limit, time_limit_message
import ctypes
import tempfile
from conformance.sandbox import launcher

LEVELS = ("bwrap", "user", "best-effort")
ENV_VAR = "SOKOBAN_ISOLATION"

DEFAULT_MEMORY_MB = 1024
DEFAULT_MAX_PROCESSES = 64
DEFAULT_FILE_SIZE = 64 * 1024 * 1024
DEFAULT_STORAGE_MB = 64                # what a box may store (its /tmp and working folder)
DEFAULT_MAX_FILES = 4096               # files and folders it may create there
#: Folders anyone may write to: at level user a box can store there, as its
#: own uid (top level, and one level down in world-writable folders).
SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
_UID_RANGE = (3_000_000, 3_900_000)    # fresh uids for boxes (no passwd entry needed)
_KILL_PATIENCE = 10.0                  # seconds kill_group keeps trying


class IsolationError(Exception):
    """A level that this machine cannot provide."""


def _root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _reachable(path: str) -> bool:
    """Whether any user can reach and run ``path`` (every folder above it
    searchable by others, the file executable by others)."""
    path = os.path.realpath(path)
    try:
        if not os.stat(path).st_mode & stat.S_IXOTH:
            return False
        folder = os.path.dirname(path)
        while True:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return False
            parent = os.path.dirname(folder)
            if parent == folder:
                return True
            folder = parent
    except OSError:
        return False


@lru_cache(maxsize=None)
def python_for_box() -> str:
    """A Python interpreter a box can run (the sandbox child needs only the
    standard library): ours when every user can reach it, else a system one."""
    candidates = [os.path.realpath(sys.executable)]
    base = getattr(sys, "_base_executable", None)
    if base:
        candidates.append(os.path.realpath(base))
    for name in ("python3", f"python{sys.version_info[0]}.{sys.version_info[1]}"):
        for folder in ("/usr/bin", "/usr/local/bin", "/bin"):
            candidates.append(os.path.join(folder, name))
    for c in candidates:
        if os.path.isfile(c) and (not _root() or _reachable(c)):
            return c
    return candidates[0]


def _ro_binds(extra: tuple[str, ...] = ()) -> list[str]:
    """bwrap arguments: the system read-only, nothing of the rest of the host."""
    args = []
    for top in ("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = "/" + top
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    if os.path.isdir("/usr/lib/debug") and not os.path.islink("/usr"):
        # The system libraries' detached debug information (libc6-dbg...)
        # hidden, read-only and empty: a sanitizer then names the C library's
        # frames by symbol, not by source line, and a dying student program
        # reports in about 0.01 s of CPU instead of 0.12 s (measured). The
        # student's frames come from their program's own debug information.
        args += ["--tmpfs", "/usr/lib/debug", "--remount-ro", "/usr/lib/debug"]
    for name in ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime",
                 "passwd", "group", "nsswitch.conf"):
        path = "/etc/" + name
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    python = python_for_box()
    prefix = os.path.dirname(os.path.dirname(python))
    if not prefix.startswith("/usr") and prefix not in ("/", ""):
        args += ["--ro-bind", prefix, prefix]
    for path in extra:
        args += ["--ro-bind", path, path]
    return args


def _bwrap_argv(argv: list[str], workdir: str, readonly: tuple[str, ...],
                storage_mb: int | None = None, launched: bool = False) -> list[str]:
    # /dev read-only (bwrap's /dev is a tmpfs of its own, /dev/shm included,
    # of no set size). ``launched``: the launcher made /tmp one capped tmpfs
    # holding the working folder (see conformance/launcher.py): the box gets
    # that. Otherwise /tmp is a tmpfs the size of the storage budget (its
    # pages are memory, which RLIMIT_AS does not count) and the working
    # folder the host's.
    if launched:
        places = ["--bind", "/tmp", "/tmp", "--bind", workdir, workdir]
    else:
        size = ["--size", str(int(storage_mb) * 2 ** 20)] if storage_mb else []
        places = [*size, "--tmpfs", "/tmp", "--bind", workdir, workdir]
    return (["bwrap", "--unshare-all", "--die-with-parent", "--new-session",
             "--hostname", "box"]
            + _ro_binds(readonly)
            + ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev", *places,
               "--chdir", workdir, "--"]
            + list(argv))


def _new_uid() -> int:
    return random.SystemRandom().randrange(*_UID_RANGE)


def _prctl():
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _limits(memory_mb, cpu_seconds, max_processes, file_size):
    prctl = _prctl()        # looked up before the fork

    def apply():
        if prctl is not None:
            # Killed when the thread that started it ends (the checker died).
            prctl(1, signal.SIGKILL, 0, 0, 0)          # PR_SET_PDEATHSIG
            # Orphans of the program become its children, not init's, so
            # kill_group finds them below it (kept across exec).
            prctl(36, 1, 0, 0, 0)                       # PR_SET_CHILD_SUBREAPER
        lower = set_limit
        if memory_mb:
            lower(resource.RLIMIT_AS, int(memory_mb) * 1024 * 1024)
        if cpu_seconds:
            lower(resource.RLIMIT_CPU, max(1, int(cpu_seconds + 0.999)))
        if max_processes:
            lower(resource.RLIMIT_NPROC, int(max_processes))
        if file_size is not None:
            lower(resource.RLIMIT_FSIZE, int(file_size))
        lower(resource.RLIMIT_CORE, 0)
    return apply


def _give(path: str, uid: int) -> None:
    """Hand ``path`` (a box's working folder) and everything in it to ``uid``;
    the folders above it must let that uid through."""
    os.chown(path, uid, uid)
    for folder, dirs, files in os.walk(path):
        for name in dirs + files:
            os.lchown(os.path.join(folder, name), uid, uid)
    root = os.path.join(tempfile_root(), "")
    parent = os.path.dirname(os.path.abspath(path))
    while parent.startswith(root):          # only our own temporary folders
        mode = os.stat(parent).st_mode
        if not mode & stat.S_IXOTH:
            os.chmod(parent, stat.S_IMODE(mode) | stat.S_IXOTH)
        parent = os.path.dirname(parent)


def tempfile_root() -> str:
    return os.path.realpath(tempfile.gettempdir())


def _popen(argv, *, workdir, env, stdin, stdout, stderr, pass_fds, uid, limits):
    kwargs = dict(cwd=workdir, env=env, stdin=stdin, stdout=stdout, stderr=stderr,
                  start_new_session=True, close_fds=True, pass_fds=tuple(pass_fds),
                  preexec_fn=limits)
    if uid is not None:
        kwargs.update(user=uid, group=uid, extra_groups=[])
    return subprocess.Popen(argv, **kwargs)


def _default_env(env: dict[str, str] | None, workdir: str) -> dict[str, str]:
    base = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": workdir, "TMPDIR": "/tmp",
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    if env:
        base.update(env)
    return base


_PROBED = "SOKOBAN_ISOLATION_PROBED"   # the probe's answer, inherited by our own subprocesses
_BEST = "SOKOBAN_ISOLATION_BEST"       # the best level alone, when only it was probed (inherited too)


@lru_cache(maxsize=None)
def available_levels() -> tuple[str, ...]:
    """The levels this machine offers, best first (``"best-effort"`` always).
    Probed once (a process tries each level) and passed on to the checker
    processes this one starts."""
    known = _inherited()
    if known is not None:
        return known
    levels = []
    if _works("bwrap"):
        levels.append("bwrap")
    if _root() and _works("user"):
        levels.append("user")
    levels.append("best-effort")
    os.environ[_PROBED] = ",".join(levels)
    return tuple(levels)


def _inherited() -> tuple[str, ...] | None:
    """The levels a parent checker process probed, or None."""
    known = os.environ.get(_PROBED, "").split(",")
    if known[-1:] == ["best-effort"] and all(level in LEVELS for level in known):
        return tuple(known)
    return None


@lru_cache(maxsize=None)
def _works(level: str) -> bool:
    """Whether a box starts at ``level`` here (tried twice: a loaded machine
    may fail once; bwrap only when it is installed)."""
    if level == "bwrap" and not shutil.which("bwrap"):
        return False
    return _probe(level) or _probe(level)


@lru_cache(maxsize=None)
def _best_level() -> str:
    """The first of :func:`available_levels`, probing no further than it:
    when bwrap works, the ``user`` level is not tried (a box started as
    another uid, and a scan of the shared folders for what it left: every
    check paid it as root). Passed on to the checker processes this one
    starts, as the whole list is."""
    known = _inherited()
    if known is not None:
        return known[0]
    if os.environ.get(_BEST) in LEVELS:
        return os.environ[_BEST]
    if _works("bwrap"):
        os.environ[_BEST] = "bwrap"
        return "bwrap"
    return available_levels()[0]


def _probe(level: str) -> bool:
    folder = tempfile.mkdtemp(prefix="sokoban-probe-")
    try:
        proc = spawn([python_for_box(), "-I", "-S", "-c", "import os; print(os.getcwd())"],
                     workdir=folder, level=level, max_processes=16, stderr=subprocess.DEVNULL,
                     stdin=subprocess.DEVNULL)
        try:
            out, _ = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            out = b""
        kill_group(proc)
        return proc.returncode == 0 and out.decode().strip() == folder
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def isolation_level() -> str:
    """The level :func:`spawn` uses by default: the best available, or the
    one ``SOKOBAN_ISOLATION`` asks for."""
    asked = os.environ.get(ENV_VAR, "").strip()
    if not asked:
        return _best_level()
    if asked not in LEVELS:
        raise IsolationError(f"{ENV_VAR}={asked}: not a level ({', '.join(LEVELS)})")
    levels = available_levels()
    if asked not in levels:
        raise IsolationError(f"{ENV_VAR}={asked}: not available on this machine "
                             f"(available: {', '.join(levels)})")
    return asked


def asked_problem() -> str | None:
    """What is wrong with the level ``SOKOBAN_ISOLATION`` asks for (not a
    level, or not available here), or None: the environment's fault, which
    a command says as it is before it opens any target, rather than as a
    target that cannot be loaded."""
    try:
        isolation_level()
    except IsolationError as e:
        return str(e)
    return None


def spawn(argv: list[str], *, workdir: str, memory_mb: int = DEFAULT_MEMORY_MB,
          cpu_seconds: float | None = None, max_processes: int = DEFAULT_MAX_PROCESSES,
          file_size: int = DEFAULT_FILE_SIZE, env: dict[str, str] | None = None,
          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
          level: str | None = None, readonly: tuple[str, ...] = (),
          pass_fds: tuple[int, ...] = (), storage_mb: int | None = None,
          max_files: int = DEFAULT_MAX_FILES, tmpdir: str | None = None) -> subprocess.Popen:
    """Start ``argv`` in a box (see the module docstring).

    ``workdir`` is its working folder and the only place it may write (at
    levels bwrap and user: it is handed to the box's uid when running as
    root); ``argv[0]`` may lie inside it. ``readonly``: more host paths to
    show read-only under bubblewrap (the system is always there).
    ``storage_mb``: the box's storage budget (see :class:`Storage`); when
    it is held by a tmpfs (:func:`storage_capped`), the box works on a copy
    of ``workdir``'s contents in that tmpfs, and what it writes there is not
    seen outside and is gone with it. ``tmpdir``: an empty private folder
    that is the box's ``TMPDIR`` at the levels without a /tmp of their own
    (when the storage is not capped). The returned Popen has ``isolation``
    (the level), ``box_uid`` (or None) and ``storage`` (a :class:`Storage`,
    or None without a budget); always end it with :func:`kill_group`.
    """
    level = level or isolation_level()
    if level not in LEVELS:
        raise IsolationError(f"unknown isolation level {level!r}")
    workdir = os.path.realpath(workdir)
    if tmpdir is not None:
        tmpdir = os.path.realpath(tmpdir)
    uid = None
    if level == "user" and not _root():
        raise IsolationError("isolation level 'user' needs root")
    launched = bool(storage_mb) and storage_capped()
    if level in ("bwrap", "user") and _root():
        uid = _new_uid()
        if not launched:
            _give(workdir, uid)
            if tmpdir is not None and level == "user":
                _give(tmpdir, uid)
    storage = None
    if launched:
        storage = Storage(level, workdir, None, uid, storage_mb, max_files, capped=True)
    elif storage_mb:
        storage = Storage(level, workdir, tmpdir if level != "bwrap" else None, uid,
                          storage_mb, max_files)
    if level == "bwrap":
        argv = _bwrap_argv(argv, workdir, tuple(readonly), storage_mb, launched)
    elif tmpdir is not None and not launched:
        env = {**(env or {}), "TMPDIR": tmpdir}
    if launched:
        argv = [python_for_box(), "-I", "-S", "-B", "-c", _LAUNCHER,
                _launcher_plan(storage), *argv]
    if uid is None and max_processes and not _root():
        # RLIMIT_NPROC counts every process of the real uid: the box shares
        # ours, so it may start max_processes more than we already run.
        max_processes += len(_uid_processes(os.getuid()))
    limits = _limits(memory_mb, cpu_seconds, max_processes, file_size)
    proc = _popen(argv, workdir=workdir, env=_default_env(env, workdir), stdin=stdin,
                  stdout=stdout, stderr=stderr, pass_fds=pass_fds,
                  uid=None if launched else uid, limits=limits)   # the launcher takes uid
    proc.isolation = level
    proc.box_uid = uid
    proc.storage = storage
    if storage is not None:
        storage.pid = proc.pid
    _LIVE.add(proc.pid)
    return proc


# ------------------------------------------------------------------ storage

def _usage(path: str, stop: int | None = None) -> tuple[int, int]:
    """``(bytes, entries)`` under ``path`` (itself not counted): the disk
    blocks of its files and how many files, folders and links it holds;
    symbolic links are not followed. Stops counting past ``stop`` entries."""
    size = entries = 0
    todo = [path]
    while todo:
        try:
            with os.scandir(todo.pop()) as found:
                for entry in found:
                    entries += 1
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    size += info.st_blocks * 512
                    if stat.S_ISDIR(info.st_mode):
                        todo.append(entry.path)
        except OSError:
            continue
        if stop is not None and entries > stop:
            break
    return size, entries


def _owned(uid: int, stop: int | None = None) -> tuple[int, int, list[str]]:
    """What ``uid`` stores in the :data:`SHARED_FOLDERS`: ``(bytes,
    entries, top-level paths)``."""
    size = entries = 0
    paths = []
    folders = list(SHARED_FOLDERS)
    depth = {f: 0 for f in folders}
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as found:
                for entry in found:
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if info.st_uid == uid:
                        used, count = _usage(entry.path, stop) if stat.S_ISDIR(info.st_mode) \
                            else (0, 0)
                        size += info.st_blocks * 512 + used
                        entries += 1 + count
                        paths.append(entry.path)
                    elif (depth[folder] == 0 and stat.S_ISDIR(info.st_mode)
                          and info.st_mode & stat.S_IWOTH):
                        folders.append(entry.path)
                        depth[entry.path] = 1
        except OSError:
            continue
    return size, entries, paths


class Storage:
    """A box's storage budget: at most ``storage_mb`` MB and ``max_files``
    files and folders stored beyond what its working folder held at the
    start, in all the places it can write.

    ``capped`` (:func:`storage_capped`: root, or a user namespace of our
    own): every place the box can write is one tmpfs that the launcher
    (:mod:`conformance.sandbox.launcher`) mounts, of the budget's size plus the
    working copy's: the kernel refuses more, at every level. :meth:`plan` is
    the launcher's order.

    Otherwise it is watched: ``bwrap``: its /tmp (a tmpfs of the budget's
    size: the kernel refuses more) and its working folder. ``user``: its
    working folder, its private ``TMPDIR`` and whatever its uid owns in the
    :data:`SHARED_FOLDERS`. ``best-effort``: its working folder and private
    ``TMPDIR`` only (it runs as the grader's user, who may write elsewhere).

    :meth:`over` says whether the box is past its budget (or, capped, has
    filled its tmpfs); the caller looks often (the sandbox: every 10 ms
    during a call, and after calls) and kills it.
    """

    def __init__(self, level: str, workdir: str, tmpdir: str | None, uid: int | None,
                 storage_mb: int, max_files: int, capped: bool = False):
        self.level, self.workdir, self.tmpdir, self.uid = level, workdir, tmpdir, uid
        self.storage_mb, self.max_files = storage_mb, max_files
        self.limit = int(storage_mb) * 2 ** 20
        self.capped = capped
        self.base = _tmpfs_usage(workdir) if capped else _usage(workdir)
        self.pid: int | None = None
        self._inside: int | None = None   # bwrap: a process in the box's mount namespace
        if capped:
            # The launcher's own folders in the tmpfs: its root, "work", one
            # per shared folder it covers, and the working folder's path
            # inside the cover that holds it.
            self.covers = [f for f in SHARED_FOLDERS
                           if os.path.isdir(f) and not os.path.islink(f)]
            inside = [os.path.relpath(workdir, f) for f in self.covers
                      if workdir.startswith(f.rstrip("/") + "/")][:1]
            self.fixed = 2 + len(self.covers) + sum(len(r.split("/")) for r in inside)

    # -- capped: one tmpfs, as the launcher mounts it
    @property
    def plan_size(self) -> int:
        """The tmpfs' size: the budget, the copy, one page more."""
        return self.limit + self.base[0] + _PAGE

    def plan(self) -> dict:
        """The launcher's order: the tmpfs' size and inodes, each one more
        than the budget (past the copy and the launcher's folders), so that
        a full tmpfs always means "stored more than"."""
        return {"workdir": self.workdir, "uid": self.uid, "cover": self.covers,
                "size": self.plan_size,
                "inodes": self.max_files + 1 + self.base[1] + self.fixed}

    def _tmpfs(self):
        """statvfs of the box's tmpfs, or None while the launcher has not
        mounted it yet (the path is still the host's)."""
        if self.pid is None:
            return None
        try:
            found = os.statvfs(f"/proc/{self.pid}/root{self.workdir}")
        except OSError:
            return None
        return found if found.f_blocks * found.f_frsize == self.plan_size else None

    def used(self) -> tuple[int, int, bool]:
        """``(bytes, entries, full)`` stored now; ``full``: a tmpfs that
        holds the budget refused a write (capped: any place; bwrap: /tmp)."""
        if self.capped:
            tmp = self._tmpfs()
            if tmp is None:
                return 0, 0, False
            size = (tmp.f_blocks - tmp.f_bfree) * tmp.f_frsize - self.base[0]
            entries = tmp.f_files - tmp.f_ffree - self.base[1] - self.fixed
            return size, entries, tmp.f_bavail == 0 or tmp.f_ffree == 0
        stop = self.max_files + self.base[1]
        size, entries = _usage(self.workdir, stop)
        size, entries = size - self.base[0], entries - self.base[1]
        full = False
        if self.tmpdir is not None:
            more, count = _usage(self.tmpdir, stop)
            size, entries = size + more, entries + count
        if self.level == "user" and self.uid is not None:
            more, count, _ = _owned(self.uid, stop)
            size, entries = size + more, entries + count
        if self.level == "bwrap":
            tmp = self._box_tmp()
            if tmp is not None:
                size += (tmp.f_blocks - tmp.f_bfree) * tmp.f_frsize
                entries += max(0, tmp.f_files - tmp.f_ffree - 1)     # less /tmp itself
                full = tmp.f_bavail == 0
        return size, entries, full

    def _box_tmp(self):
        if self._inside is None and self.pid is not None:
            for pid in _proc_entries():
                if _status(pid).get("PPid") == str(self.pid):
                    self._inside = pid
                    break
        if self._inside is None:
            return None
        try:
            tmp = os.statvfs(f"/proc/{self._inside}/root/tmp")
        except OSError:
            return None
        # While bwrap sets the box up, its root is still the host's: only
        # the box's own tmpfs (as large as the budget) counts.
        return tmp if tmp.f_blocks * tmp.f_frsize <= self.limit + 65536 else None

    def over(self) -> str | None:
        """Why the box is past its budget (a verdict's words), or None."""
        size, entries, full = self.used()
        if entries > self.max_files:
            return (f"stored more than {self.max_files} files and folders (the box's "
                    "storage limit)")
        if full or size > self.limit:
            return f"stored more than {self.storage_mb} MB (the box's storage limit)"
        return None


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _tmpfs_usage(path: str) -> tuple[int, int]:
    """``(bytes, entries)`` that a copy of ``path``'s folder takes in a tmpfs
    (what the launcher copies: folders and regular files; a file takes whole
    pages, a folder none)."""
    size = entries = 0
    for folder, dirs, files in os.walk(path):
        for name in dirs:
            if not os.path.islink(os.path.join(folder, name)):
                entries += 1
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]
        for name in files:
            try:
                info = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                entries += 1
                size += -(-info.st_size // _PAGE) * _PAGE
    return size, entries


_LAUNCHER = ""      # the launcher's source, read on first use
_CAPPED = "SOKOBAN_STORAGE_CAPPED_PROBED"   # the probe's answer, inherited like _PROBED


def _launcher_plan(storage: "Storage") -> str:
    """The launcher's argument: ``storage``'s plan as the launcher reads it."""
    return marshal.dumps(storage.plan()).hex()


@lru_cache(maxsize=None)
def storage_capped() -> bool:
    """Whether a box's storage can be one capped tmpfs (the launcher works
    here: root, or unprivileged user namespaces). Probed once; the answer
    is passed on to the checker processes this one starts."""
    global _LAUNCHER
    with open(launcher.__file__, encoding="utf-8") as f:
        _LAUNCHER = f.read()
    known = os.environ.get(_CAPPED)
    if known in ("0", "1"):
        return known == "1"
    folder = tempfile.mkdtemp(prefix="sokoban-probe-")
    ok = False
    try:
        with open(os.path.join(folder, "copied"), "w") as f:
            f.write("yes")
        storage = Storage("best-effort", folder, None, None, 1, 16, capped=True)
        probe = ("import os; print(open('copied').read(), os.statvfs('.').f_blocks "
                 "* os.statvfs('.').f_frsize, os.stat('/tmp').st_dev == os.stat('.').st_dev)")
        proc = subprocess.Popen([python_for_box(), "-I", "-S", "-B", "-c", _LAUNCHER,
                                 _launcher_plan(storage), python_for_box(), "-I", "-S",
                                 "-c", probe], cwd=folder, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        try:
            out, _ = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            out = b""
            proc.wait()
        ok = proc.returncode == 0 and out.split() == [b"yes", str(storage.plan_size).encode(),
                                                      b"True"]
    except OSError:
        ok = False
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    os.environ[_CAPPED] = "1" if ok else "0"
    return ok


_LIVE: set[int] = set()


def keep_tail(stream, keep: int) -> tuple[bytearray, threading.Thread]:
    """Read ``stream`` (a box's stderr) to its end in a daemon thread,
    keeping about its last ``keep`` bytes: ``(the bytes, the thread)``."""
    buf = bytearray()

    def drain():
        try:
            for chunk in iter(lambda: stream.read1(65536), b""):
                buf.extend(chunk)
                if len(buf) > 2 * keep:
                    del buf[:len(buf) - keep]
        except (ValueError, OSError):   # closed under it (the box killed and reaped): its end
            pass
    thread = threading.Thread(target=drain, daemon=True)
    thread.start()
    return buf, thread


def live_boxes() -> set[int]:
    """The pids of the boxes this process started and has not killed yet."""
    return set(_LIVE)


def exit_signal(proc: subprocess.Popen) -> int | None:
    """The signal that ended the boxed program, if one did (bubblewrap
    reports a program killed by signal N as status 128 + N)."""
    code = proc.returncode
    if code is None:
        return None
    if code < 0:
        return -code
    if getattr(proc, "isolation", None) == "bwrap" and 128 < code < 128 + 65:
        return code - 128
    return None


# ------------------------------------------------------------------ time

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(root: int) -> float:
    """The CPU time (user and system) used so far by ``root`` and every
    process below it, with the children they have reaped."""
    total = 0
    for pid in {root} | _descendants(root):
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # Fields 14-17 of proc(5): utime, stime, cutime, cstime (after the
        # state, which is field 3, the first one after the name).
        total += sum(int(x) for x in fields[11:15])
    return total / _TICK


class CallClock:
    """The time limit of one call into the box rooted at ``pid``: the call
    is over its limit once the box has used ``limit`` seconds of CPU time
    since it had run for half its limit (the clock looks at the CPU only
    then, so a quick call costs nothing; an endless loop is stopped within
    one and a half times its limit of CPU time), or after ``WALL_FACTOR``
    times ``limit`` seconds whatever it did."""

    def __init__(self, pid: int | None, limit: float, factor: float = WALL_FACTOR):
        self.pid, self.limit = pid, limit
        self.start = time.monotonic()
        self.wall_limit = limit * factor
        self._cpu_from: float | None = None
        self._next_look = self.start + limit / 2       # the first look at the CPU

    def wait(self) -> float:
        """How long to wait (at most) before asking :meth:`over` again."""
        return max(0.0, min(self._next_look, self.start + self.wall_limit) - time.monotonic())

    def over(self) -> str | None:
        """``None`` while the call is within its limit; else why it is not:
        ``"cpu"`` (it used its CPU time) or ``"wall"`` (it waited too long)."""
        now = time.monotonic()
        if now - self.start >= self.wall_limit:
            return "wall"
        if self.pid is None or now < self._next_look:
            return None
        used = cpu_seconds(self.pid)
        if self._cpu_from is None:
            self._cpu_from = used
        elif used - self._cpu_from >= self.limit:
            return "cpu"
        self._next_look = now + max(0.05, min(0.5, self.limit / 4))
        return None

    def describe(self, why: str) -> str:
        """The sentence a report gives for :meth:`over`'s answer."""
        return time_limit_message(self.limit, waited=why == "wall")


# ------------------------------------------------------------------ killing

def _proc_entries():
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    return [int(n) for n in names if n.isdigit()]


def _status(pid: int) -> dict[str, str]:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8", errors="replace") as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    except OSError:
        return {}


def _alive(status: dict[str, str]) -> bool:
    return bool(status) and not status.get("State", "").startswith(("Z", "X"))


def _descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid in _proc_entries():
        ppid = _status(pid).get("PPid")
        if ppid and ppid.isdigit():
            children.setdefault(int(ppid), []).append(pid)
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _pid_namespace(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def _uid_processes(uid: int) -> list[int]:
    out = []
    for pid in _proc_entries():
        status = _status(pid)
        if _alive(status) and status.get("Uid", "").split()[:1] == [str(uid)]:
            out.append(pid)
    return out


def _namespace_processes(namespaces: set[str]) -> list[int]:
    return [pid for pid in _proc_entries()
            if _pid_namespace(pid) in namespaces and _alive(_status(pid))]


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _frozen_tree(root: int) -> set[int]:
    """Every process below ``root``, stopped (SIGSTOP) so that none can fork
    again between this look and the kill."""
    tree: set[int] = set()
    for _ in range(50):
        found = _descendants(root) - tree
        if not found:
            break
        for pid in found:
            try:
                os.kill(pid, signal.SIGSTOP)
            except (ProcessLookupError, PermissionError):
                pass
        tree |= found
    try:
        os.kill(root, signal.SIGSTOP)
    except (ProcessLookupError, PermissionError):
        pass
    return tree


def kill_group(proc: subprocess.Popen) -> None:
    """Kill everything ``proc`` started (its session, its box uid, its PID
    namespace), reap ``proc``, and return when none of it is left alive."""
    uid = getattr(proc, "box_uid", None)
    _LIVE.discard(proc.pid)
    own_ns = _pid_namespace(os.getpid())
    namespaces: set[str] = set()
    tree: set[int] = set()
    # Once reaped, proc's pid may be another process's: it is signalled only
    # before (a zombie still holds its pid).
    ours = proc.returncode is None
    if ours:
        tree = _frozen_tree(proc.pid)
        if getattr(proc, "isolation", None) == "bwrap":
            namespaces = {ns for ns in map(_pid_namespace, tree) if ns and ns != own_ns}
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if ours:
        _kill(proc.pid)
    for pid in tree:
        _kill(pid)
    try:
        proc.wait(timeout=_KILL_PATIENCE)
    except subprocess.TimeoutExpired:
        pass
    deadline = time.monotonic() + _KILL_PATIENCE
    while time.monotonic() < deadline:
        left = []
        if uid is not None:
            left += _uid_processes(uid)
        if namespaces:
            left += _namespace_processes(namespaces)
        left += [pid for pid in tree if _alive(_status(pid))
                 and _status(pid).get("PPid") != "0"]
        if not left:
            break
        for pid in left:
            _kill(pid)
        time.sleep(0.01)
    if uid is not None and getattr(proc, "isolation", None) == "user":
        # Nothing the box stored outlives it (its uid is never used again).
        for path in _owned(uid)[2]:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    os.unlink(path)
                except OSError:
                    pass
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass
