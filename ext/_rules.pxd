# Header of ext/_rules.pyx: movement and exploration rules (9.2-9.9, 17.1, 21.2 A9-A11).
#
# Pure C steps on one GameState plus the static Statics views of _state (no Python object,
# `noexcept nogil`).  Hexes are indices into gs.hexes; tile positions are lattice (a, b)
# (see _hexmap.pxd).  Negative return values are "no" / error codes (RULES_* below).
from mksim._types cimport GameState
from mksim._state cimport Statics

cdef enum RulesCode:
    RULES_INACCESSIBLE = -1        # move_cost: lake, mountain, off the map (9.2, 9.2.2)
    RULES_STACK_EMPTY = -2         # explorable: the tile stack is empty (see box_explorable, 9.8.8)
    RULES_ILLEGAL = -3             # explore: position not explorable from the hero's space
    RULES_PLACE_FAILED = -4        # explore: place_tile refused (capacity)

cdef enum:
    MAX_EXPLORABLE = 6             # a tile position has 6 neighbours; a hex touches at most 3

cdef int move_cost(const GameState* gs, const Statics* st, int hex) noexcept nogil
cdef int terrain_move_cost(const GameState* gs, int terrain) noexcept nogil
cdef void terrain_costs(const GameState* gs, int* costs) noexcept nogil
cdef int move_cost_in(const GameState* gs, const Statics* st, int hex, const int* costs) noexcept nogil
cdef bint is_rampaging(const GameState* gs, const Statics* st, int hex) noexcept nogil
cdef bint can_enter(const GameState* gs, const Statics* st, int from_hex, int to_hex) noexcept nogil
cdef bint ends_movement(const GameState* gs, const Statics* st, int hex, int player) noexcept nogil
cdef int provokes(const GameState* gs, const Statics* st, int from_hex, int to_hex) noexcept nogil
cdef bint is_safe(const GameState* gs, const Statics* st, int hex, int player) noexcept nogil
cdef int tile_at(const GameState* gs, int a, int b) noexcept nogil
cdef int explorable(const GameState* gs, const Statics* st, int hex, int* out_positions) noexcept nogil
cdef int explore(GameState* gs, const Statics* st, int player, int a, int b) noexcept nogil
cdef int box_tile_kind(const GameState* gs, const Statics* st) noexcept nogil
cdef int box_explorable(const GameState* gs, const Statics* st, int hex, int* out_positions) noexcept nogil
cdef int explore_from_box(GameState* gs, const Statics* st, int player, int a, int b) noexcept nogil
