"""Side by side with sokoenginepy: our SOK reader and writer against the peer's.

    python benchmarks/sok_peer.py FIXTURES --peer-python PYTHON [--details]

``FIXTURES``: a folder of ``.sok`` files, such as sokoenginepy's own test
fixtures (``tests/fixtures/test_data`` of ``tadams42/sokoenginepy``; bring
them yourself, this script fetches nothing).  ``PYTHON``: a Python
interpreter that can ``import sokoenginepy`` (1.0.3 on PyPI; keep it in its
own virtual environment, it is not a dependency of this project).

For each file, the peer reads it (in a subprocess of ``PYTHON``) and so do
we (``levels.parse_sok``); for every puzzle the peer reads as Sokoban it
compares:

* **titles**: the puzzle's and each snapshot's (the peer's ``""`` is our
  ``None``);
* **snaps**: the number of snapshots and each one's moves (the peer's moves
  text with its run-length encoding expanded, against our ``Snapshot.moves``);
* **notes**: the puzzle's notes, each snapshot's and the file's, as the
  multiset of their non-blank lines, plus the keys the peer takes apart
  (``Author``, ``boxorder``, ``goalorder``, a snapshot's ``Solver``; the
  file's ``Collection``/``Title``, ``Author``, dates).  The peer keeps a key
  it does not know (``Time: ...``) as a note line; we keep it as metadata,
  so our metadata lines count as note lines here.

Then the **round trip**: what we read, written by ``levels.format_xsb``, is
read by the peer, and the same fields are compared with what we read.

Columns: ``puzzles``, the peer's Sokoban puzzles; ``skip``, those of them we
skipped (each listed with our reason); ``var``, the puzzles the peer reads as
another variant that we skipped too; ``titles``, ``snaps`` (the number of
snapshots) and ``notes``, the puzzles where that agrees; ``s.titles``,
``moves``, ``s.notes``, the snapshots where that agrees; ``file``, the files
whose notes and keys agree.  Exit status 0 when every compared field of the
puzzles both read agrees (``--details`` lists every disagreement), 1
otherwise.  Results are in ``docs/levels.md``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import levels  # noqa: E402
from levels import rle  # noqa: E402
from levels.xsb import key_of, parse_sok  # noqa: E402

#: Run by the peer's Python: a JSON list, one entry per file given on stdin.
PEER = r"""
import json, sys
from sokoenginepy.io import Collection
out = []
for item in json.load(sys.stdin):
    c = Collection()
    try:
        if "text" in item:
            c.loads(item["text"])
        else:
            c.load(item["path"])
    except Exception as e:
        out.append({"error": f"{type(e).__name__}: {e}"})
        continue
    out.append({
        "title": c.title, "author": c.author, "created": c.created_at,
        "updated": c.updated_at, "notes": c.notes,
        "puzzles": [{
            "variant": str(p.tessellation).rsplit(".", 1)[-1].lower(),
            "title": p.title, "author": p.author, "boxorder": p.boxorder,
            "goalorder": p.goalorder, "notes": p.notes,
            "snapshots": [{"title": s.title, "solver": s.solver, "notes": s.notes,
                           "moves": s.moves_data} for s in p.snapshots],
        } for p in c.puzzles],
    })
json.dump(out, sys.stdout)
"""

#: Keys the peer takes out of each kind of notes.
PUZZLE_TAGS = {"author", "boxorder", "goalorder", "title", "game"}
SNAPSHOT_TAGS = {"solver", "author", "title"}
FILE_TAGS = {"collection", "title", "author", "game", "date created", "date of last change"}


def peer_read(python: str, items: list[dict]) -> list[dict]:
    done = subprocess.run([python, "-c", PEER], input=json.dumps(items), capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the peer failed:\n{done.stderr}")
    return json.loads(done.stdout)


def _line(text: str) -> str:
    """A note line as compared: a key as ``key: value`` (lower-case key)."""
    kv = key_of(text)
    return f"{kv[0].lower()}: {kv[1]}" if kv else text.strip()


def _peer_lines(notes: str) -> Counter:
    return Counter(_line(ln) for ln in notes.split("\n") if ln.strip())


def _our_lines(notes: str, metadata: dict, tags: set) -> Counter:
    lines = Counter(_line(ln) for ln in notes.split("\n") if ln.strip())
    for key, value in metadata.items():
        if key.lower() not in tags:
            for v in value.split("\n"):
                lines[_line(f"{key}: {v}")] += 1
    return lines


def _moves(peer_moves: str) -> str | None:
    compact = "".join(peer_moves.split())
    try:
        return rle.expand(compact)
    except rle.RLEError:
        return None


def _title(value) -> str | None:
    return value.strip() or None if value is not None else None


def compare(peer: dict, ours: levels.Collection, counts: Counter, out: list[str], name: str,
            skips: list[str]):
    """Count agreements of one file into ``counts``; disagreements go to
    ``out``, the peer's Sokoban puzzles we skipped to ``skips``."""
    by_number = {lv.number: lv for lv in ours.levels}
    skipped = {e.level_number: e for e in ours.skipped}
    for number, p in enumerate(peer["puzzles"], 1):
        if p["variant"] != "sokoban":
            counts["peer variant"] += 1
            if number in skipped:
                counts["skipped variant"] += 1
            elif number in by_number:
                counts["read as sokoban, peer: " + p["variant"]] += 1
                out.append(f"{name} #{number}: we read as Sokoban a {p['variant']} puzzle")
            continue
        counts["peer sokoban"] += 1
        lv = by_number.get(number)
        if lv is None:
            counts["skipped"] += 1
            why = skipped[number].problem if number in skipped else "missing"
            skips.append(f"{name} #{number}: skipped ({why})")
            continue
        counts["puzzles"] += 1
        ok = _title(p["title"]) == lv.title
        counts["titles ok"] += ok
        if not ok:
            out.append(f"{name} #{number}: title {p['title']!r} / ours {lv.title!r}")
        meta = {k.lower(): v for k, v in lv.metadata.items()}
        notes_ok = (_peer_lines(p["notes"]) == _our_lines(lv.notes, lv.metadata, PUZZLE_TAGS)
                    and all((p[k] or None) == meta.get(k) for k in ("author", "boxorder", "goalorder")))
        counts["notes ok"] += notes_ok
        if not notes_ok:
            out.append(f"{name} #{number}: notes {p['notes']!r} author={p['author']!r} / ours "
                       f"{lv.notes!r} {lv.metadata!r}")
        snaps = p["snapshots"]
        counts["peer snapshots"] += len(snaps)
        if len(snaps) != len(lv.snapshots):
            out.append(f"{name} #{number}: {len(snaps)} snapshots / ours {len(lv.snapshots)}")
            continue
        counts["snapshot counts ok"] += 1
        for k, (ps, s) in enumerate(zip(snaps, lv.snapshots), 1):
            smeta = {key.lower(): v for key, v in s.metadata.items()}
            checks = {
                "snapshot titles ok": _title(ps["title"]) == s.title,
                "moves ok": _moves(ps["moves"]) == s.moves,
                "snapshot notes ok": (_peer_lines(ps["notes"]) == _our_lines(
                    s.notes, s.metadata, SNAPSHOT_TAGS)
                    and (ps["solver"] or None) == (smeta.get("solver") or smeta.get("author"))),
            }
            for what, good in checks.items():
                counts[what] += good
                if not good:
                    out.append(f"{name} #{number} snapshot {k}: {what[:-3]}differ: peer "
                               f"{ps['title']!r} {ps['notes']!r} {ps['solver']!r} / ours "
                               f"{s.title!r} {s.notes!r} {s.metadata!r}")
    counts["files"] += 1
    file_ok = (_peer_lines(peer["notes"]) == _our_lines(ours.notes, ours.metadata, FILE_TAGS)
               and _title(peer["title"]) == ours.title
               and (peer["author"] or None) == ours.metadata.get("Author"))
    counts["file notes ok"] += file_ok
    if not file_ok:
        out.append(f"{name}: file notes {peer['title']!r} {peer['notes']!r} / ours "
                   f"{ours.title!r} {ours.notes!r} {ours.metadata!r}")


COLUMNS = [("puzzles", "peer sokoban"), ("skip", "skipped"), ("var", "skipped variant"),
           ("titles", "titles ok"), ("snaps", "snapshot counts ok"), ("s.titles", "snapshot titles ok"),
           ("moves", "moves ok"), ("notes", "notes ok"), ("s.notes", "snapshot notes ok"),
           ("file", "file notes ok")]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("fixtures", help="a folder of .sok files (the peer's tests/fixtures/test_data)")
    p.add_argument("--peer-python", required=True,
                   help="a Python that can import sokoenginepy (its own virtual environment)")
    p.add_argument("--details", action="store_true", help="print every disagreement")
    args = p.parse_args(argv)
    files = sorted(Path(args.fixtures).glob("*.sok"))
    if not files:
        raise SystemExit(f"{args.fixtures}: no .sok files")
    peers = peer_read(args.peer_python, [{"path": str(f)} for f in files])
    ours = []
    for f in files:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours.append(parse_sok(levels.files.decode(f.read_bytes()), f.name))
    # The round trip: what we read, written by us, read by the peer.
    backs = peer_read(args.peer_python, [{"text": levels.format_xsb(c)} for c in ours])
    header = f"{'file':48}" + "".join(f"{h:>9}" for h, _ in COLUMNS)
    rows, problems, skips, total, total_back = [], [], [], Counter(), Counter()
    for f, peer, mine, back in zip(files, peers, ours, backs):
        counts = Counter()
        if "error" in peer:
            rows.append(f"{f.name:48} peer cannot read it: {peer['error']}")
            continue
        compare(peer, mine, counts, problems, f.name, skips)
        total.update(counts)
        if "error" in back:
            problems.append(f"{f.name}: round trip: the peer cannot read our output: {back['error']}")
            continue
        # Our output holds only what we read: compare the peer's reading of it
        # with ours, puzzle by puzzle, renumbered.
        renumbered = levels.Collection(
            levels=[levels.Level(**{**lv.__dict__, "number": i})
                    for i, lv in enumerate(mine.levels, 1)],
            metadata=mine.metadata, notes=mine.notes)
        back_counts = Counter()
        compare(back, renumbered, back_counts, problems, f"{f.name} (round trip)", skips)
        total_back.update(back_counts)
        rows.append(_row(f.name, counts))
    print(header)
    print("-" * len(header))
    print("\n".join(rows))
    print("-" * len(header))
    print(_row("all files", total))
    print(_row("round trip: our output, read by the peer", total_back))
    print(f"\npeer: {total['peer sokoban']} Sokoban puzzles, {total['peer snapshots']} snapshots, "
          f"{total['peer variant']} puzzles of other variants; we skipped "
          f"{total['skipped variant']} of those and {total['skipped']} Sokoban ones.")
    for line in skips:
        print("  " + line)
    print(f"\n{len(problems)} disagreement(s) on the puzzles both read" if problems
          else "\nno disagreement on the puzzles both read")
    for line in problems if args.details else problems[:20]:
        print("  " + line)
    return 1 if problems else 0


def _row(name: str, c: Counter) -> str:
    return f"{name[:48]:48}" + "".join(f"{c[key]:>9}" for _, key in COLUMNS)


if __name__ == "__main__":
    raise SystemExit(main())
