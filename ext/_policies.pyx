# cython: language_level=3
"""Built-in policies in C, and cheap state accessors for the Python face.

:class:`RandomPolicy` picks a uniformly random legal action from its own seeded stream
(see ``_policies.pxd`` for how the stream is derived).  Its :meth:`RandomPolicy.play` loop
is the fast path used by :mod:`mksim.runner`: it reads the engine's legal-action buffer
directly instead of going through Python lists.

The module functions read a :class:`mksim._state.GameCore` without building ``to_dict()``
(:func:`core_info`, :func:`final_score`) and copy an :class:`mksim._engine.Engine`
(:func:`clone_engine`).
"""
from libc.string cimport memcpy
import numpy as np
from libc.stdint cimport uint64_t, uint32_t, int32_t, int8_t

from mksim._rng cimport Rng, rng_seed, rng_below, rng_next
from mksim._rng import check_seed
from mksim._types cimport (GameState, PH_GAME_OVER, MAX_PLAYERS, Player, PlayerStats, RoundStats,
                           MAX_ROUNDS, NUM_SITE_KINDS, MAX_UNITS, DECK_AA, DECK_SPELL, DECK_ARTIFACT,
                           DECK_WOUND)
from mksim._state cimport GameCore
from mksim._engine cimport (
    Engine, ACTION_SHIFT, ERR_CAPACITY, A_CHALLENGE, A_ENTER_SITE, A_BURN, A_INTERACT, A_END_TURN, A_ANNOUNCE_END,
    A_FORFEIT, ASK_NONE, ASK_HAND_CARD, ASK_COLOUR, ASK_DIE, ASK_YES_NO, ASK_OFFER, ASK_NUMBER,
    ASK_DECK_CARD, ASK_OPTION, ASK_DISCARD_CARD, ASK_ENEMY, ASK_UNIT, ASK_PAYMENT,
)
from mksim._scoring cimport first_recon_score, solo_score, cities_conquered, achievement_scores, competitive_scores
from mksim._checks cimport (count_violations, count_deeds, player_deed_balance, CHECK_CODES, V_CONSERVATION,
                            V_TWO_ACTIONS, V_PLAYER_CONSERVATION)
from mksim._types cimport Player, Hex, Unit
from mksim._view cimport (
    view_actor, view_player, view_phase, view_round, view_time, view_hand_size, view_hand_card,
    view_deck_size, view_discard_size, view_discard_card, view_fame, view_position, view_crystals,
    view_mana_tokens, view_move, view_influence, view_attack, view_block, view_unit, view_n_hexes,
    view_hex, view_token_enemy, view_ruins,
)

DEF_MASK = 0xFFFFFFFFFFFFFFFF
STREAM_BASE = POLICY_STREAM_BASE

#: What a pending handler decision picks (TurnState.ask; codes from ext/_engine.pxd).
ASK_NAMES = {
    ASK_NONE: "none", ASK_HAND_CARD: "hand_card", ASK_COLOUR: "colour", ASK_DIE: "die",
    ASK_YES_NO: "yes_no", ASK_OFFER: "offer", ASK_NUMBER: "number",
    ASK_DECK_CARD: "deck_card", ASK_OPTION: "option", ASK_DISCARD_CARD: "discard_card",
    ASK_ENEMY: "enemy",
    ASK_UNIT: "unit", ASK_PAYMENT: "payment",
}

#: Actor id of the dummy player in ``turn_player`` / ``end_announced_by`` (18).
DUMMY_ACTOR = MAX_PLAYERS


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
        cdef long steps = 0
        cdef int n = 1, a = 0, err = 0
        cdef GameState* gs = &eng.core.gs
        with nogil:                                    # no Python object per decision
            while gs.phase != PH_GAME_OVER and steps < max_steps:
                n = eng.c_fill_legal()
                if n <= 0:
                    break
                a = eng.actions[self.pick_engine(eng, eng.actions, n)]
                steps += 1
                err = eng.c_apply(a)
                if err != 0:
                    break
        if err != 0:
            raise eng._error(err, a)
        if n <= 0:
            raise RuntimeError("no legal action although the game is not over")
        return steps

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


# ---------------------------------------------------------------------------------------
# State accessors for the Python face
# ---------------------------------------------------------------------------------------

def core_info(GameCore core):
    """The few numbers a runner or a log needs, without building ``to_dict()``.

    Returns
    -------
    dict
        round, time (0 day / 1 night), phase, current, turn_player (``DUMMY_ACTOR`` for the
        dummy), termination, steps, error, fame / level / position / move_points of player
        0, hand / deck sizes, the dummy's deck / discard sizes, end_announced_by, and the
        pending decision (pending_choice row, handler_row, ask, ask_options, resolving_card).
    """
    cdef GameState* gs = &core.gs
    return {
        "round": gs.round, "time": gs.time, "phase": gs.phase, "current": gs.current,
        "turn_player": gs.turn_player, "termination": gs.termination, "steps": gs.steps,
        "error": gs.error, "fame": gs.players[0].fame, "level": gs.players[0].level,
        "position": gs.players[0].position, "move_points": gs.turn.move_points,
        "n_hand": gs.players[0].n_hand, "n_deck": gs.players[0].n_deck,
        "dummy_deck": gs.dummy.n_deck if gs.has_dummy else -1,
        "dummy_discard": gs.dummy.n_discard if gs.has_dummy else -1,
        "end_announced_by": gs.end_announced_by,
        "pending_choice": gs.turn.pending_choice, "handler_row": gs.turn.handler_row,
        "ask": gs.turn.ask, "ask_options": gs.turn.ask_options,
        "resolving_card": gs.turn.resolving_card, "n_tiles": gs.n_tiles,
        "n_players": gs.n_players,
    }


def outcome_numbers(GameCore core):
    """(termination, fame of player 0, steps, round) straight from the state."""
    cdef GameState* gs = &core.gs
    return gs.termination, gs.players[0].fame, gs.steps, gs.round


def seat_scores(GameCore core, bint titles):
    """Each seat's final score in a competitive game (17.3.1, 20.1-20.3): a list of
    (score, title points) per player, seat order; see ``_scoring.competitive_scores``."""
    cdef GameState* gs = &core.gs
    cdef int out[MAX_PLAYERS]
    cdef int tit[MAX_PLAYERS]
    cdef int p
    competitive_scores(gs, &core.st, 1 if titles else 0, out, tit)
    return [(out[p], tit[p]) for p in range(gs.n_players)]


def seat_fame(GameCore core):
    """Fame of every seat, seat order."""
    cdef int p
    return [core.gs.players[p].fame for p in range(core.gs.n_players)]


def final_score(GameCore core, str scoring, int rounds, int cities_total):
    """Score of player 0 by the scenario's scoring rule.

    Parameters
    ----------
    scoring : str
        ``"first_reconnaissance"`` (17.3.1: Fame + standard achievements, no titles) or
        ``"solo_conquest"`` (20.5: adds cities, rounds left, the dummy's deck, the End of
        the Round bonus).  Anything else gives None.
    rounds : int
        The scenario's round limit (14.2), for "rounds left unplayed" (20.5.2).
    cities_total : int
        Cities in the scenario (20.5.2 "+15 if all cities were conquered").

    Notes
    -----
    20.5.2 "+5 if the End of the Round had not been announced in the final round" is read
    from ``end_announced_by`` of the final state (any announcement, by the player or the
    dummy, counts as announced).
    """
    cdef GameState* gs = &core.gs
    cdef int left
    if scoring == "first_reconnaissance":
        return first_recon_score(gs, &core.st, 0)
    if scoring == "solo_conquest":
        left = rounds - gs.round if gs.termination == 1 else 0   # TERM_SCENARIO_WON: ended early
        return solo_score(gs, &core.st, 0, cities_total, cities_conquered(gs, &core.st),
                          left if left > 0 else 0, 1 if gs.end_announced_by >= 0 else 0)
    return None


def clone_engine(Engine eng, content, scenario_id):
    """An independent copy of ``eng`` and of the game it runs.

    ``Engine.__init__`` always runs its round-1 setup (``_begin``: skill stacks, tactic
    display), which would change a mid-game state.  So the copy is built around a copied
    core (``GameCore.copy``) by the ordinary constructor, and then the original state is
    written back over the copy (one memcpy of ``GameState``), undoing ``_begin``.  The copy
    shares the original's bound tables (Engine's ``template``), so it costs the copy and
    the per-game start of ``_begin``.
    """
    cdef GameCore core = eng.core.copy()
    cdef Engine new = Engine(core, eng.tables, content, scenario_id, eng)   # shares the bound tables
    memcpy(&core.gs, &eng.core.gs, sizeof(GameState))
    return new


def engine_core(Engine eng):
    """The GameCore an engine runs on."""
    return eng.core


def combat_enemies(GameCore core):
    """Enemies of the combat in progress: a list of (slot, enemy content index, flags)
    (``CE_*`` bits of ext/_types.pxd); empty when no combat is active."""
    cdef GameState* gs = &core.gs
    cdef int i
    if not gs.combat.active:
        return []
    return [(i, gs.combat.enemies[i].enemy, gs.combat.enemies[i].flags) for i in range(gs.combat.n_enemies)]


# ---------------------------------------------------------------------------------------
# Results store (mksim.results): the counters the engine keeps in Player.stats
# ---------------------------------------------------------------------------------------

#: Order of the numbers :func:`fill_stats` writes (mksim.results names its columns so).
STATS_FIELDS = (
    "fame", "level", "reputation", "rounds", "turns", "decisions", "combats",
    "defeated_green", "defeated_grey", "defeated_violet", "defeated_brown", "defeated_red",
    "defeated_white", "knockouts", "wounds_taken", "wounds_held", "units_recruited", "units_held",
    "gained_aa", "gained_spell", "gained_artifact", "crystals", "mana_used", "deeds",
    "ach_knowledge", "ach_loot", "ach_leader", "ach_conqueror", "ach_adventurer", "ach_beating",
    "forced_missed", "restriction_forced",
)
#: Order of the numbers :func:`fill_rounds` writes for each round.
ROUND_FIELDS = ("fame", "level", "wounds", "deeds", "units", "crystals", "tactic")
STATS_MAX_ROUNDS = MAX_ROUNDS
STATS_SITE_KINDS = NUM_SITE_KINDS


cdef int _stats_into(GameCore core, int p, int32_t* out, int32_t* tactics, int32_t* sites) except -1:
    """Player ``p``'s numbers of the game into ``out`` (``STATS_FIELDS`` order), the tactic of
    each round (content index + 1, 0 = none) into ``tactics`` and the sites conquered per site
    kind into ``sites``: plain C stores, no Python object per game."""
    cdef GameState* gs = &core.gs
    cdef Player* pl = &gs.players[p]
    cdef const PlayerStats* s = &pl.stats
    cdef int i, wounds = 0, units = 0, wound = -1
    cdef int ach[6]
    for i in range(core.st.cards.rows):
        if core.st.cards.data[i * core.st.cards.width + core.st.cols.card_deck] == DECK_WOUND:
            wound = i
            break
    for i in range(pl.n_deck):
        wounds += pl.deck[i] == wound
    for i in range(pl.n_hand):
        wounds += pl.hand[i] == wound
    for i in range(pl.n_discard):
        wounds += pl.discard[i] == wound
    for i in range(pl.n_play):
        wounds += pl.play_area[i] == wound
    for i in range(MAX_UNITS):
        units += pl.units[i].card >= 0
    achievement_scores(gs, &core.st, p, ach)
    out[0] = pl.fame
    out[1] = pl.level
    out[2] = pl.reputation
    out[3] = gs.round
    out[4] = s.turns
    out[5] = gs.steps
    out[6] = s.combats
    for i in range(6):
        out[7 + i] = s.defeated[i]
    out[13] = s.knockouts
    out[14] = s.wounds_taken
    out[15] = wounds
    out[16] = s.units_recruited
    out[17] = units
    out[18] = s.cards_gained[DECK_AA]
    out[19] = s.cards_gained[DECK_SPELL]
    out[20] = s.cards_gained[DECK_ARTIFACT]
    out[21] = pl.crystals[0] + pl.crystals[1] + pl.crystals[2] + pl.crystals[3]
    out[22] = s.mana_used
    out[23] = pl.n_deck + pl.n_hand + pl.n_discard + pl.n_play + pl.n_tactic_cards + pl.n_set_aside
    for i in range(6):
        out[24 + i] = ach[i]
    out[30] = s.forced_missed
    out[31] = s.restriction_forced
    for i in range(MAX_ROUNDS):
        tactics[i] = s.rounds[i].tactic
    for i in range(NUM_SITE_KINDS):
        sites[i] = s.conquered[i]
    return 0


cdef int _rounds_into(GameCore core, int p, int32_t* out, Py_ssize_t stride) noexcept:
    """Player ``p``'s numbers at each round's end, one row of ``stride`` int32 per round
    played (``ROUND_FIELDS`` order); returns the rows written."""
    cdef const PlayerStats* s = &core.gs.players[p].stats
    cdef const RoundStats* r
    cdef int i
    for i in range(s.n_rounds):
        r = &s.rounds[i]
        out[i * stride + 0] = r.fame
        out[i * stride + 1] = r.level
        out[i * stride + 2] = r.wounds
        out[i * stride + 3] = r.deeds
        out[i * stride + 4] = r.units
        out[i * stride + 5] = r.crystals
        out[i * stride + 6] = r.tactic
    return s.n_rounds


def fill_stats(GameCore core, int p, int32_t[::1] out, int32_t[::1] tactics, int32_t[::1] sites):
    """Write player ``p``'s numbers of the game (``STATS_FIELDS`` order) into ``out``, the
    tactic taken each round (content index + 1, 0 = none; ``MAX_ROUNDS`` entries) into
    ``tactics`` and the sites conquered per site kind (``NUM_SITE_KINDS``) into ``sites``.
    Everything is read from the state (counters the engine kept while playing), never by
    replaying the game."""
    if p < 0 or p >= core.gs.n_players or out.shape[0] < len(STATS_FIELDS) \
            or tactics.shape[0] < MAX_ROUNDS or sites.shape[0] < NUM_SITE_KINDS:
        raise ValueError("fill_stats: bad player or buffer sizes")
    _stats_into(core, p, &out[0], &tactics[0], &sites[0])


def fill_rounds(GameCore core, int p, int32_t[:, ::1] out):
    """Write player ``p``'s numbers at each round's end (``ROUND_FIELDS`` order, one row per
    round played) into ``out`` (at least ``MAX_ROUNDS`` rows); returns the rows written."""
    if p < 0 or p >= core.gs.n_players or out.shape[0] < MAX_ROUNDS or out.shape[1] < 7:
        raise ValueError("fill_rounds: bad player or buffer sizes")
    return _rounds_into(core, p, &out[0, 0], out.shape[1])


def fill_game(GameCore core, int p, int row, int32_t[:, ::1] stats, int32_t[:, ::1] tactics,
              int32_t[:, ::1] sites, int32_t[:, ::1] rounds, Py_ssize_t at):
    """:func:`fill_stats` into row ``row`` of ``stats`` / ``tactics`` / ``sites`` and
    :func:`fill_rounds` into rows ``at ..`` of ``rounds``, in one call (the runner's per-game
    record: no slices, tuples or Python numbers per game).  Returns the rounds written."""
    if p < 0 or p >= core.gs.n_players or not 0 <= row < stats.shape[0] \
            or stats.shape[1] < len(STATS_FIELDS) or tactics.shape[0] <= row or tactics.shape[1] < MAX_ROUNDS \
            or sites.shape[0] <= row or sites.shape[1] < NUM_SITE_KINDS \
            or at < 0 or at + MAX_ROUNDS > rounds.shape[0] or rounds.shape[1] < 7:
        raise ValueError("fill_game: bad player, row or buffer sizes")
    _stats_into(core, p, &stats[row, 0], &tactics[row, 0], &sites[row, 0])
    return _rounds_into(core, p, &rounds[at, 0], rounds.shape[1])


def set_forced_tactics(GameCore core, forced):
    """Experiment arms: ``forced`` maps round (1-based) to the tactic content index the
    player must take in that round when it is on offer (``GameState.forced_tactic``)."""
    cdef int i
    for i in range(MAX_ROUNDS):
        core.gs.forced_tactic[i] = 0
    for r, t in forced.items():
        if not 1 <= r <= MAX_ROUNDS:
            raise ValueError(f"forced tactic round {r} is outside 1..{MAX_ROUNDS}")
        core.gs.forced_tactic[r - 1] = <int8_t>(t + 1)
# The policy view (ext/_view.pxd; mksim.policies.view.PolicyView wraps this dict)
# ---------------------------------------------------------------------------------------

def view_numbers(GameCore core):
    """What the acting player sees, as plain integers, read through the ``ext/_view.pxd``
    accessors (so the C and Python views are one surface).  Hidden zones appear only as
    sizes; face-down tokens as -1.  See docs/policies.md for the keys."""
    cdef const GameState* gs = &core.gs
    cdef const Player* pl = view_player(gs)
    cdef const Hex* hx
    cdef const Unit* u
    cdef int i, k, h
    hexes = []
    for h in range(view_n_hexes(gs)):
        hx = view_hex(gs, h)
        hexes.append({
            "index": h, "q": hx.q, "r": hx.r, "terrain": hx.terrain, "site": hx.site,
            "owner": hx.owner, "flags": hx.flags, "city_level": hx.city_level,
            "tokens": [view_token_enemy(gs, h, k) for k in range(hx.n_tokens)],
            "ruins": view_ruins(gs, h),
        })
    units = []
    for i in range(6):
        u = view_unit(gs, i)
        if u.card >= 0:
            units.append({"slot": i, "unit": u.card, "ready": bool(u.ready), "wounds": u.wounds,
                          "banner": u.banner})
    return {
        "actor": view_actor(gs), "phase": view_phase(gs), "round": view_round(gs),
        "time": view_time(gs), "turn_player": gs.turn_player, "hero": pl.hero,
        "hand": [view_hand_card(gs, i) for i in range(view_hand_size(gs))],
        "deck_size": view_deck_size(gs),
        "deck_known_top": [pl.deck[pl.n_deck - 1 - i] for i in range(min(pl.deck_known_top, pl.n_deck))],
        "discard": [view_discard_card(gs, i) for i in range(view_discard_size(gs))],
        "play_area": [pl.play_area[i] for i in range(pl.n_play)],
        "units": units, "skills": [pl.skills[i] for i in range(8) if pl.skills[i] >= 0],
        "crystals": [view_crystals(gs, i) for i in range(4)],
        "mana_tokens": [view_mana_tokens(gs, i) for i in range(6)],
        "move": view_move(gs), "influence": view_influence(gs), "healing": gs.turn.healing,
        "attack": [[view_attack(gs, k, i) for i in range(4)] for k in range(3)],
        "block": [view_block(gs, i) for i in range(4)],
        "position": view_position(gs), "fame": view_fame(gs), "level": pl.level,
        "reputation": pl.reputation, "tactic": pl.tactic,
        "hexes": hexes,
        "dice": [gs.dice[i] for i in range(gs.n_dice)], "dice_taken": gs.dice_taken,
        "unit_offer": [gs.unit_offer[i] for i in range(gs.n_unit_offer)],
        "aa_offer": [gs.aa_offer[i] for i in range(3)],
        "spell_offer": [gs.spell_offer[i] for i in range(3)],
        "skill_offer": [gs.skill_offer[i] for i in range(gs.n_skill_offer)],
        "tile_stack_size": gs.n_tile_stack,
        "in_combat": bool(gs.combat.active),
        "combat_enemies": [(i, gs.combat.enemies[i].enemy, gs.combat.enemies[i].flags)
                           for i in range(gs.combat.n_enemies)] if gs.combat.active else [],
        "ask": gs.turn.ask, "ask_options": gs.turn.ask_options,
        "end_announced_by": gs.end_announced_by,
        "dummy_deck_size": gs.dummy.n_deck if gs.has_dummy else -1,
        "dummy_discard": [gs.dummy.discard[i] for i in range(gs.dummy.n_discard)] if gs.has_dummy else [],
    }


def set_restrictions(GameCore core, cards=(), skills=(), units=(), sites=()):
    """Restricted play (an experiment arm; Jaffe et al. 2012): forbid the player the Deed
    cards, skills, Units and site kinds given as content indices (rows of ``tables.card_ids``,
    ``tables.skill_ids``, ``tables.unit_ids``; positions in ``content.SITE_IDS``).  The
    engine's legal-action listing then leaves out every action using one of them wherever
    another option remains (``GameState.forbid_*``; docs/experiments.md).  Empty lists
    lift every restriction."""
    cdef GameState* gs = &core.gs
    cdef int i
    lists = (("card", cards, 64 * 4), ("skill", skills, 64 * 2), ("unit", units, 64 * 2),
             ("site kind", sites, 32))
    for what, values, cap in lists:
        for v in values:
            if type(v) is not int or not 0 <= v < cap:
                raise ValueError(f"set_restrictions: {what} index {v!r} is outside 0..{cap - 1}")
    for i in range(4):
        gs.forbid_cards[i] = 0
    for i in range(2):
        gs.forbid_skills[i] = 0
        gs.forbid_units[i] = 0
    gs.forbid_sites = 0
    for v in cards:
        gs.forbid_cards[v >> 6] |= (<uint64_t>1) << (v & 63)
    for v in skills:
        gs.forbid_skills[v >> 6] |= (<uint64_t>1) << (v & 63)
    for v in units:
        gs.forbid_units[v >> 6] |= (<uint64_t>1) << (v & 63)
    for v in sites:
        gs.forbid_sites |= (<uint32_t>1) << v
    gs.restricted = 1 if (cards or skills or units or sites) else 0
    core.version += 1          # the cached legal list is stale
