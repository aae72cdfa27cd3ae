"""Verdicts and reports: the human report (:mod:`.report`), the files a
check writes (:mod:`.output`: JSON, JUnit, Gradescope), points by rule
(:mod:`.points`) and a class's report (:mod:`.classreport`:
``report.html``). Each reads the verdict and the seed's rule tables
(``spec.rules``); none runs a check.

May import: :mod:`conformance.machines`, :mod:`conformance.api`, and the
packages below ``conformance``.
"""
