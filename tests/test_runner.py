"""Many games (mksim/runner.py): records, stop reasons, independence of jobs and chunks."""
from __future__ import annotations

import numpy as np
import pytest

from mksim.policies import Policy
from mksim.policies.builtin import RandomPolicy
from mksim.runner import (
    ERROR_ILLEGAL_ACTION, ERROR_NONE, ERROR_NOT_IMPLEMENTED, ERROR_STEP_LIMIT, OUTCOME_DTYPE,
    SCORE_MISSING, GameConfig, play_game, run,
)

CONFIG = GameConfig("first-reconnaissance", "arythea")


class SlowRandom(RandomPolicy):
    """The random policy without its C fast path (decides through mksim.game.State)."""

    name = "slow-random-test"
    metadata = {**RandomPolicy.metadata, "fast_path": False}


class Illegal(Policy):
    name = "illegal-test"

    def choose(self, state, legal):
        return -1


def test_record_layout():
    rec, msg = play_game(CONFIG, 1, 0)
    assert rec.dtype == OUTCOME_DTYPE and rec.shape == ()
    assert isinstance(msg, str)


def test_results_do_not_depend_on_jobs_or_chunk():
    a = run(CONFIG, 16, seed=5, jobs=1, chunk=1)
    b = run(CONFIG, 16, seed=5, jobs=2, chunk=7)
    c = run(CONFIG, 16, seed=5, jobs=1, chunk=7)
    d = run(CONFIG, 16, seed=5, jobs=2, chunk=1)
    for other in (b, c, d):
        assert np.array_equal(a.records, other.records)
        assert a.messages == other.messages
    assert list(a.records["game_index"]) == list(range(16))


def test_different_seeds_give_different_games():
    a = run(CONFIG, 10, seed=1)
    b = run(CONFIG, 10, seed=2)
    assert not np.array_equal(a.records["steps"], b.records["steps"])


def test_fast_path_and_python_path_play_the_same_games():
    fast = run(CONFIG, 12, seed=3, policy=RandomPolicy())
    slow = run(CONFIG, 12, seed=3, policy=SlowRandom())
    assert np.array_equal(fast.records, slow.records)
    assert fast.messages.keys() == slow.messages.keys()


def test_stopped_games_say_why_and_are_not_counted_as_finished():
    res = run(CONFIG, 60, seed=0)
    rec = res.records
    stopped = rec["error"] != ERROR_NONE
    assert res.n_finished + res.n_stopped == 60
    assert not rec["finished"][stopped].any()
    assert (rec["score"][stopped] == SCORE_MISSING).all()
    assert set(res.messages) == set(rec["game_index"][stopped].tolist())
    assert all(res.messages.values())
    if (rec["error"] == ERROR_NOT_IMPLEMENTED).any():
        assert any("not implemented" in m for m in res.messages.values())
    done = rec[rec["finished"]]
    assert (done["score"] != SCORE_MISSING).all() and (done["termination"] > 0).all()
    assert sum(n for _, n in res.top_errors(100)) == res.n_stopped


def test_step_limit_is_an_error_not_an_end():
    rec, msg = play_game(GameConfig(max_steps=3), 1, 0)
    if rec["error"] == ERROR_NOT_IMPLEMENTED:      # stopped even earlier
        return
    assert rec["error"] == ERROR_STEP_LIMIT and not rec["finished"]
    assert rec["termination"] == 3 and "step limit" in msg


def test_a_policy_choosing_an_illegal_action_is_recorded():
    rec, msg = play_game(CONFIG, 1, 0, Illegal())
    assert rec["error"] == ERROR_ILLEGAL_ACTION and not rec["finished"]
    assert "not legal" in msg


def test_policy_by_name_and_params():
    a = run(CONFIG, 4, seed=9, policy=("random", {"stream": 1}))
    b = run(CONFIG, 4, seed=9, policy=RandomPolicy(stream=1))
    assert np.array_equal(a.records, b.records)


@pytest.mark.parametrize("kwargs", [{"n_games": -1}, {"jobs": 0}, {"chunk": 0}])
def test_bad_run_arguments(kwargs):
    args = {"n_games": 2, "jobs": 1, "chunk": None, **kwargs}
    with pytest.raises(ValueError):
        run(CONFIG, seed=1, **args)


def test_a_capacity_stop_is_recorded_as_stopped_never_finished():
    """A card zone that overflows stops the game (ERR_CAPACITY, issue 7): the record says
    ``capacity``, not finished, and carries the engine's message."""
    from mksim._engine import UnitsTester
    from mksim._scoring import ScoringTester
    from mksim._state import GameCore
    from mksim.runner import ERROR_CAPACITY, ERROR_NAMES

    class Overfill(Policy):
        """Fills the Deed deck to its capacity before deciding: the engine's check after the
        next action stops the game (a full zone may have refused a card).  The stop comes from
        ``apply``, not from the policy (a policy that raises is recorded as policy_failed)."""
        def choose(self, state, legal):
            cap = GameCore.zone_capacities()["deck"]
            ScoringTester(state.core).set_cards(0, deck=["wound"] * cap, hand=["wound"] * 5,
                                                discard=[], play=[])
            return int(legal[0])

    rec, msg = play_game(GameConfig("first-reconnaissance", "arythea"), 1, 0, Overfill())
    assert rec["error"] == ERROR_CAPACITY and ERROR_NAMES[ERROR_CAPACITY] == "capacity"
    assert not rec["finished"] and rec["score"] == SCORE_MISSING
    assert msg.startswith("ERR_CAPACITY")
