"""Seeded sweep of random games over every scenario x hero: how many finish, and why the
others stopped (the named errors of rules not implemented yet).

    python tests/benchmarks/sweep.py --games 1000 --seed 2026 --jobs 2 [--lost-legion] [--policy eager]

``--games`` is per scenario and hero, so 1000 plays 10,000 games.  Exit status 1 when any
game stopped, so the sweep can gate a change.  It measures and reports; it is not part of
the pytest run (tests/test_invariants.py holds the CI sweep with its invariants).
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from mksim.runner import GameConfig, run

SCENARIOS = ("first-reconnaissance", "solo-conquest")
HEROES = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per scenario and hero")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--lost-legion", action="store_true")
    ap.add_argument("--policy", default="random", help="policy name (random, eager, ...)")
    ap.add_argument("--top", type=int, default=40, help="stop messages to list")
    args = ap.parse_args(argv)
    t0 = time.time()
    total = finished = 0
    errors: Counter = Counter()
    examples: dict[str, tuple[str, str, int]] = {}
    for scenario in SCENARIOS:
        for hero in HEROES:
            res = run(GameConfig(scenario, hero, lost_legion=args.lost_legion), args.games,
                      args.seed, jobs=args.jobs, policy=args.policy)
            total += args.games
            finished += res.n_finished
            for game_index, msg in res.messages.items():
                errors[msg] += 1
                examples.setdefault(msg, (scenario, hero, game_index))
    print(f"{total} games, {finished} finished, {total - finished} stopped, "
          f"{time.time() - t0:.1f} s (policy {args.policy}, seed {args.seed}{', Lost Legion' if args.lost_legion else ''})")
    for msg, n in errors.most_common(args.top):
        scenario, hero, gi = examples[msg]
        print(f"{n:6d}  {msg}   [e.g. --scenario {scenario} --hero {hero} "
              f"--seed {args.seed} --game-index {gi} --policy {args.policy}]")
    return 0 if finished == total else 1


if __name__ == "__main__":
    sys.exit(main())
