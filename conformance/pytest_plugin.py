"""pytest plugin (entry point ``pytest11``): ``pytest --sokoban-impl TARGET``.

Adds the conformance suite to the session as ordinary pytest tests: per
profile the target provides, ``sokoban::operations[PROFILE]`` (every operation
is there) and one per operation group (``conformance.api.GROUPS``: movement,
pushes, win, undo, bombs, levels, immutability...), with node ids like
``sokoban::pushes[soko]``. A target lacking some operations is checked on the
rest: its groups pass or fail on what is there, and ``operations`` fails. So a course's CI runs it like any test, and
``pytest-xdist`` spreads the groups over cores (each worker opens its own
sandbox). Options (all under "Sokoban conformance" in ``pytest --help``):

``--sokoban-impl TARGET``        what to check (as ``python -m conformance``)
``--sokoban-profile P``          the profile (default: detected)
``--sokoban-max-examples N``     examples per group (default 100)
``--sokoban-seed S``             the random seed (default: one drawn per session,
                                 printed in the header, the same on every xdist worker)
``--sokoban-directions C``       ``ours`` or ``seed001``
``--sokoban-timeout SECONDS``    time limit per call into the target
``--sokoban-in-process``         no sandbox (trusted code only)

With ``--sokoban-impl`` and no test paths on the command line, only the
conformance tests run (not the folder's own tests, nor its ``testpaths``);
name paths to run both. ``--sokoban-impl PATH`` (with a space) works like
``--sokoban-impl=PATH``: pytest reads PATH as a test path before this plugin
is loaded, which would move the rootdir; the plugin puts it back.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

KEY = pytest.StashKey["_Suite"]()


def pytest_addoption(parser):
    # Nothing here may import spec: this runs in every pytest session, also
    # in folders whose own spec/ package shadows ours (python -m pytest).
    from conformance.api import PROFILES
    from conformance.targets import DIRECTIONS

    group = parser.getgroup("sokoban", "Sokoban conformance")
    group.addoption("--sokoban-impl", action="store", default=None, metavar="TARGET",
                    help="check TARGET (module:object, module, file.py, folder or entry "
                         "point name) against the spec: one test per operation group")
    group.addoption("--sokoban-profile", action="store", default=None, choices=PROFILES,
                    help="the profile to check (default: every profile the target provides)")
    group.addoption("--sokoban-max-examples", action="store", type=int, default=100,
                    metavar="N", help="random examples per operation group (default: 100)")
    group.addoption("--sokoban-seed", action="store", type=int, default=None, metavar="S",
                    help="random seed for the examples (default: one per session, "
                         "printed in the header)")
    group.addoption("--sokoban-directions", action="store", default="ours", choices=DIRECTIONS,
                    help="the target's direction convention (see docs/conformance-runner.md)")
    group.addoption("--sokoban-timeout", action="store", type=float, default=None,
                    metavar="SECONDS", help="time limit per call into the target "
                    "(default: the runner's, as python -m conformance)")
    group.addoption("--sokoban-in-process", action="store_true", default=False,
                    help="run the target in the test process (no isolation)")


class _Suite:
    """The target of this session (opened on first use in each process)."""

    def __init__(self, config):
        from conformance.checks import RunOptions
        from conformance.sandbox import DEFAULT_TIMEOUT
        from conformance.targets import BadTarget, resolve

        self.text = config.getoption("sokoban_impl")
        self.profile = config.getoption("sokoban_profile")
        max_examples = config.getoption("sokoban_max_examples")
        if max_examples < 1:
            raise pytest.UsageError("--sokoban-max-examples must be at least 1")
        seed = config.getoption("sokoban_seed")
        if seed is None:        # one for the session: the controller's, on an xdist worker
            seed = getattr(config, "workerinput", {}).get("sokoban_seed")
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 32)
        self.options = RunOptions(
            max_examples=max_examples, seed=seed,
            directions=config.getoption("sokoban_directions"),
            timeout=config.getoption("sokoban_timeout") or DEFAULT_TIMEOUT,
            in_process=True if config.getoption("sokoban_in_process") else None)
        try:
            self.spec = resolve(self.text)
        except BadTarget as e:
            raise pytest.UsageError(f"--sokoban-impl: {e}") from None
        self._target = None
        self.load_error: str | None = None

    def target(self):
        from conformance.sandbox import open_target
        from conformance.targets import BadTarget

        if self._target is None and self.load_error is None:
            try:
                self._target = open_target(self.spec, in_process=self.options.in_process,
                                           timeout=self.options.timeout)
            except BadTarget as e:
                self.load_error = str(e)
        return self._target

    def close(self):
        if self._target is not None:
            self._target.close()
            self._target = None


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    """Undo what ``--sokoban-impl PATH`` (a space, not ``=``) did before this
    plugin was loaded: pytest took PATH for a test path and chose the rootdir
    (and ini file) from it."""
    ns = early_config.known_args_namespace
    if ns.sokoban_impl is None or ns.rootdir or ns.inifilename:
        return
    try:
        from _pytest.config.findpaths import determine_setup
        rootpath, inipath, inicfg = determine_setup(
            inifile=None, override_ini=ns.override_ini, args=ns.file_or_dir,
            rootdir_cmd_arg=None, invocation_dir=early_config.invocation_params.dir)[:3]
    except Exception:  # noqa: BLE001 - another pytest version: leave its choice
        return
    if rootpath == early_config.rootpath:
        return
    ini_changed = inipath != early_config.inipath
    early_config._rootpath, early_config._inipath, early_config._inicfg = rootpath, inipath, inicfg
    early_config._inicache.clear()
    parser.extra_info["rootdir"] = str(rootpath)
    parser.extra_info["inifile"] = str(inipath)
    ns.confcutdir = str(inipath.parent if inipath is not None else rootpath)
    if ini_changed:
        args[:] = list(early_config.getini("addopts")) + args


def pytest_configure(config):
    if config.getoption("sokoban_impl") is not None:
        import sokoban_tad      # a spec/ or levels/ folder in cwd (python -m pytest) is not ours
        sokoban_tad.use_our_packages(("spec", "levels", "impl", "conformance"))
        config.stash[KEY] = _Suite(config)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist: every worker checks with the controller's random seed."""
    suite = node.config.stash.get(KEY, None)
    if suite is not None:
        node.workerinput["sokoban_seed"] = suite.options.seed


def pytest_report_header(config):
    suite = config.stash.get(KEY, None)
    if suite is not None:
        return [f"sokoban: checking {suite.spec.name}, random seed {suite.options.seed} "
                f"(--sokoban-seed {suite.options.seed} repeats this run)"]
    return []


def pytest_ignore_collect(collection_path, config):
    """Only the conformance tests, unless test paths were named."""
    if KEY in config.stash and config.args_source != pytest.Config.ArgsSource.ARGS:
        return True
    return None


def pytest_unconfigure(config):
    suite = config.stash.get(KEY, None)
    if suite is not None:
        suite.close()


class SokobanFailure(Exception):
    """A group of the suite failed: ``args`` are the one-line reason and the
    full human report."""


#: The item that checks every operation of the profile is there (one per profile).
OPERATIONS = "operations"


class SokobanItem(pytest.Item):
    """One operation group of one profile, checked by the engine."""

    def __init__(self, *, profile: str, group: str | None, problem: str | None = None, **kw):
        super().__init__(**kw)
        self.profile = profile
        self.group = group
        self.problem = problem

    def runtest(self):
        from conformance.checks import check_target
        from conformance.output import group_passed, verdict_message, verdict_status
        from conformance.targets import explain_missing, missing_operations

        if self.problem:
            raise SokobanFailure(self.problem.splitlines()[0], self.problem)
        suite: _Suite = self.config.stash[KEY]
        target = suite.target()
        if target is None:
            raise SokobanFailure(f"cannot load {suite.spec.name}",
                                 f"cannot load {suite.spec.name}: {suite.load_error}")
        if self.group == OPERATIONS:
            missing = missing_operations(target.has, self.profile)
            if missing:
                raise SokobanFailure(f"missing operations: {', '.join(missing)}",
                                     explain_missing(suite.spec.name, target.has, [self.profile]))
            print(f"{suite.spec.name} has every operation of profile {self.profile}")
            return
        options = replace(suite.options, groups=(self.group,))
        verdict, report = check_target(suite.spec, self.profile, options, target=target)[0]
        if not group_passed(verdict):
            raise SokobanFailure(verdict_message(verdict) or verdict_status(verdict), report)
        print(report)       # what was exercised (shown with -rP)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, SokobanFailure):
            reason, report = excinfo.value.args
            return _failure_repr(str(self.path), reason, f"{reason}\n\n{report}")
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"sokoban {self.profile}: {self.group or 'target'}"


def _failure_repr(path: str, reason: str, text: str):
    """A failure as pytest's own exception representation: ``text`` (the
    report) in the body and only ``reason``, one line, as the crash message
    that the short summary shows. With a plain string, pytest shows the whole
    report again in the summary when it runs on CI (``CI`` set: GitHub
    Classroom). xdist carries this type between processes."""
    try:
        from _pytest._code.code import (
            ReprEntryNative, ReprExceptionInfo, ReprFileLocation, ReprTraceback,
        )
        return ReprExceptionInfo(
            reprtraceback=ReprTraceback([ReprEntryNative([text.rstrip("\n") + "\n"])],
                                        None, "native"),
            reprcrash=ReprFileLocation(path, 0, reason))
    except (ImportError, TypeError):        # another pytest: the text as it is
        return text


def _items(session, suite: _Suite) -> list[SokobanItem]:
    from conformance.api import GROUPS
    from conformance.checks import partial_profiles
    from conformance.targets import detect_profiles, explain_missing, missing_operations

    def item(name, profile, group, problem=None):
        return SokobanItem.from_parent(session, name=name, nodeid=f"sokoban::{name}",
                                       profile=profile, group=group, problem=problem)

    target = suite.target()
    if target is None:
        return [item("load", "", None, f"cannot load {suite.spec.name}: {suite.load_error}")]
    if suite.profile:
        profiles = [suite.profile]
    else:
        profiles = detect_profiles(target.has) or partial_profiles(target.has)[:1]
        if not profiles:
            return [item("profile", "", None, explain_missing(suite.spec.name, target.has))]
    items = []
    for profile in profiles:
        problem = None
        if (missing_operations(target.has, profile)      # checked on the rest, if it can be
                and profile not in partial_profiles(target.has)):
            problem = explain_missing(suite.spec.name, target.has, [profile])
        items += [item(f"{group}[{profile}]", profile, group, problem)
                  for group in (OPERATIONS, *GROUPS[profile])]
    return items


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    suite = config.stash.get(KEY, None)
    if suite is not None:
        ours = _items(session, suite)
        items.extend(ours)
        # Counted as collected ("collected 4 items", not "collected 0 items").
        config.hook.pytest_collectreport(report=pytest.CollectReport(
            "sokoban", "passed", None, ours))
