# The Spell cards' rules that belong to the turn flow, included into ext/_engine.pyx: the
# combat helpers of these cards (their combat-timed parts are subscribers of the lifecycle
# events in ext/_fx_spells.pyx / _fx_artifacts.pyx: spells_event, artifacts_event), the actions
# they open (Possess's and Wings of Night's targets, Space Bending's moves), the end of turn
# (rings_fame, Time Bending) and of the round (Mana Claim), and the recruiting of Call to Arms
# and the free recruit (Units rules: _engine_units.pxi).  The loop calls these directly; the
# Spell handlers themselves are the registry module ext/_fx_spells.pyx, which reaches what it
# shares with them through ext/_engine.pxd.

from libc.stdlib cimport abs
from mksim._types cimport FOREST, DESERT, SIEGE, RANGED, FIRE, ICE, PHYSICAL, MAX_HEXES, CE_GONE, CE_NO_ATTACK
from mksim._combat cimport (defeat_enemy, enemy_ability, AB_ARCANE_IMMUNITY, AB_SUMMON, fortification_level,
                            attack_element, enemy_attack_value, all_attacks_blocked, RES_FIRE)


# -- small helpers shared with the handler groups (declared in ext/_engine.pxd) --------------

cdef inline bint outside_combat_now(const GameState* gs) noexcept nogil:
    """Movement part or rest of a turn: where Heal and 'outside combat' effects go (12.4.1)."""
    return gs.phase == PH_MOVE or gs.phase == PH_REST


cdef inline bint special_now(const GameState* gs) noexcept nogil:
    """6.3.3: a special effect may be played any time during the turn, combat and
    interaction included."""
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0


cdef void count_refused_card() noexcept nogil:
    """A card a full zone refused (as push_card counts them: the game stops with ERR_CAPACITY
    after the action); for the handler modules, which cannot reach the engine's counter."""
    global mksim_cards_refused
    mksim_cards_refused += 1


cdef uint32_t defeated_mask(const GameState* gs) noexcept nogil:
    """Combat slots defeated so far; summoned monsters left out (no Fame for them, 21.2 A18)."""
    cdef int s
    cdef uint32_t m = 0
    for s in range(gs.combat.n_enemies):
        if gs.combat.enemies[s].flags & CE_DEFEATED and gs.combat.enemies[s].summoned_by < 0:
            m |= (<uint32_t>1) << s
    return m


cdef int popcount32(uint32_t m) noexcept nogil:
    cdef int n = 0
    while m:
        m &= m - 1
        n += 1
    return n


cdef bint colour_resisted(const GameState* gs, const Statics* st, int s, int colour) noexcept nogil:
    """11.4.2: a red effect has no effect (but its Attack / Block) on a Fire-resistant enemy,
    a blue one none on an Ice-resistant enemy (resistances lost this combat excepted)."""
    cdef const CombatEnemy* e = &gs.combat.enemies[s]
    cdef int res = st.enemies.data[e.enemy * st.enemies.width + st.cols.enemy_resistances] \
        & ~(<int>e.lost_resistances) & ~(<int>e.res_lost)
    return (colour == RED and res & RES_FIRE) or (colour == BLUE and res & RES_ICE)


cdef void destroy(GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Destroy an enemy: defeated, with its Fame (11.5.7); not an Arcane Immune one (LL-6.7.1)."""
    if not enemy_ability(gs, st, slot, AB_ARCANE_IMMUNITY):
        defeat_enemy(gs, st, slot)


# -- enemy spells: Chill, Disease, Earthquake, Possess, Wings of Night ----------------------

cdef bint has_live_attack(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """An attack still to come; a summoner's before it summons (its summon is its attack,
    LL-6.2.1: one that does not attack summons nothing)."""
    cdef int i
    if gs.phase == PH_COMBAT_RANGED and enemy_ability(gs, st, slot, AB_SUMMON) \
            and not (gs.combat.enemies[slot].flags & CE_NO_ATTACK):
        return True
    for i in range(enemy_n_attacks(gs, st, slot)):
        if attack_is_live(gs, st, slot, i):
            return True
    return False


cdef uint64_t no_attack_targets(const GameState* gs, const Statics* st, int colour) noexcept nogil:
    """Enemies a "does not attack this combat" effect can still help against: an effect may
    act on them (Arcane Immunity LL-6.7.1, 11.4.2) and they have an attack still to come
    (Block phase or Assign Damage phase not over for it)."""
    cdef uint64_t o = enemy_effect_targets(gs, st, colour), m = 0
    cdef int s
    if gs.phase == PH_COMBAT_ATTACK:
        return 0
    for s in range(gs.combat.n_enemies):
        if (o >> s) & 1 and has_live_attack(gs, st, s):
            m |= (<uint64_t>1) << s
    return m


cdef void set_armor_delta(CombatEnemy* e, int d) noexcept nogil:
    if d < -100:
        d = -100
    if d > 100:
        d = 100
    e.armor_delta = <int8_t>d


cdef int legal_possess(const GameState* gs, const Statics* st, int32_t* out, int n) noexcept nogil:
    """A_POSSESS: in the Attack phase, the possessed Attack may join the pool when another
    enemy can be targeted (it may be used only against other enemies).  The Attack and the
    enemy are combat-long modifiers (MK_POSSESS_ATTACK per element, MK_POSSESSED)."""
    cdef int s, possessed
    if gs.phase != PH_COMBAT_ATTACK or not mod_has(&gs.turn, MK_POSSESS_ATTACK) or gs.combat.possess_lock != 0:
        return n
    if mod_sum(&gs.turn, MK_POSSESS_ATTACK) <= 0:
        return n
    possessed = mod_sum(&gs.turn, MK_POSSESSED)
    for s in range(gs.combat.n_enemies):
        if s + 1 != possessed and is_targetable(gs, s):
            if n < MAX_ACTIONS:
                out[n] = act(A_POSSESS, 0)
                n += 1
            return n
    return n


cdef int apply_possess(GameState* gs, const Statics* st) noexcept nogil:
    """Possess: add the Attack to the pool; while it is there no attack may target the
    possessed enemy (Combat.possess_lock, checked by attack_value; cleared with the pool).
    The Attack is used up (its modifiers go); the possessed enemy's stays for the combat."""
    cdef int el
    for el in range(4):
        gs.combat.attack[<int>MELEE][el] += mod_sum_arg(&gs.turn, MK_POSSESS_ATTACK, el + 1)
    mod_remove_kind(&gs.turn, MK_POSSESS_ATTACK)
    gs.combat.possess_lock = <int8_t>mod_sum(&gs.turn, MK_POSSESSED)
    return ERR_NONE


cdef inline int wings_cost(const GameState* gs) noexcept nogil:
    """Move for Wings of Night's next target: its modifier's value (MK_WINGS, combat-long,
    made with the first target, which is free); -1 = Wings of Night not played this combat."""
    cdef int i = mod_find(&gs.turn, MK_WINGS)
    return gs.turn.mods[i].value if i >= 0 else -1


cdef uint64_t wings_options(const GameState* gs, const Statics* st) noexcept nogil:
    """Enemies Wings of Night can still target now, its cost paid."""
    cdef int cost = wings_cost(gs)
    if cost < 0 or gs.turn.move_points < cost:
        return 0
    return no_attack_targets(gs, st, WHITE)


cdef void wings_take(GameState* gs, int slot) noexcept nogil:
    """One more Wings of Night target, paid: the next one costs the step more (the
    modifier's arg)."""
    cdef int i = mod_find(&gs.turn, MK_WINGS)
    if i < 0:
        return
    gs.turn.move_points -= gs.turn.mods[i].value
    gs.turn.mods[i].value = <int8_t>(gs.turn.mods[i].value + gs.turn.mods[i].arg)
    gs.combat.enemies[slot].flags |= CE_NO_ATTACK                # LL-6.1.4


cdef bint wings_move_usable(const GameState* gs, const Statics* st) noexcept nogil:
    """Move has a use in this combat: more Wings of Night targets (before the Attack phase)."""
    return gs.combat.active != 0 and mod_has(&gs.turn, MK_WINGS) and gs.phase != PH_COMBAT_ATTACK \
        and no_attack_targets(gs, st, WHITE) != 0


cdef int legal_wings_target(const GameState* gs, const Statics* st, int32_t* out, int n) noexcept nogil:
    cdef uint64_t o = wings_options(gs, st)
    cdef int s
    for s in range(gs.combat.n_enemies):
        if (o >> s) & 1 and n < MAX_ACTIONS:
            out[n] = act(A_WINGS_TARGET, s)
            n += 1
    return n


cdef int apply_wings_target(GameState* gs, const Statics* st, int slot) noexcept nogil:
    wings_take(gs, slot)
    return ERR_NONE


cdef void time_bending_end(GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """Time Bending, end of turn: the card is set aside until the end of the round (LL-9.6.4);
    every other card played this turn returns to the hand (no draw: finish_turn); another
    turn follows (TurnState.extra_turn, as after The Right Moment, 3.2)."""
    cdef Player* pl = &gs.players[p]
    cdef int i, card = gs.turn.time_bending - 1
    cdef bint aside = False
    if gs.turn.time_bending == 0:
        return
    for i in range(pl.n_play):
        if not aside and pl.play_area[i] == card and pl.n_set_aside < 4:
            pl.set_aside[pl.n_set_aside] = <int16_t>card
            pl.n_set_aside += 1
            aside = True
        else:
            push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, pl.play_area[i])
    pl.n_play = 0
    gs.turn.extra_turn = 1


# -- Units: Call to Arms, Call to Glory (7) -------------------------------------------------

cdef uint64_t offer_ability_options(const GameState* gs, const EngineStatics* es, int u) noexcept nogil:
    """Abilities of unit `u` usable now (7.3.1), with their mana payable (5.4.4)."""
    cdef uint64_t o = 0
    cdef int a, ab, eff, mana, pay, npay = n_pay_codes(gs)
    for a in range(unit_value(es, u, es.units.n_abilities)):
        ab = unit_value(es, u, es.units.first_ability) + a
        eff = es.units.ability[ab * es.units.ability_stride]
        mana = es.units.ability[ab * es.units.ability_stride + 1]
        if not ability_playable(gs, es, u, 7, eff, mana):     # its mana's colour (11.4.2)
            continue
        if mana < 0:
            o |= (<uint64_t>1) << a
        else:
            for pay in range(npay):
                if pay_ok(gs, pay, mana):
                    o |= (<uint64_t>1) << a
                    break
    return o


cdef uint64_t call_to_arms_offer(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Unit-offer slots whose unit has an ability usable now; Units are used only where
    allowed (7.3.8); never a unit recruited only by interaction ("!": Delphana Masters,
    LL-4.4.1, and Magic Familiars, LL-4.5.3)."""
    cdef uint64_t o = 0
    cdef int k, u
    if not units_usable_now(gs):
        return 0
    for k in range(gs.n_unit_offer):
        u = gs.unit_offer[k]
        if u >= 0 and reward_gainable(es, u) and unit_special(es, u) != SU_UNKNOWN \
                and not (unit_special(es, u) == SU_HEROES and gs.combat.reason == CK_ASSAULT) \
                and offer_ability_options(gs, es, u) != 0:    # LL-4.3.2: Heroes need paying there
            o |= (<uint64_t>1) << k
    return o


cdef uint64_t recruit_free_offer(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Unit-offer slots a free-recruit effect may take: any unit but those that refuse it
    (Magic Familiars, Delphana Masters; LL-4.4.1, LL-4.5)."""
    cdef uint64_t o = 0
    cdef int k, u
    for k in range(gs.n_unit_offer):
        u = gs.unit_offer[k]
        if u >= 0 and reward_gainable(es, u) and unit_special(es, u) != SU_UNKNOWN:
            o |= (<uint64_t>1) << k
    return o


cdef int call_to_arms(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                      int choice) noexcept nogil:
    """Call to Arms: use one ability of a Unit in the Unit offer as if it were yours (it
    stays in the offer, is not Spent, and no damage can be assigned to it, not being yours).
    Stage 0: the offer slot (ASK_OFFER); stage 1: the ability (ASK_OPTION); stage 2: the
    payment of its mana (ASK_PAYMENT, 5.4.4).  Its effect then resolves as a
    Unit's (7.3.3).  hvars[0] = unit, hvars[1] = ability row."""
    cdef uint64_t o
    cdef int u, ab, mana, pay, npay = n_pay_codes(gs)
    if choice < 0:
        return ask(gs, row, 0, ASK_OFFER, call_to_arms_offer(gs, es))
    if gs.turn.handler_stage == 0:
        u = gs.unit_offer[choice]
        if unit_special(es, u) == SU_UNKNOWN:                    # special rules not known
            set_error(gs, ERR_UNIT_RULES, u, UNIT_CARD_BASE - u * 8)
            return RES_ERROR
        gs.turn.hvars[0] = <int16_t>u
        o = offer_ability_options(gs, es, u)
        if o & (o - 1):
            return ask(gs, row, 1, ASK_OPTION, o)
        choice = single_option(o)
        gs.turn.handler_stage = 1
    u = gs.turn.hvars[0]
    if gs.turn.handler_stage == 1:
        ab = unit_value(es, u, es.units.first_ability) + choice
        gs.turn.hvars[1] = <int16_t>ab
        mana = es.units.ability[ab * es.units.ability_stride + 1]
        if mana >= 0:
            o = 0
            for pay in range(npay):
                if pay_ok(gs, pay, mana):
                    o |= (<uint64_t>1) << pay
            if o & (o - 1):
                return ask(gs, row, 2, ASK_PAYMENT, o)
            pay_take(gs, single_option(o), mana)
    else:
        ab = gs.turn.hvars[1]
        pay_take(gs, choice, es.units.ability[ab * es.units.ability_stride + 1])
    gs.turn.resolving_card = <int16_t>(UNIT_CARD_BASE - (u * 8 + 7))   # a Unit's ability, no slot of yours
    mana = es.units.ability[ab * es.units.ability_stride + 1]
    gs.turn.fx_colour = <int8_t>(mana + 1 if 0 <= mana < 4 else 0)   # 11.4.2: red / blue mana
    gs.turn.fx_colour_by = gs.turn.resolving_card                    # as activate_unit
    return push_eval(gs, es.units.ability[ab * es.units.ability_stride])


cdef int recruit_free(GameState* gs, const EngineStatics* es, int p, int row, int choice) noexcept nogil:
    """Call to Glory / Banner of Command: recruit any Unit of the offer for free, whatever
    the site (7.2); with no free Command token one Unit is disbanded first (7.2.4).  Stage 0:
    the offer slot (ASK_OFFER); stage 1: the Unit to disband (ASK_UNIT).  hvars[0] = slot."""
    cdef Player* pl = &gs.players[p]
    cdef uint64_t o = 0
    cdef int k, u, i
    if choice < 0:
        return ask(gs, row, 0, ASK_OFFER, recruit_free_offer(gs, es))
    if gs.turn.handler_stage == 0:
        k = choice
        u = gs.unit_offer[k]
        if unit_special(es, u) == SU_UNKNOWN:                    # special rules not known
            set_error(gs, ERR_UNIT_RULES, u, UNIT_CARD_BASE - u * 8)
            return RES_ERROR
        if units_held(pl) >= pl.command_tokens:
            gs.turn.hvars[0] = <int16_t>k
            for i in range(MAX_UNITS_):
                if pl.units[i].card >= 0:
                    o |= (<uint64_t>1) << i
            return ask(gs, row, 1, ASK_UNIT, o)
    else:
        disband(pl, choice)                                      # 7.2.4
        k = gs.turn.hvars[0]
    u = gs.unit_offer[k]
    remove_offer_slot(gs, k)                                     # 6.4.3
    if gain_unit(gs, pl, u) < 0:                                 # 7.2.3: Ready
        return RES_ERROR
    heroic_tale_recruited(gs, pl)                                # Heroic Tale (_fx_advanced)
    return RES_DONE


cdef void mana_claim_turn_start(GameState* gs, Player* pl) noexcept nogil:
    """Mana Claim (per turn): tokens of the kept die's colour at the start of each turn."""
    if pl.claimed_die > 0 and pl.claim_per_turn > 0:
        gs.turn.mana_tokens[pl.claimed_die - 1] += pl.claim_per_turn


cdef void spells_round_end(GameState* gs) noexcept nogil:
    """Mana Claim: the kept die returns to the Source at the end of the round (before the
    reroll of 2.2.2); cards set aside by Time Bending go to the discard pile (then 2.2.8)."""
    cdef int p, i
    cdef Player* pl
    for p in range(gs.n_players):
        pl = &gs.players[p]
        if pl.claimed_die > 0 and gs.n_dice < MAX_DICE:
            gs.dice[gs.n_dice] = <int8_t>(pl.claimed_die - 1)
            gs.n_dice += 1
        pl.claimed_die = 0
        pl.claim_per_turn = 0
        for i in range(pl.n_set_aside):                          # Time Bending (LL-9.6.4)
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, pl.set_aside[i])
        pl.n_set_aside = 0


# -- Space Bending moves --------------------------------------------------------------------

cdef enum:
    BEND_MOVE = 8              # A_MOVE arguments from 8 on: 8 + the hex moved to


cdef inline int hex_distance(const GameState* gs, int a, int b) noexcept nogil:
    cdef int dq = gs.hexes[b].q - gs.hexes[a].q, dr = gs.hexes[b].r - gs.hexes[a].r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


cdef bint bend_ok(const GameState* gs, const Statics* st, int h, int to) noexcept nogil:
    """A Space Bending step: exactly 2 spaces away, accessible (9.2), no rampaging enemy on
    it (9.4.2), affordable (9.3.5)."""
    cdef int cost
    if to < 0 or to >= gs.n_hexes or hex_distance(gs, h, to) != 2 or is_rampaging(gs, st, to):
        return False
    cost = move_cost(gs, st, to)
    return cost >= 0 and cost <= gs.turn.move_points


cdef int space_bending_moves(const GameState* gs, const Statics* st, int32_t* out, int n) noexcept nogil:
    cdef int h = gs.players[gs.current].position, to
    if h < 0 or gs.turn.action_taken or not mod_has(&gs.turn, MK_SPACE_BENDING):
        return n
    for to in range(gs.n_hexes):
        if bend_ok(gs, st, h, to) and n < MAX_ACTIONS - 1:
            out[n] = act(A_MOVE, BEND_MOVE + to)
            n += 1
    return n


cdef int space_bending_move(GameState* gs, const EngineStatics* es, const Statics* st, int p, int to) noexcept nogil:
    """Move 2 spaces as if adjacent: pay the space entered (9.2.1), no provoking (9.4.3);
    entering a fortified site is still an assault (9.4.1)."""
    cdef Player* pl = &gs.players[p]
    cdef int b = pl.position
    gs.turn.move_points -= move_cost(gs, st, to)
    pl.position = <int16_t>to
    if gs.turn.n_path < MAX_PATH:
        gs.turn.path[gs.turn.n_path] = <int16_t>to
        gs.turn.n_path += 1
    gs.turn.moved = 1
    if ends_movement(gs, st, to, p):
        return fight_after_move(gs, es, st, p, b, to, 0)
    return ERR_NONE


# -- hooks ----------------------------------------------------------------------------------

cdef void rings_fame(GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """Rings (thrown away): Fame per Spell of the ring's colour cast this turn - played from
    the hand for its basic or powered effect (5.4.2-5.4.3), not sideways (6.1.7: a sideways
    card gives only Move / Influence / Attack / Block 1) - counted in `spells_cast`.
    ring_fame: 2 bits of Fame per colour."""
    cdef Player* pl = &gs.players[p]
    cdef int c
    if gs.turn.ring_fame == 0:
        return
    for c in range(4):
        pl.fame += ((gs.turn.ring_fame >> (2 * c)) & 3) * gs.turn.spells_cast[c]
