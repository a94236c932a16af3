"""Unit ability handlers and the units' special rules (ext/_fx_units.pyx; the special rules in
ext/_engine_units.pxi): the card texts of
units.toml / units.csv, LL-4.2-LL-4.6 (Thugs, Heroes, Delphana Masters, Magic Familiars,
Scouts), and the spells / Advanced Action sharing the handlers (Expose, Mist Form, Force of
Nature).  Enemy numbers from enemies.toml: Prowlers armor 3, attack 4, Fame 2; Diggers armor
3, attack 3, Fortified; Golems armor 5, physical resistance; Ice Mages armor 6, Ice attack 5,
Ice resistance; Fire Mages armor 5, fire resistance; Guardsmen armor 7, Fortified; Orc
Skirmishers armor 4, two attacks of 1; Orc Trackers Assassination; Sorcerers Arcane Immunity."""
import pytest

from mksim._combat import CombatTester
from interaction_setup import Game, PAY_NONE, PAY_TOKEN, PH_COMBAT_BLOCK, PH_COMBAT_DAMAGE, PH_INTERACT

PH_TACTICS, PH_COMBAT_RANGED, PH_COMBAT_ATTACK = 0, 4, 7


def combat(g, enemies, assault=0):
    g.ut.start_combat(enemies, assault=assault)
    return CombatTester(g.core)


def to_block(g):
    g.do("next_phase")
    assert g.turn["phase"] == PH_COMBAT_BLOCK


# -- base-game units -------------------------------------------------------------------------

@pytest.mark.covers("utem_swordsmen", "ability2")
def test_utem_swordsmen_block_6_then_the_unit_is_wounded(content, tables):
    """Utem Swordsmen: 'Attack or Block 6, then this unit becomes wounded' (12.2)."""
    g = Game(content, tables)
    g.ut.set_unit(0, "utem_swordsmen")
    combat(g, ["prowlers"])
    to_block(g)
    g.activate(0, 1)
    assert g.actions() == ["choose(1)"]              # Block phase: only the Block 6
    g.do("choose", 1)
    assert g.ut.block_pool == [6, 0, 0, 0]
    assert g.ut.unit(0) == {"unit": "utem_swordsmen", "ready": False, "wounds": 1}
    assert "activate_unit" not in g.kinds()          # 12.2.2: wounded


@pytest.mark.covers("illusionists", "ability2")
def test_illusionists_only_an_unfortified_enemy_stops_attacking(content, tables):
    """Illusionists (white): one unfortified enemy does not attack; Diggers are Fortified,
    so the Prowlers are the only target and are taken without a question."""
    g = Game(content, tables)
    g.ut.set_unit(0, "illusionists")
    ct = combat(g, ["diggers", "prowlers"])
    g.ut.set_turn(mana={"white": 1})
    g.activate(0, 1, pay=PAY_TOKEN["white"])
    assert "no_attack" in ct.enemy(1)["flags"]
    assert "no_attack" not in ct.enemy(0)["flags"]


@pytest.mark.covers("amotep_freezers", "ability2")
def test_amotep_freezers_freeze_not_an_ice_resistant_enemy(content, tables):
    """Amotep Freezers (blue): one enemy does not attack and gets Armor -3 (min 1); Ice
    Mages resist ice, so only the Prowlers (armor 3 -> 1) can be frozen."""
    g = Game(content, tables)
    g.ut.set_unit(0, "amotep_freezers")
    ct = combat(g, ["ice_mages", "prowlers"])
    g.ut.set_turn(mana={"blue": 1})
    g.activate(0, 1, pay=PAY_TOKEN["blue"])
    assert "no_attack" in ct.enemy(1)["flags"] and ct.enemy_armor(1) == 1
    assert "no_attack" not in ct.enemy(0)["flags"] and ct.enemy_armor(0) == 6


@pytest.mark.covers("altem_mages", "ability2")
def test_altem_mages_cold_fire_block_5_plus_2_per_blue_and_red_mana(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "altem_mages")
    combat(g, ["prowlers"])
    to_block(g)
    g.ut.set_turn(mana={"blue": 1, "red": 1})
    g.activate(0, 1)
    blue = g.actions()                               # pay blue (token or a blue die), or not
    assert f"choose({PAY_TOKEN['blue']})" in blue and "choose(63)" in blue
    assert f"choose({PAY_TOKEN['red']})" not in blue
    g.do("choose", PAY_TOKEN["blue"])
    red = g.actions()
    assert f"choose({PAY_TOKEN['red']})" in red and "choose(63)" in red
    g.do("choose", PAY_TOKEN["red"])
    assert g.ut.block_pool == [0, 0, 0, 9]           # Cold Fire Block 5 + 2 + 2


@pytest.mark.covers("altem_mages", "ability2")
def test_altem_mages_cold_fire_attack_7_with_blue_only(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "altem_mages")
    combat(g, ["prowlers"])
    g.do("next_phase")
    g.do("next_phase")                               # prowlers unblocked: damage phase
    g.do("damage_from", 0)
    g.do("damage_hero")
    g.do("next_phase")
    assert g.turn["phase"] == PH_COMBAT_ATTACK
    g.ut.set_turn(mana={"blue": 1})
    g.activate(0, 1)
    g.do("choose", PAY_TOKEN["blue"])
    if g.actions() != ["attack(1)", "next_phase(0)"]:
        g.do("choose", 63)                           # a red die in the Source: not paid
    ct = CombatTester(g.core)
    assert ct.attack_value([0]) == 7                 # Cold Fire Attack 5 + 2


@pytest.mark.covers("altem_mages", "ability3.1")
def test_altem_mages_all_attacks_become_cold_fire(content, tables):
    """Altem Mages (black): all your attacks this combat are Cold Fire - Fire Mages resist
    fire, not Cold Fire (11.9.2): Fire Attack 6 counts 3 before, 6 after."""
    g = Game(content, tables)
    g.ut.set_unit(0, "altem_mages")
    ct = combat(g, ["fire_mages"])
    ct.set_phase("attack")
    ct.set_attack("melee", "fire", 6)
    assert ct.attack_value([0]) == 3
    g.ut.set_night()                                 # black mana (5.1.5)
    g.ut.set_turn(mana={"black": 1})
    g.activate(0, 2, pay=PAY_TOKEN["black"])
    assert g.actions() == ["choose(0)", "choose(1)"]
    g.do("choose", 0)
    assert g.ut.units_turn["attacks_coldfire"]
    assert ct.attack_value([0]) == 6


@pytest.mark.covers("altem_mages", "ability3.2")
def test_altem_mages_all_attacks_also_siege(content, tables):
    """Altem Mages (black), second option: a Ranged Attack 7 may then hit the Fortified
    Guardsmen (armor 7) in the Ranged phase (11.5.3 needs Siege)."""
    g = Game(content, tables)
    g.ut.set_unit(0, "altem_mages")
    ct = combat(g, ["guardsmen"])
    ct.set_attack("ranged", "physical", 7)
    assert ct.attack_value([0]) == 0
    g.ut.set_night()
    g.ut.set_turn(mana={"black": 1})
    g.activate(0, 2, pay=PAY_TOKEN["black"])
    g.do("choose", 1)
    assert ct.attack_value([0]) == 7
    assert "attack(1)" in g.of_kind("attack")


@pytest.mark.covers("altem_guardians", "ability3")
def test_altem_guardians_units_gain_all_resistances(content, tables):
    """Altem Guardians (green): all your units gain physical, fire and ice resistance this
    turn - Peasants (armor 3) then absorb 3 physical damage without a wound (11.7.5)."""
    g = Game(content, tables)
    g.ut.set_unit(0, "altem_guardians")
    g.ut.set_unit(1, "peasants")
    ct = combat(g, ["prowlers"])
    g.ut.set_turn(mana={"green": 1})
    g.activate(0, 2, pay=PAY_TOKEN["green"])
    assert g.ut.unit_extras(1)["gained_res"] == ["physical", "fire", "ice"]
    assert ct.assign_to_unit(1, 3, "physical") == 0
    assert g.ut.unit(1)["wounds"] == 0


@pytest.mark.covers("sorcerers", "ability2")
def test_sorcerers_white_the_enemy_loses_its_fortification(content, tables):
    """Sorcerers (white): one enemy loses its fortifications, plus Ranged Attack 3 - the
    Fortified Diggers (armor 3) can then be defeated by it in the Ranged phase (11.5.3)."""
    g = Game(content, tables)
    g.ut.set_unit(0, "sorcerers")
    ct = combat(g, ["diggers"])
    assert not ct.can_target_in_ranged(0, False)
    g.ut.set_turn(mana={"white": 1})
    g.activate(0, 1, pay=PAY_TOKEN["white"])
    assert "no_fortification" in ct.enemy(0)["flags"]
    assert ct.attack_value([0]) == 3
    assert "attack(1)" in g.of_kind("attack")


@pytest.mark.covers("sorcerers", "ability3")
def test_sorcerers_green_the_enemy_loses_its_resistances(content, tables):
    """Sorcerers (green): Golems lose their physical resistance - Ranged Attack 3 counts 3
    instead of 1 (11.9.2)."""
    g = Game(content, tables)
    g.ut.set_unit(0, "sorcerers")
    ct = combat(g, ["golems"])
    ct.set_attack("ranged", "physical", 3)
    assert ct.attack_value([0]) == 1
    ct.clear_pools()
    g.ut.set_turn(mana={"green": 1})
    g.activate(0, 2, pay=PAY_TOKEN["green"])
    assert g.ut.enemy_unit_fx(0) == ["no_resistances"]
    assert ct.attack_value([0]) == 3


@pytest.mark.covers("delphana_masters", "ability4")
def test_enemy_effects_ignore_arcane_immunity_LL_6_7_1(content, tables):
    """Delphana Masters (white) on Sorcerers (Arcane Immune) and Prowlers: only the Prowlers
    can be named (LL-6.7.1), so no question is asked."""
    g = Game(content, tables)
    g.ut.set_unit(0, "delphana_masters")
    combat(g, ["sorcerers", "prowlers"])
    g.ut.set_turn(mana={"white": 1})
    g.activate(0, 3, pay=PAY_TOKEN["white"])
    assert g.ut.enemy_unit_fx(0) == [] and g.ut.enemy_unit_fx(1) == ["no_resistances"]


def test_expose_basic_one_enemy_loses_fortification_and_resistances(content, tables):
    """Expose (white spell, basic): the chosen enemy loses fortifications and resistances,
    Ranged Attack 2.  Two candidates: ASK_ENEMY."""
    g = Game(content, tables, hand=["expose"])
    ct = combat(g, ["golems", "diggers"])
    g.ut.set_turn(mana={"white": 1})
    g.play(0, pay=PAY_TOKEN["white"])
    assert g.actions() == ["choose(0)", "choose(1)"]
    g.do("choose", 1)
    assert "no_fortification" in ct.enemy(1)["flags"] and g.ut.enemy_unit_fx(1) == ["no_resistances"]
    assert "no_fortification" not in ct.enemy(0)["flags"] and g.ut.enemy_unit_fx(0) == []
    assert ct.attack_value([1]) == 2


def test_mass_expose_all_enemies_lose_resistances(content, tables):
    """Mass Expose (powered: white + black mana, at Night): all enemies lose all
    resistances (the second option), Ranged Attack 3: Golems and Ice Mages both lose them."""
    g = Game(content, tables, hand=["expose"])
    ct = combat(g, ["golems", "ice_mages"])
    g.ut.set_night()
    g.ut.set_turn(mana={"white": 1, "black": 1})
    g.do("play", 0 | (1 << 7) | (PAY_TOKEN["white"] << 8) | (PAY_TOKEN["black"] << 13))
    assert g.actions() == ["choose(0)", "choose(1)"]
    g.do("choose", 1)
    assert g.ut.enemy_unit_fx(0) == ["no_resistances"] and g.ut.enemy_unit_fx(1) == ["no_resistances"]
    assert ct.attack_value([0, 1]) == 3


def test_force_of_nature_one_chosen_unit_gains_physical_resistance(content, tables):
    """In combat (the card's "this combat", cards.csv #297): one chosen unit; the resistance
    is kept in the "this combat" bits and gone when the turn ends."""
    g = Game(content, tables, hand=["force_of_nature"])
    g.ut.set_unit(0, "peasants")
    g.ut.set_unit(1, "foresters")
    combat(g, ["prowlers"])
    g.play(0)
    assert g.actions() == ["choose(0)", "choose(1)"]    # ASK_UNIT
    g.do("choose", 1)
    assert g.ut.unit_extras(1)["gained_res"] == ["physical"]
    assert g.ut.unit_extras(1)["combat_res"] == ["physical"]
    assert g.ut.unit_extras(0)["gained_res"] == []


# -- Lost Legion units -------------------------------------------------------------------------

@pytest.mark.covers("delphana_masters", "ability2")
def test_delphana_masters_destroy_if_blocked(content, tables):
    """Delphana Masters (red): the Prowlers are destroyed once blocked - defeated with their
    Fame 2."""
    g = Game(content, tables)
    g.ut.set_unit(0, "delphana_masters")
    g.ut.set_unit(1, "peasants")
    ct = combat(g, ["prowlers"])
    g.ut.set_turn(mana={"red": 1})
    g.activate(0, 1, pay=PAY_TOKEN["red"])
    assert g.ut.enemy_unit_fx(0) == ["destroy_if_blocked"]
    to_block(g)
    fame = g.player["fame"]
    ct.set_block("physical", 4)
    g.do("block", 0)
    assert "defeated" in ct.enemy(0)["flags"]
    assert g.player["fame"] == fame + 2


@pytest.mark.covers("delphana_masters", "ability1", "ability3")
def test_delphana_masters_use_further_abilities_in_the_same_turn(content, tables):
    """LL-4.4.2-LL-4.4.3: after one ability the Spent Masters may add each other ability
    once, paying its mana; not the same one twice, and not in the next turn."""
    g = Game(content, tables)
    g.ut.set_unit(0, "delphana_masters")
    ct = combat(g, ["prowlers", "diggers"])
    g.ut.set_turn(mana={"blue": 2, "green": 1})
    g.activate(0, 0, pay=PAY_TOKEN["blue"])          # one enemy does not attack
    g.do("choose", 0)
    assert "no_attack" in ct.enemy(0)["flags"]
    assert g.ut.unit(0)["ready"] is False
    acts = g.of_kind("activate_unit")                # blue again: not the same ability twice
    assert acts == [f"activate_unit(unit=0, ability=2, pay={PAY_TOKEN['green']})"]   # green: Armor -5
    with pytest.raises(ValueError):
        g.activate(0, 0, pay=PAY_TOKEN["blue"])
    g.activate(0, 2, pay=PAY_TOKEN["green"])
    g.do("choose", 1)
    assert ct.enemy_armor(1) == 1                    # Diggers 3 - 5, min 1
    assert g.ut.unit_extras(0)["abilities_used"] == 0b101


@pytest.mark.covers("shocktroops", "ability1")
def test_shocktroops_coordinated_fire_other_units_attack_plus_1(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "shocktroops")
    g.ut.set_unit(1, "utem_crossbowmen")
    ct = combat(g, ["prowlers"])
    g.activate(0, 0)                                 # Ranged Attack 1, others +1
    assert ct.attack_value([0]) == 1
    g.activate(1, 1)                                 # Utem Crossbowmen: Ranged Attack 2 -> 3
    assert ct.attack_value([0]) == 4


@pytest.mark.covers("shocktroops", "ability2")
def test_shocktroops_weaken_armor_and_one_attack(content, tables):
    """Orc Skirmishers: armor 4 -> 3 and the chosen attack 1 -> 0 (counts as blocked)."""
    g = Game(content, tables)
    g.ut.set_unit(0, "shocktroops")
    ct = combat(g, ["orc_skirmishers"])
    g.activate(0, 1)
    assert g.actions() == ["choose(0)", "choose(1)"]  # which attack (ASK_NUMBER)
    g.do("choose", 1)
    assert ct.enemy_armor(0) == 3
    assert ct.block_needed(0, 0) == 1 and ct.block_needed(0, 1) == 0


@pytest.mark.covers("shocktroops", "ability3")
def test_shocktroops_draw_fire_even_against_assassination(content, tables):
    """Shocktroops: Orc Trackers' attack 4 -> 1, and its damage must go to the Shocktroops
    first although the Trackers are assassins (LL-6.4.1 does not stop it)."""
    g = Game(content, tables)
    g.ut.set_unit(0, "shocktroops")
    g.ut.set_unit(1, "peasants")
    ct = combat(g, ["orc_trackers"])
    to_block(g)
    g.activate(0, 2)
    assert g.ut.units_turn["draw_fire"] == (0, 0, 0)
    g.do("next_phase")
    assert g.turn["phase"] == PH_COMBAT_DAMAGE
    g.do("damage_from", 0)
    assert ct.dmg_left == 1
    assert g.actions() == ["damage_unit(0)"]
    g.do("damage_unit", 0)
    assert g.ut.unit(0)["wounds"] == 1               # armor 3 absorbs the rest
    assert g.player["hand"].count("wound") == 0


@pytest.mark.covers("magic_familiars", "ability1")
def test_magic_familiars_boosted_by_the_matching_upkeep_mana(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "magic_familiars", upkeep="red")
    g.ut.set_unit(1, "magic_familiars", upkeep="green")
    ct = combat(g, ["golems"])
    ct.set_phase("attack")
    g.activate(0, 0)                                 # red kept: Attack 5
    assert ct.attack_value([0]) == 2                 # golems resist physical: 5 // 2
    ct.clear_pools()
    g.activate(1, 0)                                 # green kept: Attack 3
    assert ct.attack_value([0]) == 1


def test_magic_familiars_recruited_with_a_basic_mana_kept_on_the_card(content, tables):
    """LL-4.5.4: recruiting Magic Familiars (cost 6) also takes one basic mana."""
    g = Game(content, tables, site="monastery")
    g.ut.set_unit_offer(["magic_familiars"])
    g.do("interact")
    g.ut.set_turn(influence=6, mana={"blue": 1})
    acts = g.of_kind("recruit")
    assert f"recruit(offer=0, disband=-1, pay={PAY_TOKEN['blue']}, colour=1)" in acts
    assert all("pay=" in a for a in acts)            # never without the mana
    g.do("recruit", 0 | ((PAY_TOKEN["blue"] + 1) << 8) | (1 << 13))
    assert g.ut.unit(0)["unit"] == "magic_familiars"
    assert g.ut.unit_extras(0)["upkeep"] == "blue"
    assert g.turn["influence"] == 0


def test_magic_familiars_upkeep_at_the_round_start_crystal_or_disband(content, tables):
    """LL-4.5.4, LL-4.5.4.1 [R]: before the tactics, a crystal per familiar or disband it."""
    g = Game(content, tables)
    g.ut.set_unit(0, "magic_familiars", upkeep="red")
    g.sc.set_crystals(0, [0, 0, 2, 0])
    g.ut.prepare_round()
    assert g.turn["phase"] == PH_TACTICS
    assert sorted(g.actions()) == ["upkeep(0)", f"upkeep({0 | (3 << 3)})"]   # white crystal / disband
    g.do("upkeep", 0 | (3 << 3))
    assert g.ut.unit_extras(0)["upkeep"] == "white" and not g.ut.unit_extras(0)["upkeep_due"]
    assert g.player["crystals"]["white"] == 1
    assert "tactic" in g.kinds()


def test_magic_familiars_and_delphana_masters_are_no_rewards(content, tables):
    """LL-4.4.1, LL-4.5.3: only by interaction."""
    g = Game(content, tables)
    g.ut.set_unit_offer(["magic_familiars", "delphana_masters", "thugs"])
    g.ut.claim_rewards([3])
    assert g.actions() == ["reward(2)"]


def test_thugs_recruited_with_the_reputation_modifier_inverted(content, tables):
    """LL-4.2.1: Reputation -4 gives -2 Influence at the start of the interaction; with
    Thugs it counts +2 instead: Influence 1 + 2 + 2 pays their cost 5."""
    g = Game(content, tables, site="village", reputation=-4)
    g.ut.set_unit_offer(["thugs", "peasants"])
    g.do("interact")
    start = g.turn["influence"]
    assert start == -2
    g.ut.set_turn(influence=start + 5)               # 5 Influence played: 3 in all
    assert g.of_kind("recruit") == ["recruit(offer=0, disband=-1)"]   # Thugs 5 <= 3 + 4; Peasants 4 > 3
    g.recruit(0)
    assert g.turn["influence"] == 2
    assert g.ut.units_turn["recruit_mode"] == 1


def test_heroes_reputation_modifier_doubled_and_not_with_thugs(content, tables):
    """LL-4.2.2, LL-4.2.4: Reputation -4 (-2) doubled for Heroes: 9 + 2 more Influence."""
    g = Game(content, tables, site="village", reputation=-4)
    g.sc.set_level(0, 3, command_tokens=3)
    g.ut.set_unit_offer(["hero_blue", "thugs"])
    g.do("interact")
    g.ut.set_turn(influence=-2 + 10)                 # 8: not enough for the Hero (9 + 2)
    assert "recruit(offer=0, disband=-1)" not in g.of_kind("recruit")
    g.ut.set_turn(influence=-2 + 13)                 # 11: enough
    g.recruit(0)
    assert g.turn["influence"] == 0
    assert g.of_kind("recruit") == []                # Thugs no longer (LL-4.2.4)


def test_thugs_take_damage_only_after_2_influence_in_this_combat(content, tables):
    """LL-4.3.1, LL-4.3.4: a card played sideways for Influence 1, twice, pays them."""
    g = Game(content, tables, hand=["march", "rage"])
    g.ut.set_unit(0, "thugs")
    combat(g, ["prowlers"])
    to_block(g)
    assert "pay_unit" not in g.kinds()
    g.sideways_influence(0)
    g.sideways_influence(0)
    assert g.turn["influence"] == 2
    assert g.of_kind("pay_unit") == ["pay_unit(0)"]
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"]
    g.do("next_phase")
    g.do("damage_from", 0)
    assert "damage_unit(0)" in g.actions()


def test_unpaid_thugs_take_no_damage(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "thugs")
    combat(g, ["prowlers"])
    g.do("next_phase")
    g.do("next_phase")
    g.do("damage_from", 0)
    assert "damage_unit(0)" not in g.actions() and "damage_hero(0)" in g.actions()
    with pytest.raises(ValueError):
        g.do("damage_unit", 0)


def test_heroes_abilities_need_payment_in_an_assault(content, tables):
    """LL-4.3.2: in an assault on a fortified site the Hero's abilities are not usable
    unless 2 Influence are paid; in another combat they are."""
    g = Game(content, tables)
    g.ut.set_unit(0, "hero_white")
    combat(g, ["prowlers"], assault=1)
    to_block(g)
    assert "activate_unit" not in g.kinds()
    g.ut.set_turn(influence=2)
    g.do("pay_unit", 0)
    assert "activate_unit(unit=0, ability=0, pay=31)" in g.actions()


@pytest.mark.covers("hero_red", "ability2")
def test_heroes_influence_5_and_reputation_plus_1_in_interaction(content, tables):
    g = Game(content, tables, site="village")
    g.ut.set_unit(0, "hero_red")
    g.do("interact")
    g.activate(0, 1)
    assert g.turn["influence"] == 5
    assert g.player["reputation"] == 1


@pytest.mark.covers("scouts", "ability2")
def test_scouts_reconnaissance_fame_if_that_enemy_is_defeated(content, tables):
    """Scouts: look at the top token of the green pile; that enemy defeated this turn gives
    +1 Fame besides its own."""
    g = Game(content, tables)
    g.ut.set_unit(0, "scouts")
    g.activate(0, 1)
    assert "choose(0)" in g.actions()                # option 0: the green pile
    g.do("choose", 0)
    tok = g.ut.units_turn["recon_token"]
    g.ut.start_combat_tokens([tok])
    ct = CombatTester(g.core)
    fame = g.player["fame"]
    enemy_fame = {"prowlers": 2, "diggers": 2, "cursed_hags": 3, "wolf_riders": 3, "ironclads": 4,
                  "orc_summoners": 4, "orc_skirmishers": 2, "orc_trackers": 3, "orc_war_beasts": 3,
                  "orc_stonethrowers": 4}[ct.enemy(0)["enemy"]]
    ct.set_phase("attack")
    ct.set_attack("melee", "coldfire", 20)
    g.do("attack", 1)
    g.do("next_phase")                               # the combat ends
    assert g.player["fame"] == fame + enemy_fame + 1


@pytest.mark.covers("scouts", "ability3")
def test_scouts_explore_two_spaces_away(content, tables):
    """Scouts: Move 2, and tiles may be revealed at distance 2 this turn (LL-4.6.1).  From
    the centre of tile [0,1] nothing is explorable; its neighbours reach [1,1] and [0,2]."""
    g = Game(content, tables)
    g.sc.set_position(0, 14)
    g.ut.set_unit(0, "scouts")
    assert g.of_kind("explore") == []
    g.activate(0, 2)
    assert sorted(g.of_kind("explore")) == ["explore(0, 2)", "explore(1, 1)"]
    g.do("explore", ((1 + 64) << 7) | (1 + 64))
    assert g.d["players"][0]["position"] == 14       # the hero stays
    assert g.d["turn"]["move_points"] == 0


def test_magic_familiars_recruited_at_a_magical_glade_without_reputation(content, tables):
    """LL-4.5.2: at a Magical Glade the familiars are recruited with Influence alone - no
    interaction, so Reputation -4 (-2 elsewhere) changes nothing; Peasants are not sold
    there; a Hero's 'during interaction' Reputation +1 does not trigger."""
    g = Game(content, tables, site="magical_glade", reputation=-4)
    g.ut.set_unit_offer(["peasants"])
    assert "interact" not in g.kinds()                # nothing to recruit at the glade
    g.ut.set_unit_offer(["peasants", "magic_familiars"])
    g.ut.set_unit(0, "hero_green")
    g.sc.set_level(0, 3, command_tokens=2)
    g.do("interact")
    assert g.turn["influence"] == 0 and g.turn["action_taken"]
    g.activate(0, 1)                                 # Heroes: Influence 5
    assert g.player["reputation"] == -4
    g.ut.set_turn(influence=6, mana={"green": 1})
    assert all(a.startswith("recruit(offer=1,") for a in g.of_kind("recruit"))
    g.do("recruit", 1 | ((PAY_TOKEN["green"] + 1) << 8) | (3 << 13))
    assert g.ut.unit(1)["unit"] == "magic_familiars" and g.ut.unit_extras(1)["upkeep"] == "green"


def test_magic_familiars_upkeep_without_crystals_means_disbanding(content, tables):
    g = Game(content, tables)
    g.ut.set_unit(0, "magic_familiars", upkeep="red")
    g.sc.set_crystals(0, [0, 0, 0, 0])
    g.ut.prepare_round()
    assert g.actions() == ["upkeep(0)"]
    g.do("upkeep", 0)
    assert g.ut.unit(0) is None
    assert "tactic" in g.kinds()
