"""Using Skill tokens (rules 8.1-8.3, 2.2.8) in the decision loop: A_USE_SKILL and the skill
handlers of ext/_fx_skills.pyx.  Rule numbers in the test names."""
import pytest

from mksim._engine import Engine, describe, encode
from mksim._rules import Rules
from mksim._scoring import ScoringTester
from mksim._state import GameCore


def new_turn(content, tables, skills, time="day", hand=None, hero="arythea"):
    core = GameCore.new(tables, content, "first_reconnaissance", hero, 1)
    if time == "night":
        Rules(core).set_time("night")
    eng = Engine(core, tables, content, "first_reconnaissance")
    eng.apply(encode("tactic", content.ids("tactics").index("planning" if time == "day" else "from_the_dusk")))
    sc = ScoringTester(core)
    sc.set_skills(0, skills)
    if hand is not None:
        sc.set_cards(0, hand=hand)
    eng.apply(encode("regular_turn"))
    return core, eng, sc


def acts(eng):
    return [describe(int(a)) for a in eng.legal_actions()]


def turn(core):
    return core.to_dict()["turn"]


def player(core):
    return core.to_dict()["players"][0]


def next_turn(eng, core):
    """End the turn (discarding nothing, 13.7.1) and take a regular turn after the dummy's."""
    eng.apply(encode("end_turn"))
    while "draw(0)" not in acts(eng):
        eng.apply(encode("discard", 0))
    eng.apply(encode("draw"))
    assert core.to_dict()["phase"] == "turn_start"
    eng.apply(encode("regular_turn"))


# -- 8.2.3 regular skills: once per turn ---------------------------------------------------------

@pytest.mark.covers("arythea_dark_paths", "effect.day")
def test_8_2_3_dark_paths_gives_move_1_by_day_once_per_turn_and_again_next_turn(content, tables):
    core, eng, _ = new_turn(content, tables, ["arythea_dark_paths"])
    assert "use_skill(0)" in acts(eng)
    eng.apply(encode("use_skill", 0))
    assert turn(core)["move_points"] == 1
    assert "use_skill(0)" not in acts(eng)              # 8.2.3: once per turn
    with pytest.raises(ValueError, match="illegal"):
        eng.apply(encode("use_skill", 0))
    next_turn(eng, core)
    assert turn(core)["move_points"] == 0
    assert "use_skill(0)" in acts(eng)                  # a new turn: usable again
    eng.apply(encode("use_skill", 0))
    assert turn(core)["move_points"] == 1


@pytest.mark.covers("arythea_dark_paths", "effect.night")
def test_8_2_3_dark_paths_gives_move_2_at_night(content, tables):
    core, eng, _ = new_turn(content, tables, ["arythea_dark_paths"], time="night")
    eng.apply(encode("use_skill", 0))
    assert turn(core)["move_points"] == 2


def test_8_2_3_dark_negotiation_is_not_offered_outside_interaction(content, tables):
    core, eng, _ = new_turn(content, tables, ["arythea_dark_negotiation", "arythea_dark_paths"])
    # Influence can only be used in interaction (10.2.2): only Dark Paths (slot 1) is offered
    assert [a for a in acts(eng) if a.startswith("use_skill")] == ["use_skill(1)"]


@pytest.mark.covers("arythea_dark_fire_magic", "effect")
def test_8_2_skill_choice_is_resolved_with_choose(content, tables):
    core, eng, _ = new_turn(content, tables, ["goldyx_white_crystal_craft", "arythea_dark_fire_magic"])
    eng.apply(encode("use_skill", 1))                   # red crystal, then red or black mana
    assert player(core)["crystals"]["red"] == 1
    assert sorted(acts(eng)) == ["choose(0)", "choose(1)"]
    eng.apply(encode("choose", 1))
    assert turn(core)["mana_tokens"] == {"black": 1}


# -- 8.2.1 / 8.3.1 / 2.2.8 once per round -----------------------------------------------------------

@pytest.mark.covers("goldyx_white_crystal_craft", "effect")
def test_8_2_1_once_per_round_skill_is_face_down_until_round_preparation(content, tables):
    core, eng, sc = new_turn(content, tables, ["goldyx_white_crystal_craft"])
    eng.apply(encode("use_skill", 0))
    assert player(core)["crystals"]["blue"] == 1 and turn(core)["mana_tokens"] == {"white": 1}
    assert "use_skill(0)" not in acts(eng)
    next_turn(eng, core)
    assert "use_skill(0)" not in acts(eng)              # still face down on the next turn
    # end the round: empty deck, announce the End of the Round (4.2); the dummy's last turn
    eng.apply(encode("end_turn"))
    while "draw(0)" not in acts(eng):
        eng.apply(encode("discard", 0))
    sc.set_cards(0, deck=[])
    eng.apply(encode("draw"))
    eng.apply(encode("announce_end"))
    d = core.to_dict()
    assert d["round"] == 2 and d["phase"] == "tactics"
    eng.apply(encode("tactic", content.ids("tactics").index("from_the_dusk")))
    eng.apply(encode("regular_turn"))
    assert "use_skill(0)" in acts(eng)                  # 2.2.8 / 8.3.1: face up again
    eng.apply(encode("use_skill", 0))
    assert player(core)["crystals"]["blue"] == 2


@pytest.mark.covers("goldyx_potion_making", "effect")
def test_8_2_1_potion_making_heals_2_outside_combat(content, tables):
    core, eng, _ = new_turn(content, tables, ["goldyx_potion_making"],
                            hand=["wound", "wound", "wound", "march"])
    eng.apply(encode("use_skill", 0))
    assert turn(core)["healing"] == 2
    eng.apply(encode("heal_wound", 0))
    eng.apply(encode("heal_wound", 0))
    assert player(core)["hand"] == ["wound", "march"]
    assert "heal_wound(0)" not in acts(eng)             # 2 points spent
    assert "use_skill(0)" not in acts(eng)              # once per round (8.2.1)


def test_8_2_passive_skill_is_no_action(content, tables):
    core, eng, _ = new_turn(content, tables, ["norowas_bonds_of_loyalty"])
    assert not [a for a in acts(eng) if a.startswith("use_skill")]


def test_8_2_cooperative_skill_without_its_owner_part_usable_is_not_offered(content, tables):
    """Norowas' cooperative skill (LL-7): in combat its owner's part (terrain costs, a
    movement effect, 9.6.1) can do nothing, so it is not offered (6.3.3).  (Ritual of Pain,
    used here before, may now be used with no Wound: its summary allows 0.)"""
    from mksim._engine import UnitsTester
    core, eng, _ = new_turn(content, tables, ["norowas_coop_skill"], hero="norowas")
    UnitsTester(eng).start_combat(["prowlers"])
    with pytest.raises(ValueError, match="illegal action use_skill"):
        eng.apply(encode("use_skill", 0))


def test_8_2_skill_move_gets_no_card_bonus(content, tables):
    """A skill is not a card: Tirelessness' bonus for the next card giving Move stays."""
    core, eng, _ = new_turn(content, tables, ["tovak_double_time"])
    eng.apply(encode("use_skill", 0))
    assert turn(core)["move_points"] == 2              # Double Time by Day
    assert turn(core)["played_card"] is False           # 4.3.2: a skill is not a card played


# -- skill handlers (_fx_skills.pyx) ------------------------------------------------------------

@pytest.mark.covers("norowas_forward_march", "effect")
def test_forward_march_move_1_per_ready_unwounded_unit(content, tables):
    core, eng, sc = new_turn(content, tables, ["norowas_forward_march"])
    assert "use_skill(0)" not in acts(eng)              # no unit: nothing to gain
    sc.set_units(0, [("peasants", 0, None), ("foresters", 1, None), ("herbalists", 0, None)])
    eng.apply(encode("use_skill", 0))
    assert turn(core)["move_points"] == 2               # the wounded Foresters do not count


@pytest.mark.covers("norowas_forward_march", "effect")
def test_forward_march_at_most_3(content, tables):
    core, eng, sc = new_turn(content, tables, ["norowas_forward_march"])
    sc.set_units(0, [("peasants", 0, None)] * 4)
    eng.apply(encode("use_skill", 0))
    assert turn(core)["move_points"] == 3


@pytest.mark.covers("tovak_i_feel_no_pain", "effect")
def test_i_feel_no_pain_discards_a_wound_and_draws_a_card(content, tables):
    core, eng, sc = new_turn(content, tables, ["tovak_i_feel_no_pain"], hand=["march"])
    assert "use_skill(0)" not in acts(eng)              # no Wound in hand
    sc.set_cards(0, hand=["march", "wound"], deck=["rage"], discard=[])
    eng.apply(encode("use_skill", 0))
    p = player(core)
    assert p["hand"] == ["march", "rage"] and p["discard"] == ["wound"] and p["deck"] == []


@pytest.mark.covers("wolfhawk_refreshing_bath", "effect")
def test_refreshing_bath_heals_1_and_gives_a_blue_crystal_outside_combat(content, tables):
    # a March beside the Wound: a hand of only Wounds rests instead (4.3.2, 4.5.2)
    core, eng, _ = new_turn(content, tables, ["wolfhawk_refreshing_bath"], hand=["wound", "march"])
    eng.apply(encode("use_skill", 0))
    assert turn(core)["healing"] == 1 and player(core)["crystals"]["blue"] == 1


def test_18_3_1_dummy_skills_without_interactive_one_join_the_common_offer(content, tables):
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", 1)
    eng = Engine(core, tables, content, "first_reconnaissance")
    d = core.to_dict()
    dummy_stack = d["dummy"]["skill_stack"]
    assert len(dummy_stack) == 9 and "goldyx_source_freeze" not in dummy_stack   # 18.3.1
    eng.apply(encode("tactic", content.ids("tactics").index("planning")))
    eng.apply(encode("regular_turn"))
    ScoringTester(core).set_fame(0, 5)                  # level 2: a Skill token (13.6.4)
    eng.apply(encode("end_turn"))
    assert acts(eng) == ["pick_skill(0)", "pick_skill(1)"]
    own = d["players"][0]["skill_stack"]
    eng.apply(encode("pick_skill", 0))                  # keep the top token
    d2 = core.to_dict()
    assert d2["players"][0]["skills"] == [own[-1]]
    # the other revealed token and the dummy's top token enter the Common Skill offer
    assert d2["skill_offer"] == [own[-2], dummy_stack[-1]]
    assert d2["dummy"]["skill_stack"] == dummy_stack[:-1]


@pytest.mark.covers("arythea_power_of_pain", "effect")
def test_power_of_pain_plays_a_wound_sideways_for_move_2(content, tables):
    core, eng, _ = new_turn(content, tables, ["arythea_power_of_pain"], hand=["march", "wound"])
    eng.apply(encode("use_skill", 0))
    assert acts(eng) == ["choose(1)"]                  # only the Wound
    eng.apply(encode("choose", 1))
    p = player(core)
    assert turn(core)["move_points"] == 2 and p["hand"] == ["march"] and p["play_area"] == ["wound"]
    assert "use_skill(0)" not in acts(eng)              # 8.2.3
    eng.apply(encode("end_turn"))                       # 13.7: the Wound goes to the discard pile
    assert player(core)["discard"] == ["wound"]


@pytest.mark.covers("tovak_i_dont_give_a_damn", "effect")
def test_i_dont_give_a_damn_sideways_2_or_3_for_an_advanced_action(content, tables):
    core, eng, _ = new_turn(content, tables, ["tovak_i_dont_give_a_damn"],
                            hand=["wound", "march", "ice_bolt"])
    eng.apply(encode("use_skill", 0))
    assert acts(eng) == ["choose(1)", "choose(2)"]      # not the Wound
    eng.apply(encode("choose", 2))
    assert turn(core)["move_points"] == 3               # an Advanced Action: +3
    next_turn(eng, core)
    ScoringTester(core).set_cards(0, hand=["march"])
    eng.apply(encode("use_skill", 0))
    eng.apply(encode("choose", 0))
    assert turn(core)["move_points"] == 2               # a Basic Action: +2


@pytest.mark.covers("tovak_who_needs_magic", "effect")
def test_who_needs_magic_plus_3_forbids_source_dice_for_the_rest_of_the_turn(content, tables):
    core, eng, _ = new_turn(content, tables, ["tovak_who_needs_magic"], hand=["march", "march"])
    eng.set_dice(["green", "green"])
    die_plays = lambda: [a for a in acts(eng) if a.startswith("play(") and "pay=10" in a]
    assert die_plays()                                  # a Source die could power March (5.5.2)
    eng.apply(encode("use_skill", 0))
    eng.apply(encode("choose", 0))
    assert acts(eng) == ["choose(0)", "choose(1)"]      # +2, or +3 without Source dice
    eng.apply(encode("choose", 1))
    assert turn(core)["move_points"] == 3
    assert die_plays() == []                            # no Source die for the rest of the turn


@pytest.mark.covers("tovak_who_needs_magic", "effect")
def test_who_needs_magic_gives_only_2_after_a_source_die_was_used(content, tables):
    core, eng, _ = new_turn(content, tables, ["tovak_who_needs_magic"], hand=["march", "march"])
    eng.set_dice(["green", "green"])
    eng.apply(encode("play", 0 | (1 << 7) | (10 << 8) | (31 << 13)))   # March powered by die 0
    assert turn(core)["move_points"] == 4 and turn(core)["dice_used"] == 1
    eng.apply(encode("use_skill", 0))
    eng.apply(encode("choose", 0))                      # no +3 option: straight +2
    assert turn(core)["move_points"] == 6


@pytest.mark.covers("norowas_inspiration", "effect")
def test_inspiration_readies_the_unit_in_slot_0(content, tables):
    """Norowas' Inspiration (a skill, 8.2): ready_unit may pick any Spent unit, the first
    unit slot included.  (Regression: a skill's resolving code was read as a unit ability's,
    so slot 0 counted as "the unit itself" and the choice had no legal option.)"""
    from mksim._engine import UnitsTester
    core, eng, sc = new_turn(content, tables, ["norowas_inspiration"], hero="norowas")
    ut = UnitsTester(eng)
    ut.set_unit(0, "herbalists", ready=0)
    eng.apply(encode("use_skill", 0))
    assert acts(eng) == ["choose(0)"]               # ready_unit; heal_unit has no wounded unit
    eng.apply(encode("choose", 0))
    assert ut.unit(0)["ready"] == 1
