"""Shared test configuration: the Hypothesis profiles.

* ``dev`` (default): Hypothesis' defaults, with the local example database.
* ``ci``: derandomized (fixed seed), no database writes, no deadline, so CI is
  deterministic on a noisy machine.  ``.ci/run`` uses it.
* ``thorough``: many examples, for a long local run before a release.

Choose one with ``pytest --hypothesis-profile NAME``.
"""

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
