"""Events and modifiers (issue 12; docs/engine.md "Events and modifiers"): the modifier array
of TurnState (ext/_modifiers.pxd) expires each scope exactly at its lifecycle event, the
fixtures carry it, clone / determinize copy it; and the cards migrated to it keep their
printed effects: Demolish (11.10.1, "ignore site fortifications this turn"), Into the Heat
("+2 / +3 to Units' Attack and Block this combat"), Charm ("the next Unit you recruit this
turn costs 3 less", 10.6), Disease (LL-6.1.6, "Armor 1 for each enemy fully blocked this
combat"), Mountain Lore (13.7.2, "Hand limit + n if the turn ends in hills / mountains")."""
import pytest

from mksim import _engine, fixtures
from mksim._engine import encode, modifier_ops

from test_spells_artifacts import BLACK, GREEN, RED, play_code, start
from test_spells_handlers import fight, night_spell, tokens

EV = _engine.events()
NEXT_CARD, PHASE, COMBAT, TURN, ROUND = range(5)
KIND = {name: k for k, name in enumerate(fixtures.MOD_KINDS)}


def add(kind, scope, value=1, source=-1, owner=0, arg=0):
    return ("add", kind, scope, value, arg, source, owner)


def one_of_each_scope():
    """One modifier per scope, its value = its scope + 1 (to tell them apart)."""
    return [add(1, s, value=s + 1, source=10 + s) for s in range(5)]


def alive(mods):
    return sorted(m[1] for m in mods)


def test_c_constants_match_the_fixture_tables():
    c = _engine.modifier_constants()
    assert c["NUM_MOD_KINDS"] == len(fixtures.MOD_KINDS)
    assert c["NUM_MOD_SCOPES"] == len(fixtures.MOD_SCOPES) == 5
    assert c["MAX_MODS"] == fixtures.MAX_MODS
    assert c["NUM_EVENTS"] == len(EV) == 10


def test_add_appends_in_order_and_a_full_array_refuses():
    ops = [add(2, TURN, value=k) for k in range(fixtures.MAX_MODS + 1)]
    res, mods = modifier_ops(ops)
    assert res == list(range(fixtures.MAX_MODS)) + [-1]
    assert [m[2] for m in mods] == list(range(fixtures.MAX_MODS))


@pytest.mark.parametrize("event, left", [
    ("turn_start", [0, 1, 2, 3, 4]), ("phase_start", [0, 1, 2, 3, 4]),
    ("block_committed", [0, 1, 2, 3, 4]), ("attack_committed", [0, 1, 2, 3, 4]),
    ("damage_assigned", [0, 1, 2, 3, 4]),
    ("card_played", [1, 2, 3, 4]),          # the next card ends only next-card effects
    ("phase_end", [0, 2, 3, 4]),            # a phase ends only phase-long effects
    ("combat_end", [0, 3, 4]),              # the combat ends its phases' effects too
    ("round_end", [0, 1, 2, 3]),            # only round-long ones (the turn's end at reset_turn)
])
def test_each_scope_expires_exactly_at_its_event(event, left):
    res, mods = modifier_ops(one_of_each_scope() + [("event", EV[event], -1)])
    assert alive(mods) == left
    assert res[-1] == 5 - len(left)


def test_turn_end_keeps_only_round_long_modifiers():
    res, mods = modifier_ops(one_of_each_scope() + [("turn_end",)])
    assert res[-1] == 4
    assert mods == [(1, ROUND, 5, 0, 14, 0)]
    res, mods = modifier_ops(one_of_each_scope() + [("turn_end",), ("event", EV["round_end"], -1)])
    assert mods == []


def test_card_played_keeps_the_next_card_effect_of_the_card_that_made_it():
    res, mods = modifier_ops([add(1, NEXT_CARD, source=7), ("event", EV["card_played"], 7)])
    assert alive(mods) == [NEXT_CARD]
    res, mods = modifier_ops([add(1, NEXT_CARD, source=7), ("event", EV["card_played"], 8)])
    assert mods == []


def test_set_replaces_and_remove_kind_keeps_the_others_in_order():
    res, mods = modifier_ops([add(3, TURN, value=2), add(4, TURN, value=1), add(3, TURN, value=5),
                              ("set", 4, TURN, 9, -1, 0), ("remove", 3)])
    assert res[-2:] == [1, 2]                          # set: entry 1; remove: two entries
    assert mods == [(4, TURN, 9, 0, -1, 0)]


def test_unknown_event_is_refused():
    with pytest.raises(ValueError, match="event: 99"):
        modifier_ops([("event", 99, -1)])


# -- fixtures, clone, determinize ------------------------------------------------------------

def with_mod(kind="explore_discount"):
    from mksim.game import Game
    g = Game("first-reconnaissance", "wolfhawk")
    d = g.new_state(5, 0).to_dict()
    d["turn"]["mods"] = [{"kind": KIND[kind], "scope": TURN, "value": 1, "arg": 0, "source": -1, "owner": 0}]
    d["turn"]["n_mods"] = 1
    return g, d


def test_modifiers_round_trip_through_a_fixture():
    g, d = with_mod()
    t = g.state_from_dict(d).to_dict()["turn"]
    assert t["n_mods"] == 1 and t["mods"][0] == d["turn"]["mods"][0]


def test_a_fixture_modifier_of_no_kind_is_refused():
    g, d = with_mod()
    bad = len(fixtures.MOD_KINDS)                       # one past the last kind
    d["turn"]["mods"][0]["kind"] = bad
    with pytest.raises(fixtures.FixtureError, match=rf"turn\.mods\[0\]\.kind: {bad} is out of range"):
        g.state_from_dict(d)
    g, d = with_mod()
    d["turn"]["n_mods"] = 9
    with pytest.raises(fixtures.FixtureError, match=r"turn\.n_mods: 9 is out of range"):
        g.state_from_dict(d)


def test_clone_and_determinize_copy_the_modifiers():
    g, d = with_mod("ignore_site_fort")
    s = g.state_from_dict(d)
    for copy in (s.clone(), s.determinize(3)):
        t = copy.to_dict()["turn"]
        assert t["n_mods"] == 1 and t["mods"][0] == d["turn"]["mods"][0]


# -- the migrated cards ------------------------------------------------------------------------

@pytest.mark.covers("demolish", "basic")
def test_11_10_1_demolish_is_a_turn_long_ignore_site_fortification_modifier(content, tables):
    """Demolish: "Ignore site fortifications this turn" - one turn-scoped modifier, owned by
    the player; the keep's Prowlers lose their site fortification (1 -> 0)."""
    core, eng, sc = start(content, tables, ["demolish"], tokens=tokens(RED))
    T = fight(core, ["prowlers"], site_fortified=True)
    assert T.fortification_level(0) == 1
    eng.apply(play_code(0, 0, pay=RED))
    t = core.to_dict()["turn"]
    assert t["n_mods"] == 1
    m = t["mods"][0]
    assert (m["kind"], m["scope"], m["value"], m["owner"]) == (KIND["ignore_site_fort"], TURN, 1, 0)
    assert T.fortification_level(0) == 0


@pytest.mark.covers("cure", "powered")
def test_ll_6_1_6_disease_modifier_lasts_the_combat_only(content, tables):
    """Disease: "Armor of all enemies that are fully blocked becomes 1 this combat" - a
    combat-scoped modifier that is gone when the combat ends (11.12)."""
    core, eng, sc = night_spell(content, tables, ["cure"], GREEN)
    T = fight(core, ["prowlers", "swordsmen"], phase="block")
    T.set_block("physical", 4)
    eng.apply(encode("block", 0))
    eng.apply(play_code(0, 1, pay=GREEN, pay2=BLACK))
    t = core.to_dict()["turn"]
    assert [(m["kind"], m["scope"]) for m in t["mods"][:t["n_mods"]]] == [(KIND["blocked_armor_one"], COMBAT)]
    assert T.enemy_armor(0) == 1
    eng.apply(encode("next_phase"))                    # block -> damage
    for _ in range(2):                                 # the Swordsmen's damage to the hero
        acts = [_engine.describe(int(a)) for a in eng.legal_actions()]
        if "next_phase" in acts:
            break
        eng.apply(int(next(a for a in eng.legal_actions() if _engine.describe(int(a)).startswith(("damage_from", "damage_hero")))))
    eng.apply(encode("next_phase"))                    # damage -> attack
    assert core.to_dict()["turn"]["n_mods"] == 1
    eng.apply(encode("next_phase"))                    # the combat ends (11.12)
    assert core.to_dict()["turn"]["n_mods"] == 0


@pytest.mark.covers("charm", "basic")
def test_10_6_charm_discount_is_used_up_by_the_next_unit(content, tables):
    """Charm: the next Unit recruited this turn costs 3 less; after that Unit the modifier
    is gone (a second Unit costs its full price)."""
    from interaction_setup import Game, PAY_TOKEN
    g = Game(content, tables, site="village", hand=["charm"])
    g.ut.set_unit_offer(["peasants", "peasants"])
    g.ut.set_turn(mana={"white": 1})
    g.do("interact")
    g.play(0, pay=PAY_TOKEN["white"])
    g.do("choose", 4)                                  # the discount
    t = g.core.to_dict()["turn"]
    assert [(m["kind"], m["scope"], m["value"]) for m in t["mods"][:t["n_mods"]]] == \
        [(KIND["recruit_discount"], TURN, 3)]
    g.ut.set_turn(influence=1)
    g.recruit(0)
    assert g.core.to_dict()["turn"]["n_mods"] == 0 and g.turn["influence"] == 0


@pytest.mark.covers("mountain_lore", "powered")
def test_13_7_2_mountain_lore_is_one_hand_limit_modifier_per_terrain(content, tables):
    """Mountain Lore powered: "Hand limit +1 if the turn ends in hills, +2 in mountains" - two
    turn-long modifiers, one per terrain (arg = terrain + 1); ending in the mountain gives
    the +2 only (level 1 limit 5 -> 7, 13.7.2)."""
    from test_advanced_actions import HILLS as hills, MOUNTAIN as mountain, PAY_DIE, _G, day_turn, \
        east_hex, player
    G = day_turn(content, tables, _G)
    R, pos, mtn = east_hex(G, mountain)
    G.T.set_hand(["mountain_lore"])
    G.apply(play_code(0, powered=1, pay=PAY_DIE + 3))
    t = G.core_.to_dict()["turn"]
    lore = sorted((m["arg"] - 1, m["value"], m["scope"]) for m in t["mods"][:t["n_mods"]]
                  if m["kind"] == KIND["hand_limit_ends_in"])
    assert lore == sorted([(hills, 1, TURN), (mountain, 2, TURN)])
    G.apply(encode("move", 1))
    G.apply(encode("end_turn"))
    G.apply(encode("draw"))
    assert len(player(G)["hand"]) == 7


def live(t):
    return [(m["kind"], m["scope"], m["value"]) for m in t["mods"][:t["n_mods"]]]


def finish_combat(core, eng):
    """Next phase until the combat ends, the hero taking the damage (11.7)."""
    for _ in range(20):
        if not core.to_dict()["combat"]["active"]:
            return
        named = [(_engine.describe(int(a)), int(a)) for a in eng.legal_actions()]
        pick = next((a for d, a in named if d.startswith("next_phase")), None)
        if pick is None:
            pick = next((a for d, a in named if d.startswith(("damage_from", "damage_hero"))), None)
        assert pick is not None, [d for d, a in named]
        eng.apply(pick)
    raise AssertionError("the combat did not end")


@pytest.mark.covers("into_the_heat", "basic")
def test_into_the_heat_bonus_lasts_the_combat_and_no_unit_damage_the_turn(content, tables):
    """Into the Heat: "Units' Attack and Block +2 this combat" is a combat-long modifier, gone
    when the combat ends (11.12); "no damage to Units this turn" still holds after it."""
    from test_advanced_actions import heat_game
    g = heat_game(content, tables, 0)
    assert live(g.core.to_dict()["turn"]) == [(KIND["unit_attack_block"], COMBAT, 2)]
    finish_combat(g.core, g.eng)
    t = g.core.to_dict()["turn"]
    assert live(t) == [] and t["no_unit_damage"] == 1


@pytest.mark.covers("wolfhawk_hawk_eyes", "effect")
def test_9_8_3_hawk_eyes_at_night_is_a_turn_long_explore_discount(content, tables):
    """Hawk Eyes at Night: "exploring costs 1 less Move this turn" - one turn-long modifier."""
    from mksim._rules import Rules
    from test_skills_handlers import game
    g = game(content, tables, ["wolfhawk_hawk_eyes"], hero="wolfhawk")
    Rules(g.core).set_time("night")
    g.do("use_skill", 0)
    assert live(g.core.to_dict()["turn"]) == [(KIND["explore_discount"], TURN, 1)]
