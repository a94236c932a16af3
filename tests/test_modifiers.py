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

from test_spells_artifacts import BLACK, BLUE, GOLD, GREEN, RED, play_code, player, start
from test_spells_handlers import fight, night_spell, tokens

EV = _engine.events()
NEXT_CARD, PHASE, COMBAT, TURN, ROUND, BLOCK = range(6)
KIND = {name: k for k, name in enumerate(fixtures.MOD_KINDS)}


def add(kind, scope, value=1, source=-1, owner=0, arg=0):
    return ("add", kind, scope, value, arg, source, owner)


def one_of_each_scope():
    """One modifier per scope, its value = its scope + 1 (to tell them apart)."""
    return [add(1, s, value=s + 1, source=10 + s) for s in range(6)]


def alive(mods):
    return sorted(m[1] for m in mods)


def test_c_constants_match_the_fixture_tables():
    c = _engine.modifier_constants()
    assert c["NUM_MOD_KINDS"] == len(fixtures.MOD_KINDS)
    assert c["NUM_MOD_SCOPES"] == len(fixtures.MOD_SCOPES) == 6
    assert c["MAX_MODS"] == fixtures.MAX_MODS
    assert c["NUM_EVENTS"] == len(EV) == 10


def test_add_appends_in_order_and_a_full_array_refuses():
    ops = [add(2, TURN, value=k) for k in range(fixtures.MAX_MODS + 1)]
    res, mods = modifier_ops(ops)
    assert res == list(range(fixtures.MAX_MODS)) + [-1]
    assert [m[2] for m in mods] == list(range(fixtures.MAX_MODS))


@pytest.mark.parametrize("event, left", [
    ("turn_start", [0, 1, 2, 3, 4, 5]), ("phase_start", [0, 1, 2, 3, 4, 5]),
    ("block_committed", [0, 1, 2, 3, 4, 5]),   # the Block pool's end is commit_block's own (res >= 0)
    ("attack_committed", [0, 1, 2, 3, 4, 5]), ("damage_assigned", [0, 1, 2, 3, 4, 5]),
    ("card_played", [1, 2, 3, 4, 5]),       # the next card ends only next-card effects
    ("phase_end", [0, 2, 3, 4]),            # a phase ends phase-long effects and its Block pool's (11.4.5)
    ("combat_end", [0, 3, 4]),              # the combat ends its phases' effects too
    ("round_end", [0, 1, 2, 3, 5]),         # only round-long ones (the turn's end at reset_turn)
])
def test_each_scope_expires_exactly_at_its_event(event, left):
    res, mods = modifier_ops(one_of_each_scope() + [("event", EV[event], -1)])
    assert alive(mods) == left
    assert res[-1] == 6 - len(left)


def test_turn_end_keeps_only_round_long_modifiers():
    res, mods = modifier_ops(one_of_each_scope() + [("turn_end",)])
    assert res[-1] == 5
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
    bad = len(fixtures.MOD_KINDS)                      # one past the last kind
    d["turn"]["mods"][0]["kind"] = bad
    with pytest.raises(fixtures.FixtureError, match=rf"turn\.mods\[0\]\.kind: {bad} is out of range"):
        g.state_from_dict(d)
    g, d = with_mod()
    d["turn"]["n_mods"] = fixtures.MAX_MODS + 1
    with pytest.raises(fixtures.FixtureError, match=rf"turn\.n_mods: {fixtures.MAX_MODS + 1} is out of range"):
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
    assert live(g.core.to_dict()["turn"]) == [(KIND["unit_attack_block"], COMBAT, 2),
                                              (KIND["no_unit_damage"], TURN, 1)]
    finish_combat(g.core, g.eng)
    assert live(g.core.to_dict()["turn"]) == [(KIND["no_unit_damage"], TURN, 1)]


@pytest.mark.covers("wolfhawk_hawk_eyes", "effect")
def test_9_8_3_hawk_eyes_at_night_is_a_turn_long_explore_discount(content, tables):
    """Hawk Eyes at Night: "exploring costs 1 less Move this turn" - one turn-long modifier."""
    from mksim._rules import Rules
    from test_skills_handlers import game
    g = game(content, tables, ["wolfhawk_hawk_eyes"], hero="wolfhawk")
    Rules(g.core).set_time("night")
    g.do("use_skill", 0)
    assert live(g.core.to_dict()["turn"]) == [(KIND["explore_discount"], TURN, 1)]


def next_turn(eng):
    """End the turn, draw, and start the next regular turn (reset_turn ends the turn's effects)."""
    eng.apply(encode("end_turn"))
    for _ in range(20):
        named = [(_engine.describe(int(a)), int(a)) for a in eng.legal_actions()]
        pick = next((a for d, a in named if d.startswith("regular_turn")), None)
        if pick is not None:
            eng.apply(pick)
            return
        eng.apply(next((a for d, a in named if d.startswith("draw")), named[0][1]))
    raise AssertionError("no next turn")


def mods_of(core, kind):
    """The live modifiers of `kind` (a MOD_KINDS name) as (scope, value, arg)."""
    t = core.to_dict()["turn"]
    return [(m["scope"], m["value"], m["arg"]) for m in t["mods"][:t["n_mods"]] if m["kind"] == KIND[kind]]


@pytest.mark.covers("mist_form", "powered")
def test_11_7_7_veil_of_mist_is_a_turn_long_wound_count_used_up_by_enemy_wounds(content, tables):
    """Veil of Mist: "ignore the first Wound from enemies this turn" - a turn-long modifier of
    value 1; the Prowlers' 4 damage on Armor 2 (2 Wounds, 11.7.7) gives one Wound to hand and
    uses the modifier up."""
    core, eng, sc = night_spell(content, tables, ["mist_form"], BLUE)
    T = fight(core, ["prowlers"], phase="block")
    eng.apply(play_code(0, 1, pay=BLUE, pay2=BLACK))
    assert (KIND["ignore_wounds"], TURN, 1) in live(core.to_dict()["turn"])
    eng.apply(encode("next_phase"))
    eng.apply(encode("damage_from", 0))
    eng.apply(encode("damage_hero", 0))
    t = core.to_dict()["turn"]
    assert [m for m in live(t) if m[0] == KIND["ignore_wounds"]] == []
    assert player(core)["hand"] == ["wound"]


@pytest.mark.covers("tovak_who_needs_magic", "effect")
def test_who_needs_magic_plus_3_forbids_source_dice_until_the_turn_ends(content, tables):
    """Who Needs Magic: "+3 instead if you use no Source die this turn" - a turn-long
    no-Source-dice modifier: no die powers March for the rest of the turn, and in the next
    turn one does again (5.5.2)."""
    from test_skills_rules import acts, new_turn
    core, eng, _ = new_turn(content, tables, ["tovak_who_needs_magic"], hand=["march", "march"])
    eng.set_dice(["green", "green"])
    die_plays = lambda: [a for a in acts(eng) if a.startswith("play(") and "pay=10" in a]
    eng.apply(encode("use_skill", 0))
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", 1))                       # +3, no Source dice
    assert live(core.to_dict()["turn"]) == [(KIND["no_source_dice"], TURN, 1)]
    assert die_plays() == []
    next_turn(eng)
    assert live(core.to_dict()["turn"]) == [] and die_plays()


@pytest.mark.covers("wolfhawk_on_her_own", "effect")
def test_on_her_own_influence_3_is_a_turn_long_no_recruit_modifier(content, tables):
    """On Her Own: "Influence 3 instead, but you may not recruit Units this turn" - one
    turn-long modifier; with Influence 10 the Peasants (cost 4, 10.6) are not offered."""
    from test_skills_handlers import village_game
    g = village_game(content, tables)
    g.do("use_skill", 0)
    g.do("choose", 1)
    assert live(g.core.to_dict()["turn"]) == [(KIND["no_recruit"], TURN, 1)]
    g.ut.set_turn(influence=10)
    assert g.of_kind("recruit") == []


@pytest.mark.covers("ruby_ring", "powered")
def test_ruby_ring_endless_red_and_black_mana_for_the_turn_only(content, tables):
    """Ruby Ring strong: "endless supply of red and black mana this turn" - two turn-long
    modifiers (arg = colour + 1); a red token pays with no token held, and in the next turn
    both are gone (no red token payment offered)."""
    core, eng, sc = start(content, tables, ["ruby_ring", "mana_meltdown", "march", "march"],
                          deck=["rage"] * 6, dice=["white", "white", "white"])
    eng.apply(play_code(0, 1))                         # thrown away (6.1.5)
    assert sorted(mods_of(core, "endless_mana")) == [(TURN, 1, RED + 1), (TURN, 1, BLACK + 1)]
    assert play_code(0, 0, pay=RED) in eng.legal_actions()
    next_turn(eng)
    assert mods_of(core, "endless_mana") == []
    assert core.to_dict()["turn"]["mana_tokens"] == {}
    assert not any(int(a) == play_code(k, 0, pay=RED) for a in eng.legal_actions() for k in range(4))


@pytest.mark.covers("amulet_of_the_sun", "basic")
def test_5_1_5_amulet_of_the_sun_at_night_is_a_turn_long_gold_usable_modifier(content, tables):
    """Amulet of the Sun at Night: "gold mana may be used this turn" (5.1.5 lifted) - one
    turn-long modifier for gold (arg = gold + 1); a gold token then powers March."""
    core, eng, sc = start(content, tables, ["amulet_of_the_sun", "march"], time="night")
    eng.apply(play_code(0, 0))
    assert mods_of(core, "mana_anytime") == [(TURN, 1, GOLD + 1)]
    eng.apply(play_code(0, 1, pay=GOLD))
    assert core.to_dict()["turn"]["move_points"] == 4


@pytest.mark.covers("golden_grail", "powered")
def test_golden_grail_draw_per_wound_healed_is_a_turn_long_modifier(content, tables):
    """Golden Grail strong: "draw a card for each Wound healed from hand this turn" - a
    turn-long modifier of value 1; two Wounds healed, two cards drawn (12.3.3)."""
    core, eng, sc = start(content, tables, ["golden_grail", "wound", "wound"], deck=["march", "rage"])
    eng.apply(play_code(0, 1))
    assert mods_of(core, "draw_per_heal") == [(TURN, 1, 0)]
    for _ in range(2):
        eng.apply(encode("heal_wound", player(core)["hand"].index("wound")))
    assert sorted(player(core)["hand"]) == ["march", "rage"]


@pytest.mark.covers("crystal_mastery", "powered")
def test_crystal_mastery_powered_return_is_used_up_at_the_end_of_the_turn(content, tables):
    """Crystal Mastery strong: "crystals spent this turn return at its end" - a turn-long
    modifier; the blue crystal that paid for it comes back at end_turn, which uses it up."""
    from test_advanced_actions import _G, crystals, day_turn, set_crystals
    G = day_turn(content, tables, _G)
    set_crystals(G, [1, 1, 0, 0])
    G.T.set_hand(["crystal_mastery", "march"])
    G.apply(play_code(0, powered=1, pay=6 + 1))        # a blue crystal
    assert mods_of(G.core_, "crystal_return") == [(TURN, 1, 0)]
    assert crystals(G) == [1, 0, 0, 0]
    G.apply(encode("end_turn"))
    assert crystals(G) == [1, 1, 0, 0] and mods_of(G.core_, "crystal_return") == []


@pytest.mark.covers("banner_of_protection", "powered")
def test_banner_of_protection_powered_is_a_turn_long_modifier_used_at_its_end(content, tables):
    """Banner of Protection strong: "throw away the Wounds received this turn at its end" -
    a turn-long modifier, used up by the end of the turn that throws the Wound away."""
    from mksim._combat import CombatTester
    core, eng, sc = start(content, tables, ["banner_of_protection", "march"], deck=["rage"] * 6)
    eng.apply(play_code(0, 1))
    assert mods_of(core, "protection") == [(TURN, 1, 0)]
    CombatTester(core).hero_take_wounds(1)
    assert player(core)["hand"].count("wound") == 1
    eng.apply(encode("end_turn"))
    assert mods_of(core, "protection") == []
    p = player(core)
    assert sum(z.count("wound") for z in (p["hand"], p["discard"], p["deck"], p["play_area"])) == 0


@pytest.mark.covers("sword_of_justice", "basic")
def test_11_8_sword_of_justice_fame_is_a_combat_long_modifier_paid_at_its_end(content, tables):
    """Sword of Justice: "Fame +1 for each enemy defeated in this combat" - a combat-long
    modifier of value 1, paid and gone when the combat ends (11.12): Prowlers (Fame 2)
    defeated, Fame +2 then +1."""
    from test_spells_artifacts import acts, combat
    core, eng, sc = start(content, tables, ["sword_of_justice", "march", "rage", "wound"])
    T = combat(core, eng, ["prowlers"], phase="attack")
    fame0 = player(core)["fame"]
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", 0))
    assert mods_of(core, "sword_fame") == [(COMBAT, 1, 0)]
    eng.apply(encode("attack", 1))
    eng.apply(encode("next_phase"))                    # the combat ends
    assert player(core)["fame"] == fame0 + 3 and mods_of(core, "sword_fame") == []


@pytest.mark.covers("altem_mages", "ability3.1")
def test_altem_mages_cold_fire_is_a_combat_long_modifier(content, tables):
    """Altem Mages: "all your attacks are Cold Fire this combat" - a combat-long modifier:
    Fire Attack 6 on Fire Mages (Fire resistance, 11.9.2) counts 6; gone with the combat."""
    from test_units_handlers import Game, PAY_TOKEN, combat
    g = Game(content, tables)
    g.ut.set_unit(0, "altem_mages")
    ct = combat(g, ["fire_mages"])
    ct.set_phase("attack")
    ct.set_attack("melee", "fire", 6)
    g.ut.set_night()
    g.ut.set_turn(mana={"black": 1})
    g.activate(0, 2, pay=PAY_TOKEN["black"])
    g.do("choose", 0)
    assert mods_of(g.core, "attacks_coldfire") == [(COMBAT, 1, 0)]
    assert ct.attack_value([0]) == 6
    finish_combat(g.core, g.eng)
    assert mods_of(g.core, "attacks_coldfire") == []
# -- EV_CARD_PLAYED and EV_DAMAGE_ASSIGNED ------------------------------------------------------

def fired(name):
    """The args of the events `name` fired since the last call to event_log."""
    return [a for e, a in _engine.event_log() if e == EV[name]]


def test_6_1_card_played_fires_once_per_deed_card_after_its_effect(content, tables):
    """EV_CARD_PLAYED: once when a Deed card's effect has resolved (6.1), arg = the card; a
    card played sideways is played too (6.1.7); a card played through Concentration (6.1.8)
    makes one event for the pair, for the card played with it (its effect resolves last)."""
    from test_basic_actions import play, start as basic_start
    core, eng, st = basic_start(content, tables, ["march", "stamina", "concentration", "rage", "march"],
                                tokens=[0, 0, 0, 1, 0, 0])
    ids = tables.card_ids
    _engine.event_log()
    eng.apply(play(0))                                   # March: Move 2
    assert fired("card_played") == [ids.index("march")]
    assert core.to_dict()["turn"]["move_points"] == 2    # after its effect
    eng.apply(encode("sideways", 0))                     # Stamina sideways: Move 1
    assert fired("card_played") == [ids.index("stamina")]
    eng.apply(play(0, 1, GREEN))                         # Concentration powered ...
    assert fired("card_played") == []                    # ... waits for the card to play with it
    hand = core.to_dict()["players"][0]["hand"]
    eng.apply(encode("choose", hand.index("march")))
    assert fired("card_played") == [ids.index("march")]
    assert core.to_dict()["turn"]["move_points"] == 2 + 1 + 4 + 2


def test_11_7_damage_assigned_fires_once_when_an_attack_is_done(content, tables):
    """EV_DAMAGE_ASSIGNED: once per enemy attack, when all its damage is assigned (11.7.1,
    11.7.7), arg = the enemy slot; choosing the attack to assign is not yet the event."""
    core, eng, sc = start(content, tables, ["march"])
    T = fight(core, ["prowlers", "swordsmen"], phase="damage")
    _engine.event_log()
    named = {_engine.describe(int(a)): int(a) for a in eng.legal_actions()}
    start_1 = next(a for d, a in named.items() if d == "damage_from(1)")
    eng.apply(start_1)                                   # the Swordsmen's attack
    assert fired("damage_assigned") == []
    eng.apply(encode("damage_hero", 0))
    assert fired("damage_assigned") == [1]
    assert core.to_dict()["combat"]["dmg_slot"] == -1


# -- the next-card / used-up bonuses (issue 12, step 2) ------------------------------------------

def live_args(t):
    return [(m["kind"], m["scope"], m["value"], m["arg"]) for m in t["mods"][:t["n_mods"]]]


@pytest.mark.covers("concentration", "powered")
def test_6_1_8_concentration_bonus_is_a_next_card_modifier_ended_by_that_card(content, tables):
    """Concentration: "play with another Action card ... if it gives Move / Influence / Block
    / Attack add +2" - one next-card modifier made by Concentration; a card giving none of
    those (Crystallize powered: a crystal) ends it unused, so a later March gets no +2."""
    from test_basic_actions import play, start as basic_start
    core, eng, st = basic_start(content, tables, ["concentration", "crystallize", "march"],
                                tokens=[0, 0, 0, 1, 0, 0])
    eng.apply(play(0, 1, GREEN))
    assert core.to_dict()["turn"]["n_mods"] == 0          # made with the card chosen
    hand = core.to_dict()["players"][0]["hand"]
    eng.apply(encode("choose", hand.index("crystallize")))
    t = core.to_dict()["turn"]                             # Crystallize's colour to pick
    assert live_args(t) == [(KIND["card_bonus"], NEXT_CARD, 2, 0)]
    assert t["mods"][0]["source"] == tables.card_ids.index("concentration")
    eng.apply(encode("choose", RED))
    assert core.to_dict()["turn"]["n_mods"] == 0          # EV_CARD_PLAYED of Crystallize
    eng.apply(play(0))                                     # March: Move 2, no bonus
    assert core.to_dict()["turn"]["move_points"] == 2


@pytest.mark.covers("tirelessness", "basic")
@pytest.mark.covers("tirelessness", "powered")
def test_tirelessness_is_a_turn_long_move_bonus_used_up_unless_powered(content, tables):
    """Tirelessness basic: "the next card giving Move this turn (even sideways) +1" - a
    turn-long modifier the next Move card uses up; powered: "every other card giving Move"
    - the modifier stays for every card after it."""
    from test_basic_actions import play, start as basic_start
    core, eng, st = basic_start(content, tables, ["tirelessness", "march", "stamina"])
    eng.apply(play(0))
    assert live_args(core.to_dict()["turn"]) == [(KIND["move_bonus"], TURN, 1, 0)]
    eng.apply(encode("sideways", 1))                       # Stamina sideways: Move 1 + 1
    t = core.to_dict()["turn"]
    assert t["move_points"] == 2 + 2 and t["n_mods"] == 0
    core, eng, st = basic_start(content, tables, ["tirelessness", "march", "stamina"],
                                tokens=[0, 1, 0, 0, 0, 0])
    eng.apply(play(0, 1, BLUE))                            # powered: Move 4
    for _ in range(2):
        eng.apply(play(0))                                 # March, Stamina: Move 2 + 1 each
        assert live_args(core.to_dict()["turn"]) == [(KIND["move_bonus"], TURN, 1, 1)]
    assert core.to_dict()["turn"]["move_points"] == 4 + 3 + 3


@pytest.mark.covers("ambush", "basic")
def test_ambush_first_attack_or_block_card_pair_used_up_by_the_first_block(content, tables):
    """Ambush basic: "first Attack card this turn +1 or first Block card +2 (whichever first)"
    - two turn-long halves; a Block card (sideways Block 1 + 2 = 3) uses up both."""
    from test_advanced_actions import day_turn, _G, play_code as aa_play
    G = day_turn(content, tables, _G)
    G.T.set_hand(["ambush", "march", "march"])
    G.apply(aa_play(0))
    t = G.core_.to_dict()["turn"]
    assert sorted(live_args(t)) == [(KIND["first_attack_block"], TURN, 1, 1), (KIND["first_attack_block"], TURN, 2, 2)]
    G.T.begin(["prowlers"])
    G.T.set_phase("block")
    G.apply(encode("sideways", 0 | (3 << 7)))
    assert G.T.block_value(0) == 3
    assert G.core_.to_dict()["turn"]["n_mods"] == 0
    G.apply(encode("sideways", 0 | (3 << 7)))              # the second: Block 1 only
    assert G.T.block_value(0) == 4


@pytest.mark.covers("wolfhawk_deadly_aim", "effect")
def test_deadly_aim_is_a_phase_long_modifier_lost_with_its_phase(content, tables):
    """Deadly Aim: "Ranged / Siege phase: +1 to one Attack card" - a phase-long modifier: not
    used in the Ranged phase, it ends with it (EV_PHASE_END), so it gives nothing later."""
    from test_skills_handlers import game
    g = game(content, tables, ["wolfhawk_deadly_aim"], hand=["swiftness", "march"], hero="wolfhawk")
    g.ut.start_combat(["prowlers"])
    g.do("use_skill", 0)
    assert live_args(g.core.to_dict()["turn"]) == [(KIND["attack_card_bonus"], PHASE, 1, 0)]
    g.do("next_phase")                                     # Ranged -> Block
    assert g.core.to_dict()["turn"]["n_mods"] == 0


@pytest.mark.covers("norowas_leadership", "effect")
def test_leadership_is_a_combat_long_unit_ability_bonus(content, tables):
    """Leadership: "when activating a unit: +3 to its Block" - one modifier for the Block
    ability (arg 1), used up by the next Unit's Block; one not taken ends with the combat."""
    from test_skills_handlers import game, PEASANT_BLOCK
    g = game(content, tables, ["norowas_leadership"], hero="norowas")
    g.ut.set_unit(0, "peasants")
    g.ut.start_combat(["prowlers"])
    g.do("next_phase")
    g.do("use_skill", 0)
    assert live_args(g.core.to_dict()["turn"]) == [(KIND["unit_ability_bonus"], COMBAT, 3, 1)]
    g.activate(0, PEASANT_BLOCK)
    assert g.ut.block_pool == [5, 0, 0, 0] and g.core.to_dict()["turn"]["n_mods"] == 0
    g = game(content, tables, ["norowas_leadership"], hero="norowas")
    g.ut.set_unit(0, "peasants")
    g.ut.start_combat(["prowlers"])
    g.do("next_phase")
    g.do("use_skill", 0)
    finish_combat(g.core, g.eng)
    assert g.core.to_dict()["turn"]["n_mods"] == 0


@pytest.mark.covers("heroic_tale", "powered")
def test_10_6_heroic_tale_holds_for_every_unit_recruited_this_turn(content, tables):
    """Heroic Tale powered: "Fame +1 and Reputation +1 per unit recruited this turn" - two
    turn-long modifiers that a recruit does not use up (a second Unit would get them too)."""
    from interaction_setup import Game, PAY_TOKEN
    g = Game(content, tables, site="village", hand=["heroic_tale"])
    g.ut.set_unit_offer(["peasants", "peasants"])
    g.ut.set_turn(mana={"white": 1})
    g.do("interact")
    g.play(0, powered=1, pay=PAY_TOKEN["white"])
    want = sorted([(KIND["per_recruit"], TURN, 1, 1), (KIND["per_recruit"], TURN, 1, 2)])
    assert sorted(live_args(g.core.to_dict()["turn"])) == want
    g.ut.set_turn(influence=8)
    before = (g.player["reputation"], g.player["fame"])
    g.recruit(0)
    assert (g.player["reputation"], g.player["fame"]) == (before[0] + 1, before[1] + 1)
    assert sorted(live_args(g.core.to_dict()["turn"])) == want


# -- the phase-long combat effects, now subscribers of their modules (issue 12, step 3) -------------

@pytest.mark.covers("burning_shield", "basic")
def test_11_6_burning_shield_pending_is_phase_long_and_armed_is_combat_long(content, tables):
    """Burning Shield: "Fire Block 4; if part of a successful block it can also be used as
    Fire Attack 4 in the Attack phase" - a phase-long modifier while its pool waits; the
    block succeeds (EV_BLOCK_COMMITTED, _fx_spells' subscriber): a combat-long one, used up
    when the Attack phase starts (Fire Attack 4).  Unblocked, it ends with the Block phase."""
    from test_spells_artifacts import combat
    core, eng, sc = start(content, tables, ["burning_shield"], tokens=[1, 0, 0, 0, 0, 0])
    T = combat(core, eng, ["prowlers"], phase="block")
    eng.apply(play_code(0, 0, pay=RED))
    assert live_args(core.to_dict()["turn"]) == [(KIND["block_fire_attack"], PHASE, 4, 1)]
    eng.apply(encode("block", 0))
    assert live_args(core.to_dict()["turn"]) == [(KIND["block_fire_attack"], COMBAT, 4, 2)]
    while T.phase != "attack":
        eng.apply(encode("next_phase"))
    assert T.attack_value([0]) == 4 and core.to_dict()["turn"]["n_mods"] == 0
    core, eng, sc = start(content, tables, ["burning_shield"], tokens=[1, 0, 0, 0, 0, 0])
    T = combat(core, eng, ["prowlers"], phase="block")
    eng.apply(play_code(0, 0, pay=RED))
    eng.apply(encode("next_phase"))                    # 11.4.5: the unused block is lost
    assert core.to_dict()["turn"]["n_mods"] == 0


@pytest.mark.covers("burning_shield", "powered")
def test_ll_6_7_5_exploding_shield_is_a_phase_long_destroy_on_block(content, tables):
    """Exploding Shield: "if part of a successful block, destroy the blocked enemy" - a
    phase-long flag the successful block uses up (the prowlers are destroyed)."""
    from test_spells_artifacts import combat
    core, eng, sc = start(content, tables, ["burning_shield"], time="night", tokens=[1, 0, 0, 0, 0, 1])
    T = combat(core, eng, ["prowlers"], phase="block")
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    assert live_args(core.to_dict()["turn"]) == [(KIND["block_destroy"], PHASE, 1, 0)]
    eng.apply(encode("block", 0))
    assert "defeated" in T.enemy(0)["flags"] and core.to_dict()["turn"]["n_mods"] == 0


@pytest.mark.covers("bow_of_starsdawn", "basic")
def test_11_5_bow_of_starsdawn_fame_is_a_phase_long_modifier_counted_at_the_phase_end(content, tables):
    """Bow of Starsdawn: "Fame +1 per enemy defeated in this combat phase" - a phase-long
    modifier; at the end of the Ranged phase (EV_PHASE_END, _fx_artifacts' subscriber) the
    Fame for the prowlers defeated in it, then the modifier is gone."""
    from test_spells_artifacts import combat, player
    core, eng, sc = start(content, tables, ["bow_of_starsdawn", "march", "rage"])
    T = combat(core, eng, ["prowlers"])
    fame0 = player(core)["fame"]
    eng.apply(play_code(0, 0))
    assert live_args(core.to_dict()["turn"]) == [(KIND["phase_defeat_fame"], PHASE, 1, 0)]
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", 0))
    eng.apply(encode("attack", 1))
    assert player(core)["fame"] == fame0 + 2
    eng.apply(encode("next_phase"))
    assert player(core)["fame"] == fame0 + 3 and core.to_dict()["turn"]["n_mods"] == 0


# -- the third move: turn / combat-long effects of particular cards --------------------------

@pytest.mark.covers("banner_of_glory", "powered")
def test_7_5_1_banner_of_glory_powered_is_three_turn_long_modifiers(content, tables):
    """Banner of Glory strong: "this turn every Unit has Armor +1 and +1 to its Attacks and
    Blocks; Fame +1 for each Unit that attacks or blocks" - one turn-long entry per part
    (arg 1 Armor, 2 Attack / Block, 3 Fame), ended with the turn."""
    from test_artifacts_handlers import start as unit_start
    core, eng, U = unit_start(content, tables, ["banner_of_glory", "march"], units=[("peasants", 1)])
    eng.apply(play_code(0, 1))
    assert sorted(mods_of(core, "unit_glory")) == [(TURN, 1, 1), (TURN, 1, 2), (TURN, 1, 3)]
    next_turn(eng)
    assert mods_of(core, "unit_glory") == []


@pytest.mark.covers("shocktroops", "ability1")
def test_shocktroops_bonus_is_one_turn_long_modifier_per_giver(content, tables):
    """Shocktroops (coordinated fire): "Ranged Attack 1; your other Units' attacks + 1 this
    turn" - one entry per giver (arg = its slot + 1), none to the giver itself: Shocktroops
    in slot 0 (1), Shocktroops in slot 1 (1 + 1), Utem Crossbowmen (Ranged 2 + 1 + 1) = 7."""
    from test_units_handlers import Game, combat
    g = Game(content, tables)
    g.ut.set_unit(0, "shocktroops")
    g.ut.set_unit(1, "shocktroops")
    g.ut.set_unit(2, "utem_crossbowmen")
    ct = combat(g, ["prowlers"])
    g.activate(0, 0)
    g.activate(1, 0)
    assert sorted(mods_of(g.core, "other_units_attack")) == [(TURN, 1, 1), (TURN, 1, 2)]
    assert ct.attack_value([0]) == 3
    g.activate(2, 1)
    assert ct.attack_value([0]) == 7


@pytest.mark.covers("sword_of_justice", "powered")
def test_sword_of_justice_powered_doubling_is_a_turn_long_modifier(content, tables):
    """Sword of Justice strong: "physical Attacks doubled in the Attack phase, enemies lose
    physical resistance this turn" - one turn-long entry of value 2 (the multiplier), and
    the Fame per enemy its combat-long one; Attack 2 on Fire Golems (physical resistance)
    counts 4."""
    from test_artifacts_handlers import start as unit_start, combat as unit_combat
    core, eng, U = unit_start(content, tables, ["sword_of_justice", "march", "rage"])
    T = unit_combat(core, ["fire_golems"], phase="attack")
    eng.apply(encode("sideways", 1 | (2 << 7)))
    eng.apply(encode("sideways", 1 | (2 << 7)))
    eng.apply(play_code(0, 1))
    assert mods_of(core, "sword_double") == [(TURN, 2, 0)]
    assert T.attack_value([0]) == 4


@pytest.mark.covers("bow_of_starsdawn", "powered")
def test_bow_of_starsdawn_powered_is_a_turn_long_modifier_of_its_multiplier(content, tables):
    """Bow of Starsdawn strong: "each Ranged Attack this turn doubled or made Siege" - a
    turn-long entry of value 2: Ranged 2 doubled counts 4 on Orc Skirmishers."""
    from test_artifacts_handlers import start as unit_start, combat as unit_combat
    core, eng, U = unit_start(content, tables, ["bow_of_starsdawn"])
    T = unit_combat(core, ["orc_skirmishers"])
    eng.apply(play_code(0, 1))
    assert mods_of(core, "bow_powered") == [(TURN, 2, 0)]
    T.set_attack("ranged", "physical", 2)
    eng.apply(encode("bow_change", 0))
    assert T.attack_value([0]) == 4 and mods_of(core, "bow_powered") == [(TURN, 2, 0)]


@pytest.mark.covers("learning", "powered")
def test_learning_offer_is_a_turn_long_modifier_used_up_by_the_purchase(content, tables):
    """Learning strong (LL-9.7.11): "once this turn an Advanced Action from the offer for 9
    Influence, to your hand" - one turn-long entry (value 9, arg 2 = to hand), gone once
    bought."""
    from interaction_setup import Game
    from mksim._engine import AdvancedTester
    g = Game(content, tables, site="village", hand=["learning"])
    AdvancedTester(g.eng).set_aa_offer(["agility", "in_need", "training"])
    g.eng.set_dice(["white"])
    g.do("interact")
    g.play(0, powered=1, pay=10 + 0)                   # the white Source die
    assert mods_of(g.core, "learning") == [(TURN, 9, 2)]
    g.ut.set_turn(influence=9)
    g.do("learning", 0)
    assert g.player["hand"] == ["agility"] and mods_of(g.core, "learning") == []


@pytest.mark.covers("chivalry", "basic.2")
def test_chivalry_bonus_is_phase_long_modifiers_used_by_the_attack(content, tables):
    """Chivalry: "Attack 2, Reputation +1 for each enemy defeated by this attack" - a
    phase-long entry (arg 1 Reputation) that goes with the attack pool, used up when the
    attack is committed; Prowlers defeated: Reputation +1."""
    from test_advanced_actions import day_turn
    from test_advanced_handlers import _G
    G = day_turn(content, tables, _G)
    G.T.set_hand(["chivalry", "march"])
    G.T.begin(["prowlers"])
    G.T.set_phase("attack")
    rep = G.T.reputation
    G.apply(play_code(0, 0))
    G.choose(1)
    assert mods_of(G.core_, "chivalry") == [(PHASE, 1, 1)]
    G.apply(encode("sideways", 0 | (2 << 7)))
    G.apply(encode("attack", 1))
    assert G.T.reputation == rep + 1 and mods_of(G.core_, "chivalry") == []


#: old fixture fields -> the modifier (kind name, scope, value, arg) that a value of 2 loads as
OLD_FIELDS = {"glory_armor": ("unit_glory", TURN, 2, 1), "glory_all": ("unit_glory", TURN, 2, 2),
              "glory_fame": ("unit_glory", TURN, 2, 3), "sword_double": ("sword_double", TURN, 2, 0),
              "bow_powered": ("bow_powered", TURN, 2, 0), "learning_cost": ("learning", TURN, 2, 1),
              "chivalry_rep": ("chivalry", PHASE, 2, 1), "chivalry_fame": ("chivalry", PHASE, 2, 2)}


@pytest.mark.parametrize("fmt, givers", [(1, 0b101), (2, [0, 2])])
def test_a_fixture_with_shocktroops_old_fields_loads_one_modifier_per_giver(fmt, givers):
    """unit_attack_bonus = 1 with givers in slots 0 and 2 (format 1 bits, format 2 a list of
    slots): two entries, arg = slot + 1."""
    g, d = with_mod()
    if fmt == 1:
        d = g.state_from_dict(d).to_dict(format=1)
    d["turn"]["unit_attack_bonus"] = 1
    d["turn"]["attack_bonus_givers"] = givers
    t = g.state_from_dict(d).to_dict()["turn"]
    got = [(m["kind"], m["scope"], m["value"], m["arg"]) for m in t["mods"][:t["n_mods"]]]
    assert got == [(KIND["explore_discount"], TURN, 1, 0), (KIND["other_units_attack"], TURN, 1, 1),
                   (KIND["other_units_attack"], TURN, 1, 3)]


@pytest.mark.parametrize("field", sorted(OLD_FIELDS))
def test_a_fixture_with_a_moved_field_loads_it_as_a_modifier(field):
    """A fixture written before the move (turn.<old field> = 2) still loads: the value is a
    live modifier after the one the fixture writes."""
    g, d = with_mod()
    d["turn"][field] = 2
    t = g.state_from_dict(d).to_dict()["turn"]
    kind, scope, value, arg = OLD_FIELDS[field]
    assert t["n_mods"] == 2 and t["mods"][0] == d["turn"]["mods"][0]
    m = t["mods"][1]
    assert (m["kind"], m["scope"], m["value"], m["arg"], m["owner"]) == (KIND[kind], scope, value, arg, 0)
    assert field not in t


def test_a_fixture_with_learning_to_hand_loads_arg_2():
    g, d = with_mod()
    d["turn"].update(learning_cost=9, learning_to_hand=1)
    t = g.state_from_dict(d).to_dict()["turn"]
    m = t["mods"][1]
    assert t["n_mods"] == 2 and (m["kind"], m["scope"], m["value"], m["arg"]) == (KIND["learning"], TURN, 9, 2)


def test_a_fixture_old_field_out_of_range_is_refused():
    g, d = with_mod()
    d["turn"]["glory_armor"] = 200
    with pytest.raises(fixtures.FixtureError, match=r"turn\.glory_armor: 200 is out of range"):
        g.state_from_dict(d)
