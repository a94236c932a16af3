# cython: language_level=3
"""Accessors of the Python face: the core read, scored, copied and set up without ``to_dict()``.

Nothing here decides (the policies are ``mksim._policies``): :func:`core_info`,
:func:`outcome_numbers` and :func:`combat_enemies` read a :class:`mksim._state.GameCore`;
:func:`final_score` scores it by the scenario's rule (``ext/_scoring.pyx``);
:func:`clone_engine` / :func:`engine_core` copy and unwrap an :class:`mksim._engine.Engine`;
:func:`fill_stats`, :func:`fill_rounds` and :func:`fill_game` copy the counters the engine
kept into the results store's buffers; :func:`set_forced_tactics` and
:func:`set_restrictions` set an experiment's arm; :func:`view_numbers` is the policy view
(``ext/_view.pxd``) as plain integers.  Moved here from ``_policies`` (issue 12, layering).
"""
from libc.string cimport memcpy
from libc.stdint cimport uint64_t, uint32_t, int32_t, int8_t

from mksim._types cimport (GameState, MAX_PLAYERS, Player, PlayerStats, RoundStats, MAX_ROUNDS,
                           NUM_SITE_KINDS, MAX_UNITS, DECK_AA, DECK_SPELL, DECK_ARTIFACT, DECK_WOUND,
                           Hex, Unit)
from mksim._state cimport GameCore
from mksim._engine cimport (
    Engine, ASK_NONE, ASK_HAND_CARD, ASK_COLOUR, ASK_DIE, ASK_YES_NO, ASK_OFFER, ASK_NUMBER,
    ASK_DECK_CARD, ASK_OPTION, ASK_DISCARD_CARD, ASK_ENEMY, ASK_UNIT, ASK_PAYMENT,
)
from mksim._scoring cimport first_recon_score, solo_score, cities_conquered, achievement_scores, competitive_scores
from mksim._view cimport (
    view_n_players, view_seat, view_seat_position, view_final_turns,
    view_actor, view_player, view_phase, view_round, view_time, view_hand_size, view_hand_card,
    view_deck_size, view_discard_size, view_discard_card, view_fame, view_position, view_crystals,
    view_mana_tokens, view_move, view_influence, view_attack, view_block, view_unit, view_n_hexes,
    view_hex, view_token_enemy, view_ruins,
)

#: What a pending handler decision picks (TurnState.ask; codes from ext/_engine.pxd).
ASK_NAMES = {
    ASK_NONE: "none", ASK_HAND_CARD: "hand_card", ASK_COLOUR: "colour", ASK_DIE: "die",
    ASK_YES_NO: "yes_no", ASK_OFFER: "offer", ASK_NUMBER: "number",
    ASK_DECK_CARD: "deck_card", ASK_OPTION: "option", ASK_DISCARD_CARD: "discard_card",
    ASK_ENEMY: "enemy",
    ASK_UNIT: "unit", ASK_PAYMENT: "payment",
}

#: Actor id of the dummy player in ``turn_player`` / ``end_announced_by`` (18).
DUMMY_ACTOR = MAX_PLAYERS


# ---------------------------------------------------------------------------------------
# State accessors for the Python face
# ---------------------------------------------------------------------------------------

def core_info(GameCore core):
    """The few numbers a runner or a log needs, without building ``to_dict()``.

    Returns
    -------
    dict
        round, time (0 day / 1 night), phase, current, turn_player (``DUMMY_ACTOR`` for the
        dummy), termination, steps, error, fame / level / position / move_points of player
        0, hand / deck sizes, the dummy's deck / discard sizes, end_announced_by, and the
        pending decision (pending_choice row, handler_row, ask, ask_options, resolving_card).
    """
    cdef GameState* gs = &core.gs
    return {
        "round": gs.round, "time": gs.time, "phase": gs.phase, "current": gs.current,
        "turn_player": gs.turn_player, "termination": gs.termination, "steps": gs.steps,
        "error": gs.error, "fame": gs.players[0].fame, "level": gs.players[0].level,
        "position": gs.players[0].position, "move_points": gs.turn.move_points,
        "n_hand": gs.players[0].n_hand, "n_deck": gs.players[0].n_deck,
        "dummy_deck": gs.dummy.n_deck if gs.has_dummy else -1,
        "dummy_discard": gs.dummy.n_discard if gs.has_dummy else -1,
        "end_announced_by": gs.end_announced_by,
        "pending_choice": gs.turn.pending_choice, "handler_row": gs.turn.handler_row,
        "ask": gs.turn.ask, "ask_options": gs.turn.ask_options,
        "resolving_card": gs.turn.resolving_card, "n_tiles": gs.n_tiles,
        "n_players": gs.n_players,
    }


def outcome_numbers(GameCore core):
    """(termination, fame of player 0, steps, round) straight from the state."""
    cdef GameState* gs = &core.gs
    return gs.termination, gs.players[0].fame, gs.steps, gs.round


def seat_scores(GameCore core, bint titles):
    """Each seat's final score in a competitive game (17.3.1, 20.1-20.3): a list of
    (score, title points) per player, seat order; see ``_scoring.competitive_scores``."""
    cdef GameState* gs = &core.gs
    cdef int out[MAX_PLAYERS]
    cdef int tit[MAX_PLAYERS]
    cdef int p
    competitive_scores(gs, &core.st, 1 if titles else 0, out, tit)
    return [(out[p], tit[p]) for p in range(gs.n_players)]


def seat_fame(GameCore core):
    """Fame of every seat, seat order."""
    cdef int p
    return [core.gs.players[p].fame for p in range(core.gs.n_players)]


def final_score(GameCore core, str scoring, int rounds, int cities_total):
    """Score of player 0 by the scenario's scoring rule.

    Parameters
    ----------
    scoring : str
        ``"first_reconnaissance"`` (17.3.1: Fame + standard achievements, no titles) or
        ``"solo_conquest"`` (20.5: adds cities, rounds left, the dummy's deck, the End of
        the Round bonus).  Anything else gives None.
    rounds : int
        The scenario's round limit (14.2), for "rounds left unplayed" (20.5.2).
    cities_total : int
        Cities in the scenario (20.5.2 "+15 if all cities were conquered").

    Notes
    -----
    20.5.2 "+5 if the End of the Round had not been announced in the final round" is read
    from ``end_announced_by`` of the final state (any announcement, by the player or the
    dummy, counts as announced).
    """
    cdef GameState* gs = &core.gs
    cdef int left
    if scoring == "first_reconnaissance":
        return first_recon_score(gs, &core.st, 0)
    if scoring == "solo_conquest":
        left = rounds - gs.round if gs.termination == 1 else 0   # TERM_SCENARIO_WON: ended early
        return solo_score(gs, &core.st, 0, cities_total, cities_conquered(gs, &core.st),
                          left if left > 0 else 0, 1 if gs.end_announced_by >= 0 else 0)
    return None


def clone_engine(Engine eng, content, scenario_id):
    """An independent copy of ``eng`` and of the game it runs.

    ``Engine.__init__`` always runs its round-1 setup (``_begin``: skill stacks, tactic
    display), which would change a mid-game state.  So the copy is built around a copied
    core (``GameCore.copy``) by the ordinary constructor, and then the original state is
    written back over the copy (one memcpy of ``GameState``), undoing ``_begin``.  The copy
    shares the original's bound tables (Engine's ``template``), so it costs the copy and
    the per-game start of ``_begin``.
    """
    cdef GameCore core = eng.core.copy()
    cdef Engine new = Engine(core, eng.tables, content, scenario_id, eng)   # shares the bound tables
    memcpy(&core.gs, &eng.core.gs, sizeof(GameState))
    return new


def engine_core(Engine eng):
    """The GameCore an engine runs on."""
    return eng.core


def combat_enemies(GameCore core):
    """Enemies of the combat in progress: a list of (slot, enemy content index, flags)
    (``CE_*`` bits of ext/_types.pxd); empty when no combat is active."""
    cdef GameState* gs = &core.gs
    cdef int i
    if not gs.combat.active:
        return []
    return [(i, gs.combat.enemies[i].enemy, gs.combat.enemies[i].flags) for i in range(gs.combat.n_enemies)]


# ---------------------------------------------------------------------------------------
# Results store (mksim.results): the counters the engine keeps in Player.stats
# ---------------------------------------------------------------------------------------

#: Order of the numbers :func:`fill_stats` writes (mksim.results names its columns so).
STATS_FIELDS = (
    "fame", "level", "reputation", "rounds", "turns", "decisions", "combats",
    "defeated_green", "defeated_grey", "defeated_violet", "defeated_brown", "defeated_red",
    "defeated_white", "knockouts", "wounds_taken", "wounds_held", "units_recruited", "units_held",
    "gained_aa", "gained_spell", "gained_artifact", "crystals", "mana_used", "deeds",
    "ach_knowledge", "ach_loot", "ach_leader", "ach_conqueror", "ach_adventurer", "ach_beating",
    "forced_missed", "restriction_forced",
)
#: Order of the numbers :func:`fill_rounds` writes for each round.
ROUND_FIELDS = ("fame", "level", "wounds", "deeds", "units", "crystals", "tactic")
STATS_MAX_ROUNDS = MAX_ROUNDS
STATS_SITE_KINDS = NUM_SITE_KINDS


cdef int _stats_into(GameCore core, int p, int32_t* out, int32_t* tactics, int32_t* sites) except -1:
    """Player ``p``'s numbers of the game into ``out`` (``STATS_FIELDS`` order), the tactic of
    each round (content index + 1, 0 = none) into ``tactics`` and the sites conquered per site
    kind into ``sites``: plain C stores, no Python object per game."""
    cdef GameState* gs = &core.gs
    cdef Player* pl = &gs.players[p]
    cdef const PlayerStats* s = &pl.stats
    cdef int i, wounds = 0, units = 0, wound = -1
    cdef int ach[6]
    for i in range(core.st.cards.rows):
        if core.st.cards.data[i * core.st.cards.width + core.st.cols.card_deck] == DECK_WOUND:
            wound = i
            break
    for i in range(pl.n_deck):
        wounds += pl.deck[i] == wound
    for i in range(pl.n_hand):
        wounds += pl.hand[i] == wound
    for i in range(pl.n_discard):
        wounds += pl.discard[i] == wound
    for i in range(pl.n_play):
        wounds += pl.play_area[i] == wound
    for i in range(MAX_UNITS):
        units += pl.units[i].card >= 0
    achievement_scores(gs, &core.st, p, ach)
    out[0] = pl.fame
    out[1] = pl.level
    out[2] = pl.reputation
    out[3] = gs.round
    out[4] = s.turns
    out[5] = gs.steps
    out[6] = s.combats
    for i in range(6):
        out[7 + i] = s.defeated[i]
    out[13] = s.knockouts
    out[14] = s.wounds_taken
    out[15] = wounds
    out[16] = s.units_recruited
    out[17] = units
    out[18] = s.cards_gained[DECK_AA]
    out[19] = s.cards_gained[DECK_SPELL]
    out[20] = s.cards_gained[DECK_ARTIFACT]
    out[21] = pl.crystals[0] + pl.crystals[1] + pl.crystals[2] + pl.crystals[3]
    out[22] = s.mana_used
    out[23] = pl.n_deck + pl.n_hand + pl.n_discard + pl.n_play + pl.n_tactic_cards + pl.n_set_aside
    for i in range(6):
        out[24 + i] = ach[i]
    out[30] = s.forced_missed
    out[31] = s.restriction_forced
    for i in range(MAX_ROUNDS):
        tactics[i] = s.rounds[i].tactic
    for i in range(NUM_SITE_KINDS):
        sites[i] = s.conquered[i]
    return 0


cdef int _rounds_into(GameCore core, int p, int32_t* out, Py_ssize_t stride) noexcept:
    """Player ``p``'s numbers at each round's end, one row of ``stride`` int32 per round
    played (``ROUND_FIELDS`` order); returns the rows written."""
    cdef const PlayerStats* s = &core.gs.players[p].stats
    cdef const RoundStats* r
    cdef int i
    for i in range(s.n_rounds):
        r = &s.rounds[i]
        out[i * stride + 0] = r.fame
        out[i * stride + 1] = r.level
        out[i * stride + 2] = r.wounds
        out[i * stride + 3] = r.deeds
        out[i * stride + 4] = r.units
        out[i * stride + 5] = r.crystals
        out[i * stride + 6] = r.tactic
    return s.n_rounds


def fill_stats(GameCore core, int p, int32_t[::1] out, int32_t[::1] tactics, int32_t[::1] sites):
    """Write player ``p``'s numbers of the game (``STATS_FIELDS`` order) into ``out``, the
    tactic taken each round (content index + 1, 0 = none; ``MAX_ROUNDS`` entries) into
    ``tactics`` and the sites conquered per site kind (``NUM_SITE_KINDS``) into ``sites``.
    Everything is read from the state (counters the engine kept while playing), never by
    replaying the game."""
    if p < 0 or p >= core.gs.n_players or out.shape[0] < len(STATS_FIELDS) \
            or tactics.shape[0] < MAX_ROUNDS or sites.shape[0] < NUM_SITE_KINDS:
        raise ValueError("fill_stats: bad player or buffer sizes")
    _stats_into(core, p, &out[0], &tactics[0], &sites[0])


def fill_rounds(GameCore core, int p, int32_t[:, ::1] out):
    """Write player ``p``'s numbers at each round's end (``ROUND_FIELDS`` order, one row per
    round played) into ``out`` (at least ``MAX_ROUNDS`` rows); returns the rows written."""
    if p < 0 or p >= core.gs.n_players or out.shape[0] < MAX_ROUNDS or out.shape[1] < 7:
        raise ValueError("fill_rounds: bad player or buffer sizes")
    return _rounds_into(core, p, &out[0, 0], out.shape[1])


def fill_game(GameCore core, int p, int row, int32_t[:, ::1] stats, int32_t[:, ::1] tactics,
              int32_t[:, ::1] sites, int32_t[:, ::1] rounds, Py_ssize_t at):
    """:func:`fill_stats` into row ``row`` of ``stats`` / ``tactics`` / ``sites`` and
    :func:`fill_rounds` into rows ``at ..`` of ``rounds``, in one call (the runner's per-game
    record: no slices, tuples or Python numbers per game).  Returns the rounds written."""
    if p < 0 or p >= core.gs.n_players or not 0 <= row < stats.shape[0] \
            or stats.shape[1] < len(STATS_FIELDS) or tactics.shape[0] <= row or tactics.shape[1] < MAX_ROUNDS \
            or sites.shape[0] <= row or sites.shape[1] < NUM_SITE_KINDS \
            or at < 0 or at + MAX_ROUNDS > rounds.shape[0] or rounds.shape[1] < 7:
        raise ValueError("fill_game: bad player, row or buffer sizes")
    _stats_into(core, p, &stats[row, 0], &tactics[row, 0], &sites[row, 0])
    return _rounds_into(core, p, &rounds[at, 0], rounds.shape[1])


def set_forced_tactics(GameCore core, forced):
    """Experiment arms: ``forced`` maps round (1-based) to the tactic content index the
    player must take in that round when it is on offer (``GameState.forced_tactic``)."""
    cdef int i
    for i in range(MAX_ROUNDS):
        core.gs.forced_tactic[i] = 0
    for r, t in forced.items():
        if not 1 <= r <= MAX_ROUNDS:
            raise ValueError(f"forced tactic round {r} is outside 1..{MAX_ROUNDS}")
        core.gs.forced_tactic[r - 1] = <int8_t>(t + 1)
    core.version += 1          # the cached legal list is stale (a forced tactic is the only one listed)
# The policy view (ext/_view.pxd; mksim.policies.view.PolicyView wraps this dict)
# ---------------------------------------------------------------------------------------

def view_numbers(GameCore core):
    """What the acting player sees, as plain integers, read through the ``ext/_view.pxd``
    accessors (so the C and Python views are one surface).  Hidden zones appear only as
    sizes; face-down tokens as -1.  See docs/policies.md for the keys."""
    cdef const GameState* gs = &core.gs
    cdef const Player* pl = view_player(gs)
    cdef const Hex* hx
    cdef const Unit* u
    cdef int i, k, h
    hexes = []
    for h in range(view_n_hexes(gs)):
        hx = view_hex(gs, h)
        hexes.append({
            "index": h, "q": hx.q, "r": hx.r, "terrain": hx.terrain, "site": hx.site,
            "owner": hx.owner, "flags": hx.flags, "city_level": hx.city_level,
            "tokens": [view_token_enemy(gs, h, k) for k in range(hx.n_tokens)],
            "ruins": view_ruins(gs, h),
        })
    units = []
    for i in range(6):
        u = view_unit(gs, i)
        if u.card >= 0:
            units.append({"slot": i, "unit": u.card, "ready": bool(u.ready), "wounds": u.wounds,
                          "banner": u.banner})
    return {
        "actor": view_actor(gs), "phase": view_phase(gs), "round": view_round(gs),
        "time": view_time(gs), "turn_player": gs.turn_player, "hero": pl.hero,
        "hand": [view_hand_card(gs, i) for i in range(view_hand_size(gs))],
        "deck_size": view_deck_size(gs),
        "deck_known_top": [pl.deck[pl.n_deck - 1 - i] for i in range(min(pl.deck_known_top, pl.n_deck))],
        "discard": [view_discard_card(gs, i) for i in range(view_discard_size(gs))],
        "play_area": [pl.play_area[i] for i in range(pl.n_play)],
        "units": units, "skills": [pl.skills[i] for i in range(8) if pl.skills[i] >= 0],
        "crystals": [view_crystals(gs, i) for i in range(4)],
        "mana_tokens": [view_mana_tokens(gs, i) for i in range(6)],
        "move": view_move(gs), "influence": view_influence(gs), "healing": gs.turn.healing,
        "attack": [[view_attack(gs, k, i) for i in range(4)] for k in range(3)],
        "block": [view_block(gs, i) for i in range(4)],
        "position": view_position(gs), "fame": view_fame(gs), "level": pl.level,
        "reputation": pl.reputation, "tactic": pl.tactic,
        "hexes": hexes,
        "dice": [gs.dice[i] for i in range(gs.n_dice)], "dice_taken": gs.dice_taken,
        "unit_offer": [gs.unit_offer[i] for i in range(gs.n_unit_offer)],
        "aa_offer": [gs.aa_offer[i] for i in range(3)],
        "spell_offer": [gs.spell_offer[i] for i in range(3)],
        "skill_offer": [gs.skill_offer[i] for i in range(gs.n_skill_offer)],
        "tile_stack_size": gs.n_tile_stack,
        "in_combat": bool(gs.combat.active),
        "combat_enemies": [(i, gs.combat.enemies[i].enemy, gs.combat.enemies[i].flags)
                           for i in range(gs.combat.n_enemies)] if gs.combat.active else [],
        "ask": gs.turn.ask, "ask_options": gs.turn.ask_options,
        "end_announced_by": gs.end_announced_by,
        "dummy_deck_size": gs.dummy.n_deck if gs.has_dummy else -1,
        "dummy_discard": [gs.dummy.discard[i] for i in range(gs.dummy.n_discard)] if gs.has_dummy else [],
        "final_turns_left": view_final_turns(gs),
        "heroes": [_seat_public(gs, k) for k in range(view_n_players(gs))],
    }


cdef dict _seat_public(const GameState* gs, int k):
    """What every player sees of seat k (several heroes): never its hand's or deck's cards."""
    cdef const Player* q = view_seat(gs, k)
    cdef int i
    return {"seat": k, "hero": q.hero, "position": view_seat_position(gs, k), "fame": q.fame,
            "level": q.level, "reputation": q.reputation, "hand_size": q.n_hand, "deck_size": q.n_deck,
            "discard": [q.discard[i] for i in range(q.n_discard)],
            "units": [q.units[i].card for i in range(6) if q.units[i].card >= 0],
            "crystals": [q.crystals[i] for i in range(4)]}


def set_restrictions(GameCore core, cards=(), skills=(), units=(), sites=()):
    """Restricted play (an experiment arm; Jaffe et al. 2012): forbid the player the Deed
    cards, skills, Units and site kinds given as content indices (rows of ``tables.card_ids``,
    ``tables.skill_ids``, ``tables.unit_ids``; positions in ``content.SITE_IDS``).  The
    engine's legal-action listing then leaves out every action using one of them wherever
    another option remains (``GameState.forbid_*``; docs/experiments.md).  Empty lists
    lift every restriction."""
    cdef GameState* gs = &core.gs
    cdef int i
    lists = (("card", cards, 64 * 4), ("skill", skills, 64 * 2), ("unit", units, 64 * 2),
             ("site kind", sites, 32))
    for what, values, cap in lists:
        for v in values:
            if type(v) is not int or not 0 <= v < cap:
                raise ValueError(f"set_restrictions: {what} index {v!r} is outside 0..{cap - 1}")
    for i in range(4):
        gs.forbid_cards[i] = 0
    for i in range(2):
        gs.forbid_skills[i] = 0
        gs.forbid_units[i] = 0
    gs.forbid_sites = 0
    for v in cards:
        gs.forbid_cards[v >> 6] |= (<uint64_t>1) << (v & 63)
    for v in skills:
        gs.forbid_skills[v >> 6] |= (<uint64_t>1) << (v & 63)
    for v in units:
        gs.forbid_units[v >> 6] |= (<uint64_t>1) << (v & 63)
    for v in sites:
        gs.forbid_sites |= (<uint32_t>1) << v
    gs.restricted = 1 if (cards or skills or units or sites) else 0
    core.version += 1          # the cached legal list is stale
