"""Spell and Artifact handlers (ext/_fx_spells.pyx, ext/_fx_artifacts.pyx) in the decision
loop.  Rules 5.1.5-5.1.6, 5.3.2, 5.4.2-5.4.3, 6.1.4-6.1.5, 6.2.1-6.2.2, 9.2, 9.7, 11.6,
11.8, 12.3, 13.7.2; card texts from spells.toml / artifacts.toml.  Rule numbers in the names."""
import pytest

from mksim import _engine
from mksim._combat import CombatTester
from mksim._engine import Engine, describe, encode
from mksim._rules import Rules
from mksim._scoring import ScoringTester
from mksim._state import GameCore
from mksim.effects import TERRAINS
from mksim.fixtures import MOD_KINDS


def terrain_delta(turn: dict) -> dict:
    """{terrain: Move cost change} of the live terrain_delta modifiers of a to_dict() turn
    (9.6.2; arg = terrain + 1, 0 = every terrain): what the TurnState field held."""
    kind = MOD_KINDS.index("terrain_delta")
    out: dict = {}
    for m in turn["mods"][:turn["n_mods"]]:
        if m["kind"] == kind:
            for t, name in enumerate(TERRAINS):
                if m["arg"] in (0, t + 1):
                    out[name] = out.get(name, 0) + m["value"]
    return {k: v for k, v in out.items() if v}

ASK_DONE = 63
NONE = 31                      # payment code: nothing
CRYSTAL, DIE = 6, 10           # payment codes: crystal of colour c = 6 + c, Source die i = 10 + i
RED, BLUE, WHITE, GREEN, GOLD, BLACK = range(6)


def play_code(hand, powered, pay=NONE, pay2=NONE):
    return encode("play", hand | (powered << 7) | (pay << 8) | (pay2 << 13))


def acts(eng):
    return [describe(int(a)) for a in eng.legal_actions()]


def codes(eng):
    return [int(a) for a in eng.legal_actions()]


def start(content, tables, hand, time="day", deck=None, discard=None, tokens=None, crystals=None,
          dice=None, seed=1):
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", seed)
    if time == "night":
        Rules(core).set_time("night")
    eng = Engine(core, tables, content, "first_reconnaissance")
    eng.apply(encode("tactic", content.ids("tactics").index(
        "early_bird" if time == "day" else "from_the_dusk")))
    sc = ScoringTester(core)
    sc.set_cards(0, hand=hand, deck=deck if deck is not None else [], discard=discard if discard is not None else [])
    if dice is not None:
        eng.set_dice(dice)
    eng.apply(encode("regular_turn"))
    if tokens is not None:
        sc.set_mana_tokens(tokens)
    if crystals is not None:
        sc.set_crystals(0, crystals)
    return core, eng, sc


def player(core):
    return core.to_dict()["players"][0]


def crystals(core):
    c = player(core)["crystals"]
    return [c.get(x, 0) for x in ("red", "blue", "white", "green")] if isinstance(c, dict) else list(c)


# -- 6.1.5 Artifacts: Endless Gem Pouch, Rings, Golden Grail, Amulets ------------------------

@pytest.mark.covers("endless_gem_pouch", "basic")
def test_5_7_endless_gem_pouch_rolls_two_dice_each_a_crystal_gold_chosen_black_fame(content, tables):
    """Endless Gem Pouch: 2 rolls; basic colour = crystal, gold = chosen crystal, black = Fame +1."""
    seen = set()
    for seed in range(12):
        core, eng, sc = start(content, tables, ["endless_gem_pouch"], seed=seed)
        fame0 = player(core)["fame"]
        eng.apply(play_code(0, 0))
        golds = 0
        while "choose(0)" in acts(eng):               # a gold roll: any basic colour
            assert acts(eng) == [f"choose({c})" for c in range(4)]
            eng.apply(encode("choose", GREEN))
            golds += 1
        gained = sum(crystals(core)) + (player(core)["fame"] - fame0)
        assert gained == 2                             # exactly two rolls
        seen.add(golds)
        assert player(core)["hand"] == [] and player(core)["play_area"] == ["endless_gem_pouch"]
    assert seen                                        # the pouch resolved every time


@pytest.mark.covers("ruby_ring", "powered")
def test_6_1_5_ruby_ring_thrown_away_gives_endless_red_and_fame_per_red_spell(content, tables):
    """Ruby Ring strong: endless red mana this turn; Fame +1 per red Spell cast (Mana
    Meltdown and Offering, each paid with a red token from the endless supply); the ring
    leaves the game."""
    core, eng, sc = start(content, tables, ["ruby_ring", "mana_meltdown", "offering", "march"],
                          dice=["black", "black", "black"])
    assert play_code(1, 0, pay=RED) not in codes(eng)  # no red mana yet
    eng.apply(play_code(0, 1))                         # thrown away (6.1.5)
    p = player(core)
    assert p["removed"] == 1 and "ruby_ring" not in p["play_area"]
    eng.apply(play_code(0, 0, pay=RED))                # Mana Meltdown with a red token: solo, no effect
    eng.apply(play_code(0, 0, pay=RED))                # Offering with another red token: a red crystal
    eng.apply(encode("choose", ASK_DONE))              # discard nothing
    assert core.to_dict()["turn"]["mana_tokens"] == {}  # the endless supply never runs down
    assert crystals(core) == [1, 0, 0, 0]
    fame0 = player(core)["fame"]
    eng.apply(encode("end_turn"))
    assert player(core)["fame"] == fame0 + 2           # two red Spells cast


@pytest.mark.covers("amulet_of_darkness", "basic")
def test_5_1_6_5_4_3_amulet_of_darkness_by_day_black_usable_and_deserts_cost_3(content, tables):
    """Amulet of Darkness by Day: black mana as at Night, so a Spell's strong effect can be
    paid (5.4.3), and deserts cost 3 instead of 5 (9.2)."""
    core, eng, sc = start(content, tables, ["amulet_of_darkness", "mana_meltdown"],
                          crystals=[1, 0, 0, 0], dice=["black", "blue", "green"])
    strong = play_code(1, 1, pay=CRYSTAL + RED, pay2=DIE + 0)
    assert strong not in codes(eng)                    # 5.1.6: no black by Day
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", WHITE))                 # gain_mana(any): a white token
    assert terrain_delta(core.to_dict()["turn"]) == {"desert": -2}
    strong = play_code(0, 1, pay=CRYSTAL + RED, pay2=DIE + 0)
    assert strong in codes(eng)
    eng.apply(strong)                                  # Mana Radiance: choose a colour
    eng.apply(encode("choose", GREEN))
    p = player(core)
    assert crystals(core) == [0, 0, 0, 2] and p["hand"] == []


@pytest.mark.covers("amulet_of_the_sun", "basic")
def test_5_1_5_amulet_of_the_sun_at_night_gold_usable_forests_cost_3(content, tables):
    """Amulet of the Sun at Night: its gold token may pay (5.1.5 lifted), forests cost 3."""
    core, eng, sc = start(content, tables, ["amulet_of_the_sun", "march"], time="night")
    eng.apply(play_code(0, 0))
    d = core.to_dict()["turn"]
    assert d["mana_tokens"] == {"gold": 1} and terrain_delta(d) == {"forest": -2}
    eng.apply(play_code(0, 1, pay=GOLD))               # March powered with gold: Move 4
    assert core.to_dict()["turn"]["move_points"] == 4


@pytest.mark.covers("amulet_of_the_sun", "powered")
def test_5_1_5_amulet_of_the_sun_by_day_changes_no_cost(content, tables):
    core, eng, sc = start(content, tables, ["amulet_of_the_sun"])
    eng.apply(play_code(0, 1))                         # three gold tokens
    d = core.to_dict()["turn"]
    assert d["mana_tokens"] == {"gold": 3} and terrain_delta(d) == {}


@pytest.mark.covers("golden_grail", "powered")
def test_12_3_3_golden_grail_draws_a_card_per_wound_healed_from_hand(content, tables):
    """Golden Grail strong: Heal 6, and a card drawn for each Wound healed from hand."""
    core, eng, sc = start(content, tables, ["golden_grail", "wound", "wound", "wound"],
                          deck=["march", "rage", "stamina", "swiftness"])
    eng.apply(play_code(0, 1))
    for _ in range(2):
        i = player(core)["hand"].index("wound")
        eng.apply(encode("heal_wound", i))
    p = player(core)
    assert p["hand"] == ["wound", "swiftness", "stamina"] and len(p["deck"]) == 2
    assert core.to_dict()["turn"]["healing"] == 4


@pytest.mark.covers("golden_grail", "basic")
def test_12_3_golden_grail_basic_heal_2_fame_1_per_point_spent_without_drawing(content, tables):
    """Golden Grail basic (card; ll_changed_cards.csv, not changed by LL): Heal 2 and Fame +1
    per point of it spent - one Wound healed from hand: Fame +1, not the flat +2 of MKC."""
    core, eng, sc = start(content, tables, ["golden_grail", "wound"], deck=["march"])
    fame0 = player(core)["fame"]
    eng.apply(play_code(0, 0))
    assert player(core)["fame"] == fame0                 # nothing spent yet
    eng.apply(encode("heal_wound", 0))
    p = player(core)
    assert p["hand"] == [] and p["fame"] == fame0 + 1 and p["deck"] == ["march"]


@pytest.mark.covers("banner_of_fortitude", "powered")
def test_12_3_4_banner_of_fortitude_thrown_away_heals_all_units(content, tables):
    core, eng, sc = start(content, tables, ["banner_of_fortitude"])
    sc.set_units(0, [("peasants", 1, None), ("foresters", 2, None)])
    eng.apply(play_code(0, 1))
    assert [u["wounds"] for u in player(core)["units"]] == [0, 0]


def test_7_5_1_a_banner_without_a_unit_cannot_be_assigned(content, tables):
    """Banners are implemented in tests/test_artifacts_handlers.py; with no Unit the basic
    effect (assign it to a Unit) is not a legal play."""
    core, eng, sc = start(content, tables, ["banner_of_glory"])
    with pytest.raises(ValueError, match="illegal"):
        eng.apply(play_code(0, 0))


@pytest.mark.covers("book_of_wisdom", "basic")
def test_6_5_book_of_wisdom_throws_an_action_away_for_an_aa_of_its_colour(content, tables):
    """Book of Wisdom: throw away an Action card, take an AA of its colour from the offer."""
    core, eng, sc = start(content, tables, ["book_of_wisdom"])
    offer = core.to_dict()["advanced_action_offer"]
    colours = {c["id"]: c["colour"] for c in content["advanced_actions"]}
    colour = colours[offer[1]]
    action = {"red": "rage", "blue": "stamina", "white": "swiftness", "green": "march"}[colour]
    sc.set_cards(0, hand=["book_of_wisdom", action])
    eng.apply(play_code(0, 0))
    assert acts(eng) == ["choose(0)"]                 # the Action card
    eng.apply(encode("choose", 0))
    slots = [int(a.split("(")[1][:-1]) for a in acts(eng)]
    assert slots == [i for i, aa in enumerate(offer) if colours[aa] == colour]   # only its colour
    eng.apply(encode("choose", 1))
    p = player(core)
    assert p["hand"] == [offer[1]] and p["removed"] == 1
    assert p["stats"]["cards_gained"] == [0, 1, 0, 0]            # an AA gained (results store)
    assert core.to_dict()["advanced_action_offer"][1:] == [offer[0], offer[2]]   # 6.4.2 refill


@pytest.mark.covers("tome_of_all_spells", "basic")
def test_6_2_2_tome_of_all_spells_uses_an_offer_spell_without_mana(content, tables):
    """Tome of All Spells: discard March (green) to use Restoration (green, in the offer)
    for free: Heal 3; Restoration stays in the offer."""
    for seed in range(200):
        core = GameCore.new(tables, content, "first_reconnaissance", "arythea", seed)
        if "restoration" in core.to_dict()["spell_offer"]:
            break
    else:
        pytest.fail("no seed put Restoration in the spell offer")
    core, eng, sc = start(content, tables, ["tome_of_all_spells", "march", "wound"], seed=seed)
    offer = core.to_dict()["spell_offer"]
    eng.apply(play_code(0, 0))
    assert acts(eng) == ["choose(0)"]                 # March; never the Wound (6.2.2)
    eng.apply(encode("choose", 0))
    slot = offer.index("restoration")
    assert f"choose({slot})" in acts(eng)
    eng.apply(encode("choose", slot))
    assert core.to_dict()["turn"]["healing"] == 3
    assert core.to_dict()["spell_offer"] == offer and player(core)["discard"] == ["march"]


# -- 11 combat: Horn of Wrath, Sword of Justice, Bow of Starsdawn, Flame Wave, Mana Bolt ----

def combat(core, eng, enemies, phase=None):
    T = CombatTester(core)
    T.begin(enemies)
    if phase:
        T.set_phase(phase)
    return T


@pytest.mark.covers("horn_of_wrath", "powered")
def test_11_5_horn_of_wrath_base_powered_siege_6_plus_2_rolls_2_dice(content, tables):
    """Horn of Wrath powered, base printing (card 10/16, LL-2.10.9): Siege Attack 6 + up to
    6, declared first; one mana die per +1, a Wound for each black or red (2 of 6 faces)."""
    wounds = []
    for seed in range(40):
        core, eng, sc = start(content, tables, ["horn_of_wrath", "march"], seed=seed)
        T = combat(core, eng, ["diggers"])             # Fortified, Armor 3: Siege counts (11.5.3)
        eng.apply(play_code(0, 1))
        assert acts(eng) == [f"choose({k})" for k in range(7)]   # +0 .. +6
        eng.apply(encode("choose", 2))
        assert T.attack_value([0]) == 8
        hand = player(core)["hand"]
        assert hand[0] == "march" and set(hand[1:]) <= {"wound"}
        wounds.append(len(hand) - 1)
    assert set(wounds) == {0, 1, 2}                    # 2 dice: 0, 1 or 2 Wounds
    assert 0.4 < sum(wounds) / len(wounds) < 1.0       # expected 2 x 2/6 = 0.67


@pytest.mark.covers("horn_of_wrath", "basic@ll", "powered@ll")
def test_11_5_horn_of_wrath_ll_siege_5_plus_up_to_5_basic_one_die(ll_content, ll_tables):
    """Horn of Wrath, Lost Legion printing (LL-2.10.1, LL-2.10.9): powered Siege 5 + up to 5;
    basic Siege Attack 5 and one die (at most one Wound)."""
    core, eng, sc = start(ll_content, ll_tables, ["horn_of_wrath", "march"])
    T = combat(core, eng, ["diggers"])
    eng.apply(play_code(0, 1))
    assert acts(eng) == [f"choose({k})" for k in range(6)]   # +0 .. +5
    eng.apply(encode("choose", 5))
    assert T.attack_value([0]) == 10
    seen = set()
    for seed in range(30):
        core, eng, sc = start(ll_content, ll_tables, ["horn_of_wrath", "march"], seed=seed)
        T = combat(core, eng, ["diggers"])
        eng.apply(play_code(0, 0))                     # basic: no question
        assert T.attack_value([0]) == 5
        seen.add(len(player(core)["hand"]) - 1)
    assert seen == {0, 1}


@pytest.mark.covers("horn_of_wrath", "basic")
def test_11_5_horn_of_wrath_base_basic_siege_6_one_die(content, tables):
    """Horn of Wrath basic, base printing (card 10/16): Siege Attack 6, one die roll."""
    seen = set()
    for seed in range(30):
        core, eng, sc = start(content, tables, ["horn_of_wrath", "march"], seed=seed)
        T = combat(core, eng, ["diggers"])
        eng.apply(play_code(0, 0))
        assert T.attack_value([0]) == 6
        seen.add(len(player(core)["hand"]) - 1)
    assert seen == {0, 1}


@pytest.mark.covers("sword_of_justice", "basic")
def test_11_8_sword_of_justice_attack_3_per_discard_and_fame_per_defeated_enemy(content, tables):
    """Sword of Justice: discard 2 cards -> Attack 6; prowlers (Armor 3, Fame 2) defeated:
    Fame 2 + 1 at the end of the combat."""
    core, eng, sc = start(content, tables, ["sword_of_justice", "march", "rage", "wound"])
    T = combat(core, eng, ["prowlers"], phase="attack")
    fame0 = player(core)["fame"]
    eng.apply(play_code(0, 0))
    assert acts(eng) == ["choose(0)", "choose(1)", f"choose({ASK_DONE})"]   # 6.2.2: no Wound
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", 0))                     # only the Wound is left: done
    assert T.attack_value([0]) == 6
    eng.apply(encode("attack", 1))
    assert player(core)["fame"] == fame0 + 2
    eng.apply(encode("next_phase"))                    # the combat ends
    assert player(core)["fame"] == fame0 + 3
    assert player(core)["discard"] == ["march", "rage"]


@pytest.mark.covers("bow_of_starsdawn", "basic")
def test_11_5_bow_of_starsdawn_ranged_2_per_card_fame_per_enemy_defeated_this_phase(content, tables):
    core, eng, sc = start(content, tables, ["bow_of_starsdawn", "march", "rage"])
    T = combat(core, eng, ["prowlers"])                # ranged phase
    fame0 = player(core)["fame"]
    eng.apply(play_code(0, 0))
    eng.apply(encode("choose", 0))
    eng.apply(encode("choose", 0))                     # both cards: Ranged 4 (hand now empty)
    assert T.attack_value([0]) == 4
    eng.apply(encode("attack", 1))
    assert player(core)["fame"] == fame0 + 2
    eng.apply(encode("next_phase"))                    # end of the Ranged phase: +1
    assert player(core)["fame"] == fame0 + 3


@pytest.mark.covers("burning_shield", "basic")
def test_11_6_burning_shield_fire_block_4_then_fire_attack_4(content, tables):
    """Burning Shield: Fire Block 4 blocks prowlers (attack 4); the Attack phase then has
    Fire Attack 4, enough for its Armor 3."""
    core, eng, sc = start(content, tables, ["burning_shield"], tokens=[1, 0, 0, 0, 0, 0])
    T = combat(core, eng, ["prowlers"], phase="block")
    eng.apply(play_code(0, 0, pay=RED))
    eng.apply(encode("block", 0))
    assert "blocked" in T.enemy(0)["flags"]
    while T.phase != "attack":
        eng.apply(encode("next_phase"))
    assert T.attack_value([0]) == 4
    assert "attack(1)" in acts(eng)


def test_11_6_burning_shield_unused_block_gives_no_attack(content, tables):
    core, eng, sc = start(content, tables, ["burning_shield"], tokens=[1, 0, 0, 0, 0, 0])
    T = combat(core, eng, ["prowlers"], phase="block")
    eng.apply(play_code(0, 0, pay=RED))
    eng.apply(encode("next_phase"))                    # no block committed
    while T.phase != "attack":
        acts_now = acts(eng)
        eng.apply(encode("damage_from", 0) if "damage_from(0)" in acts_now else
                  encode("damage_hero") if "damage_hero(0)" in acts_now else encode("next_phase"))
    assert T.attack_value([0]) == 0


@pytest.mark.covers("flame_wall", "powered.1")
def test_5_4_3_flame_wave_at_night_attack_5_plus_2_per_enemy(content, tables):
    """Flame Wave (strong Flame Wall, red + black at Night): Fire Attack 5 + 2 x 2 enemies."""
    core, eng, sc = start(content, tables, ["flame_wall"], time="night", tokens=[1, 0, 0, 0, 0, 1])
    T = combat(core, eng, ["prowlers", "diggers"], phase="attack")
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    eng.apply(encode("choose", 0))                     # the Attack
    assert T.attack_value([0]) == 9


def test_5_4_3_strong_spells_are_not_offered_by_day(content, tables):
    core, eng, sc = start(content, tables, ["flame_wall"], tokens=[1, 0, 0, 0, 0, 1])
    combat(core, eng, ["prowlers"], phase="attack")
    assert play_code(0, 0, pay=RED) in codes(eng)
    assert not any("powered=1" in a for a in acts(eng))


@pytest.mark.covers("mana_bolt", "basic")
def test_6_2_1_mana_bolt_pays_one_more_mana_whose_colour_picks_the_attack(content, tables):
    """Mana Bolt: blue pays the card; a red crystal as the extra mana -> Coldfire Attack 7."""
    core, eng, sc = start(content, tables, ["mana_bolt"], tokens=[0, 1, 0, 0, 0, 0], crystals=[1, 0, 0, 0],
                          dice=["black", "black", "black"])
    T = combat(core, eng, ["prowlers"], phase="attack")
    eng.apply(play_code(0, 0, pay=BLUE))               # pay_mana_by_colour (_fx_advanced.pyx):
    assert T.attack_value([0]) == 7 and crystals(core) == [0, 0, 0, 0]   # the only colour/payment


def test_6_2_1_mana_bolt_not_offered_without_a_second_mana(content, tables):
    core, eng, sc = start(content, tables, ["mana_bolt"], tokens=[0, 1, 0, 0, 0, 0],
                          dice=["black", "black", "black"])
    combat(core, eng, ["prowlers"], phase="attack")
    assert not any(a.startswith("play") for a in acts(eng))


# -- movement and healing spells ------------------------------------------------------------

@pytest.mark.covers("underground_travel", "basic")
def test_9_7_underground_travel_moves_up_to_3_spaces_without_move_points(content, tables):
    core, eng, sc = start(content, tables, ["underground_travel"], tokens=[0, 0, 0, 1, 0, 0])
    start_pos = player(core)["position"]
    eng.apply(play_code(0, 0, pay=GREEN))
    first = acts(eng)
    assert f"choose({ASK_DONE})" not in first and first   # at least one space first
    for _ in range(3):
        options = [a for a in acts(eng) if a != f"choose({ASK_DONE})"]
        if not options:
            break
        eng.apply(encode("choose", int(options[0].split("(")[1][:-1])))
    if f"choose({ASK_DONE})" in acts(eng):
        eng.apply(encode("choose", ASK_DONE))
    d = core.to_dict()
    assert d["turn"]["move_points"] == 0 and player(core)["position"] != start_pos
    assert d["turn"]["path"][-1] == player(core)["position"]
    assert not any(a.startswith("choose") for a in acts(eng))


@pytest.mark.covers("wings_of_wind", "basic")
def test_9_7_wings_of_wind_costs_1_move_per_space(content, tables):
    core, eng, sc = start(content, tables, ["wings_of_wind"], tokens=[0, 0, 1, 0, 0, 0])
    Rules(core).set_move_points(2)
    eng.apply(play_code(0, 0, pay=WHITE))
    options = [a for a in acts(eng) if a != f"choose({ASK_DONE})"]
    eng.apply(encode("choose", int(options[0].split("(")[1][:-1])))
    assert core.to_dict()["turn"]["move_points"] == 1


@pytest.mark.covers("restoration", "basic")
def test_12_3_restoration_heals_3_or_5_in_a_forest(content, tables):
    for terrain, healing in ((0, 3), (2, 5)):          # plains, forest
        core, eng, sc = start(content, tables, ["restoration"], tokens=[0, 0, 0, 1, 0, 0])
        Rules(core).set_hex(player(core)["position"], terrain=terrain)
        eng.apply(play_code(0, 0, pay=GREEN))
        assert core.to_dict()["turn"]["healing"] == healing


@pytest.mark.covers("meditation", "basic")
def test_13_7_2_meditation_two_discards_on_top_and_hand_limit_plus_2(content, tables):
    core, eng, sc = start(content, tables, ["meditation"], tokens=[0, 0, 0, 1, 0, 0],
                          deck=["march"] * 8, discard=["rage", "stamina", "swiftness"])
    eng.apply(play_code(0, 0, pay=GREEN))
    assert acts(eng) == ["choose(0)", "choose(1)"]     # top / bottom
    eng.apply(encode("choose", 0))
    p = player(core)
    moved = p["deck"][-2:]
    assert len(p["discard"]) == 1 and set(moved) | set(p["discard"]) == {"rage", "stamina", "swiftness"}
    assert core.to_dict()["turn"]["hand_limit_bonus"] == 2
    eng.apply(encode("end_turn"))
    eng.apply(encode("draw"))
    hand = player(core)["hand"]
    assert len(hand) == 7 and set(moved) <= set(hand)  # Hand limit 5 + 2


@pytest.mark.covers("mana_meltdown", "powered")
def test_5_3_2_mana_radiance_wounds_per_crystal_then_two_crystals(content, tables):
    """Mana Radiance (Night, red + black): 2 red crystals -> 2 Wounds, then +2 red crystals:
    3 crystals and one red token (5.3.2)."""
    core, eng, sc = start(content, tables, ["mana_meltdown"], time="night",
                          tokens=[1, 0, 0, 0, 0, 1], crystals=[2, 0, 0, 0])
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    eng.apply(encode("choose", RED))
    assert player(core)["hand"] == ["wound", "wound"] and crystals(core) == [3, 0, 0, 0]
    assert core.to_dict()["turn"]["mana_tokens"] == {"red": 1}


@pytest.mark.covers("offering", "basic")
def test_6_2_2_offering_discards_up_to_3_for_crystals_of_their_colours(content, tables):
    core, eng, sc = start(content, tables, ["offering", "march", "stamina", "wound"],
                          tokens=[1, 0, 0, 0, 0, 0])
    eng.apply(play_code(0, 0, pay=RED))                # gain a red crystal first
    assert acts(eng) == ["choose(0)", "choose(1)", f"choose({ASK_DONE})"]
    eng.apply(encode("choose", 0))                     # March: green
    eng.apply(encode("choose", 0))                     # Stamina: blue
    assert crystals(core) == [1, 1, 0, 1]
    assert acts(eng) == []  or not any(a.startswith("choose") for a in acts(eng))


def test_a_handler_declared_by_two_groups_is_refused(content, tables, monkeypatch):
    tables_ = dict(_engine.HANDLER_TABLES)
    tables_[99] = (("burning_shield", ("block", "attack")),)
    monkeypatch.setattr(_engine, "HANDLER_TABLES", tables_)
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", 1)
    with pytest.raises(RuntimeError, match="burning_shield"):
        Engine(core, tables, content, "first_reconnaissance")


# -- destroy effects: errata 6.6.1, Arcane Immunity LL-6.7 ----------------------------------

@pytest.mark.covers("whirlwind", "powered")
def test_6_6_1_tornado_only_in_the_attack_phase_and_destroys_with_fame(content, tables):
    """Tornado (strong Whirlwind, white + black at Night): not in the Ranged or Block phase
    (errata 6.6.1); in the Attack phase it destroys prowlers: Fame +2 (11.5.7)."""
    core, eng, sc = start(content, tables, ["whirlwind"], time="night", tokens=[0, 0, 1, 0, 0, 1])
    T = combat(core, eng, ["prowlers", "diggers"])
    strong = play_code(0, 1, pay=WHITE, pay2=BLACK)
    assert strong not in codes(eng)                    # Ranged and Siege phase
    T.set_phase("block")
    assert strong not in codes(eng)
    T.set_phase("attack")
    assert strong in codes(eng)
    fame0 = player(core)["fame"]
    eng.apply(strong)
    assert acts(eng) == ["choose(0)", "choose(1)"]
    eng.apply(encode("choose", 0))
    assert "defeated" in T.enemy(0)["flags"] and "defeated" not in T.enemy(1)["flags"]
    assert player(core)["fame"] == fame0 + 2


def test_ll_6_7_1_tornado_on_an_arcane_immune_enemy_has_no_effect(content, tables):
    core, eng, sc = start(content, tables, ["whirlwind"], time="night", tokens=[0, 0, 1, 0, 0, 1])
    T = combat(core, eng, ["sorcerers"], phase="attack")
    eng.apply(play_code(0, 1, pay=WHITE, pay2=BLACK))
    eng.apply(encode("choose", 0))
    assert T.enemy(0)["flags"] == []


@pytest.mark.covers("burning_shield", "powered")
def test_ll_6_7_5_exploding_shield_destroys_the_blocked_enemy(content, tables):
    """Exploding Shield (Night): Fire Block 4 blocks prowlers (attack 4) and destroys them."""
    core, eng, sc = start(content, tables, ["burning_shield"], time="night", tokens=[1, 0, 0, 0, 0, 1])
    T = combat(core, eng, ["prowlers"], phase="block")
    fame0 = player(core)["fame"]
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    eng.apply(encode("block", 0))
    assert "defeated" in T.enemy(0)["flags"] and player(core)["fame"] == fame0 + 2


@pytest.mark.covers("offering", "powered")
def test_5_1_2_sacrifice_pairs_of_crystals_give_siege_fire_and_become_tokens(content, tables):
    """Sacrifice (Offering at Night): green + red, 2 green and 1 red crystal -> one pair:
    Siege Fire Attack 4; those two crystals become tokens."""
    core, eng, sc = start(content, tables, ["offering"], time="night", tokens=[1, 0, 0, 0, 0, 1],
                          crystals=[1, 0, 0, 2])
    T = combat(core, eng, ["diggers"])                 # Fortified: only Siege counts now
    eng.apply(play_code(0, 1, pay=RED, pay2=BLACK))
    eng.apply(encode("choose", 0))                     # green + red
    assert T.attack_value([0]) == 4
    assert crystals(core) == [0, 0, 0, 1]
    assert core.to_dict()["turn"]["mana_tokens"] == {"red": 1, "green": 1}


@pytest.mark.covers("cure", "basic")
def test_12_3_3_cure_draws_for_wounds_healed_before_and_after(content, tables):
    """Cure: Heal 2; one Wound healed before it (via Golden Grail's Heal 2) and one after:
    two cards drawn in all."""
    core, eng, sc = start(content, tables, ["golden_grail", "cure", "wound", "wound", "wound"],
                          deck=["march", "rage", "stamina"], tokens=[0, 0, 0, 1, 0, 0])
    eng.apply(play_code(0, 0))                         # Heal 2, Fame 2
    eng.apply(encode("heal_wound", player(core)["hand"].index("wound")))
    assert player(core)["deck"] == ["march", "rage", "stamina"]   # no draw yet
    eng.apply(play_code(0, 0, pay=GREEN))              # Cure: draws 1 now
    assert player(core)["deck"] == ["march", "rage"]
    eng.apply(encode("heal_wound", player(core)["hand"].index("wound")))
    assert player(core)["deck"] == ["march"]
    assert player(core)["hand"].count("wound") == 1


def test_6_2_1_pure_magic_basic_pays_one_mana_whose_colour_picks_the_effect(content, tables):
    """Pure Magic (AA, shares the handler): basic, one green token -> Move 4; with no mana
    it is not offered (6.2.1)."""
    core, eng, sc = start(content, tables, ["pure_magic"], dice=["black", "black", "black"])
    assert not any(a.startswith("play") for a in acts(eng))
    sc.set_mana_tokens([0, 0, 0, 1, 0, 0])
    eng.apply(play_code(0, 0))                         # green: the only colour and payment usable
    d = core.to_dict()["turn"]
    assert d["move_points"] == 4 and d["mana_tokens"] == {}


@pytest.mark.covers("space_bending", "basic")
def test_9_3_space_bending_moves_two_spaces_as_if_adjacent_paying_the_space_entered(content, tables):
    """Space Bending: spaces 2 away become moves (A_MOVE 8 + hex); cost of the space entered
    (9.2.1); the path records it (13.2)."""
    core, eng, sc = start(content, tables, ["space_bending"], tokens=[0, 1, 0, 0, 0, 0])
    Rules(core).set_move_points(5)
    assert not any(a.startswith("move(") and int(a[5:-1]) >= 8 for a in acts(eng))
    eng.apply(play_code(0, 0, pay=BLUE))
    bends = [int(a[5:-1]) - 8 for a in acts(eng) if a.startswith("move(") and int(a[5:-1]) >= 8]
    assert bends
    d = core.to_dict()
    here = player(core)["position"]
    hexes = {h["index"]: h for t in d["map"]["tiles"] for h in t["hexes"]}

    def dist(a, b):
        dq, dr = hexes[b]["q"] - hexes[a]["q"], hexes[b]["r"] - hexes[a]["r"]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    assert all(dist(here, h) == 2 for h in bends)
    cost = {"plains": 2, "hills": 3, "forest": 3, "wasteland": 4, "desert": 5, "swamp": 5}
    to = bends[0]
    eng.apply(encode("move", 8 + to))
    assert player(core)["position"] == to
    assert core.to_dict()["turn"]["move_points"] == 5 - cost[hexes[to]["terrain"]]
    assert core.to_dict()["turn"]["path"][-1] == to


@pytest.mark.covers("mana_claim", "basic")
def test_5_5_mana_claim_keeps_a_die_and_gives_3_tokens_now(content, tables):
    core, eng, sc = start(content, tables, ["mana_claim"], tokens=[0, 1, 0, 0, 0, 0],
                          dice=["gold", "red", "green"])
    eng.apply(play_code(0, 0, pay=BLUE))
    assert acts(eng) == ["choose(1)", "choose(2)"]     # basic colours only, not gold
    eng.apply(encode("choose", 1))
    assert core.to_dict()["source"]["dice"] == ["gold", "green"]
    eng.apply(encode("choose", 0))                     # 3 red tokens now
    assert core.to_dict()["turn"]["mana_tokens"] == {"red": 3}


def test_5_5_mana_claim_per_turn_token_and_the_die_returns_at_round_end(content, tables):
    """Mana Claim, later-turns option: a red token at the start of each later turn; the
    die is back in the Source when the round ends (3 dice again)."""
    core, eng, sc = start(content, tables, ["mana_claim", "march"], tokens=[0, 1, 0, 0, 0, 0],
                          dice=["gold", "red", "green"], deck=["rage"] * 6)
    eng.apply(play_code(0, 0, pay=BLUE))
    eng.apply(encode("choose", 1))
    eng.apply(encode("choose", 1))
    assert core.to_dict()["turn"]["mana_tokens"] == {}
    eng.apply(encode("end_turn"))
    eng.apply(encode("draw"))
    while core.to_dict()["current"] != 0 or core.to_dict()["phase"] != "turn_start":
        eng.apply(int(eng.legal_actions()[0]))
    assert core.to_dict()["turn"]["mana_tokens"] == {"red": 1}
    assert len(core.to_dict()["source"]["dice"]) == 2
    sc.set_cards(0, deck=[])
    eng.apply(encode("announce_end"))                  # 4.2: the round ends after the dummy
    d = core.to_dict()
    assert d["round"] == 2 and len(d["source"]["dice"]) == 3
