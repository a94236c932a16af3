"""Fixtures are checked by meaning, not only by field size (issue 7, deliverable 4;
mksim/fixtures.py ``validate``, docs/fixtures.md "Checks by meaning").

Each case the issue reproduced (a segmentation fault, an IndexError, endless loops on
all-zero random streams, an action listed and then refused, positions without a legal
action, tracebacks on deep JSON and non-UTF-8 bytes) is now one FixtureError naming the
key path, an ``error: FILE: key: ...`` line with exit status 2 on the CLI, and the state
it was loaded over is unchanged.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from mksim.cli import app
from mksim.fixtures import FixtureError
from mksim.game import Game

HEAD = {"format": 1, "scenario": "first-reconnaissance", "hero": "arythea"}
cli = CliRunner()


@pytest.fixture(scope="module")
def fr():
    return Game("first-reconnaissance", "arythea")


def refused(game, d, path):
    """The message of the FixtureError for ``d``; it starts with ``path``."""
    with pytest.raises(FixtureError) as err:
        game.state_from_dict({"format": 1, **d})
    msg = str(err.value)
    assert msg.startswith(f"{path}: ") and "\n" not in msg and len(msg) < 300, msg
    return msg


# -- the acting player -------------------------------------------------------------------

@pytest.mark.parametrize("current", [4, 63, 1, -1])
def test_current_must_be_a_player_of_the_game(fr, current):
    """4 was a segmentation fault (the dummy's index read as a player), 63 an IndexError;
    the dummy never decides and a solo game has player 0 only."""
    msg = refused(fr, {"current": current, "phase": "move"}, "current")
    assert "not a player of this game (0 .. 0" in msg


def test_turn_player_is_the_dummy_only_between_rounds(fr):
    """The dummy (turn_player 4) takes its turns inside the engine's step: at a decision
    point it can only be its turn in the tactics phase (or at the game's end)."""
    refused(fr, {"turn_player": 4, "phase": "move"}, "turn_player")
    s = fr.state_from_dict({"format": 1, "turn_player": 4, "phase": "tactics"})
    assert s.to_dict()["turn_player"] == 4


# -- random streams ------------------------------------------------------------------------

@pytest.mark.parametrize("stream", [2, 3, 4])      # deeds, Source, dummy (ext/_rng.pxd)
def test_an_all_zero_random_stream_is_refused(fr, stream):
    """xoshiro256** from an all-zero state draws only zeros: shuffles and rerolls "until"
    looped for ever (and ignored Ctrl-C)."""
    rng = fr.new_state(0).to_dict()["rng"]
    rng[stream] = {"s0": 0, "s1": 0, "s2": 0, "s3": 0}
    msg = refused(fr, {"rng": rng}, f"rng[{stream}]")
    assert "all four words are 0" in msg
    rng[stream]["s2"] = 1                            # one bit is enough
    fr.state_from_dict({"format": 1, "rng": rng})


# -- choices and pending questions ---------------------------------------------------------

@pytest.mark.parametrize("value", [3, 255])
def test_reward_choice_out_of_range(fr, value):
    """reward_choice >= 3 made the engine refuse an action it listed: 0 none, 1 the
    Artifact to put back, 2 a crystal colour (13.5)."""
    msg = refused(fr, {"turn": {"reward_choice": value}}, "turn.reward_choice")
    assert msg.endswith(f"{value} is out of range (0 .. 2)")


def test_handler_and_choice_rows_must_be_rows_of_their_kind(fr):
    t = fr.tables
    handler = next(i for i in range(t.effects.shape[0]) if t.effects[i, 0] == 21)
    other = next(i for i in range(t.effects.shape[0]) if t.effects[i, 0] not in (1, 21))
    msg = refused(fr, {"turn": {"handler_row": other, "ask": 1, "ask_options": 1}}, "turn.handler_row")
    assert "is not an effect handler" in msg
    refused(fr, {"turn": {"handler_row": handler}}, "turn.ask")             # asks nothing
    refused(fr, {"turn": {"ask": 3}}, "turn.ask")                           # nobody asks
    refused(fr, {"turn": {"pending_choice": other}}, "turn.pending_choice")
    refused(fr, {"turn": {"handler_row": t.effects.shape[0]}}, "turn.handler_row")


@pytest.mark.parametrize("field,value", [
    ("duel_slot", 1), ("possess_slot", 1), ("draw_fire_slot", 1),      # an enemy slot + 1, no combat
    ("fortitude_unit", 7), ("recon_token", 129), ("crystal_joy_card", 5000), ("end_stage", 7),
    ("n_eval", 33), ("n_rewards", 17), ("levels_pending", 10),
])
def test_turn_slots_and_counts_in_range_of_what_exists(fr, field, value):
    refused(fr, {"turn": {field: value}}, f"turn.{field}")


# -- phase and combat ----------------------------------------------------------------------

@pytest.mark.parametrize("phase", ["combat_ranged", "combat_block", "combat_damage", "combat_attack"])
def test_a_combat_phase_needs_a_combat_with_enemies(fr, phase):
    """A combat phase with no combat had no legal action."""
    refused(fr, {"phase": phase}, "combat.active")
    refused(fr, {"phase": phase, "combat": {"active": 1}}, "combat.enemies")
    s = fr.state_from_dict({"format": 1, "phase": phase, "players": [{"position": 0}],
                            "combat": {"active": 1, "enemies": [{"enemy": "prowlers"}]}})
    assert len(s.legal_actions()) > 0


def test_a_combat_outside_the_combat_phases_is_refused(fr):
    refused(fr, {"phase": "move", "combat": {"active": 1, "enemies": [{"enemy": "prowlers"}]}}, "combat.active")


def test_combat_slots_point_at_enemies_of_the_combat(fr):
    c = {"active": 1, "enemies": [{"enemy": "prowlers"}]}
    refused(fr, {"phase": "combat_block", "combat": {**c, "block_target": 1}}, "combat.block_target")
    refused(fr, {"phase": "combat_block", "combat": {**c, "n_enemies": 2}}, "combat.enemies[1]")
    refused(fr, {"phase": "combat_attack", "combat": {**c, "targets": 2}}, "combat.targets")


def test_the_action_phase_and_termination_agree_with_the_game(fr):
    refused(fr, {"phase": "game_over"}, "termination")
    refused(fr, {"termination": "round_limit", "phase": "move"}, "termination")
    s = fr.state_from_dict({"format": 1, "phase": "game_over", "termination": "round_limit"})
    assert s.is_terminal()


def test_an_engine_error_code_is_refused(fr):
    """A set error code left a position with no legal action (legal_actions returns none)."""
    msg = refused(fr, {"error": 4}, "error")
    assert "no engine error" in msg


def test_round_within_the_scenario(fr):
    """First Reconnaissance has 4 rounds (scenarios.toml; 14.2)."""
    assert fr.rounds == 4
    refused(fr, {"round": 5}, "round")
    refused(fr, {"round": 0}, "round")
    fr.state_from_dict({"format": 1, "round": 4})


def test_no_tactic_to_take_is_a_position_without_a_legal_action(fr):
    """Empty tactics in the tactics phase: nothing can be done; refused by the last check
    (a position that is not over must offer a legal action)."""
    msg = refused(fr, {"tactics_available": []}, "phase")
    assert "no legal action in phase 'tactics'" in msg


def test_a_second_tactic_in_one_round_is_refused(fr):
    """3.1: a tactic is taken once a round; holding one in the tactics phase (with no
    decision of its own pending) would take another."""
    refused(fr, {"phase": "tactics", "players": [{"tactic": "early_bird"}]}, "players[0].tactic")


# -- ids, tokens, zones --------------------------------------------------------------------

def test_tokens_lie_in_one_place(fr):
    d = fr.new_state(0).to_dict()
    tok = d["enemy_piles"]["green"][-1]
    h = d["map"]["tiles"][1]["hexes"][2]["index"]
    msg = refused(fr, {"map": {"hexes": {str(h): {"tokens": [tok]}}}}, f"map.hexes.{h}.tokens[0]")
    assert "lies in two places (also at enemy_piles.green[" in msg


def test_units_need_command_tokens_and_banners_are_banners(fr):
    refused(fr, {"players": [{"units": [{"unit": "peasants"}, {"unit": "foresters"}]}]}, "players[0].units")
    refused(fr, {"players": [{"units": [{"unit": "peasants", "banner": "march"}]}]}, "players[0].units[0].banner")


def test_hex_owner_is_a_player_of_the_game(fr):
    refused(fr, {"map": {"hexes": {"3": {"owner": 2}}}}, "map.hexes.3.owner")


# -- the refusal changes nothing; messages are short ---------------------------------------

def test_a_refused_fixture_leaves_the_state_as_it_was(fr):
    s = fr.new_state(3)
    before = s.core.state_bytes()
    with pytest.raises(FixtureError):
        s.core.load_dict({"format": 1, "map": {"tiles": [{"tile": "countryside_3", "position": [0, 0]}]},
                          "players": [{"hand": ["march"]}], "current": 4})
    assert s.core.state_bytes() == before


def test_messages_cut_long_values(fr):
    msg = refused(fr, {"players": [{"hand": "x" * 100_000}]}, "players[0].hand")
    assert len(msg) < 120
    msg = refused(fr, {"turn": {"move_points": [[[]] * 5000]}}, "turn.move_points")
    assert len(msg) < 120


def test_deeply_nested_values_are_refused_without_recursion(fr):
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(FixtureError) as err:
        fr.state_from_dict({"format": 1, "turn": {"hvars": deep}})
    assert str(err.value).startswith("turn.hvars[0][0]") and "nested more than 12 levels deep" in str(err.value)


# -- files and the CLI ---------------------------------------------------------------------

def cli_error(tmp_path, data: bytes, name="bad.json"):
    path = tmp_path / name
    path.write_bytes(data)
    r = cli.invoke(app, ["play", "--fixture", str(path)])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    out = r.output.strip().splitlines()
    assert len(out) == 1 and out[0].startswith(f"error: {path}: "), r.output
    return out[0][len(f"error: {path}: "):]


def test_cli_reproduced_cases_are_one_error_line(tmp_path):
    assert cli_error(tmp_path, json.dumps({**HEAD, "current": 63, "phase": "move"}).encode()).startswith("current: ")
    assert cli_error(tmp_path, json.dumps({**HEAD, "turn": {"reward_choice": 3}}).encode()).startswith(
        "turn.reward_choice: 3 is out of range")
    assert cli_error(tmp_path, json.dumps({**HEAD, "phase": "combat_block"}).encode()).startswith("combat.active: ")


def test_cli_deep_json_and_non_utf8_bytes(tmp_path):
    assert cli_error(tmp_path, b"[" * 100_000 + b"]" * 100_000).startswith("not a fixture: the JSON is nested")
    assert cli_error(tmp_path, b'{"format": 1, "hero": "\xff\xfe"}').startswith("not UTF-8 text (byte 0xff")
    assert cli_error(tmp_path, b"a = [" * 100_000, "bad.toml").startswith(("not a fixture", "not valid TOML"))
    assert cli_error(tmp_path, b'{"format": 1, "round": ' + b"9" * 5000 + b"}").startswith("not valid JSON")


def test_cli_current_4_is_refused_not_a_crash(tmp_path):
    """The reproduced segmentation fault (exit 139), run as its own process."""
    path = tmp_path / "dummy.json"
    path.write_text(json.dumps({**HEAD, "current": 4, "phase": "move"}))
    r = subprocess.run([sys.executable, "-m", "mksim", "play", "--fixture", str(path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.strip().startswith(f"error: {path}: current: 4 is not a player"), r.stderr
    assert "Traceback" not in r.stderr


def test_the_round_and_time_leave_tactics_for_the_rounds_to_come():
    """3.1, 17.3.4: solo tactics taken leave the game, each round of a time uses two (the
    player's and the dummy's) of its six.  After a Day round 1 (two Day tactics gone),
    round 2 by Day takes two more and leaves two for rounds 4 and 6 (Day), which need four:
    a later tactics phase with none to take (the fuzz benchmark found it).  Round 2 by
    Night fits."""
    sc = Game("solo-conquest", "arythea")
    msg = refused(sc, {"round": 2, "tactics_removed": ["early_bird", "rethink"]}, "round")
    assert "2 day round(s) are to come, but only 2 day tactic(s) are left" in msg
    night = [t for t in sc.tables.tactic_ids if t not in ("early_bird", "rethink", "mana_steal", "planning",
                                                              "great_start", "the_right_moment")][:2]
    s = sc.state_from_dict({"format": 1, "round": 2, "time": "night",
                            "tactics_removed": ["early_bird", "rethink"], "tactics_available": night})
    assert s.to_dict()["round"] == 2
