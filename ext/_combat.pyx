# cython: language_level=3
"""Combat with enemy tokens: rules 11 (combat), 12 (wounds) and Lost Legion LL-6.

The C functions (``noexcept nogil``, declared in ``_combat.pxd``) work on ``gs.combat`` and
the static views of ``_state.Statics``.  Which cards were played is the engine's business:
attack points arrive totalled per [kind][element] in ``gs.combat.attack`` and block points
per element in ``gs.combat.block``.  :class:`CombatTester` is a thin Python surface over a
:class:`mksim._state.GameCore` for tests.

Conventions
-----------
* The fighting hero is ``gs.current``; Fame and Reputation go to that player.
* Tokens keep lying on their hex (``CombatEnemy.hex``) during the combat; a defeated token
  leaves its hex and goes at once to its colour's discard pile (11.5.7 [R]).
* A summoned monster (11.6.2) gets its own slot with ``summoned_by`` = its summoner's slot;
  summoners have no attack of their own (11.11 Summon), so the monster "replaces" it in the
  Block and Assign Damage phases.  Summoned monsters are never targets of attacks and are
  discarded (``CE_GONE``) when fully blocked or at the end of the Assign Damage phase
  (11.6.6 [R], 11.7.11, 21.2 A18).
* Each attack of an enemy is blocked / deals damage separately (LL-6.1.2): bit i of
  ``CombatEnemy.blocked`` / ``.damaged``.  ``CE_BLOCKED`` = every attack was blocked
  (LL-6.1.6, LL-6.3.8); ``CE_DAMAGE_DONE`` = every attack was blocked or dealt damage.

What the engine must still do (site knowledge, 11.12):
* before ``combat_begin``: Reputation -1 for an assault (11.1.1, LL-6.9.4 order), draw the
  enemies of dungeons / tombs / monastery burning (10.8.1, 11.1.4), mark cities' garrisons
  site-fortified (11.10.1) and rampaging joiners as rampaging (11.2.2, 11.10.4);
* after ``combat_end``: Shields and conquest (11.12.2-11.12.3, use ``combat_site_cleared``
  and the CE_DEFEATED slots, left intact for reading), rampaging Reputation +1 orc / +2
  draconum (10.7.14.2), rewards at end of turn (13.5), withdrawal after a failed assault
  (11.12.4), setting gs.phase back.  City defender bonuses (11.13.1) are applied here, to
  the garrison tokens of the assaulted city (city_defended).
"""
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint32_t

from mksim._types cimport (Modifier, MAX_MODS, MK_NONE, MK_IGNORE_SITE_FORT, MK_UNIT_ATTACK_BLOCK,
    MK_RECRUIT_DISCOUNT, MK_EXPLORE_DISCOUNT, MK_BLOCKED_ARMOR_ONE, NUM_MOD_KINDS, MS_NEXT_CARD, MS_PHASE,
    MS_COMBAT, MS_TURN, MS_ROUND, NUM_MOD_SCOPES)
from mksim._modifiers cimport (mod_add, mod_find, mod_has, mod_sum, mod_remove_at, mod_remove_kind, mod_set,
    mod_expire, event_scope, EV_TURN_START, EV_TURN_END, EV_PHASE_START, EV_PHASE_END, EV_CARD_PLAYED,
    EV_BLOCK_COMMITTED, EV_ATTACK_COMMITTED, EV_DAMAGE_ASSIGNED, EV_COMBAT_END, EV_ROUND_END, NUM_EVENTS)
from mksim._types cimport MK_IGNORE_WOUNDS, MK_NO_UNIT_DAMAGE, MK_NO_SOURCE_DICE, MK_NO_RECRUIT, MK_MANA_ANYTIME, MK_ENDLESS_MANA, MK_DICE_ANY_BASIC, MK_CRYSTAL_RETURN, MK_SPACE_BENDING, MK_PROTECTION, MK_INFLUENCE_BLOCK, MK_REVEAL_DISTANCE, MK_EXPLORE_RANGE, MK_DRAW_PER_HEAL, MK_CURE, MK_ATTACKS_COLDFIRE, MK_ATTACKS_SIEGE, MK_SWORD_FAME, MK_DODGE_ATTACK  # turn / combat-long kinds (issue 12)
from mksim._modifiers cimport mod_take, mod_find, mod_has, mod_sum, mod_remove_kind, mod_find_arg, mod_sum_arg, mod_has_arg  # (issue 12)
from mksim._types cimport MK_UNIT_GLORY, MK_OTHER_UNITS_ATTACK, MK_SWORD_DOUBLE, MK_BOW_POWERED, MK_LEARNING, MK_CHIVALRY  # third move (issue 12)
from mksim._types cimport (
    GameState, CombatEnemy, Combat, Player, Unit, Hex,
    MAX_PLAYERS, MAX_HAND_CARDS, MAX_DISCARD_CARDS, MAX_UNITS, MAX_TOKENS, MAX_PILE, MAX_COMBAT_ENEMIES, NUM_PILES,
    PHYSICAL, FIRE, ICE, COLDFIRE, MELEE, RANGED, SIEGE,
    PH_COMBAT_RANGED, PH_COMBAT_BLOCK, PH_COMBAT_DAMAGE, PH_COMBAT_ATTACK,
    CE_DEFEATED, CE_BLOCKED, CE_SITE_FORTIFIED, CE_NO_ATTACK, CE_DAMAGE_DONE, CE_RAMPAGING,
    CE_GONE, CE_NO_FORTIFICATION, HEX_TOKENS_REVEALED, CEU_NO_RESISTANCES,
)
from mksim._state cimport GameCore, Statics, Table, draw_token

cdef enum:
    DECK_WOUND = 4             # mksim.tables.DECK_TYPES index of the Wound card
    REP_MIN = -7               # reputation track ends (10.3; reputation.toml)
    REP_MAX = 8

# ---------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------

cdef inline int32_t tv(const Table* t, int row, int col) noexcept nogil:
    return t.data[row * t.width + col]


cdef inline int ev(const GameState* gs, const Statics* st, int slot, int col) noexcept nogil:
    """Column `col` of the enemies table for the enemy in combat slot `slot`, less what an
    effect took away this combat (Know Your Prey: an ability, a resistance, an element)."""
    cdef const CombatEnemy* e = &gs.combat.enemies[slot]
    cdef int v = tv(&st.enemies, e.enemy, col)
    if col == st.cols.enemy_abilities:
        return v & ~(<int>e.lost_abilities)
    if col == st.cols.enemy_resistances:
        return v & ~(<int>e.lost_resistances)
    if col >= st.cols.enemy_element0 and col < st.cols.enemy_element0 + MAX_ENEMY_ATTACKS \
            and e.element_set[col - st.cols.enemy_element0] > 0:
        return e.element_set[col - st.cols.enemy_element0] - 1
    return v


cdef inline bint valid_slot(const GameState* gs, int slot) noexcept nogil:
    return 0 <= slot < gs.combat.n_enemies and gs.combat.enemies[slot].token >= 0


cdef inline int clamp_rep(int r) noexcept nogil:
    if r < REP_MIN:
        return REP_MIN
    if r > REP_MAX:
        return REP_MAX
    return r


cdef void reset_slot(CombatEnemy* e) noexcept nogil:
    cdef int i
    e.token = -1
    e.enemy = -1
    e.armor_delta = 0
    e.flags = 0
    e.summoned_by = -1
    e.hex = -1
    e.blocked = 0
    e.damaged = 0
    for i in range(MAX_ENEMY_ATTACKS):
        e.attack_delta[i] = 0
        e.element_set[i] = 0
    e.lost_abilities = 0
    e.lost_resistances = 0
    e.res_lost = 0
    e.unit_fx = 0


cdef void clear_pools(Combat* c) noexcept nogil:
    """11.4.5: points cannot be saved; each attack / block is resolved on the spot."""
    cdef int k, el
    for k in range(3):
        for el in range(4):
            c.attack[k][el] = 0
    for el in range(4):
        c.block[el] = 0
    c.targets = 0
    c.block_target = -1
    c.possess_lock = 0                              # Possess: its Attack left the pool


cdef void remove_from_hex(GameState* gs, int hex, int token) noexcept nogil:
    cdef Hex* hx
    cdef int i, j
    if hex < 0 or hex >= gs.n_hexes:
        return
    hx = &gs.hexes[hex]
    for i in range(hx.n_tokens):
        if hx.tokens[i] == token:
            for j in range(i, hx.n_tokens - 1):
                hx.tokens[j] = hx.tokens[j + 1]
            hx.n_tokens -= 1
            hx.tokens[hx.n_tokens] = 0
            return


cdef void add_to_hex(GameState* gs, int hex, int token) noexcept nogil:
    cdef Hex* hx
    cdef int i
    if hex < 0 or hex >= gs.n_hexes:
        return
    hx = &gs.hexes[hex]
    for i in range(hx.n_tokens):
        if hx.tokens[i] == token:
            return
    if hx.n_tokens < 6:
        hx.tokens[hx.n_tokens] = <int16_t>token
        hx.n_tokens += 1


cdef void discard_token(GameState* gs, const Statics* st, int token) noexcept nogil:
    """A token goes to its colour's discard pile (11.5.7, 11.12.4; 1.2.2)."""
    cdef int colour
    if token < 0 or token >= MAX_TOKENS or gs.token_enemy[token] < 0:
        return
    colour = tv(&st.enemies, gs.token_enemy[token], st.cols.enemy_colour)
    if colour < 0 or colour >= NUM_PILES or gs.n_pile_discard[colour] >= MAX_PILE:
        return
    gs.pile_discard[colour][gs.n_pile_discard[colour]] = <int16_t>token
    gs.n_pile_discard[colour] += 1


cdef void discard_summoned(GameState* gs, const Statics* st, int slot) noexcept nogil:
    """A summoned monster leaves the combat without Fame (11.6.6 [R], 11.7.11, A18)."""
    cdef CombatEnemy* e = &gs.combat.enemies[slot]
    if e.flags & CE_GONE:
        return
    e.flags |= CE_GONE
    discard_token(gs, st, e.token)


cdef void discard_non_wounds(GameState* gs, const Statics* st, int player) noexcept nogil:
    """Discard every non-Wound card from the hand (11.7.8 knock-out, 11.7.10 paralyze)."""
    cdef Player* pl = &gs.players[player]
    cdef int i, card, kept = 0
    for i in range(pl.n_hand):
        card = pl.hand[i]
        if card >= 0 and tv(&st.cards, card, st.cols.card_deck) == DECK_WOUND:
            pl.hand[kept] = <int16_t>card
            kept += 1
        elif pl.n_discard < MAX_DISCARD_CARDS:
            pl.discard[pl.n_discard] = <int16_t>card
            pl.n_discard += 1
        else:
            gs.cards_refused += 1                   # the engine stops the game (ERR_CAPACITY)
    if kept < pl.n_hand:
        gs.turn.played_card = 1                     # 4.3.2: cards were discarded this turn
    pl.n_hand = <int16_t>kept


cdef inline int level_row(const GameState* gs, const Statics* st, int player) noexcept nogil:
    cdef int row = gs.players[player].level - 1
    if row < 0:
        row = 0
    if row >= st.levels.rows:
        row = st.levels.rows - 1
    return row


# ---------------------------------------------------------------------------------------
# Setup and phases (11.1-11.3, 11.12)
# ---------------------------------------------------------------------------------------

cdef int combat_begin(GameState* gs, const Statics* st, const int* tokens, const int* origin_hex,
                      int n, int site_hex, uint32_t site_fortified_mask, uint32_t rampaging_mask,
                      int night_rules, int units_allowed) noexcept nogil:
    """Start a combat with the n token instances `tokens` (11.3.1) and enter the Ranged and
    Siege Attack phase (11.3.2).  origin_hex[i] is the hex token i lies on (-1 = drawn for
    this combat; NULL = all -1).  Bit i of site_fortified_mask: token i defends a fortified
    site (11.10.1); bit i of rampaging_mask: token i is a rampaging enemy, never fortified by
    the site (11.2.2, 11.10.4).  An Unfortified enemy ignores site fortification (LL-6.6.1).
    Returns n, CB_CAPACITY or CB_ILLEGAL (unknown token)."""
    cdef Combat* c = &gs.combat
    cdef CombatEnemy* e
    cdef Player* pl
    cdef int i, tok, ab
    if n < 0 or n > MAX_COMBAT_ENEMIES:
        return CB_CAPACITY
    for i in range(n):
        tok = tokens[i]
        if tok < 0 or tok >= MAX_TOKENS or gs.token_enemy[tok] < 0:
            return CB_ILLEGAL
    c.active = 1
    if 0 <= gs.current < MAX_PLAYERS:
        gs.players[gs.current].stats.combats += 1                # results store
    c.site_hex = <int16_t>site_hex
    c.night_rules = 1 if night_rules else 0        # 5.6 (dungeons, tombs): read by the engine
    c.units_allowed = 1 if units_allowed else 0    # 7.3.8
    clear_pools(c)
    c.dmg_slot = -1
    c.dmg_attack = 0
    c.dmg_left = 0
    for i in range(MAX_COMBAT_ENEMIES):
        reset_slot(&c.enemies[i])
    for i in range(n):
        e = &c.enemies[i]
        e.token = <int16_t>tokens[i]
        e.enemy = gs.token_enemy[tokens[i]]
        e.hex = <int16_t>(origin_hex[i] if origin_hex != NULL else -1)
        ab = tv(&st.enemies, e.enemy, st.cols.enemy_abilities)
        if (rampaging_mask >> i) & 1:
            e.flags |= CE_RAMPAGING                 # 11.2.2, 11.10.4: not fortified by the site
        elif (site_fortified_mask >> i) & 1 and not (ab & AB_UNFORTIFIED):
            e.flags |= CE_SITE_FORTIFIED            # 11.10.1; LL-6.6.1 Unfortified ignores it
    c.n_enemies = <int8_t>n
    if 0 <= gs.current < MAX_PLAYERS:               # per-combat counters (11.7.6, 11.7.8, A17)
        pl = &gs.players[gs.current]
        pl.knocked_out = 0
        pl.wounds_this_combat = 0
        for i in range(MAX_UNITS):
            pl.units[i].damaged_this_combat = 0
    gs.phase = PH_COMBAT_RANGED                     # 11.3.2
    return n


cdef int combat_summon(GameState* gs, const Statics* st) noexcept nogil:
    """Start of the Block phase (11.6.2 [R]): every undefeated summoner draws `summons`
    tokens of its summon pile (brown), each in a new slot replacing it for the Block and
    Assign Damage phases (LL-6.1.3, LL-6.1.9).  A summoner defeated in the Ranged phase
    summons nothing (A18); one that "does not attack" neither (summon is an attack type,
    LL-6.2.1, LL-6.1.4).  Idempotent.  Returns the number of monsters summoned, or
    CB_CAPACITY (slots full; the drawn token goes back on its pile)."""
    cdef Combat* c = &gs.combat
    cdef CombatEnemy* e
    cdef int s, j, k, pile, tok, n0 = c.n_enemies, count = 0
    cdef bint has_children
    for s in range(n0):
        e = &c.enemies[s]
        if e.token < 0 or e.summoned_by >= 0 or e.flags & (CE_DEFEATED | CE_NO_ATTACK | CE_GONE):
            continue
        k = ev(gs, st, s, st.cols.enemy_summons)
        if k <= 0:
            continue
        has_children = False
        for j in range(c.n_enemies):
            if c.enemies[j].summoned_by == s:
                has_children = True
        if has_children:
            continue
        pile = ev(gs, st, s, st.cols.enemy_summon_pile)
        if pile < 0 or pile >= NUM_PILES:
            continue
        for j in range(k):
            if c.n_enemies >= MAX_COMBAT_ENEMIES:
                return CB_CAPACITY
            tok = draw_token(gs, pile)
            if tok < 0:
                break                               # pile and discards empty: nothing to summon
            e = &c.enemies[c.n_enemies]
            reset_slot(e)
            e.token = <int16_t>tok
            e.enemy = gs.token_enemy[tok]
            e.summoned_by = <int8_t>s
            c.n_enemies += 1
            count += 1
    return count


cdef bint any_live_attack(const GameState* gs, const Statics* st) noexcept nogil:
    cdef int s, i
    for s in range(gs.combat.n_enemies):
        for i in range(enemy_n_attacks(gs, st, s)):
            if attack_is_live(gs, st, s, i):
                return True
    return False


cdef void mark_blocked(GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    cdef CombatEnemy* e = &gs.combat.enemies[slot]
    e.blocked |= <uint8_t>(1 << attack_index)
    if all_attacks_blocked(gs, st, slot):
        e.flags |= CE_BLOCKED | CE_DAMAGE_DONE      # LL-6.1.6: blocked only if all attacks are
        if e.summoned_by >= 0:
            discard_summoned(gs, st, slot)          # 11.6.6 [R], A18: at once, no Fame


cdef int combat_next_phase(GameState* gs, const Statics* st) noexcept nogil:
    """Move to the next phase (11.3.2); returns the new gs.phase or CB_ILLEGAL.

    Ranged -> Block: unused points are lost (11.4.5), summoners summon (11.6.2).
    Block -> Assign Damage: attacks reduced to 0 count as blocked (LL-6.3.6, LL-6.5.3); a
      summoner whose monsters were all blocked counts as blocked (LL-6.1.3, LL-6.1.6); when
      no attack is left unblocked the phase is skipped (11.7.1 [R]).
    Assign Damage -> Attack: refused while damage is unassigned (11.7.3, 11.7.12); the
      summoned monsters are discarded (11.7.11, A18)."""
    cdef Combat* c = &gs.combat
    cdef CombatEnemy* e
    cdef int ph = gs.phase
    cdef int s, i, j
    cdef bint all_blocked, any_child
    if not c.active:
        return CB_ILLEGAL
    if ph == PH_COMBAT_RANGED:
        clear_pools(c)
        gs.phase = PH_COMBAT_BLOCK
        combat_summon(gs, st)
        return PH_COMBAT_BLOCK
    if ph == PH_COMBAT_BLOCK:
        clear_pools(c)
        for s in range(c.n_enemies):
            for i in range(enemy_n_attacks(gs, st, s)):
                if attack_is_live(gs, st, s, i) and enemy_attack_value(gs, st, s, i) == 0:
                    mark_blocked(gs, st, s, i)      # LL-6.3.6
        for s in range(c.n_enemies):
            e = &c.enemies[s]
            if e.token < 0 or e.summoned_by >= 0 or ev(gs, st, s, st.cols.enemy_summons) <= 0:
                continue
            all_blocked = True
            any_child = False
            for j in range(c.n_enemies):
                if c.enemies[j].summoned_by == s:
                    any_child = True
                    if not (c.enemies[j].flags & CE_BLOCKED):
                        all_blocked = False
            if any_child and all_blocked:
                e.flags |= CE_BLOCKED               # LL-6.1.3, LL-6.1.6
        if any_live_attack(gs, st):
            gs.phase = PH_COMBAT_DAMAGE
            return PH_COMBAT_DAMAGE
        ph = PH_COMBAT_DAMAGE                       # 11.7.1 [R]: nothing hits, skip the phase
    if ph == PH_COMBAT_DAMAGE:
        if c.dmg_slot >= 0 or any_live_attack(gs, st):
            return CB_ILLEGAL                       # 11.7.3: all damage MUST be assigned
        for s in range(c.n_enemies):
            if c.enemies[s].token >= 0 and c.enemies[s].summoned_by >= 0:
                discard_summoned(gs, st, s)         # 11.7.11 [R], A18
        clear_pools(c)
        gs.phase = PH_COMBAT_ATTACK
        return PH_COMBAT_ATTACK
    return CB_ILLEGAL


cdef int combat_end(GameState* gs, const Statics* st, int policy, int* n_undefeated) noexcept nogil:
    """End of combat after the Attack phase (11.12.1).  Defeated tokens already went to
    their discard piles (11.5.7).  Undefeated tokens: rampaging ones stay on their space
    (11.12.4); the others, by `policy`: UNDEFEATED_DISCARD (dungeon, tomb, monastery:
    discarded, 11.12.4) or UNDEFEATED_STAY (den, spawning grounds, ruins, fortified site:
    they stay on the site hex, revealed, 11.12.4).  Leftover summoned monsters are discarded
    (11.7.11).  Returns the number of defeated enemies (summoned monsters not counted) and
    writes the number of undefeated ones to *n_undefeated (may be NULL).  The enemy slots
    stay readable until the next combat_begin; gs.phase is left to the engine."""
    cdef Combat* c = &gs.combat
    cdef CombatEnemy* e
    cdef int s, defeated = 0, undefeated = 0
    if not c.active:
        return CB_ILLEGAL
    for s in range(c.n_enemies):
        e = &c.enemies[s]
        if e.token < 0:
            continue
        if e.summoned_by >= 0:
            discard_summoned(gs, st, s)
            continue
        if e.flags & CE_DEFEATED:
            defeated += 1
            continue
        undefeated += 1
        if e.flags & CE_RAMPAGING:
            continue                                # 11.12.4: stays on its space
        if policy == UNDEFEATED_DISCARD:
            if e.hex >= 0:
                remove_from_hex(gs, e.hex, e.token)
            discard_token(gs, st, e.token)          # 11.12.4: dungeon, tomb, monastery
        else:
            if e.hex < 0 and c.site_hex >= 0:
                add_to_hex(gs, c.site_hex, e.token)
                e.hex = c.site_hex
            if e.hex >= 0:
                gs.hexes[e.hex].flags |= HEX_TOKENS_REVEALED   # 11.12.4: survivors revealed
    c.active = 0
    clear_pools(c)
    c.dmg_slot = -1
    c.dmg_left = 0
    if n_undefeated != NULL:
        n_undefeated[0] = undefeated
    return defeated


cdef bint combat_site_cleared(const GameState* gs) noexcept nogil:
    """Every enemy of the site (not rampaging joiners, not summoned monsters) is defeated
    (11.12.3: a fortified site is conquered whether or not joiners were defeated)."""
    cdef int s
    cdef const CombatEnemy* e
    for s in range(gs.combat.n_enemies):
        e = &gs.combat.enemies[s]
        if e.token < 0 or e.summoned_by >= 0 or e.flags & CE_RAMPAGING:
            continue
        if not (e.flags & CE_DEFEATED):
            return False
    return True


# ---------------------------------------------------------------------------------------
# Enemy queries
# ---------------------------------------------------------------------------------------

cdef int enemy_ability(const GameState* gs, const Statics* st, int slot, int ability) noexcept nogil:
    """Nonzero if the enemy in `slot` has the AB_* ability (token data, 11.11.1)."""
    if not valid_slot(gs, slot):
        return 0
    return ev(gs, st, slot, st.cols.enemy_abilities) & ability


cdef int city_defended(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """11.13.1: basic colour (RED BLUE WHITE GREEN) of the city whose garrison the enemy in
    `slot` belongs to, -1 if it is no city defender.  A defender is a garrison token lying on
    the assaulted city's space; rampaging enemies that join the assault are not (11.10.4,
    11.2.2), nor are summoned monsters (their token never lay on the city, 11.6.2: reading,
    like fortification, which they do not have either)."""
    cdef const Combat* c = &gs.combat
    cdef const CombatEnemy* e
    cdef int colour = 0, h = c.site_hex
    if not valid_slot(gs, slot) or h < 0 or gs.hexes[h].site != st.sites.city:
        return -1
    e = &c.enemies[slot]
    if e.hex != h or e.summoned_by >= 0 or e.flags & CE_RAMPAGING:
        return -1
    while colour < 4 and not ((gs.hexes[h].colours >> colour) & 1):
        colour += 1
    return colour if colour < 4 else -1


cdef int attack_ability(const GameState* gs, const Statics* st, int slot, int attack_index,
                        int ability) noexcept nogil:
    """Nonzero if attack i of the enemy has the AB_* ability: its token's abilities (they
    apply to each attack, LL-6.1.8) or the red / green city bonus, which only a physical
    attack gains (11.13.1: Brutal / Poison; LL-6.1.7 each attack separately)."""
    cdef int colour
    if ev(gs, st, slot, st.cols.enemy_abilities) & ability:
        return ability
    colour = city_defended(gs, st, slot)
    if colour >= 0 and st.city_physical_ab[colour] & ability \
            and attack_element(gs, st, slot, attack_index) == PHYSICAL:
        return ability
    return 0


cdef int armor_in_phase(const GameState* gs, const Statics* st, int slot, int phase) noexcept nogil:
    cdef const CombatEnemy* e = &gs.combat.enemies[slot]
    cdef int armor = ev(gs, st, slot, st.cols.enemy_armor)
    cdef int high = ev(gs, st, slot, st.cols.enemy_armor_elusive)
    cdef int colour
    if ev(gs, st, slot, st.cols.enemy_abilities) & AB_ELUSIVE and high > 0:
        # LL-6.3.3-6.3.5: the higher value, except in the Attack phase after all its attacks
        # were blocked (LL-6.3.4); prevented attacks keep the higher value (LL-6.3.5)
        if not (phase == PH_COMBAT_ATTACK and e.flags & CE_BLOCKED and not (e.flags & CE_NO_ATTACK)):
            armor = high
    armor += e.armor_delta                          # LL-6.3.7: modifiers apply to both values
    colour = city_defended(gs, st, slot)
    if colour >= 0:
        armor += st.city_armor[colour]              # 11.13.1: white city +1 Armor
    if armor < 1:
        armor = 1                                   # effects never take Armor below 1
    return armor


cdef int enemy_armor(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Armor of the enemy in `slot` now (gs.phase): elusive value per LL-6.3, plus armor_delta,
    at least 1, with the white city's +1 for its defenders (11.13.1); CB_ILLEGAL for an
    empty slot."""
    if not valid_slot(gs, slot):
        return CB_ILLEGAL
    return armor_in_phase(gs, st, slot, gs.phase)


cdef int fortification_level(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """0, 1 (fortified) or 2 (doubly fortified): one level for defending a fortified site,
    one for the Fortified ability (11.10.1, 11.5.4); 0 for Unfortified enemies (LL-6.6.1),
    rampaging joiners are not site-fortified (11.10.4); CE_NO_FORTIFICATION (an effect)
    removes both."""
    cdef const CombatEnemy* e
    cdef int ab, lvl = 0
    if not valid_slot(gs, slot):
        return 0
    e = &gs.combat.enemies[slot]
    ab = ev(gs, st, slot, st.cols.enemy_abilities)
    if ab & AB_UNFORTIFIED or e.flags & CE_NO_FORTIFICATION:
        return 0
    if e.flags & CE_SITE_FORTIFIED and not (e.flags & CE_RAMPAGING) and not mod_has(&gs.turn, MK_IGNORE_SITE_FORT):
        lvl += 1                                    # (Demolish, Underground Attack: ignored)
    if ab & AB_FORTIFIED:
        lvl += 1
    return lvl


cdef bint is_targetable(const GameState* gs, int slot) noexcept nogil:
    """An enemy that may be chosen as a target of an attack (11.5.2): in the combat, not
    defeated (11.5.7), not a summoned monster (those exist only in the Block and Assign
    Damage phases, 11.6.2)."""
    cdef const CombatEnemy* e
    if not valid_slot(gs, slot):
        return False
    e = &gs.combat.enemies[slot]
    return not (e.flags & (CE_DEFEATED | CE_GONE)) and e.summoned_by < 0


cdef bint can_target_in_ranged(const GameState* gs, const Statics* st, int slot, int siege_only) noexcept nogil:
    """May the enemy be a target in the Ranged and Siege phase?  Doubly fortified: never
    (11.5.4); fortified: only by an attack of Siege points only (siege_only != 0, 11.5.3);
    otherwise yes."""
    cdef int lvl
    if not is_targetable(gs, slot):
        return False
    lvl = fortification_level(gs, st, slot)
    if lvl >= 2:
        return False
    if lvl == 1:
        return siege_only != 0
    return True


cdef int enemy_n_attacks(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Number of attacks of the enemy (LL-6.1.1; 0 for summoners, whose attack is the
    summoned monster's, 11.11)."""
    cdef int n
    if not valid_slot(gs, slot):
        return 0
    n = ev(gs, st, slot, st.cols.enemy_n_attacks)
    return n if n <= MAX_ENEMY_ATTACKS else MAX_ENEMY_ATTACKS


cdef int attack_element(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """Element of attack i (11.9.1; per attack, LL-6.1.8); CB_ILLEGAL if there is none."""
    if attack_index < 0 or attack_index >= enemy_n_attacks(gs, st, slot):
        return CB_ILLEGAL
    return ev(gs, st, slot, st.cols.enemy_element0 + attack_index)


cdef int enemy_attack_value(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """Attack value of attack i with its modifiers (Cumbersome LL-6.5.2, effects LL-6.1.5),
    at least 0, with the blue city's bonus for its defenders' elemental attacks (11.13.1,
    21.2 A3: +2 Fire or Ice, +1 Cold Fire; LL-6.1.7 each attack by its own element);
    CB_ILLEGAL if there is no such attack."""
    cdef int v, colour, el
    if attack_index < 0 or attack_index >= enemy_n_attacks(gs, st, slot):
        return CB_ILLEGAL
    v = ev(gs, st, slot, st.cols.enemy_attack0 + attack_index) + gs.combat.enemies[slot].attack_delta[attack_index]
    colour = city_defended(gs, st, slot)
    if colour >= 0:
        el = ev(gs, st, slot, st.cols.enemy_element0 + attack_index)
        if el == FIRE or el == ICE:
            v += st.city_elemental[colour]
        elif el == COLDFIRE:
            v += st.city_coldfire[colour]
    return v if v > 0 else 0


cdef bint attack_is_live(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """Attack i of the enemy still threatens: the enemy is alive and attacks (11.6.1, not
    "does not attack", LL-6.1.4), the attack is neither blocked (11.6.6) nor has dealt its
    damage (11.7.12)."""
    cdef const CombatEnemy* e
    if attack_index < 0 or attack_index >= enemy_n_attacks(gs, st, slot):
        return False
    e = &gs.combat.enemies[slot]
    if e.flags & (CE_DEFEATED | CE_GONE | CE_NO_ATTACK):
        return False
    return not ((e.blocked | e.damaged) >> attack_index) & 1


cdef bint all_attacks_blocked(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Every attack of the enemy was blocked (LL-6.1.6, LL-6.3.4); False for no attack."""
    cdef int n = enemy_n_attacks(gs, st, slot)
    cdef int mask = (1 << n) - 1
    return n > 0 and (gs.combat.enemies[slot].blocked & mask) == mask


# ---------------------------------------------------------------------------------------
# Attacks: Ranged and Siege phase (11.5), Attack phase (11.8), resistances (11.9.2)
# ---------------------------------------------------------------------------------------

cdef int attack_value(const GameState* gs, const Statics* st, uint32_t targets, int phase) noexcept nogil:
    """Value of gs.combat.attack against the target set (bit per slot) in `phase`, or
    CB_ILLEGAL for an illegal target set / phase.

    Ranged phase: a doubly fortified target is illegal (11.5.4); with any fortified target
    only Siege points count, otherwise Ranged and Siege (11.5.3); melee never counts (11.5.2).
    Attack phase: all kinds count and fortification is ignored (11.8.1, 11.10.3).
    Resistances (11.9.2): physical / fire / ice points are inefficient if ANY target has the
    matching resistance, cold fire only if one target has both fire and ice; total =
    efficient + floor(inefficient / 2)."""
    cdef const Combat* c = &gs.combat
    cdef int s, r, el, k, k0, lvl
    cdef int res = 0
    cdef bint coldfire_resisted = False, fortified = False, resisted
    cdef int pts[4]
    cdef int eff = 0, ineff = 0, sword = 0
    if targets == 0 or (targets >> c.n_enemies) != 0:
        return CB_ILLEGAL
    if phase != PH_COMBAT_RANGED and phase != PH_COMBAT_ATTACK:
        return CB_ILLEGAL
    for s in range(c.n_enemies):
        if not (targets >> s) & 1:
            continue
        if not is_targetable(gs, s):
            return CB_ILLEGAL
        if c.possess_lock == s + 1:
            return CB_ILLEGAL                       # Possess: not against the possessed enemy
        r = ev(gs, st, s, st.cols.enemy_resistances) & ~c.enemies[s].res_lost   # Chill (11.4.4)
        if c.enemies[s].unit_fx & CEU_NO_RESISTANCES:
            r = 0                                   # Sorcerers / Expose / Delphana Masters
        res |= r
        if resists(r, COLDFIRE):
            coldfire_resisted = True
        if phase == PH_COMBAT_RANGED:
            lvl = fortification_level(gs, st, s)
            if lvl >= 2:
                return CB_ILLEGAL                   # 11.5.4
            if lvl == 1:
                fortified = True                    # 11.5.3
    if gs.turn.n_mods:                              # Sword of Justice powered (MK_SWORD_DOUBLE):
        sword = mod_sum(&gs.turn, MK_SWORD_DOUBLE)  # this turn no physical resistance (11.9.2)
        if sword:
            res &= ~RES_PHYSICAL
    if phase == PH_COMBAT_RANGED:
        k0 = SIEGE if fortified else RANGED         # 11.5.3: Siege only / Ranged and Siege
        if gs.turn.n_mods and mod_has(&gs.turn, MK_ATTACKS_SIEGE):
            k0 = MELEE                              # Altem Mages: every attack is also Siege
    else:
        k0 = MELEE                                  # 11.8.1: all attacks combine
    for el in range(4):
        pts[el] = 0
        for k in range(k0, 3):
            pts[el] += c.attack[k][el]
    if phase == PH_COMBAT_ATTACK and sword > 1:
        pts[<int>PHYSICAL] *= sword                 # Sword of Justice powered: x2 in the Attack phase (11.8)
    if gs.turn.n_mods and mod_has(&gs.turn, MK_ATTACKS_COLDFIRE):   # Altem Mages: all attacks are Cold Fire
        for el in range(3):
            pts[<int>COLDFIRE] += pts[el]
            pts[el] = 0
    for el in range(4):
        # 11.9.2: halved if any target resists; Cold Fire only if one target resists both
        resisted = coldfire_resisted if el == COLDFIRE else resists(res, el)
        if resisted:
            ineff += pts[el]
        else:
            eff += pts[el]
    return eff + ineff // 2                         # 11.9.2


cdef inline bint resists(int res, int element) noexcept nogil:
    """Resistance bits vs an element (11.9.2, 11.7.5): physical, fire and ice resistance
    each stop their element; Cold Fire needs both fire and ice resistance."""
    if element == COLDFIRE:
        return (res & (RES_FIRE | RES_ICE)) == (RES_FIRE | RES_ICE)
    return (res & (1 << element)) != 0


cdef void defeat_enemy(GameState* gs, const Statics* st, int slot) noexcept nogil:
    """11.5.7: the token is defeated, leaves its space and goes at once to its colour's
    discard pile [R]; Fame at once (not for summoned monsters, A18); the token's Reputation
    (LL-6.9.1), clamped at the track ends (LL-6.9.4)."""
    cdef CombatEnemy* e = &gs.combat.enemies[slot]
    cdef Player* pl
    cdef int colour
    e.flags |= CE_DEFEATED
    if 0 <= gs.current < MAX_PLAYERS:                              # results store, by token colour
        colour = tv(&st.enemies, e.enemy, st.cols.enemy_colour)
        if 0 <= colour < NUM_PILES:
            gs.players[gs.current].stats.defeated[colour] += 1
    if e.summoned_by < 0 and 0 <= gs.current < MAX_PLAYERS:
        pl = &gs.players[gs.current]
        pl.fame = <int16_t>(pl.fame + ev(gs, st, slot, st.cols.enemy_fame))
        pl.reputation = <int8_t>clamp_rep(pl.reputation + ev(gs, st, slot, st.cols.enemy_reputation))
    if e.hex >= 0:
        remove_from_hex(gs, e.hex, e.token)
    discard_token(gs, st, e.token)


cdef int resolve_attack(GameState* gs, const Statics* st, uint32_t targets, int phase) noexcept nogil:
    """Commit the attack in gs.combat.attack on `targets`: if its value (attack_value) is at
    least the sum of the targets' Armor all of them are defeated (11.5.7, 11.8.2) and 1 is
    returned; otherwise nothing happens (11.5.8) and 0 is returned.  The attack pools are
    emptied either way (11.4.5).  CB_ILLEGAL (nothing changes) for an illegal target set,
    a phase other than the current combat phase, or outside combat."""
    cdef int v, s, armor = 0
    cdef bint ok
    if not gs.combat.active or phase != gs.phase:
        return CB_ILLEGAL
    v = attack_value(gs, st, targets, phase)
    if v < 0:
        return v
    for s in range(gs.combat.n_enemies):
        if (targets >> s) & 1:
            armor += armor_in_phase(gs, st, s, phase)
    ok = v >= armor
    if ok:
        for s in range(gs.combat.n_enemies):
            if (targets >> s) & 1:
                defeat_enemy(gs, st, s)
    clear_pools(&gs.combat)
    return 1 if ok else 0


# ---------------------------------------------------------------------------------------
# Blocks (11.6, 11.9.3, LL-6.1, LL-6.5)
# ---------------------------------------------------------------------------------------

cdef int block_value(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """gs.combat.block against attack i: efficient points in full, inefficient ones halved
    rounding down (11.6.4, 11.9.3).  Physical attack: all efficient; Fire: Ice and Cold Fire
    efficient; Ice: Fire and Cold Fire efficient; Cold Fire: only Cold Fire efficient.
    CB_ILLEGAL if the attack is not live."""
    cdef int bp = gs.combat.block[0], bf = gs.combat.block[1]   # physical, fire
    cdef int bi = gs.combat.block[2], bc = gs.combat.block[3]   # ice, cold fire
    cdef int el, eff, ineff
    if not attack_is_live(gs, st, slot, attack_index):
        return CB_ILLEGAL
    el = attack_element(gs, st, slot, attack_index)
    if el == FIRE:
        eff = bi + bc
        ineff = bp + bf
    elif el == ICE:
        eff = bf + bc
        ineff = bp + bi
    elif el == COLDFIRE:
        eff = bc
        ineff = bp + bf + bi
    else:
        eff = bp + bf + bi + bc
        ineff = 0
    return eff + ineff // 2


cdef int block_needed(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """Block needed to stop attack i: its Attack value (11.6.5), doubled against Swift
    (11.6.5; of the reduced value, LL-6.5.5).  CB_ILLEGAL if the attack is not live.
    (The blue city's Attack bonus is in enemy_attack_value, 11.13.1.)"""
    cdef int v
    if not attack_is_live(gs, st, slot, attack_index):
        return CB_ILLEGAL
    v = enemy_attack_value(gs, st, slot, attack_index)
    if ev(gs, st, slot, st.cols.enemy_abilities) & AB_SWIFT:
        v *= 2
    return v


cdef int resolve_block(GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """Commit gs.combat.block against attack i of one enemy (11.6.3; each attack separately,
    LL-6.1.2, 11.6.9).  All or nothing (11.6.7): 1 = blocked (the attack deals no damage,
    11.6.1; a fully blocked summoned monster is discarded without Fame, 11.6.6 [R]), 0 = no
    effect.  The block pool is emptied either way (11.4.5).  CB_ILLEGAL outside the Block
    phase or for an attack that is not live."""
    cdef bint ok
    if not gs.combat.active or gs.phase != PH_COMBAT_BLOCK:
        return CB_ILLEGAL
    if not attack_is_live(gs, st, slot, attack_index):
        return CB_ILLEGAL
    ok = block_value(gs, st, slot, attack_index) >= block_needed(gs, st, slot, attack_index)
    if ok:
        mark_blocked(gs, st, slot, attack_index)
    clear_pools(&gs.combat)
    return 1 if ok else 0


cdef int reduce_attack(GameState* gs, const Statics* st, int slot, int attack_index, int amount) noexcept nogil:
    """Cumbersome (LL-6.5.2): in the Block phase, `amount` Move points (paid by the caller,
    played during the combat, LL-6.5.4) reduce attack i by as much.  The reduction lasts for
    the Block and Assign Damage phases (LL-6.5.3); an attack reduced to 0 counts as blocked
    (LL-6.5.3).  Returns the new attack value or CB_ILLEGAL."""
    cdef CombatEnemy* e
    cdef int d, v
    if not gs.combat.active or gs.phase != PH_COMBAT_BLOCK or amount <= 0:
        return CB_ILLEGAL
    if not attack_is_live(gs, st, slot, attack_index):
        return CB_ILLEGAL
    if not (ev(gs, st, slot, st.cols.enemy_abilities) & AB_CUMBERSOME):
        return CB_ILLEGAL
    e = &gs.combat.enemies[slot]
    d = e.attack_delta[attack_index] - amount
    if d < -100:
        d = -100
    e.attack_delta[attack_index] = <int8_t>d
    v = enemy_attack_value(gs, st, slot, attack_index)
    if v == 0:
        mark_blocked(gs, st, slot, attack_index)
    return v


# ---------------------------------------------------------------------------------------
# Damage (11.7, 12)
# ---------------------------------------------------------------------------------------

cdef int damage_of(const GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """Damage dealt by unblocked attack i: its Attack value, doubled for Brutal (11.7.2).
    The monster's own abilities count for a summoned monster (11.7.11).  CB_ILLEGAL if the
    attack is not live."""
    cdef int v
    if not attack_is_live(gs, st, slot, attack_index):
        return CB_ILLEGAL
    v = enemy_attack_value(gs, st, slot, attack_index)
    if attack_ability(gs, st, slot, attack_index, AB_BRUTAL):     # token or red city (11.13.1)
        v *= 2
    return v


cdef void finish_damage(GameState* gs, const Statics* st) noexcept nogil:
    cdef Combat* c = &gs.combat
    cdef CombatEnemy* e = &c.enemies[c.dmg_slot]
    cdef int n, mask
    e.damaged |= <uint8_t>(1 << c.dmg_attack)
    n = enemy_n_attacks(gs, st, c.dmg_slot)
    mask = (1 << n) - 1
    if ((e.blocked | e.damaged) & mask) == mask:
        e.flags |= CE_DAMAGE_DONE
    c.dmg_slot = -1
    c.dmg_attack = 0
    c.dmg_left = 0


cdef int damage_start(GameState* gs, const Statics* st, int slot, int attack_index) noexcept nogil:
    """Assign Damage phase: choose the next unblocked attack to resolve (11.7.1, one attack
    at a time, LL-6.1.2).  Returns its damage (damage_of), now in gs.combat.dmg_left; a
    damage of 0 is resolved at once.  CB_ILLEGAL outside the phase, while another attack's
    damage is being assigned, or for an attack that is not live."""
    cdef Combat* c = &gs.combat
    cdef int d
    if not c.active or gs.phase != PH_COMBAT_DAMAGE or c.dmg_slot >= 0:
        return CB_ILLEGAL
    d = damage_of(gs, st, slot, attack_index)
    if d < 0:
        return d
    c.dmg_slot = <int8_t>slot
    c.dmg_attack = <int8_t>attack_index
    c.dmg_left = <int16_t>d
    if d == 0:
        finish_damage(gs, st)
    return d


cdef inline void damage_specials(const GameState* gs, const Statics* st, int* element,
                                 int* poison, int* paralyze, int* assassin) noexcept nogil:
    cdef int slot = gs.combat.dmg_slot
    cdef int ab = ev(gs, st, slot, st.cols.enemy_abilities)
    element[0] = attack_element(gs, st, slot, gs.combat.dmg_attack)
    poison[0] = 1 if attack_ability(gs, st, slot, gs.combat.dmg_attack, AB_POISON) else 0   # LL-6.1.8; green city 11.13.1
    paralyze[0] = 1 if ab & AB_PARALYZE else 0
    assassin[0] = 1 if ab & AB_ASSASSINATION else 0


cdef int damage_to_unit(GameState* gs, const Statics* st, int unit_slot) noexcept nogil:
    """Assign the current attack's remaining damage to one of the hero's Units (11.7.3-
    11.7.6, 11.7.9, 11.7.10, 12.2.2).  Illegal when Units are not allowed in this combat
    (7.3.8) or against Assassination (LL-6.4.1: all damage goes to the hero).  Returns the
    damage left (0 finishes the attack) or CB_ILLEGAL."""
    cdef Combat* c = &gs.combat
    cdef int element, poison, paralyze, assassin, r
    if not c.active or c.dmg_slot < 0 or not c.units_allowed:
        return CB_ILLEGAL
    damage_specials(gs, st, &element, &poison, &paralyze, &assassin)
    if assassin:
        return CB_ILLEGAL                           # LL-6.4.1
    r = assign_to_unit(gs, st, gs.current, unit_slot, c.dmg_left, element, poison, paralyze)
    if r < 0:
        return r
    c.dmg_left = <int16_t>r
    if r == 0:
        finish_damage(gs, st)
    return r


cdef int damage_to_hero(GameState* gs, const Statics* st) noexcept nogil:
    """The rest of the current attack's damage goes to the hero (11.7.7, 11.7.9, 11.7.10,
    11.7.8); the attack is done.  Returns the Wounds put into the hand or CB_ILLEGAL."""
    cdef Combat* c = &gs.combat
    cdef int element, poison, paralyze, assassin, w
    if not c.active or c.dmg_slot < 0:
        return CB_ILLEGAL
    damage_specials(gs, st, &element, &poison, &paralyze, &assassin)
    w = assign_to_hero(gs, st, gs.current, c.dmg_left, poison, paralyze)
    finish_damage(gs, st)
    return w


cdef int assign_to_unit(GameState* gs, const Statics* st, int player, int unit_slot, int damage,
                        int element, int poison, int paralyze) noexcept nogil:
    """Put `damage` of `element` on a Unit; returns the damage left over, or CB_ILLEGAL.

    Only an unwounded Unit may take damage (11.7.3, 12.2.2), and not one that already
    resisted damage this combat (11.7.6).  Resistant Unit (physical vs physical, fire vs
    Fire, ice vs Ice, fire AND ice vs Cold Fire): first reduce by its Armor without a wound;
    if that absorbs all, it is marked damaged_this_combat (11.7.5, 11.7.6).  Otherwise it is
    wounded (Poison: 2 Wounds, 11.7.9; Paralyze: destroyed, its Banner to the discard pile,
    11.7.10, 7.5.2) and the damage is reduced by its Armor (11.7.4)."""
    cdef Player* pl
    cdef Unit* u
    cdef int armor, res, fx
    cdef bint resistant
    if player < 0 or player >= MAX_PLAYERS or unit_slot < 0 or unit_slot >= MAX_UNITS or damage <= 0:
        return CB_ILLEGAL
    pl = &gs.players[player]
    u = &pl.units[unit_slot]
    if u.card < 0 or u.wounds > 0 or u.damaged_this_combat:
        return CB_ILLEGAL                           # 12.2.2, 11.7.6
    armor = tv(&st.units, u.card, st.cols.unit_armor)
    # + Altem Guardians / Mist Form (this turn, bits 0-2) and Force of Nature (this combat, bits 3-5)
    res = tv(&st.units, u.card, st.cols.unit_resistances) | ((u.gained_res | u.gained_res >> 3) & 7)
    if u.banner >= 0:                               # 7.5.1: Banner of Glory / Protection (BF_* of
        fx = pl.banner_fx[unit_slot]                # ext/_fx_artifacts.pxi): Armor +n, fire + ice
        armor += fx & 3
        if fx & 4:
            res |= RES_FIRE | RES_ICE
    if gs.turn.n_mods:                              # Banner of Glory powered: every Unit
        armor += mod_sum_arg(&gs.turn, MK_UNIT_GLORY, 1)    # Armor + n this turn (7.5.1)
    resistant = resists(res, element)
    if resistant:                                   # 11.7.5
        damage -= armor
        if damage <= 0:
            u.damaged_this_combat = 1               # 11.7.6
            return 0
    if gs.turn.fortitude_unit == unit_slot + 1:     # Banner of Fortitude (LL-5.2): the wound and
        gs.turn.fortitude_unit = 0                  # its side effects are ignored; the Unit has
        u.damaged_this_combat = 1                   # taken its damage for this combat
    elif paralyze:                                  # 11.7.10: destroyed instead of wounded
        if u.banner >= 0 and pl.n_discard < MAX_DISCARD_CARDS:
            pl.discard[pl.n_discard] = u.banner     # 7.5.2
            pl.n_discard += 1
        elif u.banner >= 0:
            gs.cards_refused += 1                   # ERR_CAPACITY
        u.card = -1
        u.banner = -1
        u.ready = 0
        u.wounds = 0
        u.damaged_this_combat = 0
    else:
        u.wounds = <uint8_t>(u.wounds + (2 if poison else 1))   # 11.7.4, 11.7.9
    damage -= armor                                 # 11.7.4
    return damage if damage > 0 else 0


cdef int wound_card(const Statics* st) noexcept nogil:
    """Card index of the Wound card (deck column == wound), -1 if the content has none."""
    cdef int i
    for i in range(st.cards.rows):
        if tv(&st.cards, i, st.cols.card_deck) == DECK_WOUND:
            return i
    return -1


cdef int hero_take_wounds(GameState* gs, const Statics* st, int player, int n) noexcept nogil:
    """Put n Wound cards into the hero's hand (12.1.1).  During combat they count towards
    knock-out, whatever their cause (11.7.8, A17): when the Wounds to hand this combat reach
    the unmodified Hand limit of the Level token, all non-Wound cards are discarded, once per
    combat.  Returns the Wounds added."""
    cdef Player* pl
    cdef int i, w, added = 0
    if player < 0 or player >= MAX_PLAYERS or n <= 0:
        return 0
    pl = &gs.players[player]
    w = wound_card(st)
    for i in range(n):
        if pl.n_hand >= MAX_HAND_CARDS:
            gs.cards_refused += 1                   # Wounds are unlimited (1.2.4): the game stops
            break
        pl.hand[pl.n_hand] = <int16_t>w
        pl.n_hand += 1
        added += 1
    gs.turn.wounds_to_hand = <int16_t>(gs.turn.wounds_to_hand + added)   # Banner of Protection
    pl.stats.wounds_taken += added
    combat_wounds_to_hand(gs, st, player, added)
    return added


cdef void combat_wounds_to_hand(GameState* gs, const Statics* st, int player, int n) noexcept nogil:
    """n Wounds just went into the hero's hand: during combat they count towards knock-out
    whatever their source - enemy damage, or card effects and costs such as Blood Rage or a
    powered Fireball (11.7.8, 21.2 A17; the seed: Wounds "from other sources" during the
    combat count too).  Knock-out discards every non-Wound card, once per combat."""
    cdef Player* pl
    if not gs.combat.active or n <= 0 or player < 0 or player >= MAX_PLAYERS:
        return
    pl = &gs.players[player]
    pl.wounds_this_combat = <int16_t>(pl.wounds_this_combat + n)
    if not pl.knocked_out and pl.wounds_this_combat >= tv(&st.levels, level_row(gs, st, player),
                                                         st.cols.level_hand_limit):
        pl.knocked_out = 1                          # 11.7.8, A17: once per combat
        pl.stats.knockouts += 1
        discard_non_wounds(gs, st, player)


cdef int assign_to_hero(GameState* gs, const Statics* st, int player, int damage,
                        int poison, int paralyze) noexcept nogil:
    """Damage to the hero (11.7.7): ceil(damage / Armor) Wounds into the hand (Armor of the
    Level token), counted for knock-out (11.7.8).  Poison: as many more Wounds into the
    discard pile, not counted for knock-out (11.7.9).  Paralyze: one or more Wounds to hand
    discard every non-Wound card of the hand (11.7.10).  Returns the Wounds to hand."""
    cdef Player* pl
    cdef int armor, wounds, i, w
    if player < 0 or player >= MAX_PLAYERS or damage <= 0:
        return 0
    pl = &gs.players[player]
    armor = tv(&st.levels, level_row(gs, st, player), st.cols.level_armor)
    if armor < 1:
        armor = 1
    wounds = (damage + armor - 1) // armor          # 11.7.7
    if gs.turn.n_mods and gs.combat.active:
        # Veil of Mist: the first Wound(s) from enemies this turn are ignored with their side
        # effects (no Poison Wound, no Paralyze discard for them); MK_IGNORE_WOUNDS used up
        wounds -= mod_take(&gs.turn, MK_IGNORE_WOUNDS, wounds)
    wounds = hero_take_wounds(gs, st, player, wounds)
    if poison:                                      # 11.7.9
        w = wound_card(st)
        for i in range(wounds):
            if pl.n_discard < MAX_DISCARD_CARDS:
                pl.discard[pl.n_discard] = <int16_t>w
                pl.n_discard += 1
                gs.turn.wounds_to_discard += 1      # Banner of Protection
                pl.stats.wounds_taken += 1
            else:
                gs.cards_refused += 1               # ERR_CAPACITY
    if paralyze and wounds > 0:                     # 11.7.10
        discard_non_wounds(gs, st, player)
    return wounds


# ---------------------------------------------------------------------------------------
# Python test surface
# ---------------------------------------------------------------------------------------

KINDS = ("melee", "ranged", "siege")
ELEMENTS = ("physical", "fire", "ice", "coldfire")
PHASES = {"ranged": PH_COMBAT_RANGED, "block": PH_COMBAT_BLOCK, "damage": PH_COMBAT_DAMAGE,
          "attack": PH_COMBAT_ATTACK}
PHASE_OF = {v: k for k, v in PHASES.items()}
ERRORS = {CB_ILLEGAL: "illegal", CB_CAPACITY: "capacity", CB_NO_TOKEN: "no token"}
FLAG_NAMES = ("defeated", "blocked", "site_fortified", "no_attack", "damage_done", "rampaging",
              "gone", "no_fortification")


def _mask(slots):
    m = 0
    for s in slots:
        m |= 1 << int(s)
    return m


cdef class CombatTester:
    """The combat rules applied to one :class:`GameCore` (shares its state); the player in
    combat is ``gs.current`` (player 0 in a solo game)."""
    cdef readonly GameCore core

    def __init__(self, GameCore core):
        self.core = core

    # -- names ------------------------------------------------------------------------
    def enemy_index(self, enemy):
        return enemy if isinstance(enemy, int) else self.core.tables.enemy_ids.index(enemy)

    def unit_index(self, unit):
        return unit if isinstance(unit, int) else self.core.tables.unit_ids.index(unit)

    def card_index(self, card):
        return card if isinstance(card, int) else self.core.tables.card_ids.index(card)

    def token_for(self, enemy):
        """A token instance of `enemy` taken out of its pile (or a new instance if every
        copy is elsewhere or the enemy is not in the game)."""
        cdef GameState* gs = &self.core.gs
        cdef int e = self.enemy_index(enemy), c, i, k, t
        for c in range(NUM_PILES):
            for i in range(gs.n_pile[c]):
                t = gs.piles[c][i]
                if gs.token_enemy[t] == e:
                    for k in range(i, gs.n_pile[c] - 1):
                        gs.piles[c][k] = gs.piles[c][k + 1]
                    gs.n_pile[c] -= 1
                    return t
        for t in range(MAX_TOKENS):
            if gs.token_enemy[t] < 0:
                gs.token_enemy[t] = e
                return t
        raise RuntimeError("no free token instance")

    # -- setters ----------------------------------------------------------------------
    def begin(self, enemies, site_fortified=(), rampaging=(), hexes=None, int site_hex=-1,
              night_rules=False, units_allowed=True):
        """combat_begin with one token per enemy id; site_fortified / rampaging: slot lists
        (site_fortified=True: all); hexes[i] >= 0 lays token i on that hex first.  Returns
        the token instances."""
        cdef int toks[MAX_COMBAT_ENEMIES]
        cdef int orig[MAX_COMBAT_ENEMIES]
        cdef int n = len(enemies), i, r
        self.core.version += 1           # the Engine's cached legal list is stale
        if n > MAX_COMBAT_ENEMIES:
            raise ValueError("too many enemies")
        tokens = [self.token_for(e) for e in enemies]
        for i in range(n):
            toks[i] = tokens[i]
            orig[i] = hexes[i] if hexes is not None else -1
            if orig[i] >= 0:
                add_to_hex(&self.core.gs, orig[i], toks[i])   # the token lies on its space
        fort = _mask(range(n)) if site_fortified is True else _mask(site_fortified)
        r = combat_begin(&self.core.gs, &self.core.st, toks, orig, n, site_hex, fort, _mask(rampaging),
                         1 if night_rules else 0, 1 if units_allowed else 0)
        if r < 0:
            raise ValueError(ERRORS.get(r, r))
        return tokens

    def set_phase(self, name):
        self.core.version += 1           # the Engine's cached legal list is stale
        self.core.gs.phase = PHASES[name]

    def set_attack(self, kind, element, int value):
        self.core.version += 1           # the Engine's cached legal list is stale
        self.core.gs.combat.attack[KINDS.index(kind)][ELEMENTS.index(element)] = value

    def set_block(self, element, int value):
        self.core.version += 1           # the Engine's cached legal list is stale
        self.core.gs.combat.block[ELEMENTS.index(element)] = value

    def clear_pools(self):
        self.core.version += 1           # the Engine's cached legal list is stale
        clear_pools(&self.core.gs.combat)

    def set_enemy_flags(self, int slot, int flags):
        self.core.version += 1           # the Engine's cached legal list is stale
        self.core.gs.combat.enemies[slot].flags |= flags

    def set_armor_delta(self, int slot, int delta):
        self.core.version += 1           # the Engine's cached legal list is stale
        self.core.gs.combat.enemies[slot].armor_delta = delta

    def set_ignore_wounds(self, int n):
        """Veil of Mist's turn effect (a turn-long MK_IGNORE_WOUNDS modifier of n Wounds)."""
        self.core.version += 1           # the Engine's cached legal list is stale
        mod_remove_kind(&self.core.gs.turn, MK_IGNORE_WOUNDS)
        if n > 0 and mod_add(&self.core.gs.turn, MK_IGNORE_WOUNDS, MS_TURN, n, 0, -1,
                             self.core.gs.current) < 0:
            raise ValueError("set_ignore_wounds: the modifier array is full")

    def give_unit(self, unit, int wounds=0, banner=None):
        """Put a Unit in the first free slot of the current player; returns the slot."""
        cdef Player* pl = &self.core.gs.players[self.core.gs.current]
        cdef int i
        self.core.version += 1           # the Engine's cached legal list is stale
        for i in range(MAX_UNITS):
            if pl.units[i].card < 0:
                pl.units[i].card = self.unit_index(unit)
                pl.units[i].ready = 1
                pl.units[i].wounds = wounds
                pl.units[i].banner = -1 if banner is None else self.card_index(banner)
                pl.units[i].damaged_this_combat = 0
                return i
        raise RuntimeError("no free unit slot")

    def set_level(self, int level):
        self.core.version += 1           # the Engine's cached legal list is stale
        self.core.gs.players[self.core.gs.current].level = level

    def set_hand(self, cards):
        cdef Player* pl = &self.core.gs.players[self.core.gs.current]
        self.core.version += 1           # the Engine's cached legal list is stale
        pl.n_hand = len(cards)
        for i, c in enumerate(cards):
            pl.hand[i] = self.card_index(c)

    def clear_discard(self):
        self.core.version += 1           # the Engine's cached legal list is stale
        self.core.gs.players[self.core.gs.current].n_discard = 0

    def place(self, int hex, tokens):
        """Lay token instances on a hex (garrison / rampaging space)."""
        self.core.version += 1           # the Engine's cached legal list is stale
        for t in tokens:
            add_to_hex(&self.core.gs, hex, t)

    def set_reputation(self, int rep):
        self.core.version += 1           # the Engine's cached legal list is stale
        self.core.gs.players[self.core.gs.current].reputation = rep

    # -- getters ----------------------------------------------------------------------
    cdef list _ids(self, const int16_t* cards, int n):
        ids = self.core.tables.card_ids
        return [ids[cards[i]] for i in range(n)]

    @property
    def hand(self):
        cdef Player* pl = &self.core.gs.players[self.core.gs.current]
        return self._ids(pl.hand, pl.n_hand)

    @property
    def discard(self):
        cdef Player* pl = &self.core.gs.players[self.core.gs.current]
        return self._ids(pl.discard, pl.n_discard)

    @property
    def fame(self):
        return self.core.gs.players[self.core.gs.current].fame

    @property
    def reputation(self):
        return self.core.gs.players[self.core.gs.current].reputation

    @property
    def knocked_out(self):
        return bool(self.core.gs.players[self.core.gs.current].knocked_out)

    @property
    def wounds_this_combat(self):
        return self.core.gs.players[self.core.gs.current].wounds_this_combat

    @property
    def phase(self):
        return PHASE_OF.get(self.core.gs.phase, self.core.gs.phase)

    @property
    def active(self):
        return bool(self.core.gs.combat.active)

    @property
    def n_enemies(self):
        return self.core.gs.combat.n_enemies

    @property
    def dmg_left(self):
        return self.core.gs.combat.dmg_left

    def enemy(self, int slot):
        cdef CombatEnemy* e = &self.core.gs.combat.enemies[slot]
        if slot < 0 or slot >= self.core.gs.combat.n_enemies:
            raise IndexError(slot)
        return {"token": e.token, "enemy": self.core.tables.enemy_ids[e.enemy] if e.enemy >= 0 else None,
                "flags": [FLAG_NAMES[i] for i in range(8) if e.flags & (1 << i)],
                "summoned_by": e.summoned_by if e.summoned_by >= 0 else None, "hex": e.hex,
                "blocked": e.blocked, "damaged": e.damaged, "res_lost": e.res_lost}

    def unit(self, int slot):
        cdef Unit* u = &self.core.gs.players[self.core.gs.current].units[slot]
        if u.card < 0:
            return None
        return {"unit": self.core.tables.unit_ids[u.card], "wounds": u.wounds, "ready": bool(u.ready),
                "damaged_this_combat": bool(u.damaged_this_combat)}

    def pile_discard(self, colour):
        from mksim.words import ENEMY_COLOURS
        cdef GameState* gs = &self.core.gs
        cdef int c = ENEMY_COLOURS.index(colour), i
        return [self.core.tables.enemy_ids[gs.token_enemy[gs.pile_discard[c][i]]]
                for i in range(gs.n_pile_discard[c])]

    def hex_tokens(self, int hex):
        cdef Hex* hx = &self.core.gs.hexes[hex]
        return [hx.tokens[i] for i in range(hx.n_tokens)]

    # -- rules ------------------------------------------------------------------------
    def summon(self):
        self.core.version += 1           # the Engine's cached legal list is stale
        return combat_summon(&self.core.gs, &self.core.st)

    def next_phase(self):
        cdef int r = combat_next_phase(&self.core.gs, &self.core.st)
        self.core.version += 1           # the Engine's cached legal list is stale
        return PHASE_OF.get(r, r)

    def end(self, int policy=UNDEFEATED_STAY):
        cdef int und = 0
        cdef int d = combat_end(&self.core.gs, &self.core.st, policy, &und)
        self.core.version += 1           # the Engine's cached legal list is stale
        if d < 0:
            return d
        return (d, und)

    def site_cleared(self):
        return combat_site_cleared(&self.core.gs)

    def enemy_armor(self, int slot):
        return enemy_armor(&self.core.gs, &self.core.st, slot)

    def fortification_level(self, int slot):
        return fortification_level(&self.core.gs, &self.core.st, slot)

    def can_target_in_ranged(self, int slot, siege_only):
        return can_target_in_ranged(&self.core.gs, &self.core.st, slot, 1 if siege_only else 0)

    def attack_value(self, targets, phase=None):
        ph = self.core.gs.phase if phase is None else PHASES[phase]
        return attack_value(&self.core.gs, &self.core.st, _mask(targets), ph)

    def resolve_attack(self, targets, phase=None):
        self.core.version += 1           # the Engine's cached legal list is stale
        ph = self.core.gs.phase if phase is None else PHASES[phase]
        return resolve_attack(&self.core.gs, &self.core.st, _mask(targets), ph)

    def n_attacks(self, int slot):
        return enemy_n_attacks(&self.core.gs, &self.core.st, slot)

    def attack_live(self, int slot, int i=0):
        return attack_is_live(&self.core.gs, &self.core.st, slot, i)

    def block_value(self, int slot, int i=0):
        return block_value(&self.core.gs, &self.core.st, slot, i)

    def block_needed(self, int slot, int i=0):
        return block_needed(&self.core.gs, &self.core.st, slot, i)

    def resolve_block(self, int slot, int i=0):
        self.core.version += 1           # the Engine's cached legal list is stale
        return resolve_block(&self.core.gs, &self.core.st, slot, i)

    def reduce_attack(self, int slot, int i, int amount):
        self.core.version += 1           # the Engine's cached legal list is stale
        return reduce_attack(&self.core.gs, &self.core.st, slot, i, amount)

    def damage_of(self, int slot, int i=0):
        return damage_of(&self.core.gs, &self.core.st, slot, i)

    def damage_start(self, int slot, int i=0):
        self.core.version += 1           # the Engine's cached legal list is stale
        return damage_start(&self.core.gs, &self.core.st, slot, i)

    def damage_to_unit(self, int unit_slot):
        self.core.version += 1           # the Engine's cached legal list is stale
        return damage_to_unit(&self.core.gs, &self.core.st, unit_slot)

    def damage_to_hero(self):
        self.core.version += 1           # the Engine's cached legal list is stale
        return damage_to_hero(&self.core.gs, &self.core.st)

    def assign_to_unit(self, int unit_slot, int damage, element="physical", poison=False, paralyze=False):
        self.core.version += 1           # the Engine's cached legal list is stale
        return assign_to_unit(&self.core.gs, &self.core.st, self.core.gs.current, unit_slot, damage,
                              ELEMENTS.index(element), 1 if poison else 0, 1 if paralyze else 0)

    def assign_to_hero(self, int damage, poison=False, paralyze=False):
        self.core.version += 1           # the Engine's cached legal list is stale
        return assign_to_hero(&self.core.gs, &self.core.st, self.core.gs.current, damage,
                              1 if poison else 0, 1 if paralyze else 0)

    def hero_take_wounds(self, int n):
        self.core.version += 1           # the Engine's cached legal list is stale
        return hero_take_wounds(&self.core.gs, &self.core.st, self.core.gs.current, n)
