"""``benchmarks/check_speed.py``'s summary: per profile, the ratio of each
side's least runs, and with three runs or more of each check also of its
median runs (one quick run of a side then decides less)."""

import contextlib
import importlib.util
import io
import pathlib
import statistics
import sys

from hypothesis import given
from hypothesis import strategies as st

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))       # (check_speed imports its siblings)
spec = importlib.util.spec_from_file_location("check_speed", ROOT / "benchmarks" / "check_speed.py")
check_speed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_speed)

runs = st.lists(st.floats(0.5, 20), min_size=1, max_size=5)


def _row(cpus):
    return {"cpu": min(cpus), "cpus": cpus, "seconds": min(cpus), "profile": "aed2"}


@given(rows=st.lists(st.tuples(runs, runs), min_size=1, max_size=4))
def test_the_summary_gives_the_medians_ratio_when_every_check_ran_three_times(rows):
    checks = {f"t{i}": {"before": _row(b), "after": _row(a)} for i, (b, a) in enumerate(rows)}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        check_speed._summary(checks)
    lines = out.getvalue().splitlines()
    least = next(line for line in lines if line.strip().startswith("aed2"))
    assert check_speed.ratio(sum(min(b) for b, _ in rows), sum(min(a) for _, a in rows)).strip() \
        in least
    medians = [line for line in lines if "median run" in line]
    if all(len(b) > 2 and len(a) > 2 for b, a in rows):
        mb = sum(statistics.median(b) for b, _ in rows)
        ma = sum(statistics.median(a) for _, a in rows)
        assert len(medians) == 1 and check_speed.ratio(mb, ma).strip() in medians[0]
    else:
        assert medians == []
