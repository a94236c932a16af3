"""The ``search`` policy's value of a rolled-out position in Solo Conquest (ext/_search.pyx):
each own Shield on a city (a defender defeated, 11.12.2) and each conquered city (the +10 of
20.5.2, not Fame yet) count, so a rollout that wears a city down is preferred to one that
does not; First Reconnaissance, whose city cannot be entered (17.3.1), has no such term."""
from __future__ import annotations

from mksim.game import Game
from mksim.policies import parse_policy_spec

CITY = 2                      # a plains hex next to the portal on seed 5's map


def with_city(game, shields=0, conquered=False, tokens=("minotaur", "gargoyle", "freezers")):
    d = game.new_state(5, 0).to_dict(format=1)
    hexes = {str(CITY): {"site": "city", "colours": ["green"], "city_level": 5,
                         "tokens": [] if conquered else list(tokens)[shields:],
                         "city_shields": [shields, 0, 0, 0],
                         "flags": (["conquered"] if conquered else []) + ["tokens_revealed"]}}
    d["map"] = {"hexes": hexes}
    return game.state_from_dict(d)


def value(spec, st):
    pol = parse_policy_spec(spec)
    return pol._core.position_value(st.engine, 0)


def test_11_12_2_each_city_shield_is_worth_value_shield():
    game = Game("solo-conquest", "tovak")
    base = value("search", with_city(game))
    assert value("search", with_city(game, shields=2)) - base == 2 * 4.0        # the default value_shield
    assert value("search:value_shield=7", with_city(game, shields=1)) - value("search:value_shield=7", with_city(game)) == 7.0


def test_20_5_2_a_conquered_city_adds_value_city():
    game = Game("solo-conquest", "tovak")
    base = value("search:value_shield=0", with_city(game))
    assert value("search:value_shield=0", with_city(game, shields=3, conquered=True)) - base == 10.0
    assert value("search:value_shield=0,value_city=0", with_city(game, shields=3, conquered=True)) == base


def test_17_3_1_no_city_term_where_the_city_is_closed():
    # First Reconnaissance: the city cannot be entered, so the value is Fame and the build-up only
    # (a Shield written on its city by a fixture is not counted)
    game = Game("first-reconnaissance", "tovak")
    st = with_city(game, shields=1)
    assert value("search", st) == value("search:value_shield=99,value_city=99", st)
    assert value("search", st) == value("search", game.new_state(5, 0))
