"""The machinery every profile is built from: the check's settings, one
run's state and the :class:`~conformance.machines.base.Machine` base
(:mod:`.base`); what a profile is (:mod:`.profile`: ``Profile``, its
``Scenario`` s and ``Stepper``); the levels a check draws (:mod:`.levels`);
the boards it draws (:mod:`.boards`); the replay format (:mod:`.replays`);
which rule a departure breaks (:mod:`.blame`); the time budget
(:mod:`.budget`); how Hypothesis runs a machine (:mod:`.search`); seed
001's direction convention (:mod:`.directions`); what every emitter of a
test shares (:mod:`.emitting`); the ranking of fault localisation
(:mod:`.suspects`).

Knows no profile by name: each profile's module hands its own parts in.

May import: :mod:`conformance.api`, and the packages below ``conformance``
(levels, spec).
"""
