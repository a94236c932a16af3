# Header of ext/_checks.pyx: invariants of a GameState that hold after every action of a
# game played by the rules.  Tests (tests/test_invariants.py) call them after each step
# of seeded sweeps; they read the C state directly, so checking costs little.
from mksim._types cimport GameState

cdef int count_violations(const GameState* gs, int* codes, int max_codes) noexcept nogil
