"""Speed benchmarks of the core with the random policy (pytest-benchmark).

Not part of the default test run (pyproject.toml's ``norecursedirs`` skips this folder).
Run them with::

    pytest tests/benchmarks/bench_random.py --benchmark-enable

They measure and report; they never assert a wall-clock time.
"""
from __future__ import annotations

from mksim.game import Game
from mksim.policies import get_policy
from mksim.runner import OUTCOME_DTYPE, GameConfig, play_game, run

CONFIG = GameConfig("first-reconnaissance", "arythea")


def test_bench_one_game_fast_path(benchmark):
    CONFIG.game()
    seeds = iter(range(10**9))
    rec, _ = benchmark(lambda: play_game(CONFIG, next(seeds), 0))
    assert rec.dtype == OUTCOME_DTYPE


def test_bench_100_games(benchmark):
    CONFIG.game()
    res = benchmark.pedantic(run, args=(CONFIG, 100, 1), rounds=3, iterations=1)
    assert len(res.records) == 100


def test_bench_new_state(benchmark):
    game = CONFIG.game()
    state = benchmark(game.new_state, 1, 0)
    assert len(state.legal_actions()) > 0


def test_bench_clone(benchmark):
    game = Game()
    state = game.new_state(1)
    clone = benchmark(state.clone)
    assert clone.to_dict() == state.to_dict()


def test_bench_python_decision_loop(benchmark):
    game = CONFIG.game()
    policy = get_policy("random")

    def one_game():
        policy.reset(3, 0)
        s = game.new_state(3)
        try:
            while not s.is_terminal():
                s.apply(policy.choose(s, s.legal_actions()))
        except (NotImplementedError, ValueError):
            pass
        return s

    s = benchmark(one_game)
    assert s.result().steps > 0
