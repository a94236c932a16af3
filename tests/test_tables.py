"""Compilation of content into numeric tables (mksim/tables.py)."""
from __future__ import annotations

import numpy as np
import pytest

from content_edit import write_override
from effect_rows import decode
from mksim import content as ct
from mksim import effects as fx
from mksim import tables as tb
from mksim.content import load_content
from mksim.effects import Node

CARD_KINDS = ("basic_actions", "advanced_actions", "spells", "artifacts", "wound")


def _arrays(t):
    return {name: v for name, v in vars(t).items() if isinstance(v, np.ndarray)}


def test_tables_are_int32_c_contiguous_with_named_columns(tables):
    for name, arr in _arrays(tables).items():
        assert arr.dtype == np.int32, name
        assert arr.flags["C_CONTIGUOUS"], name
    for table, cols in tables.columns.items():
        arr = tables.effects if table == "effects" else getattr(tables, table)
        assert arr.ndim == 2 and arr.shape[1] == len(cols), table
    assert tables.nbytes() == sum(a.nbytes for a in _arrays(tables).values())


def test_row_counts_equal_entry_counts(content, tables):
    # 111 cards = 22 basic actions + 40 AAs (LL-2.4.1) + 24 spells (LL-2.4.2) + 24 artifacts
    # (LL-2.4.3) + the Wound; 30 unit and 51 enemy rows = base + LL rows of units.csv / enemies.csv;
    # 27 tiles (tiles.csv); 10 levels (13.6.2); 12 tactics (1.2.12); 55 skills = 5 x 10 (1.3.9)
    # + 5 cooperative, one per hero (LL-2.8.1)
    assert len(tables.cards) == len(tables.card_ids) == sum(len(content[k]) for k in CARD_KINDS) == 111
    assert tables.card_ids == [e["id"] for k in CARD_KINDS for e in content[k]]
    assert len(tables.units) == len(content["units"]) == 30
    assert len(tables.unit_abilities) == sum(len(u["abilities"]) for u in content["units"])
    assert len(tables.enemies) == len(content["enemies"]) == 51
    assert len(tables.tiles) == len(content["tiles"]) == 27
    assert len(tables.levels) == len(content["levels"]) == 10
    assert len(tables.tactics) == len(content["tactics"]) == 12
    assert len(tables.skills) == len(content["skills"]) == 55
    assert tables.unit_ids == content.ids("units")
    assert tables.enemy_ids == content.ids("enemies")
    assert tables.tile_ids == content.ids("tiles")
    assert tables.hero_ids == content.ids("heroes")
    assert tables.reputation.shape == (16,)


def _enemy(tables, eid, column):
    return int(tables.enemies[tables.enemy_ids.index(eid), tables.col("enemies", column)])


def test_enemy_columns_decode(tables):
    assert _enemy(tables, "prowlers", "armor") == 3
    assert _enemy(tables, "prowlers", "fame") == 2
    assert _enemy(tables, "prowlers", "n_attacks") == 1
    assert _enemy(tables, "prowlers", "attack0") == 4
    assert _enemy(tables, "prowlers", "colour") == ct.ENEMY_COLOURS.index("green")
    assert _enemy(tables, "storm_dragon", "armor_elusive") == 14
    assert _enemy(tables, "hydra", "n_attacks") == 3
    assert [_enemy(tables, "heroes_fire", f"attack{i}") for i in range(3)] == [4, 2, 0]
    assert _enemy(tables, "heroes_fire", "element1") == fx.ELEMENTS.index("fire")
    assert _enemy(tables, "dragon_summoner", "summons") == 2
    assert _enemy(tables, "dragon_summoner", "summon_pile") == ct.ENEMY_COLOURS.index("brown")
    assert _enemy(tables, "prowlers", "summon_pile") == -1


def _bits_to_words(mask, vocab):
    return [w for i, w in enumerate(vocab) if mask >> i & 1]


def test_every_enemy_row_decodes_to_its_entry(content, tables):
    for e in content["enemies"]:
        row = dict(zip(tables.columns["enemies"], (int(x) for x in tables.enemies[tables.enemy_ids.index(e["id"])])))
        assert row["armor"] == e["armor"] and row["fame"] == e["fame"] and row["copies"] == e["copies"]
        assert row["armor_elusive"] == e.get("armor_elusive", 0)
        assert row["n_attacks"] == len(e["attacks"])
        for i, a in enumerate(e["attacks"]):
            assert row[f"attack{i}"] == a["value"] and fx.ELEMENTS[row[f"element{i}"]] == a["element"]
        assert ct.ENEMY_COLOURS[row["colour"]] == e["colour"]
        assert sorted(_bits_to_words(row["abilities"], ct.ENEMY_ABILITIES)) == sorted(e["abilities"])
        assert sorted(_bits_to_words(row["resistances"], ct.RESISTANCES)) == sorted(e["resistances"])
        assert ct.EXPANSIONS[row["expansion"]] == e["expansion"]
        assert row["reputation"] == e.get("reputation", 0)


def _card(tables, cid, column):
    return int(tables.cards[tables.card_ids.index(cid), tables.col("cards", column)])


def test_rage_effect_rows(tables):
    basic = _card(tables, "rage", "basic")
    powered = _card(tables, "rage", "powered")
    assert tables.effects[basic, 0] == fx.OP_CODES["choice"]
    assert tables.effects[basic, 5] == 2  # two children
    first = tables.effects[basic, 4]
    assert [int(tables.effects[first + k, 0]) for k in range(2)] == [fx.OP_CODES["attack"], fx.OP_CODES["block"]]
    assert list(tables.effects[powered]) == [fx.OP_CODES["attack"], 4, 0, 0, 0, 0]
    assert _card(tables, "rage", "copies") == 2
    assert _card(tables, "rage", "colour") == fx.CARD_COLOURS.index("red")
    assert _card(tables, "rage", "deck") == tb.DECK_TYPES.index("basic_action")


def _plain(node):
    """Replace handler word arguments not named like a word list (e.g. resistance=fire) by a
    placeholder: their code is only defined as 'the first list holding the word'."""
    args = {}
    for k, v in node.args.items():
        if isinstance(v, Node):
            v = _plain(v)
        elif (node.op == "handler" and k not in ("name", "time") and k not in fx.ENUMS
              and isinstance(v, (str, tuple))):
            v = "<word>"
        args[k] = v
    return Node(node.op, args, [_plain(c) for c in node.children])


def _decode(tables, row):
    return _plain(decode(tables.effects, tables.handlers, tables.handler_arg_keys,
                         tables.handler_args.tolist(), row))


def test_every_compiled_effect_decodes_to_its_parsed_expression(content, tables):
    checked = 0
    for kind in CARD_KINDS:
        for e in content[kind]:
            for fld in ("basic", "powered"):
                row = _card(tables, e["id"], fld)
                assert row > 0
                assert _decode(tables, row) == _plain(content.parsed[(kind, e["id"], fld)]), (e["id"], fld)
                checked += 1
    for i, t in enumerate(content["tactics"]):
        row = int(tables.tactics[i, tables.col("tactics", "effect")])
        assert _decode(tables, row) == _plain(content.parsed[("tactics", t["id"], "effect")])
        checked += 1
    for i, s in enumerate(content["skills"]):
        row = int(tables.skills[i, tables.col("skills", "effect")])
        assert _decode(tables, row) == _plain(content.parsed[("skills", s["id"], "effect")])
        checked += 1
    for i, u in enumerate(content["units"]):
        first = int(tables.units[i, tables.col("units", "first_ability")])
        assert int(tables.units[i, tables.col("units", "n_abilities")]) == len(u["abilities"])
        for j, ab in enumerate(u["abilities"]):
            row = int(tables.unit_abilities[first + j, 0])
            assert _decode(tables, row) == _plain(content.parsed[("units", u["id"], f"abilities[{j}].effect")])
            mana = int(tables.unit_abilities[first + j, 1])
            assert (fx.MANA_COLOURS[mana] if mana >= 0 else None) == ab.get("mana")
            checked += 1
    # the Lost Legion printings (ll_printing, LL-2.10.2) are compiled in the LL tables
    assert checked == len([k for k in content.parsed if not k[2].startswith("ll_printing.")])


def test_effect_table_is_a_forest_of_well_formed_rows(tables):
    eff = tables.effects
    assert list(eff[0]) == [0, 0, 0, 0, 0, 0]
    parents = np.zeros(len(eff), dtype=int)
    for op, _a0, _a1, _a2, first, n in eff.tolist():
        assert 0 <= op < len(fx.OPS)
        if n:
            assert 0 < first and first + n <= len(eff)
            parents[first:first + n] += 1
    assert parents.max() == 1  # no row is the child of two rows
    roots = {int(x) for x in tables.cards[:, [tables.col("cards", "basic"), tables.col("cards", "powered")]].ravel()}
    roots |= {int(x) for x in tables.tactics[:, tables.col("tactics", "effect")]}
    roots |= {int(x) for x in tables.skills[:, tables.col("skills", "effect")]}
    roots |= {int(x) for x in tables.unit_abilities[:, 0]}
    non_children = {i for i in range(1, len(eff)) if parents[i] == 0}
    assert non_children == roots  # every row is used, and roots are nobody's child


def test_hero_card_columns(tables):
    bv = tables.card_ids.index("battle_versatility")
    assert tables.cards[bv, tables.col("cards", "hero")] == tables.hero_ids.index("arythea")
    assert tables.cards[bv, tables.col("cards", "replaces")] == tables.card_ids.index("rage")
    mp = tables.card_ids.index("mana_pull")
    assert tables.cards[mp, tables.col("cards", "edition")] == ct.EXPANSIONS.index("lost_legion")
    assert tables.cards[tables.card_ids.index("rage"), tables.col("cards", "hero")] == -1
    assert tables.cards[tables.card_ids.index("rage"), tables.col("cards", "replaces")] == -1


def test_interactive_and_banner_flags(content, tables):
    interactive = [cid for cid in tables.card_ids if _card(tables, cid, "interactive")]
    assert sorted(interactive) == sorted(e["id"] for e in content["spells"] if e["interactive"])
    banners = [cid for cid in tables.card_ids if _card(tables, cid, "banner")]
    assert sorted(banners) == sorted(e["id"] for e in content["artifacts"] if e["banner"])
    assert all(cid.startswith("banner_") for cid in banners) and len(banners) == 6


def test_unit_columns(content, tables):
    for i, u in enumerate(content["units"]):
        row = dict(zip(tables.columns["units"], (int(x) for x in tables.units[i])))
        assert (row["level"], row["cost"], row["armor"], row["copies"]) == (u["level"], u["cost"], u["armor"], u["copies"])
        assert ct.UNIT_TIERS[row["tier"]] == u["tier"]
        assert sorted(_bits_to_words(row["sites"], ct.SITE_IDS)) == sorted(u["recruit_sites"])
        assert sorted(_bits_to_words(row["resistances"], ct.RESISTANCES)) == sorted(u["resistances"])
    peasants = tables.unit_ids.index("peasants")
    assert tables.units[peasants, tables.col("units", "cost")] == 4


def test_tile_columns(content, tables):
    for i, t in enumerate(content["tiles"]):
        row = dict(zip(tables.columns["tiles"], (int(x) for x in tables.tiles[i])))
        assert [fx.TERRAINS[row[f"terrain{k}"]] for k in range(7)] == [h["terrain"] for h in t["hexes"]]
        assert [ct.SITE_IDS[row[f"site{k}"]] if row[f"site{k}"] >= 0 else None for k in range(7)] == [
            h.get("site") for h in t["hexes"]]
        assert ct.TILE_KINDS[row["kind"]] == t["kind"]
        assert row["number"] == t.get("number", 0)
    c5 = tables.tile_ids.index("core_5")
    assert tables.tiles[c5, tables.col("tiles", "city")] == fx.BASIC_COLOURS.index("green")
    c10 = tables.tile_ids.index("core_10")
    masks = [int(tables.tiles[c10, tables.col("tiles", f"colours{k}")]) for k in range(7)]
    assert 0b1111 in masks  # the four-colour deep mine (LL-2.6.4)


def test_level_and_reputation_tables(tables):
    assert tables.levels[:, tables.col("levels", "fame")].tolist() == [lv * lv - 1 for lv in range(1, 11)]  # 13.6.2
    assert tables.levels[:, tables.col("levels", "command_tokens")].tolist() == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    rep = tables.reputation.tolist()
    assert rep[0] == tb.NO_INTERACTION  # position -7: X
    assert rep[-2 + 7] == -1 and rep[-4 + 7] == -2  # 10.3.1
    assert rep[0 + 7] == 0 and rep[8 + 7] == 5


def test_tactic_and_skill_columns(content, tables):
    for i, t in enumerate(content["tactics"]):
        assert fx.TIMES[tables.tactics[i, 0]] == t["time"] and tables.tactics[i, 1] == t["number"]
    for i, s in enumerate(content["skills"]):
        assert tables.hero_ids[tables.skills[i, tables.col("skills", "hero")]] == s["hero"]
        assert ct.SKILL_USAGE[tables.skills[i, tables.col("skills", "usage")]] == s["usage"]


def test_compile_is_deterministic(content, tables):
    again = content.compile()
    for name, arr in _arrays(tables).items():
        assert np.array_equal(arr, getattr(again, name)), name
    assert again.handlers == tables.handlers and again.handler_arg_keys == tables.handler_arg_keys


def test_compiled_override_changes_the_table(tmp_path):
    ov = write_override(tmp_path, "[enemies.prowlers]\narmor = 4\n")
    t = load_content(ov).compile()
    assert t.enemies[t.enemy_ids.index("prowlers"), t.col("enemies", "armor")] == 4


def test_col_of_an_unknown_column_raises(tables):
    with pytest.raises(ValueError):
        tables.col("enemies", "speed")
