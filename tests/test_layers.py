"""The layers of docs/INTERFACES.md, enforced: ``lint-imports`` (import-linter,
configured in pyproject.toml) passes on the tree, and fails when a module
imports a layer above its own, when a sibling imports the other, when a
package imports the ``sokoban`` command's module, when the leaf ``speech``
(the messages' language) imports one of ours or spec imports it, or when a room of
``conformance`` imports one above it. And no import circle anywhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("spec", "speech", "levels", "impl", "conformance")
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
    ("speech/__init__.py", "import levels", "Layers"),                    # the leaf speaks alone
    ("speech/__init__.py", "import spec", "Layers"),                      # ... beside the oracle
    ("spec/obs.py", "import speech", "Layers"),                           # which says no word
    ("conformance/reports/report.py", "from impl import extendido", "Layers"),
    ("levels/names.py", "from sokoban_tad import use_our_packages", "sokoban command"),
    ("impl/mapa.py", "import soko", "soko.py"),
    ("conformance/api.py", "from tests.spec import strategies", "tests or the benchmarks"),
    # inside conformance: a room importing one above it
    ("conformance/machines/base.py", "from conformance.checking import checks", "rooms"),
    ("conformance/reports/points.py", "from conformance import profiles", "rooms"),
    ("conformance/sandbox/box.py", "from conformance.machines import levels", "rooms"),
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


def _our_modules() -> dict[str, Path]:
    """Every module of ours: the four packages' and the two single modules."""
    found = {"soko": ROOT / "soko.py", "sokoban_tad": ROOT / "sokoban_tad.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imports(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The modules of ours ``path`` imports, anywhere in it (inside
    functions too): ``import a.b`` and ``from a import b`` (a module b, or a
    name of module a)."""
    import ast

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for a in node.names:
                found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base)
    return {m for m in found if m in modules and m != name}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph`` (module -> the modules it imports)."""
    circles, state = [], {}

    def visit(name: str, chain: list[str]) -> None:
        state[name] = "open"
        for other in sorted(graph[name]):
            if state.get(other) == "open":
                circles.append((chain + [name])[(chain + [name]).index(other):] + [other])
            elif other not in state:
                visit(other, chain + [name])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    return circles


def _graph() -> dict[str, set[str]]:
    modules = _our_modules()
    return {name: _imports(path, name, modules) for name, path in modules.items()}


def test_no_import_circle_anywhere():
    """No module of ours imports, through any chain, one that imports it
    back: the graph of our imports (function-level ones included; a package
    and its __init__ are one module; sokoban_tad and soko too) has no cycle."""
    assert _circles(_graph()) == []


def test_the_circle_test_sees_a_circle():
    """One import back, even inside a function, makes a circle it names."""
    graph = _graph()
    assert "conformance.checking.engine" in graph["conformance.checking.checks"]
    graph["conformance.checking.engine"].add("conformance.checking.checks")
    circles = _circles(graph)
    assert circles and {"conformance.checking.engine", "conformance.checking.checks"} <= set(
        circles[0])
