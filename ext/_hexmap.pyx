# cython: language_level=3
"""Hex-grid geometry of the Mage Knight map (rules 9.1.2, 9.1.4, 17.1).

C-level helpers (``noexcept nogil``) are for the engine's hot paths; the ``cpdef`` and
Python functions below serve content validation and tests.  See ``_hexmap.pxd`` for the
coordinate conventions.
"""

NUM_DIRS = 6
TILE_HEXES = 7

# Neighbour directions, clockwise starting at NE: NE E SE SW W NW.
HEX_DIRS[0][:] = [1, -1]
HEX_DIRS[1][:] = [1, 0]
HEX_DIRS[2][:] = [0, 1]
HEX_DIRS[3][:] = [-1, 1]
HEX_DIRS[4][:] = [-1, 0]
HEX_DIRS[5][:] = [0, -1]

# Tile hexes in data order C NE E SE SW W NW (mksim/data/tiles.toml).
TILE_OFFSETS[0][:] = [0, 0]
TILE_OFFSETS[1][:] = [1, -1]
TILE_OFFSETS[2][:] = [1, 0]
TILE_OFFSETS[3][:] = [0, 1]
TILE_OFFSETS[4][:] = [-1, 1]
TILE_OFFSETS[5][:] = [-1, 0]
TILE_OFFSETS[6][:] = [0, -1]

# The six neighbouring tile positions in lattice coordinates (rule 9.1.4):
# D1, D2, D2-D1, -D1, -D2, D1-D2.
LATTICE_DIRS[0][:] = [1, 0]
LATTICE_DIRS[1][:] = [0, 1]
LATTICE_DIRS[2][:] = [-1, 1]
LATTICE_DIRS[3][:] = [-1, 0]
LATTICE_DIRS[4][:] = [0, -1]
LATTICE_DIRS[5][:] = [1, -1]

cdef int D1_Q = 1, D1_R = -3, D2_Q = 3, D2_R = -2


cdef void lattice_to_axial(int a, int b, int* q, int* r) noexcept nogil:
    """Centre hex of the tile at lattice position (a, b)."""
    q[0] = a * D1_Q + b * D2_Q
    r[0] = a * D1_R + b * D2_R


cdef int hex_distance(int q1, int r1, int q2, int r2) noexcept nogil:
    """Number of steps between two hexes."""
    cdef int dq = q1 - q2, dr = r1 - r2, ds = -dq - dr
    if dq < 0:
        dq = -dq
    if dr < 0:
        dr = -dr
    if ds < 0:
        ds = -ds
    return (dq + dr + ds) // 2


cdef bint hexes_adjacent(int q1, int r1, int q2, int r2) noexcept nogil:
    return hex_distance(q1, r1, q2, r2) == 1


cdef bint positions_adjacent(int a1, int b1, int a2, int b2) noexcept nogil:
    """True when two tile positions share an edge (rule 9.8.7 counts these)."""
    cdef int k
    for k in range(6):
        if a1 + LATTICE_DIRS[k][0] == a2 and b1 + LATTICE_DIRS[k][1] == b2:
            return True
    return False


cpdef int distance(int q1, int r1, int q2, int r2):
    """Hex distance between (q1, r1) and (q2, r2)."""
    return hex_distance(q1, r1, q2, r2)


cpdef tuple tile_centre(int a, int b):
    """Axial centre of the tile at lattice position (a, b)."""
    cdef int q, r
    lattice_to_axial(a, b, &q, &r)
    return (q, r)


cpdef list tile_hexes(int a, int b):
    """The 7 axial hexes of the tile at (a, b), in data order C NE E SE SW W NW."""
    cdef int q, r, k
    lattice_to_axial(a, b, &q, &r)
    return [(q + TILE_OFFSETS[k][0], r + TILE_OFFSETS[k][1]) for k in range(TILE_HEXES)]


cpdef bint adjacent_positions(int a1, int b1, int a2, int b2):
    """True when two tile positions are neighbours on the tile lattice."""
    return positions_adjacent(a1, b1, a2, b2)


cpdef list neighbour_positions(int a, int b):
    """The 6 tile positions around (a, b)."""
    return [(a + LATTICE_DIRS[k][0], b + LATTICE_DIRS[k][1]) for k in range(6)]


cpdef list wedge_positions(int depth):
    """Positions of the wedge map (rule 17.1.1): {a*D1 + b*D2 : a, b >= 0, a + b <= depth}."""
    cdef int a, b
    return [(a, b) for a in range(depth + 1) for b in range(depth + 1 - a)]


cpdef list open_positions(int min_column, int max_column, int depth):
    """Positions of an open map (rules 17.1.2-17.1.3) [R].

    Starting tile B has three tiles revealed next to it (17.1.2: "three tiles placed
    adjacent to it"), so the open map grows towards one of its neighbours, D2: a
    position's column is ``-a`` (D1 one column to the left, D2 - D1 one to the right) and
    its half-row ``2*b + a`` (D2 is one full row ahead, D1 and D2 - D1 half a row).  The
    coastline runs from the start tile through the two side tiles (``half_row >= |column|``)
    and then straight ahead, between ``min_column`` and ``max_column``; ``depth`` counts
    full rows (``half_row <= 2 * depth``).
    """
    cdef int h, col
    out = []
    for h in range(2 * depth + 1):
        for col in range(min_column, max_column + 1):
            if (h - col) % 2 != 0 or h < abs(col):
                continue
            out.append((-col, (h + col) // 2))
    return out


cpdef tuple open_column_row(int a, int b):
    """(column, half-row) of position (a, b) on an open map (see open_positions)."""
    return (-a, 2 * b + a)
