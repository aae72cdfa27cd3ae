"""Run-length encoding, shared by boards (``3#4-p.#``, ``2(3(#-)#)``, rows
joined with ``|``) and LURD solutions (``3r2(uL)``)."""

from __future__ import annotations

import re

__all__ = ["RLEError", "expand", "has_rle", "compress", "MAX_EXPANDED", "MAX_NESTING"]

#: An expansion larger than this is refused (a hostile ``99999(99999(#))``).
MAX_EXPANDED = 1_000_000

#: Groups nested deeper than this are refused (a hostile ``"(" * 990``); real
#: files nest two or three deep.
MAX_NESTING = 32


DIGITS = frozenset("0123456789")


class RLEError(ValueError):
    """Bad run-length encoding; ``index`` is the 0-based offending index."""

    def __init__(self, message: str, index: int):
        super().__init__(message)
        self.index = index


_RLE_MARK = re.compile("[0-9()|]")
_PLAIN = re.compile("[^0-9()]+")


def has_rle(text: str) -> bool:
    return _RLE_MARK.search(text) is not None


def expand(text: str) -> str:
    """Expand counts and parenthesised groups; ``|`` is kept as it is.

    ``expand("3#2(-$)")`` is ``"###-$-$"``.  Iterative (no recursion), in time
    linear in the input plus the output; groups nest at most
    :data:`MAX_NESTING` deep and the output is at most :data:`MAX_EXPANDED`
    characters.  Raises :class:`RLEError`.
    """
    n = len(text)
    # One frame per open group: the enclosing parts and size, the group's
    # count, and where the group starts (its count) and where its '(' is.
    stack: list[tuple[list[str], int, int, int, int]] = []
    parts: list[str] = []
    size = 0
    i = 0
    while i < n:
        c = text[i]
        if c == ")":
            if not stack:
                raise RLEError("')' without a matching '('", i)
            inner = "".join(parts)
            parts, size, count, start, _ = stack.pop()
            size += len(inner) * count
            if size > MAX_EXPANDED:
                raise RLEError("run-length expansion too large", start)
            parts.append(inner * count)
            i += 1
            continue
        if c not in DIGITS and c != "(":  # a run of plain characters, in one step
            run = _PLAIN.match(text, i).group()
            size += len(run)
            if size > MAX_EXPANDED:
                raise RLEError("run-length expansion too large", i)
            parts.append(run)
            i += len(run)
            continue
        start = i
        count = 1
        if c in DIGITS:
            j = i
            while j < n and text[j] in DIGITS:
                j += 1
            if j - i > 7:
                raise RLEError("run-length count too large", i)
            count = int(text[i:j])
            i = j
            if i >= n or text[i] == ")":
                raise RLEError("a run-length count must be followed by a "
                               "character or a '(' group", start)
            c = text[i]
        if c == "(":
            if len(stack) >= MAX_NESTING:
                raise RLEError(f"run-length groups nested more than {MAX_NESTING} deep", i)
            stack.append((parts, size, count, start, i))
            parts, size = [], 0
            i += 1
            continue
        size += count
        if size > MAX_EXPANDED:
            raise RLEError("run-length expansion too large", start)
        parts.append(c * count)
        i += 1
    if stack:
        raise RLEError("'(' without a matching ')'", stack[-1][4])
    return "".join(parts)


def compress(text: str, min_run: int = 3) -> str:
    """Plain run-length compression of runs of ``min_run`` or more equal
    characters (``"rrrU"`` -> ``"3rU"``); digits and parentheses in ``text``
    are not allowed."""
    out = []
    i = 0
    while i < len(text):
        j = i
        while j < len(text) and text[j] == text[i]:
            j += 1
        run = j - i
        out.append(f"{run}{text[i]}" if run >= min_run else text[i] * run)
        i = j
    return "".join(out)
