"""Conformance of Spells to their printed text (issue 8, deviations found by the audits).
Card texts: ../shared/data/cards.csv and mksim/data/spells.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k cure``)."""
from mksim._engine import UnitsTester, encode

from test_spells_artifacts import BLACK, GREEN, RED, acts, codes, play_code, player, start
from test_spells_handlers import fight, night_spell, tokens


def unit(core, slot=0):
    return player(core)["units"][slot]


# -- Cure (cards.csv #302: "Heal 2; draw a card for each Wound healed from hand this turn and
#    ready each unit healed this turn") ------------------------------------------------------

def test_cure_unit_healed_with_its_points_is_readied(content, tables):
    """Cure's Heal 2 spent on a Spent, wounded Peasants (level 1, 12.3.3): wounds 1 -> 0 and
    the Unit is Ready (7.2.2); 1 Healing point is left."""
    core, eng, sc = start(content, tables, ["cure"], tokens=tokens(GREEN))
    U = UnitsTester(eng)
    U.set_unit(0, "peasants", ready=0, wounds=1)
    eng.apply(play_code(0, 0, pay=GREEN))
    assert core.to_dict()["turn"]["healing"] == 2
    eng.apply(encode("heal_unit", 0))
    u = unit(core)
    assert u["wounds"] == 0 and u["ready"] == 1
    assert core.to_dict()["turn"]["healing"] == 1


def test_cure_readies_a_unit_healed_earlier_in_the_turn(content, tables):
    """"Each unit healed this turn": a Peasants healed (Tranquility's Heal 1, before Cure is
    played) is readied when Cure resolves; a wounded Unit not healed stays Spent."""
    core, eng, sc = start(content, tables, ["tranquility", "cure"], tokens=tokens(GREEN))
    U = UnitsTester(eng)
    U.set_unit(0, "peasants", ready=0, wounds=1)
    U.set_unit(1, "peasants", ready=0, wounds=1)
    eng.apply(play_code(0, 0))                           # Tranquility basic: Heal 1 or draw 1
    eng.apply(encode("choose", 0))                       # Heal 1
    eng.apply(encode("heal_unit", 0))
    assert (unit(core, 0)["wounds"], unit(core, 0)["ready"]) == (0, 0)   # healed, still Spent
    eng.apply(play_code(0, 0, pay=GREEN))                # Cure
    assert unit(core, 0)["ready"] == 1
    assert unit(core, 1)["ready"] == 0 and unit(core, 1)["wounds"] == 1


# -- Demolish / Disintegrate (red; 11.4.2: a red card has no effect but its Attack / Block on
#    a Fire-resistant enemy) ---------------------------------------------------------------------

def test_disintegrate_does_not_destroy_a_fire_resistant_enemy_11_4_2(content, tables):
    """Disintegrate (Night, red + black, Attack phase) against Fire Mages (Armor 5, Fire
    resistance) and Prowlers (Armor 3): only the Prowlers may be destroyed; the Fire Mages'
    Armor stays 5 (its Armor -1 is red too)."""
    core, eng, sc = night_spell(content, tables, ["demolish"], RED)
    T = fight(core, ["fire_mages", "prowlers"], phase="attack")
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    assert acts(eng) == ["choose(1)"]                    # the Prowlers only
    eng.apply(encode("choose", 1))
    assert "defeated" in T.enemy(1)["flags"] and "defeated" not in T.enemy(0)["flags"]
    assert T.enemy_armor(0) == 5


def test_disintegrate_not_playable_against_fire_resistant_enemies_only(content, tables):
    """Against Fire Mages alone Disintegrate would do nothing (11.4.2): not offered."""
    core, eng, sc = night_spell(content, tables, ["demolish"], RED)
    fight(core, ["fire_mages"], phase="attack")
    assert play_code(0, 1, pay=RED, pay2=BLACK) not in codes(eng)


def test_demolish_armor_minus_1_not_on_a_fire_resistant_enemy_11_4_2(content, tables):
    """Demolish basic: Armor -1 on the Prowlers (3 -> 2), none on the Fire Mages (5)."""
    core, eng, sc = start(content, tables, ["demolish"], tokens=tokens(RED))
    T = fight(core, ["fire_mages", "prowlers"])
    eng.apply(play_code(0, 0, pay=RED))
    assert [T.enemy_armor(0), T.enemy_armor(1)] == [5, 2]


# -- Charm in combat (LL-4.3.4; card: "Influence 4; during interaction also ...") -------------

def test_charm_influence_4_in_combat_to_pay_thugs_no_crystal(content, tables):
    """Charm basic (white token) in the Block phase with unpaid Thugs: Influence 4, usable
    to pay them (LL-4.3.4); its crystal / discount is for interactions only - no question,
    no crystal."""
    from interaction_setup import Game, PAY_TOKEN
    from test_units_handlers import combat, to_block
    g = Game(content, tables, hand=["charm"])
    g.ut.set_unit(0, "thugs")
    combat(g, ["prowlers"])
    to_block(g)
    g.ut.set_turn(mana={"white": 1})
    g.play(0, pay=PAY_TOKEN["white"])
    assert not any(a.startswith("choose") for a in g.actions())
    assert g.turn["influence"] == 4
    assert g.player["crystals"] == {"red": 0, "blue": 0, "white": 0, "green": 0}
    g.do("pay_unit", 0)
    assert g.ut.unit_extras(0)["paid"]


def test_charm_in_interaction_still_gives_its_crystal(content, tables):
    from interaction_setup import Game, PAY_TOKEN
    g = Game(content, tables, site="village", hand=["charm"])
    g.do("interact")
    g.ut.set_turn(mana={"white": 1})
    g.play(0, pay=PAY_TOKEN["white"])
    g.do("choose", 2)                                    # a white crystal
    assert g.player["crystals"]["white"] == 1


# -- Burning Shield / Exploding Shield (red; 11.4.2) ---------------------------------------------

def test_burning_shield_exploding_shield_does_not_destroy_a_fire_resistant_enemy(content, tables):
    """Exploding Shield (Night, red + black): Fire Block 4 with Ice Block 6 blocks the Fire
    Mages' Fire Attack 6 (ice blocks fire in full, 11.6.5), but its "destroy the blocked
    enemy" is a red effect: the Fire-resistant Fire Mages stay (blocked, not defeated)."""
    core, eng, sc = night_spell(content, tables, ["burning_shield"], RED)
    T = fight(core, ["fire_mages"], phase="block")
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    T.set_block("ice", 6)
    eng.apply(encode("block", 0))
    e = T.enemy(0)
    assert "defeated" not in e["flags"] and e["blocked"] == 1
