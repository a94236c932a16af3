"""mksim report, mksim experiment and mksim check on games of several heroes (issue 12; one
row per game and seat; docs/reports.md "Several heroes"): every number of the per-seat
tables recomputed from the stored rows with pandas and scipy, comparisons paired by game
index, the gate per seat, and bad input refused with one line."""
from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest, bootstrap, wilcoxon
from typer.testing import CliRunner

from mksim.cli import app
from mksim.experiments import load_experiment
from mksim.report import write_report
from mksim.runner import run_experiment

cli = CliRunner()

# two line-ups (tovak and arythea swap seats 0 and 1) x two policy arms: 4 cells of 6 games
MP = '''name = "mp-report"
scenario = "first-reconnaissance"
games = 6
seed = 13
players = 3

[factors]
seats = [["tovak", "arythea", "goldyx"], ["arythea", "tovak", "goldyx"]]
policies = ["random", ["eager", "heuristic", "random:stream=4"]]
'''

GATE = '''name = "mp-gate"
scenario = "first-reconnaissance"
games = 4
seed = 5
max_steps = 220        # 3 of these 4 games are stopped: score, won and rank are null on their rows
players = 2

[factors]
seats = [["goldyx", "norowas"], ["norowas", "goldyx"]]       # a rotation: each hero in each seat once
policies = ["random"]
'''


def invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def mp(tmp_path_factory):
    d = tmp_path_factory.mktemp("mprep")
    (d / "mp.toml").write_text(MP)
    out = d / "out"
    run_experiment(load_experiment(d / "mp.toml"), out, jobs=1, chunk_size=3)
    write_report(out)
    games = pd.read_parquet(out / "games.parquet")
    return out, games, (out / "report.md").read_text()


def _tables(md: str, section: str) -> list:
    """The Markdown tables between ``## section`` and the next ``## `` heading (header first)."""
    body = md.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    tables, cur = [], []
    for line in body.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not all(set(c) <= {"-"} for c in cells):
                cur.append(cells)
        elif cur:
            tables.append(cur)
            cur = []
    return tables


def _ci(text: str) -> tuple[float, float, float]:
    v, rest = text.split(" [")
    lo, hi = rest.rstrip("]").split(", ")
    return float(v), float(lo), float(hi)


def _boot(v) -> tuple[float, float]:
    """The 95% BCa bootstrap interval of a mean, straight from scipy (2,000 resamples, seeded
    by n as docs/reports.md says)."""
    v = np.asarray(v, dtype=float)
    if np.all(v == v[0]):
        return v[0], v[0]
    r = bootstrap((v,), np.mean, n_resamples=2000, method="BCa", random_state=np.random.default_rng(len(v)))
    return r.confidence_interval.low, r.confidence_interval.high


def _seat(games, cell, seat):
    return games[(games.cell == cell) & (games.player == seat)].sort_values("game_index")


def test_seat_table_is_the_stored_rows(mp):
    out, games, md = mp
    (t,) = _tables(md, "Seats")
    assert t[0] == ["cell", "seat", "hero (policy)", "n", "finished", "Fame [95% CI]", "score [95% CI]",
                    "win rate [95% CI]", "wins (shared)", "mean rank [95% CI]"]
    assert len(t) == 1 + 4 * 3
    # a shared win: a game in which more than one seat won
    winners = games[games.won == True].groupby(["cell", "game_index"]).size()     # noqa: E712
    for row in t[1:]:
        cell, seat = int(row[0].split()[0]), int(row[1])
        s = _seat(games, cell, seat)
        fin = s[s.finished]
        assert row[2] == f"{s.hero.iloc[0]} ({s.policy_label.iloc[0]})"
        assert (int(row[3]), int(row[4])) == (6, len(fin))
        fame, lo, hi = _ci(row[5])
        blo, bhi = _boot(s.fame)
        assert (fame, lo, hi) == pytest.approx((round(s.fame.mean(), 2), round(blo, 2), round(bhi, 2)), abs=0.006)
        assert _ci(row[6])[0] == pytest.approx(fin.score.astype(float).mean(), abs=0.006)
        k = int(fin.won.sum())
        w = binomtest(k, len(fin)).proportion_ci(method="wilson")
        assert _ci(row[7]) == pytest.approx((k / len(fin), w.low, w.high), abs=0.0006)
        shared = sum(winners.get((cell, g), 0) > 1 for g in fin[fin.won == True].game_index)   # noqa: E712
        assert row[8] == f"{k} ({shared})"
        assert _ci(row[9])[0] == pytest.approx(fin["rank"].astype(float).mean(), abs=0.006)
    # these seeds hold ties for the win (cell 2: a three-way tie in game 0, a two-way one in game 3):
    # every tied seat counts the win, so cell 2's win rates add up to more than 1
    assert winners.get((2, 0)) == 3 and winners.get((2, 3)) == 2
    cell2 = [r for r in t[1:] if r[0].startswith("2 ")]
    assert sum(int(r[8].split()[1].strip("()")) for r in cell2) == 3 + 2
    assert sum(_ci(r[7])[0] for r in cell2) > 1
    # the heuristic seat of cell 1 (arythea) won all 6 games of these seeds, the eager one none
    assert t[1 + 3 + 1][7].startswith("1.000 [") and t[1 + 3][7].startswith("0.000 [")


def test_rank_table_counts_each_rank(mp):
    _, games, md = mp
    t = _tables(md, "Ranks")[0]
    assert t[0][4:] == [f"rank {k} [95% Wilson] (games)" for k in (1, 2, 3)]
    for row in t[1:]:
        s = _seat(games, int(row[0].split()[0]), int(row[1]))
        fin = s[s.finished]
        for k in (1, 2, 3):
            c = int((fin["rank"] == k).sum())
            assert row[3 + k].endswith(f"({c})") and row[3 + k].startswith(f"{c / len(fin):.3f} [")
    # every finished game has a rank-1 seat, so each cell's rank-1 counts add up to >= its games
    for cell in range(4):
        ones = sum(int(r[4].rsplit("(", 1)[1][:-1]) for r in t[1:] if int(r[0].split()[0]) == cell)
        assert ones >= int(games[(games.cell == cell) & (games.player == 0)].finished.sum())


def test_heroes_across_seats_pool_every_seat_a_hero_sat_in(mp):
    _, games, md = mp
    t = _tables(md, "Heroes across seats")[0]
    row = next(r for r in t[1:] if r[:2] == ["tovak", "random"])
    rows = games[(games.hero == "tovak") & (games.policy_label == "random")]
    assert row[2:5] == ["0,1", "2", "12"]                  # seat 0 in line-up 1, seat 1 in line-up 2
    assert _ci(row[5])[0] == pytest.approx(rows.fame.mean(), abs=0.006)


def test_seat_position_is_paired_by_game(mp):
    _, games, md = mp
    tables = _tables(md, "Seat position")
    assert len(tables) == 4                                # one per cell
    t = tables[1]                                          # cell 1: eager / heuristic / random
    a, b = _seat(games, 1, 0), _seat(games, 1, 1)
    both = a.finished.values & b.finished.values
    sa, sb = a.score.values[both].astype(float), b.score.values[both].astype(float)
    row = next(r for r in t[1:] if r[2] == "score" and r[1].startswith("seat 1 "))
    d = sa - sb
    assert int(row[3]) == both.sum() and _ci(row[4])[0] == pytest.approx(d.mean(), abs=0.006)
    p = wilcoxon(sa, sb).pvalue
    assert float(row[6]) == pytest.approx(p, rel=1e-2)
    # Holm over the two seats k = 1, 2 on score
    row2 = next(r for r in t[1:] if r[2] == "score" and r[1].startswith("seat 2 "))
    p2 = float(row2[6])
    holm = min(1.0, 2 * min(p, p2)) if p <= p2 else max(min(1.0, 2 * p2), min(1.0, p))
    assert float(row[7]) == pytest.approx(holm, rel=1e-2)
    assert row[9] == f"{(d > 0).sum()} / {(d < 0).sum()} / {(d == 0).sum()}"
    # the win: McNemar exact on the discordant games
    wa, wb = a.won.values[both].astype(bool), b.won.values[both].astype(bool)
    only_a, only_b = int((wa & ~wb).sum()), int((~wa & wb).sum())
    wrow = next(r for r in t[1:] if r[2] == "win rate" and r[1].startswith("seat 1 "))
    assert wrow[5] == "mcnemar exact" and wrow[9].startswith(f"{only_a} / {only_b} / ")
    if only_a + only_b:
        assert float(wrow[6]) == pytest.approx(binomtest(only_a, only_a + only_b).pvalue, rel=1e-2)


def test_arms_are_compared_seat_by_seat_on_shared_game_seeds(mp):
    _, games, md = mp
    # strategies within each line-up: 1 pair x 3 seats x 3 metrics per table
    tables = _tables(md, "Strategies")
    assert len(tables) == 2 and all(len(t) == 1 + 9 for t in tables)
    t = tables[0]                                          # line-up tovak,arythea,goldyx: cells 0 and 1
    for seat in range(3):
        row = next(r for r in t[1:] if r[2] == "Fame" and f" seat {seat} " in r[0])
        m = _seat(games, 0, seat).merge(_seat(games, 1, seat), on="game_index", suffixes=("_a", "_b"))
        d = (m.fame_a - m.fame_b).astype(float)
        assert int(row[3]) == 6 and _ci(row[4])[0] == pytest.approx(d.mean(), abs=0.006)
        if (d != 0).any():
            assert float(row[6]) == pytest.approx(wilcoxon(m.fame_a, m.fame_b).pvalue, rel=1e-2)
    # line-ups within each policy arm, too
    assert len(_tables(md, "Line-ups of heroes")) == 2
    assert "Seat position" in md and "figures/seats-win.png" in md and "figures/seats-ranks.png" in md


def test_experiment_and_check_work_per_seat(tmp_path):
    exp = tmp_path / "gate.toml"
    exp.write_text(GATE)
    out = tmp_path / "e"
    r = invoke("experiment", exp, "--out", out, "--jobs", 1, "--quiet")
    assert r.exit_code == 0, r.output
    games = pd.read_parquet(out / "games.parquet")
    assert games.finished.sum() == 4 and games.won.isna().sum() == 12     # one finished game per cell
    md = (out / "report.md").read_text()
    (t,) = _tables(md, "Seats")
    for row in t[1:]:
        s = _seat(games, int(row[0].split()[0]), int(row[1]))
        fin = s[s.finished]
        assert row[3:5] == ["4", "1"]                      # n counts every game, the win the finished one
        assert _ci(row[5])[0] == pytest.approx(s.fame.mean(), abs=0.006)
        sc = float(fin.score.iloc[0])
        assert row[6] == f"{sc:.2f} [{sc:.2f}, {sc:.2f}]"
        assert row[7].startswith(f"{int(fin.won.iloc[0]):.3f} [")
    # the two line-ups rotate goldyx and norowas: seat 0 − seat 1 averaged over both cells per game
    rot = _tables(md, "Seat position")[2]
    d = {m: (_seat(games, 0, 0)[m].values.astype(float) + _seat(games, 1, 0)[m].values.astype(float)
             - _seat(games, 0, 1)[m].values.astype(float) - _seat(games, 1, 1)[m].values.astype(float)) / 2
         for m in ("fame", "score")}
    row = next(r for r in rot[1:] if r[2] == "Fame")
    assert row[:2] == ["seat 0", "seat 1"] and int(row[3]) == 4
    assert _ci(row[4])[0] == pytest.approx(d["fame"].mean(), abs=0.006)
    row = next(r for r in rot[1:] if r[2] == "score")
    done = ~np.isnan(d["score"])                           # the game indices finished in both cells
    assert int(row[3]) == done.sum() == 1 and _ci(row[4])[0] == pytest.approx(d["score"][done].mean(), abs=0.006)
    base = tmp_path / "base.json"
    r = invoke("check", exp, "--save-baseline", base, "--jobs", 1)
    assert r.exit_code == 0, r.output
    b = json.loads(base.read_text())
    label = "goldyx,norowas | random"               # cell 0
    assert b["experiment"]["players"] == 2
    assert set(b["cells"]) == {f"{lab} | {u}" for lab in (label, "norowas,goldyx | random")
                               for u in ("seat 0", "seat 1", "game")}
    seat1 = _seat(games, 0, 1)
    assert b["cells"][f"{label} | seat 1"]["fame"] == seat1.fame.tolist()
    assert b["cells"][f"{label} | seat 1"]["win"] == [None if pd.isna(w) else int(w) for w in seat1.won]
    assert b["cells"][f"{label} | game"] == {"rounds": seat1.rounds.tolist()}
    r = invoke("check", exp, "--baseline", base, "--jobs", 1)
    assert r.exit_code == 0 and "check: ok" in r.output, r.output
    lines = [ln for ln in r.output.splitlines() if ln.startswith(("goldyx,norowas", "norowas,goldyx"))]
    assert len(lines) == 2 * (2 * 7 + 1) and all(ln.rstrip().endswith("same") for ln in lines)

    # bad input: one line, exit 2
    bad = dict(b, cells={k: v for k, v in b["cells"].items() if not k.endswith("seat 1")})
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    r = invoke("check", exp, "--baseline", tmp_path / "bad.json", "--jobs", 1)
    assert r.exit_code == 2 and r.output.count("\n") == 1
    assert r.output.startswith("error: --baseline: ") and f"no values of 'fame' for cell '{label} | seat 1'" in r.output
    solo = dict(b, experiment={k: v for k, v in b["experiment"].items() if k != "players"})
    (tmp_path / "solo.json").write_text(json.dumps(solo))
    r = invoke("check", exp, "--baseline", tmp_path / "solo.json", "--jobs", 1)
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "(players: 1, this run: 2)" in r.output


def test_shipped_seat_position_experiment_is_a_balanced_rotation():
    from pathlib import Path
    e = load_experiment(Path(__file__).resolve().parents[1] / "experiments" / "seat-position.toml")
    assert e.players == 3 and len(e.cells) == 3
    for s in range(3):                                     # each hero in each seat exactly once
        assert sorted(c.seats[s] for c in e.cells) == ["arythea", "goldyx", "tovak"]
