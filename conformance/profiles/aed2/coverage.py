"""Line spectra of a C++ target: which lines of the student's own files ran.

Used only to localise a departure a check has already found
(``conformance.checking.localize``; ``Aed2Target`` answers its ``SPECTRA``
requests): a correct target is never built this way nor traced.

The *coverage build* (:func:`conformance.profiles.aed2.build.build` with
``coverage=True``, cached like the others) compiles the student's files
with ``-fsanitize-coverage=trace-pc``: each of their basic blocks starts
with a call of ``__sanitizer_cov_trace_pc``, which the driver defines
(``driver.cpp``, ``AED2_COVERAGE``): it keeps the block's address (the
call's return address) with the request being served, counts its runs,
and hands them over on the ``G`` request (or, when the process dies, on
its stderr, each line after :data:`ON_DEATH`).
The driver and the standard library are not instrumented.

Which lines a block holds is read once per build from ``objdump -d -l``
(:func:`block_map`): every instruction from a block's call up to the next
call belongs to that block (each block starts with its call), and the line
table says which line of which file each instruction comes from; the
instructions of a function before its first call (its prologue) belong to
its first block (the function's *entry*, run once per call). The map is
kept beside the binary (:data:`MAP`).

Besides the blocks that ran, a spectrum holds the blocks some call of
their function *skipped* (:func:`spectrum`): run fewer times under a
request than the function's entry. A branch is two things a play may do
(take it, skip it), as a Prolog clause's ports are two: a guard that skips
a ``push_back`` on a second bomb on the same cell runs the same blocks as
one that does not, but skips the push only in the plays that fail.

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


def block_map(disassembly: str, names: set[str]) -> tuple[dict[int, list[tuple[str, int, str]]],
                                                          dict[int, int]]:
    """From ``objdump -d -l -C``'s text: each instrumented block's address
    (where its call returns) -> the lines of the files ``names`` its
    instructions come from, in order; and each of those blocks -> its
    function's first block (its *entry*, run once per call of the function)."""
    blocks: dict[int, dict[tuple[str, int], str]] = {}
    entries: dict[int, int] = {}
    entry: int | None = None
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
                function, where, current, prologue, starting, entry = (
                    function_name(h.group("name")), None, None, {}, None, None)
                continue
            line = _LINE.match(text)
            if line is not None:
                name = own_file(line.group("file"), names)
                where = (name, int(line.group("line"))) if name is not None else None
            continue
        if starting is not None:       # the instruction the call returns to
            address = int(m.group("addr"), 16)
            current = blocks.setdefault(address, {})
            entry = address if entry is None else entry
            entries[address] = entry
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
    kept = {address: [(f, n, fn) for (f, n), fn in lines.items()]
            for address, lines in blocks.items() if lines}
    return kept, {a: e for a, e in entries.items() if a in kept and e in kept}


def write_map(path: Path, blocks: dict[int, list[tuple[str, int, str]]],
              entries: dict[int, int] | None = None) -> None:
    path.write_text(json.dumps({
        "blocks": {format(a, "x"): [list(x) for x in lines] for a, lines in blocks.items()},
        "entries": {format(a, "x"): format(e, "x") for a, e in (entries or {}).items()}}),
        encoding="utf-8")


def read_map(path: Path) -> tuple[dict[int, list[tuple[str, int, str]]], dict[int, int]]:
    """The blocks' lines and their entries, as :func:`write_map` wrote them."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return ({int(a, 16): [(str(f), int(n), str(fn)) for f, n, fn in lines]
             for a, lines in data["blocks"].items()},
            {int(a, 16): int(e, 16) for a, e in data["entries"].items()})


def spectrum(answer: list[str], blocks: dict[int, list[tuple[str, int, str]]],
             names: dict[str, tuple[str, ...]], entries: dict[int, int] | None = None
             ) -> list[list]:
    """The driver's ``G`` answer (``address op count`` lines, hex) as the
    lines that ran, each part of a line apart (its block's address):
    ``[[file, line, function, [operations], address], ...]``, sorted (as a
    Python target's ``SPECTRA`` ``take`` answers, with the part after;
    ``names``: a request letter -> the names of its operation, e.g. ``M`` ->
    ``mover``).

    With ``entries`` (:func:`block_map`), also each block some call of its
    function *skipped*: one that ran fewer times under a request than its
    function's entry did (not at all, or not in every call), as the part
    ``-address`` of its own lines and of the last line of the block before
    it in its function (where the branch that skipped it is decided, mostly):
    a branch a failing play takes where the passing ones do not
    (:func:`skipped`)."""
    counts: dict[tuple[int, str], int] = {}
    for text in answer:
        parts = text.split()
        if len(parts) not in (2, 3):
            continue
        try:
            address, letter = int(parts[0], 16), chr(int(parts[1], 16))
            count = int(parts[2], 16) if len(parts) == 3 else 1
        except ValueError:
            continue
        counts[(address, letter)] = counts.get((address, letter), 0) + count
    found: dict[tuple[str, int, int], list] = {}

    def add(file: str, line: int, function: str, part: int, letter: str) -> None:
        entry = found.setdefault((file, line, part), [function, set()])
        entry[1].update(names.get(letter, ()))

    for address, letter in counts:
        for file, line, function in blocks.get(address, ()):
            add(file, line, function, address, letter)
    members = functions(entries or {})
    previous = {b: own[i - 1] for own in members.values() for i, b in enumerate(own) if i}
    for address, letter in skipped(counts, members):
        for file, line, function in decided(address, blocks, previous):
            add(file, line, function, -address, letter)
    return [[file, line, function, sorted(ops), part]
            for (file, line, part), (function, ops) in sorted(found.items())]


def functions(entries: dict[int, int]) -> dict[int, list[int]]:
    """Each function's entry -> its blocks, in address order (the entry first)."""
    members: dict[int, list[int]] = {}
    for block, entry in sorted(entries.items()):
        members.setdefault(entry, []).append(block)
    return members


def skipped(counts: dict[tuple[int, str], int], members: dict[int, list[int]]
            ) -> list[tuple[int, str]]:
    """The blocks (with the request) that ran fewer times than their
    function's entry under the same request (``counts``: ``(block,
    request letter) -> runs``; ``members``: :func:`functions`)."""
    found = []
    for (address, letter), n in counts.items():
        for b in members.get(address, [])[1:]:
            if counts.get((b, letter), 0) < n:
                found.append((b, letter))
    return sorted(found)


def decided(address: int, blocks: dict[int, list[tuple[str, int, str]]],
            previous: dict[int, int]) -> list[tuple[str, int, str]]:
    """The lines of a skipped block: its own, and the last line of the
    block laid out before it in its function (``previous``: block -> that
    block)."""
    lines = list(blocks.get(address, ()))
    before = blocks.get(previous.get(address, -1))
    if before and before[-1] not in lines:
        lines.insert(0, before[-1])
    return lines
