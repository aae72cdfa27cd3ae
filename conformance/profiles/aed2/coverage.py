"""Line spectra of a C++ target: which lines of the student's own files ran.

Used only to localise a departure a check has already found
(``conformance.checking.localize``; ``Aed2Target`` answers its ``SPECTRA``
requests): a correct target is never built this way nor traced.

The *coverage build* (:func:`conformance.profiles.aed2.build.build` with
``coverage=True``, cached like the others) compiles the student's files
with ``-fsanitize-coverage=trace-pc``: each of their basic blocks starts
with a call of ``__sanitizer_cov_trace_pc``, which the driver defines
(``driver.cpp``, ``AED2_COVERAGE``): it keeps the block's address (the
call's return address) with the request being served, and hands them over
on the ``G`` request (or, when the process dies, on its stderr, each line
after :data:`ON_DEATH`).
The driver and the standard library are not instrumented.

Which lines a block holds is read once per build from ``objdump -d -l``
(:func:`block_lines`): every instruction from a block's call up to the next
call belongs to that block (each block starts with its call), and the line
table says which line of which file each instruction comes from; the
instructions of a function before its first call (its prologue) belong to
its first block. The map is kept beside the binary (:data:`MAP`).

Why not gcov (``--coverage``, ``__gcov_dump``/``__gcov_reset`` between
plays, ``gcov --json-format``): each spectrum then costs a ``gcov`` process
and the reading of its JSON (about 60 ms on the reference's four files,
most of it the standard library's lines), and the counters cannot say
which request ran a line. Here a spectrum is one more round trip of the
driver's protocol.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

#: The map of a coverage build, beside its binary: block address (hex) ->
#: ``[[file, line, function], ...]`` (file: its name in the student's folder).
MAP = "aed2-blocks.json"
#: The mark of each line a dying coverage build writes to its stderr.
ON_DEATH = "@@aed2-block: "
#: The flag the student's files are compiled with, and the driver's.
UNIT_FLAGS = ("-fsanitize-coverage=trace-pc",)
DRIVER_FLAGS = ("-DAED2_COVERAGE",)
#: Linked at fixed addresses: the addresses the driver sees are objdump's.
LINK_FLAGS = ("-no-pie",)
CALLBACK = "__sanitizer_cov_trace_pc"

_HEADER = re.compile(r"^[0-9a-f]+ <(?P<name>.+)>:$")
_LINE = re.compile(r"^(?P<file>/.*?|[^\s/][^\s]*?):(?P<line>\d+)(?: \(discriminator \d+\))?$")
_INSTRUCTION = re.compile(r"^\s+(?P<addr>[0-9a-f]+):\s*(?P<text>.*)$")


def function_name(symbol: str) -> str:
    """``Mapa::hayPared(std::pair<int, int>) const`` -> ``Mapa::hayPared``;
    a template function's return type goes too (``bool f<int>(int)`` ->
    ``f<int>``)."""
    depth, cut, spaces = 0, len(symbol), []
    for i, ch in enumerate(symbol):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(0, depth - 1)
        elif ch == " " and depth == 0:
            spaces.append(i)
        elif ch == "(" and depth == 0:
            if symbol.endswith("operator", 0, i) and symbol.startswith("()", i):
                continue
            cut = i
            break
    name = symbol[:cut]
    for i in reversed([s for s in spaces if s < cut]):
        if not name.endswith("operator", 0, i):     # not a conversion: ``operator bool``
            return name[i + 1:]
    return name


def own_file(path: str, names: set[str]) -> str | None:
    """The student's file ``path`` (as the line table names it: the build
    folder's ``src/NAME``) is, or None (the driver, the library)."""
    if "/" not in path:
        return None
    folder, name = path.rsplit("/", 1)
    if name in names and (folder == "src" or folder.endswith("/src")):
        return name
    return None


def block_lines(disassembly: str, names: set[str]) -> dict[int, list[tuple[str, int, str]]]:
    """From ``objdump -d -l -C``'s text: each instrumented block's address
    (where its call returns) -> the lines of the files ``names`` its
    instructions come from, in order."""
    blocks: dict[int, dict[tuple[str, int], str]] = {}
    function = ""
    where: tuple[str, int] | None = None
    current: dict | None = None        # the lines of the block under way
    prologue: dict = {}                # lines before the function's first call
    starting: dict | None = None       # a call seen: the next instruction keys its block
    for text in disassembly.splitlines():
        m = _INSTRUCTION.match(text)
        if m is None:
            h = _HEADER.match(text)
            if h is not None:
                function, where, current, prologue, starting = (
                    function_name(h.group("name")), None, None, {}, None)
                continue
            line = _LINE.match(text)
            if line is not None:
                name = own_file(line.group("file"), names)
                where = (name, int(line.group("line"))) if name is not None else None
            continue
        if starting is not None:       # the instruction the call returns to
            current = blocks.setdefault(int(m.group("addr"), 16), {})
            current.update(starting)
            starting = None
        is_call = f"<{CALLBACK}>" in m.group("text") and "call" in m.group("text")
        if is_call:
            starting = dict(prologue) if current is None else {}
            prologue = {}
            if where is not None:
                starting[where] = function
            continue
        if where is not None:
            (prologue if current is None else current)[where] = function
    return {address: [(f, n, fn) for (f, n), fn in lines.items()]
            for address, lines in blocks.items() if lines}


def write_map(path: Path, blocks: dict[int, list[tuple[str, int, str]]]) -> None:
    path.write_text(json.dumps({format(a, "x"): [list(x) for x in lines]
                                for a, lines in blocks.items()}), encoding="utf-8")


def read_map(path: Path) -> dict[int, list[tuple[str, int, str]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {int(a, 16): [(str(f), int(n), str(fn)) for f, n, fn in lines]
            for a, lines in data.items()}


def spectrum(answer: list[str], blocks: dict[int, list[tuple[str, int, str]]],
             names: dict[str, tuple[str, ...]]) -> list[list]:
    """The driver's ``G`` answer (``address op`` lines, hex) as the lines
    that ran, each part of a line apart (its block's address): ``[[file,
    line, function, [operations], address], ...]``, sorted (as a Python
    target's ``SPECTRA`` ``take`` answers, with the part after; ``names``:
    a request letter -> the names of its operation, e.g. ``M`` -> ``mover``)."""
    found: dict[tuple[str, int, int], list] = {}
    for text in answer:
        parts = text.split()
        if len(parts) != 2:
            continue
        try:
            address, letter = int(parts[0], 16), chr(int(parts[1], 16))
        except ValueError:
            continue
        for file, line, function in blocks.get(address, ()):
            entry = found.setdefault((file, line, address), [function, set()])
            entry[1].update(names.get(letter, ()))
    return [[file, line, function, sorted(ops), address]
            for (file, line, address), (function, ops) in sorted(found.items())]
