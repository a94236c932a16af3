# What a policy may read: cheap read-only accessors over the GameState (header only).
#
# C policies get the Engine in their hook (RandomPolicy.pick_engine in ext/_policies.pxd); the
# game state is `&eng.core.gs` and the statics `&eng.core.st`.  These inline functions are
# the documented reading surface (docs/policies.md "The view"): each reads what the acting
# player can see and nothing hidden (no deck order, no face-down token, no random stream).
# Reading the GameState beyond them is possible in C but then the policy itself must stay
# blind to hidden zones (tests/policy_conformance.py checks it on determinized pairs).
from mksim._types cimport (
    GameState, Player, Hex, Unit, HEX_TOKENS_REVEALED, HEX_RUINS_REVEALED, MAX_PLAYERS,
)


cdef inline int view_actor(const GameState* gs) noexcept nogil:
    """Whose decision it is (a player index; the dummy never decides)."""
    return gs.current if gs.current < MAX_PLAYERS else 0

cdef inline const Player* view_player(const GameState* gs) noexcept nogil:
    """The acting player (hand, discard, play area, units, crystals, Fame, level, position,
    skills, tactic).  Its `deck` array is hidden: read only view_deck_size()."""
    return &gs.players[view_actor(gs)]

cdef inline int view_phase(const GameState* gs) noexcept nogil:
    return gs.phase            # Phase of ext/_types.pxd

cdef inline int view_round(const GameState* gs) noexcept nogil:
    return gs.round

cdef inline int view_time(const GameState* gs) noexcept nogil:
    return gs.time             # DAY 0 / NIGHT 1

cdef inline int view_hand_size(const GameState* gs) noexcept nogil:
    return view_player(gs).n_hand

cdef inline int view_hand_card(const GameState* gs, int i) noexcept nogil:
    return view_player(gs).hand[i]        # card content index

cdef inline int view_deck_size(const GameState* gs) noexcept nogil:
    return view_player(gs).n_deck

cdef inline int view_discard_size(const GameState* gs) noexcept nogil:
    return view_player(gs).n_discard

cdef inline int view_discard_card(const GameState* gs, int i) noexcept nogil:
    return view_player(gs).discard[i]

cdef inline int view_fame(const GameState* gs) noexcept nogil:
    return view_player(gs).fame           # the score so far (scenario scoring adds at the end)

cdef inline int view_position(const GameState* gs) noexcept nogil:
    return view_player(gs).position       # hex index, -1 = off the map

cdef inline int view_crystals(const GameState* gs, int colour) noexcept nogil:
    return view_player(gs).crystals[colour]   # basic colours 0-3

cdef inline int view_mana_tokens(const GameState* gs, int colour) noexcept nogil:
    return gs.turn.mana_tokens[colour]        # Colour 0-5, tokens in the play area

cdef inline int view_move(const GameState* gs) noexcept nogil:
    return gs.turn.move_points

cdef inline int view_influence(const GameState* gs) noexcept nogil:
    return gs.turn.influence

cdef inline int view_attack(const GameState* gs, int kind, int element) noexcept nogil:
    return gs.combat.attack[kind][element]    # AttackKind x Element being assembled

cdef inline int view_block(const GameState* gs, int element) noexcept nogil:
    return gs.combat.block[element]

cdef inline const Unit* view_unit(const GameState* gs, int slot) noexcept nogil:
    return &view_player(gs).units[slot]       # .card < 0 = empty slot

cdef inline int view_n_hexes(const GameState* gs) noexcept nogil:
    return gs.n_hexes                          # every hex on the map is revealed (explored)

cdef inline const Hex* view_hex(const GameState* gs, int h) noexcept nogil:
    """Terrain, site, owner, flags, neighbours of a revealed hex.  Its `tokens` / `ruins`
    are face down unless view_tokens_visible() / view_ruins_visible()."""
    return &gs.hexes[h]

cdef inline bint view_tokens_visible(const GameState* gs, int h) noexcept nogil:
    return (gs.hexes[h].flags & HEX_TOKENS_REVEALED) != 0

cdef inline int view_token_enemy(const GameState* gs, int h, int k) noexcept nogil:
    """Enemy content index of token k on hex h if face up, else -1 (hidden)."""
    if not view_tokens_visible(gs, h) or gs.hexes[h].tokens[k] < 0:
        return -1
    return gs.token_enemy[gs.hexes[h].tokens[k]]

cdef inline int view_ruins(const GameState* gs, int h) noexcept nogil:
    """Ruins token on hex h if face up, -1 if none or face down."""
    if gs.hexes[h].ruins < 0 or not (gs.hexes[h].flags & HEX_RUINS_REVEALED):
        return -1
    return gs.hexes[h].ruins


# -- the other heroes (several heroes, docs/engine.md "Several heroes"): public facts only --

cdef inline int view_n_players(const GameState* gs) noexcept nogil:
    return gs.n_players                        # seats 0 .. n-1 (the dummy is not one)

cdef inline const Player* view_seat(const GameState* gs, int p) noexcept nogil:
    """Seat p's player.  Of another seat only the public facts may be read: position,
    Fame, level, Reputation, Units, crystals, skills, play area and discard pile, and the
    sizes of its hand and Deed deck -- never the hand's or the deck's cards."""
    return &gs.players[p]

cdef inline int view_seat_position(const GameState* gs, int p) noexcept nogil:
    return gs.players[p].position              # hex index, -1 = off the map (portal, 9.5.5)

cdef inline int view_final_turns(const GameState* gs) noexcept nogil:
    """Turns left once the scenario's end is triggered (the city revealed, 14.3.2), 0 before."""
    return gs.final_turns_left
