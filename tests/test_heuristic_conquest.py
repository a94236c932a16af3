"""The ``heuristic`` policy's Solo Conquest planning (ext/_heuristic.pyx, conquest_mode()):
the city garrison as the player sees it (9.9.3, 11.13.1, 11.13.5), partial assaults
(11.12.2), knock-out (11.7.8) and Units taking damage (11.7.3) in the plan, the siege goal,
and First Reconnaissance left as it was."""
from __future__ import annotations

import pytest

from mksim.game import Game
from mksim.policies import get_policy, parse_policy_spec
from mksim.runner import GameConfig, _play_state

# Solo Conquest, seed 5: the hero starts on the portal (hex 0); hex 2 next to it is plains
# (Move 2 by Day, 9.2).  The sites a few spaces away (ruins, village, mage tower) are removed
# so that the city is the only goal of the turn.
SEED = 5
PORTAL, CITY = 0, 2
CLEARED = (8, 10, 14, 19)
STRONG_HAND = ["rage", "rage", "determination", "march", "swiftness", "improvisation", "cold_toughness"]
STRONG_UNITS = ["utem_guardsmen", "utem_swordsmen", "foresters"]
GARRISON = ["minotaur", "gargoyle", "freezers"]       # brown, brown, white (green level 5, 9.9.3)


@pytest.fixture(scope="module")
def game():
    return Game("solo-conquest", "tovak")


def city_position(game, garrison=GARRISON, colour="green", hand=None, units=(), revealed=True,
                  city=CITY, round_=None):
    """Round 1's first turn at its movement, with a level-5 city of ``colour`` on hex
    ``city`` holding ``garrison`` (face up when ``revealed``, 11.13.5), ``hand`` and ``units``."""
    st = game.new_state(SEED, 0)
    while st.to_dict()["phase"] != "move":
        legal = st.legal_actions()
        names = [st.action_to_string(int(a)) for a in legal]
        st.apply(int(next((a for a, s in zip(legal, names) if s.startswith("take a regular turn")), legal[0])))
    d = st.to_dict(format=1)          # format 1: the hand is written over the deck as it is
    hexes = {str(k): {"site": None, "tokens": [], "ruins": None, "flags": []} for k in CLEARED}
    hexes[str(city)] = {"site": "city", "colours": [colour], "city_level": 5, "tokens": list(garrison),
                        "flags": ["tokens_revealed"] if revealed else []}
    d["map"] = {"hexes": hexes}
    p = d["players"][0]
    if hand is not None:
        p["hand"] = list(hand)
    p["units"] = [{"unit": u} for u in units]
    p["command_tokens"] = max(p["command_tokens"], len(units))
    if round_ is not None:
        d["round"] = round_
    return game.state_from_dict(d)


def enemy(game, ident):
    return game.content.get("enemies", ident)


def play_turn(st, pol):
    """Let ``pol`` play until the next turn starts; return the city hex of the final state."""
    pol.reset(SEED, 0)
    for _ in range(300):
        st.apply(pol.choose(st, st.legal_actions()))
        if st.to_dict()["phase"] in ("turn_start", "tactics", "game_over"):
            break
    d = st.to_dict()
    return d, next(h for t in d["map"]["tiles"] for h in t["hexes"] if h["index"] == CITY)


# -- the garrison as the planner sees it (9.9.3, 11.10.1, 11.13.1) --------------------------

@pytest.mark.parametrize("colour", ["green", "red", "white", "blue"])
def test_11_13_1_garrison_gets_its_citys_defender_bonus(game, colour):
    st = city_position(game, garrison=["minotaur", "fire_mages"], colour=colour)
    garrison = get_policy("heuristic")._core.plan_city(st.engine, CITY)[0]
    mino, mage = enemy(game, "minotaur"), enemy(game, "fire_mages")
    # every defender is fortified (11.10.1); white: +1 Armor; blue: +2 on the Fire attack;
    # red: the physical attacker gains Brutal, green: Poison (11.13.1)
    assert all(g["fortified"] for g in garrison)
    assert [g["armor"] for g in garrison] == [mino["armor"] + (colour == "white"), mage["armor"] + (colour == "white")]
    assert garrison[1]["attack"] == [mage["attacks"][0]["value"] + 2 * (colour == "blue")]
    assert garrison[0]["attack"] == [mino["attacks"][0]["value"]]
    assert ("poison" in garrison[0]["abilities"]) == (colour == "green")
    assert "brutal" in garrison[0]["abilities"]               # Minotaur's own Brutal
    assert "poison" not in garrison[1]["abilities"] and "brutal" not in garrison[1]["abilities"]


def test_9_9_3_face_down_garrison_counts_as_the_average_of_its_colours(game):
    # face down (9.9.3), the tokens are valued by the average token of their back's colour,
    # the same for any identity of the token (the planner never reads it)
    pol = get_policy("heuristic")._core
    seen = []
    for garrison in (GARRISON, ["medusa", "werewolf", "gunners"]):
        st = city_position(game, garrison=garrison, colour="white", revealed=False)
        pol.bind(st.engine)
        seen.append(pol.plan_city(st.engine, CITY)[0])
    assert seen[0] == seen[1]
    brown, white = pol.pile_average(3), pol.pile_average(5)
    assert [g["armor"] for g in seen[0]] == [brown["armor"] + 1, brown["armor"] + 1, white["armor"] + 1]


# -- the plan (11.7.3, 11.7.8, 11.12.2) -------------------------------------------------------

def test_11_7_8_a_knocked_out_hero_defeats_no_defender(game):
    # Seven cards and no Unit: whatever the hand blocks, the rest of the garrison's damage
    # puts at least the Hand limit of Wounds into the hand, which knocks the hero out before
    # the Attack phase (11.7.8): no defender falls, so the assault is not worth it.
    st = city_position(game, hand=STRONG_HAND)
    _, worth, kills, wounds = get_policy("heuristic")._core.plan_city(st.engine, CITY)
    assert kills == 0 and worth is None and wounds >= 5


def test_11_7_3_units_take_the_blows_so_a_defender_falls(game):
    # The same hand with three Units: each unblocked attack goes to a Unit (11.7.3-11.7.4),
    # the hero keeps its cards and defeats a defender -- a partial assault (11.12.2)
    pol = get_policy("heuristic")._core
    _, _, _, alone = pol.plan_city(city_position(game, hand=STRONG_HAND).engine, CITY)
    st = city_position(game, hand=STRONG_HAND, units=STRONG_UNITS)
    _, worth, kills, wounds = pol.plan_city(st.engine, CITY)
    assert kills >= 1 and worth is not None and worth > 0
    assert wounds < alone                 # Wounds counted with Poison's discard-pile ones (11.7.9)


def test_11_12_2_the_policy_assaults_and_leaves_shields(game):
    st = city_position(game, hand=STRONG_HAND, units=STRONG_UNITS)
    d, city = play_turn(st, get_policy("heuristic"))
    assert city["city_shields"][0] >= 1                    # a Shield per defender defeated
    assert len(city["tokens"]) == 3 - city["city_shields"][0]
    assert d["players"][0]["reputation"] == -1              # 10.4: the assault's Reputation
    assert d["players"][0]["position"] == PORTAL            # 11.12.4: withdrawn


def test_no_assault_with_a_hand_that_cannot_hurt_the_garrison(game):
    st = city_position(game, hand=["march", "stamina", "promise", "tranquility", "concentration"])
    d, city = play_turn(st, get_policy("heuristic"))
    assert city["city_shields"][0] == 0 and len(city["tokens"]) == 3
    assert d["players"][0]["reputation"] == 0


def test_siege_goal_heads_for_a_city_the_hand_could_hurt(game):
    # round 4 (siege_round): the city lies 7 Move away, beyond this turn's Move; the goal is
    # a space next to it (G_SIEGE = 6), to assault next turn with a full hand
    st = city_position(game, hand=STRONG_HAND, units=STRONG_UNITS, city=10, round_=4)
    pol = get_policy("heuristic")._core
    pol.reset(SEED, 0)
    pol.choose_engine(st.engine)
    mem = pol.memory()
    nbs = {h["index"]: h["neighbours"] for t in st.to_dict()["map"]["tiles"] for h in t["hexes"]}
    assert mem["goal_kind"] == 6 and 10 in nbs[mem["goal_hex"]]
    # before siege_round the same position has another goal
    st = city_position(game, hand=STRONG_HAND, units=STRONG_UNITS, city=10, round_=4)
    late = parse_policy_spec("heuristic:siege_round=5")._core
    late.reset(SEED, 0)
    late.choose_engine(st.engine)
    assert late.memory()["goal_kind"] != 6


# -- build-up: Wounds healed and Units recruited are worth more (conquest_heal / _recruit) ----

def at_village(game, hand):
    """Round 1's first turn at its movement, the hero on the village of hex 10 with ``hand``
    and two Peasants (village Units, cost 4) in the Units offer."""
    st = city_position(game)
    d = st.to_dict(format=1)
    d["map"] = {"hexes": {}}
    d["players"][0]["position"] = 10
    d["players"][0]["hand"] = list(hand)
    d["unit_offer"] = [{"unit": "peasants"}, {"unit": "peasants"}, {"unit": "utem_guardsmen"}]
    return game.state_from_dict(d)


def test_20_2_solo_conquest_heals_wounds_before_recruiting(game):
    # six Influence (Promise powered 4 + Threaten 2): two Healing points at the village (3
    # each, 10.5) or Peasants (4).  In Solo Conquest a Wound card owned costs 2 points at the
    # end (20.2 Greatest Beating, 20.5.1) and clogs the hand, so the Wounds go first; with the
    # conquest multipliers at 1 (and the old purchases, buy_value / buy_plan 0) the policy
    # recruits as in First Reconnaissance
    hand = ["wound", "wound", "promise", "threaten", "wound"]
    d, _ = play_turn(at_village(game, hand), get_policy("heuristic"))
    p = d["players"][0]
    assert p["units"] == [] and p["hand"].count("wound") == 1
    d, _ = play_turn(at_village(game, hand), parse_policy_spec(
        "heuristic:conquest_heal=1,conquest_recruit=1,buy_value=0,buy_plan=0"))
    p = d["players"][0]
    assert [u["unit"] for u in p["units"]] == ["peasants"] and p["hand"].count("wound") == 3


# -- purchases: valued by strength and planned on the turn's Influence (buy_value / buy_plan) -

def _recruits_at_village(game, spec, offer):
    st = at_village(game, ["promise", "threaten", "march", "rage", "stamina"])
    d = st.to_dict(format=1)
    d["unit_offer"] = [{"unit": u} for u in offer]
    d, _ = play_turn(game.state_from_dict(d), parse_policy_spec(spec))
    return [u["unit"] for u in d["players"][0]["units"]]


def test_10_6_plays_influence_for_the_stronger_unit_instead_of_the_cheap_one(game):
    # 10.6.1: Herbalists (level 1, 3 Influence; Heal 2, no Attack or Block) and Utem
    # Crossbowmen (level 2, 6; Attack or Block 3, Ranged Attack 2), both with the village
    # icon; Tovak at level 1 has one Command token (7.2.1).  Powered Promise (Influence 4)
    # and Threaten (2) make 6 (Reputation 0: no modifier, 10.2.3).  The old choice recruits
    # Herbalists as soon as Promise is played; the plan plays Threaten too for the Crossbowmen.
    offer = ["herbalists", "utem_crossbowmen"]
    assert _recruits_at_village(game, "heuristic:buy_value=0,buy_plan=0", offer) == ["herbalists"]
    assert _recruits_at_village(game, "heuristic", offer) == ["utem_crossbowmen"]


def test_7_1_units_of_one_level_are_ranked_by_strength_in_solo_conquest(game):
    # Illusionists and Red Cape Monks: both level 2 (7.1).  By level they are worth the same;
    # by strength the Monks' Attack / Block 3 (Fire 4) and Armor 4 beat the Illusionists'
    # Influence 4 and Armor 2 (physical resistance, 11.9).  First Reconnaissance keeps the
    # level (the purchases there are as before).
    ids = list(game.tables.unit_ids)
    st = at_village(game, ["march"])
    for spec, differ in (("heuristic", True), ("heuristic:buy_value=0", False)):
        pol = parse_policy_spec(spec)
        w = [pol._core.buy_worth(st.engine, unit=ids.index(u)) for u in ("illusionists", "red_cape_monks")]
        assert (w[1] > w[0]) if differ else (w[1] == w[0]), (spec, w)
    fr = Game("first-reconnaissance", "tovak")
    st = fr.new_state(SEED, 0)
    pol = parse_policy_spec("heuristic")
    assert pol._core.buy_worth(st.engine, unit=ids.index("illusionists")) == \
        pol._core.buy_worth(st.engine, unit=ids.index("red_cape_monks"))


# -- First Reconnaissance is unchanged -------------------------------------------------------

def test_17_3_1_conquest_parameters_do_not_touch_first_reconnaissance():
    # the city of First Reconnaissance cannot be entered (17.3.1): conquest_mode() is off,
    # so no conquest parameter changes a game
    config = GameConfig("first-reconnaissance", "goldyx")
    a, _, _ = _play_state(config, 11, 0, parse_policy_spec("heuristic"))
    b, _, _ = _play_state(config, 11, 0, parse_policy_spec(
        "heuristic:city_weight=50,siege_weight=50,siege_round=1,city_explore=9,conquest_heal=5,conquest_recruit=5,"
        "approach_weight=7,buy_value=0,buy_plan=0,buy_card_cost=3,conquest_wound=4,conquest_aggression=3"))
    assert a.to_dict() == b.to_dict()
    # ... while in Solo Conquest they do
    config = GameConfig("solo-conquest", "goldyx")
    a, _, _ = _play_state(config, 11, 0, parse_policy_spec("heuristic"))
    b, _, _ = _play_state(config, 11, 0, parse_policy_spec("heuristic:city_explore=9"))
    assert a.to_dict() != b.to_dict()


# -- idle turns: walking towards a site out of this turn's reach (approach_weight) ----------

def far_den(game, hand):
    """Round 1's first turn at its movement, Day: the hero on the portal (hex 0) with
    ``hand``; the only site a monster den on hex 20 (hills, 8 Move away by Day, 9.2) holding
    a face-up Diggers token; no city, no rampaging enemy near the way."""
    st = city_position(game, hand=hand)
    d = st.to_dict(format=1)
    hexes = {str(k): {"site": None, "tokens": [], "ruins": None, "flags": []} for k in (2, 7, 8, 10, 13, 14, 17, 19)}
    hexes["20"] = {"site": "monster_den", "tokens": ["diggers"], "flags": ["tokens_revealed"]}
    d["map"] = {"hexes": hexes}
    return game.state_from_dict(d)


def test_idle_turn_walks_towards_a_den_the_hand_could_take(game):
    # Exploring is made worthless (explore_weight -5) so that no goal lies within this
    # turn's Move (4 + a few sideways cards < 8): with approach_weight 0 the turn ends where
    # it starts; by default the hero walks towards the den (G_APPROACH = 7), the Diggers
    # (Armor 3, Attack 3) being defeated by the hand in hand, but does not step into it
    hand = ["rage", "rage", "determination", "march", "cold_toughness"]
    spec = "heuristic:explore_weight=-5"
    pol = parse_policy_spec(spec)._core
    pol.reset(SEED, 0)
    pol.choose_engine(far_den(game, hand).engine)
    assert pol.memory()["goal_kind"] == 7 and pol.memory()["goal_hex"] == 20
    d, _ = play_turn(far_den(game, hand), parse_policy_spec(spec))
    moved_to = d["players"][0]["position"]
    assert moved_to not in (PORTAL, 20) and d["players"][0]["fame"] == 0
    there = far_den(game, hand).to_dict(format=1)
    there["players"][0]["position"] = moved_to
    # nearer the den than the portal's 8 Move
    assert parse_policy_spec(spec)._core.path_costs(game.state_from_dict(there).engine)[20] < 8
    d, _ = play_turn(far_den(game, hand), parse_policy_spec(spec + ",approach_weight=0"))
    assert d["players"][0]["position"] == PORTAL


# -- fights priced for the score: Wounds and Fame apart (conquest_wound / _aggression) -------

def prowlers_next_door(game, hand):
    """Round 1's first turn at its movement: the hero on the portal (hex 0) with ``hand``,
    rampaging Prowlers (Armor 3, Attack 4, 2 Fame) face up on the plains of hex 2 next to it;
    no city or other site near."""
    st = city_position(game, hand=hand)
    d = st.to_dict(format=1)
    hexes = {str(k): {"site": None, "tokens": [], "ruins": None, "flags": []} for k in CLEARED}
    hexes[str(CITY)] = {"site": "rampaging_orc", "tokens": ["prowlers"], "flags": ["tokens_revealed"]}
    d["map"] = {"hexes": hexes}
    return game.state_from_dict(d)


def test_20_2_wounds_priced_for_the_score_in_solo_conquest(game):
    # Rage (Attack 2) and March sideways (Attack 1) defeat the Prowlers (Armor 3, 11.8) but
    # leave nothing to block their Attack 4: Tovak (Armor 2) takes 2 Wounds (11.7.2).  The
    # plan is worth aggression x 2 Fame - wound_weight x 2 Wounds; conquest_aggression (1.5
    # by default) and conquest_wound scale the two parts in Solo Conquest only
    ids = list(game.tables.enemy_ids)
    hand = ["rage", "march"]
    p = parse_policy_spec("heuristic")
    worth, kills, wounds = p._core.plan_fight(prowlers_next_door(game, hand).engine, [ids.index("prowlers")])
    assert (kills, wounds) == (1, 2)
    assert worth == pytest.approx(1.5 * 2 - 0.45 * 2)
    p = parse_policy_spec("heuristic:conquest_wound=3,conquest_aggression=2")
    worth, kills, wounds = p._core.plan_fight(prowlers_next_door(game, hand).engine, [ids.index("prowlers")])
    assert (kills, wounds) == (1, 2) and worth == pytest.approx(2 * 2 - 3 * 0.45 * 2)
    # at 4 x the Wound price the fight is worth less than fight_threshold (0.2): no challenge
    for spec, fought in (("heuristic", True), ("heuristic:conquest_wound=4", False)):
        d, _ = play_turn(prowlers_next_door(game, hand), parse_policy_spec(spec))
        assert (d["players"][0]["fame"] == 2) == fought, spec
    # First Reconnaissance: the multipliers do nothing (its measure is Fame, 17.3.1)
    fr = Game("first-reconnaissance", "tovak")
    st = fr.new_state(SEED, 0)
    a = parse_policy_spec("heuristic")._core.plan_fight(st.engine, [ids.index("prowlers")])
    b = parse_policy_spec("heuristic:conquest_wound=3,conquest_aggression=2")._core.plan_fight(
        st.engine, [ids.index("prowlers")])
    assert a == b


# -- mana the plan can pay (mana_check; 5.5.2, 6.1.7) -----------------------------------------

def mana_position(game, hand, crystals=0, dice=("black", "black", "black")):
    """The fixture turn with ``hand``, ``crystals`` red crystals and the Source ``dice``
    (black dice cannot be used by Day, 5.1.1)."""
    st = city_position(game, hand=hand)
    d = st.to_dict(format=1)
    d["players"][0]["crystals"]["red"] = crystals
    d["source"]["dice"] = list(dice)
    return game.state_from_dict(d)


def plan_kills(game, st, foes, **params):
    pol = parse_policy_spec("heuristic" + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else ""))
    idx = [game.content.ids("enemies").index(f) for f in foes]
    return pol._core.plan_fight(st.engine, idx, 0, 1)[1]


def test_pure_magic_attacks_only_with_a_red_mana(game):
    # Wolf Riders, Armor 4 (Swift: not blockable with this hand).  Pure Magic's Attack 4
    # needs a red mana paid (its effect is chosen by the colour paid); March gives 1
    # sideways (6.1.7).  No red mana: 2 points, no kill; a red crystal: 5, a kill.
    hand = ["pure_magic", "march"]
    assert plan_kills(game, mana_position(game, hand), ["wolf_riders"]) == 0
    assert plan_kills(game, mana_position(game, hand, crystals=1), ["wolf_riders"]) == 1
    assert plan_kills(game, mana_position(game, hand, dice=("red", "black", "black")), ["wolf_riders"]) == 1
    # the old plan (mana_check=0) counted Pure Magic as free: 0.8 x 4 + 1 >= 4
    assert plan_kills(game, mana_position(game, hand), ["wolf_riders"], mana_check=0) == 1


def test_a_spell_needs_a_mana_of_its_colour(game):
    # Fireball: Ranged Fire Attack 5 for a red mana (the Spell's basic effect is powered)
    hand = ["fireball", "march"]
    assert plan_kills(game, mana_position(game, hand), ["wolf_riders"]) == 0
    assert plan_kills(game, mana_position(game, hand, dice=("blue", "white", "green")), ["wolf_riders"]) == 0
    assert plan_kills(game, mana_position(game, hand, crystals=1), ["wolf_riders"]) == 1


def test_one_mana_powers_one_card(game):
    # two Wolf Riders, Pure Magic and Fireball: one red crystal pays for one of them (one
    # kill), two crystals for both
    hand = ["pure_magic", "fireball", "march"]
    foes = ["wolf_riders", "wolf_riders"]
    assert plan_kills(game, mana_position(game, hand, crystals=1), foes) == 1
    assert plan_kills(game, mana_position(game, hand, crystals=2), foes) == 2


def block_phase(game, block):
    """Block phase against Swordsmen (Attack 6, Armor 5: the hand cannot defeat them, so no
    card is kept for the Attack phase) with ``block`` physical Block already played."""
    fx = {"format": 2, "phase": "combat_block",
          "players": [{"position": 0, "hand": ["march", "stamina", "promise"]}],
          "turn": {"action_taken": 1},
          "combat": {"enemies": [{"enemy": "swordsmen"}], "block": [block, 0, 0, 0]}}
    return game.state_from_dict(fx)


@pytest.mark.parametrize("block_pool, played", [(1, True), (0, False)])
def test_11_6_a_block_begun_is_finished(game, block_pool, played):
    # 4 Block played, 2 more needed: the three cards sideways (6.1.7) finish it; the old
    # check (block_pool=0) compared the 3 points of the hand with the whole Attack 6 and
    # ended the phase with the block half built
    st = block_phase(game, 4)
    pol = parse_policy_spec(f"heuristic:block_pool={block_pool}")
    pol.reset(SEED, 0)
    words = st.action_to_string(int(pol.choose(st, st.legal_actions())))
    assert words.startswith("play ") == played, words
    assert (words == "end the Block phase") == (not played), words


def test_11_6_no_block_begun_that_the_hand_cannot_finish(game):
    # nothing played yet: 3 points cannot stop Attack 6, so no card is spent on it
    st = block_phase(game, 0)
    pol = parse_policy_spec("heuristic")
    pol.reset(SEED, 0)
    assert st.action_to_string(int(pol.choose(st, st.legal_actions()))) == "end the Block phase"


def attack_phase(game, hand):
    """Attack phase against Ironclads (Armor 3, resists physical) with 1 physical and 2 Ice
    Attack played: 2 + 1 // 2 = 2 points count (11.9.2)."""
    fx = {"format": 2, "phase": "combat_attack",
          "players": [{"position": 0, "hand": list(hand)}],
          "turn": {"action_taken": 1},
          "combat": {"enemies": [{"enemy": "ironclads"}], "attack": [[1, 0, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}}
    return game.state_from_dict(fx)


@pytest.mark.parametrize("attack_half, played", [(1, True), (0, False)])
def test_11_9_2_one_more_resisted_point_completes_the_attack(game, attack_half, played):
    # Promise sideways adds 1 physical: 2 + (1 + 1) // 2 = 3 = Armor 3.  The old check
    # (attack_half=0) added the card's half point to the 2 counted and gave up at 2.5
    st = attack_phase(game, ["promise"])
    pol = parse_policy_spec(f"heuristic:attack_half={attack_half}")
    pol.reset(SEED, 0)
    words = st.action_to_string(int(pol.choose(st, st.legal_actions())))
    assert words.startswith("play Promise sideways") == played, words
    if played:
        st.apply(int(pol.choose(st, st.legal_actions())))
        words = st.action_to_string(int(pol.choose(st, st.legal_actions())))
        assert words.startswith("attack Ironclads"), words       # 3 points defeat it


def test_11_9_2_the_half_point_alone_defeats_nothing(game):
    # the odd pool's half point needs a card to complete it: with only a Wound in hand the
    # 2 points stay short of Armor 3 and the phase ends
    st = attack_phase(game, ["wound"])
    pol = parse_policy_spec("heuristic")
    pol.reset(SEED, 0)
    assert st.action_to_string(int(pol.choose(st, st.legal_actions()))) == "end the Attack phase"
