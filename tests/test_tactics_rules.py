"""The twelve tactic cards (rules 3.2, 3.2.1, 4.1, 4.2.5, 13.7.2, 13.7.4, 21.2 A7 / A28) in
the decision loop (ext/_fx_tactics.pyx, the loop in ext/_engine.pyx).  Rule numbers in the test names."""
import pytest

from mksim._engine import Engine, describe, encode
from mksim._rules import Rules
from mksim._scoring import ScoringTester
from mksim._state import GameCore

ASK_DONE = 63
PAY_STOLEN = 18


def new_engine(content, tables, time="day", seed=1, hero="arythea"):
    core = GameCore.new(tables, content, "first_reconnaissance", hero, seed)
    if time == "night":
        Rules(core).set_time("night")      # before the Engine lays out the tactics (1.2.12)
    return core, Engine(core, tables, content, "first_reconnaissance")


def take(eng, content, tactic_id):
    eng.apply(encode("tactic", content.ids("tactics").index(tactic_id)))


def acts(eng):
    return [describe(int(a)) for a in eng.legal_actions()]


def player(core):
    return core.to_dict()["players"][0]


def play_code(hand, powered, pay, pay2=31):
    return encode("play", hand | (powered << 7) | (pay << 8) | (pay2 << 13))


def end_turn_and_draw(eng):
    eng.apply(encode("end_turn"))
    if "draw(0)" not in acts(eng):
        eng.apply(encode("discard", 0))
    eng.apply(encode("draw"))


# -- 3.2 Rethink (21.2 A28) ------------------------------------------------------------------

@pytest.mark.covers("rethink", "effect")
def test_3_2_a28_rethink_discards_up_to_3_draws_as_many_then_shuffles_discard_into_deck(content, tables):
    core, eng = new_engine(content, tables)
    take(eng, content, "rethink")
    # when taken (3.1.3): any hand card (Wounds allowed) or "done"
    assert acts(eng) == [f"choose({k})" for k in range(5)] + [f"choose({ASK_DONE})"]
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", ASK_DONE))
    p = player(core)
    # 5 - 2 + 2 = 5 in hand; 11 - 2 drawn + 2 shuffled back = 11 in the deck; discard empty
    assert len(p["hand"]) == 5 and len(p["deck"]) == 11 and p["discard"] == []
    assert sorted(acts(eng)) == ["regular_turn(0)", "rest(0)"]      # the turn begins


def test_3_2_rethink_stops_after_3_cards(content, tables):
    core, eng = new_engine(content, tables)
    take(eng, content, "rethink")
    for _ in range(3):
        eng.apply(encode("choose", 0))
    p = player(core)
    assert len(p["hand"]) == 5 and len(p["deck"]) == 11 and p["discard"] == []
    assert "regular_turn(0)" in acts(eng)


# -- 3.2 Mana Steal (21.2 A7, 3.2.1) ------------------------------------------------------------

@pytest.mark.covers("mana_steal", "effect")
def test_3_2_a7_mana_steal_takes_a_basic_die_and_pays_in_addition_to_the_source_die(content, tables):
    core, eng = new_engine(content, tables)
    eng.set_dice(["gold", "black", "red"])
    take(eng, content, "mana_steal")
    assert acts(eng) == ["choose(2)"]            # only a die showing a basic colour
    eng.apply(encode("choose", 2))
    d = core.to_dict()
    assert d["players"][0]["stolen_die"] == "red" and d["source"]["dice"] == ["gold", "black"]
    ScoringTester(core).set_cards(0, hand=["improvisation", "march", "rage"])
    eng.apply(encode("regular_turn"))
    # Improvisation (red) powered by the stolen die: offered as payment code 18
    assert play_code(0, 1, PAY_STOLEN) in [int(a) for a in eng.legal_actions()]
    eng.apply(play_code(0, 1, PAY_STOLEN))
    eng.apply(encode("choose", 0))               # discard March (6.2.1)
    eng.apply(encode("choose", 0))               # Move 5
    d = core.to_dict()
    assert d["turn"]["move_points"] == 5 and d["turn"]["dice_used"] == 0   # A7: not the Source die
    assert d["players"][0]["stolen_die"] is None
    eng.apply(encode("end_turn"))
    assert len(core.to_dict()["source"]["dice"]) == 3    # rerolled and returned at turn end


@pytest.mark.covers("mana_steal", "effect")
def test_3_2_1_an_unused_mana_steal_die_returns_to_the_source_at_round_end(content, tables):
    core, eng = new_engine(content, tables)
    eng.set_dice(["red", "blue", "green"])
    take(eng, content, "mana_steal")
    eng.apply(encode("choose", 0))
    assert len(core.to_dict()["source"]["dice"]) == 2
    ScoringTester(core).set_cards(0, deck=[], hand=["march"])
    eng.apply(encode("announce_end"))            # 4.2: the dummy plays its last turn, round ends
    d = core.to_dict()
    assert d["round"] == 2 and len(d["source"]["dice"]) == 3
    assert d["players"][0]["stolen_die"] is None


# -- 3.2 Planning (13.7.2) ----------------------------------------------------------------------

@pytest.mark.covers("planning", "effect")
def test_3_2_13_7_2_planning_draws_to_hand_limit_plus_1_with_2_cards_left(content, tables):
    core, eng = new_engine(content, tables)
    take(eng, content, "planning")
    eng.apply(encode("regular_turn"))
    for _ in range(3):
        eng.apply(encode("sideways", 0))         # 5 - 3 = 2 cards left (min_hand 2)
    eng.apply(encode("end_turn"))
    eng.apply(encode("draw"))
    assert len(player(core)["hand"]) == 6        # Hand limit 5 + 1


@pytest.mark.covers("planning", "effect")
def test_3_2_planning_gives_nothing_with_fewer_than_2_cards(content, tables):
    core, eng = new_engine(content, tables)
    take(eng, content, "planning")
    eng.apply(encode("regular_turn"))
    for _ in range(4):
        eng.apply(encode("sideways", 0))         # 1 card left
    eng.apply(encode("end_turn"))
    eng.apply(encode("draw"))
    assert len(player(core)["hand"]) == 5


# -- 3.2 The Right Moment -----------------------------------------------------------------------

@pytest.mark.covers("the_right_moment", "effect")
def test_3_2_the_right_moment_gives_another_turn_right_after_this_one(content, tables):
    core, eng = new_engine(content, tables)
    take(eng, content, "the_right_moment")
    assert "tactic_ability(0)" not in acts(eng)   # during the turn, not before it
    eng.apply(encode("regular_turn"))
    assert "tactic_ability(0)" in acts(eng)
    eng.apply(encode("tactic_ability", 0))
    d = core.to_dict()
    assert d["turn"]["extra_turn"] and d["players"][0]["tactic_used"]
    assert "tactic_ability(0)" not in acts(eng)   # once this round (flipped)
    dummy_discard = len(d["dummy"]["discard"])
    eng.apply(encode("sideways", 0))
    end_turn_and_draw(eng)
    d = core.to_dict()
    assert d["turn_player"] == 0 and d["phase"] == "turn_start"
    assert len(d["dummy"]["discard"]) == dummy_discard   # the dummy did not play in between
    assert not d["turn"]["extra_turn"]
    eng.apply(encode("regular_turn"))
    assert "tactic_ability(0)" not in acts(eng)


# -- 3.2 Preparation ------------------------------------------------------------------------------

@pytest.mark.covers("preparation", "effect")
def test_3_2_preparation_puts_a_chosen_deck_card_in_hand(content, tables):
    core, eng = new_engine(content, tables, time="night")
    take(eng, content, "preparation")
    deck = player(core)["deck"]
    assert acts(eng) == [f"choose({k})" for k in range(11)]   # any of the 11 deck cards
    eng.apply(encode("choose", 4))
    p = player(core)
    assert len(p["hand"]) == 6 and len(p["deck"]) == 10 and p["hand"][-1] == deck[4]
    assert sorted(p["deck"] + [deck[4]]) == sorted(deck)


def test_3_2_preparation_reaches_every_card_of_a_deck_of_wounds(content, tables):
    """1.2.4: Wounds are unlimited, so a deck may hold more cards than the 63 options of a
    question; its Wounds go last and every distinct card can still be searched for (3.2)."""
    core, eng = new_engine(content, tables, time="night")
    ScoringTester(core).set_cards(0, deck=["wound"] * 90 + ["march", "rage"])
    take(eng, content, "preparation")
    assert acts(eng) == [f"choose({k})" for k in range(63)]
    p = player(core)
    assert p["deck"][:2] == ["march", "rage"] and p["deck"][2:] == ["wound"] * 90
    eng.apply(encode("choose", 1))
    p = player(core)
    assert p["hand"][-1] == "rage" and sorted(p["deck"]) == ["march"] + ["wound"] * 90


# -- 3.2 Long Night (13.7.4) --------------------------------------------------------------------

@pytest.mark.covers("long_night", "effect")
def test_3_2_long_night_at_turn_start_puts_3_random_discards_into_the_empty_deck(content, tables):
    core, eng = new_engine(content, tables, time="night")
    take(eng, content, "long_night")
    ScoringTester(core).set_cards(0, deck=[], hand=["march", "rage"],
                                  discard=["stamina", "stamina", "swiftness", "promise", "threaten"])
    assert "tactic_ability(0)" in acts(eng)       # 4.1: before the turn, deck empty
    eng.apply(encode("tactic_ability", 0))
    p = player(core)
    assert len(p["deck"]) == 3 and len(p["discard"]) == 2 and p["tactic_used"]
    assert "announce_end(0)" not in acts(eng)     # 4.1.3: 4.2 checked after it: deck not empty
    assert "tactic_ability(0)" not in acts(eng)


@pytest.mark.covers("long_night", "effect")
def test_13_7_4_long_night_in_the_middle_of_the_end_of_turn_draw(content, tables):
    core, eng = new_engine(content, tables, time="night")
    take(eng, content, "long_night")
    ScoringTester(core).set_cards(0, deck=["march"], hand=["march", "rage"],
                                  discard=["stamina", "stamina", "swiftness", "promise", "threaten"])
    eng.apply(encode("regular_turn"))
    eng.apply(encode("sideways", 0))
    eng.apply(encode("end_turn"))
    eng.apply(encode("draw"))                     # draws the last deck card: 2 in hand, limit 5
    assert sorted(acts(eng)) == ["draw(0)", "tactic_ability(0)"]
    assert len(player(core)["hand"]) == 2
    eng.apply(encode("tactic_ability", 0))        # 3 cards into the deck, drawing goes on
    p = player(core)
    assert len(p["hand"]) == 5 and p["deck"] == [] and p["tactic_used"]
    assert core.to_dict()["turn_player"] == 0 and core.to_dict()["phase"] == "turn_start"


# -- 3.2 Mana Search ------------------------------------------------------------------------------

@pytest.mark.covers("mana_search", "effect")
def test_3_2_mana_search_rerolls_up_to_2_dice_gold_first_once_per_turn(content, tables):
    core, eng = new_engine(content, tables, time="night")
    take(eng, content, "mana_search")
    eng.apply(encode("regular_turn"))
    eng.set_dice(["gold", "red", "blue"])
    eng.apply(encode("tactic_ability", 0))
    assert acts(eng) == ["choose(0)", f"choose({ASK_DONE})"]     # the gold die first
    eng.apply(encode("choose", 0))
    assert acts(eng) == ["choose(1)", "choose(2)", f"choose({ASK_DONE})"]
    eng.apply(encode("choose", ASK_DONE))
    d = core.to_dict()
    assert d["source"]["dice"][1:] == ["red", "blue"]            # only the chosen die rerolled
    assert "tactic_ability(0)" not in acts(eng)                 # once per turn
    assert not d["players"][0]["tactic_used"]                    # not flipped


@pytest.mark.covers("mana_search", "effect")
def test_3_2_mana_search_only_before_taking_source_mana(content, tables):
    core, eng = new_engine(content, tables, time="night")
    take(eng, content, "mana_search")
    ScoringTester(core).set_cards(0, hand=["march", "rage"])
    eng.apply(encode("regular_turn"))
    eng.set_dice(["green", "red", "blue"])
    eng.apply(play_code(0, 1, 10))                 # March powered by the green Source die
    assert "tactic_ability(0)" not in acts(eng)


# -- 3.2 Midnight Meditation (4.1) ----------------------------------------------------------------

@pytest.mark.covers("midnight_meditation", "effect")
def test_3_2_4_1_midnight_meditation_shuffles_up_to_5_cards_into_the_deck_and_draws_as_many(content, tables):
    core, eng = new_engine(content, tables, time="night")
    take(eng, content, "midnight_meditation")
    before = player(core)
    assert "tactic_ability(0)" in acts(eng)
    eng.apply(encode("tactic_ability", 0))
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", ASK_DONE))
    p = player(core)
    assert len(p["hand"]) == 5 and len(p["deck"]) == 11 and p["tactic_used"]
    assert sorted(p["hand"] + p["deck"]) == sorted(before["hand"] + before["deck"])
    assert "tactic_ability(0)" not in acts(eng)
    eng.apply(encode("regular_turn"))
    assert "tactic_ability(0)" not in acts(eng)   # before a turn only


# -- 3.2 Sparing Power (3.2.1) --------------------------------------------------------------------

@pytest.mark.covers("sparing_power", "effect")
def test_3_2_sparing_power_stores_the_top_card_then_takes_them_all(content, tables):
    core, eng = new_engine(content, tables, time="night")
    take(eng, content, "sparing_power")
    top = player(core)["deck"][-1]
    assert sorted(acts(eng)) == ["regular_turn(0)", "rest(0)", "tactic_ability(0)"]  # nothing stored yet
    eng.apply(encode("tactic_ability", 0))
    p = player(core)
    assert p["tactic_cards"] == [top] and len(p["deck"]) == 10
    assert "tactic_ability(0)" not in acts(eng)    # once before each turn
    eng.apply(encode("regular_turn"))
    eng.apply(encode("sideways", 0))
    end_turn_and_draw(eng)
    # next turn (after the dummy's): store again or flip and take
    assert {"tactic_ability(0)", "tactic_ability(1)"} <= set(acts(eng))
    hand = len(player(core)["hand"])
    eng.apply(encode("tactic_ability", 1))
    p = player(core)
    assert p["tactic_cards"] == [] and p["tactic_used"] and len(p["hand"]) == hand + 1
    assert "tactic_ability(0)" not in acts(eng)


@pytest.mark.covers("sparing_power", "effect")
def test_3_2_1_cards_under_sparing_power_are_shuffled_into_the_new_deck(content, tables):
    core, eng = new_engine(content, tables, time="night")
    take(eng, content, "sparing_power")
    eng.apply(encode("tactic_ability", 0))
    assert len(player(core)["tactic_cards"]) == 1
    ScoringTester(core).set_cards(0, deck=[])     # 11 - 1 cards leave the game for this test
    eng.apply(encode("announce_end"))             # 4.2; the round ends after the dummy's turn
    d = core.to_dict()
    p = d["players"][0]
    assert d["round"] == 2 and p["tactic_cards"] == []
    assert len(p["hand"]) + len(p["deck"]) == 5 + 1   # hand + the stored card (2.2.8)


def test_3_2_all_tactic_handlers_are_implemented(content, tables):
    core, eng = new_engine(content, tables)
    names = set(eng.implemented_handlers())
    for t in content["tactics"]:
        if t["effect"].startswith("handler("):
            assert t["effect"][8:].split(",")[0].rstrip(")") in names
