"""Small text helpers shared by the game's messages."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``1 push``, ``2 pushes``, ``0 moves``."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {word}es" if word.endswith(("sh", "s", "x")) else f"{n} {word}s"
