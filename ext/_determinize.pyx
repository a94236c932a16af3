# cython: language_level=3
"""Information-fair copies of a game: :func:`determinize_core` (see ``_determinize.pxd``).

A policy that looks ahead must not read the future: the true deck order, the face-down
tokens, the tile stack or the random streams.  :func:`determinize_core` resamples all of
them, consistently with what the acting player can see, from ``seed`` and a hash of the
visible state, so that the copy is one possible world and two states that differ only in
hidden information give the same copy.  ``mksim.game.State.determinize`` is the Python
face.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t

from mksim._rng cimport Rng, rng_seed, rng_below, NUM_STREAMS
from mksim._types cimport (
    GameState, Player, Hex, MAX_PLAYERS, MAX_DICE, MAX_DECK_CARDS, MAX_HAND_CARDS, MAX_DISCARD_CARDS, MAX_PLAY_CARDS, MAX_DUMMY_CARDS, MAX_TOKENS, MAX_PILE, MAX_TILES, MAX_DECK, MAX_OFFER, MAX_PATH,
    NUM_PILES, HEX_TOKENS_REVEALED, HEX_RUINS_REVEALED, PH_END_TURN,
)
from mksim._state cimport GameCore, Statics, Table
from mksim._knowledge cimport deck_taken

cdef enum:
    TILE_COUNTRYSIDE = 1       # content tile kind (ext/_state.pyx); city and core tiles share the Core back
    ASK_DECK_CARD_ = 7         # ext/_engine.pxd ASK_DECK_CARD: a deck search shows the whole deck (3.2 Preparation)
    END_LEVEL_SKILL_ = 2       # ext/_engine.pyx END_LEVEL_SKILL: a level-up's skill choice (13.6.4)
    MAX_POOL = 4 * MAX_DECK_CARDS + 16


# ---------------------------------------------------------------------------------------
# hashing what a player sees
# ---------------------------------------------------------------------------------------

cdef inline uint64_t _mix(uint64_t h, long long v) noexcept nogil:
    """FNV-1a style step over one integer, then a SplitMix finaliser for spread."""
    h ^= <uint64_t>v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2)
    h *= 0x100000001B3ULL
    return h


cdef inline uint64_t _finish(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef uint64_t _mix16(uint64_t h, const int16_t* a, int n) noexcept nogil:
    cdef int i
    h = _mix(h, n)
    for i in range(n):
        h = _mix(h, a[i])
    return h


cdef inline int revealed_skills(const GameState* gs, int player) noexcept nogil:
    """Tokens on top of ``player``'s Skill stack that it sees: the two a level-up reveals
    while it chooses (13.6.4), else none."""
    cdef int n = gs.players[player].n_skill_stack
    if gs.current == player and gs.phase == PH_END_TURN and gs.turn.end_stage == END_LEVEL_SKILL_:
        return 2 if n >= 2 else n
    return 0


cdef uint64_t visible_hash(const GameState* gs, const Statics* st, int player) noexcept nogil:
    """A hash of public and own-private facts only (never of a hidden zone's order or
    content): the clock, the acting player's cards in sight, the map as revealed, the
    Source, the offers and the sizes of every hidden zone."""
    cdef uint64_t h = 0xCBF29CE484222325ULL
    cdef const Player* pl = &gs.players[player]
    cdef const Hex* hx
    cdef int i, k, c
    h = _mix(h, player)
    h = _mix(h, gs.scenario)
    h = _mix(h, gs.round)
    h = _mix(h, gs.time)
    h = _mix(h, gs.phase)
    h = _mix(h, gs.current)
    h = _mix(h, gs.turn_player)
    h = _mix(h, gs.steps)
    h = _mix(h, pl.hero)
    h = _mix(h, pl.fame)
    h = _mix(h, pl.reputation)
    h = _mix(h, pl.level)
    h = _mix(h, pl.position)
    h = _mix(h, pl.n_deck)
    h = _mix(h, pl.n_tactic_cards)
    h = _mix(h, pl.tactic)
    h = _mix16(h, pl.hand, pl.n_hand)
    h = _mix16(h, pl.discard, pl.n_discard)
    h = _mix16(h, pl.play_area, pl.n_play)
    for i in range(revealed_skills(gs, player)):            # 13.6.4: the revealed tokens
        h = _mix(h, pl.skill_stack[pl.n_skill_stack - 1 - i])
    for c in range(4):
        h = _mix(h, pl.crystals[c])
    for i in range(6):
        h = _mix(h, pl.units[i].card)
        h = _mix(h, pl.units[i].ready)
        h = _mix(h, pl.units[i].wounds)
    h = _mix(h, gs.turn.move_points)
    h = _mix(h, gs.turn.influence)
    h = _mix(h, gs.turn.pending_choice)
    h = _mix(h, gs.turn.handler_row)
    h = _mix(h, <long long>gs.turn.ask_options)
    for c in range(6):
        h = _mix(h, gs.turn.mana_tokens[c])
    h = _mix(h, gs.n_tiles)
    for i in range(gs.n_tiles):
        h = _mix(h, gs.tiles[i].content)
        h = _mix(h, gs.tiles[i].a)
        h = _mix(h, gs.tiles[i].b)
    h = _mix(h, gs.n_tile_stack)
    for i in range(gs.n_hexes):
        hx = &gs.hexes[i]
        h = _mix(h, hx.flags)
        h = _mix(h, hx.owner)
        h = _mix(h, hx.n_tokens)
        if hx.flags & HEX_TOKENS_REVEALED:
            for k in range(hx.n_tokens):
                h = _mix(h, gs.token_enemy[hx.tokens[k]] if hx.tokens[k] >= 0 else -1)
        if hx.flags & HEX_RUINS_REVEALED:
            h = _mix(h, hx.ruins)
    for c in range(NUM_PILES):
        h = _mix(h, gs.n_pile[c])
        h = _mix(h, gs.n_pile_discard[c])
    h = _mix(h, gs.n_ruins_pile)
    for i in range(gs.n_dice):
        h = _mix(h, gs.dice[i])
    h = _mix(h, gs.dice_taken)
    h = _mix16(h, gs.unit_offer, gs.n_unit_offer)
    h = _mix16(h, gs.aa_offer, 3)
    h = _mix16(h, gs.spell_offer, 3)
    h = _mix(h, gs.n_aa_deck)
    h = _mix(h, gs.n_spell_deck)
    h = _mix(h, gs.n_artifact_deck)
    h = _mix(h, gs.n_regular_units)
    h = _mix(h, gs.n_elite_units)
    if gs.has_dummy:
        h = _mix(h, gs.dummy.n_deck)
        h = _mix16(h, gs.dummy.discard, gs.dummy.n_discard)
    return _finish(h)


# ---------------------------------------------------------------------------------------
# canonicalise + shuffle
# ---------------------------------------------------------------------------------------

cdef void _sort16(int16_t* a, int n) noexcept nogil:
    """Insertion sort (zones hold at most a few hundred entries)."""
    cdef int i, j
    cdef int16_t x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


cdef void _shuffle16(Rng* r, int16_t* a, int n) noexcept nogil:
    """Fisher-Yates from the top down (the same draws for the same n)."""
    cdef int i, j
    cdef int16_t x
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(r, <unsigned int>(i + 1))
        x = a[i]
        a[i] = a[j]
        a[j] = x


cdef void _resample16(Rng* r, int16_t* a, int n) noexcept nogil:
    _sort16(a, n)
    _shuffle16(r, a, n)


cdef void _resample8(Rng* r, int8_t* a, int n) noexcept nogil:
    cdef int16_t buf[64]
    cdef int i
    if n > 64:
        n = 64
    for i in range(n):
        buf[i] = a[i]
    _resample16(r, buf, n)
    for i in range(n):
        a[i] = <int8_t>buf[i]


cdef inline int _tv(const Table* t, int row, int col) noexcept nogil:
    return t.data[row * t.width + col]


cdef inline int _gather(int16_t* pool, int n, const int16_t* zone, int lo, int hi) noexcept nogil:
    """Append zone[lo:hi] to the pool of n cards; the new count."""
    cdef int i
    for i in range(lo, hi):
        pool[n] = zone[i]
        n += 1
    return n


cdef inline int _scatter(const int16_t* pool, int n, int16_t* zone, int lo, int hi) noexcept nogil:
    """Refill zone[lo:hi] from the pool, starting at its card n; the next card."""
    cdef int i
    for i in range(lo, hi):
        zone[i] = pool[n]
        n += 1
    return n


cdef void _resample_deck(Rng* r, Player* pl, bint keep_known) noexcept nogil:
    """The unknown middle of the Deed deck and the cards under Sparing Power, pooled."""
    cdef int16_t pool[MAX_DECK_CARDS + 8]
    cdef int top = 0, bottom = 0, lo, hi, n
    if keep_known:
        deck_taken(pl, 0)                          # clamp the known counts to the deck
        top = pl.deck_known_top
        bottom = pl.deck_known_bottom
    lo = bottom
    hi = pl.n_deck - top
    n = _gather(pool, 0, pl.deck, lo, hi)
    n = _gather(pool, n, pl.tactic_cards, 0, pl.n_tactic_cards)
    _resample16(r, pool, n)
    n = _scatter(pool, 0, pl.deck, lo, hi)
    _scatter(pool, n, pl.tactic_cards, 0, pl.n_tactic_cards)


cdef void _resample_other(Rng* r, Player* pl) noexcept nogil:
    """Another player's hand and deck (and Sparing Power cards) are all hidden: pooled."""
    cdef int16_t pool[3 * MAX_DECK_CARDS + 8]
    cdef int n
    n = _gather(pool, 0, pl.hand, 0, pl.n_hand)
    n = _gather(pool, n, pl.deck, 0, pl.n_deck)
    n = _gather(pool, n, pl.tactic_cards, 0, pl.n_tactic_cards)
    _resample16(r, pool, n)
    n = _scatter(pool, 0, pl.hand, 0, pl.n_hand)
    n = _scatter(pool, n, pl.deck, 0, pl.n_deck)
    _scatter(pool, n, pl.tactic_cards, 0, pl.n_tactic_cards)


cdef void _resample_tokens(Rng* r, GameState* gs, const Statics* st) noexcept nogil:
    """Face-down enemy tokens, colour by colour: the colour piles and the face-down tokens on
    the map (their backs show the colour).  Instances are renumbered over a fixed order of
    places (map hexes in index order, then the pile bottom to top), so that which instance
    id lay where carries no information either."""
    cdef int16_t inst[MAX_TOKENS]
    cdef int16_t enemy[MAX_TOKENS]
    cdef int32_t place[MAX_TOKENS]             # hex * 8 + slot, or -(pile position + 1)
    cdef int c, h, k, n, i, t, skip
    cdef Hex* hx
    skip = gs.turn.recon_token - 1             # a token looked at (Scouts) is known
    for c in range(NUM_PILES):
        n = 0
        for h in range(gs.n_hexes):
            hx = &gs.hexes[h]
            if hx.flags & HEX_TOKENS_REVEALED:
                continue
            for k in range(hx.n_tokens):
                t = hx.tokens[k]
                if t < 0 or t == skip or gs.token_enemy[t] < 0 or n >= MAX_TOKENS:
                    continue
                if _tv(&st.enemies, gs.token_enemy[t], st.cols.enemy_colour) != c:
                    continue
                if _in_combat(gs, t):
                    continue
                inst[n] = <int16_t>t
                enemy[n] = gs.token_enemy[t]
                place[n] = h * 8 + k
                n += 1
        for k in range(gs.n_pile[c]):
            if n >= MAX_TOKENS:
                break
            t = gs.piles[c][k]
            inst[n] = <int16_t>t
            enemy[n] = gs.token_enemy[t]
            place[n] = -(k + 1)
            n += 1
        _sort16(inst, n)
        _resample16(r, enemy, n)
        for i in range(n):
            t = inst[i]
            gs.token_enemy[t] = enemy[i]
            if place[i] >= 0:
                gs.hexes[place[i] // 8].tokens[place[i] % 8] = <int16_t>t
            else:
                gs.piles[c][-place[i] - 1] = <int16_t>t


cdef bint _in_combat(const GameState* gs, int token) noexcept nogil:
    cdef int i
    if not gs.combat.active:
        return False
    for i in range(gs.combat.n_enemies):
        if gs.combat.enemies[i].token == token:
            return True
    return False


cdef void _resample_ruins(Rng* r, GameState* gs) noexcept nogil:
    """Face-down ruins tokens on the map and the ruins pile, pooled."""
    cdef int16_t pool[MAX_TILES * 7 + 16]
    cdef int n = 0, h, k
    for h in range(gs.n_hexes):
        if gs.hexes[h].ruins >= 0 and not (gs.hexes[h].flags & HEX_RUINS_REVEALED):
            pool[n] = gs.hexes[h].ruins
            n += 1
    for k in range(gs.n_ruins_pile):
        pool[n] = gs.ruins_pile[k]
        n += 1
    _resample16(r, pool, n)
    n = 0
    for h in range(gs.n_hexes):
        if gs.hexes[h].ruins >= 0 and not (gs.hexes[h].flags & HEX_RUINS_REVEALED):
            gs.hexes[h].ruins = <int8_t>pool[n]
            n += 1
    for k in range(gs.n_ruins_pile):
        gs.ruins_pile[k] = <int8_t>pool[n]
        n += 1


cdef void _resample_tiles(Rng* r, GameState* gs, const Statics* st) noexcept nogil:
    """The tile stack, within each back (Countryside / Core): 1.2.13 puts the Countryside
    tiles on top, and a player sees the backs."""
    cdef int16_t pool[MAX_TILES]
    cdef int n, i, back, kind
    for back in range(2):
        n = 0
        for i in range(gs.n_tile_stack):
            kind = _tv(&st.tiles, gs.tile_stack[i], st.cols.tile_kind)
            if (kind == TILE_COUNTRYSIDE) == (back == 0):
                pool[n] = gs.tile_stack[i]
                n += 1
        _resample16(r, pool, n)
        n = 0
        for i in range(gs.n_tile_stack):
            kind = _tv(&st.tiles, gs.tile_stack[i], st.cols.tile_kind)
            if (kind == TILE_COUNTRYSIDE) == (back == 0):
                gs.tile_stack[i] = <int8_t>pool[n]
                n += 1


cdef inline void _tail16(int16_t* a, int n, int size) noexcept nogil:
    cdef int i
    for i in range(n if n > 0 else 0, size):
        a[i] = -1


cdef inline void _tail8(int8_t* a, int n, int size) noexcept nogil:
    cdef int i
    for i in range(n if n > 0 else 0, size):
        a[i] = -1


cdef void _clear_tails(GameState* gs) noexcept nogil:
    """Entries past the end of a zone are dead, but they keep what lay there before (a drawn
    card, a drawn token): set them to -1 (as a fixture load does) so that they carry no
    history into the copy."""
    cdef int p, c, h
    cdef Player* pl
    for p in range(MAX_PLAYERS):
        pl = &gs.players[p]
        _tail16(pl.deck, pl.n_deck, MAX_DECK_CARDS)
        _tail16(pl.hand, pl.n_hand, MAX_HAND_CARDS)
        _tail16(pl.discard, pl.n_discard, MAX_DISCARD_CARDS)
        _tail16(pl.play_area, pl.n_play, MAX_PLAY_CARDS)
        _tail16(pl.tactic_cards, pl.n_tactic_cards, 8)
        _tail8(pl.skill_stack, pl.n_skill_stack, 12)
        _tail16(pl.set_aside, pl.n_set_aside, 4)
    _tail16(gs.dummy.deck, gs.dummy.n_deck, MAX_DUMMY_CARDS)
    _tail16(gs.dummy.discard, gs.dummy.n_discard, MAX_DUMMY_CARDS)
    _tail8(gs.dummy.skill_stack, gs.dummy.n_skill_stack, 12)
    _tail8(gs.dice, gs.n_dice, MAX_DICE)             # a die that left the Source (Source Opening's extra die)
    _tail16(gs.turn.path, gs.turn.n_path, MAX_PATH)
    for h in range(gs.n_hexes):
        _tail16(gs.hexes[h].tokens, gs.hexes[h].n_tokens, 6)
    _tail8(gs.tile_stack, gs.n_tile_stack, MAX_TILES)
    for c in range(NUM_PILES):
        _tail16(gs.piles[c], gs.n_pile[c], MAX_PILE)
        _tail16(gs.pile_discard[c], gs.n_pile_discard[c], MAX_PILE)
    _tail8(gs.ruins_pile, gs.n_ruins_pile, 16)
    _tail16(gs.unit_offer, gs.n_unit_offer, MAX_OFFER)
    _tail16(gs.aa_deck, gs.n_aa_deck, MAX_DECK)
    _tail16(gs.spell_deck, gs.n_spell_deck, MAX_DECK)
    _tail16(gs.artifact_deck, gs.n_artifact_deck, MAX_DECK)
    _tail16(gs.regular_units, gs.n_regular_units, MAX_DECK)
    _tail16(gs.elite_units, gs.n_elite_units, MAX_DECK)
    _tail8(gs.skill_offer, gs.n_skill_offer, 24)


cdef int determinize(GameState* gs, const Statics* st, int player, uint64_t seed) noexcept nogil:
    cdef uint64_t vh
    cdef Rng r
    cdef int p, s
    if player < 0 or player >= gs.n_players:
        return -1
    vh = visible_hash(gs, st, player)
    rng_seed(&r, seed, vh, <uint64_t>DETERMINIZE_STREAM)
    # the order of these steps is part of the result: keep it fixed
    for p in range(gs.n_players):
        if p == player:
            if not (gs.current == player and gs.turn.ask == ASK_DECK_CARD_):
                _resample_deck(&r, &gs.players[p], True)
        else:
            _resample_other(&r, &gs.players[p])
        # the top last: a level-up's two revealed tokens stay on top (13.6.4)
        _resample8(&r, gs.players[p].skill_stack, gs.players[p].n_skill_stack - revealed_skills(gs, p))
    if gs.has_dummy:
        _resample16(&r, gs.dummy.deck, gs.dummy.n_deck)
        _resample8(&r, gs.dummy.skill_stack, gs.dummy.n_skill_stack)
    _resample_tokens(&r, gs, st)
    _resample_ruins(&r, gs)
    _resample_tiles(&r, gs, st)
    _resample16(&r, gs.aa_deck, gs.n_aa_deck)
    _resample16(&r, gs.spell_deck, gs.n_spell_deck)
    _resample16(&r, gs.artifact_deck, gs.n_artifact_deck)
    _resample16(&r, gs.regular_units, gs.n_regular_units)
    _resample16(&r, gs.elite_units, gs.n_elite_units)
    _clear_tails(gs)
    # all future chance: new streams from (seed, visible hash); the record fields follow,
    # so that nothing in the copy can re-derive the true streams
    for s in range(NUM_STREAMS):
        rng_seed(&gs.rng[s], seed, vh, <uint64_t>s)
    gs.seed = seed
    gs.game_index = vh
    return 0


# ---------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------

def determinize_core(GameCore core, int player, seed):
    """Resample, in place, everything ``player`` cannot know in ``core`` (see the module
    header ``ext/_determinize.pxd``).  Use on a copy: :meth:`mksim.game.State.determinize`.

    Raises
    ------
    ValueError
        ``player`` is not a player of the game.
    """
    cdef uint64_t s = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    cdef int err
    with nogil:
        err = determinize(&core.gs, &core.st, player, s)
    if err != 0:
        raise ValueError(f"player {player} is not a player of this game ({core.gs.n_players} players)")


def visible_hash_core(GameCore core, int player):
    """:func:`visible_hash` of ``core`` for ``player`` (an int, for tests)."""
    if player < 0 or player >= core.gs.n_players:
        raise ValueError(f"player {player} is not a player of this game")
    return visible_hash(&core.gs, &core.st, player)
