"""``python -m conformance``: see :mod:`conformance.commands.cli`."""

import sys

import sokoban_tad

sokoban_tad.use_our_packages()

from conformance.commands.cli import main  # noqa: E402 - after the guard

if __name__ == "__main__":
    sys.exit(sokoban_tad.run(main))
