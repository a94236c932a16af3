"""Movement and exploration rules (ext/_rules.pyx): 9.2, 9.4, 9.6.2, 9.7.1, 9.8, 9.9, 17.1.1,
17.3.1 and 21.2 A9-A11.

Every test names the rule it checks.  Situations are built on a real setup (wedge map after
1.2.14: tiles at [0,0], [1,0], [0,1]) and adjusted through the test setters of ``Rules``.
"""
import pytest

from mksim import content as ct
from mksim._rules import Rules
from mksim._state import GameCore
from mksim.fixtures import MOD_KINDS, MOD_SCOPES

SITE = ct.SITE_IDS.index
TERRAINS = ("plains", "hills", "forest", "wasteland", "desert", "swamp", "lake", "mountain")
T = TERRAINS.index
SEED = 2024


def game(tables, content, scenario="first_reconnaissance", seed=SEED, game_index=0):
    return Rules(GameCore.new(tables, content, scenario, "tovak", seed, game_index))


def plain_hex(R, hex, terrain="plains"):
    """Clear a hex of its site / tokens and give it a terrain."""
    R.set_hex(hex, terrain=T(terrain), site=-1, tokens=[], flags=0, owner=-1)


def tile_id(tables, kind_prefix):
    return next(i for i, t in enumerate(tables.tile_ids) if t.startswith(kind_prefix))


def touching(R, targets):
    """A hex of the [1,0] tile whose reach (A11) includes all target positions."""
    for h in R.tile_hexes(1, 0):
        if set(targets) <= set(R.explorable(h)):
            return h
    raise AssertionError(f"no hex of [1,0] touches {targets}")


# --- 9.2 / 9.6.2 / 21.2 A9: move costs ----------------------------------------------------

DAY_COST = {"plains": 2, "hills": 3, "forest": 3, "wasteland": 4, "desert": 5, "swamp": 5,
            "lake": -1, "mountain": -1}
NIGHT_COST = {"plains": 2, "hills": 3, "forest": 5, "wasteland": 4, "desert": 3, "swamp": 5,
              "lake": -1, "mountain": -1}


def test_9_2_terrain_costs_by_day_and_night(tables, content):
    """9.2 table: forest 3 by Day / 5 at Night, desert 5 / 3, lake and mountain inaccessible (-1)."""
    R = game(tables, content)
    h = R.tile_hexes(1, 0)[0]
    for name in TERRAINS:
        plain_hex(R, h, name)
        R.set_time("day")
        assert R.move_cost(h) == DAY_COST[name], name
        R.set_time("night")
        assert R.move_cost(h) == NIGHT_COST[name], name
    plain_hex(R, h, "forest")
    R.set_time("day")
    assert R.move_cost(h) == 3
    R.set_time("night")
    assert R.move_cost(h) == 5


def test_9_2_2_off_map_is_inaccessible(tables, content):
    """9.2.2: hexes not on the map (index -1 or past n_hexes) are inaccessible."""
    R = game(tables, content)
    assert R.n_hexes == 21
    assert R.move_cost(-1) == -1
    assert R.move_cost(21) == -1


def test_9_6_2_terrain_delta_and_floor_at_zero(tables, content):
    """9.6.2: a -1 reduction makes forest (Day) cost 2; a -5 reduction floors plains at 0."""
    R = game(tables, content)
    h = R.tile_hexes(1, 0)[0]
    plain_hex(R, h, "forest")
    R.set_time("day")
    R.set_terrain_delta(T("forest"), -1)
    assert R.move_cost(h) == 2
    plain_hex(R, h, "plains")
    assert R.move_cost(h) == 2          # the forest delta does not touch plains
    R.set_terrain_delta(T("plains"), -5)
    assert R.move_cost(h) == 0          # never below 0
    plain_hex(R, h, "lake")
    R.set_terrain_delta(T("lake"), -5)
    assert R.move_cost(h) == -1         # a reduction does not make a lake accessible


def set_turn_mods(R, entries):
    """The turn's live modifiers: (kind name, value, arg) entries, turn-long, of player 0."""
    mods = [{"kind": MOD_KINDS.index(k), "scope": MOD_SCOPES.index("turn"), "value": v, "arg": a,
             "source": -1, "owner": 0} for k, v, a in entries]
    mods += [{"kind": 0, "scope": 0, "value": 0, "arg": 0, "source": 0, "owner": 0}] * (16 - len(mods))
    R.core.set_raw({"turn": {"mods": mods, "n_mods": len(entries)}})


def test_9_6_every_terrain_and_one_terrain_modifiers_combine(tables, content):
    """9.6.1 / 9.6.2 with the turn's terrain modifiers (arg = terrain + 1, 0 = every terrain):
    Path Finding powered's "all terrains cost 2" and a lake set to 1 and opened (Frost
    Bridge): the lower set cost counts; Path Finding basic's "all -1 (min 2)" and forest -2
    (Amulet of the Sun): the changes add up, a reduction stops at 2 but a cost already below 2
    stays (lake 1); a lake / mountain not opened stays inaccessible (9.2).  Then Prayer of
    Weather's own "-2 (min 1)" is applied last, and Mist Form closes plains."""
    R = game(tables, content)
    h = R.tile_hexes(1, 0)[0]
    R.set_time("day")
    lake, forest = T("lake") + 1, T("forest") + 1
    terrain = [("terrain_set", 2, 0), ("terrain_set", 1, lake), ("terrain_open", 1, lake),
               ("terrain_delta", -1, 0), ("terrain_delta", -2, forest), ("terrain_floor", 2, 0)]
    set_turn_mods(R, terrain)
    for name, cost in (("plains", 2), ("forest", 2), ("lake", 1), ("mountain", -1)):
        plain_hex(R, h, name)
        assert R.move_cost(h) == cost, name
    set_turn_mods(R, terrain + [("weather_own", -2, 1)])
    for name, cost in (("plains", 1), ("swamp", 1), ("lake", 1)):
        plain_hex(R, h, name)
        assert R.move_cost(h) == cost, name
    set_turn_mods(R, terrain + [("terrain_closed", 1, T("plains") + 1)])
    plain_hex(R, h, "plains")
    assert R.move_cost(h) == -1
    plain_hex(R, h, "hills")
    assert R.move_cost(h) == 2


def test_21_2_A9_city_space_costs_2(tables, content):
    """21.2 A9 (9.2.1): a city space costs 2 whatever the terrain under it, Day or Night."""
    R = game(tables, content)
    h = R.tile_hexes(1, 0)[0]
    for terrain in ("swamp", "forest", "hills"):
        R.set_hex(h, terrain=T(terrain), site=SITE("city"))
        for time in ("day", "night"):
            R.set_time(time)
            assert R.move_cost(h) == 2


# --- 9.4: movement restrictions -------------------------------------------------------

def test_9_4_2_rampaging_hex_cannot_be_entered(tables, content):
    """9.4.2: an orc / draconum space with its token cannot be entered; once empty it can."""
    R = game(tables, content)
    c, ne = R.tile_hexes(1, 0)[0], R.tile_hexes(1, 0)[1]
    plain_hex(R, c)
    plain_hex(R, ne)
    assert R.can_enter(c, ne)
    for site in ("rampaging_orc", "rampaging_draconum"):
        R.set_hex(ne, site=SITE(site), tokens=[0])
        assert not R.can_enter(c, ne)
        assert R.move_cost(ne) == 2      # the cost is known; the token forbids the entry
    R.set_hex(ne, tokens=[])             # defeated
    assert R.can_enter(c, ne)


def test_9_3_5_can_enter_needs_adjacency_and_access(tables, content):
    """9.3.5: one step to an adjacent accessible space; 9.2: not into a lake."""
    R = game(tables, content)
    hexes = R.tile_hexes(1, 0)
    c, ne, sw = hexes[0], hexes[1], hexes[4]
    for h in (c, ne, sw):
        plain_hex(R, h)
    assert R.can_enter(c, ne)
    assert not R.can_enter(ne, sw)       # 2 steps apart
    plain_hex(R, ne, "lake")
    assert not R.can_enter(c, ne)


def test_9_4_3_provoking(tables, content):
    """9.4.3: moving between two spaces both adjacent to the same rampaging token provokes
    it; moving away from it (to a space not adjacent to it) does not."""
    R = game(tables, content)
    hexes = R.tile_hexes(1, 0)
    c = hexes[0]
    for h in range(R.n_hexes):           # no other rampaging token on the map
        R.set_hex(h, tokens=[])
    R.set_hex(c, site=SITE("rampaging_orc"), tokens=[0])
    ring = R.neighbours(c)               # NE E SE SW W NW of the rampaging space
    assert -1 not in ring
    # from ring[d], c lies in the opposite direction (d + 3) % 6; ring[d] and ring[d+1] touch
    for d in range(6):
        a, b = ring[d], ring[(d + 1) % 6]
        assert b in R.neighbours(a)
        assert R.provokes(a, b) == 1 << ((d + 3) % 6)
    assert R.provokes(ring[0], ring[1]) == 8   # NE -> E: c is SW (bit 3) of NE
    # a -> a neighbour of a that is not next to c: moving away does not provoke
    moves = [(a, n) for a in ring for n in R.neighbours(a)
             if n >= 0 and n != c and c not in R.neighbours(n)]
    assert moves
    for a, n in moves:
        assert R.provokes(a, n) == 0
    a, b = ring[0], ring[1]
    R.set_hex(c, tokens=[])              # defeated: nobody to provoke
    assert R.provokes(a, b) == 0


def test_9_4_1_keep_ends_movement(tables, content):
    """9.4.1: unconquered keep, mage tower and city end movement; a conquered keep of
    one's own does not, another player's keep does; a village does not."""
    R = game(tables, content)
    h = R.tile_hexes(1, 0)[0]
    R.set_hex(h, terrain=T("hills"), site=SITE("keep"), flags=0, owner=-1)
    assert R.ends_movement(h, 0)
    R.set_hex(h, flags=1, owner=0)       # HEX_CONQUERED, our Shield
    assert not R.ends_movement(h, 0)
    R.set_hex(h, owner=1)                # conquered by another player: his keep
    assert R.ends_movement(h, 0)
    for site in ("mage_tower", "city"):
        R.set_hex(h, site=SITE(site), flags=0, owner=-1)
        assert R.ends_movement(h, 0)
    R.set_hex(h, site=SITE("village"))
    assert not R.ends_movement(h, 0)


def test_9_7_1_safe_spaces(tables, content):
    """9.7.1: plains are safe; lake, a rampaging space, an unconquered keep are not;
    9.7.3: an adventure site is safe; a conquered keep of one's own is safe."""
    R = game(tables, content)
    h = R.tile_hexes(1, 0)[0]
    plain_hex(R, h)
    assert R.is_safe(h)
    plain_hex(R, h, "lake")
    assert not R.is_safe(h)
    R.set_hex(h, terrain=T("plains"), site=SITE("rampaging_orc"), tokens=[0])
    assert not R.is_safe(h)
    R.set_hex(h, site=SITE("keep"), tokens=[1], flags=0)
    assert not R.is_safe(h)
    R.set_hex(h, flags=1, owner=0)
    assert R.is_safe(h, 0)
    R.set_hex(h, site=SITE("dungeon"), tokens=[], flags=0, owner=-1)
    assert R.is_safe(h)


# --- 9.8 / 21.2 A10-A11 / 17.1.1: exploration -------------------------------------------

def test_9_8_7_countryside_explorable_on_the_wedge(tables, content):
    """9.8.7 / 21.2 A10 / A11: from the NE hex of [1,0] (which touches [2,0] and [1,1]) a
    Countryside tile may go to [1,1] (adjacent to [1,0] and [0,1]) and to [2,0] (adjacent to
    [1,0] only, but [1,0] borders [0,0] and [0,1]).  Other hexes touch fewer positions."""
    R = game(tables, content)
    assert [R.tile_at(*p) >= 0 for p in ((0, 0), (1, 0), (0, 1))] == [True] * 3
    kinds = {t["id"]: t["kind"] for t in content["tiles"]}
    assert kinds[tables.tile_ids[R.top_tile]] == "countryside"
    hexes = R.tile_hexes(1, 0)
    c, ne, e = hexes[0], hexes[1], hexes[2]
    assert sorted(R.explorable(ne)) == [(1, 1), (2, 0)]
    assert R.explorable(e) == [(1, 1)]   # A11: the E hex touches only [1,1]
    assert R.explorable(c) == []         # the centre touches no other tile position


def test_9_8_7_core_needs_two_tiles_and_17_1_1_coastline_lane(tables, content):
    """9.8.7: a Core tile needs >= 2 adjacent tiles ([1,1] yes, [2,0] with only [1,0] no).
    17.1.1: once [1,1] is placed, [2,0] has 2 neighbours, but it is a coastline lane, so a
    Core tile is refused there in Solo Conquest (core_restriction on) and allowed in First
    Reconnaissance (core_restriction off)."""
    core = tile_id(tables, "core_1")
    country = tile_id(tables, "countryside_1")
    for scenario, lane_ok in (("solo_conquest", False), ("first_reconnaissance", True)):
        R = game(tables, content, scenario)
        ne = R.tile_hexes(1, 0)[1]
        R.push_tile(core)
        assert R.explorable(ne) == [(1, 1)]
        R.push_tile(country)             # a Countryside on top: fill [1,1] first
        R.set_position(ne)
        R.set_move_points(4)
        R.explore(1, 1)
        assert R.top_tile == core
        assert R.explorable(ne) == ([(2, 0)] if lane_ok else [])


def test_9_8_2_not_explorable_outside_the_shape_or_on_a_tile(tables, content):
    """9.1.3 / 9.8.6: the wedge has no [1,-1] or [2,-1]; 9.8.2: a placed position is not
    explorable.  The SW hex of [1,0] touches [0,0], [0,1] and [1,-1] only -> nothing."""
    R = game(tables, content)
    sw = R.tile_hexes(1, 0)[4]
    assert R.explorable(sw) == []


def test_9_8_explore_places_the_tile(tables, content):
    """9.8.3 / 9.8.4 / 9.9.1 / 17.3.1: explore() puts the top tile at [1,1]: 7 more hexes,
    stack one shorter, 2 Move points paid, First Reconnaissance gives 1 Fame."""
    R = game(tables, content)
    ne = R.tile_hexes(1, 0)[1]
    R.set_position(ne)
    R.set_move_points(5)
    top, n_stack = R.top_tile, R.n_tile_stack
    assert (R.n_hexes, n_stack, R.fame()) == (21, 9, 0)
    slot = R.explore(1, 1)
    assert slot == 3
    assert R.n_hexes == 28
    assert R.n_tile_stack == 8
    assert R.move_points == 3
    assert R.fame() == 1
    d = R.core.to_dict()
    assert d["map"]["tiles"][3]["tile"] == tables.tile_ids[top]
    assert d["map"]["tiles"][3]["position"] == [1, 1]
    # the new tile is linked to the map (9.1): NE hex of [1,0] now has a neighbour on it
    new = set(R.tile_hexes(1, 1))
    assert new & set(R.neighbours(ne))


def test_17_3_1_no_fame_per_tile_in_solo_conquest(tables, content):
    """17.3.1: only First Reconnaissance gives Fame per tile; Solo Conquest gives 0."""
    R = game(tables, content, "solo_conquest")
    R.set_position(R.tile_hexes(1, 0)[1])
    R.set_move_points(2)
    R.explore(1, 1)
    assert R.fame() == 0
    assert R.move_points == 0


def test_9_9_8_core_tile_sets_core_revealed(tables, content):
    """9.9.8: placing a Core tile marks the Core revealed."""
    R = game(tables, content)
    assert not R.core.to_dict()["map"]["core_revealed"]
    R.push_tile(tile_id(tables, "core_2"))
    R.set_position(R.tile_hexes(1, 0)[1])
    R.set_move_points(2)
    R.explore(1, 1)
    assert R.core.to_dict()["map"]["core_revealed"]


def test_9_8_illegal_exploration_is_refused(tables, content):
    """9.8.2 / A11: exploring a position the hero does not touch is an error, state unchanged."""
    R = game(tables, content)
    R.set_position(R.tile_hexes(1, 0)[2])  # E hex: touches [1,1] only
    R.set_move_points(2)
    with pytest.raises(ValueError):
        R.explore(2, 0)
    assert (R.n_hexes, R.n_tile_stack, R.move_points) == (21, 9, 2)


def test_9_8_8_empty_stack_fills_only_holes(tables, content):
    """9.8.8: with an empty stack, tiles from the box fill only positions next to >= 3
    tiles; (1,1) borders two here, so nothing is explorable (more in test_sites_cities.py)."""
    R = game(tables, content)
    R.clear_tile_stack()
    R.set_position(R.tile_hexes(1, 0)[1])
    assert R.explorable(R.tile_hexes(1, 0)[1]) == []
    with pytest.raises(ValueError):
        R.explore(1, 1)


def test_exploration_is_deterministic(tables, content):
    """Same seed and game index, same explorations -> identical states; different game
    index -> (almost surely) different tiles."""
    def run(game_index):
        R = game(tables, content, game_index=game_index)
        R.set_position(R.tile_hexes(1, 0)[1])
        R.set_move_points(10)
        R.explore(1, 1)
        R.explore(2, 0)
        return R.core.to_dict()
    a, b = run(0), run(0)
    assert a == b
    assert a["map"]["n_hexes"] == 35
    assert a["players"][0]["fame"] == 2
    others = [run(i)["map"]["tiles"][3:] for i in range(1, 6)]
    assert any(o != a["map"]["tiles"][3:] for o in others)


def test_9_6_2_path_finding_reduces_costs_by_one_but_not_below_two(content, tables):
    """Path Finding basic: all terrain costs -1 this turn, min 2 (terrain_cost(all, -1,
    floor=2)): forest 3 -> 2 by Day, desert 5 -> 4, plains stay 2 (9.2, 9.6.2)."""
    from mksim._engine import Engine, encode
    from mksim._rules import Rules
    from mksim._scoring import ScoringTester
    core = GameCore.new(tables, content, "first_reconnaissance", "arythea", 1)
    eng = Engine(core, tables, content, "first_reconnaissance")
    eng.apply(encode("tactic", content.ids("tactics").index("early_bird")))
    eng.apply(encode("regular_turn"))
    ScoringTester(core).set_cards(0, hand=["path_finding"])
    eng.apply(encode("play", 0 | (31 << 8) | (31 << 13)))     # basic effect, no mana
    r = Rules(core)
    costs = {}
    for h in range(r.n_hexes):
        hx = [x for t in core.to_dict()["map"]["tiles"] for x in t["hexes"] if x["index"] == h][0]
        if hx["site"] is None:
            costs[hx["terrain"]] = r.move_cost(h)
    assert costs["plains"] == 2
    assert costs["forest"] == 2                               # start tile A has a forest
    if "desert" in costs:
        assert costs["desert"] == 4
    assert core.to_dict()["turn"]["move_points"] == 2         # and Move 2
