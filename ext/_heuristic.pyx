# cython: language_level=3
"""The ``heuristic`` policy: a rule-based player in C (see ``_heuristic.pxd``).

Every decision is :meth:`HeuristicPolicy.pick_engine`, a ``nogil`` function of the engine's
state that reads only what the acting player knows.  It is deterministic: the same state
gives the same decision (its random stream is never drawn from).

Rules it relies on are cited where they are used: 3.1 tactics, 4.2 announcing the End of
the Round, 4.5 resting, 6.1.7 sideways play, 9.2-9.8 movement and exploration, 10.2-10.7
interaction, 11.3-11.10 combat, 12 Wounds, 13.5-13.6 rewards and levels, 17.3.1 First
Reconnaissance.
"""
from libc.stdint cimport int32_t, uint32_t, uint64_t
from libc.math cimport ceil

from mksim._types cimport (MK_WEATHER_OTHERS, Modifier, MAX_MODS, MK_NONE, MK_IGNORE_SITE_FORT, MK_UNIT_ATTACK_BLOCK,
    MK_RECRUIT_DISCOUNT, MK_EXPLORE_DISCOUNT, MK_BLOCKED_ARMOR_ONE, NUM_MOD_KINDS, MS_NEXT_CARD, MS_PHASE,
    MS_COMBAT, MS_TURN, MS_ROUND, NUM_MOD_SCOPES)
from mksim._modifiers cimport (mod_sum_others, mod_add, mod_find, mod_has, mod_sum, mod_remove_at, mod_remove_kind, mod_set,
    mod_expire, event_scope, EV_TURN_START, EV_TURN_END, EV_PHASE_START, EV_PHASE_END, EV_CARD_PLAYED,
    EV_BLOCK_COMMITTED, EV_ATTACK_COMMITTED, EV_DAMAGE_ASSIGNED, EV_COMBAT_END, EV_ROUND_END, NUM_EVENTS)
from mksim._types cimport MK_IGNORE_WOUNDS, MK_NO_UNIT_DAMAGE, MK_NO_SOURCE_DICE, MK_NO_RECRUIT, MK_MANA_ANYTIME, MK_ENDLESS_MANA, MK_DICE_ANY_BASIC, MK_CRYSTAL_RETURN, MK_SPACE_BENDING, MK_PROTECTION, MK_INFLUENCE_BLOCK, MK_REVEAL_DISTANCE, MK_EXPLORE_RANGE, MK_DRAW_PER_HEAL, MK_CURE, MK_ATTACKS_COLDFIRE, MK_ATTACKS_SIEGE, MK_SWORD_FAME, MK_DODGE_ATTACK  # turn / combat-long kinds (issue 12)
from mksim._modifiers cimport mod_take, mod_find, mod_has, mod_sum, mod_remove_kind, mod_find_arg, mod_sum_arg, mod_has_arg  # (issue 12)
from mksim._types cimport (
    GameState, Player, Hex, TurnState, Combat, CombatEnemy, MAX_SKILLS,
    PH_TACTICS, PH_TURN_START, PH_MOVE, PH_ACTION, PH_COMBAT_RANGED, PH_COMBAT_BLOCK,
    PH_COMBAT_DAMAGE, PH_COMBAT_ATTACK, PH_INTERACT, PH_REST, PH_END_TURN, PH_GAME_OVER,
    MAX_HEXES, MAX_UNITS, NIGHT, DAY, GOLD, BLACK, HEX_CONQUERED, HEX_BURNED, HEX_TOKENS_REVEALED,
    CE_DEFEATED, CE_GONE, MELEE, RANGED, SIEGE, PHYSICAL, FIRE, ICE, COLDFIRE, DECK_SPELL,
)
from mksim._state cimport Statics, GameCore
from mksim._engine cimport (row_args, source_dice_allowed, interaction_site, interaction_city, can_recruit, recruit_price,
    spell_price, heal_price, unit_level,
    OP_CHOICE, OP_ALL, OP_BY_TIME, OP_MOVE, OP_INFLUENCE, OP_ATTACK, OP_BLOCK, OP_HEAL, OP_DRAW,
    OP_GAIN_MANA, OP_GAIN_CRYSTAL, OP_FAME, OP_HANDLER,
    Engine, EngineStatics, ACTION_SHIFT, ARG_MASK, ASK_DONE, PAY_NONE, PAY_CRYSTAL, PAY_DIE, SKILL_TURN_SHIFT,
    A_TACTIC, A_ANNOUNCE_END, A_REGULAR_TURN, A_REST, A_PLAY, A_SIDEWAYS, A_CHOOSE, A_MOVE,
    A_EXPLORE, A_END_TURN, A_REST_DISCARD, A_HEAL_WOUND, A_DISCARD, A_DRAW, A_PICK_SKILL,
    A_PICK_AA, A_GLADE_WOUND, A_FORFEIT, A_CHALLENGE, A_ENTER_SITE, A_BURN, A_INTERACT,
    A_COMMIT_ATTACK, A_COMMIT_BLOCK, A_DAMAGE_START, A_DAMAGE_HERO, A_DAMAGE_UNIT,
    A_NEXT_PHASE, A_REWARD, A_END_INTERACT, A_RECRUIT, A_BUY_HEALING, A_BUY_AA, A_BUY_SPELL,
    A_ACTIVATE_UNIT, A_HEAL_UNIT, A_PLUNDER, A_BUY_CITY_AA, A_BUY_ARTIFACT, A_ADD_ELITE,
    A_TACTIC_ABILITY, A_USE_SKILL, A_CUMBERSOME, EXPLORE_BOX_FLAG,
    ASK_HAND_CARD, ASK_COLOUR, ASK_DIE, ASK_YES_NO, ASK_OFFER, ASK_NUMBER, ASK_DECK_CARD,
    ASK_OPTION, ASK_DISCARD_CARD, ASK_ENEMY, ASK_UNIT, ASK_PAYMENT,
)
from mksim._rules cimport terrain_costs, move_cost_in
from mksim._types cimport NUM_TERRAINS, MK_TERRAIN_DELTA, MK_TERRAIN_FLOOR, MK_TERRAIN_SET, MK_TERRAIN_OPEN, MK_TERRAIN_SAFE, MK_TERRAIN_CLOSED, MK_WEATHER_OWN  # 9.6
from mksim._rules cimport move_cost, can_enter, provokes, ends_movement, is_rampaging, explorable, \
    box_explorable, is_safe, RULES_STACK_EMPTY, MAX_EXPLORABLE
from mksim._combat cimport (
    enemy_armor, enemy_n_attacks, attack_element, enemy_attack_value, attack_is_live, is_targetable,
    can_target_in_ranged, block_needed, block_value, attack_value, fortification_level, enemy_ability,
    AB_FORTIFIED, AB_SWIFT, AB_BRUTAL, AB_POISON, AB_PARALYZE, AB_SUMMON, RES_PHYSICAL, RES_FIRE, RES_ICE,
)
from mksim._scoring cimport hero_armor, hand_limit

# Goal kinds of the turn planner.
cdef enum:
    G_NONE = 0
    G_EXPLORE = 1              # stand on the hex, then explore (9.8)
    G_CHALLENGE = 2            # stand on the hex, then challenge adjacent rampaging enemies (11.1.5)
    G_ASSAULT = 3              # move into the fortified site (keep, mage tower; 11.1.3)
    G_ENTER = 4                # stand on the adventure site, then enter it (10.8)
    G_INTERACT = 5             # stand on the village / monastery, then interact (10.2)
    G_SIEGE = 6                # end the turn next to an unconquered city (Solo Conquest: assault next turn)
    G_APPROACH = 7             # walk towards a site out of this turn's reach (Solo Conquest, idle turns)

cdef enum:
    INF = 1 << 20
    HOP_SCALE = 1024           # dijkstra(): heap key = cost * HOP_SCALE + steps (steps < MAX_HEXES)
    MAX_HEAP = 6 * MAX_HEXES + 8

#: The conquest-planning parameters (read only in Solo Conquest, see conquest_mode()); the
#: same in every preset so that the presets keep their First Reconnaissance character.
CONQUEST_DEFAULTS = dict(city_weight=3.0, siege_weight=3.0, siege_round=4.0, city_explore=0.0, conquest_heal=25.0,
                         conquest_recruit=2.0, approach_weight=1.0, conquest_wound=1.0, conquest_aggression=1.5)
#: The interaction parameters (pick_interact; buy_value, buy_plan and buy_card_cost are read
#: only in Solo Conquest, like the conquest ones: First Reconnaissance measured worse with them,
#: docs/policies.md): purchases valued by strength (buy_value) and planned on the turn's
#: Influence (buy_plan); both 0 = the old choice.  The three fight fixes (mana_check,
#: block_pool, attack_half) act in every scenario: they are rules the old plan got wrong.
#: unit_heal (every scenario) values a wounded Unit healed (12.3.3) at unit_worth x unit_heal;
#: 0 = never heal a Unit (the old play: wounded Units idled for the rest of the game, 12.2.2).
#: knockout_guard (every scenario): a Unit takes a blow that would knock the hero out (11.7.8).
INTERACT_DEFAULTS = dict(buy_value=1.0, buy_plan=1.0, buy_card_cost=0.0, mana_check=1.0, block_pool=1.0, attack_half=1.0,
                         unit_heal=1.0, knockout_guard=1.0)
#: Parameters of the named presets (``heuristic:preset=NAME``).
PRESETS = {
    "balanced": dict(aggression=1.0, explore_weight=1.0, wound_weight=0.45, fight_threshold=0.2,
                     site_weight=1.3, adventure_weight=1.0, core_explore=0.3, recruit_weight=1.2,
                     heal_weight=0.7, learn_weight=2.0, **CONQUEST_DEFAULTS, skill_choice=1.0, skill_attack=0.0,
                     **INTERACT_DEFAULTS),
    "explorer": dict(aggression=0.9, explore_weight=2.0, wound_weight=0.7, fight_threshold=0.5,
                     site_weight=0.7, adventure_weight=0.8, core_explore=0.15, recruit_weight=1.0,
                     heal_weight=0.8, learn_weight=1.5, **CONQUEST_DEFAULTS, skill_choice=1.0, skill_attack=0.0,
                     **INTERACT_DEFAULTS),
    "conqueror": dict(aggression=1.5, explore_weight=0.6, wound_weight=0.3, fight_threshold=0.0,
                      site_weight=1.8, adventure_weight=1.5, core_explore=0.1, recruit_weight=1.8,
                      heal_weight=0.6, learn_weight=3.0, **CONQUEST_DEFAULTS, skill_choice=1.0, skill_attack=0.0,
                      **INTERACT_DEFAULTS),
}
PARAM_NAMES = tuple(PRESETS["balanced"])
#: The effect operations the valuation reads, by their mksim.effects name (tests check the codes).
OP_CODES_USED = {"choice": OP_CHOICE, "all": OP_ALL, "by_time": OP_BY_TIME, "move": OP_MOVE,
                 "influence": OP_INFLUENCE, "attack": OP_ATTACK, "block": OP_BLOCK, "heal": OP_HEAL,
                 "draw": OP_DRAW, "gain_mana": OP_GAIN_MANA, "gain_crystal": OP_GAIN_CRYSTAL,
                 "fame": OP_FAME, "handler": OP_HANDLER}

#: Tactic preference (3.1), best first; tactics not named come after them.  Of the tactics'
#: abilities (A_TACTIC_ABILITY) the policy uses Long Night's and The Right Moment's
#: (TACTIC_ABILITY_USED), and those two come first by their time of day: The Right Moment's
#: extra turn, then Great Start and Planning (draw / keep more cards) and Early Bird (moves
#: first); Long Night by night, then Preparation and From the Dusk.  (An order measured on
#: First Reconnaissance, 200 games per hero: 20.6 mean Fame against 19.8 with The Right
#: Moment and Long Night after the others.)
TACTIC_ORDER = ("the_right_moment", "great_start", "planning", "early_bird", "rethink", "mana_steal",
                "long_night", "preparation", "from_the_dusk", "mana_search", "midnight_meditation",
                "sparing_power")
#: Tactics whose ability (3.2) the policy uses as soon as it is legal: Long Night puts three
#: cards of the discard pile back into the empty Deed deck -- more cards to play this round,
#: never a loss (its Wounds may come back, but so do the Deeds); The Right Moment gives
#: another turn right after this one, which is legal only before the End of the Round is
#: announced, so the sooner the surer (in solo the dummy's deck often ends the round, 18.2.3).
TACTIC_ABILITY_USED = ("long_night", "the_right_moment")


cdef inline int kind_of(int a) noexcept nogil:
    return a >> ACTION_SHIFT


cdef inline int arg_of(int a) noexcept nogil:
    return a & ARG_MASK


cdef inline int tv(const int32_t* data, int width, int row, int col) noexcept nogil:
    return data[row * width + col]


cdef inline double dmax(double a, double b) noexcept nogil:
    return a if a > b else b


# ---------------------------------------------------------------------------------------
# Effect valuation
# ---------------------------------------------------------------------------------------

cdef void w_zero(Weights* w) noexcept nogil:
    cdef int k, e
    w.move = 0; w.influence = 0; w.heal = 0; w.draw = 0; w.mana = 0; w.crystal = 0
    w.fame = 0; w.other = 0
    for k in range(3):
        for e in range(4):
            w.att[k][e] = 0
    for e in range(4):
        w.blk[e] = 0


cdef double row_value(const EngineStatics* es, int row, const Weights* w, int time, int depth) noexcept nogil:
    """What effect row ``row`` is worth under ``w``: a choice takes its best option, ``all``
    adds its parts, ``by_time`` takes the part of the time of day (2.1); a named handler is
    worth ``w.other`` plus 0.8 of its effect-valued arguments (e.g. Improvisation's
    ``then=choice(...)`` costs a discarded card)."""
    cdef const int32_t* r
    cdef int op, k, first, nc
    cdef double v, best
    if row <= 0 or row >= es.effects.rows or depth > 8:
        return 0
    r = es.effects.data + row * es.effects.width
    op = r[0]
    first = r[4]
    nc = r[5]
    if op == OP_CHOICE:
        best = 0
        for k in range(nc):
            v = row_value(es, first + k, w, time, depth + 1)
            if v > best:
                best = v
        return best
    if op == OP_ALL:
        v = 0
        for k in range(nc):
            v += row_value(es, first + k, w, time, depth + 1)
        return v
    if op == OP_BY_TIME:
        if nc >= 2:
            return row_value(es, first + (1 if time == NIGHT else 0), w, time, depth + 1)
        return 0
    if op == OP_MOVE:
        return r[1] * w.move
    if op == OP_INFLUENCE:
        return r[1] * w.influence
    if op == OP_ATTACK:
        if 0 <= r[3] < 3 and 0 <= r[2] < 4:
            return r[1] * w.att[r[3]][r[2]]
        return 0
    if op == OP_BLOCK:
        if 0 <= r[2] < 4:
            return r[1] * w.blk[r[2]]
        return 0
    if op == OP_HEAL:
        return r[1] * w.heal
    if op == OP_DRAW:
        return r[1] * w.draw
    if op == OP_GAIN_MANA:
        return w.mana
    if op == OP_GAIN_CRYSTAL:
        return w.crystal
    if op == OP_FAME:
        return r[1] * w.fame
    if op == OP_HANDLER:
        v = w.other
        for k in range(nc):
            v += 0.8 * row_value(es, first + k, w, time, depth + 1)
        return v
    return 0


cdef inline int card_row(const EngineStatics* es, int card, int powered) noexcept nogil:
    if card < 0:
        return 0
    return es.card_powered[card * es.card_stride] if powered else es.card_basic[card * es.card_stride]


cdef double pay_cost(int pay) noexcept nogil:
    """What spending one payment code costs (A_PLAY pay codes, ext/_engine.pxd PAY_*): a
    mana token is nearly free, a Source die is the turn's one die (5.5.2), a crystal is a
    lasting resource (5.1.3)."""
    if pay == PAY_NONE or pay < 0:
        return 0
    if pay < PAY_CRYSTAL:
        return 0.1
    if pay < PAY_DIE:
        return 1.2
    return 0.35


cdef bint colour_payable(const GameState* gs, int colour) noexcept nogil:
    """Could a mana of basic ``colour`` be paid now (token, crystal or a Source die; gold
    counts by Day, 5.1.1)?  Used only for estimates; the legal list decides plays."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, d
    if colour < 0 or colour > 3:
        return False
    if gs.turn.mana_tokens[colour] > 0 or pl.crystals[colour] > 0:
        return True
    if gs.time == DAY and gs.turn.mana_tokens[4] > 0:
        return True
    if mod_has(&gs.turn, MK_NO_SOURCE_DICE) or gs.turn.dice_used >= source_dice_allowed(gs):
        return False
    for i in range(gs.n_dice):
        if (gs.dice_taken >> i) & 1:
            continue
        d = gs.dice[i]
        if d == colour or (d == GOLD and gs.time == DAY):
            return True
    return False


cdef double card_best(const GameState* gs, const EngineStatics* es, int card, const Weights* w,
                      int sideways_ok, int powered_ok=1) noexcept nogil:
    """The best a card in hand is worth under ``w``: basic, powered when ``powered_ok`` and
    its colour could be paid (minus a die's worth), or sideways as 1 point (6.1.7)."""
    cdef double v, s
    if card < 0 or card == es.wound:
        return 0
    v = row_value(es, card_row(es, card, 0), w, gs.time, 0)
    if powered_ok and es.card_colour[card * es.card_stride] < 4 and colour_payable(gs, es.card_colour[card * es.card_stride]):
        v = dmax(v, row_value(es, card_row(es, card, 1), w, gs.time, 0) - 0.35)
    if sideways_ok:
        s = dmax(dmax(w.move, w.influence), dmax(w.att[0][0], w.blk[0]))
        v = dmax(v, s)
    return v


cdef int unit_ability_row(const EngineStatics* es, int unit, int ability) noexcept nogil:
    cdef int first = es.units.table[unit * es.units.stride + es.units.first_ability]
    cdef int na = es.units.table[unit * es.units.stride + es.units.n_abilities]
    if ability < 0 or ability >= na:
        return 0
    return es.units.ability[(first + ability) * es.units.ability_stride]


cdef double unit_best(const GameState* gs, const EngineStatics* es, int slot, const Weights* w) noexcept nogil:
    """The best ability of a ready, unwounded Unit under ``w`` (7.3) whose mana, if it needs
    one (7.3.3), could be paid now (colour_payable: Catapults' Fire Siege 5 needs a red)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int u = pl.units[slot].card, k, na, first, mana
    cdef double best = 0, v
    if u < 0 or not pl.units[slot].ready or pl.units[slot].wounds > 0:
        return 0
    na = es.units.table[u * es.units.stride + es.units.n_abilities]
    first = es.units.table[u * es.units.stride + es.units.first_ability]
    for k in range(na):
        mana = es.units.ability[(first + k) * es.units.ability_stride + 1]
        if 0 <= mana <= 3 and not colour_payable(gs, mana):          # black (night): not checked
            continue
        v = row_value(es, unit_ability_row(es, u, k), w, gs.time, 0)
        if v > best:
            best = v
    return best


# Skill usage codes (mksim.content.SKILL_USAGE order; ext/_engine_skills.pxi SkillUsage).
cdef enum:
    SKU_ONCE_PER_TURN = 0
    SKU_ONCE_PER_ROUND = 1
    SKU_INTERACTIVE = 2
    SKU_PASSIVE = 3


cdef inline int skill_effect_row(const EngineStatics* es, int skill) noexcept nogil:
    """The effect row of skill ``skill`` (skills table: hero usage effect ...), 0 if none."""
    if skill < 0 or skill >= es.n_skills:
        return 0
    return es.skill_row[skill * es.skill_stride + 2]


cdef inline int skill_usage(const EngineStatics* es, int skill) noexcept nogil:
    if skill < 0 or skill >= es.n_skills:
        return SKU_PASSIVE
    return es.skill_row[skill * es.skill_stride + 1]


cdef bint skill_ready(const GameState* gs, const EngineStatics* es, int slot) noexcept nogil:
    """Could the skill in ``slot`` still be used this turn (8.2: face up, and a once-a-turn
    skill not used yet this turn)?  An estimate for plans; the legal list decides uses.
    Passive skills are no action and the interactive one is not planned with."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int skill, usage
    if slot < 0 or slot >= MAX_SKILLS:
        return False
    skill = pl.skills[slot]
    usage = skill_usage(es, skill)
    if skill < 0 or usage == SKU_PASSIVE or usage == SKU_INTERACTIVE:
        return False
    if (pl.skills_used >> slot) & 1:
        return False                                         # face down (8.2.1)
    if usage == SKU_ONCE_PER_TURN and (pl.skills_used >> (SKILL_TURN_SHIFT + slot)) & 1:
        return False                                         # 8.2.3
    return True


cdef double skill_best(const GameState* gs, const EngineStatics* es, int slot, const Weights* w) noexcept nogil:
    """What the ready skill in ``slot`` is worth under ``w`` (0 when it is not ready)."""
    if not skill_ready(gs, es, slot):
        return 0
    return row_value(es, skill_effect_row(es, gs.players[gs.current].skills[slot]), w, gs.time, 0)


cdef double skill_hold_cost(const EngineStatics* es, int skill) noexcept nogil:
    """What using a skill now gives up: a once-a-turn skill is back next turn (8.2.3), a
    once-a-round one only after the round (8.2.1), so it is kept for a need worth more."""
    return 0.02 if skill_usage(es, skill) == SKU_ONCE_PER_TURN else 0.6


#: Level-up skill choice (13.6.4): once-a-turn uses a once-a-round use is worth (8.2.1,
#: 8.2.3; about three turns a round, not every one of which needs the effect).
SKILL_TURN_USES = 2.5
cdef double skill_turn_uses = SKILL_TURN_USES


cdef double skill_pick_value(const EngineStatics* es, const HParams* p, int skill) noexcept nogil:
    """What gaining ``skill`` at a level-up (13.6.4) is worth to this policy for the rest of
    the game: one use's worth (its effect row under fixed worths of Move, Influence, Attack
    (x ``skill_attack``), Block, healing, cards, mana and crystals, scaled by the policy's
    weights; Day and Night averaged for by_time effects, 2.1) times its uses -- a
    once-a-turn skill (8.2.3)
    ``SKILL_TURN_USES`` times a once-a-round one (8.2.1).  What the policy does not use
    is worth nothing: an interactive skill (8.2.2; no other player in solo, and the planner
    never uses one, skill_ready) and a handler's own effect (only its effect-valued
    arguments count, at 0.8, as in row_value).  The passive Bonds of Loyalty (an extra
    Unit's Command token) counts as a level-2 Unit recruited."""
    cdef Weights w
    cdef int usage = skill_usage(es, skill), row, e
    cdef double v, mult
    if skill < 0 or skill >= es.n_skills or usage == SKU_INTERACTIVE:
        return 0
    if usage == SKU_PASSIVE:
        return 2 * p.recruit_weight
    row = skill_effect_row(es, skill)
    w_zero(&w)
    w.move = 0.5 + 0.5 * p.explore_weight
    w.influence = 0.5 * p.recruit_weight
    w.heal = p.heal_weight
    w.draw = 1.0
    w.mana = 0.3
    w.crystal = 0.8
    w.fame = p.aggression
    for e in range(4):                                       # kinds: melee, ranged, siege
        # skill_attack (default 0): an Attack skill makes the planner take more fights, whose
        # Wounds cost more than their Fame at the end (-2 each, 20.2; docs/policies.md)
        w.att[0][e] = p.skill_attack * p.aggression * (1.0 if e == 0 else 1.1)   # physical first
        w.att[1][e] = 1.3 * w.att[0][e]
        w.att[2][e] = 1.4 * w.att[0][e]
        w.blk[e] = 0.8 * p.aggression * (1.0 if e == 0 else 1.1)
    v = 0.5 * (row_value(es, row, &w, DAY, 0) + row_value(es, row, &w, NIGHT, 0))
    mult = skill_turn_uses if usage == SKU_ONCE_PER_TURN else 1.0
    return v * mult


cdef int mana_budget(const GameState* gs) noexcept nogil:
    """How many cards could be powered now: mana tokens and crystals, plus one Source die
    while the turn's die is unused (5.5.2)."""
    return mana_budget_of(gs, 0)


cdef int mana_budget_of(const GameState* gs, bint basic_die) noexcept nogil:
    """mana_budget; with ``basic_die`` the Source die counts only if a free die gives a basic
    colour (gold by Day, 5.1.1; black by Day cannot pay a card's colour): mana_limit."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int b = 0, c
    for c in range(6):
        b += gs.turn.mana_tokens[c]
    for c in range(4):
        b += pl.crystals[c]
    if mod_has(&gs.turn, MK_NO_SOURCE_DICE) or gs.turn.dice_used >= source_dice_allowed(gs):
        return b
    for c in range(gs.n_dice):
        if not (gs.dice_taken >> c) & 1 and \
                (not basic_die or gs.dice[c] < 4 or (gs.dice[c] == GOLD and gs.time == DAY)):
            return b + 1
    return b


cdef double hand_potential(const GameState* gs, const EngineStatics* es, const Weights* w,
                           int with_units, const int* excluded) noexcept nogil:
    """Sum over the hand (and ready Units) of their worth under ``w``: basic or sideways,
    plus the largest powered gains for as many cards as there is mana (mana_budget);
    ``excluded`` (or NULL) marks hand indices already promised to something else."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, j, budget = mana_budget(gs), nu = 0
    cdef double total = 0, b, up, t
    cdef double ups[16]
    for i in range(pl.n_hand):
        if excluded != NULL and excluded[i]:
            continue
        b = card_best(gs, es, pl.hand[i], w, 1, 0)
        total += b
        if budget > 0 and nu < 16:
            up = card_best(gs, es, pl.hand[i], w, 1, 1) - b
            if up > 0:
                j = nu                                       # keep ups sorted, largest first
                ups[nu] = up
                nu += 1
                while j > 0 and ups[j - 1] < ups[j]:
                    t = ups[j - 1]; ups[j - 1] = ups[j]; ups[j] = t
                    j -= 1
    for i in range(nu if nu < budget else budget):
        total += ups[i]
    if with_units and gs.combat.units_allowed or (with_units and not gs.combat.active):
        for i in range(MAX_UNITS):
            total += unit_best(gs, es, i, w)
    for i in range(MAX_SKILLS):                              # 8.2: ready skills
        total += skill_best(gs, es, i, w)
    return total


cdef double action_value(const GameState* gs, const EngineStatics* es, int a, const Weights* w) noexcept nogil:
    """What playing action ``a`` (a card, sideways or a Unit ability) is worth under ``w``,
    less the mana it spends; other kinds are worth 0."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int k = kind_of(a), arg = arg_of(a), idx, card, what, slot, u
    cdef double v
    if k == A_PLAY:
        idx = arg & 0x7F
        if idx >= pl.n_hand:
            return 0
        card = pl.hand[idx]
        v = row_value(es, card_row(es, card, (arg >> 7) & 1), w, gs.time, 0)
        return v - pay_cost((arg >> 8) & 0x1F) - pay_cost((arg >> 13) & 0x1F)
    if k == A_SIDEWAYS:
        what = (arg >> 7) & 3
        if what == 0:
            return w.move
        if what == 1:
            return w.influence
        if what == 2:
            return w.att[0][0]
        return w.blk[0]
    if k == A_ACTIVATE_UNIT:
        slot = arg & 7
        u = pl.units[slot].card
        if u < 0:
            return 0
        v = row_value(es, unit_ability_row(es, u, (arg >> 3) & 0xF), w, gs.time, 0)
        return v - pay_cost(arg >> 7) + 0.05                  # a Unit readies each round (7.2.2)
    if k == A_USE_SKILL:                                     # 8.2: its effect, like a card's
        if arg >= MAX_SKILLS or pl.skills[arg] < 0:
            return 0
        return row_value(es, skill_effect_row(es, pl.skills[arg]), w, gs.time, 0) - skill_hold_cost(es, pl.skills[arg])
    return 0


cdef double card_keep_value(const GameState* gs, const EngineStatics* es, int card) noexcept nogil:
    """How much a card is worth keeping for a fight (its best Attack or Block)."""
    cdef Weights w
    w_zero(&w)
    cdef int k, e
    for k in range(3):
        for e in range(4):
            w.att[k][e] = 1
    for e in range(4):
        w.blk[e] = 0.8
    return card_best(gs, es, card, &w, 1)


cdef Weights self_move_w          # Move only (AA picks: a little worth for Move cards)
w_zero(&self_move_w)
self_move_w.move = 1


# Worth of a Unit's ability / a card bought (pick_interact, buy_value > 0): a point of Attack
# 1 (Ranged 1.4 and Siege 1.5 reach the Ranged phase, 11.5; an element beats resistances,
# 11.9: +0.2), of Block 0.8 (Fire / Ice / Cold Fire Block 1.0, 11.6.3), Healing 1, Move and
# Influence 0.5, a mana token 0.5 and a crystal 0.7 (5.1); a named effect the valuation does
# not model (Illusionists, Freezers, swift-stripping Block) 1.5.
cdef Weights buy_w
w_zero(&buy_w)
buy_w.move = 0.5; buy_w.influence = 0.5; buy_w.heal = 1.0; buy_w.mana = 0.5; buy_w.crystal = 0.7
buy_w.draw = 0.6; buy_w.other = 1.5
for _e in range(4):
    buy_w.att[0][_e] = 1.0 if _e == 0 else 1.2
    buy_w.att[1][_e] = 1.4 if _e == 0 else 1.6
    buy_w.att[2][_e] = 1.5 if _e == 0 else 1.7
    buy_w.blk[_e] = 0.8 if _e == 0 else 1.0

cdef enum:
    MAX_BUY_OPTS = 24          # plan_buys(): Units of the offer, the monastery's AAs, Spells, city AAs

#: A Unit's strength (best ability + 0.3 x the second, 0.25 per Armor point, 0.5 per
#: resistance, 7.1) per Unit level: the base game's 20 Unit types have 48 levels and about
#: 2.5 times that in strength, so that the Units are worth as much on average as by level.
UNIT_POWER_PER_LEVEL = 2.5
#: A card's strength (best of basic / 0.7 x powered under buy_w, + 0.5 of its Move) of a
#: middling base-game Advanced Action (Agility, Steady Tempo, Ambush: 3.5).
CARD_POWER_REF = 3.5
cdef double c_unit_power_per_level = UNIT_POWER_PER_LEVEL
cdef double c_card_power_ref = CARD_POWER_REF


# ---------------------------------------------------------------------------------------
# Combat planner
# ---------------------------------------------------------------------------------------

cdef void foe_from_enemy(const Statics* st, int e, Foe* f) noexcept nogil:
    cdef const int32_t* d = st.enemies.data
    cdef int wd = st.enemies.width, k
    f.armor = tv(d, wd, e, st.cols.enemy_armor)
    f.fame = tv(d, wd, e, st.cols.enemy_fame)
    f.n_att = tv(d, wd, e, st.cols.enemy_n_attacks)
    if f.n_att > 3:
        f.n_att = 3
    for k in range(3):
        f.att[k] = tv(d, wd, e, st.cols.enemy_attack0 + k) if k < f.n_att else 0
        f.el[k] = tv(d, wd, e, st.cols.enemy_element0 + k) if k < f.n_att else 0
    f.abil = tv(d, wd, e, st.cols.enemy_abilities)
    f.res = tv(d, wd, e, st.cols.enemy_resistances)
    f.fortified = 1 if f.abil & AB_FORTIFIED else 0
    if f.abil & AB_SUMMON and f.n_att == 0:          # the summoned monster attacks (11.11): a brown average
        f.n_att = 1
        f.att[0] = 5
        f.el[0] = PHYSICAL


cdef inline bint block_efficient(int blk_el, int att_el) noexcept nogil:
    """11.9.3: Fire attacks are blocked efficiently by Ice / Cold Fire, Ice attacks by Fire /
    Cold Fire, Cold Fire only by Cold Fire; physical by anything."""
    if att_el == PHYSICAL:
        return True
    if att_el == FIRE:
        return blk_el == ICE or blk_el == COLDFIRE
    if att_el == ICE:
        return blk_el == FIRE or blk_el == COLDFIRE
    return blk_el == COLDFIRE


cdef void w_attack(Weights* w, int res, int ranged_only, int siege_only) noexcept nogil:
    """Attack weights against an enemy with resistances ``res`` (11.9.2: a resisted element
    counts half); ``ranged_only``: only Ranged / Siege count (11.5.2), ``siege_only``: only
    Siege (fortified target, 11.5.3)."""
    cdef int k, e
    cdef double m
    w_zero(w)
    for k in range(3):
        if ranged_only and k == MELEE:
            continue
        if siege_only and k != SIEGE:
            continue
        for e in range(4):
            m = 1.0
            if e == PHYSICAL and res & RES_PHYSICAL:
                m = 0.5
            elif e == FIRE and res & RES_FIRE:
                m = 0.5
            elif e == ICE and res & RES_ICE:
                m = 0.5
            elif e == COLDFIRE and (res & RES_FIRE) and (res & RES_ICE):
                m = 0.5
            w.att[k][e] = m


cdef void w_block(Weights* w, int att_el) noexcept nogil:
    cdef int e
    w_zero(w)
    for e in range(4):
        w.blk[e] = 1.0 if block_efficient(e, att_el) else 0.5


cdef int wounds_from(int dmg, int abil, int armor) noexcept nogil:
    """12.1: Wounds the hero takes from ``dmg`` unblocked damage (Brutal doubles it, 11.7.10;
    Poison doubles the Wounds, 11.7.9; Paralyze one more, its cost to the hand is in
    fight_plan)."""
    cdef int w
    if dmg <= 0:
        return 0
    if abil & AB_BRUTAL:
        dmg *= 2
    if armor < 1:
        armor = 1
    w = (dmg + armor - 1) // armor
    if abil & AB_POISON:
        w *= 2
    if abil & AB_PARALYZE:
        w += 1
    return w


cdef int take_points(double* vals, int n, int* used, double need) noexcept nogil:
    """Greedily mark resources (largest first) until their sum reaches ``need``; return 1
    and keep the marks if it does, else undo them and return 0."""
    cdef int marks[H_MAX_RES]
    cdef int m = 0, i, best
    cdef double total = 0
    if need <= 0:
        return 1
    while total < need:
        best = -1
        for i in range(n):
            if not used[i] and vals[i] > 0 and (best < 0 or vals[i] > vals[best]):
                best = i
        if best < 0:
            for i in range(m):
                used[marks[i]] = 0
            return 0
        used[best] = 1
        marks[m] = best
        m += 1
        total += vals[best]
    return 1


cdef int soak_damage(int* dmg, int* abil, int n, const int* uarm, int n_units, int harmor,
                     int* unit_wounds, int* paralyzed, int* hand_wounds) noexcept nogil:
    """Assign unblocked attacks (11.7): the largest first, each to the unwounded Unit with the
    most Armor while one is left (11.7.4: the Unit is wounded, the damage drops by its Armor),
    the rest to the hero (11.7.7).  Brutal doubles the damage (11.7.2); a Paralyze attack is
    not put on a Unit (it would be destroyed, 11.7.10) but on the hero.  Returns the hero's
    Wounds (Poison doubled, 11.7.9); ``hand_wounds`` those put into the hand (Poison's extra
    ones go to the discard pile and do not count towards knock-out, 11.7.9), ``unit_wounds``
    the Units wounded.  (Unit resistances, 11.7.5, are not counted.)"""
    cdef int i, j, b, d, w = 0, u = 0, t, hw = 0
    for i in range(n):                                       # largest first (insertion sort)
        j = i
        while j > 0 and dmg[j - 1] < dmg[j]:
            t = dmg[j - 1]; dmg[j - 1] = dmg[j]; dmg[j] = t
            t = abil[j - 1]; abil[j - 1] = abil[j]; abil[j] = t
            j -= 1
    for i in range(n):
        d = dmg[i] * (2 if abil[i] & AB_BRUTAL else 1)
        if u < n_units and not (abil[i] & AB_PARALYZE):
            d -= uarm[u]
            u += 1
        if d > 0:
            if harmor < 1:
                harmor = 1
            b = (d + harmor - 1) // harmor
            hw += b
            if abil[i] & AB_POISON:
                b *= 2
            w += b
            if abil[i] & AB_PARALYZE:
                paralyzed[0] = 1
    unit_wounds[0] = u
    hand_wounds[0] = hw
    return w


cdef double fight_plan(HeuristicPolicy self, const GameState* gs, const EngineStatics* es, const Statics* st,
                       const Foe* foes, int nf, const int* excluded, int units_ok,
                       int* out_kills, int* out_wounds) noexcept nogil:
    """Worth of fighting ``foes`` with the hand (minus ``excluded``) and ready Units (when
    ``units_ok``): ranged / siege attacks first (11.5), then block the attacks that can be
    blocked (11.6) or take their Wounds (11.7, 12), then melee attacks (11.8), each step
    greedy.  Both orders of "block first" and "keep cards for the attack" are tried; the
    better is returned as aggression * Fame won - wound_weight * Wounds taken (in Solo
    Conquest times ``conquest_aggression`` and ``conquest_wound``)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef double vals[H_MAX_RES]
    cdef int src[H_MAX_RES]            # >= 0 hand index, < 0: -(unit slot + 1)
    cdef int used[H_MAX_RES]
    cdef int used0[H_MAX_RES]
    cdef int alive[H_MAX_FOES]
    cdef int nr = 0, i, f, k, k2, order, kills, wounds, paralyzed, melee_k = 0, best_kills = 0, best_wounds = 0, armor, need
    cdef int harmor = hero_armor(gs, st, gs.current)
    cdef double score, best = -1e9, melee
    cdef double* rv
    cdef Weights w
    cdef int fame_total
    cdef bint conquest = conquest_mode(es)
    cdef int unb_dmg[3 * H_MAX_FOES]
    cdef int unb_abil[3 * H_MAX_FOES]
    cdef int uarm[MAX_UNITS]
    cdef int n_unb = 0, n_units = 0, unit_wounds = 0, hand_wounds = 0
    # Solo Conquest prices Fame and Wounds apart (a Wound card kept costs 2 points, 20.2 via
    # 20.5.1, and idles later hands); elsewhere both factors are 1
    cdef double cagg = self.p.conquest_aggression if conquest else 1.0
    cdef double ww = self.p.wound_weight * (self.p.conquest_wound if conquest else 1.0)
    if nf > H_MAX_FOES:
        nf = H_MAX_FOES
    if conquest:
        # 11.7.3: damage may go to any unwounded Unit, ready or spent (so a Unit that attacked
        # or blocked still takes a blow); their Armor, largest first
        for i in range(MAX_UNITS):
            if pl.units[i].card >= 0 and pl.units[i].wounds == 0:
                uarm[n_units] = tv(st.units.data, st.units.width, pl.units[i].card, st.cols.unit_armor)
                k = n_units
                n_units += 1
                while k > 0 and uarm[k - 1] < uarm[k]:
                    uarm[k - 1], uarm[k] = uarm[k], uarm[k - 1]
                    k -= 1
    for i in range(pl.n_hand):
        if nr >= H_MAX_RES - MAX_UNITS - MAX_SKILLS:
            break
        if (excluded != NULL and excluded[i]) or pl.hand[i] == es.wound:
            continue
        src[nr] = i
        nr += 1
    if units_ok:
        for i in range(MAX_UNITS):
            if pl.units[i].card >= 0 and pl.units[i].ready and pl.units[i].wounds == 0:
                src[nr] = -(H_RES_UNIT + i + 1)
                nr += 1
    for i in range(MAX_SKILLS):                              # 8.2: skills (with or without Units)
        if skill_ready(gs, es, i):
            src[nr] = -(H_RES_SKILL + i + 1)
            nr += 1
    # ranged / siege phase
    for i in range(nr):
        used0[i] = 0
    for f in range(nf):
        alive[f] = 1
    kills = 0
    fame_total = 0
    for f in range(nf):                                      # foes are given best first
        rv = self.att_values(gs, es, foes[f].res & 7, 2 if foes[f].fortified else 1)
        for i in range(nr):
            vals[i] = rv[src[i]] if src[i] >= 0 else rv[H_MAX_RES - src[i] - 1]
        if take_points(vals, nr, used0, foes[f].armor):
            alive[f] = 0
            kills += 1
            fame_total += foes[f].fame
    for order in range(2):
        for i in range(nr):
            used[i] = used0[i]
        k = kills
        score = self.p.aggression * cagg * fame_total
        wounds = 0
        paralyzed = 0
        melee = 0
        n_unb = 0
        if order == 1:                                       # keep the attack cards first
            melee = melee_phase(self, gs, es, foes, nf, alive, src, nr, used, vals, &k, 0)
            melee_k = k - kills
        for f in range(nf):
            if not alive[f]:
                continue
            for i in range(foes[f].n_att):
                need = foes[f].att[i] * (2 if foes[f].abil & AB_SWIFT else 1)    # 11.6.5 Swift
                rv = self.blk_values(gs, es, foes[f].el[i] & 3)
                for k2 in range(nr):
                    vals[k2] = rv[src[k2]] if src[k2] >= 0 else rv[H_MAX_RES - src[k2] - 1]
                if not take_points(vals, nr, used, need):
                    if conquest and n_unb < 3 * H_MAX_FOES:
                        unb_dmg[n_unb] = foes[f].att[i]      # assigned below (11.7.3)
                        unb_abil[n_unb] = foes[f].abil
                        n_unb += 1
                        continue
                    wounds += wounds_from(foes[f].att[i], foes[f].abil, harmor)
                    if foes[f].abil & AB_PARALYZE:
                        paralyzed = 1
        unit_wounds = 0
        if conquest:
            wounds += soak_damage(unb_dmg, unb_abil, n_unb, uarm, n_units, harmor, &unit_wounds, &paralyzed,
                                  &hand_wounds)
            if hand_wounds >= hand_limit(gs, st, gs.current):
                paralyzed = 1                                # 11.7.8 knock-out: the hand is discarded
        if paralyzed:
            # 11.7.9 Paralyze: a Wound from it discards every non-Wound card in hand, so no
            # card is left for the Attack phase
            if order == 1:
                melee = 0
                k -= melee_k
            for i in range(nr):
                if src[i] >= 0:
                    used[i] = 1
        if order == 0:
            melee = melee_phase(self, gs, es, foes, nf, alive, src, nr, used, vals, &k, 0)
        score += cagg * melee - ww * (wounds + 1.5 * unit_wounds)
        if score > best:
            best = score
            best_kills = k
            best_wounds = wounds
    if out_kills != NULL:
        out_kills[0] = best_kills
    if out_wounds != NULL:
        out_wounds[0] = best_wounds
    return best


cdef double melee_phase(HeuristicPolicy self, const GameState* gs, const EngineStatics* es,
                        const Foe* foes, int nf, const int* alive, const int* src, int nr,
                        int* used, double* vals, int* kills, int dummy) noexcept nogil:
    """The Attack phase of fight_plan: defeat the remaining foes best first (11.8)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int f, i
    cdef double fame = 0
    cdef double* rv
    for f in range(nf):
        if not alive[f]:
            continue
        rv = self.att_values(gs, es, foes[f].res & 7, 0)
        for i in range(nr):
            vals[i] = rv[src[i]] if src[i] >= 0 else rv[H_MAX_RES - src[i] - 1]
        if take_points(vals, nr, used, foes[f].armor):
            kills[0] += 1
            fame += foes[f].fame
    return self.p.aggression * fame


cdef void sort_foes(Foe* foes, int n) noexcept nogil:
    """Best Fame per Armor first (insertion sort; n is small)."""
    cdef int i, j
    cdef Foe t
    for i in range(1, n):
        t = foes[i]
        j = i - 1
        while j >= 0 and foes[j].fame * (t.armor + 1) < t.fame * (foes[j].armor + 1):
            foes[j + 1] = foes[j]
            j -= 1
        foes[j + 1] = t


cdef int token_colour(const GameState* gs, const Statics* st, int tok) noexcept nogil:
    """The colour of a token's back (public even when it lies face down, 1.2.2)."""
    if tok < 0:
        return -1
    return tv(st.enemies.data, st.enemies.width, gs.token_enemy[tok], st.cols.enemy_colour)


cdef int hex_foes(HeuristicPolicy self, const GameState* gs, const Statics* st, int h, int fortified,
                  Foe* out, int n) noexcept nogil:
    """The enemies lying on hex ``h`` as the player sees them: face-up tokens by their
    identity; face-down ones (HEX_TOKENS_REVEALED unset) as the average token of their
    colour, never the token itself."""
    cdef const Hex* hx = &gs.hexes[h]
    cdef int k, tok, e, col
    for k in range(hx.n_tokens):
        if n >= H_MAX_FOES:
            break
        tok = hx.tokens[k]
        if tok < 0:
            continue
        e = gs.token_enemy[tok]
        if (hx.flags & HEX_TOKENS_REVEALED) or is_rampaging(gs, st, h):
            foe_from_enemy(st, e, &out[n])
        else:
            col = tv(st.enemies.data, st.enemies.width, e, st.cols.enemy_colour)   # the token's back (public)
            out[n] = self.pile_avg[col if 0 <= col < 6 else 0]
        if fortified:
            out[n].fortified = 1
        n += 1
    return n


# ---------------------------------------------------------------------------------------
# Conquest planning (Solo Conquest, 17.3.4: cities of 11.13 assaulted, 11.12.2 Shields)
# ---------------------------------------------------------------------------------------

cdef bint hero_blocks(const GameState* gs, const EngineStatics* es, int h, int me) noexcept nogil:
    """Another hero's figure stands on space ``h`` and the space is not one several figures
    share (portal, conquered city; 9.5.5): there the acting player can take no action
    (9.5.4, no PvP in First Reconnaissance, 19.7.3) and may not end its turn (9.7.1,
    Forced Withdrawal 13.2).  Never true in a solo game (the dummy has no figure, 18)."""
    cdef int q, site
    if h < 0 or h >= gs.n_hexes:
        return False
    site = gs.hexes[h].site
    if site == es.portal_site or (site == es.city_site and (gs.hexes[h].flags & HEX_CONQUERED)):
        return False
    for q in range(gs.n_players):
        if q != me and gs.players[q].position == h:
            return True
    return False


cdef int step_off_cost(const GameState* gs, const Statics* st, const EngineStatics* es, int h,
                       int me) noexcept nogil:
    """Cheapest Move cost of one step from ``h`` to an adjacent safe space (9.7.1) that
    provokes nobody (9.4.3): what a hero on another hero's space must still pay to end its
    turn safely.  INF when there is none."""
    cdef int k, nb, c, best = INF
    for k in range(6):
        nb = gs.hexes[h].neighbour[k]
        if nb < 0 or (es.city_closed and gs.hexes[nb].site == es.city_site):
            continue
        c = move_cost(gs, st, nb)
        if c < 0 or c >= best or not is_safe(gs, st, nb, me) or provokes(gs, st, h, nb):
            continue
        best = c
    return best


cdef inline bint conquest_mode(const EngineStatics* es) noexcept nogil:
    """Cities may be entered and revealing one does not end the game: the scenario is won by
    conquering them (Solo Conquest, 17.3.4).  Every conquest-only rule of the policy is behind
    this test, so First Reconnaissance (17.3.1: the city is closed) plays as before."""
    return not es.city_closed and not es.end_city_revealed


cdef inline int city_colour(const Hex* hx) noexcept nogil:
    """The city's basic colour (RED BLUE WHITE GREEN) from its colour bitmask, -1 if none."""
    cdef int c
    for c in range(4):
        if (hx.colours >> c) & 1:
            return c
    return -1


cdef int city_foes(HeuristicPolicy self, const GameState* gs, const Statics* st, int h, Foe* out) noexcept nogil:
    """The garrison of the city on hex ``h`` as the player sees it (hex_foes: face-up tokens by
    identity, face-down ones -- 9.9.3 puts them face down until Day adjacency reveals them,
    11.13.5 -- as the average token of their back's colour), fortified (11.10.1) and with the
    city's defender bonus (11.13.1): white +1 Armor, blue +2 on Fire / Ice attacks and +1 on
    Cold Fire, red Brutal and green Poison on physical attacks.  The planner's Foe carries one
    ability set, so a physical attack's Brutal / Poison is given to the whole enemy; a
    summoner's bonus is not counted (its monster never lay on the city, 11.6.2)."""
    cdef int nf = hex_foes(self, gs, st, h, 1, out, 0)
    cdef int col = city_colour(&gs.hexes[h]), f, k
    if col < 0:
        return nf
    for f in range(nf):
        if out[f].abil & AB_SUMMON:
            continue
        out[f].armor += st.city_armor[col]
        for k in range(out[f].n_att):
            if out[f].el[k] == PHYSICAL:
                out[f].abil |= st.city_physical_ab[col]
            elif out[f].el[k] == FIRE or out[f].el[k] == ICE:
                out[f].att[k] += st.city_elemental[col]
            elif out[f].el[k] == COLDFIRE:
                out[f].att[k] += st.city_coldfire[col]
    return nf


cdef int cities_open(const GameState* gs, const EngineStatics* es, int* revealed) noexcept nogil:
    """Unconquered cities on the map; ``revealed`` receives how many cities are on it."""
    cdef int h, n = 0, r = 0
    for h in range(gs.n_hexes):
        if gs.hexes[h].site == es.city_site and gs.hexes[h].city_level > 0:
            r += 1
            if not (gs.hexes[h].flags & HEX_CONQUERED) and gs.hexes[h].n_tokens > 0:
                n += 1
    revealed[0] = r
    return n


# ---------------------------------------------------------------------------------------
# Movement planner
# ---------------------------------------------------------------------------------------

cdef int dijkstra(const GameState* gs, const Statics* st, int src, int* dist, int* prev, int city_closed,
                  int city_site, int limit) noexcept nogil:
    """Cheapest Move cost from ``src`` to every revealed space under the current terrain
    costs (_rules.move_cost: 9.2 Day / Night costs and the turn's modifiers, 9.6), up to
    ``limit``.  Steps that would provoke rampaging enemies (9.4.3, 11.1.2) are skipped; a
    space where movement ends (a fortified site, 9.5) gets a cost but is not passed
    through.  Of paths of equal cost the one of fewest steps is kept (the heap is keyed on
    cost * HOP_SCALE + steps), so that each step along a path shortens what is left of it
    even where steps cost 0 (Song of Wind, 9.6): a path of free steps with ties broken
    otherwise can lead from A back through B and from B back through A.  Returns the number
    of spaces reached."""
    cdef int heap_d[MAX_HEAP]
    cdef int heap_h[MAX_HEAP]
    cdef int cost[MAX_HEXES]
    cdef unsigned char near[MAX_HEXES]
    cdef unsigned char ramp[MAX_HEXES]
    cdef int hops[MAX_HEXES]
    cdef int nh = 0, i, d, h, k, to, c, nd, j, p, reached = 0, td, th, nb, key
    cdef int tcost[NUM_TERRAINS]
    terrain_costs(gs, tcost)                         # the turn's terrain modifiers, read once
    for i in range(gs.n_hexes):
        dist[i] = INF
        hops[i] = 0
        prev[i] = -1
        cost[i] = -2
        near[i] = 0
        ramp[i] = 0
    if src < 0:
        return 0
    for i in range(gs.n_hexes):                      # spaces next to rampaging enemies (9.4.3)
        if gs.hexes[i].n_tokens > 0 and is_rampaging(gs, st, i):
            ramp[i] = 1
            for k in range(6):
                nb = gs.hexes[i].neighbour[k]
                if nb >= 0:
                    near[nb] = 1
    dist[src] = 0
    heap_d[0] = 0
    heap_h[0] = src
    nh = 1
    while nh > 0:
        key = heap_d[0]
        h = heap_h[0]
        nh -= 1
        heap_d[0] = heap_d[nh]
        heap_h[0] = heap_h[nh]
        i = 0
        while True:                                  # sift down
            j = 2 * i + 1
            if j >= nh:
                break
            if j + 1 < nh and heap_d[j + 1] < heap_d[j]:
                j += 1
            if heap_d[j] >= heap_d[i]:
                break
            td = heap_d[i]; heap_d[i] = heap_d[j]; heap_d[j] = td
            th = heap_h[i]; heap_h[i] = heap_h[j]; heap_h[j] = th
            i = j
        if key > dist[h] * HOP_SCALE + hops[h]:
            continue                                 # a stale heap entry
        d = dist[h]
        reached += 1
        if h != src and ends_movement(gs, st, h, gs.current):
            continue
        for k in range(6):
            to = gs.hexes[h].neighbour[k]
            if to < 0:
                continue
            c = cost[to]
            if c == -2:
                c = move_cost_in(gs, st, to, tcost)
                cost[to] = c
            if c < 0 or d + c > limit or d + c > dist[to] or (d + c == dist[to] and hops[h] + 1 >= hops[to]):
                continue
            if ramp[to]:                                     # 9.4.2 (can_enter without its re-checks)
                continue
            if city_closed and gs.hexes[to].site == city_site:
                continue                                     # 17.3.1
            if near[h] and near[to] and provokes(gs, st, h, to):
                continue
            nd = d + c
            if nh < MAX_HEAP:
                dist[to] = nd
                hops[to] = hops[h] + 1
                prev[to] = h
                i = nh                                       # sift up
                nh += 1
                heap_d[i] = nd * HOP_SCALE + hops[to]
                heap_h[i] = to
                while i > 0:
                    p = (i - 1) // 2
                    if heap_d[p] <= heap_d[i]:
                        break
                    td = heap_d[i]; heap_d[i] = heap_d[p]; heap_d[p] = td
                    th = heap_h[i]; heap_h[i] = heap_h[p]; heap_h[p] = th
                    i = p
    return reached


cdef long long terrain_key(const GameState* gs) noexcept nogil:
    """A checksum of the turn's terrain-cost modifiers (9.6): a new one invalidates paths.
    Taken of the per-terrain values the modifiers add up to (the sum of the changes, the
    highest floor, the lowest set cost + 1, a bit per terrain opened / safe / closed), as
    the TurnState fields they replaced held them: the same key as before the move."""
    cdef long long k = 0
    cdef int t, i, kd, a, v
    cdef int delta[8]
    cdef int floor[8]
    cdef int set1[8]
    cdef int opened = 0, safe = 0, closed = 0, pdelta = 0, pfloor = 0
    for t in range(8):
        delta[t] = 0
        floor[t] = 0
        set1[t] = 0
    for i in range(gs.turn.n_mods):
        kd = gs.turn.mods[i].kind
        a = gs.turn.mods[i].arg
        v = gs.turn.mods[i].value
        if kd == MK_WEATHER_OWN:                           # Prayer of Weather: change, floor
            pdelta += v
            pfloor = a
        elif kd == MK_TERRAIN_OPEN:
            opened |= 255 if a <= 0 else 1 << (a - 1)      # arg 0: every terrain
        elif kd == MK_TERRAIN_SAFE:
            safe |= 255 if a <= 0 else 1 << (a - 1)
        elif kd == MK_TERRAIN_CLOSED:
            closed |= 255 if a <= 0 else 1 << (a - 1)
        elif kd == MK_TERRAIN_DELTA or kd == MK_TERRAIN_FLOOR or kd == MK_TERRAIN_SET:
            for t in range(8):
                if a != 0 and a != t + 1:
                    continue
                if kd == MK_TERRAIN_DELTA:
                    delta[t] += v
                elif kd == MK_TERRAIN_FLOOR:
                    if v > floor[t]:
                        floor[t] = v
                elif set1[t] == 0 or v + 1 < set1[t]:
                    set1[t] = v + 1
    for t in range(8):
        k = k * 31 + delta[t] * 7 + floor[t] * 3 + set1[t]
    k = k * 31 + opened * 5 + safe * 3 + closed
    k = k * 31 + pdelta * 3 + pfloor + mod_has(&gs.turn, MK_SPACE_BENDING) * 11
    if gs.n_players > 1 and gs.turn.n_mods:                # another player's Prayer of Weather
        t = mod_sum_others(&gs.turn, MK_WEATHER_OTHERS, gs.current)
        if t:
            k = k * 31 + t
    return k % 999983


cdef int first_step(const GameState* gs, const int* prev, int src, int goal) noexcept nogil:
    """Direction (0-5) of the first step from ``src`` on the path to ``goal``, -1 if none."""
    cdef int h = goal, k, guard = 0
    if goal == src or goal < 0 or prev[goal] < 0:
        return -1
    while prev[h] != src and guard < MAX_HEXES:
        h = prev[h]
        guard += 1
        if h < 0:
            return -1
    for k in range(6):
        if gs.hexes[src].neighbour[k] == h:
            return k
    return -1


cdef inline bint has_action(const int32_t* actions, int n, int a) noexcept nogil:
    cdef int i
    for i in range(n):
        if actions[i] == a:
            return True
    return False


cdef inline int find_kind(const int32_t* actions, int n, int kind) noexcept nogil:
    cdef int i
    for i in range(n):
        if kind_of(actions[i]) == kind:
            return i
    return -1


cdef int count_wounds(const GameState* gs, const EngineStatics* es) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, n = 0
    for i in range(pl.n_hand):
        if pl.hand[i] == es.wound:
            n += 1
    return n


cdef int unit_heal_points(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Healing points that would heal every wounded Unit of the acting player: its level per
    Wound (12.3.3; Poison gives two, 11.7.9)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, t = 0
    for i in range(MAX_UNITS):
        if pl.units[i].card >= 0 and pl.units[i].wounds > 0:
            t += unit_level(es, pl.units[i].card) * pl.units[i].wounds
    return t


cdef int best_play(const GameState* gs, const EngineStatics* es, const int32_t* actions, int n,
                   const Weights* w, double keep_weight, double min_value) noexcept nogil:
    """Index of the card / sideways / Unit play worth most under ``w`` (minus
    ``keep_weight`` times the card's worth in a fight), if worth more than ``min_value``."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, k, best = -1, idx
    cdef double v, bv = min_value
    for i in range(n):
        k = kind_of(actions[i])
        if k != A_PLAY and k != A_SIDEWAYS and k != A_ACTIVATE_UNIT and k != A_USE_SKILL:
            continue
        v = action_value(gs, es, actions[i], w)
        if v <= 0:
            continue
        if k == A_USE_SKILL:
            pass                                             # its hold cost is in action_value
        elif keep_weight > 0 and k != A_ACTIVATE_UNIT:
            idx = arg_of(actions[i]) & 0x7F
            if idx < pl.n_hand:
                v -= keep_weight * card_keep_value(gs, es, pl.hand[idx])
        else:
            v -= 0.05                                        # prefer cards to spending a Unit outside combat
        if v > bv:
            bv = v
            best = i
    return best


cdef class HeuristicPolicy(RandomPolicy):
    """The ``heuristic`` policy (see ``mksim.policies.builtin.HeuristicPolicy`` for the
    parameters).  Deterministic: it never draws from its stream."""

    def __init__(self, seed=0, game_index=0, int stream=0, **params):
        super().__init__(seed, game_index, stream)
        merged = dict(PRESETS["balanced"])
        for k, v in params.items():
            if k not in merged:
                raise ValueError(f"unknown heuristic parameter {k!r}; known: {', '.join(PARAM_NAMES)}")
            merged[k] = float(v)
        self.p.aggression = merged["aggression"]
        self.p.explore_weight = merged["explore_weight"]
        self.p.wound_weight = merged["wound_weight"]
        self.p.fight_threshold = merged["fight_threshold"]
        self.p.site_weight = merged["site_weight"]
        self.p.adventure_weight = merged["adventure_weight"]
        self.p.core_explore = merged["core_explore"]
        self.p.recruit_weight = merged["recruit_weight"]
        self.p.heal_weight = merged["heal_weight"]
        self.p.learn_weight = merged["learn_weight"]
        self.p.city_weight = merged["city_weight"]
        self.p.siege_weight = merged["siege_weight"]
        self.p.siege_round = merged["siege_round"]
        self.p.city_explore = merged["city_explore"]
        self.p.conquest_heal = merged["conquest_heal"]
        self.p.conquest_recruit = merged["conquest_recruit"]
        self.p.approach_weight = merged["approach_weight"]
        self.p.conquest_wound = merged["conquest_wound"]
        self.p.conquest_aggression = merged["conquest_aggression"]
        self.p.skill_choice = merged["skill_choice"]
        self.p.skill_attack = merged["skill_attack"]
        self.p.buy_value = merged["buy_value"]
        self.p.buy_plan = merged["buy_plan"]
        self.p.buy_card_cost = merged["buy_card_cost"]
        self.p.mana_check = merged["mana_check"]
        self.p.block_pool = merged["block_pool"]
        self.p.attack_half = merged["attack_half"]
        self.p.unit_heal = merged["unit_heal"]
        self.p.knockout_guard = merged["knockout_guard"]
        self.params = merged
        self._bound = None
        self.path_key = -1
        self.expl_key = -1
        self.goal_key = -1
        self.goal_hex = -1
        self.goal_kind = G_NONE
        self.n_trail = 0

    def bind(self, Engine eng):
        """Per-content data: tactic preferences by id and the average token of each enemy
        colour (the public token mix: every copy of each enemy of that colour, 1.2.2)."""
        cdef int k, e, col, copies
        cdef Foe f
        cdef double tot[6][4]
        tables = eng.tables
        if self._bound is tables:
            return
        handlers = list(getattr(tables, "handlers", ()))
        self.h_pay_mana = handlers.index("pay_mana_by_colour") if "pay_mana_by_colour" in handlers else -1
        ids = list(tables.tactic_ids)
        for k in range(16):
            self.tactic_rank[k] = 0
            self.tactic_use[k] = 0
        for k, name in enumerate(ids[:16]):
            self.tactic_rank[k] = (len(TACTIC_ORDER) - TACTIC_ORDER.index(name)) if name in TACTIC_ORDER else 0
            self.tactic_use[k] = name in TACTIC_ABILITY_USED
        cols = tables.columns["enemies"]
        arr = tables.enemies
        for col in range(6):
            self.n_pile_type[col] = 0
            for k in range(4):
                tot[col][k] = 0
        for e in range(arr.shape[0]):
            col = int(arr[e, cols.index("colour")])
            copies = int(arr[e, cols.index("copies")])
            if not 0 <= col < 6 or copies <= 0:
                continue
            tot[col][0] += copies
            if self.n_pile_type[col] < 24:
                self.pile_type[col][self.n_pile_type[col]] = e
                self.pile_copies[col][self.n_pile_type[col]] = copies
                self.n_pile_type[col] += 1
            tot[col][1] += copies * int(arr[e, cols.index("armor")])
            tot[col][2] += copies * int(arr[e, cols.index("attack0")])
            tot[col][3] += copies * int(arr[e, cols.index("fame")])
        for col in range(6):
            f.n_att = 1
            f.el[0] = PHYSICAL
            f.att[1] = 0; f.att[2] = 0; f.el[1] = 0; f.el[2] = 0
            f.abil = 0
            f.res = 0
            f.fortified = 0
            if tot[col][0] > 0:
                f.armor = <int>(tot[col][1] / tot[col][0] + 0.5)
                f.att[0] = <int>(tot[col][2] / tot[col][0] + 0.5)
                f.fame = <int>(tot[col][3] / tot[col][0])       # rounded down: unknowns are a risk
            else:
                f.armor = 5; f.att[0] = 5; f.fame = 3
            self.pile_avg[col] = f
        self._bound = tables

    def reset(self, seed, game_index=0):
        """Re-seed for game ``game_index`` and forget the last game: its turn goal and the
        path / exploration caches (their keys -- position, tiles, turn -- can repeat in a
        new game on another map, so a stale cache would make game k depend on the games
        played before it)."""
        RandomPolicy.reset(self, seed, game_index)
        self.forget()

    cdef void forget(self) noexcept nogil:
        """Clear every memory kept between decisions: the turn goal, the path and
        exploration caches and the per-decision plan values."""
        self.goal_key = -1
        self.goal_hex = -1
        self.goal_kind = G_NONE
        self.n_trail = 0
        self.path_key = -1
        self.expl_key = -1
        self.reset_caches()

    def memory(self):
        """The memory kept between decisions (for tests): goal and cache keys."""
        return {"goal_key": self.goal_key, "goal_hex": self.goal_hex, "goal_kind": self.goal_kind,
                "path_key": self.path_key, "expl_key": self.expl_key, "n_trail": self.n_trail}

    def pile_average(self, int colour):
        """The average enemy of a token colour as the planner sees it (for tests)."""
        cdef Foe f = self.pile_avg[colour]
        return {"armor": f.armor, "attack": f.att[0], "fame": f.fame}

    def skill_worth(self, Engine eng, int skill):
        """What gaining skill ``skill`` (content index) at a level-up is worth to this policy
        (skill_pick_value; for tests and tools)."""
        return skill_pick_value(&eng.es, &self.p, skill)
    def buy_worth(self, Engine eng, int unit=-1, int card=-1):
        """What pick_interact() takes Unit ``unit`` (content index) or card ``card`` to be
        worth now (unit_worth / card_worth; for tests and tools)."""
        self.bind(eng)
        if unit >= 0:
            return self.unit_worth(&eng.es, &eng.core.st, unit, eng.core.gs.time)
        return self.card_worth(&eng.core.gs, &eng.es, card)

    def plan_fight(self, Engine eng, enemies, int fortified=0, int units=1):
        """The combat planner on the acting player's hand and Units against ``enemies``
        (enemy content indices, or a colour name for a face-down token of that colour):
        ``(worth, enemies defeated, Wounds taken)`` (for tests and tools)."""
        cdef Foe foes[H_MAX_FOES]
        cdef int nf = 0, kills = 0, wounds = 0
        cdef double v
        self.bind(eng)
        colours = ("green", "grey", "violet", "brown", "red", "white")
        for e in list(enemies)[:H_MAX_FOES]:
            if isinstance(e, str):
                foes[nf] = self.pile_avg[colours.index(e)]
            else:
                foe_from_enemy(&eng.core.st, int(e), &foes[nf])
            if fortified:
                foes[nf].fortified = 1
            nf += 1
        sort_foes(foes, nf)
        self.reset_caches()
        v = fight_plan(self, &eng.core.gs, &eng.es, &eng.core.st, foes, nf, NULL, units, &kills, &wounds)
        return v, kills, wounds

    def plan_city(self, Engine eng, int h, int d=-1):
        """The conquest planner on the city of hex ``h`` (for tests and tools): ``(garrison,
        worth, defenders defeated, Wounds taken)`` where ``garrison`` lists each defender as
        the planner sees it (``armor``, ``attack``, ``fame``, ``fortified``, ``abilities``) and
        ``worth`` is city_assault_score for a Move cost ``d`` (default: the path cost from
        the hero's space) -- ``None`` when the assault is not worth it.  ``abilities`` are
        names (fortified swift brutal poison paralyze summon); the defenders are in token
        order, the plan's numbers from the Fame-per-Armor order it fights them in."""
        cdef Foe foes[H_MAX_FOES]
        cdef int excluded[64]
        cdef int nf, kills = 0, wt = 0, k
        cdef double v, pot
        cdef Weights w
        cdef GameState* gs = &eng.core.gs
        self.bind(eng)
        self.reset_caches()
        if d < 0:
            d = self.path_costs(eng).get(h, INF)
        w_zero(&w)
        w.move = 1
        pot = hand_potential(gs, &eng.es, &w, 1, NULL)
        nf = city_foes(self, gs, &eng.core.st, h, foes)
        names = ((AB_FORTIFIED, "fortified"), (AB_SWIFT, "swift"), (AB_BRUTAL, "brutal"), (AB_POISON, "poison"),
                 (AB_PARALYZE, "paralyze"), (AB_SUMMON, "summon"))
        garrison = [{"armor": foes[k].armor, "attack": [foes[k].att[i] for i in range(foes[k].n_att)],
                     "fame": foes[k].fame, "fortified": foes[k].fortified,
                     "abilities": sorted(nm for bit, nm in names if foes[k].abil & bit)} for k in range(nf)]
        v = self.city_assault_score(eng, h, d, gs.turn.move_points, pot, foes, excluded)
        for k in range(64):
            excluded[k] = 0
        self.move_exclusion(gs, &eng.es, d - gs.turn.move_points, excluded)
        nf = city_foes(self, gs, &eng.core.st, h, foes)
        sort_foes(foes, nf)
        self.reset_caches()
        fight_plan(self, gs, &eng.es, &eng.core.st, foes, nf, excluded, 1, &kills, &wt)
        return garrison, (v if v > -1e8 else None), kills, wt

    def path_costs(self, Engine eng, int limit=60):
        """The movement planner from the acting hero's space: {hex index: cheapest Move
        cost} for every space reached within ``limit`` (for tests and tools)."""
        cdef int dist[MAX_HEXES]
        cdef int prev[MAX_HEXES]
        cdef GameState* gs = &eng.core.gs
        dijkstra(gs, &eng.core.st, gs.players[gs.current].position, dist, prev, eng.es.city_closed,
                 eng.es.city_site, limit)
        return {h: dist[h] for h in range(gs.n_hexes) if dist[h] < INF}

    def explore_spots(self, Engine eng):
        """Spaces from which a tile could be explored now (9.8.2; for tests and tools)."""
        cdef int pos[2 * MAX_EXPLORABLE]
        cdef GameState* gs = &eng.core.gs
        cdef int h, m
        out = []
        for h in range(gs.n_hexes):
            m = explorable(gs, &eng.core.st, h, pos)
            if m == RULES_STACK_EMPTY:
                m = box_explorable(gs, &eng.core.st, h, pos)
            if m > 0:
                out.append(h)
        return out

    def choose_engine(self, Engine eng):
        self.bind(eng)
        return RandomPolicy.choose_engine(self, eng)

    def play(self, Engine eng, long max_steps=100000):
        self.bind(eng)
        return RandomPolicy.play(self, eng, max_steps)

    def choose(self, legal):
        raise TypeError("the heuristic policy needs the engine: use choose_engine(engine)")

    def __reduce__(self):
        return (_restore_heuristic, (self.seed, self.game_index, self.stream, dict(self.params)))

    # -- the decision --------------------------------------------------------------------

    cdef int pick_engine(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        cdef GameState* gs = &eng.core.gs
        cdef int i
        if n <= 1:
            return 0
        if gs.turn.handler_row < 0 and gs.turn.pending_choice < 0 and 0 <= gs.players[gs.current].tactic < 16 \
                and self.tactic_use[gs.players[gs.current].tactic]:
            i = find_kind(actions, n, A_TACTIC_ABILITY)      # 3.2: Long Night (TACTIC_ABILITY_USED)
            if i >= 0:
                return i
        if gs.turn.handler_row >= 0 or gs.turn.pending_choice >= 0:
            i = self.pick_choice(eng, actions, n)
        elif gs.phase == PH_TACTICS:
            i = self.pick_tactic(eng, actions, n)
        elif gs.phase == PH_TURN_START:
            i = self.pick_turn_start(eng, actions, n)
        elif gs.combat.active:
            i = self.pick_combat(eng, actions, n)
        elif gs.phase == PH_INTERACT:
            i = self.pick_interact(eng, actions, n)
        elif gs.phase == PH_MOVE:
            i = self.pick_move(eng, actions, n)
        elif gs.phase == PH_REST:
            i = self.pick_rest(eng, actions, n)
        elif gs.phase == PH_END_TURN:
            i = self.pick_end_turn(eng, actions, n)
        else:
            i = 0
        if i < 0 or i >= n:
            i = 0
        return i

    cdef void need_weights(self, Engine eng, Weights* w) noexcept nogil:
        """What points are wanted now (for choices inside a card being resolved)."""
        cdef GameState* gs = &eng.core.gs
        cdef int e, k
        w_zero(w)
        w.other = 0.1
        w.mana = 0.2
        w.crystal = 0.5
        w.fame = 1
        if gs.phase == PH_COMBAT_RANGED:
            w_attack(w, 0, 1, 0)
        elif gs.phase == PH_COMBAT_BLOCK:
            for e in range(4):
                w.blk[e] = 1
        elif gs.phase == PH_COMBAT_ATTACK:
            w_attack(w, 0, 0, 0)
        elif gs.phase == PH_INTERACT:
            w.influence = 1
            w.heal = 0.8 if count_wounds(gs, &eng.es) > 0 or self.unit_heal_reachable(eng) else 0
        else:
            w.move = 1
            w.influence = 0.3
            w.heal = 0.9 if count_wounds(gs, &eng.es) > 0 or self.unit_heal_reachable(eng) else 0
            w.draw = 0.4
            for k in range(3):
                for e in range(4):
                    w.att[k][e] = 0.2
            for e in range(4):
                w.blk[e] = 0.2
        w.mana = 0.2
        w.crystal = 0.5

    cdef int pick_choice(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """A pending choice(...) option by worth, a colour by the hand's colours, or a
        handler's question (TurnState.ask) by simple rules."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Player* pl = &gs.players[gs.current]
        cdef const int32_t* r
        cdef Weights w
        cdef int i, opt, best = 0, ask, c, k
        cdef double v, bv = -1e9
        cdef int colour_count[6]
        if gs.turn.handler_row < 0 and gs.turn.pending_choice >= 0:
            r = es.effects.data + gs.turn.pending_choice * es.effects.width
            if r[0] == OP_CHOICE:
                self.need_weights(eng, &w)
                for i in range(n):
                    opt = arg_of(actions[i])
                    v = row_value(es, r[4] + opt, &w, gs.time, 0)
                    if v > bv:
                        bv = v
                        best = i
                return best
            return self.pick_colour(eng, actions, n)
        ask = gs.turn.ask
        if ask == ASK_HAND_CARD or ask == ASK_DISCARD_CARD or ask == ASK_DECK_CARD:
            for i in range(n):                               # a Wound first (throwing it away helps)
                opt = arg_of(actions[i])
                if ask == ASK_HAND_CARD and opt < pl.n_hand and pl.hand[opt] == es.wound:
                    return i
            if ask == ASK_HAND_CARD:
                for i in range(n):
                    if arg_of(actions[i]) == ASK_DONE:
                        return i
                bv = 1e9
                for i in range(n):                           # else the least useful card
                    opt = arg_of(actions[i])
                    if opt < pl.n_hand:
                        v = card_keep_value(gs, es, pl.hand[opt])
                        if v < bv:
                            bv = v
                            best = i
                return best
            if ask == ASK_DECK_CARD:
                # searching the deck shows its cards (Preparation, 3.2): the best one, ties by
                # card id, so that the deck's order (hidden) never matters
                c = -1
                for i in range(n):
                    opt = arg_of(actions[i])
                    if opt < pl.n_deck:
                        v = card_keep_value(gs, es, pl.deck[opt]) + 0.5 * row_value(
                            es, card_row(es, pl.deck[opt], 0), &self_move_w, gs.time, 0)
                        if v > bv or (v == bv and pl.deck[opt] < c):
                            bv = v
                            best = i
                            c = pl.deck[opt]
                return best
            return 0
        if ask == ASK_YES_NO:
            for i in range(n):
                if arg_of(actions[i]) == 1:
                    return i
            return 0
        if ask == ASK_COLOUR:
            return self.pick_colour(eng, actions, n)
        if ask == ASK_NUMBER:
            return n - 1
        if ask == ASK_PAYMENT:                               # a Source die, then a token, then a crystal
            for i in range(n):
                if PAY_DIE <= arg_of(actions[i]) < PAY_DIE + 8:
                    return i
            for i in range(n):
                if arg_of(actions[i]) < PAY_CRYSTAL:
                    return i
            return 0
        if ask == ASK_ENEMY:                                 # the strongest attacker
            for i in range(n):
                opt = arg_of(actions[i])
                if opt < gs.combat.n_enemies:
                    v = enemy_attack_value(gs, &eng.core.st, opt, 0)
                    if v > bv:
                        bv = v
                        best = i
            return best
        return 0

    cdef int pick_colour(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """The basic colour most cards in hand could be powered with."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Player* pl = &gs.players[gs.current]
        cdef int cnt[6]
        cdef int i, c, best = 0, bc = -1, opt
        for i in range(6):
            cnt[i] = 0
        for i in range(pl.n_hand):
            if pl.hand[i] >= 0 and pl.hand[i] != es.wound:
                c = es.card_colour[pl.hand[i] * es.card_stride]
                if 0 <= c < 4:
                    cnt[c] += 1
        for i in range(n):
            opt = arg_of(actions[i])
            if 0 <= opt < 4 and cnt[opt] - (1 if pl.crystals[opt] >= 3 else 0) * 2 > bc:
                bc = cnt[opt] - (1 if pl.crystals[opt] >= 3 else 0) * 2
                best = i
        return best

    cdef int pick_tactic(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """3.1: the preferred tactic (TACTIC_ORDER)."""
        cdef int i, t, best = 0, br = -1
        for i in range(n):
            if kind_of(actions[i]) != A_TACTIC:
                continue
            t = arg_of(actions[i])
            if 0 <= t < 16 and self.tactic_rank[t] > br:
                br = self.tactic_rank[t]
                best = i
        return best

    cdef double heal_plan(self, Engine eng, int points, int wounds, int* best_mask, int* used) noexcept nogil:
        """Worth of ``points`` Healing points (12.3.3) spent at best on ``wounds`` Wounds in hand
        (``heal_w`` each, a point each) and on the acting player's wounded Units (its level
        per Wound -- Poison gives two, 11.7.9 -- worth ``unit_worth`` x ``unit_heal`` once no
        Wound is left on it: a wounded Unit cannot be activated, 12.2.2, until healed): of
        every set of wounded Units the points heal, the one worth most with the points left
        on hand Wounds.  ``best_mask``: that set (bit per Unit slot); ``used``: the points it
        spends."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Player* pl = &gs.players[gs.current]
        cdef int k, mask, cost, left, units = 0
        cdef int slot_cost[MAX_UNITS]
        cdef double slot_val[MAX_UNITS]
        cdef double v, bv = 0.0
        best_mask[0] = 0
        used[0] = points if points < wounds else wounds
        bv = self.heal_w(es) * used[0]
        if self.p.unit_heal <= 0:
            return bv
        for k in range(MAX_UNITS):
            if pl.units[k].card >= 0 and pl.units[k].wounds > 0:
                slot_cost[k] = unit_level(es, pl.units[k].card) * pl.units[k].wounds
                if slot_cost[k] <= points:
                    slot_val[k] = self.unit_worth(es, &eng.core.st, pl.units[k].card, gs.time) * self.p.unit_heal
                    units |= 1 << k
        if units == 0:
            return bv
        for mask in range(1, 1 << MAX_UNITS):
            if mask & ~units:
                continue
            cost = 0
            v = 0
            for k in range(MAX_UNITS):
                if (mask >> k) & 1:
                    cost += slot_cost[k]
                    v += slot_val[k]
            if cost > points:
                continue
            left = points - cost
            if left > wounds:
                left = wounds
            v += self.heal_w(es) * left
            if v > bv:
                bv = v
                best_mask[0] = mask
                used[0] = cost + left
        return bv

    cdef int pick_heal(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """12.3.3: spend the turn's Healing points as heal_plan() plans them: the legal heal
        of its Unit worth most first, then the Wounds in hand; -1 when no heal is legal."""
        cdef GameState* gs = &eng.core.gs
        cdef const Player* pl = &gs.players[gs.current]
        cdef int hw = find_kind(actions, n, A_HEAL_WOUND), i, k, mask = 0, used = 0, best = -1
        cdef double v, bv = -1.0
        if self.p.unit_heal <= 0 or find_kind(actions, n, A_HEAL_UNIT) < 0:
            return hw
        self.heal_plan(eng, gs.turn.healing, count_wounds(gs, &eng.es) if hw >= 0 else 0, &mask, &used)
        if mask == 0:
            return hw
        for i in range(n):
            if kind_of(actions[i]) == A_HEAL_UNIT:
                k = arg_of(actions[i])
                if 0 <= k < MAX_UNITS and (mask >> k) & 1:
                    v = self.unit_worth(&eng.es, &eng.core.st, pl.units[k].card, gs.time)
                    if v > bv:
                        bv = v
                        best = i
        return best if best >= 0 else hw

    cdef int pick_turn_start(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """4.2-4.5: a regular turn; rest when Wounds clog the hand; announce the End of the
        Round only with an empty deck and nothing but Wounds in hand."""
        cdef GameState* gs = &eng.core.gs
        cdef const Player* pl = &gs.players[gs.current]
        cdef int wounds = count_wounds(gs, &eng.es), i
        cdef int good = pl.n_hand - wounds
        if good == 0 and pl.n_deck == 0:
            i = find_kind(actions, n, A_ANNOUNCE_END)
            if i >= 0:
                return i
        if wounds > 0 and (good == 0 or (wounds >= 3 and good <= 2)):
            i = find_kind(actions, n, A_REST)
            if i >= 0:
                return i
        i = find_kind(actions, n, A_REGULAR_TURN)
        if i >= 0:
            return i
        i = find_kind(actions, n, A_REST)
        if i >= 0:
            return i
        i = find_kind(actions, n, A_ANNOUNCE_END)
        return i if i >= 0 else find_kind(actions, n, A_FORFEIT)

    cdef int pick_rest(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """4.5: discard the least useful non-Wound card, then every Wound, then end."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Player* pl = &gs.players[gs.current]
        cdef int i, idx, best = -1
        cdef double v, bv = 1e9
        if gs.turn.healing > 0:
            i = self.pick_heal(eng, actions, n)
            if i >= 0:
                return i
        for i in range(n):
            if kind_of(actions[i]) == A_REST_DISCARD:
                idx = arg_of(actions[i])
                if idx < pl.n_hand and pl.hand[idx] == es.wound and gs.turn.rest_mode != 0:
                    return i
        for i in range(n):
            if kind_of(actions[i]) == A_REST_DISCARD:
                idx = arg_of(actions[i])
                if idx < pl.n_hand:
                    v = card_keep_value(gs, es, pl.hand[idx]) if pl.hand[idx] != es.wound else -1
                    if v < bv:
                        bv = v
                        best = i
        if best >= 0:
            return best
        i = find_kind(actions, n, A_END_TURN)
        return i if i >= 0 else 0

    cdef int pick_end_turn(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """13.4-13.7: Glade Wound from hand, the AA worth most, the skill worth most
        (skill_pick_value; the first offered with ``skill_choice`` 0), the first reward
        choice, no discards before drawing (unless a discard is required)."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Player* pl = &gs.players[gs.current]
        cdef int i, k, best = 0, card, idx, skill, top = pl.n_skill_stack - 1
        cdef double v, bv = -1e9
        for i in range(n):
            k = kind_of(actions[i])
            if k == A_PICK_SKILL:
                # 13.6.4: the two top tokens of the own Skill stack are revealed (arg 0: the
                # top one, 1: the next), args 2.. take a Common Skill offer token (public)
                if self.p.skill_choice <= 0:
                    return 0                                 # the first offered (old choice)
                idx = arg_of(actions[i])
                if idx < 2:
                    skill = pl.skill_stack[top - idx] if top - idx >= 0 else -1
                else:
                    skill = gs.skill_offer[idx - 2] if idx - 2 < gs.n_skill_offer else -1
                v = skill_pick_value(es, &self.p, skill)
                if v > bv + 1e-9:                            # ties: the earlier (own token first)
                    bv = v
                    best = i
            elif k == A_GLADE_WOUND:
                if arg_of(actions[i]) == 1:
                    return i
                best = i if arg_of(actions[i]) == 2 else best
            elif k == A_PICK_AA or (k == A_REWARD and gs.turn.n_rewards > 0 and
                                     gs.turn.rewards[0] == 2 and gs.turn.reward_choice == 0):
                card = gs.aa_offer[arg_of(actions[i])] if arg_of(actions[i]) < 3 else -1
                v = card_keep_value(gs, es, card) + 0.5 * row_value(es, card_row(es, card, 0), &self_move_w, gs.time, 0)
                if v > bv:
                    bv = v
                    best = i
        if bv > -1e9:
            return best
        i = find_kind(actions, n, A_DRAW)
        if i >= 0:
            return i
        bv = 1e9
        for i in range(n):                                   # a required discard: the least useful card
            if kind_of(actions[i]) == A_DISCARD:
                idx = arg_of(actions[i])
                if idx < pl.n_hand:
                    v = card_keep_value(gs, es, pl.hand[idx])
                    if v < bv:
                        bv = v
                        best = i
        return best

    # -- interaction ---------------------------------------------------------------------

    cdef int pick_interact(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """10.2-10.7.  Solo Conquest with ``buy_plan`` 1: heal Wounds with Healing points, then
        the purchases plan_buys() plans on the Influence the turn can raise: buy a planned
        item affordable now, else play Influence cards for it; then finish.  Otherwise (and
        always in First Reconnaissance) the old choice: the best item affordable now (by
        unit_worth / card_worth: level and learn_weight unless ``buy_value`` > 0 in Solo
        Conquest), cards played while the cheapest item is not yet affordable."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Player* pl = &gs.players[gs.current]
        cdef int i, k, slot, u, best = -1, wounds = count_wounds(gs, es), cheapest = INF, c, free_slots = 0, site
        cdef int need_more = 0, hmask = 0, hused = 0
        cdef double v, bv = 0
        cdef Weights w
        if self.p.buy_plan > 0 and conquest_mode(es):
            i = self.pick_heal(eng, actions, n)               # Healing points bought (12.3.2)
            if i >= 0:
                return i
            w_zero(&w)
            w.influence = 1
            i = self.plan_buys(eng, actions, n, gs.turn.influence + hand_potential(gs, es, &w, 0, NULL), &need_more)
            if i >= 0:
                return i
            if need_more:
                # committed to the purchase: no card is held back for a fight (as below)
                best = best_play(gs, es, actions, n, &w, 0.0, 0.5)
                if best >= 0:
                    return best
                i = self.plan_buys(eng, actions, n, gs.turn.influence, &need_more)   # the hand fell short
                if i >= 0:
                    return i
            i = find_kind(actions, n, A_END_INTERACT)
            return i if i >= 0 else 0
        i = self.pick_heal(eng, actions, n)                  # Healing points bought: a Unit first
        if i >= 0 and kind_of(actions[i]) == A_HEAL_UNIT:
            return i
        for i in range(MAX_UNITS):
            if pl.units[i].card < 0 and i < pl.command_tokens:
                free_slots += 1
        for i in range(n):
            k = kind_of(actions[i])
            if k == A_RECRUIT:
                if (arg_of(actions[i]) >> 4) & 0xF:           # never disband a Unit for another
                    continue
                slot = arg_of(actions[i]) & 0xF
                u = gs.unit_offer[slot] if slot < gs.n_unit_offer else -1
                if u < 0:
                    continue
                v = self.unit_worth(es, &eng.core.st, u, gs.time)
                if v > bv:
                    bv = v
                    best = i
            elif k == A_BUY_AA or k == A_BUY_SPELL or k == A_BUY_CITY_AA:
                slot = arg_of(actions[i])
                if k == A_BUY_AA:                            # the card's worth (learn_weight if buy_value 0)
                    c = -gs.unit_offer[slot] - 1 if slot < gs.n_unit_offer else -1
                elif k == A_BUY_SPELL:
                    c = gs.spell_offer[slot & 3]
                else:
                    c = gs.aa_offer[slot] if slot < 3 else -1
                v = self.card_worth(gs, es, c)
                if v > bv:
                    bv = v
                    best = i
            elif k == A_BUY_HEALING and wounds > 0:
                v = self.heal_w(es)
                if v > bv:
                    bv = v
                    best = i
            elif k == A_BUY_HEALING and self.p.unit_heal > 0 and conquest_mode(es):
                # no Wound in hand: Healing for a wounded Unit (12.3.3), worth the Units the
                # points affordable now would heal
                c = heal_price(es, interaction_site(gs, es, gs.current))
                if c > 0:
                    v = self.heal_plan(eng, gs.turn.healing + <int>(gs.turn.influence / c), 0, &hmask, &hused)
                    if hused > gs.turn.healing and v > bv:
                        bv = v
                        best = i
            elif k == A_HEAL_WOUND:
                v = self.heal_w(es) + 0.1
                if v > bv:
                    bv = v
                    best = i
        if best >= 0:
            return best
        # what could still be bought here: the cheapest offer Unit recruitable at this site
        # (Influence, 10.6), the monastery's AA (10.7.2.2) or Healing (10.5); nothing else is
        # worth playing Influence cards for (they would be spent for nothing)
        site = gs.hexes[pl.position].site if pl.position >= 0 else -1
        if free_slots > 0:
            for slot in range(gs.n_unit_offer):
                u = gs.unit_offer[slot]
                if u >= 0:
                    if (site == es.sites.village or site == es.sites.monastery) and \
                            not (es.units.table[u * es.units.stride + es.units.sites] >> site) & 1:
                        continue
                    c = es.units.table[u * es.units.stride + es.units.cost]
                    if c < cheapest:
                        cheapest = c
        if site == es.sites.monastery and monastery_aa_offered(gs) and es.units.aa_cost < cheapest:
            cheapest = es.units.aa_cost
        if wounds > 0 and cheapest > 3:
            cheapest = 3
        w_zero(&w)
        w.influence = 1
        if cheapest < INF and gs.turn.influence + hand_potential(gs, es, &w, 0, NULL) >= cheapest:
            # committed to the purchase: no card is held back for a fight (cards played for
            # half a price would be spent for nothing)
            best = best_play(gs, es, actions, n, &w, 0.0, 0.5)
            if best >= 0:
                return best
        i = find_kind(actions, n, A_END_INTERACT)
        return i if i >= 0 else 0

    # -- combat --------------------------------------------------------------------------

    cdef int pick_combat(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Statics* st = &eng.core.st
        cdef const Player* pl = &gs.players[gs.current]
        cdef const Combat* c = &gs.combat
        cdef int i, k, s, best = -1, t, fame, a, att, dmg, bestdmg, slot, el, need, have, armor, harm
        cdef uint32_t mask
        cdef double v, bv, pot
        cdef Weights w
        cdef int reserve[64]
        cdef int ph = gs.phase
        if ph == PH_COMBAT_RANGED or ph == PH_COMBAT_ATTACK:
            # 11.5 / 11.8: the commit that defeats the most Fame (only succeeding commits are legal)
            bv = 0
            for i in range(n):
                if kind_of(actions[i]) == A_COMMIT_ATTACK:
                    mask = <uint32_t>arg_of(actions[i])
                    fame = 0
                    t = 0
                    for s in range(c.n_enemies):
                        if (mask >> s) & 1:
                            fame += tv(st.enemies.data, st.enemies.width, c.enemies[s].enemy, st.cols.enemy_fame) * 4 + 1
                            t += 1
                    v = fame
                    if v > bv:
                        bv = v
                        best = i
            if best >= 0:
                return best
            # else: pour points into the pool for the best enemy the hand can still defeat
            best = -1
            bv = 0
            for s in range(c.n_enemies):
                if not is_targetable(gs, s):
                    continue
                if ph == PH_COMBAT_RANGED and not can_target_in_ranged(gs, st, s, 0) and \
                        not can_target_in_ranged(gs, st, s, 1):
                    continue
                w_attack(&w, tv(st.enemies.data, st.enemies.width, c.enemies[s].enemy, st.cols.enemy_resistances),
                         1 if ph == PH_COMBAT_RANGED else 0,
                         1 if ph == PH_COMBAT_RANGED and not can_target_in_ranged(gs, st, s, 0) else 0)
                armor = enemy_armor(gs, st, s)
                have = attack_value(gs, st, <uint32_t>1 << s, ph)
                if have < 0:
                    have = 0
                pot = hand_potential(gs, es, &w, c.units_allowed, NULL) - \
                    self.mana_overcount(gs, es, &w, 1, NULL)
                if self.p.attack_half > 0:
                    # 11.9.2: the resisted points are added up and halved, rounding down; an
                    # odd resisted pool holds half a point that the hand's halved points
                    # (pot) complete
                    pot += 0.5 * (self.resisted_pool(gs, st, s) & 1)
                if have + pot + 0.01 < armor:
                    continue
                fame = tv(st.enemies.data, st.enemies.width, c.enemies[s].enemy, st.cols.enemy_fame)
                v = fame * 10.0 / (armor - have + 1)
                if v > bv:
                    bv = v
                    best = s
            if best >= 0:
                w_attack(&w, tv(st.enemies.data, st.enemies.width, c.enemies[best].enemy, st.cols.enemy_resistances),
                         1 if ph == PH_COMBAT_RANGED else 0,
                         1 if ph == PH_COMBAT_RANGED and not can_target_in_ranged(gs, st, best, 0) else 0)
                i = best_play(gs, es, actions, n, &w, 0.0, 0.0)
                if i >= 0:
                    return i
            i = find_kind(actions, n, A_NEXT_PHASE)
            return i if i >= 0 else 0
        if ph == PH_COMBAT_BLOCK:
            # 11.6: commit the block that saves most; else build the block of the attack that
            # hurts most and that the hand can stop
            bestdmg = 0
            for i in range(n):
                if kind_of(actions[i]) == A_COMMIT_BLOCK:
                    a = arg_of(actions[i])
                    dmg = enemy_attack_value(gs, st, a & 31, a >> 5) + 1
                    if dmg > bestdmg:
                        bestdmg = dmg
                        best = i
            if best >= 0:
                return best
            if gs.turn.agility_melee == 0 and gs.turn.agility_ranged == 0:
                # LL-6.5.2: Move points left in the Block phase with no Agility conversion to
                # keep them for: lower the strongest Cumbersome attack, 1 per point
                bestdmg = 0
                for i in range(n):
                    if kind_of(actions[i]) == A_CUMBERSOME:
                        a = arg_of(actions[i])
                        dmg = enemy_attack_value(gs, st, a & 31, a >> 5)
                        if dmg > bestdmg:
                            bestdmg = dmg
                            best = i
                if best >= 0:
                    return best
            self.attack_reserve(eng, reserve)
            harm = hero_armor(gs, st, gs.current)
            best = -1
            bv = 0
            for s in range(c.n_enemies):
                if c.enemies[s].flags & (CE_DEFEATED | CE_GONE):
                    continue
                for a in range(enemy_n_attacks(gs, st, s)):
                    if not attack_is_live(gs, st, s, a):
                        continue
                    need = block_needed(gs, st, s, a)
                    if self.p.block_pool > 0:
                        # the Block already played counts towards this attack (11.6.4, 11.9.3):
                        # a block begun is finished rather than left half built
                        have = block_value(gs, st, s, a)
                        if have > 0:
                            need -= have
                    el = attack_element(gs, st, s, a)
                    w_block(&w, el if el >= 0 else 0)
                    pot = hand_potential(gs, es, &w, c.units_allowed, reserve) - \
                        self.mana_overcount(gs, es, &w, 1, reserve)
                    if pot + 0.01 < need:
                        continue
                    dmg = wounds_from(enemy_attack_value(gs, st, s, a), enemy_ability(gs, st, s, AB_BRUTAL) * AB_BRUTAL |
                                      enemy_ability(gs, st, s, AB_POISON) * AB_POISON, harm)
                    v = dmg * 10.0 / (need + 1)
                    if dmg > 0 and v > bv:
                        bv = v
                        best = s | (a << 5)
            if best >= 0:
                el = attack_element(gs, st, best & 31, best >> 5)
                w_block(&w, el if el >= 0 else 0)
                bv = -1e9
                k = -1
                for i in range(n):                           # the play worth most for this block
                    t = kind_of(actions[i])
                    if t != A_PLAY and t != A_SIDEWAYS and t != A_ACTIVATE_UNIT and t != A_USE_SKILL:
                        continue
                    if (t == A_PLAY or t == A_SIDEWAYS) and (arg_of(actions[i]) & 0x7F) < 64 and reserve[arg_of(actions[i]) & 0x7F]:
                        continue
                    v = action_value(gs, es, actions[i], &w)
                    if v > 0 and v > bv:
                        bv = v
                        k = i
                if k >= 0:
                    return k
            i = find_kind(actions, n, A_NEXT_PHASE)
            return i if i >= 0 else 0
        if ph == PH_COMBAT_DAMAGE:
            return self.pick_damage(eng, actions, n)
        i = find_kind(actions, n, A_NEXT_PHASE)
        return i if i >= 0 else 0

    cdef void attack_reserve(self, Engine eng, int* reserve) noexcept nogil:
        """Hand cards kept for the Attack phase: enough melee to defeat the enemy worth most
        that the hand can defeat (11.8); the rest may block."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Statics* st = &eng.core.st
        cdef const Player* pl = &gs.players[gs.current]
        cdef const Combat* c = &gs.combat
        cdef double vals[H_MAX_RES]
        cdef int used[H_MAX_RES]
        cdef int i, s, best = -1, nr, fame, bf = 0
        cdef Weights w
        for i in range(64):
            reserve[i] = 0
        nr = pl.n_hand if pl.n_hand < H_MAX_RES else H_MAX_RES
        for s in range(c.n_enemies):
            if not is_targetable(gs, s):
                continue
            w_attack(&w, tv(st.enemies.data, st.enemies.width, c.enemies[s].enemy, st.cols.enemy_resistances), 0, 0)
            for i in range(nr):
                vals[i] = card_best(gs, es, pl.hand[i], &w, 1)
                used[i] = 0
            if take_points(vals, nr, used, enemy_armor(gs, st, s)):
                fame = tv(st.enemies.data, st.enemies.width, c.enemies[s].enemy, st.cols.enemy_fame)
                if fame > bf:
                    bf = fame
                    best = s
        if best < 0:
            return
        w_attack(&w, tv(st.enemies.data, st.enemies.width, c.enemies[best].enemy, st.cols.enemy_resistances), 0, 0)
        for i in range(nr):
            vals[i] = card_best(gs, es, pl.hand[i], &w, 1)
            used[i] = 0
        take_points(vals, nr, used, enemy_armor(gs, st, best))
        for i in range(nr):
            reserve[i] = used[i]

    cdef int pick_damage(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """11.7: resolve attacks in the listed order; a Unit takes the damage when its Armor
        absorbs at least two of the hero's Wounds' worth (12.2), else the hero does."""
        cdef GameState* gs = &eng.core.gs
        cdef const Statics* st = &eng.core.st
        cdef const Player* pl = &gs.players[gs.current]
        cdef int i, slot, u, armor, best = -1, ba = 0, harm = hero_armor(gs, st, gs.current), k
        if gs.combat.dmg_slot < 0:
            i = find_kind(actions, n, A_DAMAGE_START)
            if i >= 0:
                return i
            i = find_kind(actions, n, A_NEXT_PHASE)
            return i if i >= 0 else 0
        for i in range(n):
            if kind_of(actions[i]) == A_DAMAGE_UNIT:
                slot = arg_of(actions[i])
                u = pl.units[slot].card
                if u < 0:
                    continue
                armor = tv(st.units.data, st.units.width, u, st.cols.unit_armor)
                if armor > ba:
                    ba = armor
                    best = i
        if best >= 0 and gs.combat.dmg_left > harm and ba >= harm:
            return best
        if best >= 0 and conquest_mode(&eng.es) and gs.combat.dmg_left >= harm and \
                not enemy_ability(gs, st, gs.combat.dmg_slot, AB_PARALYZE):
            return best                                      # as fight_plan plans it (soak_damage)
        if best >= 0 and self.p.knockout_guard > 0 and not pl.knocked_out:
            # 11.7.8: Wounds to hand that reach the Hand limit this combat knock the hero out
            # (every non-Wound card discarded); a Paralyze attack's Wound discards them too
            # (11.7.10).  A Unit takes such a blow instead (wounded, or destroyed by Paralyze,
            # 12.2) while the hand still holds a card to lose
            k = wounds_from(gs.combat.dmg_left, 0, harm)       # dmg_left has Brutal's doubling (11.7.2)
            if k > 0 and count_wounds(gs, &eng.es) < pl.n_hand and \
                    (enemy_ability(gs, st, gs.combat.dmg_slot, AB_PARALYZE) or
                     pl.wounds_this_combat + k >= hand_limit(gs, st, gs.current)):
                return best
        i = find_kind(actions, n, A_DAMAGE_HERO)
        return i if i >= 0 else 0

    # -- movement and the turn's goal ------------------------------------------------------

    cdef int pick_move(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Statics* st = &eng.core.st
        cdef const Player* pl = &gs.players[gs.current]
        cdef int* dist
        cdef int* prev
        cdef long long pkey
        cdef int limit, ekey
        cdef int pos[2 * MAX_EXPLORABLE]
        cdef int excluded[64]
        cdef Foe foes[H_MAX_FOES]
        cdef int h, k, nb, m, i, need, nf, site, d, best_h = -1, best_kind = G_NONE, key, wounds, step, c
        cdef int here = pl.position, mp = gs.turn.move_points, dirs, kills, wtaken, explore_cost, last_round
        cdef double v, bv, pot, value, score, dist_pen
        cdef Weights w
        cdef bint core_next, conquest, blocked
        cdef int n_open, revealed = 0
        cdef double siege
        cdef unsigned char ready[MAX_HEXES]
        cdef int rpass
        if here < 0:
            i = find_kind(actions, n, A_END_TURN)
            return i if i >= 0 else 0
        i = self.pick_heal(eng, actions, n)                  # 12.3.3: Healing points heal Wounds and Units
        if i >= 0:
            return i
        wounds = count_wounds(gs, es)
        self.reset_caches()
        key = gs.round * 256 + gs.turns_in_round
        if key != self.goal_key:
            self.goal_key = key
            self.goal_hex = -1
            self.goal_kind = G_NONE
            self.n_trail = 0
        if not self.on_trail(here):
            if self.n_trail >= MAX_TRAIL:
                return self.end_of_move(eng, actions, n, wounds)
            self.trail[self.n_trail] = here
            self.n_trail += 1
        w_zero(&w)
        w.move = 1
        pot = hand_potential(gs, es, &w, 1, NULL)
        last_round = gs.round >= es.rounds
        explore_cost = 2 - mod_sum(&gs.turn, MK_EXPLORE_DISCOUNT)            # 9.8.3
        # the top tile's back (Countryside / Core) is public (9.8.4): revealing a Core tile may
        # reveal the city and end First Reconnaissance (17.3.1)
        core_next = False
        if gs.n_tile_stack > 0:
            core_next = tv(st.tiles.data, st.tiles.width, gs.tile_stack[gs.n_tile_stack - 1], st.cols.tile_kind) >= 2
        limit = mp + <int>pot + 16
        conquest = conquest_mode(es)
        n_open = cities_open(gs, es, &revealed) if conquest else 0
        if conquest:
            limit += 40                                      # six rounds on a larger map: far goals take turns
        if n_open > 0 and gs.round >= self.p.siege_round and not gs.turn.action_taken:
            n_open = self.city_ready(eng, ready)
        else:
            n_open = 0
        pkey = terrain_key(gs) * 1000003 + ((<long long>here * 64 + gs.n_tiles) * 4096 + key) * 256 + limit
        if pkey != self.path_key:
            dijkstra(gs, st, here, self.path_dist, self.path_prev, es.city_closed, es.city_site, limit)
            self.path_key = pkey
        dist = self.path_dist
        prev = self.path_prev
        ekey = gs.n_tiles * 256 + gs.n_tile_stack
        if ekey != self.expl_key:
            for h in range(gs.n_hexes):
                self.expl_n[h] = -1
            self.expl_key = ekey
        for rpass in range(2 if conquest else 1):
            # conquest: a second pass keeps to goals reachable this turn when the first
            # step towards the best one is out of the hand's reach (the cards would idle)
            best_h = -1
            best_kind = G_NONE
            bv = 0
            if not gs.turn.action_taken:
                for h in range(gs.n_hexes):
                    d = dist[h]
                    if d >= INF or (rpass == 1 and d > mp + pot):
                        continue
                    if h != here and self.on_trail(h):
                        continue                         # stood there this turn (n_trail)
                    dist_pen = 0.0 if d <= mp + pot else 0.05 * (d - mp - pot) + 0.3
                    site = gs.hexes[h].site
                    # another hero stands there: no action (9.5.4), and the turn may not end
                    # there (9.7.1); never in a solo game
                    blocked = hero_blocks(gs, es, h, gs.current)
                    if h != here and ends_movement(gs, st, h, gs.current):
                        # entering it is an assault (9.4.1, 11.1.3): only as that goal
                        if d <= mp + pot and site >= 0 and not blocked:
                            score = self.site_score(eng, h, site, d, mp, pot, wounds, foes, excluded)
                            if score > -1e8:
                                score -= dist_pen
                                if h == self.goal_hex:
                                    score += 0.3
                                if score > bv:
                                    bv = score
                                    best_h = h
                                    best_kind = G_ASSAULT
                        continue
                    # exploration (9.8)
                    if d + explore_cost <= mp + pot + (16 if rpass == 0 else 0):
                        m = self.expl_n[h]
                        if m < 0:
                            m = explorable(gs, st, h, pos)
                            if m == RULES_STACK_EMPTY:
                                m = box_explorable(gs, st, h, pos)
                            self.expl_n[h] = m if m > 0 else 0
                        if m > 0:
                            # its Fame (17.3.1) or, where tiles give none, what it opens up
                            value = (st.shape.fame_per_tile if st.shape.fame_per_tile > 0 else 1) + self.p.explore_weight
                            if core_next and not last_round and es.end_city_revealed:
                                value *= self.p.core_explore
                            if conquest and revealed < st.n_city_levels:
                                value += self.p.city_explore             # 17.3.4: the cities must be found
                            need = d + explore_cost
                            if blocked:
                                # 9.5.2: exploring from another hero's space is allowed, but
                                # then a step on to a safe space must be paid (9.7.1, 13.2)
                                need += step_off_cost(gs, st, es, h, gs.current)
                                if need > mp + pot:
                                    m = 0
                            score = value - self.move_cost_penalty(need - mp, pot) - dist_pen
                            if h == self.goal_hex and self.goal_kind == G_EXPLORE:
                                score += 0.3
                            if m > 0 and score > bv:
                                bv = score
                                best_h = h
                                best_kind = G_EXPLORE
                    if n_open > 0 and not blocked:
                        # Solo Conquest: end the turn next to a city, to assault it next turn
                        siege = self.siege_score(eng, h, ready)
                        if siege > 0:
                            score = siege - self.move_cost_penalty(d - mp, pot) - dist_pen
                            if h == self.goal_hex and self.goal_kind == G_SIEGE:
                                score += 0.3
                            if score > bv:
                                bv = score
                                best_h = h
                                best_kind = G_SIEGE
                    if d > mp + pot or blocked:
                        continue                                 # fights and sites: only this turn
                    # challenge rampaging enemies next to h (11.1.5)
                    nf = 0
                    for k in range(6):
                        nb = gs.hexes[h].neighbour[k]
                        if nb >= 0 and is_rampaging(gs, st, nb):
                            nf = hex_foes(self, gs, st, nb, 0, foes, nf)
                    if nf > 0:
                        self.move_exclusion(gs, es, d - mp, excluded)
                        sort_foes(foes, nf)
                        score = fight_plan(self, gs, es, st, foes, nf, excluded, 1, &kills, &wtaken)
                        if kills > 0 and score > self.p.fight_threshold:
                            score -= self.move_cost_penalty(d - mp, pot) + dist_pen
                            if h == self.goal_hex and self.goal_kind == G_CHALLENGE:
                                score += 0.3
                            if score > bv:
                                bv = score
                                best_h = h
                                best_kind = G_CHALLENGE
                    if site < 0:
                        continue
                    score = self.site_score(eng, h, site, d, mp, pot, wounds, foes, excluded)
                    if score > -1e8:
                        score -= dist_pen
                        if h == self.goal_hex:
                            score += 0.3
                        if score > bv:
                            bv = score
                            best_h = h
                            best_kind = self.site_goal_kind(eng, site)
            if rpass == 0 and conquest and best_h >= 0 and best_h != here:
                step = first_step(gs, prev, here, best_h)
                c = move_cost(gs, st, gs.hexes[here].neighbour[step]) if step >= 0 else -1
                if c >= 0 and mp + pot >= c:
                    break
            else:
                break
        if best_h < 0 and conquest and self.p.approach_weight > 0 and not gs.turn.action_taken:
            # Solo Conquest: no goal in reach scores; rather than idle, walk towards the best
            # site the next turn's hand could take (the cards played for Move come back at the
            # end of the turn, 13.7; unplayed they would do nothing)
            best_h = self.approach_goal(eng, mp, pot, dist, foes, excluded)
            if best_h >= 0:
                best_kind = G_APPROACH
        if best_h < 0:
            return self.end_of_move(eng, actions, n, wounds)
        self.goal_hex = best_h
        self.goal_kind = best_kind
        # at the goal: take the action
        if best_h == here and best_kind != G_ASSAULT:
            if best_kind == G_EXPLORE:
                if mp >= explore_cost:
                    i = find_kind(actions, n, A_EXPLORE)
                    if i >= 0:
                        return i
                return self.play_for_move(eng, actions, n, 0.0, wounds)
            if best_kind == G_CHALLENGE:
                return self.pick_challenge(eng, actions, n)
            if best_kind == G_ENTER:
                i = find_kind(actions, n, A_ENTER_SITE)
                if i >= 0:
                    return i
            if best_kind == G_INTERACT:
                i = find_kind(actions, n, A_INTERACT)
                if i >= 0:
                    return i
            return self.end_of_move(eng, actions, n, wounds)
        step = first_step(gs, prev, here, best_h)
        if step < 0:
            return self.end_of_move(eng, actions, n, wounds)
        c = move_cost(gs, st, gs.hexes[here].neighbour[step])
        if best_kind == G_APPROACH:
            # never into the goal itself with the hand spent on Move (an assault, 9.4.1), and
            # only steps the hand can pay
            if gs.hexes[here].neighbour[step] == best_h or c < 0 or mp + pot < c:
                return self.end_of_move(eng, actions, n, wounds)
            if mp >= c:
                for i in range(n):
                    if actions[i] == (A_MOVE << ACTION_SHIFT | step):
                        return i
            return self.play_for_move(eng, actions, n, 0.0, wounds)
        if c >= 0 and hero_blocks(gs, es, gs.hexes[here].neighbour[step], gs.current) and \
                c + step_off_cost(gs, st, es, gs.hexes[here].neighbour[step], gs.current) > mp + pot:
            # passing another hero is free (9.5.1) but stopping there is not (9.7.1, 13.2)
            return self.end_of_move(eng, actions, n, wounds)
        if c >= 0 and mp >= c:
            i = find_kind(actions, n, A_MOVE)
            for i in range(n):
                if actions[i] == (A_MOVE << ACTION_SHIFT | step):
                    return i
        if conquest and (c < 0 or mp + pot < c):
            return self.end_of_move(eng, actions, n, wounds)     # the next step is out of reach: keep the cards
        i = self.play_for_move(eng, actions, n, 0.6 if best_kind != G_EXPLORE else 0.0, wounds)
        if i >= 0 and kind_of(actions[i]) != A_END_TURN:
            return i
        if conquest and dist[best_h] <= mp + pot:
            # the goal was planned with these cards paying the Move (move_exclusion): Move
            # already played would be lost at the end of the turn
            i = self.play_for_move(eng, actions, n, 0.0, wounds)
            if i >= 0 and kind_of(actions[i]) != A_END_TURN:
                return i
        return self.end_of_move(eng, actions, n, wounds)

    cdef bint on_trail(self, int h) noexcept nogil:
        """Whether the hero has stood on space ``h`` this turn (``trail``)."""
        cdef int i
        for i in range(self.n_trail):
            if self.trail[i] == h:
                return True
        return False

    cdef double move_cost_penalty(self, int extra, double pot) noexcept nogil:
        """Cards spent on Move beyond the points already in the pool (about 2 per card);
        no more than the hand can give this turn (a far goal costs this turn's cards, the
        rest is paid from the next hand)."""
        if extra <= 0:
            return 0
        if extra > pot:
            return 0.15 * pot
        return 0.15 * extra

    cdef void move_exclusion(self, const GameState* gs, const EngineStatics* es, int extra, int* excluded) noexcept nogil:
        """Mark the hand cards that would pay ``extra`` Move (those worth most for Move per
        worth in a fight), so a fight plan does not count them."""
        cdef const Player* pl = &gs.players[gs.current]
        cdef Weights w
        cdef int i, best
        cdef double got = 0, v, bv
        w_zero(&w)
        w.move = 1
        for i in range(64):
            excluded[i] = 0
        while got < extra:
            best = -1
            bv = -1e9
            for i in range(pl.n_hand):
                if excluded[i] or pl.hand[i] == es.wound or i >= 64:
                    continue
                v = card_best(gs, es, pl.hand[i], &w, 1) - 0.5 * card_keep_value(gs, es, pl.hand[i])
                if v > bv:
                    bv = v
                    best = i
            if best < 0:
                break
            excluded[best] = 1
            got += card_best(gs, es, pl.hand[best], &w, 1)

    cdef int site_goal_kind(self, Engine eng, int site) noexcept nogil:
        cdef const EngineStatics* es = &eng.es
        if site == es.sites.keep or site == es.sites.mage_tower or site == es.sites.city:
            return G_ASSAULT
        if site == es.sites.village or site == es.sites.monastery:
            return G_INTERACT
        return G_ENTER

    cdef double site_score(self, Engine eng, int h, int site, int d, int mp, double pot, int wounds,
                           Foe* foes, int* excluded) noexcept nogil:
        """Worth of going to site ``site`` on hex ``h`` this turn (-1e9: not worth it)."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Statics* st = &eng.core.st
        cdef const Player* pl = &gs.players[gs.current]
        cdef const Hex* hx = &gs.hexes[h]
        cdef int nf = 0, kills = 0, wt = 0, free_slots = 0, i, u, cheapest = INF, c, fortified, units_ok
        cdef int hmask = 0, hused = 0
        cdef double v, infl, pw = 0
        cdef Weights w
        if site == es.sites.city and conquest_mode(es):
            return self.city_assault_score(eng, h, d, mp, pot, foes, excluded)
        if site == es.sites.keep or site == es.sites.mage_tower or (site == es.sites.city and not es.city_closed):
            # 11.1.3 assault: the garrison defends the fortified site (11.10); Reputation -1 (10.4).
            # A city may be worn down over several assaults (11.12.2: a Shield per defender
            # defeated), so there one defeated defender is enough; its defender bonuses
            # (11.13.1) are not modelled.
            if hx.flags & HEX_CONQUERED or hx.n_tokens == 0 or d == 0:
                return -1e9
            self.move_exclusion(gs, es, d - mp, excluded)
            if not (hx.flags & HEX_TOKENS_REVEALED):
                v = self.unknown_fight(gs, es, token_colour(gs, st, hx.tokens[0]), hx.n_tokens, 1, excluded, 1, &pw)
                if pw < 0.6:
                    return -1e9
            else:
                nf = hex_foes(self, gs, st, h, 1, foes, 0)
                sort_foes(foes, nf)
                v = fight_plan(self, gs, es, st, foes, nf, excluded, 1, &kills, &wt)
                if kills < (1 if site == es.sites.city else nf):
                    return -1e9                              # a keep / tower falls only with all its defenders
            v = self.p.site_weight * (v + 1.0) - 0.5 - self.move_cost_penalty(d - mp, pot)
            return v if v > self.p.fight_threshold else -1e9
        if site == es.sites.dungeon or site == es.sites.tomb or site == es.sites.monster_den or \
                site == es.sites.spawning_grounds:
            if not enterable_here(gs, es, h):
                return -1e9
            self.move_exclusion(gs, es, d - mp, excluded)
            # dungeons and tombs are fought under night rules without Units (10.7.5, 10.7.6)
            units_ok = 0 if site == es.sites.dungeon or site == es.sites.tomb else 1
            if hx.n_tokens > 0 and (hx.flags & HEX_TOKENS_REVEALED):
                nf = hex_foes(self, gs, st, h, 0, foes, 0)
                v = fight_plan(self, gs, es, st, foes, nf, excluded, units_ok, &kills, &wt)
                if kills < nf:
                    return -1e9
            else:
                # 10.7.5-10.7.9: enemies drawn on entering: brown (dungeon, den, spawning
                # grounds: two) or red (tomb) tokens, valued over their colour's token mix
                v = self.unknown_fight(gs, es, 4 if site == es.sites.tomb else 3,
                                       2 if site == es.sites.spawning_grounds else 1, 0, excluded, units_ok, &pw)
                if pw < 0.6:
                    return -1e9
            v = self.p.adventure_weight * (v + 1.5) - self.move_cost_penalty(d - mp, pot)
            return v if v > self.p.fight_threshold else -1e9
        if site == es.sites.village or site == es.sites.monastery:
            if hx.flags & HEX_BURNED:
                return -1e9
            w_zero(&w)
            w.influence = 1
            self.move_exclusion(gs, es, d - mp, excluded)
            infl = hand_potential(gs, es, &w, 0, excluded) + rep_modifier(gs, es)
            v = 0
            if wounds > 0 or (self.p.unit_heal > 0 and conquest_mode(es) and unit_heal_points(gs, es) > 0):
                # 10.5: Healing 3 (village) / 2 (monastery) Influence a point, for the Wounds
                # in hand and the wounded Units (heal_plan, 12.3.3)
                c = es.units.heal_village if site == es.sites.village else es.units.heal_monastery
                if c > 0 and infl >= c:
                    v = self.heal_plan(eng, <int>(infl / c), wounds, &hmask, &hused)
            for i in range(MAX_UNITS):
                if pl.units[i].card < 0 and i < pl.command_tokens:
                    free_slots += 1
            if free_slots > 0:
                for i in range(gs.n_unit_offer):
                    u = gs.unit_offer[i]
                    if u < 0:
                        continue
                    if not (es.units.table[u * es.units.stride + es.units.sites] >> site) & 1:
                        continue
                    c = es.units.table[u * es.units.stride + es.units.cost]
                    if c <= infl:
                        v = dmax(v, self.unit_worth(es, st, u, gs.time))
            if site == es.sites.monastery and infl >= es.units.aa_cost:
                for i in range(gs.n_unit_offer):                 # 10.7.2.2: only an AA lying in the offer
                    if gs.unit_offer[i] < 0:
                        v = dmax(v, self.card_worth(gs, es, -gs.unit_offer[i] - 1))
            v *= later_use(gs, es)
            if v <= 0.3:
                return -1e9
            return v - self.move_cost_penalty(d - mp, pot)
        return -1e9

    cdef int approach_goal(self, Engine eng, int mp, double pot, int* dist, Foe* foes, int* excluded) noexcept nogil:
        """Solo Conquest, a turn with no goal in reach: the hex of the site worth most to the
        hand in hand (the guess of a later turn's hand: site_score with no card spent on
        Move, so also a site in reach that the hand left after paying the way could not take)
        times ``approach_weight``, less 0.05 per Move point of the way; -1 if none is worth
        more than 0."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef int h, d, site, best = -1, wounds = count_wounds(gs, es)
        cdef double score, bv = 0
        for h in range(gs.n_hexes):
            d = dist[h]
            site = gs.hexes[h].site
            if d >= INF or d == 0 or site < 0 or hero_blocks(gs, es, h, gs.current):
                continue
            score = self.site_score(eng, h, site, d, d, pot, wounds, foes, excluded)
            if score <= -1e8:
                continue
            score = self.p.approach_weight * score - 0.05 * d
            if score > bv:
                bv = score
                best = h
        return best

    cdef inline double heal_w(self, const EngineStatics* es) noexcept nogil:
        """Worth of a Wound healed: in Solo Conquest ``conquest_heal`` times more (each Wound
        card owned at the end costs 2 points, 20.2 Greatest Beating via 20.5.1, and Wounds in
        hand idle the turns of a six-round build-up)."""
        return self.p.heal_weight * (self.p.conquest_heal if conquest_mode(es) else 1.0)

    cdef inline double recruit_w(self, const EngineStatics* es) noexcept nogil:
        """Worth of a Unit level recruited: in Solo Conquest ``conquest_recruit`` times more
        (the Units take a city garrison's blows, 11.7.3, and score as Greatest Leader, 20.2)."""
        return self.p.recruit_weight * (self.p.conquest_recruit if conquest_mode(es) else 1.0)

    cdef double unit_worth(self, const EngineStatics* es, const Statics* st, int u, int time) noexcept nogil:
        """Worth of recruiting Unit ``u``: ``recruit_w`` per level-equivalent plus 0.5.  With
        ``buy_value`` b the level L is replaced by (1 - b) L + b S / UNIT_POWER_PER_LEVEL,
        S the Unit's strength: its best ability under buy_w (x 0.7 if it needs mana, 7.3.3)
        + 0.3 x the second best, + 0.25 per Armor point (7.1, 11.7.3) + 0.5 per resistance
        (11.9)."""
        cdef double lv = es.units.table[u * es.units.stride + es.units.level]
        cdef double v, b1 = 0, b2 = 0, power, b = self.p.buy_value if conquest_mode(es) else 0.0
        cdef int k, na, first, res
        if b > 0:
            na = es.units.table[u * es.units.stride + es.units.n_abilities]
            first = es.units.table[u * es.units.stride + es.units.first_ability]
            for k in range(na):
                v = row_value(es, unit_ability_row(es, u, k), &buy_w, time, 0)
                if es.units.ability[(first + k) * es.units.ability_stride + 1] >= 0:
                    v *= 0.7
                if v > b1:
                    b2 = b1
                    b1 = v
                elif v > b2:
                    b2 = v
            res = tv(st.units.data, st.units.width, u, st.cols.unit_resistances)
            power = b1 + 0.3 * b2 + 0.25 * tv(st.units.data, st.units.width, u, st.cols.unit_armor)
            while res:
                power += 0.5 * (res & 1)
                res >>= 1
            lv = (1 - b) * lv + b * power / c_unit_power_per_level
        return self.recruit_w(es) * lv + 0.5

    cdef double card_worth(self, const GameState* gs, const EngineStatics* es, int card) noexcept nogil:
        """Worth of an Advanced Action / Spell bought: ``learn_weight`` times (1 + b x 0.25 x
        (P / CARD_POWER_REF - 1), the last factor clipped to [-1, 1]) with ``buy_value`` b and
        P the card's strength (its basic effect or 0.7 x its powered one under buy_w, 6.1, plus
        0.5 x its Move); an unknown card (the top of the deck, -1) is worth ``learn_weight``.
        Many cards are named effects the valuation does not model (Mana Bolt, Learning), so
        P only ranks the cards and moves their worth by at most a quarter."""
        cdef double p, r, b = self.p.buy_value if conquest_mode(es) else 0.0
        if b <= 0 or card < 0:
            return self.p.learn_weight
        p = dmax(row_value(es, card_row(es, card, 0), &buy_w, gs.time, 0),
                 0.7 * row_value(es, card_row(es, card, 1), &buy_w, gs.time, 0)) \
            + 0.5 * row_value(es, card_row(es, card, 0), &self_move_w, gs.time, 0)
        r = p / c_card_power_ref - 1
        r = 1.0 if r > 1 else (-1.0 if r < -1 else r)
        return self.p.learn_weight * (1 + b * 0.25 * r)

    cdef int plan_buys(self, Engine eng, const int32_t* actions, int n, double budget, int* need_more) noexcept nogil:
        """The purchases of this interaction worth most on ``budget`` Influence (10.5-10.7):
        up to two items -- offer Units recruitable here with a free Command token each (10.6,
        7.2.1; never a disband), the monastery's AAs (10.7.2.2), Spells (10.7.4.3, a mana of
        their colour payable, 21.2 A26), the green city's AAs (10.10) -- and the Healing the
        rest buys (10.5, up to the Wounds held), less ``buy_card_cost`` per card the hand
        must play for it (its largest Influence first: a card played is not held for the next
        turn, 13.7).  Returns the legal action of the planned item worth most that is
        affordable now (Healing only after the items); -1 with ``need_more`` = 1 when the
        plan needs more Influence first, 0 when nothing is worth buying."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Statics* st = &eng.core.st
        cdef const Player* pl = &gs.players[gs.current]
        cdef int site = interaction_site(gs, es, gs.current), colour = interaction_city(gs, es, gs.current)
        cdef int infl = gs.turn.influence, wounds = count_wounds(gs, es)
        cdef int o_cost[MAX_BUY_OPTS]
        cdef int o_act[MAX_BUY_OPTS]
        cdef int o_unit[MAX_BUY_OPTS]
        cdef double o_val[MAX_BUY_OPTS]
        cdef int no = 0, k, i, j, a, u, c, card, free_slots = 0, hp, hact, pts, total, bi = -1, bj = -1, bh = 0, nh = 0, m
        cdef int hneed, hmask = 0, hused = 0
        cdef double v, bv = 0, t, got
        cdef double hinf[64]
        cdef Weights w
        need_more[0] = 0
        w_zero(&w)
        w.influence = 1
        for k in range(pl.n_hand):                           # the hand's Influence per card, largest first
            if nh < 64:
                hinf[nh] = card_best(gs, es, pl.hand[k], &w, 1, 1)
                j = nh
                nh += 1
                while j > 0 and hinf[j - 1] < hinf[j]:
                    t = hinf[j - 1]; hinf[j - 1] = hinf[j]; hinf[j] = t
                    j -= 1
        for k in range(MAX_UNITS):
            if pl.units[k].card < 0 and k < pl.command_tokens:
                free_slots += 1
        for k in range(gs.n_unit_offer):
            if no >= MAX_BUY_OPTS:
                break
            u = gs.unit_offer[k]
            a = -1
            if u >= 0:                                       # 10.6: a Unit
                if free_slots == 0 or mod_has(&gs.turn, MK_NO_RECRUIT) or not can_recruit(es, u, site, colour):
                    continue
                c = recruit_price(es, u, site) - mod_sum(&gs.turn, MK_RECRUIT_DISCOUNT)
                for i in range(n):
                    if kind_of(actions[i]) == A_RECRUIT and (arg_of(actions[i]) & 0xF) == k and \
                            not ((arg_of(actions[i]) >> 4) & 0xF):
                        a = i
                        break
                if a < 0 and c <= infl:
                    continue                                 # not recruitable for another reason
                o_val[no] = self.unit_worth(es, st, u, gs.time)
                o_unit[no] = 1
            elif site == es.sites.monastery:                 # 10.7.2.2: an AA of the offer
                c = es.units.aa_cost
                for i in range(n):
                    if kind_of(actions[i]) == A_BUY_AA and arg_of(actions[i]) == k:
                        a = i
                        break
                o_val[no] = self.card_worth(gs, es, -u - 1)
                o_unit[no] = 0
            else:
                continue
            o_cost[no] = c if c > 0 else 0
            o_act[no] = a
            no += 1
        c = spell_price(es, site, colour)
        if c > 0:
            for k in range(3):
                card = gs.spell_offer[k]
                if card < 0 or no >= MAX_BUY_OPTS:
                    continue
                a = -1
                for i in range(n):
                    if kind_of(actions[i]) == A_BUY_SPELL and (arg_of(actions[i]) & 3) == k:
                        a = i
                        break
                if a < 0 and (c <= infl or not colour_payable(gs, es.card_colour[card * es.card_stride])):
                    continue
                o_cost[no] = c; o_act[no] = a; o_unit[no] = 0
                o_val[no] = self.card_worth(gs, es, card)
                no += 1
        c = es.units.city_aa_cost[colour] if colour >= 0 else 0
        if c > 0:                                            # 10.10 green: 3 = the deck's top card
            for k in range(4):
                card = gs.aa_offer[k] if k < 3 else -1
                if (k < 3 and card < 0) or (k == 3 and gs.n_aa_deck == 0) or no >= MAX_BUY_OPTS:
                    continue
                a = -1
                for i in range(n):
                    if kind_of(actions[i]) == A_BUY_CITY_AA and arg_of(actions[i]) == k:
                        a = i
                        break
                o_cost[no] = c; o_act[no] = a; o_unit[no] = 0
                o_val[no] = self.card_worth(gs, es, card)
                no += 1
        hneed = wounds + (unit_heal_points(gs, es) if self.p.unit_heal > 0 else 0)
        hp = heal_price(es, site) if hneed > 0 else -1
        hact = find_kind(actions, n, A_BUY_HEALING)
        for i in range(-1, no):
            for j in range(i + 1 if i >= 0 else no, no + 1):   # i = -1: no item; j = no: no second
                total = (o_cost[i] if i >= 0 else 0) + (o_cost[j] if j < no else 0)
                if total > budget or (i >= 0 and j < no and o_unit[i] + o_unit[j] > free_slots):
                    continue
                v = (o_val[i] if i >= 0 else 0) + (o_val[j] if j < no else 0)
                pts = 0
                if hp > 0:
                    # the Healing it buys, with the points bought already (12.3.3: heal_plan)
                    pts = <int>((budget - total) / hp)
                    if pts > hneed:
                        pts = hneed
                    v += self.heal_plan(eng, pts + gs.turn.healing, wounds, &hmask, &hused)
                    pts = hused - gs.turn.healing if hused > gs.turn.healing else 0
                    total += pts * hp
                if total > infl:                             # the cards to play for it
                    got = infl
                    m = 0
                    while got < total and m < nh:
                        got += hinf[m]
                        m += 1
                    v -= self.p.buy_card_cost * m
                if v > bv:
                    bv = v; bi = i; bj = j if j < no else -1; bh = pts
        if bi >= 0 and bj >= 0 and o_act[bj] >= 0 and (o_act[bi] < 0 or o_val[bj] > o_val[bi]):
            return o_act[bj]
        if bi >= 0 and o_act[bi] >= 0:
            return o_act[bi]
        if bi >= 0 or bj >= 0:
            need_more[0] = 1
            return -1
        if bh > 0:
            if hact >= 0:
                return hact
            need_more[0] = 1
        return -1

    cdef double city_assault_score(self, Engine eng, int h, int d, int mp, double pot, Foe* foes,
                                   int* excluded) noexcept nogil:
        """Worth of assaulting the city on hex ``h`` now (Solo Conquest; -1e9: not worth it).

        The plan fights the whole garrison (city_foes: fortified, 11.13.1 bonuses, face-down
        tokens as their colour's average) with the hand left after the Move to get there and the
        ready Units.  A partial assault counts (11.12.2: a Shield per defender defeated, the
        survivors stay for the next assault, 11.12.4), so one defeated defender is enough: each
        is worth its Fame (in the plan) plus ``city_weight``; defeating them all conquers the
        city, worth its +10 (and +15 for the last city, 20.5.2).  Reputation -1 per assault
        (10.4, 11.13.2)."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Statics* st = &eng.core.st
        cdef const Hex* hx = &gs.hexes[h]
        cdef int nf, kills = 0, wt = 0, revealed = 0, n_open
        cdef double v
        if hx.flags & HEX_CONQUERED or hx.n_tokens == 0 or d == 0:
            return -1e9
        self.move_exclusion(gs, es, d - mp, excluded)
        nf = city_foes(self, gs, st, h, foes)
        sort_foes(foes, nf)
        v = fight_plan(self, gs, es, st, foes, nf, excluded, 1, &kills, &wt)
        if kills <= 0:
            return -1e9
        v += self.p.city_weight * kills
        if kills >= nf:
            n_open = cities_open(gs, es, &revealed)
            v += self.p.aggression * (10 + (15 if n_open <= 1 and revealed >= st.n_city_levels else 0))
        v = v - 0.5 - self.move_cost_penalty(d - mp, pot)
        return v if v > self.p.fight_threshold else -1e9

    cdef double siege_score(self, Engine eng, int h, const unsigned char* ready) noexcept nogil:
        """Worth of ending the turn on hex ``h`` for the sake of a city assault next turn (Solo
        Conquest): ``h`` is next to an unconquered city that the hand and Units could hurt
        (``ready[city hex]``: city_ready) and the round is ``siege_round`` or later;
        ``siege_weight`` per round from then on (the round limit, 17.3.4, comes nearer), less a
        little per city level (the lower city first).  0 if ``h`` is no such space."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef int k, nb, best_level = 99
        if gs.round < self.p.siege_round or gs.hexes[h].site == es.city_site:
            return 0
        for k in range(6):
            nb = gs.hexes[h].neighbour[k]
            if nb >= 0 and ready[nb]:
                if gs.hexes[nb].city_level < best_level:
                    best_level = gs.hexes[nb].city_level
        if best_level == 99:
            return 0
        return self.p.siege_weight * (1 + gs.round - self.p.siege_round) - 0.05 * best_level

    cdef int city_ready(self, Engine eng, unsigned char* ready) noexcept nogil:
        """Mark in ``ready`` (per hex) the unconquered cities whose garrison the whole hand and
        the Units could defeat at least one defender of now (fight_plan on city_foes, no card
        spent on Move): the hand in hand is the policy's guess of the next turn's hand.
        Returns how many are marked."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Statics* st = &eng.core.st
        cdef Foe foes[H_MAX_FOES]
        cdef int h, nf, kills, wt, m = 0
        for h in range(gs.n_hexes):
            ready[h] = 0
            if gs.hexes[h].site != es.city_site or gs.hexes[h].city_level <= 0 or \
                    gs.hexes[h].flags & HEX_CONQUERED or gs.hexes[h].n_tokens == 0:
                continue
            nf = city_foes(self, gs, st, h, foes)
            sort_foes(foes, nf)
            kills = 0
            fight_plan(self, gs, es, st, foes, nf, NULL, 1, &kills, &wt)
            if kills > 0:
                ready[h] = 1
                m += 1
        return m

    cdef void reset_caches(self) noexcept nogil:
        """Forget the per-decision values (the hand or the Units changed)."""
        cdef int r, m
        for r in range(8):
            for m in range(3):
                self.rv_att_ok[r][m] = 0
        for r in range(4):
            self.rv_blk_ok[r] = 0
        self.uf_n = 0

    cdef double* att_values(self, const GameState* gs, const EngineStatics* es, int res, int mode) noexcept nogil:
        """Basic / sideways Attack worth of each hand card and ready Unit against resistances
        ``res``; mode 0 Attack phase, 1 Ranged phase, 2 Ranged phase against a fortified
        enemy (Siege only, 11.5.3)."""
        cdef const Player* pl = &gs.players[gs.current]
        cdef Weights w
        cdef int i
        cdef double* out = self.rv_att[res][mode]
        if not self.rv_att_ok[res][mode]:
            w_attack(&w, res, 1 if mode > 0 else 0, 1 if mode == 2 else 0)
            for i in range(pl.n_hand if pl.n_hand < H_MAX_RES else H_MAX_RES):
                out[i] = card_best(gs, es, pl.hand[i], &w, 1 if mode == 0 else 0, 0)
            if self.p.mana_check > 0:
                self.mana_limit(gs, es, &w, out, w.att[0][0] if mode == 0 else 0.0)
            for i in range(MAX_UNITS):
                out[H_MAX_RES + H_RES_UNIT + i] = unit_best(gs, es, i, &w)
            for i in range(MAX_SKILLS):
                out[H_MAX_RES + H_RES_SKILL + i] = skill_best(gs, es, i, &w)
            self.rv_att_ok[res][mode] = 1
        return out

    cdef double* blk_values(self, const GameState* gs, const EngineStatics* es, int el) noexcept nogil:
        """Basic / sideways Block worth of each hand card and ready Unit against an attack of
        element ``el`` (11.9.3)."""
        cdef const Player* pl = &gs.players[gs.current]
        cdef Weights w
        cdef int i
        cdef double* out = self.rv_blk[el]
        if not self.rv_blk_ok[el]:
            w_block(&w, el)
            for i in range(pl.n_hand if pl.n_hand < H_MAX_RES else H_MAX_RES):
                out[i] = card_best(gs, es, pl.hand[i], &w, 1, 0)
            if self.p.mana_check > 0:
                self.mana_limit(gs, es, &w, out, w.blk[0])
            for i in range(MAX_UNITS):
                out[H_MAX_RES + H_RES_UNIT + i] = unit_best(gs, es, i, &w)
            for i in range(MAX_SKILLS):
                out[H_MAX_RES + H_RES_SKILL + i] = skill_best(gs, es, i, &w)
            self.rv_blk_ok[el] = 1
        return out

    cdef int resisted_pool(self, const GameState* gs, const Statics* st, int slot) noexcept nogil:
        """The attack points played so far (all kinds) that enemy ``slot`` resists (11.9.2:
        physical, fire, ice; Cold Fire only against both fire and ice)."""
        cdef int res = tv(st.enemies.data, st.enemies.width, gs.combat.enemies[slot].enemy, st.cols.enemy_resistances)
        cdef int k, total = 0
        for k in range(3):
            if res & RES_PHYSICAL:
                total += gs.combat.attack[k][<int>PHYSICAL]
            if res & RES_FIRE:
                total += gs.combat.attack[k][<int>FIRE]
            if res & RES_ICE:
                total += gs.combat.attack[k][<int>ICE]
            if (res & RES_FIRE) and (res & RES_ICE):
                total += gs.combat.attack[k][<int>COLDFIRE]
        return total

    cdef bint basic_needs_mana(self, const EngineStatics* es, int card) noexcept nogil:
        """Does the basic effect of ``card`` need a mana paid: a Spell (its basic effect is
        powered by a mana of its colour, 7.x spells) or a card whose effect is bought with a
        mana by colour (Pure Magic, Mana Bolt: ``pay_mana_by_colour``)?"""
        cdef int row
        cdef const int32_t* r
        if card < 0 or card == es.wound:
            return False
        if es.card_deck[card * es.card_stride] == DECK_SPELL:
            return True
        row = es.card_basic[card * es.card_stride]
        if self.h_pay_mana < 0 or row <= 0 or row >= es.effects.rows:
            return False
        r = es.effects.data + row * es.effects.width
        return r[0] == OP_HANDLER and r[1] == self.h_pay_mana

    cdef void mana_limit(self, const GameState* gs, const EngineStatics* es, const Weights* w, double* out,
                         double side) noexcept nogil:
        """Solo Conquest fight plans: a hand card whose basic effect needs a mana
        (basic_needs_mana) counts only as its sideways worth ``side`` (6.1.7) when that mana
        cannot be paid -- a Spell's colour not payable, Pure Magic / Mana Bolt valued by the
        option of a colour that can be paid (the colour paid picks the effect), and no more
        such cards than the mana at hand (a token, a crystal or the turn's one usable Source
        die each, 5.5.2): the ones worth most keep their worth.  Without this the plan
        counted Pure Magic or a Spell as free and took fights its hand could not win."""
        cdef const Player* pl = &gs.players[gs.current]
        cdef int idx[H_MAX_RES]
        cdef int i, j, t, n = 0, card, c, row
        cdef const int32_t* r
        cdef const int32_t* a
        cdef double v
        # the mana at hand, the Source die only if a free die gives a basic colour (mana_budget
        # alone also counts a die that cannot power these cards: black by Day)
        cdef int budget = mana_budget_of(gs, 1)
        for i in range(pl.n_hand if pl.n_hand < H_MAX_RES else H_MAX_RES):
            card = pl.hand[i]
            if out[i] <= side or not self.basic_needs_mana(es, card):
                continue
            if es.card_deck[card * es.card_stride] == DECK_SPELL and \
                    not colour_payable(gs, es.card_colour[card * es.card_stride]):
                out[i] = side
                continue
            row = es.card_basic[card * es.card_stride]
            r = es.effects.data + row * es.effects.width
            if r[0] == OP_HANDLER and r[1] == self.h_pay_mana:
                # the colour paid picks the effect (a[colour], _fx_advanced): the best one
                # whose colour can be paid now
                a = row_args(es, row)
                v = side
                for c in range(4):
                    if colour_payable(gs, c):
                        v = dmax(v, row_value(es, a[c], w, gs.time, 1))
                out[i] = v
                if v <= side:
                    continue
            j = n                                            # sorted by worth, largest first
            idx[n] = i
            n += 1
            while j > 0 and out[idx[j - 1]] < out[idx[j]]:
                t = idx[j - 1]; idx[j - 1] = idx[j]; idx[j] = t
                j -= 1
        for j in range(budget, n):
            out[idx[j]] = side

    cdef double mana_overcount(self, const GameState* gs, const EngineStatics* es, const Weights* w, int sideways_ok,
                               const int* excluded) noexcept nogil:
        """How much hand_potential under ``w`` overcounts the hand (minus
        ``excluded``) by valuing the basic effects that need a mana which cannot be paid
        (mana_limit) -- so that a block or an attack is not built with cards that cannot
        give it (6.1.7: they would only go sideways)."""
        cdef const Player* pl = &gs.players[gs.current]
        cdef double vals[H_MAX_RES]
        cdef double basic[H_MAX_RES]
        cdef double side = 0, over = 0
        cdef int i, nh = pl.n_hand if pl.n_hand < H_MAX_RES else H_MAX_RES
        if self.p.mana_check <= 0:
            return 0
        if sideways_ok:
            side = dmax(dmax(w.move, w.influence), dmax(w.att[0][0], w.blk[0]))
        for i in range(nh):
            basic[i] = 0 if (excluded != NULL and excluded[i]) else card_best(gs, es, pl.hand[i], w, sideways_ok, 0)
            vals[i] = basic[i]
        self.mana_limit(gs, es, w, vals, side)
        for i in range(nh):
            over += basic[i] - vals[i]
        return over

    cdef double unknown_fight(self, const GameState* gs, const EngineStatics* es, int colour, int count,
                              int fortified, const int* excluded, int units_ok, double* p_win) noexcept nogil:
        """Expected worth of fighting ``count`` face-down tokens of ``colour``: the plan
        against each enemy of that colour's token mix (public, 1.2.2) weighted by its
        copies; ``p_win`` receives the chance that the plan defeats them all.  (It does not
        read which token lies there.)"""
        cdef const Statics* st = es.st
        cdef Foe foes[H_MAX_FOES]
        cdef int t, k, kills, wt, total = 0, extra = 0
        cdef double ev = 0, pw = 0, v
        cdef long long key
        if colour < 0 or colour >= 6 or self.n_pile_type[colour] == 0:
            p_win[0] = 0
            return -1e9
        if excluded != NULL:
            for t in range(64):
                if excluded[t]:
                    extra |= 1 << t if t < 30 else 0
        key = ((((<long long>extra * 8 + colour) * 8 + count) * 2 + fortified) * 2 + units_ok)
        for t in range(self.uf_n):
            if self.uf_key[t] == key:
                p_win[0] = self.uf_pw[t]
                return self.uf_ev[t]
        if count > H_MAX_FOES:
            count = H_MAX_FOES
        for t in range(self.n_pile_type[colour]):
            total += self.pile_copies[colour][t]
        for t in range(self.n_pile_type[colour]):
            foe_from_enemy(st, self.pile_type[colour][t], &foes[0])
            if fortified:
                foes[0].fortified = 1
            for k in range(1, count):
                foes[k] = foes[0]
            v = fight_plan(self, gs, es, st, foes, count, excluded, units_ok, &kills, &wt)
            ev += v * self.pile_copies[colour][t] / total
            if kills >= count:
                pw += <double>self.pile_copies[colour][t] / total
        p_win[0] = pw
        if self.uf_n < 16:
            self.uf_key[self.uf_n] = key
            self.uf_ev[self.uf_n] = ev
            self.uf_pw[self.uf_n] = pw
            self.uf_n += 1
        return ev

    cdef int pick_challenge(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """11.1.5: the challenge (set of adjacent rampaging spaces) with the best plan."""
        cdef GameState* gs = &eng.core.gs
        cdef const EngineStatics* es = &eng.es
        cdef const Statics* st = &eng.core.st
        cdef Foe foes[H_MAX_FOES]
        cdef int i, k, nf, mask, best = -1, kills, wt, here = gs.players[gs.current].position, nb
        cdef double v, bv = -1e9
        self.reset_caches()
        for i in range(n):
            if kind_of(actions[i]) != A_CHALLENGE:
                continue
            mask = arg_of(actions[i])
            nf = 0
            for k in range(6):
                if (mask >> k) & 1:
                    nb = gs.hexes[here].neighbour[k]
                    if nb >= 0:
                        nf = hex_foes(self, gs, st, nb, 0, foes, nf)
            sort_foes(foes, nf)
            v = fight_plan(self, gs, es, st, foes, nf, NULL, 1, &kills, &wt)
            if kills > 0 and v > bv:
                bv = v
                best = i
        if best >= 0 and bv > self.p.fight_threshold:
            return best
        return self.end_of_move(eng, actions, n, count_wounds(gs, es))

    cdef int play_for_move(self, Engine eng, const int32_t* actions, int n, double keep, int wounds) noexcept nogil:
        """Play the card worth most as Move (minus ``keep`` times its worth in a fight)."""
        cdef GameState* gs = &eng.core.gs
        cdef Weights w
        cdef int i
        w_zero(&w)
        w.move = 1
        w.heal = 0.9 if wounds > 0 or self.unit_heal_reachable(eng) else 0
        i = best_play(gs, &eng.es, actions, n, &w, keep, 0.4)
        if i >= 0:
            return i
        return self.end_of_move(eng, actions, n, wounds)

    cdef int end_of_move(self, Engine eng, const int32_t* actions, int n, int wounds) noexcept nogil:
        """Nothing more to reach this turn: heal Wounds with cards that give Healing (12.3),
        then end the turn (4.6)."""
        cdef GameState* gs = &eng.core.gs
        cdef Weights w
        cdef int i
        if gs.phase == PH_MOVE and not gs.combat.active and \
                hero_blocks(gs, &eng.es, gs.players[gs.current].position, gs.current):
            i = self.step_off(eng, actions, n)
            if i >= 0:
                return i
        if wounds > 0 or self.unit_heal_reachable(eng):
            w_zero(&w)
            w.heal = 1
            i = best_play(gs, &eng.es, actions, n, &w, 0.3, 0.5)
            if i >= 0:
                return i
        i = find_kind(actions, n, A_END_TURN)
        return i if i >= 0 else 0

    cdef bint unit_heal_reachable(self, Engine eng) noexcept nogil:
        """A wounded Unit whose level (12.3.3) the turn's Healing points and the hand's Healing
        could pay (with ``unit_heal`` > 0): then Healing cards are worth playing at the end
        of the move even with no Wound in hand."""
        cdef GameState* gs = &eng.core.gs
        cdef const Player* pl = &gs.players[gs.current]
        cdef Weights w
        cdef int k, lo = INF
        if self.p.unit_heal <= 0:
            return False
        for k in range(MAX_UNITS):
            if pl.units[k].card >= 0 and pl.units[k].wounds > 0 and unit_level(&eng.es, pl.units[k].card) < lo:
                lo = unit_level(&eng.es, pl.units[k].card)
        if lo == INF:
            return False
        if gs.turn.healing >= lo:
            return True
        w_zero(&w)
        w.heal = 1
        return gs.turn.healing + hand_potential(gs, &eng.es, &w, 1, NULL) >= lo

    cdef int step_off(self, Engine eng, const int32_t* actions, int n) noexcept nogil:
        """On another hero's space at the end of the move (9.7.1): the cheapest legal step to
        an adjacent safe space that provokes nobody, else a card played for the Move such a
        step needs; -1 when neither (Forced Withdrawal follows, 13.2)."""
        cdef GameState* gs = &eng.core.gs
        cdef const Statics* st = &eng.core.st
        cdef int i, d, nb, c, best = -1, bc = INF, me = gs.current, here = gs.players[gs.current].position
        cdef Weights w
        for i in range(n):
            if kind_of(actions[i]) != A_MOVE:
                continue
            d = arg_of(actions[i])
            if d < 0 or d >= 6:
                continue
            nb = gs.hexes[here].neighbour[d]
            if nb < 0:
                continue
            c = move_cost(gs, st, nb)
            if c < 0 or c >= bc or not is_safe(gs, st, nb, me) or provokes(gs, st, here, nb):
                continue
            best = i
            bc = c
        if best >= 0:
            return best
        if step_off_cost(gs, st, &eng.es, here, me) >= INF:
            return -1
        w_zero(&w)
        w.move = 1
        return best_play(gs, &eng.es, actions, n, &w, 0.0, 0.4)


cdef double rep_modifier(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """10.2.3: the Influence modifier of the player's Reputation (-99 = no interaction)."""
    cdef int r = gs.players[gs.current].reputation + 7
    cdef int m
    if r < 0:
        r = 0
    if r > 15:
        r = 15
    m = es.units.reputation[r]
    return m if m > -50 else -99


cdef double later_use(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """How much of a lasting gain (a Unit, an AA, a Wound healed) is still to be used: 1 in
    the first round, falling to 0.35 in the last (the scenario's round limit, 17.3) and,
    with several heroes, once the city is revealed (the last turns, 17.3.1, 14.3.2; solo
    play keeps its old reading so that its records stay identical)."""
    if es.rounds <= 1:
        return 1.0
    if gs.round >= es.rounds or (gs.n_players > 1 and gs.final_turns_left > 0):
        return 0.35                  # several heroes: after the end is triggered, one turn each (14.3.2)
    return 0.35 + 0.65 * (es.rounds - gs.round) / (es.rounds - 1.0)


cdef bint monastery_aa_offered(const GameState* gs) noexcept nogil:
    """An Advanced Action lies in the Units offer (a monastery's, 10.7.2.2: ``-(card + 1)``)."""
    cdef int k
    for k in range(gs.n_unit_offer):
        if gs.unit_offer[k] < 0:
            return True
    return False


cdef bint enterable_here(const GameState* gs, const EngineStatics* es, int h) noexcept nogil:
    """An adventure site still worth entering: not conquered yet (10.8; a conquered dungeon
    or tomb gives no Fame again worth the risk)."""
    return not (gs.hexes[h].flags & HEX_CONQUERED)


def _restore_heuristic(seed, game_index, stream, params):
    return HeuristicPolicy(seed, game_index, stream, **params)
