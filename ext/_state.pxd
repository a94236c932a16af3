# Header of ext/_state.pyx: the game core object and the setup of a game (rules 1.2-1.4, 18.1).
#
# GameCore owns one GameState struct (mksim._types; the whole mutable state) and the static
# int32 content tables (mksim.tables, as C-contiguous numpy arrays).  The static tables never
# enter the struct: C code reads them through the Table views of `Statics` below.
#
# Setup is split in two:
#   * Python, once per (scenario, hero, expansions): prepare_setup() maps the content's
#     words (scenario, map shape, hero decks, dummy crystals, ruins ...) to integers and
#     int32 arrays (SetupData);
#   * C (noexcept nogil, no Python object): setup_game() fills the struct from a SetupSpec
#     pointing into those arrays.  All chance comes from gs.rng[STREAM_*].
#
# Conventions filled by setup (beyond the comments of _types.pxd):
#   piles / decks / tile stack: top = [n-1];  aa_offer[0] / spell_offer[0] = top position;
#   token_enemy[i] = -1 for unused token instances;  final_turns_left = 0 (no end triggered);
#   hexes of tile t are tiles[t].first_hex .. +6 in data order C NE E SE SW W NW.
from libc.stdint cimport int32_t
from mksim._types cimport GameState

cdef struct Table:             # read-only view of one C-contiguous int32 content table
    const int32_t* data
    int rows
    int width

cdef struct Cols:              # column indices (mksim.tables *_COLUMNS), looked up once
    int card_deck
    int card_expansion
    int card_interactive
    int card_colour            # content CARD_COLOURS: red blue white green colourless (_scoring)
    int unit_tier
    int unit_copies
    int unit_expansion
    int unit_level             # 20.2 Greatest Leader (_scoring)
    int enemy_colour
    int enemy_copies
    int enemy_expansion
    int enemy_armor            # combat (_combat.pyx) reads the enemy / unit / level columns below
    int enemy_armor_elusive
    int enemy_n_attacks
    int enemy_attack0          # attack0 .. attack2 are consecutive
    int enemy_element0         # element0 .. element2
    int enemy_summons
    int enemy_summon_pile
    int enemy_abilities
    int enemy_resistances
    int enemy_fame
    int enemy_reputation
    int unit_armor
    int unit_resistances
    int tile_kind
    int tile_expansion
    int tile_terrain0          # terrain0 .. terrain6 are consecutive
    int tile_site0             # site0 .. site6
    int tile_colours0          # colours0 .. colours6
    int level_fame             # 13.6.2 thresholds (_scoring)
    int level_armor
    int level_hand_limit
    int level_command_tokens
    int tactic_time

cdef struct Sites:             # codes of content.SITE_IDS used by setup / reveal (9.9)
    int monastery
    int keep
    int mage_tower
    int city
    int ancient_ruins
    int rampaging_orc
    int rampaging_draconum
    int volkares_camp
    int portal                 # 9.7.1: several heroes may share it (safe-space rules, _rules)
    int crystal_mine           # 10.7.12 end-of-turn crystal (_scoring)
    unsigned int adventure_mask    # bit per site code of an adventure site (20.2 Adventurer, _scoring)

cdef struct Shape:             # the scenario's map shape and exploration limits (read by _rules)
    int n_positions            # shape whitelist (9.1.3, 17.1): [n_positions][2] lattice (a, b)
    const int32_t* positions
    int n_core_forbidden       # wedge coastline lanes (17.1.1): [n][2]
    const int32_t* core_forbidden
    int core_restriction       # 1 = Core tiles may not go to core_forbidden (scenarios.toml)
    int fame_per_tile          # Fame for each explored tile (17.3.1 First Reconnaissance)

cdef struct Statics:           # everything static the C code reads
    Table cards
    Table units
    Table enemies
    Table tiles
    Table levels
    Table tactics
    Cols cols
    Sites sites
    Shape shape                # static shape info for exploration (9.8, 17.1), set from SetupData
    const int32_t* garrisons   # city garrisons (9.9.3): [colour 0-3][level 0-11][GARRISON_WIDTH]: n, piles...
    const int32_t* city_levels # the scenario's city levels in reveal order (17.2)
    int n_city_levels
    # --- sites ---
    int city_armor[4]          # 11.13.1 per city colour (RED BLUE WHITE GREEN): Armor bonus of its defenders (white +1)
    int city_elemental[4]      # 11.13.1, 21.2 A3: Attack bonus of the defenders' Fire / Ice attacks (blue +2)
    int city_coldfire[4]       # 11.13.1, 21.2 A3: Attack bonus of their Cold Fire attacks (blue +1)
    int city_physical_ab[4]    # 11.13.1: AB_* ability their physical attacks gain (red Brutal, green Poison)
    int lost_legion            # 1 = Lost Legion content in play (the box of 9.8.8 holds those tiles too)

cdef enum:
    GARRISON_WIDTH = 8         # one garrison row: count, then up to 7 enemy piles

cdef struct SetupSpec:         # one setup, as integers (built by prepare_setup in Python)
    int scenario               # scenario content index
    int hero                   # seat 0's hero (hero_ids index)
    int n_players              # heroes in the game, 1 .. MAX_PLAYERS (seat order = hero-selection order, 1.1.2)
    int heroes[4]              # hero of each seat (hero_ids index); heroes[0] == hero
    int dummy                  # 1: a dummy player joins (18.1; solo and cooperative scenarios)
    int n_heroes
    int lost_legion            # 1 = Lost Legion content joins the base game
    int countryside_tiles      # 1.2.13
    int core_tiles             # non-city core tiles
    int city_tiles
    int first_round            # TimeOfDay of round 1 (2.1.2)
    int remove_interactive_spells   # 17.3.4
    int start_tile             # tile content index of the shape's starting tile
    int n_setup_positions      # 1.2.14: 2 (side A) or 3 (side B)
    const int32_t* setup_positions  # [n_setup_positions][2] lattice (a, b)
    const int32_t* hero_decks  # [n_heroes][16] card indices of each hero's starting deck (1.3.4)
    const int32_t* hero_expansion   # [n_heroes] expansion code (0 base, 1 Lost Legion)
    const int32_t* dummy_crystals   # [n_heroes][3] basic colour of each crystal dot (18.1.3)
    int n_ruins
    const int32_t* ruins_expansion  # [n_ruins] expansion code of each ruins token

cdef enum SetupError:          # setup_game() return codes
    SETUP_OK = 0
    SETUP_NOT_ENOUGH_TILES = -1     # the box lacks the tiles the scenario asks for
    SETUP_CAPACITY = -2             # content exceeds a MAX_* limit of _types.pxd
    SETUP_BAD_POSITION = -3         # a setup position is taken
    SETUP_EMPTY_DECK = -4           # an offer could not be filled

cdef class GameCore:
    cdef GameState gs
    cdef Statics st
    cdef readonly unsigned long long version   # bumped by every change of gs (not part of the game):
                                    # Engine trusts its cached legal list only while it is unchanged
    cdef readonly object tables     # mksim.tables.Tables (kept alive: st points into it)
    cdef readonly object setup      # SetupData it was built from (ids for to_dict)
    cdef public object engine_ref   # weakref to the Engine that runs this game (set by Engine), or None:
                                    # load_dict checks a fixture against it (legal action, pending question)
    # The int32 content tables st.cards ... st.tactics point into (kept alive here).  Plain
    # objects, not typed memoryviews: a memoryview attribute in this header would put Cython's
    # memoryview support (~16,000 lines of C) into every module that cimports it, the handler
    # groups included, a third of their translation and compile time (issue 12's rebuild gate).
    cdef object cards
    cdef object units
    cdef object enemies
    cdef object tiles
    cdef object levels
    cdef object tactics
    cdef object _garrisons      # arrays st.garrisons / st.city_levels point into
    cdef object _city_levels
    cdef _bind(self, tables, setup)     # take the tables' views and column indices
    cdef _share_bound(self, GameCore other)   # share another core's bound views (same tables, setup)

# C-level setup steps, reusable by the rules engine (exploration 9.8 uses place_tile / reveal_sites).
cdef int setup_game(GameState* gs, const Statics* st, const SetupSpec* sp) noexcept nogil
cdef int place_tile(GameState* gs, const Statics* st, int tile, int a, int b) noexcept nogil
cdef void reveal_sites(GameState* gs, const Statics* st, int tile_slot) noexcept nogil
cdef int draw_token(GameState* gs, int colour) noexcept nogil
cdef void roll_source(GameState* gs, int n_dice) noexcept nogil
