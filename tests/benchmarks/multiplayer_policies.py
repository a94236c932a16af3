"""Built-in policies in 2-player First Reconnaissance (issues 9 and 12): mean Fame per seat
with 95 % t intervals (scipy) for heuristic vs heuristic and for a search policy against the
heuristic (in seat 0, then in seat 1), paired with the heuristic games of the same (seed,
game index); and every stop counted (illegal action, named ERR_ errors, step limits).

    PYTHONPATH=. python tests/benchmarks/multiplayer_policies.py --heuristic-games 300 \
        --search-games 40 --search search:budget=16

Games are played by the C loop ``RandomPolicy.play_seats`` (each seat's policy decides for
its seat; no Python per decision); a search policy gets its scratch game first.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from mksim._policies import RandomPolicy  # noqa: E402
from mksim.game import Game  # noqa: E402
from mksim.runner import seat_policies  # noqa: E402


def play(game, specs, seed, index, max_steps=20000):
    """One game: (kind, message, state) with kind ok / stop (a named missing rule) / error
    (anything else, e.g. an action the engine refused) / steps (step limit)."""
    pols = seat_policies(specs, game.n_players)
    state = game.new_state(seed, index)
    cores = []
    for p in pols:
        p.reset(seed, index)
        if hasattr(p, "_scratch_for"):
            p._scratch_for(state)            # search: the copy its rollouts run on
        elif hasattr(p._core, "bind"):
            p._core.bind(state.engine)       # heuristic: the content tables
        cores.append(p._core)
    try:
        RandomPolicy(0).play_seats(cores, state.engine, max_steps)
    except NotImplementedError as err:
        return "stop", str(err)[:100], state
    except Exception as err:  # noqa: BLE001 -- counted and reported, never hidden
        return "error", f"{type(err).__name__}: {str(err)[:100]}", state
    if not state.is_terminal():
        return "steps", f"no end after {max_steps} decisions", state
    return "ok", state.result().termination, state


def run(game, specs, seed, n):
    fames, stops = [], {}
    for i in range(n):
        kind, msg, state = play(game, specs, seed, i)
        if kind != "ok":
            stops[f"{kind}: {msg}"] = stops.get(f"{kind}: {msg}", 0) + 1
        fames.append(state.result().seat_fame if kind == "ok" else None)
    return fames, stops


def interval(x) -> str:
    x = np.asarray(x, float)
    m = x.mean()
    h = stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
    return f"{m:.2f} [{m - h:.2f}, {m + h:.2f}] (n={len(x)})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--heuristic-games", type=int, default=300)
    ap.add_argument("--search-games", type=int, default=40)
    ap.add_argument("--search", default="search:budget=16")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--heroes", default="arythea,tovak")
    args = ap.parse_args(argv)
    game = Game("first-reconnaissance", heroes=args.heroes.split(","))
    t = time.time()
    hh, stops = run(game, ["heuristic", "heuristic"], args.seed, args.heuristic_games)
    print(f"heuristic vs heuristic: {time.time() - t:.0f} s, stops {stops or 'none'}")
    for k in range(2):
        print(f"  seat {k} Fame {interval([f[k] for f in hh if f])}")
    for seat in (0, 1):
        specs = ["heuristic", "heuristic"]
        specs[seat] = args.search
        t = time.time()
        sh, stops = run(game, specs, args.seed, args.search_games)
        print(f"{args.search} in seat {seat}: {time.time() - t:.0f} s, stops {stops or 'none'}")
        pairs = [(a, b) for a, b in zip(sh, hh) if a and b]
        for k in range(2):
            print(f"  seat {k} Fame {interval([a[k] for a, _ in pairs])}")
        print(f"  its seat minus the heuristic there (paired): {interval([a[seat] - b[seat] for a, b in pairs])}")
        print(f"  the other seat's change (paired): {interval([a[1 - seat] - b[1 - seat] for a, b in pairs])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
