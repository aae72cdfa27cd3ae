"""``python -m impl play``: Sokoban in the terminal, on :mod:`impl`, with the
contracts on (teaching mode). See ``docs/play.md``.

* :mod:`impl.play.cli`: the command line (``main(argv) -> int``).
* :mod:`impl.play.game`: the game's logic (:class:`~impl.play.game.Session`).
* :mod:`impl.play.view`: what the screen shows, as text; scrolling.
* :mod:`impl.play.keys`: keys to commands; the help line.
* :mod:`impl.play.hint`: hints from :mod:`impl.solver`.
* :mod:`impl.play.tui`: the curses front end.

Importing this package imports none of :mod:`impl`'s contracted modules, so
``main`` can still choose contracts on or off.
"""

from .cli import main

__all__ = ["main"]
