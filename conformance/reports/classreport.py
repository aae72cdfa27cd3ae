"""``report.html``: the class at a glance, one self-contained page.

``grade`` writes it beside ``summary.csv`` and ``summary.json``, from the
same summary: a chart of how many students break each rule of the seed, a
row per student with the rules they break, and for each broken rule its
counterexample drawn as a board, with the command that replays it. The page
holds everything it shows (inline CSS and SVG, no script, no font, no
image, no link to anything outside it), so it opens offline, from a disk or
an e-mail, in any browser.

No templating or charting library: the page is one table of bars and two
tables of text, which a few escaped f-strings and SVG rectangles draw with
less code than a dependency's setup, and without a package to install on
every grader's machine.
"""

from __future__ import annotations

import html
import json
from typing import Any, Iterable

from conformance.machines.budget import SLOW_CALL
from spec import rules as spec_rules
from conformance.machines.blame import replay_parts
from conformance.reports.output import atomic_write
from conformance.reports.report import place
from conformance.translations import _, cite, language, marked, rule_source, rule_text, rule_title


def status_label(status: str) -> str:
    """A verdict's status (an identifier of summary.json) as the page shows it."""
    return {"conforms": _("conforms"), "does not conform": _("does not conform"),
            "bad target": _("bad target"), "not fully checked": _("not fully checked"),
            }.get(status, status)

#: Colours of the board's cells (XSB character -> fill).
_FILL = {"#": "#5b5b66", "$": "#c8862a", "*": "#3f9a4a", ".": "#f2f2f2", "@": "#2f6fd1",
         "+": "#2f6fd1", " ": "#fbfbfb", "!": "#d23b3b"}
_CELL = 18


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _anchor(*parts: str) -> str:
    return "-".join("".join(ch if ch.isalnum() else "_" for ch in p) for p in parts)


def board_svg(rows: list[str], label: str = "") -> str:
    """One board (XSB rows) as inline SVG: walls, boxes, goals, the player."""
    width = max((len(r) for r in rows), default=0)
    out = [f'<svg class="board" role="img" aria-label="{_e(label or _("level"))}" '
           f'width="{width * _CELL}" height="{len(rows) * _CELL}" '
           f'viewBox="0 0 {width * _CELL} {len(rows) * _CELL}">']
    for y, row in enumerate(rows):
        for x, ch in enumerate(row.ljust(width)):
            ch = " " if ch in "-_" else ch
            px, py = x * _CELL, y * _CELL
            out.append(f'<rect x="{px}" y="{py}" width="{_CELL}" height="{_CELL}" '
                       f'fill="{_FILL.get(ch, _FILL[" "])}" stroke="#ddd"/>')
            if ch in ".+*":
                out.append(f'<circle cx="{px + _CELL / 2}" cy="{py + _CELL / 2}" r="3.5" '
                           f'fill="#d23b3b"/>')
            if ch in "$*":
                out.append(f'<rect x="{px + 3}" y="{py + 3}" width="{_CELL - 6}" '
                           f'height="{_CELL - 6}" fill="none" stroke="#6b4212"/>')
            if ch in "@+":
                out.append(f'<circle cx="{px + _CELL / 2}" cy="{py + _CELL / 2}" r="6" '
                           f'fill="#2f6fd1" stroke="#fff"/>')
    out.append("</svg>")
    return "".join(out)


def _levels_of(replay: str) -> tuple[list[list[str]], str]:
    """The levels (XSB rows) and actions of a replay command, if it has them."""
    parts = replay_parts(replay or "")
    if parts is None:
        return [], ""
    _profile, scenes, codes = parts
    return [s.rows() if s.desc is None else [r for r in s.desc] for s in scenes], codes


def _chart(counts: list[tuple[spec_rules.Rule, int]], students: int) -> str:
    """Horizontal bars: how many students break each rule."""
    bar_w, row_h, label_w = 260, 22, 330
    height = row_h * len(counts) + 6
    out = [f'<svg class="chart" role="img" aria-label="{_e(_("students per broken rule"))}" '
           f'width="{label_w + bar_w + 60}" height="{height}">']
    for i, (rule, n) in enumerate(counts):
        y = i * row_h + 4
        w = 0 if not students else round(bar_w * n / students)
        out.append(f'<text x="0" y="{y + 14}" font-size="12">{_e(rule.id)}: {_e(rule_title(rule))}'
                   f'</text>')
        out.append(f'<rect class="bar" data-rule="{_e(rule.id)}" data-count="{n}" '
                   f'x="{label_w}" y="{y}" width="{w}" height="{row_h - 6}" fill="#d2763b"/>')
        out.append(f'<text x="{label_w + w + 6}" y="{y + 14}" font-size="12">{n}</text>')
    out.append("</svg>")
    return "".join(out)


_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:70em}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}h3{font-size:1em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .5em;
text-align:left;vertical-align:top}th{background:#f0f0f0}
.broken{color:#a52a2a}.kept{color:#2e7d32}.unchecked{color:#777}.slow{color:#b35c00}
pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:.85em}
.cx{border-left:3px solid #d2763b;padding-left:1em;margin:1em 0}
.board{margin:.3em 1em .3em 0;vertical-align:top}
.heat{background:#fff;border:1px solid #ddd;line-height:1.35}
.heat .ln{display:block;white-space:pre}.heat .no{color:#888;user-select:none}
.heat .ln:target{outline:2px solid #2f6fd1}
"""


def render(summary: dict) -> str:
    """The page, from a ``summary.json`` document (``grade``'s)."""
    subs: list[dict] = summary.get("submissions", [])
    seed = (summary.get("options") or {}).get("seed")
    profiles = sorted({s.get("profile") for s in subs if s.get("profile")})
    parts = ["<!DOCTYPE html>", f'<html lang="{language()}"><head><meta charset="utf-8">',
             "<title>" + _e(_("Sokoban conformance: {folder}").format(
                 folder=summary.get("folder", _("class")))) + "</title>",
             f"<style>{_STYLE}</style></head><body>",
             "<h1>" + _e(_("The class at a glance: {folder}").format(
                 folder=summary.get("folder", ""))) + "</h1>",
             "<p>" + _e(_("{n} submissions, random seed {seed}; every one checked with the same "
                          "fixed scenarios and the same random examples. A rule is broken when "
                          "the submission departs from the seed's rule somewhere; each broken "
                          "rule below comes with the smallest play that shows it and the "
                          "command that replays it.").format(n=len(subs), seed=seed)) + "</p>"]
    for profile in profiles:
        table = spec_rules.table_for(profile)
        mine = [s for s in subs if s.get("profile") == profile]
        counts = [(r, sum(1 for s in mine if _status(s, r.id) == "broken"))
                  for r in table.rules_for(profile)]
        parts.append(f'<h2 id="{_anchor("chart", profile)}">'
                     + _e(_("Students per broken rule (profile {profile}, {seed})").format(
                         profile=profile, seed=marked(table.seed))) + "</h2>")
        parts.append(_chart(counts, len(mine)))
        parts.append("<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in (
            _("rule"), _("what it says"), _("the seed's words"), _("students breaking it")))
            + "</tr>")
        for r, n in counts:
            parts.append(f'<tr><td id="{_anchor("rule", r.id)}"><code>{_e(r.id)}</code></td>'
                         f"<td>{_e(rule_text(r))}</td><td>{_e(rule_source(r))}: \u201c{_e(r.words)}\u201d</td>"
                         f"<td>{n}</td></tr>")
        parts.append("</table>")
    budget = (summary.get("options") or {}).get("budget")
    parts.append(f'<h2 id="students">{_e(_("Students"))}</h2>'
                 + ("<p>" + _("Each check had a time budget of {budget} s (a check that ran out "
                              "of it is <em>not fully checked</em>). A submission is "
                              "<em>slow</em> when its median call took {slow} ms or "
                              "more.").format(budget=_e(f"{budget:g}"),
                                              slow=_e(f"{SLOW_CALL * 1000:g}")) + "</p>"
                    if budget else "")
                 + '<table class="students"><tr>' + "".join(f"<th>{_e(h)}</th>" for h in (
                     _("submission"), _("profile"), _("verdict"), _("score"), _("rules broken"),
                     _("time"), _("median call"))) + "</tr>")
    for s in subs:
        broken = [rid for rid, info in (s.get("rules") or {}).items()
                  if info.get("status") == "broken"]
        links = ", ".join(f'<a href="#{_anchor("cx", s["name"], rid)}"><code>{_e(rid)}</code></a>'
                          + _code_link(s, rid) for rid in broken) or ("&mdash;" if s.get("verdict") == "conforms"
                                                 else _e(s.get("message", "")))
        score = (f"{s['score']:g} / {s['max_score']:g}" if "score" in s and "max_score" in s
                 else "")
        slow = f' <strong class="slow">{_e(_("slow"))}</strong>' if s.get("slow") else ""
        seconds = f"{s['seconds']:.1f} s" if isinstance(s.get("seconds"), (int, float)) else ""
        median = s.get("median_call_ms")
        median = f"{median:g} ms" if isinstance(median, (int, float)) and median >= 0 else ""
        flag = ' data-slow="yes"' if slow else ""
        parts.append(f'<tr class="student" data-name="{_e(s["name"])}"{flag}>'
                     f'<td>{_e(s["name"])}</td>'
                     f"<td>{_e(s.get('profile', ''))}</td>"
                     f"<td>{_e(status_label(s.get('verdict', '')))}</td>"
                     f"<td>{score}</td><td>{links}</td><td>{seconds}{slow}</td>"
                     f"<td>{_e(median)}</td></tr>")
    parts.append("</table>")
    parts.append(f'<h2 id="counterexamples">{_e(_("Counterexamples"))}</h2>')
    for s in subs:
        for rid, info in (s.get("rules") or {}).items():
            if info.get("status") != "broken":
                continue
            parts.append(_counterexample(s, rid, info))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _status(sub: dict, rule_id: str) -> str:
    return ((sub.get("rules") or {}).get(rule_id) or {}).get("status", "")


def _counterexample(sub: dict, rule_id: str, info: dict) -> str:
    try:
        rule = spec_rules.table_for(sub.get("profile", "")).rule(rule_id)
        cited = cite(rule)
    except KeyError:
        cited = rule_id
    levels, codes = _levels_of(info.get("replay", ""))
    boards = "".join(board_svg(rows, _("level {n}").format(n=i + 1))
                     for i, rows in enumerate(levels))
    what = info.get("message", "")
    missing = info.get("missing")
    body = ("<p>" + _e(_("Missing: {operations}").format(operations=", ".join(missing))) + "</p>"
            if missing else
            f"<p>{_e(what)}</p><div>{boards}</div>"
            f"<p>{_e(_('Actions:'))} <code>"
            f"{_e(codes) or _e(_('(none: it departs at the start)'))}</code></p>")
    report = info.get("report", "")
    return (f'<div class="cx" id="{_anchor("cx", sub["name"], rule_id)}">'
            f"<h3>{_e(sub['name'])}: <code>{_e(rule_id)}</code></h3>"
            f"<p><em>{_e(cited)}</em></p>{body}"
            + _where(sub["name"], rule_id, info.get("where"))
            + (f"<details><summary>{_e(_('the full report'))}</summary><pre>{_e(report)}</pre>"
               "</details>" if report else "")
            + (f"<p>{_e(_('Replay it:'))}</p><pre>{_e(info['replay'])}</pre>"
               if info.get("replay") else "")
            + "</div>")


def _code_link(sub: dict, rule_id: str) -> str:
    """A broken rule's link to the student's code where it was localised."""
    info = (sub.get("rules") or {}).get(rule_id) or {}
    if not isinstance(info.get("where"), dict) or not info["where"].get("lines"):
        return ""
    return (f' <a class="code" href="#{_anchor("where", sub["name"], rule_id)}">'
            f'({_e(_("where to look"))})</a>')


def _heat_colour(score: float) -> str:
    """The background of a line of the heat map: white to red with its score."""
    return f"rgba(210,59,59,{0.12 + 0.6 * max(0.0, min(1.0, score)):.2f})"


def _where(name: str, rule_id: str, where: dict | None) -> str:
    """"Where to look": the most suspicious lines, each a link to its line in
    the student's source below, drawn as a heat map (each line ranked
    coloured by its score)."""
    if not isinstance(where, dict) or not where.get("lines"):
        return ""

    def line_id(file: str, line: int) -> str:
        return _anchor("src", name, rule_id, file, str(line))

    items = "".join(
        f'<li><a class="suspect" href="#{line_id(s["file"], s["line"])}">'
        f'<code>{_e(place(s["file"], s["line"], s.get("last", 0)))}</code></a> '
        f'{_e(format(float(s["score"]), ".2f"))}'
        + (" " + _e(_(" in {function}").format(function=s["function"]).strip())
           if s.get("function") else "")
        + (f' <code>{_e(s["source"].splitlines()[0])}</code>' if s.get("source") else "")
        + "</li>"
        for s in where["lines"])
    heat: dict[str, dict[int, float]] = {}
    for file, line, score in where.get("heat", []):
        heat.setdefault(file, {})[int(line)] = float(score)
    maps = []
    for file, text in sorted((where.get("sources") or {}).items()):
        scores = heat.get(file, {})
        rows = []
        for n, code in enumerate(text.splitlines(), 1):
            style = (f' style="background:{_heat_colour(scores[n])}" data-score="{scores[n]:g}"'
                     if n in scores else "")
            rows.append(f'<span class="ln" id="{line_id(file, n)}"{style}>'
                        f'<span class="no">{n:4} </span>{_e(code)}</span>')
        maps.append(f'<p><code>{_e(file)}</code></p><pre class="heat" '
                    f'data-file="{_e(file)}">{"".join(rows)}</pre>')
    return (f'<div class="where" id="{_anchor("where", name, rule_id)}"><p><strong>{_e(_("Where to look"))}</strong> '
            + _e((_("(a hint, not a proof: the clauses the calls breaking this rule ran and "
                    "the calls keeping it did not, {failing} failing and {passing} passing "
                    "calls compared)") if where.get("tests") == "calls" else
                  _("(a hint, not a proof: the lines the plays breaking this rule ran and the "
                    "plays keeping it did not, {failing} failing and {passing} passing plays "
                    "compared)")).format(failing=where.get("failing", 0),
                                         passing=where.get("passing", 0)))
            + f"</p><ol>{items}</ol>"
            + (f"<details open><summary>{_e(_('the code, its suspicious lines coloured'))}"
               f"</summary>{''.join(maps)}</details>" if maps else "")
            + "</div>")


def write(summary: dict, path) -> None:
    """Write the page (atomically, with the umask's mode)."""
    atomic_write(path, render(summary))
