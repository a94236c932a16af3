"""Conformance of the Basic Action cards to their printed text (issue 8): every half of the 22
cards of mksim/data/basic_actions.toml (the 12 standard cards, the hero cards, the Lost Legion
hero cards), each set up through a fixture and asserting the printed numbers.

Card texts: ../shared/data/cards.csv (deck basic_action) and ll_changed_cards.csv (Cold
Toughness); rules ../shared/rules/mage-knight-base.md and lost-legion.md.  Enemy numbers
from mksim/data/enemies.toml: Prowlers Armor 3, Attack 4, Fame 2; Diggers Armor 3, Fortified;
Fire Mages Armor 5, Fire Attack 6, Fire resistance; Ice Mages Armor 6, Ice Attack 5, Ice
resistance; Orc Stonethrowers Attack 7, Cumbersome.  The turn fixture is Day, with the Source
dice red, blue, white, green, gold (a powered card is paid with the die of its colour, 5.4.1).
Test ids carry the content id (``pytest -k rage``)."""
import pytest

from mksim._combat import CombatTester
from mksim._engine import encode

from interaction_setup import Game, PAY_TOKEN
from test_advanced_actions import day_turn
from test_advanced_handlers import PAY_CRYSTAL, PAY_DIE, _G, play_code

DIE = {"red": 0, "blue": 1, "white": 2, "green": 3, "gold": 4}
COLOUR = {"red": 0, "blue": 1, "white": 2, "green": 3}
covers = pytest.mark.covers


@pytest.fixture
def G(content, tables):
    """A regular turn in the movement part (Day), Source dice red blue white green gold."""
    return day_turn(content, tables, _G)


@pytest.fixture
def GL(ll_content, ll_tables):
    """The same turn with the Lost Legion printings (LL-2.10.2)."""
    return day_turn(ll_content, ll_tables, _G)


def colour_of(content, card):
    return content.get("basic_actions", card)["colour"]


def play(G, content, card, powered, option=None, hand_index=0):
    """Play ``card`` (powered with the Source die of its colour), then take choice ``option``
    (0-based), which must be offered."""
    pay = PAY_DIE + DIE[colour_of(content, card)] if powered else 31
    G.apply(play_code(hand_index, powered=powered, pay=pay))
    if option is not None:
        assert f"choose({option})" in G.acts(), G.acts()
        G.choose(option)


def turn(G):
    return G.core_.to_dict()["turn"]


# -- Move, Attack, Block, Ranged and Siege amounts (6.1.3: the basic or the powered effect) --------


AMOUNTS = [
    pytest.param("rage", 0, 0, "attack", 2, marks=covers("rage", "basic.1")),
    pytest.param("rage", 0, 1, "block", 2, marks=covers("rage", "basic.2")),
    pytest.param("rage", 1, None, "attack", 4, marks=covers("rage", "powered")),
    pytest.param("determination", 0, 0, "attack", 2, marks=covers("determination", "basic.1")),
    pytest.param("determination", 0, 1, "block", 2, marks=covers("determination", "basic.2")),
    pytest.param("determination", 1, None, "block", 5, marks=covers("determination", "powered")),
    pytest.param("swiftness", 0, None, "move", 2, marks=covers("swiftness", "basic")),
    pytest.param("swiftness", 1, None, "ranged", 3, marks=covers("swiftness", "powered")),
    pytest.param("march", 0, None, "move", 2, marks=covers("march", "basic")),
    pytest.param("march", 1, None, "move", 4, marks=covers("march", "powered")),
    pytest.param("stamina", 0, None, "move", 2, marks=covers("stamina", "basic")),
    pytest.param("stamina", 1, None, "move", 4, marks=covers("stamina", "powered")),
    pytest.param("battle_versatility", 0, 0, "attack", 2, marks=covers("battle_versatility", "basic.1")),
    pytest.param("battle_versatility", 0, 1, "block", 2, marks=covers("battle_versatility", "basic.2")),
    pytest.param("battle_versatility", 0, 2, "ranged", 1, marks=covers("battle_versatility", "basic.3")),
    pytest.param("battle_versatility", 1, 0, "attack", 4, marks=covers("battle_versatility", "powered.1")),
    pytest.param("battle_versatility", 1, 1, "block", 4, marks=covers("battle_versatility", "powered.2")),
    pytest.param("battle_versatility", 1, 4, "ranged", 3, marks=covers("battle_versatility", "powered.5")),
    pytest.param("battle_versatility", 1, 5, "siege", 2, marks=covers("battle_versatility", "powered.6")),
    pytest.param("instinct", 0, 0, "move", 2, marks=covers("instinct", "basic.1")),
    pytest.param("instinct", 0, 2, "attack", 2, marks=covers("instinct", "basic.3")),
    pytest.param("instinct", 0, 3, "block", 2, marks=covers("instinct", "basic.4")),
    pytest.param("instinct", 1, 0, "move", 4, marks=covers("instinct", "powered.1")),
    pytest.param("instinct", 1, 2, "attack", 4, marks=covers("instinct", "powered.3")),
    pytest.param("instinct", 1, 3, "block", 4, marks=covers("instinct", "powered.4")),
    pytest.param("swift_reflexes", 0, 0, "move", 2, marks=covers("swift_reflexes", "basic.1")),
    pytest.param("swift_reflexes", 0, 1, "ranged", 1, marks=covers("swift_reflexes", "basic.2")),
    pytest.param("swift_reflexes", 1, 0, "move", 4, marks=covers("swift_reflexes", "powered.1")),
    pytest.param("swift_reflexes", 1, 1, "ranged", 3, marks=covers("swift_reflexes", "powered.2")),
]


@pytest.mark.parametrize("card, powered, option, context, n", AMOUNTS)
def test_printed_amount(G, content, card, powered, option, context, n):
    """The printed Move / Attack / Block / Ranged / Siege amount, in the phase it belongs to
    (Move in the movement part, 9.1; Ranged and Siege in the Ranged and Siege phase, 11.5;
    Block in the Block phase, 11.6; Attack in the Attack phase, 11.8).  When the amount is
    enough, it is used: Prowlers (Armor 3) defeated for Fame 2 (11.5.7), their Attack 4
    blocked (11.6.5), Diggers (Fortified) attacked only by Siege (11.5.3)."""
    G.T.set_hand([card])
    if context == "move":
        play(G, content, card, powered, option)
        assert turn(G)["move_points"] == n
        return
    enemy = "diggers" if context == "siege" else "prowlers"
    G.T.begin([enemy])
    if context == "block":
        G.T.next_phase()
    elif context == "attack":
        G.T.set_phase("attack")
    assert G.T.phase == {"ranged": "ranged", "siege": "ranged"}.get(context, context)
    play(G, content, card, powered, option)
    if context == "block":
        assert G.T.block_value(0) == n
        assert ("block(0)" in G.acts()) == (n >= 4)
        if n >= 4:
            G.apply(encode("block", 0))
            assert "blocked" in G.T.enemy(0)["flags"]
        return
    assert G.T.attack_value([0]) == n
    assert ("attack(1)" in G.acts()) == (n >= 3)
    if n >= 3:
        G.apply(encode("attack", 1))
        assert "defeated" in G.T.enemy(0)["flags"] and G.player["fame"] == 2


# -- Influence (10.2: during interaction; reputation 0 gives no modifier, reputation.toml) -------

def village(content, tables, hand, dice=("white",), reputation=0):
    g = Game(content, tables, site="village", hand=hand, reputation=reputation)
    g.eng.set_dice(list(dice))
    g.do("interact")
    return g



@pytest.mark.parametrize("card, powered, option, n", [
    pytest.param("promise", 0, None, 2, marks=covers("promise", "basic")),
    pytest.param("promise", 1, None, 4, marks=covers("promise", "powered")),
    pytest.param("threaten", 0, None, 2, marks=covers("threaten", "basic")),
    pytest.param("instinct", 0, 1, 2, marks=covers("instinct", "basic.2")),
    pytest.param("instinct", 1, 1, 4, marks=covers("instinct", "powered.2")),
])
def test_printed_influence_during_interaction(content, tables, card, powered, option, n):
    """Influence X at a village (10.2.2), Reputation unchanged; out of interaction (the
    movement part) the card has no use for it (6.3.3): Promise / Threaten are not offered."""
    colour = colour_of(content, card)
    g = village(content, tables, [card], dice=(colour,))
    g.play(0, powered, PAY_DIE if powered else 31)
    if option is not None:
        assert g.actions() == [f"choose({option})"]        # only the Influence option now
        g.do("choose", option)
    assert g.turn["influence"] == n and g.player["reputation"] == 0


def test_promise_not_playable_while_moving(G):
    G.T.set_hand(["promise", "threaten"])
    assert not any(a.startswith("play(") for a in G.acts())


@covers("threaten", "powered")
def test_threaten_powered_influence_5_and_reputation_minus_1(content, tables):
    g = village(content, tables, ["threaten"], dice=("red",))
    g.play(0, 1, PAY_DIE)
    assert g.turn["influence"] == 5 and g.player["reputation"] == -1


@covers("noble_manners", "basic")
def test_noble_manners_basic_influence_2_and_fame_1_during_interaction(content, tables):
    """Reading: the Fame +1 "at end of turn" is given when the card is played (the engine's
    note: the reputation modifier was fixed when the interaction began, 10.2.3, and Fame is
    next read at the end of the turn, 13.6.1); the test checks it is there when the turn ends."""
    g = village(content, tables, ["noble_manners", "march"])
    g.play(0)
    assert g.turn["influence"] == 2
    g.do("end_interact")
    g.do("end_turn")
    assert g.player["fame"] == 1 and g.player["reputation"] == 0


@covers("noble_manners", "powered")
def test_noble_manners_powered_influence_4_fame_1_reputation_1(content, tables):
    g = village(content, tables, ["noble_manners", "march"])
    g.play(0, 1, PAY_DIE)
    assert g.turn["influence"] == 4
    g.do("end_interact")
    g.do("end_turn")
    assert g.player["fame"] == 1 and g.player["reputation"] == 1


def _thugs_block_phase(content, tables, hand):
    from test_units_handlers import combat, to_block
    g = Game(content, tables, hand=hand)
    g.ut.set_unit(0, "thugs")
    combat(g, ["prowlers"])
    to_block(g)
    return g


@covers("noble_manners", "basic")
def test_noble_manners_influence_pays_thugs_in_combat_without_fame(content, tables):
    """LL-4.3.4: the Thugs' 2 Influence may come from any Influence effect played in the
    combat.  Noble Manners basic gives Influence 2 there (no interaction: no Fame, its bonus
    is "if used during interaction"); it pays the Thugs."""
    g = _thugs_block_phase(content, tables, ["noble_manners"])
    assert "play(hand=0, powered=0, pay=31, pay2=31)" in g.actions()
    g.play(0)
    assert g.turn["influence"] == 2
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"] and g.player["fame"] == 0


@covers("promise", "basic")
def test_promise_influence_pays_thugs_in_combat(content, tables):
    """LL-4.3.4: Promise basic in the Block phase with unpaid Thugs: Influence 2 pays them."""
    g = _thugs_block_phase(content, tables, ["promise"])
    g.play(0)
    assert g.turn["influence"] == 2
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"]


def test_promise_not_offered_in_combat_without_a_use_for_influence(G):
    """6.3.3: Influence is for interaction; in a combat with no Thugs / Heroes to pay and no
    Diplomacy, Promise is only played sideways."""
    G.T.set_hand(["promise"])
    G.T.begin(["prowlers"])
    G.T.next_phase()
    assert not any(a.startswith("play(") for a in G.acts())


# -- Improvisation (discard another card: one of four amounts, 6.2.2) -----------------------------

@covers("improvisation", "basic")
def test_improvisation_basic_discard_a_card_for_move_3(G):
    G.T.set_hand(["improvisation", "rage", "wound"])
    G.apply(play_code(0))
    assert G.acts() == ["choose(0)"]                     # Rage, not the Wound (6.2.2)
    G.choose(0)
    assert G.acts() == ["choose(0)"]                     # Move 3: the only use while moving
    G.choose(0)
    assert turn(G)["move_points"] == 3
    assert G.player["hand"] == ["wound"] and G.player["discard"] == ["rage"]


@covers("improvisation", "basic")
def test_improvisation_basic_attack_3_defeats_prowlers(G):
    G.T.set_hand(["improvisation", "march"])
    G.T.begin(["prowlers"])
    G.T.set_phase("attack")
    G.apply(play_code(0))
    G.choose(0)                                          # discard March
    assert G.acts() == ["choose(2)"]                     # Attack 3 in the Attack phase
    G.choose(2)
    assert G.T.attack_value([0]) == 3
    G.apply(encode("attack", 1))
    assert G.player["fame"] == 2


@covers("improvisation", "powered")
def test_improvisation_powered_block_5_blocks_prowlers(G):
    G.T.set_hand(["improvisation", "march"])
    G.T.begin(["prowlers"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + DIE["red"]))
    G.choose(0)
    assert G.acts() == ["choose(3)"]
    G.choose(3)
    assert G.T.block_value(0) == 5
    G.apply(encode("block", 0))
    assert "blocked" in G.T.enemy(0)["flags"]


@covers("improvisation", "powered")
def test_improvisation_powered_influence_5(content, tables):
    g = village(content, tables, ["improvisation", "march"], dice=("red",))
    g.play(0, 1, PAY_DIE)
    g.do("choose", 0)
    assert g.actions() == ["choose(1)"]
    g.do("choose", 1)
    assert g.turn["influence"] == 5 and g.player["discard"] == ["march"]


def test_improvisation_needs_another_non_wound_card(G):
    G.T.set_hand(["improvisation", "wound"])
    assert not any(a.startswith("play(") for a in G.acts())


# -- elements against resistances (11.9.2, 11.6.3) and a red card's colour (11.4.2) ----------------

def _attack_vs(G, content, card, powered, option, enemy):
    G.T.set_hand([card])
    G.T.begin([enemy])
    G.T.set_phase("attack")
    play(G, content, card, powered, option)
    return G.T.attack_value([0])


def _block_vs(G, content, card, powered, option, enemy):
    G.T.set_hand([card])
    G.T.begin([enemy])
    G.T.next_phase()
    play(G, content, card, powered, option)
    return G.T.block_value(0)


@covers("battle_versatility", "powered.3")
@pytest.mark.parametrize("enemy, value", [("fire_mages", 1), ("ice_mages", 3), ("prowlers", 3)])
def test_battle_versatility_powered_fire_attack_3_halved_by_fire_resistance(G, content, enemy, value):
    """Fire Attack 3: halved (rounded down) against Fire resistance (11.9.2), whole otherwise."""
    assert _attack_vs(G, content, "battle_versatility", 1, 2, enemy) == value


@covers("battle_versatility", "powered.4")
@pytest.mark.parametrize("enemy, value", [("ice_mages", 3), ("fire_mages", 1), ("prowlers", 3)])
def test_battle_versatility_powered_fire_block_3_efficient_against_ice_attacks(G, content, enemy, value):
    """Fire Block 3: whole against an Ice attack (Ice Mages) or a physical one, halved against
    a Fire attack (Fire Mages, 11.6.3)."""
    assert _block_vs(G, content, "battle_versatility", 1, 3, enemy) == value


@covers("rage", "powered")
def test_rage_red_card_attack_value_counts_in_full_against_fire_resistance(G, content):
    """11.4.2: a red card keeps its Attack value against a Fire-resistant enemy (only its other
    effects are lost); physical Attack 4 is not halved by Fire resistance (11.9.2)."""
    assert _attack_vs(G, content, "rage", 1, None, "fire_mages") == 4


@covers("cold_toughness", "basic.1")
@pytest.mark.parametrize("enemy, value", [("ice_mages", 1), ("fire_mages", 2)])
def test_cold_toughness_basic_ice_attack_2(G, content, enemy, value):
    """Ice Attack 2: halved against Ice resistance (11.9.2)."""
    assert _attack_vs(G, content, "cold_toughness", 0, 0, enemy) == value


@covers("cold_toughness", "basic.2")
@pytest.mark.parametrize("enemy, value", [("fire_mages", 3), ("ice_mages", 1), ("prowlers", 3)])
def test_cold_toughness_basic_ice_block_3(G, content, enemy, value):
    """Ice Block 3: whole against a Fire attack or a physical one, halved against Ice (11.6.3)."""
    assert _block_vs(G, content, "cold_toughness", 0, 1, enemy) == value


@covers("cold_toughness", "basic.1@ll")
def test_cold_toughness_ll_basic_ice_attack_2(GL, ll_content):
    """The Lost Legion printing keeps the basic effect (ll_changed_cards.csv)."""
    assert _attack_vs(GL, ll_content, "cold_toughness", 0, 0, "ice_mages") == 1
    assert GL.T.phase == "attack"


@covers("cold_toughness", "basic.2@ll")
def test_cold_toughness_ll_basic_ice_block_3(GL, ll_content):
    assert _block_vs(GL, ll_content, "cold_toughness", 0, 1, "fire_mages") == 3


@covers("cold_toughness", "powered@ll")
def test_cold_toughness_ll_powered_plus_1_per_icon_blocks_medusa(ll_content, ll_tables):
    """LL-2.10.8: Ice Block 5 +1 per icon (Medusa: Paralyze) = 6 blocks its Attack 6; the
    Arcane Immunity exclusion is tested in tests/test_basic_actions.py (Sorcerers)."""
    from interaction_setup import Game as IGame
    g = IGame(ll_content, ll_tables, hero="tovak", hand=["cold_toughness"])
    g.ut.start_combat(["medusa"])
    g.do("next_phase")
    g.ut.set_turn(mana={"blue": 1})
    g.play(0, powered=1, pay=PAY_TOKEN["blue"])
    assert g.ut.block_pool[2] == 5 and g.turn["icon_block"] == 1
    g.do("block", 0)
    assert "blocked" in CombatTester(g.core).enemy(0)["flags"]


# -- Heal and draw (12.3: Heal X heals X Wounds from the hand, outside combat, 12.4.1) ------------


@pytest.mark.parametrize("card, powered, option, n", [
    pytest.param("tranquility", 0, 0, 1, marks=covers("tranquility", "basic.1")),
    pytest.param("tranquility", 1, 0, 2, marks=covers("tranquility", "powered.1")),
    pytest.param("rejuvenate", 0, 0, 1, marks=covers("rejuvenate", "basic.1")),
    pytest.param("rejuvenate", 1, 0, 2, marks=covers("rejuvenate", "powered.1")),
])
def test_printed_heal(G, content, card, powered, option, n):
    """Heal n with three Wounds in hand: Healing n, each point heals one Wound from the hand
    (the Wound leaves the game, 12.3.2); no more than n."""
    G.T.set_hand([card, "wound", "wound", "wound"])
    play(G, content, card, powered, option)
    assert turn(G)["healing"] == n
    for _ in range(n):
        G.apply(encode("heal_wound", 0))
    assert G.player["hand"] == ["wound"] * (3 - n)
    assert not any(a.startswith("heal_wound") for a in G.acts())


@pytest.mark.parametrize("card, powered, option, n", [
    pytest.param("tranquility", 0, 1, 1, marks=covers("tranquility", "basic.2")),
    pytest.param("tranquility", 1, 1, 2, marks=covers("tranquility", "powered.2")),
    pytest.param("rejuvenate", 0, 1, 1, marks=covers("rejuvenate", "basic.2")),
    pytest.param("rejuvenate", 1, 1, 2, marks=covers("rejuvenate", "powered.2")),
])
def test_printed_draw(G, content, card, powered, option, n):
    """Draw n cards: n cards move from the Deed deck to the hand (the deck is n smaller and
    holds the rest of what it held)."""
    G.T.set_hand([card])
    deck = list(G.player["deck"])
    play(G, content, card, powered, option)
    hand = G.player["hand"]
    assert len(hand) == n and len(G.player["deck"]) == len(deck) - n
    rest = list(deck)
    for c in hand:
        rest.remove(c)
    assert sorted(rest) == sorted(G.player["deck"])


@covers("tranquility", "basic.2")
def test_tranquility_in_combat_only_its_draw(G, content):
    """12.4.1: no Healing in combat - Tranquility is offered there for its draw only."""
    G.T.set_hand(["tranquility", "wound"])
    G.T.begin(["prowlers"])
    G.apply(play_code(0))
    assert G.acts() == ["choose(1)"]
    G.choose(1)
    assert len(G.player["hand"]) == 2


@covers("rejuvenate", "basic.3")
def test_rejuvenate_basic_green_mana_token(G):
    G.T.set_hand(["rejuvenate"])
    G.apply(play_code(0))
    G.choose(2)
    assert G.S.mana_tokens()[COLOUR["green"]] == 1


@covers("rejuvenate", "powered.3")
def test_rejuvenate_powered_green_crystal(G):
    G.T.set_hand(["rejuvenate"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + DIE["green"]))
    G.choose(2)
    assert G.player["crystals"]["green"] == 1 and G.S.mana_tokens()[COLOUR["green"]] == 0


@covers("rejuvenate", "basic.4")
def test_rejuvenate_basic_readies_a_level_1_or_2_unit_only(G):
    """"Ready a level I-II unit": a Spent Foresters (I) and Guardian Golems (II) may be
    chosen, a Spent Fire Golems (III) may not."""
    G.U.set_unit(0, "foresters", ready=0)
    G.U.set_unit(1, "fire_golems", ready=0)
    G.U.set_unit(2, "guardian_golems", ready=0)
    G.T.set_hand(["rejuvenate"])
    G.apply(play_code(0))
    G.choose(3)
    assert G.acts() == ["choose(0)", "choose(2)"]
    G.choose(2)
    assert [u["ready"] for u in G.player["units"]] == [0, 0, 1]


@covers("rejuvenate", "powered.4")
def test_rejuvenate_powered_readies_up_to_level_3(G):
    G.U.set_unit(0, "fire_golems", ready=0)
    G.U.set_unit(1, "altem_mages", ready=0)
    G.T.set_hand(["rejuvenate"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + DIE["green"]))
    G.choose(3)
    assert [u["ready"] for u in G.player["units"]] == [1, 0]   # the only level <= III unit


# -- mana and crystals (5.1, 5.3: tokens last the turn, crystals stay) ---------------------------


@pytest.mark.parametrize("card, option, colour", [
    pytest.param("concentration", 0, "blue", marks=covers("concentration", "basic.1")),
    pytest.param("concentration", 1, "white", marks=covers("concentration", "basic.2")),
    pytest.param("concentration", 2, "red", marks=covers("concentration", "basic.3")),
    pytest.param("will_focus", 0, "blue", marks=covers("will_focus", "basic.1")),
    pytest.param("will_focus", 1, "white", marks=covers("will_focus", "basic.2")),
    pytest.param("will_focus", 2, "red", marks=covers("will_focus", "basic.3")),
])
def test_printed_mana_token(G, card, option, colour):
    """A mana token of the printed colour (and no other), usable this turn: a blue one powers
    Stamina (Move 4)."""
    G.T.set_hand([card, "stamina"])
    G.apply(play_code(0))
    G.choose(option)
    tokens = G.S.mana_tokens()
    assert tokens[COLOUR[colour]] == 1 and sum(tokens) == 1
    powered = [a for a in G.acts() if "powered=1" in a]
    assert ("play(hand=0, powered=1, pay=1, pay2=31)" in powered) == (colour == "blue")
    if colour == "blue":
        G.apply(play_code(0, powered=1, pay=COLOUR["blue"]))      # payment code 1: the token
        assert G.S.mana_tokens()[COLOUR["blue"]] == 0 and turn(G)["move_points"] == 4


@covers("will_focus", "basic.4")
def test_will_focus_basic_green_crystal(G):
    G.T.set_hand(["will_focus"])
    G.apply(play_code(0))
    G.choose(3)
    assert G.player["crystals"]["green"] == 1 and sum(G.S.mana_tokens()) == 0


@covers("crystallize", "powered")
@pytest.mark.parametrize("colour", ["red", "white"])
def test_crystallize_powered_a_crystal_of_any_basic_colour(G, colour):
    G.T.set_hand(["crystallize"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + DIE["blue"]))
    assert G.acts() == ["choose(0)", "choose(1)", "choose(2)", "choose(3)"]
    G.choose(COLOUR[colour])
    assert G.player["crystals"] == {**{c: 0 for c in COLOUR}, colour: 1}


def test_crystallize_powered_only_by_blue_mana(G):
    """5.4.1: an Action card's strong effect takes mana of its own colour (Crystal Joy's "any
    basic colour" is its own text): Crystallize (blue) by the blue or the gold die only."""
    G.T.set_hand(["crystallize"])
    assert sorted(a for a in G.acts() if "powered=1" in a) == [
        f"play(hand=0, powered=1, pay={PAY_DIE + DIE[c]}, pay2=31)" for c in ("blue", "gold")]


@covers("crystallize", "basic")
def test_crystallize_basic_in_combat_turns_a_token_into_a_crystal(G):
    """6.3.3: a special effect may be played any time during the turn, combat included: a red
    mana token (which would vanish at the end of the turn, 5.1.4) becomes a red crystal."""
    G.T.set_hand(["crystallize"])
    G.S.set_mana_tokens([1, 0, 0, 0, 0, 0])
    G.T.begin(["prowlers"])
    assert "play(hand=0, powered=0, pay=31, pay2=31)" in G.acts()
    G.apply(play_code(0))
    G.choose(COLOUR["red"])
    G.choose(0)                                          # payment code 0: the red token
    assert G.player["crystals"]["red"] == 1 and G.S.mana_tokens()[0] == 0


@covers("mana_draw", "basic")
def test_mana_draw_basic_one_extra_source_die_this_turn(G):
    """5.5.2: one Source die per turn; Mana Draw basic lets a second one be used: March (green
    die) and Stamina (blue die) both powered, Move 8."""
    G.T.set_hand(["mana_draw", "march", "stamina"])
    G.apply(play_code(1, powered=1, pay=PAY_DIE + DIE["green"]))
    assert not any("powered=1" in a and "pay=1" in a for a in G.acts())  # no second die yet
    G.apply(play_code(0))
    G.apply(play_code(0, powered=1, pay=PAY_DIE + DIE["blue"]))
    assert turn(G)["move_points"] == 8 and turn(G)["dice_used"] == 2


@covers("mana_draw", "powered")
def test_mana_draw_powered_in_combat(G):
    """6.3.3: Mana Draw's strong effect is a special effect, playable in combat too: the white
    die pays, another die is set to red and gives 2 red tokens, which power Rage (Attack 4)."""
    G.T.set_hand(["mana_draw", "rage"])
    G.T.begin(["prowlers"])
    G.T.set_phase("attack")
    G.apply(play_code(0, powered=1, pay=PAY_DIE + DIE["white"]))
    G.choose(DIE["blue"])                                # the blue die ...
    G.choose(COLOUR["red"])                              # ... set to red
    assert G.S.mana_tokens()[0] == 2
    G.apply(play_code(0, powered=1, pay=COLOUR["red"]))
    assert G.T.attack_value([0]) == 4 and G.S.mana_tokens()[0] == 1


@covers("mana_pull", "powered")
def test_mana_pull_powered_two_dice_set_one_token_each_not_rerolled(G):
    G.T.set_hand(["mana_pull", "march"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + DIE["white"]))
    assert G.acts() == ["choose(0)", "choose(1)", "choose(3)", "choose(4)"]   # not the white one
    G.choose(0)
    assert G.acts() == ["choose(0)", "choose(1)", "choose(2)", "choose(3)", "choose(5)"]  # not gold
    G.choose(COLOUR["green"])
    G.choose(4)                                          # the gold die ...
    G.choose(5)                                          # ... set to black
    assert G.S.mana_tokens() == [0, 0, 0, 1, 0, 1]
    G.apply(encode("end_turn"))
    dice = G.core_.to_dict()["source"]["dice"]
    assert dice[0] == "green" and dice[4] == "black"     # returned without a reroll


@covers("mana_pull", "basic")
def test_mana_pull_basic_in_combat_black_die_as_any_colour(G):
    """6.3.3: a special effect, playable in combat: one extra Source die this turn, a black
    one usable as any colour (by Day too, 5.1.5 overridden by the card).  Rage powered by the
    black die as red, a second Rage by the red die: Attack 4 + 4, two dice used."""
    G.eng.set_dice(["black", "red", "blue"])
    G.T.set_hand(["mana_pull", "rage", "rage"])
    G.T.begin(["prowlers"])
    G.T.set_phase("attack")
    assert not any("pay=10" in a for a in G.acts())      # black unusable by Day (5.1.5)
    G.apply(play_code(0))
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 0))    # the black die as red
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 1))    # the red die: the second die
    assert G.T.attack_value([0]) == 8 and turn(G)["dice_used"] == 2


# -- Crystal Joy (the card returns to hand at the end of the turn) --------------------------------

@covers("crystal_joy", "basic")
def test_crystal_joy_basic_crystal_and_return_for_a_non_wound_card(G):
    G.T.set_hand(["crystal_joy", "march", "wound"])
    G.S.set_mana_tokens([0, 0, 1, 0, 0, 0])
    G.apply(play_code(0))
    G.choose(COLOUR["white"])
    G.choose(COLOUR["white"])                            # the white token
    assert G.player["crystals"]["white"] == 1
    G.apply(encode("end_turn"))
    assert [a for a in G.acts() if a.startswith("return_card")] == ["return_card(0)"]   # March only
    G.apply(encode("return_card", 0))
    p = G.player
    assert "crystal_joy" in p["hand"] and "march" in p["discard"] and "crystal_joy" not in p["discard"]


@covers("crystal_joy", "powered")
def test_crystal_joy_powered_crystal_of_any_colour_and_return_for_a_wound(G):
    """Powered by 1 mana of any basic colour (cards.csv powered_by "1 mana of any basic
    colour", 5.4.1; basic_actions.toml powered_by = "any_basic"): every Source die but none
    pays (gold as any colour by Day); here the red die; a green crystal; at the end of the
    turn a Wound may be discarded to return it."""
    G.T.set_hand(["crystal_joy", "wound"])
    powered = sorted(a for a in G.acts() if "powered=1" in a)
    assert powered == [f"play(hand=0, powered=1, pay={PAY_DIE + d}, pay2=31)" for d in range(5)]
    G.apply(play_code(0, powered=1, pay=PAY_DIE + DIE["red"]))
    G.choose(COLOUR["green"])
    assert G.player["crystals"]["green"] == 1
    G.apply(encode("end_turn"))
    assert [a for a in G.acts() if a.startswith("return_card")] == ["return_card(0)"]
    G.apply(encode("return_card", 0))
    p = G.player
    assert "crystal_joy" in p["hand"] and "wound" in p["discard"]


# -- Swift Reflexes (reduce one enemy attack, Block phase) ----------------------------------------

@covers("swift_reflexes", "powered.3")
def test_swift_reflexes_powered_reduces_a_fire_resistant_enemys_attack_by_2(G):
    """A white card: its effect on an enemy is not stopped by Fire or Ice resistance (11.4.2
    names red and blue cards only).  Fire Mages' Fire Attack 6 -> 4."""
    G.T.set_hand(["swift_reflexes"])
    G.T.begin(["fire_mages"])
    G.T.next_phase()
    G.apply(play_code(0, powered=1, pay=PAY_DIE + DIE["white"]))
    assert G.acts() == ["choose(2)"]                     # Ranged and Move have no use now
    G.choose(2)
    G.choose(0)
    G.T.set_block("ice", 4)
    assert G.T.block_value(0) == 4
    G.apply(encode("block", 0))
    assert "blocked" in G.T.enemy(0)["flags"]


# -- Concentration / Will Focus powered, Tirelessness, Mana Pull basic: tests/test_basic_actions.py
#    (marked there); Move in combat (LL-9.7.2, LL-9.7.5) -------------------------------------------

def _agility_attack_phase(content, hand, lost_legion=True):
    from mksim.game import Game as FGame
    from test_rule_breaks import COMBAT, at
    game = FGame("solo_conquest", hero="arythea", lost_legion=lost_legion, content=content)
    return at(game, phase="combat_attack", combat=COMBAT, players=[{"hand": ["agility", *hand]}])


def _acts(s):
    from mksim._engine import describe
    return [describe(int(a)) for a in s.legal_actions()]


@covers("march", "basic")
def test_march_move_2_in_combat_with_agility_conversion(content):
    """LL-9.7.2: with Agility's conversion active, Move played in combat is converted into
    Attack (1:1); before Agility, March has no use there (6.3.3)."""
    from test_rule_breaks import play as fplay
    s = _agility_attack_phase(content, ["march"])
    assert not any(a.startswith("play(hand=1,") for a in _acts(s))
    s.apply(fplay(0))                                    # Agility basic: Move 2
    s.apply(fplay(0))                                    # March: Move 2
    assert s.to_dict()["turn"]["move_points"] == 4


@covers("tirelessness", "basic")
def test_tirelessness_in_combat_with_agility_conversion(content):
    """LL-9.7.5 / LL-9.7.6: Tirelessness' Move and its bonus work in combat: played after
    Agility, Move 2 (total 4); the next card giving Move (March) gives 2 + 1."""
    from test_rule_breaks import play as fplay
    s = _agility_attack_phase(content, ["tirelessness", "march"])
    s.apply(fplay(0))                                    # Agility basic: Move 2
    assert "play(hand=0, powered=0, pay=31, pay2=31)" in _acts(s)
    s.apply(fplay(0))                                    # Tirelessness: Move 2
    assert s.to_dict()["turn"]["move_points"] == 4
    s.apply(fplay(0))                                    # March: 2 + 1
    assert s.to_dict()["turn"]["move_points"] == 7
