"""XSB / SOK reader and writer, and seed 002's list-of-strings descriptions.

Reading rules (SOK 0.19, the format of YASC, JSoko and sokoenginepy; see
``docs/levels.md`` for the full account):

* Lines end with LF, CRLF or a lone CR.  Lines starting with ``::`` are SOK
  comments and are ignored.
* A *board line* is made only of piece characters (``# @ + $ * .``, the
  alternatives ``p P b B`` and ``W`` for a wall, floor as space ``-`` ``_``) and
  run-length characters (digits, ``( )`` and ``|`` joining rows), with at least
  one piece character.  Consecutive board lines form one level's board.
* After a board, a *moves line* (``lurdLURD``, SOK's marks ``[ ] { } *``,
  run-length counts and groups) starts a snapshot: a saved game or solution.
* File notes come before the first board; a puzzle's notes follow its board;
  a snapshot's notes follow its moves.  Notes are ``Key: value`` lines, blocks
  (``Comment:`` ... ``Comment-End:``) and free text.
* A title is the last non-blank line before a board or a snapshot, when a
  blank line precedes it or it is the only text line there; a ``Title:`` key
  in the owner's notes wins over it.
* A puzzle of another variant (``Game: Hexoban``) is skipped, and so is a
  puzzle with a problem, unless the read is strict.
* A line that starts with ``#`` next to a board line and is mostly made of
  board characters is taken as a damaged board row: it is reported, with the
  column of the first character that does not belong.
"""

from __future__ import annotations

import bisect
import re

import warnings

from .lurd import check as check_moves, column_of
from .model import (MAX_CELLS, Collection, Level, LevelError, LevelWarning, Snapshot,
                    check_board_size, cycle_collector_paused)
from .rle import RLEError, expand, has_rle

__all__ = ["parse_sok", "parse_xsb", "format_xsb", "from_soko_desc", "to_soko_desc",
           "split_lines", "line_kind", "key_of", "note_line_ok", "warn_skipped", "PIECES", "MOVES_WIDTH",
           "VARIANT_SKIP"]

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


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` whatever its line endings (LF, CRLF, lone CR)."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


_ONLY_BOARD_CHARS = re.compile("[" + re.escape("".join(sorted(_BOARD_CHARS))) + "]+")
_A_PIECE_MARK = re.compile("[" + re.escape("".join(sorted(_PIECE_MARKS))) + "]")
_TEXT_BY_BOARD = re.compile(r"(?<=b)[tk]|[tk](?=b)")
_KEY_LINE = re.compile("k")
_BOARD_RUN = re.compile("b+")


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


def _decode_board(lines: list[str], start: int, stop: int, source: str,
                  spend=None) -> tuple[_Board, bool]:
    """The board of ``lines[start:stop]`` (file lines ``start + 1`` ...);
    ``spend(n, lineno)`` is told of the ``n`` characters each run-length
    encoded line adds."""
    board = _Board(source)
    rows = lines[start:stop]
    if not has_rle("".join(rows)):
        board.add_rows(rows, 0, start + 1)
        return board, False
    y = 0
    for lineno, line in enumerate(rows, start + 1):
        if has_rle(line):
            try:
                flat = expand(line)
            except RLEError as e:
                raise LevelError(f"bad run-length encoding: {e}", source=source,
                                 line=lineno, column=e.index + 1) from None
            cut = flat.split("|")
            board.add_rows(cut, y, lineno, colmap=lambda x: None)  # refuses a board too large
            if spend is not None:
                spend(len(flat) - len(line), lineno)
            y += len(cut)
        else:
            board.add_rows([line], y, lineno)
            y += 1
    return board, True


# -- reading: the SOK structure -------------------------------------------------
#
# A file is read in three steps, each linear in its size:
#
# 1. every line gets a kind (one letter, so that runs are found by regular
#    expressions over one string): ``b`` board, ``m`` moves, ``_`` blank,
#    ``i`` a ``::`` comment, ``t`` text;
# 2. the lines between boards become *elements* (text, keys, blocks, moves
#    runs, ``Solution`` keys with their continuation lines), cut into
#    segments at each moves run: the file notes, then per puzzle its notes
#    and each snapshot's notes;
# 3. each board and snapshot takes its title line from the segment before it
#    (SOK's blank-line rule), then each segment is read as notes and keys.

#: Characters of a moves line (SOK 0.19: ``l u r d``, ``L U R D``, jumps
#: ``[ ]``, pusher changes ``{ }``, the current position ``*``, run-length
#: counts and groups, spaces); it needs one of ``lurdLURD[]{}``.
_ONLY_MOVES_CHARS = re.compile(r"[lurdLURD0-9()\[\]{}* \t]+")
_A_MOVE_MARK = re.compile(r"[lurdLURD\[\]{}]")
#: What a moves line may begin and end with: a quick test before the regex.
_MOVES_ENDS = frozenset("lurdLURD0123456789()[]{}* \t")
_MOVES_RUN = re.compile("m+")
#: SOK's tags, which may also be written ``Key = value`` (sokoenginepy reads them so).
_EQ_KEY = re.compile(r"^(Title|Author|Game|Collection|Solver|boxorder|goalorder"
                     r"|Date Created|Date of Last Change)\s*=(.*)$", re.IGNORECASE)
_BLANK_RUN = re.compile("_+")
_TEXT_RUN = re.compile("t+")
_HEAD_TEXT_RUN = re.compile("[tm]+")  # before the first board, moves lines are text
#: Keys that hold one value: a repeated one replaces the earlier one (other
#: keys join their values, one line each).
_SINGLE_KEYS = frozenset({"title", "collection"})


def line_kind(line: str) -> str:
    """How the reader takes one line after a board: ``_`` blank, ``b`` a
    board row, ``i`` a ``::`` comment, ``m`` a moves line, ``t`` text
    (before the first board a moves line is text)."""
    if not line or line.isspace():
        return "_"
    if _ONLY_BOARD_CHARS.fullmatch(line) and _A_PIECE_MARK.search(line):
        return "b"
    if line.lstrip()[:2] == "::":
        return "i"
    if _ONLY_MOVES_CHARS.fullmatch(line) and _A_MOVE_MARK.search(line):
        return "m"
    return "t"


def key_of(line: str):
    """``(key, value)`` when the stripped ``line`` is a ``Key: value`` line
    (or SOK's ``Tag = value``), else ``None``; a ``;`` comment is never a key."""
    t = line.strip()
    if t[:1] == ";":
        return None
    m = _KEY.match(t) or _EQ_KEY.match(t)
    return None if m is None else (m.group(1), m.group(2).strip())


def parse_sok(text: str, source: str = "<string>", *, strict: bool = False) -> Collection:
    """An XSB/SOK text as a :class:`Collection`: its levels (numbered by
    their place among the file's puzzles), the file notes and keys, and the
    puzzles skipped.

    A puzzle of another variant (``Game: Hexoban``) is skipped, and so is a
    puzzle with a problem (a second player, a bad run-length encoding...):
    each goes to ``skipped`` as the :class:`LevelError` naming it.  With
    ``strict`` the first of them is raised instead.  Input that is hostile
    as a whole (run-length encoding that expands past the file's budget) is
    raised either way.  Raises :class:`LevelError` and nothing else.
    """
    if not isinstance(text, str):
        raise LevelError("expected text, got " + type(text).__name__, source=source)
    with cycle_collector_paused():
        return _Reader(text, source, strict).read()


def parse_xsb(text: str, source: str = "<string>", *, strict: bool = False) -> list[Level]:
    """Every level in an XSB/SOK text (see :func:`parse_sok`); each puzzle
    skipped is reported as a :class:`LevelWarning`.

    Raises :class:`LevelError` (and nothing else) on malformed input.
    """
    collection = parse_sok(text, source, strict=strict)
    warn_skipped(collection, stacklevel=3)
    return list(collection.levels)


def warn_skipped(collection: Collection, stacklevel: int = 2) -> None:
    """One :class:`LevelWarning` per puzzle ``collection`` skipped."""
    for error in collection.skipped:
        warnings.warn(LevelWarning(error), stacklevel=stacklevel + 1)


class _Reader:
    """One read of one text (see the comment above)."""

    def __init__(self, text: str, source: str, strict: bool):
        self.source = source
        self.strict = strict
        text = text.lstrip("\ufeff")
        self.lines = lines = split_lines(text)
        full, mark = _ONLY_BOARD_CHARS.fullmatch, _A_PIECE_MARK.search
        moves, move_mark = _ONLY_MOVES_CHARS.fullmatch, _A_MOVE_MARK.search
        # As line_kind, inlined (a quarter of the reader's time is here), but
        # text that may be a key (it holds ':' or '=') is ``k``.
        self.kinds = "".join([
            "_" if not ln or ln.isspace() else "b" if full(ln) and mark(ln) else
            "i" if ln[:2] == "::" or ln[:1] in " \t" and ln.lstrip()[:2] == "::" else
            "m" if (ln[0] in _MOVES_ENDS and ln.rstrip()[-1] in _MOVES_ENDS and moves(ln)
                    and move_mark(ln)) else
            "k" if ":" in ln or "=" in ln else "t"
            for ln in lines])
        self.damaged: dict[int, LevelError] = {}
        self._mark_damaged_rows()
        self._ends = None  # Key-End: lines by key, made when a block is first met
        #: Characters that run-length encoding may still add (boards, moves
        #: and solutions together): linear memory whatever the file says
        #: (each alone is capped, but a file may hold thousands).
        self.budget = MAX_CELLS + 2 * len(text)

    # -- step 1 and 2: kinds and elements ----------------------------------------

    def _mark_damaged_rows(self) -> None:
        """A text line next to a board that is mostly board characters and
        starts with ``#`` is a damaged board row: it joins the board, whose
        puzzle is then refused with the column of its first stray character."""
        kinds, lines = self.kinds, self.lines
        found = [m.start() for m in _TEXT_BY_BOARD.finditer(kinds)
                 if _looks_like_damaged_row(lines[m.start()])]
        if not found:
            return
        chars = list(kinds)
        for i in found:
            line = lines[i]
            col = next(j for j, c in enumerate(line) if c not in _BOARD_CHARS)
            self.damaged[i] = LevelError(
                f"unexpected character {line[col]!r} in a board row (pieces are "
                "# @ + $ * . p P b B W, floor is space - _)",
                source=self.source, line=i + 1, column=col + 1)
            chars[i] = "b"
        self.kinds = "".join(chars)
        self._damaged_rows = found

    def _block_end(self, key: str, i: int) -> int | None:
        """The index of the first ``Key-End:`` line after line ``i``, or
        ``None``; the end lines are indexed once per file (linear time)."""
        if self._ends is None:
            index: dict[str, list[int]] = {}
            lines = self.lines
            for m in _KEY_LINE.finditer(self.kinds):
                s = lines[m.start()].strip().lower()
                if s.endswith("-end:"):
                    index.setdefault(s[:-5], []).append(m.start())
            self._ends = index
        found = self._ends.get(key.lower(), ())
        k = bisect.bisect_right(found, i)
        return found[k] if k < len(found) else None

    def _scan(self, i: int, in_puzzle: bool):
        """The elements of the lines from ``i`` to the next board (a board
        inside a ``Key:`` ... ``Key-End:`` block does not count); returns
        them and that board's index (or the number of lines).

        Elements: ``("_", count)`` blank lines; ``("t", lineno, text)``;
        ``("T", lineno, start, stop)`` two text lines or more, none a key;
        ``("k", lineno, key, value, text)``; ``("B", lineno, key, value)`` a block;
        ``("S", lineno, key, parts)`` a ``Solution`` key with its
        continuation lines, ``parts`` a list of ``(lineno, text, raw line)``;
        ``("m", lineno, start, stop)`` a run of moves lines.  Moves runs and
        ``Solution`` keys are only recognised after a board
        (``in_puzzle``)."""
        lines, kinds, n = self.lines, self.kinds, len(self.lines)
        out: list = []
        append = out.append
        while i < n:
            k = kinds[i]
            if k == "b":
                break
            if k == "_":
                j = _BLANK_RUN.match(kinds, i).end()
                append(("_", j - i))
                i = j
                continue
            if k == "i":
                i += 1
                continue
            if k == "m" and in_puzzle:
                j = _MOVES_RUN.match(kinds, i).end()
                last = out[-1] if out else None
                if last is not None and last[0] == "S" and last[3][-1][0] == i:
                    # lines that continue the Solution key right above them
                    last[3].extend((x + 1, lines[x].strip(), lines[x]) for x in range(i, j))
                else:
                    append(("m", i + 1, i, j))
                i = j
                continue
            if k == "t" or k == "m":  # (a moves line before the first board is text)
                j = (_TEXT_RUN if in_puzzle else _HEAD_TEXT_RUN).match(kinds, i).end()
                append(("t", i + 1, lines[i].strip()) if j == i + 1 else ("T", i + 1, i, j))
                i = j
                continue
            line = lines[i]
            t = line.strip()
            m = None if t[:1] == ";" else _KEY.match(t) or _EQ_KEY.match(t)
            if m is None:
                append(("t", i + 1, t))
                i += 1
                continue
            key, value = m.group(1), m.group(2).strip()
            low = key.lower()
            if in_puzzle and low.startswith("solution"):
                append(("S", i + 1, key, [(i + 1, value, line)]))
                i += 1
                continue
            if not value:
                end = self._block_end(key, i)
                if end is not None:
                    append(("B", i + 1, key, "\n".join(lines[i + 1:end])))
                    i = end + 1
                    continue
            append(("k", i + 1, key, value, t))
            i += 1
        return out, i

    # -- step 3: titles, notes, levels ----------------------------------------

    def read(self) -> Collection:
        head, i = self._scan(0, False)
        segments = [head]     # the file notes, then per puzzle its notes and its snapshots'
        targets: list = []    # what follows segments[t]: ("b", start, stop, puzzle) or a moves run
        puzzles = []          # (start, stop, index of its notes segment, its moves runs)
        n = len(self.lines)
        kinds = self.kinds
        while i < n:
            start = i
            stop = _BOARD_RUN.match(kinds, i).end()
            tail, i = self._scan(stop, True)
            seg: list = []
            puzzle = (start, stop, len(segments), [])
            targets.append(("b", start, stop))
            segments.append(seg)
            for e in tail:
                if e[0] == "m":
                    puzzle[3].append(e)
                    targets.append(e)
                    seg = []
                    segments.append(seg)
                else:
                    seg.append(e)
            puzzles.append(puzzle)
        # Titles, last target first: a title line taken from a segment is
        # no longer there when that segment's own Title key is looked for.
        titles = [None] * len(targets)
        for t in range(len(targets) - 1, -1, -1):
            own = _title_key(segments[t + 1])
            before = segments[t]
            line = _title_line(before)
            if line is not None:
                text = _title_text(before[line])
                if own is None or text == own:
                    del before[line]
                    own = text if own is None else own
            titles[t] = own
        collection_keys, specials = _keys_of(head, owned_title=False)
        default_game = specials.get("Game")
        levels: list[Level] = []
        skipped: list[LevelError] = []
        t = 0
        for number, (start, stop, first, runs) in enumerate(puzzles, 1):
            title = titles[t]
            snapshot_titles = titles[t + 1:t + 1 + len(runs)]
            t += 1 + len(runs)
            try:
                levels.append(self._level(number, start, stop, title, segments[first],
                                          list(zip(runs, snapshot_titles,
                                                   segments[first + 1:first + 1 + len(runs)])),
                                          default_game))
            except LevelError as e:
                if e.problem.startswith(_BUDGET):
                    raise
                error = LevelError(e.problem, source=self.source, line=e.line,
                                   column=e.column, level_number=number, level_title=title)
                if self.strict:
                    raise error from None
                skipped.append(error)
        return Collection(levels=levels, metadata=collection_keys,
                          notes=_notes_text(head, self.lines), skipped=skipped, source=self.source)

    def _level(self, number, start, stop, title, notes, snapshots, default_game) -> Level:
        keys, specials = _keys_of(notes, level=True)
        game = specials.get("Game") or default_game
        if game is not None and game.strip().casefold() not in ("", "sokoban"):
            raise LevelError(f"a {game.strip()} puzzle (Game: {game.strip()}){VARIANT_SKIP}",
                             line=start + 1)
        if self.damaged:
            rows = self._damaged_rows
            k = bisect.bisect_left(rows, start)
            if k < len(rows) and rows[k] < stop:
                raise self.damaged[rows[k]]
        board, rle_used = _decode_board(self.lines, start, stop, self.source, self._spend)
        bombs = 0
        if "Bombs" in specials:
            lineno, value = specials["Bombs"]
            raw = self.lines[lineno - 1]
            if not re.fullmatch(r"[0-9]{1,9}", value):
                raise LevelError(f"Bombs must be a whole number >= 0, not {value!r}",
                                 line=lineno, column=len(raw.rstrip()) - len(value) + 1)
            bombs = int(value)
        solutions = tuple(self._solution(parts) for parts in specials.get("Solution", ()))
        return board.level(
            trusted=True, bombs=bombs, title=title, number=number,
            metadata=keys, solutions=solutions, notes=_notes_text(notes, self.lines),
            snapshots=tuple(self._snapshot(run, stitle, seg) for run, stitle, seg in snapshots),
            source=self.source, line=None if rle_used else start + 1)

    def _spend(self, size: int, line: int) -> None:
        """Take ``size`` characters of run-length expansion from the file's budget."""
        self.budget -= size
        if self.budget < 0:
            raise LevelError(f"{_BUDGET} {MAX_CELLS:,} characters plus twice its size "
                             "(a hostile file?)", source=self.source, line=line)

    def _solution(self, parts) -> str:
        """The text of a ``Solution`` key and its continuation lines, each
        checked as LURD (an error names its line and column)."""
        out = []
        for lineno, text, raw in parts:
            if text:
                try:
                    expanded = check_moves(text)
                except LevelError as e:
                    column = None if e.column is None else len(raw.rstrip()) - len(text) + e.column
                    raise LevelError("bad solution: " + e.problem, line=lineno,
                                     column=column) from None
                if len(expanded) > len(text):
                    self._spend(len(expanded) - len(text), lineno)
            out.append("".join(text.split()))
        return "".join(out)

    def _snapshot(self, run, title, seg) -> Snapshot:
        _, lineno, start, stop = run
        pieces = ["".join(line.split()) for line in self.lines[start:stop]]
        moves = "".join(pieces)
        if has_rle(moves):
            try:
                expanded = expand(moves)
            except RLEError as e:
                k, offset = 0, e.index
                while offset >= len(pieces[k]) and k < len(pieces) - 1:
                    offset -= len(pieces[k])
                    k += 1
                raise LevelError(f"bad run-length encoding in moves: {e}", line=start + k + 1,
                                 column=column_of(self.lines[start + k], offset)) from None
            self._spend(len(expanded) - len(moves), lineno)
            moves = expanded
        keys, _ = _keys_of(seg)
        return Snapshot(moves=moves, title=title, notes=_notes_text(seg, self.lines),
                        metadata=keys, line=lineno)


_BUDGET = "run-length encoding makes this file's boards and moves longer than"
#: How the problem of a puzzle of another variant ends.
VARIANT_SKIP = ": only Sokoban puzzles are read"


def _title_line(seg) -> int | None:
    """The index in ``seg`` of its title line, if it has one: SOK's last
    non-blank line, provided a blank line precedes it or it is the only one."""
    last = len(seg) - 1
    while last >= 0 and seg[last][0] == "_":
        last -= 1
    if last < 0:
        return None
    e = seg[last]
    if e[0] in "BT" or (e[0] == "S" and len(e[3]) > 1) or (e[0] == "k" and e[2].lower() == "game"):
        return None  # a block, a paragraph, a solution over several lines, a variant: no title
    if last == 0 or seg[last - 1][0] == "_":
        return last
    return None


def _title_text(e) -> str | None:
    """The title a title line gives: its text without a ``;`` comment mark;
    a ``Title: X`` line gives ``X``."""
    if e[0] == "t":
        return _uncommented(e[2]) or None
    if e[0] == "k":
        return (e[3] or None) if e[2].lower() == "title" else e[4]
    return e[3][0][2].strip()  # "S": a one-line Solution key, as written


def _title_key(seg) -> str | None:
    """The value of the last non-empty ``Title`` key of ``seg``, if any."""
    found = None
    for e in seg:
        if e[0] in "kB" and e[2].lower() == "title" and e[3].strip():
            found = e[3].strip()
    return found


def _uncommented(stripped: str) -> str:
    """A stripped text line without its leading ``;`` (a comment's text)."""
    return stripped[1:].strip() if stripped[:1] == ";" else stripped


def _notes_text(seg, lines) -> str:
    """The free text lines of a segment (of the file's ``lines``), blank
    lines inside kept, joined."""
    out: list[str] = []
    blank = 0  # blank lines waiting for a text line after them
    for e in seg:
        if e[0] == "_":
            blank += e[1] if out else 0
        elif e[0] in "tT":
            if blank:
                out.extend([""] * blank)
                blank = 0
            if e[0] == "t":
                out.append(e[2])
            else:
                out.extend([ln.strip() for ln in lines[e[2]:e[3]]])
    return "\n".join(out)


def _keys_of(seg, level: bool = False, owned_title: bool = True):
    """``(metadata, specials)`` of a segment: its keys (a repeated key's
    values joined line by line; ``Title`` and ``Collection`` keep the last;
    an empty ``Title`` is no key).  With ``owned_title`` a ``Title`` is the
    owner's title (see :func:`_title_key`), not a key; the file notes
    keep it.  With ``level``, the keys that are a
    level's fields go to ``specials`` instead: ``Bombs`` (the last, as
    ``(lineno, value)``), ``Solution...`` (a list of their parts)
    and ``Game`` (also kept in the metadata)."""
    meta: dict[str, list[str]] = {}
    specials: dict = {}
    for e in seg:
        kind = e[0]
        if kind == "S":
            if level:
                specials.setdefault("Solution", []).append(e[3])
            else:
                meta.setdefault(e[2], []).append("".join(p[1] for p in e[3]))
            continue
        if kind not in "kB":
            continue
        key, value = e[2], e[3]
        low = key.lower()
        if low == "title" and (owned_title or not value.strip()):
            continue  # the segment owner's title (see _title_key)
        if level and low == "bombs" and kind == "k":
            specials["Bombs"] = (e[1], value)
            continue
        if low == "game":
            specials["Game"] = value
        if low in _SINGLE_KEYS:
            meta[key] = [value]
        else:
            meta.setdefault(key, []).append(value)
    return {k: "\n".join(v) for k, v in meta.items()} if meta else {}, specials


# -- writing ----------------------------------------------------------------------

#: Moves per line in a snapshot (as YASC and sokoenginepy write them).
MOVES_WIDTH = 70
#: The first line of a file whose file notes or keys are written.
HEADER_COMMENT = ":: Sokoban levels in the SOK format (0.19), written by sokoban-tad"
_EXPANDED_MOVES = re.compile(r"[lurdLURD\[\]{}*]*")


def format_xsb(items) -> str:
    """SOK text of a :class:`Level`, a list of levels, or a
    :class:`Collection` (its file notes and keys first).

    Each level: a blank line, its title line, its board, a blank line, its
    notes, its keys (metadata, ``Bombs: N`` when non-zero, one
    ``Solution:`` line per solution), then each snapshot: a blank line, its
    title line, its moves (``MOVES_WIDTH`` a line), a blank line, its notes
    and keys.  A title that cannot stand on its own line (it would read as
    a board, moves, a key...) is written as a ``Title:`` key instead; a
    segment whose last line would be taken for the title of an untitled
    board or snapshot after it gets a ``Title:`` key of its own owner
    last (SOK: "title lines are optional unless ... a last text line ...
    can be mistaken for a title line").

    ``parse_sok(format_xsb(c)) == c`` for what :func:`parse_sok` reads and
    for levels numbered 1..n with stripped single-line titles and values;
    what cannot be written so raises :class:`LevelError`.
    """
    if isinstance(items, Level):
        items = [items]
    head_meta, head_notes = {}, ""
    if isinstance(items, Collection):
        head_meta, head_notes = items.metadata, items.notes
        items = items.levels
    writer = _Writer()
    head = _note_lines(head_notes, None, head=True)
    for key, value in head_meta.items():
        head.extend(_key_lines(key, value, None))
    if head:
        # A comment first: a reader that counts the file's first two lines as
        # a title's surroundings (sokoenginepy 1.0.3 does) then sees notes as notes.
        writer.out.append(HEADER_COMMENT)
    title = head_meta.get("Title") if "Title" in head_meta else None
    guard = (f"Title: {title}" if title is not None else
             f"Collection: {head_meta['Collection']}" if "Collection" in head_meta else "Title:")
    writer.segment(head, guard)
    for lv in items:
        line, key = _title_forms(lv.title, lv)
        writer.target(line)
        rows = lv.rows()
        writer.out.extend(r if r else "-" for r in rows)
        if not rows:
            writer.out.append("-")
        seg = _note_lines(lv.notes, lv)
        if key:
            seg.append(key)
        for k, value in lv.metadata.items():
            low = k.lower()
            if low in ("title", "bombs") or low.startswith("solution") or (
                    low == "game" and value.strip().casefold() not in ("", "sokoban")):
                raise LevelError(f"metadata {k!r} cannot be written: it would read as "
                                 f"{'a ' + value.strip() + ' puzzle' if low == 'game' else 'a field'}",
                                 level_number=lv.number, level_title=lv.title)
            seg.extend(_key_lines(k, value, lv))
        if lv.bombs:
            seg.append(f"Bombs: {lv.bombs}")
        seg.extend(f"Solution: {s}" for s in lv.solutions)
        writer.segment(seg, f"Title: {lv.title}" if lv.title else "Title:", after_rows=True)
        for snapshot in lv.snapshots:
            s_line, s_key = _title_forms(snapshot.title, lv)
            writer.target(s_line)
            writer.out.extend(_moves_lines(snapshot.moves, lv))
            seg = _note_lines(snapshot.notes, lv)
            if s_key:
                seg.append(s_key)
            for k, value in snapshot.metadata.items():
                if k.lower() == "title":
                    raise LevelError("a snapshot's metadata cannot hold 'Title' (its title is "
                                     "a field)", level_number=lv.number, level_title=lv.title)
                seg.extend(_key_lines(k, value, lv))
            writer.segment(seg, f"Title: {snapshot.title}" if snapshot.title else "Title:",
                           after_rows=True)
    return "\n".join(writer.out) + ("\n" if writer.out else "")


class _Writer:
    """Output lines, and the last segment written (for SOK's title rule)."""

    def __init__(self):
        self.out: list[str] = []
        self.last: list[str] = []  # the last segment's lines
        self.guard = ""

    def segment(self, lines: list[str], guard: str, after_rows: bool = False) -> None:
        if lines:
            if after_rows:
                self.out.append("")
            self.out.extend(lines)
        self.last, self.guard = lines, guard

    def target(self, title_line: str | None) -> None:
        """Start a board or snapshot: a blank line, then its title line."""
        last = self.last
        if title_line is None and last:
            texts = sum(1 for ln in last if ln)
            if texts == 1 or last[-2] == "":  # the last line would read as a title
                self.out.append(self.guard)
        if self.out:
            self.out.append("")
        if title_line is not None:
            self.out.append(title_line)
        self.last = []


def _title_forms(title, lv) -> tuple[str | None, str | None]:
    """``(title line, Title key line)``, one of them ``None`` (both for no title)."""
    if not title:
        return None, None
    if "\n" in title or "\r" in title:
        raise LevelError("a title cannot span lines", level_number=lv.number)
    if line_kind(title) == "t" and title[:1] != ";":
        kv = key_of(title)
        if kv is None or (kv[1] and not kv[0].lower().startswith(("title", "solution", "game"))):
            return title, None
    return None, f"Title: {title}"


def note_line_ok(line: str, head: bool = False) -> bool:
    """Whether ``line`` reads back as itself, a line of notes: stripped, not
    a key, a board row, moves (``head``: before the first board, moves are
    text) or a ``::`` comment."""
    return ("\r" not in line and line == line.strip() and line_kind(line) in ("tm" if head else "t")
            and key_of(line) is None)


def _note_lines(notes: str, lv, head: bool = False) -> list[str]:
    """The lines of ``notes``, each checked to read back as a note line."""
    if not notes:
        return []
    lines = notes.split("\n")
    for ln in lines:
        if ln and not note_line_ok(ln, head):
            raise LevelError(f"the note line {ln!r} cannot be written as SOK text (it "
                             "would read as a board, moves, a key or a comment)",
                             level_number=getattr(lv, "number", None),
                             level_title=getattr(lv, "title", None))
    if lines[0] == "" or lines[-1] == "":
        raise LevelError("notes cannot begin or end with a blank line",
                         level_number=getattr(lv, "number", None))
    return lines


def _moves_lines(moves: str, lv) -> list[str]:
    """A snapshot's moves in lines of :data:`MOVES_WIDTH` (a line of only
    ``*`` would read as a board row: it joins the line before)."""
    if not moves or not _EXPANDED_MOVES.fullmatch(moves) or not _A_MOVE_MARK.search(moves):
        raise LevelError(f"snapshot moves {moves[:20]!r} cannot be written: moves are "
                         "l u r d L U R D [ ] { } *, run-length encoding expanded",
                         level_number=lv.number, level_title=lv.title)
    out: list[str] = []
    for i in range(0, len(moves), MOVES_WIDTH):
        chunk = moves[i:i + MOVES_WIDTH]
        if out and not _A_MOVE_MARK.search(chunk):
            out[-1] += chunk
        else:
            out.append(chunk)
    if not _A_MOVE_MARK.search(out[0]):  # a leading run of '*'
        out[0:2] = [out[0] + (out[1] if len(out) > 1 else "")]
    return out


def _key_lines(key: str, value: str, lv) -> list[str]:
    """``Key: value`` lines that read back as ``value``: one line; or one
    line per line of a multi-line value (the reader joins repeated keys);
    or a ``Key:`` ... ``Key-End:`` block when lines are blank or padded."""
    number, title = getattr(lv, "number", None), getattr(lv, "title", None)
    if key_of(f"{key}: x") != (key, "x"):
        raise LevelError(f"metadata key {key!r} cannot be written as SOK text",
                         level_number=number, level_title=title)
    lines = split_lines(value) if value else [""]
    if "\n" not in value and "\r" not in value and value == value.strip():
        return [f"{key}: {value}"]
    if (key.lower() not in _SINGLE_KEYS and all(ln and ln == ln.strip() for ln in lines)
            and len(lines) == value.count("\n") + 1 and "\r" not in value):
        return [f"{key}: {ln}" for ln in lines]
    end = f"{key}-end:"
    if "\r" in value or any(ln.strip().lower() == end.lower() for ln in lines):
        raise LevelError(f"metadata {key!r} cannot be written as SOK text",
                         level_number=number, level_title=title)
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
