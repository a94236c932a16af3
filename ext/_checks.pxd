# Header of ext/_checks.pyx: invariants of a GameState that hold after every action of a
# game played by the rules.  Tests (tests/test_invariants.py) call them after each step
# of seeded sweeps; they read the C state directly, so checking costs little.
from mksim._types cimport GameState

cdef int count_violations(const GameState* gs, int* codes, int max_codes) noexcept nogil
cdef int count_deeds(const GameState* gs, int wound) noexcept nogil   # card conservation's count
cdef int player_deed_balance(const GameState* gs, int p, int wound) noexcept nogil   # per player

cdef enum:
    V_CONSERVATION = 16        # play_checked: count_deeds differs from the game's start (6.1)
    V_TWO_ACTIONS = 17         # play_checked: a second action (site, interaction) in one turn (4.4.5)
    V_PLAYER_CONSERVATION = 18 # play_checked: a card of a player not deciding appeared or vanished (6.1, 6.4)
    CHECK_CODES = 19           # the N_CHECKS state checks of _checks.pyx + the three above
