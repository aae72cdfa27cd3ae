"""The sandbox: untrusted code run where it cannot escape, tamper with or
take down the checker. A target's module is loaded (:mod:`.loading`) in a
child process (:mod:`.child`, stdlib only, started by :mod:`.launcher`)
boxed at the best isolation level the machine offers (:mod:`.isolation`:
user namespaces with ``bwrap``, resource limits, a storage budget), and
driven call by call from here (:mod:`.box`: ``open_target``).

May import: :mod:`conformance.api`, and the packages below ``conformance``.
"""
