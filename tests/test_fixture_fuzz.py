"""Fixture fuzzing (issue 7, deliverable 4): real positions of random and eager games of
both solo scenarios, with and without The Lost Legion, with one to three fields mutated
(tests/fixture_mutations.py), are each either refused with one FixtureError whose message
starts with the key path, or load and play to their end under the random policy -- no
crash, no hang (more than 20,000 decisions), no other exception, and every action the
engine lists on the loaded position is accepted.

Positions with a handler's question pending (their scratch values are used as indices)
also have those values, the stage, the question and its options mutated.

tests/benchmarks/fixture_fuzz.py runs the same at scale (>= 20,000 mutations).
"""
from __future__ import annotations

import random
from collections import Counter

from fixture_mutations import PendingPositions, Positions, judge, mutate, mutate_pending

N_POSITIONS = 40        # 5 of each (scenario, Lost Legion, policy)
PER_POSITION = 26       # 1,040 mutations
N_PENDING = 16          # positions with a handler's question pending: 2 of each kind
PER_PENDING = 8         # 128 mutations of their scratch values, stage, question and options


def test_mutated_real_positions_are_refused_clearly_or_play_to_the_end():
    positions = Positions(20261201)
    verdicts: Counter = Counter()
    failures = []
    for pk in range(N_POSITIONS):
        game, d, where = positions.take(pk)
        for j in range(PER_POSITION):
            r = random.Random(pk * 1000 + j)
            m, words = mutate(d, r, r.choice((1, 1, 1, 2, 3)))
            v = judge(game, m, play_seed=j)
            verdicts["failure" if v.startswith("failure") else v] += 1
            if v.startswith("failure") and len(failures) < 10:
                failures.append(f"{where}; {'; '.join(words)} -> {v}")
    assert not failures, "\n".join(failures)
    assert sum(verdicts.values()) == N_POSITIONS * PER_POSITION
    # both outcomes occur: the mutations reach positions that load and play, and ones refused
    assert verdicts["refused"] > 100 and verdicts["ended"] + verdicts["stopped"] > 100, verdicts


def test_mutated_pending_questions_are_refused_clearly_or_play_to_the_end():
    positions = PendingPositions(20261202)
    verdicts: Counter = Counter()
    failures = []
    for pk in range(N_PENDING):
        game, d, where = positions.take(pk)
        assert d["turn"]["handler_row"] >= 0, where
        for j in range(PER_PENDING):
            r = random.Random(pk * 1000 + j)
            m, words = mutate_pending(d, r)
            v = judge(game, m, play_seed=j)
            verdicts["failure" if v.startswith("failure") else v] += 1
            if v.startswith("failure") and len(failures) < 10:
                failures.append(f"{where}; {'; '.join(words)} -> {v}")
    assert not failures, "\n".join(failures)
    assert verdicts["refused"] > 20 and verdicts["ended"] + verdicts["stopped"] > 20, verdicts


def test_the_unmutated_positions_load_and_play_to_the_end():
    """The check by meaning accepts every real position it is given (no false refusal)."""
    positions = Positions(20261201)
    for pk in range(N_POSITIONS):
        game, d, where = positions.take(pk)
        assert judge(game, d, play_seed=pk) in ("ended", "stopped"), where
