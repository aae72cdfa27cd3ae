"""pytest plugin (entry point ``pytest11``): ``pytest --sokoban-impl TARGET``.

Adds the conformance suite to the session as ordinary pytest tests: per
profile the target provides, one test per rule of the seed (``spec.rules``),
named after it: ``sokoban::soko.push[soko]``, ``sokoban::soko.won[soko]``...
A test passes when the check by rules kept its rule (exercised it, nothing
departed from it); a failed one says why in one line and reports the rule in
the seed's words and its smallest counterexample. A missing function fails
the rules that need it; the others are checked on what is there. The check
runs once per process (each xdist worker runs its own, in its own sandbox);
``-k`` picks rules or families (``-k soko.push`` is the push and the blocked
push). Options (all under "Sokoban conformance" in ``pytest --help``):

``--sokoban-impl TARGET``        what to check (as ``python -m conformance``)
``--sokoban-profile P``          the profile (default: detected)
``--sokoban-max-examples N``     examples per search round (default 100)
``--sokoban-seed S``             the random seed (default: one drawn per session,
                                 printed in the header, the same on every xdist worker)
``--sokoban-directions C``       ``ours`` or ``seed001``
``--sokoban-timeout SECONDS``    time limit per call into the target
``--sokoban-budget SECONDS``     time for the check of each profile (default 300);
                                 a rule it did not reach by then is skipped
``--sokoban-budget-is-failure``  ... and fails instead
``--sokoban-in-process``         no sandbox (trusted code only)
``--sokoban-support DIR``        the course's own files (a library handed out
                                 with the assignment), copied into the box
``--sokoban-no-localize``        no "Where to look" after a departure
``--sokoban-lang es|en``         the language of the tests' messages and reports
                                 (default: the locale's)

Opening the target (at collection; importing it included) is part of the
first profile's check: it runs within that check's budget, and the check
has what is left.

With ``--sokoban-impl`` and no test paths on the command line, only the
conformance tests run (not the folder's own tests, nor its ``testpaths``);
name paths to run both. ``--sokoban-impl PATH`` (with a space) works like
``--sokoban-impl=PATH``: pytest reads PATH as a test path before this plugin
is loaded, which would move the rootdir; the plugin puts it back.

Its imports of the toolkit are inside its functions, on purpose: pytest loads
this plugin in every session where the toolkit is installed, also in folders
whose own ``spec/`` shadows ours and in sessions that never check anything;
importing the profiles at load time would import ``spec`` and cost about
1.3 s (``python -X importtime -c "import conformance.profiles"``).
"""

from __future__ import annotations

import contextlib
import os
import random
import time
from dataclasses import replace

import pytest

KEY = pytest.StashKey["_Suite"]()


def _(message: str) -> str:
    """``message`` in the language of the session (``--sokoban-lang``);
    imported late: this module loads in every pytest session."""
    from conformance.translations import _ as translated
    return translated(message)


def pytest_addoption(parser):
    # Nothing here may import spec: this runs in every pytest session, also
    # in folders whose own spec/ package shadows ours (python -m pytest). So
    # the profile is checked against the registry when it is used.
    from conformance.machines.directions import DIRECTIONS

    group = parser.getgroup("sokoban", "Sokoban conformance")
    group.addoption("--sokoban-impl", action="store", default=None, metavar="TARGET",
                    help="check TARGET (module:object, module, file.py, folder or entry "
                         "point name) against the spec: one test per operation group")
    group.addoption("--sokoban-profile", action="store", default=None, metavar="P",
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
    group.addoption("--sokoban-budget", action="store", type=float, default=None,
                    metavar="SECONDS", help="time for the check of each profile (default: "
                    "the runner's, as python -m conformance); a rule not reached before it "
                    "ran out is skipped")
    group.addoption("--sokoban-budget-is-failure", action="store_true", default=False,
                    help="a rule not reached before the budget ran out fails")
    group.addoption("--sokoban-in-process", action="store_true", default=False,
                    help="run the target in the test process (no isolation)")
    group.addoption("--sokoban-support", action="store", default=None, metavar="DIR",
                    help="a folder of the course's own files (such as gamelib.py), copied "
                         "read-only beside the target in its box (the course's file wins a "
                         "name clash, except the checked file itself)")
    group.addoption("--sokoban-no-localize", action="store_true", default=False,
                    help="after a departure, do not look for the lines of the target's own "
                         "files most likely at fault (\"Where to look\")")
    group.addoption("--sokoban-lang", action="store", default=None, choices=("es", "en"),
                    help="the language of the messages and reports: es or en (default: the "
                         "locale's: LC_ALL, LC_MESSAGES, LANG)")


class _Suite:
    """The target of this session (opened on first use in each process)."""

    def __init__(self, config):
        from conformance.machines.budget import DEFAULT_BUDGET
        from conformance import profiles
        from conformance.checking.checks import RunOptions
        from conformance.sandbox.box import DEFAULT_TIMEOUT
        from conformance.checking.targets import BadTarget, resolve

        from conformance.translations import set_language

        self.lang = set_language(config.getoption("sokoban_lang"))
        self.text = config.getoption("sokoban_impl")
        self.profile = config.getoption("sokoban_profile")
        if self.profile is not None and self.profile not in profiles.names():
            raise pytest.UsageError(f"--sokoban-profile: no profile {self.profile!r}; known: "
                                    + ", ".join(profiles.names()))
        max_examples = config.getoption("sokoban_max_examples")
        if max_examples < 1:
            raise pytest.UsageError("--sokoban-max-examples must be at least 1")
        seed = config.getoption("sokoban_seed")
        if seed is None:        # one for the session: the controller's, on an xdist worker
            seed = getattr(config, "workerinput", {}).get("sokoban_seed")
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 32)
        budget = config.getoption("sokoban_budget") or DEFAULT_BUDGET
        if budget <= 0:
            raise pytest.UsageError("--sokoban-budget must be greater than 0")
        support = config.getoption("sokoban_support")
        if support is not None:
            if not os.path.isdir(os.path.expanduser(support)):
                raise pytest.UsageError(f"--sokoban-support: not a folder: {support!r}")
            support = os.path.realpath(os.path.expanduser(support))
        self.options = RunOptions(
            max_examples=max_examples, seed=seed,
            directions=config.getoption("sokoban_directions"),
            timeout=config.getoption("sokoban_timeout") or DEFAULT_TIMEOUT,
            in_process=True if config.getoption("sokoban_in_process") else None,
            budget=budget, budget_is_failure=config.getoption("sokoban_budget_is_failure"),
            support=support, lang=self.lang,
            localize=not config.getoption("sokoban_no_localize"))
        try:
            self.spec = resolve(self.text)
        except BadTarget as e:
            raise pytest.UsageError(f"--sokoban-impl: {e}") from None
        if not self.options.in_process:
            from conformance.sandbox import isolation
            problem = isolation.asked_problem()     # (the environment's, not the target's)
            if problem is not None:
                raise pytest.UsageError(problem)
        self._target = None
        self.load_error: str | None = None
        self._checked: dict = {}
        self._opening = 0.0                     # seconds opening the target took

    def target(self):
        """The target, opened on first use within the budget of the first
        check (whose budget then counts the time opening took)."""
        from conformance.checking.checks import new_budget, own_profile
        from conformance.machines.budget import OutOfBudget
        from conformance.sandbox.box import open_target
        from conformance.checking.targets import BadTarget

        if own_profile(self.spec) is not None:
            return None         # C++ or Prolog: each check builds or loads it itself
        if self._target is None and self.load_error is None:
            start = time.monotonic()
            budget = new_budget(self.spec, replace(self.options, since=start))
            try:
                with budget.armed() if budget is not None else contextlib.nullcontext():
                    self._target = open_target(
                        self.spec, in_process=self.options.in_process,
                        timeout=self.options.timeout, memory_mb=self.options.memory_mb,
                        directions=self.options.directions, storage_mb=self.options.storage_mb,
                        support=self.options.support)
            except BadTarget as e:      # this plugin's name for the option
                self.load_error = str(e).replace("--support", "--sokoban-support")
            except OutOfBudget:
                self.load_error = _("{target}: not opened within the time budget of {seconds} s "
                                    "(--sokoban-budget), importing it included").format(
                                        target=self.spec.name, seconds=f"{self.options.budget:g}")
            self._opening = time.monotonic() - start
        return self._target

    def checked(self, profile: str):
        """``(verdict, report)`` of the check by rules under ``profile``,
        made once per process (every rule's test reads its outcome)."""
        from conformance.checking.checks import check_by_rules
        if profile not in self._checked:
            target = self.target()
            options = self.options
            if not self._checked:       # the first check: the time opening took counts
                options = replace(options, since=time.monotonic() - self._opening)
            self._checked[profile] = check_by_rules(self.spec, profile, options,
                                                    target=target)[0]
        return self._checked[profile]

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
        return ["sokoban: " + _("checking {target}, random seed {seed} (--sokoban-seed {seed} "
                                "repeats this run)").format(target=suite.spec.name,
                                                            seed=suite.options.seed)]
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


#: A C++ folder's or a Prolog program's first test: every operation there.
OPERATIONS = "operations"


class SokobanFailure(Exception):
    """A rule of the suite failed: ``args`` are the one-line reason and the
    full human report."""


def _reason(o) -> str:
    """One line: why a rule's test failed."""
    if o.status == "broken":
        return (_("broken: {why}").format(why=o.counterexample.message) if o.counterexample
                else _("broken"))
    if o.status == "missing":
        return _("missing operations: {operations}").format(operations=", ".join(o.missing))
    if o.status == "unreached":
        return _("not reached before the time budget ran out (--sokoban-budget-is-failure)")
    return _("never exercised: the play departed elsewhere first")


class SokobanItem(pytest.Item):
    """One rule of the seed (``spec.rules``) under one profile: passes when
    the check by rules kept it (exercised, no departure)."""

    def __init__(self, *, profile: str, rule: str | None = None, group: str | None = None,
                 problem: str | None = None, **kw):
        super().__init__(**kw)
        self.profile = profile
        self.rule = rule
        self.group = group          # a C++ folder or a Prolog program: an operation group
        self.problem = problem

    def runtest(self):
        from conformance.reports import points
        from conformance.checking.checks import own_profile
        from conformance.reports.output import verdict_message, verdict_status

        if self.problem:
            raise SokobanFailure(self.problem.splitlines()[0], self.problem)
        suite: _Suite = self.config.stash[KEY]
        if own_profile(suite.spec) is not None:
            return self._run_own(suite)
        target = suite.target()
        if target is None:
            raise SokobanFailure(_("cannot load {target}").format(target=suite.spec.name),
                                 _("cannot load {target}: {why}").format(
                                     target=suite.spec.name, why=suite.load_error))
        verdict, report = suite.checked(self.profile)
        found = [o for o in verdict.outcomes if o.rule == self.rule]
        if not found:
            raise SokobanFailure(verdict_message(verdict) or verdict_status(verdict), report)
        if found[0].status == "unreached" and found[0].credited:   # slow, not wrong
            pytest.skip(_("not reached: {why}").format(why=verdict_message(verdict)))
        if not found[0].passed:
            raise SokobanFailure(_reason(found[0]), points.describe(self.profile, found[0]))
        print(points.describe(self.profile, found[0]))     # shown with -rP

    def _run_own(self, suite: "_Suite") -> None:
        """A C++ folder or a Prolog program: built or loaded by each check."""
        from conformance.checking.checks import check_target, lacking
        from conformance.reports.output import group_passed, verdict_message, verdict_status

        if self.group == OPERATIONS:
            why = lacking(suite.spec, suite.options)
            if why:
                raise SokobanFailure(why.splitlines()[0], why)
            print(_("{target} has every operation of profile {profile}").format(
                target=suite.spec.name, profile=self.profile))
            return
        options = replace(suite.options, groups=(self.group,))
        verdict, report = check_target(suite.spec, self.profile, options)[0]
        if verdict_status(verdict) == "not fully checked":
            if suite.options.budget_is_failure:
                raise SokobanFailure(verdict_message(verdict), report)
            pytest.skip(_("not fully checked: {why}").format(why=verdict_message(verdict)))
        if not group_passed(verdict):
            raise SokobanFailure(verdict_message(verdict) or verdict_status(verdict), report)
        print(report)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, SokobanFailure):
            reason, report = excinfo.value.args
            return _failure_repr(str(self.path), reason, f"{reason}\n\n{report}")
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"sokoban {self.profile}: {self.rule or self.group or 'target'}"


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
    from conformance import profiles
    from conformance.checking.checks import own_profile, partial_profiles
    from conformance.checking.targets import detect_profiles, explain_missing, missing_operations
    from spec import rules

    def item(name, profile, rule, problem=None, group=None):
        return SokobanItem.from_parent(session, name=name, nodeid=f"sokoban::{name}",
                                       profile=profile, rule=rule, group=group,
                                       problem=problem)

    own = own_profile(suite.spec)
    if own is not None:         # a C++ folder or a Prolog program: its own profile
        problem = None
        if suite.profile not in (None, own):
            problem = (f"{suite.spec.name}: only profile {own} applies to it "
                       f"(got --sokoban-profile {suite.profile})")
        return [item(f"{group}[{own}]", own, None, problem, group=group)
                for group in (OPERATIONS, *profiles.get(own).groups)]
    target = suite.target()
    if target is None:
        return [item("load", "", None, _("cannot load {target}: {why}").format(
            target=suite.spec.name, why=suite.load_error))]
    if suite.profile:
        chosen = [suite.profile]
    else:
        chosen = detect_profiles(target.has) or partial_profiles(target.has)[:1]
        if not chosen:
            return [item("profile", "", None, explain_missing(suite.spec.name, target.has))]
    items = []
    for profile in chosen:
        problem = None
        if (missing_operations(target.has, profile)      # checked on the rest, if it can be
                and profile not in partial_profiles(target.has)):
            problem = explain_missing(suite.spec.name, target.has, [profile])
        items += [item(f"{r.id}[{profile}]", profile, r.id, problem)
                  for r in rules.table_for(profile).rules_for(profile)]
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
