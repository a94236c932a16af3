"""Conformance of Skills to their printed text (issue 8, deviations found by the audits).
Skill texts: ../shared/data/skills.csv and mksim/data/skills.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k bonds_of_loyalty``)."""
from mksim import content as _ct

from test_skills_handlers import BONDS_RECRUIT, game


def bonds_village(content, tables, offer, reputation=0):
    """Norowas with Bonds of Loyalty at a village, one Unit on his one Command token."""
    g = game(content, tables, ["norowas_bonds_of_loyalty"], hero="norowas",
             site=_ct.SITE_IDS.index("village"), reputation=reputation)
    g.ut.set_unit(0, "peasants")
    g.ut.set_unit_offer(offer)
    g.do("interact")
    return g


def test_norowas_bonds_of_loyalty_recruits_thugs_with_the_modifier_inverted(content, tables):
    """Bonds of Loyalty ("the unit under it costs 5 less Influence"; skills.csv) and Thugs
    (LL-4.2.1: the Reputation modifier inverted): Reputation -4 gives Influence -2 at the
    start; recruiting the Thugs (5 - 5 = 0) under the token turns it into +2 - Influence 2
    left.  No rule keeps Thugs from the Bonds token."""
    g = bonds_village(content, tables, ["thugs", "peasants"], reputation=-4)
    assert g.turn["influence"] == -2
    assert "recruit(offer=0, bonds=1)" in g.of_kind("recruit")
    g.do("recruit", 0 | BONDS_RECRUIT)
    assert [u["unit"] for u in g.player["units"]][:2] == ["peasants", "thugs"]
    assert g.turn["influence"] == 2
    assert g.ut.units_turn["recruit_mode"] == 1          # Thugs: no Heroes now (LL-4.2.4)


def test_norowas_bonds_of_loyalty_recruits_heroes_at_5_less(content, tables):
    """Heroes (blue; cost 9, units.csv) under the Bonds token: 9 - 5 = 4 Influence; with
    Reputation 0 no modifier (LL-4.2.2 doubles nothing)."""
    g = bonds_village(content, tables, ["hero_blue"])
    g.ut.set_turn(influence=3)
    assert "recruit(offer=0, bonds=1)" not in g.of_kind("recruit")
    g.ut.set_turn(influence=4)
    assert "recruit(offer=0, bonds=1)" in g.of_kind("recruit")
    g.do("recruit", 0 | BONDS_RECRUIT)
    assert g.player["units"][1]["unit"] == "hero_blue" and g.turn["influence"] == 0
