"""How every check runs a state machine with Hypothesis, for every language:
its seed, its limits, quiet, with Hypothesis's files in the toolkit's cache
and draws that depend on the seed alone."""

from __future__ import annotations

import contextlib
import gc
import os

from hypothesis import HealthCheck, Phase, Verbosity, seed as hypothesis_seed, settings
from hypothesis import configuration
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.stateful import run_state_machine_as_test

from levels import storage


@contextlib.contextmanager
def hypothesis_home():
    """Hypothesis' storage (its cache of constants) in our cache folder
    while one check runs, not ``.hypothesis/`` in the user's folder (unless
    ``HYPOTHESIS_STORAGE_DIRECTORY`` says where); the setting found before is
    restored after, so a test session around the pytest plugin keeps its own."""
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    found = vars(configuration).get("__hypothesis_home_directory")
    set_hypothesis_home_dir(storage.cache_dir("hypothesis"))
    try:
        yield
    finally:
        set_hypothesis_home_dir(found)


@contextlib.contextmanager
def fixed_draws():
    """Draws that depend on the seed alone. Hypothesis (from 6.131) mixes
    into about one draw in twenty the literals of every "local" module
    loaded in the process: which modules those are depends on how the
    toolkit was installed, on a student's module imported into this process
    (``--in-process``), and on the students a class run checked before. One
    seed would then draw other examples for another student, or for the same
    student checked in the sandbox. While a check searches, Hypothesis gets
    no local constants (its own global ones stay); with a Hypothesis that has
    none, this does nothing."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:         # pragma: no cover - another Hypothesis layout
        yield
        return
    found = getattr(providers, "_get_local_constants", None)
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    constants = getattr(providers, "Constants", None)
    if found is None or cache is None or constants is None:
        yield
        return
    none = constants()
    providers._get_local_constants = lambda: none
    cache.clear()               # (it holds the local constants allowed per kind of draw)
    try:
        yield
    finally:
        providers._get_local_constants = found
        cache.clear()


#: Allocations between two collections of the youngest generation while a
#: check searches (Python's default: 700).
YOUNG_THRESHOLD = 10_000


@contextlib.contextmanager
def quiet_collector():
    """Python's cyclic garbage collector, while a check searches: every
    object made before it (the modules, Hypothesis's tables) frozen out of
    its collections, and the youngest generation collected every
    ``YOUNG_THRESHOLD`` allocations instead of 700. A search makes many
    short-lived objects that no cycle holds, and each collection walked
    every object of its generations: measured on a tad check, 0.3 s of
    CPU time in the collector this way cut to about 0.1 s. What is
    collected is the same, later; the threshold and the freeze are put
    back after (a freeze found already there, someone else's, is left as
    it is: then nothing is frozen here)."""
    threshold = gc.get_threshold()
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if freeze:
            gc.unfreeze()


def search_machine(cls, seed: int, *, max_examples: int, steps: int, shrink: bool) -> None:
    """Run the state machine ``cls`` as a check does, for every language:
    the given seed, at most ``max_examples`` runs of ``steps`` steps, no
    deadline, no example database, quiet, Hypothesis's files in the
    toolkit's cache and :func:`fixed_draws`. A departure propagates as the
    exception the machine raised."""
    config = settings(
        max_examples=max_examples, stateful_step_count=steps, deadline=None, database=None,
        derandomize=False, suppress_health_check=list(HealthCheck),
        phases=(Phase.generate, Phase.shrink) if shrink else (Phase.generate,), report_multiple_bugs=False,
        verbosity=Verbosity.quiet, print_blob=False,
    )
    with hypothesis_home(), fixed_draws(), quiet_collector():
        run_state_machine_as_test(hypothesis_seed(seed)(_factory(cls)), settings=config)


def _factory(cls):
    """What makes a machine of ``cls``, for Hypothesis: a function, not the
    class. Hypothesis digests the source of what it is given (the key of an
    example database, which a check has not), and a class's source is found
    by parsing its whole module: about 20 ms of every check. The digest
    decides nothing else: the seed is given."""
    def machine():
        return cls()
    machine.__name__ = machine.__qualname__ = cls.__name__
    return machine
