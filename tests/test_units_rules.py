"""Units in the decision loop (ext/_engine_units.pxi): rules 7.2-7.3, 12.2-12.4, 11.7.3,
7.3.8.  Unit numbers from units.toml: Peasants (level 1; Attack 2 / Block 2 / Influence 2 /
Move 2), Herbalists (level 1; Heal 2 for green mana / Ready a level <= 2 unit / green mana),
Utem Crossbowmen (level 2), Fire Golems (level 3).  Prowlers: one physical attack 4."""
import pytest

from interaction_setup import (Game, PAY_TOKEN, PH_COMBAT_BLOCK, PH_COMBAT_DAMAGE, PH_INTERACT,
                               PH_MOVE)

PEASANT_ATTACK, PEASANT_BLOCK, PEASANT_INFLUENCE, PEASANT_MOVE = range(4)


def test_7_3_1_activating_a_unit_resolves_its_ability_and_spends_it(content, tables):
    g = Game(content, tables, hand=["march"])
    g.ut.set_unit(0, "peasants")
    # only the Move ability can do something in the movement part (6.3.3)
    assert g.of_kind("activate_unit") == ["activate_unit(unit=0, ability=3, pay=31)"]
    g.activate(0, PEASANT_MOVE)
    assert g.d["turn"]["move_points"] == 2
    assert g.ut.unit(0) == {"unit": "peasants", "ready": False, "wounds": 0}     # 7.3.2
    assert "activate_unit" not in g.kinds()
    with pytest.raises(ValueError):
        g.activate(0, PEASANT_MOVE)


def test_7_3_5_a_spent_unit_is_readied_at_the_next_round(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "peasants")
    g.activate(0, PEASANT_MOVE)
    assert not g.ut.unit(0)["ready"]
    prefer = ["end_turn", "draw", "announce_end", "forfeit", "discard", "regular_turn", "tactic",
              "end_interact", "next_phase", "damage_hero", "reward", "choose"]
    steps = 0
    while g.d["round"] == 1:
        acts = g.actions()
        for kind in prefer:
            pick = next((a for a in acts if a.split("(")[0] == kind), None)
            if pick is not None:
                break
        assert pick is not None, acts
        raw = [int(a) for a in g.eng.legal_actions()][acts.index(pick)]
        g.eng.apply(raw)
        steps += 1
        assert steps < 500
        if g.d["round"] == 1:
            assert not g.ut.unit(0)["ready"]             # 7.3.5: not readied at the end of a turn
    assert g.ut.unit(0) == {"unit": "peasants", "ready": True, "wounds": 0}      # 2.2.8


def test_12_2_2_a_wounded_unit_cannot_be_activated(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "peasants", wounds=1)
    assert "activate_unit" not in g.kinds()
    with pytest.raises(ValueError):
        g.activate(0, PEASANT_MOVE)


def test_10_2_2_a_unit_influence_ability_during_interaction(content, tables):
    g = Game(content, tables, site="village")
    g.ut.set_unit(0, "peasants")
    assert not any("ability=2" in a for a in g.of_kind("activate_unit"))   # not before interacting
    g.do("interact")
    assert "activate_unit(unit=0, ability=2, pay=31)" in g.of_kind("activate_unit")
    g.activate(0, PEASANT_INFLUENCE)
    assert g.turn["influence"] == 2 and not g.ut.unit(0)["ready"]


@pytest.mark.covers("herbalists", "ability1")
def test_5_4_4_an_ability_with_mana_needs_that_mana(content, tables):
    """Herbalists: Heal 2 for one green mana."""
    g = Game(content, tables)
    g.eng.set_dice(["white", "white", "white"])
    g.ut.set_unit(0, "herbalists")
    assert not any("ability=0" in a for a in g.of_kind("activate_unit"))
    g.ut.set_turn(mana={"green": 1})
    assert f"activate_unit(unit=0, ability=0, pay={PAY_TOKEN['green']})" in g.of_kind("activate_unit")
    g.activate(0, 0, pay=PAY_TOKEN["green"])
    assert g.turn["healing"] == 2
    assert g.d["turn"]["mana_tokens"].get("green", 0) == 0


@pytest.mark.covers("herbalists", "ability2")
def test_7_3_4_ready_unit_picks_a_spent_unit_of_at_most_its_level(content, tables):
    """Herbalists' Ready (level <= 2): Peasants (1) and Utem Crossbowmen (2) are candidates,
    Fire Golems (3) are not; the player picks."""
    g = Game(content, tables)
    g.ut.set_unit(0, "herbalists")
    g.ut.set_unit(1, "peasants", ready=0)
    g.ut.set_unit(2, "utem_crossbowmen", ready=0)
    g.ut.set_unit(3, "fire_golems", ready=0)
    g.activate(0, 1)
    assert sorted(g.actions()) == ["choose(1)", "choose(2)"]
    g.do("choose", 2)
    assert g.ut.unit(2)["ready"] and not g.ut.unit(1)["ready"] and not g.ut.unit(3)["ready"]
    assert not g.ut.unit(0)["ready"]


def test_7_3_4_ready_unit_with_one_candidate_needs_no_decision(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "herbalists")
    g.ut.set_unit(1, "fire_golems", ready=0)
    assert not any("ability=1" in a for a in g.of_kind("activate_unit"))   # level 3 > 2
    g.ut.set_unit(2, "peasants", ready=0)
    g.activate(0, 1)
    assert g.ut.unit(2)["ready"] and not g.ut.unit(1)["ready"]
    assert "choose" not in g.kinds()


def test_12_3_3_heal_a_level_2_unit_with_2_healing_points(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "utem_crossbowmen", wounds=1)
    g.ut.set_turn(healing=1)
    assert "heal_unit" not in g.kinds()                  # level 2 needs 2 points
    with pytest.raises(ValueError):
        g.do("heal_unit", 0)
    g.ut.set_turn(healing=2)
    assert g.of_kind("heal_unit") == ["heal_unit(0)"]
    g.do("heal_unit", 0)
    assert g.ut.unit(0)["wounds"] == 0 and g.turn["healing"] == 0


def test_12_3_3_a_poisoned_unit_is_healed_twice(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "peasants", wounds=2)
    g.ut.set_turn(healing=2)
    g.do("heal_unit", 0)
    assert g.ut.unit(0)["wounds"] == 1
    g.do("heal_unit", 0)
    assert g.ut.unit(0)["wounds"] == 0 and g.turn["healing"] == 0


def test_10_5_healing_bought_at_a_village_heals_a_unit(content, tables):
    g = Game(content, tables, site="village")
    g.ut.set_unit(0, "peasants", wounds=1)
    g.do("interact")
    g.ut.set_turn(influence=3)
    g.do("buy_healing")
    assert g.of_kind("heal_unit") == ["heal_unit(0)"]
    g.do("heal_unit", 0)
    assert g.ut.unit(0)["wounds"] == 0


def test_7_3_3_unit_blocks_add_up_in_the_block_pool(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "peasants")
    g.ut.start_combat(["prowlers"])
    g.do("next_phase")                                   # ranged -> block
    assert g.turn["phase"] == PH_COMBAT_BLOCK
    assert g.of_kind("activate_unit") == ["activate_unit(unit=0, ability=1, pay=31)"]
    g.activate(0, PEASANT_BLOCK)
    assert g.ut.block_pool == [2, 0, 0, 0]
    assert g.of_kind("block") == []                      # Block 2 < prowlers' attack 4
    g.ut.set_unit(1, "foresters")
    g.activate(1, 1)                                     # Foresters: Block 3 (7.3.3: they add up)
    assert g.ut.block_pool == [5, 0, 0, 0]
    assert g.of_kind("block") == ["block(0)"]


def test_7_3_8_no_units_in_a_combat_that_forbids_them(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "peasants")
    g.ut.start_combat(["prowlers"], units_allowed=0)
    g.do("next_phase")
    assert "activate_unit" not in g.kinds()
    with pytest.raises(ValueError):
        g.activate(0, PEASANT_BLOCK)
    g.do("next_phase")                                   # block -> damage
    g.do("damage_from", 0)
    assert "damage_unit" not in g.kinds()


def test_12_2_2_only_unwounded_units_are_offered_for_damage(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "peasants", wounds=1)
    g.ut.set_unit(1, "foresters")
    g.ut.start_combat(["prowlers"])
    g.do("next_phase")
    g.do("next_phase")
    assert g.turn["phase"] == PH_COMBAT_DAMAGE
    g.do("damage_from", 0)
    assert g.of_kind("damage_unit") == ["damage_unit(1)"]
    g.do("damage_unit", 1)                               # Foresters: armor 4 absorbs the 4 (11.7.4)
    assert g.ut.unit(1)["wounds"] == 1
    assert g.player["hand"].count("wound") == 0


def test_12_4_healing_points_are_lost_on_entering_combat(content, tables):
    g = Game(content, tables)
    g.ut.set_turn(healing=2)
    g.ut.start_combat(["prowlers"])
    assert g.turn["healing"] == 0                        # 12.4.2
    assert "heal_unit" not in g.kinds()


def test_12_4_1_no_unit_healing_during_combat(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "peasants", wounds=1)
    g.ut.start_combat(["prowlers"])
    g.ut.set_turn(healing=3)
    assert "heal_unit" not in g.kinds()
    with pytest.raises(ValueError):
        g.do("heal_unit", 0)


RW_UNIT = 3   # content.REWARDS


def test_13_5_4_a_unit_reward_takes_any_unit_whatever_its_site_or_cost(content, tables):
    g = Game(content, tables)
    g.ut.set_unit_offer(["fire_golems", ("aa", "fire_bolt"), "utem_swordsmen"])
    g.ut.claim_rewards([RW_UNIT])
    assert sorted(g.actions()) == ["reward(0)", "reward(2)"]   # a free Command token: no give-up
    g.do("reward", 0)
    assert g.ut.unit(0) == {"unit": "fire_golems", "ready": True, "wounds": 0}
    assert g.d["unit_offer"] == [{"advanced_action": "fire_bolt"}, {"unit": "utem_swordsmen"}]


def test_13_5_4_without_a_free_token_disband_or_give_up(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "peasants", wounds=1)
    g.ut.set_unit_offer(["fire_golems"])
    g.ut.claim_rewards([RW_UNIT])
    assert sorted(g.actions()) == ["reward(127)", "reward(16)"]   # give up / take slot 0, disband 0
    g.do("reward", 127)
    assert g.ut.unit(0)["unit"] == "peasants"
    assert g.d["unit_offer"] == [{"unit": "fire_golems"}]


def test_13_5_4_a_level_up_this_turn_brings_the_token(content, tables):
    """A19: Fame 8 reaches level 3 (levels.toml: 2 Command tokens), resolved after the
    rewards: the unit is taken without disbanding."""
    g = Game(content, tables)
    g.ut.set_unit(0, "peasants")
    g.ut.set_unit_offer(["fire_golems"])
    g.sc.set_fame(0, 8)
    g.do("end_turn")                                     # 13.6.1: two levels pending
    g.ut.claim_rewards([RW_UNIT])
    assert g.actions() == ["reward(0)"]
    g.do("reward", 0)
    assert sorted(u["unit"] for u in g.player["units"]) == ["fire_golems", "peasants"]
