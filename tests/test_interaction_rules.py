"""Interaction with the locals in the decision loop (ext/_engine_units.pxi): rules 10.2-10.7,
6.1.7 (sideways Influence), 6.4.1-6.4.3 (offers), 7.2 (command tokens), 21.2 A20 / A26.

Numbers come from the shipped content: reputation.toml (+3 -> +1, -5 -> -3), units.toml
(Peasants: village, cost 4; Herbalists: village/monastery, cost 3; Utem Swordsmen: keep
only), sites.toml (Healing 3 at a village, 2 at a monastery; AA 6; Spell 7), levels.toml
(level 1: 1 Command token), basic_actions.toml (Promise: Influence 2 / 4)."""
import pytest

from interaction_setup import Game, HEX_BURNED, HEX_CONQUERED, PAY_TOKEN, PH_INTERACT, PH_MOVE


def test_10_2_1_interaction_at_a_village_is_the_turns_action(content, tables):
    g = Game(content, tables, site="village", hand=["promise", "march"])
    assert "interact" in g.kinds()
    g.do("interact")
    assert g.turn["phase"] == PH_INTERACT and g.turn["action_taken"]
    assert g.turn["influence"] == 0                      # reputation 0: modifier 0 (10.3)
    assert "move" not in g.kinds() and "explore" not in g.kinds()   # 4.4.5
    assert "end_interact" in g.kinds()


def test_10_2_1_no_interaction_on_an_empty_space_or_a_burned_monastery(content, tables):
    g = Game(content, tables, site="", hand=["promise"])
    assert "interact" not in g.kinds()
    with pytest.raises(ValueError):
        g.do("interact")
    g = Game(content, tables, site="monastery", flags=HEX_BURNED, hand=["promise"])
    assert "interact" not in g.kinds()


def test_10_2_1_keep_only_your_own_mage_tower_only_conquered(content, tables):
    assert "interact" in Game(content, tables, site="keep", owner=0, flags=HEX_CONQUERED).kinds()
    assert "interact" not in Game(content, tables, site="keep", owner=1, flags=HEX_CONQUERED).kinds()
    assert "interact" not in Game(content, tables, site="keep", owner=-1, flags=0).kinds()
    assert "interact" in Game(content, tables, site="mage_tower", owner=1, flags=HEX_CONQUERED).kinds()
    assert "interact" not in Game(content, tables, site="mage_tower", owner=-1, flags=0).kinds()


def test_10_2_3_reputation_plus_3_gives_plus_1_influence_once(content, tables):
    g = Game(content, tables, site="village", hand=["promise", "promise"], reputation=3)
    g.do("interact")
    assert g.turn["influence"] == 1                      # +3 on the track: modifier +1
    g.play(0)                                            # Promise: Influence 2 (10.2.2)
    assert g.turn["influence"] == 3
    g.play(0)
    assert g.turn["influence"] == 5                      # 10.2.5: the modifier is not re-applied


def test_10_2_3_the_x_space_forbids_interaction(content, tables):
    g = Game(content, tables, site="village", hand=["promise"], reputation=-7)
    assert "interact" not in g.kinds()
    with pytest.raises(ValueError):
        g.do("interact")


def test_21_2_A20_a_penalty_larger_than_the_influence_buys_nothing(content, tables):
    """Reputation -5: modifier -3.  Promise (2) leaves -1: nothing can be bought; a sideways
    card (+1) reaches 0 - still nothing (Herbalists cost 3, Healing 3)."""
    g = Game(content, tables, site="village", hand=["promise", "march"], reputation=-5)
    g.ut.set_unit_offer(["herbalists"])
    g.do("interact")
    assert g.turn["influence"] == -3
    g.play(0)
    assert g.turn["influence"] == -1
    g.sideways_influence(0)
    assert g.turn["influence"] == 0
    assert g.kinds() == ["end_interact"]


def test_6_1_7_a_card_sideways_gives_influence_1_only_during_interaction(content, tables):
    g = Game(content, tables, site="village", hand=["march", "rage"])
    assert not any(a.startswith("sideways") and "128" in a for a in g.actions())
    g.do("interact")
    assert g.of_kind("sideways") == ["sideways(128)", "sideways(129)"]
    g.sideways_influence(1)
    assert g.turn["influence"] == 1
    assert g.player["play_area"] == ["rage"]


def test_10_6_1_peasants_cost_4_recruited_at_a_village_with_4_influence(content, tables):
    g = Game(content, tables, site="village", hand=["promise", "promise"])
    g.ut.set_unit_offer(["peasants", "utem_swordsmen", "herbalists"])
    g.do("interact")
    g.play(0)
    assert g.of_kind("recruit") == []                    # 2 < Herbalists 3 < Peasants 4
    g.play(0)
    assert g.turn["influence"] == 4
    # Utem Swordsmen have only the keep icon: never offered at a village (10.6.1)
    assert g.of_kind("recruit") == ["recruit(offer=0, disband=-1)", "recruit(offer=2, disband=-1)"]
    g.recruit(0)
    assert g.turn["influence"] == 0
    assert g.ut.unit(0) == {"unit": "peasants", "ready": True, "wounds": 0}      # 7.2.3
    # 6.4.3: the offer is not refilled
    assert [e["unit"] for e in g.d["unit_offer"]] == ["utem_swordsmen", "herbalists"]


def test_10_6_1_a_unit_without_the_sites_icon_cannot_be_recruited(content, tables):
    g = Game(content, tables, site="village")
    g.ut.set_unit_offer(["utem_swordsmen"])
    g.do("interact")
    g.ut.set_turn(influence=10)
    assert "recruit" not in g.kinds()
    with pytest.raises(ValueError):
        g.recruit(0)


def test_7_2_4_the_command_token_limit_forces_a_disband(content, tables):
    """Level 1: one Command token.  With Foresters (Spent, Wounded) held, recruiting
    Peasants must disband them; the new unit is Ready and unwounded."""
    g = Game(content, tables, site="village")
    assert g.player["command_tokens"] == 1
    g.ut.set_unit(0, "foresters", ready=0, wounds=1)
    g.ut.set_unit_offer(["peasants"])
    g.do("interact")
    g.ut.set_turn(influence=4)
    assert g.of_kind("recruit") == ["recruit(offer=0, disband=0)"]
    with pytest.raises(ValueError):
        g.recruit(0)                                     # no free token: a disband is required
    g.recruit(0, disband=0)
    assert g.ut.unit(0) == {"unit": "peasants", "ready": True, "wounds": 0}
    assert [u["unit"] for u in g.player["units"]] == ["peasants"]


def test_7_2_1_a_free_command_token_needs_no_disband(content, tables):
    g = Game(content, tables, site="village")
    g.sc.set_level(0, 3, command_tokens=2)
    g.ut.set_unit(0, "foresters")
    g.ut.set_unit_offer(["peasants"])
    g.do("interact")
    g.ut.set_turn(influence=4)
    assert g.of_kind("recruit") == ["recruit(offer=0, disband=-1)"]
    g.recruit(0)
    assert sorted(u["unit"] for u in g.player["units"]) == ["foresters", "peasants"]


def test_10_5_healing_costs_3_at_a_village(content, tables):
    g = Game(content, tables, site="village", hand=["wound", "wound"])
    g.do("interact")
    g.ut.set_turn(influence=7)
    g.do("buy_healing")
    g.do("buy_healing")
    assert g.turn["influence"] == 1 and g.turn["healing"] == 2
    assert "buy_healing" not in g.kinds()
    g.do("heal_wound", 0)                                # 12.3.3: 1 point, one Wound from hand
    assert g.player["hand"] == ["wound"] and g.turn["healing"] == 1


def test_10_5_healing_costs_2_at_a_monastery(content, tables):
    g = Game(content, tables, site="monastery")
    g.do("interact")
    g.ut.set_turn(influence=5)
    g.do("buy_healing")
    g.do("buy_healing")
    assert g.turn["influence"] == 1 and g.turn["healing"] == 2
    assert "buy_healing" not in g.kinds()


def test_10_7_2_2_the_monastery_aa_costs_6_and_goes_on_top_of_the_deck(content, tables):
    g = Game(content, tables, site="monastery")
    g.ut.set_unit_offer(["peasants", ("aa", "fire_bolt"), "herbalists"])
    g.do("interact")
    g.ut.set_turn(influence=5)
    assert "buy_aa" not in g.kinds()
    g.ut.set_turn(influence=6)
    assert g.of_kind("buy_aa") == ["buy_aa(1)"]
    n_deck = len(g.player["deck"])
    g.do("buy_aa", 1)
    assert g.turn["influence"] == 0
    assert g.player["deck"][-1] == "fire_bolt" and len(g.player["deck"]) == n_deck + 1   # 6.4.1
    assert g.d["unit_offer"] == [{"unit": "peasants"}, {"unit": "herbalists"}]            # 6.4.3


def test_10_7_4_3_a_spell_costs_7_and_one_mana_of_its_colour(content, tables):
    g = Game(content, tables, site="mage_tower", owner=0, flags=HEX_CONQUERED)
    g.ut.set_spell_offer(["fireball", "snowstorm", None])
    g.eng.set_dice(["white", "white", "white"])
    g.do("interact")
    g.ut.set_turn(influence=7)
    assert "buy_spell" not in g.kinds()                  # no red or blue mana
    g.ut.set_turn(influence=6, mana={"red": 1})
    assert "buy_spell" not in g.kinds()                  # 6 < 7
    g.ut.set_turn(influence=7)
    assert g.of_kind("buy_spell") == [f"buy_spell(offer=0, pay={PAY_TOKEN['red']})"]
    n_spell_deck = len(g.d["spell_deck"])
    g.do("buy_spell", 0 | (PAY_TOKEN["red"] << 2))
    assert g.turn["influence"] == 0
    assert g.d["turn"]["mana_tokens"].get("red", 0) == 0      # the red token paid (A26)
    assert g.player["deck"][-1] == "fireball"            # 6.4.1
    offer = g.d["spell_offer"]
    assert offer[1] == "snowstorm" and offer[0] is not None and offer[0] != "fireball"   # 6.4.2
    assert len(g.d["spell_deck"]) == n_spell_deck - 1


def test_21_2_A26_gold_pays_for_a_spell_by_day(content, tables):
    g = Game(content, tables, site="mage_tower", owner=0, flags=HEX_CONQUERED)
    g.ut.set_spell_offer(["fireball", None, None])
    g.eng.set_dice(["white", "white", "white"])
    g.do("interact")
    g.ut.set_turn(influence=7, mana={"gold": 1})
    assert g.of_kind("buy_spell") == [f"buy_spell(offer=0, pay={PAY_TOKEN['gold']})"]


def test_10_2_end_interact_returns_to_the_turn_without_movement(content, tables):
    g = Game(content, tables, site="village", hand=["promise", "march"])
    g.do("interact")
    g.play(0)
    g.do("end_interact")
    assert g.turn["phase"] == PH_MOVE and g.turn["influence"] == 0
    assert "interact" not in g.kinds() and "move" not in g.kinds() and "recruit" not in g.kinds()
    assert "end_turn" in g.kinds()


def test_10_10_city_interaction_starts(content, tables):
    # the options by city colour are tested in tests/test_sites_cities.py
    g = Game(content, tables, site="city", owner=0, flags=HEX_CONQUERED)
    assert "interact" in g.kinds()
    g.do("interact")
    assert g.turn["phase"] == PH_INTERACT


def test_noble_manners_during_interaction_gives_fame_and_reputation(content, tables):
    """Noble Manners (Norowas) powered: Influence 4, Fame +1 and Reputation +1."""
    g = Game(content, tables, site="village", hand=["noble_manners"], hero="norowas")
    g.do("interact")
    g.ut.set_turn(mana={"white": 1})
    fame = g.player["fame"]
    g.play(0, powered=1, pay=PAY_TOKEN["white"])
    assert g.turn["influence"] == 4
    assert g.player["fame"] == fame + 1 and g.player["reputation"] == 1


def test_10_2_7_tactic_abilities_stay_usable_during_interaction(content, tables):
    """The Right Moment (3.2: once this round, during your turn) during interaction."""
    g = Game(content, tables, site="village", tactic="the_right_moment")
    g.do("interact")
    assert g.of_kind("tactic_ability") == ["tactic_ability(0)"]
