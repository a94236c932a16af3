# Named effect handlers of the Spell cards (spells.toml), included into ext/_engine.pyx.
# Protocol: see "Handler protocol" in _engine.pyx.  SPELLS_HANDLERS lists (name, declared
# argument names) in handler-code order; the content's keyword arguments must match them.
#
# Rules: 5.4.2-5.4.3 / 6.1.4 (paying a spell is done by the loop: A_PLAY), 6.2.1-6.2.2
# (costs inside effects), 6.3.3 (timing).  Handlers shared with other decks live in the group
# file that declared them first: here recruit_free_from_offer (also Banner of Command);
# pay_mana_by_colour (Mana Bolt, also Pure Magic) is in _fx_advanced.pxi.  The travel and card-colour helpers are used by
# _fx_artifacts.pxi too (Druidic Staff).
#
# Also here: fx_combat_event, the combat hooks of these cards (called from
# _engine_combat.pxi), and rings_fame (end of turn, from end_turn_begin).

from libc.stdlib cimport abs
from mksim._types cimport FOREST, DESERT, SIEGE, RANGED, FIRE, ICE, PHYSICAL, MAX_HEXES, CE_GONE, CE_NO_ATTACK
from mksim._combat cimport (defeat_enemy, enemy_ability, AB_ARCANE_IMMUNITY, AB_SUMMON, fortification_level,
                            attack_element, enemy_attack_value, all_attacks_blocked, RES_FIRE)

SPELLS_HANDLERS = (
    ("bonus_per_enemy", ("effect", "per_enemy")),
    ("burning_shield", ("block", "attack")),
    ("restoration", ("heal", "heal_in_forest", "ready_levels", "ready_levels_in_forest")),
    ("meditation", ("cards", "extra_draw")),
    ("underground_travel", ("spaces",)),
    ("wings_of_wind", ("max_spaces", "move_per_space")),
    ("call_to_arms", ()),
    ("recruit_free_from_offer", ()),
    ("mana_radiance", ("crystals",)),
    ("mana_meltdown", ()),
    ("mind_read", ("steal",)),
    ("offering_discard", ("max_cards",)),
    ("destroy_enemy", ("target", "attack_phase_only")),
    ("exploding_shield", ("block",)),
    ("sacrifice", ("siege", "ranged")),
    ("energy_flow", ("heal", "opponent_max_level")),
    ("cure_bonus", ()),
    ("space_bending", ("distance",)),
    ("mana_claim", ("now", "per_turn", "curse")),
    ("charm_bonus", ("discount",)),
    ("possess", ()),
    ("chill", ("armor", "lose_fire_resistance")),
    ("disease", ("armor",)),
    ("enemy_armor_fortified", ("target", "delta", "fortified_delta")),
    ("ignore_site_fortifications", ()),
    ("terrain_forbidden", ("terrain",)),
    ("veil_of_mist_ignore_wound", ("wounds",)),
    ("time_bending", ()),
    ("underground_attack", ("spaces",)),
    ("wings_of_night", ("first_extra_cost", "step")),
)

cdef enum SpellHandler:
    SP_BONUS_PER_ENEMY = 0
    SP_BURNING_SHIELD = 1
    SP_RESTORATION = 2
    SP_MEDITATION = 3
    SP_UNDERGROUND_TRAVEL = 4
    SP_WINGS_OF_WIND = 5
    SP_CALL_TO_ARMS = 6
    SP_RECRUIT_FREE = 7
    SP_MANA_RADIANCE = 8
    SP_MANA_MELTDOWN = 9
    SP_MIND_READ = 10
    SP_OFFERING_DISCARD = 11
    SP_DESTROY_ENEMY = 12
    SP_EXPLODING_SHIELD = 13
    SP_SACRIFICE = 14
    SP_ENERGY_FLOW = 15
    SP_CURE_BONUS = 16
    SP_SPACE_BENDING = 17
    SP_MANA_CLAIM = 18
    SP_CHARM_BONUS = 19
    SP_POSSESS = 20
    SP_CHILL = 21
    SP_DISEASE = 22
    SP_ARMOR_FORTIFIED = 23
    SP_IGNORE_SITE_FORT = 24
    SP_TERRAIN_FORBIDDEN = 25
    SP_VEIL_OF_MIST = 26
    SP_TIME_BENDING = 27
    SP_UNDERGROUND_ATTACK = 28
    SP_WINGS_OF_NIGHT = 29

cdef enum FxCombatEvent:
    FXE_BLOCKED = 0            # a block was committed successfully (11.6.3)
    FXE_PHASE_END = 1          # A_NEXT_PHASE, before the phase changes
    FXE_PHASE_START = 2        # A_NEXT_PHASE, after the phase changed
    FXE_COMBAT_END = 3         # finish_combat, before the tokens leave (11.12)

cdef enum:                     # (NO_ARG, the row_args "not given": ext/_engine.pxd)
    TRAVEL_MAX_BFS = MAX_HEXES


# -- small helpers shared with _fx_artifacts.pxi ------------------------------------------

# (outside_combat_now, special_now: ext/_engine.pxd)

cdef int faced_enemies(const GameState* gs) noexcept nogil:
    """Enemy tokens still in the combat (not defeated, not discarded summons)."""
    cdef int s, n = 0
    if not gs.combat.active:
        return 0
    for s in range(gs.combat.n_enemies):
        if gs.combat.enemies[s].token >= 0 and not (gs.combat.enemies[s].flags & (CE_DEFEATED | CE_GONE)):
            n += 1
    return n


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


cdef uint64_t non_wound_hand(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Hand indices (< 63) of non-Wound cards: what a discard cost may use (6.2.2)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i
    for i in range(pl.n_hand):
        if i < ASK_DONE and pl.hand[i] != es.wound:
            o |= (<uint64_t>1) << i
    return o


cdef bint colour_resisted(const GameState* gs, const Statics* st, int s, int colour) noexcept nogil:
    """11.4.2: a red effect has no effect (but its Attack / Block) on a Fire-resistant enemy,
    a blue one none on an Ice-resistant enemy (resistances lost this combat excepted)."""
    cdef const CombatEnemy* e = &gs.combat.enemies[s]
    cdef int res = st.enemies.data[e.enemy * st.enemies.width + st.cols.enemy_resistances] \
        & ~(<int>e.lost_resistances) & ~(<int>e.res_lost)
    return (colour == RED and res & RES_FIRE) or (colour == BLUE and res & RES_ICE)


cdef uint64_t destroy_targets(const GameState* gs, const Statics* st, int colour) noexcept nogil:
    """Enemies a 'destroy target enemy' effect of `colour` may name: those that could be
    attacked (11.5.2) and do not resist its colour (11.4.2: Disintegrate, red, not Fire
    Mages).  An Arcane Immune one may be named, but the effect is ignored (LL-6.7.1)."""
    cdef uint64_t o = 0
    cdef int s
    for s in range(gs.combat.n_enemies):
        if s < ASK_DONE and is_targetable(gs, s) and not colour_resisted(gs, st, s, colour):
            o |= (<uint64_t>1) << s
    return o


cdef void destroy(GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Destroy an enemy: defeated, with its Fame (11.5.7); not an Arcane Immune one (LL-6.7.1)."""
    if not enemy_ability(gs, st, slot, AB_ARCANE_IMMUNITY):
        defeat_enemy(gs, st, slot)


# -- travel: Underground Travel, Wings of Wind, Druidic Staff ------------------------------
# The hero moves one revealed space at a time (A_CHOOSE(direction), ASK_OPTION) without
# provoking (9.4.3 does not apply) and ignoring terrain; ASK_DONE stops on a safe space
# (9.7).  A direction is offered only if a safe space can still be reached from it, so a
# travel never strands the hero.  hvars[0] spaces moved, hvars[1] the most spaces,
# hvars[2] Move points paid per space.

cdef int travel_budget(const GameState* gs) noexcept nogil:
    cdef int left = gs.turn.hvars[1] - gs.turn.hvars[0]
    cdef int per = gs.turn.hvars[2]
    if per > 0 and gs.turn.move_points // per < left:
        left = gs.turn.move_points // per
    return left


cdef inline bint travel_goal(const GameState* gs, const Statics* st, int h, int p, int mode) noexcept nogil:
    """Where a travel may end: a safe space (9.7; mode 0), or for Underground Attack (mode 1)
    a fortified site it assaults (9.4.1) with defenders on it."""
    if mode == 1:
        return ends_movement(gs, st, h, p) and gs.hexes[h].n_tokens > 0
    return is_safe(gs, st, h, p)


cdef bint safe_within(const GameState* gs, const Statics* st, int p, int start, int budget,
                      int mode=0) noexcept nogil:
    """A goal space (travel_goal) at most `budget` spaces from `start` (start included)."""
    cdef int16_t depth[MAX_HEXES]
    cdef int16_t queue[MAX_HEXES]
    cdef int head = 0, tail = 0, h, d, nb
    if start < 0:
        return False
    for h in range(gs.n_hexes):
        depth[h] = -1
    depth[start] = 0
    queue[tail] = <int16_t>start
    tail += 1
    while head < tail:
        h = queue[head]
        head += 1
        if travel_goal(gs, st, h, p, mode):
            return True
        if depth[h] >= budget:
            continue
        for d in range(6):
            nb = gs.hexes[h].neighbour[d]
            if nb >= 0 and depth[nb] < 0:
                depth[nb] = <int16_t>(depth[h] + 1)
                queue[tail] = <int16_t>nb
                tail += 1
    return False


cdef uint64_t travel_options(const GameState* gs, const Statics* st, int p, int mode=0) noexcept nogil:
    cdef int pos = gs.players[p].position, d, nb, budget = travel_budget(gs)
    cdef uint64_t o = 0
    if budget > 0:
        for d in range(6):
            nb = gs.hexes[pos].neighbour[d]
            if nb >= 0 and safe_within(gs, st, p, nb, budget - 1, mode):
                o |= (<uint64_t>1) << d
    if gs.turn.hvars[0] > 0 and travel_goal(gs, st, pos, p, mode):
        o |= (<uint64_t>1) << ASK_DONE
    return o


cdef bint travel_playable(const GameState* gs, int spaces, int per) noexcept nogil:
    """In the movement part before the action (4.4.5), on the map, able to pay a space."""
    cdef const Player* pl = &gs.players[gs.current]
    if gs.phase != PH_MOVE or gs.turn.action_taken or pl.position < 0 or spaces <= 0:
        return False
    return per <= 0 or gs.turn.move_points >= per


cdef bint travel_usable(const GameState* gs, const Statics* st, int spaces, int per) noexcept nogil:
    """travel_playable, and a safe space to end on within reach (a travel that could go
    nowhere is not offered)."""
    cdef int p = gs.current, pos = gs.players[p].position, d, nb, budget = spaces
    if not travel_playable(gs, spaces, per):
        return False
    if per > 0 and gs.turn.move_points // per < budget:
        budget = gs.turn.move_points // per
    for d in range(6):
        nb = gs.hexes[pos].neighbour[d]
        if nb >= 0 and safe_within(gs, st, p, nb, budget - 1):
            return True
    return False


cdef int travel(GameState* gs, const Statics* st, int p, int row, int choice, int spaces, int per) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef uint64_t o
    cdef int to
    if choice < 0:
        gs.turn.hvars[0] = 0
        gs.turn.hvars[1] = <int16_t>spaces
        gs.turn.hvars[2] = <int16_t>per
    elif choice == ASK_DONE:
        if gs.turn.n_path < MAX_PATH:                            # for forced withdrawal (13.2)
            gs.turn.path[gs.turn.n_path] = pl.position
            gs.turn.n_path += 1
        gs.turn.moved = 1
        return RES_DONE
    else:
        to = gs.hexes[pl.position].neighbour[choice]
        pl.position = <int16_t>to
        gs.turn.move_points -= gs.turn.hvars[2]
        gs.turn.hvars[0] += 1
    o = travel_options(gs, st, p)
    if o == 0:
        set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)   # cannot happen (see above)
        return RES_ERROR
    if o == ((<uint64_t>1) << ASK_DONE):
        return travel(gs, st, p, row, ASK_DONE, spaces, per)
    return ask(gs, row, 0, ASK_OPTION, o)


cdef bint ug_attack_playable(const GameState* gs, const Statics* st, int spaces) noexcept nogil:
    """Underground Attack: Underground Travel's timing, and a fortified site to assault within
    `spaces` revealed spaces."""
    cdef int p = gs.current, pos = gs.players[p].position, d, nb
    if not travel_playable(gs, spaces, 0):
        return False
    for d in range(6):
        nb = gs.hexes[pos].neighbour[d]
        if nb >= 0 and safe_within(gs, st, p, nb, spaces - 1, 1):
            return True
    return False


cdef int underground_attack(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                            int choice, int spaces) noexcept nogil:
    """Underground Attack (strong Underground Travel): move up to `spaces` revealed spaces
    like Underground Travel (no provoking, terrain ignored) onto a fortified site and assault
    it (9.4.1, 11.1.1) ignoring its site fortifications (11.10.1); a withdrawal returns the
    hero to the space the spell was played on (11.12.4: Combat.from_hex).  hvars as travel,
    hvars[3] = that space."""
    cdef Player* pl = &gs.players[p]
    cdef uint64_t o
    cdef int res
    if choice < 0:
        gs.turn.hvars[0] = 0
        gs.turn.hvars[1] = <int16_t>spaces
        gs.turn.hvars[2] = 0
        gs.turn.hvars[3] = pl.position
    elif choice == ASK_DONE:
        if gs.turn.n_path < MAX_PATH:
            gs.turn.path[gs.turn.n_path] = pl.position
            gs.turn.n_path += 1
        gs.turn.moved = 1
        gs.turn.ignore_site_fort = 1
        res = fight_after_move(gs, es, st, p, gs.turn.hvars[3], pl.position, 0)
        if res != ERR_NONE:
            if gs.error == ERR_NONE:
                set_error(gs, res, 0, gs.turn.resolving_card)
            return RES_ERROR
        return RES_DONE
    else:
        pl.position = <int16_t>gs.hexes[pl.position].neighbour[choice]
        gs.turn.hvars[0] += 1
    o = travel_options(gs, st, p, 1)
    if o == 0:
        set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)   # cannot happen (see above)
        return RES_ERROR
    if o == ((<uint64_t>1) << ASK_DONE):
        return underground_attack(gs, es, st, p, row, ASK_DONE, spaces)
    return ask(gs, row, 0, ASK_OPTION, o)


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


cdef uint64_t disease_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Disease: enemies with all their attacks blocked (LL-6.1.6) that the green effect can
    act on (Arcane Immunity, LL-6.7.1) and whose Armor is not yet 1."""
    cdef uint64_t o = enemy_effect_targets(gs, st, GREEN), m = 0
    cdef int s
    for s in range(gs.combat.n_enemies):
        if (o >> s) & 1 and all_attacks_blocked(gs, st, s) and gs.combat.enemies[s].armor_delta > -100:
            m |= (<uint64_t>1) << s
    return m


cdef uint64_t possess_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Possess in the Attack phase: an enemy the effect can act on with an attack to copy,
    and another enemy to use it against."""
    cdef uint64_t o = enemy_effect_targets(gs, st, WHITE), m = 0
    cdef int s, t
    for s in range(gs.combat.n_enemies):
        if not (o >> s) & 1 or enemy_n_attacks(gs, st, s) == 0:
            continue
        for t in range(gs.combat.n_enemies):
            if t != s and is_targetable(gs, t):
                m |= (<uint64_t>1) << s
                break
    return m


cdef uint64_t chill_late_targets(const GameState* gs, const Statics* st, int armor, int lose_fire) noexcept nogil:
    """Chill / Lethal Chill in the Attack phase: enemies whose Armor it lowers or whose fire
    resistance it removes."""
    cdef uint64_t o = enemy_effect_targets(gs, st, BLUE), m = 0
    cdef int s, res
    for s in range(gs.combat.n_enemies):
        if not (o >> s) & 1:
            continue
        res = st.enemies.data[gs.combat.enemies[s].enemy * st.enemies.width + st.cols.enemy_resistances]
        if (armor < 0 and enemy_armor(gs, st, s) > 1) or (lose_fire and res & RES_FIRE and
                                                             not gs.combat.enemies[s].res_lost & RES_FIRE):
            m |= (<uint64_t>1) << s
    return m


cdef void possess_gain(GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Possess: the enemy's Attack, each attack with its element (no abilities), for the
    Attack phase (LL-6.1: all its attacks)."""
    cdef int i, el, v
    for i in range(enemy_n_attacks(gs, st, slot)):
        el = attack_element(gs, st, slot, i)
        v = enemy_attack_value(gs, st, slot, i)
        if 0 <= el < 4 and v > 0:
            gs.turn.possess_attack[el] = <int8_t>(gs.turn.possess_attack[el] + v)
    gs.turn.possess_slot = <int8_t>(slot + 1)


cdef int legal_possess(const GameState* gs, const Statics* st, int32_t* out, int n) noexcept nogil:
    """A_POSSESS: in the Attack phase, the possessed Attack may join the pool when another
    enemy can be targeted (it may be used only against other enemies)."""
    cdef int s, el, total = 0
    if gs.phase != PH_COMBAT_ATTACK or gs.turn.possess_slot == 0 or gs.combat.possess_lock != 0:
        return n
    for el in range(4):
        total += gs.turn.possess_attack[el]
    if total <= 0:
        return n
    for s in range(gs.combat.n_enemies):
        if s + 1 != gs.turn.possess_slot and is_targetable(gs, s):
            if n < MAX_ACTIONS:
                out[n] = act(A_POSSESS, 0)
                n += 1
            return n
    return n


cdef int apply_possess(GameState* gs, const Statics* st) noexcept nogil:
    """Possess: add the Attack to the pool; while it is there no attack may target the
    possessed enemy (Combat.possess_lock, checked by attack_value; cleared with the pool)."""
    cdef int32_t buf[1]
    cdef int el
    if not gs.combat.active or legal_possess(gs, st, buf, 0) == 0:
        return ERR_ILLEGAL
    for el in range(4):
        gs.combat.attack[<int>MELEE][el] += gs.turn.possess_attack[el]
        gs.turn.possess_attack[el] = 0
    gs.combat.possess_lock = gs.turn.possess_slot
    return ERR_NONE


cdef inline int wings_cost(const GameState* gs) noexcept nogil:
    """Move for Wings of Night's next target (the first is free)."""
    if gs.turn.wings_targets == 0:
        return 0
    return gs.turn.wings_first + gs.turn.wings_step * (gs.turn.wings_targets - 1)


cdef uint64_t wings_options(const GameState* gs, const Statics* st) noexcept nogil:
    """Enemies Wings of Night can still target now, its cost paid."""
    if gs.turn.wings_targets == 0 or gs.turn.move_points < wings_cost(gs):
        return 0
    return no_attack_targets(gs, st, WHITE)


cdef void wings_take(GameState* gs, int slot) noexcept nogil:
    gs.turn.move_points -= <int16_t>wings_cost(gs)
    gs.combat.enemies[slot].flags |= CE_NO_ATTACK                # LL-6.1.4
    gs.turn.wings_targets += 1


cdef bint wings_move_usable(const GameState* gs, const Statics* st) noexcept nogil:
    """Move has a use in this combat: more Wings of Night targets (before the Attack phase)."""
    return gs.combat.active != 0 and gs.turn.wings_targets > 0 and gs.phase != PH_COMBAT_ATTACK \
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
    if not gs.combat.active or slot < 0 or slot >= 64 or not (wings_options(gs, st) >> slot) & 1:
        return ERR_ILLEGAL
    wings_take(gs, slot)
    return ERR_NONE


cdef inline bint spell_in_offer(const GameState* gs, int card) noexcept nogil:
    cdef int k
    for k in range(3):
        if gs.spell_offer[k] == card:
            return True
    return False


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


# -- the group ------------------------------------------------------------------------------

cdef bint spells_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    cdef int k
    if local == SP_BONUS_PER_ENEMY:
        return gs.combat.active != 0 and node_playable(gs, es, a[0])
    if local == SP_BURNING_SHIELD:
        return gs.phase == PH_COMBAT_BLOCK                       # 11.6.3
    if local == SP_RESTORATION:
        return outside_combat_now(gs)                            # 12.4.1
    if local == SP_MEDITATION or local == SP_MANA_RADIANCE or local == SP_MANA_MELTDOWN \
            or local == SP_MIND_READ:
        return special_now(gs)
    if local == SP_CALL_TO_ARMS:
        return special_now(gs) and call_to_arms_offer(gs, es) != 0
    if local == SP_RECRUIT_FREE:
        return special_now(gs) and recruit_free_offer(gs, es) != 0
    if local == SP_UNDERGROUND_TRAVEL:
        return travel_usable(gs, es.st, a[0], 0)
    if local == SP_WINGS_OF_WIND:
        return travel_usable(gs, es.st, a[0], a[1])
    if local == SP_OFFERING_DISCARD:
        return special_now(gs)
    if local == SP_DESTROY_ENEMY:
        # 6.6.1 (errata): Tornado and Disintegrate only in the Attack phase
        if not gs.combat.active or (a[1] > 0 and gs.phase != PH_COMBAT_ATTACK):
            return False
        return destroy_targets(gs, es.st, resolving_colour(gs, es)) != 0
    if local == SP_EXPLODING_SHIELD:
        return gs.phase == PH_COMBAT_BLOCK                       # 11.6.3
    if local == SP_SACRIFICE:
        return gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK
    if local == SP_ENERGY_FLOW:
        for k in range(MAX_UNITS_):
            if pl.units[k].card >= 0 and not pl.units[k].ready:
                return special_now(gs)
        return False
    if local == SP_CURE_BONUS:
        return outside_combat_now(gs)                            # with its Heal (12.4.1)
    if local == SP_SPACE_BENDING:
        return gs.phase == PH_MOVE and not gs.turn.action_taken and not gs.turn.space_bending
    if local == SP_MANA_CLAIM:
        return special_now(gs) and pl.claimed_die == 0 and claim_dice(gs) != 0
    if local == SP_CHARM_BONUS:
        # with its Influence 4 wherever that has a use (Thugs / Heroes paid in combat,
        # LL-4.3.4); the crystal or discount only "during interaction" (charm_bonus)
        return gs.phase == PH_INTERACT or influence_elsewhere(gs) or units_need_influence(gs, es)
    if local == SP_POSSESS:
        if not gs.combat.active:
            return False
        # Possess: it stops an attack still to come, or gives Attack against another enemy
        if no_attack_targets(gs, es.st, WHITE) != 0:
            return True
        if gs.phase == PH_COMBAT_ATTACK:
            return possess_targets(gs, es.st) != 0
        return False
    if local == SP_CHILL:
        if not gs.combat.active:
            return False
        if no_attack_targets(gs, es.st, BLUE) != 0:
            return True
        # after the attacks: Lethal Chill's Armor -4 / Chill's lost fire resistance still count
        return gs.phase == PH_COMBAT_ATTACK and chill_late_targets(gs, es.st, a[0], a[1]) != 0
    if local == SP_DISEASE:
        return gs.combat.active != 0 and (disease_targets(gs, es.st) != 0 or
                                          (gs.phase <= PH_COMBAT_BLOCK and no_attack_targets(gs, es.st, GREEN) != 0))
    if local == SP_ARMOR_FORTIFIED:
        return gs.combat.active != 0 and gs.phase != PH_COMBAT_BLOCK and gs.phase != PH_COMBAT_DAMAGE \
            and enemy_effect_targets(gs, es.st, GREEN) != 0
    if local == SP_IGNORE_SITE_FORT:
        return gs.combat.active != 0                             # 11.4.3 (with Demolish's Armor -1)
    if local == SP_TERRAIN_FORBIDDEN:
        return gs.phase == PH_MOVE and not gs.turn.action_taken  # with Mist Form's Move
    if local == SP_VEIL_OF_MIST:
        return special_now(gs) and gs.phase != PH_COMBAT_ATTACK
    if local == SP_TIME_BENDING:
        return special_now(gs) and gs.turn.time_bending == 0
    if local == SP_UNDERGROUND_ATTACK:
        return ug_attack_playable(gs, es.st, a[0])
    if local == SP_WINGS_OF_NIGHT:
        return gs.combat.active != 0 and no_attack_targets(gs, es.st, WHITE) != 0
    return False


cdef int spells_handler(GameState* gs, const EngineStatics* es, const Statics* st,
                        int p, int row, int local, int choice) noexcept nogil:
    global mksim_cards_refused
    cdef const int32_t* a = row_args(es, row)
    cdef const int32_t* r
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i, c, n, card, q, k
    if local == SP_BONUS_PER_ENEMY:
        # Flame Wave: the Attack or Block gets +per_enemy for each enemy token faced.
        if apply_op(gs, es, st, p, a[0]) != RES_DONE:
            return RES_ERROR
        r = erow(es, a[0])
        n = a[1] * faced_enemies(gs)
        if r[0] == OP_ATTACK:
            gs.combat.attack[r[3]][r[2]] += n
        elif r[0] == OP_BLOCK:
            gs.combat.block[r[2]] += n
        return RES_DONE
    if local == SP_BURNING_SHIELD:
        # Fire Block `block`; if it is part of a successful block, Fire Attack `attack`
        # in the Attack phase (fx_combat_event).
        gs.combat.block[<int>FIRE] += a[0]
        gs.turn.burning_pending += <int8_t>a[1]
        return RES_DONE
    if local == SP_RESTORATION:
        # Heal `heal` (in a forest: heal_in_forest, 12.3).  Rebirth also readies Spent Units
        # (7.3.4) of total level up to ready_levels (ready_levels_in_forest): one at a time
        # (ASK_UNIT = unit slot, ASK_DONE stops), all at once, so none is used in between
        # (LL-9.7.16).  hvars[0] = levels left.
        if choice < 0:
            q = pl.position >= 0 and gs.hexes[pl.position].terrain == FOREST
            gs.turn.healing += a[1] if q else a[0]
            gs.turn.hvars[0] = <int16_t>(a[3] if q else a[2])
        elif choice == ASK_DONE:
            return RES_DONE
        else:
            pl.units[choice].ready = 1
            gs.turn.hvars[0] -= <int16_t>unit_level(es, pl.units[choice].card)
        for i in range(MAX_UNITS_):
            if pl.units[i].card >= 0 and not pl.units[i].ready and unit_level(es, pl.units[i].card) <= gs.turn.hvars[0]:
                options |= (<uint64_t>1) << i
        if options == 0:
            return RES_DONE
        return ask(gs, row, 0, ASK_UNIT, options | ((<uint64_t>1) << ASK_DONE))
    if local == SP_MEDITATION:
        # `cards` random cards of the discard pile go together on top (0) or to the bottom
        # (1) of the Deed deck (ASK_OPTION); the Hand limit of this turn's draw is
        # +extra_draw (13.7.2).  hvars[0] = cards picked; while the question waits they lie
        # on top of the discard pile in the order picked (so every card stays in a zone).
        if choice < 0:
            gs.turn.hand_limit_bonus += <int8_t>a[1]
            n = a[0] if a[0] < pl.n_discard else pl.n_discard
            if n > 6:
                n = 6
            for k in range(n):                                  # among the cards not yet picked
                i = <int>rng_below(deeds_rng(gs, pl), <uint32_t>(pl.n_discard - k))
                card = pl.discard[i]
                remove_at(pl.discard, &pl.n_discard, i)
                push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
            gs.turn.hvars[0] = <int16_t>n
            if n == 0:
                return RES_DONE
            return ask(gs, row, 0, ASK_OPTION, 3)
        n = gs.turn.hvars[0]
        pl.n_discard -= <int16_t>n
        for k in range(n):
            card = pl.discard[pl.n_discard + k]
            if choice == 0:
                push_card(pl.deck, &pl.n_deck, MAX_DECK_CARDS, card)
                deck_gained_top(pl)
            elif pl.n_deck < MAX_DECK_CARDS:
                for i in range(pl.n_deck, 0, -1):
                    pl.deck[i] = pl.deck[i - 1]
                pl.deck[0] = <int16_t>card
                pl.n_deck += 1
                deck_gained_bottom(pl)
            else:
                mksim_cards_refused += 1                        # ERR_CAPACITY after the action
        return RES_DONE
    if local == SP_UNDERGROUND_TRAVEL:
        return travel(gs, st, p, row, choice, a[0], 0)
    if local == SP_WINGS_OF_WIND:
        return travel(gs, st, p, row, choice, a[0], a[1])
    if local == SP_CALL_TO_ARMS:
        return call_to_arms(gs, es, st, p, row, choice)
    if local == SP_RECRUIT_FREE:
        return recruit_free(gs, es, p, row, choice)
    if local == SP_MANA_RADIANCE:
        # Choose a basic colour: every player takes a Wound per crystal of it they hold,
        # then you gain `crystals` crystals of it (5.3.2).
        if choice < 0:
            return ask(gs, row, 0, ASK_COLOUR, 0xF)
        for i in range(gs.n_players):
            take_wounds(gs, es, &gs.players[i], gs.players[i].crystals[choice])
        for i in range(a[0]):
            gain_crystal(pl, gs, choice)
        return RES_DONE
    if local == SP_MANA_MELTDOWN:
        # Each other player loses a random crystal (or takes a Wound): with no other player
        # (solo) it does nothing; with others it is not implemented.
        if gs.n_players > 1:                                    # issue 12: a named error
            set_error(gs, ERR_HEROES, HEROES_INTERACTIVE_SPELL, gs.turn.resolving_card)
            return RES_ERROR
        return RES_DONE
    if local == SP_MIND_READ:
        # Choose a colour, gain a crystal of it; the other players' discards need their
        # decisions (not implemented: a named error with more than one player).
        if gs.n_players > 1:                                    # issue 12: a named error
            set_error(gs, ERR_HEROES, HEROES_INTERACTIVE_SPELL, gs.turn.resolving_card)
            return RES_ERROR
        if choice < 0:
            return ask(gs, row, 0, ASK_COLOUR, 0xF)
        gain_crystal(pl, gs, choice)
        return RES_DONE
    if local == SP_OFFERING_DISCARD:
        # Discard up to max_cards non-Wound cards (6.2.2): a crystal of each one's colour;
        # an Artifact (colourless) gives one of a chosen colour.  Stage 0: the card
        # (ASK_HAND_CARD or ASK_DONE); stage 1: the colour for an Artifact (ASK_COLOUR).
        # hvars[0] = cards discarded.
        if choice < 0:
            gs.turn.hvars[0] = 0
        elif gs.turn.handler_stage == 0:
            if choice == ASK_DONE:
                return RES_DONE
            card = pl.hand[choice]
            remove_at(pl.hand, &pl.n_hand, choice)
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
            gs.turn.hvars[0] += 1
            c = card_colour(es, card)
            if c >= COLOURLESS:
                return ask(gs, row, 1, ASK_COLOUR, 0xF)
            gain_crystal(pl, gs, c)
        else:
            gain_crystal(pl, gs, choice)
        if gs.turn.hvars[0] >= a[0]:
            return RES_DONE
        options = non_wound_hand(gs, es)
        if options == 0:
            return RES_DONE
        return ask(gs, row, 0, ASK_HAND_CARD, options | ((<uint64_t>1) << ASK_DONE))
    if local == SP_DESTROY_ENEMY:
        # Tornado / Disintegrate: destroy one target enemy (ASK_OPTION = combat slot), or
        # every enemy with target=all.
        if a[0] == 1:
            for i in range(gs.combat.n_enemies):
                if is_targetable(gs, i) and not colour_resisted(gs, st, i, resolving_colour(gs, es)):
                    destroy(gs, st, i)
            return RES_DONE
        if choice < 0:
            return ask(gs, row, 0, ASK_OPTION, destroy_targets(gs, st, resolving_colour(gs, es)))
        destroy(gs, st, choice)
        return RES_DONE
    if local == SP_EXPLODING_SHIELD:
        # Fire Block `block`; if it is part of a successful block, the blocked enemy is
        # destroyed (fx_combat_event; not an Arcane Immune one, LL-6.7.5).
        gs.combat.block[<int>FIRE] += a[0]
        gs.turn.exploding_pending = 1
        return RES_DONE
    if local == SP_SACRIFICE:
        # Choose green or white and red or blue (ASK_OPTION: 0 green+red, 1 green+blue,
        # 2 white+red, 3 white+blue); per pair of crystals of those two colours: Siege
        # `siege` (green) or Ranged `ranged` (white) Attack, fire (red) or ice (blue); the
        # paired crystals then become mana tokens (5.1.2).
        if choice < 0:
            return ask(gs, row, 0, ASK_OPTION, 0xF)
        c = GREEN if choice < 2 else WHITE
        q = RED if choice % 2 == 0 else BLUE
        n = pl.crystals[c] if pl.crystals[c] < pl.crystals[q] else pl.crystals[q]
        gs.combat.attack[<int>(SIEGE if c == GREEN else RANGED)][<int>(FIRE if q == RED else ICE)] += \
            n * (a[0] if c == GREEN else a[1])
        pl.crystals[c] -= n
        pl.crystals[q] -= n
        gs.turn.mana_tokens[c] += n
        gs.turn.mana_tokens[q] += n
        return RES_DONE
    if local == SP_ENERGY_FLOW:
        # Ready one of your spent Units (heal=1: and heal it; ASK_OPTION = unit slot).  The
        # other players' Units (spent if level <= opponent_max_level) need their owners'
        # states: with more than one player a named error.
        if gs.n_players > 1:                                    # issue 12: a named error
            set_error(gs, ERR_HEROES, HEROES_INTERACTIVE_SPELL, gs.turn.resolving_card)
            return RES_ERROR
        if choice < 0:
            for i in range(MAX_UNITS_):
                if pl.units[i].card >= 0 and not pl.units[i].ready:
                    options |= (<uint64_t>1) << i
            return ask(gs, row, 0, ASK_OPTION, options)
        pl.units[choice].ready = 1                               # 7.2.2
        if a[0] and pl.units[choice].wounds > 0:
            pl.units[choice].wounds = 0                          # 12.3.4
            unit_healed(gs, p, choice)
        return RES_DONE
    if local == SP_CURE_BONUS:
        # Cure: draw a card per Wound healed from hand this turn (so far, and from now on,
        # A_HEAL_WOUND) and ready each Unit healed this turn (so far here, from now on in
        # unit_healed: A_HEAL_UNIT with Cure's own Heal 2 or any other Healing, heal_unit).
        draw_cards(gs, pl, gs.turn.wounds_healed)
        gs.turn.cure_draw += 1
        for i in range(MAX_UNITS_):
            if (gs.turn.units_healed >> i) & 1 and pl.units[i].card >= 0:
                pl.units[i].ready = 1                            # 7.2.2
        return RES_DONE
    if local == SP_SPACE_BENDING:
        # This turn spaces `distance` (2) away count as adjacent for moves (A_MOVE 8 + hex,
        # space_bending_moves); such a move does not provoke (9.4.3).
        if a[0] != 2:
            set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
            return RES_ERROR
        gs.turn.space_bending = 1
        return RES_DONE
    if local == SP_MANA_CLAIM:
        # Take a basic-colour die from the Source and keep it until the round ends (it is
        # not the turn's Source die, 5.5.2 [R]): `now` tokens of its colour now (option 0) or
        # `per_turn` at the start of each of your later turns this round (option 1).
        # Mana Curse with other players (their Wounds) is not implemented: a named error.
        # Stage 0: the die (ASK_DIE); stage 1: the option.  hvars[0] = colour.
        if a[2] and gs.n_players > 1:                           # issue 12: a named error
            set_error(gs, ERR_HEROES, HEROES_INTERACTIVE_SPELL, gs.turn.resolving_card)
            return RES_ERROR
        if choice < 0:
            return ask(gs, row, 0, ASK_DIE, claim_dice(gs))
        if gs.turn.handler_stage == 0:
            gs.turn.hvars[0] = gs.dice[choice]
            pl.claimed_die = <int8_t>(gs.dice[choice] + 1)
            for i in range(choice, gs.n_dice - 1):                # out of the Source until round end
                gs.dice[i] = gs.dice[i + 1]
            gs.n_dice -= 1
            gs.dice_taken = <uint8_t>((gs.dice_taken & ((1 << choice) - 1)) | ((gs.dice_taken >> (choice + 1)) << choice))
            gs.turn.dice_kept = <uint8_t>((gs.turn.dice_kept & ((1 << choice) - 1)) | ((gs.turn.dice_kept >> (choice + 1)) << choice))
            return ask(gs, row, 1, ASK_OPTION, 3)
        if choice == 0:
            gs.turn.mana_tokens[gs.turn.hvars[0]] += a[0]
        else:
            pl.claim_per_turn = <int8_t>a[1]
        return RES_DONE
    if local == SP_CHARM_BONUS:
        # Charm: during an interaction also a crystal of any basic colour (ASK_OPTION 0-3) or an
        # Influence discount of `discount` on one Unit recruited this turn (option 4; 10.6).
        # Outside an interaction it adds nothing to the Influence 4.
        if choice < 0:
            if gs.phase != PH_INTERACT:
                return RES_DONE
            options = 0xF
            if charm_discount_useful(gs, es, p):
                options |= 1 << 4
            return ask(gs, row, 0, ASK_OPTION, options)
        if choice < 4:
            gain_crystal(pl, gs, choice)
        else:
            gs.turn.charm_discount = <int8_t>(gs.turn.charm_discount + a[0])
        return RES_DONE
    if local == SP_POSSESS:
        # Possess: target enemy does not attack this combat; in the Attack phase its Attack
        # (all its attacks, with their elements, without its abilities) may be used against
        # the other enemies (A_POSSESS).  Not on Arcane Immunity (LL-6.7.1).
        if choice < 0:
            options = no_attack_targets(gs, st, WHITE)
            if gs.phase == PH_COMBAT_ATTACK:
                options |= possess_targets(gs, st)
            return ask(gs, row, 0, ASK_ENEMY, options)
        gs.combat.enemies[choice].flags |= CE_NO_ATTACK          # LL-6.1.4
        possess_gain(gs, st, choice)
        return RES_DONE
    if local == SP_CHILL:
        # Chill: target enemy does not attack this combat and loses its fire resistance
        # (lose_fire_resistance); Lethal Chill: does not attack and Armor `armor` (min 1).
        # A blue effect: not on Ice-resistant enemies (11.4.2), nor Arcane Immune ones.
        if choice < 0:
            options = no_attack_targets(gs, st, BLUE)
            if gs.phase == PH_COMBAT_ATTACK:
                options |= chill_late_targets(gs, st, a[0], a[1])
            return ask(gs, row, 0, ASK_ENEMY, options)
        gs.combat.enemies[choice].flags |= CE_NO_ATTACK
        if a[0] != 0:
            set_armor_delta(&gs.combat.enemies[choice], gs.combat.enemies[choice].armor_delta + a[0])
        if a[1]:
            gs.combat.enemies[choice].res_lost |= RES_FIRE
        return RES_DONE
    if local == SP_DISEASE:
        # Disease: every enemy with all its attacks blocked (LL-6.1.6) has Armor 1 for this
        # combat - those blocked now, and those blocked later (fx_combat_event).
        if a[0] != 1:
            set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
            return RES_ERROR
        options = disease_targets(gs, st)
        for i in range(gs.combat.n_enemies):
            if (options >> i) & 1:
                set_armor_delta(&gs.combat.enemies[i], -100)     # Armor 1 (the floor)
        gs.turn.disease_armor = 1
        return RES_DONE
    if local == SP_ARMOR_FORTIFIED:
        # Earthquake: Armor `delta`, or `fortified_delta` on a fortified enemy (11.10.1; site
        # fortification ignored by Demolish does not count); min 1.  target=one: ASK_ENEMY.
        options = enemy_effect_targets(gs, st, GREEN)
        if a[0] == 1 or choice >= 0:
            for i in range(gs.combat.n_enemies):
                if (a[0] == 1 and (options >> i) & 1) or i == choice:
                    set_armor_delta(&gs.combat.enemies[i], gs.combat.enemies[i].armor_delta +
                                    (a[2] if fortification_level(gs, st, i) > 0 else a[1]))
            return RES_DONE
        return ask(gs, row, 0, ASK_ENEMY, options)
    if local == SP_IGNORE_SITE_FORT:
        # Demolish: site fortifications are ignored this turn (11.10.1; read by
        # fortification_level); the Fortified ability still counts.
        gs.turn.ignore_site_fort = 1
        return RES_DONE
    if local == SP_TERRAIN_FORBIDDEN:
        # Mist Form: this terrain may not be entered this turn (read by _rules.move_cost).
        if a[0] < 0 or a[0] >= NUM_TERRAINS:
            set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
            return RES_ERROR
        gs.turn.terrain_closed |= <uint8_t>(1 << a[0])
        return RES_DONE
    if local == SP_VEIL_OF_MIST:
        # Veil of Mist: the hero ignores the first `wounds` Wound(s) from enemies this turn,
        # with their side effects (read by _combat.assign_to_hero).
        gs.turn.ignore_wounds = <int8_t>(gs.turn.ignore_wounds + a[0])
        return RES_DONE
    if local == SP_TIME_BENDING:
        # Time Bending: at the end of the turn this card is set aside for the round
        # (LL-9.6.4), the other cards played return to the hand, nothing is drawn and another
        # turn follows (time_bending_end, finish_turn).
        # Played through Magic Talent (the Spell stays in the offer, on top of the play area
        # lies Magic Talent): that card is set aside instead (LL-9.6.4).  Through the Tome of
        # All Spells the resolving card is the Tome itself (thrown away: nothing set aside).
        k = gs.turn.resolving_card
        if k >= 0 and pl.n_play > 0 and pl.play_area[pl.n_play - 1] != k and spell_in_offer(gs, k):
            k = pl.play_area[pl.n_play - 1]
        gs.turn.time_bending = <int16_t>(k + 1 if k >= 0 else 0x7FFF)
        return RES_DONE
    if local == SP_UNDERGROUND_ATTACK:
        return underground_attack(gs, es, st, p, row, choice, a[0])
    if local == SP_WINGS_OF_NIGHT:
        # Wings of Night: target enemy does not attack this combat; each further target costs
        # Move: first_extra_cost, then + step each (1, 2, 3 ...).  Not on Arcane Immunity.
        # ASK_ENEMY, ASK_DONE stops; later in the combat Move played then can buy more
        # targets (A_WINGS_TARGET).  TurnState.wings_targets = enemies targeted.
        if choice < 0:
            gs.turn.wings_targets = 0
            gs.turn.wings_first = <int8_t>a[0]
            gs.turn.wings_step = <int8_t>a[1]
            return ask(gs, row, 0, ASK_ENEMY, no_attack_targets(gs, st, WHITE))
        if choice == ASK_DONE:
            return RES_DONE
        wings_take(gs, choice)
        options = wings_options(gs, st)
        if options == 0:
            return RES_DONE
        return ask(gs, row, 0, ASK_ENEMY, options | ((<uint64_t>1) << ASK_DONE))
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR


cdef bint charm_discount_useful(const GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """Charm's discount: a Unit of the offer can be recruited at this site (10.6.1; the white
    city, 10.10, and a refugee camp, LL-3.4.1, take any)."""
    cdef int site = interaction_site(gs, es, p), k, colour = interaction_city(gs, es, p)
    for k in range(gs.n_unit_offer):
        if gs.unit_offer[k] >= 0 and can_recruit(es, gs.unit_offer[k], site, colour):
            return True
    return False


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


cdef uint64_t claim_dice(const GameState* gs) noexcept nogil:
    """Source dice not taken this turn that show a basic colour (Mana Claim)."""
    cdef uint64_t o = 0
    cdef int i
    for i in range(gs.n_dice):
        if not (gs.dice_taken >> i) & 1 and gs.dice[i] < GOLD:
            o |= (<uint64_t>1) << i
    return o


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
    if not gs.turn.space_bending or h < 0 or gs.turn.action_taken:
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
    if not gs.turn.space_bending or gs.phase != PH_MOVE or gs.turn.action_taken or b < 0 \
            or not bend_ok(gs, st, b, to):
        return ERR_ILLEGAL
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

cdef void fx_combat_event(GameState* gs, const EngineStatics* es, const Statics* st, int p, int event,
                          int slot) noexcept nogil:
    """Combat-timed parts of Burning / Exploding Shield, Bow of Starsdawn and Sword of
    Justice.  `slot`: the enemy just blocked (FXE_BLOCKED)."""
    cdef Player* pl = &gs.players[p]
    cdef uint32_t now
    cdef int i
    if event == FXE_BLOCKED:
        gs.turn.burning_armed += gs.turn.burning_pending          # it was part of this block
        gs.turn.burning_pending = 0
        if gs.turn.exploding_pending:
            gs.turn.exploding_pending = 0
            if not colour_resisted(gs, st, slot, RED):          # 11.4.2: a red effect
                destroy(gs, st, slot)
        if gs.turn.disease_armor and slot >= 0 and all_attacks_blocked(gs, st, slot) \
                and enemy_effect_ok(gs, st, slot, GREEN):
            set_armor_delta(&gs.combat.enemies[slot], -100)         # Disease: Armor 1
    elif event == FXE_PHASE_END:
        if gs.phase == PH_COMBAT_BLOCK:
            gs.turn.burning_pending = 0                             # unused block points are lost
            gs.turn.exploding_pending = 0
        if gs.turn.bow_fame > 0 and gs.turn.bow_phase == gs.phase:
            now = defeated_mask(gs) & ~gs.turn.phase_defeated
            pl.fame += gs.turn.bow_fame * popcount32(now)
            gs.turn.bow_fame = 0
            gs.turn.bow_phase = 0
    elif event == FXE_PHASE_START:
        gs.turn.phase_defeated = defeated_mask(gs)
        if gs.phase == PH_COMBAT_ATTACK and gs.turn.burning_armed > 0:
            gs.combat.attack[<int>MELEE][<int>FIRE] += gs.turn.burning_armed
            gs.turn.burning_armed = 0
    elif event == FXE_COMBAT_END:
        if gs.turn.sword_fame > 0:
            pl.fame += gs.turn.sword_fame * popcount32(defeated_mask(gs))
        gs.turn.sword_fame = 0
        gs.turn.bow_fame = 0
        gs.turn.bow_phase = 0
        gs.turn.burning_pending = 0
        gs.turn.burning_armed = 0
        gs.turn.exploding_pending = 0
        gs.turn.phase_defeated = 0
        gs.turn.disease_armor = 0                                   # Disease, Possess, Wings: this combat
        gs.turn.wings_targets = 0
        gs.turn.possess_slot = 0
        for i in range(4):
            gs.turn.possess_attack[i] = 0


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


cdef bint spells_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                         int local, PendingCheck* c) noexcept nogil:
    """Bounds of a pending Spell question (pending_check, _engine.pyx)."""
    cdef const Player* pl = &gs.players[p]
    cdef int stage = gs.turn.handler_stage, u, k
    if local == SP_RESTORATION:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_UNIT, -1, True)
    if local == SP_MEDITATION:                          # hvars[0] = cards on top of the discard pile
        return pc_stage(c, gs, 0) or pc_hvar(c, gs, 0, 1, pl.n_discard if pl.n_discard < 6 else 6) \
            or pc_asks(c, ASK_OPTION, 2)
    if local == SP_UNDERGROUND_TRAVEL or local == SP_WINGS_OF_WIND or local == SP_UNDERGROUND_ATTACK:
        return pc_stage(c, gs, 0) or pc_travel(c, gs, local == SP_UNDERGROUND_ATTACK)
    if local == SP_CALL_TO_ARMS:
        # stage 1: hvars[0] = the unit; 2: hvars[1] = the row of one of its abilities
        if pc_stage(c, gs, 2):
            return True
        if stage == 0:
            return pc_asks(c, ASK_OFFER, -1, False, gs.unit_offer, gs.n_unit_offer)
        if pc_hvar(c, gs, 0, 0, st.units.rows - 1):
            return True
        u = gs.turn.hvars[0]
        k = unit_value(es, u, es.units.first_ability)
        if stage == 1:
            return pc_asks(c, ASK_OPTION, unit_value(es, u, es.units.n_abilities))
        return pc_hvar(c, gs, 1, k, k + unit_value(es, u, es.units.n_abilities) - 1) or pc_asks(c, ASK_PAYMENT)
    if local == SP_RECRUIT_FREE:                        # stage 1: hvars[0] = the offer slot
        if pc_stage(c, gs, 1):
            return True
        if stage == 0:
            return pc_asks(c, ASK_OFFER, -1, False, gs.unit_offer, gs.n_unit_offer)
        if pc_hvar(c, gs, 0, 0, gs.n_unit_offer - 1):
            return True
        if gs.unit_offer[gs.turn.hvars[0]] < 0:
            return pc_bad(c, PF_HVAR, gs.turn.hvars[0], -1, -1)
        return pc_asks(c, ASK_UNIT)
    if local == SP_MANA_RADIANCE or local == SP_MIND_READ:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_COLOUR, 4)
    if local == SP_OFFERING_DISCARD:
        if pc_stage(c, gs, 1):
            return True
        return pc_asks(c, ASK_HAND_CARD, -1, True) if stage == 0 else pc_asks(c, ASK_COLOUR, 4)
    if local == SP_DESTROY_ENEMY:                       # option = combat slot
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, pc_n_enemies(gs)) \
            or pc_subset(c, gs, live_slots(gs))
    if local == SP_SACRIFICE:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, 4)
    if local == SP_ENERGY_FLOW:                         # option = unit slot
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, MAX_UNITS_) or pc_subset(c, gs, held_unit_slots(pl))
    if local == SP_MANA_CLAIM:                          # stage 1: hvars[0] = the die's colour
        if pc_stage(c, gs, 1):
            return True
        if stage == 0:
            return pc_asks(c, ASK_DIE)
        return pc_hvar(c, gs, 0, 0, 3) or pc_asks(c, ASK_OPTION, 2)
    if local == SP_CHARM_BONUS:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, 5)
    if local == SP_POSSESS or local == SP_CHILL or local == SP_ARMOR_FORTIFIED:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY)
    if local == SP_WINGS_OF_NIGHT:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY, -1, True)
    c.ask = -1
    return False


cdef bint pc_travel(PendingCheck* c, const GameState* gs, bint attack) noexcept nogil:
    """travel / underground_attack: hvars[0] spaces moved, hvars[1] the most, hvars[2] Move
    per space, (attack) hvars[3] the space it started from; options: directions."""
    if pc_hvar(c, gs, 1, 1, 127) or pc_hvar(c, gs, 0, 0, gs.turn.hvars[1] - 1) or pc_hvar(c, gs, 2, 0, 127):
        return True
    if attack and pc_hvar(c, gs, 3, 0, gs.n_hexes - 1):
        return True
    return pc_asks(c, ASK_OPTION, 6, True) or pc_directions(c, gs)


cdef uint64_t live_slots(const GameState* gs) noexcept nogil:
    cdef uint64_t o = 0
    cdef int s
    for s in range(pc_n_enemies(gs)):
        if gs.combat.enemies[s].token >= 0:
            o |= (<uint64_t>1) << s
    return o


cdef uint64_t held_unit_slots(const Player* pl) noexcept nogil:
    cdef uint64_t o = 0
    cdef int i
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0:
            o |= (<uint64_t>1) << i
    return o
