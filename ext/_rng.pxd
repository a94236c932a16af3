# Header of ext/_rng.pyx: seeded random streams (no global RNG anywhere).
#
# Every game owns one Rng per *stream* (map tiles, enemy tokens, deed shuffles, Source
# dice, dummy player, offers, rewards).  A stream's 256-bit state is derived from the root
# seed, the game index and the stream id with SplitMix64, so game k of a run is the same
# game whatever --jobs, chunk size or backend, and drawing more from one stream (say, an
# extra Source reroll) never shifts another stream (say, the next tile).
from libc.stdint cimport uint64_t, uint32_t, int16_t, int8_t

cdef enum Stream:
    STREAM_MAP = 0        # tile stack order and tile draws from the box (1.2.13, 9.8.8)
    STREAM_ENEMIES = 1    # enemy and ruins token piles (1.2.2)
    STREAM_DEEDS = 2      # players' Deed deck shuffles (1.3.4, 2.2.8)
    STREAM_SOURCE = 3     # Source dice and spare-die rolls (1.2.11, 4.6.2, 13.5.1)
    STREAM_DUMMY = 4      # dummy player: hero, deck, tactic (18)
    STREAM_OFFERS = 5     # unit, AA, spell, artifact decks and skill stacks (1.2.3-1.2.9)
    STREAM_REWARDS = 6    # any other chance (rewards, variants)
    STREAM_DEEDS_1 = 7    # Deed shuffles of seats 1, 2, 3: each player has their own chance
    STREAM_DEEDS_2 = 8    # (issue 12); seat 0 keeps STREAM_DEEDS, so a solo game is unchanged
    STREAM_DEEDS_3 = 9
    NUM_STREAMS = 10

cdef struct Rng:
    uint64_t s0          # xoshiro256** state word 0
    uint64_t s1          # state word 1
    uint64_t s2          # state word 2
    uint64_t s3          # state word 3

cdef void rng_seed(Rng* rng, uint64_t root, uint64_t game, uint64_t stream) noexcept nogil
cdef uint64_t rng_next(Rng* rng) noexcept nogil
cdef uint32_t rng_below(Rng* rng, uint32_t n) noexcept nogil
cdef void rng_shuffle_int(Rng* rng, int* items, int n) noexcept nogil
cdef void rng_shuffle_i16(Rng* rng, int16_t* items, int n) noexcept nogil
cdef void rng_shuffle_i8(Rng* rng, int8_t* items, int n) noexcept nogil
