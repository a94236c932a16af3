# cython: language_level=3
"""The effect interpreter (6.3): can an effect do something now (the timing table 6.3.3),
and its resolution, row by row, until it is done or a decision is needed.

A compiled module of its own (issue 12), declared in ``_effects.pxd``.  It sees the engine
only through ``_engine.pxd`` (the engine primitives it calls, through Cython's C API) and
hands its entry points to the engine when it is imported (``register_interpreter``): the
engine cannot cimport a module that cimports the engine.  See docs/engine.md "Effect
interpreter".
"""
from libc.stdint cimport int32_t, int16_t

from mksim._types cimport (GameState, Player, NIGHT, NUM_TERRAINS, MELEE, RANGED, SIEGE, PH_MOVE,
    PH_REST, PH_INTERACT, PH_COMBAT_RANGED, PH_COMBAT_BLOCK, PH_COMBAT_ATTACK, MS_TURN,
    MK_ATTACKS_SIEGE, MK_TERRAIN_DELTA, MK_TERRAIN_FLOOR)
from mksim._modifiers cimport mod_has, EV_CARD_PLAYED
from mksim._state cimport Statics
from mksim._combat cimport is_targetable, can_target_in_ranged
from mksim._engine cimport (
    EngineStatics, EffectContext, Interpreter, register_interpreter,
    OP_NOTHING, OP_CHOICE, OP_ALL, OP_BY_TIME, OP_MOVE, OP_INFLUENCE, OP_ATTACK, OP_BLOCK, OP_HEAL,
    OP_DRAW, OP_GAIN_MANA, OP_GAIN_CRYSTAL, OP_FAME, OP_REPUTATION, OP_TAKE_WOUND, OP_READY_UNIT,
    OP_HEAL_UNIT, OP_TERRAIN_COST, OP_ENEMY_ARMOR, OP_ENEMY_NO_ATTACK, OP_EXTRA_SOURCE_DIE, OP_HANDLER,
    RES_DONE, RES_CHOICE, RES_ERROR, ERR_HANDLER, ERR_UNIT_EFFECT, ERR_COMBAT, SKILL_CARD_BASE,
    COLOUR_ANY, MOD_ADD, MOD_MAX,
    erow, set_error, give_mod_arg, push_eval,
    # playability (node_playable)
    agility_move_usable, wings_move_usable, cumbersome_move_usable, movement_only_row, block_has_use,
    influence_elsewhere, units_need_influence, enemy_op_playable, unit_op_playable, handler_playable,
    # resolution (apply_op, run_effects)
    skill_op, move_bonus, card_bonus, draw_cards, gain_crystal, change_reputation, take_wounds,
    ambush_bonus, unit_combat_bonus, unit_banner_bonus, skill_pool_bonus, units_attack_bonus,
    enemy_op_apply, run_handler, unit_op, fire_event,
)


cdef bint combat_move_usable(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Move points have a use in this combat: Agility's conversion, Wings of Night's
    further targets or a Cumbersome attack to reduce in the Block phase (LL-9.7.2, 9.7.5:
    a card played sideways as Move in combat; LL-6.5.2)."""
    return gs.combat.active != 0 and (agility_move_usable(gs) or wings_move_usable(gs, es.st)
                                      or cumbersome_move_usable(gs, es.st))


cdef bint attack_has_target(const GameState* gs, const Statics* st, int kind) noexcept nogil:
    """Is there an enemy an Attack of this kind could be aimed at now?  Attack points are
    played only as part of an attack on a group of enemies (11.5.2, LL-9.4.2): in the
    Attack phase any enemy still in the combat; in the Ranged and Siege phase Ranged
    only on an unfortified enemy, Siege also on a fortified one, never on a doubly
    fortified one (11.5.3-11.5.4)."""
    cdef int s
    for s in range(gs.combat.n_enemies):
        if gs.phase == PH_COMBAT_ATTACK:
            if is_targetable(gs, s):
                return True
        elif can_target_in_ranged(gs, st, s, 0 if kind == RANGED else 1):
            return True
    return False


cdef inline bint cost_row(const EngineStatics* es, int row) noexcept nogil:
    """A part of an all(...) that only costs: a Wound taken, Reputation lost."""
    cdef const int32_t* r = erow(es, row)
    return r[0] == OP_TAKE_WOUND or (r[0] == OP_REPUTATION and r[1] < 0)


cdef bint node_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    """Can this effect do something in the current phase (timing table 6.3.3)?"""
    cdef const int32_t* r = erow(es, row)
    cdef int op = r[0], k
    cdef bint dropped, useful
    cdef int phase = gs.phase
    if op == OP_CHOICE:
        for k in range(r[5]):
            if node_playable(gs, es, r[4] + k):
                return True
        return False
    if op == OP_ALL:
        # every part must be usable now, so a card is never played for half its effect -
        # except a Move or Heal part in combat: it is simply not used there (Move gives
        # nothing outside its uses, 6.3.3 [R]; LL-9.7.2, 9.7.4, 9.7.9: Agility and Ambush in
        # combat; LL-9.7.13: Refreshing Walk gives only its Move points in combat), as long as
        # another part does something that is not a cost (a Wound, a Reputation loss)
        # A Heal, ready_unit or heal_unit part likewise may go unused at any time (no rule
        # asks every part to be usable; Regeneration's Heal 1 with no Unit to ready), and in
        # combat a movement-only part goes with the Move (terrain costs, exploring: Scouts'
        # Move 2 with Agility, LL-4.6.1, LL-9.7.10), never leaving only costs or nothing.
        # An Influence part too (LL-9.7.8: Endless Bag of Gold outside an interaction just
        # for its Fame; LL-9.3.1); its points are lost as the Action phase begins (LL-9.3.4).
        # In combat an enemy_armor / enemy_no_attack part with no enemy it can act on (11.4.2
        # colour against resistance, LL-6.7.1) is lost while another part still works; so is
        # an Attack part with no enemy to aim at yet (Sorcerers: the enemy loses its
        # fortification, then their Ranged Attack 3 has a target, 11.5.3).
        dropped = False
        useful = False
        for k in range(r[5]):
            op = erow(es, r[4] + k)[0]
            if node_playable(gs, es, r[4] + k):
                useful = useful or not cost_row(es, r[4] + k)
            elif op == OP_HEAL or op == OP_READY_UNIT or op == OP_HEAL_UNIT or op == OP_INFLUENCE \
                    or (gs.combat.active != 0 and (op == OP_MOVE or movement_only_row(es, r[4] + k)
                                                   or op == OP_ENEMY_ARMOR or op == OP_ENEMY_NO_ATTACK
                                                   or op == OP_ATTACK)):
                dropped = True
            else:
                return False
        return r[5] > 0 and (useful or not dropped)
    if op == OP_BY_TIME:
        return node_playable(gs, es, r[4] + (1 if gs.time == NIGHT else 0))
    if op == OP_MOVE:                                # 6.3.3, 9.3.2; in combat only with a use
        return phase == PH_MOVE or combat_move_usable(gs, es)   # Agility, Wings of Night, Cumbersome
    if op == OP_ATTACK:                              # 11.5.2: only Ranged/Siege before melee
        return (phase == PH_COMBAT_ATTACK or (phase == PH_COMBAT_RANGED and (r[3] != MELEE or mod_has(&gs.turn, MK_ATTACKS_SIEGE)))) \
            and attack_has_target(gs, es.st, r[3] if r[3] != MELEE else SIEGE)   # Altem Mages: melee as Siege
    if op == OP_BLOCK:                               # 11.6.3, with an attack left to block
        return phase == PH_COMBAT_BLOCK and block_has_use(gs, es.st)
    if op == OP_INFLUENCE:
        return phase == PH_INTERACT or influence_elsewhere(gs) \
            or units_need_influence(gs, es)   # 10.2.2; Diplomacy, Peaceful Moment; LL-4.3.4 (_engine_units.pxi)
    if op == OP_ENEMY_ARMOR or op == OP_ENEMY_NO_ATTACK:
        return enemy_op_playable(gs, es, row)        # 11.4.4: any phase of a combat (_fx_advanced)
    if op == OP_HEAL:                                # any time outside combat (12.4.1)
        return phase == PH_MOVE or phase == PH_REST or phase == PH_INTERACT
    if op == OP_TERRAIN_COST:                        # a movement effect (9.6.1)
        return phase == PH_MOVE
    if op == OP_READY_UNIT or op == OP_HEAL_UNIT:
        return unit_op_playable(gs, es, row)         # 7.3.4, 12.3.4 (_engine_units.pxi)
    if op == OP_NOTHING:
        return False
    if op == OP_HANDLER:
        return handler_playable(gs, es, row)
    # special effects: any time during the turn (6.3.3, 10.2.7), combat included; handlers
    # are offered and raise a named error when played
    return phase == PH_MOVE or phase == PH_REST or phase == PH_INTERACT or gs.combat.active != 0


cdef int apply_op(GameState* gs, const EngineStatics* es, const Statics* st, EffectContext ctx,
                  int row) noexcept nogil:
    """Apply one non-combinator effect row for ctx.actor; RES_ERROR sets gs.error."""
    cdef const int32_t* r = erow(es, row)
    cdef int p = ctx.actor
    cdef Player* pl = &gs.players[p]
    cdef int op = r[0], colour
    if gs.turn.resolving_card <= SKILL_CARD_BASE and (op == OP_MOVE or op == OP_ATTACK or op == OP_BLOCK):
        return skill_op(gs, r)          # a skill is no card: no card bonuses (_engine_skills.pxi)
    if op == OP_MOVE:
        gs.turn.move_points += r[1] + (move_bonus(gs) if gs.turn.resolving_card >= 0 else 0)
    elif op == OP_HEAL:
        if not gs.combat.active:                                # 12.4.1, LL-9.7.13: no Healing in combat
            gs.turn.healing += r[1]
    elif op == OP_INFLUENCE:
        gs.turn.influence += r[1] + card_bonus(gs)              # 10.2.2
    elif op == OP_DRAW:
        draw_cards(gs, pl, r[1])
    elif op == OP_GAIN_MANA:
        gs.turn.mana_tokens[r[1]] += r[2]                       # 5.3.1
    elif op == OP_GAIN_CRYSTAL:
        for _ in range(r[2]):
            gain_crystal(pl, gs, r[1])                          # 5.3.2
    elif op == OP_FAME:
        pl.fame += r[1]
    elif op == OP_REPUTATION:
        change_reputation(pl, r[1])                             # 10.4
    elif op == OP_TAKE_WOUND:
        take_wounds(gs, es, pl, r[1])
    elif op == OP_TERRAIN_COST:
        # 9.6.2: the terrain's cost (arg = it + 1; "all" = arg 0) changes by r[2] this turn,
        # a reduction stopping at the highest floor given (read by _rules.move_cost)
        colour = 0 if r[1] >= NUM_TERRAINS else r[1] + 1
        if r[2] != 0 and not give_mod_arg(gs, p, MK_TERRAIN_DELTA, MS_TURN, r[2], colour, MOD_ADD):
            return RES_ERROR
        if r[3] > 0 and not give_mod_arg(gs, p, MK_TERRAIN_FLOOR, MS_TURN, r[3], colour, MOD_MAX):
            return RES_ERROR
    elif op == OP_ATTACK:
        gs.combat.attack[r[3]][r[2]] += r[1] + ambush_bonus(gs, 0) + unit_combat_bonus(gs) \
            + unit_banner_bonus(gs, es, pl) + skill_pool_bonus(gs, op, r[3]) \
            + card_bonus(gs) + units_attack_bonus(gs)   # 11.5.2 / 11.8; Glory, Deadly Aim, Leadership, Shocktroops
    elif op == OP_BLOCK:
        gs.combat.block[r[2]] += r[1] + ambush_bonus(gs, 1) + unit_combat_bonus(gs) \
            + unit_banner_bonus(gs, es, pl) + skill_pool_bonus(gs, op, 0) \
            + card_bonus(gs)   # 11.6.3; Banner of Glory, Leadership
    elif op == OP_ENEMY_ARMOR or op == OP_ENEMY_NO_ATTACK:
        return enemy_op_apply(gs, es, st, p, row, -1)           # 11.4.4, LL-6.7 (_fx_advanced)
    elif op == OP_EXTRA_SOURCE_DIE:
        gs.turn.extra_dice += r[1]                              # 5.5.6
    elif op == OP_HANDLER:
        set_error(gs, ERR_HANDLER, r[1], gs.turn.resolving_card)
        return RES_ERROR
    elif op == OP_READY_UNIT or op == OP_HEAL_UNIT:
        set_error(gs, ERR_UNIT_EFFECT, op, gs.turn.resolving_card)
        return RES_ERROR
    elif op == OP_NOTHING:
        return RES_DONE                                         # nothing(): no effect (6.1.6)
    else:
        set_error(gs, ERR_COMBAT, op, gs.turn.resolving_card)  # influence / attack / block ...
        return RES_ERROR
    return RES_DONE


cdef int run_effects(GameState* gs, const EngineStatics* es, const Statics* st, EffectContext ctx) noexcept nogil:
    """Resolve the pending effect rows (the eval stack) of ctx.actor's effect until done or a
    choice needs a decision (RES_CHOICE: the seat asked is gs.current)."""
    cdef const int32_t* r
    cdef int row, k, op, res, card
    while gs.turn.n_eval > 0:
        gs.turn.n_eval -= 1
        row = gs.turn.eval_stack[gs.turn.n_eval]
        r = erow(es, row)
        op = r[0]
        if op == OP_ALL:
            for k in range(r[5] - 1, -1, -1):
                if push_eval(gs, r[4] + k) != RES_DONE:
                    return RES_ERROR
        elif op == OP_BY_TIME:
            if push_eval(gs, r[4] + (1 if gs.time == NIGHT else 0)) != RES_DONE:
                return RES_ERROR
        elif op == OP_HANDLER:
            res = run_handler(gs, es, st, ctx.actor, row, -1)
            ctx.asked = gs.current                     # a handler may have asked another seat
            if res != RES_DONE:
                return res
        elif op == OP_READY_UNIT or op == OP_HEAL_UNIT:         # a unit to pick (_engine_units.pxi)
            res = unit_op(gs, es, st, ctx.actor, row, -1)
            if res != RES_DONE:
                return res
        elif op == OP_CHOICE or ((op == OP_GAIN_MANA or op == OP_GAIN_CRYSTAL) and r[1] >= COLOUR_ANY):
            gs.turn.pending_choice = <int16_t>row              # the player decides (A_CHOOSE)
            return RES_CHOICE
        else:
            res = apply_op(gs, es, st, ctx, row)
            if res != RES_DONE:
                return res                                 # RES_CHOICE: an enemy target (ASK_ENEMY)
    card = gs.turn.resolving_card
    gs.turn.resolving_card = -1
    gs.turn.overload_bonus = 0         # Mana Overload: not given, the skill stays in the centre
    if card >= 0:                      # a Deed card's effect has resolved (6.1): Concentration's
        fire_event(gs, es, st, ctx.actor, EV_CARD_PLAYED, card)      # bonus ends (MK_CARD_BONUS, next card)
    return RES_DONE


# The engine calls the interpreter through this table (it cannot cimport this module).
cdef Interpreter _entry_points
_entry_points.node_playable = node_playable
_entry_points.run_effects = run_effects
_entry_points.combat_move_usable = combat_move_usable
register_interpreter(&_entry_points)
