"""The ``impl`` subcommands: ``solve`` (the solver) and ``play``.

Each subcommand lives in its own module with a ``main(argv) -> int``; they are
imported only when asked for, so one missing or broken module does not take
the other down. ``python -m impl`` (:mod:`impl.__main__`) and the ``sokoban``
command (``sokoban solve``, ``sokoban play``) both run them from here.
"""

from __future__ import annotations

import importlib
import sys

SUBCOMMANDS = {
    "solve": ("impl.solver.cli", "solve levels (LURD solutions and statistics)"),
    "play": ("impl.play", "play levels in the terminal"),
}

USAGE = "usage: python -m impl {" + ",".join(SUBCOMMANDS) + "} [ARGS...]\n\n" + "\n".join(
    f"  {name:6} {help_}" for name, (_, help_) in SUBCOMMANDS.items()) + (
    "\n\nRun 'python -m impl SUBCOMMAND --help' for a subcommand's options.")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in SUBCOMMANDS:
        print(f"python -m impl: unknown subcommand {name!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    return run_subcommand(name, rest, f"python -m impl {name}")


def run_subcommand(name: str, rest: list[str], prog: str) -> int:
    """Subcommand ``name`` (a key of :data:`SUBCOMMANDS`) on ``rest``, naming
    itself ``prog`` (the ``sokoban`` command passes ``sokoban solve``...)."""
    module_name = SUBCOMMANDS[name][0]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            print(f"python -m impl: the {name!r} subcommand is not available in "
                  f"this installation (module {module_name} is missing)",
                  file=sys.stderr)
            return 2
        raise
    entry = getattr(module, "main", None)
    if entry is None:
        print(f"python -m impl: module {module_name} has no main(argv)", file=sys.stderr)
        return 2
    return int(entry(rest, prog=prog) or 0)
