"""Test sessions, one per Python version we claim: 3.11, 3.12 and 3.13.

    python -m pip install nox
    nox                       # tests-3.11, tests-3.12, tests-3.13: the whole suite on each
    nox -s tests-3.13         # one version
    nox -s compat-3.12 compat-3.13   # the smaller "compat" suite (what .ci/run adds)
    nox -l                    # the sessions, and which interpreters were found

``tests-X.Y`` runs the README's test command (``pip install -e '.[test]'``,
then ``pytest -n 2 --hypothesis-profile ci``) in a fresh virtual environment
of Python X.Y. ``compat-X.Y`` runs :data:`COMPAT` there instead, the tests
that have differed between versions (see its comment), with every
DeprecationWarning an error (third-party ones excepted, see :data:`NOT_OURS`);
``.ci/run`` runs it on the versions other than its own, to stay within CI's
time. Extra arguments go to pytest: ``nox -s tests-3.12 -- -x tests/spec``.

Interpreters are looked for as ``pythonX.Y`` on ``PATH`` (a pyenv shim that
does not run counts as missing), then in pyenv's versions
(``$PYENV_ROOT/versions/X.Y.*``, default ``~/.pyenv``), then in ``/usr/bin``
and ``/usr/local/bin``. A version that is not found is skipped, saying where
it was looked for; nox never downloads one.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess

import nox

PYTHONS = ("3.11", "3.12", "3.13")

#: The "compat" suite: what has broken, or could break, on another Python,
#: small enough for CI to run it on two more versions. The sandbox (the
#: fingerprint and its recursion limits, the child protocol, the interpreter
#: a box runs, signals and process handling), the hostile class at the best
#: isolation level (skipped where bwrap is missing), the solver's worker pool
#: (start methods) and the contracted implementation (icontract reads source
#: and annotations).
COMPAT = (
    "tests/conformance/test_sandbox.py",
    "tests/conformance/hostile/test_hostile.py::test_a_hostile_class_is_graded_at_every_level[bwrap]",
    "tests/solver/test_cli.py",
    "tests/impl/test_contracts.py",
    "tests/impl/test_units.py",
)

#: DeprecationWarnings raised in other projects' code, left as warnings in
#: the compat sessions (pytest's filter syntax: action::category:module).
NOT_OURS = ()

nox.options.sessions = [f"tests-{v}" for v in PYTHONS]
nox.options.download_python = "never"
nox.options.default_venv_backend = "venv"
nox.options.reuse_venv = "yes"


def _pyenv_root() -> str:
    return os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")


def _release(path: str) -> tuple[int, ...]:
    """The release of a pyenv folder name such as ``3.12.10`` (for sorting)."""
    name = os.path.basename(os.path.dirname(os.path.dirname(path)))
    return tuple(int(p) if p.isdigit() else -1 for p in name.split("."))


def _candidates(version: str) -> list[str]:
    found = [shutil.which(f"python{version}")]
    found += sorted(glob.glob(os.path.join(_pyenv_root(), "versions", f"{version}.*", "bin",
                                           f"python{version}")), key=_release, reverse=True)
    found += [f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"]
    return [c for c in dict.fromkeys(found) if c]


def find_python(version: str) -> str | None:
    """An interpreter of ``version`` that runs, or None."""
    for candidate in _candidates(version):
        if not os.access(candidate, os.X_OK):
            continue
        try:
            answer = subprocess.run(
                [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            continue
        if answer.returncode == 0 and answer.stdout.strip() == version:
            return candidate
    return None


def _where(version: str) -> str:
    return (f"python{version} on PATH, {_pyenv_root()}/versions/{version}.*, "
            f"/usr/bin, /usr/local/bin")


def _pytest(session: nox.Session, *args: str) -> None:
    session.install("-e", ".[test]")
    session.run("python", "-m", "pytest", "-n", "2", "--hypothesis-profile", "ci", *args,
                *session.posargs)


def _missing(version: str):
    def missing(session: nox.Session) -> None:
        session.skip(f"Python {version} not found (looked for {_where(version)}); "
                     f"install it (e.g. `pyenv install {version}`) to test it")
    return missing


def _tests(session: nox.Session) -> None:
    """The README's test command: the whole suite."""
    _pytest(session)


def _compat(session: nox.Session) -> None:
    """The compat suite, every DeprecationWarning an error."""
    filters = ["-W", "error::DeprecationWarning"]
    for module in NOT_OURS:
        filters += ["-W", f"default::DeprecationWarning:{module}"]
    _pytest(session, *filters, *COMPAT)


for _version in PYTHONS:
    _found = find_python(_version)
    for _name, _body in (("tests", _tests), ("compat", _compat)):
        if _found is None:
            nox.session(name=f"{_name}-{_version}", python=False)(_missing(_version))
        else:
            nox.session(name=f"{_name}-{_version}", python=_found)(_body)
