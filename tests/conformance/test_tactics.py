"""Conformance of the twelve Tactic cards to their printed text (issue 8): when each acts
(taken, 3.1.3 / during the round / at the end of a turn), its concrete effect (cards drawn,
mana, dice, turn order), once per round (3.2: the card is flipped) and Day against Night.
Texts: ../shared/data/tactics.csv and mksim/data/tactics.toml; rules 3.1-3.2, 17.3.4 and
18.2 of ../shared/rules/mage-knight-base.md.  The tactic texts are rulebook readings ([R]:
the seeds hold no tactic card).  Each position is set up through a fixture
(``Game.state_from_dict``, docs/fixtures.md).  More checks of the ongoing tactics (Mana
Steal's payment, Long Night mid-draw, Mana Search's gold dice, Sparing Power's round end):
tests/test_tactics_rules.py, marked there.  Test ids carry the content id
(``pytest -k great_start``)."""
import pytest

from mksim._engine import describe, encode
from mksim.game import Game

DAY = ["early_bird", "rethink", "mana_steal", "planning", "great_start", "the_right_moment"]
NIGHT = ["from_the_dusk", "long_night", "mana_search", "midnight_meditation", "preparation", "sparing_power"]
ASK_DONE = 63
PAY_STOLEN = 18                      # payment code of the Mana Steal die (mksim._engine)
DECK = ["march", "rage", "stamina", "swiftness", "promise", "threaten", "tranquility"]   # top last
HAND = ["determination", "concentration", "improvisation", "crystallize", "mana_draw"]


@pytest.fixture(scope="module")
def solo():
    return Game("solo_conquest", hero="arythea")


def choosing(game, time="day", hand=HAND, deck=DECK, discard=(), dice=("red", "blue", "green"), **player):
    """The tactics phase of round 1 (Day) or 2 (Night), all six tactics of that time on
    display; Arythea holds `hand`, her Deed deck is `deck` (top last)."""
    removed = [] if time == "day" else ["early_bird", "rethink"]
    f = {"format": 1, "phase": "tactics", "round": 1 if time == "day" else 2, "time": time,
         "tactics_available": DAY if time == "day" else NIGHT, "tactics_removed": removed,
         "source": {"dice": list(dice), "taken": 0},
         "players": [{"hand": list(hand), "deck": list(deck), "discard": list(discard), **player}]}
    return game.state_from_dict(f)


def take(game, s, tactic):
    s.apply(encode("tactic", game.content.ids("tactics").index(tactic)))


def actions(s):
    return [describe(int(a)) for a in s.legal_actions()]


def me(s):
    return s.to_dict()["players"][0]


def finish_turn(s):
    """Play one card sideways, end the turn, discard if asked, draw (13.7)."""
    s.apply(encode("sideways", 0))
    s.apply(encode("end_turn"))
    if "draw(0)" not in actions(s):
        s.apply(encode("discard", 0))
    s.apply(encode("draw"))


# -- Day against Night (3.1, 3.2) -----------------------------------------------------------------

def test_day_rounds_offer_the_day_tactics_and_night_rounds_the_night_ones(solo):
    """3.2: six Day tactics and six Night tactics (tactics.csv), numbered 1-6 in that order;
    a Night tactic is never taken by Day nor a Day one at Night."""
    ids = solo.content.ids("tactics")
    assert sorted(actions(choosing(solo, "day"))) == sorted(f"tactic({ids.index(t)})" for t in DAY)
    assert sorted(actions(choosing(solo, "night"))) == sorted(f"tactic({ids.index(t)})" for t in NIGHT)
    with pytest.raises(ValueError):
        take(solo, choosing(solo, "night"), "great_start")
    with pytest.raises(ValueError):
        take(solo, choosing(solo, "day"), "preparation")
    numbers = {t["id"]: (t["time"], t["number"]) for t in solo.content["tactics"]}
    assert [numbers[t] for t in DAY] == [("day", k) for k in range(1, 7)]
    assert [numbers[t] for t in NIGHT] == [("night", k) for k in range(1, 7)]


# -- Early Bird / From the Dusk: no effect, first in the round order (3.1.4) -----------------------

def dummy_played(s):
    return len(s.to_dict()["dummy"]["discard"]) > 0


@pytest.mark.covers("early_bird", "effect")
def test_early_bird_nothing_but_playing_first(solo):
    """Early Bird (Day 1): taking it changes nothing of the hero's (hand, deck, Source,
    crystals); with number 1 the hero's turn comes before the dummy's (3.1.4, 18.2.2).
    Taking The Right Moment (6) instead, the dummy (any other number is lower) plays first."""
    s = choosing(solo, "day")
    before = me(s)
    take(solo, s, "early_bird")
    p = me(s)
    assert (p["hand"], p["deck"], p["crystals"]) == (before["hand"], before["deck"], before["crystals"])
    assert s.to_dict()["source"]["dice"] == ["red", "blue", "green"]
    assert s.to_dict()["phase"] == "turn_start" and not dummy_played(s)
    assert p["round_order"] < s.to_dict()["dummy"]["round_order"]
    s = choosing(solo, "day")
    take(solo, s, "the_right_moment")
    assert s.to_dict()["phase"] == "turn_start" and dummy_played(s)


@pytest.mark.covers("from_the_dusk", "effect")
def test_from_the_dusk_nothing_but_playing_first_at_night(solo):
    s = choosing(solo, "night")
    before = me(s)
    take(solo, s, "from_the_dusk")
    p = me(s)
    assert (p["hand"], p["deck"], p["crystals"]) == (before["hand"], before["deck"], before["crystals"])
    assert s.to_dict()["phase"] == "turn_start" and not dummy_played(s)
    assert p["round_order"] < s.to_dict()["dummy"]["round_order"]


# -- When taken (3.1.3) ----------------------------------------------------------------------------

@pytest.mark.covers("great_start", "effect")
def test_great_start_draws_2_cards_when_taken(solo):
    """Great Start (Day 5): 'When taken: draw 2 cards' - the deck's top two at once, before
    any turn; nothing later in the round (no tactic ability)."""
    s = choosing(solo, "day")
    take(solo, s, "great_start")
    p = me(s)
    assert p["hand"] == HAND + ["tranquility", "threaten"]
    assert p["deck"] == DECK[:-2]
    assert s.to_dict()["phase"] == "turn_start"        # the dummy's turn first or not
    assert not any(a.startswith("tactic_ability") for a in actions(s))
    s.apply(encode("regular_turn"))
    assert not any(a.startswith("tactic_ability") for a in actions(s))


@pytest.mark.covers("rethink", "effect")
def test_rethink_wounds_may_go_and_the_discard_pile_is_shuffled_back(solo):
    """Rethink (Day 2), when taken: a Wound may be discarded; 2 chosen, 2 drawn (the deck's
    top two), then the whole discard pile (the 2 and the pile's 2 earlier cards) is shuffled
    into the Deed deck."""
    s = choosing(solo, "day", hand=["wound"] + HAND[:4], discard=["rage", "march"])
    take(solo, s, "rethink")
    s.apply(encode("choose", 0))                       # the Wound
    s.apply(encode("choose", 0))                       # determination
    s.apply(encode("choose", ASK_DONE))
    p = me(s)
    assert p["hand"] == HAND[1:4] + ["tranquility", "threaten"]
    assert p["discard"] == []
    assert sorted(p["deck"]) == sorted(DECK[:-2] + ["rage", "march", "wound", "determination"])


@pytest.mark.covers("preparation", "effect")
def test_preparation_takes_any_deck_card_into_the_hand_when_taken(solo):
    """Preparation (Night 5): any one Deed deck card (here the bottom one, March) into the
    hand, the deck shuffled; only when taken."""
    s = choosing(solo, "night")
    take(solo, s, "preparation")
    assert actions(s) == [f"choose({k})" for k in range(len(DECK))]
    s.apply(encode("choose", 0))
    p = me(s)
    assert p["hand"] == HAND + ["march"] and sorted(p["deck"]) == sorted(DECK[1:])
    assert "tactic_ability(0)" not in actions(s)
    s.apply(encode("regular_turn"))
    assert "tactic_ability(0)" not in actions(s)


@pytest.mark.covers("mana_steal", "effect")
def test_mana_steal_die_kept_for_a_later_turn_then_rerolled_and_returned(solo):
    """Mana Steal (Day 3): when taken, a basic die (not gold) leaves the Source; it may wait
    for a later turn of the round ('on one of your turns'): unused in the first turn, it is
    still on the card; used in the second, it is back in the Source after that turn."""
    s = choosing(solo, "day", dice=("gold", "green", "black"), hand=["rage", "march", "stamina"],
                 deck=DECK + DECK)
    take(solo, s, "mana_steal")
    assert actions(s) == ["choose(1)"]                 # green only: gold and black are not basic
    s.apply(encode("choose", 1))
    assert me(s)["stolen_die"] == "green" and s.to_dict()["source"]["dice"] == ["gold", "black"]
    s.apply(encode("regular_turn"))
    finish_turn(s)                                     # Rage sideways; the die not used
    assert me(s)["stolen_die"] == "green" and len(s.to_dict()["source"]["dice"]) == 2
    s.apply(encode("regular_turn"))
    march = me(s)["hand"].index("march")
    s.apply(encode("play", march | (1 << 7) | (PAY_STOLEN << 8) | (31 << 13)))   # March powered (green)
    assert s.to_dict()["turn"]["move_points"] == 4 and me(s)["stolen_die"] is None
    s.apply(encode("end_turn"))
    assert len(s.to_dict()["source"]["dice"]) == 3    # rerolled, back in the Source


# -- During the round ------------------------------------------------------------------------------

@pytest.mark.covers("planning", "effect")
def test_planning_at_the_end_of_every_turn(solo):
    """Planning (Day 4): at the end of each turn with at least 2 cards in hand before
    drawing, draw up to Hand limit 5 + 1 = 6 - in the second turn too (not once)."""
    s = choosing(solo, "day", deck=DECK * 3)
    take(solo, s, "planning")
    for _ in range(2):
        s.apply(encode("regular_turn"))
        s.apply(encode("sideways", 0))                 # 4 left in hand
        s.apply(encode("end_turn"))
        s.apply(encode("draw"))
        assert len(me(s)["hand"]) == 6
        assert not me(s)["tactic_used"]


@pytest.mark.covers("the_right_moment", "effect")
def test_the_right_moment_not_once_the_end_of_the_round_is_announced(solo):
    """The Right Moment (Day 6), once this round during the turn (see test_tactics_rules.py
    for the extra turn itself).  Engine reading: not after the End of the Round is announced
    (the extra turn would follow the hero's last turn, 4.2.1)."""
    s = choosing(solo, "day")
    take(solo, s, "the_right_moment")
    assert "tactic_ability(0)" not in actions(s)       # before the turn: no
    s.apply(encode("regular_turn"))
    assert "tactic_ability(0)" in actions(s)
    s.core.load_dict({"format": 1, "end_announced_by": 4})
    assert "tactic_ability(0)" not in actions(s)


@pytest.mark.covers("long_night", "effect")
def test_long_night_only_with_an_empty_deed_deck_and_once(solo):
    """Long Night (Night 2): with cards in the Deed deck it is not offered; with it empty,
    3 random discards become the deck (the card flipped: once this round)."""
    s = choosing(solo, "night", discard=["rage", "march", "stamina", "promise"])
    take(solo, s, "long_night")
    assert "tactic_ability(0)" not in actions(s)
    s.core.load_dict({"format": 1, "players": [{"deck": []}]})
    assert "tactic_ability(0)" in actions(s)
    s.apply(encode("tactic_ability", 0))
    p = me(s)
    assert len(p["deck"]) == 3 and len(p["discard"]) == 1 and p["tactic_used"]
    assert sorted(p["deck"] + p["discard"]) == ["march", "promise", "rage", "stamina"]
    s.core.load_dict({"format": 1, "players": [{"deck": []}]})
    assert "tactic_ability(0)" not in actions(s)       # flipped


@pytest.mark.covers("mana_search", "effect")
def test_mana_search_rerolls_up_to_two_dice_each_turn_not_only_once(solo):
    """Mana Search (Night 3): once per turn - and again in the next turn (the card is not
    flipped); at most 2 dice: after two choices the reroll happens."""
    s = choosing(solo, "night", deck=DECK * 3, dice=("red", "blue", "green"))
    take(solo, s, "mana_search")
    for _ in range(2):
        s.apply(encode("regular_turn"))
        s.apply(encode("tactic_ability", 0))
        s.apply(encode("choose", 0))
        s.apply(encode("choose", 2))                   # the second die: no third question
        assert not any(a.startswith("choose") for a in actions(s))
        assert "tactic_ability(0)" not in actions(s)
        assert not me(s)["tactic_used"]
        finish_turn(s)


@pytest.mark.covers("midnight_meditation", "effect")
def test_midnight_meditation_before_a_turn_wounds_allowed_once_per_round(solo):
    """Midnight Meditation (Night 4): before the turn, a Wound and another card shuffled
    into the deck, 2 drawn; flipped - not before the next turn."""
    s = choosing(solo, "night", hand=["wound"] + HAND[:4], deck=DECK * 2)
    take(solo, s, "midnight_meditation")
    s.apply(encode("tactic_ability", 0))
    s.apply(encode("choose", 0))
    s.apply(encode("choose", 0))
    s.apply(encode("choose", ASK_DONE))
    p = me(s)
    assert len(p["hand"]) == 5 and len(p["deck"]) == 2 * len(DECK) and p["tactic_used"]
    assert sorted(p["hand"] + p["deck"]) == sorted(["wound"] + HAND[:4] + DECK * 2)
    s.apply(encode("regular_turn"))
    finish_turn(s)
    assert "tactic_ability(0)" not in actions(s)


@pytest.mark.covers("sparing_power", "effect")
def test_sparing_power_each_turn_store_then_take_all(solo):
    """Sparing Power (Night 6): before each turn the deck's top card goes under the card (two
    turns: two cards), then flipping puts both into the hand; not during the turn."""
    s = choosing(solo, "night", deck=DECK * 2)
    take(solo, s, "sparing_power")
    top = me(s)["deck"][-1]
    s.apply(encode("tactic_ability", 0))
    assert me(s)["tactic_cards"] == [top]
    s.apply(encode("regular_turn"))
    assert not any(a.startswith("tactic_ability") for a in actions(s))
    finish_turn(s)
    top2 = me(s)["deck"][-1]
    s.apply(encode("tactic_ability", 0))
    assert me(s)["tactic_cards"] == [top, top2]
    s.apply(encode("regular_turn"))
    finish_turn(s)
    hand = list(me(s)["hand"])
    s.apply(encode("tactic_ability", 1))
    assert me(s)["hand"] == hand + [top, top2] and me(s)["tactic_cards"] == [] and me(s)["tactic_used"]


# -- 18.2.2: the dummy gains nothing from its tactic -------------------------------------------------

def test_18_2_2_the_dummys_mana_steal_takes_no_die(solo):
    """Round 5 (Day) with only Early Bird and Mana Steal left: the hero takes Early Bird, the
    dummy Mana Steal - the Source keeps its 3 dice."""
    f = {"format": 1, "round": 5, "time": "day",
         "tactics_available": ["early_bird", None, "mana_steal", None, None, None],
         "tactics_removed": ["rethink", "planning", "great_start", "the_right_moment"],
         "source": {"dice": ["red", "blue", "green"], "taken": 0}}
    s = solo.state_from_dict(f)
    take(solo, s, "early_bird")
    d = s.to_dict()
    assert d["dummy"]["tactic"] == "mana_steal" and d["source"]["dice"] == ["red", "blue", "green"]
