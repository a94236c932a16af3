"""The decision loop (ext/_engine.pyx): phases, turns, card play, movement, rest, end of
turn, the dummy and round flow.  Rule numbers in the test names."""
import numpy as np
import pytest

from mksim import effects as fx
from mksim._engine import OP_ORDER, Engine, describe, encode
from mksim._rng import RandomStream
from mksim._state import GameCore


def new_engine(content, tables, scenario="first_reconnaissance", hero="arythea", seed=1):
    core = GameCore.new(tables, content, scenario, hero, seed)
    return core, Engine(core, tables, content, scenario)


def hex_of(d, index):
    for tile in d["map"]["tiles"]:
        for h in tile["hexes"]:
            if h["index"] == index:
                return h
    raise KeyError(index)


def kinds(engine):
    return sorted({describe(int(a)).split("(")[0] for a in engine.legal_actions()})


def test_op_codes_mirror_the_effect_vocabulary():
    assert list(OP_ORDER) == [op.name for op in fx.OPS]


def test_3_1_a_game_starts_with_the_six_day_tactics(content, tables):
    core, eng = new_engine(content, tables)
    acts = eng.legal_actions()
    assert kinds(eng) == ["tactic"]
    day = [i for i, t in enumerate(content["tactics"]) if t["time"] == "day"]
    assert sorted(int(a) & 0xFFFFF for a in acts) == day


def take(eng, content, tactic_id):
    t = content.ids("tactics").index(tactic_id)
    eng.apply(encode("tactic", t))


def test_17_3_4_the_dummy_takes_one_remaining_tactic_and_both_leave_the_game(content, tables):
    core, eng = new_engine(content, tables)
    take(eng, content, "early_bird")
    d = core.to_dict()
    assert d["dummy"]["tactic"] not in (None, "early_bird")
    removed = [x for x in d["tactics_removed"] if x is not None]
    assert "early_bird" in removed and d["dummy"]["tactic"] in removed


def start_turn(content, tables, seed=1, scenario="first_reconnaissance"):
    core, eng = new_engine(content, tables, scenario=scenario, seed=seed)
    take(eng, content, "early_bird")  # tactic 1: the player goes first (3.1.4)
    return core, eng


def test_1_3_7_the_hero_enters_on_the_portal_and_may_move_or_rest(content, tables):
    core, eng = start_turn(content, tables)
    d = core.to_dict()
    pos = d["players"][0]["position"]
    assert pos is not None and hex_of(d, pos)["site"] == "portal"
    assert kinds(eng) == ["regular_turn", "rest"]   # 4.3.1


def test_6_1_7_sideways_move_and_9_2_terrain_cost(content, tables):
    core, eng = start_turn(content, tables)
    eng.apply(encode("regular_turn"))
    hand_before = len(core.to_dict()["players"][0]["hand"])
    for _ in range(2):
        eng.apply(encode("sideways", 0))             # Move 1 each (6.1.7)
    d = core.to_dict()
    assert len(d["players"][0]["hand"]) == hand_before - 2
    assert len(d["players"][0]["play_area"]) == 2
    assert d["turn"]["move_points"] == 2
    # start tile A (DIG layout): NE forest, E plains.  Plains cost 2 by Day (9.2).
    moves = [describe(int(a)) for a in eng.legal_actions() if describe(int(a)).startswith("move")]
    assert "move(1)" in moves          # E: plains, 2
    assert "move(0)" not in moves      # NE: forest, 3 by Day
    eng.apply(encode("move", 1))
    assert core.to_dict()["turn"]["move_points"] == 0


def test_4_5_2_standard_rest_discards_exactly_one_non_wound(content, tables):
    core, eng = start_turn(content, tables)
    eng.apply(encode("rest"))
    assert "end_turn" not in kinds(eng)              # must discard first
    eng.apply(encode("rest_discard", 0))
    d = core.to_dict()["players"][0]
    assert len(d["hand"]) == 4 and len(d["discard"]) == 1
    assert "end_turn" in kinds(eng)


def test_13_7_end_of_turn_draws_back_up_to_the_hand_limit(content, tables):
    core, eng = start_turn(content, tables)
    eng.apply(encode("regular_turn"))
    eng.apply(encode("sideways", 0))
    eng.apply(encode("sideways", 0))
    eng.apply(encode("end_turn"))
    assert "draw" in kinds(eng)                       # 13.7.1: optional discards, then draw
    eng.apply(encode("draw"))
    d = core.to_dict()
    p = d["players"][0]
    assert len(p["hand"]) == 5 and len(p["deck"]) == 11 - 2 and len(p["discard"]) == 2
    # the dummy played its turn in between (18.4.2: at least 3 cards flipped)
    assert len(d["dummy"]["discard"]) >= 3


def test_21_2_a21_a_turn_without_a_played_card_must_discard(content, tables):
    core, eng = start_turn(content, tables)
    eng.apply(encode("regular_turn"))
    eng.apply(encode("end_turn"))
    assert "draw" not in kinds(eng) and "discard" in kinds(eng)


def test_9_8_exploring_costs_two_move_and_adds_seven_hexes(content, tables):
    """Walk until an exploration is legal, then explore.  (Reaching the edge of the map
    takes more than one hand of Move: the test grants 12 Move points with the Rules test
    setter.)"""
    from mksim._rules import Rules
    for seed in range(100):
        core, eng = start_turn(content, tables, seed=seed)
        eng.apply(encode("regular_turn"))
        Rules(core).set_move_points(12)
        rng = RandomStream(seed, 1, "rewards")
        for _ in range(30):
            acts = [int(a) for a in eng.legal_actions()]
            ex = [a for a in acts if describe(a).startswith("explore")]
            if ex:
                before = core.to_dict()
                eng.apply(ex[0])
                after = core.to_dict()
                assert after["map"]["n_hexes"] == before["map"]["n_hexes"] + 7
                assert after["turn"]["move_points"] == before["turn"]["move_points"] - 2   # 9.8.3
                assert after["players"][0]["fame"] == before["players"][0]["fame"] + 1   # 17.3.1
                assert len(after["tile_stack"]) == len(before["tile_stack"]) - 1
                return
            walk = [a for a in acts if describe(a).split("(")[0] in ("sideways", "move")]
            if not walk:
                break
            try:
                eng.apply(walk[rng.below(len(walk))])
            except NotImplementedError:   # walked into combat (not implemented yet): next seed
                break
    pytest.fail("no random walk reached an exploration")


def test_unimplemented_handlers_raise_an_error_naming_the_card(tmp_path, monkeypatch):
    """Never a silent no-op: a card whose handler the engine lacks stops the game with an
    error naming the card and the handler (brief: faithful rules).  Content validation
    refuses a handler the engine does not declare, so it is told the engine declares it."""
    from content_edit import pretend_engine_declares
    from mksim import load_content
    pretend_engine_declares(monkeypatch, "no_such_rule", ("n",))
    over = tmp_path / "march.toml"
    over.write_text('[basic_actions.march]\nbasic = "handler(no_such_rule, n=1)"\n')
    content = load_content(over)
    tables = content.compile()
    for seed in range(200):
        core, eng = new_engine(content, tables, seed=seed)
        rng = RandomStream(seed, 0, "rewards")
        try:
            while not eng.is_terminal():
                acts = eng.legal_actions()
                eng.apply(int(acts[rng.below(len(acts))]))
        except NotImplementedError as err:
            if "no_such_rule" in str(err):
                assert str(err) == "card 'march': effect handler 'no_such_rule' is not implemented yet"
                return
    pytest.fail("no random game played the March basic effect")


def playout(content, tables, seed):
    core, eng = new_engine(content, tables, seed=seed)
    rng = RandomStream(seed, 0, "rewards")
    log = []
    try:
        while not eng.is_terminal():
            acts = eng.legal_actions()
            a = int(acts[rng.below(len(acts))])
            log.append(a)
            eng.apply(a)
    except NotImplementedError as err:
        log.append(str(err))
    return log, core.to_dict()


def test_same_seed_same_game_even_with_global_rngs_disturbed(content, tables):
    import random
    a = playout(content, tables, 5)
    random.seed(1)
    np.random.seed(2)
    np.random.rand(5)
    b = playout(content, tables, 5)
    assert a == b


def test_illegal_action_is_refused(content, tables):
    core, eng = new_engine(content, tables)
    with pytest.raises(ValueError, match="illegal action"):
        eng.apply(encode("end_turn"))


def test_an_engine_sharing_a_template_plays_the_same_game(content, tables):
    """Engines built from a template share its bound tables (speed); the game must be the
    same move for move as with a freshly bound engine."""
    def run(template):
        core = GameCore.new(tables, content, "solo_conquest", "tovak", 5, 3)
        eng = Engine(core, tables, content, "solo_conquest", template)
        rng = RandomStream(5, 3, "rewards")
        log = []
        while not eng.is_terminal() and len(log) < 400:
            acts = eng.legal_actions()
            a = int(acts[rng.below(len(acts))])
            log.append(a)
            eng.apply(a)
        return log, core.to_dict()
    other = Engine(GameCore.new(tables, content, "solo_conquest", "tovak", 1, 1), tables, content,
                   "solo_conquest")
    fresh, shared = run(None), run(other)
    assert len(fresh[0]) > 50
    assert fresh == shared


def test_1_2_4_wounds_have_no_limit_a_hand_of_70_wounds_keeps_its_cards_playable(content, tables):
    """1.2.4 sets no limit on Wounds: a hero who keeps fighting can hold more than the 63
    hand indices the action encoding reaches.  The hand is then reordered with its Wounds
    last, so the other cards (and one Wound) stay reachable, and the game goes on."""
    from mksim._scoring import ScoringTester
    core, eng = start_turn(content, tables)
    ScoringTester(core).set_cards(0, hand=["wound"] * 70 + ["march", "rage"])
    eng.apply(encode("regular_turn"))
    hand = core.to_dict()["players"][0]["hand"]
    assert hand[:2] == ["march", "rage"] and hand[2:] == ["wound"] * 70
    acts = [describe(int(a)) for a in eng.legal_actions()]
    assert "sideways(0)" in acts and "sideways(1)" in acts     # March, Rage: Move 1 (6.1.7)
    eng.apply(encode("sideways", 0))
    assert core.to_dict()["turn"]["move_points"] == 1
    assert len(core.to_dict()["players"][0]["hand"]) == 71


def test_a_hand_with_63_cards_other_than_wounds_is_a_named_capacity_stop(content, tables):
    from mksim._scoring import ScoringTester
    core, eng = start_turn(content, tables)
    ScoringTester(core).set_cards(0, hand=["march"] * 64)
    with pytest.raises(NotImplementedError, match="more than 62 cards other than Wounds"):
        eng.apply(encode("regular_turn"))


# -- the handler registry: what content validation reads (mksim/content.py) ----------------------

def test_handler_registry_is_read_only_and_is_what_the_groups_declare():
    from mksim import _engine
    reg = _engine.handler_registry()
    with pytest.raises(TypeError):
        reg["new_rule"] = ("basic", ())                      # a mappingproxy
    declared = [(name, tuple(params)) for table in _engine.HANDLER_TABLES.values() for name, params in table]
    assert sorted(declared) == sorted((name, params) for name, (_group, params) in reg.items())
    assert reg["ice_shield_block"] == ("advanced", ("block", "armor"))   # ext/_fx_advanced.pyx
    assert reg["concentration"][0] == "basic" and reg["taunt"][0] == "skills"


def test_the_basic_group_is_a_module_of_its_own_declaring_what_the_basic_cards_use(content):
    """ext/_fx_basic.pyx is compiled apart from the engine (issue 12) and its registry entries
    are the group's whole declaration: exactly the handlers the Basic Action cards name
    (hero cards and Lost Legion printings included), each with the arguments the data gives."""
    from mksim import _engine, _fx_basic
    from mksim import effects as fx
    assert _fx_basic.__file__ != _engine.__file__ and not hasattr(_engine, "BASIC_HANDLERS")
    reg = _engine.handler_registry()
    used = {}
    for (kind, _key, _path), node in content.parsed.items():
        stack = [node] if kind == "basic_actions" else []
        while stack:
            n = stack.pop()
            stack.extend(n.children)
            stack.extend(v for v in n.args.values() if isinstance(v, fx.Node))
            if n.op == "handler":
                used.setdefault(n.args["name"], set()).add(tuple(sorted(k for k in n.args if k != "name")))
    assert {n for n, (g, _p) in reg.items() if g == "basic"} == set(used)
    for name, arg_sets in used.items():
        assert arg_sets == {tuple(sorted(reg[name][1]))}, name   # the data gives every declared argument
    assert reg["cold_toughness_block"] == ("basic", ("block", "per_icon", "arcane_bonus"))


@pytest.mark.parametrize("group, module, tuple_name", [("artifacts", "_fx_artifacts", "ARTIFACTS_HANDLERS"),
                                                      ("spells", "_fx_spells", "SPELLS_HANDLERS")])
def test_the_artifact_and_spell_groups_are_modules_declaring_what_their_cards_use(content, group, module, tuple_name):
    """ext/_fx_artifacts.pyx and ext/_fx_spells.pyx are compiled apart from the engine (issue
    12; no name tuple left in it): each handler their registry entries declare is named by the
    shipped Artifact or Spell cards (Banner of Fear's skip_block_and_damage is the base Wings
    of Night's too, Banner of Command recruits like Call to Glory), with exactly the arguments
    the data gives."""
    import importlib
    from mksim import _engine
    from mksim import effects as fx
    mod = importlib.import_module(f"mksim.{module}")
    assert mod.__file__ != _engine.__file__ and not hasattr(_engine, tuple_name)
    reg = _engine.handler_registry()
    used = {}
    for (kind, _key, _path), node in content.parsed.items():
        stack = [node] if kind in ("artifacts", "spells") else []
        while stack:
            n = stack.pop()
            stack.extend(n.children)
            stack.extend(v for v in n.args.values() if isinstance(v, fx.Node))
            if n.op == "handler":
                used.setdefault(n.args["name"], set()).add(tuple(sorted(k for k in n.args if k != "name")))
    declared = {n for n, (g, _p) in reg.items() if g == group}
    assert len(declared) == {"artifacts": 32, "spells": 30}[group] and declared <= set(used)
    for name in declared:
        assert used[name] == {tuple(sorted(reg[name][1]))}, name
    assert reg["banner_of_glory_attached"] == ("artifacts", ("armor", "bonus", "fame"))
    assert reg["wings_of_night"] == ("spells", ("first_extra_cost", "step"))


def test_the_engine_binds_every_shipped_handler_the_registry_declares(content, tables):
    """Validation and binding read one source: the shipped handlers the registry declares are
    exactly those the engine binds, cooperative skills (LL-7) included."""
    from mksim import _engine
    reg = _engine.handler_registry()
    _core, eng = new_engine(content, tables)
    bound = set(eng.implemented_handlers())
    assert bound == {n for n in tables.handlers if n in reg}
    assert set(tables.handlers) == bound
