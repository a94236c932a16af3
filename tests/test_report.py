"""mksim report / mksim experiment (issue 11): reports made from stored results only, tables
checked cell by cell against the stored rows, figures that are valid PNG / SVG files, an HTML
page with no external reference, and bad input refused with nothing half-written."""
from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scipy.stats import wilcoxon
from typer.testing import CliRunner

from mksim.cli import app
from mksim.experiments import load_experiment
from mksim.report import ReportError, load_results, write_report
from mksim.runner import run_experiment

cli = CliRunner()

HEROES = '''name = "rep-small"
scenario = "first-reconnaissance"
games = 24
seed = 13

[factors]
heroes = ["arythea", "tovak"]
policies = ["random", "heuristic"]
'''

ARMS = '''name = "rep-arms"
scenario = "first-reconnaissance"
games = 16
seed = 17

[factors]
heroes = ["norowas"]
policies = ["heuristic"]
lost_legion = [false, true]
[[factors.tactics]]
name = "free"
[[factors.tactics]]
name = "planning-r1"
force = { 1 = "planning" }
'''


def _run(tmp_path_factory, text, name):
    d = tmp_path_factory.mktemp(name)
    p = d / f"{name}.toml"
    p.write_text(text)
    out = d / "out"
    run_experiment(load_experiment(p), out, jobs=1, chunk_size=8)
    return out


@pytest.fixture(scope="module")
def heroes(tmp_path_factory):
    out = _run(tmp_path_factory, HEROES, "heroes")
    write_report(out)
    return out


@pytest.fixture(scope="module")
def arms(tmp_path_factory):
    out = _run(tmp_path_factory, ARMS, "arms")
    write_report(out)
    return out


def _tables(md: str) -> list[list[list[str]]]:
    """The Markdown tables of a report, as rows of cells (header first)."""
    tables, cur = [], []
    for line in md.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not all(set(c) <= {"-"} for c in cells):
                cur.append(cells)
        elif cur:
            tables.append(cur)
            cur = []
    return tables


def _games(out: Path):
    t = pq.read_table(out / "games.parquet").to_pydict()
    return {k: np.array(v) for k, v in t.items()}


def _cell(g, cell):
    rows = np.flatnonzero(g["cell"] == cell)
    return rows[np.argsort(g["game_index"][rows])]


def test_cell_table_matches_the_stored_rows(heroes):
    md = (heroes / "report.md").read_text()
    g = _games(heroes)
    cell_table = next(t for t in _tables(md) if t[0][0] == "cell")
    assert cell_table[0][:4] == ["cell", "n", "finished", "stopped"]
    assert len(cell_table) == 1 + 4
    for row in cell_table[1:]:
        idx = int(row[0].split()[0])
        r = _cell(g, idx)
        assert row[1] == "24" and row[2] == str(int(g["finished"][r].sum()))
        assert row[4].startswith(f"{g['fame'][r].mean():.2f} [")       # Fame mean [CI]
        lo, hi = map(float, row[4][row[4].index("[") + 1:-1].split(", "))
        assert lo <= g["fame"][r].mean() <= hi
        score = np.array([s for s in g["score"][r] if s is not None], dtype=float)
        assert row[5].startswith(f"{score.mean():.2f} [")
        assert row[6].startswith(f"{g['level'][r].mean():.2f} [")     # every figure with an interval
        assert row[7].startswith(f"{g['combats'][r].mean():.2f} [")


def test_pairwise_rows_are_the_paired_differences_of_the_stored_games(heroes):
    md = (heroes / "report.md").read_text()
    g = _games(heroes)
    labels = {lab: i for i, lab in zip(g["cell"], g["cell_label"])}
    pair_tables = [t for t in _tables(md) if t[0][:3] == ["A", "B", "metric"]]
    # heroes within each of 2 policies (1 pair, 2 metrics) + policies within each of 2 heroes
    assert len(pair_tables) == 4 and all(len(t) == 1 + 2 for t in pair_tables)
    hero_tables = pair_tables[:2]
    for t, pol in zip(hero_tables, ["random", "heuristic"]):
        fame_row = next(r for r in t[1:] if r[2] == "Fame")
        a = _cell(g, labels[f"{fame_row[0]} | {pol}"])
        b = _cell(g, labels[f"{fame_row[1]} | {pol}"])
        d = g["fame"][a].astype(float) - g["fame"][b].astype(float)
        assert fame_row[3] == "24"
        assert fame_row[4].startswith(f"{d.mean():.2f} [")
        if np.any(d != 0):
            assert float(fame_row[6]) == pytest.approx(wilcoxon(g["fame"][a], g["fame"][b]).pvalue, rel=1e-2)
        k = f"{(d > 0).sum()} / {(d < 0).sum()} / {(d == 0).sum()}"
        assert fame_row[9] == k


def test_ranking_orders_by_the_first_metric(heroes):
    md = (heroes / "report.md").read_text()
    rankings = [t for t in _tables(md) if t[0][0] == "rank"]
    assert rankings
    for t in rankings:
        means = [float(r[3].split()[0]) for r in t[1:]]
        assert means == sorted(means, reverse=True)
        assert [r[0] for r in t[1:]] == [str(k) for k in range(1, len(t))]
    # heuristic against random: the policy section's ranking puts heuristic first, and says
    # the two are separated (Fame ~18 against ~0 on 24 paired games)
    pol = [t for t in rankings if {r[1] for r in t[1:]} == {"random", "heuristic"}]
    assert len(pol) == 2 and all(t[1][1] == "heuristic" and t[1][-1] == "yes" for t in pol)
    assert "heuristic has a higher mean Fame than random: +" in md


def test_strategy_section_shows_behaviour(heroes):
    md = (heroes / "report.md").read_text()
    g = _games(heroes)
    beh = [t for t in _tables(md) if t[0][0] == "policy" and "mean combats [95% CI]" in t[0]]
    assert len(beh) == 2
    labels = {lab: i for i, lab in zip(g["cell"], g["cell_label"])}
    col = beh[0][0].index("mean combats [95% CI]")
    for r in beh[0][1:]:
        rows = _cell(g, labels[f"arythea | {r[0]}"])
        assert r[col].startswith(f"{g['combats'][rows].mean():.2f}")


def test_figures_are_valid_png_and_svg_and_the_html_is_self_contained(heroes):
    md = (heroes / "report.md").read_text()
    figs = re.findall(r"\(figures/([^)]+)\.png\)", md)
    assert len(figs) >= 6
    for f in figs:
        png = (heroes / "figures" / f"{f}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 2000
        root = ET.parse(heroes / "figures" / f"{f}.svg").getroot()
        assert root.tag.endswith("svg")
    page = (heroes / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "http://" not in page and "https://" not in page
    srcs = re.findall(r'src="([^"]*)"', page)
    assert len(srcs) == len(figs) and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert "<table>" in page and "Heroes" in page and "Strategies" in page
    assert not list(heroes.glob(".report-*"))


def test_arm_sections_compare_against_their_reference(arms):
    md = (arms / "report.md").read_text()
    assert "## The Lost Legion" in md and "## Tactics" in md
    pair_tables = [t for t in _tables(md) if t[0][:3] == ["A", "B", "metric"]]
    ll = [t for t in pair_tables if t[1][1] == "without The Lost Legion"]
    tac = [t for t in pair_tables if t[1][1] == "free"]
    assert len(ll) == 2 and len(tac) == 2            # per tactic arm / per Lost Legion level
    assert all(t[1][0] == "with The Lost Legion" for t in ll)
    assert all(t[1][0] == "planning-r1" for t in tac)
    assert "Which tactics the policy picks (observation, not a tactic's value)" in md
    assert (arms / "figures" / "tactics-picks.png").exists()


def test_report_is_reproducible(heroes, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(heroes, copy, ignore=shutil.ignore_patterns("report.*", "figures"))
    write_report(copy)
    assert (copy / "report.md").read_text() == (heroes / "report.md").read_text()


# -- bad input: one line, exit 2, nothing half-written ---------------------------------------

def _assert_error(result, *parts):
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error:") and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    for p in parts:
        assert p in result.output, result.output


def test_missing_folder(tmp_path):
    _assert_error(cli.invoke(app, ["report", str(tmp_path / "nope")]), "no such results folder")


def test_folder_without_results(tmp_path):
    _assert_error(cli.invoke(app, ["report", str(tmp_path)]), "no manifest.json")


def test_incomplete_run_is_refused(heroes, tmp_path):
    copy = tmp_path / "inc"
    shutil.copytree(heroes, copy)
    (copy / "games.parquet").unlink()
    _assert_error(cli.invoke(app, ["report", str(copy)]), "not complete", "--resume")


def test_older_format_is_refused(heroes, tmp_path):
    copy = tmp_path / "old"
    shutil.copytree(heroes, copy)
    t = pq.read_table(copy / "games.parquet").drop(["wounds_taken"])
    pq.write_table(t, copy / "games.parquet")
    _assert_error(cli.invoke(app, ["report", str(copy)]), "older or other format", "wounds_taken")


def test_rows_missing_are_refused(heroes, tmp_path):
    copy = tmp_path / "rows"
    shutil.copytree(heroes, copy)
    t = pq.read_table(copy / "games.parquet")
    pq.write_table(t.slice(0, t.num_rows - 3), copy / "games.parquet")
    _assert_error(cli.invoke(app, ["report", str(copy)]), "93 rows", "need 96")


def test_unknown_metric_leaves_the_previous_report(heroes):
    before = (heroes / "report.md").read_bytes()
    _assert_error(cli.invoke(app, ["report", str(heroes), "--metric", "glory"]), "no metric 'glory'")
    _assert_error(cli.invoke(app, ["report", str(heroes), "--metric", "win"]), "'win' needs")
    _assert_error(cli.invoke(app, ["report", str(heroes), "--correction", "sidak"]), "unknown correction")
    assert (heroes / "report.md").read_bytes() == before
    assert not list(heroes.glob(".report-*")) and not list(heroes.glob(".figures.old*"))


def test_report_command_and_chosen_metric(heroes, tmp_path):
    copy = tmp_path / "m"
    shutil.copytree(heroes, copy, ignore=shutil.ignore_patterns("report.*", "figures"))
    r = cli.invoke(app, ["report", str(copy), "--metric", "combats"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"report: {copy / 'report.md'} and {copy / 'report.html'}")
    md = (copy / "report.md").read_text()
    assert "| combats entered [95% CI] |" in md and "Fame [95% CI]" not in md


def test_experiment_command_runs_and_reports(tmp_path):
    p = tmp_path / "e.toml"
    p.write_text(HEROES.replace("games = 24", "games = 6").replace('"random", "heuristic"', '"random"'))
    out = tmp_path / "res"
    r = cli.invoke(app, ["experiment", str(p), "--out", str(out), "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    assert (out / "games.parquet").exists() and (out / "report.html").exists()
    assert "report:" in r.output and "arythea | random" in r.output
    res = load_results(out)
    assert len(res.games["fame"]) == 12
    # another experiment into the same folder: refused (exit 2, nothing changed) unless --overwrite
    p.write_text(p.read_text().replace("seed = 13", "seed = 14"))
    before = (out / "games.parquet").read_bytes()
    r2 = cli.invoke(app, ["experiment", str(p), "--out", str(out), "--jobs", "1", "--quiet"])
    assert r2.exit_code == 2 and "different experiment" in r2.output
    assert (out / "games.parquet").read_bytes() == before
    r3 = cli.invoke(app, ["experiment", str(p), "--out", str(out), "--jobs", "1", "--quiet", "--overwrite"])
    assert r3.exit_code == 0, r3.output
    assert load_results(out).manifest["root_seed"] == 14


def test_a_pair_is_identical_only_when_every_metric_ties_on_every_seed():
    # wins tied on every seed (no arm won) while Fame clearly differs: the report must state the
    # Fame difference and must not call the arms identical; a pair tied on every metric is
    from mksim.report import Doc, _conclusions
    from mksim.stats import paired_difference
    rng = np.random.default_rng(3)
    fa = rng.normal(10, 2, 200)
    zero = np.zeros(200)
    fame = paired_difference(fa + 3, fa)
    win = paired_difference(zero, zero)
    assert win.ties == win.n == 200 and fame.diff.excludes(0.0)
    comps = [(0, 1, "fame", fame), (0, 1, "won", win), (0, 2, "fame", paired_difference(fa, fa)),
             (0, 2, "won", win)]
    p_adj = {(0, 1, "fame"): 1e-9, (0, 1, "won"): 1.0, (0, 2, "fame"): 1.0, (0, 2, "won"): 1.0}
    doc = Doc()
    _conclusions(doc, comps, p_adj, {0: "A", 1: "B", 2: "C"})
    text = doc.markdown()
    assert "Identical on every seed" in text and "A and C" in text
    ident = next(b[1] for b in doc.blocks if b[0] == "p" and b[1].startswith("Identical"))
    assert "A and B" not in ident
    assert any(b[0] == "ul" and any("A" in x and "B" in x for x in b[1]) for b in doc.blocks)
