"""Fixtures, format 2 (issue 12; docs/fixtures.md): bit fields as lists of names, neutral
defaults for a hand-written combat, the level from Fame, refusal of a fixture that
contradicts itself, format 1 still read; and the score by category of ``State.result()``
(20.2, 20.5) on a known end position counted by hand."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mksim import content as ct
from mksim import effects as fx
from mksim._combat import FLAG_NAMES
from mksim._state import HEX_FLAG_NAMES
from mksim.cli import app
from mksim.fixtures import (BANNER_FX_NAMES, BIT_FIELDS, BLOCK_ELEMENT_NAMES, ENEMY_UNIT_FX_NAMES,
                            TACTIC_TURN_NAMES, UNIT_RES_NAMES, FixtureError, canonical_raw, MOD_KINDS, MOD_SCOPES)
from mksim._rules import Rules
from mksim.game import Game
from mksim.policies import get_policy

EXT = Path(__file__).resolve().parents[1] / "ext"


@pytest.fixture(scope="module")
def fr():
    return Game("first-reconnaissance", hero="arythea")


@pytest.fixture(scope="module")
def sc():
    return Game("solo-conquest", hero="tovak")


def _constants(prefix: str, module: str = "_types") -> dict:
    """``NAME = value`` of the C enums whose names start with ``prefix``, from the ext
    sources of ``module`` (its .pxd / .pyx / .pxi)."""
    out = {}
    for f in sorted(EXT.glob(module + ".p*")):
        if f.suffix not in (".pxd", ".pyx", ".pxi"):
            continue
        for m in re.finditer(rf"^\s+({prefix}\w+)\s*=\s*(\d+)", f.read_text(), re.M):
            out[m.group(1)] = int(m.group(2))
    return out


def _bits(names) -> dict:
    return {n: 1 << i for i, n in enumerate(names)}


# -- one table of names, checked against the C constants -------------------------------------

def test_flag_names_are_the_c_constants_bit_by_bit():
    def c_named(prefix, module="_types"):
        return {k[len(prefix):].lower(): v for k, v in _constants(prefix, module).items()}

    assert _bits(FLAG_NAMES) == c_named("CE_")
    assert _bits(ENEMY_UNIT_FX_NAMES) == c_named("CEU_")
    assert _bits(ct.ENEMY_ABILITIES) == c_named("AB_", "_combat")
    assert _bits(ct.RESISTANCES) == c_named("RES_", "_combat")
    assert _bits(TACTIC_TURN_NAMES) == c_named("TT_", "_fx_tactics")
    assert _bits(HEX_FLAG_NAMES) == c_named("HEX_")
    bf = c_named("BF_", "_engine")                 # BannerFx, ext/_engine.pxd
    assert bf.pop("armor") == 3                    # the Armor bonus 0 .. 3: two bits, armor_1 + armor_2
    assert _bits(BANNER_FX_NAMES) == dict(armor_1=1, armor_2=2, **bf)
    colours = {k: v for k, v in _constants("").items() if k in ("RED", "BLUE", "WHITE", "GREEN", "GOLD", "BLACK")}
    assert [c.upper() for c in fx.MANA_COLOURS] == sorted(colours, key=colours.get)
    terrains = {k: v for k, v in _constants("").items() if k.lower() in fx.TERRAINS}
    assert [t.upper() for t in fx.TERRAINS] == sorted(terrains, key=terrains.get)
    elements = {k: v for k, v in _constants("").items() if k in ("PHYSICAL", "FIRE", "ICE")}
    assert [e.upper() for e in BLOCK_ELEMENT_NAMES] == sorted(elements, key=elements.get)
    assert UNIT_RES_NAMES[3:] == tuple(f"{r}_combat" for r in ct.RESISTANCES)   # RES_* << 3: this combat


def test_every_bit_field_of_the_state_headers_is_in_the_table(fr):
    """Each struct field whose header comment calls it bits or a bitmask is written as a
    list in format 2 (BIT_FIELDS); the exceptions: the hex colours (a list of colours in
    format 1 already), ``restricted`` (a 0/1 flag), ``dice_taken`` (written as
    ``source.taken``) and ``turn.mod_live`` (derived from the modifiers: never written)."""
    text = (EXT / "_types.pxd").read_text()
    fields = set(re.findall(r"^\s+u?int\d+_t\s+(\w+)(?:\[[^\]]*\])?\s*#.*\b(?:bits?|bitmask)\b", text, re.M))
    assert len(fields) > 20                     # the scan finds the headers (25 after the terrain bits became modifiers)
    listed = {p[-1] if p[-1] != "*" else p[-2] for p in BIT_FIELDS}
    assert fields - listed == {"colours", "restricted", "dice_taken", "mod_live"} and ("source", "taken") in BIT_FIELDS
    # and every place of the table exists in a real position, as a whole number in format 1
    d1 = fr.state_from_dict({"format": 2, "players": [{"units": [{"unit": "peasants"}]}]}).to_dict(format=1)
    for pattern in BIT_FIELDS:
        x = d1
        for k in pattern:
            x = x[0] if k == "*" else x[k]
        assert isinstance(x, (int, list)) and not isinstance(x, bool), pattern


# -- format 2 written and read --------------------------------------------------------------

def _played(game, seed, steps, policy="random"):
    s = game.new_state(seed)
    pol = get_policy(policy)
    pol.reset(seed, 0)
    try:
        pol.play_engine(s.engine, steps)
    except NotImplementedError:
        pass
    return s


def test_to_dict_writes_format_2_and_both_formats_read_back_byte_for_byte(sc):
    for seed, steps in ((1, 40), (2, 150), (3, 400)):
        s = _played(sc, seed, steps)
        d2, d1 = s.to_dict(), s.to_dict(format=1)
        assert d2["format"] == 2 and d1["format"] == 1
        assert isinstance(d2["source"]["taken"], list) and isinstance(d1["source"]["taken"], int)
        assert isinstance(d2["turn"]["ask_options"], list)
        for e2, e1 in zip(d2["combat"]["enemies"], d1["combat"]["enemies"]):
            assert sum(1 << FLAG_NAMES.index(f) for f in e2["flags"]) == e1["flags"]
        want = canonical_raw(s.core.raw_dict())
        for d in (d2, d1):
            again = sc.state_from_dict(json.loads(json.dumps(d)))
            assert canonical_raw(again.core.raw_dict()) == want


def test_named_flags_set_the_bits(fr):
    fx2 = {"format": 2, "phase": "combat_block", "players": [{"position": 0, "hand": ["march"]}],
           "turn": {"action_taken": 1, "ring_fame": ["green"], "units_healed": [1]},
           "source": {"taken": [1]},
           "combat": {"enemies": [{"enemy": "prowlers", "flags": ["site_fortified"], "res_lost": ["fire", "ice"]},
                                  {"enemy": "diggers", "flags": ["blocked", "no_attack"], "blocked": [0]}]}}
    raw = fr.state_from_dict(fx2).core.raw_dict()
    e = raw["combat"]["enemies"]
    assert e[0]["flags"] == 4 and e[0]["res_lost"] == 6
    assert e[1]["flags"] == 2 | 8 and e[1]["blocked"] == 1
    assert raw["turn"]["ring_fame"] == 1 << 3 and raw["turn"]["units_healed"] == 1 << 1
    assert raw["dice_taken"] == 2


def _live_mods(core) -> list:
    t = core.raw_dict()["turn"]
    return [(MOD_KINDS[m["kind"]], MOD_SCOPES[m["scope"]], m["value"], m["arg"], m["owner"])
            for m in t["mods"][:t["n_mods"]]]


def test_old_terrain_fields_load_as_turn_modifiers_with_the_same_move_costs(fr):
    """A fixture written before the terrain family became modifiers (issue 12) still loads:
    each old field is turn-long modifiers of its kind (arg = terrain + 1, in terrain order),
    owned by the player whose turn it is, and the Move costs
    are what the fields said (9.2 by Day: forest 3, hills 3; 9.6.1 a set cost, 9.6.2 a
    reduction stopping at its floor, 9.6.3 an opened lake, Mist Form's closed terrain)."""
    forest, hills, lake = (fx.TERRAINS.index(t) for t in ("forest", "hills", "lake"))
    fx2 = {"format": 2, "turn": {"terrain_delta": {"forest": -2, "plains": 1},
                                 "terrain_floor": [0, 0, 2, 0, 0, 0, 0, 0],
                                 "terrain_set": [0, 0, 0, 0, 0, 0, 1 + 1, 0],   # lake: cost 1 (+ 1)
                                 "terrain_open": ["lake"], "terrain_safe": ["lake"], "terrain_closed": ["hills"]}}
    s = fr.state_from_dict(fx2)
    assert _live_mods(s.core) == [("terrain_delta", "turn", 1, 1, 0), ("terrain_delta", "turn", -2, forest + 1, 0),
                                  ("terrain_floor", "turn", 2, forest + 1, 0), ("terrain_set", "turn", 1, lake + 1, 0),
                                  ("terrain_open", "turn", 1, lake + 1, 0), ("terrain_safe", "turn", 1, lake + 1, 0),
                                  ("terrain_closed", "turn", 1, hills + 1, 0)]
    R = Rules(s.core)
    h = 5                                                  # a space of the starting tiles (no city)
    for terrain, cost in ((forest, 2), (hills, -1), (lake, 1), (0, 3)):     # forest 3 - 2, min 2
        R.set_hex(h, terrain=terrain)
        assert R.move_cost(h) == cost, fx.TERRAINS[terrain]
    # format 1 wrote the bit fields as numbers; the same value on every terrain is one entry
    fx1 = {"format": 1, "turn": {"terrain_open": 1 << lake, "terrain_delta": {t: -1 for t in fx.TERRAINS},
                                 "terrain_floor": [2] * 8}}
    assert _live_mods(fr.state_from_dict(fx1).core) == [("terrain_open", "turn", 1, lake + 1, 0),
                                                        ("terrain_delta", "turn", -1, 0, 0),
                                                        ("terrain_floor", "turn", 2, 0, 0)]


def test_old_prayer_fields_load_as_one_weather_own_modifier(fr):
    """Prayer of Weather's own part written as the two old fields (change -2, floor 1) is one
    turn-long ``weather_own`` entry (value the change, arg the floor), and the costs are the
    skill's: 'terrain costs -2, to a minimum of 1' (9.2 by Day: plains 2 -> 1, swamp 5 -> 3)."""
    s = fr.state_from_dict({"format": 1, "turn": {"prayer_delta": -2, "prayer_floor": 1}})
    assert _live_mods(s.core) == [("weather_own", "turn", -2, 1, 0)]
    R = Rules(s.core)
    for terrain, cost in (("plains", 1), ("swamp", 3)):
        R.set_hex(5, terrain=fx.TERRAINS.index(terrain))
        assert R.move_cost(5) == cost, terrain
    assert _live_mods(fr.state_from_dict({"format": 2, "turn": {"prayer_delta": 0, "prayer_floor": 0}}).core) == []
    with pytest.raises(FixtureError, match=r"turn\.prayer_floor: -1 is out of range \(0 \.\. 127\)"):
        fr.state_from_dict({"format": 2, "turn": {"prayer_floor": -1}})


@pytest.mark.parametrize("turn,message", [
    ({"terrain_open": ["tundra"]}, r"turn\.terrain_open\[0\]: unknown flag 'tundra'"),
    ({"terrain_closed": 1 << 9}, r"turn\.terrain_closed: 512 is out of range \(0 \.\. 255\)"),
    ({"terrain_set": [0] * 9}, r"turn\.terrain_set: 9 entries, at most 8 fit"),
    ({"terrain_floor": [0, -1]}, r"turn\.terrain_floor\[1\]: -1 is out of range"),
    ({"terrain_delta": {t: i + 1 for i, t in enumerate(fx.TERRAINS)}, "terrain_set": [1, 2, 3, 4, 5, 6, 7, 8],
      "terrain_floor": [1, 2, 3, 4, 5, 6, 7, 8]},
     r"turn\.terrain_floor: the modifier array turn\.mods is full \(16 entries\)"),
])
def test_old_terrain_fields_bad_values_name_the_field(fr, turn, message):
    with pytest.raises(FixtureError, match=message):
        fr.state_from_dict({"format": 1 if isinstance(turn.get("terrain_closed"), int) else 2, "turn": turn})


@pytest.mark.parametrize("change,message", [
    ({"combat": {"enemies": [{"enemy": "prowlers"}, {"enemy": "diggers", "flags": ["blockd"]}]}},
     "combat.enemies[1].flags[0]: unknown flag 'blockd'; known: defeated, blocked, site_fortified, no_attack, "
     "damage_done, rampaging, gone, no_fortification"),
    ({"combat": {"enemies": [{"enemy": "prowlers", "flags": 16}]}},
     "combat.enemies[0].flags: expected a list of flag names (format 2 writes bit fields as lists), got 16"),
    ({"turn": {"ring_fame": ["gold"]}}, "turn.ring_fame[0]: unknown flag 'gold'; known: red, blue, white, green"),
    ({"source": {"taken": [8]}}, "source.taken[0]: 8 is out of range (0 .. 7)"),
    ({"forbid_cards": ["marhc"]}, "forbid_cards[0]: unknown card 'marhc'; known: "),
])
def test_an_unknown_name_is_one_error_naming_the_path(fr, change, message):
    d = {"format": 2, "phase": "combat_block", "players": [{"position": 0}], "turn": {"action_taken": 1}}
    d.update(change)
    with pytest.raises(FixtureError) as err:
        fr.state_from_dict(d)
    assert str(err.value).startswith(message)


def test_the_cli_refuses_an_unknown_flag_with_exit_2(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text(json.dumps({"format": 2, "scenario": "first-reconnaissance", "hero": "arythea",
                             "phase": "combat_block", "players": [{"position": 0}], "turn": {"action_taken": 1},
                             "combat": {"enemies": [{"enemy": "prowlers", "flags": ["blockd"]}]}}))
    r = CliRunner().invoke(app, ["play", "--fixture", str(f), "--policy", "random"])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.output
    assert lines[0].startswith("error: ") and "combat.enemies[0].flags[0]: unknown flag 'blockd'" in lines[0]


# -- neutral defaults -----------------------------------------------------------------------

def _damage_phase(fmt):
    return {"format": fmt, "phase": "combat_damage", "turn": {"action_taken": 1},
            "players": [{"position": 0, "hand": ["march"], "tactic": "early_bird"}],
            "combat": {"active": 1, "units_allowed": 1, "enemies": [{"enemy": "prowlers"}, {"enemy": "diggers"}]}}


def test_a_hand_written_combat_assigns_no_damage_unless_written(fr):
    """11.7.1: in the Assign Damage phase the player picks the unblocked enemy whose damage
    is assigned next.  Format 2 leaves the choice open (dmg_slot -1, nothing blocked);
    format 1 kept the fresh struct's 0, as if the Prowlers' damage were being assigned."""
    s2 = fr.state_from_dict(_damage_phase(2))
    c = s2.to_dict()["combat"]
    assert c["dmg_slot"] == -1 and c["block_target"] == -1 and c["targets"] == []
    assert all(e["flags"] == [] and e["blocked"] == [] and e["damaged"] == [] and e["hex"] == -1
               for e in c["enemies"][:2])
    assert {s2.action_to_string(a) for a in s2.legal_actions()} == {
        "take the damage of Prowlers' Attack 4", "take the damage of Diggers' Attack 3"}
    s1 = fr.state_from_dict(_damage_phase(1))
    assert s1.to_dict()["combat"]["dmg_slot"] == 0                                  # format 1 unchanged
    assert {s1.action_to_string(a) for a in s1.legal_actions()} == {"assign the damage to the hero"}


def test_a_hand_written_combat_starts_active_with_units_allowed(fr):
    d = {"format": 2, "phase": "combat_ranged", "players": [{"position": 0, "tactic": "early_bird"}],
         "turn": {"action_taken": 1}, "combat": {"enemies": [{"enemy": "prowlers"}]}}
    c = fr.state_from_dict(d).to_dict()["combat"]
    assert c["active"] == 1 and c["n_enemies"] == 1 and c["units_allowed"] == 1 and c["site_hex"] == -1
    assert c["enemies"][1]["enemy"] is None and c["enemies"][1]["token"] == -1


def test_the_level_follows_from_fame_unless_written(fr):
    """13.6.2 (levels.toml): Fame 8 is level 3, with its 2 Command tokens (13.6.3); a level
    written alone brings its least Fame; format 1 kept the fresh level."""
    p = fr.state_from_dict({"format": 2, "players": [{"fame": 10}]}).to_dict()["players"][0]
    assert (p["level"], p["command_tokens"]) == (3, 2)
    p = fr.state_from_dict({"format": 2, "players": [{"level": 5}]}).to_dict()["players"][0]
    assert (p["fame"], p["level"], p["command_tokens"]) == (24, 5, 3)
    p = fr.state_from_dict({"format": 2, "players": [{"fame": 10, "level": 3, "command_tokens": 3}]}).to_dict()["players"][0]
    assert (p["level"], p["command_tokens"]) == (3, 3)
    p = fr.state_from_dict({"format": 1, "players": [{"fame": 10}]}).to_dict()["players"][0]
    assert (p["level"], p["command_tokens"]) == (1, 1)


def test_a_tactic_and_cards_written_are_taken_from_where_the_setup_put_them(fr):
    """3.1.1: the tactic taken leaves the offer (and, solo, the game: 17.3.4); a Spell
    written into the hand leaves the Spell offer, whose slot the deck's top card fills
    (6.4.2); a second March in hand comes out of the Deed deck."""
    base = fr.new_state(0).to_dict()
    spell = base["spell_offer"][1]
    top = base["spell_deck"][-1]
    d = fr.state_from_dict({"format": 2, "players": [{"tactic": "early_bird", "hand": [spell, "march", "march"]}],
                            "phase": "move"}).to_dict()
    assert "early_bird" not in d["tactics_available"] and "early_bird" in d["tactics_removed"]
    assert d["spell_offer"] == [base["spell_offer"][0], top, base["spell_offer"][2]]
    assert len(d["spell_deck"]) == len(base["spell_deck"]) - 1
    marches = sum(c == "march" for z in ("deck", "hand", "discard") for c in d["players"][0][z])
    assert marches == 2                                          # Arythea's deck holds two (6.1.1)


# -- refusal of a fixture that contradicts itself ------------------------------------------

@pytest.mark.parametrize("change,message", [
    ({"players": [{"tactic": "early_bird"}], "tactics_available": ["early_bird", "planning"]},
     "tactics_available[0]: tactic 'early_bird' is also at players[0].tactic"),
    ({"players": [{"hand": ["fireball"]}], "spell_offer": ["fireball", "snowstorm", "expose"]},
     "spell_offer[0]: 'fireball': the game has 1 copy, also at players[0].hand[0]"),
    ({"players": [{"hand": ["fire_bolt"], "discard": ["fire_bolt"]}],
      "advanced_action_deck": []}, "players[0].discard[0]: 'fire_bolt': the game has 1 copy, also at players[0].hand[0]"),
    # two Marches in each hero's 16 Basic Actions (the hero's and the dummy's, 6.1.1, 18.1.4)
    ({"players": [{"hand": ["march"] * 5, "deck": []}], "dummy": {"deck": []}},
     "players[0].hand[4]: 'march': the game has 4 copies, also at players[0].hand[0], players[0].hand[1], "
     "players[0].hand[2]"),
    ({"players": [{"fame": 2, "level": 3}]}, "players[0].level: 3, but players[0].fame 2 reaches level 1 only"),
    ({"phase": "tactics", "players": [{"fame": 10, "level": 2}]},
     "players[0].level: 2, but players[0].fame 10 reaches level 3; outside a turn"),
    ({"map": {"hexes": {"0": {"tokens": ["prowlers"]}}},
      "combat": {"enemies": [{"token": 0, "enemy": "prowlers"}]}, "phase": "combat_ranged", "turn": {"action_taken": 1}},
     "combat.enemies[0].token: token 0 lies in two places"),
])
def test_a_fixture_that_contradicts_itself_is_refused_naming_both_places(fr, change, message):
    d = {"format": 2, "phase": "move"}
    d.update(change)
    with pytest.raises(FixtureError) as err:
        fr.state_from_dict(d)
    assert str(err.value).startswith(message), str(err.value)


def test_a_level_below_its_fame_is_accepted_within_a_turn(fr):
    """13.6.1: levels gained in a turn are taken at its end; in the middle of it the level
    lags (here Fame 10 with level 2, in the Move phase)."""
    p = fr.state_from_dict({"format": 2, "phase": "move", "players": [{"fame": 10, "level": 2}]}).to_dict()["players"][0]
    assert (p["fame"], p["level"]) == (10, 2)


def test_format_1_still_loads_what_format_2_refuses(fr):
    """Format 1 keeps its reading: a held tactic left on offer was loaded, and still is."""
    d = {"format": 1, "phase": "move", "players": [{"tactic": "early_bird"}]}
    assert "early_bird" in fr.state_from_dict(d).to_dict()["tactics_available"]
    with pytest.raises(FixtureError, match=r"^tactics_available\[0\]: tactic 'early_bird' is also at players\[0\]\.tactic"):
        fr.state_from_dict(dict(d, format=2, tactics_available=["early_bird"]))


def test_load_dict_refuses_format_2_contradictions_and_keeps_the_state(fr):
    s = fr.new_state(1)
    before = s.core.state_bytes()
    with pytest.raises(FixtureError, match=r"^players\[0\]\.level: 4, but players\[0\]\.fame 0"):
        s.core.load_dict({"format": 2, "players": [{"level": 4, "fame": 0}]})
    assert s.core.state_bytes() == before


# -- the score by category (20.2, 20.5) -----------------------------------------------------

def test_score_by_category_on_a_known_end_position(sc):
    """A Solo Conquest game over by the round limit (14.2), every category counted by hand
    from the position (20.2 table; 20.5.2 additions), checked against result()."""
    base = sc.new_state(4).to_dict()
    hexes = {h["index"]: h for t in base["map"]["tiles"] for h in t["hexes"]}
    plain = [i for i, h in hexes.items() if h["site"] is None and not h["tokens"]][:5]
    keep, tower, dungeon, tomb_other, city = plain
    d = {"format": 2, "phase": "game_over", "termination": "round_limit", "round": 6, "time": "night",
         "end_announced_by": None,
         "players": [{"fame": 24,
                      "deck": ["fireball", "snowstorm", "fire_bolt", "march", "wound"],
                      "hand": ["ice_bolt", "banner_of_fear", "wound", "wound"],
                      "discard": ["rage"], "play_area": [],
                      "crystals": {"red": 3, "blue": 2},
                      "units": [{"unit": "peasants"}, {"unit": "utem_guardsmen", "wounds": 1},
                                {"unit": "fire_golems", "banner": "banner_of_glory"}],
                      "command_tokens": 3, "level": 5, "tactic": None}],
         "dummy": {"deck": ["stamina", "swiftness", "promise"], "tactic": None},
         "map": {"hexes": {str(keep): {"site": "keep", "owner": 0, "flags": ["conquered"]},
                           str(tower): {"site": "mage_tower", "owner": 0, "flags": ["conquered"]},
                           str(dungeon): {"site": "dungeon", "owner": 0, "flags": ["conquered"]},
                           str(tomb_other): {"site": "tomb", "owner": None, "flags": ["conquered"]},
                           str(city): {"site": "city", "owner": 0, "flags": ["conquered"], "city_level": 5}}}}
    s = sc.state_from_dict(d)
    out = s.result()
    assert out.finished and out.termination == "round_limit"
    hand_count = {
        "fame": 24,
        "knowledge": 2 * 2 + 2 * 1,          # Fireball, Snowstorm (Spells); Fire Bolt, Ice Bolt (AAs)
        "loot": 2 * 2 + 5 // 2,              # Banner of Fear (a Deed card), Banner of Glory on a Unit; 5 crystals
        "leader": 1 + 2 // 2 + 3,            # Peasants 1, wounded Utem Guardsmen 2 -> 1, Fire Golems 3
        "conqueror": 2 * 2,                  # own Shields on the keep and the mage tower
        "adventurer": 2 * 1,                 # own Shield on the dungeon (not on the tomb: no Shield)
        "beating": -2 * 3,                   # three Wound cards among the Deed cards
        "cities": 10 * 1,                    # one city conquered (20.5.2)
        "all_cities": 0,                     # of the scenario's 2
        "rounds_left": 0,                    # ended by the round limit
        "dummy_deck": 3,                     # three cards left in the dummy's Deed deck
        "end_not_announced": 5,              # nobody announced the End of the Round
    }
    assert out.score_by_category == hand_count
    assert out.score == sum(hand_count.values())


def test_a_game_not_over_has_no_score_by_category(fr):
    out = fr.new_state(0).result()
    assert out.score is None and out.score_by_category is None


def test_the_format_2_examples_of_the_docs_play_as_written(fr):
    """docs/fixtures.md "Writing a fixture": the Prowlers (Armor 3, Fame 2) fall to Rage
    powered by the red crystal (Attack 4, 5.4.1, 11.5.7), Fame 2 -> 4; JSON and TOML alike."""
    import tomllib
    text = (Path(__file__).resolve().parents[1] / "docs" / "fixtures.md").read_text()
    js = re.search(r"```json\n(\{\n  \"format\": 2.*?)```", text, re.S).group(1)
    tm = re.search(r"```toml\n(format = 2\n.*?)```", text, re.S).group(1)
    for d in (json.loads(js), tomllib.loads(tm)):
        s = fr.state_from_dict(d)
        for text_ in ("play Rage (powered, paying a red crystal)", "attack Prowlers"):
            acts = {s.action_to_string(a): int(a) for a in s.legal_actions()}
            assert text_ in acts, sorted(acts)
            s.apply(acts[text_])
        p = s.to_dict()["players"][0]
        assert (p["fame"], p["crystals"]["red"]) == (4, 0)


def test_a_deck_written_alone_takes_its_surplus_from_the_hand_not_from_the_dummy(fr):
    """The fresh hand's 5 cards and a 16-card deck written by hand would be 21 of the 16
    Basic Actions (6.1.1): the surplus leaves the (unwritten) hand; the dummy's 16 stay."""
    base = fr.new_state(0).to_dict()
    deck16 = sorted(base["players"][0]["deck"] + base["players"][0]["hand"])
    d = fr.state_from_dict({"format": 2, "phase": "move", "players": [{"deck": deck16}]}).to_dict()
    assert sorted(d["players"][0]["deck"]) == deck16 and d["players"][0]["hand"] == []
    assert d["dummy"]["deck"] == base["dummy"]["deck"]


@pytest.mark.parametrize("scenario", ["first-reconnaissance", "solo-conquest"])
def test_the_categories_add_up_to_the_engines_score(scenario):
    """The breakdown is computed beside the C scoring (final_score): on played games the
    categories sum to its score."""
    g = Game(scenario, hero="norowas")
    seen = 0
    for seed in range(6):
        s = _played(g, seed, 100_000)
        if not s.is_terminal():
            continue
        out = s.result()
        assert out.score is not None and sum(out.score_by_category.values()) == out.score
        assert out.score_by_category["fame"] == out.fame
        seen += 1
    assert seen >= 3


def test_a_terrain_modifier_for_no_terrain_is_refused(fr):
    """A terrain kind's arg is a terrain + 1 (1 .. 8) or 0 for every terrain: 9 names none."""
    m = {"kind": MOD_KINDS.index("terrain_open"), "scope": MOD_SCOPES.index("turn"), "value": 1, "arg": 9,
         "source": -1, "owner": 0}
    with pytest.raises(FixtureError, match=r"turn\.mods\[0\]\.arg: 9 is out of range \(0 \.\. 8"):
        fr.state_from_dict({"format": 2, "turn": {"mods": [m], "n_mods": 1}})
    m["arg"] = 0                                       # every terrain: lakes and mountains opened
    assert _live_mods(fr.state_from_dict({"format": 2, "turn": {"mods": [m], "n_mods": 1}}).core) == \
        [("terrain_open", "turn", 1, 0, 0)]
