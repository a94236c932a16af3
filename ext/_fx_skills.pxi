# Skills (rule 8): the A_USE_SKILL action and the named effect handlers of skills.toml,
# included into ext/_engine.pyx after _fx_artifacts.pxi.  Protocol: see "Handler protocol"
# in _engine.pyx.  SKILLS_HANDLERS lists (name, declared argument names) in handler-code
# order; the content's keyword arguments must match them exactly.
#
# Usage (8.2): once_per_turn (8.2.3) may be used once each turn: bit SKILL_TURN_SHIFT + slot
# of Player.skills_used, cleared at the start of the owner's turn.  once_per_round (8.2.1)
# and interactive (8.2.2) flip face down: bit `slot`, cleared at round preparation (2.2.8,
# 8.3.1).  passive skills are no action.  A skill is offered only when its effect can do
# something now (node_playable, the timing table 6.3.3), on its owner's own turn (8.2.1).
# A skill is not a card: the card bonuses (Concentration, Tirelessness, Ambush) do not apply
# to its Move, Attack or Block (skill_op).
#
# Handlers not implemented here stay named errors (ERR_HANDLER naming the skill):
# motivation (8.3.2: other players' turns; the "alone lowest Fame" bonus in solo),
# invocation, polarization, universal_power (mana added to a sideways card), flight, leadership, resistance_break, hawk_eyes, on_her_own, deadly_aim,
# know_your_prey, taunt, dueling, bonds_of_loyalty, and the interactive skills.

SKILLS_HANDLERS = (
    ("outside_combat", ("then",)),
    ("discard_wound_cost", ("then",)),
    ("forward_march", ("per_unit", "max")),
    ("glittering_fortune", ("per_colour",)),
    ("power_of_pain", ("bonus",)),
    ("i_dont_give_a_damn", ("bonus", "advanced_bonus")),
    ("who_needs_magic", ("bonus", "no_source_bonus")),
)

cdef enum SkillHandler:
    SK_OUTSIDE_COMBAT = 0
    SK_DISCARD_WOUND_COST = 1
    SK_FORWARD_MARCH = 2
    SK_GLITTERING_FORTUNE = 3
    SK_POWER_OF_PAIN = 4
    SK_I_DONT_GIVE_A_DAMN = 5
    SK_WHO_NEEDS_MAGIC = 6

cdef enum SkillUsage:          # mksim.content.SKILL_USAGE order
    SKU_ONCE_PER_TURN = 0
    SKU_ONCE_PER_ROUND = 1
    SKU_INTERACTIVE = 2
    SKU_PASSIVE = 3


cdef inline const int32_t* skill_entry(const EngineStatics* es, int skill) noexcept nogil:
    return es.skill_row + skill * es.skill_stride     # hero usage effect ... (tables.SKILL_COLUMNS)


cdef bint skill_usable(const GameState* gs, const EngineStatics* es, int p, int slot) noexcept nogil:
    """8.2: may the owner use the skill in `slot` now?"""
    cdef const Player* pl = &gs.players[p]
    cdef int skill, usage
    if slot < 0 or slot >= MAX_SKILLS:
        return False
    skill = pl.skills[slot]
    if skill < 0 or skill >= es.n_skills:
        return False
    usage = skill_entry(es, skill)[1]
    if usage == SKU_PASSIVE:
        return False                                          # always active, not an action
    if (pl.skills_used >> slot) & 1:
        return False                                          # face down (8.2.1, 8.2.2)
    if usage == SKU_ONCE_PER_TURN and (pl.skills_used >> (SKILL_TURN_SHIFT + slot)) & 1:
        return False                                          # 8.2.3
    if gs.phase != PH_MOVE and gs.phase != PH_REST and gs.phase != PH_INTERACT and not gs.combat.active:
        return False
    return node_playable(gs, es, skill_entry(es, skill)[2])


cdef int legal_skills(const GameState* gs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    cdef int k
    for k in range(MAX_SKILLS):
        if n < MAX_ACTIONS and skill_usable(gs, es, gs.current, k):
            out[n] = act(A_USE_SKILL, k)
            n += 1
    return n


cdef int use_skill(GameState* gs, const EngineStatics* es, const Statics* st, int p, int slot) noexcept nogil:
    """A_USE_SKILL: mark the token used (8.2) and resolve its effect like a card's."""
    cdef Player* pl = &gs.players[p]
    cdef int skill, usage, res
    if not skill_usable(gs, es, p, slot):
        return ERR_ILLEGAL
    skill = pl.skills[slot]
    usage = skill_entry(es, skill)[1]
    if usage == SKU_ONCE_PER_TURN:
        pl.skills_used |= <uint16_t>(1 << (SKILL_TURN_SHIFT + slot))     # 8.2.3
    else:
        pl.skills_used |= <uint16_t>(1 << slot)               # 8.2.1-8.2.2: flipped face down
    gs.turn.resolving_card = <int16_t>(SKILL_CARD_BASE - skill)
    push_eval(gs, skill_entry(es, skill)[2])
    res = run_effects(gs, es, st, p)
    return gs.error if res == RES_ERROR else ERR_NONE


cdef int skill_op(GameState* gs, const int32_t* r) noexcept nogil:
    """Move / Attack / Block of a skill: the plain value, without card bonuses."""
    if r[0] == OP_MOVE:
        gs.turn.move_points += r[1]
    elif r[0] == OP_ATTACK:
        gs.combat.attack[r[3]][r[2]] += r[1]                  # 11.5.2 / 11.8
    else:
        gs.combat.block[r[2]] += r[1]                         # 11.6.3
    return RES_DONE


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


cdef int sideways_kind(const GameState* gs) noexcept nogil:
    """What a card played sideways gives now (6.1.7; as A_SIDEWAYS): 0 Move, 1 Influence,
    2 Attack, 3 Block, -1 nothing."""
    if gs.phase == PH_MOVE and not gs.turn.action_taken:
        return 0
    if gs.phase == PH_INTERACT:
        return 1
    if gs.phase == PH_COMBAT_ATTACK:
        return 2
    if gs.phase == PH_COMBAT_BLOCK:
        return 3
    return -1


cdef uint64_t sideways_options(const Player* pl, const EngineStatics* es, bint wounds) noexcept nogil:
    """Hand indices of the Wounds (wounds) or the non-Wound cards."""
    cdef uint64_t options = 0
    cdef int i
    for i in range(pl.n_hand):
        if i <= MAX_HAND_INDEX and (pl.hand[i] == es.wound) == wounds:
            options |= (<uint64_t>1) << i
    return options


cdef void play_sideways_for(GameState* gs, Player* pl, int i, int value) noexcept nogil:
    """Play hand card i sideways (6.1.7) for `value` instead of 1; card bonuses apply as for
    A_SIDEWAYS (it is a card played)."""
    cdef int card = pl.hand[i]
    cdef int a = sideways_kind(gs)
    remove_at(pl.hand, &pl.n_hand, i)
    push_card(pl.play_area, &pl.n_play, card)        # a Wound too: discarded at end of turn
    gs.turn.played_card = 1
    if a == 0:
        gs.turn.move_points += value + move_bonus(gs)
    elif a == 1:
        gs.turn.influence += value                    # 10.2.2
    elif a == 2:
        gs.combat.attack[0][0] += value + ambush_bonus(gs, 0)    # physical melee Attack
    else:
        gs.combat.block[0] += value + ambush_bonus(gs, 1)        # physical Block


cdef bint skills_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    if local == SK_OUTSIDE_COMBAT:                # only outside combat, and only if it does something
        return not gs.combat.active and node_playable(gs, es, a[0])   # 11: not in combat
    if local == SK_DISCARD_WOUND_COST:            # I Feel No Pain: needs a Wound in hand
        return has_wound_in_hand(pl, es) and node_playable(gs, es, a[0])
    if local == SK_FORWARD_MARCH:                 # Move (9.3.2) with at least one such unit
        return gs.phase == PH_MOVE and ready_unwounded_units(pl) > 0
    if local == SK_GLITTERING_FORTUNE:            # Influence: interaction only (10.2.2)
        return gs.phase == PH_INTERACT and crystal_colours(pl) > 0
    if local == SK_POWER_OF_PAIN:                 # a Wound played sideways
        return sideways_kind(gs) >= 0 and sideways_options(pl, es, True) != 0
    if local == SK_I_DONT_GIVE_A_DAMN or local == SK_WHO_NEEDS_MAGIC:   # a non-Wound card sideways
        return sideways_kind(gs) >= 0 and sideways_options(pl, es, False) != 0
    return False


cdef int skills_handler(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int local, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i, v
    if local == SK_OUTSIDE_COMBAT:
        return push_eval(gs, a[0])
    if local == SK_DISCARD_WOUND_COST:            # discard a Wound from hand; then the effect
        for i in range(pl.n_hand):
            if pl.hand[i] == es.wound:
                remove_at(pl.hand, &pl.n_hand, i)
                push_card(pl.discard, &pl.n_discard, es.wound)
                return push_eval(gs, a[0])
        set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
        return RES_ERROR
    if local == SK_FORWARD_MARCH:                 # Move per Ready, unwounded unit, at most max
        v = ready_unwounded_units(pl) * a[0]
        gs.turn.move_points += v if v < a[1] else a[1]
        return RES_DONE
    if local == SK_GLITTERING_FORTUNE:            # Influence per different crystal colour
        gs.turn.influence += crystal_colours(pl) * a[0]
        return RES_DONE
    if local == SK_POWER_OF_PAIN or local == SK_I_DONT_GIVE_A_DAMN:
        # Power of Pain: a Wound played sideways as a non-Wound card, +bonus instead of +1
        # (then discarded at end of turn with the play area).  I Don't Give a Damn: a card
        # sideways +bonus instead of +1, +advanced_bonus for an AA, Spell or Artifact.
        if choice < 0:
            if sideways_kind(gs) < 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, local == SK_POWER_OF_PAIN))
        v = a[0]
        if local == SK_I_DONT_GIVE_A_DAMN:
            i = card_deck(es, pl.hand[choice])
            if i == DECK_AA or i == DECK_SPELL or i == DECK_ARTIFACT:
                v = a[1]
        play_sideways_for(gs, pl, choice, v)
        return RES_DONE
    if local == SK_WHO_NEEDS_MAGIC:
        # a card sideways +bonus instead of +1; +no_source_bonus if no Source die is used this
        # turn: offered (ASK_OPTION 1) only if none was used yet (the Mana Steal die and dice
        # taken by Mana Draw count), and then none may be used for the rest of the turn.
        # Stage 0: the card (ASK_HAND_CARD), stage 1: option 0 = +bonus, 1 = +no_source_bonus.
        if choice < 0:
            if sideways_kind(gs) < 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, False))
        if gs.turn.handler_stage == 0:
            if gs.turn.dice_used == 0 and not gs.turn.stolen_used and gs.turn.dice_kept == 0:
                gs.turn.hvars[0] = <int16_t>choice
                return ask(gs, row, 1, ASK_OPTION, 3)
            play_sideways_for(gs, pl, choice, a[0])
            return RES_DONE
        if choice == 1:
            gs.turn.no_source_dice = 1
        play_sideways_for(gs, pl, gs.turn.hvars[0], a[1] if choice == 1 else a[0])
        return RES_DONE
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR
