"""Everything a student or teacher reads comes in Spanish with ``--lang es``
(issue 40), beyond the Python profiles' report (tests/conformance/test_spanish.py):
the Prolog and C++ profiles' own reports, a target that died, the commands'
``--help`` and argument errors (argparse's own words included), the fixed
scenarios' names and where each rule is in its seed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import mutants, profiles, translations
from conformance.profiles.aed2 import mutants as cpp_mutants
from conformance.profiles.prolog import mutants as prolog_mutants
from conformance.reports.report import rule_lines
from spec import rules

#: English a Spanish report must not show (the report's own words).
ENGLISH = ("DOES NOT CONFORM", "What went wrong", "Rule broken", "Replay exactly",
           "Exercised", "random seed", "(profile ")


def run(args: list[str], lang_env: str, cwd: Path, command: str = "conformance",
        env: dict | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG",
                                                                "SOKOBAN_IMPL")}
    environ.update(env or {}, LANG=lang_env)
    return subprocess.run([sys.executable, "-m", command, *args], capture_output=True,
                          text=True, env=environ, cwd=cwd, timeout=900)


@pytest.mark.skipif(shutil.which("swipl") is None, reason="swipl is not installed")
def test_a_wrong_prolog_programs_report_in_spanish(tmp_path):
    program = prolog_mutants.materialize("up_is_down", tmp_path / "cache")
    check = run([str(program), "--seed", "3", "--max-examples", "10", "--lang", "es"],
                "en_US.UTF-8", tmp_path)
    assert check.returncode == 1, check.stdout + check.stderr
    out = check.stdout
    assert "(perfil prolog, semilla aleatoria 3): NO CUMPLE" in out, out
    assert "Qué salió mal: " in out
    assert ("regla prolog.directions (semilla 003, Vocabulario: up, down, left, right): "
            "up es fila - 1, down fila + 1") in out
    assert "El nivel, como archivo (guardalo junto a tu programa" in out
    assert "Consulta:" in out and "Su respuesta:" in out
    assert "Repetí exactamente esta falla con:" in out and "--replay" in out
    assert "Ejercitado antes de la falla: " in out and " estados comparados" in out
    for english in (*ENGLISH, "Query:", "Its answer:", "Expected", "the spec", " tables"):
        assert english not in out, (english, out)


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_a_wrong_cpp_folders_report_in_spanish(tmp_path):
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    os.environ.update(cache)
    try:
        folder = cpp_mutants.materialize(cpp_mutants.BY_NAME["wrong_mover_result"])
    finally:
        os.environ.pop("XDG_CACHE_HOME")
    check = run([str(folder), "--seed", "3", "--max-examples", "20", "--lang", "es"],
                "en_US.UTF-8", tmp_path, env=cache)
    assert check.returncode == 1, check.stdout + check.stderr
    out = check.stdout
    assert "(perfil aed2, semilla aleatoria 3): NO CUMPLE" in out, out
    assert "Qué salió mal: mover(j, " in out
    assert "(true si y solo si este movimiento completa el nivel actual)" in out
    assert "Regla rota: aed2.completes: " in out
    assert "el aed2_Juego del curso (docs/aed2.md), sobre el iMover de la semilla 001" in out
    assert "Se ve en una compilación común (g++ -g, sin sanitizer)" in out
    assert "Dónde mirar (una pista, no una prueba): " in out and "Juego.cpp:" in out
    assert "Nota: el reporte dibuja la y creciendo hacia el sur" in out
    assert "La misma falla como un test en tu propio formato" in out and "TEST_F(" in out
    assert "; nivel 1 de 3" in out and "Encontrado por el escenario fijo: " in out
    report = out.partition("La misma falla como un test")[0]     # the test after it is code
    for english in (*ENGLISH, "It shows in a plain build", "Note: the report draws", "; level ",
                    "Found by"):
        assert english not in report, (english, report)


def test_a_target_that_exits_is_told_in_spanish(tmp_path):
    soko = mutants.copy_to("student_soko", tmp_path / "alumno", "soko.py")
    soko.write_text(soko.read_text(encoding="utf-8").replace(
        "def mover(", "def mover(*args, **kwargs):\n    import os\n    os._exit(3)\n\n\n"
        "def _mover(", 1), encoding="utf-8")
    check = run([str(soko), "--seed", "1", "--max-examples", "5", "--lang", "es"],
                "C", tmp_path)
    assert check.returncode == 1, check.stdout + check.stderr
    assert ("terminó (llamó a exit): el proceso terminó con código 3 (la implementación "
            "llamó a os._exit o exit)") in check.stdout, check.stdout
    out = check.stdout
    assert "esperado: una respuesta normal" in out
    assert "Encontrado por el escenario fijo: caminar a lo largo de paredes interiores" in out
    assert "semilla 002, Movimiento, 2.ª oración: \u201c" in out      # where the rule is
    for english in (*ENGLISH, "exited (called exit)", "a normal answer", "Found by",
                    "walk along inner walls", "2nd sentence"):
        assert english not in out, (english, out)


@pytest.mark.parametrize("how", ["--lang", "LANG"])
def test_check_help_is_spanish_under_lang_es_or_a_spanish_locale(tmp_path, how):
    args, lang = (["--lang", "es", "--help"], "C.UTF-8") if how == "--lang" else (
        ["--help"], "es_AR.UTF-8")
    shown = run(["check", *args], lang, tmp_path, command="sokoban_tad")
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert out.startswith("uso: sokoban check ")
    assert "\nargumentos posicionales:\n" in out and "\nopciones:\n" in out
    assert "muestra esta ayuda y termina" in out
    assert "Verifica una implementación de Sokoban contra la especificación ejecutable." in out
    assert "qué verificar" in out and "semilla aleatoria de los ejemplos" in out
    assert "Código de salida: 0 cumple, 1 no cumple" in out
    for option in ("--max-examples N", "--gradescope FILE", "--lang {en,es}", "--support DIR"):
        assert option in out                # option names and metavars stay as they are
    for english in ("usage:", "options:", "show this help", "what to check", "Exit status"):
        assert english not in out


def test_argument_errors_and_the_other_commands_help_in_spanish(tmp_path):
    bad = run(["check", "--max-examples", "x", "--lang", "es"], "C", tmp_path,
              command="sokoban_tad")
    assert bad.returncode == 2
    assert "sokoban check: error: argumento --max-examples: no es un número entero: 'x'" \
        in bad.stderr
    missing = run(["grade"], "es_AR.UTF-8", tmp_path, command="sokoban_tad")
    assert "faltan los siguientes argumentos obligatorios: DIR" in missing.stderr
    choice = run(["check", "--profile", "nada"], "es_AR.UTF-8", tmp_path, command="sokoban_tad")
    assert "opción no válida: 'nada' (elegí entre" in choice.stderr
    for command, spanish in (("grade", "la carpeta de entregas"),
                             ("monitor", "un archivo de tests (al estilo unittest o pytest"),
                             ("play", "el idioma de la pantalla y los mensajes del juego")):
        shown = run([command, "--lang", "es", "--help"], "C", tmp_path, command="sokoban_tad")
        assert shown.returncode == 0 and shown.stdout.startswith(f"uso: sokoban {command} ")
        assert spanish in shown.stdout, shown.stdout
    english = run(["check", "--help"], "C.UTF-8", tmp_path, command="sokoban_tad")
    assert english.stdout.startswith("usage: sokoban check ") and "options:" in english.stdout
    assert "show this help message and exit" in english.stdout


def test_where_a_rule_is_in_its_seed_and_a_scenarios_name_in_spanish():
    rule = rules.SOKO.rule("soko.push")
    assert rule.source == "seed 002, Movimiento, 4th sentence"
    with translations.speaking("es"):
        assert "semilla 002, Movimiento, 4.ª oración: \u201c" + rule.words in translations.cite(
            rule)
        assert rule_lines("soko", rule.id)[1].startswith("semilla 002, Movimiento, 4.ª oración")
        names = {s.what: translations.marked(s.what) for s in profiles.get("soko").scenarios}
    assert names["a grid taller than wide"] == "una grilla más alta que ancha"
    assert all(spanish != english for english, spanish in names.items())
    with translations.speaking("en"):
        assert translations.cite(rule) == rule.cite()
