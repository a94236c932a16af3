"""Where Solo Conquest games are lost: per round, the hero's build-up and the city progress,
and what the player's turns were spent on.

    python tests/benchmarks/conquest_trace.py [--policy heuristic] [--games 40] [--seed 2026]
                                              [--heroes arythea,tovak,...]

For every round (at its end) the mean over games of: level, Units held, Fame, Deed cards
owned (deck + hand + discard + play area), Wound cards owned, map tiles placed (the
starting tile included), cities revealed, city
defenders defeated by the player (its Shields on cities, 11.12.2), cities conquered.  Then
how the player's turns were spent: a *rest* (4.5), an *idle* regular turn (no Move step,
no exploration, no combat, no interaction), or a turn that did something, with the share of
idle turns by the reason read from the last decision (the hand / Move left).  Games are
played through ``choose`` one decision at a time (slow: a benchmark, not a test).
"""
from __future__ import annotations

import argparse
import collections
import sys

import numpy as np

from mksim._access import outcome_numbers
from mksim._state import HEX_FLAG_NAMES
from mksim.actions import ACTION_SHIFT, KIND_NAMES
from mksim.policies import parse_policy_spec
from mksim.runner import GameConfig

DOING = {"move", "explore", "challenge", "enter_site", "interact", "attack", "burn", "recruit",
         "buy_spell", "buy_aa", "buy_healing"}


def city_numbers(state) -> tuple[int, int, int, int]:
    d = state.to_dict()
    revealed = shields = conquered = 0
    tiles = len(d["map"]["tiles"])
    for t in d["map"]["tiles"]:
        for h in t["hexes"]:
            if h["site"] == "city":
                revealed += 1
                shields += h["city_shields"][0]
                conquered += HEX_FLAG_NAMES[0] in h["flags"]
    return revealed, shields, conquered, tiles


def snapshot(state, game) -> dict:
    v = state.view()
    revealed, shields, conquered, tiles = city_numbers(state)
    owned = list(v.hand) + list(v.discard) + list(v.play_area)
    names = [v.name("card", c) for c in owned]
    wounds = sum(n == "wound" for n in names)
    return dict(level=v.level, units=len(v.units), fame=v.fame, cards=len(owned) + v.deck_size,
                wounds_owned=wounds, tiles=tiles, revealed=revealed, shields=shields, conquered=conquered)


def play(config, pol, seed, k, per_round, turns):
    game = config.game()
    state = game.new_state(seed, k)
    pol.reset(seed, k)
    rnd = 1
    kinds: set[str] = set()
    turn_kind = None
    steps = 0
    while not state.is_terminal() and steps < config.max_steps:
        v = state.view()
        if v.round != rnd:
            per_round[rnd].append(snapshot(state, game))
            rnd = v.round
        legal = state.legal_actions()
        a = int(pol.choose(state, legal))
        name = KIND_NAMES[a >> ACTION_SHIFT]
        if v.actor == 0:
            if name in ("regular_turn", "rest"):
                turn_kind, kinds = name, set()
            elif name == "end_turn" and turn_kind is not None:
                if turn_kind == "rest":
                    turns["rest", rnd] += 1
                elif kinds & DOING:
                    turns["active", rnd] += 1
                else:
                    turns["idle", rnd] += 1
                turn_kind = None
            else:
                kinds.add(name)
        state.apply(a)
        steps += 1
    per_round[rnd].append(snapshot(state, game))
    return state


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--heroes", default="arythea,tovak,goldyx,norowas,wolfhawk")
    args = ap.parse_args(argv)
    per_round: dict = collections.defaultdict(list)
    turns: collections.Counter = collections.Counter()
    wins = 0
    for hero in args.heroes.split(","):
        config = GameConfig("solo-conquest", hero)
        pol = parse_policy_spec(args.policy)
        for k in range(args.games):
            st = play(config, pol, args.seed, k, per_round, turns)
            wins += outcome_numbers(st.core)[0] == 1      # termination scenario_won
    keys = ("level", "units", "fame", "cards", "wounds_owned", "tiles", "revealed", "shields", "conquered")
    print(f"policy {args.policy}, {args.games} games per hero, heroes {args.heroes}\n")
    print("| round | games | " + " | ".join(keys) + " | turns active / idle / rest |")
    print("|---" * (len(keys) + 3) + "|")
    for r in sorted(per_round):
        rows = per_round[r]
        cells = [f"{np.mean([x[k] for x in rows]):.2f}" for k in keys]
        tr = [turns[t, r] for t in ("active", "idle", "rest")]
        print(f"| {r} | {len(rows)} | " + " | ".join(cells) + f" | {tr[0]} / {tr[1]} / {tr[2]} |")
    print(f"\nwins: {wins}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
