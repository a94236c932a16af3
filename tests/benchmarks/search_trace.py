"""Skill trace of the search policy: mean Fame (First Reconnaissance), Solo Conquest win
rate and mean score, and games per second, at several budgets, next to its base policy.

    python tests/benchmarks/search_trace.py --games 100 --budgets 2,8,32 --heroes arythea [--jobs 2]

Each row plays games 0..n-1 of the run seeded --seed for every hero given; intervals are
95%: Student t for Fame and score, Wilson for the win rate (scipy, strength.py's functions).
A Solo Conquest win is a game that ended by its scenario condition (both cities conquered, 14.3) within
the round limit.  Speeds are wall-clock of this process (or --jobs workers) and include
everything; build at -O3 (python setup.py build_ext --inplace) before measuring.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from mksim.runner import GameConfig, run

try:                                 # run as a script (tests/benchmarks on sys.path) or as a module
    from strength import t_interval, wilson as wilson_ci
except ImportError:                  # pragma: no cover
    from tests.benchmarks.strength import t_interval, wilson as wilson_ci

TERM_SCENARIO_WON = 1


def mean_ci(x) -> str:
    """Mean and its 95% Student t interval (scipy, as strength.py)."""
    if len(x) < 2:
        return f"{np.mean(x):.2f}" if len(x) else "-"
    m, lo, hi = t_interval(x)
    return f"{m:.2f} [{lo:.2f}, {hi:.2f}]"


def wilson(k: int, n: int) -> str:
    """Win rate and its 95% Wilson interval (scipy, as strength.py)."""
    if n == 0:
        return "-"
    p, lo, hi = wilson_ci(k, n)
    return f"{100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


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
