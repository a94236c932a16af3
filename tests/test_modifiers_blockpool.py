"""Issue 12, fourth move: the Block pool's own effects and Wings of Night / Possess as entries
of the modifier array (docs/engine.md "Events and modifiers"), and the live-kinds mask
``TurnState.mod_live``.

- Block pool (scope ``block``: ended by the committed block, or with an unused pool at the
  phase's end, 11.4.5): Cold Toughness (LL-2.10.8: Ice Block +1 per icon; the base printing
  counts Arcane Immunity, the Lost Legion one gives nothing against it), Ice Shield (Armor -3
  of the enemy blocked, min 1, an effect of the card's colour, 11.4.2), Shield Bash (Block 5
  counting twice against Swift, LL-2.10.10, and Armor -1 per point of excess Block, LL-6.7.5).
- Combat-long (LL-6.1.4): Wings of Night (each further target costs 1, 2 ... Move), Possess
  (the possessed enemy's Attack against the others in the Attack phase).
- Fixtures written with the old TurnState fields still load as these entries.
"""
import pytest

from mksim import _engine, fixtures
from mksim._checks import CHECKS, violations
from mksim._engine import encode, modifier_ops
from mksim._rules import Rules

from test_spells_artifacts import ASK_DONE, BLACK, BLUE, WHITE, acts, play_code, start
from test_spells_handlers import fight, night_spell, tokens

KIND = {name: k for k, name in enumerate(fixtures.MOD_KINDS)}
SCOPE = {name: k for k, name in enumerate(fixtures.MOD_SCOPES)}
PHYSICAL, FIRE = 0, 1


@pytest.fixture(scope="module")
def fr():
    from mksim.game import Game
    return Game("first-reconnaissance", "arythea")


def live(core):
    """The live entries as (kind name, scope name, value, arg)."""
    t = core.to_dict()["turn"]
    return [(fixtures.MOD_KINDS[m["kind"]], fixtures.MOD_SCOPES[m["scope"]], m["value"], m["arg"])
            for m in t["mods"][:t["n_mods"]]]


def mask_of(core):
    raw = core.raw_dict()["turn"]
    return raw["mod_live"], sum(1 << m["kind"] for m in raw["mods"][:raw["n_mods"]])


def _cold_toughness_powered_in_block_phase(content, tables, enemy):
    """Tovak in the Block phase against ``enemy``, Cold Toughness just played powered."""
    from interaction_setup import Game, PAY_TOKEN
    g = Game(content, tables, hero="tovak", hand=["cold_toughness"])
    g.ut.start_combat([enemy])
    g.do("next_phase")
    g.ut.set_turn(mana={"blue": 1})
    g.play(0, powered=1, pay=PAY_TOKEN["blue"])
    return g


# -- the Block pool ------------------------------------------------------------------------

@pytest.mark.covers("cold_toughness", "powered")
def test_ll_2_10_8_cold_toughness_base_is_a_block_pool_entry_that_counts_arcane_immunity(content, tables):
    """Base printing vs Sorcerers (attack 6; assassination, poison, Arcane Immunity: 3 icons):
    one entry (icon_block, block scope, 1 per icon, arg 2 = base); Ice Block 5 + 3 blocks it,
    and the committed block ends the entry (11.4.5)."""
    g = _cold_toughness_powered_in_block_phase(content, tables, "sorcerers")
    assert live(g.core) == [("icon_block", "block", 1, 2)]
    assert g.of_kind("block") == ["block(0)"]            # 5 + 3 >= 6 (the LL printing: no block)
    g.do("block", 0)
    assert live(g.core) == [] and mask_of(g.core) == (0, 0)


@pytest.mark.covers("cold_toughness", "powered@ll")
def test_11_4_5_cold_toughness_ll_entry_is_lost_with_an_unused_block_pool(ll_content, ll_tables):
    """Lost Legion printing: arg 1; the Block phase ends without a block, the pool and its
    entry are lost (11.4.5) - the Damage phase holds none."""
    g = _cold_toughness_powered_in_block_phase(ll_content, ll_tables, "medusa")
    assert live(g.core) == [("icon_block", "block", 1, 1)]
    assert mask_of(g.core) == (1 << KIND["icon_block"],) * 2
    g.do("next_phase")
    assert live(g.core) == [] and g.turn["icon_block"] == 0


@pytest.mark.covers("ice_shield", "powered")
def test_11_4_2_ice_shield_armor_minus_3_is_a_blue_block_pool_entry(content, tables):
    """Ice Shield powered: Ice Block 3 and the enemy it blocks gets Armor -3: the entry holds
    -3 and the card's colour (blue + 1).  With 3 more physical Block the Swordsmen (attack 6)
    are blocked and their Armor goes 5 -> 2; the entry is gone."""
    core, eng, sc = start(content, tables, ["ice_shield"], tokens=tokens(BLUE))
    T = fight(core, ["swordsmen"], phase="block")
    eng.apply(play_code(0, 1, pay=BLUE))
    assert live(core) == [("block_armor", "block", -3, BLUE + 1)]
    T.set_block("physical", 3)
    eng.apply(encode("block", 0))
    assert "blocked" in T.enemy(0)["flags"] and T.enemy_armor(0) == 2
    assert live(core) == []


@pytest.mark.covers("shield_bash", "powered")
def test_ll_6_7_5_shield_bash_swift_points_and_armor_per_excess_are_block_pool_entries(content, tables):
    """Shield Bash powered: Block 5 counting twice against Swift (an entry per element:
    physical + 1) and Armor -1 per point of excess Block (blue + 1).  Against the Prowlers
    (attack 4, not Swift) the excess is 1: Armor 3 -> 2; both entries end with the block."""
    core, eng, sc = start(content, tables, ["shield_bash"], tokens=tokens(BLUE))
    T = fight(core, ["prowlers"], phase="block")
    eng.apply(play_code(0, 1, pay=BLUE))
    assert live(core) == [("swift_block", "block", 5, PHYSICAL + 1), ("block_armor_excess", "block", 1, BLUE + 1)]
    eng.apply(encode("block", 0))
    assert "blocked" in T.enemy(0)["flags"] and T.enemy_armor(0) == 2
    assert live(core) == []


@pytest.mark.covers("shield_bash", "basic")
def test_ll_2_10_10_shield_bash_counts_twice_against_swift_through_its_entry(content, tables):
    """Shield Bash basic: Block 3 against the Werewolf (Swift attack 7: 14 needed, 11.6.5):
    3 + 3 more from the entry, 6 with 8 more physical Block = 14 blocks it; 7 more would not."""
    for extra, blocked in ((8, True), (7, False)):
        core, eng, sc = start(content, tables, ["shield_bash"])
        T = fight(core, ["werewolf"], phase="block")
        eng.apply(play_code(0, 0))
        assert live(core) == [("swift_block", "block", 3, PHYSICAL + 1)]
        T.set_block("physical", 3 + extra)
        assert ("block(0)" in acts(eng)) is blocked


# -- Wings of Night and Possess (combat-long) ------------------------------------------------

@pytest.mark.covers("wings_of_wind", "powered@ll")
def test_ll_6_1_4_wings_of_night_is_one_combat_entry_the_next_targets_price(ll_content, ll_tables):
    """Wings of Night: the first target is free and makes the entry (wings, combat, the next
    target's Move 1, step 1); the second costs 1 and raises it to 2; the combat's end ends it."""
    core, eng, sc = night_spell(ll_content, ll_tables, ["wings_of_wind"], WHITE)
    T = fight(core, ["prowlers", "swordsmen", "wolf_riders"])
    Rules(core).set_move_points(3)
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    assert live(core) == []                             # asked, no target yet
    eng.apply(encode("choose", 0))
    assert live(core) == [("wings", "combat", 1, 1)]
    eng.apply(encode("choose", 1))
    assert live(core) == [("wings", "combat", 2, 1)] and core.to_dict()["turn"]["move_points"] == 2
    eng.apply(encode("choose", 2))                      # 2 Move: all three do not attack
    assert core.to_dict()["turn"]["move_points"] == 0
    assert all("no_attack" in T.enemy(s)["flags"] for s in range(3))
    assert live(core) == [("wings", "combat", 3, 1)]
    while core.to_dict()["combat"]["active"]:           # nothing attacks: the phases pass
        eng.apply(encode("next_phase"))
    assert live(core) == []


@pytest.mark.covers("charm", "powered")
def test_ll_6_1_4_possess_is_a_combat_attack_entry_used_up_and_the_possessed_enemy(content, tables):
    """Possess the Fire Mages (fire Attack 6): entries (possess_attack 6, arg fire + 1) and
    (possessed, slot 0 + 1); A_POSSESS moves the Attack into the pool and uses its entry up,
    the possessed enemy's stays for the combat (its Attack may not target it)."""
    core, eng, sc = night_spell(content, tables, ["charm"], WHITE)
    T = fight(core, ["fire_mages", "swordsmen"], phase="block")
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    eng.apply(encode("choose", 0))
    assert live(core) == [("possess_attack", "combat", 6, FIRE + 1), ("possessed", "combat", 1, 0)]
    T.set_phase("attack")
    eng.apply(encode("possess_attack", 0))
    assert live(core) == [("possessed", "combat", 1, 0)]
    assert core.to_dict()["combat"]["attack"][0][FIRE] == 6 and "attack(1)" not in acts(eng)


# -- old fixtures ----------------------------------------------------------------------------

def test_a_fixture_with_the_old_fields_loads_as_their_entries(fr):
    """Format 1 with the fields as written before the move: each becomes its entry (the
    Block pool's with scope block, Wings / Possess combat-long), owned by the turn's player."""
    s = fr.state_from_dict({"format": 1, "phase": "combat_block", "players": [{"position": 0}],
                            "combat": {"active": 1, "enemies": [{"enemy": "prowlers"}, {"enemy": "fire_mages"}]},
                            "turn": {"icon_block": 1, "icon_block_arcane": 1, "swift_strip": 1,
                                     "swift_block": [2, 0, 0, 0], "block_armor": -3, "block_armor_excess": 1,
                                     "block_fx_colour": BLUE, "wings_targets": 2, "wings_first": 1,
                                     "wings_step": 1, "possess_slot": 2, "possess_attack": [0, 6, 0, 0]}})
    assert live(s.core) == [("icon_block", "block", 1, 2), ("swift_strip", "block", 1, 0),
                            ("swift_block", "block", 2, 1), ("block_armor", "block", -3, BLUE + 1),
                            ("block_armor_excess", "block", 1, BLUE + 1), ("wings", "combat", 2, 1),
                            ("possessed", "combat", 2, 0), ("possess_attack", "combat", 6, FIRE + 1)]
    m, kinds = mask_of(s.core)
    assert m == kinds == sum(1 << KIND[k] for k in ("icon_block", "swift_strip", "swift_block", "block_armor",
                                                    "block_armor_excess", "wings", "possessed", "possess_attack"))
    assert s.to_dict()["turn"].get("mod_live") is None         # derived: not written
    assert not [k for k in s.to_dict()["turn"] if k in ("icon_block", "wings_targets", "possess_slot")]


def test_old_field_and_mask_errors_name_the_field(fr):
    from test_fixture_validation import refused
    refused(fr, {"turn": {"possess_slot": 1}}, "turn.possess_slot")           # no combat: no enemy
    refused(fr, {"turn": {"block_fx_colour": 6, "block_armor": -3}}, "turn.block_fx_colour")
    refused(fr, {"turn": {"swift_block": [0, 128]}}, "turn.swift_block[1]")
    refused(fr, {"turn": {"mod_live": 1}}, "turn.mod_live")


# -- the live-kinds mask -----------------------------------------------------------------------

def test_mod_live_is_exactly_the_kinds_alive_after_every_helper():
    k1, k2, k3 = KIND["ignore_wounds"], KIND["icon_block"], KIND["possessed"]
    ops = [("add", k1, SCOPE["turn"], 2, 0, -1, 0), ("add", k2, SCOPE["block"], 1, 1, -1, 0),
           ("add", k2, SCOPE["block"], 1, 2, -1, 0), ("add", k3, SCOPE["combat"], 1, 0, -1, 0),
           ("take", k1, 1), ("remove", k2), ("add", k2, SCOPE["block"], 1, 1, -1, 0),
           ("event", _engine.events()["phase_end"], -1), ("take", k1, 1), ("set", k1, SCOPE["round"], 3, -1, 0),
           ("turn_end",)]
    res, mods, masks = modifier_ops(ops, live=True)
    assert all(a == b for a, b in masks)
    bit = lambda *ks: sum(1 << k for k in ks)
    assert [a for a, _ in masks] == [bit(k1), bit(k1, k2), bit(k1, k2), bit(k1, k2, k3), bit(k1, k2, k3),
                                     bit(k1, k3), bit(k1, k2, k3), bit(k1, k3), bit(k3), bit(k1, k3), bit(k1)]
    assert mods == [(k1, SCOPE["round"], 3, 0, -1, 0)]
    assert fixtures.MOD_SCOPES[5] == "block" and len(fixtures.MOD_KINDS) <= 64


def test_the_mask_invariant_catches_a_drift(fr):
    """ext/_checks V_MOD_LIVE: a state whose mask does not match its entries is reported."""
    s = fr.state_from_dict({"format": 1})
    base = bytearray(s.core.state_bytes())
    s.core.set_raw({"turn": {"mods": [{"kind": KIND["wings"], "scope": 2, "value": 1, "arg": 1, "source": -1,
                                       "owner": 0}], "n_mods": 1}})
    assert violations(s.core) == []
    after = bytearray(s.core.state_bytes())
    last = max(i for i in range(len(base)) if base[i] != after[i])     # mod_live follows n_mods
    after[last] = base[last]
    s.core.set_state_bytes(bytes(after))
    assert violations(s.core) == [CHECKS[15]] and "mod_live" in CHECKS[15]
