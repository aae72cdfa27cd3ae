"""Small text helpers shared by the game's messages, in the player's
language (:mod:`impl.translations`)."""

from __future__ import annotations

from impl.translations import n_


def moves_text(n: int) -> str:
    return n_("{n} move", "{n} moves", n).format(n=n)


def pushes_text(n: int) -> str:
    return n_("{n} push", "{n} pushes", n).format(n=n)


def bombs_text(n: int) -> str:
    return n_("{n} bomb", "{n} bombs", n).format(n=n)

