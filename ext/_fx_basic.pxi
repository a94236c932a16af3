# Named effect handlers of the Basic Action cards (incl. hero cards), included into
# ext/_engine.pyx.  Protocol: see "Handler protocol" in _engine.pyx.  BASIC_HANDLERS lists
# (name, declared argument names) in handler-code order; the content's keyword arguments
# must match them exactly.

BASIC_HANDLERS = (
    ("discard_cost", ("n", "then")),
)

cdef enum BasicHandler:
    H_DISCARD_COST = 0


cdef int basic_handler(GameState* gs, const EngineStatics* es, const Statics* st,
                       int p, int row, int local, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i
    if local == H_DISCARD_COST:
        # 6.2.1-6.2.2: "Discard another card: E" - a non-Wound card from hand goes to the
        # discard pile, then E resolves (a = n, then).  No card to discard: no effect.
        if choice < 0:
            for i in range(pl.n_hand):
                if pl.hand[i] != es.wound and i < 64:
                    options |= (<uint64_t>1) << i
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_HAND_CARD, options)
        i = pl.hand[choice]
        remove_at(pl.hand, &pl.n_hand, choice)
        push_card(pl.discard, &pl.n_discard, i)
        return push_eval(gs, a[1])
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR


cdef bint basic_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    """Whether the handler can do something now (called while the card is still in hand)."""
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, others = 0
    if local == H_DISCARD_COST:
        for i in range(pl.n_hand):
            if pl.hand[i] != es.wound:
                others += 1
        # the card itself is still in hand: another non-Wound card is needed (6.2.2)
        return others >= 2 and node_playable(gs, es, a[1])
    return False
