"""Hex-grid geometry of the map (ext/_hexmap.pyx, compiled as mksim._hexmap)."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mksim import _hexmap as hm

# Axial offsets of a tile's hexes in data order C NE E SE SW W NW (SOURCES.md, tiles.toml)
TILE_ORDER = [(0, 0), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
# Rule 9.1.4: the six neighbouring tile centres of the tile at (0, 0)
RULE_9_1_4_CENTRES = {(2, 1), (-1, 3), (-3, 2), (-2, -1), (1, -3), (3, -2)}

coords = st.integers(min_value=-30, max_value=30)


def touching(p, q):
    """Some hex of tile p is next to some hex of tile q."""
    return any(hm.distance(*h, *g) == 1 for h in hm.tile_hexes(*p) for g in hm.tile_hexes(*q))


def lattice_ring(p, radius):
    """Positions at exactly ``radius`` steps from p on the tile lattice (by breadth-first search)."""
    seen, frontier = {p}, {p}
    for _ in range(radius):
        frontier = {n for f in frontier for n in hm.neighbour_positions(*f)} - seen
        seen |= frontier
    return frontier


def test_distance_basics():
    assert hm.distance(0, 0, 0, 0) == 0
    assert hm.distance(0, 0, 1, -1) == 1
    assert hm.distance(0, 0, 2, 1) == 3
    assert hm.distance(0, 0, 3, -3) == 3
    assert hm.distance(-2, 5, 4, -1) == 6


@given(coords, coords, coords, coords, coords, coords)
def test_distance_is_a_metric(q1, r1, q2, r2, q3, r3):
    d = hm.distance
    assert d(q1, r1, q2, r2) == d(q2, r2, q1, r1) >= 0
    assert (d(q1, r1, q2, r2) == 0) == ((q1, r1) == (q2, r2))
    assert d(q1, r1, q3, r3) <= d(q1, r1, q2, r2) + d(q2, r2, q3, r3)


def test_start_tile_is_the_centre_and_its_six_neighbours_rule_9_1_2():
    hexes = hm.tile_hexes(0, 0)
    assert hexes == TILE_ORDER
    assert hexes[0] == (0, 0) == hm.tile_centre(0, 0)
    assert len(set(hexes)) == 7
    assert all(hm.distance(0, 0, q, r) == 1 for q, r in hexes[1:])


def test_neighbouring_tile_centres_are_those_of_rule_9_1_4():
    centres = {hm.tile_centre(*p) for p in hm.neighbour_positions(0, 0)}
    assert centres == RULE_9_1_4_CENTRES
    # the two setup positions of starting tile A (1.2.14): D1 = (1, -3), D2 = (3, -2)
    assert hm.tile_centre(1, 0) == (1, -3) and hm.tile_centre(0, 1) == (3, -2)


def test_neighbouring_tiles_are_disjoint_and_touch_the_start_tile_rule_9_1_4():
    start = set(hm.tile_hexes(0, 0))
    neighbours = hm.neighbour_positions(0, 0)
    assert len(set(neighbours)) == 6
    for p in neighbours:
        assert start.isdisjoint(hm.tile_hexes(*p)), p
        assert touching((0, 0), p), p
        assert hm.adjacent_positions(0, 0, *p) and hm.adjacent_positions(*p, 0, 0)


def test_tiles_two_lattice_steps_away_do_not_touch():
    ring2 = lattice_ring((0, 0), 2)
    assert len(ring2) == 12
    start = set(hm.tile_hexes(0, 0))
    for p in ring2:
        assert start.isdisjoint(hm.tile_hexes(*p))
        assert not touching((0, 0), p), p
        assert not hm.adjacent_positions(0, 0, *p)
    assert not hm.adjacent_positions(0, 0, 0, 0)


@given(coords, coords)
def test_tiles_around_any_position_touch_it_and_are_disjoint(a, b):
    own = set(hm.tile_hexes(a, b))
    cq, cr = hm.tile_centre(a, b)
    assert own == {(cq + dq, cr + dr) for dq, dr in TILE_ORDER}  # same shape everywhere
    for p in hm.neighbour_positions(a, b):
        assert own.isdisjoint(hm.tile_hexes(*p))
        assert touching((a, b), p)


def test_tiles_cover_the_plane_without_overlap():
    # every hex of a patch of the plane lies in exactly one tile
    owner = {}
    for a in range(-12, 13):
        for b in range(-12, 13):
            for h in hm.tile_hexes(a, b):
                assert h not in owner, (h, owner.get(h), (a, b))
                owner[h] = (a, b)
    for q in range(-6, 7):
        for r in range(-6, 7):
            assert (q, r) in owner


def test_wedge_positions_count_is_triangular():
    for depth in range(0, 12):
        pos = hm.wedge_positions(depth)
        assert len(pos) == (depth + 1) * (depth + 2) // 2
        assert len(set(pos)) == len(pos)
        assert all(a >= 0 and b >= 0 and a + b <= depth for a, b in pos)


def test_open_positions_columns():
    # 17.1.2 [R]: the open map grows towards D2 = (0, 1); column -a, half-row 2b + a
    pos = hm.open_positions(-2, 2, 4)
    assert {-a for a, b in pos} == {-2, -1, 0, 1, 2}
    assert (0, 0) in pos and all(abs(a) <= 2 * b + a <= 8 for a, b in pos)
    # a column is a straight line of tiles, each touching the next (D2 apart)
    assert [p for p in pos if p[0] == 0] == [(0, b) for b in range(5)]
    assert all(hm.adjacent_positions(0, b, 0, b + 1) for b in range(4))
    # the coastline runs from the start tile through the side tiles, then straight on
    assert (1, -1) not in pos and (-1, 0) not in pos and (2, -1) not in pos
    assert (2, 0) in pos and (-2, 2) in pos and (3, 0) not in pos


def test_map_shapes_toml_wedge_matches_the_geometry_rule_1_2_14(content):
    shapes = {m["id"]: m for m in content["map_shapes"]}
    wedge = shapes["wedge"]
    assert sorted(map(tuple, wedge["positions"])) == sorted(hm.wedge_positions(8))
    assert wedge["setup_positions"] == [[1, 0], [0, 1]]  # side A reveals 2 tiles
    for sid, cols in (("open_5", (-2, 2)), ("open_4", (-1, 2)), ("open_3", (-1, 1))):
        assert sorted(map(tuple, shapes[sid]["positions"])) == sorted(hm.open_positions(cols[0], cols[1], 8)), sid
        assert len(shapes[sid]["setup_positions"]) == 3  # side B reveals 3 tiles
        assert {-a for a, b in shapes[sid]["positions"]} == set(range(cols[0], cols[1] + 1))


def test_setup_tiles_are_adjacent_to_the_start_tile_17_1_2(content):
    # 1.2.14, 17.1.1: side A's two revealed tiles border the starting tile; 17.1.2 (seed:
    # "開局時放置三個版圖與之相臨", three tiles placed adjacent to it): so do all three of side
    # B, by the hexes of the tiles themselves (touching), not only by lattice position
    for m in content["map_shapes"]:
        setup = [tuple(p) for p in m["setup_positions"]]
        assert len(set(setup)) == len(setup), m["id"]
        for p in setup:
            assert hm.adjacent_positions(0, 0, *p), (m["id"], p)
            assert touching((0, 0), p), (m["id"], p)
            assert tuple(p) in map(tuple, m["positions"])
        if m["start_tile"] == "start_b":
            # three neighbours side by side: the middle one touches both others
            assert hm.adjacent_positions(*setup[0], *setup[1]) and hm.adjacent_positions(*setup[1], *setup[2])
            assert not hm.adjacent_positions(*setup[0], *setup[2])
