"""The built-in policies in First Reconnaissance for 2-4 heroes (issues 9 and 12): each seat
decides from its own seat's point of view, honestly (docs/policies.md), and keeps the rules
of heroes sharing one map (9.5.4: no action on another hero's space; 9.7.1 / 13.2: no turn
ends there).

Honesty with several heroes: another seat's hand, Deed deck and Sparing Power cards are
hidden from the acting seat, as is the acting seat's own deck order.  Two states that differ
only there give identical determinized copies and identical decisions of every built-in
policy (the solo version: tests/test_determinize.py)."""
from __future__ import annotations

import random as _pyrandom   # only to permute fixtures in tests (never in the engine)

import pytest

from mksim._determinize import visible_hash_core
from mksim._engine import KIND_NAMES
from mksim.game import Game
from mksim.policies import list_policies, policy_class
from mksim.policies.registry import parse_policy_spec as get_policy
from mksim.runner import choose_checked, seat_policies
from policy_conformance import permute_hidden, play_to

KIND = {v: k for k, v in KIND_NAMES.items()}
HEROES = ("arythea", "tovak", "goldyx", "norowas")
POINTS = ((2, 40), (3, 90), (4, 140), (5, 65), (6, 115), (7, 170))


def kind(a):
    return int(a) >> 20


@pytest.fixture(scope="module")
def games(content):
    return {n: Game("first-reconnaissance", heroes=list(HEROES[:n]), content=content) for n in (2, 3)}


@pytest.fixture(scope="module")
def mp_pairs(games):
    """(n, state, permuted state, acting seat) at several points of eager 2- and 3-player
    games: the permuted state reshuffles the acting seat's unknown deck, every other seat's
    hidden cards and every hidden pile / stack / stream."""
    rnd = _pyrandom.Random(4321)
    out = []
    for n, g in games.items():
        for seed, steps in POINTS:
            s = play_to(g, seed, steps)
            if s.is_terminal() or len(s.legal_actions()) == 0:
                continue
            seat = s.current_player()
            out.append((n, s, permute_hidden(g, s, rnd, player=seat), seat))
    return out


def test_pairs_differ_in_another_seats_hidden_cards(mp_pairs):
    """The fixture is what it claims: other seats' hands really differ on most pairs, the
    acting seat's hand never, and seats other than 0 act in some of them."""
    other_hand_differs = 0
    for n, s, t, seat in mp_pairs:
        a, b = s.to_dict(), t.to_dict()
        assert a["players"][seat]["hand"] == b["players"][seat]["hand"]
        assert sorted(a["players"][seat]["deck"]) == sorted(b["players"][seat]["deck"])
        for q in range(n):
            if q != seat:
                pa, pb = a["players"][q], b["players"][q]
                assert sorted(pa["hand"] + pa["deck"] + pa["tactic_cards"]) == \
                    sorted(pb["hand"] + pb["deck"] + pb["tactic_cards"])
                other_hand_differs += pa["hand"] != pb["hand"]
        assert s.legal_actions().tolist() == t.legal_actions().tolist()
    assert {n for n, *_ in mp_pairs} == {2, 3}
    assert len(mp_pairs) >= 10
    assert any(seat != 0 for *_, seat in mp_pairs)
    assert other_hand_differs >= len(mp_pairs) // 2


def test_determinized_copies_are_identical_for_states_differing_in_hidden_cards(mp_pairs):
    """ext/_determinize.pyx _resample_other: another seat's hand and deck are one hidden
    pool; with the acting seat's deck order and the hidden piles they are drawn anew from the
    seed and what the acting seat sees, so the copies are byte-identical."""
    for n, s, t, seat in mp_pairs:
        assert visible_hash_core(s.core, seat) == visible_hash_core(t.core, seat)
        for seed in (0, 7):
            a, b = s.determinize(seed), t.determinize(seed)
            assert a.core.state_bytes() == b.core.state_bytes()
            assert a.to_dict()["players"][seat]["hand"] == s.to_dict()["players"][seat]["hand"]


def _honest_builtins():
    return [n for n in list_policies() if policy_class(n).__module__.startswith("mksim.")
            and not policy_class(n).metadata["sees_hidden"]]


def test_every_builtin_policy_decides_alike_on_them(mp_pairs):
    """Same policy seed, same decision: no built-in policy reads another seat's hidden
    cards or the own deck order (search looks ahead only on determinized copies)."""
    names = _honest_builtins()
    assert {"random", "eager", "first", "heuristic", "search"} <= set(names)
    searched = 0
    for name in names:
        for n, s, t, seat in mp_pairs:
            for seed in (0, 1):
                p = get_policy("search:budget=4" if name == "search" else name)
                p.reset(seed, 0)
                a = p.choose(s, s.legal_actions())
                p.reset(seed, 0)
                b = p.choose(t, t.legal_actions())
                assert a == b, f"{name} decided differently for seat {seat} of {n}: it sees hidden cards"
                searched += getattr(p, "searched", 0)
    assert searched >= 4                       # search really looked ahead on some pairs


def _end_turns_on_heroes(game, n, games_played):
    """(turn ends on another hero's non-shared space, all turn ends) of heuristic games."""
    on, total = 0, 0
    for i in range(games_played):
        pols = seat_policies("heuristic", n)
        for p in pols:
            p.reset(11, i)
        s = game.new_state(11, i)
        while not s.is_terminal():
            seat = s.current_player()
            a = choose_checked(pols[seat], s, s.legal_actions())
            if kind(a) == KIND["end_turn"]:
                d = s.to_dict()
                pos = [pl["position"] for pl in d["players"]]
                total += 1
                on += pos[seat] is not None and any(q != seat and pos[q] == pos[seat] for q in range(n))
            s.apply(a)
    return on, total


def test_9_7_1_heuristic_does_not_end_its_turn_on_another_heros_space(games):
    """9.5.4, 9.7.1, 13.2: on another hero's space no action may be taken and the turn may
    not end (Forced Withdrawal, a Wound per space retraced).  The heuristic moves on to a
    safe space when it can pay the step (before this rule was planned, 7 % of its turns in
    3-player games ended on another hero; the portal (9.5.5) is off the map and not
    counted)."""
    on, total = _end_turns_on_heroes(games[3], 3, 6)
    assert total > 150
    assert on <= total // 100, (on, total)


def test_search_rollouts_play_the_other_seats_and_value_the_deciding_seat(games, content):
    """A search for seat k rolls out on worlds determinized for k, the base policy playing
    the other seats' turns in between (other_decisions > 0) until k's next turn, and rates
    the end position by k's own value (docs/policies.md): changing only the other seat's
    Fame changes none of the candidates' values; solo rollouts have no other seat."""
    g = games[2]
    s = play_to(g, 3, 120)
    while s.current_player() != 1 or not 2 <= len(s.legal_actions()) <= 8 or s.phase != "move":
        s.apply(int(s.legal_actions()[0]))
    d = s.to_dict()
    richer = dict(d, players=[dict(d["players"][0], fame=d["players"][0]["fame"] + 12), d["players"][1]])
    t = g.state_from_dict(richer)
    vals = []
    for st in (s, t):
        p = get_policy("search:budget=4")
        p.reset(5, 0)
        p.choose(st, st.legal_actions())
        assert p._core.last_seat == 1 and p.searched == 1
        assert p._core.other_decisions > 0
        vals.append(p._core.last_values())
    assert len(vals[0]) == len(s.legal_actions()) and vals[0] == vals[1]
    solo = Game("first-reconnaissance", "arythea", content=content)
    u = play_to(solo, 3, 60)
    while not 2 <= len(u.legal_actions()) <= 8 or u.phase != "move":
        u.apply(int(u.legal_actions()[0]))
    p = get_policy("search:budget=4")
    p.reset(5, 0)
    p.choose(u, u.legal_actions())
    assert p.searched == 1 and p._core.other_decisions == 0


def test_search_value_is_the_seats_own(games, content):
    """The value function read for seat k is seat k's: Fame + 2 x level + 3 per Unit (- 0.5
    per Unit Wound) + 0.5 per crystal - 1 per Wound card owned (hand, deck, discard)."""
    g = games[2]
    s = play_to(g, 8, 200)
    d = s.to_dict()
    p = get_policy("search:budget=2")
    p.choose(s, s.legal_actions())            # binds the scratch game
    for seat in (0, 1):
        pl = d["players"][seat]
        units = [u for u in pl["units"] if u is not None]
        wounds = sum(c == "wound" for c in pl["hand"] + pl["deck"] + pl["discard"])
        crystals = sum(pl["crystals"].values()) if isinstance(pl["crystals"], dict) else sum(pl["crystals"])
        want = (pl["fame"] + 2 * pl["level"] + sum(3 - 0.5 * u["wounds"] for u in units)
                + 0.5 * crystals - wounds)
        assert p._core.evaluate(s.engine, seat) == pytest.approx(want)
    with pytest.raises(ValueError, match="not a player"):
        p._core.evaluate(s.engine, 2)


# -- conformance: every built-in policy in every seat ---------------------------------------

CONFORMANCE_PARAMS = {"search": "search:budget=2", "oracle-search": "oracle-search:budget=2"}


@pytest.mark.parametrize("n", [2, 3])
def test_every_builtin_policy_finishes_games_in_every_seat(games, n):
    """Every registered built-in policy, in every seat, plays complete games: each decision
    legal (choose_checked), and no stop but a named unimplemented rule (ERR_HEROES: the
    interactive skills' and Spells' parts on other heroes, 8.2.2, 19.7.1)."""
    g = games[n]
    builtin = [x for x in list_policies() if policy_class(x).__module__.startswith("mksim.")]
    assert len(builtin) >= 8
    for name in builtin:
        spec = CONFORMANCE_PARAMS.get(name, name)
        for i in range(1 if "search" in name else 2):
            pols = seat_policies(spec, n)
            for p in pols:
                p.reset(21, i)
            s = g.new_state(21, i)
            steps = 0
            while not s.is_terminal() and steps < 20000:
                a = choose_checked(pols[s.current_player()], s, s.legal_actions())
                try:
                    s.apply(a)
                except NotImplementedError as err:
                    assert "not implemented yet" in str(err), (name, str(err))
                    break
                steps += 1
            assert s.is_terminal() or s.is_stopped(), (name, i, steps)
            if s.is_terminal():
                assert s.result().termination in ("round_limit", "scenario_won")


def test_the_view_shows_other_seats_public_facts_only(mp_pairs):
    """State.view() with several heroes: every seat's position, Fame, level, Reputation, hand
    and deck sizes, discard pile, Units and crystals (what every player sees), and the
    turns left after the city (14.3.2); the views of the two states of a pair are equal, so
    the view carries no other seat's hand or deck card."""
    for n, s, t, seat in mp_pairs:
        v, d = s.view(), s.to_dict()
        assert v.actor == seat and len(v.heroes) == n
        for q, h in enumerate(v.heroes):
            pl = d["players"][q]
            assert h["seat"] == q and h["fame"] == pl["fame"] and h["level"] == pl["level"]
            assert h["hand_size"] == len(pl["hand"]) and h["deck_size"] == len(pl["deck"])
            assert "hand" not in h and "deck" not in h
        assert v.final_turns_left == d["final_turns_left"]
        assert s.view().to_dict() == t.view().to_dict()
