# Named effect handlers of the Unit cards (units.toml; also the spells and the Advanced
# Action that share them: Expose, Mist Form, Force of Nature) and the units' special rules
# hooks (Thugs, Heroes, Magic Familiars, Delphana Masters: LL-4), included into
# ext/_engine.pyx.  Protocol: see "Handler protocol" in _engine.pyx.  UNITS_HANDLERS lists
# (name, declared argument names) in handler-code order.
#
# Rules: 7.3 (activation), 11.4.4 (effects on enemies in any combat phase), LL-6.7 (Arcane
# Immunity ignores effects on the enemy), the unit card texts (units.csv), LL-4.2-LL-4.6.
# Who resolves is known from gs.turn.resolving_card (UNIT_CARD_BASE - (unit * 8 + slot)).

from mksim._types cimport (CEU_NO_RESISTANCES, CEU_DESTROY_IF_BLOCKED, CE_NO_FORTIFICATION, COLDFIRE,
                           SIEGE, NUM_PILES)
from mksim._combat cimport (fortification_level, all_attacks_blocked, attack_element, defeat_enemy,
                            assign_to_unit, AB_POISON, AB_PARALYZE, RES_PHYSICAL, RES_FIRE, RES_ICE)

UNITS_HANDLERS = (
    ("wound_this_unit", ()),
    ("heroes_influence", ("n", "reputation")),
    ("other_units_attack_bonus", ("bonus",)),
    ("altem_mages_coldfire", ("n", "bonus_per_mana")),
    ("attacks_become_coldfire", ()),
    ("attacks_become_siege", ()),
    ("units_gain_all_resistances", ()),
    ("unit_gain_resistance", ("resistance", "units")),
    ("enemy_lose_fortification", ("target",)),
    ("enemy_lose_resistances", ("target",)),
    ("enemy_lose_fortification_and_resistances", ("target",)),
    ("unfortified_enemy_no_attack", ("target",)),
    ("amotep_freeze", ("armor_delta", "floor")),
    ("destroy_if_blocked", ("target",)),
    ("shocktroops_weaken", ("armor_delta", "attack_delta")),
    ("shocktroops_draw_fire", ("reduce",)),
    ("familiars_boost", ("colour", "base", "boosted")),
    ("scouts_reconnaissance", ("distance", "fame")),
    ("scouts_explore_range", ("distance",)),
)

cdef enum UnitsHandler:
    U_WOUND_THIS_UNIT = 0
    U_HEROES_INFLUENCE = 1
    U_OTHER_UNITS_BONUS = 2
    U_ALTEM_COLDFIRE = 3
    U_BECOME_COLDFIRE = 4
    U_BECOME_SIEGE = 5
    U_ALL_RESISTANCES = 6
    U_GAIN_RESISTANCE = 7
    U_LOSE_FORTIFICATION = 8
    U_LOSE_RESISTANCES = 9
    U_LOSE_BOTH = 10
    U_UNFORTIFIED_NO_ATTACK = 11
    U_AMOTEP_FREEZE = 12
    U_DESTROY_IF_BLOCKED = 13
    U_SHOCK_WEAKEN = 14
    U_SHOCK_DRAW_FIRE = 15
    U_FAMILIARS_BOOST = 16
    U_SCOUTS_RECON = 17
    U_SCOUTS_EXPLORE = 18

cdef enum SpecialUnit:         # UnitRules.special: a unit's special rules (units.toml special_rules)
    SU_NONE = 0
    SU_THUGS = 1               # LL-4.2.1, LL-4.3.1
    SU_HEROES = 2              # LL-4.2.2, LL-4.3.2
    SU_FAMILIARS = 3           # LL-4.5
    SU_DELPHANA = 4            # LL-4.4
    SU_UNKNOWN = 9             # special_rules the engine does not know: ERR_UNIT_RULES

# A_PAY_UNIT, A_UPKEEP: the table of action kinds (mksim/actions.py), via ext/_engine.pxd

cdef enum:
    UNIT_PAY_PRICE = 2         # LL-4.3.4: Influence per unit per combat
    RECON_HEX_OPTIONS = 57     # ASK_OPTION 6.. 62: face-down tokens on the map (0-5: enemy piles)

SPECIAL_UNIT_CODES = {"thugs": SU_THUGS, "hero_blue": SU_HEROES, "hero_red": SU_HEROES,
                      "hero_green": SU_HEROES, "hero_white": SU_HEROES,
                      "magic_familiars": SU_FAMILIARS, "delphana_masters": SU_DELPHANA}


# -- small helpers ----------------------------------------------------------------------

cdef inline int resolving_unit_slot(const GameState* gs) noexcept nogil:
    """Slot of the unit whose ability resolves, -1 if a card / skill / tactic resolves."""
    cdef int rc = gs.turn.resolving_card, slot
    if not unit_resolving(rc):
        return -1
    slot = (UNIT_CARD_BASE - rc) & 7
    return slot if slot < MAX_UNITS_ else -1      # 7: an offer Unit used by Call to Arms


cdef inline bint called_to_arms(const GameState* gs) noexcept nogil:
    """Call to Arms resolves an ability of a Unit in the offer (slot code 7): it is not
    one of the player's Units (the card: no damage can be assigned to it)."""
    return unit_resolving(gs.turn.resolving_card) and ((UNIT_CARD_BASE - gs.turn.resolving_card) & 7) == 7


cdef inline int unit_special(const EngineStatics* es, int unit) noexcept nogil:
    return es.units.special[unit] if unit >= 0 else SU_NONE


cdef inline int units_attack_bonus(const GameState* gs) noexcept nogil:
    """Shocktroops (coordinated fire): + bonus to an attack of a unit other than the giver,
    once per giver, this turn."""
    cdef int slot = resolving_unit_slot(gs), k, n = 0
    if slot < 0 or gs.turn.attack_bonus_givers == 0:
        return 0
    for k in range(8):                            # bit 7: Shocktroops used by Call to Arms
        if k != slot and (gs.turn.attack_bonus_givers >> k) & 1:
            n += 1
    return n * gs.turn.unit_attack_bonus


cdef inline int enemy_resistances(const GameState* gs, const Statics* st, int slot) noexcept nogil:
    """RES_* bits of the enemy now: none after Sorcerers / Expose / Delphana Masters."""
    if gs.combat.enemies[slot].unit_fx & CEU_NO_RESISTANCES:
        return 0
    return st.enemies.data[gs.combat.enemies[slot].enemy * st.enemies.width + st.cols.enemy_resistances]


cdef uint64_t unit_enemy_targets(const GameState* gs, const EngineStatics* es, int local) noexcept nogil:
    """Enemies an enemy-targeted unit effect may act on now (enemy_effect_ok: in the combat,
    not Arcane Immune LL-6.7.1, 11.4.2 for a card's colour), narrowed per effect:
    Illusionists an unfortified enemy; Amotep Freezers not an Ice-resistant one; Delphana
    Masters' destroy an enemy with an attack that can still be blocked (or is blocked)."""
    cdef const Statics* st = es.st
    cdef int colour = resolving_colour(gs, es), s
    cdef uint64_t o = 0
    for s in range(gs.combat.n_enemies):
        if s >= ASK_DONE or not enemy_effect_ok(gs, st, s, colour):
            continue
        if local == U_UNFORTIFIED_NO_ATTACK and fortification_level(gs, st, s) > 0:
            continue
        if local == U_AMOTEP_FREEZE and enemy_resistances(gs, st, s) & RES_ICE:
            continue
        if local == U_DESTROY_IF_BLOCKED:
            if enemy_n_attacks(gs, st, s) == 0:
                continue
            if gs.phase != PH_COMBAT_RANGED and gs.phase != PH_COMBAT_BLOCK and not all_attacks_blocked(gs, st, s):
                continue
        o |= (<uint64_t>1) << s
    return o


cdef void unit_enemy_effect(GameState* gs, const EngineStatics* es, const int32_t* a, int local, int s) noexcept nogil:
    """One enemy-targeted effect on the enemy in slot s."""
    cdef CombatEnemy* e = &gs.combat.enemies[s]
    cdef int d
    if local == U_LOSE_FORTIFICATION or local == U_LOSE_BOTH:
        e.flags |= CE_NO_FORTIFICATION                             # 11.4.3 / 11.10
    if local == U_LOSE_RESISTANCES or local == U_LOSE_BOTH:
        e.unit_fx |= CEU_NO_RESISTANCES                            # 11.9.2: none left
    if local == U_UNFORTIFIED_NO_ATTACK:
        e.flags |= CE_NO_ATTACK                                    # Illusionists
    if local == U_AMOTEP_FREEZE:
        e.flags |= CE_NO_ATTACK                                    # Amotep Freezers
        d = e.armor_delta + a[0]                                   # min 1: armor_in_phase
        e.armor_delta = <int8_t>(d if d > -100 else -100)
    if local == U_DESTROY_IF_BLOCKED:
        e.unit_fx |= CEU_DESTROY_IF_BLOCKED
        units_check_destroy(gs, es.st)                             # blocked already: now


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


cdef uint64_t units_without_res(const GameState* gs, int res_bit) noexcept nogil:
    cdef const Player* pl = &gs.players[gs.current]
    cdef uint64_t o = 0
    cdef int i
    for i in range(MAX_UNITS_):
        if pl.units[i].card >= 0 and not ((pl.units[i].gained_res | pl.units[i].gained_res >> 3) & res_bit):
            o |= (<uint64_t>1) << i
    return o


cdef int recon_options(const GameState* gs, const Statics* st, int distance, int16_t* tokens) noexcept nogil:
    """Scouts: tokens that may be looked at - the top token of each enemy pile (option =
    pile) and face-down tokens on spaces within `distance` (options 6..): writes the token
    of each option to tokens[] (-1 = none) and returns the number of options."""
    cdef const Player* pl = &gs.players[gs.current]
    cdef int k, h, t, n = NUM_PILES
    for k in range(NUM_PILES):
        tokens[k] = gs.piles[k][gs.n_pile[k] - 1] if gs.n_pile[k] > 0 else -1
    if pl.position < 0:
        return n
    for h in range(gs.n_hexes):
        if gs.hexes[h].n_tokens == 0 or gs.hexes[h].flags & HEX_TOKENS_REVEALED:
            continue
        if is_rampaging(gs, st, h) or hex_distance(gs, pl.position, h) > distance:
            continue                                               # rampaging tokens lie face up
        for t in range(gs.hexes[h].n_tokens):
            if n < NUM_PILES + RECON_HEX_OPTIONS:
                tokens[n] = gs.hexes[h].tokens[t]
                n += 1
    return n


# -- the group ------------------------------------------------------------------------------

cdef bint units_playable(const GameState* gs, const EngineStatics* es, int row, int local) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef const Player* pl = &gs.players[gs.current]
    cdef int16_t tokens[NUM_PILES + RECON_HEX_OPTIONS]
    cdef int k, n
    if local == U_WOUND_THIS_UNIT:
        return special_now(gs)
    if local == U_HEROES_INFLUENCE:
        return gs.phase == PH_INTERACT or units_need_influence(gs, es)   # 10.2.2, LL-4.3.4
    if local == U_OTHER_UNITS_BONUS or local == U_ALL_RESISTANCES:
        return special_now(gs)
    if local == U_ALTEM_COLDFIRE:
        return gs.phase == PH_COMBAT_BLOCK or gs.phase == PH_COMBAT_ATTACK \
            or (gs.phase == PH_COMBAT_RANGED and gs.turn.attacks_siege)   # a melee Attack (11.5.2)
    if local == U_BECOME_COLDFIRE or local == U_BECOME_SIEGE:
        return gs.combat.active != 0 and (gs.phase == PH_COMBAT_RANGED or gs.phase == PH_COMBAT_BLOCK
                                          or gs.phase == PH_COMBAT_ATTACK or gs.phase == PH_COMBAT_DAMAGE)
    if local == U_GAIN_RESISTANCE:
        # Force of Nature: "this combat" (cards.csv #297) states its duration (6.3.2), so the
        # effect exists only inside a combat: outside one it is not offered.
        return gs.combat.active != 0 and special_now(gs) and units_without_res(gs, 1 << a[0]) != 0
    if local >= U_LOSE_FORTIFICATION and local <= U_DESTROY_IF_BLOCKED:
        return gs.combat.active != 0 and unit_enemy_targets(gs, es, local) != 0
    if local == U_SHOCK_WEAKEN:
        return gs.combat.active != 0 and unit_enemy_targets(gs, es, local) != 0
    if local == U_SHOCK_DRAW_FIRE:
        return gs.turn.draw_fire_slot == 0 and reducible_attacks(gs, es.st, 0) != 0
    if local == U_FAMILIARS_BOOST:
        return node_playable(gs, es, a[1])                         # base and boosted alike
    if local == U_SCOUTS_RECON:
        if not special_now(gs) or gs.turn.recon_token != 0:
            return False
        n = recon_options(gs, es.st, a[0], tokens)
        for k in range(n):
            if tokens[k] >= 0:
                return True
        return False
    if local == U_SCOUTS_EXPLORE:
        return gs.phase == PH_MOVE and not gs.turn.action_taken   # LL-4.6.1
    return False


cdef int units_handler(GameState* gs, const EngineStatics* es, const Statics* st,
                       int p, int row, int local, int choice) noexcept nogil:
    cdef const int32_t* a = row_args(es, row)
    cdef Player* pl = &gs.players[p]
    cdef int16_t tokens[NUM_PILES + RECON_HEX_OPTIONS]
    cdef uint64_t options = 0
    cdef int slot = resolving_unit_slot(gs), s, i, k, n, v
    if local == U_WOUND_THIS_UNIT:
        # Utem Swordsmen: after Attack or Block 6 the unit becomes Wounded (12.2).  An
        # unflipped Banner of Fortitude on it ignores that wound and is flipped (LL-5.2).
        # Through Call to Arms the unit stays in the offer and is not the player's: it
        # cannot be wounded (the card: no damage can be assigned to it).
        if called_to_arms(gs):
            return RES_DONE
        if slot < 0:
            set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
            return RES_ERROR
        if pl.units[slot].banner >= 0 and pl.banner_fx[slot] & BF_FORTITUDE \
                and not ((pl.banner_flipped >> slot) & 1):
            pl.banner_flipped |= <uint8_t>(1 << slot)             # LL-5.2: once a round
            return RES_DONE
        pl.units[slot].wounds = 1
        return RES_DONE
    if local == U_HEROES_INFLUENCE:
        # Heroes: Influence n, and Reputation +reputation if used during an interaction
        # (10.4; not at a glade, LL-4.5.2, nor for a combat payment, LL-4.3.4).
        gs.turn.influence += a[0]
        if gs.phase == PH_INTERACT and not gs.turn.glade_recruit:
            change_reputation(pl, a[1])
        return RES_DONE
    if local == U_OTHER_UNITS_BONUS:
        # Shocktroops (coordinated fire): your other units' attacks get +bonus this turn
        # (through Call to Arms, bit 7: all of your units are "other").
        if called_to_arms(gs):
            slot = 7
        if slot < 0:
            set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
            return RES_ERROR
        gs.turn.attack_bonus_givers |= <uint8_t>(1 << slot)
        gs.turn.unit_attack_bonus = <int8_t>a[0]
        return RES_DONE
    if local == U_ALTEM_COLDFIRE:
        # Altem Mages: Cold Fire Attack or Cold Fire Block n (whichever the phase allows:
        # melee Attack in the Attack phase, Block in the Block phase), +bonus_per_mana for
        # blue and for red mana also paid (5 / 7 / 9).  Stage 0: pay blue (ASK_PAYMENT,
        # ASK_DONE = no), stage 1: pay red.  hvars[0] = value.
        if choice < 0:
            gs.turn.hvars[0] = <int16_t>a[0]
            gs.turn.handler_stage = -1
        elif choice != ASK_DONE:
            pay_take(gs, choice, BLUE if gs.turn.handler_stage == 0 else RED)   # 5.4.4
            gs.turn.hvars[0] += a[1]
        k = gs.turn.handler_stage + 1
        while k < 2:
            options = pay_options(gs, BLUE if k == 0 else RED)
            if options != 0:
                return ask(gs, row, k, ASK_PAYMENT, options | ((<uint64_t>1) << ASK_DONE))
            k += 1
        v = gs.turn.hvars[0] + unit_heat_bonus(gs)
        if gs.phase == PH_COMBAT_BLOCK:
            gs.combat.block[<int>COLDFIRE] += v
        else:
            gs.combat.attack[<int>MELEE][<int>COLDFIRE] += v + units_attack_bonus(gs)
        return RES_DONE
    if local == U_BECOME_COLDFIRE:
        gs.turn.attacks_coldfire = 1                               # Altem Mages (counted by attack_value)
        return RES_DONE
    if local == U_BECOME_SIEGE:
        gs.turn.attacks_siege = 1
        return RES_DONE
    if local == U_ALL_RESISTANCES:
        # Altem Guardians / Mist Form (Veil of Mist): all your units gain physical, fire and
        # ice resistance this turn (11.7.5).
        for i in range(MAX_UNITS_):
            if pl.units[i].card >= 0:
                pl.units[i].gained_res |= RES_PHYSICAL | RES_FIRE | RES_ICE
        return RES_DONE
    if local == U_GAIN_RESISTANCE:
        # Force of Nature: one chosen unit (ASK_UNIT) gains the resistance this combat (bits
        # << 3 of gained_res, cleared by units_combat_end).
        if a[1] != 1:
            set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
            return RES_ERROR
        options = units_without_res(gs, 1 << a[0])
        if choice < 0:
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_UNIT, options)
        pl.units[choice].gained_res |= <uint8_t>((1 << a[0]) << 3)
        return RES_DONE
    if local >= U_LOSE_FORTIFICATION and local <= U_DESTROY_IF_BLOCKED:
        # Sorcerers, Expose, Delphana Masters, Illusionists, Amotep Freezers: target=one - the
        # player picks the enemy (ASK_ENEMY; one candidate: no question); target=all - every
        # enemy it can act on.  Arcane Immune enemies are not affected (LL-6.7.1).
        if local == U_AMOTEP_FREEZE and a[1] != 1:
            set_error(gs, ERR_ENEMY_EFFECT, erow(es, row)[1], gs.turn.resolving_card)
            return RES_ERROR
        options = unit_enemy_targets(gs, es, local)
        if choice >= 0:
            unit_enemy_effect(gs, es, a, local, choice)
            return RES_DONE
        if local != U_AMOTEP_FREEZE and a[0] == 1:
            for s in range(gs.combat.n_enemies):
                if (options >> s) & 1:
                    unit_enemy_effect(gs, es, a, local, s)
            return RES_DONE
        if options == 0:
            return RES_DONE                                        # nothing it can act on
        s = single_option(options)
        if s >= 0:
            unit_enemy_effect(gs, es, a, local, s)
            return RES_DONE
        return ask(gs, row, 0, ASK_ENEMY, options)
    if local == U_SHOCK_WEAKEN:
        # Shocktroops: one enemy gets Armor armor_delta (min 1) and one of its attacks
        # attack_delta (min 0; an attack reduced to 0 counts as blocked, LL-6.3.6).  Stage 0:
        # the enemy (ASK_ENEMY), stage 1: which of its live attacks (ASK_NUMBER).  hvars[0] = slot.
        if choice < 0 or gs.turn.handler_stage == 0:
            if choice < 0:
                options = unit_enemy_targets(gs, es, local)
                choice = single_option(options)
                if choice < 0:
                    if options == 0:
                        return RES_DONE
                    return ask(gs, row, 0, ASK_ENEMY, options)
            s = choice
            k = gs.combat.enemies[s].armor_delta + a[0]
            gs.combat.enemies[s].armor_delta = <int8_t>(k if k > -100 else -100)
            gs.turn.hvars[0] = <int16_t>s
            options = 0
            for i in range(enemy_n_attacks(gs, st, s)):
                if attack_is_live(gs, st, s, i) and enemy_attack_value(gs, st, s, i) > 0:
                    options |= (<uint64_t>1) << i
            if options == 0:
                return RES_DONE
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 1, ASK_NUMBER, options)
        s = gs.turn.hvars[0]
        v = enemy_attack_value(gs, st, s, choice)
        k = -a[1] if -a[1] < v else v
        gs.combat.enemies[s].attack_delta[choice] -= <int8_t>k
        return RES_DONE
    if local == U_SHOCK_DRAW_FIRE:
        # Shocktroops: in the Block phase one enemy attack is reduced by `reduce` (min 0);
        # its damage must be assigned to this unit first, even against Assassination
        # (legal_combat / units_damage_unit).  ASK_OPTION = slot * 3 + attack.
        if slot < 0:
            set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
            return RES_ERROR
        if choice < 0:
            options = reducible_attacks(gs, st, 0)
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_OPTION, options)
        s = choice // 3
        i = choice % 3
        v = enemy_attack_value(gs, st, s, i)
        gs.combat.enemies[s].attack_delta[i] -= <int8_t>(a[0] if a[0] < v else v)
        gs.turn.draw_fire_slot = <int8_t>(s + 1)
        gs.turn.draw_fire_attack = <int8_t>i
        gs.turn.draw_fire_unit = <int8_t>slot
        return RES_DONE
    if local == U_FAMILIARS_BOOST:
        # Magic Familiars: the boosted effect when the mana kept on the card (LL-4.5.4) is of
        # `colour`, else the base effect.
        if slot >= 0 and pl.units[slot].upkeep == a[0] + 1:
            return push_eval(gs, a[2])
        return push_eval(gs, a[1])
    if local == U_SCOUTS_RECON:
        # Scouts: look at the top token of an enemy pile (options 0-5) or a face-down token
        # within `distance` spaces (options 6..); +fame Fame if that enemy is defeated this
        # turn (units_combat_end).  All information is open to the simulated player, so
        # looking changes nothing else.
        n = recon_options(gs, st, a[0], tokens)
        if choice < 0:
            for k in range(n):
                if tokens[k] >= 0:
                    options |= (<uint64_t>1) << k
            choice = single_option(options)
            if choice < 0:
                return ask(gs, row, 0, ASK_OPTION, options)
        if choice >= n or tokens[choice] < 0:
            set_error(gs, ERR_ILLEGAL, 0, gs.turn.resolving_card)
            return RES_ERROR
        gs.turn.recon_token = <int16_t>(tokens[choice] + 1)
        gs.turn.recon_fame = <int8_t>a[1]
        return RES_DONE
    if local == U_SCOUTS_EXPLORE:
        # Scouts: this turn tiles may be revealed `distance` spaces away (9.8, LL-4.6.1).
        if a[0] > gs.turn.explore_range:
            gs.turn.explore_range = <int8_t>a[0]
        return RES_DONE
    set_error(gs, ERR_HANDLER, erow(es, row)[1], gs.turn.resolving_card)
    return RES_ERROR


# -- hooks called by the loop ----------------------------------------------------------------

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
    gs.turn.attacks_coldfire = 0
    gs.turn.attacks_siege = 0
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
    if gs.phase != PH_TACTICS or slot >= MAX_UNITS_ or pl.units[slot].card < 0 or not pl.units[slot].upkeep_due:
        return ERR_ILLEGAL
    if c >= 4 or (c >= 0 and pl.crystals[c] <= 0):
        return ERR_ILLEGAL
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
    if arg >= MAX_UNITS_ or gs.turn.influence < UNIT_PAY_PRICE:
        return ERR_ILLEGAL
    u = &gs.players[gs.current].units[arg]
    if not unit_needs_payment(gs, es, u):
        return ERR_ILLEGAL
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
    if gs.phase == PH_COMBAT_RANGED and gs.turn.attacks_siege and n < MAX_ACTIONS:
        out[n] = act(A_SIDEWAYS, i | (2 << 7))
        n += 1
    return n


cdef bint draw_fire_pending(const GameState* gs, const EngineStatics* es) noexcept nogil:
    """Shocktroops: the attack being assigned must hit that unit first, while it can take
    damage (unwounded, not resisted yet, Units allowed; Assassination does not stop it)."""
    cdef const Unit* u
    cdef const Combat* c = &gs.combat
    if gs.turn.draw_fire_slot == 0 or c.dmg_slot != gs.turn.draw_fire_slot - 1 \
            or c.dmg_attack != gs.turn.draw_fire_attack or not c.units_allowed or gs.turn.no_unit_damage:
        return False
    u = &gs.players[gs.current].units[gs.turn.draw_fire_unit]
    return u.card >= 0 and u.wounds == 0 and not u.damaged_this_combat


cdef int units_damage_unit(GameState* gs, const EngineStatics* es, const Statics* st, int slot) noexcept nogil:
    """A_DAMAGE_UNIT with the units' rules: the Shocktroops' drawn attack goes to it first
    (even vs Assassination), Thugs only once paid (LL-4.3.1)."""
    cdef Combat* c = &gs.combat
    cdef int r, s
    if slot < 0 or slot >= MAX_UNITS_:
        return ERR_ILLEGAL
    if draw_fire_pending(gs, es):
        if slot != gs.turn.draw_fire_unit:
            return ERR_ILLEGAL
        gs.turn.draw_fire_slot = 0
        s = c.dmg_slot
        r = assign_to_unit(gs, st, gs.current, slot, c.dmg_left, attack_element(gs, st, s, c.dmg_attack),
                           1 if enemy_ability(gs, st, s, AB_POISON) else 0,
                           1 if enemy_ability(gs, st, s, AB_PARALYZE) else 0)
        if r < 0:
            return ERR_ILLEGAL
        c.dmg_left = <int16_t>r
        if r == 0:
            damage_to_hero(gs, st)                                 # nothing left: the attack is done
        return ERR_NONE
    if not unit_can_take_damage(gs, es, st, slot):
        return ERR_ILLEGAL
    r = damage_to_unit(gs, st, slot)
    return ERR_NONE if r >= 0 else ERR_ILLEGAL


cdef int units_explorable_far(const GameState* gs, const Statics* st, int h, int* pos, int m) noexcept nogil:
    """Scouts: positions explorable from a space next to the hero's (distance 2, LL-4.6.1),
    added to the m found from the hero's own space (at most MAX_EXPLORABLE in all)."""
    cdef int more[2 * MAX_EXPLORABLE]
    cdef int d, nb, k, j, q
    cdef bint seen
    if gs.turn.explore_range < 2 or m < 0:
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
    if gs.turn.explore_range < 2 or h < 0:
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


cdef bint units_pending(const GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                        int local, PendingCheck* c) noexcept nogil:
    """Bounds of a pending Unit-ability question (pending_check, _engine.pyx)."""
    if local == U_ALTEM_COLDFIRE:                       # stage 0: pay blue, 1: pay red
        return pc_stage(c, gs, 1) or pc_asks(c, ASK_PAYMENT, -1, True)
    if local == U_GAIN_RESISTANCE:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_UNIT)
    if local >= U_LOSE_FORTIFICATION and local <= U_DESTROY_IF_BLOCKED and local != U_SHOCK_WEAKEN \
            and local != U_SHOCK_DRAW_FIRE:
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_ENEMY)
    if local == U_SHOCK_WEAKEN:                         # stage 1: hvars[0] = the enemy, option = its attack
        if pc_stage(c, gs, 1):
            return True
        if gs.turn.handler_stage == 0:
            return pc_asks(c, ASK_ENEMY)
        return pc_enemy_slot(c, gs, 0) or pc_asks(c, ASK_NUMBER, 3)
    if local == U_SHOCK_DRAW_FIRE:                      # option: enemy slot * 3 + attack
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, ASK_DONE) or pc_enemy_attack_options(c, gs)
    if local == U_SCOUTS_RECON:                         # the handler checks its option itself
        return pc_stage(c, gs, 0) or pc_asks(c, ASK_OPTION, ASK_DONE)
    c.ask = -1
    return False
