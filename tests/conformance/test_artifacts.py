"""Conformance of Artifacts to their printed text (issue 8, deviations found by the audits).
Card texts: ../shared/data/cards.csv and mksim/data/artifacts.toml; rules
../shared/rules/mage-knight-base.md and lost-legion.md.  Test ids carry the content id
(``pytest -k tome_of_all_spells``)."""
from mksim._engine import UnitsTester, encode

from test_spells_artifacts import RED, acts, play_code, start
from test_spells_handlers import fight, tokens


# -- Tome of All Spells (LL-9.6.3, LL-9.7.22: the borrowed Spell keeps its colour) ------------

def test_tome_of_all_spells_disintegrate_stays_red_ll_9_7_22(content, tables):
    """Tome of All Spells powered (a red token), Rage discarded: Disintegrate from the offer
    is a red effect although no red mana paid for it, so it neither destroys the Fire Mages
    nor lowers their Armor (11.4.2): the Prowlers are the only target; Fire Mages Armor 5."""
    core, eng, sc = start(content, tables, ["tome_of_all_spells", "rage"], tokens=tokens(RED))
    UnitsTester(eng).set_spell_offer(["demolish", "snowstorm", "tremor"])
    T = fight(core, ["fire_mages", "prowlers"], phase="attack")
    assert play_code(0, 1, pay=RED) not in eng.legal_actions()   # an Artifact's powered effect
    eng.apply(play_code(0, 1))                           # costs no mana (6.1.5: thrown away)
    eng.apply(encode("choose", 0))                       # discard Rage (red)
    eng.apply(encode("choose", 0))                       # Disintegrate (offer slot 0)
    assert acts(eng) == ["choose(1)"]                    # the Prowlers only
    eng.apply(encode("choose", 1))
    assert "defeated" in T.enemy(1)["flags"] and "defeated" not in T.enemy(0)["flags"]
    assert T.enemy_armor(0) == 5


def test_tome_of_all_spells_demolish_armor_minus_1_spares_fire_mages(content, tables):
    """The Tome's basic effect with Demolish: Armor -1 on the Prowlers (3 -> 2) only."""
    core, eng, sc = start(content, tables, ["tome_of_all_spells", "rage"])
    UnitsTester(eng).set_spell_offer(["demolish", "snowstorm", "tremor"])
    T = fight(core, ["fire_mages", "prowlers"])
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", 0))                       # discard Rage
    eng.apply(encode("choose", 0))                       # Demolish
    assert [T.enemy_armor(0), T.enemy_armor(1)] == [5, 2]


# -- Banner of Glory ("Fame +1 whenever it attacks or blocks"; 11.6) --------------------------

def test_banner_of_glory_no_fame_for_a_block_with_nothing_left_to_block(content, tables):
    """Peasants with the Banner of Glory, the Prowlers' only attack already blocked: the
    Peasants' Block is not offered (a Block with no attack left has no use, 11.6.1), so no
    Fame +1 for it; their Attack stays for the Attack phase.  Before the block it is offered."""
    from test_artifacts_handlers import attach, combat, start as banner_start
    core, eng, U = banner_start(content, tables, ["banner_of_glory"], units=[("peasants", 1)])
    attach(eng, 0)
    T = combat(core, ["prowlers"], phase="block")
    block = encode("activate_unit", 0 | (1 << 3) | (31 << 7))
    assert block in [int(a) for a in eng.legal_actions()]
    T.set_block("physical", 4)
    eng.apply(encode("block", 0))                        # Prowlers (Attack 4) blocked
    fame0 = core.to_dict()["players"][0]["fame"]
    assert block not in [int(a) for a in eng.legal_actions()]
    assert core.to_dict()["players"][0]["fame"] == fame0
