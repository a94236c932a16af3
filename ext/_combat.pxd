# Header of ext/_combat.pyx: the rules of combat with enemy tokens (11, 12, LL-6).
#
# Pure C steps (`noexcept nogil`, no Python object) on gs.combat plus the static Statics
# views of _state.  The engine decides what is played; these functions apply the rules:
# attack / block points arrive already totalled in gs.combat.attack[kind][element] and
# gs.combat.block[element].  Enemies are slots of gs.combat.enemies; an enemy's attacks are
# indexed 0 .. n_attacks-1 (LL-6.1).  Negative returns are error codes (CB_* below).
#
# Phase sequence (11.3.2), driven by the engine:
#   combat_begin -> PH_COMBAT_RANGED: attack_value / resolve_attack (11.5)
#   combat_next_phase -> PH_COMBAT_BLOCK: summons drawn (11.6.2); block_value / resolve_block
#   combat_next_phase -> PH_COMBAT_DAMAGE: damage_start, damage_to_unit*, damage_to_hero (11.7)
#                        (skipped straight to the Attack phase when nothing hits, 11.7.1)
#   combat_next_phase -> PH_COMBAT_ATTACK: summoned monsters discarded (11.7.11); attacks (11.8)
#   combat_end: tokens to discard piles / left on their spaces; counts (11.12)
from libc.stdint cimport uint32_t
from mksim._types cimport GameState
from mksim._state cimport Statics

cdef enum CombatCode:
    CB_ILLEGAL = -1            # the decision breaks a rule (target, unit, phase ...)
    CB_CAPACITY = -2           # MAX_COMBAT_ENEMIES reached
    CB_NO_TOKEN = -3           # a pile (and its discards) is empty

cdef enum:
    MAX_ENEMY_ATTACKS = 3      # mksim.tables.MAX_ATTACKS
    # enemy abilities bitmask (content.ENEMY_ABILITIES order)
    AB_FORTIFIED = 1
    AB_UNFORTIFIED = 2
    AB_SWIFT = 4
    AB_BRUTAL = 8
    AB_POISON = 16
    AB_PARALYZE = 32
    AB_SUMMON = 64
    AB_ELUSIVE = 128
    AB_ASSASSINATION = 256
    AB_ARCANE_IMMUNITY = 512
    AB_CUMBERSOME = 1024
    # resistances bitmask (content.RESISTANCES order)
    RES_PHYSICAL = 1
    RES_FIRE = 2
    RES_ICE = 4
    # combat_end policies for undefeated tokens drawn at the site (11.12.4)
    UNDEFEATED_STAY = 0        # monster den, spawning grounds, ruins, fortified sites: stay, revealed
    UNDEFEATED_DISCARD = 1     # dungeon, tomb, monastery burning: discarded

# -- setup and phases --------------------------------------------------------------------
cdef int combat_begin(GameState* gs, const Statics* st, const int* tokens, const int* origin_hex,
                      int n, int site_hex, uint32_t site_fortified_mask, uint32_t rampaging_mask,
                      int night_rules, int units_allowed) noexcept nogil
cdef int combat_summon(GameState* gs, const Statics* st) noexcept nogil
cdef int combat_next_phase(GameState* gs, const Statics* st) noexcept nogil
cdef int combat_end(GameState* gs, const Statics* st, int policy, int* n_undefeated) noexcept nogil
cdef bint combat_site_cleared(const GameState* gs) noexcept nogil

# -- enemies -----------------------------------------------------------------------------
cdef int enemy_ability(const GameState* gs, const Statics* st, int slot, int ability) noexcept nogil
cdef int enemy_armor(const GameState* gs, const Statics* st, int slot) noexcept nogil
cdef int city_defended(const GameState* gs, const Statics* st, int slot) noexcept nogil
cdef int attack_ability(const GameState* gs, const Statics* st, int slot, int attack_index,
                        int ability) noexcept nogil
cdef int fortification_level(const GameState* gs, const Statics* st, int slot) noexcept nogil
cdef bint can_target_in_ranged(const GameState* gs, const Statics* st, int slot, int siege_only) noexcept nogil
cdef bint is_targetable(const GameState* gs, int slot) noexcept nogil
cdef int enemy_n_attacks(const GameState* gs, const Statics* st, int slot) noexcept nogil
cdef int attack_element(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil
cdef int enemy_attack_value(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil
cdef bint attack_is_live(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil
cdef bint all_attacks_blocked(const GameState* gs, const Statics* st, int slot) noexcept nogil

# -- attacks (11.5, 11.8, 11.9.2) ----------------------------------------------------------
cdef int attack_value(const GameState* gs, const Statics* st, uint32_t targets, int phase) noexcept nogil
cdef int resolve_attack(GameState* gs, const Statics* st, uint32_t targets, int phase) noexcept nogil
cdef void defeat_enemy(GameState* gs, const Statics* st, int slot) noexcept nogil

# -- blocks (11.6, 11.9.3, LL-6.5) ----------------------------------------------------------
cdef int block_value(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil
cdef int block_needed(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil
cdef int resolve_block(GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil
cdef int reduce_attack(GameState* gs, const Statics* st, int slot, int attack_index, int amount) noexcept nogil

# -- damage (11.7, 12) ------------------------------------------------------------------
cdef int damage_of(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil
cdef int damage_start(GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil
cdef int damage_to_unit(GameState* gs, const Statics* st, int unit_slot) noexcept nogil
cdef int damage_to_hero(GameState* gs, const Statics* st) noexcept nogil
cdef int assign_to_unit(GameState* gs, const Statics* st, int player, int unit_slot, int damage,
                        int element, int poison, int paralyze) noexcept nogil
cdef int assign_to_hero(GameState* gs, const Statics* st, int player, int damage,
                        int poison, int paralyze) noexcept nogil
cdef int hero_take_wounds(GameState* gs, const Statics* st, int player, int n) noexcept nogil
cdef void combat_wounds_to_hand(GameState* gs, const Statics* st, int player, int n) noexcept nogil
cdef int wound_card(const Statics* st) noexcept nogil
