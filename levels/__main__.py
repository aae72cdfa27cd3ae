"""``python -m levels check|show|convert``: see :mod:`levels.cli`."""

import sys

import sokoban_tad

sokoban_tad.use_our_packages()

from levels.cli import main  # noqa: E402 - after the guard

sys.exit(sokoban_tad.run(main))
