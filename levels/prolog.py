"""Seed 003's Prolog facts: ``filas(N).``, ``columnas(M).``,
``pista(F, C, j|c|x|o).`` and the ``:- consult('sokoban.pro').`` line.

Coordinate mapping: ``pista(F, C, _)`` is the position ``(x=C, y=F)``.  The
board (rows ``1..N``, columns ``1..M``) is bounded by its edge; on the infinite
grid of the TAD that edge becomes a ring of walls at rows ``0`` and ``N+1``
and columns ``0`` and ``M+1``.  So every number in the file keeps its value.

``j`` is the player (jugador), ``c`` a box (caja), ``x`` a goal (destino),
``o`` a wall (obstáculo).  Several facts may name one cell (a box on a goal).
``% Key: value`` comment lines carry the level's title and metadata (our
writer puts them there; the reader takes them back).
"""

from __future__ import annotations

import re

from .model import Level, LevelError, check_board_size

__all__ = ["parse_prolog", "parse_prolog_facts", "format_prolog", "looks_like_prolog", "ring",
           "has_board_edge"]

# Possessive quantifiers: once matched, never given back (no backtracking).
_LAYOUT = re.compile(r"(?:\s++|%[^\r\n]*+|/\*.*?\*/)*+", re.S)
_INT = r"\s*([0-9]{1,6})\s*"
_CLAUSES = [
    ("filas", re.compile(r"filas\s*\(" + _INT + r"\)\s*\.")),
    ("columnas", re.compile(r"columnas\s*\(" + _INT + r"\)\s*\.")),
    ("pista", re.compile(r"pista\s*\(" + _INT + "," + _INT + r",\s*([a-z]\w*)\s*\)\s*\.")),
    ("consult", re.compile(r":-\s*(?:consult\s*\(\s*(?:'[^'\r\n]*'|\"[^\"\r\n]*\"|[a-z]\w*)\s*\)"
                           r"|\[\s*(?:'[^'\r\n]*'|[a-z]\w*)\s*\])\s*\.")),
]
# No nested or adjacent unbounded quantifiers over the same characters: linear.
_META = re.compile(r"^%[^\S\n]*([A-Za-z][A-Za-z0-9_\-]*)[^\S\n]*:[^\S\n]?([^\n]*)", re.M)
_ELEMENTS = {"j": "player", "c": "box", "x": "goal", "o": "wall"}
_STARTS = ("filas", "columnas", "pista", ":-")


def _skip_layout(text: str, pos: int) -> int:
    """The index of the first character at or after ``pos`` that is not
    white space, a ``%`` comment or a ``/* */`` comment (an unterminated
    ``/*`` is not skipped).  Linear: nothing follows the pattern, so it never
    backtracks (``looks_like_prolog`` once had ``filas`` after it: 2^n)."""
    return _LAYOUT.match(text, pos).end()


def looks_like_prolog(text: str) -> bool:
    """True when the first thing after comments is a fact of seed 003.
    Linear time (it once was an exponential regular expression)."""
    text = text.lstrip("\ufeff")
    return text.startswith(_STARTS, _skip_layout(text, 0))


def _where(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + text.count("\r", 0, pos) - text.count("\r\n", 0, pos) + 1
    start = max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos)) + 1
    return line, pos - start + 1


def ring(columns: int, rows: int) -> frozenset:
    """The walls around a board of ``rows`` x ``columns`` cells at 1..rows,
    1..columns: rows 0 and rows+1, columns 0 and columns+1."""
    top = {(x, y) for x in range(columns + 2) for y in (0, rows + 1)}
    side = {(x, y) for y in range(rows + 2) for x in (0, columns + 1)}
    return frozenset(top | side)


def parse_prolog(text: str, source: str = "<string>") -> Level:
    """The level described by seed 003's facts; raises :class:`LevelError`
    (naming the file, line, column and, when the file gives one in a
    ``% Title:`` comment, the level's title)."""
    return parse_prolog_facts(text, source)[0]


def parse_prolog_facts(text: str, source: str = "<string>") -> tuple[Level, list[tuple[int, int, str]]]:
    """Like :func:`parse_prolog`, and the file's ``pista(F, C, E)`` facts
    as ``(F, C, E)`` in the order the file gives them (a fact given twice
    is listed once): seed 003's program builds its states in that order."""
    if not isinstance(text, str):
        raise LevelError("expected text, got " + type(text).__name__, source=source)
    text = text.lstrip("\ufeff")
    try:
        return _parse_prolog(text, source)
    except LevelError as e:
        titles = [v for k, v, _, _ in _metadata(text) if k == "Title"]
        raise LevelError(e.problem, source=e.source, line=e.line, column=e.column,
                         level_number=1, level_title=titles[0] if titles else None) from None


def _unix(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _metadata(text: str) -> list[tuple[str, str, int, int]]:
    """``% Key: value`` comment lines: ``(key, value, line, column of the
    value)``, in file order."""
    unix = _unix(text)
    out = []
    line, last = 1, 0
    for m in _META.finditer(unix):
        line += unix.count("\n", last, m.start())
        last = m.start()
        start = m.start(2) - m.start() + 1
        value = m.group(2)
        stripped = value.lstrip()
        out.append((m.group(1), stripped.rstrip(), line, start + len(value) - len(stripped)))
    return out


def _parse_prolog(text: str, source: str) -> tuple[Level, list[tuple[int, int, str]]]:
    pos, n = 0, len(text)
    size: dict[str, tuple[int, int]] = {}
    facts: list[tuple[int, int, str, int]] = []  # (F, C, element, pos)
    while True:
        pos = _skip_layout(text, pos)
        if pos >= n:
            break
        if text.startswith("/*", pos):
            raise LevelError("unterminated /* comment", source=source,
                             line=_where(text, pos)[0], column=_where(text, pos)[1])
        for name, rx in _CLAUSES:
            m = rx.match(text, pos)
            if m:
                break
        else:
            line, col = _where(text, pos)
            snippet = re.split(r"[\r\n]", text[pos:pos + 40])[0]
            raise LevelError(f"expected filas(N)., columnas(M)., pista(F, C, j|c|x|o). "
                             f"or :- consult(...).; found {snippet!r}",
                             source=source, line=line, column=col)
        if name in ("filas", "columnas"):
            value = int(m.group(1))
            if name in size and size[name][0] != value:
                line, col = _where(text, pos)
                raise LevelError(f"{name} given twice ({size[name][0]} and {value})",
                                 source=source, line=line, column=col)
            size[name] = (value, pos)
        elif name == "pista":
            el = m.group(3)
            if el not in _ELEMENTS:
                line, col = _where(text, m.start(3))
                raise LevelError(f"unknown element {el!r} in pista (expected j "
                                 "jugador, c caja, x destino, o obstáculo)",
                                 source=source, line=line, column=col)
            facts.append((int(m.group(1)), int(m.group(2)), el, pos))
        pos = m.end()
    for name in ("filas", "columnas"):
        if name not in size:
            raise LevelError(f"missing {name}(N).", source=source)
    rows, cols = size["filas"][0], size["columnas"][0]
    if rows < 1 or cols < 1:
        raise LevelError(f"the board must have at least one row and one column, "
                         f"not {rows} x {cols}", source=source)
    # With its ring of walls the board is (cols + 2) x (rows + 2) cells.
    line, col = _where(text, max(size["filas"][1], size["columnas"][1]))
    check_board_size(cols + 2, rows + 2, source=source, line=line, column=col)
    walls, boxes, goals = set(ring(cols, rows)), set(), set()
    player = None
    for f, c, el, at in facts:
        if not (1 <= f <= rows and 1 <= c <= cols):
            line, col = _where(text, at)
            raise LevelError(f"pista({f}, {c}, {el}) is off the board ({rows} rows "
                             f"x {cols} columns, numbered from 1)",
                             source=source, line=line, column=col)
        p = (c, f)
        if el == "j":
            if player is not None and player != p:
                line, col = _where(text, at)
                raise LevelError(f"a second player pista({f}, {c}, j); the first is "
                                 f"pista({player[1]}, {player[0]}, j)",
                                 source=source, line=line, column=col)
            player = p
        else:
            {"c": boxes, "x": goals, "o": walls}[el].add(p)
    found = _metadata(text)
    meta = {k: v for k, v, _, _ in found}
    title = meta.pop("Title", None) or None
    bombs_text = meta.pop("Bombs", "0")
    if not re.fullmatch(r"[0-9]{1,9}", bombs_text):
        line, col = next((ln, c) for k, v, ln, c in reversed(found) if k == "Bombs")
        raise LevelError(f"Bombs must be a whole number >= 0, not {bombs_text!r}",
                         source=source, line=line, column=col)
    solutions = tuple(v for k, v, _, _ in found if k.lower().startswith("solution"))
    for k in [k for k in meta if k.lower().startswith("solution")]:
        del meta[k]
    if solutions:
        from .lurd import check as check_moves
        for k, v, line, col in found:
            if k.lower().startswith("solution"):
                try:
                    check_moves(v, source)
                except LevelError as e:
                    raise LevelError("bad solution: " + e.problem, source=source, line=line,
                                     column=None if e.column is None else col + e.column - 1
                                     ) from None
    level = Level(walls=frozenset(walls), boxes=frozenset(boxes),
                  goals=frozenset(goals), player=player, bombs=int(bombs_text),
                  title=title, number=1, metadata=meta, solutions=solutions,
                  source=source, line=None)
    return level, list(dict.fromkeys((f, c, el) for f, c, el, _ in facts))


def has_board_edge(level: Level) -> bool:
    """True when ``level`` is bounded by the ring of walls around
    ``(0, 0)..(width-1, height-1)`` and nothing else sits on that ring, as
    every level read from Prolog facts is."""
    w, h = level.width, level.height
    if w < 3 or h < 3 or any(x < 0 or y < 0 for x, y in level.positions()):
        return False
    return ring(w - 2, h - 2) <= level.walls and not (
        ring(w - 2, h - 2) & (level.boxes | level.goals
                              | ({level.player} if level.player else set())))


def format_prolog(level: Level) -> str:
    """Seed 003's facts for ``level``.

    If the level is already bounded by the ring of walls around
    ``(0, 0)..(width-1, height-1)`` (as every level read from Prolog is),
    that ring is the board's edge and ``parse_prolog(format_prolog(l)) == l``.
    Otherwise the whole bounding box becomes the board, moved so that its
    corner is ``pista(1, 1, _)``; reading it back gives the level moved and
    enclosed (documented in ``docs/levels.md``).
    """
    if has_board_edge(level):
        cols, rows = level.width - 2, level.height - 2
        dx = dy = 0
        inner_walls = level.walls - ring(cols, rows)
    else:
        ps = level.positions() or {(0, 0)}
        minx, miny = min(x for x, _ in ps), min(y for _, y in ps)
        maxx, maxy = max(x for x, _ in ps), max(y for _, y in ps)
        cols, rows = maxx - minx + 1, maxy - miny + 1
        dx, dy = 1 - minx, 1 - miny
        inner_walls = level.walls

    def facts(ps, el):
        return [f"pista({y + dy}, {x + dx}, {el})." for x, y in sorted(ps, key=lambda p: (p[1], p[0]))]

    out = []
    for key, value in ([("Title", level.title)] if level.title else []) + list(level.metadata.items()):
        if "\n" in value or "\r" in value:
            raise LevelError(f"metadata {key!r} spans lines; the Prolog format keeps "
                             "one line per key", level_number=level.number)
        out.append(f"% {key}: {value}")
    if level.bombs:
        out.append(f"% Bombs: {level.bombs}")
    out.extend(f"% Solution: {s}" for s in level.solutions)
    out.append("% Board size (the edge of the board is its boundary)")
    out.append(f"filas({rows}).")
    out.append(f"columnas({cols}).")
    out.append("")
    out.append("% j = jugador, c = caja, x = destino, o = obstáculo")
    if level.player is not None:
        out.extend(facts([level.player], "j"))
    out.extend(facts(level.boxes, "c"))
    out.extend(facts(level.goals, "x"))
    out.extend(facts(inner_walls, "o"))
    out.append("")
    out.append(":- consult('sokoban.pro').")
    return "\n".join(out) + "\n"
