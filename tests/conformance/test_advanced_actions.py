"""Conformance of Advanced Actions to their printed text (issue 8, deviations found by the
audits).  Card texts: ../shared/data/cards.csv and mksim/data/advanced_actions.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k temporal_portal``)."""
import pytest

from mksim._engine import encode
from mksim._state import PHASE_NAMES

from test_advanced_actions import day_turn
from test_advanced_handlers import BLUE, PAY_DIE, _G, play_code


@pytest.fixture
def G(content, tables):
    """A regular turn in the movement part (Day), Source dice red blue white green gold."""
    return day_turn(content, tables, _G)


# -- Temporal Portal (LL-8.1, cards.csv #291) ------------------------------------------------

@pytest.mark.covers("temporal_portal", "powered.2")
def test_temporal_portal_powered_hand_limit_option_moves(G):
    """Temporal Portal powered: "As basic but move up to 2 spaces, or next hand limit +2
    instead" - the second option replaces only the +1 (Hand limit +2), the 1-space move of
    the basic effect stays: one adjacent revealed safe space is offered, then no second."""
    G.T.set_hand(["temporal_portal"])
    pos = G.player["position"]
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    G.choose(1)                                          # Hand limit +2 instead of +1
    assert G.A.turn["hand_limit_bonus"] == 2 and G.A.turn["action_taken"] is True
    dirs = [a for a in G.acts() if a.startswith("choose(") and a != "choose(63)"]
    assert dirs and "choose(63)" in G.acts()             # may move (or stay)
    G.choose(int(dirs[0][7:-1]))
    assert G.player["position"] != pos
    assert not any(a.startswith("choose(") for a in G.acts())   # one space only
    assert G.A.turn["hand_limit_bonus"] == 2


@pytest.mark.covers("temporal_portal", "powered.1")
def test_temporal_portal_powered_two_spaces_option_keeps_hand_limit_plus_1(G):
    """The first powered option: up to 2 spaces, Hand limit +1."""
    G.T.set_hand(["temporal_portal"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    G.choose(0)
    assert G.A.turn["hand_limit_bonus"] == 1
    for _ in range(2):
        dirs = [a for a in G.acts() if a.startswith("choose(") and a != "choose(63)"]
        assert dirs
        G.choose(int(dirs[0][7:-1]))
    assert not any(a.startswith("choose(") for a in G.acts())
    path = G.core_.to_dict()["turn"]["path"]
    assert len(path) == 3 and path[-1] == G.player["position"]   # the start hex, then 2 spaces


# -- Dodge and Weave (cards.csv #295: "Attack 1 in the Attack phase if you took no Wounds to
#    hand earlier in the combat"; 11.7.8 / 21.2 A17: a card's Wound counts as one taken) -------

def _dodge_to_attack_phase(G, wound_first):
    G.T.set_hand(["blood_ritual", "dodge_and_weave"] if wound_first else ["dodge_and_weave"])
    G.T.begin(["prowlers"])                              # Attack 4
    if wound_first:
        G.apply(play_code(0))                            # Blood Ritual: a Wound to the hand
        G.choose(0)                                      # its mana token: red
        assert G.T.hand == ["dodge_and_weave", "wound"] and G.T.wounds_this_combat == 1
    G.apply(encode("next_phase"))                        # Block phase
    G.apply(play_code(0))                                # Dodge and Weave basic: attack -2
    G.choose(0)                                          # the Prowlers' attack
    G.T.set_block("physical", 2)                         # the reduced attack, 4 - 2 = 2
    G.apply(encode("block", 0))
    G.apply(encode("next_phase"))                        # damage phase (nothing unblocked)
    if G.T.phase != "attack":
        G.apply(encode("next_phase"))
    assert G.T.phase == "attack"


@pytest.mark.covers("dodge_and_weave", "basic")
def test_dodge_and_weave_attack_1_without_wounds_this_combat(G):
    _dodge_to_attack_phase(G, wound_first=False)
    assert G.T.attack_value([0]) == 1


@pytest.mark.covers("dodge_and_weave", "basic")
def test_dodge_and_weave_wound_from_a_card_earlier_in_the_combat_cancels_attack_1(G):
    """A Wound put into the hand by a card (Blood Ritual, like Blizzard's) in the Ranged phase
    is a Wound taken earlier in the combat: no Attack 1."""
    _dodge_to_attack_phase(G, wound_first=True)
    assert G.T.attack_value([0]) == 0


# -- Regeneration ("Heal 1 and ready one of your level I-II units"; 6.3.3, 12.3) ---------------

@pytest.mark.covers("regeneration", "basic")
def test_regeneration_heal_1_playable_with_no_unit_to_ready(G):
    """No Unit at all: the ready part has nothing to act on, the Heal 1 still counts (no rule
    asks every part of a card to be usable): playable, Healing 1."""
    G.T.set_hand(["regeneration", "wound"])
    G.apply(play_code(0))
    assert G.core_.to_dict()["turn"]["healing"] == 1
    G.apply(encode("heal_wound", 0))
    assert G.T.hand == []


@pytest.mark.covers("regeneration", "basic")
def test_regeneration_readies_a_level_2_unit_and_heals(G):
    """A Spent Foresters (level 1) readied, Healing 1 as well."""
    G.U.set_unit(0, "foresters", ready=0)
    G.T.set_hand(["regeneration"])
    G.apply(play_code(0))
    assert G.player["units"][0]["ready"] == 1 and G.core_.to_dict()["turn"]["healing"] == 1


@pytest.mark.covers("regeneration", "basic")
def test_regeneration_in_combat_only_for_its_ready_part(G):
    """In combat Heal has no use (12.4.1): with a Spent Unit it is played for the readying;
    with none it would do nothing and is not offered."""
    G.T.set_hand(["regeneration"])
    G.T.begin(["prowlers"])
    assert not any(a.startswith("play(hand=0, powered=0") for a in G.acts())
    G.U.set_unit(0, "foresters", ready=0)
    assert any(a.startswith("play(hand=0, powered=0") for a in G.acts())


# -- Refreshing Walk in combat (LL-9.7.13: "during combat only Move points"; LL-9.7.2) -------

@pytest.mark.covers("refreshing_walk", "basic")
def test_refreshing_walk_move_2_offered_in_combat_with_agility_conversion(content):
    """With Agility's conversion active (Attack phase), Refreshing Walk is played for its
    Move 2 like March: Move 2 + 2 = 4, Heal 0 (12.4.1), converted 1:1 into Attack."""
    from test_rule_breaks import COMBAT, acts, at, play
    from mksim.game import Game
    game = Game("solo_conquest", hero="arythea")
    s = at(game, phase="combat_attack", combat=COMBAT,
           players=[{"hand": ["refreshing_walk", "agility", "march"]}])
    assert not any(a.startswith("play(hand=0,") for a in acts(s))   # no use for Move yet
    s.apply(play(1))                                                  # Agility basic: Move 2
    assert "play(hand=0, powered=0, pay=31, pay2=31)" in acts(s)
    assert "play(hand=1, powered=0, pay=31, pay2=31)" in acts(s)      # March alike
    s.apply(play(0))
    t = s.to_dict()["turn"]
    assert t["move_points"] == 4 and t["healing"] == 0


# -- Stout Resolve in combat (LL-4.3.4: Influence paid to Thugs in combat) ---------------------

@pytest.mark.covers("stout_resolve", "basic")
def test_stout_resolve_influence_2_in_combat_to_pay_thugs(content, tables):
    """Stout Resolve basic in the Block phase with unpaid Thugs: Influence is an option
    beside Block (LL-4.3.4: Influence has a use in this combat); Influence 2 pays them."""
    from interaction_setup import Game
    from test_units_handlers import combat, to_block
    g = Game(content, tables, hand=["stout_resolve"])
    g.ut.set_unit(0, "thugs")
    combat(g, ["prowlers"])
    to_block(g)
    g.play(0)
    assert g.actions() == ["choose(1)", "choose(3)"]     # Influence or Block (no Wound to discard)
    g.do("choose", 1)
    assert g.turn["influence"] == 2
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"]


# == every half of every Advanced Action (issue 8, docs/conformance.md) =======================
#
# Card texts: ../shared/data/cards.csv (deck advanced_action), ll_changed_cards.csv for the
# Lost Legion printings; enemy numbers from mksim/data/enemies.toml (prowlers Armor 3 /
# Attack 4, diggers Armor 3 Fortified, swordsmen Armor 5 / Attack 6, golems Armor 5 Physical
# resistance, fire_mages Armor 5 / Fire Attack 6 Fire resistance, ice_mages Armor 6 / Ice
# Attack 5 Ice resistance, wolf_riders Armor 4 / Attack 3 Swift).  Pools are indexed
# [melee, ranged, siege][physical, fire, ice, cold fire]; crystals [red, blue, white, green].

from test_advanced_handlers import GREEN, PAY_CRYSTAL, RED, WHITE   # noqa: E402

MELEE, RANGED, SIEGE = range(3)
PHYSICAL, FIRE, ICE, COLDFIRE = range(4)


@pytest.fixture
def GL(ll_content, ll_tables):
    """G with The Lost Legion switched on: the Lost Legion printings (LL-2.10.2)."""
    return day_turn(ll_content, ll_tables, _G)


def crystals(G):
    c = G.player["crystals"]
    return [c["red"], c["blue"], c["white"], c["green"]]


def pool(G, what="attack"):
    return G.core_.to_dict()["combat"][what]


def turn(G):
    return G.core_.to_dict()["turn"]


def playable(G, hand, powered=None):
    pre = f"play(hand={hand}," if powered is None else f"play(hand={hand}, powered={powered},"
    return any(a.startswith(pre) for a in G.acts())


# -- the four Bolts (cards.csv #65-68; 5.3.2 crystals; 11.5.3 fortified; 11.9.2) ---------------

BOLTS = [("fire_bolt", RED), ("ice_bolt", BLUE), ("swift_bolt", WHITE), ("crushing_bolt", GREEN)]


@pytest.mark.covers("fire_bolt", "basic")
@pytest.mark.covers("ice_bolt", "basic")
@pytest.mark.covers("swift_bolt", "basic")
@pytest.mark.covers("crushing_bolt", "basic")
@pytest.mark.parametrize("card,colour", BOLTS, ids=[b[0] for b in BOLTS])
def test_bolt_basic_gains_a_crystal_of_its_colour_also_in_combat(G, card, colour):
    """"Gain a <colour> crystal": one crystal of the card's colour, nothing else; a special
    effect (6.3.3), so also playable in combat (a second copy there: another crystal)."""
    G.T.set_hand([card, card])
    G.apply(play_code(0))
    want = [0, 0, 0, 0]
    want[colour] = 1
    assert crystals(G) == want and turn(G)["move_points"] == 0
    G.T.begin(["prowlers"])
    G.apply(play_code(0))
    want[colour] = 2
    assert crystals(G) == want and pool(G) == [[0] * 4] * 3


@pytest.mark.covers("fire_bolt", "powered")
def test_fire_bolt_powered_ranged_fire_3_halved_by_fire_resistance(G):
    """Ranged Fire Attack 3 (red die): a Ranged Fire pool of 3; it defeats prowlers (Armor
    3) in the Ranged phase; against Fire-resistant Fire Mages it counts 1 (11.9.2)."""
    G.T.set_hand(["fire_bolt"])
    G.T.begin(["prowlers", "fire_mages"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    assert pool(G)[RANGED] == [0, 3, 0, 0]
    assert G.T.attack_value([1]) == 1 and G.T.attack_value([0]) == 3
    G.apply(encode("attack", 1))                         # target mask: slot 0
    assert "defeated" in G.T.enemy(0)["flags"]


@pytest.mark.covers("ice_bolt", "powered")
def test_ice_bolt_powered_ranged_ice_3_halved_by_ice_resistance(G):
    """Ranged Ice Attack 3 (blue die): Ice Mages (Ice resistance) count it 1, Fire Mages 3."""
    G.T.set_hand(["ice_bolt"])
    G.T.begin(["ice_mages", "fire_mages"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    assert pool(G)[RANGED] == [0, 0, 3, 0]
    assert G.T.attack_value([0]) == 1 and G.T.attack_value([1]) == 3


@pytest.mark.covers("swift_bolt", "powered")
def test_swift_bolt_powered_ranged_4_not_against_a_fortified_enemy(G):
    """Ranged Attack 4 (physical, white die): halved by Physical resistance (golems: 2);
    a Fortified enemy (diggers) cannot be its target in the Ranged phase (11.5.3)."""
    G.T.set_hand(["swift_bolt"])
    G.T.begin(["golems", "diggers"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    assert pool(G)[RANGED] == [4, 0, 0, 0]
    assert G.T.attack_value([0]) == 2
    assert G.T.attack_value([1]) == 0 and "attack(2)" not in G.acts()


@pytest.mark.covers("crushing_bolt", "powered")
def test_crushing_bolt_powered_siege_3_defeats_a_fortified_enemy_in_the_ranged_phase(G):
    """Siege Attack 3 (green die): a Siege pool of 3, usable on the Fortified diggers
    (Armor 3) in the Ranged phase (11.5.3): defeated, Fame +2."""
    G.T.set_hand(["crushing_bolt"])
    G.T.begin(["diggers"])
    fame = G.T.fame
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    assert pool(G)[SIEGE] == [3, 0, 0, 0] and G.T.attack_value([0]) == 3
    G.apply(encode("attack", 1))
    assert "defeated" in G.T.enemy(0)["flags"] and G.T.fame == fame + 2


# -- Blood Rage (cards.csv #69; 11.7.8 knock-out; 11.4.2) ---------------------------------------

@pytest.mark.covers("blood_rage", "basic.1", "basic.2")
def test_blood_rage_basic_attack_2_or_a_wound_for_attack_5_counting_for_knock_out(G):
    """Basic: Attack 2 (no Wound), or take a Wound for Attack 5; the Wound is one taken in
    this combat (11.7.8).  Only in the Attack phase (a melee Attack, 11.5.2)."""
    G.T.set_hand(["blood_rage", "blood_rage"])
    G.T.begin(["swordsmen"])
    assert not playable(G, 0)                            # Ranged phase: no melee Attack
    G.T.set_phase("attack")
    G.apply(play_code(0))
    G.choose(0)
    assert pool(G)[MELEE] == [2, 0, 0, 0] and G.T.hand == ["blood_rage"]
    assert G.T.wounds_this_combat == 0
    G.apply(play_code(0))
    G.choose(1)
    assert pool(G)[MELEE] == [7, 0, 0, 0] and G.T.hand == ["wound"]
    assert G.T.wounds_this_combat == 1


@pytest.mark.covers("blood_rage", "powered.1", "powered.2")
def test_blood_rage_powered_attack_4_or_wound_for_attack_9_full_on_fire_resistant(G):
    """Powered (red die, red crystal): Attack 4, or a Wound for Attack 9.  A red card keeps
    its Attack value against Fire resistance (11.4.2): its physical 9 counts in full on the
    Fire Mages (Armor 5)."""
    G.S.set_crystals(0, [1, 0, 0, 0])
    G.T.set_hand(["blood_rage", "blood_rage"])
    G.T.begin(["fire_mages"])
    G.T.set_phase("attack")
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    G.choose(0)
    assert pool(G)[MELEE] == [4, 0, 0, 0] and G.T.wounds_this_combat == 0
    G.T.clear_pools()
    G.apply(play_code(0, powered=1, pay=PAY_CRYSTAL + RED))
    G.choose(1)
    assert pool(G)[MELEE] == [9, 0, 0, 0] and G.T.hand == ["wound"]
    assert G.T.wounds_this_combat == 1 and G.T.attack_value([0]) == 9


@pytest.mark.covers("blood_rage", "basic.2")
def test_blood_rage_wound_reaching_the_hand_limit_knocks_out(G):
    """11.7.8: 4 Wounds already taken in this combat (level 1, Hand limit 5): Blood Rage's
    Wound is the 5th - knocked out, the other non-Wound card (March) discarded."""
    G.T.set_hand(["blood_rage", "march"])
    G.T.begin(["swordsmen"])
    G.T.set_phase("attack")
    G.T.hero_take_wounds(4)
    assert G.T.wounds_this_combat == 4 and not G.T.knocked_out
    G.apply(play_code(0))
    G.choose(1)
    assert G.T.knocked_out and "march" in G.T.discard
    assert G.T.hand.count("wound") == 5


# -- Ice Shield (cards.csv #70; 11.9.3 block efficiency; 11.4.2 a blue card on Ice resistance) --

@pytest.mark.covers("ice_shield", "basic")
def test_ice_shield_basic_ice_block_3_efficient_against_fire_halved_against_ice(G):
    """Ice Block 3, only in the Block phase: efficient against a Fire attack (Fire Mages:
    3), inefficient against an Ice attack (Ice Mages: 3 // 2 = 1), full against physical."""
    G.T.set_hand(["ice_shield"])
    G.T.begin(["fire_mages", "ice_mages", "prowlers"])
    assert not playable(G, 0)                            # Ranged phase
    G.T.next_phase()
    G.apply(play_code(0))
    assert pool(G, "block") == [0, 0, 3, 0]
    assert [G.T.block_value(s) for s in range(3)] == [3, 1, 3]


@pytest.mark.covers("ice_shield", "powered")
def test_ice_shield_powered_armor_minus_3_not_on_an_ice_resistant_enemy(G):
    """Powered: the Armor -3 is a blue card's effect other than its Block, so an Ice-
    resistant enemy ignores it (11.4.2).  Ice Mages' Ice Attack 5: Ice Block 3 and 7 sideways
    Blocks are all inefficient against Ice (11.9.3): (3 + 7) // 2 = 5 blocks it (11.6.4);
    their Armor stays 6."""
    G.T.set_hand(["ice_shield", "march", "march", "march", "march", "march", "march", "march"])
    G.T.begin(["ice_mages"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    for _ in range(7):
        G.apply(encode("sideways", 0 | (3 << 7)))
    assert G.T.block_value(0) == (3 + 7) // 2 and G.T.block_needed(0) == 5
    G.apply(encode("block", 0))
    assert G.T.enemy(0)["blocked"] == 1 and G.T.enemy_armor(0) == 6


@pytest.mark.covers("ice_shield", "powered")
def test_ice_shield_powered_armor_minus_3_min_1_on_prowlers(G):
    G.T.set_hand(["ice_shield", "march"])
    G.T.begin(["prowlers"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    G.apply(encode("sideways", 0 | (3 << 7)))
    G.apply(encode("block", 0))
    assert G.T.enemy_armor(0) == 1                       # 3 - 3 = 0, kept at 1


# -- Shield Bash (cards.csv #290; LL-9.7.22: powered counts as blue against resistances) --------

@pytest.mark.covers("shield_bash", "powered")
def test_shield_bash_powered_armor_part_ignored_by_ice_resistance(G):
    """LL-9.7.22: strong Shield Bash is a blue effect, so Ice resistance stops its Armor
    reduction (11.4.2) though its Block works.  Orc War Beasts (Armor 5, Attack 3, Fire and
    Ice resistance): Block 5 blocks with an excess of 2, yet the Armor stays 5 (prowlers,
    no resistance, lose 1 per excess point: tests/test_advanced_actions.py)."""
    G.T.set_hand(["shield_bash"])
    G.T.begin(["orc_war_beasts"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    assert G.T.block_value(0) == 5 and G.T.block_needed(0) == 3
    G.apply(encode("block", 0))
    assert G.T.enemy(0)["blocked"] == 1 and G.T.enemy_armor(0) == 5


# -- Refreshing Walk (cards.csv #71; LL-2.10.6, LL-9.7.13; 12.4.1) ------------------------------

@pytest.mark.covers("refreshing_walk", "basic")
def test_refreshing_walk_basic_move_2_heal_1_outside_combat(G):
    """Move 2 and Heal 1 while moving: the Healing removes one Wound from the hand (12.3)."""
    G.T.set_hand(["refreshing_walk", "wound", "wound"])
    G.apply(play_code(0))
    assert turn(G)["move_points"] == 2 and turn(G)["healing"] == 1
    G.apply(encode("heal_wound", 0))
    assert G.T.hand == ["wound"] and turn(G)["healing"] == 0


@pytest.mark.covers("refreshing_walk", "powered")
def test_refreshing_walk_powered_move_4_heal_2_and_only_move_in_combat(G):
    """Powered (green die): Move 4 and Heal 2; in combat (Agility active, LL-9.7.13) the
    same powered card gives Move 4 and no Healing (12.4.1)."""
    G.T.set_hand(["refreshing_walk", "wound", "wound"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    assert turn(G)["move_points"] == 4 and turn(G)["healing"] == 2
    G.apply(encode("heal_wound", 0))
    G.apply(encode("heal_wound", 0))
    assert G.T.hand == []
    G.S.set_crystals(0, [0, 0, 0, 1])                    # the die is used (one a turn, 5.5)
    G.T.set_hand(["refreshing_walk", "agility"])
    G.T.begin(["prowlers"])
    G.T.set_phase("attack")
    assert not playable(G, 0)                            # no use for Move yet
    G.apply(play_code(1))                                # Agility basic: Move 2
    before = turn(G)["move_points"]                      # (the tester's combat keeps the Move)
    G.apply(play_code(0, powered=1, pay=PAY_CRYSTAL + GREEN))
    assert turn(G)["move_points"] == before + 4 and turn(G)["healing"] == 0


# -- Path Finding (cards.csv #72; 9.2, 9.6) -------------------------------------------------------

@pytest.mark.covers("path_finding", "basic")
def test_path_finding_basic_move_2_every_terrain_minus_1_min_2(G):
    """Move 2; every terrain costs 1 less this turn, not below 2: hills 3 -> 2, swamp 5 -> 4
    (by Day, 9.2), plains stay 2; a lake stays closed (no cost to lower)."""
    from test_advanced_actions import HILLS, LAKE, PLAINS, SWAMP, east_hex
    R, pos, h = east_hex(G, HILLS)
    G.T.set_hand(["path_finding"])
    G.apply(play_code(0))
    assert turn(G)["move_points"] == 2 and R.move_cost(h) == 2
    R.set_hex(h, terrain=SWAMP)
    assert R.move_cost(h) == 4
    R.set_hex(h, terrain=PLAINS)
    assert R.move_cost(h) == 2
    R.set_hex(h, terrain=LAKE)
    assert R.move_cost(h) == -1


# -- Agility (cards.csv #74; LL-2.10.5, LL-9.7.2-9.7.3) --------------------------------------------

@pytest.mark.covers("agility", "basic")
def test_agility_basic_move_2_converted_1_to_1_into_attack_only_in_the_attack_phase(G):
    """Basic: Move 2; in combat each Move point may become Attack 1 (melee: in the Attack
    phase), no Ranged conversion (that is the powered rate)."""
    G.T.set_hand(["agility", "march"])
    G.T.begin(["prowlers"])
    G.apply(play_code(0))
    assert turn(G)["move_points"] == 2
    assert not any(a.startswith("convert_move") for a in G.acts())   # Ranged phase
    G.T.set_phase("attack")
    assert [a for a in G.acts() if a.startswith("convert_move")] == ["convert_move(0)"]
    G.apply(encode("convert_move", 0))
    G.apply(encode("convert_move", 0))
    assert pool(G)[MELEE] == [2, 0, 0, 0] and turn(G)["move_points"] == 0


@pytest.mark.covers("agility", "basic")
@pytest.mark.covers("stout_resolve", "basic")
def test_agility_basic_move_played_in_the_block_phase_converted_in_the_attack_phase(G):
    """Basic Agility (LL printing: "during combat this turn you may spend Move points for
    Attack 1 each"; LL-9.7.2: remaining Move "may be used later in the combat ... as Attack
    2 in the Attack phase"; LL-9.3.5: Move generated in the Action phase persists): with
    the conversion active, Move played in the Block phase has a use - March, a card
    sideways as Move 1 (LL-9.7.5) and Stout Resolve's Move option are offered there, and
    the points become Attack in the Attack phase."""
    G.T.set_hand(["agility", "march", "stout_resolve", "rage"])
    G.T.begin(["prowlers"])
    G.apply(play_code(0))                                # Ranged phase: Agility, Move 2
    G.apply(encode("next_phase"))
    assert G.T.phase == "block"
    acts = G.acts()
    assert "play(hand=0, powered=0, pay=31, pay2=31)" in acts          # March
    assert "sideways(2)" in acts                                         # Rage as Move 1
    G.apply(play_code(1))                                # Stout Resolve
    assert "choose(0)" in G.acts()                       # its Move 2
    G.choose(0)
    G.apply(play_code(0))                                # March: Move 2
    G.apply(encode("sideways", 0))                       # Rage sideways: Move 1
    assert turn(G)["move_points"] == 7
    G.T.set_phase("attack")
    for _ in range(7):
        G.apply(encode("convert_move", 0))
    assert pool(G)[MELEE] == [7, 0, 0, 0] and turn(G)["move_points"] == 0


@pytest.mark.covers("agility", "powered")
def test_agility_powered_move_4_two_move_per_ranged_attack_1(G):
    """Powered (white die): Move 4; in the Ranged phase 2 Move -> Ranged Attack 1 (LL-9.7.2);
    the 2 left become Attack 2 in the Attack phase."""
    G.T.set_hand(["agility", "march"])
    G.T.begin(["prowlers"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    assert turn(G)["move_points"] == 4
    G.apply(encode("convert_move", 1))
    assert pool(G)[RANGED] == [1, 0, 0, 0] and turn(G)["move_points"] == 2
    G.T.clear_pools()
    G.T.set_phase("attack")
    G.apply(encode("convert_move", 0))
    G.apply(encode("convert_move", 0))
    assert pool(G)[MELEE] == [2, 0, 0, 0] and turn(G)["move_points"] == 0


# -- Blood Ritual (cards.csv; ll_changed_cards.csv: both printings; 11.7.8) -------------------------

@pytest.mark.covers("blood_ritual", "basic")
def test_blood_ritual_basic_wound_red_token_and_one_token_of_any_colour(G):
    """Base printing: take a Wound; a red mana token and one of any colour (black allowed)."""
    G.T.set_hand(["blood_ritual"])
    G.apply(play_code(0))
    assert G.acts() == [f"choose({k})" for k in range(6)]   # red blue white green gold black
    G.choose(5)
    assert turn(G)["mana_tokens"] == {"red": 1, "black": 1}
    assert G.T.hand == ["wound"] and crystals(G) == [0, 0, 0, 0]


@pytest.mark.covers("blood_ritual", "powered")
def test_blood_ritual_powered_wound_and_three_tokens_counting_for_knock_out(G):
    """Base printing powered (red die): a Wound and three tokens of any colours; in combat
    the Wound is one taken this combat (11.7.8; the toml note)."""
    G.T.set_hand(["blood_ritual"])
    G.T.begin(["prowlers"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    for k in (1, 1, 4):
        G.choose(k)
    assert turn(G)["mana_tokens"] == {"blue": 2, "gold": 1}
    assert G.T.hand == ["wound"] and G.T.wounds_this_combat == 1
    assert not any(a.startswith("choose") for a in G.acts())   # no crystal in this printing


@pytest.mark.covers("blood_ritual", "basic@ll")
def test_blood_ritual_ll_basic_wound_red_crystal_and_one_token(GL):
    """Lost Legion printing: a red crystal instead of the red token, and one token."""
    G = GL
    G.T.set_hand(["blood_ritual"])
    G.apply(play_code(0))
    G.choose(3)
    assert crystals(G) == [1, 0, 0, 0] and turn(G)["mana_tokens"] == {"green": 1}
    assert G.T.hand == ["wound"]


@pytest.mark.covers("blood_ritual", "powered@ll")
def test_blood_ritual_ll_powered_three_tokens_and_one_paid_for_a_crystal(GL):
    """Lost Legion printing powered: three tokens; then one basic mana may be paid for a
    crystal of its colour, at most one (ll_changed_cards.csv)."""
    G = GL
    G.T.set_hand(["blood_ritual"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    for k in (1, 2, 4):
        G.choose(k)
    assert G.acts() == ["choose(0)", "choose(1)", "choose(2)", "choose(3)", "choose(63)"]
    G.choose(1)                                          # a blue crystal
    assert "choose(1)" in G.acts()                       # pay with the blue token
    G.choose(1)
    assert crystals(G) == [0, 1, 0, 0] and turn(G)["mana_tokens"] == {"white": 1, "gold": 1}
    assert G.T.hand == ["wound"] and not any(a.startswith("choose") for a in G.acts())


@pytest.mark.covers("blood_ritual", "powered@ll")
def test_blood_ritual_ll_powered_crystal_may_be_declined(GL):
    G = GL
    G.T.set_hand(["blood_ritual"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    for k in (0, 0, 0):
        G.choose(k)
    G.choose(63)
    assert crystals(G) == [0, 0, 0, 0] and turn(G)["mana_tokens"] == {"red": 3}


# -- Song of Wind (cards.csv #76; 9.2, 9.6; 9.6.1 a movement effect) ---------------------------

@pytest.mark.covers("song_of_wind", "basic")
def test_song_of_wind_basic_move_2_plains_desert_wasteland_minus_1(G):
    """Move 2; plains 2 -> 1, desert 5 -> 4 (Day), wasteland 4 -> 3; hills unchanged (3)."""
    from test_advanced_actions import DESERT, HILLS, PLAINS, WASTELAND, east_hex
    R, pos, h = east_hex(G, PLAINS)
    G.T.set_hand(["song_of_wind"])
    G.apply(play_code(0))
    assert turn(G)["move_points"] == 2 and R.move_cost(h) == 1
    got = []
    for terrain in (DESERT, WASTELAND, HILLS):
        R.set_hex(h, terrain=terrain)
        got.append(R.move_cost(h))
    assert got == [4, 3, 3]


@pytest.mark.covers("song_of_wind", "powered")
def test_song_of_wind_powered_not_playable_in_combat_for_its_lake_payment_alone(G):
    """Checked ("lake payment offered in combat"): in combat without a use for Move its
    Move 2 and terrain costs do nothing (6.3.3, 9.6.1) and paying the blue mana for lakes
    buys nothing either, so the powered card is not offered (it was, for the payment)."""
    G.S.set_crystals(0, [0, 1, 0, 0])
    G.T.set_hand(["song_of_wind"])
    G.T.begin(["prowlers"])
    for phase in ("ranged", "block", "attack"):
        G.T.set_phase(phase)
        assert not playable(G, 0)


@pytest.mark.covers("song_of_wind", "powered")
def test_song_of_wind_powered_in_combat_with_agility_move_2_and_no_lake_payment(content, tables):
    """With Agility's conversion (LL-9.7.2) the powered card gives its Move 2; the blue mana
    for lakes is not asked for (no movement is left this turn): the blue crystal is kept."""
    from test_rule_breaks import COMBAT, acts, at, play
    from mksim.game import Game
    s = at(Game("solo_conquest", hero="arythea"), phase="combat_attack", combat=COMBAT,
           source={"dice": ["white", "blue", "red"]},
           players=[{"hand": ["agility", "song_of_wind"], "crystals": {"blue": 1}}])
    assert not any(a.startswith("play(hand=1,") for a in acts(s))
    s.apply(play(0))                                     # Agility basic
    s.apply(play(0, powered=1, pay=PAY_DIE + 0))         # Song of Wind, white die
    d = s.to_dict()
    assert d["turn"]["move_points"] == 4 and d["players"][0]["crystals"]["blue"] == 1
    assert not any(a.startswith("choose") for a in acts(s))


# -- Intimidate (cards.csv #77; 10.2; 10.5 Reputation) -------------------------------------------

@pytest.mark.covers("intimidate", "basic")
def test_intimidate_basic_influence_4_or_attack_3_and_reputation_minus_1(content, tables):
    """Basic at a village: Influence 4, Reputation -1 (on either option); in the Attack
    phase its Attack 3 (the Influence option has no use there), again -1."""
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=["intimidate", "intimidate"])
    g.do("interact")
    g.play(0)
    assert g.actions() == ["choose(0)"]                  # only the Influence is usable here
    g.do("choose", 0)
    assert g.turn["influence"] == 4 and g.player["reputation"] == -1
    G = day_turn(content, tables, _G)
    G.T.set_hand(["intimidate"])
    G.T.begin(["prowlers"])
    G.T.set_phase("attack")
    rep = G.T.reputation
    G.apply(play_code(0))
    assert G.acts() == ["choose(1)"]                     # only the Attack is usable here
    G.choose(1)
    assert pool(G)[MELEE] == [3, 0, 0, 0] and G.T.reputation == rep - 1


@pytest.mark.covers("intimidate", "powered")
def test_intimidate_powered_influence_8_or_attack_7_reputation_minus_2(content, tables):
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=["intimidate"])
    g.eng.set_dice(["red"])
    g.do("interact")
    g.play(0, powered=1, pay=PAY_DIE + 0)
    g.do("choose", 0)
    assert g.turn["influence"] == 8 and g.player["reputation"] == -2
    G = day_turn(content, tables, _G)
    G.T.set_hand(["intimidate"])
    G.T.begin(["swordsmen"])
    G.T.set_phase("attack")
    rep = G.T.reputation
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    G.choose(1)
    assert pool(G)[MELEE] == [7, 0, 0, 0] and G.T.reputation == rep - 2


# -- Regeneration powered (cards.csv: "Heal 2 and ready one of your level I-III units") -----------

@pytest.mark.covers("regeneration", "powered")
def test_regeneration_powered_heal_2_and_readies_a_level_3_unit_not_level_4(G):
    """Powered (green die): a Spent level-III Catapults is readied, Healing 2; a Spent
    level-IV Altem Guardians is no target (the basic effect reaches level II only)."""
    G.U.set_unit(0, "altem_guardians", ready=0)
    G.U.set_unit(1, "catapults", ready=0)
    G.T.set_hand(["regeneration", "wound", "wound"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    units = G.player["units"]
    assert units[0]["ready"] == 0 and units[1]["ready"] == 1 and turn(G)["healing"] == 2
    G.apply(encode("heal_wound", 0))
    G.apply(encode("heal_wound", 0))
    assert G.T.hand == []


@pytest.mark.covers("regeneration", "basic")
def test_regeneration_basic_does_not_ready_a_level_3_unit(G):
    G.U.set_unit(0, "catapults", ready=0)
    G.T.set_hand(["regeneration"])
    G.apply(play_code(0))
    assert G.player["units"][0]["ready"] == 0 and turn(G)["healing"] == 1


# -- Pure Magic (cards.csv #80; 5.1.5, 5.4) -----------------------------------------------------

@pytest.mark.covers("pure_magic", "powered")
def test_pure_magic_powered_red_mana_attack_7_blue_mana_block_7(G):
    """Powered (blue die) in the Attack phase: the mana paid besides is red (crystal) ->
    Attack 7; in the Block phase blue (crystal) -> Block 7 blocks swordsmen (Attack 6)."""
    G.S.set_crystals(0, [1, 1, 0, 0])
    G.T.set_hand(["pure_magic", "pure_magic"])
    G.T.begin(["swordsmen"])
    G.T.set_phase("attack")
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    assert pool(G)[MELEE] == [7, 0, 0, 0] and crystals(G) == [0, 1, 0, 0]
    G.T.clear_pools()
    G.T.set_phase("block")
    G.U.set_turn(mana={"blue": 1})
    G.apply(play_code(0, powered=1, pay=1))              # the blue token powers it
    assert pool(G, "block") == [7, 0, 0, 0] and crystals(G) == [0, 0, 0, 0]
    G.apply(encode("block", 0))
    assert G.T.enemy(0)["blocked"] == 1


@pytest.mark.covers("pure_magic", "basic")
def test_pure_magic_basic_white_mana_influence_4_while_interacting(content, tables):
    """Basic at a village (blue die powers nothing: the basic effect is free): white die
    paid -> Influence 4."""
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=["pure_magic"])
    g.eng.set_dice(["white", "red", "green"])
    g.do("interact")
    g.play(0)                                            # only white is of use: no question
    assert g.turn["influence"] == 4 and g.d["source"]["taken"] == [0]    # the white die (die 0)


# -- Diplomacy powered, Fire (cards.csv #83; LL-9.7.1) --------------------------------------------

@pytest.mark.covers("diplomacy", "powered.2")
def test_diplomacy_powered_fire_influence_4_as_fire_block_efficient_against_ice(G):
    """Powered (white die), Fire chosen: Influence 4 spent as Fire Block, which is efficient
    against the Ice Mages' Ice Attack 5 (11.9.3): 4 of Fire Block counts 4."""
    G.T.set_hand(["diplomacy", "march"])
    G.T.begin(["ice_mages"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    G.choose(1)                                          # fire
    assert G.A.turn["influence_block"] == 1 << FIRE and G.U.turn["influence"] == 4   # element mask
    assert "influence_block(1)" in G.acts() and "influence_block(2)" not in G.acts()
    for _ in range(4):
        G.apply(encode("influence_block", 1))
    assert G.U.block_pool == [0, 4, 0, 0] and G.T.block_value(0) == 4


# -- In Need, base printing (ll_changed_cards.csv: Influence 2 / 4) --------------------------------

@pytest.mark.covers("in_need", "basic")
def test_in_need_base_basic_influence_2_plus_1_per_wound_in_hand_and_on_units(content, tables):
    """Base printing at a village: 2 + (2 Wounds in hand + 1 on a Unit) = 5."""
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=["in_need", "wound", "wound"])
    g.ut.set_unit(0, "peasants", wounds=1)
    g.do("interact")
    g.play(0)
    assert g.turn["influence"] == 5


@pytest.mark.covers("in_need", "powered")
def test_in_need_base_powered_influence_4_plus_2_per_wound(content, tables):
    """Base printing powered (green die): 4 + 2 x 1 Wound in hand = 6; no Wound: 4."""
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=["in_need", "wound"])
    g.eng.set_dice(["green"])
    g.do("interact")
    g.play(0, powered=1, pay=PAY_DIE + 0)
    assert g.turn["influence"] == 6


# -- Decompose powered (cards.csv #85) -------------------------------------------------------------

@pytest.mark.covers("decompose", "powered")
def test_decompose_powered_one_crystal_of_each_other_basic_colour(G):
    """Powered (red die): throw away Rage (red): a blue, a white and a green crystal; Rage
    is removed from the game (6.5.2)."""
    G.T.set_hand(["decompose", "rage", "wound"])
    removed = G.player["removed"]
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    assert G.acts() == ["choose(0)"]                     # not the Wound (6.2.2)
    G.choose(0)
    assert crystals(G) == [0, 1, 1, 1] and G.T.hand == ["wound"]
    assert G.player["removed"] == removed + 1 and "rage" not in G.T.discard


# -- Mana Storm powered (cards.csv #87; 5.5.6) -------------------------------------------------------

@pytest.mark.covers("mana_storm", "powered")
def test_mana_storm_powered_three_extra_dice_black_and_gold_as_any_basic_colour(G):
    """Powered (white die; the reroll of the other dice is random and not checked): three
    more dice may be used this turn (four in all after the white one), and a black die pays a basic colour
    (March powered, green) even by Day."""
    G.T.set_hand(["mana_storm", "march", "march", "march", "march"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    t = turn(G)
    from mksim.fixtures import MOD_KINDS
    assert t["extra_dice"] == 3
    assert MOD_KINDS.index("dice_any_basic") in [m["kind"] for m in t["mods"][:t["n_mods"]]]   # this turn
    G.set_dice(["black", "black", "black", "white", "blue"])
    for _ in range(3):
        k = next(a for a in G.acts() if a.startswith("play(hand=0, powered=1, pay=1"))
        G.apply(play_code(0, powered=1, pay=int(k.split("pay=")[1].split(",")[0])))
    assert turn(G)["dice_used"] == 4 and G.T.hand == ["march"]
    assert turn(G)["move_points"] == 3 * 4
    assert not any(a.startswith("play(hand=0, powered=1, pay=1") for a in G.acts())   # no 5th die


# -- Ambush powered (cards.csv #88) ------------------------------------------------------------------

@pytest.mark.covers("ambush", "powered")
def test_ambush_powered_move_4_first_attack_card_plus_2_once(G):
    """Powered (green die): Move 4; the first Attack card gets +2 (Rage basic Attack 2 -> 4),
    the next one nothing; the Block +4 is gone with it (whichever first)."""
    G.T.set_hand(["ambush", "rage", "rage"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    assert turn(G)["move_points"] == 4
    G.T.begin(["swordsmen"])
    G.T.set_phase("attack")
    G.apply(play_code(0))
    G.choose(0)
    assert pool(G)[MELEE] == [4, 0, 0, 0]
    G.apply(play_code(0))
    G.choose(0)
    assert pool(G)[MELEE] == [6, 0, 0, 0]
    t = turn(G)                                        # both halves used up (issue 12 modifiers)
    assert [m["kind"] for m in t["mods"][:t["n_mods"]]] == []


# -- Counterattack powered (cards.csv #287; 11.6.6, LL-6.1.6) ---------------------------------------

@pytest.mark.covers("counterattack", "powered")
def test_counterattack_powered_attack_4_plus_3_per_blocked_enemy(G):
    """Powered (red die): Attack 4 + 3 x 2 blocked enemies = 10 (the unblocked third adds
    nothing); a melee Attack: not in the Ranged phase."""
    G.T.set_hand(["counterattack"])
    G.T.begin(["prowlers", "swordsmen", "prowlers"])
    assert not playable(G, 0)
    G.T.set_enemy_flags(0, 2)                           # CE_BLOCKED
    G.T.set_enemy_flags(1, 2)
    G.T.set_phase("attack")
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    assert pool(G)[MELEE] == [10, 0, 0, 0]


# -- Ritual Attack (cards.csv #288; 6.5.2 throw away; 11.9.2) -----------------------------------

@pytest.mark.covers("ritual_attack", "basic")
def test_ritual_attack_basic_by_the_thrown_away_cards_colour(G):
    """Basic: throw away another Action card - green: Siege 2, white: Ranged 3 (Ranged
    phase); red: Attack 5, blue: Ice Attack 3 (Attack phase).  The thrown card leaves the
    game (6.5.2)."""
    G.T.set_hand(["ritual_attack", "ritual_attack", "ritual_attack", "ritual_attack",
                  "march", "swiftness", "rage", "stamina"])
    G.T.begin(["prowlers"])
    removed = G.player["removed"]
    G.apply(play_code(0))
    G.choose(G.T.hand.index("march"))
    assert pool(G)[SIEGE] == [2, 0, 0, 0]
    G.apply(play_code(0))
    G.choose(G.T.hand.index("swiftness"))
    assert pool(G)[RANGED] == [3, 0, 0, 0]
    G.T.clear_pools()
    G.T.set_phase("attack")
    G.apply(play_code(0))
    G.choose(G.T.hand.index("rage"))
    assert pool(G)[MELEE] == [5, 0, 0, 0]
    G.apply(play_code(0))
    assert G.acts() == ["choose(0)"]                     # Stamina is the only card left
    G.choose(0)
    assert pool(G)[MELEE] == [5, 0, 3, 0]
    assert G.T.hand == [] and G.player["removed"] == removed + 4


@pytest.mark.covers("ritual_attack", "basic")
def test_ritual_attack_basic_not_without_another_action_card_nor_with_a_useless_colour(G):
    """6.2.1: a Wound cannot pay (6.2.2); in the Ranged phase only a green or white card
    gives a usable Attack, so with Rage alone it is not offered."""
    G.T.set_hand(["ritual_attack", "wound", "rage"])
    G.T.begin(["prowlers"])
    assert not playable(G, 0)
    G.T.set_phase("attack")
    G.apply(play_code(0))
    assert G.acts() == ["choose(1)"]                     # Rage, not the Wound
    G.choose(1)
    assert pool(G)[MELEE] == [5, 0, 0, 0] and G.T.hand == ["wound"]


@pytest.mark.covers("ritual_attack", "powered")
def test_ritual_attack_powered_fire_and_cold_fire_against_resistances(G):
    """Powered (red die, red crystals): red -> Fire Attack 6 (Fire Mages: halved to 3);
    blue -> Cold Fire Attack 4 (Ice Mages, Ice resistance only: in full, 11.9.2); white ->
    Ranged Fire 4 and green -> Siege Fire 3 in the Ranged phase."""
    G.S.set_crystals(0, [3, 0, 0, 0])
    G.T.set_hand(["ritual_attack", "ritual_attack", "ritual_attack", "ritual_attack",
                  "march", "swiftness", "rage", "stamina"])
    G.T.begin(["fire_mages", "ice_mages"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    G.choose(G.T.hand.index("march"))
    assert pool(G)[SIEGE] == [0, 3, 0, 0]
    G.apply(play_code(0, powered=1, pay=PAY_CRYSTAL + RED))
    G.choose(G.T.hand.index("swiftness"))
    assert pool(G)[RANGED] == [0, 4, 0, 0]
    G.T.clear_pools()
    G.T.set_phase("attack")
    G.apply(play_code(0, powered=1, pay=PAY_CRYSTAL + RED))
    G.choose(G.T.hand.index("rage"))
    assert pool(G)[MELEE] == [0, 6, 0, 0] and G.T.attack_value([0]) == 3
    G.T.clear_pools()
    G.apply(play_code(0, powered=1, pay=PAY_CRYSTAL + RED))
    G.choose(0)                                          # Stamina
    assert pool(G)[MELEE] == [0, 0, 0, 4] and G.T.attack_value([1]) == 4


# -- Spell Forge basic (cards.csv #292) ---------------------------------------------------------------

@pytest.mark.covers("spell_forge", "basic")
def test_spell_forge_basic_one_crystal_of_an_offer_spells_colour(G):
    """Offer Fireball (red), Snowstorm (blue), Tremor (green): Snowstorm chosen -> one blue
    crystal, and no second one (the powered effect gives two)."""
    G.U.set_spell_offer(["fireball", "snowstorm", "tremor"])
    G.T.set_hand(["spell_forge"])
    G.apply(play_code(0))
    assert G.acts() == ["choose(0)", "choose(1)", "choose(2)"]
    G.choose(1)
    assert crystals(G) == [0, 1, 0, 0] and not any(a.startswith("choose") for a in G.acts())
    assert G.core_.to_dict()["spell_offer"] == ["fireball", "snowstorm", "tremor"]   # stays


# -- Chivalry, the plain Attack options (cards.csv #293) --------------------------------------------

@pytest.mark.covers("chivalry", "basic.1")
def test_chivalry_basic_attack_3_without_reputation(G):
    """First option: Attack 3 defeats the prowlers (Armor 3): Fame +2, Reputation unchanged."""
    G.T.set_hand(["chivalry"])
    G.T.begin(["prowlers"])
    G.T.set_phase("attack")
    rep, fame = G.T.reputation, G.T.fame
    G.apply(play_code(0))
    G.choose(0)
    assert pool(G)[MELEE] == [3, 0, 0, 0]
    G.apply(encode("attack", 1))
    assert "defeated" in G.T.enemy(0)["flags"]
    assert G.T.reputation == rep and G.T.fame == fame + 2


@pytest.mark.covers("chivalry", "powered.1")
def test_chivalry_powered_attack_6_without_reputation_or_fame_bonus(G):
    G.T.set_hand(["chivalry"])
    G.T.begin(["prowlers", "prowlers"])
    G.T.set_phase("attack")
    rep, fame = G.T.reputation, G.T.fame
    G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    G.choose(0)
    assert pool(G)[MELEE] == [6, 0, 0, 0]
    G.apply(encode("attack", 3))
    assert G.T.reputation == rep and G.T.fame == fame + 2 * 2


# -- Dodge and Weave powered (cards.csv #295; LL-6.3.6: an attack reduced to 0 is blocked) ----------

@pytest.mark.covers("dodge_and_weave", "powered")
def test_dodge_and_weave_powered_two_attacks_minus_2_then_attack_2(G):
    """Second option: the Orc Skirmishers' two attacks (1 and 1) each -2, down to 0: both
    count as blocked (LL-6.3.6), no damage, no Wound - Attack 2 in the Attack phase."""
    G.T.set_hand(["dodge_and_weave"])
    G.T.begin(["orc_skirmishers"])
    assert not playable(G, 0)        # Ranged phase (reading: a Block-phase reduction, as Swift Reflexes)
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    G.choose(1)                                          # two attacks by 2
    G.choose(0)
    G.choose(1)
    assert G.T.damage_of(0, 0) == 0 and G.T.damage_of(0, 1) == 0
    G.apply(encode("next_phase"))
    assert G.T.phase == "attack" and G.T.wounds_this_combat == 0
    assert G.T.attack_value([0]) == 2


@pytest.mark.covers("dodge_and_weave", "powered")
def test_dodge_and_weave_powered_one_attack_minus_4(G):
    """First option: swordsmen's Attack 6 -> 2; two sideways Blocks block it; Attack 2."""
    G.T.set_hand(["dodge_and_weave", "march", "march"])
    G.T.begin(["swordsmen"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    G.choose(0)                                          # one attack by 4
    G.choose(0)                                          # the swordsmen's attack
    assert G.T.damage_of(0) == 2
    for _ in range(2):
        G.apply(encode("sideways", 0 | (3 << 7)))
    G.apply(encode("block", 0))
    G.apply(encode("next_phase"))
    assert G.T.phase == "attack" and G.T.attack_value([0]) == 2


# -- Force of Nature (cards.csv #297; 11.7.5 resistant Units) ------------------------------------

@pytest.mark.covers("force_of_nature", "basic")
def test_force_of_nature_basic_chosen_unit_resists_physical_damage(G):
    """Basic: Foresters (Armor 4) gain Physical resistance this combat: the diggers' 3
    physical damage is absorbed by the Armor without a Wound (11.7.5); Peasants unchanged."""
    G.U.set_unit(0, "peasants")
    G.U.set_unit(1, "foresters")
    G.T.set_hand(["force_of_nature"])
    G.T.begin(["diggers"])
    G.apply(play_code(0))
    assert G.acts() == ["choose(0)", "choose(1)"]
    G.choose(1)
    assert G.U.unit_extras(1)["gained_res"] == ["physical"] and G.U.unit_extras(0)["gained_res"] == []
    G.apply(encode("next_phase"))                        # Block phase: nothing blocked
    G.apply(encode("next_phase"))
    G.apply(encode("damage_from", 0))
    G.apply(encode("damage_unit", 1))
    assert G.U.unit(1)["wounds"] == 0 and G.T.hand == []


@pytest.mark.covers("force_of_nature", "basic")
def test_force_of_nature_basic_not_offered_outside_combat(G):
    """Basic: "One chosen unit gains physical resistance this combat" (cards.csv #297): the
    card states its own duration (6.3.2 "unless stated otherwise"), so there is no effect
    outside a combat - reading: the basic effect is offered only in combat (sideways and the
    powered Block / Siege in combat stay as they are)."""
    G.U.set_unit(0, "foresters")
    G.T.set_hand(["force_of_nature"])
    assert PHASE_NAMES[G.phase()] == "move"
    assert not any(a.startswith("play(") for a in G.acts())   # basic play(0) is not offered
    with pytest.raises(ValueError):
        G.apply(play_code(0))


@pytest.mark.covers("force_of_nature", "basic")
def test_force_of_nature_basic_resistance_ends_with_the_combat(G):
    """The Physical resistance lasts the combat, not the rest of the turn: present in the
    Damage phase, gone once the combat is over although the turn goes on."""
    G.U.set_unit(0, "foresters")
    G.T.set_hand(["force_of_nature"])
    G.T.begin(["diggers"])
    G.apply(play_code(0))                                # one unit: no question
    assert G.U.unit_extras(0)["gained_res"] == ["physical"]
    assert G.U.unit_extras(0)["combat_res"] == ["physical"]
    while G.core_.to_dict()["combat"]["active"]:
        acts = G.acts()
        if "damage_from(0)" in acts:
            G.apply(encode("damage_from", 0))
            G.apply(encode("damage_unit", 0))
            assert G.U.unit(0)["wounds"] == 0            # 3 physical, Armor 4, resistant
        else:
            G.apply(encode("next_phase"))
    assert PHASE_NAMES[G.phase()] in ("move", "action")   # the turn goes on after the combat
    assert G.U.unit_extras(0)["gained_res"] == [] and G.U.unit_extras(0)["combat_res"] == []


@pytest.mark.covers("force_of_nature", "powered.1")
def test_force_of_nature_powered_siege_3_offered_against_a_fortified_enemy_ranged_is_not(G):
    """Ranged and Siege phase against the Diggers (Fortified): Attack points are played only
    as part of an attack on a group of enemies (11.5.2, LL-9.4.2) and a fortified enemy
    takes only Siege (11.5.3): Force of Nature's Siege Attack 3 is offered, Swiftness's
    Ranged Attack 3 (white die) is not - it could hit nothing."""
    G.T.set_hand(["swiftness", "force_of_nature"])
    G.T.begin(["diggers"])
    codes = set(G.legal_actions())
    assert play_code(0, powered=1, pay=PAY_DIE + WHITE) not in codes
    assert play_code(1, powered=1, pay=PAY_DIE + GREEN) in codes
    with pytest.raises(ValueError):
        G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    G.apply(play_code(1, powered=1, pay=PAY_DIE + GREEN))
    G.choose(0)                                          # Siege Attack 3
    assert pool(G)[SIEGE] == [3, 0, 0, 0]


def test_swiftness_powered_ranged_3_offered_against_an_unfortified_enemy(G):
    """The same Swiftness against the Prowlers (unfortified) is offered (11.5.2)."""
    G.T.set_hand(["swiftness"])
    G.T.begin(["prowlers"])
    assert play_code(0, powered=1, pay=PAY_DIE + WHITE) in set(G.legal_actions())
    G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    assert pool(G)[RANGED] == [3, 0, 0, 0]


@pytest.mark.covers("force_of_nature", "powered.1", "powered.2")
def test_force_of_nature_powered_siege_3_or_block_6(G):
    """Powered (green die, green crystal): Siege Attack 3 on the Fortified diggers in the
    Ranged phase (11.5.3: defeated); Block 6 blocks swordsmen (Attack 6)."""
    G.S.set_crystals(0, [0, 0, 0, 1])
    G.T.set_hand(["force_of_nature", "force_of_nature"])
    G.T.begin(["diggers", "swordsmen"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    assert G.acts() == ["choose(0)"]                     # only the Siege Attack is usable
    G.choose(0)
    assert pool(G)[SIEGE] == [3, 0, 0, 0]
    G.apply(encode("attack", 1))
    assert "defeated" in G.T.enemy(0)["flags"]
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_CRYSTAL + GREEN))
    assert G.acts()[0] == "choose(1)"
    G.choose(1)
    assert pool(G, "block") == [6, 0, 0, 0]
    G.apply(encode("block", 1))
    assert G.T.enemy(1)["blocked"] == 1


# -- Magic Talent powered, Lost Legion (ll_changed_cards.csv: "Unchanged") ---------------------------

@pytest.mark.covers("magic_talent", "powered@ll")
def test_magic_talent_ll_powered_pays_a_mana_for_an_offer_spell_to_the_discard_pile(GL):
    """Lost Legion on: the same powered effect - a red crystal pays for the red Spell of
    the offer (Fireball), which goes to the discard pile; the offer refills (6.4.2)."""
    G = GL
    G.U.set_spell_offer(["fireball", "snowstorm", "tremor"])
    G.S.set_crystals(0, [1, 0, 0, 0])
    G.set_dice(["blue", "black"])
    G.T.set_hand(["magic_talent"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 0))
    assert G.T.discard == ["fireball"] and crystals(G) == [0, 0, 0, 0]
    offer = G.core_.to_dict()["spell_offer"]
    assert "fireball" not in offer and {"snowstorm", "tremor"} <= set(offer)
    assert None not in offer                             # refilled to three


# -- Shield Bash basic (cards.csv #290; 11.6.5 Swift) ----------------------------------------------

@pytest.mark.covers("shield_bash", "basic")
def test_shield_bash_basic_block_3_counts_twice_against_swift_only(G):
    """Basic: Block 3; against the Swift Wolf Riders (Attack 3, doubled to 6 for the block,
    11.6.5) it counts 6 and blocks; against prowlers (Attack 4) it is 3, too little; the
    Armor is not changed (that is the powered effect)."""
    G.T.set_hand(["shield_bash"])
    G.T.begin(["wolf_riders", "prowlers"])
    assert not playable(G, 0)                            # Ranged phase
    G.T.next_phase()
    G.apply(play_code(0))
    assert G.T.block_needed(0) == 6 and G.T.block_needed(1) == 4
    assert pool(G, "block") == [3, 0, 0, 0]             # doubled when the Swift block resolves
    assert "block(0)" in G.acts() and "block(1)" not in G.acts()
    G.apply(encode("block", 0))
    assert G.T.enemy(0)["blocked"] == 1 and G.T.enemy_armor(0) == 4


# -- colour kept through Maximal Effect (LL-9.7.22), Arcane Immunity and attacks (LL-6.7.4) -------

@pytest.mark.covers("maximal_effect", "powered")
@pytest.mark.covers("shield_bash", "powered")
def test_maximal_effect_powered_on_shield_bash_is_a_blue_effect_ll_9_7_22(G):
    """LL-9.7.22: strong Shield Bash through strong Maximal Effect (a red card, red crystal)
    counts as powered by blue: Block 5 twice = Block 10, one effect (LL-9.6.1).  Fire
    resistance does not stop its Armor part (Manticore, Fire res., Swift Attack 4: 10 counts
    20 against 8, Armor 6 -> 1); Ice resistance does (Orc War Beasts keep Armor 5)."""
    G.S.set_crystals(0, [2, 0, 0, 0])
    for enemy, armor in (("manticore", 1), ("orc_war_beasts", 5)):
        G.T.set_hand(["maximal_effect", "shield_bash"])
        G.T.begin([enemy])
        G.T.next_phase()
        G.apply(play_code(0, powered=1, pay=PAY_CRYSTAL + RED))
        assert pool(G, "block") == [10, 0, 0, 0]
        G.apply(encode("block", 0))
        assert G.T.enemy(0)["blocked"] == 1 and G.T.enemy_armor(0) == armor, enemy
        G.T.end()


@pytest.mark.covers("dodge_and_weave", "basic")
def test_dodge_and_weave_reduces_an_arcane_immune_enemys_attack_ll_6_7_4(G):
    """LL-6.7.4: Arcane Immunity protects the enemy, not its attack - Dodge and Weave's -2
    works on the Sorcerers' attack."""
    G.T.set_hand(["dodge_and_weave"])
    G.T.begin(["sorcerers"])
    G.T.next_phase()
    before = G.T.damage_of(0)
    G.apply(play_code(0))
    assert G.acts() == ["choose(0)"]                     # the Sorcerers' attack is a target
    G.choose(0)
    assert G.T.damage_of(0) == before - 2


@pytest.mark.covers("steady_tempo", "basic")
def test_steady_tempo_basic_move_2_and_no_return_onto_an_empty_deed_deck(G):
    """Basic: Move 2; "at the bottom of your (non-empty) Deed deck": with an empty deck the
    return is not offered and the card is discarded (13.3.2)."""
    G.T.set_hand(["steady_tempo"])
    G.S.set_cards(0, deck=[])
    G.apply(play_code(0))
    assert turn(G)["move_points"] == 2
    G.apply(encode("end_turn"))
    assert not any(a.startswith("steady_tempo") for a in G.acts())


@pytest.mark.covers("crushing_bolt", "powered")
def test_crushing_bolt_powered_siege_cannot_target_a_doubly_fortified_enemy(G):
    """11.5.4: the Fortified diggers defending a fortified site cannot be targeted in the
    Ranged phase, not even by Siege: the Siege 3 could hit nothing, and Attack points are
    played only as part of an attack on a group of enemies (11.5.2, LL-9.4.2), so the
    powered effect is not offered (reading; it was offered and wasted before)."""
    G.T.set_hand(["crushing_bolt"])
    G.T.begin(["diggers"], site_fortified=True)
    assert G.T.fortification_level(0) == 2
    assert play_code(0, powered=1, pay=PAY_DIE + GREEN) not in set(G.legal_actions())
    with pytest.raises(ValueError):
        G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    assert pool(G)[SIEGE] == [0, 0, 0, 0] and "attack(1)" not in G.acts()


@pytest.mark.covers("ice_shield", "powered")
def test_ice_shield_powered_no_armor_change_when_the_block_fails(G):
    """"One enemy blocked this way gets Armor -3": reading - a failed block (Ice Block 3
    against the swordsmen's Attack 6, 11.6.7) blocks no one, so no Armor change (the card
    says otherwise than 11.6.8's default)."""
    G.T.set_hand(["ice_shield"])
    G.T.begin(["swordsmen"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    assert "block(0)" not in G.acts()
    G.apply(encode("next_phase"))
    assert G.T.enemy(0)["blocked"] == 0 and G.T.enemy_armor(0) == 5


@pytest.mark.covers("path_finding", "powered")
def test_path_finding_powered_cost_2_lasts_until_the_end_of_the_turn(G):
    """6.3.2: the changed terrain costs last until the end of the turn - a desert (5 by
    Day, 9.2) costs 2 through the end-of-turn steps and 5 again at the next turn's start."""
    from test_advanced_actions import DESERT, east_hex
    R, pos, h = east_hex(G, DESERT)
    G.T.set_hand(["path_finding", "march"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    assert R.move_cost(h) == 2
    G.apply(encode("end_turn"))
    G.apply(encode("draw"))
    assert "regular_turn(0)" in G.acts() and R.move_cost(h) == 5


# -- Learning outside an interaction (LL-9.7.11-9.7.12, LL-9.3; 10.2) --------------------------

@pytest.mark.covers("learning", "powered")
def test_learning_powered_while_moving_buys_an_aa_to_hand_and_uses_its_move(content, tables):
    """LL-9.7.12: Learning may be played in the Movement phase (no reputation modifier) and
    the bought card's Move used at once.  Powered (white die): Influence 4 + Promise 2 + 3
    sideways Influence = 9, paid for Agility (to hand), played for its Move 2.  Influence
    cards and sideways Influence have this use while moving (LL-9.3.1), and only this."""
    from interaction_setup import Game
    from mksim._engine import AdvancedTester
    g = Game(content, tables, hand=["learning", "promise", "march", "march", "march"])
    AdvancedTester(g.eng).set_aa_offer(["agility", "in_need", "counterattack"])
    g.eng.set_dice(["white"])
    assert not any(a.startswith("play(hand=1,") for a in g.actions())   # Promise: no use yet
    g.play(0, powered=1, pay=PAY_DIE + 0)
    assert g.turn["influence"] == 4 and g.turn["action_taken"] is False
    g.play(0)                                            # Promise basic: Influence 2
    for _ in range(3):
        g.sideways_influence(0)
    assert g.turn["influence"] == 9 and g.player["hand"] == []
    g.do("learning", 0)
    assert g.player["hand"] == ["agility"] and g.turn["influence"] == 0
    assert "sideways(128)" not in g.actions()            # bought: Influence has no use any more
    g.play(0)
    assert AdvancedTester(g.eng).turn["move_points"] == 2


@pytest.mark.covers("learning", "basic")
def test_learning_basic_influence_from_the_movement_part_is_lost_at_the_interaction(content, tables):
    """LL-9.3.4: Influence left over from the movement part is lost when the action begins:
    Learning basic (Influence 2) while moving, then interacting at a village (Reputation
    0): 0 Influence there; Learning's purchase is still open (once this turn)."""
    from interaction_setup import Game
    from mksim._engine import AdvancedTester
    g = Game(content, tables, site="village", hand=["learning", "promise"])
    AdvancedTester(g.eng).set_aa_offer(["agility", "in_need", "counterattack"])
    g.play(0)
    assert g.turn["influence"] == 2 and g.of_kind("learning") == []
    g.do("interact")
    assert g.turn["influence"] == 0
    g.ut.set_turn(influence=6)
    assert g.of_kind("learning") == ["learning(0)", "learning(1)", "learning(2)"]


def test_learning_influence_from_the_movement_part_is_lost_when_a_combat_begins(content, tables):
    """LL-9.3.4: likewise when the action is a combat (Learning basic while moving, then a
    fight): no Influence in the combat."""
    from interaction_setup import Game
    g = Game(content, tables, hand=["learning"])
    g.play(0)
    assert g.turn["influence"] == 2
    g.ut.start_combat(["prowlers"])
    assert g.turn["influence"] == 0


# -- Influence cards in combat with The Lost Legion (LL-9.3.1, LL-4.3.4: paying Thugs) ------------

def _thugs_block_phase(content, tables, hand):
    from interaction_setup import Game
    from test_units_handlers import combat, to_block
    g = Game(content, tables, hand=hand)
    g.ut.set_unit(0, "thugs")
    combat(g, ["prowlers"])
    to_block(g)
    return g


@pytest.mark.covers("in_need", "basic")
def test_in_need_influence_in_combat_pays_thugs(content, tables):
    """LL-9.3.1 / LL-4.3.4: with Thugs waiting for their payment, In Need's Influence has a
    use in combat (it was offered only while interacting): 2 + 1 Wound in hand = 3, 2 pay
    the Thugs."""
    g = _thugs_block_phase(content, tables, ["in_need", "wound"])
    g.play(0)
    assert g.turn["influence"] == 3
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"] and g.turn["influence"] == 1


def test_in_need_not_offered_in_combat_without_a_use_for_influence(content, tables):
    from interaction_setup import Game
    from test_units_handlers import combat, to_block
    g = Game(content, tables, hand=["in_need", "wound"])
    g.ut.set_unit(0, "peasants")
    combat(g, ["prowlers"])
    to_block(g)
    assert not any(a.startswith("play(hand=0,") for a in g.actions())


@pytest.mark.covers("heroic_tale", "basic")
def test_heroic_tale_influence_in_combat_pays_thugs(content, tables):
    """Heroic Tale basic in combat (LL-9.3.1): Influence 3, 2 of it pay the Thugs; no Unit
    can be recruited in combat, so no Reputation comes of it."""
    g = _thugs_block_phase(content, tables, ["heroic_tale"])
    rep = g.player["reputation"]
    g.play(0)
    assert g.turn["influence"] == 3
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"] and g.player["reputation"] == rep


@pytest.mark.covers("peaceful_moment", "basic")
def test_peaceful_moment_influence_in_combat_is_not_the_action(content, tables):
    """Peaceful Moment in combat: the combat is the action already, so only its Influence 3
    (LL-8.1.2): it pays the Thugs; no Heal is offered."""
    g = _thugs_block_phase(content, tables, ["peaceful_moment"])
    g.play(0)
    assert g.turn["influence"] == 3 and g.of_kind("peaceful") == []
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"]


@pytest.mark.covers("learning", "basic")
def test_learning_influence_in_combat_pays_thugs(content, tables):
    """Learning "may be played at any time" (LL-9.7.11): in combat its Influence 2 pays the
    Thugs.  (Engine limitation: the purchase is not offered in combat.)"""
    g = _thugs_block_phase(content, tables, ["learning"])
    g.play(0)
    assert g.turn["influence"] == 2
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"] and g.of_kind("learning") == []


@pytest.mark.covers("heroic_tale", "basic")
def test_heroic_tale_counts_units_recruited_after_it_is_played(content, tables):
    """Reading (6.3.2: a change starts when the card is played): a Unit recruited before
    Heroic Tale is played gives no Reputation."""
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=["heroic_tale", "promise", "promise"])
    g.ut.set_unit_offer(["peasants", "peasants"])
    g.do("interact")
    g.play(1)
    g.play(1)
    g.recruit(0)
    rep = g.player["reputation"]
    g.play(0)
    assert g.player["reputation"] == rep and g.turn["influence"] == 3


@pytest.mark.covers("blood_of_ancients", "powered")
def test_blood_of_ancients_powered_borrowed_ice_shield_stays_a_blue_effect(G):
    """Blood of Ancients (red) using the offer's Ice Shield powered: reading (LL-9.6.1,
    LL-9.7.22: a borrowed effect keeps its card's colour) - a blue effect, so Fire resistance
    does not stop the Armor -3 (Fire Golems: Fire Attack 3 blocked by Ice Block 3, Armor
    4 -> 1) and Ice resistance does (Ice Golems: Ice Block 3 + sideways 1, both inefficient
    against Ice: 4 // 2 = 2 blocks their Ice Attack 2; Armor stays 4)."""
    for enemy, hand, armor in (("fire_golems", ["blood_of_ancients"], 1),
                               ("ice_golems", ["blood_of_ancients", "march"], 4)):
        G.A.set_aa_offer(["ice_shield", "counterattack", "fire_bolt"])
        G.T.set_hand(hand)
        G.S.set_crystals(0, [1, 0, 0, 0])
        G.T.begin([enemy])
        G.T.next_phase()
        G.apply(play_code(0, powered=1, pay=PAY_CRYSTAL + RED))
        G.choose(1)                                      # the Wound to the discard pile
        assert pool(G, "block") == [0, 0, 3, 0]
        if len(hand) > 1:
            G.apply(encode("sideways", 0 | (3 << 7)))
        G.apply(encode("block", 0))
        assert G.T.enemy(0)["blocked"] == 1 and G.T.enemy_armor(0) == armor, enemy
        G.T.end()


@pytest.mark.covers("magic_talent", "basic@ll")
def test_magic_talent_ll_basic_a_red_spell_discarded_casts_the_offer_fireball_not_an_artifact(GL):
    """Lost Legion printing: "discard a card of any colour (not a Wound or artifact)" - a
    Spell has a colour: Flame Wall (red) discarded, the offer's Fireball cast with the red
    die (Ranged Fire Attack 5 by Day), staying in the offer; an artifact (Banner of Glory)
    cannot be discarded for it."""
    G = GL
    G.U.set_spell_offer(["snowstorm", "fireball", "tremor"])
    G.set_dice(["red", "black"])
    G.T.set_hand(["magic_talent", "banner_of_glory"])
    G.T.begin(["prowlers"])
    assert not playable(G, 0)
    G.T.set_hand(["magic_talent", "flame_wall"])
    G.apply(play_code(0))
    assert pool(G)[RANGED] == [0, 5, 0, 0] and G.T.discard == ["flame_wall"]
    assert G.core_.to_dict()["spell_offer"][1] == "fireball"


@pytest.mark.covers("shield_bash", "powered")
def test_shield_bash_powered_blocks_an_arcane_immune_enemy_but_no_armor_change_ll_6_7_5(G):
    """LL-6.7.5: strong Shield Bash against an Arcane Immune enemy - the Block works, the
    Armor is not reduced.  Sorcerers (Attack 6, Armor 6): Block 5 + 2 sideways = 7, an
    excess of 1; Armor stays 6."""
    G.T.set_hand(["shield_bash", "march", "march"])
    G.T.begin(["sorcerers"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    for _ in range(2):
        G.apply(encode("sideways", 0 | (3 << 7)))
    assert G.T.block_value(0) == 7 and G.T.block_needed(0) == 6
    G.apply(encode("block", 0))
    assert G.T.enemy(0)["blocked"] == 1 and G.T.enemy_armor(0) == 6
