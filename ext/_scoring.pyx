# cython: language_level=3
"""Level-up, end-of-turn helpers, the dummy player and scoring.

Rules 10.7.12 (crystal mine), 10.9 (hand-limit bonuses), 13.3 (clearing the play area),
13.6 (level-up), 13.7 (drawing), 17.3.1 (First Reconnaissance solo score), 18.4 (the
dummy's turn and round preparation), 20.2 (standard achievements) and 20.5 (solo scoring).

The C functions (``noexcept nogil``, declared in ``_scoring.pxd``) work on one GameState and
the static views of ``_state.Statics`` (cards / units / levels tables, site codes).  They
never change gs.phase or gs.end_announced_by: the engine sequences the end of turn (13.1)
and records announcements.  :class:`ScoringTester` is a thin Python surface over a
:class:`mksim._state.GameCore` for tests and tools: setters to build a situation plus
wrappers of the C functions.
"""
from libc.stdint cimport int8_t, int16_t

from mksim._types cimport (
    GameState, Hex, Player, Dummy, Unit, MAX_PLAYERS, MAX_DECK_CARDS, MAX_HAND_CARDS, MAX_DISCARD_CARDS, MAX_PLAY_CARDS, MAX_DUMMY_CARDS, MAX_UNITS, MAX_SKILLS, NUM_COLOURS,
    HEX_CONQUERED, HEX_BURNED, DECK_BASIC, DECK_AA, DECK_SPELL, DECK_ARTIFACT, DECK_WOUND, COLOURLESS,
)
from mksim._state cimport GameCore, Statics, Table
from mksim._rng cimport rng_shuffle_i16, STREAM_DUMMY
from mksim._knowledge cimport deck_taken, deck_shuffled

from mksim import words as _ct          # content word lists (not the content loader)
from mksim import effects as _fx

cdef enum:
    CRYSTAL_LIMIT = 3          # 5.1.3, 10.7.12.1
    INT8_MAX = 127

ACHIEVEMENT_NAMES = ("knowledge", "loot", "leader", "conqueror", "adventurer", "beating")


cdef inline int tv(const Table* t, int row, int col) noexcept nogil:
    return t.data[row * t.width + col]


cdef inline int level_row(const Statics* st, int level) noexcept nogil:
    """Row of the levels table for a level, clamped to 1 .. rows."""
    if level < 1:
        level = 1
    if level > st.levels.rows:
        level = st.levels.rows
    return level - 1


# ---------------------------------------------------------------------------------------
# Levels (13.6)
# ---------------------------------------------------------------------------------------

cdef int level_for_fame(const Statics* st, int fame) noexcept nogil:
    """13.6.2: the highest level whose Fame threshold (L*L - 1: 0 3 8 15 24 35 48 63 80 99)
    is reached; 1 for any Fame below 3.  No level exists beyond the table (13.6.5)."""
    cdef int row, level = 1
    for row in range(st.levels.rows):
        if fame >= tv(&st.levels, row, st.cols.level_fame):
            level = row + 1
    return level


cdef int levels_gained(const Statics* st, int old_fame, int new_fame) noexcept nogil:
    """13.6.1: one level per line of the Fame track crossed (0 if Fame did not rise)."""
    cdef int n = level_for_fame(st, new_fame) - level_for_fame(st, old_fame)
    return n if n > 0 else 0


cdef int apply_level(GameState* gs, const Statics* st, int p, int level) noexcept nogil:
    """Resolve reaching `level` (13.6.1: one level at a time, ascending, so `level` must be
    the player's level + 1; else -1).  Sets the level; 13.6.3: at odd levels 3 5 7 9 the
    removed Level token becomes +1 Command token (Armor and Hand limit are then read from
    the levels table by level, see hero_armor / hand_limit).  Returns 1 at the even levels
    2 4 6 8 10, where 13.6.4 grants one Skill and one Advanced Action (the engine offers
    those choices), else 0."""
    cdef Player* pl = &gs.players[p]
    if level != pl.level + 1 or level < 2 or level > st.levels.rows:
        return -1
    pl.level = <int8_t>level
    if level % 2 == 1:
        pl.command_tokens += 1                 # 13.6.3
        return 0
    return 1                                   # 13.6.4


cdef int hero_armor(const GameState* gs, const Statics* st, int p) noexcept nogil:
    """13.6.2: the Armor printed for the player's level (no effect modifiers)."""
    return tv(&st.levels, level_row(st, gs.players[p].level), st.cols.level_armor)


cdef int hand_limit(const GameState* gs, const Statics* st, int p) noexcept nogil:
    """13.6.2, 13.7.2: the Hand limit printed for the player's level (no keep / city /
    Planning bonus; see hand_limit_bonus)."""
    return tv(&st.levels, level_row(st, gs.players[p].level), st.cols.level_hand_limit)


# ---------------------------------------------------------------------------------------
# End of turn (13)
# ---------------------------------------------------------------------------------------

cdef int clear_play_area(GameState* gs, const Statics* st, int p) noexcept nogil:
    """13.3: every card played this turn goes to the discard pile (13.3.2; thrown-away cards
    are never in the play area: the engine removes them when thrown) and every mana token in
    the play area returns to the bank (13.3.1; crystals stay).  Returns the cards moved."""
    cdef Player* pl = &gs.players[p]
    cdef int i, n = pl.n_play
    for i in range(n):
        if pl.n_discard < MAX_DISCARD_CARDS:
            pl.discard[pl.n_discard] = pl.play_area[i]
            pl.n_discard += 1
        else:
            gs.cards_refused += 1               # the engine stops the game (ERR_CAPACITY)
        pl.play_area[i] = -1
    pl.n_play = 0
    for i in range(<int>NUM_COLOURS):
        gs.turn.mana_tokens[i] = 0              # 13.3.1
    return n


cdef int draw_to_limit(GameState* gs, const Statics* st, int p, int limit) noexcept nogil:
    """13.7.2: draw from the top of the Deed deck until the hand holds `limit` cards (the
    caller adds hand_limit_bonus and Planning).  13.7.3: a hand at or above the limit draws
    nothing and is never discarded down.  13.7.4: stop when the deck runs out (no reshuffle).
    Returns the cards drawn."""
    cdef Player* pl = &gs.players[p]
    cdef int n = 0
    while pl.n_hand < limit and pl.n_deck > 0 and pl.n_hand < MAX_HAND_CARDS:
        pl.n_deck -= 1
        pl.hand[pl.n_hand] = pl.deck[pl.n_deck]
        pl.n_hand += 1
        n += 1
    deck_taken(pl, n)
    return n


cdef int hand_limit_bonus(const GameState* gs, const Statics* st, int p) noexcept nogil:
    """10.9: Hand-limit bonus for a player ending the turn on or next to
    * a keep they own (10.9.1): + the number of keeps they own anywhere on the map;
    * a conquered city they lead (hex.owner, 10.9.2): +2, or +1 with at least one Shield on
      its City card (hex.city_shields) without leading it;
    only the larger of the two applies (10.9.3).  0 when off the map."""
    cdef int pos = gs.players[p].position
    cdef int d, h, keeps = 0, keep_bonus = 0, city_bonus = 0
    cdef bint near_keep = False
    cdef const Hex* hx
    if pos < 0 or pos >= gs.n_hexes:
        return 0
    for d in range(-1, 6):
        h = pos if d < 0 else gs.hexes[pos].neighbour[d]
        if h < 0:
            continue
        hx = &gs.hexes[h]
        if hx.site == st.sites.city and (hx.flags & HEX_CONQUERED):
            if hx.owner == p:
                city_bonus = 2                  # 10.9.2: the city's leader
            elif hx.city_shields[p] > 0 and city_bonus < 1:
                city_bonus = 1                  # 10.9.2: a Shield on its City card
            continue
        if hx.owner != p:
            continue
        if hx.site == st.sites.keep:
            near_keep = True                    # 10.9.1
    if near_keep:
        for h in range(gs.n_hexes):
            if gs.hexes[h].site == st.sites.keep and gs.hexes[h].owner == p:
                keeps += 1
        keep_bonus = keeps
    return keep_bonus if keep_bonus > city_bonus else city_bonus   # 10.9.3


cdef int space_benefit_crystal(GameState* gs, const Statics* st, int p) noexcept nogil:
    """13.4.2, 10.7.12.1: ending the turn on a crystal mine gives one crystal of the mine's
    colour, nothing if the player already holds 3 of it.  Returns the colour gained, -1 if
    none (not on a mine, or at the limit)."""
    cdef Player* pl = &gs.players[p]
    cdef int c, pos = pl.position
    if pos < 0 or pos >= gs.n_hexes or gs.hexes[pos].site != st.sites.crystal_mine:
        return -1
    for c in range(4):
        if gs.hexes[pos].colours & (1 << c):
            if pl.crystals[c] >= CRYSTAL_LIMIT:
                return -1
            pl.crystals[c] += 1
            return c
    return -1


# ---------------------------------------------------------------------------------------
# The dummy player (18.4)
# ---------------------------------------------------------------------------------------

cdef inline int dummy_flip(Dummy* d, int n) noexcept nogil:
    """Turn over up to n cards from the top of the dummy's deck onto its discard pile
    (18.4.3: as many as possible).  Returns the last card turned, -1 if none."""
    cdef int card = -1
    while n > 0 and d.n_deck > 0:
        d.n_deck -= 1
        card = d.deck[d.n_deck]
        d.discard[d.n_discard] = <int16_t>card
        d.n_discard += 1
        n -= 1
    return card


cdef int dummy_turn(GameState* gs, const Statics* st) noexcept nogil:
    """One turn of the dummy player.
    18.4.1, 18.2.3: if its Deed deck is empty at the start of its turn it announces the End
    of the Round: returns 1 and changes nothing (the engine records the announcement).
    18.4.2: otherwise it turns 3 cards from its deck onto its discard pile; if it holds k
    crystals of the colour of the last one (cards table colour; Artifacts and Wounds are
    colourless: k = 0) it turns k more.  18.4.3: with too few cards it turns as many as
    possible.  Returns 0."""
    cdef Dummy* d = &gs.dummy
    cdef int last, colour
    if d.n_deck <= 0:
        return 1                                # 18.4.1
    last = dummy_flip(d, 3)                     # 18.4.2
    colour = tv(&st.cards, last, st.cols.card_colour)
    if 0 <= colour < COLOURLESS and d.crystals[colour] > 0:
        dummy_flip(d, d.crystals[colour])       # 18.4.2: k more
    return 0


cdef int dummy_round_prep(GameState* gs, const Statics* st, int aa_card, int spell_colour) noexcept nogil:
    """18.4.4 round preparation of the dummy: `aa_card` (the AA leaving the lowest position
    of the AA offer, 2.2.5; -1 = none) joins its Deed deck; it gains one crystal of
    `spell_colour` (colour of the Spell leaving the Spell offer, basic colour 0-3; anything
    else = none) with no 3-crystal limit; then its deck and discard pile are shuffled
    together into a new deck (gs.rng[STREAM_DUMMY]).  Returns the new deck size, -1 if the
    cards exceed MAX_DUMMY_CARDS (nothing changed)."""
    cdef Dummy* d = &gs.dummy
    cdef int i, extra = 1 if aa_card >= 0 else 0
    if d.n_deck + d.n_discard + extra > MAX_DUMMY_CARDS:
        return -1
    if aa_card >= 0:
        d.deck[d.n_deck] = <int16_t>aa_card
        d.n_deck += 1
    if 0 <= spell_colour < 4 and d.crystals[spell_colour] < INT8_MAX:
        d.crystals[spell_colour] += 1           # no 3-crystal limit
    for i in range(d.n_discard):
        d.deck[d.n_deck] = d.discard[i]
        d.n_deck += 1
    d.n_discard = 0
    rng_shuffle_i16(&gs.rng[<int>STREAM_DUMMY], d.deck, d.n_deck)
    return d.n_deck


# ---------------------------------------------------------------------------------------
# Scoring (20)
# ---------------------------------------------------------------------------------------

cdef inline void count_cards(const Statics* st, const int16_t* cards, int n, int* per_deck) noexcept nogil:
    cdef int i, k
    for i in range(n):
        if cards[i] < 0:
            continue
        k = tv(&st.cards, cards[i], st.cols.card_deck)
        if 0 <= k <= DECK_WOUND:
            per_deck[k] += 1


cdef int achievement_scores(const GameState* gs, const Statics* st, int p, int* out6) noexcept nogil:
    """20.2 [R]: the player's points in the six standard categories (order of Achievement,
    out6[NUM_ACHIEVEMENTS]); returns their sum.  Deed cards = deck + hand + discard pile +
    play area.  Knowledge +2/Spell +1/AA; Loot +2/Artifact (Deed cards and Banners attached to
    Units) +1 per 2 crystals; Leader: Unit levels, a wounded Unit half (rounded down);
    Conqueror +2 per own Shield (hex owner, HEX_CONQUERED or HEX_BURNED) on a keep, mage tower
    or monastery; Adventurer +2 per own Shield on an adventure site (sites.toml category
    "adventure": dungeon, tomb, monster den, spawning grounds, ancient ruins, maze,
    labyrinth); Beating -2 per Wound card among Deed cards (Wounds on Units do not count)."""
    cdef const Player* pl = &gs.players[p]
    cdef int per_deck[5]
    cdef int i, lvl, site, crystals = 0, banners = 0, leader = 0, conq = 0, adv = 0
    cdef const Hex* hx
    for i in range(5):
        per_deck[i] = 0
    count_cards(st, pl.deck, pl.n_deck, per_deck)
    count_cards(st, pl.hand, pl.n_hand, per_deck)
    count_cards(st, pl.discard, pl.n_discard, per_deck)
    count_cards(st, pl.play_area, pl.n_play, per_deck)
    for i in range(4):
        crystals += pl.crystals[i]
    for i in range(MAX_UNITS):
        if pl.units[i].card < 0:
            continue
        lvl = tv(&st.units, pl.units[i].card, st.cols.unit_level)
        leader += lvl // 2 if pl.units[i].wounds > 0 else lvl
        if pl.units[i].banner >= 0:
            banners += 1
    for i in range(gs.n_hexes):
        hx = &gs.hexes[i]
        site = hx.site
        if hx.owner != p or site < 0:
            continue
        if (site == st.sites.keep or site == st.sites.mage_tower or site == st.sites.monastery) \
                and (hx.flags & (HEX_CONQUERED | HEX_BURNED)):
            conq += 1
        elif site < 32 and (st.sites.adventure_mask >> site) & 1 and (hx.flags & HEX_CONQUERED):
            adv += 1
    out6[<int>ACH_KNOWLEDGE] = 2 * per_deck[DECK_SPELL] + per_deck[DECK_AA]
    out6[<int>ACH_LOOT] = 2 * (per_deck[DECK_ARTIFACT] + banners) + crystals // 2
    out6[<int>ACH_LEADER] = leader
    out6[<int>ACH_CONQUEROR] = 2 * conq
    out6[<int>ACH_ADVENTURER] = 2 * adv
    out6[<int>ACH_BEATING] = -2 * per_deck[DECK_WOUND]
    return (out6[0] + out6[1] + out6[2] + out6[3] + out6[4] + out6[5])


cdef int cities_conquered(const GameState* gs, const Statics* st) noexcept nogil:
    """City spaces on the map marked HEX_CONQUERED (for 20.4 / 20.5)."""
    cdef int h, n = 0
    for h in range(gs.n_hexes):
        if gs.hexes[h].site == st.sites.city and (gs.hexes[h].flags & HEX_CONQUERED):
            n += 1
    return n


cdef int solo_score(const GameState* gs, const Statics* st, int p, int cities_total,
                    int n_cities_conquered, int rounds_left, int end_announced_last_round) noexcept nogil:
    """20.5 Solo Conquest score: Fame + standard achievements without titles (20.5.1)
    + 10 per city conquered + 15 if all `cities_total` cities were conquered + 30 per round
    left unplayed + 1 per card in the dummy's Deed deck + 5 if the End of the Round was not
    announced in the final round (20.5.2)."""
    cdef int out6[6]
    cdef int score = gs.players[p].fame + achievement_scores(gs, st, p, out6)
    score += 10 * n_cities_conquered
    if cities_total > 0 and n_cities_conquered >= cities_total:
        score += 15
    if rounds_left > 0:
        score += 30 * rounds_left
    if gs.has_dummy:
        score += gs.dummy.n_deck
    if not end_announced_last_round:
        score += 5
    return score


cdef int first_recon_score(const GameState* gs, const Statics* st, int p) noexcept nogil:
    """17.3.1 First Reconnaissance, solo variant: standard achievements, no titles, so the
    score is Fame (tile Fame already counted during play, 20.6.3) + achievements."""
    cdef int out6[6]
    return gs.players[p].fame + achievement_scores(gs, st, p, out6)


cdef int competitive_scores(const GameState* gs, const Statics* st, int titles, int* out,
                            int* titles_out) noexcept nogil:
    """17.3.1, 20.1-20.3 [R]: each player's final score in a competitive game (out[p], p <
    gs.n_players): Fame (tile Fame counted during play, 20.6.3) + standard achievements +,
    when ``titles``, the titles of 20.3: in each of the first five categories the highest
    score +3, or +1 to each tied player unless the tie is at 0 (20.3.1); Greatest Beating:
    the most lost a further -3, or -1 to each tied player unless they have no Wounds
    (20.3.2).  ``titles_out[p]`` (may be NULL) gets the title points alone.  Returns the
    best score (most Fame wins; ties share the victory, 20.1.1)."""
    cdef int ach[MAX_PLAYERS][6]
    cdef int tit[MAX_PLAYERS]
    cdef int p, c, best, n_best, n = gs.n_players, top
    for p in range(n):
        out[p] = gs.players[p].fame + achievement_scores(gs, st, p, ach[p])
        tit[p] = 0
    if titles and n >= 2:
        for c in range(NUM_ACHIEVEMENTS):
            best = ach[0][c]
            for p in range(1, n):
                if (c != ACH_BEATING and ach[p][c] > best) or (c == ACH_BEATING and ach[p][c] < best):
                    best = ach[p][c]
            n_best = 0
            for p in range(n):
                n_best += ach[p][c] == best
            if best == 0:
                continue                       # a tie at 0 (or nobody scored / lost anything)
            for p in range(n):
                if ach[p][c] == best:
                    if c == ACH_BEATING:
                        tit[p] += -3 if n_best == 1 else -1
                    else:
                        tit[p] += 3 if n_best == 1 else 1
    top = -1000000
    for p in range(n):
        out[p] += tit[p]
        if titles_out != NULL:
            titles_out[p] = tit[p]
        if out[p] > top:
            top = out[p]
    return top


# ---------------------------------------------------------------------------------------
# Python surface (tests and tools)
# ---------------------------------------------------------------------------------------

cdef class ScoringTester:
    """The scoring / end-of-turn rules applied to one :class:`GameCore` (shares its state).

    Cards, units and sites may be given by id (str) or by table index (int)."""
    cdef readonly GameCore core

    def __init__(self, GameCore core):
        self.core = core

    cdef Player* _pl(self, int p) except NULL:
        if p < 0 or p >= self.core.gs.n_players:
            raise IndexError(f"player {p} is not in the game (0..{self.core.gs.n_players - 1})")
        return &self.core.gs.players[p]

    def _card(self, c):
        return self.core.tables.card_ids.index(c) if isinstance(c, str) else int(c)

    def _unit(self, u):
        return self.core.tables.unit_ids.index(u) if isinstance(u, str) else int(u)

    cdef int _fill(self, int16_t* arr, cards, int cap) except -1:
        cards = [self._card(c) for c in cards]
        if len(cards) > cap:
            raise ValueError(f"at most {cap} cards")
        for i, c in enumerate(cards):
            arr[i] = <int16_t>c
        return len(cards)

    # -- setters ------------------------------------------------------------------------
    def set_fame(self, int p, int fame):
        self.core.version += 1           # the Engine's cached legal list is stale
        self._pl(p).fame = <int16_t>fame

    def set_level(self, int p, int level, command_tokens=None):
        cdef Player* pl = self._pl(p)
        self.core.version += 1           # the Engine's cached legal list is stale
        pl.level = <int8_t>level
        if command_tokens is not None:
            pl.command_tokens = <int8_t>command_tokens

    def set_cards(self, int p, deck=None, hand=None, discard=None, play=None):
        """Replace the given piles (top of the deck = last item)."""
        cdef Player* pl = self._pl(p)
        self.core.version += 1           # the Engine's cached legal list is stale
        if deck is not None:
            pl.n_deck = self._fill(pl.deck, deck, MAX_DECK_CARDS)
            deck_shuffled(pl)
        if hand is not None:
            pl.n_hand = self._fill(pl.hand, hand, MAX_HAND_CARDS)
        if discard is not None:
            pl.n_discard = self._fill(pl.discard, discard, MAX_DISCARD_CARDS)
        if play is not None:
            pl.n_play = self._fill(pl.play_area, play, MAX_PLAY_CARDS)

    def set_units(self, int p, units):
        """units: list of (unit, wounds, banner card or None)."""
        cdef Player* pl = self._pl(p)
        self.core.version += 1           # the Engine's cached legal list is stale
        if len(units) > MAX_UNITS:
            raise ValueError(f"at most {MAX_UNITS} units")
        for i in range(MAX_UNITS):
            pl.units[i].card = -1
            pl.units[i].banner = -1
            pl.units[i].wounds = 0
            pl.units[i].ready = 0
        for i, (u, wounds, banner) in enumerate(units):
            pl.units[i].card = <int16_t>self._unit(u)
            pl.units[i].wounds = <unsigned char>wounds
            pl.units[i].banner = <int16_t>(-1 if banner is None else self._card(banner))
            pl.units[i].ready = 1

    def set_skills(self, int p, skills):
        """Skill tokens owned, face up (8.1.3), by id or table index; slots in list order."""
        cdef Player* pl = self._pl(p)
        self.core.version += 1           # the Engine's cached legal list is stale
        if len(skills) > MAX_SKILLS:
            raise ValueError(f"at most {MAX_SKILLS} skills")
        ids = self.core.tables.skill_ids
        for i in range(MAX_SKILLS):
            pl.skills[i] = -1
        for i, s in enumerate(skills):
            pl.skills[i] = <int8_t>(ids.index(s) if isinstance(s, str) else int(s))
        pl.skills_used = 0

    def set_crystals(self, int p, crystals):
        """crystals: [red, blue, white, green]."""
        cdef Player* pl = self._pl(p)
        self.core.version += 1           # the Engine's cached legal list is stale
        for i in range(4):
            pl.crystals[i] = <int8_t>crystals[i]

    def set_position(self, int p, int hex):
        self.core.version += 1           # the Engine's cached legal list is stale
        self._pl(p).position = <int16_t>hex

    def set_hex(self, int hex, site=None, owner=None, flags=None, colours=None, city_shields=None):
        """Overwrite fields of a hex; site by SITE_IDS id or code (-1 / "" = none), flags as
        HEX_* bits, colours as a list of basic colour names, city_shields as Shields per
        player on the City card (placed in player order, 11.12.2)."""
        cdef Hex* hx
        self.core.version += 1           # the Engine's cached legal list is stale
        if hex < 0 or hex >= self.core.gs.n_hexes:
            raise IndexError(f"hex {hex} is not on the map")
        hx = &self.core.gs.hexes[hex]
        if site is not None:
            hx.site = <int8_t>(_ct.SITE_IDS.index(site) if isinstance(site, str) and site else
                               (-1 if isinstance(site, str) else site))
        if owner is not None:
            hx.owner = <int8_t>owner
        if flags is not None:
            hx.flags = <unsigned char>flags
        if colours is not None:
            hx.colours = <unsigned char>sum(1 << _fx.BASIC_COLOURS.index(c) for c in colours)
        if city_shields is not None:
            placed = 0
            for i in range(MAX_PLAYERS):
                n = city_shields[i] if i < len(city_shields) else 0
                hx.city_shields[i] = <int8_t>n
                hx.city_first[i] = <unsigned char>(placed + 1 if n > 0 else 0)
                placed += n

    def clear_owners(self):
        """No Shield anywhere on the map."""
        self.core.version += 1           # the Engine's cached legal list is stale
        for h in range(self.core.gs.n_hexes):
            self.core.gs.hexes[h].owner = -1

    def set_dummy(self, deck=None, discard=None, crystals=None):
        """Dummy piles (top of the deck = last item) and crystals [red, blue, white, green]."""
        cdef Dummy* d = &self.core.gs.dummy
        self.core.version += 1           # the Engine's cached legal list is stale
        if deck is not None:
            d.n_deck = self._fill(d.deck, deck, MAX_DUMMY_CARDS)
        if discard is not None:
            d.n_discard = self._fill(d.discard, discard, MAX_DUMMY_CARDS)
        if crystals is not None:
            for i in range(4):
                d.crystals[i] = <int8_t>crystals[i]

    def set_mana_tokens(self, tokens):
        cdef int i
        self.core.version += 1           # the Engine's cached legal list is stale
        for i in range(<int>NUM_COLOURS):
            self.core.gs.turn.mana_tokens[i] = <int8_t>tokens[i]

    # -- reading ------------------------------------------------------------------------
    def mana_tokens(self):
        return [self.core.gs.turn.mana_tokens[i] for i in range(<int>NUM_COLOURS)]

    def player(self, int p=0):
        return self.core.to_dict()["players"][p]

    def dummy(self):
        return self.core.to_dict()["dummy"]

    # -- rules --------------------------------------------------------------------------
    def level_for_fame(self, int fame):
        return level_for_fame(&self.core.st, fame)

    def levels_gained(self, int old_fame, int new_fame):
        return levels_gained(&self.core.st, old_fame, new_fame)

    def apply_level(self, int p, int level):
        self.core.version += 1           # the Engine's cached legal list is stale
        self._pl(p)
        return apply_level(&self.core.gs, &self.core.st, p, level)

    def hero_armor(self, int p=0):
        self._pl(p)
        return hero_armor(&self.core.gs, &self.core.st, p)

    def hand_limit(self, int p=0):
        self._pl(p)
        return hand_limit(&self.core.gs, &self.core.st, p)

    def clear_play_area(self, int p=0):
        self.core.version += 1           # the Engine's cached legal list is stale
        self._pl(p)
        return clear_play_area(&self.core.gs, &self.core.st, p)

    def draw_to_limit(self, int p, int limit):
        self.core.version += 1           # the Engine's cached legal list is stale
        self._pl(p)
        return draw_to_limit(&self.core.gs, &self.core.st, p, limit)

    def hand_limit_bonus(self, int p=0):
        self._pl(p)
        return hand_limit_bonus(&self.core.gs, &self.core.st, p)

    def space_benefit_crystal(self, int p=0):
        self.core.version += 1           # the Engine's cached legal list is stale
        self._pl(p)
        return space_benefit_crystal(&self.core.gs, &self.core.st, p)

    def dummy_turn(self):
        self.core.version += 1           # the Engine's cached legal list is stale
        return dummy_turn(&self.core.gs, &self.core.st)

    def dummy_round_prep(self, aa_card, int spell_colour):
        cdef int aa = -1 if aa_card is None else self._card(aa_card)
        self.core.version += 1           # the Engine's cached legal list is stale
        return dummy_round_prep(&self.core.gs, &self.core.st, aa, spell_colour)

    def achievement_scores(self, int p=0):
        """dict category -> points (20.2), in ACHIEVEMENT_NAMES order."""
        cdef int out6[6]
        self._pl(p)
        achievement_scores(&self.core.gs, &self.core.st, p, out6)
        return {ACHIEVEMENT_NAMES[i]: out6[i] for i in range(6)}

    def cities_conquered(self):
        return cities_conquered(&self.core.gs, &self.core.st)

    def solo_score(self, int p, int cities_total, int n_cities_conquered, int rounds_left,
                   bint end_announced_last_round):
        self._pl(p)
        return solo_score(&self.core.gs, &self.core.st, p, cities_total, n_cities_conquered,
                          rounds_left, end_announced_last_round)

    def first_recon_score(self, int p=0):
        self._pl(p)
        return first_recon_score(&self.core.gs, &self.core.st, p)
