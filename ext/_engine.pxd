# Header of ext/_engine.pyx: the decision loop of the core (rules 2-4, 6, 9, 13, 14, 18).
#
# A game advances by integer actions (OpenSpiel style).  An action is
#     kind << ACTION_SHIFT | argument
# and every decision point fills a small int32 list of legal actions without creating
# Python objects.  apply() performs one action, then runs everything that needs no
# decision (dummy turns, end-of-turn steps, round preparation) until the next decision.
#
# What a player does that the engine does not implement yet (combat, interaction, most
# named effect handlers, ...) is still offered when the rules allow it; applying it sets
# gs.error (EngineError) and the Python face raises NotImplementedError naming what is
# missing.  Nothing is silently skipped.
from libc.stdint cimport int32_t
from mksim._types cimport GameState
from mksim._state cimport Table, Statics, GameCore

cdef enum:
    ACTION_SHIFT = 20
    ARG_MASK = (1 << 20) - 1
    MAX_ACTIONS = 512          # legal actions at one decision point
    APPLY_REFUSED = -1         # c_apply: the action is not among the legal ones (state unchanged)
    MAX_HAND_INDEX = 63        # hand indices must fit a handler's 64 options (ask) and A_PLAY's 7 bits
    PAY_NONE = 31              # payment code: nothing to pay
    PAY_CRYSTAL = 6            # payment codes: 0-5 token of colour c, 6-9 crystal c, 10-17 Source die i
    PAY_DIE = 10
    PAY_STOLEN = 18            # payment code: the Mana Steal die kept on the tactic card (3.2, 21.2 A7)
    ASK_DONE = 63              # option 63 of an ask: stop choosing ("up to N" picks)

# Action kinds (A_TACTIC = 1 ... A_ADD_ELITE = 123): one table, mksim/actions.py ACTION_KINDS,
# from which ext/gen_actions.py generates ext/_actions.pxd at build time; describe() and
# State.action_to_string read the same table.  Cimported here so that `from mksim._engine
# cimport A_...` keeps working everywhere.
from mksim._actions cimport *

cdef enum:
    BONDS_RECRUIT = 0x10000    # A_RECRUIT argument bit (above the Familiars mana, bits 8-14): the unit goes under Bonds of Loyalty (_fx_skills)
    EXPLORE_BOX_FLAG = 1 << 14 # A_EXPLORE argument bit: the position is filled with a tile from the box (9.8.8)

cdef enum:
    SKILL_CARD_BASE = -2000    # resolving_card of a skill: SKILL_CARD_BASE - skill content index
    SKILL_TURN_SHIFT = 8       # Player.skills_used: bit k = slot k face down (8.2.1-8.2.2, until
                               # round preparation 8.3.1), bit 8 + k = slot k used this turn (8.2.3)

cdef enum Ask:                 # what a pending handler decision picks (TurnState.ask)
    ASK_NONE = 0
    ASK_HAND_CARD = 1          # option k = hand index k
    ASK_COLOUR = 2             # option k = mana colour k (red blue white green gold black)
    ASK_DIE = 3                # option k = Source die k
    ASK_YES_NO = 4             # 0 = no, 1 = yes
    ASK_OFFER = 5              # option k = slot k of the offer the handler names
    ASK_NUMBER = 6             # option k = the number k
    ASK_DECK_CARD = 7          # option k = Deed deck index k
    ASK_OPTION = 8             # option k = the handler's own k-th option (see its docstring)
    ASK_DISCARD_CARD = 9       # option k = discard pile index k
    ASK_ENEMY = 10             # option k = combat enemy slot k (11.4.4)
    ASK_UNIT = 11              # option k = unit slot k (ready_unit / heal_unit, 7.3.4, 12.3.4)
    ASK_PAYMENT = 12           # option k = payment code k (PAY_*: token, crystal, Source die, Mana Steal die)

cdef enum:
    MAX_HANDLER_ARGS = 8       # declared parameters of one handler (see row_args)

cdef enum EngineError:
    ERR_NONE = 0
    ERR_ILLEGAL = 1            # the action is not legal here
    ERR_HANDLER = 2            # error_arg = handler id: named effect handler not implemented
    ERR_COMBAT = 3             # run_effects met an effect op it does not handle (error_arg = op)
    ERR_INTERACTION = 4        # interaction and site actions (rule 10) not implemented yet
    ERR_BOX_TILES = 5          # unused since box exploration (9.8.8) exists; kept for the numbering
    ERR_UNIT_EFFECT = 6        # unit-targeting effects (ready/heal unit) not implemented
    ERR_CAPACITY = 7           # a MAX_* limit of _types.pxd was exceeded
    ERR_ALTAR = 12             # assertion: a Fame reward was queued (13.5); none exists (altars pay at once)
    ERR_ENEMY_EFFECT = 8       # an enemy effect the engine does not implement (Armor floor other than 1)
    ERR_CARD_BONUS = 9         # error_arg = op: Concentration / Will Focus bonus on Influence, Block or
                               # Attack (needs interaction / combat, not implemented yet)
    ERR_CITY = 10              # unused since city interaction (10.2.4, 10.10) exists; kept for the numbering
    ERR_UNIT_RULES = 11        # error_card = unit: special rules the engine does not know (a units.toml
                               # special_rules missing from _fx_units.pxi SPECIAL_UNIT_CODES), or a Banner
                               # on Utem Swordsmen (7.5 not implemented)

cdef struct SiteRules:         # site codes (content.SITE_IDS) and numbers from sites.toml (10.7)
    int village
    int monastery
    int keep
    int mage_tower
    int city
    int dungeon
    int tomb
    int monster_den
    int spawning_grounds
    int ancient_ruins
    int rampaging_orc
    int rampaging_draconum
    int rep_assault            # 10.4: each assault on a fortified site
    int rep_burn               # 10.4: burning a monastery
    int rep_plunder            # 10.4, 10.7.1.4: plundering a village
    int rep_orc                # 10.7.14.2: per orc token defeated
    int rep_draconum           # 10.7.14.2: per draconum token defeated

cdef struct UnitRules:         # Units and interaction prices (_engine_units.pxi)
    const int32_t* table       # units table (mksim.tables.UNIT_COLUMNS), `stride` wide
    int stride
    int level                  # column indices
    int cost
    int sites                  # recruit-site bitmask (content.SITE_IDS order, 10.6.1)
    int first_ability
    int n_abilities
    const int32_t* ability     # unit_abilities table: effect row, mana colour (-1 = none)
    int ability_stride
    const int32_t* reputation  # Influence modifier at reputation + 7 (tables.reputation, 10.2.3)
    const int32_t* special     # per unit: SU_* code of its special_rules (units.toml; _fx_units.pxi)
    int heal_village           # 10.5: Influence per Healing point (sites.toml heal_cost)
    int heal_monastery
    int aa_cost                # 10.7.2.2
    int spell_cost             # 10.7.4.3
    # --- sites ---
    int city_recruit_any[4]    # 10.10 per city colour (RED BLUE WHITE GREEN): 1 = Units of every type (white)
    int city_elite_cost[4]     # 10.10: Influence to add an Elite Unit card to the offer (white), 0 = not offered
    int city_spell_cost[4]     # 10.10: a Spell as at a mage tower (blue), 0 = not sold
    int city_artifact_cost[4]  # 10.10: an Artifact (red), 0 = not sold
    int city_aa_cost[4]        # 10.10: an Advanced Action (green), 0 = not sold
    int city_shield_influence  # 10.2.4: Influence per own Shield on the City card ([R] 1)

cdef struct EngineStatics:     # static tables and constants the decision loop reads
    const Statics* st          # the GameCore's static views (for checks that only get `es`)
    Table effects              # rows: op a0 a1 a2 first_child n_children (mksim.effects)
    const int32_t* card_deck   # per card: deck type (0 basic, 1 AA, 2 spell, 3 artifact, 4 wound)
    const int32_t* card_colour # per card: 0-3 basic colour, 4 colourless
    const int32_t* card_basic  # per card: effect row of the basic effect
    const int32_t* card_powered
    const int32_t* card_power_any  # per card: 1 = powered by mana of any basic colour (Crystal Joy)
    int card_stride            # row width of the cards table
    int wound                  # card index of the Wound
    const int32_t* tactic_row  # tactics table (time number when effect)
    int tactic_stride
    int n_tactics
    const int32_t* skill_row   # skills table (hero usage effect interactive cooperative expansion)
    int skill_stride
    int n_skills
    int rounds                 # scenario round limit (14.2)
    int end_city_revealed      # 1: game ends when a city is revealed (17.3.1)
    int remove_interactive_skills  # 17.3.4
    int elite_units            # 0: no Elite Units in this scenario (17.3.1)
    int city_closed            # 1: the city cannot be entered (17.3.1 First Reconnaissance)
    int city_site              # content.SITE_IDS codes used by the loop
    int portal_site
    int glade_site
    int refugee_site           # LL-3.4: recruiting any Unit, at a surcharge
    int mine_site
    int monastery_site
    const int32_t* handler_group   # per content handler id: group (HG_*), -1 = not implemented
    const int32_t* handler_local   # per content handler id: the group's own handler code
    SiteRules sites
    const int32_t* ruins       # per ruins token: RUINS_* columns of _engine_combat.pxi
    int n_ruins
    const int32_t* site_table  # per site code: ST_* columns of _engine_combat.pxi (sites.toml)
    UnitRules units
    const int32_t* row_args        # per effect row: MAX_HANDLER_ARGS declared arguments of a handler
                                   # row, in the order its group declares them (words as codes,
                                   # effect-valued arguments as child rows, -9999 = not given)

cdef class Engine:
    cdef GameCore core
    cdef EngineStatics es
    cdef readonly object tables
    cdef int32_t actions[MAX_ACTIONS]
    cdef int n_actions
    cdef bint legal_valid      # `actions` is the legal list of the state as it is now ...
    cdef unsigned long long legal_version   # ... namely of core.version (GameCore mutations bump it)
    cdef int32_t scratch[MAX_ACTIONS]   # c_apply's legal list when `actions` is not valid
    cdef int c_fill_legal(self) noexcept nogil        # legal_actions() into `actions`, no Python objects
    cdef int c_apply(self, int action) noexcept nogil # apply() without raising: the EngineError code,
                                                      # or APPLY_REFUSED for an action not listed
    cdef object _template      # the Engine whose bound statics this one shares (or None)
    cdef object _skill_cache   # (content, {(hero, dummy): skill indices}): the same for every game
    cdef object __weakref__    # GameCore.engine_ref points back here
    cdef object _effects       # the numpy arrays EngineStatics points into (kept alive here)
    cdef object _cards
    cdef object _tactics
    cdef object _skills
    cdef object _handler_group
    cdef object _handler_local
    cdef object _row_args
    cdef object _ruins
    cdef object _site_table
    cdef object _unit_tables   # the arrays UnitRules points into


# Effect operation codes: positions in mksim.effects.OPS (tests/test_engine.py checks them);
# declared here so the C policies (ext/_heuristic.pyx) read the same codes.
cdef enum Op:
    OP_NOTHING = 0
    OP_CHOICE = 1
    OP_ALL = 2
    OP_BY_TIME = 3
    OP_MOVE = 4
    OP_INFLUENCE = 5
    OP_ATTACK = 6
    OP_BLOCK = 7
    OP_HEAL = 8
    OP_DRAW = 9
    OP_GAIN_MANA = 10
    OP_GAIN_CRYSTAL = 11
    OP_FAME = 12
    OP_REPUTATION = 13
    OP_TAKE_WOUND = 14
    OP_READY_UNIT = 15
    OP_HEAL_UNIT = 16
    OP_TERRAIN_COST = 17
    OP_ENEMY_ARMOR = 18
    OP_ENEMY_NO_ATTACK = 19
    OP_EXTRA_SOURCE_DIE = 20
    OP_HANDLER = 21
