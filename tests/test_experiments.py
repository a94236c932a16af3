"""Experiment files (mksim/experiments.py, docs/experiments.md): factors, cells, shared seeds,
and one clear error per bad input."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mksim.experiments import ExperimentError, load_experiment
from mksim.policies.registry import parse_policy_spec
from mksim.runner import play_cell_chunk

ROOT = Path(__file__).resolve().parents[1]

BASE = '''name = "t"
scenario = "first-reconnaissance"
games = 4
seed = 3
'''


def write(tmp_path, text, name="exp.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_shipped_experiments_load():
    d = load_experiment(ROOT / "experiments" / "default.toml")
    assert d.name == "default" and len(d.cells) == 10       # 5 heroes x 2 policies
    h = load_experiment(ROOT / "experiments" / "hero-balance.toml")
    assert h.scenario == "solo_conquest"
    assert sorted(c.hero for c in h.cells) == sorted(["arythea", "goldyx", "norowas", "tovak", "wolfhawk"])


@pytest.mark.parametrize("name, cells", [("tactics", 13), ("strategies", 30), ("lost-legion", 10),
                                         ("content-change", 10)])
def test_report_experiments_load(name, cells):
    """The experiments of the reports issue (issue 11) load with their factors."""
    e = load_experiment(ROOT / "experiments" / f"{name}.toml")
    assert e.name == name and len(e.cells) == cells


def test_cells_are_the_product_of_the_factors_in_order(tmp_path):
    p = write(tmp_path, BASE + '''
[factors]
heroes = ["tovak", "goldyx"]
policies = ["random", { name = "eager", params = { default = 2.0 }, label = "eager-2" }]
lost_legion = [false, true]
[[factors.tactics]]
name = "free"
[[factors.tactics]]
name = "eb"
force = { 1 = "early_bird", 2 = "from_the_dusk" }
''')
    e = load_experiment(p)
    assert len(e.cells) == 2 * 2 * 2 * 2
    first, last = e.cells[0], e.cells[-1]
    assert (first.hero, first.policy, first.lost_legion, first.tactic_arm) == ("tovak", "random", False, "free")
    assert (last.hero, last.policy_label, last.lost_legion, last.tactic_arm) == ("goldyx", "eager-2", True, "eb")
    assert dict(last.params)["default"] == 2.0
    assert last.forced == ((1, "early_bird"), (2, "from_the_dusk"))
    assert last.label == "goldyx | eager-2 | lost-legion | eb"
    assert [c.index for c in e.cells] == list(range(16))
    assert e.varying() == ["heroes", "policies", "lost_legion", "tactics"]


def test_fingerprint_follows_what_decides_the_rows(tmp_path):
    a = load_experiment(write(tmp_path, BASE, "a.toml"))
    b = load_experiment(write(tmp_path, BASE.replace('name = "t"', 'name = "t"\ndescription = "x"'), "b.toml"))
    c = load_experiment(write(tmp_path, BASE.replace("seed = 3", "seed = 4"), "c.toml"))
    assert a.fingerprint() == b.fingerprint() != c.fingerprint()


def test_cells_share_game_seeds(tmp_path):
    """Common random numbers: game k of two cells that differ only in the policy arm starts
    from the same set-up, and game k of the same cell is the same whatever chunk plays it."""
    e = load_experiment(write(tmp_path, BASE + '[factors]\npolicies = ["random", "random:stream=1"]\n'))
    a, _, _, _ = play_cell_chunk(e.cells[0], e.seed, 0, 4)
    b, _, _, _ = play_cell_chunk(e.cells[1], e.seed, 0, 4)
    a2, _, _, _ = play_cell_chunk(e.cells[0], e.seed, 2, 4)
    drop = [n for n in a.dtype.names if n != "seconds"]
    assert np.array_equal(a[drop][2:], a2[drop])
    # the two arms draw different decisions (stream 0 vs 1) on the same games
    assert not np.array_equal(a["decisions"], b["decisions"])
    from mksim.runner import cell_config
    g = cell_config(e.cells[0]).game()
    s0, s1 = g.new_state(e.seed, 1).to_dict(), cell_config(e.cells[1]).game().new_state(e.seed, 1).to_dict()
    assert s0 == s1


def test_forced_tactic_is_taken_and_recorded(tmp_path):
    """An arm forcing a tactic in rounds 1 and 2 (Day, Night: 2.1) takes exactly it; the
    round-1 choice is always on offer, as no tactic has left the game yet (17.3.4)."""
    e = load_experiment(write(tmp_path, BASE + '''[factors]
[[factors.tactics]]
name = "forced"
force = { 1 = "planning", 2 = "long_night" }
'''))
    games, rounds, _, _ = play_cell_chunk(e.cells[0], e.seed, 0, 4)
    from mksim.runner import cell_config
    ids = cell_config(e.cells[0]).game().tables.tactic_ids
    assert all(ids[t - 1] == "planning" for t in games["tactics"][:, 0])
    assert all(ids[t - 1] == "long_night" for t in games["tactics"][:, 1])
    assert (games["forced_missed"] == 0).all()
    r1 = rounds[rounds["round"] == 1]
    assert all(ids[t - 1] == "planning" for t in r1["tactic"])


def test_round_stats_match_the_final_state():
    """The engine's round-end snapshot of the last round and its game counters agree with
    the final state read independently (to_dict)."""
    from mksim.experiments import Cell
    from mksim.runner import GameConfig
    cell = Cell(0, "first_reconnaissance", "arythea", "eager")
    games, rounds, _, _ = play_cell_chunk(cell, 5, 0, 3)
    g = GameConfig("first-reconnaissance", "arythea").game()
    for k in range(3):
        from mksim.policies import get_policy
        st = g.new_state(5, k)
        pol = get_policy("eager")
        pol.reset(5, k)
        pol.play_engine(st.engine, 100_000)
        d = st.to_dict()["players"][0]
        row = games[k]
        assert row["fame"] == d["fame"] and row["level"] == d["level"]
        held = sum(1 for z in ("hand", "deck", "discard", "play_area") for c in d[z] if c == "wound")
        assert row["wounds_held"] == held
        assert row["units_held"] == len(d["units"])
        last = rounds[(rounds["game_index"] == k)][-1]
        assert last["round"] == row["rounds"] and last["fame"] == d["fame"] and last["wounds"] == held
        assert row["wounds_taken"] >= held                       # every Wound held was taken (none at the start)
        assert row["turns"] >= 1 and row["decisions"] == st.core.raw_dict()["steps"]


def test_policy_spec_parsing():
    """Experiment policy levels go through the one spec parser (mksim.policies): name and
    typed parameters; unknown names, unknown parameters and malformed specs are ValueErrors."""
    p = parse_policy_spec("eager:default=2.5,stream=1")
    assert p.name == "eager" and p.parameters["default"] == 2.5 and p.parameters["stream"] == 1
    assert parse_policy_spec("random").name == "random"
    for bad in (":x=1", "eager:default", "eager:default=1,default=2", "eager:x=true", "clever"):
        with pytest.raises(ValueError):
            parse_policy_spec(bad)


BAD = [
    ("not toml", "name = \n", "is not valid TOML"),
    ("unknown key", BASE + "colour = 1\n", "unknown key 'colour'"),
    ("missing key", 'name = "t"\nscenario = "first-reconnaissance"\ngames = 4\n', "missing key 'seed'"),
    ("wrong type", BASE.replace("games = 4", 'games = "four"'), "games: must be a whole number"),
    ("zero games", BASE.replace("games = 4", "games = 0"), "games must be at least 1"),
    ("negative games", BASE.replace("games = 4", "games = -3"), "games must be at least 1"),
    ("unknown scenario", BASE.replace("first-reconnaissance", "grand-tour"), "unknown scenario 'grand-tour'"),
    ("unknown factor", BASE + "[factors]\nweather = [1]\n", "unknown factor 'weather'"),
    ("empty factor", BASE + "[factors]\nheroes = []\n", "factors.heroes: empty factor"),
    ("unknown hero", BASE + '[factors]\nheroes = ["tovak", "bob"]\n', "factors.heroes[1]: unknown hero 'bob'"),
    ("unknown policy", BASE + '[factors]\npolicies = ["clever"]\n', "factors.policies[0]: unknown policy 'clever'"),
    ("unknown parameter", BASE + '[factors]\npolicies = ["random:speed=3"]\n', "factors.policies[0]"),
    ("wrong parameter type", BASE + '[factors]\npolicies = ["random:stream=-1"]\n', "factors.policies[0]"),
    ("bool factor", BASE + '[factors]\nlost_legion = ["yes"]\n', "factors.lost_legion[0]: must be true or false"),
    ("unknown tactic", BASE + '[[factors.tactics]]\nname = "x"\nforce = { 1 = "nap" }\n',
     "factors.tactics[0].force.1: unknown tactic 'nap'"),
    ("tactic of the wrong time", BASE + '[[factors.tactics]]\nname = "x"\nforce = { 2 = "early_bird" }\n',
     "'early_bird' is a day tactic but round 2 is a night round"),
    ("round out of range", BASE + '[[factors.tactics]]\nname = "x"\nforce = { 9 = "early_bird" }\n',
     "round 9 is outside 1..4"),
    ("content that does not load", BASE + '[[factors.content]]\nname = "x"\npath = "nope.toml"\n',
     "factors.content[0].path"),
]


@pytest.mark.parametrize("case,text,message", BAD, ids=[b[0] for b in BAD])
def test_bad_experiment_is_one_clear_error(tmp_path, case, text, message):
    p = write(tmp_path, text)
    with pytest.raises(ExperimentError) as err:
        load_experiment(p)
    msg = str(err.value)
    assert "\n" not in msg and str(p) in msg and message in msg, msg


def test_missing_file(tmp_path):
    with pytest.raises(ExperimentError, match="experiment file not found"):
        load_experiment(tmp_path / "none.toml")


def test_engine_counters_at_combat_events(tables, content):
    """Player.stats (results store): a combat entered counts once; Wounds to hand and
    Poison's Wounds to the discard pile (11.7.9) count as taken; the knock-out of 11.7.8
    (level 1: 5 Wounds to hand this combat) counts once per combat (A17)."""
    from mksim._combat import CombatTester
    from mksim._state import GameCore
    T = CombatTester(GameCore.new(tables, content, "solo_conquest", "arythea", 7, lost_legion_cards=True))

    def stats():
        return T.core.raw_dict()["players"][0]["stats"]

    assert stats()["combats"] == 0 and stats()["wounds_taken"] == 0
    T.begin(["prowlers"])
    assert stats()["combats"] == 1
    assert T.assign_to_hero(5, poison=True) == 3            # Armor 2: 3 to hand, 3 to discard
    assert stats()["wounds_taken"] == 6 and stats()["knockouts"] == 0
    assert T.assign_to_hero(3) == 2                         # 5 to hand: knocked out
    assert stats()["knockouts"] == 1 and stats()["wounds_taken"] == 8
    assert T.assign_to_hero(2) == 1                         # not knocked out again (A17)
    assert stats()["knockouts"] == 1 and stats()["wounds_taken"] == 9
    T.begin(["prowlers"])
    assert stats()["combats"] == 2
