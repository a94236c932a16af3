"""Word lists of the content files whose positions the compiled core uses as codes.

Plain data without imports: the content loader (:mod:`mksim.content`, which re-exports
every name here) checks the files against them, and the compiled core (``ext/_engine.pyx``,
``_state.pyx``, ``_scoring.pyx``, ``_combat.pyx``) numbers words with them without importing
the loader (issue 12, layering).  The C enums that mirror some of them are checked by
tests/test_layering.py.
"""

EXPANSIONS = ("base", "lost_legion")
ENEMY_COLOURS = ("green", "grey", "violet", "brown", "red", "white")
ENEMY_ABILITIES = ("fortified", "unfortified", "swift", "brutal", "poison", "paralyze", "summon",
                   "elusive", "assassination", "arcane_immunity", "cumbersome")
RESISTANCES = ("physical", "fire", "ice")
UNIT_TIERS = ("regular", "elite")
SKILL_USAGE = ("once_per_turn", "once_per_round", "interactive", "passive")
REWARDS = ("artifact", "spell", "advanced_action", "unit", "crystal_random", "crystal_each_basic",
           "dungeon_roll", "fame")
TILE_KINDS = ("start", "countryside", "core", "city")
SITE_CATEGORIES = ("inhabited", "fortified", "adventure", "rampaging", "resource", "special")
SITE_IDS = ("village", "monastery", "keep", "mage_tower", "city", "dungeon", "tomb", "monster_den",
            "spawning_grounds", "ancient_ruins", "magical_glade", "crystal_mine", "rampaging_orc",
            "rampaging_draconum", "portal", "deep_mine", "refugee_camp", "maze", "labyrinth",
            "volkares_camp")
HERO_IDS = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")
