"""The ``heuristic`` policy (ext/_heuristic.pyx): its planners on fixtures, its honesty (it
reads nothing the player cannot know), its presets and parameters, and short games."""
from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest

from mksim import effects as fx
from mksim import _heuristic
from mksim._checks import violations
from mksim.game import Game
from mksim.policies import get_policy, list_policies, parse_policy_spec
from mksim.runner import GameConfig, run


@pytest.fixture(scope="module")
def game():
    return Game("first-reconnaissance", "arythea")


def at_move(game, seed=7, **changes):
    """A fresh game advanced to the movement part of round 1's first turn (3.1, 4.4), with
    ``changes`` written into the fixture (player 0 keys)."""
    st = game.new_state(seed, 0)
    while st.to_dict()["phase"] != "move":
        legal = st.legal_actions()
        names = [st.action_to_string(int(a)) for a in legal]
        pick = next((a for a, s in zip(legal, names) if s.startswith("take a regular turn")), legal[0])
        st.apply(int(pick))
    if changes:
        d = st.to_dict(format=1)            # format 1: the hand is written over the deck as it is
        d["players"][0].update(changes)
        st = game.state_from_dict(d)
    return st


def plan(game, st, enemies, **kw):
    pol = get_policy("heuristic")
    ids = list(game.tables.enemy_ids)
    return pol._core.plan_fight(st.engine, [ids.index(e) if e in ids else e for e in enemies], **kw)


# -- effect valuation ---------------------------------------------------------------------

def test_effect_op_codes_match_the_vocabulary():
    for name, code in _heuristic.OP_CODES_USED.items():
        assert fx.OP_CODES[name] == code, name


# -- combat planner (11.5-11.9, 12) -------------------------------------------------------

def test_11_8_plan_defeats_prowlers_and_blocks_their_attack(game):
    # Prowlers: Armor 3, Attack 4.  Rage + Rage give Attack 4 >= 3 (11.8); Determination
    # Block 2 + two Marches sideways (Block 1 each, 6.1.7) give Block 4 >= 4 (11.6): no Wound.
    st = at_move(game, hand=["rage", "rage", "determination", "march", "march"])
    worth, kills, wounds = plan(game, st, ["prowlers"], units=0)
    assert (kills, wounds) == (1, 0)
    assert worth == pytest.approx(get_policy("heuristic").parameters.get("aggression", 1.0) * 2)


def test_12_1_unblocked_attack_costs_wounds_by_hero_armor(game):
    # Two Rages can defeat Prowlers (Attack 4 >= 3) or block 4, not both: the plan that
    # attacks takes Attack 4 / Armor 2 = 2 Wounds (12.1, hero Armor 2 at level 1).
    st = at_move(game, hand=["rage", "rage"])
    worth, kills, wounds = plan(game, st, ["prowlers"], units=0)
    assert kills == 1 and wounds == 2


def test_11_9_2_physical_resistance_halves_the_attack(game):
    # Golems: Armor 5, resist physical.  Three Rages: Attack 6 physical, worth 3 against
    # them (11.9.2) -> not defeated; against Diggers (Armor 3, no resistance) they are.
    st = at_move(game, hand=["rage", "rage", "rage"])
    assert plan(game, st, ["golems"], units=0)[1] == 0
    assert plan(game, st, ["diggers"], units=0)[1] == 1


def test_11_7_9_paralyze_leaves_no_card_for_the_attack(game):
    # Medusa: Armor 4, Attack 6, Paralyze.  Rage, Rage and March cannot block 6, and the
    # Paralyze Wound discards the hand (11.7.9), so the Attack phase has nothing left.
    st = at_move(game, hand=["rage", "rage", "march"])
    worth, kills, wounds = plan(game, st, ["medusa"], units=0)
    assert kills == 0 and wounds >= 3
    assert worth < 0


def test_face_down_tokens_are_valued_by_their_colour_mix(game):
    pol = get_policy("heuristic")
    st = at_move(game)
    pol._core.bind(st.engine)
    t = game.tables
    cols = t.columns["enemies"]
    arr = t.enemies
    for colour, name in enumerate(("green", "grey", "violet", "brown", "red", "white")):
        rows = [e for e in range(arr.shape[0]) if arr[e, cols.index("colour")] == colour
                and arr[e, cols.index("copies")] > 0]
        if not rows:
            continue
        copies = np.array([arr[e, cols.index("copies")] for e in rows], float)
        armor = np.array([arr[e, cols.index("armor")] for e in rows], float)
        avg = pol._core.pile_average(colour)
        assert avg["armor"] == int((copies * armor).sum() / copies.sum() + 0.5), name


# -- movement planner (9.2, 9.3) ----------------------------------------------------------

def test_9_2_path_costs_follow_terrain_and_add_up(game):
    st = at_move(game)
    d = st.to_dict()
    hexes = {h["index"]: h for t in d["map"]["tiles"] for h in t["hexes"]}
    pos = d["players"][0]["position"]
    costs = get_policy("heuristic")._core.path_costs(st.engine)
    day = {"plains": 2, "hills": 3, "forest": 3, "wasteland": 4, "desert": 5, "swamp": 5}   # 9.2, by Day
    assert costs[pos] == 0
    for nb in hexes[pos]["neighbours"]:
        if nb is None or nb < 0:
            continue
        terrain = hexes[nb]["terrain"]
        if terrain in day and not hexes[nb]["tokens"]:
            assert costs[nb] == day[terrain], terrain
        if terrain in ("lake", "mountain"):
            assert nb not in costs                           # 9.2.2 inaccessible
    # a cheapest path: every reached space costs its predecessor's cost + its own terrain
    for h, c in costs.items():
        if h == pos:
            continue
        best = min(costs[n] for n in hexes[h]["neighbours"] if n is not None and n >= 0 and n in costs)
        assert c >= best + 2


def test_5_night_makes_forest_dearer(game):
    st = at_move(game)
    d = st.to_dict()
    d["time"] = "night"
    night = game.state_from_dict(d)
    day_costs = get_policy("heuristic")._core.path_costs(st.engine)
    night_costs = get_policy("heuristic")._core.path_costs(night.engine)
    hexes = {h["index"]: h for t in d["map"]["tiles"] for h in t["hexes"]}
    forests = [h for h in day_costs if hexes[h]["terrain"] == "forest"
               and all(hexes[n]["terrain"] != "forest" for n in hexes[h]["neighbours"] if n is not None and n >= 0)]
    for h in forests:
        assert night_costs.get(h, 99) >= day_costs[h] + 2 or h not in night_costs   # 9.2: forest 3 -> 5


# -- honesty: hidden information never changes a decision --------------------------------

def _hide_differently(d, rnd):
    """The same position with every hidden zone reordered: the Deed deck, each colour's
    enemy pile, the tile stack within each back (Countryside / Core: the backs are public),
    the offers' decks, the dummy's deck, and fresh random streams."""
    d = json.loads(json.dumps(d))
    rnd.shuffle(d["players"][0]["deck"])
    rnd.shuffle(d["dummy"]["deck"])
    for key in ("advanced_action_deck", "spell_deck", "artifact_deck", "regular_units"):
        rnd.shuffle(d[key])
    stack = d["tile_stack"]
    country = [t for t in stack if t.startswith("countryside")]
    core = [t for t in stack if not t.startswith("countryside")]
    rnd.shuffle(country)
    rnd.shuffle(core)
    d["tile_stack"] = [t if not t.startswith("countryside") else None for t in stack]
    it_c, it_k = iter(country), iter(core)
    d["tile_stack"] = [next(it_c) if t.startswith("countryside") else next(it_k) for t in stack]
    for pile in d["enemy_piles"]:
        if isinstance(pile, list):
            rnd.shuffle(pile)
    for stream in d["rng"]:
        for k in stream:
            stream[k] = rnd.getrandbits(63)
    return d


@pytest.mark.parametrize("name", ["heuristic", "heuristic-explorer", "heuristic-conqueror"])
def test_decisions_ignore_hidden_information(game, name):
    pol = get_policy(name)
    rnd = random.Random(5)
    checked = 0
    for seed in (3, 4):
        st = game.new_state(seed, 0)
        pol.reset(seed, 0)
        for step in range(160):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            a = pol.choose(st, legal)
            if step % 4 == 0:
                other = game.state_from_dict(_hide_differently(st.to_dict(), rnd))
                assert list(other.legal_actions()) == list(legal)
                # two fresh copies of the policy (the playing one remembers this turn's goal)
                a1 = get_policy(name).choose(st, legal)
                b = get_policy(name).choose(other, other.legal_actions())
                # the same decision: the same words (a card chosen from the searched deck
                # is named by its deck index, which the reordering changes)
                assert other.action_to_string(b) == st.action_to_string(a1), \
                    f"{name} seed {seed} step {step}: {st.action_to_string(a)}"
                checked += 1
            st.apply(a)
    assert checked >= 40


# -- the policy: registry, parameters, presets, determinism --------------------------------

def test_registered_with_presets():
    names = list_policies()
    for n in ("heuristic", "heuristic-explorer", "heuristic-conqueror", "heuristic-balanced"):
        assert n in names
    assert get_policy("heuristic").metadata["sees_hidden"] is False
    assert get_policy("heuristic", preset="explorer").parameters["preset"] == "explorer"


@pytest.mark.parametrize("params, word", [
    ({"preset": "nope"}, "preset"), ({"bravery": 1}, "bravery"), ({"aggression": "x"}, "aggression"),
])
def test_bad_parameters_are_named(params, word):
    with pytest.raises(ValueError, match=word):
        get_policy("heuristic", **params)


def test_presets_play_differently_and_the_fast_path_matches_choose(game):
    cfg = GameConfig("first-reconnaissance", "arythea")
    recs = {n: run(cfg, 12, 11, policy=n).records for n in ("heuristic-explorer", "heuristic-conqueror")}
    assert not np.array_equal(recs["heuristic-explorer"]["steps"], recs["heuristic-conqueror"]["steps"])
    # the Python face (choose) and the C loop (play_engine) make the same decisions
    pol = get_policy("heuristic")
    st = game.new_state(11, 2)
    pol.reset(11, 2)
    while not st.is_terminal():
        st.apply(pol.choose(st, st.legal_actions()))
    fast = run(cfg, 3, 11, policy="heuristic").records[2]
    assert (st.to_dict()["players"][0]["fame"], len(st.history)) == (int(fast["fame"]), int(fast["steps"]))


def test_picklable_and_deterministic():
    pol = get_policy("heuristic-conqueror", aggression=2.0)
    again = pickle.loads(pickle.dumps(pol))
    assert again.parameters == pol.parameters
    cfg = GameConfig("first-reconnaissance", "tovak")
    a = run(cfg, 4, 5, policy=pol).records
    b = run(cfg, 4, 5, policy=again).records
    assert np.array_equal(a, b)


# -- whole games ----------------------------------------------------------------------------

@pytest.mark.parametrize("scenario, lost_legion", [("first-reconnaissance", False), ("solo-conquest", False),
                                                     ("first-reconnaissance", True)])
def test_games_finish_with_invariants(scenario, lost_legion):
    game = Game(scenario, "goldyx", lost_legion=lost_legion)
    pol = get_policy("heuristic")
    for g in range(3):
        st = game.new_state(21, g)
        pol.reset(21, g)
        while not st.is_terminal():
            st.apply(pol.choose(st, st.legal_actions()))
            bad = violations(st.core)
            assert not bad, bad
        assert st.to_dict()["termination"] in ("scenario_won", "round_limit")


def test_plays_the_whole_game_and_beats_eager():
    # 17.3.1: Fame from revealed tiles and from fights; the heuristic does both (counts from
    # the engine's own Player.stats, as the results store reads them)
    from mksim._access import STATS_FIELDS, fill_stats
    game = Game("first-reconnaissance", "norowas")
    f = {k: i for i, k in enumerate(STATS_FIELDS)}
    out = {}
    for name in ("heuristic", "eager"):
        pol = get_policy(name)
        rows = []
        for g in range(20):
            st = game.new_state(99, g)
            stack0 = st.view().tile_stack_size
            pol.reset(99, g)
            pol.play_engine(st.engine, 100000)
            buf = np.zeros(len(STATS_FIELDS), np.int32)
            fill_stats(st.core, 0, buf, np.zeros(16, np.int32), np.zeros(64, np.int32))
            rows.append({"fame": st.to_dict()["players"][0]["fame"], "combats": buf[f["combats"]],
                         "defeated": sum(buf[f[k]] for k in STATS_FIELDS if k.startswith("defeated_")),
                         "explored": stack0 - st.view().tile_stack_size})
        out[name] = {k: np.mean([r[k] for r in rows]) for k in rows[0]}
    h = out["heuristic"]
    assert h["explored"] >= 2 and h["defeated"] >= 1 and h["combats"] >= 1
    assert h["fame"] > out["eager"]["fame"] + 5


def test_bench_takes_a_policy(capsys):
    from mksim.cli import app
    from typer.testing import CliRunner
    res = CliRunner().invoke(app, ["bench", "--policy", "heuristic:preset=explorer", "--games", "3", "--json"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    assert rep["policy"] == "heuristic:preset=explorer" and rep["games_finished"] == 3
    bad = CliRunner().invoke(app, ["bench", "--policy", "heuristic:preset=nope", "--games", "3"])
    assert bad.exit_code == 2 and "error: " in bad.output and "unknown heuristic preset 'nope'" in bad.output


# -- skills (8.2) and memory between games --------------------------------------------------

def _attack_on_prowlers(game, hand, skills):
    """Attack phase against Prowlers (Armor 3, Fame 2, 11.8) with ``hand`` and ``skills``."""
    fx = {"format": 1, "scenario": "first-reconnaissance", "hero": "arythea", "seed": 0,
          "phase": "combat_attack",
          "players": [{"position": 0, "hand": hand, "skills": skills, "fame": 0, "tactic": "early_bird"}],
          "source": {"dice": ["blue", "blue", "green"], "taken": 0},      # no red / gold: Rage stays basic
          "turn": {"action_taken": 1},
          "combat": {"active": 1, "units_allowed": 1, "enemies": [{"enemy": "prowlers", "flags": 16}]}}
    return game.state_from_dict(fx)


def _play_out_combat(st, pol):
    said = []
    while st.to_dict()["combat"]["active"]:
        a = pol._core.choose_engine(st.engine)
        said.append(st.action_to_string(a))
        st.apply(a)
    return said


def test_8_2_uses_hot_swordsmanship_when_it_wins_the_fight(game):
    # Rage gives Attack 2 < Armor 3 (11.8.1); Hot Swordsmanship adds Attack 2 (8.2.3, once a
    # turn): 4 >= 3 defeats the Prowlers for 2 Fame.  Without the skill the hand cannot.
    pol = get_policy("heuristic")
    st = _attack_on_prowlers(game, ["rage"], ["arythea_hot_swordsmanship"])
    worth, kills, wounds = pol._core.plan_fight(st.engine, [list(game.tables.enemy_ids).index("prowlers")])
    assert kills == 1
    said = _play_out_combat(st, pol)
    d = st.to_dict()
    assert d["players"][0]["fame"] == 2, said
    assert any("Hot Swordsmanship" in s for s in said), said
    assert d["players"][0]["skills_used"] != []                        # the token was used (8.2.3)
    st = _attack_on_prowlers(game, ["rage"], [])
    _play_out_combat(st, pol)
    assert st.to_dict()["players"][0]["fame"] == 0


def test_8_2_skill_is_not_spent_where_it_cannot_win(game):
    # March sideways (Attack 1) + Hot Swordsmanship (Attack 2) = 3 >= 3 wins; with a hand of
    # only a Wound, the skill alone (2 < 3) cannot, and the policy does not spend it.
    pol = get_policy("heuristic")
    st = _attack_on_prowlers(game, ["march"], ["arythea_hot_swordsmanship"])
    said = _play_out_combat(st, pol)
    assert st.to_dict()["players"][0]["fame"] == 2, said
    st = _attack_on_prowlers(game, ["wound"], ["arythea_hot_swordsmanship"])
    said = _play_out_combat(st, pol)
    assert st.to_dict()["players"][0]["fame"] == 0
    assert not any("Hot Swordsmanship" in s for s in said), said
    assert st.to_dict()["players"][0]["skills_used"] == []


def test_reset_forgets_the_last_game():
    # the turn goal and the path / exploration caches belong to one game: after reset a
    # policy that played another game first decides exactly as a fresh one (game k is the
    # same game whatever was played before it in the process)
    game = Game("first-reconnaissance", "goldyx")
    used = get_policy("heuristic")
    for g in (0, 1):
        st = game.new_state(5, g)
        used.reset(5, g)
        used.play_engine(st.engine, 100000)
    mem = used._core.memory()
    assert mem["path_key"] != -1 and mem["goal_key"] != -1
    used.reset(5, 3)
    assert set(used._core.memory().values()) == {-1, 0} and used._core.memory()["path_key"] == -1
    fresh = get_policy("heuristic")
    fresh.reset(5, 3)
    a, b = game.new_state(5, 3), game.new_state(5, 3)
    used.play_engine(a.engine, 100000)
    fresh.play_engine(b.engine, 100000)
    assert a.to_dict() == b.to_dict()


def _on_the_monastery(hand, offer, reputation=3):
    """Goldyx on a Monastery (game 0 of seed 2026, played by the heuristic up to its first
    interaction there), with ``hand`` and the Units offer ``offer`` written in."""
    game = Game("first-reconnaissance", "goldyx")
    st = game.new_state(2026, 0)
    pol = get_policy("heuristic")
    pol.reset(2026, 0)
    pol._core.bind(st.engine)
    while True:
        a = pol._core.choose_engine(st.engine)
        if st.action_to_string(a).startswith("interact with the Monastery"):
            break
        st.apply(a)
    d = st.to_dict(format=1)                # format 1: the hand is written over the deck as it is
    d["players"][0].update(hand=hand, reputation=reputation)
    d["unit_offer"] = offer
    return game, game.state_from_dict(d)


def _play_turn(st, pol):
    said = []
    while st.to_dict()["phase"] not in ("turn_start", "tactics", "game_over", "end_turn"):
        a = pol._core.choose_engine(st.engine)
        said.append(st.action_to_string(a))
        st.apply(a)
    return said


def test_10_7_2_buys_the_monasterys_aa_with_the_whole_hand():
    # 10.7.2.2: an AA lying in the Units offer costs 6 Influence at a monastery; five cards
    # sideways (Influence 1 each, 6.1.7) and Reputation 3's +1 (10.2.3) pay it.  The policy
    # commits all five rather than spending some and keeping the rest.
    game, st = _on_the_monastery(["march", "march", "rage", "determination", "stamina"],
                                 [{"advanced_action": "in_need"}])
    pol = get_policy("heuristic")
    pol._core.bind(st.engine)
    said = _play_turn(st, pol)
    assert any(s.startswith("buy In Need") for s in said), said
    d = st.to_dict()["players"][0]
    assert "in_need" in d["deck"] + d["hand"] + d["discard"] + d["play_area"], said


def test_10_7_no_influence_is_spent_where_nothing_can_be_bought():
    # no AA in the offer and no Unit recruitable at a monastery: nothing to buy there, so no
    # card is played as Influence (6.1.7) for nothing
    game, st = _on_the_monastery(["march", "march", "rage", "determination", "stamina"], [])
    pol = get_policy("heuristic")
    pol._core.bind(st.engine)
    said = _play_turn(st, pol)
    assert not any("Influence" in s for s in said), said
    assert not any(s.startswith("interact") for s in said), said


def test_3_2_uses_long_night_when_the_deck_is_empty(game):
    # 3.2 Long Night: once a round, with the Deed deck empty, three cards of the discard pile
    # are shuffled back into the deck; the policy takes them as soon as it may
    pol = get_policy("heuristic")
    st = at_move(game, tactic="long_night", deck=[], discard=["march", "rage", "rage", "stamina"])
    pol._core.bind(st.engine)
    a = pol._core.choose_engine(st.engine)
    assert st.action_to_string(a) == "use tactic Long Night"
    st.apply(a)
    d = st.to_dict()["players"][0]
    assert len(d["deck"]) == 3 and len(d["discard"]) == 1 and d["tactic_used"]
    st = at_move(game, tactic="long_night", discard=["march", "rage", "rage", "stamina"])   # deck not empty
    assert not any(st.action_to_string(x) == "use tactic Long Night" for x in st.legal_actions())


# -- level-up choices (13.6.4) -------------------------------------------------------------

def _at_skill_choice(top, nxt, offer=(), hero="arythea", seed=1):
    """The first turn of a First Reconnaissance game ended with 5 Fame (level 2, 13.6.2):
    the level-up's skill choice (13.6.4), with ``top`` and ``nxt`` the two tokens revealed
    from the own Skill stack and ``offer`` the Common Skill offer."""
    from mksim._engine import encode
    game = Game("first-reconnaissance", hero)
    st = game.new_state(seed)
    d = st.to_dict(format=1)
    pl = d["players"][0]
    rest = [s for s in pl["skill_stack"] if s not in (top, nxt)]
    pl["skill_stack"] = rest + [nxt, top]              # the top last
    d["skill_offer"] = list(offer)
    st = game.state_from_dict(d)
    st.apply(encode("tactic", list(game.tables.tactic_ids).index("planning")))
    st.apply(encode("regular_turn"))
    d = st.to_dict(format=1)
    d["players"][0]["fame"] = 5
    st = game.state_from_dict(d)
    st.apply(encode("end_turn"))
    assert all(st.action_to_string(a).startswith("level up: take skill") for a in st.legal_actions())
    return game, st


def _picked(st, pol):
    a = pol._core.choose_engine(st.engine)
    st.apply(a)
    return st.to_dict()["players"][0]["skills"]


@pytest.mark.parametrize("top, nxt, offer, best", [
    # Move 1 (Day) / 2 (Night) every turn against Attack 2 every turn (8.2.3): an Attack
    # skill is worth nothing by default (skill_attack 0: it draws the planner into fights
    # whose Wounds cost 2 points each at the end, 20.2)
    ("arythea_hot_swordsmanship", "arythea_dark_paths", (), "arythea_dark_paths"),
    # a crystal and a mana token once a round (8.2.1) against nothing the planner uses
    ("arythea_power_of_pain", "arythea_dark_fire_magic", (), "arythea_dark_fire_magic"),
    # Healing Ritual is interactive (8.2.2): no other hero to heal in solo
    ("arythea_healing_ritual", "arythea_dark_negotiation", (), "arythea_dark_negotiation"),
    # two handlers the planner does not use, against Shield Mastery in the Common offer
    ("arythea_invocation", "arythea_polarization", ("tovak_shield_mastery",), "tovak_shield_mastery"),
])
def test_13_6_4_level_up_takes_the_skill_worth_most(top, nxt, offer, best):
    game, st = _at_skill_choice(top, nxt, offer)
    said = [st.action_to_string(a) for a in st.legal_actions()]
    assert len(said) == 2 + len(offer), said         # two revealed tokens + the offer (13.6.4)
    assert _picked(st, get_policy("heuristic")) == [best]
    # skill_choice=0: the first offered, the top token (the choice before it)
    game, st = _at_skill_choice(top, nxt, offer)
    assert _picked(st, get_policy("heuristic", skill_choice=0)) == [top]


def test_13_6_4_skill_attack_values_attack_skills():
    # with skill_attack 1 Attack 2 every turn (2.2 with the fire option, x 2.5 uses) beats
    # Move 1 / 2 every turn (1.5 x 2.5)
    game, st = _at_skill_choice("arythea_dark_paths", "arythea_hot_swordsmanship")
    assert _picked(st, get_policy("heuristic", skill_attack=1)) == ["arythea_hot_swordsmanship"]


def test_13_6_4_skill_worths_follow_use_and_frequency(game):
    """Attack 2 once a turn (8.2.3) > Move 1 / 2 once a turn > a crystal and a mana token
    once a round (8.2.1) > 0; interactive skills (8.2.2) are worth nothing in solo."""
    st = game.new_state(1)
    pol = get_policy("heuristic", skill_attack=1)
    ids = list(game.tables.skill_ids)
    w = {s: pol._core.skill_worth(st.engine, ids.index(s)) for s in ids}
    assert w["arythea_hot_swordsmanship"] > w["arythea_dark_paths"] > w["arythea_dark_fire_magic"] > 0
    assert w["arythea_healing_ritual"] == 0 and w["tovak_mana_exploit"] == 0
    assert w["tovak_shield_mastery"] > w["tovak_double_time"]          # Block 3 > Move 2 / 1
    # aggression scales the worth of Attack, not of Move
    strong = get_policy("heuristic", aggression=3.0, skill_attack=1)
    assert strong._core.skill_worth(st.engine, ids.index("arythea_hot_swordsmanship")) > w["arythea_hot_swordsmanship"]
    assert strong._core.skill_worth(st.engine, ids.index("arythea_dark_paths")) == w["arythea_dark_paths"]
    # by default an Attack skill is worth nothing; Block still counts
    plain = get_policy("heuristic")
    assert plain._core.skill_worth(st.engine, ids.index("arythea_hot_swordsmanship")) == 0
    assert plain._core.skill_worth(st.engine, ids.index("tovak_shield_mastery")) == w["tovak_shield_mastery"]


def test_9_6_zero_cost_steps_do_not_go_back_and_forth():
    """9.6: with powered Song of Wind played, plains cost 0, so a step back is free and the
    turn has no end of its own.  The position (First Reconnaissance, seed 2026, game 394,
    Arythea, as ``search:budget=16`` reached it) once made the heuristic step between the
    Monastery and the next space for ever (the game hit the step limit); its goals now
    exclude the spaces it has stood on this turn, so the turn ends in a few decisions."""
    from pathlib import Path
    d = json.loads((Path(__file__).parent / "positions" / "fr_arythea_zero_cost_moves.json").read_text())
    game = Game("first-reconnaissance", "arythea")
    st = game.state_from_dict(d)
    pol = get_policy("heuristic")
    pol.reset(2026, 394)
    pol._core.bind(st.engine)
    assert st.to_dict()["phase"] == "move"
    costs = pol._core.path_costs(st.engine)
    pos = st.to_dict()["players"][0]["position"]
    assert sum(1 for h, c in costs.items() if c == 0 and h != pos) >= 3       # free steps around
    stood = [pos]
    for _ in range(40):
        if st.to_dict()["phase"] != "move":
            break
        a = pol._core.choose_engine(st.engine)
        st.apply(a)
        now = st.to_dict()["players"][0]["position"]
        if now != stood[-1]:
            stood.append(now)
    assert st.to_dict()["phase"] != "move"
    assert len(stood) == len(set(stood)) and len(stood) <= 6, stood


@pytest.mark.parametrize("scenario", ["first-reconnaissance", "solo-conquest"])
def test_6_1_7_fight_plans_count_unpayable_mana_in_every_scenario(scenario):
    """5.5.2, 6.1.7: Pure Magic's Attack 4 needs a red mana; with none (black dice by Day, no
    crystal, no token) it is only a sideways 1, so Pure Magic and March (2 points) cannot
    defeat Wolf Riders (Armor 4) -- in First Reconnaissance as in Solo Conquest
    (``mana_check``; 0 plays the old plan that counted the card as free)."""
    game = Game(scenario, "arythea")
    st = at_move(game, hand=["pure_magic", "march"], crystals={"red": 0, "blue": 0, "green": 0, "white": 0})
    d = st.to_dict(format=1)
    d["source"]["dice"] = ["black"] * len(d["source"]["dice"])
    st = game.state_from_dict(d)
    wolves = [list(game.tables.enemy_ids).index("wolf_riders")]
    kills = {p: parse_policy_spec("heuristic" + p)._core.plan_fight(st.engine, wolves, 0, 1)[1]
             for p in ("", ":mana_check=0")}
    assert kills == {"": 0, ":mana_check=0": 1}
