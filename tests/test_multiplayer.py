"""First Reconnaissance for 2-4 heroes (17.2, 17.3.1; issue 12): setup per player count,
tactic order (3.1), round order (3.1.4, 2.4.1), the end after the city is revealed
(17.3.1, 14.3.2), Fame per tile, achievements with titles (20.2, 20.3), heroes sharing the
map (9.5, 9.7, 19.7.3), per-seat streams and the many-actors API (Game(heroes=...),
State.current_player / returns, Outcome per seat), and a small invariant sweep."""
import json

import numpy as np
import pytest

from mksim._engine import KIND_NAMES, describe
from mksim._access import DUMMY_ACTOR, seat_scores
from mksim._policies import RandomPolicy, play_checked
from mksim._rules import Rules
from mksim.game import Game

KIND = {v: k for k, v in KIND_NAMES.items()}
HEROES = ("arythea", "tovak", "goldyx", "norowas")


def kind(a):
    return int(a) >> 20


@pytest.fixture(scope="module")
def games(content):
    return {n: Game("first-reconnaissance", heroes=list(HEROES[:n]), content=content) for n in (2, 3, 4)}


def play_tactics(state):
    """Every player takes the first tactic offered (3.1); returns the seats in choosing order."""
    order = []
    while state.phase == "tactics":
        order.append(state.current_player())
        state.apply(int(state.legal_actions()[0]))
        while state.phase == "tactics" and kind(state.legal_actions()[0]) == KIND["choose"]:
            state.apply(int(state.legal_actions()[0]))      # a tactic's "when taken" question (3.1.3)
    return order


def end_turn_now(state):
    """Finish the current turn as fast as the rules allow (rest or end the turn)."""
    seat = state.current_player()
    for _ in range(60):
        if state.is_terminal() or state.current_player() != seat:
            return
        la = [int(a) for a in state.legal_actions()]
        for want in ("end_turn", "regular_turn", "rest_discard", "discard", "draw", "choose", "rest",
                     "forfeit", "announce_end", "pick_skill", "pick_aa", "reward"):
            hit = [a for a in la if kind(a) == KIND[want]]
            if hit:
                state.apply(hit[0])
                break
        else:
            state.apply(la[0])
    raise AssertionError("the turn did not end")


# -- setup (1.2, 17.2) ------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_1_3_4_every_seat_shuffles_its_own_heros_deck(games, content, n):
    """1.3.4, 1.3.5: each hero starts with that hero's 16 Basic Action cards (Arythea's Battle
    Versatility, Tovak's Cold Toughness ...), not the first seat's."""
    d = games[n].new_state(5).to_dict()
    for p, hero in enumerate(HEROES[:n]):
        pl = d["players"][p]
        assert pl["hero"] == hero
        assert sorted(pl["deck"] + pl["hand"]) == sorted(content.hero_deck(hero, False))
    assert "battle_versatility" not in d["players"][1]["deck"] + d["players"][1]["hand"]


@pytest.mark.parametrize("n, countryside", [(2, 8), (3, 9), (4, 11)])
def test_17_2_setup_counts_per_player_count(games, content, n, countryside):
    """17.2 First Reconnaissance: 8/9/11 Countryside, 2 Core non-city, 1 city tile; 1.2.14 two
    of them revealed at setup (wedge, side A); 1.2.9 / 1.2.11 N+2 Units and dice; no dummy;
    3 rounds (Day, Night, Day)."""
    d = games[n].new_state(7).to_dict()
    stack = d["tile_stack"]
    kinds = [content.get("tiles", t)["kind"] for t in stack]
    placed = [content.get("tiles", t["tile"])["kind"] for t in d["map"]["tiles"]]
    assert len(stack) + len(placed) - 1 == countryside + 3
    assert placed.count("start") == 1 and len(placed) == 3
    assert kinds.count("city") == 1 and kinds.count("core") == 2
    assert kinds[:3].count("countryside") == 0          # 1.2.13: Core tiles at the bottom
    monasteries = sum(1 for t in d["map"]["tiles"] for h in t["hexes"] if h["site"] == "monastery")
    assert sum(1 for u in d["unit_offer"] if "unit" in u) == n + 2     # + an AA per monastery (9.9.2)
    assert len(d["unit_offer"]) == n + 2 + monasteries
    assert d["n_players"] == n and d["has_dummy"] == 0
    assert [p["hero"] for p in d["players"]] == list(HEROES[:n])
    for p in d["players"]:                               # 1.3.4, 1.3.5, 1.4
        assert len(p["hand"]) == 5 and len(p["deck"]) == 11 and p["fame"] == 0
    assert games[n].rounds == 3


def test_17_2_source_dice_per_player_count(games):
    for n, g in games.items():
        raw = g.new_state(3).core.raw_dict()
        assert raw["n_dice"] == n + 2                    # 1.2.11 (no dummy)


def test_1_1_2_heroes_are_distinct_and_the_scenario_must_allow_the_count(content):
    with pytest.raises(ValueError, match="different hero"):
        Game("first-reconnaissance", heroes=["arythea", "arythea"], content=content)
    with pytest.raises(ValueError, match="not set up for 2 players"):
        Game("solo-conquest", heroes=["arythea", "tovak"], content=content)
    with pytest.raises(ValueError, match="unknown hero"):
        Game("first-reconnaissance", heroes=["arythea", "merlin"], content=content)


def test_seat_streams_seat_0_shuffles_as_in_a_solo_game(games, content):
    """Each player has their own Deed-shuffle stream; seat 0's is the solo stream, so seat 0
    draws the hand of a solo game with the same seed whoever sits beside it."""
    solo = Game("first-reconnaissance", hero="arythea", content=content).new_state(11).to_dict()
    for n, g in games.items():
        d = g.new_state(11).to_dict()
        assert d["players"][0]["hand"] == solo["players"][0]["hand"]
        assert d["players"][0]["deck"] == solo["players"][0]["deck"]
    other = Game("first-reconnaissance", heroes=["arythea", "goldyx"], content=content).new_state(11).to_dict()
    assert other["players"][0]["hand"] == solo["players"][0]["hand"]


# -- tactics and round order (3.1, 2.4) -------------------------------------------------

def test_3_1_2_round_1_the_last_hero_picked_chooses_first(games):
    for n, g in games.items():
        s = g.new_state(5)
        assert play_tactics(s) == list(range(n - 1, -1, -1))


def test_3_1_4_turns_follow_the_tactic_numbers(games, content):
    number = {t["id"]: t["number"] for t in content["tactics"]}
    g = games[4]
    s = g.new_state(9)
    play_tactics(s)
    d = s.to_dict()
    by_number = sorted(range(4), key=lambda p: number[d["players"][p]["tactic"]])
    seen = []
    while len(seen) < 4:
        seen.append(s.current_player())
        end_turn_now(s)
    assert seen == by_number
    assert len({d["players"][p]["tactic"] for p in range(4)}) == 4        # one tactic each


def test_3_1_2_later_rounds_lowest_fame_first_ties_lower_in_the_column(games, content):
    """Round 2: fewest Fame chooses first; equal Fame: the player later in last round's
    order (higher tactic number) first.  Tactics are not removed (2.2.7, 3.1.5)."""
    g = games[3]
    for seed in range(6):
        s = g.new_state(seed)
        pol = RandomPolicy(seed, 0)
        while s.info()["round"] == 1 and not s.is_terminal():
            s.apply(pol.choose(s.legal_actions()))
        d = s.to_dict()
        assert d["phase"] == "tactics" and d["round"] == 2
        assert len(d["tactics_available"]) == 6            # the whole Night set again
        order = sorted(range(3), key=lambda p: (d["players"][p]["fame"], -d["players"][p]["round_order"]))
        assert play_tactics(s) == order


# -- the end (17.3.1, 14.3.2) -----------------------------------------------------------

def reveal_city_now(state, tables):
    """Put the city tile on top of the stack and let the current player explore it."""
    r = Rules(state.core)
    r.clear_tile_stack()
    r.push_tile(tables.tile_ids.index("core_8"))
    p = state.current_player()
    for h in range(r.n_hexes):
        if r.explorable(h):
            r.set_position(h, p)
            r.set_move_points(2)
            break
    ex = [int(a) for a in state.legal_actions() if describe(int(a)).startswith("explore")]
    assert ex
    fame = state.to_dict()["players"][p]["fame"]
    state.apply(ex[0])
    assert state.to_dict()["players"][p]["fame"] == fame + 1          # 17.3.1: +1 Fame per tile
    return p


@pytest.mark.parametrize("n", [2, 3, 4])
def test_17_3_1_after_the_city_every_player_takes_one_last_turn(games, tables, n):
    g = games[n]
    s = g.new_state(21)
    play_tactics(s)
    end_turn_now(s)                                    # the revealer is not the first in order
    s.apply(int([a for a in s.legal_actions() if kind(a) == KIND["regular_turn"]][0]))
    revealer = reveal_city_now(s, g.tables)
    assert s.to_dict()["final_turns_left"] == n + 1
    end_turn_now(s)
    last = []
    while not s.is_terminal():
        last.append(s.current_player())
        end_turn_now(s)
    assert sorted(last) == list(range(n))              # each player once, the revealer included
    assert revealer in last
    assert s.result().termination == "scenario_won"


def test_14_3_2_the_round_ending_during_the_last_turns_ends_the_game(games, tables):
    g = games[3]
    s = g.new_state(4)
    play_tactics(s)
    s.apply(int([a for a in s.legal_actions() if kind(a) == KIND["regular_turn"]][0]))
    reveal_city_now(s, g.tables)
    first = s.current_player()
    s.core.set_raw({"end_announced_by": first})        # as if the End of the Round was announced
    end_turn_now(s)
    turns = 0
    while not s.is_terminal():
        turns += 1
        end_turn_now(s)
    assert turns == 2                                   # the two others, then the round (and game) ends
    assert s.info()["round"] == 1 and s.result().termination == "scenario_won"



def test_14_3_2_and_14_3_3_solo_the_round_ending_during_the_last_turn_ends_the_game(content, tables):
    # Solo (dummy): the End of the Round is announced (as the dummy does when its deck runs
    # out, 18.2), then the hero reveals the city in its last turn of the round.  14.3.3: the
    # hero gets only one final turn counted from the first event, and 14.3.2: the round
    # ending during the last turns ends the game -- no new round is dealt for a last turn.
    g = Game("first-reconnaissance", hero="arythea", content=content)
    s = g.new_state(5)
    play_tactics(s)
    while s.current_player() != 0:
        end_turn_now(s)
    s.apply(int([a for a in s.legal_actions() if kind(a) == KIND["regular_turn"]][0]))
    reveal_city_now(s, g.tables)
    assert s.to_dict()["final_turns_left"] == 2        # this turn + one more (the dummy takes none)
    s.core.set_raw({"end_announced_by": DUMMY_ACTOR})
    end_turn_now(s)
    assert s.is_terminal()
    assert s.info()["round"] == 1 and s.result().termination == "scenario_won"


# -- scoring (20.2, 20.3, 20.1.1) -------------------------------------------------------

def test_20_3_titles_best_gets_3_ties_1_none_at_0_beating_minus_3(games, tables):
    s = games[3].new_state(2)
    wound = tables.card_ids.index("wound")
    s.core.set_raw({"players": [
        {"crystals": [3, 3, 0, 0], "hand": [wound, 0, 0, 0, 0], "n_hand": 5, "fame": 4},   # Loot 3, 1 Wound
        {"crystals": [2, 0, 0, 0], "hand": [wound, wound, 0, 0, 0], "n_hand": 5, "fame": 10},   # Loot 1, 2 Wounds
        {"crystals": [1, 1, 0, 0], "hand": [0, 0, 0, 0, 0], "n_hand": 5, "fame": 6},      # Loot 1, no Wound
    ]})
    got = seat_scores(s.core, True)
    # 20.2: Fame + Loot (crystals // 2) - 2 per Wound; 20.3.1: Loot 3 is alone best: +3;
    # Knowledge, Leader, Conqueror, Adventurer are tied at 0: nothing; 20.3.2: seat 1 lost most: -3
    assert got == [(4 + 3 - 2 + 3, 3), (10 + 1 - 4 - 3, -3), (6 + 1, 0)]
    assert seat_scores(s.core, False) == [(5, 0), (7, 0), (7, 0)]     # without titles
    s.core.set_raw({"players": [{"crystals": [2, 0, 0, 0]}, {}, {"hand": [wound, wound, 0, 0, 0]}]})
    got = seat_scores(s.core, True)
    # Loot 1 / 1 / 1: a three-way tie above 0, +1 each; Beating 1 / 2 / 2 Wounds: tie at -4, -1 each
    assert [t for _, t in got] == [1, 1 - 1, 1 - 1]


def test_20_1_1_most_fame_wins_ties_share(games):
    s = games[2].new_state(6)
    pol = RandomPolicy(6, 0)
    while not s.is_terminal():
        s.apply(pol.choose(s.legal_actions()))
    out = s.result()
    assert out.finished and len(out.seat_score) == 2 and out.seat_score == tuple(int(x) for x in s.returns())
    top = max(out.seat_score)
    assert out.seat_won == tuple(x == top for x in out.seat_score)
    assert out.score == out.seat_score[0] and out.fame == out.seat_fame[0]


# -- heroes on one map (9.5, 9.7, 19.7.3) -----------------------------------------------

def test_9_5_4_no_action_on_another_heroes_space(games, content):
    """A village shared with another hero offers no interaction (9.5.4; no PvP, 19.7.3), and
    the space is not safe to end the turn on (9.7.1: Forced Withdrawal, 13.2)."""
    g = games[2]
    for seed in range(40):
        s = g.new_state(seed)
        d = s.to_dict()
        village = [h["index"] for t in d["map"]["tiles"] for h in t["hexes"] if h["site"] == "village"]
        if not village:
            continue
        play_tactics(s)
        s.apply(int([a for a in s.legal_actions() if kind(a) == KIND["regular_turn"]][0]))
        p = s.current_player()
        r = Rules(s.core)
        r.set_position(village[0], p)
        assert any(kind(a) == KIND["interact"] for a in s.legal_actions())
        assert r.is_safe(village[0], p)
        r.set_position(village[0], 1 - p)
        assert not any(kind(a) == KIND["interact"] for a in s.legal_actions())
        assert not r.is_safe(village[0], p)
        return
    pytest.fail("no village among the setup tiles of 40 seeds")


# -- the API ----------------------------------------------------------------------------

def test_current_player_is_a_seat_and_never_the_dummy(content):
    solo = Game("first-reconnaissance", hero="tovak", content=content).new_state(1)
    pol = RandomPolicy(1, 0)
    while not solo.is_terminal():
        assert solo.current_player() == 0
        solo.apply(pol.choose(solo.legal_actions()))
    assert solo.current_player() == -1 and len(solo.returns()) == 1
    assert solo.returns() == [float(solo.result().score)]


def test_fixture_round_trip_with_several_heroes(games):
    g = games[3]
    s = g.new_state(8)
    pol = RandomPolicy(8, 0)
    for _ in range(150):
        s.apply(pol.choose(s.legal_actions()))
    d = json.loads(json.dumps(s.to_dict()))
    assert d["heroes"] == list(HEROES[:3])
    back = g.state_from_dict(d)
    assert back.to_dict() == s.to_dict()
    assert back.current_player() == s.current_player()
    bad = dict(d, heroes=["arythea", "goldyx", "tovak"])
    with pytest.raises(ValueError, match="heroes"):
        g.state_from_dict(bad)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_invariants_hold_in_random_and_eager_games(games, n):
    """A CI-sized sweep: 60 random and 60 eager games per player count, the invariants,
    card conservation and per-player conservation checked after every action; every game
    ends by the rules or stops at a named missing rule (interactive skills, 8.2.2)."""
    from mksim._policies import EAGER_WEIGHTS, WeightedPolicy
    g = games[n]
    finished = 0
    for i in range(120):
        pols = [RandomPolicy(99, i, k) if i % 2 else WeightedPolicy(99, i, k, EAGER_WEIGHTS) for k in range(n)]
        s = g.new_state(99, i)
        steps, err, last, viol, vstep, _ = play_checked(pols, s.engine)
        assert viol < 0, (i, viol, vstep, describe(last))
        if err == 0:
            assert s.is_terminal() and s.result().termination in ("round_limit", "scenario_won")
            finished += 1
        else:
            assert "not implemented yet" in str(s.engine._error(err, last))
    assert finished >= 110


# -- the command line and per-seat policies ---------------------------------------------

def test_mksim_play_three_heroes_with_the_heuristic_logs_every_seat():
    from typer.testing import CliRunner
    from mksim.cli import app
    res = CliRunner().invoke(app, ["play", "--scenario", "first_reconnaissance", "--players", "3",
                                   "--hero", "arythea,tovak,goldyx", "--policy", "heuristic", "--log"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    # round 1: the last hero picked chooses first (3.1.2), each seat decides for itself
    assert lines[2].split(": ")[0].strip().endswith("Goldyx") and "take tactic" in lines[2]
    assert lines[3].split(": ")[0].strip().endswith("Tovak") and lines[4].split(": ")[0].strip().endswith("Arythea")
    for hero in ("Arythea", "Tovak", "Goldyx"):
        assert any(line.startswith(f"-- {hero}'s turn") for line in lines)
    assert lines[-1].startswith("game over:") and lines[-1].count("score") == 3 and "(wins)" in lines[-1]


@pytest.mark.parametrize("args, words", [
    (["--players", "2", "--hero", "arythea"], "name one per seat"),
    (["--players", "2", "--hero", "arythea,arythea"], "different hero"),
    (["--players", "3", "--policy", "random", "--policy", "eager"], "once per seat"),
    (["--players", "2", "--scenario", "solo-conquest"], "not set up for 2 players"),
    (["--policy", "random", "--policy", "eager"], "needs --players"),
])
def test_mksim_play_bad_seat_arguments_are_one_error_line(args, words):
    from typer.testing import CliRunner
    from mksim.cli import app
    res = CliRunner().invoke(app, ["play"] + args)
    assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output
    assert res.output.strip().count("\n") == 0 and res.output.startswith("error:")


def test_seat_policies_give_each_seat_its_own_stream():
    from mksim.runner import seat_policies
    pols = seat_policies("random", 3)
    assert [p.parameters["stream"] for p in pols] == [0, 1, 2]
    with pytest.raises(ValueError, match="2 policies for 3 seats"):
        seat_policies(["random", "eager"], 3)


def test_play_seats_binds_each_heuristic_seat_like_its_step_by_step_path(games):
    # The nogil loop of several seats must make the decisions the one-call-per-decision path
    # makes: the heuristic's per-content tables (tactic ranks, average tokens) are bound by
    # play_seats itself, so fresh, unbound policies play the same game both ways.
    from mksim._heuristic import HeuristicPolicy
    g = games[2]
    for k in (3, 4):
        fast = g.new_state(k)
        seats = [HeuristicPolicy(7, k, s) for s in range(2)]
        steps = seats[0].play_seats(seats, fast.engine)
        slow = g.new_state(k)
        seats = [HeuristicPolicy(7, k, s) for s in range(2)]
        n = 0
        while not slow.is_terminal() and n < 100000:
            slow.apply(int(seats[slow.current_player()].choose_engine(slow.engine)))
            n += 1
        assert fast.is_terminal() and n == steps
        assert fast.to_dict() == slow.to_dict()
