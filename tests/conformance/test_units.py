"""Conformance of Unit abilities to their printed text (issue 8, deviations found by the
audits).  Unit texts: ../shared/data/units.csv and mksim/data/units.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k scouts``)."""
from mksim._engine import encode
from mksim.game import Game

from interaction_setup import Game as UnitGame, PAY_TOKEN
from test_rule_breaks import COMBAT, acts, at, play
from test_units_handlers import combat


def activate(slot, ability, pay=31):
    return encode("activate_unit", slot | (ability << 3) | (pay << 7))


# -- Scouts (LL-4.6.1, LL-9.7.10: Move points usable in combat, the tile reveal not) -----------

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

def test_delphana_masters_red_destroy_not_on_a_fire_resistant_enemy(content, tables):
    """Red ability 'destroy one enemy if blocked': Fire Mages and Prowlers - only the
    Prowlers can be named (no question)."""
    g = UnitGame(content, tables)
    g.ut.set_unit(0, "delphana_masters")
    combat(g, ["fire_mages", "prowlers"])
    g.ut.set_turn(mana={"red": 1})
    g.activate(0, 1, pay=PAY_TOKEN["red"])
    assert g.ut.enemy_unit_fx(0) == [] and g.ut.enemy_unit_fx(1) == ["destroy_if_blocked"]


def test_delphana_masters_blue_no_attack_not_on_an_ice_resistant_enemy(content, tables):
    """Blue ability 'one enemy does not attack': Ice Mages (Ice resistance) and Prowlers -
    the Prowlers are the one chosen without a question; the Ice Mages still attack."""
    g = UnitGame(content, tables)
    g.ut.set_unit(0, "delphana_masters")
    ct = combat(g, ["ice_mages", "prowlers"])
    g.ut.set_turn(mana={"blue": 1})
    g.activate(0, 0, pay=PAY_TOKEN["blue"])
    assert "no_attack" in ct.enemy(1)["flags"] and "no_attack" not in ct.enemy(0)["flags"]
