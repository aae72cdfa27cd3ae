"""Shared test configuration: the Hypothesis profiles.

* ``dev`` (default): Hypothesis' defaults, with the local example database.
* ``ci``: derandomized (fixed seed), no database writes, no deadline, so CI is
  deterministic on a noisy machine.  ``.ci/run`` uses it. Under it, the
  tests' draws also leave out the literals of the modules loaded so far
  (``conformance.machines.search.fixed_draws``), which differ with the order pytest-xdist
  hands the tests to its workers.
* ``thorough``: many examples, for a long local run before a release.

Choose one with ``pytest --hypothesis-profile NAME``.
"""

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("dev")


@pytest.fixture(autouse=True, scope="session")
def _fixed_draws_under_ci():
    if not settings.default.derandomize:          # (the ci profile's mark)
        yield
        return
    from conformance.machines.search import fixed_draws
    with fixed_draws():
        yield


@pytest.fixture
def headless_dom(tmp_path):
    """``dom(url) -> str``: a page as a real headless browser (Debian's
    chromium) builds it, offline (no name resolves); the test is skipped
    where there is none."""
    import os
    import shutil
    import subprocess

    browser = next((found for found in map(shutil.which, ("chromium", "chromium-browser",
                                                          "google-chrome")) if found), None)
    if browser is None:
        pytest.skip("no headless browser (Debian: apt-get install chromium)")
    flags = ["--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--user-data-dir=" + str(tmp_path / "browser"),
             "--host-resolver-rules=MAP * ~NOTFOUND"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--no-sandbox")

    def dom(url: str) -> str:
        return subprocess.run([browser, *flags, "--dump-dom", url], capture_output=True,
                              text=True, timeout=120).stdout
    dom.browser, dom.flags = browser, flags
    return dom


@pytest.fixture(scope="session")
def graded_class(tmp_path_factory):
    """``grade(members, *options) -> (out folder, summary)``: a class of
    mutants (name -> mutant module, each as its ``soko.py``) graded with the
    real engine, seed 1, 5 examples, two at a time."""
    import json
    import os

    from conformance import mutants
    from conformance.commands import cli

    def grade(members: dict, *options: str):
        folder = tmp_path_factory.mktemp("course") / "tp1"
        for name, module in members.items():
            mutants.copy_to(module, folder / name, "soko.py")
        with open(os.devnull, "w") as quiet:
            assert cli.main(["grade", str(folder), "--jobs", "2", "--max-examples", "5",
                             "--seed", "1", *options], out=quiet) == 0
        out = folder.parent / "tp1-grades"
        return out, json.loads((out / "summary.json").read_text())
    return grade
