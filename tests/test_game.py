"""The OpenSpiel-style Python face (mksim/game.py): Game, State, Outcome."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from content_edit import pretend_engine_declares
from mksim.game import Game, Outcome, State, normalize_id
from mksim.policies import get_policy

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def game(content):
    return Game("first-reconnaissance", "arythea", content=content)


def playout(game, seed, game_index=0, policy="random", limit=5000):
    """(actions, words, state) of one game played by ``policy`` until it ends or stops."""
    pol = get_policy(policy)
    pol.reset(seed, game_index)
    state = game.new_state(seed, game_index)
    actions, words = [], []
    while not state.is_terminal() and len(actions) < limit:
        legal = state.legal_actions()
        if len(legal) == 0:
            break
        a = pol.choose(state, legal)
        words.append(state.action_to_string(a))
        actions.append(a)
        try:
            state.apply(a)
        except (NotImplementedError, ValueError):   # a rule not implemented / an engine gap
            break
    return actions, words, state


def test_ids_may_be_kebab_or_snake_case(content):
    a = Game("first-reconnaissance", "Arythea", content=content)
    b = Game("first_reconnaissance", "arythea", content=content)
    assert a.scenario_id == b.scenario_id == "first_reconnaissance"
    assert normalize_id("Solo-Conquest") == "solo_conquest"


@pytest.mark.parametrize("kwargs, listed", [
    ({"scenario": "full-conquest"}, "first-reconnaissance, solo-conquest"),
    ({"hero": "krang"}, "arythea, goldyx, norowas, tovak, wolfhawk"),
])
def test_unknown_names_raise_value_error_listing_the_known_ones(content, kwargs, listed):
    with pytest.raises(ValueError, match="known: " + re.escape(listed)):
        Game(content=content, **kwargs)


def test_content_may_be_a_path(tmp_path):
    override = tmp_path / "rage3.toml"
    override.write_text('[basic_actions.rage]\nbasic = "choice(attack(3), block(2))"\n')
    g = Game(content=str(override))
    assert g.content.get("basic_actions", "rage")["basic"].startswith("choice(attack(3)")


def test_3_1_a_new_state_waits_for_a_tactic(game):
    s = game.new_state(seed=7)
    legal = s.legal_actions()
    assert isinstance(legal, np.ndarray) and legal.dtype == np.int32 and len(legal) == 6
    assert all(s.action_to_string(a).startswith("take tactic ") for a in legal)
    assert "take tactic Early Bird" in [s.action_to_string(a) for a in legal]
    assert s.phase == "tactics" and not s.is_terminal() and not s.is_stopped()


def test_a_fresh_state_has_an_unfinished_outcome(game):
    out = game.new_state(1).result()
    assert isinstance(out, Outcome)
    assert (out.termination, out.finished, out.score, out.stopped, out.steps) == ("none", False, None, None, 0)
    assert out.rounds == 1 and out.to_dict()["fame"] == 0


def test_illegal_action_raises_value_error(game):
    from mksim._engine import encode
    s = game.new_state(1)
    with pytest.raises(ValueError, match="illegal action"):
        s.apply(encode("end_turn"))
    assert s.history == []


def test_actions_are_told_in_mage_knight_words(game):
    """Across a few random games the log uses the words of the rulebook."""
    patterns = {
        "tactic": r"^take tactic [A-Z][a-z]+",
        "basic play": r"^play [A-Z][A-Za-z ]+ \(basic\)$",
        "sideways (6.1.7)": r"^play [A-Z][A-Za-z ]+ sideways as Move 1$",
        "move (9.3)": r"^move (north-east|east|south-east|south-west|west|north-west) to [a-z]+.* \(cost \d\)$",
        "end turn": r"^end turn$",
        "rest (4.5)": r"^rest: discard [A-Z][A-Za-z ]+$",
        "draw (13.7)": r"^draw cards up to the Hand limit$",
    }
    seen = set()
    for seed in range(40):
        _, words, _ = playout(game, seed)
        assert not any(re.search(r"\w+\(\d", w) for w in words if not w.startswith("choose")), words
        for name, pat in patterns.items():
            if any(re.match(pat, w) for w in words):
                seen.add(name)
        if len(seen) == len(patterns):
            break
    assert seen == set(patterns)


def test_9_8_exploration_is_told_as_a_tile_position(content, tables):
    from mksim._engine import encode
    g = Game(content=content)
    s = g.new_state(1)
    assert s.action_to_string(encode("explore", ((1 + 64) << 7) | (1 + 64))) == "explore tile position (1, 1)"


MISSING_HANDLER = '[basic_actions.march]\nbasic = "handler(mksim_test_missing_rule)"\n'


@pytest.fixture
def gap_game(tmp_path, monkeypatch):
    """A game whose March calls a handler no engine implements (a stand-in for any rule
    not implemented yet).  Content validation refuses handlers the engine does not
    declare, so the registry it reads pretends to declare this one."""
    pretend_engine_declares(monkeypatch, "mksim_test_missing_rule")
    override = tmp_path / "gap.toml"
    override.write_text(MISSING_HANDLER)
    return Game("first-reconnaissance", "arythea", content=override)


def play_march(state):
    """Take turns until March (basic) can be played, then play it."""
    pol = get_policy("first")
    while not state.is_terminal():
        legal = state.legal_actions()
        marches = [a for a in legal if state.action_to_string(a) == "play March (basic)"]
        state.apply(marches[0] if marches else pol.choose(state, legal))


def test_stopped_game_is_recorded_never_hidden(gap_game):
    for seed in range(20):
        s = gap_game.new_state(seed)
        with pytest.raises(NotImplementedError, match="mksim_test_missing_rule") as err:
            play_march(s)
        out = s.result()
        assert s.is_stopped() and out.stopped == str(err.value) and not out.finished
        assert "card 'march'" in out.stopped
        assert out.score is None and out.termination == "none" and not s.is_terminal()
        assert len(s.legal_actions()) == 0 and out.steps == len(s.history)
        with pytest.raises(NotImplementedError):
            s.apply(0)
        return


def test_finished_game_has_a_score(game):
    """17.3.1: First Reconnaissance ends after 4 rounds at the latest; score = Fame +
    achievements (20.5.1 without titles)."""
    for seed in range(200):
        _, _, s = playout(game, seed)
        if s.is_terminal():
            out = s.result()
            assert out.finished and out.termination in ("round_limit", "scenario_won")
            assert out.score is not None and out.rounds <= 4 and out.stopped is None
            assert out.steps == len(s.history)
            return
    pytest.fail("no random game of First Reconnaissance finished")


def test_to_dict_is_the_core_state(game):
    s = game.new_state(3)
    d = s.to_dict()
    assert d["seed"] == 3 and d["scenario"] == "first_reconnaissance"
    assert d["players"][0]["hero"] == "arythea"
    assert json.dumps(d)  # plain Python


def test_clone_is_independent(game):
    actions, _, _ = playout(game, 4, limit=25)
    s = game.new_state(4)
    for a in actions[:-5]:
        s.apply(a)
    before = s.to_dict()
    c = s.clone()
    assert isinstance(c, State) and c.to_dict() == before and c.history == s.history
    assert c.core is not s.core and c.engine is not s.engine
    for a in actions[-5:]:
        c.apply(a)
    assert s.to_dict() == before                 # the original did not move
    assert c.to_dict() != before and len(c.history) == len(s.history) + 5


def test_clone_continues_exactly_like_the_original(game):
    """A clone taken mid-game and the original, given the same decisions, stay identical
    to the end (the clone's engine did not re-run its round-1 setup on the copy)."""
    for seed in (2, 5, 8):
        actions, _, _ = playout(game, seed)
        s = game.new_state(seed)
        half = len(actions) // 2
        for a in actions[:half]:
            s.apply(a)
        c = s.clone()
        for a in actions[half:]:
            for st in (s, c):
                try:
                    st.apply(a)
                except (NotImplementedError, ValueError):
                    pass
            assert c.to_dict() == s.to_dict()
            assert list(c.legal_actions()) == list(s.legal_actions())
        assert c.result() == s.result()


def test_same_seed_same_game_in_another_process(game):
    """All chance comes from the engine's seeded streams and the policy's own stream."""
    script = (
        "import json, sys; sys.path.insert(0, %r)\n"
        "from test_game import playout\n"
        "from mksim.game import Game\n"
        "a, w, s = playout(Game('first-reconnaissance', 'arythea'), 11, 2)\n"
        "print(json.dumps([a, w, s.result().to_dict()]))\n" % str(ROOT / "tests")
    )
    logs = []
    for hashseed in ("1", "2"):
        env = {"PYTHONHASHSEED": hashseed, "PATH": "/usr/bin:/bin"}
        import os
        env = {**os.environ, **env}
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                             cwd=ROOT, check=True)
        logs.append(json.loads(out.stdout))
    a, w, s = playout(game, 11, 2)
    here = [a, w, s.result().to_dict()]
    assert logs[0] == logs[1] == json.loads(json.dumps(here))
    assert len(a) > 0


def test_11_3_the_log_names_the_combat_phase_that_ends(content):
    """The readable log says which combat phase (11.3) a player ends, in the rulebook's words."""
    from mksim.policies import get_policy
    from mksim.runner import play_logged
    lines = []
    play_logged(Game("first-reconnaissance", "tovak", content=content), 3, 0, get_policy("eager"),
                echo=lines.append)
    ended = {line.split(". ", 1)[1] for line in lines if ". end the " in line}
    assert {"end the Ranged and Siege Attack phase", "end the Block phase",
            "end the Attack phase"} <= ended


def test_11_the_log_shows_combats_with_numbers(content):
    """A combat in the log: the enemy with its printed Armor and Attack when the combat
    starts, and the Wounds the hero takes (11.7.7: Attack 3 on Tovak's Armor 2 -> 2)."""
    from mksim.runner import play_logged
    lines = []
    play_logged(Game("first-reconnaissance", "tovak", content=content), 3, 0, get_policy("eager"),
                echo=lines.append)
    wolf = content.get("enemies", "wolf_riders")
    hero_armor = content.entries["levels"][0]["armor"]                    # level 1 (13.6)
    assert f"  -- combat: Wolf Riders (Armor {wolf['armor']}, Attack {wolf['attacks'][0]['value']}, swift)" in lines
    wounds = -(-wolf["attacks"][0]["value"] // hero_armor)                 # rounded up (11.7.7)
    assert any(line.endswith(f"assign the damage to the hero  [{wounds} Wounds]") for line in lines)
    assert any(line.endswith(". take the damage of Wolf Riders' Attack 3") for line in lines)


def test_5_4_the_log_words_a_mana_payment(content):
    """Crystallize (basic) asks which mana pays for the crystal (5.4): the log names the
    mana, e.g. "pay with a white token", not an option number."""
    from mksim.runner import play_logged
    lines = []
    play_logged(Game("solo-conquest", "goldyx", content=content), 11, 0, get_policy("eager"),
                echo=lines.append)
    i = next(k for k, line in enumerate(lines) if line.endswith("play Crystallize (basic)"))
    assert lines[i + 1].endswith("choose white")
    assert re.search(r"\d+\. pay with (a|the) white ", lines[i + 2])
    assert not any(re.search(r"\d+\. choose option \d+$", line) for line in lines)


def test_10_6_the_log_words_recruiting_disbanding_and_units(content):
    """Interaction and Units in words (10.5, 10.6, 7.2.4, 7.3): the units are named, never
    shown as raw argument lists such as 'recruit(offer=1, disband=0)'."""
    from mksim.runner import play_logged
    lines = []
    game = Game("first-reconnaissance", "norowas", content=content)
    for game_index in (7, 10, 12, 20):   # eager games of seed 1 with a recruit that disbands
        lines.clear()
        play_logged(game, 1, game_index, get_policy("eager"), echo=lines.append)
        if any(re.search(r"\d+\. recruit .*, disbanding ", line) for line in lines):
            break
    units = {u["name"] for u in content.entries["units"]}
    recruits = [line.split(". ", 1)[1] for line in lines if re.search(r"\d+\. recruit ", line)]
    assert recruits and all(r.split("recruit ", 1)[1].split(",")[0] in units for r in recruits)
    assert any(", disbanding " in r for r in recruits)                      # 7.2.4
    assert any(re.search(r"\d+\. activate [A-Z][\w ]+ \(ability \d\)", line) for line in lines)
    assert any(line.endswith(". end the interaction") for line in lines)
    assert not any(re.search(r"\d+\. [a-z_ ]+\(\w+=", line) for line in lines)
