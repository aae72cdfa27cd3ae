"""Moves and undos per second: impl (contracts off and on) against spec.

    python benchmarks/moves.py [--seconds S] [--sizes 10,100,1000] [--json FILE]

On generated open levels (a walled room, boxes and depots scattered at
random, a quarter of the floor covered by boxes) with 10, 100 and 1,000 boxes,
each target plays the same seeded random walk with ``mover_total`` (blocked
moves included, pushes whenever a box is in the way), then undoes every
recorded action with ``deshacer``. Rates are the best of five timing
windows of ``--seconds`` each (default 0.15 s), the sizes interleaved so that
the load of a shared machine hits them alike.

* ``impl off``: :class:`impl.sokoban.Sokoban` with contracts off
  (``SOKOBAN_CONTRACTS=0``: no decorator applied);
* ``impl on``: the same class with contracts on (teaching mode: the O(C)
  invariants run before and after every public call);
* ``spec``: :mod:`spec.sokoban`, the immutable reference.

Each target runs in its own process (contracts are decided at import).
Prints one table with the ratios side by side, what the walk does on each
level (share of blocked moves and of pushes), and checks that impl's
(contracts off) 1,000-box move and undo rates stay within 25% of its
10-box rates; exits 1 if not.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

TARGETS = ("impl-off", "impl-on", "spec")


def open_level(boxes: int, seed: int = 0) -> dict:
    """A walled room with ``boxes`` boxes and as many depots, at random, boxes
    covering about a quarter of the floor (NivelExtendido, no bombs)."""
    rng = random.Random(seed)
    side = max(4, int((4 * boxes + 1) ** 0.5) + 1)
    floor = [(x, y) for x in range(1, side + 1) for y in range(1, side + 1)]
    walls = {(x, y) for x in range(side + 2) for y in range(side + 2)} - set(floor)
    cells = rng.sample(floor, boxes + 1)
    player, box_cells = cells[0], cells[1:]
    goals = rng.sample([p for p in floor if p != player], boxes)
    return {"personaje": frozenset({player}), "cajas": frozenset(box_cells),
            "paredes": frozenset(walls), "depósitos": frozenset(goals), "bombas": 0}


def _walk(n: int, seed: int = 1) -> list:
    from spec.tipos import ACCIONES
    rng = random.Random(seed)
    return [rng.choice(ACCIONES) for _ in range(n)]


def _timed(run, seconds: float) -> float:
    """Operations per second of ``run`` (which returns how many it did) over
    one window of ``seconds``."""
    done, start = 0, time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        done += run()
    return done / (time.perf_counter() - start)


def _player(target: str, boxes: int):
    """``(moves, undos)``: two callables that each do a chunk of operations
    on the ``boxes`` level and return how many they did."""
    level = open_level(boxes)
    walk = _walk(4096)
    chunk = 64  # operations per timed call

    if target == "spec":
        from spec import sokoban as ss
        state = {"s": ss.nuevo_soko(level), "i": 0}

        def moves() -> int:
            s, i = state["s"], state["i"]
            for k in range(chunk):
                s = ss.mover_total(s, walk[(i + k) % len(walk)])
            state["s"], state["i"] = s, i + chunk
            return chunk

        def undos() -> int:
            s, n = state["s"], 0
            while n < chunk and s.anterior is not None:
                s = ss.deshacer(s)
                n += 1
            if n < chunk:            # out of history: play some more (a small untimed share)
                for d in walk[:1024]:
                    s = ss.mover_total(s, d)
            state["s"] = s
            return n
    else:
        from impl.sokoban import Sokoban
        soko = Sokoban(level)
        state = {"i": 0}

        def moves() -> int:
            i, mt = state["i"], soko.mover_total
            for k in range(chunk):
                mt(walk[(i + k) % len(walk)])
            state["i"] = i + chunk
            return chunk

        def undos() -> int:
            n, undo = 0, soko.deshacer
            while n < chunk and undo():
                n += 1
            if n < chunk:
                for d in walk[:1024]:
                    soko.mover_total(d)
            return n

    return moves, undos


def workload(boxes: int, steps: int = 20000) -> dict:
    """What the walk does on the ``boxes`` level: the share of blocked moves
    and of pushes over its first ``steps`` steps (the same for every target:
    they all play the same game)."""
    from impl.sokoban import Sokoban
    soko, walk = Sokoban(open_level(boxes)), _walk(4096)
    blocked = pushes = 0
    for i in range(steps):
        a = walk[i % len(walk)]
        x, y = soko.persona()
        box_ahead = soko.hay_caja((x + a.value[0], y + a.value[1]))
        if not soko.mover_total(a):
            blocked += 1
        elif box_ahead:
            pushes += 1
    return {"blocked": blocked / steps, "pushes": pushes / steps}


def measure(target: str, sizes: list[int], seconds: float, rounds: int = 5) -> list[dict]:
    """Moves/s and undos/s of one target on each level size: the best of
    ``rounds`` windows, the sizes interleaved within each round so that a
    change in the machine's load hits every size alike."""
    players = {b: _player(target, b) for b in sizes}
    best = {b: {"moves": 0.0, "undos": 0.0} for b in sizes}
    for _ in range(rounds):
        for b in sizes:
            moves, undos = players[b]
            best[b]["moves"] = max(best[b]["moves"], _timed(moves, seconds))
            best[b]["undos"] = max(best[b]["undos"], _timed(undos, seconds))
    mix = {b: workload(b) if target == "impl-off" else {} for b in sizes}
    return [{"target": target, "boxes": b, **best[b], **mix[b]} for b in sizes]


def _worker(target: str, sizes: list[int], seconds: float) -> list[dict]:
    env = dict(os.environ, SOKOBAN_CONTRACTS="1" if target == "impl-on" else "0")
    code = ("import json, sys; sys.path.insert(0, %r); import moves; "
            "print(json.dumps(moves.measure(%r, %r, %r)))"
            % (os.path.dirname(os.path.abspath(__file__)), target, sizes, seconds))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True)
    if out.returncode != 0:
        raise SystemExit(f"benchmark worker {target} failed:\n{out.stderr}")
    return json.loads(out.stdout)


def _fmt(rate: float) -> str:
    return f"{rate:>12,.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=0.15,
                    help="length of each timing window (best of five per size)")
    ap.add_argument("--sizes", default="10,100,1000", help="box counts, comma-separated")
    ap.add_argument("--json", help="also write the raw results to this file")
    args = ap.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
        if any(s < 1 for s in sizes):
            raise ValueError
    except ValueError:
        ap.error(f"--sizes must be positive integers separated by commas, not {args.sizes!r}")

    results = {t: {r["boxes"]: r for r in _worker(t, sizes, args.seconds)} for t in TARGETS}

    for kind in ("moves", "undos"):
        print(f"\n{kind} per second (mover_total random walk{'' if kind == 'moves' else ', then deshacer'})")
        print(f"{'boxes':>6} {'impl off':>12} {'impl on':>12} {'spec':>12}"
              f" {'off/spec':>9} {'off/on':>8} {'on/spec':>8}")
        for b in sizes:
            off, on, sp = (results[t][b][kind] for t in TARGETS)
            print(f"{b:>6} {_fmt(off)} {_fmt(on)} {_fmt(sp)} {off / sp:>8.1f}x"
                  f" {off / on:>7.1f}x {on / sp:>7.2f}x")

    print("\nthe walk (same for every target): share of moves that were blocked / pushes")
    for b in sizes:
        r = results["impl-off"][b]
        print(f"{b:>6} boxes: {r['blocked']:6.1%} blocked, {r['pushes']:6.1%} pushes")

    ok = True
    if 10 in sizes and 1000 in sizes:
        print()
        for kind in ("moves", "undos"):
            ratio = results["impl-off"][1000][kind] / results["impl-off"][10][kind]
            good = ratio >= 0.75
            ok &= good
            print(f"impl off, {kind}: 1000-box rate / 10-box rate = {ratio:.2f} "
                  f"({'ok' if good else 'FAIL'}: must be >= 0.75)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
