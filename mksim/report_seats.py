"""The report of games of several heroes (issue 12): one row per game and seat.

:func:`build_seats_report` is what :func:`mksim.report.build_report` makes when the
experiment's ``players`` is above 1 (docs/reports.md "Several heroes"):

- **Seats**: per cell and seat n, finished, mean Fame and mean score (finished games) with
  bootstrap intervals, the win rate with a Wilson interval and the mean rank; a seat *wins*
  when it has the most points (20.1.1): tied seats all win, so the seats of a cell can add up
  to more than 1 and the table counts the wins shared by a tie;
- **Ranks**: each seat's share of rank 1 .. N (Wilson intervals; tied seats share a rank);
- **Heroes across seats**: each hero with each policy it played, pooled over the cells and
  seats it sat in;
- **Seat position**: seat 0 against seat k of the same cell, paired by game, and over cells
  that rotate the same heroes through the seats under one policy (the position alone);
- one section per factor with more than one level (the line-up of heroes, the policies, The
  Lost Legion, content and restriction arms): seat s of one arm against seat s of the other
  on the same game seeds, paired exactly as the solo report pairs games.

Every test, interval and correction comes from :mod:`mksim.stats` (scipy).
"""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from . import plots
from .stats import adjust, mean_ci, paired_difference, proportion_ci

__all__ = ["build_seats_report", "SEAT_FACTORS", "DEFAULT_SEAT_METRICS"]

#: Factor key of a cell, section file stem, title and reference level (None: all pairs).
SEAT_FACTORS = (
    ("lineup", "lineups", "Line-ups of heroes", None),
    ("policy_label", "policies", "Strategies", None),
    ("lost_legion", "lost_legion", "The Lost Legion", False),
    ("content_arm", "content", "Content changes", "shipped"),
    ("restriction_arm", "restrictions", "Restricted play", "none"),
)
DEFAULT_SEAT_METRICS = ["fame", "score", "win"]


def _r():
    from . import report
    return report


def _cells(res) -> list:
    """The manifest's cells with a ``lineup`` key (the seats' heroes in seat order)."""
    return [{**c, "lineup": ",".join(c.get("seats") or [c["hero"]])} for c in res.cells]


def _seat_label(res, index: int, seat: int) -> str:
    """``hero (policy)`` of a seat, read from its stored rows."""
    rows = res.seat_rows(index, seat)
    return f"{res.games['hero'][rows[0]]} ({res.games['policy_label'][rows[0]]})" if len(rows) else f"seat {seat}"


def _finished(res, rows) -> np.ndarray:
    return rows[res.games["finished"][rows].astype(bool)]


def _seat_table(doc, res, cells, metrics) -> None:
    R = _r()
    n_seats = res.players
    doc.p(f"One row per cell and seat. Fame counts every game; score (Fame + achievements + titles, "
          f"20.2-20.3), the win and the rank count the finished games. A seat wins when it has the most "
          f"points (20.1.1): tied seats all win, so a cell's win rates can add up to more than 1; "
          f"'shared' counts the wins that a tie shared. Rank is 1 + the seats with more points.")
    head = ["cell", "seat", "hero (policy)", "n", "finished"] + \
        [f"{R.METRIC_NAMES.get(m, m)} [95% CI]" for m in metrics] + ["wins (shared)", "mean rank [95% CI]"]
    rows = []
    g = res.games
    for c in cells:
        cr = res.cell_rows(c["index"])
        # winners per game index: a win is shared when another seat of the same game also won
        winners = np.bincount(g["game_index"][cr][g["won"][cr] == 1].astype(np.int64),
                              minlength=int(g["game_index"][cr].max()) + 1 if len(cr) else 0)
        for s in range(n_seats):
            r = res.seat_rows(c["index"], s)
            fin = _finished(res, r)
            won = g["won"][r] == 1
            shared = int((winners[g["game_index"][r[won]].astype(np.int64)] > 1).sum())
            rows.append([f"{c['index']} {c['label']}", s, _seat_label(res, c["index"], s), len(r), len(fin)]
                        + [R._fmt(R._estimate(res, r, m), m) for m in metrics]
                        + [f"{int(won.sum())} ({shared})",
                           mean_ci(g["rank"][fin].astype(float), seed=len(fin)).fmt(2)])
    doc.table(head, rows)


def _rank_table(doc, res, cells, figdir: Path) -> None:
    n_seats = res.players
    doc.h(2, "Ranks")
    doc.p("Share of the finished games in which each seat took each rank, with 95% Wilson intervals "
          "(count in brackets); tied seats share the better rank.")
    head = ["cell", "seat", "hero (policy)", "finished"] + [f"rank {k} [95% Wilson] (games)" for k in
                                                              range(1, n_seats + 1)]
    rows, bars = [], {}
    for c in cells:
        for s in range(n_seats):
            fin = _finished(res, res.seat_rows(c["index"], s))
            rk = res.games["rank"][fin].astype(int)
            shares = []
            for k in range(1, n_seats + 1):
                e = proportion_ci(int((rk == k).sum()), len(fin))
                shares.append(f"{e.fmt(3)} ({int((rk == k).sum())})")
            rows.append([f"{c['index']} {c['label']}", s, _seat_label(res, c["index"], s), len(fin)] + shares)
            bars[f"c{c['index']} s{s} {_seat_label(res, c['index'], s)}"] = {
                f"rank {k}": float((rk == k).mean()) if len(fin) else 0.0 for k in range(1, n_seats + 1)}
    doc.table(head, rows)
    ranks = [f"rank {k}" for k in range(1, n_seats + 1)]
    plots.bars(bars, "share of finished games", "Rank distribution per cell and seat", figdir / "seats-ranks",
               colours=dict(zip(ranks, plots.RANK_COLOURS)), order=ranks)
    doc.fig("seats-ranks", "Share of the finished games in which each seat took each rank (cN sK: cell N, seat K).")


def _hero_table(doc, res, metrics) -> None:
    R = _r()
    g = res.games
    doc.h(2, "Heroes across seats")
    doc.p("Each hero with each policy it played, pooled over every cell and seat it sat in (a hero sits "
          "once per game, so n counts games; games of different cells share seeds, so these pooled "
          "intervals treat correlated games as independent and are only descriptive).")
    keys = list(dict.fromkeys(zip(g["hero"], g["policy_label"])))
    head = ["hero", "policy", "seats", "cells", "n"] + [f"{R.METRIC_NAMES.get(m, m)} [95% CI]" for m in metrics] \
        + ["mean rank [95% CI]"]
    rows = []
    for hero, pol in keys:
        r = np.flatnonzero((g["hero"] == hero) & (g["policy_label"] == pol))
        r = r[np.lexsort((g["player"][r], g["game_index"][r], g["cell"][r]))]
        fin = _finished(res, r)
        rows.append([hero, pol, ",".join(map(str, sorted(set(g["player"][r].tolist())))),
                     len(set(g["cell"][r].tolist())), len(r)]
                    + [R._fmt(R._estimate(res, r, m), m) for m in metrics]
                    + [mean_ci(g["rank"][fin].astype(float), seed=len(fin)).fmt(2)])
    doc.table(head, rows)


def _paired_table(doc, comparisons, p_adj, correction) -> None:
    R = _r()
    doc.table(["A", "B", "metric", "n pairs", "A − B [95% CI]", "test", "p", f"p ({correction})",
               "effect", "A better / B better / same"],
              [[a, b, R.METRIC_NAMES.get(m, m), c.n, c.diff.fmt(R._digits(m)), c.test, f"{c.p:.3g}",
                f"{p_adj[(a, b, m)]:.3g}", f"{c.effect:+.3f}", f"{c.a_better} / {c.b_better} / {c.ties}"]
               for a, b, m, c in comparisons])


def _adjusted(comparisons, metrics, correction) -> dict:
    """Adjusted p-values, one family per metric within the table."""
    p_adj = {}
    for m in metrics:
        fam = [(a, b) for a, b, mm, _ in comparisons if mm == m]
        adj = adjust([c.p for a, b, mm, c in comparisons if mm == m], correction)
        p_adj.update({(a, b, m): float(x) for (a, b), x in zip(fam, adj)})
    return p_adj


def _conclude(doc, comparisons, p_adj) -> None:
    """A sentence per comparison the data separate; the rest named together (games, not seeds)."""
    said, same, rest = _r().pair_conclusions(comparisons, p_adj)
    doc.bullets(said)
    if same:
        doc.p("Identical in every paired game: " + "; ".join(f"{a} and {b}" for a, b in same) + ".")
    if rest:
        doc.p(rest)


def _seat_position(doc, res, cells, metrics, figdir: Path, correction: str) -> None:
    """Seat 0 against seat k of each cell, paired by game."""
    R = _r()
    doc.h(2, "Seat position")
    doc.p("Seat 0 against each other seat of the same cell, paired by game (the same game's two rows; "
          f"score and the win on the finished games; {correction}-adjusted per cell and metric). In a "
          "cell the seats hold different heroes (and maybe policies), so a difference is that of the seat "
          "as filled: position, hero and policy together. Cells that rotate the same heroes through the seats "
          "under one policy (each hero in each seat equally often) are also pooled below: that difference "
          "is the position alone.")
    forest = []
    primary = metrics[0]
    for c in cells:
        if len(cells) > 1:
            doc.h(3, f"{c['index']} {c['label']}")
        names = {s: f"seat {s} {_seat_label(res, c['index'], s)}" for s in range(res.players)}
        comparisons = []
        for k in range(1, res.players):
            for m in metrics:
                comparisons.append((names[0], names[k], m,
                                    R._compare(res, res.seat_rows(c["index"], 0), res.seat_rows(c["index"], k), m)))
        p_adj = _adjusted(comparisons, metrics, correction)
        _paired_table(doc, comparisons, p_adj, correction)
        _conclude(doc, comparisons, p_adj)
        forest += [(f"{_seat_label(res, c['index'], 0)} − seat {k}: cell {c['index']}", cmp.diff.value,
                    cmp.diff.low, cmp.diff.high)
                   for (_, _, m, cmp), k in zip(comparisons, [k for k in range(1, res.players) for _ in metrics])
                   if m == primary]
    forest += _rotations(doc, res, cells, metrics, correction)
    plots.forest(forest, f"seat 0 − seat k: paired difference in {R.METRIC_NAMES.get(primary, primary)}",
                 "Seat position: seat 0 against seat k (paired by game)", figdir / "seats-position")
    doc.fig("seats-position", f"Seat 0 minus seat k in {R.METRIC_NAMES.get(primary, primary)}, paired by game, "
                              f"with 95% bootstrap intervals.")


def _rotations(doc, res, cells, metrics, correction) -> list:
    """Seat 0 against seat k over cells that rotate the same heroes through the seats.

    A group of cells that differ only in the line-up, play one policy at every seat, and put
    each of the same heroes in each seat equally often (e.g. the line-ups a,b / b,a) balances
    the heroes over the seats: per game index the difference seat 0 − seat k averaged over the
    group's cells leaves the position alone.  These per-game averages (independent between
    game indices) are compared with ``paired_difference`` (bootstrap interval, Wilcoxon);
    score and the win on the game indices finished in every cell of the group.
    """
    R = _r()
    groups: dict = {}
    for c in cells:
        if len(set(c.get("seat_policies") and [p["label"] for p in c["seat_policies"]] or [c["policy_label"]])) != 1:
            continue                          # seats of different policies: position is not alone
        sig = (frozenset(c["seats"]),) + tuple(c[k] for k, *_ in SEAT_FACTORS if k != "lineup")
        groups.setdefault(sig, []).append(c)
    forest = []
    for sig, group in groups.items():
        heroes = sorted(sig[0])
        counts = [sorted(sum(1 for c in group if c["seats"][s] == h) for h in heroes) for s in range(res.players)]
        if len(group) < 2 or any(len(set(cn)) != 1 or cn[0] == 0 for cn in counts):
            continue                          # not every hero in every seat equally often
        doc.h(3, f"Rotation of {', '.join(heroes)} over the seats: cells "
                 f"{', '.join(str(c['index']) for c in group)} ({group[0]['policy_label']})")
        doc.p("Each hero sits in each seat equally often in these cells, so seat 0 − seat k averaged over "
              "them per game index is the seat position alone; the per-game averages are compared "
              "(n = game indices; score and the win: those finished in every one of these cells).")
        comparisons = []
        for k in range(1, res.players):
            for m in metrics:
                a = np.array([R._metric_values(res, res.seat_rows(c["index"], 0), m) for c in group])
                b = np.array([R._metric_values(res, res.seat_rows(c["index"], k), m) for c in group])
                keep = ~(np.isnan(a).any(axis=0) | np.isnan(b).any(axis=0))
                cmp = paired_difference(a[:, keep].mean(axis=0), b[:, keep].mean(axis=0), seed=int(keep.sum()))
                comparisons.append(("seat 0", f"seat {k}", m, cmp))
        p_adj = _adjusted(comparisons, metrics, correction)
        _paired_table(doc, comparisons, p_adj, correction)
        _conclude(doc, comparisons, p_adj)
        forest += [(f"rotation of {','.join(heroes)}: seat 0 − {b}", c.diff.value, c.diff.low, c.diff.high)
                   for a, b, m, c in comparisons if m == metrics[0]]
    return forest


def _strata(cells: list, key: str) -> dict:
    others = [k for k, *_ in SEAT_FACTORS if k != key]
    groups: dict = {}
    for c in cells:
        groups.setdefault(tuple(c[k] for k in others), {})[c[key]] = c["index"]
    out = {}
    for sig, levels in groups.items():
        parts = [_r()._level_name(k, v) for k, v in zip(others, sig) if len({c[k] for c in cells}) > 1]
        out[", ".join(parts) or "all cells"] = levels
    return out


def _factor_section(doc, res, cells, key, fname, title, reference, metrics, figdir: Path, correction) -> None:
    R = _r()
    levels_all = list(dict.fromkeys(c[key] for c in cells))
    if len(levels_all) < 2:
        return
    doc.h(2, title)
    doc.p(("Each arm against the reference level" if reference is not None else "Every pair of levels")
          + ", seat by seat: seat s of one cell against seat s of the other on the same game index "
          "(game k of every cell was set up from the same random streams), paired as in the solo report; "
          f"{correction}-adjusted within each table and metric.")
    primary = metrics[0]
    for stratum, levels_of in _strata(cells, key).items():
        levels = [lv for lv in levels_all if lv in levels_of]
        pairs = (list(itertools.combinations(levels, 2)) if reference is None
                 else [(lv, reference) for lv in levels if lv != reference] if reference in levels else [])
        if not pairs:
            continue
        if stratum != "all cells":
            doc.h(3, stratum)
        comparisons = []
        for a, b in pairs:
            for s in range(res.players):
                na = f"{R._level_name(key, a)} seat {s} {_seat_label(res, levels_of[a], s)}"
                nb = f"{R._level_name(key, b)} seat {s} {_seat_label(res, levels_of[b], s)}"
                for m in metrics:
                    comparisons.append((na, nb, m, R._compare(res, res.seat_rows(levels_of[a], s),
                                                             res.seat_rows(levels_of[b], s), m)))
        p_adj = _adjusted(comparisons, metrics, correction)
        _paired_table(doc, comparisons, p_adj, correction)
        _conclude(doc, comparisons, p_adj)
        stem = f"seats-{fname}-{R._slug(stratum)}"
        plots.forest([(f"{a} − {b}", c.diff.value, c.diff.low, c.diff.high)
                      for a, b, m, c in comparisons if m == primary],
                     f"paired difference in {R.METRIC_NAMES.get(primary, primary)}",
                     f"{title}: effect per seat ({stratum})", figdir / f"{stem}-effect")
        doc.fig(f"{stem}-effect", f"{title} ({stratum}): paired difference per seat with 95% bootstrap intervals.")


def _win_figure(doc, res, cells, figdir: Path) -> None:
    rows = []
    for c in cells:
        for s in range(res.players):
            e = _r()._estimate(res, res.seat_rows(c["index"], s), "win")
            rows.append((f"{_seat_label(res, c['index'], s)}: cell {c['index']} seat {s}", e.value, e.low, e.high))
    plots.forest(rows, "win rate (finished games; ties share the win)", "Win rate per seat",
                 figdir / "seats-win", zero=False)
    doc.fig("seats-win", "Win rate per cell and seat with 95% Wilson intervals (a tie is a win for every tied seat).")


def _fame_rounds(doc, res, figdir: Path) -> None:
    """Fame per round of each hero under each policy, pooled over the cells and seats it sat in."""
    rd, g = res.rounds, res.games
    # the seat's policy of every rounds row, from the games row of the same cell, game and seat
    key = lambda t: (t["cell"].astype(np.int64) * (int(g["game_index"].max()) + 1) + t["game_index"]) \
        * res.players + t["player"]
    order = np.argsort(key(g), kind="stable")
    pos = order[np.searchsorted(key(g)[order], key(rd))]
    policy = g["policy_label"][pos]
    hero = g["hero"][pos]
    curves, styles = {}, {}
    pols = list(dict.fromkeys(g["policy_label"]))
    for h, pol in dict.fromkeys(zip(g["hero"], g["policy_label"])):
        sel = (hero == h) & (policy == pol)
        pts = []
        for rnd in np.unique(rd["round"][sel]):
            e = mean_ci(rd["fame"][sel & (rd["round"] == rnd)].astype(float), seed=int(rnd))
            pts.append((int(rnd), e.value, e.low, e.high, e.n))
        curves[f"{h} ({pol})"] = pts
        styles[f"{h} ({pol})"] = ("-", "--", ":", "-.")[pols.index(pol) % 4]
    plots.per_round(curves, "mean Fame", "Fame per round, per hero and policy", figdir / "seats-rounds", styles)
    doc.fig("seats-rounds", "Mean Fame at each round's end of each hero under each policy (line style), pooled "
                            "over the cells and seats it sat in, with 95% bootstrap bands (games still running).")


def build_seats_report(res, figdir: Path, metrics: list, correction: str, doc) -> None:
    """Append the per-seat sections of a results folder of several heroes to ``doc``;
    figures go into ``figdir``."""
    cells = _cells(res)
    doc.h(2, "Seats")
    _seat_table(doc, res, cells, metrics)
    _win_figure(doc, res, cells, figdir)
    _rank_table(doc, res, cells, figdir)
    _hero_table(doc, res, metrics)
    _seat_position(doc, res, cells, metrics, figdir, correction)
    for key, fname, title, reference in SEAT_FACTORS:
        _factor_section(doc, res, cells, key, fname, title, reference, metrics, figdir, correction)
    _fame_rounds(doc, res, figdir)
