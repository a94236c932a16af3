# cython: language_level=3
"""Named effect handlers of the Artifact cards (artifacts.toml): a handler group compiled as
a module of its own (ext/_fx_artifacts.pxd is its header).

Each handler is a run function (the protocol of "Handler protocol", ext/_engine.pyx), a
playable function and, when it asks a question, a pending function (its bounds,
pending_check).  ARTIFACTS, at the end, is the group's registry: one entry per handler with
its name and declared argument names; importing the module registers it with the engine
(register_handler_group).  The content's keyword arguments must match the declared names.

Rules: 6.1.5 (basic effect, or thrown away for the strong one: done by A_PLAY), 6.2.1-6.2.2
(costs), 7.5 (Banners: the basic effect assigns the card to a Unit).  What the turn flow
calls (the Banners' actions, the combat hooks, the Circlet's A_CIRCLET_SKILL) stays in the
engine: ext/_engine_artifacts.pxi.
"""
from libc.stdint cimport int16_t, int8_t, uint8_t, uint32_t, uint64_t, int32_t

from mksim._types cimport (GameState, Player, Unit, MAX_UNITS as MAX_UNITS_, CE_DEFEATED, CE_GONE, CE_NO_ATTACK,
                           RED, GOLD, BLACK, DAY, NIGHT, FOREST, DESERT, MELEE, RANGED, SIEGE, PHYSICAL,
                           PH_MOVE, PH_REST, PH_INTERACT, PH_COMBAT_RANGED, PH_COMBAT_BLOCK, PH_COMBAT_ATTACK,
                           DECK_BASIC, DECK_AA, COLOURLESS,
                           MAX_DISCARD_CARDS, MAX_HAND_CARDS, MAX_SKILLS)
from mksim._types cimport MK_IGNORE_WOUNDS, MK_NO_UNIT_DAMAGE, MK_NO_SOURCE_DICE, MK_NO_RECRUIT, MK_MANA_ANYTIME, MK_ENDLESS_MANA, MK_DICE_ANY_BASIC, MK_CRYSTAL_RETURN, MK_SPACE_BENDING, MK_PROTECTION, MK_INFLUENCE_BLOCK, MK_REVEAL_DISTANCE, MK_EXPLORE_RANGE, MK_DRAW_PER_HEAL, MK_CURE, MK_ATTACKS_COLDFIRE, MK_ATTACKS_SIEGE, MK_SWORD_FAME, MK_DODGE_ATTACK  # turn / combat-long kinds (issue 12)
from mksim._modifiers cimport mod_take, mod_find, mod_has, mod_sum, mod_remove_kind, mod_find_arg, mod_sum_arg, mod_has_arg  # (issue 12)
from mksim._types cimport MS_TURN, MS_COMBAT
from mksim._engine cimport give_mod, give_mod_arg, MOD_ONCE, MOD_ADD, MOD_MAX, MOD_SET
from mksim._types cimport MK_UNIT_GLORY, MK_OTHER_UNITS_ATTACK, MK_SWORD_DOUBLE, MK_BOW_POWERED, MK_LEARNING, MK_CHIVALRY  # third move (issue 12)
from mksim._state cimport Statics
from mksim._types cimport MK_PHASE_DEFEAT_FAME, MS_PHASE
from mksim._types cimport MK_TERRAIN_DELTA  # the Amulets' terrain costs (9.6.2)
from mksim._modifiers cimport mod_sum, EV_PHASE_END, EV_PHASE_START, EV_COMBAT_END
from mksim._engine cimport give_mod, subscribe_event, MOD_ADD
from mksim._engine cimport (
    EngineStatics, HandlerEntry, handler_run_t, handler_playable_t, handler_pending_t, PendingCheck,
    register_handler_group, HG_ARTIFACTS,
    RES_DONE, RES_ERROR, ERR_INTERNAL, INTERNAL_NO_OPTION, ERR_HANDLER, ERR_CAPACITY, ASK_DONE, ASK_HAND_CARD, ASK_COLOUR,
    ASK_OFFER, ASK_NUMBER, ASK_ENEMY, ASK_UNIT, PF_STAGE,
    erow, card_deck, set_error, remove_at, row_args, ask, pc_bad, pc_stage, pc_hvar, pc_asks, pc_n_enemies,
    push_card, gain_crystal, push_eval, lift_self, put_back, refill_offer, take_wounds,
    card_colour, night_mana, special_now, outside_combat_now, NO_ARG, unit_healed,
    BF_GLORY, BF_FEAR, BF_FIRE_ICE, BF_COURAGE, BF_FORTITUDE, BF_COMMAND,
    remove_commanded_unit, soul_process, circlet_skill_now, circlet_use,
    defeated_mask,
    enemy_effect_targets, enemy_op_playable, resolving_colour,   # _engine_advanced.pxi
    skill_entry,                                          # _engine_skills.pxi
    count_gained,                                         # results store (Book of Wisdom)
)
from mksim._effects cimport node_playable                       # the interpreter (ext/_effects.pxd)
from mksim._rng cimport rng_below, STREAM_REWARDS
from mksim._fx_spells cimport non_wound_hand, travel, travel_playable, pc_travel   # Druidic Staff, Sword / Bow

cdef enum:
    SKU_ONCE_PER_TURN = 0      # skills.toml usage code (the SkillUsage enum of ext/_fx_skills.pxi)


cdef enum:
    NIGHT_FOREST_COST = 5      # 9.2
    DAY_DESERT_COST = 5        # 9.2


cdef bint offer_has_colour(const int16_t* offer, const EngineStatics* es, int colour) noexcept nogil:
    cdef int k
    for k in range(3):
        if offer[k] >= 0 and card_colour(es, offer[k]) == colour:
            return True
    return False


cdef uint64_t book_cards(const GameState* gs, const EngineStatics* es, int spell) noexcept nogil:
    """Book of Wisdom: Action cards in hand (hand index) whose colour has a card in the
    AA (spell=0) or Spell (spell=1) offer."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i, card, deck
    cdef const int16_t* offer = &gs.aa_offer[0]
    if spell:
        offer = &gs.spell_offer[0]
    for i in range(pl.n_hand):
        card = pl.hand[i]
        deck = card_deck(es, card)
        if i < ASK_DONE and (deck == DECK_BASIC or deck == DECK_AA) and card_colour(es, card) < COLOURLESS \
                and offer_has_colour(offer, es, card_colour(es, card)):
            o |= (<uint64_t>1) << i
    return o


cdef int tome_row(const GameState* gs, const EngineStatics* es, int spell, int powered) noexcept nogil:
    return es.card_powered[spell * es.card_stride] if powered else es.card_basic[spell * es.card_stride]


cdef uint64_t tome_slots(const GameState* gs, const EngineStatics* es, int colour, int powered) noexcept nogil:
    """Spell offer slots of `colour` whose effect can be used now, checked as an effect of
    that colour (LL-9.6.3; resolving_colour)."""
    cdef uint64_t o = 0
    cdef int k
    cdef GameState* g = <GameState*>gs       # the colour is set for the check and restored
    cdef int8_t was_colour = gs.turn.fx_colour
    cdef int16_t was_by = gs.turn.fx_colour_by
    g.turn.fx_colour = <int8_t>(colour + 1)
    g.turn.fx_colour_by = gs.turn.resolving_card
    for k in range(3):
        if gs.spell_offer[k] >= 0 and card_colour(es, gs.spell_offer[k]) == colour \
                and node_playable(gs, es, tome_row(gs, es, gs.spell_offer[k], powered)):
            o |= (<uint64_t>1) << k
    g.turn.fx_colour = was_colour
    g.turn.fx_colour_by = was_by
    return o


cdef uint64_t tome_cards(const GameState* gs, const EngineStatics* es, int powered) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i, c
    for i in range(pl.n_hand):
        if i < ASK_DONE and pl.hand[i] != es.wound:
            c = card_colour(es, pl.hand[i])
            if c < COLOURLESS and tome_slots(gs, es, c, powered) != 0:
                o |= (<uint64_t>1) << i
    return o


cdef uint64_t by_colour_cards(const GameState* gs, const EngineStatics* es, const int32_t* a) noexcept nogil:
    """Druidic Staff: non-Wound hand cards of a basic colour whose option can be used now."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i, c
    for i in range(pl.n_hand):
        if i < ASK_DONE and pl.hand[i] != es.wound:
            c = card_colour(es, pl.hand[i])
            if c < COLOURLESS and a[c] != NO_ARG and node_playable(gs, es, a[c]):
                o |= (<uint64_t>1) << i
    return o


# ---------------------------------------------------------------------------------------
# Banners (7.5).  Playing a Banner for its basic effect assigns it to a Unit (7.5.1): the card
# leaves the play area for Unit.banner, and Player.banner_fx[slot] records what it does
# there (BF_* bits; the numbers come from the card's handler arguments).  A Banner replaced
# by another, or on a Unit destroyed / disbanded, goes to the discard pile (7.5.2: here,
# disband() in _engine_units.pxi and Paralyze in _combat.assign_to_unit).  Round
# preparation flips every Banner back up and lets the player take Banners back into the
# Deed deck before it is shuffled (2.2.8, 7.5.3: banner_prep, A_BANNER_RETURN).
# ---------------------------------------------------------------------------------------


cdef uint64_t banner_targets(const Player* pl) noexcept nogil:
    cdef uint64_t o = 0
    cdef int i
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0:
            o |= (<uint64_t>1) << i
    return o


cdef int banner_attach(GameState* gs, const EngineStatics* es, int p, int row, int kind,
                       int choice) noexcept nogil:
    """7.5.1: put the Banner being played under one of the player's Units (ASK_UNIT when
    there are several); a Banner already there goes to the discard pile (7.5.2).  `kind`:
    the BannerFx bit of what it does there."""
    cdef Player* pl = &gs.players[p]
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t mask = banner_targets(pl)
    cdef int i, slot = -1, count = 0, card = gs.turn.resolving_card, fx = 0
    cdef Unit* u
    if choice < 0:
        for i in range(MAX_UNITS_):
            if (mask >> i) & 1:
                count += 1
                slot = i
        if count == 0 or card < 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, card)
            return RES_ERROR
        if count > 1:
            return ask(gs, row, 0, ASK_UNIT, mask)
    else:
        slot = choice
    count = -1
    for i in range(pl.n_play - 1, -1, -1):              # out of the play area (6.1.2)
        if pl.play_area[i] == card:
            count = i
            break
    if count < 0 or slot < 0 or slot >= MAX_UNITS_ or pl.units[slot].card < 0:
        set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, card)
        return RES_ERROR
    remove_at(pl.play_area, &pl.n_play, count)
    u = &pl.units[slot]
    if u.banner >= 0:
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, u.banner)  # 7.5.2: the old Banner
        if pl.banner_fx[slot] & BF_COMMAND:
            remove_commanded_unit(pl, slot)              # LL-5.1: the Unit leaves the game,
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)   # and this Banner with it (7.5.2)
            return RES_DONE
    if kind == BF_GLORY:
        fx = (a[0] if a[0] < 3 else 3) | BF_GLORY
    elif kind == BF_FEAR:
        fx = BF_FEAR
    elif kind == BF_FIRE_ICE:
        fx = (a[0] if a[0] < 3 else 3) | BF_FIRE_ICE
    elif kind == BF_COURAGE:
        fx = BF_COURAGE
    elif kind == BF_FORTITUDE:
        fx = BF_FORTITUDE
    u.banner = <int16_t>card
    pl.banner_fx[slot] = <uint8_t>fx
    pl.banner_flipped &= <uint8_t>~(1 << slot)          # a newly assigned Banner is face up
    return RES_DONE


cdef uint64_t circlet_offer_slots(const GameState* gs, const EngineStatics* es) noexcept nogil:
    cdef uint64_t o = 0
    cdef int k
    for k in range(gs.n_skill_offer):
        if k < 64 and circlet_skill_now(gs, es, gs.skill_offer[k]):
            o |= (<uint64_t>1) << k
    return o


cdef int live_enemies(const GameState* gs) noexcept nogil:
    """Enemies still in the combat (not defeated, not gone)."""
    cdef int i, n = 0
    for i in range(gs.combat.n_enemies):
        if gs.combat.enemies[i].token >= 0 and not (gs.combat.enemies[i].flags & (CE_DEFEATED | CE_GONE)):
            n += 1
    return n




cdef bint special_now_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs)


cdef bint golden_grail_draw_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return outside_combat_now(gs)                            # with its Heal (12.4.1)


cdef bint horn_of_wrath_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK   # Siege: 11.5.2, 11.8


cdef bint golden_grail_heal_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return outside_combat_now(gs)                            # Healing: 12.4.1


cdef bint skip_block_and_damage_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # before the Block phase is over (11.3); the base Wings of Night also needs as many
    # Move points as enemies (move_per_enemy each)
    return (gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_BLOCK) \
        and live_enemies(gs) > 0 and gs.turn.move_points >= a[0] * live_enemies(gs)


cdef bint enemies_no_attack_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return enemy_op_playable(gs, es, row)


cdef bint sword_of_justice_discard_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_ATTACK                      # melee Attack: 11.8


cdef bint bow_of_starsdawn_discard_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK


cdef bint all_units_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return outside_combat_now(gs) if a[0] else special_now(gs)


cdef bint circlet_use_offer_skill_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int lifted
    cdef bint ok
    # the borrowed skill is checked as it will resolve: the Circlet out of the hand (a
    # skill that needs a card in hand could otherwise count the Circlet; found by fuzz.py)
    lifted = lift_self(<GameState*>gs, es, row)
    ok = circlet_offer_slots(gs, es) != 0
    put_back(<GameState*>gs, lifted)
    return ok


cdef bint circlet_gain_offer_skill_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs) and gs.n_skill_offer > 0


cdef bint in_combat_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.combat.active != 0                             # effects on this turn's attacks


cdef bint soul_harvester_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_ATTACK                      # Attack: 11.8


cdef bint split_block_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_BLOCK                       # Block: 11.6


cdef bint banner_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    return special_now(gs) and banner_targets(pl) != 0       # 7.5.1: a Unit to assign it to


cdef bint druidic_staff_move_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return travel_playable(gs, a[0], 0)


cdef bint discard_by_colour_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return by_colour_cards(gs, es, a) != 0


cdef bint book_of_wisdom_gain_aa_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs) and book_cards(gs, es, 0) != 0


cdef bint book_of_wisdom_gain_spell_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_now(gs) and book_cards(gs, es, 1) != 0


cdef bint tome_of_all_spells_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return tome_cards(gs, es, a[0]) != 0


cdef int random_crystals(GameState* gs, const EngineStatics* es, const Statics* st,
                         int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int k, die
    # Endless Gem Pouch: roll a mana die n times (5.2.2): a crystal of each basic colour
    # rolled (5.3.2), a crystal of a chosen basic colour for gold, Fame +1 for black (as
    # the random-crystal reward, 5.7).  hvars[0] = gold rolls still to choose for.
    if choice < 0:
        gs.turn.hvars[0] = 0
        for k in range(a[0]):
            die = <int>rng_below(&gs.rng[<int>STREAM_REWARDS], 6)
            if die == GOLD:
                gs.turn.hvars[0] += 1
            elif die == BLACK:
                pl.fame += 1
            else:
                gain_crystal(pl, gs, die)
    else:
        gain_crystal(pl, gs, choice)
        gs.turn.hvars[0] -= 1
    if gs.turn.hvars[0] > 0:
        return ask(gs, row, 0, ASK_COLOUR, 0xF)
    return RES_DONE


cdef int endless_mana(GameState* gs, const EngineStatics* es, const Statics* st,
                      int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int c
    # Rings (thrown away): endless mana of `colour` and black this turn (black still only
    # where usable, 5.1.6); Fame +fame_per_spell per Spell of that colour in the play
    # area at the end of the turn (rings_fame).
    if not give_mod_arg(gs, p, MK_ENDLESS_MANA, MS_TURN, 1, a[0] + 1, MOD_ONCE) \
            or not give_mod_arg(gs, p, MK_ENDLESS_MANA, MS_TURN, 1, BLACK + 1, MOD_ONCE):
        return RES_ERROR
    c = ((gs.turn.ring_fame >> (2 * a[0])) & 3) + a[1]
    if c > 3:
        c = 3
    gs.turn.ring_fame = <uint8_t>((gs.turn.ring_fame & ~(3 << (2 * a[0]))) | (c << (2 * a[0])))
    return RES_DONE


cdef int golden_grail_draw(GameState* gs, const EngineStatics* es, const Statics* st,
                           int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int card
    # Draw per_wound card(s) each time a Wound is healed from hand this turn (A_HEAL_WOUND).
    if a[0] > 0 and not give_mod(gs, p, MK_DRAW_PER_HEAL, MS_TURN, a[0], MOD_ADD):
        return RES_ERROR
    return RES_DONE


cdef int horn_of_wrath(GameState* gs, const EngineStatics* es, const Statics* st,
                       int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int c, k, die
    # Siege Attack `siege` + k (0 <= k <= max_extra, ASK_NUMBER, declared before rolling),
    # then roll a mana die `rolls` times plus once per +1 (5.2.2): a Wound to hand
    # (12.1.1) for each black or red (both printings; LL-2.10.9 lowered the numbers).
    if choice < 0 and a[1] > 0:
        k = a[1] if a[1] < ASK_DONE - 1 else ASK_DONE - 1
        return ask(gs, row, 0, ASK_NUMBER, ((<uint64_t>1) << (k + 1)) - 1)
    if choice < 0:
        choice = 0
    gs.combat.attack[<int>SIEGE][<int>PHYSICAL] += a[0] + choice
    c = 0
    for k in range(a[2] + choice):
        die = <int>rng_below(&gs.rng[<int>STREAM_REWARDS], 6)
        if die == BLACK or die == RED:
            c += 1
    take_wounds(gs, es, pl, c)
    return RES_DONE


cdef int golden_grail_heal(GameState* gs, const EngineStatics* es, const Statics* st,
                           int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Golden Grail basic: Heal `heal`; Fame +1 for each of these Healing points spent
    # this turn (grail_spent; engine reading: the Grail's points are spent first, as a
    # player would).  Unspent, they vanish with the other Healing points (12.4.2).
    gs.turn.healing = <int16_t>(gs.turn.healing + a[0])
    gs.turn.grail_fame = <int8_t>(gs.turn.grail_fame + a[0])
    return RES_DONE


cdef int skip_block_and_damage(GameState* gs, const EngineStatics* es, const Statics* st,
                               int p, int row, int choice) noexcept nogil:
    cdef int i
    # base Banner of Fear powered / base Wings of Night: skip the Block and Assign Damage
    # phases of this combat - no enemy attacks, Arcane Immunity or not (it is not an
    # effect on an enemy).  The Lost Legion removed this effect (LL-2.10.3).
    for i in range(gs.combat.n_enemies):
        if gs.combat.enemies[i].token >= 0 and not (gs.combat.enemies[i].flags & (CE_DEFEATED | CE_GONE)):
            gs.combat.enemies[i].flags |= CE_NO_ATTACK
    return RES_DONE


cdef int enemies_no_attack(GameState* gs, const EngineStatics* es, const Statics* st,
                           int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int i
    # Banner of Fear powered (Lost Legion): up to n enemies do not attack this combat
    # (LL-6.1.4), not those with Arcane Immunity (LL-6.7).  hvars[0] = picks left.
    if choice < 0:
        gs.turn.hvars[0] = <int16_t>a[0]
    elif choice == ASK_DONE:
        return RES_DONE
    else:
        gs.combat.enemies[choice].flags |= CE_NO_ATTACK
        gs.turn.hvars[0] -= 1
    if gs.turn.hvars[0] <= 0:
        return RES_DONE
    options = 0
    for i in range(gs.combat.n_enemies):
        if ((enemy_effect_targets(gs, st, resolving_colour(gs, es)) >> i) & 1) \
                and not (gs.combat.enemies[i].flags & CE_NO_ATTACK):
            options |= (<uint64_t>1) << i
    if options == 0:
        return RES_DONE
    return ask(gs, row, 0, ASK_ENEMY, options | ((<uint64_t>1) << ASK_DONE))


cdef int discard_for_attack(GameState* gs, const EngineStatics* es, const Statics* st,
                            int p, int row, int choice, bint sword) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int card
    # Sword of Justice / Bow of Starsdawn: discard any number of non-Wound cards (6.2.2;
    # ASK_HAND_CARD, ASK_DONE stops): physical Attack / Ranged Attack per card.  Fame per
    # enemy defeated: this combat (Sword, at its end) or this combat phase (Bow, at its
    # end) - see artifacts_event.
    if choice < 0:
        if sword:
            if a[1] > 0 and not give_mod(gs, p, MK_SWORD_FAME, MS_COMBAT, a[1], MOD_ADD):
                return RES_ERROR
        else:
            # phase-long: the Fame is counted when this combat phase ends (artifacts_event)
            if not give_mod(gs, p, MK_PHASE_DEFEAT_FAME, MS_PHASE, a[1], MOD_ADD):
                return RES_ERROR
            if gs.phase == PH_COMBAT_RANGED:
                gs.turn.phase_defeated = 0                  # the first phase (11.3.2)
    elif choice == ASK_DONE:
        return RES_DONE
    else:
        card = pl.hand[choice]
        remove_at(pl.hand, &pl.n_hand, choice)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        if sword:
            gs.combat.attack[<int>MELEE][<int>PHYSICAL] += a[0]
        else:
            gs.combat.attack[<int>RANGED][<int>PHYSICAL] += a[0]
    options = non_wound_hand(gs, es)
    if options == 0:
        return RES_DONE
    return ask(gs, row, 0, ASK_HAND_CARD, options | ((<uint64_t>1) << ASK_DONE))


cdef int sword_of_justice_discard(GameState* gs, const EngineStatics* es, const Statics* st,
                                  int p, int row, int choice) noexcept nogil:
    return discard_for_attack(gs, es, st, p, row, choice, True)


cdef int bow_of_starsdawn_discard(GameState* gs, const EngineStatics* es, const Statics* st,
                                  int p, int row, int choice) noexcept nogil:
    return discard_for_attack(gs, es, st, p, row, choice, False)


cdef int amulet_of_the_sun_night(GameState* gs, const EngineStatics* es, const Statics* st,
                                 int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # At Night: gold mana usable (5.1.5 lifted) and forests cost forest_cost (9.2, 9.6).
    # [R] Garrison visibility (9.10.1) is information only; the engine keeps no
    # adjacency reveal by Day either.
    # [R] In a dungeon / tomb combat by Day Night mana rules apply (5.6.1): played there
    # it lifts the gold ban too; forest costs only change in a Night round (5.6.1).
    if night_mana(gs) and not give_mod_arg(gs, p, MK_MANA_ANYTIME, MS_TURN, 1, GOLD + 1, MOD_ONCE):
        return RES_ERROR
    if gs.time == NIGHT and a[0] != NIGHT_FOREST_COST and not give_mod_arg(
            gs, p, MK_TERRAIN_DELTA, MS_TURN, a[0] - NIGHT_FOREST_COST, <int>FOREST + 1, MOD_ADD):
        return RES_ERROR                                      # 9.6.2, read by _rules.move_cost
    return RES_DONE


cdef int amulet_of_darkness_day(GameState* gs, const EngineStatics* es, const Statics* st,
                                int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # By Day: black mana usable as at Night (5.1.6, 5.4.3) and deserts cost desert_cost.
    if gs.time == DAY:
        if not give_mod_arg(gs, p, MK_MANA_ANYTIME, MS_TURN, 1, BLACK + 1, MOD_ONCE):
            return RES_ERROR
        if a[0] != DAY_DESERT_COST and not give_mod_arg(
                gs, p, MK_TERRAIN_DELTA, MS_TURN, a[0] - DAY_DESERT_COST, <int>DESERT + 1, MOD_ADD):
            return RES_ERROR                                  # 9.6.2, read by _rules.move_cost
    return RES_DONE


cdef int ready_all_units(GameState* gs, const EngineStatics* es, const Statics* st,
                         int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef int i, card
    for i in range(MAX_UNITS_):                               # 7.2.2
        if pl.units[i].card >= 0:
            pl.units[i].ready = 1
    return RES_DONE


cdef int heal_all_units(GameState* gs, const EngineStatics* es, const Statics* st,
                        int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef int i, card
    for i in range(MAX_UNITS_):                               # 12.3.4: healed completely
        if pl.units[i].card >= 0 and pl.units[i].wounds > 0:
            pl.units[i].wounds = 0
            unit_healed(gs, p, i)
    return RES_DONE


cdef int banner_of_glory_all_units(GameState* gs, const EngineStatics* es, const Statics* st,
                                   int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int k
    # Banner of Glory powered (7.5.1, card text): this turn every Unit has Armor + armor and
    # + bonus to its Attacks and Blocks; Fame + fame for each Unit that attacks or blocks.
    # One turn-long MK_UNIT_GLORY entry per part (arg 1 Armor, 2 Attack / Block, 3 Fame);
    # a second powered Banner this turn sets the same numbers (MOD_SET), as the fields did.
    for k in range(3):
        if a[k] != 0 and not give_mod_arg(gs, p, MK_UNIT_GLORY, MS_TURN, a[k], k + 1, MOD_SET):
            return RES_ERROR
    return RES_DONE


cdef int throw_away_hand_wounds_end_of_turn(GameState* gs, const EngineStatics* es, const Statics* st,
                                            int p, int row, int choice) noexcept nogil:
    # Banner of Protection powered (published text): at the end of this turn throw away
    # the Wounds received this turn (protection_end_of_turn).
    if not give_mod(gs, p, MK_PROTECTION, MS_TURN, 1, MOD_ONCE):
        return RES_ERROR
    return RES_DONE


cdef int sword_of_justice_powered(GameState* gs, const EngineStatics* es, const Statics* st,
                                  int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Sword of Justice powered: physical Attacks doubled in the Attack phase, enemies
    # without physical resistance this turn (_combat.attack_value; MK_SWORD_DOUBLE, turn-long,
    # the greater multiplier counts as the field's max did); Fame per enemy
    # defeated, counted at the end of the combat like the basic effect (artifacts_event).
    if a[0] > 0 and not give_mod(gs, p, MK_SWORD_DOUBLE, MS_TURN, a[0], MOD_MAX):
        return RES_ERROR
    if a[1] > 0 and not give_mod(gs, p, MK_SWORD_FAME, MS_COMBAT, a[1], MOD_ADD):
        return RES_ERROR
    return RES_DONE


cdef int soul_harvester(GameState* gs, const EngineStatics* es, const Statics* st,
                        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    # Soul Harvester: Attack `attack`; target=one: a crystal for one enemy the attack it
    # joins defeats; target=all: a crystal for each enemy defeated in this phase (those
    # defeated before it was played included).  Stage 1: a colour (ASK_COLOUR) for the
    # enemy hvars[0] (-1: the "one" enemy).  artifacts_after_attack does the counting.
    if choice < 0:
        gs.combat.attack[<int>MELEE][<int>PHYSICAL] += a[0]
        gs.turn.soul_row = <int16_t>(row + 1)
        if a[1] == 0:
            gs.turn.soul_one = 1
            return RES_DONE
        gs.turn.soul_all = 1
        gs.turn.soul_slots |= defeated_mask(gs) & ~gs.turn.phase_defeated
        return soul_process(gs, st, pl)
    gain_crystal(pl, gs, choice)
    if gs.turn.hvars[0] >= 0:
        gs.turn.soul_slots &= ~((<uint32_t>1) << gs.turn.hvars[0])
    return soul_process(gs, st, pl)


cdef int split_block(GameState* gs, const EngineStatics* es, const Statics* st,
                     int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Shield of the Fallen Kings: up to `count` separate Blocks of `n` against different
    # attacks: the first joins the pool now, each next one after a successful block
    # (artifacts_after_block); those not used when the phase ends are lost (11.4.5).
    gs.combat.block[a[2]] += a[0]
    gs.turn.split_left = <int8_t>(a[1] - 1)
    gs.turn.split_n = <int8_t>a[0]
    gs.turn.split_el = <int8_t>a[2]
    return RES_DONE


cdef int bow_of_starsdawn_powered(GameState* gs, const EngineStatics* es, const Statics* st,
                                  int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Bow of Starsdawn powered: the change of each Ranged / Siege Attack is the player's
    # action A_BOW_CHANGE (legal_bow_changes) while its points are in the pool; this turn
    # (MK_BOW_POWERED, value = the multiplier; a second one sets it, as the field was set).
    if a[0] > 0 and not give_mod(gs, p, MK_BOW_POWERED, MS_TURN, a[0], MOD_SET):
        return RES_ERROR
    return RES_DONE


cdef int circlet_use_offer_skill(GameState* gs, const EngineStatics* es, const Statics* st,
                                 int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int k
    # Circlet of Proficiency: use a non-interactive skill of the common offer as one's
    # own this turn, once_per_turn_uses times if it is a once-a-turn skill (else once).
    # The first use resolves now; later ones are A_CIRCLET_SKILL (legal_circlet).
    if choice < 0:
        options = circlet_offer_slots(gs, es)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_OFFER, options)
    k = gs.skill_offer[choice]
    gs.turn.circlet_skill = <int8_t>(k + 1)
    gs.turn.circlet_uses = <int8_t>(a[0] if skill_entry(es, k)[1] == SKU_ONCE_PER_TURN else 1)
    return circlet_use(gs, es, k)


cdef int circlet_gain_offer_skill(GameState* gs, const EngineStatics* es, const Statics* st,
                                  int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i, k
    # Circlet of Proficiency powered: take a skill of the common offer for good, as if
    # gained by levelling up (13.6.4): in a solo game a dummy skill joins the offer
    # (18.3.1).
    if choice < 0:
        if gs.n_skill_offer <= 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        options = ((<uint64_t>1) << gs.n_skill_offer) - 1 if gs.n_skill_offer < 64 else ~(<uint64_t>0)
        return ask(gs, row, 0, ASK_OFFER, options)
    for i in range(MAX_SKILLS):
        if pl.skills[i] < 0:
            break
    else:
        set_error(gs, ERR_CAPACITY, 5, gs.turn.resolving_card)
        return RES_ERROR
    pl.skills[i] = gs.skill_offer[choice]
    for k in range(choice, gs.n_skill_offer - 1):
        gs.skill_offer[k] = gs.skill_offer[k + 1]
    gs.n_skill_offer -= 1
    if gs.has_dummy and gs.dummy.n_skill_stack > 0:         # 18.3.1
        gs.dummy.n_skill_stack -= 1
        gs.skill_offer[gs.n_skill_offer] = gs.dummy.skill_stack[gs.dummy.n_skill_stack]
        gs.n_skill_offer += 1
    return RES_DONE


cdef int banner_of_command_attach(GameState* gs, const EngineStatics* es, const Statics* st,
                                  int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Banner of Command: a Unit recruited this turn (before or after playing it) may get
    # the Banner instead of a Command token (A_BANNER_COMMAND; at the Command limit,
    # A_RECRUIT without a disband attaches it, _engine_units.pxi).  LL-5.1.
    gs.turn.command_card = <int16_t>(gs.turn.resolving_card + 1)
    return RES_DONE


cdef int banner_of_glory_attached(GameState* gs, const EngineStatics* es, const Statics* st,
                                  int p, int row, int choice) noexcept nogil:
    return banner_attach(gs, es, p, row, BF_GLORY, choice)     # 7.5.1


cdef int banner_of_fear_attached(GameState* gs, const EngineStatics* es, const Statics* st,
                                 int p, int row, int choice) noexcept nogil:
    return banner_attach(gs, es, p, row, BF_FEAR, choice)     # 7.5.1


cdef int banner_of_protection_attached(GameState* gs, const EngineStatics* es, const Statics* st,
                                       int p, int row, int choice) noexcept nogil:
    return banner_attach(gs, es, p, row, BF_FIRE_ICE, choice)     # 7.5.1


cdef int banner_of_courage_attached(GameState* gs, const EngineStatics* es, const Statics* st,
                                    int p, int row, int choice) noexcept nogil:
    return banner_attach(gs, es, p, row, BF_COURAGE, choice)     # 7.5.1


cdef int banner_of_fortitude_attached(GameState* gs, const EngineStatics* es, const Statics* st,
                                      int p, int row, int choice) noexcept nogil:
    return banner_attach(gs, es, p, row, BF_FORTITUDE, choice)     # 7.5.1


cdef int druidic_staff_move(GameState* gs, const EngineStatics* es, const Statics* st,
                            int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return travel(gs, st, p, row, choice, a[0], 0)


cdef int discard_by_colour(GameState* gs, const EngineStatics* es, const Statics* st,
                           int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int card
    # Druidic Staff: discard a non-Wound card of a basic colour (6.2.2); its colour picks
    # the effect (ASK_HAND_CARD).
    if choice < 0:
        options = by_colour_cards(gs, es, a)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, options)
    card = pl.hand[choice]
    remove_at(pl.hand, &pl.n_hand, choice)
    push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
    return push_eval(gs, a[card_colour(es, card)])


cdef int book_of_wisdom(GameState* gs, const EngineStatics* es, const Statics* st,
                        int p, int row, int choice, int spell) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i, c, k, card
    # Book of Wisdom: throw away an Action card (6.5), take a card of its colour from the
    # AA (basic) / Spell (powered, + `crystals` crystals of it) offer into hand; the
    # offer refills (6.4.2).  Stage 0: the card (ASK_HAND_CARD); 1: the slot (ASK_OFFER).
    if choice < 0:
        options = book_cards(gs, es, spell)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, options)
    if gs.turn.handler_stage == 0:
        card = pl.hand[choice]
        c = card_colour(es, card)
        remove_at(pl.hand, &pl.n_hand, choice)
        pl.removed += 1
        gs.turn.hvars[0] = <int16_t>c
        for k in range(3):
            i = gs.spell_offer[k] if spell else gs.aa_offer[k]
            if i >= 0 and card_colour(es, i) == c:
                options |= (<uint64_t>1) << k
        return ask(gs, row, 1, ASK_OFFER, options)
    c = gs.turn.hvars[0]
    if spell:
        push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, gs.spell_offer[choice])
        count_gained(es, pl, gs.spell_offer[choice])
        refill_offer(gs, gs.spell_offer, gs.spell_deck, &gs.n_spell_deck, choice)
        for k in range(a[0]):
            gain_crystal(pl, gs, c)
    else:
        push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, gs.aa_offer[choice])
        count_gained(es, pl, gs.aa_offer[choice])
        refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, choice)
    return RES_DONE


cdef int book_of_wisdom_gain_aa(GameState* gs, const EngineStatics* es, const Statics* st,
                                int p, int row, int choice) noexcept nogil:
    return book_of_wisdom(gs, es, st, p, row, choice, 0)


cdef int book_of_wisdom_gain_spell(GameState* gs, const EngineStatics* es, const Statics* st,
                                   int p, int row, int choice) noexcept nogil:
    return book_of_wisdom(gs, es, st, p, row, choice, 1)


cdef int tome_of_all_spells(GameState* gs, const EngineStatics* es, const Statics* st,
                            int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int c, card
    # Tome of All Spells: discard a non-Wound card (6.2.2); use the basic (powered=1:
    # strong, even by Day) effect of a Spell of its colour in the offer without paying
    # mana; the Spell stays in the offer.  Stage 0: the card; stage 1: the offer slot.
    if choice < 0:
        options = tome_cards(gs, es, a[0])
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, options)
    if gs.turn.handler_stage == 0:
        card = pl.hand[choice]
        c = card_colour(es, card)
        remove_at(pl.hand, &pl.n_hand, choice)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        return ask(gs, row, 1, ASK_OFFER, tome_slots(gs, es, c, a[0]))
    # the Spell's effect keeps its own colour (LL-9.6.3, LL-9.7.22: a red Disintegrate)
    gs.turn.fx_colour = <int8_t>(card_colour(es, gs.spell_offer[choice]) + 1)
    gs.turn.fx_colour_by = gs.turn.resolving_card
    return push_eval(gs, tome_row(gs, es, gs.spell_offer[choice], a[0]))


cdef bint random_crystals_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                  PendingCheck* c) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # hvars[0] = gold rolls still to choose for
    return pc_stage(c, gs, 0) or pc_hvar(c, gs, 0, 1, a[0] if a[0] > 1 else 1) or pc_asks(c, ASK_COLOUR, 4)


cdef bint horn_of_wrath_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                PendingCheck* c) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # option = the extra dice rolled
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_NUMBER, (a[1] if a[1] < ASK_DONE - 1 else ASK_DONE - 1) + 1)


cdef bint enemies_no_attack_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                    PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY, -1, True)


cdef bint discard_for_attack_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                     PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_HAND_CARD, -1, True)


cdef bint soul_harvester_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                 PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    # hvars[0] = the enemy slot, -1 = the "one" enemy
    return pc_bad(c, PF_STAGE, stage, 1, 1) or pc_hvar(c, gs, 0, -1, pc_n_enemies(gs) - 1) \
        or pc_asks(c, ASK_COLOUR, 4)


cdef bint circlet_offer_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                PendingCheck* c) noexcept nogil:
    # options: slots of the skill offer
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OFFER, gs.n_skill_offer)


cdef bint banner_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                         PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_UNIT)


cdef bint druidic_staff_move_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                     PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_travel(c, gs, False)


cdef bint discard_by_colour_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                    PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_HAND_CARD)


cdef bint book_of_wisdom_pending(const GameState* gs, PendingCheck* c, bint spell) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    # stage 1: hvars[0] = the card's colour
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_HAND_CARD)
    return pc_hvar(c, gs, 0, 0, 3) or pc_asks(c, ASK_OFFER, -1, False,
                                              &gs.spell_offer[0] if spell else &gs.aa_offer[0])


cdef bint book_of_wisdom_gain_aa_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                         PendingCheck* c) noexcept nogil:
    return book_of_wisdom_pending(gs, c, False)


cdef bint book_of_wisdom_gain_spell_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                            PendingCheck* c) noexcept nogil:
    return book_of_wisdom_pending(gs, c, True)


cdef bint tome_of_all_spells_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                     PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    if pc_stage(c, gs, 1):
        return True
    return pc_asks(c, ASK_HAND_CARD) if stage == 0 else pc_asks(c, ASK_OFFER, -1, False, gs.spell_offer)


# ---------------------------------------------------------------------------------------
# The registry: one entry per handler (name, argument names, run, playable, pending, flags)
# ---------------------------------------------------------------------------------------

cdef enum:
    CAPACITY = 40

cdef HandlerEntry ARTIFACTS[CAPACITY]
cdef int N_ARTIFACTS = 0


cdef int entry(const char* name, const char* params, handler_run_t run, handler_playable_t playable,
               handler_pending_t pending=NULL, int flags=0) except -1:
    global N_ARTIFACTS
    if N_ARTIFACTS >= CAPACITY:
        raise RuntimeError("ext/_fx_artifacts.pyx: more handlers than CAPACITY")
    ARTIFACTS[N_ARTIFACTS].name = name
    ARTIFACTS[N_ARTIFACTS].params = params
    ARTIFACTS[N_ARTIFACTS].run = run
    ARTIFACTS[N_ARTIFACTS].playable = playable
    ARTIFACTS[N_ARTIFACTS].pending = pending
    ARTIFACTS[N_ARTIFACTS].flags = flags
    N_ARTIFACTS += 1
    return 0


entry(b"random_crystals", b"n", random_crystals, special_now_playable, random_crystals_pending)
entry(b"endless_mana", b"colour fame_per_spell", endless_mana, special_now_playable)
entry(b"golden_grail_draw", b"per_wound", golden_grail_draw, golden_grail_draw_playable)
entry(b"horn_of_wrath", b"siege max_extra rolls", horn_of_wrath,
      horn_of_wrath_playable, horn_of_wrath_pending)
entry(b"sword_of_justice_discard", b"attack_per_card fame_per_enemy", sword_of_justice_discard,
      sword_of_justice_discard_playable, discard_for_attack_pending)
entry(b"bow_of_starsdawn_discard", b"ranged_per_card fame_per_enemy", bow_of_starsdawn_discard,
      bow_of_starsdawn_discard_playable, discard_for_attack_pending)
entry(b"amulet_of_the_sun_night", b"forest_cost", amulet_of_the_sun_night, special_now_playable)
entry(b"amulet_of_darkness_day", b"desert_cost", amulet_of_darkness_day, special_now_playable)
entry(b"ready_all_units", b"outside_combat", ready_all_units, all_units_playable)
entry(b"heal_all_units", b"outside_combat", heal_all_units, all_units_playable)
entry(b"banner_of_glory_attached", b"armor bonus fame", banner_of_glory_attached,
      banner_playable, banner_pending)
entry(b"banner_of_glory_all_units", b"armor bonus fame", banner_of_glory_all_units, special_now_playable)
entry(b"banner_of_fear_attached", b"fame", banner_of_fear_attached, banner_playable, banner_pending)
entry(b"banner_of_protection_attached", b"armor", banner_of_protection_attached,
      banner_playable, banner_pending)
entry(b"banner_of_courage_attached", b"", banner_of_courage_attached, banner_playable, banner_pending)
entry(b"banner_of_fortitude_attached", b"", banner_of_fortitude_attached, banner_playable, banner_pending)
entry(b"banner_of_command_attach", b"", banner_of_command_attach, special_now_playable)
entry(b"druidic_staff_move", b"spaces", druidic_staff_move,
      druidic_staff_move_playable, druidic_staff_move_pending)
entry(b"discard_by_colour", b"red blue white green", discard_by_colour,
      discard_by_colour_playable, discard_by_colour_pending)
entry(b"book_of_wisdom_gain_aa", b"", book_of_wisdom_gain_aa,
      book_of_wisdom_gain_aa_playable, book_of_wisdom_gain_aa_pending)
entry(b"book_of_wisdom_gain_spell", b"crystals", book_of_wisdom_gain_spell,
      book_of_wisdom_gain_spell_playable, book_of_wisdom_gain_spell_pending)
entry(b"tome_of_all_spells", b"powered", tome_of_all_spells,
      tome_of_all_spells_playable, tome_of_all_spells_pending)
entry(b"throw_away_hand_wounds_end_of_turn", b"", throw_away_hand_wounds_end_of_turn, special_now_playable)
entry(b"sword_of_justice_powered", b"multiplier fame_per_enemy", sword_of_justice_powered, in_combat_playable)
entry(b"soul_harvester", b"attack target", soul_harvester, soul_harvester_playable, soul_harvester_pending)
entry(b"split_block", b"n count element", split_block, split_block_playable)
entry(b"bow_of_starsdawn_powered", b"multiplier", bow_of_starsdawn_powered, in_combat_playable)
entry(b"circlet_use_offer_skill", b"once_per_turn_uses", circlet_use_offer_skill,
      circlet_use_offer_skill_playable, circlet_offer_pending)
entry(b"circlet_gain_offer_skill", b"", circlet_gain_offer_skill,
      circlet_gain_offer_skill_playable, circlet_offer_pending)
entry(b"golden_grail_heal", b"heal", golden_grail_heal, golden_grail_heal_playable)
entry(b"skip_block_and_damage", b"move_per_enemy", skip_block_and_damage, skip_block_and_damage_playable)
entry(b"enemies_no_attack", b"n", enemies_no_attack, enemies_no_attack_playable, enemies_no_attack_pending)
register_handler_group(HG_ARTIFACTS, ARTIFACTS, N_ARTIFACTS)


# -- lifecycle events (issue 12): the combat-timed parts of this group's cards ----------------

cdef inline int popcount32(uint32_t m) noexcept nogil:
    cdef int n = 0
    while m:
        m &= m - 1
        n += 1
    return n


cdef void artifacts_event(GameState* gs, const EngineStatics* es, const Statics* st, int p, int ev,
                          int arg) noexcept nogil:
    """Bow of Starsdawn basic: Fame per enemy defeated in this combat phase, when it ends
    (EV_PHASE_END: its phase-long modifier is still alive then); Sword of Justice: Fame per
    enemy defeated in this combat, at its end (EV_COMBAT_END).  The enemies defeated when a
    phase begins are noted (phase_defeated) to tell this phase's apart."""
    cdef Player* pl = &gs.players[p]
    cdef int f
    if ev == EV_PHASE_END:
        f = mod_sum(&gs.turn, MK_PHASE_DEFEAT_FAME) if gs.turn.n_mods else 0
        if f > 0:
            pl.fame += f * popcount32(defeated_mask(gs) & ~gs.turn.phase_defeated)
    elif ev == EV_PHASE_START:
        gs.turn.phase_defeated = defeated_mask(gs)
    elif ev == EV_COMBAT_END:
        f = mod_sum(&gs.turn, MK_SWORD_FAME) if gs.turn.n_mods else 0   # ends with the combat (fire_event)
        if f > 0:
            pl.fame += f * popcount32(defeated_mask(gs))
        gs.turn.phase_defeated = 0


for _ev in (EV_PHASE_END, EV_PHASE_START, EV_COMBAT_END):
    if subscribe_event(_ev, artifacts_event) < 0:
        raise RuntimeError(f"_fx_artifacts: the subscription table of event {_ev} is full")
