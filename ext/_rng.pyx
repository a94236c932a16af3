# cython: language_level=3
"""Seeded random streams: SplitMix64 seeding and xoshiro256** generation.

The C functions are the ones the engine uses; :class:`RandomStream` wraps one stream for
Python code and tests.  Nothing here touches Python's ``random`` or numpy's global state.
"""
from libc.stdint cimport uint64_t, uint32_t, int16_t, int8_t
import numbers

STREAM_NAMES = ("map", "enemies", "deeds", "source", "dummy", "offers", "rewards",
                "deeds_1", "deeds_2", "deeds_3")   # deeds = seat 0's Deed shuffles, deeds_k seat k's


cdef inline uint64_t _splitmix(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef void rng_seed(Rng* rng, uint64_t root, uint64_t game, uint64_t stream) noexcept nogil:
    """Derive a stream's state from (root seed, game index, stream id)."""
    cdef uint64_t x = root
    cdef uint64_t a = _splitmix(&x)
    x = a ^ (game * <uint64_t>0xD1B54A32D192ED03ULL)
    cdef uint64_t b = _splitmix(&x)
    x = b ^ ((stream + 1) * <uint64_t>0x8CB92BA72F3D8DD7ULL)
    rng.s0 = _splitmix(&x)
    rng.s1 = _splitmix(&x)
    rng.s2 = _splitmix(&x)
    rng.s3 = _splitmix(&x)
    if rng.s0 == 0 and rng.s1 == 0 and rng.s2 == 0 and rng.s3 == 0:  # never all zero
        rng.s0 = 1


cdef uint64_t rng_next(Rng* rng) noexcept nogil:
    """Next 64 random bits (xoshiro256**)."""
    cdef uint64_t result = _rotl(rng.s1 * 5, 7) * 9
    cdef uint64_t t = rng.s1 << 17
    rng.s2 ^= rng.s0
    rng.s3 ^= rng.s1
    rng.s1 ^= rng.s2
    rng.s0 ^= rng.s3
    rng.s2 ^= t
    rng.s3 = _rotl(rng.s3, 45)
    return result


cdef uint32_t rng_below(Rng* rng, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n) without modulo bias (Lemire's method); n > 0."""
    cdef uint64_t m = (rng_next(rng) >> 32) * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            m = (rng_next(rng) >> 32) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef void rng_shuffle_int(Rng* rng, int* items, int n) noexcept nogil:
    """Fisher-Yates shuffle of items[0:n] in place."""
    cdef int i, j, tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(rng, <uint32_t>(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


cdef void rng_shuffle_i16(Rng* rng, int16_t* items, int n) noexcept nogil:
    """Fisher-Yates shuffle of an int16 array (decks of card indices); same draws as rng_shuffle_int."""
    cdef int i, j
    cdef int16_t tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(rng, <uint32_t>(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


cdef void rng_shuffle_i8(Rng* rng, int8_t* items, int n) noexcept nogil:
    """Fisher-Yates shuffle of an int8 array (tile stacks, ruins); same draws as rng_shuffle_int."""
    cdef int i, j
    cdef int8_t tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(rng, <uint32_t>(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


def stream_id(name):
    """Integer id of a named stream ('map', 'enemies', ...)."""
    try:
        return STREAM_NAMES.index(name)
    except ValueError:
        raise ValueError(f"unknown stream {name!r}; streams are {', '.join(STREAM_NAMES)}") from None


SEED_MAX = 0xFFFFFFFFFFFFFFFF    # seeds and game indices are unsigned 64-bit numbers


def check_seed(value, what="seed"):
    """``value`` as an int if it is a whole number in 0 .. 2**64 - 1 (a root seed or a game
    index); ValueError naming ``what`` otherwise (never wrapped round: 2**64 is not 0)."""
    if type(value) is not int and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
        raise ValueError(f"{what} must be a whole number in 0 .. 2**64 - 1, got {type(value).__name__} {value!r}")
    v = int(value)                                  # numpy integers too
    if v < 0 or v > SEED_MAX:
        raise ValueError(f"{what} must be in 0 .. 2**64 - 1, got {v}")
    return v


cdef class RandomStream:
    """One seeded stream, for Python callers and tests.

    Parameters
    ----------
    root_seed, game_index : int
        The run's root seed and the game's index in the run.
    stream : str or int
        Stream name (see ``STREAM_NAMES``) or id.
    """

    cdef Rng rng

    def __init__(self, root_seed, game_index, stream):
        sid = stream_id(stream) if isinstance(stream, str) else int(stream)
        rng_seed(&self.rng, <uint64_t>check_seed(root_seed, "root_seed"),
                 <uint64_t>check_seed(game_index, "game_index"), <uint64_t>sid)

    def next_u64(self):
        return rng_next(&self.rng)

    def below(self, n):
        """Uniform integer in [0, n)."""
        if n <= 0 or n > 0xFFFFFFFF:
            raise ValueError("n must be in 1 .. 2**32-1")
        return rng_below(&self.rng, <uint32_t>n)

    def shuffled(self, items):
        """A shuffled copy of a list (same algorithm as the engine's decks)."""
        cdef int n = len(items)
        cdef int[::1] idx
        import numpy as np
        arr = np.arange(n, dtype=np.intc)
        idx = arr
        if n > 1:
            rng_shuffle_int(&self.rng, &idx[0], n)
        return [items[i] for i in arr]

    def state(self):
        return (self.rng.s0, self.rng.s1, self.rng.s2, self.rng.s3)
