# Named effect handlers of the tactic cards (rule 3.2), included into ext/_engine.pyx.
# Protocol: see "Handler protocol" in _engine.pyx.  TACTICS_HANDLERS lists (name, declared
# argument names) in handler-code order; the content's keyword arguments must match.

TACTICS_HANDLERS = (
)


cdef int tactics_handler(GameState* gs, const EngineStatics* es, const Statics* st,
                         int p, int row, int local, int choice) noexcept nogil:
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR


cdef bint tactics_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    return False
