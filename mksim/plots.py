"""Figures of ``mksim report``: one figure per question, matplotlib's Agg backend (no display).

Every function draws one figure and saves it as PNG and SVG under the given stem; colours are
fixed per hero and per policy (:func:`colour`) so the same hero looks the same in every
figure of every report.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Sequence

import numpy as np

__all__ = ["colour", "ecdf", "per_round", "forest", "bars"]

#: The heroes' colours (their tokens' colours, as near as a colour-blind-safe palette allows).
HERO_COLOURS = {
    "arythea": "#c0392b", "goldyx": "#e1a100", "norowas": "#2e86c1", "tovak": "#7d3c98",
    "wolfhawk": "#5d6d7e", "krang": "#a04000", "braevalar": "#1e8449",
}
#: Ordered levels (rank 1, 2, ...): a sequential colour-blind-safe scale, best first.
RANK_COLOURS = ["#084081", "#2b8cbe", "#7bccc4", "#ccebc5"]
#: Policies and other levels: a fixed palette, chosen by a hash of the name (stable across reports).
PALETTE = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d",
           "#666666", "#1f78b4", "#b2df8a"]


def colour(name: str) -> str:
    """The colour of a hero or level name, the same in every figure."""
    for hero, c in HERO_COLOURS.items():
        if name == hero or name.startswith(hero + " "):
            return c
    h = int(hashlib.sha1(name.encode()).hexdigest()[:8], 16)
    return PALETTE[h % len(PALETTE)]


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 110, "font.size": 9,
                         "axes.spines.top": False, "axes.spines.right": False,
                         "svg.hashsalt": "mksim", "svg.fonttype": "none"})
    return plt


def _save(fig, stem: Path) -> list[Path]:
    plt = _plt()
    paths = []
    for ext in ("png", "svg"):
        p = stem.with_suffix(f".{ext}")
        # No creation date in the files: the same results give byte-identical figures.
        meta = {"Software": None} if ext == "png" else {"Date": None, "Creator": None}
        fig.savefig(p, bbox_inches="tight", metadata=meta)
        paths.append(p)
    plt.close(fig)
    return paths


def ecdf(groups: dict[str, np.ndarray], xlabel: str, title: str, stem: Path) -> list[Path]:
    """Empirical distribution functions of one metric, one line per group (label -> values)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for label, v in groups.items():
        v = np.sort(np.asarray(v, dtype=float))
        if len(v) == 0:
            continue
        y = np.arange(1, len(v) + 1) / len(v)
        ax.step(v, y, where="post", color=colour(label), label=f"{label} (n={len(v)})", lw=1.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games ≤ x")
    ax.set_ylim(0, 1.02)
    ax.set_title(title)
    ax.legend(fontsize=7, frameon=False, loc="lower right")
    ax.grid(alpha=0.25)
    return _save(fig, stem)


def per_round(curves: dict[str, list[tuple[int, float, float, float, int]]], ylabel: str,
              title: str, stem: Path, styles: dict[str, str] | None = None) -> list[Path]:
    """Mean of a metric at each round's end with its 95% band, one line per group.

    ``curves``: label -> [(round, mean, low, high, n), ...]; ``styles``: label -> a matplotlib
    line style, to tell apart lines of one colour (one hero under two policies)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for label, pts in curves.items():
        if not pts:
            continue
        r = np.array([p[0] for p in pts])
        m = np.array([p[1] for p in pts])
        lo = np.array([p[2] for p in pts])
        hi = np.array([p[3] for p in pts])
        c = colour(label)
        ax.plot(r, m, marker="o", ms=3, color=c, label=label, lw=1.4, ls=(styles or {}).get(label, "-"))
        ax.fill_between(r, lo, hi, color=c, alpha=0.18, lw=0)
    ax.set_xlabel("round (at its end)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(fontsize=7, frameon=False)
    ax.grid(alpha=0.25)
    return _save(fig, stem)


def forest(rows: Sequence[tuple[str, float, float, float]], xlabel: str, title: str, stem: Path,
           zero: bool = True) -> list[Path]:
    """Point estimates with intervals, one row each: ``(label, value, low, high)``; a dashed
    line at 0 for differences (``zero``)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(rows) + 1.2))
    y = np.arange(len(rows))[::-1]
    for yi, (label, v, lo, hi) in zip(y, rows):
        c = colour(label.split(" − ")[0].split(" vs ")[0])
        ax.errorbar([v], [yi], xerr=[[v - lo], [hi - v]], fmt="o", color=c, capsize=3, ms=4)
    ax.set_yticks(y)
    ax.set_yticklabels([r[0] for r in rows], fontsize=8)
    if zero:
        ax.axvline(0, color="#444", ls="--", lw=0.8)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.25)
    return _save(fig, stem)


def bars(groups: dict[str, dict[str, float]], ylabel: str, title: str, stem: Path,
         colours: dict[str, str] | None = None, order: Sequence[str] | None = None) -> list[Path]:
    """Grouped bars: category -> {series label -> value} (e.g. how often each tactic was taken).

    ``colours`` (series -> colour) and ``order`` (the series in order) override the hashed
    colours and the alphabetical order, for series that are ordered levels (ranks)."""
    plt = _plt()
    cats = list(groups)
    series = list(order) if order else sorted({s for g in groups.values() for s in g})
    fig, ax = plt.subplots(figsize=(max(6.4, 0.5 * len(cats) * max(1, len(series)) / 2 + 2), 3.8))
    w = 0.8 / max(1, len(series))
    x = np.arange(len(cats))
    for k, s in enumerate(series):
        ax.bar(x + (k - (len(series) - 1) / 2) * w, [groups[c].get(s, 0.0) for c in cats], w,
               color=(colours or {}).get(s) or colour(s), label=s)
    ax.set_xticks(x)
    ax.set_xticklabels(cats, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(fontsize=7, frameon=False)
    ax.grid(axis="y", alpha=0.25)
    return _save(fig, stem)
