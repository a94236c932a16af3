# cython: language_level=3
"""Named effect handlers of the tactic cards (rule 3.2): a handler group compiled as a module
of its own (ext/_fx_tactics.pxd is its header).  Protocol: see "Handler protocol" in
ext/_engine.pyx; TACTICS, at the end, is the group's registry (one entry per handler with
its name and declared argument names; the content's keyword arguments must match).

"When taken" tactics (3.1.3, 21.2 A28) resolve in take_tactic: Rethink, Mana Steal,
Preparation (Great Start is a plain draw(2)).  "Ongoing" tactics are used through the
action A_TACTIC_ABILITY(variant), offered where the engine's tactic_ability_ok() allows it,
which asks this module (tactic_ability_usable, registered with register_tactic_rules):
  before the turn (PH_TURN_START, 4.1): Midnight Meditation, Sparing Power, Long Night
  during the turn (PH_MOVE, PH_REST): The Right Moment, Mana Search, Long Night
  in the end-of-turn draw (END_LONG_NIGHT, 13.7.4): Long Night
Planning is no action: finish_turn adds planning_hand_bonus to the end-of-turn draw (13.7.2).
A once-per-round ability flips the card (Player.tactic_used, 3.2).  Before the handler
runs, apply_action stores the variant in gs.turn.hvars[7].  Which tactic a player holds is
recognised by its registry entry (handler_entry(es, hid).run == long_night ...), never by a
code number.  The round-end and turn-end bookkeeping that reads no tactic (Sparing Power's
cards back, the Mana Steal die returned) is the engine's (tactic_round_end, return_stolen_die).
"""
from libc.stdint cimport int16_t, int8_t, uint64_t, int32_t

from mksim._types cimport (GameState, Player, GOLD, PH_MOVE, PH_REST, PH_INTERACT, PH_TURN_START, PH_END_TURN,
                           MAX_DECK_CARDS, MAX_HAND_CARDS, MAX_DISCARD_CARDS, deeds_rng)
from mksim._state cimport Statics
from mksim._rng cimport rng_below, rng_shuffle_i16, STREAM_SOURCE
from mksim._knowledge cimport deck_taken, deck_shuffled
from mksim._engine cimport (
    EngineStatics, HandlerEntry, handler_run_t, handler_playable_t, handler_pending_t, PendingCheck,
    register_handler_group, handler_entry, HG_TACTICS, OP_HANDLER,
    RES_DONE, RES_ERROR, ERR_HANDLER, ERR_CAPACITY, ASK_DONE, ASK_HAND_CARD, ASK_DIE, ASK_DECK_CARD,
    erow, set_error, remove_at, row_args, ask, pc_stage, pc_hvar, pc_asks, pc_subset,
    push_card, draw_cards, tactic_effect_row, register_tactic_rules, END_LONG_NIGHT,
)

cdef enum:                     # the two tactics sharing one body (rethink_or_meditation)
    H_RETHINK = 0
    H_MIDNIGHT_MEDITATION = 6


# -- small helpers ----------------------------------------------------------------------

cdef uint64_t hand_options(const Player* pl) noexcept nogil:
    """Every hand card (Wounds included) as an option, plus ASK_DONE."""
    cdef uint64_t o = (<uint64_t>1) << ASK_DONE
    cdef int i
    for i in range(pl.n_hand):
        if i < ASK_DONE:
            o |= (<uint64_t>1) << i
    return o


cdef uint64_t search_options(const GameState* gs, int chosen) noexcept nogil:
    """Mana Search: Source dice that may be rerolled; gold dice must be chosen first
    (tactics.toml note), a die already chosen (`chosen`) is not offered again."""
    cdef uint64_t o = 0, gold = 0
    cdef int i
    for i in range(gs.n_dice):
        if i == chosen or (gs.dice_taken >> i) & 1:
            continue
        o |= (<uint64_t>1) << i
        if gs.dice[i] == GOLD:
            gold |= (<uint64_t>1) << i
    if gold:
        o = gold
    if o == 0:
        return 0
    return o | ((<uint64_t>1) << ASK_DONE)


# -- the handlers ---------------------------------------------------------------------------

cdef bint never_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return False    # tactic effects are never played from a card in hand


cdef int rethink_or_meditation(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                               int local, int choice) noexcept nogil:
    """Rethink and Midnight Meditation: one body, `local` = H_RETHINK or H_MIDNIGHT_MEDITATION."""
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i, k, card
    # Rethink (3.2, 21.2 A28): discard up to max_cards (Wounds allowed), draw as many,
    # then shuffle the discard pile into the Deed deck.
    # Midnight Meditation (3.2): shuffle up to max_cards hand cards (Wounds allowed)
    # into the Deed deck and draw that many; flip the card.
    # hvars[0] = cards chosen; chosen Meditation cards go onto the deck at once (the deck is
    # shuffled when the choosing ends), so no card is ever out of every zone between actions
    if choice < 0:
        gs.turn.hvars[0] = 0
        if local == H_MIDNIGHT_MEDITATION:
            pl.tactic_used = 1
            pl.used_before_turn = 1
    elif choice != ASK_DONE:
        card = pl.hand[choice]
        remove_at(pl.hand, &pl.n_hand, choice)
        if local == H_RETHINK:
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        else:
            push_card(pl.deck, &pl.n_deck, MAX_DECK_CARDS, card)
        gs.turn.hvars[0] += 1
    if choice != ASK_DONE and gs.turn.hvars[0] < a[0] and gs.turn.hvars[0] < 7 and pl.n_hand > 0:
        return ask(gs, row, 0, ASK_HAND_CARD, hand_options(pl))
    k = gs.turn.hvars[0]
    if local == H_RETHINK:
        draw_cards(gs, pl, k)
        for i in range(pl.n_discard):
            push_card(pl.deck, &pl.n_deck, MAX_DECK_CARDS, pl.discard[i])
        pl.n_discard = 0
        rng_shuffle_i16(deeds_rng(gs, pl), pl.deck, pl.n_deck)
        deck_shuffled(pl)
    else:
        rng_shuffle_i16(deeds_rng(gs, pl), pl.deck, pl.n_deck)
        deck_shuffled(pl)
        draw_cards(gs, pl, k)
    return RES_DONE


cdef int rethink(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    return rethink_or_meditation(gs, es, st, p, row, H_RETHINK, choice)


cdef int midnight_meditation(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    return rethink_or_meditation(gs, es, st, p, row, H_MIDNIGHT_MEDITATION, choice)


cdef int mana_steal(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i
    # 3.2 / 21.2 A7: take a Source die showing a basic colour, keep it on the card
    if a[0] != 1:
        set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    if choice < 0:
        for i in range(gs.n_dice):
            if gs.dice[i] < GOLD:
                options |= (<uint64_t>1) << i
        if options == 0:
            return RES_DONE                                  # no basic die: nothing to take
        return ask(gs, row, 0, ASK_DIE, options)
    pl.stolen_die = gs.dice[choice]
    for i in range(choice, gs.n_dice - 1):                   # out of the Source (A7)
        gs.dice[i] = gs.dice[i + 1]
    gs.n_dice -= 1
    return RES_DONE


cdef int preparation(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i, k, card
    # 3.2: search the Deed deck for a card, put it in hand, shuffle the deck
    if choice < 0:
        gs.turn.hvars[0] = 0
    else:
        card = pl.deck[choice]
        remove_at(pl.deck, &pl.n_deck, choice)
        push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, card)
        gs.turn.hvars[0] += 1
    if gs.turn.hvars[0] < a[0] and pl.n_deck > 0:
        if pl.n_deck > ASK_DONE:
            # a deck of more cards than the 63 options of a question (Wounds are unlimited,
            # 1.2.4): its Wounds go last (the deck is shuffled after the search anyway), so
            # every distinct card, a Wound included, is an option
            k = 0
            for i in range(pl.n_deck):
                if pl.deck[i] != es.wound:
                    pl.deck[k] = pl.deck[i]
                    k += 1
            if k >= ASK_DONE:                               # more non-Wounds than options
                set_error(gs, ERR_CAPACITY, 8, gs.turn.resolving_card)
                return RES_ERROR
            for i in range(k, pl.n_deck):
                pl.deck[i] = <int16_t>es.wound
        for i in range(pl.n_deck):
            if i < ASK_DONE:
                options |= (<uint64_t>1) << i
        return ask(gs, row, 0, ASK_DECK_CARD, options)
    rng_shuffle_i16(deeds_rng(gs, pl), pl.deck, pl.n_deck)
    deck_shuffled(pl)
    return RES_DONE


cdef int the_right_moment(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    # 3.2: another turn immediately after this one; flip the card
    if a[0] != 1:
        set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
    gs.turn.extra_turn = 1
    pl.tactic_used = 1
    return RES_DONE


cdef int long_night(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i
    # 3.2: shuffle the discard pile, `cards` random cards of it become the Deed deck
    pl.tactic_used = 1
    rng_shuffle_i16(deeds_rng(gs, pl), pl.discard, pl.n_discard)
    for i in range(a[0]):
        if pl.n_discard == 0:
            break
        pl.n_discard -= 1
        push_card(pl.deck, &pl.n_deck, MAX_DECK_CARDS, pl.discard[pl.n_discard])
    pl.deck_known_top = 0                                    # random cards now lie on top
    return RES_DONE


cdef int mana_search(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int i
    # 3.2: reroll up to `dice` Source dice (chosen first, then rerolled together)
    if choice < 0:
        gs.turn.tactic_turn |= TT_MANA_SEARCH
        gs.turn.hvars[0] = 0
    elif choice != ASK_DONE:
        gs.turn.hvars[1 + gs.turn.hvars[0]] = <int16_t>choice
        gs.turn.hvars[0] += 1
    if choice != ASK_DONE and gs.turn.hvars[0] < a[0] and gs.turn.hvars[0] < 7:
        options = search_options(gs, gs.turn.hvars[1] if gs.turn.hvars[0] > 0 else -1)
        if gs.turn.hvars[0] >= 2:
            options = 0                                       # (at most 2 tracked)
        if options != 0:
            return ask(gs, row, 0, ASK_DIE, options)
    for i in range(gs.turn.hvars[0]):
        gs.dice[gs.turn.hvars[1 + i]] = <int8_t>rng_below(&gs.rng[<int>STREAM_SOURCE], 6)
    return RES_DONE


cdef int sparing_power(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i
    # 3.2: variant 0: top card of the deck under the card; 1: flip, take them all
    pl.used_before_turn = 1
    if gs.turn.hvars[7] == 0:
        for i in range(a[0]):
            if pl.n_deck > 0 and pl.n_tactic_cards < 8:
                pl.n_deck -= 1
                pl.tactic_cards[pl.n_tactic_cards] = pl.deck[pl.n_deck]
                deck_taken(pl, 1)
                pl.n_tactic_cards += 1
    else:
        pl.tactic_used = 1
        for i in range(pl.n_tactic_cards):
            push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, pl.tactic_cards[i])
            pl.tactic_cards[i] = -1
        pl.n_tactic_cards = 0
    return RES_DONE


cdef int planning(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    # Planning is applied by finish_turn (planning_hand_bonus), never resolved as an effect
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR


# -- bounds of a pending question (pending_check, _engine.pyx) -------------------------------

cdef bint rethink_or_meditation_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                                        int row, PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_hvar(c, gs, 0, 0, 6) or pc_asks(c, ASK_HAND_CARD, -1, True)


cdef bint mana_steal_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                             int row, PendingCheck* c) noexcept nogil:
    """A die showing a basic colour (3.2)."""
    cdef uint64_t basic = 0
    cdef int i
    for i in range(gs.n_dice):
        if gs.dice[i] < GOLD:
            basic |= (<uint64_t>1) << i
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_DIE) or pc_subset(c, gs, basic)


cdef bint preparation_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                              int row, PendingCheck* c) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return pc_stage(c, gs, 0) or pc_hvar(c, gs, 0, 0, a[0] - 1 if a[0] > 0 else 0) \
        or pc_asks(c, ASK_DECK_CARD)


cdef bint mana_search_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                              int row, PendingCheck* c) noexcept nogil:
    """hvars[1 + i]: the dice chosen so far."""
    if pc_stage(c, gs, 0) or pc_hvar(c, gs, 0, 0, 1):
        return True
    if gs.turn.hvars[0] == 1 and pc_hvar(c, gs, 1, 0, gs.n_dice - 1):
        return True
    return pc_asks(c, ASK_DIE, -1, True) \
        or pc_subset(c, gs, search_options(gs, gs.turn.hvars[1] if gs.turn.hvars[0] > 0 else -1))


# -- the tactics' rules the loop asks (register_tactic_rules) ----------------------------------

cdef const HandlerEntry* tactic_entry(const GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """The registry entry of player p's tactic this round, NULL = none / no handler."""
    cdef int t = gs.players[p].tactic
    cdef const int32_t* r
    if t < 0:
        return NULL
    r = erow(es, tactic_effect_row(es, t))
    if r[0] != OP_HANDLER:
        return NULL
    return handler_entry(es, r[1])


cdef bint tactic_ability_usable(const GameState* gs, const EngineStatics* es, int variant) noexcept nogil:
    """Can the current player use the ongoing ability of their tactic now (3.2, 4.1)?"""
    cdef int p = gs.current
    cdef const Player* pl = &gs.players[p]
    cdef const HandlerEntry* e = tactic_entry(gs, es, p)
    cdef handler_run_t run
    cdef int phase = gs.phase, i
    cdef bint during = phase == PH_MOVE or phase == PH_REST or phase == PH_INTERACT   # 10.2.7
    cdef bint end_draw = phase == PH_END_TURN and gs.turn.end_stage == END_LONG_NIGHT
    if e == NULL or gs.turn.handler_row >= 0 or gs.turn.pending_choice >= 0:
        return False
    run = e.run
    if end_draw and run != <handler_run_t>long_night:
        return False
    if variant != 0 and run != <handler_run_t>sparing_power:
        return False
    if run == <handler_run_t>the_right_moment:
        # 3.2: once this round, during your turn.  Engine decision: not once the End of the
        # Round is announced or the scenario's final turns run (the extra turn would follow
        # a player's last turn, 4.2.1 / 14.3.2).
        return during and not pl.tactic_used and gs.end_announced_by < 0 and gs.final_turns_left == 0
    if run == <handler_run_t>long_night:
        # 3.2: once this round, when the Deed deck is empty; also mid-draw (13.7.4)
        return (during or end_draw or phase == PH_TURN_START) and not pl.tactic_used \
            and pl.n_deck == 0 and pl.n_discard > 0
    if run == <handler_run_t>mana_search:
        # 3.2: once per turn, before taking mana from the Source (5.5.3: a die is taken
        # when used, so: no die taken yet this turn)
        if not during or (gs.turn.tactic_turn & TT_MANA_SEARCH) or gs.turn.dice_used > 0 or gs.dice_taken != 0:
            return False
        return gs.n_dice > 0
    if run == <handler_run_t>midnight_meditation:
        # 3.2 / 4.1: once this round, before one of your turns
        return phase == PH_TURN_START and not pl.tactic_used and not pl.used_before_turn and pl.n_hand > 0
    if run == <handler_run_t>sparing_power:
        # 3.2 / 4.1: once before each of your turns: store the deck's top card, or flip
        # the card and take the stored cards
        if phase != PH_TURN_START or pl.tactic_used or pl.used_before_turn:
            return False
        if variant == 0:
            return pl.n_deck > 0 and pl.n_tactic_cards < 8
        if variant == 1:
            return pl.n_tactic_cards > 0
        return False
    return False


cdef int planning_hand_bonus(const GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """3.2 Planning / 13.7.2: Hand limit + hand_bonus if at least min_hand cards in hand
    before drawing."""
    cdef const int32_t* a
    cdef const HandlerEntry* e = tactic_entry(gs, es, p)
    if e == NULL or e.run != <handler_run_t>planning:
        return 0
    a = row_args(es, tactic_effect_row(es, gs.players[p].tactic))
    if gs.players[p].n_hand >= a[1]:
        return a[0]
    return 0


# ---------------------------------------------------------------------------------------
# The registry: one entry per handler (name, argument names, run, playable, pending, flags)
# ---------------------------------------------------------------------------------------

cdef enum:
    CAPACITY = 16

cdef HandlerEntry TACTICS[CAPACITY]
cdef int N_TACTICS = 0


cdef int entry(const char* name, const char* params, handler_run_t run, handler_playable_t playable,
               handler_pending_t pending=NULL, int flags=0) except -1:
    global N_TACTICS
    if N_TACTICS >= CAPACITY:
        raise RuntimeError("ext/_fx_tactics.pyx: more handlers than CAPACITY")
    TACTICS[N_TACTICS].name = name
    TACTICS[N_TACTICS].params = params
    TACTICS[N_TACTICS].run = run
    TACTICS[N_TACTICS].playable = playable
    TACTICS[N_TACTICS].pending = pending
    TACTICS[N_TACTICS].flags = flags
    N_TACTICS += 1
    return 0


entry(b"rethink", b"max_cards", rethink, never_playable, rethink_or_meditation_pending)
entry(b"mana_steal", b"dice", mana_steal, never_playable, mana_steal_pending)
entry(b"planning", b"hand_bonus min_hand", planning, never_playable)
entry(b"the_right_moment", b"extra_turns", the_right_moment, never_playable)
entry(b"long_night", b"cards", long_night, never_playable)
entry(b"mana_search", b"dice", mana_search, never_playable, mana_search_pending)
entry(b"midnight_meditation", b"max_cards", midnight_meditation, never_playable, rethink_or_meditation_pending)
entry(b"preparation", b"cards", preparation, never_playable, preparation_pending)
entry(b"sparing_power", b"cards", sparing_power, never_playable)
register_handler_group(HG_TACTICS, TACTICS, N_TACTICS)
register_tactic_rules(tactic_ability_usable, planning_hand_bonus)
