# The Advanced Action rules the decision loop and the other groups call (the plain enemy
# operations enemy_armor / enemy_no_attack, Ambush, Agility, Steady Tempo, the block
# extras, Diplomacy / Learning / Peaceful Moment actions, Chivalry, Dodge and Weave,
# lift_self), included into ext/_engine.pyx.  The named effect handlers of the Advanced
# Action cards (and the spells sharing them) are a registry module, ext/_fx_advanced.pyx.

from mksim._types cimport PH_INTERACT, CE_BLOCKED, CE_GONE, CE_NO_ATTACK, ICE, FIRE, RANGED, PHYSICAL, HILLS, MOUNTAIN
from mksim._combat cimport (enemy_ability, block_value, block_needed, AB_SWIFT, AB_SUMMON, attack_element,
                            AB_ARCANE_IMMUNITY, RES_FIRE, RES_ICE, hero_take_wounds)

cdef int resolving_colour(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Colour of the effect that resolves (11.4.2): a borrowed Spell's own colour (Tome of
    All Spells, LL-9.6.3, LL-9.7.22), the mana colour that activated a Unit's ability, else
    the card's; -1 = none / not a card."""
    if gs.turn.fx_colour != 0 and gs.turn.resolving_card == gs.turn.fx_colour_by:
        return gs.turn.fx_colour - 1
    if gs.turn.resolving_card < 0:
        return -1
    return card_colour(es, gs.turn.resolving_card)


# ---------------------------------------------------------------------------------------
# Effects on enemies (11.4.2-11.4.4, 11.9, LL-6.7)
# ---------------------------------------------------------------------------------------

cdef bint enemy_effect_ok(const GameState* gs, const Statics* st, int slot, int colour) noexcept nogil:
    """May a non-Attack/non-Block effect of a card of `colour` act on the enemy in `slot` now?
    - the enemy takes part in the combat now: not defeated / discarded; a summoned monster
      only while it replaces its summoner, and the summoner not then (11.6.2 [R]);
    - LL-6.7.1: Arcane Immunity ignores every such effect (Armor, "does not attack");
    - 11.4.2: a red card has no effect but its Attack/Block on a Fire-resistant enemy, a
      blue card none on an Ice-resistant one (11.9 resistances)."""
    cdef const CombatEnemy* e
    cdef int s, res
    if not gs.combat.active or slot < 0 or slot >= gs.combat.n_enemies:
        return False
    e = &gs.combat.enemies[slot]
    if e.token < 0 or e.flags & (CE_DEFEATED | CE_GONE):
        return False
    if gs.phase == PH_COMBAT_BLOCK or gs.phase == PH_COMBAT_DAMAGE:
        if enemy_ability(gs, st, slot, AB_SUMMON):
            for s in range(gs.combat.n_enemies):
                if gs.combat.enemies[s].summoned_by == slot and not (gs.combat.enemies[s].flags & (CE_GONE | CE_DEFEATED)):
                    return False                           # replaced by its monster (11.6.2)
    elif e.summoned_by >= 0:
        return False
    if enemy_ability(gs, st, slot, AB_ARCANE_IMMUNITY):
        return False                                       # LL-6.7.1
    res = st.enemies.data[e.enemy * st.enemies.width + st.cols.enemy_resistances] & ~(<int>e.lost_resistances) & ~(<int>e.res_lost)
    if colour == RED and res & RES_FIRE:
        return False                                       # 11.4.2
    if colour == BLUE and res & RES_ICE:
        return False
    return True


cdef uint64_t enemy_effect_targets(const GameState* gs, const Statics* st, int colour) noexcept nogil:
    cdef uint64_t o = 0
    cdef int s
    for s in range(gs.combat.n_enemies):
        if enemy_effect_ok(gs, st, s, colour):
            o |= (<uint64_t>1) << s
    return o


cdef bint enemy_op_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    """enemy_armor / enemy_no_attack: in any combat phase (11.4.4) with an enemy it can act
    on, judged with the colour of the effect being checked (card_playable_mode /
    ability_playable set the resolving card and colour): a red effect has no Fire-resistant
    target, a blue one no Ice-resistant target (11.4.2), none acts on Arcane Immunity
    (LL-6.7.1) - the same targets enemy_op_apply uses."""
    if not gs.combat.active:
        return False
    return enemy_effect_targets(gs, es.st, resolving_colour(gs, es)) != 0


cdef void enemy_op_one(GameState* gs, const Statics* st, const int32_t* r, int slot) noexcept nogil:
    cdef CombatEnemy* e = &gs.combat.enemies[slot]
    cdef int d, base
    if r[0] == OP_ENEMY_ARMOR:
        d = e.armor_delta + r[1]                 # enemy_armor() keeps the result at least 1
        if r[1] < 0 and r[3] > 1:
            # "Armor -n (to a minimum of f)": the reduction stops at f.  Engine reading: f is
            # measured on the printed Armor (the lower value of an Elusive enemy, LL-6.3)
            # plus the changes already made; an Armor already below f is not raised.
            base = st.enemies.data[e.enemy * st.enemies.width + st.cols.enemy_armor]
            if base + d < r[3]:
                d = r[3] - base
                if d > e.armor_delta:
                    d = e.armor_delta
        if d < -100:
            d = -100
        if d > 100:
            d = 100
        e.armor_delta = <int8_t>d
    else:
        e.flags |= CE_NO_ATTACK                  # "does not attack this combat" (LL-6.1.4)


cdef int enemy_op_apply(GameState* gs, const EngineStatics* es, const Statics* st, int p,
                        int row, int choice) noexcept nogil:
    """enemy_armor(delta, target, floor) / enemy_no_attack(target).  target=one: the player
    picks one enemy the effect can act on (ASK_ENEMY; only one: no question); target=all:
    every such enemy of the combat.  Enemies it cannot act on (Arcane Immunity LL-6.7,
    resistance 11.4.2) are not affected; with none at all the effect is lost."""
    cdef const int32_t* r = erow(es, row)
    cdef int colour = resolving_colour(gs, es), s, n = 0, last = -1, target
    cdef uint64_t options
    if r[0] == OP_ENEMY_ARMOR and r[3] < 1:
        set_error(gs, ERR_ENEMY_EFFECT, r[0], gs.turn.resolving_card)   # Armor 0: _combat keeps >= 1
        return RES_ERROR
    if choice >= 0:
        enemy_op_one(gs, st, r, choice)
        return RES_DONE
    options = enemy_effect_targets(gs, st, colour)
    target = r[2] if r[0] == OP_ENEMY_ARMOR else r[1]
    for s in range(gs.combat.n_enemies):
        if (options >> s) & 1:
            n += 1
            last = s
            if target == 1:                       # "all"
                enemy_op_one(gs, st, r, s)
    if target == 1 or n == 0:
        return RES_DONE
    if n == 1:
        enemy_op_one(gs, st, r, last)
        return RES_DONE
    return ask(gs, row, 0, ASK_ENEMY, options)


# ---------------------------------------------------------------------------------------
# Hooks called by the decision loop
# ---------------------------------------------------------------------------------------

cdef int ambush_bonus(GameState* gs, int block) noexcept nogil:
    """Ambush: +attack to the first Attack card or +block to the first Block card played
    this turn, whichever comes first (then the bonus is spent)."""
    cdef int b
    if gs.turn.n_mods == 0 or not mod_has(&gs.turn, MK_FIRST_ATTACK_BLOCK):
        return 0
    b = mod_sum_arg(&gs.turn, MK_FIRST_ATTACK_BLOCK, 2 if block else 1)   # MK_FIRST_ATTACK_BLOCK, turn-long
    mod_remove_kind(&gs.turn, MK_FIRST_ATTACK_BLOCK)
    return b


cdef void return_spent_crystals(GameState* gs, int p) noexcept nogil:
    """Crystal Mastery powered: crystals spent this turn return to the Inventory at the end
    of the turn (engine reading: all spent this turn, also before the card; at most 3 of a
    colour, 5.1.3)."""
    cdef Player* pl = &gs.players[p]
    cdef int c, v
    if not mod_remove_kind(&gs.turn, MK_CRYSTAL_RETURN):
        return
    for c in range(4):
        v = pl.crystals[c] + gs.turn.crystals_spent[c]
        pl.crystals[c] = <int8_t>(v if v < MAX_CRYSTALS else MAX_CRYSTALS)
        gs.turn.crystals_spent[c] = 0


cdef bint agility_move_usable(const GameState* gs) noexcept nogil:
    """Move points are worth something in combat only through Agility's conversion
    (LL-9.7.2-9.7.3): in the Ranged and Siege phase into Ranged Attack (strong effect), in the
    Attack phase into Attack or Ranged Attack.  Move played in any earlier phase of the
    combat (Ranged, Block, Damage) stays in the pool until the Attack phase (LL-9.3.5; the LL
    card: "during combat this turn you may spend Move points"; LL-9.7.2: the remaining Move
    "may be used later in the combat ... as Attack 2 in the Attack phase"), so it has a use
    in every phase of the combat once a conversion is active."""
    if not gs.combat.active:
        return False
    return (gs.turn.agility_melee > 0 or gs.turn.agility_ranged > 0) \
        and (gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_BLOCK
             or gs.phase == PH_COMBAT_DAMAGE or gs.phase == PH_COMBAT_ATTACK)


cdef int legal_convert_move(const GameState* gs, int32_t* out, int n) noexcept nogil:
    if gs.turn.agility_melee > 0 and gs.phase == PH_COMBAT_ATTACK \
            and gs.turn.move_points >= gs.turn.agility_melee and n < MAX_ACTIONS:
        out[n] = act(A_CONVERT_MOVE, 0)
        n += 1
    if gs.turn.agility_ranged > 0 and (gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK) \
            and gs.turn.move_points >= gs.turn.agility_ranged and n < MAX_ACTIONS:
        out[n] = act(A_CONVERT_MOVE, 1)
        n += 1
    return n


cdef int apply_convert_move(GameState* gs, int arg) noexcept nogil:
    """Agility: move_per_attack Move -> Attack 1 (Attack phase), move_per_ranged Move ->
    Ranged Attack 1 (Ranged and Siege or Attack phase); physical (LL-9.7.2)."""
    cdef int cost
    if arg == 0:
        cost = gs.turn.agility_melee
    else:
        cost = gs.turn.agility_ranged
    gs.turn.move_points -= cost
    gs.combat.attack[<int>(MELEE if arg == 0 else RANGED)][<int>PHYSICAL] += 1
    return ERR_NONE


cdef void heroic_tale_recruited(GameState* gs, Player* pl) noexcept nogil:
    """Heroic Tale: Reputation (10.4) and Fame for a Unit just recruited (10.6).  Engine
    reading: Units recruited after the card is played (its effect starts then)."""
    cdef int rep
    if gs.turn.n_mods == 0:
        return
    rep = mod_sum_arg(&gs.turn, MK_PER_RECRUIT, 1)                 # MK_PER_RECRUIT, turn-long
    if rep:
        change_reputation(pl, rep)
    pl.fame += mod_sum_arg(&gs.turn, MK_PER_RECRUIT, 2)


cdef bint steady_tempo_ok(const GameState* gs) noexcept nogil:
    """Steady Tempo may go back now: end of turn, before the draw (13.3 put it in the discard
    pile; 13.7.2 draws after), and for the basic effect the Deed deck is not empty."""
    cdef const Player* pl = &gs.players[gs.current]
    if gs.turn.steady_tempo == 0 or gs.phase != PH_END_TURN or gs.turn.end_stage != END_DISCARD:
        return False
    if gs.turn.steady_tempo == 1 and pl.n_deck == 0:
        return False
    return crystal_joy_in_discard(pl, gs.turn.steady_tempo_card)


cdef int legal_steady_tempo(const GameState* gs, int32_t* out, int n) noexcept nogil:
    if steady_tempo_ok(gs) and n < MAX_ACTIONS:
        out[n] = act(A_STEADY_TEMPO, 0)
        n += 1
    return n


cdef int apply_steady_tempo(GameState* gs, int p) noexcept nogil:
    """A_STEADY_TEMPO: the card leaves the discard pile for the bottom (basic) or the top
    (powered) of the Deed deck (deck[n_deck-1] is the top, 13.7.2)."""
    cdef Player* pl = &gs.players[p]
    cdef int i, k
    if pl.n_deck >= MAX_DECK_CARDS:                              # a full Deed deck: stop, never lose the card
        set_error(gs, ERR_CAPACITY, 9, gs.turn.steady_tempo_card)
        return ERR_CAPACITY
    for i in range(pl.n_discard - 1, -1, -1):
        if pl.discard[i] == gs.turn.steady_tempo_card:
            remove_at(pl.discard, &pl.n_discard, i)
            break
    if gs.turn.steady_tempo == 2:
        pl.deck[pl.n_deck] = gs.turn.steady_tempo_card
    else:
        for k in range(pl.n_deck, 0, -1):
            pl.deck[k] = pl.deck[k - 1]
        pl.deck[0] = gs.turn.steady_tempo_card
    pl.n_deck += 1
    if gs.turn.steady_tempo == 2:
        deck_gained_top(pl)
    else:
        deck_gained_bottom(pl)
    gs.turn.steady_tempo = 0
    gs.turn.steady_tempo_card = -1
    return ERR_NONE


cdef int enemy_icons(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """Icons on an enemy token for Cold Toughness (LL-2.10.8): its abilities (Arcane Immunity
    among them: the base printing counts it as one more), resistances and the colour of the
    blocked attack if not physical (Cold Fire is two colours, red and blue: 2)."""
    cdef int e = gs.combat.enemies[slot].enemy
    cdef uint32_t ab, rs
    cdef int n = 0, el
    ab = <uint32_t>st.enemies.data[e * st.enemies.width + st.cols.enemy_abilities]
    rs = <uint32_t>st.enemies.data[e * st.enemies.width + st.cols.enemy_resistances]
    while ab:
        n += ab & 1
        ab >>= 1
    while rs:
        n += rs & 1
        rs >>= 1
    el = attack_element(gs, st, slot, attack_index)
    if el == COLDFIRE:
        n += 2
    elif el != 0:
        n += 1
    return n


cdef void add_block_extras(GameState* gs, const Statics* st, int slot, int attack_index, int sign) noexcept nogil:
    """Block points that depend on the enemy blocked, from the Block pool's modifiers
    (MS_BLOCK): Swift-double points (MK_SWIFT_BLOCK: Shield Bash, LL-2.10.10, 11.6.5), a
    Swiftness lost (MK_SWIFT_STRIP) and Cold Toughness's Ice Block per icon (MK_ICON_BLOCK,
    LL-2.10.8: none under Arcane Immunity but for the base printing's entries, arg 2).  A
    pool with none of them costs one test of the live-kinds mask."""
    cdef const TurnState* t = &gs.turn
    cdef int el, per
    cdef bint strip
    if t.mod_live & (((<uint64_t>1) << MK_SWIFT_STRIP) | ((<uint64_t>1) << MK_SWIFT_BLOCK)) \
            and enemy_ability(gs, st, slot, AB_SWIFT):
        strip = mod_has(t, MK_SWIFT_STRIP)
        for el in range(4):
            if sign < 0 and strip:
                gs.combat.block[el] = <int16_t>(gs.combat.block[el] // 2)
            gs.combat.block[el] += sign * mod_sum_arg(t, MK_SWIFT_BLOCK, el + 1)
            if sign > 0 and strip:
                # base Utem Guardsmen / Altem Guardians: the enemy blocked loses Swiftness
                # (11.6.5 no longer doubles its attack): every Block point counts twice,
                # the same test as the undoubled attack (efficient + floor(inefficient / 2))
                gs.combat.block[el] = <int16_t>(gs.combat.block[el] * 2)
    if mod_has(t, MK_ICON_BLOCK):
        per = mod_sum_arg(t, MK_ICON_BLOCK, 2)                       # base printing: Arcane Immunity counts
        if not enemy_ability(gs, st, slot, AB_ARCANE_IMMUNITY):
            per += mod_sum_arg(t, MK_ICON_BLOCK, 1)                  # Lost Legion printing
        if per:
            gs.combat.block[2] += sign * per * enemy_icons(gs, st, slot, attack_index)  # Ice
    if gs.turn.duel_block > 0 and slot == gs.turn.duel_slot - 1:
        gs.combat.block[0] += sign * gs.turn.duel_block            # Dueling (_engine_skills.pxi)


cdef int block_value_now(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """block_value with the enemy-dependent Block points of add_block_extras."""
    cdef GameState* g = <GameState*>gs               # the pool is restored before returning
    cdef int v
    add_block_extras(g, st, slot, attack_index, 1)
    v = block_value(gs, st, slot, attack_index)
    add_block_extras(g, st, slot, attack_index, -1)
    return v


cdef int block_armor_change(const GameState* gs, const Statics* st, int slot, int excess,
                            bint* acts) noexcept nogil:
    """The Armor change the Block pool's modifiers give the enemy it blocked: Ice Shield's
    MK_BLOCK_ARMOR and Shield Bash's MK_BLOCK_ARMOR_EXCESS per point of `excess` Block, each
    unless the enemy is immune to the colour of the card that gave it (arg - 1; LL-6.7.5,
    11.4.2).  `acts`: one of them acts."""
    cdef int i, d = 0
    cdef const Modifier* m
    for i in range(gs.turn.n_mods):
        m = &gs.turn.mods[i]
        if m.kind == MK_BLOCK_ARMOR and m.value != 0 and enemy_effect_ok(gs, st, slot, m.arg - 1):
            d += m.value
            acts[0] = True
        elif m.kind == MK_BLOCK_ARMOR_EXCESS and excess > 0 and enemy_effect_ok(gs, st, slot, m.arg - 1):
            d -= excess * m.value
            acts[0] = True
    return d


cdef int commit_block(GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """A_COMMIT_BLOCK with the Advanced Action block effects: Swift-double points join the
    pool against a Swift enemy; once the attack is blocked, Ice Shield's Armor change and
    Shield Bash's Armor -n per point of excess Block (11.6.5 value counted) act on the
    blocked enemy, unless it is immune to them (LL-6.7.5, 11.4.2); Armor stays >= 1.  The
    Block pool's modifiers (MS_BLOCK) end with the block, as its points do (11.4.5)."""
    cdef int excess = 0, res, d
    cdef bint acts = False
    if mod_sum(&gs.turn, MK_BLOCK_ARMOR_EXCESS) > 0:
        excess = block_value_now(gs, st, slot, attack_index) - block_needed(gs, st, slot, attack_index)
        if excess < 0:
            excess = 0
    add_block_extras(gs, st, slot, attack_index, 1)
    res = resolve_block(gs, st, slot, attack_index)
    if res == 1 and gs.turn.mod_live & (((<uint64_t>1) << MK_BLOCK_ARMOR) | ((<uint64_t>1) << MK_BLOCK_ARMOR_EXCESS)):
        d = block_armor_change(gs, st, slot, excess, &acts)
        if acts:
            d += gs.combat.enemies[slot].armor_delta
            gs.combat.enemies[slot].armor_delta = <int8_t>(d if d > -100 else -100)
    if res >= 0 and gs.turn.n_mods:
        mod_expire(&gs.turn, MS_BLOCK, -2)
    return res


# ---------------------------------------------------------------------------------------
# Diplomacy, Learning, Peaceful Moment, Chivalry, Dodge and Weave: actions and hooks
# ---------------------------------------------------------------------------------------

cdef inline bint learning_pending(const GameState* gs) noexcept nogil:
    """Learning played while moving and its purchase not made yet (LL-9.7.12): Influence
    has a use in the movement part."""
    return gs.phase == PH_MOVE and gs.turn.n_mods and mod_has(&gs.turn, MK_LEARNING)


cdef bint influence_elsewhere(const GameState* gs) noexcept nogil:
    """Influence effects outside an interaction that the engine can use (node_playable):
    in a combat's Block phase after Diplomacy (Influence as Block, LL-9.7.1), during
    Peaceful Moment played as the action (LL-8.1), and while moving for Learning's
    purchase (LL-9.7.12)."""
    if gs.combat.active and gs.phase == PH_COMBAT_BLOCK and mod_has(&gs.turn, MK_INFLUENCE_BLOCK):
        return True
    return (gs.turn.peaceful != 0 and gs.phase == PH_MOVE) or learning_pending(gs)


cdef int legal_advanced_actions(const GameState* gs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    """A_INFLUENCE_BLOCK (Diplomacy), A_LEARNING, A_PEACEFUL."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int k, i
    if gs.combat.active and gs.phase == PH_COMBAT_BLOCK and gs.turn.influence >= 1 \
            and mod_has(&gs.turn, MK_INFLUENCE_BLOCK):
        for k in range(3):
            if mod_has_arg(&gs.turn, MK_INFLUENCE_BLOCK, k + 1) and n < MAX_ACTIONS:
                out[n] = act(A_INFLUENCE_BLOCK, k)
                n += 1
    i = -1                                    # Learning (LL-9.7.11, LL-9.7.12): its price is > 0,
    if gs.turn.influence > 0 and gs.turn.n_mods and (gs.phase == PH_INTERACT or gs.phase == PH_MOVE):
        i = mod_find(&gs.turn, MK_LEARNING)   # so no scan without Influence
    if i >= 0 and gs.turn.influence >= gs.turn.mods[i].value:
        for k in range(3):
            if gs.aa_offer[k] >= 0 and n < MAX_ACTIONS:
                out[n] = act(A_LEARNING, k)
                n += 1
    if gs.turn.peaceful and gs.phase == PH_MOVE:
        if gs.turn.influence >= gs.turn.peaceful_heal_cost and n < MAX_ACTIONS:
            out[n] = act(A_PEACEFUL, 0)
            n += 1
        if gs.turn.peaceful == 2:
            for k in range(MAX_UNITS):
                if peaceful_ready_ok(gs, k) and n < MAX_ACTIONS and gs.turn.influence >= \
                        gs.turn.peaceful_ready_cost * unit_level(es, pl.units[k].card):
                    out[n] = act(A_PEACEFUL, 1 + k)
                    n += 1
    return n


cdef bint peaceful_ready_ok(const GameState* gs, int slot) noexcept nogil:
    """Peaceful Moment powered readies a Spent Unit (7.3.4)."""
    cdef const Unit* u = &gs.players[gs.current].units[slot]
    return u.card >= 0 and not u.ready


cdef int apply_advanced_action(GameState* gs, const EngineStatics* es, int p, int kind, int arg) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef int card, cost, i
    cdef bint to_hand
    if kind == A_INFLUENCE_BLOCK:
        # Diplomacy: "you may use Influence as Block this turn" - 1 Influence point is 1 Block
        # point of the card's element (basic physical; powered Ice or Fire; LL-9.7.1).
        gs.turn.influence -= 1
        gs.combat.block[<int>(PHYSICAL if arg == 0 else (FIRE if arg == 1 else ICE))] += 1
        return ERR_NONE
    if kind == A_LEARNING:
        # Learning: once this turn, pay `cost` Influence for an AA from the offer (6.4.2
        # refill), to the discard pile (basic) or to hand (powered).
        i = mod_find(&gs.turn, MK_LEARNING)                     # listed only with one alive
        gs.turn.influence -= gs.turn.mods[i].value
        to_hand = gs.turn.mods[i].arg == 2
        mod_remove_at(&gs.turn, i)                              # used up: once this turn
        card = gs.aa_offer[arg]
        refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, arg)
        if to_hand:
            push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, card)
        else:
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        count_gained(es, pl, card)
        return ERR_NONE
    if kind == A_PEACEFUL:
        # Peaceful Moment as the action: Heal 1 per heal_cost Influence (12.3); powered also
        # ready a Unit for ready_cost Influence per level of it (7.3.4).
        if arg == 0:
            gs.turn.influence -= gs.turn.peaceful_heal_cost
            gs.turn.healing += 1
            return ERR_NONE
        cost = gs.turn.peaceful_ready_cost * unit_level(es, pl.units[arg - 1].card)
        gs.turn.influence = <int16_t>(gs.turn.influence - cost)
        pl.units[arg - 1].ready = 1
        return ERR_NONE
    set_error(gs, ERR_INTERNAL, INTERNAL_NO_APPLY, -1)           # a kind of this range without a branch
    return ERR_INTERNAL


cdef void chivalry_commit(GameState* gs, int p, uint32_t targets, int res) noexcept nogil:
    """Chivalry: Reputation / Fame per enemy its attack defeats (A_COMMIT_ATTACK: all the
    targets are defeated when it succeeds, 11.8.2); the bonus goes with the attack pool."""
    cdef int n = 0, s, rep, fame
    if gs.turn.n_mods == 0:
        return
    rep = mod_sum_arg(&gs.turn, MK_CHIVALRY, 1)
    fame = mod_sum_arg(&gs.turn, MK_CHIVALRY, 2)
    if rep == 0 and fame == 0:
        return
    if res == 1:
        for s in range(32):
            if (targets >> s) & 1:
                n += 1
        if rep:
            change_reputation(&gs.players[p], rep * n)
        gs.players[p].fame += fame * n
    if res >= 0:
        mod_remove_kind(&gs.turn, MK_CHIVALRY)                    # used with its attack


cdef void advanced_phase_start(GameState* gs, int p) noexcept nogil:
    """A combat phase begins (after A_NEXT_PHASE): Dodge and Weave's Attack joins the pool
    at the start of the Attack phase if no Wound went to the hero's hand this combat;
    (Chivalry's bonus left in an unused attack pool is lost with the phase: its modifier
    is phase-long, 11.4.5)."""
    cdef int v
    if gs.phase == PH_COMBAT_ATTACK and gs.turn.n_mods:
        v = mod_sum(&gs.turn, MK_DODGE_ATTACK)
        if v > 0 and gs.players[p].wounds_this_combat == 0:
            gs.combat.attack[<int>MELEE][<int>PHYSICAL] += v
        mod_remove_kind(&gs.turn, MK_DODGE_ATTACK)                # used (or lost) now


# ---------------------------------------------------------------------------------------
# Cards that use another card's effect (LL-9.6): Maximal Effect, Blood of Ancients powered
# ---------------------------------------------------------------------------------------

cdef int lift_self(GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    """While a card's playability is checked it is still in hand, but when its effect
    resolves it is in the play area: take one copy of the card whose effect `row` is out of
    the hand for the check (put_back restores it).  Returns index << 16 | card, -1 = none."""
    cdef Player* pl = &gs.players[gs.current]
    cdef int i, card
    for i in range(pl.n_hand):
        card = pl.hand[i]
        if is_self_row(es, card, row):
            remove_at(pl.hand, &pl.n_hand, i)
            return (i << 16) | card
    return -1


cdef void put_back(GameState* gs, int lifted) noexcept nogil:
    cdef Player* pl = &gs.players[gs.current]
    cdef int i, k
    if lifted < 0:
        return
    i = lifted >> 16
    for k in range(pl.n_hand, i, -1):
        pl.hand[k] = pl.hand[k - 1]
    pl.hand[i] = <int16_t>(lifted & 0xFFFF)
    pl.n_hand += 1


cdef bint is_self_row(const EngineStatics* es, int card, int row) noexcept nogil:
    return es.card_basic[card * es.card_stride] == row or es.card_powered[card * es.card_stride] == row


cdef uint64_t pay_options(const GameState* gs, int colour) noexcept nogil:
    cdef uint64_t o = 0
    cdef int pay
    for pay in range(n_pay_codes(gs)):
        if pay_ok(gs, pay, colour):
            o |= (<uint64_t>1) << pay
    return o


cdef int single_option(uint64_t o) noexcept nogil:
    """The option if exactly one bit is set, else -1."""
    cdef int k, found = -1
    for k in range(64):
        if (o >> k) & 1:
            if found >= 0:
                return -1
            found = k
    return found


cdef class AdvancedTester:
    """Tests: set the Advanced Action offer and read this group's turn fields."""
    cdef Engine eng

    def __init__(self, Engine eng):
        self.eng = eng

    def set_aa_offer(self, cards):
        """The three AA offer slots (card ids, top position first, 1.2.5)."""
        cdef GameState* gs = &self.eng.core.gs
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        for k in range(3):
            gs.aa_offer[k] = self.eng.tables.card_ids.index(cards[k]) if k < len(cards) and cards[k] else -1

    @property
    def turn(self):
        cdef GameState* gs = &self.eng.core.gs
        cdef int k, ib = 0                       # Diplomacy's MK_INFLUENCE_BLOCK as the old element bits
        for k in range(gs.turn.n_mods):
            if gs.turn.mods[k].kind == MK_INFLUENCE_BLOCK:
                ib |= 1 << (gs.turn.mods[k].arg - 1)
        return {"hand_limit_bonus": gs.turn.hand_limit_bonus, "influence_block": ib,
                "learning_cost": mod_sum(&gs.turn, MK_LEARNING), "peaceful": gs.turn.peaceful,
                "move_points": gs.turn.move_points, "action_taken": bool(gs.turn.action_taken),
                "dodge_attack": mod_sum(&gs.turn, MK_DODGE_ATTACK),
                "concentration": mod_sum(&gs.turn, MK_CARD_BONUS)}

