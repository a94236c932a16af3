"""Fixtures with a handler's question pending (issue 7): the scratch values a handler keeps
between its question and the answer (``turn.hvars``, ``turn.handler_stage``) and the
answer itself (an option of ``turn.ask_options``) are used as indices - an offer slot, a
colour, a Source die, a hand index, an enemy slot, a direction.  A fixture with one out of
range is refused with one message naming the field and the range (Engine.pending_problem,
the ``<group>_pending`` bounds next to each handler group in ext/_fx_*.pxi); with the value
in range the position plays on.

Every position here is real: either a seeded game stopped at the question, or a real
position given the card / skill and then played by the engine up to the question
(tests/pending_positions.py), so the stored values are the engine's own.
"""
from __future__ import annotations

import json
from functools import lru_cache

import pytest

from fixture_mutations import judge
from mksim.fixtures import FixtureError
from mksim.policies import get_policy
from pending_positions import action_kind, base_position, drive, game, pending_name, stage_of

A_USE_SKILL = 70
SKILL = {"first": lambda a: action_kind(a) == A_USE_SKILL}

# (id, handler, stage, combat phase or None, game keywords, drive keywords,
#  [(field, bad value (or f(d)), message start)], [(field, good value (or f(d)))])
# field: "hvars[i]", "ask_options" or "handler_stage"; a bad ask_options value is added to the
# options the engine offered (one option more).
CASES = [
    ("pure_magic_colour", "pay_mana_by_colour", 1, None, {}, dict(hand=("pure_magic",)),
     [("hvars[0]", 4, "turn.hvars[0]: 4 is out of range (0 .. 3)"),       # a[colour]: 4 colour arguments
      ("hvars[0]", -1, "turn.hvars[0]: -1 is out of range (0 .. 3)"),
      ("hvars[0]", 1, "turn.ask_options: option")],     # blue, but the payments offered are green's
     []),
    ("blood_gain_colour", "blood_of_ancients_gain_aa", 1, None, {}, dict(hand=("blood_of_ancients",)),
     [("hvars[0]", 6, "turn.hvars[0]: 6 is out of range (0 .. 3)")], []),
    ("blood_gain_slot", "blood_of_ancients_gain_aa", 2, None, {}, dict(hand=("blood_of_ancients",)),
     [("ask_options", 1 << 3, "turn.ask_options: option 3 is out of range (0 .. 2)")], []),   # aa_offer[3]
    ("blood_use_slot", "blood_of_ancients_use_aa", 1, None, {}, dict(hand=("blood_of_ancients",)),
     [("hvars[0]", 3, "turn.hvars[0]: 3 is out of range (0 .. 2)"),        # aa_offer[hvars[0]]
      ("hvars[0]", -100, "turn.hvars[0]: -100 is out of range (0 .. 2)")],
     [("hvars[0]", 0), ("hvars[0]", 2)]),
    ("talent_colour", "magic_talent_gain_spell", 1, None, {}, dict(hand=("magic_talent",)),
     [("hvars[0]", 4, "turn.hvars[0]: 4 is out of range (0 .. 3)")], []),
    ("training_slot", "training_gain_aa", 1, None, {}, dict(hand=("training", "march", "rage")),
     [("ask_options", 1 << 5, "turn.ask_options: option 5 is out of range (0 .. 2)")], []),
    ("spell_forge_slot", "spell_forge", 0, None, {}, dict(hand=("spell_forge",)),
     [("ask_options", 1 << 40, "turn.ask_options: option 40 is out of range (0 .. 2)")], []),
    ("stout_kind", "stout_resolve", 1, None, {}, dict(hand=("stout_resolve",)),
     [("hvars[0]", 4, "turn.hvars[0]: 4 is out of range (0 .. 3)")], [("hvars[0]", 3)]),
    ("portal_direction", "temporal_portal", 0, None, {}, dict(hand=("temporal_portal",)),
     [("ask_options", 1 << 6, "turn.ask_options: option 6 is out of range (0 .. 5)")], []),  # neighbour[6]
    ("decompose_hand", "throw_away_action_by_colour", 0, None, {}, dict(hand=("decompose",)),
     [("ask_options", lambda d: 1 << len(d["players"][0]["hand"]),
       "turn.ask_options: option")], []),                                   # hand[n_hand]
    ("mana_claim_colour", "mana_claim", 1, None, {}, dict(hand=("mana_claim",)),
     [("hvars[0]", 6, "turn.hvars[0]: 6 is out of range (0 .. 3)")],       # mana_tokens[6]
     [("hvars[0]", 2)]),
    ("underground_travel", "underground_travel", 0, None, {}, dict(hand=("underground_travel",)),
     [("hvars[2]", -5, "turn.hvars[2]: -5 is out of range (0 .. 127)"),
      ("hvars[0]", 40, "turn.hvars[0]: 40 is out of range"),
      ("ask_options", 1 << 9, "turn.ask_options: option 9 is out of range (0 .. 5)")], []),
    ("book_spell_colour", "book_of_wisdom_gain_spell", 1, None, {}, dict(hand=("book_of_wisdom",)),
     [("hvars[0]", 5, "turn.hvars[0]: 5 is out of range (0 .. 3)")], []),   # crystals[colour]
    ("druidic_staff", "druidic_staff_move", 0, None, {}, dict(hand=("druidic_staff",)),
     [("ask_options", 1 << 9, "turn.ask_options: option 9 is out of range (0 .. 5)")], []),
    ("crystallize_colour", "mana_to_crystal", 1, None, {}, dict(hand=("crystallize",)),
     [("hvars[1]", 4, "turn.hvars[1]: 4 is out of range (0 .. 3)")],       # crystals[colour]
     [("hvars[1]", 0)]),
    ("mana_draw_die", "mana_draw_powered", 1, None, {}, dict(hand=("mana_draw",)),
     [("hvars[1]", 8, "turn.hvars[1]: 8 is out of range (0 .. ")], []),    # dice[die]
    ("horn_number", "horn_of_wrath", 0, "combat_ranged", {}, dict(hand=("horn_of_wrath",)),
     [("ask_options", 1 << 50, "turn.ask_options: option 50 is out of range")], []),
    ("sword_hand", "sword_of_justice_discard", 0, "combat_attack", {}, dict(hand=("sword_of_justice",)),
     [("ask_options", 1 << 40, "turn.ask_options: option 40 is out of range")], []),
    ("chill_enemy", "chill", 0, "combat_block", {}, dict(hand=("chill",)),
     [("ask_options", 1 << 5, "turn.ask_options: option 5 is out of range (0 .. 1)")], []),  # enemies[5]
    ("meditation_cards", "meditation", 0, None, {},
     dict(hand=("meditation",), patch={"players": [{"discard": ["march", "rage", "swiftness"]}]}),
     [("hvars[0]", 7, "turn.hvars[0]: 7 is out of range (1 .. "),          # discard[n_discard - hvars[0]]
      ("hvars[0]", 0, "turn.hvars[0]: 0 is out of range (1 .. ")], []),
    ("invocation_card", "invocation", 1, None, {},
     dict(hand=("wound", "march"), patch={"players": [{"skills": ["arythea_invocation"]}]}, **SKILL),
     [("hvars[0]", 60, "turn.hvars[0]: 60 is out of range (0 .. ")], []),  # hand[hvars[0]]
    ("polarization_colour", "polarization", 1, None, {},
     dict(hand=("march",), patch={"players": [{"skills": ["arythea_polarization"]}]}, **SKILL),
     [("ask_options", 1 << 6, "turn.ask_options: option 6 is out of range (0 .. 5)")], []),  # mana_tokens[6]
    ("who_needs_magic_card", "who_needs_magic", 1, None, dict(hero="tovak"),
     dict(hand=("march",), patch={"players": [{"skills": ["tovak_who_needs_magic"]}]}, **SKILL),
     [("hvars[0]", -1, "turn.hvars[0]: -1 is out of range (0 .. ")], []),
    ("universal_power_card", "universal_power", 1, None, dict(hero="goldyx"),
     dict(hand=("march",), patch={"players": [{"skills": ["goldyx_universal_power"]}]}, **SKILL),
     [("hvars[0]", 63, "turn.hvars[0]: 63 is out of range (0 .. ")], []),
    ("taunt_attack", "taunt", 1, "combat_block", dict(hero="wolfhawk"),
     dict(hand=("march",), patch={"players": [{"skills": ["wolfhawk_taunt"]}]}, **SKILL),
     [("hvars[0]", 6, "turn.hvars[0]: 6 is out of range (0 .. 5)")],       # enemies[hvars[0] // 3]
     [("hvars[0]", 3)]),
    ("healing_ritual_number", "healing_ritual", 0, None, dict(lost_legion=False),
     dict(hand=("wound", "wound", "march"), patch={"players": [{"skills": ["arythea_healing_ritual"]}]}, **SKILL),
     [("ask_options", 1 << 30, "turn.ask_options: option 30 is out of range")], []),
    ("regeneration_unit", "ready_unit", 0, None, {},                       # an op row waits too
     dict(hand=("regeneration",), patch={"players": [{"units": [{"unit": "peasants", "ready": False},
                                                                {"unit": "peasants", "ready": False}],
                                                      "command_tokens": 2}]}),
     [("ask_options", 1 << 2, "turn.ask_options: option 2 names nothing that is there now"),  # units[2]
      ("ask_options", 1 << 6, "turn.ask_options: option 6 is out of range (0 .. 5)")], []),
    ("dueling_enemy", "dueling", 0, "combat_block", dict(hero="wolfhawk"),
     dict(hand=("march",), patch={"players": [{"skills": ["wolfhawk_dueling"]}]}, **SKILL),
     [("ask_options", 1 << 2, "turn.ask_options: option 2 is out of range (0 .. 1)")], []),
]

# questions met in seeded games: (id, (scenario, hero, Lost Legion), policy, seed, game, decisions,
#  handler, bad, good) as above
GAME_CASES = [
    ("mana_search_die", ("solo-conquest", "goldyx", False), "random", 5, 1, 133, "mana_search",
     [({"hvars[0]": 1, "hvars[1]": 8}, "turn.hvars[1]: 8 is out of range (0 .. "),   # dice[hvars[1 + i]]
      ({"hvars[0]": 2}, "turn.hvars[0]: 2 is out of range (0 .. 1)")],               # hvars[1 + hvars[0]]
     [{"hvars[0]": 1, "hvars[1]": 2, "ask_options!": 0b011 | 1 << 63}]),   # die 2 chosen, 0 / 1 left
    ("preparation_deck", ("solo-conquest", "wolfhawk", False), "eager", 5, 5, 52, "preparation",
     [({"ask_options": 1 << 60}, "turn.ask_options: option 60 is out of range")], []),   # deck[choice]
    ("rethink_hand", ("solo-conquest", "norowas", True), "eager", 5, 7, 201, "rethink",
     [({"ask_options": 1 << 30}, "turn.ask_options: option 30 is out of range"),
      ({"hvars[0]": 7}, "turn.hvars[0]: 7 is out of range (0 .. 6)")], [{"hvars[0]": 2}]),
    ("mana_steal_die", ("first-reconnaissance", "tovak", False), "random", 5, 0, 53, "mana_steal",
     [({"ask_options": 1 << 7}, "turn.ask_options: option 7 "),
      ({"ask_options!": 1 << 1}, "turn.ask_options: option 1 names nothing")], []),   # die 1 shows no basic colour
    ("reduce_attack", ("solo-conquest", "wolfhawk", False), "eager", 5, 29, 86, "reduce_enemy_attack",
     [({"ask_options": 1 << 40}, "turn.ask_options: option 40 names nothing that is there now"),     # enemies[choice // 3]
      ({"handler_stage": 0}, "turn.handler_stage: 0 is out of range (1 .. 1)")], []),
    ("midnight_meditation", ("solo-conquest", "goldyx", True), "random", 5, 3, 73, "midnight_meditation",
     [({"ask_options": 1 << 40}, "turn.ask_options: option 40 is out of range")], []),
]


def _set(d: dict, field: str, value) -> dict:
    d = json.loads(json.dumps(d))
    t = d["turn"]
    if callable(value):
        value = value(d)
    if field.startswith("hvars["):
        t["hvars"][int(field[6:-1])] = value
    elif field == "ask_options" and isinstance(t["ask_options"], list):    # format 2: indices
        t["ask_options"] = sorted(set(t["ask_options"]) | {i for i in range(64) if value >> i & 1})
    elif field == "ask_options":
        t["ask_options"] = t["ask_options"] | value
    elif field == "ask_options!" and isinstance(t["ask_options"], list):
        t["ask_options"] = [i for i in range(64) if value >> i & 1]
    elif field == "ask_options!":                     # exactly these options
        t["ask_options"] = value
    else:
        t[field] = value
    return d


@lru_cache(maxsize=None)
def _driven(case_id: str):
    case = next(c for c in CASES if c[0] == case_id)
    _id, handler, stage, combat, game_kw, drive_kw = case[:6]
    state = drive(base_position(combat, **game_kw), handler, stage, game_kw=game_kw, **drive_kw)
    assert state is not None, f"no line of play reaches {handler} at stage {stage}"
    return game(**game_kw), json.dumps(state.to_dict(format=1))   # format 1: see base_position


def _refused(g, d) -> str:
    with pytest.raises(FixtureError) as err:
        g.state_from_dict(d)
    return str(err.value)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_scratch_value_out_of_range_is_refused_and_one_in_range_plays_on(case):
    case_id, handler, stage, _combat, _gk, _dk, bad, good = case
    g, text = _driven(case_id)
    d = json.loads(text)
    assert d["turn"]["handler_stage"] == stage
    # the real position loads as it is, and plays on to its end
    assert judge(g, d) in ("ended", "stopped")
    for field, value, message in bad:
        msg = _refused(g, _set(d, field, value))
        assert msg.startswith(message), (field, msg)
        assert "\n" not in msg
    for field, value in good:
        assert judge(g, _set(d, field, value)) in ("ended", "stopped"), (field, value)
    # a stage the handler does not have, and a question it does not ask
    msg = _refused(g, _set(d, "handler_stage", 9))
    assert msg.startswith("turn.handler_stage: 9 is out of range (") and handler in msg, msg
    other = 1 if d["turn"]["ask"] != 1 else 2
    msg = _refused(g, _set(d, "ask", other))
    assert msg.startswith(f"turn.ask: {other} (") and handler in msg, msg


@lru_cache(maxsize=None)
def _played(key, policy, seed, index, steps, handler=None):
    """The position after ``steps`` decisions of game ``index``; with ``handler``, the first
    position at or after it (this game, then the next ones) where that handler is asking.
    The search keeps the cases valid when a card fix changes a seeded game's course; the
    recorded (index, steps) is where the question was when the case was written."""
    g = game(*key)
    pol = get_policy(policy)
    for k in range(index, index + 60):
        s = g.new_state(seed, k)
        pol.reset(seed, k)
        pol.play_engine(s.engine, steps if k == index else 0)
        while handler is not None and pending_name(s) != handler and not s.is_terminal():
            pol.play_engine(s.engine, 1)
        if handler is None or pending_name(s) == handler:
            return g, s
    raise AssertionError(f"no {handler!r} question in games {index} .. {index + 59} of seed {seed}")


@pytest.mark.parametrize("case", GAME_CASES, ids=[c[0] for c in GAME_CASES])
def test_a_question_of_a_seeded_game_with_a_value_out_of_range_is_refused(case):
    case_id, key, policy, seed, index, steps, handler, bad, good = case
    g, s = _played(key, policy, seed, index, steps, handler)
    assert pending_name(s) == handler
    d = s.to_dict()
    assert judge(g, d) in ("ended", "stopped")
    for changes, message in bad:
        m = d
        for field, value in changes.items():
            m = _set(m, field, value)
        msg = _refused(g, m)
        assert msg.startswith(message), (changes, msg)
    for changes in good:
        m = d
        for field, value in changes.items():
            m = _set(m, field, value)
        assert judge(g, m) in ("ended", "stopped"), changes


def test_a_refused_pending_fixture_leaves_the_state_as_it_was():
    """GameCore.load_dict applies the same checks (the core's Engine) and restores the state."""
    g, s = _played(("solo-conquest", "goldyx", False), "random", 5, 1, 133, "mana_search")
    s = s.clone()
    before = s.core.state_bytes()
    with pytest.raises(FixtureError, match=r"^turn\.hvars\[1\]: 8 is out of range"):
        s.core.load_dict({"format": 1, "turn": {"hvars": [1, 8]}})
    assert s.core.state_bytes() == before


def test_core_load_dict_refuses_a_position_with_no_legal_action():
    """The legal-action check of Game.state_from_dict holds for GameCore.load_dict too."""
    s = game().new_state(4)
    before = s.core.state_bytes()
    with pytest.raises(FixtureError, match=r"^phase: the position offers no legal action"):
        s.core.load_dict({"format": 1, "phase": "tactics", "tactics_available": [None] * 6})
    assert s.core.state_bytes() == before


def test_a_bare_core_copy_cannot_load_a_fixture():
    """A GameCore no Engine runs (GameCore.copy) cannot apply the engine's checks: refused."""
    s = game().new_state(4)
    bare = s.core.copy()
    with pytest.raises(FixtureError, match="no Engine"):
        bare.load_dict({"format": 1, "players": [{"fame": 3}]})


def test_a_row_that_never_asks_is_refused():
    """handler_row naming a handler that never waits for a decision (Tirelessness)."""
    g, text = _driven("crystallize_colour")
    d = json.loads(text)
    t = g.tables
    hid = t.handlers.index("tirelessness_bonus")
    row = next(r for r in range(t.effects.shape[0]) if _is_handler(t, r) and t.effects[r, 1] == hid)
    msg = _refused(g, _set(d, "handler_row", row))
    assert msg == "turn.handler_row: handler 'tirelessness_bonus' never waits for a decision", msg


def _is_handler(t, r) -> bool:
    from mksim import effects as fx
    return fx.OPS[int(t.effects[r, 0])].name == "handler"
