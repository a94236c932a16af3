"""Policies (mksim/policies, ext/_policies.pyx).

Every policy's tests inherit the conformance class (tests/policy_conformance.py): legal
actions only, deterministic for the same seed, picklable (the runner ships policies to
worker processes), whole games of each solo scenario, blind to hidden information.
"""
from __future__ import annotations


import numpy as np
import pytest

from mksim._policies import RandomPolicy as CRandom
from mksim._policies import STREAM_BASE, policy_stream
from mksim._rng import STREAM_NAMES, RandomStream
from mksim.game import Game
from mksim.policies import Policy, get_policy, list_policies, policy_class, register
from policy_conformance import PolicyConformance as PolicyContract
from policy_conformance import _decisions

SEEDS = (0, 1, 2, 3)


@pytest.fixture(scope="module")
def game(content):
    return Game("first-reconnaissance", "arythea", content=content)


def decisions(game, policy, seed, game_index=0, limit=3000):
    """Every (legal list, chosen action) of one game; stops at an engine gap."""
    return _decisions(game, policy, seed, game_index, limit)


class TestRandom(PolicyContract):
    name = "random"

    def test_different_seeds_give_different_decisions(self, game):
        logs = {tuple(decisions(game, self.make(), s)) for s in range(6)}
        assert len(logs) > 1

    def test_stream_parameter_changes_the_decisions(self, game):
        a = [d for _, d in decisions(game, get_policy("random", stream=0), 4)]
        b = [d for _, d in decisions(game, get_policy("random", stream=3), 4)]
        assert a != b

    def test_policy_streams_are_not_game_streams(self):
        """The policy draws from rng_seed(seed, game, 100 + k), never one of the game's
        seven streams (ext/_rng.pxd), so a policy cannot shift the game's chance."""
        assert STREAM_BASE == 100
        for seed, gi in ((0, 0), (7, 3)):
            mine = policy_stream(seed, gi, 0, 4)
            for name in STREAM_NAMES:
                s = RandomStream(seed, gi, name)
                assert [s.next_u64() for _ in range(4)] != mine
            s = RandomStream(seed, gi, STREAM_BASE)
            assert [s.next_u64() for _ in range(4)] == mine

    def test_uniform_choice(self):
        c = CRandom(1, 0)
        counts = np.bincount([c.index(3) for _ in range(3000)], minlength=3)
        assert counts.min() > 900

    def test_no_legal_action_is_an_error(self):
        with pytest.raises(ValueError):
            CRandom(1, 0).choose([])
        with pytest.raises(ValueError):
            get_policy("random", stream=-1)


class TestFirst(PolicyContract):
    name = "first"

    def test_takes_the_first_action(self, game):
        for legal, a in decisions(game, self.make(), 1, limit=50):
            assert a == legal[0]


def test_registry_lists_the_built_ins():
    assert {"random", "first"} <= set(list_policies())
    assert list_policies() == sorted(list_policies())


def test_unknown_policy_lists_the_known_ones():
    with pytest.raises(ValueError, match="unknown policy 'nope'; known: .*random"):
        get_policy("nope")


def test_bad_parameters_are_value_errors():
    with pytest.raises(ValueError, match="policy 'random' has no parameter 'colour'; its parameters: stream"):
        get_policy("random", colour="red")
    with pytest.raises(ValueError, match="policy 'random': stream must be >= 0"):
        get_policy("random", stream=-1)


def test_register_checks_its_argument():
    with pytest.raises(TypeError):
        register(int)

    class Clash(Policy):
        name = "random"

    with pytest.raises(ValueError, match="already registered"):
        register(Clash)

    class Nameless(Policy):
        pass

    with pytest.raises(ValueError):
        register(Nameless)


def test_base_policy_must_be_subclassed():
    with pytest.raises(NotImplementedError):
        Policy().choose(None, [1])
    with pytest.raises(NotImplementedError):
        Policy().play_engine(None, 1)


class TestEager(PolicyContract):
    name = "eager"

    def test_weights_set_the_odds_of_each_kind(self):
        """Two kinds weighted 1 and 3: about a quarter / three quarters of the draws."""
        from mksim._policies import WeightedPolicy
        p = WeightedPolicy(1, 0, 0, {"move": 1.0, "explore": 3.0}, 0.0)
        move, explore = (8 << 20) | 2, (9 << 20) | 5          # A_MOVE, A_EXPLORE
        picks = [p.choose([move, explore]) for _ in range(4000)]
        share = picks.count(explore) / len(picks)
        assert 0.72 < share < 0.78

    def test_zero_weight_kind_is_never_chosen_when_another_is_legal(self):
        from mksim._policies import WeightedPolicy
        p = WeightedPolicy(2, 0, 0, {"end_turn": 0.0}, 1.0)
        end, move = (10 << 20), (8 << 20) | 1
        assert {p.choose([end, move, end]) for _ in range(500)} == {move}
        assert p.choose([end]) == end          # all zero: uniform among them

    def test_plays_more_of_the_game_than_random(self, game):
        """Over the same seeds the eager policy takes more decisions per game and explores
        more tiles than uniform random choices (its reason to exist)."""
        from mksim._access import core_info
        tiles = {}
        for name in ("random", "eager"):
            total = 0
            for seed in range(6):
                p = get_policy(name)
                p.reset(seed, 0)
                s = game.new_state(seed)
                try:
                    p.play_engine(s.engine, 20000)
                except NotImplementedError:
                    pass
                total += core_info(s.core)["n_tiles"]
            tiles[name] = total
        assert tiles["eager"] > tiles["random"]

    def test_unknown_kind_or_negative_weight_is_rejected(self):
        with pytest.raises(ValueError, match="unknown action kind 'fly'"):
            get_policy("eager", weights={"fly": 1})
        with pytest.raises(ValueError, match="must be a number >= 0"):
            get_policy("eager", weights={"move": -1})
