"""The search policy (ext/_search.pyx, mksim/policies/search.py): determinized rollouts of
a base policy.  Its contract (legal, reproducible, picklable, blind to hidden information,
whole games) is tested by the conformance classes in tests/test_policy_conformance.py."""
from __future__ import annotations

import pytest

from mksim.game import Game
from mksim.policies import PolicyError, get_policy, parse_policy_spec


@pytest.fixture(scope="module")
def game(content):
    return Game("first-reconnaissance", "arythea", content=content)


def _play(game, policy, seed, limit=4000, phases=None):
    policy.reset(seed, 0)
    s = game.new_state(seed)
    sizes = []
    while not s.is_terminal() and len(sizes) < limit:
        legal = s.legal_actions()
        sizes.append(len(legal))
        if phases is not None:
            phases.append(s.view().phase_name)
        s.apply(policy.choose(s, legal))
    return s, sizes


def test_searches_exactly_the_decisions_with_few_options(game):
    p = get_policy("search", budget=6, max_branch=5)
    phases = []
    _, sizes = _play(game, p, 2, phases=phases)
    expected = sum(2 <= n <= 5 for n in sizes)
    assert expected > 0 and p.searched == expected
    # budget 6 over n options: max(1, 6 // n) worlds for each of the n options, and at least
    # 2 for a tactic choice (3.1: rolled out to the end of the round)
    assert "tactics" in phases
    assert p.rollouts == sum(n * max(2 if ph == "tactics" else 1, 6 // n)
                             for n, ph in zip(sizes, phases) if 2 <= n <= 5)


def test_decisions_left_to_the_base_policy_are_the_base_policys(game):
    """With max_branch 2 nothing with 3+ options is searched: on a game where every
    decision has 3+ options or 1, it plays exactly as its base."""
    base = get_policy("heuristic")
    p = get_policy("search", budget=4, max_branch=2)
    s_base, _ = _play(game, base, 4)
    s_search, sizes = _play(game, p, 4)
    if p.searched == 0:
        assert s_search.history == s_base.history
    else:
        # a searched binary decision may differ; up to the first one both games agree
        first = next(i for i, n in enumerate(sizes) if n == 2)
        assert s_search.history[:first] == s_base.history[:first]


def test_budget_changes_the_search_but_not_its_legality(game):
    a = get_policy("search", budget=2)
    b = get_policy("search", budget=12)
    sa, _ = _play(game, a, 1)
    sb, _ = _play(game, b, 1)
    assert sa.is_terminal() and sb.is_terminal()
    assert b.rollouts > a.rollouts


def test_bad_parameters_are_refused():
    with pytest.raises(PolicyError, match="budget must be >= 1"):
        parse_policy_spec("search:budget=0")
    with pytest.raises(PolicyError, match="unknown base policy 'oracle'"):
        parse_policy_spec("search:base=oracle")
    with pytest.raises(PolicyError, match="max_branch must be between 2 and 32"):
        parse_policy_spec("search:max_branch=99")
    with pytest.raises(PolicyError, match="takes a whole number"):
        parse_policy_spec("search:budget=many")


def test_a_cycle_of_searched_choices_still_ends_the_game():
    """Wolfhawk, First Reconnaissance, run 2026 game 4: the search once kept choosing an
    option that returns to the same position (rated above ending the turn by its rollouts)
    until the step limit; after 64 searched decisions in a turn the base policy decides."""
    from mksim.runner import ERROR_NONE, GameConfig, play_game
    rec, msg = play_game(GameConfig("first-reconnaissance", "wolfhawk"), 2026, 4, parse_policy_spec("search:budget=8"))
    assert rec["error"] == ERROR_NONE and rec["finished"], msg
    assert rec["steps"] < 2000


def test_base_parameters_reach_the_base_policy():
    p = parse_policy_spec("search:budget=2,base=heuristic-conqueror,base_aggression=2.5,base_skill_choice=0")
    params = p._core.base_policy().params
    assert params["aggression"] == 2.5 and params["skill_choice"] == 0.0
    assert params["fight_threshold"] == 0.0                  # the conqueror preset's, kept
    assert p.parameters["base_aggression"] == 2.5            # recorded with the search's own
    p = parse_policy_spec("search:base=heuristic,base_preset=explorer")
    assert p._core.base_policy().params["explore_weight"] == 2.0
    p = parse_policy_spec("search:base=eager,base_default=7")
    assert p._base.parameters["default"] == 7.0
    with pytest.raises(PolicyError, match="aggression"):     # eager has no such parameter
        parse_policy_spec("search:base=eager,base_aggression=1")
    with pytest.raises(PolicyError, match="takes a number"):
        parse_policy_spec("search:base_aggression=much")
    with pytest.raises(PolicyError, match="no parameter 'base_bravery'"):
        parse_policy_spec("search:base_bravery=1")
    with pytest.raises(PolicyError, match="unknown heuristic preset"):
        parse_policy_spec("search:base_preset=nope")


def test_base_parameters_change_the_decisions_left_to_the_base():
    """A level-up's skill choice with three options (two revealed tokens and one in the
    Common offer, 13.6.4) is not searched at max_branch 2: the base decides, and its
    skill_choice parameter -- passed as base_skill_choice -- decides which skill."""
    from test_heuristic import _at_skill_choice
    picks = {}
    for value in (1, 0):
        _, st = _at_skill_choice("arythea_invocation", "arythea_polarization", ("tovak_shield_mastery",))
        p = parse_policy_spec(f"search:budget=2,max_branch=2,base_skill_choice={value}")
        p.reset(1, 0)
        legal = st.legal_actions()
        assert len(legal) == 3
        st.apply(p.choose(st, legal))
        picks[value] = st.to_dict()["players"][0]["skills"]
        assert p.searched == 0
    assert picks == {1: ["tovak_shield_mastery"], 0: ["arythea_invocation"]}


def test_13_6_4_determinized_worlds_keep_the_revealed_skill_tokens():
    """At a level-up's skill choice the two top tokens of the Skill stack are revealed
    (13.6.4): a determinized copy keeps them on top and resamples only the rest, so the
    search compares the skills it is offered."""
    from test_heuristic import _at_skill_choice
    _, st = _at_skill_choice("arythea_dark_fire_magic", "arythea_hot_swordsmanship")
    stack = st.to_dict()["players"][0]["skill_stack"]
    orders = set()
    for seed in range(6):
        c = st.determinize(seed).to_dict()["players"][0]["skill_stack"]
        assert c[-2:] == stack[-2:] and sorted(c) == sorted(stack)
        orders.add(tuple(c))
    assert len(orders) > 1                                   # the hidden rest is resampled
