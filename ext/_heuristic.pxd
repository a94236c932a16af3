# Header of ext/_heuristic.pyx: the `heuristic` policy, a rule-based player with a C fast
# path (no Python object per decision).
#
# What it reads (the acting player's knowledge only): its hand, discard size, units,
# crystals, mana tokens, the turn's pools, its position, the revealed map (terrain, sites,
# face-up tokens, conquered / burned flags), the kind (Countryside / Core) of the top tile
# of the tile stack (its back is visible, 9.8.4), the offers, the Source, the round, the
# time of day and its Fame.  It never reads the Deed deck order, face-down token
# identities (a face-down enemy is valued as the average token of its colour, a public
# fact of the token mix), the tile stack's faces or any random stream.  It takes no
# look-ahead at all: every estimate is computed from the effect tables.
#
# Components:
#   * effect valuation   row_value(): an effect row's worth under need weights (Weights)
#   * movement planner   dijkstra(): cheapest Move cost to every revealed space under the
#                        current terrain costs (_rules.move_cost), skipping provoking steps
#   * combat planner     fight_plan(): ranged/siege first, then block or take the damage,
#                        then attack, greedy on the cards and units in hand
#   * turn choices       goals (explore, challenge rampaging enemies, assault keeps and
#                        mage towers, adventure sites, recruit / heal at villages and
#                        monasteries), rest, tactics, level-up and reward picks
from libc.stdint cimport int32_t
from mksim._policies cimport RandomPolicy
from mksim._engine cimport Engine, EngineStatics
from mksim._types cimport GameState, MAX_HEXES
from mksim._state cimport Statics

cdef enum:
    H_MAX_RES = 32             # resources (hand cards + unit abilities + skills) a combat plan weighs
    H_RES_UNIT = 0             # H_MAX_RES + H_RES_UNIT + slot: a Unit's entry in rv_att / rv_blk
    H_RES_SKILL = 8            # H_MAX_RES + H_RES_SKILL + slot: a skill's entry (8.2)
    H_MAX_FOES = 8             # enemies one plan considers

cdef struct HParams:           # the documented parameters (see HeuristicPolicy docstring)
    double aggression          # weight of Fame won in a fight (x Fame)
    double explore_weight      # value of revealing a tile (besides its 1 Fame, 17.3.1)
    double wound_weight        # cost of one Wound taken (risk tolerance: lower takes more)
    double fight_threshold     # a fight is entered only if its plan is worth more than this
    double site_weight         # x value of assaulting keeps / mage towers (fortified sites)
    double adventure_weight    # x value of adventure sites (dungeons, dens, tombs ...)
    double core_explore        # x value of revealing a Core tile before the last round (the
                               # city may end First Reconnaissance early, 17.3.1)
    double recruit_weight      # value of one Unit level recruited
    double heal_weight         # value of one Wound healed
    double learn_weight        # value of an Advanced Action / Spell bought
    # conquest planning (active only where a city may be entered and the scenario does not
    # end when a city is revealed, i.e. Solo Conquest, 17.3.4): see conquest_mode()
    double city_weight         # worth of one city defender defeated besides its Fame (its share
                               # of the city's +10 / +15, 20.5.2)
    double siege_weight        # worth of standing next to an unconquered city (the next turn's
                               # assault with a full hand), per round from siege_round on
    double siege_round         # round from which the hero heads for the cities (timing)
    double city_explore        # worth of revealing a tile while a city is still unrevealed
    double conquest_heal       # x heal_weight in Solo Conquest
    double conquest_recruit    # x recruit_weight in Solo Conquest
    double approach_weight     # x worth of a site out of this turn's reach, walked towards on a
                               # turn that has no goal in reach (0: such turns stay idle)
    double conquest_wound      # x wound_weight in a fight plan in Solo Conquest (a Wound kept costs 2, 20.2)
    double conquest_aggression # x aggression in a fight plan in Solo Conquest
    double skill_choice        # 13.6.4 level-up skill: 1 = the offered skill worth most to this
                               # policy (skill_pick_value), 0 = the first offered (the old choice)
    double skill_attack        # x worth of a skill's Attack in skill_pick_value (0: none, measured)
    # interaction (10.5-10.7), Solo Conquest only: see pick_interact()
    double buy_value           # Units / cards bought valued by level (0) .. by strength (1)
    double buy_plan            # 1: purchases planned on the Influence the turn can raise
                               # (plan_buys); 0: the best one affordable now, else cards played
                               # for the cheapest (the old timing)
    double buy_card_cost       # worth given up per card played for a planned purchase
    double mana_check          # Solo Conquest fights: cards needing an unpayable mana count sideways (0: off)
    double block_pool          # Solo Conquest Block phase: the Block already played counts towards the attack (0: off)
    double attack_half         # Solo Conquest Attack phase: the half point of an odd resisted pool counts (0: off)
    double unit_heal           # x unit_worth of a wounded Unit healed (12.3.3; 0: Units are never healed)
    double knockout_guard      # 1: a Unit takes a blow that would knock the hero out (11.7.8; 0: off)

cdef struct Weights:           # what one point of each effect is worth now
    double move
    double influence
    double heal
    double draw
    double mana
    double crystal
    double fame
    double other               # a named handler whose worth is not modelled
    double att[3][4]           # [kind MELEE RANGED SIEGE][element]
    double blk[4]              # [element]

cdef struct Foe:               # one enemy as the planner sees it
    int armor
    int fame
    int n_att
    int att[3]
    int el[3]
    int abil                   # AB_* bits (_combat.pxd)
    int res                    # RES_* bits
    int fortified              # 1: counts as fortified in the Ranged phase (11.10)

cdef enum:
    MAX_TRAIL = 64                 # spaces remembered per turn (HeuristicPolicy.trail)


cdef class HeuristicPolicy(RandomPolicy):
    cdef HParams p
    cdef readonly object params        # the {name: value} the policy was built with
    cdef object _bound                 # the tables object the per-content data below was built from
    cdef int tactic_rank[16]           # per tactic content index: preference (higher first)
    cdef unsigned char tactic_use[16]  # per tactic content index: 1 = use its ability whenever it is legal
    cdef Foe pile_avg[6]               # average token of each enemy colour (public token mix)
    cdef int pile_type[6][24]          # enemy content indices of each colour's token mix (1.2.2) ...
    cdef int pile_copies[6][24]        # ... and their copies
    cdef int n_pile_type[6]
    cdef int h_pay_mana                # handler id of pay_mana_by_colour (Pure Magic, Mana Bolt), -1 = none
    # fight_plan() values of each resource (hand index, H_MAX_RES + unit slot, or
    # H_MAX_RES + H_RES_SKILL + skill slot) for the
    # current decision: attack [resistances 0-7][0 melee phase / 1 ranged / 2 siege only],
    # block [attack element]; rv_ok flags say which are computed (reset per decision)
    cdef double rv_att[8][3][H_MAX_RES + 16]
    cdef double rv_blk[4][H_MAX_RES + 16]
    cdef unsigned char rv_att_ok[8][3]
    cdef unsigned char rv_blk_ok[4]
    # unknown_fight() results of the current decision (reset by pick_move)
    cdef int uf_n
    cdef long long uf_key[16]
    cdef double uf_ev[16]
    cdef double uf_pw[16]
    cdef int goal_key                  # turn the stored goal belongs to (round * 256 + turns_in_round)
    cdef int goal_hex                  # stored goal of this turn, -1 = none
    cdef int goal_kind
    # the spaces the hero has stood on this turn (goal_key's turn): a goal is never one of them
    # but the one it stands on, so zero-cost steps (Song of Wind, 9.6) cannot go back and forth
    cdef int n_trail
    cdef int trail[MAX_TRAIL]
    # caches of pick_move (valid while their key matches; they hold only what the player sees)
    cdef long long path_key            # dijkstra(): position, map, turn, limit and terrain modifiers
    cdef int path_dist[MAX_HEXES]
    cdef int path_prev[MAX_HEXES]
    cdef int expl_key                  # explorable(): tiles on the map and in the stack
    cdef signed char expl_n[MAX_HEXES] # explorable positions next to each space (-1 = not computed)
    cdef int pick_engine(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    # one method per decision point (dispatched on the phase by pick_engine)
    cdef void need_weights(self, Engine eng, Weights* w) noexcept nogil
    cdef int pick_choice(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef int pick_colour(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef int pick_tactic(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef double heal_plan(self, Engine eng, int points, int wounds, int* best_mask, int* used) noexcept nogil
    cdef int pick_heal(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef bint unit_heal_reachable(self, Engine eng) noexcept nogil
    cdef int pick_turn_start(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef int pick_rest(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef int pick_end_turn(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef int pick_interact(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef int pick_combat(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef void attack_reserve(self, Engine eng, int* reserve) noexcept nogil
    cdef int pick_damage(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef int pick_move(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef bint on_trail(self, int h) noexcept nogil
    cdef double move_cost_penalty(self, int extra, double pot) noexcept nogil
    cdef void move_exclusion(self, const GameState* gs, const EngineStatics* es, int extra, int* excluded) noexcept nogil
    cdef int site_goal_kind(self, Engine eng, int site) noexcept nogil
    cdef double site_score(self, Engine eng, int h, int site, int d, int mp, double pot, int wounds,
                           Foe* foes, int* excluded) noexcept nogil
    cdef int approach_goal(self, Engine eng, int mp, double pot, int* dist, Foe* foes, int* excluded) noexcept nogil
    cdef double heal_w(self, const EngineStatics* es) noexcept nogil
    cdef double recruit_w(self, const EngineStatics* es) noexcept nogil
    cdef double unit_worth(self, const EngineStatics* es, const Statics* st, int u, int time) noexcept nogil
    cdef double card_worth(self, const GameState* gs, const EngineStatics* es, int card) noexcept nogil
    cdef int plan_buys(self, Engine eng, const int32_t* actions, int n, double budget, int* need_more) noexcept nogil
    cdef double city_assault_score(self, Engine eng, int h, int d, int mp, double pot, Foe* foes,
                                   int* excluded) noexcept nogil
    cdef double siege_score(self, Engine eng, int h, const unsigned char* ready) noexcept nogil
    cdef int city_ready(self, Engine eng, unsigned char* ready) noexcept nogil
    cdef void reset_caches(self) noexcept nogil
    cdef void forget(self) noexcept nogil
    cdef double* att_values(self, const GameState* gs, const EngineStatics* es, int res, int mode) noexcept nogil
    cdef double* blk_values(self, const GameState* gs, const EngineStatics* es, int el) noexcept nogil
    cdef int resisted_pool(self, const GameState* gs, const Statics* st, int slot) noexcept nogil
    cdef bint basic_needs_mana(self, const EngineStatics* es, int card) noexcept nogil
    cdef void mana_limit(self, const GameState* gs, const EngineStatics* es, const Weights* w, double* out,
                         double side) noexcept nogil
    cdef double mana_overcount(self, const GameState* gs, const EngineStatics* es, const Weights* w, int sideways_ok,
                               const int* excluded) noexcept nogil
    cdef double unknown_fight(self, const GameState* gs, const EngineStatics* es, int colour, int count,
                              int fortified, const int* excluded, int units_ok, double* p_win) noexcept nogil
    cdef int pick_challenge(self, Engine eng, const int32_t* actions, int n) noexcept nogil
    cdef int play_for_move(self, Engine eng, const int32_t* actions, int n, double keep, int wounds) noexcept nogil
    cdef int end_of_move(self, Engine eng, const int32_t* actions, int n, int wounds) noexcept nogil
    cdef int step_off(self, Engine eng, const int32_t* actions, int n) noexcept nogil
