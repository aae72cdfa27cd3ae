"""Small text helpers shared by the game's messages."""

from __future__ import annotations

from levels.names import plural  # noqa: F401  (one helper for every command)
