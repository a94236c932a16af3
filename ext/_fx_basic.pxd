# Header of ext/_fx_basic.pyx: the Basic Action cards' handler group (a module of its own).
# The handlers themselves are reached through the group's registry (HandlerEntry,
# ext/_engine.pxd); declared here are the helpers another group may share.
from libc.stdint cimport uint64_t
from mksim._types cimport GameState
from mksim._engine cimport EngineStatics

cdef uint64_t crystal_pay_options(const GameState* gs, int colour) noexcept nogil
cdef bint concentration_target(const GameState* gs, const EngineStatics* es, int card, int leaving) noexcept nogil
cdef uint64_t crystal_colours_payable(const GameState* gs) noexcept nogil
cdef uint64_t dice_not_taken(const GameState* gs) noexcept nogil
