# The Artifact cards' rules that belong to the turn flow, included into ext/_engine.pyx: the
# Banners attached to Units (7.5: their actions, round preparation, Banner of Glory's bonus),
# the combat hooks (Soul Harvester, Shield of the Fallen Kings, Bow of Starsdawn powered),
# the Circlet's borrowed skill (A_CIRCLET_SKILL) and the Golden Grail's Fame.  The loop calls
# these directly; the Artifact handlers themselves are the registry module ext/_fx_artifacts.pyx,
# which reaches what it shares with them through ext/_engine.pxd (BannerFx, soul_process,
# circlet_use, circlet_skill_now, remove_commanded_unit).

from mksim._combat cimport RES_PHYSICAL


# ---------------------------------------------------------------------------------------
# Banners (7.5).  Playing a Banner for its basic effect assigns it to a Unit (7.5.1): the card
# leaves the play area for Unit.banner, and Player.banner_fx[slot] records what it does
# there (BF_* bits, ext/_engine.pxd; the numbers come from the card's handler arguments).  A
# Banner replaced by another, or on a Unit destroyed / disbanded, goes to the discard pile
# (7.5.2: here, disband() in _engine_units.pxi and Paralyze in _combat.assign_to_unit).  Round
# preparation flips every Banner back up and lets the player take Banners back into the
# Deed deck before it is shuffled (2.2.8, 7.5.3: banner_prep, A_BANNER_RETURN).
# ---------------------------------------------------------------------------------------

# the Banner action kinds (A_BANNER_COURAGE ...): mksim/actions.py, via ext/_engine.pxd


cdef enum:
    BANNER_KEEP = 7


cdef inline const int32_t* banner_args(const EngineStatics* es, int card) noexcept nogil:
    """Arguments of the handler of a Banner card's basic effect (its attached effect)."""
    return row_args(es, es.card_basic[card * es.card_stride])


cdef inline int banner_fx_of(const Player* pl, int slot) noexcept nogil:
    return pl.banner_fx[slot] if pl.units[slot].card >= 0 and pl.units[slot].banner >= 0 else 0


cdef int unit_banner_bonus(GameState* gs, const EngineStatics* es, Player* pl) noexcept nogil:
    """Banner of Glory on the Unit whose ability resolves: + bonus to its Attack / Block and
    Fame + fame whenever it attacks or blocks (card text); Banner of Glory powered: every
    Unit + bonus, Fame + fame once for each Unit that attacks or blocks this turn.  Called
    by apply_op for each attack / block row (a Unit ability holds at most one)."""
    cdef int slot, b = 0, g
    cdef const int32_t* a
    if gs.turn.resolving_card > UNIT_CARD_BASE or not gs.combat.active:
        return 0
    slot = (UNIT_CARD_BASE - gs.turn.resolving_card) & 7
    if slot >= MAX_UNITS_:
        return 0
    if banner_fx_of(pl, slot) & BF_GLORY:
        a = banner_args(es, pl.units[slot].banner)
        b += a[1]
        pl.fame += a[2]
    if gs.turn.n_mods:                              # the powered Banner's MK_UNIT_GLORY parts
        g = mod_sum_arg(&gs.turn, MK_UNIT_GLORY, 2)
        if g:
            b += g
            if not ((gs.turn.glory_units >> slot) & 1):
                gs.turn.glory_units |= <uint8_t>(1 << slot)
                pl.fame += mod_sum_arg(&gs.turn, MK_UNIT_GLORY, 3)
    return b


cdef bint banners_attached(const Player* pl) noexcept nogil:
    cdef int i
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0 and pl.units[i].banner >= 0:
            return True
    return False


cdef int play_area_index(const Player* pl, int card) noexcept nogil:
    cdef int i
    for i in range(pl.n_play - 1, -1, -1):
        if pl.play_area[i] == card:
            return i
    return -1


cdef bint command_banner_ready(const GameState* gs) noexcept nogil:
    """The Banner of Command played this turn is still in the play area (LL-5.1)."""
    return gs.turn.command_card > 0 \
        and play_area_index(&gs.players[gs.current], gs.turn.command_card - 1) >= 0


cdef void remove_commanded_unit(Player* pl, int slot) noexcept nogil:
    """LL-5.1: a Unit that loses the Banner of Command is removed from the game (the
    Banner itself goes where the caller puts it)."""
    cdef Unit* u = &pl.units[slot]
    u.card = -1
    u.banner = -1
    u.ready = 0
    u.wounds = 0
    u.damaged_this_combat = 0
    pl.banner_fx[slot] = 0


cdef void attach_command_banner(GameState* gs, Player* pl, int slot) noexcept nogil:
    """Banner of Command from the play area to the Unit (instead of its Command token)."""
    cdef int card = gs.turn.command_card - 1
    cdef int i = play_area_index(pl, card)
    cdef Unit* u = &pl.units[slot]
    if i < 0:
        return
    remove_at(pl.play_area, &pl.n_play, i)
    if u.banner >= 0:
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, u.banner)  # 7.5.2
    u.banner = <int16_t>card
    pl.banner_fx[slot] = BF_COMMAND
    pl.banner_flipped &= <uint8_t>~(1 << slot)
    gs.turn.command_card = 0


cdef bint fear_target_ok(const GameState* gs, const Statics* st, int s, int k) noexcept nogil:
    """Banner of Fear: a live attack of an enemy that effects may act on (not Arcane Immune,
    LL-6.7.1; a summoner replaced by its monster does not attack, 11.6.2)."""
    return attack_is_live(gs, st, s, k) and enemy_effect_ok(gs, st, s, -1)


cdef int legal_banner_actions(const GameState* gs, const EngineStatics* es, const Statics* st,
                              int32_t* out, int n) noexcept nogil:
    """Banner abilities of the Units (7.5.1): Courage, Fear, Fortitude."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef const Unit* u
    cdef int i, s, k, fx
    if command_banner_ready(gs):                              # Banner of Command (LL-5.1)
        for i in range(MAX_UNITS_):
            if (gs.turn.recruited_units >> i) & 1 and pl.units[i].card >= 0 and n < MAX_ACTIONS \
                    and not (pl.units[i].banner >= 0 and pl.banner_fx[i] & BF_COMMAND):   # one Banner a Unit
                out[n] = act(A_BANNER_COMMAND, i)
                n += 1
    for i in range(MAX_UNITS_):
        fx = banner_fx_of(pl, i)
        if fx == 0:
            continue
        u = &pl.units[i]
        # Banner of Courage: once a round, except during combat, flip it to ready the Unit
        # (FAQ: a wounded Unit too); offered only when the Unit is Spent.
        if fx & BF_COURAGE and not gs.combat.active and not u.ready \
                and not ((pl.banner_flipped >> i) & 1) \
                and (gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT) and n < MAX_ACTIONS:
            out[n] = act(A_BANNER_COURAGE, i)
            n += 1
        # Banner of Fear: in the Block phase spend the (Ready, unwounded, 7.3.7) Unit to
        # cancel one enemy attack; not where Units may not be used (7.3.8).
        if fx & BF_FEAR and gs.combat.active and gs.phase == PH_COMBAT_BLOCK and gs.combat.units_allowed \
                and u.ready and u.wounds == 0:
            for s in range(gs.combat.n_enemies):
                for k in range(enemy_n_attacks(gs, st, s)):
                    if fear_target_ok(gs, st, s, k) and n < MAX_ACTIONS:
                        out[n] = act(A_BANNER_FEAR, i | (s << 3) | (k << 8))
                        n += 1
        # Banner of Fortitude: once a round, the Unit takes its damage without the wound.
        if fx & BF_FORTITUDE and gs.combat.active and gs.phase == PH_COMBAT_DAMAGE \
                and gs.combat.dmg_slot >= 0 and not mod_has(&gs.turn, MK_NO_UNIT_DAMAGE) \
                and not ((pl.banner_flipped >> i) & 1) and unit_can_take_damage(gs, es, st, i) and n < MAX_ACTIONS:
            out[n] = act(A_DAMAGE_FORTITUDE, i)
            n += 1
    return n


cdef int legal_banner_prep(const GameState* gs, int32_t* out, int n) noexcept nogil:
    """2.2.8 / 7.5.3: take a Banner back (it is shuffled into the Deed deck) or keep all."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0 and pl.units[i].banner >= 0:
            out[n] = act(A_BANNER_RETURN, i)
            n += 1
    out[n] = act(A_BANNER_RETURN, BANNER_KEEP)
    return n + 1


cdef int apply_banner_action(GameState* gs, const EngineStatics* es, const Statics* st, int p,
                             int kind, int arg) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef int slot = arg & 7, s = (arg >> 3) & 0x1F, k = (arg >> 8) & 3, fx, res, was
    cdef CombatEnemy* e
    cdef Unit* u
    if kind == A_BANNER_RETURN:
        if slot == BANNER_KEEP:
            pl.banner_prep = 0                                   # 2.2.8: shuffle and draw now
            shuffle_all_deeds(gs, pl)
            draw_cards(gs, pl, hand_limit(gs, st, p))
            return ERR_NONE
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, pl.units[slot].banner)   # shuffled in with the rest
        if pl.banner_fx[slot] & BF_COMMAND:
            remove_commanded_unit(pl, slot)                      # LL-5.1
        pl.units[slot].banner = -1
        pl.banner_fx[slot] = 0
        return ERR_NONE
    u = &pl.units[slot]
    if kind == A_BANNER_COMMAND:                                 # LL-5.1
        if u.banner >= 0 and pl.banner_fx[slot] & BF_COMMAND:   # legal_banner_actions excludes it
            set_error(gs, ERR_INTERNAL, INTERNAL_BANNER, -1)
            return ERR_INTERNAL
        attach_command_banner(gs, pl, slot)
        return ERR_NONE
    fx = banner_fx_of(pl, slot)
    if kind == A_BANNER_COURAGE:                                 # Banner of Courage
        pl.banner_flipped |= <uint8_t>(1 << slot)
        u.ready = 1                                              # 7.3.4
        return ERR_NONE
    if kind == A_BANNER_FEAR:                                    # Banner of Fear
        u.ready = 0                                              # spent (7.3.2)
        e = &gs.combat.enemies[s]
        if enemy_n_attacks(gs, st, s) == 1:
            e.flags |= CE_NO_ATTACK                              # its only attack is cancelled
        else:
            e.damaged |= <uint8_t>(1 << k)                       # LL-6.1.2: that attack only (not blocked)
        pl.fame += banner_args(es, u.banner)[0]
        return ERR_NONE
    if kind == A_DAMAGE_FORTITUDE:                               # Banner of Fortitude, LL-5.2
        gs.turn.fortitude_unit = <int8_t>(slot + 1)
        was = gs.combat.dmg_slot
        res = damage_to_unit(gs, st, slot)
        if gs.turn.fortitude_unit == 0:                          # the wound was ignored: flipped
            pl.banner_flipped |= <uint8_t>(1 << slot)
        gs.turn.fortitude_unit = 0
        if res >= 0:
            damage_assigned(gs, es, st, p, was)                  # 11.7
        return ERR_NONE if res >= 0 else combat_step_failed(gs)
    set_error(gs, ERR_INTERNAL, INTERNAL_NO_APPLY, -1)           # a Banner kind without a branch
    return ERR_INTERNAL


cdef void protection_end_of_turn(GameState* gs, const EngineStatics* es, Player* pl) noexcept nogil:
    """Banner of Protection powered: at the end of the turn the Wounds received this turn
    (into the hand, 12.1.1, or the discard pile, Poison 11.7.9) are thrown away (6.5.2)."""
    cdef int i, h = gs.turn.wounds_to_hand, d = gs.turn.wounds_to_discard
    if not mod_remove_kind(&gs.turn, MK_PROTECTION):
        return
    for i in range(pl.n_hand - 1, -1, -1):
        if h <= 0:
            break
        if pl.hand[i] == es.wound:
            remove_at(pl.hand, &pl.n_hand, i)
            h -= 1
    for i in range(pl.n_discard - 1, -1, -1):
        if d <= 0:
            break
        if pl.discard[i] == es.wound:
            remove_at(pl.discard, &pl.n_discard, i)
            d -= 1


# ---------------------------------------------------------------------------------------
# Combat artifacts: Soul Harvester, Shield of the Fallen Kings, Bow of Starsdawn powered
# (Sword of Justice powered is read by _combat.attack_value through its MK_SWORD_DOUBLE modifier)
# ---------------------------------------------------------------------------------------


cdef enum:                     # A_BOW_CHANGE (mksim/actions.py): arg mode | element << 2, modes:
    BOW_DOUBLE = 0             # the Ranged points not yet changed are doubled
    BOW_TO_SIEGE = 1           # ... become Siege points of the same element
    BOW_SIEGE_DOUBLE = 2       # Siege points not made by the Bow are doubled and become Ranged


cdef int soul_colours(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Soul Harvester: red for a fire-resistant enemy, blue ice, green physical (the
    player's pick when it has several), white for none (card text)."""
    cdef int res = st.enemies.data[gs.combat.enemies[slot].enemy * st.enemies.width + st.cols.enemy_resistances]
    cdef int o = 0
    if res & RES_FIRE:
        o |= 1 << RED
    if res & RES_ICE:
        o |= 1 << BLUE
    if res & RES_PHYSICAL:
        o |= 1 << GREEN
    return o if o != 0 else 1 << WHITE


cdef inline int single_colour(int opts) noexcept nogil:
    """The colour when `opts` has exactly one bit, else -1."""
    cdef int c
    if opts == 0 or (opts & (opts - 1)) != 0:
        return -1
    for c in range(NUM_COLOURS):
        if opts == (1 << c):
            return c
    return -1


cdef int soul_process(GameState* gs, const Statics* st, Player* pl) noexcept nogil:
    """Crystals for the enemies in soul_slots, asking the colour where there is a choice."""
    cdef int s, opts, c
    while gs.turn.soul_slots:
        for s in range(32):
            if (gs.turn.soul_slots >> s) & 1:
                break
        opts = soul_colours(gs, st, s)
        c = single_colour(opts)
        if c < 0 and gs.turn.soul_row > 0:
            gs.turn.hvars[0] = <int16_t>s
            return ask(gs, gs.turn.soul_row - 1, 1, ASK_COLOUR, <uint64_t>opts)
        gs.turn.soul_slots &= ~((<uint32_t>1) << s)
        gain_crystal(pl, gs, c if c >= 0 else WHITE)         # 5.3.2
    return RES_DONE


cdef void artifacts_after_attack(GameState* gs, const EngineStatics* es, const Statics* st, int p,
                                 uint32_t newly) noexcept nogil:
    """After an attack was committed (A_COMMIT_ATTACK; the pools are empty now): Soul
    Harvester's crystal for one enemy that attack defeated, its powered crystals for the
    enemies defeated in the phase, and the Bow's record of changed points is spent."""
    cdef Player* pl = &gs.players[p]
    cdef int opts = 0, s, c
    for s in range(4):
        gs.turn.bow_done_r[s] = 0
        gs.turn.bow_done_s[s] = 0
    if gs.turn.soul_all:
        gs.turn.soul_slots |= newly
    if gs.turn.soul_one > 0:
        gs.turn.soul_one = 0
        for s in range(gs.combat.n_enemies):
            if (newly >> s) & 1:
                opts |= soul_colours(gs, st, s)
        c = single_colour(opts)
        if opts != 0 and c < 0 and gs.turn.soul_row > 0:
            gs.turn.hvars[0] = -1                            # the enemy (its colour) is picked
            ask(gs, gs.turn.soul_row - 1, 1, ASK_COLOUR, <uint64_t>opts)
            return
        if c >= 0:
            gain_crystal(pl, gs, c)
    soul_process(gs, st, pl)


cdef void artifacts_after_block(GameState* gs) noexcept nogil:
    """Shield of the Fallen Kings: after a successful block the next separate Block of the
    split joins the (now empty) pool, to be used against a different attack."""
    if gs.turn.split_left > 0:
        gs.turn.split_left -= 1
        gs.combat.block[gs.turn.split_el] += gs.turn.split_n


cdef void artifacts_phase_end(GameState* gs) noexcept nogil:
    """A_NEXT_PHASE: unused Block / Attack points are lost (11.4.5), and with them the split
    Blocks still to come and Soul Harvester's pending crystal; the powered Soul Harvester
    counts this phase only."""
    cdef int s
    gs.turn.split_left = 0
    gs.turn.soul_one = 0
    gs.turn.soul_all = 0
    for s in range(4):
        gs.turn.bow_done_r[s] = 0
        gs.turn.bow_done_s[s] = 0


cdef int legal_bow_changes(const GameState* gs, int32_t* out, int n) noexcept nogil:
    cdef int el
    if gs.turn.n_mods == 0 or not gs.combat.active \
            or (gs.phase != PH_COMBAT_RANGED and gs.phase != PH_COMBAT_ATTACK) \
            or not mod_has(&gs.turn, MK_BOW_POWERED):
        return n
    for el in range(4):
        if gs.combat.attack[<int>RANGED][el] > gs.turn.bow_done_r[el] and n + 1 < MAX_ACTIONS:
            out[n] = act(A_BOW_CHANGE, BOW_DOUBLE | (el << 2))
            out[n + 1] = act(A_BOW_CHANGE, BOW_TO_SIEGE | (el << 2))
            n += 2
        if gs.combat.attack[<int>SIEGE][el] > gs.turn.bow_done_s[el] and n < MAX_ACTIONS:
            out[n] = act(A_BOW_CHANGE, BOW_SIEGE_DOUBLE | (el << 2))
            n += 1
    return n


cdef int apply_bow_change(GameState* gs, int arg) noexcept nogil:
    """Bow of Starsdawn powered: each Ranged Attack this turn is doubled or becomes a Siege
    Attack of the same element; a Siege Attack may be doubled but becomes Ranged.  Points
    the Bow already changed are not changed again (bow_done_*)."""
    cdef int mode = arg & 3, el = (arg >> 2) & 3, x
    cdef int times = mod_sum(&gs.turn, MK_BOW_POWERED)          # the Bow's multiplier (x2)
    if mode == BOW_DOUBLE or mode == BOW_TO_SIEGE:
        x = gs.combat.attack[<int>RANGED][el] - gs.turn.bow_done_r[el]
        if mode == BOW_DOUBLE:
            gs.combat.attack[<int>RANGED][el] += x * (times - 1)
            gs.turn.bow_done_r[el] = gs.combat.attack[<int>RANGED][el]
        else:
            gs.combat.attack[<int>RANGED][el] -= x
            gs.combat.attack[<int>SIEGE][el] += x
            gs.turn.bow_done_s[el] += x
        return ERR_NONE
    if mode == BOW_SIEGE_DOUBLE:
        x = gs.combat.attack[<int>SIEGE][el] - gs.turn.bow_done_s[el]
        gs.combat.attack[<int>SIEGE][el] -= x
        gs.combat.attack[<int>RANGED][el] += x * times
        gs.turn.bow_done_r[el] += x * times
        return ERR_NONE
    set_error(gs, ERR_INTERNAL, INTERNAL_NO_APPLY, -1)           # a Bow mode legal_bow_changes never lists
    return ERR_INTERNAL


# ---------------------------------------------------------------------------------------
# Circlet of Proficiency: a skill of the common Skill offer (1.2.7) used this turn, or taken
# ---------------------------------------------------------------------------------------

# A_CIRCLET_SKILL (mksim/actions.py): use the Circlet's borrowed skill again this turn (arg 0)


cdef bint circlet_skill_now(const GameState* gs, const EngineStatics* es, int skill) noexcept nogil:
    """A non-interactive, non-passive skill whose effect can do something now (8.2, 6.3.3).
    Passive skills are not offered: the engine reads them from Player.skills only."""
    cdef const int32_t* e
    if skill < 0 or skill >= es.n_skills:
        return False
    e = skill_entry(es, skill)
    if e[1] == SKU_INTERACTIVE or e[1] == SKU_PASSIVE:
        return False
    if gs.phase != PH_MOVE and gs.phase != PH_REST and gs.phase != PH_INTERACT and not gs.combat.active:
        return False
    return interp.node_playable(gs, es, e[2])


cdef int circlet_use(GameState* gs, const EngineStatics* es, int skill) noexcept nogil:
    """One use of the borrowed skill: its effect resolves like the owner's (use_skill)."""
    gs.turn.circlet_uses -= 1
    gs.turn.resolving_card = <int16_t>(SKILL_CARD_BASE - skill)
    return push_eval(gs, skill_entry(es, skill)[2])


cdef int legal_circlet(const GameState* gs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    if gs.turn.circlet_skill > 0 and gs.turn.circlet_uses > 0 and n < MAX_ACTIONS \
            and circlet_skill_now(gs, es, gs.turn.circlet_skill - 1):
        out[n] = act(A_CIRCLET_SKILL, 0)
        n += 1
    return n


cdef int apply_circlet_skill(GameState* gs, const EngineStatics* es, const Statics* st, int p) noexcept nogil:
    cdef int res
    circlet_use(gs, es, gs.turn.circlet_skill - 1)
    res = interp.run_effects(gs, es, st, effect_context(gs, p))
    return gs.error if res == RES_ERROR else ERR_NONE


cdef void grail_spent(GameState* gs, Player* pl, int points) noexcept nogil:
    """Golden Grail: Fame +1 for each of its Healing points spent (golden_grail_heal)."""
    cdef int k = points if points < gs.turn.grail_fame else gs.turn.grail_fame
    if k > 0:
        pl.fame += k
        gs.turn.grail_fame = <int8_t>(gs.turn.grail_fame - k)


def set_skill_offer(Engine eng, skills):
    """Test surface: lay out the common Skill offer (1.2.7) as the given skill ids."""
    cdef GameState* gs = &eng.core.gs
    eng.core.version += 1                # the Engine's cached legal list is stale
    ids = eng.tables.skill_ids
    if len(skills) > 24:
        raise ValueError("offer too long")
    for i, s in enumerate(skills):
        gs.skill_offer[i] = ids.index(s)
    gs.n_skill_offer = len(skills)


