"""Same verdicts before and after a change? Record every verdict a tree gives,
through the public command line only, and compare two records.

    python benchmarks/verdicts.py run --tree DIR --out RUN.json [--students S] [options]
    python benchmarks/verdicts.py compare A.json B.json      # exit 1 on any difference

``run`` checks, with the code of ``DIR`` (``PYTHONPATH=DIR python -m
conformance ...``, from a private temporary folder, so no other checkout is
imported; the record notes which ``conformance/__init__.py`` was imported),
these targets:

* ``py/NAME``: every file of a folder named ``mutants`` under
  ``DIR/conformance`` (the Python mutants and the correct ``student_*``
  files), copied with their siblings into the run's target folder;
* ``cpp/NAME``: our C++ reference and every C++ mutant, ``prolog/NAME``:
  our Prolog reference, its slow variant, its students and its mutants;
  written by the tree's own ``materialize`` (found by walking
  ``DIR/conformance`` for a module ``mutants`` that has ``materialize``
  and ``MUTANTS``: no module path is written here) and copied into the run's
  target folder (``cpp/NAME/src/``, ``prolog/NAME/sokoban.pro``);
* ``students/KIND/NAME``: every folder of ``--students S`` (``S/soko/*``,
  ``S/aed2/*``, ``S/prolog/*``, as they are).

Each target's files are hashed (``sha256``): ``compare`` says so when the
two runs did not check the same files. For each target the record holds:

* ``check@SEED``: ``check TARGET --seed SEED --json F`` for each ``--seeds``
  (exit status and the JSON report);
* ``gradescope@SEED``: ``check TARGET --seed SEED --gradescope F`` at the
  first seed (exit status and Gradescope's ``results.json``);
* ``grade``: its row of ``summary.json`` from ``grade`` run on folders of
  submissions at the first seed (``--jobs``): the students of each kind, the
  C++ and Prolog targets, and the ``soko`` Python mutants and students (each
  as a folder holding it as ``soko.py`` and its base);
* ``pytest``: for a sample (``--pytest-sample``), ``pytest --sokoban-impl
  TARGET --sokoban-seed SEED`` (the plugin named by ``DIR/pyproject.toml``'s
  ``pytest11`` entry point, loaded with ``-p``): exit status and the outcome
  of each test (from ``--junit-xml``).

All with ``--max-examples N`` (default 30; shrinking on: the counterexample
is part of the verdict) and a fresh ``XDG_CACHE_HOME`` per run (no C++
build cache or Hypothesis file is shared between runs). Every path of the
run (the target folder, the tree, temporary folders) is replaced in the
record by a placeholder (``<TARGETS>``, ``<TREE>``, ``<TMP>``...), so two
runs on different trees compare.

``compare`` walks both records path by path and prints, target by target,
one row per command (``same`` / ``DIFFERENT`` / ``missing``) and under each
different one the leaf paths that differ. It ignores what is not
deterministic (:data:`IGNORED` and :data:`TIME_TEXT`, found by running the
same tree twice: the measured times, and grade's ``slow`` column that
follows one of them) and exits 1 on any other difference, 0 when everything
is the same. ``--no-ignore`` shows everything; ``--common`` compares only
what both records hold (a run cut short, or one made with ``--only``,
``--commands`` or other ``--seeds``).

Cost, measured on e8adec3 (2026-11-29, the shared 2-core machine at load
6-8, ``--jobs 2``, 124 targets: 47 Python, 12 C++, 18 Prolog, 47 students):
``check@7`` 389 s, ``check@1`` 399 s, ``gradescope@7`` 894 s, ``grade@7``
524-880 s, ``pytest@7`` (9 targets) 131 s: 39 minutes in all.
``--commands``, ``--seeds`` and ``--only`` make a cheaper run.

Not ignored, but not always the tree's doing: shrinking stops after 20 s of
wall clock (the engine's ``SHRINK_SECONDS``), so on a loaded machine a slow
shrink can end on a larger counterexample. Seen once in two runs of
e8adec3: the pytest plugin's ``ext.undo-empty[extendido]`` test of
``py/ext_undo_forgets_box`` failed both times, after action 17 in one run
and after action 55 in the other. Run such a target again before blaming
the change.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

FORMAT = 1

#: JSON paths (fnmatch patterns over "command/key/key/...", list items by
#: index) that vary between two runs of the same tree on the same targets, and
#: why. Found by running e8adec3 twice (2026-11-29, the shared 2-core machine at
#: load 6-8): these and nothing else differed.
IGNORED = {
    "*/seconds": "wall time of a check (check --json verdicts; grade's rows)",
    "*/median_call": "the target's median call time, measured (check --json verdicts)",
    "*/median_call_ms": "the same in grade's rows",
    "*/execution_time": "Gradescope's wall time of the check",
    "grade@*/row/slow": "grade's 'slow' is 'yes' when the measured median call took 10 ms or "
                        "more: Prolog mutants sit near it and flip with the machine's load",
}

#: Text in a string value that holds a time: replaced before comparing. The
#: only one seen: the report's first line, "...: DOES NOT CONFORM (2.7 s)"
#: (check --json's counterexample/report, --gradescope's outputs, grade's
#: rules' reports).
TIME_TEXT = [
    (re.compile(r"\((\d+(?:\.\d+)?) s\)"), "(<N> s)"),
]


# --------------------------------------------------------------------- run


def sha_of(path: Path) -> str:
    h = hashlib.sha256()
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    for p in files:
        if "__pycache__" in p.parts:
            continue
        h.update(str(p.relative_to(path.parent if path.is_file() else path)).encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


MATERIALIZE = r'''
import importlib, json, pkgutil, shutil, sys
from pathlib import Path
tree, out = Path(sys.argv[1]), Path(sys.argv[2])
import conformance
found = {}
for info in pkgutil.walk_packages(conformance.__path__, "conformance."):
    if info.name.rsplit(".", 1)[-1] != "mutants" or info.ispkg:
        continue
    mod = importlib.import_module(info.name)
    if not (hasattr(mod, "materialize") and hasattr(mod, "MUTANTS") and hasattr(mod, "REFERENCE")):
        continue
    ref = Path(mod.REFERENCE)
    if (ref / "aed2_Juego.h").is_file():
        found["cpp"] = info.name
        dst = out / "cpp"
        shutil.copytree(ref, dst / "reference" / "src")
        for m in mod.MUTANTS:
            shutil.copytree(mod.materialize(m), dst / m.name / "src")
    elif (ref / "sokoban.pro").is_file():
        found["prolog"] = info.name
        dst = out / "prolog"
        names = ["reference", "slow"] + ["student_" + s for s in mod.STUDENTS] + [m.name for m in mod.MUTANTS]
        for n in names:
            src = Path(mod.materialize(n, out / "_prolog_cache")) if n != "reference" else ref
            (dst / n).mkdir(parents=True)
            for p in src.iterdir():
                if p.suffix in (".pro", ".pl"):
                    shutil.copy2(p, dst / n / p.name)
        shutil.rmtree(out / "_prolog_cache", ignore_errors=True)
print(json.dumps({"modules": found, "conformance": conformance.__file__}))
'''


class Runner:
    def __init__(self, args):
        self.tree = Path(args.tree).resolve()
        self.python = args.python
        self.work = Path(tempfile.mkdtemp(prefix="verdicts-"))
        self.cwd = self.work / "cwd"
        self.cwd.mkdir()
        self.targets_dir = self.work / "targets"
        self.out_dir = self.work / "out"
        self.out_dir.mkdir()
        self.env = dict(os.environ, PYTHONPATH=str(self.tree),
                        XDG_CACHE_HOME=str(self.work / "cache"),
                        # compiled once, as an install would (never into the tree)
                        PYTHONPYCACHEPREFIX=str(self.work / "pycache"))
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.env.pop("SOKOBAN_IMPL", None)
        self.env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
        self.max_examples = args.max_examples
        self.placeholders = [(str(self.targets_dir), "<TARGETS>"), (str(self.out_dir), "<OUT>"),
                             (str(self.work), "<WORK>"), (str(self.tree), "<TREE>")]
        if args.students:
            self.placeholders.append((str(Path(args.students).resolve()), "<STUDENTS>"))

    def conformance(self, *argv, timeout=1800):
        start = time.monotonic()
        p = subprocess.run([self.python, "-m", "conformance", *argv], cwd=self.cwd, env=self.env,
                           capture_output=True, text=True, timeout=timeout)
        return p, time.monotonic() - start

    def normalize(self, value):
        if isinstance(value, str):
            for old, new in self.placeholders:
                value = value.replace(old, new)
            value = re.sub(r"/tmp/[A-Za-z0-9_.\-]+", "<TMP>", value)
            return value
        if isinstance(value, list):
            return [self.normalize(v) for v in value]
        if isinstance(value, dict):
            return {self.normalize(k): self.normalize(v) for k, v in value.items()}
        return value

    # -- targets

    def collect(self, students: str | None) -> dict[str, dict]:
        """name -> {"path": str, "kind": str, "sha256": str, "grade_as": (group, entry name)}"""
        targets: dict[str, dict] = {}
        py = self.targets_dir / "py"
        py.mkdir(parents=True)
        for folder in sorted((self.tree / "conformance").rglob("mutants")):
            if not folder.is_dir():
                continue
            for f in sorted(folder.glob("*.py")):
                if f.name.startswith("_"):
                    continue
                shutil.copy2(f, py / f.name)
        for f in sorted(py.glob("*.py")):
            targets["py/" + f.stem] = {"path": str(f), "kind": "py"}
        p = subprocess.run([self.python, "-c", MATERIALIZE, str(self.tree), str(self.targets_dir)],
                           cwd=self.cwd, env=self.env, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit("materializing the C++ and Prolog targets failed:\n" + p.stderr)
        self.materialized = json.loads(p.stdout.strip().splitlines()[-1])
        for kind in ("cpp", "prolog"):
            base = self.targets_dir / kind
            if base.is_dir():
                for d in sorted(base.iterdir()):
                    targets[f"{kind}/{d.name}"] = {"path": str(d), "kind": kind}
        if students:
            for kind_dir in sorted(Path(students).resolve().iterdir()):
                if not kind_dir.is_dir():
                    continue
                for d in sorted(kind_dir.iterdir()):
                    if d.is_dir() and not d.name.startswith((".", "_")):
                        targets[f"students/{kind_dir.name}/{d.name}"] = {
                            "path": str(d), "kind": "student-" + kind_dir.name}
        for t in targets.values():
            t["sha256"] = sha_of(Path(t["path"]))
        return targets

    # -- commands

    def check(self, name, t, seed):
        return self._reported(name, t, seed, "check", "--json")

    def gradescope(self, name, t, seed):
        return self._reported(name, t, seed, "gs", "--gradescope")

    def _reported(self, name, t, seed, prefix, option):
        """A check of ``t`` writing its JSON with ``option``: exit status and
        the JSON (or, when none was written, its output)."""
        out = self.out_dir / f"{prefix}-{seed}-{name.replace('/', '__')}.json"
        p, secs = self.conformance(t["path"], "--seed", str(seed), "--max-examples",
                                   str(self.max_examples), option, str(out))
        rec = {"exit": p.returncode}
        if out.is_file():
            rec["json"] = self.normalize(json.loads(out.read_text()))
        else:
            rec["stdout"] = self.normalize(p.stdout)
            rec["stderr"] = self.normalize(p.stderr[-4000:])
        return rec, secs

    def grade_groups(self, targets) -> dict[str, dict[str, str]]:
        """group -> {entry name: target name}; the folders are built here."""
        groups: dict[str, dict[str, str]] = {}
        root = self.work / "grade-in"
        for name, t in targets.items():
            kind = t["kind"]
            if kind.startswith("student-"):
                group, entry = kind, Path(t["path"]).name
                dst = root / group / entry
                shutil.copytree(t["path"], dst)
            elif kind in ("cpp", "prolog"):
                group, entry = kind, Path(t["path"]).name
                shutil.copytree(t["path"], root / group / entry)
            elif kind == "py":
                stem = Path(t["path"]).stem
                if not stem.startswith(("soko_", "student_soko")):
                    continue
                group, entry = "py-soko", stem
                dst = root / group / entry
                dst.mkdir(parents=True)
                shutil.copy2(t["path"], dst / "soko.py")
                if stem != "student_soko":
                    shutil.copy2(Path(t["path"]).with_name("student_soko.py"),
                                 dst / "student_soko.py")
            else:
                continue
            groups.setdefault(group, {})[entry] = name
        return groups

    def grade(self, targets, seed, jobs):
        results: dict[str, dict] = {}
        timing: dict[str, float] = {}
        for group, entries in self.grade_groups(targets).items():
            folder = self.work / "grade-in" / group
            out = self.out_dir / f"grade-{group}"
            p, secs = self.conformance("grade", str(folder), "--out", str(out), "--seed", str(seed),
                                       "--max-examples", str(self.max_examples), "--jobs", str(jobs),
                                       timeout=7200)
            timing[group] = round(secs, 1)
            summary = out / "summary.json"
            if not summary.is_file():
                for entry, name in entries.items():
                    results[name] = {"group": group, "exit": p.returncode,
                                     "error": self.normalize(p.stderr[-2000:])}
                continue
            data = self.normalize(json.loads(summary.read_text()))
            rows = {r.get("name"): r for r in data.get("rows", data.get("submissions", []))} \
                if isinstance(data, dict) else {r.get("name"): r for r in data}
            header = {k: v for k, v in data.items() if k not in ("rows", "submissions")} \
                if isinstance(data, dict) else {}
            for entry, name in entries.items():
                results[name] = {"group": group, "exit": p.returncode,
                                 "row": rows.get(entry), "summary": header}
        return results, timing

    def pytest_plugin(self) -> str:
        data = tomllib.loads((self.tree / "pyproject.toml").read_text())
        return data["project"]["entry-points"]["pytest11"]["sokoban"]

    def pytest(self, name, t, seed):
        junit = self.out_dir / f"pytest-{name.replace('/', '__')}.xml"
        start = time.monotonic()
        p = subprocess.run([self.python, "-m", "pytest", "-p", "no:sokoban", "-p",
                            self.pytest_plugin(), "-p", "no:cacheprovider", "-q",
                            f"--sokoban-impl={t['path']}", "--sokoban-seed", str(seed),
                            "--sokoban-max-examples", str(self.max_examples),
                            f"--junit-xml={junit}"],
                           cwd=self.cwd, env=self.env, capture_output=True, text=True, timeout=3600)
        secs = time.monotonic() - start
        rec = {"exit": p.returncode, "tests": {}}
        if junit.is_file():
            for case in ET.parse(junit).getroot().iter("testcase"):
                outcome = "passed"
                message = ""
                for tag in ("failure", "error", "skipped"):
                    el = case.find(tag)
                    if el is not None:
                        outcome = tag
                        message = el.get("message", "")
                        break
                rec["tests"][case.get("name")] = {"outcome": outcome,
                                                  "message": self.normalize(message)}
        else:
            rec["stdout"] = self.normalize(p.stdout[-4000:])
        counts: dict[str, int] = {}
        for v in rec["tests"].values():
            counts[v["outcome"]] = counts.get(v["outcome"], 0) + 1
        rec["counts"] = counts
        return rec, secs


DEFAULT_PYTEST_SAMPLE = ("py/soko_pushes_two_boxes", "py/ext_undo_forgets_box", "py/student_tad",
                         "py/student_soko_strings", "cpp/chain_push", "prolog/reference",
                         "students/soko/*", "students/aed2/*", "students/prolog/*")


def run(args) -> int:
    r = Runner(args)
    t0 = time.monotonic()
    # Every top-level module of the tree must come from the tree (not from an
    # editable install of another checkout in the same environment).
    tops = sorted({p.parent.name for p in r.tree.glob("*/__init__.py")}
                  | {p.stem for p in r.tree.glob("*.py") if p.stem not in ("noxfile", "setup")})
    probe = subprocess.run([args.python, "-c", "import importlib, json, sys; print(json.dumps("
                            "{m: importlib.import_module(m).__file__ for m in sys.argv[1:]}))", *tops],
                           cwd=r.cwd, env=r.env, capture_output=True, text=True)
    if probe.returncode != 0:
        raise SystemExit(f"importing the tree's modules failed:\n{probe.stderr}")
    modules = json.loads(probe.stdout)
    strays = {m: f for m, f in modules.items() if not f.startswith(str(r.tree) + os.sep)}
    if strays:
        raise SystemExit(f"PYTHONPATH={r.tree} imports these from elsewhere: {strays}")
    imported = modules["conformance"]
    print(f"tree {r.tree}: imports {imported} (and {', '.join(m for m in modules if m != 'conformance')}"
          f" from it too); work folder {r.work}", flush=True)
    targets = r.collect(args.students)
    if args.only:
        targets = {k: v for k, v in targets.items()
                   if any(fnmatch.fnmatch(k, pat) for pat in args.only.split(","))}
    seeds = [int(s) for s in args.seeds.split(",")]
    print(f"{len(targets)} targets, seeds {seeds}, --max-examples {args.max_examples}", flush=True)
    record = {"format": FORMAT, "tool": "benchmarks/verdicts.py",
              "tree": str(r.tree), "imported": imported, "materialized": r.materialized,
              "options": {"seeds": seeds, "max_examples": args.max_examples, "jobs": args.jobs,
                          "commands": args.commands},
              "targets": {k: {"kind": v["kind"], "sha256": v["sha256"],
                              "path": r.normalize(v["path"])} for k, v in targets.items()},
              "results": {k: {} for k in targets}, "timing": {}}
    commands = args.commands.split(",")

    def save():     # after each command, so that a run cut short leaves what it did
        Path(args.out).write_text(json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False))

    def batch(label, fn, names):
        start = time.monotonic()
        done = 0

        def one(name):
            try:
                return name, *fn(name, targets[name])
            except subprocess.TimeoutExpired as e:
                return name, {"exit": "timeout", "error": str(e)}, 0.0

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for name, rec, secs in pool.map(one, names):
                record["results"][name][label] = rec
                record["timing"].setdefault(label, {})[name] = round(secs, 1)
                done += 1
                status = rec.get("json", {}).get("verdicts", [{}])[0].get("status") \
                    if isinstance(rec.get("json", {}).get("verdicts"), list) and rec["json"]["verdicts"] \
                    else rec.get("json", {}).get("score", rec.get("counts", ""))
                print(f"  {label} {done}/{len(names)} {name}: exit {rec.get('exit')} {status} "
                      f"[{secs:.1f} s]", flush=True)
        record["timing"][label + ":total"] = round(time.monotonic() - start, 1)
        save()

    names = list(targets)
    for i, seed in enumerate(seeds):
        if "check" in commands:
            batch(f"check@{seed}", lambda n, t, s=seed: r.check(n, t, s), names)
        if i == 0 and "gradescope" in commands:
            batch(f"gradescope@{seed}", lambda n, t, s=seed: r.gradescope(n, t, s), names)
        if i == 0 and "grade" in commands:
            start = time.monotonic()
            results, timing = r.grade(targets, seed, args.jobs)
            for name, rec in results.items():
                record["results"][name][f"grade@{seed}"] = rec
            record["timing"][f"grade@{seed}"] = timing
            record["timing"][f"grade@{seed}:total"] = round(time.monotonic() - start, 1)
            print(f"  grade@{seed}: {len(results)} rows {timing}", flush=True)
            save()
        if i == 0 and "pytest" in commands:
            sample = []
            for pat in args.pytest_sample.split(","):
                match = [n for n in names if fnmatch.fnmatch(n, pat)]
                sample += match[:1] if "*" in pat else match
            batch(f"pytest@{seed}", lambda n, t, s=seed: r.pytest(n, t, s), sample)
    record["timing"]["total"] = round(time.monotonic() - t0, 1)
    save()
    print(f"wrote {args.out} in {record['timing']['total']} s", flush=True)
    if not args.keep:
        shutil.rmtree(r.work, ignore_errors=True)
    else:
        print(f"kept {r.work}")
    return 0


# ----------------------------------------------------------------- compare


def _ignored(path: str) -> bool:
    return any(fnmatch.fnmatchcase(path, pat) for pat in IGNORED)


def _text(value):
    if isinstance(value, str):
        for pattern, repl in TIME_TEXT:
            value = pattern.sub(repl, value)
    return value


def diff(a, b, path: str, out: list[str]) -> None:
    if _ignored(path):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            p = f"{path}/{k}"
            if k not in a or k not in b:
                if not _ignored(p):
                    out.append(f"{p}: only in {'B' if k not in a else 'A'}")
                continue
            diff(a[k], b[k], p, out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items against {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}/{i}", out)
    elif _text(a) != _text(b):
        out.append(f"{path}: {_short(a)} | {_short(b)}")


def _short(v) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 100 else s[:97] + "..."


def _summary(rec: dict) -> str:
    """A verdict in a few words, for the table."""
    if "json" in rec and isinstance(rec["json"].get("verdicts"), list):
        vs = rec["json"]["verdicts"]
        parts = []
        for v in vs:
            c = v.get("counterexample") or {}
            parts.append(f"{v.get('profile')}:{v.get('status')}"
                         + (f" {c.get('rule')}" if c.get("rule") else ""))
        return f"exit {rec.get('exit')} " + "; ".join(parts)
    if "json" in rec and "score" in rec["json"]:
        return f"exit {rec.get('exit')} score {rec['json']['score']}"
    if "row" in rec and rec["row"]:
        return f"{rec['row'].get('verdict')}"
    if "counts" in rec:
        return f"exit {rec.get('exit')} {rec['counts']}"
    return f"exit {rec.get('exit')}"


def compare(args) -> int:
    if args.no_ignore:
        IGNORED.clear()
        TIME_TEXT.clear()
    a = json.loads(Path(args.a).read_text())
    b = json.loads(Path(args.b).read_text())
    different = 0
    skipped = 0
    compared = 0
    for key in ("options",):
        if a.get(key) != b.get(key):
            print(f"note: the runs' {key} differ: {a.get(key)} | {b.get(key)}")
    names = sorted(set(a["results"]) | set(b["results"]))
    width = max((len(n) for n in names), default=10)
    print(f"A: {args.a} (tree {a.get('tree')})\nB: {args.b} (tree {b.get('tree')})")
    print(f"ignored as not deterministic: {', '.join(IGNORED) or 'nothing'}"
          + ("; the time in a report's first line ('DOES NOT CONFORM (2.7 s)')" if TIME_TEXT else ""))
    print()
    print(f"| {'target':{width}} | {'command':14} | {'result':9} | A | B |")
    print(f"|{'-' * (width + 2)}|{'-' * 16}|{'-' * 11}|---|---|")
    for name in names:
        ra, rb = a["results"].get(name), b["results"].get(name)
        ta, tb = a["targets"].get(name, {}), b["targets"].get(name, {})
        if (ra is None or rb is None) and args.common:
            skipped += 1
            continue
        if ra is None or rb is None:
            different += 1
            print(f"| {name:{width}} | {'(target)':14} | {'missing':9} | "
                  f"{'yes' if ra is not None else 'no'} | {'yes' if rb is not None else 'no'} |")
            continue
        if ta.get("sha256") != tb.get("sha256"):
            print(f"| {name:{width}} | {'(files)':14} | {'DIFFERENT':9} | {ta.get('sha256', '')[:10]} "
                  f"| {tb.get('sha256', '')[:10]} |")
            different += 1
        for cmd in sorted(set(ra) | set(rb)):
            ca, cb = ra.get(cmd), rb.get(cmd)
            if (ca is None or cb is None) and args.common:
                skipped += 1
                continue
            if ca is None or cb is None:
                different += 1
                print(f"| {name:{width}} | {cmd:14} | {'missing':9} | "
                      f"{_summary(ca) if ca else '-'} | {_summary(cb) if cb else '-'} |")
                continue
            out: list[str] = []
            compared += 1
            diff(ca, cb, cmd, out)
            if out:
                different += 1
            print(f"| {name:{width}} | {cmd:14} | {'DIFFERENT' if out else 'same':9} | "
                  f"{_summary(ca)} | {_summary(cb) if out else '='} |")
            for line in out[: args.max_paths]:
                print(f"|   {'':{width - 2}} |   {line}")
            if len(out) > args.max_paths:
                print(f"|   {'':{width - 2}} |   ... {len(out) - args.max_paths} more paths")
    print()
    if skipped:
        print(f"--common: {skipped} targets or (target, command) pairs recorded in one run only "
              f"were left out")
    print(f"{different} differences ({compared} (target, command) pairs compared)"
          if different else f"all {compared} (target, command) pairs compared are the same")
    return 1 if different else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("run", help="record the verdicts of one tree")
    p.add_argument("--tree", required=True, help="the checkout whose conformance package runs")
    p.add_argument("--out", required=True, help="the JSON record to write")
    p.add_argument("--students", help="a folder of KIND/NAME submission folders")
    p.add_argument("--seeds", default="7", help="comma-separated; the first also for "
                   "gradescope, grade and pytest (default 7)")
    p.add_argument("--max-examples", type=int, default=30)
    p.add_argument("--jobs", type=int, default=2, help="commands at once, and grade's --jobs")
    p.add_argument("--commands", default="check,gradescope,grade,pytest")
    p.add_argument("--only", help="comma-separated fnmatch patterns of target names")
    p.add_argument("--pytest-sample", default=",".join(DEFAULT_PYTEST_SAMPLE),
                   help="comma-separated target names or patterns (a pattern: its first match)")
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--keep", action="store_true", help="keep the work folder")
    c = sub.add_parser("compare", help="compare two records; exit 1 on any difference")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("--max-paths", type=int, default=8)
    c.add_argument("--no-ignore", action="store_true",
                   help="ignore nothing (to see what varies between two runs of one tree)")
    c.add_argument("--common", action="store_true",
                   help="compare only what both runs recorded (a run cut short, or --only, "
                        "--commands, --seeds subsets); otherwise what one lacks is a difference")
    args = parser.parse_args(argv)
    return run(args) if args.mode == "run" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
