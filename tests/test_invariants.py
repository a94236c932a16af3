"""Invariants over a seeded sweep of random games (issue 3): cards are conserved, crystals
stay within 0..3 (5.1.3), Fame and Move points never go negative, at most one action per
turn (4.4.5), and every game ends by a scenario rule (14.2, 14.3) unless it stops at a
rule the engine names as not implemented."""
from collections import Counter

import pytest

from mksim._engine import Engine, describe
from mksim._rng import RandomStream
from mksim._state import GameCore

HEROES = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")
SITE_ACTIONS = {"challenge", "enter_site", "burn", "interact"}
N_GAMES = 2000


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


@pytest.mark.parametrize("scenario", ["first_reconnaissance", "solo_conquest"])
def test_seeded_sweep_of_random_games(content, tables, scenario):
    ends, stopped = Counter(), Counter()
    for g in range(N_GAMES // 2):
        hero = HEROES[g % len(HEROES)]
        core = GameCore.new(tables, content, scenario, hero, 2026, g)
        eng = Engine(core, tables, content, scenario)
        start = core.to_dict()
        before = deed_cards(start)
        rng = RandomStream(2026, g, "rewards")
        actions_this_turn = 0
        try:
            while not eng.is_terminal():
                acts = eng.legal_actions()
                assert len(acts) > 0, f"game {g}: no legal action in phase {eng.phase()}"
                a = int(acts[rng.below(len(acts))])
                kind = describe(a).split("(")[0]
                if kind in SITE_ACTIONS:
                    actions_this_turn += 1
                    assert actions_this_turn <= 1, f"game {g}: two actions in one turn (4.4.5)"
                elif kind in ("end_turn", "announce_end", "forfeit"):
                    actions_this_turn = 0
                eng.apply(a)
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
    assert sum(ends.values()) + sum(stopped.values()) == N_GAMES // 2
    assert sum(ends.values()) >= 0.99 * (N_GAMES // 2), stopped.most_common(5)
