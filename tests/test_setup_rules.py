"""Setup of a solo game (ext/_state.pyx): rules 1.2, 1.3, 1.4, 9.9 and 18.1.

Every test names the rule it checks.  Counts come from the shipped content (base game):
enemies.toml, units.toml, spells.toml, tiles.toml, heroes.toml, scenarios.toml.
"""
import random
from collections import Counter

import numpy as np
import pytest

from mksim._hexmap import tile_hexes
from mksim._state import GameCore, prepare_setup
from mksim.content import load_content

BASIC = ("red", "blue", "white", "green")
SEEDS = range(200)


# `content` and `tables` are the session fixtures of conftest.py.


@pytest.fixture(scope="module")
def solo(tables, content):
    """Prepared Solo Conquest setup with Tovak (reused across seeds)."""
    return prepare_setup(tables, content, "solo_conquest", "tovak")


@pytest.fixture(scope="module")
def games(tables, solo):
    return [GameCore.from_setup(tables, solo, 12345, i).to_dict() for i in SEEDS]


def all_hexes(d):
    return [h for t in d["map"]["tiles"] for h in t["hexes"]]


def kind_of(content, tile_id):
    return content.get("tiles", tile_id)["kind"]


# --- 1.2.11 / 5.5.5: the Source -------------------------------------------------------

def test_1_2_11_source_has_3_dice_at_least_2_basic(games):
    """1.2.11, 5.5.5, 18.1.5, 21.2 A6: players + 2 = 3 dice; >= ceil(3/2) = 2 basic."""
    special = 0
    for d in games:
        dice = d["source"]["dice"]
        assert len(dice) == 3
        assert sum(c in BASIC for c in dice) >= 2
        assert all(c in BASIC + ("gold", "black") for c in dice)
        special += sum(c not in BASIC for c in dice)
        assert d["source"]["taken"] == []
    assert special > 0  # gold/black dice do occur (a kept third die); the reroll is not "all basic"


# --- 1.2.5 / 1.2.6 / 1.2.8 / 1.2.9: offers and decks ------------------------------------

def test_1_2_9_unit_offer_has_3_regular_units(games, content):
    """1.2.9, 18.1.5: 1 player + 2 = 3 Regular Units, no Elite (monastery AAs come extra, 9.9.2)."""
    tier = {u["id"]: u["tier"] for u in content["units"]}
    for d in games:
        units = [e["unit"] for e in d["unit_offer"] if "unit" in e]
        assert len(units) == 3
        assert all(tier[u] == "regular" for u in units)
        # 1.2.8: base game 20 Regular and 20 Elite cards; 3 regulars are in the offer
        assert len(d["regular_units"]) == 17
        assert len(d["elite_units"]) == 20
        assert Counter(d["regular_units"] + units) == Counter(
            {u["id"]: u["copies"] for u in content["units"] if u["tier"] == "regular" and u["expansion"] == "base"})


def test_1_2_5_1_2_6_three_aas_three_spells_no_interactive_spell_in_solo_conquest(games, content):
    """1.2.5, 1.2.6: 3 AAs and 3 Spells face up; 17.3.4 / 19.7.1: Solo Conquest removes the
    4 interactive Spells, so 20 - 4 = 16 Spells: 3 in the offer and 13 in the deck."""
    interactive = {s["id"] for s in content["spells"] if s["interactive"]}
    assert len(interactive) == 4
    aas = {a["id"] for a in content["advanced_actions"] if a["expansion"] == "base"}
    for d in games:
        assert len(d["advanced_action_offer"]) == 3 and set(d["advanced_action_offer"]) <= aas
        assert len(d["spell_offer"]) == 3
        assert not interactive & set(d["spell_offer"] + d["spell_deck"])
        assert len(d["spell_deck"]) == 13
        monastery_aas = [e["advanced_action"] for e in d["unit_offer"] if "advanced_action" in e]
        # 28 base AAs = offer 3 + monastery AAs in the unit offer (9.9.2) + deck
        assert len(d["advanced_action_deck"]) == 28 - 3 - len(monastery_aas)
        assert len(set(d["advanced_action_offer"] + d["advanced_action_deck"] + monastery_aas)) == 28
        assert len(d["artifact_deck"]) == 16  # 1.2.3: base artifacts, shuffled, no offer


def test_1_2_5_first_reconnaissance_keeps_interactive_spells(tables, content):
    """17.3.1 has no Spell removal: 20 base Spells = 3 offered + 17 in the deck."""
    d = GameCore.new(tables, content, "first_reconnaissance", "goldyx", 3).to_dict()
    assert len(d["spell_offer"]) == 3 and len(d["spell_deck"]) == 17


# --- 1.2.13 / 1.2.14: tile stack and map ------------------------------------------------

def test_1_2_13_tile_stack_solo_conquest(games, content):
    """1.2.13: 7 countryside + 2 core + 2 city tiles; the 2 setup tiles (1.2.14) come off the
    top, so 9 remain: 5 countryside above 4 core (2 city, 2 non-city); base tiles only."""
    for d in games:
        stack = d["tile_stack"]                      # top = last
        kinds = [kind_of(content, t) for t in stack]
        assert len(stack) == 9
        assert kinds[4:] == ["countryside"] * 5      # all countryside above every core tile
        assert sorted(kinds[:4]) == ["city", "city", "core", "core"]
        revealed = [t["tile"] for t in d["map"]["tiles"][1:]]
        assert all(kind_of(content, t) == "countryside" for t in revealed)
        used = stack + revealed
        assert len(set(used)) == 11  # no tile twice
        assert all(content.get("tiles", t)["expansion"] == "base" for t in used)


def test_1_2_13_first_reconnaissance_stack(tables, content):
    """1.2.13 / 17.3.1: 8 countryside + 2 core + 1 city, minus 2 revealed = 9 (6 countryside on top)."""
    d = GameCore.new(tables, content, "first_reconnaissance", "arythea", 5).to_dict()
    kinds = [kind_of(content, t) for t in d["tile_stack"]]
    assert kinds[:3].count("countryside") == 0 and kinds[3:] == ["countryside"] * 6
    assert sorted(kinds[:3]) == ["city", "core", "core"]


def test_1_2_13_volkares_camp_never_in_the_stack_with_lost_legion(tables, content):
    """1.2.13: Lost Legion tiles may join, Volkare's camp never (Volkare scenarios only)."""
    setup = prepare_setup(tables, content, "solo_conquest", "tovak", lost_legion_cards=True)
    seen = set()
    for i in range(150):
        d = GameCore.from_setup(tables, setup, 9, i).to_dict()
        tiles = d["tile_stack"] + [t["tile"] for t in d["map"]["tiles"]]
        assert "core_volkare" not in tiles
        seen.update(tiles)
    assert {"countryside_12", "core_9", "core_10"} <= seen


def test_1_2_14_map_start_tile_and_two_revealed_tiles(games):
    """1.2.14, 17.1.1: start_a at lattice (0,0) and 2 tiles at [1,0], [0,1] -> 21 hexes whose
    axial coordinates are those of _hexmap.tile_hexes (9.1.4)."""
    for d in games[:50]:
        tiles = d["map"]["tiles"]
        assert [t["position"] for t in tiles] == [[0, 0], [1, 0], [0, 1]]
        assert tiles[0]["tile"] == "start_a"
        assert d["map"]["n_hexes"] == 21
        for t in tiles:
            assert [(h["q"], h["r"]) for h in t["hexes"]] == tile_hexes(*t["position"])
        assert len({(h["q"], h["r"]) for h in all_hexes(d)}) == 21


def test_9_1_neighbours_of_every_hex(games):
    """9.1.2: each hex's neighbour[k] is the map hex at (q, r) + HEX_DIRS[k], else -1; the
    portal centre of the starting tile has all 6 neighbours on the map."""
    dirs = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    for d in games[:50]:
        hexes = sorted(all_hexes(d), key=lambda h: h["index"])
        at = {(h["q"], h["r"]): h["index"] for h in hexes}
        for h in hexes:
            want = [at.get((h["q"] + dq, h["r"] + dr), -1) for dq, dr in dirs]
            assert h["neighbours"] == want
        portal = d["map"]["tiles"][0]["hexes"][0]
        assert portal["site"] == "portal" and (portal["q"], portal["r"]) == (0, 0)
        assert all(n >= 0 for n in portal["neighbours"])
        # the starting tile's NE hex (1,-1) borders both revealed tiles
        ne = d["map"]["tiles"][0]["hexes"][1]
        assert sum(n >= 0 for n in ne["neighbours"]) == 6


# --- 1.2.2 / 9.9: enemy tokens ----------------------------------------------------------

def test_1_2_2_token_piles_hold_every_base_copy(games, content):
    """1.2.2: one token per copy (base game: 12 green, 10 grey, 10 violet, 10 brown, 8 red,
    10 white = 60); piles + tokens on the map = the copies of enemies.toml."""
    colour = {e["id"]: e["colour"] for e in content["enemies"]}
    base = Counter()
    for e in content["enemies"]:
        if e["expansion"] == "base":
            base[e["id"]] += e["copies"]
    per_colour = Counter()
    for e, n in base.items():
        per_colour[colour[e]] += n
    assert per_colour == {"green": 12, "grey": 10, "violet": 10, "brown": 10, "red": 8, "white": 10}
    for d in games:
        on_map = [tok["enemy"] for h in all_hexes(d) for tok in h["tokens"]]
        piles = [tok["enemy"] for pile in d["enemy_piles"].values() for tok in pile]
        assert Counter(piles + on_map) == base
        for c, pile in d["enemy_piles"].items():
            assert all(colour[tok["enemy"]] == c for tok in pile)
            placed = sum(colour[e] == c for e in on_map)
            assert len(pile) == per_colour[c] - placed
        tokens = [tok["token"] for h in all_hexes(d) for tok in h["tokens"]]
        assert len(set(tokens)) == len(tokens)


def test_1_2_2_ruins_pile(games, content):
    """1.2.2, 9.9.6: base ruins tokens = pile + tokens on revealed ancient ruins."""
    base = {r["id"] for r in content["ruins"] if r["expansion"] == "base"}
    for d in games:
        on_map = [h["ruins"] for h in all_hexes(d) if h["ruins"]]
        assert sorted(d["ruins_pile"] + on_map) == sorted(base)


def test_9_9_5_rampaging_orc_gets_a_green_token_face_up(games, content):
    """9.9.5: a revealed rampaging orc space holds one green token, face up; draconum spaces
    are on core tiles only, never revealed at setup."""
    colour = {e["id"]: e["colour"] for e in content["enemies"]}
    found = 0
    for d in games:
        for h in all_hexes(d):
            if h["site"] == "rampaging_orc":
                found += 1
                assert len(h["tokens"]) == 1
                assert colour[h["tokens"][0]["enemy"]] == "green"
                assert h["tokens_face_up"]
            assert h["site"] != "rampaging_draconum"
    assert found > 50


def test_9_9_4_keep_grey_and_mage_tower_violet_face_down(games, content):
    """9.9.4: keep -> one grey token face down; mage tower -> one violet token face down;
    9.9.7: dungeons and monster dens get no token."""
    colour = {e["id"]: e["colour"] for e in content["enemies"]}
    seen = Counter()
    for d in games:
        for h in all_hexes(d):
            want = {"keep": "grey", "mage_tower": "violet"}.get(h["site"])
            if want:
                seen[h["site"]] += 1
                assert [colour[t["enemy"]] for t in h["tokens"]] == [want]
                assert not h["tokens_face_up"]
            elif h["site"] not in ("rampaging_orc",):
                assert h["tokens"] == []
    assert seen["keep"] > 10 and seen["mage_tower"] > 10


def test_9_9_6_ruins_face_up_by_day(games):
    """9.9.6: a revealed ancient ruins space gets a ruins token, face up (round 1 is a Day)."""
    n = 0
    for d in games:
        for h in all_hexes(d):
            if h["site"] == "ancient_ruins":
                n += 1
                assert h["ruins"] is not None and h["ruins_face_up"]
            else:
                assert h["ruins"] is None
    assert n > 10


def test_9_9_2_monastery_puts_an_aa_in_the_unit_offer(games):
    """9.9.2: each revealed monastery adds the top AA card to the Unit offer."""
    hit = 0
    for d in games:
        monasteries = sum(h["site"] == "monastery" for h in all_hexes(d))
        aas = [e for e in d["unit_offer"] if "advanced_action" in e]
        assert len(aas) == monasteries
        assert len(d["unit_offer"]) == 3 + monasteries
        hit += monasteries
    assert hit > 10


# --- 1.3 / 1.4: the hero ----------------------------------------------------------------

@pytest.mark.parametrize("hero", ["arythea", "goldyx", "norowas", "tovak"])
def test_1_3_1_4_initial_player_state(tables, content, hero):
    """1.4: fame 0, reputation 0, level 1, 1 command token (1.3.3), no crystals, units or
    skills; 1.3.4-1.3.5: the 16 Basic Actions shuffled, 5 drawn (hand 5, deck 11); 1.3.7:
    the figure is off the map until the first turn."""
    for seed in range(20):
        d = GameCore.new(tables, content, "solo_conquest", hero, seed).to_dict()
        p = d["players"][0]
        assert p["hero"] == hero
        assert (p["fame"], p["reputation"], p["level"], p["command_tokens"]) == (0, 0, 1, 1)
        assert p["crystals"] == {"red": 0, "blue": 0, "white": 0, "green": 0}
        assert len(p["hand"]) == 5 and len(p["deck"]) == 11
        assert p["discard"] == [] and p["play_area"] == [] and p["removed"] == 0
        assert p["units"] == [] and p["skills"] == [] and p["tactic"] is None
        assert p["position"] == -1
        assert Counter(p["hand"] + p["deck"]) == Counter(content.hero_deck(hero))  # card conservation


def test_1_3_4_deck_is_shuffled(games):
    """1.3.4: the Deed deck order varies between games."""
    assert len({tuple(d["players"][0]["hand"] + d["players"][0]["deck"]) for d in games}) > 150


# --- 18.1: the dummy ----------------------------------------------------------------------

def test_18_1_dummy_hero_crystals_and_deck(games, content):
    """18.1.2: a random base hero other than the player's; 18.1.3: one crystal per dot of
    heroes.toml; 18.1.4: its 16-card deck shuffled, no hand."""
    dots = {h["id"]: Counter(h["dummy_crystals"]) for h in content["heroes"]}
    seen = Counter()
    for d in games:
        dm = d["dummy"]
        assert dm["hero"] != "tovak" and dm["hero"] in ("arythea", "goldyx", "norowas")
        seen[dm["hero"]] += 1
        assert {c: n for c, n in dm["crystals"].items() if n} == dict(dots[dm["hero"]])
        assert sum(dm["crystals"].values()) == 3
        assert len(dm["deck"]) == 16 and dm["discard"] == []
        assert Counter(dm["deck"]) == Counter(content.hero_deck(dm["hero"]))
    assert set(seen) == {"arythea", "goldyx", "norowas"}
    assert min(seen.values()) > 40  # roughly uniform over 200 games


def test_18_1_3_goldyx_dummy_example(tables, content):
    """18.1.3 example: a Goldyx dummy holds green, green, blue."""
    for i in range(100):
        d = GameCore.new(tables, content, "solo_conquest", "tovak", 1, i).to_dict()
        if d["dummy"]["hero"] == "goldyx":
            assert d["dummy"]["crystals"] == {"red": 0, "blue": 1, "white": 0, "green": 2}
            return
    pytest.fail("no Goldyx dummy in 100 games")


# --- round state ------------------------------------------------------------------------------

def test_round_1_day_tactics_phase(games, content):
    """2.1.2 / scenarios.toml first_round: round 1 is a Day; 1.2.12: six Day tactics laid out;
    the game waits for tactic selection (3.1)."""
    day = [t["id"] for t in content["tactics"] if t["time"] == "day"]
    for d in games[:20]:
        assert (d["round"], d["time"], d["phase"]) == (1, "day", "tactics")
        assert d["tactics_available"] == day and len(day) == 6
        assert d["tactics_removed"] == [] and d["skill_offer"] == []
        assert d["n_players"] == 1 and d["termination"] == "none" and d["steps"] == 0


# --- determinism -----------------------------------------------------------------------------

def test_same_seed_and_game_index_give_identical_state(tables, content):
    a = GameCore.new(tables, content, "solo_conquest", "norowas", 77, 4).to_dict()
    b = GameCore.new(tables, content, "solo_conquest", "norowas", 77, 4).to_dict()
    assert a == b


def test_game_index_changes_the_game(tables, content):
    a = GameCore.new(tables, content, "solo_conquest", "norowas", 77, 4).to_dict()
    b = GameCore.new(tables, content, "solo_conquest", "norowas", 77, 5).to_dict()
    assert a != b
    assert a["tile_stack"] != b["tile_stack"] or a["players"] != b["players"]


def test_global_rngs_do_not_matter(tables, content):
    a = GameCore.new(tables, content, "solo_conquest", "goldyx", 2024, 1).to_dict()
    random.seed(999)
    random.random()
    np.random.seed(123)
    np.random.rand(10)
    b = GameCore.new(tables, content, "solo_conquest", "goldyx", 2024, 1).to_dict()
    assert a == b


def test_copy_is_identical_and_independent(tables, content):
    g = GameCore.new(tables, content, "solo_conquest", "arythea", 8)
    assert g.copy().to_dict() == g.to_dict()
    assert GameCore.state_size() > 0


def test_unknown_scenario_or_hero_is_an_error(tables, content):
    with pytest.raises(ValueError, match="unknown scenario"):
        GameCore.new(tables, content, "no_such", "tovak", 1)
    with pytest.raises(ValueError, match="unknown hero"):
        GameCore.new(tables, content, "solo_conquest", "krang", 1)
