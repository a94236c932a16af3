"""Skill handlers of ext/_fx_skills.pyx (rule 8, skills.toml): the skills added after the
first set - On Her Own, Wolf's Howl, Prayer of Weather, Healing Ritual, Mana Exploit,
Invocation, Universal Power, Taunt, Resistance Break, Deadly Aim, Leadership, Motivation,
Source Freeze, Hawk Eyes, Flight.  Enemy numbers from enemies.toml: prowlers Armor 3 /
Attack 4, golems Armor 5 (physical resistance), ice golems Armor 4 (physical and ice
resistance), sorcerers Armor 6 (Arcane Immunity).  Units: peasants Attack 2 / Block 2,
Utem Crossbowmen Ranged Attack 2 (ability 1)."""
import pytest

from interaction_setup import Game
from mksim._combat import CombatTester
from mksim._rules import Rules
from mksim import content as _ct

PAY_DIE = 10
PLAINS, HILLS, FOREST, LAKE = 0, 1, 2, 6
PEASANT_BLOCK = 1


def game(content, tables, skills, hand=(), hero="arythea", tactic="early_bird", **kw):
    g = Game(content, tables, hand=list(hand), hero=hero, tactic=tactic, **kw)
    g.sc.set_skills(0, skills)
    return g


def skill_acts(g):
    return [a for a in g.actions() if a.startswith("use_skill")]


def chooses(g):
    return sorted(int(a[7:-1]) for a in g.actions() if a.startswith("choose("))


def hand_names(g):
    return g.player["hand"]


# -- On Her Own (Wolfhawk) --------------------------------------------------------------------

def village_game(content, tables):
    g = game(content, tables, ["wolfhawk_on_her_own"], hand=["march"], hero="wolfhawk",
             site=_ct.SITE_IDS.index("village"))
    g.ut.set_unit_offer(["peasants"])
    assert skill_acts(g) == []                   # Influence: only in interaction (10.2.2)
    g.do("interact")
    return g


@pytest.mark.covers("wolfhawk_on_her_own", "effect")
def test_on_her_own_influence_3_forbids_recruiting_for_the_rest_of_the_turn(content, tables):
    g = village_game(content, tables)
    g.do("use_skill", 0)
    assert chooses(g) == [0, 1]
    g.do("choose", 1)
    assert g.turn["influence"] == 3
    g.ut.set_turn(influence=10)                  # enough for the peasants (cost 4)
    assert g.of_kind("recruit") == []
    with pytest.raises(ValueError, match="illegal"):
        g.recruit(0)


@pytest.mark.covers("wolfhawk_on_her_own", "effect")
def test_on_her_own_influence_1_keeps_recruiting_and_only_1_after_a_recruit(content, tables):
    g = village_game(content, tables)
    g.do("use_skill", 0)
    g.do("choose", 0)
    assert g.turn["influence"] == 1
    g.ut.set_turn(influence=4)
    g.recruit(0)                                 # 10.6: peasants for 4
    assert g.player["units"][0]["unit"] == "peasants"
    # next turn in a village again: a unit was recruited earlier in *that* turn -> Influence 1
    g2 = village_game(content, tables)
    g2.ut.set_turn(influence=4)
    g2.recruit(0)
    g2.do("use_skill", 0)                        # no question: Influence 1 only
    assert g2.turn["influence"] == 1 and chooses(g2) == []


# -- Wolf's Howl (Wolfhawk, interactive) ------------------------------------------------------

@pytest.mark.covers("wolfhawk_wolfs_howl", "effect")
def test_wolfs_howl_sideways_4_plus_1_per_free_command_token(content, tables):
    """Level 1: one Command token (7.2.1), no unit: March sideways gives Move 4 + 1 = 5."""
    g = game(content, tables, ["wolfhawk_wolfs_howl"], hand=["march", "rage"], hero="wolfhawk")
    g.do("use_skill", 0)
    assert chooses(g) == [0, 1]
    g.do("choose", 0)
    d = g.d
    assert d["turn"]["move_points"] == 5 and hand_names(g) == ["rage"]
    assert "use_skill(0)" not in g.actions()     # 8.2.2: once a round, face down


@pytest.mark.covers("wolfhawk_wolfs_howl", "effect")
def test_wolfs_howl_no_free_token_gives_4_and_not_in_interaction(content, tables):
    g = game(content, tables, ["wolfhawk_wolfs_howl"], hand=["march"], hero="wolfhawk")
    g.ut.set_unit(0, "peasants")                 # the only Command token is used
    g.do("use_skill", 0)
    g.do("choose", 0)
    assert g.d["turn"]["move_points"] == 4
    g2 = game(content, tables, ["wolfhawk_wolfs_howl"], hand=["march"], hero="wolfhawk",
              site=_ct.SITE_IDS.index("village"))
    g2.do("interact")
    assert skill_acts(g2) == []                  # skill text: not during interaction


# -- Prayer of Weather (Norowas, interactive) -------------------------------------------------

@pytest.mark.covers("norowas_prayer_of_weather", "effect")
def test_prayer_of_weather_terrain_costs_minus_2_min_1(content, tables):
    """By Day (9.2): plains 2 -> 1 (min 1), hills 3 -> 1, forest 3 -> 1; a lake stays closed."""
    g = game(content, tables, ["norowas_prayer_of_weather"], hero="norowas")
    R = Rules(g.core)
    nb = [h for h in R.neighbours(g.pos) if h >= 0][:4]
    for h, t in zip(nb, (PLAINS, HILLS, FOREST, LAKE)):
        R.set_hex(h, terrain=t)
    assert [R.move_cost(h) for h in nb] == [2, 3, 3, -1]
    g.do("use_skill", 0)
    assert [R.move_cost(h) for h in nb] == [1, 1, 1, -1]


# -- Healing Ritual (Arythea, interactive) ----------------------------------------------------

@pytest.mark.covers("arythea_healing_ritual", "effect")
def test_healing_ritual_throws_away_up_to_2_wounds(content, tables):
    g = game(content, tables, ["arythea_healing_ritual"], hand=["wound", "wound", "wound", "march"])
    g.do("use_skill", 0)
    assert chooses(g) == [1, 2]                  # up to 2 (ASK_NUMBER)
    g.do("choose", 2)
    assert hand_names(g) == ["wound", "march"]
    assert "wound" not in g.player["discard"]    # back to the Wound pile (solo: nobody closer)


@pytest.mark.covers("arythea_healing_ritual", "effect")
def test_healing_ritual_one_wound_no_question_and_not_in_combat(content, tables):
    g = game(content, tables, ["arythea_healing_ritual"], hand=["wound", "march"])
    g.do("use_skill", 0)
    assert hand_names(g) == ["march"] and chooses(g) == []
    g2 = game(content, tables, ["arythea_healing_ritual"], hand=["wound", "march"])
    g2.ut.start_combat(["prowlers"])
    assert skill_acts(g2) == []                  # outside combat only


# -- Mana Exploit (Tovak, interactive) --------------------------------------------------------

@pytest.mark.covers("tovak_mana_exploit", "effect")
def test_mana_exploit_gives_a_non_gold_token(content, tables):
    g = game(content, tables, ["tovak_mana_exploit"], hero="tovak")
    g.do("use_skill", 0)
    assert chooses(g) == [0, 1, 2, 3, 5]         # red blue white green black, no gold
    g.do("choose", 1)
    assert g.d["turn"]["mana_tokens"] == {"blue": 1}


# -- Invocation (Arythea) --------------------------------------------------------------------

@pytest.mark.covers("arythea_invocation", "effect")
def test_invocation_wound_for_red_or_black(content, tables):
    g = game(content, tables, ["arythea_invocation"], hand=["wound", "march"])
    g.do("use_skill", 0)
    assert chooses(g) == [0, 1]                  # any card of the hand
    g.do("choose", 0)
    assert chooses(g) == [0, 5]                  # red or black
    g.do("choose", 0)
    assert g.d["turn"]["mana_tokens"] == {"red": 1}
    assert hand_names(g) == ["march"] and g.player["discard"].count("wound") == 1


@pytest.mark.covers("arythea_invocation", "effect")
def test_invocation_non_wound_for_white_or_green(content, tables):
    g = game(content, tables, ["arythea_invocation"], hand=["wound", "march"])
    g.do("use_skill", 0)
    g.do("choose", 1)
    assert chooses(g) == [2, 3]
    g.do("choose", 3)
    assert g.d["turn"]["mana_tokens"] == {"green": 1}
    assert hand_names(g) == ["wound"] and "march" in g.player["discard"]


# -- Universal Power (Goldyx) ----------------------------------------------------------------

@pytest.mark.covers("goldyx_universal_power", "effect")
def test_universal_power_matching_colour_gives_4_other_3(content, tables):
    """March (green) sideways with a green token: Move 4; Rage (red) with a green token: 3."""
    g = game(content, tables, ["goldyx_universal_power"], hand=["march", "rage"], hero="goldyx")
    g.sc.set_mana_tokens([0, 0, 0, 2, 0, 0])
    g.do("use_skill", 0)
    g.do("choose", 0)                            # March
    assert 3 in chooses(g)                       # pay code 3: the green token
    g.do("choose", 3)
    assert g.d["turn"]["move_points"] == 4 and g.d["turn"]["mana_tokens"] == {"green": 1}
    g2 = game(content, tables, ["goldyx_universal_power"], hand=["march", "rage"], hero="goldyx")
    g2.sc.set_mana_tokens([0, 0, 0, 1, 0, 0])
    g2.do("use_skill", 0)
    g2.do("choose", 1)                           # Rage
    g2.do("choose", 3)
    assert g2.d["turn"]["move_points"] == 3 and g2.d["turn"]["mana_tokens"] == {}


@pytest.mark.covers("goldyx_universal_power", "effect")
def test_universal_power_needs_mana(content, tables):
    g = game(content, tables, ["goldyx_universal_power"], hand=["march"], hero="goldyx")
    g.eng.set_dice(["black", "black", "black"])  # by Day no usable die, no token, no crystal
    assert skill_acts(g) == []


# -- Taunt, Dueling-free combat skills (Wolfhawk), Resistance Break (Tovak) -------------------

@pytest.mark.covers("wolfhawk_taunt", "effect")
def test_taunt_plus_2_attack_and_armor_minus_2(content, tables):
    g = game(content, tables, ["wolfhawk_taunt"], hero="wolfhawk")
    T = CombatTester(g.core)
    g.ut.start_combat(["prowlers"])
    assert skill_acts(g) == []                   # Block phase only
    g.do("next_phase")
    g.do("use_skill", 0)
    g.do("choose", 0)                            # prowlers' attack
    assert chooses(g) == [0, 1]
    g.do("choose", 1)
    assert T.block_needed(0) == 6 and T.enemy_armor(0) == 1   # 4 + 2; 3 - 2 (min 1)


@pytest.mark.covers("wolfhawk_taunt", "effect")
def test_taunt_minus_1_attack(content, tables):
    g = game(content, tables, ["wolfhawk_taunt"], hero="wolfhawk")
    T = CombatTester(g.core)
    g.ut.start_combat(["prowlers"])
    g.do("next_phase")
    g.do("use_skill", 0)
    g.do("choose", 0)
    g.do("choose", 0)
    assert T.block_needed(0) == 3 and T.enemy_armor(0) == 3


@pytest.mark.covers("tovak_resistance_break", "effect")
def test_resistance_break_armor_minus_1_per_resistance_not_arcane_immune(content, tables):
    g = game(content, tables, ["tovak_resistance_break"], hero="tovak")
    T = CombatTester(g.core)
    g.ut.start_combat(["prowlers", "golems", "ice_golems", "sorcerers"])
    g.do("use_skill", 0)
    assert chooses(g) == [1, 2]                  # no resistance / Arcane Immunity (LL-6.7.1)
    g.do("choose", 2)
    assert [T.enemy_armor(s) for s in range(4)] == [3, 5, 2, 6]


@pytest.mark.covers("tovak_resistance_break", "effect")
def test_resistance_break_not_offered_without_a_resistant_enemy(content, tables):
    g = game(content, tables, ["tovak_resistance_break"], hero="tovak")
    g.ut.start_combat(["prowlers", "sorcerers"])
    assert skill_acts(g) == []


# -- Deadly Aim (Wolfhawk) --------------------------------------------------------------------

@pytest.mark.covers("wolfhawk_deadly_aim", "effect")
def test_deadly_aim_plus_2_to_a_sideways_attack_card(content, tables):
    g = game(content, tables, ["wolfhawk_deadly_aim"], hand=["march", "rage"], hero="wolfhawk")
    T = CombatTester(g.core)
    g.ut.start_combat(["prowlers"])
    g.do("next_phase")                           # block
    g.do("next_phase")                           # nothing blocked: damage phase
    g.do("damage_from", 0)
    g.do("damage_hero")
    while T.phase != "attack":
        g.do("next_phase")
    g.do("use_skill", 0)
    g.do("sideways", 0 | (2 << 7))               # Attack 1 + 2
    g.do("sideways", 0 | (2 << 7))               # the next card: Attack 1 only
    assert T.attack_value([0]) == 4


@pytest.mark.covers("wolfhawk_deadly_aim", "effect")
def test_deadly_aim_plus_1_to_a_ranged_card_lost_with_the_phase(content, tables):
    """Swiftness powered (white die): Ranged Attack 3 + 1 = 4 in the Ranged phase."""
    g = game(content, tables, ["wolfhawk_deadly_aim"], hand=["swiftness", "march"], hero="wolfhawk")
    g.eng.set_dice(["red", "blue", "white"])
    T = CombatTester(g.core)
    g.ut.start_combat(["prowlers"])
    g.do("use_skill", 0)
    g.play(0, powered=1, pay=PAY_DIE + 2)
    assert T.attack_value([0]) == 4


# -- Leadership (Norowas) ---------------------------------------------------------------------

@pytest.mark.covers("norowas_leadership", "effect")
def test_leadership_block_plus_3_for_the_next_unit_block(content, tables):
    g = game(content, tables, ["norowas_leadership"], hero="norowas")
    g.ut.set_unit(0, "peasants")
    g.ut.start_combat(["prowlers"])
    g.do("next_phase")                           # Block phase: only the Block option
    g.do("use_skill", 0)
    assert chooses(g) == []
    g.activate(0, PEASANT_BLOCK)
    assert g.ut.block_pool == [5, 0, 0, 0]       # 2 + 3


@pytest.mark.covers("norowas_leadership", "effect")
def test_leadership_ranged_plus_1_in_the_ranged_phase(content, tables):
    g = game(content, tables, ["norowas_leadership"], hero="norowas")
    g.ut.set_unit(0, "utem_crossbowmen")
    T = CombatTester(g.core)
    g.ut.start_combat(["prowlers"])
    g.do("use_skill", 0)
    g.activate(0, 1)                             # Ranged Attack 2 + 1
    assert T.attack_value([0]) == 3


@pytest.mark.covers("norowas_leadership", "effect")
def test_leadership_not_offered_without_a_ready_unit(content, tables):
    g = game(content, tables, ["norowas_leadership"], hero="norowas")
    g.ut.set_unit(0, "peasants", ready=0)
    g.ut.start_combat(["prowlers"])
    g.do("next_phase")
    assert skill_acts(g) == []


# -- Motivation (8.3.2, 4.1.1) ---------------------------------------------------------------

def end_turn_to_next_start(g):
    g.do("end_turn")
    while "draw(0)" not in g.actions():
        g.do("discard", 0)
    g.do("draw")
    assert g.d["phase"] == "turn_start"


@pytest.mark.covers("arythea_motivation", "effect")
@pytest.mark.covers("goldyx_motivation", "effect")
def test_motivation_draws_2_before_the_turn_and_locks_other_motivations(content, tables):
    g = game(content, tables, ["arythea_motivation", "goldyx_motivation"], hand=["march"])
    g.sc.set_cards(0, deck=["rage"] * 12, hand=["march"])
    end_turn_to_next_start(g)
    n_hand = len(hand_names(g))
    assert skill_acts(g) == ["use_skill(0)", "use_skill(1)"]     # before the turn (4.1.1)
    g.do("use_skill", 0)
    assert len(hand_names(g)) == n_hand + 2
    assert g.d["turn"]["mana_tokens"] == {}      # solo: never "alone the lowest Fame"
    assert skill_acts(g) == []                   # the other Motivation is locked
    g.do("regular_turn")
    assert "use_skill(1)" not in g.actions()     # ... until the end of this turn
    end_turn_to_next_start(g)
    assert "use_skill(1)" in g.actions()


@pytest.mark.covers("arythea_motivation", "effect")
@pytest.mark.covers("goldyx_motivation", "effect")
def test_motivation_during_the_turn_locks_through_the_next_turn(content, tables):
    g = game(content, tables, ["arythea_motivation", "goldyx_motivation"], hand=["march"])
    g.sc.set_cards(0, deck=["rage"] * 10, hand=["march"])
    g.do("use_skill", 1)
    assert hand_names(g) == ["march", "rage", "rage"]
    end_turn_to_next_start(g)
    assert skill_acts(g) == []                   # locked until the end of the next turn
    g.do("regular_turn")
    end_turn_to_next_start(g)
    assert skill_acts(g) == ["use_skill(0)"]


# -- Source Freeze (Goldyx, interactive) ------------------------------------------------------

@pytest.mark.covers("goldyx_source_freeze", "effect")
def test_source_freeze_crystal_of_a_source_die_colour_on_the_next_turn(content, tables):
    g = game(content, tables, ["goldyx_source_freeze"], hand=["march"], hero="goldyx")
    g.do("use_skill", 0)
    assert g.of_kind("skill_crystal") == []      # not on this turn
    end_turn_to_next_start(g)
    g.eng.set_dice(["gold", "blue", "black"])
    assert g.of_kind("skill_crystal") == ["skill_crystal(1)"]    # basic colours only
    g.do("regular_turn")
    g.do("skill_crystal", 1)
    assert g.player["crystals"]["blue"] == 1
    assert g.d["source"]["dice"] == ["gold", "blue", "black"]   # the die stays, not rerolled
    assert g.of_kind("skill_crystal") == []


@pytest.mark.covers("goldyx_source_freeze", "effect")
def test_source_freeze_crystal_lost_after_the_next_turn(content, tables):
    g = game(content, tables, ["goldyx_source_freeze"], hand=["march"], hero="goldyx")
    g.do("use_skill", 0)
    end_turn_to_next_start(g)
    g.eng.set_dice(["red", "blue", "white"])
    g.do("regular_turn")
    assert len(g.of_kind("skill_crystal")) == 3
    end_turn_to_next_start(g)
    assert g.of_kind("skill_crystal") == []


# -- Hawk Eyes (Wolfhawk) ---------------------------------------------------------------------

@pytest.mark.covers("wolfhawk_hawk_eyes", "effect")
def test_hawk_eyes_at_night_exploring_costs_1(content, tables):
    g = game(content, tables, ["wolfhawk_hawk_eyes"], hero="wolfhawk")
    R = Rules(g.core)
    R.set_time("night")
    edge = [h for h in range(R.n_hexes) if R.explorable(h) and R.is_safe(h)][0]
    R.set_position(edge)                         # a space next to an unexplored position
    assert g.of_kind("explore") == []
    g.do("use_skill", 0)                         # Move 1
    assert R.move_points == 1
    ex = g.of_kind("explore")
    assert ex                                    # 2 - 1 = 1 Move is enough
    a, b = (int(v) for v in ex[0][8:-1].split(","))
    g.do("explore", ((a + 64) << 7) | (b + 64))
    assert R.move_points == 0


@pytest.mark.covers("wolfhawk_hawk_eyes", "effect")
def test_hawk_eyes_by_day_reveals_garrisons_2_spaces_away(content, tables):
    g = game(content, tables, ["wolfhawk_hawk_eyes"], hero="wolfhawk")
    R = Rules(g.core)
    T = CombatTester(g.core)
    q, r = R.hex_coords(g.pos)
    far = [h for h in range(R.n_hexes)
           if max(abs(R.hex_coords(h)[0] - q), abs(R.hex_coords(h)[1] - r),
                  abs(R.hex_coords(h)[0] + R.hex_coords(h)[1] - q - r)) == 2][0]
    R.set_hex(far, site=_ct.SITE_IDS.index("keep"), tokens=[T.token_for("swordsmen")])
    hx = lambda h: [x for t in g.d["map"]["tiles"] for x in t["hexes"] if x["index"] == h][0]
    assert hx(far)["tokens_face_up"] is False
    g.do("use_skill", 0)
    assert hx(far)["tokens_face_up"] is True and R.move_points == 1


# -- Flight (Goldyx) --------------------------------------------------------------------------

@pytest.mark.covers("goldyx_flight", "effect")
def test_flight_adjacent_for_free_or_two_spaces_for_2_move(content, tables):
    g = game(content, tables, ["goldyx_flight"], hand=["march"], hero="goldyx")
    R = Rules(g.core)
    nb = [h for h in R.neighbours(g.pos) if h >= 0]
    R.set_hex(nb[0], terrain=LAKE)               # not safe to land on (9.7.1)
    safe = [h for h in sorted(nb) if R.is_safe(h)]
    assert nb[0] not in safe and len(safe) >= 1
    g.do("use_skill", 0)
    assert chooses(g) == list(range(len(safe)))  # no Move: only the adjacent safe spaces
    g.do("choose", len(safe) - 1)
    assert R.position(0) == safe[-1] and R.move_points == 0
    assert "use_skill(0)" not in g.actions()     # 8.2.1: once a round


@pytest.mark.covers("goldyx_flight", "effect")
def test_flight_two_spaces_costs_2_move(content, tables):
    g = game(content, tables, ["goldyx_flight"], hand=["march"], hero="goldyx")
    R = Rules(g.core)
    g.play(0)                                    # March: Move 2
    q, r = R.hex_coords(g.pos)
    g.do("use_skill", 0)
    options = chooses(g)
    g.do("choose", options[-1])                  # the last in hex order
    q2, r2 = R.hex_coords(R.position(0))
    dist = max(abs(q2 - q), abs(r2 - r), abs(q2 + r2 - q - r))
    assert (dist, R.move_points) in ((2, 0), (1, 2))


# -- Know Your Prey (Wolfhawk) ----------------------------------------------------------------

@pytest.mark.covers("wolfhawk_know_your_prey", "effect")
def test_know_your_prey_swift_ignored_block_3_is_enough(content, tables):
    """Wolf riders: Attack 3 Swift (11.6.5: Block 6 needed); without Swift, Block 3."""
    g = game(content, tables, ["wolfhawk_know_your_prey"], hero="wolfhawk")
    T = CombatTester(g.core)
    g.ut.start_combat(["wolf_riders"])
    g.do("next_phase")
    assert T.block_needed(0) == 6
    g.do("use_skill", 0)
    g.do("choose", 0)                            # the wolf riders
    assert chooses(g) == [2]                     # Swift (AB_SWIFT = 1 << 2); physical attack
    g.do("choose", 2)
    assert T.block_needed(0) == 3
    assert "use_skill(0)" not in g.actions()     # 8.2.1: once a round


@pytest.mark.covers("wolfhawk_know_your_prey", "effect")
def test_know_your_prey_cold_fire_becomes_ice_or_resistance_lost(content, tables, ll_content, ll_tables):
    """Altem Mages (the Lost Legion token, LL-2.10.11): Cold Fire Attack 4, Brutal, Poison,
    physical resistance.  Cold Fire -> Ice: a Fire Block 4 is now efficient (11.9.3): 4
    instead of 2."""
    g = game(ll_content, ll_tables, ["wolfhawk_know_your_prey"], hero="wolfhawk")
    T = CombatTester(g.core)
    g.ut.start_combat(["altem_mages"])
    g.do("next_phase")
    g.do("use_skill", 0)
    g.do("choose", 0)
    assert chooses(g) == [3, 4, 11, 16, 17]      # Brutal, Poison, physical res., -> Fire, -> Ice
    g.do("choose", 17)
    T.set_block("fire", 4)
    assert T.block_value(0) == 4
    g2 = game(content, tables, ["wolfhawk_know_your_prey"], hero="wolfhawk")
    T2 = CombatTester(g2.core)
    g2.ut.start_combat(["golems"])
    g2.do("use_skill", 0)
    g2.do("choose", 0)
    g2.do("choose", 11)                          # physical resistance lost (11.9.2)
    T2.set_phase("attack")
    T2.set_attack("melee", "physical", 5)
    assert T2.attack_value([0]) == 5


@pytest.mark.covers("wolfhawk_know_your_prey", "effect")
def test_know_your_prey_not_against_arcane_immunity(content, tables):
    g = game(content, tables, ["wolfhawk_know_your_prey"], hero="wolfhawk")
    g.ut.start_combat(["sorcerers"])
    assert skill_acts(g) == []                   # LL-6.7.1


# -- Polarization (Arythea) -------------------------------------------------------------------

@pytest.mark.covers("arythea_polarization", "effect")
def test_polarization_red_crystal_as_blue_mana_powers_stamina(content, tables):
    """A red crystal used as blue: Stamina (blue) powered gives Move 4."""
    g = game(content, tables, ["arythea_polarization"], hand=["stamina"])
    g.sc.set_crystals(0, [1, 0, 0, 0])
    g.eng.set_dice(["black", "black", "black"])  # no usable die by Day
    assert not [a for a in g.actions() if a.startswith("play(hand=0, powered=1")]
    g.do("use_skill", 0)
    assert chooses(g) == [6, 10, 11, 12]         # the red crystal (6); black dice by Day (10-12)
    g.do("choose", 6)                            # one opposite colour: no question
    assert g.player["crystals"]["red"] == 0 and g.d["turn"]["mana_tokens"] == {"blue": 1}
    g.play(0, powered=1, pay=1)                  # the blue token
    assert g.d["turn"]["move_points"] == 4


@pytest.mark.covers("arythea_polarization", "effect")
def test_polarization_black_die_by_day_as_any_basic_colour_but_not_for_a_spell(content, tables):
    g = game(content, tables, ["arythea_polarization"], hand=["meditation", "march"])
    g.eng.set_dice(["black", "gold", "gold"])
    g.do("use_skill", 0)
    assert 10 in chooses(g)                      # the black die (pay code 10)
    g.do("choose", 10)
    assert chooses(g) == [0, 1, 2, 3]            # any basic colour
    g.do("choose", 3)
    assert g.d["turn"]["mana_tokens"] == {"green": 1} and g.d["turn"]["dice_used"] == 1
    # Meditation (green Spell): not with that green token (skill text); March powered: yes
    assert not [a for a in g.actions() if a.startswith("play(hand=0") and "pay=3," in a]
    assert "play(hand=1, powered=1, pay=3, pay2=31)" in g.actions()
    g.sc.set_mana_tokens([0, 0, 0, 2, 0, 0])     # another green token: that one may pay
    assert "play(hand=0, powered=0, pay=3, pay2=31)" in g.actions()


@pytest.mark.covers("arythea_polarization", "effect")
def test_polarization_gold_die_at_night_as_black(content, tables):
    g = game(content, tables, ["arythea_polarization"], hand=["rage"])
    Rules(g.core).set_time("night")
    g.eng.set_dice(["gold", "gold", "gold"])
    g.do("use_skill", 0)
    g.do("choose", 10)
    assert g.d["turn"]["mana_tokens"] == {"black": 1}


# -- Dueling (Wolfhawk) -----------------------------------------------------------------------

def duel(content, tables, hand, unit=None):
    """A monster den holding prowlers, entered (10.7.6): the combat ends like a real one."""
    g = game(content, tables, ["wolfhawk_dueling"], hand=hand, hero="wolfhawk",
             site=_ct.SITE_IDS.index("monster_den"))
    if unit:
        g.ut.set_unit(0, unit)
    T = CombatTester(g.core)
    T.place(g.pos, [T.token_for("prowlers")])
    g.do("enter_site")
    assert T.n_enemies == 1 and T.enemy(0)["enemy"] == "prowlers"
    assert skill_acts(g) == []                   # Block phase only
    g.do("next_phase")
    g.do("use_skill", 0)                         # one enemy: no question
    return g


@pytest.mark.covers("wolfhawk_dueling", "effect")
def test_dueling_block_1_attack_1_and_fame_1_without_units(content, tables):
    """Prowlers (Attack 4, Armor 3, Fame 2): Block 1 + 3 cards sideways blocks; in the Attack
    phase Attack 1 + 2 cards sideways defeats them; Fame 2 + 1."""
    g = duel(content, tables, ["march", "rage", "stamina", "swiftness", "tranquility"])
    T = CombatTester(g.core)
    fame = T.fame
    for _ in range(3):
        g.do("sideways", 0 | (3 << 7))
    assert T.block_value(0) == 3 and "block(0)" in g.actions()   # + Dueling's 1 (counted at commit)
    g.do("block", 0)
    assert T.attack_live(0) is False
    g.do("next_phase")
    assert T.phase == "attack"
    g.do("sideways", 0 | (2 << 7))
    assert "attack(1)" not in g.actions()        # 1 + 1 < 3
    g.do("sideways", 0 | (2 << 7))
    g.do("attack", 1)                            # 2 + Dueling's 1 = 3
    g.do("next_phase")
    assert T.fame == fame + 3


@pytest.mark.covers("wolfhawk_dueling", "effect")
def test_dueling_no_fame_bonus_when_a_unit_blocks_that_enemy(content, tables):
    g = duel(content, tables, ["march", "rage", "stamina"], unit="peasants")
    T = CombatTester(g.core)
    fame = T.fame
    g.activate(0, PEASANT_BLOCK)                 # Block 2
    g.do("sideways", 0 | (3 << 7))               # + 1 + Dueling's 1 = 4
    g.do("block", 0)
    g.do("next_phase")
    g.do("sideways", 0 | (2 << 7))
    g.do("sideways", 0 | (2 << 7))
    g.do("attack", 1)
    g.do("next_phase")
    assert T.fame == fame + 2


# -- Bonds of Loyalty (Norowas, passive) ------------------------------------------------------

def bonds_village(content, tables):
    """Level 1 (one Command token, 7.2.1) already holding peasants; a village offering
    peasants (Influence 4) twice."""
    g = game(content, tables, ["norowas_bonds_of_loyalty"], hero="norowas",
             site=_ct.SITE_IDS.index("village"))
    g.ut.set_unit(0, "peasants")
    g.ut.set_unit_offer(["peasants", "peasants"])
    g.do("interact")
    return g


BONDS_RECRUIT = 0x10000   # A_RECRUIT argument bit (ext/_engine.pxd)


@pytest.mark.covers("norowas_bonds_of_loyalty", "effect")
def test_bonds_of_loyalty_extra_token_recruits_5_cheaper_and_cannot_be_disbanded(content, tables):
    g = bonds_village(content, tables)
    g.ut.set_turn(influence=0)
    assert g.of_kind("recruit") == ["recruit(offer=0, bonds=1)", "recruit(offer=1, bonds=1)"]  # 4 - 5 -> 0
    g.do("recruit", 0 | BONDS_RECRUIT)
    assert [u["unit"] for u in g.player["units"]] == ["peasants", "peasants"]
    assert g.turn["influence"] == 0
    g.ut.set_turn(influence=4)
    # the normal token is taken: recruiting means disbanding - never the Bonds unit (slot 1)
    assert g.of_kind("recruit") == ["recruit(offer=0, disband=0)"]
    with pytest.raises(ValueError, match="illegal"):
        g.recruit(0, disband=1)


@pytest.mark.covers("norowas_bonds_of_loyalty", "effect")
def test_bonds_of_loyalty_unit_usable_where_units_are_not(content, tables):
    g = bonds_village(content, tables)
    g.ut.set_turn(influence=0)
    g.do("recruit", 0 | BONDS_RECRUIT)                   # the Bonds unit is in slot 1
    g.do("end_interact")
    g.ut.start_combat(["prowlers"], units_allowed=0)     # 7.3.8: no units here
    g.do("next_phase")
    units = sorted({a.split(",")[0] for a in g.of_kind("activate_unit")})
    assert units == ["activate_unit(unit=1"]


@pytest.mark.covers("norowas_prayer_of_weather", "effect")
def test_prayer_of_weather_with_path_finding_hills_cost_1(content, tables):
    """9.6.2: reductions in any order: Path Finding basic (-1, min 2) and Prayer (-2, min 1)
    take hills 3 -> 2 -> 1 (Prayer last)."""
    g = game(content, tables, ["norowas_prayer_of_weather"], hand=["path_finding"], hero="norowas")
    R = Rules(g.core)
    h = [h for h in R.neighbours(g.pos) if h >= 0][0]
    R.set_hex(h, terrain=HILLS)
    g.play(0)                                    # Path Finding basic
    assert R.move_cost(h) == 2
    g.do("use_skill", 0)
    assert R.move_cost(h) == 1
