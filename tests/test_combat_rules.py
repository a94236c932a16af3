"""Combat rules (ext/_combat.pyx): 11.4.5, 11.5-11.12, 12.2, 21.2 A17-A18 and Lost Legion
LL-6.1, LL-6.3-LL-6.6, LL-6.9.

Every test names the rule it checks.  Situations are built on a real Solo Conquest setup
(Lost Legion content in, for its enemies) and driven through ``CombatTester``.  Enemy and
unit statistics quoted in the docstrings come from the shipped enemies.toml / units.toml /
levels.toml (level 1: Armor 2, Hand limit 5).
"""
import pytest

from mksim._combat import CombatTester
from mksim._state import GameCore

SEED = 7
ILLEGAL = -1
STAY, DISCARD = 0, 1


@pytest.fixture
def T(tables, content):
    return CombatTester(GameCore.new(tables, content, "solo_conquest", "arythea", SEED,
                                     lost_legion_cards=True))


def to_block(T, *enemies, **kw):
    T.begin(list(enemies), **kw)
    assert T.next_phase() == "block"


def to_damage(T, *enemies, **kw):
    to_block(T, *enemies, **kw)
    assert T.next_phase() == "damage"


# --- 11.3 / 11.5: ranged and siege phase, fortification ----------------------------------

def test_11_3_2_begin_enters_ranged_phase(T):
    """11.3.1-11.3.2: the enemies are in the combat and the first phase is Ranged/Siege."""
    T.begin(["prowlers", "diggers"])
    assert T.phase == "ranged" and T.active and T.n_enemies == 2
    assert T.enemy(0)["enemy"] == "prowlers" and T.enemy(1)["enemy"] == "diggers"


def test_11_5_3_ranged_cannot_hit_fortified_siege_can(T):
    """11.5.3, 11.10.2: diggers (Fortified, Armor 3): Ranged 5 counts 0, Siege 3 defeats it."""
    T.begin(["diggers"])
    assert T.fortification_level(0) == 1
    assert not T.can_target_in_ranged(0, siege_only=False)
    assert T.can_target_in_ranged(0, siege_only=True)
    T.set_attack("ranged", "physical", 5)
    assert T.attack_value([0]) == 0
    assert T.resolve_attack([0]) == 0          # 11.5.8: no effect
    assert T.enemy(0)["flags"] == []
    T.set_attack("siege", "physical", 3)
    assert T.attack_value([0]) == 3
    assert T.resolve_attack([0]) == 1
    assert "defeated" in T.enemy(0)["flags"]


def test_11_5_3_one_fortified_target_limits_the_whole_attack_to_siege(T):
    """11.5.3, 11.5.9: prowlers + diggers together: only Siege counts; prowlers alone: Ranged too."""
    T.begin(["prowlers", "diggers"])
    T.set_attack("ranged", "physical", 4)
    T.set_attack("siege", "physical", 2)
    T.set_attack("melee", "physical", 9)       # 11.5.2: never in this phase
    assert T.attack_value([0, 1]) == 2
    assert T.attack_value([0]) == 6


def test_11_10_1_site_fortified_garrison(T):
    """11.10.1: prowlers defending a keep are fortified (Ranged 5 counts 0)."""
    T.begin(["prowlers"], site_fortified=True)
    assert T.fortification_level(0) == 1
    T.set_attack("ranged", "physical", 5)
    assert T.attack_value([0]) == 0


def test_11_5_4_doubly_fortified_not_targetable_in_ranged_phase(T):
    """11.5.4: diggers (Fortified) defending a keep: illegal target even for Siege; fine in
    the Attack phase (11.8.1, 11.10.3)."""
    T.begin(["diggers"], site_fortified=True)
    assert T.fortification_level(0) == 2
    assert not T.can_target_in_ranged(0, siege_only=True)
    T.set_attack("siege", "physical", 10)
    assert T.attack_value([0]) == ILLEGAL
    assert T.resolve_attack([0]) == ILLEGAL
    assert T.attack_value([0], "attack") == 10


def test_11_10_4_rampaging_joiner_not_site_fortified(T):
    """11.2.2, 11.10.4: a rampaging enemy joining an assault is not fortified by the site."""
    T.begin(["prowlers", "prowlers"], site_fortified=True, rampaging=[1])
    assert T.fortification_level(0) == 1
    assert T.fortification_level(1) == 0


def test_LL_6_6_unfortified_ignores_site_fortification(T):
    """LL-6.6.1: shocktroops (Unfortified) defending a keep are not fortified: Ranged counts."""
    T.begin(["shocktroops"], site_fortified=True)
    assert T.fortification_level(0) == 0
    assert T.can_target_in_ranged(0, siege_only=False)
    T.set_attack("ranged", "physical", 6)
    assert T.attack_value([0]) == 6


def test_11_8_1_attack_phase_combines_all_kinds(T):
    """11.8.1: in the Attack phase melee, ranged and siege add up; fortification is ignored."""
    T.begin(["diggers"], site_fortified=True)
    T.set_attack("melee", "physical", 1)
    T.set_attack("ranged", "physical", 2)
    T.set_attack("siege", "physical", 3)
    assert T.attack_value([0], "attack") == 6


# --- 11.9.2: resistances ------------------------------------------------------------------

def test_11_9_2_physical_resistance_halves_physical_only(T):
    """11.9.2: golems (Armor 5, physical resistance): physical 7 -> 7//2 = 3 fails;
    physical 7 + fire 2 -> 3 + 2 = 5 succeeds."""
    T.begin(["golems"])
    T.set_phase("attack")
    T.set_attack("melee", "physical", 7)
    assert T.attack_value([0]) == 3
    assert T.resolve_attack([0]) == 0
    T.set_attack("melee", "physical", 7)
    T.set_attack("melee", "fire", 2)
    assert T.attack_value([0]) == 5
    assert T.resolve_attack([0]) == 1


def test_11_9_2_inefficient_parts_summed_before_halving(T):
    """11.9.2: physical 3 + physical-resistant target: 3 ranged + 3 siege -> (3+3)//2 = 3, not 1+1."""
    T.begin(["golems"])
    T.set_attack("ranged", "physical", 3)
    T.set_attack("siege", "physical", 3)
    assert T.attack_value([0]) == 3


def test_11_9_2_any_target_resistance_halves_the_group(T):
    """11.9.2, 11.5.9: prowlers + golems together: physical 8 -> 4; prowlers alone: 8."""
    T.begin(["prowlers", "golems"])
    T.set_attack("ranged", "physical", 8)
    assert T.attack_value([0, 1]) == 4
    assert T.attack_value([0]) == 8


def test_11_9_2_cold_fire_halved_only_by_both_resistances_on_one_enemy(T):
    """11.9.2: high_dragon (fire + ice resistant): cold fire 6 -> 3.  fire_mages (fire) +
    ice_mages (ice) targeted together: cold fire 6 stays 6, fire 6 -> 3, ice 6 -> 3."""
    T.begin(["high_dragon", "fire_mages", "ice_mages"])
    T.set_attack("ranged", "coldfire", 6)
    assert T.attack_value([0]) == 3
    assert T.attack_value([1, 2]) == 6
    T.clear_pools()
    T.set_attack("ranged", "fire", 6)
    assert T.attack_value([1, 2]) == 3
    T.clear_pools()
    T.set_attack("ranged", "ice", 6)
    assert T.attack_value([1, 2]) == 3


# --- 11.5.7 / 11.5.8 / 11.4.5 / LL-6.9: outcome of an attack ---------------------------------

def test_11_5_7_fame_at_once_and_token_discarded(T):
    """11.5.7: prowlers (Armor 3, Fame 2) hit by Ranged 3: defeated, +2 Fame at once, token in
    the green discard pile at once [R]."""
    T.begin(["prowlers", "prowlers"])
    fame = T.fame
    T.set_attack("ranged", "physical", 6)
    assert T.resolve_attack([0, 1]) == 1       # 11.5.7: one attack, several targets
    assert T.fame == fame + 4
    assert T.pile_discard("green") == ["prowlers", "prowlers"]
    assert all("defeated" in T.enemy(s)["flags"] for s in (0, 1))


def test_11_5_8_failed_attack_has_no_effect_and_points_are_lost(T):
    """11.5.8, 11.4.5: Ranged 5 against two prowlers (Armor 3+3): nothing happens and the
    points are gone (a following check finds an empty pool)."""
    T.begin(["prowlers", "prowlers"])
    fame = T.fame
    T.set_attack("ranged", "physical", 5)
    assert T.resolve_attack([0, 1]) == 0
    assert T.fame == fame and T.enemy(0)["flags"] == [] and T.enemy(1)["flags"] == []
    assert T.attack_value([0]) == 0


def test_11_5_7_defeated_enemy_cannot_be_targeted_again(T):
    """11.5.7: a defeated token takes no further part in the combat."""
    T.begin(["prowlers"])
    T.set_attack("ranged", "physical", 3)
    assert T.resolve_attack([0]) == 1
    T.set_attack("ranged", "physical", 3)
    assert T.attack_value([0]) == ILLEGAL


def test_LL_6_9_reputation_reward_and_clamp(T):
    """LL-6.9.1: thugs give +1 Reputation, heroes -1; LL-6.9.4: clamped at -7."""
    T.begin(["thugs", "heroes_swift"])
    T.set_phase("attack")
    T.set_reputation(0)
    T.set_attack("melee", "physical", 5)
    assert T.resolve_attack([0]) == 1
    assert T.reputation == 1
    T.set_reputation(-7)
    T.set_attack("melee", "physical", 5)
    assert T.resolve_attack([1]) == 1
    assert T.reputation == -7


# --- 11.6: blocks ---------------------------------------------------------------------------

def test_11_6_5_swift_needs_double_block(T):
    """11.6.5: werewolf (Attack 7, Swift) needs Block 14: 13 fails (11.6.7), 14 succeeds."""
    to_block(T, "werewolf")
    assert T.block_needed(0) == 14
    T.set_block("physical", 13)
    assert T.resolve_block(0) == 0
    assert T.attack_live(0)                    # 11.6.7: no partial effect
    T.set_block("physical", 14)
    assert T.resolve_block(0) == 1
    assert not T.attack_live(0)
    assert "blocked" in T.enemy(0)["flags"]


def test_11_9_3_fire_attack_block_efficiency(T):
    """11.9.3, 11.6.4: fire_mages (Fire Attack 6): Ice block 3 counts 3; physical block 6 counts 3;
    both together 3 + 3 = 6 block it."""
    to_block(T, "fire_mages")
    T.set_block("ice", 3)
    assert T.block_value(0) == 3
    T.clear_pools()
    T.set_block("physical", 6)
    assert T.block_value(0) == 3
    T.set_block("ice", 3)
    assert T.block_value(0) == 6
    assert T.resolve_block(0) == 1


def test_11_9_3_ice_and_physical_attacks(T):
    """11.9.3: ice_mages (Ice Attack 5): Fire 5 efficient, Ice 5 -> 2; prowlers (physical):
    any element in full."""
    to_block(T, "ice_mages", "prowlers")
    T.set_block("fire", 5)
    assert T.block_value(0) == 5
    T.clear_pools()
    T.set_block("ice", 5)
    assert T.block_value(0) == 2
    assert T.block_value(1) == 5


def test_11_9_3_cold_fire_only_blocked_efficiently_by_cold_fire(T):
    """11.9.3: high_dragon (Cold Fire Attack 6): Cold Fire 6 -> 6; Fire 6 -> 3; Ice 6 -> 3;
    Fire 3 + Ice 3 + physical 2 -> (3+3+2)//2 = 4."""
    to_block(T, "high_dragon")
    for el, want in (("coldfire", 6), ("fire", 3), ("ice", 3)):
        T.clear_pools()
        T.set_block(el, 6)
        assert T.block_value(0) == want, el
    T.clear_pools()
    T.set_block("fire", 3)
    T.set_block("ice", 3)
    T.set_block("physical", 2)
    assert T.block_value(0) == 4


def test_11_6_6_blocked_enemy_can_still_be_attacked(T):
    """11.6.6: a blocked prowlers is not defeated; Attack 3 in the Attack phase defeats it."""
    to_block(T, "prowlers")
    T.set_block("physical", 4)
    assert T.resolve_block(0) == 1
    assert T.next_phase() == "attack"          # 11.7.1: nothing hits, phase skipped
    T.set_attack("melee", "physical", 3)
    assert T.resolve_attack([0]) == 1


def test_LL_6_1_multiple_attacks_blocked_separately(T):
    """LL-6.1.2: orc_skirmishers (Attacks 1 and 1): Block 2 on attack 0 stops only attack 0;
    attack 1 still deals its 1 damage (one Wound to a level-1 hero).  LL-6.1.6: not counted
    as blocked."""
    to_block(T, "orc_skirmishers")
    assert T.n_attacks(0) == 2
    T.set_block("physical", 2)
    assert T.resolve_block(0, 0) == 1
    assert T.resolve_block(0, 0) == ILLEGAL    # already blocked
    assert T.attack_live(0, 1)
    assert "blocked" not in T.enemy(0)["flags"]
    assert T.next_phase() == "damage"
    assert T.damage_start(0, 0) == ILLEGAL
    assert T.damage_start(0, 1) == 1
    assert T.damage_to_hero() == 1


def test_LL_6_1_8_swift_applies_to_each_attack(T):
    """LL-6.1.8, 11.6.5: heroes_swift (Attacks 3 and 2, Swift) need Block 6 and 4."""
    to_block(T, "heroes_swift")
    assert (T.block_needed(0, 0), T.block_needed(0, 1)) == (6, 4)


def test_LL_6_5_cumbersome_move_points_reduce_the_attack(T):
    """LL-6.5.2-6.5.3: orc_stonethrowers (Attack 7, Cumbersome): 3 Move -> Attack 4 (needs
    Block 4, and deals 4); 4 more -> 0, counts as blocked."""
    to_block(T, "orc_stonethrowers", "prowlers")
    assert T.reduce_attack(0, 0, 3) == 4
    assert T.block_needed(0) == 4
    assert T.reduce_attack(1, 0, 1) == ILLEGAL  # not Cumbersome
    assert T.reduce_attack(0, 0, 4) == 0
    assert not T.attack_live(0)
    assert "blocked" in T.enemy(0)["flags"]


# --- 11.6.2 / A18 / LL-6.1.3: summoning ---------------------------------------------------------

def test_11_6_2_summoner_draws_a_brown_monster_that_replaces_it(T):
    """11.6.2: orc_summoners draw one brown token at the start of the Block phase; it attacks
    in their place (the summoner has no attack) and cannot be targeted by attacks."""
    T.begin(["orc_summoners"])
    assert T.n_attacks(0) == 0
    assert T.next_phase() == "block"
    assert T.n_enemies == 2
    m = T.enemy(1)
    assert m["summoned_by"] == 0
    assert m["enemy"] in ("minotaur", "gargoyle", "medusa", "crypt_worm", "werewolf",
                          "manticore", "hydra", "shadow")
    assert T.attack_live(1, 0)
    assert T.summon() == 0                      # idempotent


def test_11_6_6_blocked_summoned_monster_discarded_without_fame(T):
    """11.6.6 [R], A18: a fully blocked summoned monster goes to the brown discard pile at
    once and gives no Fame; 11.6.2: the summoner returns for the Attack phase."""
    T.begin(["orc_summoners"])
    T.next_phase()
    fame = T.fame
    for i in range(T.n_attacks(1)):
        T.set_block("coldfire", 30)
        assert T.resolve_block(1, i) == 1
    assert "gone" in T.enemy(1)["flags"]
    assert T.pile_discard("brown") == [T.enemy(1)["enemy"]]
    assert T.fame == fame
    assert T.next_phase() == "attack"           # 11.7.1: nothing hits
    T.set_attack("melee", "physical", 4)
    assert T.resolve_attack([1]) == ILLEGAL     # the monster is gone
    assert T.resolve_attack([0]) == 1           # the summoner (Armor 4, Fame 4)
    assert T.fame == fame + 4


def test_11_7_11_summoned_monster_discarded_after_damage(T):
    """11.7.11 [R], A18: an unblocked summoned monster deals its damage, then is discarded."""
    T.begin(["orc_summoners"])
    T.next_phase()
    assert T.next_phase() == "damage"
    for i in range(T.n_attacks(1)):
        assert T.damage_start(1, i) >= 0
        if T.dmg_left:
            T.damage_to_hero()
    assert T.next_phase() == "attack"
    assert "gone" in T.enemy(1)["flags"]
    assert T.pile_discard("brown") == [T.enemy(1)["enemy"]]


def test_A18_defeated_summoner_summons_nothing(T):
    """21.2 A18: a summoner defeated in the Ranged phase summons nothing."""
    T.begin(["orc_summoners"])
    T.set_attack("ranged", "physical", 4)
    assert T.resolve_attack([0]) == 1
    assert T.next_phase() == "block"
    assert T.n_enemies == 1


def test_LL_6_1_3_dragon_summoner_summons_two(T):
    """LL-6.1.3: the Dragon Summoner draws two brown tokens, each blocked separately."""
    T.begin(["dragon_summoner"])
    T.next_phase()
    assert T.n_enemies == 3
    assert T.enemy(1)["summoned_by"] == 0 and T.enemy(2)["summoned_by"] == 0


# --- 11.7: damage -------------------------------------------------------------------------------

def test_11_7_2_brutal_doubles_damage(T):
    """11.7.2: ironclads (Attack 4, Brutal) deal 8; prowlers (Attack 4) deal 4."""
    to_damage(T, "ironclads", "prowlers")
    assert T.damage_of(0) == 8
    assert T.damage_of(1) == 4


def test_11_7_7_hero_wounds_ceil_damage_over_armor(T):
    """11.7.7: level-1 hero (Armor 2): 5 damage -> 3 Wounds, 4 -> 2, 1 -> 1; level 5 (Armor 3):
    7 -> 3.  Wounds go to the hand."""
    T.begin(["prowlers"])
    n = len(T.hand)
    assert T.assign_to_hero(5) == 3
    assert T.hand.count("wound") == 3 and len(T.hand) == n + 3
    assert T.assign_to_hero(1) == 1
    T.begin(["prowlers"])
    T.set_hand([])
    assert T.assign_to_hero(4) == 2
    T.set_level(5)
    T.set_hand([])
    assert T.assign_to_hero(7) == 3


def test_11_7_4_unit_wounded_then_armor_reduces(T):
    """11.7.4: peasants (Armor 3): 5 damage -> wounded, 2 left; another peasants takes 1 damage
    -> wounded, 0 left.  12.2.2: a wounded Unit cannot be assigned damage."""
    T.begin(["prowlers"])
    a = T.give_unit("peasants")
    b = T.give_unit("peasants")
    assert T.assign_to_unit(a, 5) == 2
    assert T.unit(a)["wounds"] == 1
    assert T.assign_to_unit(b, 1) == 0
    assert T.unit(b)["wounds"] == 1
    assert T.assign_to_unit(a, 3) == ILLEGAL    # 12.2.2


def test_11_7_5_resistant_unit_absorbs_twice_its_armor(T):
    """11.7.5: guardian_golems (Armor 3, physical resistance): 6 physical -> one Wound, 0 left;
    3 physical -> no Wound, 0 left; 8 physical -> one Wound, 2 left; 6 fire -> not resistant:
    Wound, 3 left."""
    T.begin(["prowlers"])
    u = [T.give_unit("guardian_golems") for _ in range(4)]
    assert T.assign_to_unit(u[0], 6) == 0 and T.unit(u[0])["wounds"] == 1
    assert T.assign_to_unit(u[1], 3) == 0 and T.unit(u[1])["wounds"] == 0
    assert T.assign_to_unit(u[2], 8) == 2 and T.unit(u[2])["wounds"] == 1
    assert T.assign_to_unit(u[3], 6, "fire") == 3 and T.unit(u[3])["wounds"] == 1


def test_11_7_5_cold_fire_resisted_by_fire_and_ice(T):
    """11.7.5: altem_mages unit (Armor 5, fire + ice resistant) resists Cold Fire 5 without a
    Wound; guardian_golems (physical only) do not."""
    T.begin(["prowlers"])
    a = T.give_unit("altem_mages")
    g = T.give_unit("guardian_golems")
    assert T.assign_to_unit(a, 5, "coldfire") == 0 and T.unit(a)["wounds"] == 0
    assert T.assign_to_unit(g, 5, "coldfire") == 2 and T.unit(g)["wounds"] == 1


def test_11_7_6_unit_that_resisted_cannot_take_damage_again(T):
    """11.7.6: after absorbing 3 without a Wound, guardian_golems cannot be assigned damage
    again this combat; a new combat resets it."""
    T.begin(["prowlers"])
    g = T.give_unit("guardian_golems")
    assert T.assign_to_unit(g, 3) == 0
    assert T.unit(g)["damaged_this_combat"]
    assert T.assign_to_unit(g, 1) == ILLEGAL
    T.begin(["prowlers"])
    assert T.assign_to_unit(g, 1) == 0


def test_11_7_9_poison_two_wounds_on_unit_and_extra_wounds_in_discard(T):
    """11.7.9: a Poison attack puts 2 Wounds on a Unit; on the hero (Armor 2) 5 damage puts 3
    Wounds in hand and 3 more in the discard pile; those do not count for knock-out (A17)."""
    T.begin(["prowlers"])
    u = T.give_unit("peasants")
    assert T.assign_to_unit(u, 2, poison=True) == 0
    assert T.unit(u)["wounds"] == 2
    T.clear_discard()
    assert T.assign_to_hero(5, poison=True) == 3
    assert T.hand.count("wound") == 3
    assert T.discard == ["wound"] * 3
    assert T.wounds_this_combat == 3 and not T.knocked_out


def test_11_7_9_poison_enemy_through_the_damage_phase(T):
    """11.7.9: cursed_hags (Attack 3, Poison) unblocked, all on peasants: 2 Wounds, 0 left."""
    to_damage(T, "cursed_hags")
    u = T.give_unit("peasants")
    assert T.damage_start(0) == 3
    assert T.damage_to_unit(u) == 0
    assert T.unit(u)["wounds"] == 2
    assert "damage_done" in T.enemy(0)["flags"]


def test_11_7_10_paralyze_destroys_unit_and_discards_hand(T):
    """11.7.10: a Paralyze attack destroys a Unit instead of wounding it (its Banner goes to
    the discard pile, 7.5.2); a hero taking a Wound discards every non-Wound card."""
    T.begin(["prowlers"])
    u = T.give_unit("peasants", banner="banner_of_glory")
    T.clear_discard()
    assert T.assign_to_unit(u, 2, paralyze=True) == 0
    assert T.unit(u) is None
    assert T.discard == ["banner_of_glory"]
    hand = T.hand
    assert T.assign_to_hero(1, paralyze=True) == 1
    assert T.hand == ["wound"]
    assert T.discard == ["banner_of_glory"] + hand


def test_11_7_10_paralyze_absorbed_by_resistance_does_not_destroy(T):
    """11.7.5 + 11.7.10: no Wound (resistance absorbed all) means no destruction."""
    T.begin(["prowlers"])
    g = T.give_unit("guardian_golems")
    assert T.assign_to_unit(g, 3, paralyze=True) == 0
    assert T.unit(g)["unit"] == "guardian_golems"


def test_11_7_8_knock_out_at_hand_limit(T):
    """11.7.8, A17: level 1 (Hand limit 5): 3 + 2 Wounds to hand this combat knock the hero out:
    the 5 non-Wound cards are discarded; later Wounds are still taken, without a second
    knock-out discard."""
    T.begin(["prowlers"])
    hand = T.hand
    assert len(hand) == 5 and "wound" not in hand
    T.clear_discard()
    assert T.assign_to_hero(5) == 3
    assert not T.knocked_out and len(T.hand) == 8
    assert T.assign_to_hero(3) == 2
    assert T.knocked_out
    assert T.hand == ["wound"] * 5
    assert T.discard == hand
    T.set_hand(["wound", "rage"])
    assert T.assign_to_hero(2) == 1
    assert T.hand == ["wound", "rage", "wound"]  # A17: not knocked out again


def test_A17_wounds_from_other_sources_count_for_knock_out(T):
    """11.7.8, A17: Wounds from card effects during combat count towards knock-out."""
    T.begin(["prowlers"])
    assert T.hero_take_wounds(4) == 4 and not T.knocked_out
    assert T.assign_to_hero(1) == 1
    assert T.knocked_out and set(T.hand) == {"wound"}


def test_LL_6_4_assassination_damage_only_to_hero(T):
    """LL-6.4.1: sorcerers (Attack 6, Poison, Assassination) cannot damage Units; the hero
    (Armor 2) takes 3 Wounds + 3 Poison Wounds in the discard pile.  LL-6.4.2: Units may
    still block (the block itself is not restricted)."""
    to_damage(T, "sorcerers")
    u = T.give_unit("peasants")
    T.clear_discard()
    assert T.damage_start(0) == 6
    assert T.damage_to_unit(u) == ILLEGAL
    assert T.damage_to_hero() == 3
    assert T.discard.count("wound") == 3
    assert T.unit(u)["wounds"] == 0


def test_7_3_8_units_not_allowed(T):
    """7.3.8: in a combat without Units (dungeon, tomb) damage cannot go to a Unit."""
    to_damage(T, "prowlers", units_allowed=False)
    u = T.give_unit("peasants")
    T.damage_start(0)
    assert T.damage_to_unit(u) == ILLEGAL


def test_11_7_3_all_damage_must_be_assigned(T):
    """11.7.3, 11.7.12: the Attack phase cannot start while damage is unassigned; several
    Units may share one attack's damage, the rest goes to the hero."""
    to_damage(T, "werewolf")                    # Attack 7
    a = T.give_unit("peasants")                 # Armor 3
    b = T.give_unit("foresters")                # Armor 4
    assert T.next_phase() == ILLEGAL
    assert T.damage_start(0) == 7
    assert T.next_phase() == ILLEGAL
    assert T.damage_to_unit(a) == 4
    assert T.damage_to_unit(b) == 0
    assert T.next_phase() == "attack"


def test_11_7_1_damage_phase_skipped_when_all_blocked(T):
    """11.7.1 [R]: with every attack blocked the Assign Damage phase is skipped."""
    to_block(T, "prowlers")
    T.set_block("physical", 4)
    T.resolve_block(0)
    assert T.next_phase() == "attack"


# --- LL-6.3: elusive ------------------------------------------------------------------------------

def test_LL_6_3_elusive_armor(T):
    """LL-6.3.3-6.3.4: orc_trackers (Armor 3, elusive 6): 6 in the Ranged phase; after its
    attack is blocked, 3 in the Attack phase."""
    T.begin(["orc_trackers"])
    assert T.enemy_armor(0) == 6
    T.next_phase()
    assert T.enemy_armor(0) == 6
    T.set_block("physical", 4)
    assert T.resolve_block(0) == 1
    assert T.next_phase() == "attack"
    assert T.enemy_armor(0) == 3
    T.set_attack("melee", "physical", 3)
    assert T.resolve_attack([0]) == 1


def test_LL_6_3_5_elusive_unblocked_keeps_higher_armor(T):
    """LL-6.3.5: orc_trackers not blocked (damage taken): Armor 6 in the Attack phase, so
    Attack 5 fails."""
    to_damage(T, "orc_trackers")
    T.damage_start(0)
    T.damage_to_hero()
    assert T.next_phase() == "attack"
    assert T.enemy_armor(0) == 6
    T.set_attack("melee", "physical", 5)
    assert T.resolve_attack([0]) == 0


def test_LL_6_3_7_armor_modifier_applies_to_both_values(T):
    """LL-6.3.7: Armor -1 makes orc_trackers 5 / 2; armor never drops below 1."""
    T.begin(["orc_trackers", "prowlers"])
    T.set_armor_delta(0, -1)
    assert T.enemy_armor(0) == 5
    T.next_phase()
    T.set_block("physical", 4)
    T.resolve_block(0)
    T.set_block("physical", 4)
    T.resolve_block(1)
    T.next_phase()
    assert T.enemy_armor(0) == 2
    T.set_armor_delta(1, -9)
    assert T.enemy_armor(1) == 1


# --- 11.12: combat outcome ------------------------------------------------------------------------

def test_11_12_rampaging_survivor_stays_defeated_leaves(T):
    """11.12.4: an undefeated rampaging enemy stays on its space; 10.7.14.2 / 11.5.7: a
    defeated one leaves it and goes to its discard pile."""
    T.begin(["prowlers", "diggers"], rampaging=[0, 1], hexes=[3, 4])
    assert T.hex_tokens(3) and T.hex_tokens(4)
    T.set_attack("siege", "physical", 3)
    assert T.resolve_attack([1]) == 1
    assert T.hex_tokens(4) == []
    T.next_phase()
    T.set_block("physical", 4)
    T.resolve_block(0)
    T.next_phase()
    assert T.end(DISCARD) == (1, 1)
    assert len(T.hex_tokens(3)) == 1           # rampaging: stays whatever the policy
    assert T.pile_discard("green") == ["diggers"]
    assert not T.active


def test_11_12_4_dungeon_survivors_discarded_den_survivors_stay(T):
    """11.12.4: undefeated enemies drawn at a dungeon are discarded; at a monster den they stay
    on the space, revealed."""
    T.begin(["minotaur"], site_hex=5)
    T.next_phase()
    T.set_block("physical", 5)
    T.resolve_block(0)
    T.next_phase()
    assert T.end(DISCARD) == (0, 1)
    assert T.pile_discard("brown") == ["minotaur"]
    tok = T.begin(["gargoyle"], site_hex=6)[0]
    T.next_phase()
    T.set_block("physical", 5)
    T.resolve_block(0)
    T.next_phase()
    assert T.end(STAY) == (0, 1)
    assert T.hex_tokens(6) == [tok]


def test_11_12_3_site_cleared_ignores_rampaging_joiners(T):
    """11.12.3: a fortified site is conquered once its defenders are defeated, whether or not
    rampaging enemies that joined were."""
    T.begin(["prowlers", "prowlers"], site_fortified=[0], rampaging=[1])
    assert not T.site_cleared()
    T.set_attack("siege", "physical", 3)
    assert T.resolve_attack([0]) == 1
    assert T.site_cleared()
