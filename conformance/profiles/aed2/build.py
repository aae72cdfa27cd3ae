"""Compiling a student's C++ folder with our driver, cached.

:func:`build` copies the folder's headers and sources (not subfolders: students
keep old versions there) into a private build directory under the user's
cache (``$XDG_CACHE_HOME/sokoban-tad/aed2``, default ``~/.cache``),
checks that the interface is there, compiles every ``.cpp`` (except files
that define ``main`` or include gtest) with ``driver.cpp`` and links the
binary. The directory is named by a hash of the compiler, the flags, the
driver and every source: a second build of the same sources is a lookup.
A *coverage build* (``coverage=True``: no sanitizer, the student's files
instrumented for line spectra, :mod:`.coverage`) is made only to localise a
departure already found.

Every failure before the check is a :class:`BuildError` whose message says
what to do: no ``g++``, missing headers, missing methods, compile errors
(the first ones, with the student's file and line), link errors.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from conformance.profiles.aed2 import coverage as spectra
from conformance.profiles.aed2.interface import HEADER
from conformance.profiles.aed2.process import kill, start
from conformance.translations import _
from levels import storage

DRIVER = Path(__file__).with_name("driver.cpp")
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".tpp", ".ipp", ".inl")
SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++")
BINARY = "aed2-driver"
#: Seconds of CPU per compiler run (a template explosion must not hang us).
COMPILE_CPU_SECONDS = 180
#: Address space of each compiler run (MB).
COMPILE_MEMORY_MB = 2048
SANITIZE_FLAGS = ("-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                  "-fno-omit-frame-pointer", "-D_GLIBCXX_SANITIZE_VECTOR")
#: What each method of aed2_Juego must accept (probed with -fsyntax-only).
METHODS = (
    ("aed2_Juego(vector<aed2_Nivel>)", "constructor", "T(std::declval<vector<aed2_Nivel>>())"),
    ("hayPared", "hayPared", "bool(std::declval<const T&>().hayPared(Coordenada()))"),
    ("hayDeposito", "hayDeposito", "bool(std::declval<const T&>().hayDeposito(Coordenada()))"),
    ("hayCaja", "hayCaja", "bool(std::declval<const T&>().hayCaja(Coordenada()))"),
    ("posicionActual", "posicionActual",
     "Coordenada(std::declval<const T&>().posicionActual())"),
    ("cantidadBombas", "cantidadBombas", "(long long)(std::declval<const T&>().cantidadBombas())"),
    ("sePuedeMover", "sePuedeMover", "bool(std::declval<const T&>().sePuedeMover(Norte))"),
    ("mover", "mover", "bool(std::declval<T&>().mover(Norte))"),
    ("tirarBomba", "tirarBomba", "std::declval<T&>().tirarBomba()"),
    ("deshacer", "deshacer", "std::declval<T&>().deshacer()"),
)
_MAIN = re.compile(rb"\bint\s+main\s*\(")
_GTEST = re.compile(rb"#\s*include\s*[<\"]gtest")
_ERROR = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?error: ")
_NO_HEADER = re.compile(r"fatal error: (?P<name>[^:]+): No such file or directory")
_UNDEFINED = re.compile(r"undefined reference to [`'](?P<name>[^'`]+)'")


class BuildError(Exception):
    """The folder cannot be built or lacks the interface; the message says
    what and where (exit status 2)."""


@dataclass(frozen=True)
class Build:
    folder: Path            # the student's folder
    directory: Path         # the private build directory
    binary: Path
    sanitized: bool
    cached: bool            # found in the cache (nothing compiled)
    seconds: float
    sources: tuple[str, ...]    # the .cpp files compiled (names)
    excluded: tuple[str, ...]   # .cpp files left out (main or gtest)
    std: str = "c++17"          # the language standard it was compiled with
    coverage: bool = False      # a coverage build (:mod:`.coverage`): its map is beside it

    @property
    def blocks(self) -> Path:
        """The coverage build's map of blocks to lines (:data:`.coverage.MAP`)."""
        return self.directory / spectra.MAP

    @property
    def source_dir(self) -> Path:
        return self.directory / "src"


def cache_root() -> Path:
    return storage.cache_dir("aed2")


def compiler() -> str:
    """The path of g++, or :class:`BuildError` saying what to install."""
    found = shutil.which("g++")
    if found is None:
        raise BuildError(_("g++ was not found: install the GNU C++ compiler to check C++ "
                           "implementations (Debian/Ubuntu: sudo apt-get install g++)"))
    return found


def _env(workdir: Path) -> dict:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C", "LC_ALL": "C",
            "TMPDIR": "/tmp"}


def _run(argv: list[str], workdir: Path, timeout: float = 600) -> tuple[int, str]:
    proc = start(argv, workdir=str(workdir), memory_mb=COMPILE_MEMORY_MB,
                 cpu_seconds=COMPILE_CPU_SECONDS,
                 env=_env(workdir), stdin=subprocess.DEVNULL)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill(proc)
        return 124, _("the compiler did not finish in {seconds} s").format(
            seconds=f"{timeout:.0f}")
    return proc.returncode, (out + err).decode("utf-8", "replace")


def compiler_version(gpp: str) -> str:
    out = subprocess.run([gpp, "--version"], capture_output=True, text=True, check=False)
    return out.stdout.splitlines()[0] if out.stdout else gpp


def sanitizers_supported(gpp: str, version: str) -> bool:
    """Whether ``gpp`` builds and runs a program with ASan+UBSan (probed
    once per compiler version; the answer is cached)."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    mark = root / ("sanitizers-" + hashlib.sha256(version.encode()).hexdigest()[:16])
    if mark.exists():
        return mark.read_text().strip() == "yes"
    with tempfile.TemporaryDirectory(prefix="aed2-probe-") as tmp:
        Path(tmp, "t.cpp").write_text("#include <vector>\nint main() { std::vector<int> v(2); "
                                      "return v[1]; }\n")
        code, _ = _run([gpp, *SANITIZE_FLAGS, "t.cpp", "-o", "t"], Path(tmp))
        ok = code == 0 and subprocess.run([str(Path(tmp, "t"))], capture_output=True,
                                          env={"ASAN_OPTIONS": "detect_leaks=0"},
                                          check=False).returncode == 0
    mark.write_text("yes" if ok else "no")
    return ok


def collect(folder: Path) -> tuple[list[Path], list[Path], list[str]]:
    """(headers, sources to compile, sources left out) directly in ``folder``."""
    headers, sources, excluded = [], [], []
    for p in sorted(folder.iterdir()):
        if not p.is_file():
            continue
        suffix = p.suffix.lower()
        if suffix in HEADER_SUFFIXES:
            headers.append(p)
        elif suffix in SOURCE_SUFFIXES:
            data = p.read_bytes()
            if _MAIN.search(data) or _GTEST.search(data):
                excluded.append(p.name)
            else:
                sources.append(p)
    return headers, sources, excluded


def _probe_text() -> str:
    lines = ['#include "aed2_Juego.h"', "#include <type_traits>", "#include <utility>",
             "#include <vector>", ""]
    for _, name, expr in METHODS:
        lines += [f"template <class T, class = void> struct aed2_has_{name} : std::false_type {{}};",
                  f"template <class T> struct aed2_has_{name}<T, std::void_t<decltype({expr})>>"
                  " : std::true_type {};",
                  f'static_assert(aed2_has_{name}<aed2_Juego>::value, "aed2-missing {name}");']
    return "\n".join(lines) + "\n"


def _flags(std: str, sanitize: bool) -> list[str]:
    # -O0, as the course's CMakeLists builds the tests: a departure found in
    # either build shows in a test built the way the student builds it.
    flags = [f"-std={std}", "-g", "-O0", "-Isrc", "-w"]
    return flags + list(SANITIZE_FLAGS) if sanitize else flags


def build(folder: str | os.PathLike, *, std: str = "c++17", sanitize: bool = True,
          jobs: int = 1, coverage: bool = False) -> Build:
    """Build (or find in the cache) the driver for the C++ ``folder``
    (``coverage``: the coverage build, without sanitizers, :mod:`.coverage`).
    Raises :class:`BuildError`."""
    start_time = time.monotonic()
    folder = Path(folder).expanduser().resolve()
    if not (folder / HEADER).is_file():
        raise BuildError(_("{folder}: missing header {header} (a C++ target is a folder "
                           "holding the course's {header} and the .cpp files)").format(
                               folder=folder, header=HEADER))
    if not re.fullmatch(r"(c|gnu)\+\+\w+", std):
        raise BuildError(_("--std {std}: expected a C++ standard such as c++17 or "
                           "gnu++20").format(std=repr(std)))
    gpp = compiler()
    version = compiler_version(gpp)
    sanitized = sanitize and not coverage and sanitizers_supported(gpp, version)
    headers, sources, excluded = collect(folder)
    flags = _flags(std, sanitized)
    extra = ((spectra.UNIT_FLAGS, spectra.DRIVER_FLAGS, spectra.LINK_FLAGS) if coverage
             else ((), (), ()))
    digest = hashlib.sha256()
    for part in (version, " ".join(flags), repr(extra), DRIVER.read_text()):
        digest.update(part.encode() + b"\0")
    for p in headers + sources:
        digest.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    key = digest.hexdigest()[:24]
    root = cache_root()
    directory = root / key
    names = tuple(p.name for p in sources)
    if (directory / BINARY).is_file():
        return Build(folder, directory, directory / BINARY, sanitized, True,
                     time.monotonic() - start_time, names, tuple(excluded), std, coverage)
    root.mkdir(parents=True, exist_ok=True)
    # The compiler runs in a box whose uid must reach its folder: a private
    # temporary folder (not under a home folder it cannot enter); the result
    # is copied into the cache afterwards.
    tmp = Path(tempfile.mkdtemp(prefix="aed2-build-"))
    try:
        (tmp / "src").mkdir()
        for p in headers + sources:
            shutil.copyfile(p, tmp / "src" / p.name)
        shutil.copyfile(DRIVER, tmp / "aed2_driver.cpp")
        (tmp / "aed2_probe.cpp").write_text(_probe_text())
        _probe(gpp, std, tmp, folder)
        shared = b"".join(p.name.encode() + b"\0" + p.read_bytes() for p in headers)
        _compile_and_link(gpp, flags, tmp, folder, [p.name for p in sources], jobs,
                          key=(version, " ".join(flags), shared), extra=extra)
        if coverage:
            _map_blocks(tmp, {p.name for p in headers + sources})
        staging = Path(tempfile.mkdtemp(prefix=key + ".", dir=root))
        try:
            shutil.copytree(tmp, staging, dirs_exist_ok=True)
            os.replace(staging, directory)
        except OSError:         # built meanwhile by another run: keep that one
            shutil.rmtree(staging, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return Build(folder, directory, directory / BINARY, sanitized, False,
                 time.monotonic() - start_time, names, tuple(excluded), std, coverage)


def _map_blocks(tmp: Path, names: set[str]) -> None:
    """Write the coverage build's map of blocks to lines (:mod:`.coverage`),
    read from the binary by ``objdump`` (in a box: the binary is the
    student's)."""
    objdump = shutil.which("objdump")
    if objdump is None:
        raise BuildError(_("objdump was not found (GNU binutils): needed to localise a "
                           "departure in C++ code"))
    code, out = _run([objdump, "-d", "-l", "-C", "--no-show-raw-insn", BINARY], tmp)
    if code != 0:
        raise BuildError(_("objdump could not read the coverage build:") + "\n" + out[-2000:])
    spectra.write_map(tmp / spectra.MAP, *spectra.block_map(out, names))


def _probe(gpp: str, std: str, tmp: Path, folder: Path) -> None:
    code, out = _run([gpp, f"-std={std}", "-fsyntax-only", "-Isrc", "aed2_probe.cpp"], tmp)
    if code == 0:
        return
    missing_headers = sorted(set(m.group("name") for m in _NO_HEADER.finditer(out)))
    if missing_headers:
        raise BuildError(_("{folder}: missing header(s): {headers}").format(
            folder=folder, headers=", ".join(missing_headers)) + "\n"
            + first_errors(out, tmp, folder))
    missing = [shown for shown, name, _ in METHODS if f"aed2-missing {name}" in out]
    others = [line for line in out.splitlines() if _ERROR.match(line)
              and "aed2-missing" not in line and "static assertion failed" not in line]
    if others:
        raise BuildError(_("{folder}: the interface headers do not compile:").format(
            folder=folder) + "\n" + first_errors(out, tmp, folder))
    if missing:
        raise BuildError(_("{folder}: aed2_Juego lacks these methods of the course interface "
                           "(or they take other arguments): {methods}").format(
                               folder=folder, methods=", ".join(missing)))
    raise BuildError(_("{folder}: the interface headers do not compile:").format(folder=folder)
                     + "\n" + first_errors(out, tmp, folder))


def put_in_cache(cache_file: Path, built: Path) -> None:
    """Copy ``built`` to ``cache_file`` atomically (a concurrent run may
    write the same file: the last complete copy wins)."""
    cache_file.parent.mkdir(parents=True, exist_ok=True)
    fd, staging = tempfile.mkstemp(prefix=cache_file.name + ".", dir=cache_file.parent)
    os.close(fd)
    shutil.copyfile(built, staging)
    os.chmod(staging, 0o755 if os.access(built, os.X_OK) else 0o644)
    os.replace(staging, cache_file)


def compile_cached(gpp: str, flags: list[str], workdir: Path, source: str, obj: str,
                   key: tuple) -> tuple[int, str]:
    """Compile ``workdir/source`` into ``workdir/obj``, or copy the object
    cached for the same ``key`` (the compiler, flags and headers) and source
    text: files a mutant or a test build shares with another build are
    compiled once."""
    digest = hashlib.sha256()
    for part in (*key, (workdir / source).read_bytes()):
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\0")
    cached = cache_root() / "objects" / (digest.hexdigest()[:24] + ".o")
    if cached.is_file():
        shutil.copyfile(cached, workdir / obj)
        return 0, ""
    code, out = _run([gpp, *flags, "-c", source, "-o", obj], workdir)
    if code == 0:
        put_in_cache(cached, workdir / obj)
    return code, out


def _compile_and_link(gpp: str, flags: list[str], tmp: Path, folder: Path,
                      sources: list[str], jobs: int, key: tuple,
                      extra: tuple = ((), (), ())) -> None:
    """``extra``: more flags for the student's units, the driver, the link."""
    unit_flags, driver_flags, link_flags = extra
    units = [("aed2_driver.cpp", "aed2_driver.o", [*flags, *driver_flags])]
    units += [(f"src/{name}", f"unit{i}.o", [*flags, *unit_flags])
              for i, name in enumerate(sources)]

    def one(unit):
        src, obj, own = unit
        return compile_cached(gpp, own, tmp, src, obj,
                              key if own == flags else key + (" ".join(own),))

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, units))
    failed = [out for code, out in results if code != 0]
    if failed:
        raise BuildError(_("{folder}: compile errors:").format(folder=folder) + "\n"
                         + first_errors("\n".join(failed), tmp, folder))
    code, out = _run([gpp, *flags, *link_flags, *[obj for _, obj, _ in units], "-o", BINARY],
                     tmp)
    if code != 0:
        undefined = sorted(set(m.group("name") for m in _UNDEFINED.finditer(out)))
        if undefined:
            raise BuildError(_("{folder}: declared but never defined (link errors): "
                               "{names}").format(folder=folder, names=", ".join(undefined)))
        raise BuildError(_("{folder}: the program does not link:").format(folder=folder) + "\n"
                         + first_errors(out, tmp, folder))


def student_path(text: str, tmp: Path, folder: Path) -> str:
    """Compiler or sanitizer text with our build paths turned into the
    student's own file names."""
    text = text.replace(str(tmp / "src") + "/", str(folder) + "/")
    return re.sub(r"(?<![\w/.-])src/", str(folder) + "/", text)


def first_errors(out: str, tmp: Path, folder: Path, count: int = 3, context: int = 3) -> str:
    """The first ``count`` compiler errors, each with a few lines after it."""
    lines = student_path(out, tmp, folder).splitlines()
    shown: list[str] = []
    found = 0
    for i, line in enumerate(lines):
        if _ERROR.match(line) or ("error:" in line and not shown and found == 0):
            found += 1
            shown.append("  " + line)
            for extra in lines[i + 1:i + 1 + context]:
                if _ERROR.match(extra):
                    break
                shown.append("    " + extra)
            if found >= count:
                break
    if not shown:
        shown = ["  " + line for line in lines[:12]]
    return "\n".join(shown)
