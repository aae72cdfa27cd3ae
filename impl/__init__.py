"""impl: see docs/INTERFACES.md."""
