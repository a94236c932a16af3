"""Level-up, end of turn, the dummy player and scoring (ext/_scoring.pyx).

Rules 10.7.12, 10.9, 13.3, 13.6, 13.7, 17.3.1, 18.4, 20.2 and 20.5 of
../shared/rules/mage-knight-base.md.  Every test names the rule it checks and asserts exact
numbers on a state built with the setters of ScoringTester (cards by id from the shipped
content: spells.toml, advanced_actions.toml, artifacts.toml, units.toml, levels.toml).
"""
from collections import Counter

import pytest

from mksim._scoring import ACHIEVEMENT_NAMES, ScoringTester
from mksim._state import GameCore

HEX_CONQUERED, HEX_BURNED = 1, 2
RED, BLUE, WHITE, GREEN = range(4)


# `content` and `tables` are the session fixtures of conftest.py.

@pytest.fixture
def core(tables, content):
    return GameCore.new(tables, content, "solo_conquest", "arythea", 2024)


@pytest.fixture
def sc(core):
    s = ScoringTester(core)
    s.clear_owners()
    return s


def neighbours(core, h):
    return [n for n in (hx["neighbours"] for t in core.to_dict()["map"]["tiles"]
                        for hx in t["hexes"] if hx["index"] == h)][0]


def far_hex(core, h):
    """A hex that is neither h nor one of its neighbours."""
    near = {h, *neighbours(core, h)}
    return next(i for i in range(core.to_dict()["map"]["n_hexes"]) if i not in near)


# --- 13.6 Level-up ------------------------------------------------------------------------

THRESHOLDS = (0, 3, 8, 15, 24, 35, 48, 63, 80, 99)  # 13.6.2: L*L - 1


def test_13_6_2_level_thresholds(sc):
    """13.6.2: Fame 0 3 8 15 24 35 48 63 80 99 reaches levels 1..10; one less stays below."""
    for level, fame in enumerate(THRESHOLDS, start=1):
        assert sc.level_for_fame(fame) == level
        if fame > 0:
            assert sc.level_for_fame(fame - 1) == level - 1
    # 13.6.5: no level beyond 10
    assert sc.level_for_fame(119) == 10
    assert sc.level_for_fame(500) == 10


def test_13_6_1_levels_gained_counts_lines_crossed(sc):
    """13.6.1: one level per line crossed, including two at once (2 -> 9 crosses 3 and 8)."""
    assert sc.levels_gained(2, 9) == 2
    assert sc.levels_gained(14, 15) == 1
    assert sc.levels_gained(15, 23) == 0
    assert sc.levels_gained(10, 10) == 0
    assert sc.levels_gained(0, 99) == 9
    assert sc.levels_gained(30, 20) == 0


def test_13_6_1_two_levels_at_once_resolved_in_order(sc):
    """13.6.1 / 13.6.3 / 13.6.4: Fame 2 -> 9 gives level 2 (Skill + AA) then level 3
    (+1 Command token, Armor 3); levels must be resolved one at a time, ascending."""
    sc.set_level(0, 1, command_tokens=1)
    sc.set_fame(0, 9)
    assert sc.levels_gained(2, 9) == 2
    assert sc.apply_level(0, 3) == -1          # not the next level: refused, nothing changes
    assert sc.player()["level"] == 1
    assert sc.apply_level(0, 2) == 1           # even level: skill + AA (13.6.4)
    assert sc.player()["command_tokens"] == 1
    assert sc.hero_armor() == 2
    assert sc.apply_level(0, 3) == 0           # odd level: Level token (13.6.3)
    assert sc.player()["level"] == 3
    assert sc.player()["command_tokens"] == 2
    assert sc.hero_armor() == 3


def test_13_6_3_command_tokens_at_levels_3_and_5_and_hand_limit_5_to_6(sc, tables):
    """13.6.3: odd levels add one Command token: 1 -> 2 at level 3, -> 3 at level 5; the
    Hand limit is 5 up to level 4 and 6 at level 5 (13.6.2 table)."""
    sc.set_level(0, 1, command_tokens=1)
    assert sc.hand_limit() == 5
    got = []
    for level in range(2, 11):
        even = sc.apply_level(0, level)
        assert even == (1 if level % 2 == 0 else 0)
        got.append((level, sc.player()["command_tokens"], sc.hand_limit(), sc.hero_armor()))
    assert got[1] == (3, 2, 5, 3)
    assert got[2] == (4, 2, 5, 3)
    assert got[3] == (5, 3, 6, 3)
    # the +1 steps agree with the levels table (levels.toml command_tokens, hand_limit, armor)
    ct, hl, ar = (tables.col("levels", n) for n in ("command_tokens", "hand_limit", "armor"))
    assert got == [(lv, int(tables.levels[lv - 1, ct]), int(tables.levels[lv - 1, hl]),
                    int(tables.levels[lv - 1, ar])) for lv in range(2, 11)]
    assert got[-1] == (10, 5, 7, 4)
    assert sc.apply_level(0, 11) == -1         # 13.6.5: no level beyond 10


# --- 13.3 Clearing the play area ------------------------------------------------------------

def test_13_3_clear_play_area_discards_played_cards_and_returns_mana_tokens(sc):
    """13.3.1: mana tokens go back to the bank; 13.3.2: played cards go to the discard pile."""
    sc.set_cards(0, play=["march", "rage"], discard=["stamina"])
    sc.set_crystals(0, [1, 0, 0, 2])
    sc.set_mana_tokens([1, 0, 2, 0, 1, 0])
    assert sc.clear_play_area(0) == 2
    pl = sc.player()
    assert pl["play_area"] == []
    assert pl["discard"] == ["stamina", "march", "rage"]
    assert sc.mana_tokens() == [0] * 6
    assert pl["crystals"] == {"red": 1, "blue": 0, "white": 0, "green": 2}  # crystals stay


# --- 13.7 Drawing cards ----------------------------------------------------------------------

def test_13_7_2_draw_up_to_the_limit_from_the_top(sc):
    """13.7.2: draw from the top of the Deed deck (last item) until the hand holds 5."""
    sc.set_cards(0, hand=["rage", "march"], deck=["stamina", "swiftness", "promise", "threaten"])
    assert sc.draw_to_limit(0, 5) == 3
    pl = sc.player()
    assert pl["hand"] == ["rage", "march", "threaten", "promise", "swiftness"]
    assert pl["deck"] == ["stamina"]


def test_13_7_4_draw_stops_when_the_deck_runs_out(sc):
    """13.7.4: hand 2, deck 2, limit 5: draw 2 and stop; the discard pile is not reshuffled."""
    sc.set_cards(0, hand=["rage", "march"], deck=["stamina", "swiftness"], discard=["promise"] * 4)
    assert sc.draw_to_limit(0, 5) == 2
    pl = sc.player()
    assert len(pl["hand"]) == 4 and pl["deck"] == [] and len(pl["discard"]) == 4


def test_13_7_3_hand_at_or_above_the_limit_draws_nothing(sc):
    """13.7.3: a hand of 6 against a limit of 5 draws nothing and is not discarded down."""
    sc.set_cards(0, hand=["rage"] * 6, deck=["march"] * 5)
    assert sc.draw_to_limit(0, 5) == 0
    assert len(sc.player()["hand"]) == 6 and len(sc.player()["deck"]) == 5
    sc.set_cards(0, hand=["rage"] * 5)
    assert sc.draw_to_limit(0, 5) == 0          # equal to the limit: nothing either


# --- 10.9 Hand-limit bonuses --------------------------------------------------------------------

def test_10_9_1_keep_bonus_plus_one_next_to_an_owned_keep(core, sc):
    """10.9.1: ending the turn next to a keep the player owns: +1 per keep owned (1 keep)."""
    pos = 0
    keep = next(n for n in neighbours(core, pos) if n >= 0)
    sc.set_position(0, pos)
    sc.set_hex(pos, site="")
    sc.set_hex(keep, site="keep", owner=0, flags=HEX_CONQUERED)
    assert sc.hand_limit_bonus(0) == 1
    # 5 + 1 = 6 cards drawn to (13.7.2)
    sc.set_cards(0, hand=[], deck=["march"] * 10)
    assert sc.draw_to_limit(0, sc.hand_limit(0) + sc.hand_limit_bonus(0)) == 6


def test_10_9_1_keep_bonus_counts_every_keep_owned(core, sc):
    """10.9.1: next to one owned keep while owning a second far away: +2; on a keep: same;
    nowhere near an owned keep: 0 (a keep owned by nobody gives nothing)."""
    pos = 0
    keep = next(n for n in neighbours(core, pos) if n >= 0)
    other = far_hex(core, pos)
    sc.set_position(0, pos)
    sc.set_hex(pos, site="")
    sc.set_hex(keep, site="keep", owner=0, flags=HEX_CONQUERED)
    sc.set_hex(other, site="keep", owner=0, flags=HEX_CONQUERED)
    assert sc.hand_limit_bonus(0) == 2
    sc.set_position(0, other)                   # on a keep
    assert sc.hand_limit_bonus(0) == 2
    sc.set_hex(keep, owner=-1)
    sc.set_hex(other, owner=-1)
    sc.set_position(0, pos)
    assert sc.hand_limit_bonus(0) == 0


def test_10_9_2_10_9_3_city_bonus_and_only_the_larger(core, sc):
    """10.9.2: next to a conquered city the player leads: +2; 10.9.3: with one keep (+1)
    also adjacent, only the larger (+2) applies; an unconquered city gives nothing."""
    pos = 0
    near = [n for n in neighbours(core, pos) if n >= 0]
    sc.set_position(0, pos)
    sc.set_hex(pos, site="")
    sc.set_hex(near[0], site="city", owner=0, flags=HEX_CONQUERED)
    assert sc.hand_limit_bonus(0) == 2
    sc.set_hex(near[1], site="keep", owner=0, flags=HEX_CONQUERED)
    assert sc.hand_limit_bonus(0) == 2          # max(1, 2)
    sc.set_hex(near[0], flags=0)
    assert sc.hand_limit_bonus(0) == 1          # city not conquered: the keep's +1 only


def test_10_9_position_off_the_map_has_no_bonus(sc):
    """10.9 / 9.5.5: a hero off the map (portal) has no keep or city around."""
    sc.set_position(0, -1)
    assert sc.hand_limit_bonus(0) == 0


# --- 10.7.12 Crystal mine ----------------------------------------------------------------------

def test_10_7_12_crystal_mine_gives_one_crystal_up_to_3(sc):
    """13.4.2 / 10.7.12.1: end of turn on a blue mine: blue 2 -> 3; at 3 nothing more."""
    sc.set_hex(3, site="crystal_mine", colours=["blue"])
    sc.set_position(0, 3)
    sc.set_crystals(0, [0, 2, 0, 0])
    assert sc.space_benefit_crystal(0) == BLUE
    assert sc.player()["crystals"]["blue"] == 3
    assert sc.space_benefit_crystal(0) == -1
    assert sc.player()["crystals"]["blue"] == 3
    sc.set_hex(3, site="village")
    sc.set_crystals(0, [0, 0, 0, 0])
    assert sc.space_benefit_crystal(0) == -1    # not a mine
    assert sc.player()["crystals"]["blue"] == 0


# --- 18.4 The dummy player ----------------------------------------------------------------------

def test_18_4_2_dummy_flips_3_plus_k_cards(sc):
    """18.4.2: the third card turned is blue (stamina) and the dummy holds 2 blue crystals:
    3 + 2 = 5 cards go from the deck onto the discard pile, top first (top = last item)."""
    sc.set_dummy(deck=["rage", "rage", "rage", "march", "march", "stamina", "promise", "threaten"],
                 discard=[], crystals=[0, 2, 0, 0])
    assert sc.dummy_turn() == 0                 # threaten, promise, stamina (blue) + 2 more
    d = sc.dummy()
    assert d["discard"] == ["threaten", "promise", "stamina", "march", "march"]
    assert d["deck"] == ["rage"] * 3


def test_18_4_2_dummy_turns_over_k_for_the_last_colour_only(sc):
    """18.4.2: deck (top last) rage march fire_bolt stamina swiftness promise threaten
    concentration, crystals 2 blue 1 white.  Turn 1: concentration, threaten, promise (white:
    1 crystal) + swiftness = 4.  Turn 2: stamina, fire_bolt, march (green: no crystal) = 3."""
    sc.set_dummy(deck=["rage", "march", "fire_bolt", "stamina", "swiftness", "promise", "threaten",
                       "concentration"], discard=[], crystals=[0, 2, 1, 0])
    assert sc.dummy_turn() == 0
    d = sc.dummy()
    assert d["discard"] == ["concentration", "threaten", "promise", "swiftness"]
    assert len(d["deck"]) == 4
    assert sc.dummy_turn() == 0
    d = sc.dummy()
    assert d["discard"][4:] == ["stamina", "fire_bolt", "march"] and d["deck"] == ["rage"]


def test_18_4_2_colourless_last_card_flips_only_3(sc):
    """18.4.2: an Artifact or Wound turned last has no colour: no extra cards."""
    sc.set_dummy(deck=["rage"] * 5 + ["wound", "march", "march"], discard=[], crystals=[3, 3, 3, 3])
    assert sc.dummy_turn() == 0
    assert len(sc.dummy()["discard"]) == 3 and len(sc.dummy()["deck"]) == 5
    sc.set_dummy(deck=["rage"] * 5 + ["ruby_ring", "march", "march"], discard=[])
    assert sc.dummy_turn() == 0
    assert len(sc.dummy()["discard"]) == 3


def test_18_4_3_and_18_4_1_short_deck_then_announce(sc):
    """18.4.3: 4 cards left, last of 3 red with 2 red crystals: all 4 turned (as many as
    possible); 18.4.1 / 18.2.3: next turn the deck is empty and the dummy announces the End
    of the Round (returns 1, nothing moves)."""
    sc.set_dummy(deck=["march", "rage", "march", "march"], discard=[], crystals=[2, 0, 0, 0])
    assert sc.dummy_turn() == 0
    assert sc.dummy()["deck"] == [] and len(sc.dummy()["discard"]) == 4
    assert sc.dummy_turn() == 1
    assert len(sc.dummy()["discard"]) == 4


def test_18_4_4_dummy_round_preparation(core, sc):
    """18.4.4: the AA leaving the offer joins the dummy's deck, +1 crystal of the Spell's
    colour beyond 3 (no limit), deck + discard shuffled together (STREAM_DUMMY: two copies
    shuffle alike)."""
    deck = ["rage", "march", "stamina"]
    discard = ["swiftness", "promise", "threaten", "concentration", "rage", "march"]
    sc.set_dummy(deck=deck, discard=discard, crystals=[0, 3, 1, 0])
    twin = ScoringTester(core.copy())
    assert sc.dummy_round_prep("fire_bolt", BLUE) == 10
    d = sc.dummy()
    assert Counter(d["deck"]) == Counter(deck + discard + ["fire_bolt"])
    assert d["discard"] == []
    assert d["crystals"] == {"red": 0, "blue": 4, "white": 1, "green": 0}
    assert twin.dummy_round_prep("fire_bolt", BLUE) == 10
    assert twin.dummy()["deck"] == d["deck"]
    assert sc.dummy_round_prep(None, -1) == 10  # nothing leaves: same cards, crystals unchanged
    assert sc.dummy()["crystals"]["blue"] == 4


# --- 20 Scoring ------------------------------------------------------------------------------------

def build_scored_state(core, sc):
    """Fame 40 and:
    Deed cards: deck fireball snowstorm (Spells) fire_bolt (AA) wound; hand ice_bolt (AA) wound;
    discard banner_of_glory (Artifact) rage; play area ruby_ring (Artifact) march.
    Units: peasants (level 1), utem_guardsmen (level 2, wounded), fire_golems (level 3) with
    banner_of_fear attached.  Crystals 3 red 2 blue.
    Shields: keep (conquered), mage tower (conquered), monastery (burned), dungeon and ancient
    ruins (conquered) owned by player 0; a monster den conquered by nobody; a keep owned but
    not marked (no shield)."""
    sc.set_fame(0, 40)
    sc.set_cards(0, deck=["fireball", "snowstorm", "fire_bolt", "wound"], hand=["ice_bolt", "wound"],
                 discard=["banner_of_glory", "rage"], play=["ruby_ring", "march"])
    sc.set_units(0, [("peasants", 0, None), ("utem_guardsmen", 1, None),
                     ("fire_golems", 0, "banner_of_fear")])
    sc.set_crystals(0, [3, 2, 0, 0])
    sites = [("keep", 0, HEX_CONQUERED), ("mage_tower", 0, HEX_CONQUERED),
             ("monastery", 0, HEX_BURNED), ("dungeon", 0, HEX_CONQUERED),
             ("ancient_ruins", 0, HEX_CONQUERED), ("monster_den", -1, HEX_CONQUERED),
             ("keep", 0, 0), ("village", 0, 0)]
    for h, (site, owner, flags) in enumerate(sites, start=1):
        sc.set_hex(h, site=site, owner=owner, flags=flags)
    sc.set_dummy(deck=["rage"] * 7, discard=["march"] * 9)


def test_20_2_achievement_scores_exact(core, sc, tables):
    """20.2: Knowledge 2*2 + 2 = 6; Loot 2*(2 + 1 banner) + 5 // 2 = 8; Leader 1 + 2 // 2 + 3
    = 5; Conqueror 3 shields * 2 = 6; Adventurer 2 shields * 2 = 4; Beating 2 wounds * -2 = -4."""
    lvl = tables.col("units", "level")
    assert [int(tables.units[tables.unit_ids.index(u), lvl])
            for u in ("peasants", "utem_guardsmen", "fire_golems")] == [1, 2, 3]
    build_scored_state(core, sc)
    assert sc.achievement_scores(0) == {"knowledge": 6, "loot": 8, "leader": 5,
                                        "conqueror": 6, "adventurer": 4, "beating": -4}
    assert tuple(sc.achievement_scores(0)) == ACHIEVEMENT_NAMES


def test_20_2_empty_player_scores_zero(sc):
    """20.2: basic actions only, no units, crystals or shields: every category 0."""
    sc.set_cards(0, deck=["rage"] * 10, hand=["march"] * 5, discard=[], play=[])
    sc.set_units(0, [])
    sc.set_crystals(0, [1, 0, 0, 0])  # one crystal: half rounded down = 0
    assert sum(sc.achievement_scores(0).values()) == 0


def test_20_5_solo_score_exact(core, sc):
    """20.5.1: Fame 40 + achievements 25 (no titles) = 65; 20.5.2: + 10 * 2 cities + 15 (all
    conquered) + 30 * 1 round left + 7 cards in the dummy's deck + 5 (End of the Round not
    announced in the final round) = 142."""
    build_scored_state(core, sc)
    assert sc.solo_score(0, 2, 2, 1, False) == 65 + 20 + 15 + 30 + 7 + 5 == 142
    # one city of two, no round left, announced: 65 + 10 + 7 = 82
    assert sc.solo_score(0, 2, 1, 0, True) == 82


def test_17_3_1_first_reconnaissance_score(core, sc):
    """17.3.1 solo variant: Fame + standard achievements, no titles: 40 + 25 = 65."""
    build_scored_state(core, sc)
    assert sc.first_recon_score(0) == 65


def test_20_5_cities_conquered_counts_marked_city_spaces(sc):
    """20.5.2 input: conquered city spaces on the map (HEX_CONQUERED)."""
    n0 = sc.cities_conquered()
    assert n0 == 0
    sc.set_hex(2, site="city", owner=0, flags=HEX_CONQUERED)
    sc.set_hex(4, site="city", owner=-1, flags=0)
    assert sc.cities_conquered() == 1
