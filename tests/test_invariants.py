"""Invariants over seeded sweeps of games (issue 3, issue 7), after EVERY action.

The games are played by ``mksim._policies.play_checked``: one nogil C loop that applies each
action and then runs the state checks of ``mksim._checks`` (crystals 0..3 (5.1.3), no
negative Fame / Move / Healing / mana, reputation on the track, units within Command tokens
(7.2.1), ...), card conservation (every non-Wound Deed card in some zone or thrown away,
6.1) and at most one action per turn (4.4.5).  Around the loop, in Python: the C card count
agrees with a count from ``to_dict()``, no card appears that was not there at the start,
and every game ends by a scenario rule (14.2, 14.3) unless the engine stops it with a named
error.  Both solo scenarios, all heroes, The Lost Legion off and on; uniform random choices
and the ``eager`` policy (far more combat, sites, units and Wounds).  Every game is checked
in C after every action; every 20th game also through ``to_dict()`` (slow: ~15 ms a dict).

Each run draws a fresh root seed (``os.urandom``; ``MKSIM_SWEEP_SEED=<n>`` replays one): it is
printed in pytest's header (tests/conftest.py) and in every failure message.
"""
from collections import Counter

import pytest

from mksim._checks import CHECKS, LOOP_CHECKS, deed_count, n_checks, violations
from mksim._engine import describe
from mksim._policies import EAGER_WEIGHTS, RandomPolicy, WeightedPolicy, play_checked
from mksim._state import GameCore
from mksim.game import Game

HEROES = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")
N_RANDOM = 5000        # uniform random games per scenario (The Lost Legion in half of them)
N_EAGER = 2000         # eager-policy games per scenario
FULL_EVERY = 20        # every 20th game also checks the cards against to_dict() (~15 ms a dict)


def deed_cards(d):
    """Every non-Wound Deed card anywhere in the game (6.1.1), with multiplicity, from
    ``to_dict()`` (independent of ``mksim._checks.count_deeds``)."""
    c = Counter()
    for p in d["players"]:
        for zone in ("deck", "hand", "discard", "play_area", "tactic_cards", "set_aside"):
            c.update(p[zone])
        c.update(u["banner"] for u in p["units"] if u["banner"])
    c.update(d["dummy"]["deck"])
    c.update(d["dummy"]["discard"])
    for key in ("advanced_action_offer", "spell_offer", "advanced_action_deck", "spell_deck",
                "artifact_deck"):
        c.update(x for x in d[key] if x)
    t = d["turn"]                                # Artifacts drawn for a reward (13.5.2; raw card indices)
    c.update(f"card {i}" for i in t["reward_cards"][:t["n_reward_cards"]])
    c.update(e["advanced_action"] for e in d["unit_offer"] if "advanced_action" in e)
    c.pop("wound", None)
    return c


def total_cards(d):
    """Non-Wound Deed cards in play plus those thrown away: constant through a game."""
    return sum(deed_cards(d).values()) + sum(p["removed"] for p in d["players"])


def check_resources(d, where):
    p = d["players"][0]
    for colour, n in p["crystals"].items():
        assert 0 <= n <= 3, f"{where}: {n} {colour} crystals (5.1.3)"
    assert p["fame"] >= 0, where
    assert d["turn"]["move_points"] >= 0, where


_GAMES = {}


def game_for(content, scenario, hero, lost_legion):
    key = (scenario, hero, lost_legion)
    if key not in _GAMES:
        _GAMES[key] = Game(scenario, hero, content=content, lost_legion=lost_legion)
    return _GAMES[key]


def check_name(code):
    return CHECKS[code] if code < len(CHECKS) else LOOP_CHECKS[code]


def play_one(game, policy, seed, g, where, full=True):
    """Play game ``g`` of root seed ``seed`` under ``play_checked``; assert every invariant
    (with ``full``, also from ``to_dict()`` at the start and the end).  Returns (finished,
    stop message or None, play_checked's result)."""
    state = game.new_state(seed, g)
    policy.reset(seed, g)
    wound = game.tables.card_ids.index("wound")
    if full:
        start = state.core.to_dict()
        before = deed_cards(start)
        assert deed_count(state.core, wound) == total_cards(start), f"{where}: C and Python card counts differ at the start"
    steps, err, last, viol, vstep, maxima = play_checked(policy, state.engine)
    assert viol < 0, f"{where}: after step {vstep} ({describe(last)}): {check_name(viol)}"
    assert err != -1, f"{where}: no legal action in phase {state.engine.phase()} after step {steps}"
    if full:
        end = state.core.to_dict()
        check_resources(end, where)
        after = deed_cards(end)
        assert deed_count(state.core, wound) == total_cards(end), f"{where}: C and Python card counts differ at the end"
    if err == 0:
        if full:
            assert sum(before.values()) == total_cards(end), f"{where}: cards not conserved"
            assert not (after - before), f"{where}: cards appeared: {after - before}"
        assert state.engine.is_terminal(), f"{where}: no end after {steps} decisions"
        assert state.engine.termination() in (1, 2), f"{where}: ended with termination {state.engine.termination()}"
        return True, None, (steps, err, last, viol, vstep, maxima)
    return False, str(state.engine._error(err, last)), (steps, err, last, viol, vstep, maxima)


def sweep(content, seed, scenario, n_games, eager):
    """Play ``n_games`` seeded games checking the invariants; return (finished, stops)."""
    policy = WeightedPolicy(0, 0, 0, EAGER_WEIGHTS) if eager else RandomPolicy(0, 0, 0)
    finished, stops = 0, Counter()
    for g in range(n_games):
        hero, ll = HEROES[g % len(HEROES)], (g // len(HEROES)) % 2 == 1
        where = (f"MKSIM_SWEEP_SEED={seed}: {scenario}, {hero}, lost_legion={ll}, "
                 f"{'eager' if eager else 'random'}, game {g}")
        ok, msg, _ = play_one(game_for(content, scenario, hero, ll), policy, seed, g, where, g % FULL_EVERY == 0)
        if ok:
            finished += 1
        else:
            stops[msg] += 1
    return finished, stops


@pytest.mark.parametrize("scenario", ["first-reconnaissance", "solo-conquest"])
def test_seeded_sweep_of_random_games(content, sweep_seed, scenario):
    finished, stops = sweep(content, sweep_seed, scenario, N_RANDOM, eager=False)
    assert finished >= 0.99 * N_RANDOM, (f"MKSIM_SWEEP_SEED={sweep_seed}", stops.most_common(5))


@pytest.mark.parametrize("scenario", ["first-reconnaissance", "solo-conquest"])
def test_seeded_sweep_of_eager_games(content, sweep_seed, scenario):
    finished, stops = sweep(content, sweep_seed, scenario, N_EAGER, eager=True)
    assert finished >= 0.97 * N_EAGER, (f"MKSIM_SWEEP_SEED={sweep_seed}", stops.most_common(5))


@pytest.mark.parametrize("seed, game_index, scenario, hero, lost_legion", [
    # issue 7: 260 Wounds + 16 Deeds (276 cards) went into a 256-card deck at the round-6
    # reshuffle (2.2.8); 20 cards were lost, a Battle Versatility among them, and the game
    # was still counted as finished
    (9001, 655, "solo-conquest", "arythea", False),
    (31337, 463, "solo-conquest", "tovak", True),
])
def test_no_card_is_lost_in_the_games_that_lost_cards(content, seed, game_index, scenario, hero, lost_legion):
    """1.2.4: Wounds are unlimited, so a hero may hold far more than 255 cards; the eager
    games that lost cards at the end-of-round reshuffle now finish with every card kept."""
    game = Game(scenario, hero, content=content, lost_legion=lost_legion)
    where = f"{scenario} {hero} lost_legion={lost_legion} seed {seed} game {game_index}"
    ok, msg, (steps, err, last, viol, vstep, maxima) = play_one(
        game, WeightedPolicy(0, 0, 0, EAGER_WEIGHTS), seed, game_index, where)
    assert ok, f"{where}: stopped: {msg}"
    # Since 4.3.2 (a Wound-only hand must rest and discard a Wound) these two games no
    # longer pile up 256+ cards; the > 256 case itself is built directly below.


def test_a_hero_with_more_than_256_cards_keeps_them_all_at_the_reshuffle(content, tables):
    """1.2.4 / 2.2.8: 270 Wounds and the 16 Deeds (286 cards, past the old 256-card deck)
    go back into the Deed deck at round preparation and every one of them is still there:
    no game stop, no refused card, the Deed count unchanged."""
    from mksim._engine import Engine, UnitsTester
    from mksim._scoring import ScoringTester
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", 5, 0)
    eng = Engine(core, tables, content, "first_reconnaissance")
    p = core.to_dict()["players"][0]
    cards = p["deck"] + p["hand"]
    hand = cards[:5] + ["wound"] * 90
    discard = cards[5:] + ["wound"] * 180
    ScoringTester(core).set_cards(0, deck=[], hand=hand, discard=discard, play=[])
    wound = tables.card_ids.index("wound")
    total = deed_count(core, wound)
    UnitsTester(eng).prepare_round()                   # 2.2.8: hand + discard pile -> deck
    d = core.to_dict()
    pl = d["players"][0]
    assert d["cards_refused"] == 0 and d["error"] == 0
    assert len(pl["deck"]) + len(pl["hand"]) == 286    # all 286 cards: deck, then the draw
    assert sorted(c for c in pl["deck"] + pl["hand"] if c != "wound") == sorted(cards)
    assert deed_count(core, wound) == total


@pytest.mark.parametrize("seed, game_index, scenario, hero, lost_legion, eager", [
    # found by tests/benchmarks/fuzz.py (1 game in ~12,000): Meditation held the cards it
    # picked from the discard pile outside every zone while asking "top or bottom"
    (20261201, 11896, "solo-conquest", "wolfhawk", True, True),     # basic, played
    (20261201, 23006, "first-reconnaissance", "arythea", True, True),   # powered
    (20261201, 215470, "solo-conquest", "norowas", False, False),  # uniform random play
])
def test_meditation_keeps_the_cards_it_picked_in_a_zone(content, seed, game_index, scenario, hero,
                                                         lost_legion, eager):
    """Meditation (spell): the discard-pile cards picked at random wait on top of the discard
    pile while the player chooses the top or the bottom of the Deed deck, so card
    conservation holds after every action (and the games play to their end)."""
    game = Game(scenario, hero, content=content, lost_legion=lost_legion)
    policy = WeightedPolicy(0, 0, 0, EAGER_WEIGHTS) if eager else RandomPolicy(0, 0, 0)
    where = f"{scenario} {hero} lost_legion={lost_legion} seed {seed} game {game_index}"
    ok, msg, _ = play_one(game, policy, seed, game_index, where)
    assert ok, f"{where}: stopped: {msg}"


def test_a_full_zone_stops_the_game_and_keeps_count(content, tables):
    """A reshuffle (2.2.8) into a Deed deck that cannot hold every card stops the game with
    ERR_CAPACITY (a NotImplementedError naming it) instead of dropping cards: the refused
    cards are counted, no Deed card is gone, and the next action is refused too."""
    from mksim._engine import Engine, UnitsTester
    from mksim._scoring import ScoringTester
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", 5, 0)
    eng = Engine(core, tables, content, "first_reconnaissance")
    p = core.to_dict()["players"][0]
    cards = p["deck"] + p["hand"]
    cap = GameCore.zone_capacities()
    hand = cards[:5] + ["wound"] * (cap["hand"] - 10)
    discard = cards[5:] + ["wound"] * (cap["discard"] - 20)
    deck = ["wound"] * (cap["deck"] - len(hand) - len(discard) + 7)   # 7 cards too many
    ScoringTester(core).set_cards(0, deck=deck, hand=hand, discard=discard, play=[])
    wound = tables.card_ids.index("wound")
    total = deed_count(core, wound)
    with pytest.raises(NotImplementedError, match="ERR_CAPACITY"):
        UnitsTester(eng).prepare_round()               # 2.2.8: hand + discard pile -> deck
    d = core.to_dict()
    assert d["cards_refused"] == 7 and d["error"] != 0
    assert deed_count(core, wound) == total            # the refused cards are Wounds (pushed last)
    assert len(eng.legal_actions()) == 0                # the game stays stopped


def test_the_checks_catch_a_broken_state(content, tables):
    """The invariant checks can fail: 4 red crystals (5.1.3), negative Fame, a unit over the
    Command-token limit (7.2.1) and a unit with 3 wounds (11.7.9) are each reported."""
    from mksim._scoring import ScoringTester
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", 1)
    assert violations(core) == [] and n_checks() == 16
    sc = ScoringTester(core)
    sc.set_crystals(0, [4, 0, 0, 0])
    sc.set_fame(0, -1)
    sc.set_level(0, 1, command_tokens=1)
    sc.set_units(0, [("peasants", 3, None), ("foresters", 0, None)])
    assert sorted(violations(core)) == sorted([
        "crystals outside 0..3 (5.1.3)", "negative Fame",
        "a unit with more than 2 wounds (11.7.9)", "more Units than Command tokens (7.2.1)"])


def test_card_conservation_check_catches_a_lost_card(content, tables):
    """count_deeds drops by one when a Deed card leaves every zone without being thrown away
    (the check play_checked makes after each action), and is blind to Wounds (1.2.4)."""
    from mksim._scoring import ScoringTester
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", 1)
    wound = tables.card_ids.index("wound")
    d = core.to_dict()
    n = deed_count(core, wound)
    assert n == total_cards(d) > 16
    p = d["players"][0]
    sc = ScoringTester(core)
    sc.set_cards(0, deck=p["deck"][1:], hand=p["hand"] + ["wound"] * 5)
    assert deed_count(core, wound) == n - 1


def test_circlet_of_proficiency_checked_without_itself_in_hand():
    """Found by tests/benchmarks/fuzz.py (1 game in 1,000,000): Circlet of Proficiency's
    basic effect was listed because an offer skill was usable with the Circlet still in
    hand, then could not resolve with the Circlet in the play area.  Its borrowed skill is
    now checked as it will resolve (lift_self), so the game plays to its end (LL-9.6.1:
    the borrowed effect is part of the card's own)."""
    from mksim import _policies
    weights = dict(_policies.EAGER_WEIGHTS)
    weights.update({"explore": 60.0, "move": 30.0, "interact": 40.0, "recruit": 60.0,
                    "attack": 10.0, "challenge": 1.0, "enter_site": 5.0})      # fuzz.py eager-explorer
    pol = _policies.WeightedPolicy(0, 0, 0, weights, 4.0)
    seed, g = 20261202, 244908
    st = Game("first-reconnaissance", "arythea", lost_legion=True).new_state(seed, g)
    pol.reset(seed, g)
    circlet_plays = 0
    while not st.is_terminal():
        a = pol.choose_in(st.engine, st.legal_actions())
        words = st.action_to_string(a)
        st.apply(a)                                    # never stops the game now
        circlet_plays += "Circlet of Proficiency" in words
    assert st.result().finished and circlet_plays >= 1
