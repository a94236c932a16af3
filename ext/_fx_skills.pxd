# Header of ext/_fx_skills.pyx: the Skills' handler group (a module of its own).  The
# handlers themselves are reached through the group's registry (HandlerEntry,
# ext/_engine.pxd); declared here are the helpers another group may share.
from mksim._types cimport GameState, PH_MOVE, PH_REST, PH_INTERACT


cdef inline bint special_now(const GameState* gs) noexcept nogil:
    """6.3.3: a special effect may be played any time during the turn, combat and
    interaction included.  (The same test as special_now of ext/_fx_spells.pxi, which the
    engine still includes: one of the two goes when the Spells group becomes a module.)"""
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0
