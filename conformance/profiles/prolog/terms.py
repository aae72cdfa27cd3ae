"""Prolog terms as the driver writes them (``write_term/2`` with
``quoted(true)`` and ``ignore_ops(true)``: no operators, lists in brackets)
and as we write them back into queries and levels.

Values: ``int`` and ``float``; :class:`Atom` (a ``str``); :class:`Str` (a
Prolog string, also a ``str``); :class:`Var`; Python ``list`` for a proper
list; :class:`Compound` for everything else (a partial list is
``Compound('.', (head, tail))``... written back as ``[H|T]``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

__all__ = ["Atom", "Str", "Var", "Compound", "TermError", "parse", "text"]


class Atom(str):
    """A Prolog atom."""

    def __repr__(self) -> str:
        return f"Atom({str(self)!r})"


class Str(str):
    """A Prolog string ("...")."""

    def __repr__(self) -> str:
        return f"Str({str(self)!r})"


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Compound:
    name: str
    args: tuple


class TermError(ValueError):
    """Text that is not a term the driver writes."""


_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?:Inf|NaN)?)
  | (?P<word>[^\W\d][\w]*)
  | (?P<quoted>'(?:[^'\\]|\\.|'')*')
  | (?P<string>"(?:[^"\\]|\\.|"")*")
  | (?P<punct>[()\[\],|{}])
  | (?P<solo>[!;])
""", re.X | re.S)
_SYMBOL_CHARS = "#$&*+-./:<=>?@^~\\"

_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "`": "`",
            "a": "\a", "b": "\b", "f": "\f", "v": "\v", "r": "\r", "0": "\0",
            "e": "\x1b", "s": " ", "z": ""}


def _unquote(body: str, quote: str) -> str:
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == quote and body[i + 1:i + 2] == quote:
            out.append(quote)
            i += 2
        elif c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n == "x":
                end = body.index("\\", i + 2)
                out.append(chr(int(body[i + 2:end], 16)))
                i = end + 1
            elif n in "uU":
                size = 4 if n == "u" else 8
                out.append(chr(int(body[i + 2:i + 2 + size], 16)))
                i += 2 + size
            elif n.isdigit():
                end = body.index("\\", i + 1)
                out.append(chr(int(body[i + 1:end], 8)))
                i = end + 1
            elif n == "\n":
                i += 2
            else:
                out.append(_ESCAPES.get(n, n))
                i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _symbolic(c: str) -> bool:
    """A character of an unquoted symbol atom (``-``, ``=..``; SWI-Prolog
    also writes Unicode symbols so: ``´``, ``∀``..., and the soft hyphen
    U+00AD alone, which its Latin-1 table counts as a symbol)."""
    return c in _SYMBOL_CHARS or c == "\xad" or (
        ord(c) > 127 and unicodedata.category(c)[0] in "SP")


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m and _symbolic(text[pos]):
            end = pos
            while end < len(text) and _symbolic(text[end]):
                end += 1
            out.append(("symbol", text[pos:end], pos))
            pos = end
            continue
        if not m:
            raise TermError(f"unexpected {text[pos:pos + 20]!r} at character {pos + 1}")
        kind = m.lastgroup
        if kind == "word":      # a variable starts with _ or a capital letter
            kind = "var" if m.group()[0] == "_" or m.group()[0].isupper() else "name"
        if kind != "space":
            out.append((kind, m.group(), pos))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, value: str | None = None) -> tuple[str, str, int]:
        tok = self.peek()
        if tok is None:
            raise TermError("the term ends too early")
        if value is not None and tok[1] != value:
            raise TermError(f"expected {value!r}, found {tok[1]!r} at character {tok[2] + 1}")
        self.i += 1
        return tok

    def term(self) -> Any:
        kind, value, pos = self.take()
        if kind == "number":
            if re.fullmatch(r"-?\d+", value):
                return int(value)
            try:
                return float(value)
            except ValueError:
                raise TermError(f"not a number: {value}") from None
        if kind == "var":
            return Var(value)
        if kind == "string":
            return Str(_unquote(value[1:-1], '"'))
        if value == "[":
            if self.peek() and self.peek()[1] == "]":
                self.take()
                named = self._maybe_args(Atom("[]"))
                return [] if named == "[]" and isinstance(named, Atom) else named
            items = [self.term()]
            while self.peek() and self.peek()[1] == ",":
                self.take()
                items.append(self.term())
            if self.peek() and self.peek()[1] == "|":
                self.take()
                tail = self.term()
                self.take("]")
                for item in reversed(items):
                    tail = Compound("[|]", (item, tail))
                return tail
            self.take("]")
            return items
        if value == "{":
            if self.peek() and self.peek()[1] == "}":
                self.take()
                return self._maybe_args(Atom("{}"))
            inner = self.term()
            self.take("}")
            return Compound("{}", (inner,))
        if kind == "quoted":
            name = _unquote(value[1:-1], "'")
        elif kind in ("name", "symbol", "solo") or value in (",", "|"):
            name = value
        else:
            raise TermError(f"unexpected {value!r} at character {pos + 1}")
        return self._maybe_args(Atom(name))

    def _maybe_args(self, name: Atom) -> Any:
        tok = self.peek()
        if tok is None or tok[1] != "(" or self.toks[self.i - 1][2] + len(self.toks[self.i - 1][1]) != tok[2]:
            return name
        self.take("(")
        args = [self.term()]
        while self.peek() and self.peek()[1] == ",":
            self.take()
            args.append(self.term())
        self.take(")")
        return Compound(str(name), tuple(args))


def parse(text: str) -> Any:
    """The term ``text`` holds (as written by the driver), or TermError."""
    p = _Parser(text)
    t = p.term()
    if p.peek() is not None:
        raise TermError(f"unexpected {p.peek()[1]!r} after the term")
    return t


_PLAIN_ATOM = re.compile(r"[a-z][A-Za-z0-9_]*|\[\]")


def _quote(name: str) -> str:
    if _PLAIN_ATOM.fullmatch(name):
        return name
    body = name.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
    return f"'{body}'"


def text(term: Any) -> str:
    """``term`` in Prolog syntax, as a student would type it (``A-S`` pairs
    and ``[H|T]`` lists written with their usual syntax)."""
    if isinstance(term, bool):
        raise TypeError("a bool is not a Prolog term")
    if isinstance(term, (int, float)):
        return repr(term)
    if isinstance(term, Str):
        body = str(term).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{body}"'
    if isinstance(term, Atom):
        return _quote(str(term))
    if isinstance(term, Var):
        return term.name
    if isinstance(term, list):
        return "[" + ", ".join(text(t) for t in term) + "]"
    if isinstance(term, tuple):
        return "[" + ", ".join(text(t) for t in term) + "]"
    if isinstance(term, Compound):
        if term.name == "-" and len(term.args) == 2:
            return f"{text(term.args[0])}-{text(term.args[1])}"
        if term.name == "[|]" and len(term.args) == 2:
            items, tail = [], term
            while isinstance(tail, Compound) and tail.name == "[|]" and len(tail.args) == 2:
                items.append(text(tail.args[0]))
                tail = tail.args[1]
            return "[" + ", ".join(items) + "|" + text(tail) + "]"
        return _quote(term.name) + "(" + ", ".join(text(a) for a in term.args) + ")"
    if isinstance(term, str):
        return _quote(term)
    raise TypeError(f"not a Prolog term: {term!r}")
