# cython: language_level=3
"""The game core: one GameState struct plus the static content tables, and game setup.

Scope: setup of a solo game (one hero and the dummy player) or of 2-4 heroes (a scenario's
``multiplayer`` entry, 17.2), rules 1.2, 1.3, 1.4 and 18.1.  ``GameCore.new(...)`` seeds the NUM_STREAMS random streams from (seed, game_index)
and fills the struct with C code (see ``_state.pxd`` for the split between the Python
preparation and the C setup).  ``to_dict()`` describes the state in plain Python.
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport int32_t, int16_t, int8_t, uint8_t, uint16_t, uint32_t, uint64_t

import numpy as np

from mksim._types cimport (
    GameState, Hex, Tile, Player, Dummy, Unit, TurnState, Modifier, CombatEnemy, Combat, RoundStats, PlayerStats, deeds_rng,
    MAX_PLAYERS, MAX_DECK_CARDS, MAX_HAND_CARDS, MAX_DISCARD_CARDS, MAX_PLAY_CARDS, MAX_DUMMY_CARDS, MAX_UNITS, MAX_SKILLS, MAX_TILES, MAX_HEXES, MAX_TOKENS,
    MAX_PILE, MAX_DICE, MAX_OFFER, MAX_DECK, MAX_COMBAT_ENEMIES, NUM_PILES,
    RED, BLUE, WHITE, GREEN, GOLD, BLACK, NUM_COLOURS, DAY, NIGHT, PH_TACTICS, TERM_NONE,
    HEX_TOKENS_REVEALED, HEX_RUINS_REVEALED,
)
from mksim._rng cimport (Rng, NUM_STREAMS, rng_seed, rng_below, rng_shuffle_int, rng_shuffle_i16, rng_shuffle_i8,
                         STREAM_MAP, STREAM_ENEMIES, STREAM_DEEDS, STREAM_SOURCE,
                         STREAM_DUMMY, STREAM_OFFERS)
from mksim._hexmap cimport HEX_DIRS, TILE_OFFSETS, lattice_to_axial
from mksim._modifiers cimport mod_live_sync

from mksim import words as _ct          # content word lists (not the content loader)
from mksim._rng import check_seed
from mksim import effects as _fx

# Word lists (orders fixed by mksim.content / mksim.effects and mirrored in _types.pxd).
PHASE_NAMES = ("tactics", "turn_start", "move", "action", "combat_ranged", "combat_block",
               "combat_damage", "combat_attack", "interact", "rest", "end_turn", "game_over")
TERMINATION_NAMES = ("none", "scenario_won", "round_limit", "step_limit")
HEX_FLAG_NAMES = ("conquered", "burned", "tokens_revealed", "ruins_revealed")

cdef enum:
    DECK_SIZE = 16             # starting Deed deck (1.3.4)
    DUMMY_CRYSTALS = 3         # dots on the hero card (18.1.3)
    # card deck codes (mksim.tables.DECK_TYPES)
    DECK_AA = 1
    DECK_SPELL = 2
    DECK_ARTIFACT = 3
    # tile kinds (content.TILE_KINDS)
    TILE_COUNTRYSIDE = 1
    TILE_CORE = 2
    TILE_CITY = 3
    # enemy pile colours (content.ENEMY_COLOURS)
    PILE_GREEN = 0
    PILE_GREY = 1
    PILE_VIOLET = 2
    PILE_RED = 4
    # unit tiers (content.UNIT_TIERS)
    TIER_REGULAR = 0
    TIER_ELITE = 1
    # ruins pile capacity (GameState.ruins_pile)
    MAX_RUINS = 16


# ---------------------------------------------------------------------------------------
# C helpers
# ---------------------------------------------------------------------------------------

cdef inline int32_t tv(const Table* t, int row, int col) noexcept nogil:
    return t.data[row * t.width + col]


cdef inline bint allowed(int expansion, int lost_legion) noexcept nogil:
    return expansion == 0 or lost_legion != 0


cdef inline void shuffle16(Rng* rng, int16_t* items, int n) noexcept nogil:
    rng_shuffle_i16(rng, items, n)


cdef inline void shuffle8(Rng* rng, int8_t* items, int n) noexcept nogil:
    rng_shuffle_i8(rng, items, n)


cdef int fill_card_deck(int16_t* deck, const Statics* st, int deck_kind, int lost_legion,
                        bint drop_interactive) noexcept nogil:
    """Card indices of one deck (AA / spell / artifact), one entry per card; -1 = too many."""
    cdef int i, n = 0
    cdef const Table* t = &st.cards
    for i in range(t.rows):
        if tv(t, i, st.cols.card_deck) != deck_kind:
            continue
        if not allowed(tv(t, i, st.cols.card_expansion), lost_legion):
            continue
        if drop_interactive and tv(t, i, st.cols.card_interactive) != 0:
            continue  # 17.3.4, 19.7.1: interactive Spells leave the Solo Conquest deck
        if n >= MAX_DECK:
            return -1
        deck[n] = <int16_t>i
        n += 1
    return n


cdef int fill_unit_deck(int16_t* deck, const Statics* st, int tier, int lost_legion) noexcept nogil:
    """Unit indices of the Regular or Elite deck, one entry per copy (1.2.8); -1 = too many."""
    cdef int i, k, n = 0
    cdef const Table* t = &st.units
    for i in range(t.rows):
        if tv(t, i, st.cols.unit_tier) != tier or not allowed(tv(t, i, st.cols.unit_expansion), lost_legion):
            continue
        for k in range(tv(t, i, st.cols.unit_copies)):
            if n >= MAX_DECK:
                return -1
            deck[n] = <int16_t>i
            n += 1
    return n


cdef int draw_token(GameState* gs, int colour) noexcept nogil:
    """Top token instance of a colour pile, -1 if none (1.2.2: an empty pile is refilled
    by shuffling its discards)."""
    cdef int k
    if gs.n_pile[colour] == 0 and gs.n_pile_discard[colour] > 0:
        for k in range(gs.n_pile_discard[colour]):
            gs.piles[colour][k] = gs.pile_discard[colour][k]
        gs.n_pile[colour] = gs.n_pile_discard[colour]
        gs.n_pile_discard[colour] = 0
        shuffle16(&gs.rng[<int>STREAM_ENEMIES], gs.piles[colour], gs.n_pile[colour])
    if gs.n_pile[colour] == 0:
        return -1
    gs.n_pile[colour] -= 1
    return gs.piles[colour][gs.n_pile[colour]]


cdef void roll_source(GameState* gs, int n_dice) noexcept nogil:
    """Roll the Source (1.2.11, 5.5.5): n dice over red blue white green gold black; reroll
    the gold and black dice together until at least ceil(n/2) show a basic colour (21.2 A6)."""
    cdef int i, n_basic
    cdef int need = (n_dice + 1) // 2
    cdef Rng* rng = &gs.rng[<int>STREAM_SOURCE]
    if n_dice > MAX_DICE:
        n_dice = MAX_DICE
    gs.n_dice = <int8_t>n_dice
    gs.dice_taken = 0
    for i in range(n_dice):
        gs.dice[i] = <int8_t>rng_below(rng, NUM_COLOURS)
    while True:
        n_basic = 0
        for i in range(n_dice):
            if gs.dice[i] < GOLD:
                n_basic += 1
        if n_basic >= need:
            break
        for i in range(n_dice):  # all gold and black dice together [R]
            if gs.dice[i] >= GOLD:
                gs.dice[i] = <int8_t>rng_below(rng, NUM_COLOURS)
    for i in range(n_dice, MAX_DICE):
        gs.dice[i] = -1


cdef void link_hex(GameState* gs, int h) noexcept nogil:
    """Neighbours of hex h, and h as the neighbour of the hexes around it (9.1.2)."""
    cdef int d, j, q, r
    for d in range(6):
        gs.hexes[h].neighbour[d] = -1
        q = gs.hexes[h].q + HEX_DIRS[d][0]
        r = gs.hexes[h].r + HEX_DIRS[d][1]
        for j in range(gs.n_hexes):
            if j != h and gs.hexes[j].q == q and gs.hexes[j].r == r:
                gs.hexes[h].neighbour[d] = <int16_t>j
                gs.hexes[j].neighbour[(d + 3) % 6] = <int16_t>h  # HEX_DIRS[d+3] = -HEX_DIRS[d]
                break


cdef int place_tile(GameState* gs, const Statics* st, int tile, int a, int b) noexcept nogil:
    """Put a tile (content index) at lattice position (a, b) in its printed orientation
    (1.2.14: all tiles share the starting tile's orientation); returns its slot in
    gs.tiles, or SETUP_CAPACITY / SETUP_BAD_POSITION."""
    cdef int k, h, slot, cq, cr
    cdef const Table* t = &st.tiles
    for k in range(gs.n_tiles):
        if gs.tiles[k].a == a and gs.tiles[k].b == b:
            return SETUP_BAD_POSITION
    if gs.n_tiles >= MAX_TILES or gs.n_hexes + 7 > MAX_HEXES:
        return SETUP_CAPACITY
    slot = gs.n_tiles
    gs.tiles[slot].content = <int8_t>tile
    gs.tiles[slot].a = <int8_t>a
    gs.tiles[slot].b = <int8_t>b
    gs.tiles[slot].first_hex = gs.n_hexes
    gs.n_tiles += 1
    lattice_to_axial(a, b, &cq, &cr)
    for k in range(7):
        h = gs.n_hexes
        memset(&gs.hexes[h], 0, sizeof(Hex))
        gs.hexes[h].q = <int16_t>(cq + TILE_OFFSETS[k][0])
        gs.hexes[h].r = <int16_t>(cr + TILE_OFFSETS[k][1])
        gs.hexes[h].terrain = <int8_t>tv(t, tile, st.cols.tile_terrain0 + k)
        gs.hexes[h].site = <int8_t>tv(t, tile, st.cols.tile_site0 + k)
        gs.hexes[h].colours = <unsigned char>tv(t, tile, st.cols.tile_colours0 + k)
        gs.hexes[h].tile = <int8_t>slot
        gs.hexes[h].owner = -1
        gs.hexes[h].ruins = -1
        gs.n_hexes += 1
    for k in range(7):
        link_hex(gs, gs.tiles[slot].first_hex + k)
    if tv(t, tile, st.cols.tile_kind) == TILE_CORE or tv(t, tile, st.cols.tile_kind) == TILE_CITY:
        gs.core_revealed = 1  # 9.9.8
    return slot


cdef inline void hex_add_token(Hex* hx, int token) noexcept nogil:
    if token >= 0 and hx.n_tokens < 6:
        hx.tokens[hx.n_tokens] = <int16_t>token
        hx.n_tokens += 1


cdef void reveal_sites(GameState* gs, const Statics* st, int tile_slot) noexcept nogil:
    """Apply the "when revealed" text of every site on a tile (9.9.1).

    9.9.2 monastery: top AA card to the Unit offer; 9.9.3 city: the scenario's level for the
    n-th city revealed, its garrison drawn face down from the piles shown for that colour
    and level (city_garrisons.toml); 9.9.4 keep: grey token face down, mage tower: violet
    face down; 9.9.5 orcs: green face up, draconum: red face up; 9.9.6 ruins: ruins token,
    face up by Day.
    """
    cdef int k, h, site, card, i, colour, level, n_cities
    cdef const int32_t* row
    cdef Hex* hx
    for k in range(7):
        h = gs.tiles[tile_slot].first_hex + k
        hx = &gs.hexes[h]
        site = hx.site
        if site < 0:
            continue
        if site == st.sites.monastery:  # 9.9.2
            if gs.n_aa_deck > 0 and gs.n_unit_offer < MAX_OFFER:
                gs.n_aa_deck -= 1
                card = gs.aa_deck[gs.n_aa_deck]
                gs.unit_offer[gs.n_unit_offer] = <int16_t>(-(card + 1))
                gs.n_unit_offer += 1
        elif site == st.sites.city and st.garrisons != NULL:  # 9.9.3
            n_cities = 0
            for i in range(gs.n_hexes):
                if gs.hexes[i].site == st.sites.city and gs.hexes[i].city_level > 0:
                    n_cities += 1
            colour = 0
            while colour < 4 and not ((hx.colours >> colour) & 1):
                colour += 1
            level = st.city_levels[n_cities] if n_cities < st.n_city_levels else (
                st.city_levels[st.n_city_levels - 1] if st.n_city_levels > 0 else 1)
            if colour < 4 and 1 <= level <= 11:
                hx.city_level = <int8_t>level
                row = st.garrisons + (colour * 12 + level) * GARRISON_WIDTH
                for i in range(row[0]):
                    hex_add_token(hx, draw_token(gs, row[1 + i]))
        elif site == st.sites.keep:  # 9.9.4
            hex_add_token(hx, draw_token(gs, PILE_GREY))
        elif site == st.sites.mage_tower:  # 9.9.4
            hex_add_token(hx, draw_token(gs, PILE_VIOLET))
        elif site == st.sites.rampaging_orc:  # 9.9.5
            hex_add_token(hx, draw_token(gs, PILE_GREEN))
            hx.flags |= HEX_TOKENS_REVEALED
        elif site == st.sites.rampaging_draconum:  # 9.9.5
            hex_add_token(hx, draw_token(gs, PILE_RED))
            hx.flags |= HEX_TOKENS_REVEALED
        elif site == st.sites.ancient_ruins:  # 9.9.6
            if gs.n_ruins_pile > 0:
                gs.n_ruins_pile -= 1
                hx.ruins = gs.ruins_pile[gs.n_ruins_pile]
                if gs.time == DAY:
                    hx.flags |= HEX_RUINS_REVEALED


cdef int build_tile_stack(GameState* gs, const Statics* st, const SetupSpec* sp) noexcept nogil:
    """1.2.13: random Countryside tiles on top of the shuffled Core (non-city + city) tiles."""
    cdef int8_t country[MAX_TILES]
    cdef int8_t core[MAX_TILES]
    cdef int8_t city[MAX_TILES]
    cdef int8_t chosen[MAX_TILES]
    cdef int n_country = 0, n_core = 0, n_city = 0, n_chosen = 0
    cdef int i, k, kind
    cdef bint volkare
    cdef const Table* t = &st.tiles
    cdef Rng* rng = &gs.rng[<int>STREAM_MAP]
    for i in range(t.rows):
        if i >= 127 or not allowed(tv(t, i, st.cols.tile_expansion), sp.lost_legion):
            continue
        volkare = False
        for k in range(7):
            if tv(t, i, st.cols.tile_site0 + k) == st.sites.volkares_camp:
                volkare = True  # Volkare's camp tile belongs to the Volkare scenarios only
        if volkare:
            continue
        kind = tv(t, i, st.cols.tile_kind)
        if kind == TILE_COUNTRYSIDE and n_country < MAX_TILES:
            country[n_country] = <int8_t>i
            n_country += 1
        elif kind == TILE_CORE and n_core < MAX_TILES:
            core[n_core] = <int8_t>i
            n_core += 1
        elif kind == TILE_CITY and n_city < MAX_TILES:
            city[n_city] = <int8_t>i
            n_city += 1
    if sp.countryside_tiles > n_country or sp.core_tiles > n_core or sp.city_tiles > n_city:
        return SETUP_NOT_ENOUGH_TILES
    if sp.countryside_tiles + sp.core_tiles + sp.city_tiles > MAX_TILES:
        return SETUP_CAPACITY
    shuffle8(rng, country, n_country)  # random choice = first k of a shuffle
    shuffle8(rng, core, n_core)
    shuffle8(rng, city, n_city)
    for i in range(sp.core_tiles):
        chosen[n_chosen] = core[i]
        n_chosen += 1
    for i in range(sp.city_tiles):
        chosen[n_chosen] = city[i]
        n_chosen += 1
    shuffle8(rng, chosen, n_chosen)  # the chosen Core tiles shuffled into one pile
    gs.n_tile_stack = 0
    for i in range(n_chosen):  # bottom of the stack
        gs.tile_stack[gs.n_tile_stack] = chosen[i]
        gs.n_tile_stack += 1
    for i in range(sp.countryside_tiles):  # on top: drawn before any Core tile
        gs.tile_stack[gs.n_tile_stack] = country[i]
        gs.n_tile_stack += 1
    return SETUP_OK


cdef int build_enemy_piles(GameState* gs, const Statics* st, const SetupSpec* sp) noexcept nogil:
    """1.2.2: one token instance per copy of every enemy, shuffled per colour; ruins pile."""
    cdef int i, k, colour, n_tok = 0
    cdef const Table* t = &st.enemies
    for i in range(MAX_TOKENS):
        gs.token_enemy[i] = -1
    for i in range(t.rows):
        if not allowed(tv(t, i, st.cols.enemy_expansion), sp.lost_legion):
            continue
        colour = tv(t, i, st.cols.enemy_colour)
        for k in range(tv(t, i, st.cols.enemy_copies)):
            if n_tok >= MAX_TOKENS or gs.n_pile[colour] >= MAX_PILE:
                return SETUP_CAPACITY
            gs.token_enemy[n_tok] = <int16_t>i
            gs.piles[colour][gs.n_pile[colour]] = <int16_t>n_tok
            gs.n_pile[colour] += 1
            n_tok += 1
    for colour in range(NUM_PILES):
        shuffle16(&gs.rng[<int>STREAM_ENEMIES], gs.piles[colour], gs.n_pile[colour])
    gs.n_ruins_pile = 0
    for i in range(sp.n_ruins):
        if allowed(sp.ruins_expansion[i], sp.lost_legion):
            if gs.n_ruins_pile >= MAX_RUINS:
                return SETUP_CAPACITY
            gs.ruins_pile[gs.n_ruins_pile] = <int8_t>i
            gs.n_ruins_pile += 1
    shuffle8(&gs.rng[<int>STREAM_ENEMIES], gs.ruins_pile, gs.n_ruins_pile)
    return SETUP_OK


cdef int build_decks_and_offers(GameState* gs, const Statics* st, const SetupSpec* sp,
                                int n_players) noexcept nogil:
    """1.2.3, 1.2.5, 1.2.6, 1.2.8, 1.2.9 (all on STREAM_OFFERS)."""
    cdef int n, i
    cdef Rng* rng = &gs.rng[<int>STREAM_OFFERS]
    n = fill_card_deck(gs.aa_deck, st, DECK_AA, sp.lost_legion, False)
    if n < 0:
        return SETUP_CAPACITY
    gs.n_aa_deck = <int8_t>n
    n = fill_card_deck(gs.spell_deck, st, DECK_SPELL, sp.lost_legion, sp.remove_interactive_spells != 0)
    if n < 0:
        return SETUP_CAPACITY
    gs.n_spell_deck = <int8_t>n
    n = fill_card_deck(gs.artifact_deck, st, DECK_ARTIFACT, sp.lost_legion, False)
    if n < 0:
        return SETUP_CAPACITY
    gs.n_artifact_deck = <int8_t>n
    n = fill_unit_deck(gs.regular_units, st, TIER_REGULAR, sp.lost_legion)
    if n < 0:
        return SETUP_CAPACITY
    gs.n_regular_units = <int8_t>n
    n = fill_unit_deck(gs.elite_units, st, TIER_ELITE, sp.lost_legion)
    if n < 0:
        return SETUP_CAPACITY
    gs.n_elite_units = <int8_t>n
    shuffle16(rng, gs.aa_deck, gs.n_aa_deck)
    shuffle16(rng, gs.spell_deck, gs.n_spell_deck)
    shuffle16(rng, gs.artifact_deck, gs.n_artifact_deck)          # 1.2.3
    shuffle16(rng, gs.regular_units, gs.n_regular_units)          # 1.2.8
    shuffle16(rng, gs.elite_units, gs.n_elite_units)
    if gs.n_spell_deck < 3 or gs.n_aa_deck < 3 or gs.n_regular_units < n_players + 2:
        return SETUP_EMPTY_DECK
    for i in range(3):                                            # 1.2.5: top 3 Spells
        gs.n_spell_deck -= 1
        gs.spell_offer[i] = gs.spell_deck[gs.n_spell_deck]
    for i in range(3):                                            # 1.2.6: top 3 AAs
        gs.n_aa_deck -= 1
        gs.aa_offer[i] = gs.aa_deck[gs.n_aa_deck]
    gs.n_unit_offer = 0
    for i in range(n_players + 2):                                # 1.2.9: dummy not counted
        gs.n_regular_units -= 1
        gs.unit_offer[gs.n_unit_offer] = gs.regular_units[gs.n_regular_units]
        gs.n_unit_offer += 1
    return SETUP_OK


cdef void setup_player(GameState* gs, const Statics* st, const SetupSpec* sp, int p) noexcept nogil:
    """1.3, 1.4: the hero's starting state; deck shuffled (1.3.4), hand drawn (1.3.5)."""
    cdef Player* pl = &gs.players[p]
    cdef int i, hand_limit
    pl.hero = <int8_t>sp.heroes[p]
    pl.fame = 0                                                   # 1.2.1, 1.4
    pl.reputation = 0
    pl.level = 1
    pl.command_tokens = <int8_t>tv(&st.levels, 0, st.cols.level_command_tokens)  # 1.3.3
    for i in range(4):
        pl.crystals[i] = 0                                        # 1.4: no crystals
    for i in range(DECK_SIZE):
        pl.deck[i] = <int16_t>sp.hero_decks[pl.hero * DECK_SIZE + i]    # each seat its own hero's deck (1.3.4)
    pl.n_deck = DECK_SIZE
    shuffle16(deeds_rng(gs, pl), pl.deck, pl.n_deck)    # 1.3.4
    hand_limit = tv(&st.levels, 0, st.cols.level_hand_limit)      # 1.3.2: 5 at level 1
    pl.n_hand = 0
    while pl.n_hand < hand_limit and pl.n_deck > 0:               # 1.3.5: draw from the top
        pl.n_deck -= 1
        pl.hand[pl.n_hand] = pl.deck[pl.n_deck]
        pl.n_hand += 1
    pl.n_discard = 0
    pl.n_play = 0
    pl.removed = 0
    for i in range(MAX_UNITS):
        pl.units[i].card = -1
        pl.units[i].banner = -1
    for i in range(MAX_SKILLS):
        pl.skills[i] = -1
    pl.skills_used = 0
    pl.position = -1                                              # 1.3.7: enters on the first turn
    pl.tactic = -1
    pl.tactic_used = 0
    for i in range(8):
        pl.tactic_cards[i] = -1
    pl.n_tactic_cards = 0
    pl.stolen_die = -1
    pl.round_order = <int8_t>p                                    # 1.1.3: picking order


cdef bint seated(const SetupSpec* sp, int h) noexcept nogil:
    """Hero ``h`` is one of the players' heroes (18.1.2: the dummy is a hero not in the game)."""
    cdef int p
    for p in range(sp.n_players):
        if sp.heroes[p] == h:
            return True
    return False


cdef void setup_dummy(GameState* gs, const SetupSpec* sp) noexcept nogil:
    """18.1.2-18.1.4: random other hero, one crystal per dot, shuffled 16-card deck."""
    cdef Dummy* d = &gs.dummy
    cdef int candidates[32]
    cdef int n = 0, i, h
    cdef Rng* rng = &gs.rng[<int>STREAM_DUMMY]
    for h in range(sp.n_heroes):
        if not seated(sp, h) and allowed(sp.hero_expansion[h], sp.lost_legion) and n < 32:
            candidates[n] = h
            n += 1
    h = candidates[rng_below(rng, <unsigned int>n)] if n > 0 else -1
    d.hero = <int8_t>h
    d.n_deck = 0
    d.n_discard = 0
    for i in range(4):
        d.crystals[i] = 0
    if h >= 0:
        for i in range(DUMMY_CRYSTALS):                           # 18.1.3
            d.crystals[sp.dummy_crystals[h * DUMMY_CRYSTALS + i]] += 1
        for i in range(DECK_SIZE):
            d.deck[i] = <int16_t>sp.hero_decks[h * DECK_SIZE + i]
        d.n_deck = DECK_SIZE
        shuffle16(rng, d.deck, d.n_deck)                          # 18.1.4
    d.tactic = -1
    d.round_order = <int8_t>gs.n_players
    gs.has_dummy = 1


cdef int setup_game(GameState* gs, const Statics* st, const SetupSpec* sp) noexcept nogil:
    """Whole setup of a game of sp.n_players heroes after the streams are seeded (1.2-1.4;
    18.1 when sp.dummy).  Seat p is the p-th hero picked (1.1.2), so the initial Round Order
    column is seat 0 on top (1.1.3)."""
    cdef int i, k, err, slot, n_players = sp.n_players
    cdef int n_tactics = 0
    # -- game -------------------------------------------------------------------------
    gs.scenario = <int8_t>sp.scenario
    gs.n_players = <int8_t>n_players
    gs.round = 1
    gs.time = <int8_t>sp.first_round                              # 1.2.10, 2.1.2
    gs.phase = PH_TACTICS
    gs.current = 0
    gs.end_announced_by = -1
    gs.final_turns_left = 0
    gs.termination = TERM_NONE
    gs.steps = 0
    gs.combat.site_hex = -1
    gs.combat.block_target = -1
    for i in range(MAX_COMBAT_ENEMIES):
        gs.combat.enemies[i].token = -1
        gs.combat.enemies[i].enemy = -1
        gs.combat.enemies[i].summoned_by = -1
    for i in range(24):
        gs.skill_offer[i] = -1                                    # 1.2.7: starts empty
    gs.n_skill_offer = 0
    for i in range(12):
        gs.tactics_removed[i] = -1
    for i in range(6):
        gs.tactics_available[i] = -1
    for i in range(st.tactics.rows):                              # 1.2.12: the six Day tactics
        if tv(&st.tactics, i, st.cols.tactic_time) == sp.first_round and n_tactics < 6:
            gs.tactics_available[n_tactics] = <int8_t>i
            n_tactics += 1
    for i in range(MAX_TILES):
        gs.tile_stack[i] = -1
    # -- shared area (1.2) ------------------------------------------------------------
    err = build_enemy_piles(gs, st, sp)                           # 1.2.2
    if err != SETUP_OK:
        return err
    err = build_decks_and_offers(gs, st, sp, n_players)           # 1.2.3-1.2.9
    if err != SETUP_OK:
        return err
    roll_source(gs, n_players + 2)                                # 1.2.11, 18.1.5
    err = build_tile_stack(gs, st, sp)                            # 1.2.13
    if err != SETUP_OK:
        return err
    # -- map (1.2.14) -----------------------------------------------------------------
    slot = place_tile(gs, st, sp.start_tile, 0, 0)
    if slot < 0:
        return slot
    reveal_sites(gs, st, slot)
    for k in range(sp.n_setup_positions):
        if gs.n_tile_stack == 0:
            return SETUP_NOT_ENOUGH_TILES
        gs.n_tile_stack -= 1
        slot = place_tile(gs, st, gs.tile_stack[gs.n_tile_stack],
                          sp.setup_positions[2 * k], sp.setup_positions[2 * k + 1])
        gs.tile_stack[gs.n_tile_stack] = -1
        if slot < 0:
            return slot
        reveal_sites(gs, st, slot)                                # 9.9.1
    # -- players (1.3, 1.4) and the dummy (18.1) --------------------------------------
    for i in range(n_players):
        setup_player(gs, st, sp, i)
    if sp.dummy:
        setup_dummy(gs, sp)
    else:
        gs.dummy.hero = -1                                        # no dummy (competitive games)
        gs.dummy.tactic = -1
        gs.dummy.round_order = <int8_t>MAX_PLAYERS
        gs.has_dummy = 0
    return SETUP_OK


# ---------------------------------------------------------------------------------------
# Python side: preparation (words -> integers, once) and the core object
# ---------------------------------------------------------------------------------------

class SetupData:
    """Integer description of one (scenario, hero, expansions) setup, plus the ids
    ``to_dict`` needs.  Built once by :func:`prepare_setup`; reusable for many games."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def prepare_setup(tables, content, scenario_id, hero_id, lost_legion_cards=False):
    """Map the content's words for a setup to integers (Python, once per setup kind).

    ``hero_id`` is one hero id (a solo game with the dummy, 18.1) or a sequence of 1 to 4
    distinct hero ids, one per seat in hero-selection order (1.1.2, 1.1.3: seat 0 on top of
    the initial Round Order column).  Two or more heroes play the scenario's
    ``multiplayer`` entry (17.2: tile counts and rounds for that many players).
    ``lost_legion_cards`` adds the Lost Legion tiles, enemies, ruins, cards and units to
    the base game and uses the Lost Legion hero-card editions (LL-2.3).
    """
    scenarios = content.ids("scenarios")
    if scenario_id not in scenarios:
        raise ValueError(f"unknown scenario {scenario_id!r}; known: {', '.join(scenarios)}")
    seat_ids = [hero_id] if isinstance(hero_id, str) else list(hero_id)
    if not 1 <= len(seat_ids) <= MAX_PLAYERS:
        raise ValueError(f"a game holds 1 to {MAX_PLAYERS} heroes, not {len(seat_ids)}")
    for h in seat_ids:
        if h not in tables.hero_ids:
            raise ValueError(f"unknown hero {h!r}; known: {', '.join(tables.hero_ids)}")
    if len(set(seat_ids)) != len(seat_ids):
        raise ValueError(f"heroes {', '.join(seat_ids)}: each player picks a different hero (1.1.2)")
    hero_id = seat_ids[0]
    n_players = len(seat_ids)
    sc = content.get("scenarios", scenario_id)
    rules = list(sc.get("special_rules", []))
    rounds, countryside, core, city = sc["rounds"], sc["countryside_tiles"], sc["core_tiles"], sc["city_tiles"]
    dummy = bool(sc["dummy"])
    if n_players == 1:
        if sc["min_players"] > 1 or not sc["dummy"]:
            raise ValueError(f"scenario {scenario_id!r} is not a solo scenario with a dummy (18.1)")
    else:
        mp = sc.get("multiplayer")
        if mp is None or n_players not in mp["players"]:
            known = ", ".join(str(n) for n in (mp["players"] if mp else [])) or "none"
            raise ValueError(f"scenario {scenario_id!r} is not set up for {n_players} players "
                             f"(scenarios.toml multiplayer.players: {known})")
        rounds, core, city = mp["rounds"], mp["core_tiles"], mp["city_tiles"]
        countryside = mp["countryside_tiles"][mp["players"].index(n_players)]
        rules = list(mp.get("special_rules", []))
        dummy = bool(mp["dummy"])
        if dummy:
            raise ValueError(f"scenario {scenario_id!r}: a dummy with several heroes (cooperative "
                             f"scenarios, 17.3.5) is not implemented yet")
    shape = content.get("map_shapes", sc["shape"])
    card_index = {cid: i for i, cid in enumerate(tables.card_ids)}
    ll = bool(lost_legion_cards)
    heroes = {h["id"]: h for h in content["heroes"]}
    hero_decks = np.array([[card_index[c] for c in content.hero_deck(h, ll)] for h in tables.hero_ids],
                          dtype=np.int32).reshape(-1, DECK_SIZE)
    exp = _ct.EXPANSIONS.index
    hero_expansion = np.array([exp(heroes[h]["expansion"]) for h in tables.hero_ids], dtype=np.int32)
    dummy_crystals = np.array([[_fx.BASIC_COLOURS.index(c) for c in heroes[h]["dummy_crystals"]]
                               for h in tables.hero_ids], dtype=np.int32).reshape(-1, DUMMY_CRYSTALS)
    ruins_ids = content.ids("ruins")
    ruins_expansion = np.array([exp(r["expansion"]) for r in content["ruins"]], dtype=np.int32)
    setup_positions = np.array(shape["setup_positions"], dtype=np.int32).reshape(-1, 2)
    shape_positions = np.array(shape["positions"], dtype=np.int32).reshape(-1, 2)  # 9.1.3, 17.1
    shape_core_forbidden = np.array(shape.get("core_forbidden", []), dtype=np.int32).reshape(-1, 2)  # 17.1.1
    garrisons = np.zeros((4, 12, GARRISON_WIDTH), dtype=np.int32)   # 9.9.3, 11.14.1
    for g in content["city_garrisons"]:
        piles = [_ct.ENEMY_COLOURS.index(x) for x in g["tokens"]][:GARRISON_WIDTH - 1]
        row = garrisons[_fx.BASIC_COLOURS.index(g["city"]), g["level"]]
        row[0] = len(piles)
        row[1:1 + len(piles)] = piles
    city_levels = np.array(sc["city_levels"] or [1], dtype=np.int32)
    # 11.13.1 defender bonus per city colour: armor, fire/ice, cold fire, physical-attack ability
    city_bonus = np.zeros((4, 4), dtype=np.int32)
    for c in content["cities"]:
        row = city_bonus[_fx.BASIC_COLOURS.index(c["colour"])]
        row[0] = c.get("armor_bonus", 0)
        row[1] = c.get("elemental_attack_bonus", 0)
        row[2] = c.get("coldfire_attack_bonus", 0)
        gain = c.get("physical_attackers_gain")
        row[3] = (1 << _ct.ENEMY_ABILITIES.index(gain)) if gain else 0
    return SetupData(
        garrisons=garrisons, city_levels=city_levels, city_bonus=city_bonus,
        scenario_id=scenario_id, scenario=scenarios.index(scenario_id),
        hero_id=hero_id, hero=tables.hero_ids.index(hero_id), lost_legion=ll,
        seat_hero_ids=seat_ids, heroes=[tables.hero_ids.index(h) for h in seat_ids],
        n_players=n_players, dummy=dummy, special_rules=rules,
        countryside_tiles=countryside, core_tiles=core, city_tiles=city,
        first_round=_fx.TIMES.index(sc["first_round"]),
        remove_interactive_spells="remove_interactive_spells" in rules,
        shape_id=shape["id"], start_tile=tables.tile_ids.index(shape["start_tile"]),
        setup_positions=setup_positions, shape_positions=shape_positions,
        shape_core_forbidden=shape_core_forbidden, core_restriction=bool(sc.get("core_restriction", False)),
        fame_per_tile=int(sc.get("fame_per_tile", 0)), rounds=int(rounds),
        hero_decks=hero_decks, hero_expansion=hero_expansion,
        dummy_crystals=dummy_crystals, ruins_ids=ruins_ids, ruins_expansion=ruins_expansion,
        hero_ids=list(tables.hero_ids), skill_ids=list(tables.skill_ids),
    )


cdef Table _table(const int32_t[:, ::1] mv):
    cdef Table t
    t.rows = <int>mv.shape[0]
    t.width = <int>mv.shape[1]
    t.data = &mv[0, 0] if mv.shape[0] > 0 else NULL
    return t


# ---------------------------------------------------------------------------------------
# Fixtures: field-by-field dict conversion of the whole state (docs/fixtures.md)
# ---------------------------------------------------------------------------------------

class FixtureError(ValueError):
    """A fixture (a state written as a dict, docs/fixtures.md) is wrong; the message starts
    with the key path of the wrong value, e.g. ``players[0].hand[2]: unknown card 'marhc'``."""


def _fx_key(path, name):
    return name if not path else f"{path}.{name}"


def _fx_short(x, n=60):
    """``repr(x)`` for a message, cut to about ``n`` characters."""
    try:
        text = repr(x)
    except RecursionError:
        text = f"<a {type(x).__name__} nested too deep>"
    return text if len(text) <= n else text[:n - 3] + "..."


def _fx_int(v, path, lo, hi):
    """A whole number in [lo, hi] (bool counts as 0 / 1)."""
    if isinstance(v, bool):
        v = int(v)
    if not isinstance(v, int):
        raise FixtureError(f"{path}: expected a whole number, got {_fx_short(v)}")
    if v < lo or v > hi:
        raise FixtureError(f"{path}: {v} is out of range ({lo} .. {hi})")
    return v


def _fx_list(v, path, n):
    """A list of at most n entries."""
    if not isinstance(v, (list, tuple)):
        raise FixtureError(f"{path}: expected a list, got {_fx_short(v)}")
    if len(v) > n:
        raise FixtureError(f"{path}: {len(v)} entries, at most {n} fit")
    return v


include "_fields.pxi"


_SETUP_ERRORS = {
    SETUP_NOT_ENOUGH_TILES: "the content lacks the tiles the scenario asks for (1.2.13)",
    SETUP_CAPACITY: "the content exceeds a fixed limit of the game state (ext/_types.pxd)",
    SETUP_BAD_POSITION: "two setup tiles share a map position (map_shapes.toml)",
    SETUP_EMPTY_DECK: "a deck is too small to fill its offer (1.2.5, 1.2.6, 1.2.9)",
}


cdef class GameCore:
    """One game: the GameState struct and the static tables it reads.

    Build with :meth:`new` (or :meth:`from_setup` to reuse a :func:`prepare_setup`)."""

    def __cinit__(self):
        memset(&self.gs, 0, sizeof(GameState))

    cdef _bind(self, tables, setup):
        cdef const int32_t[::1] gv
        cdef const int32_t[::1] cv
        cdef Cols* c = &self.st.cols
        cdef Sites* s = &self.st.sites
        cdef const int32_t[:, ::1] shp
        cdef const int32_t[:, ::1] cfb
        self.tables = tables
        self.setup = setup
        self.cards = np.ascontiguousarray(tables.cards, dtype=np.int32)
        self.units = np.ascontiguousarray(tables.units, dtype=np.int32)
        self.enemies = np.ascontiguousarray(tables.enemies, dtype=np.int32)
        self.tiles = np.ascontiguousarray(tables.tiles, dtype=np.int32)
        self.levels = np.ascontiguousarray(tables.levels, dtype=np.int32)
        self.tactics = np.ascontiguousarray(tables.tactics, dtype=np.int32)
        self.st.cards = _table(self.cards)
        self.st.units = _table(self.units)
        self.st.enemies = _table(self.enemies)
        self.st.tiles = _table(self.tiles)
        self.st.levels = _table(self.levels)
        self.st.tactics = _table(self.tactics)
        col = tables.col
        c.card_deck = col("cards", "deck")
        c.card_expansion = col("cards", "expansion")
        c.card_interactive = col("cards", "interactive")
        c.card_colour = col("cards", "colour")
        c.unit_tier = col("units", "tier")
        c.unit_copies = col("units", "copies")
        c.unit_expansion = col("units", "expansion")
        c.unit_level = col("units", "level")
        c.enemy_colour = col("enemies", "colour")
        c.enemy_copies = col("enemies", "copies")
        c.enemy_expansion = col("enemies", "expansion")
        c.enemy_armor = col("enemies", "armor")
        c.enemy_armor_elusive = col("enemies", "armor_elusive")
        c.enemy_n_attacks = col("enemies", "n_attacks")
        c.enemy_attack0 = col("enemies", "attack0")
        c.enemy_element0 = col("enemies", "element0")
        c.enemy_summons = col("enemies", "summons")
        c.enemy_summon_pile = col("enemies", "summon_pile")
        c.enemy_abilities = col("enemies", "abilities")
        c.enemy_resistances = col("enemies", "resistances")
        c.enemy_fame = col("enemies", "fame")
        c.enemy_reputation = col("enemies", "reputation")
        c.unit_armor = col("units", "armor")
        c.unit_resistances = col("units", "resistances")
        c.tile_kind = col("tiles", "kind")
        c.tile_expansion = col("tiles", "expansion")
        c.tile_terrain0 = col("tiles", "terrain0")
        c.tile_site0 = col("tiles", "site0")
        c.tile_colours0 = col("tiles", "colours0")
        c.level_fame = col("levels", "fame")
        c.level_armor = col("levels", "armor")
        c.level_hand_limit = col("levels", "hand_limit")
        c.level_command_tokens = col("levels", "command_tokens")
        c.tactic_time = col("tactics", "time")
        site = _ct.SITE_IDS.index
        s.monastery = site("monastery")
        s.keep = site("keep")
        s.mage_tower = site("mage_tower")
        s.city = site("city")
        s.ancient_ruins = site("ancient_ruins")
        s.rampaging_orc = site("rampaging_orc")
        s.rampaging_draconum = site("rampaging_draconum")
        s.volkares_camp = site("volkares_camp")
        s.portal = site("portal")
        s.crystal_mine = site("crystal_mine")
        s.adventure_mask = 0  # sites.toml category "adventure" (20.2 Greatest Adventurer)
        for name in ("dungeon", "tomb", "monster_den", "spawning_grounds", "ancient_ruins", "maze", "labyrinth"):
            s.adventure_mask |= <unsigned int>(1 << site(name))
        # shape whitelist / core lanes for exploration (9.8.7, 17.1); arrays live in setup
        shp = setup.shape_positions
        cfb = setup.shape_core_forbidden
        self.st.shape.n_positions = <int>shp.shape[0]
        self.st.shape.positions = &shp[0, 0] if shp.shape[0] > 0 else NULL
        self.st.shape.n_core_forbidden = <int>cfb.shape[0]
        self.st.shape.core_forbidden = &cfb[0, 0] if cfb.shape[0] > 0 else NULL
        self.st.shape.core_restriction = 1 if setup.core_restriction else 0
        self.st.shape.fame_per_tile = setup.fame_per_tile
        gar = setup.garrisons.reshape(-1)
        lv = setup.city_levels
        self._garrisons = gar
        self._city_levels = lv
        gv = gar
        cv = lv
        self.st.garrisons = &gv[0]
        self.st.city_levels = &cv[0]
        self.st.n_city_levels = <int>cv.shape[0]
        for i in range(4):                                 # 11.13.1 (city_garrisons.toml [[city]])
            self.st.city_armor[i] = <int>setup.city_bonus[i, 0]
            self.st.city_elemental[i] = <int>setup.city_bonus[i, 1]
            self.st.city_coldfire[i] = <int>setup.city_bonus[i, 2]
            self.st.city_physical_ab[i] = <int>setup.city_bonus[i, 3]
        self.st.lost_legion = 1 if setup.lost_legion else 0
        if self.st.levels.rows < 1:
            raise ValueError("the levels table is empty")

    @staticmethod
    def new(tables, content, scenario_id, hero_id, seed, game_index=0, lost_legion_cards=False):
        """Set up game ``game_index`` of the run seeded ``seed`` (rules 1.2-1.4, 18.1);
        ``hero_id``: one hero id or one per seat (:func:`prepare_setup`)."""
        setup = prepare_setup(tables, content, scenario_id, hero_id, lost_legion_cards)
        return GameCore.from_setup(tables, setup, seed, game_index)

    @staticmethod
    def from_setup(tables, setup, seed, game_index=0, GameCore template=None):
        """Like :meth:`new` with a prepared :class:`SetupData` (no per-game Python work).

        ``template``: a GameCore of the same ``tables`` and ``setup`` whose bound static
        views are shared (as :meth:`copy` does) instead of binding them again: the ~35
        column look-ups and six array checks of binding cost more than the C setup itself,
        and a runner sets up hundreds of thousands of games from one setup."""
        cdef GameCore g = GameCore.__new__(GameCore)
        cdef SetupSpec sp
        cdef const int32_t[:, ::1] pos = setup.setup_positions
        cdef const int32_t[:, ::1] decks = setup.hero_decks
        cdef const int32_t[::1] hexp = setup.hero_expansion
        cdef const int32_t[:, ::1] crys = setup.dummy_crystals
        cdef const int32_t[::1] rexp = setup.ruins_expansion
        cdef uint64_t root = <uint64_t>check_seed(seed, "seed")
        cdef uint64_t game = <uint64_t>check_seed(game_index, "game_index")
        cdef int s, err
        if template is not None and template.tables is tables and template.setup is setup:
            g._share_bound(template)
        else:
            g._bind(tables, setup)
        memset(&sp, 0, sizeof(SetupSpec))
        sp.scenario = setup.scenario
        sp.hero = setup.hero
        sp.n_players = setup.n_players
        for s in range(setup.n_players):
            sp.heroes[s] = setup.heroes[s]
        sp.dummy = 1 if setup.dummy else 0
        sp.n_heroes = <int>decks.shape[0]
        sp.lost_legion = 1 if setup.lost_legion else 0
        sp.countryside_tiles = setup.countryside_tiles
        sp.core_tiles = setup.core_tiles
        sp.city_tiles = setup.city_tiles
        sp.first_round = setup.first_round
        sp.remove_interactive_spells = 1 if setup.remove_interactive_spells else 0
        sp.start_tile = setup.start_tile
        sp.n_setup_positions = <int>pos.shape[0]
        sp.setup_positions = &pos[0, 0] if pos.shape[0] > 0 else NULL
        sp.hero_decks = &decks[0, 0]
        sp.hero_expansion = &hexp[0]
        sp.dummy_crystals = &crys[0, 0]
        sp.n_ruins = <int>rexp.shape[0]
        sp.ruins_expansion = &rexp[0] if rexp.shape[0] > 0 else NULL
        g.gs.seed = root
        g.gs.game_index = game
        for s in range(NUM_STREAMS):
            rng_seed(&g.gs.rng[s], root, game, <uint64_t>s)
        with nogil:
            err = setup_game(&g.gs, &g.st, &sp)
        if err != SETUP_OK:
            raise ValueError(f"setup of {setup.scenario_id!r} failed: {_SETUP_ERRORS.get(err, err)}")
        return g

    def copy(self):
        """An independent copy (one memcpy of the state; the tables are shared)."""
        cdef GameCore g = GameCore.__new__(GameCore)
        g._share_bound(self)
        memcpy(&g.gs, &self.gs, sizeof(GameState))
        return g

    cdef _share_bound(self, GameCore other):
        """Take ``other``'s tables, views and Statics (same pointers: the views and arrays
        held here keep what they point into alive)."""
        self.tables, self.setup = other.tables, other.setup
        self.cards, self.units, self.enemies = other.cards, other.units, other.enemies
        self.tiles, self.levels, self.tactics = other.tiles, other.levels, other.tactics
        self._garrisons, self._city_levels = other._garrisons, other._city_levels
        self.st = other.st

    @staticmethod
    def state_size():
        """sizeof(GameState) in bytes."""
        return <long>sizeof(GameState)

    @staticmethod
    def zone_capacities():
        """Cards each zone can hold (ext/_types.pxd): {"deck", "hand", "discard", "play_area",
        "dummy_deck", "dummy_discard"}."""
        return {"deck": MAX_DECK_CARDS, "hand": MAX_HAND_CARDS, "discard": MAX_DISCARD_CARDS,
                "play_area": MAX_PLAY_CARDS, "dummy_deck": MAX_DUMMY_CARDS, "dummy_discard": MAX_DUMMY_CARDS}

    # -- fixtures (mksim/fixtures.py, docs/fixtures.md) ---------------------------------

    def raw_dict(self):
        """Every field of the GameState struct as plain Python (integers, lists, dicts),
        generated from ext/_types.pxd (ext/gen_fields.py): nothing is named or left out."""
        return raw_GameState(&self.gs)

    def set_raw(self, d, path=""):
        """Write the fields present in ``d`` (a dict shaped like :meth:`raw_dict`, possibly
        partial) into the state; raise FixtureError naming the key path of a bad value."""
        self.version += 1                   # even a failed write may have changed fields
        try:
            set_GameState(&self.gs, d, path)
        finally:
            mod_live_sync(&self.gs.turn)    # derived from the entries, never written as such

    def state_bytes(self):
        """The raw bytes of the GameState struct (for exact comparisons in tests)."""
        return (<char*>&self.gs)[:sizeof(GameState)]

    def set_state_bytes(self, const unsigned char[::1] data):
        """Put back bytes taken with :meth:`state_bytes` (a fixture refused half-way is
        undone with one memcpy)."""
        if data.shape[0] != sizeof(GameState):
            raise ValueError(f"expected {sizeof(GameState)} bytes of state, got {data.shape[0]}")
        memcpy(&self.gs, &data[0], sizeof(GameState))

    def clear_map(self):
        """Remove every tile and hex (the struct's map part zeroed, as before setup)."""
        self.version += 1
        memset(&self.gs.tiles[0], 0, sizeof(self.gs.tiles))
        memset(&self.gs.hexes[0], 0, sizeof(self.gs.hexes))
        self.gs.n_tiles = 0
        self.gs.n_hexes = 0

    def place_tile(self, int tile, int a, int b):
        """Put tile content ``tile`` at lattice position (a, b) as exploration does (9.8),
        without revealing its sites (no tokens are drawn); return its tile slot."""
        cdef int slot
        self.version += 1
        slot = place_tile(&self.gs, &self.st, tile, a, b)
        if slot < 0:
            raise FixtureError(f"tile position ({a}, {b}): {_SETUP_ERRORS.get(slot, slot)}")
        return slot

    # -- description ------------------------------------------------------------------

    def to_dict(self, format=None):
        """The whole state as plain Python: every field of the struct, content ids and
        words for what a player sees (the fixture format, mksim/fixtures.py and
        docs/fixtures.md); :meth:`mksim.game.Game.state_from_dict` reads it back.
        ``format``: the fixture format to write (default the newest, 2; 1 writes bit
        fields as whole numbers)."""
        from mksim.fixtures import FORMAT, state_to_dict
        return state_to_dict(self, FORMAT if format is None else format)

    def load_dict(self, d):
        """Write a fixture (a dict shaped like :meth:`to_dict`, possibly partial) over this
        state: the keys it gives replace the current values, the others stay.  Raises
        mksim.fixtures.FixtureError (a ValueError) naming the key path of a mistake or of
        a field the position cannot hold (mksim.fixtures.validate: checks by meaning,
        docs/fixtures.md), and then leaves the state as it was.  To start from a fresh setup use
        :meth:`mksim.game.Game.state_from_dict`.  The core must be run by an Engine (a State's
        core): the checks of a legal action and of the pending question need it."""
        from mksim.fixtures import FixtureError, apply_fixture
        engine = self.engine_ref() if self.engine_ref is not None else None
        if engine is None:
            # the last checks (a legal action, the pending question's bounds) need the rules
            raise FixtureError("fixture: this GameCore has no Engine (a bare copy); load fixtures "
                               "through Game.state_from_dict or the core of a State")
        self.version += 1
        apply_fixture(self, d, engine)
