"""Reports in the students' language (issue 40): a wrong target's terminal
report, its Gradescope JSON and a class's report.html come out in Spanish
with ``--lang es`` (or a Spanish locale) and in English by default on an
English locale; a real headless browser shows the Spanish page."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import mutants, translations
from spec import rules

WON = rules.SOKO.rule("soko.won")
ES_WON = "juego_ganado es verdadero exactamente cuando cada objetivo tiene una caja encima"


def run_check(args: list[str], lang_env: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG",
                                                            "SOKOBAN_IMPL")}
    env["LANG"] = lang_env
    return subprocess.run([sys.executable, "-m", "conformance", *args], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=600)


@pytest.fixture(scope="module")
def wrong(tmp_path_factory) -> Path:
    """A wrong target: its juego_ganado wants every box on a goal."""
    return mutants.copy_to("soko_win_needs_all_boxes", tmp_path_factory.mktemp("alumno"),
                           "soko.py")


CHECK = ["--seed", "2026", "--max-examples", "10"]


def test_a_wrong_targets_report_in_spanish_with_lang_es(wrong, tmp_path):
    run = run_check([str(wrong), *CHECK, "--lang", "es"], "en_US.UTF-8", tmp_path)
    assert run.returncode == 1, run.stderr
    out = run.stdout
    assert f"{wrong} (perfil soko, semilla aleatoria 2026): NO CUMPLE" in out
    assert "Qué salió mal: juego_ganado(grilla) es False, se esperaba True después de la acción 1" in out
    assert f"Regla rota: soko.won: {ES_WON}" in out
    assert WON.words in out                 # the seed's own words, as the seed wrote them
    assert "Repetí exactamente esta falla con:" in out and "--replay" in out
    assert "La misma falla como un test en tu propio formato" in out
    for english in ("DOES NOT CONFORM", "What went wrong", "Rule broken", "expected (spec)"):
        assert english not in out


def test_english_by_default_on_an_english_locale_and_spanish_on_a_spanish_one(wrong, tmp_path):
    english = run_check([str(wrong), *CHECK], "en_US.UTF-8", tmp_path).stdout
    assert f"{wrong} (profile soko, random seed 2026): DOES NOT CONFORM" in english
    assert f"Rule broken: soko.won: {WON.text}" in english and "NO CUMPLE" not in english
    spanish = run_check([str(wrong), *CHECK], "es_AR.UTF-8", tmp_path).stdout
    assert "NO CUMPLE" in spanish and "Regla rota" in spanish
    forced = run_check([str(wrong), *CHECK, "--lang", "en"], "es_AR.UTF-8", tmp_path).stdout
    assert "DOES NOT CONFORM" in forced


def test_gradescope_json_in_spanish(wrong, tmp_path):
    results = tmp_path / "results.json"
    run_check([str(wrong), *CHECK, "--lang", "es", "--gradescope", str(results)],
              "en_US.UTF-8", tmp_path)
    doc = json.loads(results.read_text())
    assert set(doc) >= {"score", "tests", "extra_data"}            # keys stay as they are
    assert doc["extra_data"]["rules"]["soko.won"] == "broken"     # ids and statuses too
    tests = {t["name"]: t for t in doc["tests"]}
    won = tests["soko.won: la victoria"]
    assert won["status"] == "failed"
    assert ES_WON in won["output"] and WON.words in won["output"]
    assert "Rota:" in won["output"] and "Qué salió mal" in won["output"]
    assert "Respetada: ejercitada" in tests["soko.read: la descripción"]["output"]
    assert doc["output"] == "10 de 11 reglas respetadas; no respetadas: soko.won: la victoria"
    english = tmp_path / "english.json"
    run_check([str(wrong), *CHECK, "--gradescope", str(english)], "en_US.UTF-8", tmp_path)
    doc = json.loads(english.read_text())
    assert doc["output"] == "10 of 11 rules kept; not kept: soko.won: the win"


def test_a_bad_target_is_told_in_spanish(tmp_path):
    (tmp_path / "alumno").mkdir()
    (tmp_path / "alumno" / "soko.py").write_text("import gamelib\n")
    run = run_check([str(tmp_path / "alumno" / "soko.py"), "--lang", "es"], "C", tmp_path)
    assert run.returncode == 2
    assert "importa el módulo 'gamelib'" in run.stderr and "--support DIR" in run.stderr
    missing = run_check([str(tmp_path / "nada.py"), "--lang", "es"], "C", tmp_path)
    assert "no existe ese archivo o carpeta" in missing.stderr


CLASS = {"ana": "student_soko", "bruno": "soko_win_needs_all_boxes",
         "carla": "soko_pushes_two_boxes"}


@pytest.fixture(scope="module")
def graded_es(graded_class):
    with translations.speaking("en"):
        return graded_class(CLASS, "--lang", "es")


def test_report_html_in_spanish(graded_es):
    out, summary = graded_es
    page = (out / "report.html").read_text()
    assert '<html lang="es">' in page
    assert "El curso de un vistazo" in page and "Contraejemplos" in page
    assert html.escape(ES_WON, quote=True) in page
    rows = {s["name"]: s for s in summary["submissions"]}
    assert rows["bruno"]["verdict"] == "does not conform"          # the JSON's values stay
    assert rows["bruno"]["broken"] == "soko.won"
    assert "no cumple" in page and "se esperaba True" in rows["bruno"]["message"]


def test_a_real_browser_shows_the_spanish_page(graded_es, headless_dom):
    out, summary = graded_es
    dom = headless_dom((out / "report.html").as_uri())
    assert '<html lang="es">' in dom
    text = html.unescape(re.sub(r"<[^>]+>", " ", dom))
    for shown in ("El curso de un vistazo", "Estudiantes por regla rota", "Estudiantes",
                  "Contraejemplos", "entrega", "veredicto", "no cumple", "cumple", ES_WON,
                  WON.words, "Repetila:"):
        assert shown in text, shown
    for english in ("The class at a glance", "Students per broken rule", "Counterexamples"):
        assert english not in text
    bars = dict(re.findall(r'<rect class="bar" data-rule="([^"]+)" data-count="(\d+)"', dom))
    assert bars["soko.won"] == "1" and len(bars) == 11


def test_plays_panel_in_spanish(wrong):
    """sokoban play TARGET's departure panel (the referee's), with --lang es."""
    import levels
    from conformance.live.referee import Referee

    level = levels.parse_xsb("#######\n#@$.  #\n#  $  #\n#######\n")[0]
    with translations.speaking("es"):
        referee = Referee(str(wrong))
        try:
            referee.start([level])
            assert referee.act("right") is not None
            panel = referee.panel()
        finally:
            referee.close()
    text = "\n".join(p if isinstance(p, str) else "\n".join(p) for p in panel)
    assert text.startswith(f"Discrepancia en el movimiento 1: soko.won: {ES_WON}")
    assert "Qué salió mal: juego_ganado(grilla) es False, se esperaba True" in text
    assert "Repetir: " in text and WON.words in text


def test_the_plugin_in_spanish(wrong, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          f"--sokoban-impl={wrong}", "--sokoban-lang=es", "--sokoban-seed=2026",
                          "--sokoban-max-examples=10", "-k", "soko.won"],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "semilla aleatoria 2026 (--sokoban-seed 2026 repite esta corrida)" in run.stdout
    assert "FAILED sokoban::soko.won[soko] - rota: juego_ganado(grilla) es False" in run.stdout
    assert f"soko.won: {ES_WON}" in run.stdout and "Rota:" in run.stdout


def test_the_monitors_errors_in_spanish(wrong, tmp_path):
    script = tmp_path / "juego.py"
    script.write_text("import soko\n"
                      "g = soko.crear_grilla(['#######', '#@$.  #', '#  $  #', '#######'])\n"
                      "g = soko.mover(g, (1, 0))\n"
                      "print(soko.juego_ganado(g))\n")
    run = subprocess.run([sys.executable, "-m", "conformance", "monitor", str(script),
                          "--impl", str(wrong), "--lang", "es"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    assert run.returncode == 1
    assert "se aparta de la spec" in run.stderr and f"Regla rota: soko.won: {ES_WON}" in run.stderr
    assert "llamadas verificadas contra la spec" in run.stderr
