"""How fast is a check? This tree and a baseline tree side by side, in one run.

    python benchmarks/check_speed.py --baseline DIR [--students S] [--seeds 7]
        [--only PATTERNS] [--correct] [--grade] [--jobs 2] [--out RUN.json]

For each target (those of ``benchmarks/verdicts.py``: the Python mutants and
correct ``student_*`` files, our C++ and Prolog references and mutants, and
with ``--students`` the public student files; ``--correct`` keeps only the
targets that conform under the first seed with the baseline), and each seed,
it runs ``check TARGET --seed SEED --json`` with each tree, one after the
other (so both see the same load), and records:

* the wall time of the command (Python's start-up and the target's loading
  included: what a user waits for), and its CPU time: the command's own and
  that of every process below it (the sandbox's child, a C++ driver,
  SWI-Prolog, the compiler), measured by :mod:`treecpu` (a cgroup made for
  the command when this script may make one, else ``/proc`` sampled from
  this process). ``RUSAGE_CHILDREN`` is not enough: a sandboxed check's
  child is killed with its namespace, never waited for, and its CPU time
  never reached it. Ratios are of CPU time: on a machine shared with other
  jobs the wall time follows the load, the CPU time much less;
* the round trips to the target: messages to the sandbox child
  (``SandboxTarget._transport``), exchanges with a C++ driver
  (``Aed2Target._exchange``) or requests to SWI-Prolog
  (``PrologTarget._request``), counted in the checking process by a wrapper
  installed before the command runs, in whichever module the tree has them;
* the steps the check played (the JSON's ``stats.steps``) and its verdict.

``--repeat N`` runs each check N times with each tree, alternating, and
compares each side's least CPU time (the run the machine's other jobs
disturbed least); the row keeps all N (``cpus``), and the per-profile
summary also gives the ratio of each side's median runs (with N of 3 or
more: one quick run of a side decides less).

``--instructions`` also counts the instructions each check executes, with
valgrind's cachegrind: on a quiet machine the same to a hundredth of a
percent from run to run, where one check's CPU time moves by up to 40% on a
shared machine, so a change of a few percent shows (load still counts a
little: the checking process looks every 10 ms at a child that has not
answered yet). Two runs under valgrind per check and tree, each about
fifty times slower than the check (a minute or two for a Python check):
the checking process's own count, the check run as usual; and the count of
every process below it (the sandbox's child, a C++ driver, SWI-Prolog),
from a run at isolation ``best-effort`` (valgrind cannot follow a process
into bwrap's namespaces), whose own checking process is not counted: it
waits for a child that valgrind slows, and looks at it every 10 ms while
it waits. That run is made once without valgrind first (a C++ folder is
built, and cached, per isolation level: the compiler is not counted).
Both have ``PYTHONHASHSEED=0``, no time budget and no time limit per call
that a call slowed by valgrind could reach; a count whose runs did not end
as the timed check did (another status) is left out. Needs ``valgrind``. The counts are of
user-space instructions: the kernel's work for a round trip (system calls,
process switches) is not in them, and fewer round trips show in the CPU
time only.

It prints one row per target and seed (times, their ratio, round trips per
step) and, per profile, the total times and their ratio. ``--share`` adds,
for Python targets, the share of the check's CPU time spent in the target's
own code (the check run ``--in-process`` under cProfile with a CPU clock). ``--grade`` also
times ``grade`` on one class folder per kind of submission made of every
target (correct and wrong: ``--only`` applies) with each tree, ``--jobs``.

Both trees are run through their own command line with ``PYTHONPATH=TREE``
from a private folder (``verdicts.Runner``: no editable install of another
checkout is imported, and each run has its own cache). The verdicts are
compared too: a row says ``DIFFERENT`` when the two trees disagree on whether
the target conforms (the counterexample may differ: the plays differ).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import treecpu  # noqa: E402  (a script beside this one)
from verdicts import Runner  # noqa: E402

#: Installed in the checking process before the command runs: counts the calls
#: of each (module, class, method) that the tree has, and writes the count to
#: $CHECK_SPEED_COUNT at exit.
COUNTING = r'''
import atexit, importlib, json, os, runpy, sys
count = [0]

def report():
    open(os.environ["CHECK_SPEED_COUNT"], "w").write(json.dumps({"round_trips": count[0]}))
for module, cls, method in [
        ("conformance.sandbox.box", "SandboxTarget", "_transport"),
        ("conformance.sandbox", "SandboxTarget", "_transport"),
        ("conformance.profiles.aed2.target", "Aed2Target", "_exchange"),
        ("conformance.aed2.target", "Aed2Target", "_exchange"),
        ("conformance.profiles.prolog.target", "PrologTarget", "_request"),
        ("conformance.prolog.target", "PrologTarget", "_request")]:
    try:
        klass = getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError):
        continue
    if method not in vars(klass):
        continue
    def wrap(original):
        def counted(self, *args, **kwargs):
            count[0] += 1
            return original(self, *args, **kwargs)
        return counted
    setattr(klass, method, wrap(vars(klass)[method]))
atexit.register(report)
sys.argv = ["conformance"] + sys.argv[1:]
runpy.run_module("conformance", run_name="__main__", alter_sys=True)
'''


#: ``--share``: the check run in this process (``--in-process``) under
#: cProfile with a CPU clock; writes to $CHECK_SPEED_COUNT the CPU time spent
#: in the target's own files (its folder's, or the file's) and in all.
SHARE = r'''
import cProfile, json, os, pstats, runpy, sys, time
target = os.path.realpath(sys.argv[1])
root = target if os.path.isdir(target) else os.path.dirname(target)
profile = cProfile.Profile(time.process_time)
sys.argv = ["conformance"] + sys.argv[1:]
try:
    profile.runcall(runpy.run_module, "conformance", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
stats = pstats.Stats(profile).stats
total = sum(v[2] for v in stats.values())
own = sum(v[2] for (f, _, _), v in stats.items()
          if os.path.realpath(f) == target or os.path.realpath(f).startswith(root + os.sep))
open(os.environ["CHECK_SPEED_COUNT"], "w").write(json.dumps({"own": own, "total": total}))
'''


class Side(Runner):
    """One tree's runs (a :class:`verdicts.Runner` that also counts round trips)."""

    def examples(self) -> list[str]:
        """``--max-examples N`` when one was chosen (else the check's own default)."""
        return ["--max-examples", str(self.max_examples)] if self.max_examples else []

    def counted(self, *argv, timeout=3600):
        count_file = self.work / "count.json"
        count_file.unlink(missing_ok=True)
        env = dict(self.env, CHECK_SPEED_COUNT=str(count_file))
        p, seconds, cpu, self.cpu_by = treecpu.run(
            [self.python, "-c", COUNTING, *argv], cwd=self.cwd, env=env, capture_output=True,
            text=True, timeout=timeout)
        counted = json.loads(count_file.read_text()) if count_file.is_file() else {}
        return p, seconds, cpu, counted.get("round_trips")

    def share(self, path: str, seed: int) -> float | None:
        """The share of a check's CPU time spent in the target's own code
        (run in this process, profiled: the shares, not the times, count)."""
        count_file = self.work / "share.json"
        count_file.unlink(missing_ok=True)
        env = dict(self.env, CHECK_SPEED_COUNT=str(count_file))
        subprocess.run([self.python, "-c", SHARE, path, "--seed", str(seed), "--in-process",
                        *self.examples()], cwd=self.cwd, env=env, capture_output=True,
                       text=True, timeout=3600)
        if not count_file.is_file():
            return None
        data = json.loads(count_file.read_text())
        return data["own"] / data["total"] if data["total"] else None

    def instructions(self, path: str, seed: int) -> dict:
        """The instructions a check executes (``--instructions``): the
        checking process's own (``parent``) and every process's below it
        (``below``), and their sum."""
        out = self.out_dir / "instructions.json"
        # Valgrind runs a program about fifty times slower: no time budget,
        # and a time limit per call that a call slowed so never reaches (a
        # check stopped by either would be counted short, or differ).
        argv = ["-m", "conformance", path, "--seed", str(seed), *self.examples(),
                "--budget", str(UNLIMITED), "--timeout", str(UNLIMITED), "--json", str(out)]
        env = dict(self.env, PYTHONHASHSEED="0")
        statuses = []

        def counted(env_, children):
            out.unlink(missing_ok=True)
            found = _cachegrind([self.python, *argv], self.cwd, env_, children)
            verdicts = json.loads(out.read_text()).get("verdicts") if out.is_file() else None
            statuses.append((verdicts or [{}])[0].get("status"))
            return found

        parent = counted(env, False)
        loose = dict(env, SOKOBAN_ISOLATION="best-effort")
        # (once without valgrind first: a C++ folder is built, and cached, per isolation level)
        subprocess.run([self.python, *argv], cwd=self.cwd, env=loose, capture_output=True,
                       timeout=3600)
        below = counted(loose, True)
        if parent is None or below is None:
            return {"instructions_error": "valgrind failed"}
        row = {"parent": parent[0], "below": sum(below[1:]),
               "instructions": parent[0] + sum(below[1:]), "instructions_status": statuses}
        return row

    def timed_check(self, name: str, path: str, seed: int) -> dict:
        out = self.out_dir / f"speed-{seed}-{name.replace('/', '__')}.json"
        out.unlink(missing_ok=True)
        p, seconds, cpu, trips = self.counted(path, "--seed", str(seed), *self.examples(),
                                              "--json", str(out))
        row = {"exit": p.returncode, "seconds": round(seconds, 2), "cpu": round(cpu or 0, 2),
               "cpu_by": self.cpu_by, "round_trips": trips}
        if out.is_file():
            verdicts = json.loads(out.read_text()).get("verdicts") or [{}]
            v = verdicts[0]
            row.update(profile=v.get("profile"), status=v.get("status"),
                       steps=(v.get("stats") or {}).get("steps"), rule=(
                           (v.get("counterexample") or {}).get("rule")))
        else:
            row["error"] = (p.stderr or p.stdout)[-500:]
        return row


#: ``--budget`` and ``--timeout`` of a check counted by ``--instructions``.
UNLIMITED = 100_000


def _cachegrind(argv: list[str], cwd, env: dict, children: bool) -> list[int] | None:
    """Instructions executed by ``argv``'s process, then (``children``) by
    each process below it; None when valgrind failed."""
    logs = Path(tempfile.mkdtemp(prefix="check-speed-vg-"))
    try:
        p = subprocess.Popen(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
             f"--trace-children={'yes' if children else 'no'}", f"--log-file={logs}/%p", *argv],
            cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        p.wait(timeout=7200)
        counts = {}
        for log in logs.iterdir():
            m = re.search(r"I\s+refs:\s+([\d,]+)", log.read_text(errors="replace"))
            if m:
                counts[int(log.name)] = int(m.group(1).replace(",", ""))
        if p.pid not in counts:
            return None
        return [counts.pop(p.pid), *counts.values()]
    finally:
        shutil.rmtree(logs, ignore_errors=True)


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.1f}%"


def ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:5.1f}x" if a and b else "   - "


def per_step(row: dict) -> str:
    if row.get("round_trips") is None or not row.get("steps"):
        return "  -"
    return f"{row['round_trips'] / row['steps']:.2f}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", required=True, help="the baseline tree (a checkout)")
    p.add_argument("--tree", default=str(Path(__file__).resolve().parents[1]),
                   help="this tree (default: the checkout holding this script)")
    p.add_argument("--students", help="a folder of public student files (soko/, aed2/, prolog/)")
    p.add_argument("--seeds", default="7")
    p.add_argument("--only", help="comma-separated fnmatch patterns over the target names")
    p.add_argument("--correct", action="store_true",
                   help="only the targets the baseline finds conforming (first seed)")
    p.add_argument("--max-examples", type=int, default=None,
                   help="as check's option (default: check's own)")
    p.add_argument("--share", action="store_true",
                   help="also the share of each check's CPU time spent in the target's own "
                        "code (Python targets, run --in-process under cProfile)")
    p.add_argument("--repeat", type=int, default=1,
                   help="run each check N times with each tree, one tree then the other; "
                        "each side's least CPU time is the one compared (on a machine shared "
                        "with other jobs, the run least disturbed; all N are recorded)")
    p.add_argument("--instructions", action="store_true",
                   help="also count the instructions each check executes (valgrind: the same "
                        "on any load; two runs per check and tree, each about 50x slower)")
    p.add_argument("--grade", action="store_true", help="also time grade on class folders")
    p.add_argument("--no-checks", action="store_true", help="only --grade")
    p.add_argument("--jobs", type=int, default=2, help="grade's --jobs")
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--out", help="write every row as JSON here")
    args = p.parse_args(argv)
    if args.instructions and shutil.which("valgrind") is None:
        print("check_speed: --instructions needs valgrind (Debian: apt install valgrind)",
              file=sys.stderr)
        return 2

    def side(tree):
        return Side(argparse.Namespace(tree=tree, python=args.python, students=args.students,
                                       max_examples=args.max_examples))

    base, new = side(args.baseline), side(args.tree)
    targets = new.collect(args.students)
    base.collect(args.students)         # (the baseline's own mutants and references)
    if args.only:
        targets = {k: v for k, v in targets.items()
                   if any(fnmatch.fnmatch(k, pat) for pat in args.only.split(","))}
    seeds = [int(s) for s in args.seeds.split(",")]
    record: dict = {"baseline": str(Path(args.baseline).resolve()), "tree": str(Path(args.tree)),
                    "seeds": seeds, "max_examples": new.max_examples, "checks": {}, "grade": {}}
    print(f"{len(targets)} targets, seeds {seeds}, --max-examples "
          f"{new.max_examples or 'as check'}; "
          f"baseline {args.baseline}, this tree {args.tree}", flush=True)
    if not args.no_checks:
        head = (f"{'target':40} {'profile':9} {'seed':>4} {'wall before':>11} {'after':>6} "
                f"{'cpu before':>10} {'after':>6} {'ratio':>6} {'rt/step':>13} {'verdict'}")
        print(head)
        for name, t in targets.items():
            b_path = _same_target(base, name, t)
            for i, seed in enumerate(seeds):
                before = base.timed_check(name, b_path, seed)
                if args.correct and i == 0 and before.get("status") != "conforms":
                    break
                after = new.timed_check(name, t["path"], seed)
                for _ in range(args.repeat - 1):
                    before = _least(before, base.timed_check(name, b_path, seed))
                    after = _least(after, new.timed_check(name, t["path"], seed))
                if args.instructions:
                    before.update(base.instructions(b_path, seed))
                    after.update(new.instructions(t["path"], seed))
                    for row in (before, after):     # (counted on another play: not comparable)
                        if set(row.get("instructions_status") or [None]) != {row.get("status")}:
                            row["instructions"] = None
                if args.share and t["kind"] in ("py", "student-soko"):
                    before["own_share"] = base.share(b_path, seed)
                    after["own_share"] = new.share(t["path"], seed)
                same = (before.get("status") == after.get("status"))
                record["checks"][f"{name}@{seed}"] = {"before": before, "after": after}
                print(f"{name:40} {str(after.get('profile')):9} {seed:>4} {before['seconds']:11.1f} "
                      f"{after['seconds']:6.1f} {before['cpu']:10.1f} {after['cpu']:6.1f} "
                      f"{ratio(before['cpu'], after['cpu']):>6} "
                      f"{per_step(before):>6} {per_step(after):>6} "
                      f"{after.get('status')}{'' if same else ' DIFFERENT (before: ' + str(before.get('status')) + ')'}"
                      + (f"; the target's own code: {_percent(before.get('own_share'))} -> "
                         f"{_percent(after.get('own_share'))} of the CPU time" if args.share else "")
                      + (f"; instructions {_giga(before.get('instructions'))} -> "
                         f"{_giga(after.get('instructions'))} "
                         f"({ratio(before.get('instructions'), after.get('instructions')).strip()})"
                         if args.instructions else ""),
                      flush=True)
        _summary(record["checks"])
    if args.grade:
        groups = new.grade_groups(targets)
        base.grade_groups({k: {**v, "path": _same_target(base, k, v)} for k, v in targets.items()})
        for group in sorted(groups):
            row = {}
            for label, s in (("before", base), ("after", new)):
                folder = s.work / "grade-in" / group
                out = s.out_dir / f"grade-{group}"
                proc, seconds, cpu, cpu_by = treecpu.run(
                    [s.python, "-m", "conformance", "grade", str(folder), "--out", str(out),
                     "--seed", str(seeds[0]), *s.examples(), "--jobs", str(args.jobs)],
                    cwd=s.cwd, env=s.env, capture_output=True, text=True, timeout=7200)
                row[label] = {"seconds": round(seconds, 1),
                              "cpu": round(cpu, 1), "cpu_by": cpu_by, "exit": proc.returncode,
                              "submissions": len(list(folder.iterdir()))}
            record["grade"][group] = row
            print(f"grade {group:20} {row['after']['submissions']:3} submissions: CPU "
                  f"{row['before']['cpu']:7.1f} s before, {row['after']['cpu']:7.1f} s after "
                  f"({ratio(row['before']['cpu'], row['after']['cpu']).strip()}); wall "
                  f"{row['before']['seconds']:7.1f} s, {row['after']['seconds']:7.1f} s "
                  f"({ratio(row['before']['seconds'], row['after']['seconds']).strip()})",
                  flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(record, indent=1, sort_keys=True))
    return 0


def _giga(n: int | None) -> str:
    return "-" if not n else f"{n / 1e9:.2f}G"


def _least(row: dict, again: dict) -> dict:
    """Of two runs of one check, the one that used less CPU time, with the
    CPU times of every run so far (``cpus``)."""
    cpus = row.get("cpus", [row["cpu"]]) + [again["cpu"]]
    least = again if again["cpu"] < row["cpu"] else row
    return {**least, "cpus": cpus}


def _same_target(side: Side, name: str, t: dict) -> str:
    """The path of target ``name`` in ``side``'s own materialized folder (the
    student files are the same folder for both)."""
    if name.startswith("students/"):
        return t["path"]
    path = side.targets_dir / name
    for candidate in (path.with_suffix(".py"), path):
        if candidate.exists():
            return str(candidate)
    return t["path"]


def _summary(checks: dict) -> None:
    by: dict[str, list] = {}
    for row in checks.values():
        by.setdefault(str(row["after"].get("profile")), []).append(row)
    print("\nper profile: total CPU time before -> after (ratio), total wall time; median "
          "round trips per step")
    for profile, rows in sorted(by.items()):
        b = sum(r["before"]["cpu"] for r in rows)
        a = sum(r["after"]["cpu"] for r in rows)
        wall_b = sum(r["before"]["seconds"] for r in rows)
        wall_a = sum(r["after"]["seconds"] for r in rows)
        steps_b = [r["before"]["round_trips"] / r["before"]["steps"] for r in rows
                   if r["before"].get("steps") and r["before"].get("round_trips") is not None]
        steps_a = [r["after"]["round_trips"] / r["after"]["steps"] for r in rows
                   if r["after"].get("steps") and r["after"].get("round_trips") is not None]
        med = (lambda xs: f"{statistics.median(xs):.2f}" if xs else "-")
        ins_b = sum(r["before"].get("instructions") or 0 for r in rows)
        ins_a = sum(r["after"].get("instructions") or 0 for r in rows)
        counted = all(r["before"].get("instructions") and r["after"].get("instructions")
                      for r in rows)
        print(f"  {profile:10} {len(rows):3} checks: CPU {b:8.1f} s -> {a:8.1f} s ({ratio(b, a).strip()}),"
              f" wall {wall_b:8.1f} s -> {wall_a:8.1f} s ({ratio(wall_b, wall_a).strip()});"
              f" {med(steps_b)} -> {med(steps_a)} round trips per step"
              + (f"; instructions {_giga(ins_b)} -> {_giga(ins_a)} ({ratio(ins_b, ins_a).strip()})"
                 if counted and ins_a else ""))
        if all(len(r[side].get("cpus", ())) > 2 for r in rows for side in ("before", "after")):
            # (--repeat 3 or more) each side's median run too: one quick run decides less
            mb = sum(statistics.median(r["before"]["cpus"]) for r in rows)
            ma = sum(statistics.median(r["after"]["cpus"]) for r in rows)
            print(f"  {'':10} {'':3}   by each check's median run: CPU {mb:8.1f} s -> "
                  f"{ma:8.1f} s ({ratio(mb, ma).strip()})")


if __name__ == "__main__":
    sys.exit(main())
