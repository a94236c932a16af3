# Named effect handlers of the Advanced Action cards (and the spells sharing them), plus the
# plain enemy operations enemy_armor / enemy_no_attack; included into ext/_engine.pyx.
# Protocol: see "Handler protocol" in _engine.pyx.  ADVANCED_HANDLERS lists (name, declared
# argument names) in handler-code order; the content's keyword arguments must match them.
# Handlers of advanced_actions.toml not listed here (interaction, units, terrain, ...) stay
# unimplemented: playing them raises ERR_HANDLER naming them.

from mksim._types cimport PH_INTERACT, CE_BLOCKED, CE_GONE, CE_NO_ATTACK, ICE, FIRE, RANGED, PHYSICAL, HILLS, MOUNTAIN
from mksim._combat cimport (enemy_ability, block_value, block_needed, AB_SWIFT, AB_SUMMON, attack_element,
                            AB_ARCANE_IMMUNITY, RES_FIRE, RES_ICE, hero_take_wounds)

ADVANCED_HANDLERS = (
    ("ice_shield_block", ("block", "armor")),
    ("pay_mana_by_colour", ("red", "blue", "white", "green")),
    ("throw_away_action_by_colour", ("red", "blue", "white", "green")),
    ("in_need", ("influence", "per_wound")),
    ("crystal_mastery_copy", ("n",)),
    ("crystal_mastery_return", ()),
    ("mana_storm_die_to_crystal", ()),
    ("mana_storm_powered", ("extra_dice",)),
    ("ambush_bonus", ("attack", "block")),
    ("counterattack", ("attack", "per_blocked")),
    ("block_double_vs_swift", ("n",)),
    ("shield_bash", ("block", "armor_per_excess")),
    ("spell_forge", ("crystals",)),
    ("agility_convert", ("move_per_attack", "move_per_ranged")),
    ("terrain_cost_set", ("terrain", "cost")),
    ("terrain_passable", ("terrain", "safe")),
    ("mana_cost", ("colour", "optional", "then")),
    ("mountain_lore_hand_limit", ("hills", "mountains")),
    ("steady_tempo_return", ("to_top",)),
    ("training_gain_aa", ("to_hand",)),
    ("into_the_heat", ("bonus",)),
    ("heroic_tale_bonus", ("reputation", "fame")),
    ("blood_of_ancients_gain_aa", ("wounds",)),
    ("blood_of_ancients_use_aa", ("wounds",)),
    ("chivalry_attack", ("attack", "reputation", "fame")),
    ("dodge_and_weave_attack", ("attack",)),
    ("influence_as_block", ("influence", "element")),
    ("learning_buy_aa", ("influence", "cost", "to_hand")),
    ("magic_talent_gain_spell", ()),
    ("magic_talent_play_spell", ("same_colour",)),
    ("maximal_effect_basic", ("times",)),
    ("maximal_effect_powered", ("times",)),
    ("peaceful_moment_action", ("influence", "heal_cost", "ready_units", "ready_cost_per_level")),
    ("stout_resolve", ("value", "bonus", "any_cards", "max_wounds")),
    ("temporal_portal", ("spaces", "hand_limit")),
    ("block_strip_swift", ("n",)),
)

cdef enum AdvancedHandler:
    H_ICE_SHIELD_BLOCK = 0
    H_PAY_MANA_BY_COLOUR = 1
    H_THROW_AWAY_BY_COLOUR = 2
    H_IN_NEED = 3
    H_CRYSTAL_MASTERY_COPY = 4
    H_CRYSTAL_MASTERY_RETURN = 5
    H_MANA_STORM_DIE = 6
    H_MANA_STORM_POWERED = 7
    H_AMBUSH_BONUS = 8
    H_COUNTERATTACK = 9
    H_BLOCK_DOUBLE_VS_SWIFT = 10
    H_SHIELD_BASH = 11
    H_SPELL_FORGE = 12
    H_AGILITY_CONVERT = 13
    H_TERRAIN_COST_SET = 14
    H_TERRAIN_PASSABLE = 15
    H_MANA_COST = 16
    H_MOUNTAIN_LORE = 17
    H_STEADY_TEMPO = 18
    H_TRAINING = 19
    H_INTO_THE_HEAT = 20
    H_HEROIC_TALE = 21
    H_BLOOD_GAIN_AA = 22
    H_BLOOD_USE_AA = 23
    H_CHIVALRY = 24
    H_DODGE_ATTACK = 25
    H_INFLUENCE_BLOCK = 26
    H_LEARNING = 27
    H_TALENT_GAIN = 28
    H_TALENT_PLAY = 29
    H_MAXIMAL_BASIC = 30
    H_MAXIMAL_POWERED = 31
    H_PEACEFUL = 32
    H_STOUT_RESOLVE = 33
    H_TEMPORAL_PORTAL = 34
    H_BLOCK_STRIP_SWIFT = 35


cdef inline bint special_timing(const GameState* gs) noexcept nogil:
    """6.3.3: a special effect may be played any time during the turn, combat included."""
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.combat.active != 0


cdef inline int resolving_colour(const GameState* gs, const EngineStatics* es) noexcept nogil:
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
    if gs.turn.ambush_attack == 0 and gs.turn.ambush_block == 0:
        return 0
    b = gs.turn.ambush_block if block else gs.turn.ambush_attack
    gs.turn.ambush_attack = 0
    gs.turn.ambush_block = 0
    return b


cdef void return_spent_crystals(GameState* gs, int p) noexcept nogil:
    """Crystal Mastery powered: crystals spent this turn return to the Inventory at the end
    of the turn (engine reading: all spent this turn, also before the card; at most 3 of a
    colour, 5.1.3)."""
    cdef Player* pl = &gs.players[p]
    cdef int c, v
    if not gs.turn.crystal_return:
        return
    for c in range(4):
        v = pl.crystals[c] + gs.turn.crystals_spent[c]
        pl.crystals[c] = <int8_t>(v if v < MAX_CRYSTALS else MAX_CRYSTALS)
        gs.turn.crystals_spent[c] = 0
    gs.turn.crystal_return = 0


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
    if not gs.combat.active or arg > 1:
        return ERR_ILLEGAL
    if arg == 0:
        cost = gs.turn.agility_melee
        if cost <= 0 or gs.phase != PH_COMBAT_ATTACK:
            return ERR_ILLEGAL
    else:
        cost = gs.turn.agility_ranged
        if cost <= 0 or (gs.phase != PH_COMBAT_RANGED and gs.phase != PH_COMBAT_ATTACK):
            return ERR_ILLEGAL
    if gs.turn.move_points < cost:
        return ERR_ILLEGAL
    gs.turn.move_points -= cost
    gs.combat.attack[<int>(MELEE if arg == 0 else RANGED)][<int>PHYSICAL] += 1
    return ERR_NONE


cdef inline int unit_heat_bonus(const GameState* gs) noexcept nogil:
    """Into the Heat: + bonus to the Attack (any kind) and Block of a Unit's ability this
    combat.  Unit abilities reach the pools through attack / block rows (and Shield-Bash-like
    block_double_vs_swift); a handler of another group giving Unit Attack does not add it."""
    if gs.turn.heat_bonus > 0 and gs.combat.active and unit_resolving(gs.turn.resolving_card):
        return gs.turn.heat_bonus
    return 0


cdef void heroic_tale_recruited(GameState* gs, Player* pl) noexcept nogil:
    """Heroic Tale: Reputation (10.4) and Fame for a Unit just recruited (10.6).  Engine
    reading: Units recruited after the card is played (its effect starts then)."""
    if gs.turn.heroic_rep:
        change_reputation(pl, gs.turn.heroic_rep)
    pl.fame += gs.turn.heroic_fame


cdef uint64_t offer_slots_of_colour(const GameState* gs, const EngineStatics* es, int colour) noexcept nogil:
    cdef uint64_t o = 0
    cdef int k
    for k in range(3):
        if gs.aa_offer[k] >= 0 and card_colour(es, gs.aa_offer[k]) == colour:
            o |= (<uint64_t>1) << k
    return o


cdef uint64_t blood_colour_options(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Blood of Ancients basic: basic colours with an Advanced Action in the offer that can
    be paid now (5.4; gold by Day as any basic, 5.1.5)."""
    cdef uint64_t o = 0
    cdef int c
    for c in range(4):
        if offer_slots_of_colour(gs, es, c) != 0 and pay_options(gs, c) != 0:
            o |= (<uint64_t>1) << c
    return o


cdef void mountain_lore_bonus(GameState* gs, int p) noexcept nogil:
    """Mountain Lore: ending the turn (after forced withdrawal, 13.1.2) in hills / mountains
    raises the Hand limit of this turn's draw (13.7.2) by lore_hills / lore_mountains."""
    cdef int pos = gs.players[p].position, t
    if pos < 0 or pos >= gs.n_hexes:
        return
    t = gs.hexes[pos].terrain
    if t == HILLS:
        gs.turn.hand_limit_bonus += gs.turn.lore_hills
    elif t == MOUNTAIN:
        gs.turn.hand_limit_bonus += gs.turn.lore_mountains


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
    if not steady_tempo_ok(gs) or pl.n_deck >= MAX_DECK_CARDS:
        return ERR_ILLEGAL
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


cdef uint64_t training_hand_options(const GameState* gs, const EngineStatics* es, int row,
                                   bint exclude_self) noexcept nogil:
    """Training: Action cards in hand with an Advanced Action of their colour in the offer.
    exclude_self: Training is still in hand (one copy of it is left out)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i, k, card, deck
    cdef bint skipped = not exclude_self
    for i in range(pl.n_hand):
        card = pl.hand[i]
        deck = card_deck(es, card)
        if deck != DECK_BASIC and deck != DECK_AA:
            continue
        if not skipped and is_self_row(es, card, row):
            skipped = True
            continue
        for k in range(3):
            if gs.aa_offer[k] >= 0 and card_colour(es, gs.aa_offer[k]) == card_colour(es, card) and i < 64:
                o |= (<uint64_t>1) << i
    return o


cdef int enemy_icons(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """Icons on an enemy token for Cold Toughness (LL-2.10.8): its abilities, resistances
    and the colour of the blocked attack if not physical (Cold Fire is two colours, red and
    blue: 2); none under Arcane Immunity in the Lost Legion printing (the base printing,
    icon_block_arcane, counts it as one more ability)."""
    cdef int e = gs.combat.enemies[slot].enemy
    cdef uint32_t ab, rs
    cdef int n = 0, el
    if enemy_ability(gs, st, slot, AB_ARCANE_IMMUNITY) and not gs.turn.icon_block_arcane:
        return 0
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
    """Block points that depend on the enemy blocked: Swift-double points (Shield Bash,
    LL-2.10.10, 11.6.5) and Cold Toughness's Ice Block per icon (LL-2.10.8)."""
    cdef int el
    if enemy_ability(gs, st, slot, AB_SWIFT):
        for el in range(4):
            if sign < 0 and gs.turn.swift_strip:
                gs.combat.block[el] = <int16_t>(gs.combat.block[el] // 2)
            gs.combat.block[el] += sign * gs.turn.swift_block[el]
            if sign > 0 and gs.turn.swift_strip:
                # base Utem Guardsmen / Altem Guardians: the enemy blocked loses Swiftness
                # (11.6.5 no longer doubles its attack): every Block point counts twice,
                # the same test as the undoubled attack (efficient + floor(inefficient / 2))
                gs.combat.block[el] = <int16_t>(gs.combat.block[el] * 2)
    if gs.turn.icon_block:
        gs.combat.block[2] += sign * gs.turn.icon_block * enemy_icons(gs, st, slot, attack_index)  # Ice
    if gs.turn.duel_block > 0 and slot == gs.turn.duel_slot - 1:
        gs.combat.block[0] += sign * gs.turn.duel_block            # Dueling (_fx_skills.pxi)


cdef int block_value_now(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """block_value with the enemy-dependent Block points of add_block_extras."""
    cdef GameState* g = <GameState*>gs               # the pool is restored before returning
    cdef int v
    add_block_extras(g, st, slot, attack_index, 1)
    v = block_value(gs, st, slot, attack_index)
    add_block_extras(g, st, slot, attack_index, -1)
    return v


cdef void clear_block_fx(GameState* gs) noexcept nogil:
    """The block's own effects go with its points (11.4.5)."""
    cdef int el
    gs.turn.block_armor = 0
    gs.turn.icon_block = 0
    gs.turn.icon_block_arcane = 0
    gs.turn.swift_strip = 0
    gs.turn.block_armor_excess = 0
    gs.turn.block_fx_colour = -1
    for el in range(4):
        gs.turn.swift_block[el] = 0


cdef int commit_block(GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """A_COMMIT_BLOCK with the Advanced Action block effects: Swift-double points join the
    pool against a Swift enemy; once the attack is blocked, Ice Shield's Armor change and
    Shield Bash's Armor -n per point of excess Block (11.6.5 value counted) act on the
    blocked enemy, unless it is immune to them (LL-6.7.5, 11.4.2); Armor stays >= 1."""
    cdef int el, excess = 0, res, d
    cdef bint swift = enemy_ability(gs, st, slot, AB_SWIFT) != 0
    if gs.turn.block_armor_excess > 0:
        excess = block_value_now(gs, st, slot, attack_index) - block_needed(gs, st, slot, attack_index)
        if excess < 0:
            excess = 0
    add_block_extras(gs, st, slot, attack_index, 1)
    res = resolve_block(gs, st, slot, attack_index)
    if res == 1 and (gs.turn.block_armor != 0 or excess > 0) \
            and enemy_effect_ok(gs, st, slot, gs.turn.block_fx_colour):
        d = gs.combat.enemies[slot].armor_delta + gs.turn.block_armor - excess * gs.turn.block_armor_excess
        gs.combat.enemies[slot].armor_delta = <int8_t>(d if d > -100 else -100)
    if res >= 0:
        clear_block_fx(gs)
    return res


# ---------------------------------------------------------------------------------------
# Diplomacy, Learning, Peaceful Moment, Chivalry, Dodge and Weave: actions and hooks
# ---------------------------------------------------------------------------------------

cdef inline bint learning_pending(const GameState* gs) noexcept nogil:
    """Learning played while moving and its purchase not made yet (LL-9.7.12): Influence
    has a use in the movement part."""
    return gs.turn.learning_cost > 0 and gs.phase == PH_MOVE


cdef bint influence_elsewhere(const GameState* gs) noexcept nogil:
    """Influence effects outside an interaction that the engine can use (node_playable):
    in a combat's Block phase after Diplomacy (Influence as Block, LL-9.7.1), during
    Peaceful Moment played as the action (LL-8.1), and while moving for Learning's
    purchase (LL-9.7.12)."""
    if gs.turn.influence_block != 0 and gs.combat.active and gs.phase == PH_COMBAT_BLOCK:
        return True
    return (gs.turn.peaceful != 0 and gs.phase == PH_MOVE) or learning_pending(gs)


cdef inline bint influence_usable(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Influence has a use now, as for OP_INFLUENCE (node_playable): an interaction (10.2.2),
    the uses above, or a Thugs / Heroes payment in combat (LL-4.3.4, LL-9.3.1)."""
    return gs.phase == PH_INTERACT or influence_elsewhere(gs) or units_need_influence(gs, es)


cdef inline int diplomacy_element_bit(int element) noexcept nogil:
    """Diplomacy's element argument (PHYSICAL / FIRE / ICE) -> A_INFLUENCE_BLOCK arg bit."""
    if element == FIRE:
        return 2
    if element == ICE:
        return 4
    return 1


cdef int legal_advanced_actions(const GameState* gs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    """A_INFLUENCE_BLOCK (Diplomacy), A_LEARNING, A_PEACEFUL."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int k
    if gs.turn.influence_block != 0 and gs.combat.active and gs.phase == PH_COMBAT_BLOCK \
            and gs.turn.influence >= 1:
        for k in range(3):
            if (gs.turn.influence_block >> k) & 1 and n < MAX_ACTIONS:
                out[n] = act(A_INFLUENCE_BLOCK, k)
                n += 1
    if gs.turn.learning_cost > 0 and (gs.phase == PH_INTERACT or gs.phase == PH_MOVE) \
            and gs.turn.influence >= gs.turn.learning_cost:
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
    cdef int card, cost
    if kind == A_INFLUENCE_BLOCK:
        # Diplomacy: "you may use Influence as Block this turn" - 1 Influence point is 1 Block
        # point of the card's element (basic physical; powered Ice or Fire; LL-9.7.1).
        if arg > 2 or not ((gs.turn.influence_block >> arg) & 1) or not gs.combat.active \
                or gs.phase != PH_COMBAT_BLOCK or gs.turn.influence < 1:
            return ERR_ILLEGAL
        gs.turn.influence -= 1
        gs.combat.block[<int>(PHYSICAL if arg == 0 else (FIRE if arg == 1 else ICE))] += 1
        return ERR_NONE
    if kind == A_LEARNING:
        # Learning: once this turn, pay `cost` Influence for an AA from the offer (6.4.2
        # refill), to the discard pile (basic) or to hand (powered).
        if arg > 2 or gs.aa_offer[arg] < 0 or gs.turn.learning_cost <= 0 \
                or (gs.phase != PH_INTERACT and gs.phase != PH_MOVE) or gs.turn.influence < gs.turn.learning_cost:
            return ERR_ILLEGAL
        gs.turn.influence -= gs.turn.learning_cost
        gs.turn.learning_cost = 0
        card = gs.aa_offer[arg]
        refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, arg)
        if gs.turn.learning_to_hand:
            push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, card)
        else:
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        count_gained(es, pl, card)
        return ERR_NONE
    if kind == A_PEACEFUL:
        # Peaceful Moment as the action: Heal 1 per heal_cost Influence (12.3); powered also
        # ready a Unit for ready_cost Influence per level of it (7.3.4).
        if not gs.turn.peaceful or gs.phase != PH_MOVE:
            return ERR_ILLEGAL
        if arg == 0:
            if gs.turn.influence < gs.turn.peaceful_heal_cost:
                return ERR_ILLEGAL
            gs.turn.influence -= gs.turn.peaceful_heal_cost
            gs.turn.healing += 1
            return ERR_NONE
        if gs.turn.peaceful != 2 or arg > MAX_UNITS or not peaceful_ready_ok(gs, arg - 1):
            return ERR_ILLEGAL
        cost = gs.turn.peaceful_ready_cost * unit_level(es, pl.units[arg - 1].card)
        if gs.turn.influence < cost:
            return ERR_ILLEGAL
        gs.turn.influence = <int16_t>(gs.turn.influence - cost)
        pl.units[arg - 1].ready = 1
        return ERR_NONE
    return ERR_ILLEGAL


cdef void chivalry_commit(GameState* gs, int p, uint32_t targets, int res) noexcept nogil:
    """Chivalry: Reputation / Fame per enemy its attack defeats (A_COMMIT_ATTACK: all the
    targets are defeated when it succeeds, 11.8.2); the bonus goes with the attack pool."""
    cdef int n = 0, s
    if gs.turn.chivalry_rep == 0 and gs.turn.chivalry_fame == 0:
        return
    if res == 1:
        for s in range(32):
            if (targets >> s) & 1:
                n += 1
        if gs.turn.chivalry_rep:
            change_reputation(&gs.players[p], gs.turn.chivalry_rep * n)
        gs.players[p].fame += gs.turn.chivalry_fame * n
    if res >= 0:
        gs.turn.chivalry_rep = 0
        gs.turn.chivalry_fame = 0


cdef void advanced_phase_start(GameState* gs, int p) noexcept nogil:
    """A combat phase begins (after A_NEXT_PHASE): Dodge and Weave's Attack joins the pool
    at the start of the Attack phase if no Wound went to the hero's hand this combat;
    Chivalry's bonus left in an unused attack pool is lost (11.4.5)."""
    gs.turn.chivalry_rep = 0
    gs.turn.chivalry_fame = 0
    if gs.phase == PH_COMBAT_ATTACK and gs.turn.dodge_attack > 0:
        if gs.players[p].wounds_this_combat == 0:
            gs.combat.attack[<int>MELEE][<int>PHYSICAL] += gs.turn.dodge_attack
        gs.turn.dodge_attack = 0


# ---------------------------------------------------------------------------------------
# Cards that use another card's effect (LL-9.6): Maximal Effect, Blood of Ancients powered
# ---------------------------------------------------------------------------------------

cdef bint plays_other_card(const EngineStatics* es, int row) noexcept nogil:
    """Is this effect row one that plays another card's effect (no chains of them)?"""
    cdef const int32_t* r = erow(es, row)
    cdef int g, l
    if r[0] != OP_HANDLER:
        return False
    g = es.handler_group[r[1]]
    l = es.handler_local[r[1]]
    if g == HG_BASIC:                  # a registry group: the entry says so
        return handler_entry(es, r[1]).flags & HF_PLAYS_OTHER_CARD != 0
    if g == HG_ADVANCED:
        return l == H_MAXIMAL_BASIC or l == H_MAXIMAL_POWERED or l == H_BLOOD_USE_AA or l == H_TALENT_PLAY
    return False


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


cdef uint64_t maximal_options(const GameState* gs, const EngineStatics* es, int row, int powered) noexcept nogil:
    """Maximal Effect: Action cards in hand (Basic or Advanced) whose basic (powered) effect
    can be used now (Maximal Effect itself out of the hand: see lift_self)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i, card, deck, r
    for i in range(pl.n_hand):
        card = pl.hand[i]
        deck = card_deck(es, card)
        if (deck != DECK_BASIC and deck != DECK_AA) or i >= 63:
            continue
        r = es.card_powered[card * es.card_stride] if powered else es.card_basic[card * es.card_stride]
        if plays_other_card(es, r):
            continue                       # before card_playable_mode: no endless recursion
        if card_playable_mode(gs, es, card, powered) >= 0:
            o |= (<uint64_t>1) << i
    return o


cdef bint playable_as_in_hand(GameState* gs, const EngineStatics* es, int card, int row) noexcept nogil:
    """node_playable for `row` of `card` as if the card were in hand, as the playability
    checks assume of the card being played (e.g. discard_cost: "another card" than it);
    the card is in the offer (Blood of Ancients) or thrown away (Maximal Effect)."""
    cdef Player* pl = &gs.players[gs.current]
    cdef bint ok
    if not push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, card):
        return node_playable(gs, es, row)
    ok = node_playable(gs, es, row)
    pl.n_hand -= 1
    return ok


cdef int maximal_step(GameState* gs, const EngineStatics* es) noexcept nogil:
    """One more use of the borrowed effect while it can be used (6.2.1: a use whose cost
    cannot be paid any more is lost, with the rest); the Maximal Effect row runs again after it."""
    cdef int tgt = gs.turn.maximal_row - 1
    if gs.turn.maximal_left <= 0 or tgt < 0 or not playable_as_in_hand(gs, es, gs.turn.resolving_card, tgt):
        gs.turn.maximal_left = 0
        gs.turn.maximal_row = 0
        return RES_DONE
    gs.turn.maximal_left -= 1
    if push_eval(gs, gs.turn.maximal_self) != RES_DONE:
        return RES_ERROR
    return push_eval(gs, tgt)


cdef uint64_t blood_use_options(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Blood of Ancients powered: AA offer slots whose powered effect can be used now."""
    cdef uint64_t o = 0
    cdef int k, r
    for k in range(3):
        if gs.aa_offer[k] >= 0:
            if plays_other_card(es, es.card_powered[gs.aa_offer[k] * es.card_stride]):
                continue                   # before card_playable_mode: no endless recursion
            if playable_as_in_hand(<GameState*>gs, es, gs.aa_offer[k],
                                   es.card_powered[gs.aa_offer[k] * es.card_stride]):
                o |= (<uint64_t>1) << k
    return o


cdef uint64_t talent_colour_options(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Magic Talent powered: basic colours with a Spell in the offer that can be paid now."""
    cdef uint64_t o = 0
    cdef int c, k
    for c in range(4):
        for k in range(3):
            if gs.spell_offer[k] >= 0 and card_colour(es, gs.spell_offer[k]) == c and pay_options(gs, c) != 0:
                o |= (<uint64_t>1) << c
    return o


cdef uint64_t stout_kinds(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Stout Resolve: which of Move (0), Influence (1), Attack (2), Block (3) can be used now
    (6.3.3 timing; Move in combat where it has a use: Agility, Wings of Night, Cumbersome
    LL-6.5.2; Influence wherever OP_INFLUENCE has a use: interaction, Diplomacy's Block,
    Thugs / Heroes waiting for payment, LL-4.3.4)."""
    cdef uint64_t o = 0
    if (gs.phase == PH_MOVE and not gs.turn.action_taken) or combat_move_usable(gs, es):
        o |= 1
    if gs.phase == PH_INTERACT or influence_elsewhere(gs) or units_need_influence(gs, es):
        o |= 2
    if gs.phase == PH_COMBAT_ATTACK:
        o |= 4
    if gs.phase == PH_COMBAT_BLOCK:
        o |= 8
    return o


cdef uint64_t stout_discards(const GameState* gs, const EngineStatics* es, const int32_t* a) noexcept nogil:
    """Stout Resolve: hand cards that may still be discarded for the bonus - basic: a Wound
    (any_cards=0), powered: any card, at most max_wounds Wounds (hvars[2] so far)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i
    cdef bint wound_ok = gs.turn.hvars[2] < a[3]
    for i in range(pl.n_hand):
        if i >= 63:
            break
        if pl.hand[i] == es.wound:
            if wound_ok:
                o |= (<uint64_t>1) << i
        elif a[2] == 1:
            o |= (<uint64_t>1) << i
    return o


cdef int portal_dirs(const GameState* gs, const Statics* st, int p) noexcept nogil:
    """Temporal Portal: directions to an adjacent revealed safe space (9.7.1)."""
    cdef int h = gs.players[p].position, k, to, o = 0
    if h < 0:
        return 0
    for k in range(6):
        to = gs.hexes[h].neighbour[k]
        if to >= 0 and is_safe(gs, st, to, p):
            o |= 1 << k
    return o


cdef uint64_t talent_spell_modes(GameState* gs, const EngineStatics* es, int spell) noexcept nogil:
    """Magic Talent basic: how the offer Spell can be cast now (6.1.4, 5.4.3) - option
    `pay` = basic effect paid with payment code `pay`; option 32 + `pay` = powered effect
    (its colour paid with `pay`, a black mana from another source).  Like legal_play, the
    effect must still be usable once the Spell's mana is paid (playable_after_paying: the
    trial payments are undone)."""
    cdef uint64_t o = 0
    cdef int colour = card_colour(es, spell), pay, pay2, npay = n_pay_codes(gs)
    cdef PaySnap sn
    cdef bint ok
    if colour >= 4:
        return 0
    for pay in range(npay):
        if pay >= 32 or not pay_ok(gs, pay, colour):
            continue
        if playable_after_paying(gs, es, spell, 0, pay, PAY_NONE, colour):
            o |= (<uint64_t>1) << pay
        if not mana_usable(gs, BLACK):
            continue                                            # 5.4.3: the strong effect needs black
        pay_save(gs, &sn)
        pay_take(gs, pay, colour)
        ok = False
        for pay2 in range(npay):
            if pay_ok(gs, pay2, BLACK) and playable_after_paying(gs, es, spell, 1, pay2, PAY_NONE, BLACK):
                ok = True
                break
        pay_restore(gs, &sn)
        if ok:
            o |= (<uint64_t>1) << (32 + pay)
    return o


cdef uint64_t talent_offer_slots(GameState* gs, const EngineStatics* es, int colour) noexcept nogil:
    """Spell offer slots of basic `colour` (-1: any basic colour) that can be cast now."""
    cdef uint64_t o = 0
    cdef int k, c
    for k in range(3):
        if gs.spell_offer[k] < 0:
            continue
        c = card_colour(es, gs.spell_offer[k])
        if (colour < 0 or c == colour) and c < 4 and talent_spell_modes(gs, es, gs.spell_offer[k]) != 0:
            o |= (<uint64_t>1) << k
    return o


cdef uint64_t talent_discards(const GameState* gs, const EngineStatics* es, int row, bint exclude_self) noexcept nogil:
    """Magic Talent basic: non-Wound hand cards whose colour has a castable Spell in the offer
    (artifacts are colourless; 6.2.2 no Wounds); the base printing (same_colour=0): any
    non-Wound card while any Spell of the offer can be cast.  exclude_self: Magic Talent is
    still in hand."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef GameState* g = <GameState*>gs              # the trial payments are undone
    cdef uint64_t o = 0, colours = 0
    cdef int i, c, card
    cdef bint skipped = not exclude_self
    cdef bint same = row_args(es, row)[0] != 0
    for c in range(4):
        if talent_offer_slots(g, es, c) != 0:
            colours |= (<uint64_t>1) << c
    if colours == 0:
        return 0
    for i in range(pl.n_hand):
        card = pl.hand[i]
        if card == es.wound or i >= 63:
            continue
        if not skipped and is_self_row(es, card, row):
            skipped = True
            continue
        c = card_colour(es, card)
        if not same or (c < 4 and (colours >> c) & 1):
            o |= (<uint64_t>1) << i
    return o


# ---------------------------------------------------------------------------------------
# Handlers
# ---------------------------------------------------------------------------------------

cdef bint is_self_row(const EngineStatics* es, int card, int row) noexcept nogil:
    return es.card_basic[card * es.card_stride] == row or es.card_powered[card * es.card_stride] == row


cdef uint64_t throw_away_options(const GameState* gs, const EngineStatics* es, int row, bint exclude_self) noexcept nogil:
    """Hand cards that may be thrown away: Action cards (Basic or Advanced, not Wounds) whose
    colour's effect can be used now.  exclude_self: the played card is still in hand (one
    copy of it is left out)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t o = 0
    cdef int i, card, deck, colour
    cdef bint skipped = not exclude_self
    for i in range(pl.n_hand):
        card = pl.hand[i]
        deck = card_deck(es, card)
        if deck != DECK_BASIC and deck != DECK_AA:
            continue
        if not skipped and is_self_row(es, card, row):
            skipped = True
            continue
        colour = card_colour(es, card)
        if colour < 4 and a[colour] >= 0 and node_playable(gs, es, a[colour]) and i < 64:
            o |= (<uint64_t>1) << i
    return o


cdef uint64_t mana_colour_options(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    """Basic colours that can be paid now and whose effect can be used now."""
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t o = 0
    cdef int c
    for c in range(4):
        if a[c] >= 0 and pay_options(gs, c) != 0 and node_playable(gs, es, a[c]):
            o |= (<uint64_t>1) << c
    return o


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


cdef int advanced_handler(GameState* gs, const EngineStatics* es, const Statics* st,
                          int p, int row, int local, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i, k, card, c
    if local == H_ICE_SHIELD_BLOCK:
        # Ice Shield powered: Ice Block `block`; the enemy blocked this way gets Armor
        # `armor` (min 1) - applied by commit_block when the block succeeds.
        gs.combat.block[<int>ICE] += a[0] + ambush_bonus(gs, 1) + card_bonus(gs)   # 11.6.3, 11.9.3
        gs.turn.block_armor += a[1]
        gs.turn.block_fx_colour = <int8_t>resolving_colour(gs, es)
        return RES_DONE
    if local == H_BLOCK_STRIP_SWIFT:
        # base Utem Guardsmen / Altem Guardians: Block n; an enemy blocked this way loses
        # Swiftness (its attack is not doubled for this block, 11.6.5; add_block_extras).
        # The Lost Legion printing is block_double_vs_swift (LL-2.10.10).
        gs.combat.block[<int>PHYSICAL] += a[0] + ambush_bonus(gs, 1) + unit_heat_bonus(gs) + card_bonus(gs)
        gs.turn.swift_strip = 1
        return RES_DONE
    if local == H_BLOCK_DOUBLE_VS_SWIFT or local == H_SHIELD_BASH:
        # Shield Bash: Block n counting twice against Swift (LL-2.10.10); powered: Armor
        # -armor_per_excess per point of excess Block on the blocked enemy (min 1, LL-6.7.5).
        k = a[0] + ambush_bonus(gs, 1) + unit_heat_bonus(gs) + card_bonus(gs)
        gs.combat.block[<int>PHYSICAL] += k
        gs.turn.swift_block[<int>PHYSICAL] += k
        if local == H_SHIELD_BASH:
            gs.turn.block_armor_excess = <int8_t>a[1]
            gs.turn.block_fx_colour = <int8_t>resolving_colour(gs, es)
        return RES_DONE
    if local == H_PAY_MANA_BY_COLOUR:
        # Pure Magic / Mana Bolt: pay one basic mana (5.4; gold by Day as any basic, 5.1.5);
        # the colour paid picks the effect.  Stage 0: colour, stage 1: payment (ASK_PAYMENT).
        # hvars[0] = colour.
        if choice < 0:
            options = mana_colour_options(gs, es, row)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)   # 6.2.1: cannot pay
                return RES_ERROR
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_COLOUR, options)
            gs.turn.handler_stage = 0
        if gs.turn.handler_stage == 0:
            gs.turn.hvars[0] = <int16_t>choice
            options = pay_options(gs, choice)
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 1, ASK_PAYMENT, options)
        pay_take(gs, choice, gs.turn.hvars[0])
        return push_eval(gs, a[gs.turn.hvars[0]])
    if local == H_THROW_AWAY_BY_COLOUR:
        # Decompose / Ritual Attack: throw away another Action card from hand (removed from
        # the game); the effect of its colour follows.
        if choice < 0:
            options = throw_away_options(gs, es, row, False)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_HAND_CARD, options)
        card = pl.hand[choice]
        remove_at(pl.hand, &pl.n_hand, choice)
        pl.removed += 1
        return push_eval(gs, a[card_colour(es, card)])
    if local == H_IN_NEED:
        # In Need: Influence `influence`, +per_wound for each Wound card in hand and on the
        # Units (a poisoned Unit holds two, 11.7.9); 10.2.2.
        k = 0
        for i in range(pl.n_hand):
            if pl.hand[i] == es.wound:
                k += 1
        for i in range(MAX_UNITS):
            if pl.units[i].card >= 0:
                k += pl.units[i].wounds
        gs.turn.influence += a[0] + a[1] * k + card_bonus(gs)
        return RES_DONE
    if local == H_CRYSTAL_MASTERY_COPY:
        # Crystal Mastery basic: gain n crystals of a colour you already hold (5.3.2: a 4th
        # becomes a mana token).
        if choice < 0:
            for c in range(4):
                if pl.crystals[c] > 0:
                    options |= (<uint64_t>1) << c
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_COLOUR, options)
        for k in range(a[0]):
            gain_crystal(pl, gs, choice)
        return RES_DONE
    if local == H_CRYSTAL_MASTERY_RETURN:
        gs.turn.crystal_return = 1                                # see return_spent_crystals
        return RES_DONE
    if local == H_MANA_STORM_DIE:
        # Mana Storm basic: a Source die showing a basic colour gives a crystal of that
        # colour and is rerolled at once (not a use of the Source, 5.5.2).
        if choice < 0:
            for i in range(gs.n_dice):
                if not (gs.dice_taken >> i) & 1 and gs.dice[i] < GOLD:
                    options |= (<uint64_t>1) << i
            return ask(gs, row, 0, ASK_DIE, options)
        gain_crystal(pl, gs, gs.dice[choice])
        gs.dice[choice] = <int8_t>rng_below(&gs.rng[<int>STREAM_SOURCE], 6)
        return RES_DONE
    if local == H_MANA_STORM_POWERED:
        # Mana Storm powered: reroll every die in the Source; extra_dice more dice this turn
        # (5.5.6); gold and black dice may be used as any basic colour, whatever the time.
        for i in range(gs.n_dice):
            if not (gs.dice_taken >> i) & 1:
                gs.dice[i] = <int8_t>rng_below(&gs.rng[<int>STREAM_SOURCE], 6)
        gs.turn.extra_dice += a[0]
        gs.turn.dice_any_basic = 1
        return RES_DONE
    if local == H_AMBUSH_BONUS:
        gs.turn.ambush_attack = <int8_t>a[0]                      # see ambush_bonus
        gs.turn.ambush_block = <int8_t>a[1]
        return RES_DONE
    if local == H_COUNTERATTACK:
        # Counterattack: Attack `attack` + per_blocked per enemy blocked this turn (11.6.6;
        # an enemy counts when all its attacks were blocked, LL-6.1.6).
        k = 0
        for i in range(gs.combat.n_enemies):
            if gs.combat.enemies[i].token >= 0 and gs.combat.enemies[i].flags & CE_BLOCKED:
                k += 1
        gs.combat.attack[<int>MELEE][<int>PHYSICAL] += a[0] + a[1] * k + ambush_bonus(gs, 0) + card_bonus(gs)
        return RES_DONE
    if local == H_SPELL_FORGE:
        # Spell Forge: a crystal of the colour of each of `crystals` different Spells of the
        # Spell offer (ASK_OFFER slots; hvars[0] = crystals gained, hvars[1] = slots used).
        if choice < 0:
            gs.turn.hvars[0] = 0
            gs.turn.hvars[1] = 0
        else:
            gain_crystal(pl, gs, card_colour(es, gs.spell_offer[choice]))
            gs.turn.hvars[0] += 1
            gs.turn.hvars[1] |= <int16_t>(1 << choice)
        if gs.turn.hvars[0] >= a[0]:
            return RES_DONE
        for k in range(3):
            if gs.spell_offer[k] >= 0 and not (gs.turn.hvars[1] >> k) & 1:
                options |= (<uint64_t>1) << k
        if options == 0:
            return RES_DONE                                       # fewer Spells than crystals
        return ask(gs, row, 0, ASK_OFFER, options)
    if local == H_AGILITY_CONVERT:
        # Agility: Move may be converted in combat this turn (LL-9.7.2-9.7.3); the better
        # rate counts when played twice.
        if a[0] > 0 and (gs.turn.agility_melee == 0 or a[0] < gs.turn.agility_melee):
            gs.turn.agility_melee = <int8_t>a[0]
        if a[1] > 0 and (gs.turn.agility_ranged == 0 or a[1] < gs.turn.agility_ranged):
            gs.turn.agility_ranged = <int8_t>a[1]
        return RES_DONE
    if local == H_TERRAIN_COST_SET:
        # Path Finding powered, Frost Bridge, Song of Wind powered, Mountain Lore powered,
        # Mist Form: the terrain's Move cost is `cost` for the rest of the turn (9.6.1; read
        # by _rules.move_cost).  Engine reading: of two set costs the lower counts.
        for c in range(<int>NUM_TERRAINS):
            if (a[0] == c or a[0] >= NUM_TERRAINS) and a[1] >= 0 and \
                    (gs.turn.terrain_set[c] == 0 or a[1] + 1 < gs.turn.terrain_set[c]):
                gs.turn.terrain_set[c] = <int8_t>(a[1] + 1)
        return RES_DONE
    if local == H_TERRAIN_PASSABLE:
        # Lake / mountain may be entered this turn (9.6.3: the space is still not safe at
        # the end of the turn, 9.7.1, unless safe=1 as on Mountain Lore powered).
        if a[0] < 0 or a[0] >= NUM_TERRAINS:
            set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
            return RES_ERROR
        gs.turn.terrain_open |= <uint8_t>(1 << a[0])
        if a[1] == 1:
            gs.turn.terrain_safe |= <uint8_t>(1 << a[0])
        return RES_DONE
    if local == H_MANA_COST:
        # Song of Wind powered: "you may pay a blue mana" (5.4; gold by Day as any basic,
        # 5.1.5) to get `then`.  optional=1: ASK_DONE (63) declines.  ASK_PAYMENT.
        if choice < 0:
            options = pay_options(gs, a[0]) if a[2] >= 0 and node_playable(gs, es, a[2]) else 0
            if options == 0:
                if a[1] == 1:
                    return RES_DONE                              # cannot pay: nothing happens
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)   # 6.2.1
                return RES_ERROR
            if a[1] == 1:
                return ask(gs, row, 0, ASK_PAYMENT, options | ((<uint64_t>1) << ASK_DONE))
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_PAYMENT, options)
        if choice == ASK_DONE:
            return RES_DONE
        pay_take(gs, choice, a[0])
        return push_eval(gs, a[2])
    if local == H_MOUNTAIN_LORE:
        gs.turn.lore_hills += <int8_t>a[0]                        # see mountain_lore_bonus
        gs.turn.lore_mountains += <int8_t>a[1]
        return RES_DONE
    if local == H_STEADY_TEMPO:
        gs.turn.steady_tempo = <int8_t>(2 if a[0] == 1 else 1)   # see apply_steady_tempo
        gs.turn.steady_tempo_card = gs.turn.resolving_card
        return RES_DONE
    if local == H_TRAINING:
        # Training: throw away an Action card from hand (removed from the game); take an
        # Advanced Action of its colour from the offer (6.4.2 refill) to the discard pile /
        # to hand (powered).  Stage 0: hand card (ASK_HAND_CARD), stage 1: offer slot.
        if choice < 0:
            options = training_hand_options(gs, es, row, False)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_HAND_CARD, options)
        if gs.turn.handler_stage == 0:
            card = pl.hand[choice]
            remove_at(pl.hand, &pl.n_hand, choice)
            pl.removed += 1
            c = card_colour(es, card)
            gs.turn.hvars[0] = <int16_t>c
            for k in range(3):
                if gs.aa_offer[k] >= 0 and card_colour(es, gs.aa_offer[k]) == c:
                    options |= (<uint64_t>1) << k
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 1, ASK_OFFER, options)
        card = gs.aa_offer[choice]
        refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, choice)
        if a[0] == 1:
            push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, card)
        else:
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        count_gained(es, pl, card)
        return RES_DONE
    if local == H_INTO_THE_HEAT:
        # Into the Heat, played at the start of a combat: Units' Attack and Block + bonus this
        # combat (unit_heat_bonus); no damage may be assigned to Units this turn (11.7.4).
        if a[0] > gs.turn.heat_bonus:
            gs.turn.heat_bonus = <int8_t>a[0]
        gs.turn.no_unit_damage = 1
        return RES_DONE
    if local == H_HEROIC_TALE:
        gs.turn.heroic_rep += <int8_t>a[0]                        # see heroic_tale_recruited
        gs.turn.heroic_fame += <int8_t>(a[1] if a[1] > 0 else 0)
        return RES_DONE
    if local == H_BLOOD_GAIN_AA:
        # Blood of Ancients basic: take `wounds` Wound(s) to hand (12.1.1) and pay one mana;
        # an Advanced Action of that colour goes from the offer to hand (6.4.2 refill).
        # Stage 0: colour (ASK_COLOUR), 1: payment (ASK_PAYMENT), 2: offer slot.
        if choice < 0:
            options = blood_colour_options(gs, es)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_COLOUR, options)
            gs.turn.handler_stage = 0
        if gs.turn.handler_stage == 0:
            gs.turn.hvars[0] = <int16_t>choice
            options = pay_options(gs, choice)
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 1, ASK_PAYMENT, options)
            gs.turn.handler_stage = 1
        if gs.turn.handler_stage == 1:
            pay_take(gs, choice, gs.turn.hvars[0])
            options = offer_slots_of_colour(gs, es, gs.turn.hvars[0])
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 2, ASK_OFFER, options)
        card = gs.aa_offer[choice]
        refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, choice)
        take_wounds(gs, es, pl, a[0])
        if gs.error != ERR_NONE:
            return RES_ERROR
        push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, card)
        count_gained(es, pl, card)
        return RES_DONE
    if local == H_BLOOD_USE_AA:
        # Blood of Ancients powered: take `wounds` Wound(s) - to hand or to the discard pile -
        # and use the powered effect of an Advanced Action in the offer without paying mana;
        # the card stays in the offer.  Its effect keeps its own colour (LL-9.6.3) and is one
        # effect with this card's (LL-9.6.1).  Stage 0: offer slot (ASK_OFFER), 1: the
        # Wound's place (ASK_OPTION 0 hand, 1 discard pile).  hvars[0] = slot.
        if choice < 0:
            options = blood_use_options(gs, es)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_OFFER, options)
            gs.turn.handler_stage = 0
        if gs.turn.handler_stage == 0:
            gs.turn.hvars[0] = <int16_t>choice
            return ask(gs, row, 1, ASK_OPTION, 3)
        card = gs.aa_offer[gs.turn.hvars[0]]
        if choice == 1:
            for k in range(a[0]):
                if push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, es.wound):
                    pl.stats.wounds_taken += 1
        elif gs.combat.active:
            hero_take_wounds(gs, st, p, a[0])                      # counts for 11.7.8 knock-out
        else:
            take_wounds(gs, es, pl, a[0])                          # 12.1.1
        if gs.error != ERR_NONE:
            return RES_ERROR
        gs.turn.resolving_card = <int16_t>card
        return push_eval(gs, es.card_powered[card * es.card_stride])
    if local == H_CHIVALRY:
        # Chivalry: Attack `attack` (physical, melee) with Reputation +reputation and Fame
        # +fame for each enemy the attack it joins defeats (chivalry_commit).
        gs.combat.attack[<int>MELEE][<int>PHYSICAL] += a[0] + ambush_bonus(gs, 0) + card_bonus(gs)
        gs.turn.chivalry_rep += <int8_t>a[1]
        gs.turn.chivalry_fame += <int8_t>(a[2] if a[2] > 0 else 0)
        return RES_DONE
    if local == H_DODGE_ATTACK:
        # Dodge and Weave: Attack `attack` in the Attack phase of this combat if no Wound went
        # to the hero's hand earlier in it (advanced_phase_start).
        gs.turn.dodge_attack += <int8_t>(a[0] + card_bonus(gs))
        return RES_DONE
    if local == H_INFLUENCE_BLOCK:
        # Diplomacy: Influence `influence`; Influence may be used as Block of `element` this
        # turn (A_INFLUENCE_BLOCK in the Block phase, LL-9.7.1).
        gs.turn.influence += a[0] + card_bonus(gs)                     # 10.2.2
        gs.turn.influence_block |= <uint8_t>diplomacy_element_bit(a[1])
        return RES_DONE
    if local == H_LEARNING:
        # Learning: Influence `influence` (given here, so that the card is playable while
        # moving too, LL-9.7.11-9.7.12); once this turn an AA from the offer for `cost`
        # Influence (A_LEARNING); engine reading: a second Learning this turn replaces the
        # first one's offer.
        gs.turn.influence += a[0] + card_bonus(gs)                     # 10.2.2
        gs.turn.learning_cost = <int8_t>a[1]
        gs.turn.learning_to_hand = <uint8_t>(1 if a[2] == 1 else 0)
        return RES_DONE
    if local == H_TALENT_GAIN:
        # Magic Talent powered: pay one basic mana (5.4; gold by Day as any basic, 5.1.5);
        # a Spell of that colour goes from the offer to the discard pile (6.4.2 refill).
        # Stage 0: colour, 1: payment (ASK_PAYMENT), 2: offer slot.
        if choice < 0:
            options = talent_colour_options(gs, es)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_COLOUR, options)
            gs.turn.handler_stage = 0
        if gs.turn.handler_stage == 0:
            gs.turn.hvars[0] = <int16_t>choice
            options = pay_options(gs, choice)
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 1, ASK_PAYMENT, options)
            gs.turn.handler_stage = 1
        if gs.turn.handler_stage == 1:
            pay_take(gs, choice, gs.turn.hvars[0])
            options = 0
            for k in range(3):
                if gs.spell_offer[k] >= 0 and card_colour(es, gs.spell_offer[k]) == gs.turn.hvars[0]:
                    options |= (<uint64_t>1) << k
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 2, ASK_OFFER, options)
        card = gs.spell_offer[choice]
        refill_offer(gs, gs.spell_offer, gs.spell_deck, &gs.n_spell_deck, choice)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        count_gained(es, pl, card)
        return RES_DONE
    if local == H_MAXIMAL_BASIC or local == H_MAXIMAL_POWERED:
        # Maximal Effect: another Action card from hand is thrown away (6.5.2) and its basic
        # effect used `times` times (powered: its powered effect, no mana paid) - one single
        # effect keeping that card's colour (LL-9.6.1, LL-9.6.3, LL-9.7.19-9.7.22).  Each use
        # resolves in turn (choices may differ, LL-9.7.20); maximal_step repeats it.
        if choice < 0 and gs.turn.maximal_row != 0 and gs.turn.maximal_self == row:
            return maximal_step(gs, es)                              # the next use
        if choice < 0:
            options = maximal_options(gs, es, row, 1 if local == H_MAXIMAL_POWERED else 0)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_HAND_CARD, options)
        card = pl.hand[choice]
        remove_at(pl.hand, &pl.n_hand, choice)
        pl.removed += 1                                              # thrown away
        gs.turn.resolving_card = <int16_t>card
        gs.turn.maximal_row = <int16_t>(1 + (es.card_powered[card * es.card_stride] if local == H_MAXIMAL_POWERED
                                             else es.card_basic[card * es.card_stride]))
        gs.turn.maximal_left = <int8_t>a[0]
        gs.turn.maximal_self = <int16_t>row
        return maximal_step(gs, es)
    if local == H_PEACEFUL:
        # Peaceful Moment: Influence `influence`.  Played in the movement part before any
        # action it is the turn's action (LL-8.1.1-8.1.2; not while resting, LL-8.1.3): no
        # more movement (4.4.5), Move points are lost (LL-9.3.4), and Influence buys Heal 1
        # per heal_cost (powered: also readies Units for ready_cost_per_level a level) with
        # A_PEACEFUL.  During an interaction it is Influence only.
        gs.turn.influence += a[0] + card_bonus(gs)
        if gs.phase == PH_MOVE and not gs.turn.action_taken:
            gs.turn.action_taken = 1
            gs.turn.move_points = 0
            gs.turn.peaceful = <uint8_t>(2 if a[2] == 1 else 1)
            gs.turn.peaceful_heal_cost = <int8_t>a[1]
            gs.turn.peaceful_ready_cost = <int8_t>a[3]
        elif gs.phase == PH_MOVE and gs.turn.peaceful and a[2] == 1:
            gs.turn.peaceful = 2               # a later use within the same action (Maximal Effect)
        return RES_DONE
    if local == H_STOUT_RESOLVE:
        # Stout Resolve: Move, Influence, Attack or Block `value` (stage 0, ASK_OPTION 0-3);
        # then discard cards for +bonus each (stage 1, ASK_HAND_CARD + ASK_DONE): basic a
        # Wound (any_cards=0), powered any cards with at most max_wounds Wounds (6.5.1:
        # the card allows discarding Wounds).  hvars: 0 kind, 1 bonus so far, 2 Wounds.
        if choice < 0:
            options = stout_kinds(gs, es)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            gs.turn.hvars[1] = 0
            gs.turn.hvars[2] = 0
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_OPTION, options)
            gs.turn.handler_stage = 0
        if gs.turn.handler_stage == 0:
            gs.turn.hvars[0] = <int16_t>choice
        elif choice != ASK_DONE:
            card = pl.hand[choice]
            remove_at(pl.hand, &pl.n_hand, choice)
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
            gs.turn.hvars[1] += a[1]
            if card == es.wound:
                gs.turn.hvars[2] += 1
        if choice != ASK_DONE and not (a[2] == 0 and gs.turn.hvars[1] > 0):
            options = stout_discards(gs, es, a)
            if options != 0:
                return ask(gs, row, 1, ASK_HAND_CARD, options | ((<uint64_t>1) << ASK_DONE))
        k = a[0] + gs.turn.hvars[1]
        c = gs.turn.hvars[0]
        if c == 0:
            gs.turn.move_points += k + move_bonus(gs)
        elif c == 1:
            gs.turn.influence += k + card_bonus(gs)                       # 10.2.2
        elif c == 2:
            gs.combat.attack[<int>MELEE][<int>PHYSICAL] += k + ambush_bonus(gs, 0) + card_bonus(gs)
        else:
            gs.combat.block[<int>PHYSICAL] += k + ambush_bonus(gs, 1) + card_bonus(gs)
        return RES_DONE
    if local == H_TEMPORAL_PORTAL:
        # Temporal Portal: the turn's action (LL-8.1.1-8.1.2, not while resting LL-8.1.3):
        # the Hand limit of the next draw + hand_limit (LL-8.2.1), and the hero may move up
        # to `spaces` times to an adjacent revealed safe space (9.7.1) without provoking and
        # without Move points (LL-8.1.4, LL-3.1.4).  Stage 0: a direction (ASK_OPTION 0-5)
        # or ASK_DONE.  hvars[0] = moves left.  Used once a turn (LL-9.7.21: Maximal Effect).
        if choice < 0:
            if gs.turn.portal_used:
                return RES_DONE                                      # LL-9.7.21
            gs.turn.portal_used = 1
            gs.turn.action_taken = 1                                 # 4.4.5
            gs.turn.move_points = 0                                  # LL-9.3.4
            gs.turn.hand_limit_bonus += <int8_t>a[1]
            gs.turn.hvars[0] = <int16_t>a[0]
        elif choice == ASK_DONE:
            return RES_DONE
        else:
            k = gs.hexes[pl.position].neighbour[choice]
            pl.position = <int16_t>k
            if gs.turn.n_path < MAX_PATH:
                gs.turn.path[gs.turn.n_path] = <int16_t>k
                gs.turn.n_path += 1
            gs.turn.moved = 1
            gs.turn.hvars[0] -= 1
        if gs.turn.hvars[0] <= 0:
            return RES_DONE
        options = <uint64_t>portal_dirs(gs, st, p)
        if options == 0:
            return RES_DONE
        return ask(gs, row, 0, ASK_OPTION, options | ((<uint64_t>1) << ASK_DONE))
    if local == H_TALENT_PLAY:
        # Magic Talent basic: discard a card (6.2.1); a Spell of its colour in the offer may
        # be played as if in hand - its mana paid as usual (6.1.4, 5.4.3) - and stays in the
        # offer.  Engine reading: it is cast now, as part of this card's effect (LL-9.6.1:
        # one single effect; its own colour kept, LL-9.6.3).  Stage 0: the card to discard
        # (ASK_HAND_CARD), 1: offer slot (ASK_OFFER), 2: mode + payment (ASK_OPTION, see
        # talent_spell_modes), 3: the black mana of the powered effect (ASK_PAYMENT).
        # hvars[0] = colour, hvars[1] = slot, hvars[2] = mode.
        if choice < 0:
            options = talent_discards(gs, es, row, False)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_HAND_CARD, options)
            gs.turn.handler_stage = 0
        if gs.turn.handler_stage == 0:
            card = pl.hand[choice]
            remove_at(pl.hand, &pl.n_hand, choice)
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
            gs.turn.hvars[0] = <int16_t>(card_colour(es, card) if a[0] else -1)   # base: any Spell
            options = talent_offer_slots(gs, es, gs.turn.hvars[0])
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 1, ASK_OFFER, options)
            gs.turn.handler_stage = 1
        if gs.turn.handler_stage == 1:
            gs.turn.hvars[1] = <int16_t>choice
            options = talent_spell_modes(gs, es, gs.spell_offer[choice])
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 2, ASK_OPTION, options)
            gs.turn.handler_stage = 2
        card = gs.spell_offer[gs.turn.hvars[1]]
        if gs.turn.handler_stage == 2:
            gs.turn.hvars[2] = <int16_t>(1 if choice >= 32 else 0)
            pay_take(gs, choice & 31, card_colour(es, card))          # 5.4.5
            if gs.turn.hvars[2] == 1:
                options = 0
                for k in range(n_pay_codes(gs)):
                    if pay_ok(gs, k, BLACK) and playable_after_paying(gs, es, card, 1, k, PAY_NONE, BLACK):
                        options |= (<uint64_t>1) << k
                choice = single_option(options)
                if choice < 0:
                    return ask(gs, row, 3, ASK_PAYMENT, options)
                gs.turn.handler_stage = 3
        if gs.turn.handler_stage == 3:
            pay_take(gs, choice, BLACK)                                  # 5.4.3
        if gs.turn.spells_cast[card_colour(es, card)] < 127:
            gs.turn.spells_cast[card_colour(es, card)] += 1              # cast: the Rings' Fame
        gs.turn.resolving_card = <int16_t>card
        return push_eval(gs, es.card_powered[card * es.card_stride] if gs.turn.hvars[2] == 1
                         else es.card_basic[card * es.card_stride])
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR


cdef bint advanced_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    """Whether the handler can do something now (called while the card is still in hand)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef const int32_t* a
    cdef int i, c, lifted
    cdef bint ok
    if local == H_ICE_SHIELD_BLOCK or local == H_BLOCK_DOUBLE_VS_SWIFT or local == H_SHIELD_BASH \
            or local == H_BLOCK_STRIP_SWIFT:
        return gs.phase == PH_COMBAT_BLOCK                        # 11.6.3
    if local == H_COUNTERATTACK:
        return gs.phase == PH_COMBAT_ATTACK                       # 11.8: a melee Attack
    if local == H_PAY_MANA_BY_COLOUR:
        return mana_colour_options(gs, es, row) != 0
    if local == H_THROW_AWAY_BY_COLOUR:
        return special_timing(gs) and throw_away_options(gs, es, row, True) != 0
    if local == H_IN_NEED or local == H_HEROIC_TALE:
        # their Influence wherever Influence has a use (10.2; LL-9.3.1, LL-4.3.4: paying
        # Thugs in combat); Heroic Tale's bonus then waits for recruits this turn
        return influence_usable(gs, es)
    if local == H_TERRAIN_COST_SET or local == H_TERRAIN_PASSABLE:
        return gs.phase == PH_MOVE                                # 9.6.1: movement effects
    if local == H_MANA_COST:
        a = row_args(es, row)
        if a[1] == 1:
            # optional: may be declined, so no mana is needed - but what it buys must act
            # now (Song of Wind's lakes only while moving, 9.6.1: not a use in combat)
            return a[2] >= 0 and node_playable(gs, es, a[2])
        return a[2] >= 0 and pay_options(gs, a[0]) != 0 and node_playable(gs, es, a[2])
    if local == H_INTO_THE_HEAT:
        return gs.combat.active != 0 and gs.turn.heat_window == 1   # "at the start of combat"
    if local == H_CHIVALRY:
        return gs.phase == PH_COMBAT_ATTACK                       # 11.8: a melee Attack
    if local == H_DODGE_ATTACK:
        return gs.phase == PH_COMBAT_BLOCK                        # with its attack reduction
    if local == H_INFLUENCE_BLOCK:
        # Influence during interaction (10.2.2), or in combat up to the Block phase, where
        # Influence becomes Block (LL-9.7.1)
        return gs.phase == PH_INTERACT or (gs.combat.active != 0 and gs.phase <= PH_COMBAT_BLOCK
                                           and gs.phase >= PH_COMBAT_RANGED)
    if local == H_LEARNING:
        # LL-9.7.11-9.7.12 (LL-9.3: one of the cards whose Influence was never bound to an
        # interaction): during an interaction, or outside one while moving (no reputation
        # modifier; the Influence is lost when the action begins, LL-9.3.4); in combat for
        # its Influence where that has a use (Thugs, LL-4.3.4).  Engine limitation: the
        # purchase itself is offered only while moving or interacting, not while resting.
        return gs.phase == PH_MOVE or influence_usable(gs, es)
    if local == H_PEACEFUL:
        # LL-8.1.2-8.1.3: as the action, in the movement part before any action; else its
        # Influence during an interaction
        # (or while it is the action already: Maximal Effect's later uses give their Influence)
        # (or while it is the action already: Maximal Effect's later uses give their Influence);
        # elsewhere its Influence where Influence has a use (LL-9.3.1, LL-4.3.4)
        return influence_usable(gs, es) or (gs.phase == PH_MOVE and (not gs.turn.action_taken
                                                                     or gs.turn.peaceful != 0))
    if local == H_TEMPORAL_PORTAL:
        return gs.phase == PH_MOVE and not gs.turn.action_taken and not gs.turn.portal_used
    if local == H_STOUT_RESOLVE:
        return stout_kinds(gs, es) != 0
    if local == H_BLOOD_USE_AA or local == H_TALENT_GAIN or local == H_TALENT_PLAY \
            or local == H_MAXIMAL_BASIC or local == H_MAXIMAL_POWERED:
        # special effects (6.3.3), also while interacting (10.2.7) - the borrowed effect
        # must be usable now (LL-9.6.2)
        if not special_timing(gs) and gs.phase != PH_INTERACT:
            return False
        if local == H_TALENT_GAIN:
            return talent_colour_options(gs, es) != 0
        # the borrowed effect is checked as it will resolve: this card out of the hand
        lifted = lift_self(<GameState*>gs, es, row)
        if local == H_BLOOD_USE_AA:
            ok = blood_use_options(gs, es) != 0
        elif local == H_TALENT_PLAY:
            ok = talent_discards(gs, es, row, False) != 0
        else:
            ok = maximal_options(gs, es, row, 1 if local == H_MAXIMAL_POWERED else 0) != 0
        put_back(<GameState*>gs, lifted)
        return ok
    if not special_timing(gs):
        return False
    if local == H_TRAINING:
        return training_hand_options(gs, es, row, True) != 0
    if local == H_BLOOD_GAIN_AA:
        return blood_colour_options(gs, es) != 0
    if local == H_CRYSTAL_MASTERY_COPY:
        for c in range(4):
            if pl.crystals[c] > 0:
                return True
        return False
    if local == H_MANA_STORM_DIE:
        for i in range(gs.n_dice):
            if not (gs.dice_taken >> i) & 1 and gs.dice[i] < GOLD:
                return True
        return False
    if local == H_SPELL_FORGE:
        for i in range(3):
            if gs.spell_offer[i] >= 0:
                return True
        return False
    return local == H_CRYSTAL_MASTERY_RETURN or local == H_MANA_STORM_POWERED \
        or local == H_AMBUSH_BONUS or local == H_AGILITY_CONVERT \
        or local == H_MOUNTAIN_LORE or local == H_STEADY_TEMPO



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
        return {"hand_limit_bonus": gs.turn.hand_limit_bonus, "influence_block": gs.turn.influence_block,
                "learning_cost": gs.turn.learning_cost, "peaceful": gs.turn.peaceful,
                "move_points": gs.turn.move_points, "action_taken": bool(gs.turn.action_taken),
                "dodge_attack": gs.turn.dodge_attack, "concentration": gs.turn.concentration}


cdef bint advanced_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                           int local, PendingCheck* c) noexcept nogil:
    """Bounds of a pending Advanced Action question (pending_check, _engine.pyx)."""
    cdef int stage = gs.turn.handler_stage
    if local == H_PAY_MANA_BY_COLOUR or local == H_BLOOD_GAIN_AA or local == H_TALENT_GAIN:
        # stage 0: a basic colour; 1: its payment (hvars[0] = the colour: a[colour]); 2: a slot
        if pc_stage(c, gs, 1 if local == H_PAY_MANA_BY_COLOUR else 2):
            return True
        if stage == 0:                                  # a colour it can pay (and use)
            return pc_asks(c, ASK_COLOUR, 4) or pc_subset(c, gs, mana_colour_options(gs, es, row)
                                                          if local == H_PAY_MANA_BY_COLOUR else
                                                          blood_colour_options(gs, es)
                                                          if local == H_BLOOD_GAIN_AA else
                                                          talent_colour_options(gs, es))
        if stage == 1:
            return pc_hvar(c, gs, 0, 0, 3) or pc_asks(c, ASK_PAYMENT) \
                or pc_subset(c, gs, pay_options(gs, gs.turn.hvars[0]))
        return pc_asks(c, ASK_OFFER, -1, False, &gs.spell_offer[0] if local == H_TALENT_GAIN else &gs.aa_offer[0])
    if local == H_THROW_AWAY_BY_COLOUR or local == H_MAXIMAL_BASIC or local == H_MAXIMAL_POWERED:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_HAND_CARD)
    if local == H_CRYSTAL_MASTERY_COPY:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_COLOUR, 4)
    if local == H_MANA_STORM_DIE:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_DIE)
    if local == H_SPELL_FORGE:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OFFER, -1, False, gs.spell_offer)
    if local == H_MANA_COST:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_PAYMENT, -1, True)
    if local == H_TRAINING:
        if pc_stage(c, gs, 1):
            return True
        return pc_asks(c, ASK_HAND_CARD) if stage == 0 else pc_asks(c, ASK_OFFER, -1, False, gs.aa_offer)
    if local == H_BLOOD_USE_AA:                         # stage 1: hvars[0] = the offer slot
        if pc_stage(c, gs, 1):
            return True
        if stage == 0:
            return pc_asks(c, ASK_OFFER, -1, False, gs.aa_offer)
        if pc_hvar(c, gs, 0, 0, 2):
            return True
        if gs.aa_offer[gs.turn.hvars[0]] < 0:
            return pc_bad(c, PF_HVAR, gs.turn.hvars[0], -1, -1)
        return pc_asks(c, ASK_OPTION, 2)
    if local == H_STOUT_RESOLVE:                        # hvars[0] = the kind (0 .. 3)
        if pc_stage(c, gs, 1):
            return True
        if stage == 0:
            return pc_asks(c, ASK_OPTION, 4)
        return pc_hvar(c, gs, 0, 0, 3) or pc_asks(c, ASK_HAND_CARD, -1, True)
    if local == H_TEMPORAL_PORTAL:                      # options: directions
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, 6, True) or pc_directions(c, gs)
    if local == H_TALENT_PLAY:
        # stage 1: hvars[0] = colour (-1 any); 2, 3: hvars[1] = the Spell's slot, 3: hvars[2] = 1
        if pc_stage(c, gs, 3):
            return True
        if stage == 0:
            return pc_asks(c, ASK_HAND_CARD)
        if stage == 1:
            return pc_hvar(c, gs, 0, -1, 3) or pc_asks(c, ASK_OFFER, -1, False, gs.spell_offer)
        if pc_hvar(c, gs, 1, 0, 2):
            return True
        if gs.spell_offer[gs.turn.hvars[1]] < 0:
            return pc_bad(c, PF_HVAR + 1, gs.turn.hvars[1], -1, -1)
        if stage == 3:
            return pc_hvar(c, gs, 2, 1, 1) or pc_asks(c, ASK_PAYMENT)
        # option = payment code (+ 32: powered)
        pc_asks(c, ASK_OPTION, ASK_DONE)
        return pc_subset(c, gs, talent_pay_codes(gs))
    c.ask = -1
    return False


cdef uint64_t talent_pay_codes(const GameState* gs) noexcept nogil:
    """Magic Talent's stage-2 options as codes: a payment code, + 32 for powered."""
    cdef uint64_t o = 0
    cdef int k
    for k in range(n_pay_codes(gs)):
        o |= ((<uint64_t>1) << k) | ((<uint64_t>1) << (k + 32))
    return o
