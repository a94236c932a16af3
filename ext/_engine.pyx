# cython: language_level=3
"""The decision loop of the core: rounds, tactics, turns, card play, movement, resting,
the end-of-turn sequence, the dummy player and round preparation.

See ``_engine.pxd`` for the action encoding.  All work on the state is C code on the
GameState struct; :class:`Engine` is the Python face used by :mod:`mksim.game`.
"""
from libc.string cimport memset, memcpy
from libc.stdlib cimport calloc, free
from libc.stdint cimport int32_t, int16_t, int8_t, uint8_t, uint16_t, uint32_t, uint64_t

from mksim._types cimport (Modifier, MAX_MODS, MK_NONE, MK_IGNORE_SITE_FORT, MK_UNIT_ATTACK_BLOCK,
    MK_RECRUIT_DISCOUNT, MK_EXPLORE_DISCOUNT, MK_BLOCKED_ARMOR_ONE, MK_HAND_LIMIT_ENDS_IN, MK_CARD_BONUS, MK_MOVE_BONUS,
    MK_FIRST_ATTACK_BLOCK, MK_ATTACK_CARD_BONUS, MK_UNIT_ABILITY_BONUS, MK_PER_RECRUIT, NUM_MOD_KINDS, MS_NEXT_CARD, MS_PHASE,
    MS_COMBAT, MS_TURN, MS_ROUND, NUM_MOD_SCOPES, MK_WEATHER_OTHERS, MK_MANA_EXPLOIT, MK_EXPLOIT_STRUCK, MK_HOWL_OTHERS, MK_MANA_CURSE)
from mksim._modifiers cimport (mod_sum_others, mod_find_others, mod_find_owned, interactive_turn_start,
    mod_sum_arg, mod_find_arg, mod_add, mod_find, mod_has, mod_sum, mod_remove_at, mod_remove_kind, mod_set,
    mod_expire, event_scope, EV_TURN_START, EV_TURN_END, EV_PHASE_START, EV_PHASE_END, EV_CARD_PLAYED,
    EV_BLOCK_COMMITTED, EV_ATTACK_COMMITTED, EV_DAMAGE_ASSIGNED, EV_COMBAT_END, EV_ROUND_END, NUM_EVENTS)
from mksim._types cimport MK_IGNORE_WOUNDS, MK_NO_UNIT_DAMAGE, MK_NO_SOURCE_DICE, MK_NO_RECRUIT, MK_MANA_ANYTIME, MK_ENDLESS_MANA, MK_DICE_ANY_BASIC, MK_CRYSTAL_RETURN, MK_SPACE_BENDING, MK_PROTECTION, MK_INFLUENCE_BLOCK, MK_REVEAL_DISTANCE, MK_EXPLORE_RANGE, MK_DRAW_PER_HEAL, MK_CURE, MK_ATTACKS_COLDFIRE, MK_ATTACKS_SIEGE, MK_SWORD_FAME, MK_DODGE_ATTACK  # turn / combat-long kinds (issue 12)
from mksim._types cimport MK_TERRAIN_DELTA, MK_TERRAIN_FLOOR  # terrain costs (9.6.2)
from mksim._types cimport (MK_ICON_BLOCK, MK_SWIFT_STRIP, MK_SWIFT_BLOCK, MK_BLOCK_ARMOR, MK_BLOCK_ARMOR_EXCESS,
    MK_WINGS, MK_POSSESS_ATTACK, MK_POSSESSED, MS_BLOCK)  # the Block pool's, Wings of Night, Possess (issue 12)
from mksim._modifiers cimport mod_live_sync, mod_live_of
from mksim._modifiers cimport mod_take, mod_find, mod_has, mod_sum, mod_remove_kind, mod_find_arg, mod_sum_arg, mod_has_arg  # (issue 12)
from mksim._types cimport MK_UNIT_GLORY, MK_OTHER_UNITS_ATTACK, MK_SWORD_DOUBLE, MK_BOW_POWERED, MK_LEARNING, MK_CHIVALRY  # third move (issue 12)
from mksim._types cimport (
    DECK_BASIC, DECK_AA, DECK_SPELL, DECK_ARTIFACT, DECK_WOUND, COLOURLESS,
    GameState, Player, Dummy, Hex, TurnState, deeds_rng, MAX_PLAYERS, MAX_DECK_CARDS, MAX_HAND_CARDS, MAX_DISCARD_CARDS, MAX_PLAY_CARDS, MAX_DUMMY_CARDS, MAX_DICE, MAX_PATH,
    MAX_SKILLS, MAX_DECK, MAX_OFFER,
    RED, BLUE, WHITE, GREEN, GOLD, BLACK, NUM_COLOURS, NUM_TERRAINS, DAY, NIGHT,
    PH_TACTICS, PH_TURN_START, PH_MOVE, PH_REST, PH_END_TURN, PH_GAME_OVER,
    TERM_NONE, TERM_SCENARIO_WON, TERM_ROUND_LIMIT, HEX_BURNED, HEX_CONQUERED, HEX_TOKENS_REVEALED,
    HEX_RUINS_REVEALED,
    PH_COMBAT_RANGED, PH_COMBAT_BLOCK, PH_COMBAT_DAMAGE, PH_COMBAT_ATTACK, MAX_COMBAT_ENEMIES,
    Combat, CombatEnemy, CE_RAMPAGING, CE_DEFEATED, MELEE,
    PH_INTERACT, MAX_UNITS, Unit, MAX_ROUNDS, RoundStats, NUM_SITE_KINDS,
)
from mksim._rng cimport (Rng, rng_below, rng_shuffle_i16, rng_shuffle_i8,
                         STREAM_SOURCE, STREAM_DEEDS, STREAM_DUMMY, STREAM_OFFERS, STREAM_REWARDS)
from mksim._state cimport GameCore, Statics, Table, roll_source, draw_token
from mksim._knowledge cimport deck_gained_top, deck_gained_bottom, deck_taken, deck_shuffled
from mksim._scoring cimport (hand_limit, level_for_fame, clear_play_area, hand_limit_bonus,
                             space_benefit_crystal, apply_level, draw_to_limit,
                             dummy_turn as dummy_flip, dummy_round_prep)
from mksim._combat cimport (combat_begin, combat_next_phase, combat_end, combat_site_cleared,
                            enemy_armor, is_targetable, can_target_in_ranged, enemy_n_attacks, attack_is_live,
                            attack_value, resolve_attack, block_value, block_needed, resolve_block,
                            damage_start, damage_to_unit, damage_to_hero,
                            UNDEFEATED_STAY, UNDEFEATED_DISCARD, enemy_ability, AB_ASSASSINATION,
                            enemy_attack_value, combat_wounds_to_hand, reduce_attack, AB_CUMBERSOME)
from mksim._hexmap cimport LATTICE_DIRS, lattice_to_axial, hex_distance as axial_distance
from mksim._rules cimport (tile_at, is_rampaging, move_cost, can_enter, ends_movement, provokes, is_safe,
                           explorable, explore, MAX_EXPLORABLE, RULES_STACK_EMPTY,
                           box_explorable, explore_from_box, RULES_ILLEGAL)

import weakref
import numpy as np

from mksim import effects as _fx
from mksim import words as _ct          # content word lists (not the content loader)
from mksim._state import PHASE_NAMES

OP_ORDER = ("nothing", "choice", "all", "by_time", "move", "influence", "attack", "block", "heal",
            "draw", "gain_mana", "gain_crystal", "fame", "reputation", "take_wound", "ready_unit",
            "heal_unit", "terrain_cost", "enemy_armor", "enemy_no_attack", "extra_source_die",
            "handler")

cdef enum:
    DUMMY = MAX_PLAYERS        # actor id of the dummy player
    MAX_CRYSTALS = 3           # 5.1.3
    SKILL_CHOICES = 2          # 13.6.4: two own tokens revealed



# ---------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------

cdef inline int act(int kind, int arg) noexcept nogil:
    return (kind << ACTION_SHIFT) | arg


cdef inline bint gain_deed(const EngineStatics* es, Player* pl, int card) noexcept nogil:
    """6.4.1: a gained Deed card goes on top of the Deed deck; counted in the player's stats."""
    cdef int deck
    if not push_card(pl.deck, &pl.n_deck, MAX_DECK_CARDS, card):
        return False
    deck_gained_top(pl)                                       # known to its owner (determinize)
    count_gained(es, pl, card)
    return True


cdef int card_colour(const EngineStatics* es, int card) noexcept nogil:
    return es.card_colour[card * es.card_stride]


# Cards a full zone refused during the action being applied (push_card, insert_bottom have no
# GameState at hand).  One per thread, so engines in nogil threads do not share it; c_apply
# clears it first and moves it into GameState.cards_refused, which stops the game.
cdef extern from *:
    """
    #if defined(_MSC_VER)
    static __declspec(thread) int mksim_cards_refused = 0;
    #else
    static __thread int mksim_cards_refused = 0;
    #endif
    """
    int mksim_cards_refused


cdef bint push_card(int16_t* arr, int16_t* n, int cap, int card) noexcept nogil:
    """Put ``card`` on top of the zone ``arr[0:n]`` of capacity ``cap`` (MAX_*_CARDS)."""
    global mksim_cards_refused
    if n[0] >= cap:
        mksim_cards_refused += 1               # never a silent loss (ERR_CAPACITY after the action)
        return False
    arr[n[0]] = <int16_t>card
    n[0] += 1
    return True


cdef int draw_cards(GameState* gs, Player* pl, int n) noexcept nogil:
    """Draw up to n cards from the top of the Deed deck; stop when it is empty (13.7.4)."""
    cdef int drawn = 0
    while drawn < n and pl.n_deck > 0:
        pl.n_deck -= 1
        push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, pl.deck[pl.n_deck])
        drawn += 1
    deck_taken(pl, drawn)
    return drawn


cdef inline int level_value(const Statics* st, int level, int col) noexcept nogil:
    return st.levels.data[(level - 1) * st.levels.width + col]


cdef bint night_mana(const GameState* gs) noexcept nogil:
    """Night mana rules apply: a Night round, or a "night rules" combat by Day (5.6.1:
    dungeons and tombs)."""
    return gs.time == NIGHT or (gs.combat.active != 0 and gs.combat.night_rules != 0)


cdef bint mana_usable(const GameState* gs, int colour) noexcept nogil:
    """Gold only by Day, black only at Night (5.1.5, 5.1.6; Night rules in dungeon and tomb
    combats, 5.6.1), unless an Amulet says otherwise.  Crystals are basic colours: always
    usable.  Applies alike to Source dice, mana tokens and Endless mana (pay_ok)."""
    if colour == GOLD:
        return not night_mana(gs) or mod_has_arg(&gs.turn, MK_MANA_ANYTIME, GOLD + 1)
    if colour == BLACK:
        return night_mana(gs) or mod_has_arg(&gs.turn, MK_MANA_ANYTIME, BLACK + 1)
    return True


cdef int gain_crystal(Player* pl, GameState* gs, int colour) noexcept nogil:
    """5.3.2: a 4th crystal of a colour becomes a mana token instead."""
    if pl.crystals[colour] < MAX_CRYSTALS:
        pl.crystals[colour] += 1
    else:
        gs.turn.mana_tokens[colour] += 1
    return 0


cdef void change_reputation(Player* pl, int delta) noexcept nogil:
    """10.3.2: never beyond either end of the track (-7 .. +8, reputation.toml)."""
    cdef int r = pl.reputation + delta
    if r < -7:
        r = -7
    if r > 8:
        r = 8
    pl.reputation = <int8_t>r


cdef void take_wounds(GameState* gs, const EngineStatics* es, Player* pl, int n) noexcept nogil:
    """12.1.1: Wound cards from the (unlimited) Wound pile into hand; in combat they count
    towards knock-out (11.7.8, 21.2 A17), whatever effect or cost gave them."""
    cdef int i, added = 0
    cdef bint acting = <int>(pl - &gs.players[0]) == gs.current  # another hero's Wounds (Mana
    for i in range(n):                                           # Radiance) are not this turn's
        if not push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, es.wound):
            set_error(gs, ERR_CAPACITY, 0, es.wound)
            break
        if acting:
            gs.turn.wounds_to_hand += 1                         # Banner of Protection
        added += 1
        pl.stats.wounds_taken += 1
    if acting:
        combat_wounds_to_hand(gs, es.st, <int>(pl - &gs.players[0]), added)


# ---------------------------------------------------------------------------------------
# Effects (6.3): the interpreter is a module of its own, ext/_effects.pyx (node_playable,
# run_effects, apply_op, combat_move_usable; push_eval is inline in _engine.pxd).  The
# engine calls it through the table it registers when imported, with the context built
# here (effect_context in _engine.pxd, answer_context).
# ---------------------------------------------------------------------------------------

cdef Interpreter interp


cdef int register_interpreter(const Interpreter* fns) except -1:
    global interp
    if fns.node_playable == NULL or fns.run_effects == NULL or fns.combat_move_usable == NULL:
        raise ValueError("register_interpreter: an entry point is missing")
    interp = fns[0]
    return 0


cdef inline EffectContext answer_context(const GameState* gs) noexcept nogil:
    """The context in which the answer to a handler's question resolves: asked = the seat
    answering (gs.current); actor = whose effect it is - the turn's player when the question
    was put to another seat (Mind Read's discard; docs/engine.md "Questions to another
    player"), else the seat answering (in the tactics phase, the player choosing)."""
    cdef EffectContext c = effect_context(gs, gs.current)
    if gs.phase != PH_TACTICS and 0 <= gs.turn_player < gs.n_players:
        c.actor = gs.turn_player
    return c




cdef int unit_combat_bonus(const GameState* gs) noexcept nogil:
    """Modifiers on Units' abilities in a combat (MK_UNIT_ATTACK_BLOCK: Into the Heat's +n
    to the Attack, any kind, and Block of a Unit's ability).  Unit abilities reach the pools
    through attack / block rows (and Shield-Bash-like block_double_vs_swift); a handler of
    another group giving Unit Attack does not add it."""
    if gs.turn.n_mods == 0 or not gs.combat.active or not unit_resolving(gs.turn.resolving_card):
        return 0
    # Wolf's Howl of another player (8.2.2): this player's Units' attacks and blocks - value
    return mod_sum(&gs.turn, MK_UNIT_ATTACK_BLOCK) - mod_sum_others(&gs.turn, MK_HOWL_OTHERS, gs.current)


# -- lifecycle events (issue 12; docs/engine.md "Events and modifiers") -------------------
# Handlers that must act at a lifecycle point subscribe to its event: a registry module calls
# subscribe_event(EV_x, fn) when it registers (a small per-event table, run in the order of
# subscription after the engine's own hooks).
cdef EventHook event_subs[NUM_EVENTS][MAX_EVENT_SUBS]
cdef int n_event_subs[NUM_EVENTS]


cdef int subscribe_event(int ev, EventHook fn) noexcept nogil:
    """Run `fn` whenever `ev` fires; 0, or -1 (table full / bad event: module loading fails)."""
    if ev < 0 or ev >= NUM_EVENTS or n_event_subs[ev] >= MAX_EVENT_SUBS:
        return -1
    event_subs[ev][n_event_subs[ev]] = fn
    n_event_subs[ev] += 1
    return 0


cdef void fire_event(GameState* gs, const EngineStatics* es, const Statics* st, int p, int ev,
                     int arg) noexcept nogil:
    """A lifecycle point: the subscribed handlers, then the core's generic effect of a
    modifier kind (Disease's at a block), then the modifiers whose scope it ends expire (so
    a subscriber still sees the effects of the scope ending).  `arg`: the enemy slot
    (EV_BLOCK_COMMITTED, EV_DAMAGE_ASSIGNED), the targets' slot bits (EV_ATTACK_COMMITTED),
    the card (EV_CARD_PLAYED: its own next-card modifiers stay), else -1."""
    cdef int i
    for i in range(n_event_subs[ev]):      # Burning / Exploding Shield, Wings, Possess (_fx_spells);
        event_subs[ev][i](gs, es, st, p, ev, arg)            # Bow of Starsdawn, Sword of Justice (_fx_artifacts)
    if ev == EV_BLOCK_COMMITTED and gs.turn.n_mods:
        if arg >= 0 and mod_has(&gs.turn, MK_BLOCKED_ARMOR_ONE) and all_attacks_blocked(gs, st, arg) \
                and enemy_effect_ok(gs, st, arg, GREEN):
            set_armor_delta(&gs.combat.enemies[arg], -100)          # Disease: Armor 1 (LL-6.1.6)
    if gs.turn.n_mods:
        mod_expire(&gs.turn, event_scope(ev), arg if ev == EV_CARD_PLAYED else -2)


cdef void turn_end_hand_limit(GameState* gs, int p) noexcept nogil:
    """MK_HAND_LIMIT_ENDS_IN: ending the turn (after forced withdrawal, 13.1.2) in the
    modifier's terrain raises the Hand limit of this turn's draw (13.7.2; Mountain Lore)."""
    cdef int pos = gs.players[p].position
    if gs.turn.n_mods == 0 or pos < 0 or pos >= gs.n_hexes:
        return
    gs.turn.hand_limit_bonus += mod_sum_arg(&gs.turn, MK_HAND_LIMIT_ENDS_IN, gs.hexes[pos].terrain + 1)


cdef int card_bonus(GameState* gs) noexcept nogil:
    """Concentration / Will Focus powered: "+N if it gives Move, Influence, Block or Attack"
    for the Action card played with it (a Deed card resolving: not a unit, skill or tactic).
    Engine reading: +N once, to the first Move / Influence / Attack / Block amount that card's
    strong effect gives (a choice: to the option chosen); Move takes it in move_bonus."""
    cdef int b = overload_take(gs)     # Mana Overload (LL-7, _engine_skills.pxi)
    if gs.turn.resolving_card < 0 or gs.turn.n_mods == 0:
        return b
    return b + take_card_bonus(gs)


cdef inline int take_card_bonus(GameState* gs) noexcept nogil:
    """MK_CARD_BONUS (Concentration / Will Focus, a next-card modifier): its value, used up."""
    cdef int b = mod_sum(&gs.turn, MK_CARD_BONUS)
    if b:
        mod_remove_kind(&gs.turn, MK_CARD_BONUS)
    return b


cdef int move_bonus(GameState* gs) noexcept nogil:
    """Extra Move for a card giving Move now: Concentration / Will Focus (MK_CARD_BONUS: once,
    for the card played with it) and Tirelessness (MK_MOVE_BONUS: arg 0 the next card giving
    Move this turn, used up; arg 1 every later one)."""
    cdef int b = overload_take(gs)     # Mana Overload (LL-7)
    cdef int i
    if gs.turn.n_mods == 0:
        return b
    b += take_card_bonus(gs)
    i = mod_find_arg(&gs.turn, MK_MOVE_BONUS, 0)
    if i >= 0:
        b += gs.turn.mods[i].value
        mod_remove_at(&gs.turn, i)
    return b + mod_sum_arg(&gs.turn, MK_MOVE_BONUS, 1)


# ---------------------------------------------------------------------------------------
# Handler protocol
#
# A named handler is a C function of a group.  Registry groups (ext/_fx_basic.pyx, a module
# of its own) register one HandlerEntry per handler (_engine.pxd, register_handler_group):
#     cdef int <name>(GameState* gs, const EngineStatics* es, const Statics* st,
#                     int p, int row, int choice) noexcept nogil
# (`p` = the acting player, whose effect it is).  The groups still included below keep the
# older form <group>_handler(..., int local, int choice), `local` = its code in the group's
# HANDLERS tuple.  `row_args(es, row)` gives the declared arguments.  A handler is called
# with choice = -1 when its effect resolves.  It returns
#   RES_DONE   finished (it may have pushed effect rows with push_eval: they run next);
#   RES_CHOICE it needs a decision: it called ask(gs, row, stage, ASK_*, options) and will
#              be called again with choice = the option the player picked and
#              gs.turn.handler_stage = the stage it saved;
#   RES_ERROR  it called set_error.
# ---------------------------------------------------------------------------------------

# The registered groups' entries, by HandlerGroup (NULL: an included group, dispatched by the
# switches below).  Filled once, when a group module is imported (register_handler_group).
cdef const HandlerEntry* GROUP_ENTRIES[8]
cdef int GROUP_N[8]


cdef int register_handler_group(int group, const HandlerEntry* entries, int n) except -1:
    if group < 0 or group >= 8 or n < 0:
        raise ValueError(f"register_handler_group: no handler group {group}")
    GROUP_ENTRIES[group] = entries
    GROUP_N[group] = n
    return 0


cdef const HandlerEntry* handler_entry(const EngineStatics* es, int hid) noexcept nogil:
    """The registry entry of content handler `hid` (NULL: unimplemented or an included group)."""
    cdef int g = es.handler_group[hid]
    if g < 0 or GROUP_ENTRIES[g] == NULL:
        return NULL
    return &GROUP_ENTRIES[g][es.handler_local[hid]]


cdef bint block_has_use(const GameState* gs, const Statics* st) noexcept nogil:
    """A Block effect has a use only while an enemy attack is left to block (11.6.1-11.6.6):
    one not blocked, not prevented, of an enemy not defeated (so no Unit blocks for nothing,
    Banner of Glory's Fame +1 included)."""
    cdef int s, i
    for s in range(gs.combat.n_enemies):
        if gs.combat.enemies[s].token < 0:
            continue
        for i in range(enemy_n_attacks(gs, st, s)):
            if attack_is_live(gs, st, s, i):
                return True
    return False


cdef uint64_t reducible_attacks(const GameState* gs, const Statics* st, uint64_t taken) noexcept nogil:
    """Enemy attacks an effect may reduce now: live (not blocked, 11.6.6), above 0, in the
    Block phase; option k = slot * 3 + attack index.  Effects on an attack are allowed
    against Arcane Immunity (LL-6.7, ambiguity register 13)."""
    cdef uint64_t o = 0
    cdef int s, i, k
    if not gs.combat.active or gs.phase != PH_COMBAT_BLOCK:
        return 0
    for s in range(gs.combat.n_enemies):
        for i in range(enemy_n_attacks(gs, st, s)):
            k = s * 3 + i
            if k < 63 and not ((taken >> k) & 1) and attack_is_live(gs, st, s, i) \
                    and enemy_attack_value(gs, st, s, i) > 0:
                o |= (<uint64_t>1) << k
    return o


cdef bint movement_only_row(const EngineStatics* es, int row) noexcept nogil:
    """A part of an all(...) that works only while moving (9.6.1, 9.8; LL-4.6.1): terrain
    costs, passable / forbidden terrains, the Scouts' exploring range, Hawk Eyes' cheaper
    exploring and farther view (for this turn's moves: in combat, where the turn's action is
    taken, it goes with the Move 1 as the Scouts' reveal does, LL-9.7.10)."""
    cdef const int32_t* r = erow(es, row)
    cdef const int32_t* t
    cdef int group, local, k
    if r[0] == OP_TERRAIN_COST:
        return True
    if r[0] != OP_HANDLER:
        return False
    group = es.handler_group[r[1]]
    local = es.handler_local[r[1]]
    if row_handler_has(es, row, HF_OPTIONAL_COST):
        # an optional payment for a movement-only effect (Song of Wind powered: blue mana
        # for lakes) goes with the Move in combat too: paying there would buy nothing
        k = row_args(es, row)[2]
        if row_args(es, row)[1] != 1 or k < 0:
            return False
        t = erow(es, k)
        if t[0] != OP_ALL:
            return movement_only_row(es, k)
        for local in range(t[5]):
            if not movement_only_row(es, t[4] + local):
                return False
        return t[5] > 0
    return row_handler_has(es, row, HF_MOVEMENT_ONLY)     # Scouts, Terrain Forbidden, terrain cards, Hawk Eyes


cdef bint handler_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    """Can the handler do something now?  Unimplemented handlers are offered wherever a
    special effect could be played, so that playing them raises an error naming them."""
    cdef int hid = erow(es, row)[1]
    cdef int group = es.handler_group[hid]
    cdef int local = es.handler_local[hid]
    if group >= 0 and GROUP_ENTRIES[group] != NULL:
        return GROUP_ENTRIES[group][local].playable(gs, es, row)
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0


cdef int run_handler(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    """Run (or continue, with the player's choice) a handler row, or a plain operation that
    waits for a target: ready_unit / heal_unit (ASK_UNIT) and enemy effects (ASK_ENEMY)."""
    cdef int op = erow(es, row)[0]
    cdef int hid, group, local
    if op == OP_READY_UNIT or op == OP_HEAL_UNIT:
        return unit_op(gs, es, st, p, row, choice)
    if op == OP_ENEMY_ARMOR or op == OP_ENEMY_NO_ATTACK:
        return enemy_op_apply(gs, es, st, p, row, choice)
    if op != OP_HANDLER:
        set_error(gs, ERR_CAPACITY, 4, gs.turn.resolving_card)   # no other row waits for a choice
        return RES_ERROR
    hid = erow(es, row)[1]
    group = es.handler_group[hid]
    local = es.handler_local[hid]
    if group >= 0 and GROUP_ENTRIES[group] != NULL:
        return GROUP_ENTRIES[group][local].run(gs, es, st, p, row, choice)
    set_error(gs, ERR_HANDLER, hid, gs.turn.resolving_card)
    return RES_ERROR


# ---------------------------------------------------------------------------------------
# Bounds of a pending question (fixtures, mksim/fixtures.py validate)
#
# A handler keeps its progress in turn.handler_stage and turn.hvars between the question it
# asks and the answer, and uses some of them - and the answer, one option of ask_options -
# as indices (a hand index, an offer slot, a colour, a die, an enemy slot ...).  A game
# only ever stores values the handler put there; a fixture may write anything.  Each handler
# that asks has a pending function next to it (its registry entry's `pending`; the included
# groups' <group>_pending) that states, for the stage waiting, the range of each scratch
# value it indexes with and what its question offers; pending_check adds what holds for
# every question (the types and pc_* helpers are in _engine.pxd).  It reads only (nogil).
# ---------------------------------------------------------------------------------------

cdef bint pc_subset(PendingCheck* c, const GameState* gs, uint64_t allowed) noexcept nogil:
    """Every option of the question is one of `allowed` (what the handler offers now)."""
    cdef uint64_t extra = gs.turn.ask_options & ~allowed
    cdef int k
    if c.done:
        extra &= ~((<uint64_t>1) << ASK_DONE)
    if extra == 0:
        return False
    k = 0
    while not (extra >> k) & 1:
        k += 1
    return pc_bad(c, PF_OPTION, k, -1, -1)


cdef bint pc_enemy_attack(PendingCheck* c, const GameState* gs, int field, int v) noexcept nogil:
    """`v` = enemy slot * 3 + attack (Swift Reflexes, Taunt, Draw Fire) names an enemy there."""
    if v < 0 or v // 3 >= pc_n_enemies(gs) or gs.combat.enemies[v // 3].token < 0:
        return pc_bad(c, field, v, 0, 3 * pc_n_enemies(gs) - 1) if field != PF_OPTION \
            else pc_bad(c, field, v, -1, -1)
    return False


cdef bint pc_enemy_attack_options(PendingCheck* c, const GameState* gs) noexcept nogil:
    cdef int k
    for k in range(ASK_DONE):
        if (gs.turn.ask_options >> k) & 1 and pc_enemy_attack(c, gs, PF_OPTION, k):
            return True
    return False


cdef bint pc_enemy_slot(PendingCheck* c, const GameState* gs, int i) noexcept nogil:
    """hvars[i] is a combat slot holding an enemy."""
    cdef int s = gs.turn.hvars[i]
    if s < 0 or s >= pc_n_enemies(gs) or gs.combat.enemies[s].token < 0:
        return pc_bad(c, PF_HVAR + i, s, 0, pc_n_enemies(gs) - 1)
    return False


cdef bint pc_directions(PendingCheck* c, const GameState* gs) noexcept nogil:
    """Options 0 .. 5 are directions from the hero's space to a space of the map."""
    cdef int pos = gs.players[gs.current].position, k
    for k in range(ASK_DONE):
        if (gs.turn.ask_options >> k) & 1:
            if k >= 6:
                return pc_bad(c, PF_OPTION, k, 0, 5)
            if pos < 0 or gs.hexes[pos].neighbour[k] < 0:
                return pc_bad(c, PF_OPTION, k, -1, -1)
    return False


cdef int pending_group_check(const GameState* gs, const EngineStatics* es, const Statics* st,
                             int p, int row, PendingCheck* c) noexcept nogil:
    """The handler's own bounds (its group's <group>_pending); True when one fails."""
    cdef const int32_t* r = erow(es, row)
    cdef int group, local
    if r[0] == OP_READY_UNIT or r[0] == OP_HEAL_UNIT:            # unit_op (_engine_units.pxi)
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_UNIT, MAX_UNITS)
    if r[0] == OP_ENEMY_ARMOR or r[0] == OP_ENEMY_NO_ATTACK:      # enemy_op_apply
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY)
    if r[0] != OP_HANDLER:
        c.ask = -1
        return False
    group = es.handler_group[r[1]]
    local = es.handler_local[r[1]]
    if group >= 0 and GROUP_ENTRIES[group] != NULL:
        if GROUP_ENTRIES[group][local].pending == NULL:     # it never asks
            c.ask = -1
            return False
        return GROUP_ENTRIES[group][local].pending(gs, es, st, p, row, c)
    c.ask = -1
    return False


cdef bint pending_check(const GameState* gs, const EngineStatics* es, const Statics* st,
                        PendingCheck* c) noexcept nogil:
    """Check the pending question's stage, scratch values and options against what its
    handler can hold and the current zones, offers and combat; True (and `c` says which
    field, its value and the range allowed) when one is out of range."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int row = gs.turn.handler_row, k, n
    c.field = PF_NONE
    c.value = 0
    c.lo = 0
    c.hi = -1
    c.ask = 0
    c.n_options = -1
    c.done = False
    c.offer = NULL
    c.n_offer = 3
    if row < 0:
        return False
    if row >= es.effects.rows:
        return pc_bad(c, PF_ROW, row, -1, es.effects.rows - 1)
    if pending_group_check(gs, es, st, gs.current, row, c):
        return True
    if c.ask < 0:                                  # a handler that never asks (lo > hi: no range)
        c.field = PF_ROW
        c.value = row
        c.lo = 0
        c.hi = -1
        return True
    if gs.turn.ask != c.ask:
        return pc_bad(c, PF_ASK, gs.turn.ask, c.ask, c.ask)
    for k in range(64):
        if not (gs.turn.ask_options >> k) & 1:
            continue
        if k == ASK_DONE and c.done:
            continue
        n = c.n_options
        if n < 0:                                  # the ask kind's own range
            if c.ask == ASK_HAND_CARD:
                n = pl.n_hand
            elif c.ask == ASK_COLOUR:
                n = NUM_COLOURS
            elif c.ask == ASK_DIE:
                n = gs.n_dice
            elif c.ask == ASK_YES_NO:
                n = 2
            elif c.ask == ASK_OFFER:
                n = c.n_offer
            elif c.ask == ASK_DECK_CARD:
                n = pl.n_deck
            elif c.ask == ASK_DISCARD_CARD:
                n = pl.n_discard
            elif c.ask == ASK_ENEMY:
                n = pc_n_enemies(gs)
            elif c.ask == ASK_UNIT:
                n = MAX_UNITS
            elif c.ask == ASK_PAYMENT:
                n = n_pay_codes(gs)
            else:
                n = 0
        if n > ASK_DONE:
            n = ASK_DONE
        if k >= n:
            return pc_bad(c, PF_OPTION, k, 0, n - 1)
        # an option that names a thing must name one that is there
        if (c.ask == ASK_HAND_CARD and k >= pl.n_hand) or (c.ask == ASK_DIE and k >= gs.n_dice) \
                or (c.ask == ASK_DECK_CARD and k >= pl.n_deck) \
                or (c.ask == ASK_DISCARD_CARD and k >= pl.n_discard) \
                or (c.ask == ASK_ENEMY and (k >= pc_n_enemies(gs) or gs.combat.enemies[k].token < 0)) \
                or (c.ask == ASK_UNIT and (k >= MAX_UNITS or pl.units[k].card < 0)) \
                or (c.ask == ASK_OFFER and c.offer != NULL and (k >= c.n_offer or c.offer[k] < 0)) \
                or (c.ask == ASK_PAYMENT and c.n_options < 0 and k >= PAY_DIE and k < PAY_STOLEN
                    and k - PAY_DIE >= gs.n_dice) \
                or (c.ask == ASK_PAYMENT and c.n_options < 0 and k == PAY_STOLEN and pl.stolen_die < 0):
            return pc_bad(c, PF_OPTION, k, -1, -1)
    return False


cdef enum InternalErrorTurnFlow:      # more error_arg values of ERR_INTERNAL (INTERNAL_TEXT), for the turn-flow files
    INTERNAL_COMBAT_STEP = 6          # a listed combat step (attack, block, damage, next phase) failed in _combat
    INTERNAL_CUMBERSOME = 7           # reducing a listed Cumbersome attack failed (LL-6.5.2)
    INTERNAL_RECRUIT = 8              # a listed recruit costs more than the Influence (10.6)
    INTERNAL_BANNER = 9               # Banner of Command listed for a Unit that already carries one (LL-5.1)

include "_engine_advanced.pxi"        # the Advanced Actions' turn-flow rules (handlers: _fx_advanced.pyx)
include "_engine_spells.pxi"          # the Spells' turn-flow rules (handlers: _fx_spells.pyx)
include "_engine_artifacts.pxi"       # the Artifacts' turn-flow rules (handlers: _fx_artifacts.pyx)
include "_engine_skills.pxi"          # the Skills' turn-flow rules (handlers: _fx_skills.pyx)
include "_engine_combat.pxi"
include "_engine_units.pxi"


# ---------------------------------------------------------------------------------------
# Mana payment (5.4, 5.5)
# ---------------------------------------------------------------------------------------

cdef int power_colour(const GameState* gs, const EngineStatics* es, int card, int pay) noexcept nogil:
    """The colour of mana `pay` gives to power an Action card's strong effect (5.4.1): the
    card's colour; for a card powered by mana of any basic colour (``powered_by =
    "any_basic"``, Crystal Joy) the first basic colour `pay` can give, -1 if none."""
    cdef int c
    if not es.card_power_any[card * es.card_stride]:
        return card_colour(es, card)
    for c in range(4):
        if pay_ok_in(gs, pay, c):
            return c
    return -1


cdef bint pay_ok(const GameState* gs, int pay, int colour) noexcept nogil:
    """Can payment source `pay` provide one mana of `colour` now?  (The handler modules'
    entry; the engine's own loops call the inlined :func:`pay_ok_in`.)"""
    return pay_ok_in(gs, pay, colour)


cdef inline bint pay_ok_in(const GameState* gs, int pay, int colour) noexcept nogil:
    # pay_ok's body, inlined into legal_play and playable_after_paying: they ask it for every
    # payment source of every card on every decision (about 350,000 calls in 300 random
    # games), and a call per question cost 2 % of the step loop's instructions.
    cdef int c, die
    if pay < PAY_CRYSTAL:                                   # a mana token (5.1.2)
        c = pay
        if (gs.turn.mana_tokens[c] <= 0 and not mod_has_arg(&gs.turn, MK_ENDLESS_MANA, c + 1)) or not mana_usable(gs, c):
            return False
        return c == colour or (c == GOLD and colour < GOLD)  # 5.1.5
    if pay < PAY_DIE:                                       # a crystal (5.1.3)
        c = pay - PAY_CRYSTAL
        return c == colour and gs.players[gs.current].crystals[c] > 0
    if mod_has(&gs.turn, MK_NO_SOURCE_DICE):                              # Who Needs Magic (_engine_skills.pxi)
        return False
    if pay == PAY_STOLEN:                                   # Mana Steal die (3.2, 21.2 A7):
        c = gs.players[gs.current].stolen_die               # in addition to the normal die
        return c >= 0 and c == colour
    die = pay - PAY_DIE                                     # a Source die (5.5.2)
    if die >= gs.n_dice or (gs.dice_taken >> die) & 1:
        return False
    if gs.turn.dice_used >= source_dice_allowed(gs):
        return False
    c = gs.dice[die]
    if c == BLACK and gs.turn.black_any and colour != GOLD:  # Mana Pull: black as any colour
        return True
    if (c == BLACK or c == GOLD) and colour < GOLD and mod_has(&gs.turn, MK_DICE_ANY_BASIC):
        return True                                         # Mana Storm: as any basic colour
    if not mana_usable(gs, c):                              # 21.2 A5
        return False
    return c == colour or (c == GOLD and colour < GOLD)


cdef void pay_take(GameState* gs, int pay, int colour=-1) noexcept nogil:
    """Use payment source `pay` (for one mana of `colour`, -1 = not said)."""
    pay_take_in(gs, pay, colour)


cdef inline void pay_take_in(GameState* gs, int pay, int colour) noexcept nogil:
    # pay_take's body, inlined into the trial payment of playable_after_paying (as pay_ok_in)
    cdef int die
    gs.players[gs.current].stats.mana_used += 1                # results store (pay_save keeps it)
    if gs.n_players > 1 and gs.turn.n_mods:
        exploit_mana_used(gs, pay_colour(gs, pay))             # Mana Exploit / Curse of another player
    if pay < PAY_CRYSTAL:
        if not mod_has_arg(&gs.turn, MK_ENDLESS_MANA, pay + 1):  # Rings: an endless supply
            gs.turn.mana_tokens[pay] -= 1
        if gs.turn.polar_nospell == pay + 1:                    # Polarization: that token is
            gs.turn.polar_nospell = 0                           # used first (not for a Spell)
    elif pay < PAY_DIE:
        gs.players[gs.current].crystals[pay - PAY_CRYSTAL] -= 1
        gs.turn.crystals_spent[pay - PAY_CRYSTAL] += 1      # Crystal Mastery returns them
    elif pay == PAY_STOLEN:
        gs.players[gs.current].stolen_die = -1              # 3.2: used once; returned at turn end
        gs.turn.stolen_used = 1
    else:
        die = pay - PAY_DIE
        gs.dice_taken |= <uint8_t>(1 << die)                # 5.5.3: taken only when used
        gs.turn.dice_used += 1
        if gs.dice[die] == BLACK and gs.turn.black_any and (colour != BLACK or not night_mana(gs)):
            gs.turn.black_any = 0                           # Mana Pull's black-as-any used


cdef int source_dice_allowed(const GameState* gs) noexcept nogil:
    """How many Source dice the current player may use this turn: the normal one (5.2)
    and those effects added (5.5.6); none of the normal one while another player's Source
    Freeze lies in the Source (8.2.2: Player.source_freeze == 1 until its owner's turn)."""
    cdef int n = 1 + gs.turn.extra_dice, q
    if gs.n_players > 1:
        for q in range(gs.n_players):
            if q != gs.current and gs.players[q].source_freeze == 1:
                return n - 1
    return n


# Mana Exploit (Tovak, interactive 8.2.2): while the skill is in the centre another player
# who uses mana of a colour other than the one it is marked with takes a Wound, at most one
# per colour.  Engine readings: the colour of the mana as it lies (a gold die used as red is
# gold mana, as for Mana Overload); "at most one per colour" counts per turn of that player
# (between two turns of Tovak each other player has one turn, 3.1.4; an extra turn is a new
# one).  The colours are marked when the mana is paid (pay_take) in an MK_EXPLOIT_STRUCK
# modifier of the turn (value: colours used, arg: those whose Wound was taken), and the
# Wounds taken after the action (exploit_deliver, from c_apply): trial payments
# (playable_after_paying) undo the mark with the payment and never deal a Wound.

cdef enum:
    CURSE_BIT = 6              # MK_EXPLOIT_STRUCK bit of Mana Curse's Wound this turn


cdef int exploit_struck(const GameState* gs) noexcept nogil:
    cdef int i
    if gs.turn.n_mods == 0:
        return 0
    i = mod_find_owned(&gs.turn, MK_EXPLOIT_STRUCK, gs.current)
    return gs.turn.mods[i].value if i >= 0 else 0


cdef void exploit_restore(GameState* gs, const PaySnap* sn) noexcept nogil:
    cdef int i
    while gs.turn.n_mods > sn.n_mods:
        mod_remove_at(&gs.turn, gs.turn.n_mods - 1)            # made by the trial payment
    i = mod_find_owned(&gs.turn, MK_EXPLOIT_STRUCK, gs.current)
    if i >= 0:
        gs.turn.mods[i].value = <int8_t>sn.struck


cdef void exploit_mana_used(GameState* gs, int colour) noexcept nogil:
    """Mana of `colour` used: the Wounds due for it (Mana Exploit: bit colour; Mana Curse of
    another player, powered Mana Claim: bit CURSE_BIT, "max 1 per turn")."""
    cdef int i = mod_find_others(&gs.turn, MK_MANA_EXPLOIT, gs.current), bit = -1, k
    if colour < 0:
        return
    if i >= 0 and colour != gs.turn.mods[i].arg - 1:
        bit = colour
    for k in range(gs.turn.n_mods):
        if gs.turn.mods[k].kind == MK_MANA_CURSE and gs.turn.mods[k].owner != gs.current \
                and gs.turn.mods[k].arg - 1 == colour:
            exploit_mark(gs, CURSE_BIT)
    if bit >= 0:
        exploit_mark(gs, bit)


cdef void exploit_mark(GameState* gs, int bit) noexcept nogil:
    cdef int i = mod_find_owned(&gs.turn, MK_EXPLOIT_STRUCK, gs.current)
    if i < 0:
        if mod_add(&gs.turn, MK_EXPLOIT_STRUCK, MS_TURN, 0, 0, -1, gs.current) < 0:
            set_error(gs, ERR_CAPACITY, 8, gs.turn.resolving_card)
            return
        i = gs.turn.n_mods - 1
    gs.turn.mods[i].value = <int8_t>(gs.turn.mods[i].value | (1 << bit))


cdef void exploit_deliver(GameState* gs, const EngineStatics* es) noexcept nogil:
    """After an action: one Wound into the hand (12.1.1) for each colour newly marked."""
    cdef int i, c, due
    if gs.current < 0 or gs.current >= gs.n_players:
        return
    i = mod_find_owned(&gs.turn, MK_EXPLOIT_STRUCK, gs.current)
    if i < 0:
        return
    due = gs.turn.mods[i].value & ~gs.turn.mods[i].arg
    if due == 0:
        return
    gs.turn.mods[i].arg = <int8_t>(gs.turn.mods[i].arg | due)
    for c in range(CURSE_BIT + 1):
        if (due >> c) & 1:
            take_wounds(gs, es, &gs.players[gs.current], 1)


cdef int n_pay_codes(const GameState* gs) noexcept nogil:
    """Payment codes to try: tokens, crystals, Source dice, and the Mana Steal die."""
    if gs.players[gs.current].stolen_die >= 0:
        return PAY_STOLEN + 1
    return PAY_DIE + gs.n_dice


# ---------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------

cdef int card_playable_mode(const GameState* gs, const EngineStatics* es, int card, int powered) noexcept nogil:
    """Effect row the card would resolve when played in that mode, or -1 if not usable now.
    The check runs with the card as the resolving one, so effects on enemies see its colour
    (11.4.2: a red Disintegrate has no Fire-resistant target)."""
    cdef int deck = card_deck(es, card)
    cdef int row
    cdef GameState* g = <GameState*>gs       # resolving_card set for the check and restored
    cdef int16_t was_card = gs.turn.resolving_card, was_by = gs.turn.fx_colour_by
    cdef int8_t was_colour = gs.turn.fx_colour
    cdef bint ok
    if deck == DECK_WOUND:
        return -1                                          # 6.1.6
    if deck == DECK_SPELL and powered and not mana_usable(gs, BLACK):
        return -1                                          # 5.4.3: strong spells need black
    row = es.card_powered[card * es.card_stride] if powered else es.card_basic[card * es.card_stride]
    g.turn.resolving_card = <int16_t>card
    g.turn.fx_colour = 0
    ok = interp.node_playable(gs, es, row)
    g.turn.resolving_card = was_card
    g.turn.fx_colour = was_colour
    g.turn.fx_colour_by = was_by
    if not ok:
        return -1
    return row


cdef void pay_save(const GameState* gs, PaySnap* sn) noexcept nogil:
    pay_save_in(gs, sn)


cdef void pay_restore(GameState* gs, const PaySnap* sn) noexcept nogil:
    pay_restore_in(gs, sn)


# The bodies, inlined into playable_after_paying (a trial payment for every payable card on
# every decision); the handler modules use the exported pay_save / pay_restore above.
cdef inline void pay_save_in(const GameState* gs, PaySnap* sn) noexcept nogil:
    cdef int k
    for k in range(6):
        sn.tokens[k] = gs.turn.mana_tokens[k]
    for k in range(4):
        sn.crystals[k] = gs.players[gs.current].crystals[k]
        sn.spent[k] = <int8_t>gs.turn.crystals_spent[k]
    sn.dice_taken = gs.dice_taken
    sn.dice_used = gs.turn.dice_used
    sn.black_any = gs.turn.black_any
    sn.stolen_die = gs.players[gs.current].stolen_die
    sn.stolen_used = gs.turn.stolen_used
    sn.polar_nospell = gs.turn.polar_nospell
    sn.mana_used = gs.players[gs.current].stats.mana_used
    sn.n_mods = gs.turn.n_mods
    sn.struck = exploit_struck(gs)


cdef inline void pay_restore_in(GameState* gs, const PaySnap* sn) noexcept nogil:
    cdef int k
    for k in range(6):
        gs.turn.mana_tokens[k] = sn.tokens[k]
    for k in range(4):
        gs.players[gs.current].crystals[k] = sn.crystals[k]
        gs.turn.crystals_spent[k] = sn.spent[k]
    gs.dice_taken = sn.dice_taken
    gs.turn.dice_used = sn.dice_used
    gs.turn.black_any = sn.black_any
    gs.players[gs.current].stolen_die = sn.stolen_die
    gs.turn.stolen_used = sn.stolen_used
    gs.turn.polar_nospell = sn.polar_nospell
    gs.players[gs.current].stats.mana_used = sn.mana_used
    if gs.turn.n_mods != sn.n_mods or exploit_struck(gs) != sn.struck:
        exploit_restore(gs, sn)                                # Mana Exploit's colour record


cdef bint playable_after_paying(GameState* gs, const EngineStatics* es, int card, int powered,
                                int pay, int pay2, int colour) noexcept nogil:
    """Is the card's effect still usable once its own mana is paid (5.4.5, 6.2.1)?  The
    payment is tried on the state and undone, so effects that need more mana (Mana Bolt,
    Pure Magic) are not offered when the card's own payment would use that mana."""
    cdef PaySnap sn
    cdef bint ok
    pay_save_in(gs, &sn)
    pay_take_in(gs, pay, colour)
    ok = True
    if pay2 != PAY_NONE:                  # the black mana of a powered Spell, as A_PLAY pays it:
        ok = pay_ok_in(gs, pay2, BLACK)      # after its colour (5.4.3), so no payment the colour used up
        if ok:
            pay_take_in(gs, pay2, BLACK)
    ok = ok and card_playable_mode(gs, es, card, powered) >= 0
    pay_restore_in(gs, &sn)
    return ok


cdef int legal_play(Engine eng, const GameState* cgs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    """A_PLAY / A_SIDEWAYS for every card in hand (6.1, 6.1.7, 5.4)."""
    cdef GameState* gs = <GameState*>cgs    # trial payments are undone before returning
    cdef const Player* pl = &gs.players[gs.current]
    if gs.phase == PH_REST and gs.turn.rest_mode == 0 and pl.n_hand < 2:
        return n    # 4.5.2: a card must remain for the rest itself
    cdef int i, card, deck, colour, pay, pay2, npay = n_pay_codes(gs)
    for i in range(pl.n_hand):
        card = pl.hand[i]
        deck = card_deck(es, card)
        if deck == DECK_WOUND:
            continue
        colour = card_colour(es, card)
        # basic effect: free for actions and artifacts; one mana of its colour for spells
        if card_playable_mode(gs, es, card, 0) >= 0:
            if deck == DECK_SPELL:
                for pay in range(npay):
                    if pay_ok_in(gs, pay, colour) and not polar_spell_blocked(gs, pay) and n < MAX_ACTIONS \
                            and playable_after_paying(gs, es, card, 0, pay, PAY_NONE, colour):
                        out[n] = act(A_PLAY, i | (pay << 8) | (PAY_NONE << 13))
                        n += 1
            elif n < MAX_ACTIONS:
                out[n] = act(A_PLAY, i | (PAY_NONE << 8) | (PAY_NONE << 13))
                n += 1
        # strong effect
        if card_playable_mode(gs, es, card, 1) >= 0:
            if deck == DECK_ARTIFACT:
                if n < MAX_ACTIONS:                          # 6.1.5: throw it away
                    out[n] = act(A_PLAY, i | (1 << 7) | (PAY_NONE << 8) | (PAY_NONE << 13))
                    n += 1
            elif colour < COLOURLESS:
                for pay in range(npay):
                    if deck != DECK_SPELL:
                        colour = power_colour(gs, es, card, pay)      # Crystal Joy: any basic
                        if colour < 0:
                            continue
                    if not pay_ok_in(gs, pay, colour) or (deck == DECK_SPELL and polar_spell_blocked(gs, pay)):
                        continue
                    if deck == DECK_SPELL:                   # 5.4.3: plus one black mana
                        for pay2 in range(npay):
                            if pay2 != pay and pay_ok_in(gs, pay2, BLACK) and not (
                                    pay >= PAY_DIE and pay2 >= PAY_DIE and pay < PAY_STOLEN and pay2 < PAY_STOLEN
                                    and gs.turn.dice_used + 2 > source_dice_allowed(gs)) \
                                    and not (pay == pay2) and n < MAX_ACTIONS \
                                    and playable_after_paying(gs, es, card, 1, pay, pay2, colour):
                                out[n] = act(A_PLAY, i | (1 << 7) | (pay << 8) | (pay2 << 13))
                                n += 1
                    elif n < MAX_ACTIONS and playable_after_paying(gs, es, card, 1, pay, PAY_NONE, colour):
                        out[n] = act(A_PLAY, i | (1 << 7) | (pay << 8) | (PAY_NONE << 13))
                        n += 1
        # sideways (6.1.7): Move 1 in the movement part; Influence/Attack/Block 1 come with
        # interaction and combat
        if gs.phase == PH_MOVE and not gs.turn.action_taken and n < MAX_ACTIONS:
            out[n] = act(A_SIDEWAYS, i)                        # Move 1
            n += 1
        if (gs.phase == PH_INTERACT or (gs.phase == PH_MOVE and gs.turn.peaceful)
                or learning_pending(gs)) and n < MAX_ACTIONS:
            out[n] = act(A_SIDEWAYS, i | (1 << 7))             # Influence 1 (10.2.2; Peaceful Moment, Learning)
            n += 1
        if gs.phase == PH_COMBAT_BLOCK and n < MAX_ACTIONS:
            out[n] = act(A_SIDEWAYS, i | (3 << 7))             # Block 1, physical
            n += 1
        elif gs.phase == PH_COMBAT_ATTACK and n < MAX_ACTIONS:
            out[n] = act(A_SIDEWAYS, i | (2 << 7))             # Attack 1, physical (11.8.1)
            n += 1
        if interp.combat_move_usable(gs, es) and n < MAX_ACTIONS:
            out[n] = act(A_SIDEWAYS, i)                        # Move 1 with a use in combat (LL-9.7.5)
            n += 1
        n = units_sideways(gs, es, out, n, i)                    # Thugs / Heroes pay, Altem Mages (_engine_units.pxi)
    return n


cdef inline bint forbidden_bit(const uint64_t* bits, int nwords, int k) noexcept nogil:
    return 0 <= k < 64 * nwords and (bits[k >> 6] >> (k & 63)) & 1


cdef inline bint site_forbidden(const GameState* gs, int h) noexcept nogil:
    if h < 0 or h >= gs.n_hexes or gs.hexes[h].site < 0:
        return False
    return (gs.forbid_sites >> gs.hexes[h].site) & 1


cdef bint action_forbidden(const GameState* gs, const EngineStatics* es, const Statics* st, int action) noexcept nogil:
    """Restricted play (experiment arm, ``GameState.forbid_*``; Jaffe et al. 2012): does
    ``action`` use a forbidden Deed card (played basic, powered or sideways), skill, Unit
    (recruited or activated) or site kind (assaulted by moving in, entered, interacted with,
    burned, plundered, its altar or glade used, its rampaging enemies challenged)?  A card
    played through Concentration / Will Focus (its hand-card choice) counts as played."""
    cdef int kind = action >> ACTION_SHIFT
    cdef int arg = action & ARG_MASK
    cdef const Player* pl = &gs.players[gs.current]
    cdef const int32_t* r
    cdef int i, to, h = pl.position
    if kind == A_CHOOSE:
        if gs.turn.handler_row < 0 or gs.turn.ask != ASK_HAND_CARD or arg >= pl.n_hand:
            return False
        r = erow(es, gs.turn.handler_row)
        return r[0] == OP_HANDLER and es.handler_group[r[1]] == HG_BASIC \
            and handler_entry(es, r[1]).flags & HF_PLAYS_OTHER_CARD and forbidden_bit(gs.forbid_cards, 4, pl.hand[arg])
    if kind == A_PLAY or kind == A_SIDEWAYS:
        i = arg & 0x7F
        return i < pl.n_hand and forbidden_bit(gs.forbid_cards, 4, pl.hand[i])
    if kind == A_USE_SKILL:
        return arg < MAX_SKILLS and forbidden_bit(gs.forbid_skills, 2, pl.skills[arg])
    if kind == A_RECRUIT:
        i = arg & 0xF
        return i < gs.n_unit_offer and forbidden_bit(gs.forbid_units, 2, gs.unit_offer[i])
    if kind == A_ACTIVATE_UNIT:
        i = arg & 7
        return i < MAX_UNITS and forbidden_bit(gs.forbid_units, 2, pl.units[i].card)
    if kind == A_ENTER_SITE or kind == A_INTERACT or kind == A_BURN or kind == A_PLUNDER \
            or kind == A_ALTAR or kind == A_BUY_ARTIFACT or kind == A_BUY_CITY_AA or kind == A_ADD_ELITE \
            or (kind == A_GLADE_WOUND and arg != 0):
        return site_forbidden(gs, h)
    if kind == A_MOVE:                                       # 9.4.1: moving in is the assault
        if arg >= BEND_MOVE:
            to = arg - BEND_MOVE
        elif h >= 0 and arg < 6:
            to = gs.hexes[h].neighbour[arg]
        else:
            return False
        return site_forbidden(gs, to) and ends_movement(gs, st, to, gs.current)
    if kind == A_CHALLENGE and h >= 0:                       # 11.1.5
        for i in range(6):
            if (arg >> i) & 1 and site_forbidden(gs, gs.hexes[h].neighbour[i]):
                return True
    return False


cdef int legal_actions(Engine eng, int32_t* out) noexcept nogil:
    """The legal actions of the state into ``out``; returns how many.  With a restricted-play
    arm (``GameState.restricted``) the actions using a forbidden thing are left out, unless
    every listed action does: then all stay (the game never dead-ends; taking one is
    counted in ``PlayerStats.restriction_forced`` by Engine.c_apply)."""
    cdef int n = legal_actions_all(eng, out), i, m = 0
    cdef const GameState* gs = &eng.core.gs
    if not gs.restricted or n == 0:
        return n
    for i in range(n):
        if not action_forbidden(gs, &eng.es, &eng.core.st, out[i]):
            out[m] = out[i]
            m += 1
    return m if m > 0 else n


cdef int legal_actions_all(Engine eng, int32_t* out) noexcept nogil:
    cdef GameState* gs = &eng.core.gs
    cdef const EngineStatics* es = &eng.es
    cdef const Statics* st = &eng.core.st
    cdef const Player* pl
    cdef const int32_t* r
    cdef int n = 0, i, k, h, to, cost, m, card
    cdef int pos[2 * MAX_EXPLORABLE]
    if gs.phase == PH_GAME_OVER or gs.error != ERR_NONE:
        return 0
    pl = &gs.players[gs.current]
    if gs.turn.handler_row >= 0:                             # a handler awaits a decision
        for k in range(64):
            if (gs.turn.ask_options >> k) & 1:
                out[n] = act(A_CHOOSE, k)
                n += 1
        return n
    if gs.turn.pending_choice >= 0:                          # finish the card being played
        r = erow(es, gs.turn.pending_choice)
        if r[0] != OP_CHOICE:                                # a colour: any (6) or basic (4)
            for k in range(NUM_COLOURS if r[1] == COLOUR_ANY else 4):
                out[n] = act(A_CHOOSE, k)
                n += 1
            return n
        for k in range(r[5]):
            if interp.node_playable(gs, es, r[4] + k):
                out[n] = act(A_CHOOSE, k)
                n += 1
        return n
    if gs.phase == PH_TACTICS and pl.banner_prep:            # 2.2.8, 7.5.3 (_fx_artifacts)
        return legal_banner_prep(gs, out, 0)
    if gs.phase == PH_TACTICS:                               # 3.1, 17.3.4
        if units_upkeep_pending(gs):                         # LL-4.5.4, before the tactic (LL-20.1)
            return legal_upkeep(gs, out, n)
        k = forced_tactic(gs)
        if k >= 0:                                           # an experiment arm's forced tactic
            out[n] = act(A_TACTIC, k)
            return n + 1
        for i in range(6):
            if gs.tactics_available[i] >= 0:
                out[n] = act(A_TACTIC, gs.tactics_available[i])
                n += 1
        return n
    if gs.phase == PH_TURN_START:                            # 4.2, 4.3
        n = legal_tactic_abilities(gs, es, out, n)           # 4.1: before-turn tactics (3.2)
        n = legal_skills(gs, es, out, n)                     # 4.1.5, 8.3.2: Motivation
        if pl.n_deck > 0 and can_plunder(gs, es, gs.current):
            # 10.7.1.4 / 4.1.3: before the 4.2 checks.  With an empty Deed deck it would draw
            # nothing and only cost Reputation, so it is not offered then (as 4.2.5's forfeit
            # in start_actor_turn does not wait for it)
            out[n] = act(A_PLUNDER, 0)
            n += 1
        if pl.n_deck == 0 and pl.n_hand == 0 and gs.end_announced_by >= 0:
            out[n] = act(A_FORFEIT, 0)                       # 4.2.5 (after 4.1.3 options)
            return n + 1
        if pl.n_deck == 0 and gs.end_announced_by < 0:
            out[n] = act(A_ANNOUNCE_END, 0)
            n += 1
            if pl.n_hand == 0:
                return n                                     # 4.2.3: must announce
        if regular_turn_possible(gs, es):                    # 4.3.2 (a Wound-only hand rests)
            out[n] = act(A_REGULAR_TURN, 0)
            n += 1
        if pl.n_hand > 0:
            out[n] = act(A_REST, 0)
            n += 1
        return n
    if gs.combat.active:                                     # 11.3
        n = legal_play(eng, gs, es, out, n)
        n = legal_convert_move(gs, out, n)                   # Agility (_engine_advanced.pxi)
        n = legal_advanced_actions(gs, es, out, n)               # Diplomacy (_engine_advanced.pxi)
        n = legal_possess(gs, st, out, n)                    # Possess (_engine_spells.pxi)
        n = legal_wings_target(gs, st, out, n)               # Wings of Night (_engine_spells.pxi)
        n = legal_cumbersome(gs, st, out, n)                 # LL-6.5.2 (_engine_combat.pxi)
        n = legal_unit_actions(gs, es, out, n)               # 7.3 (_engine_units.pxi)
        n = legal_banner_actions(gs, es, st, out, n)         # 7.5 (_engine_artifacts.pxi)
        n = legal_bow_changes(gs, out, n)                    # Bow of Starsdawn powered
        n = legal_circlet(gs, es, out, n)                    # Circlet of Proficiency
        n = legal_unit_payments(gs, es, out, n)              # LL-4.3.4 (_engine_units.pxi)
        n = legal_skills(gs, es, out, n)                     # 8.2 (_engine_skills.pxi)
        return legal_combat(gs, es, st, out, n)
    if gs.phase == PH_INTERACT:                              # 10.2 (_engine_units.pxi)
        n = legal_play(eng, gs, es, out, n)
        n = legal_circlet(gs, es, out, n)                    # Circlet of Proficiency
        n = legal_skills(gs, es, out, n)                     # 8.2 (_engine_skills.pxi)
        n = legal_banner_actions(gs, es, st, out, n)         # 7.5 (_engine_artifacts.pxi)
        n = legal_advanced_actions(gs, es, out, n)               # Learning (_engine_advanced.pxi)
        return legal_interaction(gs, es, st, out, n)
    if gs.phase == PH_MOVE:
        n = legal_play(eng, gs, es, out, n)
        n = legal_heal(gs, es, out, n)
        n = legal_unit_actions(gs, es, out, n)
        n = legal_banner_actions(gs, es, st, out, n)         # 7.5 (_engine_artifacts.pxi)
        n = legal_tactic_abilities(gs, es, out, n)           # 3.2 during the turn
        n = legal_circlet(gs, es, out, n)                    # Circlet of Proficiency
        n = legal_skills(gs, es, out, n)                     # 8.2 (_engine_skills.pxi)
        n = legal_site_actions(gs, es, st, out, n)
        n = legal_advanced_actions(gs, es, out, n)               # Peaceful Moment (_engine_advanced.pxi)
        h = pl.position
        if h >= 0 and not gs.turn.action_taken:             # 4.4.5: no movement after the action
            for k in range(6):                               # 9.3.5
                to = gs.hexes[h].neighbour[k]
                if to < 0 or not can_enter(gs, st, h, to):
                    continue
                if es.city_closed and gs.hexes[to].site == es.city_site:
                    continue                                 # 17.3.1: the city cannot be entered
                cost = move_cost(gs, st, to)
                if cost >= 0 and cost <= gs.turn.move_points and n < MAX_ACTIONS:
                    out[n] = act(A_MOVE, k)
                    n += 1
            n = space_bending_moves(gs, st, out, n)          # Space Bending: 2 spaces away
            if gs.turn.move_points >= 2 - mod_sum(&gs.turn, MK_EXPLORE_DISCOUNT):   # 9.8.3; Hawk Eyes
                m = explorable(gs, st, h, pos)
                i = 0
                if m == RULES_STACK_EMPTY:
                    m = box_explorable(gs, st, h, pos)           # 9.8.8: holes filled from the box
                    i = EXPLORE_BOX_FLAG
                else:
                    m = units_explorable_far(gs, st, h, pos, m)  # Scouts (_engine_units.pxi)
                for k in range(m if m > 0 else 0):
                    if n < MAX_ACTIONS:
                        out[n] = act(A_EXPLORE, i | ((pos[2 * k] + 64) << 7) | (pos[2 * k + 1] + 64))
                        n += 1
        if not card_rule_due(gs, es):                        # 4.3.2
            out[n] = act(A_END_TURN, 0)
            n += 1
        return n
    if gs.phase == PH_REST:                                  # 4.5.2
        n = legal_play(eng, gs, es, out, n)
        n = legal_heal(gs, es, out, n)
        n = legal_unit_actions(gs, es, out, n)
        n = legal_banner_actions(gs, es, st, out, n)         # 7.5 (_engine_artifacts.pxi)
        n = legal_tactic_abilities(gs, es, out, n)           # 3.2 during the turn
        n = legal_circlet(gs, es, out, n)                    # Circlet of Proficiency
        n = legal_skills(gs, es, out, n)                     # 8.2 (_engine_skills.pxi)
        if gs.turn.rest_mode == 0 and pl.n_hand == 0:
            # every card was played before the rest discard (4.5.3): nothing is left to
            # discard; 4.3.2 is met by the played cards, so the turn may end
            out[n] = act(A_END_TURN, 0)
            n += 1
        elif gs.turn.rest_mode == 0:
            if has_non_wound(pl, es):
                for i in range(pl.n_hand):                   # standard rest: one non-Wound
                    if pl.hand[i] != es.wound:
                        out[n] = act(A_REST_DISCARD, i)
                        n += 1
            else:
                for i in range(pl.n_hand):                   # slow recovery: one Wound
                    if pl.hand[i] == es.wound:
                        out[n] = act(A_REST_DISCARD, i)
                        n += 1
                        break  # all Wounds are alike: one action is enough
        else:
            if gs.turn.rest_mode == 1:                       # plus any number of Wounds
                for i in range(pl.n_hand):
                    if pl.hand[i] == es.wound:
                        out[n] = act(A_REST_DISCARD, i)
                        n += 1
                        break
            out[n] = act(A_END_TURN, 0)
            n += 1
        return n
    if gs.phase == PH_END_TURN:
        return legal_end_turn(gs, es, st, out)
    return 0


cdef bint regular_turn_possible(GameState* gs, const EngineStatics* es) noexcept nogil:
    """4.3.2: a Regular turn must play or discard at least one card, unless the turn starts
    with an empty hand (the exception).  A hand of only Wounds can do neither (6.1.6, 12.1.2)
    - it rests (slow recovery, 4.5.2) - unless a Skill of the hero could play or discard a
    Wound during the movement part (Power of Pain, I Feel No Pain, Invocation)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int8_t phase = gs.phase
    cdef bint ok
    if pl.n_hand == 0 or has_non_wound(pl, es):
        return True
    gs.phase = PH_MOVE                                   # as it would be in the turn
    ok = skill_takes_wound(gs, es)
    gs.phase = phase
    return ok


cdef bint card_rule_due(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """4.3.2: the turn may not end yet - no card was played or discarded, the turn did not
    begin with an empty hand, no non-Wound card is left for the end-of-turn discard (13.7.1,
    21.2 A21 makes it compulsory then), and a Skill can still play or discard a Wound now.
    (When nothing can meet the rule any more, the turn may end: the rule asks the possible.)"""
    cdef const Player* pl = &gs.players[gs.current]
    if gs.turn.played_card or gs.turn.empty_start or gs.turn.discarded_end or has_non_wound(pl, es):
        return False
    return skill_takes_wound(gs, es)


cdef bint has_non_wound(const Player* pl, const EngineStatics* es) noexcept nogil:
    cdef int i
    for i in range(pl.n_hand):
        if pl.hand[i] != es.wound:
            return True
    return False


cdef int legal_heal(const GameState* gs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    """12.3.3: one Healing point throws away one Wound from hand."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i
    if gs.turn.healing <= 0:
        return n
    for i in range(pl.n_hand):
        if pl.hand[i] == es.wound and n < MAX_ACTIONS:
            out[n] = act(A_HEAL_WOUND, i)
            return n + 1
    return n


# ---------------------------------------------------------------------------------------
# End of turn (13)
# ---------------------------------------------------------------------------------------

cdef enum EndStage:
    END_NONE = 0
    END_GLADE = 1          # 13.4 / 10.7.11.2: throw away a Wound (decision)
    END_LEVEL_SKILL = 2    # 13.6.4: choose a skill (decision)
    END_LEVEL_AA = 3       # 13.6.4: choose an AA (decision)
    END_DISCARD = 4        # 13.7.1: discard, then draw (decision)
    END_REWARDS = 6        # 13.5: claim rewards (decisions); 5 is END_LONG_NIGHT (_engine.pxd)


cdef int legal_end_turn(const GameState* gs, const EngineStatics* es, const Statics* st, int32_t* out) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    cdef int n = 0, i, k
    cdef bint must_discard
    if gs.turn.end_stage == END_REWARDS:
        return legal_rewards(gs, es, st, out)
    if gs.turn.end_stage == END_GLADE:
        out[n] = act(A_GLADE_WOUND, 0)
        n += 1
        for i in range(pl.n_hand):
            if pl.hand[i] == es.wound:
                out[n] = act(A_GLADE_WOUND, 1)
                n += 1
                break
        for i in range(pl.n_discard):
            if pl.discard[i] == es.wound:
                out[n] = act(A_GLADE_WOUND, 2)
                n += 1
                break
        return n
    if gs.turn.end_stage == END_LEVEL_SKILL:
        for k in range(SKILL_CHOICES):
            if pl.n_skill_stack - 1 - k >= 0:
                out[n] = act(A_PICK_SKILL, k)
                n += 1
        if pl.n_skill_stack >= SKILL_CHOICES:   # 13.6.4 [R]: or a common-offer token
            for k in range(gs.n_skill_offer):
                out[n] = act(A_PICK_SKILL, 2 + k)
                n += 1
        return n
    if gs.turn.end_stage == END_LEVEL_AA:
        for k in range(3):
            if gs.aa_offer[k] >= 0:
                out[n] = act(A_PICK_AA, k)
                n += 1
        return n
    if gs.turn.end_stage == END_DISCARD:
        # 13.7.1 / 21.2 A21: a turn with no card played must discard a non-Wound card here
        must_discard = gs.turn.played_card == 0 and gs.turn.discarded_end == 0 and not gs.turn.empty_start \
            and has_non_wound(pl, es)
        for i in range(pl.n_hand):
            if pl.hand[i] != es.wound and n < MAX_ACTIONS:
                out[n] = act(A_DISCARD, i)
                n += 1
        if gs.turn.crystal_joy and crystal_joy_in_discard(pl, gs.turn.crystal_joy_card):
            for i in range(pl.n_hand):                       # Crystal Joy: discard another card
                if (pl.hand[i] != es.wound or gs.turn.crystal_joy == 2) and n < MAX_ACTIONS:
                    out[n] = act(A_RETURN_CARD, i)
                    n += 1
        n = legal_steady_tempo(gs, out, n)                   # Steady Tempo (_fx_advanced)
        if not must_discard:
            out[n] = act(A_DRAW, 0)
            n += 1
        return n
    if gs.turn.end_stage == END_LONG_NIGHT:                  # 13.7.4: refill mid-draw, or stop
        n = legal_tactic_abilities(gs, es, out, n)
        out[n] = act(A_DRAW, 0)
        return n + 1
    return 0


cdef bint crystal_joy_in_discard(const Player* pl, int card) noexcept nogil:
    """Is the played Crystal Joy card in the discard pile (13.3.2 put it there)?"""
    cdef int i
    if card < 0:
        return False
    for i in range(pl.n_discard - 1, -1, -1):
        if pl.discard[i] == card:
            return True
    return False


cdef void return_dice(GameState* gs) noexcept nogil:
    """4.6.2: reroll every die taken this turn and return it to the Source (a die set by
    Mana Draw keeps its colour; a used Mana Steal die is rerolled and returned, 3.2)."""
    cdef int i
    for i in range(gs.n_dice):
        if (gs.dice_taken >> i) & 1 and not (gs.turn.dice_kept >> i) & 1:
            gs.dice[i] = <int8_t>rng_below(&gs.rng[<int>STREAM_SOURCE], 6)
    gs.dice_taken = 0
    gs.turn.dice_kept = 0
    return_stolen_die(gs, &gs.players[gs.current])


cdef void forced_withdrawal(GameState* gs, const EngineStatics* es, const Statics* st, int p) noexcept nogil:
    """13.2 / 21.2 A16: retrace this turn's path to a safe space, one Wound per space."""
    cdef Player* pl = &gs.players[p]
    cdef int k = gs.turn.n_path - 1
    while not is_safe(gs, st, pl.position, p) and k >= 0:
        k -= 1
        pl.position = gs.turn.path[k] if k >= 0 else gs.turn.path[0]
        take_wounds(gs, es, pl, 1)
        if k < 0:
            break


cdef void end_turn_begin(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """Steps 1-4 of 13.1 that need no decision, then the first decision stage."""
    cdef int p = gs.current
    cdef Player* pl = &gs.players[p]
    cdef int site, colour
    rings_fame(gs, es, p)                                        # Rings: Fame per Spell cast this turn
    protection_end_of_turn(gs, es, pl)                           # Banner of Protection powered
    skills_turn_end(gs, pl)                                      # Source Freeze, Motivation (_engine_skills.pxi)
    return_dice(gs)                                              # 13.1.1
    return_spent_crystals(gs, p)                                 # Crystal Mastery (_fx_advanced)
    forced_withdrawal(gs, es, st, p)                             # 13.1.2
    turn_end_hand_limit(gs, p)                                   # Mountain Lore's modifiers
    time_bending_end(gs, es, p)                                  # Time Bending: played cards to hand
    clear_play_area(gs, st, p)                                   # 13.1.3
    gs.phase = PH_END_TURN
    site = gs.hexes[pl.position].site if pl.position >= 0 else -1
    space_benefit_crystal(gs, st, p)                             # 13.4.2 / 10.7.12.1
    gs.turn.levels_pending = <uint8_t>(level_for_fame(st, pl.fame) - pl.level)   # 13.6.1
    if site == es.glade_site:                                    # 13.4.1 / 10.7.11.2
        gs.turn.end_stage = END_GLADE
    else:
        rewards_stage(gs, es, st)


cdef void rewards_stage(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """13.5: rewards earned this turn, then level-ups (13.6)."""
    start_rewards(gs, es, st)
    if gs.error != ERR_NONE:
        return
    if gs.turn.n_rewards > 0 or gs.turn.reward_choice != 0:
        gs.turn.end_stage = END_REWARDS
    else:
        next_level_stage(gs, es, st)


cdef void next_level_stage(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """13.6: resolve level-ups one at a time in ascending order, then the draw (13.7)."""
    cdef Player* pl = &gs.players[gs.current]
    cdef int lv
    while gs.turn.levels_pending > 0:
        gs.turn.levels_pending -= 1
        lv = pl.level + 1
        if apply_level(gs, st, gs.current, lv) == 1:             # 13.6.3 odd / 13.6.4 even
            if pl.n_skill_stack > 0 or gs.n_skill_offer > 0:
                gs.turn.end_stage = END_LEVEL_SKILL
                return
            if gs.aa_offer[0] >= 0:
                gs.turn.end_stage = END_LEVEL_AA
                return
    gs.turn.end_stage = END_DISCARD


cdef void refill_offer(GameState* gs, int16_t* offer, int16_t* deck, int8_t* n_deck, int slot) noexcept nogil:
    """6.4.2: remaining cards shift down, a new card fills the top position."""
    cdef int k
    for k in range(slot, 0, -1):
        offer[k] = offer[k - 1]
    if n_deck[0] > 0:
        n_deck[0] -= 1
        offer[0] = deck[n_deck[0]]
    else:
        offer[0] = -1                                            # 21.2 A15


cdef void finish_turn(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """13.7.2: draw up to the Hand limit, then hand over to the next actor."""
    cdef int p = gs.current
    cdef Player* pl = &gs.players[p]
    cdef int limit
    if gs.turn.end_stage == END_DISCARD:                         # 3.2 Planning, counted once
        gs.turn.hand_limit_bonus += planning_bonus(gs, es, p)    # with the hand before drawing
    # 13.7.2: the Hand limit, plus the larger keep / city bonus (10.9) and card bonuses
    limit = hand_limit(gs, st, p) + hand_limit_bonus(gs, st, p) + gs.turn.hand_limit_bonus
    if gs.turn.time_bending:                                     # Time Bending: no new cards
        gs.turn.end_stage = END_NONE
        next_actor(gs, es, st)
        return
    draw_to_limit(gs, st, p, limit)                              # 13.7.3-13.7.4
    if pl.n_hand < limit and pl.n_deck == 0 and gs.turn.end_stage != END_LONG_NIGHT:
        gs.turn.end_stage = END_LONG_NIGHT                       # 13.7.4: Long Night mid-draw
        if tactic_ability_ok(gs, es, 0):
            return
    gs.turn.end_stage = END_NONE
    next_actor(gs, es, st)


# ---------------------------------------------------------------------------------------
# Turn order, the dummy, rounds (2, 3, 4.2, 14, 18)
# ---------------------------------------------------------------------------------------

cdef void reset_turn(GameState* gs) noexcept nogil:
    """EV_TURN_END: every turn-long effect ends; round-scoped modifiers stay."""
    cdef Modifier keep[MAX_MODS]
    cdef int n_keep = 0
    units_turn_reset(gs)                                         # "this turn" unit effects (_engine_units.pxi)
    if gs.turn.n_mods:
        mod_expire(&gs.turn, MS_TURN, -2)
        n_keep = gs.turn.n_mods
        memcpy(keep, gs.turn.mods, n_keep * sizeof(Modifier))
    memset(&gs.turn, 0, sizeof(TurnState))
    if n_keep:
        memcpy(gs.turn.mods, keep, n_keep * sizeof(Modifier))
        gs.turn.n_mods = <int8_t>n_keep
        mod_live_sync(&gs.turn)
    gs.turn.pending_choice = -1
    gs.turn.resolving_card = -1
    gs.turn.handler_row = -1
    gs.turn.crystal_joy_card = -1


cdef int actor_order(const GameState* gs, int* order) noexcept nogil:
    """Actors in round order: tactic number, lowest first (3.1.4)."""
    cdef int n = 0, i, j, tmp, ti, tj
    for i in range(gs.n_players):
        order[n] = i
        n += 1
    if gs.has_dummy:
        order[n] = DUMMY
        n += 1
    for i in range(n):
        for j in range(i + 1, n):
            ti = gs.dummy.round_order if order[i] == DUMMY else gs.players[order[i]].round_order
            tj = gs.dummy.round_order if order[j] == DUMMY else gs.players[order[j]].round_order
            if tj < ti:
                tmp = order[i]
                order[i] = order[j]
                order[j] = tmp
    return n


cdef void start_actor_turn(GameState* gs, const EngineStatics* es, const Statics* st, int actor) noexcept nogil:
    cdef Player* pl
    cdef int h
    gs.turn_player = <int8_t>actor
    if actor == DUMMY:
        dummy_turn(gs, es, st)
        return
    gs.current = <int8_t>actor
    reset_turn(gs)                                               # EV_TURN_END's expiry
    fire_event(gs, es, st, actor, EV_TURN_START, -1)
    pl = &gs.players[actor]
    pl.stats.turns += 1
    if pl.position < 0:                                          # 1.3.7 / 9.5.5: the portal
        for h in range(gs.n_hexes):
            if gs.hexes[h].site == es.portal_site:
                pl.position = <int16_t>h
                break
    if pl.position >= 0 and gs.hexes[pl.position].site == es.glade_site:
        gs.turn.mana_tokens[<int>(GOLD if gs.time == DAY else BLACK)] += 1   # 10.7.11.1
    mana_claim_turn_start(gs, pl)                                # Mana Claim: a token per turn
    skills_turn_start(gs, pl)                                    # 8.2.2 (_engine_skills.pxi)
    pl.skills_used &= (1 << SKILL_TURN_SHIFT) - 1                # 8.2.3: once-per-turn skills again
    gs.turn.path[0] = pl.position
    gs.turn.n_path = 1
    pl.used_before_turn = 0
    reveal_by_day(gs, es, actor)                                 # 9.10.1 (e.g. when a Day begins)
    gs.phase = PH_TURN_START
    if gs.end_announced_by >= 0 and pl.n_deck == 0 and pl.n_hand == 0 \
            and not tactic_ability_ok(gs, es, 0) and not tactic_ability_ok(gs, es, 1):
        end_actor_turn(gs, es, st)                               # 4.2.5: forfeit (4.1.3: no
        return                                                   # before-turn option left)


cdef void dummy_turn(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """18.4: the dummy's turn; an empty deck at its start announces the End of the Round."""
    if dummy_flip(gs, st) == 1 and gs.end_announced_by < 0:
        gs.end_announced_by = DUMMY                              # 18.2.3
        gs.last_turn_taken[DUMMY] = 1
    end_actor_turn(gs, es, st)


cdef void end_actor_turn(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    next_actor(gs, es, st)


cdef void next_actor(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """Hand the turn to the next actor in round order; end the round or the game (4.2, 14)."""
    cdef int order[MAX_PLAYERS + 1]
    cdef int n = actor_order(gs, order)
    cdef int i, cur = gs.turn_player, nxt, a
    gs.turns_in_round += 1
    if gs.end_announced_by >= 0 and cur != gs.end_announced_by:
        gs.last_turn_taken[cur] = 1
    if gs.final_turns_left > 0 and cur != DUMMY:                 # 14.3.2
        gs.final_turns_left -= 1
        if gs.final_turns_left == 0:
            end_game(gs, es, TERM_SCENARIO_WON)
            return
    if cur != DUMMY and gs.turn.extra_turn:                      # 3.2 The Right Moment
        start_actor_turn(gs, es, st, cur)
        return
    if gs.end_announced_by >= 0:                                 # 4.2.1 / 14.1.1
        a = 1
        for i in range(n):
            if order[i] != gs.end_announced_by and not gs.last_turn_taken[order[i]]:
                a = 0
        if a:
            end_round(gs, es, st)
            return
    for i in range(n):
        if order[i] == cur:
            break
    nxt = order[(i + 1) % n]
    if gs.final_turns_left > 0 and nxt == DUMMY:                 # 14.3.4 / 18.2.4
        nxt = order[(i + 2) % n]
    start_actor_turn(gs, es, st, nxt)


cdef void round_stats(GameState* gs, const EngineStatics* es) noexcept nogil:
    """Results store: each player's numbers at this round's end (rounds.parquet).  Called at
    every round's end and at the game's end (the same round again is overwritten)."""
    cdef int p, i, u, r = gs.round - 1, wounds, deeds
    cdef Player* pl
    cdef RoundStats* rs
    if r < 0 or r >= MAX_ROUNDS:
        return
    for p in range(gs.n_players):
        pl = &gs.players[p]
        rs = &pl.stats.rounds[r]
        rs.fame = pl.fame
        rs.level = pl.level
        wounds = 0
        for i in range(pl.n_deck):
            wounds += pl.deck[i] == es.wound
        for i in range(pl.n_hand):
            wounds += pl.hand[i] == es.wound
        for i in range(pl.n_discard):
            wounds += pl.discard[i] == es.wound
        for i in range(pl.n_play):
            wounds += pl.play_area[i] == es.wound
        deeds = pl.n_deck + pl.n_hand + pl.n_discard + pl.n_play + pl.n_tactic_cards + pl.n_set_aside
        rs.wounds = <int16_t>wounds
        rs.deeds = <int16_t>deeds
        u = 0
        for i in range(MAX_UNITS):
            u += pl.units[i].card >= 0
        rs.units = <int8_t>u
        rs.crystals = <int8_t>(pl.crystals[0] + pl.crystals[1] + pl.crystals[2] + pl.crystals[3])
        if pl.stats.n_rounds < r + 1:
            pl.stats.n_rounds = <int8_t>(r + 1)


cdef void end_game(GameState* gs, const EngineStatics* es, int reason) noexcept nogil:
    round_stats(gs, es)
    tactic_round_end(gs)                                         # 3.2.1
    spells_round_end(gs)                                         # Mana Claim's die
    gs.phase = PH_GAME_OVER
    gs.termination = <int8_t>reason


cdef void end_round(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """14.1, 14.2: after the last round the game ends; otherwise prepare the next (2.2)."""
    round_stats(gs, es)                                          # results store, before 2.2 changes anything
    if gs.turn.n_mods:
        mod_expire(&gs.turn, MS_ROUND, -2)                       # EV_ROUND_END: round-long modifiers end
    tactic_round_end(gs)                                         # 3.2.1, before 2.2.2
    spells_round_end(gs)                                         # Mana Claim's die
    if gs.round >= es.rounds:
        end_game(gs, es, TERM_ROUND_LIMIT)
        return
    if gs.final_turns_left > 0:                                  # 14.3.2 / 14.3.3: the round ends
        end_game(gs, es, TERM_SCENARIO_WON)                      # during the last turns (solo too:
        return                                                   # the End of the Round came first)
    prepare_round(gs, es, st)


cdef void shuffle_all_deeds(GameState* gs, Player* pl) noexcept nogil:
    """2.2.8: hand, discard pile and deck (Wounds included) become the new Deed deck."""
    cdef int i
    for i in range(pl.n_hand):
        push_card(pl.deck, &pl.n_deck, MAX_DECK_CARDS, pl.hand[i])
    for i in range(pl.n_discard):
        push_card(pl.deck, &pl.n_deck, MAX_DECK_CARDS, pl.discard[i])
    pl.n_hand = 0
    pl.n_discard = 0
    rng_shuffle_i16(deeds_rng(gs, pl), pl.deck, pl.n_deck)
    deck_shuffled(pl)


cdef void prepare_round(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """2.2 round preparation (solo: 18.4.4, 17.3.4)."""
    cdef int i, k, p, card, n_units, aa_low, spell_low
    cdef Player* pl
    gs.round += 1
    gs.time = <int8_t>(NIGHT if gs.time == DAY else DAY)         # 2.2.1
    reveal_ruins_at_day(gs)                                      # 9.10.2
    skills_round_end(gs)                                         # 8.2.2 (_engine_skills.pxi)
    roll_source(gs, gs.n_dice)                                   # 2.2.2
    # 2.2.3 unit offer: back to the bottom of their decks, deal players + 2
    for i in range(gs.n_unit_offer):
        card = gs.unit_offer[i]
        if card < 0:                                             # AA from a monastery
            insert_bottom(gs.aa_deck, &gs.n_aa_deck, -card - 1)
        elif st.units.data[card * st.units.width + st.cols.unit_tier] == 0:
            insert_bottom(gs.regular_units, &gs.n_regular_units, card)
        else:
            insert_bottom(gs.elite_units, &gs.n_elite_units, card)
    gs.n_unit_offer = 0
    n_units = gs.n_players + 2
    for i in range(n_units):
        if gs.core_revealed and es.elite_units and i % 2 == 0 and gs.n_elite_units > 0:
            gs.n_elite_units -= 1
            gs.unit_offer[gs.n_unit_offer] = gs.elite_units[gs.n_elite_units]
        elif gs.n_regular_units > 0:
            gs.n_regular_units -= 1
            gs.unit_offer[gs.n_unit_offer] = gs.regular_units[gs.n_regular_units]
        elif es.elite_units and gs.n_elite_units > 0:            # 21.2 A25
            gs.n_elite_units -= 1
            gs.unit_offer[gs.n_unit_offer] = gs.elite_units[gs.n_elite_units]
        else:
            continue
        gs.n_unit_offer += 1
    for k in range(gs.n_hexes):                                  # 2.2.4 monasteries
        if gs.hexes[k].site == es.monastery_site and not (gs.hexes[k].flags & HEX_BURNED):
            if gs.n_aa_deck > 0 and gs.n_unit_offer < MAX_OFFER:
                gs.n_aa_deck -= 1
                gs.unit_offer[gs.n_unit_offer] = <int16_t>(-gs.aa_deck[gs.n_aa_deck] - 1)
                gs.n_unit_offer += 1
    # 2.2.5 / 2.2.6: the lowest AA and Spell leave their offers; in a solo game the AA
    # joins the dummy's deck and the dummy gains a crystal of the Spell's colour (18.4.4)
    aa_low = gs.aa_offer[2]
    spell_low = gs.spell_offer[2]
    if aa_low >= 0 and not gs.has_dummy:
        insert_bottom(gs.aa_deck, &gs.n_aa_deck, aa_low)
    refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, 2)
    if spell_low >= 0:
        insert_bottom(gs.spell_deck, &gs.n_spell_deck, spell_low)
    refill_offer(gs, gs.spell_offer, gs.spell_deck, &gs.n_spell_deck, 2)
    if gs.has_dummy:
        if dummy_round_prep(gs, st, aa_low, card_colour(es, spell_low) if spell_low >= 0 else -1) < 0:
            set_error(gs, ERR_CAPACITY, 2, aa_low)
    # 2.2.7 tactics: solo, both used tactics leave the game (17.3.4)
    lay_out_tactics(gs, es)
    # 2.2.8 each player
    for p in range(gs.n_players):
        pl = &gs.players[p]
        for i in range(MAX_UNITS_):
            if pl.units[i].card >= 0:
                pl.units[i].ready = 1
        units_round_start(gs, es, pl)                            # LL-4.5.4 familiar upkeep (_engine_units.pxi)
        pl.skills_used = 0
        pl.banner_flipped = 0                                    # Banners face up
        if banners_attached(pl):
            pl.banner_prep = 1                                   # 7.5.3: keep or take back, then shuffle
        else:
            shuffle_all_deeds(gs, pl)
            draw_cards(gs, pl, hand_limit(gs, st, p))
        pl.tactic = -1
        pl.tactic_used = 0
    gs.end_announced_by = -1
    gs.turns_in_round = 0
    for i in range(MAX_PLAYERS + 1):
        gs.last_turn_taken[i] = 0
    gs.phase = PH_TACTICS
    gs.current = <int8_t>next_tactic_picker(gs)                  # 3.1.2 (solo: the player)
    reset_turn(gs)


cdef enum:
    MAX_UNITS_ = 6


cdef void insert_bottom(int16_t* deck, int8_t* n, int card) noexcept nogil:
    global mksim_cards_refused
    cdef int k
    if n[0] >= MAX_DECK:
        mksim_cards_refused += 1               # ERR_CAPACITY after the action
        return
    for k in range(n[0], 0, -1):
        deck[k] = deck[k - 1]
    deck[0] = <int16_t>card
    n[0] += 1


cdef void lay_out_tactics(GameState* gs, const EngineStatics* es) noexcept nogil:
    """2.2.7 / 1.2.12: this round's tactic set, minus tactics removed in a solo game."""
    cdef int t, k, n = 0, removed
    for k in range(6):
        gs.tactics_available[k] = -1
    for t in range(es.n_tactics):
        if es.tactic_row[t * es.tactic_stride] != gs.time:
            continue
        removed = 0
        for k in range(12):
            if gs.tactics_removed[k] == t:
                removed = 1
        if not removed and n < 6:
            gs.tactics_available[n] = <int8_t>t
            n += 1


cdef int forced_tactic(const GameState* gs) noexcept nogil:
    """The tactic this round's forced-tactic setting (GameState.forced_tactic, set by an
    experiment arm) makes the only choice, when it is on offer; -1 = the player chooses."""
    cdef int k, t, r = gs.round - 1
    if r < 0 or r >= MAX_ROUNDS or gs.forced_tactic[r] <= 0:
        return -1
    t = gs.forced_tactic[r] - 1
    for k in range(6):
        if gs.tactics_available[k] == t:
            return t
    return -1


# ---------------------------------------------------------------------------------------
# Tactics in the loop (3.2).  What an ongoing tactic allows is the tactic handlers' rule
# (ext/_fx_tactics.pyx registers it, register_tactic_rules); the bookkeeping that reads no
# tactic is here.
# ---------------------------------------------------------------------------------------

cdef tactic_ability_t TACTIC_ABILITY_OK = NULL
cdef tactic_hand_bonus_t TACTIC_HAND_BONUS = NULL


cdef int register_tactic_rules(tactic_ability_t ability_ok, tactic_hand_bonus_t hand_bonus) except -1:
    global TACTIC_ABILITY_OK, TACTIC_HAND_BONUS
    if ability_ok == NULL or hand_bonus == NULL:
        raise ValueError("register_tactic_rules: both rules are needed")
    TACTIC_ABILITY_OK = ability_ok
    TACTIC_HAND_BONUS = hand_bonus
    return 0


cdef bint tactic_ability_ok(const GameState* gs, const EngineStatics* es, int variant) noexcept nogil:
    """Can the current player use the ongoing ability of their tactic now (3.2, 4.1)?
    (Set before any game: binding the content loads the tactics module.)"""
    return TACTIC_ABILITY_OK != NULL and TACTIC_ABILITY_OK(gs, es, variant)


cdef int legal_tactic_abilities(const GameState* gs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    cdef int v
    for v in range(2):
        if tactic_ability_ok(gs, es, v) and n < MAX_ACTIONS:
            out[n] = act(A_TACTIC_ABILITY, v)
            n += 1
    return n


cdef int planning_bonus(const GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """3.2 Planning / 13.7.2: the Hand limit bonus of player p's tactic (ext/_fx_tactics.pyx)."""
    return TACTIC_HAND_BONUS(gs, es, p) if TACTIC_HAND_BONUS != NULL else 0


cdef void tactic_round_end(GameState* gs) noexcept nogil:
    """3.2.1: cards under Sparing Power go back among the Deed cards (to the discard pile:
    2.2.8 shuffles them into the new deck); an unused Mana Steal die returns to the Source
    (before its reroll, 2.2.2)."""
    cdef int p, i
    cdef Player* pl
    for p in range(gs.n_players):
        pl = &gs.players[p]
        for i in range(pl.n_tactic_cards):
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, pl.tactic_cards[i])
            pl.tactic_cards[i] = -1
        pl.n_tactic_cards = 0
        if pl.stolen_die >= 0 and gs.n_dice < MAX_DICE:
            gs.dice[gs.n_dice] = pl.stolen_die
            gs.n_dice += 1
        pl.stolen_die = -1
        pl.used_before_turn = 0


cdef void return_stolen_die(GameState* gs, Player* pl) noexcept nogil:
    """3.2 Mana Steal: a die used this turn is rerolled and returned at the end of the turn."""
    if gs.turn.stolen_used and gs.n_dice < MAX_DICE:
        gs.dice[gs.n_dice] = <int8_t>rng_below(&gs.rng[<int>STREAM_SOURCE], 6)
        gs.n_dice += 1
    gs.turn.stolen_used = 0


cdef int take_tactic(GameState* gs, const EngineStatics* es, const Statics* st, int t) noexcept nogil:
    """3.1 / 17.3.4: the player takes a tactic, then the dummy a random remaining one."""
    cdef int k, n = 0, pick, res
    cdef int left[6]
    cdef Player* pl = &gs.players[gs.current]
    cdef int row
    k = forced_tactic(gs)
    if 0 < gs.round <= MAX_ROUNDS:
        if gs.forced_tactic[gs.round - 1] > 0 and k < 0:
            pl.stats.forced_missed |= <uint8_t>(1 << (gs.round - 1))
        pl.stats.rounds[gs.round - 1].tactic = <int8_t>(t + 1)
    for k in range(6):
        if gs.tactics_available[k] == t:
            gs.tactics_available[k] = -1
            n = 1
    pl.tactic = <int8_t>t
    pl.round_order = <int8_t>es.tactic_row[t * es.tactic_stride + 1]   # 3.1.4
    if es.solo_tactics:
        mark_removed(gs, t)                                      # 17.3.4 (3.1.5 otherwise: set aside)
    n = 0
    for k in range(6):
        if gs.tactics_available[k] >= 0:
            left[n] = gs.tactics_available[k]
            n += 1
    if gs.has_dummy and n > 0 and next_tactic_picker(gs) < 0:   # 17.3.4: after the player(s)
        pick = left[rng_below(&gs.rng[<int>STREAM_DUMMY], n)]
        gs.dummy.tactic = <int8_t>pick
        gs.dummy.round_order = <int8_t>es.tactic_row[pick * es.tactic_stride + 1]
        mark_removed(gs, pick)
        for k in range(6):
            if gs.tactics_available[k] == pick:
                gs.tactics_available[k] = -1
    # 3.1.3: "when taken" effects resolve now; others are used later in the round
    # (3.2: "ongoing" ones are abilities used later through A_TACTIC_ABILITY)
    row = es.tactic_row[t * es.tactic_stride + 3]
    pl.tactic_used = 0
    pl.used_before_turn = 0
    if es.tactic_row[t * es.tactic_stride + 2] == 1 and erow(es, row)[0] != OP_NOTHING:
        reset_turn(gs)
        gs.turn.resolving_card = <int16_t>(-2 - t)               # a tactic, for error messages
        push_eval(gs, row)                                       # phase stays PH_TACTICS
        res = interp.run_effects(gs, es, st, effect_context(gs, gs.current))
        if res == RES_ERROR:
            return gs.error
        if res == RES_CHOICE:
            return ERR_NONE          # a decision first; apply_action then starts the turns
    after_tactic(gs, es, st)
    return ERR_NONE


cdef int next_tactic_picker(const GameState* gs) noexcept nogil:
    """3.1.2: of the players without a tactic, the one with the lowest Fame chooses next;
    a tie goes to the player whose Round Order token is lower in the column (the larger
    round_order: tactics not yet taken this round keep last round's order, 1.1.3 in
    round 1).  -1 = every player has a tactic."""
    cdef int p, best = -1
    cdef const Player* pl
    for p in range(gs.n_players):
        pl = &gs.players[p]
        if pl.tactic >= 0:
            continue
        if best < 0 or pl.fame < gs.players[best].fame or (
                pl.fame == gs.players[best].fame and pl.round_order > gs.players[best].round_order):
            best = p
    return best


cdef void after_tactic(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """After a tactic (and its 3.1.3 effect): the next player chooses (3.1.2); when all
    have, the turns begin in the new round order (3.1.4, 2.4.1)."""
    cdef int nxt = next_tactic_picker(gs)
    if nxt < 0:
        start_round_turns(gs, es, st)
        return
    gs.current = <int8_t>nxt
    reset_turn(gs)


cdef void mark_removed(GameState* gs, int t) noexcept nogil:
    cdef int k
    for k in range(12):
        if gs.tactics_removed[k] < 0:
            gs.tactics_removed[k] = <int8_t>t
            return


cdef void start_round_turns(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    cdef int order[MAX_PLAYERS + 1]
    actor_order(gs, order)
    gs.turns_in_round = 0
    start_actor_turn(gs, es, st, order[0])


# ---------------------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------------------

cdef int apply_action(Engine eng, int action) noexcept nogil:
    cdef GameState* gs = &eng.core.gs
    cdef const EngineStatics* es = &eng.es
    cdef const Statics* st = &eng.core.st
    cdef int kind = action >> ACTION_SHIFT
    cdef int arg = action & ARG_MASK
    cdef int p = gs.current
    cdef Player* pl = &gs.players[p]
    cdef int i, card, row, powered, pay, pay2, to, cost, a, b, deck, k, res, slot, c1, c2, colour
    cdef const int32_t* r
    cdef EffectContext ctx
    gs.steps += 1
    if gs.turn.handler_row >= 0:
        row = gs.turn.handler_row
        gs.turn.handler_row = -1
        gs.turn.ask = ASK_NONE
        gs.turn.ask_options = 0
        ctx = answer_context(gs)
        res = run_handler(gs, es, st, ctx.actor, row, arg)
        ctx.asked = gs.current                                   # a question put to another seat is over
        if res == RES_DONE:
            res = interp.run_effects(gs, es, st, ctx)
        if res == RES_DONE and gs.phase == PH_TACTICS:
            after_tactic(gs, es, st)                             # 3.1.3 resolved: next chooser or the turns
        return gs.error if res == RES_ERROR else ERR_NONE
    if gs.turn.pending_choice >= 0:
        r = erow(es, gs.turn.pending_choice)
        if r[0] != OP_CHOICE:                                    # a colour for gain_mana / gain_crystal
            gs.turn.pending_choice = -1
            for k in range(r[2]):
                if r[0] == OP_GAIN_MANA:
                    gs.turn.mana_tokens[arg] += 1               # 5.3.1
                else:
                    gain_crystal(pl, gs, arg)                   # 5.3.2
            res = interp.run_effects(gs, es, st, effect_context(gs, p))
            return gs.error if res == RES_ERROR else ERR_NONE
        gs.turn.pending_choice = -1
        push_eval(gs, r[4] + arg)
        res = interp.run_effects(gs, es, st, effect_context(gs, p))
        return gs.error if res == RES_ERROR else ERR_NONE
    if kind == A_UPKEEP:                                         # LL-4.5.4 (_engine_units.pxi)
        return apply_upkeep(gs, arg)
    if kind == A_PAY_UNIT:                                       # LL-4.3.4 (_engine_units.pxi)
        return apply_unit_payment(gs, es, arg)
    if (kind >= A_BANNER_COURAGE and kind <= A_BANNER_RETURN) or kind == A_BANNER_COMMAND:   # 7.5
        return apply_banner_action(gs, es, st, p, kind, arg)
    if kind == A_BOW_CHANGE:                                     # Bow of Starsdawn powered
        return apply_bow_change(gs, arg)
    if kind == A_CIRCLET_SKILL:                                  # Circlet of Proficiency
        return apply_circlet_skill(gs, es, st, p)
    if kind == A_TACTIC:
        return take_tactic(gs, es, st, arg)
    if kind == A_TACTIC_ABILITY:                                 # 3.2, 4.1
        gs.turn.hvars[7] = <int16_t>arg
        gs.turn.resolving_card = <int16_t>(-2 - pl.tactic)
        push_eval(gs, tactic_effect_row(es, pl.tactic))
        res = interp.run_effects(gs, es, st, effect_context(gs, p))
        if res == RES_DONE and gs.phase == PH_END_TURN and gs.turn.end_stage == END_LONG_NIGHT:
            finish_turn(gs, es, st)                              # 13.7.4: go on drawing
        return gs.error if res == RES_ERROR else ERR_NONE
    if kind == A_USE_SKILL:                                      # 8.2 (_engine_skills.pxi)
        return use_skill(gs, es, st, p, arg)
    if kind == A_SKILL_CRYSTAL:                                  # Source Freeze (_engine_skills.pxi)
        return source_freeze_crystal(gs, p, arg)
    if kind == A_FORFEIT:                                        # 4.2.5
        end_actor_turn(gs, es, st)
        return ERR_NONE
    if kind == A_STEADY_TEMPO:
        return apply_steady_tempo(gs, p)
    if kind >= A_INFLUENCE_BLOCK and kind <= A_PEACEFUL:         # _engine_advanced.pxi
        return apply_advanced_action(gs, es, p, kind, arg)
    if kind == A_RETURN_CARD:                                    # Crystal Joy (end of turn)
        card = pl.hand[arg]
        remove_at(pl.hand, &pl.n_hand, arg)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        for i in range(pl.n_discard - 1, -1, -1):
            if pl.discard[i] == gs.turn.crystal_joy_card:
                remove_at(pl.discard, &pl.n_discard, i)
                push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, gs.turn.crystal_joy_card)
                break
        gs.turn.crystal_joy = 0
        return ERR_NONE
    if kind == A_ANNOUNCE_END:                                   # 4.2
        gs.end_announced_by = <int8_t>p
        gs.last_turn_taken[p] = 1
        end_actor_turn(gs, es, st)                               # 4.2.6: nothing else happens
        return ERR_NONE
    if kind == A_REGULAR_TURN:
        gs.turn.empty_start = 1 if pl.n_hand == 0 and pl.n_deck > 0 else 0   # 4.3.2 exception
        gs.phase = PH_MOVE
        return ERR_NONE
    if kind == A_REST:
        gs.phase = PH_REST
        return ERR_NONE
    if kind == A_PLAY:
        i = arg & 0x7F
        powered = (arg >> 7) & 1
        pay = (arg >> 8) & 0x1F
        pay2 = (arg >> 13) & 0x1F
        card = pl.hand[i]
        deck = card_deck(es, card)
        row = card_playable_mode(gs, es, card, powered)
        c1 = c2 = -1
        if deck == DECK_SPELL or (powered and deck != DECK_ARTIFACT):
            colour = card_colour(es, card) if deck == DECK_SPELL or pay == PAY_NONE \
                else power_colour(gs, es, card, pay)             # Crystal Joy: any basic
            c1 = pay_colour(gs, pay)                             # Mana Overload (_engine_skills.pxi)
            if deck == DECK_SPELL and powered and pay2 != PAY_NONE:
                c2 = pay_colour(gs, pay2)
            k = gs.turn.polar_nospell
            pay_take(gs, pay, colour)                            # 5.4.5: paid when played
            if deck == DECK_SPELL:
                gs.turn.polar_nospell = <int8_t>k                # an unrestricted token was used
            if deck == DECK_SPELL and powered:
                if not pay_ok(gs, pay2, BLACK):                  # playable_after_paying tried it after the colour
                    set_error(gs, ERR_INTERNAL, INTERNAL_BLACK_MANA, card)
                    return ERR_INTERNAL
                pay_take(gs, pay2, BLACK)
        remove_at(pl.hand, &pl.n_hand, i)
        if deck == DECK_ARTIFACT and powered:
            pl.removed += 1                                      # 6.1.5: thrown away
        else:
            push_card(pl.play_area, &pl.n_play, MAX_PLAY_CARDS, card)            # 6.1.2
        gs.turn.played_card = 1
        if deck == DECK_SPELL and card_colour(es, card) < 4 and gs.turn.spells_cast[card_colour(es, card)] < 127:
            gs.turn.spells_cast[card_colour(es, card)] += 1     # cast, not sideways (Rings)
        gs.turn.resolving_card = <int16_t>card
        if powered and deck != DECK_ARTIFACT:
            overload_arm(gs, es, p, card, c1, c2)                # LL-7 Mana Overload (_engine_skills.pxi)
        push_eval(gs, row)
        res = interp.run_effects(gs, es, st, effect_context(gs, p))
        return gs.error if res == RES_ERROR else ERR_NONE
    if kind == A_SIDEWAYS:                                       # 6.1.7
        i = arg & 0x7F
        a = arg >> 7                                             # 0 Move, 1 Influence, 2 Attack, 3 Block
        card = pl.hand[i]
        remove_at(pl.hand, &pl.n_hand, i)
        push_card(pl.play_area, &pl.n_play, MAX_PLAY_CARDS, card)
        gs.turn.played_card = 1
        if a == 0:
            gs.turn.move_points += 1 + move_bonus(gs)            # Tirelessness: even sideways
        elif a == 1:
            gs.turn.influence += 1                               # 10.2.2
        elif a == 2:
            gs.combat.attack[0][0] += 1 + ambush_bonus(gs, 0) + deadly_aim_bonus(gs)   # physical melee Attack 1
        else:
            gs.combat.block[0] += 1 + ambush_bonus(gs, 1)        # physical Block 1
        fire_event(gs, es, st, p, EV_CARD_PLAYED, card)          # a card played sideways is played (6.1.7)
        return ERR_NONE
    if kind == A_HEAL_WOUND:                                     # 12.3.3
        i = arg
        remove_at(pl.hand, &pl.n_hand, i)                        # back to the Wound pile
        gs.turn.healing -= 1
        grail_spent(gs, pl, 1)
        gs.turn.wounds_healed += 1
        if gs.turn.n_mods:                                       # Golden Grail, Cure
            i = mod_sum(&gs.turn, MK_DRAW_PER_HEAL) + mod_sum(&gs.turn, MK_CURE)
            if i > 0:
                draw_cards(gs, pl, i)
        return ERR_NONE
    if kind == A_MOVE and arg >= BEND_MOVE:                      # Space Bending (_engine_spells.pxi)
        return space_bending_move(gs, es, st, p, arg - BEND_MOVE)
    if kind == A_MOVE:                                           # 9.3.5
        to = gs.hexes[pl.position].neighbour[arg]
        cost = move_cost(gs, st, to)
        a = provokes(gs, st, pl.position, to)
        b = pl.position
        gs.turn.move_points -= cost
        pl.position = <int16_t>to
        if gs.turn.n_path < MAX_PATH:
            gs.turn.path[gs.turn.n_path] = <int16_t>to
            gs.turn.n_path += 1
        gs.turn.moved = 1
        reveal_by_day(gs, es, p)                                 # 9.10.1
        hawk_eyes_reveal(gs, es, p)                              # Hawk Eyes by Day (_engine_skills.pxi)
        if a != 0 or ends_movement(gs, st, to, p):               # 9.4.1, 9.4.3 -> 11.1
            return fight_after_move(gs, es, st, p, b, to, a)
        return ERR_NONE
    if kind == A_EXPLORE and arg & EXPLORE_BOX_FLAG:             # 9.8.8: a tile from the box
        arg &= EXPLORE_BOX_FLAG - 1
        slot = explore_from_box(gs, st, p, (arg >> 7) - 64, (arg & 0x7F) - 64)
        if slot < 0:                                             # box_explorable listed it
            set_error(gs, ERR_INTERNAL, INTERNAL_EXPLORE, -1)
            return ERR_INTERNAL
        gs.turn.move_points += mod_sum(&gs.turn, MK_EXPLORE_DISCOUNT)          # Hawk Eyes: it paid 2
        check_city_revealed(gs, es, st, slot)
        reveal_by_day(gs, es, p)                                 # 9.10.1: new sites next to the hero
        return ERR_NONE
    if kind == A_EXPLORE:                                        # 9.8
        a = (arg >> 7) - 64
        b = (arg & 0x7F) - 64
        slot = explore(gs, st, p, a, b)
        if slot == RULES_ILLEGAL:
            slot = units_explore_far(gs, st, p, a, b)            # Scouts (_engine_units.pxi)
        if slot < 0:                                             # explorable / units_explorable_far listed it
            set_error(gs, ERR_INTERNAL, INTERNAL_EXPLORE, -1)
            return ERR_INTERNAL
        gs.turn.move_points += mod_sum(&gs.turn, MK_EXPLORE_DISCOUNT)          # Hawk Eyes: explore() paid 2
        check_city_revealed(gs, es, st, slot)
        reveal_by_day(gs, es, p)                                 # 9.10.1: new sites next to the hero
        return ERR_NONE
    if kind == A_REST_DISCARD:                                   # 4.5.2
        card = pl.hand[arg]
        if gs.turn.rest_mode == 0:
            if has_non_wound(pl, es):
                gs.turn.rest_mode = 1
            else:
                gs.turn.rest_mode = 2                            # slow recovery
        remove_at(pl.hand, &pl.n_hand, arg)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)               # 4.5.2: to the discard pile
        gs.turn.played_card = 1                                  # 4.3.2 satisfied
        return ERR_NONE
    if kind == A_PLUNDER:                                        # 10.7.1.4 (_engine_combat.pxi)
        return plunder(gs, es, p)
    if kind >= A_BUY_ARTIFACT and kind <= A_ADD_ELITE:           # 10.10 (_engine_units.pxi)
        return apply_city_purchase(gs, es, p, kind, arg)
    if (kind >= A_CHALLENGE and kind <= A_INTERACT) or kind == A_ALTAR:
        return apply_site_action(gs, es, st, p, kind, arg)
    if kind == A_CONVERT_MOVE:                                   # Agility (_engine_advanced.pxi)
        return apply_convert_move(gs, arg)
    if kind == A_POSSESS:                                        # Possess (_engine_spells.pxi)
        return apply_possess(gs, st)
    if kind == A_WINGS_TARGET:                                   # Wings of Night (_engine_spells.pxi)
        return apply_wings_target(gs, st, arg)
    if kind == A_CUMBERSOME:                                     # LL-6.5.2 (_engine_combat.pxi)
        return apply_cumbersome(gs, st, arg)
    if kind >= A_COMMIT_ATTACK and kind <= A_NEXT_PHASE:
        return apply_combat_action(gs, es, st, p, kind, arg)
    if kind >= A_END_INTERACT and kind <= A_HEAL_UNIT:          # _engine_units.pxi
        return apply_interaction(gs, es, st, p, kind, arg)
    if kind == A_REWARD:
        k = apply_reward(gs, es, st, arg)
        if k != ERR_NONE:
            return k
        if gs.turn.n_rewards == 0 and gs.turn.reward_choice == 0:
            next_level_stage(gs, es, st)
        return gs.error
    if kind == A_END_TURN:
        end_turn_begin(gs, es, st)
        return ERR_NONE
    if kind == A_GLADE_WOUND:                                    # 10.7.11.2
        if arg == 1:
            for i in range(pl.n_hand):
                if pl.hand[i] == es.wound:
                    remove_at(pl.hand, &pl.n_hand, i)
                    break
        elif arg == 2:
            for i in range(pl.n_discard):
                if pl.discard[i] == es.wound:
                    remove_at(pl.discard, &pl.n_discard, i)
                    break
        rewards_stage(gs, es, st)
        return gs.error
    if kind == A_PICK_SKILL:                                     # 13.6.4
        k = pick_skill(gs, arg)
        skill_gained(gs, es, k)                                  # Bonds of Loyalty (_engine_skills.pxi)
        if gs.aa_offer[0] >= 0:
            gs.turn.end_stage = END_LEVEL_AA
        else:
            next_level_stage(gs, es, st)
        return ERR_NONE
    if kind == A_PICK_AA:                                        # 13.6.4
        gain_deed(es, pl, gs.aa_offer[arg])                      # 6.4.1: top of the deck
        refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, arg)
        next_level_stage(gs, es, st)
        return ERR_NONE
    if kind == A_DISCARD:                                        # 13.7.1
        card = pl.hand[arg]
        remove_at(pl.hand, &pl.n_hand, arg)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        gs.turn.discarded_end += 1
        return ERR_NONE
    if kind == A_DRAW:
        if gs.turn.end_stage == END_LONG_NIGHT:                  # 13.7.4: stop drawing
            gs.turn.end_stage = END_NONE
            next_actor(gs, es, st)
            return ERR_NONE
        finish_turn(gs, es, st)                                  # END_DISCARD, the only other listing
        return ERR_NONE
    set_error(gs, ERR_INTERNAL, INTERNAL_NO_APPLY, -1)           # listed, yet no branch applies it
    return ERR_INTERNAL


cdef int pick_skill(GameState* gs, int arg) noexcept nogil:
    """13.6.4 [R]: keep one of the two revealed own tokens and put the other into the
    Common Skill offer, or take an offer token and put both revealed ones there.  In a
    solo game one dummy skill joins the offer each time (18.3.1)."""
    cdef Player* pl = &gs.players[gs.current]
    cdef int top = pl.n_skill_stack - 1
    cdef int keep, other, k, slot
    if arg < SKILL_CHOICES:
        keep = pl.skill_stack[top - arg]
        other = pl.skill_stack[top - 1 + arg] if top >= 1 else -1
        pl.n_skill_stack -= 2 if top >= 1 else 1
        if other >= 0:
            gs.skill_offer[gs.n_skill_offer] = <int8_t>other
            gs.n_skill_offer += 1
    else:
        slot = arg - 2
        keep = gs.skill_offer[slot]
        for k in range(slot, gs.n_skill_offer - 1):
            gs.skill_offer[k] = gs.skill_offer[k + 1]
        gs.n_skill_offer -= 1
        for k in range(2):
            gs.skill_offer[gs.n_skill_offer] = pl.skill_stack[top - k]
            gs.n_skill_offer += 1
        pl.n_skill_stack -= 2
    for k in range(MAX_SKILLS):
        if pl.skills[k] < 0:
            pl.skills[k] = <int8_t>keep
            break
    if gs.has_dummy and gs.dummy.n_skill_stack > 0:               # 18.3.1
        gs.dummy.n_skill_stack -= 1
        gs.skill_offer[gs.n_skill_offer] = gs.dummy.skill_stack[gs.dummy.n_skill_stack]
        gs.n_skill_offer += 1
    return keep


cdef void check_city_revealed(GameState* gs, const EngineStatics* es, const Statics* st, int slot) noexcept nogil:
    """17.3.1: in First Reconnaissance, revealing a city triggers the end: every player
    (not the dummy, 14.3.4) takes one last turn, counted from the next one (14.3.2)."""
    cdef int k, h
    if not es.end_city_revealed or gs.final_turns_left > 0:
        return
    for k in range(7):
        h = gs.tiles[slot].first_hex + k
        if gs.hexes[h].site == es.city_site:
            gs.final_turns_left = <int8_t>(gs.n_players + 1)   # this turn + one more each
            return


# ---------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------

# {group: ((name, argument names), ...)}: the included groups' HANDLERS tuples; the registry
# groups are added from their entries when their modules load (_load_handler_modules).
HANDLER_TABLES = {
                  }
HANDLER_GROUP_NAMES = {HG_TACTICS: "tactics", HG_BASIC: "basic", HG_ADVANCED: "advanced",
                       HG_SPELLS: "spells", HG_ARTIFACTS: "artifacts", HG_SKILLS: "skills",
                       HG_UNITS: "units"}


# Handler groups compiled as modules of their own: they register their entries when imported.
HANDLER_MODULES = {HG_BASIC: "mksim._fx_basic",
                   HG_UNITS: "mksim._fx_units",
                   HG_TACTICS: "mksim._fx_tactics",
                   HG_ARTIFACTS: "mksim._fx_artifacts",
                   HG_SPELLS: "mksim._fx_spells",
                   HG_SKILLS: "mksim._fx_skills",
                   HG_ADVANCED: "mksim._fx_advanced",
                   }


def _load_handler_modules():
    """Import the registry groups (once) and add their entries to HANDLER_TABLES.  Done on
    first use rather than at import: a group module imports this one for its C API."""
    import importlib
    cdef int g, k
    cdef const HandlerEntry* e
    if interp.run_effects == NULL:
        importlib.import_module("mksim._effects")                # the interpreter (register_interpreter)
        if interp.run_effects == NULL:
            raise RuntimeError("module mksim._effects registered no interpreter (register_interpreter)")
    for g, modname in HANDLER_MODULES.items():
        if g in HANDLER_TABLES:
            continue
        importlib.import_module(modname)
        if GROUP_ENTRIES[g] == NULL:
            raise RuntimeError(f"handler module {modname} registered no handlers")
        table = []
        for k in range(GROUP_N[g]):
            e = &GROUP_ENTRIES[g][k]
            params = tuple(e.params.decode().split())
            if len(params) > MAX_HANDLER_ARGS:
                raise RuntimeError(f"handler {e.name.decode()!r} declares more than {MAX_HANDLER_ARGS} arguments")
            table.append((e.name.decode(), params))
        HANDLER_TABLES[g] = tuple(table)
    if TACTIC_ABILITY_OK == NULL:
        raise RuntimeError("handler module mksim._fx_tactics registered no tactic rules (register_tactic_rules)")


def _make_handler_registry():
    import types
    _load_handler_modules()
    reg = {}
    for g, table in HANDLER_TABLES.items():
        for name, params in table:
            if name in reg:       # a handler shared by several decks lives in one group
                raise RuntimeError(f"handler {name!r} is declared by two groups")
            reg[name] = (HANDLER_GROUP_NAMES[g], tuple(params))
    return types.MappingProxyType(reg)


_HANDLER_REGISTRY = None


def modifier_constants():
    """The C limits of the modifier array and lifecycle events (issue 12), for the fixture
    checks and tests: {name: value}."""
    return {"MAX_MODS": MAX_MODS, "NUM_MOD_KINDS": NUM_MOD_KINDS, "NUM_MOD_SCOPES": NUM_MOD_SCOPES,
            "NUM_EVENTS": NUM_EVENTS, "MAX_EVENT_SUBS": MAX_EVENT_SUBS,
            "sizeof_Modifier": sizeof(Modifier), "sizeof_TurnState": sizeof(TurnState),
            "sizeof_GameState": sizeof(GameState)}


def modifier_ops(ops, live=False):
    """Run the modifier helpers of ext/_modifiers.pxd on a fresh TurnState, for unit tests:
    `ops` is a sequence of ("add", kind, scope, value, arg, source, owner), ("set", kind,
    scope, value, source, owner), ("remove", kind), ("take", kind, n), ("event", EV_x, arg)
    (the expiry fire_event does) or ("turn_end",) (reset_turn's).  Returns (results, mods):
    each op's return value and the live entries as (kind, scope, value, arg, source, owner);
    with `live`, (results, mods, masks): also TurnState.mod_live after each op and the
    kinds' bits read from the entries then, as pairs (they must be equal)."""
    cdef GameState* gs = <GameState*>calloc(1, sizeof(GameState))
    cdef Modifier keep[MAX_MODS]
    cdef int n_keep, r, i
    if gs == NULL:
        raise MemoryError()
    results = []
    masks = []
    try:
        for op in ops:
            name = op[0]
            if name in ("add", "set", "remove", "take") and not 0 < op[1] < NUM_MOD_KINDS:
                raise ValueError(f"kind: {op[1]} is not a modifier kind (1 .. {NUM_MOD_KINDS - 1})")
            if name == "add":
                r = mod_add(&gs.turn, op[1], op[2], op[3], op[4], op[5], op[6])
            elif name == "set":
                r = mod_set(&gs.turn, op[1], op[2], op[3], op[4], op[5])
            elif name == "remove":
                r = mod_remove_kind(&gs.turn, op[1])
            elif name == "take":
                r = mod_take(&gs.turn, op[1], op[2])
            elif name == "event":
                if not 0 <= op[1] < NUM_EVENTS:
                    raise ValueError(f"event: {op[1]} is not a lifecycle event")
                r = mod_expire(&gs.turn, event_scope(op[1]), op[2] if op[1] == EV_CARD_PLAYED else -2)
            elif name == "turn_end":
                r = gs.turn.n_mods
                reset_turn(gs)
                r -= gs.turn.n_mods
            else:
                raise ValueError(f"modifier_ops: unknown op {name!r}")
            results.append(r)
            masks.append((gs.turn.mod_live, mod_live_of(&gs.turn)))
        mods = [(gs.turn.mods[i].kind, gs.turn.mods[i].scope, gs.turn.mods[i].value, gs.turn.mods[i].arg,
                 gs.turn.mods[i].source, gs.turn.mods[i].owner) for i in range(gs.turn.n_mods)]
    finally:
        free(gs)
    return (results, mods, masks) if live else (results, mods)


# A test-only log of the events fired (event_log): a subscriber of every event, added once.
cdef int32_t _ev_log[64]
cdef int _ev_log_n = 0
cdef bint _ev_log_on = False


cdef void _ev_log_hook(GameState* gs, const EngineStatics* es, const Statics* st, int p, int ev,
                       int arg) noexcept nogil:
    global _ev_log_n
    if _ev_log_n < 64:
        _ev_log[_ev_log_n] = ev << 16 | (arg & 0xFFFF)
        _ev_log_n += 1


def event_log(bint take=True):
    """Tests: the (event, arg) pairs fired since the last call, in order (at most 64), and
    the log cleared.  The first call subscribes the logger to every event (it stays
    subscribed: one slot of each event's table)."""
    global _ev_log_n, _ev_log_on
    cdef int i
    if not _ev_log_on:
        for i in range(NUM_EVENTS):
            if subscribe_event(i, _ev_log_hook) < 0:
                raise RuntimeError(f"event_log: the subscription table of event {i} is full")
        _ev_log_on = True
    out = [(_ev_log[i] >> 16, <int16_t>(_ev_log[i] & 0xFFFF)) for i in range(_ev_log_n)]
    if take:
        _ev_log_n = 0
    return out


def events():
    """{name: value} of the lifecycle events (ext/_modifiers.pxd Event)."""
    return {"turn_start": EV_TURN_START, "turn_end": EV_TURN_END, "phase_start": EV_PHASE_START,
            "phase_end": EV_PHASE_END, "card_played": EV_CARD_PLAYED, "block_committed": EV_BLOCK_COMMITTED,
            "attack_committed": EV_ATTACK_COMMITTED, "damage_assigned": EV_DAMAGE_ASSIGNED,
            "combat_end": EV_COMBAT_END, "round_end": EV_ROUND_END}


def handler_registry():
    """The effect handlers the engine implements, read-only.

    Returns
    -------
    mapping
        ``{handler name: (group, argument names)}``: the group is the handler module
        (``"basic"`` for ext/_fx_basic.pyx, ``"advanced"`` for ext/_fx_advanced.pyx ...); the
        argument names are those the handler reads, in its order.  Built from HANDLER_TABLES
        (the groups' own declarations: a registry module's entries, an included group's
        HANDLERS tuple), so content validation (mksim/content.py) and ``Engine._bind_handlers``
        read one source.  A content ``handler(name, k=v, ...)`` must give exactly these
        arguments.
    """
    global _HANDLER_REGISTRY
    if _HANDLER_REGISTRY is None:
        _HANDLER_REGISTRY = _make_handler_registry()
    return _HANDLER_REGISTRY

ERROR_TEXT = {
    ERR_ILLEGAL: "illegal action",
    ERR_ALTAR: "a Fame reward was queued for the end of the turn (13.5); no site or ruins token gives one (altars pay their Fame at once, 10.7.10.2, and Engine._bind_sites refuses a 'fame' reward)",
    ERR_COMBAT: "an effect operation the interpreter does not handle (error_arg = op code)",
    ERR_ENEMY_EFFECT: "an enemy Armor change with a floor other than 1 is not implemented yet",
    ERR_INTERACTION: "interaction and site actions (rule 10) are not implemented yet",
    ERR_BOX_TILES: "exploring with tiles from the box (9.8.8): no longer raised (kept for the numbering)",
    ERR_UNIT_EFFECT: "effects on Units (ready/heal a unit, 7.3.4, 12.3.4) are not implemented yet",
    ERR_CAPACITY: "ERR_CAPACITY: a size limit of the core was reached, the game stops rather than lose a card (a card zone is full: ext/_types.pxd MAX_*_CARDS; or more than 62 cards other than Wounds in a hand)",
    ERR_CARD_BONUS: "the Concentration / Will Focus bonus on Influence, Block or Attack is not implemented yet",
    ERR_UNIT_RULES: "a unit's special rules (units.toml special_rules not known to ext/_engine_units.pxi SPECIAL_UNIT_CODES, or a Banner on a unit, 7.5) are not implemented yet",
    ERR_CITY: "interaction in a conquered city (10.2.4, 10.10): no longer raised (kept for the numbering)",
    ERR_HEROES: "a rule between heroes is not implemented yet",
    ERR_INTERNAL: "engine error (ERR_INTERNAL): an internal inconsistency",
}
INTERNAL_TEXT = {                                          # error_arg of ERR_INTERNAL: what broke
    INTERNAL_REFUSED: "an apply path refused it (ERR_ILLEGAL after the legal-list check)",
    INTERNAL_NO_APPLY: "apply_action has no branch for its kind",
    INTERNAL_BLACK_MANA: "the powered Spell's black mana was no longer payable once its colour was paid (5.4.3)",
    INTERNAL_EXPLORE: "exploring the listed tile position failed (9.8)",
    INTERNAL_REWARD: "claiming the listed reward failed (13.5)",
    INTERNAL_NO_OPTION: "an effect handler met a state its playable rule had excluded (no option left, the "
                        "chosen one gone, or a handler that never resolves)",
    INTERNAL_COMBAT_STEP: "the combat step failed in ext/_combat.pyx (11.5-11.7)",
    INTERNAL_CUMBERSOME: "reducing the Cumbersome attack failed (LL-6.5.2)",
    INTERNAL_RECRUIT: "the Unit's price (after discounts, Thugs / Heroes) exceeds the Influence (10.6)",
    INTERNAL_BANNER: "the Unit already carries a Banner of Command (LL-5.1)",
}
HEROES_RULE_TEXT = {
    HEROES_INTERACTIVE_SKILL: "its secondary effect on the other heroes (a cooperative skill, LL-7.3) with "
                              "more than one hero",
    HEROES_INTERACTIVE_SPELL: "Mind Steal taking a card between heroes (19.7.1): no longer raised (kept "
                              "for the numbering)",
    HEROES_OPPONENT_KEEP: "a move ending on a conquered site owned by another player that is not a keep "
                          "(10.7.3.5 covers keeps)",
}

# The kind names and describe()'s argument layouts: the one table of action kinds, from which
# the C enum (ext/_actions.pxd) is generated too (mksim/actions.py).
from mksim.actions import ACTION_SHIFT as _TABLE_SHIFT, KIND_NAMES, KIND_CODES, KIND_LAYOUTS, parse_layout
if _TABLE_SHIFT != ACTION_SHIFT:
    raise ImportError(f"mksim/actions.py ACTION_SHIFT {_TABLE_SHIFT} != ext/_engine.pxd ACTION_SHIFT {ACTION_SHIFT}")
_LAYOUT_FIELDS = {k: parse_layout(v) for k, v in KIND_LAYOUTS.items() if v not in (None, "explore", "recruit")}


cdef void check_capacity(GameState* gs, int wound) noexcept nogil:
    """Stop the game with ERR_CAPACITY rather than lose a card silently: a zone that reached
    its capacity (MAX_*_CARDS) may have refused a card, and hand indices must fit the action encoding (7
    bits) and the 64 options of a handler's question.

    Wounds have no limit (1.2.4: the Wound pile; a hero who keeps fighting can hold 60+).
    A hand is a set of cards and every Wound is alike, so a hand grown past the encodable
    indices is reordered with its Wounds last (the other cards keep their order): then
    every distinct card, the first Wound included, still has an index the encodings
    reach.  Only between decisions (no question pending), so no index held by a pending
    question moves."""
    cdef int p, i, k
    cdef Player* pl
    if gs.cards_refused:                                 # a full zone refused a card: it is not lost
        set_error(gs, ERR_CAPACITY, 7, -1)               # silently, the game stops here
    for p in range(gs.n_players):
        pl = &gs.players[p]
        if (pl.n_hand > MAX_HAND_INDEX and gs.turn.handler_row < 0 and gs.turn.pending_choice < 0
                and gs.turn.n_eval == 0):
            k = 0
            for i in range(pl.n_hand):                  # stable: non-Wounds first, in order
                if pl.hand[i] != wound:
                    pl.hand[k] = pl.hand[i]
                    k += 1
            for i in range(k, pl.n_hand):
                pl.hand[i] = <int16_t>wound
        if pl.n_deck >= MAX_DECK_CARDS or pl.n_discard >= MAX_DISCARD_CARDS or pl.n_play >= MAX_PLAY_CARDS:
            set_error(gs, ERR_CAPACITY, 5, -1)
        elif pl.n_hand > MAX_HAND_INDEX:
            for i in range(MAX_HAND_INDEX, pl.n_hand):  # a card the encodings cannot reach
                if pl.hand[i] != wound or (i == MAX_HAND_INDEX and pl.hand[i - 1] != wound):
                    set_error(gs, ERR_CAPACITY, 5, -1)
                    break
    if gs.dummy.n_deck >= MAX_DUMMY_CARDS or gs.dummy.n_discard >= MAX_DUMMY_CARDS:
        set_error(gs, ERR_CAPACITY, 6, -1)


cdef class Engine:
    """The decision loop over one :class:`mksim._state.GameCore`.

    Parameters
    ----------
    core : GameCore
        A freshly set-up game (its state is changed in place).
    tables : mksim.tables.Tables
    content : mksim.content.Content
    scenario_id : str
    """

    def __init__(self, GameCore core, tables, content, scenario_id, Engine template=None):
        core.engine_ref = weakref.ref(self)     # GameCore.load_dict checks fixtures with it
        if template is not None:
            # Same tables and scenario as `template`: share its bound statics (the arrays
            # they point into stay alive through self._template) and only begin the game.
            self.core = core
            self.tables = tables
            self._template = template
            self.es = template.es
            self.es.st = &core.st
            self._handler_group = template._handler_group
            self._begin(tables, content, scenario_id)
            return
        if list(OP_ORDER) != [op.name for op in _fx.OPS]:
            raise RuntimeError("mksim.effects.OPS and ext/_engine.pyx OP_ORDER disagree")
        self.core = core
        self.es.st = &core.st
        self.tables = tables
        self._effects = np.ascontiguousarray(tables.effects, dtype=np.int32)
        self._cards = np.ascontiguousarray(tables.cards, dtype=np.int32)
        self._tactics = np.ascontiguousarray(tables.tactics, dtype=np.int32)
        self._skills = np.ascontiguousarray(tables.skills, dtype=np.int32)
        self._bind(tables, content, scenario_id)
        self._begin(tables, content, scenario_id)

    def _bind(self, tables, content, scenario_id):
        cdef const int32_t[:, ::1] eff = self._effects
        cdef const int32_t[:, ::1] cards = self._cards
        cdef const int32_t[:, ::1] tac = self._tactics
        cdef const int32_t[:, ::1] sk = self._skills
        es = &self.es
        es.effects.data = &eff[0, 0]
        es.effects.rows = eff.shape[0]
        es.effects.width = eff.shape[1]
        es.card_stride = cards.shape[1]
        es.card_deck = &cards[0, tables.col("cards", "deck")]
        es.card_colour = &cards[0, tables.col("cards", "colour")]
        es.card_basic = &cards[0, tables.col("cards", "basic")]
        es.card_powered = &cards[0, tables.col("cards", "powered")]
        es.card_power_any = &cards[0, tables.col("cards", "power_any")]
        es.wound = tables.card_ids.index("wound")
        es.tactic_row = &tac[0, 0]
        es.tactic_stride = tac.shape[1]
        es.n_tactics = tac.shape[0]
        es.skill_row = &sk[0, 0]
        es.skill_stride = sk.shape[1]
        es.n_skills = sk.shape[0]
        sc = content.get("scenarios", scenario_id)
        rules = self.core.setup.special_rules          # the solo or the N-player entry (prepare_setup)
        es.rounds = self.core.setup.rounds
        es.end_city_revealed = 1 if sc["end"] == "city_revealed" else 0
        es.remove_interactive_skills = 1 if "remove_interactive_skills" in rules else 0
        es.elite_units = 1 if sc["elite_units"] else 0
        es.city_closed = 1 if "city_cannot_be_entered" in rules else 0
        es.solo_tactics = 1 if "solo_tactics" in rules else 0
        self._bind_handlers(tables)
        self._bind_sites(content)
        _bind_units(self, tables, content)
        site = _ct.SITE_IDS.index
        es.city_site = site("city")
        es.portal_site = site("portal")
        es.glade_site = site("magical_glade")
        es.refugee_site = site("refugee_camp")
        es.mine_site = site("crystal_mine")
        es.monastery_site = site("monastery")

    def _bind_handlers(self, tables):
        """Map content handler names to group code, and lay out each handler row's
        arguments in the order its group declares them (the data must match exactly)."""
        cdef const int32_t[:] hg
        cdef const int32_t[:] hl
        cdef const int32_t[:, ::1] ra
        group = np.full(max(1, len(tables.handlers)), -1, dtype=np.int32)
        local = np.full(max(1, len(tables.handlers)), -1, dtype=np.int32)
        declared = {}
        _load_handler_modules()
        for g, table in HANDLER_TABLES.items():
            for code, (name, params) in enumerate(table):
                if name in declared:       # a handler shared by several decks lives in one group
                    raise RuntimeError(f"handler {name!r} is declared by two groups")
                declared[name] = (g, code, params)
        for hid, name in enumerate(tables.handlers):
            if name in declared:
                group[hid], local[hid] = declared[name][0], declared[name][1]
        args = np.full((tables.effects.shape[0], MAX_HANDLER_ARGS), -9999, dtype=np.int32)
        keys = tables.handler_arg_keys
        for row in range(tables.effects.shape[0]):
            op, hid, first, count = tables.effects[row, 0], tables.effects[row, 1], tables.effects[row, 2], tables.effects[row, 3]
            if op != OP_HANDLER or group[hid] < 0:
                continue
            name = tables.handlers[hid]
            params = declared[name][2]
            for i in range(first, first + count):
                key, kind, value = tables.handler_args[i]
                kname = keys[key]
                if kname not in params:
                    raise ValueError(f"handler {name!r}: the content gives argument {kname!r}, "
                                     f"which the engine does not declare (declared: {', '.join(params) or 'none'})")
                args[row, params.index(kname)] = value
        self._handler_group = group
        self._handler_local = local
        self._row_args = args
        hg = group
        hl = local
        ra = args
        self.es.handler_group = &hg[0]
        self.es.handler_local = &hl[0]
        self.es.row_args = &ra[0, 0]

    def _bind_sites(self, content):
        """Site codes and numbers (sites.toml, 10.7) and the ruins tokens (ruins.toml)."""
        cdef const int32_t[:, ::1] rv
        cdef const int32_t[:, ::1] sv
        cdef SiteRules* sr = &self.es.sites
        sid = _ct.SITE_IDS.index
        sites = {s["id"]: s for s in content["sites"]}
        sr.village, sr.monastery, sr.keep = sid("village"), sid("monastery"), sid("keep")
        sr.mage_tower, sr.city, sr.dungeon = sid("mage_tower"), sid("city"), sid("dungeon")
        sr.tomb, sr.monster_den = sid("tomb"), sid("monster_den")
        sr.spawning_grounds, sr.ancient_ruins = sid("spawning_grounds"), sid("ancient_ruins")
        sr.rampaging_orc, sr.rampaging_draconum = sid("rampaging_orc"), sid("rampaging_draconum")
        sr.rep_assault = sites["keep"].get("reputation_assault", -1)
        sr.rep_burn = sites["monastery"].get("reputation_burn", -3)
        sr.rep_plunder = sites["village"]["reputation_plunder"]   # 10.7.1.4
        sr.rep_orc = sites["rampaging_orc"].get("reputation_defeat", 1)
        sr.rep_draconum = sites["rampaging_draconum"].get("reputation_defeat", 2)
        piles = _ct.ENEMY_COLOURS.index
        def reward(x):
            # 13.5: a "fame" reward has no amount in the data; altars pay their Fame at once
            # (10.7.10.2), so no site or enemy ruins token may list one (see RW_FAME)
            if x == "fame":
                raise ValueError("a site / ruins reward 'fame' has no amount; altar Fame is the `fame` field")
            return _ct.REWARDS.index(x)
        table = np.zeros((len(_ct.SITE_IDS), ST_WIDTH), dtype=np.int32)
        for s in content["sites"]:
            row = table[sid(s["id"])]
            rw = [reward(x) for x in s.get("rewards", [])][:8]
            row[ST_N_REWARDS] = len(rw)
            row[ST_REWARDS:ST_REWARDS + len(rw)] = rw
            en = [piles(x) for x in s.get("enemies_on_enter", [])][:4]
            row[ST_N_ENTER] = len(en)
            row[ST_ENTER:ST_ENTER + len(en)] = en
            row[ST_UNITS] = int(s["units_allowed"])
            row[ST_NIGHT] = int(s["night_rules"])
        ruins = np.zeros((max(1, len(content["ruins"])), RUINS_WIDTH), dtype=np.int32)
        for i, r in enumerate(content["ruins"]):
            ruins[i, RUINS_KIND] = 0 if r["kind"] == "altar" else 1
            for c in r.get("tribute", []):
                ruins[i, RUINS_TRIBUTE + _fx.BASIC_COLOURS.index(c)] += 1
            ruins[i, RUINS_FAME] = r.get("fame", 0)
            en = [piles(x) for x in r.get("enemies", [])][:3]
            ruins[i, RUINS_N_ENEMIES] = len(en)
            ruins[i, RUINS_ENEMIES:RUINS_ENEMIES + len(en)] = en
            rw = [reward(x) for x in r.get("rewards", [])][:4]
            ruins[i, RUINS_N_REWARDS] = len(rw)
            ruins[i, RUINS_REWARDS:RUINS_REWARDS + len(rw)] = rw
        self._site_table = table
        self._ruins = ruins
        sv = table
        rv = ruins
        self.es.site_table = &sv[0, 0]
        self.es.ruins = &rv[0, 0]
        self.es.n_ruins = len(content["ruins"])

    def pending_problem(self):
        """The first scratch value of the pending question that its handler cannot hold
        here, as one fixture message (``turn.hvars[0]: 5 is out of range (0 .. 3) ...``),
        or None when all are in range (or nothing is pending).

        The bounds are each handler's own (its registry entry's pending function, or
        ``<group>_pending`` next to it in ext/_fx_*.pxi) and pending_check's for every question: the stage, what is asked,
        each option against the hand, the Source, the offers, the combat's enemies, the
        Units.  mksim.fixtures.validate refuses a fixture with this message."""
        cdef PendingCheck c
        cdef const GameState* gs = &self.core.gs
        cdef bint bad
        with nogil:
            bad = pending_check(gs, &self.es, &self.core.st, &c)
        if not bad:
            return None
        row = gs.turn.handler_row
        stage = gs.turn.handler_stage
        asked = gs.turn.ask
        from ._access import ASK_NAMES
        if 0 <= row < self.es.effects.rows:
            op = erow(&self.es, row)[0]
            if op == OP_HANDLER:
                hid = erow(&self.es, row)[1]
                name = f"handler {self.tables.handlers[hid]!r}"
            else:
                name = f"'{OP_ORDER[op]}' (effect row {row})"
        else:
            name = f"effect row {row}"
        where = f"the pending {name} at stage {stage}"
        if c.field == PF_ROW:
            if c.lo <= c.hi:
                return f"turn.handler_row: {row} is out of range ({c.lo} .. {c.hi})"
            return f"turn.handler_row: {name} never waits for a decision"
        if c.field == PF_STAGE:
            return f"turn.handler_stage: {c.value} is out of range ({c.lo} .. {c.hi}) for {name}"
        if c.field == PF_ASK:
            return (f"turn.ask: {c.value} ({ASK_NAMES.get(c.value, 'not a question')}), but {where} "
                    f"asks {c.lo} ({ASK_NAMES.get(c.lo, '?')})")
        if c.field == PF_OPTION:
            if c.lo > c.hi:
                return (f"turn.ask_options: option {c.value} is out of range (the question of {where} "
                        f"has no option here)")
            if c.lo == -1:
                return (f"turn.ask_options: option {c.value} names nothing that is there now "
                        f"({where} asks: {ASK_NAMES.get(asked, 'option')})")
            return f"turn.ask_options: option {c.value} is out of range ({c.lo} .. {c.hi}) for {where}"
        field = f"turn.hvars[{c.field - PF_HVAR}]"
        if c.lo == -1 and c.hi == -1:
            return f"{field}: {c.value} names an empty offer slot ({where})"
        if c.lo > c.hi:
            return f"{field}: {c.value} is out of range (no value fits now) for {where}"
        return f"{field}: {c.value} is out of range ({c.lo} .. {c.hi}) for {where}"

    def implemented_handlers(self):
        """Names of the content's handlers that the engine implements."""
        return [n for hid, n in enumerate(self.tables.handlers) if self._handler_group[hid] >= 0]

    def _begin(self, tables, content, scenario_id):
        """Skill stacks (1.3.9, 18.3.1, 17.3.4) and round 1's tactic set (1.2.12)."""
        cdef GameState* gs = &self.core.gs
        cdef int p, k, n
        for p in range(gs.n_players):
            ks = self._skill_set(tables, content, gs.players[p].hero, False)
            n = len(ks)
            for k in range(n):
                gs.players[p].skill_stack[k] = ks[k]
            gs.players[p].n_skill_stack = n
            rng_shuffle_i8(&gs.rng[<int>STREAM_OFFERS], gs.players[p].skill_stack, n)
        n = 0
        if gs.has_dummy and gs.dummy.hero >= 0:
            ks = self._skill_set(tables, content, gs.dummy.hero, True)
            n = len(ks)
            for k in range(n):
                gs.dummy.skill_stack[k] = ks[k]
            rng_shuffle_i8(&gs.rng[<int>STREAM_OFFERS], gs.dummy.skill_stack, n)
        gs.dummy.n_skill_stack = n
        for k in range(12):
            gs.tactics_removed[k] = -1
        lay_out_tactics(gs, &self.es)
        gs.end_announced_by = -1
        gs.final_turns_left = 0
        gs.error = ERR_NONE
        gs.current = <int8_t>next_tactic_picker(gs)               # 3.1.2: round 1, the last hero picked
        gs.turn_player = gs.current
        reset_turn(gs)

    def _skill_set(self, tables, content, int hero, bint dummy):
        """Content indices of ``hero``'s Skill tokens in this game, in content order (before
        the shuffle).  The dummy's set lacks the interactive skill (18.3.1; LL-7.1: with The
        Lost Legion it holds the cooperative one).  Cached on the template engine: every
        game of one bound setup has the same sets, and scanning the skills in Python cost
        more per game than the rest of the setup."""
        cdef Engine owner = self if self._template is None else self._template
        if owner._skill_cache is None or owner._skill_cache[0] is not content:
            owner._skill_cache = (content, {})
        cache = owner._skill_cache[1]
        key = (hero, dummy)
        ks = cache.get(key)
        if ks is None:
            ks = tuple(k for k, s in enumerate(content["skills"])
                       if tables.hero_ids.index(s["hero"]) == hero and self._skill_in_game(s)
                       and not (dummy and s.get("interactive")))
            cache[key] = ks
        return ks

    def _skill_in_game(self, s):
        """LL-7.1: with The Lost Legion (a solo game) each hero's cooperative skill replaces
        its interactive one, for the dummy too; without it there are no cooperative skills.
        17.3.4 (Solo Conquest) removes interactive skills, and cooperative ones are
        interactive skills too (LL-7.2), so it removes those as well."""
        # LL-7.1 applies to cooperative and solo scenarios (those with the dummy); a
        # competitive game of several heroes keeps the competitive interactive skills
        ll = self.core.st.lost_legion != 0 and self.core.gs.has_dummy != 0
        if s.get("cooperative"):
            return ll and not self.es.remove_interactive_skills
        if s.get("interactive"):
            return not ll and not self.es.remove_interactive_skills     # 17.3.4, LL-7.1
        return True

    def legal_actions(self):
        """Legal actions at this point, as a numpy int32 array (empty when the game is over)."""
        cdef int n
        with nogil:
            n = self.c_fill_legal()
        return np.asarray(<int32_t[:n]> self.actions).copy() if n > 0 else np.zeros(0, dtype=np.int32)

    def apply(self, action):
        """Apply one action: exactly the actions :meth:`legal_actions` lists are accepted.

        Raises
        ------
        ValueError
            ``action`` is not an integer action id of the encoding, or not legal here; the
            state is then unchanged, byte for byte.
        NotImplementedError
            The action reached a rule the engine does not implement (the game stops).
        """
        cdef int a = check_action_id(action)
        cdef int err
        with nogil:
            err = self.c_apply(a)
        if err != ERR_NONE:
            raise self._error(err, a)

    cdef int c_fill_legal(self) noexcept nogil:
        """The C fast path of legal_actions(): fill ``self.actions`` / ``self.n_actions``
        without creating any Python object; return the count.  The list stays valid for
        c_apply until the state changes (``GameCore.version``)."""
        self.n_actions = legal_actions(self, self.actions)
        self.legal_valid = True
        self.legal_version = self.core.version
        return self.n_actions

    cdef int c_apply(self, int action) noexcept nogil:
        """The C fast path of apply(): apply ``action`` if it is one of the legal actions,
        else return APPLY_REFUSED with the state untouched; return ERR_NONE or the
        EngineError that apply() would raise (see ``_error``).

        Legality is decided here only, against the list legal_actions() gives: the one
        cached by c_fill_legal while the state has not changed since, else a fresh one."""
        global mksim_cards_refused
        cdef const int32_t* legal = self.actions
        cdef int n = self.n_actions, i, err
        cdef GameState* cg = &self.core.gs
        if not self.legal_valid or self.legal_version != self.core.version:
            n = legal_actions(self, self.scratch)
            legal = self.scratch
        i = 0
        while i < n and legal[i] != action:
            i += 1
        if i == n:
            return APPLY_REFUSED
        self.legal_valid = False
        self.core.version += 1
        if cg.restricted and action_forbidden(cg, &self.es, &self.core.st, action):
            # listed although forbidden: every option of this decision was (legal_actions)
            cg.players[cg.current].stats.restriction_forced += 1
        mksim_cards_refused = 0
        err = apply_action(self, action)
        if cg.n_players > 1 and cg.turn.n_mods:
            exploit_deliver(cg, &self.es)                        # Mana Exploit's Wounds (8.2.2)
        if mksim_cards_refused:
            self.core.gs.cards_refused += <uint16_t>mksim_cards_refused
        if err == ERR_ILLEGAL:                                   # listed, yet refused: an engine bug
            set_error(&self.core.gs, ERR_INTERNAL, INTERNAL_REFUSED, -1)
            err = ERR_INTERNAL
        check_capacity(&self.core.gs, self.es.wound)
        if self.core.gs.turn.heat_window:                        # the start of a combat lasts
            self.core.gs.turn.heat_window -= 1                   # until its first action
        if err != ERR_NONE:
            return err
        return self.core.gs.error

    def _error(self, int err, int action):
        cdef GameState* gs = &self.core.gs
        if err == APPLY_REFUSED:
            if gs.phase == PH_GAME_OVER:
                why = " (the game is over)"
            elif gs.error != ERR_NONE:
                why = f" (the game stopped: {ERROR_TEXT.get(gs.error, gs.error)})"
            else:
                why = ""
            return ValueError(f"illegal action {_describe(action)} in phase {PHASE_NAMES[gs.phase]}{why}")
        code = gs.error if gs.error != ERR_NONE else err
        if code == ERR_ILLEGAL or code == ERR_INTERNAL:
            card = f" of card {self.tables.card_ids[gs.error_card]!r}" if gs.error_card >= 0 else ""
            what = INTERNAL_TEXT.get(gs.error_arg, "an apply path refused it") if code == ERR_INTERNAL \
                else "an apply path refused it"
            return NotImplementedError(f"engine error (ERR_INTERNAL): the engine could not complete "
                                       f"{_describe(action)}{card}, although it was legal: {what}")
        if code == ERR_HANDLER:
            card = gs.error_card
            if card <= SKILL_CARD_BASE:
                what = f"skill {self.tables.skill_ids[SKILL_CARD_BASE - card]!r}"
            elif card <= UNIT_CARD_BASE:
                what = f"unit {self.tables.unit_ids[(UNIT_CARD_BASE - card) // 8]!r}"
            elif card <= -2:
                what = f"tactic {self.tables.tactic_ids[-2 - card]!r}"
            elif card >= 0:
                what = f"card {self.tables.card_ids[card]!r}"
            else:
                what = "effect"
            handler = self.tables.handlers[gs.error_arg] if gs.error_arg >= 0 else "a colour or floor choice"
            return NotImplementedError(f"{what}: effect handler {handler!r} is not implemented yet")
        if code == ERR_UNIT_RULES:
            return NotImplementedError(f"unit {self.tables.unit_ids[gs.error_arg]!r}: {ERROR_TEXT[code]}")
        if code == ERR_HEROES:                                    # issue 12: several heroes
            card = gs.error_card
            if card <= SKILL_CARD_BASE:
                what = f"skill {self.tables.skill_ids[SKILL_CARD_BASE - card]!r}: "
            elif card >= 0:
                what = f"card {self.tables.card_ids[card]!r}: "
            else:
                what = ""
            return NotImplementedError(f"{what}{HEROES_RULE_TEXT.get(gs.error_arg, 'a rule between heroes')} "
                                       f"is not implemented yet")
        if code == ERR_UNIT_EFFECT and gs.error_card >= 0:      # name the card (Banners, Call to Arms)
            return NotImplementedError(f"card {self.tables.card_ids[gs.error_card]!r}: {ERROR_TEXT[code]}")
        return NotImplementedError(ERROR_TEXT.get(code, f"engine error {code}"))

    def action_to_string_raw(self, action):
        return describe(action)

    def is_terminal(self):
        return self.core.gs.phase == PH_GAME_OVER

    def phase(self):
        return self.core.gs.phase

    def termination(self):
        return self.core.gs.termination

    def set_dice(self, colours):
        """Tests and tools: set the Source dice (mana colour names, 5.2.1), none taken."""
        cdef GameState* gs = &self.core.gs
        self.core.version += 1           # the cached legal list is stale
        if len(colours) > MAX_DICE:
            raise ValueError(f"at most {MAX_DICE} dice")
        for i, c in enumerate(colours):
            gs.dice[i] = <int8_t>_fx.MANA_COLOURS.index(c)
        gs.n_dice = <int8_t>len(colours)
        gs.dice_taken = 0


MAX_ACTION_ID = 0x7FFFFFFF      # action ids are int32 (the legal lists are int32 arrays)


def check_action_id(action):
    """``action`` as an int if it is an action id of the encoding (``kind << 20 | argument``,
    0 <= id < 2**31, a known kind); ValueError otherwise.  Only integers are action ids
    (Python int or numpy integer; not bool, float or str)."""
    if type(action) is not int and (isinstance(action, (bool, np.bool_))
                                    or not isinstance(action, (int, np.integer))):
        raise ValueError(f"apply takes only integers (action ids), got {type(action).__name__} {action!r}")
    a = int(action)
    if a < 0 or a > MAX_ACTION_ID:
        raise ValueError(f"action id {a} is outside the encoding (0 .. 2**31 - 1)")
    if (a >> ACTION_SHIFT) not in KIND_NAMES:
        raise ValueError(f"action id {a} has no action kind {a >> ACTION_SHIFT} (see KIND_NAMES)")
    return a


def describe(action):
    """A short machine-readable description of an action id; ValueError if ``action`` is
    not one (see :func:`check_action_id`)."""
    return _describe(check_action_id(action))


def _describe(int action):
    kind = action >> ACTION_SHIFT
    arg = action & ARG_MASK
    name = KIND_NAMES.get(kind, f"kind{kind}")
    fields = _LAYOUT_FIELDS.get(kind)
    if fields is not None:                                  # "field:bits ..." of the table
        return f"{name}({', '.join(f'{f}={arg >> s if m < 0 else (arg >> s) & m}' for f, s, m in fields)})"
    if kind == A_EXPLORE:
        box = ", box" if arg & EXPLORE_BOX_FLAG else ""                   # 9.8.8
        arg &= EXPLORE_BOX_FLAG - 1
        return f"{name}({(arg >> 7) - 64}, {(arg & 0x7F) - 64}{box})"
    if kind == A_RECRUIT:
        if arg & BONDS_RECRUIT:
            return f"{name}(offer={arg & 0xF}, bonds=1)"
        if arg >> 8:                                         # Magic Familiars: + the upkeep mana
            return f"{name}(offer={arg & 0xF}, disband={((arg >> 4) & 0xF) - 1}, pay={((arg >> 8) & 0x1F) - 1}, colour={arg >> 13})"
        return f"{name}(offer={arg & 0xF}, disband={(arg >> 4) - 1})"
    return f"{name}({arg})"


def encode(kind_name, arg=0):
    """Action code from a kind name (see KIND_NAMES) and argument; for tests and tools."""
    if type(arg) is not int and (isinstance(arg, (bool, np.bool_)) or not isinstance(arg, (int, np.integer))):
        raise ValueError(f"an action argument is a whole number, got {type(arg).__name__} {arg!r}")
    if not 0 <= arg <= ARG_MASK:
        raise ValueError(f"action argument {arg} is outside 0 .. {ARG_MASK} (2**{ACTION_SHIFT} - 1)")
    if isinstance(kind_name, str) and kind_name in KIND_CODES:
        return act(KIND_CODES[kind_name], arg)
    raise ValueError(f"unknown action kind {kind_name!r}")
