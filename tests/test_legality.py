"""The engine's contract (issue 7): legal means accepted.

``State.apply`` accepts exactly the actions ``legal_actions()`` lists and refuses every other
action id with a ValueError naming the action and the phase, leaving the GameState unchanged
byte for byte (the step counter and ``turn.heat_window`` included).  Action ids outside the
encoding and anything that is not an integer are ValueErrors too (never OverflowError, never
truncated), and seeds and game indices outside 0 .. 2**64 - 1 are refused.

The property test samples mid-game states of both solo scenarios, with and without The
Lost Legion, reached by random and by eager play.  Its seed is printed; set
MKSIM_LEGALITY_SEED to replay or to explore other states.
"""
from __future__ import annotations

import os
import re
from collections import Counter

import numpy as np
import pytest

from mksim._engine import KIND_NAMES, describe, encode
from mksim._rng import RandomStream
from mksim._state import PHASE_NAMES
from mksim.game import ACTION_SHIFT, ARG_MASK, Game
from mksim.policies import get_policy

SEED = int(os.environ.get("MKSIM_LEGALITY_SEED", "20260701"))
SCENARIOS = ("first-reconnaissance", "solo-conquest")
HEROES = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")
STATES_PER_SETTING = 256            # 2 scenarios x Lost Legion off/on x random/eager: 2,048 states
SAMPLES_PER_GAME = 12               # mid-game states taken from one game
KINDS = sorted(KIND_NAMES)
UNKNOWN_KINDS = sorted(set(range(0, max(KINDS) + 2)) - set(KINDS))
MAX_ID = (1 << 31) - 1


def outside_encoding():
    """Ids just outside the encoding: negative, >= 2**31, kinds that do not exist."""
    ids = [-1, -(1 << 31), -(1 << 31) - 1, 1 << 31, (1 << 31) + 5, 1 << 32, 1 << 63, (1 << 64) - 1, 1 << 64,
           1 << 70, MAX_ID]
    ids += [(k << ACTION_SHIFT) | a for k in UNKNOWN_KINDS[:6] + UNKNOWN_KINDS[-4:] for a in (0, 1)]
    ids += [((max(KINDS) + 1) << ACTION_SHIFT), (2047 << ACTION_SHIFT) | ARG_MASK]
    return ids


def candidate_codes(rng: np.random.Generator, legal: list[int]) -> set[int]:
    """Codes of every kind: arguments 0..15 exhaustively, larger ones sampled (uniform in the
    20 argument bits and in the low 14, where the hand / payment / slot fields lie), and
    one-bit changes of the listed actions (a payment, a slot, a target that is not offered)."""
    codes = set()
    for k in KINDS:
        base = k << ACTION_SHIFT
        codes.update(base | a for a in range(16))
        codes.update(base | int(a) for a in rng.integers(16, ARG_MASK + 1, 2))
        codes.update(base | int(a) for a in rng.integers(16, 1 << 14, 3))
    for a in legal:
        for bit in rng.integers(0, ACTION_SHIFT, 3):
            codes.add(a ^ (1 << int(bit)))
        codes.update((a + 1, a - 1))
    return {c for c in codes if 0 <= c <= MAX_ID} - set(legal)


def mid_game_states(content, scenario: str, lost_legion: bool, policy_name: str, n: int, seed: int):
    """Yield ``n`` states (not over, not stopped) of seeded games played by the policy, each
    advanced by a random number of decisions (1..60) from the one before."""
    rng = RandomStream(seed, 0, "rewards")
    policy = get_policy(policy_name)
    games = {h: Game(scenario, h, content=content, lost_legion=lost_legion) for h in HEROES}
    found, g = 0, 0
    while found < n:
        game = games[HEROES[g % len(HEROES)]]
        state = game.new_state(seed, g)
        policy.reset(seed, g)
        g += 1
        for _ in range(SAMPLES_PER_GAME):
            try:
                policy.play_engine(state.engine, 1 + rng.below(60))
            except NotImplementedError:
                break
            if state.is_terminal():
                break
            yield state
            found += 1
            if found == n:
                return


def settings():
    return [(s, ll, p) for s in SCENARIOS for ll in (False, True) for p in ("random", "eager")]


@pytest.fixture(scope="module")
def recon(content):
    return Game("first-reconnaissance", "arythea", content=content)


def test_apply_accepts_exactly_the_listed_actions(content):
    """Every listed action is accepted (on a clone: its step count moves by one); every other
    code of the action space is refused with a ValueError naming it and the phase, and the
    refused state is byte-for-byte what it was (``to_dict()`` compared on every 8th state)."""
    print(f"legality property test seed {SEED} (MKSIM_LEGALITY_SEED)")
    rng = np.random.default_rng(SEED)
    outside = outside_encoding()
    n_states = n_accepted = n_refused = 0
    stopped = Counter()
    phases = Counter()
    for i, (scenario, ll, pol) in enumerate(settings()):
        for state in mid_game_states(content, scenario, ll, pol, STATES_PER_SETTING, SEED + i):
            where = f"{scenario} lost_legion={ll} {pol} {state!r}"
            core = state.core
            before = core.state_bytes()
            legal = [int(a) for a in state.legal_actions()]
            assert core.state_bytes() == before, f"{where}: legal_actions() changed the state"
            assert legal, f"{where}: no legal action in a state that is not over"
            assert len(set(legal)) == len(legal), f"{where}: an action listed twice"
            steps = state.info()["steps"]
            phase = PHASE_NAMES[state.info()["phase"]]
            phases[phase] += 1
            for a in legal:
                c = state.clone()
                try:
                    c.apply(a)
                except NotImplementedError as err:       # a rule the engine names as missing
                    assert "ERR_INTERNAL" not in str(err), f"{where}: listed action {describe(a)}: {err}"
                    stopped[str(err)[:60]] += 1
                except ValueError as err:
                    pytest.fail(f"{where}: listed action {describe(a)} refused: {err}")
                assert c.info()["steps"] == steps + 1, f"{where}: {describe(a)} was not applied"
                n_accepted += 1
            assert core.state_bytes() == before, f"{where}: applying to a clone changed the original"
            d_before = state.to_dict() if n_states % 8 == 0 else None
            for k, a in enumerate(sorted(candidate_codes(rng, legal)) + outside):
                try:
                    state.apply(a)
                except ValueError as exc:
                    if k % 8 == 0 and 0 <= a <= MAX_ID and (a >> ACTION_SHIFT) in KIND_NAMES:
                        msg = str(exc)
                        assert describe(a) in msg and f"phase {phase}" in msg, msg
                else:
                    pytest.fail(f"{where}: {a} ({describe(a)}) accepted but not listed")
                assert core.state_bytes() == before, f"{where}: refusing {a} changed the state"
                n_refused += 1
            if d_before is not None:
                assert state.to_dict() == d_before, f"{where}: refusals changed to_dict()"
            assert state.info()["steps"] == steps
            n_states += 1
    print(f"{n_states} states, {n_accepted} listed actions accepted, {n_refused} codes refused, "
          f"{sum(stopped.values())} stops at missing rules; phases {dict(phases)}")
    assert n_states >= 2000
    assert len(phases) >= 6, phases                  # tactics, turns, moves, combat phases ...


def _find_state(content, scenario: str, pred, policy="eager", seed=SEED, games=60):
    """The first state of seeded eager games (step by step) for which ``pred(state)`` holds."""
    pol = get_policy(policy)
    game = Game(scenario, "arythea", content=content)
    for g in range(games):
        state = game.new_state(seed, g)
        pol.reset(seed, g)
        while not state.is_terminal():
            if pred(state):
                return state
            try:
                pol.play_engine(state.engine, 1)
            except NotImplementedError:
                break
    pytest.fail("no such state in the seeded games")


def test_a_failing_block_is_refused_and_keeps_the_block_pool(content):
    """11.6.7: a block that does not succeed has no effect, so it is not listed; the old
    engine took ``block(0)`` anyway and emptied the Block pool.  Now it is refused and the
    state keeps every byte (the pool included)."""
    block0 = encode("block", 0)

    def pred(s):
        return s.phase == "combat_block" and block0 not in set(s.legal_actions().tolist())

    state = _find_state(content, "solo-conquest", pred)
    before, raw = state.core.state_bytes(), state.core.raw_dict()
    with pytest.raises(ValueError, match=r"illegal action block\(0\) in phase combat_block"):
        state.apply(block0)
    assert state.core.state_bytes() == before
    assert state.core.raw_dict()["combat"]["block"] == raw["combat"]["block"]


def test_a_refusal_at_the_start_of_a_combat_keeps_heat_window_and_steps(content):
    """The old engine counted a refused action as the first action of a combat (Into the
    Heat's window closed) and as a step.  Now neither moves."""
    state = _find_state(content, "solo-conquest", lambda s: s.core.raw_dict()["turn"]["heat_window"] == 1)
    raw = state.core.raw_dict()
    unlisted = next(encode("draw", a) for a in range(64) if encode("draw", a) not in state.legal_actions())
    with pytest.raises(ValueError, match="illegal action draw"):
        state.apply(unlisted)
    after = state.core.raw_dict()
    assert after["turn"]["heat_window"] == 1 and after["steps"] == raw["steps"]
    state.apply(int(state.legal_actions()[0]))
    assert state.core.raw_dict()["steps"] == raw["steps"] + 1


def test_a_state_changed_from_outside_is_judged_on_its_new_legal_actions(recon):
    """The legal list the engine keeps for apply is renewed when the state changes from
    outside (here a fixture write of the phase): an action legal before is refused after."""
    game = recon
    state = game.new_state(SEED, 0)
    tactic = int(state.legal_actions()[0])               # tactics phase: choose a tactic (3.1)
    assert describe(tactic).startswith("tactic(")
    clone = state.clone()
    clone.core.set_raw({"phase": PHASE_NAMES.index("turn_start")})
    with pytest.raises(ValueError, match="in phase turn_start"):
        clone.apply(tactic)
    state.apply(tactic)                                   # the original still takes it
    assert state.info()["steps"] == 1


def test_a_stopped_or_finished_game_refuses_every_action(recon):
    """Nothing is listed at the end (14.2), so nothing is accepted."""
    game = recon
    state = game.new_state(SEED, 1)
    pol = get_policy("random")
    pol.reset(SEED, 1)
    try:
        pol.play_engine(state.engine, 100000)
    except NotImplementedError:
        pass
    assert len(state.legal_actions()) == 0
    before = state.core.state_bytes()
    for a in (encode("end_turn"), encode("tactic", 0), encode("regular_turn")):
        with pytest.raises(ValueError, match="illegal action"):
            state.engine.apply(a)
    assert state.core.state_bytes() == before


# Actions that apply_action and its helpers used to refuse with their own re-derived checks
# (issue 12: legality in one place, the legal list): each is now refused by Engine.c_apply's
# membership check alone, before anything is applied.
_CODE = {name: code for code, name in KIND_NAMES.items()}
PAY_NONE = 31


def _unlisted_cases(state) -> dict[str, list[int]]:
    """Codes of each formerly in-path-checked kind that the state does not list: a tactic not
    offered, a card index past the hand (play / sideways / discard / rest discard / heal /
    Crystal Joy return), a choice option not asked, a direction or slot that is not there,
    and the turn-flow kinds of other phases."""
    legal = set(int(a) for a in state.legal_actions())
    raw = state.core.raw_dict()
    n_hand = raw["players"][raw["current"]]["n_hand"]

    def code(kind, arg=0):
        return (_CODE[kind] << ACTION_SHIFT) | arg

    cases = {
        "tactic not offered": [code("tactic", t) for t in range(12)],
        "card past the hand": [code("play", n_hand | (PAY_NONE << 8) | (PAY_NONE << 13)),
                               code("play", n_hand | (1 << 7) | (PAY_NONE << 8) | (PAY_NONE << 13)),
                               code("sideways", n_hand), code("sideways", n_hand | (2 << 7)),
                               code("discard", n_hand), code("rest_discard", n_hand),
                               code("heal_wound", n_hand), code("return_card", n_hand)],
        "choice not asked": [code("choose", k) for k in range(64)],
        "slot or direction not there": [code("move", 6), code("move", 7), code("block", 31),
                                        code("damage_unit", 7), code("activate_unit", 7),
                                        code("heal_unit", 7), code("pick_aa", 3), code("recruit", 15),
                                        code("buy_spell", 3), code("use_skill", 15),
                                        code("skill_crystal", 15), code("banner_return", 6),
                                        code("upkeep", 7), code("pay_unit", 7), code("wings_target", 40),
                                        code("cumbersome", 31), code("bow_change", 3)],
        "kind of another phase": [code(k) for k in ("end_turn", "draw", "forfeit", "announce_end",
                                                    "regular_turn", "rest", "plunder", "next_phase",
                                                    "damage_hero", "end_interact", "buy_healing",
                                                    "steady_tempo", "circlet_skill", "possess_attack",
                                                    "enter_site", "burn", "interact", "reward",
                                                    "glade_wound", "pick_skill", "tactic_ability",
                                                    "influence_block", "learning", "peaceful")],
    }
    return {why: [a for a in codes if a not in legal] for why, codes in cases.items()}


def test_formerly_rechecked_actions_are_refused_by_the_legal_list_alone(content):
    """In the tactics phase, at a turn's start, while moving, in a Block phase, while
    assigning damage, at the end of a turn and at an open choice, every unlisted action of
    the kinds whose apply paths once re-checked legality is a ValueError naming it, and the
    state keeps every byte (the cases above, not a sample)."""
    phases = ("tactics", "turn_start", "move", "combat_block", "combat_damage", "end_turn")
    states = [_find_state(content, "solo-conquest", lambda s, ph=ph: s.phase == ph) for ph in phases]

    def asks(s):
        legal = s.legal_actions()
        return len(legal) > 0 and all(KIND_NAMES[int(a) >> ACTION_SHIFT] == "choose" for a in legal)

    states.append(_find_state(content, "solo-conquest", asks, policy="random"))
    tried = Counter()
    for state in states:
        before, steps = state.core.state_bytes(), state.info()["steps"]
        for why, codes in _unlisted_cases(state).items():
            for a in codes:
                with pytest.raises(ValueError, match=rf"illegal action {re.escape(describe(a))} in phase "):
                    state.apply(a)
                assert state.core.state_bytes() == before, f"{why}: refusing {describe(a)} changed the state"
                tried[why] += 1
        assert state.info()["steps"] == steps
        assert state.legal_actions().size > 0                 # still playable: nothing was stopped
    assert tried["tactic not offered"] >= 6 * 12              # every phase but tactics refuses them all
    assert tried["choice not asked"] >= 6 * 64 + 1            # the open choice refuses what it did not ask
    assert tried["card past the hand"] == 7 * 8
    assert min(tried.values()) > 0, tried


# -- numbers (issue 7, deliverable 6) ---------------------------------------------------------



@pytest.mark.parametrize("bad", [3.7, 3.0, True, False, np.bool_(True), "5", None, [5], np.float64(2.0)])
def test_apply_takes_only_integers(recon, bad):
    state = recon.new_state(1, 0)
    before = state.core.state_bytes()
    with pytest.raises(ValueError, match="apply takes only integers"):
        state.apply(bad)
    with pytest.raises(ValueError, match="apply takes only integers"):
        state.engine.apply(bad)
    assert state.core.state_bytes() == before and state.history == []


def test_apply_takes_numpy_integers(recon):
    state = recon.new_state(1, 0)
    legal = state.legal_actions()
    state.apply(legal[0])                                  # numpy int32, as the list gives it
    state.apply(np.int64(state.legal_actions()[0]))
    assert state.info()["steps"] == 2 and all(type(a) is int for a in state.history)


@pytest.mark.parametrize("bad", [-1, -(1 << 31), 1 << 31, (1 << 31) + 5, 1 << 64, 1 << 70, np.int64(1 << 40),
                                 np.uint64((1 << 64) - 1), 127 << ACTION_SHIFT, 0, 19 << ACTION_SHIFT])
def test_ids_outside_the_encoding_are_value_errors(recon, bad):
    """Negative ids, ids >= 2**31 and unknown kinds: a ValueError, never OverflowError, and
    never wrapped round into some other action."""
    state = recon.new_state(1, 0)
    before = state.core.state_bytes()
    for apply in (state.apply, state.engine.apply):
        with pytest.raises(ValueError, match="action id") as exc:
            apply(bad)
        assert not isinstance(exc.value, OverflowError)
    with pytest.raises(ValueError, match="action id"):
        describe(bad)
    assert state.core.state_bytes() == before


def test_describe_reads_valid_ids_and_refuses_the_rest():
    assert describe(encode("end_turn")) == "end_turn(0)"
    assert describe(np.int32(encode("move", 3))) == "move(3)"
    for bad in (3.7, True, "x", -5, 1 << 31, 127 << ACTION_SHIFT):
        with pytest.raises(ValueError):
            describe(bad)


def test_encode_and_action_words_refuse_what_is_not_an_action(recon):
    assert encode("move", ARG_MASK) == (encode("move") | ARG_MASK)
    for bad in (-1, ARG_MASK + 1, 2.0, True):
        with pytest.raises(ValueError, match="argument"):
            encode("move", bad)
    state = recon.new_state(1, 0)
    assert state.action_to_string(state.legal_actions()[0]).startswith("take tactic ")
    for bad in (3.7, -1, 1 << 31, 127 << ACTION_SHIFT):
        with pytest.raises(ValueError):
            state.action_to_string(bad)


@pytest.mark.parametrize("seed, index", [(-1, 0), (1 << 64, 0), (0, -1), (0, 1 << 64), (0, 1 << 70),
                                         (2.5, 0), (0, 1.0), (True, 0), ("7", 0)])
def test_new_state_refuses_seeds_outside_64_bits(recon, seed, index):
    with pytest.raises(ValueError, match="seed|game_index"):
        recon.new_state(seed, index)


def test_new_state_takes_the_whole_64_bit_range(recon):
    """The largest seed and game index are games of their own (not seed 0's game)."""
    top = (1 << 64) - 1
    a = recon.new_state(top, top).to_dict()
    assert a["seed"] == top and a["game_index"] == top
    b = recon.new_state(0, 0).to_dict()
    assert a["rng"] != b["rng"]
    assert recon.new_state(np.uint64(top), 0).to_dict()["seed"] == top


def test_policies_and_streams_refuse_seeds_outside_64_bits():
    for seed, index in ((-1, 0), (1 << 64, 0), (0, 1 << 64), (2.5, 0)):
        for name in ("random", "eager", "first"):
            with pytest.raises(ValueError, match="seed|game_index"):
                get_policy(name).reset(seed, index)
        with pytest.raises(ValueError, match="seed|game_index"):
            RandomStream(seed, index, "rewards")


# -- listed means completable: the legal list sees what apply needs (issue 12) ------------------
# Apply trusts the list (Engine.c_apply checks membership); the few checks apply keeps are named
# ERR_INTERNAL stops ("could not complete ..., although it was legal").  Each test below is a state
# where the list once offered such an action.

def _ids_by_name(eng):
    return {describe(int(a)): int(a) for a in eng.legal_actions()}


def test_10_6_recruit_is_listed_on_the_price_floored_at_0_as_apply_charges_it(content, tables):
    """Reputation -3 (modifier -1, 10.3) leaves an Influence total of -1 at the village; a
    discount of 5 (more than Charm's 3, as a fixture may write it) on Herbalists (cost 3).  The
    price cannot go below 0 (reading of 9.6.2 for costs), and a negative total pays for
    nothing (10.2.6: "while you have Influence to pay"): not offered, as apply would stop
    (the list had compared 3 - 5 = -2 with -1).  With the total at 0 it is offered, and
    bought for nothing."""
    from mksim import fixtures
    from interaction_setup import Game
    kind = fixtures.MOD_KINDS.index("recruit_discount")
    g = Game(content, tables, site="village", reputation=-3)
    g.ut.set_unit_offer(["herbalists"])
    g.do("interact")
    assert g.turn["influence"] == -1
    mods = g.d["turn"]["mods"]
    mods[0] = dict(mods[0], kind=kind, scope=3, value=5, arg=0, source=-1, owner=0)   # scope: turn
    g.core.load_dict({"format": 2, "turn": {"mods": mods, "n_mods": 1}})
    assert g.actions() == ["end_interact(0)"]
    before = g.core.state_bytes()
    with pytest.raises(ValueError, match="illegal action"):
        g.recruit(0)
    assert g.core.state_bytes() == before
    g.ut.set_turn(influence=0)
    assert g.of_kind("recruit") == ["recruit(offer=0, disband=-1)"]
    g.recruit(0)
    assert g.ut.unit(0)["unit"] == "herbalists" and g.turn["influence"] == 0


def test_ll_5_1_banner_of_command_is_not_offered_to_a_unit_that_carries_it(content, tables):
    """A Unit recruited this turn that carries the Banner of Command gets no second one
    (LL-5.1: the Banner instead of the Unit's Command token; 7.5: one Banner a Unit).  There is
    one copy of the Banner, so only a format 1 fixture (no card checks) can write a Banner in the
    play area as well: the list must not offer what apply refuses either way."""
    from interaction_setup import Game
    g = Game(content, tables, site="village", hand=["banner_of_command", "march"])
    g.ut.set_unit_offer(["peasants", "peasants"])
    g.do("interact")
    g.play(0)
    ready = g.d["turn"]["command_card"]
    g.recruit(0)
    assert g.of_kind("banner_command") == ["banner_command(0)"]
    g.do("banner_command", 0)
    assert g.player["units"][0]["banner"] == "banner_of_command"
    g.core.load_dict({"format": 1, "turn": {"command_card": ready},
                      "players": [{"play_area": ["banner_of_command"]}]})
    assert g.player["play_area"] == ["banner_of_command"] and g.d["turn"]["command_card"] == ready
    assert g.of_kind("banner_command") == []
    with pytest.raises(ValueError, match="illegal action"):
        g.do("banner_command", 0)


def test_5_4_3_powered_spell_black_mana_is_listed_as_apply_pays_it_after_the_colour(content, tables):
    """Mana Pull's black die used as another colour at Night (black_any), a second black die for
    the Spell's black mana (5.4.3; two dice: Mana Pull's extra one, 5.5.6).  The list tries the
    black mana after the colour, as A_PLAY pays them: every powered play it lists is completed,
    and the four it lists are the rules' (blue die or either black die for blue, the other
    black die for black)."""
    from test_spells_artifacts import play_code, start
    core, eng, sc = start(content, tables, ["mist_form"], time="night", dice=["black", "black", "blue"])
    core.load_dict({"format": 2, "turn": {"black_any": 1, "extra_dice": 1}})
    die = 10                                             # PAY_DIE (ext/_engine.pxd): Source die 0
    listed = {(a >> 8 & 0x1F, a >> 13 & 0x1F) for a in (int(x) for x in eng.legal_actions())
              if describe(a).startswith("play(") and a >> 7 & 1}
    assert listed == {(die + 2, die), (die + 2, die + 1), (die, die + 1), (die + 1, die)}
    for pay, pay2 in sorted(listed):
        c2, e2, _ = start(content, tables, ["mist_form"], time="night", dice=["black", "black", "blue"])
        c2.load_dict({"format": 2, "turn": {"black_any": 1, "extra_dice": 1}})
        e2.apply(play_code(0, 1, pay=pay, pay2=pay2))
        d = c2.to_dict()
        assert d["source"]["taken"] == sorted({pay - die, pay2 - die}) and d["turn"]["dice_used"] == 2
        assert d["players"][0]["play_area"] == ["mist_form"]
        assert d["turn"]["black_any"] == (0 if pay < die + 2 else 1)   # used as blue: spent
