"""Invariant fuzzing at scale: many seeded games, the invariants checked after EVERY action.

    python tests/benchmarks/fuzz.py --games 1000000 --seeds 1,2 --jobs 2 [--json out.json]

Game ``g`` of root seed ``s`` plays configuration ``CONFIGS[g % len(CONFIGS)]``: both solo
scenarios x all five heroes x The Lost Legion off / on x five policies (uniform ``random``,
``eager`` and three other weightings of the eager policy), so every block of 100 games covers
them all.  ``--games`` is the total over all seeds (split evenly).

Each game is played by ``mksim._policies.play_checked``: one nogil C loop that applies the
policy's action and then runs the state checks of ``mksim._checks`` (crystals, Fame,
reputation, zones, units, Move / Healing / mana, Source dice, combat pools, position ...),
card conservation (``count_deeds``: every non-Wound Deed card of the game is in some zone
or thrown away, 6.1) and at most one action per turn (4.4.5).  A finished game must end by
the round limit or the scenario's end (14.2, 14.3).

Reports games, finished, stops by reason (the engine's named errors: rules not implemented,
ERR_CAPACITY, step limit, no legal action) and every violation with what replays it::

    seed, game index, scenario, hero, lost_legion, policy, step, action

(replay: ``Game(scenario, hero, lost_legion=...).new_state(seed, game_index)`` with the policy
reset by ``reset(seed, game_index)``, then ``play_checked`` or ``mksim play``).  Also the
largest zone sizes seen (deck, hand, discard pile, play area, dummy deck / discard, all cards
of one hero), which size MAX_CARDS in ext/_types.pxd.  Exit status 1 on any violation.
Not part of the pytest run.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:                        # run as a script from any folder: this tree's mksim
    sys.path.insert(0, str(ROOT))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])

SCENARIOS = ("first-reconnaissance", "solo-conquest")
HEROES = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")

#: Policies: (name, weights given to the eager policy; None = uniform random).  The eager
#: weights (mksim._policies.EAGER_WEIGHTS) are the base; each variant overrides a few kinds.
POLICIES = (
    ("random", None),
    ("eager", {}),
    # fights whenever it can, rarely rests or heals: the Wound-heavy hands (1.2.4)
    ("eager-fighter", {"attack": 80.0, "block": 5.0, "challenge": 40.0, "enter_site": 40.0,
                       "heal_wound": 0.5, "buy_healing": 0.5, "rest": 0.1, "next_phase": 0.5}),
    # explores and moves, interacts a lot (units, spells, AAs), few fights
    ("eager-explorer", {"explore": 60.0, "move": 30.0, "interact": 40.0, "recruit": 60.0,
                        "attack": 10.0, "challenge": 1.0, "enter_site": 5.0}),
    # cards and skills first: long turns, many plays, sideways and Unit activations
    ("eager-cards", {"play": 40.0, "sideways": 10.0, "use_skill": 30.0, "activate_unit": 30.0,
                     "end_turn": 0.3, "announce_end": 0.02}),
)

CONFIGS = tuple((sc, h, ll, pi) for sc in SCENARIOS for h in HEROES for ll in (False, True)
                for pi in range(len(POLICIES)))


def multi_configs(players: int, policies=None) -> tuple:
    """``--players N`` (2-4): First Reconnaissance for N heroes (17.3.1), every ordered
    choice of N distinct heroes (seat order = hero-selection order, 1.1.2), The Lost Legion
    off / on, the chosen policies (one instance per seat, on its own stream = seat index)."""
    import itertools
    pis = [i for i, (n, _) in enumerate(POLICIES) if policies is None or n in policies]
    return tuple(("first-reconnaissance", hs, ll, pi) for hs in itertools.permutations(HEROES, players)
                 for ll in (False, True) for pi in pis)

ZONES = ("deck", "hand", "discard", "play_area", "dummy_deck", "dummy_discard", "hero_cards")


def config_words(cfg) -> dict:
    sc, h, ll, pi = cfg
    return {"scenario": sc, "hero": h, "lost_legion": ll, "policy": POLICIES[pi][0]}


def _policy_core(pi: int, stream: int = 0):
    from mksim import _policies
    name, weights = POLICIES[pi]
    if weights is None:
        return _policies.RandomPolicy(0, 0, stream)
    merged = dict(_policies.EAGER_WEIGHTS)
    merged.update(weights)
    return _policies.WeightedPolicy(0, 0, stream, merged, 4.0)


def play_block(seed: int, start: int, stop: int, max_steps: int, players: int = 1,
               policy_names=None) -> dict:
    """Play games ``start .. stop-1`` of root seed ``seed``; a small summary dict."""
    from mksim._checks import CHECKS, LOOP_CHECKS
    from mksim._engine import describe
    from mksim._policies import play_checked
    from mksim.content import load_content
    from mksim.game import Game

    content = load_content()             # once per block: Game() would load it per configuration
    games: dict = {}
    policies: dict = {}
    stops: Counter = Counter()
    examples: dict = {}
    violations = []
    maxima = [0] * len(ZONES)
    max_where = [None] * len(ZONES)
    finished = steps_total = 0
    configs = CONFIGS if players == 1 else multi_configs(players, policy_names)
    seat_stats = Counter()
    for g in range(start, stop):
        cfg = configs[g % len(configs)]
        sc, h, ll, pi = cfg
        game = games.get((sc, h, ll))
        if game is None:
            game = games[(sc, h, ll)] = (Game(sc, h, content=content, lost_legion=ll) if players == 1 else
                                         Game(sc, heroes=list(h), content=content, lost_legion=ll))
        pol = policies.get(pi)
        if pol is None:
            pol = policies[pi] = [_policy_core(pi, k) for k in range(players)]
        state = game.new_state(seed, g)
        for q in pol:
            q.reset(seed, g)
        if players == 1:
            pol = pol[0]
        eng = state.engine
        steps, err, last, viol, vstep, mx = play_checked(pol, eng, max_steps)
        steps_total += steps
        for k, v in enumerate(mx):
            if v > maxima[k]:
                maxima[k] = v
                max_where[k] = (seed, g)
        where = {"seed": seed, "game_index": g, **config_words(cfg)}
        if viol >= 0:
            words = CHECKS[viol] if viol < len(CHECKS) else LOOP_CHECKS[viol]
            violations.append({**where, "check": words, "step": vstep, "action": describe(last)})
        if err == 0 and eng.is_terminal():
            if eng.termination() in (1, 2):
                finished += 1
                if players > 1:
                    out = state.result()
                    seat_stats["termination " + out.termination] += 1
                    for k, won in enumerate(out.seat_won):
                        seat_stats[f"seat {k} won"] += bool(won)
                    seat_stats["shared victory"] += sum(out.seat_won) > 1
            elif viol < 0:
                violations.append({**where, "check": f"game over with termination {eng.termination()} (14.2, 14.3)",
                                   "step": steps, "action": describe(last)})
            continue
        if err == -1:
            reason = "no legal action although the game is not over"
        elif err > 0:
            reason = str(eng._error(err, last))
        elif viol >= 0:
            continue                     # stopped at the violation, reported above
        else:
            reason = f"no end after {max_steps} decisions (step limit)"
        stops[reason] += 1
        examples.setdefault(reason, where)
    return {"games": stop - start, "finished": finished, "steps": steps_total, "stops": dict(stops),
            "examples": examples, "violations": violations, "maxima": maxima, "max_where": max_where,
            "seats": dict(seat_stats)}


def merge(parts) -> dict:
    out = {"games": 0, "finished": 0, "steps": 0, "stops": Counter(), "examples": {},
           "violations": [], "maxima": [0] * len(ZONES), "max_where": [None] * len(ZONES), "seats": Counter()}
    for p in parts:
        out["seats"].update(p.get("seats", {}))
        for k in ("games", "finished", "steps"):
            out[k] += p[k]
        out["stops"].update(p["stops"])
        for r, w in p["examples"].items():
            out["examples"].setdefault(r, w)
        out["violations"].extend(p["violations"])
        for k, v in enumerate(p["maxima"]):
            if v > out["maxima"][k]:
                out["maxima"][k] = v
                out["max_where"][k] = p["max_where"][k]
    return out


def _seeds(text: str) -> list[int]:
    try:
        seeds = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--seeds must be integers separated by commas, not {text!r}")
    if not seeds or any(not 0 <= s < 1 << 64 for s in seeds):
        raise argparse.ArgumentTypeError("--seeds: at least one seed, each in 0 .. 2**64-1")
    return seeds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="total games over all seeds")
    ap.add_argument("--seeds", type=_seeds, default=None,
                    help="root seeds, comma-separated (default: one drawn from os.urandom, printed)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (joblib loky)")
    ap.add_argument("--chunk", type=int, default=2000, help="games per task")
    ap.add_argument("--max-steps", type=int, default=100_000, help="step limit per game")
    ap.add_argument("--json", default=None, help="also write the report as JSON to this file")
    ap.add_argument("--players", type=int, default=1, choices=(1, 2, 3, 4),
                    help="1: the solo grid above; 2-4: First Reconnaissance for that many heroes (17.3.1), "
                         "every ordered hero choice, one policy per seat")
    ap.add_argument("--policies", default=None,
                    help=f"with --players 2-4: policy names, comma-separated ({', '.join(n for n, _ in POLICIES)}); "
                         f"default all")
    args = ap.parse_args(argv)
    names = None
    if args.policies:
        names = tuple(x.strip() for x in args.policies.split(",") if x.strip())
        bad = [x for x in names if x not in {n for n, _ in POLICIES}]
        if bad or not names:
            ap.error(f"--policies: unknown {', '.join(bad) or 'empty list'}")
        if args.players == 1:
            ap.error("--policies needs --players 2-4 (the solo grid plays every policy)")
    if args.games < 1 or args.jobs < 1 or args.chunk < 1:
        ap.error("--games, --jobs and --chunk must be >= 1")
    seeds = args.seeds or [int.from_bytes(os.urandom(8), "little")]
    n_configs = len(CONFIGS) if args.players == 1 else len(multi_configs(args.players, names))
    print(f"fuzz: {args.games} games, seeds {','.join(map(str, seeds))}, {n_configs} configurations, "
          f"{args.players} player(s), jobs {args.jobs}", flush=True)
    per_seed = [args.games // len(seeds) + (1 if i < args.games % len(seeds) else 0) for i in range(len(seeds))]
    tasks = [(s, a, min(a + args.chunk, n), args.max_steps, args.players, names)
             for s, n in zip(seeds, per_seed) for a in range(0, n, args.chunk)]
    t0 = time.time()
    if args.jobs == 1:
        results = (play_block(*t) for t in tasks)
    else:
        from joblib import Parallel, delayed
        results = Parallel(n_jobs=args.jobs, backend="loky", return_as="generator_unordered")(
            delayed(play_block)(*t) for t in tasks)
    parts = []
    try:
        for part in results:                     # progress: a line (and the JSON) every 5% of the tasks
            parts.append(part)
            if len(parts) % max(1, len(tasks) // 20) == 0 and len(parts) < len(tasks):
                done = merge(parts)
                print(f"  ... {done['games']} games, {time.time() - t0:.0f} s, {done['games'] - done['finished']} "
                      f"not finished, {len(done['violations'])} violations", flush=True)
                _write_json(args.json, done, seeds, time.time() - t0, partial=True)
    except KeyboardInterrupt:                    # report what was played
        print("  interrupted: the report covers the games played so far", flush=True)
    res = merge(parts)
    dt = time.time() - t0
    res["seconds"] = dt
    res["seeds"] = seeds
    res["partial"] = len(parts) < len(tasks)
    print(f"{res['games']} games in {dt:.1f} s ({res['games'] / dt:.0f} games/s, "
          f"{res['games'] / dt / args.jobs:.0f} per job; {res['steps'] / dt:.0f} actions/s), "
          f"{res['finished']} finished, {res['games'] - res['finished']} not finished, "
          f"{len(res['violations'])} violations")
    for reason, n in res["stops"].most_common():
        w = res["examples"][reason]
        print(f"  stopped {n:7d}  {reason}   [e.g. {w}]")
    if res["seats"]:
        print("seats: " + ", ".join(f"{k} {v}" for k, v in sorted(res["seats"].items())))
    for v in res["violations"][:50]:
        print(f"  VIOLATION {v}")
    print("largest zones: " + ", ".join(f"{z} {m} (seed {w[0]} game {w[1]})" if w else f"{z} {m}"
                                        for z, m, w in zip(ZONES, res["maxima"], res["max_where"])))
    _write_json(args.json, res, seeds, dt, partial=res["partial"])
    return 1 if res["violations"] else 0


def _write_json(path, res, seeds, seconds, partial):
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({**res, "stops": dict(res["stops"]), "seats": dict(res.get("seats", {})),
                       "seeds": seeds, "seconds": seconds,
                       "partial": partial}, fh, indent=1)


if __name__ == "__main__":
    sys.exit(main())
