# Skills (rule 8): the A_USE_SKILL action and the skill rules the decision loop calls (turn
# hooks, Bonds of Loyalty, the cooperative skills' automatic parts, Dueling), included into
# ext/_engine.pyx after _fx_artifacts.pxi.  The named effect handlers of skills.toml are a
# registry module, ext/_fx_skills.pyx; this file recognises them by their entries' flags
# (HF_* of the Skills block in _engine.pxd), not by a handler code.
#
# Usage (8.2): once_per_turn (8.2.3) may be used once each turn: bit SKILL_TURN_SHIFT + slot
# of Player.skills_used, cleared at the start of the owner's turn.  once_per_round (8.2.1)
# and interactive (8.2.2) flip face down: bit `slot`, cleared at round preparation (2.2.8,
# 8.3.1).  passive skills are no action.  A skill is offered only when its effect can do
# something now (node_playable, the timing table 6.3.3), on its owner's own turn (8.2.1);
# the Motivation skills also just before it (8.3.2, 4.1.1: "during another player's turn"
# and "before your turn" are the same; PH_TURN_START is that point).
# A skill is not a card: the card bonuses (Concentration, Tirelessness, Ambush) do not apply
# to its Move, Attack or Block (skill_op).
#
# Interactive skills (8.2.2) in a game with the dummy: their owner's part is applied; the
# part that acts on other players during their turns has nobody to act on (the dummy has no
# figure, units, Fame, hand or mana: 18.1.2, 18.2.2), so it is not modelled.  Solo Conquest
# removes them (17.3.4); First Reconnaissance's solo variant keeps them.
#
# Cooperative skills (LL-7, ll_changed_cards.csv summaries) are dealt instead of the
# interactive one when The Lost Legion is on (LL-7.1, Engine._skill_in_game).  Their effect
# is cooperative(effect=owner's part, then=secondary effect): in a solo game the secondary
# effect is the owner's, on the next turn only (LL-7.3.2; Player.coop_due), when the face-down
# token may be used once more for it; it expires at the end of that turn or of the round
# (LL-7.3.3).  The owner's parts reuse the competitive skills' handlers (prayer_of_weather,
# wolfs_howl) or throw_away_wounds / reroll_source_die / mark_mana.  Two
# secondary effects trigger automatically (LL-7.3.1) instead of by using the face-down token:
# overload_bonus (Mana Overload: the first card the owner powers with the marked colour on
# the next turn, overload_arm / card_bonus) and first_combat_weaken (Wolfhawk's: at the start
# of the owner's first combat of the next turn, coop_combat_start).  The dummy plays no cards
# and fights no combats (18.1.2), so it never triggers either.

from mksim._combat cimport RES_PHYSICAL
from mksim._types cimport FIRE, COLDFIRE

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
    if (pl.skills_used >> slot) & 1 and not (pl.coop_due == 2 and pl.coop_slot == slot + 1
                                             and skill_is(es, skill, HF_COOPERATIVE)):
        return False                                          # face down (8.2.1, 8.2.2; LL-7.3.2)
    if usage == SKU_ONCE_PER_TURN and (pl.skills_used >> (SKILL_TURN_SHIFT + slot)) & 1:
        return False                                          # 8.2.3
    if gs.phase == PH_TURN_START:
        if not skill_is(es, skill, HF_MOTIVATION):
            return False                                      # 8.3.2, 4.1.1: Motivation only
    elif gs.phase != PH_MOVE and gs.phase != PH_REST and gs.phase != PH_INTERACT and not gs.combat.active:
        return False
    return interp.node_playable(gs, es, skill_entry(es, skill)[2])


cdef bint skill_is(const EngineStatics* es, int skill, int flag) noexcept nogil:
    """The skill's effect is a handler whose entry has `flag` (e.g. HF_MOTIVATION)."""
    return row_handler_has(es, skill_entry(es, skill)[2], flag)


cdef bint row_takes_wound(const EngineStatics* es, int row) noexcept nogil:
    """The skill effect plays or discards a Wound from the hand (4.3.2 can be met with it)."""
    if row_handler_has(es, row, HF_RUNS_ARG0):           # outside_combat(then)
        return row_takes_wound(es, row_args(es, row)[0])
    return row_handler_has(es, row, HF_TAKES_WOUND)


cdef bint skill_takes_wound(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """A Skill the current player may use now plays or discards a Wound from the hand (Power
    of Pain, I Feel No Pain, Invocation; 4.3.2 with a hand of only Wounds)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int k
    for k in range(MAX_SKILLS):
        if skill_usable(gs, es, gs.current, k) and row_takes_wound(es, skill_entry(es, pl.skills[k])[2]):
            return True
    return False


cdef int legal_skills(const GameState* gs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    cdef int k
    for k in range(MAX_SKILLS):
        if n < MAX_ACTIONS and skill_usable(gs, es, gs.current, k):
            out[n] = act(A_USE_SKILL, k)
            n += 1
    if source_freeze_due(gs, gs.current):                     # Source Freeze: the crystal
        for k in range(gs.n_dice):
            if source_freeze_die_ok(gs, k) and n < MAX_ACTIONS:
                out[n] = act(A_SKILL_CRYSTAL, k)
                n += 1
    return n


# -- turn hooks and the effects that last (called by the decision loop) --------------------

# Bonds of Loyalty (Norowas, passive): an extra Command token (7.2.1) for a unit recruited
# with Influence (10.6) at `discount` less (min 0); that unit may be activated where units
# normally may not (7.3.8) and cannot be disbanded (7.2.4); gaining the skill adds
# `offer_units` regular units to the Units offer.  Engine reading: only a unit recruited
# with Influence goes under the token (the discount is for that), not a reward unit.

cdef int bonds_row(const EngineStatics* es, const Player* pl) noexcept nogil:
    """The Bonds of Loyalty effect row of the player's skills, -1 = not owned."""
    cdef int k
    for k in range(MAX_SKILLS):
        if pl.skills[k] >= 0 and skill_is(es, pl.skills[k], HF_BONDS_OF_LOYALTY):
            return skill_entry(es, pl.skills[k])[2]
    return -1


cdef inline int bonds_cost(const EngineStatics* es, int row, int cost) noexcept nogil:
    cdef int c = cost - row_args(es, row)[1]
    return c if c > 0 else 0


cdef bint bonds_unit_usable(const GameState* gs, const Player* pl) noexcept nogil:
    """The unit under Bonds of Loyalty may be activated in a combat where units may not."""
    return gs.combat.active != 0 and bonds_unit_slot(pl) >= 0


cdef inline bint bonds_kind_ok(int special) noexcept nogil:
    """Units that may be recruited under the Bonds token: any but Magic Familiars (their
    upkeep mana, LL-4.5.4, has no place in the Bonds recruit action) and units whose rules
    are not known.  Thugs and Heroes keep their Reputation rules (LL-4.2); no rule keeps
    them from the Bonds token."""
    return special == SU_NONE or special == SU_THUGS or special == SU_HEROES


cdef int recruit_under_bonds(GameState* gs, const EngineStatics* es, int p, int k, int site) noexcept nogil:
    """A_RECRUIT | BONDS_RECRUIT: recruit offer slot k (10.6) under the free Bonds token at
    its discounted cost; no disbanding (it is a token of its own).  Thugs / Heroes with
    their Reputation modifier inverted / doubled (LL-4.2, recruit_rep_delta)."""
    cdef Player* pl = &gs.players[p]
    cdef int row = bonds_row(es, pl), u, cost, slot, delta
    u = gs.unit_offer[k]
    cost = bonds_cost(es, row, recruit_price(es, u, site))     # (LL-3.4.2 at a refugee camp)
    delta = recruit_rep_delta(gs, es, u)
    if delta != 0 or unit_special(es, u) == SU_THUGS or unit_special(es, u) == SU_HEROES:
        gs.turn.recruit_mode = <uint8_t>unit_special(es, u)    # LL-4.2.3: once; LL-4.2.4
    gs.turn.influence = <int16_t>(gs.turn.influence + delta - cost)
    remove_offer_slot(gs, k)
    slot = gain_unit(gs, pl, u)
    if slot < 0:
        return ERR_CAPACITY
    pl.bonds_slot = <int8_t>(slot + 1)
    gs.turn.recruited_units |= <uint8_t>(1 << slot)           # Banner of Command (LL-5.1)
    heroic_tale_recruited(gs, pl)                              # Heroic Tale (_fx_advanced)
    gs.turn.recruited = 1                                      # On Her Own
    return ERR_NONE


cdef void skill_gained(GameState* gs, const EngineStatics* es, int skill) noexcept nogil:
    """A skill was just gained (13.6.4): Bonds of Loyalty adds `offer_units` regular units
    from their deck to the Units offer."""
    cdef int k
    if skill < 0 or not skill_is(es, skill, HF_BONDS_OF_LOYALTY):
        return
    for k in range(row_args(es, skill_entry(es, skill)[2])[0]):
        if gs.n_regular_units > 0 and gs.n_unit_offer < MAX_OFFER:
            gs.n_regular_units -= 1
            gs.unit_offer[gs.n_unit_offer] = gs.regular_units[gs.n_regular_units]
            gs.n_unit_offer += 1

cdef bint source_freeze_due(const GameState* gs, int p) noexcept nogil:
    """Source Freeze: its crystal may be taken on the owner's next turn (any part of it)."""
    return gs.players[p].source_freeze == 2 and (gs.phase == PH_TURN_START or gs.phase == PH_MOVE
            or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0)


cdef bint source_freeze_die_ok(const GameState* gs, int die) noexcept nogil:
    """A die of a basic colour lying in the Source (not taken this turn)."""
    return die < gs.n_dice and not ((gs.dice_taken >> die) & 1) and gs.dice[die] < GOLD


cdef int source_freeze_crystal(GameState* gs, int p, int die) noexcept nogil:
    """A_SKILL_CRYSTAL: Source Freeze, on the owner's next turn: a crystal of the colour of a
    basic-colour die in the Source; the die stays and is not rerolled (skill text)."""
    cdef Player* pl = &gs.players[p]
    gain_crystal(pl, gs, gs.dice[die])                        # 5.3.2
    pl.source_freeze = 0                                      # 8.2.2: taken back face down
    return ERR_NONE


cdef void skills_turn_start(GameState* gs, Player* pl) noexcept nogil:
    """Start of the owner's turn: an interactive skill put out on the last turn comes back
    (8.2.2); Source Freeze's crystal may be taken during this turn.  The owner's effects
    on the other players end (interactive_turn_start: Prayer of Weather, Mana Exploit,
    Wolf's Howl; Source Freeze's freeze ends with source_freeze 1 -> 2)."""
    if gs.turn.n_mods:
        interactive_turn_start(&gs.turn, <int>(pl - &gs.players[0]))
    if pl.source_freeze == 1:
        pl.source_freeze = 2
    if pl.coop_due == 1:                                      # LL-7.3.2: due this turn only
        pl.coop_due = 2


cdef void skills_turn_end(GameState* gs, Player* pl) noexcept nogil:
    """End of the owner's turn (13.7): Source Freeze's crystal not taken is lost; one more
    turn of the Motivation lock (8.3.2 skill text: until the end of your next turn) is over."""
    if pl.source_freeze == 2:
        pl.source_freeze = 0
    if pl.coop_due == 2:
        coop_done(pl)                                         # LL-7.3.2: not used, expired
    if pl.motivation_lock > 0:
        pl.motivation_lock -= 1


cdef int coop_due_row(const GameState* gs, const EngineStatics* es, const Player* pl, int flag) noexcept nogil:
    """The secondary-effect row of the player's cooperative skill due this turn if it is a
    handler with `flag` (HF_OVERLOAD_BONUS / HF_FIRST_COMBAT_WEAKEN), else -1."""
    cdef int slot = pl.coop_slot - 1, skill, row
    if pl.coop_due != 2 or slot < 0 or slot >= MAX_SKILLS:
        return -1
    skill = pl.skills[slot]
    if skill < 0 or not skill_is(es, skill, HF_COOPERATIVE):
        return -1
    row = row_args(es, skill_entry(es, skill)[2])[1]
    if row_handler_has(es, row, flag):
        return row
    return -1


cdef void overload_arm(GameState* gs, const EngineStatics* es, int p, int card, int c1, int c2) noexcept nogil:
    """Mana Overload, secondary (LL-7.3.2 solo: the owner's next turn; automatic, LL-7.3.1):
    a Deed card powered (A_PLAY, its strong effect) with mana of the marked colour gets
    +bonus on the first Move / Influence / Attack / Block it gives (card_bonus, move_bonus),
    and the token goes back face down then.  Called after the mana is paid: pay / pay2 are
    its payment codes (pay2 < 0: none).  Mana paid inside an effect (Pure Magic) and cards
    played through another card (Concentration: another resolving card) do not trigger it.
    c1 / c2: the colours of the mana paid (-1: none), as it lies (a gold die is gold, not
    the colour it is used as: skills.toml conflicts)."""
    cdef Player* pl = &gs.players[p]
    cdef int row = coop_due_row(gs, es, pl, HF_OVERLOAD_BONUS), mark = pl.coop_mark - 1
    if row < 0 or mark < 0:
        return
    if c1 != mark and c2 != mark:
        return
    gs.turn.overload_bonus = <int8_t>row_args(es, row)[0]
    gs.turn.overload_card = <int16_t>card


cdef int overload_take(GameState* gs) noexcept nogil:
    """The armed Mana Overload bonus, for the card it was armed for; the skill is spent."""
    cdef int b = gs.turn.overload_bonus
    if b <= 0 or gs.turn.resolving_card < 0 or gs.turn.resolving_card != gs.turn.overload_card:
        return 0
    gs.turn.overload_bonus = 0
    coop_done(&gs.players[gs.current])                       # returned face down
    return b


cdef void coop_combat_start(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """Wolfhawk's cooperative skill, secondary (LL-7.3.2 solo: the owner's next turn;
    automatic, LL-7.3.1: "the first combat"): when a combat begins, its effect is resolved at
    once (the player picks the enemies: first_combat_weaken); the token goes back face down."""
    cdef Player* pl = &gs.players[gs.current]
    cdef int row = coop_due_row(gs, es, pl, HF_FIRST_COMBAT_WEAKEN), skill
    if row < 0 or gs.turn.n_eval != 0 or gs.turn.handler_row >= 0 or gs.turn.pending_choice >= 0:
        return
    skill = pl.skills[pl.coop_slot - 1]
    coop_done(pl)
    gs.turn.resolving_card = <int16_t>(SKILL_CARD_BASE - skill)
    push_eval(gs, row)
    interp.run_effects(gs, es, st, effect_context(gs, gs.current))


cdef void skills_round_end(GameState* gs) noexcept nogil:
    """8.2.2: an interactive skill comes back at the end of the round if that is first."""
    cdef int p
    for p in range(gs.n_players):
        gs.players[p].source_freeze = 0
        coop_done(&gs.players[p])                             # LL-7.3.3: not across rounds


cdef int skill_pool_bonus(GameState* gs, int op, int kind) noexcept nogil:
    """Extra points for an Attack / Block row being added to the pools (apply_op): Deadly
    Aim for an Attack card played in the phase it was used in; Leadership for the matching
    ability of the next unit activated (Block, Attack, or Ranged - not Siege - Attack)."""
    cdef int b = 0, rc = gs.turn.resolving_card, i, lk
    if gs.turn.n_mods == 0:
        return 0
    if op == OP_ATTACK and rc >= 0 and mod_has(&gs.turn, MK_ATTACK_CARD_BONUS):
        return deadly_aim_bonus(gs)
    i = mod_find(&gs.turn, MK_UNIT_ABILITY_BONUS)
    if i >= 0 and rc <= UNIT_CARD_BASE and rc > SKILL_CARD_BASE:
        lk = gs.turn.mods[i].arg
        if (op == OP_BLOCK and lk == 1) or (op == OP_ATTACK and lk == 2 and kind == MELEE) \
                or (op == OP_ATTACK and lk == 3 and kind == RANGED):
            b = gs.turn.mods[i].value
            mod_remove_at(&gs.turn, i)
    return b


cdef int deadly_aim_bonus(GameState* gs) noexcept nogil:
    """Deadly Aim (MK_ATTACK_CARD_BONUS, phase-long: it ends with the combat phase it was
    used in): the bonus for one Attack card (sideways included); then it is spent."""
    cdef int b
    if gs.turn.n_mods == 0:
        return 0
    b = mod_sum(&gs.turn, MK_ATTACK_CARD_BONUS)
    if b:
        mod_remove_kind(&gs.turn, MK_ATTACK_CARD_BONUS)
    return b


cdef void hawk_eyes_reveal(GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """Hawk Eyes by Day: garrisons of keeps, mage towers and cities up to MK_REVEAL_DISTANCE
    spaces away are revealed (instead of adjacent ones only, 9.10.1)."""
    cdef int h, pos = gs.players[p].position, site
    cdef int dist = mod_sum(&gs.turn, MK_REVEAL_DISTANCE) if gs.turn.n_mods else 0
    if dist == 0 or pos < 0 or gs.time != DAY:
        return
    for h in range(gs.n_hexes):
        site = gs.hexes[h].site
        if (site == es.sites.keep or site == es.sites.mage_tower or site == es.sites.city) \
                and gs.hexes[h].n_tokens > 0 and axial_distance(gs.hexes[pos].q, gs.hexes[pos].r,
                                                                gs.hexes[h].q, gs.hexes[h].r) <= dist:
            gs.hexes[h].flags |= HEX_TOKENS_REVEALED


cdef int use_skill(GameState* gs, const EngineStatics* es, const Statics* st, int p, int slot) noexcept nogil:
    """A_USE_SKILL: mark the token used (8.2) and resolve its effect like a card's."""
    cdef Player* pl = &gs.players[p]
    cdef int skill, usage, res
    skill = pl.skills[slot]
    usage = skill_entry(es, skill)[1]
    if usage == SKU_INTERACTIVE and gs.n_players > 1 and skill_is(es, skill, HF_COOPERATIVE):
        # a cooperative skill (LL-7) in a game of several heroes: its secondary effect on
        # the other players (LL-7.3.1) is not modelled.  The five competitive interactive
        # skills act on the others (8.2.2): their handlers (_fx_skills.pyx) and modifiers.
        set_error(gs, ERR_HEROES, HEROES_INTERACTIVE_SKILL, SKILL_CARD_BASE - skill)
        return ERR_HEROES
    if usage == SKU_ONCE_PER_TURN:
        pl.skills_used |= <uint16_t>(1 << (SKILL_TURN_SHIFT + slot))     # 8.2.3
    else:
        pl.skills_used |= <uint16_t>(1 << slot)               # 8.2.1-8.2.2: flipped face down
    gs.turn.resolving_card = <int16_t>(SKILL_CARD_BASE - skill)
    push_eval(gs, skill_entry(es, skill)[2])
    res = interp.run_effects(gs, es, st, effect_context(gs, p))
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


cdef int pay_colour(const GameState* gs, int pay) noexcept nogil:
    """The colour of the mana a payment code gives (token, crystal, die, Mana Steal die)."""
    if pay < PAY_CRYSTAL:
        return pay
    if pay < PAY_DIE:
        return pay - PAY_CRYSTAL
    if pay == PAY_STOLEN:
        return gs.players[gs.current].stolen_die
    return gs.dice[pay - PAY_DIE]


cdef bint polar_spell_blocked(const GameState* gs, int pay) noexcept nogil:
    """Polarization by Day: the token made of black mana may not pay for a Spell - a token of
    that colour may, only if there is another one."""
    return pay < PAY_CRYSTAL and gs.turn.polar_nospell == pay + 1 and gs.turn.mana_tokens[pay] <= 1 \
        and not mod_has_arg(&gs.turn, MK_ENDLESS_MANA, pay + 1)


cdef void duel_attack_add(GameState* gs, uint32_t targets, int sign) noexcept nogil:
    """Dueling: its Attack counts (physical) in an Attack-phase attack on its enemy."""
    if gs.turn.duel_attack > 0 and gs.phase == PH_COMBAT_ATTACK and gs.turn.duel_slot > 0 \
            and (targets >> (gs.turn.duel_slot - 1)) & 1:
        gs.combat.attack[<int>MELEE][<int>PHYSICAL] += sign * gs.turn.duel_attack


cdef void duel_after_commit(GameState* gs, uint32_t targets, int res) noexcept nogil:
    """After an attack or block was committed: Dueling's points aimed at its enemy are spent
    with the pool (11.4.5); a unit ability in a pool used on that enemy loses the Fame."""
    cdef bint duel = gs.turn.duel_slot > 0 and (targets >> (gs.turn.duel_slot - 1)) & 1
    if res < 0:
        duel_attack_add(gs, targets, -1)                  # nothing happened: take it back
        return
    if duel:
        if gs.phase == PH_COMBAT_ATTACK:
            gs.turn.duel_attack = 0
        else:
            gs.turn.duel_block = 0
        if gs.turn.duel_pool_units:
            gs.turn.duel_units = 1
    gs.turn.duel_pool_units = 0


cdef void duel_combat_end(GameState* gs, Player* pl) noexcept nogil:
    """Dueling: Fame if its enemy was defeated and no unit blocked or attacked it or took
    damage from it; then the duel is over."""
    cdef int s = gs.turn.duel_slot - 1
    if s >= 0 and s < gs.combat.n_enemies and (gs.combat.enemies[s].flags & CE_DEFEATED) \
            and not gs.turn.duel_units:
        pl.fame += gs.turn.duel_fame
    gs.turn.duel_slot = 0
    gs.turn.duel_attack = 0
    gs.turn.duel_block = 0
    gs.turn.duel_units = 0
    gs.turn.duel_pool_units = 0

