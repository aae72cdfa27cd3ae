"""``python -m impl SUBCOMMAND ...``: ``solve`` (the solver) and ``play``
(:mod:`impl.commands`)."""

import sys

if __name__ == "__main__":
    import sokoban_tad      # the entry point: the guard first (see sokoban_tad.py)
    sokoban_tad.use_our_packages()
    from impl.commands import main
    sys.exit(sokoban_tad.run(main))
