# Enums, limits and C structs of the game state: the contract of the Cython core.
#
# The mutable state of one game is a single GameState struct (plus nothing else), so that
# clone() is one memcpy and no Python object is touched in the step loop.  Static content
# (cards, units, enemies, tiles ...) is NOT here: it lives in the int32 tables compiled by
# mksim/tables.py and is referenced by index.  Word orders below mirror the tuples in
# mksim/effects.py and mksim/content.py (tests/test_layering.py keeps them in step).
#
# Status: this header fixes the layout for issue 3 (rules engine).  _rng and _hexmap are
# implemented; _state/_rules/_combat/_effects/_policies are to be written against it.
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from mksim._rng cimport Rng, NUM_STREAMS, STREAM_DEEDS, STREAM_DEEDS_1

# ---------------------------------------------------------------------------------------
# Limits (fixed-size arrays keep the state one flat struct)
# ---------------------------------------------------------------------------------------
cdef enum:
    MAX_PLAYERS = 4            # heroes in one game (17.2: up to 4)
    # Deed cards in one zone of a hero, Wounds included.  Wounds are unlimited (1.2.4) and a
    # battered hero holds hundreds of cards: the largest zones seen in 1,000,000 fuzz games
    # (tests/benchmarks/fuzz.py) are given in docs/engine.md; these leave generous headroom.
    # A card a full zone refuses stops the game (GameState.cards_refused, ERR_CAPACITY).
    MAX_DECK_CARDS = 1024      # the Deed deck: every card of the hero after the round's reshuffle (2.2.8)
    MAX_HAND_CARDS = 256       # the hand: the Wounds of one round on top of the hand limit
    MAX_DISCARD_CARDS = 256    # the discard pile: the cards of one round
    MAX_PLAY_CARDS = 64        # the play area: cards played in one turn (no Wounds)
    MAX_DUMMY_CARDS = 64       # the dummy's deck / discard pile: 16 Deeds + 1 AA per round, never a Wound (18.4.4)
    MAX_UNITS = 6              # command tokens at level 9-10 are 5; +1 for Bonds of Loyalty
    MAX_SKILLS = 8             # skills gained at levels 2,4,6,8,10 plus Circlet / spares
    MAX_TILES = 40             # tiles on the map (24 base+LL tiles, slack for variants)
    MAX_HEXES = MAX_TILES * 7  # hexes on the map
    MAX_TOKENS = 128           # enemy token instances (60 base + 38 LL = 98)
    MAX_PILE = 64              # tokens in one colour pile
    MAX_DICE = 8               # Source dice (players + 2, +1 Blitz; 5.5.1)
    MAX_OFFER = 12             # unit offer (players + 2, + monastery AAs, + white city)
    MAX_DECK = 64              # AA / spell / artifact / unit decks
    MAX_COMBAT_ENEMIES = 12    # enemies in one combat (a level-11 city has 5, + rampaging, + summons)
    MAX_PATH = 32              # spaces moved this turn (forced withdrawal retraces them, 13.2)
    NUM_PILES = 6              # enemy token colours: green grey violet brown red white (11.14)
    MAX_ROUNDS = 8             # rounds kept in PlayerStats (solo scenarios last 4 or 6, 14.2)
    NUM_SITE_KINDS = 24        # site kinds counted in PlayerStats (mksim.content.SITE_IDS has 20)

# ---------------------------------------------------------------------------------------
# Words (orders mirror mksim/effects.py and mksim/content.py)
# ---------------------------------------------------------------------------------------
cdef enum Colour:              # mana colours, 5.1.1 (basic first)
    RED = 0
    BLUE = 1
    WHITE = 2
    GREEN = 3
    GOLD = 4
    BLACK = 5
    NUM_COLOURS = 6

cdef enum:                     # card deck codes (mksim.tables.DECK_TYPES, rule 6.1.1)
    DECK_BASIC = 0
    DECK_AA = 1
    DECK_SPELL = 2
    DECK_ARTIFACT = 3
    DECK_WOUND = 4

cdef enum:
    COLOURLESS = 4             # card colour code of artifacts and the Wound (mksim.tables.CARD_COLOURS)

cdef enum Element:             # 11.9.1
    PHYSICAL = 0
    FIRE = 1
    ICE = 2
    COLDFIRE = 3

cdef enum AttackKind:          # 11.9.1
    MELEE = 0
    RANGED = 1
    SIEGE = 2

cdef enum Terrain:             # 9.2
    PLAINS = 0
    HILLS = 1
    FOREST = 2
    WASTELAND = 3
    DESERT = 4
    SWAMP = 5
    LAKE = 6
    MOUNTAIN = 7
    NUM_TERRAINS = 8

cdef enum TimeOfDay:           # 2.1
    DAY = 0
    NIGHT = 1

cdef enum Phase:               # where the game is waiting for a decision
    PH_TACTICS = 0             # tactic selection (3.1)
    PH_TURN_START = 1          # before-turn options, announce End of Round (4.1, 4.2)
    PH_MOVE = 2                # movement part of a regular turn (9.3)
    PH_ACTION = 3              # interaction / adventure / challenge chosen (4.4.4)
    PH_COMBAT_RANGED = 4       # 11.5
    PH_COMBAT_BLOCK = 5        # 11.6
    PH_COMBAT_DAMAGE = 6       # 11.7
    PH_COMBAT_ATTACK = 7       # 11.8
    PH_INTERACT = 8            # spending Influence (10.2)
    PH_REST = 9                # 4.5
    PH_END_TURN = 10           # end-of-turn choices: rewards, level-up picks, discards (13)
    PH_GAME_OVER = 11

cdef enum Termination:         # why a game ended (the outcome's termination reason)
    TERM_NONE = 0
    TERM_SCENARIO_WON = 1      # end condition met and final turns played (14.3)
    TERM_ROUND_LIMIT = 2       # last round ended (14.2)
    TERM_STEP_LIMIT = 3        # safety valve; a real game never reaches it (counted as an error)

# ---------------------------------------------------------------------------------------
# Map
# ---------------------------------------------------------------------------------------
cdef struct Hex:
    int16_t q                  # axial coordinates (see _hexmap.pxd)
    int16_t r
    int8_t terrain             # Terrain
    int8_t site                # index into content.SITE_IDS, -1 = none
    uint8_t colours            # mine / city colour bitmask (basic colours)
    int8_t tile                # index into GameState.tiles
    int16_t neighbour[6]       # hex index of each neighbour (HEX_DIRS order), -1 = not on the map
    int8_t owner               # player whose Shield marks the site, -1 = none (keep owner, conquered)
    uint8_t flags              # HEX_* bits below
    int16_t tokens[6]          # enemy token instances lying here (garrison, rampaging, den survivors)
    int8_t n_tokens
    int8_t ruins               # ruins token index (content ruins table), -1 = none
    int8_t city_level          # level of the city on this hex, 0 = none
    # --- sites ---
    int8_t city_shields[MAX_PLAYERS]   # Shields of each player on this City card (11.12.2)
    uint8_t city_first[MAX_PLAYERS]    # when each player's first Shield went on it: 1 = first placed, 0 = none (11.13.3)

cdef enum HexFlags:
    HEX_CONQUERED = 1          # fortified site conquered / adventure site shielded
    HEX_BURNED = 2             # monastery burned (10.7.2.4)
    HEX_TOKENS_REVEALED = 4    # garrison / ruins tokens face up (9.10)
    HEX_RUINS_REVEALED = 8

cdef struct Tile:
    int8_t content             # index into the content tiles table
    int8_t a                   # lattice position (see _hexmap.pxd)
    int8_t b
    int16_t first_hex          # its 7 hexes are first_hex .. first_hex+6 in data order

# ---------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------
cdef struct Unit:
    int16_t card               # unit content index, -1 = empty slot
    uint8_t ready              # 7.2.2
    uint8_t wounds             # 0, 1, or 2 (Poison, 11.7.9)
    int16_t banner             # attached Banner artifact card index, -1 = none (7.5)
    uint8_t damaged_this_combat   # resisted once already (11.7.6)
    # --- units ---
    uint8_t gained_res         # RES_* bits gained this turn (Altem Guardians, Mist Form); the same bits << 3:
                               # gained this combat (Force of Nature), cleared at the combat's end
    uint8_t paid_combat        # Thugs / Heroes: 2 Influence paid in this combat (LL-4.3.1-LL-4.3.4)
    uint8_t abilities_used     # Delphana Masters: bit per ability used in this activation (LL-4.4.2)
    int8_t upkeep              # Magic Familiars: colour + 1 of the mana kept on the card, 0 = none (LL-4.5.4)
    uint8_t upkeep_due         # Magic Familiars: the round-start upkeep is still to be paid (LL-4.5.4)

cdef struct RoundStats:        # one player at one round's end (mksim rounds.parquet); never read by the rules
    int16_t fame
    int8_t level
    int16_t wounds             # Wound cards among the Deed cards (all zones)
    int16_t deeds              # Deed cards owned (deck, hand, discard, play area), Wounds included
    int8_t units               # Units held
    int8_t crystals            # crystals in the Inventory (all colours)
    int8_t tactic              # tactic content index + 1 of that round, 0 = none

cdef struct PlayerStats:       # counters for the results store (docs/experiments.md); never read by the rules
    uint16_t combats           # combats entered (11.1)
    uint16_t defeated[NUM_PILES]   # enemies defeated, by token colour (summoned monsters included)
    uint16_t knockouts         # knock-outs (11.7.8)
    uint16_t wounds_taken      # Wound cards taken, to hand (12.1.1) and Poison's to discard (11.7.9)
    uint16_t units_recruited   # Units gained: recruited, rewards, free recruits (7.2)
    uint16_t cards_gained[4]   # Deed cards gained by deck code (DECK_AA, DECK_SPELL, DECK_ARTIFACT; 6.4.1)
    uint16_t mana_used         # mana paid: tokens, crystals, Source dice, the Mana Steal die (5.4)
    uint16_t conquered[NUM_SITE_KINDS]   # sites conquered / shielded / burned, by site kind (content.SITE_IDS)
    uint16_t turns             # own turns started (4)
    uint8_t forced_missed      # bit r-1: the experiment's forced tactic for round r was not on offer (MAX_ROUNDS bits)
    uint16_t restriction_forced    # decisions where only forbidden options were legal, so one was taken (restricted play)
    RoundStats rounds[MAX_ROUNDS]   # filled at each round's end and at the game's end
    int8_t n_rounds

cdef struct Player:
    int8_t hero                # hero content index
    int16_t fame               # 20
    int8_t reputation          # -7 .. +8 (reputation.toml; 10.3)
    int8_t level               # 1 .. 10 (13.6)
    int8_t command_tokens      # 7.2.1
    int8_t crystals[4]         # per basic colour, max 3 (5.1.3)
    int16_t deck[MAX_DECK_CARDS]   # Deed deck, top = deck[n_deck-1]
    int16_t n_deck
    int16_t hand[MAX_HAND_CARDS]
    int16_t n_hand
    int16_t discard[MAX_DISCARD_CARDS]
    int16_t n_discard
    int16_t play_area[MAX_PLAY_CARDS]  # cards played this turn (6.1.2)
    int16_t n_play
    int16_t removed            # cards thrown away this game (conservation checks)
    int16_t cards_taken        # Deed cards taken from other heroes minus those they took (Mind Steal, 19.7.1)
    Unit units[MAX_UNITS]
    int8_t skills[MAX_SKILLS]  # skill content index, -1 = none
    int8_t skill_stack[12]     # own face-down Skill tokens, top = [n-1] (1.3.9)
    int8_t n_skill_stack
    uint16_t skills_used       # bit per skill slot: flipped / used this turn or round
    int16_t position           # hex index, -1 = off the map (portal, 9.5.5)
    int8_t tactic              # tactic content index this round, -1 = none
    uint8_t tactic_used        # tactic flipped (3.2)
    int16_t tactic_cards[8]    # cards stored under Sparing Power (3.2)
    int8_t n_tactic_cards
    int8_t stolen_die          # Mana Steal: colour of the die kept on the card, -1 = none (3.2, 21.2 A7)
    uint8_t used_before_turn   # a before-turn tactic ability was used this turn (3.2)
    uint8_t knocked_out        # this combat (11.7.8)
    int16_t wounds_this_combat # towards knock-out (21.2 A17)
    int8_t round_order         # position in the round order
    int8_t claimed_die         # Mana Claim: colour + 1 of the die kept until the round ends, 0 = none
    int8_t claim_per_turn      # Mana Claim: tokens of that colour at the start of each later turn
    # --- artifacts ---
    uint8_t banner_fx[MAX_UNITS]   # BF_* bits of the Banner on unit slot i (BannerFx, _engine.pxd); read only while units[i].banner >= 0
    uint8_t banner_flipped     # bit per unit slot: its Banner was flipped this round (Courage, Fortitude; 2.2.8 flips it back)
    uint8_t banner_prep        # 7.5.3 / 2.2.8: 1 = keep-or-return choice for attached Banners pending before the round draw
    # --- skills --- (ext/_fx_skills.pxi)
    int8_t motivation_lock     # 8.3.2 Motivation: own turn ends left before another Motivation may be used
    uint8_t source_freeze      # Source Freeze in the Source: 1 placed, 2 its crystal may be taken this turn
    uint8_t coop_due           # cooperative skill (LL-7.3.2): 1 used this turn, 2 its secondary effect may be used this turn
    uint8_t coop_slot          # skill slot + 1 of that cooperative skill (0 = none)
    uint8_t coop_mark          # Mana Overload: colour + 1 its token in the centre is marked with (0 = none)
    int8_t bonds_slot          # Bonds of Loyalty: unit slot + 1 of the unit under its token (0 = none)
    # --- spells ---
    int16_t set_aside[4]       # Time Bending: cards set aside until the end of the round (LL-9.6.4)
    int8_t n_set_aside
    # --- results store ---
    PlayerStats stats
    # --- knowledge --- (ext/_determinize.pyx keeps these cards when it resamples the deck)
    int16_t deck_known_top     # cards on top of the Deed deck the player knows: gained ones (6.4.1), Steady Tempo; 0 after a shuffle
    int16_t deck_known_bottom  # cards at the bottom of the Deed deck the player knows (Steady Tempo, Meditation); 0 after a shuffle

cdef struct Dummy:             # the dummy player (18)
    int8_t hero
    int16_t deck[MAX_DUMMY_CARDS]
    int16_t n_deck
    int16_t discard[MAX_DUMMY_CARDS]
    int16_t n_discard
    int8_t crystals[4]         # no 3-crystal limit (18.4.4)
    int8_t skill_stack[12]     # the dummy hero's skills, revealed into the common offer (18.3.1)
    int8_t n_skill_stack
    int8_t tactic
    int8_t round_order

# ---------------------------------------------------------------------------------------
# Turn-scoped and combat state
# ---------------------------------------------------------------------------------------
# ---------------------------------------------------------------------------------------
# Lasting effects as generic modifiers (issue 12; docs/engine.md "Events and modifiers")
# ---------------------------------------------------------------------------------------
cdef enum:
    MAX_MODS = 16              # modifiers alive at once (a full array stops the game, ERR_CAPACITY)

cdef enum ModKind:             # what a modifier changes (Modifier.value is how much)
    MK_NONE = 0
    MK_IGNORE_SITE_FORT = 1    # site fortifications ignored (Demolish, Underground Attack; 11.10.1)
    MK_UNIT_ATTACK_BLOCK = 2   # Units' Attack (any kind) and Block + value (Into the Heat)
    MK_RECRUIT_DISCOUNT = 3    # the next Unit recruited costs value less Influence (Charm; used up by it)
    MK_EXPLORE_DISCOUNT = 4    # exploring costs value less Move (Hawk Eyes at Night; 9.8.3)
    MK_BLOCKED_ARMOR_ONE = 5   # an enemy whose attacks are all blocked has Armor 1 (Disease, LL-6.1.6)
    MK_HAND_LIMIT_ENDS_IN = 6  # Hand limit + value at this turn's draw if it ends in terrain arg - 1 (Mountain Lore, 13.7.2)
    # turn-long effects of cards, skills and artifacts (MS_TURN unless said)
    MK_IGNORE_WOUNDS = 7       # the next value Wounds from enemies this turn are ignored (Veil of Mist; used up)
    MK_NO_UNIT_DAMAGE = 8      # no combat damage may be assigned to Units this turn (Into the Heat, 11.7.4)
    MK_NO_SOURCE_DICE = 9      # no Source die may be used for the rest of the turn (Who Needs Magic +3)
    MK_NO_RECRUIT = 10         # no Unit may be recruited for the rest of the turn (On Her Own's Influence 3)
    MK_MANA_ANYTIME = 11       # mana of colour arg - 1 usable whatever the time: gold at Night, black by Day (Amulets; 5.1.5, 5.1.6)
    MK_ENDLESS_MANA = 12       # an endless supply of mana tokens of colour arg - 1 (Rings)
    MK_DICE_ANY_BASIC = 13     # gold / black Source dice usable as any basic colour (Mana Storm powered)
    MK_CRYSTAL_RETURN = 14     # crystals spent this turn return at its end (Crystal Mastery powered)
    MK_SPACE_BENDING = 15      # spaces 2 away count as adjacent for moves (Space Bending; A_MOVE arg 8 + hex)
    MK_PROTECTION = 16         # the Wounds received this turn are thrown away at its end (Banner of Protection powered)
    MK_INFLUENCE_BLOCK = 17    # Influence may be spent as Block of element arg - 1 (0 physical, 1 fire, 2 ice; Diplomacy, LL-9.7.1)
    MK_REVEAL_DISTANCE = 18    # fortified garrisons revealed up to value spaces away (Hawk Eyes by Day, 9.10.1)
    MK_EXPLORE_RANGE = 19      # tiles may be revealed value spaces away (Scouts, LL-4.6.1)
    MK_DRAW_PER_HEAL = 20      # value cards drawn per Wound healed from hand (Golden Grail)
    MK_CURE = 21               # Cure: value cards per Wound healed from hand, and each Unit healed is readied
    # combat-long (MS_COMBAT)
    MK_ATTACKS_COLDFIRE = 22   # all your attacks are Cold Fire this combat (Altem Mages)
    MK_ATTACKS_SIEGE = 23      # all your attacks are also Siege this combat (Altem Mages)
    MK_SWORD_FAME = 24         # Fame + value per enemy defeated in this combat, at its end (Sword of Justice)
    MK_DODGE_ATTACK = 25       # Attack value at the start of the Attack phase if no Wound went to hand this combat (Dodge and Weave; used then)
    # next-card, used-up and phase-long bonuses
    MK_CARD_BONUS = 26         # + value to the first Move / Influence / Attack / Block of the card played with it (Concentration; next card, used up)
    MK_MOVE_BONUS = 27         # + value Move for a card giving Move, sideways too (Tirelessness); arg 0: the next one (used up), 1: every one
    MK_FIRST_ATTACK_BLOCK = 28 # + value to the first Attack (arg 1) or Block (arg 2) card, whichever first (Ambush; both used up)
    MK_ATTACK_CARD_BONUS = 29  # + value to one Attack card this combat phase, sideways too (Deadly Aim; used up)
    MK_UNIT_ABILITY_BONUS = 30 # + value to the next Unit ability giving Block (arg 1) / Attack (2) / Ranged Attack (3) (Leadership; used up)
    MK_PER_RECRUIT = 31        # Reputation (arg 1) / Fame (arg 2) + value per Unit recruited from now on (Heroic Tale)
    MK_PHASE_DEFEAT_FAME = 32  # Fame + value per enemy defeated in this combat phase, at its end (Bow of Starsdawn basic)
    MK_BLOCK_FIRE_ATTACK = 33  # Burning Shield: arg 1 the Fire Attack value if its block pool succeeds (phase),
                               # arg 2 that block succeeded: Fire Attack when the Attack phase starts (combat; used up)
    MK_BLOCK_DESTROY = 34      # the enemy this phase's block pool blocks is destroyed (Exploding Shield)
    # interactive skills (8.2.2): round-scoped, owned by the skill's owner, ended at the
    # start of the owner's next turn (interactive_turn_start) or the round's end (14.1.3)
    MK_WEATHER_OTHERS = 35     # other players' terrain costs + value, a raise stops at arg (Prayer of Weather)
    MK_MANA_EXPLOIT = 36       # others take a Wound using mana not of colour arg - 1 (Mana Exploit)
    MK_EXPLOIT_STRUCK = 37     # turn: colours (bits) of mana owner used under Mana Exploit; arg bits: Wound taken
    MK_HOWL_OTHERS = 38        # other players' Units' Attack and Block - value (Wolf's Howl)
    MK_MANA_CURSE = 39         # round: others take a Wound (1 a turn) using mana of colour arg - 1 (Mana Curse)
    # terrain costs of the turn (9.6; MS_TURN, owned by the mover): arg = terrain + 1, 0 = every
    # terrain; read by _rules.move_cost (docs/engine.md "Events and modifiers", terrain family)
    MK_TERRAIN_DELTA = 40      # the terrain's Move cost + value, never below 0 (9.6.2; Path Finding, Song of Wind, Amulets, Foresters)
    MK_TERRAIN_FLOOR = 41      # ... a reduction stops at value (Path Finding basic "-1, min 2"); the highest counts
    MK_TERRAIN_SET = 42        # the terrain's Move cost is value (9.6.1; Path Finding powered, Frost Bridge ...); the lowest counts
    MK_TERRAIN_OPEN = 43       # lake / mountain may be entered at its set cost (9.6.3; not safe, 9.7.1)
    MK_TERRAIN_SAFE = 44       # ... and counts as safe at the end of the move (9.7.1; Mountain Lore powered)
    MK_TERRAIN_CLOSED = 45     # the terrain may not be entered (Mist Form, 9.2)
    MK_WEATHER_OWN = 46        # every terrain cost of the owner + value, applied last, a reduction stopping at arg
                               # (Prayer of Weather's own part this turn, 8.2.2 / 9.6.2; one entry)
    # turn / combat-long effects of particular cards, third move (docs/engine.md)
    MK_UNIT_GLORY = 47         # every Unit this turn: arg 1 Armor + value, 2 its Attacks / Blocks + value,
                               # 3 Fame + value once per Unit that attacks or blocks (Banner of Glory powered)
    MK_OTHER_UNITS_ATTACK = 48 # + value to the attacks of Units other than the giver in slot arg - 1
                               # (8: an offer Unit through Call to Arms) this turn (Shocktroops)
    MK_SWORD_DOUBLE = 49       # this turn enemies lose physical resistance, physical Attack x value in
                               # the Attack phase (Sword of Justice powered; the greater counts)
    MK_BOW_POWERED = 50        # each Ranged Attack this turn x value or made Siege, a Siege one x value
                               # but Ranged (Bow of Starsdawn powered; A_BOW_CHANGE)
    MK_LEARNING = 51           # once this turn an AA from the offer for value Influence, arg 1 to the
                               # discard pile / 2 to hand (Learning; A_LEARNING, used up by it)
    MK_CHIVALRY = 52           # phase: arg 1 Reputation / 2 Fame + value per enemy the attack being
                               # assembled defeats (Chivalry; used up by A_COMMIT_ATTACK)
    # the Block pool's own effects (MS_BLOCK: used by the committed block, lost with an unused
    # pool at the phase's end, 11.4.5; read by add_block_extras / commit_block)
    MK_ICON_BLOCK = 53         # Ice Block + value per icon of the enemy blocked (Cold Toughness, LL-2.10.8):
                               # arg 1 Lost Legion printing (none under Arcane Immunity), 2 base (it counts)
    MK_SWIFT_STRIP = 54        # the enemy blocked loses Swiftness, 11.6.5 (base Utem Guardsmen / Altem Guardians)
    MK_SWIFT_BLOCK = 55        # value Block points of element arg - 1 count once more against Swift
                               # (Shield Bash, Lost Legion Utem Guardsmen / Altem Guardians; LL-2.10.10)
    MK_BLOCK_ARMOR = 56        # the enemy this block stops gets Armor + value (min 1; Ice Shield powered),
                               # an effect of colour arg - 1 (0 = none; 11.4.2)
    MK_BLOCK_ARMOR_EXCESS = 57 # ... Armor - value per point of excess Block (Shield Bash powered, LL-6.7.5)
    # combat-long effects of Spells (MS_COMBAT)
    MK_WINGS = 58              # Wings of Night: one more enemy does not attack for value Move, each further
                               # one arg more (A_WINGS_TARGET; made when its first, free, target is taken)
    MK_POSSESS_ATTACK = 59     # Possess: Attack value of element arg - 1 for the Attack phase (used up by A_POSSESS)
    MK_POSSESSED = 60          # Possess: value = the possessed enemy's slot + 1 (its Attack may not target it)
    NUM_MOD_KINDS = 61

cdef enum ModScope:            # when a modifier expires (the lifecycle event that ends it)
    MS_NEXT_CARD = 0           # the next card played (EV_CARD_PLAYED)
    MS_PHASE = 1               # the end of the current (combat) phase (EV_PHASE_END)
    MS_COMBAT = 2              # the end of the combat (EV_COMBAT_END)
    MS_TURN = 3                # the end of the turn (EV_TURN_END: reset_turn)
    MS_ROUND = 4               # the end of the round (EV_ROUND_END; survives reset_turn)
    MS_BLOCK = 5               # the Block pool: a block committed (commit_block), else the phase's end (11.4.5)
    NUM_MOD_SCOPES = 6

cdef struct Modifier:
    uint8_t kind               # ModKind, MK_NONE = a free entry
    uint8_t scope              # ModScope
    int8_t value               # how much (1 for a flag)
    int8_t arg                 # element / colour / terrain + 1 it applies to, 0 = any
    int16_t source             # card (deed / unit / skill index of the effect's resolving_card) that made it, -1 = none
    int8_t owner               # player whose effect it is

cdef struct TurnState:
    int16_t move_points        # 9.3.2
    int16_t influence          # 10.2.2 (reputation modifier applied once, 10.2.3)
    int16_t healing            # 12.3.3
    int8_t mana_tokens[NUM_COLOURS]   # pure mana in the play area (5.1.2)
    uint8_t dice_used          # Source dice taken this turn (5.5.2)
    uint8_t extra_dice         # extra Source dice allowed by effects (Mana Draw ...)
    uint8_t action_taken       # 4.4.5
    uint8_t moved              # any move this turn (action ends movement)
    uint8_t played_card        # 4.3.2
    uint8_t empty_start        # 4.3.2 exception: the turn began with an empty hand and a non-empty Deed deck
    int16_t path[MAX_PATH]     # hexes entered this turn, for forced withdrawal (13.2)
    int8_t n_path
    uint8_t rewards[16]        # rewards earned this turn, claimed at end of turn (13.5)
    int8_t n_rewards
    int8_t grail_fame          # Golden Grail: its Healing points not yet spent (Fame +1 each when spent)
    int16_t reward_cards[6]    # Artifacts drawn for the rewards (13.5.2), one goes back
    int8_t n_reward_cards
    uint8_t reward_choice      # 0 none, 1 choose the Artifact to put back, 2 choose a crystal colour (gold roll)
    # effect resolution (engine): a card's effect rows are walked with an explicit stack so
    # that a choice(...) can wait for the player's decision and then continue.
    int16_t eval_stack[32]     # effect rows still to resolve, top = [n_eval-1]
    int8_t n_eval
    int16_t pending_choice     # row of the choice(...) awaiting a decision, -1 = none
    int16_t resolving_card     # card whose effect is being resolved (for error messages), -1 = none
    uint8_t end_stage          # end-of-turn sequence stage (13.1), 0 = not ending
    uint8_t levels_pending     # level-ups still to resolve this turn (13.6)
    uint8_t rest_mode          # 0 none, 1 standard rest chosen card done, 2 slow recovery (4.5)
    uint16_t discarded_end     # cards discarded at end of turn (13.7.1, 21.2 A21)
    # a named effect handler waiting for a decision (see ext/_engine.pyx "handler protocol")
    int16_t handler_row        # the handler's effect row, -1 = none
    int8_t handler_stage       # progress inside the handler (its own numbering)
    int8_t ask                 # what the pending decision picks (ASK_* in _engine.pxd)
    uint64_t ask_options       # bit k set = A_CHOOSE(k) is legal (k < 64)
    int16_t hvars[8]           # the handler's scratch values between stages
    # turn-long effects set by cards, skills and tactics
    int8_t hand_limit_bonus    # next draw's Hand limit bonus (Planning, LL-8.2)
    uint8_t extra_turn         # The Right Moment / Time Bending: another turn follows (3.2)
    uint8_t stolen_used        # the Mana Steal die was used this turn: rerolled and returned at its end (3.2)
    uint8_t dice_kept          # bit per Source die set by an effect (Mana Draw): returned without a reroll
    uint8_t black_any          # Mana Pull: one black Source die may be used as mana of any colour
    uint8_t tactic_turn        # TT_* bits: tactic abilities used this turn (Mana Search once per turn)
    int8_t overload_bonus      # Mana Overload (LL-7): bonus armed for the card powered with its colour, 0 = none
    int16_t overload_card      # ... that card (the bonus is its own, not an indirect card's)
    uint8_t crystal_joy        # Crystal Joy: 1 non-Wound / 2 any card may be discarded at end of turn to return it
    int16_t crystal_joy_card   # the Crystal Joy card to return, -1 = none
    # Advanced Actions (ext/_fx_advanced.pxi); all reset with the turn
    int8_t crystals_spent[4]   # crystals paid this turn, per basic colour (Crystal Mastery)
    int8_t agility_melee       # Agility: Move per Attack 1 in combat, 0 = none
    int8_t agility_ranged      # Agility powered: Move per Ranged Attack 1, 0 = none
    int8_t steady_tempo        # Steady Tempo: 1 to the bottom (deck not empty), 2 to the top of the deck
    int16_t steady_tempo_card  # that card (it is in the discard pile after 13.3), -1 = none
    uint8_t heat_window        # 1 = at the start of a combat (no action taken in it yet); see Engine.apply
    # spells and artifacts (ext/_fx_spells.pyx, ext/_fx_artifacts.pyx)
    uint8_t ring_fame          # bit per basic colour: Fame +1 per Spell of it in play at end of turn (Rings)
    uint32_t phase_defeated    # combat slots already defeated when the current combat phase began
    int16_t wounds_healed      # Wounds healed from hand this turn (Cure)
    uint8_t units_healed       # bit per unit slot: a Wound of that Unit healed this turn (Cure)
    int8_t fx_colour           # colour + 1 of the effect resolving while resolving_card == fx_colour_by
    int16_t fx_colour_by       # (Tome of All Spells' Spell LL-9.6.3, a Unit ability's mana 11.4.2); 0 = own
    # --- artifacts ---
    uint8_t glory_units        # bit per unit slot: its Banner of Glory (powered) Fame was paid this turn
    int8_t fortitude_unit      # unit slot + 1 whose wound the Banner of Fortitude ignores in assign_to_unit, 0 = none
    int16_t wounds_to_hand     # Wounds received into the hand this turn (12.1.1; Banner of Protection)
    int16_t wounds_to_discard  # Wounds received into the discard pile this turn (Poison 11.7.9)
    int8_t soul_one            # Soul Harvester: crystals for one enemy defeated by the next committed attack
    uint8_t soul_all           # Soul Harvester powered: a crystal per enemy defeated in this (Attack) phase
    int16_t soul_row           # the Soul Harvester handler row + 1 (asks for a crystal colour), 0 = none
    uint32_t soul_slots        # enemy slots defeated whose Soul Harvester crystal is still to be taken
    int8_t split_left          # Shield of the Fallen Kings: separate Blocks still to come after the next block
    int8_t split_n             # ... each of split_n points
    int8_t split_el            # ... of this Element
    int16_t bow_done_r[4]      # ... Ranged points per element in the pool that the Bow already changed
    int16_t bow_done_s[4]      # ... Siege points per element that the Bow made
    int8_t circlet_skill       # Circlet of Proficiency: common-offer skill used as one's own this turn + 1, 0 = none
    int8_t circlet_uses        # ... uses of it left this turn (A_CIRCLET_SKILL)
    int16_t command_card       # Banner of Command played this turn (in the play area) + 1, 0 = none (LL-5.1)
    uint8_t recruited_units    # bit per unit slot: Unit recruited this turn (10.6; Banner of Command)
    # --- sites ---
    uint8_t plundered          # a village was plundered before this turn (10.7.1.4: once between two turns)
    # --- skills --- (ext/_fx_skills.pxi; all reset with the turn)
    uint8_t recruited          # a Unit was recruited with Influence this turn (On Her Own)
    int8_t duel_slot           # Dueling: its enemy's combat slot + 1 (0 = none)
    uint8_t duel_units         # Dueling: a unit blocked / attacked that enemy or took its damage (no Fame)
    int8_t duel_attack         # Dueling: its Attack against that enemy in the Attack phase (0 = used)
    int8_t duel_fame           # Dueling: Fame if that enemy is defeated without units
    int8_t duel_block          # Dueling: its Block against that enemy (0 = used)
    uint8_t duel_pool_units    # Dueling: a unit ability is in the pool being assembled
    int8_t polar_nospell       # Polarization by Day: colour + 1 of one token (black used as it) that may not pay for a Spell
    # --- advanced ---
    uint8_t peaceful           # Peaceful Moment played as the action: 1 Healing may be bought, 2 also Units readied
    int8_t peaceful_heal_cost  # ... Influence per Healing point
    int8_t peaceful_ready_cost # ... Influence per level of a Unit readied
    uint8_t portal_used        # Temporal Portal resolved this turn (one action per turn, LL-9.7.21)
    int8_t maximal_left        # Maximal Effect: uses of the borrowed effect still to come
    int16_t maximal_row        # ... that effect row + 1, 0 = none
    int16_t maximal_self       # ... the Maximal Effect handler row that repeats it
    # --- spells ---
    int16_t time_bending       # Time Bending: the card to set aside + 1 (another turn follows, played cards to hand), 0 = none
    int8_t spells_cast[4]      # Spells cast this turn per basic colour (played for a basic or powered effect, not sideways; Rings)
    # --- units --- (ext/_fx_units.pyx, ext/_engine_units.pxi)
    uint8_t recruit_mode       # LL-4.2: 1 Thugs / 2 Heroes already recruited in this interaction
    int8_t rep_applied         # the reputation modifier applied at the start of this interaction (10.2.3)
    int16_t recon_token        # Scouts: token instance + 1 looked at (Fame if defeated this turn), 0 = none
    int8_t recon_fame          # ... its Fame
    int8_t draw_fire_slot      # Shocktroops: enemy slot + 1 whose attack hits that unit first, 0 = none
    int8_t draw_fire_attack    # ... which of its attacks
    int8_t draw_fire_unit      # ... the Shocktroops' unit slot
    uint8_t glade_recruit      # LL-4.5.2: recruiting at a Magical Glade (not an interaction)
    # --- generic lasting effects (ext/_modifiers.pxd); round-scoped ones survive reset_turn ---
    Modifier mods[MAX_MODS]    # entries [0, n_mods) alive, in the order they were made
    int8_t n_mods
    uint64_t mod_live          # bit k set = a live entry of kind k (derived; kept by _modifiers.pxd, mod_live_sync)

cdef struct CombatEnemy:
    int16_t token              # token instance, -1 = empty
    int16_t enemy              # enemy content index
    int8_t armor_delta         # effects on armor (min 1 applied when read)
    uint8_t flags              # CE_* bits below
    int8_t summoned_by         # slot of its summoner, -1 = none (11.6.2)
    int16_t hex                # hex its token lies on (garrison, rampaging, den), -1 = drawn for this combat
    uint8_t blocked            # bit i: attack i blocked (11.6.6; LL-6.1.2 each attack separately)
    uint8_t damaged            # bit i: damage of attack i assigned (11.7.12; LL-6.1.2)
    int8_t attack_delta[3]     # per-attack change (Cumbersome LL-6.5.2, effects LL-6.1.5); value floored at 0
    # --- skills ---
    uint16_t lost_abilities    # Know Your Prey: AB_* bits (_combat.pxd) this enemy no longer has
    uint8_t lost_resistances   # Know Your Prey: RES_* bits it no longer has
    int8_t element_set[3]      # Know Your Prey: per attack, element + 1 replacing the printed one (0 = printed)
    # --- spells ---
    uint8_t res_lost           # RES_* bits an effect removed for this combat (Chill, 11.4.4)
    # --- units ---
    uint8_t unit_fx            # CEU_* bits (ext/_fx_units.pyx): lost resistances, destroy if blocked

cdef enum CombatEnemyFlags:
    CE_DEFEATED = 1
    CE_BLOCKED = 2
    CE_SITE_FORTIFIED = 4      # defends a fortified site (11.10.1)
    CE_NO_ATTACK = 8           # "does not attack this combat"
    CE_DAMAGE_DONE = 16        # its damage was assigned (11.7)
    CE_RAMPAGING = 32          # joined from a rampaging space (11.2.2)
    CE_GONE = 64               # summoned monster discarded (11.6.6 [R], 11.7.11); no longer in the combat
    CE_NO_FORTIFICATION = 128  # an effect removed its fortification (11.4.3); set by the engine

cdef enum CombatEnemyUnitFx:   # CombatEnemy.unit_fx (ext/_fx_units.pyx)
    CEU_NO_RESISTANCES = 1     # lost all its resistances this combat (Sorcerers, Expose, Delphana Masters)
    CEU_DESTROY_IF_BLOCKED = 2 # Delphana Masters: destroyed once all its attacks are blocked

cdef struct Combat:
    uint8_t active
    int16_t site_hex           # hex of the site fought at, -1 = none
    uint8_t night_rules        # 5.6
    uint8_t units_allowed      # 7.3.8
    CombatEnemy enemies[MAX_COMBAT_ENEMIES]
    int8_t n_enemies
    uint32_t targets           # bitmask of enemies targeted by the attack being assembled
    int16_t attack[3][4]       # attack points being assembled [kind][element] (11.5.2)
    int16_t block[4]           # block points being assembled [element] (11.6.3)
    int8_t block_target        # enemy being blocked, -1 = none
    int8_t dmg_slot            # enemy whose damage is being assigned (11.7.1), -1 = none
    int8_t dmg_attack          # which of its attacks (LL-6.1.2)
    int16_t dmg_left           # damage of that attack still to assign (11.7.3)
    int8_t reason              # why this combat happens (CK_* in _engine_combat.pxi; outcome 11.12)
    int16_t from_hex           # the space an assault started from (withdrawal, 11.12.4)
    # --- spells ---
    int8_t possess_lock        # Possess: slot + 1 of the possessed enemy while its Attack is in the pool

# ---------------------------------------------------------------------------------------
# The whole game
# ---------------------------------------------------------------------------------------
cdef struct GameState:
    Rng rng[NUM_STREAMS]       # all chance (see _rng.pxd)
    uint64_t seed              # root seed and game index, for the record
    uint64_t game_index
    int8_t scenario            # scenario content index
    int8_t n_players
    int8_t round               # 1-based
    int8_t time                # TimeOfDay
    int8_t phase               # Phase
    int8_t current             # player whose decision it is
    int8_t end_announced_by    # player (or MAX_PLAYERS for the dummy) who announced, -1 = none (4.2)
    int8_t final_turns_left    # after the scenario end is triggered (14.3.2)
    int8_t termination         # Termination
    uint32_t steps             # decisions taken
    int16_t error              # EngineError of the last apply(), 0 = none (raised by the Python face)
    int16_t error_arg          # e.g. the handler id that is not implemented
    int16_t error_card         # the card (or unit/skill) involved, -1 = none
    uint16_t cards_refused     # cards a full zone could not take (never lost silently: > 0 stops the game, ERR_CAPACITY)
    int8_t turn_player         # whose turn it is: player index, or MAX_PLAYERS for the dummy
    int8_t turns_in_round      # turns taken this round (all actors)
    int8_t last_turn_taken[MAX_PLAYERS + 1]   # 1 when the actor took its final turn after the announcement
    Player players[MAX_PLAYERS]
    Dummy dummy
    uint8_t has_dummy
    TurnState turn
    Combat combat
    # map
    Tile tiles[MAX_TILES]
    int8_t n_tiles
    Hex hexes[MAX_HEXES]
    int16_t n_hexes
    int8_t tile_stack[MAX_TILES]   # tile content indices, top = [n_tile_stack-1] (1.2.13)
    int8_t n_tile_stack
    uint8_t core_revealed      # 9.9.8
    # enemy token piles (1.2.2): token instance -> enemy content index
    int16_t token_enemy[MAX_TOKENS]
    int16_t piles[NUM_PILES][MAX_PILE]
    int8_t n_pile[NUM_PILES]
    int16_t pile_discard[NUM_PILES][MAX_PILE]
    int8_t n_pile_discard[NUM_PILES]
    int8_t ruins_pile[16]
    int8_t n_ruins_pile
    # the Source (5.5)
    int8_t dice[MAX_DICE]      # Colour
    uint8_t dice_taken         # bitmask of dice taken this turn
    int8_t n_dice
    # offers and decks (1.2.3 - 1.2.9)
    int16_t unit_offer[MAX_OFFER]  # >= 0 unit content index; < 0: -(card+1) AA from a monastery
    int8_t n_unit_offer
    int16_t aa_offer[3]        # top position first (1.2.5, 2.2.5)
    int16_t spell_offer[3]
    int16_t aa_deck[MAX_DECK]
    int8_t n_aa_deck
    int16_t spell_deck[MAX_DECK]
    int8_t n_spell_deck
    int16_t artifact_deck[MAX_DECK]
    int8_t n_artifact_deck
    int16_t regular_units[MAX_DECK]
    int8_t n_regular_units
    int16_t elite_units[MAX_DECK]
    int8_t n_elite_units
    int8_t skill_offer[24]     # common skill offer (1.2.7)
    int8_t n_skill_offer
    int8_t tactics_available[6]
    int8_t tactics_removed[12] # solo: used tactics leave the game (17.3.4)
    int8_t forced_tactic[MAX_ROUNDS]   # experiment arm: tactic + 1 the player must take in round r+1 when on offer, 0 = free
    # restricted play (experiment arm; Jaffe et al. 2012): bit k = content index k is forbidden
    uint64_t forbid_cards[4]   # Deed card rows (tables.card_ids)
    uint64_t forbid_skills[2]  # skill rows (tables.skill_ids)
    uint64_t forbid_units[2]   # unit rows (tables.unit_ids)
    uint32_t forbid_sites      # site kinds (content.SITE_IDS)
    uint8_t restricted         # any forbid_* bit set (legal_actions filters only then)


cdef inline Rng* deeds_rng(GameState* gs, const Player* pl) noexcept nogil:
    """The Deed-shuffle stream of the player ``pl`` (one of gs.players): seat 0 draws from
    STREAM_DEEDS (the solo stream), seat k > 0 from STREAM_DEEDS_1 + k - 1, so one
    player's shuffles never shift another's (issue 12)."""
    cdef int p = <int>(pl - &gs.players[0])
    return &gs.rng[<int>STREAM_DEEDS if p <= 0 else <int>STREAM_DEEDS_1 + p - 1]
