"""``mksim bench``: how fast the core plays random games, and how many it can finish.

Plays games ``0 .. n-1`` of the run seeded ``seed`` (First Reconnaissance, solo, Arythea,
the ``random`` policy by default) and reports speed, memory and - never hidden - how many
games the engine stopped at a rule it does not implement yet.  Speeds count every decision
taken, including those of stopped games; ``games_finished`` counts only games that reached
their end by the rules (14.2, 14.3).
"""
from __future__ import annotations

import resource
import sys
import time
from typing import Optional

import numpy as np

from . import __version__
from .runner import ERROR_NAMES, GameConfig, run
from ._state import TERMINATION_NAMES


def peak_rss_mb(children: bool = False) -> float:
    """Peak resident memory of this process (or of its finished children), in MiB
    (``resource.getrusage`` ``ru_maxrss``: KiB on Linux, bytes on macOS)."""
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    rss = resource.getrusage(who).ru_maxrss
    return round(rss / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def parse_policy_spec(text: str):
    """A policy from ``NAME`` or ``NAME:key=value,...`` (kept for callers of this module;
    :func:`mksim.policies.parse_policy_spec` is the one parser: it also reads
    ``path/file.py:ClassName`` and raises PolicyError, a ValueError, naming the mistake)."""
    from .policies import parse_policy_spec as _parse
    return _parse(text)


def run_bench(n_games: int = 200, seed: int = 0, scenario: str = "first-reconnaissance",
              hero: str = "arythea", policy="random", jobs: int = 1,
              content: Optional[str] = None) -> dict:
    """Play ``n_games`` and measure.

    Returns
    -------
    dict
        ``games`` (played), ``games_finished``, ``games_stopped``, ``stopped_by`` (count per
        error name), ``top_errors`` (most frequent stop messages with counts), ``seconds``,
        ``games_per_s``, ``decisions``, ``decisions_per_s``, ``mean_decisions_per_game``,
        ``peak_rss_mb``, ``terminations`` (count per termination name), and the settings.
    """
    if n_games < 1:
        raise ValueError("the number of games must be at least 1")
    config = GameConfig(scenario, hero, content=content)
    config.game()                                  # load and compile content outside the timing
    t0 = time.perf_counter()
    res = run(config, n_games, seed, jobs=jobs, policy=policy)
    seconds = time.perf_counter() - t0
    rec = res.records
    decisions = int(rec["steps"].sum())
    errors = rec["error"]
    stopped_by = {ERROR_NAMES[c]: int((errors == c).sum()) for c in np.unique(errors) if c != 0}
    terms = {TERMINATION_NAMES[c]: int((rec["termination"] == c).sum()) for c in np.unique(rec["termination"])}
    out = {
        "mksim": __version__,
        "scenario": config.game().scenario_id, "hero": config.game().hero_id,
        "policy": policy if isinstance(policy, str) else repr(policy),
        "seed": seed, "jobs": jobs,
        "games": n_games,
        "games_finished": res.n_finished,
        "games_stopped": res.n_stopped,
        "stopped_by": stopped_by,
        "top_errors": [{"message": m, "games": n} for m, n in res.top_errors(5)],
        "terminations": terms,
        "seconds": round(seconds, 4),
        "games_per_s": round(n_games / seconds, 1),
        "decisions": decisions,
        "decisions_per_s": round(decisions / seconds, 1),
        "mean_decisions_per_game": round(decisions / n_games, 2),
        "peak_rss_mb": max(peak_rss_mb(), peak_rss_mb(children=True)),
    }
    if res.n_stopped:
        out["note"] = (f"{res.n_stopped} of {n_games} games stopped before their end (see top_errors); "
                       "speeds count every decision taken, stopped games included")
    return out
