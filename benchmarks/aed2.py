"""What checking a C++ implementation (profile aed2) costs.

    python benchmarks/aed2.py              # seeds 0-2
    python benchmarks/aed2.py --seeds 5

Builds our C++ reference (``conformance/cpp/reference``) in a fresh, private
build cache, with and without the sanitizers, then looks it up again (the
cached rebuild), then runs the default check (100 examples, shrinking on,
what ``python -m conformance path/to/src`` does) per seed. Prints one table
of seconds. The machine's load shows in every number: say how loaded it was.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        from conformance.aed2.build import build
        from conformance.aed2.mutants import REFERENCE
        from conformance.checks import RunOptions, check_target
        from conformance.targets import cpp_spec

        rows = []
        for sanitize in (True, False):
            b = build(REFERENCE, sanitize=sanitize)
            label = "sanitized" if b.sanitized else "plain"
            rows.append((f"build, fresh cache ({label})", b.seconds))
            again = build(REFERENCE, sanitize=sanitize)
            assert again.cached
            rows.append((f"build, cached ({label})", again.seconds))
        times = []
        for seed in range(args.seeds):
            start = time.monotonic()
            verdict, _ = check_target(cpp_spec(REFERENCE), "aed2", RunOptions(seed=seed))[0]
            times.append(time.monotonic() - start)
            if not verdict.conforms:
                print(f"the reference does not conform under seed {seed}", file=sys.stderr)
                return 1
        rows.append((f"default check, cached build (median of {args.seeds} seeds)",
                     statistics.median(times)))
        rows.append((f"default check, cached build (worst of {args.seeds} seeds)", max(times)))
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    width = max(len(r[0]) for r in rows)
    print(f"{'what':{width}}  seconds")
    for what, seconds in rows:
        print(f"{what:{width}}  {seconds:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
