# cython: language_level=3
"""Named effect handlers of the Skills (skills.toml): a handler group compiled as a module of
its own (ext/_fx_skills.pxd is its header).

Each handler is a run function (the protocol of "Handler protocol", ext/_engine.pyx), a
playable function and, when it asks a question, a pending function (its bounds,
pending_check).  SKILLS, at the end, is the group's registry: one entry per handler with its
name, declared argument names and flags; importing the module registers it with the engine
(register_handler_group).  The skill rules the decision loop calls (A_USE_SKILL, turn hooks,
Bonds of Loyalty, the cooperative skills' automatic parts, Dueling) stay in the engine,
ext/_engine_skills.pxi, and recognise these handlers by their flags (HF_*, _engine.pxd).
"""
from libc.stdint cimport int16_t, int8_t, uint8_t, uint16_t, uint32_t, uint64_t, int32_t

from mksim._types cimport (Modifier, MAX_MODS, MK_NONE, MK_IGNORE_SITE_FORT, MK_UNIT_ATTACK_BLOCK,
    MK_RECRUIT_DISCOUNT, MK_EXPLORE_DISCOUNT, MK_BLOCKED_ARMOR_ONE, NUM_MOD_KINDS, MS_NEXT_CARD, MS_PHASE,
    MS_COMBAT, MS_TURN, MS_ROUND, NUM_MOD_SCOPES)
from mksim._modifiers cimport (mod_add, mod_find, mod_has, mod_sum, mod_remove_at, mod_remove_kind, mod_set,
    mod_expire, event_scope, EV_TURN_START, EV_TURN_END, EV_PHASE_START, EV_PHASE_END, EV_CARD_PLAYED,
    EV_BLOCK_COMMITTED, EV_ATTACK_COMMITTED, EV_DAMAGE_ASSIGNED, EV_COMBAT_END, EV_ROUND_END, NUM_EVENTS)
from mksim._types cimport MK_IGNORE_WOUNDS, MK_NO_UNIT_DAMAGE, MK_NO_SOURCE_DICE, MK_NO_RECRUIT, MK_MANA_ANYTIME, MK_ENDLESS_MANA, MK_DICE_ANY_BASIC, MK_CRYSTAL_RETURN, MK_SPACE_BENDING, MK_PROTECTION, MK_INFLUENCE_BLOCK, MK_REVEAL_DISTANCE, MK_EXPLORE_RANGE, MK_DRAW_PER_HEAL, MK_CURE, MK_ATTACKS_COLDFIRE, MK_ATTACKS_SIEGE, MK_SWORD_FAME, MK_DODGE_ATTACK  # turn / combat-long kinds (issue 12)
from mksim._modifiers cimport mod_take, mod_find, mod_has, mod_sum, mod_remove_kind, mod_find_arg, mod_sum_arg, mod_has_arg  # (issue 12)
from mksim._engine cimport give_mod, give_mod_arg, MOD_ONCE, MOD_ADD, MOD_MAX, MOD_SET
from mksim._types cimport MK_WEATHER_OWN  # Prayer of Weather's own part (9.6.2)
from mksim._types cimport *
from mksim._state cimport Statics
from mksim._rng cimport rng_below, STREAM_SOURCE
from mksim._combat cimport *
from mksim._hexmap cimport hex_distance as axial_distance
from mksim._rules cimport is_safe
from mksim._engine cimport *
from mksim._effects cimport node_playable, combat_move_usable   # the interpreter (ext/_effects.pxd)


cdef uint64_t source_opening_dice(const GameState* gs) noexcept nogil:
    """Source dice of a basic colour not taken this turn (bit k = die k)."""
    cdef uint64_t o = 0
    cdef int i
    for i in range(gs.n_dice):
        if not ((gs.dice_taken >> i) & 1) and gs.dice[i] < GOLD:
            o |= (<uint64_t>1) << i
    return o

cdef uint64_t source_dice_left(const GameState* gs) noexcept nogil:
    """Source dice not taken this turn (bit k = die k)."""
    cdef uint64_t o = 0
    cdef int i
    for i in range(gs.n_dice):
        if not ((gs.dice_taken >> i) & 1):
            o |= (<uint64_t>1) << i
    return o

cdef bint row_is_automatic(const EngineStatics* es, int row) noexcept nogil:
    """A secondary effect that triggers by itself (LL-7.3.1), not by using the token."""
    return row_handler_has(es, row, HF_OVERLOAD_BONUS | HF_FIRST_COMBAT_WEAKEN)

cdef uint64_t weaken_armor_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Enemies whose Armor an effect may lower now (not Arcane Immunity, LL-6.7.1)."""
    cdef uint64_t o = 0
    cdef int s
    for s in range(gs.combat.n_enemies):
        if enemy_effect_ok(gs, st, s, -1):
            o |= (<uint64_t>1) << s
    return o

cdef uint64_t weaken_attack_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Enemy attacks with a value to lower (option slot * 3 + attack; Arcane Immunity does not
    protect an attack, LL-6.7.4).  A summoner's attack is its summoned monster's, not drawn
    yet at the start of the combat (11.6.2): not offered (skills.toml conflicts)."""
    cdef uint64_t o = 0
    cdef int s, i
    for s in range(gs.combat.n_enemies):
        if gs.combat.enemies[s].summoned_by >= 0 or enemy_ability(gs, st, s, AB_SUMMON):
            continue
        for i in range(enemy_n_attacks(gs, st, s)):
            if s * 3 + i < 63 and attack_is_live(gs, st, s, i) and enemy_attack_value(gs, st, s, i) > 0:
                o |= (<uint64_t>1) << (s * 3 + i)
    return o

cdef int first_combat_weaken(GameState* gs, const Statics* st, int row, const int32_t* a, int choice) noexcept nogil:
    """Wolfhawk's cooperative skill, secondary: one enemy's Armor `armor` (min `floor` = 1,
    not against Arcane Immunity) and one attack of the same or another enemy `attack_delta` (not
    below 0), for this combat.  Stage 0: the enemy (ASK_ENEMY); stage 1: the attack
    (ASK_OPTION slot * 3 + attack).  A stage with nothing to act on is passed over.  The
    choices belong to the start of the combat (heat_window kept, Into the Heat)."""
    cdef uint64_t options
    cdef int i, w, v
    if a[1] != 1:
        set_error(gs, ERR_ENEMY_EFFECT, OP_ENEMY_ARMOR, gs.turn.resolving_card)
        return RES_ERROR
    if gs.turn.heat_window:
        gs.turn.heat_window = 2
    if choice < 0:
        options = weaken_armor_targets(gs, st)
        if options:
            return ask(gs, row, 0, ASK_ENEMY, options)
        gs.turn.handler_stage = 0
    elif gs.turn.handler_stage == 0:
        v = gs.combat.enemies[choice].armor_delta + a[0]      # enemy_armor() keeps it >= 1
        gs.combat.enemies[choice].armor_delta = <int8_t>(v if v > -100 else -100)
    if choice < 0 or gs.turn.handler_stage == 0:
        options = weaken_attack_targets(gs, st)
        if options:
            return ask(gs, row, 1, ASK_OPTION, options)
        return RES_DONE
    i = choice // 3
    w = choice % 3
    v = enemy_attack_value(gs, st, i, w)
    gs.combat.enemies[i].attack_delta[w] += <int8_t>(a[2] if -a[2] < v else -v)
    return RES_DONE

cdef inline int hand_wounds(const Player* pl, const EngineStatics* es) noexcept nogil:
    """Wound cards in the hand (Healing Ritual, Ritual of Pain)."""
    cdef int i, v = 0
    for i in range(pl.n_hand):
        if pl.hand[i] == es.wound:
            v += 1
    return v

cdef void throw_away_hand_wounds(Player* pl, const EngineStatics* es, int n) noexcept nogil:
    """Throw away `n` Wounds from the hand, last first (back to the Wound pile, 12.3.3)."""
    cdef int i = pl.n_hand - 1
    while n > 0 and i >= 0:
        if pl.hand[i] == es.wound:
            remove_at(pl.hand, &pl.n_hand, i)
            n -= 1
        i -= 1

cdef int ready_unwounded_units(const Player* pl) noexcept nogil:
    cdef int k, n = 0
    for k in range(MAX_UNITS):
        if pl.units[k].card >= 0 and pl.units[k].ready and pl.units[k].wounds == 0:
            n += 1
    return n

cdef int crystal_colours(const Player* pl) noexcept nogil:
    cdef int c, n = 0
    for c in range(4):
        if pl.crystals[c] > 0:
            n += 1
    return n

cdef bint has_wound_in_hand(const Player* pl, const EngineStatics* es) noexcept nogil:
    cdef int i
    for i in range(pl.n_hand):
        if pl.hand[i] == es.wound:
            return True
    return False

cdef uint64_t sideways_options(const Player* pl, const EngineStatics* es, bint wounds) noexcept nogil:
    """Hand indices of the Wounds (wounds) or the non-Wound cards."""
    cdef uint64_t options = 0
    cdef int i
    for i in range(pl.n_hand):
        if i <= MAX_HAND_INDEX and (pl.hand[i] == es.wound) == wounds:
            options |= (<uint64_t>1) << i
    return options

cdef int sideways_kinds(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """What a card played sideways may give now, as A_SIDEWAYS allows (6.1.7): bit 0 Move
    (also in combat where Move has a use, LL-9.7.2), 1 Influence (also where it has a use
    outside interaction: Peaceful Moment, paying Thugs / Heroes in combat, LL-4.3.4), 2 Attack,
    3 Block."""
    cdef int m = 0
    if (gs.phase == PH_MOVE and not gs.turn.action_taken) or combat_move_usable(gs, es):
        m |= 1
    if gs.phase == PH_INTERACT or (gs.phase == PH_MOVE and gs.turn.peaceful) or units_need_influence(gs, es):
        m |= 2
    if gs.phase == PH_COMBAT_ATTACK or (gs.phase == PH_COMBAT_RANGED and mod_has(&gs.turn, MK_ATTACKS_SIEGE)):
        m |= 4
    if gs.phase == PH_COMBAT_BLOCK:
        m |= 8
    return m

cdef enum:
    SIDEWAYS_STAGE = 9         # skill handlers: the last stage, what the card sideways gives

cdef int sideways_play(GameState* gs, const EngineStatics* es, int row, Player* pl, int i, int value) noexcept nogil:
    """A skill's card sideways for `value` (Power of Pain, I Don't Give a Damn, ...): what it
    gives is the player's choice where several are possible (ASK_OPTION 0 Move, 1 Influence,
    2 Attack, 3 Block at stage SIDEWAYS_STAGE, resolved by sideways_chosen)."""
    cdef int m = sideways_kinds(gs, es), k = 0
    if m & (m - 1):
        gs.turn.hvars[6] = <int16_t>i
        gs.turn.hvars[7] = <int16_t>value
        return ask(gs, row, SIDEWAYS_STAGE, ASK_OPTION, m)
    while k < 3 and not ((m >> k) & 1):
        k += 1
    play_sideways_for(gs, pl, i, value, k)
    return RES_DONE

cdef void play_sideways_for(GameState* gs, Player* pl, int i, int value, int a) noexcept nogil:
    """Play hand card i sideways (6.1.7) for `value` instead of 1, giving `a` (0 Move, 1
    Influence, 2 Attack, 3 Block); card bonuses apply as for A_SIDEWAYS (it is a card played)."""
    cdef int card = pl.hand[i]
    remove_at(pl.hand, &pl.n_hand, i)
    push_card(pl.play_area, &pl.n_play, MAX_PLAY_CARDS, card)        # a Wound too: discarded at end of turn
    gs.turn.played_card = 1
    if a == 0:
        gs.turn.move_points += value + move_bonus(gs)
    elif a == 1:
        gs.turn.influence += value                    # 10.2.2
    elif a == 2:
        gs.combat.attack[0][0] += value + ambush_bonus(gs, 0) + deadly_aim_bonus(gs)   # physical melee Attack
    else:
        gs.combat.block[0] += value + ambush_bonus(gs, 1)        # physical Block

cdef uint64_t mana_pay_options(const GameState* gs) noexcept nogil:
    """Payment codes that give one mana of a basic colour now (gold counts, 5.1.5)."""
    cdef uint64_t o = 0
    cdef int pay, c
    for pay in range(n_pay_codes(gs)):
        for c in range(4):
            if pay_ok(gs, pay, c):
                o |= (<uint64_t>1) << pay
                break
    return o

cdef enum:
    PREY_RESISTANCE = 11       # Know Your Prey options: bits 0-10 abilities (AB_* bit k),
    PREY_ELEMENT = 16          # 11-13 resistances, 16 + 2i (+1) attack i's element

cdef uint64_t prey_options(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Know Your Prey on the enemy in `slot` (not Arcane Immunity, LL-6.7.1): bit k < 11 =
    lose the ability AB_* 1 << k (Arcane Immunity excluded; Summon and the elements are attack
    types, not abilities, LL-6.2); 11 + r = lose resistance RES_* 1 << r (resistances are
    defensive abilities, LL-6.2.3); 16 + 2i = attack i Fire / Ice -> Physical or Cold Fire ->
    Fire, 17 + 2i = Cold Fire -> Ice."""
    cdef uint64_t o = 0
    cdef int ab, res, k, el
    if not enemy_effect_ok(gs, st, slot, -1):
        return 0
    ab = enemy_ability(gs, st, slot, 0x7FF) & ~(AB_ARCANE_IMMUNITY | AB_SUMMON)
    for k in range(11):
        if (ab >> k) & 1:
            o |= (<uint64_t>1) << k
    res = st.enemies.data[gs.combat.enemies[slot].enemy * st.enemies.width + st.cols.enemy_resistances] \
        & ~(<int>gs.combat.enemies[slot].lost_resistances)
    for k in range(3):
        if (res >> k) & 1:
            o |= (<uint64_t>1) << (PREY_RESISTANCE + k)
    for k in range(enemy_n_attacks(gs, st, slot)):
        el = attack_element(gs, st, slot, k)
        if el == FIRE or el == ICE or el == COLDFIRE:
            o |= (<uint64_t>1) << (PREY_ELEMENT + 2 * k)
        if el == COLDFIRE:
            o |= (<uint64_t>1) << (PREY_ELEMENT + 2 * k + 1)
    return o

cdef int polar_target_mask(const GameState* gs, int c) noexcept nogil:
    """Polarization: the colours mana of colour c may be used as (ASK_COLOUR bits): red <->
    blue, white <-> green; by Day black as any basic colour; at Night gold as black."""
    if c == RED:
        return 1 << BLUE
    if c == BLUE:
        return 1 << RED
    if c == WHITE:
        return 1 << GREEN
    if c == GREEN:
        return 1 << WHITE
    if c == BLACK and not night_mana(gs):          # by Day (Night mana rules: 5.6.1)
        return 0xF
    if c == GOLD and night_mana(gs):
        return 1 << BLACK
    return 0

cdef uint64_t polar_sources(const GameState* gs) noexcept nogil:
    """Payment codes (tokens, crystals, a Source die as the turn's die 5.5.2, the Mana Steal
    die) whose mana Polarization can turn into another colour."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int pay, c, die
    for pay in range(n_pay_codes(gs)):
        if pay < PAY_CRYSTAL:
            if gs.turn.mana_tokens[pay] <= 0 and not mod_has_arg(&gs.turn, MK_ENDLESS_MANA, pay + 1):
                continue
        elif pay < PAY_DIE:
            if pl.crystals[pay - PAY_CRYSTAL] <= 0:
                continue
        elif mod_has(&gs.turn, MK_NO_SOURCE_DICE):
            continue
        elif pay == PAY_STOLEN:
            if pl.stolen_die < 0:
                continue
        else:
            die = pay - PAY_DIE
            if die >= gs.n_dice or (gs.dice_taken >> die) & 1 or gs.turn.dice_used >= source_dice_allowed(gs):
                continue
        c = pay_colour(gs, pay)
        if c >= 0 and polar_target_mask(gs, c) != 0:
            o |= (<uint64_t>1) << pay
    return o

cdef uint64_t duel_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Dueling: enemies with a live attack in the Block phase (ASK_ENEMY bits)."""
    cdef uint64_t o = 0
    cdef int s, i
    if not gs.combat.active or gs.phase != PH_COMBAT_BLOCK:
        return 0
    for s in range(gs.combat.n_enemies):
        for i in range(enemy_n_attacks(gs, st, s)):
            if attack_is_live(gs, st, s, i):
                o |= (<uint64_t>1) << s
    return o

cdef uint64_t taunt_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Taunt: live enemy attacks in the Block phase; option k = slot * 3 + attack index."""
    cdef uint64_t o = 0
    cdef int s, i
    if not gs.combat.active or gs.phase != PH_COMBAT_BLOCK:
        return 0
    for s in range(gs.combat.n_enemies):
        for i in range(enemy_n_attacks(gs, st, s)):
            if s * 3 + i < 63 and attack_is_live(gs, st, s, i):
                o |= (<uint64_t>1) << (s * 3 + i)
    return o

cdef int resistance_count(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Resistances the enemy has now (one lost to Know Your Prey no longer counts)."""
    cdef int res = st.enemies.data[gs.combat.enemies[slot].enemy * st.enemies.width + st.cols.enemy_resistances] \
        & ~(<int>gs.combat.enemies[slot].lost_resistances)
    return ((res & RES_PHYSICAL) != 0) + ((res & RES_FIRE) != 0) + ((res & RES_ICE) != 0)

cdef uint64_t resistance_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Resistance Break: enemies with a resistance that an effect may target (not Arcane
    Immunity, LL-6.7.1; the skill has no colour for 11.4.2)."""
    cdef uint64_t o = 0
    cdef int s
    for s in range(gs.combat.n_enemies):
        if enemy_effect_ok(gs, st, s, -1) and resistance_count(gs, st, s) > 0:
            o |= (<uint64_t>1) << s
    return o

cdef uint64_t leadership_options(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Leadership: 0 +block (Block phase), 1 +attack (Attack phase), 2 +ranged (Ranged and
    Siege phase or Attack phase) - with a Ready, unwounded unit to activate (7.3.1, 7.3.8)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i
    cdef bint unit = False
    if not units_usable_now(gs) or mod_has(&gs.turn, MK_UNIT_ABILITY_BONUS):
        return 0
    for i in range(MAX_UNITS):
        if pl.units[i].card >= 0 and pl.units[i].ready and pl.units[i].wounds == 0:
            unit = True
    if not unit:
        return 0
    if gs.phase == PH_COMBAT_BLOCK:
        return 1
    if gs.phase == PH_COMBAT_ATTACK:
        return 6
    if gs.phase == PH_COMBAT_RANGED:
        return 4
    return 0

cdef bint alone_lowest_fame(const GameState* gs, int p) noexcept nogil:
    """Motivation: "if you alone have the lowest Fame" - lower than every other hero.  The
    dummy has no Fame (18.1.2), so in a solo game the condition is never met."""
    cdef int q
    if gs.n_players < 2:
        return False
    for q in range(gs.n_players):
        if q != p and gs.players[q].fame <= gs.players[p].fame:
            return False
    return True

cdef uint64_t flight_options(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                             const int32_t* a, int16_t* hexes) noexcept nogil:
    """Flight: option k = the k-th space (in hex order) at distance free_spaces (for free) or
    far_spaces (for far_move Move points) that is safe to end on (9.7.1; the closed city of
    17.3.1 excluded).  Flying crosses any space in between.  `hexes` (or NULL) gets the hexes."""
    cdef uint64_t o = 0
    cdef int h, d, k = 0, pos = gs.players[p].position
    if pos < 0:
        return 0
    for h in range(gs.n_hexes):
        d = axial_distance(gs.hexes[pos].q, gs.hexes[pos].r, gs.hexes[h].q, gs.hexes[h].r)
        if d != a[0] and d != a[1]:
            continue
        if not is_safe(gs, st, h, p) or (es.city_closed and gs.hexes[h].site == es.city_site):
            continue
        if d == a[1] and d != a[0] and gs.turn.move_points < a[2]:
            continue
        if k < 64:
            o |= (<uint64_t>1) << k
            if hexes != NULL:
                hexes[k] = <int16_t>h
            k += 1
    return o

cdef uint64_t wound_number_options(const GameState* gs, const EngineStatics* es, const Player* pl,
                                   const int32_t* a) noexcept nogil:
    """The numbers of Wounds Ritual of Pain may throw away now (its ASK_NUMBER options)."""
    cdef int v = hand_wounds(pl, es)
    if v > a[1]:
        v = a[1]
    if v < a[0]:
        return 0
    return ((<uint64_t>1) << (v + 1)) - ((<uint64_t>1) << a[0])


# ---------------------------------------------------------------------------------------
# The handlers: one run / playable / pending function each, as the switch arms were
# ---------------------------------------------------------------------------------------

cdef int outside_combat(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return push_eval(gs, a[0])


cdef bint outside_combat_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # only outside combat, and only if it does something
    return not gs.combat.active and node_playable(gs, es, a[0])   # 11: not in combat


cdef int discard_wound_cost(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i
    # discard a Wound from hand; then the effect
    for i in range(pl.n_hand):
        if pl.hand[i] == es.wound:
            remove_at(pl.hand, &pl.n_hand, i)
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, es.wound)
            gs.turn.played_card = 1               # 4.3.2: a card discarded
            return push_eval(gs, a[0])
    set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
    return RES_ERROR


cdef bint discard_wound_cost_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    # I Feel No Pain: needs a Wound in hand
    return has_wound_in_hand(pl, es) and node_playable(gs, es, a[0])


cdef int forward_march(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int v
    # Move per Ready, unwounded unit, at most max
    v = ready_unwounded_units(pl) * a[0]
    gs.turn.move_points += v if v < a[1] else a[1]
    return RES_DONE


cdef bint forward_march_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    # Move (9.3.2; in combat with a use, LL-9.7.2)
    return (gs.phase == PH_MOVE or combat_move_usable(gs, es)) and ready_unwounded_units(pl) > 0


cdef int glittering_fortune(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    # Influence per different crystal colour
    gs.turn.influence += crystal_colours(pl) * a[0]
    return RES_DONE


cdef bint glittering_fortune_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    # Influence: interaction only (10.2.2)
    return gs.phase == PH_INTERACT and crystal_colours(pl) > 0


cdef int power_of_pain(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int v
    if choice >= 0 and gs.turn.handler_stage == SIDEWAYS_STAGE:   # sideways_play's question
        play_sideways_for(gs, pl, gs.turn.hvars[6], gs.turn.hvars[7], choice)
        return RES_DONE
    # Power of Pain: a Wound played sideways as a non-Wound card, +bonus instead of +1
    # (then discarded at end of turn with the play area).  I Don't Give a Damn: a card
    # sideways +bonus instead of +1, +advanced_bonus for an AA, Spell or Artifact.
    if choice < 0:
        if sideways_kinds(gs, es) == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, True))
    v = a[0]
    return sideways_play(gs, es, row, pl, choice, v)


cdef bint power_of_pain_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    # a Wound played sideways
    return sideways_kinds(gs, es) != 0 and sideways_options(pl, es, True) != 0


cdef bint hand_card_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_HAND_CARD)


cdef int i_dont_give_a_damn(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i, v
    if choice >= 0 and gs.turn.handler_stage == SIDEWAYS_STAGE:   # sideways_play's question
        play_sideways_for(gs, pl, gs.turn.hvars[6], gs.turn.hvars[7], choice)
        return RES_DONE
    # Power of Pain: a Wound played sideways as a non-Wound card, +bonus instead of +1
    # (then discarded at end of turn with the play area).  I Don't Give a Damn: a card
    # sideways +bonus instead of +1, +advanced_bonus for an AA, Spell or Artifact.
    if choice < 0:
        if sideways_kinds(gs, es) == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, False))
    v = a[0]
    i = card_deck(es, pl.hand[choice])
    if i == DECK_AA or i == DECK_SPELL or i == DECK_ARTIFACT:
        v = a[1]
    return sideways_play(gs, es, row, pl, choice, v)


cdef bint non_wound_sideways_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    # a non-Wound card sideways
    return sideways_kinds(gs, es) != 0 and sideways_options(pl, es, False) != 0


cdef int who_needs_magic(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    if choice >= 0 and gs.turn.handler_stage == SIDEWAYS_STAGE:   # sideways_play's question
        play_sideways_for(gs, pl, gs.turn.hvars[6], gs.turn.hvars[7], choice)
        return RES_DONE
    # a card sideways +bonus instead of +1; +no_source_bonus if no Source die is used this
    # turn: offered (ASK_OPTION 1) only if none was used yet (the Mana Steal die and dice
    # taken by Mana Draw count), and then none may be used for the rest of the turn.
    # Stage 0: the card (ASK_HAND_CARD), stage 1: option 0 = +bonus, 1 = +no_source_bonus.
    if choice < 0:
        if sideways_kinds(gs, es) == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, False))
    if gs.turn.handler_stage == 0:
        if gs.turn.dice_used == 0 and not gs.turn.stolen_used and gs.turn.dice_kept == 0:
            gs.turn.hvars[0] = <int16_t>choice
            return ask(gs, row, 1, ASK_OPTION, 3)
        return sideways_play(gs, es, row, pl, choice, a[0])
    if choice == 1:
        if not give_mod(gs, p, MK_NO_SOURCE_DICE, MS_TURN, 1, MOD_ONCE):
            return RES_ERROR
    return sideways_play(gs, es, row, pl, gs.turn.hvars[0], a[1] if choice == 1 else a[0])


cdef bint who_needs_magic_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef const Player* pl = &gs.players[p]
    cdef int stage = gs.turn.handler_stage
    # stage 1: hvars[0] = the hand card
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_HAND_CARD)
    if pc_hvar(c, gs, 0, 0, pl.n_hand - 1):
        return True
    return pc_asks(c, ASK_OPTION, 2)


cdef int on_her_own(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Wolfhawk: Influence n, or no_recruit_n if you recruit no Unit with Influence this
    # turn: option 1 (offered while none was recruited yet) forbids recruiting for the
    # rest of the turn (A_RECRUIT, _engine_units.pxi).  ASK_OPTION 0 = n, 1 = no_recruit_n.
    if choice < 0:
        if gs.turn.recruited:
            gs.turn.influence += a[0]                     # 10.2.2
            return RES_DONE
        return ask(gs, row, 0, ASK_OPTION, 3)
    if choice == 1:
        if not give_mod(gs, p, MK_NO_RECRUIT, MS_TURN, 1, MOD_ONCE):
            return RES_ERROR
    gs.turn.influence += a[1] if choice == 1 else a[0]
    return RES_DONE


cdef bint on_her_own_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # Influence where it has a use (as OP_INFLUENCE):
    return gs.phase == PH_INTERACT or influence_elsewhere(gs) \
        or units_need_influence(gs, es)       # 10.2.2; LL-4.3.4 paying Thugs / Heroes in combat


cdef bint on_her_own_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, 2)


cdef int wolfs_howl(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int v
    if choice >= 0 and gs.turn.handler_stage == SIDEWAYS_STAGE:   # sideways_play's question
        play_sideways_for(gs, pl, gs.turn.hvars[6], gs.turn.hvars[7], choice)
        return RES_DONE
    # Wolfhawk (interactive 8.2.2): a non-Wound card sideways gives +bonus instead of +1,
    # +per_free_command for each Command token without a Unit (7.2.1).  The centre part:
    # other players' Units -unit_penalty to attacks and blocks until Wolfhawk's next turn
    # (MK_HOWL_OTHERS, unit_combat_bonus); with the dummy nobody to act on (18.1.2).
    if choice < 0:
        if gs.n_players > 1 and a[2] > 0 and not give_mod(gs, p, MK_HOWL_OTHERS, MS_ROUND, a[2], MOD_SET):
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, False))
    v = pl.command_tokens - (units_held(pl) - (bonds_unit_slot(pl) >= 0))
    if v < 0:
        v = 0
    if bonds_row(es, pl) >= 0 and bonds_unit_slot(pl) < 0:
        v += 1                                            # Bonds of Loyalty: a free token too
    return sideways_play(gs, es, row, pl, choice, a[0] + a[1] * v)


cdef bint wolfs_howl_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    # a card sideways, not during interaction
    return gs.phase != PH_INTERACT and sideways_kinds(gs, es) != 0 and sideways_options(pl, es, False) != 0


cdef int prayer_of_weather(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Norowas (interactive 8.2.2): your terrain costs own_delta (min own_floor) this turn
    # (9.6.2: Norowas moves on his own turn only).  The centre part: other players' costs
    # + others_delta (a raise stops at others_max) until Norowas' next turn or the round's
    # end (MK_WEATHER_OTHERS, move_cost); with the dummy, which does not move (18.1.2),
    # nobody to act on.  Lakes and mountains stay closed; a city space costs 2 whatever
    # effects say (21.2 A9).
    # own part: MK_WEATHER_OWN, one entry (value = the change, arg = the floor; read by
    # _rules.terrain_move_cost); a second use this turn (Cooperative) adds its change and
    # its floor replaces the first, as the two TurnState fields it replaced did
    cdef int i = mod_find(&gs.turn, MK_WEATHER_OWN)
    if i >= 0:
        gs.turn.mods[i].value = <int8_t>(gs.turn.mods[i].value + a[0])
        gs.turn.mods[i].arg = <int8_t>a[1]
    elif mod_add(&gs.turn, MK_WEATHER_OWN, MS_TURN, a[0], a[1], gs.turn.resolving_card, p) < 0:
        set_error(gs, ERR_CAPACITY, 8, gs.turn.resolving_card)
        return RES_ERROR
    if gs.n_players > 1 and a[2] != 0 and not give_mod_arg(gs, p, MK_WEATHER_OTHERS, MS_ROUND, a[2], a[3],
                                                           MOD_SET):
        return RES_ERROR
    return RES_DONE


cdef bint movement_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # movement (9.3, 9.6)
    return gs.phase == PH_MOVE and not gs.turn.action_taken and not gs.combat.active


cdef int healing_ritual(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int v
    # Arythea (interactive 8.2.2): outside combat, throw away up to `wounds` Wounds from
    # hand (back to the Wound pile, like healing, 12.3.3); one of them goes to the closest
    # hero's hand instead.  Engine reading of "closest": the least hex distance between
    # the figures (9.1); a tie is Arythea's choice.  With the dummy (no figure or hand,
    # 18.1.2) all go back to the pile.
    # Stage 0, ASK_NUMBER: option k = throw away k Wounds (asked only if more than one is
    # possible); stage 1, ASK_OPTION: option k = seat k, the tied closest heroes
    # (hvars[0] = the Wounds thrown away).
    cdef uint64_t heroes
    if choice >= 0 and gs.turn.handler_stage == 1:
        throw_away_hand_wounds(pl, es, gs.turn.hvars[0])
        take_wounds(gs, es, &gs.players[choice], 1)        # not the acting hero's: no combat count
        return RES_DONE
    v = hand_wounds(pl, es)
    if v > a[0]:
        v = a[0]
    if choice < 0 and v > 1:
        return ask(gs, row, 0, ASK_NUMBER, ((<uint64_t>1) << (v + 1)) - 2)
    if choice > 0:
        v = choice
    heroes = closest_heroes(gs, p) if v > 0 else 0
    if heroes and (heroes & (heroes - 1)):
        gs.turn.hvars[0] = <int16_t>v
        return ask(gs, row, 1, ASK_OPTION, heroes)
    throw_away_hand_wounds(pl, es, v)
    if heroes:
        take_wounds(gs, es, &gs.players[lowest_bit(heroes)], 1)
    return RES_DONE


cdef uint64_t closest_heroes(const GameState* gs, int p) noexcept nogil:
    """Healing Ritual: the seats (bits) of the other heroes on the map at the least hex
    distance from player p's figure; 0 = none (solo, or nobody on the map)."""
    cdef int q, d, best = 1 << 20, pos = gs.players[p].position, o
    cdef uint64_t bits = 0
    if pos < 0:
        return 0
    for q in range(gs.n_players):
        o = gs.players[q].position
        if q == p or o < 0:
            continue
        d = axial_distance(gs.hexes[pos].q, gs.hexes[pos].r, gs.hexes[o].q, gs.hexes[o].r)
        if d < best:
            best = d
            bits = 0
        if d == best:
            bits |= (<uint64_t>1) << q
    return bits


cdef inline int lowest_bit(uint64_t bits) noexcept nogil:
    cdef int k = 0
    while not (bits >> k) & 1:
        k += 1
    return k


cdef bint healing_ritual_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    # outside combat, with a Wound in hand
    return healing_time(gs) and has_wound_in_hand(pl, es)


cdef bint healing_ritual_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # stage 0: option = Wounds thrown away; stage 1: option = seat (hvars[0] = the Wounds)
    if pc_stage(c, gs, 1):
        return True
    if gs.turn.handler_stage == 1:
        return pc_hvar(c, gs, 0, 1, a[0]) or pc_asks(c, ASK_OPTION, gs.n_players)
    return pc_asks(c, ASK_NUMBER, a[0] + 1 if a[0] < ASK_DONE - 1 else ASK_DONE)


cdef int mana_exploit(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    # Tovak (interactive 8.2.2): a mana token of a chosen non-gold colour (5.3.1), the
    # skill marked with it.  The centre part: until Tovak's next turn (or the round's end)
    # another player who uses mana of any other colour takes a Wound, at most one per
    # colour (MK_MANA_EXPLOIT; exploit_mana_used / exploit_deliver, ext/_engine.pyx); with
    # the dummy nobody to act on (18.1.2).
    if choice < 0:
        return ask(gs, row, 0, ASK_COLOUR, 0x2F)          # red blue white green black
    gs.turn.mana_tokens[choice] += 1
    if gs.n_players > 1 and not give_mod_arg(gs, p, MK_MANA_EXPLOIT, MS_ROUND, 1, choice + 1, MOD_SET):
        return RES_ERROR
    return RES_DONE


cdef bint special_time_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # special effects (6.3.3)
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0


cdef bint mana_exploit_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_COLOUR)


cdef int invocation(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef int i, v
    # Arythea: discard a Wound for a red or black mana token, or a non-Wound card for a
    # white or green one.  Stage 0: the card (ASK_HAND_CARD); stage 1: the colour.
    # Engine reading of "spend it immediately": a token of this turn (5.1.2, returned at
    # its end); a black token by Day cannot be used (5.1.6).
    if choice < 0:
        return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, True) | sideways_options(pl, es, False))
    if gs.turn.handler_stage == 0:
        gs.turn.hvars[0] = <int16_t>choice
        return ask(gs, row, 1, ASK_COLOUR, ((1 << RED) | (1 << BLACK)) if pl.hand[choice] == es.wound
                   else ((1 << WHITE) | (1 << GREEN)))
    i = gs.turn.hvars[0]
    v = pl.hand[i]
    remove_at(pl.hand, &pl.n_hand, i)
    push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, v)
    gs.turn.played_card = 1                       # 4.3.2: a card discarded
    gs.turn.mana_tokens[choice] += 1
    return RES_DONE


cdef bint invocation_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    # a card to discard
    return pl.n_hand > 0 and (gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT
                              or gs.combat.active != 0)


cdef bint invocation_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef const Player* pl = &gs.players[p]
    cdef int stage = gs.turn.handler_stage
    # stage 1: hvars[0] = the hand card
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_HAND_CARD)
    if pc_hvar(c, gs, 0, 0, pl.n_hand - 1):
        return True
    return pc_asks(c, ASK_COLOUR)


cdef int universal_power(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i, v, w, d
    if choice >= 0 and gs.turn.handler_stage == SIDEWAYS_STAGE:   # sideways_play's question
        play_sideways_for(gs, pl, gs.turn.hvars[6], gs.turn.hvars[7], choice)
        return RES_DONE
    # Goldyx: add one mana to a non-Wound card played sideways: +bonus instead of +1, or
    # +matching_bonus for a Basic or Advanced Action or Spell of that mana's colour (gold:
    # any basic colour, 5.1.5).  Engine reading: the mana is of a basic colour or gold.
    # Stage 0: the card (ASK_HAND_CARD); stage 1: the payment code (ASK_OPTION, 5.4).
    if choice < 0:
        return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, False))
    if gs.turn.handler_stage == 0:
        gs.turn.hvars[0] = <int16_t>choice
        return ask(gs, row, 1, ASK_PAYMENT, mana_pay_options(gs))
    i = gs.turn.hvars[0]
    v = pay_colour(gs, choice)
    w = card_colour(es, pl.hand[i])
    d = card_deck(es, pl.hand[i])
    if v >= GOLD:
        v = w                                             # gold (or black as any colour)
    pay_take(gs, choice, v if v < GOLD else RED)
    return sideways_play(gs, es, row, pl, i, a[1] if (v == w and w < COLOURLESS
                                         and (d == DECK_BASIC or d == DECK_AA or d == DECK_SPELL)) else a[0])


cdef bint universal_power_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    # a card sideways and a basic mana to add
    return sideways_kinds(gs, es) != 0 and sideways_options(pl, es, False) != 0 and mana_pay_options(gs) != 0


cdef bint universal_power_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef const Player* pl = &gs.players[p]
    cdef int stage = gs.turn.handler_stage
    # stage 1: hvars[0] = the hand card
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_HAND_CARD)
    if pc_hvar(c, gs, 0, 0, pl.n_hand - 1):
        return True
    return pc_asks(c, ASK_PAYMENT)


cdef int taunt(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int i, v, w
    # Wolfhawk, Block phase: one enemy attack -reduce (not below 0; at 0 it counts as
    # blocked, LL-6.3.6), or +increase and that enemy's Armor armor_delta (min floor = 1;
    # not against Arcane Immunity, LL-6.7.1 - the attack part still applies).
    # Stage 0: the attack (ASK_OPTION slot * 3 + attack); stage 1: 0 = -reduce, 1 = +increase.
    if a[3] != 1:
        set_error(gs, ERR_ENEMY_EFFECT, OP_ENEMY_ARMOR, gs.turn.resolving_card)
        return RES_ERROR
    if choice < 0:
        return ask(gs, row, 0, ASK_OPTION, taunt_targets(gs, st))
    if gs.turn.handler_stage == 0:
        gs.turn.hvars[0] = <int16_t>choice
        return ask(gs, row, 1, ASK_OPTION, 3 if enemy_attack_value(gs, st, choice // 3, choice % 3) > 0 else 2)
    i = gs.turn.hvars[0] // 3
    w = gs.turn.hvars[0] % 3
    if choice == 0:
        v = enemy_attack_value(gs, st, i, w)
        gs.combat.enemies[i].attack_delta[w] -= <int8_t>(a[0] if a[0] < v else v)
    else:
        gs.combat.enemies[i].attack_delta[w] += <int8_t>a[1]
        if not enemy_ability(gs, st, i, AB_ARCANE_IMMUNITY):
            v = gs.combat.enemies[i].armor_delta + a[2]    # enemy_armor() keeps it >= 1
            gs.combat.enemies[i].armor_delta = <int8_t>(v if v > -100 else -100)
    return RES_DONE


cdef bint taunt_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # Block phase, a live enemy attack
    return taunt_targets(gs, es.st) != 0


cdef bint taunt_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    # enemy slot * 3 + attack; stage 1: in hvars[0]
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_OPTION, ASK_DONE) or pc_enemy_attack_options(c, gs)
    return pc_enemy_attack(c, gs, PF_HVAR, gs.turn.hvars[0]) or pc_asks(c, ASK_OPTION, 2)


cdef int resistance_break(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef int v
    cdef uint64_t options
    # Tovak: one enemy gets Armor per_resistance for each resistance it has (min floor = 1,
    # kept by enemy_armor); not against Arcane Immunity (LL-6.7.1).  ASK_ENEMY if several.
    if a[1] != 1:
        set_error(gs, ERR_ENEMY_EFFECT, OP_ENEMY_ARMOR, gs.turn.resolving_card)
        return RES_ERROR
    options = resistance_targets(gs, st)
    if choice < 0:
        if options == 0:
            return RES_DONE
        if options & (options - 1):
            return ask(gs, row, 0, ASK_ENEMY, options)
        choice = 0
        while not ((options >> choice) & 1):
            choice += 1
    v = gs.combat.enemies[choice].armor_delta + a[0] * resistance_count(gs, st, choice)
    gs.combat.enemies[choice].armor_delta = <int8_t>(v if v > -100 else -100)
    return RES_DONE


cdef bint resistance_break_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # an enemy with a resistance it can act on
    return gs.combat.active != 0 and resistance_targets(gs, es.st) != 0


cdef bint enemy_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY)


cdef int deadly_aim(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Wolfhawk: the next Attack card played in this phase (sideways included) gets
    # +ranged_bonus in the Ranged and Siege phase, +melee_bonus in the Attack phase
    # (skill_pool_bonus / deadly_aim_bonus); lost when the phase ends.
    if not give_mod(gs, p, MK_ATTACK_CARD_BONUS, MS_PHASE,
                    a[0] if gs.phase == PH_COMBAT_RANGED else a[1], MOD_SET):
        return RES_ERROR
    return RES_DONE


cdef bint deadly_aim_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    # an Attack card to come in this phase
    return (gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK) \
        and sideways_options(pl, es, False) != 0 and not mod_has(&gs.turn, MK_ATTACK_CARD_BONUS)


cdef int leadership(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options
    # Norowas: when activating a unit, +block to its Block, or +attack to its Attack, or
    # +ranged to its Ranged (not Siege) Attack: the next unit ability giving that gets it
    # (skill_pool_bonus).  ASK_OPTION 0 Block, 1 Attack, 2 Ranged (as the phase allows).
    options = leadership_options(gs, es)
    if choice < 0:
        if options & (options - 1):
            return ask(gs, row, 0, ASK_OPTION, options)
        choice = 0 if options == 1 else 2
    # combat-long (units are activated in a combat): it ends with the combat if no unit took it
    if not give_mod_arg(gs, p, MK_UNIT_ABILITY_BONUS, MS_COMBAT, a[choice], choice + 1, MOD_SET):
        return RES_ERROR
    return RES_DONE


cdef bint leadership_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # a unit that can be activated now
    return gs.combat.active != 0 and leadership_options(gs, es) != 0


cdef bint leadership_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    # option = a[option]: 0 .. 2
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, 3)


cdef int motivation(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    # 8.3.2: on any player's turn (here: during your own or just before it, 4.1.1): draw
    # `cards`; if you alone have the lowest Fame also `lowest_fame`.  No other Motivation
    # may be used until the end of your next turn: before your turn that is the turn about
    # to start (1 more turn end), during it the following one (2).
    draw_cards(gs, pl, a[0])
    pl.motivation_lock = 1 if gs.phase == PH_TURN_START else 2
    if alone_lowest_fame(gs, p):
        return push_eval(gs, a[1])
    return RES_DONE


cdef bint motivation_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    # 8.3.2: not while another Motivation is locked
    return pl.motivation_lock == 0 and (pl.n_deck > 0 or alone_lowest_fame(gs, gs.current)) \
        and (gs.phase == PH_TURN_START or gs.phase == PH_MOVE or gs.phase == PH_REST
             or gs.phase == PH_INTERACT or gs.combat.active != 0)


cdef int source_freeze(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    # Goldyx (interactive 8.2.2): put in the Source; other players cannot use their
    # normal die until your next turn (nobody with the dummy, which takes no dice: 18.4);
    # on your next turn a crystal of a basic colour shown in the Source (A_SKILL_CRYSTAL).
    pl.source_freeze = 1
    return RES_DONE


cdef int hawk_eyes(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # Wolfhawk (with its Move 1): at Night exploring costs explore_discount less Move this
    # turn (9.8.3; a turn-long MK_EXPLORE_DISCOUNT modifier); by Day fortified garrisons up to reveal_distance away are revealed
    # (a turn-long MK_REVEAL_DISTANCE)
    # this turn (9.10.1; again after every move, hawk_eyes_reveal).
    if gs.time == NIGHT:
        if not give_mod(gs, p, MK_EXPLORE_DISCOUNT, MS_TURN, a[0], MOD_SET):
            return RES_ERROR
    else:
        if a[1] > 0 and not give_mod(gs, p, MK_REVEAL_DISTANCE, MS_TURN, a[1], MOD_SET):
            return RES_ERROR
        hawk_eyes_reveal(gs, es, p)
    return RES_DONE


cdef int flight(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i
    cdef int16_t dest[64]
    # Goldyx: fly to a space free_spaces away for free or far_spaces away for far_move
    # Move; it must be safe (9.7.1); rampaging enemies are not provoked (9.4.3 does not
    # apply).  ASK_OPTION: option k = flight_options' k-th space.
    if choice < 0:
        return ask(gs, row, 0, ASK_OPTION, flight_options(gs, es, st, p, a, NULL))
    flight_options(gs, es, st, p, a, dest)
    i = dest[choice]
    if axial_distance(gs.hexes[pl.position].q, gs.hexes[pl.position].r,
                      gs.hexes[i].q, gs.hexes[i].r) != a[0]:
        gs.turn.move_points -= a[2]
    pl.position = <int16_t>i
    if gs.turn.n_path < MAX_PATH:
        gs.turn.path[gs.turn.n_path] = <int16_t>i
        gs.turn.n_path += 1
    gs.turn.moved = 1
    hawk_eyes_reveal(gs, es, p)
    return RES_DONE


cdef bint flight_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # movement, with a safe space to land on
    return gs.phase == PH_MOVE and not gs.turn.action_taken and not gs.combat.active \
        and flight_options(gs, es, es.st, gs.current, a, NULL) != 0


cdef bint flight_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    # option k = the k-th space flight_options finds
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, ASK_DONE) \
        or pc_subset(c, gs, flight_options(gs, es, st, p, a, NULL))


cdef int know_your_prey(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef int i, v, w
    cdef uint64_t options
    # Wolfhawk, in combat: one enemy (not Arcane Immunity, LL-6.7.1) loses one ability
    # (a resistance counts, LL-6.2.3), or one of its attacks loses an element: Fire / Ice
    # -> Physical, Cold Fire -> Fire or Ice; for the rest of the combat.
    # Stage 0: the enemy (ASK_ENEMY); stage 1: prey_options' bit (ASK_OPTION).
    if choice < 0:
        options = 0
        for i in range(gs.combat.n_enemies):
            if prey_options(gs, st, i) != 0:
                options |= (<uint64_t>1) << i
        return ask(gs, row, 0, ASK_ENEMY, options)
    if gs.turn.handler_stage == 0:
        gs.turn.hvars[0] = <int16_t>choice
        return ask(gs, row, 1, ASK_OPTION, prey_options(gs, st, choice))
    i = gs.turn.hvars[0]
    if choice < PREY_RESISTANCE:
        gs.combat.enemies[i].lost_abilities |= <uint16_t>(1 << choice)
    elif choice < PREY_ELEMENT:
        gs.combat.enemies[i].lost_resistances |= <uint8_t>(1 << (choice - PREY_RESISTANCE))
    else:
        w = (choice - PREY_ELEMENT) // 2
        v = attack_element(gs, st, i, w)
        if v == COLDFIRE:
            v = ICE if (choice - PREY_ELEMENT) % 2 else FIRE
        else:
            v = PHYSICAL
        gs.combat.enemies[i].element_set[w] = <int8_t>(v + 1)
    return RES_DONE


cdef bint know_your_prey_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef int i
    # in combat, an enemy it can act on
    if not gs.combat.active:
        return False
    for i in range(gs.combat.n_enemies):
        if prey_options(gs, es.st, i) != 0:
            return True
    return False


cdef bint know_your_prey_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    # stage 1: hvars[0] = the enemy
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_ENEMY)
    return pc_enemy_slot(c, gs, 0) or pc_asks(c, ASK_OPTION, PREY_ELEMENT + 6)


cdef int polarization(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef int v, w
    # Arythea: use one mana as its opposite colour (red <-> blue, white <-> green); by Day
    # black mana as any basic colour, but not to power a Spell (polar_nospell); at Night
    # gold as black (to power a Spell: black mana serves only that, 5.4.3).  Engine
    # reading: the mana (token, crystal, the turn's Source die, 5.5.2) is spent now and a
    # token of the new colour takes its place for this turn (5.1.2).
    # Stage 0: the payment code (ASK_PAYMENT); stage 1: the colour (ASK_COLOUR) if several.
    if choice < 0:
        return ask(gs, row, 0, ASK_PAYMENT, polar_sources(gs))
    if gs.turn.handler_stage == 0:
        v = pay_colour(gs, choice)
        w = polar_target_mask(gs, v)
        pay_take(gs, choice, v)
        if w & (w - 1):
            return ask(gs, row, 1, ASK_COLOUR, w)
        choice = 0
        while not ((w >> choice) & 1):
            choice += 1
        gs.turn.mana_tokens[choice] += 1
        return RES_DONE
    gs.turn.mana_tokens[choice] += 1                       # black by Day as `choice`
    gs.turn.polar_nospell = <int8_t>(choice + 1)
    return RES_DONE


cdef bint polarization_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # a mana to use as another colour
    return polar_sources(gs) != 0 and (gs.phase == PH_MOVE or gs.phase == PH_REST
                                       or gs.phase == PH_INTERACT or gs.combat.active != 0)


cdef bint polarization_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    if pc_stage(c, gs, 1):
        return True
    return pc_asks(c, ASK_PAYMENT) if stage == 0 else pc_asks(c, ASK_COLOUR)


cdef int dueling(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options
    # Wolfhawk, Block phase: Block `block` against one enemy (counted only in a block of
    # that enemy: add_block_extras) and Attack `attack` against it in the Attack phase
    # (duel_attack_add); Fame +fame if you defeat it without units blocking or attacking
    # it or taking its damage (duel_combat_end).  Engine reading: a unit ability counts
    # when it is in a pool committed against that enemy.  ASK_ENEMY if several.
    options = duel_targets(gs, st)
    if choice < 0:
        if options & (options - 1):
            return ask(gs, row, 0, ASK_ENEMY, options)
        choice = 0
        while not ((options >> choice) & 1):
            choice += 1
    gs.turn.duel_slot = <int8_t>(choice + 1)
    gs.turn.duel_block = <int8_t>a[0]
    gs.turn.duel_attack = <int8_t>a[1]
    gs.turn.duel_fame = <int8_t>a[2]
    gs.turn.duel_units = 0
    return RES_DONE


cdef bint dueling_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # Block phase, an enemy attack to block
    return duel_targets(gs, es.st) != 0


cdef int bonds_of_loyalty(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    # passive (8.2): never used as an action, so never resolved
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR


cdef bint bonds_of_loyalty_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return False                              # passive (8.2)


cdef int reroll_source_die(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    # Source Opening (Goldyx, cooperative LL-7): you may reroll one Source die (not one
    # taken this turn).  ASK_DIE, ASK_DONE: none.
    if choice < 0:
        return ask(gs, row, 0, ASK_DIE, source_dice_left(gs) | ((<uint64_t>1) << ASK_DONE))
    if choice != ASK_DONE:
        gs.dice[choice] = <int8_t>rng_below(&gs.rng[<int>STREAM_SOURCE], 6)
    return RES_DONE


cdef bint reroll_source_die_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # a die in the Source (5.5)
    return special_now(gs) and source_dice_left(gs) != 0


cdef bint reroll_source_die_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_DIE, -1, True)


cdef int cooperative(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i, v
    # LL-7.3: the owner's part now (`effect`); in a solo game the secondary effect
    # (`then`) is the owner's on the next turn only (LL-7.3.2, skills_turn_start).
    v = 0
    for i in range(MAX_SKILLS):                           # the token being used
        if pl.skills[i] >= 0 and SKILL_CARD_BASE - pl.skills[i] == gs.turn.resolving_card:
            v = i + 1
    if pl.coop_due == 2 and pl.coop_slot == v:
        coop_done(pl)                                     # taken back face down
        return push_eval(gs, a[1])
    coop_done(pl)                                         # one token in the centre at a time
    pl.coop_due = 1
    pl.coop_slot = <uint8_t>v
    return push_eval(gs, a[0])


cdef bint cooperative_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    # LL-7.3.2: the secondary effect on the due turn
    if pl.coop_due == 2:                      # (an automatic one is never used at will)
        return not row_is_automatic(es, a[1]) and node_playable(gs, es, a[1])
    return node_playable(gs, es, a[0])


cdef int source_opening_die(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef int v
    # Source Opening, secondary effect: use one more Source die of a basic colour (not
    # gold) this turn, beside the normal one; its owner (solo: the same player) gains a
    # crystal of that colour (5.3.2).  Engine reading: its mana is taken at once (a token
    # of this turn, 5.1.2) and the die goes back to be rerolled at the end of the turn
    # like any used die (the user's choice "reroll or not" is taken as reroll).
    if choice < 0:
        return ask(gs, row, 0, ASK_DIE, source_opening_dice(gs))
    v = gs.dice[choice]
    gs.dice_taken |= <uint8_t>(1 << choice)
    gs.turn.mana_tokens[v] += 1
    gain_crystal(pl, gs, v)
    return RES_DONE


cdef bint source_opening_die_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # a basic-colour die in the Source (5.5)
    return special_now(gs) and source_opening_dice(gs) != 0


cdef bint source_opening_die_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_DIE)


cdef int mark_mana(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    # Mana Overload (Tovak, cooperative LL-7): a mana token of a chosen non-gold colour
    # (5.3.1); the token in the centre is marked with that colour (overload_arm).
    if choice < 0:
        return ask(gs, row, 0, ASK_COLOUR, 0x2F)          # red blue white green black
    gs.turn.mana_tokens[choice] += 1
    pl.coop_mark = <uint8_t>(choice + 1)
    return RES_DONE


cdef bint mark_mana_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # a special effect (6.3.3), like Mana Exploit
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0


cdef bint mark_mana_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    # Mana Overload: a non-gold colour
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_COLOUR) or pc_subset(c, gs, 0x2F)


cdef int overload_bonus(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    # armed by overload_arm, never resolved
    set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
    return RES_ERROR


cdef bint automatic_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return False                              # automatic (LL-7.3.1): never an action


cdef int first_combat_weaken_run(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    return first_combat_weaken(gs, st, row, a, choice)


cdef bint first_combat_weaken_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef int stage = gs.turn.handler_stage
    # stage 0: the enemy; 1: slot * 3 + attack
    if pc_stage(c, gs, 1):
        return True
    if stage == 0:
        return pc_asks(c, ASK_ENEMY) or pc_subset(c, gs, weaken_armor_targets(gs, st))
    return pc_asks(c, ASK_OPTION, ASK_DONE) or pc_subset(c, gs, weaken_attack_targets(gs, st))


cdef int throw_away_wounds(GameState* gs, const EngineStatics* es, const Statics* st,
        int p, int row, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int v
    # Ritual of Pain (Arythea, cooperative LL-7): outside combat throw away min..max
    # Wounds from hand (back to the Wound pile, 12.3.3).  ASK_NUMBER: option k = k Wounds,
    # asked only if there is more than one possible number.
    v = hand_wounds(pl, es)
    if v > a[1]:
        v = a[1]
    if choice < 0:
        if v > a[0]:
            return ask(gs, row, 0, ASK_NUMBER, ((<uint64_t>1) << (v + 1)) - ((<uint64_t>1) << a[0]))
        choice = v
    throw_away_hand_wounds(pl, es, choice)
    return RES_DONE


cdef bint throw_away_wounds_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    # outside combat; 0 Wounds allowed if min is 0
    return healing_time(gs) and (a[0] == 0 or has_wound_in_hand(pl, es))


cdef bint throw_away_wounds_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
        PendingCheck* c) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[p]
    # Ritual of Pain: min .. (Wounds in hand, max)
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_NUMBER, ASK_DONE) \
        or pc_subset(c, gs, wound_number_options(gs, es, pl, a))


# ---------------------------------------------------------------------------------------
# The registry: one entry per handler (name, argument names, run, playable, pending, flags)
# ---------------------------------------------------------------------------------------

cdef enum:
    CAPACITY = 40

cdef HandlerEntry SKILLS[CAPACITY]
cdef int N_SKILLS = 0


cdef int entry(const char* name, const char* params, handler_run_t run, handler_playable_t playable,
               handler_pending_t pending=NULL, int flags=0) except -1:
    global N_SKILLS
    if N_SKILLS >= CAPACITY:
        raise RuntimeError("ext/_fx_skills.pyx: more handlers than CAPACITY")
    SKILLS[N_SKILLS].name = name
    SKILLS[N_SKILLS].params = params
    SKILLS[N_SKILLS].run = run
    SKILLS[N_SKILLS].playable = playable
    SKILLS[N_SKILLS].pending = pending
    SKILLS[N_SKILLS].flags = flags
    N_SKILLS += 1
    return 0


entry(b"outside_combat", b"then", outside_combat, outside_combat_playable, NULL, HF_RUNS_ARG0)
entry(b"discard_wound_cost", b"then", discard_wound_cost, discard_wound_cost_playable, NULL, HF_TAKES_WOUND)
entry(b"forward_march", b"per_unit max", forward_march, forward_march_playable)
entry(b"glittering_fortune", b"per_colour", glittering_fortune, glittering_fortune_playable)
entry(b"power_of_pain", b"bonus", power_of_pain, power_of_pain_playable, hand_card_pending, HF_TAKES_WOUND)
entry(b"i_dont_give_a_damn", b"bonus advanced_bonus", i_dont_give_a_damn, non_wound_sideways_playable,
      hand_card_pending)
entry(b"who_needs_magic", b"bonus no_source_bonus", who_needs_magic, non_wound_sideways_playable,
      who_needs_magic_pending)
entry(b"on_her_own", b"n no_recruit_n", on_her_own, on_her_own_playable, on_her_own_pending)
entry(b"wolfs_howl", b"bonus per_free_command unit_penalty", wolfs_howl, wolfs_howl_playable, hand_card_pending)
entry(b"prayer_of_weather", b"own_delta own_floor others_delta others_max", prayer_of_weather, movement_playable)
entry(b"healing_ritual", b"wounds", healing_ritual, healing_ritual_playable, healing_ritual_pending)
entry(b"mana_exploit", b"", mana_exploit, special_time_playable, mana_exploit_pending)
entry(b"invocation", b"", invocation, invocation_playable, invocation_pending, HF_TAKES_WOUND)
entry(b"universal_power", b"bonus matching_bonus", universal_power, universal_power_playable, universal_power_pending)
entry(b"taunt", b"reduce increase armor_delta floor", taunt, taunt_playable, taunt_pending)
entry(b"resistance_break", b"per_resistance floor", resistance_break, resistance_break_playable, enemy_pending)
entry(b"deadly_aim", b"ranged_bonus melee_bonus", deadly_aim, deadly_aim_playable)
entry(b"leadership", b"block attack ranged", leadership, leadership_playable, leadership_pending)
entry(b"motivation", b"cards lowest_fame", motivation, motivation_playable, NULL, HF_MOTIVATION)
entry(b"source_freeze", b"", source_freeze, special_time_playable)
entry(b"hawk_eyes", b"explore_discount reveal_distance", hawk_eyes, movement_playable, NULL, HF_MOVEMENT_ONLY)
entry(b"flight", b"free_spaces far_spaces far_move", flight, flight_playable, flight_pending)
entry(b"know_your_prey", b"", know_your_prey, know_your_prey_playable, know_your_prey_pending)
entry(b"polarization", b"", polarization, polarization_playable, polarization_pending)
entry(b"dueling", b"block attack fame", dueling, dueling_playable, enemy_pending)
entry(b"bonds_of_loyalty", b"offer_units discount", bonds_of_loyalty, bonds_of_loyalty_playable, NULL,
      HF_BONDS_OF_LOYALTY)
entry(b"reroll_source_die", b"", reroll_source_die, reroll_source_die_playable, reroll_source_die_pending)
entry(b"cooperative", b"effect then", cooperative, cooperative_playable, NULL, HF_COOPERATIVE)
entry(b"source_opening_die", b"", source_opening_die, source_opening_die_playable, source_opening_die_pending)
entry(b"mark_mana", b"", mark_mana, mark_mana_playable, mark_mana_pending)
entry(b"overload_bonus", b"bonus", overload_bonus, automatic_playable, NULL, HF_OVERLOAD_BONUS)
entry(b"first_combat_weaken", b"armor floor attack_delta", first_combat_weaken_run, automatic_playable,
      first_combat_weaken_pending, HF_FIRST_COMBAT_WEAKEN)
entry(b"throw_away_wounds", b"min max", throw_away_wounds, throw_away_wounds_playable, throw_away_wounds_pending)
register_handler_group(HG_SKILLS, SKILLS, N_SKILLS)
