# Header of ext/_policies.pyx: built-in policies with a C-level fast path (the accessors
# the Python face reads a GameState with are in ext/_access.pyx).
#
# A policy owns its own seeded stream.  It is derived like the engine's streams (SplitMix64
# from root seed, game index and stream id, _rng.rng_seed) but with ids from
# POLICY_STREAM_BASE upwards, so that _rng's Stream enum (0-6, the game's chance) is never
# shared with a decision maker: policy k of game g of the run seeded s draws from
# rng_seed(s, g, POLICY_STREAM_BASE + k).
from libc.stdint cimport uint64_t, int32_t
from mksim._rng cimport Rng
from mksim._engine cimport Engine

cdef enum:
    POLICY_STREAM_BASE = 100   # policy stream k has id POLICY_STREAM_BASE + k (never a game stream)

cdef class RandomPolicy:
    cdef Rng rng
    cdef readonly object seed          # root seed of the run
    cdef readonly object game_index    # index of the game in the run
    cdef readonly int stream           # k: this policy's stream is POLICY_STREAM_BASE + k
    cdef int choose_index(self, int n) noexcept nogil   # uniform in [0, n), n > 0
    cdef int pick(self, const int32_t* actions, int n) noexcept nogil   # index into actions[0:n]
    # The decision hook of every C policy: an index into actions[0:n] (n > 0) for the game
    # `eng` (never None; read it through ext/_view.pxd, look ahead only through
    # ext/_determinize.pxd).  The default ignores the engine and calls pick().  play(),
    # choose_engine() and choose_in() all decide through it.
    cdef int pick_engine(self, Engine eng, const int32_t* actions, int n) noexcept nogil

cdef enum:
    MAX_KIND = 256             # action kinds (action >> ACTION_SHIFT) a weight table covers

cdef class WeightedPolicy(RandomPolicy):
    # A random legal action drawn with probability proportional to its kind's weight.
    cdef double weight[MAX_KIND]       # per action kind; kinds not named keep `default`
    cdef readonly object weights       # the {kind name: weight} the policy was built with
    cdef readonly double default       # weight of kinds not named
