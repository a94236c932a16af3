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

cdef enum ActionKind:
    A_TACTIC = 1               # arg: tactic content index (3.1)
    A_ANNOUNCE_END = 2         # announce the End of the Round instead of a turn (4.2)
    A_REGULAR_TURN = 3         # 4.4
    A_REST = 4                 # 4.5
    A_PLAY = 5                 # arg: hand index | powered << 7 | pay << 8 | pay2 << 13 (6.1, 5.4)
    A_SIDEWAYS = 6             # arg: hand index | what << 7 (0 Move, 1 Influence, 2 Attack, 3 Block; 6.1.7)
    A_CHOOSE = 7               # arg: option of the pending choice(...)
    A_MOVE = 8                 # arg: direction 0-5 (HEX_DIRS order; 9.3)
    A_EXPLORE = 9              # arg: (a + 64) << 7 | (b + 64), tile position (9.8)
    A_END_TURN = 10            # 4.6
    A_REST_DISCARD = 11        # arg: hand index (4.5.2)
    A_HEAL_WOUND = 12          # arg: hand index; spend 1 Healing point (12.3.3)
    A_DISCARD = 13             # arg: hand index; end-of-turn discard before drawing (13.7.1)
    A_DRAW = 14                # finish the end-of-turn discards and draw (13.7.2)
    A_PICK_SKILL = 15          # arg: 0/1 revealed own token, 2+k common offer slot k (13.6.4)
    A_PICK_AA = 16             # arg: AA offer slot (13.6.4)
    A_GLADE_WOUND = 17         # arg: 0 skip, 1 from hand, 2 from discard (10.7.11.2)
    A_ACTION_SITE = 18         # arg: site action (interact/enter/challenge/burn) - not implemented yet
    A_TACTIC_ABILITY = 30      # arg: variant (Sparing Power: 0 store a card, 1 take them); use the
                               # own tactic's ongoing ability (3.2; before the turn: 4.1)
    A_FORFEIT = 31             # 4.2.5: forfeit a turn (offered only when a before-turn option exists)
    A_RETURN_CARD = 32         # arg: hand index; Crystal Joy: discard it to return Crystal Joy to hand
    A_CONVERT_MOVE = 33        # arg: 0 melee Attack 1, 1 Ranged Attack 1 for Move points (Agility)
    A_STEADY_TEMPO = 37        # end of turn: Steady Tempo to the bottom / top of the Deed deck (_fx_advanced)

cdef enum SiteActionKind:      # actions of _engine_combat.pxi (numbered apart from ActionKind)
    A_CHALLENGE = 40           # arg: bitmask of neighbour directions whose rampaging enemies are challenged (11.1.5)
    A_ENTER_SITE = 41          # enter the adventure site you stand on (10.8)
    A_BURN = 42                # try to burn the monastery you stand on (10.7.2.3)
    A_INTERACT = 43            # interact with the locals (10.2)
    A_COMMIT_ATTACK = 44       # arg: bitmask of target slots (11.5.2, 11.8)
    A_COMMIT_BLOCK = 45        # arg: slot | attack << 5 (11.6.3, LL-6.1)
    A_DAMAGE_START = 46        # arg: slot | attack << 5: resolve that unblocked attack next (11.7.1)
    A_DAMAGE_HERO = 47         # the rest of the damage goes to the hero (11.7.7)
    A_DAMAGE_UNIT = 48         # arg: unit slot (11.7.4)
    A_NEXT_PHASE = 49          # end this combat phase (11.3.2)
    A_REWARD = 50              # arg: a choice while claiming rewards (13.5)
    A_ALTAR = 51               # pay the tribute of a ruins altar (10.7.10.2)
    A_CUMBERSOME = 52          # arg: slot | attack << 5: spend 1 Move point, that Cumbersome attack -1 (LL-6.5.2)

cdef enum UnitActionKind:      # actions of _engine_units.pxi (interaction 10.2-10.7, Units 7, 12.3)
    A_END_INTERACT = 60        # finish the interaction (back to the rest of the turn, no movement)
    A_RECRUIT = 61             # arg: unit-offer slot | (disbanded unit slot + 1) << 4, 0 = none (10.6, 7.2.4)
                               # | (pay code + 1) << 8 | basic colour << 13: Magic Familiars' mana (LL-4.5.4)
    A_BUY_HEALING = 62         # 1 Healing point for the site's price (10.5)
    A_BUY_AA = 63              # arg: unit-offer slot of a monastery AA (10.7.2.2)
    A_BUY_SPELL = 64           # arg: spell-offer slot | pay << 2 (10.7.4.3, 21.2 A26)
    A_ACTIVATE_UNIT = 65       # arg: unit slot | ability << 3 | pay << 7 (7.3.1)
    A_HEAL_UNIT = 66           # arg: unit slot; spend Healing points equal to its level (12.3.3)

cdef enum SkillActionKind:     # actions of _fx_skills.pxi (8.2)
    A_USE_SKILL = 70           # arg: skill slot of Player.skills; its effect resolves on the stack
    A_SKILL_CRYSTAL = 71       # arg: Source die; Source Freeze's crystal of its colour on the next turn
    BONDS_RECRUIT = 0x10000    # A_RECRUIT argument bit (above the Familiars mana, bits 8-14): the unit goes under Bonds of Loyalty (_fx_skills)

cdef enum SitesActionKind:     # sites and cities (_engine_combat.pxi, _engine_units.pxi; numbers 120-129)
    A_PLUNDER = 120            # before the turn, in a village: Reputation -1, draw 2 cards (10.7.1.4, 4.1)
    A_BUY_ARTIFACT = 121       # red city: an Artifact for 12 Influence, drawn at the end of the turn (10.10, 10.5.2)
    A_BUY_CITY_AA = 122        # green city: arg 0-2 AA offer slot, 3 = top card of the AA deck (10.10, 10.5)
    A_ADD_ELITE = 123          # white city: pay to add the top Elite Unit card to the Unit offer (10.10)

cdef enum:
    EXPLORE_BOX_FLAG = 1 << 14 # A_EXPLORE argument bit: the position is filled with a tile from the box (9.8.8)

cdef enum AdvancedActionKind:  # actions of _fx_advanced.pxi
    A_INFLUENCE_BLOCK = 80     # arg: element (0 physical, 1 fire, 2 ice); Diplomacy: 1 Influence -> Block 1
    A_LEARNING = 81            # arg: AA offer slot; Learning: buy it for the card's Influence price
    A_PEACEFUL = 82            # arg: 0 Heal 1, 1 + unit slot: ready that Unit (Peaceful Moment as the action)

cdef enum SpellActionKind:     # actions of _fx_spells.pxi
    A_POSSESS = 90             # Attack phase: add the possessed enemy's Attack to the pool (Possess)
    A_WINGS_TARGET = 91        # arg: enemy slot; Wings of Night: one more enemy does not attack, for Move

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
                               # special_rules missing from _fx_units.pxi SPECIAL_UNIT_CODES), or a Banner
                               # on Utem Swordsmen (7.5 not implemented)

cdef enum HeroesRule:          # error_arg of ERR_HEROES
    HEROES_INTERACTIVE_SKILL = 1    # 8.2.2: an interactive skill's part that acts on the other heroes
    HEROES_OPPONENT_KEEP = 2        # 10.7.3.5: assault on another player's keep
    HEROES_INTERACTIVE_SPELL = 3    # 19.7.1: an interactive Spell's effect on the other heroes

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
