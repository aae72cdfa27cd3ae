"""The layers of docs/INTERFACES.md, enforced: ``lint-imports`` (import-linter,
configured in pyproject.toml) passes on the tree, and fails when a module
imports a layer above its own, when a sibling imports the other, or when a
package imports the ``sokoban`` command's module."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("spec", "levels", "impl", "conformance")
LINT = shutil.which("lint-imports", path=os.path.dirname(sys.executable)) or shutil.which(
    "lint-imports")

pytestmark = pytest.mark.skipif(LINT is None, reason="import-linter is not installed "
                                "(pip install -e '.[test]')")


def lint(where: Path, config: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(where)}
    return subprocess.run([LINT, "--config", str(config), "--no-cache"], cwd=where, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_tree_keeps_its_layers():
    run = lint(ROOT, ROOT / "pyproject.toml")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """The packages' Python files, copied (to break them on purpose)."""
    where = tmp_path_factory.mktemp("layers")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, where / package,
                        ignore=shutil.ignore_patterns("__pycache__", "data", "*.cpp", "*.h"))
    shutil.copy(ROOT / "pyproject.toml", where / "pyproject.toml")
    return where


@pytest.mark.parametrize("module, line, contract", [
    ("spec/obs.py", "import levels", "Layers"),                          # a layer above
    ("levels/rle.py", "from impl import sokoban", "Layers"),
    ("impl/tad.py", "import conformance.api", "Layers"),                  # the sibling
    ("conformance/report.py", "from impl import extendido", "Layers"),
    ("levels/names.py", "from sokoban_tad import use_our_packages", "sokoban command"),
    ("impl/mapa.py", "import soko", "soko.py"),
    ("conformance/api.py", "from tests.spec import strategies", "tests or the benchmarks"),
])
def test_an_import_against_the_layers_fails(copy, module, line, contract):
    path = copy / module
    original = path.read_text(encoding="utf-8")
    path.write_text(original + f"\n\ndef _upward():\n    {line}\n", encoding="utf-8")
    try:
        run = lint(copy, copy / "pyproject.toml")
    finally:
        path.write_text(original, encoding="utf-8")
    assert run.returncode != 0, run.stdout
    broken = [text for text in run.stdout.splitlines() if " BROKEN" in text]
    assert len(broken) == 1 and contract in broken[0], run.stdout
