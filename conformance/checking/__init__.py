"""Running a check: finding the target (:mod:`.targets`), deciding its
language and profile, opening it, arming the check's one time budget, the
engine (:mod:`.engine`: a profile's machine played by Hypothesis against
the target, the spec beside it) and, at the end, the report built once from
the verdict (:mod:`.checks`: ``check_target``, ``check_by_rules``,
``check_groups``, ``RunOptions``, the exit statuses).

May import: :mod:`conformance.profiles`, :mod:`conformance.reports`,
:mod:`conformance.machines`, :mod:`conformance.sandbox`,
:mod:`conformance.api`, and the packages below ``conformance``.
"""
