"""mksim run for games of several heroes (issue 12; docs/experiments.md "Several heroes"):
experiment files with ``players`` and a ``seats`` factor, policies per seat, one games row
per game and player and one rounds row per game, player and round, identical rows for any
jobs / chunk size, replay of every seat's row, the per-seat summary, every hero combination
of 2, 3 and 4 seats played to the end, and bad input."""
from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from mksim import results as store
from mksim.cli import app
from mksim.experiments import ExperimentError, load_experiment
from mksim.game import Game
from mksim.policies import Policy, get_policy, register, unregister
from mksim.runner import choose_checked, run_experiment, seat_policies

cli = CliRunner()
HEROES = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")     # content order

MP = '''name = "mp"
scenario = "first-reconnaissance"
games = 6
seed = 13
players = 3

[factors]
seats = [["tovak", "arythea", "goldyx"]]
policies = ["random", ["eager", "heuristic", "random:stream=4"]]
'''


def invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


def write(tmp_path, text, name="x.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def table(path: Path, kind: str = "games"):
    t = pq.read_table(path / f"{kind}.parquet")
    return t.drop([c for c in store.TIMING_COLUMNS if c in t.column_names])


@pytest.fixture(scope="module")
def mp(tmp_path_factory):
    """The 3-hero experiment run once in this process (jobs 1, chunks of 4): the reference."""
    d = tmp_path_factory.mktemp("mp")
    exp = load_experiment(write(d, MP, "mp.toml"))
    out = d / "ref"
    manifest = run_experiment(exp, out, jobs=1, chunk_size=4)
    return d / "mp.toml", exp, out, manifest


def play_direct(heroes, specs, seed, k):
    """Game k played decision by decision through the public API (State.current_player,
    State.apply), each seat by its own policy: the reference the stored rows must match."""
    g = Game("first-reconnaissance", heroes=list(heroes))
    s = g.new_state(seed, k)
    pols = seat_policies(specs, len(heroes))
    for p in pols:
        p.reset(seed, k)
    while not s.is_terminal():
        s.apply(choose_checked(pols[s.current_player()], s, s.legal_actions()))
    return s


# -- experiment files -----------------------------------------------------------------------

def test_cells_seats_and_per_seat_policies(mp):
    _, exp, _, _ = mp
    assert exp.players == 3 and len(exp.cells) == 2
    c0, c1 = exp.cells
    assert c0.seats == ("tovak", "arythea", "goldyx") and c0.hero == "tovak"
    assert c0.label == "tovak,arythea,goldyx | random"
    assert c1.label == "tovak,arythea,goldyx | eager / heuristic / random:stream=4"
    # one policy for all seats: seat k on stream + k (no two seats share a stream); per seat too
    assert [p["stream"] for _, p, _ in c0.seat_specs()] == [0, 1, 2]
    assert [(n, p.get("stream")) for n, p, _ in c1.seat_specs()] == [("eager", 0), ("heuristic", 1), ("random", 6)]
    ps = seat_policies(["eager", "heuristic", "random:stream=4"], 3)       # mksim play: the same streams
    assert (ps[0].parameters["stream"], ps[2].parameters["stream"]) == (0, 6)
    cfg = exp.config()
    assert cfg["players"] == 3 and cfg["factors"]["seats"] == [["tovak", "arythea", "goldyx"]]
    # --resume and replay rebuild the experiment from the manifest: the same cells and fingerprint
    from mksim.experiments import experiment_from_config
    back = experiment_from_config(mp[3]["experiment"], "manifest")
    assert back.players == 3 and back.cells == exp.cells and back.fingerprint() == exp.fingerprint()
    assert cfg["cells"][1]["seat_policies"][2] == {"name": "random", "params": {"stream": 4},
                                                   "label": "random:stream=4"}


def test_seats_all_is_every_set_of_different_heroes(tmp_path):
    for n, count in ((2, 10), (3, 10), (4, 5)):
        exp = load_experiment(write(tmp_path, MP.replace("players = 3", f"players = {n}")
                                    .replace('seats = [["tovak", "arythea", "goldyx"]]', 'seats = "all"')
                                    .replace(', ["eager", "heuristic", "random:stream=4"]', "")))
        sets = [c.seats for c in exp.cells]
        assert len(sets) == count and sorted(map(frozenset, sets)) == sorted(
            map(frozenset, itertools.combinations(HEROES, n)))


def test_solo_experiments_keep_their_configuration():
    """A solo experiment's resolved configuration (what its fingerprint hashes) has none of
    the keys of several heroes, so its fingerprint and rows are those of before."""
    exp = load_experiment(Path(__file__).resolve().parents[1] / "experiments" / "default.toml")
    cfg = exp.config()
    assert exp.players == 1 and "players" not in cfg and "seats" not in cfg["factors"]
    assert all("seats" not in c and "seat_policies" not in c for c in cfg["cells"])
    assert all("seats" not in p for p in cfg["factors"]["policies"])


SOLO = MP.replace("players = 3\n", "")
BAD = [
    ("five players", MP.replace("players = 3", "players = 5"), "players: must be 1 (solo) to 4, got 5"),
    ("solo-only scenario", MP.replace("first-reconnaissance", "solo-conquest"),
     "players: scenario 'solo-conquest' is not set up for 3 players"),
    ("seat count", MP.replace('["tovak", "arythea", "goldyx"]]', '["tovak", "arythea"]]'),
     "factors.seats[0]: names 2 hero(es) for players = 3"),
    ("flat seats", MP.replace('[["tovak", "arythea", "goldyx"]]', '["tovak", "arythea", "goldyx"]'),
     "factors.seats[0]: must be a list of 3 heroes"),
    ("hero twice", MP.replace('"arythea", "goldyx"]]', '"tovak", "goldyx"]]'),
     "factors.seats[0][1]: hero 'tovak' twice"),
    ("unknown hero", MP.replace('"goldyx"]]', '"bob"]]'), "factors.seats[0][2]: unknown hero 'bob'"),
    ("per-seat policy count", MP.replace('["eager", "heuristic", "random:stream=4"]', '["eager", "random"]'),
     "factors.policies[1]: 2 policies for 3 seats"),
    ("unknown seat policy", MP.replace('"heuristic"', '"clever"'), "factors.policies[1][1]: unknown policy 'clever'"),
    ("heroes factor", MP.replace("[factors]\n", '[factors]\nheroes = ["tovak"]\n'), "factors.heroes: a game of 3"),
    ("forced tactics", MP + '[[factors.tactics]]\nname = "x"\nforce = { 1 = "early_bird" }\n',
     "factors.tactics: forced tactics are for solo experiments"),
    ("precision", MP + "[precision]\nci_width = 1.0\nmax_games = 12\n", "precision: a precision target is for solo"),
    ("seats in solo", SOLO.replace(', ["eager", "heuristic", "random:stream=4"]', ""), "factors.seats: needs players"),
    ("seat policies in solo", SOLO.replace("[factors]\nseats", "[factors]\nheroes = ['tovak']\n#"),
     "factors.policies[1]: a list of policies is one per seat"),
]


@pytest.mark.parametrize("case,text,message", BAD, ids=[b[0] for b in BAD])
def test_bad_multiplayer_experiment_is_one_clear_error(tmp_path, case, text, message):
    p = write(tmp_path, text)
    with pytest.raises(ExperimentError) as err:
        load_experiment(p)
    msg = str(err.value)
    assert "\n" not in msg and str(p) in msg and message in msg, msg
    out = tmp_path / "o"
    r = invoke("run", p, "--out", out, "--jobs", 1)
    assert r.exit_code == 2 and r.output.startswith("error:") and r.output.strip().count("\n") == 0, r.output
    assert not out.exists()


# -- the results store ----------------------------------------------------------------------

def test_one_row_per_game_and_player_matching_the_public_api(mp):
    _, exp, out, manifest = mp
    games = pq.read_table(out / "games.parquet").to_pandas()
    assert len(games) == 2 * 6 * 3
    for (c, k), rows in games.groupby(["cell", "game_index"]):
        assert list(rows.player) == [0, 1, 2] and list(rows.hero) == ["tovak", "arythea", "goldyx"]
        assert (rows.players == 3).all() and rows.termination.nunique() == 1
    cell1 = games[games.cell == 1]
    assert list(cell1.policy[:3]) == ["eager", "heuristic", "random"]
    assert [json.loads(p).get("stream") for p in cell1.policy_params[:3]] == [0, 1, 6]
    assert sum(c["games"] for c in manifest["chunks"]) == 12          # games, not rows
    specs = {0: "random", 1: ["eager", "heuristic", "random:stream=4"]}
    for (c, k), rows in games.groupby(["cell", "game_index"]):
        if k % 2:
            continue                       # half the games re-played: the Python path is slow
        s = play_direct(("tovak", "arythea", "goldyx"), specs[c], exp.seed, k)
        res = s.result()
        assert rows.finished.all() and res.finished
        assert list(rows.score) == [int(x) for x in s.returns()]       # 17.3.1 with titles (20.3)
        assert list(rows.fame) == list(res.seat_fame) and list(rows.won) == list(res.seat_won)
        assert int(rows.decisions.iloc[0]) == res.steps
        # 20.1.1: most points win and ties share; rank 1 + the seats with more points
        assert list(rows["rank"]) == [1 + sum(y > x for y in rows.score) for x in rows.score]
        # the score is Fame + the six achievements (20.2) + the titles (20.3)
        ach = rows[[f"ach_{a}" for a in ("knowledge", "loot", "leader", "conqueror", "adventurer", "beating")]]
        assert list(rows.score) == list(rows.fame + ach.sum(axis=1) + rows.titles)
    assert games.won.any() and (games.titles != 0).any()


def test_rounds_rows_cover_every_seat(mp):
    _, _, out, _ = mp
    games = pq.read_table(out / "games.parquet").to_pandas()
    rounds = pq.read_table(out / "rounds.parquet").to_pandas()
    key = ["cell", "game_index", "player"]
    per_seat = rounds.groupby(key).size().sort_index()
    assert (per_seat == games.set_index(key).rounds.sort_index()).all()   # every seat's rounds
    last = rounds.sort_values("round").groupby(key).last()
    g = games.set_index(key)
    for col in ("fame", "level", "deeds", "crystals"):
        assert (last[col].sort_index() == g[col].sort_index()).all(), col
    assert (last.hero.sort_index() == g.hero.sort_index()).all()
    # 3.1: each player takes a different tactic each round, so each seat's own is recorded
    assert (rounds.groupby(["cell", "game_index", "round"]).tactic.nunique() == 3).all()


def test_identical_for_jobs_and_chunk_sizes(mp, tmp_path):
    _, exp, ref, _ = mp
    run_experiment(exp, tmp_path / "j2", jobs=2, chunk_size=5)
    run_experiment(exp, tmp_path / "j1", jobs=1, chunk_size=12)
    for kind in ("games", "rounds"):
        assert table(tmp_path / "j2", kind).equals(table(ref, kind))
        assert table(tmp_path / "j1", kind).equals(table(ref, kind))


def test_interrupted_run_resumes_to_the_same_rows(mp, tmp_path):
    from mksim.runner import RunInterrupted
    _, exp, ref, _ = mp
    out = tmp_path / "cut"

    def stop(rec, done, total):
        if done >= 8:
            raise KeyboardInterrupt

    with pytest.raises(RunInterrupted):
        run_experiment(exp, out, jobs=1, chunk_size=4, on_chunk=stop)
    assert len(list((out / "chunks").glob("*.games.arrow"))) == 3      # 4 + 2 + 4 games
    r = invoke("run", "--resume", "--out", out, "--jobs", 1, "--quiet")
    assert r.exit_code == 0 and "1 arythea (heuristic)" in r.output, r.output
    for kind in ("games", "rounds"):
        assert table(out, kind).equals(table(ref, kind))


def test_replay_reproduces_every_seat_and_names_a_changed_one(mp, tmp_path):
    _, _, ref, _ = mp
    for c in (0, 1):
        r = invoke("replay", ref, "--game", 5, "--cell", c)
        assert r.exit_code == 0 and "reproduces the 3 stored rows exactly, one per seat" in r.output, r.output
    r = invoke("replay", ref, "--game", 2, "--cell", 1, "--log")
    assert r.exit_code == 0 and "Tovak: " in r.output and "Goldyx: " in r.output, r.output
    out = tmp_path / "tampered"
    shutil.copytree(ref, out)
    t = pq.read_table(out / "games.parquet").to_pandas()
    t.loc[(t.cell == 1) & (t.game_index == 3) & (t.player == 2), "combats"] += 1
    pq.write_table(pa.Table.from_pandas(t, preserve_index=False), out / "games.parquet")
    r = invoke("replay", out, "--game", 3, "--cell", 1)
    assert r.exit_code == 1 and "seat 2 differs" in r.output and "'combats'" in r.output, r.output


def test_summary_per_seat_with_intervals(mp):
    _, _, out, manifest = mp
    rows = store.seat_summary_rows(manifest, out)
    assert [(r["cell"], r["player"], r["hero"]) for r in rows] == [
        (c, p, h) for c in (0, 1) for p, h in enumerate(("tovak", "arythea", "goldyx"))]
    games = pq.read_table(out / "games.parquet").to_pandas()
    from mksim.stats import proportion_ci
    for r in rows:
        g = games[(games.cell == r["cell"]) & (games.player == r["player"])]
        assert r["n"] == 6 and r["finished"] == 6
        assert r["fame"][0] == pytest.approx(g.fame.mean()) and r["score"][0] == pytest.approx(g.score.mean())
        e = proportion_ci(int(g.won.sum()), len(g))                 # the report's Wilson interval
        assert r["win"] == pytest.approx((e.value, e.low, e.high))
    text = invoke("results", out).output
    assert "win rate [95% Wilson]" in text and "1 arythea (heuristic)" in text and "2 goldyx (random)" in text


# -- every hero combination -----------------------------------------------------------------

class MiniPolicy(Policy):
    """A tiny Python policy: a uniformly random legal action from its own seeded generator."""

    name = "mini-test"
    description = "uniformly random legal action (numpy Generator seeded with the game)"

    def reset(self, seed, game_index=0):
        super().reset(seed, game_index)
        self.rng = np.random.default_rng([seed, game_index, 7])

    def choose(self, state, legal):
        return int(legal[self.rng.integers(len(legal))])


@pytest.fixture
def mini():
    register(MiniPolicy)
    try:
        yield
    finally:
        unregister("mini-test")


@pytest.mark.parametrize("n, seats", [(2, '["heuristic", "mini-test"]'),
                                      (3, '["mini-test", "random", "eager"]'),
                                      (4, '["eager", "heuristic", "random", "mini-test"]')])
def test_every_hero_combination_plays_complete_games(mini, tmp_path, n, seats):
    p = write(tmp_path, f'name = "all{n}"\nscenario = "first-reconnaissance"\ngames = 2\nseed = 5\n'
                        f'players = {n}\n[factors]\nseats = "all"\npolicies = [{seats}]\n')
    exp = load_experiment(p)
    run_experiment(exp, tmp_path / "o", jobs=1)
    games = pq.read_table(tmp_path / "o" / "games.parquet").to_pandas()
    sets = {tuple(rows.hero) for _, rows in games.groupby(["cell", "game_index"])}
    assert sorted(sets) == sorted(itertools.combinations(HEROES, n))       # 10, 10, 5 sets
    assert len(games) == len(sets) * 2 * n
    names = json.loads(seats)
    for (c, k), rows in games.groupby(["cell", "game_index"]):
        assert list(rows.policy) == [get_policy(x).name for x in names]
        if not rows.finished.all():                # a rule not implemented yet: named, never hidden
            assert rows.error.iloc[0] != "none" and rows.stopped_reason.iloc[0]
            continue
        assert rows.termination.iloc[0] in ("round_limit", "scenario_won")
        if k == 0:                                 # one game per set re-played through the public API
            s = play_direct(tuple(rows.hero), names, exp.seed, k)
            assert s.is_terminal() and list(rows.score) == [int(x) for x in s.returns()]
            assert list(rows.won) == list(s.result().seat_won)
    assert games.finished.mean() > 0.8


# -- the command line -----------------------------------------------------------------------

def test_cli_run_with_players(tmp_path):
    out = tmp_path / "cli"
    r = invoke("run", "--players", 2, "--hero", "goldyx,tovak", "--hero", "wolfhawk,norowas",
               "--policy", "heuristic", "--policy", "random", "--games", 3, "--jobs", 1, "--out", out)
    assert r.exit_code == 0, r.output
    assert "0 goldyx,tovak | heuristic / random" in r.output and "1 wolfhawk,norowas" in r.output
    assert "0 goldyx (heuristic)" in r.output and "1 norowas (random)" in r.output
    assert "6 games played" in r.output
    games = pq.read_table(out / "games.parquet").to_pandas()
    assert len(games) == 12 and list(games.hero[:2]) == ["goldyx", "tovak"]
    assert list(games.hero[6:8]) == ["wolfhawk", "norowas"] and list(games.policy[:2]) == ["heuristic", "random"]
    r = invoke("run", "--players", 4, "--hero", "all", "--games", 1, "--jobs", 1, "--out", tmp_path / "all4",
               "--quiet")
    assert r.exit_code == 0 and "5 games played" in r.output, r.output


BAD_CLI = [
    (("--players", "5"), "--players must be at most 4"),
    (("--players", "3", "--hero", "arythea,tovak"), "--hero: names 2 hero(es) for players = 3"),
    (("--players", "3", "--scenario", "solo-conquest"), "--players: scenario 'solo-conquest' is not set up for 3"),
    (("--players", "3", "--policy", "random", "--policy", "eager"), "--policy: given 2 times for 3 seats"),
    (("--players", "2", "--hero", "tovak,tovak"), "hero 'tovak' twice"),
]


@pytest.mark.parametrize("args,message", BAD_CLI, ids=[" ".join(a) for a, _ in BAD_CLI])
def test_bad_players_options_are_one_error_line(tmp_path, args, message):
    out = tmp_path / "o"
    r = invoke("run", *args, "--games", 2, "--out", out)
    assert r.exit_code == 2 and r.output.startswith("error:") and message in r.output, r.output
    assert r.output.strip().count("\n") == 0 and "Traceback" not in r.output
    assert not out.exists()                                           # nothing written


def test_an_interrupted_library_run_gives_the_callers_ctrl_c_handler_back(mp, tmp_path):
    # run_experiment ignores a second Ctrl-C while it cleans up; it must not leave SIGINT
    # ignored in its caller (processes started later would inherit that and be deaf to it)
    import signal
    from mksim.runner import RunInterrupted
    _, exp, _, _ = mp
    before = signal.getsignal(signal.SIGINT)

    def stop(rec, done, total):
        raise KeyboardInterrupt

    with pytest.raises(RunInterrupted):
        run_experiment(exp, tmp_path / "cut", jobs=1, chunk_size=4, on_chunk=stop)
    assert signal.getsignal(signal.SIGINT) is before
