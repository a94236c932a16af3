# cython: language_level=3
"""Movement and exploration rules (9.2-9.9, 17.1, 17.3.1, 21.2 A9-A11).

The C functions (``noexcept nogil``, declared in ``_rules.pxd``) work on one GameState and
the static views of ``_state.Statics`` (tile table, site codes, map shape).  :class:`Rules`
is a thin Python surface over a :class:`mksim._state.GameCore` for tests and tools: it
calls the C functions and offers a few setters to build test situations.
"""
from libc.stdint cimport int8_t, int16_t, int32_t

from mksim._types cimport (
    GameState, Hex, Tile, Player, MAX_TILES, NUM_TERRAINS, DAY, NIGHT, LAKE, MOUNTAIN,
    HEX_CONQUERED, MK_WEATHER_OTHERS, Modifier, MS_TURN, MK_TERRAIN_DELTA, MK_TERRAIN_FLOOR,
    MK_TERRAIN_SET, MK_TERRAIN_OPEN, MK_TERRAIN_SAFE, MK_TERRAIN_CLOSED, MK_WEATHER_OWN,
)
from mksim._modifiers cimport mod_sum_others, mod_add, mod_remove_at
from mksim._state cimport GameCore, Statics, place_tile, reveal_sites
from mksim._hexmap cimport LATTICE_DIRS, lattice_to_axial, hex_distance
from mksim._rng cimport rng_below, STREAM_MAP

cdef enum:
    # tile kinds (content.TILE_KINDS)
    TILE_COUNTRYSIDE = 1
    TILE_CORE = 2
    TILE_CITY = 3
    EXPLORE_COST = 2           # 9.8.3
    CITY_MOVE_COST = 2         # 21.2 A9

# 9.2 table [time][terrain]: plains hills forest wasteland desert swamp lake mountain
cdef int TERRAIN_COST[2][8]
TERRAIN_COST[0][:] = [2, 3, 3, 4, 5, 5, -1, -1]   # Day
TERRAIN_COST[1][:] = [2, 3, 5, 4, 3, 5, -1, -1]   # Night


# ---------------------------------------------------------------------------------------
# Movement (9.2-9.7)
# ---------------------------------------------------------------------------------------

cdef enum:
    HEX_IS_CITY = -2           # hex_terrain: a city space (its terrain does not matter, 21.2 A9)


cdef inline int hex_terrain(const GameState* gs, const Statics* st, int hex) noexcept nogil:
    """The hex's terrain code; -1 off the map (9.2.2) or unknown; HEX_IS_CITY for a city."""
    cdef int terrain
    if hex < 0 or hex >= gs.n_hexes:
        return -1
    if gs.hexes[hex].site == st.sites.city:
        return HEX_IS_CITY
    terrain = gs.hexes[hex].terrain
    if terrain < 0 or terrain >= NUM_TERRAINS:
        return -1
    return terrain


cdef int move_cost(const GameState* gs, const Statics* st, int hex) noexcept nogil:
    """Move points to enter a hex; RULES_INACCESSIBLE (-1) for lake / mountain (9.2) and for
    hexes not on the map (9.2.2).  A city space costs 2 whatever its terrain (21.2 A9; the
    terrain modifiers do not apply to it).  Otherwise terrain_move_cost."""
    cdef int terrain = hex_terrain(gs, st, hex)
    if terrain == HEX_IS_CITY:
        return CITY_MOVE_COST
    if terrain < 0:
        return RULES_INACCESSIBLE
    return terrain_move_cost(gs, terrain)


cdef int move_cost_in(const GameState* gs, const Statics* st, int hex, const int* costs) noexcept nogil:
    """move_cost with the terrains' costs of terrain_costs (a path search: the turn's
    modifiers read once per search, not once per space)."""
    cdef int terrain = hex_terrain(gs, st, hex)
    if terrain == HEX_IS_CITY:
        return CITY_MOVE_COST
    if terrain < 0:
        return RULES_INACCESSIBLE
    return costs[terrain]


cdef void terrain_costs(const GameState* gs, int* costs) noexcept nogil:
    """costs[t] = terrain_move_cost(gs, t) for every terrain (NUM_TERRAINS entries)."""
    cdef int t
    for t in range(NUM_TERRAINS):
        costs[t] = terrain_move_cost(gs, t)


cdef int terrain_move_cost(const GameState* gs, int terrain) noexcept nogil:
    """Move points to enter a space of `terrain` (not a city) this turn, RULES_INACCESSIBLE
    for a lake / mountain (9.2).  The 9.2 cost by Day / Night, replaced by a cost set for
    the turn (MK_TERRAIN_SET: Path Finding powered, Frost Bridge, ...; 9.6.1; of two the
    lower), plus the MK_TERRAIN_DELTA changes (9.6.2), floored at 0.  A lake / mountain
    made passable this turn (MK_TERRAIN_OPEN: Frost Bridge, Song of Wind, Mountain Lore)
    costs the value its effect set; opened without a set cost it stays inaccessible (the
    content always pairs terrain_passable with terrain_cost_set); MK_TERRAIN_CLOSED (Mist
    Form) closes it.  The terrain modifiers are turn-long entries of gs.turn.mods with arg
    = terrain + 1 or 0 for every terrain (docs/engine.md "Events and modifiers").
    Engine reading: a set cost replaces the printed cost first and reductions apply to it
    (Path Finding powered + Song of Wind: plains 2 - 1 = 1).  A reduction with a floor
    (MK_TERRAIN_FLOOR: Path Finding basic, -1 but min 2; the highest floor) stops at it.
    Then the player's own Prayer of Weather (MK_WEATHER_OWN, every terrain, 8.2.2) and
    another player's (MK_WEATHER_OTHERS)."""
    cdef int c = TERRAIN_COST[1 if gs.time == NIGHT else 0][terrain], base, w
    cdef int i, k, a, v, set1 = 0, delta = 0, floor = 0, n = gs.turn.n_mods, pdelta = 0, pfloor = 0
    cdef bint opened = False
    cdef const Modifier* m
    if n:
        for i in range(n):
            m = &gs.turn.mods[i]
            k = m.kind
            if k == MK_WEATHER_OWN:                      # arg = its floor, not a terrain
                pdelta += m.value
                pfloor = m.arg
                continue
            a = m.arg
            if a != 0 and a != terrain + 1:
                continue
            v = m.value
            if k == MK_TERRAIN_DELTA:
                delta += v
            elif k == MK_TERRAIN_FLOOR:
                if v > floor:
                    floor = v
            elif k == MK_TERRAIN_SET:
                if set1 == 0 or v + 1 < set1:
                    set1 = v + 1
            elif k == MK_TERRAIN_OPEN:
                opened = True
            elif k == MK_TERRAIN_CLOSED:
                return RULES_INACCESSIBLE                # (Mist Form: hills, mountains)
        if c < 0 and not opened:
            return RULES_INACCESSIBLE                    # 9.2
        if set1 > 0:
            c = set1 - 1                                 # 9.6.1: cost set for the turn
        elif c < 0:
            return RULES_INACCESSIBLE
        base = c
        c += delta
        if floor > 0 and c < floor:
            # "costs -1 (min 2)": a reduction stops at the floor, a cost already below it stays
            c = floor if base >= floor else base
        if pdelta != 0:
            # Prayer of Weather "-2 (min 1)": reductions may be applied in any order (9.6.2);
            # the one with the lowest floor last is never worse
            base = c
            c += pdelta
            if c < pfloor:
                c = pfloor if base >= pfloor else base
        if gs.n_players > 1:
            # another player's Prayer of Weather (8.2.2): + value, a raise stops at arg (max 5);
            # a cost already above it stays
            w = mod_sum_others(&gs.turn, MK_WEATHER_OTHERS, gs.current)
            if w > 0:
                base = c
                c += w
                if c > weather_max(gs) and base <= weather_max(gs):
                    c = weather_max(gs)
                elif c > weather_max(gs):
                    c = base
    elif c < 0:
        return RULES_INACCESSIBLE                        # 9.2
    if c < 0:
        c = 0  # 9.6.2: never below 0
    return c


cdef int weather_max(const GameState* gs) noexcept nogil:
    """The cap of another player's Prayer of Weather raise (its modifier's arg)."""
    cdef int i
    for i in range(gs.turn.n_mods):
        if gs.turn.mods[i].kind == MK_WEATHER_OTHERS and gs.turn.mods[i].owner != gs.current:
            return gs.turn.mods[i].arg
    return 127


cdef bint normally_accessible(const GameState* gs, const Statics* st, int hex) noexcept nogil:
    """9.7.1: accessible under normal rules, without effects: on the map and not lake /
    mountain (a city space always is, 21.2 A9) - unless an effect made that terrain safe
    (Mountain Lore powered: an MK_TERRAIN_SAFE modifier, arg = terrain + 1)."""
    cdef int terrain = hex_terrain(gs, st, hex), i
    if terrain == HEX_IS_CITY:
        return True
    if terrain < 0:
        return False
    if TERRAIN_COST[0][terrain] >= 0:
        return True
    for i in range(gs.turn.n_mods):
        if gs.turn.mods[i].kind == MK_TERRAIN_SAFE and gs.turn.mods[i].arg == terrain + 1:
            return True
    return False


cdef bint is_rampaging(const GameState* gs, const Statics* st, int hex) noexcept nogil:
    """A rampaging enemy token lies on the hex (9.4.2, 10.7.14)."""
    cdef int site
    if hex < 0 or hex >= gs.n_hexes:
        return False
    site = gs.hexes[hex].site
    return ((site == st.sites.rampaging_orc or site == st.sites.rampaging_draconum)
            and gs.hexes[hex].n_tokens > 0)


cdef inline bint adjacent(const GameState* gs, int h1, int h2) noexcept nogil:
    cdef int d
    for d in range(6):
        if gs.hexes[h1].neighbour[d] == h2:
            return True
    return False


cdef bint can_enter(const GameState* gs, const Statics* st, int from_hex, int to_hex) noexcept nogil:
    """One normal step (9.3.5): to_hex is adjacent to from_hex, accessible (9.2) and not
    occupied by a rampaging enemy (9.4.2).  Affordability is the caller's check."""
    if from_hex < 0 or from_hex >= gs.n_hexes or to_hex < 0 or to_hex >= gs.n_hexes:
        return False
    if not adjacent(gs, from_hex, to_hex):
        return False
    if move_cost(gs, st, to_hex) < 0:
        return False
    return not is_rampaging(gs, st, to_hex)


cdef bint ends_movement(const GameState* gs, const Statics* st, int hex, int player) noexcept nogil:
    """9.4.1: entering an unconquered fortified site (keep, mage tower, city) or a keep
    owned by another player ends movement (an assault, 11.1.1)."""
    cdef int site
    cdef const Hex* hx
    if hex < 0 or hex >= gs.n_hexes:
        return False
    hx = &gs.hexes[hex]
    site = hx.site
    if site != st.sites.keep and site != st.sites.mage_tower and site != st.sites.city:
        return False
    if not (hx.flags & HEX_CONQUERED):
        return True
    return site == st.sites.keep and hx.owner >= 0 and hx.owner != player


cdef int provokes(const GameState* gs, const Statics* st, int from_hex, int to_hex) noexcept nogil:
    """9.4.3: bitmask over from_hex's neighbour directions (HEX_DIRS order) of the rampaging
    enemy spaces adjacent to both from_hex and to_hex; 0 = the move provokes nobody."""
    cdef int d, n, mask = 0
    if from_hex < 0 or from_hex >= gs.n_hexes or to_hex < 0 or to_hex >= gs.n_hexes:
        return 0
    for d in range(6):
        n = gs.hexes[from_hex].neighbour[d]
        if n >= 0 and n != to_hex and is_rampaging(gs, st, n) and adjacent(gs, n, to_hex):
            mask |= 1 << d
    return mask


cdef bint is_safe(const GameState* gs, const Statics* st, int hex, int player) noexcept nogil:
    """9.7.1: accessible under normal rules (9.2, 9.4.2), not an unconquered fortified site
    nor a keep owned by an opponent (9.4.1), and no other hero on it unless several heroes
    may share it (portal, conquered city; 9.5.5).  The dummy has no figure (18)."""
    cdef int p, site
    cdef bint shared
    if not normally_accessible(gs, st, hex) or is_rampaging(gs, st, hex):
        return False                                    # 9.7.1 (9.6.3: effects do not count)
    if ends_movement(gs, st, hex, player):
        return False
    site = gs.hexes[hex].site
    shared = site == st.sites.portal or (site == st.sites.city and (gs.hexes[hex].flags & HEX_CONQUERED))
    if not shared:
        for p in range(gs.n_players):
            if p != player and gs.players[p].position == hex:
                return False
    return True


# ---------------------------------------------------------------------------------------
# Exploration (9.8, 17.1, 21.2 A10-A11)
# ---------------------------------------------------------------------------------------

cdef int tile_at(const GameState* gs, int a, int b) noexcept nogil:
    """Slot of the tile at lattice position (a, b), -1 = empty."""
    cdef int k
    for k in range(gs.n_tiles):
        if gs.tiles[k].a == a and gs.tiles[k].b == b:
            return k
    return -1


cdef int placed_neighbours(const GameState* gs, int a, int b) noexcept nogil:
    """Number of placed tiles adjacent to position (a, b) (9.8.7 counts these)."""
    cdef int k, n = 0
    for k in range(6):
        if tile_at(gs, a + LATTICE_DIRS[k][0], b + LATTICE_DIRS[k][1]) >= 0:
            n += 1
    return n


cdef bint shape_has(const Statics* st, int a, int b) noexcept nogil:
    """(a, b) is in the shape's whitelist (9.1.3, 9.8.6: nothing beyond the coastline)."""
    cdef int i
    for i in range(st.shape.n_positions):
        if st.shape.positions[2 * i] == a and st.shape.positions[2 * i + 1] == b:
            return True
    return False


cdef bint core_forbidden(const Statics* st, int a, int b) noexcept nogil:
    """(a, b) is a coastline lane closed to Core tiles (17.1.1), when the scenario says so."""
    cdef int i
    if not st.shape.core_restriction:
        return False
    for i in range(st.shape.n_core_forbidden):
        if st.shape.core_forbidden[2 * i] == a and st.shape.core_forbidden[2 * i + 1] == b:
            return True
    return False


cdef bint placement_allowed(const GameState* gs, const Statics* st, int kind, int a, int b) noexcept nogil:
    """9.8.7 / 21.2 A10 placement limits for a tile of `kind` at the empty position (a, b)."""
    cdef int k, n, na, nb
    n = placed_neighbours(gs, a, b)
    if kind == TILE_CORE or kind == TILE_CITY:
        return n >= 2 and not core_forbidden(st, a, b)     # 9.8.7, 17.1.1
    if n >= 2:                                              # countryside: >= 2 tiles ...
        return True
    for k in range(6):                                      # ... or one that borders >= 2 (A10)
        na = a + LATTICE_DIRS[k][0]
        nb = b + LATTICE_DIRS[k][1]
        if tile_at(gs, na, nb) >= 0 and placed_neighbours(gs, na, nb) >= 2:
            return True
    return False


cdef int explorable(const GameState* gs, const Statics* st, int hex, int* out_positions) noexcept nogil:
    """Empty shape positions the hero on `hex` may explore with the top tile of the stack:
    the target tile touches the hero's hex (21.2 A11, 9.8.2), is in the shape (9.1.3,
    9.8.6), is empty and meets the placement limits for the tile's kind (9.8.7, 21.2 A10,
    17.1.1).  Writes (a, b) pairs to out_positions (room for MAX_EXPLORABLE pairs) and returns
    their count; RULES_STACK_EMPTY when the stack is empty (then see box_explorable, 9.8.8)."""
    cdef int k, a, b, ta, tb, cq, cr, kind, n = 0, q, r
    if gs.n_tile_stack <= 0:
        return RULES_STACK_EMPTY
    if hex < 0 or hex >= gs.n_hexes:
        return 0
    kind = st.tiles.data[gs.tile_stack[gs.n_tile_stack - 1] * st.tiles.width + st.cols.tile_kind]
    q = gs.hexes[hex].q
    r = gs.hexes[hex].r
    ta = gs.tiles[gs.hexes[hex].tile].a
    tb = gs.tiles[gs.hexes[hex].tile].b
    for k in range(6):  # only positions next to the hero's tile can touch its hex
        a = ta + LATTICE_DIRS[k][0]
        b = tb + LATTICE_DIRS[k][1]
        lattice_to_axial(a, b, &cq, &cr)
        # a tile is the radius-1 disc around its centre: it touches the hex iff the
        # centre is 2 steps away (A11)
        if hex_distance(q, r, cq, cr) != 2:
            continue
        if not shape_has(st, a, b) or tile_at(gs, a, b) >= 0:
            continue
        if not placement_allowed(gs, st, kind, a, b):
            continue
        out_positions[2 * n] = a
        out_positions[2 * n + 1] = b
        n += 1
    return n


cdef int explore(GameState* gs, const Statics* st, int player, int a, int b) noexcept nogil:
    """Reveal the top tile of the stack at (a, b) from the player's space (9.8): place it
    (9.8.4, 9.8.5) and apply its sites' reveal texts (9.9.1), mark the Core revealed
    (9.9.8), add the scenario's Fame per tile (17.3.1) and pay 2 Move points (9.8.3;
    affordability is the caller's check).  Returns the new tile slot or a RULES_* code."""
    cdef int out[2 * MAX_EXPLORABLE]
    cdef int n, slot, tile
    n = explorable(gs, st, gs.players[player].position, out)
    if n < 0:
        return n
    if not listed(out, n, a, b):
        return RULES_ILLEGAL
    tile = gs.tile_stack[gs.n_tile_stack - 1]
    slot = place_tile(gs, st, tile, a, b)
    if slot < 0:
        return RULES_PLACE_FAILED
    gs.n_tile_stack -= 1
    gs.tile_stack[gs.n_tile_stack] = -1
    tile_explored(gs, st, player, slot, st.tiles.data[tile * st.tiles.width + st.cols.tile_kind])
    return slot


cdef inline bint listed(const int* positions, int n, int a, int b) noexcept nogil:
    """Is (a, b) one of the n positions of an explorable / box_explorable list?"""
    cdef int i
    for i in range(n):
        if positions[2 * i] == a and positions[2 * i + 1] == b:
            return True
    return False


cdef void tile_explored(GameState* gs, const Statics* st, int player, int slot, int kind) noexcept nogil:
    """What follows placing an explored tile of `kind` (from the stack or the box): its
    sites are revealed (9.9.1), a Core or city tile marks the Core revealed (9.9.8), the
    scenario's Fame per tile (17.3.1), and the explorer pays 2 Move points (9.8.3)."""
    reveal_sites(gs, st, slot)                                   # 9.9.1
    if kind == TILE_CORE or kind == TILE_CITY:
        gs.core_revealed = 1                                     # 9.9.8
    gs.players[player].fame += st.shape.fame_per_tile            # 17.3.1
    gs.turn.move_points -= EXPLORE_COST                          # 9.8.3


cdef bint tile_in_box(const GameState* gs, const Statics* st, int tile, int kind) noexcept nogil:
    """9.8.8: tile content `tile` is of `kind`, belongs to the game's content set (Lost Legion
    tiles only with it; Volkare's camp only in his scenarios, LL-2.6.3) and is neither on the
    map nor in the tile stack."""
    cdef const int32_t* row = st.tiles.data + tile * st.tiles.width
    cdef int k
    if row[st.cols.tile_kind] != kind or (row[st.cols.tile_expansion] != 0 and not st.lost_legion):
        return False
    for k in range(7):
        if row[st.cols.tile_site0 + k] == st.sites.volkares_camp:
            return False
    for k in range(gs.n_tiles):
        if gs.tiles[k].content == tile:
            return False
    for k in range(gs.n_tile_stack):
        if gs.tile_stack[k] == tile:
            return False
    return True


cdef int box_tile_kind(const GameState* gs, const Statics* st) noexcept nogil:
    """9.8.8: the kind of tile the box gives now: a Countryside tile while one is left, then a
    non-city Core tile; 0 when none is left ([R] no more exploration)."""
    cdef int kind, t
    for kind in range(TILE_COUNTRYSIDE, TILE_CORE + 1):   # Countryside first, then Core
        for t in range(st.tiles.rows):
            if t < 127 and tile_in_box(gs, st, t, kind):
                return kind
    return 0


cdef int box_explorable(const GameState* gs, const Statics* st, int hex, int* out_positions) noexcept nogil:
    """9.8.8: with the tile stack empty, the positions the hero on `hex` may fill with a tile
    from the box: empty shape positions touching the hero's space (21.2 A11) and adjacent to at
    least three placed tiles (they fill holes); a Core tile also keeps out of the wedge's
    coastline lanes (17.1.1).  Writes (a, b) pairs like `explorable`; 0 when the stack is not
    empty or the box holds no tile for it."""
    cdef int k, a, b, ta, tb, cq, cr, kind = -1, n = 0, q, r
    if gs.n_tile_stack > 0 or hex < 0 or hex >= gs.n_hexes:
        return 0
    q = gs.hexes[hex].q
    r = gs.hexes[hex].r
    ta = gs.tiles[gs.hexes[hex].tile].a
    tb = gs.tiles[gs.hexes[hex].tile].b
    for k in range(6):
        a = ta + LATTICE_DIRS[k][0]
        b = tb + LATTICE_DIRS[k][1]
        lattice_to_axial(a, b, &cq, &cr)
        if hex_distance(q, r, cq, cr) != 2:
            continue
        if not shape_has(st, a, b) or tile_at(gs, a, b) >= 0 or placed_neighbours(gs, a, b) < 3:
            continue
        if kind < 0:
            kind = box_tile_kind(gs, st)                     # only once a hole is in reach
        if kind == 0:
            return 0
        if kind == TILE_CORE and core_forbidden(st, a, b):
            continue
        out_positions[2 * n] = a
        out_positions[2 * n + 1] = b
        n += 1
    return n


cdef int explore_from_box(GameState* gs, const Statics* st, int player, int a, int b) noexcept nogil:
    """9.8.8: explore (a, b) with a random tile from the box (STREAM_MAP): a Countryside tile,
    or a non-city Core tile once no Countryside tile is left.  Placed, revealed and paid like
    a tile of the stack (9.8.3-9.8.5, 9.9, 17.3.1).  Returns the new tile slot or RULES_*."""
    cdef int out[2 * MAX_EXPLORABLE]
    cdef int16_t cand[128]
    cdef int n, i, slot, tile, kind, m = 0
    n = box_explorable(gs, st, gs.players[player].position, out)
    if not listed(out, n, a, b):
        return RULES_ILLEGAL
    kind = box_tile_kind(gs, st)
    for i in range(st.tiles.rows):
        if i < 127 and m < 128 and tile_in_box(gs, st, i, kind):
            cand[m] = <int16_t>i
            m += 1
    tile = cand[rng_below(&gs.rng[<int>STREAM_MAP], m)]
    slot = place_tile(gs, st, tile, a, b)
    if slot < 0:
        return RULES_PLACE_FAILED
    tile_explored(gs, st, player, slot, kind)                    # (a box tile is never a city)
    return slot


# ---------------------------------------------------------------------------------------
# Python surface (tests, tools)
# ---------------------------------------------------------------------------------------

RULES_ERRORS = {
    RULES_ILLEGAL: "the position cannot be explored from the hero's space (9.8.2, 9.8.7, 21.2 A10-A11)",
    RULES_PLACE_FAILED: "the tile could not be placed (map capacity, ext/_types.pxd)",
}


cdef class Rules:
    """The movement / exploration rules applied to one :class:`GameCore` (shares its state)."""
    cdef readonly GameCore core

    def __init__(self, GameCore core):
        self.core = core

    cdef void _check_hex(self, int hex) except *:
        if hex < 0 or hex >= self.core.gs.n_hexes:
            raise IndexError(f"hex {hex} is not on the map (0..{self.core.gs.n_hexes - 1})")

    cdef void _check_player(self, int player) except *:
        if player < 0 or player >= self.core.gs.n_players:
            raise IndexError(f"player {player} is not in the game (0..{self.core.gs.n_players - 1})")

    # -- rules --------------------------------------------------------------------------
    def move_cost(self, int hex):
        """Move points to enter `hex`; -1 = inaccessible (9.2, 9.6.2, 21.2 A9)."""
        return move_cost(&self.core.gs, &self.core.st, hex)

    def can_enter(self, int from_hex, int to_hex):
        return can_enter(&self.core.gs, &self.core.st, from_hex, to_hex)

    def ends_movement(self, int hex, int player=0):
        self._check_player(player)
        return ends_movement(&self.core.gs, &self.core.st, hex, player)

    def provokes(self, int from_hex, int to_hex):
        """Bitmask of from_hex's neighbour directions holding provoked rampaging enemies (9.4.3)."""
        return provokes(&self.core.gs, &self.core.st, from_hex, to_hex)

    def is_safe(self, int hex, int player=0):
        self._check_player(player)
        return is_safe(&self.core.gs, &self.core.st, hex, player)

    def explorable(self, int hex):
        """List of (a, b) positions explorable from `hex` (9.8, 21.2 A10-A11).

        With the tile stack empty, the positions a tile from the box may fill (9.8.8)."""
        cdef int out[2 * MAX_EXPLORABLE]
        cdef int n = explorable(&self.core.gs, &self.core.st, hex, out)
        if n == RULES_STACK_EMPTY:
            n = box_explorable(&self.core.gs, &self.core.st, hex, out)
        return [(out[2 * i], out[2 * i + 1]) for i in range(n)]

    def explore(self, int a, int b, int player=0):
        """Explore (a, b) from the player's space (9.8); returns the new tile slot."""
        self.core.version += 1           # the Engine's cached legal list is stale
        self._check_player(player)
        cdef int slot = explore(&self.core.gs, &self.core.st, player, a, b)
        if slot == RULES_STACK_EMPTY:
            slot = explore_from_box(&self.core.gs, &self.core.st, player, a, b)   # 9.8.8
        if slot < 0:
            raise ValueError(RULES_ERRORS.get(slot, slot))
        return slot

    # -- reading ------------------------------------------------------------------------
    def tile_at(self, int a, int b):
        return tile_at(&self.core.gs, a, b)

    def tile_hexes(self, int a, int b):
        """Hex indices of the tile at (a, b) in data order C NE E SE SW W NW."""
        cdef int slot = tile_at(&self.core.gs, a, b)
        if slot < 0:
            raise KeyError((a, b))
        return list(range(self.core.gs.tiles[slot].first_hex, self.core.gs.tiles[slot].first_hex + 7))

    def hex_at(self, int q, int r):
        cdef int h
        for h in range(self.core.gs.n_hexes):
            if self.core.gs.hexes[h].q == q and self.core.gs.hexes[h].r == r:
                return h
        return -1

    def hex_coords(self, int hex):
        self._check_hex(hex)
        return (self.core.gs.hexes[hex].q, self.core.gs.hexes[hex].r)

    def neighbours(self, int hex):
        self._check_hex(hex)
        return [self.core.gs.hexes[hex].neighbour[d] for d in range(6)]

    @property
    def n_hexes(self):
        return self.core.gs.n_hexes

    @property
    def n_tile_stack(self):
        return self.core.gs.n_tile_stack

    @property
    def top_tile(self):
        """Content index of the top tile of the stack, -1 = empty."""
        gs = &self.core.gs
        return gs.tile_stack[gs.n_tile_stack - 1] if gs.n_tile_stack > 0 else -1

    @property
    def move_points(self):
        return self.core.gs.turn.move_points

    def fame(self, int player=0):
        self._check_player(player)
        return self.core.gs.players[player].fame

    def position(self, int player=0):
        self._check_player(player)
        return self.core.gs.players[player].position

    # -- test setters (build situations) --------------------------------------------------
    def set_position(self, int hex, int player=0):
        self.core.version += 1           # the Engine's cached legal list is stale
        self._check_player(player)
        if hex != -1:
            self._check_hex(hex)
        self.core.gs.players[player].position = <int16_t>hex

    def set_time(self, time):
        """'day' / 'night' (2.1)."""
        self.core.version += 1           # the Engine's cached legal list is stale
        self.core.gs.time = NIGHT if time == "night" else DAY

    def set_move_points(self, int points):
        self.core.version += 1           # the Engine's cached legal list is stale
        self.core.gs.turn.move_points = <int16_t>points

    def set_terrain_delta(self, int terrain, int delta):
        """The terrain's Move cost changes by `delta` this turn (9.6.2): its one
        MK_TERRAIN_DELTA modifier (arg = terrain + 1), replacing one set before."""
        cdef int i = 0
        self.core.version += 1           # the Engine's cached legal list is stale
        if not 0 <= terrain < NUM_TERRAINS:
            raise IndexError(terrain)
        while i < self.core.gs.turn.n_mods:
            if self.core.gs.turn.mods[i].kind == MK_TERRAIN_DELTA and self.core.gs.turn.mods[i].arg == terrain + 1:
                mod_remove_at(&self.core.gs.turn, i)
            else:
                i += 1
        if delta != 0 and mod_add(&self.core.gs.turn, MK_TERRAIN_DELTA, MS_TURN, delta, terrain + 1, -1,
                                  self.core.gs.current) < 0:
            raise OverflowError("the modifier array is full")

    def set_hex(self, int hex, terrain=None, site=None, tokens=None, flags=None, owner=None, ruins=None):
        """Overwrite fields of one hex (site = content.SITE_IDS index or -1; tokens = token
        instance list; ruins = ruins token index, -1 = none)."""
        cdef Hex* hx
        self.core.version += 1           # the Engine's cached legal list is stale
        self._check_hex(hex)
        hx = &self.core.gs.hexes[hex]
        if terrain is not None:
            hx.terrain = <int8_t>terrain
        if site is not None:
            hx.site = <int8_t>site
        if tokens is not None:
            if len(tokens) > 6:
                raise ValueError("at most 6 tokens on a hex")
            hx.n_tokens = <int8_t>len(tokens)
            for i, t in enumerate(tokens):
                hx.tokens[i] = <int16_t>t
        if flags is not None:
            hx.flags = <unsigned char>flags
        if owner is not None:
            hx.owner = <int8_t>owner
        if ruins is not None:
            hx.ruins = <int8_t>ruins

    def push_tile(self, int tile):
        """Put a tile (content index) on top of the tile stack."""
        self.core.version += 1           # the Engine's cached legal list is stale
        gs = &self.core.gs
        if gs.n_tile_stack >= MAX_TILES:
            raise ValueError("tile stack full")
        gs.tile_stack[gs.n_tile_stack] = <int8_t>tile
        gs.n_tile_stack += 1

    def clear_tile_stack(self):
        self.core.version += 1           # the Engine's cached legal list is stale
        gs = &self.core.gs
        while gs.n_tile_stack > 0:
            gs.n_tile_stack -= 1
            gs.tile_stack[gs.n_tile_stack] = -1
