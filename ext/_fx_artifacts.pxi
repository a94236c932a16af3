# Named effect handlers of the Artifact cards (artifacts.toml), included into ext/_engine.pyx
# after _fx_spells.pxi (whose helpers it uses).  Protocol: see "Handler protocol" in
# _engine.pyx.  ARTIFACTS_HANDLERS lists (name, declared argument names) in handler-code
# order; the content's keyword arguments must match them exactly.
#
# Rules: 6.1.5 (basic effect, or thrown away for the strong one: done by A_PLAY), 6.2.1-6.2.2
# (costs), 7.5 (Banners: the basic effect assigns the card to a Unit, see "Banners" below).

from mksim._combat cimport RES_PHYSICAL

ARTIFACTS_HANDLERS = (
    ("random_crystals", ("n",)),
    ("endless_mana", ("colour", "fame_per_spell")),
    ("golden_grail_draw", ("per_wound",)),
    ("horn_of_wrath", ("siege", "max_extra", "rolls")),
    ("sword_of_justice_discard", ("attack_per_card", "fame_per_enemy")),
    ("bow_of_starsdawn_discard", ("ranged_per_card", "fame_per_enemy")),
    ("amulet_of_the_sun_night", ("forest_cost",)),
    ("amulet_of_darkness_day", ("desert_cost",)),
    ("ready_all_units", ("outside_combat",)),
    ("heal_all_units", ("outside_combat",)),
    ("banner_of_glory_attached", ("armor", "bonus", "fame")),
    ("banner_of_glory_all_units", ("armor", "bonus", "fame")),
    ("banner_of_fear_attached", ("fame",)),
    ("banner_of_protection_attached", ("armor",)),
    ("banner_of_courage_attached", ()),
    ("banner_of_fortitude_attached", ()),
    ("banner_of_command_attach", ()),
    ("druidic_staff_move", ("spaces",)),
    ("discard_by_colour", ("red", "blue", "white", "green")),
    ("book_of_wisdom_gain_aa", ()),
    ("book_of_wisdom_gain_spell", ("crystals",)),
    ("tome_of_all_spells", ("powered",)),
    ("throw_away_hand_wounds_end_of_turn", ()),
    ("sword_of_justice_powered", ("multiplier", "fame_per_enemy")),
    ("soul_harvester", ("attack", "target")),
    ("split_block", ("n", "count", "element")),
    ("bow_of_starsdawn_powered", ("multiplier",)),
    ("circlet_use_offer_skill", ("once_per_turn_uses",)),
    ("circlet_gain_offer_skill", ()),
    ("golden_grail_heal", ("heal",)),
    ("skip_block_and_damage", ("move_per_enemy",)),
    ("enemies_no_attack", ("n",)),
)

cdef enum ArtifactHandler:
    AR_RANDOM_CRYSTALS = 0
    AR_ENDLESS_MANA = 1
    AR_GOLDEN_GRAIL_DRAW = 2
    AR_HORN_OF_WRATH = 3
    AR_SWORD_DISCARD = 4
    AR_BOW_DISCARD = 5
    AR_AMULET_SUN = 6
    AR_AMULET_DARKNESS = 7
    AR_READY_ALL_UNITS = 8
    AR_HEAL_ALL_UNITS = 9
    AR_BANNER_FIRST = 10       # 10-16: Banners (7.5)
    AR_GLORY_ATTACHED = 10
    AR_GLORY_ALL_UNITS = 11
    AR_FEAR_ATTACHED = 12
    AR_PROTECTION_ATTACHED = 13
    AR_COURAGE_ATTACHED = 14
    AR_FORTITUDE_ATTACHED = 15
    AR_COMMAND_ATTACH = 16
    AR_BANNER_LAST = 16
    AR_DRUIDIC_STAFF_MOVE = 17
    AR_DISCARD_BY_COLOUR = 18
    AR_BOOK_AA = 19
    AR_BOOK_SPELL = 20
    AR_TOME = 21
    AR_PROTECTION_POWERED = 22
    AR_SWORD_POWERED = 23
    AR_SOUL_HARVESTER = 24
    AR_SPLIT_BLOCK = 25
    AR_BOW_POWERED = 26
    AR_CIRCLET_USE = 27
    AR_CIRCLET_GAIN = 28
    AR_GOLDEN_GRAIL_HEAL = 29
    AR_SKIP_BLOCK_DAMAGE = 30
    AR_ENEMIES_NO_ATTACK = 31

cdef enum:
    NIGHT_FOREST_COST = 5      # 9.2
    DAY_DESERT_COST = 5        # 9.2


cdef bint offer_has_colour(const int16_t* offer, const EngineStatics* es, int colour) noexcept nogil:
    cdef int k
    for k in range(3):
        if offer[k] >= 0 and card_colour(es, offer[k]) == colour:
            return True
    return False


cdef uint64_t book_cards(const GameState* gs, const EngineStatics* es, int spell) noexcept nogil:
    """Book of Wisdom: Action cards in hand (hand index) whose colour has a card in the
    AA (spell=0) or Spell (spell=1) offer."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i, card, deck
    cdef const int16_t* offer = &gs.aa_offer[0]
    if spell:
        offer = &gs.spell_offer[0]
    for i in range(pl.n_hand):
        card = pl.hand[i]
        deck = card_deck(es, card)
        if i < ASK_DONE and (deck == DECK_BASIC or deck == DECK_AA) and card_colour(es, card) < COLOURLESS \
                and offer_has_colour(offer, es, card_colour(es, card)):
            o |= (<uint64_t>1) << i
    return o


cdef int tome_row(const GameState* gs, const EngineStatics* es, int spell, int powered) noexcept nogil:
    return es.card_powered[spell * es.card_stride] if powered else es.card_basic[spell * es.card_stride]


cdef uint64_t tome_slots(const GameState* gs, const EngineStatics* es, int colour, int powered) noexcept nogil:
    """Spell offer slots of `colour` whose effect can be used now, checked as an effect of
    that colour (LL-9.6.3; resolving_colour)."""
    cdef uint64_t o = 0
    cdef int k
    cdef GameState* g = <GameState*>gs       # the colour is set for the check and restored
    cdef int8_t was_colour = gs.turn.fx_colour
    cdef int16_t was_by = gs.turn.fx_colour_by
    g.turn.fx_colour = <int8_t>(colour + 1)
    g.turn.fx_colour_by = gs.turn.resolving_card
    for k in range(3):
        if gs.spell_offer[k] >= 0 and card_colour(es, gs.spell_offer[k]) == colour \
                and node_playable(gs, es, tome_row(gs, es, gs.spell_offer[k], powered)):
            o |= (<uint64_t>1) << k
    g.turn.fx_colour = was_colour
    g.turn.fx_colour_by = was_by
    return o


cdef uint64_t tome_cards(const GameState* gs, const EngineStatics* es, int powered) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i, c
    for i in range(pl.n_hand):
        if i < ASK_DONE and pl.hand[i] != es.wound:
            c = card_colour(es, pl.hand[i])
            if c < COLOURLESS and tome_slots(gs, es, c, powered) != 0:
                o |= (<uint64_t>1) << i
    return o


cdef uint64_t by_colour_cards(const GameState* gs, const EngineStatics* es, const int32_t* a) noexcept nogil:
    """Druidic Staff: non-Wound hand cards of a basic colour whose option can be used now."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i, c
    for i in range(pl.n_hand):
        if i < ASK_DONE and pl.hand[i] != es.wound:
            c = card_colour(es, pl.hand[i])
            if c < COLOURLESS and a[c] != NO_ARG and node_playable(gs, es, a[c]):
                o |= (<uint64_t>1) << i
    return o


# ---------------------------------------------------------------------------------------
# Banners (7.5).  Playing a Banner for its basic effect assigns it to a Unit (7.5.1): the card
# leaves the play area for Unit.banner, and Player.banner_fx[slot] records what it does
# there (BF_* bits; the numbers come from the card's handler arguments).  A Banner replaced
# by another, or on a Unit destroyed / disbanded, goes to the discard pile (7.5.2: here,
# disband() in _engine_units.pxi and Paralyze in _combat.assign_to_unit).  Round
# preparation flips every Banner back up and lets the player take Banners back into the
# Deed deck before it is shuffled (2.2.8, 7.5.3: banner_prep, A_BANNER_RETURN).
# ---------------------------------------------------------------------------------------

cdef enum BannerFx:            # Player.banner_fx bits (mirrored in _combat.assign_to_unit)
    BF_ARMOR = 3               # Armor bonus of the Unit (Glory, Protection), 0-3
    BF_FIRE_ICE = 4            # fire and ice resistance (Protection)
    BF_GLORY = 8               # + bonus to its Attacks / Blocks, Fame whenever it attacks or blocks
    BF_FEAR = 16               # Block phase: spend the Unit to cancel one enemy attack
    BF_COURAGE = 32            # once a round, outside combat: flip to ready the Unit
    BF_FORTITUDE = 64          # once a round: flip to ignore a wound of the Unit
    BF_COMMAND = 128           # Banner of Command: the Unit holds it instead of a Command token (LL-5.1)

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
    cdef int slot, b = 0
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
    if gs.turn.glory_all:
        b += gs.turn.glory_all
        if not ((gs.turn.glory_units >> slot) & 1):
            gs.turn.glory_units |= <uint8_t>(1 << slot)
            pl.fame += gs.turn.glory_fame
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


cdef uint64_t banner_targets(const Player* pl) noexcept nogil:
    cdef uint64_t o = 0
    cdef int i
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0:
            o |= (<uint64_t>1) << i
    return o


cdef int banner_attach(GameState* gs, const EngineStatics* es, int p, int row, int local,
                       int choice) noexcept nogil:
    """7.5.1: put the Banner being played under one of the player's Units (ASK_UNIT when
    there are several); a Banner already there goes to the discard pile (7.5.2)."""
    cdef Player* pl = &gs.players[p]
    cdef const int32_t* a = row_args(es, row)
    cdef uint64_t mask = banner_targets(pl)
    cdef int i, slot = -1, count = 0, card = gs.turn.resolving_card, fx = 0
    cdef Unit* u
    if choice < 0:
        for i in range(MAX_UNITS_):
            if (mask >> i) & 1:
                count += 1
                slot = i
        if count == 0 or card < 0:
            set_error(gs, ERR_ILLEGAL, 0, card)
            return RES_ERROR
        if count > 1:
            return ask(gs, row, 0, ASK_UNIT, mask)
    else:
        slot = choice
    count = -1
    for i in range(pl.n_play - 1, -1, -1):              # out of the play area (6.1.2)
        if pl.play_area[i] == card:
            count = i
            break
    if count < 0 or slot < 0 or slot >= MAX_UNITS_ or pl.units[slot].card < 0:
        set_error(gs, ERR_ILLEGAL, 0, card)
        return RES_ERROR
    remove_at(pl.play_area, &pl.n_play, count)
    u = &pl.units[slot]
    if u.banner >= 0:
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, u.banner)  # 7.5.2: the old Banner
        if pl.banner_fx[slot] & BF_COMMAND:
            remove_commanded_unit(pl, slot)              # LL-5.1: the Unit leaves the game,
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)   # and this Banner with it (7.5.2)
            return RES_DONE
    if local == AR_GLORY_ATTACHED:
        fx = (a[0] if a[0] < 3 else 3) | BF_GLORY
    elif local == AR_FEAR_ATTACHED:
        fx = BF_FEAR
    elif local == AR_PROTECTION_ATTACHED:
        fx = (a[0] if a[0] < 3 else 3) | BF_FIRE_ICE
    elif local == AR_COURAGE_ATTACHED:
        fx = BF_COURAGE
    elif local == AR_FORTITUDE_ATTACHED:
        fx = BF_FORTITUDE
    u.banner = <int16_t>card
    pl.banner_fx[slot] = <uint8_t>fx
    pl.banner_flipped &= <uint8_t>~(1 << slot)          # a newly assigned Banner is face up
    return RES_DONE


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
            if (gs.turn.recruited_units >> i) & 1 and pl.units[i].card >= 0 and n < MAX_ACTIONS:
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
                and gs.combat.dmg_slot >= 0 and not gs.turn.no_unit_damage \
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
    cdef int slot = arg & 7, s = (arg >> 3) & 0x1F, k = (arg >> 8) & 3, fx, res
    cdef CombatEnemy* e
    cdef Unit* u
    if kind == A_BANNER_RETURN:
        if gs.phase != PH_TACTICS or not pl.banner_prep:
            return ERR_ILLEGAL
        if slot == BANNER_KEEP:
            pl.banner_prep = 0                                   # 2.2.8: shuffle and draw now
            shuffle_all_deeds(gs, pl)
            draw_cards(gs, pl, hand_limit(gs, st, p))
            return ERR_NONE
        if slot >= MAX_UNITS_ or pl.units[slot].card < 0 or pl.units[slot].banner < 0:
            return ERR_ILLEGAL
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, pl.units[slot].banner)   # shuffled in with the rest
        if pl.banner_fx[slot] & BF_COMMAND:
            remove_commanded_unit(pl, slot)                      # LL-5.1
        pl.units[slot].banner = -1
        pl.banner_fx[slot] = 0
        return ERR_NONE
    if slot >= MAX_UNITS_:
        return ERR_ILLEGAL
    u = &pl.units[slot]
    if kind == A_BANNER_COMMAND:                                 # LL-5.1
        if u.card < 0 or not ((gs.turn.recruited_units >> slot) & 1) or not command_banner_ready(gs) \
                or (u.banner >= 0 and pl.banner_fx[slot] & BF_COMMAND):
            return ERR_ILLEGAL
        attach_command_banner(gs, pl, slot)
        return ERR_NONE
    fx = banner_fx_of(pl, slot)
    if kind == A_BANNER_COURAGE:                                 # Banner of Courage
        if not (fx & BF_COURAGE) or gs.combat.active or u.ready or (pl.banner_flipped >> slot) & 1 \
                or not (gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT):
            return ERR_ILLEGAL
        pl.banner_flipped |= <uint8_t>(1 << slot)
        u.ready = 1                                              # 7.3.4
        return ERR_NONE
    if kind == A_BANNER_FEAR:                                    # Banner of Fear
        if not (fx & BF_FEAR) or not gs.combat.active or gs.phase != PH_COMBAT_BLOCK \
                or not gs.combat.units_allowed or not u.ready or u.wounds > 0 \
                or s >= gs.combat.n_enemies or not fear_target_ok(gs, st, s, k):
            return ERR_ILLEGAL
        u.ready = 0                                              # spent (7.3.2)
        e = &gs.combat.enemies[s]
        if enemy_n_attacks(gs, st, s) == 1:
            e.flags |= CE_NO_ATTACK                              # its only attack is cancelled
        else:
            e.damaged |= <uint8_t>(1 << k)                       # LL-6.1.2: that attack only (not blocked)
        pl.fame += banner_args(es, u.banner)[0]
        return ERR_NONE
    if kind == A_DAMAGE_FORTITUDE:                               # Banner of Fortitude, LL-5.2
        if not (fx & BF_FORTITUDE) or not gs.combat.active or gs.phase != PH_COMBAT_DAMAGE \
                or gs.combat.dmg_slot < 0 or gs.turn.no_unit_damage or (pl.banner_flipped >> slot) & 1:
            return ERR_ILLEGAL
        gs.turn.fortitude_unit = <int8_t>(slot + 1)
        res = damage_to_unit(gs, st, slot)
        if gs.turn.fortitude_unit == 0:                          # the wound was ignored: flipped
            pl.banner_flipped |= <uint8_t>(1 << slot)
        gs.turn.fortitude_unit = 0
        return ERR_NONE if res >= 0 else ERR_ILLEGAL
    return ERR_ILLEGAL


cdef void protection_end_of_turn(GameState* gs, const EngineStatics* es, Player* pl) noexcept nogil:
    """Banner of Protection powered: at the end of the turn the Wounds received this turn
    (into the hand, 12.1.1, or the discard pile, Poison 11.7.9) are thrown away (6.5.2)."""
    cdef int i, h = gs.turn.wounds_to_hand, d = gs.turn.wounds_to_discard
    if not gs.turn.protection:
        return
    gs.turn.protection = 0
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
# (Sword of Justice powered is read by _combat.attack_value through TurnState.sword_double)
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
    if not gs.turn.bow_powered or not gs.combat.active \
            or (gs.phase != PH_COMBAT_RANGED and gs.phase != PH_COMBAT_ATTACK):
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
    if not gs.turn.bow_powered or not gs.combat.active or arg >> 4 \
            or (gs.phase != PH_COMBAT_RANGED and gs.phase != PH_COMBAT_ATTACK):
        return ERR_ILLEGAL
    if mode == BOW_DOUBLE or mode == BOW_TO_SIEGE:
        x = gs.combat.attack[<int>RANGED][el] - gs.turn.bow_done_r[el]
        if x <= 0:
            return ERR_ILLEGAL
        if mode == BOW_DOUBLE:
            gs.combat.attack[<int>RANGED][el] += x * (gs.turn.bow_powered - 1)
            gs.turn.bow_done_r[el] = gs.combat.attack[<int>RANGED][el]
        else:
            gs.combat.attack[<int>RANGED][el] -= x
            gs.combat.attack[<int>SIEGE][el] += x
            gs.turn.bow_done_s[el] += x
        return ERR_NONE
    if mode == BOW_SIEGE_DOUBLE:
        x = gs.combat.attack[<int>SIEGE][el] - gs.turn.bow_done_s[el]
        if x <= 0:
            return ERR_ILLEGAL
        gs.combat.attack[<int>SIEGE][el] -= x
        gs.combat.attack[<int>RANGED][el] += x * gs.turn.bow_powered
        gs.turn.bow_done_r[el] += x * gs.turn.bow_powered
        return ERR_NONE
    return ERR_ILLEGAL


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
    return node_playable(gs, es, e[2])


cdef uint64_t circlet_offer_slots(const GameState* gs, const EngineStatics* es) noexcept nogil:
    cdef uint64_t o = 0
    cdef int k
    for k in range(gs.n_skill_offer):
        if k < 64 and circlet_skill_now(gs, es, gs.skill_offer[k]):
            o |= (<uint64_t>1) << k
    return o


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
    if gs.turn.circlet_skill <= 0 or gs.turn.circlet_uses <= 0 \
            or not circlet_skill_now(gs, es, gs.turn.circlet_skill - 1):
        return ERR_ILLEGAL
    circlet_use(gs, es, gs.turn.circlet_skill - 1)
    res = run_effects(gs, es, st, p)
    return gs.error if res == RES_ERROR else ERR_NONE


cdef int live_enemies(const GameState* gs) noexcept nogil:
    """Enemies still in the combat (not defeated, not gone)."""
    cdef int i, n = 0
    for i in range(gs.combat.n_enemies):
        if gs.combat.enemies[i].token >= 0 and not (gs.combat.enemies[i].flags & (CE_DEFEATED | CE_GONE)):
            n += 1
    return n


cdef void grail_spent(GameState* gs, Player* pl, int points) noexcept nogil:
    """Golden Grail: Fame +1 for each of its Healing points spent (AR_GOLDEN_GRAIL_HEAL)."""
    cdef int k = points if points < gs.turn.grail_fame else gs.turn.grail_fame
    if k > 0:
        pl.fame += k
        gs.turn.grail_fame = <int8_t>(gs.turn.grail_fame - k)


cdef bint artifacts_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, others = 0, lifted
    cdef bint ok
    if local == AR_RANDOM_CRYSTALS or local == AR_ENDLESS_MANA or local == AR_AMULET_SUN \
            or local == AR_AMULET_DARKNESS:
        return special_now(gs)
    if local == AR_GOLDEN_GRAIL_DRAW:
        return outside_combat_now(gs)                            # with its Heal (12.4.1)
    if local == AR_HORN_OF_WRATH:
        return gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK   # Siege: 11.5.2, 11.8
    if local == AR_GOLDEN_GRAIL_HEAL:
        return outside_combat_now(gs)                            # Healing: 12.4.1
    if local == AR_SKIP_BLOCK_DAMAGE:
        # before the Block phase is over (11.3); the base Wings of Night also needs as many
        # Move points as enemies (move_per_enemy each)
        return (gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_BLOCK) \
            and live_enemies(gs) > 0 and gs.turn.move_points >= a[0] * live_enemies(gs)
    if local == AR_ENEMIES_NO_ATTACK:
        return enemy_op_playable(gs, es, row)
    if local == AR_SWORD_DISCARD:
        return gs.phase == PH_COMBAT_ATTACK                      # melee Attack: 11.8
    if local == AR_BOW_DISCARD:
        return gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK
    if local == AR_READY_ALL_UNITS or local == AR_HEAL_ALL_UNITS:
        return outside_combat_now(gs) if a[0] else special_now(gs)
    if local == AR_GLORY_ALL_UNITS or local == AR_PROTECTION_POWERED:
        return special_now(gs)
    if local == AR_CIRCLET_USE:
        # the borrowed skill is checked as it will resolve: the Circlet out of the hand (a
        # skill that needs a card in hand could otherwise count the Circlet; found by fuzz.py)
        lifted = lift_self(<GameState*>gs, es, row)
        ok = circlet_offer_slots(gs, es) != 0
        put_back(<GameState*>gs, lifted)
        return ok
    if local == AR_CIRCLET_GAIN:
        return special_now(gs) and gs.n_skill_offer > 0
    if local == AR_SWORD_POWERED or local == AR_BOW_POWERED:
        return gs.combat.active != 0                             # effects on this turn's attacks
    if local == AR_SOUL_HARVESTER:
        return gs.phase == PH_COMBAT_ATTACK                      # Attack: 11.8
    if local == AR_SPLIT_BLOCK:
        return gs.phase == PH_COMBAT_BLOCK                       # Block: 11.6
    if local == AR_COMMAND_ATTACH:
        return special_now(gs)
    if local >= AR_BANNER_FIRST and local <= AR_BANNER_LAST:
        return special_now(gs) and banner_targets(pl) != 0       # 7.5.1: a Unit to assign it to
    if local == AR_DRUIDIC_STAFF_MOVE:
        return travel_playable(gs, a[0], 0)
    if local == AR_DISCARD_BY_COLOUR:
        return by_colour_cards(gs, es, a) != 0
    if local == AR_BOOK_AA:
        return special_now(gs) and book_cards(gs, es, 0) != 0
    if local == AR_BOOK_SPELL:
        return special_now(gs) and book_cards(gs, es, 1) != 0
    if local == AR_TOME:
        return tome_cards(gs, es, a[0]) != 0
    return False


cdef int artifacts_handler(GameState* gs, const EngineStatics* es, const Statics* st,
                           int p, int row, int local, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef uint64_t options = 0
    cdef int i, c, k, die, card, spell
    if local == AR_RANDOM_CRYSTALS:
        # Endless Gem Pouch: roll a mana die n times (5.2.2): a crystal of each basic colour
        # rolled (5.3.2), a crystal of a chosen basic colour for gold, Fame +1 for black (as
        # the random-crystal reward, 5.7).  hvars[0] = gold rolls still to choose for.
        if choice < 0:
            gs.turn.hvars[0] = 0
            for k in range(a[0]):
                die = <int>rng_below(&gs.rng[<int>STREAM_REWARDS], 6)
                if die == GOLD:
                    gs.turn.hvars[0] += 1
                elif die == BLACK:
                    pl.fame += 1
                else:
                    gain_crystal(pl, gs, die)
        else:
            gain_crystal(pl, gs, choice)
            gs.turn.hvars[0] -= 1
        if gs.turn.hvars[0] > 0:
            return ask(gs, row, 0, ASK_COLOUR, 0xF)
        return RES_DONE
    if local == AR_ENDLESS_MANA:
        # Rings (thrown away): endless mana of `colour` and black this turn (black still only
        # where usable, 5.1.6); Fame +fame_per_spell per Spell of that colour in the play
        # area at the end of the turn (rings_fame).
        gs.turn.endless_mana |= <uint8_t>((1 << a[0]) | (1 << BLACK))
        c = ((gs.turn.ring_fame >> (2 * a[0])) & 3) + a[1]
        if c > 3:
            c = 3
        gs.turn.ring_fame = <uint8_t>((gs.turn.ring_fame & ~(3 << (2 * a[0]))) | (c << (2 * a[0])))
        return RES_DONE
    if local == AR_GOLDEN_GRAIL_DRAW:
        # Draw per_wound card(s) each time a Wound is healed from hand this turn (A_HEAL_WOUND).
        gs.turn.draw_per_heal += <int8_t>a[0]
        return RES_DONE
    if local == AR_HORN_OF_WRATH:
        # Siege Attack `siege` + k (0 <= k <= max_extra, ASK_NUMBER, declared before rolling),
        # then roll a mana die `rolls` times plus once per +1 (5.2.2): a Wound to hand
        # (12.1.1) for each black or red (both printings; LL-2.10.9 lowered the numbers).
        if choice < 0 and a[1] > 0:
            k = a[1] if a[1] < ASK_DONE - 1 else ASK_DONE - 1
            return ask(gs, row, 0, ASK_NUMBER, ((<uint64_t>1) << (k + 1)) - 1)
        if choice < 0:
            choice = 0
        gs.combat.attack[<int>SIEGE][<int>PHYSICAL] += a[0] + choice
        c = 0
        for k in range(a[2] + choice):
            die = <int>rng_below(&gs.rng[<int>STREAM_REWARDS], 6)
            if die == BLACK or die == RED:
                c += 1
        take_wounds(gs, es, pl, c)
        return RES_DONE
    if local == AR_GOLDEN_GRAIL_HEAL:
        # Golden Grail basic: Heal `heal`; Fame +1 for each of these Healing points spent
        # this turn (grail_spent; engine reading: the Grail's points are spent first, as a
        # player would).  Unspent, they vanish with the other Healing points (12.4.2).
        gs.turn.healing = <int16_t>(gs.turn.healing + a[0])
        gs.turn.grail_fame = <int8_t>(gs.turn.grail_fame + a[0])
        return RES_DONE
    if local == AR_SKIP_BLOCK_DAMAGE:
        # base Banner of Fear powered / base Wings of Night: skip the Block and Assign Damage
        # phases of this combat - no enemy attacks, Arcane Immunity or not (it is not an
        # effect on an enemy).  The Lost Legion removed this effect (LL-2.10.3).
        for i in range(gs.combat.n_enemies):
            if gs.combat.enemies[i].token >= 0 and not (gs.combat.enemies[i].flags & (CE_DEFEATED | CE_GONE)):
                gs.combat.enemies[i].flags |= CE_NO_ATTACK
        return RES_DONE
    if local == AR_ENEMIES_NO_ATTACK:
        # Banner of Fear powered (Lost Legion): up to n enemies do not attack this combat
        # (LL-6.1.4), not those with Arcane Immunity (LL-6.7).  hvars[0] = picks left.
        if choice < 0:
            gs.turn.hvars[0] = <int16_t>a[0]
        elif choice == ASK_DONE:
            return RES_DONE
        else:
            gs.combat.enemies[choice].flags |= CE_NO_ATTACK
            gs.turn.hvars[0] -= 1
        if gs.turn.hvars[0] <= 0:
            return RES_DONE
        options = 0
        for i in range(gs.combat.n_enemies):
            if ((enemy_effect_targets(gs, st, resolving_colour(gs, es)) >> i) & 1) \
                    and not (gs.combat.enemies[i].flags & CE_NO_ATTACK):
                options |= (<uint64_t>1) << i
        if options == 0:
            return RES_DONE
        return ask(gs, row, 0, ASK_ENEMY, options | ((<uint64_t>1) << ASK_DONE))
    if local == AR_SWORD_DISCARD or local == AR_BOW_DISCARD:
        # Sword of Justice / Bow of Starsdawn: discard any number of non-Wound cards (6.2.2;
        # ASK_HAND_CARD, ASK_DONE stops): physical Attack / Ranged Attack per card.  Fame per
        # enemy defeated: this combat (Sword, at its end) or this combat phase (Bow, at its
        # end) - see fx_combat_event.
        if choice < 0:
            if local == AR_SWORD_DISCARD:
                gs.turn.sword_fame += <int8_t>a[1]
            else:
                if gs.turn.bow_phase != 0 and gs.turn.bow_phase != gs.phase:
                    set_error(gs, ERR_CAPACITY, 4, gs.turn.resolving_card)
                    return RES_ERROR
                gs.turn.bow_fame += <int8_t>a[1]
                gs.turn.bow_phase = gs.phase
                if gs.phase == PH_COMBAT_RANGED:
                    gs.turn.phase_defeated = 0                  # the first phase (11.3.2)
        elif choice == ASK_DONE:
            return RES_DONE
        else:
            card = pl.hand[choice]
            remove_at(pl.hand, &pl.n_hand, choice)
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
            if local == AR_SWORD_DISCARD:
                gs.combat.attack[<int>MELEE][<int>PHYSICAL] += a[0]
            else:
                gs.combat.attack[<int>RANGED][<int>PHYSICAL] += a[0]
        options = non_wound_hand(gs, es)
        if options == 0:
            return RES_DONE
        return ask(gs, row, 0, ASK_HAND_CARD, options | ((<uint64_t>1) << ASK_DONE))
    if local == AR_AMULET_SUN:
        # At Night: gold mana usable (5.1.5 lifted) and forests cost forest_cost (9.2, 9.6).
        # [R] Garrison visibility (9.10.1) is information only; the engine keeps no
        # adjacency reveal by Day either.
        # [R] In a dungeon / tomb combat by Day Night mana rules apply (5.6.1): played there
        # it lifts the gold ban too; forest costs only change in a Night round (5.6.1).
        if night_mana(gs):
            gs.turn.mana_anytime |= 1
        if gs.time == NIGHT:
            gs.turn.terrain_delta[<int>FOREST] += <int8_t>(a[0] - NIGHT_FOREST_COST)
        return RES_DONE
    if local == AR_AMULET_DARKNESS:
        # By Day: black mana usable as at Night (5.1.6, 5.4.3) and deserts cost desert_cost.
        if gs.time == DAY:
            gs.turn.mana_anytime |= 2
            gs.turn.terrain_delta[<int>DESERT] += <int8_t>(a[0] - DAY_DESERT_COST)
        return RES_DONE
    if local == AR_READY_ALL_UNITS:
        for i in range(MAX_UNITS_):                               # 7.2.2
            if pl.units[i].card >= 0:
                pl.units[i].ready = 1
        return RES_DONE
    if local == AR_HEAL_ALL_UNITS:
        for i in range(MAX_UNITS_):                               # 12.3.4: healed completely
            if pl.units[i].card >= 0 and pl.units[i].wounds > 0:
                pl.units[i].wounds = 0
                unit_healed(gs, p, i)
        return RES_DONE
    if local == AR_GLORY_ALL_UNITS:
        # Banner of Glory powered: this turn every Unit has Armor + armor and + bonus to its
        # Attacks and Blocks; Fame + fame for each Unit that attacks or blocks.
        gs.turn.glory_armor = <int8_t>a[0]
        gs.turn.glory_all = <int8_t>a[1]
        gs.turn.glory_fame = <int8_t>a[2]
        return RES_DONE
    if local == AR_PROTECTION_POWERED:
        # Banner of Protection powered (published text): at the end of this turn throw away
        # the Wounds received this turn (protection_end_of_turn).
        gs.turn.protection = 1
        return RES_DONE
    if local == AR_SWORD_POWERED:
        # Sword of Justice powered: physical Attacks doubled in the Attack phase, enemies
        # without physical resistance this turn (_combat.attack_value); Fame per enemy
        # defeated, counted at the end of the combat like the basic effect (fx_combat_event).
        if a[0] > gs.turn.sword_double:
            gs.turn.sword_double = <int8_t>a[0]
        gs.turn.sword_fame += <int8_t>a[1]
        return RES_DONE
    if local == AR_SOUL_HARVESTER:
        # Soul Harvester: Attack `attack`; target=one: a crystal for one enemy the attack it
        # joins defeats; target=all: a crystal for each enemy defeated in this phase (those
        # defeated before it was played included).  Stage 1: a colour (ASK_COLOUR) for the
        # enemy hvars[0] (-1: the "one" enemy).  artifacts_after_attack does the counting.
        if choice < 0:
            gs.combat.attack[<int>MELEE][<int>PHYSICAL] += a[0]
            gs.turn.soul_row = <int16_t>(row + 1)
            if a[1] == 0:
                gs.turn.soul_one = 1
                return RES_DONE
            gs.turn.soul_all = 1
            gs.turn.soul_slots |= defeated_mask(gs) & ~gs.turn.phase_defeated
            return soul_process(gs, st, pl)
        gain_crystal(pl, gs, choice)
        if gs.turn.hvars[0] >= 0:
            gs.turn.soul_slots &= ~((<uint32_t>1) << gs.turn.hvars[0])
        return soul_process(gs, st, pl)
    if local == AR_SPLIT_BLOCK:
        # Shield of the Fallen Kings: up to `count` separate Blocks of `n` against different
        # attacks: the first joins the pool now, each next one after a successful block
        # (artifacts_after_block); those not used when the phase ends are lost (11.4.5).
        gs.combat.block[a[2]] += a[0]
        gs.turn.split_left = <int8_t>(a[1] - 1)
        gs.turn.split_n = <int8_t>a[0]
        gs.turn.split_el = <int8_t>a[2]
        return RES_DONE
    if local == AR_BOW_POWERED:
        # Bow of Starsdawn powered: the change of each Ranged / Siege Attack is the player's
        # action A_BOW_CHANGE (legal_bow_changes) while its points are in the pool.
        gs.turn.bow_powered = <uint8_t>a[0]
        return RES_DONE
    if local == AR_CIRCLET_USE:
        # Circlet of Proficiency: use a non-interactive skill of the common offer as one's
        # own this turn, once_per_turn_uses times if it is a once-a-turn skill (else once).
        # The first use resolves now; later ones are A_CIRCLET_SKILL (legal_circlet).
        if choice < 0:
            options = circlet_offer_slots(gs, es)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_OFFER, options)
        k = gs.skill_offer[choice]
        gs.turn.circlet_skill = <int8_t>(k + 1)
        gs.turn.circlet_uses = <int8_t>(a[0] if skill_entry(es, k)[1] == SKU_ONCE_PER_TURN else 1)
        return circlet_use(gs, es, k)
    if local == AR_CIRCLET_GAIN:
        # Circlet of Proficiency powered: take a skill of the common offer for good, as if
        # gained by levelling up (13.6.4): in a solo game a dummy skill joins the offer
        # (18.3.1).
        if choice < 0:
            if gs.n_skill_offer <= 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            options = ((<uint64_t>1) << gs.n_skill_offer) - 1 if gs.n_skill_offer < 64 else ~(<uint64_t>0)
            return ask(gs, row, 0, ASK_OFFER, options)
        for i in range(MAX_SKILLS):
            if pl.skills[i] < 0:
                break
        else:
            set_error(gs, ERR_CAPACITY, 5, gs.turn.resolving_card)
            return RES_ERROR
        pl.skills[i] = gs.skill_offer[choice]
        for k in range(choice, gs.n_skill_offer - 1):
            gs.skill_offer[k] = gs.skill_offer[k + 1]
        gs.n_skill_offer -= 1
        if gs.has_dummy and gs.dummy.n_skill_stack > 0:         # 18.3.1
            gs.dummy.n_skill_stack -= 1
            gs.skill_offer[gs.n_skill_offer] = gs.dummy.skill_stack[gs.dummy.n_skill_stack]
            gs.n_skill_offer += 1
        return RES_DONE
    if local == AR_COMMAND_ATTACH:
        # Banner of Command: a Unit recruited this turn (before or after playing it) may get
        # the Banner instead of a Command token (A_BANNER_COMMAND; at the Command limit,
        # A_RECRUIT without a disband attaches it, _engine_units.pxi).  LL-5.1.
        gs.turn.command_card = <int16_t>(gs.turn.resolving_card + 1)
        return RES_DONE
    if local >= AR_BANNER_FIRST and local <= AR_BANNER_LAST:
        return banner_attach(gs, es, p, row, local, choice)     # 7.5.1
    if local == AR_DRUIDIC_STAFF_MOVE:
        return travel(gs, st, p, row, choice, a[0], 0)
    if local == AR_DISCARD_BY_COLOUR:
        # Druidic Staff: discard a non-Wound card of a basic colour (6.2.2); its colour picks
        # the effect (ASK_HAND_CARD).
        if choice < 0:
            options = by_colour_cards(gs, es, a)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_HAND_CARD, options)
        card = pl.hand[choice]
        remove_at(pl.hand, &pl.n_hand, choice)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
        return push_eval(gs, a[card_colour(es, card)])
    if local == AR_BOOK_AA or local == AR_BOOK_SPELL:
        # Book of Wisdom: throw away an Action card (6.5), take a card of its colour from the
        # AA (basic) / Spell (powered, + `crystals` crystals of it) offer into hand; the
        # offer refills (6.4.2).  Stage 0: the card (ASK_HAND_CARD); 1: the slot (ASK_OFFER).
        spell = 1 if local == AR_BOOK_SPELL else 0
        if choice < 0:
            options = book_cards(gs, es, spell)
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_HAND_CARD, options)
        if gs.turn.handler_stage == 0:
            card = pl.hand[choice]
            c = card_colour(es, card)
            remove_at(pl.hand, &pl.n_hand, choice)
            pl.removed += 1
            gs.turn.hvars[0] = <int16_t>c
            for k in range(3):
                i = gs.spell_offer[k] if spell else gs.aa_offer[k]
                if i >= 0 and card_colour(es, i) == c:
                    options |= (<uint64_t>1) << k
            return ask(gs, row, 1, ASK_OFFER, options)
        c = gs.turn.hvars[0]
        if spell:
            push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, gs.spell_offer[choice])
            count_gained(es, pl, gs.spell_offer[choice])
            refill_offer(gs, gs.spell_offer, gs.spell_deck, &gs.n_spell_deck, choice)
            for k in range(a[0]):
                gain_crystal(pl, gs, c)
        else:
            push_card(pl.hand, &pl.n_hand, MAX_HAND_CARDS, gs.aa_offer[choice])
            count_gained(es, pl, gs.aa_offer[choice])
            refill_offer(gs, gs.aa_offer, gs.aa_deck, &gs.n_aa_deck, choice)
        return RES_DONE
    if local == AR_TOME:
        # Tome of All Spells: discard a non-Wound card (6.2.2); use the basic (powered=1:
        # strong, even by Day) effect of a Spell of its colour in the offer without paying
        # mana; the Spell stays in the offer.  Stage 0: the card; stage 1: the offer slot.
        if choice < 0:
            options = tome_cards(gs, es, a[0])
            if options == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_HAND_CARD, options)
        if gs.turn.handler_stage == 0:
            card = pl.hand[choice]
            c = card_colour(es, card)
            remove_at(pl.hand, &pl.n_hand, choice)
            push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, card)
            return ask(gs, row, 1, ASK_OFFER, tome_slots(gs, es, c, a[0]))
        # the Spell's effect keeps its own colour (LL-9.6.3, LL-9.7.22: a red Disintegrate)
        gs.turn.fx_colour = <int8_t>(card_colour(es, gs.spell_offer[choice]) + 1)
        gs.turn.fx_colour_by = gs.turn.resolving_card
        return push_eval(gs, tome_row(gs, es, gs.spell_offer[choice], a[0]))
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR


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


cdef bint artifacts_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                            int local, PendingCheck* c) noexcept nogil:
    """Bounds of a pending Artifact question (pending_check, _engine.pyx)."""
    cdef const int32_t* a = row_args(es, row)
    cdef int stage = gs.turn.handler_stage
    if local == AR_RANDOM_CRYSTALS:                     # hvars[0] = gold rolls still to choose for
        return pc_stage(c, gs, 0) or pc_hvar(c, gs, 0, 1, a[0] if a[0] > 1 else 1) or pc_asks(c, ASK_COLOUR, 4)
    if local == AR_HORN_OF_WRATH:                       # option = the extra dice rolled
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_NUMBER, (a[1] if a[1] < ASK_DONE - 1 else ASK_DONE - 1) + 1)
    if local == AR_ENEMIES_NO_ATTACK:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY, -1, True)
    if local == AR_SWORD_DISCARD or local == AR_BOW_DISCARD:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_HAND_CARD, -1, True)
    if local == AR_SOUL_HARVESTER:                      # hvars[0] = the enemy slot, -1 = the "one" enemy
        return pc_bad(c, PF_STAGE, stage, 1, 1) or pc_hvar(c, gs, 0, -1, pc_n_enemies(gs) - 1) \
            or pc_asks(c, ASK_COLOUR, 4)
    if local == AR_CIRCLET_USE or local == AR_CIRCLET_GAIN:   # options: slots of the skill offer
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OFFER, gs.n_skill_offer)
    if local >= AR_BANNER_FIRST and local <= AR_BANNER_LAST:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_UNIT)
    if local == AR_DRUIDIC_STAFF_MOVE:
        return pc_stage(c, gs, 0) or pc_travel(c, gs, False)
    if local == AR_DISCARD_BY_COLOUR:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_HAND_CARD)
    if local == AR_BOOK_AA or local == AR_BOOK_SPELL:   # stage 1: hvars[0] = the card's colour
        if pc_stage(c, gs, 1):
            return True
        if stage == 0:
            return pc_asks(c, ASK_HAND_CARD)
        return pc_hvar(c, gs, 0, 0, 3) or pc_asks(c, ASK_OFFER, -1, False,
                                                  &gs.spell_offer[0] if local == AR_BOOK_SPELL else &gs.aa_offer[0])
    if local == AR_TOME:
        if pc_stage(c, gs, 1):
            return True
        return pc_asks(c, ASK_HAND_CARD) if stage == 0 else pc_asks(c, ASK_OFFER, -1, False, gs.spell_offer)
    c.ask = -1
    return False
