"""Seed 003's vocabulary over the spec: tables, states, actions, plans.

Seed 003 (Vega and Martínez, "Implementación de un programa en SWI-Prolog
que encuentre soluciones a niveles simples del juego Sokoban") describes a
level as facts ``filas(N)``, ``columnas(M)``, ``pista(F, C, E)`` (``j``
player, ``c`` box, ``x`` destination, ``o`` obstacle), a state as the list
``[[j, [F, C]], [c, [F, C]], ...]`` and eight actions: ``moveUp(j, P1,
P2)`` ... and ``pushUp(c, P1, P2, Pj)`` ... ("up" is row - 1). This module
says, for a state, which actions are legal and what they do, **by asking
the spec** (:func:`spec.fisica.simular_accion`, seed 000's axioms, on the
table whose edge is a ring of walls, as :mod:`levels.prolog` reads it), and
names each in the seed's words.

Positions: the project's ``(x, y)`` is seed 003's ``[F, C] = [y, x]``.

Besides the judge (:func:`legal`, :func:`replay`), a fast successor
function for searching (:func:`shortest`, :func:`search_nodes`); a test
ties it to the spec on random states.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from conformance.profiles.prolog.terms import Atom, Compound
from conformance.translations import N_, _, marked
from levels.model import Level
from levels.prolog import format_prolog, has_board_edge, parse_prolog_facts, ring
from spec import fisica
from spec.tipos import Accion

#: Seed 003's direction words, by the spec's action ("Up" is row - 1).
DIRECTION = {Accion.ARRIBA: "Up", Accion.ABAJO: "Down",
             Accion.IZQUIERDA: "Left", Accion.DERECHA: "Right"}
#: Where a cell lies from another, by seed 003's direction word (in messages).
WAY = {"Up": N_("up"), "Down": N_("down"), "Left": N_("left"), "Right": N_("right")}
BY_WORD = {word: a for a, word in DIRECTION.items()}
MOVES = tuple("move" + w for w in DIRECTION.values())
PUSHES = tuple("push" + w for w in DIRECTION.values())


def cell(p: tuple[int, int]) -> list[int]:
    """``(x, y)`` as seed 003's ``[F, C]``."""
    return [p[1], p[0]]


def position(term: Any) -> tuple[int, int] | None:
    """Seed 003's ``[F, C]`` as ``(x, y)``; None when it is not one."""
    if (isinstance(term, list) and len(term) == 2
            and all(type(v) is int for v in term)):
        return (term[1], term[0])
    return None


@dataclass(frozen=True)
class State:
    """Where the player and the boxes are; ``boxes`` in the order of the
    state list (seed 003's program keeps each box at its place in the list)."""

    player: tuple[int, int]
    boxes: tuple[tuple[int, int], ...]

    def shifted(self) -> "State":
        """The state on :meth:`Table.grown`."""
        return State((self.player[0] + 1, self.player[1] + 1),
                     tuple((x + 1, y + 1) for x, y in self.boxes))

    def key(self) -> tuple:
        """What the comparison looks at: the order of boxes is ignored."""
        return (self.player, frozenset(self.boxes))

    def term(self) -> list:
        return [[Atom("j"), cell(self.player)]] + [[Atom("c"), cell(b)] for b in self.boxes]


def read_state(term: Any) -> State | str:
    """A state list as a :class:`State`, or a sentence saying why it is not
    one (no player, two players, a box twice, an item of another shape)."""
    if not isinstance(term, list):
        return _("it is not a list")
    player, boxes = [], []
    for item in term:
        if (isinstance(item, list) and len(item) == 2 and item[0] in ("j", "c")
                and isinstance(item[0], Atom) and position(item[1]) is not None):
            (player if item[0] == "j" else boxes).append(position(item[1]))
        else:
            return _("an item is not [j, [F, C]] or [c, [F, C]]")
    if len(player) != 1:
        return _("it has no player") if not player else _("it has more than one player")
    if len(set(boxes)) != len(boxes):
        return _("it lists a box twice")
    return State(player[0], tuple(boxes))


@dataclass(frozen=True)
class Table:
    """One level of seed 003: ``rows`` x ``columns`` cells numbered from 1,
    the facts in the order they are given (``pistas``, as ``(F, C, E)``)."""

    rows: int
    columns: int
    pistas: tuple[tuple[int, int, str], ...]
    title: str = ""

    @classmethod
    def from_level(cls, level: Level) -> "Table":
        """The table of a level bounded by its ring of walls (a level read
        from Prolog facts, or made for this profile); the facts in the order
        :func:`levels.format_prolog` writes them."""
        if not has_board_edge(level):
            raise ValueError("the level is not a seed 003 table (no ring of walls at its edge)")
        return cls.from_text(format_prolog(level))

    @classmethod
    def from_text(cls, text: str, source: str = "<level>") -> "Table":
        """The table a ``.pro`` level file describes, its facts in the
        file's order (raises :class:`levels.LevelError`)."""
        level, facts = parse_prolog_facts(text, source)
        return cls(level.height - 2, level.width - 2, tuple(facts), level.title or "")

    def _of(self, kind: str) -> tuple[tuple[int, int], ...]:
        return tuple((c, f) for f, c, e in self.pistas if e == kind)

    @property
    def player(self) -> tuple[int, int]:
        return self._of("j")[0]

    @property
    def boxes(self) -> tuple[tuple[int, int], ...]:
        return self._of("c")

    @property
    def goals(self) -> frozenset:
        return frozenset(self._of("x"))

    @property
    def obstacles(self) -> frozenset:
        return frozenset(self._of("o"))

    def walls(self) -> frozenset:
        """The obstacles and, around the table, its edge as a ring of walls."""
        return self.obstacles | ring(self.columns, self.rows)

    def on_table(self, p: tuple[int, int]) -> bool:
        """Seed 003's ``onTable``: rows 1..filas, columns 1..columnas."""
        return 1 <= p[0] <= self.columns and 1 <= p[1] <= self.rows

    def grown(self) -> "Table":
        """The same table with one more cell on every side (every fact one
        row down and one column right)."""
        return Table(self.rows + 2, self.columns + 2,
                     tuple((f + 1, c + 1, e) for f, c, e in self.pistas), self.title)

    def initial(self) -> State:
        return State(self.player, self.boxes)

    def level(self) -> Level:
        return Level(walls=self.walls(), boxes=frozenset(self.boxes), goals=self.goals,
                     player=self.player, title=self.title or None)

    def facts(self) -> list[Compound]:
        return [Compound("pista", (f, c, Atom(e))) for f, c, e in self.pistas]

    def text(self, consult: str = "sokoban.pro") -> str:
        """The level as a ``.pro`` file in seed 003's layout, its facts in
        this table's order, consulting ``consult`` (the program's own file,
        so that ``swipl`` on the level loads both)."""
        quoted = consult.replace("\\", "\\\\").replace("'", "\\'")
        lines = ["% " + _("Board size (the edge of the board is its boundary)"),
                 f"filas({self.rows}).", f"columnas({self.columns}).", "",
                 "% j = jugador, c = caja, x = destino, o = obstáculo"]
        lines += [f"pista({f}, {c}, {e})." for f, c, e in self.pistas]
        lines += ["", f":- consult('{quoted}')."]
        return "\n".join(lines) + "\n"

    def solved(self, state: State) -> bool:
        """Seed 003's final state: every box on a destination."""
        return all(b in self.goals for b in state.boxes)


# ------------------------------------------------------------------ the judge

@dataclass(frozen=True)
class Step:
    """One legal action of a state, in the seed's words, and its effect."""

    name: str                       # moveUp ... pushRight
    player: tuple[int, int]         # where the player stands before it
    to: tuple[int, int]             # where the player goes (a move) or the box goes (a push)
    box: tuple[int, int] | None     # the pushed box (a push)
    after: State

    def term(self) -> Compound:
        if self.box is None:
            return Compound(self.name, (Atom("j"), cell(self.player), cell(self.to)))
        return Compound(self.name, (Atom("c"), cell(self.box), cell(self.to), cell(self.player)))


def legal(table: Table, state: State) -> list[Step]:
    """The legal actions of ``state``, asked of the spec: for each of seed
    000's actions, ``simularAcción`` on the table; an action that leaves the
    player where it was is not legal (seed 003's precondition fails), one
    that moves a box is a push, the others are moves."""
    walls = table.walls()
    f = fisica.Fisica(personaje=state.player, cajas=frozenset(state.boxes),
                      paredes=walls, depositos=table.goals)
    out = []
    for accion, word in DIRECTION.items():
        g = fisica.simular_accion(f, accion)
        if g.personaje == state.player:
            continue
        if g.cajas == f.cajas:
            out.append(Step("move" + word, state.player, g.personaje, None,
                            State(g.personaje, state.boxes)))
        else:
            box = g.personaje
            (to,) = g.cajas - f.cajas
            boxes = tuple(to if b == box else b for b in state.boxes)
            out.append(Step("push" + word, state.player, to, box, State(box, boxes)))
    return out


def step_of(table: Table, state: State, term: Any) -> Step | None:
    """The legal step whose term is ``term``, or None."""
    for s in legal(table, state):
        if s.term() == term:
            return s
    return None


def why_illegal(table: Table, state: State, term: Any) -> str:
    """Why ``term`` is not a legal action of ``state``, in the seed's words
    (in the current language: :func:`illegal_rule` classifies it)."""
    if not isinstance(term, Compound) or term.name not in MOVES + PUSHES:
        return _("it is not one of the seed's actions (moveUp/3 ... pushRight/4)")
    word = term.name[4:]
    dx, dy = BY_WORD[word].value
    if term.name in MOVES:
        if len(term.args) != 3 or term.args[0] != "j":
            return _("{action} takes (j, From, To)").format(action=term.name)
        p, q = position(term.args[1]), position(term.args[2])
        if p is None or q is None:
            return _("From and To must be [Fila, Columna] positions")
        if p != state.player:
            return _("the player is at {cell}, not at {other}").format(
                cell=cell(state.player), other=cell(p))
        if q != (p[0] + dx, p[1] + dy):
            return _("{cell} is not the cell {direction} of {other}").format(
                cell=cell(q), direction=marked(WAY[word]), other=cell(p))
        return _entered(table, state, q, _("a box (moving into it is a push)"))
    if len(term.args) != 4 or term.args[0] != "c":
        return _("{action} takes (c, BoxFrom, BoxTo, PlayerFrom)").format(action=term.name)
    b, b2, p = (position(a) for a in term.args[1:])
    if None in (b, b2, p):
        return _("BoxFrom, BoxTo and PlayerFrom must be [Fila, Columna] positions")
    if p != state.player:
        return _("the player is at {cell}, not at {other}").format(
            cell=cell(state.player), other=cell(p))
    if b not in state.boxes:
        return _("there is no box at {cell}").format(cell=cell(b))
    if b != (p[0] + dx, p[1] + dy):
        return _("the box at {cell} is not {direction} of the player").format(
            cell=cell(b), direction=marked(WAY[word]))
    if b2 != (b[0] + dx, b[1] + dy):
        return _("{cell} is not the cell {direction} of the box").format(
            cell=cell(b2), direction=marked(WAY[word]))
    return _entered(table, state, b2, _("another box"))


def _entered(table: Table, state: State, q: tuple[int, int], box: str) -> str:
    """Why the cell a move or a push enters is not free (``box``: how to
    name a box there), or ``"it is legal"``."""
    if not table.on_table(q):
        return _("{cell} is off the table ({rows} rows x {columns} columns)").format(
            cell=cell(q), rows=table.rows, columns=table.columns)
    if q in table.obstacles:
        return _("{cell} holds an obstacle").format(cell=cell(q))
    if q in state.boxes:
        return _("{cell} holds {box}").format(cell=cell(q), box=box)
    return _("it is legal")


@dataclass(frozen=True)
class Replay:
    """A plan played through the spec: ``illegal`` is the index of the first
    illegal action (None: all legal) and ``reason`` why; ``states`` every
    state reached; ``won`` whether the last one is a final state."""

    states: tuple[State, ...]
    illegal: int | None
    reason: str = ""
    won: bool = False


def replay(table: Table, plan: Sequence[Any]) -> Replay:
    state = table.initial()
    states = [state]
    for i, term in enumerate(plan):
        s = step_of(table, state, term)
        if s is None:
            return Replay(tuple(states), i, why_illegal(table, state, term))
        state = s.after
        states.append(state)
    return Replay(tuple(states), None, "", table.solved(state))


# ------------------------------------------------------------------ searching

def _fast_steps(walls: frozenset, rows: int, columns: int, player, boxes: frozenset):
    """``(player, boxes)`` after each legal action (the same as
    :func:`legal`, faster: for searching only)."""
    px, py = player
    for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
        q = (px + dx, py + dy)
        if q in walls:
            continue
        if q in boxes:
            r = (q[0] + dx, q[1] + dy)
            if r in walls or r in boxes:
                continue
            yield q, (boxes - {q}) | {r}
        else:
            yield q, boxes


def shortest(table: Table, max_states: int = 20000) -> int | None | bool:
    """Moves of a shortest plan (breadth-first over the spec's states);
    None when there is none (the level is unsolvable); False when the
    search gave up after ``max_states`` states."""
    walls, goals = table.walls(), table.goals
    start = (table.player, frozenset(table.boxes))
    if start[1] <= goals:
        return 0
    seen = {start}
    frontier = [start]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for player, boxes in frontier:
            for s in _fast_steps(walls, table.rows, table.columns, player, boxes):
                if s not in seen:
                    if s[1] <= goals:
                        return depth
                    seen.add(s)
                    nxt.append(s)
        if len(seen) > max_states:
            return False
        frontier = nxt
    return None


def search_nodes(table: Table, depth: int, cap: int = 10 ** 7) -> int:
    """States an iterative deepening in seed 003's style visits when it
    explores every bound 0..``depth`` in full (a path never revisits one of
    its own states): an upper bound of its work on a level whose shortest
    plan has ``depth`` moves, whatever order it tries actions in. Stops
    counting at ``cap``."""
    walls = table.walls()
    rows, columns = table.rows, table.columns
    start = (table.player, frozenset(table.boxes))
    total = 0
    for bound in range(depth + 1):
        path = {start}
        stack = [(start, 0, iter(_fast_steps(walls, rows, columns, *start)))]
        total += 1
        while stack:
            node, d, it = stack[-1]
            if d == bound:
                stack.pop()
                path.discard(node)
                continue
            for s in it:
                if s not in path:
                    total += 1
                    if total >= cap:
                        return cap
                    path.add(s)
                    stack.append((s, d + 1, iter(_fast_steps(walls, rows, columns, *s))))
                    break
            else:
                stack.pop()
                path.discard(node)
    return total


#: What :func:`toward_push` walks to: a legal push, a push blocked by a box
#: behind the box (a chain), or one blocked by an obstacle or the edge.
TOWARD = ("push", "chain", "blocked")


def toward_push(table: Table, state: State, aim: str = "push") -> Step | None:
    """The player's first step on a shortest walk (no box moved) to the
    nearest cell from which the push ``aim`` names can be tried (see
    :data:`TOWARD`); None when there is none, or the player already
    stands on one."""
    walls, boxes = table.walls(), frozenset(state.boxes)
    first: dict = {state.player: None}
    frontier = [state.player]
    while frontier:
        nxt = []
        for p in frontier:
            for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                q = (p[0] + dx, p[1] + dy)
                if q in boxes:
                    r = (q[0] + dx, q[1] + dy)
                    found = {"push": r not in walls and r not in boxes,
                             "chain": r in boxes, "blocked": r in walls}[aim]
                    if found and p == state.player:
                        return None             # already there
                    if found:
                        return next(s for s in legal(table, state) if s.to == first[p])
                if q in walls or q in boxes or q in first:
                    continue
                first[q] = q if p == state.player else first[p]
                nxt.append(q)
        frontier = nxt
    return None


def solve(table: Table, max_states: int = 20000) -> list[Step] | None:
    """A shortest plan as the spec's steps (breadth-first); None when
    there is none or the search gave up after ``max_states`` states."""
    walls, goals = table.walls(), table.goals
    start = (table.player, frozenset(table.boxes))
    parent: dict = {start: None}
    frontier = [start]
    end = start if start[1] <= goals else None
    while frontier and end is None and len(parent) <= max_states:
        nxt = []
        for node in frontier:
            for s in _fast_steps(walls, table.rows, table.columns, *node):
                if s not in parent:
                    parent[s] = node
                    if s[1] <= goals:
                        end = s
                        break
                    nxt.append(s)
            if end is not None:
                break
        frontier = nxt
    if end is None:
        return None
    keys = []
    while end is not None:
        keys.append(end)
        end = parent[end]
    keys.reverse()
    state, steps = table.initial(), []
    for key in keys[1:]:
        step = next(s for s in legal(table, state) if s.after.key() == key)
        steps.append(step)
        state = step.after
    return steps


def hashable(term: Any) -> Any:
    """A term as a hashable value (lists become tuples), for comparing."""
    if isinstance(term, list):
        return ("[]",) + tuple(hashable(t) for t in term)
    if isinstance(term, Compound):
        return (term.name,) + tuple(hashable(a) for a in term.args)
    return (type(term).__name__, term)
