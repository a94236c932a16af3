# Header of ext/_fx_advanced.pyx: the Advanced Action cards' handler group (a module of its
# own).  The handlers themselves are reached through the group's registry (HandlerEntry,
# ext/_engine.pxd); declared here are the helpers another group may share.  (The Advanced
# Action rules the loop and the included groups call are in ext/_engine_advanced.pxi.)
from mksim._types cimport GameState, PH_MOVE, PH_REST
from mksim._engine cimport EngineStatics


cdef inline bint special_timing(const GameState* gs) noexcept nogil:
    """6.3.3: a special effect may be played any time during the turn, combat included."""
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.combat.active != 0


cdef bint plays_other_card(const EngineStatics* es, int row) noexcept nogil
