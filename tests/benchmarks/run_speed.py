"""Speed of ``mksim run`` (issue 10's figures; a benchmark, not a test).

1. Overhead: ``mksim run`` of N random First Reconnaissance games (Arythea) with ``--jobs 2``,
   games/s over the whole command (start-up, workers, Parquet chunks, consolidation), against
   twice the one-core ``mksim bench`` games/s on the same seeds.  Target >= 0.70.
2. Parallel efficiency: games/s with ``--jobs 2`` over twice ``--jobs 1`` for a policy
   (``heuristic`` when registered, else ``eager``).  Target >= 0.9.
3. Peak memory of the parent and of each worker (RSS sampled every 0.1 s with psutil) for a
   run of M games.  Target < 200 MB each.

Runs alternate (bench, run, bench, run, ...) and medians of ``--repeats`` are reported.

    python tests/benchmarks/run_speed.py                       # 100,000 / 20,000 / 1,000,000 games
    python tests/benchmarks/run_speed.py --games 20000 --mem-games 100000 --repeats 3
"""
from __future__ import annotations

import argparse
import json
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


def bench(games: int) -> float:
    out = subprocess.run([sys.executable, "-m", "mksim", "bench", "--games", str(games), "--json"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["games_per_s"]


def run(games: int, jobs: int, policy: str, out: Path, sample: bool = False):
    """Wall-clock games/s of one ``mksim run``; with ``sample``, peak RSS (MB) of the parent
    and of the largest child too."""
    if out.exists():
        shutil.rmtree(out)
    cmd = [sys.executable, "-m", "mksim", "run", "--hero", "arythea", "--policy", policy,
           "--games", str(games), "--seed", "0", "--jobs", str(jobs), "--out", str(out), "--quiet"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak_parent = peak_child = 0.0
    if sample:
        p = psutil.Process(proc.pid)
        while proc.poll() is None:
            try:
                peak_parent = max(peak_parent, p.memory_info().rss / 2**20)
                for c in p.children(recursive=True):
                    try:
                        peak_child = max(peak_child, c.memory_info().rss / 2**20)
                    except psutil.NoSuchProcess:
                        pass
            except psutil.NoSuchProcess:
                break
            time.sleep(0.1)
    err = proc.communicate()[1]
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"mksim run failed: {err}")
    return games / wall, peak_parent, peak_child


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--eff-games", type=int, default=20_000)
    ap.add_argument("--mem-games", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--policy", default=None, help="policy for the efficiency figure")
    args = ap.parse_args()
    from mksim.policies import list_policies
    policy = args.policy or ("heuristic" if "heuristic" in list_policies() else "eager")
    tmp = Path(tempfile.mkdtemp(prefix="mksim-run-speed-"))
    try:
        b, r = [], []
        for _ in range(args.repeats):
            b.append(bench(args.games))
            r.append(run(args.games, 2, "random", tmp / "o")[0])
        ratio = [x / (2 * y) for x, y in zip(r, b)]
        print(f"1. overhead, {args.games} random games (n={args.repeats}): bench 1 core median "
              f"{statistics.median(b):.0f} games/s {sorted(round(x) for x in b)}; run --jobs 2 median "
              f"{statistics.median(r):.0f} games/s {sorted(round(x) for x in r)}; ratio run / (2 x bench) "
              f"median {statistics.median(ratio):.2f} {sorted(round(x, 2) for x in ratio)} (target >= 0.70)")
        one, two = [], []
        for _ in range(args.repeats):
            one.append(run(args.eff_games, 1, policy, tmp / "o")[0])
            two.append(run(args.eff_games, 2, policy, tmp / "o")[0])
        eff = [y / (2 * x) for x, y in zip(one, two)]
        print(f"2. parallel efficiency, {args.eff_games} {policy} games (n={args.repeats}): --jobs 1 median "
              f"{statistics.median(one):.0f} games/s, --jobs 2 median {statistics.median(two):.0f} games/s; "
              f"efficiency median {statistics.median(eff):.2f} {sorted(round(x, 2) for x in eff)} (target >= 0.9)")
        rate, parent, child = run(args.mem_games, 2, "random", tmp / "o", sample=True)
        print(f"3. memory, {args.mem_games} random games --jobs 2 ({rate:.0f} games/s): peak RSS parent "
              f"{parent:.0f} MB, largest worker {child:.0f} MB (target < 200 MB each)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
