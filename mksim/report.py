"""``mksim report DIR``: a statistical report made from a results folder's stored files only.

The report answers one question per section, for each factor of the experiment that has
more than one level (docs/reports.md):

- **Heroes** and **Strategies** (policies): a table per stratum (the other factors held
  fixed) with n, mean Fame and score with bootstrap intervals, the win rate with a Wilson
  interval (Solo Conquest), a ranking with intervals, and every pair compared on the shared
  seeds (Wilcoxon signed-rank for scores, McNemar exact for win / loss), Holm-adjusted
  within the section; strategies also show per-policy behaviour;
- **The Lost Legion**, **Content changes** and **Tactics**: each arm against its reference
  (without The Lost Legion, the shipped content, the policy's own tactic choice), paired;
  tactics also show how often the policy picked each card, labelled as an observation;
- figures (PNG and SVG beside the report, embedded in the HTML): score distributions as
  ECDFs, Fame per round with 95% bands, paired effects as forest plots;
- games of several heroes (one row per game and seat): the per-seat report of
  :mod:`mksim.report_seats` (seats, ranks, heroes across seats, seat position, arms per seat).

A sentence states a direction only where the interval of the paired difference excludes 0
and the adjusted p-value is below 0.05; otherwise it says the data do not separate the two.
Everything is written under temporary names and renamed when complete.
"""
from __future__ import annotations

import base64
import html
import itertools
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

from . import plots
from .stats import (Estimate, Paired, adjust, conclusion, mcnemar, mean_ci, paired_difference,
                    proportion_ci)

__all__ = ["ReportError", "Results", "load_results", "build_report", "write_report", "METRIC_NAMES"]

REPORT_MD = "report.md"
REPORT_HTML = "report.html"
FIGURES = "figures"
#: Factor key of a cell, the section it gets, and the reference level (None: all pairs).
FACTOR_SECTIONS = (
    ("hero", "heroes", "Heroes", None),
    ("policy_label", "policies", "Strategies", None),
    ("lost_legion", "lost_legion", "The Lost Legion", False),
    ("content_arm", "content", "Content changes", "shipped"),
    ("tactic_arm", "tactics", "Tactics", "free"),
    ("restriction_arm", "restrictions", "Restricted play", "none"),
)
#: The level a cell has when its manifest predates a factor (e.g. no restrictions).
FACTOR_DEFAULTS = {"lost_legion": False, "content_arm": "shipped", "tactic_arm": "free", "restriction_arm": "none"}
#: Readable names of the metrics a report can compare (any numeric games column may be asked for).
METRIC_NAMES = {"fame": "Fame", "score": "score", "win": "win rate", "level": "level",
                "combats": "combats entered", "wounds_taken": "Wounds taken",
                "units_recruited": "units recruited", "rounds": "rounds played"}
#: Metrics an experiment's precision target may name (per-game means, or the win rate).
PRECISION_METRICS = ("fame", "score", "win", "level", "combats", "wounds_taken", "units_recruited", "rounds")
BEHAVIOUR = ("combats", "defeated", "units_recruited", "level", "wounds_taken", "knockouts", "rounds")
REQUIRED_COLUMNS = ("cell", "game_index", "player", "finished", "termination", "score", "fame",
                    "level", "combats", "units_recruited", "wounds_taken", "knockouts", "rounds",
                    "defeated_green", "defeated_grey", "defeated_violet", "defeated_brown",
                    "defeated_red", "defeated_white")
#: Columns of games of several heroes (one row per seat) the per-seat report reads.
SEAT_COLUMNS = ("players", "hero", "policy_label", "titles", "won", "rank")
#: Columns null for a game that did not finish, read as float with nan.
NULLABLE_COLUMNS = ("score", "titles", "won", "rank")


class ReportError(Exception):
    """A results folder or a request a report cannot be made from: one line naming what and where."""


@dataclass
class Results:
    """What a report reads: the manifest, the games and the rounds of a complete run."""

    out: Path
    manifest: dict
    games: dict            # column -> numpy array (rows in cell, game order)
    rounds: dict
    cells: list            # the manifest's cell dicts

    @property
    def scenario(self) -> str:
        return self.manifest["experiment"]["scenario"]

    @property
    def solo_conquest(self) -> bool:
        return self.scenario == "solo_conquest"

    @property
    def players(self) -> int:
        """Heroes per game: above 1 the games hold one row per game and seat."""
        return int(self.manifest["experiment"].get("players", 1))

    def seat_rows(self, index: int, seat: int) -> np.ndarray:
        """Row positions of seat ``seat`` of cell ``index``, ordered by game index (the pairing key)."""
        rows = np.flatnonzero((self.games["cell"] == index) & (self.games["player"] == seat))
        return rows[np.argsort(self.games["game_index"][rows], kind="stable")]

    def cell_rows(self, index: int) -> np.ndarray:
        """Row positions of cell ``index``, ordered by game index (the pairing key)."""
        rows = np.flatnonzero(self.games["cell"] == index)
        return rows[np.argsort(self.games["game_index"][rows], kind="stable")]


def load_results(out: Path) -> Results:
    """Read a complete results folder; ReportError when it is missing, incomplete or of another format."""
    import pyarrow.parquet as pq
    from .results import FORMAT, ResultsError, read_manifest
    out = Path(out)
    if not out.is_dir():
        raise ReportError(f"{out}: no such results folder")
    try:
        m = read_manifest(out)
    except ResultsError as err:
        raise ReportError(str(err)) from None
    if m is None:
        raise ReportError(f"{out}: no mksim results here (no manifest.json)")
    players = m.get("experiment", {}).get("players", 1)
    run = m.get("run", {})
    gp, rp = out / "games.parquet", out / "rounds.parquet"
    if run.get("status") != "complete" or not gp.exists() or not rp.exists():
        raise ReportError(f"{out}: the run is not complete ({len(m.get('chunks', []))} of "
                          f"{run.get('n_chunks', '?')} chunks stored); finish it with "
                          f"mksim run --resume --out {out}")
    try:
        gt = pq.read_table(gp)
        rt = pq.read_table(rp)
    except Exception as err:          # noqa: BLE001 - any unreadable file is one message
        raise ReportError(f"{gp}: not a readable Parquet file ({err})") from None
    missing = [c for c in REQUIRED_COLUMNS if c not in gt.column_names]
    if missing:
        raise ReportError(f"{gp}: results of an older or other format (no column {missing[0]!r}; "
                          f"format {FORMAT} is needed): run the experiment again")
    cells = [{**FACTOR_DEFAULTS, **c} for c in m["experiment"]["cells"]]
    expected = len(cells) * m["experiment"]["games"] * players     # one row per game and seat
    if gt.num_rows != expected:
        seats = f" x {players} seats" if players > 1 else ""
        raise ReportError(f"{gp}: {gt.num_rows} rows, the manifest's {len(cells)} cells x "
                          f"{m['experiment']['games']} games{seats} need {expected}")
    if players > 1:
        missing = [c for c in SEAT_COLUMNS if c not in gt.column_names]
        if missing:
            raise ReportError(f"{gp}: results of {players} heroes without column {missing[0]!r} "
                              f"(format {FORMAT} is needed): run the experiment again")
    games = {}
    for name in gt.column_names:
        col = gt.column(name)
        if name in NULLABLE_COLUMNS:      # null when the game did not finish: nan
            games[name] = np.array([np.nan if v is None else v for v in col.to_pylist()], dtype=float)
        elif col.type.num_fields == 0 and str(col.type) in ("string", "large_string"):
            games[name] = np.array(col.to_pylist(), dtype=object)
        else:
            games[name] = col.to_numpy(zero_copy_only=False)
    rounds = {name: (np.array(rt.column(name).to_pylist(), dtype=object)
                     if str(rt.column(name).type) in ("string", "large_string")
                     else rt.column(name).to_numpy(zero_copy_only=False)) for name in rt.column_names}
    return Results(out, m, games, rounds, cells)


# ---------------------------------------------------------------------------------------
# The document: blocks rendered to Markdown and to one self-contained HTML file
# ---------------------------------------------------------------------------------------

@dataclass
class Doc:
    blocks: list = field(default_factory=list)
    figures: list = field(default_factory=list)   # stems written

    def h(self, level: int, text: str):
        self.blocks.append(("h", level, text))

    def p(self, text: str):
        self.blocks.append(("p", text))

    def bullets(self, items: list):
        if items:
            self.blocks.append(("ul", items))

    def table(self, head: list, rows: list):
        self.blocks.append(("table", head, rows))

    def fig(self, name: str, caption: str):
        self.blocks.append(("fig", name, caption))
        self.figures.append(name)

    def markdown(self) -> str:
        out = []
        for b in self.blocks:
            if b[0] == "h":
                out.append("#" * b[1] + " " + b[2])
            elif b[0] == "p":
                out.append(b[1])
            elif b[0] == "ul":
                out.append("\n".join(f"- {t}" for t in b[1]))
            elif b[0] == "table":
                head, rows = b[1], b[2]
                cell = lambda c: str(c).replace("|", "\\|")      # a cell label holds "|"
                out.append("| " + " | ".join(map(cell, head)) + " |\n|" + "|".join("---" for _ in head) + "|\n"
                           + "\n".join("| " + " | ".join(map(cell, r)) + " |" for r in rows))
            elif b[0] == "fig":
                out.append(f"![{b[2]}]({FIGURES}/{b[1]}.png)\n\n*{b[2]}* ([SVG]({FIGURES}/{b[1]}.svg))")
        return "\n\n".join(out) + "\n"

    def html(self, figdir: Path, title: str) -> str:
        e = html.escape
        parts = [f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{e(title)}</title>",
                 "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}"
                 "table{border-collapse:collapse;margin:1em 0;font-size:0.9em}td,th{border:1px solid #ccc;"
                 "padding:0.25em 0.6em;text-align:right}td:first-child,th:first-child{text-align:left}"
                 "th{background:#f3f3f3}figure{margin:1em 0}img{max-width:100%}figcaption{font-style:italic;"
                 "font-size:0.9em}</style></head><body>"]
        for b in self.blocks:
            if b[0] == "h":
                parts.append(f"<h{b[1]}>{e(b[2])}</h{b[1]}>")
            elif b[0] == "p":
                parts.append(f"<p>{e(b[1])}</p>")
            elif b[0] == "ul":
                parts.append("<ul>" + "".join(f"<li>{e(t)}</li>" for t in b[1]) + "</ul>")
            elif b[0] == "table":
                parts.append("<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in b[1])
                             + "</tr></thead><tbody>"
                             + "".join("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in r) + "</tr>"
                                       for r in b[2]) + "</tbody></table>")
            elif b[0] == "fig":
                data = base64.b64encode((figdir / f"{b[1]}.png").read_bytes()).decode()
                parts.append(f"<figure><img alt=\"{e(b[2])}\" src=\"data:image/png;base64,{data}\">"
                             f"<figcaption>{e(b[2])}</figcaption></figure>")
        parts.append("</body></html>\n")
        return "\n".join(parts)


# ---------------------------------------------------------------------------------------
# Building the report
# ---------------------------------------------------------------------------------------

def _metric_values(res: Results, rows: np.ndarray, metric: str) -> np.ndarray:
    g = res.games
    if metric == "win" and res.players > 1:
        # the seat's own victory (most points, ties share it, 20.1.1); nan when not finished
        return g["won"][rows].astype(float)
    if metric == "win":
        return (g["termination"][rows] == "scenario_won").astype(float)
    if metric == "defeated":
        return sum(g[f"defeated_{c}"][rows].astype(float)
                   for c in ("green", "grey", "violet", "brown", "red", "white"))
    return g[metric][rows].astype(float)


def _estimate(res: Results, rows: np.ndarray, metric: str) -> Estimate:
    v = _metric_values(res, rows, metric)
    v = v[~np.isnan(v)]                  # score, a seat's win: the finished games
    if metric == "win":
        return proportion_ci(int(v.sum()), len(v))
    return mean_ci(v, seed=len(v))


def _compare(res: Results, a_rows: np.ndarray, b_rows: np.ndarray, metric: str) -> Paired:
    a = _metric_values(res, a_rows, metric)
    b = _metric_values(res, b_rows, metric)
    keep = ~(np.isnan(a) | np.isnan(b))      # score, a seat's win: pairs where both games finished
    if metric == "win":
        return mcnemar(a[keep].astype(bool), b[keep].astype(bool), seed=int(keep.sum()))
    return paired_difference(a[keep], b[keep], seed=int(keep.sum()))


def _digits(metric: str) -> int:
    return 3 if metric == "win" else 2


def _fmt(e: Estimate, metric: str) -> str:
    return e.fmt(_digits(metric))


def _level_name(key: str, value) -> str:
    if key == "lost_legion":
        return "with The Lost Legion" if value else "without The Lost Legion"
    return str(value)


def _strata(res: Results, key: str) -> dict:
    """Cells grouped by every factor but ``key``: stratum label -> {level: cell index}."""
    others = [k for k, *_ in FACTOR_SECTIONS if k != key]
    groups: dict = {}
    for c in res.cells:
        sig = tuple(c[k] for k in others)
        groups.setdefault(sig, {})[c[key]] = c["index"]
    out = {}
    for sig, levels in groups.items():
        parts = [_level_name(k, v) for k, v in zip(others, sig)
                 if len({c[k] for c in res.cells}) > 1]
        out[", ".join(parts) or "all cells"] = levels
    return out


def _cell_table(doc: Doc, res: Results, metrics: list) -> None:
    head = ["cell", "n", "finished", "stopped"] + [f"{METRIC_NAMES.get(m, m)} [95% CI]" for m in metrics] \
        + ["mean level [95% CI]", "mean combats [95% CI]"]
    rows = []
    for c in res.cells:
        r = res.cell_rows(c["index"])
        fin = int(res.games["finished"][r].sum())
        stopped = int((res.games["error"][r] != "none").sum()) if "error" in res.games else 0
        rows.append([f"{c['index']} {c['label']}", len(r), fin, stopped]
                    + [_fmt(_estimate(res, r, m), m) for m in metrics]
                    + [_fmt(mean_ci(res.games["level"][r].astype(float), seed=len(r)), "level"),
                       _fmt(mean_ci(res.games["combats"][r].astype(float), seed=len(r)), "combats")])
    doc.table(head, rows)


def _per_round_curves(res: Results, cells: dict) -> dict:
    rd = res.rounds
    curves = {}
    for label, index in cells.items():
        sel = rd["cell"] == index
        pts = []
        for rnd in np.unique(rd["round"][sel]):
            v = rd["fame"][sel & (rd["round"] == rnd)].astype(float)
            e = mean_ci(v, seed=int(rnd))
            pts.append((int(rnd), e.value, e.low, e.high, e.n))
        curves[label] = pts
    return curves


def _pairs(levels: list, reference) -> list:
    if reference is None:
        return list(itertools.combinations(levels, 2))
    return [(lv, reference) for lv in levels if lv != reference] if reference in levels else []


def _slug(text: str) -> str:
    s = "".join(ch if ch.isalnum() else "-" for ch in text.lower())
    while "--" in s:
        s = s.replace("--", "-")
    return s.strip("-")[:60] or "all"


def _factor_section(doc: Doc, res: Results, key: str, fname: str, title: str, reference,
                    metrics: list, figdir: Path, correction: str) -> None:
    levels_all = sorted({c[key] for c in res.cells}, key=lambda v: [c[key] for c in res.cells].index(v))
    if len(levels_all) < 2:
        return
    doc.h(2, title)
    ref_text = {"lost_legion": "each hero's games without The Lost Legion",
                "content_arm": "the shipped content", "tactic_arm": "the policy's own tactic choice (arm 'free')",
                "restriction_arm": "the unrestricted arm (none): what losing the forbidden cards, skills, "
                                   "units or sites costs (restricted play, Jaffe et al. 2012)"}
    if reference is not None:
        doc.p(f"Each arm is compared with {ref_text[key]} on the same seeds (paired).")
    else:
        doc.p("Every pair is compared on the same seeds (paired): game k of every cell was set up "
              "from the same random streams.")
    primary = metrics[0]
    for stratum, cells in _strata(res, key).items():
        levels = [lv for lv in levels_all if lv in cells]
        if len(levels) < 2:
            continue
        names = {lv: _level_name(key, lv) for lv in levels}
        rows_of = {lv: res.cell_rows(cells[lv]) for lv in levels}
        if stratum != "all cells":
            doc.h(3, stratum)
        # The levels with their estimates, ranked by the first metric.
        est = {lv: {m: _estimate(res, rows_of[lv], m) for m in metrics} for lv in levels}
        ranked = sorted(levels, key=lambda lv: -est[lv][primary].value)
        comparisons = []
        # all pairs: A is the better-ranked level, so every sentence reads "A has a higher ..."
        for a, b in _pairs(ranked if reference is None else levels, reference):
            for m in metrics:
                comparisons.append((a, b, m, _compare(res, rows_of[a], rows_of[b], m)))
        p_adj = {}
        for m in metrics:
            fam = [(a, b) for a, b, mm, _ in comparisons if mm == m]
            adj = adjust([c.p for a, b, mm, c in comparisons if mm == m], correction)
            p_adj.update({(a, b, m): float(x) for (a, b), x in zip(fam, adj)})
        head = ["rank", "level", "n"] + [f"{METRIC_NAMES.get(m, m)} [95% CI]" for m in metrics]
        if reference is None:           # all pairs compared: say whether each is apart from the next
            doc.table(head + [f"separated from the next ({METRIC_NAMES.get(primary, primary)})"],
                      [[k + 1, names[lv], est[lv][primary].n] + [_fmt(est[lv][m], m) for m in metrics]
                       + [_separated(lv, ranked[k + 1], comparisons, p_adj, primary) if k + 1 < len(ranked) else "-"]
                       for k, lv in enumerate(ranked)])
        else:
            doc.table(head, [[k + 1, names[lv], est[lv][primary].n] + [_fmt(est[lv][m], m) for m in metrics]
                             for k, lv in enumerate(ranked)])
        doc.table(["A", "B", "metric", "n pairs", "A − B [95% CI]", "test", "p", f"p ({correction})",
                   "effect", "A better / B better / same"],
                  [[names[a], names[b], METRIC_NAMES.get(m, m), c.n, c.diff.fmt(_digits(m)), c.test,
                    f"{c.p:.3g}", f"{p_adj[(a, b, m)]:.3g}", f"{c.effect:+.3f}",
                    f"{c.a_better} / {c.b_better} / {c.ties}"] for a, b, m, c in comparisons])
        _conclusions(doc, comparisons, p_adj, names)
        if key == "policy_label":
            _behaviour(doc, res, {names[lv]: rows_of[lv] for lv in levels})
        if key == "tactic_arm":
            _forced_missed(doc, res, {names[lv]: rows_of[lv] for lv in levels})
        stem = f"{fname}-{_slug(stratum)}"
        v_metric = "score" if "score" in metrics else primary
        plots.ecdf({names[lv]: _metric_values(res, rows_of[lv], v_metric)[
                    ~np.isnan(_metric_values(res, rows_of[lv], v_metric))] for lv in levels},
                   METRIC_NAMES.get(v_metric, v_metric), f"{title}: {v_metric} distribution ({stratum})",
                   figdir / f"{stem}-ecdf")
        doc.fig(f"{stem}-ecdf", f"{title} ({stratum}): distribution of {METRIC_NAMES.get(v_metric, v_metric)} "
                                f"per game (ECDF; n per line in the legend).")
        if reference is None:
            plots.per_round(_per_round_curves(res, {names[lv]: cells[lv] for lv in levels}), "mean Fame",
                            f"{title}: Fame per round ({stratum})", figdir / f"{stem}-rounds")
            doc.fig(f"{stem}-rounds", f"{title} ({stratum}): mean Fame at each round's end with 95% "
                                      f"bootstrap bands (games still running in that round).")
        else:
            fr = [(f"{names[a]} − {names[b]}", c.diff.value, c.diff.low, c.diff.high)
                  for a, b, m, c in comparisons if m == primary]
            plots.forest(fr, f"paired difference in {METRIC_NAMES.get(primary, primary)}",
                         f"{title}: effect on {METRIC_NAMES.get(primary, primary)} ({stratum})",
                         figdir / f"{stem}-effect")
            doc.fig(f"{stem}-effect", f"{title} ({stratum}): paired difference against the reference "
                                      f"with 95% bootstrap intervals.")
    if key == "tactic_arm":
        _tactic_picks(doc, res, figdir)


def pair_conclusions(comparisons: list, p_adj: dict, label=lambda x: x) -> tuple:
    """Sort paired comparisons for a conclusions paragraph.

    Parameters
    ----------
    comparisons : list of (a, b, metric, Comparison)
    p_adj : dict
        Adjusted p-value per ``(a, b, metric)``.
    label : callable
        Printed name of an arm.

    Returns
    -------
    said : list of str
        One sentence per pair and metric the data separate (interval excludes 0, p_adj < 0.05).
    same : list of (a, b)
        Pairs identical on every metric in every paired game.
    apart : str
        The sentence naming the rest (the data do not separate them), or "".
    """
    said, apart = [], {}
    # a pair is identical only when every metric tied in every paired game: one metric tied
    # everywhere (no arm wins a Solo Conquest game) says nothing of the others
    tied: dict = {}
    for a, b, m, c in comparisons:
        tied[(a, b)] = tied.get((a, b), True) and bool(c.n) and c.ties == c.n
    same = [k for k, v in tied.items() if v]
    for a, b, m, c in comparisons:
        if (a, b) in same or (c.n and c.ties == c.n):
            continue
        if c.diff.excludes(0.0) and p_adj[(a, b, m)] < 0.05:
            said.append(conclusion(label(a), label(b), c, p_adj[(a, b, m)], METRIC_NAMES.get(m, m), _digits(m)))
        else:
            apart.setdefault((a, b), []).append(METRIC_NAMES.get(m, m))
    rest = "; ".join(f"{label(a)} and {label(b)} on {', '.join(ms)}" for (a, b), ms in apart.items())
    if rest:
        rest = ("The data do not separate (the interval of the paired difference includes 0, or "
                f"p_adj ≥ 0.05): {rest}.")
    return said, same, rest


def _conclusions(doc: Doc, comparisons: list, p_adj: dict, names: dict) -> None:
    """A sentence per pair and metric the data separate; the rest named together."""
    said, same, rest = pair_conclusions(comparisons, p_adj, names.__getitem__)
    doc.bullets(said)
    if same:
        doc.p("Identical on every seed (the arms played the same games, e.g. a forced tactic the policy "
              "takes anyway): " + "; ".join(f"{names[a]} and {names[b]}" for a, b in same) + ".")
    if rest:
        doc.p(rest)


def _separated(a, b, comparisons, p_adj, metric) -> str:
    for x, y, m, c in comparisons:
        if m == metric and {x, y} == {a, b}:
            return "yes" if c.diff.excludes(0.0) and p_adj[(x, y, m)] < 0.05 else "no"
    return "-"


def _behaviour(doc: Doc, res: Results, groups: dict) -> None:
    head = ["policy", "n"] + [f"mean {b.replace('_', ' ')} [95% CI]" for b in BEHAVIOUR]
    rows = []
    for label, r in groups.items():
        rows.append([label, len(r)] + [_fmt(mean_ci(_metric_values(res, r, b), seed=len(r)), b) for b in BEHAVIOUR])
    doc.p("How each policy plays (means per game; 'defeated' counts enemies of every colour):")
    doc.table(head, rows)
    colours = ("green", "grey", "violet", "brown", "red", "white")
    doc.table(["policy", "n"] + [f"{c} enemies defeated [95% CI]" for c in colours],
              [[label, len(r)] + [_fmt(mean_ci(res.games[f"defeated_{c}"][r].astype(float), seed=len(r)), c)
                                  for c in colours]
               for label, r in groups.items()])


def _forced_missed(doc: Doc, res: Results, groups: dict) -> None:
    if "forced_missed" not in res.games:
        return
    missed = {label: int((res.games["forced_missed"][r] > 0).sum()) for label, r in groups.items()}
    if any(missed.values()):
        doc.p("Games in which a forced tactic was not available when its round came (another arm's "
              "card or the dummy had it; the policy chose instead): "
              + ", ".join(f"{k}: {v}" for k, v in missed.items() if v) + ".")


def _tactic_picks(doc: Doc, res: Results, figdir: Path) -> None:
    cols = sorted(k for k in res.games if k.startswith("tactic_r"))
    free = [c["index"] for c in res.cells if c["tactic_arm"] == "free"]
    if not cols or not free:
        return
    rows = np.concatenate([res.cell_rows(i) for i in free])
    doc.h(3, "Which tactics the policy picks (observation, not a tactic's value)")
    doc.p("How often the policy took each tactic card in the arm where it chooses. A card picked often "
          "is not thereby a good card: its value is the paired effect of forcing it, above.")
    counts: dict = {}
    for col in cols:
        rnd = col[len("tactic_r"):]
        v = [t for t in res.games[col][rows] if t is not None]
        taken, n = np.unique(np.array(v, dtype=str), return_counts=True) if v else ([], [])
        for t, k in zip(taken, n):
            counts.setdefault(str(t), {})[f"round {rnd}"] = k / len(rows)
    if not counts:
        return
    n = len(rows)
    doc.table(["tactic"] + [f"round {c[len('tactic_r'):]}: share [95% Wilson] (games)" for c in cols],
              [[t] + [_share(counts[t].get("round " + c[len("tactic_r"):], 0.0), n) for c in cols]
               for t in sorted(counts)])
    plots.bars(counts, "share of games", "Tactic picks by round (observation)", figdir / "tactics-picks")
    doc.fig("tactics-picks", f"How often the policy took each tactic, per round (n = {len(rows)} games).")


def _share(share: float, n: int) -> str:
    k = int(round(share * n))
    return "-" if k == 0 else f"{proportion_ci(k, n).fmt(3)} ({k})"


def build_report(res: Results, figdir: Path, metrics: Optional[list] = None,
                 correction: str = "holm") -> Doc:
    """The report's document; its figures are written into ``figdir``."""
    m = res.manifest
    e = m["experiment"]
    seats = res.players > 1
    if seats:
        from .report_seats import DEFAULT_SEAT_METRICS, build_seats_report
    metrics = list(metrics) if metrics else (DEFAULT_SEAT_METRICS if seats else
                                             ["score", "win"] if res.solo_conquest else ["fame", "score"])
    for name in metrics:
        if name != "win" and name != "defeated" and (name not in res.games or res.games[name].dtype == object):
            known = sorted(k for k, v in res.games.items() if v.dtype not in (object, bool) and k not in
                           ("cell", "game_index", "player", "seed", "finished", "seconds")) + ["win"]
            raise ReportError(f"--metric: no metric {name!r} in {res.out / 'games.parquet'}; "
                              f"known: {', '.join(known)}")
        if name == "win" and not res.solo_conquest and not seats:
            raise ReportError(f"--metric: 'win' needs a scenario that can be won; {e['scenario']} ends by the round limit")
    doc = Doc()
    doc.h(1, f"mksim report: {e['name']}")
    if e.get("description"):
        doc.p(e["description"])
    policies = e["factors"]["policies"]
    doc.bullets([
        f"scenario {e['scenario'].replace('_', '-')}, {len(res.cells)} cells x {e['games']} games "
        f"(n = {e['games']} per cell, {len(res.cells) * e['games']} games), root seed {m['root_seed']}"
        + (f"; {res.players} heroes per game, one row per game and seat" if seats else ""),
        f"mksim {m['mksim']}, commit {m.get('git_commit') or '-'}, run {m['run'].get('started')} - "
        f"{m['run'].get('ended')}",
        "intervals: 95%; means with bootstrap (BCa) intervals, rates with Wilson intervals; paired tests "
        f"on shared seeds, {correction}-adjusted within each table",
    ])
    hidden = [q["label"] for p in policies for q in (p.get("seats") or [p]) if _sees_hidden(q["name"])]
    if hidden:
        doc.p("Policies that see hidden information (not comparable with honest play): "
              + ", ".join(hidden) + ".")
    if seats:
        build_seats_report(res, figdir, metrics, correction, doc)
        return doc
    doc.h(2, "Cells")
    _cell_table(doc, res, metrics)
    for key, fname, title, reference in FACTOR_SECTIONS:
        _factor_section(doc, res, key, fname, title, reference, metrics, figdir, correction)
    if len(res.cells) == 1:
        c = res.cells[0]
        plots.per_round(_per_round_curves(res, {c["label"]: c["index"]}), "mean Fame",
                        f"Fame per round ({c['label']})", figdir / "cell-rounds")
        doc.fig("cell-rounds", "Mean Fame at each round's end with 95% bootstrap bands.")
    return doc


def _sees_hidden(name: str) -> bool:
    try:
        from .policies.registry import policy_class
        return bool(policy_class(name).metadata.get("sees_hidden", False))
    except Exception:                  # noqa: BLE001 - an unknown plug-in: go by its name
        return name.startswith("oracle")


def write_report(out: Path, metrics: Optional[list] = None, correction: str = "holm") -> tuple[Path, Path, int]:
    """Write ``out/report.md``, ``out/report.html`` and ``out/figures/`` from the stored results.

    Everything is made in a temporary folder inside ``out`` and moved into place when complete,
    so a failed report leaves the previous one (or none) and nothing half-written.
    """
    if correction not in ("holm", "bh"):
        raise ReportError(f"--correction: unknown correction {correction!r}; choose holm or bh")
    res = load_results(out)
    out = Path(out)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=".report-", dir=out))
    except OSError as err:
        raise ReportError(f"{out}: cannot write the report here ({err.strerror})") from None
    try:
        figdir = tmp / FIGURES
        figdir.mkdir()
        doc = build_report(res, figdir, metrics, correction)
        (tmp / REPORT_MD).write_text(doc.markdown(), encoding="utf-8")
        title = f"mksim report: {res.manifest['experiment']['name']}"
        (tmp / REPORT_HTML).write_text(doc.html(figdir, title), encoding="utf-8")
        final_fig = out / FIGURES
        old = out / f".{FIGURES}.old{os.getpid()}"
        if final_fig.exists():
            os.replace(final_fig, old)
        os.replace(figdir, final_fig)
        for name in (REPORT_MD, REPORT_HTML):
            os.replace(tmp / name, out / name)
        if old.exists():
            shutil.rmtree(old)
        return out / REPORT_MD, out / REPORT_HTML, len(doc.figures)
    except OSError as err:
        raise ReportError(f"{out}: cannot write the report ({err.strerror or err})") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
