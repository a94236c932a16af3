"""How long ``mksim report`` takes on a stored results folder (issue 11: a 10,000-game
experiment reported in under 30 s).

    python tests/benchmarks/report_speed.py                 # runs experiments/default.toml (20,000 games) once into a temporary folder
    python tests/benchmarks/report_speed.py --results DIR   # an existing complete results folder

Prints the games stored, the seconds of each of ``--repeats`` reports (median too) and the
figures written.  Not a test: never asserted by wall-clock.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from mksim.experiments import load_experiment  # noqa: E402
from mksim.report import load_results, write_report  # noqa: E402
from mksim.runner import cpus_available, run_experiment  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", type=Path, help="a complete results folder [default: run experiments/default.toml]")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args(argv)
    out = a.results
    if out is None:
        out = Path(tempfile.mkdtemp(prefix="mksim-report-speed-")) / "default"
        run_experiment(load_experiment(ROOT / "experiments" / "default.toml"), out, jobs=cpus_available())
    n = len(load_results(out).games["fame"])
    times = []
    for _ in range(a.repeats):
        t0 = time.perf_counter()
        _, _, n_fig = write_report(out)
        times.append(time.perf_counter() - t0)
    print(f"{out}: {n} games stored; report {', '.join(f'{t:.1f}' for t in times)} s "
          f"(median {statistics.median(times):.1f} s, n = {len(times)}), {n_fig} figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
