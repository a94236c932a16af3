"""Advanced Action handlers (ext/_fx_advanced.pyx) and the enemy operations enemy_armor /
enemy_no_attack (11.4.2-11.4.4, 11.9, LL-6.7) in the decision loop.  Card texts: see
mksim/data/advanced_actions.toml; enemy numbers from enemies.toml (prowlers Armor 3 /
Attack 4, swordsmen Armor 5 / Attack 6, wolf riders Armor 4 / Attack 3 Swift, sorcerers
Armor 6, Arcane Immunity)."""
import pytest

from mksim._combat import CombatTester
from mksim._engine import Engine, describe, encode
from mksim._scoring import ScoringTester
from mksim._state import GameCore

PAY_NONE, PAY_DIE = 31, 10


def play_code(hand, powered=0, pay=PAY_NONE, pay2=PAY_NONE):
    return encode("play", hand | (powered << 7) | (pay << 8) | (pay2 << 13))


def acts(g):
    return [describe(int(a)) for a in g.eng.legal_actions()]


def day_turn(content, tables, wrap):
    """A regular turn in the movement part (Day, Lost Legion cards), the discard pile
    emptied and Source dice red blue white green gold: ``wrap(engine, CombatTester, core)``."""
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", 1, lost_legion_cards=True)
    eng = Engine(core, tables, content, "first_reconnaissance")
    eng.apply(encode("tactic", content.ids("tactics").index("early_bird")))
    eng.apply(encode("regular_turn"))
    T = CombatTester(core)
    T.clear_discard()
    eng.set_dice(["red", "blue", "white", "green", "gold"])
    return wrap(eng, T, core)


@pytest.fixture
def G(content, tables):
    """A regular turn in the movement part (Day), with helpers to build a combat."""
    return day_turn(content, tables, _G)


class _G:
    def __init__(self, eng, T, core):
        self.eng, self.T, self.core_ = eng, T, core

    def __getattr__(self, name):
        return getattr(self.eng, name)


def player(eng):
    return eng.core_.to_dict()["players"][0]


def crystals(g):
    c = player(g)["crystals"]
    return [c["red"], c["blue"], c["white"], c["green"]]


def set_crystals(eng, crystals):
    ScoringTester(eng.core_).set_crystals(0, crystals)


# -- enemy_armor / enemy_no_attack (11.4.4, LL-6.7) ----------------------------------------

def test_11_4_4_tremor_all_reduces_every_enemy_armor_min_1_not_arcane_immune(G):
    """Tremor basic, second option enemy_armor(-2, target=all): prowlers 3 -> 1, swordsmen
    5 -> 3; sorcerers (Arcane Immunity, LL-6.7.1) keep 6."""
    G.T.set_hand(["tremor"])
    G.T.begin(["prowlers", "swordsmen", "sorcerers"])
    G.apply(play_code(0, pay=PAY_DIE + 3))              # green die (5.4.1)
    G.apply(encode("choose", 1))
    assert [G.T.enemy_armor(s) for s in range(3)] == [1, 3, 6]


def test_11_4_4_tremor_one_asks_for_a_target_among_enemies_it_can_affect(G):
    """enemy_armor(-3, target=one): the Arcane Immune sorcerers are no option (LL-6.7.1);
    swordsmen chosen: Armor 5 -> 2."""
    G.T.set_hand(["tremor"])
    G.T.begin(["prowlers", "swordsmen", "sorcerers"])
    G.apply(play_code(0, pay=PAY_DIE + 3))
    G.apply(encode("choose", 0))
    assert acts(G) == ["choose(0)", "choose(1)"]
    G.apply(encode("choose", 1))
    assert [G.T.enemy_armor(s) for s in range(3)] == [3, 2, 6]
    # LL-6.3.7 / 11.8: the lowered Armor is what an attack must reach now
    G.T.set_phase("attack")
    G.T.set_attack("melee", "physical", 2)
    assert G.T.resolve_attack([1]) == 1


def test_ll_6_1_4_whirlwind_single_enemy_does_not_attack(G):
    """Whirlwind basic enemy_no_attack(target=one), one enemy: no question; the prowlers'
    attack is no longer live, so there is nothing to block or to take damage from."""
    G.T.set_hand(["whirlwind"])
    G.T.begin(["prowlers"])
    G.apply(play_code(0, pay=PAY_DIE + 2))              # white die
    assert G.T.attack_live(0) is False


def test_ll_6_7_enemy_effect_has_no_target_among_arcane_immune_enemies(G):
    """LL-6.7.1: Whirlwind against sorcerers alone: its only part can affect no enemy, so the
    card is not offered (it would be lost); the enemy still attacks."""
    G.T.set_hand(["whirlwind"])
    G.T.begin(["sorcerers"])
    assert play_code(0, pay=PAY_DIE + 2) not in set(G.legal_actions())
    with pytest.raises(ValueError):
        G.apply(play_code(0, pay=PAY_DIE + 2))
    assert G.T.attack_live(0) is True


# -- Ice Shield, Shield Bash (11.6, 11.9.3, LL-2.10.10) --------------------------------------

@pytest.mark.covers("ice_shield", "powered")
def test_ice_shield_powered_blocks_and_lowers_the_blocked_enemy_armor_by_3(G):
    """Ice Shield powered: Ice Block 3 (+3 sideways Block = 6 vs swordsmen Attack 6, 11.6.5);
    the blocked enemy gets Armor -3: 5 -> 2; the other enemy keeps its Armor."""
    G.T.set_hand(["ice_shield", "march", "rage", "stamina"])
    G.T.begin(["swordsmen", "prowlers"])
    G.T.next_phase()
    assert G.T.phase == "block"
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 1))   # blue die
    for _ in range(3):
        G.apply(encode("sideways", 0 | (3 << 7)))
    assert G.T.block_value(0) == 6
    G.apply(encode("block", 0))
    assert G.T.enemy(0)["blocked"] == 1
    assert G.T.enemy_armor(0) == 2 and G.T.enemy_armor(1) == 3


def test_ice_shield_armor_part_does_not_touch_arcane_immune_enemy(G):
    """LL-6.7.3: the Block works against sorcerers (Attack 6), the Armor change does not."""
    G.T.set_hand(["ice_shield", "march", "rage", "stamina"])
    G.T.begin(["sorcerers"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 1))
    for _ in range(3):
        G.apply(encode("sideways", 0 | (3 << 7)))
    G.apply(encode("block", 0))
    assert G.T.enemy(0)["blocked"] == 1 and G.T.enemy_armor(0) == 6


@pytest.mark.covers("shield_bash", "powered")
def test_shield_bash_powered_counts_twice_vs_swift_and_excess_lowers_armor(G):
    """Shield Bash powered: Block 5 counts 10 against the Swift wolf riders (need 3 x 2 = 6,
    11.6.5); excess 4 -> Armor 4 - 4, kept at 1."""
    G.T.set_hand(["shield_bash"])
    G.T.begin(["wolf_riders"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 1))
    assert "block(0)" in acts(G)
    G.apply(encode("block", 0))
    assert G.T.enemy(0)["blocked"] == 1 and G.T.enemy_armor(0) == 1


@pytest.mark.covers("shield_bash", "powered")
def test_shield_bash_excess_one_against_prowlers(G):
    """Block 5 vs prowlers' Attack 4: excess 1 -> Armor 3 - 1 = 2."""
    G.T.set_hand(["shield_bash"])
    G.T.begin(["prowlers"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 1))
    G.apply(encode("block", 0))
    assert G.T.enemy_armor(0) == 2


def test_shield_bash_basic_swift_double_is_lost_with_the_next_phase(G):
    """Shield Bash basic Block 3 -> 6 vs wolf riders; block not committed: 11.4.5 loses it."""
    G.T.set_hand(["shield_bash"])
    G.T.begin(["wolf_riders"])
    G.T.next_phase()
    G.apply(play_code(0))
    assert "block(0)" in acts(G)
    G.apply(encode("next_phase"))
    assert G.T.enemy(0)["blocked"] == 0


# -- Counterattack, Blood Rage, Ambush -------------------------------------------------------

@pytest.mark.covers("counterattack", "basic")
def test_counterattack_adds_per_blocked_enemy(G):
    """Counterattack basic: Attack 2 + 2 per blocked enemy; one of two blocked -> Attack 4."""
    G.T.set_hand(["counterattack"])
    G.T.begin(["prowlers", "swordsmen"])
    G.T.set_enemy_flags(0, 2)                           # CE_BLOCKED
    G.T.set_phase("attack")
    G.apply(play_code(0))
    assert G.T.attack_value([1], "attack") == 4


@pytest.mark.covers("blood_rage", "basic.2")
def test_blood_rage_take_wound_option_gives_attack_5(G):
    """Blood Rage basic: choice(Attack 2, Wound + Attack 5); the second puts a Wound in hand."""
    G.T.set_hand(["blood_rage"])
    G.T.begin(["swordsmen"])
    G.T.set_phase("attack")
    G.apply(play_code(0))
    G.apply(encode("choose", 1))
    assert G.T.attack_value([0], "attack") == 5 and G.T.hand == ["wound"]


@pytest.mark.covers("ambush", "basic")
def test_ambush_bonus_goes_to_the_first_block_card(G):
    """Ambush basic (Move 2) before the combat: the first Block card gets +2: sideways Block
    1 -> 3, the next sideways card only 1 (total 4 vs prowlers)."""
    G.T.set_hand(["ambush", "march", "rage"])
    G.apply(play_code(0))
    assert G.core_.to_dict()["turn"]["move_points"] == 2
    G.T.begin(["prowlers"])
    G.T.next_phase()
    G.apply(encode("sideways", 0 | (3 << 7)))
    assert G.T.block_value(0) == 3
    G.apply(encode("sideways", 0 | (3 << 7)))
    assert G.T.block_value(0) == 4


# -- mana and crystals ---------------------------------------------------------------------

@pytest.mark.covers("pure_magic", "basic")
def test_pure_magic_green_mana_gives_move_4(G):
    """Pure Magic basic: pay one mana; green -> Move 4 (white -> Influence is not usable now)."""
    G.T.set_hand(["pure_magic"])
    G.set_dice(["green"])
    G.apply(play_code(0))                               # one payable colour, one die: no question
    d = G.core_.to_dict()
    assert d["turn"]["move_points"] == 4 and d["source"]["taken"] == [0] and G.T.hand == []


@pytest.mark.covers("decompose", "basic")
def test_decompose_throws_away_an_action_card_for_two_crystals(G):
    """Decompose basic: throw away March (green): 2 green crystals; March leaves the game."""
    G.T.set_hand(["decompose", "march", "wound"])
    G.apply(play_code(0))
    assert acts(G) == ["choose(0)"]                     # the Wound is no Action card
    G.apply(encode("choose", 0))
    p = player(G)
    assert crystals(G) == [0, 0, 0, 2] and G.T.hand == ["wound"] and "march" not in G.T.discard


@pytest.mark.covers("crystal_mastery", "basic")
def test_crystal_mastery_copies_a_held_colour(G):
    set_crystals(G, [1, 0, 0, 0])
    G.T.set_hand(["crystal_mastery"])
    G.apply(play_code(0))
    assert crystals(G) == [2, 0, 0, 0]


@pytest.mark.covers("crystal_mastery", "powered")
def test_crystal_mastery_powered_returns_spent_crystals_at_end_of_turn(G):
    """Powered (paid with a blue crystal), then Rage powered paid with a red crystal: both
    return at the end of the turn."""
    set_crystals(G, [1, 1, 0, 0])
    G.T.set_hand(["crystal_mastery", "rage", "march"])
    G.apply(play_code(0, powered=1, pay=6 + 1))
    assert crystals(G) == [1, 0, 0, 0]
    G.apply(encode("end_turn"))
    assert crystals(G) == [1, 1, 0, 0]


@pytest.mark.covers("mana_storm", "basic")
def test_mana_storm_basic_die_to_crystal(G):
    """Mana Storm basic: the red die gives a red crystal; the gold die is no option."""
    G.set_dice(["red", "gold"])
    G.T.set_hand(["mana_storm"])
    G.apply(play_code(0))
    assert acts(G) == ["choose(0)"]
    G.apply(encode("choose", 0))
    assert crystals(G) == [1, 0, 0, 0]


@pytest.mark.covers("spell_forge", "powered")
def test_spell_forge_powered_two_different_offer_spells(G):
    """Spell Forge powered: crystals matching two different Spells of the offer."""
    G.T.set_hand(["spell_forge"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 1))
    from mksim.content import load_content
    colour = {c["id"]: c["colour"] for c in load_content()["spells"]}
    offer = G.core_.to_dict()["spell_offer"]
    G.apply(encode("choose", 0))
    assert acts(G) == ["choose(1)", "choose(2)"]          # a different Spell
    G.apply(encode("choose", 2))
    want = [0, 0, 0, 0]
    for k in (0, 2):
        want[("red", "blue", "white", "green").index(colour[offer[k]])] += 1
    assert crystals(G) == want


def test_in_need_needs_interaction_and_is_not_offered_while_moving(G):
    G.T.set_hand(["in_need"])
    assert not any(a.startswith("play(hand=0") for a in acts(G))


# -- terrain: terrain_cost_set / terrain_passable / mana_cost (9.2, 9.6, 9.7, 13.2) --------

from mksim._rules import Rules  # noqa: E402

PLAINS, HILLS, FOREST, WASTELAND, DESERT, SWAMP, LAKE, MOUNTAIN = range(8)


def east_hex(g, terrain):
    """Make the hex east of the hero (neighbour 1 of the portal) `terrain`; return its index."""
    R = Rules(g.core_)
    pos = player(g)["position"]
    h = R.neighbours(pos)[1]
    R.set_hex(h, terrain=terrain)
    return R, pos, h


def moves(g):
    return [a for a in acts(g) if a.startswith("move(")]


@pytest.mark.covers("frost_bridge", "powered")
def test_9_2_9_6_frost_bridge_powered_lake_costs_1_and_is_not_safe_13_2(G):
    """Frost Bridge powered (blue die): Move 4, a lake costs 1 this turn; ending there is not
    safe (9.6.3, 9.7.1): forced withdrawal to the portal with one Wound (13.2)."""
    R, pos, lake = east_hex(G, LAKE)
    G.T.set_hand(["frost_bridge"])
    assert R.move_cost(lake) == -1 and "move(1)" not in moves(G)
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 1))
    assert R.move_cost(lake) == 1 and not R.is_safe(lake)
    G.apply(encode("move", 1))
    assert player(G)["position"] == lake and G.core_.to_dict()["turn"]["move_points"] == 3
    G.apply(encode("end_turn"))
    p = player(G)
    assert p["position"] == pos and p["hand"].count("wound") == 1


@pytest.mark.covers("frost_bridge", "basic")
def test_9_6_frost_bridge_basic_swamp_costs_1_lake_stays_closed(G):
    R, pos, h = east_hex(G, SWAMP)
    G.T.set_hand(["frost_bridge"])
    assert R.move_cost(h) == 5                            # 9.2: swamp by Day
    G.apply(play_code(0))
    assert R.move_cost(h) == 1
    R.set_hex(h, terrain=LAKE)
    assert R.move_cost(h) == -1                           # basic: no lake


@pytest.mark.covers("path_finding", "powered")
def test_9_6_path_finding_powered_every_terrain_costs_2(G):
    """Path Finding powered: desert (5 by Day) and forest (3) cost 2; lakes stay closed."""
    R, pos, h = east_hex(G, DESERT)
    G.T.set_hand(["path_finding"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 3))
    assert G.core_.to_dict()["turn"]["move_points"] == 4 and R.move_cost(h) == 2
    R.set_hex(h, terrain=FOREST)
    assert R.move_cost(h) == 2
    R.set_hex(h, terrain=LAKE)
    assert R.move_cost(h) == -1


def test_9_6_2_set_cost_then_reduction_never_below_0(G):
    """Engine reading: a set cost is reduced further (Path Finding powered plains 2, Song of
    Wind basic -1 -> 1), never below 0 (9.6.2)."""
    R, pos, h = east_hex(G, PLAINS)
    set_crystals(G, [0, 0, 0, 1])
    G.T.set_hand(["path_finding", "song_of_wind"])
    G.apply(play_code(0, powered=1, pay=6 + 3))            # green crystal
    G.apply(play_code(0))                                  # Song of Wind basic
    assert R.move_cost(h) == 1


@pytest.mark.covers("song_of_wind", "powered")
def test_song_of_wind_powered_blue_mana_opens_lakes_at_cost_0(G):
    """Song of Wind powered (white die): plains / desert / wasteland -2; "you may pay a blue
    mana": paid with a blue crystal (the Source die is used, 5.5.2) -> lakes cost 0."""
    R, pos, h = east_hex(G, LAKE)
    set_crystals(G, [0, 1, 0, 0])
    G.T.set_hand(["song_of_wind"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 2))
    assert acts(G) == ["choose(7)", "choose(63)"]          # blue crystal, or decline
    G.apply(encode("choose", 7))
    assert crystals(G) == [0, 0, 0, 0] and R.move_cost(h) == 0
    R.set_hex(h, terrain=DESERT)
    assert R.move_cost(h) == 3                             # 5 - 2
    R.set_hex(h, terrain=LAKE)
    G.apply(encode("move", 1))
    assert player(G)["position"] == h and G.core_.to_dict()["turn"]["move_points"] == 2


def test_song_of_wind_powered_declining_the_blue_mana_keeps_lakes_closed(G):
    R, pos, h = east_hex(G, LAKE)
    set_crystals(G, [0, 1, 0, 0])
    G.T.set_hand(["song_of_wind"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 2))
    G.apply(encode("choose", 63))
    assert crystals(G) == [0, 1, 0, 0] and R.move_cost(h) == -1


def test_song_of_wind_powered_without_blue_mana_is_still_playable(G):
    """No blue mana left after the white die: the optional payment is skipped."""
    R, pos, h = east_hex(G, LAKE)
    G.T.set_hand(["song_of_wind"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 2))
    assert G.core_.to_dict()["turn"]["move_points"] == 2 and R.move_cost(h) == -1


@pytest.mark.covers("mountain_lore", "powered")
def test_mountain_lore_powered_mountain_costs_5_is_safe_and_hand_limit_plus_2(G):
    """Mountain Lore powered (green die): Move 5, a mountain costs 5 and is safe for this turn
    (no forced withdrawal, 13.2); ending there: Hand limit +2 at this turn's draw (13.7.2:
    level 1 limit 5 -> 7)."""
    R, pos, mtn = east_hex(G, MOUNTAIN)
    G.T.set_hand(["mountain_lore"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 3))
    assert R.move_cost(mtn) == 5 and R.is_safe(mtn)
    G.apply(encode("move", 1))
    assert G.core_.to_dict()["turn"]["move_points"] == 0
    G.apply(encode("end_turn"))
    assert player(G)["position"] == mtn and "wound" not in player(G)["hand"]
    G.apply(encode("draw"))
    assert len(player(G)["hand"]) == 7


@pytest.mark.covers("mountain_lore", "basic")
def test_mountain_lore_basic_hills_hand_limit_plus_1_not_elsewhere(G):
    R, pos, h = east_hex(G, HILLS)
    G.T.set_hand(["mountain_lore"])
    G.apply(play_code(0))
    assert R.move_cost(h) == 3
    G.apply(encode("move", 1))
    G.apply(encode("end_turn"))
    G.apply(encode("draw"))
    assert len(player(G)["hand"]) == 6                    # 5 + 1


def test_mountain_lore_basic_on_plains_no_bonus(G):
    R, pos, h = east_hex(G, PLAINS)
    G.T.set_hand(["mountain_lore"])
    G.apply(play_code(0))
    G.apply(encode("move", 1))
    G.apply(encode("end_turn"))
    G.apply(encode("draw"))
    assert len(player(G)["hand"]) == 5


@pytest.mark.covers("steady_tempo", "powered")
def test_steady_tempo_powered_goes_on_top_of_the_deed_deck_and_is_drawn_again(G):
    G.T.set_hand(["steady_tempo"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 1))
    G.apply(encode("end_turn"))
    assert "steady_tempo(0)" in acts(G) and "steady_tempo" in G.T.discard
    n_deck = len(player(G)["deck"])
    G.apply(encode("steady_tempo"))
    p = player(G)
    assert p["deck"][-1] == "steady_tempo" and len(p["deck"]) == n_deck + 1
    assert "steady_tempo" not in p["discard"] and "steady_tempo(0)" not in acts(G)
    G.apply(encode("draw"))
    assert "steady_tempo" in player(G)["hand"]


@pytest.mark.covers("steady_tempo", "basic")
def test_steady_tempo_basic_goes_to_the_bottom_only_if_the_deck_is_not_empty(G):
    G.T.set_hand(["steady_tempo"])
    G.apply(play_code(0))
    G.apply(encode("end_turn"))
    G.apply(encode("steady_tempo"))
    assert player(G)["deck"][0] == "steady_tempo"


def test_steady_tempo_is_optional_discard_pile_by_default(G):
    G.T.set_hand(["steady_tempo"])
    G.apply(play_code(0))
    G.apply(encode("end_turn"))
    G.apply(encode("draw"))
    p = player(G)
    assert "steady_tempo" in p["discard"] and "steady_tempo" not in p["deck"]


BASIC_OF = {"red": "rage", "blue": "stamina", "white": "swiftness", "green": "march"}


@pytest.mark.covers("training", "basic")
def test_training_throws_away_an_action_card_for_an_offer_aa_of_its_colour(G):
    """Training basic: throw away a basic card of the colour of the AA in offer slot 0; that
    AA goes to the discard pile, the offer refills (6.4.2)."""
    from mksim.content import load_content
    colour = {c["id"]: c["colour"] for c in load_content()["advanced_actions"]}
    offer = G.core_.to_dict()["advanced_action_offer"]
    col = colour[offer[0]]
    same = [k for k in range(3) if colour[offer[k]] == col]
    G.T.set_hand(["training", BASIC_OF[col], "wound"])
    G.apply(play_code(0))
    assert acts(G) == ["choose(0)"]                        # the basic card, not the Wound
    G.apply(encode("choose", 0))
    if len(same) > 1:
        assert acts(G) == [f"choose({k})" for k in same]
        G.apply(encode("choose", 0))
    p = player(G)
    assert G.T.hand == ["wound"] and offer[0] in p["discard"] and BASIC_OF[col] not in p["discard"]
    assert p["stats"]["cards_gained"] == [0, 1, 0, 0]      # one AA gained (results store)
    new = G.core_.to_dict()["advanced_action_offer"]
    assert new[1:] == offer[1:] and new[0] is not None and new[0] != offer[0]   # 6.4.2


@pytest.mark.covers("training", "powered")
def test_training_powered_puts_the_aa_into_hand(G):
    from mksim.content import load_content
    colour = {c["id"]: c["colour"] for c in load_content()["advanced_actions"]}
    offer = G.core_.to_dict()["advanced_action_offer"]
    col = colour[offer[0]]
    G.T.set_hand(["training", BASIC_OF[col]])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 3))
    G.apply(encode("choose", 0))
    if sum(colour[offer[k]] == col for k in range(3)) > 1:
        G.apply(encode("choose", 0))                      # offer slot 0
    assert G.T.hand == [offer[0]] and offer[0] not in player(G)["discard"]
    assert player(G)["stats"]["cards_gained"] == [0, 1, 0, 0]


def test_training_not_playable_without_another_action_card(G):
    G.T.set_hand(["training", "wound"])
    assert not any(a.startswith("play(hand=0") for a in acts(G))


# -- Into the Heat (units in combat, 7.3.3, 11.7.4) ----------------------------------------

from interaction_setup import Game, PH_COMBAT_DAMAGE  # noqa: E402


def heat_game(content, tables, powered):
    g = Game(content, tables, hand=["into_the_heat", "march"])
    g.ut.set_unit(0, "peasants")
    g.ut.set_unit(1, "utem_crossbowmen")
    g.eng.set_dice(["red", "blue", "white", "green", "gold"])
    g.ut.start_combat(["prowlers"])
    assert "play(hand=0, powered=0, pay=31, pay2=31)" in g.actions()     # at the start of combat
    g.play(0, powered=powered, pay=PAY_DIE + 0 if powered else PAY_NONE)
    return g


@pytest.mark.covers("into_the_heat", "powered")
def test_into_the_heat_powered_units_ranged_attack_plus_3(content, tables):
    """Powered (red die): Utem Crossbowmen Ranged Attack 2 + 3 = 5 (11.5: prowlers Armor 3,
    so 5 is counted in the Ranged phase)."""
    g = heat_game(content, tables, 1)
    g.activate(1, 1)                                     # Ranged Attack 2
    assert CombatTester(g.core).attack_value([0]) == 5


@pytest.mark.covers("into_the_heat", "basic")
def test_into_the_heat_basic_unit_block_plus_2_and_no_damage_to_units(content, tables):
    """Basic: Peasants Block 2 + 2 = 4 blocks the prowlers' Attack 4 (11.6.5); a card's block
    gets nothing.  No unit may take damage this turn."""
    g = heat_game(content, tables, 0)
    g.do("next_phase")                                   # ranged -> block
    g.do("sideways", 0 | (3 << 7))                       # March sideways: Block 1, no bonus
    assert g.ut.block_pool == [1, 0, 0, 0]
    g.activate(0, PEASANT_BLOCK_)
    assert g.ut.block_pool == [5, 0, 0, 0]


@pytest.mark.covers("into_the_heat", "basic")
def test_into_the_heat_units_cannot_take_damage(content, tables):
    g = heat_game(content, tables, 0)
    g.do("next_phase")
    g.do("next_phase")
    assert g.turn["phase"] == PH_COMBAT_DAMAGE
    g.do("damage_from", 0)
    assert "damage_unit" not in g.kinds() and g.kinds().count("damage_hero") == 1
    with pytest.raises(ValueError):
        g.do("damage_unit", 0)


def test_into_the_heat_only_at_the_start_of_combat(content, tables):
    g = Game(content, tables, hand=["into_the_heat", "march"])
    g.ut.set_unit(0, "peasants")
    g.ut.start_combat(["prowlers"])
    g.do("next_phase")                                   # an action taken in the combat
    assert not any(a.startswith("play(hand=0") for a in g.actions())
    g2 = Game(content, tables, hand=["into_the_heat"])
    assert not any(a.startswith("play(hand=0") for a in g2.actions())     # no combat


PEASANT_BLOCK_ = 1


# -- Heroic Tale (10.4, 10.6) ----------------------------------------------------------------

@pytest.mark.covers("heroic_tale", "powered")
def test_heroic_tale_powered_reputation_and_fame_per_unit_recruited(content, tables):
    """Heroic Tale powered (white die) at a village: Influence 6 (reputation 0: no modifier,
    10.2.3); recruiting Peasants (4) gives Reputation +1 and Fame +1."""
    g = Game(content, tables, site="village", hand=["heroic_tale"])
    g.eng.set_dice(["white"])
    g.ut.set_unit_offer(["peasants", "herbalists"])
    g.do("interact")
    before = (g.player["reputation"], g.player["fame"])
    g.play(0, powered=1, pay=PAY_DIE + 0)
    assert g.turn["influence"] == 6 and (g.player["reputation"], g.player["fame"]) == before
    g.recruit(0)
    assert (g.player["reputation"], g.player["fame"]) == (before[0] + 1, before[1] + 1)


@pytest.mark.covers("heroic_tale", "basic")
def test_heroic_tale_basic_reputation_only_and_only_while_interacting(content, tables):
    g = Game(content, tables, site="village", hand=["heroic_tale", "promise"])
    g.ut.set_unit_offer(["peasants"])
    assert not any(a.startswith("play(hand=0") for a in g.actions())   # 10.2: interaction only
    g.do("interact")
    before = (g.player["reputation"], g.player["fame"])
    g.play(0)
    g.play(0)                                            # Promise: Influence 2 -> 5
    g.recruit(0)
    assert (g.player["reputation"], g.player["fame"]) == (before[0] + 1, before[1])


# -- Blood of Ancients basic (12.1.1, 5.4, 6.4.2) --------------------------------------------

@pytest.mark.covers("blood_of_ancients", "basic")
def test_blood_of_ancients_basic_wound_and_crystal_for_an_offer_aa_to_hand(G):
    """Only a crystal of the colour of the AA in offer slot 0 can pay (the black die is not
    a basic colour, 5.1.7): one Wound to hand, the crystal is spent, that AA goes to hand."""
    from mksim.content import load_content
    colour = {c["id"]: c["colour"] for c in load_content()["advanced_actions"]}
    offer = G.core_.to_dict()["advanced_action_offer"]
    col = colour[offer[0]]
    cr = [0, 0, 0, 0]
    cr[("red", "blue", "white", "green").index(col)] = 1
    set_crystals(G, cr)
    G.set_dice(["black"])
    G.T.set_hand(["blood_of_ancients"])
    G.apply(play_code(0))
    if sum(colour[offer[k]] == col for k in range(3)) > 1:
        G.apply(encode("choose", 0))                     # offer slot 0
    assert sorted(G.T.hand) == sorted(["wound", offer[0]]) and crystals(G) == [0, 0, 0, 0]
    assert player(G)["stats"]["cards_gained"] == [0, 1, 0, 0]      # Blood of Ancients: an AA gained


def test_blood_of_ancients_basic_not_playable_without_mana(G):
    set_crystals(G, [0, 0, 0, 0])
    G.set_dice(["black"])
    G.T.set_hand(["blood_of_ancients"])
    assert not any(a.startswith("play(hand=0, powered=0") for a in acts(G))
