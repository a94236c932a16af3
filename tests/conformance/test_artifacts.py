"""Conformance of Artifacts to their printed text (issue 8, deviations found by the audits).
Card texts: ../shared/data/cards.csv and mksim/data/artifacts.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k tome_of_all_spells``)."""
import pytest

from mksim._engine import UnitsTester, encode

from test_spells_artifacts import ASK_DONE, BLUE, GOLD, GREEN, RED, WHITE, acts, codes, crystals, \
    play_code, player, start
from test_spells_handlers import fight, tokens
from test_spells_artifacts import terrain_delta


# -- Tome of All Spells (LL-9.6.3, LL-9.7.22: the borrowed Spell keeps its colour) ------------

@pytest.mark.covers("tome_of_all_spells", "powered")
def test_tome_of_all_spells_disintegrate_stays_red_ll_9_7_22(content, tables):
    """Tome of All Spells powered (a red token), Rage discarded: Disintegrate from the offer
    is a red effect although no red mana paid for it, so it neither destroys the Fire Mages
    nor lowers their Armor (11.4.2): the Prowlers are the only target; Fire Mages Armor 5."""
    core, eng, sc = start(content, tables, ["tome_of_all_spells", "rage"], tokens=tokens(RED))
    UnitsTester(eng).set_spell_offer(["demolish", "snowstorm", "tremor"])
    T = fight(core, ["fire_mages", "prowlers"], phase="attack")
    assert play_code(0, 1, pay=RED) not in eng.legal_actions()   # an Artifact's powered effect
    eng.apply(play_code(0, 1))                           # costs no mana (6.1.5: thrown away)
    eng.apply(encode("choose", 0))                       # discard Rage (red)
    eng.apply(encode("choose", 0))                       # Disintegrate (offer slot 0)
    assert acts(eng) == ["choose(1)"]                    # the Prowlers only
    eng.apply(encode("choose", 1))
    assert "defeated" in T.enemy(1)["flags"] and "defeated" not in T.enemy(0)["flags"]
    assert T.enemy_armor(0) == 5


@pytest.mark.covers("tome_of_all_spells", "basic")
def test_tome_of_all_spells_demolish_armor_minus_1_spares_fire_mages(content, tables):
    """The Tome's basic effect with Demolish: Armor -1 on the Prowlers (3 -> 2) only."""
    core, eng, sc = start(content, tables, ["tome_of_all_spells", "rage"])
    UnitsTester(eng).set_spell_offer(["demolish", "snowstorm", "tremor"])
    T = fight(core, ["fire_mages", "prowlers"])
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", 0))                       # discard Rage
    eng.apply(encode("choose", 0))                       # Demolish
    assert [T.enemy_armor(0), T.enemy_armor(1)] == [5, 2]


# -- Banner of Glory ("Fame +1 whenever it attacks or blocks"; 11.6) --------------------------

@pytest.mark.covers("banner_of_glory", "basic")
def test_banner_of_glory_no_fame_for_a_block_with_nothing_left_to_block(content, tables):
    """Peasants with the Banner of Glory, the Prowlers' only attack already blocked: the
    Peasants' Block is not offered (a Block with no attack left has no use, 11.6.1), so no
    Fame +1 for it; their Attack stays for the Attack phase.  Before the block it is offered."""
    from test_artifacts_handlers import attach, combat, start as banner_start
    core, eng, U = banner_start(content, tables, ["banner_of_glory"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["prowlers"], phase="block")
    block = encode("activate_unit", 0 | (1 << 3) | (31 << 7))
    assert block in [int(a) for a in eng.legal_actions()]
    T.set_block("physical", 4)
    eng.apply(encode("block", 0))                        # Prowlers (Attack 4) blocked
    fame0 = core.to_dict()["players"][0]["fame"]
    assert block not in [int(a) for a in eng.legal_actions()]
    assert core.to_dict()["players"][0]["fame"] == fame0


# == every half of every Artifact (docs/conformance.md) ========================================
# Timing common to all: the basic effect costs no mana; the powered effect costs no mana either
# and throws the Artifact away (6.1.5: `removed` + 1, not in the play area).  Card texts:
# ../shared/data/cards.csv, artifacts.toml; the Lost Legion printings ll_changed_cards.csv.

def thrown_away(core, card):
    p = player(core)
    return p["removed"] == 1 and card not in p["play_area"] + p["hand"] + p["discard"]


# -- Banner of Fear (card 114; LL printing: ll_changed_cards.csv) -------------------------------

@pytest.mark.covers("banner_of_fear", "powered")
def test_banner_of_fear_base_powered_skips_block_and_damage(content, tables):
    """Base printing (card 2/16): thrown away, the Block and Assign Damage phases of this
    combat are skipped - no enemy attacks (the Arcane-immune Sorcerers neither: a combat rule,
    not an effect on an enemy, 11.4.3), no Wound reaches the hand."""
    core, eng, sc = start(content, tables, ["banner_of_fear"], deck=["march"])
    T = fight(core, ["prowlers", "swordsmen", "sorcerers"])
    eng.apply(play_code(0, 1))
    assert thrown_away(core, "banner_of_fear")
    assert not any(T.attack_live(k) for k in range(3))
    while T.phase != "attack":
        eng.apply(encode("next_phase"))
    assert player(core)["hand"] == []


@pytest.mark.covers("banner_of_fear", "powered@ll")
def test_banner_of_fear_ll_powered_up_to_3_enemies_do_not_attack(ll_content, ll_tables):
    """Lost Legion printing (LL-2.10.3): up to 3 enemies do not attack this combat, not the
    Arcane-immune Sorcerers (LL-6.7); no phase is skipped: the 4th enemy still attacks."""
    core, eng, sc = start(ll_content, ll_tables, ["banner_of_fear"], deck=["march"])
    T = fight(core, ["prowlers", "swordsmen", "sorcerers", "diggers", "wolf_riders"])
    eng.apply(play_code(0, 1))
    assert acts(eng) == ["choose(0)", "choose(1)", "choose(3)", "choose(4)", f"choose({ASK_DONE})"]
    for slot in (0, 1, 3):
        eng.apply(encode("choose", slot))
    assert not any(a.startswith("choose") for a in acts(eng))       # three at most
    assert [T.attack_live(k) for k in range(5)] == [False, False, True, False, True]
    assert thrown_away(core, "banner_of_fear")


@pytest.mark.covers("banner_of_fear", "basic@ll")
def test_banner_of_fear_ll_basic_spends_its_unit_to_cancel_an_attack_fame_1(ll_content, ll_tables):
    """The basic effect is the same in both printings (artifacts.toml notes): the Peasants with
    the Banner are spent in the Block phase to cancel the Prowlers' attack: Fame +1."""
    from test_artifacts_handlers import attach
    core, eng, sc = start(ll_content, ll_tables, ["banner_of_fear"])
    UnitsTester(eng).set_unit(0, "peasants")
    attach(eng, 0)
    T = fight(core, ["prowlers"], phase="block")
    eng.apply(encode("banner_fear", 0))
    assert not T.attack_live(0) and not T.unit(0)["ready"] and player(core)["fame"] == 1


# -- Banner of Courage (card 116) ----------------------------------------------------------------

@pytest.mark.covers("banner_of_courage", "powered")
def test_banner_of_courage_powered_readies_all_units_outside_combat(content, tables):
    """Thrown away outside combat: both Spent Units are Ready (the wounded Foresters keep their
    Wound: readying is not healing, 7.2.2); not offered in combat."""
    core, eng, sc = start(content, tables, ["banner_of_courage"])
    U = UnitsTester(eng)
    U.set_unit(0, "peasants", ready=0)
    U.set_unit(1, "foresters", ready=0, wounds=1)
    eng.apply(play_code(0, 1))
    assert U.unit(0) == {"unit": "peasants", "ready": True, "wounds": 0}
    assert U.unit(1) == {"unit": "foresters", "ready": True, "wounds": 1}
    assert thrown_away(core, "banner_of_courage")
    core, eng, sc = start(content, tables, ["banner_of_courage"])
    UnitsTester(eng).set_unit(0, "peasants", ready=0)
    fight(core, ["prowlers"], phase="attack")
    assert play_code(0, 1) not in codes(eng)


# -- the Rings (cards 117-120: a mana token and a crystal of the colour, Fame +1; thrown away:
#    endless mana of the colour and black this turn, Fame +1 per Spell of the colour cast) ------

RINGS = [("ruby_ring", RED), ("sapphire_ring", BLUE), ("diamond_ring", WHITE), ("emerald_ring", GREEN)]


@pytest.mark.covers("ruby_ring", "basic")
@pytest.mark.covers("sapphire_ring", "basic")
@pytest.mark.covers("diamond_ring", "basic")
@pytest.mark.covers("emerald_ring", "basic")
@pytest.mark.parametrize("ring,colour", RINGS)
def test_ring_basic_a_token_and_a_crystal_of_its_colour_fame_1(content, tables, ring, colour):
    core, eng, sc = start(content, tables, [ring])
    eng.apply(play_code(0, 0))
    name = ["red", "blue", "white", "green"][colour]
    assert core.to_dict()["turn"]["mana_tokens"] == {name: 1}
    assert crystals(core) == [int(c == colour) for c in range(4)]
    assert player(core)["fame"] == 1 and player(core)["play_area"] == [ring]


SPELL_OF = {RED: "fireball", BLUE: "snowstorm", WHITE: "expose", GREEN: "tremor"}


@pytest.mark.covers("sapphire_ring", "powered")
@pytest.mark.covers("diamond_ring", "powered")
@pytest.mark.covers("emerald_ring", "powered")
@pytest.mark.parametrize("ring,colour", RINGS[1:])
def test_ring_powered_endless_mana_and_black_fame_per_spell_of_its_colour(content, tables, ring, colour):
    """Thrown away at Night, in combat: the Spell of the ring's colour is cast powered with its
    colour and black from the endless supply (both colours, 6.1.5 no other mana); a red Spell
    cannot be paid (not the ring's colour).  At the end of the turn Fame +1 for the Spell."""
    spell = SPELL_OF[colour]
    core, eng, sc = start(content, tables, [ring, spell, "fireball"], time="night",
                          dice=["gold", "gold", "gold"])
    T = fight(core, ["prowlers"], phase="attack" if colour == GREEN else None)
    eng.apply(play_code(0, 1))
    assert thrown_away(core, ring)
    assert play_code(1, 0, pay=RED) not in codes(eng)    # Fireball: no red mana
    eng.apply(play_code(0, 1, pay=colour, pay2=5))       # the Spell, powered: colour + black
    while any(a.startswith("choose") for a in acts(eng)):
        eng.apply(encode("choose", int(acts(eng)[0][7:-1])))
    assert core.to_dict()["turn"]["mana_tokens"] == {}   # endless: nothing runs down
    assert player(core)["play_area"] == [spell]
    fame0 = player(core)["fame"]
    while T.active:                                      # nothing more played: to the end
        a = [x for x in acts(eng) if x.startswith(("damage_", "next_phase"))][0]
        eng.apply(encode(a.split("(")[0], int(a.split("(")[1][:-1])))
    assert player(core)["fame"] == fame0
    eng.apply(encode("end_turn"))
    assert player(core)["fame"] == fame0 + 1


# -- Endless Bag of Gold (card 123) --------------------------------------------------------------

@pytest.mark.covers("endless_bag_of_gold", "basic")
def test_endless_bag_of_gold_influence_4_fame_2_in_interaction(content, tables):
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=["endless_bag_of_gold"])
    g.do("interact")
    infl0, fame0 = g.turn["influence"], g.player["fame"]
    g.play(0)
    assert g.turn["influence"] == infl0 + 4 and g.player["fame"] == fame0 + 2
    assert g.player["play_area"] == ["endless_bag_of_gold"]


@pytest.mark.covers("endless_bag_of_gold", "powered")
def test_endless_bag_of_gold_powered_influence_9_fame_3_thrown_away(content, tables):
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=["endless_bag_of_gold"])
    g.do("interact")
    infl0, fame0 = g.turn["influence"], g.player["fame"]
    g.play(0, powered=1)
    assert g.turn["influence"] == infl0 + 9 and g.player["fame"] == fame0 + 3
    assert g.player["removed"] == 1 and g.player["play_area"] == []


@pytest.mark.covers("endless_bag_of_gold", "basic")
def test_endless_bag_of_gold_outside_interaction_just_for_its_fame_ll_9_7_8(content, tables):
    """LL-9.7.8: the Bag may be played outside an interaction just for its Fame (+2); its
    Influence 4 is lost when the action begins (LL-9.3.4): interacting at the village right
    after starts from the reputation modifier (0) only.  (It was: not offered outside an
    interaction - every part of all(...) had to be usable.)"""
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=["endless_bag_of_gold"])
    assert "play(hand=0, powered=0, pay=31, pay2=31)" in g.actions()
    g.play(0)
    assert g.player["fame"] == 2 and g.turn["influence"] == 4
    g.do("interact")
    assert g.turn["influence"] == 0


def test_endless_bag_of_gold_influence_in_combat_pays_thugs_ll_4_3_4(content, tables):
    """Influence in combat (LL-4.3.4, LL-9.3.1): the Bag's Influence 4 pays the Thugs' 2."""
    from interaction_setup import Game
    from test_units_handlers import combat, to_block
    g = Game(content, tables, hand=["endless_bag_of_gold"])
    g.ut.set_unit(0, "thugs")
    combat(g, ["prowlers"])
    to_block(g)
    fame0 = g.player["fame"]
    g.play(0)
    assert g.turn["influence"] == 4 and g.player["fame"] == fame0 + 2
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"] and g.turn["influence"] == 2


# -- Endless Gem Pouch powered (card 124: one token of each basic colour, and gold by Day /
#    black at Night) --------------------------------------------------------------------------

@pytest.mark.covers("endless_gem_pouch", "powered")
def test_endless_gem_pouch_powered_four_basic_tokens_and_gold_by_day_black_at_night(content, tables):
    for time, extra in (("day", "gold"), ("night", "black")):
        core, eng, sc = start(content, tables, ["endless_gem_pouch"], time=time)
        eng.apply(play_code(0, 1))
        assert core.to_dict()["turn"]["mana_tokens"] == {"red": 1, "blue": 1, "white": 1, "green": 1, extra: 1}
        assert thrown_away(core, "endless_gem_pouch") and crystals(core) == [0, 0, 0, 0]


# -- Book of Wisdom powered (card 126) -------------------------------------------------------

@pytest.mark.covers("book_of_wisdom", "powered")
def test_book_of_wisdom_powered_throws_rage_away_for_a_red_spell_and_a_red_crystal(content, tables):
    """Rage (red) thrown away: a red Spell of the offer (Fireball or Demolish; Demolish taken)
    to the hand and a red crystal; the offer is refilled (6.4.2); Book and Rage both leave
    the game."""
    core, eng, sc = start(content, tables, ["book_of_wisdom", "rage"])
    UnitsTester(eng).set_spell_offer(["fireball", "snowstorm", "demolish"])
    eng.apply(play_code(0, 1))
    eng.apply(encode("choose", 0))                       # Rage
    assert acts(eng) == ["choose(0)", "choose(2)"]       # the red Spells only
    eng.apply(encode("choose", 2))
    p = player(core)
    assert p["hand"] == ["demolish"] and p["removed"] == 2 and crystals(core) == [1, 0, 0, 0]
    offer = core.to_dict()["spell_offer"]
    assert "demolish" not in offer and offer[1:] == ["fireball", "snowstorm"]


# -- Amulet of the Sun in a Day dungeon (5.6.1) ----------------------------------------------

def test_amulet_of_the_sun_in_a_day_dungeon_lifts_the_gold_ban(content, tables):
    """5.6.1: a dungeon / tomb combat by Day follows Night mana rules, gold unusable.  Reading:
    the Amulet's "if played at Night ... gold mana is usable" applies where Night mana rules
    apply, so played there its gold token pays Fireball (Ranged Fire 5); forest costs do not
    change (5.6.1: they are no Night rule of the combat).  (It was: the gold token could not
    be used in the dungeon.)"""
    core, eng, sc = start(content, tables, ["amulet_of_the_sun", "fireball"])
    sc.set_mana_tokens([0, 0, 0, 0, 1, 0])
    T = fight(core, ["prowlers"], night_rules=True)
    assert play_code(1, 0, pay=GOLD) not in codes(eng)   # 5.6.1: no gold in the dungeon
    eng.apply(play_code(0, 0))
    d = core.to_dict()["turn"]
    assert d["mana_tokens"] == {"gold": 2} and terrain_delta(d) == {}
    eng.apply(play_code(0, 0, pay=GOLD))
    assert T.attack_value([0]) == 5 and core.to_dict()["turn"]["mana_tokens"] == {"gold": 1}


# -- Amulet of Darkness powered (card 128) ----------------------------------------------------

@pytest.mark.covers("amulet_of_darkness", "powered")
def test_amulet_of_darkness_powered_three_tokens_of_any_colours_black_usable_by_day(content, tables):
    """By Day: three tokens of chosen colours (black, red, green), deserts cost 3 (-2), black
    usable: the black token pays Fireball's powered side with the red one."""
    core, eng, sc = start(content, tables, ["amulet_of_darkness", "fireball"])
    eng.apply(play_code(0, 1))
    assert acts(eng) == [f"choose({c})" for c in range(6)]
    for c in (5, RED, GREEN):
        eng.apply(encode("choose", c))
    d = core.to_dict()["turn"]
    assert d["mana_tokens"] == {"red": 1, "green": 1, "black": 1} and terrain_delta(d) == {"desert": -2}
    assert thrown_away(core, "amulet_of_darkness")
    T = fight(core, ["diggers"])
    eng.apply(play_code(0, 1, pay=RED, pay2=5))          # Firestorm by Day
    assert T.attack_value([0]) == 8


# -- Banner of Command powered (card 304) ------------------------------------------------------

@pytest.mark.covers("banner_of_command", "powered")
def test_banner_of_command_powered_fame_2_and_a_free_unit_from_the_offer(content, tables):
    """Fame +2 and any Unit of the offer recruited for free, at no site (Fire Golems, cost 8)."""
    core, eng, sc = start(content, tables, ["banner_of_command"])
    U = UnitsTester(eng)
    U.set_unit_offer(["peasants", "fire_golems"])
    eng.apply(play_code(0, 1))
    assert player(core)["fame"] == 2
    assert acts(eng) == ["choose(0)", "choose(1)"]
    eng.apply(encode("choose", 1))
    assert U.unit(0) == {"unit": "fire_golems", "ready": True, "wounds": 0}
    assert core.to_dict()["unit_offer"] == [{"unit": "peasants"}]
    assert thrown_away(core, "banner_of_command")


# -- Shield of the Fallen Kings (card 307) -----------------------------------------------------

@pytest.mark.covers("shield_of_the_fallen_kings", "basic.1")
def test_shield_of_the_fallen_kings_block_6_physical_halved_against_fire(content, tables):
    """Block 6 (physical): blocks the Swordsmen's Attack 6; against the Fire Mages' Fire
    Attack 6 it counts 3 (11.6.5) - not enough."""
    core, eng, sc = start(content, tables, ["shield_of_the_fallen_kings"])
    T = fight(core, ["swordsmen", "fire_mages"], phase="block")
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", 0))
    assert [T.block_value(0), T.block_value(1)] == [6, 3]
    eng.apply(encode("block", 0))
    assert T.enemy(0)["blocked"] == 1


@pytest.mark.covers("shield_of_the_fallen_kings", "powered.1")
def test_shield_of_the_fallen_kings_powered_cold_fire_block_8(content, tables):
    """Thrown away: Cold Fire Block 8 counts in full against Fire and Ice attacks (11.6.5)."""
    core, eng, sc = start(content, tables, ["shield_of_the_fallen_kings"])
    T = fight(core, ["fire_mages", "ice_mages"], phase="block")
    eng.apply(play_code(0, 1))
    eng.apply(encode("choose", 0))
    assert [T.block_value(0), T.block_value(1)] == [8, 8]
    eng.apply(encode("block", 0))
    assert T.enemy(0)["blocked"] == 1 and thrown_away(core, "shield_of_the_fallen_kings")


@pytest.mark.covers("shield_of_the_fallen_kings", "powered.2")
def test_shield_of_the_fallen_kings_powered_three_cold_fire_blocks_of_4(content, tables):
    """Up to three separate Cold Fire Blocks 4: Prowlers (4), Diggers (3), Ice Golems (Ice 2,
    in full); none is left for the Orc Skirmishers."""
    core, eng, sc = start(content, tables, ["shield_of_the_fallen_kings"])
    T = fight(core, ["prowlers", "diggers", "ice_golems", "orc_skirmishers"], phase="block")
    eng.apply(play_code(0, 1))
    eng.apply(encode("choose", 1))
    for slot in range(3):
        eng.apply(encode("block", slot))
    assert [T.enemy(k)["blocked"] for k in range(4)] == [1, 1, 1, 0]
    assert not any(a.startswith("block") for a in acts(eng))


# -- Druidic Staff (card 308) ----------------------------------------------------------------

def staff(content, tables, hand):
    core, eng, sc = start(content, tables, ["druidic_staff"] + hand)
    U = UnitsTester(eng)
    U.set_unit(0, "foresters", ready=0)
    return core, eng, U


@pytest.mark.covers("druidic_staff", "basic")
def test_druidic_staff_basic_by_the_discarded_cards_colour(content, tables):
    """Discard a card: white (Swiftness) - move 1 space (of up to 2) with no Move points;
    blue (Stamina) - 2 crystals of one colour; red (Rage) - ready a Unit of level III or
    lower (Foresters); green (March) - Heal 3.  An Artifact (no colour) cannot be discarded."""
    core, eng, U = staff(content, tables, ["swiftness"])
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", 0))                       # the first space offered
    assert f"choose({ASK_DONE})" in acts(eng)
    eng.apply(encode("choose", ASK_DONE))
    assert player(core)["position"] != 0 and core.to_dict()["turn"]["move_points"] == 0
    core, eng, U = staff(content, tables, ["stamina"])
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", GREEN))
    assert crystals(core) == [0, 0, 0, 2] and player(core)["discard"] == ["stamina"]
    core, eng, U = staff(content, tables, ["rage"])
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", 0))
    assert U.unit(0)["ready"] is True
    core, eng, U = staff(content, tables, ["march"])
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", 0))
    assert core.to_dict()["turn"]["healing"] == 3
    core, eng, U = staff(content, tables, ["banner_of_glory"])
    assert play_code(0, 0) not in codes(eng)


@pytest.mark.covers("druidic_staff", "powered.1", "powered.2", "powered.3", "powered.4",
                    "powered.5", "powered.6")
@pytest.mark.parametrize("option,moved,crystal,ready,heal", [
    (0, True, True, False, False), (1, True, False, True, False), (2, True, False, False, True),
    (3, False, True, True, False), (4, False, True, False, True), (5, False, False, True, True)])
def test_druidic_staff_powered_two_different_basic_options_without_discarding(
        content, tables, option, moved, crystal, ready, heal):
    """Thrown away, no card discarded: each of the six pairs of different options does both
    of its parts and nothing else (move 1 space, 2 red crystals, ready the Foresters, Heal 3)."""
    core, eng, U = staff(content, tables, [])
    eng.apply(play_code(0, 1))
    eng.apply(encode("choose", option))
    if moved:
        eng.apply(encode("choose", 0))
        eng.apply(encode("choose", ASK_DONE))
    if crystal:
        eng.apply(encode("choose", RED))
    assert (player(core)["position"] != 0) == moved
    assert crystals(core) == ([2, 0, 0, 0] if crystal else [0, 0, 0, 0])
    assert U.unit(0)["ready"] == ready
    assert core.to_dict()["turn"]["healing"] == (3 if heal else 0)
    assert thrown_away(core, "druidic_staff") and player(core)["hand"] == []


@pytest.mark.covers("amulet_of_darkness", "basic")
def test_amulet_of_darkness_modifiers_end_with_the_turn(content, tables):
    """Amulet of Darkness by Day: one token of a chosen colour (white), deserts cost 3 and
    black mana usable - this turn only: at the next turn deserts cost 5 again (no terrain
    change) and a black token pays nothing (5.1.6)."""
    core, eng, sc = start(content, tables, ["amulet_of_darkness", "fireball"], deck=["march"] * 6)
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", WHITE))
    assert terrain_delta(core.to_dict()["turn"]) == {"desert": -2}
    eng.apply(encode("end_turn"))
    eng.apply(encode("draw"))
    while not any(a.startswith("regular_turn") for a in acts(eng)):
        eng.apply(int(eng.legal_actions()[0]))
    eng.apply(encode("regular_turn"))
    sc.set_cards(0, hand=["fireball"])
    sc.set_mana_tokens([1, 0, 0, 0, 0, 1])
    T = fight(core, ["prowlers"])
    d = core.to_dict()["turn"]
    from mksim.fixtures import MOD_KINDS
    assert terrain_delta(d) == {}
    assert MOD_KINDS.index("mana_anytime") not in [m["kind"] for m in d["mods"][:d["n_mods"]]]
    assert play_code(0, 1, pay=RED, pay2=5) not in codes(eng)
    assert play_code(0, 0, pay=RED) in codes(eng)


@pytest.mark.covers("ruby_ring", "powered")
def test_ruby_ring_fame_for_a_red_spell_cast_through_magic_talent(content, tables):
    """A Spell played through Magic Talent is cast "as if in hand" (card 90): Fireball from
    the offer, paid from the Ruby Ring's endless red, counts for the Ring's Fame +1 at the end
    of the turn.  (It was: not counted.)"""
    core, eng, sc = start(content, tables, ["ruby_ring", "magic_talent", "march"], deck=["rage"] * 6,
                          dice=["green", "green", "green"])
    UnitsTester(eng).set_spell_offer(["fireball", "snowstorm", "tremor"])
    T = fight(core, ["prowlers"])
    eng.apply(play_code(0, 1))                           # the Ring thrown away
    eng.apply(play_code(0, 0))                           # Magic Talent: March discarded
    assert acts(eng) == ["choose(0)", "choose(2)"]       # Fireball, or Tremor (green dice)
    eng.apply(encode("choose", 0))                       # its basic effect, the endless red
    assert T.attack_value([0]) == 5
    eng.apply(encode("attack", 1))                       # the Prowlers: Fame +2
    fame0 = player(core)["fame"]
    while T.active:
        eng.apply(encode("next_phase"))
    eng.apply(encode("end_turn"))
    assert player(core)["fame"] == fame0 + 1
    assert core.to_dict()["spell_offer"] == ["fireball", "snowstorm", "tremor"]
