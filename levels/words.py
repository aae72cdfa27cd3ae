"""Words in messages, below every other module of :mod:`levels` (the model's
messages use them too)."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 box``, ``2 boxes``, ``0 levels``; ``many`` for irregular words."""
    if n == 1:
        return f"1 {word}"
    if many is None:
        many = word + "es" if word.endswith(("sh", "ch", "s", "x")) else word + "s"
    return f"{n} {many}"
