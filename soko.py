"""Seed 002's ``soko.py`` API (placeholder until the impl issue lands)."""
