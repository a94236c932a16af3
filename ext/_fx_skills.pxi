# Skills (rule 8): the A_USE_SKILL action and the named effect handlers of skills.toml,
# included into ext/_engine.pyx after _fx_artifacts.pxi.  Protocol: see "Handler protocol"
# in _engine.pyx.  SKILLS_HANDLERS lists (name, declared argument names) in handler-code
# order; the content's keyword arguments must match them exactly.
#
# Usage (8.2): once_per_turn (8.2.3) may be used once each turn: bit SKILL_TURN_SHIFT + slot
# of Player.skills_used, cleared at the start of the owner's turn.  once_per_round (8.2.1)
# and interactive (8.2.2) flip face down: bit `slot`, cleared at round preparation (2.2.8,
# 8.3.1).  passive skills are no action.  A skill is offered only when its effect can do
# something now (node_playable, the timing table 6.3.3), on its owner's own turn (8.2.1);
# the Motivation skills also just before it (8.3.2, 4.1.1: "during another player's turn"
# and "before your turn" are the same; PH_TURN_START is that point).
# A skill is not a card: the card bonuses (Concentration, Tirelessness, Ambush) do not apply
# to its Move, Attack or Block (skill_op).
#
# Interactive skills (8.2.2) in a game with the dummy: their owner's part is applied; the
# part that acts on other players during their turns has nobody to act on (the dummy has no
# figure, units, Fame, hand or mana: 18.1.2, 18.2.2), so it is not modelled.  Solo Conquest
# removes them (17.3.4); First Reconnaissance's solo variant keeps them.
#
# Cooperative skills (LL-7, ll_changed_cards.csv summaries) are dealt instead of the
# interactive one when The Lost Legion is on (LL-7.1, Engine._skill_in_game).  Their effect
# is cooperative(effect=owner's part, then=secondary effect): in a solo game the secondary
# effect is the owner's, on the next turn only (LL-7.3.2; Player.coop_due), when the face-down
# token may be used once more for it; it expires at the end of that turn or of the round
# (LL-7.3.3).  The owner's parts reuse the competitive skills' handlers (prayer_of_weather,
# wolfs_howl) or throw_away_wounds / reroll_source_die / mark_mana.  Two
# secondary effects trigger automatically (LL-7.3.1) instead of by using the face-down token:
# overload_bonus (Mana Overload: the first card the owner powers with the marked colour on
# the next turn, overload_arm / card_bonus) and first_combat_weaken (Wolfhawk's: at the start
# of the owner's first combat of the next turn, coop_combat_start).  The dummy plays no cards
# and fights no combats (18.1.2), so it never triggers either.

from mksim._combat cimport RES_PHYSICAL
from mksim._types cimport FIRE, COLDFIRE

SKILLS_HANDLERS = (
    ("outside_combat", ("then",)),
    ("discard_wound_cost", ("then",)),
    ("forward_march", ("per_unit", "max")),
    ("glittering_fortune", ("per_colour",)),
    ("power_of_pain", ("bonus",)),
    ("i_dont_give_a_damn", ("bonus", "advanced_bonus")),
    ("who_needs_magic", ("bonus", "no_source_bonus")),
    ("on_her_own", ("n", "no_recruit_n")),
    ("wolfs_howl", ("bonus", "per_free_command", "unit_penalty")),
    ("prayer_of_weather", ("own_delta", "own_floor", "others_delta", "others_max")),
    ("healing_ritual", ("wounds",)),
    ("mana_exploit", ()),
    ("invocation", ()),
    ("universal_power", ("bonus", "matching_bonus")),
    ("taunt", ("reduce", "increase", "armor_delta", "floor")),
    ("resistance_break", ("per_resistance", "floor")),
    ("deadly_aim", ("ranged_bonus", "melee_bonus")),
    ("leadership", ("block", "attack", "ranged")),
    ("motivation", ("cards", "lowest_fame")),
    ("source_freeze", ()),
    ("hawk_eyes", ("explore_discount", "reveal_distance")),
    ("flight", ("free_spaces", "far_spaces", "far_move")),
    ("know_your_prey", ()),
    ("polarization", ()),
    ("dueling", ("block", "attack", "fame")),
    ("bonds_of_loyalty", ("offer_units", "discount")),
    ("reroll_source_die", ()),
    ("cooperative", ("effect", "then")),
    ("source_opening_die", ()),
    ("mark_mana", ()),
    ("overload_bonus", ("bonus",)),
    ("first_combat_weaken", ("armor", "floor", "attack_delta")),
    ("throw_away_wounds", ("min", "max")),
)

cdef enum SkillHandler:
    SK_OUTSIDE_COMBAT = 0
    SK_DISCARD_WOUND_COST = 1
    SK_FORWARD_MARCH = 2
    SK_GLITTERING_FORTUNE = 3
    SK_POWER_OF_PAIN = 4
    SK_I_DONT_GIVE_A_DAMN = 5
    SK_WHO_NEEDS_MAGIC = 6
    SK_ON_HER_OWN = 7
    SK_WOLFS_HOWL = 8
    SK_PRAYER_OF_WEATHER = 9
    SK_HEALING_RITUAL = 10
    SK_MANA_EXPLOIT = 11
    SK_INVOCATION = 12
    SK_UNIVERSAL_POWER = 13
    SK_TAUNT = 14
    SK_RESISTANCE_BREAK = 15
    SK_DEADLY_AIM = 16
    SK_LEADERSHIP = 17
    SK_MOTIVATION = 18
    SK_SOURCE_FREEZE = 19
    SK_HAWK_EYES = 20
    SK_FLIGHT = 21
    SK_KNOW_YOUR_PREY = 22
    SK_POLARIZATION = 23
    SK_DUELING = 24
    SK_BONDS_OF_LOYALTY = 25
    SK_REROLL_SOURCE_DIE = 26
    SK_COOPERATIVE = 27
    SK_SOURCE_OPENING_DIE = 28
    SK_MARK_MANA = 29
    SK_OVERLOAD_BONUS = 30
    SK_FIRST_COMBAT_WEAKEN = 31
    SK_THROW_AWAY_WOUNDS = 32

cdef enum SkillUsage:          # mksim.content.SKILL_USAGE order
    SKU_ONCE_PER_TURN = 0
    SKU_ONCE_PER_ROUND = 1
    SKU_INTERACTIVE = 2
    SKU_PASSIVE = 3


cdef inline const int32_t* skill_entry(const EngineStatics* es, int skill) noexcept nogil:
    return es.skill_row + skill * es.skill_stride     # hero usage effect ... (tables.SKILL_COLUMNS)


cdef bint skill_usable(const GameState* gs, const EngineStatics* es, int p, int slot) noexcept nogil:
    """8.2: may the owner use the skill in `slot` now?"""
    cdef const Player* pl = &gs.players[p]
    cdef int skill, usage
    if slot < 0 or slot >= MAX_SKILLS:
        return False
    skill = pl.skills[slot]
    if skill < 0 or skill >= es.n_skills:
        return False
    usage = skill_entry(es, skill)[1]
    if usage == SKU_PASSIVE:
        return False                                          # always active, not an action
    if (pl.skills_used >> slot) & 1 and not (pl.coop_due == 2 and pl.coop_slot == slot + 1
                                             and skill_is(es, skill, SK_COOPERATIVE)):
        return False                                          # face down (8.2.1, 8.2.2; LL-7.3.2)
    if usage == SKU_ONCE_PER_TURN and (pl.skills_used >> (SKILL_TURN_SHIFT + slot)) & 1:
        return False                                          # 8.2.3
    if gs.phase == PH_TURN_START:
        if not skill_is(es, skill, SK_MOTIVATION):
            return False                                      # 8.3.2, 4.1.1: Motivation only
    elif gs.phase != PH_MOVE and gs.phase != PH_REST and gs.phase != PH_INTERACT and not gs.combat.active:
        return False
    return node_playable(gs, es, skill_entry(es, skill)[2])


cdef bint skill_is(const EngineStatics* es, int skill, int local) noexcept nogil:
    """The skill's effect is this group's handler `local` (e.g. SK_MOTIVATION)."""
    cdef const int32_t* r = erow(es, skill_entry(es, skill)[2])
    return r[0] == OP_HANDLER and es.handler_group[r[1]] == HG_SKILLS and es.handler_local[r[1]] == local


cdef bint row_takes_wound(const EngineStatics* es, int row) noexcept nogil:
    """The skill effect plays or discards a Wound from the hand (4.3.2 can be met with it)."""
    cdef const int32_t* r = erow(es, row)
    cdef int local
    if r[0] != OP_HANDLER or es.handler_group[r[1]] != HG_SKILLS:
        return False
    local = es.handler_local[r[1]]
    if local == SK_OUTSIDE_COMBAT:
        return row_takes_wound(es, row_args(es, row)[0])
    return local == SK_DISCARD_WOUND_COST or local == SK_POWER_OF_PAIN or local == SK_INVOCATION


cdef bint skill_takes_wound(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """A Skill the current player may use now plays or discards a Wound from the hand (Power
    of Pain, I Feel No Pain, Invocation; 4.3.2 with a hand of only Wounds)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int k
    for k in range(MAX_SKILLS):
        if skill_usable(gs, es, gs.current, k) and row_takes_wound(es, skill_entry(es, pl.skills[k])[2]):
            return True
    return False


cdef int legal_skills(const GameState* gs, const EngineStatics* es, int32_t* out, int n) noexcept nogil:
    cdef int k
    for k in range(MAX_SKILLS):
        if n < MAX_ACTIONS and skill_usable(gs, es, gs.current, k):
            out[n] = act(A_USE_SKILL, k)
            n += 1
    if source_freeze_due(gs, gs.current):                     # Source Freeze: the crystal
        for k in range(gs.n_dice):
            if source_freeze_die_ok(gs, k) and n < MAX_ACTIONS:
                out[n] = act(A_SKILL_CRYSTAL, k)
                n += 1
    return n


# -- turn hooks and the effects that last (called by the decision loop) --------------------

# Bonds of Loyalty (Norowas, passive): an extra Command token (7.2.1) for a unit recruited
# with Influence (10.6) at `discount` less (min 0); that unit may be activated where units
# normally may not (7.3.8) and cannot be disbanded (7.2.4); gaining the skill adds
# `offer_units` regular units to the Units offer.  Engine reading: only a unit recruited
# with Influence goes under the token (the discount is for that), not a reward unit.

cdef int bonds_row(const EngineStatics* es, const Player* pl) noexcept nogil:
    """The Bonds of Loyalty effect row of the player's skills, -1 = not owned."""
    cdef int k
    for k in range(MAX_SKILLS):
        if pl.skills[k] >= 0 and skill_is(es, pl.skills[k], SK_BONDS_OF_LOYALTY):
            return skill_entry(es, pl.skills[k])[2]
    return -1


cdef inline int bonds_unit_slot(const Player* pl) noexcept nogil:
    """Slot of the unit under Bonds of Loyalty, -1 = none (the token is free)."""
    cdef int s = pl.bonds_slot - 1
    return s if s >= 0 and pl.units[s].card >= 0 else -1


cdef inline int bonds_cost(const EngineStatics* es, int row, int cost) noexcept nogil:
    cdef int c = cost - row_args(es, row)[1]
    return c if c > 0 else 0


cdef bint bonds_unit_usable(const GameState* gs, const Player* pl) noexcept nogil:
    """The unit under Bonds of Loyalty may be activated in a combat where units may not."""
    return gs.combat.active != 0 and bonds_unit_slot(pl) >= 0


cdef inline bint bonds_kind_ok(int special) noexcept nogil:
    """Units that may be recruited under the Bonds token: any but Magic Familiars (their
    upkeep mana, LL-4.5.4, has no place in the Bonds recruit action) and units whose rules
    are not known.  Thugs and Heroes keep their Reputation rules (LL-4.2); no rule keeps
    them from the Bonds token."""
    return special == SU_NONE or special == SU_THUGS or special == SU_HEROES


cdef int recruit_under_bonds(GameState* gs, const EngineStatics* es, int p, int k, int site) noexcept nogil:
    """A_RECRUIT | BONDS_RECRUIT: recruit offer slot k (10.6) under the free Bonds token at
    its discounted cost; no disbanding (it is a token of its own).  Thugs / Heroes with
    their Reputation modifier inverted / doubled (LL-4.2, recruit_rep_delta)."""
    cdef Player* pl = &gs.players[p]
    cdef int row = bonds_row(es, pl), u, cost, slot, delta
    if gs.phase != PH_INTERACT or row < 0 or bonds_unit_slot(pl) >= 0 or gs.turn.no_recruit \
            or k >= gs.n_unit_offer or gs.unit_offer[k] < 0:
        return ERR_ILLEGAL
    u = gs.unit_offer[k]
    cost = bonds_cost(es, row, recruit_price(es, u, site))     # (LL-3.4.2 at a refugee camp)
    delta = recruit_rep_delta(gs, es, u)
    if delta == NO_RECRUIT or not can_recruit(es, u, site, interaction_city(gs, es, p)) \
            or cost > gs.turn.influence + delta:
        return ERR_ILLEGAL                                     # (10.10.1: city colours)
    if not bonds_kind_ok(unit_special(es, u)):                 # Magic Familiars, unknown rules
        return ERR_ILLEGAL
    if delta != 0 or unit_special(es, u) == SU_THUGS or unit_special(es, u) == SU_HEROES:
        gs.turn.recruit_mode = <uint8_t>unit_special(es, u)    # LL-4.2.3: once; LL-4.2.4
    gs.turn.influence = <int16_t>(gs.turn.influence + delta - cost)
    remove_offer_slot(gs, k)
    slot = gain_unit(gs, pl, u)
    if slot < 0:
        return ERR_CAPACITY
    pl.bonds_slot = <int8_t>(slot + 1)
    gs.turn.recruited_units |= <uint8_t>(1 << slot)           # Banner of Command (LL-5.1)
    heroic_tale_recruited(gs, pl)                              # Heroic Tale (_fx_advanced)
    gs.turn.recruited = 1                                      # On Her Own
    return ERR_NONE


cdef void skill_gained(GameState* gs, const EngineStatics* es, int skill) noexcept nogil:
    """A skill was just gained (13.6.4): Bonds of Loyalty adds `offer_units` regular units
    from their deck to the Units offer."""
    cdef int k
    if skill < 0 or not skill_is(es, skill, SK_BONDS_OF_LOYALTY):
        return
    for k in range(row_args(es, skill_entry(es, skill)[2])[0]):
        if gs.n_regular_units > 0 and gs.n_unit_offer < MAX_OFFER:
            gs.n_regular_units -= 1
            gs.unit_offer[gs.n_unit_offer] = gs.regular_units[gs.n_regular_units]
            gs.n_unit_offer += 1

cdef bint source_freeze_due(const GameState* gs, int p) noexcept nogil:
    """Source Freeze: its crystal may be taken on the owner's next turn (any part of it)."""
    return gs.players[p].source_freeze == 2 and (gs.phase == PH_TURN_START or gs.phase == PH_MOVE
            or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0)


cdef bint source_freeze_die_ok(const GameState* gs, int die) noexcept nogil:
    """A die of a basic colour lying in the Source (not taken this turn)."""
    return die < gs.n_dice and not ((gs.dice_taken >> die) & 1) and gs.dice[die] < GOLD


cdef int source_freeze_crystal(GameState* gs, int p, int die) noexcept nogil:
    """A_SKILL_CRYSTAL: Source Freeze, on the owner's next turn: a crystal of the colour of a
    basic-colour die in the Source; the die stays and is not rerolled (skill text)."""
    cdef Player* pl = &gs.players[p]
    if not source_freeze_due(gs, p) or not source_freeze_die_ok(gs, die):
        return ERR_ILLEGAL
    gain_crystal(pl, gs, gs.dice[die])                        # 5.3.2
    pl.source_freeze = 0                                      # 8.2.2: taken back face down
    return ERR_NONE


cdef uint64_t source_opening_dice(const GameState* gs) noexcept nogil:
    """Source dice of a basic colour not taken this turn (bit k = die k)."""
    cdef uint64_t o = 0
    cdef int i
    for i in range(gs.n_dice):
        if not ((gs.dice_taken >> i) & 1) and gs.dice[i] < GOLD:
            o |= (<uint64_t>1) << i
    return o


cdef uint64_t source_dice_left(const GameState* gs) noexcept nogil:
    """Source dice not taken this turn (bit k = die k)."""
    cdef uint64_t o = 0
    cdef int i
    for i in range(gs.n_dice):
        if not ((gs.dice_taken >> i) & 1):
            o |= (<uint64_t>1) << i
    return o


cdef void skills_turn_start(GameState* gs, Player* pl) noexcept nogil:
    """Start of the owner's turn: an interactive skill put out on the last turn comes back
    (8.2.2); Source Freeze's crystal may be taken during this turn."""
    if pl.source_freeze == 1:
        pl.source_freeze = 2
    if pl.coop_due == 1:                                      # LL-7.3.2: due this turn only
        pl.coop_due = 2


cdef void skills_turn_end(GameState* gs, Player* pl) noexcept nogil:
    """End of the owner's turn (13.7): Source Freeze's crystal not taken is lost; one more
    turn of the Motivation lock (8.3.2 skill text: until the end of your next turn) is over."""
    if pl.source_freeze == 2:
        pl.source_freeze = 0
    if pl.coop_due == 2:
        coop_done(pl)                                         # LL-7.3.2: not used, expired
    if pl.motivation_lock > 0:
        pl.motivation_lock -= 1


cdef inline void coop_done(Player* pl) noexcept nogil:
    """The cooperative skill's token is back face down: no secondary effect pending."""
    pl.coop_due = 0
    pl.coop_slot = 0
    pl.coop_mark = 0


cdef bint row_is_automatic(const EngineStatics* es, int row) noexcept nogil:
    """A secondary effect that triggers by itself (LL-7.3.1), not by using the token."""
    cdef const int32_t* r = erow(es, row)
    return r[0] == OP_HANDLER and es.handler_group[r[1]] == HG_SKILLS \
        and (es.handler_local[r[1]] == SK_OVERLOAD_BONUS or es.handler_local[r[1]] == SK_FIRST_COMBAT_WEAKEN)


cdef int coop_due_row(const GameState* gs, const EngineStatics* es, const Player* pl, int local) noexcept nogil:
    """The secondary-effect row of the player's cooperative skill due this turn if it is
    handler `local` (SK_OVERLOAD_BONUS / SK_FIRST_COMBAT_WEAKEN), else -1."""
    cdef int slot = pl.coop_slot - 1, skill, row
    cdef const int32_t* r
    if pl.coop_due != 2 or slot < 0 or slot >= MAX_SKILLS:
        return -1
    skill = pl.skills[slot]
    if skill < 0 or not skill_is(es, skill, SK_COOPERATIVE):
        return -1
    row = row_args(es, skill_entry(es, skill)[2])[1]
    r = erow(es, row)
    if r[0] == OP_HANDLER and es.handler_group[r[1]] == HG_SKILLS and es.handler_local[r[1]] == local:
        return row
    return -1


cdef void overload_arm(GameState* gs, const EngineStatics* es, int p, int card, int c1, int c2) noexcept nogil:
    """Mana Overload, secondary (LL-7.3.2 solo: the owner's next turn; automatic, LL-7.3.1):
    a Deed card powered (A_PLAY, its strong effect) with mana of the marked colour gets
    +bonus on the first Move / Influence / Attack / Block it gives (card_bonus, move_bonus),
    and the token goes back face down then.  Called after the mana is paid: pay / pay2 are
    its payment codes (pay2 < 0: none).  Mana paid inside an effect (Pure Magic) and cards
    played through another card (Concentration: another resolving card) do not trigger it.
    c1 / c2: the colours of the mana paid (-1: none), as it lies (a gold die is gold, not
    the colour it is used as: skills.toml conflicts)."""
    cdef Player* pl = &gs.players[p]
    cdef int row = coop_due_row(gs, es, pl, SK_OVERLOAD_BONUS), mark = pl.coop_mark - 1
    if row < 0 or mark < 0:
        return
    if c1 != mark and c2 != mark:
        return
    gs.turn.overload_bonus = <int8_t>row_args(es, row)[0]
    gs.turn.overload_card = <int16_t>card


cdef int overload_take(GameState* gs) noexcept nogil:
    """The armed Mana Overload bonus, for the card it was armed for; the skill is spent."""
    cdef int b = gs.turn.overload_bonus
    if b <= 0 or gs.turn.resolving_card < 0 or gs.turn.resolving_card != gs.turn.overload_card:
        return 0
    gs.turn.overload_bonus = 0
    coop_done(&gs.players[gs.current])                       # returned face down
    return b


cdef void coop_combat_start(GameState* gs, const EngineStatics* es, const Statics* st) noexcept nogil:
    """Wolfhawk's cooperative skill, secondary (LL-7.3.2 solo: the owner's next turn;
    automatic, LL-7.3.1: "the first combat"): when a combat begins, its effect is resolved at
    once (the player picks the enemies: first_combat_weaken); the token goes back face down."""
    cdef Player* pl = &gs.players[gs.current]
    cdef int row = coop_due_row(gs, es, pl, SK_FIRST_COMBAT_WEAKEN), skill
    if row < 0 or gs.turn.n_eval != 0 or gs.turn.handler_row >= 0 or gs.turn.pending_choice >= 0:
        return
    skill = pl.skills[pl.coop_slot - 1]
    coop_done(pl)
    gs.turn.resolving_card = <int16_t>(SKILL_CARD_BASE - skill)
    push_eval(gs, row)
    run_effects(gs, es, st, gs.current)


cdef uint64_t weaken_armor_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Enemies whose Armor an effect may lower now (not Arcane Immunity, LL-6.7.1)."""
    cdef uint64_t o = 0
    cdef int s
    for s in range(gs.combat.n_enemies):
        if enemy_effect_ok(gs, st, s, -1):
            o |= (<uint64_t>1) << s
    return o


cdef uint64_t weaken_attack_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Enemy attacks with a value to lower (option slot * 3 + attack; Arcane Immunity does not
    protect an attack, LL-6.7.4).  A summoner's attack is its summoned monster's, not drawn
    yet at the start of the combat (11.6.2): not offered (skills.toml conflicts)."""
    cdef uint64_t o = 0
    cdef int s, i
    for s in range(gs.combat.n_enemies):
        if gs.combat.enemies[s].summoned_by >= 0 or enemy_ability(gs, st, s, AB_SUMMON):
            continue
        for i in range(enemy_n_attacks(gs, st, s)):
            if s * 3 + i < 63 and attack_is_live(gs, st, s, i) and enemy_attack_value(gs, st, s, i) > 0:
                o |= (<uint64_t>1) << (s * 3 + i)
    return o


cdef int first_combat_weaken(GameState* gs, const Statics* st, int row, const int32_t* a, int choice) noexcept nogil:
    """Wolfhawk's cooperative skill, secondary: one enemy's Armor `armor` (min `floor` = 1,
    not against Arcane Immunity) and one attack of the same or another enemy `attack_delta` (not
    below 0), for this combat.  Stage 0: the enemy (ASK_ENEMY); stage 1: the attack
    (ASK_OPTION slot * 3 + attack).  A stage with nothing to act on is passed over.  The
    choices belong to the start of the combat (heat_window kept, Into the Heat)."""
    cdef uint64_t options
    cdef int i, w, v
    if a[1] != 1:
        set_error(gs, ERR_ENEMY_EFFECT, OP_ENEMY_ARMOR, gs.turn.resolving_card)
        return RES_ERROR
    if gs.turn.heat_window:
        gs.turn.heat_window = 2
    if choice < 0:
        options = weaken_armor_targets(gs, st)
        if options:
            return ask(gs, row, 0, ASK_ENEMY, options)
        gs.turn.handler_stage = 0
    elif gs.turn.handler_stage == 0:
        v = gs.combat.enemies[choice].armor_delta + a[0]      # enemy_armor() keeps it >= 1
        gs.combat.enemies[choice].armor_delta = <int8_t>(v if v > -100 else -100)
    if choice < 0 or gs.turn.handler_stage == 0:
        options = weaken_attack_targets(gs, st)
        if options:
            return ask(gs, row, 1, ASK_OPTION, options)
        return RES_DONE
    i = choice // 3
    w = choice % 3
    v = enemy_attack_value(gs, st, i, w)
    gs.combat.enemies[i].attack_delta[w] += <int8_t>(a[2] if -a[2] < v else -v)
    return RES_DONE


cdef inline int hand_wounds(const Player* pl, const EngineStatics* es) noexcept nogil:
    """Wound cards in the hand (Healing Ritual, Ritual of Pain)."""
    cdef int i, v = 0
    for i in range(pl.n_hand):
        if pl.hand[i] == es.wound:
            v += 1
    return v


cdef void throw_away_hand_wounds(Player* pl, const EngineStatics* es, int n) noexcept nogil:
    """Throw away `n` Wounds from the hand, last first (back to the Wound pile, 12.3.3)."""
    cdef int i = pl.n_hand - 1
    while n > 0 and i >= 0:
        if pl.hand[i] == es.wound:
            remove_at(pl.hand, &pl.n_hand, i)
            n -= 1
        i -= 1


cdef void skills_round_end(GameState* gs) noexcept nogil:
    """8.2.2: an interactive skill comes back at the end of the round if that is first."""
    cdef int p
    for p in range(gs.n_players):
        gs.players[p].source_freeze = 0
        coop_done(&gs.players[p])                             # LL-7.3.3: not across rounds


cdef int skill_pool_bonus(GameState* gs, int op, int kind) noexcept nogil:
    """Extra points for an Attack / Block row being added to the pools (apply_op): Deadly
    Aim for an Attack card played in the phase it was used in; Leadership for the matching
    ability of the next unit activated (Block, Attack, or Ranged - not Siege - Attack)."""
    cdef int b = 0, rc = gs.turn.resolving_card, lk = gs.turn.leadership_kind
    if op == OP_ATTACK and gs.turn.deadly_aim > 0 and rc >= 0:
        return deadly_aim_bonus(gs)
    if gs.turn.leadership_value > 0 and rc <= UNIT_CARD_BASE and rc > SKILL_CARD_BASE:
        if (op == OP_BLOCK and lk == 1) or (op == OP_ATTACK and lk == 2 and kind == MELEE) \
                or (op == OP_ATTACK and lk == 3 and kind == RANGED):
            b = gs.turn.leadership_value
            gs.turn.leadership_value = 0
            gs.turn.leadership_kind = 0
    return b


cdef int deadly_aim_bonus(GameState* gs) noexcept nogil:
    """Deadly Aim: the bonus for one Attack card (sideways included), in the phase the skill
    was used in; then it is spent."""
    cdef int b = 0
    if gs.turn.deadly_aim > 0 and gs.turn.deadly_aim_phase == gs.phase:
        b = gs.turn.deadly_aim
        gs.turn.deadly_aim = 0
    return b


cdef void hawk_eyes_reveal(GameState* gs, const EngineStatics* es, int p) noexcept nogil:
    """Hawk Eyes by Day: garrisons of keeps, mage towers and cities up to reveal_distance
    spaces away are revealed (instead of adjacent ones only, 9.10.1)."""
    cdef int h, pos = gs.players[p].position, site
    if gs.turn.reveal_distance == 0 or pos < 0 or gs.time != DAY:
        return
    for h in range(gs.n_hexes):
        site = gs.hexes[h].site
        if (site == es.sites.keep or site == es.sites.mage_tower or site == es.sites.city) \
                and gs.hexes[h].n_tokens > 0 and axial_distance(gs.hexes[pos].q, gs.hexes[pos].r,
                                                                gs.hexes[h].q, gs.hexes[h].r) <= gs.turn.reveal_distance:
            gs.hexes[h].flags |= HEX_TOKENS_REVEALED


cdef int use_skill(GameState* gs, const EngineStatics* es, const Statics* st, int p, int slot) noexcept nogil:
    """A_USE_SKILL: mark the token used (8.2) and resolve its effect like a card's."""
    cdef Player* pl = &gs.players[p]
    cdef int skill, usage, res
    if not skill_usable(gs, es, p, slot):
        return ERR_ILLEGAL
    skill = pl.skills[slot]
    usage = skill_entry(es, skill)[1]
    if usage == SKU_INTERACTIVE and gs.n_players > 1:         # the centre part is not modelled
        set_error(gs, ERR_HEROES, HEROES_INTERACTIVE_SKILL, SKILL_CARD_BASE - skill)
        return ERR_HEROES
    if usage == SKU_ONCE_PER_TURN:
        pl.skills_used |= <uint16_t>(1 << (SKILL_TURN_SHIFT + slot))     # 8.2.3
    else:
        pl.skills_used |= <uint16_t>(1 << slot)               # 8.2.1-8.2.2: flipped face down
    gs.turn.resolving_card = <int16_t>(SKILL_CARD_BASE - skill)
    push_eval(gs, skill_entry(es, skill)[2])
    res = run_effects(gs, es, st, p)
    return gs.error if res == RES_ERROR else ERR_NONE


cdef int skill_op(GameState* gs, const int32_t* r) noexcept nogil:
    """Move / Attack / Block of a skill: the plain value, without card bonuses."""
    if r[0] == OP_MOVE:
        gs.turn.move_points += r[1]
    elif r[0] == OP_ATTACK:
        gs.combat.attack[r[3]][r[2]] += r[1]                  # 11.5.2 / 11.8
    else:
        gs.combat.block[r[2]] += r[1]                         # 11.6.3
    return RES_DONE


cdef int ready_unwounded_units(const Player* pl) noexcept nogil:
    cdef int k, n = 0
    for k in range(MAX_UNITS):
        if pl.units[k].card >= 0 and pl.units[k].ready and pl.units[k].wounds == 0:
            n += 1
    return n


cdef int crystal_colours(const Player* pl) noexcept nogil:
    cdef int c, n = 0
    for c in range(4):
        if pl.crystals[c] > 0:
            n += 1
    return n


cdef bint has_wound_in_hand(const Player* pl, const EngineStatics* es) noexcept nogil:
    cdef int i
    for i in range(pl.n_hand):
        if pl.hand[i] == es.wound:
            return True
    return False


cdef uint64_t sideways_options(const Player* pl, const EngineStatics* es, bint wounds) noexcept nogil:
    """Hand indices of the Wounds (wounds) or the non-Wound cards."""
    cdef uint64_t options = 0
    cdef int i
    for i in range(pl.n_hand):
        if i <= MAX_HAND_INDEX and (pl.hand[i] == es.wound) == wounds:
            options |= (<uint64_t>1) << i
    return options


cdef int sideways_kinds(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """What a card played sideways may give now, as A_SIDEWAYS allows (6.1.7): bit 0 Move
    (also in combat where Move has a use, LL-9.7.2), 1 Influence (also where it has a use
    outside interaction: Peaceful Moment, paying Thugs / Heroes in combat, LL-4.3.4), 2 Attack,
    3 Block."""
    cdef int m = 0
    if (gs.phase == PH_MOVE and not gs.turn.action_taken) or combat_move_usable(gs, es):
        m |= 1
    if gs.phase == PH_INTERACT or (gs.phase == PH_MOVE and gs.turn.peaceful) or units_need_influence(gs, es):
        m |= 2
    if gs.phase == PH_COMBAT_ATTACK or (gs.phase == PH_COMBAT_RANGED and gs.turn.attacks_siege):
        m |= 4
    if gs.phase == PH_COMBAT_BLOCK:
        m |= 8
    return m


cdef enum:
    SIDEWAYS_STAGE = 9         # skill handlers: the last stage, what the card sideways gives


cdef int sideways_play(GameState* gs, const EngineStatics* es, int row, Player* pl, int i, int value) noexcept nogil:
    """A skill's card sideways for `value` (Power of Pain, I Don't Give a Damn, ...): what it
    gives is the player's choice where several are possible (ASK_OPTION 0 Move, 1 Influence,
    2 Attack, 3 Block at stage SIDEWAYS_STAGE, resolved by sideways_chosen)."""
    cdef int m = sideways_kinds(gs, es), k = 0
    if m & (m - 1):
        gs.turn.hvars[6] = <int16_t>i
        gs.turn.hvars[7] = <int16_t>value
        return ask(gs, row, SIDEWAYS_STAGE, ASK_OPTION, m)
    while k < 3 and not ((m >> k) & 1):
        k += 1
    play_sideways_for(gs, pl, i, value, k)
    return RES_DONE


cdef void play_sideways_for(GameState* gs, Player* pl, int i, int value, int a) noexcept nogil:
    """Play hand card i sideways (6.1.7) for `value` instead of 1, giving `a` (0 Move, 1
    Influence, 2 Attack, 3 Block); card bonuses apply as for A_SIDEWAYS (it is a card played)."""
    cdef int card = pl.hand[i]
    remove_at(pl.hand, &pl.n_hand, i)
    push_card(pl.play_area, &pl.n_play, MAX_PLAY_CARDS, card)        # a Wound too: discarded at end of turn
    gs.turn.played_card = 1
    if a == 0:
        gs.turn.move_points += value + move_bonus(gs)
    elif a == 1:
        gs.turn.influence += value                    # 10.2.2
    elif a == 2:
        gs.combat.attack[0][0] += value + ambush_bonus(gs, 0) + deadly_aim_bonus(gs)   # physical melee Attack
    else:
        gs.combat.block[0] += value + ambush_bonus(gs, 1)        # physical Block


cdef bint skills_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i
    if local == SK_OUTSIDE_COMBAT:                # only outside combat, and only if it does something
        return not gs.combat.active and node_playable(gs, es, a[0])   # 11: not in combat
    if local == SK_DISCARD_WOUND_COST:            # I Feel No Pain: needs a Wound in hand
        return has_wound_in_hand(pl, es) and node_playable(gs, es, a[0])
    if local == SK_FORWARD_MARCH:                 # Move (9.3.2; in combat with a use, LL-9.7.2)
        return (gs.phase == PH_MOVE or combat_move_usable(gs, es)) and ready_unwounded_units(pl) > 0
    if local == SK_GLITTERING_FORTUNE:            # Influence: interaction only (10.2.2)
        return gs.phase == PH_INTERACT and crystal_colours(pl) > 0
    if local == SK_POWER_OF_PAIN:                 # a Wound played sideways
        return sideways_kinds(gs, es) != 0 and sideways_options(pl, es, True) != 0
    if local == SK_I_DONT_GIVE_A_DAMN or local == SK_WHO_NEEDS_MAGIC:   # a non-Wound card sideways
        return sideways_kinds(gs, es) != 0 and sideways_options(pl, es, False) != 0
    if local == SK_ON_HER_OWN:                    # Influence where it has a use (as OP_INFLUENCE):
        return gs.phase == PH_INTERACT or influence_elsewhere(gs) \
            or units_need_influence(gs, es)       # 10.2.2; LL-4.3.4 paying Thugs / Heroes in combat
    if local == SK_WOLFS_HOWL:                    # a card sideways, not during interaction
        return gs.phase != PH_INTERACT and sideways_kinds(gs, es) != 0 and sideways_options(pl, es, False) != 0
    if local == SK_REROLL_SOURCE_DIE:             # a die in the Source (5.5)
        return special_now(gs) and source_dice_left(gs) != 0
    if local == SK_COOPERATIVE:                   # LL-7.3.2: the secondary effect on the due turn
        if pl.coop_due == 2:                      # (an automatic one is never used at will)
            return not row_is_automatic(es, a[1]) and node_playable(gs, es, a[1])
        return node_playable(gs, es, a[0])
    if local == SK_SOURCE_OPENING_DIE:            # a basic-colour die in the Source (5.5)
        return special_now(gs) and source_opening_dice(gs) != 0
    if local == SK_MARK_MANA:                     # a special effect (6.3.3), like Mana Exploit
        return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0
    if local == SK_OVERLOAD_BONUS or local == SK_FIRST_COMBAT_WEAKEN:
        return False                              # automatic (LL-7.3.1): never an action
    if local == SK_PRAYER_OF_WEATHER or local == SK_HAWK_EYES:   # movement (9.3, 9.6)
        return gs.phase == PH_MOVE and not gs.turn.action_taken and not gs.combat.active
    if local == SK_HEALING_RITUAL:                # outside combat, with a Wound in hand
        return healing_time(gs) and has_wound_in_hand(pl, es)
    if local == SK_THROW_AWAY_WOUNDS:             # outside combat; 0 Wounds allowed if min is 0
        return healing_time(gs) and (a[0] == 0 or has_wound_in_hand(pl, es))
    if local == SK_MANA_EXPLOIT or local == SK_SOURCE_FREEZE:    # special effects (6.3.3)
        return gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT or gs.combat.active != 0
    if local == SK_INVOCATION:                    # a card to discard
        return pl.n_hand > 0 and (gs.phase == PH_MOVE or gs.phase == PH_REST or gs.phase == PH_INTERACT
                                  or gs.combat.active != 0)
    if local == SK_UNIVERSAL_POWER:               # a card sideways and a basic mana to add
        return sideways_kinds(gs, es) != 0 and sideways_options(pl, es, False) != 0 and mana_pay_options(gs) != 0
    if local == SK_TAUNT:                         # Block phase, a live enemy attack
        return taunt_targets(gs, es.st) != 0
    if local == SK_RESISTANCE_BREAK:              # an enemy with a resistance it can act on
        return gs.combat.active != 0 and resistance_targets(gs, es.st) != 0
    if local == SK_DEADLY_AIM:                    # an Attack card to come in this phase
        return (gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_ATTACK) \
            and sideways_options(pl, es, False) != 0 and gs.turn.deadly_aim == 0
    if local == SK_LEADERSHIP:                    # a unit that can be activated now
        return gs.combat.active != 0 and leadership_options(gs, es) != 0
    if local == SK_MOTIVATION:                    # 8.3.2: not while another Motivation is locked
        return pl.motivation_lock == 0 and (pl.n_deck > 0 or alone_lowest_fame(gs, gs.current)) \
            and (gs.phase == PH_TURN_START or gs.phase == PH_MOVE or gs.phase == PH_REST
                 or gs.phase == PH_INTERACT or gs.combat.active != 0)
    if local == SK_KNOW_YOUR_PREY:                # in combat, an enemy it can act on
        if not gs.combat.active:
            return False
        for i in range(gs.combat.n_enemies):
            if prey_options(gs, es.st, i) != 0:
                return True
        return False
    if local == SK_POLARIZATION:                  # a mana to use as another colour
        return polar_sources(gs) != 0 and (gs.phase == PH_MOVE or gs.phase == PH_REST
                                           or gs.phase == PH_INTERACT or gs.combat.active != 0)
    if local == SK_DUELING:                       # Block phase, an enemy attack to block
        return duel_targets(gs, es.st) != 0
    if local == SK_FLIGHT:                        # movement, with a safe space to land on
        return gs.phase == PH_MOVE and not gs.turn.action_taken and not gs.combat.active \
            and flight_options(gs, es, es.st, gs.current, a, NULL) != 0
    return False


cdef uint64_t mana_pay_options(const GameState* gs) noexcept nogil:
    """Payment codes that give one mana of a basic colour now (gold counts, 5.1.5)."""
    cdef uint64_t o = 0
    cdef int pay, c
    for pay in range(n_pay_codes(gs)):
        for c in range(4):
            if pay_ok(gs, pay, c):
                o |= (<uint64_t>1) << pay
                break
    return o


cdef int pay_colour(const GameState* gs, int pay) noexcept nogil:
    """The colour of the mana a payment code gives (token, crystal, die, Mana Steal die)."""
    if pay < PAY_CRYSTAL:
        return pay
    if pay < PAY_DIE:
        return pay - PAY_CRYSTAL
    if pay == PAY_STOLEN:
        return gs.players[gs.current].stolen_die
    return gs.dice[pay - PAY_DIE]


cdef enum:
    PREY_RESISTANCE = 11       # Know Your Prey options: bits 0-10 abilities (AB_* bit k),
    PREY_ELEMENT = 16          # 11-13 resistances, 16 + 2i (+1) attack i's element


cdef uint64_t prey_options(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Know Your Prey on the enemy in `slot` (not Arcane Immunity, LL-6.7.1): bit k < 11 =
    lose the ability AB_* 1 << k (Arcane Immunity excluded; Summon and the elements are attack
    types, not abilities, LL-6.2); 11 + r = lose resistance RES_* 1 << r (resistances are
    defensive abilities, LL-6.2.3); 16 + 2i = attack i Fire / Ice -> Physical or Cold Fire ->
    Fire, 17 + 2i = Cold Fire -> Ice."""
    cdef uint64_t o = 0
    cdef int ab, res, k, el
    if not enemy_effect_ok(gs, st, slot, -1):
        return 0
    ab = enemy_ability(gs, st, slot, 0x7FF) & ~(AB_ARCANE_IMMUNITY | AB_SUMMON)
    for k in range(11):
        if (ab >> k) & 1:
            o |= (<uint64_t>1) << k
    res = st.enemies.data[gs.combat.enemies[slot].enemy * st.enemies.width + st.cols.enemy_resistances] \
        & ~(<int>gs.combat.enemies[slot].lost_resistances)
    for k in range(3):
        if (res >> k) & 1:
            o |= (<uint64_t>1) << (PREY_RESISTANCE + k)
    for k in range(enemy_n_attacks(gs, st, slot)):
        el = attack_element(gs, st, slot, k)
        if el == FIRE or el == ICE or el == COLDFIRE:
            o |= (<uint64_t>1) << (PREY_ELEMENT + 2 * k)
        if el == COLDFIRE:
            o |= (<uint64_t>1) << (PREY_ELEMENT + 2 * k + 1)
    return o


cdef bint polar_spell_blocked(const GameState* gs, int pay) noexcept nogil:
    """Polarization by Day: the token made of black mana may not pay for a Spell - a token of
    that colour may, only if there is another one."""
    return pay < PAY_CRYSTAL and gs.turn.polar_nospell == pay + 1 and gs.turn.mana_tokens[pay] <= 1 \
        and not (gs.turn.endless_mana >> pay) & 1


cdef int polar_target_mask(const GameState* gs, int c) noexcept nogil:
    """Polarization: the colours mana of colour c may be used as (ASK_COLOUR bits): red <->
    blue, white <-> green; by Day black as any basic colour; at Night gold as black."""
    if c == RED:
        return 1 << BLUE
    if c == BLUE:
        return 1 << RED
    if c == WHITE:
        return 1 << GREEN
    if c == GREEN:
        return 1 << WHITE
    if c == BLACK and not night_mana(gs):          # by Day (Night mana rules: 5.6.1)
        return 0xF
    if c == GOLD and night_mana(gs):
        return 1 << BLACK
    return 0


cdef uint64_t polar_sources(const GameState* gs) noexcept nogil:
    """Payment codes (tokens, crystals, a Source die as the turn's die 5.5.2, the Mana Steal
    die) whose mana Polarization can turn into another colour."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int pay, c, die
    for pay in range(n_pay_codes(gs)):
        if pay < PAY_CRYSTAL:
            if gs.turn.mana_tokens[pay] <= 0 and not (gs.turn.endless_mana >> pay) & 1:
                continue
        elif pay < PAY_DIE:
            if pl.crystals[pay - PAY_CRYSTAL] <= 0:
                continue
        elif gs.turn.no_source_dice:
            continue
        elif pay == PAY_STOLEN:
            if pl.stolen_die < 0:
                continue
        else:
            die = pay - PAY_DIE
            if die >= gs.n_dice or (gs.dice_taken >> die) & 1 or gs.turn.dice_used >= 1 + gs.turn.extra_dice:
                continue
        c = pay_colour(gs, pay)
        if c >= 0 and polar_target_mask(gs, c) != 0:
            o |= (<uint64_t>1) << pay
    return o


cdef uint64_t duel_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Dueling: enemies with a live attack in the Block phase (ASK_ENEMY bits)."""
    cdef uint64_t o = 0
    cdef int s, i
    if not gs.combat.active or gs.phase != PH_COMBAT_BLOCK:
        return 0
    for s in range(gs.combat.n_enemies):
        for i in range(enemy_n_attacks(gs, st, s)):
            if attack_is_live(gs, st, s, i):
                o |= (<uint64_t>1) << s
    return o


cdef void duel_attack_add(GameState* gs, uint32_t targets, int sign) noexcept nogil:
    """Dueling: its Attack counts (physical) in an Attack-phase attack on its enemy."""
    if gs.turn.duel_attack > 0 and gs.phase == PH_COMBAT_ATTACK and gs.turn.duel_slot > 0 \
            and (targets >> (gs.turn.duel_slot - 1)) & 1:
        gs.combat.attack[<int>MELEE][<int>PHYSICAL] += sign * gs.turn.duel_attack


cdef void duel_after_commit(GameState* gs, uint32_t targets, int res) noexcept nogil:
    """After an attack or block was committed: Dueling's points aimed at its enemy are spent
    with the pool (11.4.5); a unit ability in a pool used on that enemy loses the Fame."""
    cdef bint duel = gs.turn.duel_slot > 0 and (targets >> (gs.turn.duel_slot - 1)) & 1
    if res < 0:
        duel_attack_add(gs, targets, -1)                  # nothing happened: take it back
        return
    if duel:
        if gs.phase == PH_COMBAT_ATTACK:
            gs.turn.duel_attack = 0
        else:
            gs.turn.duel_block = 0
        if gs.turn.duel_pool_units:
            gs.turn.duel_units = 1
    gs.turn.duel_pool_units = 0


cdef void duel_combat_end(GameState* gs, Player* pl) noexcept nogil:
    """Dueling: Fame if its enemy was defeated and no unit blocked or attacked it or took
    damage from it; then the duel is over."""
    cdef int s = gs.turn.duel_slot - 1
    if s >= 0 and s < gs.combat.n_enemies and (gs.combat.enemies[s].flags & CE_DEFEATED) \
            and not gs.turn.duel_units:
        pl.fame += gs.turn.duel_fame
    gs.turn.duel_slot = 0
    gs.turn.duel_attack = 0
    gs.turn.duel_block = 0
    gs.turn.duel_units = 0
    gs.turn.duel_pool_units = 0
    gs.turn.leadership_kind = 0                           # Leadership: for a unit of this combat
    gs.turn.leadership_value = 0


cdef uint64_t taunt_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Taunt: live enemy attacks in the Block phase; option k = slot * 3 + attack index."""
    cdef uint64_t o = 0
    cdef int s, i
    if not gs.combat.active or gs.phase != PH_COMBAT_BLOCK:
        return 0
    for s in range(gs.combat.n_enemies):
        for i in range(enemy_n_attacks(gs, st, s)):
            if s * 3 + i < 63 and attack_is_live(gs, st, s, i):
                o |= (<uint64_t>1) << (s * 3 + i)
    return o


cdef int resistance_count(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """Resistances the enemy has now (one lost to Know Your Prey no longer counts)."""
    cdef int res = st.enemies.data[gs.combat.enemies[slot].enemy * st.enemies.width + st.cols.enemy_resistances] \
        & ~(<int>gs.combat.enemies[slot].lost_resistances)
    return ((res & RES_PHYSICAL) != 0) + ((res & RES_FIRE) != 0) + ((res & RES_ICE) != 0)


cdef uint64_t resistance_targets(const GameState* gs, const Statics* st) noexcept nogil:
    """Resistance Break: enemies with a resistance that an effect may target (not Arcane
    Immunity, LL-6.7.1; the skill has no colour for 11.4.2)."""
    cdef uint64_t o = 0
    cdef int s
    for s in range(gs.combat.n_enemies):
        if enemy_effect_ok(gs, st, s, -1) and resistance_count(gs, st, s) > 0:
            o |= (<uint64_t>1) << s
    return o


cdef uint64_t leadership_options(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Leadership: 0 +block (Block phase), 1 +attack (Attack phase), 2 +ranged (Ranged and
    Siege phase or Attack phase) - with a Ready, unwounded unit to activate (7.3.1, 7.3.8)."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int i
    cdef bint unit = False
    if not units_usable_now(gs) or gs.turn.leadership_value > 0:
        return 0
    for i in range(MAX_UNITS):
        if pl.units[i].card >= 0 and pl.units[i].ready and pl.units[i].wounds == 0:
            unit = True
    if not unit:
        return 0
    if gs.phase == PH_COMBAT_BLOCK:
        return 1
    if gs.phase == PH_COMBAT_ATTACK:
        return 6
    if gs.phase == PH_COMBAT_RANGED:
        return 4
    return 0


cdef bint alone_lowest_fame(const GameState* gs, int p) noexcept nogil:
    """Motivation: "if you alone have the lowest Fame" - lower than every other hero.  The
    dummy has no Fame (18.1.2), so in a solo game the condition is never met."""
    cdef int q
    if gs.n_players < 2:
        return False
    for q in range(gs.n_players):
        if q != p and gs.players[q].fame <= gs.players[p].fame:
            return False
    return True


cdef uint64_t flight_options(const GameState* gs, const EngineStatics* es, const Statics* st, int p,
                             const int32_t* a, int16_t* hexes) noexcept nogil:
    """Flight: option k = the k-th space (in hex order) at distance free_spaces (for free) or
    far_spaces (for far_move Move points) that is safe to end on (9.7.1; the closed city of
    17.3.1 excluded).  Flying crosses any space in between.  `hexes` (or NULL) gets the hexes."""
    cdef uint64_t o = 0
    cdef int h, d, k = 0, pos = gs.players[p].position
    if pos < 0:
        return 0
    for h in range(gs.n_hexes):
        d = axial_distance(gs.hexes[pos].q, gs.hexes[pos].r, gs.hexes[h].q, gs.hexes[h].r)
        if d != a[0] and d != a[1]:
            continue
        if not is_safe(gs, st, h, p) or (es.city_closed and gs.hexes[h].site == es.city_site):
            continue
        if d == a[1] and d != a[0] and gs.turn.move_points < a[2]:
            continue
        if k < 64:
            o |= (<uint64_t>1) << k
            if hexes != NULL:
                hexes[k] = <int16_t>h
            k += 1
    return o


cdef int skills_handler(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row, int local, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int i, v, w, d
    cdef uint64_t options
    cdef int16_t dest[64]
    if choice >= 0 and gs.turn.handler_stage == SIDEWAYS_STAGE:   # sideways_play's question
        play_sideways_for(gs, pl, gs.turn.hvars[6], gs.turn.hvars[7], choice)
        return RES_DONE
    if local == SK_OUTSIDE_COMBAT:
        return push_eval(gs, a[0])
    if local == SK_DISCARD_WOUND_COST:            # discard a Wound from hand; then the effect
        for i in range(pl.n_hand):
            if pl.hand[i] == es.wound:
                remove_at(pl.hand, &pl.n_hand, i)
                push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, es.wound)
                gs.turn.played_card = 1               # 4.3.2: a card discarded
                return push_eval(gs, a[0])
        set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
        return RES_ERROR
    if local == SK_FORWARD_MARCH:                 # Move per Ready, unwounded unit, at most max
        v = ready_unwounded_units(pl) * a[0]
        gs.turn.move_points += v if v < a[1] else a[1]
        return RES_DONE
    if local == SK_GLITTERING_FORTUNE:            # Influence per different crystal colour
        gs.turn.influence += crystal_colours(pl) * a[0]
        return RES_DONE
    if local == SK_POWER_OF_PAIN or local == SK_I_DONT_GIVE_A_DAMN:
        # Power of Pain: a Wound played sideways as a non-Wound card, +bonus instead of +1
        # (then discarded at end of turn with the play area).  I Don't Give a Damn: a card
        # sideways +bonus instead of +1, +advanced_bonus for an AA, Spell or Artifact.
        if choice < 0:
            if sideways_kinds(gs, es) == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, local == SK_POWER_OF_PAIN))
        v = a[0]
        if local == SK_I_DONT_GIVE_A_DAMN:
            i = card_deck(es, pl.hand[choice])
            if i == DECK_AA or i == DECK_SPELL or i == DECK_ARTIFACT:
                v = a[1]
        return sideways_play(gs, es, row, pl, choice, v)
    if local == SK_WHO_NEEDS_MAGIC:
        # a card sideways +bonus instead of +1; +no_source_bonus if no Source die is used this
        # turn: offered (ASK_OPTION 1) only if none was used yet (the Mana Steal die and dice
        # taken by Mana Draw count), and then none may be used for the rest of the turn.
        # Stage 0: the card (ASK_HAND_CARD), stage 1: option 0 = +bonus, 1 = +no_source_bonus.
        if choice < 0:
            if sideways_kinds(gs, es) == 0:
                set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
                return RES_ERROR
            return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, False))
        if gs.turn.handler_stage == 0:
            if gs.turn.dice_used == 0 and not gs.turn.stolen_used and gs.turn.dice_kept == 0:
                gs.turn.hvars[0] = <int16_t>choice
                return ask(gs, row, 1, ASK_OPTION, 3)
            return sideways_play(gs, es, row, pl, choice, a[0])
        if choice == 1:
            gs.turn.no_source_dice = 1
        return sideways_play(gs, es, row, pl, gs.turn.hvars[0], a[1] if choice == 1 else a[0])
    if local == SK_ON_HER_OWN:
        # Wolfhawk: Influence n, or no_recruit_n if you recruit no Unit with Influence this
        # turn: option 1 (offered while none was recruited yet) forbids recruiting for the
        # rest of the turn (A_RECRUIT, _engine_units.pxi).  ASK_OPTION 0 = n, 1 = no_recruit_n.
        if choice < 0:
            if gs.turn.recruited:
                gs.turn.influence += a[0]                     # 10.2.2
                return RES_DONE
            return ask(gs, row, 0, ASK_OPTION, 3)
        if choice == 1:
            gs.turn.no_recruit = 1
        gs.turn.influence += a[1] if choice == 1 else a[0]
        return RES_DONE
    if local == SK_WOLFS_HOWL:
        # Wolfhawk (interactive 8.2.2): a non-Wound card sideways gives +bonus instead of +1,
        # +per_free_command for each Command token without a Unit (7.2.1).  The centre part
        # (other players' Units -unit_penalty) has nobody to act on with the dummy (18.1.2).
        if choice < 0:
            return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, False))
        v = pl.command_tokens - (units_held(pl) - (bonds_unit_slot(pl) >= 0))
        if v < 0:
            v = 0
        if bonds_row(es, pl) >= 0 and bonds_unit_slot(pl) < 0:
            v += 1                                            # Bonds of Loyalty: a free token too
        return sideways_play(gs, es, row, pl, choice, a[0] + a[1] * v)
    if local == SK_PRAYER_OF_WEATHER:
        # Norowas (interactive 8.2.2): your terrain costs own_delta (min own_floor) this turn
        # (9.6.2); the centre part (other players' costs + others_delta until your next turn)
        # has nobody to act on with the dummy, which does not move (18.1.2).  Lakes and
        # mountains stay closed; a city space costs 2 whatever effects say (21.2 A9).
        gs.turn.prayer_delta += <int8_t>a[0]                  # move_cost (_rules.pyx)
        gs.turn.prayer_floor = <int8_t>a[1]
        return RES_DONE
    if local == SK_HEALING_RITUAL:
        # Arythea (interactive 8.2.2): outside combat, throw away up to `wounds` Wounds from
        # hand (back to the Wound pile, like healing, 12.3.3).  One of them would go to the
        # closest hero's hand: the dummy has no figure or hand (18.1.2), so all go back.
        # ASK_NUMBER: option k = throw away k Wounds (asked only if more than one is possible).
        v = hand_wounds(pl, es)
        if v > a[0]:
            v = a[0]
        if choice < 0 and v > 1:
            return ask(gs, row, 0, ASK_NUMBER, ((<uint64_t>1) << (v + 1)) - 2)
        if choice > 0:
            v = choice
        throw_away_hand_wounds(pl, es, v)
        return RES_DONE
    if local == SK_THROW_AWAY_WOUNDS:
        # Ritual of Pain (Arythea, cooperative LL-7): outside combat throw away min..max
        # Wounds from hand (back to the Wound pile, 12.3.3).  ASK_NUMBER: option k = k Wounds,
        # asked only if there is more than one possible number.
        v = hand_wounds(pl, es)
        if v > a[1]:
            v = a[1]
        if choice < 0:
            if v > a[0]:
                return ask(gs, row, 0, ASK_NUMBER, ((<uint64_t>1) << (v + 1)) - ((<uint64_t>1) << a[0]))
            choice = v
        throw_away_hand_wounds(pl, es, choice)
        return RES_DONE
    if local == SK_MANA_EXPLOIT:
        # Tovak (interactive 8.2.2): a mana token of a chosen non-gold colour (5.3.1).  The
        # centre part (others take a Wound using mana of another colour) has nobody to act on.
        if choice < 0:
            return ask(gs, row, 0, ASK_COLOUR, 0x2F)          # red blue white green black
        gs.turn.mana_tokens[choice] += 1
        return RES_DONE
    if local == SK_INVOCATION:
        # Arythea: discard a Wound for a red or black mana token, or a non-Wound card for a
        # white or green one.  Stage 0: the card (ASK_HAND_CARD); stage 1: the colour.
        # Engine reading of "spend it immediately": a token of this turn (5.1.2, returned at
        # its end); a black token by Day cannot be used (5.1.6).
        if choice < 0:
            return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, True) | sideways_options(pl, es, False))
        if gs.turn.handler_stage == 0:
            gs.turn.hvars[0] = <int16_t>choice
            return ask(gs, row, 1, ASK_COLOUR, ((1 << RED) | (1 << BLACK)) if pl.hand[choice] == es.wound
                       else ((1 << WHITE) | (1 << GREEN)))
        i = gs.turn.hvars[0]
        v = pl.hand[i]
        remove_at(pl.hand, &pl.n_hand, i)
        push_card(pl.discard, &pl.n_discard, MAX_DISCARD_CARDS, v)
        gs.turn.played_card = 1                       # 4.3.2: a card discarded
        gs.turn.mana_tokens[choice] += 1
        return RES_DONE
    if local == SK_UNIVERSAL_POWER:
        # Goldyx: add one mana to a non-Wound card played sideways: +bonus instead of +1, or
        # +matching_bonus for a Basic or Advanced Action or Spell of that mana's colour (gold:
        # any basic colour, 5.1.5).  Engine reading: the mana is of a basic colour or gold.
        # Stage 0: the card (ASK_HAND_CARD); stage 1: the payment code (ASK_OPTION, 5.4).
        if choice < 0:
            return ask(gs, row, 0, ASK_HAND_CARD, sideways_options(pl, es, False))
        if gs.turn.handler_stage == 0:
            gs.turn.hvars[0] = <int16_t>choice
            return ask(gs, row, 1, ASK_PAYMENT, mana_pay_options(gs))
        i = gs.turn.hvars[0]
        v = pay_colour(gs, choice)
        w = card_colour(es, pl.hand[i])
        d = card_deck(es, pl.hand[i])
        if v >= GOLD:
            v = w                                             # gold (or black as any colour)
        pay_take(gs, choice, v if v < GOLD else RED)
        return sideways_play(gs, es, row, pl, i, a[1] if (v == w and w < COLOURLESS
                                             and (d == DECK_BASIC or d == DECK_AA or d == DECK_SPELL)) else a[0])
    if local == SK_TAUNT:
        # Wolfhawk, Block phase: one enemy attack -reduce (not below 0; at 0 it counts as
        # blocked, LL-6.3.6), or +increase and that enemy's Armor armor_delta (min floor = 1;
        # not against Arcane Immunity, LL-6.7.1 - the attack part still applies).
        # Stage 0: the attack (ASK_OPTION slot * 3 + attack); stage 1: 0 = -reduce, 1 = +increase.
        if a[3] != 1:
            set_error(gs, ERR_ENEMY_EFFECT, OP_ENEMY_ARMOR, gs.turn.resolving_card)
            return RES_ERROR
        if choice < 0:
            return ask(gs, row, 0, ASK_OPTION, taunt_targets(gs, st))
        if gs.turn.handler_stage == 0:
            gs.turn.hvars[0] = <int16_t>choice
            return ask(gs, row, 1, ASK_OPTION, 3 if enemy_attack_value(gs, st, choice // 3, choice % 3) > 0 else 2)
        i = gs.turn.hvars[0] // 3
        w = gs.turn.hvars[0] % 3
        if choice == 0:
            v = enemy_attack_value(gs, st, i, w)
            gs.combat.enemies[i].attack_delta[w] -= <int8_t>(a[0] if a[0] < v else v)
        else:
            gs.combat.enemies[i].attack_delta[w] += <int8_t>a[1]
            if not enemy_ability(gs, st, i, AB_ARCANE_IMMUNITY):
                v = gs.combat.enemies[i].armor_delta + a[2]    # enemy_armor() keeps it >= 1
                gs.combat.enemies[i].armor_delta = <int8_t>(v if v > -100 else -100)
        return RES_DONE
    if local == SK_RESISTANCE_BREAK:
        # Tovak: one enemy gets Armor per_resistance for each resistance it has (min floor = 1,
        # kept by enemy_armor); not against Arcane Immunity (LL-6.7.1).  ASK_ENEMY if several.
        if a[1] != 1:
            set_error(gs, ERR_ENEMY_EFFECT, OP_ENEMY_ARMOR, gs.turn.resolving_card)
            return RES_ERROR
        options = resistance_targets(gs, st)
        if choice < 0:
            if options == 0:
                return RES_DONE
            if options & (options - 1):
                return ask(gs, row, 0, ASK_ENEMY, options)
            choice = 0
            while not ((options >> choice) & 1):
                choice += 1
        v = gs.combat.enemies[choice].armor_delta + a[0] * resistance_count(gs, st, choice)
        gs.combat.enemies[choice].armor_delta = <int8_t>(v if v > -100 else -100)
        return RES_DONE
    if local == SK_DEADLY_AIM:
        # Wolfhawk: the next Attack card played in this phase (sideways included) gets
        # +ranged_bonus in the Ranged and Siege phase, +melee_bonus in the Attack phase
        # (skill_pool_bonus / deadly_aim_bonus); lost when the phase ends.
        gs.turn.deadly_aim = <int8_t>(a[0] if gs.phase == PH_COMBAT_RANGED else a[1])
        gs.turn.deadly_aim_phase = gs.phase
        return RES_DONE
    if local == SK_LEADERSHIP:
        # Norowas: when activating a unit, +block to its Block, or +attack to its Attack, or
        # +ranged to its Ranged (not Siege) Attack: the next unit ability giving that gets it
        # (skill_pool_bonus).  ASK_OPTION 0 Block, 1 Attack, 2 Ranged (as the phase allows).
        options = leadership_options(gs, es)
        if choice < 0:
            if options & (options - 1):
                return ask(gs, row, 0, ASK_OPTION, options)
            choice = 0 if options == 1 else 2
        gs.turn.leadership_kind = <int8_t>(choice + 1)
        gs.turn.leadership_value = <int8_t>a[choice]
        return RES_DONE
    if local == SK_MOTIVATION:
        # 8.3.2: on any player's turn (here: during your own or just before it, 4.1.1): draw
        # `cards`; if you alone have the lowest Fame also `lowest_fame`.  No other Motivation
        # may be used until the end of your next turn: before your turn that is the turn about
        # to start (1 more turn end), during it the following one (2).
        draw_cards(gs, pl, a[0])
        pl.motivation_lock = 1 if gs.phase == PH_TURN_START else 2
        if alone_lowest_fame(gs, p):
            return push_eval(gs, a[1])
        return RES_DONE
    if local == SK_REROLL_SOURCE_DIE:
        # Source Opening (Goldyx, cooperative LL-7): you may reroll one Source die (not one
        # taken this turn).  ASK_DIE, ASK_DONE: none.
        if choice < 0:
            return ask(gs, row, 0, ASK_DIE, source_dice_left(gs) | ((<uint64_t>1) << ASK_DONE))
        if choice != ASK_DONE:
            gs.dice[choice] = <int8_t>rng_below(&gs.rng[<int>STREAM_SOURCE], 6)
        return RES_DONE
    if local == SK_COOPERATIVE:
        # LL-7.3: the owner's part now (`effect`); in a solo game the secondary effect
        # (`then`) is the owner's on the next turn only (LL-7.3.2, skills_turn_start).
        v = 0
        for i in range(MAX_SKILLS):                           # the token being used
            if pl.skills[i] >= 0 and SKILL_CARD_BASE - pl.skills[i] == gs.turn.resolving_card:
                v = i + 1
        if pl.coop_due == 2 and pl.coop_slot == v:
            coop_done(pl)                                     # taken back face down
            return push_eval(gs, a[1])
        coop_done(pl)                                         # one token in the centre at a time
        pl.coop_due = 1
        pl.coop_slot = <uint8_t>v
        return push_eval(gs, a[0])
    if local == SK_MARK_MANA:
        # Mana Overload (Tovak, cooperative LL-7): a mana token of a chosen non-gold colour
        # (5.3.1); the token in the centre is marked with that colour (overload_arm).
        if choice < 0:
            return ask(gs, row, 0, ASK_COLOUR, 0x2F)          # red blue white green black
        gs.turn.mana_tokens[choice] += 1
        pl.coop_mark = <uint8_t>(choice + 1)
        return RES_DONE
    if local == SK_FIRST_COMBAT_WEAKEN:
        return first_combat_weaken(gs, st, row, a, choice)
    if local == SK_OVERLOAD_BONUS:                # armed by overload_arm, never resolved
        set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
        return RES_ERROR
    if local == SK_SOURCE_OPENING_DIE:
        # Source Opening, secondary effect: use one more Source die of a basic colour (not
        # gold) this turn, beside the normal one; its owner (solo: the same player) gains a
        # crystal of that colour (5.3.2).  Engine reading: its mana is taken at once (a token
        # of this turn, 5.1.2) and the die goes back to be rerolled at the end of the turn
        # like any used die (the user's choice "reroll or not" is taken as reroll).
        if choice < 0:
            return ask(gs, row, 0, ASK_DIE, source_opening_dice(gs))
        v = gs.dice[choice]
        gs.dice_taken |= <uint8_t>(1 << choice)
        gs.turn.mana_tokens[v] += 1
        gain_crystal(pl, gs, v)
        return RES_DONE
    if local == SK_SOURCE_FREEZE:
        # Goldyx (interactive 8.2.2): put in the Source; other players cannot use their
        # normal die until your next turn (nobody with the dummy, which takes no dice: 18.4);
        # on your next turn a crystal of a basic colour shown in the Source (A_SKILL_CRYSTAL).
        pl.source_freeze = 1
        return RES_DONE
    if local == SK_HAWK_EYES:
        # Wolfhawk (with its Move 1): at Night exploring costs explore_discount less Move this
        # turn (9.8.3); by Day fortified garrisons up to reveal_distance away are revealed
        # this turn (9.10.1; again after every move, hawk_eyes_reveal).
        if gs.time == NIGHT:
            gs.turn.explore_discount = <int8_t>a[0]
        else:
            gs.turn.reveal_distance = <uint8_t>a[1]
            hawk_eyes_reveal(gs, es, p)
        return RES_DONE
    if local == SK_KNOW_YOUR_PREY:
        # Wolfhawk, in combat: one enemy (not Arcane Immunity, LL-6.7.1) loses one ability
        # (a resistance counts, LL-6.2.3), or one of its attacks loses an element: Fire / Ice
        # -> Physical, Cold Fire -> Fire or Ice; for the rest of the combat.
        # Stage 0: the enemy (ASK_ENEMY); stage 1: prey_options' bit (ASK_OPTION).
        if choice < 0:
            options = 0
            for i in range(gs.combat.n_enemies):
                if prey_options(gs, st, i) != 0:
                    options |= (<uint64_t>1) << i
            return ask(gs, row, 0, ASK_ENEMY, options)
        if gs.turn.handler_stage == 0:
            gs.turn.hvars[0] = <int16_t>choice
            return ask(gs, row, 1, ASK_OPTION, prey_options(gs, st, choice))
        i = gs.turn.hvars[0]
        if choice < PREY_RESISTANCE:
            gs.combat.enemies[i].lost_abilities |= <uint16_t>(1 << choice)
        elif choice < PREY_ELEMENT:
            gs.combat.enemies[i].lost_resistances |= <uint8_t>(1 << (choice - PREY_RESISTANCE))
        else:
            w = (choice - PREY_ELEMENT) // 2
            v = attack_element(gs, st, i, w)
            if v == COLDFIRE:
                v = ICE if (choice - PREY_ELEMENT) % 2 else FIRE
            else:
                v = PHYSICAL
            gs.combat.enemies[i].element_set[w] = <int8_t>(v + 1)
        return RES_DONE
    if local == SK_POLARIZATION:
        # Arythea: use one mana as its opposite colour (red <-> blue, white <-> green); by Day
        # black mana as any basic colour, but not to power a Spell (polar_nospell); at Night
        # gold as black (to power a Spell: black mana serves only that, 5.4.3).  Engine
        # reading: the mana (token, crystal, the turn's Source die, 5.5.2) is spent now and a
        # token of the new colour takes its place for this turn (5.1.2).
        # Stage 0: the payment code (ASK_PAYMENT); stage 1: the colour (ASK_COLOUR) if several.
        if choice < 0:
            return ask(gs, row, 0, ASK_PAYMENT, polar_sources(gs))
        if gs.turn.handler_stage == 0:
            v = pay_colour(gs, choice)
            w = polar_target_mask(gs, v)
            pay_take(gs, choice, v)
            if w & (w - 1):
                return ask(gs, row, 1, ASK_COLOUR, w)
            choice = 0
            while not ((w >> choice) & 1):
                choice += 1
            gs.turn.mana_tokens[choice] += 1
            return RES_DONE
        gs.turn.mana_tokens[choice] += 1                       # black by Day as `choice`
        gs.turn.polar_nospell = <int8_t>(choice + 1)
        return RES_DONE
    if local == SK_DUELING:
        # Wolfhawk, Block phase: Block `block` against one enemy (counted only in a block of
        # that enemy: add_block_extras) and Attack `attack` against it in the Attack phase
        # (duel_attack_add); Fame +fame if you defeat it without units blocking or attacking
        # it or taking its damage (duel_combat_end).  Engine reading: a unit ability counts
        # when it is in a pool committed against that enemy.  ASK_ENEMY if several.
        options = duel_targets(gs, st)
        if choice < 0:
            if options & (options - 1):
                return ask(gs, row, 0, ASK_ENEMY, options)
            choice = 0
            while not ((options >> choice) & 1):
                choice += 1
        gs.turn.duel_slot = <int8_t>(choice + 1)
        gs.turn.duel_block = <int8_t>a[0]
        gs.turn.duel_attack = <int8_t>a[1]
        gs.turn.duel_fame = <int8_t>a[2]
        gs.turn.duel_units = 0
        return RES_DONE
    if local == SK_FLIGHT:
        # Goldyx: fly to a space free_spaces away for free or far_spaces away for far_move
        # Move; it must be safe (9.7.1); rampaging enemies are not provoked (9.4.3 does not
        # apply).  ASK_OPTION: option k = flight_options' k-th space.
        if choice < 0:
            return ask(gs, row, 0, ASK_OPTION, flight_options(gs, es, st, p, a, NULL))
        flight_options(gs, es, st, p, a, dest)
        i = dest[choice]
        if axial_distance(gs.hexes[pl.position].q, gs.hexes[pl.position].r,
                          gs.hexes[i].q, gs.hexes[i].r) != a[0]:
            gs.turn.move_points -= a[2]
        pl.position = <int16_t>i
        if gs.turn.n_path < MAX_PATH:
            gs.turn.path[gs.turn.n_path] = <int16_t>i
            gs.turn.n_path += 1
        gs.turn.moved = 1
        hawk_eyes_reveal(gs, es, p)
        return RES_DONE
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR


cdef bint skills_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                         int local, PendingCheck* c) noexcept nogil:
    """Bounds of a pending skill question (pending_check, _engine.pyx)."""
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[p]
    cdef int stage = gs.turn.handler_stage
    if local == SK_POWER_OF_PAIN or local == SK_I_DONT_GIVE_A_DAMN or local == SK_WOLFS_HOWL:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_HAND_CARD)
    if local == SK_WHO_NEEDS_MAGIC or local == SK_INVOCATION or local == SK_UNIVERSAL_POWER:
        # stage 1: hvars[0] = the hand card
        if pc_stage(c, gs, 1):
            return True
        if stage == 0:
            return pc_asks(c, ASK_HAND_CARD)
        if pc_hvar(c, gs, 0, 0, pl.n_hand - 1):
            return True
        if local == SK_WHO_NEEDS_MAGIC:
            return pc_asks(c, ASK_OPTION, 2)
        return pc_asks(c, ASK_COLOUR) if local == SK_INVOCATION else pc_asks(c, ASK_PAYMENT)
    if local == SK_ON_HER_OWN:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, 2)
    if local == SK_HEALING_RITUAL:                      # option = Wounds thrown away
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_NUMBER, a[0] + 1 if a[0] < ASK_DONE - 1 else ASK_DONE)
    if local == SK_MANA_EXPLOIT:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_COLOUR)
    if local == SK_TAUNT:                               # enemy slot * 3 + attack; stage 1: in hvars[0]
        if pc_stage(c, gs, 1):
            return True
        if stage == 0:
            return pc_asks(c, ASK_OPTION, ASK_DONE) or pc_enemy_attack_options(c, gs)
        return pc_enemy_attack(c, gs, PF_HVAR, gs.turn.hvars[0]) or pc_asks(c, ASK_OPTION, 2)
    if local == SK_RESISTANCE_BREAK or local == SK_DUELING:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY)
    if local == SK_LEADERSHIP:                          # option = a[option]: 0 .. 2
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, 3)
    if local == SK_REROLL_SOURCE_DIE:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_DIE, -1, True)
    if local == SK_SOURCE_OPENING_DIE:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_DIE)
    if local == SK_KNOW_YOUR_PREY:                      # stage 1: hvars[0] = the enemy
        if pc_stage(c, gs, 1):
            return True
        if stage == 0:
            return pc_asks(c, ASK_ENEMY)
        return pc_enemy_slot(c, gs, 0) or pc_asks(c, ASK_OPTION, PREY_ELEMENT + 6)
    if local == SK_POLARIZATION:
        if pc_stage(c, gs, 1):
            return True
        return pc_asks(c, ASK_PAYMENT) if stage == 0 else pc_asks(c, ASK_COLOUR)
    if local == SK_FLIGHT:                              # option k = the k-th space flight_options finds
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, ASK_DONE) \
            or pc_subset(c, gs, flight_options(gs, es, st, p, a, NULL))
    if local == SK_MARK_MANA:                           # Mana Overload: a non-gold colour
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_COLOUR) or pc_subset(c, gs, 0x2F)
    if local == SK_THROW_AWAY_WOUNDS:                   # Ritual of Pain: min .. (Wounds in hand, max)
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_NUMBER, ASK_DONE) \
            or pc_subset(c, gs, wound_number_options(gs, es, pl, a))
    if local == SK_FIRST_COMBAT_WEAKEN:                 # stage 0: the enemy; 1: slot * 3 + attack
        if pc_stage(c, gs, 1):
            return True
        if stage == 0:
            return pc_asks(c, ASK_ENEMY) or pc_subset(c, gs, weaken_armor_targets(gs, st))
        return pc_asks(c, ASK_OPTION, ASK_DONE) or pc_subset(c, gs, weaken_attack_targets(gs, st))
    c.ask = -1
    return False


cdef uint64_t wound_number_options(const GameState* gs, const EngineStatics* es, const Player* pl,
                                   const int32_t* a) noexcept nogil:
    """The numbers of Wounds Ritual of Pain may throw away now (its ASK_NUMBER options)."""
    cdef int v = hand_wounds(pl, es)
    if v > a[1]:
        v = a[1]
    if v < a[0]:
        return 0
    return ((<uint64_t>1) << (v + 1)) - ((<uint64_t>1) << a[0])
