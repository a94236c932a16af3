"""The Advanced Action handlers added in ext/_fx_advanced.pyx (Blood of Ancients powered,
Chivalry, Dodge and Weave, Diplomacy, Learning, Magic Talent powered, Maximal Effect,
Peaceful Moment, Stout Resolve, Temporal Portal, In Need), the Concentration / Will Focus
bonus on Influence, Attack and Block, card bonuses around unit activation, and enemy_armor
floors.  Card texts: mksim/data/advanced_actions.toml; enemy numbers from enemies.toml
(prowlers Armor 3 / Attack 4, swordsmen Armor 5 / Attack 6)."""
import pytest

from interaction_setup import Game, PAY_TOKEN
from content_edit import replace_once
from test_advanced_actions import day_turn
from mksim._combat import CombatTester
from mksim._engine import AdvancedTester, UnitsTester, describe, encode
from mksim._scoring import ScoringTester
from mksim.content import load_content

PAY_NONE, PAY_CRYSTAL, PAY_DIE = 31, 6, 10
ASK_DONE = 63
RED, BLUE, WHITE, GREEN = range(4)


def play_code(hand, powered=0, pay=PAY_NONE, pay2=PAY_NONE):
    return encode("play", hand | (powered << 7) | (pay << 8) | (pay2 << 13))


class _G:
    def __init__(self, eng, T, core):
        self.eng, self.T, self.core_ = eng, T, core
        self.A = AdvancedTester(eng)
        self.U = UnitsTester(eng)
        self.S = ScoringTester(core)

    def __getattr__(self, name):
        return getattr(self.eng, name)

    def acts(self):
        return [describe(int(a)) for a in self.eng.legal_actions()]

    @property
    def player(self):
        return self.core_.to_dict()["players"][0]

    def choose(self, k):
        self.eng.apply(encode("choose", k))


@pytest.fixture
def G(content, tables):
    """A regular turn in the movement part (Day), Source dice red blue white green gold."""
    return day_turn(content, tables, _G)


def to_block_phase(G, enemies):
    G.T.begin(enemies)
    G.T.next_phase()
    assert G.T.phase == "block"


# -- Concentration / Will Focus (card text: +N to Move, Influence, Block or Attack) ------------

def test_concentration_powered_rage_in_attack_phase_gives_attack_6(G):
    """Concentration powered (green die) with Rage: Rage's strong effect Attack 4, +2 = 6."""
    G.T.set_hand(["concentration", "rage"])
    G.T.begin(["swordsmen"])
    G.T.set_phase("attack")
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    G.choose(0)                                          # Rage (hand index 0 after Concentration left)
    assert G.T.attack_value([0]) == 6
    assert G.A.turn["concentration"] == 0                # its modifier is used up


def test_will_focus_powered_determination_block_5_plus_3(G):
    """Will Focus (+3) with Determination: Block 5 + 3 = 8 against swordsmen (Attack 6)."""
    G.T.set_hand(["will_focus", "determination"])
    to_block_phase(G, ["swordsmen"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    G.choose(0)
    assert G.T.block_value(0) == 8


def test_concentration_bonus_goes_once_to_the_first_amount_then_next_card_has_none(G):
    """The +2 is for the card played with Concentration only: a later Rage powered (red die
    is gone with the green one: a red crystal pays) gives its plain Attack 4."""
    G.T.set_hand(["concentration", "rage", "rage"])
    G.S.set_crystals(0, [1, 0, 0, 0])
    G.T.begin(["swordsmen"])
    G.T.set_phase("attack")
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    G.choose(0)
    G.apply(play_code(0, powered=1, pay=PAY_CRYSTAL + RED))
    assert G.T.attack_value([0]) == 6 + 4


def test_concentration_promise_during_interaction_influence_4_plus_2(content, tables):
    """10.2.2: Promise powered through Concentration while interacting: Influence 4 + 2."""
    g = Game(content, tables, site="village", hand=["concentration", "promise"])
    g.eng.set_dice(["green"])
    g.do("interact")
    g.play(0, powered=1, pay=PAY_DIE + 0)
    g.do("choose", 0)
    assert g.turn["influence"] == 6


def test_tirelessness_bonus_is_not_given_to_a_unit_and_waits_for_the_next_card(content, tables):
    """Tirelessness basic: Move 2, the next card giving Move +1.  Foresters' Move 2 (a unit,
    not a card) gets no bonus and does not use it up; March then gives 2 + 1."""
    g = Game(content, tables, hand=["tirelessness", "march"])
    g.ut.set_unit(0, "foresters")
    g.play(0)
    g.activate(0, 0)
    assert AdvancedTester(g.eng).turn["move_points"] == 4
    g.play(0)
    assert AdvancedTester(g.eng).turn["move_points"] == 7


def test_tirelessness_pending_across_a_units_choice_is_kept(content, tables):
    """A unit ability waiting for a choice (Herbalists' ready_unit asks for the unit) while a
    Tirelessness bonus is pending: no error, and the bonus still goes to the next card."""
    g = Game(content, tables, hand=["tirelessness", "march"])
    g.ut.set_unit(0, "herbalists")
    g.ut.set_unit(1, "peasants", ready=0)
    g.ut.set_unit(2, "foresters", ready=0)
    g.play(0)
    g.activate(0, 1)                                     # ready_unit: two spent units to pick
    assert g.kinds() == ["choose"]
    g.do("choose", 1)
    assert g.ut.unit(1)["ready"] is True
    g.play(0)
    assert AdvancedTester(g.eng).turn["move_points"] == 2 + 2 + 1


# -- In Need ------------------------------------------------------------------------------------

@pytest.mark.covers("in_need", "basic@ll")
def test_in_need_ll_basic_influence_3_plus_1_per_wound_in_hand_and_on_units(ll_content, ll_tables):
    """In Need basic, Lost Legion printing (LL-2.10.1, LL-2.10.7), at a village (reputation
    0): 3 + 2 Wounds in hand + 1 on a unit = 6."""
    g = Game(ll_content, ll_tables, site="village", hand=["in_need", "wound", "wound"])
    g.ut.set_unit(0, "peasants", wounds=1)
    g.do("interact")
    g.play(0)
    assert g.turn["influence"] == 6


@pytest.mark.covers("in_need", "powered@ll")
def test_in_need_ll_powered_influence_5_plus_2_per_wound(ll_content, ll_tables):
    """In Need powered, Lost Legion printing (LL-2.10.1) (green die): 5 + 2 x (1 in hand + 2
    on a poisoned unit) = 11."""
    g = Game(ll_content, ll_tables, site="village", hand=["in_need", "wound"])
    g.ut.set_unit(0, "peasants", wounds=2)
    g.eng.set_dice(["green"])
    g.do("interact")
    g.play(0, powered=1, pay=PAY_DIE + 0)
    assert g.turn["influence"] == 11


# -- Diplomacy (LL-9.7.1) ---------------------------------------------------------------------------

@pytest.mark.covers("diplomacy", "basic")
def test_diplomacy_basic_influence_becomes_physical_block(G):
    """Diplomacy basic in the Block phase: Influence 2, Promise adds 2 (Influence playable
    now); 4 Influence spent as Block 4 blocks the prowlers (Attack 4)."""
    G.T.set_hand(["diplomacy", "promise"])
    to_block_phase(G, ["prowlers"])
    G.apply(play_code(0))
    assert "influence_block(0)" in G.acts() and "influence_block(1)" not in G.acts()
    G.apply(play_code(0))                                # Promise basic: Influence 2
    for _ in range(4):
        G.apply(encode("influence_block", 0))
    assert G.U.block_pool == [4, 0, 0, 0] and G.U.turn["influence"] == 0
    assert "influence_block(0)" not in G.acts()
    G.apply(encode("block", 0))
    assert G.T.enemy(0)["blocked"] == 1


@pytest.mark.covers("diplomacy", "powered.1")
def test_diplomacy_powered_ice_block(G):
    """Diplomacy powered (white die), Ice chosen: Influence 4 as Ice Block (option 2)."""
    G.T.set_hand(["diplomacy"])
    to_block_phase(G, ["prowlers"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    G.choose(0)                                          # ice
    assert G.A.turn["influence_block"] == 4
    G.apply(encode("influence_block", 2))
    assert G.U.block_pool == [0, 0, 1, 0] and G.U.turn["influence"] == 3


def test_diplomacy_not_playable_while_moving(G):
    G.T.set_hand(["diplomacy"])
    assert not any(a.startswith("play(hand=0") for a in G.acts())


# -- Learning (LL-9.7.11) ---------------------------------------------------------------------

@pytest.mark.covers("learning", "basic")
def test_learning_basic_buys_one_aa_for_6_to_the_discard_pile_once(content, tables):
    g = Game(content, tables, site="village", hand=["learning"])
    A = AdvancedTester(g.eng)
    A.set_aa_offer(["agility", "in_need", "training"])
    g.do("interact")
    g.play(0)
    assert g.turn["influence"] == 2 and g.of_kind("learning") == []
    g.ut.set_turn(influence=7)
    assert g.of_kind("learning") == ["learning(0)", "learning(1)", "learning(2)"]
    g.do("learning", 1)
    assert g.turn["influence"] == 1
    assert g.player["discard"] == ["in_need"]
    assert g.player["stats"]["cards_gained"] == [0, 1, 0, 0]     # Learning: an AA gained
    g.ut.set_turn(influence=7)
    assert g.of_kind("learning") == []                   # once this turn


@pytest.mark.covers("learning", "powered")
def test_learning_powered_9_influence_aa_to_hand(content, tables):
    g = Game(content, tables, site="village", hand=["learning"])
    AdvancedTester(g.eng).set_aa_offer(["agility", "in_need", "training"])
    g.eng.set_dice(["white"])
    g.do("interact")
    g.play(0, powered=1, pay=PAY_DIE + 0)
    assert g.turn["influence"] == 4
    g.ut.set_turn(influence=9)
    g.do("learning", 0)
    assert g.player["hand"] == ["agility"] and g.turn["influence"] == 0
    assert g.player["stats"]["cards_gained"] == [0, 1, 0, 0]


# -- Chivalry, Dodge and Weave ----------------------------------------------------------------

@pytest.mark.covers("chivalry", "basic.2")
def test_chivalry_attack_2_reputation_plus_1_per_enemy_defeated(G):
    """Chivalry basic, second option: Attack 2 (+1 sideways = 3) defeats the prowlers
    (Armor 3): Reputation +1."""
    G.T.set_hand(["chivalry", "march"])
    G.T.begin(["prowlers"])
    G.T.set_phase("attack")
    rep = G.T.reputation
    G.apply(play_code(0))
    G.choose(1)
    G.apply(encode("sideways", 0 | (2 << 7)))
    G.apply(encode("attack", 1))
    assert "defeated" in G.T.enemy(0)["flags"] and G.T.reputation == rep + 1


@pytest.mark.covers("chivalry", "powered.2")
def test_chivalry_powered_two_enemies_reputation_and_fame_2(G):
    """Chivalry powered (white die), second option: Attack 4 + 2 sideways = 6 on two prowlers
    (Armor 3 + 3): Reputation +2, Fame +2 besides the enemies' Fame."""
    G.T.set_hand(["chivalry", "march", "march", "march", "march"])
    G.T.begin(["prowlers", "prowlers"])
    G.T.set_phase("attack")
    rep, fame = G.T.reputation, G.T.fame
    G.apply(play_code(0, powered=1, pay=PAY_DIE + WHITE))
    G.choose(1)
    for _ in range(2):
        G.apply(encode("sideways", 0 | (2 << 7)))
    G.apply(encode("attack", 3))
    assert G.T.reputation == rep + 2
    assert G.T.fame == fame + 2 * 2 + 2                  # prowlers Fame 2 each, + Chivalry 2


@pytest.mark.covers("chivalry", "basic.2")
def test_chivalry_bonus_lost_when_the_attack_fails(G):
    G.T.set_hand(["chivalry"])
    G.T.begin(["swordsmen"])
    G.T.set_phase("attack")
    rep = G.T.reputation
    G.apply(play_code(0))
    G.choose(1)
    assert encode("attack", 1) not in G.legal_actions()  # Attack 2 < Armor 5 fails: not offered (11.5.8)
    with pytest.raises(ValueError, match="illegal action attack"):
        G.apply(encode("attack", 1))
    G.apply(encode("next_phase"))                        # the unused pool and its bonus are lost (11.4.5)
    assert "defeated" not in G.T.enemy(0)["flags"] and G.T.reputation == rep


@pytest.mark.covers("dodge_and_weave", "basic")
def test_dodge_and_weave_basic_attack_1_when_no_wound_was_taken(G):
    """Reduce the prowlers' Attack 4 by 2, block the rest with 2 sideways cards: no Wound, so
    the Attack phase starts with Attack 1 in the pool."""
    G.T.set_hand(["dodge_and_weave", "march", "march"])
    to_block_phase(G, ["prowlers"])
    G.apply(play_code(0))
    G.choose(0)                                          # the prowlers' attack (slot 0, attack 0)
    assert G.T.damage_of(0) == 2
    G.apply(encode("sideways", 0 | (3 << 7)))
    G.apply(encode("sideways", 0 | (3 << 7)))
    G.apply(encode("block", 0))
    assert G.A.turn["dodge_attack"] == 1
    G.apply(encode("next_phase"))                        # nothing to assign: the Attack phase
    assert G.T.phase == "attack" and G.T.attack_value([0]) == 1
    assert G.A.turn["dodge_attack"] == 0


@pytest.mark.covers("dodge_and_weave", "basic")
def test_dodge_and_weave_no_attack_after_a_wound(G):
    """Same, but the reduced Attack 2 is not blocked: the hero takes a Wound (Armor 2), so
    no Attack comes in the Attack phase."""
    G.T.set_hand(["dodge_and_weave"])
    to_block_phase(G, ["prowlers"])
    G.apply(play_code(0))
    G.choose(0)
    G.apply(encode("next_phase"))
    G.apply(encode("damage_from", 0))
    G.apply(encode("damage_hero"))
    assert G.T.wounds_this_combat == 1
    while G.T.phase != "attack":
        G.apply(encode("next_phase"))
    assert G.T.attack_value([0]) == 0


# -- Stout Resolve ------------------------------------------------------------------------------

@pytest.mark.covers("stout_resolve", "basic")
def test_stout_resolve_basic_attack_2_plus_1_for_a_discarded_wound(G):
    G.T.set_hand(["stout_resolve", "wound", "march"])
    G.T.begin(["prowlers"])
    G.T.set_phase("attack")
    G.apply(play_code(0))                                # only Attack is usable: no question
    assert G.acts() == ["choose(0)", "choose(63)"]       # the Wound (index 0) or done
    G.choose(0)
    assert G.T.attack_value([0]) == 3
    assert G.T.hand == ["march"] and G.T.discard == ["wound"]


@pytest.mark.covers("stout_resolve", "powered")
def test_stout_resolve_powered_block_3_plus_2_per_card_one_wound_at_most(G):
    """Powered (green die): Block 3; discard Wound, March, March: +6 -> Block 9; a second
    Wound is not offered."""
    G.T.set_hand(["stout_resolve", "wound", "march", "wound", "march"])
    to_block_phase(G, ["swordsmen"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    G.choose(0)                                          # wound
    assert G.acts() == ["choose(0)", "choose(2)", "choose(63)"]   # hand: march wound march
    G.choose(0)                                          # march
    G.choose(1)                                          # march (hand: wound): nothing left
    assert not any(a.startswith("choose") for a in G.acts())   # to discard, the Block is given
    assert G.T.block_value(0) == 9 and G.T.hand == ["wound"]


@pytest.mark.covers("stout_resolve", "basic")
def test_stout_resolve_move_in_the_movement_part(G):
    G.T.set_hand(["stout_resolve"])
    G.apply(play_code(0))
    assert G.A.turn["move_points"] == 2


# -- Maximal Effect (LL-9.6.1, LL-9.7.19) ----------------------------------------------------

@pytest.mark.covers("maximal_effect", "basic")
def test_maximal_effect_basic_march_three_times_and_thrown_away(G):
    G.T.set_hand(["maximal_effect", "march"])
    removed = G.player["removed"]
    G.apply(play_code(0))
    assert G.A.turn["move_points"] == 6
    assert G.T.hand == [] and G.player["removed"] == removed + 1


@pytest.mark.covers("maximal_effect", "powered")
def test_maximal_effect_powered_determination_block_10_in_one_block(G):
    """LL-9.7.19: strong Maximal Effect (red die) on Determination: Block 10 against one
    attack."""
    G.T.set_hand(["maximal_effect", "determination", "march"])
    to_block_phase(G, ["swordsmen"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))   # only Determination is usable: no question
    assert G.T.block_value(0) == 10 and G.T.hand == ["march"]


@pytest.mark.covers("maximal_effect", "basic")
def test_maximal_effect_keeps_the_borrowed_cards_colour_ll_9_7_22(G):
    """Rage (red) through Maximal Effect basic: Attack 2 x 3 = 6, one effect; a red card."""
    G.T.set_hand(["maximal_effect", "rage"])
    G.T.begin(["swordsmen"])
    G.T.set_phase("attack")
    G.apply(play_code(0))
    for _ in range(3):
        G.choose(0)                                      # attack(2) each time
    assert G.T.attack_value([0]) == 6


def test_maximal_effect_needs_another_action_card(G):
    G.T.set_hand(["maximal_effect", "wound"])
    assert not any(a.startswith("play(hand=0") for a in G.acts())


# -- Blood of Ancients powered, Magic Talent powered -----------------------------------------

@pytest.mark.covers("blood_of_ancients", "powered")
def test_blood_of_ancients_powered_uses_an_offer_aa_powered_effect_wound_to_discard(G):
    """Agility in the offer: its powered effect (Move 4 + conversion) without mana; the
    Wound goes to the discard pile; Agility stays in the offer."""
    G.A.set_aa_offer(["in_need", "agility", "counterattack"])   # (Learning would be usable too, LL-9.7.12)
    G.T.set_hand(["blood_of_ancients"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    # only Agility's powered effect is usable while moving: no offer question; the Wound's place
    assert G.acts() == ["choose(0)", "choose(1)"]
    G.choose(1)                                          # wound to the discard pile
    assert G.A.turn["move_points"] == 4
    assert G.T.discard == ["wound"] and G.T.hand == []
    assert G.core_.to_dict()["advanced_action_offer"][1] == "agility"


@pytest.mark.covers("blood_of_ancients", "powered")
def test_blood_of_ancients_powered_wound_to_hand(G):
    G.A.set_aa_offer(["agility", "in_need", "counterattack"])
    G.T.set_hand(["blood_of_ancients"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    G.choose(0)                                          # wound to hand
    assert G.T.hand == ["wound"] and G.A.turn["move_points"] == 4


@pytest.mark.covers("magic_talent", "powered")
def test_magic_talent_powered_pays_a_mana_for_an_offer_spell_to_the_discard_pile(G):
    G.U.set_spell_offer(["fireball", "snowstorm", "tremor"])
    G.S.set_crystals(0, [0, 0, 0, 1])
    G.set_dice(["blue", "black"])
    G.T.set_hand(["magic_talent"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 0))    # blue die for Magic Talent
    # only green can be paid now (the green crystal): no question at all
    assert G.T.discard == ["tremor"]
    assert G.player["crystals"]["green"] == 0
    assert G.player["stats"]["cards_gained"] == [0, 0, 1, 0]     # Magic Talent: a Spell gained


# -- Peaceful Moment, Temporal Portal (LL-8.1) ---------------------------------------------------

@pytest.mark.covers("peaceful_moment", "powered")
def test_peaceful_moment_powered_as_action_heal_and_ready_a_unit(content, tables):
    """Influence 6: Heal 1 for 2, ready a level-1 Peasants for 2: 2 left; no more movement."""
    g = Game(content, tables, hand=["peaceful_moment", "wound"])
    g.ut.set_unit(0, "peasants", ready=0)
    g.eng.set_dice(["white"])
    g.play(0, powered=1, pay=PAY_DIE + 0)
    assert g.turn["influence"] == 6 and g.turn["action_taken"] is True
    assert g.of_kind("peaceful") == ["peaceful(0)", "peaceful(1)"]
    assert g.of_kind("move") == []
    g.do("peaceful", 0)
    g.do("peaceful", 1)
    assert g.turn["healing"] == 1 and g.turn["influence"] == 2 and g.ut.unit(0)["ready"] is True


@pytest.mark.covers("peaceful_moment", "basic")
def test_peaceful_moment_basic_heal_only_and_not_while_resting(content, tables):
    g = Game(content, tables, hand=["peaceful_moment"])
    g.ut.set_unit(0, "peasants", ready=0)
    g.play(0)
    assert g.turn["influence"] == 3
    assert g.of_kind("peaceful") == ["peaceful(0)"]
    g.do("peaceful", 0)
    assert g.turn["healing"] == 1 and g.of_kind("peaceful") == []


@pytest.mark.covers("temporal_portal", "basic")
def test_temporal_portal_basic_moves_one_safe_space_and_hand_limit_plus_1(G):
    G.T.set_hand(["temporal_portal"])
    pos = G.player["position"]
    G.apply(play_code(0))
    opts = [a for a in G.acts() if a != "choose(63)"]
    assert opts and "choose(63)" in G.acts()
    k = int(opts[0][7:-1])
    G.choose(k)
    assert G.player["position"] != pos
    assert G.A.turn["hand_limit_bonus"] == 1 and G.A.turn["action_taken"] is True
    assert not any(a.startswith("move(") for a in G.acts())


@pytest.mark.covers("temporal_portal", "powered.2")
def test_temporal_portal_powered_hand_limit_2_may_stay(G):
    """The second powered option keeps the basic 1-space move, which the hero may decline."""
    G.T.set_hand(["temporal_portal"])
    pos = G.player["position"]
    G.apply(play_code(0, powered=1, pay=PAY_DIE + BLUE))
    G.choose(1)                                          # the second option: hand limit +2
    G.choose(ASK_DONE)                                   # stay
    assert G.player["position"] == pos and G.A.turn["hand_limit_bonus"] == 2


# -- enemy_armor with a floor (11.4.4) -----------------------------------------------------------

def test_enemy_armor_floor_2_stops_the_reduction_at_2(tmp_path, data_copy):
    """Delphana Masters' Armor -5 edited to "min 2": swordsmen Armor 5 -> 2 (not 1)."""
    replace_once(data_copy / "units.toml", 'enemy_armor(-5, target=one, floor=1)',
                 'enemy_armor(-5, target=one, floor=2)')
    content = load_content(data_copy)
    tables = content.compile()
    g = Game(content, tables)
    g.ut.set_unit(0, "delphana_masters")
    g.ut.start_combat(["swordsmen"])
    g.ut.set_turn(mana={"green": 1})
    g.activate(0, 2, pay=PAY_TOKEN["green"])
    assert CombatTester(g.core).enemy_armor(0) == 2


@pytest.mark.covers("magic_talent", "basic")
def test_magic_talent_basic_discards_a_red_card_to_cast_the_offer_fireball(G):
    """Magic Talent basic: discard Rage (red); the red Spell of the offer (Fireball) is cast
    with the red die (its basic effect by Day, 5.4.3) and stays in the offer."""
    G.U.set_spell_offer(["snowstorm", "fireball", "tremor"])
    G.set_dice(["red", "black"])
    G.T.set_hand(["magic_talent", "rage"])
    G.T.begin(["prowlers"])
    assert G.T.phase == "ranged"
    G.apply(play_code(0))                                # no question: one card, one Spell, one payment
    assert G.T.attack_value([0]) == 5
    assert G.T.discard == ["rage"] and G.T.hand == []
    assert G.core_.to_dict()["spell_offer"][1] == "fireball"


@pytest.fixture
def GL(ll_content, ll_tables):
    """G with The Lost Legion's printings (LL-2.10.2)."""
    return day_turn(ll_content, ll_tables, _G)


@pytest.mark.covers("magic_talent", "basic@ll")
def test_magic_talent_ll_basic_not_playable_without_a_card_of_an_offer_spells_colour(GL):
    G = GL    # Lost Legion printing: the Spell must be of the discarded card's colour (LL-2.10.1)
    G.U.set_spell_offer(["snowstorm", "fireball", "tremor"])
    G.T.set_hand(["magic_talent", "promise"])           # white: no white Spell in the offer
    G.T.begin(["prowlers"])
    assert not any(a.startswith("play(hand=0, powered=0") for a in G.acts())


def test_maximal_effect_on_temporal_portal_uses_it_once_ll_9_7_21(G):
    """Strong Maximal Effect (red die) on Temporal Portal: its strong effect counts as the
    action, so only one use: Hand limit +2 once, no second question."""
    G.T.set_hand(["maximal_effect", "temporal_portal"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))
    G.choose(1)                                          # hand limit +2 instead of +1
    G.choose(ASK_DONE)                                   # its 1-space move declined
    assert G.A.turn["hand_limit_bonus"] == 2
    assert not any(a.startswith("choose") for a in G.acts())


def test_concentration_on_stout_resolve_adds_2_to_the_chosen_influence(content, tables):
    """Concentration (green token) with Stout Resolve while interacting: its strong effect
    Influence 3 (no card to discard) + 2 = 5."""
    g = Game(content, tables, site="village", hand=["concentration", "stout_resolve"])
    g.ut.set_turn(mana={"green": 1})
    g.do("interact")
    g.play(0, powered=1, pay=PAY_TOKEN["green"])
    g.do("choose", 0)                                    # Stout Resolve (Concentration asks)
    assert g.turn["influence"] == 5


def test_cards_that_borrow_effects_do_not_borrow_each_other(G):
    """Maximal Effect in hand and in the offer, Blood of Ancients in hand: Blood's powered
    effect cannot use the offer's Maximal Effect, and Maximal Effect cannot take Blood of
    Ancients (LL-9.6.1: one effect borrowed, no chains); the offer's Agility can be used."""
    G.A.set_aa_offer(["maximal_effect", "agility", "in_need"])
    G.T.set_hand(["blood_of_ancients", "maximal_effect"])
    acts = G.acts()
    assert not any(a.startswith("play(hand=1, powered=1") for a in acts)   # no powered target
    assert any(a.startswith("play(hand=1, powered=0") for a in acts)       # Blood's basic: a plain effect
    G.apply(play_code(0, powered=1, pay=PAY_DIE + RED))            # Blood: only Agility (slot 1)
    assert G.acts() == ["choose(0)", "choose(1)"]                  # straight to the Wound's place
    G.choose(1)
    assert G.A.turn["move_points"] == 4


def test_maximal_effect_on_peaceful_moment_influence_3_three_times_one_action(content, tables):
    """Maximal Effect basic on Peaceful Moment: one action (LL-8.1.2), Influence 3 x 3 = 9:
    four Heal 1 for 8."""
    g = Game(content, tables, hand=["maximal_effect", "peaceful_moment"])
    g.play(0)
    assert g.turn["influence"] == 9 and g.turn["action_taken"] is True
    for _ in range(4):
        g.do("peaceful", 0)
    assert g.turn["healing"] == 4 and g.of_kind("peaceful") == []


@pytest.mark.covers("peaceful_moment", "powered")
def test_peaceful_moment_ready_needs_2_influence_per_level(content, tables):
    """Peaceful Moment powered: Influence 6; Heal 1 x 2 leaves 2 - a level-2 unit (4) can no
    longer be readied, a level-1 one still could."""
    g = Game(content, tables, hand=["peaceful_moment"])
    g.ut.set_unit(0, "utem_crossbowmen", ready=0)        # level 2
    g.eng.set_dice(["white"])
    g.play(0, powered=1, pay=PAY_DIE + 0)
    assert g.of_kind("peaceful") == ["peaceful(0)", "peaceful(1)"]
    g.do("peaceful", 0)
    g.do("peaceful", 0)
    assert g.turn["influence"] == 2 and g.of_kind("peaceful") == ["peaceful(0)"]


def test_maximal_effect_on_improvisation_needs_a_card_to_discard_once_it_is_gone(G):
    """6.2.1: Improvisation's basic effect needs another card to discard.  With Maximal
    Effect and a Wound besides it there is none (Maximal Effect is not in hand then): not
    offered.  With March: one use (discard March, Attack 3); the next two are lost."""
    G.T.set_hand(["maximal_effect", "improvisation", "wound"])
    G.T.begin(["swordsmen"])
    G.T.set_phase("attack")
    assert not any(a.startswith("play(hand=0") for a in G.acts())
    G.T.set_hand(["maximal_effect", "improvisation", "march"])
    G.apply(play_code(0))                                # Improvisation: the only target
    G.choose(0)                                          # discard March (hand: march)
    G.choose(2)                                          # attack(3)
    assert G.T.attack_value([0]) == 3
    assert not any(a.startswith("choose") for a in G.acts())
    assert G.T.hand == [] and G.T.discard == ["march"]


@pytest.mark.covers("magic_talent", "basic@ll")
def test_magic_talent_ll_spell_must_stay_castable_after_paying_its_mana(GL):
    """Magic Talent basic with Mana Bolt (blue) in the offer, in the Ranged phase: the gold
    die pays Mana Bolt itself, leaving only red crystals for its own mana - red gives a melee
    Attack, useless now - so the blue card cannot be discarded for it (6.2.1)."""
    G = GL    # Lost Legion printing (same colour, LL-2.10.1)
    G.U.set_spell_offer(["mana_bolt", "call_to_arms", "whirlwind"])
    G.S.set_crystals(0, [3, 0, 0, 0])
    G.set_dice(["gold", "black"])
    G.T.set_hand(["magic_talent", "temporal_portal"])
    G.T.begin(["prowlers"])
    assert G.T.phase == "ranged"
    assert not any(a.startswith("play(hand=0, powered=0") for a in G.acts())
    G.S.set_crystals(0, [3, 0, 1, 0])                    # a white crystal: Ranged Ice Attack 6
    G.apply(play_code(0))
    assert G.T.attack_value([0]) == 6 and G.player["crystals"]["white"] == 0


def test_concentration_is_not_its_own_targets_cost(G):
    """Concentration with Ritual Attack in the Ranged phase: Ritual Attack's strong effect
    throws away another Action card, whose colour must give a usable Attack - only Rage
    (red: melee Fire Attack, useless now) is left once Concentration is played, so
    Concentration powered is not offered (it may not count itself, green: Siege)."""
    G.T.set_hand(["concentration", "ritual_attack", "rage"])
    G.T.begin(["prowlers"])
    assert G.T.phase == "ranged"
    assert not any(a.startswith("play(hand=0, powered=1") for a in G.acts())
    G.T.set_hand(["concentration", "ritual_attack", "rage", "march"])     # green: Siege Fire 3
    G.apply(play_code(0, powered=1, pay=PAY_DIE + GREEN))
    G.choose(0)                                          # Ritual Attack
    G.choose(1)                                          # throw away March (hand: rage march)
    assert G.T.attack_value([0]) == 3 + 2 and G.T.hand == ["rage"]
