"""How well the built-in policies play: mean Fame, Solo Conquest score and win rate, and
what they do in a game, per hero and policy, with 95% intervals.

    python tests/benchmarks/strength.py [--games 1000] [--conquest-games 200] [--seed 2026]
                                        [--policy SPEC ...] [--trace-budgets 2,8,32]
                                        [--trace-games 40] [--jobs 1] [--json out.json]
                                        [--scenario all|first-reconnaissance|solo-conquest]
                                        [--speed-repeats 3]

    # the Solo Conquest figures of issue 9 (n = 1,000 per hero, no trace, no speed runs):
    python tests/benchmarks/strength.py --scenario solo-conquest --conquest-games 1000 \
        --policy heuristic --speed-repeats 0 --jobs 2

For each hero and policy (``--policy`` may be given several times, e.g.
``--policy search:budget=8``) it plays games ``0 .. n-1`` of the run seeded ``--seed`` (game
k is the same game for every policy: same setup, same chance) and reports

* solo First Reconnaissance (17.3.1): mean Fame with a 95% t interval, and the mean
  score (Fame plus standard achievements, 20.2);
* Solo Conquest (17.3.4): mean score (20.5) with a 95% t interval and the win rate (both
  cities conquered, termination ``scenario_won``) with a 95% Wilson interval;
* Solo Conquest per hero: level, combats, Units recruited and held, cities revealed and
  conquered, the player's Shields on cities at the end (11.12.2);
* behaviour per game: combats entered, enemies defeated, Units recruited, level reached,
  Wounds taken, tiles explored (drawn from the tile stack), rounds played;
* the skill trace of ``search`` at ``--trace-budgets``: First Reconnaissance Fame, Solo
  Conquest win rate and games/s at each budget (``--trace-games`` per hero and scenario);
* games per second on one core (``mksim.bench.run_bench``, First Reconnaissance, Arythea,
  the same as ``mksim bench --policy NAME``), ``--speed-repeats`` runs alternating the
  policies, median reported (so a policy's speed is read as a ratio to ``random`` measured
  in the same minutes of a shared machine).

The behaviour counts are the engine's own counters (``Player.stats``, read by
``mksim._access.fill_stats`` as the results store does), nothing replayed.  It is a
benchmark, not a test: nothing is asserted; run it and read it.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np
from scipy import stats

from mksim._access import STATS_FIELDS, fill_stats, final_score, outcome_numbers
from mksim.bench import run_bench
from mksim.policies import parse_policy_spec
from mksim.runner import GameConfig, _play_state

HEROES = ("arythea", "tovak", "goldyx", "norowas", "wolfhawk")
POLICIES = ("random", "eager", "heuristic", "heuristic-explorer", "heuristic-conqueror", "search:budget=8",
            "search:budget=16")          # the best honest policy (README)
BEHAVIOUR = ("combats", "defeated", "recruited", "level", "wounds", "explored", "rounds")
_F = {k: i for i, k in enumerate(STATS_FIELDS)}
_DEFEATED = [_F[k] for k in STATS_FIELDS if k.startswith("defeated_")]


def t_interval(x) -> tuple[float, float, float]:
    """Mean and 95% Student t interval."""
    x = np.asarray(x, float)
    m = float(x.mean())
    if len(x) < 2 or x.std() == 0:
        return m, m, m
    h = float(stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))
    return m, m - h, m + h


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """Proportion k/n and its 95% Wilson score interval (scipy, as ``mksim.stats``)."""
    if n == 0:
        return 0.0, 0.0, 0.0
    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=0.95, method="wilson")
    return k / n, float(ci.low), float(ci.high)


def play_many(scenario: str, hero: str, policy: str, n: int, seed: int, start: int = 0) -> list[dict]:
    """Games ``start .. start+n-1``: a dict per game (fame, score, termination, rounds and
    the behaviour counts of ``Player.stats``)."""
    config = GameConfig(scenario, hero)
    game = config.game()
    pol = parse_policy_spec(policy)
    stack0 = game.new_state(seed, 0).view().tile_stack_size     # the same in every game of the scenario
    buf = np.zeros(len(STATS_FIELDS), np.int32)
    tactics, sites = np.zeros(16, np.int32), np.zeros(64, np.int32)
    rows = []
    for k in range(start, start + n):
        st, error, message = _play_state(config, seed, k, pol)
        if error:
            raise RuntimeError(f"{policy} {scenario} {hero} game {k} stopped: {message}")
        fill_stats(st.core, 0, buf, tactics, sites)
        term, fame, _steps, rnd = outcome_numbers(st.core)
        row = dict(fame=int(fame), termination=int(term), rounds=int(rnd),
                   score=int(final_score(st.core, game.scoring, game.rounds, game.cities_total)),
                   combats=int(buf[_F["combats"]]), defeated=int(buf[_DEFEATED].sum()),
                   recruited=int(buf[_F["units_recruited"]]), level=int(buf[_F["level"]]),
                   wounds=int(buf[_F["wounds_taken"]]), explored=stack0 - st.view().tile_stack_size,
                   units=int(buf[_F["units_held"]]))
        if game.cities_total:
            # cities on the map at the end: revealed, conquered, the player's Shields on them (11.12.2)
            cities = [h for h in st.view().hexes if h["city_level"] > 0]
            d = st.to_dict()
            shields = sum(h["city_shields"][0] for t in d["map"]["tiles"] for h in t["hexes"] if h["site"] == "city")
            row.update(cities_revealed=len(cities), cities_conquered=sum(bool(h["flags"] & 1) for h in cities),
                       city_shields=int(shields))
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
    ap.add_argument("--conquest-games", type=int, default=200, help="Solo Conquest games per hero and policy")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--policy", action="append", default=None,
                    help="a policy spec (NAME or NAME:key=value,...); repeat for several (default: "
                         + "; ".join(POLICIES) + ")")
    ap.add_argument("--heroes", default=",".join(HEROES))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--trace-budgets", default="2,8,32", help="search budgets of the skill trace ('' = none)")
    ap.add_argument("--trace-games", type=int, default=40, help="skill-trace games per hero and scenario")
    ap.add_argument("--speed-games", type=int, default=1000, help="games for the games/s figure (fast paths)")
    ap.add_argument("--speed-games-search", type=int, default=40, help="games for the games/s figure of search")
    ap.add_argument("--speed-repeats", type=int, default=3, help="speed runs per policy (median reported; 0 = none)")
    ap.add_argument("--scenario", choices=("all", "first-reconnaissance", "solo-conquest"), default="all",
                    help="play only this scenario's tables (and no skill trace / speed unless asked)")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    if args.scenario == "solo-conquest":
        args.games = 0
    elif args.scenario == "first-reconnaissance":
        args.conquest_games = 0
    policies = args.policy or list(POLICIES)
    for p in policies:
        parse_policy_spec(p)                     # a bad spec fails before anything is played
    heroes = [h for h in args.heroes.split(",") if h]
    out: dict = {"seed": args.seed, "games": args.games, "conquest_games": args.conquest_games,
                 "first_reconnaissance": {}, "solo_conquest": {}, "trace": {}, "speed": {}}
    t0 = time.time()

    if args.games > 0:
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

        print("\n## Solo First Reconnaissance: mean score (Fame + achievements, 20.2) [95% t]\n")
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
        sc_rows = {}
        for pol in policies:
            cells = []
            for hero in heroes:
                rows = play_parallel("solo-conquest", hero, pol, args.conquest_games, args.seed, args.jobs)
                sc_rows[pol, hero] = rows
                score = t_interval([r["score"] for r in rows])
                win = wilson(sum(r["termination"] == 1 for r in rows), len(rows))
                beh = {k: float(np.mean([r[k] for r in rows])) for k in BEHAVIOUR}
                out["solo_conquest"].setdefault(pol, {})[hero] = {"score": score, "win": win, "behaviour": beh,
                                                                 "fame": t_interval([r["fame"] for r in rows])}
                cells.append(f"{fmt(score, 1)} / {win[0]:.3f} [{win[1]:.3f}, {win[2]:.3f}]")
            print(f"| {pol} | " + " | ".join(cells) + " |", flush=True)
        print("\n## Solo Conquest per hero: level, combats, Units recruited / held, cities revealed / "
              "conquered, Shields on cities (mean per game)\n")
        print("| policy | hero | level | combats | recruited | units | cities revealed | conquered | shields |")
        print("|---|---|---|---|---|---|---|---|---|")
        for pol in policies:
            for hero in heroes:
                rows = sc_rows[pol, hero]
                cells = [f"{np.mean([r[k] for r in rows]):.2f}" for k in
                         ("level", "combats", "recruited", "units", "cities_revealed", "cities_conquered",
                          "city_shields")]
                print(f"| {pol} | {hero} | " + " | ".join(cells) + " |")
        print("\n## Behaviour per game (Solo Conquest, mean over heroes and games)\n")
        print("| policy | " + " | ".join(BEHAVIOUR) + " |")
        print("|---" * (len(BEHAVIOUR) + 1) + "|")
        for pol in policies:
            allrows = [r for h in heroes for r in sc_rows[pol, h]]
            print(f"| {pol} | " + " | ".join(f"{np.mean([r[k] for r in allrows]):.2f}" for k in BEHAVIOUR) + " |")

    budgets = [int(b) for b in args.trace_budgets.split(",") if b.strip()]
    if budgets and args.trace_games > 0 and args.scenario == "all":
        n = args.trace_games
        print(f"\n## Skill trace of search: n = {n} games per hero and scenario ({len(heroes)} heroes), "
              f"games/s of this process (--jobs {args.jobs})\n")
        print("| policy | FR mean Fame [95% t] | SC win rate [95% Wilson] | SC mean score [95% t] | games/s |")
        print("|---|---|---|---|---|")
        for spec in ["heuristic"] + [f"search:budget={b}" for b in budgets]:
            fr, sc, secs = [], [], 0.0
            for hero in heroes:
                t = time.perf_counter()
                fr += play_parallel("first-reconnaissance", hero, spec, n, args.seed, args.jobs)
                sc += play_parallel("solo-conquest", hero, spec, n, args.seed, args.jobs)
                secs += time.perf_counter() - t
            fame = t_interval([r["fame"] for r in fr])
            win = wilson(sum(r["termination"] == 1 for r in sc), len(sc))
            score = t_interval([r["score"] for r in sc])
            gps = (len(fr) + len(sc)) / secs
            out["trace"][spec] = {"fame": fame, "win": win, "score": score, "games_per_s": gps, "n": len(fr)}
            print(f"| {spec} | {fmt(fame)} | {win[0]:.3f} [{win[1]:.3f}, {win[2]:.3f}] | {fmt(score, 1)} "
                  f"| {gps:.1f} |", flush=True)

    if args.speed_repeats > 0:
        print(f"\n## Speed: games/s on one core (First Reconnaissance, Arythea, `mksim bench --policy NAME`), "
              f"median of {args.speed_repeats} runs alternating the policies\n")
        print("| policy | games | games/s (median) | runs | ratio to random | decisions per game |")
        print("|---|---|---|---|---|---|")
        runs: dict = {p: [] for p in policies}
        reps: dict = {}
        for _ in range(args.speed_repeats):
            for pol in policies:
                fast = bool(parse_policy_spec(pol).metadata.get("fast_path"))
                rep = run_bench(args.speed_games if fast else args.speed_games_search, args.seed, policy=pol)
                runs[pol].append(rep["games_per_s"])
                reps[pol] = rep
        base = float(np.median(runs["random"])) if "random" in runs else None
        for pol in policies:
            med = float(np.median(runs[pol]))
            out["speed"][pol] = {"games_per_s": runs[pol], "median": med, "games": reps[pol]["games"],
                                 "decisions_per_game": reps[pol]["mean_decisions_per_game"],
                                 "games_stopped": reps[pol]["games_stopped"]}
            ratio = f"{med / base:.3f}" if base else "-"
            print(f"| {pol} | {reps[pol]['games']} | {med:.1f} | {', '.join(f'{x:.0f}' for x in runs[pol])} | {ratio} "
                  f"| {reps[pol]['mean_decisions_per_game']} |", flush=True)
    print(f"\n({time.time() - t0:.0f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
