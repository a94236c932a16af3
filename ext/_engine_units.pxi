# Interaction with the locals (rule 10.2-10.7) and Units (rules 7, 12.2-12.3) in the decision
# loop, included into ext/_engine.pyx after _engine_combat.pxi.
#
# Interaction is the turn's action (10.2.1): A_INTERACT applies the reputation modifier once
# (10.2.3) and enters PH_INTERACT.  There the player plays Influence (cards, sideways 1, unit
# abilities) into gs.turn.influence and buys: A_RECRUIT, A_BUY_HEALING, A_BUY_AA, A_BUY_SPELL;
# A_END_INTERACT returns to the rest of the turn (no more movement, 4.4.5).
# gs.turn.influence may be negative after a reputation penalty: nothing can be bought until
# it reaches the price (21.2 A20: effective Influence is clamped at 0).
#
# Special units (LL-4; codes and hooks at the end of this file): Thugs / Heroes change the
# reputation modifier when the first of them is recruited (recruit_rep_delta), need 2
# Influence in combat (A_PAY_UNIT); Magic Familiars take a basic mana when recruited (A_RECRUIT
# pay bits), may be recruited at a Magical Glade, pay upkeep before each round's tactics
# (A_UPKEEP); Delphana Masters add abilities to one activation; both are never rewards.
#
# Units: A_ACTIVATE_UNIT (7.3.1-7.3.2) runs one ability's effect rows like a card's;
# A_HEAL_UNIT spends Healing points equal to the unit's level (12.3.3); the effects
# ready_unit / heal_unit pick a unit with the handler protocol's ask (ASK_UNIT), dispatched
# from run_handler on a non-handler row.

cdef enum:
    NO_INTERACTION = -99       # mksim.tables.NO_INTERACTION: the X space of the track (10.2.3)
# UNIT_CARD_BASE and unit_resolving (who resolves): ext/_engine.pxd, shared with the handler modules


cdef inline int unit_value(const EngineStatics* es, int unit, int col) noexcept nogil:
    return es.units.table[unit * es.units.stride + col]


cdef inline int unit_level(const EngineStatics* es, int unit) noexcept nogil:
    return unit_value(es, unit, es.units.level)


cdef int units_held(const Player* pl) noexcept nogil:
    """Units that hold a Command token (7.2.1); one with the Banner of Command holds the
    Banner instead (LL-5.1, _engine_artifacts.pxi)."""
    cdef int i, n = 0
    for i in range(MAX_UNITS):
        if pl.units[i].card >= 0 and not (pl.units[i].banner >= 0 and pl.banner_fx[i] & BF_COMMAND):
            n += 1
    return n


cdef int interaction_site(const GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """10.2.1: the site code where player p may interact, -1 = none: a village, an unburned
    monastery, a keep p owns, a conquered mage tower or city, a refugee camp (LL-3.4)."""
    cdef int h = gs.players[p].position, site
    if h < 0:
        return -1
    site = gs.hexes[h].site
    if site == es.sites.village:
        return site
    if site == es.sites.monastery and not (gs.hexes[h].flags & HEX_BURNED):
        return site
    if site == es.sites.keep and (gs.hexes[h].flags & HEX_CONQUERED) and gs.hexes[h].owner == p:
        return site                                                # 10.7.3.3: own keep
    if (site == es.sites.mage_tower or site == es.sites.city) and (gs.hexes[h].flags & HEX_CONQUERED):
        return site                                                # 10.7.4.3, 10.10
    if site == es.glade_site and glade_units_offered(gs, es):
        return site                                                # LL-4.5.2: Magic Familiars
    if site == es.refugee_site:
        return site                                                # LL-3.4.1: recruiting only
    return -1


cdef bint glade_units_offered(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """LL-4.5.2: a unit of the offer shows the Magical Glade icon (Magic Familiars)."""
    cdef int k
    for k in range(gs.n_unit_offer):
        if gs.unit_offer[k] >= 0 and recruitable_here(es, gs.unit_offer[k], es.glade_site):
            return True
    return False


cdef bint can_interact(const GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """10.2.1 and 10.2.3: an interaction site, and the Shield not on the X space."""
    cdef int site = interaction_site(gs, es, p)
    return site >= 0 and (site == es.glade_site       # LL-4.5.2: no interaction, no reputation
                          or es.units.reputation[gs.players[p].reputation + 7] != NO_INTERACTION)


cdef int city_colour(const GameState* gs, int h) noexcept nogil:
    """Basic colour (RED BLUE WHITE GREEN) of the city on hex h (its City card), -1 = none."""
    cdef int colour = 0
    if h < 0:
        return -1
    while colour < 4 and not ((gs.hexes[h].colours >> colour) & 1):
        colour += 1
    return colour if colour < 4 else -1


cdef int interaction_city(const GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """Colour of the conquered city player p interacts in (10.10), -1 = not in a city."""
    if interaction_site(gs, es, p) != es.sites.city:
        return -1
    return city_colour(gs, gs.players[p].position)


cdef int start_interaction(GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """A_INTERACT: the turn's action (10.2.1); the reputation modifier once (10.2.3, 10.2.5),
    and in a conquered city the bonus for the player's Shields on its City card (10.2.4:
    [R] +1 Influence per Shield), also once however much is bought (10.2.5).
    At a Magical Glade: recruiting Magic Familiars, not an interaction (LL-4.5.2, LL-4.5.2.1
    [R]: it is the turn's action), no reputation modifier."""
    cdef int site = interaction_site(gs, es, p)
    cdef int bonus
    if site == es.glade_site:
        gs.turn.glade_recruit = 1                                  # LL-4.5.2: no reputation modifier
    else:
        gs.turn.rep_applied = <int8_t>es.units.reputation[gs.players[p].reputation + 7]
    bonus = gs.turn.rep_applied                                    # (Thugs / Heroes invert / double it)
    if site == es.sites.city:                                      # 10.2.4
        bonus += es.units.city_shield_influence * gs.hexes[gs.players[p].position].city_shields[p]
    # LL-9.3.4: Influence played before the action (moving; Learning, LL-9.7.12) is lost
    # when the action begins; the reputation modifier comes once, now (LL-9.3.6)
    gs.turn.influence = <int16_t>bonus
    gs.turn.action_taken = 1                                       # 4.4.5: no movement after it
    gs.turn.move_points = 0                                        # 4.4.7
    gs.phase = PH_INTERACT
    return ERR_NONE


cdef inline bint recruitable_here(const EngineStatics* es, int unit, int site) noexcept nogil:
    """10.6.1: one of the unit's site icons matches the site."""
    return (unit_value(es, unit, es.units.sites) >> site) & 1


cdef inline bint can_recruit(const EngineStatics* es, int unit, int site, int colour) noexcept nogil:
    """10.6.1 at the site; in a conquered city (colour >= 0) a unit with the city icon
    (10.10.1), or any unit in the white city (10.10: Units of all types); any unit at a
    refugee camp (LL-3.4.1)."""
    return recruitable_here(es, unit, site) or (colour >= 0 and es.units.city_recruit_any[colour] != 0) \
        or site == es.refugee_site


cdef int recruit_price(const EngineStatics* es, int unit, int site) noexcept nogil:
    """The Unit's Influence cost (10.6) at this site.  LL-3.4.2 (printed on the site card): at a
    refugee camp +0 for a unit with the village icon, +1 for one with a keep, mage tower or
    monastery icon (and none of a village), +3 for a city-only unit; the cheapest applies."""
    cdef int cost = unit_value(es, unit, es.units.cost)
    if site != es.refugee_site or recruitable_here(es, unit, es.sites.village):
        return cost
    if recruitable_here(es, unit, es.sites.keep) or recruitable_here(es, unit, es.sites.mage_tower) \
            or recruitable_here(es, unit, es.sites.monastery):
        return cost + 1
    return cost + 3


cdef int spell_price(const EngineStatics* es, int site, int colour) noexcept nogil:
    """Influence for a Spell of the offer (plus one mana of its colour, 21.2 A26): at a
    conquered mage tower (10.7.4.3) or in the blue city (10.10: as at a mage tower); -1 = none."""
    if site == es.sites.mage_tower:
        return es.units.spell_cost
    if colour >= 0 and es.units.city_spell_cost[colour] > 0:
        return es.units.city_spell_cost[colour]
    return -1


cdef int queued_rewards(const GameState* gs, int code) noexcept nogil:
    cdef int k, n = 0
    for k in range(gs.turn.n_rewards):
        if gs.turn.rewards[k] == code:
            n += 1
    return n


cdef int legal_city_purchases(const GameState* gs, const EngineStatics* es, int colour,
                              int32_t* out, int n) noexcept nogil:
    """10.10: the City card's own options (white: add an Elite Unit to the offer; red: an
    Artifact; green: an Advanced Action).  Blue Spells and recruiting are with the tower's
    and the site's (legal_interaction)."""
    cdef int infl = gs.turn.influence, k, cost
    if colour < 0:
        return n
    cost = es.units.city_artifact_cost[colour]                     # red: 12 each (10.5.2)
    # offered while the Artifact deck still holds a card for it (21.2 A15: none = lost)
    if cost > 0 and infl >= cost and gs.turn.n_rewards < 16 \
            and gs.n_artifact_deck > queued_rewards(gs, RW_ARTIFACT) and n < MAX_ACTIONS:
        out[n] = act(A_BUY_ARTIFACT, 0)
        n += 1
    cost = es.units.city_aa_cost[colour]                           # green: 6 (10.5)
    if cost > 0 and infl >= cost:
        for k in range(3):
            if gs.aa_offer[k] >= 0 and n < MAX_ACTIONS:
                out[n] = act(A_BUY_CITY_AA, k)
                n += 1
        if gs.n_aa_deck > 0 and n < MAX_ACTIONS:                   # [R] or the top card of the deck
            out[n] = act(A_BUY_CITY_AA, 3)
            n += 1
    cost = es.units.city_elite_cost[colour]                        # white: [R] 2
    if cost > 0 and infl >= cost and es.elite_units and gs.n_elite_units > 0 \
            and gs.n_unit_offer < MAX_OFFER and n < MAX_ACTIONS:
        out[n] = act(A_ADD_ELITE, 0)
        n += 1
    return n


cdef int apply_city_purchase(GameState* gs, const EngineStatics* es, int p, int kind, int arg) noexcept nogil:
    """A_BUY_ARTIFACT / A_BUY_CITY_AA / A_ADD_ELITE in a conquered city (10.10, 10.5)."""
    cdef Player* pl = &gs.players[p]
    cdef int colour = interaction_city(gs, es, p), cost, card
    if kind == A_BUY_ARTIFACT:                                     # 10.10 red, 10.5.2
        cost = es.units.city_artifact_cost[colour]
        gs.turn.influence = <int16_t>(gs.turn.influence - cost)
        add_reward(gs, RW_ARTIFACT)                                # drawn at the end of the turn (13.5.2)
        return ERR_NONE
    if kind == A_BUY_CITY_AA:                                      # 10.10 green, 10.5
        cost = es.units.city_aa_cost[colour]
        if arg == 3:
            gs.n_aa_deck -= 1
            card = gs.aa_deck[gs.n_aa_deck]
        else:
            card = gs.aa_offer[arg]
            refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, arg)   # 6.4.2
        gs.turn.influence = <int16_t>(gs.turn.influence - cost)
        gain_deed(es, pl, card)                                    # 10.5.1: on top of the Deed deck
        return ERR_NONE
    if kind == A_ADD_ELITE:                                        # 10.10 white
        cost = es.units.city_elite_cost[colour]
        gs.turn.influence = <int16_t>(gs.turn.influence - cost)
        gs.n_elite_units -= 1
        gs.unit_offer[gs.n_unit_offer] = gs.elite_units[gs.n_elite_units]
        gs.n_unit_offer += 1
        return ERR_NONE
    set_error(gs, ERR_INTERNAL, INTERNAL_NO_APPLY, -1)             # a kind of this range without a branch
    return ERR_INTERNAL


cdef int heal_price(const EngineStatics* es, int site) noexcept nogil:
    """10.5: Influence per Healing point at this site, -1 = not sold."""
    if site == es.sites.village:
        return es.units.heal_village
    if site == es.sites.monastery:
        return es.units.heal_monastery
    return -1


cdef enum:
    NO_RECRUIT = -10000        # recruit_rep_delta: not in this interaction (LL-4.2.4)


cdef int recruit_rep_delta(const GameState* gs, const EngineStatics* es, int u) noexcept nogil:
    """Change of the interaction's Influence when unit u is recruited now.  LL-4.2.1-
    LL-4.2.3, LL-4.2.7: with at least one Thugs recruited the reputation modifier of the
    whole interaction is inverted, with Heroes doubled, once; LL-4.2.4: not both.  Engine
    reading of LL-4.2.6: the modifier applied at the start (10.2.3) is corrected when the
    first Thugs / Heroes is recruited, as if declared at the start (the Influence total is
    the same, and no interaction can be stranded by an unfulfilled declaration)."""
    cdef int kind = unit_special(es, u)
    if kind != SU_THUGS and kind != SU_HEROES:
        return 0
    if gs.turn.recruit_mode == kind:
        return 0
    if gs.turn.recruit_mode != 0:
        return NO_RECRUIT
    if kind == SU_THUGS:
        return -2 * gs.turn.rep_applied                            # inverted
    return gs.turn.rep_applied                                     # doubled


cdef int legal_interaction(const GameState* gs, const EngineStatics* es, const Statics* st,
                           int32_t* out, int n) noexcept nogil:
    """Purchases of PH_INTERACT (10.5-10.7), healing and units, and A_END_INTERACT."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int site = interaction_site(gs, es, gs.current)
    cdef int colour = interaction_city(gs, es, gs.current)
    cdef int infl = gs.turn.influence, price = spell_price(es, site, colour)
    cdef int k, u, d, pay, card, npay = n_pay_codes(gs), delta, c, cost
    cdef bint full = units_held(pl) - (bonds_unit_slot(pl) >= 0) >= pl.command_tokens   # Bonds: its own token
    cdef int bonds = bonds_row(es, pl), bslot = bonds_unit_slot(pl)
    n = legal_heal(gs, es, out, n)
    n = legal_unit_actions(gs, es, out, n)
    n = legal_tactic_abilities(gs, es, out, n)                     # 3.2: during the turn
    for k in range(gs.n_unit_offer):
        u = gs.unit_offer[k]
        if u >= 0:                                                 # 10.6 recruit
            if mod_has(&gs.turn, MK_NO_RECRUIT):
                continue                                           # On Her Own (_fx_skills.pxi)
            delta = recruit_rep_delta(gs, es, u)                   # LL-4.2 Thugs / Heroes
            if delta == NO_RECRUIT or not can_recruit(es, u, site, colour):
                continue
            if bonds >= 0 and bslot < 0 and bonds_kind_ok(unit_special(es, u)) and n < MAX_ACTIONS \
                    and bonds_cost(es, bonds, recruit_price(es, u, site)) <= infl + delta:
                out[n] = act(A_RECRUIT, k | BONDS_RECRUIT)         # Bonds of Loyalty (_fx_skills)
                n += 1
            cost = recruit_price(es, u, site) - mod_sum(&gs.turn, MK_RECRUIT_DISCOUNT)   # (Charm: on one Unit)
            if cost < 0:
                cost = 0                                           # as apply_interaction (9.6.2 reading)
            if cost > infl + delta:
                continue                                           # 10.2.6: a negative total pays nothing
            # d = 0: no disbanding (a free Command token, or LL-5.1 the Banner of Command
            # instead); d = slot + 1: disband that unit first (7.2.4; not the one under Bonds)
            for d in range(0 if (not full or command_banner_ready(gs)) else 1, 1 if not full else MAX_UNITS + 1):
                if d > 0 and (pl.units[d - 1].card < 0 or d - 1 == bslot):
                    continue
                if unit_special(es, u) == SU_FAMILIARS:            # LL-4.5.4: + one basic mana
                    for c in range(4):
                        for pay in range(npay):
                            if pay_ok(gs, pay, c) and n < MAX_ACTIONS:
                                out[n] = act(A_RECRUIT, k | (d << 4) | ((pay + 1) << 8) | (c << 13))
                                n += 1
                elif n < MAX_ACTIONS:
                    out[n] = act(A_RECRUIT, k | (d << 4))
                    n += 1
        elif site == es.sites.monastery and infl >= es.units.aa_cost and n < MAX_ACTIONS:
            out[n] = act(A_BUY_AA, k)                              # 10.7.2.2
            n += 1
    if heal_price(es, site) > 0 and infl >= heal_price(es, site) and n < MAX_ACTIONS:
        out[n] = act(A_BUY_HEALING, 0)                             # 10.5
        n += 1
    if price > 0 and infl >= price:                                # 10.7.4.3; blue city 10.10
        for k in range(3):
            card = gs.spell_offer[k]
            if card < 0:
                continue
            for pay in range(npay):
                if pay_ok(gs, pay, card_colour(es, card)) and n < MAX_ACTIONS:
                    out[n] = act(A_BUY_SPELL, k | (pay << 2))
                    n += 1
    n = legal_city_purchases(gs, es, colour, out, n)               # 10.10
    if n < MAX_ACTIONS:
        out[n] = act(A_END_INTERACT, 0)
        n += 1
    return n


cdef void remove_offer_slot(GameState* gs, int k) noexcept nogil:
    """6.4.3: a card taken from the Unit offer is not replaced until the next round."""
    cdef int i
    for i in range(k, gs.n_unit_offer - 1):
        gs.unit_offer[i] = gs.unit_offer[i + 1]
    gs.n_unit_offer -= 1


cdef inline void clear_unit_extras(Unit* u) noexcept nogil:
    """The units-area fields of a slot (_types.pxd Unit, '--- units ---')."""
    u.gained_res = 0
    u.paid_combat = 0
    u.abilities_used = 0
    u.upkeep = 0
    u.upkeep_due = 0


cdef void disband(Player* pl, int slot) noexcept nogil:
    """7.2.4: the unit is removed from the game; its Banner goes to the discard pile (7.5.2)."""
    cdef Unit* u = &pl.units[slot]
    if u.banner >= 0:
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, u.banner)
    u.card = -1
    u.banner = -1
    u.ready = 0
    u.wounds = 0
    u.damaged_this_combat = 0
    clear_unit_extras(u)


cdef int gain_unit(GameState* gs, Player* pl, int unit) noexcept nogil:
    """7.2.3: the new unit is Ready and unwounded.  Returns its slot, -1 if no slot is free."""
    cdef int i
    for i in range(MAX_UNITS):
        if pl.units[i].card < 0:
            if pl.bonds_slot == i + 1:
                pl.bonds_slot = 0                                  # its Bonds unit is gone
            pl.units[i].card = <int16_t>unit
            pl.units[i].ready = 1
            pl.stats.units_recruited += 1                          # results store
            pl.units[i].wounds = 0
            pl.units[i].banner = -1
            pl.units[i].damaged_this_combat = 0
            clear_unit_extras(&pl.units[i])
            return i
    set_error(gs, ERR_CAPACITY, 4, -1)
    return -1


cdef int apply_interaction(GameState* gs, const EngineStatics* es, const Statics* st, int p,
                           int kind, int arg) noexcept nogil:
    cdef Player* pl = &gs.players[p]
    cdef int site = interaction_site(gs, es, p)
    cdef int colour = interaction_city(gs, es, p)
    cdef int k, u, d, cost, card, pay, delta, c
    cdef bint with_banner
    if kind == A_ACTIVATE_UNIT:
        return activate_unit(gs, es, st, p, arg)
    if kind == A_HEAL_UNIT:
        return heal_unit_points(gs, es, p, arg)
    if kind == A_END_INTERACT:
        gs.turn.influence = 0                                      # nothing more can be bought
        gs.phase = PH_MOVE                                         # the action is taken (4.4.5)
        return ERR_NONE
    if kind == A_RECRUIT and arg & BONDS_RECRUIT:                  # Bonds of Loyalty (_fx_skills)
        return recruit_under_bonds(gs, es, p, arg & 0xF, site)
    if kind == A_RECRUIT:                                          # 10.6, 7.2
        k = arg & 0xF
        d = ((arg >> 4) & 0xF) - 1
        pay = ((arg >> 8) & 0x1F) - 1
        c = (arg >> 13) & 3
        u = gs.unit_offer[k]
        cost = recruit_price(es, u, site) - mod_sum(&gs.turn, MK_RECRUIT_DISCOUNT)   # Charm (_fx_spells)
        if cost < 0:
            cost = 0
        delta = recruit_rep_delta(gs, es, u)                       # LL-4.2 Thugs / Heroes
        if cost > gs.turn.influence + delta:                       # legal_interaction lists the same floored cost
            set_error(gs, ERR_INTERNAL, INTERNAL_RECRUIT, -1)
            return ERR_INTERNAL
        if unit_special(es, u) == SU_UNKNOWN:                      # special rules not known
            set_error(gs, ERR_UNIT_RULES, u, UNIT_CARD_BASE - u * 8)
            return ERR_UNIT_RULES
        with_banner = False
        if units_held(pl) - (bonds_unit_slot(pl) >= 0) >= pl.command_tokens:   # 7.2.1, 7.2.4: must disband
            if d < 0 and command_banner_ready(gs):
                with_banner = True                                 # LL-5.1: Banner of Command
            else:
                disband(pl, d)
        if delta != 0 or unit_special(es, u) == SU_THUGS or unit_special(es, u) == SU_HEROES:
            gs.turn.recruit_mode = <uint8_t>unit_special(es, u)    # LL-4.2.3: once; LL-4.2.4
        gs.turn.influence = <int16_t>(gs.turn.influence + delta - cost)
        mod_remove_kind(&gs.turn, MK_RECRUIT_DISCOUNT)             # Charm: used on this Unit
        if pay >= 0:
            pay_take(gs, pay, c)                                   # 5.4.4
        remove_offer_slot(gs, k)
        d = gain_unit(gs, pl, u)
        if d < 0:
            return ERR_CAPACITY
        gs.turn.recruited_units |= <uint8_t>(1 << d)               # Banner of Command
        if with_banner:
            attach_command_banner(gs, pl, d)
        if pay >= 0:
            pl.units[d].upkeep = <int8_t>(c + 1)                   # kept on the card (LL-4.5.4)
        heroic_tale_recruited(gs, pl)                              # Heroic Tale (_fx_advanced)
        gs.turn.recruited = 1                                      # On Her Own (_fx_skills)
        return ERR_NONE
    if kind == A_BUY_HEALING:                                      # 10.5, 12.3.2
        cost = heal_price(es, site)
        gs.turn.influence = <int16_t>(gs.turn.influence - cost)
        gs.turn.healing += 1
        return ERR_NONE
    if kind == A_BUY_AA:                                           # 10.7.2.2
        k = arg
        gs.turn.influence = <int16_t>(gs.turn.influence - es.units.aa_cost)
        gain_deed(es, pl, -gs.unit_offer[k] - 1)                   # 6.4.1: top of the Deed deck
        remove_offer_slot(gs, k)                                   # 6.4.3: not replaced
        return ERR_NONE
    if kind == A_BUY_SPELL:                                        # 10.7.4.3, 21.2 A26; blue city 10.10
        k = arg & 3
        pay = arg >> 2
        cost = spell_price(es, site, colour)
        card = gs.spell_offer[k]
        pay_take(gs, pay, card_colour(es, card))
        gs.turn.influence = <int16_t>(gs.turn.influence - cost)
        gain_deed(es, pl, card)                                    # 6.4.1 / 10.5.1
        refill_offer(gs, gs.spell_offer, gs.spell_deck, &gs.n_spell_deck, k)   # 6.4.2
        return ERR_NONE
    set_error(gs, ERR_INTERNAL, INTERNAL_NO_APPLY, -1)             # a kind of this range without a branch
    return ERR_INTERNAL


# -- Unit rewards (13.5.4) ----------------------------------------------------------------

cdef enum:
    REWARD_GIVE_UP = 0x7F      # A_REWARD argument: give the Unit reward up (13.5.4)


cdef bint reward_token_free(const GameState* gs, const Statics* st) noexcept nogil:
    """13.5.4, 21.2 A19: a free Command token now, or one that a level-up of this turn
    (resolved right after the rewards, 13.6.3) brings - then no disband is needed."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int tokens = pl.command_tokens, lv = pl.level + gs.turn.levels_pending
    if gs.turn.levels_pending > 0:
        tokens += (level_value(st, lv, st.cols.level_command_tokens)
                   - level_value(st, pl.level, st.cols.level_command_tokens))
    return units_held(pl) - (bonds_unit_slot(pl) >= 0) < tokens   # Bonds: its own token


cdef inline bint reward_gainable(const EngineStatics* es, int u) noexcept nogil:
    """LL-4.4.1, LL-4.5.3 (ambiguity 28 [R]): Delphana Masters and Magic Familiars ("!")
    are recruited only by interaction, never gained as a reward or for free."""
    cdef int kind = unit_special(es, u)
    return kind != SU_DELPHANA and kind != SU_FAMILIARS


cdef int legal_unit_reward(const GameState* gs, const EngineStatics* es, const Statics* st,
                           int32_t* out, int n) noexcept nogil:
    """13.5.4: any Unit of the offer, whatever its type or cost; with no free Command token,
    disband one or give the reward up."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef bint free = reward_token_free(gs, st)
    cdef int k, d
    for k in range(gs.n_unit_offer):
        if gs.unit_offer[k] < 0 or not reward_gainable(es, gs.unit_offer[k]):
            continue
        if free:
            if n < MAX_ACTIONS:
                out[n] = act(A_REWARD, k)
                n += 1
        else:
            for d in range(MAX_UNITS):
                if pl.units[d].card >= 0 and d != bonds_unit_slot(pl) and n < MAX_ACTIONS:
                    out[n] = act(A_REWARD, k | ((d + 1) << 4))
                    n += 1
    if (not free or n == 0) and n < MAX_ACTIONS:
        out[n] = act(A_REWARD, REWARD_GIVE_UP)
        n += 1
    return n


cdef int apply_unit_reward(GameState* gs, const EngineStatics* es, const Statics* st, int arg) noexcept nogil:
    cdef Player* pl = &gs.players[gs.current]
    cdef int k = arg & 0xF, d = (arg >> 4) - 1, u, i
    cdef bint free = reward_token_free(gs, st)
    if arg == REWARD_GIVE_UP:
        return ERR_NONE
    u = gs.unit_offer[k]
    if unit_special(es, u) == SU_UNKNOWN:
        set_error(gs, ERR_UNIT_RULES, u, UNIT_CARD_BASE - u * 8)
        return ERR_UNIT_RULES
    if d >= 0:                                                     # (Thugs / Heroes: no LL-4.2 rules, LL-4.2.5)
        disband(pl, d)                                             # 7.2.4
    remove_offer_slot(gs, k)                                       # 6.4.3
    if gain_unit(gs, pl, u) < 0:
        return ERR_CAPACITY
    return ERR_NONE


# -- Units (7.3, 12.3) ------------------------------------------------------------------

cdef bint units_usable_now(const GameState* gs) noexcept nogil:
    """When a unit ability may be activated: during the turn, and in a combat only where
    Units are allowed (7.3.8)."""
    if gs.combat.active:
        return gs.combat.units_allowed != 0
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT


cdef bint healing_time(const GameState* gs) noexcept nogil:
    """12.4.1: healing any time of the turn except during combat."""
    return not gs.combat.active and (gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT)


cdef inline bint unit_cooperates(const GameState* gs, const EngineStatics* es, const Unit* u) noexcept nogil:
    """LL-4.3.2: Heroes' abilities cannot be used in an assault on a fortified site unless
    2 Influence were paid in this combat."""
    if unit_special(es, u.card) == SU_HEROES and gs.combat.active and gs.combat.reason == CK_ASSAULT:
        return u.paid_combat != 0
    return True


cdef inline bint unit_ability_open(const GameState* gs, const EngineStatics* es, const Unit* u, int a) noexcept nogil:
    """7.3.1: a Ready unit, one ability.  LL-4.4.2-LL-4.4.3 [R]: a Spent Delphana Masters
    activated this turn may add each of its other abilities once (its mana paid)."""
    if u.ready:
        return True
    return unit_special(es, u.card) == SU_DELPHANA and u.abilities_used != 0 \
        and not ((u.abilities_used >> a) & 1)


cdef int legal_unit_actions(const GameState* gs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    """A_ACTIVATE_UNIT for each usable ability of a Ready, unwounded unit (7.3.1, 12.2.2) and
    A_HEAL_UNIT for each wounded unit the Healing points can heal (12.3.3)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef const Unit* u
    cdef int i, a, ab, eff, mana, pay, npay = n_pay_codes(gs)
    cdef bint all_units = units_usable_now(gs)
    if all_units or bonds_unit_usable(gs, pl):
        for i in range(MAX_UNITS):
            u = &pl.units[i]
            if u.card < 0 or u.wounds > 0 or not unit_cooperates(gs, es, u):
                continue
            if not all_units and i != bonds_unit_slot(pl):
                continue                                           # Bonds of Loyalty only
            for a in range(unit_value(es, u.card, es.units.n_abilities)):
                if not unit_ability_open(gs, es, u, a):
                    continue
                ab = unit_value(es, u.card, es.units.first_ability) + a
                eff = es.units.ability[ab * es.units.ability_stride]
                mana = es.units.ability[ab * es.units.ability_stride + 1]
                if not ability_playable(gs, es, u.card, i, eff, mana):
                    continue
                if mana < 0:
                    if n < MAX_ACTIONS:
                        out[n] = act(A_ACTIVATE_UNIT, i | (a << 3) | (PAY_NONE << 7))
                        n += 1
                else:
                    for pay in range(npay):                        # 5.4.4
                        if pay_ok(gs, pay, mana) and n < MAX_ACTIONS:
                            out[n] = act(A_ACTIVATE_UNIT, i | (a << 3) | (pay << 7))
                            n += 1
    if healing_time(gs) and gs.turn.healing > 0:
        for i in range(MAX_UNITS):
            u = &pl.units[i]
            if u.card >= 0 and u.wounds > 0 and gs.turn.healing >= unit_level(es, u.card) and n < MAX_ACTIONS:
                out[n] = act(A_HEAL_UNIT, i)
                n += 1
    return n


cdef bint ability_playable(const GameState* gs, const EngineStatics* es, int unit, int slot, int eff,
                          int mana) noexcept nogil:
    """node_playable for a Unit's ability, checked as that Unit's effect of its mana colour
    (11.4.2: a red / blue ability has no effect on a Fire / Ice-resistant enemy)."""
    cdef GameState* g = <GameState*>gs       # the resolving context is set for the check and restored
    cdef int16_t was_card = gs.turn.resolving_card, was_by = gs.turn.fx_colour_by
    cdef int8_t was_colour = gs.turn.fx_colour
    cdef bint ok
    g.turn.resolving_card = <int16_t>(UNIT_CARD_BASE - (unit * 8 + slot))
    g.turn.fx_colour = <int8_t>(mana + 1 if 0 <= mana < 4 else 0)
    g.turn.fx_colour_by = g.turn.resolving_card
    ok = interp.node_playable(gs, es, eff)
    g.turn.resolving_card = was_card
    g.turn.fx_colour = was_colour
    g.turn.fx_colour_by = was_by
    return ok


cdef int activate_unit(GameState* gs, const EngineStatics* es, const Statics* st, int p, int arg) noexcept nogil:
    """7.3.1-7.3.2: pay the ability's mana, the unit becomes Spent, its effect resolves like
    a card's (7.3.3)."""
    cdef Player* pl = &gs.players[p]
    cdef int slot = arg & 7, a = (arg >> 3) & 0xF, pay = arg >> 7
    cdef int ab, eff, mana, res
    cdef Unit* u
    u = &pl.units[slot]
    ab = unit_value(es, u.card, es.units.first_ability) + a
    eff = es.units.ability[ab * es.units.ability_stride]
    mana = es.units.ability[ab * es.units.ability_stride + 1]
    if mana >= 0:
        pay_take(gs, pay, mana)                                    # 5.4.4
    if u.ready:
        u.abilities_used = <uint8_t>(1 << a)                       # a new activation (LL-4.4.2)
    else:
        u.abilities_used |= <uint8_t>(1 << a)                      # Delphana Masters: one more
    u.ready = 0                                                    # 7.3.2: Spent
    if gs.combat.active:
        gs.turn.duel_pool_units = 1                                # Dueling (_fx_skills.pxi)
    gs.turn.resolving_card = <int16_t>(UNIT_CARD_BASE - (u.card * 8 + slot))
    gs.turn.fx_colour = <int8_t>(mana + 1 if 0 <= mana < 4 else 0)   # 11.4.2: red / blue mana
    gs.turn.fx_colour_by = gs.turn.resolving_card
    # a card bonus (Concentration, Tirelessness) is for a card, not for a unit's ability:
    # apply_op / card_bonus give it only while a Deed card resolves (resolving_card >= 0),
    # so a pending Tirelessness bonus waits for the next card, also across a unit's choice
    push_eval(gs, eff)
    res = interp.run_effects(gs, es, st, effect_context(gs, p))
    if res == RES_ERROR:
        return gs.error
    return ERR_NONE


cdef int heal_unit_points(GameState* gs, const EngineStatics* es, int p, int slot) noexcept nogil:
    """12.3.3: Healing points equal to the unit's level remove one Wound from it."""
    cdef Unit* u
    u = &gs.players[p].units[slot]
    gs.turn.healing = <int16_t>(gs.turn.healing - unit_level(es, u.card))
    grail_spent(gs, &gs.players[p], unit_level(es, u.card))
    u.wounds -= 1
    unit_healed(gs, p, slot)
    return ERR_NONE


cdef void unit_healed(GameState* gs, int p, int slot) noexcept nogil:
    """A Wound of the Unit in `slot` was healed: recorded for Cure, which readies each Unit
    healed this turn, before it is played or after (card text, cards.csv #302)."""
    gs.turn.units_healed |= <uint8_t>(1 << slot)
    if mod_has(&gs.turn, MK_CURE):
        gs.players[p].units[slot].ready = 1                      # 7.2.2


cdef uint64_t unit_op_targets(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    """Unit slots a ready_unit (Spent, level <= max_level; 7.3.4) or heal_unit (wounded;
    12.3.4) effect may pick.  A unit's own ability acts on another unit (reading: a unit
    that readied itself could be activated again and again, against 7.3.1-7.3.2)."""
    cdef const int32_t* r = erow(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t mask = 0
    cdef int i, own = -1
    if unit_resolving(gs.turn.resolving_card):
        own = (UNIT_CARD_BASE - gs.turn.resolving_card) & 7
    for i in range(MAX_UNITS):
        if pl.units[i].card < 0 or i == own:
            continue
        if r[0] == OP_READY_UNIT:
            if not pl.units[i].ready and unit_level(es, pl.units[i].card) <= r[1]:
                mask |= <uint64_t>1 << i
        elif pl.units[i].wounds > 0:
            mask |= <uint64_t>1 << i
    return mask


cdef bint unit_op_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil:
    """ready_unit: a special effect, any time of the turn (6.3.3); heal_unit: healing,
    outside combat (12.4.1).  Both need a unit to act on."""
    if unit_op_targets(gs, es, row) == 0:
        return False
    if erow(es, row)[0] == OP_HEAL_UNIT:
        return healing_time(gs)
    return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0


cdef int unit_op(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int choice) noexcept nogil:
    """Resolve ready_unit / heal_unit: with one candidate it is taken, with several the
    player picks (ASK_UNIT, option = unit slot); with none the effect does nothing."""
    cdef uint64_t mask = unit_op_targets(gs, es, row)
    cdef int i, slot = -1, count = 0
    cdef Unit* u
    if choice < 0:
        for i in range(MAX_UNITS):
            if (mask >> i) & 1:
                count += 1
                slot = i
        if count == 0:
            return RES_DONE
        if count > 1:
            return ask(gs, row, 0, ASK_UNIT, mask)
    else:
        if choice >= MAX_UNITS or not ((mask >> choice) & 1):   # asked with these options
            set_error(gs, ERR_INTERNAL, INTERNAL_NO_OPTION, -1)
            return RES_ERROR
        slot = choice
    u = &gs.players[p].units[slot]
    if erow(es, row)[0] == OP_READY_UNIT:
        u.ready = 1                                                # 7.3.4
    else:
        u.wounds -= 1                                              # 12.3.4: one Wound
        unit_healed(gs, p, slot)
    return RES_DONE


cdef bint unit_can_take_damage(const GameState* gs, const EngineStatics* es, const Statics* st, int slot) noexcept nogil:
    """11.7.3, 12.2.2, 11.7.6, 7.3.8, LL-6.4.1: may the current attack's damage go to this unit?"""
    cdef const Unit* u = &gs.players[gs.current].units[slot]
    if not gs.combat.units_allowed or gs.combat.dmg_slot < 0:
        return False
    if u.card < 0 or u.wounds > 0 or u.damaged_this_combat or mod_has(&gs.turn, MK_NO_UNIT_DAMAGE):
        return False                                               # (Into the Heat: MK_NO_UNIT_DAMAGE)
    if unit_special(es, u.card) == SU_THUGS and not u.paid_combat:
        return False                                               # LL-4.3.1: not unless paid
    return not enemy_ability(gs, st, gs.combat.dmg_slot, AB_ASSASSINATION)


# -- Python-side binding and a test helper --------------------------------------------

def _bind_units(Engine eng, tables, content):
    """Fill eng.es.units from the units / unit_abilities / reputation tables and sites.toml."""
    cdef const int32_t[:, ::1] uv
    cdef const int32_t[:, ::1] av
    cdef const int32_t[:] rv
    cdef const int32_t[:] sv
    cdef UnitRules* ur = &eng.es.units
    units = np.ascontiguousarray(tables.units, dtype=np.int32)
    abilities = np.ascontiguousarray(tables.unit_abilities, dtype=np.int32)
    if abilities.shape[0] == 0:
        abilities = np.full((1, 2), -1, dtype=np.int32)
    rep = np.ascontiguousarray(tables.reputation, dtype=np.int32)
    if rep.shape[0] != 16:
        raise ValueError("reputation table: 16 spaces -7..+8 expected (reputation.toml)")
    special = np.array([(SPECIAL_UNIT_CODES.get(u["id"], SU_UNKNOWN) if u.get("special_rules") else SU_NONE)
                        for u in content["units"]] or [0], dtype=np.int32)   # SpecialUnit, below
    if [u["id"] for u in content["units"]] != list(tables.unit_ids):
        raise ValueError("units table and content disagree")
    eng._unit_tables = (units, abilities, rep, special)
    sv = special
    ur.special = &sv[0]
    uv = units
    av = abilities
    rv = rep
    ur.table = &uv[0, 0]
    ur.stride = units.shape[1]
    col = lambda name: tables.col("units", name)
    ur.level, ur.cost, ur.sites = col("level"), col("cost"), col("sites")
    ur.first_ability, ur.n_abilities = col("first_ability"), col("n_abilities")
    ur.ability = &av[0, 0]
    ur.ability_stride = abilities.shape[1]
    ur.reputation = &rv[0]
    sites = {s["id"]: s for s in content["sites"]}
    ur.heal_village = sites["village"]["heal_cost"]
    ur.heal_monastery = sites["monastery"]["heal_cost"]
    ur.aa_cost = sites["monastery"]["advanced_action_cost"]
    ur.spell_cost = sites["mage_tower"]["spell_cost"]
    for k in range(4):                                             # 10.10 (city_garrisons.toml [[city]])
        ur.city_recruit_any[k] = ur.city_elite_cost[k] = ur.city_spell_cost[k] = 0
        ur.city_artifact_cost[k] = ur.city_aa_cost[k] = 0
    for c in content["cities"]:
        k = _fx.BASIC_COLOURS.index(c["colour"])
        ur.city_recruit_any[k] = 1 if c.get("recruit_any") else 0
        ur.city_elite_cost[k] = c.get("elite_to_offer_cost", 0)
        ur.city_spell_cost[k] = c.get("spell_cost", 0)
        ur.city_artifact_cost[k] = c.get("artifact_cost", 0)
        ur.city_aa_cost[k] = c.get("advanced_action_cost", 0)
    ur.city_shield_influence = 1                                   # 10.2.4 [R]: +1 per Shield


cdef class UnitsTester:
    """Tests: set up an interaction / unit situation on an Engine's state (shares it)."""
    cdef Engine eng

    def __init__(self, Engine eng):
        self.eng = eng

    def set_unit_offer(self, entries):
        """entries: unit ids, or ("aa", card id) for a monastery AA (6.4.3)."""
        cdef GameState* gs = &self.eng.core.gs
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        t = self.eng.tables
        if len(entries) > MAX_OFFER:
            raise ValueError("offer too long")
        for i, e in enumerate(entries):
            gs.unit_offer[i] = -(t.card_ids.index(e[1]) + 1) if isinstance(e, tuple) else t.unit_ids.index(e)
        gs.n_unit_offer = len(entries)

    def set_spell_offer(self, cards):
        cdef GameState* gs = &self.eng.core.gs
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        for i in range(3):
            gs.spell_offer[i] = self.eng.tables.card_ids.index(cards[i]) if i < len(cards) and cards[i] else -1

    def set_unit(self, int slot, unit, int ready=1, int wounds=0, upkeep=None):
        """upkeep: colour name of the mana kept on a Magic Familiars card (LL-4.5.4)."""
        cdef Unit* u = &self.eng.core.gs.players[self.eng.core.gs.current].units[slot]
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        u.card = -1 if unit is None else self.eng.tables.unit_ids.index(unit)
        u.ready = ready
        u.wounds = wounds
        u.banner = -1
        u.damaged_this_combat = 0
        clear_unit_extras(u)
        if upkeep is not None:
            u.upkeep = _fx.MANA_COLOURS.index(upkeep) + 1

    def unit_extras(self, int slot):
        """The units-area fields of a slot (the unit effects of _fx_units.pyx, the special rules below)."""
        cdef Unit* u = &self.eng.core.gs.players[self.eng.core.gs.current].units[slot]
        return {"gained_res": [r for i, r in enumerate(("physical", "fire", "ice")) if (u.gained_res | u.gained_res >> 3) >> i & 1],
                "combat_res": [r for i, r in enumerate(("physical", "fire", "ice")) if u.gained_res >> (i + 3) & 1],
                "paid": bool(u.paid_combat), "abilities_used": u.abilities_used,
                "upkeep": _fx.MANA_COLOURS[u.upkeep - 1] if u.upkeep > 0 else None,
                "upkeep_due": bool(u.upkeep_due)}

    def enemy_unit_fx(self, int slot):
        """CombatEnemy.unit_fx as names."""
        cdef uint8_t f = self.eng.core.gs.combat.enemies[slot].unit_fx
        return [n for i, n in enumerate(("no_resistances", "destroy_if_blocked")) if f >> i & 1]

    @property
    def units_turn(self):
        cdef GameState* gs = &self.eng.core.gs
        return {"explore_range": mod_sum(&gs.turn, MK_EXPLORE_RANGE),
                "recon_token": gs.turn.recon_token - 1 if gs.turn.recon_token > 0 else None,
                "draw_fire": (gs.turn.draw_fire_slot - 1, gs.turn.draw_fire_attack, gs.turn.draw_fire_unit)
                if gs.turn.draw_fire_slot > 0 else None,
                "attacks_coldfire": mod_has(&gs.turn, MK_ATTACKS_COLDFIRE), "attacks_siege": mod_has(&gs.turn, MK_ATTACKS_SIEGE),
                "recruit_mode": gs.turn.recruit_mode}

    def set_night(self, int night=1):
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        self.eng.core.gs.time = NIGHT if night else DAY

    def start_combat_tokens(self, tokens):
        """A combat against these existing token instances (e.g. a pile's top token), with no
        site (as when challenging: the outcome touches no site, 11.12)."""
        cdef int toks[MAX_COMBAT_ENEMIES]
        cdef int orig[MAX_COMBAT_ENEMIES]
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        for i, t in enumerate(tokens):
            toks[i] = t
            orig[i] = -1
        if begin_fight(&self.eng.core.gs, &self.eng.es, &self.eng.core.st, toks, orig, len(tokens), -1, 0, 0, 0,
                       1, CK_RAMPAGING) != ERR_NONE:
            raise RuntimeError("combat_begin failed")

    def prepare_round(self):
        """Run the round preparation (2.2) now; raise what ``Engine.apply`` would if it stops
        the game (a card a full zone refused: ERR_CAPACITY)."""
        global mksim_cards_refused
        cdef GameState* gs = &self.eng.core.gs
        mksim_cards_refused = 0
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        prepare_round(gs, &self.eng.es, &self.eng.core.st)
        gs.cards_refused += <uint16_t>mksim_cards_refused
        check_capacity(gs, self.eng.es.wound)
        if gs.error != ERR_NONE:
            raise self.eng._error(gs.error, 0)

    def unit(self, int slot):
        cdef Unit* u = &self.eng.core.gs.players[self.eng.core.gs.current].units[slot]
        if u.card < 0:
            return None
        return {"unit": self.eng.tables.unit_ids[u.card], "ready": bool(u.ready), "wounds": u.wounds}

    def set_turn(self, influence=None, healing=None, mana=None):
        """mana: {colour name: tokens}."""
        cdef GameState* gs = &self.eng.core.gs
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        if influence is not None:
            gs.turn.influence = influence
        if healing is not None:
            gs.turn.healing = healing
        for c, v in (mana or {}).items():
            gs.turn.mana_tokens[_fx.MANA_COLOURS.index(c)] = v

    def set_phase(self, int phase):
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        self.eng.core.gs.phase = phase

    def start_combat(self, enemies, int units_allowed=1, int assault=0):
        """A combat against drawn-for-it tokens of these enemies (as at an adventure site;
        assault=1: as an assault on a fortified site, every enemy site-fortified, 11.10.1)."""
        cdef GameState* gs = &self.eng.core.gs
        cdef int toks[MAX_COMBAT_ENEMIES]
        cdef int orig[MAX_COMBAT_ENEMIES]
        cdef int i, n = len(enemies), t
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        for i in range(n):
            e = self.eng.tables.enemy_ids.index(enemies[i])
            for t in range(MAX_TOKENS_):
                if gs.token_enemy[t] < 0:
                    gs.token_enemy[t] = e
                    break
            toks[i] = t
            orig[i] = -1
        if begin_fight(gs, &self.eng.es, &self.eng.core.st, toks, orig, n, -1,
                       ((<uint32_t>1 << n) - 1) if assault else 0, 0, 0,
                       units_allowed, CK_ASSAULT if assault else CK_ADVENTURE) != ERR_NONE:
            raise RuntimeError("combat_begin failed")
        gs.turn.heat_window = 1                  # as after the action that began it (Engine.apply)

    def claim_rewards(self, codes):
        """Start the end-of-turn reward stage (13.5) with these reward codes (content.REWARDS)."""
        cdef GameState* gs = &self.eng.core.gs
        self.eng.core.version += 1       # the Engine's cached legal list is stale
        for i, c in enumerate(codes):
            gs.turn.rewards[i] = c
        gs.turn.n_rewards = len(codes)
        gs.phase = PH_END_TURN
        rewards_stage(gs, &self.eng.es, &self.eng.core.st)

    @property
    def block_pool(self):
        """gs.combat.block by element (physical fire ice coldfire)."""
        return [self.eng.core.gs.combat.block[i] for i in range(4)]

    @property
    def turn(self):
        cdef GameState* gs = &self.eng.core.gs
        return {"influence": gs.turn.influence, "healing": gs.turn.healing,
                "action_taken": bool(gs.turn.action_taken), "phase": gs.phase,
                "icon_block": mod_sum(&gs.turn, MK_ICON_BLOCK)}      # Cold Toughness's modifier (LL-2.10.8)


cdef enum:
    MAX_TOKENS_ = 128


# ---------------------------------------------------------------------------------------
# The units' special rules the loop calls (LL-4; moved here from _fx_units.pxi when the Unit
# handlers became the registry module ext/_fx_units.pyx): Thugs / Heroes payments, Magic
# Familiars' upkeep, the Shocktroops' drawn attack, Delphana Masters' destroy, the Scouts'
# far exploring, and the "this turn" / "this combat" ends of unit effects.
# ---------------------------------------------------------------------------------------

from mksim._types cimport (CEU_NO_RESISTANCES, CEU_DESTROY_IF_BLOCKED, CE_NO_FORTIFICATION, COLDFIRE,
                           SIEGE, NUM_PILES)
from mksim._combat cimport (fortification_level, all_attacks_blocked, attack_element, defeat_enemy,
                            assign_to_unit, AB_POISON, AB_PARALYZE, RES_PHYSICAL, RES_FIRE, RES_ICE)

cdef enum SpecialUnit:         # UnitRules.special: a unit's special rules (units.toml special_rules)
    SU_NONE = 0
    SU_THUGS = 1               # LL-4.2.1, LL-4.3.1
    SU_HEROES = 2              # LL-4.2.2, LL-4.3.2
    SU_FAMILIARS = 3           # LL-4.5
    SU_DELPHANA = 4            # LL-4.4
    SU_UNKNOWN = 9             # special_rules the engine does not know: ERR_UNIT_RULES

# A_PAY_UNIT, A_UPKEEP: the table of action kinds (mksim/actions.py), via ext/_engine.pxd

# A_PAY_UNIT, A_UPKEEP: the table of action kinds (mksim/actions.py), via ext/_engine.pxd

cdef enum:
    UNIT_PAY_PRICE = 2         # LL-4.3.4: Influence per unit per combat

SPECIAL_UNIT_CODES = {"thugs": SU_THUGS, "hero_blue": SU_HEROES, "hero_red": SU_HEROES,
                      "hero_green": SU_HEROES, "hero_white": SU_HEROES,
                      "magic_familiars": SU_FAMILIARS, "delphana_masters": SU_DELPHANA}


cdef inline int resolving_unit_slot(const GameState* gs) noexcept nogil:
    """Slot of the unit whose ability resolves, -1 if a card / skill / tactic resolves."""
    cdef int rc = gs.turn.resolving_card, slot
    if not unit_resolving(rc):
        return -1
    slot = (UNIT_CARD_BASE - rc) & 7
    return slot if slot < MAX_UNITS_ else -1      # 7: an offer Unit used by Call to Arms


cdef inline int unit_special(const EngineStatics* es, int unit) noexcept nogil:
    return es.units.special[unit] if unit >= 0 else SU_NONE


cdef inline int units_attack_bonus(const GameState* gs) noexcept nogil:
    """Shocktroops (coordinated fire, LL-4.6.2): + bonus to an attack of a unit other than
    the giver, once per giver, this turn (the MK_OTHER_UNITS_ATTACK entries of the other
    slots; arg 8: Shocktroops used by Call to Arms)."""
    cdef int slot, k, b = 0
    if gs.turn.n_mods == 0:
        return 0
    slot = resolving_unit_slot(gs)
    if slot < 0:
        return 0
    for k in range(gs.turn.n_mods):
        if gs.turn.mods[k].kind == MK_OTHER_UNITS_ATTACK and gs.turn.mods[k].arg != slot + 1:
            b += gs.turn.mods[k].value
    return b


cdef void units_check_destroy(GameState* gs, const Statics* st) noexcept nogil:
    """Delphana Masters (red): an enemy marked 'destroyed if blocked' is destroyed (defeated,
    with its Fame) once all its attacks are blocked (LL-6.1.6; reduced to 0 counts,
    LL-6.3.6)."""
    cdef int s
    cdef CombatEnemy* e
    if not gs.combat.active:
        return
    for s in range(gs.combat.n_enemies):
        e = &gs.combat.enemies[s]
        if e.unit_fx & CEU_DESTROY_IF_BLOCKED and not (e.flags & (CE_DEFEATED | CE_GONE)) \
                and all_attacks_blocked(gs, st, s):
            e.unit_fx &= ~CEU_DESTROY_IF_BLOCKED
            defeat_enemy(gs, st, s)


cdef void units_turn_reset(GameState* gs) noexcept nogil:
    """End of a turn: resistances gained "this turn" and Delphana Masters' open activation
    (LL-4.4.3: later in the same turn) end."""
    cdef int p, i
    for p in range(gs.n_players):
        for i in range(MAX_UNITS_):
            gs.players[p].units[i].gained_res = 0
            gs.players[p].units[i].abilities_used = 0
            gs.players[p].units[i].paid_combat = 0


cdef void units_combat_end(GameState* gs, int p) noexcept nogil:
    """Before the tokens leave (11.12): the Scouts' Fame for the enemy looked at; effects
    that last "this combat" end; Thugs / Heroes payments were for this combat (LL-4.3.4)."""
    cdef int s, i
    if gs.turn.recon_token > 0:
        for s in range(gs.combat.n_enemies):
            if gs.combat.enemies[s].token == gs.turn.recon_token - 1 and gs.combat.enemies[s].flags & CE_DEFEATED \
                    and gs.combat.enemies[s].summoned_by < 0:
                gs.players[p].fame += gs.turn.recon_fame
                gs.turn.recon_token = 0
    gs.turn.draw_fire_slot = 0
    for i in range(MAX_UNITS_):
        gs.players[p].units[i].paid_combat = 0
        gs.players[p].units[i].gained_res &= 7                     # Force of Nature: "this combat"


cdef void units_round_start(GameState* gs, const EngineStatics* es, Player* pl) noexcept nogil:
    """LL-4.5.4: each Magic Familiars unit needs its upkeep at the start of the round."""
    cdef int i
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0 and unit_special(es, pl.units[i].card) == SU_FAMILIARS:
            pl.units[i].upkeep_due = 1


cdef bint units_upkeep_pending(const GameState* gs) noexcept nogil:
    cdef int i
    if gs.current < 0 or gs.current >= MAX_PLAYERS:
        return False
    for i in range(MAX_UNITS_):
        if gs.players[gs.current].units[i].card >= 0 and gs.players[gs.current].units[i].upkeep_due:
            return True
    return False


cdef int legal_upkeep(const GameState* gs, int32_t* out, int n) noexcept nogil:
    """LL-4.5.4, LL-4.5.4.1 [R]: before the tactic is chosen, pay each familiar's upkeep with
    a crystal of a basic colour (it becomes the mana kept on the card) or disband it."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, c
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0 and pl.units[i].upkeep_due:
            for c in range(4):
                if pl.crystals[c] > 0 and n < MAX_ACTIONS:
                    out[n] = act(A_UPKEEP, i | ((c + 1) << 3))
                    n += 1
            if n < MAX_ACTIONS:
                out[n] = act(A_UPKEEP, i)
                n += 1
            return n                                               # one familiar at a time
    return n


cdef int apply_upkeep(GameState* gs, int arg) noexcept nogil:
    cdef Player* pl = &gs.players[gs.current]
    cdef int slot = arg & 7, c = (arg >> 3) - 1
    if c < 0:
        disband(pl, slot)                                          # removed from the game
        return ERR_NONE
    pl.crystals[c] -= 1
    pl.units[slot].upkeep = <int8_t>(c + 1)
    pl.units[slot].upkeep_due = 0
    return ERR_NONE


cdef bint unit_needs_payment(const GameState* gs, const EngineStatics* es, const Unit* u) noexcept nogil:
    """LL-4.3.1: Thugs take damage only once paid in this combat; LL-4.3.2: Heroes'
    abilities need the payment in an assault on a fortified site (LL-4.3.3 reading: the
    Heroes card; they may always take damage)."""
    cdef int kind
    if u.card < 0 or u.paid_combat or not gs.combat.active or not gs.combat.units_allowed:
        return False
    kind = unit_special(es, u.card)
    if kind == SU_THUGS:
        return u.wounds == 0 and not u.damaged_this_combat and gs.phase != PH_COMBAT_ATTACK
    if kind == SU_HEROES:
        return gs.combat.reason == CK_ASSAULT and u.wounds == 0 and u.ready
    return False


cdef bint units_need_influence(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Influence may be played in this combat: a Thugs / Heroes unit waits for its payment
    (LL-4.3.4, LL-9.3)."""
    cdef int i
    if not gs.combat.active or gs.current < 0 or gs.current >= MAX_PLAYERS:
        return False
    for i in range(MAX_UNITS_):
        if unit_needs_payment(gs, es, &gs.players[gs.current].units[i]):
            return True
    return False


cdef int legal_unit_payments(const GameState* gs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    cdef int i
    if gs.turn.influence < UNIT_PAY_PRICE:
        return n
    for i in range(MAX_UNITS_):
        if unit_needs_payment(gs, es, &gs.players[gs.current].units[i]) and n < MAX_ACTIONS:
            out[n] = act(A_PAY_UNIT, i)
            n += 1
    return n


cdef int apply_unit_payment(GameState* gs, const EngineStatics* es, int arg) noexcept nogil:
    cdef Unit* u
    u = &gs.players[gs.current].units[arg]
    gs.turn.influence -= UNIT_PAY_PRICE
    u.paid_combat = 1
    return ERR_NONE


cdef int units_sideways(const GameState* gs, const EngineStatics* es, int32_t* out, int n, int i) noexcept nogil:
    """Sideways options a unit rule adds in combat (6.1.7): Influence 1 for a Thugs / Heroes
    payment (LL-4.3.4), Attack 1 in the Ranged phase once all attacks are Siege (Altem Mages)."""
    if not gs.combat.active:
        return n
    if units_need_influence(gs, es) and n < MAX_ACTIONS:
        out[n] = act(A_SIDEWAYS, i | (1 << 7))
        n += 1
    if gs.phase == PH_COMBAT_RANGED and mod_has(&gs.turn, MK_ATTACKS_SIEGE) and n < MAX_ACTIONS:
        out[n] = act(A_SIDEWAYS, i | (2 << 7))
        n += 1
    return n


cdef bint draw_fire_pending(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Shocktroops: the attack being assigned must hit that unit first, while it can take
    damage (unwounded, not resisted yet, Units allowed; Assassination does not stop it)."""
    cdef const Unit* u
    cdef const Combat* c = &gs.combat
    if gs.turn.draw_fire_slot == 0 or c.dmg_slot != gs.turn.draw_fire_slot - 1 \
            or c.dmg_attack != gs.turn.draw_fire_attack or not c.units_allowed or mod_has(&gs.turn, MK_NO_UNIT_DAMAGE):
        return False
    u = &gs.players[gs.current].units[gs.turn.draw_fire_unit]
    return u.card >= 0 and u.wounds == 0 and not u.damaged_this_combat


cdef int units_damage_unit(GameState* gs, const EngineStatics* es, const Statics* st, int slot) noexcept nogil:
    """A_DAMAGE_UNIT with the units' rules: the Shocktroops' drawn attack goes to it first
    (even vs Assassination), Thugs only once paid (LL-4.3.1)."""
    cdef Combat* c = &gs.combat
    cdef int r, s
    if draw_fire_pending(gs, es):                                  # legal_combat listed only its unit
        gs.turn.draw_fire_slot = 0
        s = c.dmg_slot
        r = assign_to_unit(gs, st, gs.current, slot, c.dmg_left, attack_element(gs, st, s, c.dmg_attack),
                           1 if enemy_ability(gs, st, s, AB_POISON) else 0,
                           1 if enemy_ability(gs, st, s, AB_PARALYZE) else 0)
        if r < 0:
            return combat_step_failed(gs)
        c.dmg_left = <int16_t>r
        if r == 0:
            damage_to_hero(gs, st)                                 # nothing left: the attack is done
        return ERR_NONE
    r = damage_to_unit(gs, st, slot)
    return ERR_NONE if r >= 0 else combat_step_failed(gs)


cdef int units_explorable_far(const GameState* gs, const Statics* st, int h, int* pos, int m) noexcept nogil:
    """Scouts: positions explorable from a space next to the hero's (distance 2, LL-4.6.1),
    added to the m found from the hero's own space (at most MAX_EXPLORABLE in all)."""
    cdef int more[2 * MAX_EXPLORABLE]
    cdef int d, nb, k, j, q
    cdef bint seen
    if m < 0 or mod_sum(&gs.turn, MK_EXPLORE_RANGE) < 2:
        return m
    for d in range(6):
        nb = gs.hexes[h].neighbour[d]
        if nb < 0:
            continue
        q = explorable(gs, st, nb, more)
        for k in range(q if q > 0 else 0):
            seen = False
            for j in range(m):
                if pos[2 * j] == more[2 * k] and pos[2 * j + 1] == more[2 * k + 1]:
                    seen = True
            if not seen and m < MAX_EXPLORABLE:
                pos[2 * m] = more[2 * k]
                pos[2 * m + 1] = more[2 * k + 1]
                m += 1
    return m


cdef int units_explore_far(GameState* gs, const Statics* st, int p, int a, int b) noexcept nogil:
    """Scouts: explore (a, b) from a space next to the hero (the hero does not move)."""
    cdef int more[2 * MAX_EXPLORABLE]
    cdef int h = gs.players[p].position, d, nb, k, q, slot
    if h < 0 or mod_sum(&gs.turn, MK_EXPLORE_RANGE) < 2:
        return -1
    for d in range(6):
        nb = gs.hexes[h].neighbour[d]
        if nb < 0:
            continue
        q = explorable(gs, st, nb, more)
        for k in range(q if q > 0 else 0):
            if more[2 * k] == a and more[2 * k + 1] == b:
                gs.players[p].position = <int16_t>nb               # explore() checks from the position
                slot = explore(gs, st, p, a, b)
                gs.players[p].position = <int16_t>h
                return slot
    return -1
