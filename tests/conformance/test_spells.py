"""Conformance of Spells to their printed text (issue 8, deviations found by the audits).
Card texts: ../shared/data/cards.csv and mksim/data/spells.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k cure``)."""
import pytest

from mksim._engine import UnitsTester, encode
from mksim._rules import Rules

from test_spells_artifacts import ASK_DONE, BLACK, BLUE, CRYSTAL, GREEN, RED, WHITE, acts, codes, \
    crystals, play_code, player, start
from test_spells_handlers import fight, night_spell, tokens


def unit(core, slot=0):
    return player(core)["units"][slot]


# -- Cure (cards.csv #302: "Heal 2; draw a card for each Wound healed from hand this turn and
#    ready each unit healed this turn") ------------------------------------------------------

@pytest.mark.covers("cure", "basic")
def test_cure_unit_healed_with_its_points_is_readied(content, tables):
    """Cure's Heal 2 spent on a Spent, wounded Peasants (level 1, 12.3.3): wounds 1 -> 0 and
    the Unit is Ready (7.2.2); 1 Healing point is left."""
    core, eng, sc = start(content, tables, ["cure"], tokens=tokens(GREEN))
    U = UnitsTester(eng)
    U.set_unit(0, "peasants", ready=0, wounds=1)
    eng.apply(play_code(0, 0, pay=GREEN))
    assert core.to_dict()["turn"]["healing"] == 2
    eng.apply(encode("heal_unit", 0))
    u = unit(core)
    assert u["wounds"] == 0 and u["ready"] == 1
    assert core.to_dict()["turn"]["healing"] == 1


def test_cure_readies_a_unit_healed_earlier_in_the_turn(content, tables):
    """"Each unit healed this turn": a Peasants healed (Tranquility's Heal 1, before Cure is
    played) is readied when Cure resolves; a wounded Unit not healed stays Spent."""
    core, eng, sc = start(content, tables, ["tranquility", "cure"], tokens=tokens(GREEN))
    U = UnitsTester(eng)
    U.set_unit(0, "peasants", ready=0, wounds=1)
    U.set_unit(1, "peasants", ready=0, wounds=1)
    eng.apply(play_code(0, 0))                           # Tranquility basic: Heal 1 or draw 1
    eng.apply(encode("choose", 0))                       # Heal 1
    eng.apply(encode("heal_unit", 0))
    assert (unit(core, 0)["wounds"], unit(core, 0)["ready"]) == (0, 0)   # healed, still Spent
    eng.apply(play_code(0, 0, pay=GREEN))                # Cure
    assert unit(core, 0)["ready"] == 1
    assert unit(core, 1)["ready"] == 0 and unit(core, 1)["wounds"] == 1


# -- Demolish / Disintegrate (red; 11.4.2: a red card has no effect but its Attack / Block on
#    a Fire-resistant enemy) ---------------------------------------------------------------------

@pytest.mark.covers("demolish", "powered")
def test_disintegrate_does_not_destroy_a_fire_resistant_enemy_11_4_2(content, tables):
    """Disintegrate (Night, red + black, Attack phase) against Fire Mages (Armor 5, Fire
    resistance) and Prowlers (Armor 3): only the Prowlers may be destroyed; the Fire Mages'
    Armor stays 5 (its Armor -1 is red too)."""
    core, eng, sc = night_spell(content, tables, ["demolish"], RED)
    T = fight(core, ["fire_mages", "prowlers"], phase="attack")
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    assert acts(eng) == ["choose(1)"]                    # the Prowlers only
    eng.apply(encode("choose", 1))
    assert "defeated" in T.enemy(1)["flags"] and "defeated" not in T.enemy(0)["flags"]
    assert T.enemy_armor(0) == 5


def test_disintegrate_not_playable_against_fire_resistant_enemies_only(content, tables):
    """Against Fire Mages alone Disintegrate would do nothing (11.4.2): not offered."""
    core, eng, sc = night_spell(content, tables, ["demolish"], RED)
    fight(core, ["fire_mages"], phase="attack")
    assert play_code(0, 1, pay=RED, pay2=BLACK) not in codes(eng)


@pytest.mark.covers("demolish", "basic")
def test_demolish_armor_minus_1_not_on_a_fire_resistant_enemy_11_4_2(content, tables):
    """Demolish basic: Armor -1 on the Prowlers (3 -> 2), none on the Fire Mages (5)."""
    core, eng, sc = start(content, tables, ["demolish"], tokens=tokens(RED))
    T = fight(core, ["fire_mages", "prowlers"])
    eng.apply(play_code(0, 0, pay=RED))
    assert [T.enemy_armor(0), T.enemy_armor(1)] == [5, 2]


@pytest.mark.covers("demolish", "basic")
def test_demolish_against_fire_resistant_enemies_only_is_offered_for_its_other_part(content, tables):
    """Demolish basic against Fire Mages alone: its Armor -1 has no target (11.4.2, red),
    but "ignore site fortifications" (11.4.3) is a part that still works, so the card is
    offered; the Fire Mages' Armor stays 5."""
    core, eng, sc = start(content, tables, ["demolish"], tokens=tokens(RED))
    T = fight(core, ["fire_mages"])
    assert play_code(0, 0, pay=RED) in codes(eng)
    eng.apply(play_code(0, 0, pay=RED))
    assert T.enemy_armor(0) == 5


# -- Charm in combat (LL-4.3.4; card: "Influence 4; during interaction also ...") -------------

@pytest.mark.covers("charm", "basic")
def test_charm_influence_4_in_combat_to_pay_thugs_no_crystal(content, tables):
    """Charm basic (white token) in the Block phase with unpaid Thugs: Influence 4, usable
    to pay them (LL-4.3.4); its crystal / discount is for interactions only - no question,
    no crystal."""
    from interaction_setup import Game, PAY_TOKEN
    from test_units_handlers import combat, to_block
    g = Game(content, tables, hand=["charm"])
    g.ut.set_unit(0, "thugs")
    combat(g, ["prowlers"])
    to_block(g)
    g.ut.set_turn(mana={"white": 1})
    g.play(0, pay=PAY_TOKEN["white"])
    assert not any(a.startswith("choose") for a in g.actions())
    assert g.turn["influence"] == 4
    assert g.player["crystals"] == {"red": 0, "blue": 0, "white": 0, "green": 0}
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"]


def test_charm_in_interaction_still_gives_its_crystal(content, tables):
    from interaction_setup import Game, PAY_TOKEN
    g = Game(content, tables, site="village", hand=["charm"])
    g.do("interact")
    g.ut.set_turn(mana={"white": 1})
    g.play(0, pay=PAY_TOKEN["white"])
    g.do("choose", 2)                                    # a white crystal
    assert g.player["crystals"]["white"] == 1


# -- Burning Shield / Exploding Shield (red; 11.4.2) ---------------------------------------------

@pytest.mark.covers("burning_shield", "powered")
def test_burning_shield_exploding_shield_does_not_destroy_a_fire_resistant_enemy(content, tables):
    """Exploding Shield (Night, red + black): Fire Block 4 with Ice Block 6 blocks the Fire
    Mages' Fire Attack 6 (ice blocks fire in full, 11.6.5), but its "destroy the blocked
    enemy" is a red effect: the Fire-resistant Fire Mages stay (blocked, not defeated)."""
    core, eng, sc = night_spell(content, tables, ["burning_shield"], RED)
    T = fight(core, ["fire_mages"], phase="block")
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    T.set_block("ice", 6)
    eng.apply(encode("block", 0))
    e = T.enemy(0)
    assert "defeated" not in e["flags"] and e["blocked"] == 1


# == every half of every Spell (docs/conformance.md) ===========================================
# Timing common to all: the basic effect needs one mana of the Spell's colour, the powered one
# that colour plus one black mana (5.4.2-5.4.3, 6.1.4): black only at Night, or by Day in a
# dungeon / tomb combat (5.6.1).  Enemy numbers: mksim/data/enemies.toml (Prowlers Armor 3,
# Attack 4; Diggers Armor 3, Fortified; Fire Mages Armor 5, Fire resistance; Ice Mages Armor 6,
# Ice resistance; Fire Golems Armor 4, physical + Fire resistance; Swordsmen Armor 5).

def knock_out_setup(core, T, wounds):
    """`wounds` Wounds already taken in this combat (11.7.8 counts them)."""
    T.hero_take_wounds(wounds)
    assert T.wounds_this_combat == wounds and not T.knocked_out


# -- Fireball / Firestorm (card 93: Ranged Fire Attack 5; take a Wound: Siege Fire Attack 8) ----

@pytest.mark.covers("fireball", "basic")
def test_fireball_ranged_fire_attack_5_halved_by_fire_resistance(content, tables):
    """Fireball basic (red): Ranged Fire Attack 5 in the Ranged phase - 5 on the Prowlers,
    halved (rounded down) to 2 on the Fire-resistant Fire Mages (11.9.2); Ranged does not
    count on the Fortified Diggers (11.5.3).  No Wound taken."""
    core, eng, sc = start(content, tables, ["fireball"], tokens=tokens(RED))
    T = fight(core, ["prowlers", "fire_mages", "diggers"])
    eng.apply(play_code(0, 0, pay=RED))
    assert [T.attack_value([0]), T.attack_value([1]), T.attack_value([2])] == [5, 2, 0]
    assert player(core)["hand"] == [] and T.wounds_this_combat == 0
    eng.apply(encode("attack", 1))                       # the Prowlers defeated: Fame +2
    assert "defeated" in T.enemy(0)["flags"] and player(core)["fame"] == 2


@pytest.mark.covers("fireball", "powered")
def test_firestorm_siege_fire_8_and_its_wound_completes_a_knock_out_11_7_8(content, tables):
    """Firestorm (Night, red + black): a Wound into the hand, Siege Fire Attack 8 (counts on
    the Fortified Diggers, 11.5.3).  With 4 Wounds already taken in this combat the card's
    Wound is the 5th: the unmodified Hand limit 5 of a level-1 hero is reached, the hero is
    knocked out and discards every non-Wound card (11.7.8: Wounds from card effects count)."""
    core, eng, sc = night_spell(content, tables, ["fireball", "march"], RED)
    T = fight(core, ["diggers"])
    knock_out_setup(core, T, 4)
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    assert T.attack_value([0]) == 8
    assert T.wounds_this_combat == 5 and T.knocked_out
    p = player(core)
    assert p["hand"] == ["wound"] * 5 and p["discard"] == ["march"]


def test_firestorm_not_by_day_but_in_a_day_dungeon_5_6_1(content, tables):
    """Timing of the powered side: by Day the black token pays nothing (5.1.6); in a "night
    rules" combat by Day (dungeon, tomb: 5.6.1) it does."""
    core, eng, sc = start(content, tables, ["fireball"], tokens=tokens(RED, BLACK))
    fight(core, ["prowlers"])
    assert play_code(0, 1, pay=RED, pay2=BLACK) not in codes(eng)
    core, eng, sc = start(content, tables, ["fireball"], tokens=tokens(RED, BLACK))
    T = fight(core, ["prowlers"], night_rules=True)
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    assert T.attack_value([0]) == 8 and player(core)["hand"] == ["wound"]


# -- Snowstorm / Blizzard (card 94: Ranged Ice Attack 5; take a Wound: Siege Ice Attack 8) ------

@pytest.mark.covers("snowstorm", "basic")
def test_snowstorm_ranged_ice_attack_5_halved_by_ice_resistance(content, tables):
    """Snowstorm basic (blue): Ranged Ice Attack 5 - full on the Fire Mages, halved to 2 on
    the Ice Mages (11.9.2); an Attack value is not cancelled by the colour (11.4.2)."""
    core, eng, sc = start(content, tables, ["snowstorm"], tokens=tokens(BLUE))
    T = fight(core, ["fire_mages", "ice_mages"])
    eng.apply(play_code(0, 0, pay=BLUE))
    assert [T.attack_value([0]), T.attack_value([1])] == [5, 2]
    eng.apply(encode("attack", 1))
    assert "defeated" in T.enemy(0)["flags"] and player(core)["fame"] == 5


@pytest.mark.covers("snowstorm", "powered")
def test_blizzard_in_a_day_dungeon_siege_ice_8_and_the_wound_knocks_out(content, tables):
    """Blizzard by Day in a dungeon combat (5.6.1: black mana usable): a Wound and Siege Ice
    Attack 8 (on the Fortified Diggers); 4 earlier Wounds + this one = knocked out (11.7.8)."""
    core, eng, sc = start(content, tables, ["snowstorm", "rage"], tokens=tokens(BLUE, BLACK))
    T = fight(core, ["diggers"], night_rules=True)
    knock_out_setup(core, T, 4)
    eng.apply(play_code(0, 1, pay=BLUE, pay2=BLACK))
    assert T.attack_value([0]) == 8 and T.knocked_out
    assert player(core)["hand"] == ["wound"] * 5 and player(core)["discard"] == ["rage"]


# -- Expose / Mass Expose (card 95) -----------------------------------------------------------

@pytest.mark.covers("expose", "basic")
def test_expose_one_enemy_loses_fortification_and_resistances_ranged_2(content, tables):
    """Expose (white): the Diggers lose their fortification (level 1 -> 0), so its Ranged
    Attack 2 now counts on them (11.5.3); the Fire Golems, not chosen, keep their
    resistances (Ranged 2 physical -> 1)."""
    core, eng, sc = start(content, tables, ["expose"], tokens=tokens(WHITE))
    T = fight(core, ["diggers", "fire_golems"])
    assert T.fortification_level(0) == 1
    eng.apply(play_code(0, 0, pay=WHITE))
    assert acts(eng) == ["choose(0)", "choose(1)"]
    eng.apply(encode("choose", 0))
    assert T.fortification_level(0) == 0
    assert [T.attack_value([0]), T.attack_value([1])] == [2, 1]


def test_expose_fire_golems_lose_both_resistances(content, tables):
    core, eng, sc = start(content, tables, ["expose"], tokens=tokens(WHITE))
    T = fight(core, ["diggers", "fire_golems"])
    eng.apply(play_code(0, 0, pay=WHITE))
    eng.apply(encode("choose", 1))
    T.set_attack("ranged", "fire", 2)                    # + Ranged Fire 2: both count in full
    assert T.attack_value([1]) == 4 and T.attack_value([0]) == 0


@pytest.mark.covers("expose", "powered")
def test_mass_expose_all_lose_resistances_or_all_fortifications_ranged_3(content, tables):
    """Mass Expose (Night): a choice - every enemy loses its resistances (Fire Golems: Ranged
    3 + Fire 4 count 7), or every enemy its fortification (Diggers: Ranged 3 counts)."""
    core, eng, sc = night_spell(content, tables, ["expose"], WHITE)
    T = fight(core, ["diggers", "fire_golems"])
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    assert acts(eng) == ["choose(0)", "choose(1)"]
    eng.apply(encode("choose", 1))                       # resistances
    T.set_attack("ranged", "fire", 4)
    assert T.attack_value([1]) == 7 and T.fortification_level(0) == 1
    core, eng, sc = night_spell(content, tables, ["expose"], WHITE)
    T = fight(core, ["diggers", "fire_golems"])
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    eng.apply(encode("choose", 0))                       # fortifications
    assert T.fortification_level(0) == 0 and T.attack_value([0]) == 3
    assert T.attack_value([1]) == 1                      # physical 3 halved (11.9.2)


# -- Tremor / Earthquake (card 96) -------------------------------------------------------------

@pytest.mark.covers("tremor", "basic.1")
def test_tremor_one_enemy_armor_minus_3(content, tables):
    """Tremor (green): Armor -3 on one enemy - Swordsmen 5 -> 2; the Ice Mages (Ice
    resistance) may be chosen too: a green card is not stopped by a resistance (11.4.2)."""
    core, eng, sc = start(content, tables, ["tremor"], tokens=tokens(GREEN))
    T = fight(core, ["swordsmen", "ice_mages"])
    eng.apply(play_code(0, 0, pay=GREEN))
    eng.apply(encode("choose", 0))                       # one enemy
    assert acts(eng) == ["choose(0)", "choose(1)"]
    eng.apply(encode("choose", 1))
    assert [T.enemy_armor(0), T.enemy_armor(1)] == [5, 3]


@pytest.mark.covers("tremor", "basic.2")
def test_tremor_all_enemies_armor_minus_2_min_1(content, tables):
    """Tremor, all enemies: Armor -2 - Swordsmen 5 -> 3, Prowlers 3 -> 1; Orc Skirmishers'
    4 -> 2 (an Armor never below 1)."""
    core, eng, sc = start(content, tables, ["tremor"], tokens=tokens(GREEN))
    T = fight(core, ["swordsmen", "prowlers", "orc_skirmishers"])
    eng.apply(play_code(0, 0, pay=GREEN))
    eng.apply(encode("choose", 1))
    assert [T.enemy_armor(k) for k in range(3)] == [3, 1, 2]
    T.set_armor_delta(1, -5)
    assert T.enemy_armor(1) == 1


# -- Flame Wall / Flame Wave (card 97) ---------------------------------------------------------

@pytest.mark.covers("flame_wall", "basic.1")
def test_flame_wall_fire_attack_5(content, tables):
    """Flame Wall (red) in the Attack phase: Fire Attack 5 (a melee Attack: Attack phase)."""
    core, eng, sc = start(content, tables, ["flame_wall"], tokens=tokens(RED))
    T = fight(core, ["swordsmen", "fire_mages"], phase="attack")
    eng.apply(play_code(0, 0, pay=RED))
    eng.apply(encode("choose", 0))
    assert [T.attack_value([0]), T.attack_value([1])] == [5, 2]


@pytest.mark.covers("flame_wall", "basic.2")
def test_flame_wall_fire_block_7(content, tables):
    """Flame Wall, Block: Fire Block 7 blocks the Swordsmen's Attack 6 (11.6)."""
    core, eng, sc = start(content, tables, ["flame_wall"], tokens=tokens(RED))
    T = fight(core, ["swordsmen"], phase="block")
    eng.apply(play_code(0, 0, pay=RED))
    eng.apply(encode("choose", 1))
    assert T.block_value(0) == 7
    eng.apply(encode("block", 0))
    assert T.enemy(0)["blocked"] == 1


@pytest.mark.covers("flame_wall", "powered.2")
def test_flame_wave_fire_block_7_plus_2_per_enemy(content, tables):
    """Flame Wave, Block (Night): Fire Block 7 + 2 x 3 enemies = 13."""
    core, eng, sc = night_spell(content, tables, ["flame_wall"], RED)
    T = fight(core, ["swordsmen", "prowlers", "diggers"], phase="block")
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    eng.apply(encode("choose", 1))
    assert T.block_value(0) == 13


# -- Mana Bolt / Mana Thunderbolt (card 98) ----------------------------------------------------

@pytest.mark.covers("mana_bolt", "powered")
def test_mana_thunderbolt_white_extra_mana_ranged_ice_9(content, tables):
    """Mana Thunderbolt (Night, blue + black) with a white crystal as the extra mana: Ranged
    Ice Attack 9 in the Ranged phase (the white option); the crystal is spent."""
    core, eng, sc = night_spell(content, tables, ["mana_bolt"], BLUE, crystals=[0, 0, 1, 0],
                                dice=["green", "green", "green"])
    T = fight(core, ["swordsmen"])
    eng.apply(play_code(0, 1, pay=BLUE, pay2=BLACK))
    assert acts(eng) == ["choose(2)", "choose(3)"]      # white (crystal) or green (a die)
    eng.apply(encode("choose", WHITE))                   # the crystal is the only white mana
    assert crystals(core) == [0, 0, 0, 0]
    assert T.attack_value([0]) == 9
    assert core.to_dict()["combat"]["attack"][1][2] == 9   # ranged, ice


# -- Whirlwind / Tornado (card 99) -------------------------------------------------------------

@pytest.mark.covers("whirlwind", "basic")
def test_whirlwind_one_enemy_does_not_attack_not_arcane_immune(content, tables):
    """Whirlwind (white): the Prowlers do not attack this combat (no damage in the Assign
    Damage phase); the Arcane-immune Sorcerers cannot be its target (LL-6.7.1)."""
    core, eng, sc = start(content, tables, ["whirlwind"], tokens=tokens(WHITE), deck=["march"])
    T = fight(core, ["prowlers", "sorcerers"])
    eng.apply(play_code(0, 0, pay=WHITE))                # one target only: no question
    assert "no_attack" in T.enemy(0)["flags"] and not T.attack_live(0)
    assert "no_attack" not in T.enemy(1)["flags"]


# -- Wings of Wind / Wings of Night (card 103; LL printing: ll_changed_cards.csv) ---------------

@pytest.mark.covers("wings_of_wind", "powered")
def test_wings_of_night_base_skips_block_and_damage_with_a_move_per_enemy(content, tables):
    """Base Wings of Night (card 11/20): with Move 2 against two enemies the Block and Assign
    Damage phases are skipped - no enemy attacks, no Wound; the Move is a condition, not
    spent (conflicts note in spells.toml).  With Move 1 it is not offered."""
    core, eng, sc = night_spell(content, tables, ["wings_of_wind"], WHITE, deck=["march"])
    T = fight(core, ["prowlers", "swordsmen"])
    Rules(core).set_move_points(1)
    assert play_code(0, 1, pay=WHITE, pay2=BLACK) not in codes(eng)
    Rules(core).set_move_points(2)
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    assert core.to_dict()["turn"]["move_points"] == 2
    assert not T.attack_live(0) and not T.attack_live(1)
    while T.phase != "attack":
        eng.apply(encode("next_phase"))
    assert player(core)["hand"] == []


@pytest.mark.covers("wings_of_wind", "basic@ll")
def test_wings_of_wind_ll_printing_basic_flies_1_move_per_space(ll_content, ll_tables):
    """With The Lost Legion the basic Wings of Wind is unchanged (ll_changed_cards.csv): 1 Move
    per space flown; not offered in combat (LL-9.7.10: no moving outside the Movement phase)."""
    core, eng, sc = start(ll_content, ll_tables, ["wings_of_wind"], tokens=tokens(WHITE))
    Rules(core).set_move_points(3)
    eng.apply(play_code(0, 0, pay=WHITE))
    options = [a for a in acts(eng) if a != f"choose({ASK_DONE})"]
    assert options and f"choose({ASK_DONE})" not in acts(eng)   # at least one space
    eng.apply(encode("choose", int(options[0][7:-1])))
    assert core.to_dict()["turn"]["move_points"] == 2
    core, eng, sc = start(ll_content, ll_tables, ["wings_of_wind"], tokens=tokens(WHITE))
    Rules(core).set_move_points(3)
    fight(core, ["prowlers"])
    assert play_code(0, 0, pay=WHITE) not in codes(eng)


# -- Mist Form: Move in combat with The Lost Legion (LL-9.3.1) ------------------------------

@pytest.mark.covers("mist_form", "basic")
def test_mist_form_move_4_in_combat_with_the_lost_legion_buys_wings_targets(ll_content, ll_tables):
    """LL-9.3.1: Move effects may be played any time; Mist Form in combat gives Move 4 (its
    terrain parts do nothing there, LL-9.3.2) - spent on Wings of Night's further targets:
    the Swordsmen for 1, the Wolf Riders for 2 (1 Move left)."""
    core, eng, sc = start(ll_content, ll_tables, ["wings_of_wind", "mist_form"], time="night",
                          tokens=tokens(WHITE, BLACK, BLUE))
    T = fight(core, ["prowlers", "swordsmen", "wolf_riders"])
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    eng.apply(encode("choose", 0))                       # the first target is free
    eng.apply(play_code(0, 0, pay=BLUE))                 # Mist Form
    assert core.to_dict()["turn"]["move_points"] == 4
    eng.apply(encode("wings_target", 1))
    eng.apply(encode("wings_target", 2))
    assert core.to_dict()["turn"]["move_points"] == 1
    assert all("no_attack" in T.enemy(k)["flags"] for k in range(3))


# -- Meditation / Trance (card 108) ----------------------------------------------------------

@pytest.mark.covers("meditation", "powered")
def test_trance_four_discards_to_the_bottom_and_hand_limit_plus_4(content, tables):
    """Trance (Night, green + black): 4 random cards of the discard pile (5 there) go to the
    bottom of the Deed deck (chosen: bottom); at the end of the turn 5 + 4 = 9 cards drawn."""
    core, eng, sc = night_spell(content, tables, ["meditation"], GREEN, deck=["march"] * 8,
                                discard=["rage", "stamina", "swiftness", "concentration", "wound"])
    eng.apply(play_code(0, 1, pay=GREEN, pay2=BLACK))
    assert acts(eng) == ["choose(0)", "choose(1)"]      # top / bottom
    eng.apply(encode("choose", 1))
    p = player(core)
    moved = p["deck"][:4]
    assert len(p["discard"]) == 1 and len(p["deck"]) == 12
    assert sorted(moved + p["discard"]) == sorted(["rage", "stamina", "swiftness", "concentration", "wound"])
    assert core.to_dict()["turn"]["hand_limit_bonus"] == 4
    eng.apply(encode("end_turn"))
    eng.apply(encode("draw"))
    assert len(player(core)["hand"]) == 9


# -- the interactive Spells (19.7.1) in a solo game -------------------------------------------
# The engine ships solo scenarios only (scenarios.toml: max_players = 1), so "each other
# player" is nobody; what the caster gets is tested.  The other players' part has no test.

@pytest.mark.covers("mana_meltdown", "basic")
def test_mana_meltdown_solo_no_other_player_nothing_taken(content, tables):
    """Mana Meltdown (red) solo: no other player loses a crystal or takes a Wound, so the
    caster takes nothing: its crystals and hand stay as they were (the red token is paid)."""
    core, eng, sc = start(content, tables, ["mana_meltdown"], tokens=tokens(RED), crystals=[0, 1, 0, 0])
    eng.apply(play_code(0, 0, pay=RED))
    assert crystals(core) == [0, 1, 0, 0] and player(core)["hand"] == []
    assert core.to_dict()["turn"]["mana_tokens"] == {}
    assert player(core)["play_area"] == ["mana_meltdown"]


@pytest.mark.covers("mana_claim", "powered")
def test_mana_curse_keeps_a_die_and_gives_3_tokens_now(content, tables):
    """Mana Curse (Night, blue + black): as Mana Claim - a basic-colour die of the Source is
    kept (not the gold one) and gives 3 tokens of its colour now; the curse on other players
    has no one to hit solo."""
    core, eng, sc = night_spell(content, tables, ["mana_claim"], BLUE, dice=["gold", "red", "green"])
    eng.apply(play_code(0, 1, pay=BLUE, pay2=BLACK))
    assert acts(eng) == ["choose(1)", "choose(2)"]
    eng.apply(encode("choose", 2))
    eng.apply(encode("choose", 0))
    d = core.to_dict()
    assert d["source"]["dice"] == ["gold", "red"] and d["turn"]["mana_tokens"] == {"green": 3}
    assert player(core)["hand"] == []


@pytest.mark.covers("mind_read", "basic")
def test_mind_read_a_crystal_of_the_chosen_colour(content, tables):
    """Mind Read (white): choose a colour, gain a crystal of it (green here)."""
    core, eng, sc = start(content, tables, ["mind_read"], tokens=tokens(WHITE))
    eng.apply(play_code(0, 0, pay=WHITE))
    assert acts(eng) == ["choose(0)", "choose(1)", "choose(2)", "choose(3)"]
    eng.apply(encode("choose", GREEN))
    assert crystals(core) == [0, 0, 0, 1] and player(core)["hand"] == []


@pytest.mark.covers("mind_read", "powered")
def test_mind_steal_a_crystal_of_the_chosen_colour_nothing_to_steal_solo(content, tables):
    core, eng, sc = night_spell(content, tables, ["mind_read"], WHITE)
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    eng.apply(encode("choose", RED))
    assert crystals(core) == [1, 0, 0, 0]
    assert player(core)["hand"] == [] and not any(a.startswith("choose") for a in acts(eng))


@pytest.mark.covers("energy_flow", "basic")
def test_energy_flow_readies_one_unit_without_healing_it(content, tables):
    """Energy Flow (green): ready one of your Units - the Spent, wounded Peasants are readied
    and keep their Wound (no heal in the basic effect)."""
    core, eng, sc = start(content, tables, ["energy_flow"], tokens=tokens(GREEN))
    U = UnitsTester(eng)
    U.set_unit(0, "peasants", ready=0, wounds=1)
    U.set_unit(1, "foresters", ready=0)
    eng.apply(play_code(0, 0, pay=GREEN))
    assert acts(eng) == ["choose(0)", "choose(1)"]
    eng.apply(encode("choose", 0))
    assert U.unit(0) == {"unit": "peasants", "ready": True, "wounds": 1}
    assert U.unit(1)["ready"] is False


@pytest.mark.covers("energy_flow", "powered")
def test_energy_steal_readies_and_heals_one_unit(content, tables):
    core, eng, sc = night_spell(content, tables, ["energy_flow"], GREEN)
    U = UnitsTester(eng)
    U.set_unit(0, "peasants", ready=0, wounds=1)
    eng.apply(play_code(0, 1, pay=GREEN, pay2=BLACK))
    if acts(eng) == ["choose(0)"]:
        eng.apply(encode("choose", 0))
    assert U.unit(0) == {"unit": "peasants", "ready": True, "wounds": 0}


# -- Space Bending / Time Bending through Magic Talent (LL-9.6.4) ---------------------------

def test_time_bending_through_magic_talent_sets_magic_talent_aside(content, tables):
    """LL-9.6.4: Time Bending played through another card (Magic Talent's basic effect, the
    Spell from the offer paid with blue + black at Night) sets that card aside instead; the
    Spell stays in the offer, March returns to the hand, another turn follows.  (It was:
    nothing set aside, Magic Talent back in the hand.)"""
    core, eng, sc = night_spell(content, tables, ["magic_talent", "march", "rage"], BLUE, deck=[])
    UnitsTester(eng).set_spell_offer(["space_bending", "snowstorm", "tremor"])
    eng.apply(play_code(1, 0))                           # March
    eng.apply(play_code(0, 0))                           # Magic Talent: Rage discarded (only card)
    eng.apply(encode("choose", 32 + 1))                  # Time Bending, blue token
    eng.apply(encode("end_turn"))
    if "draw(0)" in acts(eng):
        eng.apply(encode("draw"))
    p = player(core)
    assert p["set_aside"] == ["magic_talent"] and p["hand"] == ["march"]
    assert p["discard"] == ["rage"] and p["play_area"] == []
    assert core.to_dict()["spell_offer"] == ["space_bending", "snowstorm", "tremor"]
    assert "regular_turn(0)" in acts(eng)


# -- Call to Arms: the borrowed ability keeps its mana colour (11.4.2) ------------------------

@pytest.mark.covers("call_to_arms", "basic")
def test_call_to_arms_ability_paid_with_blue_mana_no_effect_on_ice_resistant(content, tables):
    """11.4.2: a Unit ability paid with blue mana has no effect but its Attack / Block on an
    Ice-resistant enemy; borrowed through Call to Arms it is still paid with blue mana.  The
    Amotep Freezers of the offer (units.toml: Attack or Block 5; blue mana: an enemy's Armor
    -3, min 1): against the Ice Mages only their Block 5 is offered; against the Swordsmen
    the Freeze too, paid with the blue token: Armor 5 -> 2."""
    core, eng, sc = start(content, tables, ["call_to_arms"], tokens=tokens(WHITE, BLUE))
    UnitsTester(eng).set_unit_offer(["amotep_freezers"])
    T = fight(core, ["ice_mages"], phase="block")
    eng.apply(play_code(0, 0, pay=WHITE))
    eng.apply(encode("choose", 0))                       # the Freezers; one ability usable:
    assert acts(eng) == ["choose(1)"]                    # its Block 5 (of "Attack or Block")
    eng.apply(encode("choose", 1))
    assert T.block_value(0) == 2 and T.enemy_armor(0) == 6   # physical Block 5 vs Ice: halved (11.6.5)
    core, eng, sc = start(content, tables, ["call_to_arms"], tokens=tokens(WHITE, BLUE))
    UnitsTester(eng).set_unit_offer(["amotep_freezers"])
    T = fight(core, ["swordsmen"], phase="block")
    eng.apply(play_code(0, 0, pay=WHITE))
    eng.apply(encode("choose", 0))
    assert acts(eng) == ["choose(0)", "choose(1)"]       # both abilities
    eng.apply(encode("choose", 1))                       # the Freeze
    assert acts(eng)[0] == "choose(1)"                   # its blue mana: the token (or a die)
    eng.apply(encode("choose", 1))
    assert T.enemy_armor(0) == 2 and core.to_dict()["turn"]["mana_tokens"] == {}
    assert "no_attack" in T.enemy(0)["flags"]            # the Freezers' "does not attack" too


def test_call_to_arms_borrowed_ability_keeps_its_mana_colour_11_4_2(tmp_path):
    """The same with a generic enemy effect (a designer's Amotep Freezers whose blue Freeze is
    the effect vocabulary's enemy_armor(-3), which follows the resolving colour and is lost on
    an enemy it cannot act on): on the Swordsmen Armor 5 -> 2; against the Ice Mages alone
    it has no target, so it is not offered (only the Block 5 of the first ability is) and
    the Ice Mages keep Armor 6.  Before the colour fix the borrowed ability had no colour:
    Ice Mages 6 -> 3."""
    from content_edit import copy_data, replace_once
    from mksim.content import load_content
    data = copy_data(tmp_path / "data")
    replace_once(data / "units.toml", 'effect = "handler(amotep_freeze, armor_delta=-3, floor=1)"',
                 'effect = "enemy_armor(-3, target=one, floor=1)"')
    content = load_content(data)
    tables = content.compile()
    core, eng, sc = start(content, tables, ["call_to_arms"], tokens=tokens(WHITE, BLUE))
    UnitsTester(eng).set_unit_offer(["amotep_freezers"])
    T = fight(core, ["swordsmen"], phase="block")
    eng.apply(play_code(0, 0, pay=WHITE))
    eng.apply(encode("choose", 0))                       # the Freezers
    assert acts(eng) == ["choose(0)", "choose(1)"]       # Attack/Block 5 or the Freeze
    eng.apply(encode("choose", 1))                       # the Freeze
    eng.apply(encode("choose", 1))                       # paid with the blue token
    assert T.enemy_armor(0) == 2
    assert core.to_dict()["turn"]["mana_tokens"] == {}
    core, eng, sc = start(content, tables, ["call_to_arms"], tokens=tokens(WHITE, BLUE))
    UnitsTester(eng).set_unit_offer(["amotep_freezers"])
    T = fight(core, ["ice_mages"], phase="block")
    eng.apply(play_code(0, 0, pay=WHITE))
    eng.apply(encode("choose", 0))                       # the Freezers: one ability only, no question
    assert acts(eng) == ["choose(1)"]                    # its choice(attack(5), block(5)): Block 5
    eng.apply(encode("choose", 1))
    assert T.enemy_armor(0) == 6
    assert core.to_dict()["turn"]["mana_tokens"] == {"blue": 1}


# -- Veil of Mist: Units' resistances (card 300; 11.7.5) ---------------------------------------

@pytest.mark.covers("mist_form", "powered")
def test_veil_of_mist_units_gain_all_resistances_11_7_5(content, tables):
    """Veil of Mist (Night, blue + black): every Unit gains all resistances this turn, so
    Peasants (Armor 3) take 3 Ice or 3 physical damage without a Wound (11.7.5: a resistant
    Unit first absorbs damage equal to its Armor); without the Spell the same 3 wounds them."""
    core, eng, sc = night_spell(content, tables, ["mist_form"], BLUE)
    U = UnitsTester(eng)
    U.set_unit(0, "peasants")
    U.set_unit(1, "peasants")
    eng.apply(play_code(0, 1, pay=BLUE, pay2=BLACK))
    T = fight(core, ["ice_mages"], phase="damage")
    assert T.assign_to_unit(0, 3, element="ice") == 0 and T.unit(0)["wounds"] == 0
    assert T.assign_to_unit(1, 3, element="physical") == 0 and T.unit(1)["wounds"] == 0
    core, eng, sc = night_spell(content, tables, ["mist_form"], BLUE)
    UnitsTester(eng).set_unit(0, "peasants")
    T = fight(core, ["ice_mages"], phase="damage")
    T.assign_to_unit(0, 3, element="ice")
    assert T.unit(0)["wounds"] == 1


# -- modifiers that last "this turn" expire with it (11.4.4, 14.1.3) ---------------------------

@pytest.mark.covers("space_bending", "basic")
def test_space_bending_lasts_this_turn_only(content, tables):
    """Space Bending's "this turn": spaces 2 away are offered as moves while the turn lasts;
    the next turn they are not (the modifier is cleared at the end of the turn)."""
    core, eng, sc = start(content, tables, ["space_bending"], tokens=tokens(BLUE), deck=["march"] * 6)
    Rules(core).set_move_points(5)
    eng.apply(play_code(0, 0, pay=BLUE))
    assert any(a.startswith("move(") and int(a[5:-1]) >= 8 for a in acts(eng))
    eng.apply(encode("end_turn"))
    eng.apply(encode("draw"))
    while not any(a.startswith("regular_turn") for a in acts(eng)):
        eng.apply(int(eng.legal_actions()[0]))
    eng.apply(encode("regular_turn"))
    Rules(core).set_move_points(5)
    from mksim.fixtures import MOD_KINDS
    t = core.to_dict()["turn"]
    assert MOD_KINDS.index("space_bending") not in [m["kind"] for m in t["mods"][:t["n_mods"]]]
    assert not any(a.startswith("move(") and int(a[5:-1]) >= 8 for a in acts(eng))
