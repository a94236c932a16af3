"""Skill trace of the search policy: mean Fame (First Reconnaissance), Solo Conquest win
rate and mean score, and games per second, at several budgets, next to its base policy.

    python tests/benchmarks/search_trace.py --games 100 --budgets 2,8,32 --heroes arythea [--jobs 2]

Each row plays games 0..n-1 of the run seeded --seed for every hero given; intervals are
95%: mean +- 1.96 s / sqrt(n) for Fame and score, Wilson for the win rate.  A Solo Conquest
win is a game that ended by its scenario condition (both cities conquered, 14.3) within
the round limit.  Speeds are wall-clock of this process (or --jobs workers) and include
everything; build at -O3 (python setup.py build_ext --inplace) before measuring.
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from mksim.runner import GameConfig, run

TERM_SCENARIO_WON = 1


def mean_ci(x) -> str:
    x = np.asarray(x, dtype=float)
    if len(x) < 2:
        return f"{x.mean():.2f}"
    return f"{x.mean():.2f} +- {1.96 * x.std(ddof=1) / math.sqrt(len(x)):.2f}"


def wilson(k: int, n: int) -> str:
    if n == 0:
        return "-"
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return f"{100 * p:.1f}% [{100 * max(0, c - h):.1f}, {100 * min(1, c + h):.1f}]"


def row(spec, heroes, n, seed, jobs):
    fame, won, score, secs, games, stopped = [], 0, [], 0.0, 0, 0
    for hero in heroes:
        for scenario in ("first-reconnaissance", "solo-conquest"):
            cfg = GameConfig(scenario, hero)
            cfg.game()
            t = time.perf_counter()
            r = run(cfg, n, seed, jobs=jobs, policy=spec)
            secs += time.perf_counter() - t
            games += n
            stopped += r.n_stopped
            rec = r.records
            if scenario == "first-reconnaissance":
                fame.extend(rec["fame"].tolist())
            else:
                won += int((rec["termination"] == TERM_SCENARIO_WON).sum())
                score.extend(rec["score"][rec["finished"]].tolist())
    return (f"{str(spec):42} FR Fame {mean_ci(fame):16} SC win {wilson(won, n * len(heroes)):24} "
            f"SC score {mean_ci(score):16} {games / secs:8.1f} games/s  stopped {stopped}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per hero and scenario")
    ap.add_argument("--budgets", default="2,8,32")
    ap.add_argument("--horizon", type=int, default=0)
    ap.add_argument("--base", default="heuristic")
    ap.add_argument("--heroes", default="arythea,goldyx,norowas,tovak,wolfhawk")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    heroes = [h.strip() for h in args.heroes.split(",") if h.strip()]
    print(f"# n = {args.games} games per hero and scenario, heroes {', '.join(heroes)}, seed {args.seed}")
    print(row(args.base, heroes, args.games, args.seed, args.jobs), flush=True)
    for b in (int(x) for x in args.budgets.split(",")):
        spec = f"search:budget={b},horizon={args.horizon},base={args.base}"
        print(row(spec, heroes, args.games, args.seed, args.jobs), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
