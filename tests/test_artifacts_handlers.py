"""Artifact handlers of ext/_fx_artifacts.pyx completed for the artifacts area: Banners
(7.5: assigned to a Unit, their ongoing effects, 7.5.2 replaced / destroyed, 7.5.3 round
preparation), the powered Banners, and the remaining Artifact effects.  Card texts from
artifacts.toml (cards.csv summaries) read as the published cards; rule numbers or card
names in the test names."""
import pytest

from mksim._combat import CombatTester
from mksim._engine import describe, encode, Engine, UnitsTester
from mksim._rules import Rules
from mksim._scoring import ScoringTester
from mksim._state import GameCore

NONE = 31                      # payment code: nothing


def play_code(hand, powered, pay=NONE, pay2=NONE):
    return encode("play", hand | (powered << 7) | (pay << 8) | (pay2 << 13))


def acts(eng):
    return [describe(int(a)) for a in eng.legal_actions()]


def start(content, tables, hand, units=(), deck=None, discard=None, seed=1):
    """A turn of the first reconnaissance (Day) with `hand` and the given units
    ((unit id, ready) pairs, slot order)."""
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", seed)
    eng = Engine(core, tables, content, "first_reconnaissance")
    eng.apply(encode("tactic", content.ids("tactics").index("early_bird")))
    sc = ScoringTester(core)
    sc.set_cards(0, hand=hand, deck=deck if deck is not None else [],
                 discard=discard if discard is not None else [])
    eng.apply(encode("regular_turn"))
    U = UnitsTester(eng)
    for i, (u, ready) in enumerate(units):
        U.set_unit(i, u, ready=ready)
    return core, eng, U


def player(core):
    return core.to_dict()["players"][0]


def combat(core, enemies, phase=None):
    T = CombatTester(core)
    T.begin(enemies)
    if phase:
        T.set_phase(phase)
    return T


def attach(eng, hand_index, slot=None):
    eng.apply(play_code(hand_index, 0))
    if slot is not None:
        eng.apply(encode("choose", slot))


# -- 7.5.1 / 7.5.2 assigning a Banner --------------------------------------------------------

def test_7_5_1_banner_is_assigned_to_a_chosen_unit_and_leaves_the_play_area(content, tables):
    core, eng, U = start(content, tables, ["banner_of_glory", "march"],
                         units=[("peasants", 1), ("utem_guardsmen", 1)])
    eng.apply(play_code(0, 0))
    assert acts(eng) == ["choose(0)", "choose(1)"]          # ASK_UNIT: either Unit
    eng.apply(encode("choose", 1))
    p = player(core)
    assert [u["banner"] for u in p["units"]] == [None, "banner_of_glory"]
    assert p["play_area"] == [] and p["hand"] == ["march"] and p["discard"] == []


def test_7_5_1_banner_is_not_offered_without_a_unit(content, tables):
    core, eng, U = start(content, tables, ["banner_of_glory"])
    plays = [a for a in acts(eng) if a.startswith("play(")]
    assert plays == ["play(hand=0, powered=1, pay=31, pay2=31)"]   # only its strong effect


def test_7_5_2_a_second_banner_on_the_same_unit_sends_the_old_one_to_the_discard_pile(content, tables):
    core, eng, U = start(content, tables, ["banner_of_glory", "banner_of_protection"],
                         units=[("peasants", 1)])
    attach(eng, 0)                                           # one Unit: no question
    attach(eng, 0)
    p = player(core)
    assert p["units"][0]["banner"] == "banner_of_protection"
    assert p["discard"] == ["banner_of_glory"] and p["play_area"] == []


def test_7_5_2_banner_of_a_unit_destroyed_by_paralyze_goes_to_the_discard_pile(content, tables):
    core, eng, U = start(content, tables, ["banner_of_glory"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["medusa"], phase="damage")
    T.assign_to_unit(0, 6, paralyze=True)                    # 11.7.10: destroyed
    p = player(core)
    assert p["units"] == [] and p["discard"] == ["banner_of_glory"]


# -- Banner of Glory ------------------------------------------------------------------------

@pytest.mark.covers("banner_of_glory", "basic")
def test_banner_of_glory_unit_attack_plus_1_and_fame_plus_1_when_it_attacks(content, tables):
    """Peasants (Attack 2) with the Banner of Glory: Attack 3 and Fame +1."""
    core, eng, U = start(content, tables, ["banner_of_glory"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["prowlers"], phase="attack")
    fame0 = player(core)["fame"]
    eng.apply(encode("activate_unit", 0 | (0 << 3) | (NONE << 7)))   # attack(2)
    assert T.attack_value([0]) == 3
    assert player(core)["fame"] == fame0 + 1


def test_banner_of_glory_unit_block_plus_1(content, tables):
    core, eng, U = start(content, tables, ["banner_of_glory"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["prowlers"], phase="block")
    fame0 = player(core)["fame"]
    eng.apply(encode("activate_unit", 0 | (1 << 3) | (NONE << 7)))   # block(2)
    assert T.block_value(0) == 3
    assert player(core)["fame"] == fame0 + 1


def test_banner_of_glory_unit_armor_plus_1(content, tables):
    """Peasants Armor 3 + 1: 6 damage wounds them and 2 is left (11.7.4)."""
    core, eng, U = start(content, tables, ["banner_of_glory"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["prowlers"], phase="damage")
    assert T.assign_to_unit(0, 6) == 2
    assert T.unit(0)["wounds"] == 1


@pytest.mark.covers("banner_of_glory", "powered")
def test_banner_of_glory_powered_every_unit_plus_1_and_fame_per_unit(content, tables):
    """Strong: two Units attack, each with + 1 (2 + 1, 2 + 1 = 6), Fame + 1 for each; Armor
    + 1 this turn; the Banner is thrown away (6.1.5)."""
    core, eng, U = start(content, tables, ["banner_of_glory"],
                         units=[("peasants", 1), ("peasants", 1)])
    T = combat(core, ["prowlers"], phase="attack")
    fame0 = player(core)["fame"]
    eng.apply(play_code(0, 1))
    eng.apply(encode("activate_unit", 0 | (0 << 3) | (NONE << 7)))
    eng.apply(encode("activate_unit", 1 | (0 << 3) | (NONE << 7)))
    assert T.attack_value([0]) == 6
    assert player(core)["fame"] == fame0 + 2
    assert player(core)["removed"] == 1
    assert T.assign_to_unit(0, 5) == 1                       # Armor 3 + 1


# -- Banner of Protection -------------------------------------------------------------------

@pytest.mark.covers("banner_of_protection", "basic")
def test_banner_of_protection_fire_resistance_and_armor_plus_1(content, tables):
    """Peasants Armor 3 + 1, fire and ice resistant: Fire 4 is absorbed without a wound
    (11.7.5); Physical 4 still wounds them."""
    core, eng, U = start(content, tables, ["banner_of_protection"],
                         units=[("peasants", 1), ("peasants", 1)])
    attach(eng, 0, 0)
    T = combat(core, ["fire_mages"], phase="damage")
    assert T.assign_to_unit(0, 4, element="fire") == 0
    assert T.unit(0)["wounds"] == 0
    assert T.assign_to_unit(1, 4, element="fire") == 1     # no Banner: Armor 3, wounded
    assert T.unit(1)["wounds"] == 1


def test_banner_of_protection_ice_damage_of_6_wounds_the_unit_and_leaves_0(content, tables):
    """Resistant: 6 - 4 = 2 left, so it is wounded and reduced by 4 again: 0 (11.7.5)."""
    core, eng, U = start(content, tables, ["banner_of_protection"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["ice_mages"], phase="damage")
    assert T.assign_to_unit(0, 6, element="ice") == 0
    assert T.unit(0)["wounds"] == 1


def count_wounds(p):
    return sum(z.count("wound") for z in (p["hand"], p["discard"], p["deck"], p["play_area"]))


@pytest.mark.covers("banner_of_protection", "powered")
def test_banner_of_protection_powered_throws_away_the_wounds_received_this_turn(content, tables):
    """Strong: 1 Wound in hand before, 2 received into the hand this turn and 1 Poison
    Wound into the discard pile (11.7.9): at the end of the turn the 3 received are thrown
    away, the old one stays."""
    core, eng, U = start(content, tables, ["banner_of_protection", "wound", "march"],
                         deck=["rage"] * 6)
    eng.apply(play_code(0, 1))
    T = CombatTester(core)
    T.hero_take_wounds(1)
    T.assign_to_hero(2, poison=True)                         # Armor 2: 1 to hand, 1 to discard
    p = player(core)
    assert p["hand"].count("wound") == 3 and p["discard"].count("wound") == 1
    eng.apply(encode("end_turn"))
    while not any(a.startswith("regular_turn") for a in acts(eng)) and not eng.is_terminal():
        a = [x for x in acts(eng) if x.startswith("draw")] or acts(eng)
        eng.apply(encode(a[0].split("(")[0], int(a[0].split("(")[1].rstrip(")") or 0)))
    assert count_wounds(player(core)) == 1


# -- Banner of Courage ----------------------------------------------------------------------

@pytest.mark.covers("banner_of_courage", "basic")
def test_banner_of_courage_once_a_round_readies_its_spent_unit_outside_combat(content, tables):
    core, eng, U = start(content, tables, ["banner_of_courage"], units=[("peasants", 0)])
    attach(eng, 0)
    assert "banner_courage(0)" in acts(eng)
    eng.apply(encode("banner_courage", 0))
    assert U.unit(0)["ready"]
    eng.apply(encode("activate_unit", 0 | (3 << 3) | (NONE << 7)))   # move(2): spent again
    assert not U.unit(0)["ready"]
    assert "banner_courage(0)" not in acts(eng)              # flipped: once a round


def test_banner_of_courage_not_for_a_ready_unit_and_not_in_combat(content, tables):
    core, eng, U = start(content, tables, ["banner_of_courage"], units=[("peasants", 1)])
    attach(eng, 0)
    assert "banner_courage(0)" not in acts(eng)              # Ready already: nothing to do
    eng.apply(encode("activate_unit", 0 | (3 << 3) | (NONE << 7)))   # move(2): spent
    assert "banner_courage(0)" in acts(eng)
    combat(core, ["prowlers"], phase="attack")
    assert "banner_courage(0)" not in acts(eng)              # "except during combat"


# -- Banner of Fear -------------------------------------------------------------------------

@pytest.mark.covers("banner_of_fear", "basic")
def test_banner_of_fear_spends_the_unit_to_cancel_an_attack_in_the_block_phase_fame_1(content, tables):
    core, eng, U = start(content, tables, ["banner_of_fear"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["prowlers", "sorcerers"], phase="block")
    fear = [a for a in acts(eng) if a.startswith("banner_fear")]
    assert fear == ["banner_fear(0)"]                        # sorcerers: Arcane Immunity (LL-6.7.1)
    fame0 = player(core)["fame"]
    eng.apply(encode("banner_fear", 0 | (0 << 3)))
    assert "no_attack" in T.enemy(0)["flags"]
    assert not T.attack_live(0)
    assert not U.unit(0)["ready"]
    assert player(core)["fame"] == fame0 + 1
    assert not any(a.startswith("banner_fear") for a in acts(eng))   # the Unit is spent


def test_banner_of_fear_cancels_one_of_two_attacks(content, tables):
    """Orc Skirmishers attack twice (LL-6.1.2): one attack cancelled, the other still live."""
    core, eng, U = start(content, tables, ["banner_of_fear"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["orc_skirmishers"], phase="block")
    assert [a for a in acts(eng) if a.startswith("banner_fear")] == [
        f"banner_fear({0 | (0 << 3) | (0 << 8)})", f"banner_fear({0 | (0 << 3) | (1 << 8)})"]
    eng.apply(encode("banner_fear", 1 << 8))
    assert T.attack_live(0, 0) and not T.attack_live(0, 1)
    assert "blocked" not in T.enemy(0)["flags"]


def test_banner_of_fear_not_offered_for_a_wounded_unit_or_outside_the_block_phase(content, tables):
    core, eng, U = start(content, tables, ["banner_of_fear"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["prowlers"], phase="attack")
    assert not any(a.startswith("banner_fear") for a in acts(eng))
    T.set_phase("block")
    assert any(a.startswith("banner_fear") for a in acts(eng))


# -- Banner of Fortitude (LL-5.2) -----------------------------------------------------------

@pytest.mark.covers("banner_of_fortitude", "basic")
def test_banner_of_fortitude_ignores_the_wound_once_a_round(content, tables):
    """Prowlers' 4 damage to Peasants (Armor 3) with Fortitude: no wound, 1 damage left to
    assign; the Banner is flipped; the Unit cannot take more damage this combat."""
    core, eng, U = start(content, tables, ["banner_of_fortitude"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["prowlers"], phase="damage")
    eng.apply(encode("damage_from", 0))
    assert "damage_fortitude(0)" in acts(eng) and "damage_unit(0)" in acts(eng)
    eng.apply(encode("damage_fortitude", 0))
    assert T.unit(0)["wounds"] == 0
    assert T.dmg_left == 1
    assert "damage_unit(0)" not in acts(eng) and "damage_fortitude(0)" not in acts(eng)


def test_banner_of_fortitude_ignores_paralyze(content, tables):
    """Medusa (6, Paralyze) would destroy the Unit (11.7.10): Fortitude ignores it."""
    core, eng, U = start(content, tables, ["banner_of_fortitude"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["medusa"], phase="damage")
    eng.apply(encode("damage_from", 0))
    eng.apply(encode("damage_fortitude", 0))
    p = player(core)
    assert p["units"][0]["unit"] == "peasants" and p["units"][0]["wounds"] == 0
    assert p["units"][0]["banner"] == "banner_of_fortitude"
    assert T.dmg_left == 3


# -- 7.5.3 / 2.2.8 round preparation -----------------------------------------------------

def finish_round(core, eng):
    """End this turn, then announce the End of the Round (4.2) and let the round end."""
    eng.apply(encode("end_turn"))
    for _ in range(50):
        a = acts(eng)
        if eng.phase() == "tactics" or any(x.startswith("banner_return") for x in a):
            return
        pick = [x for x in a if x.startswith(("announce_end", "draw"))] or a
        name, arg = pick[0].split("(")
        eng.apply(encode(name, int(arg.rstrip(")") or 0)))
    raise AssertionError("the round did not end")


def test_7_5_3_banners_may_be_kept_or_shuffled_back_at_round_preparation(content, tables):
    core, eng, U = start(content, tables, ["banner_of_courage", "banner_of_glory"],
                         units=[("peasants", 1), ("peasants", 1)], discard=["rage"] * 6)
    attach(eng, 0, 0)
    attach(eng, 0, 1)
    finish_round(core, eng)
    assert acts(eng) == ["banner_return(0)", "banner_return(1)", "banner_return(7)"]
    eng.apply(encode("banner_return", 1))                    # Glory back to the Deed deck
    assert acts(eng) == ["banner_return(0)", "banner_return(7)"]
    eng.apply(encode("banner_return", 7))                    # keep Courage; shuffle and draw
    p = player(core)
    assert [u["banner"] for u in p["units"]] == ["banner_of_courage", None]
    assert "banner_of_glory" in p["hand"] + p["deck"]
    assert len(p["hand"]) == 5 and len(p["deck"]) == 2       # 7 Deed cards, drawn after the choice
    assert all(a.startswith("tactic") for a in acts(eng))


def test_2_2_8_banner_of_courage_is_flipped_back_up_for_the_new_round(content, tables):
    core, eng, U = start(content, tables, ["banner_of_courage"], units=[("peasants", 0)],
                         discard=["rage"] * 6)
    attach(eng, 0)
    eng.apply(encode("banner_courage", 0))
    finish_round(core, eng)
    eng.apply(encode("banner_return", 7))
    eng.apply(encode("tactic", content.ids("tactics").index("from_the_dusk")))
    assert "regular_turn(0)" in acts(eng)
    eng.apply(encode("regular_turn"))
    eng.apply(encode("activate_unit", 0 | (3 << 3) | (NONE << 7)))   # spend it again
    assert "banner_courage(0)" in acts(eng)


# -- Sword of Justice (powered) -------------------------------------------------------------

@pytest.mark.covers("sword_of_justice", "powered")
def test_sword_of_justice_powered_doubles_physical_attack_and_removes_physical_resistance(content, tables):
    """Fire Golems (Armor 4, physical and fire resistant): 2 sideways Attack 1 would count
    1 (11.9.2); with the Sword they count (1 + 1) x 2 = 4 and defeat them; Fame 5 at once,
    + 1 at the end of the combat."""
    core, eng, U = start(content, tables, ["sword_of_justice", "march", "rage"])
    T = combat(core, ["fire_golems"], phase="attack")
    eng.apply(encode("sideways", 1 | (2 << 7)))
    eng.apply(encode("sideways", 1 | (2 << 7)))
    assert T.attack_value([0]) == 1
    fame0 = player(core)["fame"]
    eng.apply(play_code(0, 1))
    assert T.attack_value([0]) == 4
    eng.apply(encode("attack", 1))
    assert "defeated" in T.enemy(0)["flags"]
    assert player(core)["fame"] == fame0 + 5
    eng.apply(encode("next_phase"))
    assert player(core)["fame"] == fame0 + 6


def test_sword_of_justice_powered_does_not_double_fire_or_ranged_phase_points(content, tables):
    core, eng, U = start(content, tables, ["sword_of_justice"])
    T = combat(core, ["prowlers"])                           # Ranged phase
    eng.apply(play_code(0, 1))
    T.set_attack("ranged", "physical", 2)
    assert T.attack_value([0]) == 2                          # not the Attack phase
    T.set_phase("attack")
    T.set_attack("melee", "fire", 3)
    assert T.attack_value([0]) == 3 + 2 * 2                  # fire 3, physical Ranged 2 x 2


# -- Soul Harvester -------------------------------------------------------------------------

@pytest.mark.covers("soul_harvester", "basic")
def test_soul_harvester_attack_3_white_crystal_for_an_enemy_without_resistance(content, tables):
    core, eng, U = start(content, tables, ["soul_harvester"])
    T = combat(core, ["prowlers"], phase="attack")
    eng.apply(play_code(0, 0))
    assert T.attack_value([0]) == 3
    eng.apply(encode("attack", 1))
    c = player(core)["crystals"]
    assert c.get("white") == 1 and sum(c.values()) == 1


def test_soul_harvester_no_crystal_when_its_attack_fails(content, tables):
    core, eng, U = start(content, tables, ["soul_harvester"])
    T = combat(core, ["orc_skirmishers"], phase="attack")   # Armor 4
    eng.apply(play_code(0, 0))
    assert "attack(1)" not in acts(eng)
    eng.apply(encode("next_phase"))
    assert sum(player(core)["crystals"].values()) == 0


@pytest.mark.covers("soul_harvester", "powered")
def test_soul_harvester_powered_attack_8_a_crystal_for_each_enemy_defeated(content, tables):
    """Attack 8 on Prowlers and Diggers (Armor 3 + 3): two white crystals."""
    core, eng, U = start(content, tables, ["soul_harvester"])
    T = combat(core, ["prowlers", "diggers"], phase="attack")
    eng.apply(play_code(0, 1))
    assert T.attack_value([0, 1]) == 8
    eng.apply(encode("attack", 3))
    assert player(core)["crystals"].get("white") == 2


def test_soul_harvester_powered_colour_choice_for_a_fire_and_physical_resistant_enemy(content, tables):
    """Fire Golems resist fire and physical: the player picks red or green."""
    core, eng, U = start(content, tables, ["soul_harvester"])
    T = combat(core, ["fire_golems"], phase="attack")
    eng.apply(play_code(0, 1))
    assert T.attack_value([0]) == 4                          # 8 halved (11.9.2) = Armor 4
    eng.apply(encode("attack", 1))
    assert acts(eng) == ["choose(0)", "choose(3)"]           # red, green
    eng.apply(encode("choose", 3))
    assert player(core)["crystals"].get("green") == 1


# -- Shield of the Fallen Kings ---------------------------------------------------------------

@pytest.mark.covers("shield_of_the_fallen_kings", "basic.2")
def test_shield_of_the_fallen_kings_two_separate_blocks_of_4(content, tables):
    """Prowlers (attack 4) and Diggers (attack 3): two Block 4, one against each; none
    is left for the Orc Skirmishers."""
    core, eng, U = start(content, tables, ["shield_of_the_fallen_kings"])
    T = combat(core, ["prowlers", "diggers", "orc_skirmishers"], phase="block")
    eng.apply(play_code(0, 0))
    assert acts(eng) == ["choose(0)", "choose(1)"]           # Block 6, or the split
    eng.apply(encode("choose", 1))
    assert T.block_value(0) == 4
    eng.apply(encode("block", 0))
    assert "blocked" in T.enemy(0)["flags"]
    assert T.block_value(1) == 4                             # the second Block 4
    eng.apply(encode("block", 1))
    assert "blocked" in T.enemy(1)["flags"]
    assert T.block_value(2) == 0                             # only two


def test_shield_of_the_fallen_kings_split_blocks_do_not_add_up(content, tables):
    """Fire Mages attack 6 (fire): powered, Cold Fire Block 4 alone does not stop it, and
    the next Block 4 of the split only comes after a successful block."""
    core, eng, U = start(content, tables, ["shield_of_the_fallen_kings"])
    T = combat(core, ["fire_mages"], phase="block")
    eng.apply(play_code(0, 1))
    eng.apply(encode("choose", 1))                           # up to three Cold Fire Block 4
    assert T.block_value(0) == 4
    assert "block(0)" not in acts(eng)


# -- Bow of Starsdawn (powered) --------------------------------------------------------------

@pytest.mark.covers("bow_of_starsdawn", "powered")
def test_bow_of_starsdawn_powered_ranged_attack_doubled_once(content, tables):
    core, eng, U = start(content, tables, ["bow_of_starsdawn"])
    T = combat(core, ["orc_skirmishers"])                    # Armor 4
    eng.apply(play_code(0, 1))
    T.set_attack("ranged", "physical", 2)
    assert "bow_change(0)" in acts(eng) and "bow_change(1)" in acts(eng)
    eng.apply(encode("bow_change", 0))                       # doubled
    assert T.attack_value([0]) == 4
    assert not any(a.startswith("bow_change") for a in acts(eng))   # not twice
    eng.apply(encode("attack", 1))
    assert "defeated" in T.enemy(0)["flags"]


def test_bow_of_starsdawn_powered_ranged_becomes_siege_against_a_fortified_enemy(content, tables):
    """Diggers (fortified, Armor 3): Ranged 3 does not count (11.5.3); as Siege it does."""
    core, eng, U = start(content, tables, ["bow_of_starsdawn"])
    T = combat(core, ["diggers"])
    eng.apply(play_code(0, 1))
    T.set_attack("ranged", "physical", 3)
    assert T.attack_value([0]) == 0
    eng.apply(encode("bow_change", 1))
    assert T.attack_value([0]) == 3
    assert "bow_change(2)" not in acts(eng)                  # made by the Bow: not doubled back


def test_bow_of_starsdawn_powered_siege_doubled_becomes_ranged(content, tables):
    core, eng, U = start(content, tables, ["bow_of_starsdawn"])
    T = combat(core, ["prowlers", "diggers"])
    eng.apply(play_code(0, 1))
    T.set_attack("siege", "fire", 2)
    eng.apply(encode("bow_change", 2 | (1 << 2)))            # fire Siege 2 -> fire Ranged 4
    assert T.attack_value([0]) == 4                          # prowlers: Ranged counts
    assert T.attack_value([1]) == 0                          # fortified diggers: Siege only


# -- Circlet of Proficiency -----------------------------------------------------------------

@pytest.mark.covers("circlet_of_proficiency", "basic")
def test_circlet_uses_a_once_a_turn_offer_skill_twice_this_turn(content, tables):
    """Common offer: Dark Paths (once a turn: Move 1 by Day), Healing Ritual (interactive:
    not offered).  The Circlet uses Dark Paths now (Move 1) and once more (Move 2 in all)."""
    from mksim._engine import set_skill_offer
    core, eng, U = start(content, tables, ["circlet_of_proficiency"])
    set_skill_offer(eng, ["arythea_healing_ritual", "arythea_dark_paths"])
    move0 = core.to_dict()["turn"]["move_points"]
    eng.apply(play_code(0, 0))
    assert acts(eng) == ["choose(1)"]
    eng.apply(encode("choose", 1))
    assert core.to_dict()["turn"]["move_points"] == move0 + 1
    assert "circlet_skill(0)" in acts(eng)
    eng.apply(encode("circlet_skill"))
    assert core.to_dict()["turn"]["move_points"] == move0 + 2
    assert "circlet_skill(0)" not in acts(eng)
    assert player(core)["skills"] == []                      # not the player's own


def test_circlet_once_a_round_offer_skill_is_used_once(content, tables):
    from mksim._engine import set_skill_offer
    core, eng, U = start(content, tables, ["circlet_of_proficiency"])
    set_skill_offer(eng, ["goldyx_white_crystal_craft"])
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", 0))
    assert player(core)["crystals"].get("blue") == 1
    assert "circlet_skill(0)" not in acts(eng)


def test_circlet_skill_whose_handler_is_missing_still_raises_its_named_error(tmp_path, monkeypatch):
    """Every shipped skill reachable through the Circlet has its handler now, so the test
    gives Dark Paths a handler no engine group declares (a designer's new idea; content
    validation is told the engine declares it, else it refuses the content)."""
    import pytest
    from content_edit import copy_data, pretend_engine_declares, replace_once
    pretend_engine_declares(monkeypatch, "dark_paths_v2")
    from mksim._engine import set_skill_offer
    from mksim.content import load_content
    data = copy_data(tmp_path / "data")
    replace_once(data / "skills.toml", 'effect = "by_time(day=move(1), night=move(2))"',
                 'effect = "handler(dark_paths_v2)"')
    content = load_content(data)
    core, eng, U = start(content, content.compile(), ["circlet_of_proficiency"])
    set_skill_offer(eng, ["arythea_dark_paths"])
    assert "play(hand=0, powered=0, pay=31, pay2=31)" in acts(eng)
    eng.apply(play_code(0, 0))
    with pytest.raises(NotImplementedError, match="effect handler 'dark_paths_v2' is not implemented yet"):
        eng.apply(encode("choose", 0))


@pytest.mark.covers("circlet_of_proficiency", "powered")
def test_circlet_powered_takes_an_offer_skill_for_good(content, tables):
    from mksim._engine import set_skill_offer
    core, eng, U = start(content, tables, ["circlet_of_proficiency"])
    set_skill_offer(eng, ["arythea_dark_paths", "goldyx_potion_making"])
    eng.apply(play_code(0, 1))
    assert acts(eng) == ["choose(0)", "choose(1)"]
    eng.apply(encode("choose", 1))
    assert player(core)["skills"] == ["goldyx_potion_making"]
    offer = core.to_dict()["skill_offer"]
    assert offer[0] == "arythea_dark_paths" and "goldyx_potion_making" not in offer
    assert len(offer) == 2                                   # 18.3.1: a dummy skill joins
    assert player(core)["removed"] == 1


# -- Banner of Command (LL-5.1) --------------------------------------------------------------

def command_game(content, tables, hand=("banner_of_command",)):
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=list(hand))
    g.ut.set_unit_offer(["peasants", "peasants"])
    return g


@pytest.mark.covers("banner_of_command", "basic")
def test_banner_of_command_lets_a_unit_be_recruited_beyond_the_command_limit(content, tables):
    """Level 1: one Command token, held by Peasants.  Influence 4 from the Banner recruits
    a second Peasants (cost 4) without disbanding: the Banner goes to it."""
    g = command_game(content, tables)
    g.ut.set_unit(0, "peasants")
    g.do("interact")
    g.play(0)
    assert g.turn["influence"] == 4
    assert "recruit(offer=0, disband=-1)" in g.of_kind("recruit")   # the Banner instead
    assert "recruit(offer=0, disband=0)" in g.of_kind("recruit")    # or disband (7.2.4)
    g.do("recruit", 0)
    p = g.player
    assert [(u["unit"], u["banner"]) for u in p["units"]] == [("peasants", None),
                                                              ("peasants", "banner_of_command")]
    assert p["play_area"] == []


def test_banner_of_command_on_a_unit_recruited_this_turn_frees_its_command_token(content, tables):
    g = command_game(content, tables, hand=("banner_of_command", "march"))
    g.do("interact")
    g.play(0)
    g.do("recruit", 0)                                      # free token: Peasants in slot 0
    assert g.of_kind("banner_command") == ["banner_command(0)"]
    g.do("banner_command", 0)
    assert g.player["units"][0]["banner"] == "banner_of_command"
    g.ut.set_turn(influence=4)
    assert g.of_kind("recruit") == ["recruit(offer=0, disband=-1)"]   # a free token (7.2.1)


def test_banner_of_command_unit_leaves_the_game_when_another_banner_replaces_it(content, tables):
    """LL-5.1: the Unit that loses the Banner of Command is removed from the game; both
    Banners go to the discard pile (7.5.2)."""
    g = command_game(content, tables, hand=("banner_of_command", "banner_of_glory"))
    g.ut.set_unit(0, "peasants")
    g.do("interact")
    g.play(0)
    g.do("recruit", 0)                                      # slot 1, with the Banner
    g.play(0)                                               # Banner of Glory: which Unit?
    g.do("choose", 1)
    p = g.player
    assert [u["unit"] for u in p["units"]] == ["peasants"]
    assert sorted(p["discard"]) == ["banner_of_command", "banner_of_glory"]


# -- card conservation with Banners on Units (tests/test_invariants.py counts them) ----------

def test_cards_are_conserved_when_banners_move_between_play_area_units_and_discard(content, tables):
    from test_invariants import deed_cards
    core, eng, U = start(content, tables, ["banner_of_glory", "banner_of_protection", "march"],
                         units=[("peasants", 1)], deck=["rage"], discard=["stamina"])
    before = deed_cards(core.to_dict())
    attach(eng, 0)                                           # on the Unit
    assert deed_cards(core.to_dict()) == before
    attach(eng, 0)                                           # replaced: Glory to the discard pile
    assert deed_cards(core.to_dict()) == before
    assert player(core)["units"][0]["banner"] == "banner_of_protection"
