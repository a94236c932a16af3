# Generic lasting effects (issue 12): a small array of Modifier entries in TurnState
# (ext/_types.pxd) with add / find / expire helpers, and the lifecycle events that end them.
# Inline and nogil so the loop, _combat and the handler modules read them with no call
# through the engine's C API.  Design: docs/engine.md "Events and modifiers".
from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from mksim._types cimport TurnState, Modifier, MAX_MODS, ModKind, ModScope, MS_ROUND, MS_BLOCK, \
    MK_WEATHER_OTHERS, MK_MANA_EXPLOIT, MK_HOWL_OTHERS

cdef enum Event:               # lifecycle points the core fires (fire_event, ext/_engine.pyx)
    EV_TURN_START = 0          # a turn's first decision is due (after reset_turn)
    EV_TURN_END = 1            # reset_turn: every turn-long effect ends (13)
    EV_PHASE_START = 2         # A_NEXT_PHASE, after the combat phase changed
    EV_PHASE_END = 3           # A_NEXT_PHASE, before the phase changes
    EV_CARD_PLAYED = 4         # a Deed card's effect resolved (run_effects) or it was played sideways; arg = the card
    EV_BLOCK_COMMITTED = 5     # a block succeeded (11.6.3); arg = the enemy slot
    EV_ATTACK_COMMITTED = 6    # an attack succeeded (11.5.8); arg = its targets' slot bits
    EV_DAMAGE_ASSIGNED = 7     # an enemy attack's damage was all assigned (11.7); arg = the enemy slot
    EV_COMBAT_END = 8          # finish_combat, before the tokens leave (11.12)
    EV_ROUND_END = 9           # the round ends (2.2)
    NUM_EVENTS = 10

# TurnState.mod_live: bit k set exactly when an entry [0, n_mods) has kind k (NUM_MOD_KINDS <=
# 64, checked when ext/_checks.pyx compiles).  Every helper below that adds or removes an entry
# keeps it; code that copies entries in bulk (reset_turn, set_raw) calls mod_live_sync; a
# memcpy of the whole state (clone, determinize) copies it.  The readers test the kind's bit
# first, so a lookup of a kind with no live entry costs one test, whatever n_mods is.

# the scope each event ends (-1: it ends none)
cdef inline int event_scope(int ev) noexcept nogil:
    if ev == EV_CARD_PLAYED:
        return 0                                         # MS_NEXT_CARD
    if ev == EV_PHASE_END:
        return 1                                         # MS_PHASE
    if ev == EV_COMBAT_END:
        return 2                                         # MS_COMBAT
    if ev == EV_TURN_END:
        return 3                                         # MS_TURN
    if ev == EV_ROUND_END:
        return 4                                         # MS_ROUND
    return -1


cdef inline uint64_t mod_live_of(const TurnState* t) noexcept nogil:
    """The kinds of the live entries [0, n_mods) as bits, read from the entries (what
    mod_live must equal: mod_live_sync, the invariant in ext/_checks.pyx)."""
    cdef int i, k, n = t.n_mods if t.n_mods < MAX_MODS else MAX_MODS
    cdef uint64_t m = 0
    for i in range(n):
        k = t.mods[i].kind
        if k < 64:
            m |= (<uint64_t>1) << k
    return m


cdef inline void mod_live_sync(TurnState* t) noexcept nogil:
    """Recompute mod_live after entries were copied in bulk (reset_turn, set_raw)."""
    t.mod_live = mod_live_of(t)


cdef inline int mod_add(TurnState* t, int kind, int scope, int value, int arg, int source,
                        int owner) noexcept nogil:
    """Append a modifier; its index, or -1 when the array is full (the caller stops the
    game with ERR_CAPACITY: a lasting effect is never dropped silently)."""
    cdef Modifier* m
    if t.n_mods >= MAX_MODS:
        return -1
    m = &t.mods[t.n_mods]
    m.kind = <uint8_t>kind
    m.scope = <uint8_t>scope
    m.value = <int8_t>value
    m.arg = <int8_t>arg
    m.source = <int16_t>source
    m.owner = <int8_t>owner
    t.n_mods += 1
    if <unsigned>kind < 64:
        t.mod_live |= (<uint64_t>1) << kind
    return t.n_mods - 1


cdef inline int mod_find(const TurnState* t, int kind) noexcept nogil:
    """Index of the first live modifier of `kind`, -1 = none."""
    cdef int i
    if not (t.mod_live >> kind) & 1:
        return -1
    for i in range(t.n_mods):
        if t.mods[i].kind == kind:
            return i
    return -1


cdef inline bint mod_has(const TurnState* t, int kind) noexcept nogil:
    """A live modifier of `kind` exists: the kind's mod_live bit."""
    return (t.mod_live >> kind) & 1


cdef inline int mod_sum(const TurnState* t, int kind) noexcept nogil:
    """Sum of the values of the live modifiers of `kind` (0 = none)."""
    cdef int i, v = 0
    if not (t.mod_live >> kind) & 1:
        return 0
    for i in range(t.n_mods):
        if t.mods[i].kind == kind:
            v += t.mods[i].value
    return v


cdef inline int mod_find_arg(const TurnState* t, int kind, int arg) noexcept nogil:
    """Index of the first live modifier of `kind` for `arg` (terrain / element + 1), -1 = none."""
    cdef int i
    if not (t.mod_live >> kind) & 1:
        return -1
    for i in range(t.n_mods):
        if t.mods[i].kind == kind and t.mods[i].arg == arg:
            return i
    return -1


cdef inline bint mod_has_arg(const TurnState* t, int kind, int arg) noexcept nogil:
    return mod_find_arg(t, kind, arg) >= 0


cdef inline int mod_sum_arg(const TurnState* t, int kind, int arg) noexcept nogil:
    """Sum of the values of the live modifiers of `kind` for `arg`."""
    cdef int i, v = 0
    if not (t.mod_live >> kind) & 1:
        return 0
    for i in range(t.n_mods):
        if t.mods[i].kind == kind and t.mods[i].arg == arg:
            v += t.mods[i].value
    return v


cdef inline void mod_remove_at(TurnState* t, int i) noexcept nogil:
    """Remove entry i keeping the others' order (the array stays dense); the kind's
    mod_live bit goes with its last entry."""
    cdef int j, k = t.mods[i].kind
    cdef bint more = False
    for j in range(i, t.n_mods - 1):
        t.mods[j] = t.mods[j + 1]
    t.n_mods -= 1
    t.mods[t.n_mods].kind = 0
    t.mods[t.n_mods].scope = 0
    t.mods[t.n_mods].value = 0
    t.mods[t.n_mods].arg = 0
    t.mods[t.n_mods].source = 0
    t.mods[t.n_mods].owner = 0
    if k < 64:
        for j in range(t.n_mods):
            if t.mods[j].kind == k:
                more = True
                break
        if not more:
            t.mod_live &= ~((<uint64_t>1) << k)


cdef inline int mod_remove_kind(TurnState* t, int kind) noexcept nogil:
    """Remove every live modifier of `kind` (an effect used up); how many went."""
    cdef int i = 0, n = 0
    if not (t.mod_live >> kind) & 1:
        return 0
    while i < t.n_mods:
        if t.mods[i].kind == kind:
            mod_remove_at(t, i)
            n += 1
        else:
            i += 1
    return n


cdef inline int mod_take(TurnState* t, int kind, int n) noexcept nogil:
    """Use up to `n` of the value of the live modifiers of `kind` (oldest first), removing
    those used up (Veil of Mist's Wounds ignored); how much was taken."""
    cdef int i = 0, k, got = 0
    if not (t.mod_live >> kind) & 1:
        return 0
    while i < t.n_mods and got < n:
        if t.mods[i].kind == kind and t.mods[i].value > 0:
            k = t.mods[i].value if t.mods[i].value < n - got else n - got
            got += k
            t.mods[i].value = <int8_t>(t.mods[i].value - k)
            if t.mods[i].value == 0:
                mod_remove_at(t, i)
                continue
        i += 1
    return got


cdef inline int mod_set(TurnState* t, int kind, int scope, int value, int source, int owner) noexcept nogil:
    """One live modifier of `kind` with this value (replacing any): an effect that sets a
    number rather than adding to it.  -1 when the array is full."""
    cdef int i = mod_find(t, kind)
    if i >= 0:
        t.mods[i].value = <int8_t>value
        t.mods[i].scope = <uint8_t>scope
        t.mods[i].source = <int16_t>source
        t.mods[i].owner = <int8_t>owner
        return i
    return mod_add(t, kind, scope, value, 0, source, owner)


cdef inline int mod_expire(TurnState* t, int scope, int keep_source) noexcept nogil:
    """End every modifier of `scope`, and with the combat or the turn the narrower ones (a
    phase-long effect ends with its combat, a combat-long one with the turn, a next-card
    one with the turn if no card came; a Block pool's, MS_BLOCK, with its phase, combat or
    turn).  The round's end ends only round-long ones: the
    last turn's effects end when the next turn starts (reset_turn), as all turn state does.
    A next-card modifier made by card `keep_source` stays (the card that made it is no
    "next" card; -2 = none).  How many ended."""
    cdef int i = 0, n = 0, s
    if scope < 0:
        return 0
    while i < t.n_mods:
        s = t.mods[i].scope
        if (s == scope and not (s == 0 and t.mods[i].source == keep_source)) \
                or ((scope == 2 or scope == 3) and 1 <= s < scope) or (scope == 3 and s == 0) \
                or (s == MS_BLOCK and 1 <= scope <= 3):
            mod_remove_at(t, i)
            n += 1
        else:
            i += 1
    return n


# -- interactive skills (8.2.2): effects of one player that act on the other players --------

cdef inline int mod_sum_others(const TurnState* t, int kind, int p) noexcept nogil:
    """Sum of the values of the live modifiers of `kind` owned by a player other than p
    (an interactive skill's part on the other players: Prayer of Weather, Wolf's Howl)."""
    cdef int i, v = 0
    if not (t.mod_live >> kind) & 1:
        return 0
    for i in range(t.n_mods):
        if t.mods[i].kind == kind and t.mods[i].owner != p:
            v += t.mods[i].value
    return v


cdef inline int mod_find_others(const TurnState* t, int kind, int p) noexcept nogil:
    """Index of the first live modifier of `kind` owned by a player other than p, -1 = none."""
    cdef int i
    if not (t.mod_live >> kind) & 1:
        return -1
    for i in range(t.n_mods):
        if t.mods[i].kind == kind and t.mods[i].owner != p:
            return i
    return -1


cdef inline int mod_find_owned(const TurnState* t, int kind, int p) noexcept nogil:
    """Index of the first live modifier of `kind` owned by player p, -1 = none."""
    cdef int i
    if not (t.mod_live >> kind) & 1:
        return -1
    for i in range(t.n_mods):
        if t.mods[i].kind == kind and t.mods[i].owner == p:
            return i
    return -1


cdef inline void interactive_turn_start(TurnState* t, int p) noexcept nogil:
    """8.2.2: at the start of player p's turn their interactive skills' effects on the
    other players end (the token comes back from the centre face down)."""
    cdef int i = 0, k
    if not t.mod_live & (((<uint64_t>1) << MK_WEATHER_OTHERS) | ((<uint64_t>1) << MK_MANA_EXPLOIT)
                         | ((<uint64_t>1) << MK_HOWL_OTHERS)):
        return
    while i < t.n_mods:
        k = t.mods[i].kind
        if t.mods[i].owner == p and (k == MK_WEATHER_OTHERS or k == MK_MANA_EXPLOIT or k == MK_HOWL_OTHERS):
            mod_remove_at(t, i)
        else:
            i += 1
