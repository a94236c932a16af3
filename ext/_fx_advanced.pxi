# Named effect handlers of the Advanced Action cards (and the spells sharing them), plus the
# plain enemy operations enemy_armor / enemy_no_attack; included into ext/_engine.pyx.
# Protocol: see "Handler protocol" in _engine.pyx.  ADVANCED_HANDLERS lists (name, declared
# argument names) in handler-code order; the content's keyword arguments must match them.
# Handlers of advanced_actions.toml not listed here (interaction, units, terrain, ...) stay
# unimplemented: playing them raises ERR_HANDLER naming them.

from mksim._types cimport PH_INTERACT, CE_BLOCKED, CE_GONE, CE_NO_ATTACK, ICE, RANGED, PHYSICAL, HILLS, MOUNTAIN
from mksim._combat cimport (enemy_ability, block_value, block_needed, AB_SWIFT, AB_SUMMON, attack_element,
                            AB_ARCANE_IMMUNITY, RES_FIRE, RES_ICE)

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


cdef inline bint special_timing(const GameState* gs) noexcept nogil:
    """6.3.3: a special effect may be played any time during the turn, combat included."""
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.combat.active != 0


cdef inline int resolving_colour(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Colour of the card whose effect resolves (11.4.2), -1 = none / not a card."""
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
    res = st.enemies.data[e.enemy * st.enemies.width + st.cols.enemy_resistances] & ~e.res_lost
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
    on.  (The card's colour is not known here; 11.4.2 is applied when it resolves.)"""
    cdef int s
    cdef const CombatEnemy* e
    if not gs.combat.active:
        return False
    for s in range(gs.combat.n_enemies):
        e = &gs.combat.enemies[s]
        if e.token >= 0 and not (e.flags & (CE_DEFEATED | CE_GONE)):
            return True
    return False


cdef void enemy_op_one(GameState* gs, const int32_t* r, int slot) noexcept nogil:
    cdef CombatEnemy* e = &gs.combat.enemies[slot]
    cdef int d
    if r[0] == OP_ENEMY_ARMOR:
        d = e.armor_delta + r[1]                 # enemy_armor() keeps the result at least 1
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
    if r[0] == OP_ENEMY_ARMOR and r[3] != 1:
        set_error(gs, ERR_ENEMY_EFFECT, r[0], gs.turn.resolving_card)   # a floor other than 1
        return RES_ERROR
    if choice >= 0:
        enemy_op_one(gs, r, choice)
        return RES_DONE
    options = enemy_effect_targets(gs, st, colour)
    target = r[2] if r[0] == OP_ENEMY_ARMOR else r[1]
    for s in range(gs.combat.n_enemies):
        if (options >> s) & 1:
            n += 1
            last = s
            if target == 1:                       # "all"
                enemy_op_one(gs, r, s)
    if target == 1 or n == 0:
        return RES_DONE
    if n == 1:
        enemy_op_one(gs, r, last)
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
    Attack phase into Attack or Ranged Attack."""
    if not gs.combat.active:
        return False
    if gs.phase == PH_COMBAT_ATTACK:
        return gs.turn.agility_melee > 0 or gs.turn.agility_ranged > 0
    if gs.phase == PH_COMBAT_RANGED:
        return gs.turn.agility_ranged > 0
    return False


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
    if gs.turn.heat_bonus > 0 and gs.combat.active and gs.turn.resolving_card <= UNIT_CARD_BASE:
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
    if not steady_tempo_ok(gs) or pl.n_deck >= MAX_CARDS:
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
    and the element of the blocked attack if not physical; none under Arcane Immunity."""
    cdef int e = gs.combat.enemies[slot].enemy
    cdef uint32_t ab, rs
    cdef int n = 0
    if enemy_ability(gs, st, slot, AB_ARCANE_IMMUNITY):
        return 0
    ab = <uint32_t>st.enemies.data[e * st.enemies.width + st.cols.enemy_abilities]
    rs = <uint32_t>st.enemies.data[e * st.enemies.width + st.cols.enemy_resistances]
    while ab:
        n += ab & 1
        ab >>= 1
    while rs:
        n += rs & 1
        rs >>= 1
    if attack_element(gs, st, slot, attack_index) != 0:
        n += 1
    return n


cdef void add_block_extras(GameState* gs, const Statics* st, int slot, int attack_index, int sign) noexcept nogil:
    """Block points that depend on the enemy blocked: Swift-double points (Shield Bash,
    LL-2.10.10, 11.6.5) and Cold Toughness's Ice Block per icon (LL-2.10.8)."""
    cdef int el
    if enemy_ability(gs, st, slot, AB_SWIFT):
        for el in range(4):
            gs.combat.block[el] += sign * gs.turn.swift_block[el]
    if gs.turn.icon_block:
        gs.combat.block[2] += sign * gs.turn.icon_block * enemy_icons(gs, st, slot, attack_index)  # Ice


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
        gs.combat.block[<int>ICE] += a[0] + ambush_bonus(gs, 1)        # 11.6.3, 11.9.3
        gs.turn.block_armor += a[1]
        gs.turn.block_fx_colour = <int8_t>resolving_colour(gs, es)
        return RES_DONE
    if local == H_BLOCK_DOUBLE_VS_SWIFT or local == H_SHIELD_BASH:
        # Shield Bash: Block n counting twice against Swift (LL-2.10.10); powered: Armor
        # -armor_per_excess per point of excess Block on the blocked enemy (min 1, LL-6.7.5).
        k = a[0] + ambush_bonus(gs, 1) + unit_heat_bonus(gs)
        gs.combat.block[<int>PHYSICAL] += k
        gs.turn.swift_block[<int>PHYSICAL] += k
        if local == H_SHIELD_BASH:
            gs.turn.block_armor_excess = <int8_t>a[1]
            gs.turn.block_fx_colour = <int8_t>resolving_colour(gs, es)
        return RES_DONE
    if local == H_PAY_MANA_BY_COLOUR:
        # Pure Magic / Mana Bolt: pay one basic mana (5.4; gold by Day as any basic, 5.1.5);
        # the colour paid picks the effect.  Stage 0: colour, stage 1: payment (ASK_OPTION =
        # payment code).  hvars[0] = colour.
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
                return ask(gs, row, 1, ASK_OPTION, options)
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
        # Influence: interaction (10.2) does not exist yet
        set_error(gs, ERR_INTERACTION, erow(es, row)[1], gs.turn.resolving_card)
        return RES_ERROR
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
        gs.combat.attack[<int>MELEE][<int>PHYSICAL] += a[0] + a[1] * k + ambush_bonus(gs, 0)
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
        # 5.1.5) to get `then`.  optional=1: ASK_DONE (63) declines.  ASK_OPTION = payment code.
        if choice < 0:
            options = pay_options(gs, a[0]) if a[2] >= 0 and node_playable(gs, es, a[2]) else 0
            if options == 0:
                if a[1] == 1:
                    return RES_DONE                              # cannot pay: nothing happens
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)   # 6.2.1
                return RES_ERROR
            if a[1] == 1:
                return ask(gs, row, 0, ASK_OPTION, options | ((<uint64_t>1) << ASK_DONE))
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_OPTION, options)
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
            push_card(pl.hand, &pl.n_hand, card)
        else:
            push_card(pl.discard, &pl.n_discard, card)
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
        # Stage 0: colour (ASK_COLOUR), 1: payment (ASK_OPTION = payment code), 2: offer slot.
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
                return ask(gs, row, 1, ASK_OPTION, options)
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
        push_card(pl.hand, &pl.n_hand, card)
        return RES_DONE
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR


cdef bint advanced_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    """Whether the handler can do something now (called while the card is still in hand)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef const int32_t* a
    cdef int i, c
    if local == H_ICE_SHIELD_BLOCK or local == H_BLOCK_DOUBLE_VS_SWIFT or local == H_SHIELD_BASH:
        return gs.phase == PH_COMBAT_BLOCK                        # 11.6.3
    if local == H_COUNTERATTACK:
        return gs.phase == PH_COMBAT_ATTACK                       # 11.8: a melee Attack
    if local == H_PAY_MANA_BY_COLOUR:
        return mana_colour_options(gs, es, row) != 0
    if local == H_THROW_AWAY_BY_COLOUR:
        return special_timing(gs) and throw_away_options(gs, es, row, True) != 0
    if local == H_IN_NEED or local == H_HEROIC_TALE:
        return gs.phase == PH_INTERACT                            # 10.2
    if local == H_TERRAIN_COST_SET or local == H_TERRAIN_PASSABLE:
        return gs.phase == PH_MOVE                                # 9.6.1: movement effects
    if local == H_MANA_COST:
        a = row_args(es, row)
        if a[1] == 1:
            return gs.phase == PH_MOVE or special_timing(gs)      # optional: may be declined
        return a[2] >= 0 and pay_options(gs, a[0]) != 0 and node_playable(gs, es, a[2])
    if local == H_INTO_THE_HEAT:
        return gs.combat.active != 0 and gs.turn.heat_window == 1   # "at the start of combat"
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

