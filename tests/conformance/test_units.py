"""Conformance of Unit abilities to their printed text (issue 8, deviations found by the
audits).  Unit texts: ../shared/data/units.csv and mksim/data/units.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k scouts``)."""
import pytest

from mksim._engine import UnitsTester, describe, encode
from mksim.game import Game

from interaction_setup import Game as UnitGame, PAY_TOKEN
from test_rule_breaks import COMBAT, acts, at, play
from test_units_handlers import combat
from test_spells_artifacts import terrain_delta


def activate(slot, ability, pay=31):
    return encode("activate_unit", slot | (ability << 3) | (pay << 7))


# -- Scouts (LL-4.6.1, LL-9.7.10: Move points usable in combat, the tile reveal not) -----------

@pytest.mark.covers("scouts", "ability3")
def test_scouts_move_2_in_combat_with_agility_conversion(content):
    """Scouts' third ability (Move 2; reveal tiles 2 spaces away) in the Attack phase after
    Agility: offered for its Move 2 (LL-4.6.1), Move 2 + 2 = 4; the reveal range is of no use
    there (the turn's action is taken)."""
    game = Game("solo_conquest", hero="arythea", lost_legion=True)
    s = at(game, phase="combat_attack", combat={**COMBAT, "units_allowed": 1},
           players=[{"hand": ["agility"], "units": [{"unit": "scouts"}]}])
    assert activate(0, 2) not in [int(a) for a in s.legal_actions()]   # no use for Move yet
    s.apply(play(0))
    assert activate(0, 2) in [int(a) for a in s.legal_actions()]
    s.apply(activate(0, 2))
    assert s.to_dict()["turn"]["move_points"] == 4
    assert s.to_dict()["players"][0]["units"][0]["ready"] == 0


# -- Delphana Masters (11.4.2: an ability activated with red / blue mana has no effect on a
#    Fire / Ice-resistant enemy but its Attack / Block) -------------------------------------------

@pytest.mark.covers("delphana_masters", "ability2")
def test_delphana_masters_red_destroy_not_on_a_fire_resistant_enemy(content, tables):
    """Red ability 'destroy one enemy if blocked': Fire Mages and Prowlers - only the
    Prowlers can be named (no question)."""
    g = UnitGame(content, tables)
    g.ut.set_unit(0, "delphana_masters")
    combat(g, ["fire_mages", "prowlers"])
    g.ut.set_turn(mana={"red": 1})
    g.activate(0, 1, pay=PAY_TOKEN["red"])
    assert g.ut.enemy_unit_fx(0) == [] and g.ut.enemy_unit_fx(1) == ["destroy_if_blocked"]


@pytest.mark.covers("delphana_masters", "ability1")
def test_delphana_masters_blue_no_attack_not_on_an_ice_resistant_enemy(content, tables):
    """Blue ability 'one enemy does not attack': Ice Mages (Ice resistance) and Prowlers -
    the Prowlers are the one chosen without a question; the Ice Mages still attack."""
    g = UnitGame(content, tables)
    g.ut.set_unit(0, "delphana_masters")
    ct = combat(g, ["ice_mages", "prowlers"])
    g.ut.set_turn(mana={"blue": 1})
    g.activate(0, 0, pay=PAY_TOKEN["blue"])
    assert "no_attack" in ct.enemy(1)["flags"] and "no_attack" not in ct.enemy(0)["flags"]


@pytest.mark.covers("delphana_masters", "ability1", "ability3")
def test_delphana_masters_blue_no_attack_not_offered_against_ice_resistant_enemies_only(content, tables):
    """11.4.2: the blue ability (activated with blue mana) cannot act on Ice Mages (Ice
    resistance), so with only them in the combat it is not offered (it would be lost);
    the green Armor -5 ability has a target and is."""
    g = UnitGame(content, tables)
    g.ut.set_unit(0, "delphana_masters")
    ct = combat(g, ["ice_mages"])
    g.ut.set_turn(mana={"blue": 1, "green": 1})
    acts = g.actions()
    assert not any(a.startswith("activate_unit(unit=0, ability=0") for a in acts)
    assert any(a.startswith("activate_unit(unit=0, ability=2") for a in acts)
    with pytest.raises(ValueError):
        g.activate(0, 0, pay=PAY_TOKEN["blue"])
    assert "no_attack" not in ct.enemy(0)["flags"]


# ==============================================================================================
# Every half of every Unit (docs/conformance.md): each ability set up through a fixture
# (Game.state_from_dict, docs/fixtures.md) with its printed points, element and kind
# (units.csv), the mana it needs (5.4.4), the Unit Spent afterwards (7.3.2).  The Source holds
# only black dice by Day (5.1.5: unusable), the hero no crystals, so mana comes only from the
# tokens the test gives.  Prowlers (enemies.toml): one physical attack 4, armor 3.
# ==============================================================================================

PAY_NONE = 31
KINDS = ("melee", "ranged", "siege")
ELEMENTS = ("physical", "fire", "ice", "coldfire")
PHASES = {"ranged": "combat_ranged", "block": "combat_block", "attack": "combat_attack",
          "move": "move", "interact": "interact"}
BLACK_SOURCE = {"dice": ["black", "black", "black"], "taken": 0}
UPKEEP = {"red": 1, "blue": 2, "white": 3, "green": 4}          # Unit.upkeep: colour + 1


@pytest.fixture(scope="module")
def base():
    return Game("solo_conquest", hero="arythea")


@pytest.fixture(scope="module")
def ll():
    """The Lost Legion switched on: the Lost Legion printings (LL-2.10.2)."""
    return Game("solo_conquest", hero="arythea", lost_legion=True)


def position(game, phase, units, enemies=("prowlers",), mana=None, site=None, time="day",
             player=None, turn=None, combat=None):
    """Arythea on hex 1 (turned into `site`) in `phase` with these Units (ids or dicts)."""
    pl = {"position": 1, "crystals": {}, "units": [u if isinstance(u, dict) else {"unit": u} for u in units]}
    if len(pl["units"]) > 1:
        pl["command_tokens"] = len(pl["units"])
    pl.update(player or {})
    f = {"format": 1, "phase": PHASES.get(phase, phase), "time": time, "source": BLACK_SOURCE,
         "players": [pl], "turn": {"mana_tokens": dict(mana or {}), **(turn or {})}}
    if f["phase"].startswith("combat"):
        # dmg_slot -1: no attack's damage being assigned (a fresh state holds 0)
        f["combat"] = {"active": 1, "units_allowed": 1, "dmg_slot": -1,
                       "enemies": [{"enemy": e} for e in enemies], **(combat or {})}
    if site:
        f["map"] = {"hexes": {"1": {"site": site}}}
    return game.state_from_dict(f)


def actions(s):
    return [describe(int(a)) for a in s.legal_actions()]


def offered(s, ability, slot=0):
    return [a for a in actions(s) if a.startswith(f"activate_unit(unit={slot}, ability={ability},")]


def use(s, slot, ability, mana=None, option=None):
    """Activate; `mana`: pay with a token of that colour; `option`: the choice(...) option."""
    s.apply(activate(slot, ability, PAY_NONE if mana is None else PAY_TOKEN[mana]))
    if option is not None:
        assert f"choose({option})" in actions(s)
        s.apply(encode("choose", option))


def attack_pool(s):
    a = s.to_dict()["combat"]["attack"]
    return {(KINDS[k], ELEMENTS[e]): a[k][e] for k in range(3) for e in range(4) if a[k][e]}


def block_pool(s):
    b = s.to_dict()["combat"]["block"]
    return {ELEMENTS[e]: b[e] for e in range(4) if b[e]}


def unit0(s, slot=0):
    return s.to_dict()["players"][0]["units"][slot]


def other_colour(mana):
    return next(c for c in ("red", "blue", "white", "green") if c != mana)


def check_mana_needed(game, phase, unit, ability, mana, enemies=("prowlers",), **kw):
    """5.4.4: not offered without `mana` (a token of another colour does not do), offered
    only as paid with it."""
    s = position(game, phase, [unit], enemies, mana={other_colour(mana): 1}, **kw)
    assert offered(s, ability) == []
    s = position(game, phase, [unit], enemies, mana={mana: 1}, **kw)
    assert offered(s, ability) == [f"activate_unit(unit=0, ability={ability}, pay={PAY_TOKEN[mana]})"]


def check_combat(game, unit, ability, phase, expect, mana=None, option=None, enemies=("prowlers",)):
    """The ability in `phase` puts exactly `expect` into the pool (attack: {(kind, element):
    points}, block: {element: points}); its mana is paid and the Unit is Spent (7.3.2)."""
    if mana:
        check_mana_needed(game, phase, unit, ability, mana, enemies)
    s = position(game, phase, [unit], enemies, mana={mana: 1} if mana else None)
    if not mana:
        assert offered(s, ability) == [f"activate_unit(unit=0, ability={ability}, pay={PAY_NONE})"]
    use(s, 0, ability, mana, option)
    assert (block_pool(s) if phase == "block" else attack_pool(s)) == expect
    assert unit0(s)["ready"] is False and unit0(s)["wounds"] == 0
    if mana:
        assert s.to_dict()["turn"]["mana_tokens"].get(mana, 0) == 0
    return s


def check_attack_or_block(game, unit, ability, value, element="physical", mana=None):
    """choice(attack(v), block(v)): option 1 in the Attack phase, option 2 in the Block phase."""
    check_combat(game, unit, ability, "attack", {("melee", element): value}, mana, option=0)
    check_combat(game, unit, ability, "block", {element: value}, mana, option=1)


# -- base game, regular Units ------------------------------------------------------------------

@pytest.mark.covers("peasants", "ability1", "ability2", "ability3", "ability4")
def test_peasants_attack_2_block_2_influence_2_move_2(base):
    """Peasants (units.csv): Attack 2 | Block 2 | Influence 2 | Move 2, no mana."""
    check_combat(base, "peasants", 0, "attack", {("melee", "physical"): 2})
    check_combat(base, "peasants", 1, "block", {"physical": 2})
    s = position(base, "interact", ["peasants"], site="village")
    use(s, 0, 2)
    assert s.to_dict()["turn"]["influence"] == 2 and unit0(s)["ready"] is False
    s = position(base, "move", ["peasants"])
    use(s, 0, 3)
    assert s.to_dict()["turn"]["move_points"] == 2 and unit0(s)["ready"] is False


@pytest.mark.covers("foresters", "ability1", "ability2")
def test_foresters_move_2_with_cheaper_forest_hills_swamp_and_block_3(base):
    """Foresters: 'Move 2 and this turn forest/hills/swamp cost 1 less' | Block 3."""
    s = position(base, "move", ["foresters"])
    use(s, 0, 0)
    t = s.to_dict()["turn"]
    assert t["move_points"] == 2 and terrain_delta(t) == {"forest": -1, "hills": -1, "swamp": -1}
    check_combat(base, "foresters", 1, "block", {"physical": 3})


@pytest.mark.covers("herbalists", "ability3")
def test_herbalists_gain_a_green_mana_token(base):
    s = position(base, "move", ["herbalists"])
    use(s, 0, 2)
    assert s.to_dict()["turn"]["mana_tokens"] == {"green": 1} and unit0(s)["ready"] is False


@pytest.mark.covers("utem_crossbowmen", "ability1.1", "ability1.2", "ability2")
def test_utem_crossbowmen_attack_or_block_3_and_ranged_attack_2(base):
    check_attack_or_block(base, "utem_crossbowmen", 0, 3)
    check_combat(base, "utem_crossbowmen", 1, "ranged", {("ranged", "physical"): 2})


@pytest.mark.covers("utem_swordsmen", "ability1.1", "ability1.2")
def test_utem_swordsmen_attack_or_block_3(base):
    check_attack_or_block(base, "utem_swordsmen", 0, 3)


@pytest.mark.covers("utem_swordsmen", "ability2")
def test_utem_swordsmen_attack_6_then_the_unit_is_wounded(base):
    """'Attack or Block 6, then this unit becomes wounded' (the Block option: see
    tests/test_units_handlers.py): Attack 6 in the Attack phase, the Unit Wounded (12.2)."""
    s = position(base, "attack", ["utem_swordsmen"])
    use(s, 0, 1, option=0)
    assert attack_pool(s) == {("melee", "physical"): 6}
    assert unit0(s)["wounds"] == 1 and unit0(s)["ready"] is False


@pytest.mark.covers("guardian_golems", "ability1.1", "ability1.2", "ability2", "ability3")
def test_guardian_golems_attack_or_block_2_red_fire_block_4_blue_ice_block_4(base):
    check_attack_or_block(base, "guardian_golems", 0, 2)
    check_combat(base, "guardian_golems", 1, "block", {"fire": 4}, mana="red")
    check_combat(base, "guardian_golems", 2, "block", {"ice": 4}, mana="blue")


@pytest.mark.covers("illusionists", "ability1", "ability3")
def test_illusionists_influence_4_and_a_white_crystal(base):
    s = position(base, "interact", ["illusionists"], site="village")
    use(s, 0, 0)
    assert s.to_dict()["turn"]["influence"] == 4
    s = position(base, "move", ["illusionists"])
    use(s, 0, 2)
    assert s.to_dict()["players"][0]["crystals"] == {"red": 0, "blue": 0, "white": 1, "green": 0}
    assert s.to_dict()["turn"]["mana_tokens"] == {} and unit0(s)["ready"] is False


@pytest.mark.covers("illusionists", "ability2")
def test_illusionists_white_one_unfortified_enemy_does_not_attack(base):
    """White mana (5.4.4) pays it; Prowlers flagged 'does not attack this combat': in the
    Block phase nothing is left to block, and no damage is assigned."""
    check_mana_needed(base, "ranged", "illusionists", 1, "white")
    s = position(base, "ranged", ["illusionists"], mana={"white": 1})
    use(s, 0, 1, "white")
    assert s.to_dict()["combat"]["enemies"][0]["flags"] != [] and unit0(s)["ready"] is False
    s.apply(encode("next_phase"))                    # -> Block
    s.apply(encode("next_phase"))                    # -> Damage: nothing attacks
    assert not any(a.startswith("damage_from") for a in actions(s))


@pytest.mark.covers("red_cape_monks", "ability1.1", "ability1.2", "ability2.1", "ability2.2")
def test_red_cape_monks_attack_or_block_3_red_fire_attack_or_block_4(base):
    check_attack_or_block(base, "red_cape_monks", 0, 3)
    check_attack_or_block(base, "red_cape_monks", 1, 4, "fire", mana="red")


@pytest.mark.covers("northern_monks", "ability1.1", "ability1.2", "ability2.1", "ability2.2")
def test_northern_monks_attack_or_block_3_blue_ice_attack_or_block_4(base):
    check_attack_or_block(base, "northern_monks", 0, 3)
    check_attack_or_block(base, "northern_monks", 1, 4, "ice", mana="blue")


@pytest.mark.covers("savage_monks", "ability1.1", "ability1.2", "ability2")
def test_savage_monks_attack_or_block_3_green_siege_attack_4(base):
    check_attack_or_block(base, "savage_monks", 0, 3)
    check_combat(base, "savage_monks", 1, "ranged", {("siege", "physical"): 4}, mana="green")


# -- base game, elite Units --------------------------------------------------------------------

@pytest.mark.covers("fire_golems", "ability1.1", "ability1.2", "ability2")
def test_fire_golems_attack_or_block_3_red_ranged_fire_attack_4(base):
    check_attack_or_block(base, "fire_golems", 0, 3)
    check_combat(base, "fire_golems", 1, "ranged", {("ranged", "fire"): 4}, mana="red")


@pytest.mark.covers("ice_golems", "ability1.1", "ability1.2", "ability2")
def test_ice_golems_attack_or_block_3_blue_ice_attack_6(base):
    """Reading: MKC/YAV's physical Attack or Block 3 for the free ability (units.toml
    conflicts: DIG makes it Ice)."""
    check_attack_or_block(base, "ice_golems", 0, 3)
    check_combat(base, "ice_golems", 1, "attack", {("melee", "ice"): 6}, mana="blue")


@pytest.mark.covers("fire_mages", "ability1", "ability2.1", "ability2.2", "ability3")
def test_fire_mages_ranged_fire_3_red_fire_attack_or_block_6_red_mana_and_crystal(base):
    check_combat(base, "fire_mages", 0, "ranged", {("ranged", "fire"): 3})
    check_attack_or_block(base, "fire_mages", 1, 6, "fire", mana="red")
    s = position(base, "move", ["fire_mages"])
    use(s, 0, 2)
    assert s.to_dict()["turn"]["mana_tokens"] == {"red": 1}
    assert s.to_dict()["players"][0]["crystals"]["red"] == 1 and unit0(s)["ready"] is False


@pytest.mark.covers("ice_mages", "ability1.1", "ability1.2", "ability2", "ability3")
def test_ice_mages_ice_attack_or_block_4_blue_siege_ice_4_blue_mana_and_crystal(base):
    check_attack_or_block(base, "ice_mages", 0, 4, "ice")
    check_combat(base, "ice_mages", 1, "ranged", {("siege", "ice"): 4}, mana="blue")
    s = position(base, "move", ["ice_mages"])
    use(s, 0, 2)
    assert s.to_dict()["turn"]["mana_tokens"] == {"blue": 1}
    assert s.to_dict()["players"][0]["crystals"]["blue"] == 1 and unit0(s)["ready"] is False


@pytest.mark.covers("amotep_gunners", "ability1.1", "ability1.2", "ability2")
def test_amotep_gunners_attack_or_block_5_red_ranged_fire_attack_6(base):
    check_attack_or_block(base, "amotep_gunners", 0, 5)
    check_combat(base, "amotep_gunners", 1, "ranged", {("ranged", "fire"): 6}, mana="red")


@pytest.mark.covers("amotep_freezers", "ability1.1", "ability1.2")
def test_amotep_freezers_attack_or_block_5(base):
    check_attack_or_block(base, "amotep_freezers", 0, 5)


@pytest.mark.covers("amotep_freezers", "ability2")
def test_amotep_freezers_blue_mana_needed(base):
    """The freeze itself: tests/test_units_handlers.py (Armor 3 -> 1, no attack); here its
    blue mana (5.4.4)."""
    check_mana_needed(base, "ranged", "amotep_freezers", 1, "blue")


@pytest.mark.covers("catapults", "ability1", "ability2", "ability3")
def test_catapults_siege_3_red_siege_fire_5_blue_siege_ice_5(base):
    check_combat(base, "catapults", 0, "ranged", {("siege", "physical"): 3})
    check_combat(base, "catapults", 1, "ranged", {("siege", "fire"): 5}, mana="red")
    check_combat(base, "catapults", 2, "ranged", {("siege", "ice"): 5}, mana="blue")


@pytest.mark.covers("altem_mages", "ability1")
def test_altem_mages_gain_two_mana_tokens_of_any_colours(base):
    """'Gain two mana tokens of any colours', each chosen on its own.  Reading (units.toml
    notes): gold and black may be chosen too; using them follows 5.1.5 / 5.1.6."""
    s = position(base, "move", ["altem_mages"])
    use(s, 0, 0)
    assert actions(s) == [f"choose({k})" for k in range(6)]
    s.apply(encode("choose", 1))                     # blue
    s.apply(encode("choose", 1))                     # blue again
    assert s.to_dict()["turn"]["mana_tokens"] == {"blue": 2} and unit0(s)["ready"] is False


# -- Utem Guardsmen and Altem Guardians: both printings (LL-2.10.1, LL-2.10.10) ------------------
# Werewolf (enemies.toml): one Swift physical attack 7 - 14 Block needed (11.6.5).  Wolf Riders:
# Swift attack 3 - 6 needed.  Foresters add a plain Block 3.

def swift_block(game, unit, ability, enemy, helper=None):
    """The Unit's Block (and the helper Foresters' Block 3) against `enemy`: is it blocked?"""
    units = [unit] + ([helper] if helper else [])
    s = position(game, "block", units, (enemy,))
    use(s, 0, ability)
    if helper:
        use(s, 1, 1)
    return "block(0)" in actions(s), s


@pytest.mark.covers("utem_guardsmen", "ability1", "ability2")
def test_utem_guardsmen_base_printing_block_4_strips_swiftness(base):
    """Base printing (ll_changed_cards.csv, card 11/20): Attack 2 | Block 4, the enemy blocked
    this way loses Swiftness: Block 4 stops Wolf Riders (3, Swift); with Foresters' Block 3
    the whole Block 7 counts against the un-doubled attack - the Werewolf (7) is blocked."""
    check_combat(base, "utem_guardsmen", 0, "attack", {("melee", "physical"): 2})
    ok, s = swift_block(base, "utem_guardsmen", 1, "wolf_riders")
    assert ok and block_pool(s) == {"physical": 4} and unit0(s)["ready"] is False
    assert swift_block(base, "utem_guardsmen", 1, "werewolf", "foresters")[0]
    assert not swift_block(base, "peasants", 1, "wolf_riders")[0]      # Block 2 < 6


@pytest.mark.covers("utem_guardsmen", "ability1@ll", "ability2@ll")
def test_utem_guardsmen_lost_legion_printing_block_4_counts_twice_against_swift(ll):
    """Lost Legion printing: Block 4 counting twice against a Swift attack (only this Unit's
    points; the enemy stays Swift): Wolf Riders blocked (8 >= 6); Werewolf with Foresters'
    Block 3: 8 + 3 = 11 < 14, not blocked."""
    check_combat(ll, "utem_guardsmen", 0, "attack", {("melee", "physical"): 2})
    ok, s = swift_block(ll, "utem_guardsmen", 1, "wolf_riders")
    assert ok and block_pool(s) == {"physical": 4}
    assert not swift_block(ll, "utem_guardsmen", 1, "werewolf", "foresters")[0]


@pytest.mark.covers("altem_guardians", "ability1", "ability2")
def test_altem_guardians_base_printing_attack_5_block_8_strips_swiftness(base):
    """Base printing: Block 8 and the blocked enemy loses Swiftness: the Werewolf (7, Swift)
    is blocked by 8 alone."""
    check_combat(base, "altem_guardians", 0, "attack", {("melee", "physical"): 5})
    ok, s = swift_block(base, "altem_guardians", 1, "werewolf")
    assert ok and block_pool(s) == {"physical": 8}


@pytest.mark.covers("altem_guardians", "ability1@ll", "ability2@ll", "ability3@ll")
def test_altem_guardians_lost_legion_printing(ll):
    """Lost Legion printing: Attack 5 | Block 8 counting twice against Swift (the Werewolf,
    14 needed: 16) | green: all Units gain all resistances this turn - Peasants (armor 3)
    then take 3 fire damage without a wound (11.7.5)."""
    check_combat(ll, "altem_guardians", 0, "attack", {("melee", "physical"): 5})
    ok, s = swift_block(ll, "altem_guardians", 1, "werewolf")
    assert ok and block_pool(s) == {"physical": 8}
    check_mana_needed(ll, "ranged", "altem_guardians", 2, "green")
    s = position(ll, "ranged", ["altem_guardians", "peasants"], mana={"green": 1})
    use(s, 0, 2, "green")
    assert unit0(s, 1)["gained_res"] == ["physical", "fire", "ice"]
    assert unit0(s)["ready"] is False


# -- Lost Legion Units ---------------------------------------------------------------------------

@pytest.mark.covers("scouts", "ability1")
def test_scouts_siege_attack_1(ll):
    check_combat(ll, "scouts", 0, "ranged", {("siege", "physical"): 1})


@pytest.mark.covers("thugs", "ability1", "ability2", "ability3")
def test_thugs_block_3_attack_3_and_influence_4_each_with_reputation_minus_1(ll):
    """Thugs: Block 3 | Attack 3 and Reputation -1 | Influence 4 and Reputation -1."""
    check_combat(ll, "thugs", 0, "block", {"physical": 3})
    s = position(ll, "attack", ["thugs"], player={"reputation": 2})
    use(s, 0, 1)
    assert attack_pool(s) == {("melee", "physical"): 3}
    assert s.to_dict()["players"][0]["reputation"] == 1 and unit0(s)["ready"] is False
    s = position(ll, "interact", ["thugs"], site="village", player={"reputation": 2})
    use(s, 0, 2)
    assert s.to_dict()["turn"]["influence"] == 4
    assert s.to_dict()["players"][0]["reputation"] == 1


@pytest.mark.covers("magic_familiars", "ability2", "ability3", "ability4")
def test_magic_familiars_block_move_influence_heal_boosted_by_the_kept_mana(ll):
    """Block 4 (blue kept: 7) | Move or Influence 3 (white kept: 5) | Heal 2 (green kept: 3);
    no mana paid at activation (units.toml notes, LL-4.5.4)."""
    for kept, block in (("blue", 7), ("red", 4)):
        s = position(ll, "block", [{"unit": "magic_familiars", "upkeep": UPKEEP[kept]}])
        use(s, 0, 1)
        assert block_pool(s) == {"physical": block}
    for kept, points in (("white", 5), ("green", 3)):
        s = position(ll, "move", [{"unit": "magic_familiars", "upkeep": UPKEEP[kept]}])
        use(s, 0, 2, option=0)
        assert s.to_dict()["turn"]["move_points"] == points
        s = position(ll, "interact", [{"unit": "magic_familiars", "upkeep": UPKEEP[kept]}], site="village")
        use(s, 0, 2, option=1)
        assert s.to_dict()["turn"]["influence"] == points
    for kept, heal in (("green", 3), ("white", 2)):
        s = position(ll, "move", [{"unit": "magic_familiars", "upkeep": UPKEEP[kept]}])
        use(s, 0, 3)
        assert s.to_dict()["turn"]["healing"] == heal and unit0(s)["ready"] is False


@pytest.mark.covers("sorcerers", "ability1")
def test_sorcerers_ranged_attack_3(ll):
    check_combat(ll, "sorcerers", 0, "ranged", {("ranged", "physical"): 3})


@pytest.mark.covers("sorcerers", "ability2", "ability3")
def test_sorcerers_white_and_green_need_their_mana(ll):
    """The effects: tests/test_units_handlers.py (Diggers lose fortification; Golems lose
    resistance, each with Ranged Attack 3); here the mana (5.4.4)."""
    check_mana_needed(ll, "ranged", "sorcerers", 1, "white", enemies=("diggers",))
    check_mana_needed(ll, "ranged", "sorcerers", 2, "green", enemies=("golems",))


HEROES = ("hero_blue", "hero_red", "hero_green", "hero_white")


@pytest.mark.covers("hero_blue", "ability1.1", "ability1.2", "ability2")
@pytest.mark.covers("hero_red", "ability1.1", "ability1.2")
@pytest.mark.covers("hero_green", "ability1.1", "ability1.2", "ability2")
@pytest.mark.covers("hero_white", "ability1.1", "ability1.2", "ability2")
def test_heroes_attack_or_block_5_and_influence_5_with_reputation_plus_1_in_interaction(ll):
    """Heroes: Attack or Block 5 | Influence 5 (+1 Reputation if used during interaction);
    outside an assault no Influence is needed to use them (LL-4.3.2).  (Hero red's Influence:
    tests/test_units_handlers.py.)"""
    for hero in HEROES:
        check_attack_or_block(ll, hero, 0, 5)
    for hero in ("hero_blue", "hero_green", "hero_white"):
        s = position(ll, "interact", [hero], site="village")
        use(s, 0, 1)
        assert s.to_dict()["turn"]["influence"] == 5
        assert s.to_dict()["players"][0]["reputation"] == 1 and unit0(s)["ready"] is False


@pytest.mark.covers("hero_blue", "ability3")
@pytest.mark.covers("hero_red", "ability3")
@pytest.mark.covers("hero_white", "ability3")
def test_heroes_mana_abilities_blue_coldfire_block_8_red_coldfire_attack_6_white_ranged_7(ll):
    check_combat(ll, "hero_blue", 2, "block", {"coldfire": 8}, mana="blue")
    check_combat(ll, "hero_red", 2, "attack", {("melee", "coldfire"): 6}, mana="red")
    check_combat(ll, "hero_white", 2, "ranged", {("ranged", "physical"): 7}, mana="white")


@pytest.mark.covers("hero_green", "ability3")
def test_hero_green_green_heal_4(ll):
    check_mana_needed(ll, "move", "hero_green", 2, "green")
    s = position(ll, "move", ["hero_green"], mana={"green": 1})
    use(s, 0, 2, "green")
    assert s.to_dict()["turn"]["healing"] == 4 and unit0(s)["ready"] is False
    assert s.to_dict()["turn"]["mana_tokens"] == {}


@pytest.mark.covers("delphana_masters", "ability4")
def test_delphana_masters_white_one_enemy_loses_fortification_and_resistances(ll):
    """White: the Fortified Diggers lose their fortification (Ranged attacks may target them,
    11.5.3) and resistances."""
    check_mana_needed(ll, "ranged", "delphana_masters", 3, "white", enemies=("diggers",))
    s = position(ll, "ranged", ["delphana_masters"], ("diggers",), mana={"white": 1})
    e = s.to_dict()["combat"]["enemies"][0]
    assert e["flags"] == [] and e["unit_fx"] == []
    use(s, 0, 3, "white")
    e = s.to_dict()["combat"]["enemies"][0]
    assert "no_fortification" in e["flags"] and "no_resistances" in e["unit_fx"]


# -- rules every Unit follows, checked for each Unit against units.csv ---------------------------

UNIT_IDS = [u["id"] for u in __import__("mksim.content", fromlist=["x"]).load_content()["units"]]
ALL_MANA = {"red": 1, "blue": 1, "white": 1, "green": 1}


def csv_row(units_csv, content, unit):
    name = next(u["name"] for u in content["units"] if u["id"] == unit)
    return next(r for r in units_csv if r["name"] == name)


@pytest.mark.parametrize("unit", UNIT_IDS)
def test_a_wounded_unit_cannot_be_activated_7_3_7_12_2_2(ll, unit):
    """7.3.7, 12.2.2: with every basic mana at hand, the Unit unwounded has an ability to
    offer in some phase; wounded, none in any phase."""
    phases = ("ranged", "block", "attack", "move")
    ready = 0
    for p in phases:
        s = position(ll, p, [unit], mana=ALL_MANA)
        ready += any(a.startswith("activate_unit") for a in actions(s))
        UnitsTester(s.engine).set_unit(0, unit, wounds=1)
        assert not any(a.startswith("activate_unit") for a in actions(s)), p
    assert ready


@pytest.mark.parametrize("unit", UNIT_IDS)
def test_a_unit_takes_damage_with_its_printed_armor_and_resistances_11_7_4_11_7_5(content, tables, units_csv, unit):
    """11.7.4 / 11.7.5 with the Armor and resistances of units.csv: damage equal to its Armor
    of an element it resists (Cold Fire: fire and ice) leaves it unwounded; of any other
    element it is wounded; Armor + 1 of a resisted element wounds it.  Left over for the
    hero: damage - Armor, or - twice the Armor when resisted (never below 0)."""
    row = csv_row(units_csv, content, unit)
    armor, res = int(row["armor"]), set(filter(None, row["resistances"].split(";")))
    g = UnitGame(content, tables)
    ct = combat(g, ["prowlers"])
    for element in ("physical", "fire", "ice", "coldfire"):
        resisted = ({"fire", "ice"} <= res) if element == "coldfire" else element in res
        for damage in (armor, armor + 1):
            g.ut.set_unit(0, unit)                   # unwounded, not yet damaged (11.7.6)
            left = max(0, damage - (2 * armor if resisted else armor))
            assert ct.assign_to_unit(0, damage, element) == left, (element, damage)
            wounded = not resisted or damage > armor
            assert g.ut.unit(0)["wounds"] == (1 if wounded else 0), (element, damage)


CSV_SITES = ("village", "monastery", "keep", "mage_tower", "city", "magical_glade")
SITE_HEX = {"village": {}, "monastery": {}, "magical_glade": {},
            "keep": {"owner": 0, "flags": ["conquered"]},
            "mage_tower": {"owner": 0, "flags": ["conquered"]},
            "city": {"owner": 0, "flags": ["conquered"], "colours": ["red"]}}   # red: no 'any unit' (10.10)


def at_site(game, site, offer, influence):
    """Interacting (10.2) at `site` with this Unit offer, Influence `influence` (Reputation 0:
    no modifier), one green token for a Magic Familiars' upkeep (LL-4.5.4); None where no
    interaction is possible."""
    hexes = {"1": {"site": site, **SITE_HEX.get(site, {})}}
    s = game.state_from_dict({"format": 1, "phase": "move", "source": BLACK_SOURCE, "unit_offer": offer,
                              "players": [{"position": 1, "units": [], "crystals": {}, "reputation": 0}],
                              "map": {"hexes": hexes}})
    if "interact(0)" not in actions(s):
        return None
    s.apply(encode("interact"))
    set_influence(s, influence)
    return s


def set_influence(s, influence):
    UnitsTester(s.engine).set_turn(influence=influence, mana={"green": 1})


def recruits(s):
    return [] if s is None else [a for a in actions(s) if a.startswith("recruit(")]


def recruit_first(s):
    r = recruits(s)
    s.apply(next(int(a) for a in s.legal_actions() if describe(int(a)) == r[0]))


@pytest.mark.parametrize("unit", UNIT_IDS)
def test_a_unit_is_recruited_at_its_printed_sites_for_its_printed_cost_7_4_10_6(ll, content, units_csv, unit):
    """10.6.1: recruited where one of its site icons (units.csv) matches, for its Influence
    cost (units.csv): not with one less, yes with exactly that much (nothing left); not at a
    site it does not show.  (Refugee camps: see below.)"""
    row = csv_row(units_csv, content, unit)
    cost, sites = int(row["influence_cost"]), set(row["recruit_sites"].split(";"))
    assert sites <= set(CSV_SITES)
    for site in CSV_SITES:
        if site not in sites:
            assert recruits(at_site(ll, site, [unit], cost + 5)) == [], site
            continue
        s = at_site(ll, site, [unit], cost - 1)
        assert recruits(s) == [], site
        set_influence(s, cost)
        assert recruits(s), site
        recruit_first(s)
        assert unit0(s)["unit"] == unit and unit0(s)["ready"] is True and unit0(s)["wounds"] == 0   # 7.2.3
        assert s.to_dict()["turn"]["influence"] == 0


# -- LL-3.4 Refugee Camp: any Unit, at the surcharge printed on the site card ---------------------

def camp_surcharge(sites):
    """LL-3.4.2 from a units.csv site list: village 0, keep / mage tower / monastery +1, city
    only +3 (the cheapest applies).  Magic Familiars' glade icon is neither: monastery, +1."""
    if "village" in sites:
        return 0
    if sites & {"keep", "mage_tower", "monastery"}:
        return 1
    assert sites == {"city"}
    return 3


@pytest.mark.parametrize("unit", UNIT_IDS)
def test_LL_3_4_any_unit_is_recruited_at_a_refugee_camp_at_its_surcharge(ll, content, units_csv, unit):
    """LL-3.4.1-LL-3.4.2: every Unit of the offer, for its units.csv cost plus the surcharge
    (Delphana Masters, city only: +3, LL-4.4.4); not for one Influence less."""
    row = csv_row(units_csv, content, unit)
    price = int(row["influence_cost"]) + camp_surcharge(set(row["recruit_sites"].split(";")))
    s = at_site(ll, "refugee_camp", [unit], price - 1)
    assert recruits(s) == []
    set_influence(s, price)
    recruit_first(s)
    assert unit0(s)["unit"] == unit and s.to_dict()["turn"]["influence"] == 0


def test_LL_3_4_3_refugee_camp_is_an_interaction_with_reputation_and_recruiting_only(ll):
    """LL-3.4.3: the Reputation modifier counts (Reputation -4: Influence -2, reputation.toml)
    and the Thugs rule too (LL-4.2.1: inverted, +2: Thugs 5 paid with Influence 1 + 2 + 2);
    LL-3.4.4 [R]: no Healing, no Advanced Actions or Spells are sold."""
    s = ll.state_from_dict({"format": 1, "phase": "move", "source": BLACK_SOURCE,
                            "unit_offer": ["thugs", "peasants"],
                            "players": [{"position": 1, "units": [], "crystals": {}, "reputation": -4}],
                            "map": {"hexes": {"1": {"site": "refugee_camp"}}}})
    s.apply(encode("interact"))
    assert s.to_dict()["turn"]["influence"] == -2
    UnitsTester(s.engine).set_turn(influence=1)
    assert [a for a in actions(s) if not a.startswith(("play", "sideways"))] == \
        ["recruit(offer=0, disband=-1)", "end_interact(0)"]        # Thugs 5 <= 1 + 4; Peasants 4 > 1
    s.apply(encode("recruit", 0))
    assert unit0(s)["unit"] == "thugs" and s.to_dict()["turn"]["influence"] == 0


# -- LL-4.4.1, LL-4.5.3: the "!" Units are never called to arms or to glory ----------------------

def test_LL_4_5_3_magic_familiars_and_delphana_masters_are_not_called_to_arms(ll):
    """Call to Arms (cards.csv: use one ability of a Unit in the offer): Magic Familiars
    (LL-4.5.3) and Delphana Masters (LL-4.4.1) cannot be its target - only the Peasants."""
    s = position(ll, "attack", [], player={"hand": ["call_to_arms"]}, mana={"white": 1})
    s.core.load_dict({"format": 1, "unit_offer": ["magic_familiars", "delphana_masters", "peasants"]})
    s.apply(encode("play", 0 | (PAY_TOKEN["white"] << 8) | (PAY_NONE << 13)))
    assert actions(s) == ["choose(2)"]


def test_LL_4_5_3_magic_familiars_and_delphana_masters_are_not_called_to_glory(ll):
    """Call to Glory (powered, white + black at Night: recruit any Unit of the offer free):
    not the Magic Familiars nor the Delphana Masters."""
    s = position(ll, "move", [], time="night", player={"hand": ["call_to_arms"]},
                 mana={"white": 1, "black": 1})
    s.core.load_dict({"format": 1, "unit_offer": ["magic_familiars", "delphana_masters", "peasants"]})
    s.apply(encode("play", 0 | (1 << 7) | (PAY_TOKEN["white"] << 8) | (PAY_TOKEN["black"] << 13)))
    assert actions(s) == ["choose(2)"]


@pytest.mark.covers("peasants", "ability2")
def test_peasants_block_only_while_an_attack_is_left_to_block(ll):
    """A Block ability has a use only while an enemy attack is unblocked (issue 8: Banner of
    Glory's Fame +1 came with a Block of nothing): Prowlers blocked by Foresters' Block 3
    and a Block 1 played sideways - the Peasants' Block 2 is no longer offered."""
    s = position(ll, "block", ["foresters", "peasants"], player={"hand": ["march"]})
    assert offered(s, 1, slot=1) == ["activate_unit(unit=1, ability=1, pay=31)"]
    use(s, 0, 1)
    s.apply(encode("sideways", 0 | (3 << 7)))          # Block 1: 4 in all
    s.apply(encode("block", 0))
    assert s.to_dict()["combat"]["enemies"][0]["blocked"]
    assert offered(s, 1, slot=1) == []


@pytest.mark.covers("illusionists", "ability2")
def test_illusionists_not_on_a_site_fortified_enemy(content, tables):
    """'one unfortified enemy': in an assault the garrison is fortified by the site (11.10.1),
    so the white ability has no target - not offered, while its crystal ability is."""
    g = UnitGame(content, tables)
    g.ut.set_unit(0, "illusionists")
    g.ut.start_combat(["prowlers"], assault=1)
    g.ut.set_turn(mana={"white": 1})
    assert g.of_kind("activate_unit") == ["activate_unit(unit=0, ability=2, pay=31)"]


@pytest.mark.covers("fire_golems", "ability2")
def test_fire_golems_red_ability_paid_with_gold_by_day_not_at_night(base):
    """5.1.5: by Day a gold token pays the red mana of Ranged Fire Attack 4; 5.1.6: at Night
    gold cannot be used, so with only a gold token the ability is not offered."""
    s = position(base, "ranged", ["fire_golems"], mana={"gold": 1})
    assert offered(s, 1) == [f"activate_unit(unit=0, ability=1, pay={PAY_TOKEN['gold']})"]
    use(s, 0, 1, "gold")
    assert attack_pool(s) == {("ranged", "fire"): 4} and s.to_dict()["turn"]["mana_tokens"] == {}
    s = position(base, "ranged", ["fire_golems"], mana={"gold": 1}, time="night")
    assert offered(s, 1) == []


@pytest.mark.covers("scouts", "ability2")
def test_scouts_look_at_a_face_down_token_within_3_spaces(ll):
    """'Look at a face-down token within 3 spaces or the top token of an enemy pile' (the
    pile and the Fame: tests/test_units_handlers.py).  Seed 0's map: face-down keep tokens
    on hex 11 and hex 15.  From hex 1 (distances 2 and 3) both are offered after the six
    piles; from hex 6 (distances 1 and 4) only hex 11's."""
    s = position(ll, "move", ["scouts"])
    tokens = {h["index"]: h["tokens"] for t in s.to_dict()["map"]["tiles"] for h in t["hexes"]}
    use(s, 0, 1)
    assert actions(s) == [f"choose({k})" for k in range(8)]
    s = position(ll, "move", ["scouts"], player={"position": 6})
    use(s, 0, 1)
    assert actions(s) == [f"choose({k})" for k in range(7)]
    s.apply(encode("choose", 6))
    assert s.to_dict()["turn"]["recon_token"] - 1 == tokens[11][0]["token"]
    assert unit0(s)["ready"] is False
