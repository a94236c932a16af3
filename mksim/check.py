"""``mksim check``: a regression gate that re-runs an experiment and compares it with a baseline.

A baseline (``--save-baseline FILE``) stores, for every cell of the experiment, each game's
value of every checked metric, in game order.  ``mksim check EXPERIMENT --baseline FILE``
plays the experiment again and compares each cell and metric with the baseline *on the same
seeds* (game ``k`` then and now was set up from the same streams): the paired difference
now − baseline with a bootstrap interval, the Wilcoxon signed-rank test (McNemar exact for
the win rate), Holm-adjusted over every cell and metric.  With several heroes (one row per
game and seat) each cell is compared seat by seat (``LABEL | seat S``: the seat's own
metrics, its win being the most points, ties shared, 20.1.1) and once per game for the metrics
of the whole game (``LABEL | game``: rounds).

A metric **fails** when it moved beyond its tolerance with statistical significance: the
interval of the difference excludes 0, the adjusted p-value is below 0.05 and the mean
difference is larger than the tolerance.  A significant move within the tolerance is shown
as ``moved`` and passes; an unchanged engine gives identical games and ``same`` throughout.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

import numpy as np

from .report import Results, _metric_values
from .stats import adjust

__all__ = ["CheckError", "DEFAULT_TOLERANCE", "baseline_from", "save_baseline", "load_baseline", "check",
           "parse_tolerances"]

BASELINE_FORMAT = 1
BASELINE_KIND = "mksim-check-baseline"
#: Absolute tolerances on the mean per game (the win rate as a share).
DEFAULT_TOLERANCE = {"fame": 0.5, "score": 1.0, "win": 0.02, "level": 0.2, "combats": 0.3,
                     "wounds_taken": 0.5, "units_recruited": 0.2, "rounds": 0.1}


class CheckError(ValueError):
    """A baseline or request the gate cannot use: one line naming the file and what is wrong."""


#: Metrics of the whole game (the same on every seat's row): checked once per game, not per seat.
GAME_METRICS = ("rounds",)


def _metrics(res: Results) -> list[str]:
    return [m for m in DEFAULT_TOLERANCE if m != "win" or res.solo_conquest or res.players > 1]


def _units(res: Results) -> list[tuple[str, np.ndarray, list[str]]]:
    """What the gate compares: ``(label, rows in game order, metrics)``.

    Solo: each cell.  Several heroes (one row per game and seat): each cell and seat
    (``LABEL | seat S``) for the player's own metrics (a seat's win: most points, ties share
    it, 20.1.1), and each cell once (``LABEL | game``, seat 0's rows) for the metrics of the
    whole game, so a game metric is not counted once per seat.
    """
    if res.players == 1:
        return [(c["label"], res.cell_rows(c["index"]), _metrics(res)) for c in res.cells]
    out = []
    for c in res.cells:
        seat = [m for m in _metrics(res) if m not in GAME_METRICS]
        out += [(f"{c['label']} | seat {s}", res.seat_rows(c["index"], s), seat) for s in range(res.players)]
        out.append((f"{c['label']} | game", res.seat_rows(c["index"], 0),
                    [m for m in _metrics(res) if m in GAME_METRICS]))
    return out


def _identity(res: Results) -> dict:
    e = res.manifest["experiment"]
    ident = {"name": e["name"], "scenario": e["scenario"], "seed": e["seed"], "games": e["games"],
             "cells": [c["label"] for c in res.cells]}
    if res.players > 1:       # a solo baseline keeps the keys it always had
        ident["players"] = res.players
    return ident


def baseline_from(res: Results) -> dict:
    """A baseline: the experiment's identity and every game's value of every checked metric."""
    cells = {}
    for label, rows, metrics in _units(res):
        vals = {}
        for m in metrics:
            v = _metric_values(res, rows, m)
            vals[m] = [None if np.isnan(x) else (int(x) if float(x).is_integer() else float(x)) for x in v]
        cells[label] = vals
    m = res.manifest
    return {"format": BASELINE_FORMAT, "kind": BASELINE_KIND, "mksim": m["mksim"], "git_commit": m.get("git_commit"),
            "experiment": _identity(res), "content_hashes": m["content_hashes"], "cells": cells}


def save_baseline(res: Results, path: Path) -> None:
    """Write the baseline atomically (temporary name, then rename)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        tmp.write_text(json.dumps(baseline_from(res)), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as err:
        raise CheckError(f"--save-baseline: {path}: cannot write ({err.strerror or err})") from None
    finally:
        if tmp.exists():
            tmp.unlink()


def load_baseline(path: Path) -> dict:
    from .results import read_json
    path = Path(path)
    b = read_json(path, "--baseline", "baseline file of mksim check", CheckError)
    if not isinstance(b, dict) or b.get("kind") != BASELINE_KIND or b.get("format") != BASELINE_FORMAT \
            or not isinstance(b.get("cells"), dict) or not isinstance(b.get("experiment"), dict):
        raise CheckError(f"--baseline: {path}: not a baseline of mksim check format {BASELINE_FORMAT} "
                         "(write one with --save-baseline)")
    return b


def parse_tolerances(items: Optional[list[str]]) -> dict:
    """``["fame=1.0", "win=0.05"]`` over the defaults; CheckError naming a bad item."""
    tol = dict(DEFAULT_TOLERANCE)
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or name not in DEFAULT_TOLERANCE:
            raise CheckError(f"--tolerance: {item!r}: give METRIC=VALUE with a metric of "
                             f"{', '.join(DEFAULT_TOLERANCE)}")
        try:
            v = float(value)
        except ValueError:
            raise CheckError(f"--tolerance: {item!r}: {value!r} is not a number") from None
        if not v >= 0:
            raise CheckError(f"--tolerance: {item!r}: the tolerance must be >= 0")
        tol[name] = v
    return tol


def check(res: Results, baseline: dict, tolerance: dict, where: str = "baseline") -> tuple[bool, list]:
    """Compare a fresh run with a baseline.

    Returns ``(ok, rows)``; each row is a dict with ``cell``, ``metric``, ``baseline``,
    ``now`` (means), ``diff`` (an Estimate), ``p_adj`` and ``verdict`` (``same``,
    ``no significant change``, ``moved (within tolerance)`` or ``CHANGED``).
    """
    ident = _identity(res)
    for key, value in ident.items():
        had = baseline["experiment"].get(key, 1 if key == "players" else None)
        if had != value:
            raise CheckError(f"--baseline: {where}: a baseline of a different experiment "
                             f"({key}: {had!r}, this run: {value!r})")
    if res.players == 1 and baseline["experiment"].get("players", 1) != 1:
        raise CheckError(f"--baseline: {where}: a baseline of a different experiment "
                         f"(players: {baseline['experiment']['players']!r}, this run: 1)")
    rows = []
    for label, now_rows, metrics in _units(res):
        base = baseline["cells"].get(label)
        for m in metrics:
            if base is None or m not in base:
                raise CheckError(f"--baseline: {where}: no values of {m!r} for cell {label!r}")
            old = np.array([np.nan if x is None else x for x in base[m]], dtype=float)
            now = _metric_values(res, now_rows, m)
            if len(old) != len(now):
                raise CheckError(f"--baseline: {where}: cell {label!r} holds {len(old)} games, this run {len(now)}")
            cmp = _compare_arrays(now, old, m)
            rows.append({"cell": label, "metric": m, "baseline": float(np.nanmean(old)) if len(old) else np.nan,
                         "now": float(np.nanmean(now)) if len(now) else np.nan, "cmp": cmp,
                         "identical": bool(np.array_equal(np.nan_to_num(old, nan=-1e300),
                                                          np.nan_to_num(now, nan=-1e300)))})
    p_adj = adjust([r["cmp"].p for r in rows], "holm")
    ok = True
    for r, p in zip(rows, p_adj):
        d = r["cmp"].diff
        r["p_adj"] = float(p)
        r["diff"] = d
        if r["identical"]:
            r["verdict"] = "same"
        elif d.excludes(0.0) and p < 0.05:
            if abs(d.value) > tolerance[r["metric"]]:
                r["verdict"] = "CHANGED"
                ok = False
            else:
                r["verdict"] = "moved (within tolerance)"
        else:
            r["verdict"] = "no significant change"
    return ok, rows


def _compare_arrays(now: np.ndarray, old: np.ndarray, metric: str):
    from .stats import mcnemar, paired_difference
    keep = ~(np.isnan(now) | np.isnan(old))     # score, a seat's win: games finished then and now
    if metric == "win":
        return mcnemar(now[keep].astype(bool), old[keep].astype(bool), seed=int(keep.sum()))
    return paired_difference(now[keep], old[keep], seed=int(keep.sum()))
