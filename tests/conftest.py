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
