"""Conformance of Skills to their printed text (issue 8, deviations found by the audits).
Skill texts: ../shared/data/skills.csv and mksim/data/skills.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k bonds_of_loyalty``)."""
import pytest

from mksim import content as _ct
from mksim._combat import CombatTester
from mksim._rules import Rules

from test_skills_handlers import BONDS_RECRUIT, end_turn_to_next_start, game


def bonds_village(content, tables, offer, reputation=0):
    """Norowas with Bonds of Loyalty at a village, one Unit on his one Command token."""
    g = game(content, tables, ["norowas_bonds_of_loyalty"], hero="norowas",
             site=_ct.SITE_IDS.index("village"), reputation=reputation)
    g.ut.set_unit(0, "peasants")
    g.ut.set_unit_offer(offer)
    g.do("interact")
    return g


@pytest.mark.covers("norowas_bonds_of_loyalty", "effect")
def test_norowas_bonds_of_loyalty_recruits_thugs_with_the_modifier_inverted(content, tables):
    """Bonds of Loyalty ("the unit under it costs 5 less Influence"; skills.csv) and Thugs
    (LL-4.2.1: the Reputation modifier inverted): Reputation -4 gives Influence -2 at the
    start; recruiting the Thugs (5 - 5 = 0) under the token turns it into +2 - Influence 2
    left.  No rule keeps Thugs from the Bonds token."""
    g = bonds_village(content, tables, ["thugs", "peasants"], reputation=-4)
    assert g.turn["influence"] == -2
    assert "recruit(offer=0, bonds=1)" in g.of_kind("recruit")
    g.do("recruit", 0 | BONDS_RECRUIT)
    assert [u["unit"] for u in g.player["units"]][:2] == ["peasants", "thugs"]
    assert g.turn["influence"] == 2
    assert g.ut.units_turn["recruit_mode"] == 1          # Thugs: no Heroes now (LL-4.2.4)


@pytest.mark.covers("norowas_bonds_of_loyalty", "effect")
def test_norowas_bonds_of_loyalty_recruits_heroes_at_5_less(content, tables):
    """Heroes (blue; cost 9, units.csv) under the Bonds token: 9 - 5 = 4 Influence; with
    Reputation 0 no modifier (LL-4.2.2 doubles nothing)."""
    g = bonds_village(content, tables, ["hero_blue"])
    g.ut.set_turn(influence=3)
    assert "recruit(offer=0, bonds=1)" not in g.of_kind("recruit")
    g.ut.set_turn(influence=4)
    assert "recruit(offer=0, bonds=1)" in g.of_kind("recruit")
    g.do("recruit", 0 | BONDS_RECRUIT)
    assert g.player["units"][1]["unit"] == "hero_blue" and g.turn["influence"] == 0


# ==============================================================================================
# Every half of every Skill (docs/conformance.md).  Printed texts: ../shared/data/skills.csv
# (base heroes, Wolfhawk) and ll_changed_cards.csv (the cooperative skills, LL-7).  Usage:
# once_per_turn = 8.2.3 (usable again next turn), once_per_round / interactive = 8.2.1-8.2.2
# (face down until the round preparation, 2.2.8).  Enemy numbers from enemies.toml: prowlers
# Armor 3 / Attack 4, golems Armor 5 physical resistance, fire mages Armor 5 Fire Attack 6
# Fire resistance, ice mages Armor 6 Ice Attack 5 Ice resistance, diggers Fortified Armor 3,
# sorcerers Arcane Immunity (Attack 6).  Attack pools: combat.attack[kind][element] (kind:
# melee, ranged, siege; element: physical, fire, ice, cold fire).
# ==============================================================================================


MELEE, RANGED, SIEGE = 0, 1, 2
PHYS, FIRE, ICE = 0, 1, 2
PAY_TOKEN = {"red": 0, "blue": 1, "white": 2, "green": 3, "gold": 4, "black": 5}
PAY_DIE = 10


def sk(content, tables, skill, hand=("march",), night=False, **kw):
    """A regular turn of the skill's hero (ids are prefixed with it) holding only `skill`."""
    g = game(content, tables, [skill], hand=list(hand), hero=skill.split("_")[0], **kw)
    if night:
        Rules(g.core).set_time("night")
    return g


def skill_acts(g):
    return [a for a in g.actions() if a.startswith("use_skill")]


def pool(g):
    return g.d["combat"]["attack"]


def tokens(g):
    return {k: v for k, v in g.d["turn"]["mana_tokens"].items() if v}


def next_turn(g):
    """The owner's next regular turn (the dummy's in between); deck refilled so it draws."""
    end_turn_to_next_start(g)
    g.do("regular_turn")


def fight(g, enemies, phase=None):
    g.ut.start_combat(enemies)
    T = CombatTester(g.core)
    if phase:
        T.set_phase(phase)
    return T


# -- Attack skills: element and kind against resistances (11.9.2: a resisted attack is halved,
#    rounded down) and fortification (11.5.3: only Siege reaches a fortified enemy in the
#    Ranged and Siege phase) ---------------------------------------------------------------------

@pytest.mark.covers("arythea_burning_power", "effect.1", "effect.2")
def test_arythea_burning_power_siege_1_or_fire_siege_1(content, tables):
    """"Siege Attack 1 or Fire Siege Attack 1": both offered in the Ranged phase against the
    Fortified diggers (Siege reaches them); against golems (physical resistance) the
    physical 1 is halved to 0, the Fire 1 stays 1.  Once a turn (8.2.3)."""
    for option, element in ((0, PHYS), (1, FIRE)):
        g = sk(content, tables, "arythea_burning_power")
        T = fight(g, ["diggers", "golems"])
        g.do("use_skill", 0)
        assert g.actions() == ["choose(0)", "choose(1)"]
        g.do("choose", option)
        assert pool(g)[SIEGE][element] == 1 and sum(map(sum, pool(g))) == 1
        assert T.attack_value([0]) == 1                    # Siege on a Fortified enemy
        assert T.attack_value([1]) == (0 if element == PHYS else 1)
        assert skill_acts(g) == []


@pytest.mark.covers("goldyx_freezing_power", "effect.1", "effect.2")
def test_goldyx_freezing_power_siege_1_or_ice_siege_1(content, tables):
    """"Siege Attack 1 or Ice Siege Attack 1": Ice 1 against the ice mages (Ice resistance)
    is halved to 0, the physical 1 is not; against golems the other way round."""
    for option, element in ((0, PHYS), (1, ICE)):
        g = sk(content, tables, "goldyx_freezing_power")
        T = fight(g, ["ice_mages", "golems"])
        g.do("use_skill", 0)
        g.do("choose", option)
        assert pool(g)[SIEGE][element] == 1 and sum(map(sum, pool(g))) == 1
        assert (T.attack_value([0]), T.attack_value([1])) == ((1, 0) if element == PHYS else (0, 1))


@pytest.mark.covers("arythea_hot_swordsmanship", "effect.1", "effect.2")
def test_arythea_hot_swordsmanship_attack_2_or_fire_attack_2_melee_only(content, tables):
    """"Attack 2 or Fire Attack 2": a melee Attack, so not offered in the Ranged phase
    (11.5.2); in the Attack phase Attack 2 against the fire mages counts 2, Fire Attack 2 is
    halved to 1 (Fire resistance)."""
    g = sk(content, tables, "arythea_hot_swordsmanship")
    fight(g, ["fire_mages"])
    assert skill_acts(g) == []
    for option, element, value in ((0, PHYS, 2), (1, FIRE, 1)):
        g = sk(content, tables, "arythea_hot_swordsmanship")
        T = fight(g, ["fire_mages"], phase="attack")
        g.do("use_skill", 0)
        g.do("choose", option)
        assert pool(g)[MELEE][element] == 2 and T.attack_value([0]) == value


@pytest.mark.covers("tovak_cold_swordsmanship", "effect.1", "effect.2")
def test_tovak_cold_swordsmanship_attack_2_or_ice_attack_2(content, tables):
    """"Attack 2 or Ice Attack 2": against golems (physical resistance) Attack 2 -> 1, Ice
    Attack 2 stays 2; against the ice mages the other way round."""
    for option, element, values in ((0, PHYS, (1, 2)), (1, ICE, (2, 1))):
        g = sk(content, tables, "tovak_cold_swordsmanship")
        T = fight(g, ["golems", "ice_mages"], phase="attack")
        g.do("use_skill", 0)
        g.do("choose", option)
        assert pool(g)[MELEE][element] == 2
        assert (T.attack_value([0]), T.attack_value([1])) == values
        assert skill_acts(g) == []                          # once a turn


@pytest.mark.covers("tovak_shield_mastery", "effect.1", "effect.2", "effect.3")
def test_tovak_shield_mastery_block_3_or_fire_block_2_or_ice_block_2(content, tables):
    """"Block 3, or Fire Block 2, or Ice Block 2" (Block phase only, 11.6.3).  Against the
    fire mages' Fire Attack 6 only Ice Block is efficient (11.9.3): physical 3 -> 1, Fire 2 ->
    1, Ice 2 -> 2; against the ice mages' Ice Attack 5 only Fire Block: Fire 2 -> 2."""
    g = sk(content, tables, "tovak_shield_mastery")
    fight(g, ["fire_mages"])
    assert skill_acts(g) == []                              # Ranged phase: nothing to block
    for option, element, amount, vs_fire, vs_ice in ((0, PHYS, 3, 1, 1), (1, FIRE, 2, 1, 2),
                                                      (2, ICE, 2, 2, 1)):
        g = sk(content, tables, "tovak_shield_mastery")
        T = fight(g, ["fire_mages", "ice_mages"])
        g.do("next_phase")
        g.do("use_skill", 0)
        assert g.actions() == ["choose(0)", "choose(1)", "choose(2)"]
        g.do("choose", option)
        assert g.ut.block_pool[element] == amount and sum(g.ut.block_pool) == amount
        assert (T.block_value(0), T.block_value(1)) == (vs_fire, vs_ice)


@pytest.mark.parametrize("skill,day,night", [("norowas_day_sharpshooting", 2, 1),
                                             ("tovak_night_sharpshooting", 1, 2)])
@pytest.mark.covers("norowas_day_sharpshooting", "effect.day", "effect.night")
@pytest.mark.covers("tovak_night_sharpshooting", "effect.day", "effect.night")
def test_sharpshooting_ranged_attack_by_day_and_night(content, tables, skill, day, night):
    """Day Sharpshooting "Ranged Attack 2 by day, 1 at night"; Night Sharpshooting "1 by day,
    2 at night": physical Ranged Attack in the Ranged phase; it cannot reach the Fortified
    diggers there (11.5.3) but does the prowlers."""
    for is_night, value in ((False, day), (True, night)):
        g = sk(content, tables, skill, night=is_night)
        T = fight(g, ["prowlers", "diggers"])
        g.do("use_skill", 0)
        assert pool(g)[RANGED][PHYS] == value and sum(map(sum, pool(g))) == value
        assert T.attack_value([0]) == value and T.attack_value([1]) == 0
        assert skill_acts(g) == []


# -- Move and Influence skills -----------------------------------------------------------------

@pytest.mark.covers("tovak_double_time", "effect.day", "effect.night")
def test_tovak_double_time_move_2_by_day_1_at_night_once_a_turn(content, tables):
    """"Move 2 by day, Move 1 at night"; once a turn, again on the next turn (8.2.3)."""
    g = sk(content, tables, "tovak_double_time")
    g.sc.set_cards(0, hand=["march"], deck=["rage"] * 12)
    g.do("use_skill", 0)
    assert Rules(g.core).move_points == 2 and skill_acts(g) == []
    next_turn(g)
    assert skill_acts(g) == ["use_skill(0)"]
    g2 = sk(content, tables, "tovak_double_time", night=True)
    g2.do("use_skill", 0)
    assert Rules(g2.core).move_points == 1


@pytest.mark.covers("arythea_dark_paths", "effect.day")
@pytest.mark.covers("tovak_double_time", "effect.day")
def test_move_skills_in_combat_only_with_agility_conversion_ll_9_7_2(content, tables):
    """Move in combat has a use only through an effect such as Agility's (LL-9.7.2, LL-4.6.1:
    as for Refreshing Walk and Scouts): Dark Paths / Double Time are not offered in the
    Attack phase until Agility (basic: Move 2) is played, then they add Move 1 / 2."""
    for skill, move in (("arythea_dark_paths", 1), ("tovak_double_time", 2)):
        g = sk(content, tables, skill, hand=["agility"])
        fight(g, ["prowlers"], phase="attack")
        assert skill_acts(g) == []
        g.play(0)
        before = Rules(g.core).move_points
        g.do("use_skill", 0)
        assert Rules(g.core).move_points == before + move


@pytest.mark.parametrize("skill,day,night", [("arythea_dark_negotiation", 2, 3),
                                             ("norowas_bright_negotiation", 3, 2)])
@pytest.mark.covers("arythea_dark_negotiation", "effect.day", "effect.night")
@pytest.mark.covers("norowas_bright_negotiation", "effect.day", "effect.night")
def test_negotiation_influence_by_day_and_night_in_interaction(content, tables, skill, day, night):
    """Dark Negotiation "Influence 2 by day, 3 at night", Bright Negotiation "3 by day, 2 at
    night": Influence is used only in interaction (10.2.2): not offered on the move."""
    from mksim import content as _ct
    for is_night, value in ((False, day), (True, night)):
        g = sk(content, tables, skill, night=is_night, site=_ct.SITE_IDS.index("village"))
        assert skill_acts(g) == []
        g.do("interact")
        g.do("use_skill", 0)
        assert g.turn["influence"] == value and skill_acts(g) == []


@pytest.mark.covers("arythea_dark_negotiation", "effect.day")
@pytest.mark.covers("wolfhawk_on_her_own", "effect")
def test_influence_skills_in_combat_to_pay_thugs_ll_4_3_4(content, tables):
    """The Lost Legion lets Influence be spent in combat to make Thugs cooperate (LL-4.3.4):
    with unpaid Thugs in the Block phase Dark Negotiation gives Influence 2 and On Her Own
    Influence 3 (no Unit recruited this turn); 2 of it pays the Thugs.  (On Her Own was
    offered in interaction only; fixed.)"""
    from test_units_handlers import to_block
    for skill, influence in (("arythea_dark_negotiation", 2), ("wolfhawk_on_her_own", 3)):
        g = sk(content, tables, skill)
        g.ut.set_unit(0, "thugs")
        fight(g, ["prowlers"])
        to_block(g)
        g.do("use_skill", 0)
        if skill == "wolfhawk_on_her_own":
            assert g.actions() == ["choose(0)", "choose(1)"]
            g.do("choose", 1)
        assert g.turn["influence"] == influence
        g.do("pay_unit", 0)
        assert g.ut.unit_extras(0)["paid"] and g.turn["influence"] == influence - 2


@pytest.mark.covers("goldyx_glittering_fortune", "effect")
def test_goldyx_glittering_fortune_influence_1_per_crystal_colour_in_interaction(content, tables):
    """"During interaction only: Influence 1 per different crystal colour in your inventory":
    red, blue, blue = 2 colours -> Influence 2; not offered outside interaction, nor with no
    crystal; once a turn."""
    from mksim import content as _ct
    g = sk(content, tables, "goldyx_glittering_fortune", site=_ct.SITE_IDS.index("village"))
    g.sc.set_crystals(0, [1, 2, 0, 0])
    assert skill_acts(g) == []
    g.do("interact")
    g.do("use_skill", 0)
    assert g.turn["influence"] == 2 and skill_acts(g) == []
    g2 = sk(content, tables, "goldyx_glittering_fortune", site=_ct.SITE_IDS.index("village"))
    g2.do("interact")
    assert skill_acts(g2) == []                             # no crystal: nothing to gain


# -- Crystal and mana skills (once a round: face down until the round preparation, 8.2.1) ------

@pytest.mark.parametrize("skill,crystal,token", [
    ("goldyx_white_crystal_craft", "blue", "white"), ("goldyx_green_crystal_craft", "blue", "green"),
    ("goldyx_red_crystal_craft", "blue", "red"), ("norowas_leaves_in_the_wind", "green", "white"),
    ("norowas_whispers_in_the_treetops", "white", "green")])
@pytest.mark.covers("goldyx_white_crystal_craft", "effect")
@pytest.mark.covers("goldyx_green_crystal_craft", "effect")
@pytest.mark.covers("goldyx_red_crystal_craft", "effect")
@pytest.mark.covers("norowas_leaves_in_the_wind", "effect")
@pytest.mark.covers("norowas_whispers_in_the_treetops", "effect")
def test_crystal_craft_skills_crystal_and_mana_token_once_a_round(content, tables, skill, crystal, token):
    """"Gain a <crystal> crystal and a <token> mana token" (skills.csv): the crystal to the
    Inventory (5.3.2), the token for this turn (5.1.2); still face down on the next turn."""
    g = sk(content, tables, skill)
    g.sc.set_cards(0, hand=["march"], deck=["rage"] * 12)
    g.do("use_skill", 0)
    assert g.player["crystals"] == {c: int(c == crystal) for c in ("red", "blue", "white", "green")}
    assert tokens(g) == {token: 1} and skill_acts(g) == []
    next_turn(g)
    assert skill_acts(g) == [] and tokens(g) == {}


@pytest.mark.covers("arythea_dark_fire_magic", "effect")
def test_arythea_dark_fire_magic_red_crystal_and_red_or_black_token(content, tables):
    """"Gain a red crystal and a red or black mana token"; once a round."""
    g = sk(content, tables, "arythea_dark_fire_magic", night=True)
    g.do("use_skill", 0)
    assert g.player["crystals"]["red"] == 1 and g.actions() == ["choose(0)", "choose(1)"]
    g.do("choose", 0)
    assert tokens(g) == {"red": 1} and skill_acts(g) == []


# -- Healing skills (12.4.1, LL-9.2.1: no Healing in combat) -----------------------------------

@pytest.mark.covers("wolfhawk_refreshing_breeze", "effect")
@pytest.mark.covers("wolfhawk_refreshing_bath", "effect")
def test_wolfhawk_refreshing_breeze_and_bath_heal_1_and_a_crystal_outside_combat(content, tables):
    """Refreshing Breeze "Outside combat: Heal 1 and a white crystal", Refreshing Bath: a blue
    one.  The Heal 1 throws a Wound away (12.3.3); not offered in combat; once a round."""
    for skill, crystal in (("wolfhawk_refreshing_breeze", "white"), ("wolfhawk_refreshing_bath", "blue")):
        g = sk(content, tables, skill, hand=["wound", "march"])
        g.do("use_skill", 0)
        assert g.turn["healing"] == 1 and g.player["crystals"][crystal] == 1
        g.do("heal_wound", 0)
        assert g.player["hand"] == ["march"] and skill_acts(g) == []
        g2 = sk(content, tables, skill, hand=["wound", "march"])
        fight(g2, ["prowlers"])
        assert skill_acts(g2) == []


@pytest.mark.covers("goldyx_potion_making", "effect")
def test_goldyx_potion_making_not_in_combat(content, tables):
    g = sk(content, tables, "goldyx_potion_making", hand=["wound", "march"])
    fight(g, ["prowlers"])
    assert skill_acts(g) == []                              # "outside combat", 12.4.1


@pytest.mark.covers("norowas_inspiration", "effect")
def test_norowas_inspiration_heals_a_unit_outside_combat_only(content, tables):
    """"Outside combat: ready or heal one unit": a wounded Ready Peasants can only be healed
    (wounds 1 -> 0, 12.3.4); in combat the skill is not offered even for a Spent unit."""
    g = sk(content, tables, "norowas_inspiration")
    g.ut.set_unit(0, "peasants", ready=1, wounds=1)
    g.do("use_skill", 0)
    assert g.actions() == ["choose(1)"]                     # heal only: nothing to ready
    g.do("choose", 1)
    assert g.ut.unit(0) == {"unit": "peasants", "ready": 1, "wounds": 0}
    assert skill_acts(g) == []
    g2 = sk(content, tables, "norowas_inspiration")
    g2.ut.set_unit(0, "peasants", ready=0)
    fight(g2, ["prowlers"])
    assert skill_acts(g2) == []


# -- Motivation (8.3.2) ------------------------------------------------------------------------

@pytest.mark.parametrize("skill", ["arythea_motivation", "goldyx_motivation", "norowas_motivation",
                                   "tovak_motivation", "wolfhawk_motivation"])
@pytest.mark.covers("norowas_motivation", "effect")
@pytest.mark.covers("tovak_motivation", "effect")
@pytest.mark.covers("wolfhawk_motivation", "effect")
def test_motivation_draws_2_and_no_lowest_fame_bonus_solo(content, tables, skill):
    """"Draw 2 cards; if you alone have the lowest Fame also <a mana token / Fame +1>": the
    dummy has no Fame (18.1.2), so solo the bonus never comes (engine reading): 2 cards, no
    token, Fame unchanged; once a round."""
    g = sk(content, tables, skill)
    g.sc.set_cards(0, hand=["march"], deck=["rage", "swiftness", "stamina"])
    fame = g.player["fame"]
    g.do("use_skill", 0)
    assert g.player["hand"] == ["march", "stamina", "swiftness"] and g.player["deck"] == ["rage"]
    assert tokens(g) == {} and g.player["fame"] == fame and skill_acts(g) == []


# -- Cooperative skills: the automatic secondary effects (LL-7.3.1-7.3.2, solo) ----------------

def overload(ll_content, ll_tables, colour="green"):
    """Mana Overload used (a token of `colour`, the token in the centre marked), then the
    owner's next turn."""
    g = sk(ll_content, ll_tables, "tovak_mana_overload")
    g.sc.set_cards(0, hand=["march"], deck=["rage"] * 12)
    g.do("use_skill", 0)
    g.do("choose", PAY_TOKEN[colour])
    next_turn(g)
    return g


@pytest.mark.covers("tovak_mana_overload", "effect")
def test_tovak_mana_overload_next_turn_first_card_powered_with_the_colour_gets_4(ll_content, ll_tables):
    """Secondary effect (solo: the owner's next turn, LL-7.3.2; automatic, LL-7.3.1): March
    powered with green (marked) gives Move 4 + 4 = 8; the token goes back face down, so a
    second March powered with green gets no bonus (Move 4)."""
    g = overload(ll_content, ll_tables)
    assert skill_acts(g) == []                              # automatic: never an action
    g.sc.set_cards(0, hand=["march", "march"])
    g.sc.set_mana_tokens([0, 0, 0, 2, 0, 0])
    g.play(0, powered=1, pay=PAY_TOKEN["green"])
    assert Rules(g.core).move_points == 8
    g.play(0, powered=1, pay=PAY_TOKEN["green"])
    assert Rules(g.core).move_points == 12
    assert g.player["coop_due"] == 0 and g.player["coop_mark"] == 0


@pytest.mark.covers("tovak_mana_overload", "effect")
def test_tovak_mana_overload_other_colour_or_basic_effect_leaves_it_for_a_later_card(ll_content, ll_tables):
    """Marked red: Stamina powered with blue (not marked) and March played basic (no mana)
    get no bonus and the skill stays in the centre; Rage powered with red in the Attack phase
    then gets Attack 4 + 4 = 8, physical melee like the card's own Attack (engine reading:
    the +4 joins the first amount the card gives, skills.toml conflicts)."""
    g = overload(ll_content, ll_tables, colour="red")
    g.sc.set_cards(0, hand=["stamina", "march", "rage"])
    g.sc.set_mana_tokens([1, 1, 0, 0, 0, 0])
    g.play(0, powered=1, pay=PAY_TOKEN["blue"])             # Stamina: Move 4, blue
    g.play(0)                                               # March basic: Move 2, no mana
    assert Rules(g.core).move_points == 6 and g.player["coop_due"] == 2
    fight(g, ["prowlers"], phase="attack")
    g.play(0, powered=1, pay=PAY_TOKEN["red"])              # Rage powered: Attack 4
    assert pool(g)[MELEE][PHYS] == 8 and g.player["coop_due"] == 0


@pytest.mark.covers("tovak_mana_overload", "effect")
def test_tovak_mana_overload_gold_die_does_not_count_and_it_expires(ll_content, ll_tables):
    """Engine reading (skills.toml conflicts): a gold die used as green is gold mana, not the
    marked colour: March powered with it gives Move 4.  Not used on the next turn, the
    secondary effect expires (LL-7.3.2): on the turn after, green gives no bonus either."""
    g = overload(ll_content, ll_tables)
    g.sc.set_cards(0, hand=["march"], deck=["rage"] * 12)
    g.eng.set_dice(["gold", "black", "black"])
    g.play(0, powered=1, pay=PAY_DIE + 0)
    assert Rules(g.core).move_points == 4 and g.player["coop_due"] == 2
    next_turn(g)
    g.sc.set_cards(0, hand=["march"])
    g.sc.set_mana_tokens([0, 0, 0, 1, 0, 0])
    g.play(0, powered=1, pay=PAY_TOKEN["green"])
    assert Rules(g.core).move_points == 4 and g.player["coop_due"] == 0


def howl(ll_content, ll_tables):
    g = sk(ll_content, ll_tables, "wolfhawk_coop_skill", hand=["march", "rage"])
    g.sc.set_cards(0, hand=["march", "rage"], deck=["rage"] * 12)
    g.do("use_skill", 0)
    g.do("choose", 0)                                       # March sideways: Move 5
    return g


@pytest.mark.covers("wolfhawk_coop_skill", "effect")
def test_wolfhawk_coop_skill_first_combat_of_next_turn_armor_and_attack_minus_1(ll_content, ll_tables):
    """Secondary effect (solo: the owner's first combat of the next turn; automatic): as the
    combat begins the player picks one enemy for Armor -1 - not the sorcerers (Arcane
    Immunity, LL-6.7.1) - and one attack for -1 - the sorcerers' too (LL-6.7.4): prowlers
    Armor 3 -> 2, sorcerers' Attack 6 -> 5 (Block 5 needed)."""
    g = howl(ll_content, ll_tables)
    T = fight(g, ["prowlers"])                              # the turn it was used: nothing
    assert not any(a.startswith("choose") for a in g.actions()) and T.enemy_armor(0) == 3
    g = howl(ll_content, ll_tables)
    next_turn(g)
    assert skill_acts(g) == []                              # automatic: never an action
    T = fight(g, ["prowlers", "sorcerers"])
    assert g.actions() == ["choose(0)"]                     # Armor: the prowlers only
    g.do("choose", 0)
    assert g.actions() == ["choose(0)", "choose(3)"]        # attack: either enemy's
    g.do("choose", 3)
    assert (T.enemy_armor(0), T.enemy_armor(1)) == (2, 6)
    assert (T.block_needed(0), T.block_needed(1)) == (4, 5)
    assert g.player["coop_due"] == 0


@pytest.mark.covers("wolfhawk_coop_skill", "effect")
def test_wolfhawk_coop_skill_secondary_expires_with_the_next_turn(ll_content, ll_tables):
    """No combat on the next turn: the secondary effect is gone (LL-7.3.2); a combat on the
    turn after starts without it."""
    g = howl(ll_content, ll_tables)
    next_turn(g)
    next_turn(g)
    T = fight(g, ["prowlers"])
    assert not any(a.startswith("choose") for a in g.actions()) and T.enemy_armor(0) == 3


# -- Cards played sideways through a skill: what they give is the player's choice, as for any
#    card sideways (6.1.7), Move and Influence in combat included where they have a use --------

@pytest.mark.covers("arythea_power_of_pain", "effect")
def test_arythea_power_of_pain_wound_as_influence_2_to_pay_thugs_in_combat(content, tables):
    """Power of Pain in the Block phase with unpaid Thugs: the Wound sideways may give Block
    or Influence (LL-4.3.4: Influence has a use in this combat), +2 either way; Influence 2
    pays the Thugs.  (It gave Block only; fixed.)"""
    from test_units_handlers import to_block
    g = sk(content, tables, "arythea_power_of_pain", hand=["wound", "march"])
    g.ut.set_unit(0, "thugs")
    fight(g, ["prowlers"])
    to_block(g)
    g.do("use_skill", 0)
    assert g.actions() == ["choose(0)"]                     # the Wound
    g.do("choose", 0)
    assert g.actions() == ["choose(1)", "choose(3)"]        # Influence or Block
    g.do("choose", 1)
    assert g.turn["influence"] == 2 and g.ut.block_pool == [0, 0, 0, 0]
    assert g.player["play_area"] == ["wound"]
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"]


@pytest.mark.covers("tovak_i_dont_give_a_damn", "effect")
def test_tovak_i_dont_give_a_damn_sideways_as_move_with_agility_in_combat(content, tables):
    """In the Attack phase after Agility (Move has a use, LL-9.7.2) the card sideways may give
    Move or Attack: Rage (a Basic Action) as Move 2 (+2 instead of +1)."""
    g = sk(content, tables, "tovak_i_dont_give_a_damn", hand=["agility", "rage"])
    fight(g, ["prowlers"], phase="attack")
    g.play(0)                                               # Agility basic: Move 2
    move = Rules(g.core).move_points
    g.do("use_skill", 0)
    g.do("choose", 0)                                       # Rage
    assert g.actions() == ["choose(0)", "choose(2)"]        # Move or Attack
    g.do("choose", 0)
    assert Rules(g.core).move_points == move + 2 and sum(map(sum, pool(g))) == 0


@pytest.mark.covers("norowas_forward_march", "effect")
@pytest.mark.covers("wolfhawk_hawk_eyes", "effect")
def test_forward_march_and_hawk_eyes_move_in_combat_with_agility_ll_9_7_2(content, tables):
    """Forward March (Move 1 per Ready unwounded Unit) and Hawk Eyes (Move 1; its exploring
    and view parts are for moving, of no use once the action is taken, as the Scouts' reveal,
    LL-9.7.10) in the Attack phase: not offered until Agility's conversion gives Move a use,
    then their Move is added.  (Both were offered outside combat only; fixed.)"""
    for skill, move in (("norowas_forward_march", 1), ("wolfhawk_hawk_eyes", 1)):
        g = sk(content, tables, skill, hand=["agility"])
        g.ut.set_unit(0, "peasants")
        fight(g, ["prowlers"], phase="attack")
        assert skill_acts(g) == []
        g.play(0)
        before = Rules(g.core).move_points
        g.do("use_skill", 0)
        assert Rules(g.core).move_points == before + move


@pytest.mark.covers("norowas_bonds_of_loyalty", "effect")
def test_norowas_bonds_of_loyalty_gaining_it_adds_2_regular_units_to_the_offer(content, tables):
    """"On gaining it add 2 regular units to the offer": Norowas reaching level 2 (Fame 5,
    13.6.4) keeps the Bonds token from the top of his stack; the Units offer grows from 3 to
    5, both new ones from the regular Units deck.  A passive skill is never an action."""
    g = game(content, tables, [], hand=["march"], hero="norowas")
    raw = g.core.raw_dict()
    bonds = tables.skill_ids.index("norowas_bonds_of_loyalty")
    stack = raw["players"][0]["skill_stack"][:raw["players"][0]["n_skill_stack"]]
    g.core.set_raw({"players": [{"skill_stack": [s for s in stack if s != bonds] + [bonds]}]})
    offer, deck = len(g.d["unit_offer"]), raw["n_regular_units"]
    g.sc.set_fame(0, 5)
    g.do("end_turn")
    g.do("pick_skill", 0)                                   # the top token (18.3.1 offer: the other)
    assert g.player["skills"] == ["norowas_bonds_of_loyalty"]
    assert len(g.d["unit_offer"]) == offer + 2 and g.core.raw_dict()["n_regular_units"] == deck - 2
    assert skill_acts(g) == []


@pytest.mark.covers("arythea_ritual_of_pain", "effect")
def test_arythea_ritual_of_pain_0_to_2_wounds_not_in_combat(ll_content, ll_tables):
    """"Once a round, not in combat: throw away 0-2 Wounds from hand" (ll_changed_cards.csv):
    with no Wound it may still be used (nothing thrown away, the token goes to the centre for
    its secondary effect); with two Wounds the choice is 0, 1 or 2; not offered in combat.
    (It needed a Wound in hand; fixed.)"""
    g = sk(ll_content, ll_tables, "arythea_ritual_of_pain", hand=["march"])
    g.do("use_skill", 0)
    assert g.player["hand"] == ["march"] and g.player["coop_due"] == 1 and skill_acts(g) == []
    g = sk(ll_content, ll_tables, "arythea_ritual_of_pain", hand=["wound", "march", "wound"])
    g.do("use_skill", 0)
    assert g.actions() == ["choose(0)", "choose(1)", "choose(2)"]
    g.do("choose", 1)
    assert g.player["hand"] == ["wound", "march"] and "wound" not in g.player["discard"]
    g = sk(ll_content, ll_tables, "arythea_ritual_of_pain", hand=["wound", "march"])
    fight(g, ["prowlers"])
    assert skill_acts(g) == []


@pytest.mark.covers("tovak_resistance_break", "effect")
def test_tovak_resistance_break_counts_a_resistance_lost_to_know_your_prey_no_more(content, tables):
    """"Armor -1 per resistance it has": ice golems (physical and Ice resistance, Armor 4)
    after Know Your Prey took their physical resistance have one: Armor 4 -> 3 (not 2).
    (The lost resistance still counted; fixed.)"""
    g = game(content, tables, ["wolfhawk_know_your_prey", "tovak_resistance_break"], hero="tovak")
    T = fight(g, ["ice_golems"])
    g.do("use_skill", 0)
    g.do("choose", 0)                                       # the ice golems
    g.do("choose", 11)                                      # lose physical resistance (PREY_RESISTANCE + 0)
    g.do("use_skill", 1)
    assert T.enemy_armor(0) == 3


@pytest.mark.covers("tovak_mana_overload", "effect")
def test_tovak_mana_overload_not_triggered_through_concentration(ll_content, ll_tables):
    """FAQ ruling (ll_changed_cards.csv notes): a card played through another (Concentration)
    does not trigger it.  Marked green: Concentration (green) powered with green plays March
    for its strong effect, Move 4 + 2 = 6 (Concentration's bonus only); the skill stays in the
    centre for a later card, and March powered with green then gets Move 4 + 4."""
    g = overload(ll_content, ll_tables)
    g.sc.set_cards(0, hand=["concentration", "march", "march"])
    g.sc.set_mana_tokens([0, 0, 0, 2, 0, 0])
    g.play(0, powered=1, pay=PAY_TOKEN["green"])
    g.do("choose", 0)                                       # March
    assert Rules(g.core).move_points == 6 and g.player["coop_due"] == 2
    g.play(0, powered=1, pay=PAY_TOKEN["green"])
    assert Rules(g.core).move_points == 6 + 8 and g.player["coop_due"] == 0


@pytest.mark.covers("wolfhawk_coop_skill", "effect")
def test_wolfhawk_coop_skill_summoner_armor_but_no_attack_yet(ll_content, ll_tables):
    """Engine reading (skills.toml conflicts): at the start of the combat the orc summoners'
    monster is not drawn yet (11.6.2), so the summoners may get the Armor -1 (4 -> 3) while
    the attack -1 goes to an attack present then (the prowlers': Block 3 needed)."""
    g = howl(ll_content, ll_tables)
    next_turn(g)
    T = fight(g, ["orc_summoners", "prowlers"])
    assert g.actions() == ["choose(0)", "choose(1)"]        # Armor: either enemy
    g.do("choose", 0)
    assert g.actions() == ["choose(3)"]                     # attack: the prowlers' only
    g.do("choose", 3)
    assert (T.enemy_armor(0), T.enemy_armor(1)) == (3, 3)
    assert T.block_needed(1) == 3


@pytest.mark.covers("wolfhawk_coop_skill", "effect")
def test_wolfhawk_coop_skill_choices_belong_to_the_start_of_the_combat(ll_content, ll_tables):
    """Entering a monster den (10.7.6) on the next turn: the secondary effect's choices come
    first (only choose actions), and afterwards it is still the start of the combat - Into
    the Heat ("play at the start of combat") may be played."""
    g = howl(ll_content, ll_tables)
    next_turn(g)
    g.sc.set_cards(0, hand=["into_the_heat", "march"])
    g.sc.set_hex(g.pos, site=_ct.SITE_IDS.index("monster_den"))
    T = CombatTester(g.core)
    T.place(g.pos, [T.token_for("prowlers")])
    g.do("enter_site")
    assert g.actions() == ["choose(0)"]
    g.do("choose", 0)
    assert g.actions() == ["choose(0)"]
    g.do("choose", 0)
    assert T.enemy_armor(0) == 2 and T.block_needed(0) == 3
    assert any(a.startswith("play(hand=0, powered=0") for a in g.actions())
