"""The two printings of every card The Lost Legion changed (LL-2.10.1: base without it, the
Lost Legion printing with it, LL-2.10.2), the Golden Grail, the cooperative skills (LL-7)
and their solo set-up (LL-7.1).  Printed numbers: ../shared/data/ll_changed_cards.csv (its
sources at the end of SOURCES.md).  Test names carry the content id (``pytest -k in_need``).
Enemy numbers from enemies.toml: prowlers Armor 3 / Attack 4, sorcerers Arcane Immunity
(Attack 6), wolf riders Swift (Attack 3), diggers Fortified."""
import pytest

from interaction_setup import Game, PAY_TOKEN
from mksim._combat import CombatTester
from mksim._engine import encode
from mksim._rules import Rules
from mksim.game import Game as PublicGame
from test_skills_handlers import end_turn_to_next_start

PLAINS, HILLS, FOREST = 0, 1, 2


def both(content, tables, ll_content, ll_tables):
    return {"base": (content, tables), "lost_legion": (ll_content, ll_tables)}


@pytest.fixture
def printings(content, tables, ll_content, ll_tables):
    return both(content, tables, ll_content, ll_tables)


def tokens(g):
    return {k: v for k, v in g.d["turn"]["mana_tokens"].items() if v}


def no_attack(g):
    """Which enemies of the combat do not attack (CE_NO_ATTACK)."""
    c = g.d["combat"]
    return ["no_attack" in e["flags"] for e in c["enemies"][:c["n_enemies"]]]


def block_phase(g, enemies):
    T = CombatTester(g.core)
    g.ut.start_combat(enemies)
    g.do("next_phase")
    return T


# -- the mechanism (LL-2.10.2) ------------------------------------------------------------------

def test_ll_2_10_2_game_plays_the_lost_legion_printing_only_with_the_expansion():
    base = PublicGame("first-reconnaissance", "tovak")
    ll = PublicGame("first-reconnaissance", "tovak", lost_legion=True)
    assert base.content.get("advanced_actions", "in_need")["basic"] == "handler(in_need, influence=2, per_wound=1)"
    assert ll.content.get("advanced_actions", "in_need")["basic"] == "handler(in_need, influence=3, per_wound=1)"
    e = ll.tables.enemy_ids.index("altem_guardsmen")
    assert ll.tables.enemies[e, ll.tables.col("enemies", "attack0")] == 5
    assert base.tables.enemies[e, base.tables.col("enemies", "attack0")] == 6


def test_ll_2_10_2_an_override_changes_one_printing(tmp_path):
    """The alternative reading is one override away: Magic Talent's LL basic without the
    colour restriction (the conflict recorded in advanced_actions.toml)."""
    from mksim.content import load_content
    p = tmp_path / "o.toml"
    p.write_text('[advanced_actions.magic_talent]\n'
                 'll_printing = { basic = "handler(magic_talent_play_spell, same_colour=0)" }\n')
    c = load_content(p)
    assert c.printing(True).get("advanced_actions", "magic_talent")["basic"].endswith("same_colour=0)")
    assert c.get("advanced_actions", "magic_talent")["basic"].endswith("same_colour=0)")


# -- In Need (card 20/28) -------------------------------------------------------------------------

@pytest.mark.parametrize("version,basic,powered", [("base", 2 + 2, 4 + 2 * 2), ("lost_legion", 3 + 2, 5 + 2 * 2)])
def test_in_need_printings(printings, version, basic, powered):
    """LL-2.10.1, LL-2.10.7: base Influence 2 / 4, LL 3 / 5; +1 / +2 per Wound (2 in hand)."""
    c, t = printings[version]
    for pw, want in ((0, basic), (1, powered)):
        g = Game(c, t, site="village", hand=["in_need", "wound", "wound"])
        g.do("interact")
        g.ut.set_turn(mana={"green": 1})
        g.play(0, powered=pw, pay=PAY_TOKEN["green"] if pw else 31)
        assert g.turn["influence"] == want


# -- Blood Ritual (card 13/28) ----------------------------------------------------------------

def test_blood_ritual_base_basic_red_mana_token(content, tables):
    """Base printing: a Wound, a red mana token and one of any colour; no crystal."""
    g = Game(content, tables, hand=["blood_ritual"])
    g.play(0)
    g.do("choose", PAY_TOKEN["blue"])                    # the any-colour token
    assert g.player["crystals"]["red"] == 0
    assert tokens(g) == {"red": 1, "blue": 1}
    assert g.player["hand"] == ["wound"]


def test_blood_ritual_ll_basic_red_crystal(ll_content, ll_tables):
    """Lost Legion printing (LL-2.10.7, strengthened): a red crystal instead of the token."""
    g = Game(ll_content, ll_tables, hand=["blood_ritual"])
    g.play(0)
    g.do("choose", PAY_TOKEN["blue"])
    assert g.player["crystals"]["red"] == 1
    assert tokens(g) == {"blue": 1}


def test_blood_ritual_powered_crystal_only_in_the_ll_printing(content, tables, ll_content, ll_tables):
    for c, t, crystal in ((content, tables, False), (ll_content, ll_tables, True)):
        g = Game(c, t, hand=["blood_ritual"])
        g.ut.set_turn(mana={"red": 1})
        g.play(0, powered=1, pay=PAY_TOKEN["red"])
        for _ in range(3):
            g.do("choose", PAY_TOKEN["white"])
        asks = [a for a in g.actions() if a.startswith("choose")]
        assert bool(asks) == crystal                     # LL: pay one basic mana for a crystal


# -- Magic Talent (card 26/28) -------------------------------------------------------------

def test_magic_talent_base_any_card_for_any_spell(content, tables):
    """Base printing: discard any card (here white Promise) for a Spell of another colour."""
    g = Game(content, tables, hand=["magic_talent", "promise"])
    g.ut.set_spell_offer(["snowstorm", "fireball", "tremor"])
    g.ut.start_combat(["prowlers"])
    g.ut.set_turn(mana={"red": 1})
    assert any(a.startswith("play(hand=0, powered=0") for a in g.actions())


def test_magic_talent_ll_only_a_spell_of_the_discarded_colour(ll_content, ll_tables):
    g = Game(ll_content, ll_tables, hand=["magic_talent", "promise"])
    g.ut.set_spell_offer(["snowstorm", "fireball", "tremor"])
    g.ut.start_combat(["prowlers"])
    g.ut.set_turn(mana={"red": 1})
    assert not any(a.startswith("play(hand=0, powered=0") for a in g.actions())


# -- Cold Toughness (Tovak, card 3/16) -------------------------------------------------------

@pytest.mark.parametrize("version,stops", [("base", True), ("lost_legion", False)])
def test_cold_toughness_icon_bonus_against_arcane_immunity(printings, version, stops):
    """Sorcerers (Arcane Immunity, attack 6): Ice Block 5 + icons stops it only in the base
    printing; the LL card gives no bonus against Arcane Immunity (LL-2.10.8)."""
    c, t = printings[version]
    g = Game(c, t, hero="tovak", hand=["cold_toughness"])
    block_phase(g, ["sorcerers"])
    g.ut.set_turn(mana={"blue": 1})
    g.play(0, powered=1, pay=PAY_TOKEN["blue"])
    assert (g.of_kind("block") != []) == stops


# -- Utem Guardsmen / Altem Guardians (LL-2.10.10) ------------------------------------------

@pytest.mark.parametrize("unit,block", [("utem_guardsmen", 4), ("altem_guardians", 8)])
def test_block_against_swift_base_strips_swift_ll_counts_twice(printings, unit, block):
    """Swamp Dragon: Swift, attack 5 (10 to block, 11.6.5).  The unit's Block n plus Block
    +1 from elsewhere.  Base printing: the enemy blocked loses Swiftness - n + 1 against 5;
    LL printing (LL-2.10.10): only the unit's n counts twice - 2n + 1 against 10."""
    for version, handler in (("base", "block_strip_swift"), ("lost_legion", "block_double_vs_swift")):
        c, t = printings[version]
        assert c.get("units", unit)["abilities"][1]["effect"] == f"handler({handler}, n={block})"
        g = Game(c, t, hand=[])
        g.ut.set_unit(0, unit)
        T = block_phase(g, ["swamp_dragon"])
        g.activate(0, 1)
        T.set_block("physical", block + 1)                # the unit's points and 1 more
        base_ok = block + 1 >= 5
        ll_ok = 2 * block + 1 >= 10
        assert (g.of_kind("block") != []) == (base_ok if version == "base" else ll_ok)


def test_utem_guardsmen_block_4_alone_against_swamp_dragon(printings):
    """Block 4 against Swift attack 5: base 4 < 5, LL 8 < 10 - neither stops it."""
    for version in ("base", "lost_legion"):
        c, t = printings[version]
        g = Game(c, t, hand=[])
        g.ut.set_unit(0, "utem_guardsmen")
        block_phase(g, ["swamp_dragon"])
        g.activate(0, 1)
        assert g.of_kind("block") == []


# -- Altem Guardsmen / Altem Mages tokens (LL-2.10.11) ---------------------------------------

def test_altem_guardsmen_attack_6_base_5_lost_legion(content, ll_content):
    assert content.get("enemies", "altem_guardsmen")["attacks"] == [{"value": 6, "element": "physical"}]
    assert ll_content.get("enemies", "altem_guardsmen")["attacks"] == [{"value": 5, "element": "physical"}]


def test_altem_mages_fortified_only_in_the_base_printing(content, ll_content):
    assert "fortified" in content.get("enemies", "altem_mages")["abilities"]
    assert sorted(ll_content.get("enemies", "altem_mages")["abilities"]) == ["brutal", "poison"]


# -- Banner of Fear (card 2/16) ----------------------------------------------------------------

def test_banner_of_fear_base_powered_no_enemy_attacks_even_arcane_immunity(content, tables):
    """Base: skip the Block and Assign Damage phases - no enemy attacks, Sorcerers too."""
    g = Game(content, tables, hand=["banner_of_fear"])
    T = CombatTester(g.core)
    g.ut.start_combat(["prowlers", "sorcerers"])
    g.ut.set_turn(mana={"red": 1})
    g.play(0, powered=1)                        # 6.1.5: thrown away, no mana paid
    assert no_attack(g) == [True, True]


def test_banner_of_fear_ll_powered_up_to_3_enemies_not_arcane_immunity(ll_content, ll_tables):
    """LL-2.10.3: no phase skipping; up to 3 enemies do not attack, not Sorcerers (LL-6.7)."""
    g = Game(ll_content, ll_tables, hand=["banner_of_fear"])
    g.ut.start_combat(["prowlers", "sorcerers", "prowlers"])
    g.ut.set_turn(mana={"red": 1})
    g.play(0, powered=1)                        # 6.1.5: thrown away, no mana paid
    assert sorted(g.actions()) == ["choose(0)", "choose(2)", "choose(63)"]
    g.do("choose", 0)
    g.do("choose", 2)
    assert no_attack(g) == [True, False, True]


# -- Wings of Wind / Wings of Night (card 11/20) -----------------------------------------------

def test_wings_of_wind_base_night_skips_block_with_a_move_per_enemy(content, tables):
    """Base Wings of Night: with as many Move points as enemies, no enemy attacks (Move not
    spent); with fewer, not playable."""
    for move, ok in ((2, True), (1, False)):
        g = Game(content, tables, hand=["wings_of_wind"])
        Rules(g.core).set_time("night")
        g.ut.start_combat(["prowlers", "sorcerers"])
        g.ut.set_turn(mana={"white": 1, "black": 1})
        Rules(g.core).set_move_points(move)
        code = 0 | (1 << 7) | (PAY_TOKEN["white"] << 8) | (PAY_TOKEN["black"] << 13)
        playable = any(a.startswith("play(hand=0, powered=1") for a in g.actions())
        assert playable == ok
        if ok:
            g.do("play", code)
            assert no_attack(g) == [True, True]
            assert Rules(g.core).move_points == 2


# -- Horn of Wrath: see test_spells_artifacts.py (test_11_5_horn_of_wrath_*) ------------------
# -- Agility, Refreshing Walk: the same effect in both printings -----------------------------

@pytest.mark.parametrize("card", ["agility", "refreshing_walk"])
def test_agility_refreshing_walk_printings_are_the_same_effect(content, ll_content, card):
    """ll_changed_cards.csv: the LL wording differs in timing only (LL-2.10.5-6), which the
    engine applies in both printings (LL-9.3, 12.4.1), so the effects are equal."""
    b, l = content.get("advanced_actions", card), ll_content.get("advanced_actions", card)
    assert (b["basic"], b["powered"]) == (l["basic"], l["powered"])
    assert "ll_printing" not in b


# -- Golden Grail (not changed by LL) -------------------------------------------------------------

def test_golden_grail_fame_per_point_on_a_level_2_unit(content, tables):
    """A level II Unit healed with both Healing points: Fame +2 (ll_changed_cards.csv)."""
    g = Game(content, tables, hand=["golden_grail"])
    g.ut.set_unit(0, "utem_guardsmen", wounds=1)           # level II
    fame0 = g.player["fame"]
    g.play(0)
    g.do("heal_unit", 0)
    assert g.player["fame"] == fame0 + 2 and g.d["players"][0]["units"][0]["wounds"] == 0


def test_golden_grail_unspent_points_give_no_fame(content, tables):
    g = Game(content, tables, hand=["golden_grail", "march"])
    fame0 = g.player["fame"]
    g.play(0)
    g.do("end_turn")
    assert g.player["fame"] == fame0


# -- LL-7.1: cooperative skills replace the interactive ones (solo, dummy too) ----------------

@pytest.mark.parametrize("hero", ["arythea", "goldyx", "norowas", "tovak", "wolfhawk"])
def test_ll_7_1_cooperative_skill_replaces_interactive_skill(hero):
    g0 = PublicGame("first-reconnaissance", hero)
    g1 = PublicGame("first-reconnaissance", hero, lost_legion=True)
    h = g1.content.get("heroes", hero)
    for g, has, lacks in ((g0, h["interactive_skill"], h["cooperative_skill"]),
                          (g1, h["cooperative_skill"], h["interactive_skill"])):
        stack = g.new_state(3).to_dict()["players"][0]["skill_stack"]
        assert has in stack and lacks not in stack and len(stack) == 10


def test_ll_7_1_dummy_skill_set_holds_its_cooperative_skill():
    for seed in range(6):
        d = PublicGame("first-reconnaissance", "tovak", lost_legion=True).new_state(seed).to_dict()
        stack = d["dummy"]["skill_stack"]
        hero = stack[0].split("_")[0]
        coop = [s for s in stack if s.endswith(("ritual_of_pain", "source_opening", "coop_skill",
                                                 "mana_overload"))]
        assert len(coop) == 1 and coop[0].startswith(hero)
        assert len(stack) == 10                              # 18.3.1 without its interactive one


def test_ll_7_2_solo_conquest_removes_cooperative_skills_too():
    """17.3.4 removes the interactive skills; cooperative ones are interactive too (LL-7.2)."""
    stack = PublicGame("solo-conquest", "goldyx", lost_legion=True).new_state(1).to_dict()["players"][0]["skill_stack"]
    assert "goldyx_source_opening" not in stack and "goldyx_source_freeze" not in stack
    assert len(stack) == 9


# -- the cooperative skills (LL-7; owner's part, Norowas' secondary) --------------------------

def coop(ll_content, ll_tables, skill, hero, hand=("march",), seed=1):
    g = Game(ll_content, ll_tables, hand=list(hand), hero=hero, seed=seed)
    g.sc.set_skills(0, [skill])
    return g


@pytest.mark.covers("arythea_ritual_of_pain", "effect")
def test_arythea_ritual_of_pain_throws_away_2_wounds(ll_content, ll_tables):
    g = coop(ll_content, ll_tables, "arythea_ritual_of_pain", "arythea", ["wound", "wound", "wound", "march"])
    g.do("use_skill", 0)
    g.do("choose", 2)
    assert g.player["hand"] == ["wound", "march"]
    assert g.of_kind("use_skill") == []                   # once a round


@pytest.mark.covers("goldyx_source_opening", "effect")
def test_goldyx_source_opening_rerolls_one_source_die(ll_content, ll_tables):
    rolled = set()
    for seed in range(12):
        g = coop(ll_content, ll_tables, "goldyx_source_opening", "goldyx", seed=seed)
        g.eng.set_dice(["gold", "gold", "gold"])
        g.do("use_skill", 0)
        assert sorted(g.actions()) == ["choose(0)", "choose(1)", "choose(2)", "choose(63)"]
        g.do("choose", 1)
        dice = g.d["source"]["dice"]
        assert dice[0] == dice[2] == "gold"
        rolled.add(dice[1])
    assert len(rolled) > 2                                   # rerolled, not set


@pytest.mark.covers("tovak_mana_overload", "effect")
def test_tovak_mana_overload_owner_gains_a_non_gold_token_and_marks_its_colour(ll_content, ll_tables):
    """Mana Overload, owner's part (ll_changed_cards.csv): a mana token of a chosen non-gold
    colour, the token in the centre marked with it; once a round (face down, 8.2.2)."""
    g = coop(ll_content, ll_tables, "tovak_mana_overload", "tovak")
    g.do("use_skill", 0)
    assert g.actions() == ["choose(0)", "choose(1)", "choose(2)", "choose(3)", "choose(5)"]   # no gold
    g.do("choose", 3)
    assert tokens(g) == {"green": 1} and g.player["coop_mark"] == 1 + 3
    assert g.of_kind("use_skill") == []


@pytest.mark.covers("wolfhawk_coop_skill", "effect")
def test_wolfhawk_coop_skill_sideways_4_plus_1_per_free_command_not_in_combat(ll_content, ll_tables):
    """Wolfhawk's cooperative skill, owner's part: one card sideways gives +4 instead of +1,
    +1 per Command token without a Unit (level 1: one token, 7.2.1): March as Move 5; not in
    combat (summary), so not offered there."""
    g = coop(ll_content, ll_tables, "wolfhawk_coop_skill", "wolfhawk", ["march", "rage"])
    g.do("use_skill", 0)
    g.do("choose", 0)
    assert Rules(g.core).move_points == 5 and g.player["hand"] == ["rage"]
    assert g.of_kind("use_skill") == []                      # once a round
    g2 = coop(ll_content, ll_tables, "wolfhawk_coop_skill", "wolfhawk", ["march", "rage"])
    g2.ut.start_combat(["prowlers"])
    assert g2.of_kind("use_skill") == []                     # not in combat


@pytest.mark.covers("norowas_coop_skill", "effect")
def test_norowas_coop_skill_minus_2_now_minus_1_next_turn(ll_content, ll_tables):
    """Owner: terrain -2 (min 1) this turn; secondary, solo: the owner's next turn only, -1
    (min 1), using the face-down token once more (LL-7.3.2); not the turn after."""
    g = coop(ll_content, ll_tables, "norowas_coop_skill", "norowas")
    g.sc.set_cards(0, hand=["march"], deck=["rage"] * 12)
    R = Rules(g.core)
    nb = [h for h in R.neighbours(g.pos) if h >= 0][:3]
    for h, t in zip(nb, (PLAINS, HILLS, FOREST)):
        R.set_hex(h, terrain=t)
    assert [R.move_cost(h) for h in nb] == [2, 3, 3]       # by Day (9.2)
    g.do("use_skill", 0)
    assert [R.move_cost(h) for h in nb] == [1, 1, 1]
    assert g.of_kind("use_skill") == []                     # face down
    end_turn_to_next_start(g)
    g.do("regular_turn")
    assert [R.move_cost(h) for h in nb] == [2, 3, 3]
    g.do("use_skill", 0)                                     # the secondary effect
    assert [R.move_cost(h) for h in nb] == [1, 2, 2]
    assert g.of_kind("use_skill") == []
    end_turn_to_next_start(g)
    g.do("regular_turn")
    assert g.of_kind("use_skill") == [] and [R.move_cost(h) for h in nb] == [2, 3, 3]


@pytest.mark.covers("norowas_coop_skill", "effect")
def test_norowas_coop_skill_secondary_expires_after_the_next_turn(ll_content, ll_tables):
    g = coop(ll_content, ll_tables, "norowas_coop_skill", "norowas")
    g.sc.set_cards(0, hand=["march"], deck=["rage"] * 12)
    g.do("use_skill", 0)
    end_turn_to_next_start(g)
    g.do("regular_turn")
    assert g.of_kind("use_skill") == ["use_skill(0)"]
    end_turn_to_next_start(g)                                 # not used: gone (LL-7.3.2)
    g.do("regular_turn")
    assert g.of_kind("use_skill") == []


@pytest.mark.covers("arythea_ritual_of_pain", "effect")
def test_arythea_ritual_of_pain_secondary_wound_sideways_plus_3_next_turn(ll_content, ll_tables):
    g = coop(ll_content, ll_tables, "arythea_ritual_of_pain", "arythea", ["wound", "march"])
    g.sc.set_cards(0, hand=["wound", "march"], deck=["march"] * 12)
    g.do("use_skill", 0)
    g.do("choose", 1)                                        # throw away the one Wound (0-2)
    assert "wound" not in g.player["hand"]
    end_turn_to_next_start(g)
    g.do("regular_turn")
    g.sc.set_cards(0, hand=["march", "wound"])             # a Wound drawn
    g.do("use_skill", 0)
    assert g.actions() == ["choose(1)"]                      # the Wound only (Power of Pain)
    g.do("choose", 1)
    assert Rules(g.core).move_points == 3                    # a Wound as Move 3
    assert g.player["hand"] == ["march"]


@pytest.mark.covers("goldyx_source_opening", "effect")
def test_goldyx_source_opening_secondary_extra_basic_die_and_its_crystal(ll_content, ll_tables):
    g = coop(ll_content, ll_tables, "goldyx_source_opening", "goldyx")
    g.sc.set_cards(0, hand=["march"], deck=["rage"] * 12)
    g.eng.set_dice(["gold", "gold", "gold"])
    g.do("use_skill", 0)
    g.do("choose", 63)                                       # no reroll
    end_turn_to_next_start(g)
    g.do("regular_turn")
    g.eng.set_dice(["gold", "green", "black"])
    g.do("use_skill", 0)
    assert g.actions() == ["choose(1)"]                      # the green die only
    g.do("choose", 1)
    assert g.player["crystals"]["green"] == 1 and tokens(g) == {"green": 1}
    assert g.d["source"]["taken"] == [1]                      # die 1 (format 2: indices)
