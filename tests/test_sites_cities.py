"""Cities and sites of Solo Conquest / First Reconnaissance.

City defender bonuses (11.13.1, LL-6.1.7), assaults with Shields and conquest (11.1.1,
11.12.2-11.13.4), the empty-garrison assault (11.12.3, 21.2 A14), interaction in a conquered
city (10.2.4, 10.10, 10.5), plundering a village (10.7.1.4, 4.1) and exploring with tiles from
the box (9.8.8).
"""
import pytest

from interaction_setup import HEX_CONQUERED, PAY_TOKEN, PH_INTERACT, PH_MOVE, Game
from mksim._combat import CombatTester
from mksim._engine import Engine, UnitsTester, describe, encode
from mksim._rules import Rules
from mksim._scoring import ScoringTester
from mksim._state import GameCore

# Solo Conquest, seed 5: the hero starts on the portal (hex 0); its neighbours 2 (direction
# 1) and 6 (direction 5) are plains, cost 2.
SEED = 5
PORTAL, CITY, OTHER = 0, 2, 6
TO_CITY = 1                         # A_MOVE direction from the portal to hex CITY


def solo(content, tables, ll=False, regular_turn=True):
    core = GameCore.new(tables, content, "solo_conquest", "arythea", SEED, lost_legion_cards=ll)
    eng = Engine(core, tables, content, "solo_conquest")
    eng.apply(encode("tactic", content.ids("tactics").index("early_bird")))
    if regular_turn:
        eng.apply(encode("regular_turn"))
    return core, eng


def kinds(eng):
    return sorted({describe(int(a)).split("(")[0] for a in eng.legal_actions()})


def city_combat(content, tables, colour, enemies, rampaging=(), ll=False):
    """A combat at a city of `colour` on hex CITY: the garrison tokens lie on the city,
    fortified; slots in `rampaging` lie on hex OTHER and joined as rampaging enemies."""
    core, eng = solo(content, tables, ll=ll)
    ScoringTester(core).set_hex(CITY, site="city", colours=[colour])
    ct = CombatTester(core)
    n = len(enemies)
    ct.begin(enemies, site_fortified=[i for i in range(n) if i not in rampaging],
             rampaging=list(rampaging), hexes=[OTHER if i in rampaging else CITY for i in range(n)],
             site_hex=CITY)
    return core, ct


# -- 11.13.1 city defender bonuses ---------------------------------------------------------

def test_11_13_1_white_city_defenders_have_plus_1_armor_rampaging_joiners_not(content, tables):
    # swordsmen Armor 5 and guardsmen Armor 7 defend the white city; rampaging prowlers
    # (Armor 3) joined the assault and are no defenders (11.10.4)
    core, ct = city_combat(content, tables, "white", ["swordsmen", "guardsmen", "prowlers"], rampaging=[2])
    assert [ct.enemy_armor(s) for s in range(3)] == [6, 8, 3]


def test_11_13_1_other_city_colours_give_no_armor(content, tables):
    core, ct = city_combat(content, tables, "blue", ["swordsmen", "guardsmen"])
    assert [ct.enemy_armor(s) for s in range(2)] == [5, 7]


def test_11_13_1_blue_city_fire_and_ice_attacks_plus_2_cold_fire_plus_1(content, tables):
    # fire mages Fire 6 -> 8, ice mages Ice 5 -> 7, altem mages Cold Fire 4 -> 5,
    # swordsmen physical 6 -> 6 (21.2 A3 decision)
    core, ct = city_combat(content, tables, "blue", ["fire_mages", "ice_mages", "altem_mages", "swordsmen"])
    assert [ct.block_needed(s) for s in range(4)] == [8, 7, 5, 6]
    assert ct.damage_of(0) == 8                     # the raised value is also the damage
    assert ct.damage_of(2) == 10                    # altem mages: Brutal on the raised 5


def test_11_13_1_red_city_physical_attacks_are_brutal(content, tables):
    # swordsmen physical 6 -> damage 12; fire mages' Fire 6 stays 6 (only physical attacks);
    # minotaur is Brutal already: 10, not 20
    core, ct = city_combat(content, tables, "red", ["swordsmen", "fire_mages", "minotaur"])
    assert [ct.damage_of(s) for s in range(3)] == [12, 6, 10]
    assert ct.block_needed(0) == 6                  # Brutal changes damage, not the block needed


def test_11_13_1_red_city_rampaging_joiner_is_not_brutal(content, tables):
    core, ct = city_combat(content, tables, "red", ["swordsmen", "prowlers"], rampaging=[1])
    assert [ct.damage_of(s) for s in range(2)] == [12, 4]


def test_11_13_1_green_city_physical_attack_poisons(content, tables):
    # swordsmen 6 physical, unblocked, on Arythea (Armor 2): 3 Wounds in hand and, with
    # Poison from the green city, 3 more in the discard pile (11.7.9)
    core, ct = city_combat(content, tables, "green", ["swordsmen"])
    hand0, disc0 = ct.hand.count("wound"), ct.discard.count("wound")
    ct.set_phase("damage")
    assert ct.damage_start(0) == 6
    ct.damage_to_hero()
    assert ct.hand.count("wound") - hand0 == 3
    assert ct.discard.count("wound") - disc0 == 3


def test_11_13_1_white_city_physical_attack_does_not_poison(content, tables):
    core, ct = city_combat(content, tables, "white", ["swordsmen"])
    disc0 = ct.discard.count("wound")
    ct.set_phase("damage")
    ct.damage_start(0)
    ct.damage_to_hero()
    assert ct.hand.count("wound") == 3 and ct.discard.count("wound") == disc0


def test_11_13_1_summoned_monsters_get_no_city_bonus(content, tables):
    # reading: a monster summoned by a city defender never lay on the city (11.6.2) and is
    # not fortified either; in the red city its physical attack stays as printed
    core, ct = city_combat(content, tables, "red", ["orc_summoners"])
    ct.set_phase("block")
    assert ct.summon() == 1
    monster = content.get("enemies", ct.enemy(1)["enemy"])
    value = monster["attacks"][0]["value"]
    assert ct.damage_of(1) == value * (2 if "brutal" in monster.get("abilities", []) else 1)


def test_10_9_2_city_hand_limit_bonus_leader_2_shield_1(content, tables):
    core, eng = solo(content, tables)
    sc = ScoringTester(core)
    sc.set_hex(OTHER, site="city", colours=["red"], owner=0, flags=HEX_CONQUERED, city_shields=[2])
    assert sc.hand_limit_bonus(0) == 2                      # next to a city it leads
    sc.set_hex(OTHER, owner=1)                              # another leader, one Shield of ours
    assert sc.hand_limit_bonus(0) == 1


def test_LL_6_1_7_city_bonus_per_attack(content, tables):
    # Heroes (fire): physical 4 and Fire 2.  Red city: only the physical attack is Brutal
    # (8 and 2); blue city: only the Fire attack gets +2 (4 and 4).
    core, ct = city_combat(content, tables, "red", ["heroes_fire"], ll=True)
    assert (ct.damage_of(0, 0), ct.damage_of(0, 1)) == (8, 2)
    core, ct = city_combat(content, tables, "blue", ["heroes_fire"], ll=True)
    assert (ct.damage_of(0, 0), ct.damage_of(0, 1)) == (4, 4)


# -- assaulting a city (11.1.1, 11.10, 11.12.2-11.13.4) --------------------------------------

def city_with_garrison(content, tables, colour, garrison):
    core, eng = solo(content, tables)
    ScoringTester(core).set_hex(CITY, site="city", colours=[colour])
    ct = CombatTester(core)
    r = Rules(core)
    r.set_hex(CITY, tokens=[ct.token_for(e) for e in garrison])
    r.set_move_points(2)
    return core, eng, ct, r


def test_11_1_1_city_assault_conquers_with_one_shield_per_defender(content, tables):
    core, eng, ct, r = city_with_garrison(content, tables, "white", ["swordsmen", "golems"])
    fame0 = ct.fame
    eng.apply(encode("move", TO_CITY))
    assert ct.active and ct.reputation == -1                # 11.1.1: -1 whatever the outcome
    assert ct.n_enemies == 2
    assert [ct.fortification_level(s) for s in range(2)] == [1, 1]      # 11.10.1
    assert [ct.enemy_armor(s) for s in range(2)] == [6, 6]              # white +1 (11.13.1)
    # Fire Siege 12 against Armor 6 + 6 (golems resist only physical) defeats both
    ct.set_attack("siege", "fire", 12)
    eng.apply(encode("attack", 0b11))
    while ct.active:
        eng.apply(encode("next_phase"))
    d = core.to_dict()
    city = next(h for t in d["map"]["tiles"] for h in t["hexes"] if h["index"] == CITY)
    assert ct.fame - fame0 == 8                             # swordsmen 4 + golems 4
    assert city["city_shields"][:1] == [2]                      # 11.12.2
    assert city["owner"] == 0 and "conquered" in city["flags"]   # 11.13.3-11.13.4: the leader
    assert city["tokens"] == []
    assert d["players"][0]["position"] == CITY              # 11.12.3: the turn ends there
    assert ScoringTester(core).cities_conquered() == 1      # 20.5.2: +10 per city
    assert d["final_turns_left"] == 0                       # the second city is still to come


def test_11_12_4_failed_city_assault_keeps_the_shield_and_withdraws(content, tables):
    core, eng, ct, r = city_with_garrison(content, tables, "white", ["swordsmen", "golems"])
    eng.apply(encode("move", TO_CITY))
    ct.set_attack("siege", "fire", 6)                       # only the swordsmen (Armor 6)
    eng.apply(encode("attack", 0b01))
    while ct.active:
        acts = [describe(int(a)) for a in eng.legal_actions()]
        nxt = next((a for a in acts if a.startswith(("damage_from", "damage_hero"))), None)
        eng.apply(encode(nxt.split("(")[0], int(nxt.split("(")[1][:-1])) if nxt else encode("next_phase"))
    d = core.to_dict()
    city = next(h for t in d["map"]["tiles"] for h in t["hexes"] if h["index"] == CITY)
    assert city["city_shields"][:1] == [1]                      # 11.12.2: one defender defeated
    assert "conquered" not in city["flags"] and city["owner"] is None   # 11.13.2
    assert [t["enemy"] for t in city["tokens"]] == ["golems"] and city["tokens_face_up"]
    assert d["players"][0]["position"] == PORTAL            # 11.12.4: back where it came from
    assert ct.reputation == -1


def test_17_3_4_conquering_the_last_city_gives_the_final_turn(content, tables):
    # the other city (hex OTHER) is conquered already and the tile stack is empty: taking
    # this one triggers the player's last turn (14.3.2; n_players + 1 counts the dummy slot)
    core, eng, ct, r = city_with_garrison(content, tables, "green", ["swordsmen"])
    ScoringTester(core).set_hex(OTHER, site="city", colours=["red"], owner=0, flags=HEX_CONQUERED)
    r.clear_tile_stack()
    eng.apply(encode("move", TO_CITY))
    ct.set_attack("siege", "fire", 5)
    eng.apply(encode("attack", 0b1))
    while ct.active:
        eng.apply(encode("next_phase"))
    assert core.to_dict()["final_turns_left"] == 2
    assert ScoringTester(core).cities_conquered() == 2


def test_11_12_3_assault_on_a_keep_without_garrison_conquers_it_at_once(content, tables):
    # 21.2 A14: a garrison pile that was empty at the reveal leaves the keep unguarded; the
    # assault still costs Reputation (11.1.1), is the turn's action, and conquers it
    core, eng = solo(content, tables)
    r = Rules(core)
    r.set_hex(CITY, site=content.ids("sites").index("keep"), tokens=[])
    r.set_move_points(2)
    eng.apply(encode("move", TO_CITY))
    d = core.to_dict()
    keep = next(h for t in d["map"]["tiles"] for h in t["hexes"] if h["index"] == CITY)
    assert d["players"][0]["reputation"] == -1
    assert keep["owner"] == 0 and "conquered" in keep["flags"]
    assert d["turn"]["action_taken"] and "move" not in kinds(eng)


# -- interaction in a conquered city (10.2.4, 10.10) -------------------------------------------

def city_game(content, tables, colour, shields=0, reputation=0, hand=()):
    g = Game(content, tables, site="city", owner=0, flags=HEX_CONQUERED, reputation=reputation, hand=hand)
    g.sc.set_hex(g.pos, colours=[colour], city_shields=[shields])
    return g


def test_10_2_4_city_shields_add_influence_once(content, tables):
    # 3 Shields: +3; reputation +3: +1 (10.3) -> 4 Influence before any card (10.2.5: once)
    g = city_game(content, tables, "white", shields=3, reputation=3)
    assert "interact" in g.kinds()
    g.do("interact")
    assert g.turn["phase"] == PH_INTERACT and g.turn["influence"] == 4


def test_10_2_4_no_shield_no_bonus(content, tables):
    g = city_game(content, tables, "white", shields=0)
    g.do("interact")
    assert g.turn["influence"] == 0


def test_10_10_white_city_recruits_units_of_every_type(content, tables):
    # peasants (village icon only, cost 4) can be recruited in the white city
    g = city_game(content, tables, "white", shields=4)
    g.ut.set_unit_offer(["peasants"])
    g.do("interact")
    assert g.of_kind("recruit") == ["recruit(offer=0, disband=-1)"]
    g.recruit(0)
    assert g.ut.unit(0)["unit"] == "peasants" and g.turn["influence"] == 0


def test_10_10_1_other_cities_recruit_only_city_icon_units(content, tables):
    # blue city: altem mages (city icon, cost 12) yes; peasants (village only) no
    g = city_game(content, tables, "blue", shields=12)
    g.ut.set_unit_offer(["peasants", "altem_mages"])
    g.do("interact")
    assert g.of_kind("recruit") == ["recruit(offer=1, disband=-1)"]


def test_10_10_white_city_adds_an_elite_unit_to_the_offer_for_2(content, tables):
    # Solo Conquest (Elite Units in play): 2 Shields pay the [R] 2 Influence
    core, eng = solo(content, tables)
    ScoringTester(core).set_hex(PORTAL, site="city", colours=["white"], owner=0, flags=HEX_CONQUERED,
                                city_shields=[2])
    d0 = core.to_dict()
    top_elite = d0["elite_units"][-1]
    eng.apply(encode("interact"))
    assert "add_elite" in kinds(eng)
    eng.apply(encode("add_elite"))
    d = core.to_dict()
    assert d["unit_offer"] == d0["unit_offer"] + [{"unit": top_elite}]
    assert d["elite_units"] == d0["elite_units"][:-1] and d["turn"]["influence"] == 0
    assert "add_elite" not in kinds(eng)                    # 0 Influence left


def test_17_3_1_no_elite_units_are_added_in_first_reconnaissance(content, tables):
    g = city_game(content, tables, "white", shields=2)
    g.do("interact")
    assert "add_elite" not in g.kinds()


def test_10_10_blue_city_sells_spells_for_7_and_mana(content, tables):
    g = city_game(content, tables, "blue", shields=7)
    g.ut.set_spell_offer(["fireball", None, None])
    g.ut.set_turn(mana={"red": 1})
    g.do("interact")
    assert g.of_kind("buy_spell") == [f"buy_spell(offer=0, pay={PAY_TOKEN['red']})"]
    g.do("buy_spell", 0 | (PAY_TOKEN["red"] << 2))
    assert g.player["deck"][-1] == "fireball" and g.turn["influence"] == 0


def test_10_10_white_city_sells_no_spells(content, tables):
    g = city_game(content, tables, "white", shields=9)
    g.ut.set_spell_offer(["fireball", None, None])
    g.ut.set_turn(mana={"red": 1})
    g.do("interact")
    assert "buy_spell" not in g.kinds() and "buy_artifact" not in g.kinds() and "buy_city_aa" not in g.kinds()


def test_10_10_red_city_sells_artifacts_for_12_drawn_at_the_end_of_the_turn(content, tables):
    g = city_game(content, tables, "red", shields=12)
    n_art = len(g.d["artifact_deck"])
    g.do("interact")
    assert "buy_artifact" in g.kinds()
    g.do("buy_artifact")
    assert g.turn["influence"] == 0 and "buy_artifact" not in g.kinds()
    assert len(g.d["artifact_deck"]) == n_art              # 10.5.2: not before the turn's end
    g.do("end_interact")
    g.do("end_turn")
    # 13.5.2: 1 Artifact -> draw 2, one goes back under the deck: a reward choice
    rewards = g.of_kind("reward")
    assert len(rewards) == 2
    g.do("reward", 0)
    assert len(g.d["artifact_deck"]) == n_art - 1


def test_10_10_green_city_sells_advanced_actions_for_6(content, tables):
    g = city_game(content, tables, "green", shields=12)
    d0 = g.d
    g.do("interact")
    assert g.of_kind("buy_city_aa") == [f"buy_city_aa({k})" for k in range(4)]
    g.do("buy_city_aa", 1)                                  # the offer's second card
    d = g.d
    assert d["players"][0]["deck"][-1] == d0["advanced_action_offer"][1]
    assert d["advanced_action_offer"][1] != d0["advanced_action_offer"][1]     # 6.4.2
    g.do("buy_city_aa", 3)                                  # [R] the top card of the AA deck
    d2 = g.d
    assert d2["players"][0]["deck"][-1] == d["advanced_action_deck"][-1]
    assert g.turn["influence"] == 0


# -- plundering a village (10.7.1.4, 4.1) ------------------------------------------------------

def test_10_7_1_4_plundering_before_the_turn(content, tables):
    core, eng = solo(content, tables, regular_turn=False)
    ScoringTester(core).set_hex(PORTAL, site="village")
    d0 = core.to_dict()["players"][0]
    assert "plunder" in kinds(eng)
    eng.apply(encode("plunder"))
    d = core.to_dict()["players"][0]
    assert d["reputation"] == d0["reputation"] - 1           # 10.4
    assert len(d["hand"]) == len(d0["hand"]) + 2 and len(d["deck"]) == len(d0["deck"]) - 2
    assert d["hand"][-2:] == d0["deck"][-2:][::-1]           # the top two Deed cards
    assert "plunder" not in kinds(eng)                       # once between two turns
    assert "regular_turn" in kinds(eng)                      # it is no action


def test_10_7_1_4_no_plundering_outside_a_village_or_during_the_turn(content, tables):
    core, eng = solo(content, tables, regular_turn=False)
    assert "plunder" not in kinds(eng)                       # the portal is no village
    ScoringTester(core).set_hex(PORTAL, site="village")
    eng.apply(encode("regular_turn"))
    assert "plunder" not in kinds(eng)                       # 4.1: before the turn only


# -- exploring with tiles from the box (9.8.8) -------------------------------------------------

def box_map(content, tables):
    """Solo Conquest with tiles at (0,0) (1,0) (0,1) (2,0) (0,2) and an empty stack: (1,1)
    is a hole next to four tiles, reachable from hex 8."""
    core, eng = solo(content, tables)
    r = Rules(core)
    for pos, hx in (((2, 0), 13), ((0, 2), 16)):
        r.set_position(hx)
        r.set_move_points(2)
        r.explore(*pos)
    r.clear_tile_stack()
    r.set_position(8)
    r.set_move_points(2)
    return core, eng, r


def test_9_8_8_a_hole_next_to_three_tiles_is_filled_from_the_box(content, tables):
    core, eng, r = box_map(content, tables)
    used = {t["tile"] for t in core.to_dict()["map"]["tiles"]}
    assert r.explorable(8) == [(1, 1)]
    assert [a for a in map(describe, map(int, eng.legal_actions())) if a.startswith("explore")] == \
        ["explore(1, 1, box)"]
    eng.apply(encode("explore", (1 << 14) | ((1 + 64) << 7) | (1 + 64)))
    d = core.to_dict()
    new = next(t for t in d["map"]["tiles"] if t["position"] == [1, 1])
    kind = {t["id"]: t["kind"] for t in content["tiles"]}
    assert kind[new["tile"]] == "countryside" and new["tile"] not in used     # from the box
    assert d["turn"]["move_points"] == 0                    # 9.8.3: 2 Move points


def test_9_8_8_box_tiles_only_fill_holes(content, tables):
    # with the stack empty, (2,0)-like positions next to two tiles are not explorable
    core, eng = solo(content, tables)
    r = Rules(core)
    r.clear_tile_stack()
    r.set_position(13)
    r.set_move_points(2)
    assert r.explorable(13) == []
    assert not [a for a in map(describe, map(int, eng.legal_actions())) if a.startswith("explore")]


# -- assertion-like errors (RW_FAME) -----------------------------------------------------------

def test_13_5_a_fame_reward_in_site_data_is_refused(data_copy):
    # altars pay their Fame at once (10.7.10.2); a queued "fame" reward would have no amount,
    # so Engine._bind_sites refuses it instead of the engine meeting it at the end of a turn.
    # load_content refuses such data first (tests/content_edit.py BAD_CASES site_fame_reward);
    # the engine's own refusal is checked on content edited after loading.
    from mksim.content import load_content
    content = load_content(data_copy)
    [site] = [s for s in content["sites"] if s.get("rewards") == ["dungeon_roll"]]
    site["rewards"] = ["fame"]
    tables = content.compile()
    core = GameCore.new(tables, content, "solo_conquest", "arythea", SEED)
    with pytest.raises(ValueError, match="fame"):
        Engine(core, tables, content, "solo_conquest")


def test_9_8_8_once_every_countryside_tile_is_in_use_the_box_gives_a_non_city_core_tile(content, tables):
    # all 11 base Countryside tiles go on the map through the stack; then (2,2), a hole next
    # to at least three tiles and no coastline lane (17.1.1), is filled with a Core tile
    core, eng = solo(content, tables)
    r = Rules(core)
    kind = {t["id"]: t["kind"] for t in content["tiles"]}
    base = {t["id"] for t in content["tiles"] if t["expansion"] == "base"}
    r.clear_tile_stack()
    for t, tid in enumerate(tables.tile_ids):
        if kind[tid] != "countryside" or tid not in base:
            continue
        if tid in {x["tile"] for x in core.to_dict()["map"]["tiles"]}:
            continue
        r.push_tile(t)
        h = next(h for h in range(r.n_hexes) if r.explorable(h))
        r.set_position(h)
        r.set_move_points(2)
        r.explore(*r.explorable(h)[0])
    d = core.to_dict()
    assert sum(kind[x["tile"]] == "countryside" for x in d["map"]["tiles"]) == 11
    assert not d["map"]["core_revealed"]
    h = next(h for h in range(r.n_hexes) if r.explorable(h) == [(2, 2)])
    r.set_position(h)
    r.set_move_points(2)
    r.explore(2, 2)
    d = core.to_dict()
    new = next(t for t in d["map"]["tiles"] if t["position"] == [2, 2])
    assert kind[new["tile"]] == "core"                      # never a city tile
    assert d["map"]["core_revealed"]                        # 9.9.8


# -- 9.10 token visibility ---------------------------------------------------------------------

def keep_next_to_hex_6(content, tables, time):
    """A keep with a face-down grey token on hex 10: next to hex 6, not to the portal."""
    core, eng = solo(content, tables)
    r = Rules(core)
    r.set_time(time)
    ct = CombatTester(core)
    r.set_hex(10, site=content.ids("sites").index("keep"), tokens=[ct.token_for("swordsmen")], flags=0)
    r.set_move_points(2)
    return core, eng


def keep_face_up(core):
    return next(h for t in core.to_dict()["map"]["tiles"] for h in t["hexes"] if h["index"] == 10)["tokens_face_up"]


def test_9_10_1_by_day_a_garrison_next_to_the_hero_is_revealed(content, tables):
    core, eng = keep_next_to_hex_6(content, tables, "day")
    assert not keep_face_up(core)
    eng.apply(encode("move", 5))                            # portal -> hex 6 (plains, 2)
    assert keep_face_up(core)


def test_9_10_1_at_night_the_garrison_stays_face_down(content, tables):
    core, eng = keep_next_to_hex_6(content, tables, "night")
    eng.apply(encode("move", 5))
    assert not keep_face_up(core)


def test_9_10_2_a_face_down_ruins_token_is_revealed_on_entering(content, tables):
    core, eng = solo(content, tables)
    r = Rules(core)
    r.set_time("night")
    ruins = next(i for i, x in enumerate(content["ruins"]) if x["kind"] == "enemies" and x["expansion"] == "base")
    r.set_hex(PORTAL, site=content.ids("sites").index("ancient_ruins"), ruins=ruins, flags=0, tokens=[])
    h = lambda: next(x for t in core.to_dict()["map"]["tiles"] for x in t["hexes"] if x["index"] == PORTAL)
    assert not h()["ruins_face_up"]
    eng.apply(encode("enter_site"))
    assert h()["ruins_face_up"]
