"""``grade`` writes report.html: the class at a glance, one self-contained
page; loaded in a real headless browser (Debian's chromium), it shows a bar
per rule with the students who break it, a row per student, and each
counterexample drawn as a board with its replay command."""

from __future__ import annotations

import html
import re
import subprocess
import sys

import pytest

from conformance.reports import classreport

CLASS = {"ana": "student_soko", "bruno": "soko_win_needs_all_boxes",
         "carla": "soko_pushes_two_boxes", "dario": "soko_mutates_grid",
         "emma": "soko_win_needs_all_boxes"}


@pytest.fixture(scope="module")
def graded(graded_class):
    """A class of mutants (and one correct student), graded with the real engine."""
    return graded_class(CLASS)


def test_the_page_holds_what_the_summary_says(graded):
    out, summary = graded
    page = (out / "report.html").read_text()
    assert page == classreport.render(summary)
    for name in CLASS:
        assert f'data-name="{name}"' in page
    rows = {s["name"]: s for s in summary["submissions"]}
    assert rows["ana"]["broken"] == ""
    assert rows["bruno"]["broken"].split() == ["soko.won"] == rows["emma"]["broken"].split()
    assert "soko.push-blocked" in rows["carla"]["broken"].split()
    assert re.search(r'data-rule="soko.won" data-count="2"', page)
    # Self-contained: nothing is fetched from anywhere.
    assert not re.search(r'(src|href)="(?!#)', page) and "<script" not in page
    assert "@import" not in page and "url(" not in page


def test_a_real_browser_shows_the_class_offline(graded, tmp_path, headless_dom):
    out, summary = graded
    url = (out / "report.html").as_uri()
    dom = headless_dom(url)
    assert "<svg" in dom and "The class at a glance" in dom
    # The chart: one bar per rule of the table, its count the students breaking it.
    bars = dict(re.findall(r'<rect class="bar" data-rule="([^"]+)" data-count="(\d+)"', dom))
    assert bars["soko.won"] == "2" and bars["soko.new-grid"] == "1"
    assert len(bars) == 11
    # A row per student, with their broken rules linked to the counterexamples.
    students = re.findall(r'<tr class="student" data-name="([^"]+)">', dom)
    assert students == list(CLASS)
    for s in summary["submissions"]:
        for rule in s["broken"].split():
            anchor = f'href="#cx-{s["name"]}-{rule.replace(".", "_").replace("-", "_")}"'
            assert anchor in dom, anchor
    # Each counterexample: a board drawn, the rule in the seed's words, the replay command.
    boxes = re.findall(r'<div class="cx" id="[^"]+">(.*?)</div>\s*(?=<div class="cx"|</body>)',
                       dom, re.S)
    assert len(boxes) == sum(len(s["broken"].split()) for s in summary["submissions"])
    for box in boxes:
        assert '<svg class="board"' in box and "python -m conformance" in html.unescape(box)
        assert "seed 002" in box
    shot = tmp_path / "shot.png"
    subprocess.run([headless_dom.browser, *headless_dom.flags, f"--screenshot={shot}",
                    "--window-size=1100,900", url], capture_output=True, timeout=120)
    assert shot.is_file() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
