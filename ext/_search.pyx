# cython: language_level=3
"""The ``search`` policy: look-ahead over determinized copies, in C.

At a decision with few enough options (``max_branch``), each candidate action is tried on
``K = max(1, budget // n)`` determinized copies of the game (``ext/_determinize.pxd``: one
possible world consistent with what the player knows; never the true deck order, tokens or
random streams) and the game is rolled out with the base policy until the player's
``horizon``-th next turn begins (or the game ends).  The candidate with the best mean value
wins (the same K worlds for every candidate: common random numbers, so differences come
from the actions).  Other decisions go to the base policy.

The value of a rolled-out position is the player's Fame plus small terms for what Fame
does not show yet: Units, crystals, level, minus Wounds in the deck (``value_*``
parameters).  Because the copies come from :func:`determinize` and the policy's own seeded
stream, two states that differ only in hidden information get the same decision.

With several heroes (17.3.1) the player is the deciding seat (``GameState.current``): its
worlds resample the other seats' hands and decks too, the base policy plays the other
seats' turns in a rollout (each from its own seat, on that world) until the deciding seat's
next turn, and the value is the deciding seat's own (docs/policies.md explains why not a
margin over the others).
"""
from libc.string cimport memcpy
from libc.stdint cimport int32_t, int16_t, uint64_t

from mksim._rng cimport rng_seed, rng_next
from mksim._types cimport (GameState, Player, PH_GAME_OVER, PH_TURN_START, PH_TACTICS, PH_END_TURN, MAX_PLAYERS,
                           MAX_UNITS, DECK_WOUND, HEX_CONQUERED)
from mksim._state cimport GameCore, Statics
from mksim._engine cimport Engine, EngineStatics, MAX_ACTIONS
from mksim._policies cimport RandomPolicy, POLICY_STREAM_BASE
from mksim._determinize cimport determinize
from mksim._heuristic cimport HeuristicPolicy, MAX_TRAIL

cdef enum:
    MAX_BRANCH = 32            # candidates one search can compare
    MAX_K = 64                 # determinized worlds per candidate
    BASE_STREAM = 37           # the base policy's stream id in a rollout (POLICY_STREAM_BASE + 37)
    MAX_TURN_SEARCHES = 64     # searched decisions per turn; then the base decides (breaks cycles
                               # of options that return to the same position, which a rollout to
                               # the end of the turn can rate above ending it)


cdef inline int turn_key(const GameState* gs) noexcept nogil:
    """Changes whenever a turn (or a round's tactic choice) begins: the round, the turns
    taken in it (4.2; The Right Moment's extra turn counts, 3.2) and the tactics phase."""
    return (gs.round * 256 + gs.turns_in_round) * 2 + (gs.phase == PH_TACTICS)


cdef class SearchPolicy(RandomPolicy):
    """Determinized rollouts of a base C policy (see the module docstring).

    Parameters
    ----------
    seed, game_index, stream : as :class:`mksim._policies.RandomPolicy`
    base : RandomPolicy
        The C policy rollouts are played with (``heuristic`` or ``eager``).
    budget : int
        Rollouts per searched decision (split over the candidates, at least one each).
    horizon : int
        Turns of the player a rollout plays past the current one (0 = to the end of this turn).
    max_branch : int
        Decisions with more legal actions than this go to the base policy.
    rollout_steps : int
        Safety cap on the decisions of one rollout.
    value_unit, value_crystal, value_wound, value_level : float
        Terms of the value function besides Fame.
    value_shield, value_city : float
        Solo Conquest progress (17.3.4): worth of each of the player's Shields on a city
        (a defender defeated, 11.12.2) and of each city conquered (its +10 of 20.5.2 is not
        Fame yet).  Always 0 where cities cannot be entered (First Reconnaissance).
    oracle : bool
        Roll out on exact copies of the true state (deck order, tokens, random streams):
        an upper reference that cheats, only for policies named ``oracle-...``.
    """
    cdef RandomPolicy base
    cdef HeuristicPolicy hbase           # the base when it is the heuristic (it keeps a turn goal), else None
    cdef bint base_has_memory
    cdef Engine scratch
    cdef bint has_scratch
    cdef readonly int budget
    cdef readonly int horizon
    cdef readonly int max_branch
    cdef readonly int rollout_steps
    cdef readonly double value_unit
    cdef readonly double value_crystal
    cdef readonly double value_wound
    cdef readonly double value_level
    cdef readonly double value_shield
    cdef readonly double value_city
    cdef readonly bint oracle            # roll out on the TRUE state (sees hidden information)
    cdef int turn_key                    # round * 256 + turns_in_round of the turn being searched
    cdef int turn_searches               # decisions searched in it so far
    cdef readonly long searched          # decisions searched since reset (for reports / tests)
    cdef readonly long rollouts          # rollouts played since reset
    cdef readonly long other_decisions   # rollout decisions taken for other seats (several heroes)
    cdef readonly int last_seat          # the seat the last search decided for (-1: none yet)
    cdef int last_n                      # candidates of the last search ...
    cdef double last_total[MAX_BRANCH]   # ... and their summed rollout values (for tests)

    def __init__(self, seed=0, game_index=0, int stream=0, RandomPolicy base=None, int budget=16,
                 int horizon=0, int max_branch=8, int rollout_steps=400, double value_unit=3.0,
                 double value_crystal=0.5, double value_wound=1.0, double value_level=2.0,
                 bint oracle=False, double value_shield=4.0, double value_city=10.0):
        if base is None:
            raise ValueError("search needs a base policy (a C policy of mksim._policies / _heuristic)")
        if budget < 1:
            raise ValueError("budget must be >= 1")
        if horizon < 0:
            raise ValueError("horizon must be >= 0")
        if not 2 <= max_branch <= MAX_BRANCH:
            raise ValueError(f"max_branch must be between 2 and {MAX_BRANCH}")
        if rollout_steps < 1:
            raise ValueError("rollout_steps must be >= 1")
        self.base = base
        self.base_has_memory = isinstance(base, HeuristicPolicy)
        self.hbase = base if self.base_has_memory else None
        self.budget, self.horizon, self.max_branch, self.rollout_steps = budget, horizon, max_branch, rollout_steps
        self.value_unit, self.value_crystal, self.value_wound, self.value_level = \
            value_unit, value_crystal, value_wound, value_level
        self.value_shield, self.value_city = value_shield, value_city
        self.has_scratch = False
        self.oracle = oracle
        super().__init__(seed, game_index, stream)

    def reset(self, seed, game_index=0):
        RandomPolicy.reset(self, seed, game_index)
        self.base.reset(seed, game_index)
        self.forget()                            # a new game: no goal, no cache from the last one
        self.turn_key = -1
        self.turn_searches = 0
        self.searched = 0
        self.rollouts = 0
        self.other_decisions = 0
        self.last_seat = -1
        self.last_n = 0

    cdef void forget(self) noexcept nogil:
        """Clear the base policy's memory between decisions of different worlds: the
        heuristic keeps a goal for the turn and path / exploration caches keyed by what
        they depend on; a rollout must start from none of them, and the real game must
        not see what a rollout in an imagined world left there."""
        if self.base_has_memory:
            self.hbase.forget()

    def set_scratch(self, Engine scratch):
        """The engine rollouts run on: a copy of the game being played (same tables and
        scenario), whose state is overwritten before every rollout."""
        self.scratch = scratch
        self.has_scratch = scratch is not None

    def base_policy(self):
        return self.base

    def evaluate(self, Engine eng, int seat):
        """The value a rollout ending in ``eng``'s position has for ``seat`` (the deciding
        seat's own point of view; see :meth:`value`)."""
        if not 0 <= seat < eng.core.gs.n_players:
            raise ValueError(f"seat {seat} is not a player of this game")
        return self.value(&eng.core.gs, &eng.es, seat)

    def last_values(self):
        """Summed rollout values of each candidate of the last search (candidate order =
        the legal list), for tests and tools."""
        return [self.last_total[i] for i in range(self.last_n)]

    def position_value(self, Engine eng, int player):
        """The value a rollout ending in ``eng``'s position would have for ``player`` (for
        tests; the same as :meth:`evaluate`)."""
        return self.evaluate(eng, player)

    # -- the decision ---------------------------------------------------------------------

    cdef double value(self, const GameState* gs, const EngineStatics* es, int p) noexcept nogil:
        cdef const Player* pl = &gs.players[p]
        cdef double v = pl.fame + self.value_level * pl.level
        cdef int i, wounds = 0
        for i in range(MAX_UNITS):
            if pl.units[i].card >= 0:
                v += self.value_unit - 0.5 * pl.units[i].wounds
        for i in range(4):
            v += self.value_crystal * pl.crystals[i]
        if not es.city_closed:                   # Solo Conquest: progress on the cities (11.12.2)
            for i in range(gs.n_hexes):
                if gs.hexes[i].city_level > 0:
                    v += self.value_shield * gs.hexes[i].city_shields[p]
                    if gs.hexes[i].flags & HEX_CONQUERED:
                        v += self.value_city
        for i in range(pl.n_hand):
            wounds += es.card_deck[pl.hand[i] * es.card_stride] == DECK_WOUND
        for i in range(pl.n_deck):
            wounds += es.card_deck[pl.deck[i] * es.card_stride] == DECK_WOUND
        for i in range(pl.n_discard):
            wounds += es.card_deck[pl.discard[i] * es.card_stride] == DECK_WOUND
        return v - self.value_wound * wounds

    cdef double rollout(self, int p, uint64_t world, int horizon, bint to_round_end) noexcept nogil:
        """Play the scratch game with the base policy to the horizon (or, ``to_round_end``,
        until the next round's tactic choice); its value for p."""
        cdef GameState* gs = &self.scratch.core.gs
        cdef int m, a, steps = 0, turns = 0, last = gs.phase, cap = self.rollout_steps, key
        cdef bint several = gs.n_players > 1
        cdef int last_key = turn_key(gs)
        rng_seed(&self.base.rng, world, 0, <uint64_t>(POLICY_STREAM_BASE + BASE_STREAM))
        if to_round_end:
            cap = 8 * self.rollout_steps
        elif several:
            cap = gs.n_players * self.rollout_steps   # the other seats' turns are played too
        while gs.phase != PH_GAME_OVER and steps < cap:
            if to_round_end:
                if gs.phase == PH_TACTICS and last != PH_TACTICS:
                    break                        # the round ended (4.7): the next tactic choice
            elif several:
                # several heroes: the base policy plays the other seats' turns (each from its
                # own seat, on this determinized world) until p's next turn or the next round
                key = turn_key(gs)
                if key != last_key:
                    last_key = key
                    if gs.phase == PH_TACTICS or gs.turn_player == p:
                        turns += 1
                        if turns > horizon:
                            break
            elif (gs.phase == PH_TURN_START or gs.phase == PH_TACTICS) and last != gs.phase:
                turns += 1                       # a new turn (or round) of the player began
                if turns > horizon:
                    break
            last = gs.phase
            m = self.scratch.c_fill_legal()
            if m <= 0:
                break
            if gs.current != p:
                self.other_decisions += 1
            a = self.scratch.actions[self.base.pick_engine(self.scratch, self.scratch.actions, m)]
            if self.scratch.c_apply(a) != 0:
                return -1e9                      # an engine gap in this world: avoid the line
            steps += 1
        return self.value(gs, &self.scratch.es, p)

    cdef int pick_engine(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        cdef int32_t cand[MAX_BRANCH]
        cdef uint64_t worlds[MAX_K]
        cdef double total[MAX_BRANCH]
        cdef int i, k, K, p, best, fallback
        cdef int goal_key = 0, goal_hex = 0, goal_kind = 0, horizon = self.horizon
        cdef int n_trail = 0
        cdef int trail[MAX_TRAIL]
        cdef bint round_end = False
        cdef GameState* gs = &eng.core.gs
        cdef GameState* sg
        if n <= 1:
            return 0
        fallback = self.base.pick_engine(eng, actions, n)
        if not self.has_scratch or n > self.max_branch or gs.current >= MAX_PLAYERS:
            return fallback
        if gs.round * 256 + gs.turns_in_round != self.turn_key:
            self.turn_key = gs.round * 256 + gs.turns_in_round
            self.turn_searches = 0
        if self.turn_searches >= MAX_TURN_SEARCHES:
            return fallback                      # a cycle of searched choices: the base ends the turn
        self.turn_searches += 1
        p = gs.current
        K = self.budget // n
        if K < 1:
            K = 1
        if gs.phase == PH_TACTICS:
            # 3.1: a tactic acts over the whole round (Great Start's cards, The Right Moment's
            # extra turn, the round order), and a rollout to the next turn would show nothing
            # of it: each tactic is rolled out to the end of the round, on at least 2 worlds
            round_end = True
            if K < 2:
                K = 2
        elif gs.phase == PH_END_TURN:
            horizon += 1                         # 13.6: a level-up pick shows in the next turn
        if K > MAX_K:
            K = MAX_K
        for k in range(K):
            worlds[k] = rng_next(&self.rng)
        for i in range(n):
            cand[i] = actions[i]
            total[i] = 0
        if self.base_has_memory:                 # the real game's goal, restored after the search
            goal_key, goal_hex, goal_kind = self.hbase.goal_key, self.hbase.goal_hex, self.hbase.goal_kind
            n_trail = self.hbase.n_trail
            memcpy(trail, self.hbase.trail, n_trail * sizeof(int))
        sg = &self.scratch.core.gs
        for i in range(n):
            for k in range(K):
                memcpy(sg, gs, sizeof(GameState))
                if not self.oracle:              # an oracle plays on the true future instead
                    determinize(sg, &self.scratch.core.st, p, worlds[k])
                self.forget()
                if self.scratch.c_apply(cand[i]) != 0:
                    total[i] = -1e18
                    break
                total[i] += self.rollout(p, worlds[k], horizon, round_end)
                self.rollouts += 1
        self.searched += 1
        self.last_seat = p
        self.last_n = n
        for i in range(n):
            self.last_total[i] = total[i]
        self.forget()
        if self.base_has_memory:
            self.hbase.goal_key, self.hbase.goal_hex, self.hbase.goal_kind = goal_key, goal_hex, goal_kind
            self.hbase.n_trail = n_trail
            memcpy(self.hbase.trail, trail, n_trail * sizeof(int))
        best = fallback                          # ties keep the base policy's choice
        for i in range(n):
            if total[i] > total[best] + 1e-9:
                best = i
        return best

    def __reduce__(self):
        return (_restore_search, (self.seed, self.game_index, self.stream, self.rng_state(), self.base,
                                  self.budget, self.horizon, self.max_branch, self.rollout_steps,
                                  self.value_unit, self.value_crystal, self.value_wound, self.value_level,
                                  self.oracle, self.value_shield, self.value_city))


def _restore_search(seed, game_index, stream, state, base, *params):
    cdef SearchPolicy p = SearchPolicy(seed, game_index, stream, base, *params)
    p.rng.s0, p.rng.s1, p.rng.s2, p.rng.s3 = state
    return p
