"""Seeded random streams (ext/_rng.pyx): the reproducibility guarantees of the brief.

All chance comes from streams derived from (root seed, game index, stream); no global RNG.
"""
import random
from collections import Counter

import numpy as np
import pytest

from mksim._rng import STREAM_NAMES, RandomStream, stream_id


def draws(stream, n=50, k=6):
    return [stream.below(k) for _ in range(n)]


def test_same_seed_game_and_stream_give_the_same_draws():
    assert draws(RandomStream(7, 3, "map")) == draws(RandomStream(7, 3, "map"))


def test_game_index_and_stream_give_independent_sequences():
    base = draws(RandomStream(7, 3, "map"))
    assert draws(RandomStream(7, 4, "map")) != base      # another game of the run
    assert draws(RandomStream(7, 3, "deeds")) != base    # another stream of the same game
    assert draws(RandomStream(8, 3, "map")) != base      # another root seed


def test_drawing_from_one_stream_does_not_shift_another():
    """An extra Source reroll must not change the next tile drawn."""
    a_map = RandomStream(11, 0, "map")
    b_source, b_map = RandomStream(11, 0, "source"), RandomStream(11, 0, "map")
    for _ in range(100):
        b_source.below(6)
    assert draws(a_map) == draws(b_map)


def test_global_rngs_do_not_affect_streams():
    first = draws(RandomStream(5, 1, "enemies"))
    random.seed(123)
    random.random()
    np.random.seed(99)
    np.random.rand(10)
    assert draws(RandomStream(5, 1, "enemies")) == first


def test_below_is_unbiased_over_a_die():
    """A mana die (5.2.1) has six faces: each should come up about 1/6 of the time."""
    die = RandomStream(2026, 0, "source")
    counts = Counter(die.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    for face in range(6):
        assert abs(counts[face] - 10_000) < 500  # > 5 standard deviations would be a bug


def test_shuffle_is_a_permutation_and_depends_on_the_stream():
    items = list(range(16))
    a = RandomStream(1, 0, "deeds").shuffled(items)
    b = RandomStream(1, 1, "deeds").shuffled(items)
    assert sorted(a) == items and sorted(b) == items
    assert a != b
    assert RandomStream(1, 0, "deeds").shuffled(items) == a


def test_stream_names_are_the_documented_ones():
    # issue 12: seats 1-3 shuffle their Deed decks on streams of their own (7, 8, 9); seat 0
    # keeps "deeds", so the streams of a solo game are those of before
    assert STREAM_NAMES == ("map", "enemies", "deeds", "source", "dummy", "offers", "rewards",
                            "deeds_1", "deeds_2", "deeds_3")
    assert stream_id("offers") == 5
    with pytest.raises(ValueError, match="unknown stream 'dice'"):
        stream_id("dice")


def test_below_rejects_an_empty_range():
    with pytest.raises(ValueError):
        RandomStream(1, 0, 0).below(0)
