# Header of ext/_fx_tactics.pyx: the tactic cards' handler group (a module of its own).
# The handlers themselves are reached through the group's registry (HandlerEntry,
# ext/_engine.pxd), the ongoing abilities' rules through register_tactic_rules; declared
# here are the helpers another group may share.
from libc.stdint cimport uint64_t
from mksim._types cimport GameState, Player

cdef enum:
    TT_MANA_SEARCH = 1         # gs.turn.tactic_turn bit: Mana Search used this turn

cdef uint64_t hand_options(const Player* pl) noexcept nogil
cdef uint64_t search_options(const GameState* gs, int chosen) noexcept nogil
