# cython: language_level=3
"""Invariants of a game state (issue 3's property checks), read straight from the C struct.

:func:`violations` lists every broken invariant of a :class:`mksim._state.GameCore` in
words; an empty list means the state is sound.  Each check cites the rule it guards.
Card conservation (:func:`deed_count`) counts the non-Wound Deed cards in every zone of the
game; it needs the count at the start of the game, so :func:`violations` does not check it
and ``mksim._policies.play_checked`` checks it after every action (code ``V_CONSERVATION``).
"""
from mksim._types cimport (
    GameState, Player, MAX_DECK_CARDS, MAX_HAND_CARDS, MAX_DISCARD_CARDS, MAX_PLAY_CARDS, MAX_DUMMY_CARDS, MAX_UNITS, MAX_COMBAT_ENEMIES, MAX_DICE,
    NUM_COLOURS, MAX_PLAYERS, MAX_HEXES, MAX_OFFER, MAX_DECK, MAX_MODS, NUM_MOD_KINDS,
)
from mksim._modifiers cimport mod_live_of
from libc.stdint cimport int16_t
from mksim._state cimport GameCore

# One code per check; the words are in CHECKS.
cdef enum:
    V_CRYSTALS = 0             # 5.1.3: 0..3 crystals per colour
    V_FAME = 1                 # Fame never negative (20)
    V_REPUTATION = 2           # 10.3: the track's spaces (reputation.toml: -7 .. +8)
    V_LEVEL = 3                # 13.6: levels 1..10
    V_ZONES = 4                # deck / hand / discard / play area sizes within their capacities (MAX_*_CARDS)
    V_UNIT_WOUNDS = 5          # 11.7.9: a unit is wounded at most twice (Poison)
    V_UNITS_HELD = 6           # 7.2.1: no more Units than Command tokens
    V_MOVE = 7                 # 9.3.2: Move points never negative
    V_HEALING = 8              # 12.3.3: Healing points never negative
    V_MANA_TOKENS = 9          # 5.1.2: mana tokens never negative
    V_DUMMY_CRYSTALS = 10      # 18.4.4: the dummy's crystals never negative
    V_DICE = 11                # 5.5.1: players + 2 Source dice (+1 at most), each a mana colour
    V_COMBAT = 12              # 11: enemy slots within bounds, pools never negative
    V_POSITION = 13            # 9.3: the hero stands on a hex of the map or off it (-1)
    V_UNIT_READY = 14          # 7.2.2: a unit is Ready or Spent (0/1)
    V_MOD_LIVE = 15            # issue 12: TurnState.mod_live is exactly the kinds of the live modifiers
    N_CHECKS = 16

# Compile-time check: TurnState.mod_live (uint64_t) has one bit per modifier kind, so a kind
# appended past 63 makes this array's size negative and the C compiler stops the build.
cdef char _mod_kinds_fit_mod_live[65 - NUM_MOD_KINDS]

CHECKS = (
    "crystals outside 0..3 (5.1.3)", "negative Fame", "reputation off the track (10.3)",
    "level outside 1..10 (13.6)", "a card zone outside 0..its capacity (MAX_*_CARDS)",
    "a unit with more than 2 wounds (11.7.9)", "more Units than Command tokens (7.2.1)",
    "negative Move points (9.3.2)", "negative Healing points (12.3.3)",
    "negative mana tokens (5.1.2)", "negative dummy crystals (18.4.4)",
    "Source dice count or colour wrong (5.5.1; dice kept by Mana Steal / Mana Claim count)", "combat slots or pools out of range (11)",
    "hero position off the map (9.3)", "unit neither Ready nor Spent (7.2.2)",
    "the live-kinds mask turn.mod_live differs from the kinds of turn.mods[:n_mods] (issue 12)",
)

#: Code of a failed card conservation (play_checked; not one of the N_CHECKS state checks).
V_CONSERVATION_CODE = V_CONSERVATION
#: Words of the checks play_checked adds to CHECKS (indexed by code).
LOOP_CHECKS = {
    V_CONSERVATION: "cards not conserved: the Deed cards in all zones + those thrown away differ from the start (6.1)",
    V_TWO_ACTIONS: "two actions in one turn (4.4.5)",
    V_PLAYER_CONSERVATION: "a player's cards not conserved: the Deed cards in the zones of a player who was "
                           "not deciding (+ those they threw away, - those taken from other heroes) changed (6.1, 6.4; Mind Steal 19.7.1)",
}


cdef inline int note(int* codes, int n, int max_codes, int code) noexcept nogil:
    if n < max_codes:
        codes[n] = code
    return n + 1


cdef int count_violations(const GameState* gs, int* codes, int max_codes) noexcept nogil:
    """Write the code of each broken invariant into ``codes`` (at most ``max_codes``);
    return how many were found."""
    cdef int n = 0, p, c, u, held, k, e
    cdef const Player* pl
    for p in range(gs.n_players):
        pl = &gs.players[p]
        for c in range(4):
            if pl.crystals[c] < 0 or pl.crystals[c] > 3:
                n = note(codes, n, max_codes, V_CRYSTALS)
        if pl.fame < 0:
            n = note(codes, n, max_codes, V_FAME)
        if pl.reputation < -7 or pl.reputation > 8:
            n = note(codes, n, max_codes, V_REPUTATION)
        if pl.level < 1 or pl.level > 10:
            n = note(codes, n, max_codes, V_LEVEL)
        if not (0 <= pl.n_deck <= MAX_DECK_CARDS and 0 <= pl.n_hand <= MAX_HAND_CARDS
                and 0 <= pl.n_discard <= MAX_DISCARD_CARDS and 0 <= pl.n_play <= MAX_PLAY_CARDS):
            n = note(codes, n, max_codes, V_ZONES)
        held = 0
        for u in range(MAX_UNITS):
            if pl.units[u].card >= 0:
                # a unit under the Bonds of Loyalty token or holding the Banner of Command
                # (BF_COMMAND = 128, LL-5.1) takes no Command token
                if not (pl.bonds_slot == u + 1 or (pl.units[u].banner >= 0 and pl.banner_fx[u] & 128)):
                    held += 1
                if pl.units[u].wounds > 2:
                    n = note(codes, n, max_codes, V_UNIT_WOUNDS)
                if pl.units[u].ready > 1:
                    n = note(codes, n, max_codes, V_UNIT_READY)
        if held > pl.command_tokens:
            n = note(codes, n, max_codes, V_UNITS_HELD)
        if pl.position < -1 or pl.position >= gs.n_hexes:
            n = note(codes, n, max_codes, V_POSITION)
    if gs.turn.move_points < 0:
        n = note(codes, n, max_codes, V_MOVE)
    if gs.turn.healing < 0:
        n = note(codes, n, max_codes, V_HEALING)
    for c in range(NUM_COLOURS):
        if gs.turn.mana_tokens[c] < 0:
            n = note(codes, n, max_codes, V_MANA_TOKENS)
    if gs.has_dummy:
        for c in range(4):
            if gs.dummy.crystals[c] < 0:
                n = note(codes, n, max_codes, V_DUMMY_CRYSTALS)
    # dice kept on a tactic or spell card are out of the Source, not lost (Mana Steal 3.2,
    # Mana Claim); a used Mana Steal die returns at the end of the turn
    held = gs.n_dice + (gs.turn.stolen_used != 0)
    for p in range(gs.n_players):
        held += (gs.players[p].stolen_die >= 0) + (gs.players[p].claimed_die > 0)
    if held < gs.n_players + 2 or held > gs.n_players + 3 or gs.n_dice > MAX_DICE:
        n = note(codes, n, max_codes, V_DICE)
    else:
        for k in range(gs.n_dice):
            if gs.dice[k] < 0 or gs.dice[k] >= NUM_COLOURS:
                n = note(codes, n, max_codes, V_DICE)
    if gs.combat.active:
        if gs.combat.n_enemies < 0 or gs.combat.n_enemies > MAX_COMBAT_ENEMIES:
            n = note(codes, n, max_codes, V_COMBAT)
        for k in range(3):
            for e in range(4):
                if gs.combat.attack[k][e] < 0:
                    n = note(codes, n, max_codes, V_COMBAT)
        for e in range(4):
            if gs.combat.block[e] < 0:
                n = note(codes, n, max_codes, V_COMBAT)
    if gs.turn.n_mods < 0 or gs.turn.n_mods > MAX_MODS or gs.turn.mod_live != mod_live_of(&gs.turn):
        n = note(codes, n, max_codes, V_MOD_LIVE)
    return n


cdef inline int count_zone(const int16_t* cards, int n, int cap, int wound) noexcept nogil:
    cdef int i, k = 0
    if n > cap:
        n = cap
    for i in range(n):
        if cards[i] >= 0 and cards[i] != wound:
            k += 1
    return k


cdef int count_deeds(const GameState* gs, int wound) noexcept nogil:
    """Non-Wound Deed cards (6.1.1) in every zone of the game, plus those thrown away
    (Player.removed): the number card conservation keeps constant.  Zones: each hero's deck,
    hand, discard pile, play area, cards under Sparing Power (3.2), set aside by Time Bending
    (LL-9.6.4) and Banners on Units (7.5); the dummy's deck and discard pile (18); the AA and
    Spell offers and decks, the Artifact deck, monastery AAs in the Unit offer (2.2.4) and the
    Artifacts drawn for a reward (13.5.2).  Wounds come from an unlimited pile (1.2.4) and
    are not counted."""
    cdef int n = 0, p, k
    for p in range(gs.n_players):
        n += player_deed_balance(gs, p, wound)
    if gs.has_dummy:
        n += count_zone(gs.dummy.deck, gs.dummy.n_deck, MAX_DUMMY_CARDS, wound)
        n += count_zone(gs.dummy.discard, gs.dummy.n_discard, MAX_DUMMY_CARDS, wound)
    n += count_zone(gs.aa_offer, 3, 3, wound)
    n += count_zone(gs.spell_offer, 3, 3, wound)
    n += count_zone(gs.aa_deck, gs.n_aa_deck, MAX_DECK, wound)
    n += count_zone(gs.spell_deck, gs.n_spell_deck, MAX_DECK, wound)
    n += count_zone(gs.artifact_deck, gs.n_artifact_deck, MAX_DECK, wound)
    n += count_zone(gs.turn.reward_cards, gs.turn.n_reward_cards, 6, wound)
    for k in range(gs.n_unit_offer if gs.n_unit_offer <= MAX_OFFER else MAX_OFFER):
        if gs.unit_offer[k] < 0:                 # -(card + 1): an AA from a monastery
            n += 1
    return n


cdef int player_deed_balance(const GameState* gs, int p, int wound) noexcept nogil:
    """Per-player card conservation (issue 12): player p's non-Wound Deed cards in their own
    zones (deck, hand, discard pile, play area, under Sparing Power, set aside, Banners on
    Units) plus those they threw away, less the net number taken from other heroes
    (Player.cards_taken: Mind Steal, 19.7.1, moves a card from one hero's discard pile to
    the caster's hand and counts it on both).  It may change only by cards that pass between
    the player and the shared zones (offers, decks) during that player's own decisions
    (play_checked checks that the other players' counts never change).  (PlayerStats.cards_gained, a results-store statistic,
    is not used: it counts gains only, not the cards thrown away.)"""
    cdef int n = 0, u
    cdef const Player* pl = &gs.players[p]
    n += count_zone(pl.deck, pl.n_deck, MAX_DECK_CARDS, wound)
    n += count_zone(pl.hand, pl.n_hand, MAX_HAND_CARDS, wound)
    n += count_zone(pl.discard, pl.n_discard, MAX_DISCARD_CARDS, wound)
    n += count_zone(pl.play_area, pl.n_play, MAX_PLAY_CARDS, wound)
    n += count_zone(pl.tactic_cards, pl.n_tactic_cards, 8, wound)
    n += count_zone(pl.set_aside, pl.n_set_aside, 4, wound)
    for u in range(MAX_UNITS):
        if pl.units[u].card >= 0 and pl.units[u].banner >= 0:
            n += 1
    n += pl.removed
    n -= pl.cards_taken
    return n


def player_balance(GameCore core, int p, int wound):
    """:func:`player_deed_balance` of seat ``p`` (tests)."""
    if p < 0 or p >= core.gs.n_players:
        raise IndexError(f"player {p} is not in the game")
    return player_deed_balance(&core.gs, p, wound)


def deed_count(GameCore core, int wound):
    """:func:`count_deeds` of ``core``'s state (``wound`` = card index of the Wound)."""
    return count_deeds(&core.gs, wound)


def violations(GameCore core):
    """The broken invariants of ``core``'s state, in words (empty list: none)."""
    cdef int codes[64]
    cdef int n = count_violations(&core.gs, codes, 64)
    return [CHECKS[codes[i]] for i in range(min(n, 64))]


def n_checks():
    """How many invariants :func:`violations` checks."""
    return N_CHECKS if sizeof(_mod_kinds_fit_mod_live) else 0     # (the array must be compiled)
