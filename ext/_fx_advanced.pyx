# cython: language_level=3
"""Named effect handlers of the Advanced Action cards (and the spells sharing them): a
handler group compiled as a module of its own (ext/_fx_advanced.pxd is its header).

Each handler is a run function (the protocol of "Handler protocol", ext/_engine.pyx), a
playable function and, when it asks a question, a pending function (its bounds,
pending_check).  ADVANCED, at the end, is the group's registry: one entry per handler with
its name, declared argument names and flags; importing the module registers it with the
engine (register_handler_group).  The content's keyword arguments must match the declared
names exactly.  Handlers of advanced_actions.toml not listed here stay unimplemented:
playing them raises ERR_HANDLER naming them.  The Advanced Action rules the decision loop
and the other groups call (enemy operations, Ambush, Agility, Steady Tempo, block extras,
the Diplomacy / Learning / Peaceful Moment actions, lift_self, ...) stay in the engine,
ext/_engine_advanced.pxi.
"""
from libc.stdint cimport int16_t, int8_t, uint8_t, uint16_t, uint32_t, uint64_t, int32_t

from mksim._types cimport (Modifier, MAX_MODS, MK_NONE, MK_IGNORE_SITE_FORT, MK_UNIT_ATTACK_BLOCK,
    MK_RECRUIT_DISCOUNT, MK_EXPLORE_DISCOUNT, MK_BLOCKED_ARMOR_ONE, MK_HAND_LIMIT_ENDS_IN, NUM_MOD_KINDS, MS_NEXT_CARD, MS_PHASE,
    MS_COMBAT, MS_TURN, MS_ROUND, NUM_MOD_SCOPES)
from mksim._modifiers cimport (mod_add, mod_find, mod_has, mod_sum, mod_remove_at, mod_remove_kind, mod_set,
    mod_expire, event_scope, EV_TURN_START, EV_TURN_END, EV_PHASE_START, EV_PHASE_END, EV_CARD_PLAYED,
    EV_BLOCK_COMMITTED, EV_ATTACK_COMMITTED, EV_DAMAGE_ASSIGNED, EV_COMBAT_END, EV_ROUND_END, NUM_EVENTS)
from mksim._types cimport MK_IGNORE_WOUNDS, MK_NO_UNIT_DAMAGE, MK_NO_SOURCE_DICE, MK_NO_RECRUIT, MK_MANA_ANYTIME, MK_ENDLESS_MANA, MK_DICE_ANY_BASIC, MK_CRYSTAL_RETURN, MK_SPACE_BENDING, MK_PROTECTION, MK_INFLUENCE_BLOCK, MK_REVEAL_DISTANCE, MK_EXPLORE_RANGE, MK_DRAW_PER_HEAL, MK_CURE, MK_ATTACKS_COLDFIRE, MK_ATTACKS_SIEGE, MK_SWORD_FAME, MK_DODGE_ATTACK  # turn / combat-long kinds (issue 12)
from mksim._modifiers cimport mod_take, mod_find, mod_has, mod_sum, mod_remove_kind, mod_find_arg, mod_sum_arg, mod_has_arg  # (issue 12)
from mksim._engine cimport give_mod, give_mod_arg, MOD_ONCE, MOD_ADD, MOD_MAX, MOD_SET
from mksim._engine cimport MOD_MIN
from mksim._types cimport MK_SWIFT_STRIP, MK_SWIFT_BLOCK, MK_BLOCK_ARMOR, MK_BLOCK_ARMOR_EXCESS, MS_BLOCK  # the Block pool's modifiers (issue 12)
from mksim._types cimport MK_TERRAIN_SET, MK_TERRAIN_OPEN, MK_TERRAIN_SAFE  # 9.6.1, 9.6.3, 9.7.1
from mksim._types cimport MK_UNIT_GLORY, MK_OTHER_UNITS_ATTACK, MK_SWORD_DOUBLE, MK_BOW_POWERED, MK_LEARNING, MK_CHIVALRY  # third move (issue 12)
from mksim._types cimport *
from mksim._state cimport Statics
from mksim._rng cimport rng_below, STREAM_SOURCE
from mksim._combat cimport *
from mksim._rules cimport is_safe
from mksim._engine cimport *
from mksim._effects cimport node_playable, combat_move_usable   # the interpreter (ext/_effects.pxd)



cdef uint64_t offer_slots_of_colour(const GameState* gs, const EngineStatics* es, int colour) noexcept nogil:
    cdef uint64_t o = 0
    cdef int k
    for k in range(3):
        if gs.aa_offer[k] >= 0 and card_colour(es, gs.aa_offer[k]) == colour:
            o |= (<uint64_t>1) << k
    return o

cdef uint64_t blood_colour_options(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Blood of Ancients basic: basic colours with an Advanced Action in the offer that can
    be paid now (5.4; gold by Day as any basic, 5.1.5)."""
    cdef uint64_t o = 0
    cdef int c
    for c in range(4):
        if offer_slots_of_colour(gs, es, c) != 0 and pay_options(gs, c) != 0:
            o |= (<uint64_t>1) << c
    return o

cdef uint64_t training_hand_options(const GameState* gs, const EngineStatics* es, int row,
                                   bint exclude_self) noexcept nogil:
    """Training: Action cards in hand with an Advanced Action of their colour in the offer.
    exclude_self: Training is still in hand (one copy of it is left out)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i, k, card, deck
    cdef bint skipped = not exclude_self
    for i in range(pl.n_hand):
        card = pl.hand[i]
        deck = card_deck(es, card)
        if deck != DECK_BASIC and deck != DECK_AA:
            continue
        if not skipped and is_self_row(es, card, row):
            skipped = True
            continue
        for k in range(3):
            if gs.aa_offer[k] >= 0 and card_colour(es, gs.aa_offer[k]) == card_colour(es, card) and i < 64:
                o |= (<uint64_t>1) << i
    return o

cdef inline bint influence_usable(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Influence has a use now, as for OP_INFLUENCE (node_playable): an interaction (10.2.2),
    the uses above, or a Thugs / Heroes payment in combat (LL-4.3.4, LL-9.3.1)."""
    return gs.phase == PH_INTERACT or influence_elsewhere(gs) or units_need_influence(gs, es)

cdef inline int diplomacy_element_arg(int element) noexcept nogil:
    """Diplomacy's element argument (PHYSICAL / FIRE / ICE) -> A_INFLUENCE_BLOCK arg + 1
    (the MK_INFLUENCE_BLOCK modifier's arg)."""
    if element == FIRE:
        return 2
    if element == ICE:
        return 3
    return 1

cdef bint plays_other_card(const EngineStatics* es, int row) noexcept nogil:
    """Is this effect row one that plays another card's effect (no chains of them)?  Its
    registry entry says so (HF_PLAYS_OTHER_CARD: Concentration, Maximal Effect, Blood of
    Ancients powered, Magic Talent powered)."""
    return row_handler_has(es, row, HF_PLAYS_OTHER_CARD)

cdef uint64_t maximal_options(const GameState* gs, const EngineStatics* es, int row, int powered) noexcept nogil:
    """Maximal Effect: Action cards in hand (Basic or Advanced) whose basic (powered) effect
    can be used now (Maximal Effect itself out of the hand: see lift_self)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i, card, deck, r
    for i in range(pl.n_hand):
        card = pl.hand[i]
        deck = card_deck(es, card)
        if (deck != DECK_BASIC and deck != DECK_AA) or i >= 63:
            continue
        r = es.card_powered[card * es.card_stride] if powered else es.card_basic[card * es.card_stride]
        if plays_other_card(es, r):
            continue                       # before card_playable_mode: no endless recursion
        if card_playable_mode(gs, es, card, powered) >= 0:
            o |= (<uint64_t>1) << i
    return o

cdef bint playable_as_in_hand(GameState* gs, const EngineStatics* es, int card, int row) noexcept nogil:
    """node_playable for `row` of `card` as if the card were in hand, as the playability
    checks assume of the card being played (e.g. discard_cost: "another card" than it);
    the card is in the offer (Blood of Ancients) or thrown away (Maximal Effect)."""
    cdef Player* pl = &gs.players[gs.current]
    cdef bint ok
    if not push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, card):
        return node_playable(gs, es, row)
    ok = node_playable(gs, es, row)
    pl.n_hand -= 1
    return ok

cdef int maximal_step(GameState* gs, const EngineStatics* es) noexcept nogil:
    """One more use of the borrowed effect while it can be used (6.2.1: a use whose cost
    cannot be paid any more is lost, with the rest); the Maximal Effect row runs again after it."""
    cdef int tgt = gs.turn.maximal_row - 1
    if gs.turn.maximal_left <= 0 or tgt < 0 or not playable_as_in_hand(gs, es, gs.turn.resolving_card, tgt):
        gs.turn.maximal_left = 0
        gs.turn.maximal_row = 0
        return RES_DONE
    gs.turn.maximal_left -= 1
    if push_eval(gs, gs.turn.maximal_self) != RES_DONE:
        return RES_ERROR
    return push_eval(gs, tgt)

cdef uint64_t blood_use_options(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Blood of Ancients powered: AA offer slots whose powered effect can be used now."""
    cdef uint64_t o = 0
    cdef int k, r
    for k in range(3):
        if gs.aa_offer[k] >= 0:
            if plays_other_card(es, es.card_powered[gs.aa_offer[k] * es.card_stride]):
                continue                   # before card_playable_mode: no endless recursion
            if playable_as_in_hand(<GameState*>gs, es, gs.aa_offer[k],
                                   es.card_powered[gs.aa_offer[k] * es.card_stride]):
                o |= (<uint64_t>1) << k
    return o

cdef uint64_t talent_colour_options(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Magic Talent powered: basic colours with a Spell in the offer that can be paid now."""
    cdef uint64_t o = 0
    cdef int c, k
    for c in range(4):
        for k in range(3):
            if gs.spell_offer[k] >= 0 and card_colour(es, gs.spell_offer[k]) == c and pay_options(gs, c) != 0:
                o |= (<uint64_t>1) << c
    return o

cdef uint64_t stout_kinds(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Stout Resolve: which of Move (0), Influence (1), Attack (2), Block (3) can be used now
    (6.3.3 timing; Move in combat where it has a use: Agility, Wings of Night, Cumbersome
    LL-6.5.2; Influence wherever OP_INFLUENCE has a use: interaction, Diplomacy's Block,
    Thugs / Heroes waiting for payment, LL-4.3.4)."""
    cdef uint64_t o = 0
    if (gs.phase == PH_MOVE and not gs.turn.action_taken) or combat_move_usable(gs, es):
        o |= 1
    if gs.phase == PH_INTERACT or influence_elsewhere(gs) or units_need_influence(gs, es):
        o |= 2
    if gs.phase == PH_COMBAT_ATTACK:
        o |= 4
    if gs.phase == PH_COMBAT_BLOCK:
        o |= 8
    return o

cdef uint64_t stout_discards(const GameState* gs, const EngineStatics* es, const int32_t* a) noexcept nogil:
    """Stout Resolve: hand cards that may still be discarded for the bonus - basic: a Wound
    (any_cards=0), powered: any card, at most max_wounds Wounds (hvars[2] so far)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i
    cdef bint wound_ok = gs.turn.hvars[2] < a[3]
    for i in range(pl.n_hand):
        if i >= 63:
            break
        if pl.hand[i] == es.wound:
            if wound_ok:
                o |= (<uint64_t>1) << i
        elif a[2] == 1:
            o |= (<uint64_t>1) << i
    return o

cdef int portal_dirs(const GameState* gs, const Statics* st, int p) noexcept nogil:
    """Temporal Portal: directions to an adjacent revealed safe space (9.7.1)."""
    cdef int h = gs.players[p].position, k, to, o = 0
    if h < 0:
        return 0
    for k in range(6):
        to = gs.hexes[h].neighbour[k]
        if to >= 0 and is_safe(gs, st, to, p):
            o |= 1 << k
    return o

cdef uint64_t talent_spell_modes(GameState* gs, const EngineStatics* es, int spell) noexcept nogil:
    """Magic Talent basic: how the offer Spell can be cast now (6.1.4, 5.4.3) - option
    `pay` = basic effect paid with payment code `pay`; option 32 + `pay` = powered effect
    (its colour paid with `pay`, a black mana from another source).  Like legal_play, the
    effect must still be usable once the Spell's mana is paid (playable_after_paying: the
    trial payments are undone)."""
    cdef uint64_t o = 0
    cdef int colour = card_colour(es, spell), pay, pay2, npay = n_pay_codes(gs)
    cdef PaySnap sn
    cdef bint ok
    if colour >= 4:
        return 0
    for pay in range(npay):
        if pay >= 32 or not pay_ok(gs, pay, colour):
            continue
        if playable_after_paying(gs, es, spell, 0, pay, PAY_NONE, colour):
            o |= (<uint64_t>1) << pay
        if not mana_usable(gs, BLACK):
            continue                                            # 5.4.3: the strong effect needs black
        pay_save(gs, &sn)
        pay_take(gs, pay, colour)
        ok = False
        for pay2 in range(npay):
            if pay_ok(gs, pay2, BLACK) and playable_after_paying(gs, es, spell, 1, pay2, PAY_NONE, BLACK):
                ok = True
                break
        pay_restore(gs, &sn)
        if ok:
            o |= (<uint64_t>1) << (32 + pay)
    return o

cdef uint64_t talent_offer_slots(GameState* gs, const EngineStatics* es, int colour) noexcept nogil:
    """Spell offer slots of basic `colour` (-1: any basic colour) that can be cast now."""
    cdef uint64_t o = 0
    cdef int k, c
    for k in range(3):
        if gs.spell_offer[k] < 0:
            continue
        c = card_colour(es, gs.spell_offer[k])
        if (colour < 0 or c == colour) and c < 4 and talent_spell_modes(gs, es, gs.spell_offer[k]) != 0:
            o |= (<uint64_t>1) << k
    return o

cdef uint64_t talent_discards(const GameState* gs, const EngineStatics* es, int row, bint exclude_self) noexcept nogil:
    """Magic Talent basic: non-Wound hand cards whose colour has a castable Spell in the offer
    (artifacts are colourless; 6.2.2 no Wounds); the base printing (same_colour=0): any
    non-Wound card while any Spell of the offer can be cast.  exclude_self: Magic Talent is
    still in hand."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef GameState* g = <GameState*>gs              # the trial payments are undone
    cdef uint64_t o = 0, colours = 0
    cdef int i, c, card
    cdef bint skipped = not exclude_self
    cdef bint same = row_args(es, row)[0] != 0
    for c in range(4):
        if talent_offer_slots(g, es, c) != 0:
            colours |= (<uint64_t>1) << c
    if colours == 0:
        return 0
    for i in range(pl.n_hand):
        card = pl.hand[i]
        if card == es.wound or i >= 63:
            continue
        if not skipped and is_self_row(es, card, row):
            skipped = True
            continue
        c = card_colour(es, card)
        if not same or (c < 4 and (colours >> c) & 1):
            o |= (<uint64_t>1) << i
    return o


# ---------------------------------------------------------------------------------------
# Handlers
# ---------------------------------------------------------------------------------------

cdef uint64_t throw_away_options(const GameState* gs, const EngineStatics* es, int row, bint exclude_self) noexcept nogil:
    """Hand cards that may be thrown away: Action cards (Basic or Advanced, not Wounds) whose
    colour's effect can be used now.  exclude_self: the played card is still in hand (one
    copy of it is left out)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t o = 0
    cdef int i, card, deck, colour
    cdef bint skipped = not exclude_self
    for i in range(pl.n_hand):
        card = pl.hand[i]
        deck = card_deck(es, card)
        if deck != DECK_BASIC and deck != DECK_AA:
            continue
        if not skipped and is_self_row(es, card, row):
            skipped = True
            continue
        colour = card_colour(es, card)
        if colour < 4 and a[colour] >= 0 and node_playable(gs, es, a[colour]) and i < 64:
            o |= (<uint64_t>1) << i
    return o

cdef uint64_t mana_colour_options(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    """Basic colours that can be paid now and whose effect can be used now."""
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t o = 0
    cdef int c
    for c in range(4):
        if a[c] >= 0 and pay_options(gs, c) != 0 and node_playable(gs, es, a[c]):
            o |= (<uint64_t>1) << c
    return o

cdef uint64_t talent_pay_codes(const GameState* gs) noexcept nogil:
    """Magic Talent's stage-2 options as codes: a payment code, + 32 for powered."""
    cdef uint64_t o = 0
    cdef int k
    for k in range(n_pay_codes(gs)):
        o |= ((<uint64_t>1) << k) | ((<uint64_t>1) << (k + 32))
    return o


# ---------------------------------------------------------------------------------------
# The handlers: one run / playable / pending function each, as the switch arms were
# ---------------------------------------------------------------------------------------

cdef int ice_shield_block(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Ice Shield powered: Ice Block `block`; the enemy blocked this way gets Armor
    # `armor` (min 1) - applied by commit_block when the block succeeds: a modifier of the
    # Block pool, arg = the colour of the card + 1 (an effect of its colour, 11.4.2).
    gs.combat.block[<int>ICE] += a[0] + ambush_bonus(gs, 1) + card_bonus(gs)   # 11.6.3, 11.9.3
    if a[1] and not give_mod_arg(gs, p, MK_BLOCK_ARMOR, MS_BLOCK, a[1], resolving_colour(gs, es) + 1, MOD_ADD):
        return RES_ERROR
    return RES_DONE


cdef bint block_phase_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_BLOCK                        # 11.6.3


cdef int pay_mana_by_colour(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    # Pure Magic / Mana Bolt: pay one basic mana (5.4; gold by Day as any basic, 5.1.5);
    # the colour paid picks the effect.  Stage 0: colour, stage 1: payment (ASK_PAYMENT).
    # hvars[0] = colour.
    if choice < 0:
        options = mana_colour_options(gs, es, row)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)   # 6.2.1: cannot pay
            return RES_ERROR
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_COLOUR, options)
        gs.turn.handler_stage = 0
    if gs.turn.handler_stage == 0:
        gs.turn.hvars[0] = <int16_t>choice
        options = pay_options(gs, choice)
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 1, ASK_PAYMENT, options)
    pay_take(gs, choice, gs.turn.hvars[0])
    return push_eval(gs, a[gs.turn.hvars[0]])


cdef bint pay_mana_by_colour_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return mana_colour_options(gs, es, row) != 0


cdef bint colour_pay_pending(PendingCheck* c, const GameState* gs, int last_stage, uint64_t colours,
                             const int16_t* offer) noexcept nogil:
    """Pay Mana by Colour, Blood of Ancients, Magic Talent: stage 0: a basic colour it can
    pay (and use), one of `colours`; 1: its payment (hvars[0] = the colour: a[colour]);
    2: a slot of `offer`."""
    cdef int stage = gs.turn.handler_stage
    if pc_stage(c, gs, last_stage):
        return True
    if stage == 0:                                  # a colour it can pay (and use)
        return pc_asks(c, ASK_COLOUR, 4) or pc_subset(c, gs, colours)
    if stage == 1:
        return pc_hvar(c, gs, 0, 0, 3) or pc_asks(c, ASK_PAYMENT) \
            or pc_subset(c, gs, pay_options(gs, gs.turn.hvars[0]))
    return pc_asks(c, ASK_OFFER, -1, False, offer)


cdef bint pay_mana_by_colour_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return colour_pay_pending(c, gs, 1, mana_colour_options(gs, es, row), &gs.aa_offer[0])


cdef int throw_away_action_by_colour(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int card
    # Decompose / Ritual Attack: throw away another Action card from hand (removed from
    # the game); the effect of its colour follows.
    if choice < 0:
        options = throw_away_options(gs, es, row, False)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, options)
    card = pl.hand[choice]
    remove_at(pl.hand, &pl.n_hand, choice)
    pl.removed += 1
    return push_eval(gs, a[card_colour(es, card)])


cdef bint throw_away_action_by_colour_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return special_timing(gs) and throw_away_options(gs, es, row, True) != 0


cdef bint hand_card_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_HAND_CARD)


cdef int in_need(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i, k, card
    # In Need: Influence `influence`, +per_wound for each Wound card in hand and on the
    # Units (a poisoned Unit holds two, 11.7.9); 10.2.2.
    k = 0
    for i in range(pl.n_hand):
        if pl.hand[i] == es.wound:
            k += 1
    for i in range(MAX_UNITS):
        if pl.units[i].card >= 0:
            k += pl.units[i].wounds
    gs.turn.influence += a[0] + a[1] * k + card_bonus(gs)
    return RES_DONE


cdef bint influence_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # their Influence wherever Influence has a use (10.2; LL-9.3.1, LL-4.3.4: paying
    # Thugs in combat); Heroic Tale's bonus then waits for recruits this turn
    return influence_usable(gs, es)


cdef int crystal_mastery_copy(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int k, c
    # Crystal Mastery basic: gain n crystals of a colour you already hold (5.3.2: a 4th
    # becomes a mana token).
    if choice < 0:
        for c in range(4):
            if pl.crystals[c] > 0:
                options |= (<uint64_t>1) << c
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_COLOUR, options)
    for k in range(a[0]):
        gain_crystal(pl, gs, choice)
    return RES_DONE


cdef bint crystal_mastery_copy_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    cdef int c
    if not special_timing(gs):
        return False
    for c in range(4):
        if pl.crystals[c] > 0:
            return True
    return False


cdef bint crystal_mastery_copy_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_COLOUR, 4)


cdef int crystal_mastery_return(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    if not give_mod(gs, p, MK_CRYSTAL_RETURN, MS_TURN, 1, MOD_ONCE):   # see return_spent_crystals
        return RES_ERROR
    return RES_DONE


cdef bint special_timing_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    """A special effect with nothing else to check (6.3.3)."""
    return special_timing(gs)


cdef int mana_storm_die_to_crystal(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i
    # Mana Storm basic: a Source die showing a basic colour gives a crystal of that
    # colour and is rerolled at once (not a use of the Source, 5.5.2).
    if choice < 0:
        for i in range(gs.n_dice):
            if not (gs.dice_taken >> i) & 1 and gs.dice[i] < GOLD:
                options |= (<uint64_t>1) << i
        return ask(gs, row, 0, ASK_DIE, options)
    gain_crystal(pl, gs, gs.dice[choice])
    gs.dice[choice] = <int8_t>rng_below(&gs.rng[<int>STREAM_SOURCE], 6)
    return RES_DONE


cdef bint mana_storm_die_to_crystal_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef int i
    if not special_timing(gs):
        return False
    for i in range(gs.n_dice):
        if not (gs.dice_taken >> i) & 1 and gs.dice[i] < GOLD:
            return True
    return False


cdef bint mana_storm_die_to_crystal_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_DIE)


cdef int mana_storm_powered(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int i
    # Mana Storm powered: reroll every die in the Source; extra_dice more dice this turn
    # (5.5.6); gold and black dice may be used as any basic colour, whatever the time.
    for i in range(gs.n_dice):
        if not (gs.dice_taken >> i) & 1:
            gs.dice[i] = <int8_t>rng_below(&gs.rng[<int>STREAM_SOURCE], 6)
    gs.turn.extra_dice += a[0]
    if not give_mod(gs, p, MK_DICE_ANY_BASIC, MS_TURN, 1, MOD_ONCE):
        return RES_ERROR
    return RES_DONE


cdef int ambush_bonus_run(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # "your first Attack card this turn +a or first Block card +b, whichever first": a
    # turn-long pair, used up together by the first (ambush_bonus); a second Ambush sets it anew
    if a[0] and not give_mod_arg(gs, p, MK_FIRST_ATTACK_BLOCK, MS_TURN, a[0], 1, MOD_SET):
        return RES_ERROR
    if a[1] and not give_mod_arg(gs, p, MK_FIRST_ATTACK_BLOCK, MS_TURN, a[1], 2, MOD_SET):
        return RES_ERROR
    return RES_DONE


cdef int counterattack(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int i, k
    # Counterattack: Attack `attack` + per_blocked per enemy blocked this turn (11.6.6;
    # an enemy counts when all its attacks were blocked, LL-6.1.6).
    k = 0
    for i in range(gs.combat.n_enemies):
        if gs.combat.enemies[i].token >= 0 and gs.combat.enemies[i].flags & CE_BLOCKED:
            k += 1
    gs.combat.attack[<int>MELEE][<int>PHYSICAL] += a[0] + a[1] * k + ambush_bonus(gs, 0) + card_bonus(gs)
    return RES_DONE


cdef bint attack_phase_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_ATTACK                       # 11.8: a melee Attack


cdef int block_double_vs_swift(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int k
    # Shield Bash: Block n counting twice against Swift (LL-2.10.10); powered: Armor
    # -armor_per_excess per point of excess Block on the blocked enemy (min 1, LL-6.7.5).
    k = a[0] + ambush_bonus(gs, 1) + unit_combat_bonus(gs) + card_bonus(gs)
    gs.combat.block[<int>PHYSICAL] += k
    if k and not give_mod_arg(gs, p, MK_SWIFT_BLOCK, MS_BLOCK, k, <int>PHYSICAL + 1, MOD_ADD):   # the Block pool's
        return RES_ERROR
    return RES_DONE


cdef int shield_bash(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    # Shield Bash powered: block_double_vs_swift's Block, and Armor -armor_per_excess per
    # point of excess Block on the blocked enemy (min 1, LL-6.7.5; commit_block).
    cdef const int32_t* a = row_args(es, row)
    if block_double_vs_swift(gs, es, st, p, row, choice) != RES_DONE:
        return RES_ERROR
    mod_remove_kind(&gs.turn, MK_BLOCK_ARMOR_EXCESS)            # a second one sets it anew
    if a[1] and not give_mod_arg(gs, p, MK_BLOCK_ARMOR_EXCESS, MS_BLOCK, a[1], resolving_colour(gs, es) + 1,
                                 MOD_SET):
        return RES_ERROR
    return RES_DONE


cdef int spell_forge(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int k
    # Spell Forge: a crystal of the colour of each of `crystals` different Spells of the
    # Spell offer (ASK_OFFER slots; hvars[0] = crystals gained, hvars[1] = slots used).
    if choice < 0:
        gs.turn.hvars[0] = 0
        gs.turn.hvars[1] = 0
    else:
        gain_crystal(pl, gs, card_colour(es, gs.spell_offer[choice]))
        gs.turn.hvars[0] += 1
        gs.turn.hvars[1] |= <int16_t>(1 << choice)
    if gs.turn.hvars[0] >= a[0]:
        return RES_DONE
    for k in range(3):
        if gs.spell_offer[k] >= 0 and not (gs.turn.hvars[1] >> k) & 1:
            options |= (<uint64_t>1) << k
    if options == 0:
        return RES_DONE                                       # fewer Spells than crystals
    return ask(gs, row, 0, ASK_OFFER, options)


cdef bint spell_forge_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef int i
    if not special_timing(gs):
        return False
    for i in range(3):
        if gs.spell_offer[i] >= 0:
            return True
    return False


cdef bint spell_forge_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OFFER, -1, False, gs.spell_offer)


cdef int agility_convert(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Agility: Move may be converted in combat this turn (LL-9.7.2-9.7.3); the better
    # rate counts when played twice.
    if a[0] > 0 and (gs.turn.agility_melee == 0 or a[0] < gs.turn.agility_melee):
        gs.turn.agility_melee = <int8_t>a[0]
    if a[1] > 0 and (gs.turn.agility_ranged == 0 or a[1] < gs.turn.agility_ranged):
        gs.turn.agility_ranged = <int8_t>a[1]
    return RES_DONE


cdef int terrain_cost_set(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int c
    # Path Finding powered, Frost Bridge, Song of Wind powered, Mountain Lore powered,
    # Mist Form: the terrain's Move cost is `cost` for the rest of the turn (9.6.1; read
    # by _rules.move_cost).  Engine reading: of two set costs the lower counts (MOD_MIN;
    # an "all" entry, arg 0, and one terrain's both apply to it: the lowest counts).
    if a[1] < 0:
        return RES_DONE
    c = 0 if a[0] >= NUM_TERRAINS else a[0] + 1
    if not give_mod_arg(gs, p, MK_TERRAIN_SET, MS_TURN, a[1], c, MOD_MIN):
        return RES_ERROR
    return RES_DONE


cdef bint move_phase_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_MOVE                                # 9.6.1: movement effects


cdef int terrain_passable(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Lake / mountain may be entered this turn (9.6.3: the space is still not safe at
    # the end of the turn, 9.7.1, unless safe=1 as on Mountain Lore powered).
    if a[0] < 0 or a[0] >= NUM_TERRAINS:
        set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    if not give_mod_arg(gs, p, MK_TERRAIN_OPEN, MS_TURN, 1, a[0] + 1, MOD_ONCE):
        return RES_ERROR
    if a[1] == 1 and not give_mod_arg(gs, p, MK_TERRAIN_SAFE, MS_TURN, 1, a[0] + 1, MOD_ONCE):
        return RES_ERROR
    return RES_DONE


cdef int mana_cost(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    # Song of Wind powered: "you may pay a blue mana" (5.4; gold by Day as any basic,
    # 5.1.5) to get `then`.  optional=1: ASK_DONE (63) declines.  ASK_PAYMENT.
    if choice < 0:
        options = pay_options(gs, a[0]) if a[2] >= 0 and node_playable(gs, es, a[2]) else 0
        if options == 0:
            if a[1] == 1:
                return RES_DONE                              # cannot pay: nothing happens
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)   # 6.2.1
            return RES_ERROR
        if a[1] == 1:
            return ask(gs, row, 0, ASK_PAYMENT, options | ((<uint64_t>1) << ASK_DONE))
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_PAYMENT, options)
    if choice == ASK_DONE:
        return RES_DONE
    pay_take(gs, choice, a[0])
    return push_eval(gs, a[2])


cdef bint mana_cost_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a
    a = row_args(es, row)
    if a[1] == 1:
        # optional: may be declined, so no mana is needed - but what it buys must act
        # now (Song of Wind's lakes only while moving, 9.6.1: not a use in combat)
        return a[2] >= 0 and node_playable(gs, es, a[2])
    return a[2] >= 0 and pay_options(gs, a[0]) != 0 and node_playable(gs, es, a[2])


cdef bint mana_cost_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_PAYMENT, -1, True)


cdef int mountain_lore_hand_limit(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Hand limit + a[0] / a[1] at this turn's draw if it ends in hills / mountains (13.7.2;
    # turn_end_hand_limit, _engine.pyx)
    if a[0] and not give_mod_arg(gs, p, MK_HAND_LIMIT_ENDS_IN, MS_TURN, a[0], HILLS + 1, MOD_ADD):
        return RES_ERROR
    if a[1] and not give_mod_arg(gs, p, MK_HAND_LIMIT_ENDS_IN, MS_TURN, a[1], MOUNTAIN + 1, MOD_ADD):
        return RES_ERROR
    return RES_DONE


cdef int steady_tempo_return(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    gs.turn.steady_tempo = <int8_t>(2 if a[0] == 1 else 1)   # see apply_steady_tempo
    gs.turn.steady_tempo_card = gs.turn.resolving_card
    return RES_DONE


cdef int training_gain_aa(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int k, card, c
    # Training: throw away an Action card from hand (removed from the game); take an
    # Advanced Action of its colour from the offer (6.4.2 refill) to the discard pile /
    # to hand (powered).  Stage 0: hand card (ASK_HAND_CARD), stage 1: offer slot.
    if choice < 0:
        options = training_hand_options(gs, es, row, False)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, options)
    if gs.turn.handler_stage == 0:
        card = pl.hand[choice]
        remove_at(pl.hand, &pl.n_hand, choice)
        pl.removed += 1
        c = card_colour(es, card)
        gs.turn.hvars[0] = <int16_t>c
        for k in range(3):
            if gs.aa_offer[k] >= 0 and card_colour(es, gs.aa_offer[k]) == c:
                options |= (<uint64_t>1) << k
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 1, ASK_OFFER, options)
    card = gs.aa_offer[choice]
    refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, choice)
    if a[0] == 1:
        push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, card)
    else:
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
    count_gained(es, pl, card)
    return RES_DONE


cdef bint training_gain_aa_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    if not special_timing(gs):
        return False
    return training_hand_options(gs, es, row, True) != 0


cdef bint training_gain_aa_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    if pc_stage(c, gs, 1):
        return True
    return pc_asks(c, ASK_HAND_CARD) if stage == 0 else pc_asks(c, ASK_OFFER, -1, False, gs.aa_offer)


cdef int into_the_heat(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Into the Heat, played at the start of a combat: Units' Attack and Block + bonus this
    # combat (a combat-long modifier, unit_combat_bonus); no damage may be assigned to Units
    # this turn (11.7.4; a turn-long MK_NO_UNIT_DAMAGE).
    if a[0] > 0 and not give_mod(gs, p, MK_UNIT_ATTACK_BLOCK, MS_COMBAT, a[0], MOD_MAX):
        return RES_ERROR
    if not give_mod(gs, p, MK_NO_UNIT_DAMAGE, MS_TURN, 1, MOD_ONCE):
        return RES_ERROR
    return RES_DONE


cdef bint into_the_heat_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.combat.active != 0 and gs.turn.heat_window == 1   # "at the start of combat"


cdef int heroic_tale_bonus(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # "Reputation (+ Fame) +1 per Unit recruited this turn": turn-long, not used up (see
    # heroic_tale_recruited); a second Heroic Tale adds
    if a[0] and not give_mod_arg(gs, p, MK_PER_RECRUIT, MS_TURN, a[0], 1, MOD_ADD):
        return RES_ERROR
    if a[1] > 0 and not give_mod_arg(gs, p, MK_PER_RECRUIT, MS_TURN, a[1], 2, MOD_ADD):
        return RES_ERROR
    return RES_DONE


cdef int blood_of_ancients_gain_aa(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int card
    # Blood of Ancients basic: take `wounds` Wound(s) to hand (12.1.1) and pay one mana;
    # an Advanced Action of that colour goes from the offer to hand (6.4.2 refill).
    # Stage 0: colour (ASK_COLOUR), 1: payment (ASK_PAYMENT), 2: offer slot.
    if choice < 0:
        options = blood_colour_options(gs, es)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_COLOUR, options)
        gs.turn.handler_stage = 0
    if gs.turn.handler_stage == 0:
        gs.turn.hvars[0] = <int16_t>choice
        options = pay_options(gs, choice)
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 1, ASK_PAYMENT, options)
        gs.turn.handler_stage = 1
    if gs.turn.handler_stage == 1:
        pay_take(gs, choice, gs.turn.hvars[0])
        options = offer_slots_of_colour(gs, es, gs.turn.hvars[0])
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 2, ASK_OFFER, options)
    card = gs.aa_offer[choice]
    refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, choice)
    take_wounds(gs, es, pl, a[0])
    if gs.error != ERR_NONE:
        return RES_ERROR
    push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, card)
    count_gained(es, pl, card)
    return RES_DONE


cdef bint blood_of_ancients_gain_aa_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    if not special_timing(gs):
        return False
    return blood_colour_options(gs, es) != 0


cdef bint blood_of_ancients_gain_aa_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return colour_pay_pending(c, gs, 2, blood_colour_options(gs, es), &gs.aa_offer[0])


cdef int blood_of_ancients_use_aa(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int k, card
    # Blood of Ancients powered: take `wounds` Wound(s) - to hand or to the discard pile -
    # and use the powered effect of an Advanced Action in the offer without paying mana;
    # the card stays in the offer.  Its effect keeps its own colour (LL-9.6.3) and is one
    # effect with this card's (LL-9.6.1).  Stage 0: offer slot (ASK_OFFER), 1: the
    # Wound's place (ASK_OPTION 0 hand, 1 discard pile).  hvars[0] = slot.
    if choice < 0:
        options = blood_use_options(gs, es)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_OFFER, options)
        gs.turn.handler_stage = 0
    if gs.turn.handler_stage == 0:
        gs.turn.hvars[0] = <int16_t>choice
        return ask(gs, row, 1, ASK_OPTION, 3)
    card = gs.aa_offer[gs.turn.hvars[0]]
    if choice == 1:
        for k in range(a[0]):
            if push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, es.wound):
                pl.stats.wounds_taken += 1
    elif gs.combat.active:
        hero_take_wounds(gs, st, p, a[0])                      # counts for 11.7.8 knock-out
    else:
        take_wounds(gs, es, pl, a[0])                          # 12.1.1
    if gs.error != ERR_NONE:
        return RES_ERROR
    gs.turn.resolving_card = <int16_t>card
    return push_eval(gs, es.card_powered[card * es.card_stride])


cdef bint blood_of_ancients_use_aa_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef int lifted
    cdef bint ok
    # special effects (6.3.3), also while interacting (10.2.7) - the borrowed effect
    # must be usable now (LL-9.6.2)
    if not special_timing(gs) and gs.phase != PH_INTERACT:
        return False
    # the borrowed effect is checked as it will resolve: this card out of the hand
    lifted = lift_self(<GameState*>gs, es, row)
    ok = blood_use_options(gs, es) != 0
    put_back(<GameState*>gs, lifted)
    return ok


cdef bint blood_of_ancients_use_aa_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    # stage 1: hvars[0] = the offer slot
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_OFFER, -1, False, gs.aa_offer)
    if pc_hvar(c, gs, 0, 0, 2):
        return True
    if gs.aa_offer[gs.turn.hvars[0]] < 0:
        return pc_bad(c, PF_HVAR, gs.turn.hvars[0], -1, -1)
    return pc_asks(c, ASK_OPTION, 2)


cdef int chivalry_attack(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Chivalry: Attack `attack` (physical, melee) with Reputation +reputation and Fame
    # +fame for each enemy the attack it joins defeats (chivalry_commit): phase-long
    # MK_CHIVALRY entries (arg 1 Reputation, 2 Fame) that go with the attack pool - lost
    # with it when the phase ends unused (11.4.5, as for Block), used up by its commit.
    gs.combat.attack[<int>MELEE][<int>PHYSICAL] += a[0] + ambush_bonus(gs, 0) + card_bonus(gs)
    if a[1] != 0 and not give_mod_arg(gs, p, MK_CHIVALRY, MS_PHASE, a[1], 1, MOD_ADD):
        return RES_ERROR
    if a[2] > 0 and not give_mod_arg(gs, p, MK_CHIVALRY, MS_PHASE, a[2], 2, MOD_ADD):
        return RES_ERROR
    return RES_DONE


cdef int dodge_and_weave_attack(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Dodge and Weave: Attack `attack` in the Attack phase of this combat if no Wound went
    # to the hero's hand earlier in it (advanced_phase_start).
    if not give_mod(gs, p, MK_DODGE_ATTACK, MS_COMBAT, a[0] + card_bonus(gs), MOD_ADD):
        return RES_ERROR
    return RES_DONE


cdef bint dodge_and_weave_attack_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_BLOCK                        # with its attack reduction


cdef int influence_as_block(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Diplomacy: Influence `influence`; Influence may be used as Block of `element` this
    # turn (A_INFLUENCE_BLOCK in the Block phase, LL-9.7.1).
    gs.turn.influence += a[0] + card_bonus(gs)                     # 10.2.2
    if not give_mod_arg(gs, p, MK_INFLUENCE_BLOCK, MS_TURN, 1, diplomacy_element_arg(a[1]), MOD_ONCE):
        return RES_ERROR
    return RES_DONE


cdef bint influence_as_block_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # Influence during interaction (10.2.2), or in combat up to the Block phase, where
    # Influence becomes Block (LL-9.7.1)
    return gs.phase == PH_INTERACT or (gs.combat.active != 0 and gs.phase <= PH_COMBAT_BLOCK
                                       and gs.phase >= PH_COMBAT_RANGED)


cdef int learning_buy_aa(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Learning: Influence `influence` (given here, so that the card is playable while
    # moving too, LL-9.7.11-9.7.12); once this turn an AA from the offer for `cost`
    # Influence (A_LEARNING); engine reading: a second Learning this turn replaces the
    # first one's offer (one turn-long MK_LEARNING entry: value the price, arg 1 to the
    # discard pile / 2 to hand; used up by the purchase).
    gs.turn.influence += a[0] + card_bonus(gs)                     # 10.2.2
    mod_remove_kind(&gs.turn, MK_LEARNING)
    if a[1] > 0 and not give_mod_arg(gs, p, MK_LEARNING, MS_TURN, a[1], 2 if a[2] == 1 else 1, MOD_SET):
        return RES_ERROR
    return RES_DONE


cdef bint learning_buy_aa_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # LL-9.7.11-9.7.12 (LL-9.3: one of the cards whose Influence was never bound to an
    # interaction): during an interaction, or outside one while moving (no reputation
    # modifier; the Influence is lost when the action begins, LL-9.3.4); in combat for
    # its Influence where that has a use (Thugs, LL-4.3.4).  Engine limitation: the
    # purchase itself is offered only while moving or interacting, not while resting.
    return gs.phase == PH_MOVE or influence_usable(gs, es)


cdef int magic_talent_gain_spell(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int k, card
    # Magic Talent powered: pay one basic mana (5.4; gold by Day as any basic, 5.1.5);
    # a Spell of that colour goes from the offer to the discard pile (6.4.2 refill).
    # Stage 0: colour, 1: payment (ASK_PAYMENT), 2: offer slot.
    if choice < 0:
        options = talent_colour_options(gs, es)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_COLOUR, options)
        gs.turn.handler_stage = 0
    if gs.turn.handler_stage == 0:
        gs.turn.hvars[0] = <int16_t>choice
        options = pay_options(gs, choice)
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 1, ASK_PAYMENT, options)
        gs.turn.handler_stage = 1
    if gs.turn.handler_stage == 1:
        pay_take(gs, choice, gs.turn.hvars[0])
        options = 0
        for k in range(3):
            if gs.spell_offer[k] >= 0 and card_colour(es, gs.spell_offer[k]) == gs.turn.hvars[0]:
                options |= (<uint64_t>1) << k
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 2, ASK_OFFER, options)
    card = gs.spell_offer[choice]
    refill_offer(gs, gs.spell_offer, gs.spell_deck, &gs.n_spell_deck, choice)
    push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
    count_gained(es, pl, card)
    return RES_DONE


cdef bint magic_talent_gain_spell_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # special effects (6.3.3), also while interacting (10.2.7) - the borrowed effect
    # must be usable now (LL-9.6.2)
    if not special_timing(gs) and gs.phase != PH_INTERACT:
        return False
    return talent_colour_options(gs, es) != 0


cdef bint magic_talent_gain_spell_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return colour_pay_pending(c, gs, 2, talent_colour_options(gs, es), &gs.spell_offer[0])


cdef int magic_talent_play_spell(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int k, card
    # Magic Talent basic: discard a card (6.2.1); a Spell of its colour in the offer may
    # be played as if in hand - its mana paid as usual (6.1.4, 5.4.3) - and stays in the
    # offer.  Engine reading: it is cast now, as part of this card's effect (LL-9.6.1:
    # one single effect; its own colour kept, LL-9.6.3).  Stage 0: the card to discard
    # (ASK_HAND_CARD), 1: offer slot (ASK_OFFER), 2: mode + payment (ASK_OPTION, see
    # talent_spell_modes), 3: the black mana of the powered effect (ASK_PAYMENT).
    # hvars[0] = colour, hvars[1] = slot, hvars[2] = mode.
    if choice < 0:
        options = talent_discards(gs, es, row, False)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_HAND_CARD, options)
        gs.turn.handler_stage = 0
    if gs.turn.handler_stage == 0:
        card = pl.hand[choice]
        remove_at(pl.hand, &pl.n_hand, choice)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        gs.turn.hvars[0] = <int16_t>(card_colour(es, card) if a[0] else -1)   # base: any Spell
        options = talent_offer_slots(gs, es, gs.turn.hvars[0])
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 1, ASK_OFFER, options)
        gs.turn.handler_stage = 1
    if gs.turn.handler_stage == 1:
        gs.turn.hvars[1] = <int16_t>choice
        options = talent_spell_modes(gs, es, gs.spell_offer[choice])
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 2, ASK_OPTION, options)
        gs.turn.handler_stage = 2
    card = gs.spell_offer[gs.turn.hvars[1]]
    if gs.turn.handler_stage == 2:
        gs.turn.hvars[2] = <int16_t>(1 if choice >= 32 else 0)
        pay_take(gs, choice & 31, card_colour(es, card))          # 5.4.5
        if gs.turn.hvars[2] == 1:
            options = 0
            for k in range(n_pay_codes(gs)):
                if pay_ok(gs, k, BLACK) and playable_after_paying(gs, es, card, 1, k, PAY_NONE, BLACK):
                    options |= (<uint64_t>1) << k
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 3, ASK_PAYMENT, options)
            gs.turn.handler_stage = 3
    if gs.turn.handler_stage == 3:
        pay_take(gs, choice, BLACK)                                  # 5.4.3
    if gs.turn.spells_cast[card_colour(es, card)] < 127:
        gs.turn.spells_cast[card_colour(es, card)] += 1              # cast: the Rings' Fame
    gs.turn.resolving_card = <int16_t>card
    return push_eval(gs, es.card_powered[card * es.card_stride] if gs.turn.hvars[2] == 1
                     else es.card_basic[card * es.card_stride])


cdef bint magic_talent_play_spell_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef int lifted
    cdef bint ok
    # special effects (6.3.3), also while interacting (10.2.7) - the borrowed effect
    # must be usable now (LL-9.6.2)
    if not special_timing(gs) and gs.phase != PH_INTERACT:
        return False
    # the borrowed effect is checked as it will resolve: this card out of the hand
    lifted = lift_self(<GameState*>gs, es, row)
    ok = talent_discards(gs, es, row, False) != 0
    put_back(<GameState*>gs, lifted)
    return ok


cdef bint magic_talent_play_spell_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    # stage 1: hvars[0] = colour (-1 any); 2, 3: hvars[1] = the Spell's slot, 3: hvars[2] = 1
    if pc_stage(c, gs, 3):
        return True
    if stage == 0:
        return pc_asks(c, ASK_HAND_CARD)
    if stage == 1:
        return pc_hvar(c, gs, 0, -1, 3) or pc_asks(c, ASK_OFFER, -1, False, gs.spell_offer)
    if pc_hvar(c, gs, 1, 0, 2):
        return True
    if gs.spell_offer[gs.turn.hvars[1]] < 0:
        return pc_bad(c, PF_HVAR + 1, gs.turn.hvars[1], -1, -1)
    if stage == 3:
        return pc_hvar(c, gs, 2, 1, 1) or pc_asks(c, ASK_PAYMENT)
    # option = payment code (+ 32: powered)
    pc_asks(c, ASK_OPTION, ASK_DONE)
    return pc_subset(c, gs, talent_pay_codes(gs))


cdef int maximal_effect(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice, bint powered) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int card
    # Maximal Effect: another Action card from hand is thrown away (6.5.2) and its basic
    # effect used `times` times (powered: its powered effect, no mana paid) - one single
    # effect keeping that card's colour (LL-9.6.1, LL-9.6.3, LL-9.7.19-9.7.22).  Each use
    # resolves in turn (choices may differ, LL-9.7.20); maximal_step repeats it.
    if choice < 0 and gs.turn.maximal_row != 0 and gs.turn.maximal_self == row:
        return maximal_step(gs, es)                              # the next use
    if choice < 0:
        options = maximal_options(gs, es, row, 1 if powered else 0)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_HAND_CARD, options)
    card = pl.hand[choice]
    remove_at(pl.hand, &pl.n_hand, choice)
    pl.removed += 1                                              # thrown away
    gs.turn.resolving_card = <int16_t>card
    gs.turn.maximal_row = <int16_t>(1 + (es.card_powered[card * es.card_stride] if powered
                                         else es.card_basic[card * es.card_stride]))
    gs.turn.maximal_left = <int8_t>a[0]
    gs.turn.maximal_self = <int16_t>row
    return maximal_step(gs, es)


cdef int maximal_effect_basic(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    return maximal_effect(gs, es, st, p, row, choice, False)


cdef bint maximal_effect_basic_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef int lifted
    cdef bint ok
    # special effects (6.3.3), also while interacting (10.2.7) - the borrowed effect
    # must be usable now (LL-9.6.2)
    if not special_timing(gs) and gs.phase != PH_INTERACT:
        return False
    # the borrowed effect is checked as it will resolve: this card out of the hand
    lifted = lift_self(<GameState*>gs, es, row)
    ok = maximal_options(gs, es, row, 0) != 0
    put_back(<GameState*>gs, lifted)
    return ok


cdef int maximal_effect_powered(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    return maximal_effect(gs, es, st, p, row, choice, True)


cdef bint maximal_effect_powered_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef int lifted
    cdef bint ok
    # special effects (6.3.3), also while interacting (10.2.7) - the borrowed effect
    # must be usable now (LL-9.6.2)
    if not special_timing(gs) and gs.phase != PH_INTERACT:
        return False
    # the borrowed effect is checked as it will resolve: this card out of the hand
    lifted = lift_self(<GameState*>gs, es, row)
    ok = maximal_options(gs, es, row, 1) != 0
    put_back(<GameState*>gs, lifted)
    return ok


cdef int peaceful_moment_action(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Peaceful Moment: Influence `influence`.  Played in the movement part before any
    # action it is the turn's action (LL-8.1.1-8.1.2; not while resting, LL-8.1.3): no
    # more movement (4.4.5), Move points are lost (LL-9.3.4), and Influence buys Heal 1
    # per heal_cost (powered: also readies Units for ready_cost_per_level a level) with
    # A_PEACEFUL.  During an interaction it is Influence only.
    gs.turn.influence += a[0] + card_bonus(gs)
    if gs.phase == PH_MOVE and not gs.turn.action_taken:
        gs.turn.action_taken = 1
        gs.turn.move_points = 0
        gs.turn.peaceful = <uint8_t>(2 if a[2] == 1 else 1)
        gs.turn.peaceful_heal_cost = <int8_t>a[1]
        gs.turn.peaceful_ready_cost = <int8_t>a[3]
    elif gs.phase == PH_MOVE and gs.turn.peaceful and a[2] == 1:
        gs.turn.peaceful = 2               # a later use within the same action (Maximal Effect)
    return RES_DONE


cdef bint peaceful_moment_action_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # LL-8.1.2-8.1.3: as the action, in the movement part before any action; else its
    # Influence during an interaction
    # (or while it is the action already: Maximal Effect's later uses give their Influence)
    # (or while it is the action already: Maximal Effect's later uses give their Influence);
    # elsewhere its Influence where Influence has a use (LL-9.3.1, LL-4.3.4)
    return influence_usable(gs, es) or (gs.phase == PH_MOVE and (not gs.turn.action_taken
                                                                 or gs.turn.peaceful != 0))


cdef int stout_resolve(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int k, card, c
    # Stout Resolve: Move, Influence, Attack or Block `value` (stage 0, ASK_OPTION 0-3);
    # then discard cards for +bonus each (stage 1, ASK_HAND_CARD + ASK_DONE): basic a
    # Wound (any_cards=0), powered any cards with at most max_wounds Wounds (6.5.1:
    # the card allows discarding Wounds).  hvars: 0 kind, 1 bonus so far, 2 Wounds.
    if choice < 0:
        options = stout_kinds(gs, es)
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        gs.turn.hvars[1] = 0
        gs.turn.hvars[2] = 0
        choice = single_option(options)
        if choice < 0:
            return ask(gs, row, 0, ASK_OPTION, options)
        gs.turn.handler_stage = 0
    if gs.turn.handler_stage == 0:
        gs.turn.hvars[0] = <int16_t>choice
    elif choice != ASK_DONE:
        card = pl.hand[choice]
        remove_at(pl.hand, &pl.n_hand, choice)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        gs.turn.hvars[1] += a[1]
        if card == es.wound:
            gs.turn.hvars[2] += 1
    if choice != ASK_DONE and not (a[2] == 0 and gs.turn.hvars[1] > 0):
        options = stout_discards(gs, es, a)
        if options != 0:
            return ask(gs, row, 1, ASK_HAND_CARD, options | ((<uint64_t>1) << ASK_DONE))
    k = a[0] + gs.turn.hvars[1]
    c = gs.turn.hvars[0]
    if c == 0:
        gs.turn.move_points += k + move_bonus(gs)
    elif c == 1:
        gs.turn.influence += k + card_bonus(gs)                       # 10.2.2
    elif c == 2:
        gs.combat.attack[<int>MELEE][<int>PHYSICAL] += k + ambush_bonus(gs, 0) + card_bonus(gs)
    else:
        gs.combat.block[<int>PHYSICAL] += k + ambush_bonus(gs, 1) + card_bonus(gs)
    return RES_DONE


cdef bint stout_resolve_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return stout_kinds(gs, es) != 0


cdef bint stout_resolve_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    # hvars[0] = the kind (0 .. 3)
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_OPTION, 4)
    return pc_hvar(c, gs, 0, 0, 3) or pc_asks(c, ASK_HAND_CARD, -1, True)


cdef int temporal_portal(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int k
    # Temporal Portal: the turn's action (LL-8.1.1-8.1.2, not while resting LL-8.1.3):
    # the Hand limit of the next draw + hand_limit (LL-8.2.1), and the hero may move up
    # to `spaces` times to an adjacent revealed safe space (9.7.1) without provoking and
    # without Move points (LL-8.1.4, LL-3.1.4).  Stage 0: a direction (ASK_OPTION 0-5)
    # or ASK_DONE.  hvars[0] = moves left.  Used once a turn (LL-9.7.21: Maximal Effect).
    if choice < 0:
        if gs.turn.portal_used:
            return RES_DONE                                      # LL-9.7.21
        gs.turn.portal_used = 1
        gs.turn.action_taken = 1                                 # 4.4.5
        gs.turn.move_points = 0                                  # LL-9.3.4
        gs.turn.hand_limit_bonus += <int8_t>a[1]
        gs.turn.hvars[0] = <int16_t>a[0]
    elif choice == ASK_DONE:
        return RES_DONE
    else:
        k = gs.hexes[pl.position].neighbour[choice]
        pl.position = <int16_t>k
        if gs.turn.n_path < MAX_PATH:
            gs.turn.path[gs.turn.n_path] = <int16_t>k
            gs.turn.n_path += 1
        gs.turn.moved = 1
        gs.turn.hvars[0] -= 1
    if gs.turn.hvars[0] <= 0:
        return RES_DONE
    options = <uint64_t>portal_dirs(gs, st, p)
    if options == 0:
        return RES_DONE
    return ask(gs, row, 0, ASK_OPTION, options | ((<uint64_t>1) << ASK_DONE))


cdef bint temporal_portal_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_MOVE and not gs.turn.action_taken and not gs.turn.portal_used


cdef bint temporal_portal_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    # options: directions
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, 6, True) or pc_directions(c, gs)


cdef int block_strip_swift(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # base Utem Guardsmen / Altem Guardians: Block n; an enemy blocked this way loses
    # Swiftness (its attack is not doubled for this block, 11.6.5; add_block_extras).
    # The Lost Legion printing is block_double_vs_swift (LL-2.10.10).
    gs.combat.block[<int>PHYSICAL] += a[0] + ambush_bonus(gs, 1) + unit_combat_bonus(gs) + card_bonus(gs)
    if not give_mod(gs, p, MK_SWIFT_STRIP, MS_BLOCK, 1, MOD_ONCE):   # the Block pool's
        return RES_ERROR
    return RES_DONE


# ---------------------------------------------------------------------------------------
# The registry: one entry per handler (name, argument names, run, playable, pending, flags)
# ---------------------------------------------------------------------------------------

cdef enum:
    CAPACITY = 48

cdef HandlerEntry ADVANCED[CAPACITY]
cdef int N_ADVANCED = 0


cdef int entry(const char* name, const char* params, handler_run_t run, handler_playable_t playable,
               handler_pending_t pending=NULL, int flags=0) except -1:
    global N_ADVANCED
    if N_ADVANCED >= CAPACITY:
        raise RuntimeError("ext/_fx_advanced.pyx: more handlers than CAPACITY")
    ADVANCED[N_ADVANCED].name = name
    ADVANCED[N_ADVANCED].params = params
    ADVANCED[N_ADVANCED].run = run
    ADVANCED[N_ADVANCED].playable = playable
    ADVANCED[N_ADVANCED].pending = pending
    ADVANCED[N_ADVANCED].flags = flags
    N_ADVANCED += 1
    return 0


entry(b"ice_shield_block", b"block armor", ice_shield_block, block_phase_playable)
entry(b"pay_mana_by_colour", b"red blue white green", pay_mana_by_colour, pay_mana_by_colour_playable,
      pay_mana_by_colour_pending)
entry(b"throw_away_action_by_colour", b"red blue white green", throw_away_action_by_colour,
      throw_away_action_by_colour_playable, hand_card_pending)
entry(b"in_need", b"influence per_wound", in_need, influence_playable)
entry(b"crystal_mastery_copy", b"n", crystal_mastery_copy, crystal_mastery_copy_playable,
      crystal_mastery_copy_pending)
entry(b"crystal_mastery_return", b"", crystal_mastery_return, special_timing_playable)
entry(b"mana_storm_die_to_crystal", b"", mana_storm_die_to_crystal, mana_storm_die_to_crystal_playable,
      mana_storm_die_to_crystal_pending)
entry(b"mana_storm_powered", b"extra_dice", mana_storm_powered, special_timing_playable)
entry(b"ambush_bonus", b"attack block", ambush_bonus_run, special_timing_playable)
entry(b"counterattack", b"attack per_blocked", counterattack, attack_phase_playable)
entry(b"block_double_vs_swift", b"n", block_double_vs_swift, block_phase_playable)
entry(b"shield_bash", b"block armor_per_excess", shield_bash, block_phase_playable)
entry(b"spell_forge", b"crystals", spell_forge, spell_forge_playable, spell_forge_pending)
entry(b"agility_convert", b"move_per_attack move_per_ranged", agility_convert, special_timing_playable)
entry(b"terrain_cost_set", b"terrain cost", terrain_cost_set, move_phase_playable, NULL, HF_MOVEMENT_ONLY)
entry(b"terrain_passable", b"terrain safe", terrain_passable, move_phase_playable, NULL, HF_MOVEMENT_ONLY)
entry(b"mana_cost", b"colour optional then", mana_cost, mana_cost_playable, mana_cost_pending, HF_OPTIONAL_COST)
entry(b"mountain_lore_hand_limit", b"hills mountains", mountain_lore_hand_limit, special_timing_playable)
entry(b"steady_tempo_return", b"to_top", steady_tempo_return, special_timing_playable)
entry(b"training_gain_aa", b"to_hand", training_gain_aa, training_gain_aa_playable, training_gain_aa_pending)
entry(b"into_the_heat", b"bonus", into_the_heat, into_the_heat_playable)
entry(b"heroic_tale_bonus", b"reputation fame", heroic_tale_bonus, influence_playable)
entry(b"blood_of_ancients_gain_aa", b"wounds", blood_of_ancients_gain_aa, blood_of_ancients_gain_aa_playable,
      blood_of_ancients_gain_aa_pending)
entry(b"blood_of_ancients_use_aa", b"wounds", blood_of_ancients_use_aa, blood_of_ancients_use_aa_playable,
      blood_of_ancients_use_aa_pending, HF_PLAYS_OTHER_CARD)
entry(b"chivalry_attack", b"attack reputation fame", chivalry_attack, attack_phase_playable)
entry(b"dodge_and_weave_attack", b"attack", dodge_and_weave_attack, dodge_and_weave_attack_playable)
entry(b"influence_as_block", b"influence element", influence_as_block, influence_as_block_playable)
entry(b"learning_buy_aa", b"influence cost to_hand", learning_buy_aa, learning_buy_aa_playable)
entry(b"magic_talent_gain_spell", b"", magic_talent_gain_spell, magic_talent_gain_spell_playable,
      magic_talent_gain_spell_pending)
entry(b"magic_talent_play_spell", b"same_colour", magic_talent_play_spell, magic_talent_play_spell_playable,
      magic_talent_play_spell_pending, HF_PLAYS_OTHER_CARD)
entry(b"maximal_effect_basic", b"times", maximal_effect_basic, maximal_effect_basic_playable,
      hand_card_pending, HF_PLAYS_OTHER_CARD)
entry(b"maximal_effect_powered", b"times", maximal_effect_powered, maximal_effect_powered_playable,
      hand_card_pending, HF_PLAYS_OTHER_CARD)
entry(b"peaceful_moment_action", b"influence heal_cost ready_units ready_cost_per_level",
      peaceful_moment_action, peaceful_moment_action_playable)
entry(b"stout_resolve", b"value bonus any_cards max_wounds", stout_resolve, stout_resolve_playable,
      stout_resolve_pending)
entry(b"temporal_portal", b"spaces hand_limit", temporal_portal, temporal_portal_playable, temporal_portal_pending)
entry(b"block_strip_swift", b"n", block_strip_swift, block_phase_playable)
register_handler_group(HG_ADVANCED, ADVANCED, N_ADVANCED)
