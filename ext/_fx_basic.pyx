# cython: language_level=3
"""Named effect handlers of the Basic Action cards (incl. hero cards): a handler group
compiled as a module of its own (ext/_fx_basic.pxd is its header).

Each handler is a run function (the protocol of "Handler protocol", ext/_engine.pyx), a
playable function and, when it asks a question, a pending function (its bounds,
pending_check).  BASIC, at the end, is the group's registry: one entry per handler with its
name and declared argument names; importing the module registers it with the engine
(register_handler_group), which dispatches through it and exports it to Python
(mksim._engine.handler_registry(), read by content validation).  The content's keyword
arguments must match the declared names exactly.
"""
from libc.stdint cimport int16_t, int8_t, uint8_t, uint16_t, uint64_t, int32_t

from mksim._types cimport (GameState, Player, PH_INTERACT, PH_MOVE, PH_REST, PH_COMBAT_BLOCK,
                           DECK_BASIC, DECK_AA, ICE, GOLD, MAX_DISCARD_CARDS, MAX_PLAY_CARDS,
                           MK_CARD_BONUS, MK_MOVE_BONUS, MS_NEXT_CARD, MS_TURN)
from mksim._types cimport MK_IGNORE_WOUNDS, MK_NO_UNIT_DAMAGE, MK_NO_SOURCE_DICE, MK_NO_RECRUIT, MK_MANA_ANYTIME, MK_ENDLESS_MANA, MK_DICE_ANY_BASIC, MK_CRYSTAL_RETURN, MK_SPACE_BENDING, MK_PROTECTION, MK_INFLUENCE_BLOCK, MK_REVEAL_DISTANCE, MK_EXPLORE_RANGE, MK_DRAW_PER_HEAL, MK_CURE, MK_ATTACKS_COLDFIRE, MK_ATTACKS_SIEGE, MK_SWORD_FAME, MK_DODGE_ATTACK  # turn / combat-long kinds (issue 12)
from mksim._modifiers cimport mod_take, mod_find, mod_has, mod_sum, mod_remove_kind, mod_find_arg, mod_sum_arg, mod_has_arg  # (issue 12)
from mksim._engine cimport give_mod, give_mod_arg, MOD_SET
from mksim._engine cimport MOD_ADD
from mksim._types cimport MK_ICON_BLOCK, MS_BLOCK  # the Block pool's modifiers (issue 12)
from mksim._state cimport Statics
from mksim._combat cimport enemy_attack_value
from mksim._engine cimport (
    EngineStatics, HandlerEntry, handler_run_t, handler_playable_t, handler_pending_t, PendingCheck,
    register_handler_group, handler_entry, HG_BASIC, HF_PLAYS_OTHER_CARD, OP_HANDLER,
    RES_DONE, RES_ERROR, ERR_INTERNAL, INTERNAL_NO_OPTION, ASK_DONE, ASK_HAND_CARD, ASK_COLOUR, ASK_DIE, ASK_PAYMENT,
    PAY_CRYSTAL, PAY_DIE, PAY_STOLEN, PF_STAGE,
    erow, card_deck, set_error, remove_at, row_args, ask, pc_bad, pc_stage, pc_hvar, pc_asks,
    pc_subset, pc_enemy_attack_options, reducible_attacks,
    push_card, gain_crystal, change_reputation, push_eval, card_bonus, pay_ok, pay_take,
    card_playable_mode, agility_move_usable, influence_elsewhere, lift_self, put_back,
    wings_move_usable, units_need_influence,
)
from mksim._effects cimport node_playable                       # the interpreter (ext/_effects.pxd)


cdef inline bint basic_special_time(const GameState* gs) noexcept nogil:
    """6.3.3: a special effect may be played any time during the turn - while moving, resting,
    interacting and in combat (Crystallize, Mana Draw, Mana Pull, Crystal Joy)."""
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0


cdef uint64_t crystal_pay_options(const GameState* gs, int colour) noexcept nogil:
    """Payment codes giving one mana of basic `colour` for Crystallize: tokens, Source dice,
    the Mana Steal die.  Crystals are left out: paying a crystal for a crystal of the same
    colour changes nothing (5.1.3)."""
    cdef uint64_t o = 0
    cdef int pay
    for pay in range(PAY_STOLEN + 1):
        if pay >= PAY_CRYSTAL and pay < PAY_DIE:
            continue
        if pay_ok(gs, pay, colour):
            o |= (<uint64_t>1) << pay
    return o


cdef bint concentration_target(const GameState* gs, const EngineStatics* es, int card, int leaving) noexcept nogil:
    """An Action card (Basic or Advanced) whose strong effect can be used now; cards that
    are themselves Concentration-like are left out (no chains).  `leaving`: cards still in
    hand that will have left it when the target resolves (the Concentration card itself)."""
    cdef int deck = card_deck(es, card)
    cdef int row, i, others = 0
    cdef const int32_t* r
    cdef const Player* pl = &gs.players[gs.current]
    cdef const HandlerEntry* e
    if deck != DECK_BASIC and deck != DECK_AA:
        return False
    row = es.card_powered[card * es.card_stride]
    r = erow(es, row)
    e = handler_entry(es, r[1]) if r[0] == OP_HANDLER else NULL
    if e != NULL:
        if e.run == <handler_run_t>concentration:
            return False
        if e.run == <handler_run_t>discard_cost and leaving > 0:
            for i in range(pl.n_hand):      # 6.2.2: another non-Wound card besides both
                if pl.hand[i] != es.wound:
                    others += 1
            if others < 2 + leaving:
                return False
    return card_playable_mode(gs, es, card, 1) >= 0


cdef uint64_t crystal_colours_payable(const GameState* gs) noexcept nogil:
    cdef uint64_t o = 0
    cdef int i
    for i in range(4):
        if crystal_pay_options(gs, i) != 0:
            o |= (<uint64_t>1) << i
    return o


cdef uint64_t dice_not_taken(const GameState* gs) noexcept nogil:
    cdef uint64_t o = 0
    cdef int i
    for i in range(gs.n_dice):
        if not (gs.dice_taken >> i) & 1:
            o |= (<uint64_t>1) << i
    return o


cdef bint hand_card_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                            PendingCheck* c) noexcept nogil:
    """One question, a hand card (Discard cost, Concentration)."""
    return pc_stage(c, gs, 0) or pc_asks(c, ASK_HAND_CARD)


# --- discard_cost(n, then) -------------------------------------------------------------

cdef int discard_cost(GameState* gs, const EngineStatics* es, const Statics* st,
                      int p, int row, int choice) noexcept nogil:
    # 6.2.1-6.2.2: "Discard another card: E" - a non-Wound card from hand goes to the
    # discard pile, then E resolves (a = n, then).  No card to discard: no effect.
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i
    if choice < 0:
        for i in range(pl.n_hand):
            if pl.hand[i] != es.wound and i < 64:
                options |= (<uint64_t>1) << i
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, options)
    i = pl.hand[choice]
    remove_at(pl.hand, &pl.n_hand, choice)
    push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, i)
    return push_eval(gs, a[1])


cdef bint discard_cost_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, others = 0
    for i in range(pl.n_hand):
        if pl.hand[i] != es.wound:
            others += 1
    # the card itself is still in hand: another non-Wound card is needed (6.2.2)
    return others >= 2 and node_playable(gs, es, a[1])


# --- mana_to_crystal(n, optional) ------------------------------------------------------

cdef int mana_to_crystal(GameState* gs, const EngineStatics* es, const Statics* st,
                         int p, int row, int choice) noexcept nogil:
    # Crystallize (basic) / Crystal Joy: pay one basic mana of a chosen colour, gain a
    # crystal of that colour (5.3.2).  Stage 0: colour (ASK_COLOUR, + ASK_DONE when
    # `optional`); stage 1: the payment (ASK_PAYMENT).
    # hvars[0] = crystals gained, hvars[1] = colour.
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i
    if choice < 0:
        gs.turn.hvars[0] = 0
    elif gs.turn.handler_stage == 0:
        if choice == ASK_DONE:
            return RES_DONE
        gs.turn.hvars[1] = <int16_t>choice
        return ask(gs, row, 1, ASK_PAYMENT, crystal_pay_options(gs, choice))
    else:
        pay_take(gs, choice, gs.turn.hvars[1])               # 5.4.5
        gain_crystal(pl, gs, gs.turn.hvars[1])
        gs.turn.hvars[0] += 1
    if gs.turn.hvars[0] >= a[0]:
        return RES_DONE
    for i in range(4):
        if crystal_pay_options(gs, i) != 0:
            options |= (<uint64_t>1) << i
    if a[1] > 0 or gs.turn.hvars[0] > 0:
        options |= (<uint64_t>1) << ASK_DONE
    if options == 0:
        set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)  # 6.2.1: cannot pay
        return RES_ERROR
    return ask(gs, row, 0, ASK_COLOUR, options)


cdef bint mana_to_crystal_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # a special effect (6.3.3) that needs a payable basic colour (6.2.1) unless optional
    cdef const int32_t* a = row_args(es, row)
    cdef int i
    if not basic_special_time(gs):
        return False
    if a[1] > 0:
        return True
    for i in range(4):
        if crystal_pay_options(gs, i) != 0:
            return True
    return False


cdef bint mana_to_crystal_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                  PendingCheck* c) noexcept nogil:
    if pc_stage(c, gs, 1):                              # stage 1: hvars[1] = the colour
        return True
    if gs.turn.handler_stage == 0:                      # a colour it can pay for (else stage 1 asks nothing)
        return pc_asks(c, ASK_COLOUR, 4, True) or pc_subset(c, gs, crystal_colours_payable(gs))
    return pc_hvar(c, gs, 1, 0, 3) or pc_asks(c, ASK_PAYMENT) \
        or pc_subset(c, gs, crystal_pay_options(gs, gs.turn.hvars[1]))


# --- mana_draw_powered(dice, tokens) ---------------------------------------------------

cdef int mana_draw_powered(GameState* gs, const EngineStatics* es, const Statics* st,
                           int p, int row, int choice) noexcept nogil:
    # Mana Draw / Mana Pull powered: take `dice` Source dice, set each to a colour other
    # than gold, gain `tokens` mana tokens of it (5.3.1); the dice return without a
    # reroll (Player's turn end, 4.6.2 exception).  Engine reading [R]: these dice do not
    # count as the turn's one Source die (5.5.2), as the card takes them itself.
    # Stage 0: the die (ASK_DIE), stage 1: its colour (ASK_COLOUR, gold excluded).
    # hvars[0] = dice done, hvars[1] = die.
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int i
    if choice < 0:
        gs.turn.hvars[0] = 0
    elif gs.turn.handler_stage == 0:
        gs.turn.hvars[1] = <int16_t>choice
        return ask(gs, row, 1, ASK_COLOUR, 0x3F & ~((<uint64_t>1) << GOLD))
    else:
        i = gs.turn.hvars[1]
        gs.dice[i] = <int8_t>choice
        gs.dice_taken |= <uint8_t>(1 << i)
        gs.turn.dice_kept |= <uint8_t>(1 << i)
        gs.turn.mana_tokens[choice] += a[1]
        gs.turn.hvars[0] += 1
    if gs.turn.hvars[0] >= a[0]:
        return RES_DONE
    for i in range(gs.n_dice):
        if not (gs.dice_taken >> i) & 1:
            options |= (<uint64_t>1) << i
    if options == 0:
        return RES_DONE                                      # no die left in the Source
    return ask(gs, row, 0, ASK_DIE, options)


cdef bint mana_draw_powered_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    cdef int i
    if not basic_special_time(gs) or mod_has(&gs.turn, MK_NO_SOURCE_DICE):
        return False
    for i in range(gs.n_dice):
        if not (gs.dice_taken >> i) & 1:
            return True
    return False


cdef bint mana_draw_powered_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                                    PendingCheck* c) noexcept nogil:
    if pc_stage(c, gs, 1):                              # stage 1: hvars[1] = the die
        return True
    if gs.turn.handler_stage == 0:
        return pc_asks(c, ASK_DIE) or pc_subset(c, gs, dice_not_taken(gs))
    return pc_hvar(c, gs, 1, 0, gs.n_dice - 1) or pc_asks(c, ASK_COLOUR)


# --- mana_pull_extra_die(n) ------------------------------------------------------------

cdef int mana_pull_extra_die(GameState* gs, const EngineStatics* es, const Statics* st,
                             int p, int row, int choice) noexcept nogil:
    # Mana Pull basic: use `n` extra Source dice this turn (5.5.6); a black one may be
    # used as mana of any colour (also by Day, 5.1.6 overridden by the card).
    cdef const int32_t* a = row_args(es, row)
    gs.turn.extra_dice += a[0]
    gs.turn.black_any = 1
    return RES_DONE


cdef bint special_time_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    """Mana Pull basic, Crystal Joy: whenever a special effect may be played (6.3.3)."""
    return basic_special_time(gs)


# --- concentration(bonus) --------------------------------------------------------------

cdef int concentration(GameState* gs, const EngineStatics* es, const Statics* st,
                       int p, int row, int choice) noexcept nogil:
    # Concentration / Will Focus powered: play another Action card with it; that card
    # gives its strong effect without mana, +bonus if it gives Move, Influence, Block or
    # Attack: once, to the first such amount it gives (card_bonus / move_bonus, _engine.pyx).
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i
    if choice < 0:
        for i in range(pl.n_hand):
            if i < ASK_DONE and concentration_target(gs, es, pl.hand[i], 0):
                options |= (<uint64_t>1) << i
        if options == 0:
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, gs.turn.resolving_card)
            return RES_ERROR
        return ask(gs, row, 0, ASK_HAND_CARD, options)
    # a next-card modifier made by this card (its source): it ends when the card played
    # with it has resolved (EV_CARD_PLAYED, that card's), if no amount took it
    if not give_mod(gs, p, MK_CARD_BONUS, MS_NEXT_CARD, a[0], MOD_SET):
        return RES_ERROR
    i = pl.hand[choice]
    remove_at(pl.hand, &pl.n_hand, choice)
    push_card(pl.play_area, &pl.n_play, MAX_PLAY_CARDS, i)                    # 6.1.2
    gs.turn.resolving_card = <int16_t>i
    return push_eval(gs, es.card_powered[i * es.card_stride])


cdef bint concentration_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # a special effect (6.3.3) whose target card must be usable now: also while
    # interacting or in combat (Influence, Attack, Block targets)
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, lifted
    cdef bint ok
    if gs.phase != PH_MOVE and gs.phase != PH_REST and gs.phase != PH_INTERACT and not gs.combat.active:
        return False
    # checked as it resolves: Concentration itself out of the hand (lift_self, _fx_advanced)
    lifted = lift_self(<GameState*>gs, es, row)
    ok = False
    for i in range(pl.n_hand):
        if concentration_target(gs, es, pl.hand[i], 0):
            ok = True
            break
    put_back(<GameState*>gs, lifted)
    return ok


# --- tirelessness_bonus(bonus, all_cards) ----------------------------------------------

cdef int tirelessness_bonus(GameState* gs, const EngineStatics* es, const Statics* st,
                            int p, int row, int choice) noexcept nogil:
    # Tirelessness: the next card giving Move this turn (powered: every later one),
    # sideways included, gives +bonus Move (applied in apply_op / A_SIDEWAYS).
    cdef const int32_t* a = row_args(es, row)
    # turn-long (not "next card": cards giving no Move do not use it); arg 0 the next card
    # giving Move, used up (move_bonus), arg 1 every later one
    if not give_mod_arg(gs, p, MK_MOVE_BONUS, MS_TURN, a[0], 1 if a[1] else 0, MOD_SET):
        return RES_ERROR
    return RES_DONE


cdef bint tirelessness_bonus_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # with its Move: in combat when Move has a use there (Agility's conversion, Wings of
    # Night; LL-9.7.5, LL-9.7.6: its bonus works in combat)
    return gs.phase == PH_MOVE or gs.phase == PH_REST or agility_move_usable(gs) \
        or wings_move_usable(gs, es.st)


# --- crystal_joy_return(allow_wound) ---------------------------------------------------

cdef int crystal_joy_return(GameState* gs, const EngineStatics* es, const Statics* st,
                            int p, int row, int choice) noexcept nogil:
    # Crystal Joy: at the end of the turn another card (basic: non-Wound; powered: any,
    # Wound included) may be discarded to return Crystal Joy to hand (A_RETURN_CARD).
    cdef const int32_t* a = row_args(es, row)
    gs.turn.crystal_joy = <uint8_t>(2 if a[0] else 1)
    gs.turn.crystal_joy_card = gs.turn.resolving_card
    return RES_DONE


# --- noble_manners_bonus(fame, reputation) ---------------------------------------------

cdef int noble_manners_bonus(GameState* gs, const EngineStatics* es, const Statics* st,
                             int p, int row, int choice) noexcept nogil:
    # Noble Manners: used during interaction (10.2), Fame +fame and Reputation +reputation
    # "at the end of the turn".  Applied now: this turn's reputation modifier was fixed
    # when the interaction began (10.2.3) and Fame is next read at the end of the turn
    # (13.6.1), so the result is the same.
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    if gs.phase == PH_INTERACT:
        pl.fame += a[0]
        change_reputation(pl, a[1])                           # 10.3.2 clamp
    return RES_DONE


cdef bint noble_manners_bonus_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    # wherever its Influence has a use (the same test as OP_INFLUENCE: interaction 10.2.2,
    # Learning / Diplomacy while moving, Thugs / Heroes in combat LL-4.3.4), the bonus
    # itself given only during interaction; not elsewhere, where an all(...) may drop an
    # Influence part (LL-9.7.8) and would leave the card played for nothing
    return gs.phase == PH_INTERACT or influence_elsewhere(gs) or units_need_influence(gs, es)


# --- cold_toughness_block(block, per_icon, arcane_bonus) -------------------------------

cdef int cold_toughness_block(GameState* gs, const EngineStatics* es, const Statics* st,
                              int p, int row, int choice) noexcept nogil:
    # Tovak's Cold Toughness powered: Ice Block `block`, and `per_icon` more Ice Block for
    # every ability, resistance and elemental attack icon of the enemy it blocks; enemies
    # with Arcane Immunity give no bonus in the Lost Legion printing (LL-2.10.8), and
    # count like any other in the base one (arcane_bonus=1).  The bonus is counted when
    # the block is committed (commit_block, _engine_advanced.pxi): a modifier of the Block
    # pool (MK_ICON_BLOCK, MS_BLOCK; arg 2 = the base printing).
    cdef const int32_t* a = row_args(es, row)
    gs.combat.block[<int>ICE] += a[0] + card_bonus(gs)      # Concentration on it
    if a[1] and not give_mod_arg(gs, p, MK_ICON_BLOCK, MS_BLOCK, a[1], 2 if a[2] else 1, MOD_ADD):
        return RES_ERROR
    return RES_DONE


cdef bint cold_toughness_block_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return gs.phase == PH_COMBAT_BLOCK                     # 11.6.3


# --- reduce_enemy_attack(amount, attacks) ----------------------------------------------

cdef int reduce_enemy_attack(GameState* gs, const EngineStatics* es, const Statics* st,
                             int p, int row, int choice) noexcept nogil:
    # Swift Reflexes / Dodge and Weave: reduce `attacks` different enemy attacks by
    # `amount` each (never below 0), in the Block phase; an attack reduced to 0 deals no
    # damage and counts as blocked (LL-6.3.6, applied by combat_next_phase).
    # hvars[0]: attacks still to reduce, hvars[1..4]: options already taken (bits).
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t options = 0
    cdef int i, s_, i_, v_
    cdef uint64_t taken
    if choice < 0:
        gs.turn.hvars[0] = <int16_t>a[1]
        gs.turn.hvars[1] = gs.turn.hvars[2] = gs.turn.hvars[3] = gs.turn.hvars[4] = 0
    else:
        s_ = choice // 3
        i_ = choice % 3
        v_ = enemy_attack_value(gs, st, s_, i_)
        gs.combat.enemies[s_].attack_delta[i_] -= <int8_t>(a[0] if a[0] < v_ else v_)
        gs.turn.hvars[1 + choice // 16] |= <int16_t>(1 << (choice % 16))
        gs.turn.hvars[0] -= 1
    taken = 0
    for i in range(4):
        taken |= (<uint64_t>(<uint16_t>gs.turn.hvars[1 + i])) << (16 * i)
    options = reducible_attacks(gs, st, taken)
    if gs.turn.hvars[0] <= 0 or options == 0:
        return RES_DONE
    return ask(gs, row, 1, ASK_PAYMENT, options)


cdef bint reduce_enemy_attack_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    return reducible_attacks(gs, es.st, 0) != 0


cdef bint reduce_enemy_attack_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                                      int row, PendingCheck* c) noexcept nogil:
    # options: enemy slot * 3 + attack
    return pc_bad(c, PF_STAGE, gs.turn.handler_stage, 1, 1) \
        or pc_asks(c, ASK_PAYMENT, ASK_DONE) or pc_enemy_attack_options(c, gs)


# ---------------------------------------------------------------------------------------
# The registry: one entry per handler (name, argument names, run, playable, pending, flags)
# ---------------------------------------------------------------------------------------

cdef enum:
    CAPACITY = 32

cdef HandlerEntry BASIC[CAPACITY]
cdef int N_BASIC = 0


cdef int entry(const char* name, const char* params, handler_run_t run, handler_playable_t playable,
               handler_pending_t pending=NULL, int flags=0) except -1:
    global N_BASIC
    if N_BASIC >= CAPACITY:
        raise RuntimeError("ext/_fx_basic.pyx: more handlers than CAPACITY")
    BASIC[N_BASIC].name = name
    BASIC[N_BASIC].params = params
    BASIC[N_BASIC].run = run
    BASIC[N_BASIC].playable = playable
    BASIC[N_BASIC].pending = pending
    BASIC[N_BASIC].flags = flags
    N_BASIC += 1
    return 0


entry(b"discard_cost", b"n then", discard_cost, discard_cost_playable, hand_card_pending)
entry(b"mana_to_crystal", b"n optional", mana_to_crystal, mana_to_crystal_playable, mana_to_crystal_pending)
entry(b"mana_draw_powered", b"dice tokens", mana_draw_powered, mana_draw_powered_playable, mana_draw_powered_pending)
entry(b"mana_pull_extra_die", b"n", mana_pull_extra_die, special_time_playable)
entry(b"concentration", b"bonus", concentration, concentration_playable, hand_card_pending, HF_PLAYS_OTHER_CARD)
entry(b"tirelessness_bonus", b"bonus all_cards", tirelessness_bonus, tirelessness_bonus_playable)
entry(b"crystal_joy_return", b"allow_wound", crystal_joy_return, special_time_playable)
entry(b"noble_manners_bonus", b"fame reputation", noble_manners_bonus, noble_manners_bonus_playable)
entry(b"cold_toughness_block", b"block per_icon arcane_bonus", cold_toughness_block, cold_toughness_block_playable)
entry(b"reduce_enemy_attack", b"amount attacks", reduce_enemy_attack, reduce_enemy_attack_playable,
      reduce_enemy_attack_pending)
register_handler_group(HG_BASIC, BASIC, N_BASIC)
