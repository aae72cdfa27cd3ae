"""levels: see docs/INTERFACES.md."""
