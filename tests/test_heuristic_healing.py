"""The ``heuristic`` policy heals its Units (12.3.3, ``unit_heal``): a wounded Unit cannot be
activated (12.2.2) until Healing points equal to its level are spent on it; without this the
policy never healed one (in Solo Conquest 85% of its Units were wounded by round 6)."""
from __future__ import annotations

import pytest

from mksim.game import Game
from mksim.policies import parse_policy_spec

from test_heuristic_conquest import SEED, at_village, play_turn


def healing_position(scenario, hand, healing, unit="utem_guardsmen"):
    """A movement with ``healing`` Healing points to spend (12.3.3), ``hand`` and one wounded
    Unit (``unit``; Utem Guardsmen are level 2, Peasants level 1, 7.1)."""
    game = Game(scenario, "tovak")
    fx = {"format": 2, "phase": "move",
          "players": [{"position": 0, "hand": list(hand), "units": [{"unit": unit, "wounds": 1}]}],
          "turn": {"healing": healing}}
    return game.state_from_dict(fx)


def first_choice(st, spec="heuristic"):
    pol = parse_policy_spec(spec)
    pol.reset(SEED, 0)
    return st.action_to_string(int(pol.choose(st, st.legal_actions())))


@pytest.mark.parametrize("scenario", ["first-reconnaissance", "solo-conquest"])
def test_12_3_3_healing_points_heal_the_wounded_unit(scenario):
    # one Healing point, Peasants (level 1) wounded, no Wound in hand: the point heals the
    # Unit; with unit_heal=0 (the old play) it is left unspent and the Unit stays wounded
    st = healing_position(scenario, ["march"], 1, unit="peasants")
    assert "heal Peasants" in [st.action_to_string(int(a)) for a in st.legal_actions()]
    assert first_choice(st) == "heal Peasants"
    assert first_choice(st, "heuristic:unit_heal=0") != "heal Peasants"


def test_12_3_3_two_points_heal_a_wound_in_hand_or_the_unit_by_scenario():
    # two Healing points, a Wound in hand and Utem Guardsmen (level 2) wounded: the points
    # heal either the Wound (1 point) or the Unit (2).  In Solo Conquest a Wound card costs 2
    # points at the end (20.2 via 20.5.1; conquest_heal) and goes first; in First
    # Reconnaissance the Unit, worth more than a Wound there, is healed
    hand = ["wound", "march"]
    assert first_choice(healing_position("solo-conquest", hand, 2)) == "heal: throw away a Wound from hand"
    assert first_choice(healing_position("first-reconnaissance", hand, 2)) == "heal Utem Guardsmen"


def test_10_5_solo_conquest_buys_healing_at_the_village_for_a_wounded_unit():
    # six Influence (Promise powered 4 + Threaten 2) at a village (3 Influence a Healing
    # point, 10.5): two points heal the level-2 Utem Guardsmen (12.3.3).  Tovak's one Command
    # token is taken by them, so no Unit can be recruited; the old play (unit_heal=0) spent
    # nothing on them
    game = Game("solo-conquest", "tovak")
    hand = ["promise", "threaten", "march", "rage", "stamina"]
    for spec, wounds in (("heuristic", 0), ("heuristic:unit_heal=0", 1)):
        d = at_village(game, hand).to_dict(format=1)
        d["players"][0]["units"] = [{"unit": "utem_guardsmen", "wounds": 1}]
        d, _ = play_turn(game.state_from_dict(d), parse_policy_spec(spec))
        assert [(u["unit"], u["wounds"]) for u in d["players"][0]["units"]] == [("utem_guardsmen", wounds)], spec


# -- a Unit's ability that needs a mana counts only when the mana can be paid (7.3.3) --------

@pytest.mark.parametrize("red_crystals, kills", [(0, 0), (1, 1)])
def test_7_3_3_unit_ability_needing_an_unpayable_mana_is_not_planned_with(red_crystals, kills):
    # Catapults: Siege 3, or Fire Siege 5 for a red mana (7.3.3).  Illusionists (Armor 3,
    # physical resistance, 11.9) behind walls take only Siege in the Ranged phase (11.5.3):
    # the physical 3 is halved to 1 (11.9.2), the fire 5 defeats them.  The Source die is
    # used already this turn (5.4), so a red mana is there only as a crystal; the plan used
    # to count Fire Siege 5 either way (and the fight then activated the Siege 3 for nothing)
    game = Game("solo-conquest", "tovak")
    fx = {"format": 2, "phase": "move",
          "players": [{"position": 0, "hand": ["wound", "wound"], "units": [{"unit": "catapults"}],
                       "crystals": {"red": red_crystals}}],
          "turn": {"dice_used": 1}}
    st = game.state_from_dict(fx)
    ids = list(game.tables.enemy_ids)
    _, got, _ = parse_policy_spec("heuristic")._core.plan_fight(st.engine, [ids.index("illusionists")], 1)
    assert got == kills


# -- a Unit takes the blow that would knock the hero out (11.7.8, ``knockout_guard``) ---------

def damage_phase(wounds_this_combat):
    """First Reconnaissance, the Assign Damage phase against unblocked Golems (Attack 2):
    Tovak at level 1 (Armor 2, Hand limit 5) with four cards in hand and Peasants (Armor 3)."""
    game = Game("first-reconnaissance", "tovak")
    fx = {"format": 2, "phase": "combat_damage",
          "players": [{"position": 0, "hand": ["march", "rage", "stamina", "promise"],
                       "units": [{"unit": "peasants"}], "wounds_this_combat": wounds_this_combat}],
          "turn": {"action_taken": 1},
          "combat": {"enemies": [{"enemy": "golems"}]}}
    return game.state_from_dict(fx)


def assigned_to(st, spec):
    pol = parse_policy_spec(spec)
    pol.reset(SEED, 0)
    for _ in range(4):
        words = st.action_to_string(int(a := pol.choose(st, st.legal_actions())))
        if words.startswith("assign the damage"):
            return words
        st.apply(int(a))
    raise AssertionError("no damage assigned")


@pytest.mark.parametrize("wounds_this_combat, spec, target", [
    (4, "heuristic", "Peasants"),                        # 4 + 1 Wound = the Hand limit 5
    (4, "heuristic:knockout_guard=0", "the hero"),       # the old rule: 2 damage, Armor 2
    (3, "heuristic", "the hero"),                        # 3 + 1 < 5: no knock-out
])
def test_11_7_8_a_unit_takes_the_blow_that_would_knock_the_hero_out(wounds_this_combat, spec, target):
    # Golems' 2 damage is one Wound on the hero (11.7.7).  With four Wounds taken this combat
    # it would reach the Hand limit and knock the hero out, discarding the four cards
    # (11.7.8); the Peasants take it instead (wounded, 12.2)
    assert assigned_to(damage_phase(wounds_this_combat), spec) == f"assign the damage to {target}"
