# What a player knows about the order of its own Deed deck (header only: inline helpers).
#
# The deck is face down, so its order is hidden -- except for cards the player itself put
# on top (a gained card goes on top of the Deed deck, 6.4.1; Steady Tempo, Meditation
# effects put a known card on top or at the bottom).  Player.deck_known_top / _bottom count
# those cards; ext/_determinize.pyx keeps them in place and resamples only the rest.  Every
# engine site that changes the deck calls one of these so that the counts never overstate
# what the player knows (overstating would leak hidden order into a determinized copy).
from mksim._types cimport Player


cdef inline void deck_gained_top(Player* pl) noexcept nogil:
    """A card the player knows was put on top of its deck (6.4.1)."""
    pl.deck_known_top += 1


cdef inline void deck_gained_bottom(Player* pl) noexcept nogil:
    """A card the player knows was put at the bottom of its deck (Steady Tempo)."""
    pl.deck_known_bottom += 1


cdef inline void deck_taken(Player* pl, int n) noexcept nogil:
    """``n`` cards were taken from the top of the deck (drawn, put under Sparing Power)."""
    pl.deck_known_top = <short>(pl.deck_known_top - n if pl.deck_known_top > n else 0)
    if pl.deck_known_top > pl.n_deck:
        pl.deck_known_top = pl.n_deck
    if pl.deck_known_bottom > pl.n_deck - pl.deck_known_top:
        pl.deck_known_bottom = <short>(pl.n_deck - pl.deck_known_top)


cdef inline void deck_shuffled(Player* pl) noexcept nogil:
    """The deck was shuffled (2.2.8, tactics): no position is known any more."""
    pl.deck_known_top = 0
    pl.deck_known_bottom = 0
