"""The ``sokoban`` command, and the guard every entry point runs first.

``sokoban check|grade|selftest|levels|solve|play|monitor ...`` dispatches to the
existing ``main`` functions (``python -m conformance``, ``python -m levels``,
``python -m impl``); those forms keep working.

Why a guard: ``python -m X`` and ``python -c`` put the current folder first on
``sys.path``, and our package names are generic. A course folder holding a
student's ``soko.py`` or a ``spec/``, ``levels/``, ``impl/`` or
``conformance/`` folder would replace our modules. :func:`use_our_packages`
puts a finder in front of the import system that always answers our
top-level names from the folder this module was installed in, so such files
are ignored (the current folder stays on ``sys.path`` for a target given as a
module name). What it cannot fix: ``python -m levels`` run in a folder whose
``levels/`` folder has its own ``__init__.py`` or ``__main__.py`` runs that,
before any code of ours; the ``sokoban`` command has no such hole.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import sys

#: Our top-level modules and packages.
OUR_NAMES = ("spec", "speech", "levels", "impl", "conformance", "soko", "sokoban_tad")
#: The folder that holds them (the source tree for an editable install).
ROOT = os.path.dirname(os.path.abspath(__file__))


class _OurPackages(importlib.abc.MetaPathFinder):
    """Finds ``names`` (top-level) in :data:`ROOT` only, before ``sys.path``."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def find_spec(self, name, path=None, target=None):
        if path is None and name in self.names:
            return importlib.machinery.PathFinder.find_spec(name, [ROOT])
        return None


def _origin(module) -> str:
    path = getattr(module, "__file__", None)
    if path is None:                    # a namespace package: a folder without __init__.py
        locations = list(getattr(module, "__path__", []) or [])
        path = locations[0] if locations else "?"
    return os.path.abspath(path)


def _is_ours(name: str, module) -> bool:
    where, ours = _origin(module), os.path.join(ROOT, *name.split("."))
    return where == ours + ".py" or where.startswith(ours + os.sep)


def shadowing(names=OUR_NAMES) -> list[tuple[str, str]]:
    """``(name, file)`` for every one of our names (and their submodules)
    already imported from somewhere else than :data:`ROOT`."""
    return [(key, _origin(module)) for key, module in list(sys.modules.items())
            if key.split(".")[0] in names and module is not None and not _is_ours(key, module)]


def use_our_packages(names: tuple[str, ...] = OUR_NAMES) -> None:
    """Make ``import NAME`` for each of ``names`` (default: all of
    :data:`OUR_NAMES`) mean ours from now on, whatever the current folder
    holds. One of them already imported from elsewhere (``python -m levels``
    in a folder holding a ``levels/`` package imports that before our
    ``__main__`` runs) is forgotten."""
    finder = next((f for f in sys.meta_path if isinstance(f, _OurPackages)), None)
    if finder is None:
        finder = _OurPackages()
        sys.meta_path.insert(0, finder)
    finder.names.update(names)
    for key, _ in shadowing(names):
        del sys.modules[key]


def N_(message: str) -> str:
    """Marks a message for conformance's catalog (this module imports
    nothing of ours before the guard has run: see :func:`usage`)."""
    return message


COMMANDS = {
    "check": N_("check an implementation against the spec (python -m conformance)"),
    "grade": N_("check every submission in a folder (python -m conformance grade)"),
    "selftest": N_("the conformance suite against its mutants (python -m conformance "
                  "selftest)"),
    "levels": N_("check, show and convert level files (python -m levels)"),
    "solve": N_("solve levels (python -m impl solve)"),
    "play": N_("play levels in the terminal (python -m impl play); play TARGET: a student's "
               "implementation (any profile), the spec beside it"),
    "monitor": N_("run a test file or script on a soko.py, every call checked by the spec"),
}



def usage() -> str:
    """What ``sokoban --help`` prints, in the user's language (after the guard)."""
    from conformance.translations import _, marked

    return (_("usage: sokoban {commands} [ARGS...]").format(
                commands="{" + ",".join(COMMANDS) + "}") + "\n\n"
            + "\n".join(f"  {name:9} {marked(text)}" for name, text in COMMANDS.items())
            + "\n\n" + _("Run 'sokoban COMMAND --help' for a command's options."))


def run(entry, *args) -> int:
    """``entry(*args)``'s exit status; Ctrl-C is status 130 and a closed
    output pipe (``sokoban check ... | head``) ends quietly, never in a traceback."""
    try:
        status = int(entry(*args) or 0)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return 141


def main(argv: list[str] | None = None) -> int:
    """The ``sokoban`` console script."""
    use_our_packages()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        from speech import language_from_argv
        language_from_argv(argv)
        print(usage(), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    return _dispatch(argv[0], argv[1:])


def _dispatch(command: str, rest: list[str]) -> int:
    """Run ``command``'s entry, telling it its name (``sokoban COMMAND``) so
    that usage lines show what the user typed; nothing imports this module
    back for it."""
    prog = f"sokoban {command}"
    if command == "check":
        from conformance.commands.cli import main as entry
        return run(entry, rest, None, prog)
    if command == "grade":
        from conformance.commands.cli import grade_main
        return run(grade_main, rest, None, prog)
    if command == "selftest":
        from conformance.commands.cli import selftest_main
        return run(selftest_main, rest, prog)
    if command == "monitor":
        from conformance.commands.monitor_run import main as entry
        return run(entry, rest, prog)
    if command == "levels":
        from levels.cli import main as entry
        return run(entry, rest, None, prog)
    if command == "play" and rest and _is_target(rest[0]):
        return run(play_target, rest[0], rest[1:], prog)
    if command in ("solve", "play"):
        from impl.commands import run_subcommand
        return run(run_subcommand, command, rest, prog)
    from conformance.translations import _
    print("sokoban: " + _("unknown command {command}").format(command=repr(command))
          + "\n\n" + usage(), file=sys.stderr)
    return 2


def _is_target(text: str) -> bool:
    """Whether ``sokoban play``'s first argument names an implementation to
    play (a ``.py`` file, a folder: a soko.py's, a package, a C++ or a Prolog
    submission, or a ``.pro``/``.pl`` file that defines ``sokoban/1``), not
    levels (a file, or a bundled collection's name)."""
    if text.endswith(".py") or os.path.isdir(text):
        return True
    if not os.path.isfile(text):        # a bundled collection's name
        return False
    from pathlib import Path

    from conformance import profiles
    return any(p.recognize(Path(text), strict=True) is not None for p in profiles.languages())


def play_target(target: str, rest: list[str], prog: str) -> int:
    """``sokoban play TARGET [FILE|COLLECTION] [--level N]``: the terminal
    game (:mod:`impl.play`) on a student's implementation (any profile),
    with the spec beside it (:class:`conformance.live.referee.Referee`, the
    target where ``sokoban check`` runs it). The glue lives here, in the
    command on top of both, because impl and conformance are siblings that
    must not import each other: the game only calls the referee it is
    handed."""
    from conformance import profiles
    from conformance.checking.targets import BadTarget
    from conformance.live.referee import Referee
    from impl.play.cli import main as play

    if any(a in ("-h", "--help") for a in rest):
        return play(rest, prog)
    profile = _profile_option(rest)
    support = _profile_option(rest, "--support")
    lang = _profile_option(rest, "--lang")
    from conformance.translations import LANGUAGES, _, set_language
    if lang is not None:
        if lang not in LANGUAGES:
            print(f"{prog}: " + _("--lang {lang}: not a language ({languages})").format(
                lang=lang, languages=", ".join(LANGUAGES)), file=sys.stderr)
            return 2
        set_language(lang)
    if support is not None and not os.path.isdir(os.path.expanduser(support)):
        print(f"{prog}: " + _("--support {folder}: not a folder").format(folder=support),
              file=sys.stderr)
        return 2
    known = [p.name for p in sorted(profiles.python() + profiles.languages(),
                                    key=lambda p: p.play_rank)]
    if profile is not None and profile not in known:
        print(f"{prog}: " + _("--profile {profile}: no such profile; known: {known}").format(
            profile=profile, known=", ".join(known)), file=sys.stderr)
        return 2
    from conformance.sandbox import isolation
    problem = isolation.asked_problem()
    if problem is not None:         # (the environment's fault, not the target's)
        print(f"{prog}: {problem}", file=sys.stderr)
        return 2
    try:
        referee = Referee(target, profile=profile,
                          support=os.path.realpath(os.path.expanduser(support))
                          if support is not None else None)
    except BadTarget as e:
        print(f"{prog}: {one_line(str(e))}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - whatever opening it raised: one line, no traceback
        print(f"{prog}: " + _("cannot play {target}: {problem}").format(
            target=target, problem=f"{type(e).__name__}: {one_line(str(e))}"), file=sys.stderr)
        return 2
    try:
        return play(rest, prog, referee=referee)
    finally:
        referee.close()


def _profile_option(rest: list[str], option: str = "--profile") -> str | None:
    """The value of ``--profile P`` / ``--profile=P`` (or of another
    ``option``) in ``rest`` (the game's parser reads it again and says when
    it has no value)."""
    for i, arg in enumerate(rest):
        if arg.startswith(f"{option}="):
            return arg.split("=", 1)[1]
        if arg == option and i + 1 < len(rest):
            return rest[i + 1]
    return None


def one_line(message: str, most: int = 4) -> str:
    """A message of several lines (what a target lacks per profile, a
    compiler's first errors) as one line: its first ``most`` lines."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    text = " ".join(lines[:most])
    return text + (" ..." if len(lines) > most else "")


if __name__ == "__main__":
    sys.exit(main())
