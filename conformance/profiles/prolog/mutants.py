"""Our correct Prolog program in seed 003's style
(``conformance/profiles/prolog/reference/sokoban.pro``), a slower variant that is
still correct, and its mutants, one classic mistake each.

Each mutant is the reference with one line changed (:data:`MUTANTS`: the
exact text replaced and its replacement; each must match exactly once, so
the table stays honest when the reference changes) and declares the rule of
seed 003 it breaks (:mod:`.rules`): the check must blame that rule.
:data:`SLOW` is not a mutant: the reference written the way seed 003's own
program is (every state printed, the obstacles gathered again at every
step), which is slower and must still conform. :func:`materialize` writes a
folder at selftest time.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from conformance.profiles.prolog.rules import RULES
from levels import storage

REFERENCE = Path(__file__).resolve().parent / "reference"
#: Correct programs written the way other students of seed 003's course
#: might (``students/<name>/sokoban.pro``): each must conform.
STUDENTS_FOLDER = Path(__file__).resolve().parent / "students"
#: Their names: a breadth-first planner with library(assoc); states with
#: the boxes kept sorted; perform/3 by maplist/3 and names by atom_concat/3;
#: a planner layer by layer asserting what it has seen, printing every state.
STUDENTS = ("bfs", "sorted", "maplist", "layers")
MAIN = "sokoban.pro"


@dataclass(frozen=True)
class Mutant:
    name: str
    rule: str
    old: str
    new: str
    mistake: str


MUTANTS = (
    Mutant("edge_rows", "prolog.edges",
           "    F >= 1, F =< NF,", "    F >= 1, F < NF,",
           "the last row is taken to be off the table"),
    Mutant("edge_columns", "prolog.edges",
           "    C >= 1, C =< NC.", "    C >= 0, C =< NC.",
           "column 0 (beyond the left edge) is taken to be on the table"),
    Mutant("up_is_down", "prolog.directions",
           "up([F, C], [F1, C]) :- F1 is F - 1.", "up([F, C], [F1, C]) :- F1 is F + 1.",
           "up is row + 1 (the rows counted the other way)"),
    Mutant("right_two", "prolog.directions",
           "right([F, C], [F, C1]) :- C1 is C + 1.", "right([F, C], [F, C1]) :- C1 is C + 2.",
           "right jumps two columns"),
    Mutant("walk_through_obstacles", "prolog.free",
           "    \\+ obstacle(P),", "    true,",
           "free/2 forgets the obstacles"),
    Mutant("no_right_onto_destination", "prolog.move",
           "moveRight(j, P, Q)) :- at(State, j, P), right(P, Q), free(State, Q).",
           "moveRight(j, P, Q)) :- at(State, j, P), right(P, Q), free(State, Q), "
           "\\+ destination(Q).",
           "the player may not step right onto a destination"),
    Mutant("chain_push_left", "prolog.push",
           "left(P, B), at(State, c, B), left(B, B2), free(State, B2).",
           "left(P, B), at(State, c, B), left(B, B2), onTable(B2), \\+ obstacle(B2).",
           "pushing left ignores a box behind the box (two boxes at once)"),
    Mutant("move_leaves_player", "prolog.effects",
           "    replace([j, P], State, [j, Q], Next).", "    replace([j, Q], State, [j, Q], Next).",
           "a move leaves the player where it was"),
    Mutant("push_leaves_box", "prolog.effects",
           "    replace([c, B], State, [c, B2], Middle),", "    Middle = State,",
           "a push moves the player but leaves the box"),
    Mutant("push_leaves_player", "prolog.effects",
           "    replace([j, P], Middle, [j, B], Next).", "    Next = Middle.",
           "a push moves the box but leaves the player behind"),
    Mutant("first_box_only", "prolog.plan-goal",
           "    forall(at(State, c, P), destination(P)).",
           "    ( State = [_, [c, P]|_] -> destination(P) ; true ).",
           "the goal test looks at the first box of the state only"),
    Mutant("boxes_in_order", "prolog.plan-found",
           "    forall(at(State, c, P), destination(P)).",
           "    findall(P, at(State, c, P), Ps), findall(P, destination(P), Ps).",
           "the goal test wants the boxes on the destinations in the order of the facts "
           "(as seed 003's own program does): some solvable levels get no plan"),
)
BY_NAME = {m.name: m for m in MUTANTS}

#: The reference in the seed's own style: every state printed, the
#: obstacles gathered again at every step. Slower, and correct.
SLOW = (
    ("obstacle([F, C]) :- pista(F, C, o).",
     "obstacle(P) :- findall([F, C], pista(F, C, o), Os), member(P, Os)."),
    ("    \\+ member(Next, Visited),",
     "    \\+ member(Next, Visited), write('El proximo estado es: '), write(Next), nl,"),
)


def source(changes: tuple[tuple[str, str], ...]) -> str:
    """The reference's text with each ``(old, new)`` applied; ValueError
    unless each ``old`` occurs exactly once."""
    text = (REFERENCE / MAIN).read_text(encoding="utf-8")
    for old, new in changes:
        if text.count(old) != 1:
            raise ValueError(f"the reference has {text.count(old)} copies of {old!r} "
                             "(a mutant must change exactly one place)")
        text = text.replace(old, new)
    return text


def materialize(name: str, root: str | os.PathLike | None = None) -> Path:
    """A folder holding ``sokoban.pro`` for ``name`` (``"reference"``,
    ``"slow"``, ``"student_<name>"`` of :data:`STUDENTS`, or a mutant), under ``root`` (default: the user's cache
    folder), reused while its text is the same."""
    if name == "reference":
        return REFERENCE
    if name.startswith("student_") and name.removeprefix("student_") in STUDENTS:
        return STUDENTS_FOLDER / name.removeprefix("student_")
    changes = SLOW if name == "slow" else ((BY_NAME[name].old, BY_NAME[name].new),)
    text = source(changes)
    digest = hashlib.sha1(text.encode()).hexdigest()[:12]
    base = Path(root) if root is not None else storage.cache_dir("prolog-mutants")
    folder = base / f"{name}-{digest}"
    if not (folder / MAIN).is_file():
        folder.mkdir(parents=True, exist_ok=True)
        with storage.atomic_path(folder / MAIN) as tmp:
            Path(tmp).write_text(text, encoding="utf-8")
    return folder


assert all(m.rule in RULES for m in MUTANTS)
