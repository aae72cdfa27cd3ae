"""Profile aed2's own fixed scenarios (what the course's ``mover`` answers),
played after extendido's."""

from __future__ import annotations

from conformance.machines.profile import game, scenario

SCENARIOS = (
    scenario("aed2.completes", "a box lands, is undone, lands again; the level completes", [
        "@$. ",
        "  $."], "rzrdr"),
    game("aed2.completes", "the move that completes a level, then the next one's", [
        ["@$."],
        ["@$.", " $."]], "rrldr"),
)
