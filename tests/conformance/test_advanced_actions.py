"""Conformance of Advanced Actions to their printed text (issue 8, deviations found by the
audits).  Card texts: ../shared/data/cards.csv and mksim/data/advanced_actions.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k temporal_portal``)."""
import pytest

from mksim._engine import encode

from test_advanced_actions import day_turn
from test_advanced_handlers import BLUE, PAY_DIE, _G, play_code


@pytest.fixture
def G(content, tables):
    """A regular turn in the movement part (Day), Source dice red blue white green gold."""
    return day_turn(content, tables, _G)


# -- Temporal Portal (LL-8.1, cards.csv #291) ------------------------------------------------

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


def test_dodge_and_weave_attack_1_without_wounds_this_combat(G):
    _dodge_to_attack_phase(G, wound_first=False)
    assert G.T.attack_value([0]) == 1


def test_dodge_and_weave_wound_from_a_card_earlier_in_the_combat_cancels_attack_1(G):
    """A Wound put into the hand by a card (Blood Ritual, like Blizzard's) in the Ranged phase
    is a Wound taken earlier in the combat: no Attack 1."""
    _dodge_to_attack_phase(G, wound_first=True)
    assert G.T.attack_value([0]) == 0


# -- Regeneration ("Heal 1 and ready one of your level I-II units"; 6.3.3, 12.3) ---------------

def test_regeneration_heal_1_playable_with_no_unit_to_ready(G):
    """No Unit at all: the ready part has nothing to act on, the Heal 1 still counts (no rule
    asks every part of a card to be usable): playable, Healing 1."""
    G.T.set_hand(["regeneration", "wound"])
    G.apply(play_code(0))
    assert G.core_.to_dict()["turn"]["healing"] == 1
    G.apply(encode("heal_wound", 0))
    assert G.T.hand == []


def test_regeneration_readies_a_level_2_unit_and_heals(G):
    """A Spent Foresters (level 1) readied, Healing 1 as well."""
    G.U.set_unit(0, "foresters", ready=0)
    G.T.set_hand(["regeneration"])
    G.apply(play_code(0))
    assert G.player["units"][0]["ready"] == 1 and G.core_.to_dict()["turn"]["healing"] == 1


def test_regeneration_in_combat_only_for_its_ready_part(G):
    """In combat Heal has no use (12.4.1): with a Spent Unit it is played for the readying;
    with none it would do nothing and is not offered."""
    G.T.set_hand(["regeneration"])
    G.T.begin(["prowlers"])
    assert not any(a.startswith("play(hand=0, powered=0") for a in G.acts())
    G.U.set_unit(0, "foresters", ready=0)
    assert any(a.startswith("play(hand=0, powered=0") for a in G.acts())


# -- Refreshing Walk in combat (LL-9.7.13: "during combat only Move points"; LL-9.7.2) -------

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
