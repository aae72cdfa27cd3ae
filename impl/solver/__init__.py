"""Sokoban solver (issue 6): move-optimal A* for small levels, push-level
best-first search with deadlock pruning for real ones, bombs for the extended
game.  Every solution is replayed through ``spec`` before it is returned.

See ``docs/solver.md``.
"""

from .api import Result, solve
from .board import LevelProblem
from .verify import BOMB, SolverBug

__all__ = ["solve", "Result", "LevelProblem", "SolverBug", "BOMB"]
