"""How well the built-in policies play: mean Fame, Solo Conquest score and win rate, and
what they do in a game, per hero and policy, with 95% intervals.

    python tests/benchmarks/strength.py [--games 1000] [--conquest-games 1000] [--seed 2026]
                                        [--policies random,eager,heuristic,...] [--jobs 1]
                                        [--json out.json]

For each hero and policy it plays games ``0 .. n-1`` of the run seeded ``--seed`` (game k
is the same game for every policy: same setup, same chance) and reports

* solo First Reconnaissance (17.3.1): mean Fame with a 95% t interval, and the mean
  score (Fame plus standard achievements, 20.2);
* Solo Conquest (17.3.4): mean score (20.5) with a 95% t interval and the win rate (both
  cities conquered, termination ``scenario_won``) with a 95% Wilson interval;
* behaviour per game (First Reconnaissance): combats entered, enemies defeated, Units
  recruited, level reached, Wounds taken, tiles explored, rounds played;
* games per second on one core (``mksim.bench.run_bench``, First Reconnaissance,
  Arythea, the same as ``mksim bench --policy NAME``).

The behaviour counts come from ``mksim._heuristic.play_counted``, which plays exactly the
decisions of the policy's fast path and counts as it goes (nothing is added to the game
state).  It is a benchmark, not a test: nothing is asserted; run it and read it.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np
from scipy import stats

from mksim._heuristic import play_counted
from mksim._policies import final_score, outcome_numbers
from mksim.bench import run_bench
from mksim.game import Game
from mksim.policies import get_policy

HEROES = ("arythea", "tovak", "goldyx", "norowas", "wolfhawk")
POLICIES = ("random", "eager", "heuristic", "heuristic-explorer", "heuristic-conqueror")
BEHAVIOUR = ("combats", "defeated", "recruited", "level", "wounds", "explored", "rounds")


def t_interval(x) -> tuple[float, float, float]:
    """Mean and 95% Student t interval."""
    x = np.asarray(x, float)
    m = float(x.mean())
    if len(x) < 2 or x.std() == 0:
        return m, m, m
    h = float(stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))
    return m, m - h, m + h


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float, float]:
    """Proportion k/n and its 95% Wilson score interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)


def play_many(scenario: str, hero: str, policy: str, n: int, seed: int, start: int = 0) -> list[dict]:
    """Games ``start .. start+n-1``: a dict per game (fame, score, termination, rounds and
    the play_counted behaviour counts)."""
    game = Game(scenario, hero)
    pol = get_policy(policy)
    rows = []
    for k in range(start, start + n):
        st = game.new_state(seed, k)
        pol.reset(seed, k)
        row = play_counted(pol._core, st.engine)
        term, fame, steps, rnd = outcome_numbers(st.core)
        row.update(fame=int(fame), termination=int(term), rounds=int(rnd),
                   score=int(final_score(st.core, game.scoring, game.rounds, game.cities_total)))
        rows.append(row)
    return rows


def play_parallel(scenario, hero, policy, n, seed, jobs) -> list[dict]:
    if jobs <= 1:
        return play_many(scenario, hero, policy, n, seed)
    from joblib import Parallel, delayed
    chunk = -(-n // jobs)
    parts = Parallel(n_jobs=jobs)(delayed(play_many)(scenario, hero, policy, min(chunk, n - s), seed, s)
                                  for s in range(0, n, chunk))
    return [r for p in parts for r in p]


def fmt(ci, digits=2) -> str:
    m, lo, hi = ci
    return f"{m:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="First Reconnaissance games per hero and policy")
    ap.add_argument("--conquest-games", type=int, default=1000, help="Solo Conquest games per hero and policy")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--policies", default=",".join(POLICIES))
    ap.add_argument("--heroes", default=",".join(HEROES))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--speed-games", type=int, default=1000, help="games for the games/s figure")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    policies = [p for p in args.policies.split(",") if p]
    heroes = [h for h in args.heroes.split(",") if h]
    out: dict = {"seed": args.seed, "games": args.games, "conquest_games": args.conquest_games,
                 "first_reconnaissance": {}, "solo_conquest": {}, "speed": {}}
    t0 = time.time()

    print(f"## Solo First Reconnaissance: mean Fame [95% t interval], n = {args.games} per cell, seed {args.seed}\n")
    print("| policy | " + " | ".join(heroes) + " |")
    print("|---" * (len(heroes) + 1) + "|")
    fr_rows = {}
    for pol in policies:
        cells = []
        for hero in heroes:
            rows = play_parallel("first-reconnaissance", hero, pol, args.games, args.seed, args.jobs)
            fr_rows[pol, hero] = rows
            fame = t_interval([r["fame"] for r in rows])
            score = t_interval([r["score"] for r in rows])
            beh = {k: float(np.mean([r[k] for r in rows])) for k in BEHAVIOUR}
            out["first_reconnaissance"].setdefault(pol, {})[hero] = {
                "fame": fame, "score": score, "behaviour": beh,
                "city_revealed": float(np.mean([r["termination"] == 1 for r in rows]))}
            cells.append(fmt(fame))
        print(f"| {pol} | " + " | ".join(cells) + " |", flush=True)

    print(f"\n## Solo First Reconnaissance: mean score (Fame + achievements, 20.2) [95% t]\n")
    print("| policy | " + " | ".join(heroes) + " |")
    print("|---" * (len(heroes) + 1) + "|")
    for pol in policies:
        print(f"| {pol} | " + " | ".join(fmt(out["first_reconnaissance"][pol][h]["score"]) for h in heroes) + " |")

    print("\n## Behaviour per game (First Reconnaissance, mean over heroes and games)\n")
    print("| policy | " + " | ".join(BEHAVIOUR) + " |")
    print("|---" * (len(BEHAVIOUR) + 1) + "|")
    for pol in policies:
        allrows = [r for h in heroes for r in fr_rows[pol, h]]
        print(f"| {pol} | " + " | ".join(f"{np.mean([r[k] for r in allrows]):.2f}" for k in BEHAVIOUR) + " |")

    if args.conquest_games > 0:
        print(f"\n## Solo Conquest: mean score [95% t] / win rate (both cities conquered) [95% Wilson], "
              f"n = {args.conquest_games} per cell\n")
        print("| policy | " + " | ".join(heroes) + " |")
        print("|---" * (len(heroes) + 1) + "|")
        for pol in policies:
            cells = []
            for hero in heroes:
                rows = play_parallel("solo-conquest", hero, pol, args.conquest_games, args.seed, args.jobs)
                score = t_interval([r["score"] for r in rows])
                win = wilson(sum(r["termination"] == 1 for r in rows), len(rows))
                beh = {k: float(np.mean([r[k] for r in rows])) for k in BEHAVIOUR}
                out["solo_conquest"].setdefault(pol, {})[hero] = {"score": score, "win": win, "behaviour": beh,
                                                                 "fame": t_interval([r["fame"] for r in rows])}
                cells.append(f"{fmt(score, 1)} / {win[0]:.3f} [{win[1]:.3f}, {win[2]:.3f}]")
            print(f"| {pol} | " + " | ".join(cells) + " |", flush=True)

    print(f"\n## Speed: games/s on one core (First Reconnaissance, Arythea, {args.speed_games} games, "
          f"`mksim bench --policy NAME`)\n")
    print("| policy | games/s | decisions/s | decisions per game | games stopped |")
    print("|---|---|---|---|---|")
    for pol in policies:
        rep = run_bench(args.speed_games, args.seed, policy=pol)
        out["speed"][pol] = rep
        print(f"| {pol} | {rep['games_per_s']} | {rep['decisions_per_s']} | {rep['mean_decisions_per_game']} "
              f"| {rep['games_stopped']} |", flush=True)
    print(f"\n({time.time() - t0:.0f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
