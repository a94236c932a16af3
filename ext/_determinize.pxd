# Header of ext/_determinize.pyx: information-fair copies of a game for look-ahead policies.
#
# A look-ahead on State.clone() knows the future: the clone carries the true deck orders,
# face-down tokens, tile stack and the random streams.  determinize() turns a copy into one
# possible world consistent with what `player` knows, and nothing else:
#
#   resampled (hidden from `player`)                 kept (what `player` sees or knows)
#   ---------------------------------------------    -------------------------------------------
#   own Deed deck order, except the known top and    hand, discard, play area, units, crystals,
#     bottom cards (Player.deck_known_top/_bottom,     Fame, level, skills, the deck's size
#     ext/_knowledge.pxd) and except while a deck
#     search is pending (ASK_DECK_CARD: deck shown)
#   cards under Sparing Power (face down, 3.2)       their number
#   face-down enemy tokens on the map and the        each token's colour (its back), face-up
#     colour piles, token by token within a colour     tokens, the discard piles of tokens
#   face-down ruins tokens and the ruins pile        face-up ruins tokens
#   tile stack order, within Countryside / Core      which position holds which back
#     (city tiles have Core backs, 1.2.13)
#   AA, spell, artifact, regular and elite unit      the offers, the Source dice, deck sizes
#     decks (order and hence which cards come next)
#   own and the dummy's skill stacks, the dummy's    the dummy's discard pile and crystals
#     Deed deck order
#   other players' hands and decks (pooled)          their sizes
#   every random stream (rng[0..NUM_STREAMS))        --
#
# Hidden zones are first canonicalised (sorted; token instances renumbered in a fixed order
# of places), then shuffled from a stream seeded by (seed, visible_hash); the game streams
# are re-seeded from the same two numbers.  So the result depends only on what `player`
# can see and on `seed`: two states that differ only in hidden information give the same
# bytes of every field for the same seed.
#
# Known limitation (conservative, it forgets rather than leaks): a card a player put at the
# bottom of the AA / spell / artifact / unit decks (13.5.2, offer refresh) is resampled too.
#
# C policies: `from mksim._determinize cimport determinize` and call it on a copy of the
# engine's state (memcpy of GameState), with the engine's statics `&eng.core.st`.
from libc.stdint cimport uint64_t
from mksim._types cimport GameState
from mksim._state cimport Statics

cdef enum:
    DETERMINIZE_STREAM = 200   # stream id of the resampling draws (never a game or policy stream)

# 64-bit hash of what `player` can see (never reads a hidden zone's order or content).
cdef uint64_t visible_hash(const GameState* gs, const Statics* st, int player) noexcept nogil

# Resample in place everything `player` cannot know (see the table above); returns 0, or -1
# when `player` is not a player of the game (the state is then left unchanged).
cdef int determinize(GameState* gs, const Statics* st, int player, uint64_t seed) noexcept nogil
