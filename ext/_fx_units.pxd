# Header of ext/_fx_units.pyx: the Unit cards' handler group (a module of its own).
# The handlers themselves are reached through the group's registry (HandlerEntry,
# ext/_engine.pxd); declared here are the helpers another group may share.
from libc.stdint cimport int16_t, uint64_t
from mksim._types cimport GameState
from mksim._state cimport Statics
from mksim._engine cimport EngineStatics

cdef enum UnitEnemyEffect:     # the enemy-targeted effects sharing one body (unit_enemy_targets)
    U_LOSE_FORTIFICATION = 8
    U_LOSE_RESISTANCES = 9
    U_LOSE_BOTH = 10
    U_UNFORTIFIED_NO_ATTACK = 11
    U_AMOTEP_FREEZE = 12
    U_DESTROY_IF_BLOCKED = 13
    U_SHOCK_WEAKEN = 14

cdef enum:
    RECON_HEX_OPTIONS = 57     # ASK_OPTION 6.. 62: face-down tokens on the map (0-5: enemy piles)

cdef uint64_t unit_enemy_targets(const GameState* gs, const EngineStatics* es, int local) noexcept nogil
cdef uint64_t units_without_res(const GameState* gs, int res_bit) noexcept nogil
cdef int recon_options(const GameState* gs, const Statics* st, int distance, int16_t* tokens) noexcept nogil
