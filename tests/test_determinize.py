"""State.determinize: information-fair copies for look-ahead (ext/_determinize.pyx).

What a player sees is kept (hand, discard, play area, units, crystals, Fame, the revealed
map and face-up tokens, offers, Source dice ...); what it cannot know is resampled (the
Deed deck order bar the cards it put on top itself, 6.4.1; face-down enemy and ruins
tokens, 9.9; the tile stack within its Countryside / Core backs, 1.2.13; the AA, spell,
artifact and unit decks; the dummy's deck, 18; every random stream).  Two states that
differ only in hidden information give identical copies for the same seed.
"""
from __future__ import annotations

import random as _pyrandom   # only to permute fixtures in tests (never in the engine)

import pytest

from mksim._checks import violations
from mksim._determinize import visible_hash_core
from mksim.game import Game
from mksim.policies import get_policy
from policy_conformance import permute_hidden, play_to

HIDDEN_LISTS = ("tile_stack", "ruins_pile", "advanced_action_deck", "spell_deck", "artifact_deck",
                "regular_units", "elite_units")


@pytest.fixture(scope="module")
def game(content):
    return Game("first-reconnaissance", "arythea", content=content)


@pytest.fixture(scope="module")
def ll_game(content):
    return Game("first-reconnaissance", "tovak", content=content, lost_legion=True)


@pytest.fixture(scope="module")
def states(game, ll_game):
    """Mid-game states of both content sets, at several points of a game."""
    out = []
    for g in (game, ll_game):
        for seed, steps in ((1, 0), (2, 50), (3, 100), (4, 150), (5, 190)):
            out.append(play_to(g, seed, steps))
    return out


def _visible(s):
    """What player 0 sees in a to_dict(), hidden orders turned into multisets."""
    d = s.to_dict()
    pl = dict(d["players"][0])
    top, bottom = pl["deck_known_top"], pl["deck_known_bottom"]
    deck = pl.pop("deck")
    middle = deck[bottom:len(deck) - top]
    pl["deck_known"] = (deck[:bottom], deck[len(deck) - top:])
    pl["hidden_cards"] = sorted(middle + pl.pop("tactic_cards"))
    pl["skill_stack"] = sorted(pl["skill_stack"])
    hexes = []
    for t in d["map"]["tiles"]:
        for h in t["hexes"]:
            h = dict(h)
            if not h["tokens_face_up"]:
                h["tokens"] = len(h["tokens"])       # the number of face-down tokens is seen
            else:
                h["tokens"] = [x["enemy"] for x in h["tokens"]]
            if not h["ruins_face_up"]:
                h["ruins"] = h["ruins"] is not None
            hexes.append(h)
    dummy = dict(d["dummy"])
    dummy["deck"] = sorted(dummy["deck"])
    dummy["skill_stack"] = sorted(dummy["skill_stack"])
    out = {k: v for k, v in d.items() if k not in HIDDEN_LISTS + (
        "rng", "seed", "game_index", "players", "map", "token_enemy", "enemy_piles", "dummy")}
    out.update(player=pl, hexes=hexes, dummy=dummy, n_tiles=len(d["map"]["tiles"]),
               tiles=[(t["tile"], t["position"]) for t in d["map"]["tiles"]],
               pile_sizes={c: len(v) for c, v in d["enemy_piles"].items()})
    for k in HIDDEN_LISTS:
        out[k] = sorted(d[k])
    return out


def test_determinized_copy_agrees_on_everything_visible(states):
    for s in states:
        d = s.determinize(seed=11)
        assert _visible(d) == _visible(s)
        assert d.view().to_dict() == s.view().to_dict()
        assert d.legal_actions().tolist() == s.legal_actions().tolist()
        assert violations(d.core) == []
        assert d.history == s.history


def test_determinized_copy_keeps_the_multiset_of_every_hidden_zone(states):
    """Face-down tokens are swapped only within their colour (the back is seen), so the
    enemies of each colour (pile + face-down map tokens) stay the same multiset."""
    for s in states:
        a, b = s.to_dict(), s.determinize(seed=5).to_dict()

        def facedown(d):
            per = {}
            for t in d["map"]["tiles"]:
                for h in t["hexes"]:
                    if not h["tokens_face_up"]:
                        for x in h["tokens"]:
                            per.setdefault(x["enemy"], 0)
                            per[x["enemy"]] += 1
            for pile in d["enemy_piles"].values():
                for x in pile:
                    per.setdefault(x["enemy"], 0)
                    per[x["enemy"]] += 1
            return per

        assert facedown(a) == facedown(b)
        assert sorted(a["token_enemy"], key=str) == sorted(b["token_enemy"], key=str)


def test_known_top_of_the_deck_is_kept(game, states):
    """6.4.1: a card gained goes on top of the Deed deck, face up: the player knows it is
    drawn next; the determinized deck keeps the known top (and bottom) cards in place."""
    s = states[3]
    d = s.to_dict()
    deck = d["players"][0]["deck"]
    assert len(deck) >= 8
    d["players"][0]["deck_known_top"] = 2
    d["players"][0]["deck_known_bottom"] = 1
    t = game.state_from_dict(d)
    middles = set()
    for seed in range(5):
        got = t.determinize(seed).to_dict()["players"][0]["deck"]
        assert got[-2:] == deck[-2:] and got[:1] == deck[:1]
        middles.add(tuple(got[1:-2]))
    assert len(middles) > 1


def test_gaining_a_card_makes_the_top_of_the_deck_known(content):
    """10.7.2.2 / 6.4.1: the AA bought at a monastery goes on top of the Deed deck and the
    engine counts it as known; determinizing keeps it on top; drawing forgets it."""
    from interaction_setup import Game as Site
    from mksim._determinize import determinize_core
    from mksim.tables import compile_content
    g = Site(content, compile_content(content), site="monastery")
    g.ut.set_unit_offer(["peasants", ("aa", "fire_bolt"), "herbalists"])
    g.do("interact")
    g.ut.set_turn(influence=6)
    assert g.player["deck_known_top"] == 0
    g.do("buy_aa", 1)
    assert g.player["deck"][-1] == "fire_bolt" and g.player["deck_known_top"] == 1
    tops, rests = set(), set()
    for seed in range(4):
        c = g.core.copy()
        determinize_core(c, 0, seed)
        deck = c.to_dict()["players"][0]["deck"]
        tops.add(deck[-1])
        rests.add(tuple(deck[:-1]))
    assert tops == {"fire_bolt"} and len(rests) > 1
    g.do("end_interact")
    g.do("end_turn")
    g.do("draw")                           # 13.7.2: the draw takes the known card first
    assert "fire_bolt" in g.player["hand"] and g.player["deck_known_top"] == 0


def test_two_seeds_resample_every_hidden_zone(states):
    zones = {}

    def parts(d):
        pl = d["players"][0]
        top, bottom = pl["deck_known_top"], pl["deck_known_bottom"]
        out = {k: d[k] for k in HIDDEN_LISTS}
        out["deck"] = pl["deck"][bottom:len(pl["deck"]) - top]
        out["dummy_deck"] = d["dummy"]["deck"]
        out["skill_stack"] = pl["skill_stack"]
        out["dummy_skill_stack"] = d["dummy"]["skill_stack"]
        for c, pile in d["enemy_piles"].items():
            out["pile_" + c] = [x["enemy"] for x in pile]
        out["rng"] = d["rng"]
        return out

    for s in states:
        p1 = parts(s.determinize(seed=1).to_dict())
        p2 = parts(s.determinize(seed=2).to_dict())
        for k in p1:
            if len(set(map(str, p1[k]))) >= 6:        # >= 720 orders: a tie is no accident
                zones.setdefault(k, []).append(p1[k] != p2[k])
    for k in ("deck", "tile_stack", "ruins_pile", "advanced_action_deck", "spell_deck", "artifact_deck",
              "regular_units", "elite_units", "dummy_deck", "skill_stack", "dummy_skill_stack",
              "pile_green", "pile_grey", "pile_violet", "pile_brown", "pile_red", "pile_white", "rng"):
        assert k in zones, f"no test state has a hidden {k} of 6+ distinct entries"
        assert all(zones[k]), f"{k}: seeds 1 and 2 gave the same order in some state"


@pytest.fixture(scope="module")
def pairs(states, game, ll_game):
    rnd = _pyrandom.Random(1234)
    out = []
    for s in states:
        g = ll_game if s.game is ll_game else game
        out.append((s, permute_hidden(g, s, rnd)))
    return out


def test_permuted_pairs_really_differ_in_hidden_information(pairs):
    changed = sum(s.core.raw_dict() != t.core.raw_dict() for s, t in pairs)
    assert changed == len(pairs)
    for s, t in pairs:
        assert _visible(s) == _visible(t)          # ... and only there


def test_states_differing_only_in_hidden_information_give_identical_copies(pairs):
    for s, t in pairs:
        assert visible_hash_core(s.core, 0) == visible_hash_core(t.core, 0)
        for seed in (0, 7):
            a, b = s.determinize(seed), t.determinize(seed)
            assert a.core.raw_dict() == b.core.raw_dict()
            assert a.core.state_bytes() == b.core.state_bytes()


def test_determinized_copies_play_on(states):
    """A determinized copy is a real game: eager plays it to the end without breaking an
    invariant, and the same seed gives the same game."""
    for s in states[::3]:
        finals = []
        for _ in range(2):
            d = s.determinize(seed=3)
            p = get_policy("eager")
            p.reset(9, 0)
            n = 0
            while not d.is_terminal() and n < 3000:
                legal = d.legal_actions()
                if len(legal) == 0:
                    break
                d.apply(p.choose(d, legal))
                n += 1
            assert d.is_terminal()
            assert violations(d.core) == []
            finals.append(d.core.raw_dict())
        assert finals[0] == finals[1]


def test_policies_decide_alike_on_states_differing_only_in_hidden_information(pairs):
    from mksim.policies import list_policies, policy_class
    builtin = [n for n in list_policies() if policy_class(n).__module__.startswith("mksim.")
               and not policy_class(n).metadata["sees_hidden"]]      # oracle-...: by declaration
    assert {"random", "eager", "first", "search"} <= set(builtin)
    live = [(s, t) for s, t in pairs if len(s.legal_actions()) > 0]
    assert len(live) >= 6
    for name in builtin:
        for s, t in live:
            assert s.legal_actions().tolist() == t.legal_actions().tolist()
            for seed in (0, 1):
                p = get_policy(name)
                p.reset(seed, 0)
                a = p.choose(s, s.legal_actions())
                p.reset(seed, 0)
                b = p.choose(t, t.legal_actions())
                assert a == b, f"{name} sees hidden information"


def test_bad_player_is_refused(states):
    with pytest.raises(ValueError, match="not a player"):
        states[0].determinize(0, player=3)
