"""Paired comparison of two policies in Solo Conquest (or, with ``--scenario``, First
Reconnaissance) on shared seeds: the same game index
is the same game (map, decks, tokens) for both, so the per-game score difference has a
small variance.

    python tests/benchmarks/conquest_paired.py --base heuristic:mana_check=0 --new heuristic
                                               [--games 1000] [--seed 2026] [--first 0]
                                               [--heroes arythea,tovak,...] [--jobs 1]
                                               [--scenario solo-conquest]
                                               [--save-new FILE.npz] [--base-records FILE.npz]

Prints per hero and over all heroes: mean score (20.5) of each policy, the mean paired
difference new - base with a 95% t interval (scipy), Fame difference, and the wins
(termination ``scenario_won``: both cities conquered in Solo Conquest, the city revealed in
First Reconnaissance) of each with 95% Wilson intervals.  Games
``first .. first + games - 1`` of the run seeded ``seed`` are played per hero.

Across two builds (a change with no parameter to switch it off): ``--save-new`` writes the
new policy's per-game records to a file in one checkout; ``--base-records`` in the other reads
them as the base (same seed, games and heroes, checked) instead of playing ``--base``.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from scipy import stats

from mksim.runner import GameConfig, run
from mksim.stats import proportion_ci

HEROES = "arythea,tovak,goldyx,norowas,wolfhawk"


def t_interval(x: np.ndarray) -> tuple[float, float, float]:
    m = float(np.mean(x))
    if len(x) < 2:
        return m, m, m
    h = float(stats.sem(x) * stats.t.ppf(0.975, len(x) - 1))
    return m, m - h, m + h


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """Proportion k/n and its 95% Wilson score interval (``mksim.stats.proportion_ci``)."""
    e = proportion_ci(k, n)
    return (0.0, 0.0, 1.0) if n == 0 else (e.value, e.low, e.high)


def records(spec: str, hero: str, games: int, seed: int, first: int, jobs: int,
            scenario: str = "solo-conquest") -> np.ndarray:
    res = run(GameConfig(scenario, hero), first + games, seed, jobs=jobs, policy=spec)
    rec = res.records[first:]
    if res.n_stopped:
        raise SystemExit(f"error: {res.n_stopped} games of {spec} / {hero} stopped: {res.top_errors(3)}")
    return rec


def line(label: str, a: np.ndarray, b: np.ndarray) -> str:
    sa, sb = a["score"].astype(float), b["score"].astype(float)
    d = t_interval(sb - sa)
    f = t_interval(b["fame"].astype(float) - a["fame"].astype(float))
    wa, wb = int((a["termination"] == 1).sum()), int((b["termination"] == 1).sum())
    pa, pb = wilson(wa, len(a)), wilson(wb, len(b))
    return (f"| {label} | {len(a)} | {sa.mean():.2f} | {sb.mean():.2f} | {d[0]:+.2f} [{d[1]:+.2f}, {d[2]:+.2f}] "
            f"| {f[0]:+.2f} [{f[1]:+.2f}, {f[2]:+.2f}] | {wa} [{pa[1]:.3f}, {pa[2]:.3f}] "
            f"| {wb} [{pb[1]:.3f}, {pb[2]:.3f}] |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="heuristic", help="policy spec of the baseline")
    ap.add_argument("--new", required=True, help="policy spec compared against it")
    ap.add_argument("--games", type=int, default=1000, help="games per hero")
    ap.add_argument("--first", type=int, default=0, help="first game index")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--heroes", default=HEROES)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--scenario", default="solo-conquest",
                    help="solo-conquest (default) or first-reconnaissance (its score is Fame + achievements too)")
    ap.add_argument("--save-new", default=None, help="write the new policy's records here (.npz)")
    ap.add_argument("--base-records", default=None,
                    help="read the base records from this file (written by --save-new in another build)")
    args = ap.parse_args(argv)
    t0 = time.time()
    saved = None
    key = np.array([args.scenario, args.seed, args.first, args.games, args.heroes], dtype=object).astype(str)
    if args.base_records:
        try:
            saved = np.load(args.base_records, allow_pickle=False)
        except (OSError, ValueError) as exc:
            print(f"error: --base-records {args.base_records}: {exc}", file=sys.stderr)
            return 2
        if list(saved["key"]) != list(key):
            print(f"error: --base-records {args.base_records} holds {list(saved['key'])}, "
                  f"this run is {list(key)}", file=sys.stderr)
            return 2
        args.base = f"{saved['spec']} (saved in {args.base_records})"
    print(f"{args.scenario}, seed {args.seed}, games {args.first}-{args.first + args.games - 1} per hero\n"
          f"base {args.base}, new {args.new}\n")
    print("| hero | n | score base | score new | new - base [95% t] | Fame new - base | wins base [Wilson] "
          "| wins new [Wilson] |")
    print("|---|---|---|---|---|---|---|---|")
    all_a, all_b = [], []
    for hero in args.heroes.split(","):
        a = saved[hero] if saved is not None else \
            records(args.base, hero, args.games, args.seed, args.first, args.jobs, args.scenario)
        b = records(args.new, hero, args.games, args.seed, args.first, args.jobs, args.scenario)
        print(line(hero, a, b), flush=True)
        all_a.append(a)
        all_b.append(b)
    print(line("all", np.concatenate(all_a), np.concatenate(all_b)))
    if args.save_new:
        np.savez(args.save_new, key=key, spec=np.array(args.new),
                 **{h: b for h, b in zip(args.heroes.split(","), all_b)})
    print(f"\n({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
