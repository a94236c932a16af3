"""Invariants over seeded sweeps of games (issue 3), after EVERY action: the C-level checks
of ``mksim._checks`` (crystals 0..3 (5.1.3), no negative Fame / Move / Healing / mana,
reputation on the track, units within Command tokens (7.2.1), ...), at most one action per
turn (4.4.5); cards conserved at every turn's start in every 10th game and at the end of
all; and every game ends by a scenario rule (14.2, 14.3) unless it stops at a rule the
engine names as not implemented.  Uniform random choices (2,000 games) and the ``eager``
policy (600 games), which reaches far more combat, sites and units."""
from collections import Counter

import pytest

from mksim._checks import n_checks, violations
from mksim._engine import Engine, describe
from mksim._rng import RandomStream
from mksim._state import GameCore
from mksim.policies import get_policy

HEROES = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")
SITE_ACTIONS = {"challenge", "enter_site", "burn", "interact"}
N_GAMES = 2000         # uniform random games, half per scenario
N_EAGER = 600          # eager-policy games, half per scenario


def deed_cards(d):
    """Every non-Wound Deed card anywhere in the game (6.1.1), with multiplicity."""
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
    c.update(e["advanced_action"] for e in d["unit_offer"] if "advanced_action" in e)
    del c["wound"]
    return c


def check_resources(d, where):
    p = d["players"][0]
    for colour, n in p["crystals"].items():
        assert 0 <= n <= 3, f"{where}: {n} {colour} crystals (5.1.3)"
    assert p["fame"] >= 0, where
    assert d["turn"]["move_points"] >= 0, where


def sweep(content, tables, scenario, n_games, policy=None):
    """Play ``n_games`` seeded games, checking the invariants; return (ends, stopped)."""
    ends, stopped = Counter(), Counter()
    for g in range(n_games):
        hero = HEROES[g % len(HEROES)]
        core = GameCore.new(tables, content, scenario, hero, 2026, g)
        eng = Engine(core, tables, content, scenario)
        start = core.to_dict()
        before = deed_cards(start)
        rng = RandomStream(2026, g, "rewards")
        if policy is not None:
            policy.reset(2026, g)
        actions_this_turn = 0
        try:
            while not eng.is_terminal():
                acts = eng.legal_actions()
                assert len(acts) > 0, f"game {g}: no legal action in phase {eng.phase()}"
                if policy is None:
                    a = int(acts[rng.below(len(acts))])
                else:
                    a = policy.choose(None, acts)
                kind = describe(a).split("(")[0]
                if kind in SITE_ACTIONS:
                    actions_this_turn += 1
                    assert actions_this_turn <= 1, f"game {g}: two actions in one turn (4.4.5)"
                elif kind in ("end_turn", "announce_end", "forfeit"):
                    actions_this_turn = 0
                eng.apply(a)
                bad = violations(core)
                assert not bad, f"{scenario} game {g} after {describe(a)}: {bad}"
                if g % 10 == 0 and kind == "regular_turn":
                    d = core.to_dict()
                    removed = sum(p["removed"] for p in d["players"])
                    assert sum(before.values()) == sum(deed_cards(d).values()) + removed, \
                        f"game {g}: cards not conserved at a turn start"
        except NotImplementedError as err:
            stopped[str(err)] += 1
        else:
            ends[eng.termination()] += 1
        end = core.to_dict()
        check_resources(end, f"{scenario} game {g}")
        removed = sum(p["removed"] for p in end["players"])
        after = deed_cards(end)
        assert sum(before.values()) == sum(after.values()) + removed, f"game {g}: cards not conserved"
        assert not (after - before), f"game {g}: cards appeared: {after - before}"
    # every finished game ended by the round limit or the scenario's end (14.2, 14.3)
    assert set(ends) <= {1, 2}
    assert sum(ends.values()) + sum(stopped.values()) == n_games
    return ends, stopped


@pytest.mark.parametrize("scenario", ["first_reconnaissance", "solo_conquest"])
def test_seeded_sweep_of_random_games(content, tables, scenario):
    ends, stopped = sweep(content, tables, scenario, N_GAMES // 2)
    assert sum(ends.values()) >= 0.99 * (N_GAMES // 2), stopped.most_common(5)


@pytest.mark.parametrize("scenario", ["first_reconnaissance", "solo_conquest"])
def test_seeded_sweep_of_eager_games(content, tables, scenario):
    ends, stopped = sweep(content, tables, scenario, N_EAGER // 2, get_policy("eager"))
    assert sum(ends.values()) >= 0.97 * (N_EAGER // 2), stopped.most_common(5)


def test_the_checks_catch_a_broken_state(content, tables):
    """The invariant checks can fail: 4 red crystals (5.1.3), negative Fame, a unit over the
    Command-token limit (7.2.1) and a unit with 3 wounds (11.7.9) are each reported."""
    from mksim._scoring import ScoringTester
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", 1)
    assert violations(core) == [] and n_checks() == 15
    sc = ScoringTester(core)
    sc.set_crystals(0, [4, 0, 0, 0])
    sc.set_fame(0, -1)
    sc.set_level(0, 1, command_tokens=1)
    sc.set_units(0, [("peasants", 3, None), ("foresters", 0, None)])
    assert sorted(violations(core)) == sorted([
        "crystals outside 0..3 (5.1.3)", "negative Fame",
        "a unit with more than 2 wounds (11.7.9)", "more Units than Command tokens (7.2.1)"])
