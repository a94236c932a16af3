"""The Spell handlers of ext/_fx_spells.pyx added for the enemy, movement, turn and Unit
spells: Chill / Lethal Chill, Tremor / Earthquake, Demolish, Cure / Disease, Wings of Night,
Charm / Possess, Mist Form / Veil of Mist, Time Bending, Underground Attack, Restoration /
Rebirth, Call to Arms / Call to Glory.  Rules 5.4.3 (strong effect at Night: colour + black),
7.2-7.3 (Units), 9.2, 9.4.1, 11.4.2 (a blue effect does nothing to an Ice-resistant enemy),
11.7.7, 11.7.9, 11.9.2, 11.10, LL-6.1.4, LL-6.1.6, LL-6.7.1, LL-9.6.4, LL-9.7.16; the card
texts (spells.toml).  Rule numbers or card names in the test names."""
import pytest

from mksim._combat import CombatTester
from mksim._engine import UnitsTester, encode
from mksim._rules import Rules

from test_spells_artifacts import ASK_DONE, BLACK, BLUE, CRYSTAL, GREEN, NONE, RED, WHITE, acts, codes, \
    play_code, player, start

NO_TOKENS = [0, 0, 0, 0, 0, 0]


def tokens(*colours):
    t = list(NO_TOKENS)
    for c in colours:
        t[c] += 1
    return t


def night_spell(content, tables, hand, colour, **kw):
    """A Night turn with one token of the spell's colour and one black (5.4.3)."""
    return start(content, tables, hand, time="night", tokens=tokens(colour, BLACK), **kw)


def fight(core, enemies, phase=None, **kw):
    T = CombatTester(core)
    T.begin(enemies, **kw)
    if phase:
        T.set_phase(phase)
    return T


# -- Chill / Lethal Chill ------------------------------------------------------------------

@pytest.mark.covers("chill", "basic")
def test_chill_fire_mages_do_not_attack_and_lose_fire_resistance_11_9_2(content, tables):
    """Chill on Fire Mages (Armor 5, fire resistance): no attack this combat, and a Fire
    Attack 5 now counts in full (5, not 2)."""
    core, eng, sc = start(content, tables, ["chill"], tokens=tokens(BLUE))
    T = fight(core, ["fire_mages"])
    T.set_attack("ranged", "fire", 5)
    assert T.attack_value([0]) == 2                    # halved by fire resistance (11.9.2)
    eng.apply(play_code(0, 0, pay=BLUE))
    assert acts(eng)[:1] == ["choose(0)"]
    eng.apply(encode("choose", 0))
    e = T.enemy(0)
    assert "no_attack" in e["flags"] and e["res_lost"] == 2
    assert T.attack_value([0]) == 5
    assert not T.attack_live(0)


def test_chill_not_playable_on_an_ice_resistant_enemy_11_4_2(content, tables):
    core, eng, sc = start(content, tables, ["chill"], tokens=tokens(BLUE))
    fight(core, ["ice_mages"])
    assert play_code(0, 0, pay=BLUE) not in codes(eng)


def test_ll_6_1_4_chill_on_a_summoner_in_the_ranged_phase_stops_its_summoning(content, tables):
    """Orc Summoners chilled before the Block phase summon nothing (11.6.2, LL-6.2.1)."""
    core, eng, sc = start(content, tables, ["chill"], tokens=tokens(BLUE))
    T = fight(core, ["orc_summoners"])
    eng.apply(play_code(0, 0, pay=BLUE))
    eng.apply(encode("choose", 0))
    eng.apply(encode("next_phase"))
    assert T.n_enemies == 1


@pytest.mark.covers("chill", "powered")
def test_lethal_chill_armor_minus_4_min_1_and_no_attack(content, tables):
    """Lethal Chill (Night, blue + black): Swordsmen Armor 5 -> 1, Crypt Worm 6 -> 2."""
    for enemy, armor in (("swordsmen", 1), ("crypt_worm", 2)):
        core, eng, sc = night_spell(content, tables, ["chill"], BLUE)
        T = fight(core, [enemy])
        eng.apply(play_code(0, 1, pay=BLUE, pay2=BLACK))
        eng.apply(encode("choose", 0))
        assert T.enemy_armor(0) == armor and "no_attack" in T.enemy(0)["flags"]
        assert T.enemy(0)["res_lost"] == 0


def test_ll_6_7_1_chill_does_not_target_an_arcane_immune_enemy(content, tables):
    core, eng, sc = start(content, tables, ["chill"], tokens=tokens(BLUE))
    fight(core, ["sorcerers", "prowlers"])
    eng.apply(play_code(0, 0, pay=BLUE))
    assert acts(eng) == ["choose(1)"]                  # only the Prowlers


# -- Tremor / Earthquake (11.10) --------------------------------------------------------------

@pytest.mark.covers("tremor", "powered.1")
def test_11_10_1_earthquake_one_enemy_minus_6_if_fortified(content, tables):
    """Earthquake, one target: Guardsmen (Fortified, Armor 7) -> 1; Swordsmen (Armor 5) -> 2."""
    for enemy, armor in (("guardsmen", 1), ("swordsmen", 2)):
        core, eng, sc = night_spell(content, tables, ["tremor"], GREEN)
        T = fight(core, [enemy])
        eng.apply(play_code(0, 1, pay=GREEN, pay2=BLACK))
        eng.apply(encode("choose", 0))                 # one enemy
        if "choose(0)" in acts(eng):
            eng.apply(encode("choose", 0))
        assert T.enemy_armor(0) == armor


@pytest.mark.covers("tremor", "powered.2")
def test_11_10_1_earthquake_all_enemies_minus_2_or_minus_4_when_site_fortified(content, tables):
    """Earthquake, all: Prowlers defending a keep (site-fortified, Armor 3) -4 -> 1; Swordsmen
    not fortified (a rampaging joiner, 11.10.4) -2 -> 3."""
    core, eng, sc = night_spell(content, tables, ["tremor"], GREEN)
    T = fight(core, ["prowlers", "swordsmen"], site_fortified=[0, 1], rampaging=[1])
    eng.apply(play_code(0, 1, pay=GREEN, pay2=BLACK))
    eng.apply(encode("choose", 1))                     # all enemies
    assert [T.enemy_armor(0), T.enemy_armor(1)] == [1, 3]


# -- Demolish (11.10.1) -------------------------------------------------------------------------

@pytest.mark.covers("demolish", "basic")
def test_11_10_1_demolish_ignores_site_fortifications_and_armor_minus_1(content, tables):
    """Demolish at a keep: the Prowlers lose their site fortification (level 1 -> 0); the
    Diggers keep their own Fortified ability (2 -> 1); all Armor -1 (3 -> 2)."""
    core, eng, sc = start(content, tables, ["demolish"], tokens=tokens(RED))
    T = fight(core, ["prowlers", "diggers"], site_fortified=True)
    assert [T.fortification_level(0), T.fortification_level(1)] == [1, 2]
    eng.apply(play_code(0, 0, pay=RED))
    assert [T.fortification_level(0), T.fortification_level(1)] == [0, 1]
    assert [T.enemy_armor(0), T.enemy_armor(1)] == [2, 2]
    T.set_attack("ranged", "physical", 2)
    assert T.attack_value([0]) == 2                    # Ranged counts again (11.5.3)


# -- Cure / Disease (LL-6.1.6) --------------------------------------------------------------------

@pytest.mark.covers("cure", "powered")
def test_ll_6_1_6_disease_blocked_enemies_have_armor_1(content, tables):
    """Disease: the blocked Prowlers (Armor 3) -> 1 at once; the Swordsmen (Armor 5) keep 5
    until blocked later in this combat, then 1."""
    core, eng, sc = night_spell(content, tables, ["cure"], GREEN)
    T = fight(core, ["prowlers", "swordsmen"], phase="block")
    T.set_block("physical", 4)
    eng.apply(encode("block", 0))
    eng.apply(play_code(0, 1, pay=GREEN, pay2=BLACK))
    assert [T.enemy_armor(0), T.enemy_armor(1)] == [1, 5]
    T.set_block("physical", 6)
    eng.apply(encode("block", 1))
    assert T.enemy_armor(1) == 1


def test_disease_not_offered_once_no_blocked_enemy_can_follow(content, tables):
    core, eng, sc = night_spell(content, tables, ["cure"], GREEN)
    fight(core, ["prowlers"], phase="attack")          # nothing was blocked
    assert play_code(0, 1, pay=GREEN, pay2=BLACK) not in codes(eng)


# -- Wings of Night -----------------------------------------------------------------------------

@pytest.mark.covers("wings_of_wind", "powered@ll")
def test_wings_of_wind_ll_night_second_target_costs_1_move_third_2(ll_content, ll_tables):
    """Wings of Night, Lost Legion printing (LL-2.10.1), with 2 Move: Prowlers free, Swordsmen for 1 Move; the third would cost
    2 more (only 1 left): it stops there.  March played later in the combat (Move 2, 3 in
    all) buys the Wolf Riders for 2."""
    core, eng, sc = night_spell(ll_content, ll_tables, ["wings_of_wind", "march"], WHITE)
    T = fight(core, ["prowlers", "swordsmen", "wolf_riders"])
    Rules(core).set_move_points(2)
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    assert acts(eng) == ["choose(0)", "choose(1)", "choose(2)"]
    eng.apply(encode("choose", 0))
    assert acts(eng) == ["choose(1)", "choose(2)", f"choose({ASK_DONE})"]
    eng.apply(encode("choose", 1))
    assert core.to_dict()["turn"]["move_points"] == 1
    assert not any(a.startswith("choose") for a in acts(eng))
    assert ["no_attack" in T.enemy(s)["flags"] for s in range(3)] == [True, True, False]
    assert "wings_target(2)" not in acts(eng)
    eng.apply(play_code(0, 0))                         # March in combat: Move 2 (it has a use)
    assert acts(eng).count("wings_target(2)") == 1
    eng.apply(encode("wings_target", 2))
    assert "no_attack" in T.enemy(2)["flags"] and core.to_dict()["turn"]["move_points"] == 1


# -- Charm / Possess ------------------------------------------------------------------------------

@pytest.mark.covers("charm", "basic")
def test_charm_in_interaction_influence_4_and_a_unit_discount_of_3(content, tables):
    """Charm at a village: Influence 4, and Peasants (cost 4) for 1 Influence."""
    from interaction_setup import Game, PAY_TOKEN
    g = Game(content, tables, site="village", hand=["charm"])
    g.ut.set_unit_offer(["peasants"])
    g.ut.set_turn(mana={"white": 1})
    g.do("interact")
    g.play(0, pay=PAY_TOKEN["white"])
    assert g.actions()[:5] == [f"choose({k})" for k in range(5)]
    g.do("choose", 4)                                  # the discount
    g.ut.set_turn(influence=1)
    g.recruit(0)
    assert g.ut.unit(0)["unit"] == "peasants" and g.turn["influence"] == 0


def test_charm_crystal_of_any_colour_instead(content, tables):
    from interaction_setup import Game, PAY_TOKEN
    g = Game(content, tables, site="village", hand=["charm"])
    g.ut.set_unit_offer([])
    g.ut.set_turn(mana={"white": 1})
    g.do("interact")
    g.play(0, pay=PAY_TOKEN["white"])
    assert "choose(4)" not in g.actions()              # no Unit in the offer: no discount
    g.do("choose", GREEN)
    assert g.player["crystals"].get("green") == 1 and g.turn["influence"] >= 4


@pytest.mark.covers("charm", "powered")
def test_possess_fire_mages_attack_6_fire_only_against_the_other_enemy(content, tables):
    """Possess the Fire Mages (fire Attack 6): they do not attack; in the Attack phase Fire
    Attack 6 joins the pool, enough for the Swordsmen (Armor 5) but never aimed at the Mages."""
    core, eng, sc = night_spell(content, tables, ["charm"], WHITE)
    T = fight(core, ["fire_mages", "swordsmen"], phase="block")
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    eng.apply(encode("choose", 0))
    assert "no_attack" in T.enemy(0)["flags"]
    T.set_phase("attack")
    assert "possess_attack(0)" in acts(eng)
    eng.apply(encode("possess_attack", 0))
    assert T.attack_value([1]) == 6
    assert "attack(2)" in acts(eng) and "attack(1)" not in acts(eng) and "attack(3)" not in acts(eng)
    fame0 = player(core)["fame"]
    eng.apply(encode("attack", 2))
    assert "defeated" in T.enemy(1)["flags"] and player(core)["fame"] == fame0 + 4
    assert "possess_attack(0)" not in acts(eng)


# -- Mist Form / Veil of Mist -----------------------------------------------------------------------

@pytest.mark.covers("mist_form", "basic")
def test_9_2_mist_form_move_4_all_terrain_2_lake_open_hills_and_mountains_closed(content, tables):
    core, eng, sc = start(content, tables, ["mist_form"], tokens=tokens(BLUE))
    R = Rules(core)
    h = [k for k in range(7) if k != player(core)["position"]][:4]
    for k, terrain in zip(h, (1, 7, 6, 3)):            # hills, mountain, lake, wasteland
        R.set_hex(k, terrain=terrain)
    eng.apply(play_code(0, 0, pay=BLUE))
    assert core.to_dict()["turn"]["move_points"] == 4
    assert [R.move_cost(k) for k in h] == [-1, -1, 2, 2]


def test_11_7_7_veil_of_mist_ignores_the_first_wound_from_enemies(content, tables):
    """Prowlers' 4 damage on Arythea (Armor 2) is 2 Wounds; with Veil of Mist's effect 1."""
    core, eng, sc = start(content, tables, [], deck=["march"])   # a Deed card: a regular turn (4.2.3)
    T = fight(core, ["prowlers"], phase="block")
    T.set_ignore_wounds(1)
    eng.apply(encode("next_phase"))
    eng.apply(encode("damage_from", 0))
    eng.apply(encode("damage_hero", 0))
    assert player(core)["hand"] == ["wound"]


def test_11_7_9_veil_of_mist_ignores_the_poison_of_the_ignored_wound(content, tables):
    """Cursed Hags (3, Poison): 2 Wounds to hand and 2 to the discard pile; with one Wound
    ignored, 1 and 1."""
    core, eng, sc = start(content, tables, [], deck=["march"])   # a Deed card: a regular turn (4.2.3)
    T = fight(core, ["cursed_hags"], phase="block")
    T.set_ignore_wounds(1)
    eng.apply(encode("next_phase"))
    eng.apply(encode("damage_from", 0))
    eng.apply(encode("damage_hero", 0))
    assert player(core)["hand"] == ["wound"] and player(core)["discard"] == ["wound"]


@pytest.mark.covers("mist_form", "powered")
def test_veil_of_mist_played_protects_the_hero_once(content, tables):
    core, eng, sc = night_spell(content, tables, ["mist_form"], BLUE)
    T = fight(core, ["prowlers"], phase="block")
    eng.apply(play_code(0, 1, pay=BLUE, pay2=BLACK))
    eng.apply(encode("next_phase"))
    eng.apply(encode("damage_from", 0))
    eng.apply(encode("damage_hero", 0))
    assert player(core)["hand"] == ["wound"]


# -- Time Bending (LL-9.6.4) -----------------------------------------------------------------------

@pytest.mark.covers("space_bending", "powered")
def test_ll_9_6_4_time_bending_cards_back_to_hand_no_draw_another_turn(content, tables):
    """Time Bending after March: at the end of the turn March returns to the hand, Time
    Bending is set aside, nothing is drawn and the same player takes another turn; at the end
    of the round the set-aside card goes back into the Deed deck."""
    core, eng, sc = night_spell(content, tables, ["space_bending", "march", "rage"], BLUE, deck=[])
    eng.apply(play_code(1, 0))                         # March: Move 2
    eng.apply(play_code(0, 1, pay=BLUE, pay2=BLACK))   # Time Bending
    eng.apply(encode("end_turn"))
    if "draw(0)" in acts(eng):
        eng.apply(encode("draw"))
    p = player(core)
    assert sorted(p["hand"]) == ["march", "rage"] and p["deck"] == []
    assert p["discard"] == [] and p["play_area"] == [] and p["set_aside"] == ["space_bending"]
    assert core.to_dict()["turn_player"] == 0
    assert "regular_turn(0)" in acts(eng)              # the extra turn begins
    eng.apply(encode("announce_end"))                  # 4.2: the deck is empty
    while core.to_dict()["round"] == 1:
        eng.apply(int(eng.legal_actions()[0]))
    p = player(core)
    assert p["set_aside"] == [] and "space_bending" in p["deck"] + p["hand"]   # 2.2.8


# -- Underground Attack (9.4.1, 11.10.1, 11.12.4) ----------------------------------------------------

def hexes(core):
    return {h["index"]: h for t in core.to_dict()["map"]["tiles"] for h in t["hexes"]}


@pytest.mark.covers("underground_travel", "powered")
def test_9_4_1_underground_attack_assaults_a_keep_ignoring_its_fortification(content, tables):
    """Underground Attack from the portal onto the keep two spaces away (its garrison: the
    Crossbowmen): an assault (Reputation -1, 11.1.1) without site fortification (level 0);
    withdrawing returns the hero to the portal (11.12.4)."""
    core, eng, sc = night_spell(content, tables, ["underground_travel"], GREEN)
    start_hex = player(core)["position"]
    T = CombatTester(core)
    far = 18
    assert hexes(core)[far]["site"] == "keep" and hexes(core)[far]["tokens"][0]["enemy"] == "crossbowmen"
    rep0 = player(core)["reputation"]
    eng.apply(play_code(0, 1, pay=GREEN, pay2=BLACK))
    while any(a.startswith("choose") for a in acts(eng)):
        options = [a for a in acts(eng) if a != f"choose({ASK_DONE})"]
        eng.apply(encode("choose", int(options[0][7:-1])))
    assert T.active and player(core)["position"] == far
    assert player(core)["reputation"] == rep0 - 1
    assert T.fortification_level(0) == 0
    while T.active:                                    # withdraw: nothing played
        a = acts(eng)
        eng.apply(encode("damage_from", 0) if "damage_from(0)" in a else
                  encode("damage_hero") if "damage_hero(0)" in a else encode("next_phase"))
    assert player(core)["position"] == start_hex


def test_underground_attack_not_offered_without_a_fortified_site_in_reach(content, tables):
    """Both keeps of the map conquered by the hero: nothing to assault."""
    core, eng, sc = night_spell(content, tables, ["underground_travel"], GREEN)
    for h in (8, 18):
        sc.set_hex(h, owner=0, flags=1)
    assert play_code(0, 1, pay=GREEN, pay2=BLACK) not in codes(eng)
    assert play_code(0, 0, pay=GREEN) in codes(eng)


# -- Restoration / Rebirth, Call to Arms / Call to Glory (7) ---------------------------------------

@pytest.mark.covers("restoration", "powered")
def test_ll_9_7_16_rebirth_readies_units_of_total_level_3(content, tables):
    """Rebirth outside a forest: Heal 3 and ready Units of total level up to 3: after the
    Utem Crossbowmen (level 2) only a level-1 Unit can follow."""
    core, eng, sc = night_spell(content, tables, ["restoration"], GREEN)
    R = Rules(core)
    R.set_hex(player(core)["position"], terrain=0)
    U = UnitsTester(eng)
    U.set_unit(0, "utem_crossbowmen", ready=0)
    U.set_unit(1, "fire_golems", ready=0)              # level 3
    U.set_unit(2, "peasants", ready=0)
    eng.apply(play_code(0, 1, pay=GREEN, pay2=BLACK))
    assert core.to_dict()["turn"]["healing"] == 3
    assert acts(eng) == ["choose(0)", "choose(1)", "choose(2)", f"choose({ASK_DONE})"]
    eng.apply(encode("choose", 0))
    assert acts(eng) == ["choose(2)", f"choose({ASK_DONE})"]
    eng.apply(encode("choose", 2))
    assert [U.unit(k)["ready"] for k in range(3)] == [True, False, True]


@pytest.mark.covers("call_to_arms", "powered")
def test_7_2_call_to_glory_recruits_free_disbanding_at_the_command_limit(content, tables):
    """Call to Glory with 1 Command token and Peasants held: Fire Golems (cost 8) come free,
    the Peasants are disbanded (7.2.4); not at a site that recruits them."""
    core, eng, sc = night_spell(content, tables, ["call_to_arms"], WHITE)
    U = UnitsTester(eng)
    U.set_unit_offer(["fire_golems", "delphana_masters"])
    U.set_unit(0, "peasants")
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    assert acts(eng) == ["choose(0)"]                  # never the Delphana Masters (LL-4.4.1)
    eng.apply(encode("choose", 0))
    assert acts(eng) == ["choose(0)"]                  # the Unit to disband
    eng.apply(encode("choose", 0))
    assert U.unit(0) == {"unit": "fire_golems", "ready": True, "wounds": 0}
    assert core.to_dict()["unit_offer"] == [{"unit": "delphana_masters"}]


@pytest.mark.covers("call_to_arms", "basic")
def test_7_3_call_to_arms_uses_an_offer_units_ability(content, tables):
    """Call to Arms in the Attack phase: the Fire Mages of the offer; their second ability
    (red mana: Fire Attack 6 or Fire Block 6) is paid with the red token; the Attack joins
    the pool, the Fire Mages stay in the offer."""
    core, eng, sc = start(content, tables, ["call_to_arms"], tokens=tokens(WHITE, RED))
    U = UnitsTester(eng)
    U.set_unit_offer(["peasants", "fire_mages"])
    T = fight(core, ["swordsmen"], phase="attack")
    eng.apply(play_code(0, 0, pay=WHITE))
    assert acts(eng) == ["choose(0)", "choose(1)"]
    eng.apply(encode("choose", 1))                     # the Fire Mages
    assert acts(eng) == ["choose(0)", "choose(1)", "choose(2)"]   # Ranged 3, Attack/Block 6, mana
    eng.apply(encode("choose", 1))                     # paid with the only red token
    assert acts(eng)[:1] == ["choose(0)"] and "choose(1)" not in acts(eng)   # Block: Block phase only
    eng.apply(encode("choose", 0))                     # Attack 6
    assert core.to_dict()["turn"]["mana_tokens"] == {}
    assert T.attack_value([0]) == 6
    assert core.to_dict()["unit_offer"] == [{"unit": "peasants"}, {"unit": "fire_mages"}]
    assert all(U.unit(k) is None for k in range(6))
