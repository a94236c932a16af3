# Header of ext/_scoring.pyx: level-up, end-of-turn helpers, the dummy player and scoring
# (rules 10.7.12, 10.9, 13.3, 13.6, 13.7, 17.3.1, 18.4, 20.2, 20.5).
#
# Pure C steps on one GameState plus the static Statics views of _state (no Python object,
# `noexcept nogil`).  `p` is a player index.  None of these functions changes gs.phase or
# gs.end_announced_by: the engine sequences the end of turn (13.1) and records announcements.
from mksim._types cimport GameState
from mksim._state cimport Statics

cdef enum Achievement:             # order of the six categories of 20.2 (out6 of achievement_scores)
    ACH_KNOWLEDGE = 0              # +2 per Spell, +1 per Advanced Action among Deed cards
    ACH_LOOT = 1                   # +2 per Artifact (Deed cards, Banners on Units), +1 per 2 crystals
    ACH_LEADER = 2                 # sum of Unit levels, a wounded Unit counts half (rounded down)
    ACH_CONQUEROR = 3              # +2 per own Shield on a keep, mage tower or monastery
    ACH_ADVENTURER = 4             # +2 per own Shield on an adventure site
    ACH_BEATING = 5                # -2 per Wound card among Deed cards
    NUM_ACHIEVEMENTS = 6

# -- levels (13.6) ------------------------------------------------------------------------
cdef int level_for_fame(const Statics* st, int fame) noexcept nogil
cdef int levels_gained(const Statics* st, int old_fame, int new_fame) noexcept nogil
cdef int apply_level(GameState* gs, const Statics* st, int p, int level) noexcept nogil
cdef int hero_armor(const GameState* gs, const Statics* st, int p) noexcept nogil
cdef int hand_limit(const GameState* gs, const Statics* st, int p) noexcept nogil

# -- end of turn (13) ---------------------------------------------------------------------
cdef int clear_play_area(GameState* gs, const Statics* st, int p) noexcept nogil
cdef int draw_to_limit(GameState* gs, const Statics* st, int p, int limit) noexcept nogil
cdef int hand_limit_bonus(const GameState* gs, const Statics* st, int p) noexcept nogil
cdef int space_benefit_crystal(GameState* gs, const Statics* st, int p) noexcept nogil

# -- the dummy player (18.4) --------------------------------------------------------------
cdef int dummy_turn(GameState* gs, const Statics* st) noexcept nogil
cdef int dummy_round_prep(GameState* gs, const Statics* st, int aa_card, int spell_colour) noexcept nogil

# -- scoring (20) -------------------------------------------------------------------------
cdef int achievement_scores(const GameState* gs, const Statics* st, int p, int* out6) noexcept nogil
cdef int cities_conquered(const GameState* gs, const Statics* st) noexcept nogil
cdef int solo_score(const GameState* gs, const Statics* st, int p, int cities_total,
                    int n_cities_conquered, int rounds_left, int end_announced_last_round) noexcept nogil
cdef int first_recon_score(const GameState* gs, const Statics* st, int p) noexcept nogil
cdef int competitive_scores(const GameState* gs, const Statics* st, int titles, int* out, int* titles_out) noexcept nogil
