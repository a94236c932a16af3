"""Rule breaks found by review (issue 7, deliverable 2), each fixed and checked here on a
position written as a fixture (docs/fixtures.md, ``Game.state_from_dict``).

- 4.3.2 / 4.5.2: a turn must play or discard at least one card; a hand of only Wounds rests
  (slow recovery) unless a Skill can play or discard a Wound;
- 11.7.8, 21.2 A17: Wounds put into the hand by card effects and costs during a combat
  count towards knock-out;
- 5.6.1: Night mana rules in dungeon and tomb combats by Day (gold unusable, black usable);
- LL-9.7.2, 9.7.4, 9.7.9, 9.7.13: Agility and Ambush in combat (a Move / Heal part of an
  all(...) effect need not be usable there);
- the Rings: Fame per Spell cast, not per Spell played sideways;
- 17.1.2: the three tiles revealed at setup on open maps are adjacent to the start tile.

Card texts: mksim/data/*.toml; level 1: Armor 2, Hand limit 5 (levels.toml).
"""
from __future__ import annotations

import pytest

from content_edit import replace_once
from mksim import _hexmap as hm
from mksim._engine import describe, encode
from mksim.game import Game
from mksim.policies import get_policy

PAY_NONE, PAY_CRYSTAL, PAY_DIE = 31, 6, 10
GOLD, BLACK = 4, 5
RED = 0


def play(i, powered=0, pay=PAY_NONE, pay2=PAY_NONE):
    return encode("play", i | (powered << 7) | (pay << 8) | (pay2 << 13))


def sideways(i, what):
    return encode("sideways", i | ({"move": 0, "influence": 1, "attack": 2, "block": 3}[what] << 7))


def acts(s):
    return [describe(int(a)) for a in s.legal_actions()]


@pytest.fixture(scope="module")
def arythea():
    return Game("solo_conquest", hero="arythea")


def at(game, **fields):
    return game.state_from_dict({"format": 1, **fields})


COMBAT = {"active": 1, "enemies": [{"enemy": "prowlers"}]}


# -- 4.3.2, 4.5.2: play or discard at least one card ---------------------------------------

def test_4_3_2_a_hand_of_only_wounds_must_rest_slow_recovery(arythea):
    """4.3.2: a turn must play or discard a card; Wounds cannot be played (6.1.6) or
    discarded at the end of the turn (12.1.2), so a hand of only Wounds rests: slow
    recovery discards one Wound (4.5.2), and then the turn may end."""
    s = at(arythea, phase="turn_start", players=[{"hand": ["wound", "wound"], "deck": ["march", "rage"]}])
    assert acts(s) == ["rest(0)"]
    with pytest.raises(ValueError):
        s.apply(encode("regular_turn"))
    s.apply(encode("rest"))
    assert acts(s) == ["rest_discard(0)"]                    # no end of turn before the discard
    s.apply(encode("rest_discard", 0))
    p = s.to_dict()["players"][0]
    assert p["hand"] == ["wound"] and p["discard"] == ["wound"]
    assert "end_turn(0)" in acts(s)


def test_4_3_2_a_hand_with_a_card_may_take_a_regular_turn_and_must_discard_at_its_end(arythea):
    """4.3.2, 13.7.1 (21.2 A21): nothing played, so a non-Wound card is discarded at the end."""
    s = at(arythea, phase="turn_start", players=[{"hand": ["wound", "march"], "deck": ["rage"]}])
    assert acts(s) == ["regular_turn(0)", "rest(0)"]
    s.apply(encode("regular_turn"))
    s.apply(encode("end_turn"))
    assert acts(s) == ["discard(1)"]                          # A_DRAW only after the discard


def test_4_3_2_exception_a_turn_that_starts_with_an_empty_hand(arythea):
    """4.3.2: the exception - no card in hand at the start of the turn, cards in the Deed
    deck: a regular turn that plays nothing may end."""
    s = at(arythea, phase="turn_start", players=[{"hand": [], "deck": ["march", "rage"]}])
    assert acts(s) == ["regular_turn(0)"]
    s.apply(encode("regular_turn"))
    assert s.to_dict()["turn"]["empty_start"] == 1
    assert "end_turn(0)" in acts(s)
    s.apply(encode("end_turn"))
    assert s.to_dict()["phase"] == "end_turn" and acts(s) == ["draw(0)"]


def test_4_3_2_a_wound_only_hand_with_i_feel_no_pain_must_use_it_before_ending():
    """4.3.2 with Tovak's I Feel No Pain (discard a Wound, draw a card): a regular turn can
    meet the rule, so it is offered - and its end only after the Wound is discarded."""
    g = Game("solo_conquest", hero="tovak")
    s = at(g, phase="turn_start", players=[{"hand": ["wound", "wound"], "deck": ["march", "rage"],
                                            "skills": ["tovak_i_feel_no_pain"]}])
    assert acts(s) == ["regular_turn(0)", "rest(0)"]
    s.apply(encode("regular_turn"))
    assert "end_turn(0)" not in acts(s)
    with pytest.raises(ValueError):
        s.apply(encode("end_turn"))
    s.apply(encode("use_skill", 0))
    p = s.to_dict()["players"][0]
    assert p["discard"] == ["wound"] and sorted(p["hand"]) == ["rage", "wound"]   # drew the top card
    assert s.to_dict()["turn"]["played_card"] is True
    assert "end_turn(0)" in acts(s)


def test_4_3_2_eager_solo_conquest_turns_always_play_or_discard_a_card():
    """4.3.2 over whole eager games: every regular turn begins with a non-Wound card in hand
    (or an empty hand), and no turn reaches its draw without a card played or discarded
    unless it began with an empty hand (issue 7: 23 of 33 turns broke it in one game)."""
    g = Game("solo_conquest", hero="arythea")
    pol = get_policy("eager")
    wound = "wound"
    turns = 0
    for game_index in range(3):
        s = g.new_state(seed=4242, game_index=game_index)
        pol.reset(4242, game_index)
        for _ in range(20000):
            if s.is_terminal():
                break
            a = pol.choose(s, s.legal_actions())
            name = describe(int(a))
            if name.startswith("regular_turn"):
                hand = s.to_dict()["players"][0]["hand"]
                assert not hand or any(c != wound for c in hand), hand
                turns += 1
            if name.startswith("draw") and s.to_dict()["phase"] == "end_turn":
                t = s.to_dict()["turn"]
                assert t["played_card"] or t["discarded_end"] or t["empty_start"], t
            s.apply(a)
        assert s.is_terminal()
    assert turns > 30


# -- 11.7.8, 21.2 A17: knock-out counts every Wound put into the hand in the combat ----------

def test_11_7_8_a17_blood_rage_wound_completes_the_knock_out(arythea):
    """11.7.8, A17: 4 Wounds from enemies this combat, then Blood Rage's 'take a Wound,
    Attack 5' - the 5th Wound reaches the Hand limit 5 (level 1): knocked out, every
    non-Wound card of the hand (March) is discarded.  The seed: Wounds from other sources
    during the combat (card effects) count too."""
    s = at(arythea, phase="combat_attack", combat=COMBAT,
           players=[{"hand": ["blood_rage", "march"] + ["wound"] * 4, "wounds_this_combat": 4}])
    s.apply(play(0))
    s.apply(encode("choose", 1))                            # all(take_wound(), attack(5))
    d = s.to_dict()
    p = d["players"][0]
    assert p["wounds_this_combat"] == 5 and p["knocked_out"] == 1
    assert p["hand"] == ["wound"] * 5 and p["discard"] == ["march"]
    assert d["combat"]["attack"][0][0] == 5                  # the Attack still counts


def test_11_7_8_powered_fireball_wound_counts_towards_knock_out(arythea):
    """11.7.8: the powered Fireball's Wound (a cost) is counted in wounds_this_combat;
    outside a combat (Mana Radiance, forced withdrawal) nothing is counted."""
    s = at(arythea, phase="combat_ranged", time="night", combat=COMBAT, source={"dice": ["black", "blue", "white"]},
           players=[{"hand": ["fireball", "march"], "crystals": {"red": 1}, "wounds_this_combat": 0}])
    s.apply(play(0, powered=1, pay=PAY_CRYSTAL + RED, pay2=PAY_DIE + 0))
    p = s.to_dict()["players"][0]
    assert p["wounds_this_combat"] == 1 and p["knocked_out"] == 0
    assert sorted(p["hand"]) == ["march", "wound"]


# -- 5.6.1: Night mana rules in dungeons and tombs ------------------------------------------

@pytest.mark.parametrize("night_rules", [0, 1])
def test_5_6_1_night_rules_combat_by_day_gold_unusable_black_usable(arythea, night_rules):
    """5.6.1: by Day a "night rules" combat (dungeon, tomb) uses Night mana rules: the gold
    token and gold die pay nothing, the black token and black die pay the strong Spell
    (5.4.3); crystals are basic colours and always usable.  Without night rules: Day."""
    s = at(arythea, phase="combat_ranged", time="day", source={"dice": ["gold", "black", "blue"]},
           combat={**COMBAT, "night_rules": night_rules},
           players=[{"hand": ["fireball"], "crystals": {"red": 1}}],
           turn={"mana_tokens": {"gold": 1, "black": 1}})
    got = set(acts(s))
    basic_gold = {"play(hand=0, powered=0, pay=%d, pay2=31)" % p for p in (GOLD, PAY_DIE + 0)}
    powered_black = {"play(hand=0, powered=1, pay=6, pay2=%d)" % p for p in (BLACK, PAY_DIE + 1)}
    assert "play(hand=0, powered=0, pay=6, pay2=31)" in got          # the red crystal
    if night_rules:
        assert not (basic_gold & got) and powered_black <= got
        s.apply(play(0, powered=1, pay=PAY_CRYSTAL + RED, pay2=BLACK))
        assert s.to_dict()["combat"]["attack"][2][1] == 8             # Siege Fire Attack 8
    else:
        assert basic_gold <= got and not (powered_black & got)
        with pytest.raises(ValueError):
            s.apply(play(0, powered=1, pay=PAY_CRYSTAL + RED, pay2=BLACK))


def test_5_6_1_night_rules_end_with_the_combat(arythea):
    """5.6.1 covers the combat only: out of combat by Day (a stale night_rules flag left in
    the combat record) the gold die pays March's green (5.1.5) and black pays nothing."""
    s = at(arythea, phase="move", time="day", source={"dice": ["gold", "black", "blue"]},
           combat={"active": 0, "night_rules": 1}, players=[{"hand": ["march", "space_bending"]}],
           turn={"mana_tokens": {"blue": 1, "black": 1}})
    got = acts(s)
    assert "play(hand=0, powered=1, pay=10, pay2=31)" in got           # gold die as green
    assert "play(hand=1, powered=0, pay=1, pay2=31)" in got            # Space Bending, blue
    assert not any(a.startswith("play(hand=1, powered=1") for a in got)   # no black by Day


# -- LL-9.7.2, 9.7.4, 9.7.9: Agility and Ambush in combat --------------------------------

@pytest.mark.parametrize("phase", ["combat_ranged", "combat_block", "combat_attack"])
def test_ll_9_7_agility_and_ambush_are_playable_in_combat(arythea, phase):
    """LL-9.7.2, 9.7.4, 9.7.9: Agility and Ambush may be played in any combat phase (their
    Move part is not needed there); March (Move only), Refreshing Walk (Move and Heal, no
    use in this combat) and Path Finding (Move and a terrain cost, 9.6.1) stay unplayable."""
    s = at(arythea, phase=phase, combat=COMBAT, source={"dice": ["red", "blue", "white"]},
           players=[{"hand": ["agility", "ambush", "march", "refreshing_walk", "path_finding"]}])
    played = {int(a.split("hand=")[1].split(",")[0]) for a in acts(s) if a.startswith("play(")}
    assert played == {0, 1}


def test_ll_9_7_2_agility_played_in_the_attack_phase_converts_its_own_move(arythea):
    """LL-9.7.2: Agility (basic: Move 2, 1 Move -> Attack 1) played in combat keeps its Move
    2, which may be converted into Attack (A_CONVERT_MOVE)."""
    s = at(arythea, phase="combat_attack", combat=COMBAT, players=[{"hand": ["agility", "march"]}])
    s.apply(play(0))
    assert s.to_dict()["turn"]["move_points"] == 2
    s.apply(encode("convert_move", 0))
    assert s.to_dict()["combat"]["attack"][0][0] == 1 and s.to_dict()["turn"]["move_points"] == 1


def test_ll_9_7_5_a_card_sideways_as_move_in_combat_only_with_a_use_for_move(arythea):
    """LL-9.7.5: in combat a card may be played sideways as Move 1 once Move has a use there
    (Agility's conversion); before Agility, March gives only Attack 1 sideways."""
    s = at(arythea, phase="combat_attack", combat=COMBAT, players=[{"hand": ["agility", "march"]}])
    assert [a for a in acts(s) if a.startswith("sideways")] == ["sideways(256)", "sideways(257)"]   # Attack 1
    with pytest.raises(ValueError):
        s.apply(sideways(1, "move"))
    s.apply(play(0))
    assert "sideways(0)" in acts(s)
    s.apply(sideways(0, "move"))
    assert s.to_dict()["turn"]["move_points"] == 3            # Agility's 2 + 1


def test_ll_9_7_4_ambush_played_in_the_block_phase_boosts_the_next_block(arythea):
    """LL-9.7.4: Ambush (basic: first Block card +2) played just before the block: March
    played sideways gives Block 1 + 2 = 3."""
    s = at(arythea, phase="combat_block", combat=COMBAT, players=[{"hand": ["ambush", "march"]}])
    s.apply(play(0))
    s.apply(sideways(0, "block"))
    assert s.to_dict()["combat"]["block"][0] == 3


def test_ll_9_7_13_refreshing_walk_in_combat_gives_move_but_no_healing(arythea):
    """LL-9.7.13: in combat Refreshing Walk gives only its Move points - here usable because
    Agility's conversion is active; its Heal is not gained (12.4.1)."""
    s = at(arythea, phase="combat_attack", combat=COMBAT, players=[{"hand": ["agility", "refreshing_walk"]}])
    s.apply(play(0))
    assert "play(hand=0, powered=0, pay=31, pay2=31)" in acts(s)
    s.apply(play(0))
    t = s.to_dict()["turn"]
    assert t["move_points"] == 4 and t["healing"] == 0


# -- Rings: Fame per Spell cast ----------------------------------------------------------------

@pytest.mark.parametrize("sideways_spell", [True, False])
def test_rings_fame_counts_spells_cast_not_played_sideways(arythea, sideways_spell):
    """Sapphire Ring thrown away (endless blue mana; Fame +1 per blue Spell cast this turn):
    Space Bending cast with its blue mana counts, Snowstorm played sideways as Move 1 does
    not (6.1.7: a sideways card is no Spell cast).  Fame 0 -> 1 either way."""
    s = at(arythea, phase="move", source={"dice": ["red", "red", "white"]},
           players=[{"hand": ["sapphire_ring", "space_bending", "snowstorm"], "fame": 0}])
    s.apply(play(0, powered=1))                               # the Ring, thrown away (6.1.5)
    s.apply(play(0, pay=1))                                   # Space Bending with a blue token
    if sideways_spell:
        s.apply(sideways(0, "move"))
    s.apply(encode("end_turn"))
    assert s.to_dict()["players"][0]["fame"] == 1


# -- 17.1.2: the setup tiles of open maps border the start tile ------------------------------

@pytest.mark.parametrize("shape", ["open_5", "open_4", "open_3"])
def test_17_1_2_open_map_setup_reveals_three_tiles_adjacent_to_the_start(data_copy, shape):
    """17.1.2 (seed: three tiles placed adjacent to it), 1.2.14: on an open map, starting
    tile B and three tiles, each sharing an edge with it (hexes 1 apart), none beyond the
    shape."""
    replace_once(data_copy / "scenarios.toml", 'shape = "wedge"\ncountryside_tiles = 7',
                 f'shape = "{shape}"\ncountryside_tiles = 7')
    g = Game("solo_conquest", hero="arythea", content=data_copy)
    tiles = g.new_state(3).to_dict()["map"]["tiles"]
    assert tiles[0]["tile"] == "start_b" and tiles[0]["position"] == [0, 0]
    start_hexes = hm.tile_hexes(0, 0)
    assert len(tiles) == 4
    for t in tiles[1:]:
        a, b = t["position"]
        assert hm.adjacent_positions(0, 0, a, b)
        assert any(hm.distance(*h, *k) == 1 for h in start_hexes for k in hm.tile_hexes(a, b))
