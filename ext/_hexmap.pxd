# Header of ext/_hexmap.pyx: hex-grid geometry of the Mage Knight map (rules 9.1, 17.1).
#
# Coordinates are axial (q, r) for pointy-top hexes, q to the east and r to the
# south-east.  A map tile is 7 hexes: a centre and its 6 neighbours, stored in the fixed
# order C NE E SE SW W NW (see mksim/data/tiles.toml).  Tile centres form a lattice
# (rule 9.1.4); a tile *position* is written in lattice coordinates (a, b), meaning the
# centre a*D1 + b*D2 with D1 = (1, -3) and D2 = (3, -2): the two positions revealed next
# to starting tile A (rule 1.2.14, 17.1.1).

cdef int NUM_DIRS                      # 6 neighbour directions of a hex
cdef int TILE_HEXES                    # 7 hexes per tile

cdef int[6][2] HEX_DIRS                # axial offset of each neighbour, clockwise from NE
cdef int[7][2] TILE_OFFSETS            # axial offset of each tile hex from the centre (C NE E SE SW W NW)
cdef int[6][2] LATTICE_DIRS            # lattice (a, b) offsets of the 6 neighbouring tile positions

cdef void lattice_to_axial(int a, int b, int* q, int* r) noexcept nogil
cdef int hex_distance(int q1, int r1, int q2, int r2) noexcept nogil
cdef bint hexes_adjacent(int q1, int r1, int q2, int r2) noexcept nogil
cdef bint positions_adjacent(int a1, int b1, int a2, int b2) noexcept nogil
