# Named effect handlers of the Artifact cards (artifacts.toml), included into ext/_engine.pyx
# after _fx_spells.pxi (whose helpers it uses).  Protocol: see "Handler protocol" in
# _engine.pyx.  ARTIFACTS_HANDLERS lists (name, declared argument names) in handler-code
# order; the content's keyword arguments must match them exactly.
#
# Rules: 6.1.5 (basic effect, or thrown away for the strong one: done by A_PLAY), 6.2.1-6.2.2
# (costs), 7.5 (Banners are attached to a Unit: not implemented, a named error).

ARTIFACTS_HANDLERS = (
    ("random_crystals", ("n",)),
    ("endless_mana", ("colour", "fame_per_spell")),
    ("golden_grail_draw", ("per_wound",)),
    ("horn_of_wrath", ("siege", "max_extra", "wounds_per_extra")),
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
    AR_BANNER_FIRST = 10       # 10-16: Banners (attached to a Unit, 7.5) - not implemented
    AR_BANNER_LAST = 16
    AR_DRUIDIC_STAFF_MOVE = 17
    AR_DISCARD_BY_COLOUR = 18
    AR_BOOK_AA = 19
    AR_BOOK_SPELL = 20
    AR_TOME = 21

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
    """Spell offer slots of `colour` whose effect can be used now."""
    cdef uint64_t o = 0
    cdef int k
    for k in range(3):
        if gs.spell_offer[k] >= 0 and card_colour(es, gs.spell_offer[k]) == colour \
                and node_playable(gs, es, tome_row(gs, es, gs.spell_offer[k], powered)):
            o |= (<uint64_t>1) << k
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


cdef bint artifacts_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i, others = 0
    if local == AR_RANDOM_CRYSTALS or local == AR_ENDLESS_MANA or local == AR_AMULET_SUN \
            or local == AR_AMULET_DARKNESS:
        return special_now(gs)
    if local == AR_GOLDEN_GRAIL_DRAW:
        return outside_combat_now(gs)                            # with its Heal (12.4.1)
    if local == AR_HORN_OF_WRATH:
        return gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK   # Siege: 11.5.2, 11.8
    if local == AR_SWORD_DISCARD:
        return gs.phase == PH_COMBAT_ATTACK                      # melee Attack: 11.8
    if local == AR_BOW_DISCARD:
        return gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK
    if local == AR_READY_ALL_UNITS or local == AR_HEAL_ALL_UNITS:
        return outside_combat_now(gs) if a[0] else special_now(gs)
    if local >= AR_BANNER_FIRST and local <= AR_BANNER_LAST:
        return special_now(gs)                                   # offered; playing it raises
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
        # Siege Attack `siege` + k (0 <= k <= max_extra, ASK_NUMBER), k * wounds_per_extra
        # Wounds to hand (12.1.1).
        if choice < 0:
            k = a[1] if a[1] < ASK_DONE - 1 else ASK_DONE - 1
            return ask(gs, row, 0, ASK_NUMBER, ((<uint64_t>1) << (k + 1)) - 1)
        gs.combat.attack[<int>SIEGE][<int>PHYSICAL] += a[0] + choice
        take_wounds(gs, es, pl, choice * a[2])
        return RES_DONE
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
            push_card(pl.discard, &pl.n_discard, card)
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
        if gs.time == NIGHT:
            gs.turn.mana_anytime |= 1
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
            if pl.units[i].card >= 0:
                pl.units[i].wounds = 0
        return RES_DONE
    if local >= AR_BANNER_FIRST and local <= AR_BANNER_LAST:
        set_error(gs, ERR_UNIT_EFFECT, erow(es, row)[1], gs.turn.resolving_card)   # 7.5
        return RES_ERROR
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
        push_card(pl.discard, &pl.n_discard, card)
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
            push_card(pl.hand, &pl.n_hand, gs.spell_offer[choice])
            refill_offer(gs, gs.spell_offer, gs.spell_deck, &gs.n_spell_deck, choice)
            for k in range(a[0]):
                gain_crystal(pl, gs, c)
        else:
            push_card(pl.hand, &pl.n_hand, gs.aa_offer[choice])
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
            push_card(pl.discard, &pl.n_discard, card)
            return ask(gs, row, 1, ASK_OFFER, tome_slots(gs, es, c, a[0]))
        return push_eval(gs, tome_row(gs, es, gs.spell_offer[choice], a[0]))
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR
