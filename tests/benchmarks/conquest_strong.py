"""Does the policy take the cities when its hero is strong?  A Solo Conquest diagnostic.

    PYTHONPATH=. python tests/benchmarks/conquest_strong.py [--policy heuristic] [--hero tovak]
                                                            [--games 60] [--round 4] [--seed 2026]

Game k (root seed ``--seed``) is played by the policy up to the tactics of round ``--round``;
then a strong hero is written over the position (a diagnostic fixture, not a game anyone
plays: level 8 with its Fame and 4 Command tokens, 13.6.2; four ready Units -- Altem
Guardians, Amotep Freezers, Catapults, Utem Swordsmen; two crystals of each colour) and the
policy plays on to the end.  With ``--as-played`` the position is left as it is (the
baseline).  Prints the wins (both cities, 17.3.4) with a 95% Wilson interval (scipy), the
games with a city assault (a move into a city space, 11.1.3), the assaults, the Units that
could be activated at each assault (ready and unwounded, 7.3.1 / 12.2.2; histogram), city
Shields (11.12.2) and cities conquered per game.  It
separates the two parts of the Solo Conquest bar: the build-up a policy does not reach, and
what it does with a hero strong enough for the cities.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from mksim.game import Game  # noqa: E402
from mksim.policies import parse_policy_spec  # noqa: E402

UNITS = ("altem_guardians", "amotep_freezers", "catapults", "utem_swordsmen")


def strengthen(game: Game, st):
    d = st.to_dict(format=1)            # format 1: level and Units written as they are
    p = d["players"][0]
    p.update(fame=max(p["fame"], 63), level=8, command_tokens=4,
             crystals={"red": 2, "blue": 2, "white": 2, "green": 2})
    p["units"] = [{"unit": u, "ready": True, "wounds": 0} for u in UNITS]
    return game.state_from_dict(d)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--hero", default="tovak")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--round", type=int, default=4, help="round whose tactics the strong hero starts at")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--as-played", action="store_true", help="leave the position as the policy reached it")
    args = ap.parse_args(argv)
    game = Game("solo-conquest", args.hero)
    wins = games_with = assaults = shields = conquered = 0
    ready_at: list[int] = []
    for k in range(args.games):
        st = game.new_state(args.seed, k)
        pol = parse_policy_spec(args.policy)
        pol.reset(args.seed, k)
        while not st.is_terminal() and not (st.to_dict()["round"] == args.round and st.to_dict()["phase"] == "tactics"):
            st.apply(pol.choose(st, st.legal_actions()))
        if not st.is_terminal() and not args.as_played:
            st = strengthen(game, st)
            pol = parse_policy_spec(args.policy)     # a fresh policy: no memory of the old position
            pol.reset(args.seed, k)
        got = 0
        while not st.is_terminal():
            a = pol.choose(st, st.legal_actions())
            said = st.action_to_string(a)
            st.apply(a)
            if said.startswith("move") and "(City)" in said:
                assaults += 1
                got = 1
                ready_at.append(sum(bool(u["ready"]) and u["wounds"] == 0 for u in st.to_dict()["players"][0]["units"]))
        games_with += got
        wins += st.result().termination == "scenario_won"
        for t in st.to_dict()["map"]["tiles"]:
            for h in t["hexes"]:
                if h["site"] == "city":
                    shields += h["city_shields"][0]
                    conquered += "conquered" in h["flags"]
    n = args.games
    ci = stats.binomtest(wins, n).proportion_ci(confidence_level=0.95, method="wilson")
    print(f"Solo Conquest, {args.hero}, {args.policy}, seed {args.seed}, games 0-{n - 1}, "
          f"{'as played' if args.as_played else f'strong hero from round {args.round}'}")
    print(f"wins {wins} of {n} (Wilson 95% [{ci.low:.3f}, {ci.high:.3f}]); games with a city assault "
          f"{games_with}; assaults {assaults}; Units ready and unwounded at an assault (0, 1, 2, ...): "
          f"{np.bincount(ready_at).tolist() if ready_at else []}; city Shields {shields / n:.2f} and "
          f"cities conquered {conquered / n:.2f} a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
