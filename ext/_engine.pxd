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
from mksim._types cimport GameState, TurnState
from mksim._modifiers cimport mod_find, mod_find_arg, mod_add
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
    ERR_HEROES = 13            # a rule between heroes (several players) not implemented yet; error_arg
                               # = HEROES_* what, error_card = the skill / card (as resolving_card)
    ERR_UNIT_RULES = 11        # error_card = unit: special rules the engine does not know (a units.toml
                               # special_rules missing from _engine_units.pxi SPECIAL_UNIT_CODES), or a Banner
                               # on Utem Swordsmen (7.5 not implemented)
    ERR_INTERNAL = 14          # an engine inconsistency, never the player's choice (legality is decided by
                               # the legal list alone, Engine.c_apply): error_arg = INTERNAL_* what broke,
                               # error_card = the card being resolved (or -1)

cdef enum InternalError:       # error_arg of ERR_INTERNAL (INTERNAL_TEXT in _engine.pyx)
    INTERNAL_REFUSED = 0            # an apply path returned ERR_ILLEGAL for a listed action
    INTERNAL_NO_APPLY = 1           # a listed action kind that apply_action has no branch for
    INTERNAL_BLACK_MANA = 2         # powered Spell: its black mana could not be paid after its colour
    INTERNAL_EXPLORE = 3            # exploring a listed tile position failed
    INTERNAL_REWARD = 4             # claiming a listed reward failed
    INTERNAL_NO_OPTION = 5          # an effect the legal list offered found nothing to choose from

cdef enum HeroesRule:          # error_arg of ERR_HEROES
    HEROES_INTERACTIVE_SKILL = 1    # 8.2.2: an interactive skill's part that acts on the other heroes
    HEROES_OPPONENT_KEEP = 2        # 10.7.3.5: assault on another player's keep
    HEROES_INTERACTIVE_SPELL = 3    # 19.7.1: Mind Steal between heroes (no longer raised: Player.cards_taken)

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
    const int32_t* special     # per unit: SU_* code of its special_rules (units.toml; _engine_units.pxi)
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
    int solo_tactics           # 1: 17.3.4 tactics (the dummy takes a random one; used tactics leave the game)
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


# ---------------------------------------------------------------------------------------
# The handler API: what a separately compiled handler group (ext/_fx_<group>.pyx) reads.
#
# Everything below is shared with the group modules.  Types and small pure helpers are
# inline here (moved from _engine.pyx unchanged); engine functions a handler calls are
# declared further down and reached through Cython's C API (a function pointer per
# function, looked up once at import).  See docs/engine.md "Handler registry".
# ---------------------------------------------------------------------------------------
from libc.stdint cimport int16_t, int8_t, uint64_t
from mksim._types cimport Player, MAX_COMBAT_ENEMIES

cdef enum ResolveResult:
    RES_DONE = 0
    RES_CHOICE = 1             # waiting for A_CHOOSE
    RES_ERROR = 2

cdef enum HandlerGroup:
    HG_TACTICS = 0
    HG_BASIC = 1
    HG_ADVANCED = 2
    HG_SPELLS = 3
    HG_ARTIFACTS = 4
    HG_UNITS_SKILLS = 5
    HG_SKILLS = 6
    HG_UNITS = 7


cdef inline const int32_t* row_args(const EngineStatics* es, int row) noexcept nogil:
    return es.row_args + row * MAX_HANDLER_ARGS


cdef inline int ask(GameState* gs, int row, int stage, int what, uint64_t options) noexcept nogil:
    """Ask the player to pick one of `options` (bit k = A_CHOOSE(k)); see the protocol."""
    gs.turn.handler_row = <int16_t>row
    gs.turn.handler_stage = <int8_t>stage
    gs.turn.ask = <int8_t>what
    gs.turn.ask_options = options
    return RES_CHOICE


cdef inline const int32_t* erow(const EngineStatics* es, int row) noexcept nogil:
    return es.effects.data + row * es.effects.width


cdef inline int card_deck(const EngineStatics* es, int card) noexcept nogil:
    return es.card_deck[card * es.card_stride]


cdef inline void set_error(GameState* gs, int code, int arg, int card) noexcept nogil:
    if gs.error == ERR_NONE:
        gs.error = <int16_t>code
        gs.error_arg = <int16_t>arg
        gs.error_card = <int16_t>card


cdef inline int push_eval(GameState* gs, int row) noexcept nogil:
    """Push effect row `row` on the eval stack (TurnState.eval_stack): the effect
    interpreter (ext/_effects.pyx, run_effects) resolves it next.  Inline: the engine, the
    interpreter and every handler group push without a call."""
    if gs.turn.n_eval >= 32:
        set_error(gs, ERR_CAPACITY, 1, gs.turn.resolving_card)
        return RES_ERROR
    gs.turn.eval_stack[gs.turn.n_eval] = <int16_t>row
    gs.turn.n_eval += 1
    return RES_DONE


ctypedef void (*EventHook)(GameState* gs, const EngineStatics* es, const Statics* st, int p, int ev,
                           int arg) noexcept nogil

cdef enum:
    MAX_EVENT_SUBS = 8         # handlers subscribed to one lifecycle event

cdef enum:                     # how give_mod combines with a live modifier of the same kind
    MOD_ONCE = 0               # a flag: one entry is enough
    MOD_ADD = 1                # the values add up (Charm twice)
    MOD_MAX = 2                # the greater value counts
    MOD_SET = 3                # the new value replaces the old
    MOD_MIN = 4                # the lower value counts (two set terrain costs, 9.6.1)


cdef inline bint give_mod(GameState* gs, int p, int kind, int scope, int value, int how) noexcept nogil:
    """Player p's effect (the card resolving) starts a lasting modifier (ext/_modifiers.pxd);
    with one of `kind` alive, `how` combines them in that entry.  False (ERR_CAPACITY set)
    when the array is full: a lasting effect is never dropped silently."""
    return give_mod_arg(gs, p, kind, scope, value, 0, how)


cdef inline bint give_mod_arg(GameState* gs, int p, int kind, int scope, int value, int arg, int how) noexcept nogil:
    """give_mod for one terrain / element / colour (`arg` = it + 1): combined with a live
    modifier of the same kind and arg only."""
    cdef TurnState* t = &gs.turn
    cdef int i = mod_find_arg(t, kind, arg)
    if i >= 0:
        if how == MOD_ADD:
            t.mods[i].value = <int8_t>(t.mods[i].value + value)
        elif how == MOD_SET or (how == MOD_MAX and value > t.mods[i].value) \
                or (how == MOD_MIN and value < t.mods[i].value):
            t.mods[i].value = <int8_t>value
        return True
    if mod_add(t, kind, scope, value, arg, t.resolving_card, p) < 0:
        set_error(gs, ERR_CAPACITY, 8, t.resolving_card)
        return False
    return True


cdef inline void remove_at(int16_t* arr, int16_t* n, int i) noexcept nogil:
    """Remove arr[i], keeping order."""
    cdef int k
    for k in range(i, n[0] - 1):
        arr[k] = arr[k + 1]
    n[0] -= 1


cdef enum PendingField:
    PF_NONE = -1
    PF_HVAR = 0                # PF_HVAR + i: turn.hvars[i]
    PF_STAGE = 8               # turn.handler_stage
    PF_ASK = 9                 # turn.ask: not what this handler asks at this stage
    PF_OPTION = 10             # turn.ask_options: an option (bit) the question cannot offer
    PF_ROW = 11                # turn.handler_row: a row that never waits for a decision

cdef struct PendingCheck:
    int field                  # PendingField of the first value out of range, PF_NONE = all in range
    int value
    int lo
    int hi
    int ask                    # the ask kind of the handler's stage (ASK_*), -1 = it never asks
    int n_options              # options 0 .. n_options - 1 (-1: the ask kind's own range)
    bint done                  # ASK_DONE may be offered
    const int16_t* offer       # ASK_OFFER: the offer its slots are of (a slot must hold a card)
    int n_offer


cdef inline int pc_n_enemies(const GameState* gs) noexcept nogil:
    """The combat's enemies (0 with no combat in progress, or a count no combat holds)."""
    if not gs.combat.active or gs.combat.n_enemies < 0 or gs.combat.n_enemies > MAX_COMBAT_ENEMIES:
        return 0
    return gs.combat.n_enemies


cdef inline bint pc_bad(PendingCheck* c, int field, int value, int lo, int hi) noexcept nogil:
    """Record `field` = `value` as out of lo .. hi (and say so) unless it is within."""
    if lo <= value <= hi:
        return False
    c.field = field
    c.value = value
    c.lo = lo
    c.hi = hi
    return True


cdef inline bint pc_stage(PendingCheck* c, const GameState* gs, int hi) noexcept nogil:
    """The handler's stages are 0 .. hi."""
    return pc_bad(c, PF_STAGE, gs.turn.handler_stage, 0, hi)


cdef inline bint pc_hvar(PendingCheck* c, const GameState* gs, int i, int lo, int hi) noexcept nogil:
    return pc_bad(c, PF_HVAR + i, gs.turn.hvars[i], lo, hi)


cdef inline bint pc_asks(PendingCheck* c, int what, int n_options=-1, bint done=False,
                         const int16_t* offer=NULL, int n_offer=3) noexcept nogil:
    """The stage asks `what`: options 0 .. n_options - 1 (-1: the kind's range), ASK_DONE
    if `done`; ASK_OFFER slots of `offer`."""
    c.ask = what
    c.n_options = n_options
    c.done = done
    c.offer = offer
    c.n_offer = n_offer
    return False


# One registry entry per named handler.  A group module fills an array of them (one line per
# handler: name, parameter names, run, playable, pending, flags) and hands it to
# register_handler_group when it is imported; the engine dispatches through it and builds
# handler_registry() (what content validation reads) from the same entries.
ctypedef int (*handler_run_t)(GameState* gs, const EngineStatics* es, const Statics* st,
                              int p, int row, int choice) noexcept nogil
ctypedef bint (*handler_playable_t)(const GameState* gs, const EngineStatics* es, int row) noexcept nogil
ctypedef bint (*handler_pending_t)(const GameState* gs, const EngineStatics* es, const Statics* st,
                                   int p, int row, PendingCheck* c) noexcept nogil

cdef enum HandlerFlag:
    HF_PLAYS_OTHER_CARD = 1    # it plays another card's effect (Concentration, LL-9.6: no chains)

ctypedef struct HandlerEntry:
    const char* name           # the content's handler(name, ...)
    const char* params         # its argument names, space separated, in row_args order
    handler_run_t run          # the handler protocol (choice = -1 when its effect resolves)
    handler_playable_t playable  # can it do something now (the card still in hand)
    handler_pending_t pending  # bounds of its pending question; NULL: it never asks
    int flags                  # HandlerFlag bits

cdef int register_handler_group(int group, const HandlerEntry* entries, int n) except -1
cdef int subscribe_event(int ev, EventHook fn) noexcept nogil                          # lifecycle events (_engine.pyx)
cdef const HandlerEntry* handler_entry(const EngineStatics* es, int hid) noexcept nogil

# engine functions the handler groups call (defined in _engine.pyx and the files it includes)
cdef bint push_card(int16_t* arr, int16_t* n, int cap, int card) noexcept nogil
cdef int gain_crystal(Player* pl, GameState* gs, int colour) noexcept nogil
cdef void change_reputation(Player* pl, int delta) noexcept nogil
cdef int card_bonus(GameState* gs) noexcept nogil
cdef bint pay_ok(const GameState* gs, int pay, int colour) noexcept nogil
cdef void pay_take(GameState* gs, int pay, int colour=*) noexcept nogil
cdef int card_playable_mode(const GameState* gs, const EngineStatics* es, int card, int powered) noexcept nogil
cdef bint pc_subset(PendingCheck* c, const GameState* gs, uint64_t allowed) noexcept nogil
cdef bint pc_enemy_attack_options(PendingCheck* c, const GameState* gs) noexcept nogil
cdef uint64_t reducible_attacks(const GameState* gs, const Statics* st, uint64_t taken) noexcept nogil
cdef bint agility_move_usable(const GameState* gs) noexcept nogil                        # _engine_advanced.pxi
cdef bint influence_elsewhere(const GameState* gs) noexcept nogil                        # _engine_advanced.pxi
cdef int lift_self(GameState* gs, const EngineStatics* es, int row) noexcept nogil       # _engine_advanced.pxi
cdef void put_back(GameState* gs, int lifted) noexcept nogil                             # _engine_advanced.pxi
cdef bint wings_move_usable(const GameState* gs, const Statics* st) noexcept nogil       # _engine_spells.pxi
cdef bint units_need_influence(const GameState* gs, const EngineStatics* es) noexcept nogil  # _engine_units.pxi

# ---- Units (ext/_fx_units.pyx is a registry module; the units' rules the loop calls live in
# ---- ext/_engine_units.pxi: units_need_influence above, the ones below) ----
cdef enum:
    UNIT_CARD_BASE = -1000     # resolving_card of a unit ability: UNIT_CARD_BASE - (unit * 8 + slot)
    HF_MOVEMENT_ONLY = 2       # HandlerFlag: works only while moving (movement_only_row: in combat it
                               # goes with the Move 1, LL-9.7.10); the Scouts' exploring range

cdef inline bint unit_resolving(int resolving_card) noexcept nogil:
    """Is a Unit's ability resolving?  Its code lies in (SKILL_CARD_BASE, UNIT_CARD_BASE]:
    a skill's code (SKILL_CARD_BASE - skill) is lower still and is no unit."""
    return SKILL_CARD_BASE < resolving_card <= UNIT_CARD_BASE

cdef int resolving_unit_slot(const GameState* gs) noexcept nogil                         # _engine_units.pxi
cdef int units_attack_bonus(const GameState* gs) noexcept nogil                          # _engine_units.pxi
cdef void units_check_destroy(GameState* gs, const Statics* st) noexcept nogil           # _engine_units.pxi
cdef bint pc_enemy_slot(PendingCheck* c, const GameState* gs, int i) noexcept nogil
# other groups' helpers the Units handlers call (engine code: the groups' turn-flow parts)
cdef bint special_now(const GameState* gs) noexcept nogil                                # _engine_spells.pxi
cdef int hex_distance(const GameState* gs, int a, int b) noexcept nogil                  # _engine_spells.pxi
cdef int resolving_colour(const GameState* gs, const EngineStatics* es) noexcept nogil   # _engine_advanced.pxi
cdef int unit_combat_bonus(const GameState* gs) noexcept nogil                           # _engine.pyx (modifiers)
cdef bint enemy_effect_ok(const GameState* gs, const Statics* st, int slot, int colour) noexcept nogil  # _engine_advanced.pxi
cdef uint64_t pay_options(const GameState* gs, int colour) noexcept nogil                # _engine_advanced.pxi
cdef int single_option(uint64_t o) noexcept nogil                                        # _engine_advanced.pxi

# ---- Tactics (ext/_fx_tactics.pyx is a registry module; the round / turn bookkeeping that
# ---- reads no tactic, tactic_round_end and return_stolen_die, is in _engine.pyx) ----
cdef enum:
    END_LONG_NIGHT = 5         # end-of-turn stage: the draw ran out of cards, Long Night may refill (13.7.4)

cdef inline int tactic_effect_row(const EngineStatics* es, int t) noexcept nogil:
    return es.tactic_row[t * es.tactic_stride + 3]

# The rules of the ongoing tactics the loop asks (3.2, 4.1, 13.7.2): registered by the tactics
# module when it is imported, called by the engine's tactic_ability_ok / planning_bonus.
ctypedef bint (*tactic_ability_t)(const GameState* gs, const EngineStatics* es, int variant) noexcept nogil
ctypedef int (*tactic_hand_bonus_t)(const GameState* gs, const EngineStatics* es, int p) noexcept nogil
cdef int register_tactic_rules(tactic_ability_t ability_ok, tactic_hand_bonus_t hand_bonus) except -1
cdef int draw_cards(GameState* gs, Player* pl, int n) noexcept nogil

# --- Artifacts (ext/_fx_artifacts.pyx; the turn-flow part stays in ext/_engine_artifacts.pxi) ---
from libc.stdint cimport uint32_t

cdef enum BannerFx:            # Player.banner_fx bits (mirrored in _combat.assign_to_unit)
    BF_ARMOR = 3               # Armor bonus of the Unit (Glory, Protection), 0-3
    BF_FIRE_ICE = 4            # fire and ice resistance (Protection)
    BF_GLORY = 8               # + bonus to its Attacks / Blocks, Fame whenever it attacks or blocks
    BF_FEAR = 16               # Block phase: spend the Unit to cancel one enemy attack
    BF_COURAGE = 32            # once a round, outside combat: flip to ready the Unit
    BF_FORTITUDE = 64          # once a round: flip to ignore a wound of the Unit
    BF_COMMAND = 128           # Banner of Command: the Unit holds it instead of a Command token (LL-5.1)

cdef enum:
    NO_ARG = -9999             # row_args: argument not given

cdef int card_colour(const EngineStatics* es, int card) noexcept nogil
cdef bint night_mana(const GameState* gs) noexcept nogil
cdef bint outside_combat_now(const GameState* gs) noexcept nogil                         # _engine_spells.pxi

cdef void take_wounds(GameState* gs, const EngineStatics* es, Player* pl, int n) noexcept nogil
cdef void refill_offer(GameState* gs, int16_t* offer, int16_t* deck, int8_t* n_deck, int slot) noexcept nogil
cdef void unit_healed(GameState* gs, int p, int slot) noexcept nogil                          # _engine_units.pxi
cdef void remove_commanded_unit(Player* pl, int slot) noexcept nogil                         # _engine_artifacts.pxi
cdef int soul_process(GameState* gs, const Statics* st, Player* pl) noexcept nogil            # _engine_artifacts.pxi
cdef bint circlet_skill_now(const GameState* gs, const EngineStatics* es, int skill) noexcept nogil  # _engine_artifacts.pxi
cdef int circlet_use(GameState* gs, const EngineStatics* es, int skill) noexcept nogil       # _engine_artifacts.pxi
cdef uint32_t defeated_mask(const GameState* gs) noexcept nogil                             # _engine_spells.pxi
# other groups' helpers (engine code: the Advanced / Skills turn-flow parts)
cdef uint64_t enemy_effect_targets(const GameState* gs, const Statics* st, int colour) noexcept nogil  # _engine_advanced.pxi
cdef bint enemy_op_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil     # _engine_advanced.pxi
cdef const int32_t* skill_entry(const EngineStatics* es, int skill) noexcept nogil       # _engine_skills.pxi

# --- Spells (ext/_fx_spells.pyx; the turn-flow part stays in ext/_engine_spells.pxi) ---
from mksim._types cimport CombatEnemy
cdef uint64_t call_to_arms_offer(const GameState* gs, const EngineStatics* es) noexcept nogil   # _engine_spells.pxi
cdef uint64_t recruit_free_offer(const GameState* gs, const EngineStatics* es) noexcept nogil   # _engine_spells.pxi
cdef int call_to_arms(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                      int choice) noexcept nogil                                                 # _engine_spells.pxi
cdef int recruit_free(GameState* gs, const EngineStatics* es, int p, int row, int choice) noexcept nogil  # _engine_spells.pxi
cdef bint colour_resisted(const GameState* gs, const Statics* st, int s, int colour) noexcept nogil    # _engine_spells.pxi
cdef void destroy(GameState* gs, const Statics* st, int slot) noexcept nogil                         # _engine_spells.pxi
cdef uint64_t no_attack_targets(const GameState* gs, const Statics* st, int colour) noexcept nogil  # _engine_spells.pxi
cdef void set_armor_delta(CombatEnemy* e, int d) noexcept nogil                                     # _engine_spells.pxi
cdef uint64_t wings_options(const GameState* gs, const Statics* st) noexcept nogil                  # _engine_spells.pxi
cdef void wings_take(GameState* gs, int slot) noexcept nogil                                        # _engine_spells.pxi
cdef int n_pay_codes(const GameState* gs) noexcept nogil
cdef bint pc_directions(PendingCheck* c, const GameState* gs) noexcept nogil
cdef int unit_value(const EngineStatics* es, int unit, int col) noexcept nogil                      # _engine_units.pxi
cdef int unit_level(const EngineStatics* es, int unit) noexcept nogil                                # _engine_units.pxi
cdef int fight_after_move(GameState* gs, const EngineStatics* es, const Statics* st, int p,
                          int from_hex, int to_hex, int provoked_dirs) noexcept nogil                # _engine_combat.pxi
cdef int interaction_site(const GameState* gs, const EngineStatics* es, int p) noexcept nogil        # _engine_units.pxi
cdef int interaction_city(const GameState* gs, const EngineStatics* es, int p) noexcept nogil        # _engine_units.pxi
cdef bint can_recruit(const EngineStatics* es, int unit, int site, int colour) noexcept nogil        # _engine_units.pxi
cdef int recruit_price(const EngineStatics* es, int unit, int site) noexcept nogil                  # _engine_units.pxi
cdef int spell_price(const EngineStatics* es, int site, int colour) noexcept nogil                  # _engine_units.pxi
cdef int heal_price(const EngineStatics* es, int site) noexcept nogil                               # _engine_units.pxi
cdef void count_refused_card() noexcept nogil                                                      # _engine_spells.pxi


# --- Skills group (ext/_fx_skills.pyx; the skill rules of the loop: ext/_engine_skills.pxi) ---
cdef enum SkillHandlerFlag:    # HandlerEntry.flags bits the engine recognises a skill handler by
    HF_TAKES_WOUND = 1 << 8    # it plays or discards a Wound from the hand (4.3.2: skill_takes_wound)
    HF_RUNS_ARG0 = 1 << 9      # it resolves its argument 0 as its effect (outside_combat)
    HF_MOTIVATION = 1 << 10    # usable just before the owner's turn (8.3.2)
    HF_BONDS_OF_LOYALTY = 1 << 11  # Bonds of Loyalty (Command token, offer units)
    HF_COOPERATIVE = 1 << 12   # a cooperative skill (LL-7.3)
    HF_OVERLOAD_BONUS = 1 << 13    # automatic secondary effects (LL-7.3.1): Mana Overload's ...
    HF_FIRST_COMBAT_WEAKEN = 1 << 14   # ... and Wolfhawk's

cdef inline bint row_handler_has(const EngineStatics* es, int row, int flag) noexcept nogil:
    """Effect row `row` is a handler whose registry entry has one of `flag`'s bits."""
    cdef const int32_t* r = erow(es, row)
    cdef const HandlerEntry* e
    if r[0] != OP_HANDLER:
        return False
    e = handler_entry(es, r[1])
    return e != NULL and (e.flags & flag) != 0

cdef inline int bonds_unit_slot(const Player* pl) noexcept nogil:
    """Slot of the unit under Bonds of Loyalty, -1 = none (the token is free)."""
    cdef int s = pl.bonds_slot - 1
    return s if s >= 0 and pl.units[s].card >= 0 else -1

cdef inline void coop_done(Player* pl) noexcept nogil:
    """The cooperative skill's token is back face down: no secondary effect pending."""
    pl.coop_due = 0
    pl.coop_slot = 0
    pl.coop_mark = 0

cdef int bonds_row(const EngineStatics* es, const Player* pl) noexcept nogil                 # _engine_skills.pxi
cdef int deadly_aim_bonus(GameState* gs) noexcept nogil                                      # _engine_skills.pxi
cdef void hawk_eyes_reveal(GameState* gs, const EngineStatics* es, int p) noexcept nogil      # _engine_skills.pxi
cdef int pay_colour(const GameState* gs, int pay) noexcept nogil                              # _engine_skills.pxi
cdef int move_bonus(GameState* gs) noexcept nogil
cdef bint pc_enemy_attack(PendingCheck* c, const GameState* gs, int field, int v) noexcept nogil
cdef int units_held(const Player* pl) noexcept nogil                                          # _engine_units.pxi
cdef bint units_usable_now(const GameState* gs) noexcept nogil                                # _engine_units.pxi
cdef bint healing_time(const GameState* gs) noexcept nogil                                    # _engine_units.pxi
cdef int ambush_bonus(GameState* gs, int block) noexcept nogil                                # _engine_advanced.pxi


# --- Advanced Action group (ext/_fx_advanced.pyx; the rules of the loop: ext/_engine_advanced.pxi) ---
cdef enum AdvancedHandlerFlag:
    HF_OPTIONAL_COST = 1 << 16 # mana_cost: an optional payment buying argument 2 (movement_only_row)

cdef bint is_self_row(const EngineStatics* es, int card, int row) noexcept nogil               # _engine_advanced.pxi

from libc.stdint cimport uint8_t, uint16_t

cdef struct PaySnap:           # the few fields a payment changes (pay_take), for a trial payment
    int8_t tokens[6]
    int8_t crystals[4]
    int8_t spent[4]
    uint8_t dice_taken
    uint8_t dice_used
    uint8_t black_any
    int8_t stolen_die
    uint8_t stolen_used
    int8_t polar_nospell
    uint16_t mana_used
    int8_t n_mods              # Mana Exploit: the modifiers, and the colours marked (exploit_struck)
    int8_t struck

cdef void pay_save(const GameState* gs, PaySnap* sn) noexcept nogil
cdef void pay_restore(GameState* gs, const PaySnap* sn) noexcept nogil
cdef bint playable_after_paying(GameState* gs, const EngineStatics* es, int card, int powered,
                                int pay, int pay2, int colour) noexcept nogil
cdef bint mana_usable(const GameState* gs, int colour) noexcept nogil
cdef int source_dice_allowed(const GameState* gs) noexcept nogil


# Results store (shared by the engine and the handler modules)
cdef inline void count_gained(const EngineStatics* es, Player* pl, int card) noexcept nogil:
    """Results store: a Deed card gained from an offer or a deck (6.4.1; also the gains
    that go to the hand or the discard pile: Learning, Training, Blood of Ancients, Magic
    Talent, Book of Wisdom), counted by its deck (AA, Spell, Artifact)."""
    cdef int deck = es.card_deck[card * es.card_stride]
    if 0 <= deck < 4:
        pl.stats.cards_gained[deck] += 1


# ---------------------------------------------------------------------------------------
# The effect interpreter (ext/_effects.pyx, a module of its own; see ext/_effects.pxd).
# ---------------------------------------------------------------------------------------
cdef enum:
    COLOUR_ANY = 6             # effects.COLOUR_CHOICES: ... "any", "any_basic"
    COLOUR_ANY_BASIC = 7

cdef struct EffectContext:     # who an effect involves, passed by value to the interpreter
    int actor                  # the player whose effect resolves (a handler's `p`)
    int asked                  # the seat that must answer a question it raises (gs.current)

cdef inline EffectContext effect_context(const GameState* gs, int actor) noexcept nogil:
    """The context of player `actor`'s effect, asked = the seat deciding now (gs.current)."""
    cdef EffectContext c
    c.actor = actor
    c.asked = gs.current
    return c

# Its entry points the engine calls (it cannot cimport the module): registered by
# ext/_effects.pyx when it is imported; the engine imports it before the handler groups.
ctypedef bint (*node_playable_t)(const GameState* gs, const EngineStatics* es, int row) noexcept nogil
ctypedef int (*run_effects_t)(GameState* gs, const EngineStatics* es, const Statics* st,
                              EffectContext ctx) noexcept nogil
ctypedef bint (*combat_move_usable_t)(const GameState* gs, const EngineStatics* es) noexcept nogil

cdef struct Interpreter:
    node_playable_t node_playable
    run_effects_t run_effects
    combat_move_usable_t combat_move_usable

cdef int register_interpreter(const Interpreter* fns) except -1

# engine primitives the interpreter calls (besides those the handler groups call, above)
cdef bint block_has_use(const GameState* gs, const Statics* st) noexcept nogil
cdef bint movement_only_row(const EngineStatics* es, int row) noexcept nogil
cdef bint handler_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil
cdef int run_handler(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                     int choice) noexcept nogil
cdef void fire_event(GameState* gs, const EngineStatics* es, const Statics* st, int p, int ev,
                     int arg) noexcept nogil
cdef bint cumbersome_move_usable(const GameState* gs, const Statics* st) noexcept nogil        # _engine_combat.pxi
cdef bint unit_op_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil  # _engine_units.pxi
cdef int unit_op(GameState* gs, const EngineStatics* es, const Statics* st, int p, int row,
                 int choice) noexcept nogil                                                   # _engine_units.pxi
cdef int unit_banner_bonus(GameState* gs, const EngineStatics* es, Player* pl) noexcept nogil  # _engine_artifacts.pxi
cdef int skill_op(GameState* gs, const int32_t* r) noexcept nogil                              # _engine_skills.pxi
cdef int skill_pool_bonus(GameState* gs, int op, int kind) noexcept nogil                      # _engine_skills.pxi
cdef int enemy_op_apply(GameState* gs, const EngineStatics* es, const Statics* st, int p,
                        int row, int choice) noexcept nogil                                   # _engine_advanced.pxi
