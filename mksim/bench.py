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


#: The exact work counters of a bench (sums over its games): they depend only on the code and
#: the seeds, never on the machine, so any change means the engine or the policy plays
#: differently.
COUNTERS = ("games", "finished", "decisions", "turns", "combats", "rounds", "fame", "enemies_defeated",
            "wounds_taken")


def work_counters(n_games: int, seed: int, scenario: str, hero: str, policy, content=None) -> dict:
    """Play games ``0 .. n_games-1`` again (untimed, in this process) and sum the engine's own
    counters (``fill_stats``): decisions, turns, combats, rounds, Fame, enemies defeated,
    Wounds taken, games finished."""
    from ._access import STATS_FIELDS, STATS_MAX_ROUNDS, STATS_SITE_KINDS, fill_stats
    from .runner import ERROR_NONE, _play_state, _policy
    config = GameConfig(scenario, hero, content=content)
    pol = _policy(policy)
    stats = np.zeros(len(STATS_FIELDS), np.int32)
    tactics = np.zeros(STATS_MAX_ROUNDS, np.int32)
    sites = np.zeros(STATS_SITE_KINDS, np.int32)
    col = {f: k for k, f in enumerate(STATS_FIELDS)}
    out = dict.fromkeys(COUNTERS, 0)
    for g in range(n_games):
        state, error, _ = _play_state(config, seed, g, pol)
        fill_stats(state.core, 0, stats, tactics, sites)
        out["games"] += 1
        out["finished"] += int(error == ERROR_NONE and state.engine.is_terminal())
        for name in ("decisions", "turns", "combats", "rounds", "fame", "wounds_taken"):
            out[name] += int(stats[col[name]])
        out["enemies_defeated"] += int(sum(stats[col[f"defeated_{c}"]]
                                          for c in ("green", "grey", "violet", "brown", "red", "white")))
    return out


class CompareError(ValueError):
    """A baseline file that cannot be compared: one line naming the file and what is wrong."""


def parse_tolerance(text: str) -> float:
    """``10%`` or ``0.1`` -> 0.1; ValueError naming the value otherwise."""
    t = text.strip()
    try:
        v = float(t[:-1]) / 100 if t.endswith("%") else float(t)
    except ValueError:
        raise ValueError(f"--tolerance: {text!r} is not a share (e.g. 10% or 0.1)") from None
    if not 0 <= v < 1:
        raise ValueError(f"--tolerance: {text!r} must be between 0% and 100%")
    return v


def _key(entry: dict) -> tuple:
    return (entry.get("policy"), entry.get("scenario"), entry.get("hero"), entry.get("seed"), entry.get("games"))


def load_baseline(path) -> list[dict]:
    """The bench entries of a ``mksim bench --json`` file (one entry or a list of them)."""
    from pathlib import Path
    from .results import read_json
    p = Path(path)
    data = read_json(p, "--compare", "JSON file of mksim bench", CompareError)
    entries = data if isinstance(data, list) else [data]
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or "games_per_s" not in e or not isinstance(e.get("counters"), dict):
            raise CompareError(f"--compare: {p}: entry {i} is not a mksim bench result with counters "
                               "(written by mksim bench --json of this version)")
    return entries


def compare(now: list[dict], old: list[dict], tolerance: float, where: str = "baseline") -> tuple[bool, list]:
    """Compare bench results with a baseline.

    Fails (first value False) on a slowdown of games/s beyond ``tolerance`` and on any change
    of an exact counter.  Returns ``(ok, rows)`` with rows ``(what, baseline, now, verdict)``.
    """
    base = {_key(e): e for e in old}
    ok, rows = True, []
    for e in now:
        k = _key(e)
        label = f"{e['policy']} {e['scenario']} {e['hero']} seed {e['seed']} x{e['games']}"
        b = base.get(k)
        if b is None:
            raise CompareError(f"--compare: {where} has no bench of {label} (same policy, scenario, hero, "
                               "seed and games are needed)")
        ratio = e["games_per_s"] / b["games_per_s"] if b["games_per_s"] else float("inf")
        slow = ratio < 1 - tolerance
        ok &= not slow
        rows.append((f"{label}: games/s", f"{b['games_per_s']:.1f}", f"{e['games_per_s']:.1f}",
                     f"SLOWER by {1 - ratio:.1%} (tolerance {tolerance:.0%})" if slow else f"ok ({ratio - 1:+.1%})"))
        for c in COUNTERS:
            bv, nv = b["counters"].get(c), e["counters"].get(c)
            changed = bv != nv
            ok &= not changed
            rows.append((f"{label}: {c}", str(bv), str(nv), "CHANGED (behaviour differs)" if changed else "same"))
    return ok, rows
