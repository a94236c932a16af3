"""Speed and memory of ``mksim run`` (issue 10's figures; a benchmark, not a test).

One command measures the three figures of docs/experiments.md "Speed and memory":

1. Overhead: ``mksim run`` of N random First Reconnaissance games (Arythea) with ``--jobs 2``,
   games/s over the whole command (start-up, workers, Arrow chunk files, Parquet, summary),
   against twice the one-core ``mksim bench`` games/s of the same games.  Target >= 0.70.
   Also the CPU cost: CPU seconds of the whole ``mksim run`` (parent and workers) over the CPU
   seconds of ``mksim bench`` (its whole process) for the same games; this one hardly depends
   on what else the machine runs.
2. Parallel efficiency: games/s of the whole command with ``--jobs 2`` over twice ``--jobs 1``
   for the ``heuristic`` policy.  Target >= 0.9.
3. Peak memory of the parent and of each worker for a run of M random games with
   ``--jobs 2``: resident memory sampled every 0.1 s with psutil, and ``ru_maxrss`` as the
   run records it in its manifest (``sessions[-1].peak_rss_mb``).  Target < 200 MB each.

Every spawned command reads mksim's bytecode from ``__pycache__`` (``--bytecode cached``, the
default: the script compiles the sources first, as ``pip install`` does for an installed
package), or compiles its sources anew in every process (``--bytecode none``: what a checkout
pays under ``PYTHONDONTWRITEBYTECODE=1``, ~0.1-0.3 s of CPU per process).

The configurations of a figure alternate (bench, run, bench, run, ...; jobs 1, jobs 2, ...)
so that a change of load hits both; each figure is the median of ``--repeats`` pairs, with
the range, n and a distribution-free 95% interval of the median (order statistics of the
binomial, ``scipy.stats.binom``; it needs n >= 6; a bar counts as met only when the
interval's lower end reaches it), and the 1-minute load average around the runs.  CPU times come from
``os.wait4`` (the process and the workers it waited for).

    python tests/benchmarks/run_speed.py                 # 100,000 / 20,000 / 1,000,000 games, n = 5
    python tests/benchmarks/run_speed.py --games 20000 --eff-games 5000 --mem-games 100000 --repeats 3
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))          # this checkout's mksim, also when it is not installed


def _spawn(cmd, sample: bool = False, stdout=subprocess.DEVNULL):
    """Run ``cmd``; returns (wall s, CPU s of it and its waited-for children, peak RSS MB of
    the process, of its largest child (psutil samples), stdout, load averages before/after)."""
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=stdout, stderr=subprocess.PIPE, text=True)
    peak_parent = peak_child = 0.0
    if sample:
        p = psutil.Process(proc.pid)
        while True:
            try:
                if p.status() == psutil.STATUS_ZOMBIE:
                    break
                peak_parent = max(peak_parent, p.memory_info().rss / 2**20)
                for c in p.children(recursive=True):
                    try:
                        peak_child = max(peak_child, c.memory_info().rss / 2**20)
                    except psutil.NoSuchProcess:
                        pass
            except psutil.NoSuchProcess:
                break
            time.sleep(0.1)
    out = proc.stdout.read() if proc.stdout else ""
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[1:4])} failed ({proc.returncode}): {err}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "parent_mb": peak_parent,
            "child_mb": peak_child, "stdout": out, "load": (load0 + os.getloadavg()[0]) / 2}


def bench(games: int) -> dict:
    r = _spawn([sys.executable, "-m", "mksim", "bench", "--games", str(games), "--json"], stdout=subprocess.PIPE)
    r["rate"] = json.loads(r["stdout"])["games_per_s"]        # the timed play only, as the issue defines it
    return r


def run(games: int, jobs: int, policy: str, out: Path, sample: bool = False) -> dict:
    """One whole ``mksim run`` command: games/s over its wall-clock time."""
    if out.exists():
        shutil.rmtree(out)
    r = _spawn([sys.executable, "-m", "mksim", "run", "--hero", "arythea", "--policy", policy,
                "--games", str(games), "--seed", "0", "--jobs", str(jobs), "--out", str(out), "--quiet"],
               sample=sample)
    r["rate"] = games / r["wall"]
    m = json.loads((out / "manifest.json").read_text())
    r["manifest_rss"] = m["sessions"][-1].get("peak_rss_mb", {})
    r["worker_rate"] = games / sum(c["seconds"] for c in m["chunks"])   # per worker core, play only
    r["sizes_mb"] = {k: (out / f"{k}.parquet").stat().st_size / 1e6 for k in ("games", "rounds")}
    return r


def median_ci(xs, level: float = 0.95):
    """A distribution-free interval for the median of ``xs``: the order statistics
    ``x(k) .. x(n+1-k)`` with the largest k whose coverage, from the Binomial(n, 1/2) law of
    the number of values below the median, is at least ``level``; None when n is too small
    (n < 6 at 95%)."""
    from scipy.stats import binom
    xs, n = sorted(xs), len(xs)
    best = None
    for k in range(1, n // 2 + 1):
        if 1 - 2 * binom.cdf(k - 1, n, 0.5) >= level:
            best = (xs[k - 1], xs[n - k])
    return best


def _fig(xs, digits=2) -> str:
    ci = median_ci(xs)
    interval = (f"; 95% interval of the median [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]" if ci
                else "; n too small for a 95% interval of the median")
    return (f"median {statistics.median(xs):.{digits}f} [{min(xs):.{digits}f} .. {max(xs):.{digits}f}], "
            f"n = {len(xs)}{interval}")


def _verdict(xs, target: float) -> str:
    ci = median_ci(xs)
    if ci is None:
        return "not settled (n < 6)"
    if ci[0] >= target:
        return "met (the interval lies above the target)"
    if ci[1] < target:
        return "missed (the interval lies below the target)"
    return "not settled (the interval contains the target)"


def _bytecode(mode: str) -> None:
    """Prepare mksim's bytecode for the spawned commands (module docstring)."""
    pkg = ROOT / "mksim"
    if mode == "cached":
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(pkg)], check=True,
                       stdout=subprocess.DEVNULL)
    else:
        for d in pkg.rglob("__pycache__"):
            shutil.rmtree(d, ignore_errors=True)
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000, help="games of figure 1")
    ap.add_argument("--eff-games", type=int, default=20_000, help="heuristic games of figure 2")
    ap.add_argument("--mem-games", type=int, default=1_000_000, help="games of figure 3 (0: skip)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--policy", default="heuristic", help="policy of figure 2")
    ap.add_argument("--only", default="123", help="figures to measure, e.g. 12")
    ap.add_argument("--bytecode", choices=("cached", "none"), default="cached",
                    help="mksim's bytecode: compiled first (as installed) or compiled in every process")
    args = ap.parse_args()
    _bytecode(args.bytecode)
    tmp = Path(tempfile.mkdtemp(prefix="mksim-run-speed-"))
    bars = []                    # the two ratios, repeated at the end
    print(f"machine: {os.cpu_count()} CPUs, load average at start {os.getloadavg()[0]:.1f}; "
          f"bytecode {args.bytecode}", flush=True)
    try:
        if "1" in args.only:
            b, r = [], []
            for _ in range(args.repeats):
                b.append(bench(args.games))
                r.append(run(args.games, 2, "random", tmp / "o"))
            ratio = [x["rate"] / (2 * y["rate"]) for x, y in zip(r, b)]
            for i, (x, y, q) in enumerate(zip(r, b, ratio)):
                print(f"   pair {i + 1}: bench {y['rate']:.0f} games/s, run --jobs 2 {x['rate']:.0f} games/s "
                      f"({args.games} games in {x['wall']:.2f} s): {q:.3f}", flush=True)
            bars.append(f"overhead bar (target >= 0.70): run --jobs 2 / (2 x bench) = {_fig(ratio)}: "
                        f"{_verdict(ratio, 0.70)}; inputs: "
                        f"run {_fig([x['rate'] for x in r], 0)} games/s, bench {_fig([x['rate'] for x in b], 0)} "
                        f"games/s ({args.games} random games)")
            cpu = [x["cpu"] / y["cpu"] for x, y in zip(r, b)]
            print(f"1. overhead, {args.games} random games: bench 1 core {_fig([x['rate'] for x in b], 0)} games/s; "
                  f"run --jobs 2 (whole command) {_fig([x['rate'] for x in r], 0)} games/s; "
                  f"ratio run / (2 x bench) {_fig(ratio)} (target >= 0.70); "
                  f"CPU seconds run / bench {_fig(cpu)}; load average {_fig([x['load'] for x in b + r], 1)}",
                  flush=True)
        if "2" in args.only:
            one, two = [], []
            for _ in range(args.repeats):
                one.append(run(args.eff_games, 1, args.policy, tmp / "o"))
                two.append(run(args.eff_games, 2, args.policy, tmp / "o"))
            eff = [y["rate"] / (2 * x["rate"]) for x, y in zip(one, two)]
            for i, (x, y, q) in enumerate(zip(one, two, eff)):
                print(f"   pair {i + 1}: --jobs 1 {x['rate']:.0f} games/s ({x['wall']:.2f} s), --jobs 2 "
                      f"{y['rate']:.0f} games/s ({y['wall']:.2f} s): {q:.3f}", flush=True)
            bars.append(f"efficiency bar (target >= 0.90): --jobs 2 / (2 x --jobs 1) = {_fig(eff)}: "
                        f"{_verdict(eff, 0.90)}; inputs: "
                        f"--jobs 2 {_fig([x['rate'] for x in two], 0)} games/s, --jobs 1 "
                        f"{_fig([x['rate'] for x in one], 0)} games/s ({args.eff_games} {args.policy} games)")
            print(f"2. parallel efficiency, {args.eff_games} {args.policy} games: --jobs 1 "
                  f"{_fig([x['rate'] for x in one], 0)} games/s, --jobs 2 {_fig([x['rate'] for x in two], 0)} "
                  f"games/s; efficiency {_fig(eff)} (target >= 0.9); per worker core (play only) --jobs 1 "
                  f"{_fig([x['worker_rate'] for x in one], 0)}, --jobs 2 {_fig([x['worker_rate'] for x in two], 0)}; "
                  f"load average {_fig([x['load'] for x in one + two], 1)}", flush=True)
        if "3" in args.only and args.mem_games:
            m = run(args.mem_games, 2, "random", tmp / "o", sample=True)
            ru = m["manifest_rss"]
            print(f"3. memory, {args.mem_games} random games --jobs 2 ({m['wall']:.0f} s, {m['rate']:.0f} games/s, "
                  f"load average {m['load']:.1f}): peak RSS (psutil, 0.1 s samples) parent {m['parent_mb']:.0f} MB, "
                  f"largest worker {m['child_mb']:.0f} MB; ru_maxrss parent {ru.get('parent')} MB, workers "
                  f"{ru.get('workers')} MB (target < 200 MB each); games.parquet {m['sizes_mb']['games']:.1f} MB, "
                  f"rounds.parquet {m['sizes_mb']['rounds']:.1f} MB", flush=True)
        if bars:
            print(f"load average at the end {os.getloadavg()[0]:.1f}")
            for line in bars:
                print(line)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
