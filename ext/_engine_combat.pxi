# Actions at sites and combat in the decision loop (rules 4.4.3-4.4.5, 10.7, 10.8, 11, 13.5),
# included into ext/_engine.pyx.  The combat rules themselves are in ext/_combat.pyx; this
# file decides when a combat starts, which decisions a player has in each phase, and what
# the outcome means for the site (11.12).

cdef enum CombatReason:        # Combat.reason
    CK_RAMPAGING = 0           # provoked (11.1.6) or challenged (11.1.5) rampaging enemies
    CK_ASSAULT = 1             # entering a fortified site (11.1.1)
    PILE_GREY_TOKENS = 1       # the grey enemy pile (11.14; _state.PILE_GREY)
    CK_ADVENTURE = 2           # entering an adventure site (11.1.3, 10.8)
    CK_BURN = 3                # burning a monastery (11.1.4)

cdef enum:
    # ruins table columns (Engine._bind_sites)
    RUINS_KIND = 0             # 0 altar, 1 enemies
    RUINS_TRIBUTE = 1          # 1..4: mana of each basic colour to pay
    RUINS_FAME = 5
    RUINS_N_ENEMIES = 6
    RUINS_ENEMIES = 7          # 7..9: enemy piles
    RUINS_N_REWARDS = 10
    RUINS_REWARDS = 11         # 11..14: reward codes
    RUINS_WIDTH = 16
    # site table columns
    ST_N_REWARDS = 0
    ST_REWARDS = 1             # 1..8
    ST_N_ENTER = 9
    ST_ENTER = 10              # 10..13: piles drawn on entering
    ST_UNITS = 14
    ST_NIGHT = 15
    ST_WIDTH = 16
    # reward codes (content.REWARDS order)
    RW_ARTIFACT = 0
    RW_SPELL = 1
    RW_AA = 2
    RW_UNIT = 3
    RW_CRYSTAL_RANDOM = 4
    RW_CRYSTAL_EACH = 5
    RW_DUNGEON_ROLL = 6
    RW_FAME = 7
    MAX_TARGET_ENEMIES = 8     # enemies considered for target subsets (2^8 commits at most)
    PLUNDER_CARDS = 2          # 10.7.1.4 [R]: cards drawn for plundering a village


cdef inline const int32_t* site_row(const EngineStatics* es, int site) noexcept nogil:
    return es.site_table + site * ST_WIDTH


cdef inline bint in_combat(const GameState* gs) noexcept nogil:
    return gs.combat.active != 0


cdef void add_reward(GameState* gs, int code) noexcept nogil:
    if gs.turn.n_rewards < 16:
        gs.turn.rewards[gs.turn.n_rewards] = <uint8_t>code
        gs.turn.n_rewards += 1


cdef int hex_site(const GameState* gs, int h) noexcept nogil:
    return gs.hexes[h].site if h >= 0 else -1


cdef inline void stat_conquered(GameState* gs, int p, int h) noexcept nogil:
    """Results store: player p conquered / shielded / burned the site on hex h."""
    cdef int site = gs.hexes[h].site
    if 0 <= p < MAX_PLAYERS and 0 <= site < NUM_SITE_KINDS:
        gs.players[p].stats.conquered[site] += 1


cdef int begin_fight(GameState* gs, const EngineStatics* es, const Statics* st, const int* tokens,
                     const int* origin, int n, int site_hex, uint32_t fortified_mask,
                     uint32_t rampaging_mask, int night, int units, int reason) noexcept nogil:
    """Start a combat: it is the turn's action (4.4.3-4.4.5); unspent Move is lost (4.4.7)."""
    cdef int k, res
    for k in range(n):
        if origin[k] >= 0:
            gs.hexes[origin[k]].flags |= HEX_TOKENS_REVEALED       # 11.3.1: revealed
    res = combat_begin(gs, st, tokens, origin, n, site_hex, fortified_mask, rampaging_mask, night, units)
    if res < 0:
        set_error(gs, ERR_CAPACITY, 3, -1)
        return ERR_CAPACITY
    gs.combat.reason = <int8_t>reason
    gs.turn.heat_window = 2                                        # start of combat (Into the Heat)
    gs.turn.healing = 0                                            # 12.4.2: lost on entering combat
    gs.turn.grail_fame = 0
    gs.turn.action_taken = 1
    gs.turn.move_points = 0                                        # 4.4.7
    gs.turn.influence = 0                                          # LL-9.3.4 (Learning while moving)
    coop_combat_start(gs, es, st)                                  # LL-7 Wolfhawk's (_fx_skills)
    return ERR_NONE


cdef int collect_hex_tokens(const GameState* gs, int h, int* tokens, int* origin, int n) noexcept nogil:
    cdef int k
    for k in range(gs.hexes[h].n_tokens):
        if n < MAX_COMBAT_ENEMIES:
            tokens[n] = gs.hexes[h].tokens[k]
            origin[n] = h
            n += 1
    return n


cdef int fight_after_move(GameState* gs, const EngineStatics* es, const Statics* st, int p,
                          int from_hex, int to_hex, int provoked_dirs) noexcept nogil:
    """A move that assaults a fortified site (9.4.1, 11.1.1) and/or provokes rampaging
    enemies (9.4.3, 11.1.6): one combat with all of them (11.2.2)."""
    cdef int tokens[MAX_COMBAT_ENEMIES]
    cdef int origin[MAX_COMBAT_ENEMIES]
    cdef int n = 0, d, h, k
    cdef uint32_t fort = 0, ramp = 0
    cdef bint assault = ends_movement(gs, st, to_hex, p)
    cdef int q
    if assault and (gs.hexes[to_hex].flags & HEX_CONQUERED):      # another player's keep (9.4.1)
        for q in range(gs.n_players):
            if q != p and gs.players[q].position == to_hex:
                # 10.7.3.5: with its owner there it would be PvP, which First Reconnaissance
                # forbids (17.3.1, 19.7.3): movement ends, no action (9.7.5), and Forced
                # Withdrawal at the end of the turn (13.2; the space is not safe, 9.7.1)
                gs.turn.move_points = 0
                gs.turn.action_taken = 1
                return ERR_NONE
        if hex_site(gs, to_hex) != es.sites.keep or gs.hexes[to_hex].owner == p \
                or gs.hexes[to_hex].owner < 0:
            set_error(gs, ERR_HEROES, HEROES_OPPONENT_KEEP, -1)     # (no other conquered
            return ERR_HEROES                                       # site ends a move so)
        # 10.7.3.5 / 11.1.2 without its owner: an assault (Reputation -1, 11.1.1) on a
        # random grey enemy drawn as the garrison, fortified (11.10.1); half Fame, rounded
        # up (opponent_keep_fame), and the keep is the winner's (conquer_fortified: the
        # Shield replaced).  Engine reading: an undefeated drawn garrison is discarded (it
        # was drawn for this assault; the keep stays its owner's, 11.12.4 withdrawal).
        change_reputation(&gs.players[p], es.sites.rep_assault)
        tokens[0] = draw_token(gs, PILE_GREY_TOKENS)
        origin[0] = -1
        if tokens[0] < 0:                                          # the grey pile is empty
            gs.turn.action_taken = 1                               # (21.2 A14): no defender,
            gs.turn.move_points = 0                                # so the keep is taken
            conquer_fortified(gs, es, p, to_hex)
            return ERR_NONE
        n = 1                                                      # the garrison; provoked
        fort = 1                                                   # enemies join below
    elif assault:
        change_reputation(&gs.players[p], es.sites.rep_assault)    # 11.1.1: whatever the outcome
        n = collect_hex_tokens(gs, to_hex, tokens, origin, n)
        fort = (<uint32_t>1 << n) - 1                               # 11.10.1
    for d in range(6):
        if (provoked_dirs >> d) & 1:
            h = gs.hexes[from_hex].neighbour[d]
            k = n
            n = collect_hex_tokens(gs, h, tokens, origin, n)
            while k < n:
                ramp |= <uint32_t>1 << k                           # 11.2.2: not fortified
                k += 1
    if n == 0:
        if assault:
            # no garrison token lies here: its pile was empty when the site was revealed
            # (9.9.3-9.9.4 drew nothing, 21.2 A14).  The assault still costs Reputation
            # (11.1.1) and is the turn's action; with every defender (none) defeated the
            # site is conquered (11.12.3).
            gs.turn.action_taken = 1
            gs.turn.move_points = 0                                # 4.4.7
            conquer_fortified(gs, es, p, to_hex)
        return ERR_NONE
    gs.combat.from_hex = <int16_t>from_hex
    return begin_fight(gs, es, st, tokens, origin, n, to_hex if assault else -1, fort, ramp, 0, 1,
                       CK_ASSAULT if assault else CK_RAMPAGING)


cdef bint enterable_site(const GameState* gs, const EngineStatics* es, int h) noexcept nogil:
    """10.8.1: an adventure site with enemies to fight (dungeon and tomb draw theirs)."""
    cdef int site = hex_site(gs, h)
    cdef const int32_t* sr
    if site < 0:
        return False
    if site == es.sites.dungeon or site == es.sites.tomb:
        return True                                                # 10.7.6.4, 10.7.7.1
    if site == es.sites.monster_den or site == es.sites.spawning_grounds:
        return not (gs.hexes[h].flags & HEX_CONQUERED)
    if site == es.sites.ancient_ruins:
        return (not (gs.hexes[h].flags & HEX_CONQUERED) and gs.hexes[h].ruins >= 0
                and es.ruins[gs.hexes[h].ruins * RUINS_WIDTH + RUINS_KIND] == 1)
    return False


cdef int enter_site(GameState* gs, const EngineStatics* es, const Statics* st, int p) noexcept nogil:
    """10.8: fight the site's enemies: tokens already there, else drawn now (9.9.7)."""
    cdef int tokens[MAX_COMBAT_ENEMIES]
    cdef int origin[MAX_COMBAT_ENEMIES]
    cdef int h = gs.players[p].position
    cdef int site = hex_site(gs, h)
    cdef const int32_t* sr = site_row(es, site)
    cdef const int32_t* rr
    cdef int n = 0, k, tok
    if gs.hexes[h].ruins >= 0:
        gs.hexes[h].flags |= HEX_RUINS_REVEALED                    # 9.10.2: revealed on entering
    n = collect_hex_tokens(gs, h, tokens, origin, 0)               # 10.7.8.3 / 10.7.10.3 survivors
    if n == 0:
        if site == es.sites.ancient_ruins:
            rr = es.ruins + gs.hexes[h].ruins * RUINS_WIDTH
            for k in range(rr[RUINS_N_ENEMIES]):                   # 10.7.10.2
                tok = draw_token(gs, rr[RUINS_ENEMIES + k])
                if tok >= 0 and n < MAX_COMBAT_ENEMIES:
                    tokens[n] = tok
                    origin[n] = -1
                    n += 1
        else:
            for k in range(sr[ST_N_ENTER]):                        # 10.7.6-10.7.9
                tok = draw_token(gs, sr[ST_ENTER + k])
                if tok >= 0 and n < MAX_COMBAT_ENEMIES:
                    tokens[n] = tok
                    origin[n] = -1
                    n += 1
    if n == 0:
        return ERR_NONE                                            # 21.2 A14: nothing to fight
    gs.combat.from_hex = <int16_t>h
    return begin_fight(gs, es, st, tokens, origin, n, h, 0, 0, sr[ST_NIGHT], sr[ST_UNITS], CK_ADVENTURE)


cdef int burn_monastery(GameState* gs, const EngineStatics* es, const Statics* st, int p) noexcept nogil:
    """10.7.2.3 / 11.1.4: Reputation -3, then fight a random violet enemy without Units."""
    cdef int tokens[1]
    cdef int origin[1]
    change_reputation(&gs.players[p], es.sites.rep_burn)
    tokens[0] = draw_token(gs, 2)                                  # violet pile (11.14)
    origin[0] = -1
    if tokens[0] < 0:
        gs.turn.action_taken = 1
        return ERR_NONE
    gs.combat.from_hex = gs.players[p].position
    return begin_fight(gs, es, st, tokens, origin, 1, gs.players[p].position, 0, 0, 0, 0, CK_BURN)


cdef int challenge(GameState* gs, const EngineStatics* es, const Statics* st, int p, int dirs) noexcept nogil:
    """11.1.5: challenge rampaging enemies on adjacent spaces."""
    cdef int tokens[MAX_COMBAT_ENEMIES]
    cdef int origin[MAX_COMBAT_ENEMIES]
    cdef int n = 0, d, h = gs.players[p].position
    for d in range(6):
        if (dirs >> d) & 1:
            n = collect_hex_tokens(gs, gs.hexes[h].neighbour[d], tokens, origin, n)
    gs.combat.from_hex = <int16_t>h
    return begin_fight(gs, es, st, tokens, origin, n, -1, 0, (<uint32_t>1 << n) - 1, 0, 1, CK_RAMPAGING)


cdef int rampaging_dirs(const GameState* gs, const Statics* st, int h) noexcept nogil:
    cdef int d, nb, mask = 0
    for d in range(6):
        nb = gs.hexes[h].neighbour[d]
        if nb >= 0 and is_rampaging(gs, st, nb):
            mask |= 1 << d
    return mask


cdef int legal_site_actions(const GameState* gs, const EngineStatics* es, const Statics* st,
                            int32_t* out, int n) noexcept nogil:
    """The turn's one action (4.4.4), offered in the movement part while none was taken."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int h = pl.position, site, dirs, sub, q
    if h < 0 or gs.turn.action_taken:
        return n
    site = hex_site(gs, h)
    if site != es.portal_site and not (site == es.city_site and (gs.hexes[h].flags & HEX_CONQUERED)):
        for q in range(gs.n_players):                          # 9.5.4, 9.7.5, 19.7.3: on another
            if q != gs.current and gs.players[q].position == h:    # hero's space no action (no
                return n                                       # PvP; Forced Withdrawal at the end)
    dirs = rampaging_dirs(gs, st, h)
    sub = dirs
    while sub > 0 and n < MAX_ACTIONS:                             # 11.1.5: any of them
        out[n] = act(A_CHALLENGE, sub)
        n += 1
        sub = (sub - 1) & dirs
    if enterable_site(gs, es, h) and n < MAX_ACTIONS:
        out[n] = act(A_ENTER_SITE, 0)
        n += 1
    if site == es.sites.monastery and not (gs.hexes[h].flags & HEX_BURNED) and n < MAX_ACTIONS:
        out[n] = act(A_BURN, 0)
        n += 1
    if (site == es.sites.ancient_ruins and not (gs.hexes[h].flags & HEX_CONQUERED)
            and gs.hexes[h].ruins >= 0 and es.ruins[gs.hexes[h].ruins * RUINS_WIDTH + RUINS_KIND] == 0):
        n = legal_altar(<GameState*>gs, es, gs.hexes[h].ruins, out, n)   # 10.7.10.2, 21.2 A23
    if can_interact(gs, es, gs.current) and n < MAX_ACTIONS:      # 10.2.1, 10.2.3 (_engine_units.pxi)
        out[n] = act(A_INTERACT, 0)
        n += 1
    return n


# Cumbersome (LL-6.5): Move points played during the combat (LL-6.5.4: move_points starts
# the combat at 0, 4.4.7) reduce a Cumbersome attack in the Block phase, one point per action.

cdef bint cumbersome_reducible(const GameState* gs, const Statics* st, int slot, int i) noexcept nogil:
    """Attack i of the enemy in `slot` may be reduced with Move now (LL-6.5.2): the Block
    phase, a Cumbersome token (its ability applies to each attack, LL-6.1.8; the reduction
    targets the attack, so Arcane Immunity does not stop it, LL-6.7.4, LL-6.7.6), the attack
    still live (not blocked, not prevented) and above 0 (at 0 it is already blocked,
    LL-6.5.3)."""
    return gs.combat.active != 0 and gs.phase == PH_COMBAT_BLOCK \
        and enemy_ability(gs, st, slot, AB_CUMBERSOME) != 0 and attack_is_live(gs, st, slot, i) \
        and enemy_attack_value(gs, st, slot, i) > 0


cdef bint cumbersome_move_usable(const GameState* gs, const Statics* st) noexcept nogil:
    """Move has a use in this Block phase: a Cumbersome attack left to reduce (LL-6.5.2)."""
    cdef int s, i
    if not gs.combat.active or gs.phase != PH_COMBAT_BLOCK:
        return False
    for s in range(gs.combat.n_enemies):
        for i in range(enemy_n_attacks(gs, st, s)):
            if cumbersome_reducible(gs, st, s, i):
                return True
    return False


cdef int legal_cumbersome(const GameState* gs, const Statics* st, int32_t* out, int n) noexcept nogil:
    """A_CUMBERSOME(slot | attack << 5) for each reducible attack while a Move point is left
    (LL-6.5.2; several attacks: each point reduces one chosen attack, LL-6.5.5)."""
    cdef int s, i
    if gs.turn.move_points <= 0 or not gs.combat.active or gs.phase != PH_COMBAT_BLOCK:
        return n
    for s in range(gs.combat.n_enemies):
        for i in range(enemy_n_attacks(gs, st, s)):
            if cumbersome_reducible(gs, st, s, i) and n < MAX_ACTIONS:
                out[n] = act(A_CUMBERSOME, s | (i << 5))
                n += 1
    return n


cdef int apply_cumbersome(GameState* gs, const Statics* st, int arg) noexcept nogil:
    """Spend 1 Move point: that Cumbersome attack -1 for the Block and Assign Damage phases
    (LL-6.5.2-6.5.3; Swift then doubles the reduced value, Brutal doubles the reduced damage,
    LL-6.5.5); reduced to 0 it counts as blocked (LL-6.5.3, reduce_attack)."""
    cdef int slot = arg & 0x1F, i = arg >> 5
    if reduce_attack(gs, st, slot, i, 1) < 0:                  # legal_cumbersome listed it
        set_error(gs, ERR_INTERNAL, INTERNAL_CUMBERSOME, -1)
        return ERR_INTERNAL
    gs.turn.move_points -= 1
    return ERR_NONE


cdef int legal_combat(const GameState* gs, const EngineStatics* es, const Statics* st,
                      int32_t* out, int n) noexcept nogil:
    """Decisions of the current combat phase (11.3)."""
    cdef const Combat* c = &gs.combat
    cdef int s, i, m, k, armor, na, ph = gs.phase
    cdef int slots[MAX_TARGET_ENEMIES]
    cdef uint32_t mask, targets
    if ph == PH_COMBAT_RANGED or ph == PH_COMBAT_ATTACK:           # 11.5.2 / 11.8
        m = 0
        for s in range(c.n_enemies):
            if is_targetable(gs, s) and m < MAX_TARGET_ENEMIES:
                slots[m] = s
                m += 1
        for mask in range(1, <uint32_t>1 << m):
            targets = 0
            armor = 0
            for k in range(m):
                if (mask >> k) & 1:
                    targets |= <uint32_t>1 << slots[k]
                    armor += enemy_armor(gs, st, slots[k])
            # only commits that defeat their targets are offered: a failing attack has
            # no effect (11.5.8) and its points are lost either way (11.4.5)
            duel_attack_add(<GameState*>gs, targets, 1)               # Dueling (_fx_skills)
            k = attack_value(gs, st, targets, ph)
            duel_attack_add(<GameState*>gs, targets, -1)
            if k >= armor > 0 and n < MAX_ACTIONS:
                out[n] = act(A_COMMIT_ATTACK, <int>targets)
                n += 1
        out[n] = act(A_NEXT_PHASE, 0)
        return n + 1
    if ph == PH_COMBAT_BLOCK:                                      # 11.6.3
        for s in range(c.n_enemies):
            na = enemy_n_attacks(gs, st, s)
            for i in range(na):
                if attack_is_live(gs, st, s, i) and block_value_now(gs, st, s, i) >= block_needed(gs, st, s, i) \
                        and n < MAX_ACTIONS:
                    out[n] = act(A_COMMIT_BLOCK, s | (i << 5))
                    n += 1
        out[n] = act(A_NEXT_PHASE, 0)
        return n + 1
    if ph == PH_COMBAT_DAMAGE:                                     # 11.7
        if c.dmg_slot >= 0:
            if draw_fire_pending(gs, es):                          # Shocktroops first (_engine_units.pxi)
                out[n] = act(A_DAMAGE_UNIT, gs.turn.draw_fire_unit)
                return n + 1
            for i in range(MAX_UNITS_):                            # 12.2.2, 11.7.6, 7.3.8, LL-6.4.1
                if unit_can_take_damage(gs, es, st, i) and n < MAX_ACTIONS:
                    out[n] = act(A_DAMAGE_UNIT, i)
                    n += 1
            out[n] = act(A_DAMAGE_HERO, 0)
            return n + 1
        k = 0
        for s in range(c.n_enemies):
            na = enemy_n_attacks(gs, st, s)
            for i in range(na):
                if attack_is_live(gs, st, s, i) and n < MAX_ACTIONS:
                    out[n] = act(A_DAMAGE_START, s | (i << 5))
                    n += 1
                    k += 1
        if k == 0:
            out[n] = act(A_NEXT_PHASE, 0)
            n += 1
        return n
    return n


cdef int apply_site_action(GameState* gs, const EngineStatics* es, const Statics* st, int p,
                           int kind, int arg) noexcept nogil:
    cdef int h = gs.players[p].position, res, d
    if kind == A_ALTAR:
        return pay_altar(gs, es, p, h, arg)
    if kind == A_INTERACT:
        return start_interaction(gs, es, p)                        # 10.2 (_engine_units.pxi)
    if kind == A_CHALLENGE:
        return challenge(gs, es, st, p, arg)
    if kind == A_ENTER_SITE:
        return enter_site(gs, es, st, p)
    return burn_monastery(gs, es, st, p)                           # A_BURN, the last of these kinds


cdef void damage_assigned(GameState* gs, const EngineStatics* es, const Statics* st, int p,
                          int slot) noexcept nogil:
    """EV_DAMAGE_ASSIGNED (arg: the enemy slot) once the attack of `slot` whose damage was
    being assigned is done: all its damage assigned to Units and the hero (11.7.1-11.7.7)."""
    if slot >= 0 and gs.combat.dmg_slot < 0 and gs.error == ERR_NONE:
        fire_event(gs, es, st, p, EV_DAMAGE_ASSIGNED, slot)


cdef int apply_combat_action(GameState* gs, const EngineStatics* es, const Statics* st, int p,
                             int kind, int arg) noexcept nogil:
    cdef int res, s, i
    if kind == A_COMMIT_ATTACK:
        s = <int>defeated_mask(gs)
        duel_attack_add(gs, <uint32_t>arg, 1)                      # Dueling (_fx_skills)
        res = resolve_attack(gs, st, <uint32_t>arg, gs.phase)
        duel_after_commit(gs, <uint32_t>arg, res)
        chivalry_commit(gs, p, <uint32_t>arg, res)                # Chivalry (_fx_advanced)
        if res >= 0:                                               # Soul Harvester, Bow (_fx_artifacts)
            artifacts_after_attack(gs, es, st, p, defeated_mask(gs) & ~(<uint32_t>s))
            fire_event(gs, es, st, p, EV_ATTACK_COMMITTED, arg)       # arg: the targets' slot bits
        return ERR_NONE if res >= 0 else combat_step_failed(gs)
    if kind == A_COMMIT_BLOCK:
        s = arg & 0x1F
        i = arg >> 5
        res = commit_block(gs, st, s, i)                           # + Advanced Action block effects
        duel_after_commit(gs, (<uint32_t>1) << s, res)             # Dueling (_fx_skills)
        if res > 0:
            fire_event(gs, es, st, p, EV_BLOCK_COMMITTED, s)          # Burning / Exploding Shield, Disease
            artifacts_after_block(gs)                                  # Shield of the Fallen Kings
            units_check_destroy(gs, st)                            # Delphana Masters (_engine_units.pxi)
        return ERR_NONE if res >= 0 else combat_step_failed(gs)
    if kind == A_DAMAGE_START:
        res = damage_start(gs, st, arg & 0x1F, arg >> 5)
        if res >= 0:
            damage_assigned(gs, es, st, p, arg & 0x1F)              # a damage of 0: done at once
        return ERR_NONE if res >= 0 else combat_step_failed(gs)
    if kind == A_DAMAGE_UNIT:
        s = gs.combat.dmg_slot
        if s >= 0 and s == gs.turn.duel_slot - 1:
            gs.turn.duel_units = 1                                 # Dueling: no Fame bonus
        res = units_damage_unit(gs, es, st, arg)                  # Shocktroops, Thugs (_engine_units.pxi)
        if res == ERR_NONE:
            damage_assigned(gs, es, st, p, s)
        return res
    if kind == A_DAMAGE_HERO:
        s = gs.combat.dmg_slot
        res = damage_to_hero(gs, st)
        if res >= 0:
            damage_assigned(gs, es, st, p, s)
        return ERR_NONE if res >= 0 else combat_step_failed(gs)
    if kind == A_NEXT_PHASE:
        gs.turn.duel_pool_units = 0                                # 11.4.5: unused Block is lost, and the units in it
        fire_event(gs, es, st, p, EV_PHASE_END, -1)                   # Bow of Starsdawn, Burning Shield;
        # its expiry ends the Block pool's modifiers (MS_BLOCK, 11.4.5)
        artifacts_phase_end(gs)                                        # _engine_artifacts.pxi
        if gs.phase == PH_COMBAT_ATTACK:
            finish_combat(gs, es, st, p)
            return ERR_NONE
        res = combat_next_phase(gs, st)
        fire_event(gs, es, st, p, EV_PHASE_START, -1)
        advanced_phase_start(gs, p)                                # Dodge and Weave (_fx_advanced)
        units_check_destroy(gs, st)                                # reduced to 0 = blocked (LL-6.3.6)
        return ERR_NONE if res >= 0 else combat_step_failed(gs)
    set_error(gs, ERR_INTERNAL, INTERNAL_NO_APPLY, -1)             # a kind of this range without a branch
    return ERR_INTERNAL


cdef int combat_step_failed(GameState* gs) noexcept nogil:
    """A listed combat step that ext/_combat.pyx could not carry out: an engine error."""
    set_error(gs, ERR_INTERNAL, INTERNAL_COMBAT_STEP, -1)
    return ERR_INTERNAL


cdef bint opponent_keep(const GameState* gs, const EngineStatics* es, int p, int h) noexcept nogil:
    """The site of this assault is a keep another player owns (10.7.3.5)."""
    return h >= 0 and hex_site(gs, h) == es.sites.keep and (gs.hexes[h].flags & HEX_CONQUERED) \
        and gs.hexes[h].owner >= 0 and gs.hexes[h].owner != p


cdef void opponent_keep_fame(GameState* gs, const Statics* st, Player* pl) noexcept nogil:
    """10.7.3.5: the garrison drawn for another player's keep is worth half its Fame,
    rounded up: the half rounded down of each defeated drawn token (not summoned) is taken
    back from the Fame defeat_enemy gave (11.5.7), before the turn's level check (13.6)."""
    cdef int s, f
    cdef const CombatEnemy* e
    for s in range(gs.combat.n_enemies):
        e = &gs.combat.enemies[s]
        if (e.flags & CE_DEFEATED) and e.hex < 0 and e.summoned_by < 0 and e.token >= 0:
            f = st.enemies.data[e.enemy * st.enemies.width + st.cols.enemy_fame]
            pl.fame = <int16_t>(pl.fame - f // 2)


cdef void finish_combat(GameState* gs, const EngineStatics* es, const Statics* st, int p) noexcept nogil:
    """11.12: the outcome for the site, then back to the turn (no more movement, 4.4.5)."""
    cdef Combat* c = &gs.combat
    cdef Player* pl = &gs.players[p]
    cdef int site_hex = c.site_hex, site = hex_site(gs, c.site_hex)
    cdef int reason = c.reason, s, k, und = 0, defeated, policy, ruins
    cdef const CombatEnemy* e
    cdef const int32_t* sr
    # rampaging tokens defeated: Reputation (10.7.14.2, 21.2 A29), whatever the combat
    for s in range(c.n_enemies):
        e = &c.enemies[s]
        if (e.flags & CE_RAMPAGING) and (e.flags & CE_DEFEATED) and e.hex >= 0:
            if gs.hexes[e.hex].site == es.sites.rampaging_orc:
                change_reputation(pl, es.sites.rep_orc)
            elif gs.hexes[e.hex].site == es.sites.rampaging_draconum:
                change_reputation(pl, es.sites.rep_draconum)
    policy = UNDEFEATED_STAY
    if reason == CK_BURN or site == es.sites.dungeon or site == es.sites.tomb:
        policy = UNDEFEATED_DISCARD                                # 11.12.4
    if reason == CK_ASSAULT and opponent_keep(gs, es, p, site_hex):
        opponent_keep_fame(gs, st, pl)                             # 10.7.3.5: half Fame
        policy = UNDEFEATED_DISCARD                                # the drawn garrison
    fire_event(gs, es, st, p, EV_COMBAT_END, -1)                  # Sword of Justice; combat-long modifiers end
    duel_combat_end(gs, pl)                                        # Dueling (_fx_skills)
    units_combat_end(gs, p)                                        # Scouts' Fame, "this combat" (_engine_units.pxi)
    cleared = combat_site_cleared(gs)
    if reason == CK_ASSAULT and site == es.sites.city:
        place_city_shields(gs, p, site_hex)                        # 11.12.2
    defeated = combat_end(gs, st, policy, &und)
    gs.phase = PH_MOVE
    if reason == CK_ASSAULT:
        if cleared:                                                # 11.12.3: conquered
            conquer_fortified(gs, es, p, site_hex)
        else:                                                      # 11.12.4: withdraw
            pl.position = c.from_hex
            if gs.turn.n_path < MAX_PATH:
                gs.turn.path[gs.turn.n_path] = c.from_hex
                gs.turn.n_path += 1
    elif reason == CK_ADVENTURE and cleared:
        first = not (gs.hexes[site_hex].flags & HEX_CONQUERED)
        if first:                                                  # 10.7.6.4: re-entry gives Fame only
            gs.hexes[site_hex].owner = <int8_t>p
            stat_conquered(gs, p, site_hex)
            gs.hexes[site_hex].flags |= HEX_CONQUERED
            if site == es.sites.ancient_ruins:
                ruins = gs.hexes[site_hex].ruins
                for k in range(es.ruins[ruins * RUINS_WIDTH + RUINS_N_REWARDS]):
                    add_reward(gs, es.ruins[ruins * RUINS_WIDTH + RUINS_REWARDS + k])
            else:
                sr = site_row(es, site)
                for k in range(sr[ST_N_REWARDS]):
                    add_reward(gs, sr[ST_REWARDS + k])
    elif reason == CK_BURN and cleared:                            # 10.7.2.4
        gs.hexes[site_hex].owner = <int8_t>p
        gs.hexes[site_hex].flags |= HEX_BURNED
        stat_conquered(gs, p, site_hex)
        add_reward(gs, RW_ARTIFACT)


cdef void place_city_shields(GameState* gs, int p, int h) noexcept nogil:
    """11.12.2: one of the player's Shields on the City card for each garrison enemy they
    defeated in this assault (rampaging joiners and summoned monsters are no garrison).
    The row's order is kept as the moment each player's first Shield went on (11.13.3)."""
    cdef Hex* hx = &gs.hexes[h]
    cdef const CombatEnemy* e
    cdef int s, q, k = 0, total = 0
    for s in range(gs.combat.n_enemies):
        e = &gs.combat.enemies[s]
        if e.hex == h and e.summoned_by < 0 and not (e.flags & CE_RAMPAGING) and (e.flags & CE_DEFEATED):
            k += 1
    if k == 0:
        return
    for q in range(MAX_PLAYERS):
        total += hx.city_shields[q]
    if hx.city_first[p] == 0:
        hx.city_first[p] = <uint8_t>(total + 1)
    hx.city_shields[p] = <int8_t>(hx.city_shields[p] + k)


cdef int city_leader(const Hex* hx) noexcept nogil:
    """11.13.3 [R]: the player with the most Shields on the City card; on a tie, the tied
    player whose Shield was placed first.  -1 = no Shield on it."""
    cdef int q, best = -1
    for q in range(MAX_PLAYERS):
        if hx.city_shields[q] <= 0:
            continue
        if best < 0 or hx.city_shields[q] > hx.city_shields[best] or (
                hx.city_shields[q] == hx.city_shields[best] and hx.city_first[q] < hx.city_first[best]):
            best = q
    return best


cdef void conquer_fortified(GameState* gs, const EngineStatics* es, int p, int h) noexcept nogil:
    """11.12.3: a fortified site whose defenders are all defeated is conquered.  Keep / mage
    tower: the conqueror's Shield marks it (a mage tower's Spell reward at the end of the turn,
    10.7.4.2).  City (11.13.2-11.13.4): its leader takes the City card (hex.owner); a city
    taken without a defender (no Shield on it) goes to the assaulting player."""
    cdef int site = hex_site(gs, h), k, leader
    cdef const int32_t* sr = site_row(es, site)
    gs.hexes[h].flags |= HEX_CONQUERED
    stat_conquered(gs, p, h)                                       # the assaulting player
    if site == es.sites.city:
        leader = city_leader(&gs.hexes[h])
        gs.hexes[h].owner = <int8_t>(leader if leader >= 0 else p)
    else:
        gs.hexes[h].owner = <int8_t>p
    for k in range(sr[ST_N_REWARDS]):
        add_reward(gs, sr[ST_REWARDS + k])                         # 10.7.4.2: a Spell
    if site == es.sites.city:
        check_all_cities(gs, es)


cdef void reveal_by_day(GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """9.10.1 [R]: by Day, the face-down garrison tokens of a keep, mage tower or city are
    revealed as soon as a hero stands on an adjacent space (at Night only combat reveals them)."""
    cdef int d, nb, site, h = gs.players[p].position
    if gs.time != DAY or h < 0:
        return
    for d in range(6):
        nb = gs.hexes[h].neighbour[d]
        if nb < 0 or gs.hexes[nb].n_tokens == 0:
            continue
        site = gs.hexes[nb].site
        if site == es.sites.keep or site == es.sites.mage_tower or site == es.sites.city:
            gs.hexes[nb].flags |= HEX_TOKENS_REVEALED


cdef void reveal_ruins_at_day(GameState* gs) noexcept nogil:
    """9.10.2 [R]: face-down ruins tokens are revealed at the start of the next Day round."""
    cdef int h
    if gs.time != DAY:
        return
    for h in range(gs.n_hexes):
        if gs.hexes[h].ruins >= 0:
            gs.hexes[h].flags |= HEX_RUINS_REVEALED


cdef bint can_plunder(const GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """10.7.1.4, 4.1: before the turn (PH_TURN_START) the hero stands in a village and has
    not plundered since their last turn."""
    cdef int h = gs.players[p].position
    return (gs.phase == PH_TURN_START and h >= 0 and gs.hexes[h].site == es.sites.village
            and not gs.turn.plundered)


cdef int plunder(GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """A_PLUNDER (10.7.1.4 [R]): Reputation -1 (10.4) and draw 2 cards; at most once
    between two of the player's turns.  It is no action: the turn then starts as usual."""
    cdef Player* pl = &gs.players[p]
    gs.turn.plundered = 1
    change_reputation(pl, es.sites.rep_plunder)
    draw_cards(gs, pl, PLUNDER_CARDS)
    return ERR_NONE


cdef void check_all_cities(GameState* gs, const EngineStatics* es) noexcept nogil:
    """17.3.4: when every city is conquered, the player takes one last turn (14.3.2)."""
    cdef int h, cities = 0, conquered = 0
    for h in range(gs.n_hexes):
        if gs.hexes[h].site == es.sites.city:
            cities += 1
            if gs.hexes[h].flags & HEX_CONQUERED:
                conquered += 1
    if cities > 0 and cities == conquered and gs.final_turns_left == 0 and gs.n_tile_stack == 0:
        gs.final_turns_left = <int8_t>(gs.n_players + 1)


# -- rewards (13.5) -------------------------------------------------------------------------

cdef int legal_rewards(const GameState* gs, const EngineStatics* es, const Statics* st, int32_t* out) noexcept nogil:
    """Choices while claiming the first pending reward (13.5)."""
    cdef int code = gs.turn.rewards[0] if gs.turn.n_rewards > 0 else -1, n = 0, k
    if gs.turn.reward_choice == 1:                                      # 13.5.2: the card to put back
        for k in range(gs.turn.n_reward_cards):
            out[n] = act(A_REWARD, k)
            n += 1
        return n
    if code == RW_SPELL:
        for k in range(3):
            if gs.spell_offer[k] >= 0:
                out[n] = act(A_REWARD, k)
                n += 1
    elif code == RW_AA:
        for k in range(3):
            if gs.aa_offer[k] >= 0:
                out[n] = act(A_REWARD, k)
                n += 1
    elif code == RW_UNIT:                                          # 13.5.4 (_engine_units.pxi)
        return legal_unit_reward(gs, es, st, out, 0)
    elif code == RW_CRYSTAL_RANDOM and gs.turn.reward_choice == 2:      # gold: choose the colour
        for k in range(4):
            out[n] = act(A_REWARD, k)
            n += 1
    if n == 0:
        out[n] = act(A_REWARD, 0)                                  # nothing left to choose (A15)
        n = 1
    return n


cdef int roll_reward_die(GameState* gs) noexcept nogil:
    return <int>rng_below(&gs.rng[<int>STREAM_REWARDS], 6)         # 5.2.2: a spare mana die


cdef void start_rewards(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """Resolve rewards that need no decision; stop at the first that does (13.5)."""
    cdef Player* pl = &gs.players[gs.current]
    cdef int code, die, k
    while gs.turn.n_rewards > 0:
        code = gs.turn.rewards[0]
        if code == RW_CRYSTAL_RANDOM:                              # 13.5.1
            die = roll_reward_die(gs)
            if die == GOLD:
                gs.turn.reward_choice = 2                          # the player picks (A_REWARD)
                return
            if die == BLACK:
                pl.fame += 1
            elif pl.crystals[die] < MAX_CRYSTALS:
                pl.crystals[die] += 1                              # beyond 3: lost
        elif code == RW_CRYSTAL_EACH:
            for k in range(4):
                if pl.crystals[k] < MAX_CRYSTALS:
                    pl.crystals[k] += 1
        elif code == RW_DUNGEON_ROLL:                              # 10.7.6.2
            die = roll_reward_die(gs)
            gs.turn.rewards[0] = RW_SPELL if (die == GOLD or die == BLACK) else RW_ARTIFACT
            continue
        elif code == RW_ARTIFACT:
            if draw_artifacts(gs, es, pl):
                return                                             # which one goes back: A_REWARD
            continue                                               # (already removed from the list)
        elif code == RW_FAME:
            # cannot happen: altars pay their Fame at once (pay_altar, 10.7.10.2) and
            # Engine._bind_sites refuses a "fame" reward of a site or ruins token
            set_error(gs, ERR_ALTAR, 1, -1)
            return
        elif code == RW_UNIT:                                      # 13.5.4: a decision (A_REWARD)
            return
        else:                                                      # spell / AA: a decision
            return
        pop_reward(gs)


cdef void pop_reward(GameState* gs) noexcept nogil:
    cdef int k
    for k in range(gs.turn.n_rewards - 1):
        gs.turn.rewards[k] = gs.turn.rewards[k + 1]
    gs.turn.n_rewards -= 1
    gs.turn.reward_choice = 0


cdef bint draw_artifacts(GameState* gs, const EngineStatics* es, Player* pl) noexcept nogil:
    """13.5.2: for N Artifacts draw N + 1 (into turn.reward_cards); one of them
    goes to the bottom of the Artifact deck (a decision), the rest on top of the Deed deck.
    Returns True when the choice is needed."""
    cdef int k, n = 0, drawn = 0
    for k in range(gs.turn.n_rewards):
        if gs.turn.rewards[k] == RW_ARTIFACT:
            n += 1
    while drawn < n + 1 and drawn < 6 and gs.n_artifact_deck > 0:
        gs.n_artifact_deck -= 1
        gs.turn.reward_cards[drawn] = gs.artifact_deck[gs.n_artifact_deck]
        drawn += 1
    gs.turn.n_reward_cards = <int8_t>drawn
    # every Artifact reward is settled by this one draw
    k = 0
    while k < gs.turn.n_rewards:
        if gs.turn.rewards[k] == RW_ARTIFACT:
            for n in range(k, gs.turn.n_rewards - 1):
                gs.turn.rewards[n] = gs.turn.rewards[n + 1]
            gs.turn.n_rewards -= 1
        else:
            k += 1
    if drawn == 0:
        return False
    if drawn <= n:                                                 # 21.2 A15: fewer than N + 1 exist
        for k in range(drawn):
            gain_deed(es, pl, gs.turn.reward_cards[k])
        gs.turn.n_reward_cards = 0
        return False
    gs.turn.reward_choice = 1                                      # choosing the card to return
    return True


cdef int apply_reward(GameState* gs, const EngineStatics* es, const Statics* st, int arg) noexcept nogil:
    cdef Player* pl = &gs.players[gs.current]
    cdef int code, k
    if gs.turn.reward_choice == 1:                                      # 13.5.2
        insert_bottom(gs.artifact_deck, &gs.n_artifact_deck, gs.turn.reward_cards[arg])
        for k in range(gs.turn.n_reward_cards):
            if k != arg:
                gain_deed(es, pl, gs.turn.reward_cards[k])                # 6.4.1: on top of the deck
        gs.turn.reward_choice = 0
        gs.turn.n_reward_cards = 0
        start_rewards(gs, es, st)
        return ERR_NONE
    if gs.turn.n_rewards <= 0:                                     # legal_rewards offered a reward to claim
        set_error(gs, ERR_INTERNAL, INTERNAL_REWARD, -1)
        return ERR_INTERNAL
    code = gs.turn.rewards[0]
    if code == RW_UNIT:                                            # 13.5.4 (_engine_units.pxi)
        k = apply_unit_reward(gs, es, st, arg)
        if k != ERR_NONE:
            return k
    elif code == RW_SPELL or code == RW_AA:
        if code == RW_SPELL and gs.spell_offer[arg] >= 0:          # 13.5.3
            gain_deed(es, pl, gs.spell_offer[arg])
            refill_offer(gs, gs.spell_offer, gs.spell_deck, &gs.n_spell_deck, arg)
        elif code == RW_AA and gs.aa_offer[arg] >= 0:
            gain_deed(es, pl, gs.aa_offer[arg])
            refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, arg)
    elif code == RW_CRYSTAL_RANDOM:                                # gold rolled: chosen colour
        if pl.crystals[arg] < MAX_CRYSTALS:
            pl.crystals[arg] += 1
    pop_reward(gs)
    start_rewards(gs, es, st)
    return ERR_NONE


# -- ruins altars (10.7.10.2) ---------------------------------------------------------------

cdef int altar_sequences(GameState* gs, int* need, int depth, int seq, int last_pay, int last_colour,
                         int32_t* out, int n) noexcept nogil:
    """Every way to pay the remaining tribute `need` (per basic colour) from the current
    sources: a sequence of up to 4 payment codes, 5 bits each, in colour order and, within a
    colour, in non-decreasing code order (so each set of payments appears once)."""
    cdef int c = 0, pay, npay = n_pay_codes(gs)
    cdef PaySnap sn
    while c < 4 and need[c] == 0:
        c += 1
    if c == 4:
        if n < MAX_ACTIONS:
            out[n] = act(A_ALTAR, seq | (PAY_NONE << (5 * depth)) if depth < 4 else seq)
            n += 1
        return n
    if depth >= 4:
        return n
    for pay in range(npay):
        if c == last_colour and pay < last_pay:
            continue
        if not pay_ok(gs, pay, c):
            continue
        pay_save(gs, &sn)
        pay_take(gs, pay, c)
        need[c] -= 1
        n = altar_sequences(gs, need, depth + 1, seq | (pay << (5 * depth)), pay, c, out, n)
        need[c] += 1
        pay_restore(gs, &sn)
    return n


cdef int legal_altar(GameState* gs, const EngineStatics* es, int ruins, int32_t* out, int n) noexcept nogil:
    """10.7.10.2 / 21.2 A23: the altar is offered only when its tribute can be paid, once per
    distinct way of paying it (which tokens, crystals or Source die)."""
    cdef int need[4]
    cdef int c, total = 0, seq = 0
    for c in range(4):
        need[c] = es.ruins[ruins * RUINS_WIDTH + RUINS_TRIBUTE + c]
        total += need[c]
    if total == 0 or total > 4:
        return n
    return altar_sequences(gs, need, 0, seq, -1, -1, out, n)


cdef int pay_altar(GameState* gs, const EngineStatics* es, int p, int h, int arg) noexcept nogil:
    """Pay the tribute with the payment sequence `arg` (see altar_sequences), then place the
    Shield and gain the Fame shown (10.7.10.2).  This is the turn's action."""
    cdef int need[4]
    cdef int c, k, pay, ruins = gs.hexes[h].ruins
    for c in range(4):
        need[c] = es.ruins[ruins * RUINS_WIDTH + RUINS_TRIBUTE + c]
    for k in range(4):
        pay = (arg >> (5 * k)) & 0x1F
        if pay == PAY_NONE:
            break
        c = 0
        while c < 4 and need[c] == 0:                              # altar_sequences: colour order
            c += 1
        pay_take(gs, pay, c)
        need[c] -= 1
    gs.players[p].fame += es.ruins[ruins * RUINS_WIDTH + RUINS_FAME]
    gs.hexes[h].owner = <int8_t>p
    gs.hexes[h].flags |= HEX_CONQUERED
    stat_conquered(gs, p, h)
    gs.turn.action_taken = 1
    gs.turn.move_points = 0                                        # 4.4.7
    return ERR_NONE
