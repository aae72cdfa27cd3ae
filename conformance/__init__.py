"""conformance: see docs/INTERFACES.md."""
