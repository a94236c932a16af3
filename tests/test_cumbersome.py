"""Cumbersome (The Lost Legion, LL-6.5): in the Block phase Move points played during the
combat reduce a Cumbersome enemy's attack, 1 per point (LL-6.5.2); the reduction lasts
through the Block and Assign Damage phases and an attack reduced to 0 counts as blocked
(LL-6.5.3).  So Move has a use in that Block phase: March and Move sideways are playable
there (LL-9.7.2, LL-9.7.5).  Orc Stonethrowers: Attack 7 physical; Fire Catapult: Attack 8
fire (mksim/data/enemies.toml, both Cumbersome)."""
import pytest

from mksim._engine import encode
from mksim._rules import Rules

from test_spells_artifacts import acts, codes, play_code, player, start
from test_spells_handlers import fight


def move_points(core):
    return core.to_dict()["turn"]["move_points"]


def wounds_in_hand(core):
    return player(core)["hand"].count("wound")


def sideways_move(i):
    return encode("sideways", i)                       # what 0 = Move 1 (6.1.7)


@pytest.mark.covers("march", "basic")
def test_LL_6_5_2_march_is_playable_in_the_block_phase_against_a_cumbersome_enemy(content, tables):
    """March (Move 2) in the Block phase against Orc Stonethrowers: it is offered, its Move 2
    buys two reductions of exactly 1 each (7 -> 6 -> 5), then no more are offered."""
    core, eng, sc = start(content, tables, ["march"])
    T = fight(core, ["orc_stonethrowers"], phase="block")
    assert move_points(core) == 0
    assert "cumbersome(0)" not in acts(eng)            # no Move point yet
    assert play_code(0, 0) in codes(eng)
    eng.apply(play_code(0, 0))
    assert move_points(core) == 2
    assert acts(eng).count("cumbersome(0)") == 1
    eng.apply(encode("cumbersome", 0))
    assert (move_points(core), T.block_needed(0)) == (1, 6)
    eng.apply(encode("cumbersome", 0))
    assert (move_points(core), T.block_needed(0)) == (0, 5)
    assert "cumbersome(0)" not in acts(eng)
    with pytest.raises(ValueError):
        eng.apply(encode("cumbersome", 0))             # legal means accepted, and nothing else


def test_LL_6_5_2_the_reduced_attack_is_blocked_by_less_block(content, tables):
    """Block 5 does not stop Attack 7 (11.6.7: all or nothing); after 2 Move points spent
    the attack is 5 and the same Block 5 blocks it."""
    core, eng, sc = start(content, tables, ["march"])
    T = fight(core, ["orc_stonethrowers"], phase="block")
    T.set_block("physical", 5)
    assert "block(0)" not in acts(eng)
    eng.apply(play_code(0, 0))
    eng.apply(encode("cumbersome", 0))
    eng.apply(encode("cumbersome", 0))
    assert "block(0)" in acts(eng)
    eng.apply(encode("block", 0))
    assert "blocked" in T.enemy(0)["flags"] and not T.attack_live(0)


def test_LL_6_5_3_an_unblocked_reduced_attack_deals_the_reduced_damage(content, tables):
    """LL-6.5.3: the reduction lasts into Assign Damage.  Arythea's Armor 2 (level 1):
    Attack 7 would be 4 Wounds (12.1: ceil(7 / 2)); reduced by 2 to 5 it is 3."""
    core, eng, sc = start(content, tables, ["march"])
    fight(core, ["orc_stonethrowers"], phase="block")
    eng.apply(play_code(0, 0))
    eng.apply(encode("cumbersome", 0))
    eng.apply(encode("cumbersome", 0))
    eng.apply(encode("next_phase"))
    eng.apply(encode("damage_from", 0))
    eng.apply(encode("damage_hero"))
    assert wounds_in_hand(core) == 3


def test_LL_6_5_3_an_attack_reduced_to_0_counts_as_blocked(content, tables):
    """Three Marches (Move 6) and a card sideways as Move 1 (Move has a use here, LL-9.7.5):
    7 points take Attack 7 to 0, which counts as blocked (LL-6.5.3); no damage follows."""
    core, eng, sc = start(content, tables, ["march", "march", "march", "rage"])
    T = fight(core, ["orc_stonethrowers"], phase="block")
    for _ in range(3):
        eng.apply(play_code(0, 0))
    assert sideways_move(0) in codes(eng)
    eng.apply(sideways_move(0))
    assert move_points(core) == 7
    for _ in range(7):
        eng.apply(encode("cumbersome", 0))
    assert move_points(core) == 0
    assert "blocked" in T.enemy(0)["flags"] and not T.attack_live(0)
    assert "cumbersome(0)" not in acts(eng)
    eng.apply(encode("next_phase"))
    assert not any(a.startswith("damage_from") for a in acts(eng))
    assert wounds_in_hand(core) == 0


def test_LL_6_5_2_each_point_reduces_the_chosen_enemy_fire_catapult(content, tables):
    """Two Cumbersome enemies: each point goes to the one chosen (Fire Catapult, Attack 8
    fire: 3 points -> 5; Orc Stonethrowers untouched at 7)."""
    core, eng, sc = start(content, tables, ["march"])
    T = fight(core, ["orc_stonethrowers", "fire_catapult"], phase="block")
    Rules(core).set_move_points(3)
    assert {"cumbersome(0)", "cumbersome(1)"} <= set(acts(eng))
    for _ in range(3):
        eng.apply(encode("cumbersome", 1))
    assert (T.block_needed(0), T.block_needed(1)) == (7, 5)


def test_LL_6_5_2_not_offered_against_an_enemy_that_is_not_cumbersome(content, tables):
    """Prowlers (not Cumbersome): Move has no use in their Block phase, so March and Move
    sideways are not offered and Move points cannot reduce their attack."""
    core, eng, sc = start(content, tables, ["march"])
    T = fight(core, ["prowlers"], phase="block")
    assert play_code(0, 0) not in codes(eng)
    assert sideways_move(0) not in codes(eng)
    Rules(core).set_move_points(3)
    assert not any(a.startswith("cumbersome") for a in acts(eng))
    with pytest.raises(ValueError):
        eng.apply(encode("cumbersome", 0))
    assert T.block_needed(0) == 4 and move_points(core) == 3


@pytest.mark.parametrize("phase", ["ranged", "attack"])
def test_LL_6_5_2_not_offered_outside_the_block_phase(content, tables, phase):
    """Only in the Block phase (LL-6.5.2): in the Ranged and Siege and the Attack phases
    March has no use (no Agility) and Move points buy no reduction."""
    core, eng, sc = start(content, tables, ["march"])
    T = fight(core, ["orc_stonethrowers"], phase=phase)
    assert play_code(0, 0) not in codes(eng)
    Rules(core).set_move_points(3)
    assert not any(a.startswith("cumbersome") for a in acts(eng))
    with pytest.raises(ValueError):
        eng.apply(encode("cumbersome", 0))
    assert T.damage_of(0, 0) == 7                      # unreduced


def test_LL_6_5_2_fixture_block_phase_march_then_cumbersome_in_words():
    """A written fixture (docs/fixtures.md): the Block phase against Orc Stonethrowers with
    March in hand, played through ``State`` by the words a player reads: March gives Move 2,
    each point is one reduction of the attack by 1 (LL-6.5.2)."""
    from mksim.game import Game
    fx = {"format": 1, "phase": "combat_block",
          "players": [{"position": 0, "hand": ["march"], "tactic": "early_bird"}],
          "turn": {"action_taken": 1},
          "combat": {"active": 1, "units_allowed": 1,
                     "enemies": [{"enemy": "orc_stonethrowers", "flags": 16}]}}
    s = Game("solo-conquest", "tovak", lost_legion=True).state_from_dict(fx)

    def words():
        return {s.action_to_string(a): int(a) for a in s.legal_actions()}

    s.apply(words()["play March (basic)"])
    reduce = "spend 1 Move point to reduce Orc Stonethrowers' Attack 7 by 1 (Cumbersome)"
    assert reduce in words()
    s.apply(words()[reduce])
    s.apply(words()[reduce])
    d = s.to_dict()
    assert d["turn"]["move_points"] == 0 and d["combat"]["enemies"][0]["attack_delta"][0] == -2
    assert reduce not in words()


def test_LL_6_5_2_heuristic_spends_move_left_in_the_block_phase_on_cumbersome():
    """The heuristic policy, in the Block phase against Orc Stonethrowers with 2 Move points
    and no Agility conversion to keep them for, lowers the attack with them (7 -> 5)."""
    from mksim.game import Game
    from mksim.policies import get_policy
    fx = {"format": 1, "phase": "combat_block",
          "players": [{"position": 0, "hand": ["rage"], "tactic": "early_bird"}],
          "turn": {"action_taken": 1, "move_points": 2},
          "combat": {"active": 1, "units_allowed": 1,
                     "enemies": [{"enemy": "orc_stonethrowers", "flags": 16}]}}
    s = Game("solo-conquest", "tovak", lost_legion=True).state_from_dict(fx)
    pol = get_policy("heuristic")
    pol.reset(1, 0)
    for _ in range(2):
        a = pol.choose(s, s.legal_actions())
        assert s.action_to_string(a).startswith("spend 1 Move point to reduce Orc Stonethrowers'")
        s.apply(a)
    d = s.to_dict()
    assert d["turn"]["move_points"] == 0 and d["combat"]["enemies"][0]["attack_delta"][0] == -2
