"""Named handlers of the Basic Action cards (ext/_fx_basic.pyx): Crystallize / Crystal Joy
(5.3.2), Mana Draw / Mana Pull (5.5.6), Concentration / Will Focus (6.1.8), Tirelessness,
Noble Manners.  Rule numbers in the test names; card texts in mksim/data/basic_actions.toml."""
import pytest

from mksim._engine import Engine, describe, encode
from mksim._scoring import ScoringTester
from mksim._state import GameCore

ASK_DONE = 63
PAY_NONE = 31


def start(content, tables, hand, tokens=None, dice=None, seed=1):
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", seed)
    eng = Engine(core, tables, content, "first_reconnaissance")
    eng.apply(encode("tactic", content.ids("tactics").index("early_bird")))
    st = ScoringTester(core)
    st.set_cards(0, hand=hand)
    eng.apply(encode("regular_turn"))
    if tokens is not None:
        st.set_mana_tokens(tokens)
    if dice is not None:
        eng.set_dice(dice)
    return core, eng, st


def acts(eng):
    return [describe(int(a)) for a in eng.legal_actions()]


def play(hand, powered=0, pay=PAY_NONE):
    return encode("play", hand | (powered << 7) | (pay << 8) | (PAY_NONE << 13))


def legal(eng, action):
    return action in [int(a) for a in eng.legal_actions()]


# -- Crystallize (5.3.2) ----------------------------------------------------------------------

@pytest.mark.covers("crystallize", "basic")
def test_5_3_2_crystallize_basic_pays_one_red_mana_for_a_red_crystal(content, tables):
    core, eng, st = start(content, tables, ["crystallize", "march"],
                          tokens=[1, 0, 0, 0, 0, 0], dice=["black", "black", "black"])
    eng.apply(play(0))
    assert acts(eng) == ["choose(0)"]            # only red can be paid (black unusable by Day)
    eng.apply(encode("choose", 0))
    assert acts(eng) == ["choose(0)"]            # payment code 0: the red token
    eng.apply(encode("choose", 0))
    assert st.player(0)["crystals"]["red"] == 1
    assert st.mana_tokens()[0] == 0


def test_6_2_1_crystallize_basic_is_not_playable_without_basic_mana(content, tables):
    core, eng, st = start(content, tables, ["crystallize", "march"],
                          tokens=[0, 0, 0, 0, 0, 0], dice=["black", "black", "black"])
    assert not legal(eng, play(0))


@pytest.mark.covers("crystallize", "basic")
def test_5_1_5_gold_die_pays_crystallize_as_any_basic_colour(content, tables):
    core, eng, st = start(content, tables, ["crystallize", "march"], dice=["gold", "black", "black"])
    eng.apply(play(0))
    assert acts(eng) == ["choose(0)", "choose(1)", "choose(2)", "choose(3)"]
    eng.apply(encode("choose", 2))               # white
    eng.apply(encode("choose", 10))              # the gold Source die
    d = core.to_dict()
    assert d["turn"]["dice_used"] == 1
    crystals = d["players"][0]["crystals"]
    assert (crystals["white"] if isinstance(crystals, dict) else crystals[2]) == 1


# -- Mana Draw powered ------------------------------------------------------------------------

@pytest.mark.covers("mana_draw", "powered")
def test_mana_draw_powered_sets_a_die_gains_2_tokens_and_the_die_is_not_rerolled(content, tables):
    core, eng, st = start(content, tables, ["mana_draw", "march"],
                          tokens=[0, 0, 1, 0, 0, 0], dice=["red", "blue", "black"])
    eng.apply(play(0, 1, 2))                      # powered with the white token (5.4.1)
    assert acts(eng) == ["choose(0)", "choose(1)", "choose(2)"]
    eng.apply(encode("choose", 1))
    assert acts(eng) == ["choose(0)", "choose(1)", "choose(2)", "choose(3)", "choose(5)"]  # not gold
    eng.apply(encode("choose", 3))               # green
    assert st.mana_tokens()[3] == 2
    d = core.to_dict()
    assert d["source"]["dice"][1] == "green" and d["turn"]["dice_used"] == 0
    # the normal Source die is still available: March powered by the green token
    eng.apply(play(0, 1, 3))
    eng.apply(encode("end_turn"))
    assert core.to_dict()["source"]["dice"][1] == "green"   # returned without a reroll


# -- Mana Pull basic (5.5.6) ------------------------------------------------------------------

@pytest.mark.covers("mana_pull", "basic")
def test_5_5_6_mana_pull_one_extra_die_black_as_any_colour(content, tables):
    core, eng, st = start(content, tables, ["mana_pull", "march", "stamina"],
                          dice=["black", "green", "blue"])
    assert not legal(eng, play(1, 1, 10))        # black die unusable by Day (5.1.5)
    eng.apply(play(0))
    assert core.to_dict()["turn"]["extra_dice"] == 1
    assert legal(eng, play(0, 1, 10))            # March (green) powered by the black die
    eng.apply(play(0, 1, 10))
    assert legal(eng, play(0, 1, 12))            # second die: Stamina (blue) by the blue die
    eng.apply(play(0, 1, 12))
    d = core.to_dict()
    assert d["turn"]["move_points"] == 8 and d["turn"]["dice_used"] == 2


# -- Concentration / Will Focus (6.1.8) ---------------------------------------------------------

@pytest.mark.covers("concentration", "powered")
def test_concentration_powers_march_for_free_plus_2_move(content, tables):
    core, eng, st = start(content, tables, ["concentration", "march", "rage"],
                          tokens=[0, 0, 0, 1, 0, 0])
    eng.apply(play(0, 1, 3))                      # Concentration powered (green token)
    assert acts(eng) == ["choose(0)"]             # March; Rage's Attack 4 is not usable now
    eng.apply(encode("choose", 0))
    d = core.to_dict()
    assert d["turn"]["move_points"] == 4 + 2
    assert d["players"][0]["hand"] == ["rage"] and len(d["players"][0]["play_area"]) == 2


@pytest.mark.covers("will_focus", "powered")
def test_will_focus_adds_3_to_improvisation_move_5(content, tables):
    core, eng, st = start(content, tables, ["will_focus", "improvisation", "rage", "march"],
                          tokens=[0, 0, 0, 1, 0, 0])
    eng.apply(play(0, 1, 3))
    eng.apply(encode("choose", 0))                # Improvisation (powered, no mana)
    eng.apply(encode("choose", 0))                # discard Rage (6.2.1)
    assert acts(eng) == ["choose(0)"]             # Move 5 only (Influence/Attack/Block later)
    eng.apply(encode("choose", 0))
    assert core.to_dict()["turn"]["move_points"] == 5 + 3


def test_concentration_not_playable_without_another_action_card(content, tables):
    core, eng, st = start(content, tables, ["concentration", "rage"], tokens=[0, 0, 0, 1, 0, 0])
    assert not legal(eng, play(0, 1, 3))


# -- Tirelessness -------------------------------------------------------------------------------

@pytest.mark.covers("tirelessness", "basic")
def test_tirelessness_basic_plus_1_move_to_the_next_card_only(content, tables):
    core, eng, st = start(content, tables, ["tirelessness", "march", "stamina"])
    eng.apply(play(0))                            # Move 2
    eng.apply(play(0))                            # March: Move 2 + 1
    eng.apply(play(0))                            # Stamina: Move 2
    assert core.to_dict()["turn"]["move_points"] == 2 + 3 + 2


@pytest.mark.covers("tirelessness", "powered")
def test_tirelessness_powered_plus_1_to_every_later_card_even_sideways(content, tables):
    core, eng, st = start(content, tables, ["tirelessness", "march", "rage"],
                          tokens=[0, 1, 0, 0, 0, 0])
    eng.apply(play(0, 1, 1))                      # Move 4 (blue token)
    eng.apply(play(0))                            # March: 2 + 1
    eng.apply(encode("sideways", 0))              # Rage sideways: 1 + 1
    assert core.to_dict()["turn"]["move_points"] == 4 + 3 + 2


# -- Crystal Joy ----------------------------------------------------------------------------------

def test_crystal_joy_returns_to_hand_by_discarding_a_non_wound_card(content, tables):
    core, eng, st = start(content, tables, ["crystal_joy", "march", "rage", "wound"],
                          tokens=[1, 0, 0, 0, 0, 0], dice=["black", "black", "black"])
    eng.apply(play(0))
    eng.apply(encode("choose", 0))                # red
    eng.apply(encode("choose", 0))                # red token
    eng.apply(encode("end_turn"))
    returns = [a for a in acts(eng) if a.startswith("return_card")]
    assert returns == ["return_card(0)", "return_card(1)"]   # not the Wound (basic effect)
    eng.apply(encode("return_card", 1))           # discard Rage
    p = core.to_dict()["players"][0]
    assert "crystal_joy" in p["hand"] and "rage" in p["discard"] and "crystal_joy" not in p["discard"]


# -- Noble Manners --------------------------------------------------------------------------------

def test_10_2_noble_manners_waits_for_interaction(content, tables):
    core, eng, st = start(content, tables, ["noble_manners", "march"])
    assert not legal(eng, play(0)) and legal(eng, encode("sideways", 0))


@pytest.mark.covers("cold_toughness", "powered")
def test_ll_2_10_8_cold_toughness_blocks_with_one_more_ice_per_enemy_icon(content, tables):
    """Cold Toughness powered: Ice Block 5, +1 per icon of the blocked enemy (its abilities,
    resistances and elemental attack; LL-2.10.8).  Medusa: physical attack 6 and Paralyze
    (1 icon): 5 + 1 = 6 blocks it (11.6.5), which Ice Block 5 alone would not."""
    from interaction_setup import Game, PAY_TOKEN
    g = Game(content, tables, hero="tovak", hand=["cold_toughness"])
    g.ut.start_combat(["medusa"])
    g.do("next_phase")                                   # Ranged -> Block (11.3.2)
    g.ut.set_turn(mana={"blue": 1})
    g.play(0, powered=1, pay=PAY_TOKEN["blue"])
    assert g.ut.block_pool[2] == 5                       # Ice Block 5 in the pool
    assert g.turn["icon_block"] == 1
    assert g.of_kind("block") == ["block(0)"]
    g.do("block", 0)
    assert g.turn["icon_block"] == 0                     # used with the block (11.4.5)


@pytest.mark.covers("cold_toughness", "powered@ll")
def test_ll_2_10_8_cold_toughness_ll_no_icon_bonus_against_arcane_immunity(ll_content, ll_tables):
    from interaction_setup import Game, PAY_TOKEN
    g = Game(ll_content, ll_tables, hero="tovak", hand=["cold_toughness"])
    g.ut.start_combat(["sorcerers"])                     # Arcane Immunity, attack 6
    g.do("next_phase")
    g.ut.set_turn(mana={"blue": 1})
    g.play(0, powered=1, pay=PAY_TOKEN["blue"])
    # Ice Block 5 alone does not stop an attack of 6; the icons would have (LL-2.10.8)
    assert g.of_kind("block") == []


@pytest.mark.covers("swift_reflexes", "basic.3")
def test_swift_reflexes_reduces_one_enemy_attack_in_the_block_phase(content, tables):
    """Swift Reflexes basic: reduce one enemy attack by 1 (Block phase).  Prowlers attack 4
    -> 3, so a Block 3 now stops it (11.6.5)."""
    from interaction_setup import Game
    g = Game(content, tables, hero="wolfhawk", hand=["swift_reflexes", "rage", "march"])
    g.ut.start_combat(["prowlers"])
    g.do("next_phase")                                   # Block phase
    g.play(0)                                            # choice: only the reduction is usable
    assert g.actions() == ["choose(2)"]
    g.do("choose", 2)
    assert g.actions() == ["choose(0)"]                  # which attack: prowlers' only one
    g.do("choose", 0)
    g.play(0)                                            # Rage: Attack 2 or Block 2 -> Block 2
    g.do("choose", 1)
    assert g.ut.block_pool[0] == 2
    assert g.of_kind("block") == []                      # 2 < 3
    g.do("sideways", 0 | (3 << 7))                       # March sideways: Block 1 (6.1.7)
    assert g.of_kind("block") == ["block(0)"]            # 3 stops the reduced attack of 3
