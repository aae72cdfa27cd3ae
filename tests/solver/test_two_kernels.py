"""Two solves side by side in one process: ``two_kernels.cpp`` (beside this
file), built with g++ against the kernel's sources (``impl/solver/native/``
less ``main.cpp``), calls ``solveLevel`` on Microban levels one after another
and then all at once, one thread per level, and fails when a level's answer
in a thread is not the line it gets alone.  Those lines are the standalone
kernel's (the protocol with Python) and their solutions replay.

With ``SOKOBAN_SOLVER_SANITIZE=1`` (the sanitizer run of ``.ci/run``) the
program is built with ThreadSanitizer instead, which stops it at the first
data race between the two solves."""

import os
import shutil
import subprocess

import pytest

import levels
from impl.solver import native
from impl.solver.board import pieces_of

pytestmark = pytest.mark.skipif(shutil.which(native.COMPILER) is None,
                                reason="g++ is not installed: no native kernel")

#: Microban levels (1-based) the kernel solves in 12,000 to 21,000 nodes:
#: on 122 and 146 every member of the portfolio joins (after
#: Settings::delay, 16384 nodes).
LEVELS = (122, 146, 98)
NODES = 60_000
PROGRAM = os.path.join(os.path.dirname(__file__), "two_kernels.cpp")
TSAN_FLAGS = ("-O1", "-g", "-std=c++17", "-Wall", "-Wextra", "-fsanitize=thread", "-fno-omit-frame-pointer")
TSAN_ENV = {"TSAN_OPTIONS": "halt_on_error=1:exitcode=86"}


@pytest.fixture(scope="module")
def two_kernels(tmp_path_factory):
    """The built program, and the environment to run it in."""
    tsan = native.sanitized()
    target = tmp_path_factory.mktemp("two_kernels") / "two_kernels"
    kernel_files = [str(p) for p in native.sources() if p.suffix == ".cpp" and p.name != "main.cpp"]
    done = subprocess.run([native.COMPILER, *(TSAN_FLAGS if tsan else native.FLAGS), "-pthread",
                           "-I", str(native.SOURCE_DIR), "-o", str(target), PROGRAM, *kernel_files],
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0 and tsan:
        first = (done.stderr.strip().splitlines() or ["no message"])[0]
        pytest.skip(f"g++ cannot build with -fsanitize=thread here: {first}")
    assert done.returncode == 0, done.stderr
    return target, {**os.environ, **(TSAN_ENV if tsan else {})}


def test_solves_in_threads_answer_as_solves_alone(two_kernels, tmp_path):
    program, env = two_kernels
    chosen = [levels.load("microban")[n - 1] for n in LEVELS]
    files = []
    for n, level in zip(LEVELS, chosen):
        files.append(tmp_path / f"microban-{n}.xsb")
        files[-1].write_text(native.xsb(pieces_of(level.to_nivel())))
    run = subprocess.run([str(program), str(NODES), *map(str, files)],
                         capture_output=True, text=True, env=env, timeout=1200)
    assert run.returncode == 0, run.stderr
    answers = run.stdout.splitlines()
    assert len(answers) == len(LEVELS), run.stdout

    kernel, note = native.kernel()
    assert kernel is not None, note
    defaults = native.kernel_environment({k: v for k, v in os.environ.items()
                                          if not k.startswith("SOKOBAN_KERNEL_")})
    for level, path, answer in zip(chosen, files, answers):
        alone = subprocess.run([str(kernel), "0", str(NODES), str(native.MEMORY_MB)], stdin=path.open(),
                               capture_output=True, text=True, env=defaults, timeout=600, check=True)
        assert alone.stdout == answer + "\n", (path.name, alone.stdout, answer)
        words = answer.split()
        assert words[0] == "solved" and 0 < int(words[1]) < NODES, (path.name, answer)
        assert levels.lurd.solves(level, words[2]), path.name
