"""Content catalogue and loader (mksim/content.py, mksim/data/*.toml).

Component counts are counted here from the loaded entries, independently of
``mksim.content.COUNT_CHECKS``, and each test cites the rule (or SOURCES.md line) it checks.
"""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from content_edit import BAD_CASES, remove_entry, set_field, write_override
from mksim.content import DATA_DIR, FILES, KINDS, ContentError, load_content

HEROES = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")


def by_name(entries):
    return {e["name"]: e for e in entries}


def split(value: str, sep: str = ";") -> list[str]:
    return [x for x in value.split(sep) if x]


# ---------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------


def test_every_kind_is_loaded_from_its_file(content):
    assert set(content.entries) == set(KINDS)
    shipped = {p.name for p in DATA_DIR.glob("*.toml")}
    assert shipped == set(FILES)
    for fname, origin in content.origin.items():
        assert origin == f"mksim/data/{fname}"


def test_loading_twice_gives_equal_entries(content):
    again = load_content()
    assert again.entries == content.entries
    assert again.origin == content.origin
    assert again.parsed == content.parsed
    again.entries["enemies"][0]["armor"] = 99  # entries are independent copies
    assert load_content().entries["enemies"][0]["armor"] != 99


def test_ids_are_unique_within_each_kind(content):
    for kind in KINDS:
        ids = content.ids(kind)
        assert len(ids) == len(set(ids)), kind


def test_get_and_find(content):
    assert content.get("enemies", "prowlers")["name"] == "Prowlers"
    with pytest.raises(KeyError):
        content.get("enemies", "gremlins")
    # find matches id, name and a spell's powered name, case-insensitively
    assert [(k, e["id"]) for k, e in content.find("Fire Bolt")] == [("advanced_actions", "fire_bolt")]
    assert [(k, e["id"]) for k, e in content.find("firestorm")] == [("spells", "fireball")]
    assert content.find("no such thing") == []


def test_every_effect_field_is_parsed(content):
    effect_fields = 0
    for kind, k in KINDS.items():
        for e in content[kind]:
            for name, spec in k.fields.items():
                if spec.type == "effect" and name in e:
                    effect_fields += 1
                    assert (kind, str(k.key(e)), name) in content.parsed
    abilities = sum(len(u["abilities"]) for u in content["units"])
    # LL-2.10: the Lost Legion printings (ll_printing) of changed cards and units are parsed too
    printed = 0
    for kind, k in KINDS.items():
        for e in content[kind]:
            lp = e.get("ll_printing", {})
            for name in ("basic", "powered"):
                if name in lp:
                    printed += 1
                    assert (kind, str(k.key(e)), "ll_printing." + name) in content.parsed
            if kind == "units":
                printed += len(lp.get("abilities", []))
    assert printed > 0
    assert len(content.parsed) == effect_fields + abilities + printed


# ---------------------------------------------------------------------------------------
# Heroes and starting decks
# ---------------------------------------------------------------------------------------


def test_heroes_four_base_plus_wolfhawk_rule_1_1_2_LL_2_2_1(content):
    assert sorted(h["id"] for h in content["heroes"] if h["expansion"] == "base") == [
        "arythea", "goldyx", "norowas", "tovak"]
    assert [h["id"] for h in content["heroes"] if h["expansion"] == "lost_legion"] == ["wolfhawk"]


def test_standard_basic_actions_sum_to_16_copies_rule_1_3_4(content):
    standard = [e for e in content["basic_actions"] if "hero" not in e]
    assert sum(e["copies"] for e in standard) == 16
    assert all(e["expansion"] == "base" for e in standard)


def _deck(entries, hero, lost_legion):
    """Starting deck built from the raw entries (data README: a hero card replaces one copy)."""
    deck = Counter()
    for e in entries:
        if "hero" not in e:
            deck[e["id"]] += e["copies"]
    for e in entries:
        if e.get("hero") == hero and (e.get("edition", "base") == "base" or lost_legion):
            assert deck[e["replaces"]] > 0, (hero, e["id"])
            deck[e["replaces"]] -= 1
            deck[e["id"]] += 1
    return +deck


@pytest.mark.parametrize("lost_legion", [False, True], ids=["base", "lost_legion"])
@pytest.mark.parametrize("hero", HEROES)
def test_starting_deck_is_16_cards_rule_1_3_4_LL_2_3_3(content, hero, lost_legion):
    deck = _deck(content["basic_actions"], hero, lost_legion)
    assert sum(deck.values()) == 16
    got = content.hero_deck(hero, lost_legion)
    assert len(got) == 16
    assert Counter(got) == deck


def test_arythea_base_deck_has_one_rage_and_one_battle_versatility(content):
    deck = Counter(content.hero_deck("arythea"))
    assert deck["rage"] == 1
    assert deck["battle_versatility"] == 1
    names = Counter(content.get("basic_actions", cid)["name"] for cid in content.hero_deck("arythea"))
    assert names["Rage"] == 1 and names["Battle Versatility"] == 1


# LL-2.3.5 (with the base unique cards it names) and LL-2.2.3 for Wolfhawk.
UNIQUE_BASE = {"arythea": {"Battle Versatility"}, "goldyx": {"Will Focus"}, "norowas": {"Noble Manners"},
               "tovak": {"Cold Toughness"}, "wolfhawk": {"Swift Reflexes", "Tirelessness"}}
UNIQUE_LL = {"arythea": ("Mana Pull", "Mana Draw"), "goldyx": ("Crystal Joy", "Crystallize"),
             "norowas": ("Rejuvenate", "Tranquility"), "tovak": ("Instinct", "Improvisation")}


@pytest.mark.parametrize("hero", HEROES)
def test_unique_cards_in_each_deck_LL_2_3(content, hero):
    def unique(ll):
        return {content.get("basic_actions", c)["name"] for c in content.hero_deck(hero, ll)
                if "hero" in content.get("basic_actions", c)}
    assert unique(False) == UNIQUE_BASE[hero]
    with_ll = unique(True)
    assert len(with_ll) == 2  # LL-2.3.3: each hero now has two unique cards
    if hero in UNIQUE_LL:
        new, replaced = UNIQUE_LL[hero]
        assert with_ll == UNIQUE_BASE[hero] | {new}
        # LL-2.3.2: the replaced card is removed from that hero's deck
        names = Counter(content.get("basic_actions", c)["name"] for c in content.hero_deck(hero, True))
        base_names = Counter(content.get("basic_actions", c)["name"] for c in content.hero_deck(hero, False))
        assert names[replaced] == base_names[replaced] - 1
        assert names[new] == 1


def test_hero_cards_belong_to_known_heroes_and_have_one_copy(content):
    hero_cards = [e for e in content["basic_actions"] if "hero" in e]
    assert len(hero_cards) == 10  # 4 base unique + 4 LL-2.3 + Wolfhawk's 2 (LL-2.2.1)
    assert all(e["copies"] == 1 and e["hero"] in HEROES for e in hero_cards)


# ---------------------------------------------------------------------------------------
# Deed cards: Advanced Actions, Spells, Artifacts, Wound
# ---------------------------------------------------------------------------------------


def _split_counts(entries):
    return Counter(e["expansion"] for e in entries)


def test_advanced_actions_28_base_12_lost_legion_LL_2_4_1(content):
    # LL-2.4.1: Lost Legion AAs are numbered 29/40-40/40, so the base game has 28
    assert _split_counts(content["advanced_actions"]) == {"base": 28, "lost_legion": 12}


def test_lost_legion_advanced_actions_names_and_colours_LL_2_4_5(content):
    want = {"Counterattack": "red", "Ritual Attack": "red", "Blood of Ancients": "red",
            "Shield Bash": "blue", "Temporal Portal": "blue", "Spell Forge": "blue",
            "Chivalry": "white", "Peaceful Moment": "white", "Dodge and Weave": "white",
            "Stout Resolve": "green", "Force of Nature": "green", "Mountain Lore": "green"}
    got = {e["name"]: e["colour"] for e in content["advanced_actions"] if e["expansion"] == "lost_legion"}
    assert got == want


def test_card_numbers_follow_the_ultimate_edition_blocks_SOURCES_md(content):
    # SOURCES.md: base AAs 65-92, spells 93-112, artifacts 113-128; LL AAs 287-298,
    # spells 299-302, artifacts 303-310 (two base AA numbers are not established).
    blocks = {"advanced_actions": {"base": range(65, 93), "lost_legion": range(287, 299)},
              "spells": {"base": range(93, 113), "lost_legion": range(299, 303)},
              "artifacts": {"base": range(113, 129), "lost_legion": range(303, 311)}}
    for kind, exp_ranges in blocks.items():
        for exp, rng in exp_ranges.items():
            numbers = [e["card_no"] for e in content[kind] if e["expansion"] == exp and "card_no" in e]
            assert len(numbers) == len(set(numbers)), kind
            assert set(numbers) <= set(rng), (kind, exp)
            if not (kind == "advanced_actions" and exp == "base"):
                assert sorted(numbers) == list(rng), (kind, exp)
    assert sum("card_no" not in e for e in content["advanced_actions"]) == 2


def test_spells_20_base_4_lost_legion_LL_2_4_2(content):
    assert _split_counts(content["spells"]) == {"base": 20, "lost_legion": 4}


def test_exactly_four_interactive_spells_base_17_to_20_rule_19_7_1(content):
    interactive = [e for e in content["spells"] if e["interactive"]]
    assert len(interactive) == 4
    assert {e["name"] for e in interactive} == {"Mana Meltdown", "Mana Claim", "Mind Read", "Energy Flow"}
    # numbered 17-20 in the base set: UE numbers 93 + 16 .. 93 + 19
    assert sorted(e["card_no"] - 92 for e in interactive) == [17, 18, 19, 20]
    assert all(e["expansion"] == "base" for e in interactive)


def test_lost_legion_spells_names_LL_2_4_5(content):
    got = {(e["name"], e["powered_name"], e["colour"]) for e in content["spells"] if e["expansion"] == "lost_legion"}
    assert got == {("Offering", "Sacrifice", "red"), ("Mist Form", "Veil of Mist", "blue"),
                   ("Cure", "Disease", "green"), ("Charm", "Possess", "white")}


def test_artifacts_16_base_8_lost_legion_LL_2_4_3(content):
    assert _split_counts(content["artifacts"]) == {"base": 16, "lost_legion": 8}
    ll = {e["name"] for e in content["artifacts"] if e["expansion"] == "lost_legion"}
    assert ll == {"Banner of Command", "Banner of Fortitude", "Bow of Starsdawn", "Soul Harvester",
                  "Shield of the Fallen Kings", "Druidic Staff", "Circlet of Proficiency",
                  "Tome of All Spells"}  # LL-2.4.5


def test_one_wound_card_type_rule_1_2_4(content):
    (wound,) = content["wound"]
    assert wound["colour"] == "colourless"
    assert wound["basic"] == "nothing()" and wound["powered"] == "nothing()"  # rule 6.1.6


def test_deed_cards_match_cards_csv(content, cards_csv):
    """Name, colour, expansion and card number of every AA, Spell and Artifact, and the
    copies / hero / replaced card of every Basic Action, as in cards.csv (base + LL rows)."""
    decks = {"advanced_action": "advanced_actions", "spell": "spells", "artifact": "artifacts"}
    rows = [r for r in cards_csv if r["expansion"] in ("base", "lost_legion")]
    for deck, kind in decks.items():
        want = {r["name"]: r for r in rows if r["deck"] == deck}
        got = by_name(content[kind])
        assert set(got) == set(want), kind
        for name, r in want.items():
            e = got[name]
            assert e["expansion"] == r["expansion"], name
            if kind != "artifacts":
                assert e["colour"] == r["colour"], name
            if r["card_no_ue"]:
                assert e["card_no"] == int(r["card_no_ue"]), name
            else:
                assert "card_no" not in e, name
            if kind == "spells":
                assert e["powered_name"] == r["powered_name"], name
    basics = {r["name"]: r for r in rows if r["deck"] == "basic_action"}
    got = by_name(content["basic_actions"])
    assert set(got) == set(basics)
    for name, r in basics.items():
        e = got[name]
        assert e["colour"] == r["colour"], name
        assert e["copies"] == int(r["copies"] or 1), name
        assert e.get("hero") == (r["hero"].lower() or None), name
        if r["replaces"]:
            assert content.get("basic_actions", e["replaces"])["name"] == r["replaces"], name


# ---------------------------------------------------------------------------------------
# Units and enemies
# ---------------------------------------------------------------------------------------


def _unit_cards(content, expansion, tier):
    return sum(u["copies"] for u in content["units"] if u["expansion"] == expansion and u["tier"] == tier)


def test_base_units_20_regular_20_elite_cards_LL_2_5_1(content):
    # LL-2.5.1: the new cards are numbered 21/28-28/28, so each base deck holds 20
    assert _unit_cards(content, "base", "regular") == 20
    assert _unit_cards(content, "base", "elite") == 20


def test_lost_legion_units_8_regular_8_elite_cards_LL_2_5_1(content):
    assert _unit_cards(content, "lost_legion", "regular") == 8
    assert _unit_cards(content, "lost_legion", "elite") == 8


def test_lost_legion_unit_distribution_LL_2_5_4(content):
    ll = {u["name"]: (u["tier"], u["copies"]) for u in content["units"] if u["expansion"] == "lost_legion"}
    assert {n: c for n, (t, c) in ll.items() if t == "regular"} == {
        "Thugs": 2, "Scouts": 2, "Shocktroops": 2, "Magic Familiars": 2}
    elite = {n: c for n, (t, c) in ll.items() if t == "elite"}
    assert elite.pop("Sorcerers") == 2 and elite.pop("Delphana Masters") == 2
    assert len(elite) == 4 and all(n.startswith("Hero") and c == 1 for n, c in elite.items())


def test_units_match_units_csv(content, units_csv):
    rows = {r["name"]: r for r in units_csv if r["expansion"] in ("base", "lost_legion")}
    got = by_name(content["units"])
    assert set(got) == set(rows)
    for name, r in rows.items():
        u = got[name]
        assert u["level"] == int(r["level"]), name
        assert u["cost"] == int(r["influence_cost"]), name
        assert u["armor"] == int(r["armor"]), name
        assert u["copies"] == int(r["count"]), name
        assert u["tier"] == r["tier"], name
        assert u["expansion"] == r["expansion"], name
        assert sorted(u["recruit_sites"]) == sorted(split(r["recruit_sites"])), name
        assert sorted(u["resistances"]) == sorted(split(r["resistances"])), name
        assert u["card_no"] == int(r["card_no_ue"]), name


def test_peasants_stats(content):
    p = content.get("units", "peasants")
    assert (p["level"], p["cost"], p["armor"], p["copies"]) == (1, 4, 3, 3)
    assert [a["effect"] for a in p["abilities"]] == ["attack(2)", "block(2)", "influence(2)", "move(2)"]


def _tokens(content, expansion):
    out = Counter()
    for e in content["enemies"]:
        if e["expansion"] == expansion:
            out[e["colour"]] += e["copies"]
    return out


def test_lost_legion_enemy_tokens_per_colour_LL_2_7_1(content):
    # LL-2.7.1: 8 green, 6 brown, 6 red, 8 grey, 4 violet, 6 white
    assert _tokens(content, "lost_legion") == {"green": 8, "brown": 6, "red": 6, "grey": 8, "violet": 4, "white": 6}


def test_base_enemy_tokens_per_colour_SOURCES_md(content):
    # SOURCES.md (BUDDY token catalogue): base G12 Gy10 V10 B10 R8 W10, 60 tokens in 29 types
    assert _tokens(content, "base") == {"green": 12, "grey": 10, "violet": 10, "brown": 10, "red": 8, "white": 10}
    assert sum(1 for e in content["enemies"] if e["expansion"] == "base") == 29


def _csv_attacks(r):
    if r["attacks_detail"]:
        return [{"value": int(p.split()[0]), "element": p.split()[1]} for p in r["attacks_detail"].split(" + ")]
    if r["attack"]:
        return [{"value": int(r["attack"]), "element": r["attack_element"]}]
    return []


def test_enemies_match_enemies_csv(content, enemies_csv):
    # enemies.csv holds the Lost Legion tokens of Altem Guardsmen and Altem Mages (its
    # conflicts are the two printings, LL-2.10.11; SOURCES.md): compare the LL printing
    rows = {r["name"]: r for r in enemies_csv if r["expansion"] in ("base", "lost_legion")}
    got = by_name(content.printing(True)["enemies"])
    assert set(got) == set(rows)
    for name, r in rows.items():
        e = got[name]
        assert e["armor"] == int(r["armor"]), name
        assert e.get("armor_elusive") == (int(r["armor_elusive"]) if r["armor_elusive"] else None), name
        assert e["attacks"] == _csv_attacks(r), name
        assert e["fame"] == int(r["fame"]), name
        assert e["copies"] == int(r["count"]), name
        assert e["colour"] == r["colour"], name
        assert e["expansion"] == r["expansion"], name
        assert e["summon"] == split(r["summon_pile"], "+"), name
        assert sorted(e["abilities"]) == sorted(split(r["abilities"])), name
        assert sorted(e["resistances"]) == sorted(split(r["resistances"])), name
        rep = r["reputation_on_defeat"]
        assert e.get("reputation") == (int(rep) if rep else None), name


def test_prowlers_and_hydra(content):
    p = content.get("enemies", "prowlers")
    assert (p["armor"], p["fame"], p["attacks"]) == (3, 2, [{"value": 4, "element": "physical"}])
    h = content.get("enemies", "hydra")  # LL-6.1: multiple attacks, one table each
    assert [a["value"] for a in h["attacks"]] == [2, 2, 2]


# ---------------------------------------------------------------------------------------
# Tactics, skills, levels, reputation
# ---------------------------------------------------------------------------------------

# Rule 3.2 tables
DAY_TACTICS = ["Early Bird", "Rethink", "Mana Steal", "Planning", "Great Start", "The Right Moment"]
NIGHT_TACTICS = ["From the Dusk", "Long Night", "Mana Search", "Midnight Meditation", "Preparation",
                 "Sparing Power"]


def test_six_day_and_six_night_tactics_numbered_1_to_6_rules_1_2_12_and_3_2(content):
    for time, names in (("day", DAY_TACTICS), ("night", NIGHT_TACTICS)):
        tactics = sorted((t for t in content["tactics"] if t["time"] == time), key=lambda t: t["number"])
        assert [t["number"] for t in tactics] == [1, 2, 3, 4, 5, 6]
        assert [t["name"] for t in tactics] == names
    assert len(content["tactics"]) == 12


def test_tactics_match_tactics_csv(content, shared_csv):
    rows = {(r["time"], int(r["number"])): r["name"] for r in shared_csv("tactics.csv")}
    assert {(t["time"], t["number"]): t["name"] for t in content["tactics"]} == rows


@pytest.mark.parametrize("hero", HEROES)
def test_ten_skills_per_hero_excluding_cooperative_rule_1_3_9(content, hero):
    own = [s for s in content["skills"] if s["hero"] == hero and not s.get("cooperative")]
    assert len(own) == 10


@pytest.mark.parametrize("hero", HEROES)
def test_interactive_skill_is_the_heroes_own_interactive_skill_rule_19_7_2(content, hero):
    h = content.get("heroes", hero)
    skill = content.get("skills", h["interactive_skill"])
    assert skill["hero"] == hero and skill.get("interactive") is True
    assert sum(1 for s in content["skills"] if s["hero"] == hero and s.get("interactive")) == 1
    if "cooperative_skill" in h:  # LL-2.8.1: cooperative tokens are extra, one per hero
        coop = content.get("skills", h["cooperative_skill"])
        assert coop["hero"] == hero and coop.get("cooperative") is True


# Rule 13.6.2 table: level -> (fame, armor, hand limit, command tokens)
LEVEL_TABLE = {1: (0, 2, 5, 1), 2: (3, 2, 5, 1), 3: (8, 3, 5, 2), 4: (15, 3, 5, 2), 5: (24, 3, 6, 3),
               6: (35, 3, 6, 3), 7: (48, 4, 6, 4), 8: (63, 4, 6, 4), 9: (80, 4, 7, 5), 10: (99, 4, 7, 5)}


def test_ten_levels_with_fame_threshold_L_squared_minus_1_rule_13_6_2_and_21_2_A1(content):
    levels = sorted(content["levels"], key=lambda e: e["level"])
    assert [e["level"] for e in levels] == list(range(1, 11))
    assert [e["fame"] for e in levels] == [lv * lv - 1 for lv in range(1, 11)]
    assert [e["fame"] for e in levels] == [0, 3, 8, 15, 24, 35, 48, 63, 80, 99]  # 21.2 A1
    for e in levels:
        assert (e["fame"], e["armor"], e["hand_limit"], e["command_tokens"]) == LEVEL_TABLE[e["level"]]


def test_level_rewards_rules_13_6_3_and_13_6_4(content):
    rewards = {e["level"]: e["reward"] for e in content["levels"]}
    assert rewards[1] == "none"
    assert all(rewards[lv] == "level_token" for lv in (3, 5, 7, 9))
    assert all(rewards[lv] == "skill_and_advanced_action" for lv in (2, 4, 6, 8, 10))


def test_levels_match_levels_csv(content, shared_csv):
    rows = shared_csv("levels.csv")
    got = {e["level"]: e for e in content["levels"]}
    for r in rows:
        e = got[int(r["level"])]
        assert (e["fame"], e["armor"], e["hand_limit"], e["command_tokens"]) == (
            int(r["fame_min"]), int(r["armor"]), int(r["hand_limit"]), int(r["command_tokens"]))


def test_reputation_track_matches_reputation_csv(content, shared_csv):
    rows = {int(r["position"]): r["influence_modifier"] for r in shared_csv("reputation.csv")}
    got = {e["position"]: e for e in content["reputation"]}
    assert sorted(got) == list(range(-7, 9)) == sorted(rows)
    for pos, mod in rows.items():
        if mod == "":  # the X space: no interaction (10.2.3)
            assert got[pos]["can_interact"] is False
        else:
            assert got[pos]["can_interact"] is True and got[pos]["modifier"] == int(mod)
    # 10.3.1: reputation -2 gives -1, -4 gives -2
    assert got[-2]["modifier"] == -1 and got[-4]["modifier"] == -2


# ---------------------------------------------------------------------------------------
# Tiles, garrisons, ruins, map shapes
# ---------------------------------------------------------------------------------------


def _tile_numbers(content, kind, expansion):
    return sorted(t["number"] for t in content["tiles"] if t["kind"] == kind and t["expansion"] == expansion
                  and "number" in t)


def test_tiles_LL_2_6_1_and_base_set(content):
    # LL-2.6.1: countryside 12, 13, 14; core 9, 10 and Volkare's camp
    assert _tile_numbers(content, "countryside", "lost_legion") == [12, 13, 14]
    assert _tile_numbers(content, "core", "lost_legion") == [9, 10]
    volkare = [t for t in content["tiles"] if t.get("volkare")]
    assert len(volkare) == 1 and volkare[0]["kind"] == "core" and volkare[0]["expansion"] == "lost_legion"
    # base: countryside 1-11, non-city core 1-4, city tiles 5-8, starting tile sides A and B (1.2.14)
    assert _tile_numbers(content, "countryside", "base") == list(range(1, 12))
    assert _tile_numbers(content, "core", "base") == [1, 2, 3, 4]
    assert {t["number"]: t["city"] for t in content["tiles"] if t["kind"] == "city"} == {
        5: "green", 6: "blue", 7: "white", 8: "red"}  # SOURCES.md tiles.csv
    assert sorted(t["id"] for t in content["tiles"] if t["kind"] == "start") == ["start_a", "start_b"]
    assert len(content["tiles"]) == 27


def test_every_tile_has_seven_hexes_rule_9_1_2(content):
    for t in content["tiles"]:
        assert len(t["hexes"]) == 7, t["id"]


def test_starting_tiles_have_the_portal_in_the_centre_rule_1_3_7(content):
    for tid in ("start_a", "start_b"):
        hexes = content.get("tiles", tid)["hexes"]
        assert hexes[0].get("site") == "portal"
        assert sum(h.get("site") == "portal" for h in hexes) == 1


def test_city_tiles_hold_their_city_in_the_centre(content):
    for t in content["tiles"]:
        cities = [h for h in t["hexes"] if h.get("site") == "city"]
        if t["kind"] == "city":
            assert cities == [t["hexes"][0]] and cities[0]["colour"] == t["city"], t["id"]
        else:
            assert cities == [], t["id"]


# LL-2.6.4 site table
LL_TILE_SITES = {
    "countryside_12": ["monastery", "maze", "refugee_camp", "rampaging_orc"],
    "countryside_13": ["mage_tower", "deep_mine", "magical_glade", "rampaging_orc"],
    "countryside_14": ["keep", "maze", "village", "deep_mine"],
    "core_9": ["mage_tower", "labyrinth", "refugee_camp", "rampaging_draconum"],
    "core_10": ["keep", "labyrinth", "deep_mine", "rampaging_orc", "rampaging_orc"],
    "core_volkare": ["volkares_camp", "village", "rampaging_draconum", "rampaging_orc"],
}


def test_lost_legion_tile_sites_LL_2_6_4(content):
    for tid, sites in LL_TILE_SITES.items():
        hexes = content.get("tiles", tid)["hexes"]
        assert Counter(h["site"] for h in hexes if "site" in h) == Counter(sites), tid
    assert content.get("tiles", "core_volkare")["hexes"][0]["site"] == "volkares_camp"  # centre
    mines = {tid: sorted(h["colours"]) for tid in LL_TILE_SITES
             for h in content.get("tiles", tid)["hexes"] if h.get("site") == "deep_mine"}
    assert mines == {"countryside_13": ["blue", "green"], "countryside_14": ["red", "white"],
                     "core_10": ["blue", "green", "red", "white"]}


def test_tiles_match_tiles_csv(content, shared_csv):
    order = ("C", "NE", "E", "SE", "SW", "W", "NW")
    rows = {r["tile_id"]: r for r in shared_csv("tiles.csv")}
    assert set(rows) == set(content.ids("tiles"))
    for t in content["tiles"]:
        r = rows[t["id"]]
        assert [h["terrain"] for h in t["hexes"]] == [r[f"{d}_terrain"] for d in order], t["id"]
        for h, d in zip(t["hexes"], order):
            csv_site = r[f"{d}_site"]
            # tiles.csv writes city_<colour>, mine_<colour> and deep_mine_<c1>/<c2>/...
            if csv_site.startswith("deep_mine_"):
                assert h["site"] == "deep_mine", (t["id"], d)
                assert sorted(h["colours"]) == sorted(csv_site[len("deep_mine_"):].split("/")), (t["id"], d)
            elif csv_site.startswith(("city_", "mine_")):
                kind, colour = csv_site.split("_")
                assert h["site"] == {"mine": "crystal_mine", "city": "city"}[kind], (t["id"], d)
                assert h["colour"] == colour, (t["id"], d)
            else:
                assert h.get("site", "") == csv_site, (t["id"], d)


def test_city_garrisons_four_colours_eleven_levels_rules_11_13_5_19_5(content, shared_csv):
    keys = Counter((g["city"], g["level"]) for g in content["city_garrisons"])
    assert keys == {(c, lv): 1 for c in ("red", "blue", "white", "green") for lv in range(1, 12)}
    rows = {(r["city_colour"], int(r["city_level"])): r["garrison_tokens"].split(";")
            for r in shared_csv("city_garrisons.csv")}
    assert {(g["city"], g["level"]): g["tokens"] for g in content["city_garrisons"]} == rows
    assert sorted(c["colour"] for c in content["cities"]) == ["blue", "green", "red", "white"]  # 10.10


def test_ruins_tokens_3_lost_legion_LL_2_7_1_and_12_base(content, shared_csv):
    assert _split_counts(content["ruins"]) == {"base": 12, "lost_legion": 3}  # base: SOURCES.md
    rows = {r["token"]: r for r in shared_csv("ruins.csv")}
    assert set(rows) == set(content.ids("ruins"))
    for r in content["ruins"]:
        assert r["kind"] == rows[r["id"]]["kind"] and r["expansion"] == rows[r["id"]]["expansion"]
        if r["kind"] == "altar":
            assert r["fame"] == int(rows[r["id"]]["fame"])


def test_map_shapes_rules_17_1_and_1_2_14(content):
    shapes = {m["id"]: m for m in content["map_shapes"]}
    assert shapes["wedge"]["start_tile"] == "start_a"  # 17.1.1
    assert len(shapes["wedge"]["setup_positions"]) == 2  # 1.2.14: side A reveals 2 tiles
    for sid, columns in (("open_5", 5), ("open_4", 4), ("open_3", 3)):  # 17.1.2, 17.1.3
        m = shapes[sid]
        assert m["start_tile"] == "start_b"
        assert len(m["setup_positions"]) == 3  # 1.2.14: side B reveals 3 tiles
        assert len({-a for a, b in m["positions"]}) == columns   # columns of the open maps (map_shapes.toml)
    # 17.1.1: no Core tile in the wedge's two outer lanes
    wedge = shapes["wedge"]
    lanes = {(a, b) for a, b in wedge["positions"] if (a == 0 or b == 0) and (a, b) != (0, 0)}
    assert {tuple(p) for p in wedge["core_forbidden"]} == lanes


# ---------------------------------------------------------------------------------------
# --content: a folder of edited files, or an override file
# ---------------------------------------------------------------------------------------


def _without(entries, kind, key, fld):
    out = copy.deepcopy(entries)
    k = KINDS[kind]
    for e in out[kind]:
        if k.key(e) == key:
            del e[fld]
    return out


def test_folder_with_one_edited_file_replaces_only_that_file(tmp_path, content):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "units.toml").write_text((DATA_DIR / "units.toml").read_text(encoding="utf-8"), encoding="utf-8")
    set_field(folder / "units.toml", "unit", "peasants", "cost", "2")
    c = load_content(folder)
    assert c.get("units", "peasants")["cost"] == 2
    assert content.get("units", "peasants")["cost"] == 4
    assert c.origin["units.toml"] == str(folder / "units.toml")
    assert all(o == f"mksim/data/{f}" for f, o in c.origin.items() if f != "units.toml")
    assert _without(c.entries, "units", "peasants", "cost") == _without(content.entries, "units", "peasants", "cost")


def test_full_copy_of_the_data_folder_loads_like_the_shipped_one(data_copy, content):
    c = load_content(data_copy)
    assert c.entries == content.entries
    assert c.origin["enemies.toml"] == str(data_copy / "enemies.toml")


def test_override_file_changes_only_the_named_field(tmp_path, content):
    ov = write_override(tmp_path, "[enemies.prowlers]\narmor = 4\n")
    c = load_content(ov)
    assert c.get("enemies", "prowlers")["armor"] == 4
    assert content.get("enemies", "prowlers")["armor"] == 3
    assert _without(c.entries, "enemies", "prowlers", "armor") == _without(content.entries, "enemies", "prowlers", "armor")
    assert str(ov) in c.origin["enemies.toml"]


def test_override_of_an_effect_is_parsed_readme_rage3(tmp_path):
    ov = write_override(tmp_path, '[basic_actions.rage]\nbasic = "choice(attack(3), block(2))"\n', "rage3.toml")
    c = load_content(ov)
    node = c.parsed[("basic_actions", "rage", "basic")]
    assert [ch.args["n"] for ch in node.children] == [3, 2]


def test_override_of_a_kind_sharing_a_file(tmp_path):
    # city_garrisons.toml holds [[garrison]] and [[city]]: both are addressed by kind name
    ov = write_override(tmp_path, '[city_garrisons.red_11]\ntokens = ["red", "red", "red", "red"]\n'
                                  '[cities.blue]\nspell_cost = 9\n')
    c = load_content(ov)
    assert c.get("city_garrisons", "red_11")["tokens"] == ["red"] * 4
    assert c.get("cities", "blue")["spell_cost"] == 9


# ---------------------------------------------------------------------------------------
# Bad input: ContentError naming file, entry and field
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", BAD_CASES, ids=[c.id for c in BAD_CASES])
def test_bad_content_raises_content_error_naming_the_place(tmp_path, case):
    path = case.build(tmp_path)
    with pytest.raises(ContentError) as info:
        load_content(path).compile()
    msg = str(info.value)
    for part in case.names:
        assert part in msg, f"{part!r} not in {msg!r}"
    assert "\n" not in msg  # one line


def test_no_count_check_accepts_a_deleted_advanced_action(data_copy):
    remove_entry(data_copy / "advanced_actions.toml", "card", "mountain_lore")
    c = load_content(data_copy, check_counts=False)
    assert len(c["advanced_actions"]) == 39
    assert "mountain_lore" not in c.ids("advanced_actions")
    c.compile()


def test_setup_tile_touching_nothing_is_rejected_rule_1_2_14(data_copy):
    set_field(data_copy / "map_shapes.toml", "shape", "wedge", "setup_positions", "[[2, 0]]")
    with pytest.raises(ContentError, match=r"map_shapes\.toml: shape 'wedge': field 'setup_positions'"):
        load_content(data_copy)


def test_scenario_city_levels_must_match_city_tiles(data_copy):
    set_field(data_copy / "scenarios.toml", "scenario", "solo_conquest", "city_levels", "[5]")
    with pytest.raises(ContentError, match=r"scenario 'solo_conquest': field 'city_levels'"):
        load_content(data_copy)


def test_unit_recruit_site_missing_from_sites_toml_is_a_dangling_reference(data_copy):
    """A unit names a recruit site type that sites.toml does not define (here the monastery
    entry is deleted): the loader must reject it, like any other dangling reference."""
    remove_entry(data_copy / "sites.toml", "site", "monastery")
    with pytest.raises(ContentError) as info:
        load_content(data_copy)
    msg = str(info.value)
    for part in ("units.toml", "unit 'herbalists'", "recruit_sites", "'monastery'", "sites.toml"):
        assert part in msg, msg


# ---------------------------------------------------------------------------------------
# Validated completely at load: handlers, amounts, nesting, --content paths, what the
# engine binds (the cases themselves are BAD_CASES above; these are the edges)
# ---------------------------------------------------------------------------------------


def test_a_cooperative_skill_may_not_name_a_handler_the_engine_lacks(tmp_path):
    """Cooperative skills are dealt with The Lost Legion (LL-7.1; Engine._skill_in_game), so
    their handlers are checked like any other entry's."""
    ov = write_override(tmp_path, '[skills.arythea_ritual_of_pain]\neffect = "handler(ritual_v2, n=2)"\n')
    with pytest.raises(ContentError, match=r"skill 'arythea_ritual_of_pain': field 'effect': .*no handler 'ritual_v2'"):
        load_content(ov)
    dealt = write_override(tmp_path, '[skills.arythea_dark_paths]\neffect = "handler(ritual_v2, n=2)"\n', "dealt.toml")
    with pytest.raises(ContentError, match=r"skill 'arythea_dark_paths': field 'effect': .*no handler 'ritual_v2'"):
        load_content(dealt)


def test_an_unreadable_content_folder_is_an_error(data_copy, monkeypatch):
    import mksim.content as ct

    def refuse(path):
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr(ct.os, "listdir", refuse)        # (tests run as root: chmod would not stop them)
    with pytest.raises(ContentError) as info:
        load_content(data_copy)
    assert str(info.value) == f"{data_copy}: cannot be read (permission denied)"


def test_a_folder_may_hold_the_readme_and_hidden_entries(tmp_path, content):
    d = tmp_path / "mine"
    d.mkdir()
    (d / "units.toml").write_text((DATA_DIR / "units.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (d / "README.md").write_text("my notes\n", encoding="utf-8")
    (d / ".git").mkdir()
    (d / ".units.toml.swp").write_bytes(b"\0\1")
    c = load_content(d)
    assert c.entries == content.entries and c.origin["units.toml"] == str(d / "units.toml")


def test_engine_needs_are_checked_without_the_count_check(data_copy):
    remove_entry(data_copy / "reputation.toml", "space", "-7", "position")
    with pytest.raises(ContentError, match=r"reputation\.toml: field 'position': .*missing: -7"):
        load_content(data_copy, check_counts=False)


@pytest.mark.parametrize("stage", ["setup", "bind"])
def test_a_game_the_engine_cannot_set_up_is_bad_content_at_game_creation(tmp_path, monkeypatch, stage):
    """Game() sets up and binds a first game at once: a ValueError of the engine there is a
    ContentError naming the files and the scenario, not a traceback at the first game."""
    from content_edit import engine_refuses
    from mksim.game import Game
    ov = write_override(tmp_path, "[enemies.prowlers]\narmor = 4\n")
    c = load_content(ov)
    message = engine_refuses(monkeypatch, stage)
    with pytest.raises(ContentError) as info:
        Game("first-reconnaissance", "tovak", content=c)
    assert str(info.value) == f"{ov}: scenario 'first_reconnaissance': the engine cannot use this content: {message}"


def test_an_unreadable_override_file_is_an_error(tmp_path, monkeypatch):
    import mksim.content as ct
    ov = write_override(tmp_path, "[enemies.prowlers]\narmor = 4\n")
    real_open = open

    def refuse(path, *args, **kw):
        if str(path) == str(ov):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kw)
    monkeypatch.setattr(ct, "open", refuse, raising=False)   # shadows the builtin in mksim.content
    with pytest.raises(ContentError) as info:
        load_content(ov)
    assert str(info.value) == f"{ov}: cannot be read (permission denied)"


def test_a_folder_with_many_stray_files_names_some_and_counts_the_rest(tmp_path):
    d = tmp_path / "mine"
    d.mkdir()
    for k in range(12):
        (d / f"draft_{k:02d}.txt").write_text("", encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_content(d)
    msg = str(info.value)
    assert "draft_00.txt" in msg and "draft_07.txt" in msg and "draft_08.txt" not in msg
    assert "and 4 more" in msg


def test_every_argument_the_engine_declares_is_used_by_shipped_content(content):
    """mksim/effects.py says only what argument *names* mean (effect, word, switch, signed
    change, amount); the shipped content passing validation checks that reading against real
    use, which holds for every declared argument only if each one is used somewhere."""
    from mksim import effects as fx
    from mksim.content import engine_handlers
    used = set()
    for node in content.parsed.values():
        stack = [node]
        while stack:
            n = stack.pop()
            stack.extend(n.children)
            stack.extend(v for v in n.args.values() if isinstance(v, fx.Node))
            if n.op == "handler":
                used.update((n.args["name"], k) for k in n.args if k != "name")
    declared = {(name, k) for name, (_g, params) in engine_handlers().items() for k in params}
    assert declared - used == set()
    classified = fx.HANDLER_EFFECT_ARGS | set(fx.HANDLER_WORD_ARGS)
    assert all(fx.handler_arg_bounds(k) is None for k in classified)
    assert fx.handler_arg_bounds("armor") == (-fx.POINTS_MAX, fx.POINTS_MAX)      # Ice Shield: armor=-3
    assert fx.handler_arg_bounds("block") == (0, fx.MAX_NUMBER)
