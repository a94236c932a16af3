# cython: language_level=3
"""Named effect handlers of the Spell cards (spells.toml): a handler group compiled as a
module of its own (ext/_fx_spells.pxd is its header).

Each handler is a run function (the protocol of "Handler protocol", ext/_engine.pyx), a
playable function and, when it asks a question, a pending function (its bounds,
pending_check).  SPELLS, at the end, is the group's registry: one entry per handler with its
name and declared argument names; importing the module registers it with the engine
(register_handler_group).  The content's keyword arguments must match the declared names.

Rules: 5.4.2-5.4.3 / 6.1.4 (paying a spell is done by the loop: A_PLAY), 6.2.1-6.2.2
(costs inside effects), 6.3.3 (timing).  Handlers shared with other decks live in the group
that declared them first: here recruit_free_from_offer (also Banner of Command);
pay_mana_by_colour (Mana Bolt, also Pure Magic) is in _fx_advanced.pxi.  The travel helpers
are used by ext/_fx_artifacts.pyx too (Druidic Staff): see ext/_fx_spells.pxd.  What the
turn flow calls (Possess / Wings of Night / Space Bending actions,
rings_fame, Time Bending, Mana Claim) stays in the engine: ext/_engine_spells.pxi; the
combat-timed parts of Burning / Exploding Shield, Wings and Possess subscribe to the
lifecycle events (spells_event, at the end of this file).
"""
from libc.stdlib cimport abs
from libc.stdint cimport int16_t, int8_t, uint8_t, uint32_t, uint64_t, int32_t

from mksim._types cimport (Modifier, MAX_MODS, MK_NONE, MK_IGNORE_SITE_FORT, MK_UNIT_ATTACK_BLOCK,
    MK_RECRUIT_DISCOUNT, MK_EXPLORE_DISCOUNT, MK_BLOCKED_ARMOR_ONE, MK_BLOCK_FIRE_ATTACK, MK_BLOCK_DESTROY, NUM_MOD_KINDS, MS_NEXT_CARD, MS_PHASE,
    MS_COMBAT, MS_TURN, MS_ROUND, NUM_MOD_SCOPES)
from mksim._modifiers cimport (mod_find_arg, mod_add, mod_find, mod_has, mod_sum, mod_remove_at, mod_remove_kind, mod_set,
    mod_expire, event_scope, EV_TURN_START, EV_TURN_END, EV_PHASE_START, EV_PHASE_END, EV_CARD_PLAYED,
    EV_BLOCK_COMMITTED, EV_ATTACK_COMMITTED, EV_DAMAGE_ASSIGNED, EV_COMBAT_END, EV_ROUND_END, NUM_EVENTS)
from mksim._types cimport MK_IGNORE_WOUNDS, MK_NO_UNIT_DAMAGE, MK_NO_SOURCE_DICE, MK_NO_RECRUIT, MK_MANA_ANYTIME, MK_ENDLESS_MANA, MK_DICE_ANY_BASIC, MK_CRYSTAL_RETURN, MK_SPACE_BENDING, MK_PROTECTION, MK_INFLUENCE_BLOCK, MK_REVEAL_DISTANCE, MK_EXPLORE_RANGE, MK_DRAW_PER_HEAL, MK_CURE, MK_ATTACKS_COLDFIRE, MK_ATTACKS_SIEGE, MK_SWORD_FAME, MK_DODGE_ATTACK  # turn / combat-long kinds (issue 12)
from mksim._modifiers cimport mod_take, mod_find, mod_has, mod_sum, mod_remove_kind, mod_find_arg, mod_sum_arg, mod_has_arg  # (issue 12)
from mksim._engine cimport give_mod, give_mod_arg, subscribe_event, MOD_ONCE, MOD_ADD, MOD_MAX, MOD_SET
from mksim._types cimport MK_MANA_CURSE
from mksim._types cimport MK_TERRAIN_CLOSED  # Mist Form (9.2)
from mksim._types cimport MK_WINGS, MK_POSSESS_ATTACK, MK_POSSESSED  # Wings of Night, Possess: combat-long (issue 12)
from mksim._types cimport (GameState, Player, Unit, CombatEnemy, MAX_UNITS as MAX_UNITS_, CE_DEFEATED, CE_GONE,
                           CE_NO_ATTACK, RED, BLUE, WHITE, GREEN, GOLD, BLACK, DAY, NIGHT, FOREST, DESERT, MELEE,
                           RANGED, SIEGE, PHYSICAL, FIRE, ICE, MAX_HEXES, MAX_PATH, NUM_TERRAINS, deeds_rng,
                           PH_MOVE, PH_REST, PH_INTERACT, PH_COMBAT_RANGED, PH_COMBAT_BLOCK, PH_COMBAT_ATTACK,
                           PH_COMBAT_DAMAGE, DECK_BASIC, DECK_AA, DECK_SPELL, COLOURLESS,
                           MAX_DISCARD_CARDS, MAX_HAND_CARDS, MAX_DECK_CARDS, MAX_DICE)
from mksim._state cimport Statics
from mksim._knowledge cimport deck_gained_top, deck_gained_bottom
from mksim._rules cimport ends_movement, is_safe
from mksim._combat cimport (defeat_enemy, enemy_ability, AB_ARCANE_IMMUNITY, AB_SUMMON, fortification_level,
                            attack_element, enemy_attack_value, all_attacks_blocked, RES_FIRE, enemy_armor,
                            enemy_n_attacks, is_targetable)
from mksim._engine cimport (
    EngineStatics, HandlerEntry, handler_run_t, handler_playable_t, handler_pending_t, PendingCheck,
    register_handler_group, HG_SPELLS, HF_MOVEMENT_ONLY, OP_ATTACK, OP_BLOCK,
    RES_DONE, RES_ERROR, ERR_NONE, ERR_INTERNAL, INTERNAL_NO_OPTION, ERR_HANDLER, ERR_CAPACITY, ERR_HEROES, HEROES_INTERACTIVE_SPELL,
    ASK_DONE, ASK_HAND_CARD, ASK_COLOUR, ASK_OFFER, ASK_NUMBER, ASK_ENEMY, ASK_UNIT, ASK_OPTION, ASK_DIE,
    ASK_PAYMENT, PF_STAGE, PF_HVAR,
    erow, card_deck, set_error, remove_at, row_args, ask, pc_bad, pc_stage, pc_hvar, pc_asks, pc_n_enemies,
    pc_subset, pc_directions, push_card, gain_crystal, push_eval, pay_ok, pay_take, n_pay_codes,
    draw_cards, card_colour, special_now, outside_combat_now, NO_ARG,
    interaction_site, interaction_city, can_recruit,                            # _engine_units.pxi
    count_refused_card, refill_offer, take_wounds, night_mana, unit_healed,
    defeated_mask, colour_resisted, destroy, no_attack_targets, set_armor_delta, wings_options, wings_take,
    call_to_arms, recruit_free, call_to_arms_offer, recruit_free_offer, unit_value, unit_level, fight_after_move,
    influence_elsewhere, units_need_influence,                                  # _fx_advanced.pxi, _fx_units.pxi
    enemy_effect_targets, resolving_colour, single_option,                      # _fx_advanced.pxi
)
from mksim._effects cimport node_playable, apply_op             # the interpreter (ext/_effects.pxd)
from mksim._engine cimport effect_context
from mksim._rng cimport rng_below, STREAM_REWARDS


cdef enum:
    TRAVEL_MAX_BFS = MAX_HEXES


# -- small helpers (non_wound_hand is shared with ext/_fx_artifacts.pyx: ext/_fx_spells.pxd) --

cdef int faced_enemies(const GameState* gs) noexcept nogil:
    """Enemy tokens still in the combat (not defeated, not discarded summons)."""
    cdef int s, n = 0
    if not gs.combat.active:
        return 0
    for s in range(gs.combat.n_enemies):
        if gs.combat.enemies[s].token >= 0 and not (gs.combat.enemies[s].flags & (CE_DEFEATED | CE_GONE)):
            n += 1
    return n


cdef uint64_t non_wound_hand(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Hand indices (< 63) of non-Wound cards: what a discard cost may use (6.2.2)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i
    for i in range(pl.n_hand):
        if i < ASK_DONE and pl.hand[i] != es.wound:
            o |= (<uint64_t>1) << i
    return o


cdef uint64_t destroy_targets(const GameState* gs, const Statics* st, int colour) noexcept nogil:
    """Enemies a 'destroy target enemy' effect of `colour` may name: those that could be
    attacked (11.5.2) and do not resist its colour (11.4.2: Disintegrate, red, not Fire
    Mages).  An Arcane Immune one may be named, but the effect is ignored (LL-6.7.1)."""
    cdef uint64_t o = 0
    cdef int s
    for s in range(gs.combat.n_enemies):
        if s < ASK_DONE and is_targetable(gs, s) and not colour_resisted(gs, st, s, colour):
            o |= (<uint64_t>1) << s
    return o


# -- travel: Underground Travel, Wings of Wind, Druidic Staff ------------------------------
# The hero moves one revealed space at a time (A_CHOOSE(direction), ASK_OPTION) without
# provoking (9.4.3 does not apply) and ignoring terrain; ASK_DONE stops on a safe space
# (9.7).  A direction is offered only if a safe space can still be reached from it, so a
# travel never strands the hero.  hvars[0] spaces moved, hvars[1] the most spaces,
# hvars[2] Move points paid per space.

cdef int travel_budget(const GameState* gs) noexcept nogil:
    cdef int left = gs.turn.hvars[1] - gs.turn.hvars[0]
    cdef int per = gs.turn.hvars[2]
    if per > 0 and gs.turn.move_points // per < left:
        left = gs.turn.move_points // per
    return left


cdef inline bint travel_goal(const GameState* gs, const Statics* st, int h, int p, int mode) noexcept nogil:
    """Where a travel may end: a safe space (9.7; mode 0), or for Underground Attack (mode 1)
    a fortified site it assaults (9.4.1) with defenders on it."""
    if mode == 1:
        return ends_movement(gs, st, h, p) and gs.hexes[h].n_tokens > 0
    return is_safe(gs, st, h, p)


cdef bint safe_within(const GameState* gs, const Statics* st, int p, int start, int budget,
                      int mode=0) noexcept nogil:
    """A goal space (travel_goal) at most `budget` spaces from `start` (start included)."""
    cdef int16_t depth[MAX_HEXES]
    cdef int16_t queue[MAX_HEXES]
    cdef int head = 0, tail = 0, h, d, nb
    if start < 0:
        return False
    for h in range(gs.n_hexes):
        depth[h] = -1
    depth[start] = 0
    queue[tail] = <int16_t>start
    tail += 1
    while head < tail:
        h = queue[head]
        head += 1
        if travel_goal(gs, st, h, p, mode):
            return True
        if depth[h] >= budget:
            continue
        for d in range(6):
            nb = gs.hexes[h].neighbour[d]
            if nb >= 0 and depth[nb] < 0:
                depth[nb] = <int16_t>(depth[h] + 1)
                queue[tail] = <int16_t>nb
                tail += 1
    return False


cdef uint64_t travel_options(const GameState* gs, const Statics* st, int p, int mode=0) noexcept nogil:
    cdef int pos = gs.players[p].position, d, nb, budget = travel_budget(gs)
    cdef uint64_t o = 0
    if budget > 0:
        for d in range(6):
            nb = gs.hexes[pos].neighbour[d]
            if nb >= 0 and safe_within(gs, st, p, nb, budget - 1, mode):
                o |= (<uint64_t>1) << d
    if gs.turn.hvars[0] > 0 and travel_goal(gs, st, pos, p, mode):
        o |= (<uint64_t>1) << ASK_DONE
    return o


cdef bint travel_playable(const GameState* gs, int spaces, int per) noexcept nogil:
    """In the movement part before the action (4.4.5), on the map, able to pay a space."""
    cdef const Player* pl = &gs.players[gs.current]
    if gs.phase != PH_MOVE or gs.turn.action_taken or pl.position < 0 or spaces <= 0:
        return False
    return per <= 0 or gs.turn.move_points >= per


cdef bint travel_usable(const GameState* gs, const Statics* st, int spaces, int per) noexcept nogil:
    """travel_playable, and a safe space to end on within reach (a travel that could go
    nowhere is not offered)."""
    cdef int p = gs.current, pos = gs.players[p].position, d, nb, budget = spaces
    if not travel_playable(gs, spaces, per):
        return False
    if per > 0 and gs.turn.move_points // per < budget:
        budget = gs.turn.move_points // per
    for d in range(6):
        nb = gs.hexes[pos].neighbour[d]
        if nb >= 0 and safe_within(gs, st, p, nb, budget - 1):
            return True
    return False


cdef int travel(GameState* gs, const Statics* st, int p, int row, int choice, int spaces, int per) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef uint64_t o
    cdef int to
    if choice < 0:
        gs.turn.hvars[0] = 0
        gs.turn.hvars[1] = <int16_t>spaces
        gs.turn.hvars[2] = <int16_t>per
    elif choice == ASK_DONE:
        if gs.turn.n_path < MAX_PATH:                            # for forced withdrawal (13.2)
            gs.turn.path[gs.turn.n_path] = pl.position
            gs.turn.n_path += 1
        gs.turn.moved = 1
        return RES_DONE
    else:
        to = gs.hexes[pl.position].neighbour[choice]
        pl.position = <int16_t>to
        gs.turn.move_points -= gs.turn.hvars[2]
        gs.turn.hvars[0] += 1
    o = travel_options(gs, st, p)
    if o == 0:
        set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)   # cannot happen (see above)
        return RES_ERROR
    if o == ((<uint64_t>1) << ASK_DONE):
        return travel(gs, st, p, row, ASK_DONE, spaces, per)
    return ask(gs, row, 0, ASK_OPTION, o)


cdef bint ug_attack_playable(const GameState* gs, const Statics* st, int spaces) noexcept nogil:
    """Underground Attack: Underground Travel's timing, and a fortified site to assault within
    `spaces` revealed spaces."""
    cdef int p = gs.current, pos = gs.players[p].position, d, nb
    if not travel_playable(gs, spaces, 0):
        return False
    for d in range(6):
        nb = gs.hexes[pos].neighbour[d]
        if nb >= 0 and safe_within(gs, st, p, nb, spaces - 1, 1):
            return True
    return False


cdef int underground_attack(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                            int choice, int spaces) noexcept nogil:
    """Underground Attack (strong Underground Travel): move up to `spaces` revealed spaces
    like Underground Travel (no provoking, terrain ignored) onto a fortified site and assault
    it (9.4.1, 11.1.1) ignoring its site fortifications (11.10.1); a withdrawal returns the
    hero to the space the spell was played on (11.12.4: Combat.from_hex).  hvars as travel,
    hvars[3] = that space."""
    cdef Player* pl = &gs.players[p]
    cdef uint64_t o
    cdef int res
    if choice < 0:
        gs.turn.hvars[0] = 0
        gs.turn.hvars[1] = <int16_t>spaces
        gs.turn.hvars[2] = 0
        gs.turn.hvars[3] = pl.position
    elif choice == ASK_DONE:
        if gs.turn.n_path < MAX_PATH:
            gs.turn.path[gs.turn.n_path] = pl.position
            gs.turn.n_path += 1
        gs.turn.moved = 1
        if not give_mod(gs, p, MK_IGNORE_SITE_FORT, MS_TURN, 1, MOD_ONCE):   # this turn (11.10.1)
            return RES_ERROR
        res = fight_after_move(gs, es, st, p, gs.turn.hvars[3], pl.position, 0)
        if res != ERR_NONE:
            if gs.error == ERR_NONE:
                set_error(gs, res, 0, gs.turn.resolving_card)
            return RES_ERROR
        return RES_DONE
    else:
        pl.position = <int16_t>gs.hexes[pl.position].neighbour[choice]
        gs.turn.hvars[0] += 1
    o = travel_options(gs, st, p, 1)
    if o == 0:
        set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)   # cannot happen (see above)
        return RES_ERROR
    if o == ((<uint64_t>1) << ASK_DONE):
        return underground_attack(gs, es, st, p, row, ASK_DONE, spaces)
    return ask(gs, row, 0, ASK_OPTION, o)


cdef uint64_t disease_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Disease: enemies with all their attacks blocked (LL-6.1.6) that the green effect can
    act on (Arcane Immunity, LL-6.7.1) and whose Armor is not yet 1."""
    cdef uint64_t o = enemy_effect_targets(gs, st, GREEN), m = 0
    cdef int s
    for s in range(gs.combat.n_enemies):
        if (o >> s) & 1 and all_attacks_blocked(gs, st, s) and gs.combat.enemies[s].armor_delta > -100:
            m |= (<uint64_t>1) << s
    return m


cdef uint64_t possess_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Possess in the Attack phase: an enemy the effect can act on with an attack to copy,
    and another enemy to use it against."""
    cdef uint64_t o = enemy_effect_targets(gs, st, WHITE), m = 0
    cdef int s, t
    for s in range(gs.combat.n_enemies):
        if not (o >> s) & 1 or enemy_n_attacks(gs, st, s) == 0:
            continue
        for t in range(gs.combat.n_enemies):
            if t != s and is_targetable(gs, t):
                m |= (<uint64_t>1) << s
                break
    return m


cdef uint64_t chill_late_targets(const GameState* gs, const Statics* st, int armor, int lose_fire) noexcept nogil:
    """Chill / Lethal Chill in the Attack phase: enemies whose Armor it lowers or whose fire
    resistance it removes."""
    cdef uint64_t o = enemy_effect_targets(gs, st, BLUE), m = 0
    cdef int s, res
    for s in range(gs.combat.n_enemies):
        if not (o >> s) & 1:
            continue
        res = st.enemies.data[gs.combat.enemies[s].enemy * st.enemies.width + st.cols.enemy_resistances]
        if (armor < 0 and enemy_armor(gs, st, s) > 1) or (lose_fire and res & RES_FIRE and
                                                             not gs.combat.enemies[s].res_lost & RES_FIRE):
            m |= (<uint64_t>1) << s
    return m


cdef bint possess_gain(GameState* gs, const Statics* st, int p, int slot) noexcept nogil:
    """Possess: the enemy's Attack, each attack with its element (no abilities), for the
    Attack phase (LL-6.1: all its attacks): combat-long modifiers, MK_POSSESS_ATTACK per
    element (arg = element + 1) and MK_POSSESSED (value = the enemy's slot + 1).  False when
    the modifier array is full (ERR_CAPACITY set)."""
    cdef int i, el, v
    for i in range(enemy_n_attacks(gs, st, slot)):
        el = attack_element(gs, st, slot, i)
        v = enemy_attack_value(gs, st, slot, i)
        if 0 <= el < 4 and v > 0 and not give_mod_arg(gs, p, MK_POSSESS_ATTACK, MS_COMBAT, v, el + 1, MOD_ADD):
            return False
    return give_mod(gs, p, MK_POSSESSED, MS_COMBAT, slot + 1, MOD_SET)


cdef inline bint spell_in_offer(const GameState* gs, int card) noexcept nogil:
    cdef int k
    for k in range(3):
        if gs.spell_offer[k] == card:
            return True
    return False


cdef bint charm_discount_useful(const GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """Charm's discount: a Unit of the offer can be recruited at this site (10.6.1; the white
    city, 10.10, and a refugee camp, LL-3.4.1, take any)."""
    cdef int site = interaction_site(gs, es, p), k, colour = interaction_city(gs, es, p)
    for k in range(gs.n_unit_offer):
        if gs.unit_offer[k] >= 0 and can_recruit(es, gs.unit_offer[k], site, colour):
            return True
    return False


cdef uint64_t claim_dice(const GameState* gs) noexcept nogil:
    """Source dice not taken this turn that show a basic colour (Mana Claim)."""
    cdef uint64_t o = 0
    cdef int i
    for i in range(gs.n_dice):
        if not (gs.dice_taken >> i) & 1 and gs.dice[i] < GOLD:
            o |= (<uint64_t>1) << i
    return o


cdef bint pc_travel(PendingCheck* c, const GameState* gs, bint attack) noexcept nogil:
    """travel / underground_attack: hvars[0] spaces moved, hvars[1] the most, hvars[2] Move
    per space, (attack) hvars[3] the space it started from; options: directions."""
    if pc_hvar(c, gs, 1, 1, 127) or pc_hvar(c, gs, 0, 0, gs.turn.hvars[1] - 1) or pc_hvar(c, gs, 2, 0, 127):
        return True
    if attack and pc_hvar(c, gs, 3, 0, gs.n_hexes - 1):
        return True
    return pc_asks(c, ASK_OPTION, 6, True) or pc_directions(c, gs)


cdef uint64_t live_slots(const GameState* gs) noexcept nogil:
    cdef uint64_t o = 0
    cdef int s
    for s in range(pc_n_enemies(gs)):
        if gs.combat.enemies[s].token >= 0:
            o |= (<uint64_t>1) << s
    return o


cdef uint64_t held_unit_slots(const Player* pl) noexcept nogil:
    cdef uint64_t o = 0
    cdef int i
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0:
            o |= (<uint64_t>1) << i
    return o




cdef bint bonus_per_enemy_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return gs.combat.active != 0 and node_playable(gs, es, a[0])


cdef bint burning_shield_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_BLOCK                       # 11.6.3


cdef bint restoration_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return outside_combat_now(gs)                            # 12.4.1


cdef bint special_now_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs)


cdef bint call_to_arms_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs) and call_to_arms_offer(gs, es) != 0


cdef bint recruit_free_from_offer_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs) and recruit_free_offer(gs, es) != 0


cdef bint underground_travel_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return travel_usable(gs, es.st, a[0], 0)


cdef bint wings_of_wind_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return travel_usable(gs, es.st, a[0], a[1])


cdef bint offering_discard_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs)


cdef bint destroy_enemy_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # 6.6.1 (errata): Tornado and Disintegrate only in the Attack phase
    if not gs.combat.active or (a[1] > 0 and gs.phase != PH_COMBAT_ATTACK):
        return False
    return destroy_targets(gs, es.st, resolving_colour(gs, es)) != 0


cdef bint exploding_shield_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_BLOCK                       # 11.6.3


cdef bint sacrifice_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK


cdef bint energy_flow_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    cdef int k
    for k in range(MAX_UNITS_):
        if pl.units[k].card >= 0 and not pl.units[k].ready:
            return special_now(gs)
    return False


cdef bint cure_bonus_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return outside_combat_now(gs)                            # with its Heal (12.4.1)


cdef bint space_bending_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_MOVE and not gs.turn.action_taken and not mod_has(&gs.turn, MK_SPACE_BENDING)


cdef bint mana_claim_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    return special_now(gs) and pl.claimed_die == 0 and claim_dice(gs) != 0


cdef bint charm_bonus_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # with its Influence 4 wherever that has a use (Thugs / Heroes paid in combat,
    # LL-4.3.4); the crystal or discount only "during interaction" (charm_bonus)
    return gs.phase == PH_INTERACT or influence_elsewhere(gs) or units_need_influence(gs, es)


cdef bint possess_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    if not gs.combat.active:
        return False
    # Possess: it stops an attack still to come, or gives Attack against another enemy
    if no_attack_targets(gs, es.st, WHITE) != 0:
        return True
    if gs.phase == PH_COMBAT_ATTACK:
        return possess_targets(gs, es.st) != 0
    return False


cdef bint chill_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    if not gs.combat.active:
        return False
    if no_attack_targets(gs, es.st, BLUE) != 0:
        return True
    # after the attacks: Lethal Chill's Armor -4 / Chill's lost fire resistance still count
    return gs.phase == PH_COMBAT_ATTACK and chill_late_targets(gs, es.st, a[0], a[1]) != 0


cdef bint disease_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.combat.active != 0 and (disease_targets(gs, es.st) != 0 or
                                      (gs.phase <= PH_COMBAT_BLOCK and no_attack_targets(gs, es.st, GREEN) != 0))


cdef bint enemy_armor_fortified_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.combat.active != 0 and gs.phase != PH_COMBAT_BLOCK and gs.phase != PH_COMBAT_DAMAGE \
        and enemy_effect_targets(gs, es.st, GREEN) != 0


cdef bint ignore_site_fortifications_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.combat.active != 0                             # 11.4.3 (with Demolish's Armor -1)


cdef bint terrain_forbidden_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_MOVE and not gs.turn.action_taken  # with Mist Form's Move


cdef bint veil_of_mist_ignore_wound_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs) and gs.phase != PH_COMBAT_ATTACK


cdef bint time_bending_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs) and gs.turn.time_bending == 0


cdef bint underground_attack_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return ug_attack_playable(gs, es.st, a[0])


cdef bint wings_of_night_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.combat.active != 0 and no_attack_targets(gs, es.st, WHITE) != 0


cdef int bonus_per_enemy(GameState* gs, const EngineStatics* es, const Statics* st,
                         int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const int32_t* r
    cdef int n
    # Flame Wave: the Attack or Block gets +per_enemy for each enemy token faced.
    if apply_op(gs, es, st, effect_context(gs, p), a[0]) != RES_DONE:
        return RES_ERROR
    r = erow(es, a[0])
    n = a[1] * faced_enemies(gs)
    if r[0] == OP_ATTACK:
        gs.combat.attack[r[3]][r[2]] += n
    elif r[0] == OP_BLOCK:
        gs.combat.block[r[2]] += n
    return RES_DONE


cdef int burning_shield(GameState* gs, const EngineStatics* es, const Statics* st,
                        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Fire Block `block`; if it is part of a successful block, Fire Attack `attack`
    # in the Attack phase (spells_event).
    gs.combat.block[<int>FIRE] += a[0]
    # phase-long: this Block phase's pool (spells_event turns it into the armed half)
    if not give_mod_arg(gs, p, MK_BLOCK_FIRE_ATTACK, MS_PHASE, a[1], 1, MOD_ADD):
        return RES_ERROR
    return RES_DONE


cdef int restoration(GameState* gs, const EngineStatics* es, const Statics* st,
                     int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i, card, q
    # Heal `heal` (in a forest: heal_in_forest, 12.3).  Rebirth also readies Spent Units
    # (7.3.4) of total level up to ready_levels (ready_levels_in_forest): one at a time
    # (ASK_UNIT = unit slot, ASK_DONE stops), all at once, so none is used in between
    # (LL-9.7.16).  hvars[0] = levels left.
    if choice < 0:
        q = pl.position >= 0 and gs.hexes[pl.position].terrain == FOREST
        gs.turn.healing += a[1] if q else a[0]
        gs.turn.hvars[0] = <int16_t>(a[3] if q else a[2])
    elif choice == ASK_DONE:
        return RES_DONE
    else:
        pl.units[choice].ready = 1
        gs.turn.hvars[0] -= <int16_t>unit_level(es, pl.units[choice].card)
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0 and not pl.units[i].ready and unit_level(es, pl.units[i].card) <= gs.turn.hvars[0]:
            options |= (<uint64_t>1) << i
    if options == 0:
        return RES_DONE
    return ask(gs, row, 0, ASK_UNIT, options | ((<uint64_t>1) << ASK_DONE))


cdef int meditation(GameState* gs, const EngineStatics* es, const Statics* st,
                    int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i, n, card, k
    # `cards` random cards of the discard pile go together on top (0) or to the bottom
    # (1) of the Deed deck (ASK_OPTION); the Hand limit of this turn's draw is
    # +extra_draw (13.7.2).  hvars[0] = cards picked; while the question waits they lie
    # on top of the discard pile in the order picked (so every card stays in a zone).
    if choice < 0:
        gs.turn.hand_limit_bonus += <int8_t>a[1]
        n = a[0] if a[0] < pl.n_discard else pl.n_discard
        if n > 6:
            n = 6
        for k in range(n):                                  # among the cards not yet picked
            i = <int>rng_below(deeds_rng(gs, pl), <uint32_t>(pl.n_discard - k))
            card = pl.discard[i]
            remove_at(pl.discard, &pl.n_discard, i)
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        gs.turn.hvars[0] = <int16_t>n
        if n == 0:
            return RES_DONE
        return ask(gs, row, 0, ASK_OPTION, 3)
    n = gs.turn.hvars[0]
    pl.n_discard -= <int16_t>n
    for k in range(n):
        card = pl.discard[pl.n_discard + k]
        if choice == 0:
            push_card(pl.deck, &pl.n_deck, MAX_DECK_CARDS, card)
            deck_gained_top(pl)
        elif pl.n_deck < MAX_DECK_CARDS:
            for i in range(pl.n_deck, 0, -1):
                pl.deck[i] = pl.deck[i - 1]
            pl.deck[0] = <int16_t>card
            pl.n_deck += 1
            deck_gained_bottom(pl)
        else:
            count_refused_card()                            # ERR_CAPACITY after the action
    return RES_DONE


cdef int underground_travel(GameState* gs, const EngineStatics* es, const Statics* st,
                            int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return travel(gs, st, p, row, choice, a[0], 0)


cdef int wings_of_wind(GameState* gs, const EngineStatics* es, const Statics* st,
                       int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return travel(gs, st, p, row, choice, a[0], a[1])


cdef int recruit_free_from_offer(GameState* gs, const EngineStatics* es, const Statics* st,
                                 int p, int row, int choice) noexcept nogil:
    return recruit_free(gs, es, p, row, choice)


cdef int mana_radiance(GameState* gs, const EngineStatics* es, const Statics* st,
                       int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i
    # Choose a basic colour: every player takes a Wound per crystal of it they hold,
    # then you gain `crystals` crystals of it (5.3.2).
    if choice < 0:
        return ask(gs, row, 0, ASK_COLOUR, 0xF)
    for i in range(gs.n_players):
        take_wounds(gs, es, &gs.players[i], gs.players[i].crystals[choice])
    for i in range(a[0]):
        gain_crystal(pl, gs, choice)
    return RES_DONE


cdef int mana_meltdown(GameState* gs, const EngineStatics* es, const Statics* st,
                       int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int q, k, n, c
    cdef uint64_t lost = 0
    # Each other player loses a random crystal (each of their crystals equally likely,
    # STREAM_REWARDS); a player with no crystal takes a Wound instead (12.1.1).  You may
    # take one of the lost crystals (stage 1, ASK_COLOUR: a lost colour, or ASK_DONE).
    # With no other player (solo) it does nothing.
    if choice >= 0:
        if choice != ASK_DONE:
            gain_crystal(&gs.players[p], gs, choice)       # 5.3.2
        return RES_DONE
    for q in range(gs.n_players):
        if q == p:
            continue
        n = 0
        for c in range(4):
            n += gs.players[q].crystals[c]
        if n == 0:
            take_wounds(gs, es, &gs.players[q], 1)          # not the acting hero's
            continue
        k = <int>rng_below(&gs.rng[<int>STREAM_REWARDS], <uint32_t>n)
        for c in range(4):
            if k < gs.players[q].crystals[c]:
                break
            k -= gs.players[q].crystals[c]
        gs.players[q].crystals[c] -= 1
        lost |= (<uint64_t>1) << c
    if lost:
        return ask(gs, row, 1, ASK_COLOUR, lost | ((<uint64_t>1) << ASK_DONE))
    return RES_DONE


cdef bint mana_meltdown_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    # stage 1: a lost crystal's colour, or none
    return pc_stage(c, gs, 1) or pc_asks(c, ASK_COLOUR, 4, True)


cdef int mind_read(GameState* gs, const EngineStatics* es, const Statics* st,
                   int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int card, q, i
    # Choose a colour, gain a crystal of it (stage 0, ASK_COLOUR); then each other player
    # discards a Spell or Action card of that colour from hand or reveals a hand without
    # one (19.7.1).  The discard is THAT player's decision: the question is put to their
    # seat (gs.current = the seat asked, gs.turn_player = the caster; docs/engine.md
    # "Questions to another player"), stage 1, ASK_HAND_CARD; hvars[0] = the colour,
    # hvars[1] = the seat asked, hvars[2] = seats (bits) who discarded an Action card,
    # hvars[4 + q] = the Action card seat q discarded.
    # A hand without one is revealed (public: nothing to record) and nobody is asked.
    # Mind Steal (steal=1): then the caster "may permanently take one Action card (not a
    # Spell) discarded this way into your hand": stage 2, ASK_OPTION, option q = the card
    # seat q discarded, ASK_DONE = none.  It leaves q's discard pile for the caster's hand
    # (Player.cards_taken +1 for the caster, -1 for q: the per-player card balance).
    if choice < 0:
        return ask(gs, row, 0, ASK_COLOUR, 0xF)
    if gs.turn.handler_stage == 0:
        gain_crystal(pl, gs, choice)
        gs.turn.hvars[0] = <int16_t>choice
        gs.turn.hvars[2] = 0
        return mind_read_next(gs, es, row, 0)
    if gs.turn.handler_stage == 2:                          # Mind Steal: the caster's choice
        if choice == ASK_DONE:
            return RES_DONE
        q = choice
        card = gs.turn.hvars[4 + q]
        for i in range(gs.players[q].n_discard - 1, -1, -1):
            if gs.players[q].discard[i] == card:
                remove_at(gs.players[q].discard, &gs.players[q].n_discard, i)
                push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, card)
                pl.cards_taken += 1
                gs.players[q].cards_taken -= 1
                return RES_DONE
        set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)   # mind_steal_options excluded it
        return RES_ERROR
    q = gs.turn.hvars[1]                                    # the seat asked answers (p: the caster)
    card = gs.players[q].hand[choice]
    remove_at(gs.players[q].hand, &gs.players[q].n_hand, choice)
    push_card(gs.players[q].discard, &gs.players[q].n_discard, MAX_DISCARD_CARDS, card)
    if card_deck(es, card) != DECK_SPELL:
        gs.turn.hvars[2] = <int16_t>(gs.turn.hvars[2] | (1 << q))
        gs.turn.hvars[4 + q] = <int16_t>card
    return mind_read_next(gs, es, row, q + 1)


cdef uint64_t mind_steal_options(const GameState* gs, int caster) noexcept nogil:
    """Mind Steal: the seats (bits) whose Action card discarded by Mind Read lies in their
    discard pile (hvars[2], hvars[4 + q])."""
    cdef uint64_t bits = 0
    cdef int q, i
    for q in range(gs.n_players):
        if q == caster or not (gs.turn.hvars[2] >> q) & 1:
            continue
        for i in range(gs.players[q].n_discard):
            if gs.players[q].discard[i] == gs.turn.hvars[4 + q]:
                bits |= (<uint64_t>1) << q
                break
    return bits


cdef uint64_t mind_read_cards(const GameState* gs, const EngineStatics* es, int q, int colour) noexcept nogil:
    """Mind Read: player q's hand cards (bits) that are a Spell or Action of `colour`."""
    cdef uint64_t bits = 0
    cdef int i, card, deck
    for i in range(gs.players[q].n_hand):
        card = gs.players[q].hand[i]
        deck = card_deck(es, card)
        if (deck == DECK_BASIC or deck == DECK_AA or deck == DECK_SPELL) and card_colour(es, card) == colour \
                and i < ASK_DONE:
            bits |= (<uint64_t>1) << i
    return bits


cdef int mind_read_next(GameState* gs, const EngineStatics* es, int row, int first) noexcept nogil:
    """Put the discard to the next other seat from `first` on that holds such a card; when
    none is left, the decision is the caster's again."""
    cdef const int32_t* a = row_args(es, row)
    cdef int q, caster = gs.turn_player
    cdef uint64_t opts
    for q in range(first, gs.n_players):
        if q == caster:
            continue
        opts = mind_read_cards(gs, es, q, gs.turn.hvars[0])
        if opts:
            gs.turn.hvars[1] = <int16_t>q
            gs.current = <int8_t>q                          # the question is that seat's
            return ask(gs, row, 1, ASK_HAND_CARD, opts)
    gs.current = <int8_t>caster
    if a[0]:                                                # Mind Steal: "you may" take one
        opts = mind_steal_options(gs, caster)
        if opts:
            return ask(gs, row, 2, ASK_OPTION, opts | ((<uint64_t>1) << ASK_DONE))
    return RES_DONE


cdef bint mind_read_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    # stage 0: the colour; stage 1: hvars[0] colour, hvars[1] = the seat asked (= current);
    # stage 2 (Mind Steal): the caster's pick among mind_steal_options, or none
    if pc_stage(c, gs, 2 if row_args(es, row)[0] else 1):
        return True
    if gs.turn.handler_stage == 0:
        return pc_asks(c, ASK_COLOUR)
    if gs.turn.handler_stage == 2:
        return pc_hvar(c, gs, 0, 0, 3) or pc_asks(c, ASK_OPTION, gs.n_players, True) \
            or pc_subset(c, gs, mind_steal_options(gs, gs.turn_player))
    if pc_hvar(c, gs, 0, 0, 3) or pc_hvar(c, gs, 1, gs.current, gs.current):
        return True
    return pc_asks(c, ASK_HAND_CARD)


cdef int offering_discard(GameState* gs, const EngineStatics* es, const Statics* st,
                          int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int c, card
    # Discard up to max_cards non-Wound cards (6.2.2): a crystal of each one's colour;
    # an Artifact (colourless) gives one of a chosen colour.  Stage 0: the card
    # (ASK_HAND_CARD or ASK_DONE); stage 1: the colour for an Artifact (ASK_COLOUR).
    # hvars[0] = cards discarded.
    if choice < 0:
        gs.turn.hvars[0] = 0
    elif gs.turn.handler_stage == 0:
        if choice == ASK_DONE:
            return RES_DONE
        card = pl.hand[choice]
        remove_at(pl.hand, &pl.n_hand, choice)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        gs.turn.hvars[0] += 1
        c = card_colour(es, card)
        if c >= COLOURLESS:
            return ask(gs, row, 1, ASK_COLOUR, 0xF)
        gain_crystal(pl, gs, c)
    else:
        gain_crystal(pl, gs, choice)
    if gs.turn.hvars[0] >= a[0]:
        return RES_DONE
    options = non_wound_hand(gs, es)
    if options == 0:
        return RES_DONE
    return ask(gs, row, 0, ASK_HAND_CARD, options | ((<uint64_t>1) << ASK_DONE))


cdef int destroy_enemy(GameState* gs, const EngineStatics* es, const Statics* st,
                       int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int i
    # Tornado / Disintegrate: destroy one target enemy (ASK_OPTION = combat slot), or
    # every enemy with target=all.
    if a[0] == 1:
        for i in range(gs.combat.n_enemies):
            if is_targetable(gs, i) and not colour_resisted(gs, st, i, resolving_colour(gs, es)):
                destroy(gs, st, i)
        return RES_DONE
    if choice < 0:
        return ask(gs, row, 0, ASK_OPTION, destroy_targets(gs, st, resolving_colour(gs, es)))
    destroy(gs, st, choice)
    return RES_DONE


cdef int exploding_shield(GameState* gs, const EngineStatics* es, const Statics* st,
                          int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Fire Block `block`; if it is part of a successful block, the blocked enemy is
    # destroyed (spells_event; not an Arcane Immune one, LL-6.7.5).
    gs.combat.block[<int>FIRE] += a[0]
    if not give_mod(gs, p, MK_BLOCK_DESTROY, MS_PHASE, 1, MOD_ONCE):   # this Block phase's pool
        return RES_ERROR
    return RES_DONE


cdef int sacrifice(GameState* gs, const EngineStatics* es, const Statics* st,
                   int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int c, n, q
    # Choose green or white and red or blue (ASK_OPTION: 0 green+red, 1 green+blue,
    # 2 white+red, 3 white+blue); per pair of crystals of those two colours: Siege
    # `siege` (green) or Ranged `ranged` (white) Attack, fire (red) or ice (blue); the
    # paired crystals then become mana tokens (5.1.2).
    if choice < 0:
        return ask(gs, row, 0, ASK_OPTION, 0xF)
    c = GREEN if choice < 2 else WHITE
    q = RED if choice % 2 == 0 else BLUE
    n = pl.crystals[c] if pl.crystals[c] < pl.crystals[q] else pl.crystals[q]
    gs.combat.attack[<int>(SIEGE if c == GREEN else RANGED)][<int>(FIRE if q == RED else ICE)] += \
        n * (a[0] if c == GREEN else a[1])
    pl.crystals[c] -= n
    pl.crystals[q] -= n
    gs.turn.mana_tokens[c] += n
    gs.turn.mana_tokens[q] += n
    return RES_DONE


cdef int energy_flow(GameState* gs, const EngineStatics* es, const Statics* st,
                     int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i, card
    # Ready one of your spent Units (heal=1: and heal it; stage 0, ASK_OPTION = unit slot).
    # Then you may spend one ready Unit of level <= opponent_max_level of each other
    # player (19.7.1; stage 1, ASK_OPTION = that player's unit slot or ASK_DONE,
    # hvars[0] = the seat asked about, in seat order; your choice, not theirs).
    if choice >= 0 and gs.turn.handler_stage == 1:
        if choice != ASK_DONE:
            gs.players[gs.turn.hvars[0]].units[choice].ready = 0    # spent (7.2.2)
        return energy_flow_others(gs, es, p, row, gs.turn.hvars[0] + 1)
    if choice < 0:
        for i in range(MAX_UNITS_):
            if pl.units[i].card >= 0 and not pl.units[i].ready:
                options |= (<uint64_t>1) << i
        return ask(gs, row, 0, ASK_OPTION, options)
    pl.units[choice].ready = 1                               # 7.2.2
    if a[0] and pl.units[choice].wounds > 0:
        pl.units[choice].wounds = 0                          # 12.3.4
        unit_healed(gs, p, choice)
    return energy_flow_others(gs, es, p, row, 0)


cdef uint64_t energy_flow_targets(const GameState* gs, const EngineStatics* es, int q, int max_level) noexcept nogil:
    """Energy Flow / Steal: player q's ready Units of level <= max_level (slots, bits)."""
    cdef uint64_t bits = 0
    cdef int i
    for i in range(MAX_UNITS_):
        if gs.players[q].units[i].card >= 0 and gs.players[q].units[i].ready \
                and unit_level(es, gs.players[q].units[i].card) <= max_level:
            bits |= (<uint64_t>1) << i
    return bits


cdef int energy_flow_others(GameState* gs, const EngineStatics* es, int p, int row, int first) noexcept nogil:
    """Ask about the next other player from seat `first` on with a Unit to spend."""
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t opts
    cdef int q
    for q in range(first, gs.n_players):
        if q == p:
            continue
        opts = energy_flow_targets(gs, es, q, a[1])
        if opts:
            gs.turn.hvars[0] = <int16_t>q
            return ask(gs, row, 1, ASK_OPTION, opts | ((<uint64_t>1) << ASK_DONE))
    return RES_DONE


cdef int cure_bonus(GameState* gs, const EngineStatics* es, const Statics* st,
                    int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i, card
    # Cure: draw a card per Wound healed from hand this turn (so far, and from now on,
    # A_HEAL_WOUND) and ready each Unit healed this turn (so far here, from now on in
    # unit_healed: A_HEAL_UNIT with Cure's own Heal 2 or any other Healing, heal_unit).
    draw_cards(gs, pl, gs.turn.wounds_healed)
    if not give_mod(gs, p, MK_CURE, MS_TURN, 1, MOD_ADD):
        return RES_ERROR
    for i in range(MAX_UNITS_):
        if (gs.turn.units_healed >> i) & 1 and pl.units[i].card >= 0:
            pl.units[i].ready = 1                            # 7.2.2
    return RES_DONE


cdef int space_bending(GameState* gs, const EngineStatics* es, const Statics* st,
                       int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # This turn spaces `distance` (2) away count as adjacent for moves (A_MOVE 8 + hex,
    # space_bending_moves); such a move does not provoke (9.4.3).
    if a[0] != 2:
        set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    if not give_mod(gs, p, MK_SPACE_BENDING, MS_TURN, 1, MOD_ONCE):
        return RES_ERROR
    return RES_DONE


cdef int mana_claim(GameState* gs, const EngineStatics* es, const Statics* st,
                    int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i
    # Take a basic-colour die from the Source and keep it until the round ends (it is
    # not the turn's Source die, 5.5.2 [R]): `now` tokens of its colour now (option 0) or
    # `per_turn` at the start of each of your later turns this round (option 1).
    # Mana Curse (curse=1): also until the round's end another player who uses mana of
    # that colour takes a Wound, at most one a turn (MK_MANA_CURSE, round-long;
    # exploit_mana_used in ext/_engine.pyx).  Solo: nobody to act on.
    # Stage 0: the die (ASK_DIE); stage 1: the option.  hvars[0] = colour.
    if choice < 0:
        return ask(gs, row, 0, ASK_DIE, claim_dice(gs))
    if gs.turn.handler_stage == 0:
        gs.turn.hvars[0] = gs.dice[choice]
        pl.claimed_die = <int8_t>(gs.dice[choice] + 1)
        for i in range(choice, gs.n_dice - 1):                # out of the Source until round end
            gs.dice[i] = gs.dice[i + 1]
        gs.n_dice -= 1
        gs.dice_taken = <uint8_t>((gs.dice_taken & ((1 << choice) - 1)) | ((gs.dice_taken >> (choice + 1)) << choice))
        gs.turn.dice_kept = <uint8_t>((gs.turn.dice_kept & ((1 << choice) - 1)) | ((gs.turn.dice_kept >> (choice + 1)) << choice))
        if a[2] and gs.n_players > 1 and not give_mod_arg(gs, p, MK_MANA_CURSE, MS_ROUND, 1,
                                                           gs.turn.hvars[0] + 1, MOD_SET):
            return RES_ERROR
        return ask(gs, row, 1, ASK_OPTION, 3)
    if choice == 0:
        gs.turn.mana_tokens[gs.turn.hvars[0]] += a[0]
    else:
        pl.claim_per_turn = <int8_t>a[1]
    return RES_DONE


cdef int charm_bonus(GameState* gs, const EngineStatics* es, const Statics* st,
                     int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    # Charm: during an interaction also a crystal of any basic colour (ASK_OPTION 0-3) or an
    # Influence discount of `discount` on one Unit recruited this turn (option 4; 10.6).
    # Outside an interaction it adds nothing to the Influence 4.
    if choice < 0:
        if gs.phase != PH_INTERACT:
            return RES_DONE
        options = 0xF
        if charm_discount_useful(gs, es, p):
            options |= 1 << 4
        return ask(gs, row, 0, ASK_OPTION, options)
    if choice < 4:
        gain_crystal(pl, gs, choice)
    else:
        if not give_mod(gs, p, MK_RECRUIT_DISCOUNT, MS_TURN, a[0], MOD_ADD):   # the next Unit this turn (10.6)
            return RES_ERROR
    return RES_DONE


cdef int possess(GameState* gs, const EngineStatics* es, const Statics* st,
                 int p, int row, int choice) noexcept nogil:
    cdef uint64_t options = 0
    # Possess: target enemy does not attack this combat; in the Attack phase its Attack
    # (all its attacks, with their elements, without its abilities) may be used against
    # the other enemies (A_POSSESS).  Not on Arcane Immunity (LL-6.7.1).
    if choice < 0:
        options = no_attack_targets(gs, st, WHITE)
        if gs.phase == PH_COMBAT_ATTACK:
            options |= possess_targets(gs, st)
        return ask(gs, row, 0, ASK_ENEMY, options)
    gs.combat.enemies[choice].flags |= CE_NO_ATTACK          # LL-6.1.4
    if not possess_gain(gs, st, p, choice):
        return RES_ERROR
    return RES_DONE


cdef int chill(GameState* gs, const EngineStatics* es, const Statics* st,
               int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    # Chill: target enemy does not attack this combat and loses its fire resistance
    # (lose_fire_resistance); Lethal Chill: does not attack and Armor `armor` (min 1).
    # A blue effect: not on Ice-resistant enemies (11.4.2), nor Arcane Immune ones.
    if choice < 0:
        options = no_attack_targets(gs, st, BLUE)
        if gs.phase == PH_COMBAT_ATTACK:
            options |= chill_late_targets(gs, st, a[0], a[1])
        return ask(gs, row, 0, ASK_ENEMY, options)
    gs.combat.enemies[choice].flags |= CE_NO_ATTACK
    if a[0] != 0:
        set_armor_delta(&gs.combat.enemies[choice], gs.combat.enemies[choice].armor_delta + a[0])
    if a[1]:
        gs.combat.enemies[choice].res_lost |= RES_FIRE
    return RES_DONE


cdef int disease(GameState* gs, const EngineStatics* es, const Statics* st,
                 int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int i
    # Disease: every enemy with all its attacks blocked (LL-6.1.6) has Armor 1 for this
    # combat - those blocked now, and those blocked later (fire_event: the generic effect of its modifier).
    if a[0] != 1:
        set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    options = disease_targets(gs, st)
    for i in range(gs.combat.n_enemies):
        if (options >> i) & 1:
            set_armor_delta(&gs.combat.enemies[i], -100)     # Armor 1 (the floor)
    if not give_mod(gs, p, MK_BLOCKED_ARMOR_ONE, MS_COMBAT, 1, MOD_ONCE):   # also those blocked later
        return RES_ERROR
    return RES_DONE


cdef int enemy_armor_fortified(GameState* gs, const EngineStatics* es, const Statics* st,
                               int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int i
    # Earthquake: Armor `delta`, or `fortified_delta` on a fortified enemy (11.10.1; site
    # fortification ignored by Demolish does not count); min 1.  target=one: ASK_ENEMY.
    options = enemy_effect_targets(gs, st, GREEN)
    if a[0] == 1 or choice >= 0:
        for i in range(gs.combat.n_enemies):
            if (a[0] == 1 and (options >> i) & 1) or i == choice:
                set_armor_delta(&gs.combat.enemies[i], gs.combat.enemies[i].armor_delta +
                                (a[2] if fortification_level(gs, st, i) > 0 else a[1]))
        return RES_DONE
    return ask(gs, row, 0, ASK_ENEMY, options)


cdef int ignore_site_fortifications(GameState* gs, const EngineStatics* es, const Statics* st,
                                    int p, int row, int choice) noexcept nogil:
    # Demolish: site fortifications are ignored this turn (11.10.1; read by
    # fortification_level); the Fortified ability still counts.
    if not give_mod(gs, p, MK_IGNORE_SITE_FORT, MS_TURN, 1, MOD_ONCE):
        return RES_ERROR
    return RES_DONE


cdef int terrain_forbidden(GameState* gs, const EngineStatics* es, const Statics* st,
                           int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Mist Form: this terrain may not be entered this turn (read by _rules.move_cost).
    if a[0] < 0 or a[0] >= NUM_TERRAINS:
        set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    if not give_mod_arg(gs, p, MK_TERRAIN_CLOSED, MS_TURN, 1, a[0] + 1, MOD_ONCE):
        return RES_ERROR
    return RES_DONE


cdef int veil_of_mist_ignore_wound(GameState* gs, const EngineStatics* es, const Statics* st,
                                   int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Veil of Mist: the hero ignores the first `wounds` Wound(s) from enemies this turn,
    # with their side effects (a turn-long MK_IGNORE_WOUNDS modifier, used up by
    # _combat.assign_to_hero).
    if a[0] > 0 and not give_mod(gs, p, MK_IGNORE_WOUNDS, MS_TURN, a[0], MOD_ADD):
        return RES_ERROR
    return RES_DONE


cdef int time_bending(GameState* gs, const EngineStatics* es, const Statics* st,
                      int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef int card, k
    # Time Bending: at the end of the turn this card is set aside for the round
    # (LL-9.6.4), the other cards played return to the hand, nothing is drawn and another
    # turn follows (time_bending_end, finish_turn).
    # Played through Magic Talent (the Spell stays in the offer, on top of the play area
    # lies Magic Talent): that card is set aside instead (LL-9.6.4).  Through the Tome of
    # All Spells the resolving card is the Tome itself (thrown away: nothing set aside).
    k = gs.turn.resolving_card
    if k >= 0 and pl.n_play > 0 and pl.play_area[pl.n_play - 1] != k and spell_in_offer(gs, k):
        k = pl.play_area[pl.n_play - 1]
    gs.turn.time_bending = <int16_t>(k + 1 if k >= 0 else 0x7FFF)
    return RES_DONE


cdef int underground_attack_run(GameState* gs, const EngineStatics* es, const Statics* st,
                                int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return underground_attack(gs, es, st, p, row, choice, a[0])


cdef int wings_of_night(GameState* gs, const EngineStatics* es, const Statics* st,
                        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    # Wings of Night: target enemy does not attack this combat; each further target costs
    # Move: first_extra_cost, then + step each (1, 2, 3 ...).  Not on Arcane Immunity.
    # ASK_ENEMY, ASK_DONE stops; later in the combat Move played then can buy more
    # targets (A_WINGS_TARGET).  The first target made the combat-long modifier MK_WINGS:
    # value = the next target's Move, arg = the step (wings_take).
    if choice < 0:
        mod_remove_kind(&gs.turn, MK_WINGS)             # played again: its prices start again
        return ask(gs, row, 0, ASK_ENEMY, no_attack_targets(gs, st, WHITE))
    if choice == ASK_DONE:
        return RES_DONE
    if mod_has(&gs.turn, MK_WINGS):
        wings_take(gs, choice)
    else:                                               # the first target: free
        gs.combat.enemies[choice].flags |= CE_NO_ATTACK          # LL-6.1.4
        if not give_mod_arg(gs, p, MK_WINGS, MS_COMBAT, a[0], a[1], MOD_SET):
            return RES_ERROR
    options = wings_options(gs, st)
    if options == 0:
        return RES_DONE
    return ask(gs, row, 0, ASK_ENEMY, options | ((<uint64_t>1) << ASK_DONE))


cdef bint restoration_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                              PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_UNIT, -1, True)


cdef bint meditation_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                             PendingCheck* c) noexcept nogil:
    cdef const Player* pl = &gs.players[p]
    # hvars[0] = cards on top of the discard pile
    return pc_stage(c, gs, 0) or pc_hvar(c, gs, 0, 1, pl.n_discard if pl.n_discard < 6 else 6) \
        or pc_asks(c, ASK_OPTION, 2)


cdef bint travel_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                         PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_travel(c, gs, False)


cdef bint underground_attack_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                     PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_travel(c, gs, True)


cdef bint call_to_arms_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                               PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage, u, k
    # stage 1: hvars[0] = the unit; 2: hvars[1] = the row of one of its abilities
    if pc_stage(c, gs, 2):
        return True
    if stage == 0:
        return pc_asks(c, ASK_OFFER, -1, False, gs.unit_offer, gs.n_unit_offer)
    if pc_hvar(c, gs, 0, 0, st.units.rows - 1):
        return True
    u = gs.turn.hvars[0]
    k = unit_value(es, u, es.units.first_ability)
    if stage == 1:
        return pc_asks(c, ASK_OPTION, unit_value(es, u, es.units.n_abilities))
    return pc_hvar(c, gs, 1, k, k + unit_value(es, u, es.units.n_abilities) - 1) or pc_asks(c, ASK_PAYMENT)


cdef bint recruit_free_from_offer_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                          PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    # stage 1: hvars[0] = the offer slot
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_OFFER, -1, False, gs.unit_offer, gs.n_unit_offer)
    if pc_hvar(c, gs, 0, 0, gs.n_unit_offer - 1):
        return True
    if gs.unit_offer[gs.turn.hvars[0]] < 0:
        return pc_bad(c, PF_HVAR, gs.turn.hvars[0], -1, -1)
    return pc_asks(c, ASK_UNIT)


cdef bint colour_pick_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                              PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_COLOUR, 4)


cdef bint offering_discard_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                   PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    if pc_stage(c, gs, 1):
        return True
    return pc_asks(c, ASK_HAND_CARD, -1, True) if stage == 0 else pc_asks(c, ASK_COLOUR, 4)


cdef bint destroy_enemy_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                PendingCheck* c) noexcept nogil:
    # option = combat slot
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, pc_n_enemies(gs)) \
        or pc_subset(c, gs, live_slots(gs))


cdef bint sacrifice_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                            PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, 4)


cdef bint energy_flow_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                              PendingCheck* c) noexcept nogil:
    cdef const Player* pl = &gs.players[p]
    # stage 0: option = own unit slot; stage 1: hvars[0] = another seat, option = its slot
    if pc_stage(c, gs, 1):
        return True
    if gs.turn.handler_stage == 1:
        if pc_hvar(c, gs, 0, 0, gs.n_players - 1):
            return True
        return pc_asks(c, ASK_OPTION, MAX_UNITS_, True) \
            or pc_subset(c, gs, held_unit_slots(&gs.players[gs.turn.hvars[0]]) | ((<uint64_t>1) << ASK_DONE))
    return pc_asks(c, ASK_OPTION, MAX_UNITS_) or pc_subset(c, gs, held_unit_slots(pl))


cdef bint mana_claim_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                             PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    # stage 1: hvars[0] = the die's colour
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_DIE)
    return pc_hvar(c, gs, 0, 0, 3) or pc_asks(c, ASK_OPTION, 2)


cdef bint charm_bonus_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                              PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, 5)


cdef bint enemy_pick_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                             PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY)


cdef bint wings_of_night_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                 PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY, -1, True)


# ---------------------------------------------------------------------------------------
# The registry: one entry per handler (name, argument names, run, playable, pending, flags)
# ---------------------------------------------------------------------------------------

cdef enum:
    CAPACITY = 40

cdef HandlerEntry SPELLS[CAPACITY]
cdef int N_SPELLS = 0


cdef int entry(const char* name, const char* params, handler_run_t run, handler_playable_t playable,
               handler_pending_t pending=NULL, int flags=0) except -1:
    global N_SPELLS
    if N_SPELLS >= CAPACITY:
        raise RuntimeError("ext/_fx_spells.pyx: more handlers than CAPACITY")
    SPELLS[N_SPELLS].name = name
    SPELLS[N_SPELLS].params = params
    SPELLS[N_SPELLS].run = run
    SPELLS[N_SPELLS].playable = playable
    SPELLS[N_SPELLS].pending = pending
    SPELLS[N_SPELLS].flags = flags
    N_SPELLS += 1
    return 0


entry(b"bonus_per_enemy", b"effect per_enemy", bonus_per_enemy, bonus_per_enemy_playable)
entry(b"burning_shield", b"block attack", burning_shield, burning_shield_playable)
entry(b"restoration", b"heal heal_in_forest ready_levels ready_levels_in_forest", restoration,
      restoration_playable, restoration_pending)
entry(b"meditation", b"cards extra_draw", meditation, special_now_playable, meditation_pending)
entry(b"underground_travel", b"spaces", underground_travel, underground_travel_playable, travel_pending)
entry(b"wings_of_wind", b"max_spaces move_per_space", wings_of_wind, wings_of_wind_playable, travel_pending)
entry(b"call_to_arms", b"", call_to_arms, call_to_arms_playable, call_to_arms_pending)
entry(b"recruit_free_from_offer", b"", recruit_free_from_offer,
      recruit_free_from_offer_playable, recruit_free_from_offer_pending)
entry(b"mana_radiance", b"crystals", mana_radiance, special_now_playable, colour_pick_pending)
entry(b"mana_meltdown", b"", mana_meltdown, special_now_playable, mana_meltdown_pending)
entry(b"mind_read", b"steal", mind_read, special_now_playable, mind_read_pending)
entry(b"offering_discard", b"max_cards", offering_discard,
      offering_discard_playable, offering_discard_pending)
entry(b"destroy_enemy", b"target attack_phase_only", destroy_enemy,
      destroy_enemy_playable, destroy_enemy_pending)
entry(b"exploding_shield", b"block", exploding_shield, exploding_shield_playable)
entry(b"sacrifice", b"siege ranged", sacrifice, sacrifice_playable, sacrifice_pending)
entry(b"energy_flow", b"heal opponent_max_level", energy_flow, energy_flow_playable, energy_flow_pending)
entry(b"cure_bonus", b"", cure_bonus, cure_bonus_playable)
entry(b"space_bending", b"distance", space_bending, space_bending_playable)
entry(b"mana_claim", b"now per_turn curse", mana_claim, mana_claim_playable, mana_claim_pending)
entry(b"charm_bonus", b"discount", charm_bonus, charm_bonus_playable, charm_bonus_pending)
entry(b"possess", b"", possess, possess_playable, enemy_pick_pending)
entry(b"chill", b"armor lose_fire_resistance", chill, chill_playable, enemy_pick_pending)
entry(b"disease", b"armor", disease, disease_playable)
entry(b"enemy_armor_fortified", b"target delta fortified_delta", enemy_armor_fortified,
      enemy_armor_fortified_playable, enemy_pick_pending)
entry(b"ignore_site_fortifications", b"", ignore_site_fortifications, ignore_site_fortifications_playable)
entry(b"terrain_forbidden", b"terrain", terrain_forbidden, terrain_forbidden_playable, NULL, HF_MOVEMENT_ONLY)
entry(b"veil_of_mist_ignore_wound", b"wounds", veil_of_mist_ignore_wound, veil_of_mist_ignore_wound_playable)
entry(b"time_bending", b"", time_bending, time_bending_playable)
entry(b"underground_attack", b"spaces", underground_attack_run,
      underground_attack_playable, underground_attack_pending)
entry(b"wings_of_night", b"first_extra_cost step", wings_of_night,
      wings_of_night_playable, wings_of_night_pending)
register_handler_group(HG_SPELLS, SPELLS, N_SPELLS)


# -- lifecycle events (issue 12): the combat-timed parts of this group's cards ----------------

cdef void spells_event(GameState* gs, const EngineStatics* es, const Statics* st, int p, int ev,
                       int arg) noexcept nogil:
    """Burning Shield: its block pool succeeded (EV_BLOCK_COMMITTED) - the Fire Attack is
    armed (combat-long) and added when the Attack phase starts (EV_PHASE_START, 11.5);
    Exploding Shield: the enemy blocked is destroyed (not one resisting red, 11.4.2).  Both
    pending halves are phase-long modifiers: unused block points are lost with the Block
    phase (11.4.5).  (Wings of Night and Possess are combat-long modifiers: the combat's end
    ends them, fire_event's expiry.)"""
    cdef int i, v
    if ev == EV_BLOCK_COMMITTED:
        if gs.turn.n_mods == 0:
            return
        i = mod_find_arg(&gs.turn, MK_BLOCK_FIRE_ATTACK, 1)
        if i >= 0:
            v = gs.turn.mods[i].value
            mod_remove_at(&gs.turn, i)
            if v and not give_mod_arg(gs, p, MK_BLOCK_FIRE_ATTACK, MS_COMBAT, v, 2, MOD_ADD):
                return
        if mod_remove_kind(&gs.turn, MK_BLOCK_DESTROY) and arg >= 0 \
                and not colour_resisted(gs, st, arg, RED):         # 11.4.2: a red effect
            destroy(gs, st, arg)
    elif ev == EV_PHASE_START:
        if gs.phase == PH_COMBAT_ATTACK and gs.turn.n_mods:
            i = mod_find_arg(&gs.turn, MK_BLOCK_FIRE_ATTACK, 2)
            if i >= 0:
                gs.combat.attack[<int>MELEE][<int>FIRE] += gs.turn.mods[i].value
                mod_remove_at(&gs.turn, i)


for _ev in (EV_BLOCK_COMMITTED, EV_PHASE_START):
    if subscribe_event(_ev, spells_event) < 0:
        raise RuntimeError(f"_fx_spells: the subscription table of event {_ev} is full")
