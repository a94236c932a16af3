# cython: language_level=3
"""Named effect handlers of the Unit cards (units.toml; also the spells and the Advanced
Action that share them: Expose, Mist Form, Force of Nature): a handler group compiled as a
module of its own (ext/_fx_units.pxd is its header).

Each handler is a run function (the protocol of "Handler protocol", ext/_engine.pyx), a
playable function and, when it asks a question, a pending function (its bounds,
pending_check).  UNITS, at the end, is the group's registry: one entry per handler with its
name and declared argument names; importing the module registers it with the engine
(register_handler_group).  The content's keyword arguments must match the declared names.

The units' special rules the decision loop calls (Thugs / Heroes payments, Magic Familiars'
upkeep, the Shocktroops' drawn attack, the Scouts' far exploring, "this turn" / "this combat"
resets: LL-4) are rules of the loop, not handlers: they live in ext/_engine_units.pxi.

Rules: 7.3 (activation), 11.4.4 (effects on enemies in any combat phase), LL-6.7 (Arcane
Immunity ignores effects on the enemy), the unit card texts (units.csv), LL-4.2-LL-4.6.
Who resolves is known from gs.turn.resolving_card (UNIT_CARD_BASE - (unit * 8 + slot)).
"""
from libc.stdint cimport int16_t, int8_t, uint8_t, uint64_t, int32_t

from mksim._types cimport (GameState, Player, CombatEnemy, MAX_UNITS, NUM_PILES, PH_INTERACT, PH_MOVE,
                           PH_COMBAT_RANGED, PH_COMBAT_BLOCK, PH_COMBAT_ATTACK, PH_COMBAT_DAMAGE,
                           CE_NO_FORTIFICATION, CE_NO_ATTACK, CEU_NO_RESISTANCES, CEU_DESTROY_IF_BLOCKED,
                           HEX_TOKENS_REVEALED, COLDFIRE, MELEE, BLUE, RED)
from mksim._types cimport MK_IGNORE_WOUNDS, MK_NO_UNIT_DAMAGE, MK_NO_SOURCE_DICE, MK_NO_RECRUIT, MK_MANA_ANYTIME, MK_ENDLESS_MANA, MK_DICE_ANY_BASIC, MK_CRYSTAL_RETURN, MK_SPACE_BENDING, MK_PROTECTION, MK_INFLUENCE_BLOCK, MK_REVEAL_DISTANCE, MK_EXPLORE_RANGE, MK_DRAW_PER_HEAL, MK_CURE, MK_ATTACKS_COLDFIRE, MK_ATTACKS_SIEGE, MK_SWORD_FAME, MK_DODGE_ATTACK  # turn / combat-long kinds (issue 12)
from mksim._modifiers cimport mod_take, mod_find, mod_has, mod_sum, mod_remove_kind, mod_find_arg, mod_sum_arg, mod_has_arg  # (issue 12)
from mksim._types cimport MS_TURN, MS_COMBAT
from mksim._engine cimport give_mod, give_mod_arg, MOD_ONCE, MOD_ADD, MOD_MAX, MOD_SET
from mksim._types cimport MK_UNIT_GLORY, MK_OTHER_UNITS_ATTACK, MK_SWORD_DOUBLE, MK_BOW_POWERED, MK_LEARNING, MK_CHIVALRY  # third move (issue 12)
from mksim._state cimport Statics
from mksim._combat cimport (fortification_level, all_attacks_blocked, enemy_n_attacks, enemy_attack_value,
                            attack_is_live, RES_PHYSICAL, RES_FIRE, RES_ICE)
from mksim._rules cimport is_rampaging
from mksim._engine cimport (
    EngineStatics, HandlerEntry, handler_run_t, handler_playable_t, handler_pending_t, PendingCheck,
    register_handler_group, HG_UNITS, HF_MOVEMENT_ONLY,
    RES_DONE, RES_ERROR, ERR_HANDLER, ERR_INTERNAL, INTERNAL_NO_OPTION, ERR_ENEMY_EFFECT,
    ASK_DONE, ASK_ENEMY, ASK_NUMBER, ASK_OPTION, ASK_PAYMENT, ASK_UNIT,
    erow, set_error, row_args, ask, pc_stage, pc_asks, pc_enemy_attack_options,
    change_reputation, push_eval, pay_take, reducible_attacks,
    UNIT_CARD_BASE, unit_resolving, resolving_unit_slot, units_attack_bonus, units_check_destroy,
    units_need_influence, pc_enemy_slot,
    special_now, hex_distance, resolving_colour, unit_combat_bonus, enemy_effect_ok, pay_options,
    single_option, BF_FORTITUDE,
)
from mksim._effects cimport node_playable                       # the interpreter (ext/_effects.pxd)

cdef enum:
    MAX_UNITS_ = MAX_UNITS

# UnitEnemyEffect (the enemy-targeted effects sharing one body) and RECON_HEX_OPTIONS: ext/_fx_units.pxd


# -- small helpers ----------------------------------------------------------------------

cdef inline bint called_to_arms(const GameState* gs) noexcept nogil:
    """Call to Arms resolves an ability of a Unit in the offer (slot code 7): it is not
    one of the player's Units (the card: no damage can be assigned to it)."""
    return unit_resolving(gs.turn.resolving_card) and ((UNIT_CARD_BASE - gs.turn.resolving_card) & 7) == 7


cdef inline int enemy_resistances(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """RES_* bits of the enemy now: none after Sorcerers / Expose / Delphana Masters."""
    if gs.combat.enemies[slot].unit_fx & CEU_NO_RESISTANCES:
        return 0
    return st.enemies.data[gs.combat.enemies[slot].enemy * st.enemies.width + st.cols.enemy_resistances]


cdef uint64_t unit_enemy_targets(const GameState* gs, const EngineStatics* es, int local) noexcept nogil:
    """Enemies an enemy-targeted unit effect may act on now (enemy_effect_ok: in the combat,
    not Arcane Immune LL-6.7.1, 11.4.2 for a card's colour), narrowed per effect:
    Illusionists an unfortified enemy; Amotep Freezers not an Ice-resistant one; Delphana
    Masters' destroy an enemy with an attack that can still be blocked (or is blocked)."""
    cdef const Statics* st = es.st
    cdef int colour = resolving_colour(gs, es), s
    cdef uint64_t o = 0
    for s in range(gs.combat.n_enemies):
        if s >= ASK_DONE or not enemy_effect_ok(gs, st, s, colour):
            continue
        if local == U_UNFORTIFIED_NO_ATTACK and fortification_level(gs, st, s) > 0:
            continue
        if local == U_AMOTEP_FREEZE and enemy_resistances(gs, st, s) & RES_ICE:
            continue
        if local == U_DESTROY_IF_BLOCKED:
            if enemy_n_attacks(gs, st, s) == 0:
                continue
            if gs.phase != PH_COMBAT_RANGED and gs.phase != PH_COMBAT_BLOCK and not all_attacks_blocked(gs, st, s):
                continue
        o |= (<uint64_t>1) << s
    return o


cdef void unit_enemy_effect(GameState* gs, const EngineStatics* es, const int32_t* a, int local, int s) noexcept nogil:
    """One enemy-targeted effect on the enemy in slot s."""
    cdef CombatEnemy* e = &gs.combat.enemies[s]
    cdef int d
    if local == U_LOSE_FORTIFICATION or local == U_LOSE_BOTH:
        e.flags |= CE_NO_FORTIFICATION                             # 11.4.3 / 11.10
    if local == U_LOSE_RESISTANCES or local == U_LOSE_BOTH:
        e.unit_fx |= CEU_NO_RESISTANCES                            # 11.9.2: none left
    if local == U_UNFORTIFIED_NO_ATTACK:
        e.flags |= CE_NO_ATTACK                                    # Illusionists
    if local == U_AMOTEP_FREEZE:
        e.flags |= CE_NO_ATTACK                                    # Amotep Freezers
        d = e.armor_delta + a[0]                                   # min 1: armor_in_phase
        e.armor_delta = <int8_t>(d if d > -100 else -100)
    if local == U_DESTROY_IF_BLOCKED:
        e.unit_fx |= CEU_DESTROY_IF_BLOCKED
        units_check_destroy(gs, es.st)                             # blocked already: now


cdef uint64_t units_without_res(const GameState* gs, int res_bit) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0 and not ((pl.units[i].gained_res | pl.units[i].gained_res >> 3) & res_bit):
            o |= (<uint64_t>1) << i
    return o


cdef int recon_options(const GameState* gs, const Statics* st, int distance, int16_t* tokens) noexcept nogil:
    """Scouts: tokens that may be looked at - the top token of each enemy pile (option =
    pile) and face-down tokens on spaces within `distance` (options 6..): writes the token
    of each option to tokens[] (-1 = none) and returns the number of options."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int k, h, t, n = NUM_PILES
    for k in range(NUM_PILES):
        tokens[k] = gs.piles[k][gs.n_pile[k] - 1] if gs.n_pile[k] > 0 else -1
    if pl.position < 0:
        return n
    for h in range(gs.n_hexes):
        if gs.hexes[h].n_tokens == 0 or gs.hexes[h].flags & HEX_TOKENS_REVEALED:
            continue
        if is_rampaging(gs, st, h) or hex_distance(gs, pl.position, h) > distance:
            continue                                               # rampaging tokens lie face up
        for t in range(gs.hexes[h].n_tokens):
            if n < NUM_PILES + RECON_HEX_OPTIONS:
                tokens[n] = gs.hexes[h].tokens[t]
                n += 1
    return n


# -- the handlers ---------------------------------------------------------------------------

cdef bint special_time_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs)


cdef bint combat_phase_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.combat.active != 0 and (gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_BLOCK
                                      or gs.phase == PH_COMBAT_ATTACK or gs.phase == PH_COMBAT_DAMAGE)


cdef int enemy_effect_run(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                          int local, int choice) noexcept nogil:
    """The enemy-targeted effects (one body, `local` the effect: U_LOSE_FORTIFICATION ...)."""
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int s
    # Sorcerers, Expose, Delphana Masters, Illusionists, Amotep Freezers: target=one - the
    # player picks the enemy (ASK_ENEMY; one candidate: no question); target=all - every
    # enemy it can act on.  Arcane Immune enemies are not affected (LL-6.7.1).
    if local == U_AMOTEP_FREEZE and a[1] != 1:
        set_error(gs, ERR_ENEMY_EFFECT, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    options = unit_enemy_targets(gs, es, local)
    if choice >= 0:
        unit_enemy_effect(gs, es, a, local, choice)
        return RES_DONE
    if local != U_AMOTEP_FREEZE and a[0] == 1:
        for s in range(gs.combat.n_enemies):
            if (options >> s) & 1:
                unit_enemy_effect(gs, es, a, local, s)
        return RES_DONE
    if options == 0:
        return RES_DONE                                        # nothing it can act on
    s = single_option(options)
    if s >= 0:
        unit_enemy_effect(gs, es, a, local, s)
        return RES_DONE
    return ask(gs, row, 0, ASK_ENEMY, options)


cdef bint enemy_effect_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    return gs.combat.active != 0 and unit_enemy_targets(gs, es, local) != 0


cdef int wound_this_unit(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef int slot = resolving_unit_slot(gs)
    # Utem Swordsmen: after Attack or Block 6 the unit becomes Wounded (12.2).  An
    # unflipped Banner of Fortitude on it ignores that wound and is flipped (LL-5.2).
    # Through Call to Arms the unit stays in the offer and is not the player's: it
    # cannot be wounded (the card: no damage can be assigned to it).
    if called_to_arms(gs):
        return RES_DONE
    if slot < 0:
        set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    if pl.units[slot].banner >= 0 and pl.banner_fx[slot] & BF_FORTITUDE \
            and not ((pl.banner_flipped >> slot) & 1):
        pl.banner_flipped |= <uint8_t>(1 << slot)             # LL-5.2: once a round
        return RES_DONE
    pl.units[slot].wounds = 1
    return RES_DONE


cdef int heroes_influence(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    # Heroes: Influence n, and Reputation +reputation if used during an interaction
    # (10.4; not at a glade, LL-4.5.2, nor for a combat payment, LL-4.3.4).
    gs.turn.influence += a[0]
    if gs.phase == PH_INTERACT and not gs.turn.glade_recruit:
        change_reputation(pl, a[1])
    return RES_DONE


cdef bint heroes_influence_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_INTERACT or units_need_influence(gs, es)   # 10.2.2, LL-4.3.4


cdef int other_units_attack_bonus(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int slot = resolving_unit_slot(gs)
    # Shocktroops (coordinated fire, LL-4.6.2: its card text): your other units' attacks get
    # +bonus this turn - one turn-long MK_OTHER_UNITS_ATTACK entry per giver, arg = its slot
    # + 1 (through Call to Arms 8: all of your units are "other"); a giver used again sets
    # its own entry (MOD_SET), so each giver counts once.
    if called_to_arms(gs):
        slot = 7
    if slot < 0:
        set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    if not give_mod_arg(gs, p, MK_OTHER_UNITS_ATTACK, MS_TURN, a[0], slot + 1, MOD_SET):
        return RES_ERROR
    return RES_DONE


cdef int altem_mages_coldfire(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int k, v
    # Altem Mages: Cold Fire Attack or Cold Fire Block n (whichever the phase allows:
    # melee Attack in the Attack phase, Block in the Block phase), +bonus_per_mana for
    # blue and for red mana also paid (5 / 7 / 9).  Stage 0: pay blue (ASK_PAYMENT,
    # ASK_DONE = no), stage 1: pay red.  hvars[0] = value.
    if choice < 0:
        gs.turn.hvars[0] = <int16_t>a[0]
        gs.turn.handler_stage = -1
    elif choice != ASK_DONE:
        pay_take(gs, choice, BLUE if gs.turn.handler_stage == 0 else RED)   # 5.4.4
        gs.turn.hvars[0] += a[1]
    k = gs.turn.handler_stage + 1
    while k < 2:
        options = pay_options(gs, BLUE if k == 0 else RED)
        if options != 0:
            return ask(gs, row, k, ASK_PAYMENT, options | ((<uint64_t>1) << ASK_DONE))
        k += 1
    v = gs.turn.hvars[0] + unit_combat_bonus(gs)
    if gs.phase == PH_COMBAT_BLOCK:
        gs.combat.block[<int>COLDFIRE] += v
    else:
        gs.combat.attack[<int>MELEE][<int>COLDFIRE] += v + units_attack_bonus(gs)
    return RES_DONE


cdef bint altem_mages_coldfire_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_BLOCK or gs.phase == PH_COMBAT_ATTACK \
        or (gs.phase == PH_COMBAT_RANGED and mod_has(&gs.turn, MK_ATTACKS_SIEGE))   # a melee Attack (11.5.2)


cdef int attacks_become_coldfire(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    if not give_mod(gs, p, MK_ATTACKS_COLDFIRE, MS_COMBAT, 1, MOD_ONCE):   # Altem Mages, this combat
        return RES_ERROR                                       # (counted by attack_value)
    return RES_DONE


cdef int attacks_become_siege(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    if not give_mod(gs, p, MK_ATTACKS_SIEGE, MS_COMBAT, 1, MOD_ONCE):   # this combat
        return RES_ERROR
    return RES_DONE


cdef int units_gain_all_resistances(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef int i
    # Altem Guardians / Mist Form (Veil of Mist): all your units gain physical, fire and
    # ice resistance this turn (11.7.5).
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0:
            pl.units[i].gained_res |= RES_PHYSICAL | RES_FIRE | RES_ICE
    return RES_DONE


cdef int unit_gain_resistance(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    # Force of Nature: one chosen unit (ASK_UNIT) gains the resistance this combat (bits
    # << 3 of gained_res, cleared by units_combat_end).
    if a[1] != 1:
        set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    options = units_without_res(gs, 1 << a[0])
    if choice < 0:
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_UNIT, options)
    pl.units[choice].gained_res |= <uint8_t>((1 << a[0]) << 3)
    return RES_DONE


cdef bint unit_gain_resistance_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Force of Nature: "this combat" (cards.csv #297) states its duration (6.3.2), so the
    # effect exists only inside a combat: outside one it is not offered.
    return gs.combat.active != 0 and special_now(gs) and units_without_res(gs, 1 << a[0]) != 0


cdef int enemy_lose_fortification(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    return enemy_effect_run(gs, es, st, p, row, U_LOSE_FORTIFICATION, choice)


cdef bint enemy_lose_fortification_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return enemy_effect_playable(gs, es, row, U_LOSE_FORTIFICATION)


cdef int enemy_lose_resistances(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    return enemy_effect_run(gs, es, st, p, row, U_LOSE_RESISTANCES, choice)


cdef bint enemy_lose_resistances_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return enemy_effect_playable(gs, es, row, U_LOSE_RESISTANCES)


cdef int enemy_lose_fortification_and_resistances(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    return enemy_effect_run(gs, es, st, p, row, U_LOSE_BOTH, choice)


cdef bint enemy_lose_fortification_and_resistances_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return enemy_effect_playable(gs, es, row, U_LOSE_BOTH)


cdef int unfortified_enemy_no_attack(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    return enemy_effect_run(gs, es, st, p, row, U_UNFORTIFIED_NO_ATTACK, choice)


cdef bint unfortified_enemy_no_attack_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return enemy_effect_playable(gs, es, row, U_UNFORTIFIED_NO_ATTACK)


cdef int amotep_freeze(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    return enemy_effect_run(gs, es, st, p, row, U_AMOTEP_FREEZE, choice)


cdef bint amotep_freeze_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return enemy_effect_playable(gs, es, row, U_AMOTEP_FREEZE)


cdef int destroy_if_blocked(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    return enemy_effect_run(gs, es, st, p, row, U_DESTROY_IF_BLOCKED, choice)


cdef bint destroy_if_blocked_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return enemy_effect_playable(gs, es, row, U_DESTROY_IF_BLOCKED)


cdef int shocktroops_weaken(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int s, i, k, v
    # Shocktroops: one enemy gets Armor armor_delta (min 1) and one of its attacks
    # attack_delta (min 0; an attack reduced to 0 counts as blocked, LL-6.3.6).  Stage 0:
    # the enemy (ASK_ENEMY), stage 1: which of its live attacks (ASK_NUMBER).  hvars[0] = slot.
    if choice < 0 or gs.turn.handler_stage == 0:
        if choice < 0:
            options = unit_enemy_targets(gs, es, U_SHOCK_WEAKEN)
            choice = single_option(options)
            if choice < 0:
                if options == 0:
                    return RES_DONE
                return ask(gs, row, 0, ASK_ENEMY, options)
        s = choice
        k = gs.combat.enemies[s].armor_delta + a[0]
        gs.combat.enemies[s].armor_delta = <int8_t>(k if k > -100 else -100)
        gs.turn.hvars[0] = <int16_t>s
        options = 0
        for i in range(enemy_n_attacks(gs, st, s)):
            if attack_is_live(gs, st, s, i) and enemy_attack_value(gs, st, s, i) > 0:
                options |= (<uint64_t>1) << i
        if options == 0:
            return RES_DONE
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 1, ASK_NUMBER, options)
    s = gs.turn.hvars[0]
    v = enemy_attack_value(gs, st, s, choice)
    k = -a[1] if -a[1] < v else v
    gs.combat.enemies[s].attack_delta[choice] -= <int8_t>k
    return RES_DONE


cdef bint shocktroops_weaken_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.combat.active != 0 and unit_enemy_targets(gs, es, U_SHOCK_WEAKEN) != 0


cdef int shocktroops_draw_fire(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int slot = resolving_unit_slot(gs), s, i, v
    # Shocktroops: in the Block phase one enemy attack is reduced by `reduce` (min 0);
    # its damage must be assigned to this unit first, even against Assassination
    # (legal_combat / units_damage_unit).  ASK_OPTION = slot * 3 + attack.
    if slot < 0:
        set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    if choice < 0:
        options = reducible_attacks(gs, st, 0)
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_OPTION, options)
    s = choice // 3
    i = choice % 3
    v = enemy_attack_value(gs, st, s, i)
    gs.combat.enemies[s].attack_delta[i] -= <int8_t>(a[0] if a[0] < v else v)
    gs.turn.draw_fire_slot = <int8_t>(s + 1)
    gs.turn.draw_fire_attack = <int8_t>i
    gs.turn.draw_fire_unit = <int8_t>slot
    return RES_DONE


cdef bint shocktroops_draw_fire_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.turn.draw_fire_slot == 0 and reducible_attacks(gs, es.st, 0) != 0


cdef int familiars_boost(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int slot = resolving_unit_slot(gs)
    # Magic Familiars: the boosted effect when the mana kept on the card (LL-4.5.4) is of
    # `colour`, else the base effect.
    if slot >= 0 and pl.units[slot].upkeep == a[0] + 1:
        return push_eval(gs, a[2])
    return push_eval(gs, a[1])


cdef bint familiars_boost_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return node_playable(gs, es, a[1])                         # base and boosted alike


cdef int scouts_reconnaissance(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int16_t tokens[NUM_PILES + RECON_HEX_OPTIONS]
    cdef uint64_t options = 0
    cdef int k, n
    # Scouts: look at the top token of an enemy pile (options 0-5) or a face-down token
    # within `distance` spaces (options 6..); +fame Fame if that enemy is defeated this
    # turn (units_combat_end).  All information is open to the simulated player, so
    # looking changes nothing else.
    n = recon_options(gs, st, a[0], tokens)
    if choice < 0:
        for k in range(n):
            if tokens[k] >= 0:
                options |= (<uint64_t>1) << k
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_OPTION, options)
    if choice >= n or tokens[choice] < 0:
        set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
        return RES_ERROR
    gs.turn.recon_token = <int16_t>(tokens[choice] + 1)
    gs.turn.recon_fame = <int8_t>a[1]
    return RES_DONE


cdef bint scouts_reconnaissance_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int16_t tokens[NUM_PILES + RECON_HEX_OPTIONS]
    cdef int k, n
    if not special_now(gs) or gs.turn.recon_token != 0:
        return False
    n = recon_options(gs, es.st, a[0], tokens)
    for k in range(n):
        if tokens[k] >= 0:
            return True
    return False


cdef int scouts_explore_range(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Scouts: this turn tiles may be revealed `distance` spaces away (9.8, LL-4.6.1).
    if a[0] > 0 and not give_mod(gs, p, MK_EXPLORE_RANGE, MS_TURN, a[0], MOD_MAX):
        return RES_ERROR
    return RES_DONE


cdef bint scouts_explore_range_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_MOVE and not gs.turn.action_taken   # LL-4.6.1


# -- bounds of a pending question (pending_check, _engine.pyx) -------------------------------

cdef bint altem_mages_coldfire_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                                       int row, PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 1) or pc_asks(c, ASK_PAYMENT, -1, True)      # stage 0: pay blue, 1: pay red


cdef bint unit_gain_resistance_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                                       int row, PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_UNIT)


cdef bint enemy_effect_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                               int row, PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY)


cdef bint shocktroops_weaken_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                                     int row, PendingCheck* c) noexcept nogil:
    """Stage 1: hvars[0] = the enemy, option = its attack."""
    if pc_stage(c, gs, 1):
        return True
    if gs.turn.handler_stage == 0:
        return pc_asks(c, ASK_ENEMY)
    return pc_enemy_slot(c, gs, 0) or pc_asks(c, ASK_NUMBER, 3)


cdef bint shocktroops_draw_fire_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                                        int row, PendingCheck* c) noexcept nogil:
    """Option: enemy slot * 3 + attack."""
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, ASK_DONE) or pc_enemy_attack_options(c, gs)


cdef bint scouts_reconnaissance_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                                        int row, PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, ASK_DONE)     # the handler checks its option itself


# ---------------------------------------------------------------------------------------
# The registry: one entry per handler (name, argument names, run, playable, pending, flags)
# ---------------------------------------------------------------------------------------

cdef enum:
    CAPACITY = 32

cdef HandlerEntry UNITS[CAPACITY]
cdef int N_UNITS = 0


cdef int entry(const char* name, const char* params, handler_run_t run, handler_playable_t playable,
               handler_pending_t pending=NULL, int flags=0) except -1:
    global N_UNITS
    if N_UNITS >= CAPACITY:
        raise RuntimeError("ext/_fx_units.pyx: more handlers than CAPACITY")
    UNITS[N_UNITS].name = name
    UNITS[N_UNITS].params = params
    UNITS[N_UNITS].run = run
    UNITS[N_UNITS].playable = playable
    UNITS[N_UNITS].pending = pending
    UNITS[N_UNITS].flags = flags
    N_UNITS += 1
    return 0


entry(b"wound_this_unit", b"", wound_this_unit, special_time_playable)
entry(b"heroes_influence", b"n reputation", heroes_influence, heroes_influence_playable)
entry(b"other_units_attack_bonus", b"bonus", other_units_attack_bonus, special_time_playable)
entry(b"altem_mages_coldfire", b"n bonus_per_mana", altem_mages_coldfire, altem_mages_coldfire_playable,
      altem_mages_coldfire_pending)
entry(b"attacks_become_coldfire", b"", attacks_become_coldfire, combat_phase_playable)
entry(b"attacks_become_siege", b"", attacks_become_siege, combat_phase_playable)
entry(b"units_gain_all_resistances", b"", units_gain_all_resistances, special_time_playable)
entry(b"unit_gain_resistance", b"resistance units", unit_gain_resistance, unit_gain_resistance_playable,
      unit_gain_resistance_pending)
entry(b"enemy_lose_fortification", b"target", enemy_lose_fortification, enemy_lose_fortification_playable,
      enemy_effect_pending)
entry(b"enemy_lose_resistances", b"target", enemy_lose_resistances, enemy_lose_resistances_playable,
      enemy_effect_pending)
entry(b"enemy_lose_fortification_and_resistances", b"target", enemy_lose_fortification_and_resistances,
      enemy_lose_fortification_and_resistances_playable, enemy_effect_pending)
entry(b"unfortified_enemy_no_attack", b"target", unfortified_enemy_no_attack, unfortified_enemy_no_attack_playable,
      enemy_effect_pending)
entry(b"amotep_freeze", b"armor_delta floor", amotep_freeze, amotep_freeze_playable, enemy_effect_pending)
entry(b"destroy_if_blocked", b"target", destroy_if_blocked, destroy_if_blocked_playable, enemy_effect_pending)
entry(b"shocktroops_weaken", b"armor_delta attack_delta", shocktroops_weaken, shocktroops_weaken_playable,
      shocktroops_weaken_pending)
entry(b"shocktroops_draw_fire", b"reduce", shocktroops_draw_fire, shocktroops_draw_fire_playable,
      shocktroops_draw_fire_pending)
entry(b"familiars_boost", b"colour base boosted", familiars_boost, familiars_boost_playable)
entry(b"scouts_reconnaissance", b"distance fame", scouts_reconnaissance, scouts_reconnaissance_playable,
      scouts_reconnaissance_pending)
# the Scouts' range works only while moving (movement_only_row: it goes with the Move in combat)
entry(b"scouts_explore_range", b"distance", scouts_explore_range, scouts_explore_range_playable, NULL,
      HF_MOVEMENT_ONLY)
register_handler_group(HG_UNITS, UNITS, N_UNITS)
