"""Run-length encoding, shared by boards (``3#4-p.#``, ``2(3(#-)#)``, rows
joined with ``|``) and LURD solutions (``3r2(uL)``)."""

from __future__ import annotations

__all__ = ["RLEError", "expand", "has_rle", "compress"]

#: An expansion larger than this is refused (a hostile ``99999(99999(#))``).
MAX_EXPANDED = 1_000_000


DIGITS = frozenset("0123456789")


class RLEError(ValueError):
    """Bad run-length encoding; ``index`` is the 0-based offending index."""

    def __init__(self, message: str, index: int):
        super().__init__(message)
        self.index = index


def has_rle(text: str) -> bool:
    return any(c in DIGITS or c in "()|" for c in text)


def expand(text: str) -> str:
    """Expand counts and parenthesised groups; ``|`` is kept as it is.

    ``expand("3#2(-$)")`` is ``"###-$-$"``.  Raises :class:`RLEError`.
    """
    out, i = _seq(text, 0, 0)
    if i != len(text):  # a ')' with no '('
        raise RLEError("')' without a matching '('", i)
    return out


def _seq(text: str, i: int, depth: int) -> tuple[str, int]:
    parts: list[str] = []
    size = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == ")":
            if depth == 0:
                raise RLEError("')' without a matching '('", i)
            return "".join(parts), i
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
            inner, j = _seq(text, i + 1, depth + 1)
            if j >= n:
                raise RLEError("'(' without a matching ')'", i)
            piece = inner
            i = j + 1
        else:
            piece = c
            i += 1
        size += len(piece) * count
        if size > MAX_EXPANDED:
            raise RLEError("run-length expansion too large", start)
        parts.append(piece * count)
    if depth:
        raise RLEError("'(' without a matching ')'", i)
    return "".join(parts), i


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
