"""``mksim play`` and ``mksim bench`` (mksim/cli.py)."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from content_edit import pretend_engine_declares
from mksim.cli import EXIT_STOPPED, app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def assert_error(result, *parts):
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for p in parts:
        assert p in result.output


def assert_ended_or_stopped(result):
    assert result.exit_code in (0, EXIT_STOPPED), result.output
    assert "Traceback" not in result.output
    last = result.output.strip().splitlines()[-1]
    if result.exit_code == EXIT_STOPPED:
        assert last.startswith("game stopped: ")
    else:
        assert last.startswith("game over: ") or ": game over:" in last


@pytest.mark.parametrize("scenario", ["first-reconnaissance", "solo-conquest"])
def test_play_log_tells_the_game(scenario):
    r = run("play", "--scenario", scenario, "--hero", "arythea", "--policy", "random", "--seed", 7, "--log")
    assert_ended_or_stopped(r)
    out = r.output
    assert "== Round 1 (Day) ==" in out
    assert "take tactic " in out and "the dummy takes " in out
    assert "-- Arythea's turn" in out


def test_play_without_log_prints_one_line_per_game():
    r = run("play", "--seed", 3)
    assert_ended_or_stopped(r)
    assert r.output.startswith("first-reconnaissance / arythea / policy random")


def test_play_all_heroes_and_scenarios():
    r = run("play", "--hero", "all", "--scenario", "all", "--seed", 2)
    assert r.exit_code in (0, EXIT_STOPPED), r.output
    heads = [ln for ln in r.output.splitlines() if " / policy " in ln]
    assert len(heads) == 10
    if r.exit_code == EXIT_STOPPED:
        assert "game stopped: " in r.output


def test_play_stops_with_status_3_at_a_missing_rule(tmp_path, monkeypatch):
    # content validation refuses a handler the engine does not declare: pretend it declares
    # one that it does not implement (a stand-in for any rule not implemented yet)
    pretend_engine_declares(monkeypatch, "mksim_test_missing_rule")
    gap = tmp_path / "gap.toml"
    gap.write_text('[basic_actions.march]\nbasic = "handler(mksim_test_missing_rule)"\n'
                   '[basic_actions.swiftness]\nbasic = "handler(mksim_test_missing_rule)"\n')
    r = run("play", "--content", gap, "--policy", "first", "--log", "--seed", 1)
    assert r.exit_code == EXIT_STOPPED, r.output
    assert r.output.strip().splitlines()[-1].startswith("game stopped: card '")
    assert "mksim_test_missing_rule" in r.output


@pytest.mark.parametrize("args, parts", [
    (("--scenario", "full-conquest"), ("unknown scenario", "first-reconnaissance")),
    (("--hero", "krang"), ("unknown hero", "arythea")),
    (("--policy", "clever"), ("unknown policy", "random")),
    (("--seed", "seven"), ()),
])
def test_play_bad_arguments(args, parts):
    assert_error(run("play", *args), *parts)


def test_bench_json_reports_speed_and_stops():
    r = run("bench", "--games", 20, "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    for key in ("games", "games_finished", "games_stopped", "stopped_by", "top_errors", "seconds",
                "games_per_s", "decisions", "decisions_per_s", "mean_decisions_per_game", "peak_rss_mb"):
        assert key in rep
    assert rep["games"] == 20 and rep["scenario"] == "first_reconnaissance"
    assert rep["games_finished"] + rep["games_stopped"] == 20
    assert sum(rep["stopped_by"].values()) == rep["games_stopped"]
    assert sum(e["games"] for e in rep["top_errors"]) <= rep["games_stopped"]
    assert rep["terminations"].get("none", 0) == rep["games_stopped"] - rep["stopped_by"].get("step_limit", 0)
    assert rep["decisions"] > 0 and rep["peak_rss_mb"] > 0


def test_bench_is_reproducible():
    a = json.loads(run("bench", "--games", 10, "--seed", 4, "--json").output)
    b = json.loads(run("bench", "--games", 10, "--seed", 4, "--json").output)
    for key in ("decisions", "games_finished", "top_errors", "stopped_by"):
        assert a[key] == b[key]


def test_bench_text_output():
    r = run("bench", "--games", 3)
    assert r.exit_code == 0 and "decisions_per_s:" in r.output


@pytest.mark.parametrize("args", [("--games", 0), ("--games", "many"), ("--jobs", 0)])
def test_bench_bad_arguments(args):
    assert_error(run("bench", *args))


# -- bad content reaches no game: one error line, exit 2 (content validated at load) ------------

def _one_error_line(result, *parts):
    assert_error(result, *parts)
    assert [ln for ln in result.output.splitlines() if ln.strip()] == \
        [ln for ln in result.output.splitlines() if ln.startswith("error:")]
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("extra", [(), ("--fixture", "FIXTURE")], ids=["new_game", "fixture"])
def test_play_with_a_mistyped_handler_argument_is_bad_content(tmp_path, extra):
    """The issue's case: it used to pass `content validate` and then die in `play` with an
    18-frame traceback and exit 1."""
    ov = tmp_path / "ice.toml"
    ov.write_text('[advanced_actions.ice_shield]\npowered = "handler(ice_shield_block, blok=3, armor=-3)"\n')
    fixture = tmp_path / "start.json"
    fixture.write_text(json.dumps({"format": 1, "scenario": "first_reconnaissance", "hero": "arythea"}))
    args = [str(fixture) if a == "FIXTURE" else a for a in extra]
    _one_error_line(run("play", "--content", ov, *args), str(ov), "advanced_actions.toml", "card 'ice_shield'",
                    "field 'powered'", "'blok'")


def test_play_with_an_empty_content_folder_is_an_error(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    _one_error_line(run("play", "--content", empty), str(empty), "holds no catalogue file")


@pytest.mark.parametrize("extra", [(), ("--fixture", "FIXTURE")], ids=["new_game", "fixture"])
@pytest.mark.parametrize("stage", ["setup", "bind"])
def test_play_with_content_the_engine_refuses_is_bad_content(tmp_path, monkeypatch, extra, stage):
    """Whatever ValueError the engine still raises on content when a game starts is bad
    content: one error line naming the files and the scenario, exit 2."""
    from content_edit import engine_refuses
    ov = tmp_path / "armor.toml"
    ov.write_text("[enemies.prowlers]\narmor = 4\n")
    fixture = tmp_path / "start.json"
    fixture.write_text(json.dumps({"format": 1, "scenario": "first_reconnaissance", "hero": "arythea"}))
    args = [str(fixture) if a == "FIXTURE" else a for a in extra]
    message = engine_refuses(monkeypatch, stage)
    _one_error_line(run("play", "--content", ov, *args), f"error: {ov}: scenario 'first_reconnaissance': "
                    f"the engine cannot use this content: {message}")
