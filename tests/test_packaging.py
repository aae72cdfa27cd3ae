"""A regular (non-editable) install carries every file the code reads: the
C++ sources of the aed2 driver and reference, the solver's native kernel,
the bundled levels."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("spec", "impl", "conformance", "levels")


def _tracked_data_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", *PACKAGES], cwd=ROOT, capture_output=True,
                         text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout")
    return [f for f in out.stdout.split() if not f.endswith(".py")]


def test_the_wheel_holds_every_data_file(tmp_path):
    wanted = _tracked_data_files()
    assert any(f.endswith(".cpp") for f in wanted)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                            "-q", "-w", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True, timeout=300)
    if build.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {build.stderr.strip()[-300:]}")
    wheel, = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert [f for f in wanted if f not in names] == []
