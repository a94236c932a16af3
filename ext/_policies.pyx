# cython: language_level=3
"""Built-in policies in C.

:class:`RandomPolicy` picks a uniformly random legal action from its own seeded stream
(see ``_policies.pxd`` for how the stream is derived).  Its :meth:`RandomPolicy.play` loop
is the fast path used by :mod:`mksim.runner`: it reads the engine's legal-action buffer
directly instead of going through Python lists.  :func:`play_checked` plays the same loop
with the invariants checked after every action.

The accessors of the Python face (reading a GameCore, scoring, cloning an Engine, the
results-store counters, experiment arms, the policy view) are in ``mksim._access``.
"""
import numpy as np
from libc.stdint cimport uint64_t, uint32_t, int32_t

from mksim._rng cimport Rng, rng_seed, rng_below, rng_next
from mksim._rng import check_seed
from mksim._types cimport GameState, PH_GAME_OVER, Player, MAX_PLAYERS
from mksim._engine cimport (
    Engine, ACTION_SHIFT, ERR_CAPACITY, A_CHALLENGE, A_ENTER_SITE, A_BURN, A_INTERACT, A_END_TURN, A_ANNOUNCE_END,
    A_FORFEIT,
)
from mksim._checks cimport (count_violations, count_deeds, player_deed_balance, CHECK_CODES, V_CONSERVATION,
                            V_TWO_ACTIONS, V_PLAYER_CONSERVATION)

DEF_MASK = 0xFFFFFFFFFFFFFFFF
STREAM_BASE = POLICY_STREAM_BASE


cdef class RandomPolicy:
    """Uniformly random legal actions from the policy's own seeded stream.

    Parameters
    ----------
    seed : int
        Root seed of the run.
    game_index : int
        Index of the game in the run.
    stream : int
        Which policy stream (``k`` in ``POLICY_STREAM_BASE + k``); distinct policies in one
        game use distinct streams.

    Notes
    -----
    ``choose`` (given a list of legal actions) and ``play`` / ``choose_engine`` (reading
    the engine's buffer) draw the same numbers for the same legal lists, so a game played
    through :class:`mksim.game.State` and one played by :meth:`play` are identical.
    """

    def __init__(self, seed=0, game_index=0, int stream=0):
        if stream < 0:
            raise ValueError("stream must be >= 0")
        self.stream = stream
        self.reset(seed, game_index)

    def reset(self, seed, game_index=0):
        """Re-seed for game ``game_index`` of the run seeded ``seed``."""
        self.seed = check_seed(seed, "seed")
        self.game_index = check_seed(game_index, "game_index")
        rng_seed(&self.rng, <uint64_t>(self.seed & DEF_MASK), <uint64_t>(self.game_index & DEF_MASK),
                 <uint64_t>(POLICY_STREAM_BASE + self.stream))

    cdef int choose_index(self, int n) noexcept nogil:
        return <int>rng_below(&self.rng, <uint32_t>n)

    cdef int pick(self, const int32_t* actions, int n) noexcept nogil:
        """The decision of the fast path: an index into ``actions[0:n]`` (uniform here;
        subclasses weigh the actions)."""
        return self.choose_index(n)

    cdef int pick_engine(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """The decision hook with the engine (see ``_policies.pxd``); policies that read
        the state override this, policies that read only the legal list override pick()."""
        return self.pick(actions, n)

    def index(self, int n):
        """A uniform index in [0, n)."""
        if n <= 0:
            raise ValueError("no legal action to choose from")
        return self.choose_index(n)

    def choose(self, legal):
        """One of the actions in ``legal`` (a sequence of action codes)."""
        cdef int n = len(legal)
        if n <= 0:
            raise ValueError("no legal action to choose from")
        cdef int32_t[::1] buf = np.asarray(legal, dtype=np.int32)
        return int(legal[self.pick(&buf[0], n)])

    def choose_engine(self, Engine eng):
        """Like :meth:`choose` on ``eng.legal_actions()``, reading the engine's C buffer."""
        if eng.c_fill_legal() <= 0:
            raise ValueError("no legal action to choose from")
        return int(eng.actions[self.pick_engine(eng, eng.actions, eng.n_actions)])

    def choose_in(self, Engine eng, legal):
        """One of ``legal`` for the game run by ``eng`` (the Python path of a policy whose
        hook reads the engine: the same decision as :meth:`play` makes there)."""
        cdef int n = len(legal)
        if n <= 0:
            raise ValueError("no legal action to choose from")
        cdef int32_t[::1] buf = np.asarray(legal, dtype=np.int32)
        return int(legal[self.pick_engine(eng, &buf[0], n)])

    def play_seats(self, policies, Engine eng, long max_steps=100000):
        """Like :meth:`play` with one policy per seat (``policies[k]`` decides for seat k;
        this policy is not used): the engine asks whoever's decision it is
        (``GameState.current``; the dummy never decides).  Returns the actions applied."""
        cdef long steps = 0
        cdef int n = 1, a = 0, err = 0, c, i
        cdef GameState* gs = &eng.core.gs
        cdef RandomPolicy p0, p1, p2, p3
        seats = list(policies)
        if not seats or len(seats) > MAX_PLAYERS:
            raise ValueError(f"play_seats: 1 to {MAX_PLAYERS} policies, not {len(seats)}")
        for pol in seats:                  # per-content tables (the heuristic's tactic ranks and
            bind = getattr(pol, "bind", None)      # average tokens), as each policy's play() does
            if bind is not None:
                bind(eng)
        p0 = seats[0]
        p1 = seats[1 % len(seats)]
        p2 = seats[2 % len(seats)]
        p3 = seats[3 % len(seats)]
        with nogil:
            while gs.phase != PH_GAME_OVER and steps < max_steps:
                n = eng.c_fill_legal()
                if n <= 0:
                    break
                c = gs.current
                if c == 1:
                    i = p1.pick_engine(eng, eng.actions, n)
                elif c == 2:
                    i = p2.pick_engine(eng, eng.actions, n)
                elif c == 3:
                    i = p3.pick_engine(eng, eng.actions, n)
                else:
                    i = p0.pick_engine(eng, eng.actions, n)
                a = eng.actions[i]
                steps += 1
                err = eng.c_apply(a)
                if err != 0:
                    break
        if err != 0:
            raise eng._error(err, a)
        if n <= 0:
            raise RuntimeError("no legal action although the game is not over")
        return steps

    def play(self, Engine eng, long max_steps=100000):
        """Play ``eng`` until the game is over or ``max_steps`` actions were taken here.

        Returns
        -------
        int
            Actions applied by this call.

        Raises
        ------
        NotImplementedError
            From ``Engine.apply`` when the game reaches a rule the engine lacks.
        RuntimeError
            If a game that is not over offers no legal action.
        """
        return self.play_seats((self,), eng, max_steps)    # one seat: the same nogil loop

    def rng_state(self):
        """The stream's four state words (for tests)."""
        return (self.rng.s0, self.rng.s1, self.rng.s2, self.rng.s3)

    def __reduce__(self):
        return (_restore_random, (self.seed, self.game_index, self.stream, self.rng_state()))


def _restore_random(seed, game_index, stream, state):
    cdef RandomPolicy p = RandomPolicy(seed, game_index, stream)
    p.rng.s0, p.rng.s1, p.rng.s2, p.rng.s3 = state
    return p


#: Default weights of the ``eager`` policy: what a player who wants things to happen
#: prefers.  Ending the turn, a combat phase or the round is kept possible but rare, so
#: games reach exploration, combat, sites, units and level-ups far more often than with
#: uniform choices.  Kinds not named weigh 4.
EAGER_WEIGHTS = {
    "announce_end": 0.1, "forfeit": 0.1, "end_turn": 1.0, "next_phase": 1.0, "rest": 0.5,
    "end_interact": 1.0, "discard": 0.5, "move": 8.0, "explore": 20.0, "enter_site": 20.0,
    "challenge": 6.0, "interact": 20.0, "attack": 40.0, "block": 40.0, "recruit": 40.0,
    "buy_spell": 30.0, "buy_aa": 30.0, "buy_healing": 10.0, "heal_unit": 10.0, "heal_wound": 10.0,
    "activate_unit": 10.0, "use_skill": 10.0, "play": 8.0, "sideways": 3.0, "burn": 2.0,
}


cdef class WeightedPolicy(RandomPolicy):
    """A random legal action, drawn with probability proportional to the weight of its
    action kind (``mksim._engine.KIND_NAMES``).

    Parameters
    ----------
    seed, game_index, stream : as :class:`RandomPolicy`
    weights : dict of str to float
        Weight per action-kind name; kinds not named weigh ``default``.  Weights must be
        >= 0; when every legal action weighs 0 the choice is uniform.
    default : float
    """

    def __init__(self, seed=0, game_index=0, int stream=0, weights=None, double default=4.0):
        from mksim._engine import KIND_NAMES
        cdef int k
        super().__init__(seed, game_index, stream)
        if default < 0:
            raise ValueError("default weight must be >= 0")
        codes = {name: code for code, name in KIND_NAMES.items()}
        weights = dict(EAGER_WEIGHTS if weights is None else weights)
        for k in range(MAX_KIND):
            self.weight[k] = default
        for name, w in weights.items():
            if name not in codes:
                raise ValueError(f"unknown action kind {name!r}; known: {', '.join(sorted(codes))}")
            if not (float(w) >= 0):
                raise ValueError(f"weight of {name!r} must be a number >= 0, not {w!r}")
            self.weight[codes[name]] = float(w)
        self.weights = weights
        self.default = default

    cdef int pick(self, const int32_t* actions, int n) noexcept nogil:
        cdef double total = 0, u
        cdef int i, kind
        for i in range(n):
            kind = actions[i] >> ACTION_SHIFT
            total += self.weight[kind] if kind < MAX_KIND else self.default
        if total <= 0:
            return self.choose_index(n)
        u = <double>(rng_next(&self.rng) >> 11) * (1.0 / 9007199254740992.0) * total   # [0, total)
        for i in range(n):
            kind = actions[i] >> ACTION_SHIFT
            u -= self.weight[kind] if kind < MAX_KIND else self.default
            if u < 0:
                return i
        return n - 1                                   # rounding at the very top

    def __reduce__(self):
        return (_restore_weighted, (self.seed, self.game_index, self.stream, self.rng_state(),
                                    self.weights, self.default))


def _restore_weighted(seed, game_index, stream, state, weights, default):
    cdef WeightedPolicy p = WeightedPolicy(seed, game_index, stream, weights, default)
    p.rng.s0, p.rng.s1, p.rng.s2, p.rng.s3 = state
    return p


cdef inline int seat_pick(RandomPolicy p0, RandomPolicy p1, RandomPolicy p2, RandomPolicy p3, int seat,
                          const int32_t* actions, int n) noexcept nogil:
    """pick() of the policy of ``seat`` (one policy per seat, play_checked)."""
    if seat == 1:
        return p1.pick(actions, n)
    if seat == 2:
        return p2.pick(actions, n)
    if seat == 3:
        return p3.pick(actions, n)
    return p0.pick(actions, n)


def play_checked(policy, Engine eng, long max_steps=100000):
    """Play ``eng`` with ``policy`` (one policy, or a list with one per seat: the player
    whose decision it is picks) like :meth:`RandomPolicy.play`, checking the invariants
    after every action in the same nogil loop: the state checks of ``mksim._checks``
    (``count_violations``), card conservation (``count_deeds`` never changes, 6.1; a game
    stopped by ERR_CAPACITY may miss only the cards a full zone refused), per-player
    conservation (the cards of each player who is not deciding never change,
    ``player_deed_balance``: no card passes between heroes) and at
    most one action per turn (4.4.5: a site action, challenge or interaction, counted until
    the turn ends).  Stops at the first violation.

    Returns
    -------
    tuple
        ``(steps, error, action, violation, violation_step, maxima)``: actions applied; the
        EngineError code that stopped the game (0 none; ``eng._error(error, action)`` gives
        the exception ``apply`` would raise), or -1 if a game not over offered no legal
        action; the last action applied; the code of the first violation (index of
        ``mksim._checks.CHECKS`` / ``LOOP_CHECKS``, -1 none; the game stops there, so
        ``action`` is the one after which it was seen) and its step; and the largest zone sizes seen after any action, over all
        heroes: ``(deck, hand, discard, play_area, dummy deck, dummy discard, all cards of
        one hero)``.
    """
    cdef long steps = 0
    cdef int n = 1, a = 0, err = 0, k, p, t, viol = -1, nv, site_actions = 0, kind, acting
    cdef long viol_step = -1
    cdef RandomPolicy p0, p1, p2, p3
    seats = list(policy) if isinstance(policy, (list, tuple)) else [policy]
    if not seats or len(seats) > MAX_PLAYERS:
        raise ValueError(f"play_checked: 1 to {MAX_PLAYERS} policies, not {len(seats)}")
    p0 = seats[0]
    p1 = seats[1 % len(seats)]
    p2 = seats[2 % len(seats)]
    p3 = seats[3 % len(seats)]
    cdef int total0, wound = eng.es.wound
    cdef int codes[CHECK_CODES]
    cdef int mx[7]
    cdef int own0[MAX_PLAYERS]
    cdef GameState* gs = &eng.core.gs
    cdef Player* pl
    for k in range(7):
        mx[k] = 0
    with nogil:
        total0 = count_deeds(gs, wound)
        while gs.phase != PH_GAME_OVER and steps < max_steps:
            n = eng.c_fill_legal()
            if n <= 0:
                err = -1
                break
            a = eng.actions[seat_pick(p0, p1, p2, p3, gs.current, eng.actions, n)]
            steps += 1
            acting = gs.current
            for p in range(gs.n_players):
                own0[p] = player_deed_balance(gs, p, wound)
            err = eng.c_apply(a)
            kind = a >> ACTION_SHIFT
            if kind == A_CHALLENGE or kind == A_ENTER_SITE or kind == A_BURN or kind == A_INTERACT:
                site_actions += 1
            elif kind == A_END_TURN or kind == A_ANNOUNCE_END or kind == A_FORFEIT:
                site_actions = 0
            for p in range(gs.n_players):
                pl = &gs.players[p]
                if pl.n_deck > mx[0]:
                    mx[0] = pl.n_deck
                if pl.n_hand > mx[1]:
                    mx[1] = pl.n_hand
                if pl.n_discard > mx[2]:
                    mx[2] = pl.n_discard
                if pl.n_play > mx[3]:
                    mx[3] = pl.n_play
                t = pl.n_deck + pl.n_hand + pl.n_discard + pl.n_play
                if t > mx[6]:
                    mx[6] = t
            if gs.dummy.n_deck > mx[4]:
                mx[4] = gs.dummy.n_deck
            if gs.dummy.n_discard > mx[5]:
                mx[5] = gs.dummy.n_discard
            nv = count_violations(gs, codes, CHECK_CODES)
            if nv > 0:
                viol = codes[0]
            elif count_deeds(gs, wound) != total0 and not (
                    err == ERR_CAPACITY and total0 - count_deeds(gs, wound) <= gs.cards_refused):
                viol = V_CONSERVATION          # a card gone, not one a full zone refused (game stopped)
            elif site_actions > 1:
                viol = V_TWO_ACTIONS
            elif err != ERR_CAPACITY:
                for p in range(gs.n_players):
                    if p != acting and player_deed_balance(gs, p, wound) != own0[p]:
                        viol = V_PLAYER_CONSERVATION   # a card passed between heroes, or a
                        break                          # hero's card moved out of their decisions
            if viol >= 0:
                viol_step = steps
                break
            if err != 0:
                break
    return (steps, err, a, viol, viol_step, tuple(mx[k] for k in range(7)))


def policy_stream(seed, game_index, int stream=0, int draws=1):
    """``draws`` raw 64-bit numbers of policy stream ``stream`` (for tests)."""
    cdef Rng r
    rng_seed(&r, <uint64_t>(int(seed) & DEF_MASK), <uint64_t>(int(game_index) & DEF_MASK),
             <uint64_t>(POLICY_STREAM_BASE + stream))
    return [rng_next(&r) for _ in range(draws)]
