"""Ruins altars (10.7.10.2, 21.2 A23): pay the tribute as the turn's action for Fame."""
from mksim import content as ct
from mksim._rules import Rules
from interaction_setup import Game, PAY_NONE


def altar_game(content, tables, crystals, token="altar_green"):
    g = Game(content, tables)
    Rules(g.core).set_hex(g.pos, site=ct.SITE_IDS.index("ancient_ruins"),
                          ruins=content.ids("ruins").index(token), flags=0, owner=-1)
    g.sc.set_crystals(0, crystals)
    return g


def test_10_7_10_2_an_altar_is_offered_only_when_its_tribute_can_be_paid(content, tables):
    g = altar_game(content, tables, [0, 0, 0, 2])
    assert g.of_kind("altar") == []                       # 3 green needed (21.2 A23)


def test_10_7_10_2_paying_three_green_gives_7_fame_and_a_shield(content, tables):
    g = altar_game(content, tables, [0, 0, 0, 3])
    offers = g.of_kind("altar")
    crystal_green = 6 + 3                                 # payment code: crystal of green
    seq = crystal_green | (crystal_green << 5) | (crystal_green << 10) | (PAY_NONE << 15)
    assert f"altar({seq})" in offers
    g.do("altar", seq)
    p = g.player
    assert p["fame"] == 7 and p["crystals"].get("green", 0) == 0
    hx = [h for t in g.d["map"]["tiles"] for h in t["hexes"] if h["index"] == g.pos][0]
    assert hx["owner"] == 0 and "conquered" in hx["flags"]
    assert g.of_kind("altar") == []                       # the action is taken (4.4.5)
