# Header of ext/_fx_spells.pyx: the Spell cards' handler group (a module of its own).
# The handlers themselves are reached through the group's registry (HandlerEntry,
# ext/_engine.pxd); declared here are the helpers another group shares (the Druidic Staff of
# ext/_fx_artifacts.pyx travels like Underground Travel and discards like Sword of Justice).
from libc.stdint cimport uint64_t
from mksim._types cimport GameState
from mksim._state cimport Statics
from mksim._engine cimport EngineStatics, PendingCheck

cdef uint64_t non_wound_hand(const GameState* gs, const EngineStatics* es) noexcept nogil
cdef bint travel_playable(const GameState* gs, int spaces, int per) noexcept nogil
cdef int travel(GameState* gs, const Statics* st, int p, int row, int choice, int spaces, int per) noexcept nogil
cdef bint pc_travel(PendingCheck* c, const GameState* gs, bint attack) noexcept nogil
