"""XSB / SOK reader and writer, and seed 002's list-of-strings descriptions.

Reading rules (see ``docs/levels.md`` for the full account):

* Lines end with LF, CRLF or a lone CR.  Lines starting with ``::`` are SOK
  comments and are ignored.
* A *board line* is made only of piece characters (``# @ + $ * .``, the
  alternatives ``p P b B`` and ``W`` for a wall, floor as space ``-`` ``_``) and
  run-length characters (digits, ``( )`` and ``|`` joining rows), with at least
  one piece character.  Consecutive board lines form one level's board.
* Right after a board come its ``Key: value`` lines (``Title``, ``Author``,
  ``Bombs``, ``Solution``..., a ``Comment:`` ... ``Comment-End:`` block); the
  first other line ends them.
* Between that and the next board, the last paragraph (lines not separated
  by a blank line) belongs to the next level: its ``Key: value`` lines are
  metadata, its text line nearest the board (a ``;`` comment or a plain line)
  is the title, unless a ``Title:`` key gives one.  Every other text line
  (earlier paragraphs: a file header, notes between levels) is kept in the
  level's ``Comment``.
* A line that starts with ``#`` next to a board line and is mostly made of
  board characters is taken as a damaged board row: it is reported, with the
  column of the first character that does not belong.
"""

from __future__ import annotations

import bisect
import re

from .lurd import check as check_moves
from .model import MAX_CELLS, Level, LevelError, check_board_size, cycle_collector_paused
from .rle import RLEError, expand, has_rle

__all__ = ["parse_xsb", "format_xsb", "from_soko_desc", "to_soko_desc",
           "split_lines", "PIECES"]

WALL, PLAYER, PLAYER_GOAL, BOX, BOX_GOAL, GOAL, FLOOR = "wall player player+goal box box+goal goal floor".split()

#: Every accepted piece character and what it is.
PIECES = {
    "#": WALL, "W": WALL,
    "@": PLAYER, "p": PLAYER,
    "+": PLAYER_GOAL, "P": PLAYER_GOAL,
    "$": BOX, "b": BOX,
    "*": BOX_GOAL, "B": BOX_GOAL,
    ".": GOAL,
    " ": FLOOR, "-": FLOOR, "_": FLOOR,
}
_RLE_CHARS = set("0123456789()|")
_BOARD_CHARS = set(PIECES) | _RLE_CHARS
_PIECE_MARKS = set(PIECES) - {" "}

_WALL_CHARS = frozenset(c for c, k in PIECES.items() if k == WALL)
_FLOOR_CHARS = frozenset(c for c, k in PIECES.items() if k == FLOOR)
_BOX_CHARS = frozenset(c for c, k in PIECES.items() if k == BOX)
_GOAL_CHARS = frozenset(c for c, k in PIECES.items() if k == GOAL)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_KEY = re.compile(r"^([A-Za-z][A-Za-z0-9_\-]*(?: [A-Za-z0-9_\-]+){0,3}(?:\s*\([^()\r\n]*\))?)\s*:(.*)$")
_LURD_LINE = re.compile(r"^[lurdLURD0-9()\s]+$")


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` whatever its line endings (LF, CRLF, lone CR)."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


_ONLY_BOARD_CHARS = re.compile("[" + re.escape("".join(sorted(_BOARD_CHARS))) + "]+")
_A_PIECE_MARK = re.compile("[" + re.escape("".join(sorted(_PIECE_MARKS))) + "]")
_TEXT_BY_BOARD = re.compile(r"(?<=b)t|t(?=b)")
_TEXT_LINE = re.compile("t")
_BOARD_RUN = re.compile("b+")
_PARAGRAPH = re.compile("[ti]+")


def _looks_like_damaged_row(line: str) -> bool:
    s = line.strip()
    if not s.startswith("#"):
        return False
    good = sum(c in _BOARD_CHARS for c in s)
    return good >= 0.75 * len(s)


class _Board:
    """Decodes board rows into the sets of a level."""

    def __init__(self, source: str):
        self.source = source
        self.walls: set = set()
        self.boxes: set = set()
        self.goals: set = set()
        self.player = None
        self.player_at = None
        self.width = 0  # of the widest row so far
        self.height = 0

    def add_rows(self, rows: list[str], y: int, lineno: int | None, colmap=None):
        """Decode ``rows`` as rows ``y``, ``y + 1``...; row ``i`` is file line
        ``lineno + i``, or ``lineno`` for all of them when ``colmap`` is
        given (rows expanded from one run-length encoded line, ``colmap``
        giving a cell's column in that line). Refuses a board over
        :data:`MAX_CELLS` before reading the row that makes it so."""
        width = max(map(len, rows), default=0)
        width = width if width > self.width else self.width
        height = y + len(rows)
        height = height if height > self.height else self.height
        if width * height > MAX_CELLS:
            self._refuse(rows, y, lineno, colmap)
        self.width, self.height = width, height
        walls, boxes, goals = self.walls, self.boxes, self.goals
        floor, wall, box, goal = _FLOOR_CHARS, _WALL_CHARS, _BOX_CHARS, _GOAL_CHARS
        step = 0 if colmap else 1
        for row in rows:        # one pass: the common pieces here, the rest by add()
            for x, ch in enumerate(row):
                if ch in floor:
                    continue
                if ch in wall:
                    walls.add((x, y))
                elif ch in box:
                    boxes.add((x, y))
                elif ch in goal:
                    goals.add((x, y))
                else:
                    self.add(ch, (x, y), lineno, colmap(x) if colmap else x + 1)
            y += 1
            lineno += step

    def _refuse(self, rows, y, lineno, colmap):
        """Raise the :class:`LevelError` for the first of ``rows`` that makes
        the board too large (line and column where it happens)."""
        width, height = self.width, self.height
        for i, row in enumerate(rows):
            new_width, new_height = max(width, len(row)), max(height, y + i + 1)
            if new_width * new_height > MAX_CELLS:
                col = (1 if colmap or max(width, 1) * new_height > MAX_CELLS
                       else MAX_CELLS // new_height + 1)
                check_board_size(new_width, new_height, source=self.source,
                                 line=lineno if colmap else lineno + i, column=col)
            width, height = new_width, new_height

    def add(self, ch: str, p, lineno: int | None = None, col: int | None = None):
        """Put the piece(s) of XSB character ``ch`` at ``p``."""
        kind = PIECES.get(ch)
        if kind is None:
            raise LevelError(f"unexpected character {ch!r} in a board row "
                             f"(pieces are # @ + $ * . p P b B W, floor is "
                             f"space - _)", source=self.source, line=lineno,
                             column=col)
        if kind != FLOOR:
            if kind == WALL:
                self.walls.add(p)
            if kind in (GOAL, BOX_GOAL, PLAYER_GOAL):
                self.goals.add(p)
            if kind in (BOX, BOX_GOAL):
                self.boxes.add(p)
            if kind in (PLAYER, PLAYER_GOAL):
                if self.player is not None:
                    first = self.player_at
                    raise LevelError(
                        f"a second player (the first is at line {first[0]}, "
                        f"column {first[1]}); a level has one character"
                        if first[0] is not None else
                        "a second player; a level has one character",
                        source=self.source, line=lineno, column=col)
                self.player = p
                self.player_at = (lineno, col)

    def level(self, trusted: bool = False, **fields) -> Level:
        """The level decoded, with the other :class:`Level` ``fields``;
        ``trusted`` when they already have their final types (see
        :meth:`Level._trusted`)."""
        make = Level._trusted if trusted else Level
        return make(walls=frozenset(self.walls), boxes=frozenset(self.boxes),
                    goals=frozenset(self.goals), player=self.player, **fields)


def level_from_cells(cells, **fields) -> Level:
    """A level from ``(position, XSB character)`` pairs; ``fields`` are the
    other :class:`Level` fields.  Raises :class:`LevelError` (a stray
    character, a second player)."""
    board = _Board("<cells>")
    for p, ch in cells:
        board.add(ch, p)
    return board.level(**fields)


def _decode_board(lines: list[str], start: int, stop: int, source: str) -> tuple[_Board, bool]:
    """The board of ``lines[start:stop]`` (file lines ``start + 1`` ...)."""
    board = _Board(source)
    rows = lines[start:stop]
    if not has_rle("".join(rows)):
        board.add_rows(rows, 0, start + 1)
        return board, False
    y = 0
    for lineno, line in enumerate(rows, start + 1):
        if has_rle(line):
            try:
                flat = expand(line).split("|")
            except RLEError as e:
                raise LevelError(f"bad run-length encoding: {e}", source=source,
                                 line=lineno, column=e.index + 1) from None
            board.add_rows(flat, y, lineno, colmap=lambda x: None)
            y += len(flat)
        else:
            board.add_rows([line], y, lineno)
            y += 1
    return board, True


def parse_xsb(text: str, source: str = "<string>") -> list[Level]:
    """Every level in an XSB/SOK text, numbered from 1 in file order.

    Raises :class:`LevelError` (and nothing else) on malformed input.
    """
    with cycle_collector_paused():
        return _parse_xsb(text, source)


def _parse_xsb(text: str, source: str) -> list[Level]:
    if not isinstance(text, str):
        raise LevelError("expected text, got " + type(text).__name__, source=source)
    text = text.lstrip("\ufeff")
    lines = split_lines(text)
    # One letter per line, so that runs of lines are found by regular
    # expressions over this string (C speed, linear): b a board line (only
    # board characters, with a piece), _ blank, i ignored (a :: comment), t text.
    full, mark = _ONLY_BOARD_CHARS.fullmatch, _A_PIECE_MARK.search
    kinds = "".join(["_" if not ln or ln.isspace() else "i" if ln[:2] == "::" else
                     "b" if full(ln) and mark(ln) else "t" for ln in lines])
    # Damaged rows next to a board: report them instead of reading them as text.
    for m in _TEXT_BY_BOARD.finditer(kinds):
        i = m.start()
        if _looks_like_damaged_row(lines[i]):
            line = lines[i]
            col = next(j for j, c in enumerate(line) if c not in _BOARD_CHARS)
            above = i > 0 and kinds[i - 1] == "b"
            number = len(_BOARD_RUN.findall(kinds, 0, i if above else i + 2))
            raise LevelError(f"unexpected character {line[col]!r} in a board row "
                             "(pieces are # @ + $ * . p P b B W, floor is space - _)",
                             source=source, line=i + 1, column=col + 1,
                             level_number=number)
    ends = {"lines": lines, "kinds": kinds}  # + "index", made when a block is first met
    levels: list[Level] = []
    i = 0  # the first line not yet read
    for run in _BOARD_RUN.finditer(kinds):
        start, stop = run.span()
        if stop <= i:  # inside the keys of the previous board (a Key: ... Key-End: block)
            continue
        start = max(start, i)
        number = len(levels) + 1
        meta: dict[str, list[str]] = {}  # a repeated key's lines, joined at the end
        info = {"title": None, "bombs": 0, "solutions": [], "comments": [], "ends": ends}
        # Paragraphs between the previous level and this board: runs of
        # non-blank lines holding some text.
        paragraphs = [para for para in ([j for j in range(p.start(), p.end()) if kinds[j] == "t"]
                                        for p in _PARAGRAPH.finditer(kinds, i, start)) if para]
        for para in paragraphs[:-1]:  # a file header, or notes between levels
            info["comments"].extend(t for t in (_text_of(lines[j]) for j in para) if t)
        for j in paragraphs[-1] if paragraphs else []:
            _pre_line(lines[j], j + 1, meta, info, source, number)
        i = _after_block(lines, kinds, stop, meta, info, source, number)
        try:
            board, rle_used = _decode_board(lines, start, stop, source)
        except LevelError as e:
            raise LevelError(e.problem, source=source, line=e.line, column=e.column,
                             level_number=number, level_title=info["title"]) from None
        if info["comments"]:
            joined = "\n".join(info["comments"])
            meta.setdefault("Comment", []).append(joined)
        levels.append(board.level(
            trusted=True,
            bombs=info["bombs"], title=info["title"], number=number,
            metadata={k: "\n".join(v) for k, v in meta.items()} if meta else {},
            solutions=tuple(["".join(parts) for parts in info["solutions"]]),
            source=source, line=None if rle_used else start + 1))
    return levels


def _text_of(line: str) -> str:
    return _uncommented(line.strip())


def _uncommented(stripped: str) -> str:
    """A stripped text line without its leading ``;`` (a comment's text)."""
    return stripped[1:].strip() if stripped[:1] == ";" else stripped


def _pre_line(line, lineno, meta, info, source, number):
    """A text line before a board: metadata, title candidate or comment."""
    t = line.strip()
    m = None if t[:1] == ";" else _KEY.match(t)
    if m:
        _key_value(m.group(1), m.group(2).strip(), lineno, meta, info, source, number, line)
        return
    t = _uncommented(t)
    if not t:
        return
    if info.get("title_from_key"):
        info["comments"].append(t)
        return
    if info["title"] is not None:
        info["comments"].append(info["title"])
    info["title"] = t


def _key_value(key, value, lineno, meta, info, source, number, raw=None):
    low = key.lower()
    if low == "title":
        if info["title"] is not None and not info.get("title_from_key"):
            info["comments"].append(info["title"])
        info["title"] = value or None
        info["title_from_key"] = True
    elif low == "bombs":
        if not re.fullmatch(r"[0-9]{1,9}", value):
            raise LevelError(f"Bombs must be a whole number >= 0, not {value!r}",
                             source=source, line=lineno, level_number=number,
                             column=None if raw is None else len(raw.rstrip()) - len(value) + 1,
                             level_title=info["title"])
        info["bombs"] = int(value)
    elif low.startswith("solution"):
        if value:
            _check_lurd(value, lineno, source, number, info, raw)
        info["solutions"].append([value.replace(" ", "").replace("\t", "")])
    else:
        meta.setdefault(key, []).append(value)


def _check_lurd(text, lineno, source, number, info, raw=None):
    """Check a solution (``text``, the end of the file line ``raw``); an
    error names the line and, when ``raw`` is given, the column."""
    try:
        check_moves(text)
    except LevelError as e:
        column = None
        if raw is not None and e.column is not None:
            column = len(raw.rstrip()) - len(text) + e.column
        raise LevelError("bad solution: " + e.problem, source=source, line=lineno,
                         column=column, level_number=number,
                         level_title=info["title"]) from None


def _block_end(info, lines, key, i) -> int | None:
    """The index of the first ``Key-End:`` line after line ``i``, or ``None``;
    the end lines are indexed once per file by :func:`parse_xsb` (no scan per key: linear time)."""
    shared = info["ends"]
    if "index" not in shared:
        index: dict[str, list[int]] = {}  # key -> indices of its Key-End: lines
        for m in _TEXT_LINE.finditer(shared["kinds"]):
            s = shared["lines"][m.start()].strip().lower()
            if s.endswith("-end:"):
                index.setdefault(s[:-5], []).append(m.start())
        shared["index"] = index
    found = shared["index"].get(key.lower(), ())
    k = bisect.bisect_right(found, i)
    return found[k] if k < len(found) else None


def _after_block(lines, kinds, i, meta, info, source, number) -> int:
    """Read the ``Key: value`` lines right after a board; return the index of
    the first line that is not part of them."""
    n = len(lines)
    while i < n and kinds[i] == "t":
        line = lines[i].strip()
        if line.startswith(";"):
            break
        m = _KEY.match(line)
        if not m:
            if info["solutions"] and _LURD_LINE.match(line):
                _check_lurd(line, i + 1, source, number, info, lines[i])
                info["solutions"][-1].append("".join(line.split()))
                i += 1
                continue
            break
        key, value = m.group(1), m.group(2).strip()
        if not value and not key.lower().startswith("solution"):
            end = _block_end(info, lines, key, i)
            if end is not None:
                block = "\n".join(lines[i + 1:end])
                if key.lower() == "title":
                    _key_value(key, block.strip(), i + 1, meta, info, source, number)
                else:
                    meta.setdefault(key, []).append(block)
                i = end + 1
                continue
        _key_value(key, value, i + 1, meta, info, source, number, lines[i])
        i += 1
    return i


def format_xsb(levels_) -> str:
    """SOK text of the levels: for each, ``; title``, the board, its metadata
    (multi-line values as ``Key:`` ... ``Key-End:`` blocks), ``Bombs: N`` when
    non-zero, one ``Solution:`` line per solution, then a blank line.

    ``parse_xsb(format_xsb(ls))`` gives back ``ls`` (renumbered from 1).
    """
    if isinstance(levels_, Level):
        levels_ = [levels_]
    out: list[str] = []
    for lv in levels_:
        if lv.title:
            if "\n" in lv.title or "\r" in lv.title:
                raise LevelError("a title cannot span lines", level_number=lv.number)
            out.append(f"; {lv.title}")
        rows = lv.rows()
        out.extend(r if r else "-" for r in rows)
        if not rows:
            out.append("-")
        for key, value in lv.metadata.items():
            out.extend(_key_lines(key, value, lv))
        if lv.bombs:
            out.append(f"Bombs: {lv.bombs}")
        out.extend(f"Solution: {s}" for s in lv.solutions)
        out.append("")
    return "\n".join(out) + ("\n" if out else "")


def _key_lines(key: str, value: str, lv: Level) -> list[str]:
    """``Key: value`` lines that read back as ``value``: one line; or one
    line per line of a multi-line value (the reader joins repeated keys);
    or a ``Key:`` ... ``Key-End:`` block when lines are blank or padded."""
    lines = split_lines(value) if value else [""]
    if "\n" not in value and "\r" not in value and value == value.strip():
        return [f"{key}: {value}"]
    if all(ln and ln == ln.strip() for ln in lines) and len(lines) == value.count("\n") + 1 \
            and "\r" not in value:
        return [f"{key}: {ln}" for ln in lines]
    end = f"{key}-end:"
    if "\r" in value or any(ln.strip().lower() == end for ln in lines):
        raise LevelError(f"metadata {key!r} cannot be written as SOK text",
                         level_number=lv.number, level_title=lv.title)
    return [f"{key}:", *value.split("\n"), f"{key}-End:"]


def from_soko_desc(desc: list[str]) -> Level:
    """A level from seed 002's description (a list of strings, one per row)."""
    if isinstance(desc, str) or not all(isinstance(r, str) for r in desc):
        raise LevelError("a description is a list of strings", source="<desc>")
    board = _Board("<desc>")
    board.add_rows(list(desc), 0, 1)
    return board.level()


def to_soko_desc(level: Level) -> list[str]:
    """Seed 002's description of ``level``: its rows, padded to one width."""
    rows = level.rows()
    w = max(map(len, rows), default=0)
    return [r.ljust(w) for r in rows]
