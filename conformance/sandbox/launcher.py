"""A box's storage, held by the kernel. STANDARD LIBRARY ONLY.

:func:`conformance.sandbox.isolation.spawn` runs this file's *source* in a fresh
``python -I -S`` (like the sandbox child) when a box has a storage budget
and the machine lets it mount: as root, or in a user namespace of its own.
It is the box's first program, and it execs the real one in its place:

1. a mount namespace of its own (and, without root, a user namespace mapping
   only the caller's uid and gid), so that nothing it mounts is seen by the
   host and everything it mounts goes away with the box's last process;
2. one tmpfs of a fixed ``size`` and number of inodes (the storage budget,
   plus what the working copy takes): the kernel refuses any write past it
   ("no space left on device");
3. the working folder's contents copied into that tmpfs, which is then
   mounted at the working folder's own path, and the world-writable shared
   folders (``/tmp``, ``/var/tmp``, ``/dev/shm``, ``/run/lock``) covered by
   empty folders of the same tmpfs: every place the box can write is one
   tmpfs, so all it stores, in all of them, is capped together;
4. as root, the box's uid and gid taken (no groups) before the exec; left
   root (level ``best-effort`` as root), ``CAP_SYS_ADMIN`` dropped from the
   bounding set so that the program cannot unmount what caps it.

Its only argument is the plan (see :meth:`Storage.plan` in the parent), in
``marshal``'s format, in hex; the program to run follows. Failures are told
on stderr with status 125. It imports only what starts fast (no ``json``,
no ``shutil``: together they took half its CPU time): it runs at every
start of a box.
"""

import ctypes
import marshal
import os
import stat
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER, PR_CAPBSET_DROP = 1, 36, 24
CAP_SYS_ADMIN = 21
SIGKILL = 9
STATUS = 125                     # the launcher itself failed

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result, what):
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _mount(source, target, fstype, flags, data=None):
    _check(_libc.mount(source.encode() if source else None, target.encode(),
                       fstype.encode() if fstype else None, ctypes.c_ulong(flags),
                       data.encode() if data else None), f"mount {target}")


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def _copy_file(source, dest):
    with open(source, "rb") as f, open(dest, "wb") as out:
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                return
            out.write(chunk)


def _copy(source, dest, uid):
    """Copy the folder ``source`` into ``dest`` (both exist); hand it to ``uid``."""
    for entry in os.scandir(source):
        target = os.path.join(dest, entry.name)
        if entry.is_dir(follow_symlinks=False):
            os.mkdir(target, 0o700)
            _copy(entry.path, target, uid)
        elif entry.is_file(follow_symlinks=False):
            _copy_file(entry.path, target)
            os.chmod(target, stat.S_IMODE(entry.stat(follow_symlinks=False).st_mode) & 0o700)
        else:
            continue
        if uid is not None:
            os.lchown(target, uid, uid)


def _makedirs(path, mode):
    if not os.path.isdir(path):
        _makedirs(os.path.dirname(path), 0o711)
        os.mkdir(path)
        os.chmod(path, mode)


def setup(plan):
    """Steps 1-4 of the module docstring for ``plan``."""
    workdir, uid = plan["workdir"], plan.get("uid")
    root = os.geteuid() == 0
    if root:
        _check(_libc.unshare(CLONE_NEWNS), "unshare")
    else:
        me, group = os.getuid(), os.getgid()
        _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWUSER), "unshare")
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{me} {me} 1")
        _write("/proc/self/gid_map", f"{group} {group} 1")
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    # The working copy on the host, reachable through this descriptor once
    # the tmpfs covers its path.
    source = os.open(workdir, os.O_RDONLY | os.O_DIRECTORY)
    _mount("box", workdir, "tmpfs", 0,
           f"size={plan['size']},nr_inodes={plan['inodes']},mode=0711")
    store = os.open(workdir, os.O_RDONLY | os.O_DIRECTORY)      # the tmpfs' root
    top = f"/proc/self/fd/{store}"
    work = os.path.join(top, "work")
    os.mkdir(work, 0o700)
    _copy(f"/proc/self/fd/{source}", work, uid)
    if uid is not None:
        os.chown(work, uid, uid)
    os.close(source)
    covers = []
    for i, shared in enumerate(plan["cover"]):
        if not os.path.isdir(shared) or os.path.islink(shared):
            continue
        inside = os.path.join(top, f"shared{i}")
        os.mkdir(inside)
        os.chmod(inside, 0o1777)
        covers.append((inside, shared))
    # The working folder at its own path: inside the cover of the shared
    # folder that holds it (that cover hides the host's copy), else on top
    # of the tmpfs' own mount point.
    home = workdir
    for inside, shared in covers:
        if workdir.startswith(shared.rstrip("/") + "/"):
            home = os.path.join(inside, os.path.relpath(workdir, shared))
            _makedirs(home, 0o700)
            break
    _mount(work, home, None, MS_BIND | MS_REC)
    for inside, shared in covers:
        _mount(inside, shared, None, MS_BIND | MS_REC)
    os.close(store)
    os.chdir(workdir)
    prctl = _libc.prctl
    if root and uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    elif root:
        _check(prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0), "prctl")
    # Cleared by the change of credentials: set again.
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def main(argv):
    plan, program = marshal.loads(bytes.fromhex(argv[1])), argv[2:]
    try:
        setup(plan)
        os.execvp(program[0], program)
    except OSError as e:
        sys.stderr.write(f"sokoban box launcher: {e}\n")
        sys.stderr.flush()
        os._exit(STATUS)


if __name__ == "__main__":
    main(sys.argv)
