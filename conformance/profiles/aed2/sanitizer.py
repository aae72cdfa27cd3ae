"""A sanitizer's report, parsed apart (AddressSanitizer, UndefinedBehaviorSanitizer).

An AddressSanitizer report holds several stacks: the bad access first, then,
for a heap error, the stacks of the block the address lies in or next to
("freed by", "previously allocated by", "allocated by"). They are different
moments of the program: only the first is the chain of calls that made the
bad access. :func:`parse` keeps each stack under its own heading, so a
report never shows an allocation's frames as callers of the access.

Also: which g++ flags make a finding show (:func:`flags_for`): a plain
build does not notice a memory error; a container-overflow is seen only with
libstdc++'s vector annotations (``-D_GLIBCXX_SANITIZE_VECTOR``), which the
test library must then be built with too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from conformance.translations import N_, _, marked

#: The flags that make a memory error or undefined behaviour stop a test
#: (what docs/aed2.md tells teachers to build the course's tests with).
SANITIZER_FLAGS = "-fsanitize=address,undefined -fno-sanitize-recover=all -g"
#: libstdc++'s annotations of std::vector's unused capacity (container-overflow).
VECTOR_FLAG = "-D_GLIBCXX_SANITIZE_VECTOR"
#: Frames shown per stack in a report (innermost first).
ACCESS_FRAMES = 6
OTHER_FRAMES = 4

_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in (?P<func>.+?) (?P<file>/\S+?):(?P<line>\d+)(?::\d+)?$")
_ANY_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ ")
_HEADING = re.compile(r"^(?P<what>freed|previously allocated|allocated) by thread \S+ here:")
_OTHER_HEADING = re.compile(r"^\S.* (?:created by|here):$")
_ERROR = re.compile(r"ERROR: (?P<tool>\w+Sanitizer): (?P<kind>.*?)"
                    r"(?: on (?:unknown )?address\b.*| on 0x[0-9a-f]+.*| \(pc .*|:\s*$|$)")
_ACCESS = re.compile(r"^(?P<how>READ|WRITE) of size (?P<size>\d+)")
_REGION = re.compile(r"is located (?P<where>.+?) of (?P<size>\d+)-byte region")
_UB = re.compile(r"^(?P<where>\S+:\d+:\d+): runtime error: (?P<what>.*)$")


@dataclass(frozen=True)
class Frame:
    function: str
    file: str
    line: int

    def short(self, folder: str) -> str:
        """``Mapa.cpp:16 (busquedaBinaria)``: the file relative to
        ``folder`` and the function without its argument types."""
        name = self.file[len(folder) + 1:] if self.file.startswith(folder + "/") else self.file
        return f"{name}:{self.line} ({self.function.split('(')[0]})"


@dataclass(frozen=True)
class Stack:
    heading: str                    # "access", "freed by", "previously allocated by", "allocated by"
    frames: tuple[Frame, ...]

    def mine(self, folder: str) -> list[Frame]:
        """The frames in the student's ``folder``, innermost first."""
        return [f for f in self.frames if f.file.startswith(folder + "/")]


@dataclass(frozen=True)
class Report:
    tool: str                       # "AddressSanitizer", "UndefinedBehaviorSanitizer"...
    kind: str                       # "heap-buffer-overflow", "SEGV", "index 2 out of bounds ..."
    access: str = ""                # "READ of 8 bytes"
    region: str = ""                # "16 bytes to the left of a 64-byte block"
    location: str = ""              # UBSan: file:line:col of the undefined behaviour
    stacks: tuple[Stack, ...] = ()  # the access's first

    @property
    def access_stack(self) -> Stack:
        return self.stacks[0] if self.stacks else Stack("access", ())

    @property
    def needs_vector_annotations(self) -> bool:
        """Seen only with ``-D_GLIBCXX_SANITIZE_VECTOR`` (a read or write
        past a vector's size but inside its capacity, or an annotation
        broken by one)."""
        return "container-overflow" in self.kind or "annotate_contiguous_container" in self.kind

    def flags(self) -> str:
        """The g++ flags a test needs to show this finding."""
        return flags_for(self.needs_vector_annotations)


def flags_for(vector_annotations: bool) -> str:
    return SANITIZER_FLAGS + (" " + VECTOR_FLAG if vector_annotations else "")


def parse(text: str) -> Report | None:
    """The first sanitizer report in ``text`` (a program's stderr), or None."""
    lines = text.splitlines()
    start = None
    for i, line in enumerate(lines):
        if _ERROR.search(line) or _UB.match(line):
            start = i
            break
    if start is None:
        return None
    head = lines[start]
    ub = _UB.match(head)
    if ub:
        tool, kind, location = "UndefinedBehaviorSanitizer", ub.group("what"), ub.group("where")
    else:
        m = _ERROR.search(head)
        tool, kind, location = m.group("tool"), m.group("kind").strip(), ""
    access = region = ""
    stacks: list[Stack] = []
    heading: str | None = "access"
    frames: list[Frame] = []

    def close():
        if heading is not None and (frames or heading == "access"):
            stacks.append(Stack(heading, tuple(frames)))

    for line in lines[start + 1:]:
        text_line = line.strip()
        if text_line.startswith("SUMMARY:") or text_line.startswith("Shadow bytes"):
            break
        frame = _FRAME.match(line)
        if frame:
            if heading is not None:
                frames.append(Frame(frame.group("func"), frame.group("file"), int(frame.group("line"))))
            continue
        if _ANY_FRAME.match(line):          # a frame without a source file (a library)
            continue
        a = _ACCESS.match(text_line)
        if a:
            access = f"{a.group('how')} of {a.group('size')} bytes"
            continue
        r = _REGION.search(text_line)
        if r:
            region = f"{r.group('where')} of a {r.group('size')}-byte block"
            continue
        h = _HEADING.match(text_line)
        if h or _OTHER_HEADING.match(text_line):
            close()
            heading = f"{h.group('what')} by" if h else None     # other stacks: not kept
            frames = []
            continue
    close()
    if not stacks:
        stacks = [Stack("access", ())]
    return Report(tool, kind, access, region, location, tuple(stacks))


#: A few words for the reports students meet most (keyed by a part of the kind).
HINTS = {
    "SEGV": N_("a bad pointer: a null one, or an element of an empty container"),
    "container-overflow": N_("an element past a vector's size, inside its capacity"),
    "annotate_contiguous_container": N_("a vector's size went wrong: pop_back or erase on an "
                                        "empty vector, or an element past its size"),
}


def describe(report: Report, folder: str) -> tuple[str, list[str]]:
    """``(what, detail)``: one line naming the finding and where in the
    student's code it happened; then the student's frames of each stack
    under its own heading (the access's chain first)."""
    what = f"{report.tool}: {report.kind}"
    if report.access:
        what += f" ({report.access})"
    mine = report.access_stack.mine(folder)
    if mine:
        what += " " + _("at {where}").format(where=mine[0].short(folder))
    elif report.location:
        where = report.location
        what += " " + _("at {where}").format(
            where=where[len(folder) + 1:] if where.startswith(folder + "/") else where)
    detail: list[str] = [f"({marked(hint)})" for key, hint in HINTS.items()
                         if key in report.kind][:1]
    if mine:
        detail.append(_("the bad access, in your code (innermost call first):"))
        detail += [f"  {f.short(folder)}" for f in mine[:ACCESS_FRAMES]]
    if report.region:
        detail.append(_("the address is {region}").format(region=report.region))
    for stack in report.stacks[1:]:
        frames = stack.mine(folder)
        if frames:
            detail.append(_("that block was {heading} (your code, innermost call first):").format(
                heading=stack.heading))
            detail += [f"  {f.short(folder)}" for f in frames[:OTHER_FRAMES]]
    return what, detail


#: ``Mapa.cpp:16 (busquedaBinaria)`` (:meth:`Frame.short`) or UBSan's
#: ``Mapa.cpp:22:5``, after the sanitizer's name in a departure's message.
_PLACE = re.compile(r"(?<![\w/.-])(?P<file>[\w.+-]+):(?P<line>\d+)(?::\d+)?(?: \((?P<func>[^()]*)\))?")


def located(c) -> list[tuple[str, int, str]]:
    """The line of the student's own files a departure's sanitizer finding
    names (the innermost frame of the bad access in their folder, as
    :func:`describe` put it in the message), ``[(file, line, function)]``;
    empty for any other departure. The profile's ``located``: localising
    ranks it first."""
    message = getattr(c, "message", "") or ""
    at = max(message.find("Sanitizer:"), message.find("Sanitizer "))
    if at < 0:
        return []
    m = _PLACE.search(message, at)
    if m is None:
        return []
    return [(m.group("file"), int(m.group("line")), m.group("func") or "")]
