"""Fixtures: ``State.to_dict`` / ``Game.state_from_dict`` (mksim/fixtures.py, docs/fixtures.md).

* Round trips at many points of seeded random games restore the state byte for byte (up to
  the left-overs past a counted array's end, see ``canonical_raw``), and play continued
  from the restored state is the same game, action for action.
* Every field of the bookkeeping structs (TurnState, Combat, Player) survives a round trip,
  whatever its name: the conversion is generated from ext/_types.pxd.
* Partial fixtures set up rule situations (a combat in progress, a powered card paid with
  a crystal, gold mana by Day and at Night).
* Every kind of bad input raises one FixtureError naming the key path; the CLI prints it
  as one ``error:`` line with exit status 2.
"""
from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from mksim import fixtures as F
from mksim.cli import EXIT_STOPPED, app
from mksim.fixtures import FORMAT, FixtureError, canonical_raw
from mksim.game import Game
from mksim._state import GameCore

DECK_CAP = GameCore.zone_capacities()["deck"]   # MAX_DECK_CARDS of ext/_types.pxd


@pytest.fixture(scope="module")
def fr():
    return Game("first-reconnaissance", "arythea")


@pytest.fixture(scope="module")
def sc_ll():
    return Game("solo-conquest", "tovak", lost_legion=True)


def restore(game, state):
    """JSON round trip of ``state``."""
    text = json.dumps(state.to_dict())          # plain JSON: no default= needed
    return game.state_from_dict(json.loads(text))


def assert_same_state(original, restored, both=False):
    """``restored`` is ``original`` byte for byte (``original`` canonical, and with
    ``both`` also ``restored``: after play went on, both hold left-overs past counts)."""
    want = canonical_raw(original.core.raw_dict())
    got = canonical_raw(restored.core.raw_dict()) if both else restored.core.raw_dict()
    assert got == want
    c = original.core.copy()
    c.set_raw(want)
    r = restored.core.copy()
    r.set_raw(got)
    assert r.state_bytes() == c.state_bytes()


def load_generator() -> dict:
    """The namespace of ext/gen_fields.py (a build script, not part of the package)."""
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "ext" / "gen_fields.py"
    gen = {"__name__": "gen_fields", "__file__": str(path)}
    exec(compile(path.read_text(), str(path), "exec"), gen)
    return gen


def random_walk(state, rng, steps):
    """Up to ``steps`` random decisions; the words of each, in order."""
    words = []
    for _ in range(steps):
        legal = state.legal_actions()
        if state.is_terminal() or state.is_stopped() or len(legal) == 0:
            break
        a = int(rng.choice(list(legal)))
        words.append(state.action_to_string(a))
        try:
            state.apply(a)
        except NotImplementedError:
            break
    return words


# ---------------------------------------------------------------------------------------
# round trips
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("which,seed", [("fr", 1), ("fr", 2), ("fr", 5), ("sc_ll", 3), ("sc_ll", 4)])
def test_round_trip_is_byte_identical_at_many_points(which, seed, request):
    game = request.getfixturevalue(which)
    state = game.new_state(seed)
    rng = random.Random(seed)
    checked = 0
    phases = set()
    for _ in range(100):
        r = restore(game, state)
        assert_same_state(state, r)
        assert r.to_dict() == state.to_dict()
        phases.add(state.phase)
        checked += 1
        if not random_walk(state, rng, 9):
            break
    assert checked >= 12
    assert {"tactics", "move"} <= phases


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_play_continued_from_a_restored_state_is_the_same_game(fr, seed):
    state = fr.new_state(seed)
    random_walk(state, random.Random(seed), 30 + 10 * (seed - 11))
    restored = restore(fr, state)
    a = random_walk(state, random.Random(99), 400)
    b = random_walk(restored, random.Random(99), 400)
    assert len(a) > 50 and a == b
    assert_same_state(state, restored, both=True)
    assert restored.result().fame == state.result().fame


def test_combat_in_progress_round_trips_and_continues(fr):
    """A real combat (phase combat_*) captured mid-way is restored and played on identically."""
    for seed in range(1, 40):
        state = fr.new_state(seed)
        rng = random.Random(seed)
        while not state.phase.startswith("combat") and random_walk(state, rng, 1):
            pass
        if state.phase.startswith("combat"):
            break
    else:
        pytest.fail("no combat in 39 random games")
    d = state.to_dict()
    assert d["combat"]["active"] == 1 and d["combat"]["n_enemies"] >= 1
    restored = restore(fr, state)
    assert_same_state(state, restored)
    assert random_walk(state, random.Random(5), 200) == random_walk(restored, random.Random(5), 200)
    assert_same_state(state, restored, both=True)


def test_every_bookkeeping_field_round_trips(fr, monkeypatch):
    """Scribble a distinct value into EVERY field of TurnState and Combat and into every
    numeric field of the player (including fields other branches add later: the
    conversion is generated from ext/_types.pxd) and check that the fixture keeps it.

    The scribbled values are no position of a game (a combat in the tactics phase, rows
    that are no effect handler ...): the loader refuses them; the conversion itself is
    tested with the check by meaning (``validate``) switched off."""
    state = fr.new_state(0)
    raw = state.core.raw_dict()
    counter = iter(range(1, 10**6))

    def scribble(x, lo=1, hi=60):
        if isinstance(x, dict):
            return {k: scribble(v, lo, hi) for k, v in x.items()}
        if isinstance(x, list):
            return [scribble(v, lo, hi) for v in x]
        return lo + next(counter) % (hi - lo)

    turn = scribble(raw["turn"])
    turn["n_path"] = 5
    combat = scribble(raw["combat"], 1, 20)        # enemy ids among the first 20 enemies
    named = {"hero", "crystals", "deck", "hand", "discard", "play_area", "units", "skills", "skill_stack",
             "tactic", "tactic_cards", "stolen_die", "n_deck", "n_hand", "n_discard", "n_play",
             "n_skill_stack", "n_tactic_cards", "set_aside", "n_set_aside", "fame", "reputation", "level", "position"}
    player = {k: scribble(v) for k, v in raw["players"][0].items() if k not in named}
    state.core.set_raw({"turn": turn, "combat": combat, "players": [player], "round": 3, "steps": 12345,
                        "error_arg": 7, "rng": scribble(raw["rng"], 1, 1 << 62)})
    with pytest.raises(FixtureError):
        restore(fr, state)
    monkeypatch.setattr(F, "validate", lambda core, engine=None, version=2: None)
    restored = restore(fr, state)
    assert_same_state(state, restored)
    got = restored.core.raw_dict()
    assert got["turn"]["hvars"] == turn["hvars"] and got["combat"]["attack"] == combat["attack"]
    assert got["players"][0]["wounds_this_combat"] == player["wounds_this_combat"]


def test_generated_conversion_covers_every_struct_field():
    """ext/gen_fields.py reads the headers; every field of TurnState / Player / Combat in
    ext/_types.pxd is a key of the dicts, in declaration order."""
    from pathlib import Path

    import mksim._state as st
    gen = load_generator()
    ext = Path(__file__).resolve().parents[1] / "ext"
    structs = gen["parse"]([ext / "_rng.pxd", ext / "_types.pxd"])
    for name in ("TurnState", "Player", "Combat", "GameState", "Hex", "Dummy", "CombatEnemy", "Unit", "Tile", "Rng"):
        assert st.STRUCT_FIELDS[name] == tuple(f[1] for f in structs[name])
    g = Game("first-reconnaissance", "arythea")
    raw = g.new_state(0).core.raw_dict()
    assert tuple(raw["turn"]) == st.STRUCT_FIELDS["TurnState"]
    assert tuple(raw["combat"]) == st.STRUCT_FIELDS["Combat"]


def test_generator_refuses_a_line_it_cannot_read(tmp_path):
    from pathlib import Path
    gen = load_generator()
    bad = tmp_path / "x.pxd"
    bad.write_text("cdef struct S:\n    int8_t a\n    float b   # not an integer type\n")
    with pytest.raises(gen["GenError"], match="S.b"):
        gen["parse"]([bad])
    bad.write_text("cdef struct S:\n    int8_t a, c\n")
    with pytest.raises(gen["GenError"], match="cannot read"):
        gen["parse"]([bad])


def test_to_dict_names_what_a_player_sees(fr):
    d = fr.new_state(3).to_dict()
    assert d["format"] == FORMAT and d["scenario"] == "first_reconnaissance" and d["hero"] == "arythea"
    p = d["players"][0]
    assert len(p["hand"]) == 5 and all(isinstance(c, str) for c in p["hand"] + p["deck"])
    assert set(p["crystals"]) == {"red", "blue", "white", "green"}
    assert d["phase"] == "tactics" and d["time"] == "day"
    assert all(isinstance(t["tile"], str) for t in d["map"]["tiles"])
    assert all(isinstance(x, str) for x in d["source"]["dice"])
    assert len(d["rng"]) == 10 and set(d["rng"][0]) == {"s0", "s1", "s2", "s3"}   # 7 + a Deed stream per further seat (issue 12)
    assert "eval_stack" in d["turn"] and "dmg_left" in d["combat"]      # bookkeeping stays numeric


# ---------------------------------------------------------------------------------------
# partial fixtures: rule situations
# ---------------------------------------------------------------------------------------

def apply_words(state, text):
    acts = {state.action_to_string(a): int(a) for a in state.legal_actions()}
    assert text in acts, f"{text!r} not among {sorted(acts)}"
    state.apply(acts[text])


def words(state):
    return {state.action_to_string(a) for a in state.legal_actions()}


def test_combat_fixture_attack_defeats_prowlers_and_levels_up(fr):
    """A combat in progress written by hand: Attack phase against Prowlers (Armor 3,
    Fame 2).  Rage powered by a red crystal (5.4.1: Attack 4) defeats them (11.5.7 via
    11.8.1): Fame 2 -> 4 at once, the token goes to the green discard pile, the crystal is
    spent.  4 crosses the level-2 line (3 = 2^2 - 1, 13.6.2), so the end of the turn brings
    level 2 and the choice of a Skill (13.6.1, 13.6.4)."""
    fx = {"format": 1, "scenario": "first-reconnaissance", "hero": "arythea", "seed": 0,
          "phase": "combat_attack",
          "players": [{"position": 0, "hand": ["rage", "march"], "crystals": {"red": 1}, "fame": 2,
                       "tactic": "early_bird"}],
          "turn": {"action_taken": 1},
          "combat": {"active": 1, "units_allowed": 1, "enemies": [{"enemy": "prowlers", "flags": 16}]}}
    s = fr.state_from_dict(fx)
    d = s.to_dict()
    token = d["combat"]["enemies"][0]["token"]
    assert d["combat"]["n_enemies"] == 1 and d["combat"]["enemies"][0]["hex"] == -1
    assert {"token": token, "enemy": "prowlers"} not in d["enemy_piles"]["green"]   # taken from its pile
    apply_words(s, "play Rage (powered, paying a red crystal)")
    d = s.to_dict()
    assert d["combat"]["attack"][0][0] == 4 and d["players"][0]["crystals"]["red"] == 0
    apply_words(s, "attack Prowlers")
    d = s.to_dict()
    assert d["players"][0]["fame"] == 4 and d["players"][0]["level"] == 1          # level-up waits (11.5.7)
    assert d["enemy_discards"]["green"] == [{"token": token, "enemy": "prowlers"}]
    apply_words(s, "end the Attack phase")
    assert s.to_dict()["combat"]["active"] == 0                                     # 11.12.1
    apply_words(s, "end turn")
    d = s.to_dict()
    assert d["players"][0]["level"] == 2
    assert words(s) and all(w.startswith("level up: take skill") for w in words(s))


def test_combat_fixture_too_weak_attack_is_not_offered(fr):
    """Same combat with only March in hand: sideways Attack 1 < Armor 3 (11.5.7) - the
    attack on the Prowlers is not offered and the combat can only end with them alive."""
    fx = {"format": 1, "phase": "combat_attack",
          "players": [{"position": 0, "hand": ["march"], "tactic": "early_bird"}],
          "turn": {"action_taken": 1},
          "combat": {"active": 1, "units_allowed": 1, "enemies": [{"enemy": "prowlers", "flags": 16}]}}
    s = fr.state_from_dict(fx)
    apply_words(s, "play March sideways as Attack 1")
    assert "attack Prowlers" not in words(s)
    apply_words(s, "end the Attack phase")
    assert s.to_dict()["players"][0]["fame"] == 0


@pytest.mark.parametrize("green_crystals,legal", [(1, True), (0, False)])
def test_powered_march_paid_with_a_green_crystal(fr, green_crystals, legal):
    """5.4.1: March is green; powered it gives Move 4.  With a green crystal (and no green
    or gold die in the Source, no mana token) the powered play is offered; without it not."""
    fx = {"format": 1, "phase": "move", "round": 1,
          "players": [{"position": 0, "hand": ["march"], "crystals": {"green": green_crystals},
                       "tactic": "early_bird"}],
          "source": {"dice": ["red", "blue", "white"], "taken": 0}}
    s = fr.state_from_dict(fx)
    powered = "play March (powered, paying a green crystal)"
    assert (powered in words(s)) is legal
    if legal:
        apply_words(s, powered)
        d = s.to_dict()
        assert d["turn"]["move_points"] == 4 and d["players"][0]["crystals"]["green"] == 0


@pytest.mark.parametrize("time,legal", [("day", True), ("night", False)])
def test_gold_die_powers_march_by_day_only(fr, time, legal):
    """5.1.5: by Day gold mana counts as any basic colour; 5.1.6: gold cannot be used at Night."""
    tactic = "early_bird" if time == "day" else "from_the_dusk"
    fx = {"format": 1, "phase": "move", "time": time,
          "players": [{"position": 0, "hand": ["march"], "tactic": tactic}],
          "source": {"dice": ["gold", "red", "blue"], "taken": 0}}
    s = fr.state_from_dict(fx)
    assert ("play March (powered, paying the gold Source die)" in words(s)) is legal
    assert "play March (basic)" in words(s)


def test_partial_fixture_keeps_the_rest_of_the_fresh_setup(fr):
    fresh = fr.new_state(8).to_dict()
    s = fr.state_from_dict({"format": 1, "seed": 8, "players": [{"hand": ["march", "march"]}]})
    d = s.to_dict()
    assert d["players"][0]["hand"] == ["march", "march"]
    assert d["players"][0]["deck"] == fresh["players"][0]["deck"]
    assert d["map"] == fresh["map"] and d["rng"] == fresh["rng"] and d["source"] == fresh["source"]


def test_fixture_units_skills_tokens_and_position_by_coordinates(fr):
    base = fr.new_state(0).to_dict()
    h = base["map"]["tiles"][1]["hexes"][2]
    fx = {"format": 1,
          "players": [{"units": [{"unit": "peasants", "wounds": 1}, {"unit": "foresters", "ready": False, "slot": 2}],
                       "command_tokens": 2,                 # 7.2.1: a Command token per Unit
                       "skills": ["arythea_dark_paths"], "position": [h["q"], h["r"]]}],
          "map": {"hexes": {str(h["index"]): {"tokens": ["prowlers"], "flags": ["tokens_revealed"]}}}}
    d = fr.state_from_dict(fx).to_dict()
    p = d["players"][0]
    assert p["position"] == h["index"]
    assert [(u["unit"], u["ready"], u["wounds"], u.get("slot")) for u in p["units"]] == \
        [("peasants", True, 1, None), ("foresters", False, 0, 2)]      # slot 1 empty (a gap)
    state = fr.state_from_dict(fx)
    assert_same_state(state, restore(fr, state))
    raw = state.core.raw_dict()["players"][0]["units"]
    assert [u["card"] >= 0 for u in raw] == [True, False, True, False, False, False]
    assert p["skills"] == ["arythea_dark_paths"]
    hx = [x for t in d["map"]["tiles"] for x in t["hexes"] if x["index"] == h["index"]][0]
    assert [t["enemy"] for t in hx["tokens"]] == ["prowlers"] and hx["tokens_face_up"] is True
    green = [t["token"] for t in d["enemy_piles"]["green"]]
    assert hx["tokens"][0]["token"] not in green


def test_fixture_can_lay_its_own_map(fr):
    base = fr.new_state(0).to_dict()
    first = base["map"]["tiles"][0]
    d = fr.state_from_dict({"format": 1, "map": {"tiles": [{"tile": first["tile"], "position": [0, 0]}]},
                            "players": [{"position": 3}]}).to_dict()
    assert len(d["map"]["tiles"]) == 1 and d["map"]["n_hexes"] == 7
    assert [h["terrain"] for h in d["map"]["tiles"][0]["hexes"]] == [h["terrain"] for h in first["hexes"]]


def test_toml_fixture_file(tmp_path, fr):
    path = tmp_path / "f.toml"
    path.write_text('format = 1\nscenario = "first-reconnaissance"\nhero = "arythea"\nseed = 4\n'
                    'phase = "move"\n[[players]]\nhand = ["march", "rage"]\ntactic = "none"\n'
                    'crystals = { blue = 2 }\n')
    d = F.load_fixture_file(path)
    assert F.fixture_game_args(d) == {"scenario": "first-reconnaissance", "hero": "arythea", "lost_legion": False}
    p = fr.state_from_dict(d).to_dict()["players"][0]
    assert p["hand"] == ["march", "rage"] and p["tactic"] is None and p["crystals"]["blue"] == 2


def test_the_examples_of_docs_fixtures_md_load(fr):
    """The JSON and TOML examples of docs/fixtures.md are the same, working fixture."""
    import re
    import tomllib
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "docs" / "fixtures.md").read_text()
    js = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    tm = tomllib.loads(re.search(r"```toml\n(.*?)```", text, re.S).group(1))
    a, b = fr.state_from_dict(js), fr.state_from_dict(tm)
    assert a.core.state_bytes() == b.core.state_bytes()
    assert "attack Prowlers" not in words(a)
    apply_words(a, "play Rage (powered, paying a red crystal)")
    assert "attack Prowlers" in words(a)


# ---------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------

BAD = [
    ([], "fixture: expected a table"),
    ({}, "format: missing"),
    ({"format": 3}, "format: version 3 is not supported (this mksim reads formats 1, 2)"),
    ({"format": "1"}, "format: expected a whole number"),
    ({"format": 1, "hnad": []}, "hnad: unknown key"),
    ({"format": 1, "players": [{"hnad": []}]}, "players[0].hnad: unknown key"),
    ({"format": 1, "players": [{"hand": ["march", "rage", "marhc"]}]}, "players[0].hand[2]: unknown card 'marhc'"),
    ({"format": 1, "players": [{"hand": "march"}]}, "players[0].hand: expected a list"),
    ({"format": 1, "players": [{"hand": ["march"] * 64}]}, "players[0].hand: 64 entries, at most 63 fit"),
    ({"format": 1, "players": [{"deck": ["wound"] * DECK_CAP}]},                 # a full zone stops the game
     f"players[0].deck: {DECK_CAP} entries, at most {DECK_CAP - 1} fit"),
    ({"format": 1, "lost_legion": "no"}, "lost_legion: expected true or false"),
    ({"format": 1, "players": [{"crystals": {"blue": 4}}]}, "players[0].crystals.blue: 4 is out of range (0 .. 3)"),
    ({"format": 1, "players": [{"crystals": {"purple": 1}}]}, "players[0].crystals.purple: unknown colour"),
    ({"format": 1, "players": [{"reputation": 9}]}, "players[0].reputation: 9 is out of range (-7 .. 8)"),
    ({"format": 1, "players": [{"level": 11}]}, "players[0].level: 11 is out of range (1 .. 10)"),
    ({"format": 1, "players": [{"fame": "ten"}]}, "players[0].fame: expected a whole number, got 'ten'"),
    ({"format": 1, "players": [{"fame": 1.5}]}, "players[0].fame: expected a whole number"),
    ({"format": 1, "players": [{"hero": "goldyx"}]}, "players[0].hero: the game is set up for hero 'arythea'"),
    ({"format": 1, "players": [{"units": [{"unit": "peasant"}]}]}, "players[0].units[0].unit: unknown unit 'peasant'"),
    ({"format": 1, "players": [{"units": [{"unit": "peasants", "wounds": 3}]}]},
     "players[0].units[0].wounds: 3 is out of range (0 .. 2)"),
    ({"format": 1, "players": [{"units": [{"ready": True}]}]}, "players[0].units[0]: a unit needs 'unit'"),
    ({"format": 1, "players": [{"units": [{"unit": "peasants"}, {"unit": "peasants", "slot": 0}]}]},
     "players[0].units[1].slot: slot 0 holds another unit already"),
    ({"format": 1, "players": [{"position": 999}]}, "players[0].position: no hex 999 on this map"),
    ({"format": 1, "players": [{"position": [50, 50]}]}, "players[0].position: no hex at (q, r) = (50, 50)"),
    ({"format": 1, "players": [{}, {}]}, "players: 2 entries, at most 1 fit"),
    ({"format": 1, "players": [{"skills": ["flying"]}]}, "players[0].skills[0]: unknown skill 'flying'"),
    ({"format": 1, "players": [{"tactic": "early_worm"}]}, "players[0].tactic: unknown tactic 'early_worm'"),
    ({"format": 1, "scenario": "solo-conquest"}, "scenario: the fixture is for 'solo-conquest'"),
    ({"format": 1, "hero": "tovak"}, "hero: the fixture is for 'tovak'"),
    ({"format": 1, "lost_legion": True}, "lost_legion: the fixture says True"),
    ({"format": 1, "seed": -1}, "seed: -1 is out of range"),
    ({"format": 1, "phase": "lunch"}, "phase: unknown phase 'lunch'"),
    ({"format": 1, "time": "dusk"}, "time: unknown time 'dusk'"),
    ({"format": 1, "n_players": 2}, "n_players: only solo games"),
    ({"format": 1, "turn": {"move_points": "4"}}, "turn.move_points: expected a whole number, got '4'"),
    ({"format": 1, "turn": {"overload_bonus": 300}}, "turn.overload_bonus: 300 is out of range (-128 .. 127)"),
    ({"format": 1, "turn": {"hvars": [0] * 9}}, "turn.hvars: 9 entries, at most 8 fit"),
    ({"format": 1, "turn": {"mana_tokens": {"gold": -1}}}, "turn.mana_tokens.gold: -1 is out of range"),
    ({"format": 1, "turn": {"terrain_delta": {"tundra": 1}}}, "turn.terrain_delta.tundra: unknown terrain 'tundra'"),
    ({"format": 1, "turn": {"nonsense": 1}}, "turn.nonsense: unknown key"),
    ({"format": 1, "combat": {"enemies": [{"enemy": "prowler"}]}}, "combat.enemies[0].enemy: unknown enemy 'prowler'"),
    ({"format": 1, "combat": {"enemies": [{"enemy": "prowlers"}] * 3}},
     "combat.enemies[2]: no 'prowlers' token is left in the green pile"),
    ({"format": 1, "combat": {"attack": [[0, 0], [0], "x"]}}, "combat.attack[2]: expected a list"),
    ({"format": 1, "rng": [{"s0": 1 << 64}]}, "rng[0].s0: 18446744073709551616 is out of range"),
    ({"format": 1, "map": {"tiles": [{"tile": "countryside_99", "position": [0, 0]}]}},
     "map.tiles[0].tile: unknown tile 'countryside_99'"),
    ({"format": 1, "map": {"tiles": [{"tile": "starting_a"}]}}, "map.tiles[0]: a tile needs 'tile'"),
    ({"format": 1, "map": {"shape": "round"}}, "map.shape: the scenario's map shape is"),
    ({"format": 1, "map": {"hexes": {"x": {}}}}, "map.hexes.x: a hex is named by its index"),
    ({"format": 1, "map": {"hexes": {"0": {"site": "castle"}}}}, "map.hexes.0.site: unknown site 'castle'"),
    ({"format": 1, "map": {"hexes": {"0": {"q": 5}}}}, "map.hexes.0.q: is 0 on this map"),
    ({"format": 1, "map": {"hexes": {"0": {"flags": ["shiny"]}}}}, "map.hexes.0.flags[0]: unknown hex flag 'shiny'"),
    ({"format": 1, "map": {"hexes": {"0": {"tokens_face_up": True}}}}, "map.hexes.0.tokens_face_up: is False here"),
    ({"format": 1, "source": {"dice": ["gold", "silver"]}}, "source.dice[1]: unknown colour 'silver'"),
    ({"format": 1, "unit_offer": [{"units": "peasants"}]}, "unit_offer[0]: expected a unit id"),
    ({"format": 1, "enemy_piles": {"green": ["prowlers"]}}, "enemy_piles.green[0]: a token in a pile needs"),
    ({"format": 1, "enemy_piles": {"green": [{"token": 0, "enemy": "diggers"}]}},
     "enemy_piles.green[0]: token 0 is 'prowlers', not 'diggers'"),
    ({"format": 1, "enemy_piles": {"blue": []}}, "enemy_piles.blue: unknown pile colour 'blue'"),
    ({"format": 1, "n_tiles": 3}, "n_tiles: unknown key"),
    ({"format": 1, "dummy": {"crystals": {"red": -1}}}, "dummy.crystals.red: -1 is out of range"),
]


@pytest.mark.parametrize("fx,message", BAD, ids=[m.split(":")[0] + f"-{i}" for i, (_f, m) in enumerate(BAD)])
def test_bad_fixture_raises_one_error_naming_the_key_path(fr, fx, message):
    with pytest.raises(FixtureError) as err:
        fr.state_from_dict(fx)
    assert str(err.value).startswith(message), str(err.value)
    assert isinstance(err.value, ValueError)


def test_fixture_file_needs_scenario_and_hero():
    with pytest.raises(FixtureError, match="^scenario: missing"):
        F.fixture_game_args({"format": 1, "hero": "arythea"})
    with pytest.raises(FixtureError, match="^hero: expected an id"):
        F.fixture_game_args({"format": 1, "scenario": "first-reconnaissance", "hero": 3})
    with pytest.raises(FixtureError, match="^lost_legion: expected true or false"):
        F.fixture_game_args({"format": 1, "scenario": "x", "hero": "y", "lost_legion": "yes"})


# ---------------------------------------------------------------------------------------
# mksim play --fixture
# ---------------------------------------------------------------------------------------

cli = CliRunner()


def test_cli_plays_on_from_a_fixture(tmp_path, fr):
    state = fr.new_state(6)
    random_walk(state, random.Random(6), 60)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(state.to_dict()))
    r = cli.invoke(app, ["play", "--fixture", str(path), "--policy", "random", "--log"])
    assert r.exit_code in (0, EXIT_STOPPED), r.output
    assert "Traceback" not in r.output
    lines = r.output.strip().splitlines()
    assert lines[0].startswith("# First Reconnaissance") and "Arythea" in lines[0] and "pos.json" in lines[0]
    assert lines[-1].startswith(("game over:", "game stopped:"))


@pytest.mark.parametrize("text,message", [
    ('{"format": 1, "scenario": "first-reconnaissance", "hero": "arythea", '
     '"players": [{"hand": ["marhc"]}]}', "players[0].hand[0]: unknown card 'marhc'"),
    ('{"format": 1, "scenario": "first-reconnaissance"', "not valid JSON"),
    ('{"format": 1, "scenario": "nowhere", "hero": "arythea"}', "scenario: unknown scenario 'nowhere'"),
    ('{"format": 1, "scenario": "first-reconnaissance", "hero": "merlin"}', "hero: unknown hero 'merlin'"),
    ('{"scenario": "first-reconnaissance", "hero": "arythea"}', "format: missing"),
])
def test_cli_bad_fixture_is_one_error_line(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    r = cli.invoke(app, ["play", "--fixture", str(path)])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    out = r.output.strip().splitlines()
    assert len(out) == 1 and out[0].startswith(f"error: {path}: {message}"), r.output


def test_cli_fixture_refuses_options_it_replaces(tmp_path):
    path = tmp_path / "f.json"
    path.write_text('{"format": 1, "scenario": "first-reconnaissance", "hero": "arythea"}')
    r = cli.invoke(app, ["play", "--fixture", str(path), "--hero", "tovak", "--seed", "3"])
    assert r.exit_code == 2 and r.output.strip() == ("error: --fixture FILE sets the scenario, hero, Lost "
                                                     "Legion flag, seed and game index; leave out --hero, --seed")


def test_cli_missing_fixture_file(tmp_path):
    path = tmp_path / "nope.json"
    r = cli.invoke(app, ["play", "--fixture", str(path)])
    assert r.exit_code == 2 and r.output.startswith(f"error: {path}: cannot read the file")


def test_core_load_dict_changes_only_the_keys_given(fr):
    """GameCore.load_dict writes a fixture over a game in progress; a bad fixture leaves
    the state exactly as it was."""
    state = fr.new_state(9)
    random_walk(state, random.Random(9), 35)
    before = state.to_dict()
    state.core.load_dict({"format": 1, "players": [{"fame": 7, "crystals": {"white": 2}}]})
    after = state.to_dict()
    assert after["players"][0]["fame"] == 7 and after["players"][0]["crystals"]["white"] == 2
    after["players"][0]["fame"], after["players"][0]["crystals"] = (before["players"][0]["fame"],
                                                                    before["players"][0]["crystals"])
    assert after == before
    raw = state.core.state_bytes()
    with pytest.raises(FixtureError, match=r"^players\[0\]\.hand\[1\]: unknown card 'x'"):
        state.core.load_dict({"format": 1, "round": 2, "map": {"tiles": [{"tile": before["map"]["tiles"][0]["tile"],
                                                                          "position": [0, 0]}]},
                              "players": [{"fame": 9, "hand": ["march", "x"]}]})
    assert state.core.state_bytes() == raw
