"""Precision-driven experiments (issue 11): rounds of games are added until every cell's 95%
interval of the target metric is narrower than the target, or the cap is reached (a warning,
exit 0); the seeds stay shared, so the stored games are the first N of every cell."""
from __future__ import annotations

import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from mksim.cli import app
from mksim.experiments import ExperimentError, load_experiment
from mksim.stats import mean_ci

cli = CliRunner()

EXP = '''name = "prec"
scenario = "first-reconnaissance"
games = 20
seed = 8
chunk_size = 10

[factors]
heroes = ["arythea", "goldyx"]
policies = ["random"]

[precision]
metric = "score"
ci_width = {width}
max_games = 120
'''


def _write(tmp_path, width, name="p.toml"):
    p = tmp_path / name
    p.write_text(EXP.format(width=width))
    return p


def _widths(out, games):
    t = pq.read_table(out / "games.parquet").to_pydict()
    cell, gi = np.array(t["cell"]), np.array(t["game_index"])
    score = np.array([np.nan if s is None else s for s in t["score"]], dtype=float)
    res = []
    for c in (0, 1):
        x = score[(cell == c) & (gi < games)]
        res.append(mean_ci(x[~np.isnan(x)], seed=len(x)).width)
    return res


def test_stops_at_the_first_round_that_reaches_the_target(tmp_path):
    out = tmp_path / "out"
    r = cli.invoke(app, ["run", str(_write(tmp_path, 6.0)), "--out", str(out), "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    m = json.loads((out / "manifest.json").read_text())
    p = m["precision"]
    games = p["games"]
    assert p["reached"] and p["stopped_by"] == "target" and games % 20 == 0 and games < 120
    assert m["experiment"]["games"] == games and m["games_total"] == 2 * games
    t = pq.read_table(out / "games.parquet")
    assert t.num_rows == 2 * games
    gi = t.column("game_index").to_pylist()
    assert sorted(gi[:games]) == list(range(games))          # the first N games of each cell
    assert max(_widths(out, games)) < 6.0
    if games > 20:                                            # the round before did not reach it
        assert max(_widths(out, games - 20)) >= 6.0
    assert f"reached after {games} games per cell" in r.output


def test_cap_reached_warns_and_exits_0(tmp_path):
    out = tmp_path / "out"
    r = cli.invoke(app, ["run", str(_write(tmp_path, 0.01)), "--out", str(out), "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    m = json.loads((out / "manifest.json").read_text())
    assert m["precision"]["games"] == 120 and not m["precision"]["reached"]
    assert m["precision"]["stopped_by"] == "max_games"
    assert "warning: precision target not reached" in r.output and "max_games = 120" in r.output
    # the report is made from the stored 120 games per cell
    r2 = cli.invoke(app, ["report", str(out)])
    assert r2.exit_code == 0, r2.output
    assert "| 0 arythea \\| random | 120 |" in (out / "report.md").read_text()


def test_same_rows_for_any_jobs_and_a_rerun_adds_nothing(tmp_path):
    exp = _write(tmp_path, 6.0)
    a, b = tmp_path / "a", tmp_path / "b"
    assert cli.invoke(app, ["run", str(exp), "--out", str(a), "--jobs", "1", "--quiet"]).exit_code == 0
    assert cli.invoke(app, ["run", str(exp), "--out", str(b), "--jobs", "2", "--quiet"]).exit_code == 0
    ta = pq.read_table(a / "games.parquet").drop(["seconds"])
    tb = pq.read_table(b / "games.parquet").drop(["seconds"])
    assert ta.equals(tb)
    r = cli.invoke(app, ["run", str(exp), "--out", str(a), "--jobs", "1", "--quiet"])
    assert r.exit_code == 0 and "already stored" in r.output


@pytest.mark.parametrize("body, message", [
    ('[precision]\nci_width = 1.0\n', "missing key 'max_games'"),
    ('[precision]\nci_width = 0\nmax_games = 100\n', "ci_width: must be a number > 0"),
    ('[precision]\nci_width = 1.0\nmax_games = 10\n', "max_games: 10 is less than games = 20"),
    ('[precision]\nci_width = 1.0\nmax_games = 100\nmetric = "glory"\n', "unknown metric 'glory'"),
    ('[precision]\nci_width = 1.0\nmax_games = 100\nmetric = "win"\n', "'win' needs a scenario that can be won"),
    ('[precision]\nci_width = 1.0\nmax_games = 100\nstep = 5\n', "unknown key 'step'"),
])
def test_bad_precision_tables(tmp_path, body, message):
    p = tmp_path / "bad.toml"
    p.write_text('name = "x"\nscenario = "first-reconnaissance"\ngames = 20\nseed = 1\n' + body)
    with pytest.raises(ExperimentError, match="precision") as err:
        load_experiment(p)
    assert message in str(err.value)
    r = cli.invoke(app, ["run", str(p), "--out", str(tmp_path / "o"), "--quiet"])
    assert r.exit_code == 2 and r.output.startswith("error:") and message in r.output
    assert not (tmp_path / "o").exists()
