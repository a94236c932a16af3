"""Cities: reveal with their garrison (9.9.3) and First Reconnaissance's closed city (17.3.1)."""
from collections import Counter

from mksim._engine import Engine, describe, encode
from mksim._rules import Rules
from mksim._state import GameCore


def reveal_city(content, tables, scenario, seed, city_tile):
    """Put a city tile on top of the stack and explore it from a hex that can (9.8)."""
    core = GameCore.new(tables, content, scenario, "arythea", seed)
    r = Rules(core)
    r.clear_tile_stack()
    r.push_tile(tables.tile_ids.index(city_tile))
    for h in range(r.n_hexes):
        pos = r.explorable(h)
        if pos:
            r.set_position(h)
            r.set_move_points(2)
            r.explore(*pos[0])
            return core
    raise AssertionError("no explorable position after setup")


def city_hex(d):
    for tile in d["map"]["tiles"]:
        for h in tile["hexes"]:
            if h["site"] == "city":
                return h
    raise AssertionError("no city on the map")


def test_9_9_3_the_first_city_of_solo_conquest_is_level_5_with_its_garrison(content, tables):
    # Solo Conquest: city levels 5, then 8 (17.2); the green city's level-5 garrison in
    # city_garrisons.toml decides the colours drawn face down
    want = next(g["tokens"] for g in content["city_garrisons"] if g["city"] == "green" and g["level"] == 5)
    core = reveal_city(content, tables, "solo_conquest", 3, "core_5")
    h = city_hex(core.to_dict())
    assert h["colours"] == ["green"] and h["city_level"] == 5
    colours = Counter(content.get("enemies", t["enemy"])["colour"] for t in h["tokens"])
    assert colours == Counter(want)
    assert h["tokens_face_up"] is False


def test_17_3_1_the_city_of_first_reconnaissance_cannot_be_entered(content, tables):
    core = reveal_city(content, tables, "first_reconnaissance", 4, "core_8")
    d = core.to_dict()
    city = city_hex(d)
    eng = Engine(core, tables, content, "first_reconnaissance")
    eng.apply(encode("tactic", content.ids("tactics").index("early_bird")))
    eng.apply(encode("regular_turn"))
    r = Rules(core)
    nb = [n for n in city["neighbours"] if n >= 0 and r.move_cost(n) >= 0 and n != city["index"]]
    assert nb
    r.set_position(nb[0])
    r.set_move_points(10)
    moves = [describe(int(a)) for a in eng.legal_actions() if describe(int(a)).startswith("move")]
    direction = d["map"]["tiles"] and [k for k in range(6) if r.neighbours(nb[0])[k] == city["index"]][0]
    assert f"move({direction})" not in moves
