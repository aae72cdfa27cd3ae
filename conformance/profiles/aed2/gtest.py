"""Google Test cases compiled and run against a C++ folder, with the real library.

What a student does with an emitted case: paste it into the course's test
file (a ``JuegoTest`` fixture, ``TEST_F`` cases) and build it with Google
Test and their sources. :func:`build_tests` does the same with any test
file's text and a folder, in a given build (plain ``-g``, or the sanitizer
flags a memory-only case names), and :func:`run_case` runs one case.

The library: the system's (Debian/Ubuntu ``libgtest-dev``: headers and
``libgtest.a``). A build with ``-D_GLIBCXX_SANITIZE_VECTOR`` needs the
library compiled with that flag too (its vectors and the test's must agree
on the annotations), so it is compiled from the sources the same package
installs (``/usr/src/googletest``), once per flags (cached). Without the
library :func:`library` says what to install (:func:`missing`).

Every compiler and test run goes through :func:`conformance.profiles.aed2.process.start`
(the sandbox), like the check's own build: the folder is untrusted code.
Objects are cached under the build cache by the hash of the compiler, the
flags, the source and the folder's headers, so the sources a mutant shares
with the reference are compiled once.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from conformance.profiles.aed2 import sanitizer
from conformance.profiles.aed2.build import (
    BuildError, _run, cache_root, collect, compile_cached, compiler, compiler_version,
    first_errors, put_in_cache,
)
from conformance.profiles.aed2.process import kill, start

#: Where Debian's libgtest-dev puts Google Test's sources.
GTEST_SOURCES = Path("/usr/src/googletest/googletest")
#: Seconds a test binary may run.
RUN_SECONDS = 60


@dataclass(frozen=True)
class Library:
    include: tuple[str, ...]    # -I flags ("" for the system's)
    link: tuple[str, ...]       # what to link: archives or -l flags
    origin: str                 # for messages: where it comes from


def missing() -> str:
    """Why there is no library, and what to install."""
    return ("Google Test was not found (headers and libgtest): install it to run the emitted "
            "cases (Debian/Ubuntu: sudo apt-get install libgtest-dev)")


def _cache() -> Path:
    root = cache_root() / "gtest"
    root.mkdir(parents=True, exist_ok=True)
    return root


def _key(*parts: bytes | str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()[:24]


def library(flags: str = "") -> Library | None:
    """The library to link tests built with ``flags``, or None."""
    gpp = compiler()
    version = compiler_version(gpp)
    if sanitizer.VECTOR_FLAG in flags.split():
        return _from_sources(gpp, version, flags)
    mark = _cache() / ("system-" + _key(version))
    if not mark.exists():
        with tempfile.TemporaryDirectory(prefix="aed2-gtest-probe-") as tmp:
            Path(tmp, "t.cpp").write_text("#include <gtest/gtest.h>\nTEST(A, b) { EXPECT_EQ(1, 1); }\n")
            code, _ = _run([gpp, "t.cpp", "-o", "t", "-lgtest", "-lgtest_main", "-pthread"],
                           Path(tmp))
        mark.write_text("yes" if code == 0 else "no")
    if mark.read_text() != "yes":
        return None
    return Library((), ("-lgtest", "-lgtest_main", "-pthread"), "the system's libgtest")


def _from_sources(gpp: str, version: str, flags: str) -> Library | None:
    src = GTEST_SOURCES / "src"
    if not (src / "gtest-all.cc").is_file():
        return None
    include = ("-I" + str(GTEST_SOURCES / "include"),)
    archive = _cache() / ("lib-" + _key(version, flags, (src / "gtest-all.cc").read_bytes()) + ".a")
    if not archive.exists():
        with tempfile.TemporaryDirectory(prefix="aed2-gtest-lib-") as tmp:
            work = Path(tmp)
            for name in ("gtest-all.cc", "gtest_main.cc"):
                code, out = _run([gpp, *flags.split(), *include, "-I" + str(GTEST_SOURCES),
                                  "-c", str(src / name), "-o", name + ".o"], work)
                if code != 0:
                    raise BuildError(f"Google Test's sources do not compile with {flags}:\n{out[-2000:]}")
            code, out = _run(["ar", "rcs", "libgtest.a", "gtest-all.cc.o", "gtest_main.cc.o"], work)
            if code != 0:
                raise BuildError(f"cannot archive Google Test: {out[-500:]}")
            put_in_cache(archive, work / "libgtest.a")
    return Library(include, (str(archive), "-pthread"),
                   f"Google Test compiled from {GTEST_SOURCES} with {flags}")


def adapt(course_file: str) -> str:
    """A course's test file made to build with :func:`build_tests`: its
    bundled ``gtest-1.8.1/gtest.h`` becomes the library's ``gtest/gtest.h``
    and ``../src/X.h`` becomes ``X.h`` (the folder's headers are on the
    include path)."""
    text = re.sub(r'#\s*include\s*"[^"]*gtest\.h"', "#include <gtest/gtest.h>", course_file)
    return re.sub(r'#(\s*)include\s*"(?:\.\./)*src/([^"]+)"', r'#\1include "\2"', text)


def build_tests(test_text: str, folder: str | os.PathLike, flags: str = "-g", *,
                std: str = "c++17", lib: Library | None = None) -> Path:
    """A test binary: ``test_text`` (a test file: its includes, fixture and
    ``TEST_F`` cases; ``#include "aed2_Juego.h"`` finds the folder's header)
    built with ``flags`` and the ``.cpp`` files of ``folder`` that
    :func:`conformance.profiles.aed2.build.collect` compiles. Cached; raises
    :class:`BuildError` (no library, compile or link errors). ``lib``:
    another library than :func:`library`'s (a stand-in)."""
    folder = Path(folder).resolve()
    lib = lib or library(flags)
    if lib is None:
        raise BuildError(missing())
    gpp = compiler()
    version = compiler_version(gpp)
    headers, sources, _ = collect(folder)
    # The box sees only its folder (and the system): the library's headers
    # are copied in as include0, include1...
    base = [f"-std={std}", *flags.split(), "-Isrc", "-w",
            *(f"-Iinclude{i}" for i in range(len(lib.include)))]
    library_files = b"".join(p.as_posix().encode() + p.read_bytes()
                             for flag in lib.include for p in sorted(Path(flag[2:]).rglob("*"))
                             if p.is_file())
    key = _key(version, " ".join(base), " ".join(lib.link), library_files, test_text,
               *(p.name.encode() + p.read_bytes() for p in headers + sources))
    binary = _cache() / ("test-" + key)
    if binary.exists():
        return binary
    with tempfile.TemporaryDirectory(prefix="aed2-gtest-") as tmp:
        work = Path(tmp)
        (work / "src").mkdir()
        for p in headers + sources:
            shutil.copyfile(p, work / "src" / p.name)
        (work / "tests.cpp").write_text(test_text)
        for i, flag in enumerate(lib.include):
            shutil.copytree(flag[2:], work / f"include{i}")
        shared = (version, " ".join(base), library_files,
                  b"".join(p.name.encode() + p.read_bytes() for p in headers))
        units = ["tests.cpp"] + [f"src/{p.name}" for p in sources]
        objects = []
        for i, unit in enumerate(units):
            code, out = compile_cached(gpp, base, work, unit, f"unit{i}.o", shared)
            if code != 0:
                raise BuildError(f"{folder}: the tests do not compile with {flags}:\n"
                                 + first_errors(out, work, folder))
            objects.append(f"unit{i}.o")
        link = []
        for item in lib.link:           # the box sees only its folder: archives go there
            if os.path.isabs(item):
                shutil.copyfile(item, work / os.path.basename(item))
                item = os.path.basename(item)
            link.append(item)
        code, out = _run([gpp, *base, *objects, *link, "-o", "tests"], work)
        if code != 0:
            raise BuildError(f"{folder}: the tests do not link with {lib.origin}:\n{out[-2000:]}")
        put_in_cache(binary, work / "tests")
    return binary


@dataclass(frozen=True)
class Outcome:
    passed: bool
    output: str                 # the binary's output (its failures, a sanitizer's report)


def run_case(binary: Path, name: str, *, sanitized: bool) -> Outcome:
    """Run the one case ``JuegoTest.name`` (or a full ``Suite.name``) of ``binary``."""
    full = name if "." in name else f"JuegoTest.{name}"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C",
           "ASAN_OPTIONS": "detect_leaks=0", "UBSAN_OPTIONS": "print_stacktrace=1"}
    with tempfile.TemporaryDirectory(prefix="aed2-gtest-run-") as tmp:
        local = Path(tmp, "tests")
        shutil.copy2(binary, local)
        proc = start([str(local), f"--gtest_filter={full}"], workdir=tmp,
                     memory_mb=None if sanitized else 1024, env=env,
                     stdin=subprocess.DEVNULL)
        try:
            out, err = proc.communicate(timeout=RUN_SECONDS)
        except subprocess.TimeoutExpired:
            kill(proc)
            return Outcome(False, f"{full} did not finish in {RUN_SECONDS} s")
    text = (out + err).decode("utf-8", "replace")
    if "[==========] 0 tests" in text or f"[ RUN      ] {full}" not in text:
        raise BuildError(f"{binary} has no test {full}:\n{text[-1000:]}")
    return Outcome(proc.returncode == 0 and f"[       OK ] {full}" in text, text)
